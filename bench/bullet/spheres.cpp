// Reference benchmark: "spheres in a box" with Bullet 3.24 (Debian libbullet-dev).
//
//   bench/bullet/build-out/spheres N [steps]      N = 1000 (10x10x10) or 10000 (20x20x25)
//
// The scene (the same as bench/spheres_in_box.py for moreau):
//   - spheres of diameter 0.1 m, density 2500 kg/m^3, friction 0.5, restitution 0;
//   - on a lattice nx x ny x nz (nz vertical) of spacing 0.11 m, each coordinate jittered by
//     a uniform +-2.5 mm (splitmix64, fixed seed: the Python deck draws the same numbers);
//     the lowest layer of centres is 0.11 m above the floor, the lattice centred over it;
//   - an open static box: a floor and 4 walls, inner width nx*0.11 + 0.1 m, walls 2x the
//     height of the lattice top;
//   - gravity 9.81 m/s^2, h = 1e-3 s, 1 s simulated (1000 steps), stepSimulation(h, 0): one
//     fixed step of h per call, no sub-stepping, no interpolation;
//   - btDbvtBroadphase, btSequentialImpulseConstraintSolver with 10 iterations a step,
//     btDiscreteDynamicsWorld (single thread), no CCD, deactivation (sleeping) disabled so
//     that every body is simulated in every step, as in moreau.
//
// UNITS: Bullet is tuned for objects of about 1 m (collision margins of 0.04, linear slop
// and sleeping thresholds are absolute lengths), so every length is scaled by S = 10 inside
// Bullet: radius 0.5, spacing 1.1, jitter +-0.025, box 10x larger. Gravity is scaled by S as
// well (98.1), so that times are unchanged: with x' = S x and g' = S g the equations of
// motion x'' = g give the same trajectories in time, and velocities scale by S. Masses are
// left in SI units (only their ratios matter for rigid contact). Printed positions and
// speeds are divided by S back to metres and m/s.
//
// FRICTION: Bullet combines the friction of two bodies as the product f1*f2 (and the
// restitution as r1*r2), so every body gets friction sqrt(0.5) to give mu = 0.5 at every
// sphere-sphere and sphere-wall contact; restitution 0 everywhere.
//
// Output (one line each):
//   bullet N=<n> steps=<k> wall=<s> per_step=<ms> final_mean_z=<m> max_speed=<m/s>
//       wall is the whole run (scene creation + stepping), per_step = stepping time / steps
//   bullet stepSimulation: total=<s> per_step=<ms> (the stepSimulation calls alone), then the
//       contact manifolds, the deepest penetration [mm] and the number of sphere centres
//       outside the box (0 expected) after the last step
#include <btBulletDynamicsCommon.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

static const double S = 10.0;          // length scale inside Bullet (see UNITS above)
static const double D = 0.1;           // sphere diameter [m]
static const double R = 0.5 * D;       // sphere radius [m]
static const double SPACING = 0.11;    // lattice spacing [m]
static const double JITTER = 2.5e-3;   // +- jitter per coordinate [m]
static const double RHO = 2500.0;      // density [kg/m^3]
static const double MU = 0.5;          // friction coefficient
static const double G = 9.81;          // gravity [m/s^2]
static const double H = 1e-3;          // time step [s]
static const double WALL = 0.1;        // thickness of the floor and walls [m]
static const uint64_t SEED = 20261121; // jitter seed (same in bench/spheres_in_box.py)

// splitmix64: tiny, portable, and easy to reproduce in Python
static uint64_t rng_state = SEED;
static uint64_t splitmix64()
{
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double uniform01() { return (double)(splitmix64() >> 11) * (1.0 / 9007199254740992.0); } // [0, 1)
static double jitter() { return JITTER * (2.0 * uniform01() - 1.0); }

static double now()
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv)
{
  const double t_start = now();
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s N [steps]   (N = 1000 or 10000; steps default 1000 = 1 s)\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[1]);
  int nx, ny, nz;
  if (n == 1000) nx = 10, ny = 10, nz = 10;
  else if (n == 10000) nx = 20, ny = 20, nz = 25;
  else {
    std::fprintf(stderr, "%s: N must be 1000 or 10000, got %s\n", argv[0], argv[1]);
    return 2;
  }
  const int steps = argc > 2 ? std::atoi(argv[2]) : 1000;
  if (steps < 1) {
    std::fprintf(stderr, "%s: steps must be >= 1, got %s\n", argv[0], argv[2]);
    return 2;
  }

  // geometry in metres (unscaled); the floor's top face is z = 0, the box centred on x = y = 0
  const double inner_x = nx * SPACING + D, inner_y = ny * SPACING + D;
  const double z0 = SPACING;                                  // lowest layer of centres
  const double lattice_top = z0 + (nz - 1) * SPACING + R;     // top of the highest spheres
  const double wall_h = 2.0 * lattice_top;                    // walls 2x the lattice height

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

  // static box: floor + 4 walls (mass 0); half extents and centres scaled by S
  auto add_static_box = [&](double hx, double hy, double hz, double cx, double cy, double cz) {
    btBoxShape *shape = new btBoxShape(btVector3(hx * S, hy * S, hz * S));
    shapes.push_back(shape);
    btTransform tr;
    tr.setIdentity();
    tr.setOrigin(btVector3(cx * S, cy * S, cz * S));
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shape, btVector3(0, 0, 0));
    info.m_startWorldTransform = tr;
    info.m_friction = body_friction;
    info.m_restitution = 0;
    btRigidBody *body = new btRigidBody(info);
    world.addRigidBody(body);
    bodies.push_back(body);
  };
  const double ox = 0.5 * inner_x + WALL, oy = 0.5 * inner_y + WALL; // outer half widths
  add_static_box(ox, oy, 0.5 * WALL, 0, 0, -0.5 * WALL);                                  // floor
  add_static_box(0.5 * WALL, oy, 0.5 * wall_h, -0.5 * inner_x - 0.5 * WALL, 0, 0.5 * wall_h); // x-
  add_static_box(0.5 * WALL, oy, 0.5 * wall_h, +0.5 * inner_x + 0.5 * WALL, 0, 0.5 * wall_h); // x+
  add_static_box(0.5 * inner_x, 0.5 * WALL, 0.5 * wall_h, 0, -0.5 * inner_y - 0.5 * WALL, 0.5 * wall_h); // y-
  add_static_box(0.5 * inner_x, 0.5 * WALL, 0.5 * wall_h, 0, +0.5 * inner_y + 0.5 * WALL, 0.5 * wall_h); // y+

  // spheres: one shared shape; mass in kg, inertia from the scaled radius
  btSphereShape *ball = new btSphereShape((btScalar)(R * S));
  shapes.push_back(ball);
  const double mass = RHO * 4.0 / 3.0 * M_PI * R * R * R;
  btVector3 inertia(0, 0, 0);
  ball->calculateLocalInertia((btScalar)mass, inertia);
  std::vector<btRigidBody *> spheres;
  spheres.reserve(n);
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        const double x = (i - 0.5 * (nx - 1)) * SPACING + jitter();
        const double y = (j - 0.5 * (ny - 1)) * SPACING + jitter();
        const double z = z0 + k * SPACING + jitter();
        btTransform tr;
        tr.setIdentity();
        tr.setOrigin(btVector3(x * S, y * S, z * S));
        btRigidBody::btRigidBodyConstructionInfo info((btScalar)mass, nullptr, ball, inertia);
        info.m_startWorldTransform = tr;
        info.m_friction = body_friction;
        info.m_restitution = 0;
        btRigidBody *body = new btRigidBody(info);
        body->setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(body);
        bodies.push_back(body);
        spheres.push_back(body);
      }

  const double t_step0 = now();
  for (int s = 0; s < steps; s++) world.stepSimulation((btScalar)H, 0); // fixed step, no substeps
  const double t_step = now() - t_step0;

  double zsum = 0, vmax = 0;
  int outside = 0; // sanity: spheres whose centre left the box (should be 0)
  for (btRigidBody *b : spheres) {
    const btVector3 c = b->getCenterOfMassPosition() / (btScalar)S;
    zsum += c.getZ();
    if (c.getZ() < 0 || std::fabs(c.getX()) > 0.5 * inner_x || std::fabs(c.getY()) > 0.5 * inner_y) outside++;
    const double v = b->getLinearVelocity().length() / S;
    if (v > vmax) vmax = v;
  }
  double pen = 0; // deepest penetration over the contact points of the last step [m]
  for (int m = 0; m < dispatcher.getNumManifolds(); m++) {
    const btPersistentManifold *pm = dispatcher.getManifoldByIndexInternal(m);
    for (int c = 0; c < pm->getNumContacts(); c++)
      if (-pm->getContactPoint(c).getDistance() / S > pen) pen = -pm->getContactPoint(c).getDistance() / S;
  }
  const double wall = now() - t_start;
  std::printf("bullet N=%d steps=%d wall=%.3f per_step=%.3f final_mean_z=%.5f max_speed=%.4f\n",
              n, steps, wall, 1e3 * t_step / steps, zsum / n, vmax);
  std::printf("bullet stepSimulation: total=%.3f s per_step=%.3f ms (Bullet %d, %s precision, "
              "btDbvtBroadphase; at the end: %d contact manifolds, max_penetration=%.2f mm, %d spheres outside the box)\n",
              t_step, 1e3 * t_step / steps, btGetVersion(), sizeof(btScalar) == 8 ? "double" : "single",
              dispatcher.getNumManifolds(), 1e3 * pen, outside);

  for (btRigidBody *b : bodies) {
    world.removeRigidBody(b);
    delete b;
  }
  for (btCollisionShape *s : shapes) delete s;
  return 0;
}
