# Two identical FINITE_ELEMENT bars (20 HEX8 each, DEF_EXP) in longitudinal impact (the
# finite-element contact of Cirak and West 2005, their bar test): the contact lasts 2L/c
# (c = sqrt(E/rho), poisson 0) and the velocities swap: the struck bar leaves with v, the
# striker stops. Momentum is kept (frictionless contact between free bodies). Tolerances:
# duration 5 % (a step is 1 %), the speeds 5 % of v (the discrete bars keep some energy in
# vibration: 2 % measured), momentum 1e-9 relative.
from math import sqrt

L, a, E, rho, v, nx = 1.0, 0.1, 1e6, 1000.0, 0.1, 20
c = sqrt(E / rho)
s = SOLFEC('DYNAMIC', 1.0, 'out/fe_bars_impact')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=E, poisson=0.0, density=rho)
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.0)
g = 0.001  # the gap: contact starts at g / v
b1 = BODY(s, 'FINITE_ELEMENT', HEX([-L, 0, 0, 0, 0, 0, 0, a, 0, -L, a, 0, -L, 0, a, 0, 0, a, 0, a, a, -L, a, a], nx, 1, 1, 1, [1] * 6), m, label='striker')
b2 = BODY(s, 'FINITE_ELEMENT', HEX([g, 0, 0, g + L, 0, 0, g + L, a, 0, g, a, 0, g, 0, a, g + L, 0, a, g + L, a, a, g, a, a], nx, 1, 1, 1, [1] * 6), m, label='struck')
h = 0.5 * CRITICAL_STEP(s)
s.step = h
if b1.velo is not None:
    b1.velo = [v, 0, 0] * (len(b1.velo) // 3)
OUTPUT(s, h)
T = g / v + 2 * L / c + 0.02
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), T)


def centre_velocity(b, x0):
    # HISTORY's point items are material points, interpolated in their element; a bar's
    # mass-centre velocity is the mean over its element centres (equal elements, lumped masses)
    h = HISTORY(s, [(b, (x0 + (i + 0.5) * L / nx, a / 2, a / 2), 'VX') for i in range(nx)], 0, T)
    return h[0], [sum(h[1 + i][k] for i in range(nx)) / nx for k in range(len(h[0]))]


t, v1 = centre_velocity(b1, -L)
t, v2 = centre_velocity(b2, g)
moving = [k for k in range(1, len(t)) if abs(v2[k] - v2[k - 1]) > 1e-9]
dur = t[moving[-1]] - t[moving[0] - 1]
mom = abs(v1[-1] + v2[-1] - v) / v
ok = abs(dur - 2 * L / c) < 0.05 * 2 * L / c and abs(v2[-1] - v) < 0.05 * v and abs(v1[-1]) < 0.05 * v and mom < 1e-9
if RANK() == 0:
    print('fe_bars_impact: contact %.5f s (2L/c %.5f); after: striker %.5f, struck %.5f (before %.5f, 0); momentum change %.2e' % (dur, 2 * L / c, v1[-1], v2[-1], v, mom))
    print('PASSED' if ok else 'FAILED')
