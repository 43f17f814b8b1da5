"""Solfec-1.0 registers its deck API as the Python module `solfec` (its lng.c), and deck
helpers written for it begin with `from solfec import *` (the graphite-core models'
inp/cores/inc/*.py, inp/mesh/netgenread.py). Under moreau that module is this one: the
same names as `moreau`, the API every deck already has."""
from moreau import *  # noqa: F401,F403
from moreau import __all__  # noqa: F401
