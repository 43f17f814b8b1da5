"""acc_sweep: a shaking-table signal whose acceleration is a constant-magnitude sine sweep, for
decks written for Solfec-1.0's scripts/acc_sweep.py (examples/parallel-scaling/array-of-cubes.py
drives its walls with the velocity).

    (vt, vd, vv, va) = acc_sweep(rest, step, stop, lofq, hifq, amag)

moreau's own implementation of what Solfec's returns: four lists of one length, the times vt
(0, step, 2 step, ...) and the displacement, velocity and acceleration at them; at rest for the
first `rest` seconds, then about `stop` seconds of motion whose acceleration is

    a(t) = amag sin(2 pi (lofq + (hifq - lofq) t / stop) t)

(Solfec's sweep formula, t from the start of the motion) and whose velocity and displacement
oscillate about zero: integrated from rest, a sine's velocity has a mean offset and its
displacement a drift; the signal starts where the velocity first crosses the centre of its
oscillation and the remaining drift of the displacement is taken off the velocity.
"""

import math as _math
import numbers as _numbers

__all__ = ['acc_sweep']


def _real(name, x, positive=False, nonneg=False):
    if not isinstance(x, _numbers.Real) or isinstance(x, bool) or not _math.isfinite(x):
        raise TypeError('acc_sweep: %s must be a finite number, got %r' % (name, x))
    if positive and not x > 0:
        raise ValueError('acc_sweep: %s must be > 0, got %r' % (name, x))
    if nonneg and x < 0:
        raise ValueError('acc_sweep: %s must be >= 0, got %r' % (name, x))
    return float(x)


def _centre(v):
    """The centre of the oscillation of v at its end: halfway between the means of its last
    (up to) five maxima and five minima; the mean of v when it has none of one kind."""
    hi, lo = [], []
    for k in range(len(v) - 2, 0, -1):
        if len(hi) < 5 and v[k - 1] < v[k] >= v[k + 1]:
            hi.append(v[k])
        elif len(lo) < 5 and v[k - 1] > v[k] <= v[k + 1]:
            lo.append(v[k])
        if len(hi) == 5 and len(lo) == 5:
            break
    if not hi or not lo:
        return sum(v) / len(v)
    return 0.5 * (sum(hi) / len(hi) + sum(lo) / len(lo))


def _drift(t, d):
    """Least-squares slope of d(t)."""
    n = len(t)
    tm, dm = sum(t) / n, sum(d) / n
    den = sum((x - tm) ** 2 for x in t)
    return sum((x - tm) * (y - dm) for x, y in zip(t, d)) / den if den > 0 else 0.0


def acc_sweep(rest, step, stop, lofq, hifq, amag):
    """acc_sweep(rest, step, stop, lofq, hifq, amag) -> (vt, vd, vv, va): time, displacement,
    velocity and acceleration lists of a sine sweep of acceleration magnitude amag from
    frequency lofq to hifq over stop seconds, after rest seconds at rest, sampled every step."""
    rest = _real('rest', rest, nonneg=True)
    step = _real('step', step, positive=True)
    stop = _real('stop', stop, positive=True)
    lofq = _real('lofq', lofq, positive=True)
    hifq = _real('hifq', hifq, positive=True)
    amag = _real('amag', amag)
    if stop < 2 * step:
        raise ValueError('acc_sweep: stop (%g) must cover at least two steps (step %g)' % (stop, step))
    n = int(round(stop / step)) + 1  # samples of the motion
    if n > 10 ** 8:
        raise ValueError('acc_sweep: stop / step = %g samples is too many' % (stop / step))

    def acc(t):
        return amag * _math.sin(2 * _math.pi * (lofq + (hifq - lofq) * t / stop) * t)

    # from rest, for stop and one more low-frequency period (the start is trimmed below);
    # velocity by the midpoint rule, v(t + h) = v(t) + h a(t + h/2)
    total = n + int(_math.ceil(1.0 / (lofq * step))) + 2
    v = [0.0] * total
    for k in range(1, total):
        v[k] = v[k - 1] + step * acc((k - 0.5) * step)
    # start where the velocity first reaches the centre of its oscillation
    c = _centre(v)
    k0 = 0
    if v[0] != c:
        side = v[0] < c
        while k0 < total - n and (v[k0] < c) == side:
            k0 += 1
    vv = v[k0:k0 + n]
    va = [acc((k0 + k) * step) for k in range(n)]
    vt = [k * step for k in range(n)]
    # no drift: subtract the mean slope of the displacement from the velocity
    vd = _displacement(vv, step)
    s = _drift(vt, vd)
    vv = [x - s for x in vv]
    vd = _displacement(vv, step)
    # the rest before the motion
    r = int(round(rest / step))
    if r:
        vt = [k * step for k in range(r + n)]
        vd = [0.0] * r + vd
        vv = [0.0] * r + vv
        va = [0.0] * r + va
    return vt, vd, vv, va


def _displacement(v, step):
    """d(0) = 0, d(t + h) = d(t) + h (v(t) + v(t + h)) / 2 (trapezoidal rule)."""
    d = [0.0] * len(v)
    for k in range(1, len(v)):
        d[k] = d[k - 1] + 0.5 * step * (v[k - 1] + v[k])
    return d
