"""INITIALIZE_STATE and RIGID_TO_FEM: a run starts from the state of the bodies of another
run's results (Solfec-1.0 lng.c behaviour; src/io/initstate.c)."""

import os as _os
import re as _re

import _moreau as _m
from ._checks import _nonneg, _RANK
from .solfec import _check_solfec


def _results(fn, solfec, path):
    """The earlier run's results from the path a deck gives (Solfec's output directory of
    that run): (dir, name) of DIR/<name>.h5. moreau names a run's file after its deck, so the
    directory's .h5 file named after the directory is taken (Solfec decks name their output
    directory after the deck), else its only .h5 file; a path to the .h5 file itself also
    works."""
    if not isinstance(path, str) or not path:
        raise TypeError('%s: path must be the output directory of an earlier run (a non-empty string), got %r' % (fn, path))
    if path.endswith('.h5'):
        if not _os.path.isfile(path):
            raise FileNotFoundError('%s: no results file %r (from %s)' % (fn, path, _os.getcwd()))
        d, f = _os.path.split(path)
        return d or '.', f[:-3]
    if not _os.path.isdir(path):
        raise FileNotFoundError("%s: no results at %r: that output directory does not exist (looked from %s); run the deck "
                                "that writes it first, in the same directory" % (fn, path, _os.getcwd()))
    own = _os.path.realpath(solfec.h5)
    found = sorted(f[:-3] for f in _os.listdir(path)
                   if f.endswith('.h5') and _os.path.realpath(_os.path.join(path, f)) != own)
    base = _os.path.basename(_os.path.normpath(path))
    if base in found:
        return path, base
    if len(found) == 1:
        return path, found[0]
    if not found:
        raise FileNotFoundError("%s: no results at %r: the directory holds no .h5 results file; run the deck that writes "
                                "them first, in the same directory" % (fn, path))
    raise ValueError('%s: %r holds several results files (%s) and none is named after the directory: give the path '
                     'of the .h5 file' % (fn, path, ', '.join(f + '.h5' for f in found)))


def _subset(fn, solfec, subset):
    """The labels of the deck's bodies that subset's patterns (regular expressions, searched in
    the labels as Solfec's POSIX regexec does) match, or None without subset."""
    if subset is None:
        return None
    pats = [subset] if isinstance(subset, str) else subset
    if not isinstance(pats, (list, tuple)) or not pats or not all(isinstance(p, str) for p in pats):
        raise TypeError('%s: subset must be a label pattern or a list of them (strings), got %r' % (fn, subset))
    labels = []
    for p in pats:
        try:
            rx = _re.compile(p)
        except _re.error as e:
            raise ValueError('%s: subset pattern %r is not a regular expression: %s' % (fn, p, e)) from None
        hit = [b.label for b in solfec._bodies if b.label and rx.search(b.label)]
        if not hit:
            raise ValueError('%s: subset pattern %r matches no body label of this run' % (fn, p))
        labels += [lab for lab in hit if lab not in labels]
    return labels


def _init(fn, solfec, path, time, subset, r2f):
    _check_solfec(fn, solfec)
    t = _nonneg(fn, 'time', time)
    d, name = _results(fn, solfec, path)
    labels = _subset(fn, solfec, subset)
    tf = _m.solfec_initialize_state(solfec._h, d, name, t, labels, r2f)
    if tf is not None and _RANK == 0:
        print('moreau: %s: %s from %s at t = %.10g%s' % (
            fn, 'bodies take their state' if not r2f else 'bodies take the rigid motion (or state)',
            _os.path.join(d, name + '.h5'), tf, '' if labels is None else ' (%d by label)' % len(labels)), flush=True)


def INITIALIZE_STATE(solfec, path, time, subset=None):
    """INITIALIZE_STATE(solfec, path, time, subset): the bodies take their state (configuration
    and velocity; a FINITE_ELEMENT body's nodal state) from the results of an earlier run whose
    output directory is `path`, at its stored frame nearest `time`: every body from the body
    with its id there (both runs must make the same bodies), or with subset (a label pattern or
    a list of them) only the bodies whose labels match, each from the body of its label. The
    run's clock still starts at 0, as in Solfec-1.0. Ignored in READ mode. Collective."""
    _init('INITIALIZE_STATE', solfec, path, time, subset, False)


def RIGID_TO_FEM(path, time, solfec, subset=None):
    """RIGID_TO_FEM(path, time, solfec, subset): as INITIALIZE_STATE (note the argument order,
    Solfec-1.0's), and a FINITE_ELEMENT body whose counterpart in the earlier run was RIGID
    takes that rigid motion at its nodes: x = x̄ + Λ(X − X̄), u = v + ω × (x − x̄). Collective."""
    _init('RIGID_TO_FEM', solfec, path, time, subset, True)
