# Four-wheel dolly (seed 004, section 4.1, after Underwood and Park 1980; numbers from
# ../shared/VALIDATION.md with its erratum on the inertias): 7 degrees of freedom, built from
# moreau bodies —
#   4 wheels: point-like rigid bodies (small spheres) of mass m = 8.7563 kg; they move only
#     vertically because every force on them is vertical and acts at their centre;
#   the platform: a rigid body of mass M = 525.3804 kg with pitch and roll inertia
#     I = 6.7791 kg m² (60 lb in s²; the paper's 10507.608 is the erratum), yaw 2I;
#   suspension: linear spring k = 87563.43 N/m and dashpot c = 700.51 N s/m between each
#     platform corner and its wheel (PUT_SPRING, vertical direction);
#   ground: a unilateral spring K = 175126.85 N/m under each wheel, eq. (13) (PUT_SPRING with
#     active=(-1e99, 0), moreau's keyword: it pushes, never pulls);
#   dead load W = 5151.04 N on the platform (no gravity: the paper's load is W alone), the
#     pulse f1 of eq. (11) (f_max = 2224.11 N, t̄ = 0.025 s) upward on wheel 1;
#   start at rest in the static state (16): wheels at −W/(4K), platform at −W/(4 kK/(k+K)).
# Corners at (±L, ±L), L = 0.6096 m: wheel 1 (L, −L), 2 (−L, −L), 3 (L, L), 4 (−L, L), which
# gives the paper's K and C matrices (14), (15) with x6 = −pitch, x7 = roll (wheels 1 and 4
# on a diagonal).
#
#   moreau cases/lages_dolly.py [MODE [SCHEME [T [OUT]]]]
#   MODE: fixed-min (Δt = Δt_min = 2.9412e-5 s), fixed-max (Δt = Δt_max = 0.0025 s),
#         curvature (b = 0.005, ζ = 1, Δt_max = 0.0025 s, Δt_min = 2.9412e-5 s; no rejection,
#         as the paper's dolly run), curvature-rej (the same with rejection), local_error
#         (Zienkiewicz–Xie, η̄ = LOCAL_TOL), apparent_frequency (Park–Underwood, ratio RATIO),
#         truncation (seed 002, local truncation error TRUNC_TOL),
#         fixed=H (any fixed step H)
#   SCHEME: CDM (default), EGALPHA, CHUNG_LEE
#   T: simulated time (default 0.2 s)
#   OUT: text file for t, d1..d4, d5 (wheel and platform heaves) after every step
# Prints the lift-off and landing times of wheels 1 and 4 (where the wheel's heave crosses 0,
# interpolated between steps), the steps kept and discarded.
import sys
from math import sqrt

mode = sys.argv[1] if len(sys.argv) > 1 else 'curvature'
scheme = sys.argv[2] if len(sys.argv) > 2 else 'CDM'
T = float(sys.argv[3]) if len(sys.argv) > 3 else 0.2
outfile = sys.argv[4] if len(sys.argv) > 4 else None

m, M, I = 8.7563, 525.3804, 6.7791
k, c, K = 87563.43, 700.51, 175126.85
L, W, fmax, tbar = 0.6096, 5151.04, 2224.11, 0.025
dtmin, dtmax = 2.9412e-5, 0.0025
LOCAL_TOL, RATIO, TRUNC_TOL = 1e-3, 0.1, 1e-6
d_wheel = -W / (4 * K)                     # eq. (16)
d_plat = -W / (4 * (k * K / (k + K)))
ZP = 0.5                                   # platform centre height when the springs are unloaded
corners = [(L, -L), (-L, -L), (L, L), (-L, L)]

h = dtmin
if mode == 'fixed-max':
    h = dtmax
elif mode.startswith('fixed='):
    h = float(mode[6:])
solfec = SOLFEC('DYNAMIC', h, 'out/lages_dolly')
solfec.verbose = 'OFF'
mat = BULK_MATERIAL(solfec, density=1000)
box = HEX([-L, -L, ZP - 0.05, L, -L, ZP - 0.05, L, L, ZP - 0.05, -L, L, ZP - 0.05,
           -L, -L, ZP + 0.05, L, -L, ZP + 0.05, L, L, ZP + 0.05, -L, L, ZP + 0.05], 1, 1, 1, 1, [1] * 6)
TRANSLATE(box, (0, 0, d_plat))
platform = BODY(solfec, 'RIGID', box, mat, label='platform')
BODY_CHARS(platform, M, 1.0, (0, 0, ZP + d_plat), [I, 0, 0, 0, I, 0, 0, 0, 2 * I])
wheels = []
for i, (x, y) in enumerate(corners):
    w = BODY(solfec, 'RIGID', SPHERE((x, y, d_wheel), 0.05, 2, 2), mat, label='wheel%d' % (i + 1))
    BODY_CHARS(w, m, 1.0, (x, y, d_wheel), [1e-3, 0, 0, 0, 1e-3, 0, 0, 0, 1e-3])
    wheels.append(w)
for b in [platform] + wheels:
    b.scheme = scheme
for (x, y), w in zip(corners, wheels):
    # suspension: stroke = (z_corner − z_wheel) − ZP, so k·stroke carries W/4 in the static state
    PUT_SPRING(platform, (x, y, ZP + d_plat), w, (x, y, d_wheel), spring=k, dashpot=c, direction=(0, 0, 1), rest=ZP)
    # ground, eq. (13): stroke = z_wheel, the force −K·stroke acts only while stroke <= 0
    PUT_SPRING(w, (x, y, d_wheel), None, (x, y, 0.0), spring=K, active=(-1e99, 0.0), direction=(0, 0, 1), rest=0.0)
FORCE(platform, 'SPATIAL', (0, 0, ZP + d_plat), (0, 0, -1), W)
pulse = TIME_SERIES([0.0, 0.0, tbar, fmax, 2 * tbar, 0.0, 1e3, 0.0])  # eq. (11)
FORCE(wheels[0], 'SPATIAL', (corners[0][0], corners[0][1], d_wheel), (0, 0, 1), pulse)

if mode == 'curvature' or mode == 'curvature-rej':
    TIME_ADAPT(solfec, 'CURVATURE', dtmin=dtmin, dtmax=dtmax, b=0.005, zeta=1.0,
               reject='ON' if mode == 'curvature-rej' else 'OFF')
elif mode == 'local_error':
    TIME_ADAPT(solfec, 'LOCAL_ERROR', dtmin=dtmin, dtmax=dtmax, tol=LOCAL_TOL)
elif mode == 'apparent_frequency':
    TIME_ADAPT(solfec, 'APPARENT_FREQUENCY', dtmin=dtmin, dtmax=dtmax, ratio=RATIO)
elif mode == 'truncation':
    TIME_ADAPT(solfec, 'TRUNCATION', dtmin=dtmin, dtmax=dtmax, tol=TRUNC_TOL)
elif mode.startswith('fixed'):
    TIME_ADAPT(solfec, 'FIXED')  # the curvature still goes to /history
else:
    raise ValueError('lages_dolly: unknown mode %r' % mode)

rows = []


def sample():
    # every rank calls this; a wheel's heave is known on its owner only, so gather by HERE
    r = [solfec.time]
    for b in wheels + [platform]:
        r.append(b.conf[11] - ((ZP if b is platform else 0.0)) if HERE(solfec, b) else None)
    rows.append(r)
    return None


OUTPUT(solfec, 0.01)
CALLBACK(solfec, 1e-9, None, lambda dd: sample())  # every step
RUN(solfec, PENALTY_SOLVER(), T)
if solfec.mode == 'READ':  # a second run where the results are: RUN did nothing, CALLBACK sampled nothing
    if RANK() == 0:
        print('lages_dolly: READ mode: the measurement cannot be made from the stored results (the wheels are sampled every step by a CALLBACK; frames are every 0.01 s): run with -w to compute it')
    sys.exit(0)
_, rejected = HISTORY(solfec, 'REJECTED')
discarded = int(rejected[-1]) if rejected else 0


def crossings(col):
    """times where the heave of column col crosses 0 (up: lift-off, down: landing)"""
    up, down = [], []
    for a, b in zip(rows, rows[1:]):
        if a[col] is None or b[col] is None:
            return None
        if (a[col] <= 0.0) != (b[col] <= 0.0):
            tc = a[0] + (b[0] - a[0]) * (0.0 - a[col]) / (b[col] - a[col])
            (up if b[col] > 0 else down).append(tc)
    return up, down


w1, w4 = crossings(1), crossings(4)
if w1 is not None and w4 is not None:
    def first(x):
        return x[0] if x else float('nan')
    print('lages_dolly: mode %s scheme %s: wheel 1 lift-off %.5f landing %.5f, wheel 4 lift-off %.5f landing %.5f; steps %d kept + %d discarded = %d'
          % (mode, scheme, first(w1[0]), first(w1[1]), first(w4[0]), first(w4[1]), solfec.steps, discarded, solfec.steps + discarded))
if outfile and all(v is not None for v in rows[0]):
    with open(outfile, 'w') as f:
        for r in rows:
            f.write(' '.join('%.10e' % v for v in r) + '\n')
