/* TetGen (Debian's libtet 1.5, C++) behind the C interface of tetgenrun.h: loads or builds
   the PLC, checks that it is closed, runs tetrahedralize() and copies the mesh out into
   malloc'ed arrays.
   TetGen runs in a child process (fork), whose mesh comes back through a pipe: libtet 1.5.0
   is built with TETLIBRARY, so its failures are a thrown int (terminatetetgen()), but it
   frees its memory before the throw and again while unwinding, a double free that crashes
   the process (seen on a self-intersecting surface). In a child the crash is a message.
   The child first runs TetGen's self-intersection check (-d), which does not crash, so
   that the commonest bad surface is named. */
#define TETLIBRARY
#include <tetgen.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <utility>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

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

/* write and read all of n bytes (a pipe may take or give less at a time) */
static bool WriteAll(int fd, const void *buf, size_t n)
{
  const char *p = (const char *)buf;
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k <= 0) return false;
    p += k;
    n -= (size_t)k;
  }
  return true;
}

static bool ReadAll(int fd, void *buf, size_t n)
{
  char *p = (char *)buf;
  while (n) {
    ssize_t k = read(fd, p, n);
    if (k <= 0) return false;
    p += k;
    n -= (size_t)k;
  }
  return true;
}

/* The child: TetGen's -d check, then the mesh, written to fd as a header (status: 0, or
   TetGen's code, or 100 + the number of intersecting faces' first point follows; the
   counts) and the arrays. Never returns. */
static void Child(tetgenio &in, const char *switches, int fd)
{
  const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}; /* not PETSc's handlers, which would abort the MPI job */
  for (int sig : sigs) signal(sig, SIG_DFL);
  int head[6] = {0, 0, 0, 0, 0, 0};
  try {
    tetgenio          diag;
    std::vector<char> d = {'p', 'Q', 'd', 0};
    tetrahedralize(d.data(), &in, &diag);
    if (diag.numberoftrifaces > 0) { /* the faces that intersect others */
      double x[3] = {0, 0, 0};
      int    v    = diag.trifacelist[0] - diag.firstnumber;
      if (v >= 0 && v < diag.numberofpoints)
        for (int k = 0; k < 3; k++) x[k] = diag.pointlist[3 * v + k];
      else if (v >= 0 && v < in.numberofpoints)
        for (int k = 0; k < 3; k++) x[k] = in.pointlist[3 * v + k];
      head[0] = 100;
      head[1] = diag.numberoftrifaces;
      _exit(WriteAll(fd, head, sizeof(head)) && WriteAll(fd, x, sizeof(x)) ? 0 : 1);
    }
    tetgenio          out;
    std::vector<char> sw(switches, switches + strlen(switches) + 1);
    tetrahedralize(sw.data(), &in, &out);
    const int first = out.firstnumber;
    bool      mark = in.facetmarkerlist && out.trifacemarkerlist, attr = in.numberofregions > 0 && out.tetrahedronattributelist && out.numberoftetrahedronattributes > 0;
    head[1] = out.numberofpoints;
    head[2] = out.numberoftetrahedra;
    head[3] = out.numberoftrifaces;
    head[4] = mark;
    head[5] = attr;
    bool ok = WriteAll(fd, head, sizeof(head)) && WriteAll(fd, out.pointlist, 3 * sizeof(double) * (size_t)head[1]);
    for (size_t i = 0; ok && i < 4 * (size_t)head[2]; i++) out.tetrahedronlist[i] -= first;
    for (size_t i = 0; ok && i < 3 * (size_t)head[3]; i++) out.trifacelist[i] -= first;
    ok = ok && WriteAll(fd, out.tetrahedronlist, 4 * sizeof(int) * (size_t)head[2]) && WriteAll(fd, out.trifacelist, 3 * sizeof(int) * (size_t)head[3]);
    if (ok && mark) ok = WriteAll(fd, out.trifacemarkerlist, sizeof(int) * (size_t)head[3]);
    for (int t = 0; ok && attr && t < head[2]; t++) ok = WriteAll(fd, &out.tetrahedronattributelist[t * out.numberoftetrahedronattributes], sizeof(double));
    _exit(ok ? 0 : 1);
  } catch (int code) {
    head[0] = code > 0 && code < 100 ? code : 2;
  } catch (...) {
    head[0] = 1;
  }
  _exit(WriteAll(fd, head, sizeof(head)) ? 0 : 1);
}

/* Read the child's mesh into m; false with a message in err. */
static bool ReadMesh(int fd, MbTetgenMesh *m, char *err, size_t errlen)
{
  int head[6];
  if (!ReadAll(fd, head, sizeof(head))) return false; /* the caller names the crash */
  if (head[0] == 100) {
    double x[3];
    if (!ReadAll(fd, x, sizeof(x))) return false;
    snprintf(err, errlen, "the surface intersects itself: TetGen finds %d faces crossing others, e.g. one at (%g, %g, %g)", head[1], x[0], x[1], x[2]);
    return false;
  }
  if (head[0]) {
    snprintf(err, errlen, "%s (its code %d)", TetgenFailure(head[0]), head[0]);
    return false;
  }
  if (head[1] <= 0 || head[2] <= 0) {
    snprintf(err, errlen, "TetGen made no tetrahedra (%d points, %d tetrahedra)", head[1], head[2]);
    return false;
  }
  m->npoints = head[1];
  m->ntets   = head[2];
  m->ntris   = head[3];
  m->points  = Copy<double>(NULL, 3 * (size_t)m->npoints);
  m->tets    = Copy<int>(NULL, 4 * (size_t)m->ntets);
  m->tris    = Copy<int>(NULL, 3 * (size_t)m->ntris);
  if (head[4]) m->trimarker = Copy<int>(NULL, (size_t)m->ntris);
  if (head[5]) m->tetattr = Copy<double>(NULL, (size_t)m->ntets);
  if (!m->points || !m->tets || !m->tris || (head[4] && !m->trimarker) || (head[5] && !m->tetattr)) {
    snprintf(err, errlen, "out of memory for TetGen's mesh of %d points and %d tetrahedra", head[1], head[2]);
    return false;
  }
  if (!ReadAll(fd, m->points, 3 * sizeof(double) * (size_t)m->npoints) || !ReadAll(fd, m->tets, 4 * sizeof(int) * (size_t)m->ntets) || !ReadAll(fd, m->tris, 3 * sizeof(int) * (size_t)m->ntris) ||
      (head[4] && !ReadAll(fd, m->trimarker, sizeof(int) * (size_t)m->ntris)) || (head[5] && !ReadAll(fd, m->tetattr, sizeof(double) * (size_t)m->ntets)))
    return false;
  for (size_t i = 0; i < 4 * (size_t)m->ntets; i++)
    if (m->tets[i] < 0 || m->tets[i] >= m->npoints) {
      snprintf(err, errlen, "TetGen's tetrahedron %zu names point %d of %d", i / 4, m->tets[i], m->npoints);
      return false;
    }
  for (size_t i = 0; i < 3 * (size_t)m->ntris; i++)
    if (m->tris[i] < 0 || m->tris[i] >= m->npoints) {
      snprintf(err, errlen, "TetGen's triangle %zu names point %d of %d", i / 3, m->tris[i], m->npoints);
      return false;
    }
  return true;
}

extern "C" int MbTetgenRun(const MbTetgenPLC *plc, const char *switches, MbTetgenMesh *m, char *err, size_t errlen)
{
  memset(m, 0, sizeof(*m));
  err[0] = 0;
  try {
    tetgenio in;
    int      fd[2], status = 0;
    if (plc->path) {
      if (FromFile(plc->path, in, err, errlen)) return 1;
    } else
      FromArrays(plc, in);
    if (CheckClosed(in, err, errlen)) return 1;
    fflush(NULL); /* the child's copies of stdio buffers must not be written twice */
    if (pipe(fd)) {
      snprintf(err, errlen, "cannot make a pipe for TetGen's process");
      return 1;
    }
    pid_t pid = fork();
    if (pid < 0) {
      close(fd[0]);
      close(fd[1]);
      snprintf(err, errlen, "cannot start TetGen's process (fork)");
      return 1;
    }
    if (pid == 0) {
      close(fd[0]);
      Child(in, switches, fd[1]);
    }
    close(fd[1]);
    bool ok = ReadMesh(fd[0], m, err, errlen);
    close(fd[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
    if (ok) return 0;
    if (!err[0]) {
      if (WIFSIGNALED(status))
        snprintf(err, errlen, "TetGen crashed (signal %d) on this surface, as TetGen 1.5 does on input it finds bad: faces closer than its tolerance, or a feature smaller than it", WTERMSIG(status));
      else
        snprintf(err, errlen, "TetGen's process ended (status %d) without a mesh", WIFEXITED(status) ? WEXITSTATUS(status) : status);
    }
  } catch (const std::bad_alloc &) {
    snprintf(err, errlen, "out of memory");
  } catch (...) {
    snprintf(err, errlen, "TetGen failed");
  }
  MbTetgenMeshFree(m);
  return 1;
}
