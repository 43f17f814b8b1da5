/* The checkpoint file DIR/<name>.chk (doc/output.md, "Restart data"), written by all
   ranks collectively like the results, and a restart's reopening of the results. A
   checkpoint is written to DIR/<name>.chk.tmp and renamed over the last one once
   complete, so a run killed while writing it (SIGKILL, a node lost) keeps the previous one.
   Its numbers are global: body records carry their ids and constraint records their bodies,
   so a restart reads them on any number of ranks (src/domain/checkpoint.c keeps each rank's
   own). Each rank reads the whole file: fine up to some 10⁶ bodies; past that a rank should
   read only the records of the bodies it owns. */
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <moreau/mbbody.h>
#include "outputimpl.h"

#define CHK_FORMAT 2

/* This rank's offset into, and the total of, n over the ranks. */
static PetscErrorCode Place(MbOutput out, int64_t n, int64_t *off, int64_t *tot)
{
  PetscFunctionBegin;
  *off = 0;
  PetscCallMPI(MPI_Exscan(&n, off, 1, MPI_INT64_T, MPI_SUM, out->comm));
  if (out->rank == 0) *off = 0;
  PetscCallMPI(MPI_Allreduce(&n, tot, 1, MPI_INT64_T, MPI_SUM, out->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The output's own clock and tables: frames (time, mesh, constraints) and meshes. */
enum { O_NEXT, O_LAST_STEP, O_BODY_IDS, O_BODY_ROWS, O_NHIST, O_INTERVAL, O_NOTICED, O_FRAMEBYTES, O_NFRAME, O_NMESH, O_N };

static PetscErrorCode WriteChk(MbOutput out, const MbCheckpoint *c, const char *path)
{
  hid_t   fapl, f, g;
  int64_t off, tot;
  double  o[O_N];
  PetscFunctionBegin;
  MbH5Get(fapl, H5Pcreate, (H5P_FILE_ACCESS), path);
  MbH5Call(H5Pset_fapl_mpio, (fapl, out->comm, MPI_INFO_NULL), path);
  MbH5Get(f, H5Fcreate, (path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl), path);
  MbH5Call(H5Pclose, (fapl), path);
  PetscCall(MbH5WriteAttrString(f, "moreau_version", MOREAU_VERSION_STRING, path));
  PetscCall(MbH5WriteAttrInt(f, "format", CHK_FORMAT, path));
  PetscCall(MbH5WriteAttrInt(f, "ranks", out->size, path));
  PetscCall(MbH5WriteAttrInt(f, "steps", c->nsteps, path));
  PetscCall(MbH5WriteAttr(f, "time", H5T_NATIVE_DOUBLE, &c->t, path));
  PetscCall(MbH5WriteAttrInt(f, "run", c->run, path));
  PetscCall(MbH5WriteAttrInt(f, "run_done", c->run_done ? 1 : 0, path));
  PetscCall(MbH5WriteAttr(f, "run_end", H5T_NATIVE_DOUBLE, &c->run_end, path));
  PetscCall(MbH5WriteAttr(f, "run_duration", H5T_NATIVE_DOUBLE, &c->run_duration, path));
  /* the domain's parts: each rank's bytes one after another, and how many each gave */
  MbH5Get(g, H5Gcreate2, (f, "state", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "/state");
  for (PetscInt k = 0; k < c->npart; k++) {
    const MbCheckpointPart *p = &c->part[k];
    char                    gpath[64];
    hid_t                   pg;
    int64_t                 n = (int64_t)p->n;
    PetscCall(PetscSNPrintf(gpath, sizeof(gpath), "/state/%s", p->name));
    MbH5Get(pg, H5Gcreate2, (g, p->name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), gpath);
    PetscCall(MbH5WriteAttrInt(pg, "distribution", p->dist, gpath));
    PetscCall(Place(out, n, &off, &tot));
    PetscCall(MbH5WriteDataset(out, pg, gpath, "bytes", H5T_NATIVE_UINT8, 0, tot, off, n, p->bytes));
    PetscCall(MbH5WriteDataset(out, pg, gpath, "count", H5T_NATIVE_INT64, 0, out->size, out->rank, 1, &n));
    MbH5Call(H5Gclose, (pg), gpath);
  }
  MbH5Call(H5Gclose, (g), "/state");
  /* the output's clock and tables */
  o[O_NEXT]       = out->next;
  o[O_LAST_STEP]  = (double)out->last_step;
  o[O_BODY_IDS]   = (double)out->body_ids;
  o[O_BODY_ROWS]  = (double)out->body_rows;
  o[O_NHIST]      = (double)out->nhist;
  o[O_INTERVAL]   = out->interval;
  o[O_NOTICED]    = out->noticed ? 1 : 0;
  o[O_FRAMEBYTES] = out->framebytes;
  o[O_NFRAME]     = (double)out->nframe;
  o[O_NMESH]      = (double)out->nmesh;
  PetscCall(MbH5WriteDataset(out, f, "", "output", H5T_NATIVE_DOUBLE, 0, O_N, 0, out->rank == 0 ? O_N : 0, o));
  {
    double  *fr;
    int64_t *me;
    PetscCall(PetscMalloc2(3 * out->nframe + 1, &fr, 5 * out->nmesh + 1, &me));
    for (PetscInt k = 0; k < out->nframe; k++) {
      fr[3 * k]     = out->frame[k].time;
      fr[3 * k + 1] = (double)out->frame[k].mesh;
      fr[3 * k + 2] = (double)out->frame[k].ncon;
    }
    for (PetscInt k = 0; k < out->nmesh; k++) {
      me[5 * k]     = out->mesh[k].nbody;
      me[5 * k + 1] = out->mesh[k].npts;
      me[5 * k + 2] = out->mesh[k].ncells;
      me[5 * k + 3] = out->mesh[k].ntopo;
      me[5 * k + 4] = out->mesh[k].nsph;
    }
    PetscCall(MbH5WriteDataset(out, f, "", "output_frames", H5T_NATIVE_DOUBLE, 3, out->nframe, 0, out->rank == 0 ? out->nframe : 0, fr));
    PetscCall(MbH5WriteDataset(out, f, "", "output_meshes", H5T_NATIVE_INT64, 5, out->nmesh, 0, out->rank == 0 ? out->nmesh : 0, me));
    PetscCall(PetscFree2(fr, me));
  }
  MbH5Call(H5Fclose, (f), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputCheckpoint(MbDomain dom, void *ctx)
{
  MbOutput       out = ((MbOutLink *)ctx)->out;
  MbCheckpoint   c;
  char           tmp[PETSC_MAX_PATH_LEN + 8], what[PETSC_MAX_PATH_LEN + 64];
  int            err = 0;
  PetscErrorCode e;
  PetscFunctionBegin;
  if (!out) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbOutputFlush(out)); /* /history holds every step the checkpoint has taken */
  PetscCall(MbDomainCheckpointGet(dom, &c));
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", out->chk));
  PetscCall(PetscSNPrintf(what, sizeof(what), "cannot write checkpoint %s", out->chk));
  {
    double bytes = 65536.0;
    for (PetscInt k = 0; k < c.npart; k++) bytes += (double)c.part[k].n * out->size;
    PetscCall(MbOutputCheckRoom(out, out->dir, bytes, what));
  }
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  e = WriteChk(out, &c, tmp);
  PetscCall(PetscPopErrorHandler());
  PetscCall(MbDomainCheckpointFree(&c));
  if (e) {
    const char *text;
    char       *msg = NULL;
    (void)PetscErrorMessage(e, &text, &msg);
    SETERRQ(PETSC_COMM_SELF, e, "%s: %s", what, msg ? msg : text ? text : "an HDF5 error");
  }
  /* complete on every rank: only now does it replace the last one */
  PetscCallMPI(MPI_Barrier(out->comm));
  if (out->rank == 0 && rename(tmp, out->chk)) err = errno;
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, out->comm));
  PetscCheck(!err, out->comm, PETSC_ERR_FILE_WRITE, "%s: renaming %s over it: %s", what, tmp, strerror(err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MbOutputCheckpointFinished - mark the output's checkpoint, if there is one, as that of a
  deck that ran to its end: a restart from it then has nothing to continue and is refused
  (typed without the run's -mb_output_dir, "moreau -mb_restart deck.py" found such a
  checkpoint and "continued" it in no time). Collective.
@*/
PetscErrorCode MbOutputCheckpointFinished(MbOutput out)
{
  int err = 0;
  PetscFunctionBegin;
  if (out->readonly) PetscFunctionReturn(PETSC_SUCCESS);
  if (out->rank == 0) {
    struct stat st;
    if (!stat(out->chk, &st)) {
      hid_t f = H5Fopen(out->chk, H5F_ACC_RDWR, H5P_DEFAULT);
      if (f < 0)
        err = 1;
      else {
        PetscErrorCode e;
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        e = MbH5WriteAttrInt(f, "deck_finished", 1, out->chk);
        PetscCall(PetscPopErrorHandler());
        if (H5Fclose(f) < 0 || e) err = 1;
      }
    }
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, out->comm));
  PetscCheck(!err, out->comm, PETSC_ERR_FILE_WRITE, "cannot mark checkpoint %s as that of a finished run", out->chk);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- restart */

/* A whole dataset of the checkpoint, read by every rank: its element count and a buffer of
   elemsize bytes each (to PetscFree). */
static PetscErrorCode ReadWhole(MbOutput out, hid_t f, const char *path, hid_t type, size_t elemsize, int64_t *n, void **buf)
{
  int64_t rows;
  int     cols;
  PetscFunctionBegin;
  PetscCall(MbH5ReadAll(out, f, path, type, elemsize, &rows, &cols, buf));
  *n = rows * (cols ? cols : 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The domain's parts (/state/<name>/bytes and count), every writing rank's. */
static PetscErrorCode ReadParts(MbOutput out, hid_t f, const char *path, MbCheckpoint *c)
{
  hid_t      g;
  H5G_info_t info;
  PetscFunctionBegin;
  MbH5Get(g, H5Gopen2, (f, "state", H5P_DEFAULT), "/state");
  MbH5Call(H5Gget_info, (g, &info), "/state");
  PetscCall(PetscCalloc1(info.nlinks + 1, &c->part));
  c->npart = (PetscInt)info.nlinks;
  for (hsize_t k = 0; k < info.nlinks; k++) {
    MbCheckpointPart *p = &c->part[k];
    char              gpath[96];
    hid_t             pg;
    int64_t           dist, n, nc, sum = 0;
    if (H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, k, p->name, sizeof(p->name), H5P_DEFAULT) < 0) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "checkpoint %s: cannot read the name of part %d of /state", path, (int)k);
    PetscCall(PetscSNPrintf(gpath, sizeof(gpath), "/state/%s", p->name));
    MbH5Get(pg, H5Gopen2, (g, p->name, H5P_DEFAULT), gpath);
    PetscCall(MbH5ReadAttr(pg, "distribution", H5T_NATIVE_INT64, &dist, gpath));
    MbH5Call(H5Gclose, (pg), gpath);
    p->dist = (int)dist;
    PetscCall(PetscSNPrintf(gpath, sizeof(gpath), "/state/%s/bytes", p->name));
    PetscCall(ReadWhole(out, f, gpath, H5T_NATIVE_UINT8, 1, &n, (void **)&p->bytes));
    p->n = (size_t)n;
    PetscCall(PetscSNPrintf(gpath, sizeof(gpath), "/state/%s/count", p->name));
    PetscCall(ReadWhole(out, f, gpath, H5T_NATIVE_INT64, sizeof(PetscInt64), &nc, (void **)&p->count));
    for (int64_t r = 0; r < nc; r++) sum += p->count[r];
    PetscCheck(nc == c->nranks && sum == n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /state/%s has %lld bytes from %lld ranks, which gave %lld; %" PetscInt_FMT " ranks wrote the file", path, p->name, (long long)n, (long long)nc,
               (long long)sum, c->nranks);
  }
  MbH5Call(H5Gclose, (g), "/state");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The checkpoint into c and the output's part into o, frames and meshes. */
static PetscErrorCode ReadChk(MbOutput out, const char *path, MbCheckpoint *c, double o[O_N], double **fr, int64_t **me)
{
  hid_t   fapl, f;
  int64_t fmt, v, n;
  double *od;
  PetscFunctionBegin;
  MbH5Get(fapl, H5Pcreate, (H5P_FILE_ACCESS), path);
  MbH5Call(H5Pset_fapl_mpio, (fapl, out->comm, MPI_INFO_NULL), path);
  MbH5Get(f, H5Fopen, (path, H5F_ACC_RDONLY, fapl), path);
  MbH5Call(H5Pclose, (fapl), path);
  PetscCall(MbH5ReadAttr(f, "format", H5T_NATIVE_INT64, &fmt, path));
  PetscCheck(fmt == CHK_FORMAT, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s has format %lld; this moreau reads format %d", path, (long long)fmt, CHK_FORMAT);
  PetscCall(MbH5ReadAttr(f, "ranks", H5T_NATIVE_INT64, &v, path));
  c->nranks = (PetscInt)v;
  PetscCall(MbH5ReadAttr(f, "steps", H5T_NATIVE_INT64, &v, path));
  c->nsteps = (PetscInt)v;
  PetscCall(MbH5ReadAttr(f, "time", H5T_NATIVE_DOUBLE, &c->t, path));
  PetscCall(MbH5ReadAttr(f, "run", H5T_NATIVE_INT64, &v, path));
  c->run = (PetscInt)v;
  PetscCall(MbH5ReadAttr(f, "run_done", H5T_NATIVE_INT64, &v, path));
  c->run_done = v ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(MbH5ReadAttr(f, "run_end", H5T_NATIVE_DOUBLE, &c->run_end, path));
  PetscCall(MbH5ReadAttr(f, "run_duration", H5T_NATIVE_DOUBLE, &c->run_duration, path));
  {
    htri_t fin;
    MbH5Get(fin, H5Aexists, (f, "deck_finished"), path);
    PetscCheck(!fin, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE,
               "-mb_restart: checkpoint %s is of a run whose deck ran to its end (t = %g, step %" PetscInt_FMT "): there is nothing to continue, and the results are left as they are. A run stopped by a signal printed the command that continues it "
               "(with its -mb_output_dir, if it had one); to run the deck again, leave out -mb_restart (and give -w to write over these results)",
               path, c->t, c->nsteps);
  }
  PetscCall(ReadParts(out, f, path, c));
  PetscCall(ReadWhole(out, f, "/output", H5T_NATIVE_DOUBLE, sizeof(double), &n, (void **)&od));
  PetscCheck(n == O_N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /output has %lld numbers; %d expected", path, (long long)n, O_N);
  PetscCall(PetscArraycpy(o, od, O_N));
  PetscCall(PetscFree(od));
  PetscCall(ReadWhole(out, f, "/output_frames", H5T_NATIVE_DOUBLE, sizeof(double), &n, (void **)fr));
  PetscCheck(n == 3 * (int64_t)o[O_NFRAME], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /output_frames has %lld numbers for %g frames", path, (long long)n, o[O_NFRAME]);
  PetscCall(ReadWhole(out, f, "/output_meshes", H5T_NATIVE_INT64, sizeof(int64_t), &n, (void **)me));
  PetscCheck(n == 5 * (int64_t)o[O_NMESH], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /output_meshes has %lld numbers for %g meshes", path, (long long)n, o[O_NMESH]);
  MbH5Call(H5Fclose, (f), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cut the extendible datasets of group gpath to rows rows. */
static PetscErrorCode Truncate(MbOutput out, const char *gpath, const char *const names[], int n, int64_t rows)
{
  PetscFunctionBegin;
  for (int k = 0; k < n; k++) {
    char    path[128];
    hid_t   d, fs;
    hsize_t dims[2] = {0, 0};
    htri_t  ex;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", gpath, names[k]));
    MbH5Get(ex, H5Lexists, (out->file, path, H5P_DEFAULT), path);
    if (!ex) continue;
    MbH5Get(d, H5Dopen2, (out->file, path, H5P_DEFAULT), path);
    MbH5Get(fs, H5Dget_space, (d), path);
    MbH5Call(H5Sget_simple_extent_dims, (fs, dims, NULL), path);
    PetscCheck((int64_t)dims[0] >= rows, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "restart: %s of %s has %lld rows, fewer than the %lld of the checkpoint: is it the file the checkpoint was written with?", path, out->h5, (long long)dims[0],
               (long long)rows);
    dims[0] = (hsize_t)rows;
    MbH5Call(H5Sclose, (fs), path);
    MbH5Call(H5Dset_extent, (d, dims), path);
    MbH5Call(H5Dclose, (d), path);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Groups name/NNNNNN from first on, written after the checkpoint by the run that stopped,
   unlinked. */
static PetscErrorCode DropFrom(MbOutput out, const char *group, PetscInt first)
{
  PetscFunctionBegin;
  for (PetscInt k = first;; k++) {
    char   path[64];
    htri_t ex;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%06" PetscInt_FMT, group, k));
    MbH5Get(ex, H5Lexists, (out->file, path, H5P_DEFAULT), path);
    if (!ex) break;
    MbH5Call(H5Ldelete, (out->file, path, H5P_DEFAULT), path);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputReopen(MbOutput out, const char chk[])
{
  MbCheckpoint c;
  double       o[O_N], *fr = NULL;
  int64_t     *me      = NULL;
  int          miss[2] = {0, 0};
  hid_t        fapl;
  MbHistory   *h;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  if (out->rank == 0) {
    struct stat st;
    miss[0] = stat(chk, &st) ? errno : 0;
    miss[1] = stat(out->h5, &st) ? errno : 0;
  }
  PetscCallMPI(MPI_Bcast(miss, 2, MPI_INT, 0, out->comm));
  PetscCheck(!miss[0], out->comm, PETSC_ERR_FILE_OPEN, "-mb_restart: cannot read checkpoint %s: %s (a run writes one at the end of each RUN that took a second or more, on a signal, and with -mb_checkpoint_steps, _interval or _wall)", chk,
             strerror(miss[0]));
  PetscCheck(!miss[1], out->comm, PETSC_ERR_FILE_OPEN, "-mb_restart: the results %s to continue are missing: %s", out->h5, strerror(miss[1]));
  MbH5Get(out->dxpl, H5Pcreate, (H5P_DATASET_XFER), out->h5);
  MbH5Call(H5Pset_dxpl_mpio, (out->dxpl, H5FD_MPIO_COLLECTIVE), out->h5);
  MbH5Get(out->label_type, H5Tcopy, (H5T_C_S1), "/bodies/label");
  MbH5Call(H5Tset_size, (out->label_type, 64), "/bodies/label");
  PetscCall(ReadChk(out, chk, &c, o, &fr, &me));
  /* the results, cut back to the checkpoint */
  MbH5Get(fapl, H5Pcreate, (H5P_FILE_ACCESS), out->h5);
  MbH5Call(H5Pset_fapl_mpio, (fapl, out->comm, MPI_INFO_NULL), out->h5);
  PetscCall(MbOutputCacheConfig(fapl, out->h5));
  MbH5Get(out->file, H5Fopen, (out->h5, H5F_ACC_RDWR, fapl), out->h5);
  MbH5Call(H5Pclose, (fapl), out->h5);
  {
    static const char *const hist[]   = {"time", "step", "kinetic", "internal", "external", "contact", "friction", "iterations", "error", "contacts", "curvature", "estimate", "rejected", "walltime"};
    static const char *const bodies[] = {"id", "kind", "mass", "volume", "center", "label"};
    PetscCall(Truncate(out, "/history", hist, (int)PETSC_STATIC_ARRAY_LENGTH(hist), (int64_t)o[O_NHIST]));
    PetscCall(Truncate(out, "/bodies", bodies, (int)PETSC_STATIC_ARRAY_LENGTH(bodies), (int64_t)o[O_BODY_ROWS]));
  }
  PetscCall(DropFrom(out, "/frames", (PetscInt)o[O_NFRAME]));
  PetscCall(DropFrom(out, "/mesh", (PetscInt)o[O_NMESH]));
  MbH5Call(H5Fflush, (out->file, H5F_SCOPE_GLOBAL), out->h5);
  /* the output's clock and tables */
  out->next       = o[O_NEXT];
  out->last_step  = (PetscInt)o[O_LAST_STEP];
  out->body_ids   = (PetscInt)o[O_BODY_IDS];
  out->body_rows  = (int64_t)o[O_BODY_ROWS];
  out->nhist      = (PetscInt)o[O_NHIST];
  out->interval   = o[O_INTERVAL];
  out->noticed    = o[O_NOTICED] > 0 ? PETSC_TRUE : PETSC_FALSE;
  out->framebytes = o[O_FRAMEBYTES];
  out->nframe = out->fcap = (PetscInt)o[O_NFRAME];
  out->nmesh = out->mcap = (PetscInt)o[O_NMESH];
  out->lay_n             = -1; /* the next frame writes the mesh of this run's layout */
  out->restored          = PETSC_TRUE;
  PetscCall(PetscMalloc1(out->fcap + 1, &out->frame));
  PetscCall(PetscMalloc1(out->mcap + 1, &out->mesh));
  for (PetscInt k = 0; k < out->nframe; k++) {
    out->frame[k].time = fr[3 * k];
    out->frame[k].mesh = (PetscInt)fr[3 * k + 1];
    out->frame[k].ncon = (int64_t)fr[3 * k + 2];
  }
  for (PetscInt k = 0; k < out->nmesh; k++) {
    out->mesh[k].nbody  = me[5 * k];
    out->mesh[k].npts   = me[5 * k + 1];
    out->mesh[k].ncells = me[5 * k + 2];
    out->mesh[k].ntopo  = me[5 * k + 3];
    out->mesh[k].nsph   = me[5 * k + 4];
  }
  PetscCall(PetscFree(fr));
  PetscCall(PetscFree(me));
  /* the XDMF index of the frames kept */
  PetscCall(MbXdmfOpen(out));
  for (PetscInt k = 0; k < out->nframe; k++) PetscCall(MbXdmfAddFrame(out, k));
  out->xdone = out->nframe;
  /* the history so far, and the state to resume at the checkpoint's RUN call */
  PetscCall(MbOutputReadHistoryRecords(out, out->nhist, &h));
  PetscCall(MbDomainSetHistory(out->dom, out->nhist, h));
  PetscCall(PetscFree(h));
  PetscCall(PetscPrintf(out->comm, "moreau: restart from %s: t = %.9g, step %" PetscInt_FMT ", written on %" PetscInt_FMT " rank%s; %s keeps its first %" PetscInt_FMT " frames\n", chk, (double)c.t, c.nsteps, c.nranks, c.nranks == 1 ? "" : "s",
                        out->h5, out->nframe));
  PetscCall(MbDomainSetResume(out->dom, &c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
