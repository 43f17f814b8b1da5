/* moreau — the domain: the bodies this rank owns, gravity, the step loop, energies,
   history and monitors. Body ids are global and given out in creation order on every
   rank; a body starts on rank id mod size and may migrate when METIS repartitions
   (ARCHITECTURE.md, parallel design). */
#ifndef MOREAU_MBDOMAIN_H
#define MOREAU_MBDOMAIN_H

#include <moreau/mbscheme.h>
#include <moreau/mblog.h>
#include <moreau/mbsolver.h>
#include <moreau/mbadapt.h>
#include <moreau/mbcontactmodel.h>

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
  PetscReal curvature;  /* displacement curvature, eq. (5) of seed 004 (0 without TIME_ADAPT) */
  PetscReal estimate;   /* the step-size controller's indicator (MbAdaptGetIndicators), 0 without */
  PetscInt  rejected;   /* steps discarded by step rejections so far */
  PetscReal walltime;   /* seconds since the run began */
} MbHistory;

/** A monitor, called every `interval` of simulated time (and at the start of each run);
    set *stop to end the run after this step. */
typedef PetscErrorCode (*MbMonitorFn)(MbDomain dom, void *ctx, PetscBool *stop);
/** Whether a monitor would act at time t after a step h (for monitors added with interval 0
    that keep their own clock); lets adaptive runs skip replaying intervals no one watches. */
typedef PetscErrorCode (*MbMonitorDueFn)(void *ctx, PetscReal t, PetscReal h, PetscBool *due);

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
/** Make the analysis QUASI_STATIC (Solfec-1.0's SOLFEC('QUASI_STATIC')): every movable body, those
    added before and after, takes the first of RIG_STATIC and DEF_STATIC that applies to its kind,
    and keeps it (MbDomainIsQuasiStatic: a deck's scheme= is then ignored, as in Solfec). Collective. */
PETSC_EXTERN PetscErrorCode MbDomainSetQuasiStatic(MbDomain dom);
/** Whether the analysis is QUASI_STATIC. Not collective. */
PETSC_EXTERN PetscErrorCode MbDomainIsQuasiStatic(MbDomain dom, PetscBool *quasi_static);
/** Next global body id. Every rank must call it for every body, in the same order. */
PETSC_EXTERN PetscErrorCode MbDomainNextBodyId(MbDomain dom, PetscInt *id);
/** Total number of bodies created so far (all ranks). */
PETSC_EXTERN PetscErrorCode MbDomainGetGlobalBodyCount(MbDomain dom, PetscInt *n);
/** Rank that owns body id now. */
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
/** Give the monitor (fn, ctx) a due query (see MbMonitorDueFn). Not collective. */
PETSC_EXTERN PetscErrorCode MbDomainSetMonitorDue(MbDomain dom, MbMonitorFn fn, void *ctx, MbMonitorDueFn due);
/** The time of the monitor (fn, ctx)'s first call (by default the time it was added, so that
    the start of the next run calls it). Not collective. */
PETSC_EXTERN PetscErrorCode MbDomainSetMonitorStart(MbDomain dom, MbMonitorFn fn, void *ctx, PetscReal t);
/** The domain's step-size controller, created (type FIXED) on the first call: from then on
    every step measures the curvature (eq. (5) of seed 004) into /history and MbDomainRun
    lets the controller choose the steps (MbAdaptSetType, ..., see mbadapt.h). Collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetAdapt(MbDomain dom, MbAdapt *adapt);
/** One step of size h. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainStep(MbDomain dom);
/** Step until the time has advanced by duration (or a monitor stops it). Collective. */
PETSC_EXTERN PetscErrorCode MbDomainRun(MbDomain dom, PetscReal duration);
/** The state was changed outside a step (a deck's CALLBACK): the blow-up watch's energy
    balance starts again from the next step (RUN does this itself). Not collective, but
    call it on every rank. */
PETSC_EXTERN PetscErrorCode MbDomainEnergyRebase(MbDomain dom);
/** A run stops (on every rank, with an error naming the step and the body) when the energy
    its bodies made from nothing exceeds factor times the energy the start and the forces
    gave (src/domain/blowup.c; default 1000, 0: no check; -mb_blowup_factor). Collective. */
PETSC_EXTERN PetscErrorCode MbDomainSetBlowupFactor(MbDomain dom, PetscReal factor);
/** Global energies now. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetEnergy(MbDomain dom, MbEnergy *e);
/** Energies of the local body id (zeros where not owned). Not collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetBodyEnergy(MbDomain dom, PetscInt id, MbEnergy *e);
/** History recorded so far, one record per step (borrowed). Identical on every rank. */
PETSC_EXTERN PetscErrorCode MbDomainGetHistory(MbDomain dom, PetscInt *n, const MbHistory **h);
/** Wall time spent in each phase (MbPhase) so far, maximum over ranks. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetPhaseTimes(MbDomain dom, PetscLogDouble t[MB_PHASE_COUNT]);
/** Surface material for the pair of surface ids (surf1, surf2); both −1 makes it the
    default for pairs without their own. model 0: SIGNORINI_COULOMB, 1: SPRING_DASHPOT.
    Checks friction >= 0, cohesion >= 0, restitution in [0, 1], spring >= 0, dashpot finite;
    dashpot < 0 asks for critical damping of each spring_dashpot contact (Solfec-1.0). */
PETSC_EXTERN PetscErrorCode MbDomainAddSurfaceMaterial(MbDomain dom, PetscInt surf1, PetscInt surf2, PetscInt model, PetscReal friction, PetscReal cohesion, PetscReal restitution, PetscReal spring, PetscReal dashpot, PetscReal hpow);
/** GEOMETRIC_EPSILON: contacts are kept while their gap is below it; also the tolerance
    of the narrow phase (default 1e-6, in model length units). */
PETSC_EXTERN PetscErrorCode MbDomainSetGeometricEpsilon(MbDomain dom, PetscReal eps);
/** CONTACT_SPARSIFY (Solfec-1.0's, src/domain/sparsify.c): among the contacts of two bodies,
    drop those of area below minarea, those of area below threshold (in [0, 1]) times that of
    a contact on the same or an adjacent primitive of the master body, and one of two points
    within 2·mindist (mindist < 0: GEOMETRIC_EPSILON). Default (0.01, 0, −1), as Solfec;
    (0, 0, 0) keeps every point. Not collective; every rank sets it alike. */
PETSC_EXTERN PetscErrorCode MbDomainSetSparsify(MbDomain dom, PetscReal threshold, PetscReal minarea, PetscReal mindist);
/** Joint kinds, as Solfec-1.0's deck commands. */
typedef enum { MB_JOINT_FIX_POINT = 1, MB_JOINT_FIX_DIRECTION = 2, MB_JOINT_SET_VELOCITY = 3, MB_JOINT_RIGID_LINK = 4 } MbJointKind;
/** Add a joint (collective: every rank calls it alike). body2 = −1 is the ground. Points
    and direction are spatial, now; SET_VELOCITY's value is a constant, or ts, or fn(ctx,
    t, &v) (destroy(ctx) at the end). Errors: unknown body, an obstacle-only joint, a zero
    direction; a zero-length rigid link is caught when the run starts. *index (may be NULL)
    is the joint's number. */
PETSC_EXTERN PetscErrorCode MbDomainAddJoint(MbDomain dom, MbJointKind kind, PetscInt body1, PetscInt body2, const PetscReal p1[3], const PetscReal p2[3], const PetscReal dir[3], PetscReal value, MbTimeSeries ts,
                                             PetscErrorCode (*fn)(void *, PetscReal, PetscReal *), void *ctx, PetscErrorCode (*destroy)(void *), PetscInt *index);
/** Remove joint index (Solfec-1.0's DELETE of a CONSTRAINT): from the next step on it makes
    no rows; the other joints keep their indices; removing it again does nothing. Every rank
    calls it alike. Errors: an index that is no joint's. */
PETSC_EXTERN PetscErrorCode MbDomainRemoveJoint(MbDomain dom, PetscInt index);
/** Remove body id (Solfec-1.0's DELETE of a BODY) with its joints, before the first run: it is
    written to no output, takes part in no contact, and its id is not given again. Every
    rank calls it alike. Errors: an id that is no body's or was deleted, a run begun already,
    a body with springs. */
PETSC_EXTERN PetscErrorCode MbDomainRemoveBody(MbDomain dom, PetscInt id);
/** Add a spring (PUT_SPRING; collective: every rank calls it alike). body2 = −1: p2 is fixed
    in space. Points are spatial now (resolved when the run starts). dir (may be NULL) fixes
    the direction of the force; otherwise it acts along the line p2 → p1. Force on body1
    F·n with F = −k·s − c·ṡ, or fn(ctx, s, ṡ, &F) when fn is given (k = c = 0 then), s the
    stroke (length minus the rest length: rest, or the length at the first step when rest
    is NaN) and ṡ its rate. lo, hi are the limits of the stroke, hard stops as in Solfec-1.0
    (±PETSC_INFINITY or ±inf: none): the RIG_* schemes keep lo <= s <= hi by a unilateral
    row of the constraint solver near each limit (frictionless, restitution 0); the force
    schemes refuse a spring with a finite limit.
    Errors: unknown body, k < 0, c < 0, lo > hi, zero direction. *index may be NULL. */
PETSC_EXTERN PetscErrorCode MbDomainAddSpring(MbDomain dom, PetscInt body1, PetscInt body2, const PetscReal p1[3], const PetscReal p2[3], const PetscReal dir[3], PetscReal rest, PetscReal k, PetscReal c, PetscReal lo, PetscReal hi,
                                              PetscErrorCode (*fn)(void *, PetscReal, PetscReal, PetscReal *), void *ctx, PetscErrorCode (*destroy)(void *), PetscInt *index);
/** moreau's active range of spring index (PUT_SPRING's active=): the force is zero while the
    stroke lies outside [lo, hi] (lo = −∞, hi = 0: a spring that pushes and never pulls).
    Not a stop. Errors: unknown index, lo > hi. Not collective (every rank calls it alike). */
PETSC_EXTERN PetscErrorCode MbDomainSetSpringActive(MbDomain dom, PetscInt index, PetscReal lo, PetscReal hi);
/** Evaluate every force at the bodies' current q, u and time t (h for callbacks) into each
    owned body's generalized force: gravity, loads, springs and PENALTY_SOLVER contacts
    (detected at the current placement). Used by the force schemes. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainEvalForces(MbDomain dom, PetscReal t, PetscReal h);
/** An estimate of the explicit schemes' critical step 2/ω_max (CDM's stability limit), with
    ω² = k(1/m₁ + 1/m₂) over the linear springs and over the SPRING_DASHPOT materials
    (penalty contacts) between the two lightest bodies (k/m of the lightest when only one
    body moves). Translational masses only,
    dashpots ignored; PETSC_INFINITY without either. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainCriticalStep(MbDomain dom, PetscReal *hcrit);
/** The smallest critical step (MbBodyCriticalStep) of the bodies whose scheme is stable only
    below it (DEF_EXP), and that body's id; PETSC_MAX_REAL and −1 when there is none.
    Collective. */
PETSC_EXTERN PetscErrorCode MbDomainBodyCriticalStep(MbDomain dom, PetscReal *hcrit, PetscInt *id);

/** The domain's constraint solver (type, tolerances: MbSolverSetType, ...). */
PETSC_EXTERN PetscErrorCode MbDomainGetSolver(MbDomain dom, MbSolver *solver);
/** What a constraint solve that did not converge does (Solfec's failure= of the solvers). */
typedef enum {
  MB_FAILURE_CONTINUE = 0, /* counted, the run goes on */
  MB_FAILURE_EXIT     = 1, /* an error that stops the run */
  MB_FAILURE_CALLBACK = 2  /* fn(dom, ctx) is called; it may return an error to stop */
} MbFailurePolicy;
/** Set the policy for constraint solves that do not converge (fn, ctx: MB_FAILURE_CALLBACK's). */
PETSC_EXTERN PetscErrorCode MbDomainSetSolverFailure(MbDomain dom, MbFailurePolicy policy, PetscErrorCode (*fn)(MbDomain, void *), void *ctx);
/** The domain's contact model: rows of W for the solver (default) or spring-dashpot forces
    (PENALTY_SOLVER: MbContactModelSetType(model, MBCONTACTPENALTY); joints are still
    solved by the domain's solver). */
PETSC_EXTERN PetscErrorCode MbDomainGetContactModel(MbDomain dom, MbContactModel *model);
/** What CONTACT_EXCLUDE_* leaves out: a pair of bodies (ids) or of surface ids. */
typedef enum { MB_EXCLUDE_BODIES, MB_EXCLUDE_SURFACES } MbExclude;
/** No contacts between bodies a and b (MB_EXCLUDE_BODIES), or between surfaces a and b
    (MB_EXCLUDE_SURFACES), from the next step's detection on (Solfec-1.0's
    CONTACT_EXCLUDE_BODIES and CONTACT_EXCLUDE_SURFACES). Joints are not affected.
    Collective in effect: give the same pairs on every rank. */
PETSC_EXTERN PetscErrorCode MbDomainExcludeContact(MbDomain dom, MbExclude kind, PetscInt a, PetscInt b);
/** Whether body id's primitives make contacts with each other (on) from the next step's
    detection on (Solfec-1.0's BODY.selfcontact): pairs of its primitives that share no node
    of its mesh (or, without a mesh, no vertex) are tested as pairs of two bodies are, and a
    contact point between them is a row whose master and slave are the same body. Off by
    default. Collective in effect: give the same on every rank. */
PETSC_EXTERN PetscErrorCode MbDomainSetSelfContact(MbDomain dom, PetscInt id, PetscBool on);
/** One constraint as output sees it. */
typedef struct {
  PetscInt  kind;      /* 0 contact, 1 FIXPNT, 2 FIXDIR, 3 VELODIR, 4 RIGLNK, 5 SPRING (a stop of PUT_SPRING's limits) */
  PetscInt  body[2];   /* master, slave (−1: none) */
  PetscReal point[3];  /* spatial point */
  PetscReal normal[3]; /* spatial normal (third axis of the local frame) */
  PetscReal force[3];  /* spatial reaction on the master, base·R */
  PetscReal gap;
  PetscReal base[9];   /* the local frame's axes t1, t2, n one after the other (Solfec's CONSTRAINT.base) */
  PetscReal R[3];      /* the reaction in that frame (CONSTRAINT.R) */
  PetscReal U[3];      /* the relative velocity at the end of the step, in that frame (CONSTRAINT.U) */
  PetscReal V[3];      /* ... and at its start (CONSTRAINT.V) */
  PetscInt  joint;     /* the joint's index (MbDomainAddJoint), −1 for a contact or a spring's stop */
  PetscReal point2[3]; /* a rigid link's second point (Solfec's CONSTRAINT.point gives both), spatial */
} MbConstraintInfo;
/** This rank's constraints of the last step (owned rows only), copied into a new array
    (PetscFree it). Not collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetConstraints(MbDomain dom, PetscInt *n, MbConstraintInfo **info);
/** Joint index as Solfec-1.0's CONSTRAINT object shows it (lng.c's CONSTRAINT members): its row
    of the last step where this rank owns it (*found true; point, base, R, U, V, gap; a rigid
    link's second point in point2 where its body is held here); before the first step, on
    every rank, the deck's point, its frame (FIX_POINT: the identity; a direction: that
    normal) and zero reaction and velocities; otherwise, and for a removed joint, *found
    false (Solfec gives None). Not collective. */
PETSC_EXTERN PetscErrorCode MbDomainGetJoint(MbDomain dom, PetscInt index, MbConstraintInfo *info, PetscBool *found);

/** IMBALANCE_TOLERANCE (Solfec): every freq steps the load imbalance (max over ranks of the
    owned bodies' cost — 1 + their constraints — over the mean) is measured, and above tol
    the bodies are repartitioned by METIS and migrate. freq 0 turns it off. Defaults 1.3, 10
    (options -mb_imbalance_tolerance, -mb_balance_freq, -mb_balance metis|none). */
PETSC_EXTERN PetscErrorCode MbDomainSetImbalanceTolerance(MbDomain dom, PetscReal tol, PetscInt freq);
/** Partition statistics: repartitions, bodies migrated, METIS edge cut, last imbalance. */
PETSC_EXTERN PetscErrorCode MbDomainGetBalanceStats(MbDomain dom, PetscInt *nrepart, PetscInt *nmigrated, PetscInt *edgecut, PetscReal *imbalance);
/** A callback by reference: register (fn, ctx) on EVERY rank in the same order (the deck
    does), so that *ref names it everywhere and a body's callback load can migrate.
    destroy(ctx) is called when the domain goes. Not collective. */
PETSC_EXTERN PetscErrorCode MbDomainAddCallback(MbDomain dom, MbLoadCallback fn, void *ctx, PetscErrorCode (*destroy)(void *), PetscInt *ref);
/** Give the owned body id a load by callback ref (MbDomainAddCallback). */
PETSC_EXTERN PetscErrorCode MbDomainAddLoadCallback(MbDomain dom, PetscInt id, PetscInt ref);

/** Print the end-of-run summary (steps, wall time, time per phase) on rank 0. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainSummary(MbDomain dom);

/** One part of a checkpoint (src/domain/component.c names them): its bytes from this rank
    when written; read back, every writing rank's, one after another. */
typedef struct {
  char        name[32]; /* the part (MbOutput writes it to /state/<name>) */
  int         dist;     /* how the ranks' bytes combine: 0 rank 0's (the same on every rank), 1 each rank's own, 2 records that say whose they are */
  size_t      n;        /* bytes */
  char       *bytes;    /* */
  PetscInt64 *count;    /* read back: the bytes each writing rank gave (nranks) */
} MbCheckpointPart;

/** What a stopped run continues from (checkpoint.c; MbOutput writes it to DIR/<name>.chk,
    doc/output.md "Restart data"): the parts of the domain's state, and where the deck
    was. Read back on a restart, every rank holds every rank's parts and keeps its own. */
typedef struct {
  PetscInt          npart; /* the parts */
  MbCheckpointPart *part;
  PetscInt          nranks;       /* ranks that wrote it */
  PetscInt          run;          /* the RUN call it was taken in (0, 1, ...) */
  PetscBool         run_done;     /* at that RUN's end */
  PetscReal         run_end;      /* that RUN's end time */
  PetscReal         run_duration; /* its duration as the deck gave it */
  PetscReal         t;            /* time and steps taken */
  PetscInt          nsteps;
} MbCheckpoint;

/** Ask for checkpoints every `steps` steps, every `dt` of simulated time, every `wall`
    seconds of wall-clock time (0: not by that measure), and at the end of each RUN.
    Collective: the same values on every rank. */
PETSC_EXTERN PetscErrorCode MbDomainSetCheckpointInterval(MbDomain dom, PetscInt steps, PetscReal dt, PetscReal wall);
/** The function that writes a checkpoint (MbOutput sets it), called collectively at a state
    the run can continue from, and the one that makes the output so far readable, called
    collectively before the run stops on an error every rank sees (a blown-up state). */
PETSC_EXTERN PetscErrorCode MbDomainSetCheckpointer(MbDomain dom, PetscErrorCode (*fn)(MbDomain, void *), void *ctx, PetscErrorCode (*flush)(MbDomain, void *));
/** This rank's part of a checkpoint of the current state. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainCheckpointGet(MbDomain dom, MbCheckpoint *c);
/** Free what a checkpoint holds. */
PETSC_EXTERN PetscErrorCode MbDomainCheckpointFree(MbCheckpoint *c);
/** Continue from checkpoint c (taken over: freed by the domain): RUN calls before c->run do
    nothing, RUN call c->run restores the state and runs on to its end. */
PETSC_EXTERN PetscErrorCode MbDomainSetResume(MbDomain dom, MbCheckpoint *c);
/** The history records of a restarted run, read back from its file. */
PETSC_EXTERN PetscErrorCode MbDomainSetHistory(MbDomain dom, PetscInt n, const MbHistory h[]);
/** Set the time and the step count (READ mode: those of the frame read). */
PETSC_EXTERN PetscErrorCode MbDomainSetClock(MbDomain dom, PetscReal t, PetscInt nsteps);
/** The signal that stopped the last run after a checkpoint (0: none). */
PETSC_EXTERN PetscErrorCode MbDomainGetInterrupted(MbDomain dom, int *sig);
/** Solfec-1.0's LOCDYN_DUMP: the last step's local dynamics (each constraint's kind, point,
    bodies, frame, W blocks, B, V, U, R) as text into path, written by rank 0 in row order;
    an empty file before the first step. Collective. */
PETSC_EXTERN PetscErrorCode MbDomainLocDynDump(MbDomain dom, const char path[]);

#endif
