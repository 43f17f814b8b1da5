# Block sliding on a rough table (Potra et al. 2006; Solfec-1.0 validation manual).
# A rigid block 0.3 x 0.3 x 0.1 m of mass 1 (density 111.111...) rests on an obstacle,
# friction 0.8, gravity 9.81, and is pushed by a horizontal spatial force 8 cos(t) N at its
# centre: it sticks and slips. h = 1e-3 s, Gauss-Seidel epsilon = 1e-3, 10 s.
# Reference (VALIDATION.md): x-displacement of the centre at steps 2000 / 5000 / 8000 is
# 0.00435081, -0.00870879, 0.00441870 m; v_x at steps 150 / 3150 / 6150 is 0.0183699,
# -0.0212233, 0.00288767 m/s. Tolerance 1e-3 relative to max(1, |value|).
from math import cos

h = 1e-3
solfec = SOLFEC('DYNAMIC', h, 'out/block_sliding')
solfec.verbose = 'OFF'
GRAVITY(solfec, (0, 0, -9.81))
SURFACE_MATERIAL(solfec, model='SIGNORINI_COULOMB', friction=0.8, restitution=0.0)
mat = BULK_MATERIAL(solfec, density=1.0 / (0.3 * 0.3 * 0.1))
x0 = 3.0
nodes = [x0 - 0.15, -0.15, 0, x0 + 0.15, -0.15, 0, x0 + 0.15, 0.15, 0, x0 - 0.15, 0.15, 0,
         x0 - 0.15, -0.15, 0.1, x0 + 0.15, -0.15, 0.1, x0 + 0.15, 0.15, 0.1, x0 - 0.15, 0.15, 0.1]
block = BODY(solfec, 'RIGID', HEX(nodes, 1, 1, 1, 1, [1] * 6), mat, label='block')
table = BODY(solfec, 'OBSTACLE', HEX([0, -1, -0.1, 6, -1, -0.1, 6, 1, -0.1, 0, 1, -0.1,
                                      0, -1, 0, 6, -1, 0, 6, 1, 0, 0, 1, 0], 1, 1, 1, 2, [2] * 6), mat, label='table')
c = block.center


def push(q, u, t, h):
    return (8 * cos(t), 0, 0, 0, 0, 0, 0, 0, 0)


FORCE(block, 'SPATIAL', c, (1, 0, 0), push)
OUTPUT(solfec, 0.05)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-3, 1000), 10.0)

refs = [('dx', 2000, 0.00435081), ('dx', 5000, -0.00870879), ('dx', 8000, 0.00441870),
        ('vx', 150, 0.0183699), ('vx', 3150, -0.0212233), ('vx', 6150, 0.00288767)]
th = HISTORY(solfec, [(block, c, 'DX'), (block, c, 'VX')])
worst = 0.0
lines = []
for what, step, ref in refs:
    k = min(range(len(th[0])), key=lambda i: abs(th[0][i] - step * h))
    val = th[1][k] if what == 'dx' else th[2][k]
    err = abs(val - ref) / max(1.0, abs(ref))
    worst = max(worst, err)
    lines.append('block_sliding: step %5d (t = %.3f) %s = %+.8f, reference %+.8f, error %.2e' % (step, th[0][k], what, val, ref, err))
if RANK() == 0:
    print('\n'.join(lines))
    print('block_sliding: worst error %.2e (tolerance 1e-3)' % worst)
    print('PASSED' if worst < 1e-3 else 'FAILED')
