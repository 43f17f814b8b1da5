# A FINITE_ELEMENT bar (20 HEX8, DEF_EXP) hits a rigid wall end-on: the 1-D elastic impact
# of a bar of length L, wave speed c = sqrt(E/rho) (poisson 0): the contact lasts 2L/c, the
# bar leaves with the speed v it came with, and the mean contact force is rho c A v
# (momentum 2 rho A L v over 2L/c). The discrete bar keeps some energy in vibration, so the
# exit speed is a few per cent low (4.0 % at 20 elements, measured); tolerances: duration
# 5 % (a step is 1 % of it), exit speed and mean force 6 %.
import sys
from math import sqrt

form = sys.argv[1] if len(sys.argv) > 1 else 'TL'  # FINITE_ELEMENT form: 'TL' or 'BC'

L, a, E, rho, v, nx = 1.0, 0.1, 1e6, 1000.0, 0.1, 20
c = sqrt(E / rho)
s = SOLFEC('DYNAMIC', 1.0, 'out/fe_bar_wall')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=E, poisson=0.0, density=rho)
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.0)
BODY(s, 'OBSTACLE', HEX([-1, -1, -1, 0, -1, -1, 0, 1, -1, -1, 1, -1, -1, -1, 1, 0, -1, 1, 0, 1, 1, -1, 1, 1], 1, 1, 1, 2, [2] * 6), m)
g = 0.001  # the gap: contact starts at g / v
bar = BODY(s, 'FINITE_ELEMENT', HEX([g, 0, 0, g + L, 0, 0, g + L, a, 0, g, a, 0, g, 0, a, g + L, 0, a, g + L, a, a, g, a, a], nx, 1, 1, 1, [1] * 6), m, label='bar', form=form)
h = 0.5 * CRITICAL_STEP(s)
s.step = h
if bar.velo is not None:
    bar.velo = [-v, 0, 0] * (len(bar.velo) // 3)
OUTPUT(s, h)
T = g / v + 2 * L / c + 0.02
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), T)
# the mass centre's velocity: HISTORY's point items are material points, interpolated in
# their element, so the mean over the element centres (equal elements, lumped masses)
hv = HISTORY(s, [(bar, (g + (i + 0.5) * L / nx, a / 2, a / 2), 'VX') for i in range(nx)], 0, T)
t, vx = hv[0], [sum(hv[1 + i][k] for i in range(nx)) / nx for k in range(len(hv[0]))]
moving = [k for k in range(1, len(t)) if abs(vx[k] - vx[k - 1]) > 1e-9]
t0, t1 = t[moving[0] - 1], t[moving[-1]]
dur, out = t1 - t0, vx[-1]
force = rho * a * a * L * (out + v) / dur
ok = abs(dur - 2 * L / c) < 0.05 * 2 * L / c and abs(out - v) < 0.06 * v and abs(force - rho * c * a * a * v) < 0.06 * rho * c * a * a * v
if RANK() == 0:
    print('fe_bar_wall (form %s): contact %.5f s (2L/c %.5f), exit speed %.5f (in %.5f), mean force %.3f N (rho c A v %.3f)' % (form, dur, 2 * L / c, out, v, force, rho * c * a * a * v))
    print('PASSED' if ok else 'FAILED')
