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
    'BYLABEL', 'MASS_CENTER', 'DURATION', 'SEEK', 'FORWARD', 'BACKWARD', 'RANK', 'NCPU', 'HERE',
    'TIME_ADAPT', 'CHECKPOINT', 'BODY_STATE', 'DISPLACEMENT', 'VELOCITY', 'STRESS',
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
    verbose ('ON'/'OFF' or True/False), mode ('READ' when OUTDIR already held results, which
    RUN then reads instead of computing; 'WRITE' otherwise, or with moreau -w), bodies,
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
            self._h, self.mode = _m.solfec_create(step, output)
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
    def constraints(self):
        """The constraints as Solfec-1.0's list of CONSTRAINT objects: in WRITE mode this
        rank's of the last step (as Solfec's, each rank has its own), in READ mode the read
        frame's, on every rank (none before a SEEK, FORWARD or BACKWARD)."""
        ids = {b._id: b for b in self.bodies}
        return [ConstraintState(r, ids) for r in _m.solfec_constraints(self._h)]

    @property
    def ncon(self):
        """len(solfec.constraints)."""
        return len(_m.solfec_constraints(self._h))

    @property
    def nbod(self):
        """The bodies this rank owns (Solfec-1.0: its domain's body count)."""
        return sum(1 for b in self.bodies if b._own)

    @property
    def outpath(self):
        """The output directory (Solfec-1.0's name for it)."""
        return self.outdir

    @property
    def h5(self):
        return _m.solfec_paths(self._h)[0]

    @property
    def xmf(self):
        return _m.solfec_paths(self._h)[1]

    def __repr__(self):
        return 'SOLFEC(%r, %g, %r)' % (self.analysis, self.step, self.outdir)


_CONSTRAINT_KINDS = ('CONTACT', 'FIXPNT', 'FIXDIR', 'VELODIR', 'RIGLNK', 'SPRING')


class ConstraintState:
    """Solfec-1.0's CONSTRAINT: kind ('CONTACT', 'FIXPNT', 'FIXDIR', 'VELODIR', 'RIGLNK',
    'SPRING': a PUT_SPRING's stroke at one of its limits), point (spatial), base (the local frame's axes t1, t2, n: 9 numbers), R (the reaction in
    that frame: base·R is the spatial force on the master body), gap, adjbod (the master
    body, or (master, slave)). In READ mode the frame's base is rebuilt from the stored
    normal, so R's tangential split is moreau's (R[2] and base·R are the run's). area, merit
    and matlab are not kept."""
    __slots__ = ('kind', 'point', 'base', 'R', 'gap', 'adjbod')

    def __init__(self, row, ids):
        kind, m, sl, self.point, self.base, self.R, self.gap = row
        self.kind = _CONSTRAINT_KINDS[kind] if 0 <= kind < len(_CONSTRAINT_KINDS) else str(kind)
        master = ids.get(m)
        self.adjbod = (master, ids.get(sl)) if sl >= 0 else master

    def __getattr__(self, name):
        if name in ('area', 'merit', 'matlab'):
            raise NotImplementedError("CONSTRAINT.%s: not supported in moreau: a constraint keeps its kind, point, base, R, gap and adjbod" % name)
        raise AttributeError('CONSTRAINT has no attribute %r (it has kind, point, base, R, gap, adjbod)' % name)

    def __repr__(self):
        return 'CONSTRAINT(%s at %r, R = %r)' % (self.kind, self.point, self.R)


def SOLFEC(analysis='DYNAMIC', step=1e-3, output='out'):
    """SOLFEC(analysis, step, output) -> the simulation object. Collective: it opens
    OUTDIR/<deck name>.h5 and .xmf (-mb_output_dir overrides OUTDIR)."""
    return Solfec(analysis, step, output)


# ---------------------------------------------------------------- materials


class BulkMaterial:
    __slots__ = ('model', 'label', 'young', 'poisson', 'density', 'tensile', 'fields', 'fracene')

    def __repr__(self):
        return 'BULK_MATERIAL(model=%r, label=%r, young=%g, poisson=%g, density=%g)' % (self.model, self.label, self.young, self.poisson, self.density)


def BULK_MATERIAL(solfec, model='KIRCHHOFF', label=None, young=1e9, poisson=0.25, density=1e3,
                  tensile=None, fields=None, fracene=None):
    """BULK_MATERIAL(solfec, model='KIRCHHOFF', label, young, poisson, density, tensile, fields,
    fracene): Solfec-1.0's order. tensile and fracene (fracture thresholds) and fields (of the
    TSANG_MARSDEN model) are kept and not used: moreau has no fracture."""
    fn = 'BULK_MATERIAL'
    _check_solfec(fn, solfec)
    m = BulkMaterial()
    m.tensile = float('inf') if tensile is None else _nonneg(fn, 'tensile', tensile)
    m.fracene = float('inf') if fracene is None else _nonneg(fn, 'fracene', fracene)
    m.fields = fields
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
    __slots__ = ('surf1', 'surf2', 'model', 'label', 'friction', 'cohesion', 'restitution', 'spring', 'dashpot', 'hpow')


def SURFACE_MATERIAL(solfec, surf1=None, surf2=None, model='SIGNORINI_COULOMB', label=None,
                     friction=0.0, cohesion=0.0, restitution=0.0, spring=0.0, dashpot=0.0, hpow=1.0):
    """SURFACE_MATERIAL(solfec, surf1, surf2, model, label, friction, cohesion, restitution,
    spring, dashpot, hpow): the material of contacts between surfaces surf1 and surf2 (both
    None: the default for pairs without their own; the last one given wins). dashpot < 0
    asks for critical damping, 2 sqrt(spring * m) with m the effective mass of the two bodies
    along the contact normal (Solfec-1.0). hpow (Hertz's power of the gap) must be 1."""
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
    m.dashpot = _num(fn, 'dashpot', dashpot)  # < 0: critical damping, as in Solfec-1.0
    m.hpow = _pos(fn, 'hpow', hpow)
    if m.hpow != 1:
        raise ValueError('%s: hpow %r is not supported in moreau: its spring-dashpot contact force is linear '
                         'in the gap (hpow=1); Hertz-like powers are not implemented' % (fn, hpow))
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


def HEX(nodes, i, j, k, volid, surfids=None, dx=None, dy=None, dz=None, surids=None):
    """HEX(nodes, i, j, k, volid, surfids, dx, dy, dz): a hexahedron of 8 nodes (24 numbers,
    or 8 triples) divided into i x j x k hexahedral elements (trilinear map; dx, dy, dz are
    relative spacings); surfids are the 6 face ids (bottom, top, sides 0154, 1265, 2376, 3047).
    Solfec-1.0's own source spells the keyword 'surids': both are accepted."""
    fn = 'HEX'
    if surids is not None:
        if surfids is not None:
            raise TypeError('%s: give surfids or surids (the same argument), not both' % fn)
        surfids = surids
    if surfids is None:
        raise TypeError('%s: surfids (6 surface ids) is required' % fn)
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


def _append_convex(convex, shp):
    """Solfec's convex= argument: the new convex joins the collection convex (a shape or a
    list of shapes; moreau does not empty it) and the whole collection is returned."""
    if convex is None:
        return shp
    if isinstance(convex, list):
        return convex + [shp]
    if isinstance(convex, Shape):
        return [convex, shp]
    raise TypeError('CONVEX: convex must be a CONVEX object or a list of them, got %r' % (convex,))


def CONVEX(vertices, faces, volid=0, convex=None):
    """CONVEX(vertices, faces, volid, convex): faces = [n, v1 .. vn, surfid, n, ...], vertices
    counter-clockwise seen from outside; with convex (a CONVEX or a list) the result is that
    collection with the new convex added (a list)."""
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
    return _append_convex(convex, shp._validate(fn))


def HULL(points, volid=0, surfid=0, convex=None):
    """HULL(points, volid, surfid, convex): the convex hull of the points (with convex: that
    collection with the hull added, as CONVEX)."""
    fn = 'HULL'
    p = _flatten_points(fn, 'points', points)
    if len(p) < 12:
        raise ValueError('%s: points must hold at least 4 points, got %d' % (fn, len(p) // 3))
    shp = Shape('HULL')
    try:
        _m.shape_hull(shp._cap, p, _int(fn, 'volid', volid), _int(fn, 'surfid', surfid))
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None
    return _append_convex(convex, shp._validate(fn))


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
        s.kind, s._cap, s._nn = shape.kind, _m.shape_copy(shape._cap), shape._nn
        return s
    if isinstance(shape, list):
        return [COPY(s) for s in shape]
    raise TypeError('COPY: expected a shape or a list of shapes, got %r' % (shape,))


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
        raise TypeError('%s: shape must be SPHERE, HEX, CONVEX, HULL, MESH, a list of them or a point (x, y, z), got %r'
                        % (fn, obj))


def SCALE(shape, coefs):
    """SCALE(shape, coefs): scales a shape (or a list of shapes) in place and returns it, as
    Solfec-1.0: the vertices and mesh nodes of CONVEX, HULL, HEX and MESH shapes are
    multiplied by (cx, cy, cz) about the origin; a SPHERE keeps its centre and its radius is
    multiplied by cx. SCALE(point, coefs) returns the scaled point (x cx, y cy, z cz).
    coefs must be > 0 (a negative one would turn the shape inside out)."""
    fn = 'SCALE'
    c = _vec(fn, 'coefs', coefs)
    if not all(x > 0 for x in c):
        raise ValueError('%s: coefs must be > 0, got %r' % (fn, coefs))
    if _is_point(shape):
        return tuple(p * k for p, k in zip(shape, c))
    _scale(fn, shape, c)
    return shape


def PIPE(pnt, dir, rin, thi, ndir, nrad, nthi, volid, surfids):
    """PIPE(pnt, dir, rin, thi, ndir, nrad, nthi, volid, surfids): a MESH of hexahedra filling
    a pipe along dir from pnt (its length is |dir|), inner radius rin, thickness thi, with
    ndir divisions along the axis, nrad around it and nthi across the wall; surfids are the
    ids of its bottom (at pnt), top, inner and outer faces, as Solfec-1.0."""
    fn = 'PIPE'
    p0 = _vec(fn, 'pnt', pnt)
    d = _vec(fn, 'dir', dir)
    rin, thi = _pos(fn, 'rin', rin), _pos(fn, 'thi', thi)
    ndir, nrad, nthi = _int(fn, 'ndir', ndir), _int(fn, 'nrad', nrad), _int(fn, 'nthi', nthi)
    for name, v, lo in (('ndir', ndir, 1), ('nrad', nrad, 3), ('nthi', nthi, 1)):
        if v < lo:
            raise ValueError('%s: %s must be >= %d, got %d' % (fn, name, lo, v))
    volid = _int(fn, 'volid', volid)
    try:
        sid = [int(x) for x in surfids]
    except (TypeError, ValueError):
        raise TypeError('%s: surfids must be 4 integers (bottom, top, inner, outer), got %r' % (fn, surfids)) from None
    if len(sid) != 4:
        raise ValueError('%s: surfids must be 4 integers (bottom, top, inner, outer), got %d' % (fn, len(sid)))
    length = _math.sqrt(sum(x * x for x in d))
    if length == 0:
        raise ValueError('%s: dir must be non-zero, got %r' % (fn, dir))
    n = [x / length for x in d]
    a = (1.0, 0.0, 0.0) if abs(n[0]) < 0.9 else (0.0, 1.0, 0.0)
    a = [a[i] - n[i] * sum(a[j] * n[j] for j in range(3)) for i in range(3)]
    la = _math.sqrt(sum(x * x for x in a))
    a = [x / la for x in a]
    b = [n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]]  # n x a: (a, b, n) right-handed

    def node(i, j, k):
        return (i * nrad + j % nrad) * (nthi + 1) + k
    nodes = []
    for i in range(ndir + 1):
        for j in range(nrad):
            th = 2.0 * _math.pi * j / nrad
            for k in range(nthi + 1):
                r, z = rin + thi * k / nthi, length * i / ndir
                nodes += [p0[m] + z * n[m] + r * (_math.cos(th) * a[m] + _math.sin(th) * b[m]) for m in range(3)]
    elements, faces = [], [sid[0]]
    for i in range(ndir):
        for j in range(nrad):
            for k in range(nthi):
                base = [node(i, j, k), node(i, j, k + 1), node(i, j + 1, k + 1), node(i, j + 1, k)]  # ccw seen from the top
                top = [node(i + 1, j, k), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i + 1, j + 1, k)]
                elements += [8] + base + top + [volid]
                if i == 0:
                    faces += [4] + base + [sid[0]]
                if i == ndir - 1:
                    faces += [4] + top + [sid[1]]
                if k == 0:
                    faces += [4, base[0], base[3], top[3], top[0], sid[2]]
                if k == nthi - 1:
                    faces += [4, base[1], base[2], top[2], top[1], sid[3]]
    try:
        return MESH(nodes, elements, faces)
    except (TypeError, ValueError) as e:
        raise ValueError('%s: %s' % (fn, e)) from None


def MESH2CONVEX(mesh):
    """MESH2CONVEX(mesh): the mesh's elements as a list of convex pieces (a copy): a rigid
    body's MESH is already such a compound in moreau; the result cannot be a FINITE_ELEMENT
    body's mesh."""
    if not (isinstance(mesh, Shape) and mesh._nn):
        raise TypeError('MESH2CONVEX: mesh must be a MESH (or HEX) object, got %r' % (mesh,))
    s = COPY(mesh)
    s.kind, s._nn = 'CONVEX', 0
    return s


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
    def tensor(self):
        """Solfec-1.0's name of the referential inertia tensor (rigid bodies)."""
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


def BODY(solfec, kind, shape, material, label=None, form=None, mesh=None, modal=None, base=None):
    """BODY(solfec, kind, shape, material, label, form): kinds 'RIGID', 'OBSTACLE',
    'PSEUDO_RIGID' and 'FINITE_ELEMENT' (both Saint Venant-Kirchhoff from the material's
    young and poisson; a FINITE_ELEMENT body's shape is its mesh, a MESH or a HEX, and
    form 'TL', total Lagrangian (the default), or 'BC', body co-rotational: linear
    elasticity in a frame turning with the body)."""
    fn = 'BODY'
    if type(solfec) is not Solfec:
        _check_solfec(fn, solfec)
    if kind not in _KIND_CODE:
        if kind in _LATER_KINDS:
            raise ValueError("%s: kind %r is not supported yet (RIGID, OBSTACLE, PSEUDO_RIGID and FINITE_ELEMENT are)" % (fn, kind))
        raise ValueError("%s: kind must be 'RIGID', 'OBSTACLE', 'PSEUDO_RIGID' or 'FINITE_ELEMENT', got %r" % (fn, kind))
    if isinstance(material, str):  # Solfec-1.0: a bulk material's label
        found = [m for m in solfec.materials if m.label == material]
        if not found:
            raise TypeError('%s: material must be a BULK_MATERIAL object or the label of one, got %r (no BULK_MATERIAL has that label)' % (fn, material))
        material = found[-1]
    if type(material) is not BulkMaterial:
        raise TypeError('%s: material must be a BULK_MATERIAL object or the label of one, got %r' % (fn, material))
    if kind in ('PSEUDO_RIGID', 'FINITE_ELEMENT'):  # checked on every rank: the same error everywhere
        if not material.young > 0:
            raise ValueError("%s: a %s body needs Young's modulus > 0, got young=%r" % (fn, kind, material.young))
        if not -1 < material.poisson < 0.5:
            raise ValueError("%s: a %s body needs Poisson's ratio in (-1, 0.5), got poisson=%r" % (fn, kind, material.poisson))
    if kind == 'FINITE_ELEMENT':
        if mesh is not None:
            raise ValueError("%s: a FINITE_ELEMENT body with a separate mesh= is not supported yet: give the MESH (or HEX) as its shape" % fn)
        if form not in (None, 'TL', 'BC'):
            raise ValueError("%s: FINITE_ELEMENT form %r is not supported yet: 'TL' (total Lagrangian) and 'BC' (body co-rotational) are" % (fn, form))
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
    if kind == 'FINITE_ELEMENT' and form == 'BC' and b._own:
        _m.body_form(h, bid, form)
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


def BODY_CHARS(body, mass, volume, center, tensor=None, inertia=None):
    """BODY_CHARS(body, mass, volume, center, tensor): override mass characteristics;
    tensor (Solfec-1.0's name; inertia= is moreau's older one) is 9 numbers, a symmetric
    positive definite inertia tensor about the centre."""
    fn = 'BODY_CHARS'
    _check_body(fn, body)
    if (tensor is None) == (inertia is None):
        raise TypeError('%s: give the inertia tensor once, as tensor (or inertia)' % fn)
    inertia = tensor if inertia is None else inertia
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


def MASS_CENTER(shape):
    """MASS_CENTER(shape) -> the mass centre of a shape (or list of shapes), or of a BODY
    (its referential mass centre)."""
    if isinstance(shape, Body):
        return shape.center
    return tuple(_m.shape_massprops(_parts('MASS_CENTER', shape, []), 1.0)[2])


# ---------------------------------------------------------------- loads


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
    if body.kind == 'OBSTACLE':
        raise ValueError('%s: body %d is an OBSTACLE: loads on it have no effect' % (fn, body._id))
    if body.kind == 'FINITE_ELEMENT' and kind == 1:
        raise ValueError('%s: body %d is FINITE_ELEMENT: a torque has no meaning for it, apply forces at points' % (fn, body._id))
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
    if solfec.mode == 'READ':  # Solfec-1.0: ignored in READ mode
        return
    _m.solfec_output(solfec._h, _pos(fn, 'interval', interval))


def CHECKPOINT(solfec, steps=0, interval=0.0, wall=0.0):
    """CHECKPOINT(solfec, steps=0, interval=0.0, wall=0.0): write restart data (OUTDIR/<deck
    name>.chk) every `steps` steps, every `interval` of simulated time and every `wall`
    seconds of wall-clock time (0: not by that measure); also at the end of a RUN that took a
    second or more, and at once on SIGTERM, SIGUSR1 or SIGINT, which then end the job with
    status 75. `moreau -mb_restart deck.py` continues it. moreau's own (not in Solfec-1.0);
    the -mb_checkpoint_steps, _interval and _wall options win over it."""
    fn = 'CHECKPOINT'
    _check_solfec(fn, solfec)
    if solfec.mode == 'READ':
        return
    if not isinstance(steps, _numbers.Integral) or isinstance(steps, bool) or steps < 0:
        raise ValueError('%s: steps must be an integer >= 0, got %r' % (fn, steps))
    _m.solfec_checkpoint(solfec._h, int(steps), _nonneg(fn, 'interval', interval), _nonneg(fn, 'wall', wall))


def CALLBACK(solfec, interval, data, callback):
    """CALLBACK(solfec, interval, data, callback): callback(*data) (or callback(data) when
    data is not a tuple) every interval, on every rank; returning 0 stops the run."""
    fn = 'CALLBACK'
    _check_solfec(fn, solfec)
    if solfec.mode == 'READ':  # Solfec-1.0: never registered in READ mode
        return
    interval = _pos(fn, 'interval', interval)
    if not callable(callback):
        raise TypeError('%s: callback must be callable, got %r' % (fn, callback))
    _m.solfec_callback(solfec._h, interval, callback, data if isinstance(data, tuple) else (data,))


_SOLVER_STATS = ('iters', 'error', 'rerhist', 'merhist', 'mvhist', 'itershist')


def _onoff(fn, name, v):
    return _choice(fn, name, v, ('ON', 'OFF'))


# the settings a deck may assign after creation (Solfec-1.0's read/write members), checked
_SOLVER_SETTABLE = {
    'GAUSS_SEIDEL_SOLVER': {'epsilon': _pos, 'meritval': _pos, 'diagepsilon': _pos,
                            'maxiter': lambda fn, n, v: _posint(fn, n, v), 'diagmaxiter': lambda fn, n, v: _posint(fn, n, v),
                            'innerloops': lambda fn, n, v: _posint(fn, n, v),
                            'diagsolver': lambda fn, n, v: _choice(fn, n, v, _DIAGSOLVERS),
                            'reverse': _onoff, 'variant': lambda fn, n, v: _choice(fn, n, v, _GS_VARIANTS)},
    'NEWTON_SOLVER': {'meritval': _pos, 'epsilon': _pos, 'omega': _pos, 'delta': _nonneg,
                      'theta': lambda fn, n, v: _theta(fn, v),
                      'maxiter': lambda fn, n, v: _posint(fn, n, v), 'linmaxiter': lambda fn, n, v: _posint(fn, n, v),
                      'maxmatvec': lambda fn, n, v: _posint(fn, n, v),
                      'locdyn': _onoff, 'gsflag': _onoff, 'linver': lambda fn, n, v: _choice(fn, n, v, ('GMRES', 'DIAG'))},
    'PENALTY_SOLVER': {},
}


class Solver:
    """A constraint solver's settings: GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER or PENALTY_SOLVER.
    Every argument reads as an attribute (gs.epsilon, gs.meritval, ...); Solfec-1.0's
    read/write members can be assigned (gs.epsilon = 1e-6, gs.reverse = 'ON') and take
    effect at the next RUN. Solfec's run statistics (iters, error, rerhist, merhist) are not
    kept: HISTORY(solfec, 'ITERATIONS') and HISTORY(solfec, 'ERROR') give them per step."""
    __slots__ = ('kind', 'args')

    def __init__(self, kind, args):
        object.__setattr__(self, 'kind', kind)
        object.__setattr__(self, 'args', args)

    def __getattr__(self, name):
        try:
            return object.__getattribute__(self, 'args')[name]
        except KeyError:
            pass
        kind = object.__getattribute__(self, 'kind')
        if name in _SOLVER_STATS:
            raise AttributeError("%s.%s: not supported in moreau: the solver keeps no run statistics; "
                                 "use HISTORY(solfec, 'ITERATIONS') or HISTORY(solfec, 'ERROR')" % (kind, name))
        raise AttributeError('%s has no attribute %r' % (kind, name))

    def __setattr__(self, name, value):
        fn = '%s.%s' % (self.kind, name)
        check = _SOLVER_SETTABLE[self.kind].get(name)
        if check is None:
            raise AttributeError('%s: not a writable setting; writable: %s' % (fn, ', '.join(sorted(_SOLVER_SETTABLE[self.kind])) or 'none'))
        self.args[name] = check(fn, 'value', value)

    def __repr__(self):
        return '%s(%s)' % (self.kind, ', '.join('%s=%r' % kv for kv in self.args.items()))


_DIAGSOLVERS = ('SEMISMOOTH_NEWTON', 'PROJECTED_GRADIENT', 'DE_SAXCE_FENG', 'PROJECTED_NEWTON')
_GS_VARIANTS = ('FULL', 'MIDDLE_JACOBI', 'BOUNDARY_JACOBI')


def _posint(fn, name, x):
    v = _int(fn, name, x)
    if v < 1:
        raise ValueError('%s: %s must be >= 1, got %d' % (fn, name, v))
    return v


def _theta(fn, x):
    v = _num(fn, 'theta', x)
    if not 0 < v <= 1:
        raise ValueError('%s: theta must be in (0, 1], got %r' % (fn, x))
    return v


def GAUSS_SEIDEL_SOLVER(epsilon, maxiter, meritval=1.0, failure='CONTINUE', diagepsilon=None, diagmaxiter=None,
                        diagsolver='SEMISMOOTH_NEWTON', data=None, callback=None,
                        reverse='OFF', variant='FULL', innerloops=1):
    """GAUSS_SEIDEL_SOLVER(epsilon, maxiter, meritval, failure, diagepsilon, diagmaxiter,
    diagsolver, data, callback): Solfec-1.0's order and defaults. epsilon: the relative change
    of the reactions that ends the iterations; maxiter their cap; meritval (default 1) is
    kept and not used (as in Solfec, whose manual says 'unused'); failure 'CONTINUE', 'EXIT'
    or 'CALLBACK': callback(solver, data) (data a tuple: callback(solver, *data); None:
    callback(solver)) on every rank, returning 0 stops the run. diagepsilon, diagmaxiter,
    diagsolver, and Solfec's members reverse, variant, innerloops (also keywords here) are
    checked and kept; moreau's sweep does not use them."""
    fn = 'GAUSS_SEIDEL_SOLVER'
    eps, mi = _pos(fn, 'epsilon', epsilon), _posint(fn, 'maxiter', maxiter)
    mv = _pos(fn, 'meritval', meritval)
    failure = _choice(fn, 'failure', failure, ('CONTINUE', 'EXIT', 'CALLBACK'))
    if callback is not None and not callable(callback):
        raise TypeError('%s: callback must be callable, got %r' % (fn, callback))
    if failure == 'CALLBACK' and callback is None:
        raise ValueError("%s: failure='CALLBACK' needs a callback" % fn)
    # Solfec's defaults of the diagonal block solver
    de = max(0.01 * min(eps, mv, 1e-4), 2.220446049250313e-16) if diagepsilon is None else _pos(fn, 'diagepsilon', diagepsilon)
    dm = max(100, mi // 100) if diagmaxiter is None else _posint(fn, 'diagmaxiter', diagmaxiter)
    args = dict(epsilon=eps, maxiter=mi, meritval=mv, failure=failure, diagepsilon=de, diagmaxiter=dm,
                diagsolver=_choice(fn, 'diagsolver', diagsolver, _DIAGSOLVERS), data=data, callback=callback,
                reverse=_onoff(fn, 'reverse', reverse), variant=_choice(fn, 'variant', variant, _GS_VARIANTS),
                innerloops=_posint(fn, 'innerloops', innerloops))
    return Solver('GAUSS_SEIDEL_SOLVER', args)


def NEWTON_SOLVER(meritval=1e-8, maxiter=1000, locdyn='ON', linver='GMRES', linmaxiter=10, maxmatvec=None,
                  epsilon=0.25, delta=0.0, theta=0.25, omega=None, gsflag='ON', reldelta='OFF', presmooth=0):
    """NEWTON_SOLVER(meritval, maxiter, locdyn, linver, linmaxiter, maxmatvec, epsilon, delta,
    theta, omega, gsflag, reldelta): Solfec-1.0's order and defaults (meritval 1e-8, maxiter
    1000). moreau's semismooth Newton with GMRES takes meritval as its tolerance and maxiter
    as its cap; the other settings are checked and kept, not used (presmooth: moreau's)."""
    fn = 'NEWTON_SOLVER'
    mv, mi = _pos(fn, 'meritval', meritval), _posint(fn, 'maxiter', maxiter)
    lm = _posint(fn, 'linmaxiter', linmaxiter)
    args = dict(meritval=mv, maxiter=mi, locdyn=_onoff(fn, 'locdyn', locdyn),
                linver=_choice(fn, 'linver', linver, ('GMRES', 'DIAG')), linmaxiter=lm,
                maxmatvec=lm * mi if maxmatvec is None else _posint(fn, 'maxmatvec', maxmatvec),
                epsilon=_pos(fn, 'epsilon', epsilon), delta=_nonneg(fn, 'delta', delta), theta=_theta(fn, theta),
                omega=0.01 * mv if omega is None else _pos(fn, 'omega', omega), gsflag=_onoff(fn, 'gsflag', gsflag),
                reldelta=_choice(fn, 'reldelta', reldelta, ('OFF', 'avgWii', 'minWii', 'maxWii')),
                presmooth=_int(fn, 'presmooth', presmooth))
    return Solver('NEWTON_SOLVER', args)


def PENALTY_SOLVER(variant='IMPLICIT'):
    """PENALTY_SOLVER(variant): contacts as spring-dashpot forces (SURFACE_MATERIAL model
    'SPRING_DASHPOT', spring, dashpot), joints by Gauss-Seidel. variant 'IMPLICIT' (Solfec's
    default) or 'EXPLICIT': moreau has one variant, Solfec's 'EXPLICIT' normal force
    R_N = max(0, -k gap - c V_N) from the gap and velocity at the start of the step;
    'IMPLICIT' is accepted and computed the same way (Solfec's implicit variant solves the
    force with the mid-step gap, stable for stiffer springs: keep the step below
    CRITICAL_STEP)."""
    return Solver('PENALTY_SOLVER', dict(variant=_choice('PENALTY_SOLVER', 'variant', variant, ('IMPLICIT', 'EXPLICIT'))))


def IMBALANCE_TOLERANCE(solfec, tolerance, weightfactor=1.0, updatefreq=10):
    """IMBALANCE_TOLERANCE(solfec, tolerance, weightfactor=1.0, updatefreq=10): Solfec-1.0's
    order. Every updatefreq steps the load imbalance (max over ranks of the owned bodies'
    cost over the mean) is measured, and above tolerance (>= 1) METIS repartitions the
    bodies, which migrate. updatefreq = 0 turns load balancing off (bodies stay on rank id
    mod size). weightfactor in [0, 1] (Solfec's weight of the local dynamics) is checked and
    not used: a body's cost is 1 plus its constraints. Defaults: 1.3, 10."""
    _check_solfec('IMBALANCE_TOLERANCE', solfec)
    if not _isnum(weightfactor) or not 0 <= weightfactor <= 1:
        raise ValueError('IMBALANCE_TOLERANCE: weightfactor must be a number in [0, 1], got %r' % (weightfactor,))
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
            if a['failure'] == 'CALLBACK':
                def failed(_, cb=cb, sv=solver, d=a.get('data')):  # Solfec-1.0: callback(solver, data...)
                    if d is None:
                        return cb(sv)
                    return cb(sv, *d) if isinstance(d, tuple) else cb(sv, d)
                cb = failed
            else:
                cb = None
            _m.solfec_solver(solfec._h, 'gauss_seidel', a['epsilon'], a['maxiter'], _FAILURE[a['failure']], cb, None)
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
      reject_tol in [0, 1) (0.01), length > 0 (L: points' displacements enter the curvature
      as d/L; 1), unit_free 'ON'/'OFF' (time in units of dtmax as well, so that the curvature
      and b are pure numbers; 'OFF');
    'TRUNCATION' (seed 002): tol, the local truncation error allowed (length units; 1e-3);
    'LOCAL_ERROR' (Zienkiewicz-Xie 1991): tol, the relative error aimed at (1e-3), reject
      'ON'/'OFF';
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
    values = {}  # by name: the controller checks each (a name it lacks, a switch, a range)
    for name, v in params.items():
        if isinstance(v, bool):  # a switch: True/False or 'ON'/'OFF' as in Solfec
            values[name] = 'ON' if v else 'OFF'
        elif isinstance(v, str):
            values[name] = v
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


def _no_strength(fn, strength):
    """Solfec's strength: a joint deleted once its reaction passes it; moreau's joints never
    break, so only an infinite strength (Solfec's default) is accepted."""
    if strength is None or (_isnum(strength) and (_math.isinf(strength) or strength >= 1.7e308)):
        return
    raise ValueError('%s: strength %r is not supported in moreau: its joints never break (leave strength out)' % (fn, strength))


def FIX_POINT(body, point, strength=None):
    """FIX_POINT(body, point, strength): the body's material point at the spatial point
    stays there; a finite strength (a joint that breaks) is refused."""
    _no_strength('FIX_POINT', strength)
    return _joint('FIX_POINT', 1, 'FIXPNT', body, None, point, None)


def FIX_DIRECTION(body, point, direction, body2=None, point2=None):
    """FIX_DIRECTION(body, point, direction, body2, point2): the point does not move along
    direction; Solfec's relative form (body2, point2) is refused."""
    if body2 is not None or point2 is not None:
        raise ValueError('FIX_DIRECTION: body2 and point2 (a direction fixed relative to a second body) are not supported in moreau; '
                         'the direction is fixed in space')
    return _joint('FIX_DIRECTION', 2, 'FIXDIR', body, None, point, None, direction)


def _series_slope(ts, t):
    """The slope of the piecewise linear series at time t (left-hand: the segment that ends
    at a breakpoint), zero outside its times."""
    T, V = ts.times, ts.values
    for k in range(1, len(T)):
        if T[k - 1] < t <= T[k]:
            return (V[k] - V[k - 1]) / (T[k] - T[k - 1])
    return 0.0


def _series_integral(ts, t):
    """The integral of the series from its first time to t (the series constant outside)."""
    T, V = ts.times, ts.values
    if t <= T[0]:
        return 0.0
    acc = 0.0
    for k in range(1, len(T)):
        if t <= T[k]:
            vt = V[k - 1] + (V[k] - V[k - 1]) * (t - T[k - 1]) / (T[k] - T[k - 1])
            return acc + 0.5 * (V[k - 1] + vt) * (t - T[k - 1])
        acc += 0.5 * (V[k - 1] + V[k]) * (T[k] - T[k - 1])
    return acc + V[-1] * (t - T[-1])


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
    integral from its first time."""
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
    if d is None and p1 == p2:
        raise ValueError('%s: point1 and point2 coincide at %r: a spring of zero length has no direction; '
                         'move a point or give direction=' % (fn, p1))
    sp = Spring()
    sp.bodies = (body1, body2)
    sp.index = _m.solfec_spring(body1._sol._h, body1._id, -1 if body2 is None else body2._id, p1, p2, d,
                                r, k, c, lo, hi, alo, ahi, function)
    return sp


def CRITICAL_STEP(solfec):
    """CRITICAL_STEP(solfec) -> an estimate of the explicit schemes' critical step 2/omega_max from
    the linear springs (k (1/m1 + 1/m2)) and the SPRING_DASHPOT materials (penalty contacts)
    between the two lightest bodies (k/m when one body moves); inf without either. Translational
    masses only, dashpots ignored. Collective."""
    _check_solfec('CRITICAL_STEP', solfec)
    return _m.solfec_critical_step(solfec._h)


def SCHEME_PARAMETERS(solfec, scheme, **params):
    """SCHEME_PARAMETERS(solfec, scheme, name=value, ...): parameters of a time integration
    scheme, for every body that uses it: GALPHA rho_inf in [0, 1], EGALPHA rho_b in [0, 1],
    CHUNG_LEE beta in [1, 28/27]. Each keyword goes to the scheme by name; a name the scheme
    does not have is an error naming the ones it has. The -mb_scheme_rho_inf,
    -mb_scheme_rho_b and -mb_scheme_beta options override these."""
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


def ENERGY(solfec, object=None, body=None):
    """ENERGY(solfec[, object]) -> (kinetic, internal, external, contact, friction); object
    (Solfec-1.0's keyword; body= is moreau's older one): the SOLFEC object or None (all
    bodies), a BODY, or a list of bodies (summed). Collective."""
    fn = 'ENERGY'
    _check_solfec(fn, solfec)
    if body is not None:
        if object is not None:
            raise TypeError('%s: give object or body, not both' % fn)
        object = body
    if object is None or object is solfec:
        return _m.solfec_energy(solfec._h, -1)
    if isinstance(object, list):
        tot = [0.0] * 5
        for b in object:
            for k, e in enumerate(_m.solfec_energy(solfec._h, _check_body(fn, b)._id)):
                tot[k] += e
        return tuple(tot)
    return _m.solfec_energy(solfec._h, _check_body(fn, object)._id)


_SOLFEC_ITEMS = ('TIME', 'STEP', 'KINETIC', 'INTERNAL', 'EXTERNAL', 'CONTACT', 'FRICTION',
                 'ITERATIONS', 'ERROR', 'CONTACTS', 'CURVATURE', 'ESTIMATE', 'REJECTED', 'WALLTIME')
_BODY_ITEMS = ('CX', 'CY', 'CZ', 'DX', 'DY', 'DZ', 'VX', 'VY', 'VZ', 'SX', 'SY', 'SZ', 'SXY', 'SXZ', 'SYZ', 'MISES')


def HISTORY(solfec, items, t0=0.0, t1=float('inf'), skip=1, progress='OFF'):
    """HISTORY(solfec, items, t0, t1) -> [times, series1, series2, ...] read from the output
    file; items are (solfec, 'KINETIC'|'EXTERNAL'|...) (every step) or (body, point,
    'CX'|..|'DX'|..|'VZ'|'SX'|..|'SYZ'|'MISES') (every output frame; a FINITE_ELEMENT body's
    point is interpolated in its element, its stress taken at the point) or (body,
    'KINETIC'|'INTERNAL'|'EXTERNAL') (every output frame), a list of them or one; items of
    both kinds come on one time axis. Collective."""
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
            name = _choice(fn, 'item', it[1], ('KINETIC', 'INTERNAL', 'EXTERNAL', 'CONTACT', 'FRICTION'))
            if name in ('CONTACT', 'FRICTION'):
                raise ValueError('%s: a body\'s %s work is not kept (moreau sums it over the bodies): use (solfec, %r)' % (fn, name, name))
            t, v = _m.solfec_history_body_energy(solfec._h, it[0]._id, name, t0, t1)
        else:
            raise ValueError('%s: an item must be (solfec, name) or (body, point, name), got %r' % (fn, it))
        series.append((list(t), list(v)))
    if not series:
        return [[]]
    return _common_axis(series)


def _same_time(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _common_axis(series):
    """Items of one HISTORY call on one time axis, as Solfec-1.0 returns them: per-step
    items (solfec, 'KINETIC') and per-frame items (body, point, 'DX') together are sampled
    at the times all of them have (the output frames after the first step: /history has
    no record at t = 0)."""
    axis = min((t for t, _ in series), key=len)
    if all(len(t) == len(axis) and all(_same_time(a, b) for a, b in zip(t, axis)) for t, _ in series):
        return [axis] + [v for _, v in series]
    import bisect
    keep, picked = [], [[] for _ in series]
    for ta in axis:
        rows = []
        for t, _ in series:
            j = bisect.bisect_left(t, ta - 1e-9 * max(1.0, abs(ta)))
            rows.append(j if j < len(t) and _same_time(t[j], ta) else None)
        if all(j is not None for j in rows):
            keep.append(ta)
            for k, ((_, v), j) in enumerate(zip(series, rows)):
                picked[k].append(v[j])
    return [keep] + picked


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


def BYLABEL(solfec, kind, label):
    """BYLABEL(solfec, 'BODY', label) -> the body, or None."""
    fn = 'BYLABEL'
    _check_solfec(fn, solfec)
    if kind == 'BODY':
        return solfec._labels.get(label)
    if kind in ('BULK_MATERIAL', 'MATBULK'):
        return next((m for m in reversed(solfec.materials) if m.label == label), None)
    if kind in ('SURFACE_MATERIAL', 'MATSURF'):
        return next((m for m in reversed(solfec.surface_materials) if m.label == label), None)
    if kind == 'FIELD':
        return None  # moreau has no FIELD objects
    raise ValueError("%s: kind must be 'BODY', 'BULK_MATERIAL', 'SURFACE_MATERIAL' or 'FIELD' "
                     "(or the older 'MATBULK', 'MATSURF'), got %r" % (fn, kind))


def RANK():
    """RANK() -> this MPI rank."""
    return _RANK


def NCPU(solfec=None):
    """NCPU(solfec) -> the number of MPI ranks."""
    return _SIZE


def HERE(solfec, object):
    """HERE(solfec, object) -> whether this rank owns the BODY (its conf and velo are known),
    or, for a constraint (FIX_POINT, ..., PUT_SPRING), one of its bodies."""
    if isinstance(object, (Constraint, Spring)):
        return any(b is not None and b._own for b in object.bodies)
    return _check_body('HERE', object)._own


# ---------------------------------------------------------------- more of Solfec-1.0's functions

def _notice(fn, text):
    """A one-line notice on rank 0, once per function: a command accepted with no effect."""
    if fn not in _NOTICED:
        _NOTICED.add(fn)
        if _RANK == 0:
            print('moreau: %s: %s' % (fn, text), flush=True)


_NOTICED = set()
_WARNINGS = ['ON']
_TIMERS = ('TIMINT', 'CONUPD', 'CONDET', 'LOCDYN', 'CONSOL', 'PARBAL')


def WARNINGS(state):
    """WARNINGS(state): 'ON' or 'OFF', checked and kept; moreau's warnings are always printed
    (they name a step above a critical one, or a setting moreau does not use)."""
    _WARNINGS[0] = _choice('WARNINGS', 'state', state, ('ON', 'OFF'))


def TIMING(solfec, kind):
    """TIMING(solfec, kind) -> None: Solfec-1.0 returns a phase's time per step in 'READ' mode and
    None in 'WRITE' mode; moreau keeps no such per-phase series (its summary prints the times
    per phase, and HISTORY(solfec, 'WALLTIME') gives the wall time per step)."""
    _check_solfec('TIMING', solfec)
    _choice('TIMING', 'kind', kind, _TIMERS)
    return None


def DISPLAY_POINT(body, point, label=None):
    """DISPLAY_POINT(body, point, label): Solfec-1.0's viewer marker; checked and ignored
    (moreau has no viewer: use HISTORY at the point, or ParaView)."""
    fn = 'DISPLAY_POINT'
    _check_body(fn, body)
    _vec(fn, 'point', point)
    if label is not None and not isinstance(label, str):
        raise TypeError('%s: label must be a string, got %r' % (fn, label))


def CONTACT_SPARSIFY(solfec, threshold=0.01, minarea=0.0, mindist=None):
    """CONTACT_SPARSIFY(solfec, threshold, minarea, mindist): checked and not used: moreau
    keeps every contact point its narrow phase finds (as Solfec with threshold 0, minarea 0);
    a notice says so when the call asks for filtering."""
    fn = 'CONTACT_SPARSIFY'
    _check_solfec(fn, solfec)
    t = _num(fn, 'threshold', threshold)
    if not 0 <= t <= 1:
        raise ValueError('%s: threshold must be in [0, 1], got %r' % (fn, threshold))
    a = _nonneg(fn, 'minarea', minarea)
    if mindist is not None:
        _nonneg(fn, 'mindist', mindist)
    if t > 0 or a > 0:
        _notice(fn, 'contact points are not sparsified in moreau (every point the narrow phase finds is kept)')


def UNPHYSICAL_PENETRATION(solfec, depth):
    """UNPHYSICAL_PENETRATION(solfec, depth): checked and not enforced (Solfec-1.0 stops the run
    when a penetration exceeds depth); a notice says so."""
    fn = 'UNPHYSICAL_PENETRATION'
    _check_solfec(fn, solfec)
    _pos(fn, 'depth', depth)
    _notice(fn, 'the penetration bound is not enforced in moreau (the run does not stop on deep penetration)')


def EXTENTS(solfec, extents):
    """EXTENTS(solfec, extents): checked and not enforced (Solfec-1.0 deletes bodies that leave
    the box; moreau keeps them); a notice says so."""
    fn = 'EXTENTS'
    _check_solfec(fn, solfec)
    e = _vec(fn, 'extents', extents, 6)
    if not all(e[k] < e[k + 3] for k in range(3)):
        raise ValueError('%s: extents must be (xmin, ymin, zmin, xmax, ymax, zmax) with min < max, got %r' % (fn, extents))
    _notice(fn, 'bodies leaving the extents are not deleted in moreau')


def _point_value(fn, body, point, what):
    if not isinstance(body, Body):
        raise TypeError('%s: body must be a BODY, got %r' % (fn, body))
    p = _vec(fn, 'point', point)
    return _m.body_point(body._sol._h, body._id, p, what) if body._own else None


def DISPLACEMENT(body, point):
    """DISPLACEMENT(body, point) -> (dx, dy, dz) of referential point `point` now (in READ mode:
    at the frame read); None on ranks that do not own the body, as in Solfec-1.0."""
    return _point_value('DISPLACEMENT', body, point, 0)


def VELOCITY(body, point):
    """VELOCITY(body, point) -> (vx, vy, vz) of referential point `point`; None where not owned."""
    return _point_value('VELOCITY', body, point, 1)


def STRESS(body, point):
    """STRESS(body, point) -> (sx, sy, sz, sxy, sxz, syz, mises), the Cauchy stress at
    referential point `point` (a finite element's at the point, the mean of the body for the
    other kinds); None where not owned."""
    return _point_value('STRESS', body, point, 2)


def BODY_STATE(body):
    """BODY_STATE(body) -> (conf, velo) on every rank (moreau's own; collective): the owner's
    state, sent to all. A parallel deck's CALLBACK reads a body's state with it where
    body.conf and body.velo read None (ranks that do not own the body)."""
    if not isinstance(body, Body):
        raise TypeError('BODY_STATE: body must be a BODY, got %r' % (body,))
    return _m.body_state(body._sol._h, body._id)


def BARRIER():
    """BARRIER(): every rank meets here (collective)."""
    _m.sync()


def REGISTER_CALLBACK(callback, data=None):
    """REGISTER_CALLBACK(callback, data): accepted; moreau passes callables by reference on
    every rank, so there is nothing to register."""
    if not callable(callback):
        raise TypeError('REGISTER_CALLBACK: callback must be callable, got %r' % (callback,))


def SUBDIR():
    """SUBDIR() -> None: moreau has no -s option (use -mb_output_dir)."""
    return None


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


def NON_SOLFEC_ARGV():
    """NON_SOLFEC_ARGV() -> the deck's arguments (those after the deck on the command line), or
    None without any."""
    import sys
    return list(sys.argv[1:]) or None


# Solfec-1.0 functions moreau does not have: each raises, naming the reason or what to use.
_UNSUPPORTED = {
    'ELLIP': 'moreau has no ellipsoid shape; approximate it by a HULL of points on its surface (or a SPHERE)',
    'ELLIP_MESH': 'moreau has no ellipsoid mesher; build the MESH yourself',
    'SPLIT': 'shapes cannot be split by a plane; build the two parts (CONVEX, HULL, MESH) yourself',
    'MESH_SPLIT': 'meshes cannot be split; build the parts as separate MESH objects',
    'RT_SPLIT': 'bodies cannot be split during a run',
    'BEND': 'meshes cannot be bent; give the bent nodes to MESH',
    'ROUGH_HEX': 'no background meshes: a FINITE_ELEMENT body\'s shape is its MESH (or HEX)',
    'TETRAHEDRALIZE': 'no tetrahedral mesher (Tetgen); give the tetrahedra to MESH',
    'OVERLAPPING': 'no shape-overlap query; filter the shapes in Python (e.g. by MASS_CENTER)',
    'DELETE': 'bodies and constraints cannot be removed',
    'MATERIAL': 'one bulk material per body: the one given to BODY',
    'APPLY_BULKMAT': 'one bulk material per body: the one given to BODY',
    'FIELD': 'no scalar fields (the TSANG_MARSDEN material is not implemented)',
    'SIMPLIFIED_CRACK': 'bodies do not crack',
    'FRACTURE_EXPORT_YAFFEMS': 'no fracture analysis',
    'INITIALIZE_STATE': 'a run cannot start from another run\'s results',
    'RIGID_TO_FEM': 'a run cannot start from another run\'s results',
    'LOCDYN_DUMP': 'no local dynamics dump (PETSc\'s -log_view and -mb_solver_view describe the solver)',
    'MBFCP_EXPORT': 'no MBFCP export (moreau-fclib writes FCLIB problems)',
    'BODY_MM_EXPORT': 'no MatrixMarket export of body matrices',
    'MODAL_ANALYSIS': 'no modal analysis (the modal and reduced-order forms are not implemented)',
    'COROTATED_DISPLACEMENTS': 'no reduced-order bases',
    'RIGID_DISPLACEMENTS': 'no reduced-order bases',
    'REGISTER_BASE': 'no reduced-order bases',
    'RENDER': 'no viewer: open OUTDIR/<deck>.xmf in ParaView',
    'XDMF_EXPORT': 'moreau writes OUTDIR/<deck>.xmf during the run: open it in ParaView',
    'SOLFEC_EXPORT': 'no Solfec-format export: the results are OUTDIR/<deck>.h5 and .xmf',
    'TEST_SOLVER': 'use NEWTON_SOLVER or GAUSS_SEIDEL_SOLVER',
    'SICONOS_SOLVER': 'use GAUSS_SEIDEL_SOLVER (Siconos is not linked)',
    'HYBRID_SOLVER': 'no PARMEC coupling',
    'EXPLICIT_SOLVER': 'use PENALTY_SOLVER (spring-dashpot contacts, explicit)',
}


def _unsupported(name, why):
    def fn(*args, **kwargs):
        raise NotImplementedError('%s: not supported in moreau: %s' % (name, why))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = '%s: not supported in moreau: %s' % (name, why)
    return fn


__all__ += ['SCALE', 'PIPE', 'MESH2CONVEX', 'SET_DISPLACEMENT', 'SET_ACCELERATION', 'WARNINGS', 'TIMING',
            'DISPLAY_POINT', 'CONTACT_SPARSIFY', 'UNPHYSICAL_PENETRATION', 'EXTENTS', 'BARRIER',
            'REGISTER_CALLBACK', 'SUBDIR', 'NON_SOLFEC_ARGV', 'CONTACT_EXCLUDE_BODIES', 'CONTACT_EXCLUDE_SURFACES']
# a name defined elsewhere in this module (e.g. by READ mode) keeps its definition
for _name, _why in _UNSUPPORTED.items():
    if _name not in globals():
        globals()[_name] = _unsupported(_name, _why)
    if _name not in __all__:
        __all__.append(_name)
del _name, _why
