"""Tetrahedral meshing by TetGen: TETRAHEDRALIZE and ELLIP_MESH (Solfec-1.0's lng.c,
tetsol.cxx and msh.c behaviour; the meshes come from Debian's TetGen library, linked into
moreau when libtet1.5-dev was present at build time)."""

import json as _json
import math as _math
import os as _os
import struct as _struct

import _moreau as _m
from ._checks import _RANK, _int, _notice, _num, _pos, _vec
from .shapes import MESH, Shape
from . import solfecmesh as _solfecmesh

_CACHE_FORMAT = 'moreau TETRAHEDRALIZE mesh'


def _tetgen(fn, source, what, volume=0.0, quality=0.0, min_angle=0.0, max_angle=0.0, keep_surface=False):
    if not _m.tetgen():
        raise NotImplementedError('%s: moreau was built without TetGen (Debian package libtet1.5-dev): '
                                  'install it (make deps) and rebuild moreau' % fn)
    try:
        return _m.tetrahedralize(source, volume, quality, min_angle, max_angle, keep_surface)
    except ValueError as e:
        raise ValueError('%s: %s: %s' % (fn, what, e)) from None


def _mesh_args(X, T, V, F, S, volid, surfid):
    """MESH's arguments from TetGen's mesh: ids the input gave win (Solfec: 'if only possible
    it is inherited from the input'); volid and surfid (default 0) stand where it gave none."""
    vdef = 0 if volid is None else volid
    sdef = surfid if surfid is not None else (S[0] if S else 0)
    nodes = [X[3 * n:3 * n + 3] for n in range(len(X) // 3)]
    elements = []
    for t in range(len(T) // 4):
        elements += [4] + T[4 * t:4 * t + 4] + [V[t] if V is not None else vdef]
    surfids = [sdef]
    if S is not None:
        for f in range(len(F) // 3):
            surfids += [3] + F[3 * f:3 * f + 3] + [S[f]]
    return nodes, elements, surfids


def _read_cache(fn, path):
    """The mesh a previous TETRAHEDRALIZE left at path (Solfec: 'when called again and this
    file is found the mesh will be read from the file rather than generated'), or None."""
    if not _os.path.exists(path):
        return None
    try:
        solfec = _solfecmesh.read(path)  # Solfec-1.0's own file (HDF5 or XDR), as Solfec left it
    except (OSError, ValueError, _struct.error) as e:
        raise ValueError('%s: path %r holds a mesh file of Solfec-1.0 that cannot be read: %s' % (fn, path, e)) from None
    if solfec is not None:
        try:
            return MESH(*solfec)
        except ValueError as e:
            raise ValueError('%s: the Solfec-1.0 mesh at path %r: %s' % (fn, path, e)) from None
    try:
        with open(path) as f:
            data = _json.load(f)
        if not isinstance(data, dict) or data.get('format') != _CACHE_FORMAT:
            raise ValueError('not ours')
        return MESH(data['nodes'], data['elements'], data['surfids'])
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise ValueError('%s: path %r exists but is not a mesh written by TETRAHEDRALIZE (moreau\'s file, or Solfec-1.0\'s HDF5 '
                         'or XDR file) (the mesh is read from path when the file is there, as in Solfec): remove it or give another path'
                         % (fn, path)) from None


def _write_cache(fn, path, nodes, elements, surfids):
    """Rank 0 writes the mesh to path (the other ranks made the same mesh): to a temporary
    file first, renamed into place, so that no rank reads half a file."""
    if _RANK != 0:
        return
    d = _os.path.dirname(path)
    tmp = '%s.tmp%d' % (path, _os.getpid())
    try:
        if d:
            _os.makedirs(d, exist_ok=True)
        with open(tmp, 'w') as f:
            _json.dump({'format': _CACHE_FORMAT, 'version': 1, 'nodes': nodes, 'elements': elements,
                        'surfids': surfids}, f)
        _os.replace(tmp, path)
    except OSError as e:
        raise OSError('%s: cannot write the mesh to path %r: %s' % (fn, path, e)) from None


def TETRAHEDRALIZE(shape, path, volume=None, quality=None, volid=None, surfid=None,
                   min_angle=None, max_angle=None, ref_length=None, surid=None):
    """TETRAHEDRALIZE(shape, path, volume, quality, volid, surfid): a MESH of tetrahedra
    filling the closed surface of shape: a MESH (HEX, PIPE: its boundary faces) or the name
    of a TetGen input file (.poly, .smesh, .off, .ply, .stl, .mesh, .vtk). volume bounds
    every tetrahedron's volume, quality (> 1) the radius-edge ratio. Boundary faces keep the
    input's surface ids and tetrahedra its volume ids; volid and surfid (default 0) stand
    where the input has none. The mesh is written to path, and read from it instead of
    being made when path exists (Solfec-1.0). min_angle and max_angle (degrees) are TetGen's
    least dihedral angle (-q) and the largest its optimisation aims at (-o/); ref_length,
    which TetGen does not have, is ignored with a notice. Solfec-1.0's lng.c spells the
    keyword surfid 'surid': both are accepted."""
    fn = 'TETRAHEDRALIZE'
    if surid is not None:
        if surfid is not None:
            raise TypeError('%s: give surfid or surid (the same argument), not both' % fn)
        surfid = surid
    if not isinstance(path, str) or not path:
        raise TypeError('%s: path must be a file name (a non-empty string), got %r' % (fn, path))
    vol = 0.0 if volume is None else _pos(fn, 'volume (the largest tetrahedron volume)', volume)
    q = 0.0 if quality is None else _num(fn, 'quality', quality)
    if quality is not None and not q > 1.0:
        raise ValueError('%s: quality must be > 1.0 (a bound on the radius-edge ratio), got %r' % (fn, quality))
    if volid is not None:
        volid = _int(fn, 'volid', volid)
    if surfid is not None:
        surfid = _int(fn, 'surfid', surfid)
    amin = 0.0 if min_angle is None else _num(fn, 'min_angle', min_angle)
    if not 0.0 <= amin < 70.0:
        raise ValueError('%s: min_angle (the least dihedral angle, degrees) must be in [0, 70), got %r' % (fn, min_angle))
    amax = 0.0 if max_angle is None else _num(fn, 'max_angle', max_angle)
    if not 0.0 <= amax <= 180.0:
        raise ValueError('%s: max_angle (the largest dihedral angle, degrees) must be in [0, 180], got %r' % (fn, max_angle))
    if ref_length is not None:
        _pos(fn, 'ref_length', ref_length)
        _notice(fn, 'ref_length is ignored: TetGen has no such bound (volume bounds the tetrahedra)')
    cached = _read_cache(fn, path)
    if cached is not None:
        return cached
    if isinstance(shape, Shape) and shape._nn:
        source, what = shape._cap, 'the %s' % shape.kind
    elif isinstance(shape, str):
        if not _os.path.isfile(shape):
            raise FileNotFoundError('%s: shape file %r does not exist' % (fn, shape))
        source, what = shape, 'file %r' % shape
    else:
        raise TypeError('%s: shape must be a MESH (HEX, PIPE) or the name of a TetGen input file, got %r' % (fn, shape))
    args = _mesh_args(*_tetgen(fn, source, what, vol, q, amin, amax), volid, surfid)
    try:
        mesh = MESH(*args)
    except ValueError as e:
        raise ValueError('%s: TetGen\'s mesh of %s: %s' % (fn, what, e)) from None
    _write_cache(fn, path, *args)
    return mesh


# Solfec-1.0's icosahedron (msh.c, MESH_Ellip): a vertex at each pole and two rings of five
# at latitude ±26.56505° (atan(1/2)), the lower ring turned by 36°.
_ICO_FACES = ((0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5), (0, 5, 1), (11, 6, 7), (11, 7, 8), (11, 8, 9),
              (11, 9, 10), (11, 10, 6), (1, 2, 6), (2, 3, 7), (3, 4, 8), (4, 5, 9), (5, 1, 10), (6, 7, 2),
              (7, 8, 3), (8, 9, 4), (9, 10, 5), (10, 6, 1))


def _icosahedron():
    lat = _math.radians(26.56505)
    v = [(0.0, 0.0, 1.0)]
    v += [(_math.cos(t) * _math.cos(lat), _math.sin(t) * _math.cos(lat), _math.sin(lat))
          for t in (_math.radians(72.0 * i) for i in range(5))]
    v += [(_math.cos(t) * _math.cos(lat), _math.sin(t) * _math.cos(lat), -_math.sin(lat))
          for t in (_math.radians(36.0 + 72.0 * i) for i in range(5))]
    v.append((0.0, 0.0, -1.0))
    return v, [list(f) for f in _ICO_FACES]


def _refine(v, tris, split):
    """One pass of edge splitting: an edge is split when split(a, b) gives its new vertex
    (else None); a triangle is cut along its split edges (one, two or three), so that the
    two triangles at an edge split it alike. Returns the new triangles and whether any edge
    was split."""
    mid, out, any_split = {}, [], False

    def m(a, b):
        key = (a, b) if a < b else (b, a)
        if key not in mid:
            p = split(v[a], v[b])
            mid[key] = None
            if p is not None:
                v.append(p)
                mid[key] = len(v) - 1
        return mid[key]
    for a, b, c in tris:
        ab, bc, ca = m(a, b), m(b, c), m(c, a)
        n = (ab is not None) + (bc is not None) + (ca is not None)
        any_split |= n > 0
        if n == 3:
            out += [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]
        elif n == 0:
            out.append([a, b, c])
        elif n == 1:
            if ab is not None:
                out += [[a, ab, c], [ab, b, c]]
            elif bc is not None:
                out += [[b, bc, a], [bc, c, a]]
            else:
                out += [[c, ca, b], [ca, a, b]]
        elif ca is None:
            out += [[a, bc, c], [a, ab, bc], [ab, b, bc]]
        elif bc is None:
            out += [[a, ab, ca], [ab, b, ca], [ca, b, c]]
        else:
            out += [[a, bc, ca], [a, b, bc], [ca, bc, c]]
    return out, any_split


def ELLIP_MESH(center, radii, error, volid, surfid):
    """ELLIP_MESH(center, radii, error, volid, surfid): a MESH of tetrahedra filling the
    ellipsoid of these radii (along x, y, z) about center, as Solfec-1.0 makes it: an
    icosahedron refined once and put on the ellipsoid, then edges halved (their midpoints
    put on the ellipsoid along the ray from the centre) until no edge's midpoint is farther
    than error from the ellipsoid; TetGen fills that surface keeping it (-Y) with quality
    2. Every tetrahedron has volid, every boundary face surfid."""
    fn = 'ELLIP_MESH'
    c = _vec(fn, 'center', center)
    r = _vec(fn, 'radii', radii)
    if not all(x > 0 for x in r):
        raise ValueError('%s: radii must be positive, got %r' % (fn, radii))
    error = _pos(fn, 'error', error)
    volid, surfid = _int(fn, 'volid', volid), _int(fn, 'surfid', surfid)
    if error < 1e-6 * max(r):
        raise ValueError('%s: error %g is below 1e-6 of the largest radius %g: the surface would need too many triangles'
                         % (fn, error, max(r)))

    def onto(p):  # the point of the ellipsoid on the ray from the centre through p
        t = 1.0 / _math.sqrt(sum((p[k] / r[k]) ** 2 for k in range(3)))
        return tuple(t * x for x in p)

    def half(a, b):
        return tuple(0.5 * (a[k] + b[k]) for k in range(3))

    v, tris = _icosahedron()
    tris, _ = _refine(v, tris, half)
    v = [onto(p) for p in v]

    def split(a, b):
        p = half(a, b)
        q = onto(p)
        return q if _math.dist(p, q) > error else None
    again = True
    while again:
        tris, again = _refine(v, tris, split)
    pts = [p[k] + c[k] for p in v for k in range(3)]
    flat = [i for t in tris for i in t]
    X, T, V, F, S = _tetgen(fn, (pts, flat, [surfid] * len(tris)), 'the ellipsoid\'s surface',
                            quality=2.0, keep_surface=True)
    try:
        return MESH(*_mesh_args(X, T, None, F, S, volid, surfid))
    except ValueError as e:
        raise ValueError('%s: TetGen\'s mesh of the ellipsoid: %s' % (fn, e)) from None
