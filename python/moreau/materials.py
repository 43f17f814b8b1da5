"""BULK_MATERIAL and SURFACE_MATERIAL."""

import _moreau as _m
from ._checks import _choice, _int, _nonneg, _num, _pos
from .solfec import _check_solfec


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
    if not -1 < m.poisson <= 0.5:  # 0.5 (incompressible) as Solfec-1.0; a deformable body refuses it (BODY)
        raise ValueError('%s: poisson must be in (-1, 0.5], got %r' % (fn, poisson))
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
    along the contact normal (Solfec-1.0); hpow the power of the penetration in the spring force
    (1 linear, 1.5 Hertz's for spheres: k·penetration^hpow)."""
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
    _m.solfec_surface_material(solfec._h, -1 if m.surf1 is None else m.surf1, -1 if m.surf2 is None else m.surf2,
                               0 if m.model == 'SIGNORINI_COULOMB' else 1, m.friction, m.cohesion,
                               m.restitution, m.spring, m.dashpot, m.hpow)
    solfec.surface_materials.append(m)
    return m
