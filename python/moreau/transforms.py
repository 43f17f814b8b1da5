"""TRANSLATE, ROTATE and SCALE of points, shapes and bodies."""

import math as _math

import _moreau as _m
from ._checks import _isnum, _num, _vec, _ZERO
from .shapes import Shape, Sphere
from .bodies import Body


def _rotation(fn, vector, angle_deg):
    """Rotation matrix (row-major) about `vector` by `angle_deg` degrees (Rodrigues)."""
    n = _math.sqrt(sum(x * x for x in vector))
    if n == 0:
        raise ValueError('%s: vector must be non-zero, got %r' % (fn, vector))
    x, y, z = (c / n for c in vector)
    a = _math.radians(angle_deg)
    c, s = _math.cos(a), _math.sin(a)
    t = 1 - c
    return (t * x * x + c, t * x * y - s * z, t * x * z + s * y,
            t * x * y + s * z, t * y * y + c, t * y * z - s * x,
            t * x * z - s * y, t * y * z + s * x, t * z * z + c)


def _apply(R, c, d, p):
    y = (p[0] - c[0], p[1] - c[1], p[2] - c[2])
    return (R[0] * y[0] + R[1] * y[1] + R[2] * y[2] + c[0] + d[0],
            R[3] * y[0] + R[4] * y[1] + R[5] * y[2] + c[1] + d[1],
            R[6] * y[0] + R[7] * y[1] + R[8] * y[2] + c[2] + d[2])


_IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)


def _transform(fn, obj, R, c, d):
    if isinstance(obj, Sphere):
        obj.center = list(_apply(R, c, d, obj.center))
    elif isinstance(obj, Shape):
        _m.shape_transform(obj._cap, R, c, d)
    elif isinstance(obj, Body):
        if obj._own:
            _m.body_transform(obj._sol._h, obj._id, R, c, d)
    elif isinstance(obj, list) and obj and not _isnum(obj[0]):
        for s in obj:
            _transform(fn, s, R, c, d)
    else:
        raise TypeError('%s: expected a shape, a list of shapes, a BODY or a point, got %r' % (fn, obj))
    return obj


def _is_point(obj):
    return isinstance(obj, (tuple, list)) and len(obj) == 3 and all(_isnum(x) for x in obj)


def TRANSLATE(shape, vector):
    """TRANSLATE(shape, vector): moves a shape (or list, or body) in place and returns it;
    TRANSLATE(point, vector) returns the moved point."""
    fn = 'TRANSLATE'
    d = _vec(fn, 'vector', vector)
    if _is_point(shape):
        return tuple(p + v for p, v in zip(shape, d))
    return _transform(fn, shape, _IDENTITY, _ZERO, d)


def ROTATE(shape, point, vector, angle):
    """ROTATE(shape, point, vector, angle): rotates about the axis through point along vector
    by angle in degrees, in place; ROTATE(point3, ...) returns the rotated point."""
    fn = 'ROTATE'
    p = _vec(fn, 'point', point)
    v = _vec(fn, 'vector', vector)
    R = _rotation(fn, v, _num(fn, 'angle', angle))
    if _is_point(shape):
        return _apply(R, p, _ZERO, shape)
    return _transform(fn, shape, R, p, _ZERO)


def _scale(fn, obj, c):
    if isinstance(obj, Sphere):
        obj.radius *= c[0]  # Solfec-1.0: the radius by the first factor, the centre stays
    elif isinstance(obj, Shape):
        _m.shape_transform(obj._cap, (c[0], 0.0, 0.0, 0.0, c[1], 0.0, 0.0, 0.0, c[2]), _ZERO, _ZERO)
        obj._validate(fn)
    elif isinstance(obj, list) and obj and not _isnum(obj[0]):
        for x in obj:
            _scale(fn, x, c)
    else:
        raise TypeError('%s: shape must be SPHERE, ELLIP, HEX, CONVEX, HULL, MESH, a list of them or a point (x, y, z), got %r'
                        % (fn, obj))


def SCALE(shape, coefs):
    """SCALE(shape, coefs): scales a shape (or a list of shapes) in place and returns it, as
    Solfec-1.0: the vertices and mesh nodes of CONVEX, HULL, HEX and MESH shapes, and an
    ELLIP's centre and the ends of its semi-axes, are multiplied by (cx, cy, cz) about the
    origin (an ELLIP stays the exact image of the ellipsoid); a SPHERE keeps its centre and
    its radius is multiplied by cx. SCALE(point, coefs) returns the scaled point (x cx, y cy, z cz).
    A shape's coefs must be > 0 (a negative one would turn it inside out); a point's may be
    any (Solfec-1.0's decks flip vectors with SCALE(v, (-1, -1, -1)))."""
    fn = 'SCALE'
    c = _vec(fn, 'coefs', coefs)
    if _is_point(shape):
        return tuple(p * k for p, k in zip(shape, c))
    if not all(x > 0 for x in c):
        raise ValueError('%s: coefs must be > 0, got %r' % (fn, coefs))
    _scale(fn, shape, c)
    return shape
