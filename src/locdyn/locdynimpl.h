/* Private layout of MbLocDyn. */
#ifndef MOREAU_LOCDYNIMPL_H
#define MOREAU_LOCDYNIMPL_H

#include <moreau/mblocdyn.h>
#include "../constraint/conset.h"
#include "../body/bodymap.h"

struct _p_MbLocDyn {
  MPI_Comm         comm;       /* all ranks of the run */
  PetscMPIInt      rank, size; /* this rank, number of ranks */
  MbConSet         cs;         /* the rows of the last MbLocDynAssemble (not owned) */
  const MbBodyMap *map;        /* their bodies by id (not owned) */
  PetscReal        h;          /* the step W was formed for */
  Mat              W;          /* W = h H A⁻¹ Hᵀ, block size 3 */
  Vec              B, R, U;    /* free velocity, reaction, velocity after */
  MbLaw           *law;        /* laws of the local rows */
  Vec              Rfor;       /* R of the rows in the set's fcon (sequential) */
  VecScatter       forscat;    /* R -> Rfor */
  PetscInt        *wkey;       /* structure of W (per row: the bodies) when it was made */
  PetscInt         nwkey;
  PetscInt         wdense;             /* bodies with more constraints insert their blocks of W row by row (-mb_locdyn_dense_max) */
  PetscBool        wsimd;              /* a body's dense blocks of W made with AVX2 where the CPU has it (-mb_locdyn_simd) */
  PetscInt         wnb;                /* this step: owned movable bodies with constraints, wbid[], */
  PetscInt        *wbid, *wptr, *wadj; /* their constraints (Row indices) wadj[wptr[i]..wptr[i+1]) */
  PetscInt        *wside;              /* per entry of wadj: the body's side of that constraint, 0 master, 1 slave (a self-contact row has both entries) */
  PetscInt        *wgoff;              /* per entry of wadj: where its G starts in wG (entries of a body of nu velocities are 3 nu apart) */
  PetscReal       *wG;                 /* per entry of wadj: A⁻¹(s H)ᵀ of that body (nu×3, stored transposed: 3 rows of nu), for W and u */
  PetscInt        *woff;               /* while W keeps its structure: per body of wbid with at most wdense constraints, its deg×deg
                                          blocks' places in W's diagonal SeqBAIJ value array (−1: not there), found once after the
                                          first assembly of a W kept from the step before (PlacesFind) */
  PetscInt *wooff;                     /* per such body, where its deg² places start in woff (wnb + 1; −1: row by row, no places) */
  PetscInt *wkey2;                     /* the adjacency (wnb, wbid, wptr, wadj) the places were found for */
  PetscInt  nwkey2;
  PetscBool woff_valid; /* woff holds the places for the current W and adjacency */
};

#endif
