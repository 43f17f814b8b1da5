/* moreau — local dynamics (seed 001): U = B + W R for the constraints of a step, with
   B = H u_free and W = h H A⁻¹ Hᵀ a distributed PETSc matrix of 3×3 blocks (MATMPIBAIJ).
   The object owns W, B, R, U, the laws of its rows and their layout, and forms every block
   through the body ops (H at a point, A⁻¹ on k right-hand sides): it never asks a body for
   its kind. A domain holds one. */
#ifndef MOREAU_MBLOCDYN_H
#define MOREAU_MBLOCDYN_H

#include <moreau/mbdomain.h>
#include <moreau/mbsolver.h>

typedef struct _p_MbLocDyn *MbLocDyn;

/** Create the local dynamics of a domain (which keeps it; MbDomainCreate calls this).
    Not collective. */
PETSC_EXTERN PetscErrorCode MbLocDynCreate(MbDomain dom, MbLocDyn *ld);
/** Read -mb_locdyn_dense_max (bodies with more constraints insert their blocks row by row)
    and -mb_locdyn_simd (AVX2 blocks where the CPU has them). Collective. */
PETSC_EXTERN PetscErrorCode MbLocDynSetFromOptions(MbLocDyn ld);
/** Form W and B for the domain's constraints of this step (detected, numbered and owned),
    the warm start R and the laws; W's structure is kept while the bodies of every row are
    the same. Collective. */
PETSC_EXTERN PetscErrorCode MbLocDynAssemble(MbLocDyn ld);
/** The system of the last MbLocDynAssemble (borrowed; NULL before one with constraints). */
PETSC_EXTERN PetscErrorCode MbLocDynGetSystem(MbLocDyn ld, Mat *W, Vec *B, Vec *R, Vec *U, const MbLaw **law);
/** Forget W and its layout (after a migration, its rows belong to the old partition). */
PETSC_EXTERN PetscErrorCode MbLocDynReset(MbLocDyn ld);
PETSC_EXTERN PetscErrorCode MbLocDynDestroy(MbLocDyn *ld);

#endif
