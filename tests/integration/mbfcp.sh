#!/usr/bin/env bash
# MBFCP_EXPORT (Solfec-1.0's sol.c, sps.c, mat.c, dom.c, bod.c, shp.c, cvx.c, msh.c, sph.c, tms.c
# behaviour): the model written once, when called, as Solfec's text MBFCP definition. (1) A
# model of every kind of record: surface materials (the default as ANY first), a bulk
# material, gravity, an OBSTACLE HEX (a mesh: nodes, elements, boundary faces with their
# surface ids), a RIGID body of two HULLs and a SPHERE (the convexes lumped into one shape
# item, as Solfec's BODY glues them; its velocity, a FORCE by a TIME_SERIES),
# a FINITE_ELEMENT body, and the joints FIXPNT, FIXDIR, VELODIR (a TIME_SERIES), RIGLNK: the
# file is compared line by line with the text Solfec's format gives for it. (2) On 2 ranks
# each rank writes path.RANK with the bodies it owns. (3) A callable prescribed velocity,
# which the format cannot hold, is refused naming the joint. (4) HISTORY with Solfec's
# timer names (TIMINT, CONUPD, ...) gives zeros at the steps' times, with one notice.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

cat >"$TMP/model.py" <<'PY'
import sys
s = SOLFEC('DYNAMIC', 1e-3, 'out-model')
s.verbose = 'OFF'
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.3, restitution=0.1)
SURFACE_MATERIAL(s, surf1=1, surf2=2, model='SPRING_DASHPOT', friction=0.2, spring=1e6, dashpot=10)
m = BULK_MATERIAL(s, label='steel', young=2e11, poisson=0.3, density=7800)
GRAVITY(s, (0, 0, -10))
ob = BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 2,-1,-1, 2,2,-1, -1,2,-1, -1,-1,0, 2,-1,0, 2,2,0, -1,2,0], 1, 1, 1, 0, [1]*6), m)
b = BODY(s, 'RIGID', [HULL([0,0,0, 1,0,0, 0,1,0, 0,0,1], 3, 4), SPHERE((2, 2, 2), 0.5, 1, 5), HULL([0,0,-1, 1,0,-1, 0,1,-1, 0,0,-0.5], 3, 7)], m, label='tet')
INITIAL_VELOCITY(b, (1, 2, 3), (0.1, 0.2, 0.3))
FORCE(b, 'SPATIAL', (0, 0, 0), (1, 0, 0), TIME_SERIES([0, 1, 1, 2]))
FIX_POINT(b, (0, 0, 0))
FIX_DIRECTION(b, (1, 0, 0), (0, 0, 2))
SET_VELOCITY(b, (0, 1, 0), (0, 1, 0), TIME_SERIES([0, 0.5, 2, 1.5]))
PUT_RIGID_LINK(b, None, (0, 0, 1), (0, 0, 2))
FIX_POINT(ob, (0, 0, 0))
BODY(s, 'FINITE_ELEMENT', HEX([0,0,3, 1,0,3, 1,1,3, 0,1,3, 0,0,4, 1,0,4, 1,1,4, 0,1,4], 1, 1, 1, 2, [1,2,3,4,5,6]), m)
MBFCP_EXPORT(s, 'model.mbfcp')
PY
cat >"$TMP/expected.mbfcp" <<'TXT'
SURFACE_MATERIALS:	2
SURF1:	ANY
SURF2:	ANY
MODEL:	SIGNORINI_COULOMB
FRICTION:	0.3
COHESION:	0
RESTITUTION:	0.1
SURF1:	1
SURF2:	2
MODEL:	SPRING_DASHPOT
FRICTION:	0.2
COHESION:	0
SPRING:	1e+06
DASHPOT:	10

BULK_MATERIALS:	1
LABEL:	steel
MODEL:	KIRCHHOFF
YOUNG:	2e+11
POISSON:	0.3
DENSITY:	7800

GRAVITY:
CONSTANT:	0
CONSTANT:	0
CONSTANT:	-10

BODIES:	3

ID:	0
LABEL:	BODY_0
KINEMATICS:	OBSTACLE
BULK_MATERIAL:	steel
SHAPES:	1
MESHES:	1
NODES:	8
-1  -1  -1
2  -1  -1
-1  2  -1
2  2  -1
-1  -1  0
2  -1  0
-1  2  0
2  2  0
ELEMENTS:	1
8  0  1  3  2  4  5  7  6
FACES:	6
4  0  2  3  1  1
4  4  5  7  6  1
4  0  1  5  4  1
4  1  3  7  5  1
4  3  2  6  7  1
4  2  0  4  6  1
VELOCITY:  0  0  0  0  0  0
FORCES:	0

ID:	1
LABEL:	tet
KINEMATICS:	RIGID
BULK_MATERIAL:	steel
SHAPES:	2
CONVEXES:	2
VERTEXES:	4
0  0  0
1  0  0
0  1  0
0  0  1
FACES:	4
3  1  2  3  4
3  1  0  2  4
3  2  0  3  4
3  0  1  3  4
VERTEXES:	4
0  0  -1
1  0  -1
0  1  -1
0  0  -0.5
FACES:	4
3  1  2  3  7
3  1  0  2  7
3  2  0  3  7
3  0  1  3  7
SPHERES:	1
CENTER:	2  2  2
RADIUS:	0.5
SURFID:	5
VELOCITY:  0.1  0.2  0.3  1  2  3
FORCES:	1
KIND:	SPATIAL
POINT:	0  0  0
DIRECTION:	1  0  0
TIME_SERIES:	2
0	1
1	2

ID:	2
LABEL:	BODY_2
KINEMATICS:	FINITE_ELEMENT
BULK_MATERIAL:	steel
SHAPES:	1
MESHES:	1
NODES:	8
0  0  3
1  0  3
0  1  3
1  1  3
0  0  4
1  0  4
0  1  4
1  1  4
ELEMENTS:	1
8  0  1  3  2  4  5  7  6
FACES:	6
4  0  2  3  1  1
4  4  5  7  6  6
4  0  1  5  4  5
4  1  3  7  5  4
4  3  2  6  7  3
4  2  0  4  6  2
VELOCITY:  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0
FORCES:	0

CONSTRAINTS:	5

ID:	0
KIND:	FIXPNT
BODY:	1
POINT:	0  0  0

ID:	1
KIND:	FIXDIR
BODY:	1
POINT:	1  0  0
DIRECTION:	0  0  1

ID:	2
KIND:	VELODIR
BODY:	1
POINT:	0  1  0
DIRECTION:	0  1  0
TIME_SERIES:	2
0	0.5
2	1.5

ID:	3
KIND:	RIGLNK
BODY1:	1
BODY2:	NONE
POINT1:	0  0  1
POINT2:	0  0  2

ID:	4
KIND:	FIXPNT
BODY:	0
POINT:	0  0  0

TXT
out=$(timeout 120 "$MOREAU" -mb_quiet "$TMP/model.py" 2>&1); rc=$?
[ $rc -eq 0 ] || echo "$out" | tail -n 8 | sed 's/^/# /'
check "the model's MBFCP file is Solfec's text for it, line by line" diff "$TMP/expected.mbfcp" "$TMP/model.mbfcp"
[ -f "$TMP/model.mbfcp" ] && { diff "$TMP/expected.mbfcp" "$TMP/model.mbfcp" | head -n 10 | sed 's/^/# /'; }

rm -f "$TMP"/model.mbfcp*
out=$(timeout 300 $MPIRUN -n 2 "$MOREAU" -mb_quiet "$TMP/model.py" 2>&1); rc=$?
[ $rc -eq 0 ] || echo "$out" | tail -n 8 | sed 's/^/# /'
check "on 2 ranks: model.mbfcp.0 and .1 hold the 3 bodies between them (each its own), the materials both" bash -c '
  [ ! -e model.mbfcp ] && [ -f model.mbfcp.0 ] && [ -f model.mbfcp.1 ] || exit 1
  n0=$(grep -m1 "^BODIES:" model.mbfcp.0 | cut -f2); n1=$(grep -m1 "^BODIES:" model.mbfcp.1 | cut -f2)
  [ $((n0 + n1)) -eq 3 ] && [ "$n0" -ge 1 ] && [ "$n1" -ge 1 ] && grep -q "^LABEL:	steel" model.mbfcp.0 && grep -q "^LABEL:	steel" model.mbfcp.1'

sed 's/TIME_SERIES(\[0, 0.5, 2, 1.5\])/lambda t: 0.5/' "$TMP/model.py" >"$TMP/callable.py"
expect_error "a callable prescribed velocity is refused, naming the joint" "MBFCP_EXPORT: joint 2 of body 1 prescribes a velocity by a callable" \
  "$MOREAU" -mb_quiet "$TMP/callable.py"

cat >"$TMP/timers.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-2, 'out-timers')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=1e6, poisson=0.25, density=1000)
GRAVITY(s, (0, 0, -10))
BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.1)
timers = ['TIMINT', 'CONUPD', 'CONDET', 'LOCDYN', 'CONSOL', 'PARBAL', 'GSRUN', 'LINUPD']
th = HISTORY(s, timers, 0, 1)
t = HISTORY(s, [(s, 'TIME')], 0, 1)[0]
print('SERIES', len(th), len(th[0]) == len(t) and len(t) == 10, all(v == 0.0 for x in th[1:] for v in x), all(len(x) == len(t) for x in th[1:]))
th = HISTORY(s, 'CONDET', 0, 1)
PY
out=$(timeout 120 "$MOREAU" -mb_quiet "$TMP/timers.py" 2>&1)
echo "$out" | grep -E "SERIES|HISTORY" | sed 's/^/# /'
check "HISTORY of Solfec's timers: 8 series of zeros on the 10 steps' times" grep -q "^SERIES 9 True True True" <<<"$out"
check "HISTORY of Solfec's timers: one notice, naming them, for two calls" bash -c '[ $(grep -c "moreau: HISTORY: Solfec-1.0.s timers (TIMINT, CONUPD" <<<"$0") -eq 1 ]' "$out"
expect_error "HISTORY of an unknown name is still refused" "HISTORY: item must be .*got 'TIMEINT'" \
  "$MOREAU" -mb_quiet "$(sed 's/^timers = .*/timers = ["TIMEINT"]/' "$TMP/timers.py" >"$TMP/bad.py"; echo "$TMP/bad.py")"
