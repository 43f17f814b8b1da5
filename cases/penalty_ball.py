# PENALTY_SOLVER: a ball dropped on the ground with a spring-dashpot contact settles at the
# static compression m g / k (tolerance 1 %). Ball r = 0.1 m, density 1000, k = 1e5 N/m,
# dashpot for damping ratio 0.5; h = 1e-4 s, well below the critical 2 sqrt(m / k).
from math import sqrt, pi

r, rho, k, g = 0.1, 1000.0, 1e5, 9.81
m = rho * 4.0 / 3.0 * pi * r ** 3
solfec = SOLFEC('DYNAMIC', 1e-4, 'out/penalty_ball')
solfec.verbose = 'OFF'
GRAVITY(solfec, (0, 0, -g))
SURFACE_MATERIAL(solfec, model='SPRING_DASHPOT', friction=0.3, spring=k, dashpot=2 * 0.5 * sqrt(k * m))
mat = BULK_MATERIAL(solfec, density=rho)
ball = BODY(solfec, 'RIGID', SPHERE((0, 0, r + 0.05), r, 1, 1), mat, label='ball')
BODY(solfec, 'OBSTACLE', HEX([-1, -1, -0.2, 1, -1, -0.2, 1, 1, -0.2, -1, 1, -0.2, -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0], 1, 1, 1, 2, [2] * 6), mat)
OUTPUT(solfec, 0.05)
RUN(solfec, PENALTY_SOLVER(), 1.0)
t, z = HISTORY(solfec, [(ball, (0, 0, r + 0.05), 'CZ')])
delta, ref = r - z[-1], m * g / k
err = abs(delta - ref) / ref
if RANK() == 0:
    print('penalty_ball: compression %.6e m, m g / k = %.6e m, relative error %.2e (tolerance 1e-2)' % (delta, ref, err))
    print('PASSED' if err < 1e-2 else 'FAILED')
