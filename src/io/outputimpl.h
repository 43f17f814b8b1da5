/* Private layout of MbOutput and the HDF5 error discipline shared by output.c and xdmf.c.
   File layout: doc/output.md. */
#ifndef MOREAU_OUTPUTIMPL_H
#define MOREAU_OUTPUTIMPL_H

#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <errno.h>
#include <hdf5.h>
#include <moreau/mboutput.h>

/* What the system said when an HDF5 call failed (the write under it set errno): ": no space
   left on device" and the like, or "" (the failure was HDF5's own). */
static inline const char *MbH5Reason(void)
{
  switch (errno) {
  case ENOSPC:
    return ": no space left on device";
  case EDQUOT:
    return ": disk quota exceeded";
  case EIO:
    return ": input/output error";
  case EACCES:
  case EPERM:
    return ": permission denied";
  case EROFS:
    return ": read-only file system";
  default:
    return "";
  }
}

/* Call an HDF5 function returning herr_t, htri_t or hid_t; a negative result raises a PETSc
   error naming the function and the object (dataset or group path) it worked on:
   MbH5Call(H5Dclose, (dset), "/frames/000001/conf"). */
#define MbH5Call(fn, args, obj)                                                                                                                                                                                                                          \
  do {                                                                                                                                                                                                                                                   \
    errno = 0;                                                                                                                                                                                                                                           \
    if ((fn args) < 0) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 %s failed on '%s'%s", #fn, (obj), MbH5Reason());                                                                                                                                    \
  } while (0)
/* The same for calls whose result is kept: var = fn args. */
#define MbH5Get(var, fn, args, obj)                                                                                                                                                                                                                      \
  do {                                                                                                                                                                                                                                                   \
    errno = 0;                                                                                                                                                                                                                                           \
    if (((var) = fn args) < 0) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 %s failed on '%s'%s", #fn, (obj), MbH5Reason());                                                                                                                            \
  } while (0)

/* What the XDMF index needs to know of one mesh version (/mesh/MMMMMM): global sizes. */
typedef struct {
  int64_t nbody;  /* bodies (rows of the frames' id, conf, velo) */
  int64_t npts;   /* surface points (vertices of convex pieces) */
  int64_t ncells; /* surface cells (triangles and quadrilaterals) */
  int64_t ntopo;  /* length of the Mixed topology array */
  int64_t nsph;   /* sphere primitives */
} MbOutMesh;

/* One written frame (/frames/NNNNNN). */
typedef struct {
  PetscReal time;  /* simulated time */
  PetscInt  steps; /* steps taken (READ mode) */
  PetscInt  mesh;  /* index of the mesh version it uses */
  int64_t   ncon;  /* constraints (contact points) in the frame */
} MbOutFrame;

/* Ties the output to its domain monitor: whichever of the two goes first cuts the tie. */
typedef struct {
  MbOutput out; /* NULL once the output is destroyed: the monitor does nothing */
} MbOutLink;

struct _p_MbOutput {
  MbDomain          dom;                      /* the domain; NULL once it is destroyed */
  MPI_Comm          comm;                     /* the domain's communicator */
  PetscMPIInt       rank, size;               /* this rank, number of ranks */
  char              dir[PETSC_MAX_PATH_LEN];  /* output directory */
  char              name[PETSC_MAX_PATH_LEN]; /* run name: <name>.h5, <name>.xmf */
  char              h5[PETSC_MAX_PATH_LEN];   /* DIR/<name>.h5 */
  char              xmf[PETSC_MAX_PATH_LEN];  /* DIR/<name>.xmf */
  hid_t             file;                     /* the HDF5 file, opened with the MPI-IO driver */
  hid_t             dxpl;                     /* collective transfer property list */
  hid_t             label_type;               /* fixed-length string type of /bodies/label */
  PetscReal         interval;                 /* simulated time between frames (0: every step) */
  PetscBool         noticed;                  /* the many-frames notice was printed */
  PetscReal         next;                     /* time the next frame is due */
  PetscInt          last_step;                /* domain step count at the last frame, -1 before */
  PetscInt          nframe, fcap;             /* frames written, allocated */
  MbOutFrame       *frame;                    /* frames written */
  PetscInt          nmesh, mcap;              /* mesh versions written, allocated */
  MbOutMesh        *mesh;                     /* mesh versions */
  PetscInt          lay_n;                    /* layout of the current mesh: local body count ... */
  PetscInt         *lay_id;                   /* ... and local body ids in order */
  PetscInt          body_ids;                 /* /bodies holds every body with id below this */
  int64_t           body_rows;                /* rows of /bodies */
  PetscInt          nhist;                    /* /history records written */
  FILE             *xfp;                      /* the XDMF index (rank 0) */
  long              xtail;                    /* offset of the closing tags in the XDMF file */
  MbOutLink        *link;                     /* tie to the domain monitor, NULL once cut */
  double            framebytes;               /* bytes the last frame added to the file (the room checked for the next) */
  PetscBool         restored;                 /* reopened by a restart (MbOutputReopen) */
  PetscBool         readonly;                 /* READ mode (read.c): nothing is written */
  PetscInt          cur;                      /* READ mode: the frame read last (−1: none) */
  PetscInt          nrcon;                    /* READ mode: the constraints of frame cur ... */
  MbConstraintInfo *rcon;                     /* ... as the frame keeps them (read.c) */
  PetscReal         flush_wall;               /* seconds of rank 0's clock between flushes (-mb_output_flush; 0: every frame) */
  PetscLogDouble    last_flush;               /* rank 0's clock at the last flush */
  PetscInt          xdone;                    /* frames in the XDMF index (those flushed) */
  char              chk[PETSC_MAX_PATH_LEN];  /* DIR/<name>.chk: the checkpoint file */
};

/* output.c: an attribute of loc; a dataset gpath/name of rows × cols (cols 0: 1-D) made and
   this rank's n rows written at row off (collective). path/gpath name them in messages. */
PETSC_INTERN PetscErrorCode MbH5WriteAttr(hid_t loc, const char *name, hid_t type, const void *val, const char *path);
PETSC_INTERN PetscErrorCode MbH5WriteAttrString(hid_t loc, const char *name, const char *s, const char *path);
PETSC_INTERN PetscErrorCode MbH5WriteAttrInt(hid_t loc, const char *name, int64_t v, const char *path);
PETSC_INTERN PetscErrorCode MbH5WriteDataset(MbOutput out, hid_t loc, const char *gpath, const char *name, hid_t type, int cols, int64_t rows, int64_t off, int64_t n, const void *buf);
/* output.c: the whole 1-D or 2-D dataset path of file as type (every rank; *cols 0 for 1-D;
   buf to PetscFree), and an attribute */
PETSC_INTERN PetscErrorCode MbH5ReadAll(MbOutput out, hid_t file, const char *path, hid_t type, size_t elemsize, int64_t *rows, int *cols, void **buf);
PETSC_INTERN PetscErrorCode MbH5ReadAttr(hid_t loc, const char *name, hid_t type, void *v, const char *path);
/* DIR/<name><ext> (no doubled '/'), the one place the output's file names are made */
static inline PetscErrorCode MbOutputPath(char buf[], size_t len, const char dir[], const char name[], const char ext[])
{
  size_t n = strlen(dir);
  return PetscSNPrintf(buf, len, "%s%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name, ext);
}
/* read.c: the whole of dataset gp/name as doubles (every rank, v to PetscFree), or *n = −1
   when it is not there; collective */
PETSC_INTERN PetscErrorCode MbOutputReadFrameArray(MbOutput out, const char *gp, const char *name, int64_t *n, double **v);
/* output.c: the metadata cache of the results file (fapl: its access list) */
PETSC_INTERN PetscErrorCode MbOutputCacheConfig(hid_t fapl, const char *path);
/* output.c: the first n records of /history back from the file (to PetscFree); collective */
PETSC_INTERN PetscErrorCode MbOutputReadHistoryRecords(MbOutput out, PetscInt n, MbHistory **h);
/* output.c: free room on dir's file system against need bytes, an error naming `what` */
PETSC_INTERN PetscErrorCode MbOutputCheckRoom(MbOutput out, const char *dir, double need, const char *what);
/* checkpoint.c: the domain's checkpointer (ctx: the MbOutLink); a restart's file reopened
   (instead of created) from checkpoint file chk, the XDMF index rewritten, the domain told
   where to resume. Collective. */
PETSC_INTERN PetscErrorCode MbOutputCheckpoint(MbDomain, void *);
PETSC_INTERN PetscErrorCode MbOutputReopen(MbOutput out, const char chk[]);

/* XDMF index (xdmf.c), written by rank 0; collective so that every rank sees an error. */
PETSC_INTERN PetscErrorCode MbXdmfOpen(MbOutput out);
PETSC_INTERN PetscErrorCode MbXdmfAddFrame(MbOutput out, PetscInt f);
PETSC_INTERN PetscErrorCode MbXdmfClose(MbOutput out);

#endif
