"""SIMPLIFIED_CRACK: crack planes of deformable bodies (Solfec-1.0's lng.c and cra.c
behaviour). The criterion is judged after every step; where Solfec then cuts the body in
two, moreau stops the run with an error naming the body, the time and the stress (it cannot
insert bodies during a run yet)."""

import math as _math

import _moreau as _m
from ._checks import _int, _num, _vec
from .bodies import _check_body, _kind


def _surfid(fn, surfid):
    """A pair (below, above); one integer, as Solfec-1.0 took before May 2013 (decks
    brick-crack.py and spaghetti.py), stands for both faces."""
    if isinstance(surfid, (tuple, list)):
        if len(surfid) != 2:
            raise ValueError('%s: surfid must be an integer or a pair of integers (below, above the plane), got %r' % (fn, surfid))
        return (_int(fn, 'surfid[0]', surfid[0]), _int(fn, 'surfid[1]', surfid[1]))
    try:
        s = _int(fn, 'surfid', surfid)
    except TypeError:
        raise TypeError('%s: surfid must be an integer or a pair of integers (below, above the plane), got %r' % (fn, surfid)) from None
    return (s, s)


def SIMPLIFIED_CRACK(body, point, normal, surfid, criterion, topoadj=None, ft=0.0, Gf=0.0):
    """SIMPLIFIED_CRACK(body, point, normal, surfid, criterion, topoadj='OFF', ft=0, Gf=0): a
    crack plane through point with normal (referential) in a PSEUDO_RIGID or FINITE_ELEMENT
    body. criterion 'TENSILE': the body cracks when the tensile stress normal to the plane,
    n·σn, exceeds ft at one of the plane's points in the body (the centre of its section
    through each element it crosses; topoadj 'ON': only the elements joined to point).
    surfid: the surface ids of the new faces below and above the plane (one integer: both).
    Gf (fracture energy) is checked and, as in Solfec-1.0, unused. moreau does not split the
    body: the run stops with an error when the criterion is first met."""
    fn = 'SIMPLIFIED_CRACK'
    _check_body(fn, body)
    if not body._k['elastic']:
        takes = [k for k in _m.body_kinds() if _kind(k)['elastic']]
        raise ValueError('%s: body %d is %s: only %s bodies crack' % (fn, body._id, body.kind, ' or '.join(takes)))
    p = _vec(fn, 'point', point)
    n = _vec(fn, 'normal', normal)
    if _math.sqrt(sum(x * x for x in n)) == 0:
        raise ValueError('%s: normal must be non-zero, got %r' % (fn, normal))
    surf = _surfid(fn, surfid)
    if criterion != 'TENSILE':
        raise ValueError("%s: criterion must be 'TENSILE' (the only one Solfec-1.0 has), got %r" % (fn, criterion))
    if topoadj is None:
        topoadj = 'OFF'
    if topoadj not in ('ON', 'OFF'):
        raise ValueError("%s: topoadj must be 'ON' or 'OFF', got %r" % (fn, topoadj))
    ftv = _num(fn, 'ft', ft)
    gf = _num(fn, 'Gf', Gf)
    if gf < 0:
        raise ValueError('%s: Gf must be >= 0, got %r' % (fn, Gf))
    if body._own:
        try:
            _m.body_crack(body._sol._h, body._id, p, n, surf, ftv, topoadj == 'ON')
        except ValueError as e:
            raise ValueError('%s: %s' % (fn, e)) from None
