# A free FINITE_ELEMENT bar (20 HEX8, DEF_EXP, poisson 0) launched spinning at w about its
# centre with no strain: it vibrates axially about the stretched state of its relative
# equilibrium, so its length averaged over whole axial periods (2L/c each) is that state's.
# Derivation: in the rotating frame the axial stress balances the centrifugal load,
# d(sigma)/dx = -rho w^2 x, sigma(+-L/2) = 0, so sigma = rho w^2 (L^2/4 - x^2)/2 and the
# elongation is 2 int_0^{L/2} sigma/E dx = rho w^2 L^3 / (12 E) (small strain; here 3.3e-4).
# Tolerance 2 % (the mean over 8 periods of a discrete bar; measured 0.3 %).
import sys
from math import sqrt

L, a, E, rho, w, nx = 1.0, 0.1, 1e6, 1000.0, 2.0, 20
s = SOLFEC('DYNAMIC', 1.0, 'out/fe_spinning_bar')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=E, poisson=0.0, density=rho)
bar = BODY(s, 'FINITE_ELEMENT', HEX([-L / 2, -a / 2, -a / 2, L / 2, -a / 2, -a / 2, L / 2, a / 2, -a / 2, -L / 2, a / 2, -a / 2,
                                     -L / 2, -a / 2, a / 2, L / 2, -a / 2, a / 2, L / 2, a / 2, a / 2, -L / 2, a / 2, a / 2], nx, 1, 1, 1, [1] * 6), m, label='bar')
h = 0.5 * CRITICAL_STEP(s)
s.step = h
# HEX's nodes: i (along x) fastest, then j, then k
nodes = [(-L / 2 + L * i / nx, -a / 2 + a * j, -a / 2 + a * k) for k in range(2) for j in range(2) for i in range(nx + 1)]
if bar.velo is not None:
    bar.velo = [c for (x, y, z) in nodes for c in (-w * y, w * x, 0.0)]  # a rigid spin about z
ends = [k for k, p in enumerate(nodes) if p[0] == -L / 2], [k for k, p in enumerate(nodes) if p[0] == L / 2]
T = 8 * 2 * L / sqrt(E / rho)
n, every, total, count = int(T / h), 2, 0.0, 0
OUTPUT(s, T / 20)
for i in range(n // every):
    RUN(s, None, every * h)
    q = bar.conf
    if q is not None:
        p = [[sum(nodes[k][d] + q[3 * k + d] for k in e) / 4 for d in range(3)] for e in ends]
        total += sqrt(sum((p[1][d] - p[0][d]) ** 2 for d in range(3))) - L
        count += 1
if s.mode == 'READ':  # a second run where the results are: RUN did nothing
    if RANK() == 0:
        print('fe_spinning_bar: READ mode: the check cannot be made from the stored results (the length is averaged over every other step; frames are every T/20): run with -w to compute it')
    sys.exit(0)
if bar.conf is not None:
    mean, want = total / count, rho * w * w * L ** 3 / (12 * E)
    print('fe_spinning_bar: mean elongation %.6e over %d samples, rho w^2 L^3 / (12 E) = %.6e, ratio %.4f' % (mean, count, want, mean / want))
    print('PASSED' if abs(mean / want - 1) < 0.02 else 'FAILED')
