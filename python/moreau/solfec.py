"""The SOLFEC object, BYLABEL, and the run around it: ranks, BARRIER, WARNINGS, EXTENTS, the
deck's arguments."""

import _moreau as _m
from ._checks import _choice, _notice, _pos, _RANK, _SIZE, _vec, _ZERO


def _check_solfec(fn, s):
    if not isinstance(s, Solfec):
        raise TypeError('%s: solfec must be a SOLFEC object, got %r' % (fn, s))
    return s


class Solfec:
    """SOLFEC(analysis, step, output): the simulation. Attributes: time (read only), step,
    verbose ('ON'/'OFF' or True/False), mode ('READ' when OUTDIR already held results, which
    RUN then reads instead of computing; 'WRITE' otherwise, or with moreau -w), bodies,
    outdir, h5/xmf (result file paths)."""
    __slots__ = ('_h', 'analysis', 'outdir', 'mode', '_verbose', '_bodies', '_labels', '_gravity',
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
        self._bodies = []  # in the order BODY made them; `bodies` gives Solfec-1.0's order
        self._labels = {}
        self._gravity = _ZERO
        self.materials = []
        self.surface_materials = []
        self.geometric_epsilon = None
        try:
            self._h, self.mode = _m.solfec_create(step, output)
        except OSError as e:
            raise OSError('SOLFEC: cannot write results to %r: %s' % (output, e)) from None
        if self.analysis == 'QUASI_STATIC':
            _m.solfec_quasi_static(self._h)

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
    def bodies(self):
        """The bodies, newest first: Solfec-1.0's order (its domain puts each new body at the
        head of its list, dom.c, and lng.c's `bodies` walks that list), which decks rely on:
        tests/BM23 reads `solfec.bodies[0]` for the beam it made after the obstacle. A new
        list each time, as Solfec's."""
        return self._bodies[::-1]

    @property
    def constraints(self):
        """The constraints as Solfec-1.0's list of CONSTRAINT objects: in WRITE mode this
        rank's of the last step (as Solfec's, each rank has its own), in READ mode the read
        frame's, on every rank (none before a SEEK, FORWARD or BACKWARD)."""
        ids = {b._id: b for b in self._bodies}
        return [ConstraintState(r, ids) for r in _m.solfec_constraints(self._h)]

    @property
    def ncon(self):
        """len(solfec.constraints)."""
        return len(_m.solfec_constraints(self._h))

    @property
    def nbod(self):
        """The bodies this rank owns (Solfec-1.0: its domain's body count)."""
        return sum(1 for b in self._bodies if b._own)

    @property
    def outpath(self):
        """The output directory (Solfec-1.0's name for it), with the command line's
        subdirectory (-s SUB) appended as Solfec-1.0 appends it."""
        sub = _m.output_subdir()
        return self.outdir.rstrip('/') + '/' + sub if sub else self.outdir

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


def VIEWER():
    """VIEWER() -> False: moreau has no viewer; open the .xmf file in ParaView."""
    return False


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


_WARNINGS = ['ON']


def WARNINGS(state):
    """WARNINGS(state): 'ON' or 'OFF', checked and kept; moreau's warnings are always printed
    (they name a step above a critical one, or a setting moreau does not use)."""
    _WARNINGS[0] = _choice('WARNINGS', 'state', state, ('ON', 'OFF'))


def EXTENTS(solfec, extents):
    """EXTENTS(solfec, extents): checked and not enforced (Solfec-1.0 deletes bodies that leave
    the box; moreau keeps them); a notice says so."""
    fn = 'EXTENTS'
    _check_solfec(fn, solfec)
    e = _vec(fn, 'extents', extents, 6)
    if not all(e[k] < e[k + 3] for k in range(3)):
        raise ValueError('%s: extents must be (xmin, ymin, zmin, xmax, ymax, zmax) with min < max, got %r' % (fn, extents))
    _notice(fn, 'bodies leaving the extents are not deleted in moreau')


def BARRIER():
    """BARRIER(): every rank meets here (collective)."""
    _m.sync()


def SUBDIR():
    """SUBDIR() -> the output subdirectory given on the command line (Solfec's -s SUB, or
    -mb_output_subdir SUB), or None."""
    return _m.output_subdir()


def NON_SOLFEC_ARGV():
    """NON_SOLFEC_ARGV() -> the deck's arguments (those after the deck on the command line), or
    None without any."""
    import sys
    return list(sys.argv[1:]) or None
