/* TetGen (Debian's libtet 1.5, C++) behind the C interface of tetgenrun.h: loads or builds
   the PLC, checks that it is closed, runs tetrahedralize() and copies the mesh out into
   malloc'ed arrays. libtet is built with TETLIBRARY, so TetGen's failures arrive as a
   thrown int (its terminatetetgen()), which becomes a message here, never an exit. */
#define TETLIBRARY
#include <tetgen.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <utility>
#include <vector>

#include "tetgenrun.h"

/* TetGen's terminatetetgen() codes */
static const char *TetgenFailure(int code)
{
  switch (code) {
  case 1:
    return "TetGen ran out of memory";
  case 2:
    return "TetGen met an internal error";
  case 3:
    return "TetGen found the surface intersecting itself";
  case 4:
    return "TetGen found an input feature smaller than its tolerance";
  case 5:
    return "TetGen found two input facets very close to each other";
  case 10:
    return "TetGen found an error in the input";
  default:
    return "TetGen failed";
  }
}

/* A surface that closes a volume uses each edge of its polygons at least twice (twice on
   a manifold surface; more where an inner facet meets it); an edge used once is a hole's
   rim. Coincident points are one point (an STL file repeats each vertex per triangle). */
static int CheckClosed(const tetgenio &in, char *err, size_t errlen)
{
  const int                            np = in.numberofpoints;
  std::map<std::array<double, 3>, int> uniq;
  std::vector<int>                     canon(np > 0 ? np : 0);
  std::map<std::pair<int, int>, int>   edges;
  int                                  nopen = 0;
  std::pair<int, int>                  first(-1, -1);
  if (np < 4 || in.numberoffacets < 4) {
    snprintf(err, errlen, "the surface has %d points and %d faces: a closed surface has at least 4 of each", np, in.numberoffacets);
    return 1;
  }
  for (int i = 0; i < np; i++) {
    std::array<double, 3> key = {in.pointlist[3 * i], in.pointlist[3 * i + 1], in.pointlist[3 * i + 2]};
    canon[i]                  = uniq.emplace(key, i).first->second;
  }
  for (int f = 0; f < in.numberoffacets; f++) {
    const tetgenio::facet &F = in.facetlist[f];
    for (int p = 0; p < F.numberofpolygons; p++) {
      const tetgenio::polygon &P = F.polygonlist[p];
      if (P.numberofvertices < 3) continue; /* a segment inside a facet bounds nothing */
      for (int k = 0; k < P.numberofvertices; k++) {
        int a = P.vertexlist[k] - in.firstnumber, b = P.vertexlist[(k + 1) % P.numberofvertices] - in.firstnumber;
        if (a < 0 || a >= np || b < 0 || b >= np) {
          snprintf(err, errlen, "face %d names point %d, which is not among the %d points (numbered from %d)", f + in.firstnumber, (a < 0 || a >= np ? a : b) + in.firstnumber, np, in.firstnumber);
          return 1;
        }
        a = canon[a];
        b = canon[b];
        if (a == b) continue;
        edges[std::make_pair(a < b ? a : b, a < b ? b : a)]++;
      }
    }
  }
  for (const auto &e : edges)
    if (e.second == 1) {
      if (!nopen++) first = e.first;
    }
  if (nopen) {
    const double *a = &in.pointlist[3 * first.first], *b = &in.pointlist[3 * first.second];
    snprintf(err, errlen, "the surface is not closed: %d edges belong to one face only, e.g. the edge from (%g, %g, %g) to (%g, %g, %g)", nopen, a[0], a[1], a[2], b[0], b[1], b[2]);
    return 1;
  }
  return 0;
}

/* Fill in from the arrays (tetgenio frees what it holds with delete[]). */
static void FromArrays(const MbTetgenPLC *plc, tetgenio &in)
{
  in.firstnumber    = 0;
  in.numberofpoints = plc->npoints;
  in.pointlist      = new REAL[3 * plc->npoints];
  for (int i = 0; i < 3 * plc->npoints; i++) in.pointlist[i] = plc->points[i];
  in.numberoffacets  = plc->nfacets;
  in.facetlist       = new tetgenio::facet[plc->nfacets];
  in.facetmarkerlist = new int[plc->nfacets];
  for (int f = 0; f < plc->nfacets; f++) {
    tetgenio::facet *F   = &in.facetlist[f];
    F->numberofpolygons  = 1;
    F->polygonlist       = new tetgenio::polygon[1];
    F->numberofholes     = 0;
    F->holelist          = NULL;
    tetgenio::polygon *P = &F->polygonlist[0];
    P->numberofvertices  = plc->fptr[f + 1] - plc->fptr[f];
    P->vertexlist        = new int[P->numberofvertices];
    for (int k = 0; k < P->numberofvertices; k++) P->vertexlist[k] = plc->fvert[plc->fptr[f] + k];
    in.facetmarkerlist[f] = f + 1;
  }
  if (plc->nregions > 0) {
    in.numberofregions = plc->nregions;
    in.regionlist      = new REAL[5 * plc->nregions];
    for (int r = 0; r < plc->nregions; r++) {
      for (int k = 0; k < 4; k++) in.regionlist[5 * r + k] = plc->regions[4 * r + k];
      in.regionlist[5 * r + 4] = 0; /* no volume bound of its own */
    }
  }
}

/* Read a TetGen input file; the format is its extension, as the tetgen program reads it. */
static int FromFile(const char *path, tetgenio &in, char *err, size_t errlen)
{
  tetgenbehavior b;
  char           prog[]  = "tetgen", name[1024];
  char          *argv[2] = {prog, name};
  if (strlen(path) >= sizeof(name) - 8) {
    snprintf(err, errlen, "the file name '%s' is longer than TetGen's %zu characters", path, sizeof(name) - 8);
    return 1;
  }
  strcpy(name, path);
  if (!b.parse_commandline(2, argv)) {
    snprintf(err, errlen, "TetGen cannot take the file name '%s'", path);
    return 1;
  }
  if (b.object != tetgenbehavior::POLY && b.object != tetgenbehavior::OFF && b.object != tetgenbehavior::PLY && b.object != tetgenbehavior::STL && b.object != tetgenbehavior::MEDIT && b.object != tetgenbehavior::VTK) {
    snprintf(err, errlen, "'%s' is not a surface file TetGen reads: give a .poly, .smesh, .off, .ply, .stl, .mesh or .vtk file", path);
    return 1;
  }
  if (!in.load_plc(b.infilename, (int)b.object)) {
    snprintf(err, errlen, "TetGen cannot read the surface in '%s'", path);
    return 1;
  }
  return 0;
}

template <typename T> static T *Copy(const T *src, size_t n)
{
  T *dst = (T *)malloc((n ? n : 1) * sizeof(T));
  if (dst && src) memcpy(dst, src, n * sizeof(T));
  return dst;
}

extern "C" int MbTetgenAvailable(void) { return 1; }

extern "C" void MbTetgenMeshFree(MbTetgenMesh *m)
{
  free(m->points);
  free(m->tetattr);
  free(m->tets);
  free(m->tris);
  free(m->trimarker);
  memset(m, 0, sizeof(*m));
}

extern "C" int MbTetgenRun(const MbTetgenPLC *plc, const char *switches, MbTetgenMesh *m, char *err, size_t errlen)
{
  memset(m, 0, sizeof(*m));
  err[0] = 0;
  try {
    tetgenio in, out;
    if (plc->path) {
      if (FromFile(plc->path, in, err, errlen)) return 1;
    } else
      FromArrays(plc, in);
    if (CheckClosed(in, err, errlen)) return 1;
    std::vector<char> sw(switches, switches + strlen(switches) + 1);
    tetrahedralize(sw.data(), &in, &out);
    if (out.numberoftetrahedra <= 0 || out.numberofpoints <= 0) {
      snprintf(err, errlen, "TetGen made no tetrahedra (%d points, %d tetrahedra)", out.numberofpoints, out.numberoftetrahedra);
      return 1;
    }
    const int first = out.firstnumber;
    m->npoints      = out.numberofpoints;
    m->ntets        = out.numberoftetrahedra;
    m->ntris        = out.numberoftrifaces;
    m->points       = Copy(out.pointlist, 3 * (size_t)m->npoints);
    m->tets         = Copy<int>(NULL, 4 * (size_t)m->ntets);
    m->tris         = Copy<int>(NULL, 3 * (size_t)m->ntris);
    if (!m->points || !m->tets || !m->tris) throw std::bad_alloc();
    for (size_t i = 0; i < 4 * (size_t)m->ntets; i++) m->tets[i] = out.tetrahedronlist[i] - first;
    for (size_t i = 0; i < 3 * (size_t)m->ntris; i++) m->tris[i] = out.trifacelist[i] - first;
    if (in.facetmarkerlist && out.trifacemarkerlist && !(m->trimarker = Copy(out.trifacemarkerlist, (size_t)m->ntris))) throw std::bad_alloc();
    if (in.numberofregions > 0 && out.tetrahedronattributelist && out.numberoftetrahedronattributes > 0) {
      if (!(m->tetattr = Copy<double>(NULL, (size_t)m->ntets))) throw std::bad_alloc();
      for (int t = 0; t < m->ntets; t++) m->tetattr[t] = out.tetrahedronattributelist[t * out.numberoftetrahedronattributes];
    }
    return 0;
  } catch (int code) {
    snprintf(err, errlen, "%s (its code %d)", TetgenFailure(code), code);
  } catch (const std::bad_alloc &) {
    snprintf(err, errlen, "out of memory");
  } catch (...) {
    snprintf(err, errlen, "TetGen failed");
  }
  MbTetgenMeshFree(m);
  return 1;
}
