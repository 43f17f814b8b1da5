/* moreau — local dynamics (seed 001): U = B + W R for the rows of a step's constraint set,
   with B = H u_free and W = h H A⁻¹ Hᵀ a distributed PETSc matrix of 3×3 blocks
   (MATMPIBAIJ). The object owns W, B, R, U, the laws of its rows and their layout, forms
   every block through the body ops (H at a point, A⁻¹ on k right-hand sides), solves with a
   constraint solver and applies the reactions back to the bodies: it never asks a body for
   its kind, and knows the domain only through the set and the map of bodies it is given. */
#ifndef MOREAU_MBLOCDYN_H
#define MOREAU_MBLOCDYN_H

#include <moreau/mbsolver.h>

typedef struct _p_MbLocDyn *MbLocDyn;
typedef struct _p_MbConSet *MbConSet;  /* the constraint set (src/constraint/conset.h) */
typedef struct MbBodyMap    MbBodyMap; /* bodies by id, owners (src/body/bodymap.h) */

/** Create the local dynamics on comm (a domain keeps one). Not collective. */
PETSC_EXTERN PetscErrorCode MbLocDynCreate(MPI_Comm comm, MbLocDyn *ld);
/** Read -mb_locdyn_dense_max (bodies with more constraints insert their blocks row by row)
    and -mb_locdyn_simd (AVX2 blocks where the CPU has them). Collective. */
PETSC_EXTERN PetscErrorCode MbLocDynSetFromOptions(MbLocDyn ld);
/** Form W and B for the rows of cs (detected, numbered, shared) with the bodies of map and
    the step h, the warm start R and the laws; W's structure is kept while the bodies of
    every row are the same. ld keeps cs and map (not owned) for the solve. Collective. */
PETSC_EXTERN PetscErrorCode MbLocDynAssemble(MbLocDyn ld, MbConSet cs, const MbBodyMap *map, PetscReal h);
/** Solve U = B + W R with solver: its iterations, natural-map error and converged reason (a
    solver's own test passed with an error above 1 is MB_SOLVER_DIVERGED_ERROR). Collective. */
PETSC_EXTERN PetscErrorCode MbLocDynSolve(MbLocDyn ld, MbSolver solver, PetscInt *iterations, PetscReal *error, MbSolverConvergedReason *reason);
/** The reactions into the set's records (and the joints' warm starts) and u += h A⁻¹ Hᵀ R
    into the owned bodies; the work of the reactions over the step added to *work_contact
    (normal) and *work_friction (dissipated). Collective. */
PETSC_EXTERN PetscErrorCode MbLocDynApply(MbLocDyn ld, PetscReal *work_contact, PetscReal *work_friction);
/** The contacts cs makes forces (PENALTY_SOLVER): u += h A⁻¹(±Hᵀ R) on the owned bodies
    before the rows are solved, and their work h R·V. Not collective. */
PETSC_EXTERN PetscErrorCode MbLocDynApplyForces(MbLocDyn ld, MbConSet cs, const MbBodyMap *map, PetscReal h, PetscReal *work_contact, PetscReal *work_friction);
/** The system of the last MbLocDynAssemble (borrowed; NULL before one with constraints). */
PETSC_EXTERN PetscErrorCode MbLocDynGetSystem(MbLocDyn ld, Mat *W, Vec *B, Vec *R, Vec *U, const MbLaw **law);
/** Forget W and its layout (after a migration, its rows belong to the old partition). */
PETSC_EXTERN PetscErrorCode MbLocDynReset(MbLocDyn ld);
PETSC_EXTERN PetscErrorCode MbLocDynDestroy(MbLocDyn *ld);

#endif
