"""Solfec-1.0's installation as its decks look for it. Not API: src/input/python.c calls
_install() before a deck runs.

Decks find Solfec's helper scripts (scripts/abaqusreader, scripts/acc_sweep.py) by looking for
the `solfec` executable on PATH and appending <its directory>/scripts to sys.path
(examples/81array/81array.py, examples/parallel-scaling/array-of-cubes.py), or import them
directly (inp/fratest.py, tests/mesh_getdata.py). moreau's build directory holds `solfec` (a link
to moreau) and `scripts` (a link to the solfec-compat folder beside this file, moreau's own
abaqusreader and acc_sweep), both made by the Makefile; here the running binary's directory goes
first on PATH, so that such a deck finds them, and solfec-compat goes last on sys.path, so that
a direct import finds moreau's modules unless the deck's own directories have the module.
"""

import os as _os
import sys as _sys

COMPAT_DIR = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), 'solfec-compat')


def bindir():
    """The directory of the running executable (links resolved), or None when unknown."""
    try:
        return _os.path.dirname(_os.path.realpath('/proc/self/exe'))
    except OSError:
        return None


def _install():
    d = bindir()
    if d and _os.path.isdir(d):
        path = _os.environ.get('PATH', '')
        entries = path.split(_os.pathsep) if path else []
        if not entries or _os.path.realpath(entries[0] or '.') != d:
            _os.environ['PATH'] = _os.pathsep.join([d] + entries)
    if COMPAT_DIR not in _sys.path:
        _sys.path.append(COMPAT_DIR)
