# Benchmark (issue 18): one FINITE_ELEMENT block of nx*ny*nz HEX8 (default 40x25x10 = 10,000)
# resting on a rigid floor under DEF_LIM, ~contacts along its bottom; steps per second and
# the per-phase times (-log_view: MbFemFactor/MbWInsert/Solve). Arguments: nx ny nz steps
# [scheme] [state FILE] [form=BC]: with "state", the end velocities and displacements go to
# FILE; form=BC makes the block Solfec's body co-rotational form.
import sys
form = 'TL'
for a in list(sys.argv[1:]):  # form=BC anywhere: Solfec's body co-rotational form
    if a.startswith('form='):
        form = a[5:]
        sys.argv.remove(a)
nx, ny, nz = [int(a) for a in (sys.argv[1:4] if len(sys.argv) > 3 else (40, 25, 10))]
steps = int(sys.argv[4]) if len(sys.argv) > 4 else 5
scheme = sys.argv[5] if len(sys.argv) > 5 else 'DEF_LIM'
d = 0.1
h = 1e-4
s = SOLFEC('DYNAMIC', h, 'out/fe_floor')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
mat = BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000)
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.3)
L, W, H = nx * d, ny * d, nz * d
BODY(s, 'OBSTACLE', HEX([-1, -1, -0.2, L + 1, -1, -0.2, L + 1, W + 1, -0.2, -1, W + 1, -0.2, -1, -1, 0, L + 1, -1, 0, L + 1, W + 1, 0, -1, W + 1, 0], 1, 1, 1, 2, [2] * 6), mat)
b = BODY(s, 'FINITE_ELEMENT', HEX([0, 0, 0, L, 0, 0, L, W, 0, 0, W, 0, 0, 0, H, L, 0, H, L, W, H, 0, W, H], nx, ny, nz, 1, [1] * 6), mat, form=form)
b.scheme = scheme
OUTPUT(s, 1.0)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 1000), steps * h)
if len(sys.argv) > 6 and sys.argv[6] == 'state':  # the end state, to compare runs' accuracy
    u, q = b.velo, b.conf
    print('fe_floor: max |u| %.10g, max |q| %.10g' % (max(abs(x) for x in u), max(abs(x) for x in q)))
    with open(sys.argv[7] if len(sys.argv) > 7 else 'fe_floor.state', 'w') as f:
        f.write(' '.join('%.17g' % x for x in list(u) + list(q)))
