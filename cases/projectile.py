# Projectile with linear drag (VALIDATION.md; Solfec-1.0 validation manual).
# A sphere of mass 0.45359237 kg (1 lb) with identity inertia, thrown with
# v0 = (2.54, 0, 12.7) m/s (100 and 500 in/s) under gravity 9.81456 m/s^2 and a spatial
# drag force -m v applied through a FORCE callback. With k = 1/s the x coordinate is
# x(t) = 2.54 (1 - exp(-t)); at t = 1.976 s, x = 2.18791 m (86.138 in). Tolerance 0.5 %.
# x is read back from the output file with HISTORY, so the check is the same on any
# number of ranks. Run: mpirun -np 3 moreau cases/projectile.py
from math import exp

mass = 0.45359237
c = (0, 0, 0)
J = (1, 0, 0, 0, 1, 0, 0, 0, 1)
v0 = (2.54, 0, 12.7)
stop = 1.976
step = stop / 1024.0


def drag(m, q, u, t, h):
    """Solfec's callback: (spatial force, spatial torque, referential torque)."""
    return (-m * u[3], -m * u[4], -m * u[5], 0, 0, 0, 0, 0, 0)


solfec = SOLFEC('DYNAMIC', step, 'out/projectile')
solfec.verbose = 'OFF'
material = BULK_MATERIAL(solfec)
GRAVITY(solfec, (0, 0, -9.81456))
bod = BODY(solfec, 'RIGID', SPHERE(c, 1, 0, 0), material, label='projectile')
BODY_CHARS(bod, mass, 1, c, J)
FORCE(bod, 'SPATIAL', (0, 0, 0), (0, 0, 0), drag, mass)
INITIAL_VELOCITY(bod, v0, (0, 0, 0))
RUN(solfec, PENALTY_SOLVER(), stop)

th = HISTORY(solfec, [(bod, c, 'CX'), (bod, c, 'CZ')], stop - 0.5 * step, stop + 0.5 * step)
t, x = th[0][-1], th[1][-1]
exact = 2.54 * (1 - exp(-stop))
error = abs(x - exact) / exact
if RANK() == 0:
    print('projectile: t = %.6f s, x = %.6f m (%.3f in), reference %.6f m (86.138 in), relative error %.2e (tolerance 5e-3)'
          % (t, x, x / 0.0254, exact, error))
    print('PASSED' if error < 5e-3 and abs(t - stop) < 1e-9 else 'FAILED')
