/* moreau — bodies. One MbBody per body, with an ops table per kinematic model (a kind:
   src/body/<kind>/, registered by name from its folder, MbBodyKindRegister).
   Rigid layout as in Solfec-1.0: q = [Λ column-wise (9), x̄ (3)], u = [Ω (3), v (3)],
   Ω the referential angular velocity, v the spatial velocity of the mass centre.
   Pseudo-rigid layout as in Solfec-1.0's code: q = [F row-wise (9), x̄ (3)],
   u = [Ḟ row-wise (9), v (3)], F the deformation gradient, x = F(X − X̄) + x̄
   (Solfec's user manual says column-wise; src/body/pseudo_rigid/pseudo_rigid.c). */
#ifndef MOREAU_MBBODY_H
#define MOREAU_MBBODY_H

#include <moreau/mbshape.h>

typedef struct _p_MbBody   *MbBody;
typedef struct _p_MbScheme *MbScheme;

/* The built-in body kinds, by registered name (MbBodyCreate takes any registered name). */
#define MBBODYRIGID "RIGID"
#define MBBODYOBSTACLE "OBSTACLE"
#define MBBODYPSEUDORIGID "PSEUDO_RIGID"
#define MBBODYFINITEELEMENT "FINITE_ELEMENT"

/* A kind's operations (src/body/bodyimpl.h, the header a kind is written against). */
typedef struct _n_MbBodyOps MbBodyOps;

/** Register a body kind by name with its ops table (kept, not copied; its name field must be
    name), PETSc style. The kind's code, which results files keep in /bodies/kind, is the
    number of kinds registered before it: MbInitialize registers RIGID 0, OBSTACLE 1,
    PSEUDO_RIGID 2, FINITE_ELEMENT 3, so later kinds take 4 on. Registering a name again
    replaces its ops and keeps its code. Errors name what the table lacks. Not collective,
    but every rank must register the same kinds in the same order (bodies travel by code). */
PETSC_EXTERN PetscErrorCode MbBodyKindRegister(const char name[], const MbBodyOps *ops);
/** The number of registered kinds, and the name of the one with code k (an error names a
    code out of range). */
PETSC_EXTERN PetscErrorCode MbBodyKindGetCount(PetscInt *n);
PETSC_EXTERN PetscErrorCode MbBodyKindGetName(PetscInt code, const char **name);
/** The registered names, comma-separated in code order, into buf (for messages). */
PETSC_EXTERN PetscErrorCode MbBodyKindListNames(char buf[], size_t len);

/** What the deck asks of a kind before any body of it exists. */
typedef struct {
  const char        *name;     /* registered name */
  PetscInt           code;     /* its code (/bodies/kind of results files) */
  PetscInt           nq, nu;   /* sizes of q and u; per node of the body's mesh when nodal */
  PetscBool          nodal;    /* a body's shape is its mesh (a MESH or HEX), its state nodal */
  PetscBool          movable;  /* integrated (an obstacle is not): takes reactions and loads */
  PetscBool          velocity; /* takes a velocity (an obstacle does: it then moves as prescribed, a moving obstacle) */
  PetscBool          elastic;  /* takes Young's modulus and Poisson's ratio (MbBodySetMaterial) */
  PetscBool          torque;   /* takes torques (MB_LOAD_TORQUE) */
  PetscBool          pressure; /* takes pressures on its surface (MbBodyAddPressure) */
  PetscBool          rotation; /* its rotation can be left unintegrated (MbBodyDisableRotation) */
  const char        *scheme;   /* default scheme; NULL: the domain's rigid default (a movable kind) or none */
  const char *const *forms;    /* formulations by Solfec's name (MbBodySetForm): name, description pairs, NULL-terminated, the default first; NULL: none */
} MbBodyKindInfo;
/** The properties of kind name; an error names it and lists the registered kinds when it is
    not one. Not collective. */
PETSC_EXTERN PetscErrorCode MbBodyKindGetInfo(const char name[], MbBodyKindInfo *info);

typedef enum { MB_LOAD_FORCE = 0, MB_LOAD_TORQUE = 1, MB_LOAD_PRESSURE = 2 } MbLoadKind;
typedef enum { MB_FRAME_SPATIAL = 0, MB_FRAME_CONVECTED = 1 } MbFrame;

/** A load callback at (q, u, t) with step h. It fills out (room for max(9, nu) numbers) and
    sets *n (9 on entry) to what it filled: 9 = (spatial force at the mass centre, spatial
    torque, referential torque), for any kind; or nu = the generalized force itself, for a
    deformable kind (Solfec-1.0's convention for pseudo-rigid bodies: 12 numbers). Returning
    an error stops the run with that error. */
typedef PetscErrorCode (*MbLoadCallback)(void *ctx, MbBody body, const PetscReal q[], const PetscReal u[], PetscReal t, PetscReal h, PetscInt *n, PetscReal out[]);

/** A scalar function of time: a constant, or piecewise linear through (t_k, v_k) (held
    constant outside the table). */
typedef struct _p_MbTimeSeries *MbTimeSeries;
PETSC_EXTERN PetscErrorCode     MbTimeSeriesCreate(PetscInt n, const PetscReal t[], const PetscReal v[], MbTimeSeries *ts);
PETSC_EXTERN PetscErrorCode     MbTimeSeriesEvaluate(MbTimeSeries ts, PetscReal t, PetscReal *v);
PETSC_EXTERN PetscErrorCode     MbTimeSeriesReference(MbTimeSeries ts);
PETSC_EXTERN PetscErrorCode     MbTimeSeriesDestroy(MbTimeSeries *ts);

/** Create a body of the kind registered as kind (MBBODYRIGID, ...) from a shape (the body
    takes a reference to it; the caller keeps its own) with uniform density rho; mass
    properties come from the shape. id is the global body id; label may be NULL. An unknown
    kind is an error that lists the registered ones. Not collective. */
PETSC_EXTERN PetscErrorCode MbBodyCreate(PetscInt id, const char kind[], MbShape shape, PetscReal rho, const char label[], MbBody *body);
PETSC_EXTERN PetscErrorCode MbBodyDestroy(MbBody *body);
/** Override mass characteristics (Solfec's BODY_CHARS): mass > 0, volume > 0, centre,
    inertia J (symmetric positive definite, about the centre). Resets the configuration to
    identity rotation at the new centre. */
PETSC_EXTERN PetscErrorCode MbBodySetChars(MbBody body, PetscReal mass, PetscReal volume, const PetscReal center[3], const PetscReal inertia[9]);
PETSC_EXTERN PetscErrorCode MbBodyGetId(MbBody body, PetscInt *id);
/** The body's kind: its registered name, and its code (MbBodyKindRegister). */
PETSC_EXTERN PetscErrorCode MbBodyGetKind(MbBody body, const char **kind);
PETSC_EXTERN PetscErrorCode MbBodyGetKindCode(MbBody body, PetscInt *code);
PETSC_EXTERN PetscErrorCode MbBodyGetLabel(MbBody body, const char **label);
PETSC_EXTERN PetscErrorCode MbBodyGetShape(MbBody body, MbShape *shape);
/** Mass properties (mass, volume, referential centre, Euler tensor, inertia J). */
PETSC_EXTERN PetscErrorCode MbBodyGetMassProps(MbBody body, MbMassProps *mp);
/** Sizes of the configuration and velocity vectors. */
PETSC_EXTERN PetscErrorCode MbBodyGetSizes(MbBody body, PetscInt *nq, PetscInt *nu);
/** Borrowed pointers to the configuration q and velocity u (writable: setting them sets
    the state). */
PETSC_EXTERN PetscErrorCode MbBodyGetState(MbBody body, PetscReal **q, PetscReal **u);
/** Set the velocity from the spatial velocity of the mass centre and a referential (body
    frame) angular velocity Ω (either may be NULL): rigid u = [Ω, v], pseudo-rigid
    Ḟ = F hat(Ω), the motion ẋ = F(Ω × (X − X̄)) + v. */
PETSC_EXTERN PetscErrorCode MbBodySetVelocity(MbBody body, const PetscReal linear[3], const PetscReal angular[3]);
/** The same with a spatial angular velocity ω (Solfec's INITIAL_VELOCITY): rigid Ω = Λᵀω,
    pseudo-rigid Ḟ = hat(ω)F. */
PETSC_EXTERN PetscErrorCode MbBodySetSpatialVelocity(MbBody body, const PetscReal linear[3], const PetscReal angular[3]);
/** Kinetic energy ½uᵀMu. */
PETSC_EXTERN PetscErrorCode MbBodyKineticEnergy(MbBody body, PetscReal *ek);
/** Work of external forces accumulated since creation. */
PETSC_EXTERN PetscErrorCode MbBodyGetExternalWork(MbBody body, PetscReal *w);
/** Spatial angular momentum about the origin (ΛJΩ + x̄ × m v) and linear momentum m v. */
PETSC_EXTERN PetscErrorCode MbBodyMomentum(MbBody body, PetscReal angular[3], PetscReal linear[3]);
/** Current spatial position x of the referential point X. */
PETSC_EXTERN PetscErrorCode MbBodyPointToSpatial(MbBody body, const PetscReal X[3], PetscReal x[3]);
/** The current (spatial) vertices of primitive k of the body's shape, 3 per vertex (a
    sphere: its centre; an ellipsoid: its centre and the ends of its three semi-axes), in the
    order of the reference ones. */
PETSC_EXTERN PetscErrorCode MbBodyPrimToSpatial(MbBody body, PetscInt k, PetscReal x[]);
/** Check that q (nq numbers) is a configuration of the body's kind: a rotation (to 1e-8)
    and a place for rigid bodies, a deformation gradient with det > 0 for pseudo-rigid ones;
    the error names the values. */
PETSC_EXTERN PetscErrorCode MbBodyCheckConfiguration(MbBody body, const PetscReal q[]);
/** The velocities of primitive k's vertices (3 each; a sphere: its centre's; an ellipsoid:
    its centre's and its semi-axes' ends'). */
PETSC_EXTERN PetscErrorCode MbBodyPrimVelocity(MbBody body, PetscInt k, PetscReal v[]);
/** The mean Cauchy stress over primitive k (row-major; an element of a finite-element body,
    the whole body for the homogeneous kinds, zero for rigid ones). */
PETSC_EXTERN PetscErrorCode MbBodyPrimStress(MbBody body, PetscInt k, PetscReal sigma[9]);
/** Spatial velocity of the referential point X. */
PETSC_EXTERN PetscErrorCode MbBodyPointVelocity(MbBody body, const PetscReal X[3], PetscReal v[3]);
/** H operator at referential point X in the local frame whose columns are base (row-major
    3×3, spatial axes as columns): U = H u, H is 3×nu row-major. */
PETSC_EXTERN PetscErrorCode MbBodyOperatorH(MbBody body, const PetscReal X[3], const PetscReal base[9], PetscReal H[]);
/** y = A⁻¹ x, the inverse generalized inertia (zero for obstacles). */
PETSC_EXTERN PetscErrorCode MbBodyInverseInertia(MbBody body, const PetscReal x[], PetscReal y[]);
/** Generalized external force at the current state and time t (gravity g included):
    for rigid bodies f = [Λᵀ(torques about x̄) + referential torques, forces]. */
PETSC_EXTERN PetscErrorCode MbBodyExternalForce(MbBody body, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal f[]);
/** Add a point force (kind MB_LOAD_FORCE, at referential point X) or a torque
    (MB_LOAD_TORQUE, X ignored) along dir, spatial or convected, of magnitude given by a
    constant (ts == NULL) or a time series ts. */
PETSC_EXTERN PetscErrorCode MbBodyAddLoad(MbBody body, MbLoadKind kind, MbFrame frame, const PetscReal X[3], const PetscReal dir[3], PetscReal value, MbTimeSeries ts);
/** A pressure p (value, or ts(t) when ts is given) on the faces of the body's boundary with
    surface id surfid, in the current placement (a follower load), with the sign of Solfec-1.0's
    PRESSURE (its fem.c): the traction is p n with n the outward normal, so p < 0 pushes into
    the body. Errors for a kind without a surface mesh (only FINITE_ELEMENT bodies take it). */
PETSC_EXTERN PetscErrorCode MbBodyAddPressure(MbBody body, PetscInt surfid, PetscReal value, MbTimeSeries ts);
/** Add a callback load (see MbLoadCallback); destroy(ctx) is called when the body goes. */
PETSC_EXTERN PetscErrorCode MbBodyAddLoadCallback(MbBody body, MbLoadCallback fn, void *ctx, PetscErrorCode (*destroy)(void *));
/** Set the time integration scheme (the body does not own it). Errors when the scheme does
    not apply to the body's kind. */
PETSC_EXTERN PetscErrorCode MbBodySetScheme(MbBody body, MbScheme scheme);
PETSC_EXTERN PetscErrorCode MbBodyGetScheme(MbBody body, MbScheme *scheme);
/** Whether the body is integrated and takes reactions and loads (obstacles are not). */
PETSC_EXTERN PetscBool MbBodyIsMovable(MbBody body);
/** Whether the body takes a velocity (MbBodySetVelocity): every movable kind, and obstacles,
    which then move kinematically with it (Solfec-1.0's moving obstacle). */
PETSC_EXTERN PetscBool MbBodyTakesVelocity(MbBody body);
/* The body's own work a step (its integration and forces) in rigid bodies' steps: 1 for a
   rigid body, nu/6 for a pseudo-rigid one, and for a finite-element body its quadrature
   points besides (the load balance's first weight). */
PETSC_EXTERN PetscInt MbBodyWork(MbBody body);
/* The body's formulation by Solfec-1.0's name (BODY's form=): a FINITE_ELEMENT body takes
   'TL' (total Lagrangian, the default) or 'BC' (body co-rotational), before it first moves;
   the other kinds ignore it, as Solfec does. */
PETSC_EXTERN PetscErrorCode MbBodySetForm(MbBody body, const char *form);
/** The scheme a body of this kind gets when the deck sets none: a name, or NULL for the
    domain's rigid default (-mb_scheme), or NULL for an obstacle (MbBodyIsMovable false);
    before any body of a kind exists, MbBodyKindGetInfo says it. */
PETSC_EXTERN PetscErrorCode MbBodyGetDefaultScheme(MbBody body, const char **name);
/** Modal analysis (Solfec-1.0's MODAL_ANALYSIS): the n lowest eigenpairs of K φ = λ M φ,
    K the stiffness at the reference configuration, M the lumped masses (the body's
    constraints play no part): lambda (n, ascending, λ = ω²) and V (n vectors of nu numbers,
    one after another, M-orthonormal). Errors for a kind without stiffness, n outside
    [1, nu], or a body too large for the dense eigensolver. Not collective. */
PETSC_EXTERN PetscErrorCode MbBodyModalAnalysis(MbBody body, PetscInt n, PetscReal lambda[], PetscReal V[]);
/** The base of a reduced form ('BC-MODAL', 'BC-RO' of a FINITE_ELEMENT body): n values and
    n vectors of nu numbers, one after another (MbBodyModalAnalysis's answer, or a subset);
    the body's velocity is projected on it. Errors for a kind that takes none. */
PETSC_EXTERN PetscErrorCode MbBodySetBasis(MbBody body, PetscInt n, const PetscReal values[], const PetscReal vectors[]);
/** Elastic constants of a deformable body (Saint Venant–Kirchhoff, seed 003): Young's
    modulus > 0 and Poisson's ratio in (−1, 0.5); errors name the value. Ignored by rigid
    kinds. Not collective. */
PETSC_EXTERN PetscErrorCode MbBodySetMaterial(MbBody body, PetscReal young, PetscReal poisson);
/** Stored (strain) energy at the current configuration; 0 for rigid kinds. */
PETSC_EXTERN PetscErrorCode MbBodyStrainEnergy(MbBody body, PetscReal *energy);
/** Stability bound of the explicit scheme DEF_EXP for this body, damping included
    (PETSC_MAX_REAL for kinds without one). */
PETSC_EXTERN PetscErrorCode MbBodyCriticalStep(MbBody body, PetscReal *h);
/** Mean Cauchy stress (row-major 3×3) of a deformable body; *has is false (and sigma zero)
    for kinds without stress. */
PETSC_EXTERN PetscErrorCode MbBodyGetStress(MbBody body, PetscReal sigma[9], PetscBool *has);
/** Move the body's placement rigidly: x ↦ R(x − c) + c + d (R a rotation). */
PETSC_EXTERN PetscErrorCode MbBodyTransform(MbBody body, const PetscReal R[9], const PetscReal c[3], const PetscReal d[3]);
/** The 12 + 6 numbers an output frame keeps of the body (doc/output.md): rigid q and
    u = [Ω, v]; pseudo-rigid q = [F row-wise, x̄] and [ω, v], ω the spin axial(skew(ḞF⁻¹)). */
PETSC_EXTERN PetscErrorCode MbBodyGetFrameState(MbBody body, PetscReal q[12], PetscReal u[6]);
/** Set q and u from what an output frame keeps of the body (doc/output.md): its conf, velo
    and affine rows, and its nodal state (n numbers, q then u; n = 0 for bodies without one).
    READ mode seeks with it. */
PETSC_EXTERN PetscErrorCode MbBodySetFrameState(MbBody body, const PetscReal conf[12], const PetscReal velo[6], const PetscReal affine[24], PetscInt n, const PetscReal nodal[]);
/** Put the body in the homogeneous motion x = x̄ + A(X − Xc), ẋ = v + B(X − Xc), m = [A, B, x̄, v]
    as MbBodyGetAffine gives it (A, B row-major) and Xc a referential centre: RIGID_TO_FEM
    maps an earlier run's rigid motion onto a finite-element body so. An error naming the body
    for kinds that cannot take one (their state is not a field over the reference places). */
PETSC_EXTERN PetscErrorCode MbBodySetAffine(MbBody body, const PetscReal Xc[3], const PetscReal m[24]);
/** Whether the body's kind takes a homogeneous motion (MbBodySetAffine). */
PETSC_EXTERN PetscBool MbBodyTakesAffine(MbBody body);
/** The motion of a homogeneously moving body (rigid, pseudo-rigid) as 24 numbers
    [A, B, x̄, v]: x = x̄ + A(X − X̄), ẋ = v + B(X − X̄), A and B row-major. Output frames keep
    it, so that points of any such body can be followed without knowing its kind. */
PETSC_EXTERN PetscErrorCode MbBodyGetAffine(MbBody body, PetscReal m[24]);
/** A ball holding the body in its current placement: centre and radius. */
#define MB_BODY_POINT_DOFS_MAX 384 /* the most entries MbBodyPointDofs gives: 128 nodes × 3 (a mesh node's stress is the mean over the elements around it) */
/* Kinds with a nodal state (FINITE_ELEMENT), whose output frames keep all of q and u: the
   n ≤ MB_BODY_POINT_DOFS_MAX entries of q and u that referential point X's place, velocity and stress depend
   on (has = false, n = 0 for the other kinds; an error when X is outside the body). At a
   mesh node they are those of all the elements around it. */
PETSC_EXTERN PetscErrorCode MbBodyPointDofs(MbBody body, const PetscReal X[3], PetscInt *n, PetscInt col[], PetscBool *has);
/* X's place x, velocity v and Cauchy stress sigma (row-major) when q and u have the values
   qc and uc at the entries MbBodyPointDofs gave (any of x, v, sigma may be NULL). */
PETSC_EXTERN PetscErrorCode MbBodyPointState(MbBody body, const PetscReal X[3], const PetscReal qc[], const PetscReal uc[], PetscReal x[3], PetscReal v[3], PetscReal sigma[9]);
PETSC_EXTERN PetscErrorCode MbBodyBound(MbBody body, PetscReal center[3], PetscReal *radius);

/** A crack plane (Solfec-1.0's SIMPLIFIED_CRACK with criterion 'TENSILE'): the plane through
    the referential point with normal (non-zero, any length) cracks the body when the tensile
    stress normal to it, n·σn, exceeds ft at one of its points in the body: the centre of
    its section through each mesh element it crosses (topoadj: only the elements of the
    section's patch joined to the point), or the point itself for a body without a mesh
    (pseudo-rigid stress is homogeneous). surfid: the surface ids the new faces would get
    below and above the plane. Errors for a kind without stress (rigid, obstacle), a zero
    normal, a non-finite ft or point, or a plane that misses the body. Not collective. */
PETSC_EXTERN PetscErrorCode MbBodyAddCrack(MbBody body, const PetscReal point[3], const PetscReal normal[3], const PetscInt surfid[2], PetscReal ft, PetscBool topoadj);
/** The number of the body's crack planes. */
PETSC_EXTERN PetscErrorCode MbBodyGetCrackCount(MbBody body, PetscInt *n);
/** Judge the body's crack planes at its current state, in the order they were added: *k is
    the first one whose criterion is met (−1: none), with the tension n·σn there and the
    referential point X where it is largest on that plane. Not collective. */
PETSC_EXTERN PetscErrorCode MbBodyCrackCheck(MbBody body, PetscInt *k, PetscReal *tension, PetscReal X[3]);
/** Crack plane k's point, unit normal and tensile strength (any output may be NULL). */
PETSC_EXTERN PetscErrorCode MbBodyGetCrack(MbBody body, PetscInt k, PetscReal point[3], PetscReal normal[3], PetscReal *ft);

/** Opaque user pointer (the deck's Python object, say). */
PETSC_EXTERN PetscErrorCode MbBodySetUserData(MbBody body, void *ctx);
PETSC_EXTERN PetscErrorCode MbBodyGetUserData(MbBody body, void **ctx);

/** Stiffness-proportional damping of deformable bodies (Solfec's body.damping), >= 0; kept
    but without effect on rigid bodies. Not collective. */
PETSC_EXTERN PetscErrorCode MbBodySetDamping(MbBody body, PetscReal damping);
/** Solfec-1.0's BODY.disable_rotation = 'ON' (bod.c: "disable integration of rotation for
    rigid bodies"): the body's rotation stays where it is and its angular velocity zero from
    now on, for good; an error for a kind without it (MbBodyKindInfo's rotation). */
PETSC_EXTERN PetscErrorCode MbBodyDisableRotation(MbBody body);
PETSC_EXTERN PetscErrorCode MbBodyGetDamping(MbBody body, PetscReal *damping);

#endif
