"""BODY and what is set or read on one: BODY_CHARS, INITIAL_VELOCITY, MASS_CENTER,
DISPLACEMENT, VELOCITY, STRESS, BODY_STATE."""

import _moreau as _m
from ._checks import _int, _nonneg, _notice, _pos, _vec
from .solfec import _check_solfec, Solfec
from .materials import BulkMaterial
from .shapes import _parts, Shape, Sphere
from .mbfcp import _note


def _check_body(fn, b):
    if not isinstance(b, Body):
        raise TypeError('%s: body must be a BODY object, got %r' % (fn, b))
    if type(b) is _DeletedBody:  # Solfec-1.0's is_body: "is a recently deleted BODY object"
        raise TypeError('%s: body %d is a deleted BODY object (DELETE removed it from its SOLFEC object)' % (fn, b._id))
    return b


_LATER_KINDS = ('EXTENDED_PSEUDO_RIGID',)  # Solfec-1.0's kinds that moreau does not have yet
_KIND = {}  # the body kinds C has registered, by name: what each is (_m.body_kind), asked once


def _kind(name):
    """What the body kind registered as name is (C's answer: code, nq, nu, nodal, movable,
    elastic, torque, pressure, scheme, forms), or None when no kind has that name."""
    k = _KIND.get(name) if isinstance(name, str) else None
    if k is None and isinstance(name, str) and name in _m.body_kinds():
        k = _KIND[name] = _m.body_kind(name)
    return k


def _kinds(last, quote=''):
    """The registered kinds' names for a message: 'A, B, C or D' (last = 'or')."""
    n = ['%s%s%s' % (quote, x, quote) for x in _m.body_kinds()]
    return ', '.join(n[:-1]) + ' %s ' % last + n[-1] if len(n) > 1 else n[0]


def _a(kind):
    """'an OBSTACLE', 'a RIGID': the kind with its article, for messages."""
    return ('an ' if kind[:1] in 'AEIOU' else 'a ') + kind


class Body:
    """A body. On the owner rank it reads the C state; elsewhere it is a proxy whose conf
    and velo read None (as in Solfec); mass, volume and center are known on every rank."""
    __slots__ = ('_sol', '_id', 'kind', 'label', '_shape', '_mesh', '_rho', '_x', '_n', '_k')

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
        q = _vec('BODY.conf', 'value', q, self._n[0])
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
        u = _vec('BODY.velo', 'value', u, self._n[1])
        if not self._k['velocity'] and any(u):
            raise ValueError('BODY.velo: body %d is %s: it cannot be given a velocity' % (self._id, _a(self.kind)))
        if self._own:
            _m.body_set_state(self._sol._h, self._id, 1, u)

    @property
    def scheme(self):
        if self._own:
            return _m.body_get(self._sol._h, self._id, 3)
        if self._x and 'scheme' in self._x:
            return self._x['scheme']
        if not self._k['movable']:
            return None
        return self._k['scheme'] or _m.default_scheme()

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

    @property
    def mesh(self):
        """Solfec-1.0's BODY.mesh: the MESH (or HEX) a body was made of — a FINITE_ELEMENT
        body's mesh, whose node(n) are its referential points; several meshes of a compound
        shape as a list; None without one."""
        from .shapes import Shape
        if self._mesh is not None:  # the mesh= that carries a FINITE_ELEMENT body's shape
            return self._mesh
        parts = self._shape if isinstance(self._shape, (list, tuple)) else [self._shape]
        meshes = [p for p in parts if isinstance(p, Shape) and p.kind in ('MESH', 'HEX')]
        return None if not meshes else meshes[0] if len(meshes) == 1 else meshes

    @property
    def display_points(self):
        """Solfec-1.0's BODY.display_points: [(label, (x, y, z))] of the body's DISPLAY_POINTs,
        where each referential point is now; None on ranks that do not own the body (Solfec
        gives None in parallel)."""
        if not self._own:
            return None
        pts = self._x.get('display', []) if self._x else []
        return [(lab, tuple(X[i] + d for i, d in enumerate(_m.body_point(self._sol._h, self._id, list(X), 0)))) for lab, X in pts]

    @display_points.setter
    def display_points(self, v):
        raise ValueError('BODY.display_points: a read-only member (DISPLAY_POINT adds points)')

    @property
    def selfcontact(self):
        """Solfec-1.0's switch of a FINITE_ELEMENT body's contact with itself: 'OFF' (the
        default) or 'ON': its elements that share no node make contacts with each other
        (rows whose master and slave are this body), from the next step on."""
        return self._x.get('selfcontact', 'OFF') if self._x else 'OFF'

    @selfcontact.setter
    def selfcontact(self, v):
        fn = 'BODY.selfcontact'
        if self.kind != 'FINITE_ELEMENT':  # as Solfec-1.0 (lng.c)
            raise ValueError('%s: self-contact is only valid for FINITE_ELEMENT bodies; body %d is %s' % (fn, self._id, self.kind))
        if v not in ('ON', 'OFF'):
            raise ValueError("%s: must be 'ON' or 'OFF', got %r" % (fn, v))
        _m.self_contact(self._sol._h, self._id, v == 'ON')
        self._extra()['selfcontact'] = v

    @property
    def disable_rotation(self):
        """Solfec-1.0's switch of a RIGID body's rotation: 'ON', the rotation is not integrated
        (the body keeps its orientation and translates only), or 'OFF' (the default)."""
        return self._x.get('disable_rotation', 'OFF') if self._x else 'OFF'

    @disable_rotation.setter
    def disable_rotation(self, v):
        fn = 'BODY.disable_rotation'
        if v not in ('ON', 'OFF'):
            raise ValueError("%s: must be 'ON' or 'OFF', got %r" % (fn, v))
        if not self._k.get('rotation'):  # Solfec-1.0 warns and ignores it (lng.c)
            _notice(fn, "only RIGID bodies' rotation can be disabled; body %d is %s: ignored, as in Solfec"
                    % (self._id, _a(self.kind)))
            return
        if v == 'OFF' and self.disable_rotation == 'ON':
            raise ValueError("%s = 'OFF' after 'ON' is not supported in moreau: the body's rotation stays disabled" % fn)
        if v == 'ON' and self._own:
            try:
                _m.body_disable_rotation(self._sol._h, self._id)
            except ValueError as e:
                raise ValueError('%s: %s' % (fn, e)) from None
        self._extra()['disable_rotation'] = v

    def _extra(self):
        if self._x is None:
            self._x = {}
        return self._x

    def __repr__(self):
        return '<BODY %d %s%s>' % (self._id, self.kind, (' %r' % self.label) if self.label else '')


class _DeletedBody(Body):
    """A BODY that DELETE removed (constraints.py): its id, kind and label stay readable (for
    messages, as repr shows them); anything else is a TypeError that says it was deleted, as
    Solfec-1.0's "is a recently deleted BODY object"."""
    __slots__ = ()
    _KEPT = frozenset(('_id', 'id', 'kind', 'label', '__class__'))

    def __getattribute__(self, name):
        if name in _DeletedBody._KEPT or name.startswith('__'):
            return object.__getattribute__(self, name)
        raise TypeError('BODY.%s: body %d is a deleted BODY object (DELETE removed it from its SOLFEC object)'
                        % (name, object.__getattribute__(self, '_id')))

    def __setattr__(self, name, value):
        raise TypeError('BODY.%s: body %d is a deleted BODY object (DELETE removed it from its SOLFEC object)'
                        % (name, object.__getattribute__(self, '_id')))

    def __repr__(self):
        return '<BODY %d %s, deleted>' % (self._id, self.kind)


def _delete_body(solfec, body):
    """DELETE(solfec, body) (constraints.py): the body and its joints leave the domain (C:
    MbDomainRemoveBody, every rank alike), solfec.bodies and the labels; the object becomes a
    _DeletedBody. Before the first RUN only."""
    fn = 'DELETE'
    if body._sol is not solfec:
        raise ValueError('%s: body %d belongs to another SOLFEC object' % (fn, body._id))
    try:
        _m.body_remove(solfec._h, body._id)
    except ValueError as e:
        if 'not supported in moreau' in str(e):
            raise NotImplementedError(str(e)) from None
        raise
    solfec._bodies.remove(body)
    if body.label is not None and solfec._labels.get(body.label) is body:
        del solfec._labels[body.label]
    body.__class__ = _DeletedBody


def BODY(solfec, kind, shape, material, label=None, form=None, mesh=None, modal=None, base=None):
    """BODY(solfec, kind, shape, material, label, form): kinds 'RIGID', 'OBSTACLE',
    'PSEUDO_RIGID' and 'FINITE_ELEMENT' (both Saint Venant-Kirchhoff from the material's
    young and poisson; a FINITE_ELEMENT body's shape is its mesh, a MESH or a HEX, and
    form 'TL', total Lagrangian (the default), or 'BC', body co-rotational: linear
    elasticity in a frame turning with the body, or 'BC-MODAL' and 'BC-RO', the 'BC' body
    moving in the span of base=(values, vectors), MODAL_ANALYSIS's answer or part of it
    ('RO' and modal= are Solfec-1.0's older names of 'BC-MODAL' and base=)), or any other
    kind registered in C (MbBodyKindRegister): what a kind takes is C's answer (_kind)."""
    fn = 'BODY'
    if form == 'RO':  # Solfec-1.0 before April 2017 (its commit dff22ca renamed them)
        form = 'BC-MODAL'
    if modal is not None:
        if base is not None:
            raise TypeError('%s: give the base once, as base= (modal= is its older name)' % fn)
        base = modal
    if type(solfec) is not Solfec:
        _check_solfec(fn, solfec)
    k = _kind(kind)
    if k is None:
        if kind in _LATER_KINDS:
            raise ValueError("%s: kind %r is not supported yet (%s are)" % (fn, kind, _kinds('and')))
        raise ValueError("%s: kind must be %s, got %r" % (fn, _kinds('or', "'"), kind))
    if isinstance(material, str):  # Solfec-1.0: a bulk material's label
        found = [m for m in solfec.materials if m.label == material]
        if not found:
            raise TypeError('%s: material must be a BULK_MATERIAL object or the label of one, got %r (no BULK_MATERIAL has that label)' % (fn, material))
        material = found[-1]
    if type(material) is not BulkMaterial:
        raise TypeError('%s: material must be a BULK_MATERIAL object or the label of one, got %r' % (fn, material))
    if k['elastic']:  # checked on every rank: the same error everywhere
        if not material.young > 0:
            raise ValueError("%s: a %s body needs Young's modulus > 0, got young=%r" % (fn, kind, material.young))
        if not -1 < material.poisson < 0.5:
            raise ValueError("%s: a %s body needs Poisson's ratio in (-1, 0.5), got poisson=%r" % (fn, kind, material.poisson))
    if k['nodal'] and mesh is not None and not (isinstance(mesh, Shape) and mesh._nn):
        raise TypeError('%s: mesh must be a MESH (or HEX, PIPE) object, got %r' % (fn, mesh))
    if not k['nodal']:
        mesh = None  # Solfec-1.0 takes mesh= for FINITE_ELEMENT bodies only (lng.c)
    forms = tuple(f for f, _ in k['forms'])  # the first is the default; a kind without forms ignores form=, as Solfec does
    if forms and form not in (None,) + forms:
        raise ValueError("%s: %s form %r is not supported yet: %s are" % (fn, kind, form, ' and '.join("'%s' (%s)" % f for f in k['forms'])))
    if k['nodal'] and mesh is None and not (isinstance(shape, Shape) and shape._nn):
        raise ValueError('%s: %s body needs a MESH or HEX shape (its mesh), got %r' % (fn, _a(kind), shape))
    reduced = form in ('BC-MODAL', 'BC-RO') and form in forms
    if reduced:
        base = _base(fn, base, 3 * shape._nn) if base is not None else None
    if reduced and base is None:
        raise ValueError("%s: the %s form needs its base: base=(values, vectors), e.g. MODAL_ANALYSIS's answer" % (fn, form))
    if label is not None and type(label) is not str:
        raise TypeError('%s: label must be a string, got %r' % (fn, label))
    h = solfec._h
    if type(shape) is Sphere and mesh is None:  # the fast path: a million spheres
        c = shape.center
        bid = _m.body_sphere(h, kind, c[0], c[1], c[2], shape.radius, shape.volid, shape.surfid, material.density, label,
                             material.young, material.poisson)
    else:
        parts = _parts(fn, shape, [])
        if mesh is None:
            bid = _m.body_shape(h, kind, parts if _m.next_owned(h) else None, material.density, label,
                                material.young, material.poisson)
        else:  # the shape's points move with the elements of mesh that hold them (Solfec-1.0's fem.c)
            bid = _m.body_shape(h, kind, parts if _m.next_owned(h) else None, material.density, label,
                                material.young, material.poisson, mesh._cap)
    b = Body()
    b._sol = solfec
    b._id = bid
    if forms and form not in (None, forms[0]) and b._own:
        _m.body_form(h, bid, form)
    if reduced and b._own:
        try:
            _m.body_basis(h, bid, base[0], base[1])
        except ValueError as e:
            raise ValueError('%s: %s' % (fn, e)) from None
    b.kind = kind
    b.label = label
    b._shape = shape  # mass properties where the body is not owned (bodies migrate)
    b._mesh = mesh
    b._rho = material.density
    b._x = None
    b._k = k
    nn = (shape if mesh is None else mesh)._nn if k['nodal'] else 1  # a nodal kind's nq, nu are per node of its mesh
    b._n = (k['nq'] * nn, k['nu'] * nn)  # len(conf) and len(velo)
    solfec._bodies.append(b)
    _note(solfec, 'material', (bid, material))
    if label is not None:
        solfec._labels[label] = b
    if reduced:
        b.scheme = 'DEF_LIM'  # as Solfec-1.0's lng.c: the reduced forms take only DEF_LIM
    return b


def _base(fn, base, nu):
    """BODY's base=(values, vectors): n numbers and n vectors of nu numbers, one after
    another (Solfec-1.0's layout; a label of REGISTER_BASE is not supported)."""
    if isinstance(base, str):
        raise ValueError('%s: base=%r names a REGISTER_BASE base, which moreau does not have: give base=(values, vectors)' % (fn, base))
    if not (isinstance(base, (tuple, list)) and len(base) == 2):
        raise TypeError('%s: base must be a tuple (values, vectors), got %r' % (fn, type(base).__name__))
    try:
        vals = [float(x) for x in base[0]]
        vecs = [float(x) for x in base[1]]
    except (TypeError, ValueError):
        raise TypeError('%s: base must be (values, vectors), two sequences of numbers' % fn) from None
    if not vals or len(vecs) != len(vals) * nu:
        raise ValueError('%s: base has %d values and %d vector entries; the mesh has %d unknowns, so %d vectors need %d entries (modal analysis data size and mesh size do not match)'
                         % (fn, len(vals), len(vecs), nu, len(vals), len(vals) * nu))
    return vals, vecs


def _read_modes(path):
    """A MODAL_ANALYSIS file: (m, values, vectors), or None when there is none or it is not one."""
    import struct
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    if len(data) < 8:
        return None
    m, n = struct.unpack('>ii', data[:8])
    if m < 1 or n < 1 or len(data) != 8 + 8 * n * (m + 1):
        return None
    vals = list(struct.unpack('>%dd' % n, data[8:8 + 8 * n]))
    vecs = list(struct.unpack('>%dd' % (n * m), data[8 + 8 * n:]))
    return m, vals, vecs


def _write_modes(path, m, vals, vecs):
    """Solfec-1.0's MODAL_ANALYSIS file as its XDR build writes it: m and n (32-bit, big
    endian), the n values, then the n vectors of m numbers (doubles, big endian); the
    folders on the way are made."""
    import os
    import struct
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, 'wb') as f:
        f.write(struct.pack('>ii', m, len(vals)))
        f.write(struct.pack('>%dd' % len(vals), *vals))
        f.write(struct.pack('>%dd' % len(vecs), *vecs))


def MODAL_ANALYSIS(body=None, num=0, path=None, abstol=1E-11, maxiter=100, verbose=None):
    """MODAL_ANALYSIS(body, num, path, abstol, maxiter, verbose) -> (values, vectors): the
    num lowest eigenpairs of K phi = lambda M phi of a FINITE_ELEMENT body (K its stiffness
    at the reference configuration, M its lumped masses; its FIX_POINTs play no part, as in
    Solfec-1.0), lambda = omega^2 ascending, the vectors M-orthonormal, one after another
    (3 per node each), as lists. LAPACK's dense solver finds them exactly, so abstol and
    maxiter (Solfec's Lanczos iteration's) are checked but have no effect. The answer is
    written to path (Solfec-1.0's XDR layout); a path that holds num pairs (any number when
    num is 0 or no body is given) of a body of that size is read instead of computing anew,
    as Solfec does."""
    from .solfec import RANK
    fn = 'MODAL_ANALYSIS'
    if body is not None:
        _check_body(fn, body)
    num = _int(fn, 'num', num)
    if num < 0:
        raise ValueError('%s: num must be >= 0, got %d' % (fn, num))
    if not isinstance(path, str) or not path:
        raise TypeError('%s: path must be a file name (where the modes are written), got %r' % (fn, path))
    _pos(fn, 'abstol', abstol)
    if _int(fn, 'maxiter', maxiter) <= 0:
        raise ValueError('%s: maxiter must be > 0, got %d' % (fn, maxiter))
    if verbose is not None and verbose not in ('ON', 'OFF'):
        raise ValueError("%s: verbose must be 'ON' or 'OFF', got %r" % (fn, verbose))
    nu = body._n[1] if body is not None else None
    old = _read_modes(path)
    if old is not None and ((num > 0 and len(old[1]) != num) or (nu is not None and old[0] != nu)):
        old = None  # computed anew
    if body is None:
        if old is None:
            raise ValueError('%s: neither a body nor a file of modes at path=%r' % (fn, path))
        return old[1], old[2]
    if old is not None:
        return old[1], old[2]
    if num == 0:
        raise ValueError("%s: num must be positive when a body is given, got 0" % fn)
    if num > nu:
        raise ValueError('%s: body %d has %d unknowns (3 per node): num must be at most that, got %d' % (fn, body._id, nu, num))
    vals, vecs = _m.body_modal(body._sol._h, body._id, num)
    if RANK() == 0:
        _write_modes(path, nu, vals, vecs)
        if verbose == 'ON':
            print('%s: body %d, %d unknowns: the %d lowest eigenvalues %s' % (fn, body._id, nu, num, ' '.join('%.6g' % v for v in vals)), flush=True)
    return vals, vecs


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
    referential Ω = Λᵀω). An OBSTACLE takes one too, as in Solfec-1.0: it then moves with it
    (a spin about a principal axis keeps its rate), carried by no load and no contact."""
    fn = 'INITIAL_VELOCITY'
    _check_body(fn, body)
    lin = _vec(fn, 'linear', linear)
    ang = _vec(fn, 'angular', angular)
    if not body._k['velocity'] and (any(lin) or any(ang)):
        raise ValueError('%s: body %d is %s: it cannot be given a velocity' % (fn, body._id, _a(body.kind)))
    if body._own:
        _m.body_velocity(body._sol._h, body._id, lin, ang)


def MASS_CENTER(shape):
    """MASS_CENTER(shape) -> the mass centre of a shape (or list of shapes), or of a BODY
    (its referential mass centre)."""
    if isinstance(shape, Body):
        return shape.center
    return tuple(_m.shape_massprops(_parts('MASS_CENTER', shape, []), 1.0)[2])


def DISPLAY_POINT(body, point, label=None):
    """DISPLAY_POINT(body, point, label): Solfec-1.0's viewer marker (moreau has no viewer:
    use HISTORY at the point, or ParaView); kept for body.display_points."""
    fn = 'DISPLAY_POINT'
    _check_body(fn, body)
    p = _vec(fn, 'point', point)
    if label is not None and not isinstance(label, str):
        raise TypeError('%s: label must be a string, got %r' % (fn, label))
    body._extra().setdefault('display', []).append(('' if label is None else label, tuple(p)))


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
    referential point `point` (a finite element's at the point; at a mesh node the mean over
    the elements around it, as Solfec-1.0's; the mean of the body for the other kinds); None
    where not owned."""
    return _point_value('STRESS', body, point, 2)


def BODY_STATE(body):
    """BODY_STATE(body) -> (conf, velo) on every rank (moreau's own; collective): the owner's
    state, sent to all. A parallel deck's CALLBACK reads a body's state with it where
    body.conf and body.velo read None (ranks that do not own the body)."""
    if not isinstance(body, Body):
        raise TypeError('BODY_STATE: body must be a BODY, got %r' % (body,))
    return _m.body_state(body._sol._h, body._id)
