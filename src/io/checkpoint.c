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

#define CHK_FORMAT 1

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
  int64_t off, tot, *id64, *len64;
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
  PetscCall(MbH5WriteAttrInt(f, "constraint_bytes", (int64_t)c->consize, path));
  /* bodies */
  PetscCall(PetscMalloc2(c->nbody + 1, &id64, c->nbody + 1, &len64));
  for (PetscInt i = 0; i < c->nbody; i++) {
    id64[i]  = c->id[i];
    len64[i] = c->len[i];
  }
  MbH5Get(g, H5Gcreate2, (f, "bodies", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "/bodies");
  PetscCall(Place(out, c->nbody, &off, &tot));
  PetscCall(MbH5WriteDataset(out, g, "/bodies", "id", H5T_NATIVE_INT64, 0, tot, off, c->nbody, id64));
  PetscCall(MbH5WriteDataset(out, g, "/bodies", "len", H5T_NATIVE_INT64, 0, tot, off, c->nbody, len64));
  PetscCall(Place(out, c->nx, &off, &tot));
  PetscCall(MbH5WriteDataset(out, g, "/bodies", "x", H5T_NATIVE_DOUBLE, 0, tot, off, c->nx, c->x));
  MbH5Call(H5Gclose, (g), "/bodies");
  PetscCall(PetscFree2(id64, len64));
  /* constraint records, opaque bytes of this build (constraint_bytes each) */
  PetscCall(Place(out, (int64_t)(c->ncon * c->consize), &off, &tot));
  PetscCall(MbH5WriteDataset(out, f, "", "constraints", H5T_NATIVE_UINT8, 0, tot, off, (int64_t)(c->ncon * c->consize), c->con));
  /* per rank: the energy accumulators */
  PetscCall(MbH5WriteDataset(out, f, "", "rank_work", H5T_NATIVE_DOUBLE, 4, out->size, out->rank, 1, c->acc));
  /* global */
  PetscCall(MbH5WriteDataset(out, f, "", "global", H5T_NATIVE_DOUBLE, 0, c->nglob, 0, out->rank == 0 ? c->nglob : 0, c->glob));
  PetscCall(MbH5WriteDataset(out, f, "", "adapt", H5T_NATIVE_UINT8, 0, (int64_t)c->nadapt, 0, out->rank == 0 ? (int64_t)c->nadapt : 0, c->adapt));
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
  PetscCall(MbOutputCheckRoom(out, out->dir, 8.0 * (double)(c.nx + c.nglob) * out->size + (double)c.ncon * (double)c.consize * out->size + 65536.0, what));
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

/* The checkpoint into c and the output's part into o, frames and meshes. */
static PetscErrorCode ReadChk(MbOutput out, const char *path, MbCheckpoint *c, double o[O_N], double **fr, int64_t **me)
{
  hid_t    fapl, f;
  int64_t  fmt, v, n, nid, nlen;
  int64_t *id64, *len64;
  double  *od;
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
  PetscCall(MbH5ReadAttr(f, "constraint_bytes", H5T_NATIVE_INT64, &v, path));
  c->consize = (size_t)v;
  PetscCall(ReadWhole(out, f, "/bodies/id", H5T_NATIVE_INT64, sizeof(int64_t), &nid, (void **)&id64));
  PetscCall(ReadWhole(out, f, "/bodies/len", H5T_NATIVE_INT64, sizeof(int64_t), &nlen, (void **)&len64));
  PetscCheck(nid == nlen, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: %lld body ids and %lld record lengths", path, (long long)nid, (long long)nlen);
  c->nbody = (PetscInt)nid;
  {
    PetscReal *x;
    int64_t    nx, sum = 0;
    PetscCall(ReadWhole(out, f, "/bodies/x", H5T_NATIVE_DOUBLE, sizeof(PetscReal), &nx, (void **)&x));
    PetscCall(PetscMalloc3(nid + 1, &c->id, nid + 1, &c->len, nx + 1, &c->x));
    for (int64_t i = 0; i < nid; i++) {
      c->id[i]  = (PetscInt)id64[i];
      c->len[i] = (PetscInt)len64[i];
      sum += len64[i];
    }
    PetscCheck(sum == nx, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: the body records add up to %lld numbers; /bodies/x has %lld", path, (long long)sum, (long long)nx);
    if (nx) PetscCall(PetscArraycpy(c->x, x, nx));
    c->nx = (PetscInt)nx;
    PetscCall(PetscFree(x));
  }
  PetscCall(PetscFree(id64));
  PetscCall(PetscFree(len64));
  PetscCall(ReadWhole(out, f, "/constraints", H5T_NATIVE_UINT8, 1, &n, &c->con));
  PetscCheck(c->consize > 0 && n % (int64_t)c->consize == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: %lld bytes of constraint records of %zu bytes each", path, (long long)n, c->consize);
  c->ncon = (PetscInt)(n / (int64_t)c->consize);
  PetscCall(ReadWhole(out, f, "/rank_work", H5T_NATIVE_DOUBLE, sizeof(PetscReal), &n, (void **)&c->racc));
  PetscCheck(n == 4 * c->nranks, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /rank_work has %lld numbers for %" PetscInt_FMT " ranks", path, (long long)n, c->nranks);
  PetscCall(ReadWhole(out, f, "/global", H5T_NATIVE_DOUBLE, sizeof(PetscReal), &n, (void **)&c->glob));
  c->nglob = (PetscInt)n;
  PetscCall(ReadWhole(out, f, "/adapt", H5T_NATIVE_UINT8, 1, &n, (void **)&c->adapt));
  c->nadapt = (size_t)n;
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
