/* moreau — time integration schemes, registered by name (PETSc style).
   A scheme is split into step-begin (half-step configuration, free velocity u + hA⁻¹f)
   and step-end (after the constraint impulses hA⁻¹HᵀR were added to u: finish the
   velocity and the configuration), as seed 001 requires. */
#ifndef MOREAU_MBSCHEME_H
#define MOREAU_MBSCHEME_H

#include <moreau/mbbody.h>

#define MBRIGPOS "RIG_POS" /* seed 000, (31)–(35): positive energy drift */
#define MBRIGNEG "RIG_NEG" /* seed 000, (31)–(36): negative energy drift; the default */
#define MBRIGIMP "RIG_IMP" /* seed 000, (31)–(34), (37)–(38): energy oscillates */
/* Deformable schemes (pseudo-rigid and finite-element bodies), the same leap-frog with
   A = M or A = M + (ηh/2 + h²/4)K (src/scheme/deformable/) */
#define MBDEFEXP "DEF_EXP" /* seed 000, (39): explicit; the default of deformable bodies */
#define MBDEFLIM "DEF_LIM" /* seed 000, (40): linearly implicit */
/* Quasi-static schemes (src/scheme/static/): every step from rest, u = hA⁻¹f, q += hu; the
   schemes of SOLFEC('QUASI_STATIC'), which gives them to every body (MbDomainSetQuasiStatic) */
#define MBRIGSTATIC "RIG_STATIC" /* rigid bodies, A = M */
#define MBDEFSTATIC "DEF_STATIC" /* deformable bodies, A = M + h²K */
/* Force schemes (src/scheme/force/): the domain evaluates all forces (gravity, loads, springs,
   penalty contacts) where the scheme asks; joints and non-penalty contacts need RIG_*. */
#define MBEULEREXP "EULER_EXP" /* seed 002: explicit (forward) Euler, order 1 */
#define MBEULERIMP "EULER_IMP" /* seed 002: implicit (backward) Euler by Newton, order 1 */
#define MBGALPHA "GALPHA"      /* Chung & Hulbert 1993, parameter rho_inf; Newton, order 2 */
#define MBCDM "CDM"            /* central differences, variable step (Park & Underwood 1980), order 2 */
#define MBEGALPHA "EGALPHA"    /* explicit generalized-α (Hulbert & Chung 1996), parameter rho_b, order 2 */
#define MBCHUNGLEE "CHUNG_LEE" /* Chung & Lee 1994, parameter beta, order 2 */

/** Register a scheme constructor by name. Not collective. */
PETSC_EXTERN PetscErrorCode MbSchemeRegister(const char name[], PetscErrorCode (*create)(MbScheme));
/** Create a scheme with no type. */
PETSC_EXTERN PetscErrorCode MbSchemeCreate(MPI_Comm comm, MbScheme *scheme);
/** Set the type by registered name; errors naming the unknown name and listing the known. */
PETSC_EXTERN PetscErrorCode MbSchemeSetType(MbScheme scheme, const char type[]);
PETSC_EXTERN PetscErrorCode MbSchemeGetType(MbScheme scheme, const char **type);
/** Read -mb_scheme_rtol, -mb_scheme_max_it, -mb_scheme_error_if_not_converged and the
    parameters -mb_scheme_rho_inf, -mb_scheme_rho_b, -mb_scheme_beta (each applied to the
    schemes that have it). */
PETSC_EXTERN PetscErrorCode MbSchemeSetFromOptions(MbScheme scheme);
/** Newton tolerance (scaled by h) and iteration cap for implicit schemes. */
PETSC_EXTERN PetscErrorCode MbSchemeSetTolerances(MbScheme scheme, PetscReal rtol, PetscInt maxit);
/** Make a Newton failure an error (PETSC_ERR_NOT_CONVERGED) rather than a counted event. */
PETSC_EXTERN PetscErrorCode MbSchemeSetErrorIfNotConverged(MbScheme scheme, PetscBool flg);
/** Whether the scheme can integrate bodies of the kind registered as kind: whether the kind
    declares what the scheme requires of a body (src/body/bodyimpl.h, MbBodyTrait). */
PETSC_EXTERN PetscErrorCode MbSchemeAppliesTo(MbScheme scheme, const char kind[], PetscBool *applies);
/** First half of a step of body from t with step h under gravity g (may be NULL). */
PETSC_EXTERN PetscErrorCode MbSchemeStepBegin(MbScheme scheme, MbBody body, PetscReal t, PetscReal h, const PetscReal g[3]);
/** Second half of the step; accumulates the body's external work. */
PETSC_EXTERN PetscErrorCode MbSchemeStepEnd(MbScheme scheme, MbBody body, PetscReal t, PetscReal h);
/** Set a named parameter of the scheme: "rho_inf" (GALPHA, in [0, 1]), "rho_b" (EGALPHA,
    in [0, 1]), "beta" (CHUNG_LEE, in [1, 28/27]); each scheme keeps its own in its data and
    reads its own -mb_scheme_<name> option. Errors name the scheme, the parameter and the
    value, and for a name the scheme does not have, the ones it has. Not collective. */
PETSC_EXTERN PetscErrorCode MbSchemeSetParameter(MbScheme scheme, const char name[], PetscReal value);
/** Whether the scheme is stable only below each body's critical step (MbBodyCriticalStep):
    DEF_EXP. */
PETSC_EXTERN PetscErrorCode MbSchemeIsBounded(MbScheme scheme, PetscBool *bounded);
/** Newton iterations done and steps whose Newton did not converge, since creation. */
PETSC_EXTERN PetscErrorCode MbSchemeGetStats(MbScheme scheme, PetscInt *iterations, PetscInt *failures);
PETSC_EXTERN PetscErrorCode MbSchemeDestroy(MbScheme *scheme);
/** Comma-separated list of registered names, for messages and --help. */
PETSC_EXTERN PetscErrorCode MbSchemeListNames(char buf[], size_t len);

#endif
