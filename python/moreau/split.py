"""SPLIT, MESH_SPLIT and OVERLAPPING: shapes cut by a plane or along mesh faces, and the
shapes that overlap obstacles (Solfec-1.0's lng.c, cvx.c and msh.c behaviour)."""

import math as _math
import numbers as _numbers

import _moreau as _m
from ._checks import _int, _num, _vec
from .shapes import Shape, Sphere, MESH, _ELEMENT_FACE_NODES, _parts


def _eps():
    """GEOMETRIC_EPSILON's value (solvers.py keeps it; default 1e-6)."""
    from . import solvers
    e = getattr(solvers, '_geometric_epsilon', None)
    return 1e-6 if e is None else e


def _one_or_list(items):
    """Solfec's shape_to_list: None for none, the shape for one, else a list."""
    if not items:
        return None
    return items[0] if len(items) == 1 else list(items)


def _on_off(fn, name, v, default):
    if v is None:
        return default
    if v not in ('ON', 'OFF'):
        raise ValueError("%s: %s must be 'ON' or 'OFF', got %r" % (fn, name, v))
    return v == 'ON'


def _items(fn, shape):
    if isinstance(shape, (Shape, Sphere)):
        return [shape]
    if isinstance(shape, (list, tuple)) and shape and all(isinstance(s, (Shape, Sphere)) for s in shape):
        return list(shape)
    raise TypeError('%s: shape must be SPHERE, HEX, CONVEX, HULL, MESH or a non-empty list of them, got %r' % (fn, shape))


# ---- meshes: cutting along element faces -------------------------------------------------

def _element_faces(nodes):
    return [tuple(nodes[a] for a in f) for f in _ELEMENT_FACE_NODES[len(nodes)]]


def _mesh_nodes(shp):
    """The mesh's nodes where TRANSLATE, ROTATE and SCALE have put them."""
    return [_m.shape_point(shp._cap, True, i) for i in range(shp._nn)]


def _face_elements(elems):
    f2e = {}
    for e, (nodes, _) in enumerate(elems):
        for f in _element_faces(nodes):
            f2e.setdefault(frozenset(f), []).append(e)
    return f2e


class _Union:
    def __init__(self, keys):
        self.p = {k: k for k in keys}

    def find(self, a):
        while self.p[a] != a:
            self.p[a] = self.p[self.p[a]]
            a = self.p[a]
        return a

    def join(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.p[max(a, b)] = min(a, b)


def _open_faces(X, elems, fsid, cut, sid_of):
    """Open the mesh along the inner faces cut (node sets): a node of a cut face gets one copy
    per group of its elements still joined through uncut faces that hold it (as Solfec's
    MESH_Split_By_Faces); the opened faces become boundary faces with surface id
    sid_of(face, element). Returns the connected parts as (nodes, [(element nodes, volid)],
    [(boundary face nodes, surfid)]), each numbered afresh in the order of the input nodes."""
    f2e = _face_elements(elems)
    cutnodes = set()
    for key in cut:
        cutnodes |= key
    around = {}
    for e, (nodes, _) in enumerate(elems):
        for v in nodes:
            if v in cutnodes:
                around.setdefault(v, []).append(e)
    X = list(X)
    newid = {}
    for v in sorted(cutnodes):
        es = around[v]
        u = _Union(es)
        for e in es:
            for f in _element_faces(elems[e][0]):
                key = frozenset(f)
                if v in key and key not in cut:
                    for e2 in f2e[key]:
                        if e2 != e and e2 in u.p:
                            u.join(e, e2)
        groups = {}
        for e in es:
            groups.setdefault(u.find(e), []).append(e)
        for k, root in enumerate(sorted(groups)):
            idx = v if k == 0 else len(X)
            if k:
                X.append(X[v])
            for e in groups[root]:
                newid[(e, v)] = idx
    new = [(tuple(newid.get((e, v), v) for v in nodes), vol) for e, (nodes, vol) in enumerate(elems)]
    # connected parts through the faces the elements still share
    nf2e = _face_elements(new)
    u = _Union(range(len(new)))
    for es in nf2e.values():
        for e2 in es[1:]:
            u.join(es[0], e2)
    parts = {}
    for e in range(len(new)):
        parts.setdefault(u.find(e), []).append(e)
    out = []
    for root in sorted(parts):
        es = parts[root]
        used = sorted({v for e in es for v in new[e][0]})
        num = {v: k for k, v in enumerate(used)}
        faces = []
        for e in es:
            old = _element_faces(elems[e][0])
            for m, f in enumerate(_element_faces(new[e][0])):
                if len(nf2e[frozenset(f)]) != 1:
                    continue
                key = frozenset(old[m])
                sid = fsid[key] if key in fsid else (sid_of(key, e) if key in cut else 0)
                faces.append((tuple(num[v] for v in f), sid))
        out.append(([X[v] for v in used], [(tuple(num[v] for v in new[e][0]), new[e][1]) for e in es], faces))
    return out


def _build_mesh(fn, part):
    nodes, elems, faces = part
    flat = [x for p in nodes for x in p]
    el, sf = [], [0]
    for n, vol in elems:
        el += [len(n)] + list(n) + [vol]
    for f, sid in faces:
        sf += [len(f)] + list(f) + [sid]
    try:
        return MESH(flat, el, sf)
    except (TypeError, ValueError) as e:
        raise ValueError('%s: %s' % (fn, e)) from None


def _split_mesh(fn, shp, p, n, surf, topoadj, eps):
    """SPLIT of a MESH along its element faces on the plane: [(part, below)]."""
    if shp._top is None:
        raise ValueError('%s: this %s has lost its mesh topology (an appended or converted mesh): split its MESH before' % (fn, shp.kind))
    X = _mesh_nodes(shp)
    elems, fsid = shp._top
    s = [sum((x[d] - p[d]) * n[d] for d in range(3)) for x in X]
    side = []
    for nodes, _ in elems:
        lo, hi = min(s[v] for v in nodes), max(s[v] for v in nodes)
        side.append(-1 if hi <= eps else (1 if lo >= -eps else 0))
    if all(k == -1 for k in side) or all(k == 1 for k in side):
        raise ValueError('%s: the plane through %r with normal %r misses the %s: all of it lies %s the plane' % (fn, tuple(p), tuple(n), shp.kind, 'below' if side[0] == -1 else 'above'))
    f2e = _face_elements(elems)
    cand = {key for key, es in f2e.items() if len(es) == 2 and side[es[0]] * side[es[1]] == -1}
    crossed = [e for e, k in enumerate(side) if k == 0]
    if topoadj:
        # the patch of in-plane faces joined (by edges) to the face nearest the point
        if not cand:
            raise ValueError('%s: no element faces of the %s lie on the plane through %r with normal %r: moreau splits meshes along element faces only (Solfec re-meshes with Tetgen)' % (fn, shp.kind, tuple(p), tuple(n)))

        def dist(key):
            c = [sum(X[v][d] for v in key) / len(key) for d in range(3)]
            return sum((c[d] - p[d]) ** 2 for d in range(3))
        start = min(cand, key=dist)
        cut, todo = {start}, [start]
        while todo:
            f = todo.pop()
            for g in cand:
                if g not in cut and len(f & g) >= 2:
                    cut.add(g)
                    todo.append(g)
        touched = set().union(*cut)
        crossed = [e for e in crossed if touched & set(elems[e][0])]
    else:
        cut = cand
    if crossed:
        e = crossed[0]
        raise ValueError('%s: the plane through %r with normal %r cuts element %d (nodes %r) of the %s: moreau splits meshes along element faces only (Solfec re-meshes with Tetgen)' % (fn, tuple(p), tuple(n), e, list(elems[e][0]), shp.kind))

    def sid_of(key, e):  # the face of the element below has the outward normal n: surfid[0]
        return surf[0] if side[e] == -1 else surf[1]
    out = []
    for part in _open_faces(X, elems, fsid, cut, sid_of):
        d = [sum((x[k] - p[k]) * n[k] for k in range(3)) for x in part[0]]
        out.append((_build_mesh(fn, part), abs(min(d)) > abs(max(d))))
    return out


# ---- SPLIT ------------------------------------------------------------------------------

def SPLIT(shape, point, normal, surfid=None, topoadj=None, remesh=None):
    """SPLIT(shape, point, normal, surfid, topoadj, remesh) -> (one, two): the shape (or list)
    cut by the plane through point with normal: one holds what lies below the plane (the side
    against the normal), two what lies above, each None, a shape or a list (as Solfec-1.0's
    manual). CONVEX pieces the plane crosses are clipped; the cut face below (outward normal
    along normal) gets surfid[0], the one above surfid[1] (default (0, 0)). A MESH is split
    along its element faces on the plane (topoadj 'ON': only the patch of those faces joined
    to the point, which may leave the mesh in one piece); a plane through an element is an
    error (Solfec re-meshes: remesh 'ON'). The input is not emptied."""
    fn = 'SPLIT'
    items = _items(fn, shape)
    p = _vec(fn, 'point', point)
    n = _vec(fn, 'normal', normal)
    ln = _math.sqrt(sum(x * x for x in n))
    if ln == 0:
        raise ValueError('%s: normal must be non-zero, got %r' % (fn, normal))
    n = tuple(x / ln for x in n)
    if surfid is None:
        surf = (0, 0)
    else:
        try:
            surf = tuple(surfid)
        except TypeError:
            raise TypeError('%s: surfid must be a pair of integers, got %r' % (fn, surfid)) from None
        if len(surf) != 2:
            raise ValueError('%s: surfid must be a pair of integers, got %r' % (fn, surfid))
        surf = (_int(fn, 'surfid[0]', surf[0]), _int(fn, 'surfid[1]', surf[1]))
    tadj = _on_off(fn, 'topoadj', topoadj, False)
    _on_off(fn, 'remesh', remesh, True)
    eps = _eps()
    below, above, convex = [], [], []
    for it in items:
        if isinstance(it, Sphere):
            h = sum((it.center[d] - p[d]) * n[d] for d in range(3))
            if abs(h) < it.radius - eps:
                raise ValueError('%s: the plane through %r with normal %r cuts the SPHERE of centre %r and radius %g: moreau splits CONVEX and MESH shapes only' % (fn, p, tuple(normal), tuple(it.center), it.radius))
            (below if h < 0 else above).append(it)
        elif it._nn:
            for part, down in _split_mesh(fn, it, p, n, surf, tadj, eps):
                (below if down else above).append(part)
        else:
            convex.append(it)
    if convex:
        if tadj:
            raise ValueError("%s: topoadj 'ON' is supported for MESH shapes only (CONVEX pieces are all cut)" % fn)
        try:
            caps = _m.shape_split(_parts(fn, convex, []), p, n, surf[0], surf[1], eps)
        except ValueError as e:
            raise ValueError('%s: %s' % (fn, e)) from None
        for cap, out in zip(caps, (below, above)):
            if cap is None:
                continue
            # each connected set of touching pieces is one shape (Solfec's SHAPE_Separate)
            for c in _m.shape_separate(cap, eps) or [cap]:
                s = Shape.__new__(Shape)
                s.kind, s._cap, s._nn, s._surf, s._top, s._elems, s._bfaces = 'CONVEX', c, 0, {}, None, [], []
                out.append(s)
    if not below or not above:
        if not any(it._nn for it in items if isinstance(it, Shape)):
            raise ValueError('%s: the plane through %r with normal %r misses the shape: all of it lies %s the plane' % (fn, p, tuple(normal), 'above' if above else 'below'))
    return (_one_or_list(below), _one_or_list(above))


# ---- MESH_SPLIT -------------------------------------------------------------------------

def MESH_SPLIT(mesh, nodeset=None, faceset=None, surfid1=0, surfid2=0):
    """MESH_SPLIT(mesh, nodeset, faceset, surfid1, surfid2) -> [mesh, ...] or None: the mesh
    opened along its inner faces given by faceset (node lists of 3 or 4) or, without faceset,
    along the inner faces whose nodes all belong to nodeset; the opened faces get surfid1
    where the face's counter-clockwise normal points out of the element (every face with
    nodeset), surfid2 on the other side; the result is the list of the connected parts, None
    when no inner face was given (Solfec-1.0). The input mesh is not modified."""
    fn = 'MESH_SPLIT'
    if not (isinstance(mesh, Shape) and mesh._nn):
        raise TypeError('%s: mesh must be a MESH (or HEX) object, got %r' % (fn, mesh))
    if mesh._top is None:
        raise ValueError('%s: this %s has lost its mesh topology' % (fn, mesh.kind))
    s1, s2 = _int(fn, 'surfid1', surfid1), _int(fn, 'surfid2', surfid2)
    X = _mesh_nodes(mesh)
    elems, fsid = mesh._top
    f2e = _face_elements(elems)
    if faceset is not None:
        if not isinstance(faceset, (list, tuple)):
            raise TypeError("%s: 'faceset' must be a list of lists, got %r" % (fn, faceset))
        cut, normals = set(), {}
        for f in faceset:
            if not isinstance(f, (list, tuple)) or len(f) not in (3, 4):
                raise ValueError('%s: invalid face %r: a face is a list of 3 or 4 node numbers' % (fn, f))
            for v in f:
                if not isinstance(v, _numbers.Integral) or not 0 <= v < mesh._nn:
                    raise ValueError('%s: face %r: node %r is not in [0, %d)' % (fn, f, v, mesh._nn))
            key = frozenset(int(v) for v in f)
            if key not in f2e:
                raise ValueError('%s: face %r is not a face of the mesh\'s elements' % (fn, f))
            if len(f2e[key]) == 2:
                cut.add(key)
                # Newell's normal of the loop as given (counter-clockwise)
                nrm = [0.0, 0.0, 0.0]
                for k in range(len(f)):
                    a, b = X[f[k]], X[f[(k + 1) % len(f)]]
                    nrm[0] += (a[1] - b[1]) * (a[2] + b[2])
                    nrm[1] += (a[2] - b[2]) * (a[0] + b[0])
                    nrm[2] += (a[0] - b[0]) * (a[1] + b[1])
                normals[key] = (nrm, X[f[0]])

        def sid_of(key, e):
            nrm, x0 = normals[key]
            c = [sum(X[v][d] for v in elems[e][0]) / len(elems[e][0]) for d in range(3)]
            return s1 if sum((c[d] - x0[d]) * nrm[d] for d in range(3)) < 0 else s2
    elif nodeset is not None:
        try:
            ns = {int(v) for v in nodeset}
        except (TypeError, ValueError):
            raise TypeError('%s: nodeset must be a list of node numbers, got %r' % (fn, nodeset)) from None
        cut = {key for key, es in f2e.items() if len(es) == 2 and key <= ns}

        def sid_of(key, e):
            return s1
    else:
        raise TypeError('%s: give nodeset or faceset' % fn)
    if not cut:
        return None
    return [_build_mesh(fn, part) for part in _open_faces(X, elems, fsid, cut, sid_of)]


# ---- OVERLAPPING ------------------------------------------------------------------------

def OVERLAPPING(obstacles, shapes, *args, **kwargs):
    """OVERLAPPING(obstacles, shapes, not, gap) -> the shapes (of the list shapes) that overlap
    the obstacles, or with not = 'NOT' those that do not; a shape overlaps when one of its
    pieces touches or penetrates one of the obstacles' with a gap <= gap (<= 0, default 0),
    measured by the contact detection's geometry. None when there are none, the shape when
    one, else a list in the order of shapes (Solfec-1.0). The shapes are not emptied."""
    fn = 'OVERLAPPING'
    names = ('not', 'gap')
    if len(args) > 2:
        raise TypeError('%s: takes at most 4 arguments (obstacles, shapes, not, gap), got %d' % (fn, 2 + len(args)))
    opt = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names or k in opt:
            raise TypeError('%s: unexpected or repeated keyword argument %r' % (fn, k))
        opt[k] = v
    neg = opt.get('not')
    if neg is not None and neg != 'NOT':
        raise ValueError("%s: not must be 'NOT', got %r" % (fn, neg))
    gap = _num(fn, 'gap', opt.get('gap', 0.0))
    if gap > 0:
        raise ValueError('%s: gap must be <= 0 (the largest gap that counts as an overlap), got %r' % (fn, gap))
    obs = _parts(fn, obstacles, [])
    items = _items(fn, shapes) if not isinstance(shapes, (list, tuple)) or shapes else []
    try:
        hit = _m.shapes_overlapping(obs, [_parts(fn, s, []) for s in items], gap, _eps())
    except ValueError as e:
        raise ValueError('%s: %s' % (fn, e)) from None
    return _one_or_list([s for s, h in zip(items, hit) if h != (neg is not None)])
