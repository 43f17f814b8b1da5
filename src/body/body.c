/* MbBody: creation, mass characteristics, loads, and dispatch to the kinematic model. */
#include <moreau/mbmath.h>
#include <moreau/mbscheme.h>
#include "bodyimpl.h"
#include "../shape/shapeimpl.h"

/* Checks that J is symmetric positive definite (Sylvester's criterion) and stores J⁻¹. */
static PetscErrorCode SetInertia(MbBody b, const PetscReal J[9])
{
  PetscReal s = 0, d1, d2, d3;
  PetscFunctionBegin;
  for (int k = 0; k < 9; k++) s = PetscMax(s, PetscAbsReal(J[k]));
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++)
      PetscCheck(PetscAbsReal(J[3 * i + j] - J[3 * j + i]) <= 1e-10 * s, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": inertia must be symmetric, got J[%d][%d] = %g but J[%d][%d] = %g", b->id, i, j, (double)J[3 * i + j], j, i,
                 (double)J[3 * j + i]);
  d1 = J[0];
  d2 = J[0] * J[4] - J[1] * J[3];
  d3 = MbM3Det(J);
  PetscCheck(d1 > 0 && d2 > 0 && d3 > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": inertia must be positive definite, got diagonal (%g, %g, %g) and determinant %g", b->id, (double)J[0], (double)J[4], (double)J[8],
             (double)d3);
  PetscCall(PetscArraycpy(b->mp.inertia, J, 9));
  PetscCall(MbM3Invert(J, b->Jinv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAllocState(MbBody b)
{
  PetscFunctionBegin;
  /* one block: q, u, q0, u0, fext, aux(3) */
  PetscCall(PetscCalloc1(2 * b->nq + 3 * b->nu + 3, &b->q));
  b->u    = b->q + b->nq;
  b->q0   = b->u + b->nu;
  b->u0   = b->q0 + b->nq;
  b->fext = b->u0 + b->nu;
  b->aux  = b->fext + b->nu;
  PetscCall(PetscCalloc1(4 * b->nu, &b->force)); /* force (nu), then acc (3 nu) */
  b->acc = b->force + b->nu;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyCreate(PetscInt id, const char kind[], MbShape shape, PetscReal rho, const char label[], MbBody *body)
{
  MbBody           b;
  MbMassProps      mp;
  const MbBodyOps *ops;
  PetscInt         code;
  PetscFunctionBegin;
  PetscCall(MbBodyKindFind(kind, &code, &ops));
  PetscCheck(shape, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "body %" PetscInt_FMT " has no shape", id);
  PetscCall(MbShapeMassProps(shape, rho, &mp)); /* before allocating: bad input leaks nothing */
  PetscCall(PetscNew(&b));
  b->mp   = mp;
  b->id   = id;
  b->kind = code;
  b->ops  = ops;
  PetscCall(PetscStrallocpy(label, &b->label));
  PetscCall(MbShapeDuplicate(shape, &b->shape));
  b->nq = ops->nq;
  b->nu = ops->nu;
  if (ops->sizes) {
    PetscErrorCode ierr = ops->sizes(b->shape, &b->nq, &b->nu);
    if (ierr) {
      PetscCall(MbShapeDestroy(&b->shape));
      PetscCall(PetscFree(b->label));
      PetscCall(PetscFree(b));
      PetscCall(ierr);
    }
  }
  PetscCall(MbBodyAllocState(b));
  PetscCall(SetInertia(b, b->mp.inertia));
  {
    PetscErrorCode ierr = ops->create(b);
    if (ierr) {
      PetscCall(MbBodyDestroy(&b));
      PetscCall(ierr);
    }
  }
  PetscCall(ops->reset(b));
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
  PetscCall(MbBodyCracksFree(b));
  if (b->ops && b->ops->destroy) PetscCall(b->ops->destroy(b));
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
  PetscCall(b->ops->reset(b));
  if (b->norotation) PetscCall(b->ops->disable_rotation(b)); /* the new J⁻¹ is held too */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyGetId(MbBody b, PetscInt *id)
{
  *id = b->id;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodyGetKind(MbBody b, const char **k)
{
  *k = b->ops->name;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodyGetKindCode(MbBody b, PetscInt *k)
{
  *k = b->kind;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodyGetLabel(MbBody b, const char **l)
{
  *l = b->label;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodyGetShape(MbBody b, MbShape *s)
{
  *s = b->shape;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodyGetMassProps(MbBody b, MbMassProps *mp)
{
  *mp = b->mp;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodyGetExternalWork(MbBody b, PetscReal *w)
{
  *w = b->work;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodySetUserData(MbBody b, void *ctx)
{
  b->user = ctx;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodyGetUserData(MbBody b, void **ctx)
{
  *ctx = b->user;
  return PETSC_SUCCESS;
}
PetscErrorCode MbBodyGetScheme(MbBody b, MbScheme *s)
{
  *s = b->scheme;
  return PETSC_SUCCESS;
}

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

static PetscErrorCode SetVelocity(MbBody b, const PetscReal linear[3], const PetscReal angular[3], PetscBool spatial)
{
  PetscFunctionBegin;
  PetscCheck(b->ops->set_velocity || ((!linear || MbV3Norm(linear) == 0) && (!angular || MbV3Norm(angular) == 0)), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %" PetscInt_FMT " is of kind %s: it cannot be given a velocity", b->id, b->ops->name);
  if (b->ops->set_velocity) PetscCall(b->ops->set_velocity(b, linear, angular, spatial));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool MbBodyTakesVelocity(MbBody b) { return b->ops->set_velocity ? PETSC_TRUE : PETSC_FALSE; }

PetscBool      MbBodyIsDriven(MbBody b) { return !b->ops->movable && b->ops->drive_begin ? PETSC_TRUE : PETSC_FALSE; }
PetscErrorCode MbBodyDriveBegin(MbBody b, PetscReal h) { return b->ops->drive_begin(b, h); }
PetscErrorCode MbBodyDriveVelocity(MbBody b, PetscReal h, PetscInt n, const MbBodyVelocityRow rows[]) { return b->ops->drive_velocity(b, h, n, rows); }
PetscErrorCode MbBodyDriveEnd(MbBody b, PetscReal h) { return b->ops->drive_end(b, h); }

PetscBool MbBodyInMotion(MbBody b)
{
  for (PetscInt k = 0; k < b->nu; k++)
    if (b->u[k] != 0) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode MbBodySetVelocity(MbBody b, const PetscReal linear[3], const PetscReal angular[3]) { return SetVelocity(b, linear, angular, PETSC_FALSE); }
PetscErrorCode MbBodySetSpatialVelocity(MbBody b, const PetscReal linear[3], const PetscReal angular[3]) { return SetVelocity(b, linear, angular, PETSC_TRUE); }

PetscBool MbBodyIsMovable(MbBody b) { return b->ops->movable; }

PetscErrorCode MbBodySetForm(MbBody b, const char *form)
{
  PetscFunctionBegin;
  if (b->ops->form) PetscCall(b->ops->form(b, form));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyModalAnalysis(MbBody b, PetscInt n, PetscReal lambda[], PetscReal V[])
{
  PetscFunctionBegin;
  PetscCheck(b->ops->modal, PETSC_COMM_SELF, PETSC_ERR_SUP, "MODAL_ANALYSIS: body %" PetscInt_FMT " is of kind %s, which has no stiffness to analyse (FINITE_ELEMENT bodies have)", b->id, b->ops->name);
  PetscCall(b->ops->modal(b, n, lambda, V));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodySetBasis(MbBody b, PetscInt n, const PetscReal values[], const PetscReal vectors[])
{
  PetscFunctionBegin;
  PetscCheck(b->ops->basis, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " is of kind %s, which takes no reduced base", b->id, b->ops->name);
  PetscCall(b->ops->basis(b, n, values, vectors));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt MbBodyWork(MbBody b) { return b->ops->work ? b->ops->work(b) : PetscMax(1, b->nu / 6); }

PetscErrorCode MbBodyGetDefaultScheme(MbBody b, const char **name)
{
  *name = b->ops->scheme;
  return PETSC_SUCCESS;
}

PetscErrorCode MbBodySetMaterial(MbBody b, PetscReal young, PetscReal poisson)
{
  PetscFunctionBegin;
  if (b->ops->material) PetscCall(b->ops->material(b, young, poisson));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyStrainEnergy(MbBody b, PetscReal *e)
{
  PetscFunctionBegin;
  *e = 0;
  if (b->ops->strain_energy) PetscCall(b->ops->strain_energy(b, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyCriticalStep(MbBody b, PetscReal *h)
{
  PetscFunctionBegin;
  *h = PETSC_MAX_REAL;
  if (b->ops->critical_step) PetscCall(b->ops->critical_step(b, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyCheckConfiguration(MbBody b, const PetscReal q[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < b->nq; k++) PetscCheck(isfinite(q[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": configuration entry %" PetscInt_FMT " is not finite: %g", b->id, k, (double)q[k]);
  if (b->ops->check_conf) PetscCall(b->ops->check_conf(b, q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A point map of the current state: place or velocity of referential point X. */
typedef PetscErrorCode (*PointMap)(MbBody, const PetscReal[3], PetscReal[3]);
static PetscErrorCode VelocityAt(MbBody b, const PetscReal X[3], PetscReal v[3]) { return b->ops->point_velocity(b, b->u, X, v); }

/* The kind's own map of primitive k's vertices (own, may be NULL), else map of each: the
   place and the velocity of a primitive's vertices are found alike. */
static PetscErrorCode PrimMap(MbBody b, PetscInt k, PetscErrorCode (*own)(MbBody, PetscInt, PetscReal[]), PointMap map, PetscReal x[])
{
  const MbPrim *p;
  PetscFunctionBegin;
  PetscCheck(k >= 0 && k < b->shape->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT " has no primitive %" PetscInt_FMT " (it has %" PetscInt_FMT ")", b->id, k, b->shape->n);
  if (own) {
    PetscCall(own(b, k, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  p = &b->shape->prim[k];
  if (p->kind == MB_PRIM_SPHERE)
    PetscCall(map(b, p->c, x));
  else if (p->kind == MB_PRIM_ELLIPSOID) { /* its centre, then the ends of its semi-axes: exact for an affine motion */
    PetscCall(map(b, p->c, x));
    for (int v = 0; v < 3; v++) PetscCall(map(b, &p->e[3 * v], &x[3 + 3 * v]));
  } else
    for (PetscInt v = 0; v < p->nv; v++) PetscCall(map(b, &p->v[3 * v], &x[3 * v]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyPrimToSpatial(MbBody b, PetscInt k, PetscReal x[]) { return PrimMap(b, k, b->ops->prim_to_spatial, b->ops->to_spatial, x); }
PetscErrorCode MbBodyPrimVelocity(MbBody b, PetscInt k, PetscReal v[]) { return PrimMap(b, k, b->ops->prim_velocity, VelocityAt, v); }

PetscErrorCode MbBodyPrimStress(MbBody b, PetscInt k, PetscReal sigma[9])
{
  PetscBool has;
  PetscFunctionBegin;
  if (b->ops->prim_stress)
    PetscCall(b->ops->prim_stress(b, k, sigma));
  else
    PetscCall(MbBodyGetStress(b, sigma, &has));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyGetStress(MbBody b, PetscReal sigma[9], PetscBool *has)
{
  PetscFunctionBegin;
  *has = b->ops->stress ? PETSC_TRUE : PETSC_FALSE;
  if (*has)
    PetscCall(b->ops->stress(b, sigma));
  else
    PetscCall(PetscArrayzero(sigma, 9));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAddPointForce(MbBody b, const PetscReal X[3], const PetscReal base[9], const PetscReal P[3], PetscReal s, PetscReal f[])
{
  PetscReal Hs[3 * MB_BODY_SMALL_NU], *H = Hs;
  PetscFunctionBegin;
  if (b->ops->operator_hs) { /* a body of many velocities: H's few nonzero columns */
    PetscInt  n, col[MB_BODY_HS_MAX];
    PetscReal Hv[3 * MB_BODY_HS_MAX];
    PetscCall(b->ops->operator_hs(b, X, base, &n, col, Hv));
    for (int r = 0; r < 3; r++)
      for (PetscInt k = 0; k < n; k++) f[col[k]] += Hv[n * r + k] * (s * P[r]);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (b->nu > MB_BODY_SMALL_NU) PetscCall(PetscMalloc1(3 * b->nu, &H));
  PetscCall(b->ops->operator_h(b, X, base, H));
  for (int r = 0; r < 3; r++)
    for (PetscInt j = 0; j < b->nu; j++) f[j] += H[b->nu * r + j] * (s * P[r]);
  if (H != Hs) PetscCall(PetscFree(H));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyPointDofs(MbBody b, const PetscReal X[3], PetscInt *n, PetscInt col[], PetscBool *has)
{
  PetscFunctionBegin;
  *n   = 0;
  *has = b->ops->point_dofs ? PETSC_TRUE : PETSC_FALSE;
  if (*has && X) PetscCall(b->ops->point_dofs(b, X, n, col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyPointState(MbBody b, const PetscReal X[3], const PetscReal qc[], const PetscReal uc[], PetscReal x[3], PetscReal v[3], PetscReal sigma[9])
{
  PetscReal xs[3], vs[3], ss[9];
  PetscFunctionBegin;
  PetscCheck(b->ops->point_state, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " of kind %s keeps no nodal state", b->id, b->ops->name);
  PetscCall(b->ops->point_state(b, X, qc, uc, x ? x : xs, v ? v : vs, sigma ? sigma : ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyTransform(MbBody b, const PetscReal R[9], const PetscReal c[3], const PetscReal d[3]) { return b->ops->transform(b, R, c, d); }

PetscErrorCode MbBodyGetFrameState(MbBody b, PetscReal q[12], PetscReal u[6])
{
  PetscFunctionBegin;
  if (b->ops->frame_state)
    PetscCall(b->ops->frame_state(b, q, u));
  else {
    PetscCheck(b->nq == 12 && b->nu == 6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "body kind %s has no frame state", b->ops->name);
    PetscCall(PetscArraycpy(q, b->q, 12));
    PetscCall(PetscArraycpy(u, b->u, 6));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodySetFrameState(MbBody b, const PetscReal conf[12], const PetscReal velo[6], const PetscReal affine[24], PetscInt n, const PetscReal nodal[])
{
  PetscFunctionBegin;
  if (b->ops->frame_restore)
    PetscCall(b->ops->frame_restore(b, conf, velo, affine, n, nodal));
  else {
    PetscCheck(b->nq == 12 && b->nu == 6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "body kind %s cannot take its state from a frame", b->ops->name);
    PetscCall(PetscArraycpy(b->q, conf, 12));
    PetscCall(PetscArraycpy(b->u, velo, 6));
  }
  b->accok = PETSC_FALSE; /* a new state: the force schemes' A⁻¹f is stale */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool MbBodyTakesAffine(MbBody b) { return b->ops->set_affine ? PETSC_TRUE : PETSC_FALSE; }

PetscErrorCode MbBodySetAffine(MbBody b, const PetscReal Xc[3], const PetscReal m[24])
{
  PetscFunctionBegin;
  PetscCheck(b->ops->set_affine, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " (%s%s%s) of kind %s cannot take a homogeneous (rigid) motion from another body", b->id, b->label ? "label '" : "no label", b->label ? b->label : "",
             b->label ? "'" : "", b->ops->name);
  for (int k = 0; k < 24; k++) PetscCheck(!PetscIsInfOrNanReal(m[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": motion entry %d is not finite: %g", b->id, k, (double)m[k]);
  PetscCall(b->ops->set_affine(b, Xc, m));
  b->accok = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyGetAffine(MbBody b, PetscReal m[24])
{
  PetscFunctionBegin;
  PetscCheck(b->ops->affine, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " of kind %s does not move homogeneously", b->id, b->ops->name);
  PetscCall(b->ops->affine(b, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyBound(MbBody b, PetscReal c[3], PetscReal *r) { return b->ops->bound(b, c, r); }

PetscErrorCode MbBodyKineticEnergy(MbBody b, PetscReal *ek) { return b->ops->kinetic(b, ek); }
PetscErrorCode MbBodyInverseInertia(MbBody b, const PetscReal x[], PetscReal y[]) { return b->ops->inverse(b, 1, x, y); }
PetscErrorCode MbBodyPointToSpatial(MbBody b, const PetscReal X[3], PetscReal x[3]) { return b->ops->to_spatial(b, X, x); }

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
  b->load   = nl;
  *l        = &b->load[b->nload++];
  (*l)->ref = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAddLoad(MbBody b, MbLoadKind kind, MbFrame frame, const PetscReal X[3], const PetscReal dir[3], PetscReal value, MbTimeSeries ts)
{
  MbLoad *l = NULL;
  PetscFunctionBegin;
  PetscCheck(isfinite(value), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": load value is not finite: %g", b->id, (double)value);
  PetscCheck(MbV3Norm(dir) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": load direction must be non-zero", b->id);
  PetscCall(PushLoad(b, &l));
  l->kind  = kind;
  l->frame = frame;
  if (X)
    MbV3Copy(X, l->X);
  else
    MbV3Copy(b->mp.center, l->X);
  MbV3Copy(dir, l->dir);
  l->value = value;
  if (ts) PetscCall(MbTimeSeriesReference(ts));
  l->ts = ts;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAddPressure(MbBody b, PetscInt surfid, PetscReal value, MbTimeSeries ts)
{
  MbLoad   *l    = NULL;
  PetscReal z[3] = {0, 0, 0};
  PetscFunctionBegin;
  PetscCheck(b->ops->pressure, PETSC_COMM_SELF, PETSC_ERR_SUP, "PRESSURE: body %" PetscInt_FMT " is %s: only FINITE_ELEMENT bodies take a pressure on their surface", b->id, b->ops->name);
  PetscCheck(isfinite(value), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PRESSURE: body %" PetscInt_FMT ": value is not finite: %g", b->id, (double)value);
  PetscCall(PushLoad(b, &l));
  l->kind   = MB_LOAD_PRESSURE;
  l->frame  = MB_FRAME_SPATIAL;
  l->surfid = surfid;
  MbV3Copy(z, l->X);
  MbV3Copy(z, l->dir);
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
  PetscCall(MbSchemeAppliesTo(s, b->ops->name, &ok));
  if (!ok) {
    const char *name;
    PetscCall(MbSchemeGetType(s, &name));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "scheme %s does not apply to body %" PetscInt_FMT " of kind %s", name, b->id, b->ops->name);
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

PetscErrorCode MbBodyDisableRotation(MbBody b)
{
  PetscFunctionBegin;
  PetscCheck(b->ops->disable_rotation, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT ": a %s body has no rotation to disable (RIGID bodies have)", b->id, b->ops->name);
  b->norotation = PETSC_TRUE;
  PetscCall(b->ops->disable_rotation(b));
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
    } else if (p->kind == MB_PRIM_ELLIPSOID) {
      PetscReal L[9], rad[3], rot[9];
      (void)MbShapeGetEllipsoid(s, k, NULL, L, NULL);
      MbEllipsoidPrincipal(L, rad, rot);
      MbV3Sub(p->c, b->mp.center, a);
      e = PetscMax(e, MbV3Norm(a) + PetscMax(rad[0], PetscMax(rad[1], rad[2])));
    } else
      for (PetscInt v = 0; v < p->nv; v++) {
        MbV3Sub(&p->v[3 * v], b->mp.center, a);
        e = PetscMax(e, MbV3Norm(a));
      }
  }
  b->extent = e;
  return e;
}
