"""OUTPUT, CHECKPOINT and what the deck reads back of a run: ENERGY, HISTORY, TIMING."""

import numbers as _numbers

import _moreau as _m
from ._checks import _choice, _isnum, _nonneg, _notice, _num, _pos, _vec
from .solfec import _check_solfec
from .bodies import Body, _check_body


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
    both kinds come on one time axis. Solfec-1.0's timer names ('TIMINT', 'CONUPD', 'CONDET',
    'LOCDYN', 'CONSOL', 'PARBAL', 'GS...', 'LIN...') give series of zeros at the steps' times,
    with a one-line notice: moreau keeps no phase times per step. Collective."""
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
        if len(it) == 2 and it[0] is solfec and it[1] in _HISTORY_TIMERS:
            _notice(fn, "Solfec-1.0's timers (TIMINT, CONUPD, CONDET, LOCDYN, CONSOL, ...) are not kept per step in "
                        "moreau: their series are zeros (the run's summary prints the time per phase; "
                        "(solfec, 'WALLTIME') is kept per step)")
            t, _ = _m.solfec_history(solfec._h, 'TIME', t0, t1)
            v = [0.0] * len(t)
        elif len(it) == 2 and it[0] is solfec:
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


_TIMERS = ('TIMINT', 'CONUPD', 'CONDET', 'LOCDYN', 'CONSOL', 'PARBAL')
# the timers Solfec-1.0's HISTORY takes as items (its lng.c, parse_history_item): the phases
# of a step (time integration, contact update, detection, local dynamics, solution, balancing)
# and the Gauss-Seidel and linear solvers' parts
_HISTORY_TIMERS = _TIMERS + ('GSINIT', 'GSRUN', 'GSCOM', 'GSMCOM', 'LININIT', 'LINUPD', 'LINMV', 'LINPRE', 'LINRUN', 'LINCOM')


def TIMING(solfec, kind):
    """TIMING(solfec, kind) -> None: Solfec-1.0 returns a phase's time per step in 'READ' mode and
    None in 'WRITE' mode; moreau keeps no such per-phase series (its summary prints the times
    per phase, and HISTORY(solfec, 'WALLTIME') gives the wall time per step)."""
    _check_solfec('TIMING', solfec)
    _choice('TIMING', 'kind', kind, _TIMERS)
    return None


def LOCDYN_DUMP(solfec, path):
    """LOCDYN_DUMP(solfec, path): the last step's local dynamics as text into path, one line
    per constraint, as Solfec-1.0's ldy.c lays it out: '#row KIND (point) (master, slave)
    [frame] [W_ii] (B) (V) (U) (R)', then ' => #col [W_ij]' for each other block of the row
    (Solfec names that constraint by its kind, point, bodies and frame; here by its row,
    whose line has them). Empty before the first step (and in READ mode). Collective."""
    _check_solfec('LOCDYN_DUMP', solfec)
    if not isinstance(path, str):
        raise TypeError('LOCDYN_DUMP: path must be a string, got %r' % (path,))
    try:
        _m.solfec_locdyn_dump(solfec._h, path)
    except ValueError as e:
        raise ValueError('LOCDYN_DUMP: %s' % e) from None
