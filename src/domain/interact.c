/* The domain's interactions: surface materials, joints, the constraint solver and what
   output reads of the constraints. The work per step is in detect.c and locdyn.c. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"

PetscErrorCode MbDomainAddSurfaceMaterial(MbDomain d, PetscInt s1, PetscInt s2, PetscInt model, PetscReal friction, PetscReal cohesion, PetscReal restitution, PetscReal spring, PetscReal dashpot)
{
  MbSurfMat *m;
  PetscFunctionBegin;
  PetscCheck(model == 0 || model == 1, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material model must be 0 (SIGNORINI_COULOMB) or 1 (SPRING_DASHPOT), got %" PetscInt_FMT, model);
  PetscCheck(friction >= 0 && PetscIsNormalReal(friction + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): friction must be >= 0, got %g", s1, s2, (double)friction);
  PetscCheck(cohesion >= 0 && PetscIsNormalReal(cohesion + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): cohesion must be >= 0, got %g", s1, s2, (double)cohesion);
  PetscCheck(restitution >= 0 && restitution <= 1, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): restitution must be in [0, 1], got %g", s1, s2, (double)restitution);
  PetscCheck(spring >= 0 && dashpot >= 0, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "surface material (%" PetscInt_FMT ", %" PetscInt_FMT "): spring and dashpot must be >= 0, got %g and %g", s1, s2, (double)spring, (double)dashpot);
  PetscCall(PetscRealloc(sizeof(MbSurfMat) * (d->nmat + 1), &d->mat));
  m              = &d->mat[d->nmat++];
  m->surf[0]     = s1 < 0 ? -1 : s1;
  m->surf[1]     = s2 < 0 ? -1 : s2;
  m->model       = model;
  m->friction    = friction;
  m->cohesion    = cohesion;
  m->restitution = restitution;
  m->spring      = spring;
  m->dashpot     = dashpot;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetGeometricEpsilon(MbDomain d, PetscReal eps)
{
  PetscFunctionBegin;
  PetscCheck(eps > 0 && PetscIsNormalReal(eps), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "GEOMETRIC_EPSILON must be > 0, got %g", (double)eps);
  d->geps = eps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainAddJoint(MbDomain d, MbJointKind kind, PetscInt b1, PetscInt b2, const PetscReal p1[3], const PetscReal p2[3], const PetscReal dir[3], PetscReal value, MbTimeSeries ts, PetscErrorCode (*fn)(void *, PetscReal, PetscReal *), void *ctx, PetscErrorCode (*destroy)(void *), PetscInt *index)
{
  static const char *names[] = {"", "FIX_POINT", "FIX_DIRECTION", "SET_VELOCITY", "PUT_RIGID_LINK"};
  MbJoint           *j;
  PetscFunctionBegin;
  PetscCheck(kind >= MB_JOINT_FIX_POINT && kind <= MB_JOINT_RIGID_LINK, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "unknown joint kind %d", (int)kind);
  PetscCheck(b1 >= 0 && b1 < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: no body with id %" PetscInt_FMT, names[kind], b1);
  PetscCheck(b2 >= -1 && b2 < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: no body with id %" PetscInt_FMT, names[kind], b2);
  PetscCheck(b1 != b2, d->comm, PETSC_ERR_ARG_WRONG, "%s: both ends on the same body %" PetscInt_FMT, names[kind], b1);
  PetscCall(PetscRealloc(sizeof(MbJoint) * (d->njoint + 1), &d->joint));
  j = &d->joint[d->njoint];
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
  d->njoint++;
  if (index) *index = d->njoint - 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetSolver(MbDomain d, MbSolver *s)
{
  *s = d->solver;
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainSetSolverFailure(MbDomain d, PetscInt policy, PetscErrorCode (*fn)(MbDomain, void *), void *ctx)
{
  PetscFunctionBegin;
  PetscCheck(policy >= 0 && policy <= 2, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "failure policy must be 0 CONTINUE, 1 EXIT or 2 CALLBACK, got %" PetscInt_FMT, policy);
  d->failure     = policy;
  d->failure_fn  = fn;
  d->failure_ctx = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetPenalty(MbDomain d, PetscBool flg)
{
  d->penalty = flg;
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainGetConstraints(MbDomain d, PetscInt *n, MbConstraintInfo **info)
{
  MbConstraintInfo *a;
  PetscInt          m = 0;
  PetscFunctionBegin;
  *n = d->rend - d->rstart;
  for (PetscInt k = 0; k < d->npen; k++) *n += d->pen[k].owner == d->rank;
  PetscCall(PetscMalloc1(*n + 1, &a));
  for (PetscInt r = 0; r < d->ncon + d->npen; r++) {
    MbCon *c = r < d->ncon ? &d->con[r] : &d->pen[r - d->ncon];
    if (c->owner != d->rank) continue;
    MbConstraintInfo *o = &a[m++];
    o->kind             = c->kind;
    o->body[0]          = c->body[0];
    o->body[1]          = c->body[1];
    MbV3Copy(c->point, o->point);
    for (int k = 0; k < 3; k++) o->normal[k] = c->base[3 * k + 2];
    MbM3Mult(c->base, c->R, o->force);
    o->gap = c->gap;
  }
  *info = a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Joints whose bodies are obstacles only are bad input, caught when the run starts. */
PetscErrorCode MbDomainCheckJoints(MbDomain d)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < d->njoint; k++) {
    MbJoint *j = &d->joint[k];
    MbBody   b[2];
    for (int m = 0; m < 2; m++) b[m] = j->body[m] >= 0 ? d->all[j->body[m]] : NULL;
    PetscCheck(b[0]->kind != MB_BODY_OBSTACLE || (b[1] && b[1]->kind != MB_BODY_OBSTACLE), d->comm, PETSC_ERR_ARG_WRONG, "%s joint %" PetscInt_FMT " constrains only obstacles (bodies %" PetscInt_FMT " and %" PetscInt_FMT "): obstacles never move", MbConKindNames[j->kind], k, j->body[0], j->body[1]);
    if (!j->resolved) PetscCall(MbJointResolve(j, b));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
