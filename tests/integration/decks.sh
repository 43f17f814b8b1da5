#!/usr/bin/env bash
# Deck mechanics: schemes chosen by option and deck argument: import moreau, sys.argv, CALLBACK returning 0, RUN twice.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
CASES="$MB_ROOT/cases"

# (the decks of cases/ themselves run on 1-4 ranks in ranks.sh)

# the default scheme through -mb_scheme, and a deck argument choosing it
out=$(cd "$TMP" && "$MOREAU" -mb_output_dir "$TMP/tf-imp" "$CASES/torque_free.py" RIG_IMP 2 2>&1)
check "torque_free RIG_IMP (deck argument) prints PASSED" bash -c 'grep -q "torque_free RIG_IMP" <<<"$0" && grep -qx PASSED <<<"$0"' "$out"
out=$(cd "$TMP" && "$MOREAU" -mb_output_dir "$TMP/tf-pos" "$CASES/torque_free.py" RIG_POS 2 2>&1)
check "torque_free RIG_POS (upward energy drift) prints PASSED" bash -c 'grep -q "torque_free RIG_POS" <<<"$0" && grep -qx PASSED <<<"$0"' "$out"

cat >"$TMP/mech.py" <<'PY'
import sys
import moreau
import moreau as mb
def say(*a):  # one write per line: lines of several ranks must not interleave
    sys.stdout.write(' '.join(str(x) for x in a) + '\n')
    sys.stdout.flush()
say('ARGV', sys.argv[1:])
say('NAMES', SOLFEC is moreau.SOLFEC, moreau.version)
s = mb.SOLFEC('DYNAMIC', 0.01, sys.argv[1])
s.verbose = 'OFF'
m = BULK_MATERIAL(s)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m, label='ball')
c = BODY(s, 'RIGID', HULL([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], 1, 1), m, label='tet')
say('BYLABEL', BYLABEL(s, 'BODY', 'tet') is c, BYLABEL(s, 'BODY', 'none'))
GRAVITY(s, (0, 0, -10))
RUN(s, None, 0.1)
t1 = s.time
RUN(s, None, 0.1)
th = HISTORY(s, [(s, 'TIME'), (s, 'KINETIC')], 0, 1)
say('RUN2 %.12f %.12f %d %s' % (t1, s.time, len(th[0]), all(b > a for a, b in zip(th[0], th[0][1:]))))
def stopper(sol):
    return 0 if (RANK() == NCPU() - 1 and sol.time >= 0.25 - 1e-9) else 1
CALLBACK(s, 0.05, (s,), stopper)
RUN(s, None, 1.0)
say('STOP rank %d t %.6f' % (RANK(), s.time))
PY
out=$(cd "$TMP" && "$MOREAU" "$TMP/mech.py" "$TMP/mech1" a -b --c 3 2>&1)
check "sys.argv holds the deck arguments (none reach PETSc)" grep -qF "ARGV ['$TMP/mech1', 'a', '-b', '--c', '3']" <<<"$out"
check "import moreau works in a deck and is the pre-imported API" grep -q "NAMES True 0.1.0" <<<"$out"
check "BYLABEL finds bodies by label" grep -q "BYLABEL True None" <<<"$out"
check "RUN twice continues time (0.1 then 0.2, 20 increasing steps)" grep -q "RUN2 0.100000000000 0.200000000000 20 True" <<<"$out"
check "CALLBACK returning 0 stops the run" grep -q "STOP rank 0 t 0.250000" <<<"$out"
[ $? -eq 0 ] || echo "$out" | tail -n 10 | sed 's/^/# /'
out=$(cd "$TMP" && mpirun_files 120 "$TMP/ranks-50" 3 "$MOREAU" "$TMP/mech.py" "$TMP/mech3")
n=$(grep -c "STOP rank [012] t 0.250000" <<<"$out")
check "CALLBACK returning 0 on one rank stops every rank at the same time (3 ranks)" test "$n" -eq 3
check "RUN twice continues time on 3 ranks" bash -c '[ $(grep -c "RUN2 0.100000000000 0.200000000000 20 True" <<<"$0") -eq 3 ]' "$out"

# Solfec-1.0's module name: a deck helper that does `from solfec import *` (as Solfec's own
# helpers do, e.g. inp/cores/inc/simple_core_base.py) gets moreau's API
mkdir -p "$TMP/solfecmod"
cat >"$TMP/solfecmod/helper.py" <<'PY'
from solfec import *
def ball(s, z):
    return BODY(s, 'RIGID', SPHERE((0, 0, z), 0.5, 1, 1), BULK_MATERIAL(s, density=1000), label='ball%g' % z)
PY
cat >"$TMP/solfecmod/deck.py" <<'PY'
import solfec, moreau
from helper import ball
s = SOLFEC('DYNAMIC', 0.01, 'out')
s.verbose = 'OFF'
b = ball(s, 2.0)
print('SOLFECMOD', solfec.BODY is moreau.BODY, sorted(solfec.__all__) == sorted(moreau.__all__), b.label)
PY
out=$(cd "$TMP/solfecmod" && "$MOREAU" -mb_output_dir "$TMP/solfecmod/out" deck.py 2>&1)
check "from solfec import * in a deck's helper gives moreau's API (Solfec-1.0's module name)" grep -q "SOLFECMOD True True ball2" <<<"$out"

# Solfec-1.0's shape members (its lng.c): MESH/HEX nnod, node(n) where TRANSLATE put it,
# nodes_on_surface(surfid) over the boundary faces (None when no face has the id), and
# CONVEX/HULL nver, vertex(n); bad indices and the wrong kind are errors naming them
cat >"$TMP/members.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out')
h = HEX([0,0,0, 2,0,0, 2,1,0, 0,1,0, 0,0,1, 2,0,1, 2,1,1, 0,1,1], 2, 1, 1, 1, [10, 11, 12, 13, 14, 15])
print('NNOD', h.nnod, h.node(0), h.node(11))
print('SURF', h.nodes_on_surface(10), h.nodes_on_surface(13), h.nodes_on_surface(99))
TRANSLATE(h, (1, 2, 3))
print('MOVED', h.node(11))
m = MESH([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1, 0,0,2, 1,0,2, 1,1,2, 0,1,2], [8, 0,1,2,3,4,5,6,7, 1, 8, 4,5,6,7,8,9,10,11, 1], [1, 4, 8,9,10,11, 7])
print('MESHTOP', m.nodes_on_surface(7), COPY(m).nodes_on_surface(7))
c = HULL([0,0,0, 1,0,0, 0,1,0, 0,0,1], 1, 1)
print('NVER', c.nver, c.vertex(3))
for f in (lambda: h.node(12), lambda: c.nnod, lambda: c.vertex(4), lambda: h.node(0, x=1.0)):
    try:
        f()
    except ValueError as e:
        print('ERR', e)
PY
out=$(cd "$TMP" && "$MOREAU" -mb_output_dir "$TMP/members" members.py 2>&1)
echo "$out" | grep -E '^(NNOD|SURF|MOVED|MESHTOP|NVER|ERR)' | sed 's/^/# /'
check "MESH.nnod and MESH.node(n) of a HEX" grep -qF "NNOD 12 (0.0, 0.0, 0.0) (2.0, 1.0, 1.0)" <<<"$out"
check "MESH.nodes_on_surface: bottom, the x = max side, None for an id no face has" grep -qF "SURF [0, 1, 2, 3, 4, 5] [2, 5, 8, 11] None" <<<"$out"
check "MESH.node after TRANSLATE" grep -qF "MOVED (3.0, 3.0, 4.0)" <<<"$out"
# HEX's surfids in Solfec-1.0's order (its msh.c MESH_Hex): bottom 0123, sides 3047, 2376, 1265,
# 0154, top 4567 — the unit cube's faces z = 0, x = 0, y = 1, x = 1, y = 0, z = 1
cat >"$TMP/hexsurf.py" <<'PY'
h = HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 2, 2, 2, 1, [1, 2, 3, 4, 5, 6])
for s in range(1, 7):
    pts = [h.node(n) for n in h.nodes_on_surface(s)]
    print('HEXSURF', s, ' '.join('xyz'[d] + '=%g' % pts[0][d] for d in range(3) if len(set(p[d] for p in pts)) == 1))
PY
hexout=$(cd "$TMP" && "$MOREAU" -mb_output_dir "$TMP/hexsurf" hexsurf.py 2>&1)
check "HEX surfids in Solfec's face order: bottom, x = 0, y = 1, x = 1, y = 0, top" \
  bash -c '[ "$(grep "^HEXSURF" <<<"$0" | tr "\n" " ")" = "HEXSURF 1 z=0 HEXSURF 2 x=0 HEXSURF 3 y=1 HEXSURF 4 x=1 HEXSURF 5 y=0 HEXSURF 6 z=1 " ]' "$hexout"
check "MESH.nodes_on_surface of a MESH's own face ids (boundary faces only), kept by COPY" grep -qF "MESHTOP [8, 9, 10, 11] [8, 9, 10, 11]" <<<"$out"
check "CONVEX.nver and vertex(n) of a HULL" grep -qF "NVER 4 (0.0, 0.0, 1.0)" <<<"$out"
check "bad node and vertex indices, nnod of a HULL and a moved node are errors naming them" bash -c '
  grep -qF "ERR MESH.node: node index 12 is out of bounds: the mesh has 12" <<<"$0" &&
  grep -qF "ERR MESH.nnod: a HULL has no mesh nodes" <<<"$0" &&
  grep -qF "ERR CONVEX.vertex: vertex index 4 is out of bounds: the convex has 4" <<<"$0" &&
  grep -qF "ERR MESH.node: moving node 0 (x, y, z given) is not supported" <<<"$0"' "$out"
