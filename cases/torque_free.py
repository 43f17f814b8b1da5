# Torque-free rigid body (VALIDATION.md, seed 000): J = diag(1, 2, 3), mass 1,
# Ω0 = (0.1, 5, 0.1) rad/s near the unstable middle axis, no gravity, h = 1e-3 s, 20 s.
# Usage: moreau cases/torque_free.py [RIG_NEG|RIG_POS|RIG_IMP] [duration]
# Prints the relative kinetic energy drift and the largest relative error of the spatial
# angular momentum ΛJΩ. PASSED when, for RIG_NEG and RIG_IMP, the momentum is kept to
# 1e-12 (the manual: they conserve it exactly), and for RIG_POS when the energy never
# falls below its initial value by more than round-off level (1e-8 relative) and ends
# above it (its drift is upward).
import sys

scheme = sys.argv[1] if len(sys.argv) > 1 else 'RIG_NEG'
stop = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
step = 1e-3
J = (1, 0, 0, 0, 2, 0, 0, 0, 3)
W0 = (0.1, 5, 0.1)

solfec = SOLFEC('DYNAMIC', step, 'out/torque_free')
solfec.verbose = 'OFF'
material = BULK_MATERIAL(solfec)
bod = BODY(solfec, 'RIGID', SPHERE((0, 0, 0), 0.5, 1, 1), material, label='top')
BODY_CHARS(bod, 1.0, 1.0, (0, 0, 0), J)
bod.scheme = scheme
bod.velo = W0 + (0, 0, 0)  # referential angular, then spatial linear velocity


def momentum(conf, velo):
    """π = ΛJΩ; conf holds Λ column-wise."""
    JW = (velo[0] * J[0], velo[1] * J[4], velo[2] * J[8])
    return [sum(conf[3 * j + i] * JW[j] for j in range(3)) for i in range(3)]


pi0 = momentum(*BODY_STATE(bod))  # collective: every rank gets the owner's conf and velo
stats = {'err': 0.0, 'flips': 0, 'wy': W0[1]}


def monitor(body):
    conf, velo = BODY_STATE(body)  # on every rank (body.conf is None where it is not owned)
    pi = momentum(conf, velo)
    n0 = sum(x * x for x in pi0) ** 0.5
    stats['err'] = max(stats['err'], sum((a - b) ** 2 for a, b in zip(pi, pi0)) ** 0.5 / n0)
    if velo[1] * stats['wy'] < 0:
        stats['flips'] += 1
    stats['wy'] = velo[1]
    return 1


CALLBACK(solfec, step, bod, monitor)
OUTPUT(solfec, 0.1)
RUN(solfec, None, stop)
read = solfec.mode == 'READ'  # a second run where the results are: RUN did nothing, CALLBACK sampled nothing
if read:
    SEEK(solfec, DURATION(solfec)[1])  # the last stored frame, as Solfec-1.0's decks do
    if scheme in ('RIG_NEG', 'RIG_IMP'):
        if RANK() == 0:
            print('torque_free %s: READ mode: the check cannot be made from the stored results (the angular momentum is sampled every step by a CALLBACK; frames are every 0.1 s): run with -w to compute it' % scheme)
        sys.exit(0)

th = HISTORY(solfec, [(solfec, 'KINETIC')], 0, stop + step)
E0 = 0.5 * (J[0] * W0[0] ** 2 + J[4] * W0[1] ** 2 + J[8] * W0[2] ** 2)
drift = (th[1][-1] - E0) / E0
lowest = (min(th[1]) - E0) / E0
if RANK() == 0:  # every rank has the same statistics
    if read:  # the energy comes per step from /history; the momentum was sampled by the CALLBACK only
        print('torque_free %s: t = %g s, %d steps, energy drift %+.3e (lowest %+.3e); READ mode: the angular momentum error and Omega_y sign changes were sampled every step, not stored'
              % (scheme, solfec.time, len(th[0]), drift, lowest))
    else:
        print('torque_free %s: t = %g s, %d steps, energy drift %+.3e (lowest %+.3e), angular momentum error %.2e, Omega_y sign changes %d'
              % (scheme, solfec.time, len(th[0]), drift, lowest, stats['err'], stats['flips']))
    if scheme in ('RIG_NEG', 'RIG_IMP'):
        ok = stats['err'] < 1e-12
    else:
        ok = lowest > -1e-8 and drift > 0
    print('PASSED' if ok else 'FAILED')
