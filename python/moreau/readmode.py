"""READ mode (results already written are read, not computed): DURATION, SEEK, FORWARD,
BACKWARD."""

import numbers as _numbers

import _moreau as _m
from ._checks import _num
from .solfec import _check_solfec


def DURATION(solfec):
    """DURATION(solfec) -> (t0, t1): in READ mode the times of the first and last stored
    frames (frame 0 is read if none was); in WRITE mode (0, current time) (Solfec-1.0 returns
    the current time alone there). Collective."""
    _check_solfec('DURATION', solfec)
    lim = _m.solfec_read_limits(solfec._h)
    return lim if lim is not None else (0.0, solfec.time)


def SEEK(solfec, time):
    """SEEK(solfec, time): READ mode: the bodies take the state of the stored frame nearest
    `time` (a tie: the later frame; before the first: the first; after the last: the last);
    solfec.time becomes that frame's time. Ignored in WRITE mode, as in Solfec-1.0. Collective."""
    fn = 'SEEK'
    _check_solfec(fn, solfec)
    _m.solfec_seek(solfec._h, _num(fn, 'time', time))


def _frames(fn, steps):
    if not isinstance(steps, _numbers.Integral) or isinstance(steps, bool) or steps < 0:
        raise ValueError('%s: steps must be an integer >= 0 (stored frames), got %r' % (fn, steps))
    return int(steps)


def FORWARD(solfec, steps=1):
    """FORWARD(solfec, steps=1): READ mode: `steps` stored frames on (clamped at the last);
    as in Solfec-1.0, the first FORWARD or BACKWARD before any SEEK, DURATION, HISTORY or
    ENERGY only reads frame 0. Ignored in WRITE mode. Collective."""
    fn = 'FORWARD'
    _check_solfec(fn, solfec)
    _m.solfec_forward(solfec._h, _frames(fn, steps))


def BACKWARD(solfec, steps=1):
    """BACKWARD(solfec, steps=1): READ mode: `steps` stored frames back (clamped at the
    first); see FORWARD. Ignored in WRITE mode. Collective."""
    fn = 'BACKWARD'
    _check_solfec(fn, solfec)
    _m.solfec_forward(solfec._h, -_frames(fn, steps))
