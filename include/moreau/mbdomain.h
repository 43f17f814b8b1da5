/* moreau — the domain: the bodies this rank owns, gravity, the step loop, energies,
   history and monitors. Body ids are global and given out in creation order on every
   rank; the owner of body id is rank id mod size (ARCHITECTURE.md, parallel design). */
#ifndef MOREAU_MBDOMAIN_H
#define MOREAU_MBDOMAIN_H

#include <moreau/mbscheme.h>
#include <moreau/mblog.h>

typedef struct _p_MbDomain *MbDomain;

/** Global energies (summed over ranks), as in Solfec's ENERGY. */
typedef struct {
  PetscReal kinetic;  /* ½uᵀMu */
  PetscReal internal; /* strain energy (deformable bodies) */
  PetscReal external; /* work of external forces (gravity included) */
  PetscReal contact;  /* work of contact forces */
  PetscReal friction; /* friction dissipation */
} MbEnergy;

/** One record of /history per step; every field is global. */
typedef struct {
  PetscReal time;       /* t after the step */
  PetscReal step;       /* h of the step */
  MbEnergy  energy;     /* energies after the step */
  PetscInt  iterations; /* constraint solver iterations */
  PetscReal error;      /* constraint solver error */
  PetscInt  contacts;   /* number of constraints solved */
  PetscReal curvature;  /* displacement curvature (adaptive stepping), 0 when unused */
  PetscReal walltime;   /* seconds since the run began */
} MbHistory;

/** A monitor, called every `interval` of simulated time (and at the start of each run);
    set *stop to end the run after this step. */
typedef PetscErrorCode (*MbMonitorFn)(MbDomain dom, void *ctx, PetscBool *stop);

/** Create an empty domain. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainCreate(MPI_Comm comm, MbDomain *dom);
PETSC_EXTERN PetscErrorCode MbDomainDestroy(MbDomain *dom);
/** Read -mb_scheme (default scheme of new rigid bodies), -mb_quiet, -mb_progress. */
PETSC_EXTERN PetscErrorCode MbDomainSetFromOptions(MbDomain dom);
PETSC_EXTERN PetscErrorCode MbDomainGetComm(MbDomain dom, MPI_Comm *comm);
/** Time step h > 0. */
PETSC_EXTERN PetscErrorCode MbDomainSetStep(MbDomain dom, PetscReal h);
PETSC_EXTERN PetscErrorCode MbDomainGetStep(MbDomain dom, PetscReal *h);
PETSC_EXTERN PetscErrorCode MbDomainSetGravity(MbDomain dom, const PetscReal g[3]);
PETSC_EXTERN PetscErrorCode MbDomainGetTime(MbDomain dom, PetscReal *t);
PETSC_EXTERN PetscErrorCode MbDomainGetStepCount(MbDomain dom, PetscInt *n);
/** Print progress (rank 0, about once a second) or not. */
PETSC_EXTERN PetscErrorCode MbDomainSetVerbose(MbDomain dom, PetscBool verbose);
/** The domain's shared scheme of this name (created on first use). Errors on an unknown name. */
PETSC_EXTERN PetscErrorCode MbDomainGetScheme(MbDomain dom, const char name[], MbScheme *scheme);
/** Next global body id. Every rank must call it for every body, in the same order. */
PETSC_EXTERN PetscErrorCode MbDomainNextBodyId(MbDomain dom, PetscInt *id);
/** Total number of bodies created so far (all ranks). */
PETSC_EXTERN PetscErrorCode MbDomainGetGlobalBodyCount(MbDomain dom, PetscInt *n);
/** Rank that owns body id. */
PETSC_EXTERN PetscErrorCode MbDomainOwnerRank(MbDomain dom, PetscInt id, PetscMPIInt *rank);
/** Hand a body to the domain (it takes ownership); its id must be owned by this rank.
    A rigid body with no scheme gets the domain's default (RIG_NEG unless -mb_scheme). */
PETSC_EXTERN PetscErrorCode MbDomainAddBody(MbDomain dom, MbBody body);
/** This rank's bodies, sorted by id (borrowed). */
PETSC_EXTERN PetscErrorCode MbDomainGetBodies(MbDomain dom, PetscInt *n, MbBody **bodies);
/** The local body with this id, or NULL when this rank does not own it. */
PETSC_EXTERN PetscErrorCode MbDomainFindBody(MbDomain dom, PetscInt id, MbBody *body);
/** Add a monitor; destroy(ctx) is called when the domain goes. */
PETSC_EXTERN PetscErrorCode MbDomainAddMonitor(MbDomain dom, PetscReal interval, MbMonitorFn fn, void *ctx, PetscErrorCode (*destroy)(void *));
/** One step of size h. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainStep(MbDomain dom);
/** Step until the time has advanced by duration (or a monitor stops it). Collective. */
PETSC_EXTERN PetscErrorCode MbDomainRun(MbDomain dom, PetscReal duration);
/** Global energies now. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetEnergy(MbDomain dom, MbEnergy *e);
/** Energies of the local body id (zeros where not owned). Not collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetBodyEnergy(MbDomain dom, PetscInt id, MbEnergy *e);
/** History recorded so far, one record per step (borrowed). Identical on every rank. */
PETSC_EXTERN PetscErrorCode MbDomainGetHistory(MbDomain dom, PetscInt *n, const MbHistory **h);
/** Wall time spent in each phase (MbPhase) so far, maximum over ranks. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetPhaseTimes(MbDomain dom, PetscLogDouble t[MB_PHASE_COUNT]);
/** Print the end-of-run summary (steps, wall time, time per phase) on rank 0. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainSummary(MbDomain dom);

#endif
