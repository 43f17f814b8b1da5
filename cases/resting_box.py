# A box resting on a plane stays put: after the first step (which settles the contact),
# its centre drifts less than 1e-6 m over 1000 steps, and no energy appears.
h = 1e-3
solfec = SOLFEC('DYNAMIC', h, 'out/resting_box')
solfec.verbose = 'OFF'
GRAVITY(solfec, (0, 0, -9.81))
SURFACE_MATERIAL(solfec, friction=0.5)
mat = BULK_MATERIAL(solfec, density=2000)
box = BODY(solfec, 'RIGID', HEX([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0.5, 1, 0, 0.5, 1, 1, 0.5, 0, 1, 0.5], 1, 1, 1, 1, [1] * 6), mat, label='box')
BODY(solfec, 'OBSTACLE', HEX([-2, -2, -0.5, 3, -2, -0.5, 3, 3, -0.5, -2, 3, -0.5, -2, -2, 0, 3, -2, 0, 3, 3, 0, -2, 3, 0], 1, 1, 1, 2, [2] * 6), mat, label='floor')
OUTPUT(solfec, h)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-8, 1000), 1001 * h)
c = box.center
t, dx, dy, dz = HISTORY(solfec, [(box, c, 'DX'), (box, c, 'DY'), (box, c, 'DZ')])
drift = max(((dx[i] - dx[1]) ** 2 + (dy[i] - dy[1]) ** 2 + (dz[i] - dz[1]) ** 2) ** 0.5 for i in range(1, len(t)))
steps, contacts = HISTORY(solfec, [(solfec, 'CONTACTS')])
if RANK() == 0:
    print('resting_box: %d steps, %d contact points, settling %.2e m, drift after it %.2e m (tolerance 1e-6)' % (len(steps), contacts[-1], abs(dz[1]), drift))
    print('PASSED' if drift < 1e-6 and contacts[-1] == 4 else 'FAILED')
