/* A run that has blown up stops on every rank, naming the body, the step and the time,
   before a monitor writes the state (issue 23: NaN or Inf, or an absurd finite state,
   written with exit 0 is a silent wrong answer).

   Two rules, both judged on numbers every rank already holds after the step's one
   reduction, so a step that passes costs no collective:
   - a state that is not finite (any q or u entry NaN or Inf, or an infinite kinetic energy);
   - energy made from nothing. The energy balance of the bodies (kinetic + internal, springs'
     potential included) against the work done on them since a baseline,
       created = (E − E₀) − (W_ext − W_ext,0) − (W_c − W_c,0) + (D_f − D_f,0),
     stays a small fraction of the energy involved,
       involved = E₀ + |W_ext − W_ext,0| + |W_c − W_c,0| + |D_f − D_f,0|,
     in any run a consistent integrator makes (its error is O(h) of it); an unstable one
     (a step above the critical step, a penalty stiffness too large for h) multiplies E by
     the same factor every step, so it crosses any fixed multiple of the energy involved
     within a few steps, long before it overflows. The run stops when created exceeds
     -mb_blowup_factor (default 1000) times involved.
   The baseline is taken at the first step of each RUN and after a CALLBACK (the deck may
   change velocities, configurations or materials there: that energy is given, not made). */
#include "domainimpl.h"

PetscErrorCode MbDomainSetBlowupFactor(MbDomain d, PetscReal factor)
{
  PetscFunctionBegin;
  PetscCheck(factor >= 0 && PetscIsNormalReal(factor + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "the blow-up factor must be >= 0 (0: no check), got %g", (double)factor);
  d->blowup = factor;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainEnergyRebase(MbDomain d)
{
  PetscFunctionBegin;
  d->ebase = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The owned body with the largest kinetic + strain energy, over all ranks. Collective. */
static PetscErrorCode LargestEnergy(MbDomain d, PetscInt *id, PetscReal *energy)
{
  struct {
    double e;
    int    id;
  } loc = {-1.0, -1}, glob;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    PetscReal ek, es;
    PetscCall(MbBodyKineticEnergy(d->body[i], &ek));
    PetscCall(MbBodyStrainEnergy(d->body[i], &es));
    if (ek + es > loc.e) {
      PetscInt bid;
      PetscCall(MbBodyGetId(d->body[i], &bid));
      loc.e  = (double)(ek + es);
      loc.id = (int)bid;
    }
  }
  PetscCallMPI(MPI_Allreduce(&loc, &glob, 1, MPI_DOUBLE_INT, MPI_MAXLOC, d->comm));
  *id     = glob.id;
  *energy = (PetscReal)glob.e;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The step's record is dropped and the frames so far reach the disk before the error. */
static PetscErrorCode Abandon(MbDomain d)
{
  PetscFunctionBegin;
  d->nhist--;
  if (d->run.flush_fn) PetscCall(d->run.flush_fn(d, d->run.flush_ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainBlowupCheck(MbDomain d, PetscBool nonfinite, PetscInt bad, const MbEnergy *e)
{
  PetscReal E, created, involved, w[3];
  PetscFunctionBegin;
  if (nonfinite) {
    PetscInt gbad, b = bad >= 0 ? bad : PETSC_MAX_INT;
    PetscCallMPI(MPI_Allreduce(&b, &gbad, 1, MPIU_INT, MPI_MIN, d->comm));
    PetscCall(Abandon(d));
    SETERRQ(d->comm, PETSC_ERR_FP,
            "the state of body %" PetscInt_FMT " is not finite after step %" PetscInt_FMT " (t = %g, h = %g): the run has blown up (a step above the critical step, or a load or stiffness too large for it?); stopped before writing it", gbad,
            d->nsteps, (double)d->t, (double)d->h);
  }
  E    = e->kinetic + e->internal;
  w[0] = e->external;
  w[1] = e->contact;
  w[2] = -e->friction; /* dissipation: work taken out */
  if (d->ebase) {
    d->ebase   = PETSC_FALSE;
    d->ebal[0] = E;
    for (int k = 0; k < 3; k++) d->ebal[1 + k] = w[k];
    d->ebal[4] = d->t;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  created  = E - d->ebal[0];
  involved = PetscAbsReal(d->ebal[0]);
  for (int k = 0; k < 3; k++) {
    created -= w[k] - d->ebal[1 + k];
    involved += PetscAbsReal(w[k] - d->ebal[1 + k]);
  }
  if (d->blowup > 0 && created > d->blowup * involved && involved > 0) {
    PetscInt  id = -1;
    PetscReal eb = 0;
    PetscCall(LargestEnergy(d, &id, &eb));
    PetscCall(Abandon(d));
    {
      const double v[] = {E, e->kinetic, e->internal, created, d->ebal[4], d->blowup, involved, eb, d->t, d->h};
      char         g[10][32];
      for (int k = 0; k < 10; k++) snprintf(g[k], sizeof(g[k]), "%g", v[k]); /* PETSc's %g prints 1000 as "1000." */
      SETERRQ(d->comm, PETSC_ERR_FP,
              "the run has blown up at step %" PetscInt_FMT
              " (t = %s, h = %s): the bodies' energy is %s (kinetic %s, internal %s), and %s of it was made from nothing since t = %s, over %s times the %s the forces and the start gave (body %" PetscInt_FMT
              " holds the most, %s): a step above the critical step, or a contact or spring stiffness too large for it? Stopped before writing it (-mb_blowup_factor sets the factor; 0: no check)",
              d->nsteps, g[8], g[9], g[0], g[1], g[2], g[3], g[4], g[5], g[6], id, g[7]);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
