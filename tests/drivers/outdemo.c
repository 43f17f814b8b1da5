/* Output demo: a small scene written with MbOutput, for the output layout test
   (tests/integration/output-layout.sh) and the ParaView test. Runs on any number of ranks:
   every rank numbers every body, and creates the bodies it owns.

     outdemo -dir DIR -name NAME [-n 3] [-duration 0.5] [-step 1e-3] [-interval 0.05]

   Scene: an obstacle slab under the origin; n spheres, n boxes (hexahedra) and n pentagonal
   prisms (faces of 5 vertices: split into triangles in the output) with assorted linear
   and angular velocities; one compound body (a box with a sphere on top); gravity. No
   contact yet, so everything flies freely. */
#include <moreau/moreau.h>
#include <moreau/mboutput.h>

/* Box [lo, hi] as a hexahedron in Solfec's node order. */
static PetscErrorCode AddBox(MbShape s, const PetscReal lo[3], const PetscReal hi[3])
{
  PetscReal n[24] = {lo[0], lo[1], lo[2], hi[0], lo[1], lo[2], hi[0], hi[1], lo[2], lo[0], hi[1], lo[2], lo[0], lo[1], hi[2], hi[0], lo[1], hi[2], hi[0], hi[1], hi[2], lo[0], hi[1], hi[2]};
  PetscFunctionBegin;
  PetscCall(MbShapeAddHex(s, n, NULL, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pentagonal prism of circumradius r and height hz centred at c. */
static PetscErrorCode AddPrism(MbShape s, const PetscReal c[3], PetscReal r, PetscReal hz)
{
  PetscReal v[30];
  PetscInt  fptr[8] = {0, 5, 10, 14, 18, 22, 26, 30}, fv[30], k = 0;
  PetscFunctionBegin;
  for (int i = 0; i < 5; i++) {
    PetscReal a = 2 * PETSC_PI * i / 5;
    v[3 * i] = v[3 * (i + 5)] = c[0] + r * PetscCosReal(a);
    v[3 * i + 1] = v[3 * (i + 5) + 1] = c[1] + r * PetscSinReal(a);
    v[3 * i + 2]                      = c[2] - 0.5 * hz;
    v[3 * (i + 5) + 2]                = c[2] + 0.5 * hz;
  }
  for (int i = 4; i >= 0; i--) fv[k++] = i;    /* bottom, counter-clockwise from below */
  for (int i = 0; i < 5; i++) fv[k++] = 5 + i; /* top */
  for (int i = 0; i < 5; i++) {                /* sides */
    fv[k++] = i;
    fv[k++] = (i + 1) % 5;
    fv[k++] = 5 + (i + 1) % 5;
    fv[k++] = 5 + i;
  }
  PetscCall(MbShapeAddConvex(s, 10, v, 7, fptr, fv, NULL, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Number the next body on every rank; create it where it is owned. */
static PetscErrorCode Add(MbDomain dom, const char *kind, MbShape s, const char *label, const PetscReal v[3], const PetscReal w[3])
{
  PetscInt    id;
  PetscMPIInt owner, rank;
  MPI_Comm    comm;
  MbBody      b;
  PetscFunctionBegin;
  PetscCall(MbDomainGetComm(dom, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MbDomainNextBodyId(dom, &id));
  PetscCall(MbDomainOwnerRank(dom, id, &owner));
  if (owner == rank) {
    PetscCall(MbBodyCreate(id, kind, s, 1000.0, label, &b));
    if (MbBodyIsMovable(b)) PetscCall(MbBodySetVelocity(b, v, w));
    PetscCall(MbDomainAddBody(dom, b));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MbDomain  dom;
  MbOutput  out;
  MbShape   s;
  char      dir[PETSC_MAX_PATH_LEN] = "out", name[256] = "outdemo", label[64];
  PetscInt  n = 3;
  PetscReal T = 0.5, h = 1e-3, interval = 0.05, g[3] = {0, 0, -9.81};
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, "moreau output demo"));
  PetscCall(MbInitialize());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-name", name, sizeof(name), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-duration", &T, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-step", &h, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-interval", &interval, NULL));

  PetscCall(MbDomainCreate(PETSC_COMM_WORLD, &dom));
  PetscCall(MbDomainSetVerbose(dom, PETSC_FALSE));
  PetscCall(MbDomainSetStep(dom, h));
  PetscCall(MbDomainSetGravity(dom, g));
  { /* the floor */
    PetscReal lo[3] = {-1.5, -1.5, -0.2}, hi[3] = {1.5, 1.5, 0};
    PetscCall(MbShapeCreate(&s));
    PetscCall(AddBox(s, lo, hi));
    PetscCall(Add(dom, MBBODYOBSTACLE, s, "floor", NULL, NULL));
    PetscCall(MbShapeDestroy(&s));
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal x = -1 + 2.0 * i / PetscMax(n - 1, 1), c[3] = {x, -0.8, 1.0}, lo[3] = {x - 0.15, -0.15, 0.85}, hi[3] = {x + 0.15, 0.15, 1.15};
    PetscReal v[3] = {0.1 * i, 0.2, 1.0 + 0.5 * i}, w[3] = {1.0 + i, 2.0, -0.5 * i};
    PetscCall(MbShapeCreate(&s));
    PetscCall(MbShapeAddSphere(s, c, 0.12 + 0.02 * i, 0, 0));
    PetscCall(PetscSNPrintf(label, sizeof(label), "sphere%d", (int)i));
    PetscCall(Add(dom, MBBODYRIGID, s, label, v, w));
    PetscCall(MbShapeDestroy(&s));
    PetscCall(MbShapeCreate(&s));
    PetscCall(AddBox(s, lo, hi));
    PetscCall(PetscSNPrintf(label, sizeof(label), "box%d", (int)i));
    PetscCall(Add(dom, MBBODYRIGID, s, label, v, w));
    PetscCall(MbShapeDestroy(&s));
    PetscCall(MbShapeCreate(&s));
    c[1] = 0.8;
    PetscCall(AddPrism(s, c, 0.15, 0.2));
    PetscCall(PetscSNPrintf(label, sizeof(label), "prism%d", (int)i));
    PetscCall(Add(dom, MBBODYRIGID, s, label, w, v));
    PetscCall(MbShapeDestroy(&s));
  }
  { /* a compound: a box with a sphere on top */
    PetscReal lo[3] = {-0.1, 1.1, 0.5}, hi[3] = {0.1, 1.3, 0.7}, c[3] = {0, 1.2, 0.8}, v[3] = {0, -0.3, 2.0}, w[3] = {0, 0, 3.0};
    PetscCall(MbShapeCreate(&s));
    PetscCall(AddBox(s, lo, hi));
    PetscCall(MbShapeAddSphere(s, c, 0.1, 0, 0));
    PetscCall(Add(dom, MBBODYRIGID, s, "compound", v, w));
    PetscCall(MbShapeDestroy(&s));
  }
  PetscCall(MbOutputCreate(dom, dir, name, interval, &out));
  PetscCall(MbDomainRun(dom, T));
  PetscCall(MbOutputDestroy(&out));
  PetscCall(MbDomainDestroy(&dom));
  PetscCall(MbFinalize());
  PetscCall(PetscFinalize());
  return 0;
}
