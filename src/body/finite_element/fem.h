/* Private to src/body/finite_element/: the element library (element.c) and the total
   Lagrangian Saint Venant–Kirchhoff kernels (kernel.c) of finite-element bodies (seed 003,
   "Finite element dynamics"). Node orderings are Solfec-1.0's (src/shape/element.c): the
   base counter-clockwise seen from above, then the apex (tetrahedron, pyramid) or the top
   nodes above the bottom ones (wedge, hexahedron). */
#ifndef MOREAU_FEM_H
#define MOREAU_FEM_H

#include <petscmat.h>
#include <moreau/mbsys.h>
#include "../bodyimpl.h"

#define MB_FEM_MAX_NEN 8 /* nodes of the largest element (HEX8) */
#define MB_FEM_MAX_NQP 8 /* quadrature points of the largest rule */

/* An element type: its nodes, quadrature rule on its reference cell and shape functions. */
typedef struct {
  const char      *name; /* for messages */
  PetscInt         nen;  /* nodes */
  PetscInt         nqp;  /* quadrature points */
  const PetscReal *qp;   /* their reference coordinates, 3·nqp */
  const PetscReal *qw;   /* their weights (the reference cell's volume in all) */
  /* N (nen) and ∂N/∂ξ (nen×3, row-major) at reference point xi */
  void (*shape)(const PetscReal xi[3], PetscReal N[], PetscReal dN[]);
  const PetscReal *centre; /* reference coordinates of the cell's centre (point location) */
} MbFemElement;

/* The element type of nen nodes (4 TET4, 5 PYR5, 6 WEDGE6, 8 HEX8), or NULL. */
PETSC_INTERN const MbFemElement *MbFemElementOfSize(PetscInt nen);
/* Referential gradients G = ∂N/∂X (nen×3 row-major) and det(∂X/∂ξ) at quadrature point k
   of an element with nodes X (3·nen). */
PETSC_INTERN void MbFemGradients(const MbFemElement *e, const PetscReal X[], const PetscReal dN[], PetscReal G[], PetscReal *detJ);
/* Whether reference point xi lies in the element's cell, to tolerance tol. */
PETSC_INTERN PetscBool MbFemInside(const MbFemElement *e, const PetscReal xi[3], PetscReal tol);
/* The reference point xi whose image under the element's map with nodes x (3·nen) is the
   point p: Newton from the centre. Returns PETSC_FALSE when it does not converge. */
PETSC_INTERN PetscBool MbFemInvert(const MbFemElement *e, const PetscReal x[], const PetscReal p[3], PetscReal xi[3]);
/* How far reference point xi lies outside the element's cell, in reference lengths (0 inside):
   the largest violation of the cell's bounds. */
PETSC_INTERN PetscReal MbFemOutside(const MbFemElement *e, const PetscReal xi[3]);

/* The Saint Venant–Kirchhoff material: S = λ tr(E) I + 2μ E, E = ½(FᵀF − I). */
typedef struct {
  PetscReal lambda, mu;
} MbSvk;

/* At one quadrature point with gradients G (nen×3) and weight w (w = detJ·weight of the
   rule), displacements u (3·nen, node after node):
   f += w P G (f_int, P = F S the first Piola–Kirchhoff stress), and the strain energy
   density times w into *W (either output may be NULL). */
PETSC_INTERN void MbSvkForce(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], PetscReal f[], PetscReal *W);
/* The same point's tangent applied to v: y += w dP G with dF = Σ v_a ⊗ G_a,
   dP = dF S + F (λ tr(dE) I + 2μ dE), dE = sym(Fᵀ dF): y += K v (K = ∂f_int/∂u). */
PETSC_INTERN void MbSvkTangentMult(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], const PetscReal v[], PetscReal y[]);
/* MbSvkForce (f only) and MbSvkTangentMult(v) of one point in one pass, F and S made once:
   f += w (P + dP) G, the internal force and stiffness-proportional damping K(u) v */
PETSC_INTERN void MbSvkForceDamped(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], const PetscReal v[], PetscReal f[]);
/* The point's tangent K += w ∂(P G)/∂u as a dense (3·nen)² row-major block, node-major
   (row 3a + i, column 3b + k):
   K_ai,bk = w [λ (F g_a)_i (F g_b)_k + μ (F Fᵀ)_ik (g_a·g_b) + μ (F g_b)_i (F g_a)_k + δ_ik g_a·S g_b],
   the SVK elasticity C = λ I⊗I + 2μ 𝕀 pushed through F, plus the initial-stress term. */
PETSC_INTERN void MbSvkStiffness(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], PetscReal K[]);
/* The Cauchy stress σ = J⁻¹ F S Fᵀ (row-major) at the point. */
PETSC_INTERN void MbSvkCauchy(const MbSvk *m, PetscInt nen, const PetscReal G[], const PetscReal u[], PetscReal sigma[9]);

/* The data of a FINITE_ELEMENT body (finite_element.c). */
typedef struct {
  PetscInt   nn, ne;       /* nodes, elements */
  PetscReal *X;            /* reference nodes, 3·nn */
  PetscInt  *eptr, *enode; /* element e's nodes are enode[eptr[e] .. eptr[e+1]) */
  PetscInt  *gptr;         /* element e's quadrature data: G[gptr[e] ..): per point 3·nen gradients, then the weight */
  PetscReal *G;
  PetscReal *mass; /* lumped nodal masses, nn */
  PetscReal  young, poisson;
  MbSvk      svk;
  PetscReal *ue, *fe; /* scratch: one element's displacements and forces */
  /* DEF_LIM (stiffness.c): K at q, A = M + cK and its factorization; the symbolic part is
     kept across steps (the pattern is the mesh's) */
  Mat       K, A, F;
  Vec       x, y;    /* wrap a right-hand side and its solution */
  Vec       Md;      /* the lumped masses, 3 per node: A's diagonal part */
  PetscBool lu;      /* A was not positive definite once: factored by LU from then on */
  PetscBool inv;     /* entries of A⁻¹ are wanted (W's blocks): MUMPS factorizes (when PETSc has it) */
  PetscBool entries; /* MUMPS's entries of A⁻¹ may be used (-mb_fem_inverse_entries; else solves) */
  PetscBool mumps;   /* F is MUMPS's */
  /* form 'BC' (corotated.c): linear elasticity in the frame of R, the polar rotation of the
     mean deformation gradient; K (K₀, at the reference) assembled once, A₀ = M + cK₀
     factorized once, A⁻¹ = R̲A₀⁻¹R̲ᵀ with R of the configuration the factor op was given */
  PetscBool  bc;
  PetscReal *gbar, vol; /* ∫ ∂N_a/∂X dV, 3 a node, and the volume */
  PetscReal  RA[9];     /* R at the factor op's q (DEF_LIM's solves) */
  /* forms 'BC-MODAL' (rform 1) and 'BC-RO' (2) (reduced.c): 'BC' (bc true) with the motion
     in span(R̲E): the base E (3·nn × nb, column-major) and its values (as given), the reduced
     Mr = EᵀME, Kr = EᵀK₀E (nb × nb, made once) and the Cholesky factor Lr of Mr + cB·Kr */
  PetscInt   rform, nb;
  PetscReal *E, *lam, *Lr, *Mr, *Kr, *LM, cB; /* LM: Mr's Cholesky factor (projections) */
  /* W's blocks under a held factor (stiffness.c): the first CG residual of the step's
     free-velocity solve, relative, measures how far the factor is from the current A; up to
     -mb_fem_w_rtol the factor stands for A in W and in the impulse (wold) */
  PetscReal delta, wtol;
  PetscBool wold;
  /* the last block of A⁻¹ found (MbFemInverseBlock), for the factor it was found by
     (invf = nfactor then): the unknowns sorted and the block in their order */
  PetscInt   ninv, invf, *invd;
  PetscReal *invC;
  PetscBool  factored; /* F holds A's numeric factors */
  PetscReal  c;        /* A's coefficient of K (0: A = M, diagonal) */
  /* reuse of the numeric factor (stiffness.c): refactorized every `refactor` steps, in between
     the exact A at qA applied by conjugate gradients preconditioned by the older factor */
  const PetscReal *qA;                    /* the configuration A is taken at this step */
  PetscInt         bid;                   /* the body's id (messages) */
  PetscReal        cF;                    /* c of the factor held */
  PetscInt         refactor;              /* steps a factor serves (-mb_fem_refactor; 0: not read yet) */
  PetscInt         age;                   /* steps since the factor was made */
  PetscReal        rtol;                  /* relative residual of the conjugate gradients (-mb_fem_pcg_rtol) */
  PetscBool        multi;                 /* a solve of many right-hand sides since the factor was made (W's blocks) */
  PetscBool        exact;                 /* F factors the current A */
  PetscInt         nfactor, npcg, pcgits; /* counts: factorizations, CG solves and iterations */
  PetscReal       *cgw;                   /* CG scratch, 4 nu */
  PetscReal       *qF;                    /* the configuration the factor was made at (a checkpoint keeps it) */
  PetscBool        pending;               /* a restart's factor to make again from qF before the next step */
  /* loads (finite_element.c): the boundary's faces, made when a pressure first needs them,
     and the element and reference point of each point force, found once */
  PetscInt   nbf;    /* boundary faces (−1: not made yet) */
  PetscInt  *bf;     /* 5 per face: its number of nodes (3 or 4), then the nodes, outward loop */
  PetscInt  *bfsurf; /* their surface ids */
  PetscInt   nlc;    /* loads located (the first nlc of the body's) */
  PetscInt  *lelem;  /* their elements */
  PetscReal *lxi;    /* their reference coordinates, 3 each */
  /* referential points already located (contact and joint points: their element and
     reference coordinates never change, the reference mesh being fixed): an open-addressing
     table keyed by the point's bits, so that H, the point's velocity and place cost no
     search after the point was mapped (finite_element.c) */
  struct MbFemPointCache {
    PetscReal X[3], xi[3];
    PetscInt  e;   /* −1: empty slot */
    PetscInt  gen; /* the step (gen) it was last used in */
  } * pc;
  PetscInt npc, cappc;
  PetscInt gen; /* counts the body's steps (MbFemFactor): entries of older steps may go */
  /* an embedded shape (BODY's mesh=, Solfec-1.0's separate mesh, fem.c): the body's shape is
     what contact sees, the mesh what deforms. Each vertex of a primitive (a sphere: its
     centre) lies at reference coordinates vxi of element velem, found once at creation (the
     element holding it, else the nearest one, extrapolated); the elements whose boxes meet a
     primitive's box are where its spatial points are looked for (to_referential) */
  PetscBool  embed;
  PetscInt  *vptr, *velem; /* primitive k's vertices: velem[vptr[k] .. vptr[k+1]) */
  PetscReal *vxi;          /* their reference coordinates, 3 each */
  PetscInt  *cptr, *cel;   /* primitive k's candidate elements: cel[cptr[k] .. cptr[k+1]) */
  MbShape    esh;          /* the elements as convex pieces (their faces), made when first needed */
  /* the local dynamics (delassus.c): a column → position map, −1 between uses, and a force */
  PetscInt  *wpos;
  PetscReal *wrk;
} Fem;

#define FEM_QP_SIZE(nen) (3 * (nen) + 1)

static inline const MbFemElement *MbFemElemOf(const Fem *m, PetscInt e) { return MbFemElementOfSize(m->eptr[e + 1] - m->eptr[e]); }
/* Element e's type, with the displacements of its nodes (from q) gathered into ue. */
static inline const MbFemElement *MbFemGather(const Fem *m, PetscInt e, const PetscReal q[], PetscReal ue[])
{
  const PetscInt *nod = &m->enode[m->eptr[e]], n = m->eptr[e + 1] - m->eptr[e];
  for (PetscInt a = 0; a < n; a++)
    for (int d = 0; d < 3; d++) ue[3 * a + d] = q[3 * nod[a] + d];
  return MbFemElementOfSize(n);
}
/* The gradients and weight (the last of the 3·nen + 1 numbers) of element e's point k. */
static inline const PetscReal *MbFemPoint(const Fem *m, PetscInt e, PetscInt k, PetscInt nen) { return &m->G[m->gptr[e] + k * (3 * nen + 1)]; }

/* corotated.c ('BC' form): R of configuration q (error: the mean F has det ≤ 0); the
   internal force (f = R̲K₀a + η R̲K₀R̲ᵀu) and strain energy (½aᵀK₀a) of the body's q. */
PETSC_INTERN PetscErrorCode MbFemCorotation(Fem *m, const PetscReal q[], PetscInt id, PetscReal R[9]);
PETSC_INTERN PetscErrorCode MbFemCorotatedInternal(MbBody b, const PetscReal u[], PetscReal f[]);
PETSC_INTERN PetscErrorCode MbFemCorotatedEnergy(MbBody b, PetscReal *W);

/* modal.c: the lowest n eigenpairs of K₀φ = λMφ (M-orthonormal φ, ascending λ; V column-major
   3·nn × n). reduced.c: the base of the reduced forms; the reduced A's factor at q (R too);
   A⁻¹ on nrhs vectors; the block of A⁻¹ among unknowns d; u projected on span(R̲E) at q
   in the M norm. */
PETSC_INTERN PetscErrorCode MbFemModal(Fem *m, PetscInt id, PetscInt n, PetscReal lambda[], PetscReal V[]);
PETSC_INTERN PetscErrorCode MbFemSetBasis(Fem *m, PetscInt id, PetscInt n, const PetscReal val[], const PetscReal vec[]);
PETSC_INTERN PetscErrorCode MbFemReducedFactor(Fem *m, const PetscReal q[], PetscReal c, PetscInt id);
PETSC_INTERN PetscErrorCode MbFemReducedSolve(Fem *m, PetscInt nrhs, const PetscReal x[], PetscReal y[]);
PETSC_INTERN PetscErrorCode MbFemReducedBlock(Fem *m, PetscInt nd, const PetscInt d[], PetscReal C[]);
PETSC_INTERN PetscErrorCode MbFemReducedProject(Fem *m, const PetscReal q[], PetscInt id, PetscReal u[]);
/* the strain energy ½zᵀKr z of co-rotated displacement a's coordinates z = Mr⁻¹EᵀMa in the base */
PETSC_INTERN PetscErrorCode MbFemReducedEnergy(Fem *m, const PetscReal a[], PetscInt id, PetscReal *W);

/* stiffness.c: A = M + cK(q) factorized for the body's inverse op (c > 0), K assembled from
   the elements at q; A⁻¹ on n right-hand sides of length 3·nn; freeing it all. */
PETSC_INTERN PetscErrorCode MbFemFactor(Fem *m, const PetscReal q[], PetscReal c, PetscInt id);
PETSC_INTERN PetscErrorCode MbFemSolve(Fem *m, PetscInt n, const PetscReal x[], PetscReal y[]);
/* y = op(A) x on arrays of the body's length (MatMult, MatSolve), through m->x, m->y */
PETSC_INTERN PetscErrorCode MbFemArrayOp(Fem *m, PetscErrorCode (*op)(Mat, Vec, Vec), Mat A, const PetscReal x[], PetscReal y[]);
/* C = (A⁻¹)_dd, the nd × nd block of the current A's inverse among the distinct unknowns d
   (row-major, symmetric) */
PETSC_INTERN PetscErrorCode MbFemInverseBlock(Fem *m, PetscInt nd, const PetscInt d[], PetscReal C[]);
PETSC_INTERN PetscErrorCode MbFemAssembleK(Fem *m, const PetscReal q[]);
PETSC_INTERN PetscErrorCode MbFemFactorDestroy(Fem *m);
/* The factor's state a checkpoint keeps, so that a restart makes the very factor again
   (factored, age, cF, lu, multi + 2 inv, then qF): its length, the numbers, and back. */
PETSC_INTERN PetscInt       MbFemFactorStateSize(const Fem *m);
PETSC_INTERN PetscErrorCode MbFemFactorStateGet(const Fem *m, PetscReal x[]);
PETSC_INTERN PetscErrorCode MbFemFactorStateSet(Fem *m, const PetscReal x[], PetscInt n);

/* finite_element.c: H at referential point X in a frame by its nonzero columns (the body's
   operator_hs). delassus.c: the body's blocks of W and B for its constraint points and the
   impulse of their reactions (the body's delassus and impulse ops). */
PETSC_INTERN PetscErrorCode MbFemOperatorHs(MbBody, const PetscReal[3], const PetscReal[9], PetscInt *, PetscInt[], PetscReal[]);
PETSC_INTERN PetscErrorCode MbFemDelassus(MbBody, PetscInt, const MbBodyPoint[], PetscReal, PetscReal[], PetscReal[]);
PETSC_INTERN PetscErrorCode MbFemImpulse(MbBody, PetscInt, const MbBodyPoint[], const PetscReal[], PetscReal);

#endif
