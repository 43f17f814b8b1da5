#!/usr/bin/env bash
# Python 2 decks (python/moreau/py2.py): a deck that is not Python 3 runs translated, with one
# line saying so on rank 0; its Python 2 modules and execfile'd files too; errors keep the lines
# of the file as written; a file that is neither fails at the line where it is wrong; and three
# of Solfec-1.0's own test decks run from a scratch copy of ../shared/solfec-1.0.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"

mkdir -p "$TMP/p2/inc"
# Python 2 throughout: print statements, a block indented by a tab after lines indented by
# spaces (Python 2 reads the tab as 8 columns), xrange, has_key, `except E, e`, `raise E, v`,
# backquotes, <>, integer division of ints (3/2, -7/2, /=) but not of floats; a helper
# module from a directory the deck adds to sys.path, and a file run by execfile
{
  printf 'import sys\n'
  printf 'sys.path.append("inc")\n'
  printf 'from half import half\n'
  printf 'd = {"a": 1}\n'
  printf 'for i in xrange(3):\n'
  printf '        if i == 2:\n'
  printf '\t    print "LOOP", i, d.has_key("a"), d.has_key("b")\n'
  printf 'try:\n'
  printf '    raise ValueError, "boom"\n'
  printf 'except ValueError, e:\n'
  printf '    print "EXC", e\n'
  printf 'x = 9\n'
  printf 'x /= 2\n'
  printf 'y = 9.0\n'
  printf 'y /= 2\n'
  printf 'print "DIV", 3/2, 3.0/2, -7/2, 7/2.0, x, y, half(7), `x`, 1 <> 2\n'
  printf 'execfile("inc/more.py")\n'
  printf 'print "EXECFILE", z\n'
} >"$TMP/p2/deck.py"
printf 'def half(n):\n\treturn n/2\nprint "HELPER", half(5)\n' >"$TMP/p2/inc/half.py"
printf 'z = 5/2\nprint "MORE", z\n' >"$TMP/p2/inc/more.py"
out=$(cd "$TMP/p2" && "$MOREAU" deck.py 2>&1)
echo "$out" | sed 's/^/# /'
check "a Python 2 deck runs: print, tabs, xrange, has_key" grep -qx "LOOP 2 True False" <<<"$out"
check "a Python 2 deck runs: except E, e and raise E, v" grep -qx "EXC boom" <<<"$out"
check "Python 2's division: 3/2 = 1, 3.0/2 = 1.5, -7/2 = -4, 7/2.0 = 3.5, int /= 2 floors, float /= 2 does not" \
  grep -qx "DIV 1 1.5 -4 3.5 4 4.5 3 4 True" <<<"$out"
check "a Python 2 module imported from a directory the deck added to sys.path is translated" grep -qx "HELPER 2" <<<"$out"
check "execfile runs a Python 2 file in the deck's namespace" bash -c 'grep -qx "MORE 2" <<<"$0" && grep -qx "EXECFILE 2" <<<"$0"' "$out"
check "one line names the deck, the line Python 3 refused, and what was translated" \
  grep -qE "^moreau: deck.py is Python 2 \(line 7: .*\); running it translated to Python 3 in memory \(tabs, print statements, .*integer division\)$" <<<"$out"
check "one line for each translated module and file, naming it" bash -c '
  [ $(grep -c "^moreau: inc/half.py is Python 2 (line 3: " <<<"$0") -eq 1 ] &&
  [ $(grep -c "^moreau: inc/more.py is Python 2 (line 2: " <<<"$0") -eq 1 ]' "$out"
check "the notice comes once on 1 rank" test "$(grep -c "is Python 2" <<<"$out")" -eq 3
out=$(cd "$TMP/p2" && mpirun_files 120 "$TMP/ranks-51" 3 "$MOREAU" deck.py)
check "the notice comes once on 3 ranks (rank 0 prints it), and every rank runs the deck" bash -c '
  [ $(grep -c "^moreau: deck.py is Python 2" <<<"$0") -eq 1 ] && [ $(grep -c "is Python 2" <<<"$0") -eq 3 ] &&
  [ $(grep -cx "LOOP 2 True False" <<<"$0") -eq 3 ]' "$out"

# a Python 3 deck (3/2 is 1.5 there) prints no notice, and imports a Python 3 module as usual
printf 'import sys\nsys.path.append("inc")\nimport three\nprint("PY3", 3/2, three.x)\n' >"$TMP/p2/py3.py"
printf 'x = 7/2\n' >"$TMP/p2/inc/three.py"
out=$(cd "$TMP/p2" && "$MOREAU" py3.py 2>&1)
check "a Python 3 deck runs as it is, with no notice" bash -c 'grep -qx "PY3 1.5 3.5" <<<"$0" && ! grep -q "Python 2" <<<"$0"' "$out"

# errors name the line of the file as written: at run time in the deck and in its module, and
# from the deck API
{
  printf 'print "before"\n'
  printf 'def f(n):\n'
  printf '\treturn n/0\n'
  printf '\n'
  printf 'print "and"\n'
  printf 'f(1)\n'
} >"$TMP/p2/rt.py"
expect_error "a run-time error in a Python 2 deck names its line (3, in f, called from line 6)" \
  'rt.py", line 6, in <module>.*rt.py", line 3, in f.*ZeroDivisionError: integer division or modulo by zero' \
  bash -c 'cd "$0/p2" && "$1" rt.py 2>&1 | tr "\n" " "; exit ${PIPESTATUS[0]}' "$TMP" "$MOREAU"
printf 'print "solfec"\n\n\n\ns = SOLFEC("DYNAMIC", -1, "out")\n' >"$TMP/p2/api.py"
expect_error "a deck API error in a Python 2 deck names line 5" 'api.py", line 5, in <module>.*SOLFEC: step must be > 0, got -1' \
  bash -c 'cd "$0/p2" && "$1" api.py 2>&1 | tr "\n" " "; exit ${PIPESTATUS[0]}' "$TMP" "$MOREAU"

# neither Python 3 nor Python 2: the file and the line where it is wrong (line 1 is Python 2,
# so Python 3 stops there; Python 2 at line 3), exit status 1 on every rank, no notice
printf 'print "a"\nx = 1\nif x\n    print x\n' >"$TMP/p2/bad.py"
expect_error "a deck that is neither names the file and line 3" \
  'File "bad.py", line 3 .*SyntaxError: not Python 3 \(line 1: Missing parentheses.*\) nor Python 2 \(line 3: bad input' \
  bash -c 'cd "$0/p2" && "$1" bad.py 2>&1 | tr "\n" " "; exit ${PIPESTATUS[0]}' "$TMP" "$MOREAU"
out=$(cd "$TMP/p2" && mpirun_files 120 "$TMP/ranks-85" 3 "$MOREAU" bad.py)
rc=$?
check "a deck that is neither fails on 3 ranks, its error printed once, no notice" bash -c '
  [ "$1" -ne 0 ] && [ $(grep -c "^SyntaxError: not Python 3" <<<"$0") -eq 1 ] && ! grep -q "is Python 2" <<<"$0"' "$out" $rc
printf 'import sys\nsys.path.append("inc")\nimport broken\n' >"$TMP/p2/usebroken.py"
printf 'x = 1\n\ndef f(:\n  pass\n' >"$TMP/p2/inc/broken.py"
expect_error "a module of the deck's that is neither names its file and line 3" 'inc/broken.py", line 3' \
  bash -c 'cd "$0/p2" && "$1" usebroken.py 2>&1 | tr "\n" " "; exit ${PIPESTATUS[0]}' "$TMP" "$MOREAU"

# Solfec-1.0's own tests (tabs, print statements, integer division), run as Solfec ran them:
# from the root of a copy of its tree, each printing PASSED (after backspaces)
SOLFEC1="$MB_ROOT/../shared/solfec-1.0"
if [ -d "$SOLFEC1/tests" ]; then
  cp -r "$SOLFEC1" "$TMP/solfec-1.0"
  for deck in tests/projectile.py tests/pinned-bar.py tests/math-pendulum.py; do
    out=$(cd "$TMP/solfec-1.0" && timeout -k 5 120 "$MOREAU" -w "$deck" 2>&1)
    name="Solfec-1.0's $deck runs translated and prints PASSED"
    if grep -q "^moreau: $deck is Python 2 (line [0-9]*: Missing parentheses" <<<"$out" && grep -q "PASSED$" <<<"$out"; then
      ok "$name"
    else
      notok "$name"
      echo "$out" | tail -n 8 | sed 's/^/# /'
    fi
  done
else
  notok "Solfec-1.0's decks are not in $SOLFEC1"
fi
