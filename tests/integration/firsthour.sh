#!/usr/bin/env bash
# A user's first hour (issue 36), each item run as a user runs it: a fresh output folder and
# the commands README gives. Post-processing where users are: scripts/mbhistory under a first
# python3 on PATH that has no h5py (a pyenv or conda interpreter) finds one that has.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
cd "$TMP"
cat >ball.py <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out')
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s, density = 1000))
INITIAL_VELOCITY(b, (1, 0, 0), (0, 0, 0))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.01)
PY
"$MOREAU" ball.py >/dev/null 2>&1
# a python3 that sees no site packages (no h5py, no numpy), first on PATH
mkdir -p bin
printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' >bin/python3
chmod +x bin/python3
check "the first python3 on PATH has no h5py" bash -c '! PATH="$0/bin:$PATH" python3 -c "import h5py" 2>/dev/null' "$TMP"
out=$(PATH="$TMP/bin:$PATH" "$MB_ROOT/scripts/mbhistory" out/ball.h5 time kinetic 2>&1); rc=$?
check "scripts/mbhistory out/ball.h5 time kinetic runs anyway (rc=$rc)" test $rc -eq 0
check "... and prints the kinetic energy, 0.5 m v^2 = 2.094 J" grep -qE '^ +0\.01 +2\.094' <<<"$out"
[ $rc -eq 0 ] || echo "$out" | head -5 | sed 's/^/# /'

# --- solver trouble said when it happens (item 4), not only in the summary: a stack of
# boxes whose Gauss-Seidel has 2 sweeps for a 1e-12 tolerance misses it from the first contact step
cat >miss.py <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out-miss')
m = BULK_MATERIAL(s, density = 1000)
box = lambda z: HEX([0,0,z, 1,0,z, 1,1,z, 0,1,z, 0,0,z+1, 1,0,z+1, 1,1,z+1, 0,1,z+1], 1, 1, 1, 1, [1]*6)
BODY(s, 'OBSTACLE', box(-1), m)
for k in range(3): BODY(s, 'RIGID', box(k), m)
GRAVITY(s, (0, 0, -9.81))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-12, 2), 0.05)
PY
out=$("$MOREAU" -mb_quiet miss.py 2>&1)
check "a missed tolerance is said at the step it happens (from t = 0, error and iterations)" grep -qE "^moreau: step from t = 0: the constraint solver missed its tolerance: error [0-9.e+-]+ after 2 iterations, [0-9]+ constraints" <<<"$out"
check "... once, not at every step of a short run (rate-limited: a line at most every 10 s)" test "$(grep -c "missed its tolerance" <<<"$out")" = 2
check "... and the summary gives the count" grep -q "50 steps missed its tolerance" <<<"$out"

# --- make install (item 8): the binary, scripts, deck package and man page under PREFIX; the
# installed moreau runs a deck from anywhere with the installed package, not the source tree's
out=$(make -s -C "$MB_ROOT" install PREFIX="$TMP/inst" BUILD="$MB_BUILD" 2>&1); rc=$?
check "make install PREFIX=DIR (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || echo "$out" | tail -5 | sed 's/^/# /'
check "... installs moreau, solfec, mbhistory, mbrender, the man page and the deck package" bash -c 'for f in bin/moreau bin/solfec bin/mbhistory bin/mbrender bin/scripts/acc_sweep.py share/man/man1/moreau.1 share/moreau/python/moreau/__init__.py; do [ -e "$0/$f" ] || { echo "missing $f"; exit 1; }; done' "$TMP/inst"
mkdir -p elsewhere && cp ball.py elsewhere/
echo 'import moreau; print("package", moreau.__file__)' >>elsewhere/ball.py
out=$(cd elsewhere && "$TMP/inst/bin/moreau" -w ball.py 2>&1)
check "the installed moreau runs a deck with the installed package" grep -q "^package $TMP/inst/bin/../share/moreau/python/moreau/__init__.py" <<<"$out"
check "the man page lists the options with their defaults" bash -c 'grep -q -- "mb\\\\-scheme\\\\-rtol R.*(default 1e\\\\-10)" "$0" || grep -q -- "-mb_scheme_rtol R.*(default 1e-10)" "$0"' "$TMP/inst/share/man/man1/moreau.1"

# --- progress lines with physics (item 4): the chosen /history columns, as LAMMPS's thermo
out=$("$MOREAU" -mb_progress 0 -mb_progress_columns kinetic,contacts,error miss.py 2>&1)
check "-mb_progress_columns kinetic,contacts,error: each progress line ends with them" grep -qE "ETA [0-9:]+  kinetic [0-9.e+-]+  contacts 12  error [0-9.e+-]+$" <<<"$out"
out=$("$MOREAU" -mb_progress 0 miss.py 2>&1)
check "by default: kinetic, contacts, iterations, error" grep -qE "  kinetic [0-9.e+-]+  contacts [0-9]+  iterations 2  error [0-9.e+-]+$" <<<"$out"
expect_error "an unknown column is an error listing the columns" "-mb_progress_columns: unknown column 'foo'; the columns: kinetic, internal" "$MOREAU" -mb_progress_columns kinetic,foo miss.py
