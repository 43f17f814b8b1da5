"""Shapes: SPHERE, ELLIP, HEX, ROUGH_HEX, CONVEX, HULL, MESH, PIPE, COPY, MESH2CONVEX, BEND."""

import math as _math
import numbers as _numbers

import _moreau as _m
from ._checks import _int, _isnum, _pos, _reals, _vec


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
    """A shape held by the C layer: CONVEX, HULL, HEX or MESH (a compound of convex pieces).
    Solfec-1.0's members (its lng.c): a MESH's (HEX's) nnod, node(n), nodes_on_surface
    (surfid), get_data() and inter_element_faces(), a CONVEX's (HULL's) nver and vertex(n)."""
    __slots__ = ('_cap', 'kind', '_nn', '_surf', '_top', '_elems', '_bfaces')

    def __init__(self, kind):
        self.kind = kind
        self._cap = _m.shape_new()
        self._nn = 0  # nodes of its mesh (MESH, HEX): a FINITE_ELEMENT body's
        self._surf = {}  # surfid -> the sorted numbers of the nodes of the mesh's boundary faces with it
        self._elems = []  # the mesh's elements as MESH takes them: [n, n nodes, volid, ...]
        self._bfaces = []  # the mesh's boundary faces: (nodes, surfid), in the elements' order
        self._top = None  # the mesh's topology (SPLIT, MESH_SPLIT): ([(element nodes, volid)], {boundary face nodes (frozenset): surfid})

    def _mesh(self, what):
        if not self._nn:
            raise ValueError('%s: a %s has no mesh nodes (MESH and HEX have)' % (what, self.kind))

    @property
    def nnod(self):
        """The number of the mesh's nodes (MESH, HEX)."""
        self._mesh('MESH.nnod')
        return self._nn

    def node(self, n, x=None, y=None, z=None):
        """node(n): node n of the mesh (MESH, HEX) as (x, y, z), where TRANSLATE, ROTATE and
        SCALE have put it. Solfec's x, y, z arguments, which move the node, are refused."""
        self._mesh('MESH.node')
        if x is not None or y is not None or z is not None:
            raise ValueError('MESH.node: moving node %r (x, y, z given) is not supported in moreau: give the node where it belongs in MESH\'s nodes' % (n,))
        try:
            return _m.shape_point(self._cap, True, _int('MESH.node', 'n', n))
        except ValueError as e:
            raise ValueError('MESH.node: %s' % e) from None

    def nodes_on_surface(self, surfid):
        """nodes_on_surface(surfid): the numbers of the nodes on the mesh's boundary faces with
        surface id surfid, ascending, or None when no face has it (as Solfec-1.0)."""
        self._mesh('MESH.nodes_on_surface')
        nodes = self._surf.get(_int('MESH.nodes_on_surface', 'surfid', surfid))
        return list(nodes) if nodes else None

    def get_data(self):
        """get_data() -> (nodes, elements, surfids): the mesh (MESH, HEX) as MESH takes it, so
        that MESH(*m.get_data()) rebuilds it (Solfec-1.0 lng.c, MESH.get_data): the nodes
        where TRANSLATE, ROTATE and SCALE have put them (a flat list), the elements [n,
        nodes, volid, ...], and surfids [0, k, nodes, surfid, ...]: default id 0 and every
        boundary face whose id is not 0 (Solfec's assumption: a face with id 0 is left to
        the default)."""
        self._mesh('MESH.get_data')
        nodes = []
        for n in range(self._nn):
            nodes += list(_m.shape_point(self._cap, True, n))
        surfids = [0]
        for f, sid in self._bfaces:
            if sid != 0:
                surfids += [len(f)] + list(f) + [sid]
        return nodes, list(self._elems), surfids

    def inter_element_faces(self):
        """inter_element_faces(): the faces that two elements of the mesh (MESH, HEX) share,
        each as the list of its node numbers (in the order of the first element's face), as
        Solfec-1.0."""
        self._mesh('MESH.inter_element_faces')
        seen, out = {}, []
        for faces in _m.shape_element_faces(self._cap):
            for loop in faces:
                key = frozenset(loop)
                if key in seen:
                    if seen[key] is not None:
                        out.append(seen[key])
                        seen[key] = None
                else:
                    seen[key] = loop
        return out

    def _convex(self, what):
        if self.kind not in ('CONVEX', 'HULL'):
            raise ValueError('%s: a %s is not a CONVEX' % (what, self.kind))

    @property
    def nver(self):
        """The number of the convex's vertices (CONVEX, HULL)."""
        self._convex('CONVEX.nver')
        return _m.shape_point(self._cap, False, -1)

    def vertex(self, n):
        """vertex(n): vertex n of the convex (CONVEX, HULL) as (x, y, z), where TRANSLATE,
        ROTATE and SCALE have put it."""
        self._convex('CONVEX.vertex')
        try:
            return _m.shape_point(self._cap, False, _int('CONVEX.vertex', 'n', n))
        except ValueError as e:
            raise ValueError('CONVEX.vertex: %s' % e) from None


    def _validate(self, fn):
        try:
            _m.shape_massprops([self._cap], 1.0)
        except ValueError as e:
            raise ValueError('%s: %s' % (fn, e)) from None
        return self

    def __repr__(self):
        return '<%s shape>' % self.kind


def _topology(elements, faces):
    """The mesh's topology kept for SPLIT and MESH_SPLIT: the elements as (nodes, volid) and
    the surface ids of its boundary faces (those of one element only) by their node sets."""
    count = {}
    for nodes, _ in faces:
        key = frozenset(nodes)
        count[key] = count.get(key, 0) + 1
    return (elements, {frozenset(nodes): sid for nodes, sid in faces if count[frozenset(nodes)] == 1})


def _boundary(faces):
    """The boundary faces among faces, a list of (nodes, surfid) of every element's faces: a
    boundary face belongs to one element only."""
    count = {}
    for nodes, _ in faces:
        key = frozenset(nodes)
        count[key] = count.get(key, 0) + 1
    return [(nodes, sid) for nodes, sid in faces if count[frozenset(nodes)] == 1]


def _flat(elems):
    """The elements [(nodes, volid)] as MESH takes them: [n, n nodes, volid, ...]."""
    out = []
    for nodes, volid in elems:
        out += [len(nodes)] + list(nodes) + [volid]
    return out
class Ellip(Shape):
    """ELLIP(center, radii, volid, surfid): an ellipsoid, held by the C layer (a shape of one
    ellipsoid primitive), so that TRANSLATE, ROTATE, SCALE, COPY and BODY treat it as any
    shape. Solfec-1.0's members (its lng.c): center, radii and rot (the directions of the
    semi-axes as the columns of a row-major 3x3), where the transforms have put it, in the
    order ELLIP's radii were given (after a non-uniform SCALE of a turned ellipsoid they are
    its true semi-axes, each nearest the one it came from)."""
    __slots__ = ()

    def _get(self, what):
        try:
            return _m.shape_ellipsoid_get(self._cap)
        except ValueError as e:
            raise ValueError('ELLIP.%s: %s' % (what, e)) from None

    @property
    def center(self):
        """The ellipsoid's centre (x, y, z)."""
        return self._get('center')[0]

    @property
    def radii(self):
        """Its semi-axes."""
        return self._get('radii')[1]

    @property
    def rot(self):
        """The directions of its semi-axes (the columns, row-major 9-tuple), as radii."""
        return self._get('rot')[2]


def ELLIP(center, radii, volid=0, surfid=0):
    """ELLIP(center, radii, volid, surfid): the ellipsoid with semi-axes radii (3 numbers > 0)
    along x, y and z about center (Solfec-1.0's ELLIP); turn it with ROTATE. Exact volume
    4/3 pi abc and inertia; contact with spheres, convex pieces and ellipsoids. A RIGID,
    OBSTACLE or PSEUDO_RIGID body's shape (not a FINITE_ELEMENT body's mesh)."""
    fn = 'ELLIP'
    c = _vec(fn, 'center', center)
    r = _vec(fn, 'radii', radii)
    if not all(x > 0 for x in r):
        raise ValueError('%s: radii must be > 0, got %r' % (fn, radii))
    shp = Ellip('ELLIP')
    try:
        _m.shape_ellipsoid(shp._cap, c, r, _int(fn, 'volid', volid), _int(fn, 'surfid', surfid))
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None
    return shp._validate(fn)


def _surface_nodes(faces):
    """{surfid: sorted node numbers} of the boundary faces among faces, a list of (nodes,
    surfid) of every element's faces: a boundary face belongs to one element only (Solfec's
    mesh keeps only those as faces; an inner face's id means nothing)."""
    count = {}
    for nodes, _ in faces:
        key = frozenset(nodes)
        count[key] = count.get(key, 0) + 1
    out = {}
    for nodes, sid in faces:
        if count[frozenset(nodes)] == 1:
            out.setdefault(sid, set()).update(nodes)
    return {sid: sorted(v) for sid, v in out.items()}


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
    relative spacings); surfids are the 6 face ids in Solfec-1.0's order (its msh.c): the
    bottom 0123, the sides 3047, 2376, 1265, 0154, the top 4567.
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
    # A left-handed hexahedron ((1-0) x (2-1) . (4-0) < 0) has its lower and upper nodes
    # swapped first, so that its elements have positive volume and outward faces (Solfec-1.0
    # msh.c MESH_Hex behaviour); the surfids keep their slots, so the top id (the 6th) goes
    # to the face of the nodes given first, and node numbers start at the nodes given last.
    ax, ay, az = ([P[q][d] - P[p][d] for d in range(3)] for p, q in ((0, 1), (1, 2), (0, 4)))
    if ((ax[1] * ay[2] - ax[2] * ay[1]) * az[0] + (ax[2] * ay[0] - ax[0] * ay[2]) * az[1] +
            (ax[0] * ay[1] - ax[1] * ay[0]) * az[2]) < 0:
        P = P[4:] + P[:4]

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
    eptr, enode, faces, elems = [0], [], [], []

    def node(a, b, c):
        return (c * (j + 1) + b) * (i + 1) + a
    for kk in range(k):
        for jj in range(j):
            for ii in range(i):
                enode += [node(ii, jj, kk), node(ii + 1, jj, kk), node(ii + 1, jj + 1, kk), node(ii, jj + 1, kk),
                          node(ii, jj, kk + 1), node(ii + 1, jj, kk + 1), node(ii + 1, jj + 1, kk + 1), node(ii, jj + 1, kk + 1)]
                eptr.append(len(enode))
                elems.append((tuple(enode[-8:]), volid))
                a0, a1, b0, b1, c0, c1 = ux[ii], ux[ii + 1], uy[jj], uy[jj + 1], uz[kk], uz[kk + 1]
                cell = []
                for (a, b, c) in ((a0, b0, c0), (a1, b0, c0), (a1, b1, c0), (a0, b1, c0),
                                  (a0, b0, c1), (a1, b0, c1), (a1, b1, c1), (a0, b1, c1)):
                    cell += point(a, b, c)
                # the element's faces bottom, top, 0154, 1265, 2376, 3047 take surfids 0, 5, 4,
                # 3, 2, 1 (Solfec's order) on the boundary; inner faces the bottom's (unused)
                sid = [surfids[0], surfids[5] if kk == k - 1 else surfids[0],
                       surfids[4] if jj == 0 else surfids[0], surfids[3] if ii == i - 1 else surfids[0],
                       surfids[2] if jj == j - 1 else surfids[0], surfids[1] if ii == 0 else surfids[0]]
                try:
                    _m.shape_element(shp._cap, 8, cell, sid, volid)
                except ValueError as e:
                    raise ValueError('%s: %s' % (fn, e)) from None
                faces += [(tuple(enode[-8 + a] for a in f), sid[m]) for m, f in enumerate(_ELEMENT_FACE_NODES[8])]
    _m.shape_mesh(shp._cap, X, eptr, enode)
    shp._nn = len(X) // 3
    shp._surf = _surface_nodes(faces)
    shp._top = _topology(elems, faces)
    shp._elems, shp._bfaces = _flat(elems), _boundary(faces)
    return shp._validate(fn)


def ROUGH_HEX(shape, i, j, k, dx=None, dy=None, dz=None):
    """ROUGH_HEX(shape, i, j, k, dx, dy, dz): a HEX mesh of i x j x k hexahedra roughly
    enclosing shape, a CONVEX (HULL) or a list of them, to be BODY's mesh= of a FINITE_ELEMENT
    body of that shape (Solfec-1.0's lng.c behaviour): the box's edges lie along the
    principal axes of the shape's Euler tensor (i along the axis of the least second moment,
    k of the greatest), its faces at the least and greatest projections of the shape's
    vertices on them widened by 10 x GEOMETRIC_EPSILON (Solfec-1.0's default 1e-4 when the
    deck sets none); dx, dy, dz are relative spacings as HEX's. The volume and surface ids
    are 2147483647 (INT_MAX, Solfec's placeholders)."""
    fn = 'ROUGH_HEX'
    items = list(shape) if isinstance(shape, (list, tuple)) else [shape]
    if not items or not all(isinstance(s, Shape) and s.kind in ('CONVEX', 'HULL') for s in items):
        raise TypeError("%s: 'shape' must be a non-empty CONVEX object or a list of those, got %r" % (fn, shape))
    for n, v in (('i', i), ('j', j), ('k', k)):
        if _int(fn, n, v) < 1:
            raise ValueError('%s: %s must be >= 1, got %d' % (fn, n, v))
    for name, d, n in (('dx', dx, i), ('dy', dy, j), ('dz', dz, k)):
        _spacing(fn, name, d, n)  # checked here, so that an error names ROUGH_HEX
    from . import solvers  # GEOMETRIC_EPSILON's value, when the deck gave one
    eps = getattr(solvers, '_geometric_epsilon', None)
    margin = 10.0 * (1e-4 if eps is None else eps)
    try:
        nodes = _m.shape_rough_hex(_parts(fn, items, []), margin)
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None
    ids = 2147483647
    return HEX(nodes, i, j, k, ids, [ids] * 6, dx, dy, dz)


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
    eptr, enode, efaces, elems = [0], [], [], []
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
        elems.append((tuple(int(v) for v in idx), _int(fn, 'volid', e[pos + 1 + t])))
        efaces += [(tuple(int(idx[a]) for a in f), sid[m]) for m, f in enumerate(_ELEMENT_FACE_NODES[t])]
        pos += t + 2
    if pos == 0:
        raise ValueError('%s: elements must not be empty' % fn)
    _m.shape_mesh(shp._cap, x, eptr, enode)
    lo, hi = min(enode), max(enode)
    if lo > 0 or hi < nn - 1:
        # Solfec-1.0's mesh holds the nodes from the lowest to the highest number its
        # elements use, numbered from 0 (msh.c, MESH_Create): nodes before and after them
        # are dropped (tests/BM15/BM15_mixed.py lists 21 unused nodes at the end)
        x = x[3 * lo:3 * (hi + 1)]
        enode = [v - lo for v in enode]
        elems = [(tuple(v - lo for v in nodes), volid) for nodes, volid in elems]
        efaces = [(tuple(v - lo for v in f), sid) for f, sid in efaces]
        nn = hi - lo + 1
    _m.shape_mesh(shp._cap, x, eptr, enode)
    shp._nn = nn
    shp._surf = _surface_nodes(efaces)
    shp._top = _topology(elems, efaces)
    shp._elems, shp._bfaces = _flat(elems), _boundary(efaces)
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
        raise TypeError('%s: shape must be SPHERE, ELLIP, HEX, CONVEX, HULL, MESH or a list of them, got %r' % (fn, shape))
    return out


def COPY(shape):
    """COPY(shape) -> an independent copy."""
    if isinstance(shape, Sphere):
        return SPHERE(shape.center, shape.radius, shape.volid, shape.surfid)
    if isinstance(shape, Shape):
        s = type(shape).__new__(type(shape))  # an ELLIP stays one
        s.kind, s._cap, s._nn, s._surf, s._top = shape.kind, _m.shape_copy(shape._cap), shape._nn, shape._surf, shape._top
        s._elems, s._bfaces = shape._elems, shape._bfaces
        return s
    if isinstance(shape, list):
        return [COPY(s) for s in shape]
    raise TypeError('COPY: expected a shape or a list of shapes, got %r' % (shape,))


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
    if len(sid) < 4:
        raise ValueError('%s: surfids must be 4 integers (bottom, top, inner, outer), got %d' % (fn, len(sid)))
    sid = sid[:4]  # Solfec-1.0 takes a list of at least 4 and uses the first 4 (lng.c, PIPE)
    length = _math.sqrt(sum(x * x for x in d))
    if length == 0:
        raise ValueError('%s: dir must be non-zero, got %r' % (fn, dir))
    n = [x / length for x in d]

    def cross(u, w):
        return [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]
    # Solfec-1.0's frame (msh.c, MESH_Pipe): node j of a ring at angle 2 pi j / nrad from
    # a = n x e, e the first of x, y, z not along n, towards b = n x a; its nodes are where
    # Solfec's are (BEND's innermost node, a deck's node numbers), on the true radius (Solfec
    # leaves a unnormalised, which shrinks a pipe whose axis is not along x, y or z)
    for e in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)):
        a = cross(n, e)
        la = _math.sqrt(sum(x * x for x in a))
        if la >= 1e-10:
            break
    a = [x / la for x in a]
    b = cross(n, a)  # (a, b, n) right-handed

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


def BEND(shape, point, direction, angle):
    """BEND(shape, point, direction, angle): bends a MESH (HEX, PIPE) in place about the axis
    through point along direction by angle degrees (> 0) and returns it, as Solfec-1.0:
    from the section through the node closest to the axis, onward in the direction that
    turns about the axis by the right-hand rule; the part beyond the angle goes on straight.
    Arc lengths are kept on the innermost fibre, so the volume grows by the bent part's
    mean radius over the smallest one. The axis must not pass through the mesh."""
    fn = 'BEND'
    if not (isinstance(shape, Shape) and shape._nn):
        raise TypeError('%s: shape must be a MESH object (MESH, HEX or PIPE), got %r' % (fn, shape))
    p = _vec(fn, 'point', point)
    d = _vec(fn, 'direction', direction)
    if not any(d):
        raise ValueError('%s: direction must be non-zero, got %r' % (fn, direction))
    a = _pos(fn, 'angle', angle)
    try:
        _m.shape_bend(shape._cap, p, d, _math.radians(a))
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None
    return shape._validate(fn)


def MESH2CONVEX(mesh):
    """MESH2CONVEX(mesh): the mesh's elements as a list of convex pieces (a copy): a rigid
    body's MESH is already such a compound in moreau; the result cannot be a FINITE_ELEMENT
    body's mesh."""
    if not (isinstance(mesh, Shape) and mesh._nn):
        raise TypeError('MESH2CONVEX: mesh must be a MESH (or HEX) object, got %r' % (mesh,))
    s = COPY(mesh)
    s.kind, s._nn, s._surf, s._top, s._elems, s._bfaces = 'CONVEX', 0, {}, None, [], []
    return s
