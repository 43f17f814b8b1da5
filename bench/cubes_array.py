# Benchmark for scaling studies (issue 5): an array of NX x NY x NZ cubes settling on a floor.
#
#   build/bin/moreau bench/cubes_array.py [SIZE [DURATION]]
#   mpirun -np 2 build/bin/moreau bench/cubes_array.py 10x20x10 0.3
#   MB_BENCH_N=12 build/bin/moreau bench/cubes_array.py
#
# SIZE is n (an n x n x n array) or NXxNYxNZ (NZ vertical), default 10 (1000 cubes), also
# from MB_BENCH_N; DURATION is the simulated time in seconds, default 0.3 (300 steps of
# h = 1e-3 s). scripts/scaling grows NY with the number of ranks in its weak series, so the
# columns keep their height and the floor area (and the partition boundaries) grow.
#
# Cubes of edge 0.1 m (density 1000 kg/m^3, HEX shapes, one element each) stand in columns
# on a square lattice of spacing 0.11 m; in a column they are 2 mm apart and the lowest is
# 2 mm above the floor. Each cube is shifted by a uniform +-2 mm in x and y and turned about
# the vertical by a uniform +-5 degrees (splitmix64, fixed seed: the same scene on any
# number of ranks), so the columns are not perfectly aligned. They drop under gravity 9.81
# onto an OBSTACLE floor (a HEX slab 0.1 m thick, 0.2 m wider than the array on each side)
# and settle into NX*NY stacks of NZ cubes with four contact points on each face pair,
# 4*NX*NY*NZ contacts at rest: the all-rigid stacks on which parallel Gauss-Seidel must
# still converge. Signorini-Coulomb contact, friction 0.5, restitution 0; Gauss-Seidel with
# epsilon 1e-4, at most 1000 sweeps a step; output only at the end.
import math
import os
import sys
import time

A = 0.1            # cube edge [m]
SPACING = 0.11     # lattice spacing in x and y [m]
GAP = 2e-3         # vertical gap between cubes, and between the lowest and the floor [m]
JITTER = 2e-3      # +- shift in x and y [m]
TWIST = 5.0        # +- turn about the vertical [degrees]
FLOOR = 0.1        # thickness of the floor [m]
MARGIN = 0.2       # floor overhang around the array [m]
SEED = 20261121

args = sys.argv[1:]
size = args[0] if args else os.environ.get('MB_BENCH_N', '10')
duration = float(args[1]) if len(args) > 1 else 0.3
if len(args) > 2:
    raise ValueError('cubes_array: usage: cubes_array.py [n | NXxNYxNZ [duration]], got %d arguments' % len(args))
try:
    dims = [int(s) for s in size.lower().split('x')]
except ValueError:
    raise ValueError("cubes_array: SIZE must be n or NXxNYxNZ (e.g. 10 or 10x20x10), got '%s'" % size)
if len(dims) == 1:
    dims *= 3
if len(dims) != 3 or min(dims) < 1:
    raise ValueError("cubes_array: SIZE must be n or NXxNYxNZ with positive integers, got '%s'" % size)
if not duration > 0:
    raise ValueError('cubes_array: duration must be > 0, got %g' % duration)
nx, ny, nz = dims

_MASK = (1 << 64) - 1
_state = SEED


def splitmix64():
    global _state
    _state = (_state + 0x9E3779B97F4A7C15) & _MASK
    z = _state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def uniform(a):
    """A uniform number in [-a, a)."""
    return a * (2.0 * ((splitmix64() >> 11) * (1.0 / 9007199254740992.0)) - 1.0)


def hex_nodes(corners):
    """The 24 coordinates of a HEX from its eight corners (bottom face, then top)."""
    return [c for p in corners for c in p]


def cube(x, y, z0, phi, surfid):
    """A cube of edge A with its bottom face at z0, centred on (x, y), turned by phi."""
    c, s, h = math.cos(phi), math.sin(phi), 0.5 * A
    quad = [(-h, -h), (h, -h), (h, h), (-h, h)]
    xy = [(x + c * u - s * v, y + s * u + c * v) for u, v in quad]
    corners = [(p, q, z0) for p, q in xy] + [(p, q, z0 + A) for p, q in xy]
    return HEX(hex_nodes(corners), 1, 1, 1, surfid, [surfid] * 6)


solfec = SOLFEC('DYNAMIC', 1e-3, 'out/cubes_array')
GRAVITY(solfec, (0, 0, -9.81))
SURFACE_MATERIAL(solfec, model='SIGNORINI_COULOMB', friction=0.5, restitution=0.0)
wood = BULK_MATERIAL(solfec, label='cubes', density=1000)
steel = BULK_MATERIAL(solfec, label='floor', young=200e9, poisson=0.3, density=7800)

# the floor: top at z = 0, centred on x = y = 0
fx = 0.5 * ((nx - 1) * SPACING + A) + MARGIN
fy = 0.5 * ((ny - 1) * SPACING + A) + MARGIN
BODY(solfec, 'OBSTACLE',
     HEX(hex_nodes([(-fx, -fy, -FLOOR), (fx, -fy, -FLOOR), (fx, fy, -FLOOR), (-fx, fy, -FLOOR),
                    (-fx, -fy, 0), (fx, -fy, 0), (fx, fy, 0), (-fx, fy, 0)]), 1, 1, 1, 2, [2] * 6),
     steel, label='floor')

# the cubes, x fastest, then y, then z (layer by layer, as spheres_in_box.py)
for k in range(nz):
    for j in range(ny):
        for i in range(nx):
            x = (i - 0.5 * (nx - 1)) * SPACING + uniform(JITTER)
            y = (j - 0.5 * (ny - 1)) * SPACING + uniform(JITTER)
            phi = math.radians(uniform(TWIST))
            BODY(solfec, 'RIGID', cube(x, y, GAP + k * (A + GAP), phi, 1), wood)

OUTPUT(solfec, duration)
gs = GAUSS_SEIDEL_SOLVER(1e-4, 1000)
t0 = time.perf_counter()
RUN(solfec, gs, duration)
wall = time.perf_counter() - t0
steps = solfec.steps
kin = ENERGY(solfec)[0]  # collective
t, contacts = HISTORY(solfec, [(solfec, 'CONTACTS')])
if RANK() == 0:
    print('moreau cubes=%dx%dx%d bodies=%d steps=%d wall=%.3f per_step=%.3f ranks=%d kinetic=%.6g J contacts=%d (%d at rest)'
          % (nx, ny, nz, nx * ny * nz, steps, wall, 1e3 * wall / max(steps, 1), NCPU(solfec), kin,
             contacts[-1], 4 * nx * ny * nz))
