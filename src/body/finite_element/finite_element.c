/* FINITE_ELEMENT bodies (seed 003, "Finite element dynamics"): a mesh of TET4, PYR5,
   WEDGE6 and HEX8 elements (fem.h), total Lagrangian Saint Venant–Kirchhoff, lumped
   (row-sum) mass, stiffness-proportional damping η. q holds the nodal displacements and u
   the nodal velocities, node after node (nq = nu = 3 × nodes). The referential gradients
   and weights of every quadrature point are computed once, at creation.
   This file holds DEF_EXP (A = M, diagonal) and DEF_LIM (A = M + cK, stiffness.c),
   gravity, loads and pressures, energies, momenta, a provable critical step, the point maps
   and the checkpoint state; its boundary faces are its surface for contact and pressures. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <moreau/mbmath.h>
#include "../bodyimpl.h"
#include "../../shape/shapeimpl.h"
#include "fem.h"

static PetscErrorCode FemMaterial(MbBody b, PetscReal E, PetscReal nu)
{
  Fem *m = (Fem *)b->data;
  PetscFunctionBegin;
  PetscCall(MbBodySvkLame(b, E, nu, &m->svk.lambda, &m->svk.mu));
  m->young   = E;
  m->poisson = nu;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Elements of one shape share one quadrature table: a structured mesh (HEX, a brick wall)
   has a handful of element shapes, so its quadrature data shrinks from 1.6 kB a HEX8 to
   almost nothing, and the tables stay in cache. An element's shape is its nodes relative
   to its first, on a grid of 2⁻⁴⁰ of its size (a power of two, so that congruent elements
   land on the same grid); the table is computed from those rounded nodes (a change of the
   geometry by at most 1e-12 of the element, far below any mesh's own accuracy) and found
   again by an open-addressing table of the keys during the set-up. */
typedef struct {
  PetscInt  nen, nkey, ntab, cap, *slot; /* slot: −1 empty, else the table's number */
  int64_t  *keys;                        /* 1 + 3·MB_FEM_MAX_NEN per table: nen, then the rounded coordinates */
  PetscInt *off;                         /* each table's offset in G */
} QpTables;

static void ElementKey(const MbFemElement *el, const PetscReal Xe[], int64_t key[], PetscReal Xr[])
{
  PetscReal size = 0, s;
  for (PetscInt a = 1; a < el->nen; a++)
    for (int d = 0; d < 3; d++) size = PetscMax(size, PetscAbsReal(Xe[3 * a + d] - Xe[d]));
  s = size > 0 ? ldexp(1.0, ilogb(size) - 40) : 1;
  for (PetscInt k = 0; k < 1 + 3 * MB_FEM_MAX_NEN; k++) key[k] = 0;
  key[0] = el->nen;
  for (PetscInt a = 0; a < el->nen; a++)
    for (int d = 0; d < 3; d++) {
      key[1 + 3 * a + d] = (int64_t)llround((Xe[3 * a + d] - Xe[d]) / s);
      Xr[3 * a + d]      = (PetscReal)key[1 + 3 * a + d] * s;
    }
  key[1 + 3 * MB_FEM_MAX_NEN - 1] ^= (int64_t)ilogb(size) * 1315423911; /* the grid is part of the shape */
}

static PetscInt KeyHash(const int64_t key[], PetscInt cap)
{
  uint64_t h = 1469598103934665603ull;
  for (PetscInt k = 0; k < 1 + 3 * MB_FEM_MAX_NEN; k++) h = (h ^ (uint64_t)key[k]) * 1099511628211ull;
  return (PetscInt)(h % (uint64_t)cap);
}

/* The table of key in G (its offset), or −1 with *at the slot it would take */
static PetscInt QpFind(const QpTables *t, const int64_t key[], PetscInt *at)
{
  for (PetscInt i = KeyHash(key, t->cap);; i = (i + 1) % t->cap) {
    if (t->slot[i] < 0) {
      *at = i;
      return -1;
    }
    if (!memcmp(&t->keys[t->slot[i] * (1 + 3 * MB_FEM_MAX_NEN)], key, sizeof(int64_t) * (1 + 3 * MB_FEM_MAX_NEN))) return t->off[t->slot[i]];
  }
}

/* Quadrature data and lumped masses from the reference nodes; an element whose Jacobian
   is not positive at every point is refused by number (a mirrored node order, negative
   everywhere, is turned round first: the base's second and last nodes swap). */
static PetscErrorCode SetUpElements(MbBody b, PetscReal rho)
{
  Fem      *m    = (Fem *)b->data;
  PetscInt  size = 0, cap = 0;
  QpTables  t = {0};
  PetscReal tab[MB_FEM_MAX_NQP * FEM_QP_SIZE(MB_FEM_MAX_NEN)];
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m->ne + 1, &m->gptr));
  t.cap = 2 * m->ne + 1;
  PetscCall(PetscMalloc3(t.cap, &t.slot, (size_t)(1 + 3 * MB_FEM_MAX_NEN) * m->ne, &t.keys, m->ne, &t.off));
  for (PetscInt i = 0; i < t.cap; i++) t.slot[i] = -1;
  PetscCall(PetscCalloc1(m->nn, &m->mass));
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el  = MbFemElemOf(m, e);
    const PetscInt      qs  = FEM_QP_SIZE(el->nen);
    PetscInt           *nod = &m->enode[m->eptr[e]], npos = 0, nneg = 0, at = -1, off = -1;
    PetscReal           Xe[3 * MB_FEM_MAX_NEN], Xr[3 * MB_FEM_MAX_NEN];
    int64_t            *key = &t.keys[(size_t)(1 + 3 * MB_FEM_MAX_NEN) * t.ntab];
    for (int pass = 0; pass < 2; pass++) {
      npos = nneg = 0;
      for (PetscInt a = 0; a < el->nen; a++)
        for (int d = 0; d < 3; d++) Xe[3 * a + d] = m->X[3 * nod[a] + d];
      ElementKey(el, Xe, key, Xr);
      off = QpFind(&t, key, &at);
      if (off >= 0) break; /* a known shape: its table, already checked */
      for (PetscInt k = 0; k < el->nqp; k++) {
        PetscReal N[MB_FEM_MAX_NEN], dN[3 * MB_FEM_MAX_NEN], *g = &tab[k * qs], det;
        el->shape(&el->qp[3 * k], N, dN);
        MbFemGradients(el, Xr, dN, g, &det);
        g[3 * el->nen] = det * el->qw[k];
        if (det > 0) npos++;
        if (det < 0) nneg++;
      }
      if (pass == 0 && nneg == el->nqp) { /* mirrored: swap the base's nodes 1 and last */
        PetscInt last = el->nen == 8 || el->nen == 5 ? 3 : 2, tn = nod[1];
        nod[1]    = nod[last];
        nod[last] = tn;
        if (el->nen == 8) tn = nod[5], nod[5] = nod[7], nod[7] = tn;
        if (el->nen == 6) tn = nod[4], nod[4] = nod[5], nod[5] = tn;
        continue;
      }
      PetscCheck(npos == el->nqp, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
                 "FINITE_ELEMENT body %" PetscInt_FMT ": element %" PetscInt_FMT " (%s) is inverted or degenerate: its Jacobian is not positive at %" PetscInt_FMT " of its %" PetscInt_FMT " quadrature points", b->id, e, el->name, el->nqp - npos,
                 el->nqp);
      if (size + el->nqp * qs > cap) { /* a new shape: its table appended to G */
        cap = PetscMax(2 * cap, size + el->nqp * qs);
        PetscCall(PetscRealloc(sizeof(PetscReal) * cap, &m->G));
      }
      PetscCall(PetscArraycpy(&m->G[size], tab, el->nqp * qs));
      off           = size;
      t.off[t.ntab] = off;
      t.slot[at]    = t.ntab++;
      size += el->nqp * qs;
      break;
    }
    m->gptr[e] = off;
    /* row-sum lumping: m_a = ∫ ρ N_a dV (Σ_b N_b = 1) */
    for (PetscInt k = 0; k < el->nqp; k++) {
      PetscReal N[MB_FEM_MAX_NEN], dN[3 * MB_FEM_MAX_NEN], w = m->G[off + k * qs + 3 * el->nen];
      el->shape(&el->qp[3 * k], N, dN);
      for (PetscInt a = 0; a < el->nen; a++) m->mass[nod[a]] += rho * w * N[a];
    }
  }
  m->gptr[m->ne] = size; /* G's length (offsets of shared tables are in no order) */
  PetscCall(PetscRealloc(sizeof(PetscReal) * PetscMax(size, 1), &m->G));
  PetscCall(PetscFree3(t.slot, t.keys, t.off));
  for (PetscInt a = 0; a < m->nn; a++) PetscCheck(m->mass[a] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "FINITE_ELEMENT body %" PetscInt_FMT ": node %" PetscInt_FMT " belongs to no element (or has no mass)", b->id, a);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FemSizes(MbShape s, PetscInt *nq, PetscInt *nu)
{
  PetscInt nn;
  PetscFunctionBegin;
  PetscCall(MbShapeGetMesh(s, &nn, NULL, NULL, NULL, NULL));
  PetscCheck(nn > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "a FINITE_ELEMENT body needs a mesh: give it a MESH or a HEX shape");
  *nq = *nu = 3 * nn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckManifold(MbBody);
static PetscErrorCode EmbedShape(MbBody);
static PetscErrorCode DiluteToShape(MbBody);

static PetscErrorCode FemCreate(MbBody b)
{
  Fem             *m;
  PetscInt         nn, ne;
  const PetscReal *X;
  const PetscInt  *eptr, *enode;
  PetscFunctionBegin;
  PetscCall(PetscNew(&m));
  m->nbf  = -1;
  m->cB   = -2; /* no reduced factor (reduced.c) */
  b->data = m;
  PetscCall(MbShapeGetMesh(b->shape, &nn, &X, &ne, &eptr, &enode));
  if (!nn) PetscFunctionReturn(PETSC_SUCCESS); /* unpacking: the data follows */
  m->nn = nn;
  m->ne = ne;
  PetscCall(PetscMalloc4(3 * nn, &m->X, ne + 1, &m->eptr, eptr[ne], &m->enode, 6 * MB_FEM_MAX_NEN, &m->ue));
  m->fe = m->ue + 3 * MB_FEM_MAX_NEN;
  PetscCall(PetscArraycpy(m->X, X, 3 * nn));
  PetscCall(PetscArraycpy(m->eptr, eptr, ne + 1));
  PetscCall(PetscArraycpy(m->enode, enode, eptr[ne]));
  PetscCall(MbShapeGetMeshEmbedding(b->shape, &m->embed));
  PetscCall(SetUpElements(b, b->mp.mass / b->mp.volume));
  PetscCall(CheckManifold(b));
  if (m->embed) {
    PetscCall(DiluteToShape(b));
    PetscCall(EmbedShape(b));
  }
  PetscCall(FemMaterial(b, 1e6, 0.25)); /* BULK_MATERIAL's defaults until the deck's */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FemDestroy(MbBody b)
{
  Fem *m = (Fem *)b->data;
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbFemFactorDestroy(m));
  PetscCall(PetscFree2(m->bf, m->bfsurf));
  PetscCall(PetscFree2(m->lelem, m->lxi));
  PetscCall(PetscFree(m->pc));
  PetscCall(PetscFree2(m->wpos, m->wrk));
  PetscCall(PetscFree4(m->X, m->eptr, m->enode, m->ue));
  PetscCall(PetscFree(m->gptr));
  PetscCall(PetscFree(m->G));
  PetscCall(PetscFree(m->mass));
  PetscCall(PetscFree(m->gbar));
  PetscCall(PetscFree4(m->vptr, m->velem, m->vxi, m->cptr));
  PetscCall(PetscFree(m->cel));
  PetscCall(MbShapeDestroy(&m->esh));
  PetscCall(PetscFree(b->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FemReset(MbBody b)
{
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(b->q, b->nq));
  PetscCall(PetscArrayzero(b->u, b->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FemKinetic(MbBody b, PetscReal *T)
{
  Fem      *m = (Fem *)b->data;
  PetscReal s = 0;
  for (PetscInt a = 0; a < m->nn; a++) s += m->mass[a] * (b->u[3 * a] * b->u[3 * a] + b->u[3 * a + 1] * b->u[3 * a + 1] + b->u[3 * a + 2] * b->u[3 * a + 2]);
  *T = 0.5 * s;
  return PETSC_SUCCESS;
}

/* y = A⁻¹x: A = M (lumped, DEF_EXP) or M + cK (DEF_LIM, stiffness.c) */
static PetscErrorCode FemInverse(MbBody b, PetscInt n, const PetscReal x[], PetscReal y[]) { return MbFemSolve((Fem *)b->data, n, x, y); }

static PetscErrorCode FemFactor(MbBody b, PetscReal c) { return MbFemFactor((Fem *)b->data, b->q, c, b->id); }

static PetscInt Locate(MbBody, const PetscReal[3], PetscBool, PetscReal[3]);
static PetscInt LocateSearch(MbBody, const PetscReal[3], PetscBool, PetscReal[3]);
static PetscInt LocateNear(MbBody, const PetscReal[3], PetscReal[3]);

/* a face by its node set (sorted, −1 padded) */
typedef struct {
  PetscInt k[4], face;
} FaceKey;

static int CompareFaceKey(const void *x, const void *y)
{
  const FaceKey *a = (const FaceKey *)x, *b = (const FaceKey *)y;
  for (int i = 0; i < 4; i++)
    if (a->k[i] != b->k[i]) return a->k[i] < b->k[i] ? -1 : 1;
  return 0;
}

/* The mesh's elements as convex pieces, whose faces the element faces are: the body's shape,
   or for an embedded shape the pieces made from the mesh once (src/shape/element.c's face
   loops over the element's nodes in their order). */
static PetscErrorCode ElementShape(MbBody b, MbShape *es)
{
  Fem *m = (Fem *)b->data;
  PetscFunctionBegin;
  if (!m->embed) {
    *es = b->shape;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!m->esh) {
    MbShape t;
    PetscCall(MbShapeCreate(&t));
    for (PetscInt e = 0; e < m->ne; e++) {
      PetscReal Xe[3 * MB_FEM_MAX_NEN];
      PetscInt  n = m->eptr[e + 1] - m->eptr[e];
      for (PetscInt a = 0; a < n; a++)
        for (int d = 0; d < 3; d++) Xe[3 * a + d] = m->X[3 * m->enode[m->eptr[e] + a] + d];
      PetscErrorCode ierr = MbShapeAddElement(t, n, Xe, NULL, 0);
      if (ierr) PetscCall(MbShapeDestroy(&t));
      PetscCall(ierr);
    }
    m->esh = t;
  }
  *es = m->esh;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every element face by its node set, sorted (faces in src/shape/element.c's loops, numbered
   element after element). */
static PetscErrorCode FaceKeys(MbBody b, FaceKey **keyp, PetscInt *nfp)
{
  Fem     *m = (Fem *)b->data;
  MbShape  s;
  PetscInt nf = 0;
  FaceKey *key;
  PetscFunctionBegin;
  PetscCall(ElementShape(b, &s));
  for (PetscInt e = 0; e < m->ne; e++) nf += s->prim[e].nf;
  PetscCall(PetscMalloc1(nf + 1, &key));
  nf = 0;
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbPrim *p = &s->prim[e];
    for (PetscInt f = 0; f < p->nf; f++, nf++) {
      PetscInt n   = p->fptr[f + 1] - p->fptr[f];
      key[nf].k[0] = key[nf].k[1] = key[nf].k[2] = key[nf].k[3] = -1;
      for (PetscInt v = 0; v < n; v++) key[nf].k[v] = m->enode[m->eptr[e] + p->fvert[p->fptr[f] + v]];
      PetscCall(PetscSortInt(4, key[nf].k));
      key[nf].face = nf;
    }
  }
  qsort(key, (size_t)nf, sizeof(FaceKey), CompareFaceKey);
  *keyp = key;
  *nfp  = nf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The element whose faces include face number f (FaceKeys' numbering). */
static PetscInt FaceElement(MbBody b, PetscInt f)
{
  Fem          *m  = (Fem *)b->data;
  const MbShape es = m->embed ? m->esh : b->shape; /* made by FaceKeys */
  PetscInt      e  = 0;
  while (f >= es->prim[e].nf) f -= es->prim[e++].nf;
  return e;
}

/* A face may belong to two elements at most: a third makes the mesh non-manifold there, so
   its surface — what contact detection and pressures take — is undefined. */
static PetscErrorCode CheckManifold(MbBody b)
{
  FaceKey *key;
  PetscInt nf;
  PetscFunctionBegin;
  PetscCall(FaceKeys(b, &key, &nf));
  for (PetscInt f = 0; f + 2 < nf; f++)
    if (!CompareFaceKey(&key[f], &key[f + 1]) && !CompareFaceKey(&key[f], &key[f + 2])) {
      PetscInt e[3] = {FaceElement(b, key[f].face), FaceElement(b, key[f + 1].face), FaceElement(b, key[f + 2].face)};
      char     nodes[96];
      size_t   len = 0;
      nodes[0]     = 0;
      for (int v = 0; v < 4; v++)
        if (key[f].k[v] >= 0) len += (size_t)snprintf(nodes + len, sizeof(nodes) - len, "%s%lld", len ? ", " : "", (long long)key[f].k[v]);
      PetscCall(PetscFree(key));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
              "FINITE_ELEMENT body %" PetscInt_FMT ": the face of nodes %s belongs to three elements or more (elements %" PetscInt_FMT ", %" PetscInt_FMT " and %" PetscInt_FMT
              ", counted from 0): the mesh is not a manifold there, so its surface is undefined",
              b->id, nodes, e[0], e[1], e[2]);
    }
  PetscCall(PetscFree(key));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The faces of the mesh's boundary: the element faces (src/shape/element.c's loops,
   outward) whose node set no other face has. */
static PetscErrorCode BoundaryFaces(MbBody b)
{
  Fem     *m = (Fem *)b->data;
  MbShape  s;
  PetscInt nf = 0, nb = 0, *inner;
  FaceKey *key;
  PetscFunctionBegin;
  PetscCall(FaceKeys(b, &key, &nf));
  PetscCall(ElementShape(b, &s));
  PetscCall(PetscCalloc1(nf + 1, &inner));
  for (PetscInt f = 0; f + 1 < nf; f++)
    if (!CompareFaceKey(&key[f], &key[f + 1])) inner[key[f].face] = inner[key[f + 1].face] = 1;
  PetscCall(PetscMalloc2(5 * nf, &m->bf, nf, &m->bfsurf));
  nf = 0;
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbPrim *p = &s->prim[e];
    for (PetscInt f = 0; f < p->nf; f++, nf++) {
      PetscInt n = p->fptr[f + 1] - p->fptr[f], *o = &m->bf[5 * nb];
      if (inner[nf]) continue;
      o[0] = n;
      for (PetscInt v = 0; v < n; v++) o[1 + v] = m->enode[m->eptr[e] + p->fvert[p->fptr[f] + v]];
      m->bfsurf[nb++] = p->fsurf ? p->fsurf[f] : 0;
    }
  }
  m->nbf = nb;
  PetscCall(PetscFree(key));
  PetscCall(PetscFree(inner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The distinct surface ids of the boundary faces, in order, as text (for an error message;
   the first 32) */
static const char *SurfaceIds(const Fem *m)
{
  static char buf[512];
  PetscInt    id[32], nid = 0;
  size_t      n = 0;
  for (PetscInt k = 0; k < m->nbf && nid < 32; k++) {
    PetscInt j;
    for (j = 0; j < nid && id[j] != m->bfsurf[k]; j++) {
    }
    if (j == nid) id[nid++] = m->bfsurf[k];
  }
  (void)PetscSortInt(nid, id);
  buf[0] = 0;
  for (PetscInt k = 0; k < nid; k++) n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%" PetscInt_FMT, k ? ", " : "", id[k]);
  return buf;
}

/* f_a += −p ∫ N_a n da over the boundary faces with surface id sid, in the current
   placement: a triangle gives each node a third of −p A n; a quadrilateral is integrated
   with 2×2 Gauss points of its bilinear map (n da = x_ξ × x_η dξ dη). Returns the number of
   faces loaded. */
static PetscInt AddPressure(MbBody b, PetscInt sid, PetscReal p, PetscReal f[])
{
  Fem            *m = (Fem *)b->data;
  const PetscReal g = 0.57735026918962576451, s[4] = {-1, 1, 1, -1}, t[4] = {-1, -1, 1, 1}; /* the loop's corners in (ξ, η) */
  PetscInt        nface = 0;
  for (PetscInt k = 0; k < m->nbf; k++) {
    const PetscInt *o = &m->bf[5 * k];
    PetscReal       x[4][3];
    if (m->bfsurf[k] != sid) continue;
    nface++;
    for (PetscInt v = 0; v < o[0]; v++)
      for (int d = 0; d < 3; d++) x[v][d] = m->X[3 * o[1 + v] + d] + b->q[3 * o[1 + v] + d];
    if (o[0] == 3) {
      PetscReal e1[3], e2[3], n[3];
      MbV3Sub(x[1], x[0], e1);
      MbV3Sub(x[2], x[0], e2);
      MbV3Cross(e1, e2, n); /* 2 A n */
      for (PetscInt v = 0; v < 3; v++)
        for (int d = 0; d < 3; d++) f[3 * o[1 + v] + d] -= p * n[d] / 6;
      continue;
    }
    for (int gi = 0; gi < 4; gi++) {
      PetscReal xi = gi & 1 ? g : -g, eta = gi & 2 ? g : -g, N[4], xx[3] = {0, 0, 0}, xe[3] = {0, 0, 0}, n[3];
      for (int v = 0; v < 4; v++) {
        N[v] = 0.25 * (1 + s[v] * xi) * (1 + t[v] * eta);
        for (int d = 0; d < 3; d++) xx[d] += 0.25 * s[v] * (1 + t[v] * eta) * x[v][d], xe[d] += 0.25 * t[v] * (1 + s[v] * xi) * x[v][d];
      }
      MbV3Cross(xx, xe, n);
      for (int v = 0; v < 4; v++)
        for (int d = 0; d < 3; d++) f[3 * o[1 + v] + d] -= p * N[v] * n[d];
    }
  }
  return nface;
}

/* gravity on the lumped masses (= ∫ρ N_a g dV), point forces f_a += N_a(ξ) F at their
   material points (a convected direction turned by F there), and pressures */
static PetscErrorCode FemExternal(MbBody b, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal f[])
{
  Fem *m = (Fem *)b->data;
  PetscFunctionBegin;
  for (PetscInt a = 0; a < m->nn; a++)
    for (int d = 0; d < 3; d++) f[3 * a + d] = g ? m->mass[a] * g[d] : 0;
  if (!b->nload) PetscFunctionReturn(PETSC_SUCCESS);
  if (m->nlc != b->nload) { /* locate the point loads once */
    PetscCall(PetscFree2(m->lelem, m->lxi));
    PetscCall(PetscMalloc2(b->nload, &m->lelem, 3 * b->nload, &m->lxi));
    for (PetscInt i = 0; i < b->nload; i++) {
      MbLoad *l   = &b->load[i];
      m->lelem[i] = -1;
      PetscCheck(l->kind != MB_LOAD_TORQUE, PETSC_COMM_SELF, PETSC_ERR_SUP, "FINITE_ELEMENT body %" PetscInt_FMT ": TORQUE has no meaning for a finite-element body: apply forces at points", b->id);
      if (l->fn || l->kind != MB_LOAD_FORCE) continue; /* a callback's force has no point */
      m->lelem[i] = Locate(b, l->X, PETSC_FALSE, &m->lxi[3 * i]);
      PetscCheck(m->lelem[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": the point (%g, %g, %g) of a FORCE is not in its mesh", b->id, (double)l->X[0], (double)l->X[1], (double)l->X[2]);
    }
    m->nlc = b->nload;
  }
  for (PetscInt i = 0; i < b->nload; i++) {
    MbLoad             *l = &b->load[i];
    PetscReal           v = l->value, d[3], N[MB_FEM_MAX_NEN], dN[3 * MB_FEM_MAX_NEN];
    const MbFemElement *el;
    const PetscInt     *nod;
    if (l->fn) { /* a callback: the nodal forces (nu numbers, Solfec's generalized force), or the
                    9 numbers of any body, whose force is spread over the lumped masses as gravity
                    is (the resultant at the mass centre, as for a rigid body; no torques) */
      PetscReal *out;
      PetscInt   n = b->nu;
      PetscCall(PetscMalloc1(PetscMax(9, b->nu), &out));
      PetscCall(l->fn(l->ctx, b, b->q, b->u, t, h, &n, out));
      PetscCheck(n == 9 || n == b->nu, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "FINITE_ELEMENT body %" PetscInt_FMT ": a load callback returns 9 numbers or its %" PetscInt_FMT " nodal forces, got %" PetscInt_FMT, b->id, b->nu, n);
      for (PetscInt k = 0; k < n; k++) PetscCheck(isfinite(out[k]), PETSC_COMM_SELF, PETSC_ERR_FP, "FINITE_ELEMENT body %" PetscInt_FMT ": load callback returned a non-finite value %g at position %" PetscInt_FMT, b->id, (double)out[k], k);
      if (n == b->nu) {
        for (PetscInt k = 0; k < n; k++) f[k] += out[k];
      } else {
        for (int k = 3; k < 9; k++) {
          char v[32];
          snprintf(v, sizeof(v), "%g", (double)out[k]); /* PETSc's %g prints 1 as "1." */
          PetscCheck(out[k] == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "FINITE_ELEMENT body %" PetscInt_FMT ": a load callback's torques (numbers 4 to 9) must be 0, got %s at position %d: return the %" PetscInt_FMT " nodal forces instead", b->id, v,
                     k, b->nu);
        }
        PetscReal M = 0;
        for (PetscInt a = 0; a < m->nn; a++) M += m->mass[a];
        for (PetscInt a = 0; a < m->nn; a++)
          for (int k = 0; k < 3; k++) f[3 * a + k] += m->mass[a] / M * out[k];
      }
      PetscCall(PetscFree(out));
      continue;
    }
    if (l->ts) PetscCall(MbTimeSeriesEvaluate(l->ts, t, &v));
    if (l->kind == MB_LOAD_PRESSURE) {
      if (m->nbf < 0) PetscCall(BoundaryFaces(b));
      /* a surface id no boundary face carries would be no load, silently */
      PetscCheck(AddPressure(b, l->surfid, -v, f) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PRESSURE: body %" PetscInt_FMT " has no boundary face with surface id %" PetscInt_FMT " (its boundary's surface ids: %s)", b->id, l->surfid,
                 SurfaceIds(m)); /* Solfec's sign: the traction v n pushes in when v < 0 */
      continue;
    }
    el  = MbFemElemOf(m, m->lelem[i]);
    nod = &m->enode[m->eptr[m->lelem[i]]];
    MbV3Scale(v, l->dir, d);
    el->shape(&m->lxi[3 * i], N, dN);
    if (l->frame == MB_FRAME_CONVECTED) { /* F = I + Σ q_a ⊗ ∂N_a/∂X at the point */
      PetscReal Xe[3 * MB_FEM_MAX_NEN], G[3 * MB_FEM_MAX_NEN], det, F[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, y[3];
      for (PetscInt a = 0; a < el->nen; a++)
        for (int k = 0; k < 3; k++) Xe[3 * a + k] = m->X[3 * nod[a] + k];
      MbFemGradients(el, Xe, dN, G, &det);
      for (PetscInt a = 0; a < el->nen; a++)
        for (int r = 0; r < 3; r++)
          for (int c = 0; c < 3; c++) F[3 * r + c] += b->q[3 * nod[a] + r] * G[3 * a + c];
      MbM3Mult(F, d, y);
      MbV3Copy(y, d);
    }
    for (PetscInt a = 0; a < el->nen; a++)
      for (int k = 0; k < 3; k++) f[3 * nod[a] + k] += N[a] * d[k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f += f_int(q) + η K(q) u over all elements */
static PetscErrorCode FemInternal(MbBody b, const PetscReal u[], PetscReal f[])
{
  Fem *m = (Fem *)b->data;
  PetscFunctionBegin;
  if (m->bc) {
    PetscCall(MbFemCorotatedInternal(b, u, f));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscArrayzero(f, b->nu));
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el  = MbFemElemOf(m, e);
    const PetscInt     *nod = &m->enode[m->eptr[e]];
    PetscReal           ve[3 * MB_FEM_MAX_NEN];
    for (PetscInt a = 0; a < el->nen; a++)
      for (int d = 0; d < 3; d++) {
        m->ue[3 * a + d] = b->q[3 * nod[a] + d];
        ve[3 * a + d]    = b->damping * u[3 * nod[a] + d];
        m->fe[3 * a + d] = 0;
      }
    for (PetscInt k = 0; k < el->nqp; k++) {
      const PetscReal *g = MbFemPoint(m, e, k, el->nen);
      if (b->damping > 0)
        MbSvkForceDamped(&m->svk, el->nen, g, g[3 * el->nen], m->ue, ve, m->fe); /* f_int + η K u, F and S made once */
      else
        MbSvkForce(&m->svk, el->nen, g, g[3 * el->nen], m->ue, m->fe, NULL);
    }
    for (PetscInt a = 0; a < el->nen; a++)
      for (int d = 0; d < 3; d++) f[3 * nod[a] + d] += m->fe[3 * a + d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FemStrainEnergy(MbBody b, PetscReal *W)
{
  Fem *m = (Fem *)b->data;
  if (m->bc) return MbFemCorotatedEnergy(b, W);
  *W = 0;
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el = MbFemGather(m, e, b->q, m->ue);
    for (PetscInt k = 0; k < el->nqp; k++) {
      const PetscReal *g = MbFemPoint(m, e, k, el->nen);
      MbSvkForce(&m->svk, el->nen, g, g[3 * el->nen], m->ue, NULL, W);
    }
  }
  return PETSC_SUCCESS;
}

/* A provable bound: λ_max(M⁻¹K) ≤ max over elements of λ_max(M_e⁻¹K_e) (the element
   eigenvalue theorem, Irons and Treharne 1971; M_e the element's share of the lumped
   masses), and each element's λ_max is at most its Gershgorin bound
   max_i Σ_j |K_e,ij| / m_e,i. K_e is formed column by column from the tangent product at
   the current q. Then h < (2/ω)(√(1 + ζ²) − ζ), ζ = ηω/2, as for the pseudo-rigid kind. */
static PetscErrorCode FemCriticalStep(MbBody b, PetscReal *h)
{
  Fem      *m    = (Fem *)b->data;
  PetscReal lmax = 0, omega, zeta;
  PetscFunctionBegin;
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el  = MbFemElemOf(m, e);
    const PetscInt     *nod = &m->enode[m->eptr[e]], n = 3 * el->nen;
    PetscReal           me[MB_FEM_MAX_NEN] = {0}, row[3 * MB_FEM_MAX_NEN] = {0};
    for (PetscInt a = 0; a < el->nen; a++)
      for (int d = 0; d < 3; d++) m->ue[3 * a + d] = m->bc ? 0 : b->q[3 * nod[a] + d]; /* 'BC': K₀ in a turned frame, the same spectrum */
    for (PetscInt k = 0; k < el->nqp; k++) {
      PetscReal N[MB_FEM_MAX_NEN], dN[3 * MB_FEM_MAX_NEN], w = m->G[m->gptr[e] + k * FEM_QP_SIZE(el->nen) + 3 * el->nen];
      el->shape(&el->qp[3 * k], N, dN);
      for (PetscInt a = 0; a < el->nen; a++) me[a] += w * N[a]; /* ρ cancels below: the share of volume times ρ */
    }
    for (PetscInt j = 0; j < n; j++) { /* column j of K_e: K_e e_j, |entries| summed by row (K_e is symmetric) */
      PetscReal v[3 * MB_FEM_MAX_NEN] = {0}, y[3 * MB_FEM_MAX_NEN] = {0};
      v[j] = 1;
      for (PetscInt k = 0; k < el->nqp; k++) {
        const PetscReal *g = MbFemPoint(m, e, k, el->nen);
        MbSvkTangentMult(&m->svk, el->nen, g, g[3 * el->nen], m->ue, v, y);
      }
      for (PetscInt i = 0; i < n; i++) row[i] += PetscAbsReal(y[i]);
    }
    for (PetscInt i = 0; i < n; i++) lmax = PetscMax(lmax, row[i] / (me[i / 3] * b->mp.mass / b->mp.volume)); /* m_e,i = ρ ∫_e N_a dV */
  }
  omega = PetscSqrtReal(lmax);
  zeta  = 0.5 * b->damping * omega;
  *h    = omega > 0 ? (2 / omega) * (PetscSqrtReal(1 + zeta * zeta) - zeta) : PETSC_INFINITY;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The element holding reference point X (xi its reference coordinates), or, for a point
   just outside the mesh (a contact point between two surfaces lies between them), the
   element whose map reaches it with the reference coordinates least outside its cell
   (extrapolated); −1 when none is near. With current = true, X is a spatial point and
   the elements are taken in the current placement. */
/* the slot of X in the point cache: its own, or the empty one where it would go */
static PetscInt CacheSlot(const Fem *m, const PetscReal X[3])
{
  uint64_t h = 1469598103934665603ULL; /* FNV-1a over the coordinates' bits */
  for (int d = 0; d < 3; d++) {
    uint64_t w;
    memcpy(&w, &X[d], sizeof(w));
    h = (h ^ w) * 1099511628211ULL;
  }
  for (PetscInt k = (PetscInt)(h % (uint64_t)m->cappc);; k = (k + 1) % m->cappc) {
    const struct MbFemPointCache *c = &m->pc[k];
    if (c->e < 0 || (c->X[0] == X[0] && c->X[1] == X[1] && c->X[2] == X[2])) return k;
  }
}

/* remember that referential point X lies at xi of element e. At half full the table is
   made anew with room for 4 times the points used in this step or the last one, and only
   those: contact points are found anew every step, so keeping every point filled the
   table with stale ones until each lookup missed the cache (13 % of a run of 500 bricks),
   while a point of this step must stay (a contact point mapped outside its element would
   not be found again by a search) */
static void CacheInsert(Fem *m, const PetscReal X[3], PetscInt e, const PetscReal xi[3])
{
  PetscInt k;
  if (2 * (m->npc + 1) > m->cappc) {
    struct MbFemPointCache *old = m->pc;
    PetscInt                n = m->cappc, live = 0, cap = 64;
    for (PetscInt j = 0; j < n; j++)
      if (old[j].e >= 0 && old[j].gen >= m->gen - 1) live++;
    while (cap < 4 * (live + 1)) cap *= 2;
    if (PetscMalloc1(cap, &m->pc)) { /* no memory: no cache */
      m->pc = old;
      return;
    }
    m->cappc = cap;
    m->npc   = 0;
    for (PetscInt j = 0; j < cap; j++) m->pc[j].e = -1;
    for (PetscInt j = 0; j < n; j++)
      if (old[j].e >= 0 && old[j].gen >= m->gen - 1) {
        k        = CacheSlot(m, old[j].X);
        m->pc[k] = old[j];
        m->npc++;
      }
    (void)PetscFree(old);
  }
  k = CacheSlot(m, X);
  if (m->pc[k].e < 0) m->npc++;
  m->pc[k].e   = e;
  m->pc[k].gen = m->gen;
  for (int d = 0; d < 3; d++) m->pc[k].X[d] = X[d], m->pc[k].xi[d] = xi[d];
}

/* Locate through the point cache for referential points */
static PetscInt Locate(MbBody b, const PetscReal X[3], PetscBool current, PetscReal xi[3])
{
  Fem     *m = (Fem *)b->data;
  PetscInt e;
  if (!current && m->cappc) {
    struct MbFemPointCache *c = &m->pc[CacheSlot(m, X)];
    if (c->e >= 0) {
      for (int d = 0; d < 3; d++) xi[d] = c->xi[d];
      c->gen = m->gen;
      return c->e;
    }
  }
  e = LocateSearch(b, X, current, xi);
  if (e >= 0 && !current) CacheInsert(m, X, e, xi);
  return e;
}

static PetscInt LocateSearch(MbBody b, const PetscReal X[3], PetscBool current, PetscReal xi[3])
{
  Fem      *m    = (Fem *)b->data;
  PetscInt  best = -1;
  PetscReal bout = 0.5; /* at most half a cell outside */
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el  = MbFemElemOf(m, e);
    const PetscInt     *nod = &m->enode[m->eptr[e]];
    PetscReal           x[3 * MB_FEM_MAX_NEN], lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {-PETSC_MAX_REAL, -PETSC_MAX_REAL, -PETSC_MAX_REAL}, tol = 0, out = 0, t[3];
    for (PetscInt a = 0; a < el->nen; a++)
      for (int d = 0; d < 3; d++) {
        x[3 * a + d] = m->X[3 * nod[a] + d] + (current ? b->q[3 * nod[a] + d] : 0);
        lo[d]        = PetscMin(lo[d], x[3 * a + d]);
        hi[d]        = PetscMax(hi[d], x[3 * a + d]);
      }
    for (int d = 0; d < 3; d++) tol = PetscMax(tol, 0.25 * (hi[d] - lo[d]));
    if (X[0] < lo[0] - tol || X[1] < lo[1] - tol || X[2] < lo[2] - tol || X[0] > hi[0] + tol || X[1] > hi[1] + tol || X[2] > hi[2] + tol) continue;
    if (!MbFemInvert(el, x, X, t)) continue;
    if (MbFemInside(el, t, 1e-9)) {
      for (int d = 0; d < 3; d++) xi[d] = t[d];
      return e;
    }
    for (PetscReal o = 1e-9; o < 1; o *= 2)
      if (MbFemInside(el, t, o)) {
        out = o;
        break;
      }
    if (out > 0 && out < bout) bout = out, best = e, xi[0] = t[0], xi[1] = t[1], xi[2] = t[2];
  }
  return best;
}

/* element e's nodes, referential or current (3·nen), and its size (the largest extent of
   its box); returns its type */
static const MbFemElement *ElementNodes(MbBody b, PetscInt e, PetscBool current, PetscReal x[], PetscReal *size)
{
  Fem                *m     = (Fem *)b->data;
  const MbFemElement *el    = MbFemElemOf(m, e);
  const PetscInt     *nod   = &m->enode[m->eptr[e]];
  PetscReal           lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {-PETSC_MAX_REAL, -PETSC_MAX_REAL, -PETSC_MAX_REAL};
  for (PetscInt a = 0; a < el->nen; a++)
    for (int d = 0; d < 3; d++) {
      x[3 * a + d] = m->X[3 * nod[a] + d] + (current ? b->q[3 * nod[a] + d] : 0);
      lo[d]        = PetscMin(lo[d], x[3 * a + d]);
      hi[d]        = PetscMax(hi[d], x[3 * a + d]);
    }
  *size = PetscMax(PetscMax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
  return el;
}

/* Among the n elements cand (NULL: all the mesh's), the one holding point X (current: X is
   spatial, the elements in the current placement), else the nearest one: the least distance
   outside its cell, measured as the reference coordinates' excess over the cell's bounds
   times the element's size (half of it for the cells of side 2, hexahedra and pyramids). xi
   gets X's reference coordinates in it, extrapolated outside the cell: a point of an embedded
   shape outside the mesh moves with the nearest element's interpolation extended to it, as
   Solfec-1.0's fem.c (stabbed_referential_element: the containing element, else the nearest)
   does. −1 when no element's map can be inverted at X. */
static PetscInt Nearest(MbBody b, const PetscReal X[3], PetscBool current, const PetscInt cand[], PetscInt n, PetscReal xi[3])
{
  PetscInt  best = -1;
  PetscReal bd   = PETSC_MAX_REAL;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt            e = cand ? cand[i] : i;
    PetscReal           x[3 * MB_FEM_MAX_NEN], size, t[3], dist;
    const MbFemElement *el = ElementNodes(b, e, current, x, &size);
    if (!MbFemInvert(el, x, X, t)) continue;
    dist = MbFemOutside(el, t) * size * (el->nen == 8 || el->nen == 5 ? 0.5 : 1);
    if (dist < bd) bd = dist, best = e, xi[0] = t[0], xi[1] = t[1], xi[2] = t[2];
    if (MbFemInside(el, t, 1e-9)) break;
  }
  return best;
}

/* Locate for the body's own points (contact points, the vertices of an embedded shape): a
   referential point no element holds or nears — a contact point extrapolated from its
   element, met again where the point cache does not hold it (another rank's copy of the body,
   a restart) — is taken in the nearest element, extrapolated, as Solfec-1.0's
   stabbed_referential_element does; −1 only when no element's map can be inverted there.
   The deck's own points (loads, HISTORY, DISPLACEMENT) are located strictly (Locate). */
static PetscInt LocateNear(MbBody b, const PetscReal X[3], PetscReal xi[3])
{
  Fem     *m = (Fem *)b->data;
  PetscInt e = Locate(b, X, PETSC_FALSE, xi);
  if (e < 0 && (e = Nearest(b, X, PETSC_FALSE, NULL, m->ne, xi)) >= 0) CacheInsert(m, X, e, xi);
  return e;
}

/* The embedded shape's map (Fem's embed): primitive k's candidates, the elements whose boxes
   meet its box, and each vertex's element and reference coordinates. A primitive no element's
   box meets lies outside the mesh: an error naming it. */
static PetscErrorCode EmbedShape(MbBody b)
{
  Fem       *m  = (Fem *)b->data;
  MbShape    s  = b->shape;
  PetscInt   nv = 0, nc = 0, cap = 0;
  PetscReal *ebox;
  PetscFunctionBegin;
  for (PetscInt k = 0; k < s->n; k++) nv += s->prim[k].kind == MB_PRIM_SPHERE ? 1 : s->prim[k].nv;
  PetscCall(PetscMalloc4(s->n + 1, &m->vptr, nv, &m->velem, 3 * nv, &m->vxi, s->n + 1, &m->cptr));
  PetscCall(PetscMalloc1(6 * m->ne, &ebox));
  for (PetscInt e = 0; e < m->ne; e++) {
    PetscReal           x[3 * MB_FEM_MAX_NEN], size, *bx = &ebox[6 * e];
    const MbFemElement *el = ElementNodes(b, e, PETSC_FALSE, x, &size);
    for (int d = 0; d < 3; d++) bx[d] = PETSC_MAX_REAL, bx[3 + d] = -PETSC_MAX_REAL;
    for (PetscInt a = 0; a < el->nen; a++)
      for (int d = 0; d < 3; d++) bx[d] = PetscMin(bx[d], x[3 * a + d] - 1e-9 * size), bx[3 + d] = PetscMax(bx[3 + d], x[3 * a + d] + 1e-9 * size);
  }
  m->vptr[0] = m->cptr[0] = 0;
  for (PetscInt k = 0; k < s->n; k++) {
    const MbPrim    *p = &s->prim[k];
    PetscInt         n = p->kind == MB_PRIM_SPHERE ? 1 : p->nv, c0 = nc;
    const PetscReal *v = p->kind == MB_PRIM_SPHERE ? p->c : p->v;
    PetscReal        lo[3], hi[3];
    for (int d = 0; d < 3; d++) lo[d] = hi[d] = v[d];
    for (PetscInt j = 0; j < n; j++)
      for (int d = 0; d < 3; d++) lo[d] = PetscMin(lo[d], v[3 * j + d] - (p->kind == MB_PRIM_SPHERE ? p->r : 0)), hi[d] = PetscMax(hi[d], v[3 * j + d] + (p->kind == MB_PRIM_SPHERE ? p->r : 0));
    for (PetscInt e = 0; e < m->ne; e++) {
      const PetscReal *bx = &ebox[6 * e];
      if (bx[0] > hi[0] || bx[1] > hi[1] || bx[2] > hi[2] || bx[3] < lo[0] || bx[4] < lo[1] || bx[5] < lo[2]) continue;
      if (nc == cap) {
        cap = PetscMax(2 * cap, 64);
        PetscCall(PetscRealloc(sizeof(PetscInt) * cap, &m->cel));
      }
      m->cel[nc++] = e;
    }
    m->cptr[k + 1] = nc;
    if (nc == c0) {
      PetscCall(PetscFree(ebox));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": primitive %" PetscInt_FMT " of its shape (box (%g, %g, %g) to (%g, %g, %g)) meets no element of its mesh: the mesh must contain the shape", b->id, k,
              (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]);
    }
    { /* the element holding the primitive's centroid first: its points are looked for there
         first (a primitive inside one element maps by it alone, as that element would) */
      PetscReal g[3] = {0, 0, 0}, t[3];
      PetscInt  f;
      for (PetscInt j = 0; j < n; j++) MbV3Add(g, &v[3 * j], g);
      MbV3Scale(1.0 / n, g, g);
      f = Nearest(b, g, PETSC_FALSE, &m->cel[c0], nc - c0, t);
      for (PetscInt i = c0; f >= 0 && i < nc; i++)
        if (m->cel[i] == f) m->cel[i] = m->cel[c0], m->cel[c0] = f;
    }
    for (PetscInt j = 0; j < n; j++) {
      PetscInt i = m->vptr[k] + j, e = Nearest(b, &v[3 * j], PETSC_FALSE, &m->cel[c0], nc - c0, &m->vxi[3 * i]);
      if (e < 0) e = Nearest(b, &v[3 * j], PETSC_FALSE, NULL, m->ne, &m->vxi[3 * i]);
      if (e < 0) PetscCall(PetscFree(ebox));
      PetscCheck(e >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": vertex (%g, %g, %g) of primitive %" PetscInt_FMT " of its shape cannot be mapped into its mesh", b->id, (double)v[3 * j],
                 (double)v[3 * j + 1], (double)v[3 * j + 2], k);
      m->velem[i] = e;
      for (int d = 0; d < 3; d++) { /* Newton's few ulps off a node or a face of the cell (every cell's nodes have coordinates −1, 0 or 1) snapped onto it: a vertex at a node moves with it exactly */
        PetscReal r = round(m->vxi[3 * i + d]);
        if (PetscAbsReal(m->vxi[3 * i + d] - r) < 1e-11) m->vxi[3 * i + d] = r;
      }
    }
    m->vptr[k + 1] = m->vptr[k] + n;
  }
  PetscCall(PetscFree(ebox));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An embedded shape's mass is the shape's (Solfec-1.0 integrates the mesh over its cut with
   the shape; moreau integrates whole elements): every quadrature weight, and so the lumped
   masses and the stiffness alike, is scaled by V_shape / V_mesh, the mesh's material diluted
   to the shape's volume (the body's mass and weight are the shape's, its frequencies the
   mesh's). */
static PetscErrorCode DiluteToShape(MbBody b)
{
  Fem      *m = (Fem *)b->data;
  PetscReal V = 0, r;
  PetscInt *tab;
  PetscFunctionBegin;
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el = MbFemElemOf(m, e);
    for (PetscInt k = 0; k < el->nqp; k++) V += MbFemPoint(m, e, k, el->nen)[3 * el->nen];
  }
  r = b->mp.volume / V;
  if (PetscAbsReal(r - 1) < 1e-14) PetscFunctionReturn(PETSC_SUCCESS); /* the mesh's volume to rounding (the shape is the mesh): its weights, as the mesh's own body has */
  PetscCall(PetscMalloc1(2 * m->ne, &tab));                            /* elements share quadrature tables: each scaled once */
  for (PetscInt e = 0; e < m->ne; e++) tab[e] = m->gptr[e], tab[m->ne + e] = e;
  PetscCall(PetscSortIntWithArray(m->ne, tab, tab + m->ne)); /* by offset, each with an element of it */
  for (PetscInt i = 0; i < m->ne; i++) {
    const MbFemElement *el = MbFemElemOf(m, tab[m->ne + i]);
    if (i > 0 && tab[i] == tab[i - 1]) continue;
    for (PetscInt k = 0; k < el->nqp; k++) m->G[tab[i] + k * FEM_QP_SIZE(el->nen) + 3 * el->nen] *= r;
  }
  PetscCall(PetscFree(tab));
  for (PetscInt a = 0; a < m->nn; a++) m->mass[a] *= r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Interpolate(MbBody b, PetscInt e, const PetscReal xi[3], const PetscReal v[], PetscReal y[3])
{
  Fem                *m  = (Fem *)b->data;
  const MbFemElement *el = MbFemElemOf(m, e);
  PetscReal           N[MB_FEM_MAX_NEN], dN[3 * MB_FEM_MAX_NEN];
  el->shape(xi, N, dN);
  y[0] = y[1] = y[2] = 0;
  for (PetscInt a = 0; a < el->nen; a++)
    for (int d = 0; d < 3; d++) y[d] += N[a] * v[3 * m->enode[m->eptr[e] + a] + d];
  return PETSC_SUCCESS;
}

static PetscErrorCode FemToSpatial(MbBody b, const PetscReal X[3], PetscReal x[3])
{
  PetscReal xi[3], d[3];
  PetscInt  e = LocateNear(b, X, xi);
  PetscFunctionBegin;
  PetscCheck(e >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": the point (%g, %g, %g) is not in its mesh", b->id, (double)X[0], (double)X[1], (double)X[2]);
  PetscCall(Interpolate(b, e, xi, b->q, d));
  MbV3Add(X, d, x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x ↦ X: in element prim when the point was found on it (extrapolated outside it, as a
   contact point may be), else in the element holding it */
static PetscErrorCode FemToReferential(MbBody b, PetscInt prim, const PetscReal x[3], PetscReal X[3])
{
  Fem      *m = (Fem *)b->data;
  PetscReal xi[3];
  PetscInt  e = -1;
  PetscFunctionBegin;
  if (m->embed && prim >= 0 && prim < b->shape->n) { /* Solfec-1.0's stabbed_spatial_element: among the elements the primitive meets, the one holding x, else the nearest */
    PetscInt            f = m->cel[m->cptr[prim]];   /* the element of its centroid */
    PetscReal           xe[3 * MB_FEM_MAX_NEN], size;
    const MbFemElement *el  = ElementNodes(b, f, PETSC_TRUE, xe, &size);
    PetscBool           one = PETSC_TRUE; /* all of the primitive's vertices are in f */
    for (PetscInt i = m->vptr[prim]; i < m->vptr[prim + 1]; i++) one = (PetscBool)(one && m->velem[i] == f && MbFemInside(el, &m->vxi[3 * i], 1e-9));
    if (MbFemInvert(el, xe, x, xi) && MbFemInside(el, xi, one ? 2.0 : 1e-9))
      e = f; /* a primitive in one element is that element's: a contact point between two surfaces, outside it by up to the overlap, is still its (as a mesh's element) */
    else
      e = Nearest(b, x, PETSC_TRUE, &m->cel[m->cptr[prim]], m->cptr[prim + 1] - m->cptr[prim], xi);
  } else if (!m->embed && prim >= 0 && prim < m->ne) {
    const MbFemElement *el  = MbFemElemOf(m, prim);
    const PetscInt     *nod = &m->enode[m->eptr[prim]];
    PetscReal           xe[3 * MB_FEM_MAX_NEN];
    for (PetscInt a = 0; a < el->nen; a++)
      for (int d = 0; d < 3; d++) xe[3 * a + d] = m->X[3 * nod[a] + d] + b->q[3 * nod[a] + d];
    if (MbFemInvert(el, xe, x, xi)) {
      if (MbFemInside(el, xi, 2.0))
        e = prim; /* a contact point lies between two surfaces: outside its element by up to the overlap */
      else {
        /* farther out (the narrow phase's point on the other body's face, several elements
           away from a thin element: tests/BM24, inp/wire.py): an element holding it or
           near it, else the extrapolation of the element it was found on, as Solfec-1.0
           (fem.c, FEM_Ref_Point: spatial_to_local in the contact's element, unchecked) */
        PetscReal t[3] = {xi[0], xi[1], xi[2]};
        e              = Locate(b, x, PETSC_TRUE, xi);
        if (e < 0) e = prim, xi[0] = t[0], xi[1] = t[1], xi[2] = t[2];
      }
    }
  }
  if (e < 0) e = Locate(b, x, PETSC_TRUE, xi);
  if (e < 0) e = Nearest(b, x, PETSC_TRUE, NULL, m->ne, xi); /* Solfec-1.0 does not stop: the nearest element's extrapolation */
  PetscCheck(e >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": the point (%g, %g, %g) is not in its deformed mesh (found on element %" PetscInt_FMT ")", b->id, (double)x[0], (double)x[1], (double)x[2], prim);
  PetscCall(Interpolate(b, e, xi, m->X, X));
  CacheInsert(m, X, e, xi); /* H, the velocity and the place of X will be asked for */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An embedded primitive k's vertices (a sphere: its centre) interpolated from v (q or u) at
   their elements and reference coordinates, plus the referential vertices when add */
static void EmbeddedVertices(MbBody b, PetscInt k, const PetscReal v[], PetscBool add, PetscReal x[])
{
  Fem             *m = (Fem *)b->data;
  const MbPrim    *p = &b->shape->prim[k];
  const PetscReal *V = p->kind == MB_PRIM_SPHERE ? p->c : p->v;
  for (PetscInt i = m->vptr[k]; i < m->vptr[k + 1]; i++) {
    PetscReal *y = &x[3 * (i - m->vptr[k])];
    (void)Interpolate(b, m->velem[i], &m->vxi[3 * i], v, y);
    if (add) MbV3Add(y, &V[3 * (i - m->vptr[k])], y);
  }
}

/* element k's vertices are its nodes (src/shape/element.c keeps their order); an embedded
   shape's move with the elements holding them */
static PetscErrorCode FemPrimToSpatial(MbBody b, PetscInt k, PetscReal x[])
{
  Fem *m = (Fem *)b->data;
  if (m->embed) {
    EmbeddedVertices(b, k, b->q, PETSC_TRUE, x);
    return PETSC_SUCCESS;
  }
  for (PetscInt a = m->eptr[k]; a < m->eptr[k + 1]; a++)
    for (int d = 0; d < 3; d++) x[3 * (a - m->eptr[k]) + d] = m->X[3 * m->enode[a] + d] + b->q[3 * m->enode[a] + d];
  return PETSC_SUCCESS;
}

static PetscErrorCode FemPrimVelocity(MbBody b, PetscInt k, PetscReal v[])
{
  Fem *m = (Fem *)b->data;
  if (m->embed) {
    EmbeddedVertices(b, k, b->u, PETSC_FALSE, v);
    return PETSC_SUCCESS;
  }
  for (PetscInt a = m->eptr[k]; a < m->eptr[k + 1]; a++)
    for (int d = 0; d < 3; d++) v[3 * (a - m->eptr[k]) + d] = b->u[3 * m->enode[a] + d];
  return PETSC_SUCCESS;
}

/* element e's mean Cauchy stress (its quadrature points by their weights) and volume: SVK's
   of the full F for either form (as Solfec-1.0 outputs its 'BC' bodies' stress: local to the
   element, right under any rotation; the 'BC' model's own, R̲ C:ε(a) R̲ᵀ with the body's R,
   differs from it by the square of the element's rotation relative to the body's) */
static void ElementStress(MbBody b, PetscInt e, PetscReal sigma[9], PetscReal *vol)
{
  Fem                *m  = (Fem *)b->data;
  const MbFemElement *el = MbFemGather(m, e, b->q, m->ue);
  *vol                   = 0;
  for (int i = 0; i < 9; i++) sigma[i] = 0;
  for (PetscInt k = 0; k < el->nqp; k++) {
    const PetscReal *g = MbFemPoint(m, e, k, el->nen);
    PetscReal        s[9];
    MbSvkCauchy(&m->svk, el->nen, g, m->ue, s);
    for (int i = 0; i < 9; i++) sigma[i] += g[3 * el->nen] * s[i];
    *vol += g[3 * el->nen];
  }
  for (int i = 0; i < 9; i++) sigma[i] /= *vol;
}

/* an element's mean stress; an embedded primitive's: the mean of its candidate elements' (the
   ones its box meets) by their volumes */
static PetscErrorCode FemPrimStress(MbBody b, PetscInt e, PetscReal sigma[9])
{
  Fem      *m = (Fem *)b->data;
  PetscReal v, se[9], V = 0;
  if (!m->embed) {
    ElementStress(b, e, sigma, &v);
    return PETSC_SUCCESS;
  }
  for (int i = 0; i < 9; i++) sigma[i] = 0;
  for (PetscInt c = m->cptr[e]; c < m->cptr[e + 1]; c++) {
    ElementStress(b, m->cel[c], se, &v);
    for (int i = 0; i < 9; i++) sigma[i] += v * se[i];
    V += v;
  }
  for (int i = 0; i < 9; i++) sigma[i] /= V;
  return PETSC_SUCCESS;
}

static PetscErrorCode FemPointVelocity(MbBody b, const PetscReal u[], const PetscReal X[3], PetscReal v[3])
{
  PetscReal xi[3];
  PetscInt  e = LocateNear(b, X, xi);
  PetscFunctionBegin;
  PetscCheck(e >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": the point (%g, %g, %g) is not in its mesh", b->id, (double)X[0], (double)X[1], (double)X[2]);
  PetscCall(Interpolate(b, e, xi, u, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* H = baseᵀ [N_1 I … N_n I](ξ): zero outside the element holding X (MbFemOperatorHs's
   columns, scattered) */
static PetscErrorCode FemOperatorH(MbBody b, const PetscReal X[3], const PetscReal base[9], PetscReal H[])
{
  PetscInt  n, col[MB_BODY_HS_MAX];
  PetscReal Hs[3 * MB_BODY_HS_MAX];
  PetscFunctionBegin;
  PetscCall(MbFemOperatorHs(b, X, base, &n, col, Hs));
  PetscCall(PetscArrayzero(H, 3 * b->nu));
  for (int r = 0; r < 3; r++)
    for (PetscInt k = 0; k < n; k++) H[r * b->nu + col[k]] = Hs[r * n + k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same H by its nonzero columns: the element's nodes, 3 each, less the nodes whose
   N_a(ξ) is below 1e-10. A point on a face, found by Newton's method a few ulps off it, has
   no weight on the nodes away from the face (1e-10 moves the point by that fraction of the
   element, far below any tolerance); dropping them halves the columns a floor's contact
   points touch, the cost of delassus.c. */
PetscErrorCode MbFemOperatorHs(MbBody b, const PetscReal X[3], const PetscReal base[9], PetscInt *n, PetscInt col[], PetscReal H[])
{
  Fem                *m = (Fem *)b->data;
  PetscReal           xi[3], N[MB_FEM_MAX_NEN], dN[3 * MB_FEM_MAX_NEN], Hc[3][MB_BODY_HS_MAX];
  PetscInt            e = LocateNear(b, X, xi), nc = 0;
  const MbFemElement *el;
  PetscFunctionBegin;
  PetscCheck(e >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": the point (%g, %g, %g) is not in its mesh", b->id, (double)X[0], (double)X[1], (double)X[2]);
  el = MbFemElemOf(m, e);
  el->shape(xi, N, dN);
  for (PetscInt a = 0; a < el->nen; a++) {
    PetscInt nd = m->enode[m->eptr[e] + a];
    if (PetscAbsReal(N[a]) < 1e-10) continue;
    for (int d = 0; d < 3; d++, nc++) {
      col[nc] = 3 * nd + d;
      for (int r = 0; r < 3; r++) Hc[r][nc] = base[3 * d + r] * N[a];
    }
  }
  for (int r = 0; r < 3; r++)
    for (PetscInt k = 0; k < nc; k++) H[r * nc + k] = Hc[r][k];
  *n = nc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solfec-1.0's GEOMETRIC_EPSILON default: a referential point within it of a node of its
   element (in each coordinate) is that node (Solfec-1.0 msh.c ELEMENT_Ref_Point_To_Node
   behaviour) */
#define MB_FEM_NODE_EPS 1e-4
#define MB_FEM_AROUND_MAX 64 /* the most elements around a node a point's stress averages */

/* What X's place, velocity and stress depend on, as Solfec-1.0 evaluates them (fem.c
   FEM_Point_Values behaviour): e, X's element (located strictly or, near = true, as the body's
   own points are) with X's reference coordinates xi in it; when X is one of e's nodes, the
   elements around that node (all those holding it, in order) in el, else e alone; and nodes,
   the union of their nodes in order of first appearance. */
static PetscErrorCode PointSupport(MbBody b, const PetscReal X[3], PetscBool near, PetscInt *e, PetscReal xi[3], PetscInt *nel, PetscInt el[], PetscInt *nn, PetscInt nodes[])
{
  Fem     *m    = (Fem *)b->data;
  PetscInt node = -1;
  PetscFunctionBegin;
  *e = near ? LocateNear(b, X, xi) : Locate(b, X, PETSC_FALSE, xi);
  PetscCheck(*e >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": the point (%g, %g, %g) is not in its mesh", b->id, (double)X[0], (double)X[1], (double)X[2]);
  for (PetscInt a = m->eptr[*e]; a < m->eptr[*e + 1] && node < 0; a++) {
    const PetscReal *Xa = &m->X[3 * m->enode[a]];
    if (PetscAbsReal(Xa[0] - X[0]) < MB_FEM_NODE_EPS && PetscAbsReal(Xa[1] - X[1]) < MB_FEM_NODE_EPS && PetscAbsReal(Xa[2] - X[2]) < MB_FEM_NODE_EPS) node = m->enode[a];
  }
  *nel = 0;
  if (node < 0)
    el[(*nel)++] = *e;
  else
    for (PetscInt k = 0; k < m->ne; k++)
      for (PetscInt a = m->eptr[k]; a < m->eptr[k + 1]; a++)
        if (m->enode[a] == node) {
          PetscCheck(*nel < MB_FEM_AROUND_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "FINITE_ELEMENT body %" PetscInt_FMT ": node %" PetscInt_FMT " at (%g, %g, %g) has more than %d elements around it", b->id, node, (double)X[0], (double)X[1], (double)X[2],
                     MB_FEM_AROUND_MAX);
          el[(*nel)++] = k;
          break;
        }
  *nn = 0;
  for (PetscInt i = 0; i < *nel; i++)
    for (PetscInt a = m->eptr[el[i]]; a < m->eptr[el[i] + 1]; a++) {
      PetscInt j = 0;
      while (j < *nn && nodes[j] != m->enode[a]) j++;
      if (j < *nn) continue;
      PetscCheck(3 * (*nn + 1) <= MB_BODY_POINT_DOFS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "FINITE_ELEMENT body %" PetscInt_FMT ": the elements around (%g, %g, %g) have more than %d nodes", b->id, (double)X[0], (double)X[1], (double)X[2],
                 MB_BODY_POINT_DOFS_MAX / 3);
      nodes[(*nn)++] = m->enode[a];
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The entries of q and u X depends on (PointSupport's nodes, 3 each) */
static PetscErrorCode FemPointDofs(MbBody b, const PetscReal X[3], PetscInt *n, PetscInt col[])
{
  PetscReal xi[3];
  PetscInt  e, nel, el[MB_FEM_AROUND_MAX], nn, nodes[MB_BODY_POINT_DOFS_MAX / 3];
  PetscFunctionBegin;
  PetscCall(PointSupport(b, X, PETSC_FALSE, &e, xi, &nel, el, &nn, nodes));
  *n = 3 * nn;
  for (PetscInt a = 0; a < nn; a++)
    for (int d = 0; d < 3; d++) col[3 * a + d] = 3 * nodes[a] + d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* X's place and velocity interpolated in its element from the nodes' q and u (qc, uc in
   FemPointDofs' order), and the Cauchy stress σ = J⁻¹ F S Fᵀ of F at X itself (not the
   element's mean, which the output's cells carry) — at a mesh node, the plain mean of σ at the
   node over the elements around it, each from its own F there (Solfec-1.0 fem.c
   FEM_Cur_Node_Values behaviour: no extrapolation from quadrature points, no volume weights) */
static PetscErrorCode FemPointState(MbBody b, const PetscReal X[3], const PetscReal qc[], const PetscReal uc[], PetscReal x[3], PetscReal v[3], PetscReal sigma[9])
{
  Fem      *m = (Fem *)b->data;
  PetscReal xi[3], N[MB_FEM_MAX_NEN], dN[3 * MB_FEM_MAX_NEN], Xe[3 * MB_FEM_MAX_NEN], ue[3 * MB_FEM_MAX_NEN], ve[3 * MB_FEM_MAX_NEN], G[3 * MB_FEM_MAX_NEN], detJ;
  PetscInt  e, nel, el[MB_FEM_AROUND_MAX], nn, nodes[MB_BODY_POINT_DOFS_MAX / 3];
  PetscFunctionBegin;
  PetscCall(PointSupport(b, X, PETSC_TRUE, &e, xi, &nel, el, &nn, nodes));
  for (int i = 0; i < 9; i++) sigma[i] = 0;
  for (PetscInt i = 0; i < nel; i++) {
    const MbFemElement *ty = MbFemElemOf(m, el[i]);
    PetscReal           t[3], s[9];
    for (PetscInt a = 0; a < ty->nen; a++) {
      PetscInt k = m->enode[m->eptr[el[i]] + a], j = 0;
      while (nodes[j] != k) j++; /* PointSupport put every node of el[i] in nodes */
      for (int d = 0; d < 3; d++) Xe[3 * a + d] = m->X[3 * k + d], ue[3 * a + d] = qc[3 * j + d], ve[3 * a + d] = uc[3 * j + d];
    }
    if (el[i] == e)
      t[0] = xi[0], t[1] = xi[1], t[2] = xi[2];
    else
      PetscCheck(MbFemInvert(ty, Xe, X, t), PETSC_COMM_SELF, PETSC_ERR_PLIB, "FINITE_ELEMENT body %" PetscInt_FMT ": element %" PetscInt_FMT " cannot be inverted at its node (%g, %g, %g)", b->id, el[i], (double)X[0], (double)X[1], (double)X[2]);
    ty->shape(t, N, dN);
    if (el[i] == e) {
      MbV3Copy(X, x);
      v[0] = v[1] = v[2] = 0;
      for (PetscInt a = 0; a < ty->nen; a++)
        for (int d = 0; d < 3; d++) x[d] += N[a] * ue[3 * a + d], v[d] += N[a] * ve[3 * a + d];
    }
    MbFemGradients(ty, Xe, dN, G, &detJ);
    MbSvkCauchy(&m->svk, ty->nen, G, ue, s); /* either form: ElementStress says why */
    for (int r = 0; r < 9; r++) sigma[r] += s[r] / (PetscReal)nel;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FemMomentum(MbBody b, PetscReal L[3], PetscReal p[3])
{
  Fem *m = (Fem *)b->data;
  L[0] = L[1] = L[2] = p[0] = p[1] = p[2] = 0;
  for (PetscInt a = 0; a < m->nn; a++) {
    PetscReal x[3], mv[3], c[3];
    for (int d = 0; d < 3; d++) x[d] = m->X[3 * a + d] + b->q[3 * a + d], mv[d] = m->mass[a] * b->u[3 * a + d];
    MbV3Cross(x, mv, c);
    MbV3Add(L, c, L);
    MbV3Add(p, mv, p);
  }
  return PETSC_SUCCESS;
}

/* the current mass centre */
static void Centre(MbBody b, PetscReal c[3])
{
  Fem      *m = (Fem *)b->data;
  PetscReal s = 0;
  c[0] = c[1] = c[2] = 0;
  for (PetscInt a = 0; a < m->nn; a++) {
    for (int d = 0; d < 3; d++) c[d] += m->mass[a] * (m->X[3 * a + d] + b->q[3 * a + d]);
    s += m->mass[a];
  }
  for (int d = 0; d < 3; d++) c[d] /= s;
}

/* a referential ω is taken as spatial (the mesh keeps no rotation of its own) */
static PetscErrorCode FemSetVelocity(MbBody b, const PetscReal v[3], const PetscReal w[3], PetscBool spatial)
{
  Fem      *m = (Fem *)b->data;
  PetscReal c[3], vbar[3] = {0, 0, 0}, M = 0;
  Centre(b, c);
  for (PetscInt a = 0; a < m->nn; a++) {
    for (int d = 0; d < 3; d++) vbar[d] += m->mass[a] * b->u[3 * a + d];
    M += m->mass[a];
  }
  for (int d = 0; d < 3; d++) vbar[d] /= M;
  /* u_a = v̄ + ω × (x_a − x̄): the mass centre's velocity and the spin given replace the
     body's; what is not given is kept (the rest of the motion about the mass centre) */
  for (PetscInt a = 0; a < m->nn; a++) {
    PetscReal r[3], rel[3];
    for (int d = 0; d < 3; d++) r[d] = m->X[3 * a + d] + b->q[3 * a + d] - c[d], rel[d] = b->u[3 * a + d] - vbar[d];
    if (w) MbV3Cross(w, r, rel);
    for (int d = 0; d < 3; d++) b->u[3 * a + d] = (v ? v[d] : vbar[d]) + rel[d];
  }
  return m->rform ? MbFemReducedProject(m, b->q, b->id, b->u) : PETSC_SUCCESS; /* a reduced form's motion is in its base's span */
}

/* x ↦ R(x − c) + c + d for the nodes; velocities turn with R */
static PetscErrorCode FemTransform(MbBody b, const PetscReal R[9], const PetscReal c[3], const PetscReal d[3])
{
  Fem *m = (Fem *)b->data;
  for (PetscInt a = 0; a < m->nn; a++) {
    PetscReal x[3], y[3];
    for (int k = 0; k < 3; k++) x[k] = m->X[3 * a + k] + b->q[3 * a + k] - c[k];
    MbM3Mult(R, x, y);
    for (int k = 0; k < 3; k++) b->q[3 * a + k] = y[k] + c[k] + d[k] - m->X[3 * a + k];
    MbM3Mult(R, &b->u[3 * a], y);
    MbV3Copy(y, &b->u[3 * a]);
  }
  return PETSC_SUCCESS;
}

static PetscErrorCode FemBound(MbBody b, PetscReal c[3], PetscReal *r)
{
  Fem      *m  = (Fem *)b->data;
  PetscReal r2 = 0;
  Centre(b, c);
  for (PetscInt a = 0; a < m->nn; a++) {
    PetscReal x[3];
    for (int d = 0; d < 3; d++) x[d] = m->X[3 * a + d] + b->q[3 * a + d] - c[d];
    r2 = PetscMax(r2, MbV3Dot(x, x));
  }
  for (PetscInt k = 0; m->embed && k < b->shape->n; k++) { /* an embedded shape may reach outside the mesh */
    const MbPrim *p = &b->shape->prim[k];
    for (PetscInt i = m->vptr[k]; i < m->vptr[k + 1]; i++) {
      PetscReal x[3];
      (void)Interpolate(b, m->velem[i], &m->vxi[3 * i], b->q, x);
      MbV3Add(x, p->kind == MB_PRIM_SPHERE ? p->c : &p->v[3 * (i - m->vptr[k])], x);
      MbV3Sub(x, c, x);
      r2 = PetscMax(r2, PetscSqr(PetscSqrtReal(MbV3Dot(x, x)) + (p->kind == MB_PRIM_SPHERE ? p->r : 0)));
    }
  }
  *r = PetscSqrtReal(r2);
  return PETSC_SUCCESS;
}

/* RIGID_TO_FEM: every node X_a takes the homogeneous motion's place and velocity,
   x_a = x̄ + A(X_a − Xc), u_a = v + B(X_a − Xc). For a rigid motion A = Λ, B = Λ hat(Ω), so
   u_a = v + ω × (x_a − x̄) with ω = ΛΩ the spatial angular velocity (Solfec-1.0's
   FEM_From_Rigid adds the referential Ω × (X_a − X̄) unrotated, which is this only while
   Λ = I) */
static PetscErrorCode FemSetAffine(MbBody b, const PetscReal Xc[3], const PetscReal mo[24])
{
  Fem *m = (Fem *)b->data;
  for (PetscInt a = 0; a < m->nn; a++) {
    PetscReal R[3], y[3], w[3];
    for (int d = 0; d < 3; d++) R[d] = m->X[3 * a + d] - Xc[d];
    MbM3Mult(&mo[0], R, y);
    MbM3Mult(&mo[9], R, w);
    for (int d = 0; d < 3; d++) b->q[3 * a + d] = mo[18 + d] + y[d] - m->X[3 * a + d], b->u[3 * a + d] = mo[21 + d] + w[d];
  }
  return PETSC_SUCCESS;
}

/* an output frame keeps the mass centre's motion: identity rotation, x̄, no spin, v̄ */
static PetscErrorCode FemFrameState(MbBody b, PetscReal q[12], PetscReal u[6])
{
  Fem      *m = (Fem *)b->data;
  PetscReal s = 0;
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(q, 12));
  PetscCall(PetscArrayzero(u, 6));
  q[0] = q[4] = q[8] = 1;
  Centre(b, &q[9]);
  for (PetscInt a = 0; a < m->nn; a++) {
    for (int d = 0; d < 3; d++) u[3 + d] += m->mass[a] * b->u[3 * a + d];
    s += m->mass[a];
  }
  for (int d = 0; d < 3; d++) u[3 + d] /= s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The homogeneous part of the motion, for output frames and HISTORY's point items: the
   mass-weighted least-squares affine fit x ≈ x̄ + A(X − X̄), ẋ ≈ v + B(X − X̄) of the nodes
   (exact for a homogeneous deformation; x̄, v the mass centre's place and velocity, X̄ the
   reference one, which row-sum lumping keeps exactly). */
static PetscErrorCode FemAffine(MbBody b, PetscReal out[24])
{
  Fem      *m    = (Fem *)b->data;
  PetscReal C[9] = {0}, Ci[9], Dx[9] = {0}, Dv[9] = {0}, Xc[3] = {0, 0, 0}, M = 0;
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(out, 24));
  for (PetscInt a = 0; a < m->nn; a++) {
    for (int d = 0; d < 3; d++) Xc[d] += m->mass[a] * m->X[3 * a + d], out[18 + d] += m->mass[a] * (m->X[3 * a + d] + b->q[3 * a + d]), out[21 + d] += m->mass[a] * b->u[3 * a + d];
    M += m->mass[a];
  }
  for (int d = 0; d < 3; d++) Xc[d] /= M, out[18 + d] /= M, out[21 + d] /= M;
  for (PetscInt a = 0; a < m->nn; a++) {
    PetscReal R[3], x[3], v[3];
    for (int d = 0; d < 3; d++) R[d] = m->X[3 * a + d] - Xc[d], x[d] = m->X[3 * a + d] + b->q[3 * a + d] - out[18 + d], v[d] = b->u[3 * a + d] - out[21 + d];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) C[3 * i + j] += m->mass[a] * R[i] * R[j], Dx[3 * i + j] += m->mass[a] * x[i] * R[j], Dv[3 * i + j] += m->mass[a] * v[i] * R[j];
  }
  PetscCall(MbM3Invert(C, Ci)); /* a mesh with volume has C positive definite */
  MbM3MatMult(Dx, Ci, &out[0]);
  MbM3MatMult(Dv, Ci, &out[9]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the volume average of the Cauchy stress over the reference volume: the elements' means by
   their volumes */
static PetscErrorCode FemStress(MbBody b, PetscReal sigma[9])
{
  Fem      *m = (Fem *)b->data;
  PetscReal v = 0;
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(sigma, 9));
  for (PetscInt e = 0; e < m->ne; e++) {
    PetscReal se[9], ve;
    ElementStress(b, e, se, &ve);
    for (int i = 0; i < 9; i++) sigma[i] += ve * se[i];
    v += ve;
  }
  for (int i = 0; i < 9; i++) sigma[i] /= v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* what travels: the mesh, the quadrature data, the masses and the material */
/* From a frame: the body's nodal q and u */
static PetscErrorCode FemFrameRestore(MbBody b, const PetscReal conf[12], const PetscReal velo[6], const PetscReal m[24], PetscInt n, const PetscReal nodal[])
{
  PetscFunctionBegin;
  PetscCheck(n == b->nq + b->nu, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "FINITE_ELEMENT body %" PetscInt_FMT ": its frame keeps %" PetscInt_FMT " nodal numbers; %" PetscInt_FMT " expected", b->id, n, b->nq + b->nu);
  PetscCall(PetscArraycpy(b->q, nodal, b->nq));
  PetscCall(PetscArraycpy(b->u, nodal + b->nq, b->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A checkpoint keeps DEF_LIM's factor state: a restart makes the same factor again, so the
   steps it serves go on bit for bit (stiffness.c) */
/* A step's own work in rigid bodies' steps: the nodes' integration (nu/6, as the other
   kinds) and a quadrature point's force and energy, each about as dear as a rigid body's
   whole step (doc/benchmarks.md: ~700 and ~400 instructions a HEX8 point) */
static PetscInt FemWork(MbBody b)
{
  Fem     *m = (Fem *)b->data;
  PetscInt w = b->nu / 6;
  for (PetscInt e = 0; e < m->ne; e++) w += MbFemElemOf(m, e)->nqp;
  return PetscMax(1, w);
}

/* Solfec's forms: 'TL' (total Lagrangian, the default), 'BC' (body co-rotational,
   corotated.c) and the reduced 'BC-MODAL' and 'BC-RO' (reduced.c: 'BC' with a base) */
static const char *const FemFormNames[] = {"TL", "BC", "BC-MODAL", "BC-RO"};

static PetscErrorCode FemForm(MbBody b, const char *form)
{
  Fem     *m = (Fem *)b->data;
  PetscInt f = -1;
  PetscFunctionBegin;
  for (PetscInt k = 0; k < 4; k++) {
    PetscBool eq;
    PetscCall(PetscStrcmp(form, FemFormNames[k], &eq));
    if (eq) f = k;
  }
  PetscCheck(f >= 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "FINITE_ELEMENT body %" PetscInt_FMT ": form '%s' is not supported: 'TL' (total Lagrangian), 'BC' (body co-rotational), 'BC-MODAL' and 'BC-RO' (reduced) are", b->id, form);
  PetscCheck(!m->factored && !m->K && m->cB < 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "FINITE_ELEMENT body %" PetscInt_FMT ": its form is set before it first moves", b->id);
  m->bc    = f >= 1 ? PETSC_TRUE : PETSC_FALSE;
  m->rform = f >= 2 ? f - 1 : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the reduced forms' velocity in their base's span at q (reduced.c) */
static PetscErrorCode FemProject(MbBody b, PetscReal u[])
{
  Fem *m = (Fem *)b->data;
  return m->rform ? MbFemReducedProject(m, b->q, b->id, u) : PETSC_SUCCESS;
}

/* MODAL_ANALYSIS (modal.c) */
static PetscErrorCode FemModal(MbBody b, PetscInt n, PetscReal lambda[], PetscReal V[]) { return MbFemModal((Fem *)b->data, b->id, n, lambda, V); }

/* a reduced form's base (reduced.c); the velocity projected on it */
static PetscErrorCode FemBasis(MbBody b, PetscInt n, const PetscReal val[], const PetscReal vec[])
{
  Fem *m = (Fem *)b->data;
  PetscFunctionBegin;
  PetscCheck(m->rform, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "FINITE_ELEMENT body %" PetscInt_FMT ": a base is for the forms 'BC-MODAL' and 'BC-RO'; this body's is '%s'", b->id, m->bc ? "BC" : "TL");
  PetscCall(MbFemSetBasis(m, b->id, n, val, vec));
  PetscCall(MbFemReducedProject(m, b->q, b->id, b->u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FemStateSize(MbBody b, PetscInt *n)
{
  *n = MbFemFactorStateSize((Fem *)b->data);
  return PETSC_SUCCESS;
}

static PetscErrorCode FemStateGet(MbBody b, PetscReal x[]) { return MbFemFactorStateGet((Fem *)b->data, x); }

static PetscErrorCode FemStateSet(MbBody b, const PetscReal x[], PetscInt n) { return MbFemFactorStateSet((Fem *)b->data, x, n); }

static PetscErrorCode FemPackSize(MbBody b, size_t *n)
{
  Fem *m = (Fem *)b->data;
  *n     = 4 * sizeof(PetscInt) + 2 * sizeof(PetscReal) + (size_t)(m->ne + 1) * 2 * sizeof(PetscInt) + (size_t)m->eptr[m->ne] * sizeof(PetscInt) + (size_t)(4 * m->nn + m->gptr[m->ne] + m->nb * (1 + 3 * m->nn)) * sizeof(PetscReal);
  if (m->embed) { /* the embedded shape's map: nv, nc, vptr, velem, vxi, cptr, cel */
    PetscInt ns = b->shape->n, nv = m->vptr[ns], nc = m->cptr[ns];
    *n += (size_t)(2 + 2 * (ns + 1) + nv + nc) * sizeof(PetscInt) + (size_t)(3 * nv) * sizeof(PetscReal);
  }
  return PETSC_SUCCESS;
}

static PetscErrorCode FemPack(MbBody b, char *buf)
{
  Fem *m = (Fem *)b->data;
#define PUT(p, len) (memcpy(buf, (p), (len)), buf += (len))
  PUT(&m->nn, sizeof(PetscInt));
  PUT(&m->ne, sizeof(PetscInt));
  {
    const PetscInt form = (m->rform ? 1 + m->rform : m->bc ? 1 : 0) | (m->embed ? 4 : 0); /* 0 TL, 1 BC, 2-3 reduced; 4: an embedded shape */
    PUT(&form, sizeof(PetscInt));
    PUT(&m->nb, sizeof(PetscInt)); /* a reduced form's base travels with it */
  }
  PUT(&m->young, sizeof(PetscReal));
  PUT(&m->poisson, sizeof(PetscReal));
  PUT(m->eptr, (size_t)(m->ne + 1) * sizeof(PetscInt));
  PUT(m->gptr, (size_t)(m->ne + 1) * sizeof(PetscInt));
  PUT(m->enode, (size_t)m->eptr[m->ne] * sizeof(PetscInt));
  PUT(m->X, 3 * (size_t)m->nn * sizeof(PetscReal));
  PUT(m->mass, (size_t)m->nn * sizeof(PetscReal));
  PUT(m->G, (size_t)m->gptr[m->ne] * sizeof(PetscReal));
  if (m->nb) {
    PUT(m->lam, (size_t)m->nb * sizeof(PetscReal));
    PUT(m->E, (size_t)m->nb * 3 * m->nn * sizeof(PetscReal));
  }
  if (m->embed) {
    PetscInt ns = b->shape->n;
    PUT(&m->vptr[ns], sizeof(PetscInt));
    PUT(&m->cptr[ns], sizeof(PetscInt));
    PUT(m->vptr, (size_t)(ns + 1) * sizeof(PetscInt));
    PUT(m->velem, (size_t)m->vptr[ns] * sizeof(PetscInt));
    PUT(m->vxi, 3 * (size_t)m->vptr[ns] * sizeof(PetscReal));
    PUT(m->cptr, (size_t)(ns + 1) * sizeof(PetscInt));
    PUT(m->cel, (size_t)m->cptr[ns] * sizeof(PetscInt));
  }
#undef PUT
  return PETSC_SUCCESS;
}

static PetscErrorCode FemUnpack(MbBody b, const char *buf, size_t len)
{
  Fem        *m   = (Fem *)b->data;
  const char *end = buf + len;
  PetscReal   E, nu;
  PetscInt    nb;
  PetscFunctionBegin;
#define GET(p, n)                                                                                                                                                                                                                                        \
  do {                                                                                                                                                                                                                                                   \
    PetscCheck((size_t)(end - buf) >= (n), PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed FINITE_ELEMENT body %" PetscInt_FMT " is truncated", b->id);                                                                                                  \
    memcpy((p), buf, (n));                                                                                                                                                                                                                               \
    buf += (n);                                                                                                                                                                                                                                          \
  } while (0)
  GET(&m->nn, sizeof(PetscInt));
  GET(&m->ne, sizeof(PetscInt));
  PetscCheck(m->nn > 0 && m->ne > 0 && 3 * m->nn == b->nq, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed FINITE_ELEMENT body %" PetscInt_FMT ": %" PetscInt_FMT " nodes for nq = %" PetscInt_FMT, b->id, m->nn, b->nq);
  {
    PetscInt form;
    GET(&form, sizeof(PetscInt));
    PetscCheck(form >= 0 && form <= 7, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed FINITE_ELEMENT body %" PetscInt_FMT ": form %" PetscInt_FMT, b->id, form);
    m->bc    = (form & 3) ? PETSC_TRUE : PETSC_FALSE;
    m->rform = (form & 3) >= 2 ? (form & 3) - 1 : 0;
    m->embed = (form & 4) ? PETSC_TRUE : PETSC_FALSE;
    GET(&nb, sizeof(PetscInt));
    PetscCheck(nb >= 0 && nb <= 3 * m->nn, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed FINITE_ELEMENT body %" PetscInt_FMT ": a base of %" PetscInt_FMT " vectors", b->id, nb);
  }
  GET(&E, sizeof(PetscReal));
  GET(&nu, sizeof(PetscReal));
  {
    PetscInt *eptr; /* the offsets first: they size the block FemCreate's layout puts them in */
    PetscCall(PetscMalloc1(m->ne + 1, &eptr));
    GET(eptr, (size_t)(m->ne + 1) * sizeof(PetscInt));
    PetscCheck(eptr[0] == 0 && eptr[m->ne] >= 4 * m->ne && eptr[m->ne] <= 8 * m->ne, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed FINITE_ELEMENT body %" PetscInt_FMT ": bad element offsets", b->id);
    PetscCall(PetscMalloc4(3 * m->nn, &m->X, m->ne + 1, &m->eptr, eptr[m->ne], &m->enode, 6 * MB_FEM_MAX_NEN, &m->ue));
    PetscCall(PetscArraycpy(m->eptr, eptr, m->ne + 1));
    PetscCall(PetscFree(eptr));
  }
  m->fe = m->ue + 3 * MB_FEM_MAX_NEN;
  PetscCall(PetscMalloc1(m->ne + 1, &m->gptr));
  GET(m->gptr, (size_t)(m->ne + 1) * sizeof(PetscInt));
  GET(m->enode, (size_t)m->eptr[m->ne] * sizeof(PetscInt));
  GET(m->X, 3 * (size_t)m->nn * sizeof(PetscReal));
  PetscCall(PetscMalloc1(m->nn, &m->mass));
  GET(m->mass, (size_t)m->nn * sizeof(PetscReal));
  PetscCall(PetscMalloc1(m->gptr[m->ne], &m->G));
  GET(m->G, (size_t)m->gptr[m->ne] * sizeof(PetscReal));
  if (nb) {
    PetscReal *val, *vec;
    PetscCall(PetscMalloc2(nb, &val, (size_t)nb * 3 * m->nn, &vec));
    GET(val, (size_t)nb * sizeof(PetscReal));
    GET(vec, (size_t)nb * 3 * m->nn * sizeof(PetscReal));
    PetscCall(MbFemSetBasis(m, b->id, nb, val, vec));
    PetscCall(PetscFree2(val, vec));
  }
  if (m->embed) {
    PetscInt ns = b->shape->n, nv, nc;
    GET(&nv, sizeof(PetscInt));
    GET(&nc, sizeof(PetscInt));
    PetscCheck(nv >= ns && nc >= ns, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed FINITE_ELEMENT body %" PetscInt_FMT ": an embedded shape of %" PetscInt_FMT " primitives with %" PetscInt_FMT " vertices and %" PetscInt_FMT " candidates", b->id,
               ns, nv, nc);
    PetscCall(PetscMalloc4(ns + 1, &m->vptr, nv, &m->velem, 3 * nv, &m->vxi, ns + 1, &m->cptr));
    PetscCall(PetscMalloc1(nc, &m->cel));
    GET(m->vptr, (size_t)(ns + 1) * sizeof(PetscInt));
    GET(m->velem, (size_t)nv * sizeof(PetscInt));
    GET(m->vxi, 3 * (size_t)nv * sizeof(PetscReal));
    GET(m->cptr, (size_t)(ns + 1) * sizeof(PetscInt));
    GET(m->cel, (size_t)nc * sizeof(PetscInt));
    PetscCheck(m->vptr[ns] == nv && m->cptr[ns] == nc, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed FINITE_ELEMENT body %" PetscInt_FMT ": bad embedded shape offsets", b->id);
  }
#undef GET
  PetscCall(FemMaterial(b, E, nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solfec-1.0's forms that FemForm takes, TL the default */
static const char *const FemForms[] = {"TL", "total Lagrangian", "BC", "body co-rotational", "BC-MODAL", "body co-rotational in a modal base", "BC-RO", "body co-rotational in a reduced base", NULL};

static const MbBodyOps FiniteElementOps = {
    .name            = MBBODYFINITEELEMENT,
    .nq              = 3, /* per node: sizes gives a body's */
    .nu              = 3,
    .nodal           = PETSC_TRUE,
    .sizes           = FemSizes,
    .movable         = PETSC_TRUE,
    .pressure        = PETSC_TRUE,
    .traits          = MB_BODY_TRAIT_LINEAR,
    .scheme          = "DEF_EXP",
    .forms           = FemForms,
    .create          = FemCreate,
    .destroy         = FemDestroy,
    .reset           = FemReset,
    .kinetic         = FemKinetic,
    .inverse         = FemInverse,
    .external        = FemExternal,
    .to_spatial      = FemToSpatial,
    .to_referential  = FemToReferential,
    .prim_to_spatial = FemPrimToSpatial,
    .prim_velocity   = FemPrimVelocity,
    .prim_stress     = FemPrimStress,
    .point_velocity  = FemPointVelocity,
    .operator_h      = FemOperatorH,
    .operator_hs     = MbFemOperatorHs,
    .delassus        = MbFemDelassus,
    .impulse         = MbFemImpulse,
    .point_dofs      = FemPointDofs,
    .point_state     = FemPointState,
    .momentum        = FemMomentum,
    .set_velocity    = FemSetVelocity,
    .transform       = FemTransform,
    .bound           = FemBound,
    .frame_state     = FemFrameState,
    .affine          = FemAffine,
    .set_affine      = FemSetAffine,
    .frame_restore   = FemFrameRestore,
    .material        = FemMaterial,
    .internal        = FemInternal,
    .factor          = FemFactor,
    .strain_energy   = FemStrainEnergy,
    .critical_step   = FemCriticalStep,
    .stress          = FemStress,
    .pack_size       = FemPackSize,
    .pack            = FemPack,
    .unpack          = FemUnpack,
    .work            = FemWork,
    .form            = FemForm,
    .state_size      = FemStateSize,
    .state_get       = FemStateGet,
    .state_set       = FemStateSet,
    .modal           = FemModal,
    .basis           = FemBasis,
    .project         = FemProject,
};

PetscErrorCode MbBodyKindRegister_FiniteElement(void) { return MbBodyKindRegister(MBBODYFINITEELEMENT, &FiniteElementOps); }
