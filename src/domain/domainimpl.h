/* Private layout of MbDomain. */
#ifndef MOREAU_DOMAINIMPL_H
#define MOREAU_DOMAINIMPL_H

#include <moreau/mbdomain.h>
#include "../constraint/constraint.h"

/* A growing byte buffer: one message (exchange.c). */
typedef struct {
  char  *buf;
  size_t n, cap;
} MbBuf;

typedef struct {
  PetscReal   interval;  /* simulated time between calls */
  PetscReal   next;      /* next time it is due */
  MbMonitorFn fn;        /* the monitor */
  void       *ctx;       /* its context */
  PetscErrorCode (*destroy)(void *); /* destroys ctx */
} MbMonitor;

struct _p_MbDomain {
  MPI_Comm       comm;        /* all ranks of the run */
  PetscMPIInt    rank, size;  /* this rank, number of ranks */
  PetscReal      h;           /* time step */
  PetscReal      t;           /* current time */
  PetscInt       nsteps;      /* steps taken */
  PetscReal      g[3];        /* gravity */
  PetscInt       nglobal;     /* bodies created on all ranks (next id) */
  PetscInt       nbody, cap;  /* local bodies and allocated room */
  MbBody        *body;        /* local bodies, sorted by id */
  char           default_scheme[64]; /* scheme of new rigid bodies */
  PetscInt       nscheme;     /* schemes in use */
  MbScheme      *scheme;      /* shared schemes, one per name */
  PetscInt       nmon;        /* monitors */
  MbMonitor     *mon;         /* monitors */
  PetscInt       nhist, hcap; /* history records and allocated room */
  MbHistory     *hist;        /* one record per step */
  PetscBool      verbose;     /* print progress */
  PetscLogDouble progress_dt; /* seconds between progress lines */
  PetscLogDouble phase[MB_PHASE_COUNT]; /* wall time per phase, this rank */
  PetscLogDouble run_start;   /* wall clock at the first run */
  PetscBool      started;     /* a run has begun */
  /* ownership (owner.c): replicated per-body metadata for ids below nknown */
  PetscInt       nknown;      /* bodies whose owner and kind this rank knows */
  PetscMPIInt   *owner;       /* owner rank by id */
  char          *movable;     /* 1 unless an obstacle, by id */
  MbBody        *all;         /* by id: the owned body, its ghost here, or NULL */
  /* ghosts (ghost.c): read-only copies of remote bodies near this rank's bodies */
  PetscInt       nghost, gcap;/* ghosts and allocated room */
  MbBody        *ghost;       /* the ghosts (no order) */
  PetscInt       gstamp;      /* refresh counter (marks the ghosts seen) */
  PetscInt     **sent;        /* per rank: ids sent there by the last refresh, sorted */
  PetscInt      *nsent;
  MbBuf         *gsend, *grecv; /* message buffers per rank, kept between refreshes */
  /* load balance (partition.c, migrate.c) */
  PetscReal      imbalance_tol;  /* repartition when max/mean load exceeds it */
  PetscInt       balance_freq;   /* check every this many steps (0: never) */
  PetscBool      balance_metis;  /* partition with METIS (else keep id mod size) */
  PetscBool      partitioned;    /* METIS has run once */
  PetscInt       nrepart;        /* repartitions so far */
  PetscInt       nmigrated;      /* bodies moved so far (all ranks) */
  PetscInt       edgecut;        /* METIS edge cut of the last partition */
  PetscReal      imbalance;      /* load imbalance measured at the last check */
  /* callbacks by reference (loads): the same index on every rank */
  PetscInt       ncb;
  struct {
    MbLoadCallback fn;
    void          *ctx;
    PetscErrorCode (*destroy)(void *);
  } *cb;
  /* constraints (interact.c, detect.c) */
  PetscReal      geps;        /* GEOMETRIC_EPSILON: contact margin and geometric tolerance */
  PetscInt       nmat;        /* surface materials */
  MbSurfMat     *mat;
  PetscInt       njoint;      /* joints given by the deck */
  MbJoint       *joint;
  PetscInt       ncon;        /* constraints this rank owns this step, sorted by key; rows rstart.. */
  MbCon         *con;
  PetscInt       nfor;        /* constraints other ranks own that touch this rank's bodies */
  MbCon         *fcon;        /* (their records, rows included: W blocks, reactions) */
  PetscInt       nfpen;       /* penalty contacts other ranks own on this rank's bodies */
  MbCon         *fpen;
  PetscInt       nconglobal;  /* constraints on all ranks (rows of W) */
  PetscInt       rstart, rend;/* block rows this rank owns */
  PetscInt       ncontacts;   /* contacts (not joints) this rank owns, penalty ones included */
  PetscBool      penalty;     /* PENALTY_SOLVER: contacts are spring-dashpot forces ... */
  PetscInt       npen;        /* ... kept here, on every rank, not in the rows of W */
  MbCon         *pen;
  /* local dynamics (locdyn.c) and solver */
  MbSolver       solver;      /* the constraint solver */
  PetscInt       failure;     /* on a solver failure: 0 CONTINUE, 1 EXIT, 2 CALLBACK */
  PetscErrorCode (*failure_fn)(MbDomain, void *); /* CALLBACK */
  void          *failure_ctx;
  Mat            W;           /* W = h H A⁻¹ Hᵀ, block size 3 */
  Vec            B, R, U;     /* free velocity, reaction, velocity after */
  MbLaw         *law;         /* laws of the local rows */
  Vec            Rfor;        /* R of the rows in fcon (sequential) */
  VecScatter     forscat;     /* R -> Rfor */
  PetscInt      *wkey;        /* structure of W (per row: the bodies) when it was made */
  PetscInt       nwkey;
  PetscReal      work_contact;  /* work of normal reactions on this rank's rows */
  PetscReal      work_friction; /* friction dissipation on this rank's rows */
  PetscInt       solver_iterations; /* of the last step */
  PetscReal      solver_error;
  PetscInt       solver_failures;   /* steps whose solve missed the tolerance */
};

/* exchange.c: sparse all-to-all of byte buffers (send[size] emptied, recv[size] filled) */
PETSC_INTERN PetscErrorCode MbBufPut(MbBuf *, const void *, size_t);
PETSC_INTERN PetscErrorCode MbBufGet(MbBuf *, size_t *, void *, size_t);
PETSC_INTERN PetscErrorCode MbBufFree(MbBuf *);
PETSC_INTERN PetscErrorCode MbExchange(MPI_Comm, MbBuf[], MbBuf[]);
/* owner.c: owner and kind of bodies created since the last call (collective) */
PETSC_INTERN PetscErrorCode MbDomainKnowBodies(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainOwnerDestroy(MbDomain);
/* partition.c, migrate.c: METIS partition of the body graph; bodies and the constraints
   they own to their new owners (collective) */
PETSC_INTERN PetscErrorCode MbDomainBalance(MbDomain, PetscBool force);
PETSC_INTERN PetscErrorCode MbDomainPartition(MbDomain, PetscMPIInt newowner[]);
PETSC_INTERN PetscErrorCode MbDomainMigrate(MbDomain, const PetscMPIInt newowner[]);
/* ghost.c: refresh the ghosts from the current placement (collective) */
PETSC_INTERN PetscErrorCode MbDomainGhostRefresh(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainGhostReset(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainGhostDestroy(MbDomain);
/* detect.c: this step's constraints (joints and contacts), numbered and owned */
PETSC_INTERN PetscErrorCode MbDomainDetect(MbDomain);
/* interact.c: obstacle-only joints are errors; resolve new joints' referential points */
PETSC_INTERN PetscErrorCode MbDomainCheckJoints(MbDomain);
/* locdyn.c: assemble W and B, solve, apply the reactions to owned bodies */
PETSC_INTERN PetscErrorCode MbDomainLocDyn(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainApplyPenalty(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainConstraintSolve(MbDomain);
PETSC_INTERN PetscErrorCode MbDomainLocDynDestroy(MbDomain);

#endif
