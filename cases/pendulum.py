# Mathematical pendulum (VALIDATION.md; Solfec-1.0 validation manual): a point mass 1
# (sphere of radius 0.05, inertia identity) on a rigid link of length 1 to a fixed point,
# released horizontal under gravity pi^2; h = 1e-3 s, Gauss-Seidel epsilon = 1e-3.
# Reference period 4 sqrt(L/g) K(sin 45 deg) = 2.3607 s, tolerance 1 %; the total energy
# (kinetic - work of gravity, zero at the start) stays within 1 % of pi^2.
from math import pi

h = 1e-3
solfec = SOLFEC('DYNAMIC', h, 'out/pendulum')
solfec.verbose = 'OFF'
GRAVITY(solfec, (0, 0, -pi * pi))
mat = BULK_MATERIAL(solfec, density=1.0)
ball = BODY(solfec, 'RIGID', SPHERE((1, 0, 0), 0.05, 1, 1), mat, label='bob')
BODY_CHARS(ball, 1.0, 1.0, (1, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
PUT_RIGID_LINK(ball, None, (1, 0, 0), (0, 0, 0))
OUTPUT(solfec, 0.01)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-3, 1000), 5.0)

# the period from the upward crossings of x = 0 (linear interpolation between frames):
# the bob starts at x = 1 and crosses x = 0 downwards at T/4, upwards at 3T/4 and 7T/4
t, x = HISTORY(solfec, [(ball, (1, 0, 0), 'CX')])
cross = [t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i]) for i in range(len(t) - 1) if x[i] < 0 <= x[i + 1]]
period = cross[1] - cross[0] if len(cross) >= 2 else float('nan')
ref = 2.3607
kin, ext = HISTORY(solfec, [(solfec, 'KINETIC'), (solfec, 'EXTERNAL')])[1:]
drift = max(abs(k - w) for k, w in zip(kin, ext)) / (pi * pi)
if RANK() == 0:
    print('pendulum: period %.5f s, reference %.4f s, relative error %.2e (tolerance 1e-2)' % (period, ref, abs(period - ref) / ref))
    print('pendulum: max |kinetic - work of gravity| / pi^2 = %.2e (tolerance 1e-2)' % drift)
    print('PASSED' if abs(period - ref) / ref < 1e-2 and drift < 1e-2 else 'FAILED')
