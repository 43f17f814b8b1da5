/* Private layout of MbBody and the ops table each kinematic model fills. */
#ifndef MOREAU_BODYIMPL_H
#define MOREAU_BODYIMPL_H

#include <moreau/mbbody.h>
#include "../core/exchange.h"

/* The operations of a kinematic model (a body kind). Each kind lives in its own folder under
   src/body/ and registers its table by name from there (MbBodyKindRegister; the built-ins
   from MbBodyKindRegisterAll, kind.c); nothing outside src/body/ asks a body for its kind:
   what others need to know of it is a field or an operation here. Optional operations are
   NULL where a kind has no such thing (a rigid body has no internal force). */

/* What a scheme requires of a body's kind: a kind declares the traits it has (traits), a
   scheme the ones it needs (MbScheme's requires), and the scheme applies to the kind that has
   them all. A trait is a promise about the state and the ops the scheme then uses. */
typedef enum {
  MB_BODY_TRAIT_ROTATION = 1 << 0, /* the rigid layout q = [Λ column-wise, x̄], u = [Ω, v] with mass and inertia J (mp, Jinv) and the ops external (f = [T, F]), inverse: RIG_POS, RIG_NEG, RIG_IMP */
  MB_BODY_TRAIT_LINEAR   = 1 << 1, /* q̇ = u entry by entry (nq = nu), with the ops external, internal and factor (A = M + cK for inverse; both NULL for a kind without internal forces, A = M): DEF_EXP, DEF_LIM */
  MB_BODY_TRAIT_FORCE    = 1 << 2, /* the ops acceleration and advance, at most 6 velocities: the force schemes (EULER_EXP, ..., GALPHA) */
} MbBodyTrait;
/* A constraint point on a body, as the local dynamics hands it to the body: referential point
   X, the frame (columns: the local axes) and the sign s (+1 master, −1 slave). */
typedef struct {
  const PetscReal *X, *base;
  PetscReal        s;
} MbBodyPoint;

/* A prescribed velocity of a body whose motion is prescribed (drive ops): dir·ẋ(X) = value,
   X referential, dir a spatial unit vector (a joint on an obstacle: FIX_POINT gives three,
   FIX_DIRECTION and SET_VELOCITY one). */
typedef struct {
  PetscReal X[3], dir[3], value;
} MbBodyVelocityRow;

/* The most nonzero columns of a sparse H (operator_hs): a HEX8's 8 nodes × 3. */
#define MB_BODY_HS_MAX 24

struct _n_MbBodyOps {
  const char        *name;                                                                       /* model name, as registered */
  PetscInt           nq, nu;                                                                     /* sizes of q and u; per mesh node when nodal (sizes gives a body's) */
  PetscBool          nodal;                                                                      /* a body's shape is its mesh (MESH, HEX) and q, u are nq, nu per node */
  PetscBool          movable;                                                                    /* integrated and takes reactions (an obstacle is not; one with drive ops moves as prescribed) */
  PetscBool          pressure;                                                                   /* takes MB_LOAD_PRESSURE loads (its external op applies them) */
  PetscBool          torque;                                                                     /* takes MB_LOAD_TORQUE loads (its external op applies them) */
  PetscInt           traits;                                                                     /* the MbBodyTrait bits it has: which schemes apply to it */
  const char        *scheme;                                                                     /* default scheme; NULL: the domain's rigid default */
  const char *const *forms;                                                                      /* the names the form op takes with a description each, in pairs, NULL-terminated, the default first (NULL: no form op) */
  PetscErrorCode (*sizes)(MbShape, PetscInt *, PetscInt *);                                      /* nq, nu of a body of this shape (NULL: the fixed nq, nu above) */
  PetscErrorCode (*create)(MbBody);                                                              /* private data; q in the reference configuration */
  PetscErrorCode (*destroy)(MbBody);                                                             /* private data (may be NULL) */
  PetscErrorCode (*check_conf)(MbBody, const PetscReal[]);                                       /* a configuration q the deck gives is one of the kind's (NULL: any) */
  PetscErrorCode (*reset)(MbBody);                                                               /* q ← the reference configuration (after new mass characteristics) */
  PetscErrorCode (*kinetic)(MbBody, PetscReal *);                                                /* ½uᵀMu */
  PetscErrorCode (*inverse)(MbBody, PetscInt, const PetscReal[], PetscReal[]);                   /* y_j = A⁻¹x_j for n vectors of length nu, one after another */
  PetscErrorCode (*external)(MbBody, PetscReal, PetscReal, const PetscReal[3], PetscReal[]);     /* generalized external force */
  PetscErrorCode (*to_spatial)(MbBody, const PetscReal[3], PetscReal[3]);                        /* X ↦ x */
  PetscErrorCode (*to_referential)(MbBody, PetscInt, const PetscReal[3], PetscReal[3]);          /* x ↦ X; the primitive (element) x was found on, or −1: the kind extends its map outside the body (a contact point between two surfaces) */
  PetscErrorCode (*prim_to_spatial)(MbBody, PetscInt, PetscReal[]);                              /* the spatial vertices of primitive k (a sphere: its centre); NULL: to_spatial of each */
  PetscErrorCode (*prim_velocity)(MbBody, PetscInt, PetscReal[]);                                /* the velocities of primitive k's vertices (a sphere: its centre's); NULL: point_velocity of each */
  PetscErrorCode (*prim_stress)(MbBody, PetscInt, PetscReal[9]);                                 /* the mean Cauchy stress of primitive k (an element); NULL: the body's */
  PetscErrorCode (*point_velocity)(MbBody, const PetscReal[], const PetscReal[3], PetscReal[3]); /* velocity of X when the body's velocity is u (b->u, or b->u0 at the start of the step) */
  PetscErrorCode (*operator_h)(MbBody, const PetscReal[3], const PetscReal[9], PetscReal[]);     /* H at X in a frame: 3×nu row-major */
  PetscErrorCode (*operator_hs)(MbBody, const PetscReal[3], const PetscReal[9], PetscInt *, PetscInt[], PetscReal[]); /* H's nonzero columns: n ≤ MB_BODY_HS_MAX indices and the 3×n values, row-major (NULL: operator_h, dense) */
  PetscErrorCode (*delassus)(MbBody, PetscInt, const MbBodyPoint[], PetscReal, PetscReal[],
                             PetscReal[]); /* for n points: W = h S H A⁻¹ Hᵀ S into a (3n)×(3n) row-major array and B = S H u into 3n (S the signs); NULL: the local dynamics forms them from operator_h and inverse (bodies of a few velocities) */
  PetscErrorCode (*impulse)(MbBody, PetscInt, const MbBodyPoint[], const PetscReal[], PetscReal); /* with delassus: u += h A⁻¹ Σ s_j H_jᵀ R_j for the n points' reactions R (3n) */
  PetscErrorCode (*point_dofs)(
      MbBody, const PetscReal[3], PetscInt *,
      PetscInt[]); /* kinds whose output frames keep the whole state (nodal ones): the n ≤ MB_BODY_POINT_DOFS_MAX entries of q and u that point X's place, velocity and stress depend on (NULL: frames keep the frame state and the affine part) */
  PetscErrorCode (*point_state)(MbBody, const PetscReal[3], const PetscReal[], const PetscReal[], PetscReal[3], PetscReal[3],
                                PetscReal[9]);                    /* with point_dofs: X's place, velocity and Cauchy stress (row-major) for the values of q and u at those entries */
  PetscBool (*length_dof)(MbBody, PetscInt);                      /* whether velocity u_j is a length per time (a point's velocity) rather than an angular or strain rate: the curvature's length scale applies to it (NULL: every u_j is) */
  PetscErrorCode (*momentum)(MbBody, PetscReal[3], PetscReal[3]); /* angular (about the origin), linear */
  PetscErrorCode (*set_velocity)(MbBody, const PetscReal[3], const PetscReal[3], PetscBool);       /* u from the linear velocity of the mass centre and an angular velocity, spatial when the flag is true, else referential (either may be NULL) */
  PetscErrorCode (*transform)(MbBody, const PetscReal[9], const PetscReal[3], const PetscReal[3]); /* move the placement by x ↦ R(x − c) + c + d */
  PetscErrorCode (*bound)(MbBody, PetscReal[3], PetscReal *);                                      /* spatial centre and radius of a ball holding the body */
  PetscErrorCode (*disable_rotation)(MbBody);                                                      /* Solfec's BODY.disable_rotation 'ON': the rotation is not integrated from now on (b->norotation is set; NULL: the kind has no rotation to disable) */
  PetscErrorCode (*form)(MbBody, const char *);                                                    /* the kind's formulation by Solfec's name (finite elements: 'TL', 'BC'); NULL: the deck's form is ignored, as in Solfec */
  PetscInt (*work)(MbBody);                                                                        /* the body's own work a step (integration, forces), in rigid bodies' steps: the partition's first weight (NULL: max(1, nu/6)) */
  PetscErrorCode (*frame_state)(MbBody, PetscReal[12], PetscReal[6]);                              /* the 12 + 6 numbers an output frame keeps (NULL: q and u when nq = 12, nu = 6) */
  PetscErrorCode (*affine)(MbBody, PetscReal[24]);                                                 /* homogeneous motion: x = x̄ + A(X − X̄), ẋ = v + B(X − X̄) as [A, B, x̄, v] (A, B row-major); NULL: not homogeneous */
  PetscErrorCode (*acceleration)(MbBody, const PetscReal[], PetscReal[]);                          /* force schemes: a = A⁻¹(f − gyroscopic) at u (NULL: none apply) */
  PetscErrorCode (*advance)(MbBody, const PetscReal[], const PetscReal[], PetscReal[]);            /* force schemes: q = q0 ⊕ Δ (exp map for rotations) */
  /* deformable kinds (NULL for rigid ones) */
  PetscErrorCode (*material)(MbBody, PetscReal, PetscReal);                      /* Young's modulus, Poisson's ratio: checked and kept */
  PetscErrorCode (*internal)(MbBody, const PetscReal[], PetscReal[]);            /* f = f_int(q) + η K(q) u (the damping, seed 003), for u given */
  PetscErrorCode (*tangent)(MbBody, PetscReal[]);                                /* K = ∂f_int/∂q at q, dense nu×nu row-major (small kinds; a mesh will hand a Mat) */
  PetscErrorCode (*factor)(MbBody, PetscReal);                                   /* A = M + c K(q) for the inverse op (c = 0: A = M) */
  PetscErrorCode (*strain_energy)(MbBody, PetscReal *);                          /* stored energy at q */
  PetscErrorCode (*critical_step)(MbBody, PetscReal *);                          /* stability bound of DEF_EXP, damping included */
  PetscErrorCode (*stress)(MbBody, PetscReal[9]);                                /* mean Cauchy stress at q (row-major) */
  PetscErrorCode (*pack_size)(MbBody, size_t *);                                 /* bytes of the private data that travels (may be NULL: none) */
  PetscErrorCode (*pack)(MbBody, char *);                                        /* write it */
  PetscErrorCode (*unpack)(MbBody, const char *, size_t);                        /* read it into a body whose common part is unpacked */
  PetscErrorCode (*set_affine)(MbBody, const PetscReal[3], const PetscReal[24]); /* q and u of the homogeneous motion x = x̄ + A(X − Xc), ẋ = v + B(X − Xc) ([A, B, x̄, v], Xc given): RIGID_TO_FEM (NULL: the kind cannot take one) */
  PetscErrorCode (*frame_restore)(MbBody, const PetscReal[12], const PetscReal[6], const PetscReal[24], PetscInt, const PetscReal[]); /* q and u from a frame's conf, velo, affine and nodal state (NULL: q = conf, u = velo when nq = 12, nu = 6) */
  PetscErrorCode (*state_size)(MbBody, PetscInt *);                                                                                   /* numbers of the kind's own state beyond q and u that a checkpoint keeps (NULL: none) */
  PetscErrorCode (*state_get)(MbBody, PetscReal[]);                                                                                   /* write them */
  PetscErrorCode (*state_set)(MbBody, const PetscReal[], PetscInt);                                                                   /* read them back (restart) */
  PetscErrorCode (*modal)(MbBody, PetscInt, PetscReal[], PetscReal[]);             /* the n lowest eigenpairs of K₀φ = λMφ at the reference, M-orthonormal, λ ascending, φ one after another (NULL: the kind has none) */
  PetscErrorCode (*basis)(MbBody, PetscInt, const PetscReal[], const PetscReal[]); /* a base of n values and n vectors (one after another) for a reduced form (NULL: the kind takes none) */
  PetscErrorCode (*project)(MbBody, PetscReal[]);                                  /* DEF_EXP, DEF_LIM: a kind whose velocities are restricted to a subspace that turns with q projects u onto it at the body's q (NULL: none) */
  /* a kind that takes no reactions (not movable) but may be given a velocity (an obstacle):
     its motion is prescribed, a step at a time (NULL: it never moves) */
  PetscErrorCode (*drive_begin)(MbBody, PetscReal);                                         /* u0 = u, q0 = q, then q to mid-step, q(t + h/2) from u(t) */
  PetscErrorCode (*drive_velocity)(MbBody, PetscReal, PetscInt, const MbBodyVelocityRow[]); /* u(t + h): the free motion over h, made to satisfy the n rows (at the mid-step q) */
  PetscErrorCode (*drive_end)(MbBody, PetscReal);                                           /* q(t + h) from the mid-step q and u(t + h) */
};

/* A crack plane of Solfec-1.0's SIMPLIFIED_CRACK (lng.c, cra.c behaviour): the plane through
   point p with unit normal n (referential), the surface ids the two new faces would get, the
   tensile strength ft and the referential points where the normal stress n·σn is judged (one
   in each mesh element the plane crosses; the point p for a body without a mesh). */
typedef struct {
  PetscReal  p[3], n[3], ft;
  PetscInt   surfid[2];
  PetscBool  topoadj; /* only the patch of the section joined to p (the elements touching it) */
  PetscInt   np;      /* evaluation points */
  PetscReal *X;       /* 3·np */
} MbCrack;

typedef struct {
  MbLoadKind     kind;               /* force or torque */
  MbFrame        frame;              /* spatial or convected direction */
  PetscReal      X[3];               /* referential point of application (forces) */
  PetscReal      dir[3];             /* direction, scaled by the value */
  PetscReal      value;              /* constant magnitude when ts and fn are NULL */
  MbTimeSeries   ts;                 /* magnitude as a function of time, or NULL */
  MbLoadCallback fn;                 /* callback returning the rigid 9-tuple or the generalized force, or NULL */
  void          *ctx;                /* callback context */
  PetscErrorCode (*destroy)(void *); /* destroys ctx, or NULL */
  PetscInt ref;                      /* fn and ctx are entry ref of the domain's callback table (they
                                        migrate by that index), or −1 */
  PetscInt surfid;                   /* MB_LOAD_PRESSURE: the surface id it acts on */
} MbLoad;

struct _p_MbBody {
  PetscInt         id;         /* global id, from 0 in creation order */
  PetscInt         kind;       /* kinematic model: its code (MbBodyKindRegister) */
  const MbBodyOps *ops;        /* the model's operations */
  char            *label;      /* user label, or NULL */
  MbShape          shape;      /* reference shape (owned) */
  MbMassProps      mp;         /* mass, volume, X̄, E₀, J */
  PetscReal        Jinv[9];    /* J⁻¹ */
  PetscInt         nq, nu;     /* sizes of q and u */
  PetscReal       *q;          /* configuration */
  PetscReal       *u;          /* velocity */
  PetscReal       *q0;         /* configuration at the start of the step (scheme scratch) */
  PetscReal       *u0;         /* velocity at the start of the step (scheme scratch) */
  PetscReal       *fext;       /* external force of this step, for the work (scheme scratch) */
  PetscReal       *aux;        /* scheme scratch: rigid Ω(t+h/2) */
  PetscReal       *force;      /* generalized force at the current state (force schemes, forces.c) */
  PetscReal       *acc;        /* 3·nu: A⁻¹f at the current state, then two scheme history vectors */
  PetscBool        accok;      /* acc[0..nu) belongs to the current state */
  PetscReal        work;       /* accumulated work of external forces */
  PetscReal        damping;    /* stiffness-proportional damping (deformable) */
  PetscBool        norotation; /* BODY.disable_rotation: the kind's disable_rotation op holds the rotation (a rigid body: J⁻¹ = 0, which packing carries) */
  MbScheme         scheme;     /* time integrator (not owned) */
  PetscInt         nload;      /* number of loads */
  MbLoad          *load;       /* loads */
  void            *user;       /* user pointer (deck object) */
  PetscInt         mark;       /* scratch of the domain (ghost refresh stamp) */
  PetscReal        extent;     /* MbBodyExtent, 0 until computed (the shape and X̄ are fixed) */
  void            *data;       /* the kind's private data */
  PetscInt         ncrack;     /* SIMPLIFIED_CRACK planes (crack.c) */
  MbCrack         *crack;
};

/* The built-in kinds' registrations, each in its kind's folder, and the registry's (kind.c):
   all of them in code order, at MbInitialize; and its release, at MbFinalize. */
PETSC_INTERN PetscErrorCode MbBodyKindRegister_Rigid(void);
PETSC_INTERN PetscErrorCode MbBodyKindRegister_Obstacle(void);
PETSC_INTERN PetscErrorCode MbBodyKindRegister_PseudoRigid(void);
PETSC_INTERN PetscErrorCode MbBodyKindRegister_FiniteElement(void);
PETSC_INTERN PetscErrorCode MbBodyKindRegisterAll(void);
PETSC_INTERN PetscErrorCode MbBodyKindFinalizePackage(void);
/* The table of the kind with code k (NULL: no such kind). */
PETSC_INTERN const MbBodyOps *MbBodyKindOps(PetscInt k);
/* The code and table of the kind registered as name; an error names it and lists the
   registered kinds when there is none. */
PETSC_INTERN PetscErrorCode MbBodyKindFind(const char name[], PetscInt *code, const MbBodyOps **ops);
/* Allocate q, u and the scheme scratch for b->nq, b->nu (body.c). */
PETSC_INTERN PetscErrorCode MbBodyAllocState(MbBody);

/* Bytes of a packed body; pack into buf (MbBodyPackSize bytes); unpack a new body from
   buf (len bytes available), *used bytes consumed. A ghost (migrate false) carries what
   detection and W need; a migrating body also its loads (callbacks by their index in the
   domain's callback table: fn and ctx are NULL after unpacking, ref set) and the name of
   its scheme (scheme[0] = 0 when none or a ghost). See pack.c. */
PETSC_INTERN PetscErrorCode MbBodyPackSize(MbBody, PetscBool migrate, size_t *);
PETSC_INTERN PetscErrorCode MbBodyPack(MbBody, PetscBool migrate, char *, size_t *);
PETSC_INTERN PetscErrorCode MbBodyUnpack(const char *, size_t, size_t *, MbBody *, char scheme[64]);
/* A body packed (MbBodyPack: ghost or migrating) behind its size, and read back (scheme may be NULL). */
PETSC_INTERN PetscErrorCode MbBufPutBody(MbBuf *, MbBody, PetscBool migrate);
PETSC_INTERN PetscErrorCode MbBufGetBody(MbBuf *, size_t *, MbBody *, char scheme[64]);
/* A load given by entry ref (fn, ctx) of the domain's callback table (not destroyed here). */
PETSC_INTERN PetscErrorCode MbBodyAddLoadCallbackRef(MbBody, MbLoadCallback, void *, PetscInt ref);
/* Kinds with at most this many velocities take the constraint and load loops' per-point
   work (H, A⁻¹ of one vector) in stack buffers; larger ones allocate. */
#define MB_BODY_SMALL_NU 12
/* f += s Hᵀ P: the generalized force of the local force P (components in the frame base)
   at referential point X, scaled by s (f has nu entries). */
PETSC_INTERN PetscErrorCode MbBodyAddPointForce(MbBody, const PetscReal X[3], const PetscReal base[9], const PetscReal P[3], PetscReal s, PetscReal f[]);
/* Saint Venant–Kirchhoff's Lamé constants from Young's modulus E > 0 and Poisson's ratio
   ν ∈ (−1, ½) (seed 003), the deformable kinds' material op; errors name the body. */
static inline PetscErrorCode MbBodySvkLame(MbBody b, PetscReal E, PetscReal nu, PetscReal *lambda, PetscReal *mu)
{
  PetscFunctionBegin;
  PetscCheck(E > 0 && PetscIsNormalReal(E), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s body %" PetscInt_FMT ": Young's modulus must be > 0, got %g", b->ops->name, b->id, (double)E);
  PetscCheck(nu > -1 && nu < 0.5, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s body %" PetscInt_FMT ": Poisson's ratio must be in (-1, 0.5), got %g", b->ops->name, b->id, (double)nu);
  *lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  *mu     = E / (2 + 2 * nu);
  PetscFunctionReturn(PETSC_SUCCESS);
}
/* The referential point of spatial point x: the inverse of to_spatial. */
static inline PetscErrorCode MbBodyPointToReferential(MbBody b, const PetscReal x[3], PetscReal X[3]) { return b->ops->to_referential(b, -1, x, X); }
/* The same for a point found on primitive prim of the body's shape (a contact point). */
static inline PetscErrorCode MbBodyPrimPointToReferential(MbBody b, PetscInt prim, const PetscReal x[3], PetscReal X[3]) { return b->ops->to_referential(b, prim, x, X); }
/* Prefetching for loops that visit bodies out of their order in memory (by contact, by
   constraint): the struct a few iterations ahead, then, once it is in cache, its state
   (q and u, or q and u0 at the start of the step). Misses on these were most of such
   loops' time at 10,000 bodies (doc/benchmarks.md). */
static inline void MbBodyPrefetch(MbBody b)
{
  if (b) PetscPrefetchBlock(b, 1, 0, PETSC_PREFETCH_HINT_T0);
}
static inline void MbBodyPrefetchState(MbBody b, PetscBool start)
{
  if (!b) return;
  PetscPrefetchBlock(b->q, 12, 0, PETSC_PREFETCH_HINT_T0);
  PetscPrefetchBlock(start ? b->u0 : b->u, 6, 1, PETSC_PREFETCH_HINT_T0);
}
/* Bodies whose motion is prescribed (a moving obstacle; body.c): whether the body is one
   (it takes no reactions and its kind has the drive ops); the three stages of its step (see
   the ops); whether it is in motion now (a non-zero u: the local dynamics then adds its
   point velocities to B). */
PETSC_INTERN PetscBool      MbBodyIsDriven(MbBody);
PETSC_INTERN PetscErrorCode MbBodyDriveBegin(MbBody, PetscReal h);
PETSC_INTERN PetscErrorCode MbBodyDriveVelocity(MbBody, PetscReal h, PetscInt n, const MbBodyVelocityRow rows[]);
PETSC_INTERN PetscErrorCode MbBodyDriveEnd(MbBody, PetscReal h);
PETSC_INTERN PetscBool      MbBodyInMotion(MbBody);
/* Free the body's cracks (crack.c; a migrating body carries them, pack.c). */
PETSC_INTERN PetscErrorCode MbBodyCracksFree(MbBody);
/* Radius about the mass centre that holds the shape (ghost boxes, partition graph). */
PETSC_INTERN PetscReal MbBodyExtent(MbBody);
/* The points of a time series (borrowed). */
PETSC_INTERN PetscErrorCode MbTimeSeriesGetPoints(MbTimeSeries, PetscInt *, const PetscReal **, const PetscReal **);

#endif
