# A FINITE_ELEMENT bar (10 HEX8, L = 1, A = 0.1 x 0.1, E = 1e6, poisson 0) held at x = 0 by
# FIX_POINT at its four corners and pulled at x = L by four point FORCEs of F/4, brought to
# rest by damping under DEF_LIM: elongation F L / (E A) (tolerance 1 %; Saint
# Venant-Kirchhoff is softer by about 1.5 times the strain, 1e-3 here); HISTORY's point
# items read the same from the frames (below).
L, a, E, F = 1.0, 0.1, 1e6, 10.0
import sys

form = sys.argv[1] if len(sys.argv) > 1 else 'TL'  # FINITE_ELEMENT form: 'TL' or 'BC'
s = SOLFEC('DYNAMIC', 2e-3, 'out/fe_bar_pull')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=E, poisson=0.0, density=1000)
bar = BODY(s, 'FINITE_ELEMENT', HEX([0, 0, 0, L, 0, 0, L, a, 0, 0, a, 0, 0, 0, a, L, 0, a, L, a, a, 0, a, a], 10, 1, 1, 1, [1] * 6), m, label='bar', form=form)
bar.scheme = 'DEF_LIM'
bar.damping = 2e-3
for y in (0, a):
    for z in (0, a):
        FIX_POINT(bar, (0, y, z))
        FORCE(bar, 'SPATIAL', (L, y, z), (1, 0, 0), F / 4)
OUTPUT(s, 0.1)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 2.0)
# READ mode (a second run where the results are: RUN did nothing): check the last stored frame, as Solfec-1.0's decks do
if s.mode == 'READ':
    SEEK(s, DURATION(s)[1])
# HISTORY at material points, read back from the frames on every rank: the tip face's centre
# (interpolated in its element) moves by the elongation; inside, the Cauchy stress is F/A
# (Poisson 0 keeps the area; the stress is taken at the point) and von Mises is its size.
t, dx, sx, sy, mises = HISTORY(s, [(bar, (L, a / 2, a / 2), 'DX'), (bar, (0.55, 0.03, 0.07), 'SX'), (bar, (0.55, 0.03, 0.07), 'SY'), (bar, (0.55, 0.03, 0.07), 'MISES')])
sa = F / (a * a)
hist = abs(sx[-1] - sa) < 1e-2 * sa and abs(mises[-1] - sa) < 1e-2 * sa and abs(sy[-1]) < 1e-6 * sa and len(t) == 21 and abs(t[-1] - 2.0) < 1e-9
if RANK() == 0:
    print('fe_bar_pull: HISTORY at %d frames: tip DX %.6e, SX %.6g, SY %.2g, MISES %.6g; F/A = %.6g' % (len(t), dx[-1], sx[-1], sy[-1], mises[-1], sa))
if bar.conf is not None:
    q = bar.conf
    tip = sum(q[3 * n] for n in range(len(q) // 3) if n % 11 == 10) / 4  # the four nodes at x = L
    want = F * L / (E * a * a)
    print('fe_bar_pull (form %s): elongation %.6e, F L / (E A) = %.6e, relative error %.2e' % (form, tip, want, abs(tip - want) / want))
    print('fe_bar_pull: HISTORY DX at the tip face centre against the nodes: %.2e' % abs(dx[-1] - tip))
    print('PASSED' if abs(tip - want) < 1e-2 * want and hist and abs(dx[-1] - tip) < 1e-12 else 'FAILED')
