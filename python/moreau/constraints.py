"""Joints (FIX_POINT, FIX_DIRECTION, SET_*, PUT_RIGID_LINK), PUT_SPRING, HERE and the contact
settings (CONTACT_EXCLUDE_*, CONTACT_SPARSIFY, UNPHYSICAL_PENETRATION)."""

import bisect as _bisect
import math as _math

import _moreau as _m
from ._checks import _choice, _isnum, _nonneg, _notice, _num, _pos, _vec
from .solfec import _check_solfec
from .bodies import Body, _a, _check_body
from .loads import TimeSeries
from .mbfcp import _note


class Constraint:
    """A joint: kind ('FIXPNT', 'FIXDIR', 'VELODIR', 'RIGLNK' as Solfec) and its index, with
    Solfec-1.0's CONSTRAINT members (lng.c's getset table), read-only: point (the spatial
    point now; a rigid link's two points, 6 numbers), base (the local frame's axes t1, t2,
    n: 9 numbers), R (the reaction on the first body in that frame), U and V (the relative
    velocity at the end and the start of the last step, in that frame), gap, adjbod (the
    body, or the two), matlab and spair (None: not a contact). Before the first step they
    are the deck's (the point given, zero R, U, V); later the last step's, on the rank that
    owns the joint (None on the others, as Solfec in parallel, and once DELETE removed it).
    area and merit are not kept."""
    __slots__ = ('kind', 'index', 'bodies')

    def _state(self, name):
        sol = self.bodies[0]._sol
        if sol.mode == 'READ':
            raise NotImplementedError('CONSTRAINT.%s: in READ mode a joint\'s state is not kept in moreau\'s output '
                                      '(solfec.constraints lists the rows of the frame read)' % name)
        return _m.solfec_joint_state(sol._h, self.index)

    @property
    def point(self):
        s = self._state('point')
        if s is None:
            return None
        return tuple(s[0]) + tuple(s[1]) if self.kind == 'RIGLNK' else tuple(s[0])

    @property
    def base(self):
        s = self._state('base')
        return None if s is None else tuple(s[2])

    @property
    def R(self):
        s = self._state('R')
        return None if s is None else tuple(s[3])

    @property
    def U(self):
        s = self._state('U')
        return None if s is None else tuple(s[4])

    @property
    def V(self):
        s = self._state('V')
        return None if s is None else tuple(s[5])

    @property
    def gap(self):
        s = self._state('gap')
        return None if s is None else s[6]

    @property
    def adjbod(self):
        b1, b2 = self.bodies
        return b1 if b2 is None else (b1, b2)

    @property
    def matlab(self):
        return None  # Solfec-1.0: a contact's surface material label; None for a joint

    @property
    def spair(self):
        return None  # Solfec-1.0: a contact's pair of surface ids; None for a joint

    @property
    def area(self):
        raise NotImplementedError('CONSTRAINT.area: not supported in moreau: a joint keeps its kind, point, base, R, U, V, gap and adjbod')

    @property
    def merit(self):
        raise NotImplementedError('CONSTRAINT.merit: not supported in moreau: a joint keeps its kind, point, base, R, U, V, gap and adjbod')

    def __repr__(self):
        return '<CONSTRAINT %s %d>' % (self.kind, self.index)


def _joint(fn, code, kind, body1, body2, p1, p2, direction=None, value=0.0):
    _check_body(fn, body1)
    if body2 is not None:
        _check_body(fn, body2)
        if body2._sol is not body1._sol:
            raise ValueError('%s: the two bodies belong to different SOLFEC objects' % fn)
    # Solfec-1.0 moves an OBSTACLE by its velocity and the joints on it alone (bod.c: no loads,
    # no contact reactions): a joint on one obstacle prescribes its motion (src/domain/drive.c)
    if not body1._k['movable'] and body2 is not None and not body2._k['movable']:
        raise ValueError('%s: bodies %d and %d are obstacles: a constraint between two obstacles is not supported '
                         '(neither takes its reactions; Solfec-1.0 refuses it too)' % (fn, body1._id, body2._id))
    if not body1._k['movable'] and body2 is None and not body1._k['velocity']:
        raise ValueError('%s: body %d is %s, whose motion cannot be prescribed' % (fn, body1._id, _a(body1.kind)))
    p1 = _vec(fn, 'point', p1)
    p2 = _vec(fn, 'point', p2) if p2 is not None else p1
    d = _vec(fn, 'direction', direction) if direction is not None else None
    if d is not None and not any(d):
        raise ValueError('%s: direction must be non-zero, got %r' % (fn, direction))
    ts = f = ts_obj = None
    if isinstance(value, TimeSeries):
        ts_obj, ts, value = value, value._cap, 0.0
    elif callable(value):
        f, value = value, 0.0
    else:
        value = _num(fn, 'value', value)
    _note(body1._sol, 'joint', (kind, body1, body2, p1, p2, d, ts_obj if ts_obj is not None else (f if f is not None else value)))
    c = Constraint()
    c.kind, c.bodies = kind, (body1, body2)
    c.index = _m.solfec_joint(body1._sol._h, code, body1._id, -1 if body2 is None else body2._id, p1, p2, d, value, ts, f)
    return c


def _no_strength(fn, strength):
    """Solfec's strength: a joint deleted once its reaction passes it; moreau's joints never
    break, so only an infinite strength (Solfec's default) is accepted."""
    if strength is None or (_isnum(strength) and (_math.isinf(strength) or strength >= 1.7e308)):
        return
    raise ValueError('%s: strength %r is not supported in moreau: its joints never break (leave strength out)' % (fn, strength))


def FIX_POINT(body, point, strength=None):
    """FIX_POINT(body, point, strength): the body's material point at the spatial point
    stays there; a finite strength (a joint that breaks) is refused. On an OBSTACLE it
    holds the point of a moving obstacle (Solfec-1.0: its joints move it)."""
    _no_strength('FIX_POINT', strength)
    return _joint('FIX_POINT', 1, 'FIXPNT', body, None, point, None)


def FIX_DIRECTION(body, point, direction, body2=None, point2=None):
    """FIX_DIRECTION(body, point, direction, body2, point2): the point does not move along
    direction; with body2 and point2 (Solfec-1.0's relative form, dom.c) the point2 of body2
    does not move relative to body along the direction, which turns with body: body2's
    point may slide across it (a slider)."""
    fn = 'FIX_DIRECTION'
    if (body2 is None) != (point2 is None):
        raise ValueError('%s: give both body2 and point2 (a direction fixed relative to a second body), or neither' % fn)
    if body2 is not None:
        return _joint(fn, 2, 'FIXDIR', body, body2, point, point2, direction)
    return _joint(fn, 2, 'FIXDIR', body, None, point, None, direction)


def _series_slope(ts, t):
    """The slope of the piecewise linear series at time t (left-hand: the segment that ends
    at a breakpoint), zero outside its times. By bisection: a series read from a file may
    have millions of points, and this runs every step."""
    T, V = ts.times, ts.values
    k = _bisect.bisect_left(T, t)  # T[k-1] < t <= T[k]
    if k == 0 or k == len(T):
        return 0.0
    return (V[k] - V[k - 1]) / (T[k] - T[k - 1])


def _series_integral(ts, t):
    """The integral of the series from its first time to t: zero before that time and, beyond
    its last time, held at the whole series' integral (as Solfec-1.0's SET_ACCELERATION: tms.c
    TMS_Integral makes a series of the running integrals, whose value TMS_Value holds at its
    ends; an acceleration series that ends leaves the point at constant velocity). The
    trapezoids' running sums at the series' times, made once per series, interpolated linearly
    between them, as TMS_Value interpolates TMS_Integral's series (not the exact quadratic
    integral of the interpolated acceleration: BM20/BM21's reference velocities are these)."""
    T, V = ts.times, ts.values
    if t <= T[0]:
        return 0.0
    acc = _SERIES_SUMS.get(id(ts))
    if acc is None or acc[0] is not ts:
        sums = [0.0]
        for k in range(1, len(T)):
            sums.append(sums[-1] + 0.5 * (V[k - 1] + V[k]) * (T[k] - T[k - 1]))
        acc = _SERIES_SUMS[id(ts)] = (ts, sums)
    sums = acc[1]
    k = _bisect.bisect_left(T, t)
    if k == len(T):
        return sums[-1]
    return sums[k - 1] + (sums[k] - sums[k - 1]) * (t - T[k - 1]) / (T[k] - T[k - 1])


_SERIES_SUMS = {}  # id(series) -> (series, running sums): the series is kept, so its id is not reused


def SET_DISPLACEMENT(body, point, direction, tms):
    """SET_DISPLACEMENT(body, point, direction, tms): the displacement of the point along
    direction follows the TIME_SERIES tms; as Solfec-1.0, a prescribed velocity, the series'
    derivative (its slope over each segment)."""
    fn = 'SET_DISPLACEMENT'
    if not isinstance(tms, TimeSeries):
        raise TypeError('%s: tms must be a TIME_SERIES, got %r' % (fn, tms))
    return _joint(fn, 3, 'VELODIR', body, None, point, None, direction, lambda t, ts=tms: _series_slope(ts, t))


def SET_ACCELERATION(body, point, direction, tms):
    """SET_ACCELERATION(body, point, direction, tms): the acceleration of the point along
    direction follows the TIME_SERIES tms; as Solfec-1.0, a prescribed velocity, the series'
    integral from its first time (held constant beyond its last time)."""
    fn = 'SET_ACCELERATION'
    if not isinstance(tms, TimeSeries):
        raise TypeError('%s: tms must be a TIME_SERIES, got %r' % (fn, tms))
    return _joint(fn, 3, 'VELODIR', body, None, point, None, direction, lambda t, ts=tms: _series_integral(ts, t))


def SET_VELOCITY(body, point, direction, value):
    """SET_VELOCITY(body, point, direction, value): the velocity of the point along direction
    is value: a number, a TIME_SERIES or a callable of time."""
    if not (_isnum(value) or isinstance(value, TimeSeries) or callable(value)):
        raise TypeError('SET_VELOCITY: value must be a number, a TIME_SERIES or a callable of time, got %r' % (value,))
    return _joint('SET_VELOCITY', 3, 'VELODIR', body, None, point, None, direction, value)


def PUT_RIGID_LINK(body1, body2, point1, point2, strength=None):
    """PUT_RIGID_LINK(body1, body2, point1, point2, strength): the distance between point1 of
    body1 and point2 of body2 stays constant; either body may be None (its point is fixed in
    space), as in Solfec-1.0; a finite strength (a link that breaks) is refused."""
    _no_strength('PUT_RIGID_LINK', strength)
    if body1 is None and body2 is not None:
        body1, body2, point1, point2 = body2, None, point2, point1
    return _joint('PUT_RIGID_LINK', 4, 'RIGLNK', body1, body2, point1, point2)


class Spring:
    """A spring made by PUT_SPRING: its bodies and index."""
    __slots__ = ('index', 'bodies')

    def __repr__(self):
        return '<SPRING %d>' % self.index


def PUT_SPRING(body1, point1, body2, point2, function=None, limits=None, direction=None, update='FIXED',
               spring=None, dashpot=None, rest=None, active=None):
    """PUT_SPRING(body1, point1, body2 or None, point2, function, limits): a force along the
    line between point1 of body1 and point2 of body2 (a fixed point when body2 is None),
    positive when it pushes the points apart. Either function(stroke, velocity) -> force
    (Solfec-1.0), or the linear spring=k and dashpot=c (force = -k*stroke - c*velocity).
    stroke = length - rest length (rest=, by default the length when the run starts; with
    direction= the length is measured along it), velocity its rate; limits = (min, max): hard
    stops, as in Solfec-1.0: the stroke stays within [min, max] (a frictionless, perfectly
    plastic stop at each; RIG_* schemes only);
    direction: a fixed spatial direction of the force (stroke measured along it); update
    (Solfec-1.0) 'FIXED' keeps it fixed, the convected 'CONV1' and 'CONV2' are refused.
    Solfec-1.0's order: (body1, point1, body2, point2, function, limits, direction, update);
    spring, dashpot, rest and active are moreau's keywords: active = (min, max) switches the
    force off while the stroke lies outside [min, max] (active=(-1e99, 0): a spring that
    pushes and never pulls), with every scheme."""
    fn = 'PUT_SPRING'
    update = _choice(fn, 'update', update, ('FIXED', 'CONV1', 'CONV2'))
    if update != 'FIXED' and direction is not None:
        raise ValueError("%s: update=%r (a direction convected with a body) is not supported in moreau: "
                         "the direction is fixed in space (update='FIXED')" % (fn, update))
    _check_body(fn, body1)
    if body2 is not None:
        _check_body(fn, body2)
        if body2._sol is not body1._sol:
            raise ValueError('%s: the two bodies belong to different SOLFEC objects' % fn)
        if body2 is body1:
            raise ValueError('%s: both ends on the same body %d' % (fn, body1._id))
    if not body1._k['movable'] and (body2 is None or not body2._k['movable']):
        raise ValueError('%s: body %d is %s%s: a spring between obstacles does nothing (obstacles take no forces)'
                         % (fn, body1._id, _a(body1.kind), '' if body2 is None else ' and so is body %d' % body2._id))
    p1 = _vec(fn, 'point1', point1)
    p2 = _vec(fn, 'point2', point2)
    if function is not None and not callable(function):
        raise TypeError('%s: function must be a callable of (stroke, velocity), got %r' % (fn, function))
    if function is not None and (spring is not None or dashpot is not None):
        raise ValueError('%s: give a function or spring=/dashpot=, not both' % fn)
    if function is None and spring is None and dashpot is None:
        raise ValueError('%s: give a function of (stroke, velocity), or spring= and/or dashpot=' % fn)
    k = _nonneg(fn, 'spring', spring) if spring is not None else 0.0
    c = _nonneg(fn, 'dashpot', dashpot) if dashpot is not None else 0.0
    lo, hi = -float('inf'), float('inf')
    if limits is not None:
        try:
            lo, hi = (float(x) if _isnum(x) else None for x in limits)
        except (TypeError, ValueError):
            raise TypeError('%s: limits must be (min, max), got %r' % (fn, limits)) from None
        if lo is None or hi is None or _math.isnan(lo) or _math.isnan(hi):
            raise TypeError('%s: limits must be two numbers (min, max), got %r' % (fn, limits))
        if lo > hi:
            raise ValueError('%s: limits must satisfy min <= max, got %r' % (fn, limits))
    alo, ahi = -float('inf'), float('inf')
    if active is not None:
        try:
            alo, ahi = (float(x) if _isnum(x) else None for x in active)
        except (TypeError, ValueError):
            raise TypeError('%s: active must be (min, max), got %r' % (fn, active)) from None
        if alo is None or ahi is None or _math.isnan(alo) or _math.isnan(ahi):
            raise TypeError('%s: active must be two numbers (min, max), got %r' % (fn, active))
        if alo > ahi:
            raise ValueError('%s: active must satisfy min <= max, got %r' % (fn, active))
    d = _vec(fn, 'direction', direction) if direction is not None else None
    if d is not None and not any(d):
        raise ValueError('%s: direction must be non-zero, got %r' % (fn, direction))
    r = _num(fn, 'rest', rest) if rest is not None else float('nan')
    if rest is not None and d is None and not r > 0:
        raise ValueError('%s: rest must be > 0 for a spring along the line of its points, got %r' % (fn, rest))
    sp = Spring()
    sp.bodies = (body1, body2)
    sp.index = _m.solfec_spring(body1._sol._h, body1._id, -1 if body2 is None else body2._id, p1, p2, d,
                                r, k, c, lo, hi, alo, ahi, function)
    return sp


def HERE(solfec, object):
    """HERE(solfec, object) -> whether this rank owns the BODY (its conf and velo are known),
    or, for a constraint (FIX_POINT, ..., PUT_SPRING), one of its bodies."""
    if isinstance(object, (Constraint, Spring)):
        return any(b is not None and b._own for b in object.bodies)
    return _check_body('HERE', object)._own


def CONTACT_SPARSIFY(solfec, threshold=0.01, minarea=0.0, mindist=None):
    """CONTACT_SPARSIFY(solfec, threshold = 0.01, minarea = 0, mindist = GEOMETRIC_EPSILON):
    Solfec-1.0's contact sparsification (src/domain/sparsify.c), on by default with these
    values: among the contacts of two bodies, those of area below minarea go, those of area
    below threshold times that of a contact on the same or an adjacent piece (element,
    convex) of the master body go, and of two points closer than 2 mindist one goes.
    CONTACT_SPARSIFY(solfec, 0, 0, 0) keeps every point the narrow phase finds."""
    fn = 'CONTACT_SPARSIFY'
    _check_solfec(fn, solfec)
    t = _num(fn, 'threshold', threshold)
    if not 0 <= t <= 1:
        raise ValueError('%s: threshold must be in [0, 1], got %r' % (fn, threshold))
    a = _nonneg(fn, 'minarea', minarea)
    m = _nonneg(fn, 'mindist', mindist) if mindist is not None else -1.0
    _m.contact_sparsify(solfec._h, t, a, m)


def UNPHYSICAL_PENETRATION(solfec, depth):
    """UNPHYSICAL_PENETRATION(solfec, depth): checked and not enforced (Solfec-1.0 stops the run
    when a penetration exceeds depth); a notice says so."""
    fn = 'UNPHYSICAL_PENETRATION'
    _check_solfec(fn, solfec)
    _pos(fn, 'depth', depth)
    _notice(fn, 'the penetration bound is not enforced in moreau (the run does not stop on deep penetration)')


def CONTACT_EXCLUDE_BODIES(body1, body2):
    """CONTACT_EXCLUDE_BODIES(body1, body2): the two bodies make no contacts with each other
    (from the next step on; their joints stay). Solfec-1.0's."""
    fn = 'CONTACT_EXCLUDE_BODIES'
    _check_body(fn, body1)
    _check_body(fn, body2)
    if body2._sol is not body1._sol:
        raise ValueError('%s: the two bodies belong to different SOLFEC objects' % fn)
    _m.contact_exclude(body1._sol._h, 0, body1._id, body2._id)


def CONTACT_EXCLUDE_SURFACES(solfec, surf1, surf2):
    """CONTACT_EXCLUDE_SURFACES(solfec, surf1, surf2): surfaces with ids surf1 and surf2 make
    no contacts with each other (either way round; surf1 = surf2: that surface with itself).
    Solfec-1.0's."""
    fn = 'CONTACT_EXCLUDE_SURFACES'
    _check_solfec(fn, solfec)
    ids = []
    for name, v in (('surf1', surf1), ('surf2', surf2)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError('%s: %s must be a surface id (an int), got %r' % (fn, name, v))
        ids.append(v)
    _m.contact_exclude(solfec._h, 1, ids[0], ids[1])


def DELETE(solfec, object):
    """DELETE(solfec, object): removes a CONSTRAINT (FIX_POINT, FIX_DIRECTION, SET_VELOCITY,
    PUT_RIGID_LINK) from the SOLFEC object, as Solfec-1.0: from the next step on it makes no
    reaction (between RUNs, or before the first); deleting it again does nothing. A BODY is
    removed with its joints before the first RUN (Solfec-1.0's DOM_Remove_Body): it is not
    written to the output nor met by contact detection, its id is not given again, and the
    object cannot be used any more (deleting it again is a TypeError, as Solfec); after a
    RUN, a body with springs, or a spring: NotImplementedError with the reason."""
    fn = 'DELETE'
    _check_solfec(fn, solfec)
    if isinstance(object, Body):
        from .bodies import _delete_body
        _check_body(fn, object)
        return _delete_body(solfec, object)
    if isinstance(object, Spring):
        raise NotImplementedError('DELETE: deleting a PUT_SPRING spring is not supported in moreau (give it an active= range instead)')
    if not isinstance(object, Constraint):
        raise TypeError('%s: object must be a BODY or CONSTRAINT object, got %r' % (fn, object))
    if object.bodies[0]._sol is not solfec:
        raise ValueError('%s: the constraint %r belongs to another SOLFEC object' % (fn, object))
    _m.solfec_remove_joint(solfec._h, object.index)
