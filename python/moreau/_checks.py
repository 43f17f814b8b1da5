"""The argument checks every part of the deck API shares, and this rank and the number of
ranks."""

import math as _math
import numbers as _numbers

import _moreau as _m


_RANK, _SIZE = _m.info()


def _isnum(x):
    return isinstance(x, _numbers.Real) and not isinstance(x, bool)


def _num(fn, name, x):
    if not _isnum(x):
        raise TypeError('%s: %s must be a number, got %r' % (fn, name, x))
    x = float(x)
    if not _math.isfinite(x):
        raise ValueError('%s: %s must be finite, got %r' % (fn, name, x))
    return x


def _pos(fn, name, x):
    v = _num(fn, name, x)
    if not v > 0:
        raise ValueError('%s: %s must be > 0, got %r' % (fn, name, x))
    return v


def _nonneg(fn, name, x):
    v = _num(fn, name, x)
    if v < 0:
        raise ValueError('%s: %s must be >= 0, got %r' % (fn, name, x))
    return v


def _int(fn, name, x):
    if not isinstance(x, _numbers.Integral) or isinstance(x, bool):
        raise TypeError('%s: %s must be an integer, got %r' % (fn, name, x))
    return int(x)


def _vec(fn, name, v, n=3):
    try:
        seq = list(v)
    except TypeError:
        raise TypeError('%s: %s must be a sequence of %d numbers, got %r' % (fn, name, n, v)) from None
    if len(seq) != n or not all(_isnum(x) for x in seq):
        raise TypeError('%s: %s must be a sequence of %d numbers, got %r' % (fn, name, n, v))
    out = tuple(float(x) for x in seq)
    if not all(_math.isfinite(x) for x in out):
        raise ValueError('%s: %s must be finite, got %r' % (fn, name, v))
    return out


def _reals(fn, name, v, multiple=1, minimum=0):
    try:
        seq = list(v)
    except TypeError:
        raise TypeError('%s: %s must be a sequence of numbers, got %r' % (fn, name, v)) from None
    if not all(_isnum(x) for x in seq):
        raise TypeError('%s: %s must be a sequence of numbers, got %r' % (fn, name, v))
    if len(seq) % multiple or len(seq) < minimum:
        raise ValueError('%s: %s must hold a multiple of %d numbers (at least %d), got %d' % (fn, name, multiple, minimum, len(seq)))
    return [float(x) for x in seq]


def _choice(fn, name, x, allowed):
    if x not in allowed:
        raise ValueError('%s: %s must be %s, got %r' % (fn, name, ' or '.join("'%s'" % a for a in allowed), x))
    return x


_ZERO = (0.0, 0.0, 0.0)


def _notice(fn, text):
    """A one-line notice on rank 0, once per function: a command accepted with no effect."""
    if fn not in _NOTICED:
        _NOTICED.add(fn)
        if _RANK == 0:
            print('moreau: %s: %s' % (fn, text), flush=True)


_NOTICED = set()
