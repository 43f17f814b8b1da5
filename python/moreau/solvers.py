"""The constraint solvers, RUN and what steers a run: CALLBACK, TIME_ADAPT, CRITICAL_STEP,
SCHEME_PARAMETERS, IMBALANCE_TOLERANCE, GEOMETRIC_EPSILON."""

import _moreau as _m
from ._checks import _choice, _int, _isnum, _nonneg, _num, _pos
from .solfec import _check_solfec


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


_SOLVER_STATS = ('rerhist', 'mvhist')  # per iteration of a solve: not kept (merhist is)


def _stat(solver, name):
    """iters and error: the last step's, of the last RUN with this solver (None before one);
    itershist: the iterations of every step since itershist = 'ON' (None without)."""
    run = object.__getattribute__(solver, '_runs')
    if run is None or (name == 'itershist' and run[3] is None):
        return None
    solfec, t0, t1, ton = run
    item = 'ERROR' if name == 'error' else 'ITERATIONS'
    ts = ton if name == 'itershist' else t0
    t, v = _m.solfec_history(solfec._h, item, ts, t1)
    v = [x for tt, x in zip(t, v) if tt > ts + 1e-10 * max(1.0, abs(ts))]  # the steps after ts
    if name == 'itershist':
        return [int(x) for x in v]
    if not v:
        return None
    return v[-1] if name == 'error' else int(v[-1])


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
    effect at the next RUN. Solfec's statistics of the last step, iters and error, and
    itershist (after itershist = 'ON': the iterations of every step since) come from the
    step history of the RUNs with this solver (the deck needs OUTPUT's results, as HISTORY);
    merhist is the convergence measure at each iteration of the last solve (the Newton
    solver's natural-map error, Gauss-Seidel's relative increment: moreau's measures, not
    Solfec's merit function; [] before a solve); rerhist and mvhist are not kept."""
    # _runs: for Solfec's statistics, read from the step history of the RUNs with this solver:
    # [solfec, t0 and t1 of its last RUN, t at itershist = 'ON' or None], or None before both
    __slots__ = ('kind', 'args', '_runs', '_sol')  # _sol: the SOLFEC object of its last (or current) RUN

    def __init__(self, kind, args):
        object.__setattr__(self, 'kind', kind)
        object.__setattr__(self, 'args', args)
        object.__setattr__(self, '_runs', None)
        object.__setattr__(self, '_sol', None)

    def _run_record(self):
        if self._runs is None:
            object.__setattr__(self, '_runs', [None, 0.0, 0.0, None])
        return self._runs

    def __getattr__(self, name):
        try:
            return object.__getattribute__(self, 'args')[name]
        except KeyError:
            pass
        kind = object.__getattribute__(self, 'kind')
        if name in ('iters', 'error', 'itershist'):
            return _stat(self, name)
        if name == 'merhist':
            sol = object.__getattribute__(self, '_sol')
            return [] if sol is None else _m.solfec_solver_history(sol._h)
        if name in _SOLVER_STATS:
            raise AttributeError("%s.%s: not supported in moreau: the solver keeps no statistics per iteration; "
                                 "iters, error and itershist are the steps', or use HISTORY(solfec, 'ITERATIONS') or HISTORY(solfec, 'ERROR')" % (kind, name))
        raise AttributeError('%s has no attribute %r' % (kind, name))

    def __setattr__(self, name, value):
        fn = '%s.%s' % (self.kind, name)
        if name == 'itershist':  # Solfec: 'ON' starts the record anew, anything else leaves it
            if value == 'ON':
                run = self._run_record()
                run[3] = run[2] if run[0] is not None else 0.0
            return
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
            _m.solfec_solver(solfec._h, 'gauss_seidel', 'signorini_coulomb', a['epsilon'], a['maxiter'], _FAILURE[a['failure']], cb, None)
        elif solver.kind == 'NEWTON_SOLVER':
            _m.solfec_solver(solfec._h, 'newton', 'signorini_coulomb', a['meritval'], a['maxiter'], 0, None, None)
        else:  # contacts as spring-dashpot forces, joints by Gauss-Seidel
            _m.solfec_solver(solfec._h, 'gauss_seidel', 'spring_dashpot', 1e-6, 1000, 0, None, None)
    t0 = solfec.time
    if solver is not None:  # merhist inside the RUN's callbacks
        object.__setattr__(solver, '_sol', solfec)
    _m.solfec_run(solfec._h, duration)
    if solver is not None:  # for its statistics (iters, error, itershist)
        run = solver._run_record()
        run[0], run[1], run[2] = solfec, t0, solfec.time


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


def REGISTER_CALLBACK(callback, data=None):
    """REGISTER_CALLBACK(callback, data): accepted; moreau passes callables by reference on
    every rank, so there is nothing to register."""
    if not callable(callback):
        raise TypeError('REGISTER_CALLBACK: callback must be callable, got %r' % (callback,))
