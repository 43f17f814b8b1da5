/* FCLIB problems (HDF5) read into moreau's layout.

   /fclib_local: W (a sparse matrix), vectors/q, vectors/mu, spacedim;
   /fclib_global: M, H, vectors/f, vectors/w, vectors/mu: M v = H r + f, u = Hᵀ v + w, so
     W = Hᵀ M⁻¹ H and q = Hᵀ M⁻¹ f + w (M factored by PETSc's LU, one solve per column of H);
   /solution/{r,u} when present.
   A sparse matrix is a group with m, n, nz, p, i, x: nz = −2 compressed rows (p the m + 1
   row pointers, i column indices), nz = −1 compressed columns, nz ≥ 0 nz triplets (i rows,
   p columns). A mass matrix with entries on one side of the diagonal only (as the LMGC
   dumps store it) is taken as symmetric.

   FCLIB orders each contact's components normal first (n, t1, t2); moreau's normal is the
   third, so rows and columns are permuted to (t1, t2, n).

   Nothing from the file is trusted: sizes, pointers and indices are checked against each other
   and against the datasets' lengths, and every real must be finite, before any is used; the
   error names the file, the dataset, the entry and the value (issue 23).

   Every rank reads the whole file (the problems are small) and inserts its own block rows
   of W, q, r, u; prob->law holds all n contacts (pass law + first local block to solvers). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <hdf5.h>
#include <petscksp.h>
#include "solverimpl.h"

/* FCLIB component k of a contact goes to moreau's component Perm[k] */
static const PetscInt Perm[3] = {2, 0, 1};
#define PERM(k) (3 * ((k) / 3) + Perm[(k) % 3])

typedef struct {
  PetscInt   m, n, nnz; /* rows, columns, entries */
  PetscInt  *row, *col; /* triplets */
  PetscReal *val;
} Triplets;

static PetscErrorCode TripletsFree(Triplets *t)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(t->row, t->col, t->val));
  t->nnz = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Does path exist (every component)? */
static PetscBool Exists(hid_t fid, const char path[])
{
  char   buf[256];
  size_t n = strlen(path);
  if (n >= sizeof(buf)) return PETSC_FALSE;
  for (size_t k = 1; k <= n; k++) {
    if (k < n && path[k] != '/') continue;
    memcpy(buf, path, k);
    buf[k] = 0;
    if (H5Lexists(fid, buf, H5P_DEFAULT) <= 0) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* A dataset's element count, or an error naming the file and the missing dataset. */
static PetscErrorCode DatasetSize(MPI_Comm comm, hid_t fid, const char file[], const char path[], hid_t *did, PetscInt *n)
{
  hid_t    sid;
  hssize_t np;
  PetscFunctionBegin;
  PetscCheck(Exists(fid, path), comm, PETSC_ERR_FILE_UNEXPECTED, "'%s' is not a complete FCLIB problem: dataset %s is missing", file, path);
  *did = H5Dopen2(fid, path, H5P_DEFAULT);
  PetscCheck(*did >= 0, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s is not a dataset", file, path);
  sid = H5Dget_space(*did);
  np  = sid >= 0 ? H5Sget_simple_extent_npoints(sid) : -1;
  if (sid >= 0) H5Sclose(sid);
  if (np < 0 || np >= PETSC_MAX_INT) H5Dclose(*did);
  PetscCheck(np >= 0, comm, PETSC_ERR_FILE_READ, "'%s': cannot read the size of %s", file, path);
  PetscCheck(np < PETSC_MAX_INT, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s has %lld entries, more than a PetscInt counts", file, path, (long long)np);
  *n = (PetscInt)np;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read an integer dataset of exactly `want` entries (want < 0: any) into a new array; every
   entry must be an integer that fits a PetscInt (HDF5 would silently clip or truncate it). */
static PetscErrorCode ReadInts(MPI_Comm comm, hid_t fid, const char file[], const char path[], PetscInt want, PetscInt *n, PetscInt **v)
{
  hid_t       did, tid;
  H5T_class_t cls;
  long long  *buf;
  PetscFunctionBegin;
  PetscCall(DatasetSize(comm, fid, file, path, &did, n));
  tid = H5Dget_type(did);
  cls = tid >= 0 ? H5Tget_class(tid) : H5T_NO_CLASS;
  if (tid >= 0) H5Tclose(tid);
  if (cls != H5T_INTEGER || (want >= 0 && *n != want)) H5Dclose(did);
  PetscCheck(cls == H5T_INTEGER, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s is not an integer dataset", file, path);
  PetscCheck(want < 0 || *n == want, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s has %" PetscInt_FMT " entries, expected %" PetscInt_FMT, file, path, *n, want);
  PetscCall(PetscMalloc1(*n + 1, &buf));
  PetscCall(PetscMalloc1(*n + 1, v));
  herr_t st = *n ? H5Dread(did, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) : 0;
  H5Dclose(did);
  PetscCheck(st >= 0, comm, PETSC_ERR_FILE_READ, "'%s': cannot read %s as integers", file, path);
  for (PetscInt k = 0; k < *n; k++) {
    PetscCheck(buf[k] >= PETSC_MIN_INT && buf[k] <= PETSC_MAX_INT, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s[%" PetscInt_FMT "] = %lld does not fit a PetscInt", file, path, k, buf[k]);
    (*v)[k] = (PetscInt)buf[k];
  }
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadInt(MPI_Comm comm, hid_t fid, const char file[], const char path[], PetscInt *v)
{
  PetscInt n, *a;
  PetscFunctionBegin;
  PetscCall(ReadInts(comm, fid, file, path, 1, &n, &a));
  *v = a[0];
  PetscCall(PetscFree(a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A real as the user wrote it, for messages: C's %g (PETSc's %g prints 1 as "1."). */
static const char *RealString(PetscReal v, char buf[], size_t len)
{
  snprintf(buf, len, "%g", (double)v);
  return buf;
}

/* Read a real dataset of exactly `want` entries (want < 0: any; its count in *n when n is not
   NULL) into a new array; every entry must be finite (denormals are). */
static PetscErrorCode ReadReals(MPI_Comm comm, hid_t fid, const char file[], const char path[], PetscInt want, PetscInt *n, PetscReal **v)
{
  hid_t    did;
  PetscInt nv;
  char     s[32];
  PetscFunctionBegin;
  PetscCall(DatasetSize(comm, fid, file, path, &did, &nv));
  if (want >= 0 && nv != want) H5Dclose(did);
  PetscCheck(want < 0 || nv == want, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s has %" PetscInt_FMT " entries, expected %" PetscInt_FMT, file, path, nv, want);
  PetscCall(PetscMalloc1(nv + 1, v));
  herr_t st = nv ? H5Dread(did, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *v) : 0;
  H5Dclose(did);
  PetscCheck(st >= 0, comm, PETSC_ERR_FILE_READ, "'%s': cannot read %s as reals", file, path);
  for (PetscInt k = 0; k < nv; k++) PetscCheck(isfinite((*v)[k]), comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s[%" PetscInt_FMT "] = %s is not finite", file, path, k, RealString((*v)[k], s, sizeof(s)));
  if (n) *n = nv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An FCLIB sparse matrix group as triplets: sizes, pointers and indices checked against each
   other and the lengths of p, i, x before any of them is used. */
static PetscErrorCode ReadSparse(MPI_Comm comm, hid_t fid, const char file[], const char group[], Triplets *t)
{
  char       path[256];
  PetscInt   nz, np, ni, nx, *p, *ix;
  PetscReal *x;
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/m", group));
  PetscCall(ReadInt(comm, fid, file, path, &t->m));
  PetscCheck(t->m >= 0, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s = %" PetscInt_FMT " is negative (rows)", file, path, t->m);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/n", group));
  PetscCall(ReadInt(comm, fid, file, path, &t->n));
  PetscCheck(t->n >= 0, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s = %" PetscInt_FMT " is negative (columns)", file, path, t->n);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/nz", group));
  PetscCall(ReadInt(comm, fid, file, path, &nz));
  PetscCheck(nz >= -2, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s = %" PetscInt_FMT "; expected -2 (compressed rows), -1 (compressed columns) or the number of triplets (>= 0)", file, path, nz);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/p", group));
  PetscCall(ReadInts(comm, fid, file, path, -1, &np, &p));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/i", group));
  PetscCall(ReadInts(comm, fid, file, path, -1, &ni, &ix));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/x", group));
  PetscCall(ReadReals(comm, fid, file, path, -1, &nx, &x));
  if (nz >= 0) { /* triplets: i rows, p columns */
    PetscCheck(np >= nz, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/p has %" PetscInt_FMT " entries, fewer than the %" PetscInt_FMT " triplets of %s/nz", file, group, np, nz, group);
    PetscCheck(ni >= nz, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/i has %" PetscInt_FMT " entries, fewer than the %" PetscInt_FMT " triplets of %s/nz", file, group, ni, nz, group);
    PetscCheck(nx >= nz, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/x has %" PetscInt_FMT " entries, fewer than the %" PetscInt_FMT " triplets of %s/nz", file, group, nx, nz, group);
    for (PetscInt k = 0; k < nz; k++) {
      PetscCheck(ix[k] >= 0 && ix[k] < t->m, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/i[%" PetscInt_FMT "] = %" PetscInt_FMT " is outside the rows 0..%" PetscInt_FMT " of %s/m", file, group, k, ix[k], t->m - 1, group);
      PetscCheck(p[k] >= 0 && p[k] < t->n, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/p[%" PetscInt_FMT "] = %" PetscInt_FMT " is outside the columns 0..%" PetscInt_FMT " of %s/n", file, group, k, p[k], t->n - 1, group);
    }
    t->nnz = nz;
  } else { /* compressed rows (−2) or columns (−1): p[o]..p[o+1] index i and x */
    PetscBool   rows  = nz == -2 ? PETSC_TRUE : PETSC_FALSE;
    PetscInt    outer = rows ? t->m : t->n, inner = rows ? t->n : t->m;
    const char *what = rows ? "row" : "column", *other = rows ? "column" : "row";
    PetscCheck(np - 1 == outer, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/p has %" PetscInt_FMT " entries, expected %lld (%s/%s + 1) for compressed %ss", file, group, np, (long long)outer + 1, group, rows ? "m" : "n", what);
    for (PetscInt o = 0; o <= outer; o++) {
      PetscCheck(p[o] >= 0, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/p[%" PetscInt_FMT "] = %" PetscInt_FMT " is negative", file, group, o, p[o]);
      PetscCheck(p[o] <= ni, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/p[%" PetscInt_FMT "] = %" PetscInt_FMT " is past the end of %s/i (%" PetscInt_FMT " entries)", file, group, o, p[o], group, ni);
      PetscCheck(o > 0 || p[0] == 0, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/p[0] = %" PetscInt_FMT "; compressed %s pointers start at 0", file, group, p[0], what);
      PetscCheck(o == 0 || p[o] >= p[o - 1], comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/p[%" PetscInt_FMT "] = %" PetscInt_FMT " is less than p[%" PetscInt_FMT "] = %" PetscInt_FMT "; %s pointers must not decrease", file, group, o, p[o], o - 1,
                 p[o - 1], what);
    }
    t->nnz = p[outer];
    PetscCheck(nx >= t->nnz, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/x has %" PetscInt_FMT " entries, fewer than the %" PetscInt_FMT " of %s/p[%" PetscInt_FMT "]", file, group, nx, t->nnz, group, outer);
    for (PetscInt k = 0; k < t->nnz; k++)
      PetscCheck(ix[k] >= 0 && ix[k] < inner, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s/i[%" PetscInt_FMT "] = %" PetscInt_FMT " is outside the %ss 0..%" PetscInt_FMT " of %s/%s", file, group, k, ix[k], other, inner - 1, group, rows ? "n" : "m");
  }
  PetscCall(PetscMalloc3(t->nnz + 1, &t->row, t->nnz + 1, &t->col, t->nnz + 1, &t->val));
  if (nz >= 0) {
    for (PetscInt k = 0; k < nz; k++) t->row[k] = ix[k], t->col[k] = p[k], t->val[k] = x[k];
  } else {
    PetscInt outer = nz == -2 ? t->m : t->n;
    for (PetscInt o = 0; o < outer; o++)
      for (PetscInt k = p[o]; k < p[o + 1]; k++) {
        t->row[k] = nz == -2 ? o : ix[k];
        t->col[k] = nz == -2 ? ix[k] : o;
        t->val[k] = x[k];
      }
  }
  PetscCall(PetscFree(p));
  PetscCall(PetscFree(ix));
  PetscCall(PetscFree(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareKeys(const void *a, const void *b)
{
  const PetscInt64 *x = (const PetscInt64 *)a, *y = (const PetscInt64 *)b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* W (3n × 3n triplets in FCLIB order) → a MATBAIJ on comm, permuted, every diagonal block
   present; duplicates are summed. */
static PetscErrorCode BuildW(MPI_Comm comm, PetscInt n, const Triplets *t, Mat *W)
{
  PetscInt64 *key; /* (block row · n + block col) · 9 + position, and the entry index */
  PetscInt    nloc = PETSC_DECIDE, N = n, bstart, bend, *dnnz, *onnz, nk = 0;
  PetscFunctionBegin;
  PetscCall(PetscSplitOwnership(comm, &nloc, &N));
  PetscCallMPI(MPI_Scan(&nloc, &bend, 1, MPIU_INT, MPI_SUM, comm));
  bstart = bend - nloc;
  PetscCall(PetscMalloc1(2 * (t->nnz + n), &key));
  for (PetscInt k = 0; k < t->nnz; k++) {
    PetscInt r = PERM(t->row[k]), c = PERM(t->col[k]);
    if (r / 3 < bstart || r / 3 >= bend) continue;
    key[2 * nk]     = ((PetscInt64)(r / 3) * n + c / 3) * 9 + 3 * (r % 3) + c % 3;
    key[2 * nk + 1] = k;
    nk++;
  }
  for (PetscInt b = bstart; b < bend; b++) { /* the diagonal blocks, as explicit zeros */
    key[2 * nk]     = ((PetscInt64)b * n + b) * 9;
    key[2 * nk + 1] = -1;
    nk++;
  }
  if (nk) qsort(key, (size_t)nk, 2 * sizeof(PetscInt64), CompareKeys); /* key is NULL for no contacts */
  PetscCall(PetscCalloc2(nloc, &dnnz, nloc, &onnz));
  for (PetscInt k = 0; k < nk; k++) {
    PetscInt64 blk = key[2 * k] / 9;
    if (k > 0 && key[2 * (k - 1)] / 9 == blk) continue;
    PetscInt r = (PetscInt)(blk / n), c = (PetscInt)(blk % n);
    if (c >= bstart && c < bend)
      dnnz[r - bstart]++;
    else
      onnz[r - bstart]++;
  }
  PetscCall(MatCreateBAIJ(comm, 3, 3 * nloc, 3 * nloc, 3 * n, 3 * n, 0, dnnz, 0, onnz, W));
  PetscCall(MatSetOption(*W, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  for (PetscInt k = 0; k < nk;) { /* one block at a time */
    PetscInt64 blk  = key[2 * k] / 9;
    PetscReal  v[9] = {0};
    for (; k < nk && key[2 * k] / 9 == blk; k++)
      if (key[2 * k + 1] >= 0) v[key[2 * k] % 9] += t->val[key[2 * k + 1]];
    PetscInt r = (PetscInt)(blk / n), c = (PetscInt)(blk % n);
    PetscCall(MatSetValuesBlocked(*W, 1, &r, 1, &c, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*W, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*W, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(key));
  PetscCall(PetscFree2(dnnz, onnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A vector of 3n entries in FCLIB order → a Vec with W's layout, permuted. */
static PetscErrorCode BuildVec(Mat W, const PetscReal v[], Vec *x)
{
  PetscInt     lo, hi;
  PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(MatCreateVecs(W, NULL, x));
  PetscCall(VecGetOwnershipRange(*x, &lo, &hi));
  PetscCall(VecGetArray(*x, &a));
  for (PetscInt k = lo; k < hi; k++) a[k - lo] = 0;
  for (PetscInt k = 3 * (lo / 3); k < hi; k++) { /* a[PERM(k)] = v[k] */
    PetscInt j = PERM(k);
    if (j >= lo && j < hi) a[j - lo] = v[k];
  }
  PetscCall(VecRestoreArray(*x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sequential AIJ from triplets (duplicates summed). */
static PetscErrorCode TripletsToAIJ(const Triplets *t, PetscBool symmetrize, Mat *A)
{
  PetscInt *nnz;
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(t->m + 1, &nnz));
  for (PetscInt k = 0; k < t->nnz; k++) {
    nnz[t->row[k]]++;
    if (symmetrize && t->row[k] != t->col[k]) nnz[t->col[k]]++;
  }
  for (PetscInt r = 0; r < t->m; r++) nnz[r] = PetscMin(nnz[r], t->n);
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, t->m, t->n, 0, nnz, A));
  for (PetscInt k = 0; k < t->nnz; k++) {
    PetscCall(MatSetValue(*A, t->row[k], t->col[k], t->val[k], ADD_VALUES));
    if (symmetrize && t->row[k] != t->col[k]) PetscCall(MatSetValue(*A, t->col[k], t->row[k], t->val[k], ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W = Hᵀ M⁻¹ H as triplets and q = Hᵀ M⁻¹ f + w (FCLIB order), on every rank alone. */
static PetscErrorCode GlobalToLocal(MPI_Comm comm, const char file[], const Triplets *Mt, const Triplets *Ht, const PetscReal f[], const PetscReal w[], Triplets *Wt, PetscReal q[])
{
  Mat                M, H, F;
  Vec                h, x, col;
  IS                 rperm, cperm;
  MatFactorInfo      info;
  PetscInt           lower = 0, upper = 0, m = Ht->n, cap, *cp, *ci;
  const PetscScalar *c;
  PetscScalar       *a;
  char               s[32];
  PetscFunctionBegin;
  PetscAssert(Mt->m == Mt->n && Ht->m == Mt->m, comm, PETSC_ERR_PLIB, "M and H are checked by the caller");
  for (PetscInt k = 0; k < Mt->nnz; k++) {
    if (Mt->row[k] < Mt->col[k]) upper++;
    if (Mt->row[k] > Mt->col[k]) lower++;
  }
  PetscCall(TripletsToAIJ(Mt, (upper == 0) != (lower == 0) ? PETSC_TRUE : PETSC_FALSE, &M));
  PetscCall(TripletsToAIJ(Ht, PETSC_FALSE, &H));
  PetscCall(MatGetFactor(M, MATSOLVERPETSC, MAT_FACTOR_LU, &F));
  PetscCall(MatGetOrdering(M, MATORDERINGND, &rperm, &cperm));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatLUFactorSymbolic(F, M, rperm, cperm, &info));
  PetscCall(MatLUFactorNumeric(F, M, &info));
  {
    MatFactorError ferr;
    PetscCall(MatFactorGetError(F, &ferr));
    PetscCheck(ferr == MAT_FACTOR_NOERROR, comm, PETSC_ERR_MAT_LU_ZRPVT, "'%s': the mass matrix M (%" PetscInt_FMT " x %" PetscInt_FMT ") is singular", file, Mt->m, Mt->n);
  }
  PetscCall(MatCreateVecs(M, &x, &h));
  PetscCall(MatCreateVecs(H, &col, NULL));
  /* H's columns (CSC) */
  PetscCall(PetscCalloc1(m + 1, &cp));
  PetscCall(PetscMalloc1(Ht->nnz + 1, &ci));
  for (PetscInt k = 0; k < Ht->nnz; k++) cp[Ht->col[k] + 1]++;
  for (PetscInt j = 0; j < m; j++) cp[j + 1] += cp[j];
  {
    PetscInt *next;
    PetscCall(PetscMalloc1(m, &next));
    for (PetscInt j = 0; j < m; j++) next[j] = cp[j];
    for (PetscInt k = 0; k < Ht->nnz; k++) ci[next[Ht->col[k]]++] = k;
    PetscCall(PetscFree(next));
  }
  cap   = 16 * m + 16;
  Wt->m = Wt->n = m;
  Wt->nnz       = 0;
  PetscCall(PetscMalloc3(cap, &Wt->row, cap, &Wt->col, cap, &Wt->val));
  for (PetscInt j = 0; j < m; j++) { /* column j of W: Hᵀ M⁻¹ H e_j */
    PetscCall(VecZeroEntries(h));
    PetscCall(VecGetArray(h, &a));
    for (PetscInt k = cp[j]; k < cp[j + 1]; k++) a[Ht->row[ci[k]]] += Ht->val[ci[k]];
    PetscCall(VecRestoreArray(h, &a));
    PetscCall(MatSolve(F, h, x));
    PetscCall(MatMultTranspose(H, x, col));
    PetscCall(VecGetArrayRead(col, &c));
    for (PetscInt i = 0; i < m; i++) {
      if (c[i] == 0) continue;
      if (Wt->nnz == cap) { /* grow */
        PetscInt  *r2, *c2;
        PetscReal *v2;
        PetscCall(PetscMalloc3(2 * cap, &r2, 2 * cap, &c2, 2 * cap, &v2));
        PetscCall(PetscArraycpy(r2, Wt->row, cap));
        PetscCall(PetscArraycpy(c2, Wt->col, cap));
        PetscCall(PetscArraycpy(v2, Wt->val, cap));
        PetscCall(PetscFree3(Wt->row, Wt->col, Wt->val));
        Wt->row = r2, Wt->col = c2, Wt->val = v2, cap *= 2;
      }
      PetscCheck(isfinite(PetscRealPart(c[i])), comm, PETSC_ERR_FP, "'%s': W = H^T M^-1 H has W[%" PetscInt_FMT "][%" PetscInt_FMT "] = %s: is the mass matrix M nearly singular?", file, i, j, RealString(PetscRealPart(c[i]), s, sizeof(s)));
      Wt->row[Wt->nnz] = i, Wt->col[Wt->nnz] = j, Wt->val[Wt->nnz] = PetscRealPart(c[i]);
      Wt->nnz++;
    }
    PetscCall(VecRestoreArrayRead(col, &c));
  }
  /* q = Hᵀ M⁻¹ f + w */
  PetscCall(VecGetArray(h, &a));
  for (PetscInt i = 0; i < Mt->m; i++) a[i] = f[i];
  PetscCall(VecRestoreArray(h, &a));
  PetscCall(MatSolve(F, h, x));
  PetscCall(MatMultTranspose(H, x, col));
  PetscCall(VecGetArrayRead(col, &c));
  for (PetscInt i = 0; i < m; i++) {
    q[i] = PetscRealPart(c[i]) + w[i];
    PetscCheck(isfinite(q[i]), comm, PETSC_ERR_FP, "'%s': q = H^T M^-1 f + w has q[%" PetscInt_FMT "] = %s: is the mass matrix M nearly singular?", file, i, RealString(q[i], s, sizeof(s)));
  }
  PetscCall(VecRestoreArrayRead(col, &c));
  PetscCall(PetscFree(cp));
  PetscCall(PetscFree(ci));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&h));
  PetscCall(VecDestroy(&col));
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem of an open file; every size, index and value is checked before it is used. */
static PetscErrorCode ReadProblem(MPI_Comm comm, hid_t fid, const char file[], MbFclibProblem *prob)
{
  PetscInt    nmu, dim;
  PetscReal  *mu = NULL, *q = NULL;
  Triplets    Wt = {0};
  const char *g  = prob->global ? "/fclib_global" : "/fclib_local";
  char        path[64], s[32];
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/spacedim", g));
  if (Exists(fid, path)) {
    PetscCall(ReadInt(comm, fid, file, path, &dim));
    PetscCheck(dim == 3, comm, PETSC_ERR_SUP, "'%s': %s = %" PetscInt_FMT "; only 3-D problems are supported", file, path, dim);
  }
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/vectors/mu", g));
  PetscCall(ReadReals(comm, fid, file, path, -1, &nmu, &mu));
  PetscCheck(nmu <= PETSC_MAX_INT / 3 - 1, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s has %" PetscInt_FMT " entries (contacts); their 3 rows each do not fit a PetscInt", file, path, nmu);
  for (PetscInt k = 0; k < nmu; k++) PetscCheck(mu[k] >= 0, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': %s[%" PetscInt_FMT "] = %s is negative; a friction coefficient must be >= 0", file, path, k, RealString(mu[k], s, sizeof(s)));
  prob->n = nmu;
  PetscCall(PetscMalloc1(3 * nmu + 1, &q));
  if (!prob->global) {
    PetscReal *ql;
    PetscCall(ReadSparse(comm, fid, file, "/fclib_local/W", &Wt));
    PetscCheck(Wt.m == 3 * nmu && Wt.n == 3 * nmu, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': /fclib_local/W is %" PetscInt_FMT " x %" PetscInt_FMT " but %s has %" PetscInt_FMT " contacts (expected %" PetscInt_FMT " x %" PetscInt_FMT ")", file, Wt.m,
               Wt.n, path, nmu, 3 * nmu, 3 * nmu);
    PetscCall(ReadReals(comm, fid, file, "/fclib_local/vectors/q", 3 * nmu, NULL, &ql));
    PetscCall(PetscArraycpy(q, ql, 3 * nmu));
    PetscCall(PetscFree(ql));
  } else {
    Triplets   Mt = {0}, Ht = {0};
    PetscReal *f, *w;
    PetscCall(ReadSparse(comm, fid, file, "/fclib_global/M", &Mt));
    PetscCheck(Mt.m == Mt.n, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': /fclib_global/M is %" PetscInt_FMT " x %" PetscInt_FMT "; a mass matrix is square", file, Mt.m, Mt.n);
    PetscCall(ReadSparse(comm, fid, file, "/fclib_global/H", &Ht));
    PetscCheck(Ht.m == Mt.m, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': /fclib_global/H has %" PetscInt_FMT " rows but M has %" PetscInt_FMT, file, Ht.m, Mt.m);
    PetscCheck(Ht.n == 3 * nmu, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s': /fclib_global/H has %" PetscInt_FMT " columns but %s has %" PetscInt_FMT " contacts (expected %" PetscInt_FMT ")", file, Ht.n, path, nmu, 3 * nmu);
    PetscCall(ReadReals(comm, fid, file, "/fclib_global/vectors/f", Mt.m, NULL, &f));
    PetscCall(ReadReals(comm, fid, file, "/fclib_global/vectors/w", 3 * nmu, NULL, &w));
    PetscCall(GlobalToLocal(comm, file, &Mt, &Ht, f, w, &Wt, q));
    PetscCall(PetscFree(f));
    PetscCall(PetscFree(w));
    PetscCall(TripletsFree(&Mt));
    PetscCall(TripletsFree(&Ht));
  }
  PetscCall(BuildW(comm, nmu, &Wt, &prob->W));
  PetscCall(TripletsFree(&Wt));
  PetscCall(BuildVec(prob->W, q, &prob->q));
  PetscCall(PetscMalloc1(nmu + 1, &prob->law));
  for (PetscInt k = 0; k < nmu; k++) {
    PetscCall(PetscMemzero(&prob->law[k], sizeof(MbLaw)));
    prob->law[k].kind = MB_LAW_CONTACT;
    prob->law[k].mu   = mu[k];
  }
  if (Exists(fid, "/solution/r") && Exists(fid, "/solution/u")) {
    PetscReal *r, *u;
    PetscCall(ReadReals(comm, fid, file, "/solution/r", 3 * nmu, NULL, &r));
    PetscCall(ReadReals(comm, fid, file, "/solution/u", 3 * nmu, NULL, &u));
    PetscCall(BuildVec(prob->W, r, &prob->r));
    PetscCall(BuildVec(prob->W, u, &prob->u));
    PetscCall(PetscFree(r));
    PetscCall(PetscFree(u));
  }
  PetscCall(PetscFree(mu));
  PetscCall(PetscFree(q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFclibRead(MPI_Comm comm, const char file[], MbFclibProblem *prob)
{
  hid_t          fid;
  htri_t         is5;
  PetscErrorCode ierr;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(prob, sizeof(*prob)));
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* our messages, not HDF5's stack dumps */
  if (access(file, R_OK)) {
    int e = errno;
    SETERRQ(comm, PETSC_ERR_FILE_OPEN, "cannot open FCLIB file '%s': %s", file, strerror(e));
  }
  is5 = H5Fis_hdf5(file);
  PetscCheck(is5 > 0, comm, PETSC_ERR_FILE_UNEXPECTED, "'%s' is not an FCLIB problem: not an HDF5 file", file);
  fid = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
  PetscCheck(fid >= 0, comm, PETSC_ERR_FILE_OPEN, "cannot open HDF5 file '%s'", file);
  prob->global = Exists(fid, "/fclib_local") ? PETSC_FALSE : PETSC_TRUE;
  if (prob->global && !Exists(fid, "/fclib_global")) {
    H5Fclose(fid);
    SETERRQ(comm, PETSC_ERR_FILE_UNEXPECTED, "'%s' is not an FCLIB problem: it has neither /fclib_local nor /fclib_global", file);
  }
  ierr = ReadProblem(comm, fid, file, prob);
  H5Fclose(fid); /* also after an error: the caller may go on to the next file */
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFclibProblemDestroy(MbFclibProblem *prob)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&prob->W));
  PetscCall(VecDestroy(&prob->q));
  PetscCall(VecDestroy(&prob->r));
  PetscCall(VecDestroy(&prob->u));
  PetscCall(PetscFree(prob->law));
  prob->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
