/* Convex hull of a point cloud (Solfec's HULL), by the incremental method: start from a
   tetrahedron of four extreme points, then add each point that lies outside the current
   hull by more than a tolerance, replacing the faces it sees with a cone of triangles from
   the point to the horizon (the boundary of the visible region). O(n²) in the worst case.
   The triangles keep their neighbours across each edge, so that the visible region is
   grown from its most visible face (always connected) and the horizon is found locally.
   The tolerance is relative to the size of the cloud: points within it of a face plane
   count as on the face, which makes duplicated and coplanar points harmless. At the end,
   adjacent coplanar triangles are merged into polygon faces and vertices in the middle of
   a straight polytope edge are dropped. */
#include <moreau/mbmath.h>
#include "shapeimpl.h"

/* Relative tolerance of the visibility and coplanarity tests, times the cloud's size. */
#define HULL_RTOL 1e-10

typedef struct {
  PetscInt  v[3];  /* point indices, counter-clockwise seen from outside */
  PetscInt  nb[3]; /* face across edge (v[k], v[k+1]) */
  PetscReal n[3];  /* unit outward normal (zero for a degenerate sliver) */
  PetscReal d;     /* plane offset n·x = d */
  PetscBool alive; /* still on the hull */
  PetscInt  mark;  /* visit stamp of the last search that reached it */
} HullFace;

typedef struct {
  const PetscReal *p;   /* the points */
  PetscReal        tol; /* absolute tolerance */
  PetscInt         nf;  /* faces created */
  PetscInt         cap; /* faces allocated */
  HullFace        *f;   /* faces */
} Hull;

/* Signed distance of point i above face f. */
static inline PetscReal HullDist(const Hull *h, const HullFace *f, PetscInt i) { return MbV3Dot(f->n, &h->p[3 * i]) - f->d; }

static PetscErrorCode HullNewFace(Hull *h, PetscInt a, PetscInt b, PetscInt c, PetscInt *id)
{
  HullFace *f;
  PetscReal u[3], w[3], len;
  PetscFunctionBegin;
  if (h->nf == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 64;
    PetscCall(PetscRealloc(sizeof(HullFace) * h->cap, &h->f));
  }
  f       = &h->f[h->nf];
  f->v[0] = a;
  f->v[1] = b;
  f->v[2] = c;
  for (int k = 0; k < 3; k++) f->nb[k] = -1;
  MbV3Sub(&h->p[3 * b], &h->p[3 * a], u);
  MbV3Sub(&h->p[3 * c], &h->p[3 * a], w);
  MbV3Cross(u, w, f->n);
  len = MbV3Norm(f->n);
  /* a sliver (a, b, c nearly collinear) gets no normal: it is never seen, so it is only
     removed with its neighbours or merged at the end */
  if (len > 0) MbV3Scale(1.0 / len, f->n, f->n);
  f->d     = MbV3Dot(f->n, &h->p[3 * a]);
  f->alive = PETSC_TRUE;
  f->mark  = -1;
  *id      = h->nf++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Index k of the edge (a, b) in face f, or -1. */
static inline PetscInt HullEdge(const HullFace *f, PetscInt a, PetscInt b)
{
  for (PetscInt k = 0; k < 3; k++)
    if (f->v[k] == a && f->v[(k + 1) % 3] == b) return k;
  return -1;
}

/* Add point i: find the faces it sees (by more than tol), grown from the most visible one
   over neighbours; replace them by triangles (a, b, i) on each horizon edge (a, b). The
   new triangles keep the orientation of the faces they replace, so they face outward.
   start[] (size np, all -1 on entry and exit) maps a horizon vertex to the new face whose
   horizon edge starts there, to link the cone's faces to each other. */
static PetscErrorCode HullAddPoint(Hull *h, PetscInt i, PetscInt *stack, PetscInt *start, PetscInt *newf, PetscInt *nvis)
{
  PetscInt  best = -1, top = 0, nnew = 0, nv = 0;
  PetscReal dmax = h->tol;
  PetscFunctionBegin;
  *nvis = 0;
  for (PetscInt f = 0; f < h->nf; f++) {
    if (!h->f[f].alive) continue;
    PetscReal dist = HullDist(h, &h->f[f], i);
    if (dist > dmax) {
      dmax = dist;
      best = f;
    }
  }
  if (best < 0) PetscFunctionReturn(PETSC_SUCCESS); /* inside or on the hull */
  /* the visible region: faces reached from best over neighbours that i sees */
  h->f[best].mark = i;
  stack[top++]    = best;
  while (top) {
    PetscInt f = stack[--top];
    newf[nv++] = f; /* newf holds the visible faces first */
    for (int k = 0; k < 3; k++) {
      PetscInt g = h->f[f].nb[k];
      if (h->f[g].mark != i && HullDist(h, &h->f[g], i) > h->tol) {
        h->f[g].mark = i;
        stack[top++] = g;
      }
    }
  }
  /* a face the point only grazes (within tol) but whose neighbours it all sees would make
     the visible region an annulus: take it in, so that the horizon is one simple loop */
  for (PetscInt s = 0; s < nv; s++) {
    PetscInt f = newf[s];
    for (int k = 0; k < 3; k++) {
      PetscInt g = h->f[f].nb[k], all = 1;
      if (h->f[g].mark == i) continue;
      for (int j = 0; j < 3; j++) all = all && h->f[h->f[g].nb[j]].mark == i;
      if (all) {
        h->f[g].mark = i;
        newf[nv++]   = g;
      }
    }
  }
  /* the cone over the horizon: edges of visible faces whose neighbour is not visible */
  for (PetscInt s = 0; s < nv; s++) {
    PetscInt f = newf[s];
    for (int k = 0; k < 3; k++) {
      PetscInt g = h->f[f].nb[k], a, b, id, kg;
      if (h->f[g].mark == i) continue;
      a = h->f[f].v[k];
      b = h->f[f].v[(k + 1) % 3];
      PetscCall(HullNewFace(h, a, b, i, &id));
      h->f[id].nb[0] = g;
      kg             = HullEdge(&h->f[g], b, a);
      PetscCheck(kg >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HULL: horizon edge (%" PetscInt_FMT ", %" PetscInt_FMT ") has no twin", a, b);
      h->f[g].nb[kg] = id;
      PetscCheck(start[a] < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HULL: horizon passes twice through point %" PetscInt_FMT, a);
      start[a]      = id;
      stack[nnew++] = id; /* stack holds the new faces now */
    }
  }
  /* new face (a, b, i): edge (b, i) borders the new face starting at b, whose edge
     (i, b) is its third */
  for (PetscInt s = 0; s < nnew; s++) {
    HullFace *f = &h->f[stack[s]];
    PetscInt  g = start[f->v[1]];
    PetscCheck(g >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HULL: horizon is not a closed loop at point %" PetscInt_FMT, f->v[1]);
    f->nb[1]      = g;
    h->f[g].nb[2] = stack[s];
  }
  for (PetscInt s = 0; s < nnew; s++) start[h->f[stack[s]].v[0]] = -1;
  for (PetscInt s = 0; s < nv; s++) h->f[newf[s]].alive = PETSC_FALSE;
  *nvis = nv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Four points spanning the cloud: the lowest x, the farthest from it, the farthest from
   that line, the farthest from that plane. Errors when the cloud has no volume. */
static PetscErrorCode HullSeed(const PetscReal p[], PetscInt np, PetscReal tol, PetscInt s[4])
{
  PetscReal best, u[3], n[3], len;
  PetscFunctionBegin;
  s[0] = s[1] = s[2] = s[3] = 0;
  for (PetscInt i = 1; i < np; i++)
    if (p[3 * i] < p[3 * s[0]]) s[0] = i;
  best = -1;
  for (PetscInt i = 0; i < np; i++) {
    PetscReal d[3], dist;
    MbV3Sub(&p[3 * i], &p[3 * s[0]], d);
    dist = MbV3Norm(d);
    if (dist > best) {
      best = dist;
      s[1] = i;
    }
  }
  PetscCheck(best > tol, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "HULL: points are coplanar: the hull has no volume (all %" PetscInt_FMT " points coincide within %g)", np, (double)tol);
  MbV3Sub(&p[3 * s[1]], &p[3 * s[0]], u);
  MbV3Scale(1.0 / MbV3Norm(u), u, u);
  best = -1;
  for (PetscInt i = 0; i < np; i++) {
    PetscReal d[3], c[3], dist;
    MbV3Sub(&p[3 * i], &p[3 * s[0]], d);
    MbV3Cross(u, d, c);
    dist = MbV3Norm(c);
    if (dist > best) {
      best = dist;
      s[2] = i;
    }
  }
  PetscCheck(best > tol, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "HULL: points are coplanar: the hull has no volume (they are collinear: largest distance %g from a line, tolerance %g)", (double)best, (double)tol);
  {
    PetscReal d[3];
    MbV3Sub(&p[3 * s[2]], &p[3 * s[0]], d);
    MbV3Cross(u, d, n);
    len = MbV3Norm(n);
    MbV3Scale(1.0 / len, n, n);
  }
  best = -1;
  for (PetscInt i = 0; i < np; i++) {
    PetscReal d[3], dist;
    MbV3Sub(&p[3 * i], &p[3 * s[0]], d);
    dist = PetscAbsReal(MbV3Dot(n, d));
    if (dist > best) {
      best = dist;
      s[3] = i;
    }
  }
  PetscCheck(best > tol, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "HULL: points are coplanar: the hull has no volume (largest distance %g from a plane, tolerance %g)", (double)best, (double)tol);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Merge the alive triangles into polygon faces and append the result to the shape. */
static PetscErrorCode HullEmit(Hull *h, PetscInt np, MbShape shape, PetscInt volid, PetscInt surfid)
{
  PetscInt   nalive = 0, *group, *stack, *next, *loops, *lptr, ngroup = 0, nl = 0, *keep, *map, nv = 0, *fvert, *fptr, nfv = 0, nf = 0;
  PetscReal *v;
  PetscFunctionBegin;
  for (PetscInt f = 0; f < h->nf; f++) nalive += h->f[f].alive ? 1 : 0;
  PetscCall(PetscMalloc4(h->nf, &group, h->nf, &stack, np, &next, 3 * nalive, &loops));
  PetscCall(PetscMalloc3(nalive + 1, &lptr, np, &keep, np, &map));
  for (PetscInt f = 0; f < h->nf; f++) group[f] = -1;
  for (PetscInt i = 0; i < np; i++) {
    next[i] = -1;
    keep[i] = 0;
    map[i]  = -1;
  }
  lptr[0] = 0;
  /* groups: triangles reached over edges from a seed whose vertices all lie within tol
     of the seed's plane; the seed is the largest unassigned triangle (the best normal) */
  for (;;) {
    PetscInt  seed = -1, top = 0, first = -1, cur, count = 0, nedge = 0;
    PetscReal amax = -1;
    for (PetscInt f = 0; f < h->nf; f++) {
      if (!h->f[f].alive || group[f] >= 0) continue;
      PetscReal u[3], w[3], c[3], a;
      MbV3Sub(&h->p[3 * h->f[f].v[1]], &h->p[3 * h->f[f].v[0]], u);
      MbV3Sub(&h->p[3 * h->f[f].v[2]], &h->p[3 * h->f[f].v[0]], w);
      MbV3Cross(u, w, c);
      a = MbV3Norm(c);
      if (a > amax) {
        amax = a;
        seed = f;
      }
    }
    if (seed < 0) break;
    group[seed]  = ngroup;
    stack[top++] = seed;
    while (top) {
      PetscInt f = stack[--top];
      for (int k = 0; k < 3; k++) {
        PetscInt g = h->f[f].nb[k], on = 1;
        if (group[g] >= 0) continue;
        for (int j = 0; j < 3; j++) on = on && PetscAbsReal(HullDist(h, &h->f[seed], h->f[g].v[j])) <= h->tol;
        if (on) {
          group[g]     = ngroup;
          stack[top++] = g;
        }
      }
    }
    /* boundary edges: those toward triangles of other groups */
    for (PetscInt f = 0; f < h->nf; f++) {
      if (group[f] != ngroup) continue;
      for (int k = 0; k < 3; k++) {
        if (group[h->f[f].nb[k]] == ngroup) continue;
        first       = h->f[f].v[k];
        next[first] = h->f[f].v[(k + 1) % 3];
        nedge++;
      }
    }
    /* the boundary is one loop, counter-clockwise from outside as the triangles are */
    PetscCheck(first >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HULL: face group %" PetscInt_FMT " has no boundary", ngroup);
    cur = first;
    do {
      loops[lptr[nl] + count++] = cur;
      PetscInt nx               = next[cur];
      next[cur]                 = -1;
      cur                       = nx;
      PetscCheck(cur >= 0 && count <= nedge, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HULL: boundary of face group %" PetscInt_FMT " is not a simple loop", ngroup);
    } while (cur != first);
    PetscCheck(count == nedge, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HULL: face group %" PetscInt_FMT " has %" PetscInt_FMT " boundary edges outside its loop of %" PetscInt_FMT, ngroup, nedge - count, count);
    lptr[nl + 1] = lptr[nl] + count;
    nl++;
    ngroup++;
  }
  /* a vertex stays unless it lies on the segment between its loop neighbours in every
     loop that has it (the middle of a straight polytope edge) */
  for (PetscInt l = 0; l < nl; l++) {
    PetscInt n = lptr[l + 1] - lptr[l], *L = &loops[lptr[l]];
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal *a = &h->p[3 * L[(k + n - 1) % n]], *x = &h->p[3 * L[k]], *b = &h->p[3 * L[(k + 1) % n]];
      PetscReal        ab[3], ax[3], c[3], len;
      MbV3Sub(b, a, ab);
      MbV3Sub(x, a, ax);
      MbV3Cross(ab, ax, c);
      len = MbV3Norm(ab);
      if (!(len > 0 && MbV3Norm(c) <= h->tol * len && MbV3Dot(ab, ax) > 0 && MbV3Dot(ab, ax) < len * len)) keep[L[k]] = 1;
    }
  }
  for (PetscInt i = 0; i < np; i++)
    if (keep[i]) map[i] = nv++;
  PetscCall(PetscMalloc3(3 * nv, &v, nl + 1, &fptr, lptr[nl], &fvert));
  for (PetscInt i = 0; i < np; i++)
    if (keep[i]) MbV3Copy(&h->p[3 * i], &v[3 * map[i]]);
  fptr[0] = 0;
  for (PetscInt l = 0; l < nl; l++) {
    for (PetscInt k = lptr[l]; k < lptr[l + 1]; k++)
      if (keep[loops[k]]) fvert[nfv++] = map[loops[k]];
    PetscCheck(nfv - fptr[nf] >= 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HULL: face %" PetscInt_FMT " lost its corners", l);
    fptr[++nf] = nfv;
  }
  {
    PetscInt *fs;
    PetscCall(PetscMalloc1(nf, &fs));
    for (PetscInt f = 0; f < nf; f++) fs[f] = surfid;
    PetscCall(MbShapeAddConvex(shape, nv, v, nf, fptr, fvert, fs, volid));
    PetscCall(PetscFree(fs));
  }
  PetscCall(PetscFree3(v, fptr, fvert));
  PetscCall(PetscFree3(lptr, keep, map));
  PetscCall(PetscFree4(group, stack, next, loops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeAddHull(MbShape shape, PetscInt np, const PetscReal p[], PetscInt volid, PetscInt surfid)
{
  Hull      h = {0};
  PetscReal lo[3], hi[3], size = 0;
  PetscInt  s[4] = {0, 0, 0, 0}, *stack, *start, *vis, id[4];
  PetscFunctionBegin;
  PetscCheck(np >= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "HULL: at least 4 points are needed, got %" PetscInt_FMT, np);
  for (PetscInt k = 0; k < 3 * np; k++) PetscCheck(isfinite(p[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "HULL: coordinate %" PetscInt_FMT " of point %" PetscInt_FMT " is not finite: %g", k % 3, k / 3, (double)p[k]);
  for (int d = 0; d < 3; d++) {
    lo[d] = PETSC_MAX_REAL;
    hi[d] = -PETSC_MAX_REAL;
  }
  for (PetscInt i = 0; i < np; i++)
    for (int d = 0; d < 3; d++) {
      lo[d] = PetscMin(lo[d], p[3 * i + d]);
      hi[d] = PetscMax(hi[d], p[3 * i + d]);
    }
  for (int d = 0; d < 3; d++) size = PetscMax(size, hi[d] - lo[d]);
  /* round-off in the coordinates themselves is relative to their magnitude, not to the
     cloud's extent: a small cloud far from the origin needs the larger of the two */
  for (int d = 0; d < 3; d++) size = PetscMax(size, 1e-4 * PetscMax(PetscAbsReal(lo[d]), PetscAbsReal(hi[d])));
  h.p   = p;
  h.tol = HULL_RTOL * size;
  PetscCall(HullSeed(p, np, h.tol, s));
  /* the seed tetrahedron, each face oriented so that the fourth point lies behind it */
  {
    PetscReal a[3], b[3], c[3], n[3];
    MbV3Sub(&p[3 * s[1]], &p[3 * s[0]], a);
    MbV3Sub(&p[3 * s[2]], &p[3 * s[0]], b);
    MbV3Sub(&p[3 * s[3]], &p[3 * s[0]], c);
    MbV3Cross(a, b, n);
    if (MbV3Dot(n, c) > 0) {
      PetscInt t = s[1];
      s[1]       = s[2];
      s[2]       = t;
    } /* now s3 is below (s0, s1, s2) */
  }
  /* faces: (0 1 2), (0 3 1), (1 3 2), (2 3 0) of the seed, outward */
  PetscCall(HullNewFace(&h, s[0], s[1], s[2], &id[0]));
  PetscCall(HullNewFace(&h, s[0], s[3], s[1], &id[1]));
  PetscCall(HullNewFace(&h, s[1], s[3], s[2], &id[2]));
  PetscCall(HullNewFace(&h, s[2], s[3], s[0], &id[3]));
  for (int f = 0; f < 4; f++)
    for (int k = 0; k < 3; k++) {
      PetscInt a = h.f[f].v[k], b = h.f[f].v[(k + 1) % 3];
      for (int g = 0; g < 4; g++)
        if (g != f && HullEdge(&h.f[g], b, a) >= 0) h.f[f].nb[k] = g;
    }
  PetscCall(PetscMalloc3(2 * np + 8, &stack, np, &start, 2 * np + 8, &vis));
  for (PetscInt i = 0; i < np; i++) start[i] = -1;
  for (PetscInt i = 0; i < np; i++) {
    PetscInt nvis;
    if (i == s[0] || i == s[1] || i == s[2] || i == s[3]) continue;
    /* the alive faces of a hull of n vertices are 2n − 4 < 2 np: room for every stack */
    PetscCall(HullAddPoint(&h, i, stack, start, vis, &nvis));
  }
  PetscCall(PetscFree3(stack, start, vis));
  PetscCall(HullEmit(&h, np, shape, volid, surfid));
  PetscCall(PetscFree(h.f));
  PetscFunctionReturn(PETSC_SUCCESS);
}
