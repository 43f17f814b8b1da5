/* The force path of the step loop: every force on the bodies evaluated at a state a scheme
   chooses, and the force schemes driven around that evaluation (schemeimpl.h, families
   EXPLICIT and IMPLICIT). Also the springs (PUT_SPRING) for both paths.

   MbDomainEvalForces(t) fills body->force of every owned body with
     gravity + loads (the body's external op) + springs + penalty contacts,
   all at the bodies' current q and u: contacts come from the usual detection
   (src/domain/detect.c) at the current placement with the current velocities. It is
   collective (ghost refresh, detection).

   Implicit schemes solve R(x) = 0 for x = a(t+h) of every owned body at once with PETSc's
   SNES: Newton with a matrix-free Jacobian (MatMFFD, finite differences of R along the
   Krylov directions) and GMRES without a preconditioner. Why matrix-free: R couples bodies
   through springs and contacts that the detection finds anew at every evaluation, so there
   is no assembled tangent to hand; a finite-difference Jacobian column by column would cost
   one collective evaluation per degree of freedom of the whole domain, while GMRES needs
   about as many evaluations as R has distinct eigenvalue clusters (a few for I + O(h²)K/M).
   A failed Newton rejects the step and redoes it as two halves (seed 002, "reduce h and
   return to step 2"), at most MAX_HALVINGS times deep. */
#include <petscsnes.h>
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyview.h"
#include "../scheme/schemeimpl.h"

#define MAX_HALVINGS 12

static PetscBool Owned(MbDomain d, PetscInt id)
{
  PetscMPIInt r;
  if (id < 0) return PETSC_FALSE;
  (void)MbDomainOwnerRank(d, id, &r);
  return r == d->rank ? PETSC_TRUE : PETSC_FALSE;
}

#define SPRING_N 11 /* a spring's saved state: X (6), rest length, resolved, stroke, velocity, force */

/* The rank that accounts a spring's energy: the owner of its first movable end. */
static PetscBool SpringMine(MbDomain d, const MbSpring *sp)
{
  PetscInt id = sp->body[0];
  if (!d->map.movable[id] && sp->body[1] >= 0) id = sp->body[1];
  return Owned(d, id);
}

static void SpringBodies(MbDomain d, const MbSpring *sp, MbBody b[2])
{
  for (int k = 0; k < 2; k++) b[k] = sp->body[k] >= 0 ? d->map.all[sp->body[k]] : NULL;
}

PetscErrorCode MbDomainAddSpring(MbDomain d, PetscInt b1, PetscInt b2, const PetscReal p1[3], const PetscReal p2[3], const PetscReal dir[3], PetscReal rest, PetscReal k, PetscReal c, PetscReal lo, PetscReal hi,
                                 PetscErrorCode (*fn)(void *, PetscReal, PetscReal, PetscReal *), void *ctx, PetscErrorCode (*destroy)(void *), PetscInt *index)
{
  MbSpring *sp;
  PetscFunctionBegin;
  PetscCheck(b1 >= 0 && b1 < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING: no body with id %" PetscInt_FMT, b1);
  PetscCheck(b2 >= -1 && b2 < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING: no body with id %" PetscInt_FMT, b2);
  PetscCheck(b1 != b2, d->comm, PETSC_ERR_ARG_WRONG, "PUT_SPRING: both ends on the same body %" PetscInt_FMT, b1);
  PetscCheck(k >= 0 && PetscIsNormalReal(k + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": spring must be >= 0, got %g", b1, b2, (double)k);
  PetscCheck(c >= 0 && PetscIsNormalReal(c + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": dashpot must be >= 0, got %g", b1, b2, (double)c);
  PetscCheck(!PetscIsNanReal(lo) && !PetscIsNanReal(hi) && lo <= hi, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": limits must satisfy min <= max, got (%g, %g)", b1, b2, (double)lo,
             (double)hi);
  PetscCheck(!fn || (k == 0 && c == 0), d->comm, PETSC_ERR_ARG_WRONG, "PUT_SPRING between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": give a function or spring/dashpot, not both", b1, b2);
  PetscCall(PetscRealloc(sizeof(MbSpring) * (d->nspring + 1), &d->spring));
  sp = &d->spring[d->nspring];
  PetscCall(PetscMemzero(sp, sizeof(*sp)));
  sp->body[0] = b1;
  sp->body[1] = b2;
  MbV3Copy(p1, sp->p[0]);
  MbV3Copy(p2, sp->p[1]);
  if (dir) {
    PetscReal len = MbV3Norm(dir);
    PetscCheck(len > 0 && PetscIsNormalReal(len), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": direction must be a non-zero vector, got (%g, %g, %g)", b1, b2, (double)dir[0], (double)dir[1],
               (double)dir[2]);
    MbV3Scale(1.0 / len, dir, sp->dir);
  }
  PetscCheck(PetscIsNanReal(rest) || isfinite(rest), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": rest length must be finite, got %g", b1, b2, (double)rest);
  PetscCheck(PetscIsNanReal(rest) || rest > 0 || dir, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": rest length must be > 0 for a spring along the line of its points, got %g", b1, b2,
             (double)rest);
  sp->rest    = rest;
  sp->k       = k;
  sp->c       = c;
  sp->lo      = lo;
  sp->hi      = hi;
  sp->act[0]  = PETSC_NINFINITY;
  sp->act[1]  = PETSC_INFINITY;
  sp->fn      = fn;
  sp->ctx     = ctx;
  sp->destroy = destroy;
  d->nspring++;
  if (index) *index = d->nspring - 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetSpringActive(MbDomain d, PetscInt index, PetscReal lo, PetscReal hi)
{
  MbSpring *sp;
  PetscFunctionBegin;
  PetscCheck(index >= 0 && index < d->nspring, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING: no spring with index %" PetscInt_FMT " (%" PetscInt_FMT " springs)", index, d->nspring);
  sp = &d->spring[index];
  PetscCheck(!PetscIsNanReal(lo) && !PetscIsNanReal(hi) && lo <= hi, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "PUT_SPRING between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": active must satisfy min <= max, got (%g, %g)", sp->body[0], sp->body[1],
             (double)lo, (double)hi);
  sp->act[0] = lo;
  sp->act[1] = hi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Resolve new springs against q(t): the rank that accounts a spring (it holds both ends:
   spring partners are ghosts like joint partners) resolves it, and one reduction shares the
   referential points and rest length with every rank. Collective. */
static PetscErrorCode SpringsResolve(MbDomain d)
{
  PetscInt   nnew = 0, *idx;
  PetscReal *buf, *sum;
  PetscFunctionBegin;
  for (PetscInt j = 0; j < d->nspring; j++) {
    MbSpring *sp = &d->spring[j];
    if (sp->resolved) continue;
    PetscCheck(d->map.movable[sp->body[0]] || (sp->body[1] >= 0 && d->map.movable[sp->body[1]]), d->comm, PETSC_ERR_ARG_WRONG,
               "PUT_SPRING %" PetscInt_FMT " connects only obstacles (bodies %" PetscInt_FMT " and %" PetscInt_FMT "): obstacles take no forces", j, sp->body[0], sp->body[1]);
    nnew++;
  }
  if (!nnew) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainGhostRefresh(d));
  PetscCall(PetscMalloc3(nnew, &idx, 7 * nnew, &buf, 7 * nnew, &sum));
  nnew = 0;
  for (PetscInt j = 0; j < d->nspring; j++) {
    MbSpring *sp = &d->spring[j];
    if (sp->resolved) continue;
    PetscCall(PetscArrayzero(&buf[7 * nnew], 7));
    if (SpringMine(d, sp)) {
      MbBody b[2];
      SpringBodies(d, sp, b);
      PetscCheck(b[0] && (sp->body[1] < 0 || b[1]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "PUT_SPRING %" PetscInt_FMT ": an end is not on rank %d, which accounts the spring", j, d->rank);
      PetscCall(MbSpringResolve(sp, j, b));
      PetscCall(PetscArraycpy(&buf[7 * nnew], &sp->X[0][0], 6));
      buf[7 * nnew + 6] = sp->length0;
    }
    idx[nnew++] = j;
  }
  PetscCall(MPIU_Allreduce(buf, sum, 7 * nnew, MPIU_REAL, MPIU_SUM, d->comm));
  for (PetscInt i = 0; i < nnew; i++) {
    MbSpring *sp = &d->spring[idx[i]];
    PetscCall(PetscArraycpy(&sp->X[0][0], &sum[7 * i], 6));
    sp->length0  = sum[7 * i + 6];
    sp->resolved = PETSC_TRUE;
  }
  PetscCall(PetscFree3(idx, buf, sum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainForceFamily(MbDomain d, PetscBool *force)
{
  int         l    = 0, g;
  const char *name = NULL;
  PetscInt    id   = -1;
  PetscFunctionBegin;
  if (d->nspring) PetscCall(SpringsResolve(d));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    MbScheme   s;
    PetscCall(MbBodyGetView(d->body[i], &v));
    s = v.scheme;
    if (!s) continue;
    if (s->family == MB_SCHEME_STEP)
      l |= 1;
    else {
      PetscBool ga;
      if (!name) {
        name = s->type;
        PetscCall(MbBodyGetId(d->body[i], &id));
      }
      if (s->family == MB_SCHEME_EXPLICIT)
        l |= 2;
      else {
        PetscCall(PetscStrcmp(s->type, MBGALPHA, &ga));
        l |= ga ? 8 : 4;
      }
    }
  }
  PetscCallMPI(MPI_Allreduce(&l, &g, 1, MPI_INT, MPI_BOR, d->comm));
  *force = (g & ~1) ? PETSC_TRUE : PETSC_FALSE;
  if (!*force) PetscFunctionReturn(PETSC_SUCCESS);
  if (!name) name = (g & 2) ? "explicit force scheme" : "implicit force scheme";
  PetscCheck(!(g & 1), d->comm, PETSC_ERR_ARG_INCOMP,
             "scheme %s (body %" PetscInt_FMT
             ") cannot share a domain with RIG_POS/RIG_NEG/RIG_IMP bodies: the force schemes (EULER_EXP, EULER_IMP, GALPHA, CDM, EGALPHA, CHUNG_LEE) integrate all bodies together; give every body the same kind of scheme",
             name, id);
  PetscCheck(g == 2 || g == 4 || g == 8, d->comm, PETSC_ERR_ARG_INCOMP, "scheme %s (body %" PetscInt_FMT "): an implicit scheme (EULER_IMP, GALPHA) solves for all bodies at once and cannot be mixed with another scheme; give every body the same one",
             name, id);
  for (PetscInt k = 0; k < d->cs->njoint; k++) {
    static const char *jn[] = {"CONTACT", "FIX_POINT", "FIX_DIRECTION", "SET_VELOCITY", "PUT_RIGID_LINK"};
    const MbJoint     *jt   = &d->cs->joint[k];
    if (jt->removed) continue;
    SETERRQ(d->comm, PETSC_ERR_ARG_INCOMP,
            "scheme %s (body %" PetscInt_FMT ") cannot be combined with the %s joint between bodies %" PetscInt_FMT " and %" PetscInt_FMT
            ": joints are solved by the constraint solver, which only the RIG_* schemes use (springs, loads and PENALTY_SOLVER contacts work with every scheme)",
            name, id, jn[jt->kind], jt->body[0], jt->body[1]);
  }
  for (PetscInt j = 0; j < d->nspring; j++) {
    const MbSpring *sp = &d->spring[j];
    /* a stop is a unilateral constraint (an impulse that ends the approach), which no force
       of the state expresses: an arbitrarily stiff penalty would stand in for it, with the
       critical step it sets */
    PetscCheck(!MbSpringHasStops(sp), d->comm, PETSC_ERR_ARG_INCOMP,
               "scheme %s (body %" PetscInt_FMT ") cannot take PUT_SPRING %" PetscInt_FMT " (bodies %" PetscInt_FMT " and %" PetscInt_FMT
               ") with limits (%g, %g): limits are hard stops (as in Solfec-1.0), solved by the constraint solver, so they need a RIG_* scheme (RIG_NEG, RIG_POS, RIG_IMP); with a force scheme leave limits out, or use moreau's active=(min, max), "
               "which switches the spring off outside that stroke range",
               name, id, j, sp->body[0], sp->body[1], (double)sp->lo, (double)sp->hi);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Add the spring forces into f of the owned ends: f = body->force (impulse FALSE), or as an
   impulse u += h A⁻¹f (impulse TRUE, RIG_* schemes, velocities of the start of the step). */
static PetscErrorCode SpringForces(MbDomain d, PetscReal t, PetscBool impulse)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < d->nspring; j++) {
    MbSpring *sp = &d->spring[j];
    MbBody    b[2];
    PetscReal n[3];
    PetscBool own[2] = {Owned(d, sp->body[0]), Owned(d, sp->body[1])};
    if (!own[0] && !own[1]) continue;
    SpringBodies(d, sp, b);
    PetscCall(MbSpringEvaluate(sp, j, b, impulse, t, n));
    for (int k = 0; k < 2; k++) {
      if (!own[k] || !MbBodyIsIntegrated(b[k])) continue;
      MbBodyView v;
      PetscCall(MbBodyGetView(b[k], &v));
      if (impulse) {
        PetscReal      fs[MB_BODY_SMALL_NU], dus[MB_BODY_SMALL_NU], *f = fs, *du = dus;
        const PetscInt nu = v.nu;
        if (nu > MB_BODY_SMALL_NU) PetscCall(PetscMalloc2(nu, &f, nu, &du));
        PetscCall(PetscArrayzero(f, nu));
        PetscCall(MbSpringAddForce(sp, b[k], k, n, f));
        PetscCall(MbBodyInverseInertia(b[k], f, du));
        for (PetscInt i = 0; i < nu; i++) v.u[i] += d->h * du[i];
        if (f != fs) PetscCall(PetscFree2(f, du));
      } else
        PetscCall(MbSpringAddForce(sp, b[k], k, n, v.force));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainApplySprings(MbDomain d)
{
  PetscFunctionBegin;
  if (!d->nspring) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainGhostRefresh(d)); /* remote ends at the mid-step placement */
  PetscCall(SpringForces(d, d->t + 0.5 * d->h, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a step: the potential of linear springs at the new state, and the energy the
   dashpots and callback springs took over the step, h·(−F_nc ṡ) with the end-state rate
   (rectangle rule), on the rank that accounts each spring. */
PetscErrorCode MbDomainSpringsEndStep(MbDomain d, PetscReal h)
{
  PetscFunctionBegin;
  d->epot = 0;
  if (!d->nspring) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainGhostRefresh(d));
  for (PetscInt j = 0; j < d->nspring; j++) {
    MbSpring *sp = &d->spring[j];
    MbBody    b[2];
    PetscReal n[3];
    if (!SpringMine(d, sp)) continue;
    SpringBodies(d, sp, b);
    PetscCall(MbSpringEvaluate(sp, j, b, PETSC_FALSE, d->t + h, n));
    d->epot += MbSpringPotential(sp, sp->stroke);
    /* an end on a moving obstacle (drive.c): the spring's energy changes by what that end's
       motion does, −h F_k·v_k (F_k = ±F n on end k), work done on the bodies from outside,
       counted with the reactions' (as the local dynamics counts a moving obstacle's rows) */
    for (int k = 0; k < 2; k++)
      if (b[k] && !MbBodyIsMovable(b[k]) && MbBodyInMotion(b[k])) {
        PetscReal v[3];
        PetscCall(MbBodyPointVelocity(b[k], sp->X[k], v));
        d->work_contact -= h * (k ? -sp->force : sp->force) * MbV3Dot(n, v);
      }
    if (sp->fn)
      d->espring -= h * sp->force * sp->velocity;
    else if (sp->stroke >= sp->act[0] && sp->stroke <= sp->act[1])
      d->espring += h * sp->c * sp->velocity * sp->velocity;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainEvalForces(MbDomain d, PetscReal t, PetscReal h)
{
  PetscReal *save     = NULL;
  PetscBool  contacts = d->nglobal > 1 || d->nself > 0 ? PETSC_TRUE : PETSC_FALSE; /* a body alone may touch itself */
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody     b = d->body[i];
    MbBodyView v;
    if (!MbBodyIsIntegrated(b)) continue;
    PetscCall(MbBodyGetView(b, &v));
    PetscCall(MbBodyExternalForce(b, t, h, d->g, v.fext));
    PetscCall(PetscArraycpy(v.force, v.fext, v.nu));
  }
  if (!contacts && !d->nspring) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainKnowBodies(d)); /* called before any step too */
  if (d->nspring) PetscCall(SpringsResolve(d));
  /* detection takes the relative velocity of a contact from u0 ("the start of the step"):
     here the forces belong to the current state, so u0 is u while ghosts travel and the
     contacts are found */
  {
    PetscInt n = 0;
    for (PetscInt i = 0; i < d->nbody; i++) {
      MbBodyView v;
      PetscCall(MbBodyGetView(d->body[i], &v));
      n += v.nu;
    }
    PetscCall(PetscMalloc1(n + 1, &save));
    n = 0;
    for (PetscInt i = 0; i < d->nbody; i++) {
      MbBodyView v;
      PetscCall(MbBodyGetView(d->body[i], &v));
      PetscCall(PetscArraycpy(save + n, v.u0, v.nu));
      PetscCall(PetscArraycpy(v.u0, v.u, v.nu));
      n += v.nu;
    }
  }
  PetscCall(MbDomainGhostRefresh(d));
  PetscCall(SpringForces(d, t, PETSC_FALSE));
  if (contacts) {
    PetscCall(MbDomainDetect(d));
    if (d->cs->ncon) {
      const MbCon *c = &d->cs->con[0];
      PetscCall(PetscFree(save));
      SETERRQ(d->comm, PETSC_ERR_ARG_INCOMP,
              "the force schemes (EULER_EXP, EULER_IMP, GALPHA, CDM, EGALPHA, CHUNG_LEE) cannot handle the %s constraint between bodies %" PetscInt_FMT " and %" PetscInt_FMT
              " at t = %g: contacts need PENALTY_SOLVER with SURFACE_MATERIAL(model='SPRING_DASHPOT'); the Gauss-Seidel/Newton contact solve works with the RIG_* schemes only",
              MbConKindNames[c->kind], c->body[0], c->body[1], (double)t);
    }
    for (PetscInt k = 0; k < d->cs->npen + d->cs->nfpen; k++) { /* this rank's and other ranks' contacts on its bodies */
      const MbCon *c = k < d->cs->npen ? &d->cs->pen[k] : &d->cs->fpen[k - d->cs->npen];
      for (int m = 0; m < 2; m++) {
        PetscInt   id = c->body[m];
        MbBodyView v;
        if (!Owned(d, id) || !MbBodyIsIntegrated(d->map.all[id])) continue; /* a self-contact's body (master = slave) takes both */
        PetscCall(MbBodyGetView(d->map.all[id], &v));
        /* local frame: f += ±Hᵀ R */
        PetscCall(MbBodyAddPointForce(d->map.all[id], c->X[m], c->base, c->R, m ? -1.0 : 1.0, v.force));
      }
    }
  }
  for (PetscInt i = 0, n = 0; i < d->nbody; i++) {
    MbBodyView v;
    PetscCall(MbBodyGetView(d->body[i], &v));
    PetscCall(PetscArraycpy(v.u0, save + n, v.nu));
    n += v.nu;
  }
  PetscCall(PetscFree(save));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- implicit schemes */

static PetscErrorCode Residual(SNES snes, Vec X, Vec F, void *ctx)
{
  MbDomain           d = (MbDomain)ctx;
  MbScheme           s = d->imp.fscheme;
  const PetscScalar *x;
  PetscScalar       *f;
  PetscInt           off = 0;
  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(X, &x));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody     b = d->body[i];
    MbBodyView v;
    if (!MbBodyIsIntegrated(b)) continue;
    PetscCall(MbBodyGetView(b, &v));
    PetscCall(s->ops.stage(s, b, d->imp.fh, x + off));
    off += v.nu;
  }
  PetscCall(MbDomainEvalForces(d, d->imp.ft + s->tshift * d->imp.fh, d->imp.fh));
  PetscCall(VecGetArray(F, &f));
  off = 0;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody     b = d->body[i];
    MbBodyView v;
    if (!MbBodyIsIntegrated(b)) continue;
    PetscCall(MbBodyGetView(b, &v));
    PetscCall(s->ops.residual(s, b, x + off, f + off));
    off += v.nu;
  }
  PetscCall(VecRestoreArray(F, &f));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetupNewton(MbDomain d, MbScheme s)
{
  PetscInt n = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    if (!MbBodyIsIntegrated(d->body[i])) continue;
    PetscCall(MbBodyGetView(d->body[i], &v));
    n += v.nu;
  }
  if (d->imp.snes && n == d->imp.snesn) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainForcesDestroy(d));
  Mat            J;
  KSP            ksp;
  PC             pc;
  SNESLineSearch ls;
  d->imp.snesn = n;
  PetscCall(VecCreateMPI(d->comm, n, PETSC_DETERMINE, &d->imp.snesx));
  PetscCall(VecDuplicate(d->imp.snesx, &d->imp.snesr));
  PetscCall(SNESCreate(d->comm, &d->imp.snes));
  PetscCall(SNESSetOptionsPrefix(d->imp.snes, "mb_scheme_"));
  PetscCall(SNESSetFunction(d->imp.snes, d->imp.snesr, Residual, d));
  PetscCall(MatCreateSNESMF(d->imp.snes, &J));
  PetscCall(SNESSetJacobian(d->imp.snes, J, J, MatMFFDComputeJacobian, NULL));
  PetscCall(MatDestroy(&J));
  PetscCall(SNESGetKSP(d->imp.snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCNONE));
  PetscCall(SNESGetLineSearch(d->imp.snes, &ls));
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
  PetscCall(SNESSetFromOptions(d->imp.snes)); /* the tolerances are set before each solve (ImplicitStep) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One implicit step from the current state over [t, t+h]; on a failed Newton, two halves. */
static PetscErrorCode ImplicitStep(MbDomain d, MbScheme s, PetscReal t, PetscReal h, PetscInt depth)
{
  PetscScalar        *x;
  PetscReal           xnorm;
  PetscInt            off = 0, its;
  SNESConvergedReason reason;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    PetscCall(MbBodyGetView(d->body[i], &v));
    PetscCall(PetscArraycpy(v.q0, v.q, v.nq));
    PetscCall(PetscArraycpy(v.u0, v.u, v.nu));
  }
  PetscCall(SetupNewton(d, s));
  PetscCall(VecGetArray(d->imp.snesx, &x)); /* first guess: a(n) */
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody     b = d->body[i];
    MbBodyView v;
    if (!MbBodyIsIntegrated(b)) continue;
    PetscCall(MbBodyGetView(b, &v));
    PetscCall(PetscArraycpy(x + off, v.acc + v.nu, v.nu));
    off += v.nu;
  }
  PetscCall(VecRestoreArray(d->imp.snesx, &x));
  /* converged when ‖R‖ <= rtol ‖R(a(n))‖ or ‖R‖ <= 1e-10 of the largest acceleration met so
     far: R cannot drop below the round-off of the forces, which scale with the motion's
     peak, not with the accelerations of a motion that has decayed */
  PetscCall(VecNorm(d->imp.snesx, NORM_2, &xnorm));
  d->imp.fascale = PetscMax(d->imp.fascale, xnorm);
  PetscCall(SNESSetTolerances(d->imp.snes, 1e-10 * d->imp.fascale + 1e-300, s->rtol, PETSC_DEFAULT, s->maxit, 1000000));
  d->imp.fscheme = s;
  d->imp.ft      = t;
  d->imp.fh      = h;
  PetscCall(SNESSolve(d->imp.snes, NULL, d->imp.snesx));
  PetscCall(SNESGetConvergedReason(d->imp.snes, &reason));
  PetscCall(SNESGetIterationNumber(d->imp.snes, &its));
  if (d->rank == 0) s->iterations += its; /* one collective Newton: counted once (the summary sums ranks) */
  if (reason > 0) {
    const PetscScalar *xa;
    off = 0;
    PetscCall(VecGetArrayRead(d->imp.snesx, &xa));
    for (PetscInt i = 0; i < d->nbody; i++) {
      MbBody     b = d->body[i];
      MbBodyView v;
      if (!MbBodyIsIntegrated(b)) continue;
      PetscCall(MbBodyGetView(b, &v));
      PetscCall(s->ops.finish(s, b, h, xa + off));
      off += v.nu;
    }
    PetscCall(VecRestoreArrayRead(d->imp.snesx, &xa));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d->rank == 0) s->failures++;
  PetscCheck(!s->error_if_not_converged, d->comm, PETSC_ERR_NOT_CONVERGED, "%s: Newton did not converge (%s after %" PetscInt_FMT " iterations) at t = %g, h = %g", s->type, SNESConvergedReasons[reason], its, (double)t, (double)h);
  PetscCheck(depth < MAX_HALVINGS, d->comm, PETSC_ERR_NOT_CONVERGED, "%s: Newton did not converge at t = %g even after halving the step %d times (h = %g; last: %s)", s->type, (double)t, MAX_HALVINGS, (double)h, SNESConvergedReasons[reason]);
  PetscCall(PetscInfo(NULL, "%s: Newton failed (%s) at t = %g, h = %g: redoing the step as two halves\n", s->type, SNESConvergedReasons[reason], (double)t, (double)h));
  for (PetscInt i = 0; i < d->nbody; i++) { /* back to the start of the step */
    MbBodyView v;
    PetscCall(MbBodyGetView(d->body[i], &v));
    PetscCall(PetscArraycpy(v.q, v.q0, v.nq));
    PetscCall(PetscArraycpy(v.u, v.u0, v.nu));
  }
  PetscCall(ImplicitStep(d, s, t, 0.5 * h, depth + 1));
  PetscCall(ImplicitStep(d, s, t + 0.5 * h, 0.5 * h, depth + 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainForcesDestroy(MbDomain d)
{
  PetscFunctionBegin;
  PetscCall(SNESDestroy(&d->imp.snes));
  PetscCall(VecDestroy(&d->imp.snesx));
  PetscCall(VecDestroy(&d->imp.snesr));
  d->imp.snesn = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the step */

PetscErrorCode MbDomainStepForces(MbDomain d)
{
  int        need = 0, any;
  MbScheme   s    = NULL;
  PetscInt   fam  = MB_SCHEME_EXPLICIT;
  PetscReal *start;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody     b = d->body[i];
    MbBodyView v;
    if (!MbBodyIsIntegrated(b)) continue;
    PetscCall(MbBodyGetView(b, &v));
    if (!v.accok) need = 1;
    if (!s) s = v.scheme;
  }
  { /* any rank needs the acceleration, any rank integrates implicitly: one reduction */
    int l[2] = {need, s && s->family == MB_SCHEME_IMPLICIT ? 1 : 0}, g[2];
    PetscCallMPI(MPI_Allreduce(l, g, 2, MPI_INT, MPI_LOR, d->comm));
    any = g[0];
    fam = g[1] ? MB_SCHEME_IMPLICIT : MB_SCHEME_EXPLICIT;
  }
  if (any) { /* the acceleration of the current state, and the schemes' history from it */
    PetscCall(MbDomainEvalForces(d, d->t, d->h));
    for (PetscInt i = 0; i < d->nbody; i++) {
      MbBody     b = d->body[i];
      MbBodyView v;
      if (!MbBodyIsIntegrated(b)) continue;
      PetscCall(MbBodyGetView(b, &v));
      if (!v.accok) PetscCall(MbBodyAccelerationStart(b));
    }
  }
  {
    PetscInt n = 0;
    for (PetscInt i = 0; i < d->nbody; i++) {
      MbBodyView v;
      PetscCall(MbBodyGetView(d->body[i], &v));
      n += v.nq + v.nu;
    }
    PetscCall(PetscMalloc1(n + 1, &start)); /* q, u at the start of the step */
    n = 0;
    for (PetscInt i = 0; i < d->nbody; i++) {
      MbBodyView v;
      PetscCall(MbBodyGetView(d->body[i], &v));
      PetscCall(PetscArraycpy(v.q0, v.q, v.nq));
      PetscCall(PetscArraycpy(v.u0, v.u, v.nu));
      PetscCall(PetscArraycpy(start + n, v.q, v.nq));
      PetscCall(PetscArraycpy(start + n + v.nq, v.u, v.nu));
      n += v.nq + v.nu;
    }
  }
  if (fam == MB_SCHEME_EXPLICIT) {
    for (PetscInt i = 0; i < d->nbody; i++) {
      MbBodyView v;
      if (!MbBodyIsIntegrated(d->body[i])) continue;
      PetscCall(MbBodyGetView(d->body[i], &v));
      PetscCall(v.scheme->ops.predict(v.scheme, d->body[i], d->h));
    }
    PetscCall(MbDomainEvalForces(d, d->t + d->h, d->h));
    for (PetscInt i = 0; i < d->nbody; i++) {
      MbBodyView v;
      if (!MbBodyIsIntegrated(d->body[i])) continue;
      PetscCall(MbBodyGetView(d->body[i], &v));
      PetscCall(v.scheme->ops.correct(v.scheme, d->body[i], d->h));
    }
  } else {
    if (!s) { /* no bodies here: take part in the collective Newton with an empty share */
      PetscInt n = d->nscheme;
      for (PetscInt k = 0; k < n && !s; k++)
        if (d->scheme[k]->family == MB_SCHEME_IMPLICIT) s = d->scheme[k];
      PetscCheck(s, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d holds no implicit scheme for the collective Newton", d->rank);
    }
    PetscCall(ImplicitStep(d, s, d->t, d->h, 0));
  }
  for (PetscInt i = 0, n = 0; i < d->nbody; i++) { /* start-of-step state for whoever reads it, and the work */
    MbBody     b = d->body[i];
    MbBodyView v;
    PetscCall(MbBodyGetView(b, &v));
    PetscCall(PetscArraycpy(v.q0, start + n, v.nq));
    PetscCall(PetscArraycpy(v.u0, start + n + v.nq, v.nu));
    n += v.nq + v.nu;
    if (MbBodyIsIntegrated(b)) MbBodyAddStepWork(b, d->h);
  }
  PetscCall(PetscFree(start));
  for (PetscInt k = 0; k < d->cs->npen; k++) { /* penalty contacts: h R·V at the last evaluation */
    MbCon *c = &d->cs->pen[k];
    if (c->owner != d->rank) continue;
    d->work_contact += d->h * c->R[2] * c->V[2];
    d->work_friction -= d->h * (c->R[0] * c->V[0] + c->R[1] * c->V[1]);
  }
  PetscCall(MbDomainSpringsEndStep(d, d->h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainCriticalStep(MbDomain d, PetscReal *hcrit)
{
  PetscReal w2 = 0, mmin = PETSC_MAX_REAL, g;
  PetscInt  nmov = 0, gmov;
  PetscFunctionBegin;
  PetscCall(MbDomainKnowBodies(d));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    PetscCall(MbBodyGetView(d->body[i], &v));
    if (!MbBodyIsMovable(d->body[i])) continue;
    mmin = PetscMin(mmin, v.mass);
    nmov++;
  }
  PetscCallMPI(MPI_Allreduce(&mmin, &g, 1, MPIU_REAL, MPIU_MIN, d->comm));
  PetscCallMPI(MPI_Allreduce(&nmov, &gmov, 1, MPIU_INT, MPI_SUM, d->comm));
  mmin = g;
  /* ω² = k (1/m₁ + 1/m₂) of a linear spring, an obstacle or a fixed point counting as m = ∞ */
  if (d->nspring) { /* Σ 1/m of each spring's movable ends: each owner adds its end's */
    PetscReal *im, *gim;
    PetscCall(PetscCalloc2(d->nspring, &im, d->nspring, &gim));
    for (PetscInt j = 0; j < d->nspring; j++)
      for (int k = 0; k < 2; k++) {
        PetscInt   id = d->spring[j].body[k];
        MbBodyView v;
        if (id < 0 || !d->map.movable[id] || !Owned(d, id)) continue;
        PetscCall(MbBodyGetView(d->map.all[id], &v));
        im[j] += 1.0 / v.mass;
      }
    PetscCall(MPIU_Allreduce(im, gim, d->nspring, MPIU_REAL, MPIU_SUM, d->comm));
    for (PetscInt j = 0; j < d->nspring; j++) w2 = PetscMax(w2, d->spring[j].k * gim[j]);
    PetscCall(PetscFree2(im, gim));
  }
  /* penalty contacts: the stiffest SPRING_DASHPOT material between the two lightest bodies,
     or between the lightest body and an obstacle when only one body moves */
  if (mmin < PETSC_MAX_REAL)
    for (PetscInt k = 0; k < d->cs->nmat; k++)
      if (d->cs->mat[k].model == 1) w2 = PetscMax(w2, (gmov > 1 ? 2 : 1) * d->cs->mat[k].spring / mmin);
  *hcrit = w2 > 0 ? 2 / PetscSqrtReal(w2) : PETSC_INFINITY;
  {
    PetscReal hb;
    PetscInt  id;
    PetscCall(MbDomainBodyCriticalStep(d, &hb, &id));
    if (id >= 0) *hcrit = PetscMin(*hcrit, hb);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainBodyCriticalStep(MbDomain d, PetscReal *hcrit, PetscInt *id)
{
  struct {
    double v;
    int    i;
  } loc = {PETSC_MAX_REAL, -1}, glob;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody     b = d->body[i];
    MbBodyView v;
    PetscBool  bounded;
    PetscReal  h;
    PetscCall(MbBodyGetView(b, &v));
    if (!v.scheme) continue;
    PetscCall(MbSchemeIsBounded(v.scheme, &bounded));
    if (!bounded) continue;
    PetscCall(MbBodyCriticalStep(b, &h));
    if (h < loc.v) {
      PetscInt id;
      PetscCall(MbBodyGetId(b, &id));
      loc.v = h, loc.i = (int)id;
    }
  }
  PetscCallMPI(MPI_Allreduce(&loc, &glob, 1, MPI_DOUBLE_INT, MPI_MINLOC, d->comm));
  *hcrit = glob.v;
  *id    = glob.i;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSaveSprings(MbDomain d, MbBuf *b)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < d->nspring; j++) {
    const MbSpring *sp = &d->spring[j];
    PetscReal       r[SPRING_N];
    PetscCall(PetscArraycpy(r, &sp->X[0][0], 6));
    r[6]  = sp->length0;
    r[7]  = sp->resolved ? 1 : 0;
    r[8]  = sp->stroke;
    r[9]  = sp->velocity;
    r[10] = sp->force;
    PetscCall(MbBufPutItem(b, j, SpringMine(d, sp), SPRING_N, r)); /* the accounting rank's evaluation is the one kept */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetSpring(void *ctx, PetscInt j, const PetscReal r[])
{
  MbSpring *sp = &((MbDomain)ctx)->spring[j];
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(&sp->X[0][0], r, 6));
  sp->length0  = r[6];
  sp->resolved = r[7] > 0.5 ? PETSC_TRUE : PETSC_FALSE;
  sp->stroke   = r[8];
  sp->velocity = r[9];
  sp->force    = r[10];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainRestoreSprings(MbDomain d, MbBuf *b, PetscInt nrec)
{
  (void)nrec;
  return MbBufItemsRead(b, SPRING_N, d->nspring, SetSpring, d);
}
