"""TIME_SERIES and the loads: GRAVITY, FORCE, TORQUE, PRESSURE."""

from array import array as _array

import _moreau as _m
from ._checks import _choice, _int, _isnum, _num, _reals, _vec
from .solfec import _check_solfec
from .bodies import _a, _check_body, _kind, _kinds
from .mbfcp import _note


class TimeSeries:
    __slots__ = ('_cap', 'times', 'values')

    def __call__(self, t):
        return _m.time_series_eval(self._cap, float(t))


def TIME_SERIES(points, label=None, cache=0):
    """TIME_SERIES([t0, v0, t1, v1, ...]), TIME_SERIES([[t0, v0], [t1, v1], ...]) or
    TIME_SERIES(path of a file with 't v' lines); label and cache (Solfec-1.0's memory
    savings) are accepted and change nothing."""
    fn = 'TIME_SERIES'
    if label is not None and not isinstance(label, str):
        raise TypeError('%s: label must be a string, got %r' % (fn, label))
    if _int(fn, 'cache', cache) < 0:
        raise ValueError('%s: cache must be >= 0, got %r' % (fn, cache))
    if isinstance(points, (list, tuple)) and points and isinstance(points[0], (list, tuple)):
        if not all(isinstance(q, (list, tuple)) and len(q) == 2 for q in points):
            raise TypeError('%s: points given as pairs must all be [t, v], got %r' % (fn, points))
        points = [x for q in points for x in q]
    if isinstance(points, str):
        # a file of 't v' lines, read in C as Solfec's tms.c reads it (src/input/shapes.c):
        # '#' lines are comments, reading ends at the first blank line; times and values
        # are kept as arrays of doubles (a Solfec deck's series may have 10^7 points)
        ts = TimeSeries()
        ts._cap, t, v = _m.time_series_file(points)
        ts.times, ts.values = _array('d'), _array('d')
        ts.times.frombytes(t)
        ts.values.frombytes(v)
        return ts
    p = _reals(fn, 'points', points, 2, 2)
    ts = TimeSeries()
    ts.times, ts.values = p[0::2], p[1::2]
    try:
        ts._cap = _m.time_series(ts.times, ts.values)
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None
    return ts


def GRAVITY(solfec, vector, value=None):
    """GRAVITY(solfec, vector) or Solfec's older GRAVITY(solfec, direction, value)."""
    fn = 'GRAVITY'
    _check_solfec(fn, solfec)
    if isinstance(vector, (list, tuple)) and any(isinstance(x, TimeSeries) or callable(x) for x in vector):
        raise TypeError('%s: a TIME_SERIES component of the vector (time-dependent gravity) is not supported in moreau: '
                        'give three numbers, or apply a FORCE with a TIME_SERIES, got %r' % (fn, vector))
    g = _vec(fn, 'vector', vector)
    if value is not None:
        if isinstance(value, TimeSeries) or callable(value):
            raise TypeError('%s: value must be a number (time-dependent gravity is not supported), got %r' % (fn, value))
        v = _num(fn, 'value', value)
        g = tuple(v * x for x in g)
    solfec._gravity = g
    _m.solfec_gravity(solfec._h, g)


def _load(fn, body, kind, frame, point, direction, value, data):
    _check_body(fn, body)
    frame = _choice(fn, 'kind', frame, ('SPATIAL', 'CONVECTED'))
    fcode = 0 if frame == 'SPATIAL' else 1
    X = _vec(fn, 'point', point) if point is not None else None
    d = _vec(fn, 'direction', direction)
    if not body._k['movable']:
        raise ValueError('%s: body %d is %s: loads on it have no effect' % (fn, body._id, _a(body.kind)))
    if kind == 1 and not body._k['torque']:
        raise ValueError('%s: body %d is %s: a torque has no meaning for it, apply forces at points' % (fn, body._id, body.kind))
    _note(body._sol, 'load', (body, kind, frame, X, d, value))
    if isinstance(value, TimeSeries):
        v, ts = 1.0, value._cap
    elif _isnum(value):
        v, ts = _num(fn, 'value', value), None
    elif callable(value):
        # every rank registers the callable (by reference, so the load can migrate)
        _m.body_load_callback(body._sol._h, body._id, fn, value, data)
        return
    else:
        raise TypeError('%s: value must be a number, a TIME_SERIES or a callable, got %r' % (fn, value))
    if not any(d):
        raise ValueError('%s: direction must be non-zero, got %r' % (fn, direction))
    if body._own:
        if X is None:
            X = body.center
        _m.body_load(body._sol._h, body._id, kind, fcode, X, d, v, ts)


def FORCE(body, kind, point, direction, value, data=None):
    """FORCE(body, 'SPATIAL'|'CONVECTED', point, direction, value, data): value is a number,
    a TIME_SERIES, or a callable value(data, q, u, t, h) (value(q, u, t, h) when data is
    None) returning (force, spatial torque, referential torque) as 9 numbers."""
    _load('FORCE', body, 0, kind, point, direction, value, data)


def TORQUE(body, kind, direction, value, data=None):
    """TORQUE(body, 'SPATIAL'|'CONVECTED', direction, value)."""
    _load('TORQUE', body, 1, kind, None, direction, value, data)


def PRESSURE(body, surfid, value):
    """PRESSURE(body, surfid, value): a pressure on the boundary faces of a FINITE_ELEMENT
    body with surface id surfid, following the deformed surface; a number or a TIME_SERIES.
    Solfec-1.0's sign (its fem.c): the traction is value n, n the outward normal, so a
    negative value pushes into the body (PRESSURE(body, 3, -100E3) compresses)."""
    fn = 'PRESSURE'
    _check_body(fn, body)
    if not body._k['pressure']:
        takes = [k for k in _m.body_kinds() if _kind(k)['pressure']]
        raise ValueError('%s: body %d is %s: only %s bodies take a pressure on their surface' % (fn, body._id, body.kind, ' or '.join(takes) or 'no'))
    surfid = _int(fn, 'surfid', surfid)
    if isinstance(value, TimeSeries):
        v, ts = 1.0, value._cap
    elif _isnum(value):
        v, ts = _num(fn, 'value', value), None
    else:
        raise TypeError('%s: value must be a number or a TIME_SERIES, got %r' % (fn, value))
    if body._own:
        _m.body_pressure(body._sol._h, body._id, surfid, v, ts)
