"""MBFCP_EXPORT: the model as Solfec-1.0's text 'MBFCP' definition (its lng.c, sol.c, sps.c,
mat.c, dom.c, bod.c, shp.c, cvx.c, msh.c, sph.c and tms.c behaviour): written once, when
called (not every step), of what the deck has defined so far: surface materials, bulk
materials, gravity, bodies (shapes, velocity, forces) and joints."""

import math as _math
import weakref as _weakref

import _moreau as _m
from ._checks import _RANK, _SIZE, _ZERO
from .solfec import _check_solfec

# what the export needs that the rest of the deck layer does not keep: per SOLFEC object,
# the bodies' bulk materials, their loads and the joints, in the order the deck made them
_RECORD = _weakref.WeakKeyDictionary()


def _note(solfec, what, item):
    """Keep item ('material', 'load' or 'joint') of solfec for MBFCP_EXPORT."""
    rec = _RECORD.setdefault(solfec, {'material': {}, 'load': [], 'joint': []})
    if what == 'material':
        rec['material'][item[0]] = item[1]
    else:
        rec[what].append(item)


def _tms(value):
    """TMS_2_MBFCP: a constant or the series' points (a callable has none)."""
    from .loads import TimeSeries
    if isinstance(value, TimeSeries):
        return 'TIME_SERIES:\t%d\n' % len(value.times) + ''.join('%g\t%g\n' % (t, v) for t, v in zip(value.times, value.values))
    if callable(value):
        return None
    return 'CONSTANT:\t%g\n' % value


def _mat_label(materials, m):
    return m.label if m.label is not None else 'BULK_MATERIAL_%d' % materials.index(m)


def _surface_materials(solfec):
    """SPSET_2_MBFCP: the default material first (SURF1, SURF2 'ANY'), then one per pair of
    surfaces, the last given for a pair winning (as moreau applies them)."""
    default, pairs = None, {}
    for m in solfec.surface_materials:
        if m.surf1 is None and m.surf2 is None:
            default = m
        else:
            pairs[(m.surf1, m.surf2)] = m
    rows = ([(None, default)] if default is not None else []) + list(pairs.items())
    out = ['SURFACE_MATERIALS:\t%d\n' % len(rows)]
    for key, m in rows:
        if key is None:
            out.append('SURF1:\tANY\nSURF2:\tANY\n')
        else:
            out.append('SURF1:\t%s\nSURF2:\t%s\n' % tuple('ANY' if s is None else '%d' % s for s in key))
        out.append('MODEL:\t%s\nFRICTION:\t%g\nCOHESION:\t%g\n' % (m.model, m.friction, m.cohesion))
        if m.model == 'SIGNORINI_COULOMB':
            out.append('RESTITUTION:\t%g\n' % m.restitution)
        else:
            out.append('SPRING:\t%g\nDASHPOT:\t%g\n' % (m.spring, m.dashpot))
    out.append('\n')
    return out


def _bulk_materials(solfec):
    """MATSET_2_MBFCP: every bulk material as Saint Venant-Kirchhoff."""
    out = ['BULK_MATERIALS:\t%d\n' % len(solfec.materials)]
    for m in solfec.materials:
        out.append('LABEL:\t%s\nMODEL:\tKIRCHHOFF\nYOUNG:\t%g\nPOISSON:\t%g\nDENSITY:\t%g\n'
                   % (_mat_label(solfec.materials, m), m.young, m.poisson, m.density))
    out.append('\n')
    return out


def _pieces(shape):
    """The convex pieces of a CONVEX (HULL) shape: (vertices, [(loop, surfid), ...])."""
    out, i = [], 0
    while True:
        try:
            p = _m.shape_piece(shape._cap, i)
        except ValueError:
            return out
        if p is not None:
            out.append(p)
        i += 1


def _shape(fn, body):
    """SHAPE_2_MBFCP of the shape Solfec's BODY makes (lng.c create_shape, shp.c SHAPE_Glue):
    the convex pieces lumped into one item, written first, then the meshes (nodes, elements,
    boundary faces with their surface ids), then the spheres; pieces in the deck's order."""
    from .shapes import Shape, Sphere
    items = body._shape if isinstance(body._shape, (list, tuple)) else [body._shape]
    pieces, meshes, spheres = [], [], []
    for s in items:
        if isinstance(s, Sphere):
            spheres.append(s)
        elif isinstance(s, Shape) and s._nn:
            meshes.append(s)
        elif isinstance(s, Shape) and s.kind in ('CONVEX', 'HULL'):
            pieces += _pieces(s)
        else:  # Solfec-1.0 has no MBFCP form of an ellipsoid (its eli.c asserts)
            raise ValueError('%s: body %d has a %s: Solfec-1.0\'s MBFCP format has no form for it'
                             % (fn, body._id, getattr(s, 'kind', type(s).__name__)))
    out = ['SHAPES:\t%d\n' % (len(meshes) + len(spheres) + (1 if pieces else 0))]
    if pieces:
        out.append('CONVEXES:\t%d\n' % len(pieces))
        for v, faces in pieces:
            out.append('VERTEXES:\t%d\n' % len(v) + ''.join('%g  %g  %g\n' % tuple(x) for x in v))
            out.append('FACES:\t%d\n' % len(faces))
            out += ['%d  %s%d\n' % (len(f), ''.join('%d  ' % n for n in f), sid) for f, sid in faces]
    if meshes:
        out.append('MESHES:\t%d\n' % len(meshes))
        for s in meshes:
            nodes, elems, _ = s.get_data()
            out.append('NODES:\t%d\n' % s._nn + ''.join('%g  %g  %g\n' % tuple(nodes[3 * n:3 * n + 3]) for n in range(s._nn)))
            rows, p = [], 0
            while p < len(elems):
                n = elems[p]
                rows.append('%d%s\n' % (n, ''.join('  %d' % x for x in elems[p + 1:p + 1 + n])))
                p += n + 2
            out.append('ELEMENTS:\t%d\n' % len(rows) + ''.join(rows))
            out.append('FACES:\t%d\n' % len(s._bfaces))
            out += ['%d%s  %d\n' % (len(f), ''.join('  %d' % n for n in f), sid) for f, sid in s._bfaces]
    if spheres:
        out.append('SPHERES:\t%d\n' % len(spheres))
        out += ['CENTER:\t%g  %g  %g\nRADIUS:\t%g\nSURFID:\t%d\n' % (tuple(s.center) + (s.radius, s.surfid)) for s in spheres]
    return out


def _body(fn, solfec, body, rec):
    """BODY_2_MBFCP: id, label, kind, bulk material, shape, velocity and loads."""
    mat = rec['material'].get(body._id)
    out = ['ID:\t%d\nLABEL:\t%s\nKINEMATICS:\t%s\nBULK_MATERIAL:\t%s\n'
           % (body._id, body.label if body.label is not None else 'BODY_%d' % body._id, body.kind,
              _mat_label(solfec.materials, mat) if mat in solfec.materials else '')]
    out += _shape(fn, body)
    u = body.velo
    out.append('VELOCITY:%s\n' % ''.join('  %g' % x for x in (u or [])))
    loads = []
    for b, kind, frame, point, direction, value in rec['load']:
        if b is not body:
            continue
        tms = _tms(value)
        if tms is None:  # a callable load: no data Solfec's format can hold
            continue
        p = point if point is not None else (body.center if kind == 1 else (0.0, 0.0, 0.0))
        loads.append('KIND:\t%s%s\nPOINT:\t%g  %g  %g\nDIRECTION:\t%g  %g  %g\n%s'
                     % (frame, '_TORQUE' if kind == 1 else '', p[0], p[1], p[2], direction[0], direction[1], direction[2], tms))
    out.append('FORCES:\t%d\n' % len(loads))
    out += loads
    out.append('\n')
    return out


def _unit(d):
    n = _math.sqrt(sum(x * x for x in d))
    return [x / n for x in d]


def _joint(fn, n, j):
    """DOM_2_MBFCP's constraint record; a kind Solfec has no record for gives its id only."""
    kind, b1, b2, p1, p2, d, value = j
    out = ['ID:\t%d\n' % n]
    if kind == 'FIXPNT':
        out.append('KIND:\tFIXPNT\nBODY:\t%d\nPOINT:\t%g  %g  %g\n' % ((b1._id,) + tuple(p1)))
    elif kind == 'FIXDIR' and b2 is None:
        out.append('KIND:\tFIXDIR\nBODY:\t%d\nPOINT:\t%g  %g  %g\nDIRECTION:\t%g  %g  %g\n' % ((b1._id,) + tuple(p1) + tuple(_unit(d))))
    elif kind == 'VELODIR':
        tms = _tms(value)
        if tms is None:
            raise ValueError('%s: joint %d of body %d prescribes a velocity by a callable (SET_VELOCITY with a function, '
                             'SET_DISPLACEMENT or SET_ACCELERATION): Solfec-1.0\'s MBFCP format holds only a number '
                             'or a TIME_SERIES' % (fn, n, b1._id))
        out.append('KIND:\tVELODIR\nBODY:\t%d\nPOINT:\t%g  %g  %g\nDIRECTION:\t%g  %g  %g\n%s'
                   % ((b1._id,) + tuple(p1) + tuple(_unit(d)) + (tms,)))
    elif kind == 'RIGLNK':
        out.append('KIND:\tRIGLNK\nBODY1:\t%d\nBODY2:\t%s\nPOINT1:\t%g  %g  %g\nPOINT2:\t%g  %g  %g\n'
                   % ((b1._id, 'NONE' if b2 is None else '%d' % b2._id) + tuple(p1) + tuple(p2)))
    out.append('\n')
    return out


def MBFCP_EXPORT(solfec, path):
    """MBFCP_EXPORT(solfec, path): writes the model defined so far as Solfec-1.0's text MBFCP
    definition into path, at once (as Solfec: one file, not one per step): surface materials,
    bulk materials, gravity, the bodies (moreau's ids from 0, label, kinematics, bulk
    material, shapes in their current place, velocity, forces given by a number or a
    TIME_SERIES) and the joints (numbered from 0 in the order the deck made them). On n > 1
    ranks each rank writes path.RANK with the bodies it owns and their joints, as Solfec-1.0's
    MPI build (moreau's velocity of a body is known on its owner only)."""
    fn = 'MBFCP_EXPORT'
    _check_solfec(fn, solfec)
    if not isinstance(path, str) or not path:
        raise TypeError('%s: path must be a file name (a non-empty string), got %r' % (fn, path))
    rec = _RECORD.get(solfec, {'material': {}, 'load': [], 'joint': []})
    out = _surface_materials(solfec) + _bulk_materials(solfec)
    if tuple(solfec._gravity) != _ZERO:
        out.append('GRAVITY:\n%s\n' % ''.join('CONSTANT:\t%g\n' % g for g in solfec._gravity))
    mine = [b for b in solfec._bodies if _SIZE == 1 or b._own]
    out.append('BODIES:\t%d\n\n' % len(mine))
    for b in mine:
        out += _body(fn, solfec, b, rec)
    joints = [(n, j) for n, j in enumerate(rec['joint']) if _SIZE == 1 or j[1]._own]
    out.append('CONSTRAINTS:\t%d\n\n' % len(joints))
    for n, j in joints:
        out += _joint(fn, n, j)
    target = path if _SIZE == 1 else '%s.%d' % (path, _RANK)
    try:
        with open(target, 'w') as f:
            f.write(''.join(out))
    except OSError as e:
        raise OSError('%s: cannot write %r: %s' % (fn, target, e)) from None
