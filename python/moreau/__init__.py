"""moreau's deck API: the Solfec-1.0 input language in Python 3.

A deck run by `moreau deck.py` sees these names without an import (as in Solfec);
`import moreau` or `from moreau import *` also work. Every function checks its arguments
and raises TypeError/ValueError naming the function, the argument and the value.
The table of functions, and where moreau differs from Solfec-1.0: doc/deck-api.md.

Parallel runs: the deck runs on every rank. A body is built only on the rank that owns it
(body id modulo the number of ranks); elsewhere its Python object is a light proxy whose
`conf` and `velo` read as None, as in Solfec. Loads and initial state set on a proxy are
ignored by ranks that do not own the body, so the same deck works on any number of ranks.
"""

import math as _math
import numbers as _numbers

import _moreau as _m

__all__ = [
    'SOLFEC', 'BULK_MATERIAL', 'SURFACE_MATERIAL', 'SPHERE', 'HEX', 'CONVEX', 'HULL', 'MESH',
    'TRANSLATE', 'ROTATE', 'COPY', 'BODY', 'BODY_CHARS', 'INITIAL_VELOCITY', 'GRAVITY',
    'FORCE', 'TORQUE', 'PRESSURE', 'TIME_SERIES', 'OUTPUT', 'CALLBACK', 'RUN', 'GAUSS_SEIDEL_SOLVER',
    'NEWTON_SOLVER', 'PENALTY_SOLVER', 'GEOMETRIC_EPSILON', 'IMBALANCE_TOLERANCE', 'FIX_POINT', 'FIX_DIRECTION',
    'SET_VELOCITY', 'PUT_RIGID_LINK', 'PUT_SPRING', 'SCHEME_PARAMETERS', 'CRITICAL_STEP', 'VIEWER', 'ENERGY', 'HISTORY',
    'BYLABEL', 'MASS_CENTER', 'DURATION', 'RANK', 'NCPU', 'HERE',
    'TIME_ADAPT',
]

version = _m.version
_RANK, _SIZE = _m.info()
PeerFailure = _m.PeerFailure

# ---------------------------------------------------------------- argument checks


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


def _check_solfec(fn, s):
    if not isinstance(s, Solfec):
        raise TypeError('%s: solfec must be a SOLFEC object, got %r' % (fn, s))
    return s


def _check_body(fn, b):
    if not isinstance(b, Body):
        raise TypeError('%s: body must be a BODY object, got %r' % (fn, b))
    return b


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
_ZERO = (0.0, 0.0, 0.0)

# ---------------------------------------------------------------- SOLFEC


class Solfec:
    """SOLFEC(analysis, step, output): the simulation. Attributes: time (read only), step,
    verbose ('ON'/'OFF' or True/False), mode ('WRITE': moreau always computes), bodies,
    outdir, h5/xmf (result file paths)."""
    __slots__ = ('_h', 'analysis', 'outdir', 'mode', '_verbose', 'bodies', '_labels', '_gravity',
                 'materials', 'surface_materials', 'geometric_epsilon', '__weakref__')

    def __init__(self, analysis, step, output):
        fn = 'SOLFEC'
        self.analysis = _choice(fn, 'analysis', analysis, ('DYNAMIC', 'QUASI_STATIC'))
        step = _pos(fn, 'step', step)
        if not isinstance(output, str) or not output:
            raise TypeError('%s: output must be a directory name (a non-empty string), got %r' % (fn, output))
        self.outdir = output
        self.mode = 'WRITE'
        self._verbose = 'ON'
        self.bodies = []
        self._labels = {}
        self._gravity = _ZERO
        self.materials = []
        self.surface_materials = []
        self.geometric_epsilon = None
        try:
            self._h = _m.solfec_create(step, output)
        except OSError as e:
            raise OSError('SOLFEC: cannot write results to %r: %s' % (output, e)) from None

    @property
    def time(self):
        return _m.solfec_info(self._h)[0]

    @property
    def step(self):
        return _m.solfec_info(self._h)[1]

    @step.setter
    def step(self, h):
        _m.solfec_set_step(self._h, _pos('SOLFEC.step', 'value', h))

    @property
    def steps(self):
        return _m.solfec_info(self._h)[2]

    @property
    def verbose(self):
        return self._verbose

    @verbose.setter
    def verbose(self, v):
        if isinstance(v, bool):
            flag = v
            v = 'ON' if v else 'OFF'
        elif isinstance(v, str):
            # Solfec also accepts combinations such as '%' or 'ON|%'; anything not OFF prints
            flag = v.upper() != 'OFF'
        else:
            raise TypeError("SOLFEC.verbose: must be 'ON', 'OFF' or a bool, got %r" % (v,))
        self._verbose = v
        _m.solfec_verbose(self._h, flag)

    @property
    def h5(self):
        return _m.solfec_paths(self._h)[0]

    @property
    def xmf(self):
        return _m.solfec_paths(self._h)[1]

    def __repr__(self):
        return 'SOLFEC(%r, %g, %r)' % (self.analysis, self.step, self.outdir)


def SOLFEC(analysis='DYNAMIC', step=1e-3, output='out'):
    """SOLFEC(analysis, step, output) -> the simulation object. Collective: it opens
    OUTDIR/<deck name>.h5 and .xmf (-mb_output_dir overrides OUTDIR)."""
    return Solfec(analysis, step, output)


# ---------------------------------------------------------------- materials


class BulkMaterial:
    __slots__ = ('model', 'label', 'young', 'poisson', 'density')

    def __repr__(self):
        return 'BULK_MATERIAL(model=%r, label=%r, young=%g, poisson=%g, density=%g)' % (self.model, self.label, self.young, self.poisson, self.density)


def BULK_MATERIAL(solfec, model='KIRCHHOFF', label=None, young=1e9, poisson=0.25, density=1e3):
    """BULK_MATERIAL(solfec, model='KIRCHHOFF', label, young, poisson, density)."""
    fn = 'BULK_MATERIAL'
    _check_solfec(fn, solfec)
    m = BulkMaterial()
    m.model = _choice(fn, 'model', model, ('KIRCHHOFF', 'TSANG_MARSDEN', 'BSS_MESH', 'USER'))
    if label is not None and not isinstance(label, str):
        raise TypeError('%s: label must be a string, got %r' % (fn, label))
    m.label = label
    m.young = _pos(fn, 'young', young)
    m.poisson = _num(fn, 'poisson', poisson)
    if not -1 < m.poisson < 0.5:
        raise ValueError('%s: poisson must be in (-1, 0.5), got %r' % (fn, poisson))
    m.density = _pos(fn, 'density', density)
    solfec.materials.append(m)
    return m


class SurfaceMaterial:
    __slots__ = ('surf1', 'surf2', 'model', 'label', 'friction', 'cohesion', 'restitution', 'spring', 'dashpot')


def SURFACE_MATERIAL(solfec, surf1=None, surf2=None, model='SIGNORINI_COULOMB', label=None,
                     friction=0.0, cohesion=0.0, restitution=0.0, spring=0.0, dashpot=0.0):
    """SURFACE_MATERIAL(solfec, surf1, surf2, model, label, friction, cohesion, restitution,
    spring, dashpot): the material of contacts between surfaces surf1 and surf2 (both None:
    the default for pairs without their own; the last one given wins)."""
    fn = 'SURFACE_MATERIAL'
    _check_solfec(fn, solfec)
    m = SurfaceMaterial()
    m.surf1 = None if surf1 is None else _int(fn, 'surf1', surf1)
    m.surf2 = None if surf2 is None else _int(fn, 'surf2', surf2)
    m.model = _choice(fn, 'model', model, ('SIGNORINI_COULOMB', 'SPRING_DASHPOT'))
    m.label = label
    m.friction = _nonneg(fn, 'friction', friction)
    m.cohesion = _nonneg(fn, 'cohesion', cohesion)
    m.restitution = _nonneg(fn, 'restitution', restitution)
    if m.restitution > 1:
        raise ValueError('%s: restitution must be in [0, 1], got %r' % (fn, restitution))
    m.spring = _nonneg(fn, 'spring', spring)
    m.dashpot = _nonneg(fn, 'dashpot', dashpot)
    _m.solfec_surface_material(solfec._h, -1 if m.surf1 is None else m.surf1, -1 if m.surf2 is None else m.surf2,
                               0 if m.model == 'SIGNORINI_COULOMB' else 1, m.friction, m.cohesion,
                               m.restitution, m.spring, m.dashpot)
    solfec.surface_materials.append(m)
    return m


# ---------------------------------------------------------------- shapes


class Sphere:
    """SPHERE(center, radius, volid, surfid): kept in Python (no C object), so that a
    million spheres cost little on ranks that do not own their bodies."""
    __slots__ = ('center', 'radius', 'volid', 'surfid')

    def _part(self):
        c = self.center
        return (c[0], c[1], c[2], self.radius, self.volid, self.surfid)

    def __repr__(self):
        return 'SPHERE(%r, %g, %d, %d)' % (tuple(self.center), self.radius, self.volid, self.surfid)


class Shape:
    """A shape held by the C layer: CONVEX, HULL, HEX or MESH (a compound of convex pieces)."""
    __slots__ = ('_cap', 'kind', '_nn')

    def __init__(self, kind):
        self.kind = kind
        self._cap = _m.shape_new()
        self._nn = 0  # nodes of its mesh (MESH, HEX): a FINITE_ELEMENT body's

    def _validate(self, fn):
        try:
            _m.shape_massprops([self._cap], 1.0)
        except ValueError as e:
            raise ValueError('%s: %s' % (fn, e)) from None
        return self

    def __repr__(self):
        return '<%s shape>' % self.kind


def SPHERE(center, radius, volid=0, surfid=0):
    """SPHERE(center, radius, volid, surfid)."""
    fn = 'SPHERE'
    s = Sphere()
    s.center = list(_vec(fn, 'center', center))
    s.radius = _pos(fn, 'radius', radius)
    s.volid = _int(fn, 'volid', volid)
    s.surfid = _int(fn, 'surfid', surfid)
    return s


def _spacing(fn, name, d, n):
    if d is None:
        return [k / n for k in range(n + 1)]
    d = _reals(fn, name, d)
    if len(d) != n or not all(x > 0 for x in d):
        raise ValueError('%s: %s must hold %d positive numbers, got %r' % (fn, name, n, d))
    s, acc, out = sum(d), 0.0, [0.0]
    for x in d:
        acc += x
        out.append(acc / s)
    out[-1] = 1.0
    return out


def HEX(nodes, i, j, k, volid, surfids, dx=None, dy=None, dz=None):
    """HEX(nodes, i, j, k, volid, surfids, dx, dy, dz): a hexahedron of 8 nodes (24 numbers,
    or 8 triples) divided into i x j x k hexahedral elements (trilinear map; dx, dy, dz are
    relative spacings); surfids are the 6 face ids (bottom, top, sides 0154, 1265, 2376, 3047)."""
    fn = 'HEX'
    flat = _flatten_points(fn, 'nodes', nodes)
    if len(flat) != 24:
        raise ValueError('%s: nodes must hold 8 nodes (24 numbers), got %d numbers' % (fn, len(flat)))
    i, j, k = (_int(fn, n, v) for n, v in (('i', i), ('j', j), ('k', k)))
    for n, v in (('i', i), ('j', j), ('k', k)):
        if v < 1:
            raise ValueError('%s: %s must be >= 1, got %d' % (fn, n, v))
    volid = _int(fn, 'volid', volid)
    try:
        surfids = [int(x) for x in surfids]
    except (TypeError, ValueError):
        raise TypeError('%s: surfids must be a sequence of 6 integers, got %r' % (fn, surfids)) from None
    if len(surfids) != 6:
        raise ValueError('%s: surfids must hold 6 integers, got %d' % (fn, len(surfids)))
    ux, uy, uz = _spacing(fn, 'dx', dx, i), _spacing(fn, 'dy', dy, j), _spacing(fn, 'dz', dz, k)
    P = [flat[3 * n:3 * n + 3] for n in range(8)]

    def point(a, b, c):  # trilinear map of the unit cube onto the hexahedron
        w = ((1 - a) * (1 - b) * (1 - c), a * (1 - b) * (1 - c), a * b * (1 - c), (1 - a) * b * (1 - c),
             (1 - a) * (1 - b) * c, a * (1 - b) * c, a * b * c, (1 - a) * b * c)
        return [sum(w[n] * P[n][d] for n in range(8)) for d in range(3)]

    shp = Shape('HEX')
    X = []  # the grid's nodes, i fastest: the mesh of a FINITE_ELEMENT body
    for c in uz:
        for b in uy:
            for a in ux:
                X += point(a, b, c)
    eptr, enode = [0], []

    def node(a, b, c):
        return (c * (j + 1) + b) * (i + 1) + a
    for kk in range(k):
        for jj in range(j):
            for ii in range(i):
                enode += [node(ii, jj, kk), node(ii + 1, jj, kk), node(ii + 1, jj + 1, kk), node(ii, jj + 1, kk),
                          node(ii, jj, kk + 1), node(ii + 1, jj, kk + 1), node(ii + 1, jj + 1, kk + 1), node(ii, jj + 1, kk + 1)]
                eptr.append(len(enode))
                a0, a1, b0, b1, c0, c1 = ux[ii], ux[ii + 1], uy[jj], uy[jj + 1], uz[kk], uz[kk + 1]
                cell = []
                for (a, b, c) in ((a0, b0, c0), (a1, b0, c0), (a1, b1, c0), (a0, b1, c0),
                                  (a0, b0, c1), (a1, b0, c1), (a1, b1, c1), (a0, b1, c1)):
                    cell += point(a, b, c)
                # outer faces keep their surface id; inner faces get the bottom's (unused now)
                sid = [surfids[0], surfids[1] if kk == k - 1 else surfids[0],
                       surfids[2] if jj == 0 else surfids[0], surfids[3] if ii == i - 1 else surfids[0],
                       surfids[4] if jj == j - 1 else surfids[0], surfids[5] if ii == 0 else surfids[0]]
                try:
                    _m.shape_element(shp._cap, 8, cell, sid, volid)
                except ValueError as e:
                    raise ValueError('%s: %s' % (fn, e)) from None
    _m.shape_mesh(shp._cap, X, eptr, enode)
    shp._nn = len(X) // 3
    return shp._validate(fn)


def _flatten_points(fn, name, pts):
    try:
        seq = list(pts)
    except TypeError:
        raise TypeError('%s: %s must be a sequence of numbers, got %r' % (fn, name, pts)) from None
    if seq and not _isnum(seq[0]):
        try:
            seq = [x for p in seq for x in p]
        except TypeError:
            raise TypeError('%s: %s must be numbers or triples of numbers, got %r' % (fn, name, pts)) from None
    return _reals(fn, name, seq, 3)


def CONVEX(vertices, faces, volid=0):
    """CONVEX(vertices, faces, volid): faces = [n, v1 .. vn, surfid, n, ...], vertices
    counter-clockwise seen from outside."""
    fn = 'CONVEX'
    v = _flatten_points(fn, 'vertices', vertices)
    nv = len(v) // 3
    f = list(faces)
    fptr, fvert, fsurf, pos = [0], [], [], 0
    while pos < len(f):
        n = f[pos]
        if not isinstance(n, _numbers.Integral) or n < 3 or pos + n + 1 >= len(f):
            raise ValueError('%s: faces must be [n, v1 .. vn, surfid, ...] with n >= 3; bad entry %r at position %d' % (fn, n, pos))
        idx = f[pos + 1:pos + 1 + n]
        for x in idx:
            if not isinstance(x, _numbers.Integral) or not 0 <= x < nv:
                raise ValueError('%s: face vertex %r at position %d is not in [0, %d)' % (fn, x, pos, nv))
        fvert += [int(x) for x in idx]
        fsurf.append(_int(fn, 'face surfid', f[pos + 1 + n]))
        fptr.append(len(fvert))
        pos += n + 2
    shp = Shape('CONVEX')
    try:
        _m.shape_convex(shp._cap, v, fptr, fvert, fsurf, _int(fn, 'volid', volid))
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None
    return shp._validate(fn)


def HULL(points, volid=0, surfid=0):
    """HULL(points, volid, surfid): the convex hull of the points."""
    fn = 'HULL'
    p = _flatten_points(fn, 'points', points)
    if len(p) < 12:
        raise ValueError('%s: points must hold at least 4 points, got %d' % (fn, len(p) // 3))
    shp = Shape('HULL')
    try:
        _m.shape_hull(shp._cap, p, _int(fn, 'volid', volid), _int(fn, 'surfid', surfid))
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None
    return shp._validate(fn)


_ELEMENT_FACES = {4: 4, 5: 5, 6: 5, 8: 6}
# faces of each element type as node tuples in MbShapeAddElement's order (mbshape.h)
_ELEMENT_FACE_NODES = {
    4: ((0, 2, 1), (0, 1, 3), (1, 2, 3), (2, 0, 3)),
    5: ((0, 3, 2, 1), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)),
    6: ((0, 2, 1), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)),
    8: ((0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)),
}


def MESH(nodes, elements, surfids):
    """MESH(nodes, elements, surfids): elements = [n, i1 .. in, volid, ...] with n in 4, 5,
    6, 8; surfids = [default, k, i1 .. ik, surfid, ...] (faces with their own ids) or one
    integer. For a rigid body the mesh is a compound of convex elements."""
    fn = 'MESH'
    x = _flatten_points(fn, 'nodes', nodes)
    nn = len(x) // 3
    if isinstance(surfids, _numbers.Integral):
        default, faces = int(surfids), {}
    else:
        s = list(surfids)
        if not s:
            raise ValueError('%s: surfids must start with the default surface id' % fn)
        default, faces, pos = _int(fn, 'surfids[0]', s[0]), {}, 1
        while pos < len(s):
            k = s[pos]
            if k not in (3, 4) or pos + k + 1 >= len(s):
                raise ValueError('%s: surfids faces must be [3 or 4, nodes, surfid, ...]; bad entry %r at position %d' % (fn, k, pos))
            faces[frozenset(int(v) for v in s[pos + 1:pos + 1 + k])] = _int(fn, 'face surfid', s[pos + 1 + k])
            pos += k + 2
    e = list(elements)
    shp, pos = Shape('MESH'), 0
    eptr, enode = [0], []
    while pos < len(e):
        t = e[pos]
        if t not in _ELEMENT_FACES or pos + t + 1 >= len(e):
            raise ValueError('%s: elements must be [n, nodes, volid, ...] with n in 4, 5, 6, 8; bad entry %r at position %d' % (fn, t, pos))
        idx = e[pos + 1:pos + 1 + t]
        for v in idx:
            if not isinstance(v, _numbers.Integral) or not 0 <= v < nn:
                raise ValueError('%s: element node %r at position %d is not in [0, %d)' % (fn, v, pos, nn))
        coords = [x[3 * v + d] for v in idx for d in range(3)]
        sid = [faces.get(frozenset(idx[a] for a in f), default) for f in _ELEMENT_FACE_NODES[t]]
        try:
            _m.shape_element(shp._cap, t, coords, sid, _int(fn, 'volid', e[pos + 1 + t]))
        except ValueError as err:
            raise ValueError('%s: element at position %d: %s' % (fn, pos, err)) from None
        enode += [int(v) for v in idx]
        eptr.append(len(enode))
        pos += t + 2
    if pos == 0:
        raise ValueError('%s: elements must not be empty' % fn)
    _m.shape_mesh(shp._cap, x, eptr, enode)
    shp._nn = nn
    return shp._validate(fn)


def _parts(fn, shape, out):
    """Flatten a shape (a list is a compound) into _moreau parts: capsules and sphere tuples."""
    if isinstance(shape, Sphere):
        out.append(shape._part())
    elif isinstance(shape, Shape):
        out.append(shape._cap)
    elif isinstance(shape, (list, tuple)) and shape and not _isnum(shape[0]):
        for s in shape:
            _parts(fn, s, out)
    else:
        raise TypeError('%s: shape must be SPHERE, HEX, CONVEX, HULL, MESH or a list of them, got %r' % (fn, shape))
    return out


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


def COPY(shape):
    """COPY(shape) -> an independent copy."""
    if isinstance(shape, Sphere):
        return SPHERE(shape.center, shape.radius, shape.volid, shape.surfid)
    if isinstance(shape, Shape):
        s = Shape.__new__(Shape)
        s.kind, s._cap = shape.kind, _m.shape_copy(shape._cap)
        return s
    if isinstance(shape, list):
        return [COPY(s) for s in shape]
    raise TypeError('COPY: expected a shape or a list of shapes, got %r' % (shape,))


# ---------------------------------------------------------------- bodies

_KINDS = ('RIGID', 'OBSTACLE', 'PSEUDO_RIGID', 'FINITE_ELEMENT')
_KIND_CODE = {'RIGID': 0, 'OBSTACLE': 1, 'PSEUDO_RIGID': 2, 'FINITE_ELEMENT': 3}
_LATER_KINDS = ('EXTENDED_PSEUDO_RIGID',)
_SIZES = {'RIGID': (12, 6), 'OBSTACLE': (12, 6), 'PSEUDO_RIGID': (12, 12)}  # len(conf), len(velo); FINITE_ELEMENT: 3 per node


class Body:
    """A body. On the owner rank it reads the C state; elsewhere it is a proxy whose conf
    and velo read None (as in Solfec); mass, volume and center are known on every rank."""
    __slots__ = ('_sol', '_id', 'kind', 'label', '_shape', '_rho', '_x', '_n')

    @property
    def id(self):
        return self._id

    @property
    def _own(self):
        # bodies migrate when METIS repartitions: ask the domain, not id mod size
        return _m.body_owned(self._sol._h, self._id)

    def _props(self):
        if self._own:
            return _m.body_get(self._sol._h, self._id, 2)
        if self._x and 'chars' in self._x:
            return self._x['chars']
        return _m.shape_massprops(_parts('BODY', self._shape, []), self._rho)

    @property
    def mass(self):
        return self._props()[0]

    @property
    def volume(self):
        return self._props()[1]

    @property
    def center(self):
        """Referential mass centre."""
        return self._props()[2]

    @property
    def inertia(self):
        return self._props()[3]

    @property
    def conf(self):
        """Rigid: rotation column-wise (9) then mass centre (3); pseudo-rigid: deformation
        gradient column-wise (9) then mass centre (3); None where not owned."""
        return _m.body_get(self._sol._h, self._id, 0) if self._own else None

    @conf.setter
    def conf(self, q):
        q = _vec('BODY.conf', 'value', q, _SIZES[self.kind][0] if self.kind in _SIZES else self._n)
        if self._own:
            _m.body_set_state(self._sol._h, self._id, 0, q)

    @property
    def velo(self):
        """Rigid: referential angular (3) then spatial linear velocity (3); pseudo-rigid: the
        rate of the deformation gradient column-wise (9) then the linear velocity (3); None
        where not owned."""
        return _m.body_get(self._sol._h, self._id, 1) if self._own else None

    @velo.setter
    def velo(self, u):
        u = _vec('BODY.velo', 'value', u, _SIZES[self.kind][1] if self.kind in _SIZES else self._n)
        if self.kind == 'OBSTACLE' and any(u):
            raise ValueError('BODY.velo: body %d is an OBSTACLE: it cannot be given a velocity' % self._id)
        if self._own:
            _m.body_set_state(self._sol._h, self._id, 1, u)

    @property
    def scheme(self):
        if self._own:
            return _m.body_get(self._sol._h, self._id, 3)
        if self._x and 'scheme' in self._x:
            return self._x['scheme']
        if self.kind == 'OBSTACLE':
            return None
        return 'DEF_EXP' if self.kind in ('PSEUDO_RIGID', 'FINITE_ELEMENT') else _m.default_scheme()

    @scheme.setter
    def scheme(self, name):
        if not isinstance(name, str):
            raise TypeError('BODY.scheme: must be a scheme name, got %r' % (name,))
        try:
            _m.body_scheme(self._sol._h, self._id, name)
        except ValueError as e:
            raise ValueError('BODY.scheme: %s' % e) from None
        if not self._own:
            self._extra()['scheme'] = name

    @property
    def damping(self):
        if self._own:
            return _m.body_get(self._sol._h, self._id, 4)
        return self._x.get('damping', 0.0) if self._x else 0.0

    @damping.setter
    def damping(self, d):
        d = _nonneg('BODY.damping', 'value', d)
        if self._own:
            _m.body_damping(self._sol._h, self._id, d)
        else:
            self._extra()['damping'] = d

    def _extra(self):
        if self._x is None:
            self._x = {}
        return self._x

    def __repr__(self):
        return '<BODY %d %s%s>' % (self._id, self.kind, (' %r' % self.label) if self.label else '')


def BODY(solfec, kind, shape, material, label=None, form=None, mesh=None, modal=None):
    """BODY(solfec, kind, shape, material, label, form): kinds 'RIGID', 'OBSTACLE',
    'PSEUDO_RIGID' and 'FINITE_ELEMENT' (both Saint Venant-Kirchhoff from the material's
    young and poisson; a FINITE_ELEMENT body's shape is its mesh, a MESH or a HEX, and
    form 'TL', total Lagrangian, is the one supported)."""
    fn = 'BODY'
    if type(solfec) is not Solfec:
        _check_solfec(fn, solfec)
    if kind not in _KIND_CODE:
        if kind in _LATER_KINDS:
            raise ValueError("%s: kind %r is not supported yet (RIGID, OBSTACLE, PSEUDO_RIGID and FINITE_ELEMENT are)" % (fn, kind))
        raise ValueError("%s: kind must be 'RIGID', 'OBSTACLE', 'PSEUDO_RIGID' or 'FINITE_ELEMENT', got %r" % (fn, kind))
    if type(material) is not BulkMaterial:
        raise TypeError('%s: material must be a BULK_MATERIAL object, got %r' % (fn, material))
    if kind in ('PSEUDO_RIGID', 'FINITE_ELEMENT'):  # checked on every rank: the same error everywhere
        if not material.young > 0:
            raise ValueError("%s: a %s body needs Young's modulus > 0, got young=%r" % (fn, kind, material.young))
        if not -1 < material.poisson < 0.5:
            raise ValueError("%s: a %s body needs Poisson's ratio in (-1, 0.5), got poisson=%r" % (fn, kind, material.poisson))
    if kind == 'FINITE_ELEMENT':
        if mesh is not None:
            raise ValueError("%s: a FINITE_ELEMENT body with a separate mesh= is not supported yet: give the MESH (or HEX) as its shape" % fn)
        if form not in (None, 'TL'):
            raise ValueError("%s: FINITE_ELEMENT form %r is not supported yet: 'TL' (total Lagrangian) is" % (fn, form))
        if not (isinstance(shape, Shape) and shape._nn):
            raise ValueError('%s: a FINITE_ELEMENT body needs a MESH or HEX shape (its mesh), got %r' % (fn, shape))
    if label is not None and type(label) is not str:
        raise TypeError('%s: label must be a string, got %r' % (fn, label))
    h = solfec._h
    if type(shape) is Sphere:  # the fast path: a million spheres
        c = shape.center
        bid = _m.body_sphere(h, _KIND_CODE[kind], c[0], c[1], c[2], shape.radius, shape.volid, shape.surfid, material.density, label,
                             material.young, material.poisson)
    else:
        parts = _parts(fn, shape, [])
        bid = _m.body_shape(h, _KIND_CODE[kind], parts if _m.next_owned(h) else None, material.density, label,
                            material.young, material.poisson)
    b = Body()
    b._sol = solfec
    b._id = bid
    b.kind = kind
    b.label = label
    b._shape = shape  # mass properties where the body is not owned (bodies migrate)
    b._rho = material.density
    b._x = None
    b._n = 3 * shape._nn if kind == 'FINITE_ELEMENT' else 0  # len(conf) and len(velo)
    solfec.bodies.append(b)
    if label is not None:
        solfec._labels[label] = b
    return b


def BODY_CHARS(body, mass, volume, center, inertia):
    """BODY_CHARS(body, mass, volume, center, inertia): override mass characteristics;
    inertia is 9 numbers (a symmetric positive definite tensor about the centre)."""
    fn = 'BODY_CHARS'
    _check_body(fn, body)
    mass = _pos(fn, 'mass', mass)
    volume = _pos(fn, 'volume', volume)
    center = _vec(fn, 'center', center)
    J = _vec(fn, 'inertia', inertia, 9)
    if body._own:
        try:
            _m.body_chars(body._sol._h, body._id, mass, volume, center, J)
        except ValueError as e:
            raise ValueError('%s: %s' % (fn, e)) from None
    else:
        body._extra()['chars'] = (mass, volume, center, J)


def INITIAL_VELOCITY(body, linear, angular):
    """INITIAL_VELOCITY(body, linear, angular): both spatial (angular is stored as the
    referential Ω = Λᵀω)."""
    fn = 'INITIAL_VELOCITY'
    _check_body(fn, body)
    lin = _vec(fn, 'linear', linear)
    ang = _vec(fn, 'angular', angular)
    if body.kind == 'OBSTACLE' and (any(lin) or any(ang)):
        raise ValueError('%s: body %d is an OBSTACLE: it cannot be given a velocity' % (fn, body._id))
    if body._own:
        _m.body_velocity(body._sol._h, body._id, lin, ang)


def MASS_CENTER(body):
    """MASS_CENTER(body) -> the referential mass centre."""
    return _check_body('MASS_CENTER', body).center


# ---------------------------------------------------------------- loads


class TimeSeries:
    __slots__ = ('_cap', 'times', 'values')

    def __call__(self, t):
        return _m.time_series_eval(self._cap, float(t))


def TIME_SERIES(points):
    """TIME_SERIES([t0, v0, t1, v1, ...]) or TIME_SERIES(path of a file with 't v' lines)."""
    fn = 'TIME_SERIES'
    if isinstance(points, str):
        try:
            with open(points) as f:
                points = [float(x) for line in f for x in line.split()[:2] if not line.lstrip().startswith('#')]
        except OSError as e:
            raise ValueError('%s: cannot read %r: %s' % (fn, points, e.strerror)) from None
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
    if body.kind == 'OBSTACLE':
        raise ValueError('%s: body %d is an OBSTACLE: loads on it have no effect' % (fn, body._id))
    if body.kind == 'FINITE_ELEMENT' and kind == 1:
        raise ValueError('%s: body %d is FINITE_ELEMENT: a torque has no meaning for it, apply forces at points' % (fn, body._id))
    if body.kind == 'FINITE_ELEMENT' and callable(value) and not isinstance(value, TimeSeries):
        raise ValueError('%s: body %d is FINITE_ELEMENT: a callback load is not supported for it yet (a number or a TIME_SERIES is)' % (fn, body._id))
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
    body with surface id surfid, following the deformed surface; value > 0 pushes into the
    body (traction -value n, n the outward normal); a number or a TIME_SERIES."""
    fn = 'PRESSURE'
    _check_body(fn, body)
    if body.kind != 'FINITE_ELEMENT':
        raise ValueError('%s: body %d is %s: only FINITE_ELEMENT bodies take a pressure on their surface' % (fn, body._id, body.kind))
    surfid = _int(fn, 'surfid', surfid)
    if isinstance(value, TimeSeries):
        v, ts = 1.0, value._cap
    elif _isnum(value):
        v, ts = _num(fn, 'value', value), None
    else:
        raise TypeError('%s: value must be a number or a TIME_SERIES, got %r' % (fn, value))
    if body._own:
        _m.body_pressure(body._sol._h, body._id, surfid, v, ts)


# ---------------------------------------------------------------- running


def OUTPUT(solfec, interval, compression='OFF'):
    """OUTPUT(solfec, interval): a frame every interval of simulated time."""
    fn = 'OUTPUT'
    _check_solfec(fn, solfec)
    _m.solfec_output(solfec._h, _pos(fn, 'interval', interval))


def CALLBACK(solfec, interval, data, callback):
    """CALLBACK(solfec, interval, data, callback): callback(*data) (or callback(data) when
    data is not a tuple) every interval, on every rank; returning 0 stops the run."""
    fn = 'CALLBACK'
    _check_solfec(fn, solfec)
    interval = _pos(fn, 'interval', interval)
    if not callable(callback):
        raise TypeError('%s: callback must be callable, got %r' % (fn, callback))
    _m.solfec_callback(solfec._h, interval, callback, data if isinstance(data, tuple) else (data,))


class Solver:
    """A constraint solver's settings (stored; they matter once constraints exist)."""
    __slots__ = ('kind', 'args')

    def __init__(self, kind, args):
        self.kind, self.args = kind, args

    def __getattr__(self, name):
        try:
            return object.__getattribute__(self, 'args')[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return '%s(%s)' % (self.kind, ', '.join('%s=%r' % kv for kv in self.args.items()))


def GAUSS_SEIDEL_SOLVER(epsilon, maxiter, failure='CONTINUE', diagepsilon=None, diagmaxiter=None,
                        diagsolver='PROJECTED_GRADIENT', data=None, callback=None, meritval=None,
                        reverse='OFF', variant='FULL', innerloops=None):
    fn = 'GAUSS_SEIDEL_SOLVER'
    args = dict(epsilon=_pos(fn, 'epsilon', epsilon), maxiter=_int(fn, 'maxiter', maxiter),
                failure=_choice(fn, 'failure', failure, ('CONTINUE', 'EXIT', 'CALLBACK')),
                diagepsilon=diagepsilon, diagmaxiter=diagmaxiter, diagsolver=diagsolver, data=data,
                callback=callback, meritval=meritval, reverse=reverse, variant=variant, innerloops=innerloops)
    if args['maxiter'] < 1:
        raise ValueError('%s: maxiter must be >= 1, got %d' % (fn, maxiter))
    return Solver('GAUSS_SEIDEL_SOLVER', args)


def NEWTON_SOLVER(meritval=1e-6, maxiter=1000, locdyn='ON', linmaxiter=10, maxmatvec=10000,
                  epsilon=1e-9, delta=0.0, omega=1.0, theta=0.25, presmooth=0):
    fn = 'NEWTON_SOLVER'
    args = dict(meritval=_pos(fn, 'meritval', meritval), maxiter=_int(fn, 'maxiter', maxiter), locdyn=locdyn,
                linmaxiter=linmaxiter, maxmatvec=maxmatvec, epsilon=epsilon, delta=delta, omega=omega,
                theta=theta, presmooth=presmooth)
    return Solver('NEWTON_SOLVER', args)


def PENALTY_SOLVER(*args, **kwargs):
    """PENALTY_SOLVER(...): contacts as spring-dashpot forces (SURFACE_MATERIAL model
    'SPRING_DASHPOT', spring, dashpot), joints by Gauss-Seidel. Solfec-1.0's variants take
    no or a few arguments; they are accepted and stored."""
    return Solver('PENALTY_SOLVER', dict(enumerate(args), **kwargs))


def IMBALANCE_TOLERANCE(solfec, tolerance, updatefreq=10):
    """IMBALANCE_TOLERANCE(solfec, tolerance, updatefreq=10): every updatefreq steps the load
    imbalance (max over ranks of the owned bodies' cost over the mean) is measured, and
    above tolerance (>= 1) METIS repartitions the bodies, which migrate. updatefreq = 0
    turns load balancing off (bodies stay on rank id mod size). Defaults: 1.3, 10."""
    _check_solfec('IMBALANCE_TOLERANCE', solfec)
    if not _isnum(tolerance) or not tolerance >= 1:
        raise ValueError('IMBALANCE_TOLERANCE: tolerance must be a number >= 1 (max load over mean load), got %r' % (tolerance,))
    if not isinstance(updatefreq, int) or isinstance(updatefreq, bool) or updatefreq < 0:
        raise ValueError('IMBALANCE_TOLERANCE: updatefreq must be an integer >= 0 (steps), got %r' % (updatefreq,))
    _m.solfec_balance(solfec._h, float(tolerance), updatefreq)


def GEOMETRIC_EPSILON(epsilon, solfec=None):
    """GEOMETRIC_EPSILON(value): contacts are kept while their gap is below value, which is
    also the tolerance of the narrow phase (default 1e-6); applies to every SOLFEC object."""
    globals()['_geometric_epsilon'] = _pos('GEOMETRIC_EPSILON', 'epsilon', epsilon)


def VIEWER():
    """VIEWER() -> False: moreau has no viewer; open the .xmf file in ParaView."""
    return False


_FAILURE = {'CONTINUE': 0, 'EXIT': 1, 'CALLBACK': 2}


def RUN(solfec, solver, duration):
    """RUN(solfec, solver, duration): advance the time by duration with the constraint
    solver (GAUSS_SEIDEL_SOLVER or NEWTON_SOLVER; -mb_solver_* options override); may be
    called again to continue. Collective."""
    fn = 'RUN'
    _check_solfec(fn, solfec)
    if solver is not None and not isinstance(solver, Solver):
        raise TypeError('%s: solver must be GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER or PENALTY_SOLVER, got %r' % (fn, solver))
    duration = _nonneg(fn, 'duration', duration)
    eps = globals().get('_geometric_epsilon')
    if eps is not None:
        _m.solfec_geps(solfec._h, eps)
    if solver is not None:
        a = solver.args
        if solver.kind == 'GAUSS_SEIDEL_SOLVER':
            cb = a.get('callback')
            if a['failure'] == 'CALLBACK' and not callable(cb):
                raise TypeError("%s: GAUSS_SEIDEL_SOLVER with failure='CALLBACK' needs a callable callback, got %r" % (fn, cb))
            _m.solfec_solver(solfec._h, 'gauss_seidel', a['epsilon'], a['maxiter'], _FAILURE[a['failure']],
                             cb if a['failure'] == 'CALLBACK' else None, a.get('data'))
        elif solver.kind == 'NEWTON_SOLVER':
            _m.solfec_solver(solfec._h, 'newton', a['meritval'], a['maxiter'], 0, None, None)
        else:  # contacts as spring-dashpot forces, joints by Gauss-Seidel
            _m.solfec_solver(solfec._h, 'penalty', 1e-6, 1000, 0, None, None)
    _m.solfec_run(solfec._h, duration)


# ---------------------------------------------------------------- adaptive time stepping

_ADAPT_KINDS = ('FIXED', 'CURVATURE', 'TRUNCATION', 'LOCAL_ERROR', 'APPARENT_FREQUENCY')


def TIME_ADAPT(solfec, kind, dtmin=None, dtmax=None, **params):
    """TIME_ADAPT(solfec, kind, dtmin, dtmax, **params): let a step-size controller choose
    the time steps of the following RUNs (moreau's own command; doc/adaptive.md). Each
    controller has its own parameters, given by keyword:
    'FIXED': the SOLFEC step, the curvature still goes to /history (no parameters);
    'CURVATURE' (Lages et al., seed 004): b > 0 of dt = max(dtmax exp(-b k), dtmin) (1),
      zeta > 0 (regularization intervals of zeta*dtmax; 1), alpha in [0, 1) (0.5 as in the
      paper), reject 'ON'/'OFF' (redo an interval whose curvature grew; 'OFF'),
      reject_tol in [0, 1) (0.01);
    'TRUNCATION' (seed 002): tol, the local truncation error allowed (length units; 1e-3);
    'LOCAL_ERROR' (Zienkiewicz-Xie 1991): tol, the relative error aimed at (1e-3), reject;
    'APPARENT_FREQUENCY' (Park-Underwood 1980): ratio in (0, 1], the step as a fraction of
      2/omega (0.8).
    A keyword the controller does not have is an error naming the ones it has.
    dtmin <= dtmax bound every step; without them dtmax is the SOLFEC step and dtmin a
    hundredth of dtmax. -mb_adapt_type and -mb_adapt_<name> options override. Collective."""
    fn = 'TIME_ADAPT'
    _check_solfec(fn, solfec)
    kind = _choice(fn, 'kind', kind, _ADAPT_KINDS)
    if dtmax is not None:
        dtmax = _pos(fn, 'dtmax', dtmax)
    if dtmin is not None:
        dtmin = _pos(fn, 'dtmin', dtmin)
    if dtmin is not None or dtmax is not None:
        if dtmax is None:
            dtmax = solfec.step
        if dtmin is None:
            dtmin = dtmax / 100.0
        if dtmin > dtmax:
            raise ValueError('%s: dtmin must be <= dtmax, got dtmin=%r > dtmax=%r' % (fn, dtmin, dtmax))
    values = {}
    for name, v in params.items():
        if name == 'reject':  # a switch: 'ON'/'OFF' as in Solfec, or a bool
            v = v if isinstance(v, bool) else _choice(fn, 'reject', v, ('ON', 'OFF')) == 'ON'
            values[name] = 1.0 if v else 0.0
        else:
            values[name] = float(_num(fn, name, v))
    try:
        _m.solfec_adapt(solfec._h, kind, dtmin or 0.0, dtmax or 0.0, values)
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None


# ---------------------------------------------------------------- constraints


class Constraint:
    """A joint: kind ('FIXPNT', 'FIXDIR', 'VELODIR', 'RIGLNK' as Solfec) and its index."""
    __slots__ = ('kind', 'index', 'bodies')

    def __repr__(self):
        return '<CONSTRAINT %s %d>' % (self.kind, self.index)


def _joint(fn, code, kind, body1, body2, p1, p2, direction=None, value=0.0):
    _check_body(fn, body1)
    if body2 is not None:
        _check_body(fn, body2)
        if body2._sol is not body1._sol:
            raise ValueError('%s: the two bodies belong to different SOLFEC objects' % fn)
    if body1.kind == 'OBSTACLE' and (body2 is None or body2.kind == 'OBSTACLE'):
        raise ValueError('%s: body %d is an OBSTACLE%s: a constraint between obstacles does nothing (obstacles never move)'
                         % (fn, body1._id, '' if body2 is None else ' and so is body %d' % body2._id))
    p1 = _vec(fn, 'point', p1)
    p2 = _vec(fn, 'point', p2) if p2 is not None else p1
    d = _vec(fn, 'direction', direction) if direction is not None else None
    if d is not None and not any(d):
        raise ValueError('%s: direction must be non-zero, got %r' % (fn, direction))
    ts = f = None
    if isinstance(value, TimeSeries):
        ts, value = value._cap, 0.0
    elif callable(value):
        f, value = value, 0.0
    else:
        value = _num(fn, 'value', value)
    c = Constraint()
    c.kind, c.bodies = kind, (body1, body2)
    c.index = _m.solfec_joint(body1._sol._h, code, body1._id, -1 if body2 is None else body2._id, p1, p2, d, value, ts, f)
    return c


def FIX_POINT(body, point):
    """FIX_POINT(body, point): the body's material point at the spatial point stays there."""
    return _joint('FIX_POINT', 1, 'FIXPNT', body, None, point, None)


def FIX_DIRECTION(body, point, direction):
    """FIX_DIRECTION(body, point, direction): the point does not move along direction."""
    return _joint('FIX_DIRECTION', 2, 'FIXDIR', body, None, point, None, direction)


def SET_VELOCITY(body, point, direction, value):
    """SET_VELOCITY(body, point, direction, value): the velocity of the point along direction
    is value: a number, a TIME_SERIES or a callable of time."""
    if not (_isnum(value) or isinstance(value, TimeSeries) or callable(value)):
        raise TypeError('SET_VELOCITY: value must be a number, a TIME_SERIES or a callable of time, got %r' % (value,))
    return _joint('SET_VELOCITY', 3, 'VELODIR', body, None, point, None, direction, value)


def PUT_RIGID_LINK(body1, body2, point1, point2):
    """PUT_RIGID_LINK(body1, body2 or None, point1, point2): the distance between point1 of
    body1 and point2 of body2 (a fixed point when body2 is None) stays constant."""
    return _joint('PUT_RIGID_LINK', 4, 'RIGLNK', body1, body2, point1, point2)


class Spring:
    """A spring made by PUT_SPRING: its bodies and index."""
    __slots__ = ('index', 'bodies')

    def __repr__(self):
        return '<SPRING %d>' % self.index


def PUT_SPRING(body1, point1, body2, point2, function=None, limits=None, direction=None,
               spring=None, dashpot=None, rest=None):
    """PUT_SPRING(body1, point1, body2 or None, point2, function, limits): a force along the
    line between point1 of body1 and point2 of body2 (a fixed point when body2 is None),
    positive when it pushes the points apart. Either function(stroke, velocity) -> force
    (Solfec-1.0), or the linear spring=k and dashpot=c (force = -k*stroke - c*velocity).
    stroke = length - rest length (rest=, by default the length when the run starts; with
    direction= the length is measured along it), velocity its rate; limits = (min, max): the spring
    acts only while min <= stroke <= max (limits=(-1e99, 0) pushes but never pulls);
    direction: a fixed spatial direction of the force (stroke measured along it)."""
    fn = 'PUT_SPRING'
    _check_body(fn, body1)
    if body2 is not None:
        _check_body(fn, body2)
        if body2._sol is not body1._sol:
            raise ValueError('%s: the two bodies belong to different SOLFEC objects' % fn)
        if body2 is body1:
            raise ValueError('%s: both ends on the same body %d' % (fn, body1._id))
    if body1.kind == 'OBSTACLE' and (body2 is None or body2.kind == 'OBSTACLE'):
        raise ValueError('%s: body %d is an OBSTACLE%s: a spring between obstacles does nothing (obstacles never move)'
                         % (fn, body1._id, '' if body2 is None else ' and so is body %d' % body2._id))
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
    d = _vec(fn, 'direction', direction) if direction is not None else None
    if d is not None and not any(d):
        raise ValueError('%s: direction must be non-zero, got %r' % (fn, direction))
    r = _num(fn, 'rest', rest) if rest is not None else float('nan')
    if rest is not None and d is None and not r > 0:
        raise ValueError('%s: rest must be > 0 for a spring along the line of its points, got %r' % (fn, rest))
    if d is None and p1 == p2:
        raise ValueError('%s: point1 and point2 coincide at %r: a spring of zero length has no direction; '
                         'move a point or give direction=' % (fn, p1))
    sp = Spring()
    sp.bodies = (body1, body2)
    sp.index = _m.solfec_spring(body1._sol._h, body1._id, -1 if body2 is None else body2._id, p1, p2, d,
                                r, k, c, lo, hi, function)
    return sp


def CRITICAL_STEP(solfec):
    """CRITICAL_STEP(solfec) -> an estimate of the explicit schemes' critical step 2/omega_max from
    the linear springs (k (1/m1 + 1/m2)) and the SPRING_DASHPOT materials (penalty contacts)
    between the two lightest bodies (k/m when one body moves); inf without either. Translational
    masses only, dashpots ignored. Collective."""
    _check_solfec('CRITICAL_STEP', solfec)
    return _m.solfec_critical_step(solfec._h)


_SCHEME_PARAMETERS = {'GALPHA': ('rho_inf',), 'EGALPHA': ('rho_b',), 'CHUNG_LEE': ('beta',)}


def SCHEME_PARAMETERS(solfec, scheme, **params):
    """SCHEME_PARAMETERS(solfec, scheme, name=value, ...): parameters of a time integration
    scheme, for every body that uses it: GALPHA rho_inf in [0, 1], EGALPHA rho_b in [0, 1],
    CHUNG_LEE beta in [1, 28/27]. The -mb_scheme_rho_inf, -mb_scheme_rho_b and
    -mb_scheme_beta options override these."""
    fn = 'SCHEME_PARAMETERS'
    _check_solfec(fn, solfec)
    if not isinstance(scheme, str):
        raise TypeError('%s: scheme must be a scheme name, got %r' % (fn, scheme))
    for name, value in params.items():
        value = _num(fn, name, value)
        try:
            _m.solfec_scheme_param(solfec._h, scheme, name, value)
        except ValueError as e:
            raise ValueError('%s: %s' % (fn, e)) from None


# ---------------------------------------------------------------- post-processing


def ENERGY(solfec, body=None):
    """ENERGY(solfec[, body]) -> (kinetic, internal, external, contact, friction). Collective."""
    fn = 'ENERGY'
    _check_solfec(fn, solfec)
    if body is not None:
        _check_body(fn, body)
    return _m.solfec_energy(solfec._h, -1 if body is None else body._id)


_SOLFEC_ITEMS = ('TIME', 'STEP', 'KINETIC', 'INTERNAL', 'EXTERNAL', 'CONTACT', 'FRICTION',
                 'ITERATIONS', 'ERROR', 'CONTACTS', 'CURVATURE', 'ESTIMATE', 'REJECTED', 'WALLTIME')
_BODY_ITEMS = ('CX', 'CY', 'CZ', 'DX', 'DY', 'DZ', 'VX', 'VY', 'VZ', 'SX', 'SY', 'SZ', 'SXY', 'SXZ', 'SYZ', 'MISES')


def HISTORY(solfec, items, t0=0.0, t1=float('inf'), skip=1, progress='OFF'):
    """HISTORY(solfec, items, t0, t1) -> [times, series1, series2, ...] read from the output
    file; items are (solfec, 'KINETIC'|'EXTERNAL'|...) (every step) or (body, point,
    'CX'|..|'DX'|..|'VZ'|'SX'|..|'SYZ'|'MISES') (every output frame; a FINITE_ELEMENT body's
    point is interpolated in its element, its stress taken at the point), a list of them or
    one. Collective."""
    fn = 'HISTORY'
    _check_solfec(fn, solfec)
    t0 = _num(fn, 't0', t0)
    t1 = float(t1) if _isnum(t1) else _num(fn, 't1', t1)
    if isinstance(items, tuple) or isinstance(items, str):
        items = [items]
    times, series = None, []
    for it in items:
        if isinstance(it, str):
            it = (solfec, it)
        if not isinstance(it, tuple):
            raise TypeError('%s: an item must be (solfec, name) or (body, point, name), got %r' % (fn, it))
        if len(it) == 2 and it[0] is solfec:
            name = _choice(fn, 'item', it[1], _SOLFEC_ITEMS)
            t, v = _m.solfec_history(solfec._h, name, t0, t1)
        elif len(it) == 3 and isinstance(it[0], Body):
            name = _choice(fn, 'item', it[2], _BODY_ITEMS)
            t, v = _m.solfec_history_body(solfec._h, it[0]._id, _vec(fn, 'point', it[1]), name, t0, t1)
        elif len(it) == 2 and isinstance(it[0], Body):
            raise ValueError('%s: per-body energy items like %r are not supported; use (solfec, %r)' % (fn, it[1], it[1]))
        else:
            raise ValueError('%s: an item must be (solfec, name) or (body, point, name), got %r' % (fn, it))
        if times is None:
            times = t
        elif len(t) != len(times) or any(abs(a - b) > 1e-12 * max(1.0, abs(a)) for a, b in zip(t, times)):
            raise ValueError('%s: items sampled at different times (steps and output frames); '
                             'ask for them in separate calls, or set OUTPUT(solfec, step)' % fn)
        series.append(v)
    return [times if times is not None else []] + series


def DURATION(solfec):
    """DURATION(solfec) -> (0, current time)."""
    _check_solfec('DURATION', solfec)
    return (0.0, solfec.time)


def BYLABEL(solfec, kind, label):
    """BYLABEL(solfec, 'BODY', label) -> the body, or None."""
    fn = 'BYLABEL'
    _check_solfec(fn, solfec)
    if kind == 'BODY':
        return solfec._labels.get(label)
    if kind == 'MATBULK':
        return next((m for m in solfec.materials if m.label == label), None)
    if kind == 'MATSURF':
        return next((m for m in solfec.surface_materials if m.label == label), None)
    raise ValueError("%s: kind must be 'BODY', 'MATBULK' or 'MATSURF', got %r" % (fn, kind))


def RANK():
    """RANK() -> this MPI rank."""
    return _RANK


def NCPU(solfec=None):
    """NCPU(solfec) -> the number of MPI ranks."""
    return _SIZE


def HERE(solfec, body):
    """HERE(solfec, body) -> whether this rank owns the body (its conf and velo are known)."""
    return _check_body('HERE', body)._own
