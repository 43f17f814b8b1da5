/* moreau — profiling: one PetscLogEvent per phase of a step, so -log_view profiles a run,
   and the same phases timed by the domain for its end-of-run summary. */
#ifndef MOREAU_MBLOG_H
#define MOREAU_MBLOG_H

#include <moreau/mbsys.h>

/* GHOST: the ghost refresh and the constraint records between ranks (communication);
   BALANCE: METIS repartitioning and migration. */
typedef enum { MB_PHASE_BEGIN, MB_PHASE_GHOST, MB_PHASE_DETECT, MB_PHASE_LOCDYN, MB_PHASE_SOLVE, MB_PHASE_END, MB_PHASE_REDUCE, MB_PHASE_BALANCE, MB_PHASE_OUTPUT, MB_PHASE_COUNT } MbPhase;
PETSC_EXTERN const char *const MbPhaseNames[];
PETSC_EXTERN PetscLogEvent     MB_PhaseEvent[MB_PHASE_COUNT];

#endif
