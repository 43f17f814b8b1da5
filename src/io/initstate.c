/* INITIALIZE_STATE and RIGID_TO_FEM (Solfec-1.0 lng.c/dio.c behaviour: dom_init_state,
   dom_rigid_to_fem): a run's bodies take their state from another run's results at a time.
   The frame nearest that time is read from the other run's DIR/<name>.h5 (doc/output.md)
   and each of this run's bodies takes the state of the body with its id there (or, when the
   deck names labels, the body with its label). Bodies of the same kind take the frame's state
   as READ mode does (MbBodySetFrameState: bit for bit); with rigid_to_fem, a body that keeps
   a nodal state (FINITE_ELEMENT) whose counterpart moved homogeneously (a rigid body) takes
   that motion at its nodes (MbBodySetAffine). The domain's clock is not changed, as in Solfec:
   the run starts at its own time 0 from that state. Each rank reads the whole frame and sets
   the bodies it owns, so any number of ranks reads results any number of ranks wrote. */
#include <string.h>
#include <moreau/mbbody.h>
#include "outputimpl.h"

/* The rows of /bodies (every body the earlier run made): id, kind, label, referential centre. */
typedef struct {
  int64_t   n, *id, *kind;
  char     *label; /* n × MB_INIT_LABEL bytes */
  double   *center;
  PetscInt  nid; /* 1 + the largest id */
  PetscInt *row; /* row of each id, −1: none */
} BodyTable;

#define MB_INIT_LABEL 64 /* bytes of /bodies/label (output.c's MB_LABEL_LEN) */

static PetscErrorCode ReadBodyTable(MbOutput out, BodyTable *t)
{
  int64_t rows;
  int     cols;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  PetscCall(MbH5ReadAll(out, out->file, "/bodies/id", H5T_NATIVE_INT64, sizeof(int64_t), &t->n, &cols, (void **)&t->id));
  PetscCall(MbH5ReadAll(out, out->file, "/bodies/kind", H5T_NATIVE_INT64, sizeof(int64_t), &rows, &cols, (void **)&t->kind));
  PetscCheck(rows == t->n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: /bodies/kind has %lld rows, /bodies/id %lld", out->h5, (long long)rows, (long long)t->n);
  PetscCall(MbH5ReadAll(out, out->file, "/bodies/label", out->label_type, MB_INIT_LABEL, &rows, &cols, (void **)&t->label));
  PetscCheck(rows == t->n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: /bodies/label has %lld rows, /bodies/id %lld", out->h5, (long long)rows, (long long)t->n);
  PetscCall(MbH5ReadAll(out, out->file, "/bodies/center", H5T_NATIVE_DOUBLE, sizeof(double), &rows, &cols, (void **)&t->center));
  PetscCheck(rows == t->n && cols == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: /bodies/center is %lld × %d, expected %lld × 3", out->h5, (long long)rows, cols, (long long)t->n);
  for (int64_t r = 0; r < t->n; r++) {
    PetscCheck(t->id[r] >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: /bodies/id holds a negative id %lld", out->h5, (long long)t->id[r]);
    t->nid = PetscMax(t->nid, (PetscInt)t->id[r] + 1);
  }
  PetscCall(PetscMalloc1(t->nid + 1, &t->row));
  for (PetscInt i = 0; i < t->nid; i++) t->row[i] = -1;
  for (int64_t r = 0; r < t->n; r++) t->row[t->id[r]] = (PetscInt)r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeBodyTable(BodyTable *t)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(t->id));
  PetscCall(PetscFree(t->kind));
  PetscCall(PetscFree(t->label));
  PetscCall(PetscFree(t->center));
  PetscCall(PetscFree(t->row));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The frame of out nearest t: an error naming t when it is before 0 or past the last frame
   by more than half the last frames' spacing (the results end before it). */
static PetscErrorCode FrameNear(MbOutput out, const char *what, PetscReal t, PetscInt *f)
{
  PetscReal t0, t1, tol;
  PetscFunctionBegin;
  PetscCheck(out->nframe > 0, out->comm, PETSC_ERR_FILE_UNEXPECTED, "%s: %s holds no frame (the run that wrote it stopped before its first)", what, out->h5);
  t0  = out->frame[0].time;
  t1  = out->frame[out->nframe - 1].time;
  tol = out->nframe > 1 ? 0.5 * (t1 - out->frame[out->nframe - 2].time) : 1e-12 * PetscMax(1, PetscAbsReal(t1));
  PetscCheck(t >= 0, out->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: time must be >= 0, got %g", what, (double)t);
  PetscCheck(t <= t1 + tol, out->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: time %g is beyond the results in %s: their %" PetscInt_FMT " frames span t = %g to %g", what, (double)t, out->h5, out->nframe, (double)t0, (double)t1);
  PetscCall(MbOutputFrameAt(out, t, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *KindName(PetscInt code)
{
  const char *name = NULL;
  if (MbBodyKindGetName(code, &name) || !name) return "(unknown kind)";
  return name;
}

/* The work of MbOutputInitializeState on the open results out; its caller closes them
   whatever happens (their close is collective: an error here is every rank's). */
/* Every rank fails with the message of the lowest rank that wrote one (msg empty: none), so
   that an error found on one rank is every rank's, before any state changes. Collective. */
static PetscErrorCode AgreeOnError(MPI_Comm comm, char msg[], size_t len)
{
  PetscMPIInt rank, size, bad, first;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  bad = msg[0] ? rank : size;
  PetscCallMPI(MPI_Allreduce(&bad, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first < size) {
    PetscCallMPI(MPI_Bcast(msg, (PetscMPIInt)len, MPI_CHAR, first, comm));
    SETERRQ(comm, PETSC_ERR_ARG_INCOMP, "%s", msg);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InitFromResults(MbDomain dom, MbOutput out, const char *what, PetscReal t, PetscInt nlabel, const char *const labels[], PetscBool rigid_to_fem, PetscReal *tframe)
{
  BodyTable tab;
  PetscInt  f, nb, nglobal, *row;
  MbBody   *bodies;
  char      gp[32];
  double   *id, *conf, *velo, *aff, *noff, *nst;
  int64_t   nid, nc, nv, na, nno, nns;
  PetscInt *src, *how; /* per local body: its row in the frame (−1: none), 1: by its motion */
  char      msg[1024] = "";
  MPI_Comm  comm      = out->comm;
  PetscFunctionBegin;
  PetscCall(FrameNear(out, what, t, &f));
  PetscCall(ReadBodyTable(out, &tab));
  PetscCall(PetscSNPrintf(gp, sizeof(gp), "/frames/%06" PetscInt_FMT, f));
  PetscCall(MbOutputReadFrameArray(out, gp, "id", &nid, &id));
  PetscCall(MbOutputReadFrameArray(out, gp, "conf", &nc, &conf));
  PetscCall(MbOutputReadFrameArray(out, gp, "velo", &nv, &velo));
  PetscCall(MbOutputReadFrameArray(out, gp, "affine", &na, &aff));
  PetscCall(MbOutputReadFrameArray(out, gp, "nodal_offset", &nno, &noff));
  PetscCall(MbOutputReadFrameArray(out, gp, "nodal_state", &nns, &nst));
  PetscCheck(nid >= 0 && nc == 12 * nid && nv == 6 * nid && na == 24 * nid, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: %s of %s: id, conf, velo and affine do not agree (%lld, %lld, %lld, %lld numbers)", what, gp, out->h5, (long long)nid,
             (long long)nc, (long long)nv, (long long)na);
  PetscCall(MbDomainGetGlobalBodyCount(dom, &nglobal));
  /* Solfec matches every body by id and leaves those the results lack as they are; moreau
     asks for the same bodies, so that a deck edited since (a body added or removed, which
     renumbers the rest) is not silently started from other bodies' states */
  PetscCheck(nlabel >= 0 || nid == nglobal, comm, PETSC_ERR_ARG_INCOMP,
             "%s: %s holds %lld bodies at t = %g and this run has %" PetscInt_FMT ": bodies are matched by id, so both runs must make the same bodies (or give subset= to take the state of the bodies of chosen labels)", what, out->h5, (long long)nid,
             (double)out->frame[f].time, nglobal);
  PetscCall(PetscMalloc1(tab.nid + 1, &row));
  for (PetscInt i = 0; i < tab.nid; i++) row[i] = -1;
  for (int64_t r = 0; r < nid; r++)
    if (id[r] >= 0 && id[r] < tab.nid) row[(PetscInt)id[r]] = (PetscInt)r;
  PetscCall(MbDomainGetBodies(dom, &nb, &bodies));
  PetscCall(PetscMalloc2(nb + 1, &src, nb + 1, &how));
  /* first every body is matched and checked, then the ranks agree, then the states are set:
     an error on one rank is every rank's (with its message), before any state changes */
  for (PetscInt i = 0; i < nb && !msg[0]; i++) {
    MbBody      b = bodies[i];
    PetscInt    bid, aid = -1, kb, ka, r, n = 0, nq, nu;
    const char *label;
    PetscCall(MbBodyGetId(b, &bid));
    PetscCall(MbBodyGetLabel(b, &label));
    PetscCall(MbBodyGetKindCode(b, &kb));
    PetscCall(MbBodyGetSizes(b, &nq, &nu));
    src[i] = -1;
    how[i] = 0;
    if (nlabel < 0)
      aid = bid;
    else { /* subset=: the deck's bodies of those labels, each from the body of its label */
      PetscBool chosen = PETSC_FALSE;
      for (PetscInt k = 0; k < nlabel && label; k++)
        if (!strcmp(labels[k], label)) chosen = PETSC_TRUE;
      if (!chosen) continue;
      for (int64_t j = 0; j < tab.n && aid < 0; j++)
        if (!strncmp(&tab.label[j * MB_INIT_LABEL], label, MB_INIT_LABEL - 1)) aid = (PetscInt)tab.id[j];
      if (aid < 0) {
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: body %" PetscInt_FMT "'s label '%s' is not among the bodies of %s", what, bid, label, out->h5));
        break;
      }
    }
    r = aid < tab.nid ? row[aid] : -1;
    if (r < 0) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: body %" PetscInt_FMT " is not in %s at t = %g (made later, or by a different deck)", what, aid, out->h5, (double)out->frame[f].time));
      break;
    }
    ka = (PetscInt)tab.kind[tab.row[aid]];
    if (noff && nno == 2 * nid && noff[2 * r] >= 0) n = (PetscInt)(noff[2 * r + 1] - noff[2 * r]) * 2;
    src[i] = r;
    if (ka != kb && rigid_to_fem && n == 0) { /* a homogeneous motion onto a nodal body */
      if (!MbBodyTakesAffine(b))
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: body %" PetscInt_FMT "%s%s%s is %s here and body %" PetscInt_FMT " of %s is %s: a %s body cannot take another kind's rigid motion (RIGID_TO_FEM maps a RIGID body onto a FINITE_ELEMENT one)",
                                what, bid, label ? " ('" : "", label ? label : "", label ? "')" : "", KindName(kb), aid, out->h5, KindName(ka), KindName(kb)));
      how[i] = 1;
      continue;
    }
    if (ka != kb) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: body %" PetscInt_FMT "%s%s%s is %s here and body %" PetscInt_FMT " of %s is %s: a body takes the state of one of its own kind%s", what, bid, label ? " ('" : "", label ? label : "",
                              label ? "')" : "", KindName(kb), aid, out->h5, KindName(ka), rigid_to_fem ? " (RIGID_TO_FEM also maps a RIGID body onto a FINITE_ELEMENT one)" : " (RIGID_TO_FEM maps a RIGID body onto a FINITE_ELEMENT one)"));
      break;
    }
    if (n && (n != nq + nu || noff[2 * r] + n / 2 > nns || noff[2 * r + 1] + n / 2 > nns)) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: body %" PetscInt_FMT "%s%s%s has %" PetscInt_FMT " nodal numbers (q and u) here and body %" PetscInt_FMT " of %s has %" PetscInt_FMT ": another mesh", what, bid, label ? " ('" : "",
                              label ? label : "", label ? "')" : "", nq + nu, aid, out->h5, n));
      break;
    }
  }
  PetscCall(AgreeOnError(comm, msg, sizeof(msg)));
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt r = src[i], n = 0, aid;
    double  *nodal = NULL;
    if (r < 0) continue;
    aid = (PetscInt)id[r];
    if (how[i] == 1) {
      PetscCall(MbBodySetAffine(bodies[i], &tab.center[3 * tab.row[aid]], aff + 24 * r));
      continue;
    }
    if (noff && nno == 2 * nid && noff[2 * r] >= 0) n = (PetscInt)(noff[2 * r + 1] - noff[2 * r]) * 2;
    if (n) {
      PetscCall(PetscMalloc1(n, &nodal));
      PetscCall(PetscArraycpy(nodal, nst + (int64_t)noff[2 * r], n / 2));
      PetscCall(PetscArraycpy(nodal + n / 2, nst + (int64_t)noff[2 * r + 1], n / 2));
    }
    PetscCall(MbBodySetFrameState(bodies[i], conf + 12 * r, velo + 6 * r, aff + 24 * r, n, nodal));
    PetscCall(PetscFree(nodal));
  }
  PetscCall(PetscFree2(src, how));
  if (tframe) *tframe = out->frame[f].time;
  PetscCall(PetscFree(row));
  PetscCall(PetscFree(id));
  PetscCall(PetscFree(conf));
  PetscCall(PetscFree(velo));
  PetscCall(PetscFree(aff));
  PetscCall(PetscFree(noff));
  PetscCall(PetscFree(nst));
  PetscCall(FreeBodyTable(&tab));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputInitializeState(MbDomain dom, const char dir[], const char name[], PetscReal t, PetscInt nlabel, const char *const labels[], PetscBool rigid_to_fem, PetscReal *tframe)
{
  const char    *what = rigid_to_fem ? "RIGID_TO_FEM" : "INITIALIZE_STATE";
  MbOutput       out;
  MPI_Comm       comm;
  PetscBool      exists;
  char           path[PETSC_MAX_PATH_LEN + 8];
  PetscErrorCode ierr;
  PetscFunctionBegin;
  PetscCall(MbDomainGetComm(dom, &comm));
  PetscCall(MbOutputPath(path, sizeof(path), dir, name, ".h5"));
  PetscCall(MbOutputExists(comm, dir, name, &exists));
  PetscCheck(exists, comm, PETSC_ERR_FILE_OPEN, "%s: no results at %s (the earlier run's output directory %s holds no %s.h5 with a frame): run the deck that writes them first, in the same directory", what, path, dir, name);
  PetscCall(MbOutputOpenRead(dom, dir, name, &out));
  ierr = InitFromResults(dom, out, what, t, nlabel, labels, rigid_to_fem, tframe);
  PetscCall(MbOutputDestroy(&out));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
