#!/usr/bin/env bash
# Solfec-1.0 deck functions and behaviours that its corpus decks need, each checked by a
# value the deck prints (not only that it runs): time.clock, MESH.get_data,
# BODY.disable_rotation, meshes with unused nodes, FIX_DIRECTION between two bodies,
# LOCDYN_DUMP, TIME_SERIES files, a joint's CONSTRAINT members (point, base, R, U, V, gap, ...).
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# deck NAME: write stdin to $TMP/NAME.py
deck() { cat >"$TMP/$1.py"; }
HEAD="s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)"
CUBE="[0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]"

# --- time.clock (removed in Python 3.8): processor time, as Python 2's on Unix, quietly
deck clock <<PY
import time
from time import clock
t0 = time.clock()
x = sum(i * i for i in range(2000000))
t1 = clock()
print('CLOCK', t1 > t0, abs((t1 - t0) - 0) < 60, time.clock is time.process_time)
PY
out=$("$MOREAU" "$TMP/clock.py" 2>&1)
check "time.clock is the process time, advancing, with no notice" bash -c 'grep -q "^CLOCK True True True$" <<<"$0" && [ $(wc -l <<<"$0") -eq 1 ]' "$out"

# --- MESH.get_data (Solfec lng.c): nodes where TRANSLATE put them, elements as given,
# surfids [0, faces whose id is not 0]; MESH(*m.get_data()) rebuilds the mesh
deck getdata <<PY
$HEAD
nodes = [0,0,0, 1,0,0, 0,1,0, 0,0,1, 1,1,1]
m = MESH(nodes, [4, 0,1,2,3, 7, 4, 1,2,3,4, 8], [5, 3, 0,1,2, 9])
TRANSLATE(m, (1, 0, 0))
n, e, s = m.get_data()
print('NODES', n)
print('ELEMS', e)
print('SURF', s)
m2 = MESH(*m.get_data())
print('SAME', m2.get_data() == (n, e, s), m2.nodes_on_surface(9), m2.nodes_on_surface(5))
h = HEX($CUBE, 2, 1, 1, 3, [0, 0, 0, 0, 0, 4])
n, e, s = h.get_data()
print('HEX', len(n) // 3, e[:10], s)
c = COPY(h)
print('COPY', c.get_data() == h.get_data())
PY
out=$("$MOREAU" "$TMP/getdata.py" 2>&1)
check "MESH.get_data: the translated nodes" grep -q "^NODES \[1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 2.0, 1.0, 1.0\]$" <<<"$out"
check "MESH.get_data: the elements as given" grep -q "^ELEMS \[4, 0, 1, 2, 3, 7, 4, 1, 2, 3, 4, 8\]$" <<<"$out"
check "MESH.get_data: surfids [0, the face with id 9, the other boundary faces with the default 5]" grep -q "^SURF \[0, 3, 0, 2, 1, 9, 3, 0, 1, 3, 5, 3, 2, 0, 3, 5, 3, 1, 2, 4, 5, 3, 2, 3, 4, 5, 3, 3, 1, 4, 5\]$" <<<"$out"
check "MESH(*get_data()) rebuilds the mesh" grep -q "^SAME True \[0, 1, 2\] \[0, 1, 2, 3, 4\]$" <<<"$out"
check "HEX.get_data: 12 nodes, hexahedra with the volid, the x=0 side's id 4 on 4 nodes" grep -q "^HEX 12 \[8, 0, 1, 4, 3, 6, 7, 10, 9, 3\] \[0, 4, .*, 4\]$" <<<"$out"
check "COPY keeps the mesh's data" grep -q "^COPY True$" <<<"$out"

# --- TIME_SERIES from a file, as Solfec's tms.c reads it: '#' lines are comments, the first
# two numbers of a line are a point, reading stops at the first blank line
printf '# t v\n0 1\n1 3 99\n# a comment between\n2 -1\n\n3 100\n' >"$TMP/series.txt"
deck tsfile <<PY
ts = TIME_SERIES('$TMP/series.txt')
print('TS', list(ts.times), list(ts.values), ts(0.5), ts(1.5), ts(5))
PY
out=$("$MOREAU" "$TMP/tsfile.py" 2>&1)
check "TIME_SERIES file: comments skipped, extra columns ignored, stops at the blank line" grep -q "^TS \[0.0, 1.0, 2.0\] \[1.0, 3.0, -1.0\] 2.0 1.0 -1.0$" <<<"$out"
printf '0 1\n1\n' >"$TMP/bad.txt"
deck tsbad <<PY
TIME_SERIES('$TMP/bad.txt')
PY
expect_error "TIME_SERIES file: a line with one number names the file and line" "TIME_SERIES: '.*bad\\.txt' line 2: expected two numbers 't v', got '1'" "$MOREAU" "$TMP/tsbad.py"
printf '0 1\n0 2\n' >"$TMP/back.txt"
deck tsback <<PY
TIME_SERIES('$TMP/back.txt')
PY
expect_error "TIME_SERIES file: times that do not increase name the file" "TIME_SERIES: '.*back\\.txt': time series times must increase: t\\[1\\] = 0\\.? after t\\[0\\] = 0" "$MOREAU" "$TMP/tsback.py"
deck tsnone <<PY
TIME_SERIES('$TMP/nosuch.txt')
PY
expect_error "TIME_SERIES file: a missing file" "TIME_SERIES: cannot read '.*nosuch\\.txt': No such file or directory" "$MOREAU" "$TMP/tsnone.py"

# --- BODY.disable_rotation (Solfec bod.c: rotation of a rigid body not integrated): a cube
# hit off its centre by a torque keeps its orientation and translates; a FE body: ignored
deck norot <<PY
$HEAD
GRAVITY(s, (0, 0, -10))
b = BODY(s, 'RIGID', HEX($CUBE, 1, 1, 1, 1, [1]*6), m)
print('DEFAULT', b.disable_rotation)
b.disable_rotation = 'ON'
INITIAL_VELOCITY(b, (1, 0, 0), (0, 0, 5))
FORCE(b, 'SPATIAL', (1, 1, 1), (0, 1, 0), 100)
TORQUE(b, 'SPATIAL', (1, 0, 0), 50)
r = BODY(s, 'RIGID', TRANSLATE(HEX($CUBE, 1, 1, 1, 1, [1]*6), (5, 0, 0)), m)
INITIAL_VELOCITY(r, (1, 0, 0), (0, 0, 5))
RUN(s, NEWTON_SOLVER(), 0.1)
c, v = b.conf, b.velo
print('NOROT', b.disable_rotation, ['%.12g' % x for x in c[:9]], ['%.6g' % x for x in v])
print('ROT', ['%.3g' % x for x in r.velo[:3]], abs(r.conf[0] - 1) > 1e-3)
f = BODY(s, 'FINITE_ELEMENT', HEX($CUBE, 1, 1, 1, 1, [1]*6), m)
f.disable_rotation = 'ON'
print('FE', f.disable_rotation)
PY
out=$("$MOREAU" "$TMP/norot.py" 2>&1)
check "disable_rotation: 'OFF' by default" grep -q "^DEFAULT OFF$" <<<"$out"
check "disable_rotation 'ON': the orientation stays, the angular velocity zero, the forces move it (v = (1, 100/1000 t, -10 t) at t = 0.1)" grep -q "^NOROT ON \['1', '0', '0', '0', '1', '0', '0', '0', '1'\] \['0', '0', '0', '1', '0.01', '-1'\]$" <<<"$out"
check "without it the same cube turns" grep -q "^ROT \['0', '0', '5'\] True$" <<<"$out"
check "disable_rotation on a FINITE_ELEMENT body: a notice, ignored (Solfec warns)" bash -c 'grep -q "BODY.disable_rotation: only RIGID bodies. rotation can be disabled; body 2 is a FINITE_ELEMENT: ignored, as in Solfec" <<<"$0" && grep -q "^FE OFF$" <<<"$0"' "$out"

# --- MESH keeps the nodes from the lowest to the highest number its elements use, numbered
# from 0, as Solfec's msh.c: nodes before and after them are dropped (tests/BM15 has unused
# nodes at the end); a FINITE_ELEMENT body of such a mesh runs
deck meshunused <<PY
$HEAD
nodes = [9,9,9, 0,0,0, 1,0,0, 0,1,0, 0,0,1, 7,7,7, 8,8,8]
msh = MESH(nodes, [4, 1,2,3,4, 1], [2, 3, 1,2,3, 5])
print('MESH', msh.nnod, msh.node(0), msh.get_data()[1], msh.nodes_on_surface(5))
b = BODY(s, 'FINITE_ELEMENT', msh, m)
RUN(s, NEWTON_SOLVER(), 0.002)
print('FE', len(b.conf) if b.conf is not None else None)
PY
out=$("$MOREAU" "$TMP/meshunused.py" 2>&1)
check "MESH: nodes before and after the elements' drop out, the rest numbered from 0" grep -q "^MESH 4 (0.0, 0.0, 0.0) \[4, 0, 1, 2, 3, 1\] \[0, 1, 2\]$" <<<"$out"
check "a FINITE_ELEMENT body of a mesh with unused nodes at its ends runs" grep -q "^FE 12$" <<<"$out"

# --- FIX_DIRECTION with body2, point2 (Solfec dom.c): body2's point does not move relative to
# body along the direction, which turns with body; it slides freely across it. Along the
# line of the mass centres (no moments): equal and opposite x momenta stop both bodies
deck fixdir2 <<PY
$HEAD
a = BODY(s, 'RIGID', HEX($CUBE, 1, 1, 1, 1, [1]*6), m)
b = BODY(s, 'RIGID', TRANSLATE(HEX($CUBE, 1, 1, 1, 1, [1]*6), (3, 0, 0)), m)
INITIAL_VELOCITY(a, (1, 0, 0), (0, 0, 0))
INITIAL_VELOCITY(b, (-1, 2, 0), (0, 0, 0))
c = FIX_DIRECTION(a, (1, 0.5, 0.5), (1, 0, 0), b, (3, 0.5, 0.5))
print('CON', c.kind)
RUN(s, NEWTON_SOLVER(), 0.1)
print('V %.3f %.3f %.3f %.3f' % (a.velo[3], b.velo[3], a.velo[4], b.velo[4]))
print('X %.4f' % (b.conf[9] - a.conf[9]))
PY
out=$("$MOREAU" "$TMP/fixdir2.py" 2>&1)
check "FIX_DIRECTION between two bodies: the kind" grep -q "^CON FIXDIR$" <<<"$out"
check "FIX_DIRECTION between two bodies: x velocities 0 (momenta +1, -1 meet), the slave's y velocity 2 slides on" grep -qE "^V -?0.000 -?0.000 -?0.000 2.000$" <<<"$out"
check "FIX_DIRECTION between two bodies: the offset along the direction kept (3)" grep -q "^X 3.0000$" <<<"$out"
deck fixdir2half <<PY
$HEAD
a = BODY(s, 'RIGID', HEX($CUBE, 1, 1, 1, 1, [1]*6), m)
FIX_DIRECTION(a, (1, 0.5, 0.5), (0, 0, 1), None, (3, 0.5, 0.5))
PY
expect_error "FIX_DIRECTION: point2 without body2" "FIX_DIRECTION: give both body2 and point2" "$MOREAU" "$TMP/fixdir2half.py"

# --- LOCDYN_DUMP (Solfec ldy.c's layout): two spheres stacked on an obstacle, one line per
# contact: W's normal diagonal h/m, the reaction the weight, the off-diagonal block by row
deck locdyn <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/outld')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1000)
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.3)
GRAVITY(s, (0, 0, -10))
BODY(s, 'OBSTACLE', HEX($CUBE, 1, 1, 1, 1, [1]*6), m)
BODY(s, 'RIGID', SPHERE((0.5, 0.5, 1.5), 0.5, 2, 2), m)
BODY(s, 'RIGID', SPHERE((0.5, 0.5, 2.5), 0.5, 2, 2), m)
LOCDYN_DUMP(s, '$TMP/ld0.txt')
RUN(s, NEWTON_SOLVER(), 0.01)
LOCDYN_DUMP(s, '$TMP/ld.txt')
PY
rm -f "$TMP"/ld*.txt
"$MOREAU" "$TMP/locdyn.py" >/dev/null 2>&1
check "LOCDYN_DUMP before a step: an empty file" bash -c '[ -f "$0" ] && [ ! -s "$0" ]' "$TMP/ld0.txt"
check "LOCDYN_DUMP: two lines, rows in order" bash -c '[ $(wc -l <"$0") -eq 2 ] && grep -q "^#0 CONTACT " "$0" && grep -q "^#1 CONTACT " "$0"' "$TMP/ld.txt"
check "LOCDYN_DUMP: the lower contact: point, bodies (1, 0), W_nn = h/m = 1.90986e-06, R_n = the two spheres' weight 10472, coupled to row 1 by -h/m" grep -qE "^#0 CONTACT \(0.5, 0.5, 1\) \(1, 0\) \[1, 0, 0, 0, 1, 0, 0, 0, 1\] \[[^]]*, 1.90986e-06\] .* \(-?0, -?0, 104(71.|72)[0-9]*\) => #1 \[[^]]*, -1.90986e-06\]$" "$TMP/ld.txt"
rm -f "$TMP"/ld*.txt
timeout 120 $MPIRUN -np 2 "$MOREAU" "$TMP/locdyn.py" >/dev/null 2>&1
check "LOCDYN_DUMP on 2 ranks: one file, the same two rows in order" bash -c '[ $(wc -l <"$0") -eq 2 ] && head -1 "$0" | grep -q "^#0 CONTACT (0.5, 0.5, 1) (1, 0)" && tail -1 "$0" | grep -q "^#1 CONTACT (0.5, 0.5, 2) (2, 1)"' "$TMP/ld.txt"

# --- a joint between two OBSTACLEs is refused, named (a joint on one moves it: moving-obstacle.sh)
deck movobs <<PY
$HEAD
o = BODY(s, 'OBSTACLE', HEX($CUBE, 1, 1, 1, 1, [1]*6), m)
p = BODY(s, 'OBSTACLE', HEX($CUBE, 1, 1, 1, 1, [1]*6), m)
PUT_RIGID_LINK(o, p, (0.5, 0.5, 0.5), (0.5, 0.5, 1.5))
PY
expect_error "PUT_RIGID_LINK between two OBSTACLEs: refused, named" "PUT_RIGID_LINK: bodies 0 and 1 are obstacles: a constraint between two obstacles is not supported" "$MOREAU" "$TMP/movobs.py"

# --- a joint's CONSTRAINT members (Solfec-1.0 lng.c's getset: point, base, R, U, V, gap,
# adjbod, matlab, spair): before the first step the deck's point, the identity frame and no
# reaction (inp/amt.py reads con.point[2] so); after a RUN the last step's: a sphere held at
# its centre by FIX_POINT under gravity takes R = m g up; one driven down at 1 m/s by
# SET_VELOCITY has its point moving with it and U_N = -1; a rigid link's point is both points;
# a deleted joint reads None, as Solfec.
deck conmembers <<PY
import math
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1000)
GRAVITY(s, (0, 0, -10))
a = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
b = BODY(s, 'RIGID', SPHERE((5, 0, 2), 1, 1, 1), m)
c1 = BODY(s, 'RIGID', SPHERE((10, 0, 0), 1, 1, 1), m)
c2 = BODY(s, 'RIGID', SPHERE((13, 0, 0), 1, 1, 1), m)
fp = FIX_POINT(a, (0, 0, 0))
sv = SET_VELOCITY(b, (5, 0, 2), (0, 0, 1), -1)
rl = PUT_RIGID_LINK(c1, c2, (10, 0, 0), (13, 0, 0))
print('BEFORE', fp.kind, fp.point, fp.R, fp.base, fp.U, fp.V, fp.gap, fp.adjbod is a, fp.matlab, fp.spair, sv.point, sv.base[6:], rl.point, rl.adjbod == (c1, c2))
try:
    fp.area
except NotImplementedError as e:
    print('AREA', e)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.01)
mg = 1000 * 4 / 3 * math.pi * 10
print('FIXPNT', abs(fp.R[2] / mg - 1) < 1e-6, max(abs(x) for x in fp.R[:2]) < 1e-6 * mg, max(abs(x) for x in fp.point) < 1e-9, max(abs(x) for x in fp.U) < 1e-9, fp.R)
print('VELODIR', abs(sv.point[2] - (2 - 0.01)) < 1e-3, abs(sv.U[2] + 1) < 1e-9, abs(sv.R[2] / mg - 1) < 1e-6, sv.base[6:], sv.point, sv.U, sv.R)
print('RIGLNK', len(rl.point), abs(math.dist(rl.point[:3], rl.point[3:]) - 3) < 1e-6, rl.point)
DELETE(s, fp)
print('DELETED', fp.point, fp.R, fp.base)
PY
out=$("$MOREAU" -w "$TMP/conmembers.py" 2>&1)
check "CONSTRAINT members before the first step: the deck's point, identity frame, no reaction; adjbod, matlab and spair as Solfec's" \
  grep -qF "BEFORE FIXPNT (0.0, 0.0, 0.0) (0.0, 0.0, 0.0) (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0) (0.0, 0.0, 0.0) (0.0, 0.0, 0.0) 0.0 True None None (5.0, 0.0, 2.0) (0.0, 0.0, 1.0) (10.0, 0.0, 0.0, 13.0, 0.0, 0.0) True" <<<"$out"
[ $? -eq 0 ] || echo "$out" | tail -n 8 | sed 's/^/# /'
check "CONSTRAINT.area: not supported, named" grep -q "^AREA CONSTRAINT.area: not supported in moreau" <<<"$out"
check "FIX_POINT under gravity: R = m g up (its frame the identity), the point where it was, U = 0" grep -q "^FIXPNT True True True True" <<<"$out"
check "SET_VELOCITY at -1 m/s: the point moves with the body, U_N = -1, R_N = m g" grep -q "^VELODIR True True True (0.0, 0.0, 1.0)" <<<"$out"
check "PUT_RIGID_LINK: point is both points (6 numbers), 3 apart" grep -q "^RIGLNK 6 True" <<<"$out"
check "a deleted joint's members read None, as Solfec" grep -q "^DELETED None None None" <<<"$out"
[ $? -eq 0 ] || echo "$out" | tail -n 8 | sed 's/^/# /'

# --- solfec.bodies in Solfec-1.0's order, newest first (its dom.c puts a new body at the head
# of the domain's list, which lng.c's `bodies` walks): tests/BM23 reads bodies[0] for the
# beam it made after the obstacle; DELETE takes a body out of that order
deck bodyorder <<PY
$HEAD
a = BODY(s, 'OBSTACLE', HEX($CUBE, 1, 1, 1, 1, [1]*6), m, label='a')
b = BODY(s, 'RIGID', SPHERE((0, 0, 3), 0.5, 1, 1), m, label='b')
c = BODY(s, 'RIGID', SPHERE((0, 0, 5), 0.5, 1, 1), m, label='c')
print('ORDER', [x.label for x in s.bodies], s.bodies[0] is c)
DELETE(s, b)
print('AFTER', [x.label for x in s.bodies])
PY
out=$("$MOREAU" -w "$TMP/bodyorder.py" 2>&1)
check "solfec.bodies newest first, as Solfec-1.0's (bodies[0] the last BODY made)" grep -qxF "ORDER ['c', 'b', 'a'] True" <<<"$out"
check "... and after DELETE, the others in that order" grep -qxF "AFTER ['c', 'a']" <<<"$out"
[ $? -eq 0 ] || echo "$out" | tail -n 8 | sed 's/^/# /'
