# A stack of 10 unit-ish boxes (0.5 x 0.5 x 0.2 m) on the ground stands for 2 s: the top
# box moves less than 1 mm and ends (nearly) at rest. Face-to-face contact needs the
# four-point manifolds of the narrow phase; the Gauss-Seidel solver must converge on a
# column of 40 contact points.
n, a, b = 10, 0.5, 0.2
solfec = SOLFEC('DYNAMIC', 1e-3, 'out/box_stack')
solfec.verbose = 'OFF'
GRAVITY(solfec, (0, 0, -9.81))
SURFACE_MATERIAL(solfec, friction=0.5)
mat = BULK_MATERIAL(solfec, density=1000)
boxes = []
for k in range(n):
    z0, z1 = k * b, (k + 1) * b
    boxes.append(BODY(solfec, 'RIGID', HEX([0, 0, z0, a, 0, z0, a, a, z0, 0, a, z0, 0, 0, z1, a, 0, z1, a, a, z1, 0, a, z1], 1, 1, 1, 1, [1] * 6), mat, label='box%d' % k))
BODY(solfec, 'OBSTACLE', HEX([-1, -1, -0.5, 2, -1, -0.5, 2, 2, -0.5, -1, 2, -0.5, -1, -1, 0, 2, -1, 0, 2, 2, 0, -1, 2, 0], 1, 1, 1, 2, [2] * 6), mat, label='ground')
OUTPUT(solfec, 0.1)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-6, 1000), 2.0)
top = boxes[-1]
c = top.center
t, dx, dy, dz, vz = HISTORY(solfec, [(top, c, 'DX'), (top, c, 'DY'), (top, c, 'DZ'), (top, c, 'VZ')])
move = max((dx[i] ** 2 + dy[i] ** 2 + dz[i] ** 2) ** 0.5 for i in range(len(t)))
steps, contacts = HISTORY(solfec, [(solfec, 'CONTACTS')])
if RANK() == 0:
    print('box_stack: %d boxes, %d contact points, top box moved at most %.2e m (tolerance 1e-3), final |v_z| %.2e m/s' % (n, contacts[-1], move, abs(vz[-1])))
    print('PASSED' if move < 1e-3 and abs(vz[-1]) < 1e-3 and contacts[-1] == 4 * n else 'FAILED')
