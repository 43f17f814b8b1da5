/* moreau — results: one HDF5 file per run written collectively by all ranks (parallel
   HDF5), OUTDIR/<name>.h5, and an XDMF index OUTDIR/<name>.xmf that ParaView opens as a
   time series. Layout: doc/output.md. */
#ifndef MOREAU_MBOUTPUT_H
#define MOREAU_MBOUTPUT_H

#include <moreau/mbdomain.h>

typedef struct _p_MbOutput *MbOutput;

/** Create OUTDIR (and parents) if needed and open OUTDIR/<name>.h5 and OUTDIR/<name>.xmf
    for writing, collectively; errors naming the directory when it cannot be created or
    written. Registers a domain monitor that writes a frame every `interval` of simulated
    time (0: every step), starting with the current state, and keeps /history current. */
PETSC_EXTERN PetscErrorCode MbOutputCreate(MbDomain dom, const char dir[], const char name[], PetscReal interval, MbOutput *out);
/** Change the frame interval (> 0, or 0 for every step). */
PETSC_EXTERN PetscErrorCode MbOutputSetInterval(MbOutput out, PetscReal interval);
/* Before a run of this duration: a one-time notice when it would write more than 10⁴ frames
   (a frame costs a few ms; README, Long runs). Collective. */
PETSC_EXTERN PetscErrorCode MbOutputNoticeRun(MbOutput out, PetscReal duration);
/** Write the /history records not yet written, rewrite the XDMF index, flush. Collective. */
PETSC_EXTERN PetscErrorCode MbOutputFlush(MbOutput out);
/** Mark the output's checkpoint (if any) as that of a deck that ran to its end: a restart
    from it is refused. Collective. */
PETSC_EXTERN PetscErrorCode MbOutputCheckpointFinished(MbOutput out);
/** Paths of the two files (borrowed). */
PETSC_EXTERN PetscErrorCode MbOutputGetPaths(MbOutput out, const char **h5, const char **xmf);
/** A global history series between t0 and t1 (inclusive): item is one of "TIME", "STEP",
    "KINETIC", "INTERNAL", "EXTERNAL", "CONTACT", "FRICTION", "ITERATIONS", "ERROR",
    "CONTACTS", "CURVATURE", "WALLTIME". Collective; every rank gets the same arrays, to be
    freed with PetscFree. Errors naming an unknown item. */
PETSC_EXTERN PetscErrorCode MbOutputReadHistory(MbOutput out, const char item[], PetscReal t0, PetscReal t1, PetscInt *n, PetscReal **t, PetscReal **v);
/** A series of referential point X of body id, sampled at the output frames between t0 and
    t1: item "CX", "CY", "CZ" (current coordinates), "DX", "DY", "DZ" (displacement x − X),
    "VX", "VY", "VZ" (velocity), Solfec's stress items "SX", "SY", "SZ", "SXY", "SXZ", "SYZ",
    "MISES" (the body's mean Cauchy stress), from the body's affine part. Bodies with a nodal
    state are read through MbOutputReadBodyState instead. Collective; same arrays on every
    rank (PetscFree). Errors naming an unknown item or body id. */
#define MB_OUTPUT_BODY_ITEMS "CX, CY, CZ, DX, DY, DZ, VX, VY, VZ, SX, SY, SZ, SXY, SXZ, SYZ, MISES"
/* The value of body item `item` at referential point X whose place is x, velocity v and
   Cauchy stress sig (row-major); known = false for an unknown item. */
PETSC_EXTERN PetscErrorCode MbOutputBodyItemValue(const char item[], const PetscReal X[3], const PetscReal x[3], const PetscReal v[3], const PetscReal sig[9], PetscReal *value, PetscBool *known);
PETSC_EXTERN PetscErrorCode MbOutputReadBody(MbOutput out, PetscInt id, const PetscReal X[3], const char item[], PetscReal t0, PetscReal t1, PetscInt *n, PetscReal **t, PetscReal **v);
/* For a body with a nodal state (MbBodyPointDofs): the entries col[0..n) of its q and u in
   every output frame between t0 and t1 (nf frames: times t, values q and u, n a frame,
   allocated). Collective: every rank passes the same arguments. */
PETSC_EXTERN PetscErrorCode MbOutputReadBodyState(MbOutput out, PetscInt id, PetscInt n, const PetscInt col[], PetscReal t0, PetscReal t1, PetscInt *nf, PetscReal **t, PetscReal **q, PetscReal **u);
/** A body's energy item "KINETIC", "INTERNAL" (strain energy) or "EXTERNAL" (work of the
    external forces on it) at the output frames between t0 and t1 (n values; t and v to
    PetscFree). Collective. */
PETSC_EXTERN PetscErrorCode MbOutputReadBodyEnergy(MbOutput out, PetscInt id, const char item[], PetscReal t0, PetscReal t1, PetscInt *n, PetscReal **t, PetscReal **v);
/** READ mode (src/io/read.c). Whether DIR/<name>.h5 holds results with a frame (an error
    naming the file when it is there but unreadable or frameless). Collective. */
PETSC_EXTERN PetscErrorCode MbOutputExists(MPI_Comm comm, const char dir[], const char name[], PetscBool *exists);
/** Open DIR/<name>.h5 for reading only: no frames are written, frames are read back into the
    domain's bodies by MbOutputReadFrame. Collective. */
PETSC_EXTERN PetscErrorCode MbOutputOpenRead(MbDomain dom, const char dir[], const char name[], MbOutput *out);
/** Frame f's state into the bodies of the domain (by id; a body the frame lacks keeps its
    state) and the domain's time and step count. Collective. */
PETSC_EXTERN PetscErrorCode MbOutputReadFrame(MbOutput out, PetscInt f);
/** READ mode: the constraints of the frame read last (borrowed; every rank holds all of
    them; none before the first frame is read). Their base is made from the stored normal
    (t1 ⟂ n from the coordinate axis least along n, t2 = n × t1) and R = baseᵀ·force, so
    base·R is the stored force; the tangential split is moreau's, not the run's. */
PETSC_EXTERN PetscErrorCode MbOutputGetFrameConstraints(MbOutput out, PetscInt *n, const MbConstraintInfo **info);
/** Frames in the file, the one read last (−1: none yet), the first and last frame times. */
PETSC_EXTERN PetscErrorCode MbOutputGetFrames(MbOutput out, PetscInt *n, PetscInt *cur, PetscReal *t0, PetscReal *t1);
/** The frame nearest time t (a tie: the later; before the first: the first; after the last:
    the last). */
PETSC_EXTERN PetscErrorCode MbOutputFrameAt(MbOutput out, PetscReal t, PetscInt *f);
/** INITIALIZE_STATE (rigid_to_fem false) and RIGID_TO_FEM (src/io/initstate.c): the
    domain's bodies take their state from the frame of DIR/<name>.h5 (another run's results)
    nearest time t, matched by id (all bodies: both runs must have as many), or, with
    nlabel >= 0, only the bodies whose label is one of labels[], matched by label. Same kinds
    take the frame's state bit for bit; with rigid_to_fem a FINITE_ELEMENT body takes its
    rigid counterpart's motion at its nodes. The clock is not changed. *tframe: the time of
    the frame read (may be NULL). Errors name the file, the time or the body. Collective. */
PETSC_EXTERN PetscErrorCode MbOutputInitializeState(MbDomain dom, const char dir[], const char name[], PetscReal t, PetscInt nlabel, const char *const labels[], PetscBool rigid_to_fem, PetscReal *tframe);
/** Flush and close both files; the monitor stops writing. Collective. */
PETSC_EXTERN PetscErrorCode MbOutputDestroy(MbOutput *out);
/** The ints of Solfec-1.0's mesh file at path in its HDF5 form (its TETRAHEDRALIZE's; msh.c
    MESH_Write): the dataset "compressed mesh data" of "data size" ints, in *data (*n of them;
    PetscFree it). An HDF5 file without them is an error naming the path. Not collective. */
PETSC_EXTERN PetscErrorCode MbSolfecMeshFileRead(const char path[], PetscInt *n, int **data);

#endif
