# A box thrown with spin under gravity. The box (1 x 0.5 x 0.25 m, density 1000) is turned
# by ROTATE so that its principal axes are not the coordinate axes, and spun about its
# long axis, so the rotation is steady and every scheme keeps its energy; under constant
# gravity the discrete energy identity makes kinetic energy minus external work constant,
# and the mass centre follows x0 + v0 t + g t^2 / 2 exactly. Both are checked to 1e-9
# (relative) from the output file (HISTORY), so the check holds on any number of ranks.
from math import sqrt

step, stop = 1e-3, 3.0
g = (0, 0, -9.81)
v0 = (2.0, 1.0, 10.0)
solfec = SOLFEC('DYNAMIC', step, 'out/tumbling_box')
solfec.verbose = 'OFF'
material = BULK_MATERIAL(solfec, young=1e9, poisson=0.25, density=1000)
GRAVITY(solfec, g)
nodes = [0, 0, 0, 1, 0, 0, 1, 0.5, 0, 0, 0.5, 0, 0, 0, 0.25, 1, 0, 0.25, 1, 0.5, 0.25, 0, 0.5, 0.25]
shape = HEX(nodes, 2, 1, 1, 1, [1, 2, 3, 4, 5, 6])
ROTATE(shape, (0.5, 0.25, 0.125), (1, 1, 1), 30)
box = BODY(solfec, 'RIGID', shape, material, label='box')
axis = ROTATE((1, 0, 0), (0, 0, 0), (1, 1, 1), 30)  # the long axis after the rotation
INITIAL_VELOCITY(box, v0, tuple(20 * a for a in axis))
x0 = box.center
OUTPUT(solfec, 0.1)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-6, 100), stop)
# READ mode (a second run where the results are: RUN did nothing): check the last stored frame, as Solfec-1.0's decks do
if solfec.mode == 'READ':
    SEEK(solfec, DURATION(solfec)[1])

th = HISTORY(solfec, [(solfec, 'KINETIC'), (solfec, 'EXTERNAL')], 0, stop + step)
total = [k - w for k, w in zip(th[1], th[2])]
E0 = th[1][0] - th[2][0]
energy_err = max(abs(e - E0) for e in total) / E0
tc = HISTORY(solfec, [(box, x0, 'CX'), (box, x0, 'CY'), (box, x0, 'CZ')], 0, stop + step)
path_err = 0.0
for k, t in enumerate(tc[0]):
    exact = [x0[d] + v0[d] * t + 0.5 * g[d] * t * t for d in range(3)]
    got = [tc[1 + d][k] for d in range(3)]
    path_err = max(path_err, sqrt(sum((a - b) ** 2 for a, b in zip(exact, got))) / (1 + sqrt(sum(x * x for x in exact))))
if RANK() == 0:
    print('tumbling_box: %d steps to t = %g s, mass %.6g kg, max |(kinetic - external work) - E0| / E0 = %.2e, '
          'mass centre path error %.2e over %d frames' % (len(th[0]), solfec.time, box.mass, energy_err, path_err, len(tc[0])))
    print('PASSED' if energy_err < 1e-9 and path_err < 1e-9 and len(tc[0]) == 31 else 'FAILED')
