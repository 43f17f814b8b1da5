"""moreau's deck API: the Solfec-1.0 input language in Python 3.

A deck run by `moreau deck.py` sees these names without an import (as in Solfec);
`import moreau` or `from moreau import *` also work. Every function checks its arguments
and raises TypeError/ValueError naming the function, the argument and the value.
The table of functions, and where moreau differs from Solfec-1.0: doc/deck-api.md.

Parallel runs: the deck runs on every rank. A body is built only on the rank that owns it
(body id modulo the number of ranks); elsewhere its Python object is a light proxy whose
`conf` and `velo` read as None, as in Solfec. Loads and initial state set on a proxy are
ignored by ranks that do not own the body, so the same deck works on any number of ranks.

The functions live in submodules by topic (solfec, materials, shapes, meshing, transforms, split, bodies,
loads, crack, solvers, constraints, output, readmode, initstate, mbfcp, unsupported); this package gathers their
public names, so that `from moreau import *` gives exactly __all__. py2 is not API: it translates
Python 2 decks and their modules (src/input/python.c calls it).
"""

import _moreau as _m

from .solfec import (
    Solfec, ConstraintState, SOLFEC, VIEWER, BYLABEL, RANK, NCPU, WARNINGS, EXTENTS, BARRIER,
    SUBDIR, NON_SOLFEC_ARGV)
from .materials import BulkMaterial, BULK_MATERIAL, SurfaceMaterial, SURFACE_MATERIAL
from .shapes import Sphere, Shape, Ellip, SPHERE, ELLIP, HEX, ROUGH_HEX, CONVEX, HULL, MESH, COPY, PIPE, MESH2CONVEX, BEND
from .transforms import TRANSLATE, ROTATE, SCALE
from .split import SPLIT, MESH_SPLIT, OVERLAPPING
from .meshing import TETRAHEDRALIZE, ELLIP_MESH
from .bodies import (
    Body, BODY, BODY_CHARS, INITIAL_VELOCITY, MASS_CENTER, DISPLAY_POINT, DISPLACEMENT,
    VELOCITY, STRESS, BODY_STATE, MODAL_ANALYSIS)
from .loads import TimeSeries, TIME_SERIES, GRAVITY, FORCE, TORQUE, PRESSURE
from .crack import SIMPLIFIED_CRACK
from .solvers import (
    CALLBACK, Solver, GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER, PENALTY_SOLVER, IMBALANCE_TOLERANCE,
    GEOMETRIC_EPSILON, RUN, TIME_ADAPT, CRITICAL_STEP, SCHEME_PARAMETERS, REGISTER_CALLBACK)
from .constraints import (
    Constraint, FIX_POINT, FIX_DIRECTION, SET_DISPLACEMENT, SET_ACCELERATION, SET_VELOCITY,
    PUT_RIGID_LINK, Spring, PUT_SPRING, HERE, CONTACT_SPARSIFY, UNPHYSICAL_PENETRATION,
    CONTACT_EXCLUDE_BODIES, CONTACT_EXCLUDE_SURFACES, DELETE)
from .output import OUTPUT, CHECKPOINT, ENERGY, HISTORY, TIMING, LOCDYN_DUMP
from .readmode import DURATION, SEEK, FORWARD, BACKWARD
from .initstate import INITIALIZE_STATE, RIGID_TO_FEM
from .mbfcp import MBFCP_EXPORT
from .unsupported import _UNSUPPORTED, _unsupported

__all__ = [
    'SOLFEC', 'BULK_MATERIAL', 'SURFACE_MATERIAL', 'SPHERE', 'HEX', 'CONVEX', 'HULL', 'MESH',
    'TRANSLATE', 'ROTATE', 'COPY', 'BODY', 'BODY_CHARS', 'INITIAL_VELOCITY', 'GRAVITY',
    'FORCE', 'TORQUE', 'PRESSURE', 'TIME_SERIES', 'OUTPUT', 'CALLBACK', 'RUN', 'GAUSS_SEIDEL_SOLVER',
    'NEWTON_SOLVER', 'PENALTY_SOLVER', 'GEOMETRIC_EPSILON', 'IMBALANCE_TOLERANCE', 'FIX_POINT', 'FIX_DIRECTION',
    'SET_VELOCITY', 'PUT_RIGID_LINK', 'PUT_SPRING', 'SCHEME_PARAMETERS', 'CRITICAL_STEP', 'VIEWER', 'ENERGY', 'HISTORY',
    'BYLABEL', 'MASS_CENTER', 'DURATION', 'SEEK', 'FORWARD', 'BACKWARD', 'RANK', 'NCPU', 'HERE',
    'TIME_ADAPT', 'CHECKPOINT', 'BODY_STATE', 'DISPLACEMENT', 'VELOCITY', 'STRESS',
]

version = _m.version
PeerFailure = _m.PeerFailure

__all__ += ['ELLIP', 'SCALE', 'PIPE', 'MESH2CONVEX', 'BEND', 'SET_DISPLACEMENT', 'SET_ACCELERATION', 'WARNINGS', 'TIMING',
            'DISPLAY_POINT', 'CONTACT_SPARSIFY', 'UNPHYSICAL_PENETRATION', 'EXTENTS', 'BARRIER',
            'REGISTER_CALLBACK', 'SUBDIR', 'NON_SOLFEC_ARGV', 'CONTACT_EXCLUDE_BODIES', 'CONTACT_EXCLUDE_SURFACES',
            'SPLIT', 'MESH_SPLIT', 'OVERLAPPING', 'DELETE', 'MODAL_ANALYSIS',
            'TETRAHEDRALIZE', 'ELLIP_MESH', 'LOCDYN_DUMP',
            'INITIALIZE_STATE', 'RIGID_TO_FEM', 'ROUGH_HEX', 'MBFCP_EXPORT',
            'SIMPLIFIED_CRACK']
# a name defined elsewhere in this package (e.g. by READ mode) keeps its definition
for _name, _why in _UNSUPPORTED.items():
    if _name not in globals():
        globals()[_name] = _unsupported(_name, _why)
    if _name not in __all__:
        __all__.append(_name)
del _name, _why
