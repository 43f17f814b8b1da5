/* The domain's interactions: surface materials, joints, the constraint solver and its
   failure policy, what output reads of the constraints, and the step's calls into the local
   dynamics (the force contacts' impulses, the solve, the reactions). Detection is detect.c,
   the rows are the constraint set's (src/constraint/set.c), W and its solve src/locdyn/. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"

PetscErrorCode MbDomainAddSurfaceMaterial(MbDomain d, PetscInt s1, PetscInt s2, PetscInt model, PetscReal friction, PetscReal cohesion, PetscReal restitution, PetscReal spring, PetscReal dashpot, PetscReal hpow)
{
  MbSurfMat *m;
  PetscFunctionBegin;
  PetscCheck(model == 0 || model == 1, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material model must be 0 (SIGNORINI_COULOMB) or 1 (SPRING_DASHPOT), got %" PetscInt_FMT, model);
  PetscCheck(friction >= 0 && PetscIsNormalReal(friction + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): friction must be >= 0, got %g", s1, s2, (double)friction);
  PetscCheck(cohesion >= 0 && PetscIsNormalReal(cohesion + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): cohesion must be >= 0, got %g", s1, s2, (double)cohesion);
  PetscCheck(restitution >= 0 && restitution <= 1, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): restitution must be in [0, 1], got %g", s1, s2, (double)restitution);
  PetscCheck(spring >= 0 && PetscIsNormalReal(spring + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): spring must be >= 0, got %g", s1, s2, (double)spring);
  /* dashpot < 0: critical damping, as in Solfec-1.0 (constraint/model/penalty.c) */
  PetscCheck(!PetscIsInfOrNanReal(dashpot), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): dashpot must be finite, got %g", s1, s2, (double)dashpot);
  PetscCheck(hpow > 0 && PetscIsNormalReal(hpow), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): hpow (the power of the penetration in the spring force) must be > 0, got %g", s1, s2, (double)hpow);
  PetscCall(PetscRealloc(sizeof(MbSurfMat) * (d->cs->nmat + 1), &d->cs->mat));
  m              = &d->cs->mat[d->cs->nmat++];
  m->surf[0]     = s1 < 0 ? -1 : s1;
  m->surf[1]     = s2 < 0 ? -1 : s2;
  m->model       = model;
  m->friction    = friction;
  m->cohesion    = cohesion;
  m->restitution = restitution;
  m->spring      = spring;
  m->dashpot     = dashpot;
  m->hpow        = hpow;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetGeometricEpsilon(MbDomain d, PetscReal eps)
{
  PetscFunctionBegin;
  PetscCheck(eps > 0 && PetscIsNormalReal(eps), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "GEOMETRIC_EPSILON must be > 0, got %g", (double)eps);
  d->geps = eps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainAddJoint(MbDomain d, MbJointKind kind, PetscInt b1, PetscInt b2, const PetscReal p1[3], const PetscReal p2[3], const PetscReal dir[3], PetscReal value, MbTimeSeries ts, PetscErrorCode (*fn)(void *, PetscReal, PetscReal *),
                                void *ctx, PetscErrorCode (*destroy)(void *), PetscInt *index)
{
  static const char *names[] = {"", "FIX_POINT", "FIX_DIRECTION", "SET_VELOCITY", "PUT_RIGID_LINK"};
  MbJoint           *j;
  PetscFunctionBegin;
  PetscCheck(kind >= MB_JOINT_FIX_POINT && kind <= MB_JOINT_RIGID_LINK, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "unknown joint kind %d", (int)kind);
  PetscCheck(b1 >= 0 && b1 < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: no body with id %" PetscInt_FMT, names[kind], b1);
  PetscCheck(b2 >= -1 && b2 < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: no body with id %" PetscInt_FMT, names[kind], b2);
  PetscCheck(b1 != b2, d->comm, PETSC_ERR_ARG_WRONG, "%s: both ends on the same body %" PetscInt_FMT, names[kind], b1);
  PetscCall(PetscRealloc(sizeof(MbJoint) * (d->cs->njoint + 1), &d->cs->joint));
  j = &d->cs->joint[d->cs->njoint];
  PetscCall(PetscMemzero(j, sizeof(*j)));
  j->kind    = (MbConKind)kind;
  j->body[0] = b1;
  j->body[1] = b2;
  MbV3Copy(p1, j->p[0]);
  MbV3Copy(p2 ? p2 : p1, j->p[1]);
  if (kind == MB_JOINT_FIX_DIRECTION || kind == MB_JOINT_SET_VELOCITY) {
    PetscReal len = MbV3Norm(dir);
    PetscCheck(len > 0 && PetscIsNormalReal(len), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s on body %" PetscInt_FMT ": direction must be a non-zero vector, got (%g, %g, %g)", names[kind], b1, (double)dir[0], (double)dir[1], (double)dir[2]);
    MbV3Scale(1.0 / len, dir, j->dir);
  }
  j->value   = value;
  j->ts      = ts;
  j->fn      = fn;
  j->ctx     = ctx;
  j->destroy = destroy;
  if (ts) PetscCall(MbTimeSeriesReference(ts));
  d->cs->njoint++;
  if (index) *index = d->cs->njoint - 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainRemoveJoint(MbDomain d, PetscInt index)
{
  PetscFunctionBegin;
  PetscCheck(index >= 0 && index < d->cs->njoint, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "DELETE: no joint with index %" PetscInt_FMT " (there are %" PetscInt_FMT ")", index, d->cs->njoint);
  d->cs->joint[index].removed = PETSC_TRUE; /* its rows go at the next step's MbConSetAddJoints */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetSolver(MbDomain d, MbSolver *s)
{
  *s = d->solver;
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainSetSolverFailure(MbDomain d, MbFailurePolicy policy, PetscErrorCode (*fn)(MbDomain, void *), void *ctx)
{
  PetscFunctionBegin;
  PetscCheck(policy == MB_FAILURE_CONTINUE || policy == MB_FAILURE_EXIT || policy == MB_FAILURE_CALLBACK, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "failure policy must be 0 CONTINUE, 1 EXIT or 2 CALLBACK, got %d", (int)policy);
  d->failure     = policy;
  d->failure_fn  = fn;
  d->failure_ctx = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetContactModel(MbDomain d, MbContactModel *m)
{
  *m = d->cs->contact;
  return PETSC_SUCCESS;
}

/* One row as the output and the deck see it. */
static void RowInfo(const MbCon *c, MbConstraintInfo *o)
{
  o->kind    = c->kind;
  o->body[0] = c->body[0];
  o->body[1] = c->body[1];
  o->joint   = c->joint;
  MbV3Copy(c->point, o->point);
  MbV3Copy(c->point, o->point2);
  for (int k = 0; k < 3; k++) o->normal[k] = c->base[3 * k + 2];
  MbM3Mult(c->base, c->R, o->force);
  o->gap = c->gap;
  for (int j = 0; j < 3; j++) /* base holds the axes as columns */
    for (int k = 0; k < 3; k++) o->base[3 * j + k] = c->base[3 * k + j];
  MbV3Copy(c->R, o->R);
  MbV3Copy(c->U, o->U);
  MbV3Copy(c->V, o->V);
}

PetscErrorCode MbDomainGetJoint(MbDomain d, PetscInt index, MbConstraintInfo *o, PetscBool *found)
{
  const MbJoint *j;
  PetscFunctionBegin;
  PetscCheck(index >= 0 && index < d->cs->njoint, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "CONSTRAINT: no joint with index %" PetscInt_FMT " (there are %" PetscInt_FMT ")", index, d->cs->njoint);
  j      = &d->cs->joint[index];
  *found = PETSC_FALSE;
  PetscCall(PetscMemzero(o, sizeof(*o)));
  if (j->removed) PetscFunctionReturn(PETSC_SUCCESS); /* Solfec: the constraint is gone (None) */
  if (d->nsteps == 0) {                               /* as the deck made it (Solfec's constraint exists from its call on) */
    PetscReal b[9], n[3] = {0, 0, 1}, len;
    o->kind    = j->kind;
    o->body[0] = j->body[0];
    o->body[1] = j->body[1];
    o->joint   = index;
    MbV3Copy(j->p[j->kind == MB_CON_FIXDIR && j->body[1] >= 0 ? 1 : 0], o->point); /* FIX_DIRECTION of two bodies: at the second's point */
    MbV3Copy(j->p[1], o->point2);
    if (j->kind == MB_CON_FIXDIR || j->kind == MB_CON_VELODIR) MbV3Copy(j->dir, n);
    if (j->kind == MB_CON_RIGLNK) {
      MbV3Sub(j->p[0], j->p[1], n);
      len = MbV3Norm(n);
      if (len > 0)
        MbV3Scale(1.0 / len, n, n);
      else
        n[0] = n[1] = 0, n[2] = 1;
    }
    MbConFrame(n, (PetscReal[3]){1, 0, 0}, b);
    for (int a = 0; a < 3; a++)
      for (int k = 0; k < 3; k++) o->base[3 * a + k] = b[3 * k + a];
    MbV3Copy(n, o->normal);
    *found = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt r = 0; r < d->cs->ncon; r++) {
    const MbCon *c = &d->cs->con[r];
    if (c->joint != index || c->owner != d->rank) continue;
    RowInfo(c, o);
    o->kind = j->kind;
    /* the points where the bodies are now (the row was made at the last step's start) */
    if (j->body[0] < d->map.n && d->map.all[j->body[0]]) PetscCall(d->map.all[j->body[0]]->ops->to_spatial(d->map.all[j->body[0]], c->X[0], o->point));
    if (j->body[1] < 0)
      MbV3Copy(j->X[1], o->point2); /* a point fixed in space */
    else if (j->body[1] < d->map.n && d->map.all[j->body[1]])
      PetscCall(d->map.all[j->body[1]]->ops->to_spatial(d->map.all[j->body[1]], j->X[1], o->point2));
    *found = PETSC_TRUE;
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetConstraints(MbDomain d, PetscInt *n, MbConstraintInfo **info)
{
  MbConstraintInfo *a;
  PetscInt          m = 0;
  PetscFunctionBegin;
  *n = d->cs->rend - d->cs->rstart;
  for (PetscInt k = 0; k < d->cs->npen; k++) *n += d->cs->pen[k].owner == d->rank;
  PetscCall(PetscMalloc1(*n + 1, &a));
  for (PetscInt r = 0; r < d->cs->ncon + d->cs->npen; r++) {
    MbCon *c = r < d->cs->ncon ? &d->cs->con[r] : &d->cs->pen[r - d->cs->ncon];
    if (c->owner != d->rank) continue;
    RowInfo(c, &a[m++]);
  }
  *info = a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether joints a and b of the same bodies at the same point ask the impossible: a fixed
   point (or a direction fixed) that must also move along that direction at a constant
   non-zero speed, or two constant speeds along one direction that differ. Joints whose
   speed is a time series or a callback are not judged (their value is not known here). */
static PetscBool Contradict(const MbJoint *a, const MbJoint *b, PetscReal *speed)
{
  const PetscReal tol = 1e-9;
  PetscReal       dd, pa = MbV3Norm(a->p[0]), dx[3];
  if (a->body[0] != b->body[0] || a->body[1] != b->body[1]) return PETSC_FALSE;
  MbV3Sub(a->p[0], b->p[0], dx);
  if (MbV3Norm(dx) > tol * PetscMax(1.0, pa)) return PETSC_FALSE;
  if (b->kind != MB_CON_VELODIR || b->ts || b->fn) return PETSC_FALSE;
  *speed = b->value;
  if (a->kind == MB_CON_FIXPNT) return b->value != 0 ? PETSC_TRUE : PETSC_FALSE;
  if (a->kind != MB_CON_FIXDIR && a->kind != MB_CON_VELODIR) return PETSC_FALSE;
  dd = MbV3Dot(a->dir, b->dir);
  if (PetscAbsReal(dd) < 1 - tol) return PETSC_FALSE; /* other directions: compatible */
  if (a->kind == MB_CON_FIXDIR) return b->value != 0 ? PETSC_TRUE : PETSC_FALSE;
  if (a->ts || a->fn) return PETSC_FALSE;
  return PetscAbsReal(a->value * dd - b->value) > tol * PetscMax(PetscAbsReal(a->value), PetscAbsReal(b->value)) ? PETSC_TRUE : PETSC_FALSE;
}

/* Joints between two obstacles are bad input, caught when the run starts (the
   kinds are known on every rank, so every rank stops with the same message). A new joint's
   referential points are resolved against q(t) by the rank that owns it — it holds both
   bodies — and shared with every rank by one reduction. Collective. */
PetscErrorCode MbDomainCheckJoints(MbDomain d)
{
  PetscInt   nnew = 0, *idx;
  PetscReal *buf, *sum;
  PetscFunctionBegin;
  for (PetscInt k = 0; k < d->cs->njoint; k++) {
    MbJoint *j = &d->cs->joint[k];
    if (j->removed) continue;
    /* a joint on one obstacle prescribes its motion (drive.c); between two it is nothing Solfec-1.0 accepts */
    PetscCheck(d->map.movable[j->body[0]] || j->body[1] < 0 || d->map.movable[j->body[1]], d->comm, PETSC_ERR_ARG_WRONG, "%s joint %" PetscInt_FMT " joins two obstacles (bodies %" PetscInt_FMT " and %" PetscInt_FMT "): neither takes its reactions",
               MbConKindNames[j->kind], k, j->body[0], j->body[1]);
    if (!j->resolved) nnew++;
  }
  if (!nnew) PetscFunctionReturn(PETSC_SUCCESS);
  /* contradictory joints at one point: caught here rather than by a solver that cannot
     converge (reactions of 1e20, the energies garbage); pairs of the new joints with all,
     up to 10^4 joints (the same answer on every rank: joints are replicated) */
  for (PetscInt k = 0; k < d->cs->njoint && d->cs->njoint <= 10000; k++)
    for (PetscInt l = 0; l < k; l++) {
      PetscReal v = 0;
      PetscInt  i = l, j = k; /* i fixes, j moves */
      if ((d->cs->joint[k].resolved && d->cs->joint[l].resolved) || d->cs->joint[k].removed || d->cs->joint[l].removed) continue;
      if (!Contradict(&d->cs->joint[l], &d->cs->joint[k], &v)) {
        if (!Contradict(&d->cs->joint[k], &d->cs->joint[l], &v)) continue;
        i = k, j = l;
      }
      {
        static const char *deck[] = {"CONTACT", "FIX_POINT", "FIX_DIRECTION", "SET_VELOCITY", "PUT_RIGID_LINK"};
        const MbJoint     *a = &d->cs->joint[i], *b = &d->cs->joint[j];
        char               msg[512];
        /* the deck's names and numbers as the deck wrote them (snprintf's %g, not PETSc's) */
        (void)snprintf(msg, sizeof(msg), "%s (joint %d) and %s (joint %d) of body %d at point (%g, %g, %g) contradict each other: %s, and it must move at %g along (%g, %g, %g); remove one of them", deck[a->kind], (int)i, deck[b->kind], (int)j,
                       (int)a->body[0], (double)a->p[0][0], (double)a->p[0][1], (double)a->p[0][2],
                       a->kind == MB_CON_FIXPNT   ? "the point is fixed"
                       : a->kind == MB_CON_FIXDIR ? "the point may not move along that direction"
                                                  : "another SET_VELOCITY there gives another speed",
                       (double)v, (double)b->dir[0], (double)b->dir[1], (double)b->dir[2]);
        SETERRQ(d->comm, PETSC_ERR_ARG_INCOMP, "%s", msg);
      }
    }
  enum { JN = 10 }; /* X (6), length, D (3) of each new joint */
  PetscCall(PetscMalloc3(nnew, &idx, JN * nnew, &buf, JN * nnew, &sum));
  nnew = 0;
  for (PetscInt k = 0; k < d->cs->njoint; k++) {
    MbJoint    *j = &d->cs->joint[k];
    PetscMPIInt owner;
    if (j->resolved || j->removed) continue;
    PetscCall(MbDomainOwnerRank(d, MbConOwnerBody(d, j->body[0], j->body[1]), &owner));
    PetscCall(PetscArrayzero(&buf[JN * nnew], JN));
    if (owner == d->rank) {
      MbBody b[2];
      for (int m = 0; m < 2; m++) {
        b[m] = j->body[m] >= 0 ? d->map.all[j->body[m]] : NULL;
        PetscCheck(j->body[m] < 0 || b[m], PETSC_COMM_SELF, PETSC_ERR_PLIB, "joint %" PetscInt_FMT ": body %" PetscInt_FMT " is not on rank %d, which owns the joint", k, j->body[m], d->rank);
      }
      PetscCall(MbJointResolve(j, b, d->geps));
      PetscCall(PetscArraycpy(&buf[JN * nnew], &j->X[0][0], 6));
      buf[JN * nnew + 6] = j->length;
      PetscCall(PetscArraycpy(&buf[JN * nnew + 7], j->D, 3));
    }
    idx[nnew++] = k;
  }
  PetscCall(MPIU_Allreduce(buf, sum, JN * nnew, MPIU_REAL, MPIU_SUM, d->comm));
  for (PetscInt i = 0; i < nnew; i++) {
    MbJoint *j = &d->cs->joint[idx[i]];
    PetscCall(PetscArraycpy(&j->X[0][0], &sum[JN * i], 6));
    j->length = sum[JN * i + 6];
    PetscCall(PetscArraycpy(j->D, &sum[JN * i + 7], 3));
    j->resolved = PETSC_TRUE;
  }
  PetscCall(PetscFree3(idx, buf, sum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainApplyForceContacts(MbDomain d) { return MbLocDynApplyForces(d->ld, d->cs, &d->map, d->h, &d->work_contact, &d->work_friction); }

/* A step whose constraint solve missed its tolerance, said when it happens (the summary gives
   only the count at the end): the first at once, then at most a line every 10 s of wall time
   with the count since the last one. Every rank knows the solve's outcome; rank 0 prints. */
static PetscErrorCode ReportMiss(MbDomain d)
{
  PetscLogDouble now;
  PetscFunctionBegin;
  if (d->rank) PetscFunctionReturn(PETSC_SUCCESS);
  d->run.miss_unsaid++;
  PetscCall(PetscTime(&now));
  if (d->solver_failures > 1 && now - d->run.miss_wall < 10.0) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->run.miss_unsaid > 1)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "moreau: step from t = %.9g: the constraint solver missed its tolerance in %" PetscInt_FMT " steps since the last such line; now error %g after %" PetscInt_FMT " iterations, %" PetscInt_FMT " constraints\n",
                          (double)d->t, d->run.miss_unsaid, (double)d->solver_error, d->solver_iterations, d->cs->nconglobal));
  else
    PetscCall(PetscPrintf(PETSC_COMM_SELF,
                          "moreau: step from t = %.9g: the constraint solver missed its tolerance: error %g after %" PetscInt_FMT " iterations, %" PetscInt_FMT " constraints (at most a line like this every 10 s; the count at the end)\n",
                          (double)d->t, (double)d->solver_error, d->solver_iterations, d->cs->nconglobal));
  d->run.miss_wall   = now;
  d->run.miss_unsaid = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainConstraintSolve(MbDomain d)
{
  MbSolverConvergedReason reason;
  PetscFunctionBegin;
  PetscCall(MbLocDynSolve(d->ld, d->solver, &d->solver_iterations, &d->solver_error, &reason));
  if (reason < 0) {
    d->solver_failures++;
    PetscCheck(d->failure != MB_FAILURE_EXIT, d->comm, PETSC_ERR_NOT_CONVERGED, "constraint solver did not converge at t = %g: error %g after %" PetscInt_FMT " iterations (%" PetscInt_FMT " constraints; failure = 'EXIT')", (double)d->t,
               (double)d->solver_error, d->solver_iterations, d->cs->nconglobal);
    if (d->failure == MB_FAILURE_CALLBACK && d->failure_fn) PetscCall(d->failure_fn(d, d->failure_ctx));
    PetscCall(ReportMiss(d));
  }
  PetscCall(MbLocDynApply(d->ld, &d->work_contact, &d->work_friction));
  PetscFunctionReturn(PETSC_SUCCESS);
}
