/* READ mode (Solfec-1.0's, doc/deck-api.md "READ mode"): a deck run again where its results
   already are opens them for reading instead of computing. The bodies the deck makes take
   their state from a frame (MbBodySetFrameState: conf, velo, affine, nodal state), found by
   body id, so any number of ranks reads results any number of ranks wrote: each rank reads
   the frame's rows and keeps those of the bodies it owns. */
#include <string.h>
#include <sys/stat.h>
#include <moreau/mbbody.h>
#include <moreau/mbmath.h>
#include "outputimpl.h"

/* rank 0 looks at DIR/<name>.h5: results with at least one frame (*exists), none or no
   frame in them (a run that stopped before its first frame: it is written anew), or an
   error when HDF5 cannot open it */
PetscErrorCode MbOutputExists(MPI_Comm comm, const char dir[], const char name[], PetscBool *exists)
{
  char        path[PETSC_MAX_PATH_LEN + 8];
  int         st[2] = {0, 0}; /* exists, problem: 1 not HDF5, 2 no frame */
  PetscMPIInt rank;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MbOutputPath(path, sizeof(path), dir, name, ".h5"));
  if (rank == 0) {
    struct stat sb;
    if (!stat(path, &sb) && S_ISREG(sb.st_mode)) {
      hid_t f;
      st[0] = 1;
      H5E_BEGIN_TRY
      {
        f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        if (f < 0)
          st[1] = 1;
        else {
          if (H5Lexists(f, "/frames", H5P_DEFAULT) <= 0 || H5Lexists(f, "/frames/000000", H5P_DEFAULT) <= 0) st[1] = 2;
          H5Fclose(f);
        }
      }
      H5E_END_TRY;
    }
  }
  PetscCallMPI(MPI_Bcast(st, 2, MPI_INT, 0, comm));
  PetscCheck(st[1] != 1, comm, PETSC_ERR_FILE_READ, "results %s exist but HDF5 cannot open them (a run killed while creating it, or another program's file?): run with -w to compute anew over them, or remove them", path);
  *exists = st[0] && st[1] != 2 ? PETSC_TRUE : PETSC_FALSE; /* no frame (a run that stopped before its first): nothing to read, written anew */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputOpenRead(MbDomain dom, const char dir[], const char name[], MbOutput *outp)
{
  MbOutput out;
  hid_t    fapl;
  PetscFunctionBegin;
  PetscCall(PetscNew(&out));
  out->dom      = dom;
  out->readonly = PETSC_TRUE;
  out->file = out->dxpl = out->label_type = -1;
  out->last_step                          = -1;
  PetscCall(MbDomainGetComm(dom, &out->comm));
  PetscCallMPI(MPI_Comm_rank(out->comm, &out->rank));
  PetscCallMPI(MPI_Comm_size(out->comm, &out->size));
  PetscCall(PetscStrncpy(out->dir, dir, sizeof(out->dir)));
  PetscCall(PetscStrncpy(out->name, name, sizeof(out->name)));
  PetscCall(MbOutputPath(out->h5, sizeof(out->h5), dir, name, ".h5"));
  PetscCall(MbOutputPath(out->xmf, sizeof(out->xmf), dir, name, ".xmf"));
  MbH5Get(fapl, H5Pcreate, (H5P_FILE_ACCESS), out->h5);
  MbH5Call(H5Pset_fapl_mpio, (fapl, out->comm, MPI_INFO_NULL), out->h5);
  MbH5Get(out->file, H5Fopen, (out->h5, H5F_ACC_RDONLY, fapl), out->h5);
  MbH5Call(H5Pclose, (fapl), out->h5);
  MbH5Get(out->dxpl, H5Pcreate, (H5P_DATASET_XFER), out->h5);
  MbH5Call(H5Pset_dxpl_mpio, (out->dxpl, H5FD_MPIO_COLLECTIVE), out->h5);
  MbH5Get(out->label_type, H5Tcopy, (H5T_C_S1), "/bodies/label");
  MbH5Call(H5Tset_size, (out->label_type, 64), "/bodies/label");
  { /* the bodies the file knows (HISTORY of a body checks its id among them) */
    htri_t  ex;
    int64_t rows = 0, *ids = NULL;
    int     cols;
    MbH5Get(ex, H5Lexists, (out->file, "/bodies/id", H5P_DEFAULT), "/bodies/id");
    if (ex) PetscCall(MbH5ReadAll(out, out->file, "/bodies/id", H5T_NATIVE_INT64, sizeof(int64_t), &rows, &cols, (void **)&ids));
    PetscCall(PetscFree(ids));
    out->body_rows = rows;
    out->body_ids  = (PetscInt)rows;
  }
  /* the frames: their times and step counts */
  for (PetscInt f = 0;; f++) {
    char   gp[32];
    htri_t ex;
    hid_t  g;
    double t, s;
    PetscCall(PetscSNPrintf(gp, sizeof(gp), "/frames/%06" PetscInt_FMT, f));
    MbH5Get(ex, H5Lexists, (out->file, gp, H5P_DEFAULT), gp);
    if (!ex) break;
    MbH5Get(g, H5Gopen2, (out->file, gp, H5P_DEFAULT), gp);
    PetscCall(MbH5ReadAttr(g, "time", H5T_NATIVE_DOUBLE, &t, gp));
    PetscCall(MbH5ReadAttr(g, "steps", H5T_NATIVE_DOUBLE, &s, gp));
    MbH5Call(H5Gclose, (g), gp);
    if (out->nframe == out->fcap) {
      out->fcap = out->fcap ? 2 * out->fcap : 64;
      PetscCall(PetscRealloc(sizeof(MbOutFrame) * out->fcap, &out->frame));
    }
    out->frame[f].time  = t;
    out->frame[f].steps = (PetscInt)s;
    out->frame[f].mesh  = 0;
    out->frame[f].ncon  = 0;
    out->nframe++;
  }
  out->cur = -1;
  *outp    = out;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The whole of dataset gp/name as doubles (every rank), or *n = −1 when it is not there. */
PetscErrorCode MbOutputReadFrameArray(MbOutput out, const char *gp, const char *name, int64_t *n, double **v)
{
  char    path[96];
  htri_t  ex;
  int64_t rows;
  int     cols;
  PetscFunctionBegin;
  *n = -1;
  *v = NULL;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", gp, name));
  MbH5Get(ex, H5Lexists, (out->file, path, H5P_DEFAULT), path);
  if (!ex) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbH5ReadAll(out, out->file, path, H5T_NATIVE_DOUBLE, sizeof(double), &rows, &cols, (void **)v));
  *n = rows * (cols ? cols : 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The frame's constraint rows (contact_* datasets, doc/output.md) into out->rcon. A local
   frame is made from the normal alone, as the run's is not stored: t1 is the coordinate axis
   least along n made orthogonal to it, t2 = n × t1; R = baseᵀ·force. */
static PetscErrorCode ReadFrameConstraints(MbOutput out, const char *gp)
{
  const char *name[]  = {"contact_point", "contact_normal", "contact_force", "contact_gap", "contact_kind", "contact_bodies"};
  const int   width[] = {3, 3, 3, 1, 1, 2};
  double     *v[6]    = {NULL};
  int64_t     n[6], q = -1;
  PetscFunctionBegin;
  PetscCall(PetscFree(out->rcon));
  out->nrcon = 0;
  for (int k = 0; k < 6; k++) {
    PetscCall(MbOutputReadFrameArray(out, gp, name[k], &n[k], &v[k]));
    if (n[k] < 0)
      q = -2; /* an older file without them: no constraints */
    else if (q != -2) {
      PetscCheck(q < 0 || n[k] == q * width[k], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s of %s: %s has %lld numbers, %lld expected", gp, out->h5, name[k], (long long)n[k], (long long)(q * width[k]));
      if (q < 0) {
        PetscCheck(n[k] % width[k] == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s of %s: %s has %lld numbers, not a multiple of %d", gp, out->h5, name[k], (long long)n[k], width[k]);
        q = n[k] / width[k];
      }
    }
  }
  if (q > 0) {
    PetscCall(PetscCalloc1(q, &out->rcon));
    for (int64_t r = 0; r < q; r++) {
      MbConstraintInfo *c  = &out->rcon[r];
      PetscReal        *t1 = c->base, *t2 = c->base + 3, *nn = c->base + 6, e[3] = {0, 0, 0}, a;
      int               m = 0;
      for (int k = 0; k < 3; k++) {
        c->point[k]  = v[0][3 * r + k];
        c->normal[k] = nn[k] = v[1][3 * r + k];
        c->force[k]          = v[2][3 * r + k];
        if (PetscAbsReal(nn[k]) < PetscAbsReal(nn[m])) m = k;
      }
      c->gap     = v[3][r];
      c->kind    = (PetscInt)v[4][r];
      c->body[0] = (PetscInt)v[5][2 * r];
      c->body[1] = (PetscInt)v[5][2 * r + 1];
      c->joint   = -1; /* not kept in the output */
      e[m]       = 1;
      a          = MbV3Dot(e, nn);
      for (int k = 0; k < 3; k++) t1[k] = e[k] - a * nn[k];
      a = MbV3Norm(t1);
      for (int k = 0; k < 3; k++) t1[k] /= a > 0 ? a : 1;
      MbV3Cross(nn, t1, t2);
      c->R[0] = MbV3Dot(t1, c->force);
      c->R[1] = MbV3Dot(t2, c->force);
      c->R[2] = MbV3Dot(nn, c->force);
    }
    out->nrcon = (PetscInt)q;
  }
  for (int k = 0; k < 6; k++) PetscCall(PetscFree(v[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputGetFrameConstraints(MbOutput out, PetscInt *n, const MbConstraintInfo **info)
{
  PetscFunctionBegin;
  *n    = out->nrcon;
  *info = out->rcon;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputReadFrame(MbOutput out, PetscInt f)
{
  char     gp[32];
  double  *id, *conf, *velo, *aff, *noff = NULL, *nst = NULL;
  int64_t  nid, nc, nv, na, nno, nns;
  PetscInt nb, nglobal, *row;
  MbBody  *bodies;
  PetscFunctionBegin;
  PetscCheck(out->readonly, out->comm, PETSC_ERR_ARG_WRONGSTATE, "frames are read back only in READ mode");
  PetscCheck(f >= 0 && f < out->nframe, out->comm, PETSC_ERR_ARG_OUTOFRANGE, "frame %" PetscInt_FMT " of %s: it has frames 0 to %" PetscInt_FMT, f, out->h5, out->nframe - 1);
  PetscCall(PetscSNPrintf(gp, sizeof(gp), "/frames/%06" PetscInt_FMT, f));
  PetscCall(MbOutputReadFrameArray(out, gp, "id", &nid, &id));
  PetscCall(MbOutputReadFrameArray(out, gp, "conf", &nc, &conf));
  PetscCall(MbOutputReadFrameArray(out, gp, "velo", &nv, &velo));
  PetscCall(MbOutputReadFrameArray(out, gp, "affine", &na, &aff));
  PetscCall(MbOutputReadFrameArray(out, gp, "nodal_offset", &nno, &noff));
  PetscCall(MbOutputReadFrameArray(out, gp, "nodal_state", &nns, &nst));
  PetscCheck(nid >= 0 && nc == 12 * nid && nv == 6 * nid && na == 24 * nid, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s of %s: id, conf, velo and affine do not agree (%lld, %lld, %lld, %lld numbers)", gp, out->h5, (long long)nid, (long long)nc,
             (long long)nv, (long long)na);
  PetscCall(MbDomainGetGlobalBodyCount(out->dom, &nglobal));
  PetscCall(PetscMalloc1(nglobal + 1, &row));
  for (PetscInt i = 0; i < nglobal; i++) row[i] = -1;
  for (int64_t r = 0; r < nid; r++)
    if (id[r] >= 0 && id[r] < nglobal) row[(PetscInt)id[r]] = (PetscInt)r;
  PetscCall(MbDomainGetBodies(out->dom, &nb, &bodies));
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt bid, r, n = 0;
    double  *nodal = NULL;
    PetscCall(MbBodyGetId(bodies[i], &bid));
    r = row[bid];
    if (r < 0) continue; /* made after that frame: it keeps the deck's state */
    if (noff && nno == 2 * nid && noff[2 * r] >= 0) {
      n = (PetscInt)(noff[2 * r + 1] - noff[2 * r]) * 2;
      PetscCall(PetscMalloc1(n + 1, &nodal));
      PetscCheck(noff[2 * r] + n / 2 <= nns && noff[2 * r + 1] + n / 2 <= nns, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s of %s: body %" PetscInt_FMT "'s nodal state lies outside nodal_state", gp, out->h5, bid);
      PetscCall(PetscArraycpy(nodal, nst + (int64_t)noff[2 * r], n / 2));
      PetscCall(PetscArraycpy(nodal + n / 2, nst + (int64_t)noff[2 * r + 1], n / 2));
    }
    PetscCall(MbBodySetFrameState(bodies[i], conf + 12 * r, velo + 6 * r, aff + 24 * r, n, nodal));
    PetscCall(PetscFree(nodal));
  }
  PetscCall(MbDomainSetClock(out->dom, out->frame[f].time, out->frame[f].steps));
  PetscCall(ReadFrameConstraints(out, gp));
  out->cur = f;
  PetscCall(PetscFree(row));
  PetscCall(PetscFree(id));
  PetscCall(PetscFree(conf));
  PetscCall(PetscFree(velo));
  PetscCall(PetscFree(aff));
  PetscCall(PetscFree(noff));
  PetscCall(PetscFree(nst));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputGetFrames(MbOutput out, PetscInt *n, PetscInt *cur, PetscReal *t0, PetscReal *t1)
{
  PetscFunctionBegin;
  if (n) *n = out->nframe;
  if (cur) *cur = out->cur;
  if (t0) *t0 = out->nframe ? out->frame[0].time : 0;
  if (t1) *t1 = out->nframe ? out->frame[out->nframe - 1].time : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputFrameAt(MbOutput out, PetscReal t, PetscInt *f)
{
  PetscInt lo = 0, hi = out->nframe - 1;
  PetscFunctionBegin;
  PetscCheck(out->nframe > 0, out->comm, PETSC_ERR_FILE_UNEXPECTED, "%s holds no frame", out->h5);
  if (t <= out->frame[0].time)
    lo = hi = 0;
  else if (t >= out->frame[hi].time)
    lo = hi;
  while (hi - lo > 1) { /* frame[lo].time < t < frame[hi].time */
    PetscInt mid = (lo + hi) / 2;
    if (out->frame[mid].time <= t)
      lo = mid;
    else
      hi = mid;
  }
  /* the nearest, a tie to the later one */
  *f = (hi != lo && t - out->frame[lo].time >= out->frame[hi].time - t) ? hi : lo;
  PetscFunctionReturn(PETSC_SUCCESS);
}
