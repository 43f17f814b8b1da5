/* Constraints (ARCHITECTURE.md, constraint/): contacts found by detection each step and
   joints given by the deck, all turned into blocks of U = B + W R with a law (mbsolver.h).
   Convention (Solfec-1.0): body[0] is the master, body[1] the slave (or none, -1); the
   normal, third axis of the local frame, points from the slave towards the master; R is
   the reaction on the master (−R on the slave) in the local frame, and
   U = baseᵀ(ẋ_master − ẋ_slave) at the point, so U_N > 0 when the bodies separate. */
#ifndef MOREAU_CONSTRAINT_H
#define MOREAU_CONSTRAINT_H

#include <moreau/mbsolver.h>
#include <moreau/mbgeom.h>
#include <moreau/mbbody.h>
#include "../body/bodyimpl.h" /* MbBodyVelocityRow */

typedef enum { MB_CON_CONTACT = 0, MB_CON_FIXPNT, MB_CON_FIXDIR, MB_CON_VELODIR, MB_CON_RIGLNK, MB_CON_SPRING } MbConKind;
PETSC_EXTERN const char *const MbConKindNames[]; /* "CONTACT", "FIXPNT", ..., "SPRING" (a stop of a spring's limits) as Solfec */

/** One block row of the local dynamics, this step. */
typedef struct {
  MbConKind   kind;
  PetscInt    body[2];  /* master, slave ids (slave −1: the ground) */
  PetscInt    prim[2];  /* primitives of the two shapes (contacts) */
  PetscInt    feature;  /* narrow-phase feature (contacts) */
  PetscInt    joint;    /* index of the joint, −1 for contacts */
  PetscInt    surf[2];  /* surface ids (contacts) */
  PetscReal   X[2][3];  /* referential points on master and slave */
  PetscReal   point[3]; /* spatial point */
  PetscReal   base[9];  /* local frame, row-major with the axes as columns; normal third */
  PetscReal   gap;      /* signed gap (contacts), length error (rigid links) */
  PetscReal   V[3];     /* relative velocity at the start of the step */
  PetscReal   U[3];     /* relative velocity at the end of the step */
  PetscReal   R[3];     /* reaction on the master, local frame (warm start on input) */
  MbLaw       law;      /* law and bias */
  PetscMPIInt owner;    /* rank that owns the row */
  PetscInt    row;      /* global block row */
} MbCon;

/** A joint as the deck gave it. Points are spatial at creation; referential points are
    fixed at the first step. */
typedef struct {
  MbConKind    kind;
  PetscInt     body[2];
  PetscReal    p[2][3];                                       /* spatial points given by the deck */
  PetscReal    X[2][3];                                       /* referential points (after resolving) */
  PetscReal    dir[3];                                        /* spatial unit direction (FIXDIR, VELODIR) */
  PetscReal    length;                                        /* rigid link length; FIXDIR between two bodies: the offset n·(x₁ − x₂) to keep */
  PetscReal    D[3];                                          /* FIXDIR between two bodies: the direction in the master's referential frame */
  PetscReal    value;                                         /* prescribed velocity (VELODIR) when ts and fn are NULL */
  MbTimeSeries ts;                                            /* prescribed velocity as a time series */
  PetscErrorCode (*fn)(void *ctx, PetscReal t, PetscReal *v); /* or as a callback */
  void *ctx;
  PetscErrorCode (*destroy)(void *);
  PetscBool resolved; /* X and length are set */
  PetscReal R[3];     /* last reaction (warm start) */
  PetscBool removed;  /* DELETE: no rows from now on (the index stays the joint's) */
} MbJoint;

/** A surface material for a pair of surface ids (either −1: any). */
typedef struct {
  PetscInt  surf[2];
  PetscInt  model; /* 0 SIGNORINI_COULOMB, 1 SPRING_DASHPOT */
  PetscReal friction, cohesion, restitution, spring, dashpot;
  PetscReal hpow; /* SPRING_DASHPOT: the spring force k·(−gap)^hpow (1: linear; 1.5: Hertz) */
} MbSurfMat;

/** A spring (PUT_SPRING): a force F along the line between two points, F > 0 pushing them
    apart; on body[0] it is F·n, on body[1] −F·n, with n the unit vector from point 2 to
    point 1 (or the fixed direction). The stroke s = ℓ − ℓ₀ (ℓ the current length, or the
    projection of x₁ − x₂ on the fixed direction; ℓ₀ the rest length, by default ℓ at the first step), and ṡ its
    rate. F = −k s − c ṡ (linear) or F = fn(s, ṡ) (a callback); F = 0 while s lies outside
    the active range act (moreau's active=; (−∞, ∞) unless given).
    The limits [lo, hi] (Solfec-1.0's limits) are hard stops: the stroke may not pass them.
    Each finite limit is a frictionless unilateral row of the constraint solver when the
    stroke comes near it (MbSpringStopRows), perfectly plastic (restitution 0), so only the
    RIG_* schemes, which solve constraints, can take them. */
typedef struct {
  PetscInt  body[2];                                                                       /* body ids; body[1] = −1: point 2 is fixed in space */
  PetscReal p[2][3];                                                                       /* spatial points given by the deck */
  PetscReal X[2][3];                                                                       /* referential points (after resolving) */
  PetscReal dir[3];                                                                        /* fixed spatial unit direction, or zero: along the line of the points */
  PetscReal length0;                                                                       /* ℓ₀ */
  PetscReal rest;                                                                          /* ℓ₀ as given, or NaN: the length at the first step */
  PetscReal k, c;                                                                          /* linear spring and dashpot (>= 0), when fn is NULL */
  PetscReal lo, hi;                                                                        /* stroke limits (hard stops); ±∞: none */
  PetscReal act[2];                                                                        /* the spring acts for act[0] <= s <= act[1] */
  PetscErrorCode (*fn)(void *ctx, PetscReal stroke, PetscReal velocity, PetscReal *force); /* or a callback */
  void *ctx;
  PetscErrorCode (*destroy)(void *);
  PetscBool resolved;                /* X and length0 are set */
  PetscReal stroke, velocity, force; /* of the last evaluation */
} MbSpring;

/** Resolve the referential points and ℓ₀ of spring sp (index for messages) from its spatial
    points with the bodies (b[1] may be NULL) in their current placement. Errors on a spring
    of zero length without a fixed direction. */
PETSC_INTERN PetscErrorCode MbSpringResolve(MbSpring *sp, PetscInt index, MbBody b[2]);
/** Evaluate the spring at the bodies' current q and u (u0 when start): stroke, rate, force
    (stored in sp) and the unit direction n. t for messages. */
PETSC_INTERN PetscErrorCode MbSpringEvaluate(MbSpring *sp, PetscInt index, MbBody b[2], PetscBool start, PetscReal t, PetscReal n[3]);
/** The energy stored in a linear spring at stroke s (zero for callbacks): ½k(clamp(s)² − clamp(0)²),
    clamped to the active range. */
PETSC_INTERN PetscReal MbSpringPotential(const MbSpring *sp, PetscReal s);
/** The force of the spring (−n·F on the slave) as a generalized force added to f of body b
    (side 0 or 1). */
PETSC_INTERN PetscErrorCode MbSpringAddForce(const MbSpring *sp, MbBody b, int side, const PetscReal n[3], PetscReal f[]);

/** Whether the spring has a finite limit (a hard stop). */
PETSC_INTERN PetscBool MbSpringHasStops(const MbSpring *sp);
/** The rows of spring sp's stops that may act in the step of length h, at the bodies' current
    (mid-step) placement and velocities: *n (0, 1 or 2) rows in c[], the lower limit first.
    A row's normal is ±n, so that U_N is the rate at which the stroke leaves the limit, and
    its law is frictionless Signorini with Ū_N = U_N + max(g, 0)/h, g the distance of the
    stroke from the limit at t+h/2 (> 0 on the allowed side): the RIG_* schemes' next
    mid-step placement q(t+h) + (h/2)u(t+h) = q(t+h/2) + h u(t+h), where the stop is
    detected again, reaches the limit and no further; restitution 0. t for messages, index
    the spring's number. */
PETSC_INTERN PetscErrorCode MbSpringStopRows(MbSpring *sp, PetscInt index, MbBody b[2], PetscReal t, PetscReal h, MbCon c[2], PetscInt *n);

/** Orthonormal frame with normal n as the third axis; t1 hint (may be NULL) is projected
    on the tangent plane and kept when it does not vanish, so frames persist across steps. */
PETSC_INTERN void MbConFrame(const PetscReal n[3], const PetscReal t1hint[3], PetscReal base[9]);
/** Relative velocity at the constraint, using each body's current u (or u0 when start). */
PETSC_INTERN PetscErrorCode MbConVelocity(MbCon *c, MbBody b[2], PetscBool start, PetscReal U[3]);
/** Fill c (everything but R, owner, row) for joint j at time t (end of step t+h for
    prescribed velocities) with bodies b (slave may be NULL). */
PETSC_INTERN PetscErrorCode MbJointToConstraint(MbJoint *j, PetscInt index, MbBody b[2], PetscReal t, PetscReal h, MbCon *c);
/** The prescribed velocities of joint j on a single body b whose motion is prescribed (a
    moving obstacle, which takes no reactions: its joints make no rows of W) at time t, step
    h: the rows' velocities U = −bias of MbJointToConstraint along the axes its law holds
    (three for FIX_POINT, the normal for the others), as dir·ẋ(X) = value; *n of them. */
PETSC_INTERN PetscErrorCode MbJointVelocityRows(MbJoint *j, PetscInt index, MbBody b, PetscReal t, PetscReal h, PetscInt *n, MbBodyVelocityRow rows[3]);
/** Resolve the referential points of a joint from its spatial points (bodies at rest pose
    of now); a rigid link shorter than geps glues its points (length 0: a fixed point
    between the two bodies, as Solfec-1.0). */
PETSC_INTERN PetscErrorCode MbJointResolve(MbJoint *j, MbBody b[2], PetscReal geps);
/** The material for surfaces (s1, s2): the last matching pair, else the last default,
    else frictionless Signorini. */
PETSC_INTERN const MbSurfMat *MbSurfMatFind(PetscInt n, const MbSurfMat mats[], PetscInt s1, PetscInt s2);

#endif
