# Newton's cradle without strings: five equal steel balls in a row with 1 mm gaps, no
# gravity, restitution 1; the first moves at 1 m/s. Each impact is between two balls and
# exchanges their velocities (restitution as Solfec: U_N + e min(0, V_N) >= 0), so the
# last ball leaves with the momentum of the first and the others stop.
# Checked: last ball 1 m/s and the others < 1e-6 m/s, kinetic energy kept to 1e-9.
r, gap, v = 0.05, 1e-3, 1.0
solfec = SOLFEC('DYNAMIC', 1e-4, 'out/newton_cradle')
solfec.verbose = 'OFF'
SURFACE_MATERIAL(solfec, friction=0.0, restitution=1.0)
steel = BULK_MATERIAL(solfec, density=7800)
balls = [BODY(solfec, 'RIGID', SPHERE((i * (2 * r + gap), 0, 0), r, 1, 1), steel, label='ball%d' % i) for i in range(5)]
INITIAL_VELOCITY(balls[0], (v, 0, 0), (0, 0, 0))
OUTPUT(solfec, 0.01)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.05)
vx = [HISTORY(solfec, [(b, b.center, 'VX')])[1][-1] for b in balls]
k0 = 0.5 * balls[0].mass * v * v
kin = HISTORY(solfec, [(solfec, 'KINETIC')])[1]
if RANK() == 0:
    print('newton_cradle: final velocities %s m/s; kinetic energy %.12g J (start %.12g J)' % (' '.join('%.9f' % x for x in vx), kin[-1], k0))
    ok = abs(vx[-1] - v) < 1e-6 and all(abs(x) < 1e-6 for x in vx[:-1]) and abs(kin[-1] - k0) < 1e-9 * k0
    print('PASSED' if ok else 'FAILED')
