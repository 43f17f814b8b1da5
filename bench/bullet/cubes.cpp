// Reference benchmark: "cubes array" with Bullet 3.24 (Debian libbullet-dev).
//
//   bench/bullet/build-out/cubes [SIZE [DURATION]]    SIZE = n (n x n x n) or NXxNYxNZ, default 10;
//                                                    DURATION in seconds, default 0.3 (300 steps)
//
// The scene (the same as bench/cubes_array.py for moreau):
//   - cubes of edge 0.1 m, density 1000 kg/m^3 (1 kg), friction 0.5, restitution 0, standing in
//     NX*NY columns of NZ on a square lattice of spacing 0.11 m (x fastest, then y, then z);
//     in a column the cubes are 2 mm apart and the lowest is 2 mm above the floor;
//   - each cube shifted by a uniform +-2 mm in x, then y, and turned about the vertical by a
//     uniform +-5 degrees (three draws per cube, in that order, from splitmix64 with the seed
//     of bench/cubes_array.py: the same positions and angles as the deck);
//   - a static floor slab, top face z = 0, 0.1 m thick, 0.2 m wider than the array on each side;
//   - gravity 9.81 m/s^2, h = 1e-3 s, stepSimulation(h, 0): one fixed step per call;
//   - btDbvtBroadphase, btSequentialImpulseConstraintSolver with 10 iterations a step,
//     btDiscreteDynamicsWorld (single thread), no CCD, sleeping disabled (every body is
//     simulated in every step, as in moreau).
//
// UNITS and FRICTION as bench/bullet/spheres.cpp: every length ×10 inside Bullet (edge 1.0,
// spacing 1.1, gap 0.02, gravity 98.1; times unchanged), masses in SI units, inertia from the
// scaled box; each body gets friction sqrt(0.5) since Bullet multiplies the two bodies'
// frictions. Printed positions and speeds are in m and m/s.
//
// Output (one line each):
//   bullet cubes=<nx>x<ny>x<nz> bodies=<n> steps=<k> wall=<s> per_step=<ms> final_mean_z=<m> max_speed=<m/s>
//       wall is the whole run (scene creation + stepping), per_step = stepping time / steps
//   bullet stepSimulation: total=<s> per_step=<ms> (...) then, after the last step, the contact
//       manifolds and contact points, the deepest penetration [mm], the ideal mean height of the
//       settled stacks (NZ*edge/2, no gaps), the cubes that fell off the floor (centre outside
//       the slab or below its top), those that tipped over (local z axis more than 45 degrees
//       from the vertical) and those out of place (centre more than 1 cm above or below its
//       place in a settled stack, (k + 1/2) edge for the k-th layer): sanity checks, 0 expected
#include <btBulletDynamicsCommon.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static const double S = 10.0;          // length scale inside Bullet (see UNITS above)
static const double A = 0.1;           // cube edge [m]
static const double SPACING = 0.11;    // lattice spacing in x and y [m]
static const double GAP = 2e-3;        // vertical gap between cubes and above the floor [m]
static const double JITTER = 2e-3;     // +- shift in x and y [m]
static const double TWIST = 5.0;       // +- turn about the vertical [degrees]
static const double FLOOR = 0.1;       // floor thickness [m]
static const double MARGIN = 0.2;      // floor overhang around the array [m]
static const double RHO = 1000.0;      // density [kg/m^3]
static const double MU = 0.5;          // friction coefficient
static const double G = 9.81;          // gravity [m/s^2]
static const double H = 1e-3;          // time step [s]
static const uint64_t SEED = 20261121; // the seed of bench/cubes_array.py

static uint64_t rng_state = SEED;
static uint64_t splitmix64()
{
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double uniform(double a) { return a * (2.0 * ((double)(splitmix64() >> 11) * (1.0 / 9007199254740992.0)) - 1.0); } // [-a, a)

static double now()
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static bool parse_size(const char *s, int *nx, int *ny, int *nz)
{
  char *end;
  long a = std::strtol(s, &end, 10);
  if (*end == '\0') {
    *nx = *ny = *nz = (int)a;
    return a >= 1;
  }
  if (*end != 'x' && *end != 'X') return false;
  long b = std::strtol(end + 1, &end, 10);
  if (*end != 'x' && *end != 'X') return false;
  long c = std::strtol(end + 1, &end, 10);
  if (*end != '\0') return false;
  *nx = (int)a, *ny = (int)b, *nz = (int)c;
  return a >= 1 && b >= 1 && c >= 1;
}

int main(int argc, char **argv)
{
  const double t_start = now();
  int nx = 10, ny = 10, nz = 10;
  if (argc > 1 && !parse_size(argv[1], &nx, &ny, &nz)) {
    std::fprintf(stderr, "usage: %s [n | NXxNYxNZ [duration]]  (default 10 and 0.3 s), got '%s'\n", argv[0], argv[1]);
    return 2;
  }
  const double duration = argc > 2 ? std::atof(argv[2]) : 0.3;
  if (!(duration > 0)) {
    std::fprintf(stderr, "%s: duration must be > 0, got %s\n", argv[0], argv[2]);
    return 2;
  }
  const int steps = (int)std::lround(duration / H);
  const int n = nx * ny * nz;

  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
  world.setGravity(btVector3(0, 0, -G * S));                  // gravity scaled with lengths
  world.getSolverInfo().m_numIterations = 10;
  world.getSolverInfo().m_restitution = 0;

  const btScalar body_friction = (btScalar)std::sqrt(MU);     // product rule: f*f = MU
  std::vector<btCollisionShape *> shapes;
  std::vector<btRigidBody *> bodies;

  // the floor: top face z = 0, centred on x = y = 0 (half extents and centre scaled by S)
  const double fx = 0.5 * ((nx - 1) * SPACING + A) + MARGIN;
  const double fy = 0.5 * ((ny - 1) * SPACING + A) + MARGIN;
  {
    btBoxShape *shape = new btBoxShape(btVector3(fx * S, fy * S, 0.5 * FLOOR * S));
    shapes.push_back(shape);
    btTransform tr;
    tr.setIdentity();
    tr.setOrigin(btVector3(0, 0, -0.5 * FLOOR * S));
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shape, btVector3(0, 0, 0));
    info.m_startWorldTransform = tr;
    info.m_friction = body_friction;
    info.m_restitution = 0;
    btRigidBody *body = new btRigidBody(info);
    world.addRigidBody(body);
    bodies.push_back(body);
  }

  // the cubes: one shared shape; mass in kg, inertia from the scaled box
  btBoxShape *box = new btBoxShape(btVector3(0.5 * A * S, 0.5 * A * S, 0.5 * A * S));
  shapes.push_back(box);
  const double mass = RHO * A * A * A;
  btVector3 inertia(0, 0, 0);
  box->calculateLocalInertia((btScalar)mass, inertia);
  std::vector<btRigidBody *> cubes;
  cubes.reserve(n);
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        const double x = (i - 0.5 * (nx - 1)) * SPACING + uniform(JITTER);
        const double y = (j - 0.5 * (ny - 1)) * SPACING + uniform(JITTER);
        const double phi = uniform(TWIST) * M_PI / 180.0;
        const double z = GAP + k * (A + GAP) + 0.5 * A;        // centre: bottom face + A/2
        btTransform tr;
        tr.setIdentity();
        tr.setOrigin(btVector3(x * S, y * S, z * S));
        tr.setRotation(btQuaternion(btVector3(0, 0, 1), (btScalar)phi));
        btRigidBody::btRigidBodyConstructionInfo info((btScalar)mass, nullptr, box, inertia);
        info.m_startWorldTransform = tr;
        info.m_friction = body_friction;
        info.m_restitution = 0;
        btRigidBody *body = new btRigidBody(info);
        body->setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(body);
        bodies.push_back(body);
        cubes.push_back(body);
      }

  const double t_step0 = now();
  for (int s = 0; s < steps; s++) world.stepSimulation((btScalar)H, 0); // fixed step, no substeps
  const double t_step = now() - t_step0;

  double zsum = 0, vmax = 0;
  int fell = 0, tipped = 0, displaced = 0;
  for (int idx = 0; idx < n; idx++) {
    const btRigidBody *b = cubes[idx];
    const btTransform &tr = b->getCenterOfMassTransform();
    const btVector3 c = tr.getOrigin() / (btScalar)S;
    zsum += c.getZ();
    if (c.getZ() < 0 || std::fabs(c.getX()) > fx || std::fabs(c.getY()) > fy) fell++;
    // the cube's local z axis in world coordinates is the basis's third column
    if (std::fabs(tr.getBasis().getColumn(2).getZ()) < std::cos(M_PI / 4)) tipped++;
    if (std::fabs(c.getZ() - (idx / (nx * ny) + 0.5) * A) > 0.01) displaced++; // layer k = idx / (nx ny)
    const double v = b->getLinearVelocity().length() / S;
    if (v > vmax) vmax = v;
  }
  double pen = 0; // deepest penetration over the contact points of the last step [m]
  int points = 0;
  for (int m = 0; m < dispatcher.getNumManifolds(); m++) {
    const btPersistentManifold *pm = dispatcher.getManifoldByIndexInternal(m);
    points += pm->getNumContacts();
    for (int c = 0; c < pm->getNumContacts(); c++)
      if (-pm->getContactPoint(c).getDistance() / S > pen) pen = -pm->getContactPoint(c).getDistance() / S;
  }
  const double wall = now() - t_start;
  std::printf("bullet cubes=%dx%dx%d bodies=%d steps=%d wall=%.3f per_step=%.3f final_mean_z=%.5f max_speed=%.4f\n",
              nx, ny, nz, n, steps, wall, 1e3 * t_step / steps, zsum / n, vmax);
  std::printf("bullet stepSimulation: total=%.3f s per_step=%.3f ms (Bullet %d, %s precision, btDbvtBroadphase; "
              "at the end: %d contact manifolds, %d contact points, max_penetration=%.2f mm, ideal mean_z=%.5f, "
              "%d fell off, %d tipped over, %d out of place)\n",
              t_step, 1e3 * t_step / steps, btGetVersion(), sizeof(btScalar) == 8 ? "double" : "single",
              dispatcher.getNumManifolds(), points, 1e3 * pen, 0.5 * nz * A, fell, tipped, displaced);

  for (btRigidBody *b : bodies) {
    world.removeRigidBody(b);
    delete b;
  }
  for (btCollisionShape *s : shapes) delete s;
  return 0;
}
