"""Python 2 decks: the mechanical translation to Python 3.

Solfec-1.0 ran its decks under Python 2, and its users' decks and their helper modules are
written in it (print statements, tabs mixed with spaces, xrange, has_key, `except E, e`,
integer division). moreau runs them unchanged: a deck or a deck's own module that does not
compile as Python 3 is translated here, in memory, and run, with one line saying so:

1. tabs in indentation become spaces, to the next multiple of 8 columns, as Python 2's
   tokenizer counted them (Python 3 refuses to guess and raises TabError);
2. lib2to3's fixers that are mechanical (_FIXERS: print, except, has_key, xrange, ...);
3. every `/` and `/=` becomes a call of _mb_div/_mb_idiv, which floor-divide when both
   operands are integers, as Python 2 did, decided by the values at run time.

Every step keeps each statement on its line, so tracebacks and moreau's 'deck file and line'
errors name the lines of the file as written. The deck itself is compiled by
src/input/python.c, which calls compile_translated only when Python 3 refuses it; modules the
deck imports from its own directories go through the import hook installed by _install,
and Python 2's execfile is given to translated decks.
"""

import ast as _ast
import copy as _copy
import importlib.machinery as _machinery
import io as _io
import numbers as _numbers
import operator as _operator
import os as _os
import sys as _sys
import tokenize as _tokenize
import warnings as _warnings

from ._checks import _RANK

# lib2to3's fixers that only rewrite syntax or a renamed name, each with what the notice
# calls it. Left out: idioms, ws_comma, set_literal (style, not translation); import (makes
# `import x` of a module beside the file a relative import, which a deck is not); execfile
# (its exec(compile(open(f).read())) would not translate a Python 2 file: execfile below does);
# long (its rewrite long -> int breaks a function that also names a local `int`, as
# Solfec-1.0's inp/rotating-bar.py does: a translated deck gets the global long = int instead).
_FIXERS = {
    'print': 'print statements', 'except': "'except E, e'", 'has_key': 'has_key',
    'xrange': 'xrange', 'raise': "'raise E, v'", 'ne': '<>', 'numliterals': 'number literals',
    'unicode': 'unicode', 'apply': 'apply', 'exec': 'exec statements',
    'raw_input': 'raw_input', 'input': 'input', 'repr': 'backquotes',
    'tuple_params': 'tuple parameters', 'dict': 'dict views', 'filter': 'filter',
    'map': 'map', 'zip': 'zip', 'basestring': 'basestring', 'standarderror': 'StandardError',
    'throw': 'throw', 'sys_exc': 'sys.exc_*', 'types': 'types', 'paren': 'list comprehensions',
    'funcattrs': 'function attributes', 'methodattrs': 'method attributes',
    'itertools': 'itertools', 'itertools_imports': 'itertools', 'metaclass': '__metaclass__',
    'next': 'next', 'nonzero': '__nonzero__', 'operator': 'operator', 'reduce': 'reduce',
    'renames': 'renamed names', 'imports': 'renamed modules', 'imports2': 'renamed modules',
    'urllib': 'urllib', 'xreadlines': 'xreadlines', 'intern': 'intern', 'isinstance': 'isinstance',
    'getcwdu': 'getcwdu', 'exitfunc': 'sys.exitfunc', 'reload': 'reload', 'future': '__future__',
    'asserts': 'assert methods',
}

_tool = None  # lib2to3's RefactoringTool, made on first use (importing lib2to3 takes ~50 ms)
_fired = set()  # the fixers that changed the file being translated
_noticed = set()  # files already announced


def _refactoring_tool():
    global _tool
    if _tool is None:
        with _warnings.catch_warnings():
            _warnings.simplefilter('ignore', DeprecationWarning)  # lib2to3 is deprecated, not gone
            try:
                from lib2to3 import refactor
            except ImportError as e:
                raise ImportError('moreau: running a Python 2 deck needs lib2to3 (Debian package '
                                  'python3-lib2to3; scripts/install-deps installs it): %s' % e) from None
        _tool = refactor.RefactoringTool(['lib2to3.fixes.fix_' + f for f in _FIXERS])
        for fixer in _tool.pre_order + _tool.post_order:
            fixer.transform = _recording(fixer)
    return _tool


def _recording(fixer):
    # which fixers fired, for the notice: a fixer returns a new node or edits in place
    name = type(fixer).__module__.rsplit('.fix_', 1)[-1]
    transform = fixer.transform

    def wrapped(node, results):
        before = str(node)
        new = transform(node, results)
        if new is not None and str(new) == before:
            # an equal node (numliterals returns one for every 0.5): replacing a child costs
            # its siblings' count, and a deck's list of 20,000 coordinates made this quadratic
            return None
        if new is not None or str(node) != before:
            _fired.add(name)
        return new
    return wrapped


def _string_interior_lines(source):
    """Lines that begin inside a string literal (a triple-quoted string's later lines): their
    leading tabs are the string's text, not indentation."""
    from lib2to3.pgen2 import token, tokenize  # Python 2's tokens (backquotes, 0777, <>)
    inside = set()
    try:
        for tok in tokenize.generate_tokens(_io.StringIO(source).readline):
            if tok[0] == token.STRING and tok[3][0] > tok[2][0]:
                inside.update(range(tok[2][0] + 1, tok[3][0] + 1))
    except (tokenize.TokenError, IndentationError):
        pass  # lib2to3 will say where the file is wrong
    return inside


def expand_tabs(source):
    """Leading tabs to spaces, each to the next multiple of 8 columns (Python 2's rule);
    returns (source, True when a tab was expanded)."""
    lines = source.split('\n')  # not splitlines(), which also splits at form feeds
    if not any(line[:len(line) - len(line.lstrip(' \t\f'))].count('\t') for line in lines):
        return source, False
    with _warnings.catch_warnings():
        _warnings.simplefilter('ignore', DeprecationWarning)
        skip = _string_interior_lines(source)
    for i, line in enumerate(lines):
        body = line.lstrip(' \t\f')
        indent = line[:len(line) - len(body)]
        if '\t' in indent and i + 1 not in skip:
            col = 0
            for c in indent:
                col = (col // 8 + 1) * 8 if c == '\t' else 0 if c == '\f' else col + 1
            lines[i] = ' ' * col + body
    return '\n'.join(lines), True


def _divisions(tree):
    """`a / b` -> `_mb_div(a, b)`, `x /= b` -> `x = _mb_idiv(x, b)` (a target's object and
    index are evaluated twice: decks index with plain names and numbers); returns how many.
    Children before parents (reversed breadth-first order), without recursion: a deck's
    long sums nest deeper than Python's recursion limit."""
    count = 0
    for node in reversed(list(_ast.walk(tree))):
        for field, value in _ast.iter_fields(node):
            if isinstance(value, list):
                for i, child in enumerate(value):
                    new = _division(child)
                    if new is not child:
                        value[i] = new
                        count += 1
            else:
                new = _division(value)
                if new is not value:
                    setattr(node, field, new)
                    count += 1
    return count


def _division(node):
    if isinstance(node, _ast.BinOp) and isinstance(node.op, _ast.Div):
        return _at(_ast.Call(_at(_ast.Name('_mb_div', _ast.Load()), node), [node.left, node.right], []), node)
    if isinstance(node, _ast.AugAssign) and isinstance(node.op, _ast.Div):
        call = _ast.Call(_at(_ast.Name('_mb_idiv', _ast.Load()), node), [_load_of(node.target), node.value], [])
        return _at(_ast.Assign([node.target], _at(call, node)), node)
    return node


def _at(new, old):
    # a new node takes the place of the old one (ast.fix_missing_locations recurses: no)
    for a in ('lineno', 'col_offset', 'end_lineno', 'end_col_offset'):
        setattr(new, a, getattr(old, a, 1 if 'lineno' in a else 0))
    return new


def _depth(tree):
    depth, deepest = {id(tree): 0}, 0
    for node in _ast.walk(tree):
        d = depth.pop(id(node), 0)  # Load() and Store() are shared leaves
        deepest = max(deepest, d)
        for child in _ast.iter_child_nodes(node):
            depth[id(child)] = d + 1
    return deepest


def _load_of(target):
    t = _copy.deepcopy(target)
    t.ctx = _ast.Load()
    return t


def _intlike(x):
    # bool is an int in both Pythons; numpy's integer scalars are Integral, its integer arrays
    # divided as integers under Python 2 too
    return isinstance(x, _numbers.Integral) or getattr(getattr(x, 'dtype', None), 'kind', '') in ('i', 'u', 'b')


def _mb_div(a, b):
    """Python 2's `a / b`: floor division of two integers, true division otherwise."""
    if type(a) is float or type(b) is float:
        return a / b
    if _intlike(a) and _intlike(b):
        return a // b
    return a / b


def _mb_idiv(a, b):
    """Python 2's `a /= b` (in place where a is, e.g. a numpy array)."""
    if _intlike(a) and _intlike(b):
        return _operator.ifloordiv(a, b)
    return _operator.itruediv(a, b)


def _has_true_division(tree):
    for node in tree.body:
        if isinstance(node, _ast.ImportFrom) and node.module == '__future__' and \
                any(a.name == 'division' for a in node.names):
            return True
    return False


def _import_helpers(tree):
    # after the docstring and `from __future__` imports, which must stay first; line 1, so no
    # statement of the file moves
    at = 0
    for node in tree.body:
        doc = isinstance(node, _ast.Expr) and isinstance(node.value, _ast.Constant) and \
            isinstance(node.value.value, str) and at == 0
        if not (doc or (isinstance(node, _ast.ImportFrom) and node.module == '__future__')):
            break
        at += 1
    line1 = _ast.Pass(lineno=1, col_offset=0, end_lineno=1, end_col_offset=0)
    names = [_at(_ast.alias('_mb_div'), line1), _at(_ast.alias('_mb_idiv'), line1)]
    tree.body.insert(at, _at(_ast.ImportFrom('moreau.py2', names, 0), line1))


def translate(source, filename):
    """Python 2 source text -> (Python 3 source text, what changed: a list of words). Raises
    SyntaxError naming filename and line when lib2to3 cannot read it."""
    from lib2to3.pgen2.parse import ParseError
    from lib2to3.pgen2.tokenize import TokenError
    text, tabs = expand_tabs(source)
    if not text.endswith('\n'):
        text += '\n'  # lib2to3's grammar ends every statement with a newline
    tool = _refactoring_tool()
    _fired.clear()
    try:
        tree = tool.refactor_string(text, filename)
    except ParseError as e:
        line, col = e.context[1]
        raise SyntaxError('%s at %r' % (e.msg, e.value), (filename, line, col + 1, _line(text, line))) from None
    except TokenError as e:  # ('EOF in multi-line statement', (line, column))
        line = e.args[1][0]
        raise SyntaxError(e.args[0], (filename, line, 1, _line(text, line))) from None
    except IndentationError as e:
        raise SyntaxError(e.msg, (filename, e.lineno, e.offset, _line(text, e.lineno))) from None
    what = ['tabs'] if tabs else []
    for f in _FIXERS:
        if f in _fired and _FIXERS[f] not in what:
            what.append(_FIXERS[f])
    return str(tree), what


def _line(text, n):
    lines = text.split('\n')
    return lines[n - 1] if 0 < n <= len(lines) else None


def compile_translated(source, filename, why=None):
    """Translate Python 2 source (str or bytes) and compile it as filename; returns the code
    object. `why` is Python 3's SyntaxError, for the notice; prints the notice on rank 0."""
    if isinstance(source, bytes):
        source = _decode(source)
    try:
        text, what = translate(source, filename)
        tree = _parse(text, filename)
    except SyntaxError as e:
        if why is None or not why.lineno:
            raise
        # neither: the parse that got further points at the mistake (a Python 2 deck's first
        # print statement stops Python 3 well before its typo)
        at = e if (e.lineno or 0) > why.lineno else why
        raise SyntaxError('not Python 3 (line %d: %s) nor Python 2 (line %d: %s)' % (why.lineno, why.msg, e.lineno or 0, e.msg),
                          (filename, at.lineno, at.offset, at.text)) from None
    if not _has_true_division(tree):
        if _divisions(tree):
            what.append('integer division')
    _import_helpers(tree)
    # compiling an AST recurses once per level, within Python's recursion limit, which a deck's
    # `M1 + M2 + ... + M1125` (Solfec's tests/BM05) passes; its text compiles within 3x that
    limit = _sys.getrecursionlimit()
    _sys.setrecursionlimit(limit + _depth(tree))
    try:
        code = compile(tree, filename, 'exec', dont_inherit=True)
    finally:
        _sys.setrecursionlimit(limit)
    _notice(filename, why, what)
    return code


def _parse(text, filename):
    try:
        return _ast.parse(text, filename)
    except SyntaxError as e:
        # lib2to3 read it as Python 2 but what it made is not Python 3: say where, in the file
        # as written (the lines are the same)
        raise SyntaxError('its translation to Python 3 is not Python 3: %s' % e.msg,
                          (filename, e.lineno, e.offset, e.text)) from None


def _decode(data):
    encoding, _ = _tokenize.detect_encoding(_io.BytesIO(data).readline)
    return data.decode(encoding).lstrip('\ufeff')


def _notice(filename, why, what):
    if filename in _noticed:
        return
    _noticed.add(filename)
    if _RANK == 0:
        name = _os.path.relpath(filename) if _os.path.isabs(filename) else filename
        if name.startswith('..'):
            name = filename  # a file elsewhere: its full path
        where = ' (line %d: %s)' % (why.lineno, why.msg) if why is not None and why.lineno else ''
        print('moreau: %s is Python 2%s; running it translated to Python 3 in memory (%s)'
              % (name, where, ', '.join(what) or 'no changes'), flush=True)


def compile_file(path, source=None):
    """The code of a deck file: Python 3 as it is, else translated from Python 2."""
    if source is None:
        with open(path, 'rb') as f:
            source = f.read()
    try:
        return compile(source, path, 'exec', dont_inherit=True), False
    except SyntaxError as e:  # IndentationError and TabError too
        return compile_translated(source, path, e), True


def execfile(filename, globals=None, locals=None):
    """Python 2's execfile: run a file in the caller's namespace (or the ones given),
    translated if it is Python 2."""
    if globals is None:
        frame = _sys._getframe(1)
        globals = frame.f_globals
        if locals is None:
            locals = frame.f_locals
        del frame
    elif locals is None:
        locals = globals
    code, _ = compile_file(filename)
    globals.setdefault('execfile', execfile)
    exec(code, globals, locals)


class _Loader(_machinery.SourceFileLoader):
    """A module file of the deck's own: Python 3 as usual, Python 2 translated. A translated
    module is never written to __pycache__, so the notice says so on every run."""

    def source_to_code(self, data, path, *, _optimize=-1):
        try:
            return compile(data, path, 'exec', dont_inherit=True, optimize=_optimize)
        except SyntaxError as e:
            raise _Untranslated(e) from None

    def get_code(self, fullname):
        try:
            return super().get_code(fullname)
        except _Untranslated as e:
            return compile_translated(self.get_data(self.get_filename(fullname)), self.get_filename(fullname), e.args[0])

    def exec_module(self, module):
        module.__dict__.setdefault('execfile', execfile)
        super().exec_module(module)


class _Untranslated(Exception):
    pass


class _Finder:
    """On sys.meta_path just before the standard PathFinder: finds what it finds, and gives a
    module file under the deck's directory, or a directory the deck added to sys.path, the
    loader that translates Python 2."""

    def __init__(self, deck_dir):
        self.roots = [_os.path.realpath(deck_dir)]
        self.initial = set(map(str, _sys.path))

    def _ours(self, origin):
        real = _os.path.realpath(origin)
        roots = self.roots + [_os.path.realpath(p or '.') for p in _sys.path
                              if isinstance(p, str) and p not in self.initial]
        return any(real.startswith(r.rstrip(_os.sep) + _os.sep) for r in roots)

    def find_spec(self, name, path=None, target=None):
        spec = _machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and isinstance(spec.loader, _machinery.SourceFileLoader) and \
                spec.origin and self._ours(spec.origin):
            spec.loader = _Loader(spec.loader.name, spec.loader.path)
        return spec

    def invalidate_caches(self):
        pass


def _install(deck):
    """Called by src/input/python.c before the deck runs."""
    # time.clock, which Solfec's users' decks call to time their runs (Python 2's, and 3's
    # until 3.8 removed it): on Unix it was the processor time of the process, as
    # time.process_time is. Given quietly, on the module, so that `import time` and
    # `from time import clock` both find it; a Python that still has it keeps its own.
    import time as _time
    if not hasattr(_time, 'clock'):
        _time.clock = _time.process_time
    if not any(isinstance(f, _Finder) for f in _sys.meta_path):
        at = next((i for i, f in enumerate(_sys.meta_path) if f is _machinery.PathFinder), len(_sys.meta_path))
        _sys.meta_path.insert(at, _Finder(_os.path.dirname(deck) or '.'))
