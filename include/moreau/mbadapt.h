/* moreau — step-size controllers (ARCHITECTURE.md adapt/), registered by name (PETSc
   style) and chosen with MbAdaptSetType, the deck's TIME_ADAPT or -mb_adapt_type.

   After every step the domain hands the controller the global dot products of the step
   (MbAdaptData: one MPI_Allreduce over all ranks, so every rank decides alike) and the
   controller answers with the next step and an action: go on, accept everything so far
   (the domain may then forget its saved state), or reject back to the last accepted state
   and redo from there with the step it proposes. Only controllers that say so in
   MbAdaptUsesCheckpoints ever reject (CURVATURE and LOCAL_ERROR with reject on). */
#ifndef MOREAU_MBADAPT_H
#define MOREAU_MBADAPT_H

#include <moreau/mbsys.h>
#include <petscviewer.h>

typedef struct _p_MbAdapt *MbAdapt;

#define MBADAPTFIXED "FIXED"             /* the deck's step, always */
#define MBADAPTCURVATURE "CURVATURE"     /* Lages et al. 2010 (seed 004), eqs. (5), (7), (10) */
#define MBADAPTTRUNC "TRUNCATION"        /* seed 002, (2-183)-(2-184): h³/6 ‖d⃛‖ <= tol */
#define MBADAPTLOCALERR "LOCAL_ERROR"    /* Zienkiewicz and Xie 1991 */
#define MBADAPTFREQ "APPARENT_FREQUENCY" /* Park and Underwood 1980 */

/** What the domain measured over the step that ended at time t (all sums global). The
    velocity is u (every degree of freedom of every body with a scheme), the acceleration
    a = (u(t) − u(t−h))/h, the acceleration jump Δa = a − a_prev between this step and the
    one before, and d the displacement of the mass centres from their reference places. */
typedef struct {
  PetscReal t;             /* time after the step */
  PetscReal h;             /* the step just taken */
  PetscReal hprev;         /* the step before it (0 on the first step of a run) */
  PetscReal vv;            /* ḋ·ḋ at t (eq. (5) of seed 004) */
  PetscReal aa;            /* d̈·d̈ */
  PetscReal va;            /* ḋ·d̈ */
  PetscReal dada;          /* Δa·Δa (0 when hprev = 0) */
  PetscReal u0u0;          /* ḋ·ḋ at t − h */
  PetscReal dd;            /* d·d */
  PetscReal vvL, aaL, vaL; /* the parts of vv, aa, va from velocities of points (lengths per
                              time), which a length scale divides (CURVATURE's length) */
} MbAdaptData;

typedef enum {
  MB_ADAPT_CONTINUE = 0, /* take the next step */
  MB_ADAPT_ACCEPT   = 1, /* the steps since the last accept are final: save the state here */
  MB_ADAPT_REJECT   = 2  /* go back to the last accepted state and redo with the new step */
} MbAdaptAction;

/** Register a controller by name. Not collective. */
PETSC_EXTERN PetscErrorCode MbAdaptRegister(const char name[], PetscErrorCode (*create)(MbAdapt));
/** Create a controller of type FIXED. Collective on comm (only to agree on messages). */
PETSC_EXTERN PetscErrorCode MbAdaptCreate(MPI_Comm comm, MbAdapt *adapt);
PETSC_EXTERN PetscErrorCode MbAdaptDestroy(MbAdapt *adapt);
/** Set the type by registered name; errors naming the unknown name and listing the known. */
PETSC_EXTERN PetscErrorCode MbAdaptSetType(MbAdapt adapt, const char type[]);
PETSC_EXTERN PetscErrorCode MbAdaptGetType(MbAdapt adapt, const char **type);
/** Step limits: 0 <= dtmin <= dtmax; 0 leaves one to MbAdaptStart (dtmax: the first step; dtmin: a hundredth of it). */
PETSC_EXTERN PetscErrorCode MbAdaptSetStepLimits(MbAdapt adapt, PetscReal dtmin, PetscReal dtmax);
PETSC_EXTERN PetscErrorCode MbAdaptGetStepLimits(MbAdapt adapt, PetscReal *dtmin, PetscReal *dtmax);
/** Set one of the type's parameters by name (the deck's TIME_ADAPT keywords; a yes/no
    switch takes 0 or 1). Set the type first: a name the type does not have is an error
    listing the ones it has, a value out of range an error naming the range.
    CURVATURE (seed 004): b > 0 of eq. (7) (1), zeta > 0 (regularization interval ζ Δt_max,
      section 3; 1), alpha in [0, 1) of eq. (10) (0.5, the paper's), reject (0: redo an
      interval whose regularized curvature grew), reject_tol in [0, 1) (0.01: reject only
      when the redo's step is shorter than the interval's largest by more than this
      fraction; 0 is the paper's rule as written), length > 0 (1: points' displacements
      enter eq. (5) as d/L), unit_free (0: 1 measures time in units of Δt_max too, so that k
      and b are pure numbers);
    TRUNCATION: tol > 0, the local truncation error allowed (length units; 1e-3);
    LOCAL_ERROR: tol > 0, the relative error η aimed at (Zienkiewicz–Xie; 1e-3), reject (0:
      redo a step with η > tol);
    APPARENT_FREQUENCY: ratio in (0, 1], the step as a fraction of 2/ω (0.8). */
PETSC_EXTERN PetscErrorCode MbAdaptSetParameter(MbAdapt adapt, const char name[], PetscReal value);
/** Set one of the type's parameters from text, as a deck gives it: a yes/no switch takes
    "ON" or "OFF"; a name the type does not have, a switch given other text and a number
    given text are errors naming the parameter (and, for an unknown name, listing the type's). */
PETSC_EXTERN PetscErrorCode MbAdaptSetParameterString(MbAdapt adapt, const char name[], const char value[]);
/** The value of one of the type's parameters. */
PETSC_EXTERN PetscErrorCode MbAdaptGetParameter(MbAdapt adapt, const char name[], PetscReal *value);
/** Read -mb_adapt_type, -mb_adapt_dtmin, -mb_adapt_dtmax and the type's parameters as
    -mb_adapt_<name> (MbAdaptSetParameter). Collective. */
PETSC_EXTERN PetscErrorCode MbAdaptSetFromOptions(MbAdapt adapt);
/** Whether the controller may reject (the domain must keep the last accepted state). */
PETSC_EXTERN PetscErrorCode MbAdaptUsesCheckpoints(MbAdapt adapt, PetscBool *flg);
/** A run begins at time t with the deck's step h0: *h gets the first step. Collective. */
PETSC_EXTERN PetscErrorCode MbAdaptStart(MbAdapt adapt, PetscReal t, PetscReal h0, PetscReal *h);
/** After a step: the next step and what to do. last: the run ends here (an interval that
    is open is closed now). Not collective: data is global, so every rank decides alike. */
PETSC_EXTERN PetscErrorCode MbAdaptPost(MbAdapt adapt, const MbAdaptData *data, PetscBool last, MbAdaptAction *action, PetscReal *h);
/** The curvature k of eq. (5) of the last step, and the controller's own indicator
    (CURVATURE: the regularized k_m of eq. (10); TRUNCATION: the error estimate;
    LOCAL_ERROR: η; APPARENT_FREQUENCY: ω; FIXED: 0). */
PETSC_EXTERN PetscErrorCode MbAdaptGetIndicators(MbAdapt adapt, PetscReal *curvature, PetscReal *estimate);
/** Intervals rejected and steps discarded with them, since creation. */
PETSC_EXTERN PetscErrorCode MbAdaptGetStats(MbAdapt adapt, PetscInt *rejections, PetscInt *discarded);
/** Print the type and its parameters. Collective. */
PETSC_EXTERN PetscErrorCode MbAdaptView(MbAdapt adapt, PetscViewer viewer);
/** The controller's whole state as bytes (to PetscFree), for a checkpoint; and back. */
PETSC_EXTERN PetscErrorCode MbAdaptGetState(MbAdapt adapt, size_t *n, char **bytes);
PETSC_EXTERN PetscErrorCode MbAdaptSetState(MbAdapt adapt, size_t n, const char bytes[]);
/** The curvature of eq. (5) of seed 004 from the three dot products. */
PETSC_EXTERN PetscReal MbAdaptCurvature(PetscReal vv, PetscReal aa, PetscReal va);

#endif
