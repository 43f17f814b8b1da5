/* Private layout of MbDomain. */
#ifndef MOREAU_DOMAINIMPL_H
#define MOREAU_DOMAINIMPL_H

#include <moreau/mbdomain.h>

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
};

#endif
