# A sphere on a 30 degree incline (a rigid-body textbook case). With friction 0.5 it rolls
# without slip: the centre accelerates at 5/7 g sin(theta) (solid sphere, J = 2/5 m r^2);
# with friction 0.1 < 2/7 tan(theta) it slips, and the centre accelerates at
# g (sin(theta) - mu cos(theta)). Distance along the slope after 1 s vs a t^2 / 2,
# tolerance 1 %. Pass the friction as the deck argument: moreau cases/incline.py 0.1
import sys
from math import sin, cos, radians, sqrt

mu = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
theta = radians(30.0)
g, r, T = 9.81, 0.1, 1.0
solfec = SOLFEC('DYNAMIC', 1e-3, 'out/incline')
solfec.verbose = 'OFF'
GRAVITY(solfec, (0, 0, -g))
SURFACE_MATERIAL(solfec, friction=mu, restitution=0.0)
mat = BULK_MATERIAL(solfec, density=1000)
# the incline: a slab whose top face passes through the origin, tilted about y by -30 deg
# so that the slope descends along +x
slab = HEX([-2, -1, -0.2, 4, -1, -0.2, 4, 1, -0.2, -2, 1, -0.2, -2, -1, 0, 4, -1, 0, 4, 1, 0, -2, 1, 0], 1, 1, 1, 1, [1] * 6)
ROTATE(slab, (0, 0, 0), (0, 1, 0), 30.0)
BODY(solfec, 'OBSTACLE', slab, mat, label='incline')
n = (sin(theta), 0, cos(theta))  # upward normal of the rotated top face
ball = BODY(solfec, 'RIGID', SPHERE((r * n[0], 0, r * n[2]), r, 2, 2), mat, label='ball')
OUTPUT(solfec, 0.05)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-8, 1000), T)

t, dx, dz = HISTORY(solfec, [(ball, (r * n[0], 0, r * n[2]), 'DX'), (ball, (r * n[0], 0, r * n[2]), 'DZ')])
s = sqrt(dx[-1] ** 2 + dz[-1] ** 2)
roll = mu >= 2.0 / 7.0 * sin(theta) / cos(theta)
a = 5.0 / 7.0 * g * sin(theta) if roll else g * (sin(theta) - mu * cos(theta))
ref = 0.5 * a * t[-1] ** 2
err = abs(s - ref) / ref
if RANK() == 0:
    print('incline: mu = %g (%s), distance %.6f m after %.3f s, reference %.6f m, relative error %.2e (tolerance 1e-2)'
          % (mu, 'rolls' if roll else 'slips', s, t[-1], ref, err))
    print('PASSED' if err < 1e-2 else 'FAILED')
