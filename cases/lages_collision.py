# Elastic collision of a particle (seed 004, section 4.2; ../shared/VALIDATION.md): a sphere
# of mass 1 falls from rest from h0 = 1.25 m onto a fixed sphere, g = 10, linear penalty
# contact k = 1e10 N/m without damping (SURFACE_MATERIAL model 'SPRING_DASHPOT' and
# PENALTY_SOLVER), so Δt_crit = 2/√(k/m) = 2e-5 s. The exact height h(t) is eq. (20):
# free fall to t_q = 0.5 s, a harmonic contact phase of ω = 1e5 rad/s, rebound to h0;
# period t_f = 2 t_q + t_cont ≈ 1.0000314 s.
#
#   moreau cases/lages_collision.py [MODE [SCHEME [PERIODS [OUT]]]]
#   MODE: fixed (Δt = 0.1 Δt_crit), curvature (b = 0.444, ζ = 10, Δt_max = 0.85 Δt_crit,
#         Δt_min = Δt_crit/100, with rejection), curvature-norej (the same without),
#         local_error (Zienkiewicz–Xie, η̄ = LOCAL_TOL below, a step with η > η̄ is redone),
#         local_error-norej (the same, steps never redone), fixed-max (Δt = 0.85 Δt_crit)
#   SCHEME: CDM (default), EGALPHA, CHUNG_LEE, or RIG_NEG (leap-frog, the same as CDM here)
#   PERIODS: simulated periods (default 5)
#   OUT: a text file to get the error history (t, relative error) sampled every 1e-3 s
#
# The relative error is |h − h_exact| / h0 of the gap h between the spheres, sampled by a
# CALLBACK every 1e-3 s of simulated time (at the first step past each sample time, the
# exact solution taken at that step's time). Prints the largest error, the steps kept and
# the steps discarded by rejections; with a reference error (env LAGES_REF_ERROR) and
# step count (env LAGES_REF_STEPS) it also prints the ratios.
import sys
from math import sqrt, pi, atan, fmod, sin, cos

mode = sys.argv[1] if len(sys.argv) > 1 else 'curvature'
scheme = sys.argv[2] if len(sys.argv) > 2 else 'CDM'
periods = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
outfile = sys.argv[4] if len(sys.argv) > 4 else None

g, h0, k, m = 10.0, 1.25, 1e10, 1.0
dtcrit = 2.0 / sqrt(k / m)
LOCAL_TOL = 1e-8
r, R = 0.05, 0.5  # ball and fixed sphere radii (the gap is what matters)
omega = sqrt(k / m)
v0 = sqrt(2 * g * h0)
tq = sqrt(2 * h0 / g)
tcont = (2 * pi - 2 * atan(v0 * omega / g)) / omega  # first positive root of eq. (20), branch 2
tf = 2 * tq + tcont


def exact(t):
    """eq. (20), repeated with period t_f"""
    s = fmod(t, tf)
    if s <= tq:
        return h0 - 0.5 * g * s * s
    if s <= tq + tcont:
        tc = s - tq
        return (m * g / k) * (cos(tc * omega) - 1.0) - sqrt(2 * m * g * h0 / k) * sin(tc * omega)
    tr = s - tq - tcont
    return tr * v0 - 0.5 * g * tr * tr


h = {'fixed': 0.1 * dtcrit, 'fixed-max': 0.85 * dtcrit}.get(mode, 0.85 * dtcrit)
solfec = SOLFEC('DYNAMIC', h, 'out/lages_collision')
solfec.verbose = 'OFF'
GRAVITY(solfec, (0, 0, -g))
SURFACE_MATERIAL(solfec, model='SPRING_DASHPOT', friction=0.0, spring=k, dashpot=0.0)
rho = m / (4.0 / 3.0 * pi * r ** 3)
mat = BULK_MATERIAL(solfec, density=rho)
ball = BODY(solfec, 'RIGID', SPHERE((0, 0, R + r + h0), r, 1, 1), mat, label='ball')
ball.scheme = scheme
BODY(solfec, 'OBSTACLE', SPHERE((0, 0, 0), R, 2, 2), mat, label='ground')
if mode.startswith('curvature'):
    TIME_ADAPT(solfec, 'CURVATURE', dtmin=dtcrit / 100, dtmax=0.85 * dtcrit, b=0.444, zeta=10.0,
               reject='OFF' if mode == 'curvature-norej' else 'ON')
elif mode.startswith('local_error'):
    TIME_ADAPT(solfec, 'LOCAL_ERROR', dtmin=dtcrit / 100, dtmax=0.85 * dtcrit, tol=LOCAL_TOL,
               reject='OFF' if mode == 'local_error-norej' else 'ON')
elif mode in ('fixed', 'fixed-max'):
    TIME_ADAPT(solfec, 'FIXED')  # the curvature still goes to /history
else:
    raise ValueError('lages_collision: unknown mode %r' % mode)

err = [0.0]
hist = []


def sample():
    if HERE(solfec, ball):
        t = solfec.time
        z = ball.conf[11] - (R + r)
        e = abs(z - exact(t)) / h0
        err[0] = max(err[0], e)
        hist.append((t, e))
    return None


OUTPUT(solfec, 0.05)
CALLBACK(solfec, 1e-3, None, lambda d: sample())
RUN(solfec, PENALTY_SOLVER(), periods * tf)
if solfec.mode == 'READ':  # a second run where the results are: RUN did nothing, CALLBACK sampled nothing
    if RANK() == 0:
        print('lages_collision: READ mode: the measurement cannot be made from the stored results (the height error is sampled every 1e-3 s by a CALLBACK; frames are every 0.05 s): run with -w to compute it')
    sys.exit(0)
steps_kept = solfec.steps
_, rejected = HISTORY(solfec, 'REJECTED')
discarded = int(rejected[-1]) if rejected else 0
if HERE(solfec, ball):
    print('lages_collision: mode %s scheme %s periods %g: max relative error %.4e, steps %d kept + %d discarded = %d'
          % (mode, scheme, periods, err[0], steps_kept, discarded, steps_kept + discarded))
    if outfile:
        with open(outfile, 'w') as f:
            for te in hist:
                f.write('%.9e %.6e\n' % te)
