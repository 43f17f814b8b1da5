# Pseudo-rigid and rigid bodies tied by springs, free in space (no gravity, no contact):
# four pseudo-rigid cubes (DEF_EXP) and a rigid one in a ring of linear springs, set spinning
# and stretched. No constraint solve takes place, so every rank count must give the same
# /history to round-off (tests/integration/ranks.sh checks 1e-12). References:
#  - total linear momentum (sum of m v of the mass centres, from HISTORY) stays at its
#    initial value to 1e-10 of its size: the springs' impulses are equal and opposite and
#    internal forces of a pseudo-rigid body have no resultant (seed 003);
#  - kinetic energy + internal energy (the springs' and the bodies' stored energy) stays
#    within 0.1 % of its start (measured 1.2e-4): the springs are applied as mid-step impulses, the bodies by
#    DEF_EXP well below its critical step (no drift, an O(h^2) oscillation).
h = 1e-4
s = SOLFEC('DYNAMIC', h, 'out/pseudo_rigid_springs')
s.verbose = 'OFF'
mat = BULK_MATERIAL(s, young=1e7, poisson=0.3, density=1000)


def cube(x, y, a=0.2):
    d = a / 2
    return HEX([x - d, y - d, -d, x + d, y - d, -d, x + d, y + d, -d, x - d, y + d, -d,
                x - d, y - d, d, x + d, y - d, d, x + d, y + d, d, x - d, y + d, d], 1, 1, 1, 1, [1] * 6)


spots = [(1, 0), (0, 1), (-1, 0), (0, -1), (0.7, 0.7)]
bodies = []
for k, (x, y) in enumerate(spots):
    b = BODY(s, 'RIGID' if k == 4 else 'PSEUDO_RIGID', cube(x, y), mat)
    INITIAL_VELOCITY(b, (-y, x, 0.1 * k), (0.5 * k, 0, 1))
    bodies.append(b)
for k in range(len(spots)):  # a ring of springs between the cubes' nearest corners, 10 % short
    (x0, y0), (x1, y1) = spots[k], spots[(k + 1) % len(spots)]
    p0 = (x0 + 0.1 * (x1 - x0), y0 + 0.1 * (y1 - y0), 0.1)
    p1 = (x1 + 0.1 * (x0 - x1), y1 + 0.1 * (y0 - y1), 0.1)
    length = ((p0[0] - p1[0]) ** 2 + (p0[1] - p1[1]) ** 2) ** 0.5
    PUT_SPRING(bodies[k], p0, bodies[(k + 1) % len(spots)], p1, spring=2e4, rest=0.9 * length)
OUTPUT(s, 0.01)
RUN(s, None, 0.5)

items = []
for b in bodies:
    items += [(b, b.center, 'VX'), (b, b.center, 'VY'), (b, b.center, 'VZ')]
hist = HISTORY(s, items)
masses = [b.mass for b in bodies]
p = [[sum(m * hist[1 + 3 * i + c][f] for i, m in enumerate(masses)) for c in range(3)] for f in range(len(hist[0]))]
size = max(sum(abs(m * hist[1 + 3 * i + c][0]) for i, m in enumerate(masses)) for c in range(3))
dp = max(abs(p[f][c] - p[0][c]) for f in range(len(p)) for c in range(3)) / size
t, kin, internal = HISTORY(s, [(s, 'KINETIC'), (s, 'INTERNAL')])
e = [k + i for k, i in zip(kin, internal)]
de = max(abs(x - e[0]) for x in e) / e[0]
ok = dp < 1e-10 and de < 1e-3
if RANK() == 0:
    print('pseudo_rigid_springs: linear momentum kept to %.1e of its size (1e-10); kinetic + internal energy within %.2e of its start (1e-3)' % (dp, de))
    print('PASSED' if ok else 'FAILED')
