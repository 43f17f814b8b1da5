# Benchmark: "spheres in a box", the scene of the Bullet reference benchmark
# bench/bullet/spheres.cpp (numbers in bench/bullet/README.md).
#
#   build/bin/moreau bench/spheres_in_box.py [N]        N = 1000 (default) or 10000
#   build/bin/moreau bench/spheres_in_box.py 10x20x10   any lattice NXxNYxNZ (scripts/scaling)
#   MB_BENCH_N=10000 build/bin/moreau bench/spheres_in_box.py
#   MB_BENCH_SEED=3 build/bin/moreau bench/spheres_in_box.py 10x10x25   another jitter (ensembles)
#   MB_BENCH_OUTPUT=1e-3 build/bin/moreau bench/spheres_in_box.py 1000 2   a frame every step
#     (the OUTPUT interval in seconds, default 1: tests/integration/memory.sh's frame count)
#   MB_BENCH_KIND=PSEUDO_RIGID MB_BENCH_YOUNG=1e7 build/bin/moreau bench/spheres_in_box.py
#     pseudo-rigid spheres under DEF_LIM (DEF_EXP's critical step would be ~1e-5 s for
#     glass). Young's modulus 1e7 Pa (default 60e9, glass): stiffer spheres blow up at
#     h = 1e-3 when they roll, doc/benchmarks.md says why
#
# N spheres of diameter 0.1 m (density 2500 kg/m^3) on an nx x ny x nz lattice (nz
# vertical: 10x10x10 for N = 1000, 20x20x25 for N = 10,000) of spacing 0.11 m, each
# coordinate jittered by a uniform +-2.5 mm (splitmix64 with the seed of the Bullet driver,
# so both codes start from the same positions); the lowest layer of centres is 0.11 m above
# the floor, the lattice centred over it. They drop under gravity 9.81 into an open static
# box (floor + 4 walls, OBSTACLE bodies made of HEX shapes) of inner width nx*0.11 + 0.1 m
# and walls twice the lattice height. Signorini-Coulomb contact, friction 0.5, restitution
# 0; h = 1e-3 s, 1 s simulated; output only at the end.
#
# Unlike the Bullet driver, lengths are NOT scaled here: moreau works in SI units as given.
#
# bench/run-spheres runs both N and prints the phase split, Gauss-Seidel iterations and
# contacts beside Bullet's times; results in doc/benchmarks.md ("Spheres in a box").
import math
import os
import sys
import time

size = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('MB_BENCH_N', '1000')
lattices = {1000: (10, 10, 10), 10000: (20, 20, 25)}
if 'x' in size.lower():  # a lattice NXxNYxNZ (scripts/scaling's weak series: 10x(10P)x10)
    try:
        nx, ny, nz = [int(s) for s in size.lower().split('x')]
    except ValueError:
        raise ValueError("spheres_in_box: SIZE must be 1000, 10000 or NXxNYxNZ, got '%s'" % size)
    if min(nx, ny, nz) < 1:
        raise ValueError("spheres_in_box: lattice sizes must be >= 1, got '%s'" % size)
else:
    if int(size) not in lattices:
        raise ValueError('spheres_in_box: N must be 1000 or 10000 (or a lattice NXxNYxNZ), got %s' % size)
    nx, ny, nz = lattices[int(size)]
n = nx * ny * nz

D = 0.1            # sphere diameter [m]
R = 0.5 * D        # sphere radius [m]
SPACING = 0.11     # lattice spacing [m]
JITTER = 2.5e-3    # +- jitter per coordinate [m]
WALL = 0.1         # thickness of the floor and walls [m]
# the seed of bench/bullet/spheres.cpp; MB_BENCH_SEED=k gives another jitter, for ensembles
# (the sweep work of one seed is luck to about +-12 %: doc/benchmarks.md)
try:
    SEED = int(os.environ.get('MB_BENCH_SEED', '20261121'))
except ValueError:
    raise ValueError("spheres_in_box: MB_BENCH_SEED must be an integer, got '%s'" % os.environ['MB_BENCH_SEED'])

_MASK = (1 << 64) - 1
_state = SEED


def splitmix64():
    """The generator of bench/bullet/spheres.cpp, bit for bit."""
    global _state
    _state = (_state + 0x9E3779B97F4A7C15) & _MASK
    z = _state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def jitter():
    return JITTER * (2.0 * ((splitmix64() >> 11) * (1.0 / 9007199254740992.0)) - 1.0)


def box(x0, y0, z0, x1, y1, z1, surfid):
    """An axis-aligned HEX from corner (x0, y0, z0) to (x1, y1, z1), one element."""
    nodes = [x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0,
             x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1]
    return HEX(nodes, 1, 1, 1, surfid, [surfid] * 6)


solfec = SOLFEC('DYNAMIC', 1e-3, 'out/spheres_in_box')
GRAVITY(solfec, (0, 0, -9.81))
SURFACE_MATERIAL(solfec, model='SIGNORINI_COULOMB', friction=0.5, restitution=0.0)
KIND = os.environ.get('MB_BENCH_KIND', 'RIGID')
if KIND not in ('RIGID', 'PSEUDO_RIGID'):
    raise ValueError("spheres_in_box: MB_BENCH_KIND must be RIGID or PSEUDO_RIGID, got '%s'" % KIND)
glass = BULK_MATERIAL(solfec, label='spheres', young=float(os.environ.get('MB_BENCH_YOUNG', '60e9')), poisson=0.2, density=2500)
steel = BULK_MATERIAL(solfec, label='box', young=200e9, poisson=0.3, density=7800)

# the box: floor top at z = 0, centred on x = y = 0
inner_x, inner_y = nx * SPACING + D, ny * SPACING + D
z0 = SPACING                                   # lowest layer of centres
wall_h = 2.0 * (z0 + (nz - 1) * SPACING + R)   # twice the top of the lattice
ox, oy, hx, hy = 0.5 * inner_x + WALL, 0.5 * inner_y + WALL, 0.5 * inner_x, 0.5 * inner_y
BODY(solfec, 'OBSTACLE', box(-ox, -oy, -WALL, ox, oy, 0, 2), steel, label='floor')
BODY(solfec, 'OBSTACLE', box(-ox, -oy, 0, -hx, oy, wall_h, 2), steel, label='wall x-')
BODY(solfec, 'OBSTACLE', box(hx, -oy, 0, ox, oy, wall_h, 2), steel, label='wall x+')
BODY(solfec, 'OBSTACLE', box(-hx, -oy, 0, hx, -hy, wall_h, 2), steel, label='wall y-')
BODY(solfec, 'OBSTACLE', box(-hx, hy, 0, hx, oy, wall_h, 2), steel, label='wall y+')

# the spheres, in the order of the Bullet driver (x fastest, then y, then z)
spheres = []
for k in range(nz):
    for j in range(ny):
        for i in range(nx):
            x = (i - 0.5 * (nx - 1)) * SPACING + jitter()
            y = (j - 0.5 * (ny - 1)) * SPACING + jitter()
            z = z0 + k * SPACING + jitter()
            spheres.append(BODY(solfec, KIND, SPHERE((x, y, z), R, 1, 1), glass))
            if KIND == 'PSEUDO_RIGID':
                spheres[-1].scheme = 'DEF_LIM'

try:
    OUTPUT_INTERVAL = float(os.environ.get('MB_BENCH_OUTPUT', '1.0'))
except ValueError:
    raise ValueError("spheres_in_box: MB_BENCH_OUTPUT must be a number of seconds, got '%s'" % os.environ['MB_BENCH_OUTPUT'])
OUTPUT(solfec, OUTPUT_INTERVAL)
gs = GAUSS_SEIDEL_SOLVER(1e-3, 1000)
t0 = time.perf_counter()
RUN(solfec, gs, float(sys.argv[2]) if len(sys.argv) > 2 else 1.0)  # optional duration (default 1 s)
wall = time.perf_counter() - t0
steps = solfec.steps

kin = ENERGY(solfec)[0]  # collective
if RANK() == 0:
    print('moreau N=%d steps=%d wall=%.3f per_step=%.3f ranks=%d kinetic=%.6g J'
          % (n, steps, wall, 1e3 * wall / max(steps, 1), NCPU(solfec), kin))
if NCPU(solfec) == 1:  # conf/velo are known for every body only on one rank
    zsum, vmax = 0.0, 0.0
    for b in spheres:
        q, u = b.conf, b.velo  # q: rotation or F (9), mass centre (3); u: angular (3) or Fdot (9), linear (3)
        zsum += q[11]
        vmax = max(vmax, math.sqrt(u[-3] ** 2 + u[-2] ** 2 + u[-1] ** 2))
    print('moreau N=%d final_mean_z=%.5f max_speed=%.4f' % (n, zsum / n, vmax))
