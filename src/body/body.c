/* MbBody: creation, mass characteristics, loads, and dispatch to the kinematic model. */
#include <moreau/mbmath.h>
#include <moreau/mbscheme.h>
#include "bodyimpl.h"
#include "../shape/shapeimpl.h"

const char *const MbBodyKinds[] = {"RIGID", "OBSTACLE", "PSEUDO_RIGID", "FINITE_ELEMENT", "MbBodyKind", "MB_BODY_", NULL};

/* Reset q to the reference configuration: Λ = I (column-wise), x̄ = X̄. */
static void RigidReset(MbBody b)
{
  PetscArrayzero(b->q, 12);
  b->q[0] = b->q[4] = b->q[8] = 1.0;
  MbV3Copy(b->mp.center, &b->q[9]);
}

/* Checks that J is symmetric positive definite (Sylvester's criterion) and stores J⁻¹. */
static PetscErrorCode SetInertia(MbBody b, const PetscReal J[9])
{
  PetscReal s = 0, d1, d2, d3;
  PetscFunctionBegin;
  for (int k = 0; k < 9; k++) s = PetscMax(s, PetscAbsReal(J[k]));
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++)
      PetscCheck(PetscAbsReal(J[3 * i + j] - J[3 * j + i]) <= 1e-10 * s, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": inertia must be symmetric, got J[%d][%d] = %g but J[%d][%d] = %g", b->id, i, j, (double)J[3 * i + j], j, i, (double)J[3 * j + i]);
  d1 = J[0];
  d2 = J[0] * J[4] - J[1] * J[3];
  d3 = MbM3Det(J);
  PetscCheck(d1 > 0 && d2 > 0 && d3 > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": inertia must be positive definite, got diagonal (%g, %g, %g) and determinant %g", b->id, (double)J[0], (double)J[4], (double)J[8], (double)d3);
  PetscCall(PetscArraycpy(b->mp.inertia, J, 9));
  PetscCall(MbM3Invert(J, b->Jinv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyCreate(PetscInt id, MbBodyKind kind, MbShape shape, PetscReal rho, const char label[], MbBody *body)
{
  MbBody      b;
  MbMassProps mp;
  PetscFunctionBegin;
  PetscCheck(kind == MB_BODY_RIGID || kind == MB_BODY_OBSTACLE, PETSC_COMM_SELF, PETSC_ERR_SUP, "body kind %s is not implemented yet (RIGID and OBSTACLE are)", (kind >= 0 && kind <= MB_BODY_FEM) ? MbBodyKinds[kind] : "unknown");
  PetscCheck(shape, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "body %" PetscInt_FMT " has no shape", id);
  PetscCall(MbShapeMassProps(shape, rho, &mp)); /* before allocating: bad input leaks nothing */
  PetscCall(PetscNew(&b));
  b->mp   = mp;
  b->id   = id;
  b->kind = kind;
  b->ops  = kind == MB_BODY_RIGID ? &MbBodyOps_Rigid : &MbBodyOps_Obstacle;
  b->nq   = 12;
  b->nu   = 6;
  PetscCall(PetscStrallocpy(label, &b->label));
  PetscCall(MbShapeDuplicate(shape, &b->shape));
  /* one block: q, u, q0, u0, fext, aux(3) */
  PetscCall(PetscCalloc1(2 * b->nq + 3 * b->nu + 3, &b->q));
  b->u    = b->q + b->nq;
  b->q0   = b->u + b->nu;
  b->u0   = b->q0 + b->nq;
  b->fext = b->u0 + b->nu;
  b->aux  = b->fext + b->nu;
  PetscCall(PetscCalloc1(4 * b->nu, &b->force)); /* force (nu), then acc (3 nu) */
  b->acc = b->force + b->nu;
  RigidReset(b);
  PetscCall(SetInertia(b, b->mp.inertia));
  *body = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyDestroy(MbBody *body)
{
  MbBody b = *body;
  PetscFunctionBegin;
  if (!b) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < b->nload; i++) {
    PetscCall(MbTimeSeriesDestroy(&b->load[i].ts));
    if (b->load[i].destroy) PetscCall(b->load[i].destroy(b->load[i].ctx));
  }
  PetscCall(PetscFree(b->load));
  PetscCall(PetscFree(b->q));
  PetscCall(PetscFree(b->force));
  PetscCall(PetscFree(b->label));
  PetscCall(MbShapeDestroy(&b->shape));
  PetscCall(PetscFree(*body));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodySetChars(MbBody b, PetscReal mass, PetscReal volume, const PetscReal center[3], const PetscReal J[9])
{
  PetscFunctionBegin;
  PetscCheck(mass > 0 && PetscIsNormalReal(mass), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": mass must be > 0, got %g", b->id, (double)mass);
  PetscCheck(volume > 0 && PetscIsNormalReal(volume), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": volume must be > 0, got %g", b->id, (double)volume);
  PetscCall(SetInertia(b, J));
  /* E₀ from J: tr J = 2 tr E₀, so E₀ = ½ tr(J) I − J */
  PetscReal tr = MbM3Trace(J);
  for (int k = 0; k < 9; k++) b->mp.euler[k] = -J[k];
  for (int i = 0; i < 3; i++) b->mp.euler[4 * i] += 0.5 * tr;
  b->mp.mass   = mass;
  b->mp.volume = volume;
  MbV3Copy(center, b->mp.center);
  b->extent = 0; /* about the new centre */
  RigidReset(b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyGetId(MbBody b, PetscInt *id) { *id = b->id; return PETSC_SUCCESS; }
PetscErrorCode MbBodyGetKind(MbBody b, MbBodyKind *k) { *k = b->kind; return PETSC_SUCCESS; }
PetscErrorCode MbBodyGetLabel(MbBody b, const char **l) { *l = b->label; return PETSC_SUCCESS; }
PetscErrorCode MbBodyGetShape(MbBody b, MbShape *s) { *s = b->shape; return PETSC_SUCCESS; }
PetscErrorCode MbBodyGetMassProps(MbBody b, MbMassProps *mp) { *mp = b->mp; return PETSC_SUCCESS; }
PetscErrorCode MbBodyGetExternalWork(MbBody b, PetscReal *w) { *w = b->work; return PETSC_SUCCESS; }
PetscErrorCode MbBodySetUserData(MbBody b, void *ctx) { b->user = ctx; return PETSC_SUCCESS; }
PetscErrorCode MbBodyGetUserData(MbBody b, void **ctx) { *ctx = b->user; return PETSC_SUCCESS; }
PetscErrorCode MbBodyGetScheme(MbBody b, MbScheme *s) { *s = b->scheme; return PETSC_SUCCESS; }

PetscErrorCode MbBodyGetSizes(MbBody b, PetscInt *nq, PetscInt *nu)
{
  if (nq) *nq = b->nq;
  if (nu) *nu = b->nu;
  return PETSC_SUCCESS;
}

PetscErrorCode MbBodyGetState(MbBody b, PetscReal **q, PetscReal **u)
{
  if (q) *q = b->q;
  if (u) *u = b->u;
  return PETSC_SUCCESS;
}

PetscErrorCode MbBodySetVelocity(MbBody b, const PetscReal linear[3], const PetscReal angular[3])
{
  PetscFunctionBegin;
  PetscCheck(b->kind != MB_BODY_OBSTACLE || ((!linear || MbV3Norm(linear) == 0) && (!angular || MbV3Norm(angular) == 0)), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %" PetscInt_FMT " is an OBSTACLE: it cannot be given a velocity", b->id);
  if (angular) MbV3Copy(angular, &b->u[0]);
  if (linear) MbV3Copy(linear, &b->u[3]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyKineticEnergy(MbBody b, PetscReal *ek) { return b->ops->kinetic(b, ek); }
PetscErrorCode MbBodyInverseInertia(MbBody b, const PetscReal x[], PetscReal y[]) { return b->ops->inverse(b, 1, x, y); }
PetscErrorCode MbBodyPointToSpatial(MbBody b, const PetscReal X[3], PetscReal x[3]) { return b->ops->to_spatial(b, X, x); }

/* X = Λᵀ(x − x̄) + X̄ (the rigid and obstacle layout, rotation then mass centre in q). q
   holds Λ column-wise, so read row-major it is Λᵀ: MbM3Mult on q forms the same products
   and sums as MbM3MultTranspose on Λ, without building Λ. */
void MbBodyPointToReferential(MbBody b, const PetscReal x[3], PetscReal X[3])
{
  PetscReal a[3];
  MbV3Sub(x, &b->q[9], a);
  MbM3Mult(b->q, a, a);
  MbV3Add(a, b->mp.center, X);
}
PetscErrorCode MbBodyPointVelocity(MbBody b, const PetscReal X[3], PetscReal v[3]) { return b->ops->point_velocity(b, b->u, X, v); }
PetscErrorCode MbBodyOperatorH(MbBody b, const PetscReal X[3], const PetscReal base[9], PetscReal H[]) { return b->ops->operator_h(b, X, base, H); }
PetscErrorCode MbBodyMomentum(MbBody b, PetscReal a[3], PetscReal l[3]) { return b->ops->momentum(b, a, l); }
PetscErrorCode MbBodyExternalForce(MbBody b, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal f[]) { return b->ops->external(b, t, h, g, f); }

static PetscErrorCode PushLoad(MbBody b, MbLoad **l)
{
  MbLoad *nl;
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(b->nload + 1, &nl));
  if (b->nload) PetscCall(PetscArraycpy(nl, b->load, b->nload));
  PetscCall(PetscFree(b->load));
  b->load = nl;
  *l      = &b->load[b->nload++];
  (*l)->ref = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAddLoad(MbBody b, MbLoadKind kind, MbFrame frame, const PetscReal X[3], const PetscReal dir[3], PetscReal value, MbTimeSeries ts)
{
  MbLoad *l = NULL;
  PetscFunctionBegin;
  PetscCheck(PetscIsNormalReal(value) || value == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": load value is not finite: %g", b->id, (double)value);
  PetscCheck(MbV3Norm(dir) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": load direction must be non-zero", b->id);
  PetscCall(PushLoad(b, &l));
  l->kind  = kind;
  l->frame = frame;
  if (X) MbV3Copy(X, l->X);
  else MbV3Copy(b->mp.center, l->X);
  MbV3Copy(dir, l->dir);
  l->value = value;
  if (ts) PetscCall(MbTimeSeriesReference(ts));
  l->ts = ts;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAddLoadCallback(MbBody b, MbLoadCallback fn, void *ctx, PetscErrorCode (*destroy)(void *))
{
  MbLoad *l = NULL;
  PetscFunctionBegin;
  PetscCall(PushLoad(b, &l));
  l->fn      = fn;
  l->ctx     = ctx;
  l->destroy = destroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAddLoadCallbackRef(MbBody b, MbLoadCallback fn, void *ctx, PetscInt ref)
{
  PetscFunctionBegin;
  PetscCall(MbBodyAddLoadCallback(b, fn, ctx, NULL));
  b->load[b->nload - 1].ref = ref;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodySetScheme(MbBody b, MbScheme s)
{
  PetscBool ok;
  PetscFunctionBegin;
  PetscCall(MbSchemeAppliesTo(s, b->kind, &ok));
  if (!ok) {
    const char *name;
    PetscCall(MbSchemeGetType(s, &name));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "scheme %s does not apply to body %" PetscInt_FMT " of kind %s", name, b->id, MbBodyKinds[b->kind]);
  }
  b->scheme = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodySetDamping(MbBody b, PetscReal damping)
{
  PetscFunctionBegin;
  PetscCheck(damping >= 0 && PetscIsNormalReal(damping + 1), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": damping must be >= 0, got %g", b->id, (double)damping);
  b->damping = damping;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyGetDamping(MbBody b, PetscReal *damping)
{
  *damping = b->damping;
  return PETSC_SUCCESS;
}

PetscReal MbBodyExtent(MbBody b)
{
  MbShape   s = b->shape;
  PetscReal e = 0, a[3];
  if (b->extent > 0) return b->extent; /* referential: computed once (SetChars resets it) */
  for (PetscInt k = 0; k < s->n; k++) {
    MbPrim *p = &s->prim[k];
    if (p->kind == MB_PRIM_SPHERE) {
      MbV3Sub(p->c, b->mp.center, a);
      e = PetscMax(e, MbV3Norm(a) + p->r);
    } else
      for (PetscInt v = 0; v < p->nv; v++) {
        MbV3Sub(&p->v[3 * v], b->mp.center, a);
        e = PetscMax(e, MbV3Norm(a));
      }
  }
  b->extent = e;
  return e;
}
