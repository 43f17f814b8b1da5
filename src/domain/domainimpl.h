/* Private layout of MbDomain. */
#ifndef MOREAU_DOMAINIMPL_H
#define MOREAU_DOMAINIMPL_H

#include <petscsnes.h>
#include <moreau/mbdomain.h>
#include <moreau/mbadapt.h>
#include <moreau/mblocdyn.h>
#include <moreau/mbcontactmodel.h>
#include "../constraint/conset.h"
#include "../core/exchange.h"
#include "../body/bodymap.h"

typedef struct {
  PetscReal   interval;              /* simulated time between calls */
  PetscReal   next;                  /* next time it is due */
  MbMonitorFn fn;                    /* the monitor */
  void       *ctx;                   /* its context */
  PetscErrorCode (*destroy)(void *); /* destroys ctx */
  MbMonitorDueFn due;                /* whether it would act at (t, h), or NULL: by interval */
} MbMonitor;

/* The ghosts (ghost.c): read-only copies of remote bodies near this rank's bodies. */
typedef struct {
  PetscInt       nghost, gcap;            /* ghosts and allocated room */
  MbBody        *ghost;                   /* the ghosts (no order) */
  PetscInt       gstamp;                  /* refresh counter (marks the ghosts seen) */
  PetscLogDouble gkey_bytes, gbody_bytes; /* sent by the ghost refreshes: cell keys, bodies (states and packed) */
  PetscInt     **sent;                    /* per rank: ids sent there by the last refresh, sorted */
  PetscInt      *nsent;
  MbBuf         *gsend, *grecv;      /* message buffers per rank, kept between refreshes */
  PetscReal      gskin;              /* skin, a fraction of the widest movable box (-mb_ghost_skin) */
  PetscReal      gskin_len;          /* the skin as a length, fixed at the last rebuild of the set */
  PetscReal     *gref;               /* per owned body at that rebuild: mass centre, extent */
  PetscInt       gsetkey[5];         /* nbody, nglobal, nmigrated, njoint, nspring at that rebuild (-1: none yet) */
  PetscInt       nrefresh, nrebuild; /* ghost refreshes, and those that rebuilt the set */
} MbGhosts;

/* The load balance (partition.c, migrate.c). */
typedef struct {
  PetscReal imbalance_tol;  /* repartition when max/mean load exceeds it */
  PetscInt  balance_freq;   /* check every this many steps (0: never) */
  PetscBool balance_metis;  /* partition with METIS (else keep id mod size) */
  PetscInt  nrepart;        /* repartitions so far */
  PetscInt  nmigrated;      /* bodies moved so far (all ranks) */
  PetscInt  edgecut;        /* METIS edge cut of the last partition */
  PetscReal imbalance;      /* load imbalance measured at the last check */
  PetscReal imbalance_part; /* the imbalance METIS's last partition gave, by the same weights */
  PetscBool hold_balance;   /* no migration now (an adaptive run keeps saved states) */
} MbBalance;

/* The implicit force schemes' Newton over the owned bodies' a(t+h) (forces.c). */
typedef struct {
  SNES      snes; /* implicit force schemes: Newton over the owned bodies' a(t+h) */
  Vec       snesx, snesr;
  PetscInt  snesn;   /* local size of snesx */
  MbScheme  fscheme; /* the implicit scheme of the Newton under way */
  PetscReal ft, fh;  /* its step: start time and size */
  PetscReal fascale; /* largest ‖a‖ met by that Newton (its absolute tolerance) */
} MbImplicit;

#define MB_PROGRESS_MAXCOL 10

/* Run control: the RUN calls, checkpoints (checkpoint.c), signals and the restart. */
typedef struct {
  PetscLogDouble run_start;                    /* wall clock at the first run */
  PetscBool      started;                      /* a run has begun */
  PetscErrorCode (*ckpt_fn)(MbDomain, void *); /* writes one (MbOutput) */
  void *ckpt_ctx;
  PetscErrorCode (*flush_fn)(MbDomain, void *); /* makes the output so far readable before a collective stop (MbOutput) */
  void          *flush_ctx;
  PetscInt       ckpt_steps;     /* every this many steps (0: not by steps) */
  PetscReal      ckpt_dt;        /* every this much simulated time (0: not by time) */
  PetscReal      ckpt_wall;      /* every this many wall-clock seconds (0: not by the clock) */
  PetscInt       ckpt_last_step; /* steps taken at the last checkpoint */
  PetscReal      ckpt_next_t;    /* time the next one is due by ckpt_dt */
  PetscLogDouble ckpt_last_wall; /* rank 0's clock at the last one (or the first run) */
  PetscBool      ckpt_walldue;   /* rank 0's clock says one is due (learnt in the step's reduction) */
  int            sig;            /* a rank received a signal (learnt in the step's reduction): 1 */
  int            interrupted;    /* the signal that stopped the last run (0: none) */
  PetscInt       sigstep;        /* -mb_signal_at_step: raise SIGTERM after this step (tests) */
  PetscInt       nrun;           /* RUN calls so far */
  PetscReal      run_end;        /* end time of the RUN under way */
  PetscReal      run_duration;   /* its duration as the deck gave it */
  PetscBool      run_done;       /* a checkpoint being written is at that RUN's end */
  MbCheckpoint  *resume;         /* a restart's checkpoint until its RUN call comes */
  PetscLogDouble miss_wall;      /* rank 0's clock at the last line about a missed tolerance */
  PetscInt       miss_unsaid;    /* steps that missed it since that line */
} MbRunControl;

struct _p_MbDomain {
  MPI_Comm       comm;                             /* all ranks of the run */
  PetscMPIInt    rank, size;                       /* this rank, number of ranks */
  PetscReal      h;                                /* time step */
  PetscReal      t;                                /* current time */
  PetscInt       nsteps;                           /* steps taken */
  PetscReal      g[3];                             /* gravity */
  PetscInt       nglobal;                          /* bodies created on all ranks (next id) */
  PetscInt       ndeleted;                         /* of them, deleted by DELETE (remove.c): ... */
  PetscInt      *deleted;                          /* ... their ids, whose owner-table slots no body fills */
  PetscInt       nbody, cap;                       /* local bodies and allocated room */
  MbBody        *body;                             /* local bodies, sorted by id */
  char           default_scheme[64];               /* scheme of new rigid bodies */
  PetscBool      quasi_static;                     /* QUASI_STATIC analysis: every body takes the static scheme of its kind */
  PetscInt       nscheme;                          /* schemes in use */
  MbScheme      *scheme;                           /* shared schemes, one per name */
  PetscInt       nmon;                             /* monitors */
  MbMonitor     *mon;                              /* monitors */
  PetscInt       nhist, hcap;                      /* history records and allocated room */
  MbHistory     *hist;                             /* one record per step */
  PetscBool      verbose;                          /* print progress */
  PetscLogDouble progress_dt;                      /* seconds between progress lines */
  int            progress_col[MB_PROGRESS_MAXCOL]; /* the physics columns of a progress line (progress.c) */
  PetscInt       nprogress_col;                    /* ... and their number */
  PetscLogDouble phase[MB_PHASE_COUNT];            /* wall time per phase, this rank */
  PetscReal      hcrit;                            /* smallest critical step of the DEF_EXP bodies when the run began ... */
  PetscInt       hcrit_body;                       /* ... and its body (−1: none) */
  PetscReal      hcrit_h;                          /* the step it was checked against (0: not yet) */
  PetscBool      keep_step;                        /* -mb_keep_step: a step above half the critical step is warned of, not lowered */
  MbBodyMap      map;                              /* owner, movable and the body by id, the same table on every rank (owner.c) */
  MbGhosts       gh;                               /* the ghosts (ghost.c) */
  MbBalance      bal;                              /* the load balance (partition.c, migrate.c) */
  MbRunControl   run;                              /* RUN calls, checkpoints, signals, restart (checkpoint.c, domain.c) */
  /* callbacks by reference (loads): the same index on every rank */
  PetscInt ncb;
  struct {
    MbLoadCallback fn;
    void          *ctx;
    PetscErrorCode (*destroy)(void *);
  } * cb;
  /* constraints (interact.c, detect.c) */
  PetscReal geps; /* GEOMETRIC_EPSILON: contact margin and geometric tolerance */
  struct {
    PetscReal threshold, minarea, mindist; /* CONTACT_SPARSIFY (sparsify.c); mindist < 0: geps */
  } spar;
  PetscInt  nexcl[2]; /* CONTACT_EXCLUDE_BODIES and _SURFACES (exclude.c): pairs ... */
  PetscInt *excl[2];  /* ... (low, high), sorted */
  PetscInt  nself;    /* bodies with self-contact on (BODY.selfcontact, exclude.c): ... */
  PetscInt *self;     /* ... their ids, sorted */
  MbConSet  cs;       /* the step's rows and force contacts, joints, surface materials, the contact model (src/constraint/) */
  /* local dynamics (locdyn.c) and solver */
  MbSolver        solver;                         /* the constraint solver */
  MbFailurePolicy failure;                        /* on a solve that does not converge */
  PetscErrorCode (*failure_fn)(MbDomain, void *); /* CALLBACK */
  void     *failure_ctx;
  MbLocDyn  ld;                /* W, B, R and their layout (src/locdyn/) */
  PetscReal work_contact;      /* work of normal reactions on this rank's rows */
  PetscReal work_friction;     /* friction dissipation on this rank's rows */
  PetscInt  solver_iterations; /* of the last step */
  PetscReal solver_error;
  PetscInt  solver_failures; /* steps whose solve missed the tolerance */
  /* springs and the force schemes (forces.c) */
  PetscInt   nspring; /* springs given by the deck, on every rank */
  MbSpring  *spring;
  PetscReal  epot;    /* potential of linear springs after the last step, this rank */
  PetscReal  espring; /* energy taken by dashpots and callback springs, this rank */
  MbImplicit imp;     /* the implicit force schemes' Newton (forces.c) */
  /* adaptive time stepping (adaptive.c, state.c) */
  MbAdapt    adapt;     /* step-size controller, or NULL: the fixed step h, nothing measured */
  PetscInt   nacc;      /* Σ nu over the local bodies with a scheme: length of ubuf, aprev */
  PetscReal *ubuf;      /* u at the start of the step being taken */
  PetscReal *aprev;     /* acceleration of the last step, per velocity entry */
  PetscReal  hprev;     /* the last step (0: none measured yet) */
  PetscInt   discarded; /* steps thrown away by rejections, so far */
  PetscReal  hnext;     /* the controller's next step (adaptive.c; a checkpoint keeps it) */
  PetscReal  blowup;    /* -mb_blowup_factor: energy made from nothing beyond this many times what was given stops the run (blowup.c) */
  PetscBool  ebase;     /* take the energy baseline at the next step (a RUN began, a CALLBACK ran) */
  PetscReal  ebal[5];   /* the baseline: E, W_ext, W_contact, −D_friction, its time */
  PetscInt   ncrack;    /* crack planes of all ranks' bodies at this RUN's start (crack.c): 0 skips the check */
};

/* remove.c: whether body id was deleted (DELETE) */
PETSC_INTERN PetscBool MbDomainBodyDeleted(MbDomain, PetscInt id);
/* progress.c: the progress line's physics columns (-mb_progress_columns) and the line */
PETSC_INTERN PetscErrorCode MbDomainProgressSetFromOptions(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainProgressPrint(MbDomain, double frac, double rate, const char eta[]);
/* owner.c: owner and kind of bodies created since the last call (collective) */
PETSC_INTERN PetscErrorCode MbDomainKnowBodies(MbDomain);
/* The body whose owner owns a constraint between b0 and b1: the lowest-numbered movable one (b0 when neither moves). */
PETSC_INTERN PetscInt       MbConOwnerBody(MbDomain, PetscInt b0, PetscInt b1);
PETSC_INTERN PetscErrorCode MbDomainOwnerDestroy(MbDomain);
/* partition.c, migrate.c: METIS partition of the body graph; bodies and the constraints
   they own to their new owners (collective) */
PETSC_INTERN PetscErrorCode MbDomainBalance(MbDomain, PetscBool force);
PETSC_INTERN PetscErrorCode MbDomainMaybeBalance(MbDomain); /* domain.c: when due */
/* METIS on the body graph, w[] the number of constraints on each owned body (its loads: BodyLoad in partition.c): the new owner of every body id */
PETSC_INTERN PetscErrorCode MbDomainPartition(MbDomain, const PetscInt w[], PetscMPIInt newowner[]);
PETSC_INTERN PetscErrorCode MbDomainMigrate(MbDomain, const PetscMPIInt newowner[]);
/* The parts of the domain's state (component.c): one list, read by step rejection
   (state.c) and by the checkpoint (checkpoint.c), so that what a step changes cannot be
   saved by one and forgotten by the other. Each part saves itself into a byte buffer and
   restores itself from one; how a checkpoint combines the ranks' buffers is its
   distribution. */
typedef enum {
  MB_PART_SHARED, /* the same on every rank (the clock): a checkpoint keeps rank 0's, a restart gives it to every rank */
  MB_PART_RANK,   /* each rank's own (energy accumulators): a restart on as many ranks gives each its own; on another count rank 0 gets every rank's (nrec of them), the others none */
  MB_PART_GATHER  /* records that say whose they are (a body id, a row's bodies, a joint's number): a restart gives every rank every rank's records and each keeps its own */
} MbPartDist;

typedef struct {
  const char *name;                                            /* its name in a checkpoint (/state/<name>) */
  MbPartDist  dist;                                            /* how a checkpoint combines the ranks' buffers */
  PetscBool   step;                                            /* a step rejection puts it back; else it is the run's bookkeeping, which a rejection keeps (the rejections counted, the controller, the next checkpoint's time) */
  PetscErrorCode (*save)(MbDomain, MbBuf *);                   /* append this rank's bytes */
  PetscErrorCode (*restore)(MbDomain, MbBuf *, PetscInt nrec); /* from nrec ranks' bytes (MB_PART_RANK; otherwise 1), all of them read */
} MbPart;

/* component.c: the parts, in the order they are restored */
PETSC_INTERN const MbPart   MbDomainParts[];
PETSC_INTERN const PetscInt MbDomainNParts;

/* A saved state of the domain at the start of an adaptive interval (state.c): the parts a
   step changes, one buffer each. */
typedef struct {
  PetscBool valid; /* something is saved */
  PetscInt  nbody; /* local bodies when saved (no migration in between) */
  MbBuf    *part;  /* MbDomainNParts buffers (those of step parts used) */
} MbState;

/* checkpoint.c: at a state the run can continue from (after a step, or an accepted
   interval of an adaptive run), write a checkpoint when one is due; *stop when a signal
   asked the run to end. end: the RUN's end. Collective. */
PETSC_INTERN PetscErrorCode MbDomainMaybeCheckpoint(MbDomain, PetscBool end, PetscBool *stop);
/* checkpoint.c: the RUN call about to start: whether to skip it (a restart before its
   checkpoint's RUN) or resume in it (state restored, *t_end its end); collective */
PETSC_INTERN PetscErrorCode MbDomainRunResume(MbDomain, PetscReal duration, PetscBool *skip, PetscBool *resumed, PetscReal *t_end);
/* adaptive.c: the per-velocity buffers of adaptive runs for the current bodies */
PETSC_INTERN PetscErrorCode MbDomainAdaptBuffers(MbDomain);
/* forces.c: the springs' part of the saved state: resolved points, rest lengths and last
   evaluation (every rank's copy, the accounting rank's kept) */
PETSC_INTERN PetscErrorCode MbDomainSaveSprings(MbDomain, MbBuf *);
PETSC_INTERN PetscErrorCode MbDomainRestoreSprings(MbDomain, MbBuf *, PetscInt nrec);

/* state.c */
PETSC_INTERN PetscErrorCode MbDomainStateSave(MbDomain, MbState *);
PETSC_INTERN PetscErrorCode MbDomainStateRestore(MbDomain, const MbState *);
PETSC_INTERN PetscErrorCode MbDomainStateDestroy(MbState *);
/* adaptive.c: MbDomainRun with a step-size controller; buffers freed by MbDomainAdaptDestroy */
PETSC_INTERN PetscErrorCode MbDomainRunAdaptive(MbDomain, PetscReal t_end, PetscBool resumed);
PETSC_INTERN PetscErrorCode MbDomainAdaptDestroy(MbDomain);
/* domain.c: call the monitors that are due; *stop when one asks to stop */
PETSC_INTERN PetscErrorCode MbDomainCallMonitors(MbDomain, PetscBool *);
/* blowup.c: stop a blown-up run on every rank (a non-finite state, or energy made from nothing) */
PETSC_INTERN PetscErrorCode MbDomainBlowupCheck(MbDomain, PetscBool nonfinite, PetscInt bad, const MbEnergy *);
/* crack.c: count the crack planes at a RUN's start; after a step, stop the run on every rank
   when a body's crack criterion is met (bodies are not split during a run) */
PETSC_INTERN PetscErrorCode MbDomainCrackPrepare(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainCrackCheck(MbDomain);
/* domain.c: whether a monitor is due at the current time */
PETSC_INTERN PetscErrorCode MbDomainMonitorsDue(MbDomain, PetscBool *);

/* ghost.c: refresh the ghosts from the current placement (collective) */
PETSC_INTERN PetscErrorCode MbDomainGhostRefresh(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainGhostDestroy(MbDomain);
/* detect.c: this step's constraints (joints and contacts), numbered and owned */
PETSC_INTERN PetscErrorCode MbDomainDetect(MbDomain);
/* exclude.c: whether the pair (either order) makes no contacts; freeing the sets */
PETSC_INTERN PetscBool      MbDomainExcluded(MbDomain, MbExclude, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode MbDomainExcludeDestroy(MbDomain);
/* exclude.c: whether body id's primitives make contacts with each other (MbDomainSetSelfContact) */
PETSC_INTERN PetscBool MbDomainSelfContact(MbDomain, PetscInt);
/* drive.c: moving obstacles — placed at mid-step, given u(t + h) from their joints (before
   the ghost refresh: collective with nothing), and placed at t + h after the solve */
PETSC_INTERN PetscErrorCode MbDomainDriveBegin(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainDriveEnd(MbDomain);
/* interact.c: joints between two obstacles are errors; resolve new joints' referential points */
PETSC_INTERN PetscErrorCode MbDomainCheckJoints(MbDomain);
/* interact.c: the step's local dynamics over the constraint set — the force contacts'
   impulses; the solve with the failure policy and the reactions into the bodies */
PETSC_INTERN PetscErrorCode MbDomainApplyForceContacts(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainConstraintSolve(MbDomain);
/* forces.c: the force schemes' step, springs */
PETSC_INTERN PetscErrorCode MbDomainForceFamily(MbDomain, PetscBool *);
PETSC_INTERN PetscErrorCode MbDomainStepForces(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainApplySprings(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainSpringsEndStep(MbDomain, PetscReal);
PETSC_INTERN PetscErrorCode MbDomainForcesDestroy(MbDomain);
/* sparsify.c: the pairs of primitives of the step in contact, by their keys (master
   body, slave body, master primitive, slave primitive), pair p's points pts[ptr[p] ..
   ptr[p + 1]); keep[k]: whether CONTACT_SPARSIFY keeps point k. Not collective. */
typedef struct {
  PetscInt key[4];
} MbSparsePair;
PETSC_INTERN PetscBool      MbDomainSparsifyActive(MbDomain d);
PETSC_INTERN PetscErrorCode MbDomainSparsify(MbDomain d, PetscInt npair, const MbSparsePair pair[], const PetscInt ptr[], const MbContactPoint pts[], PetscBool keep[]);

#endif
