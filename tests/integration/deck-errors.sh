#!/usr/bin/env bash
# Bad input to the `moreau` executable and the deck API, each checked by its message, and
# failures on several ranks: printed once, non-zero exit everywhere, no hang.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# deck NAME: write stdin to $TMP/NAME.py
deck() { cat >"$TMP/$1.py"; }
HEAD="s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)"

# --- the executable
out=$("$MOREAU" --help 2>&1); rc=$?
check "--help exits 0 and lists our options and the docs" bash -c '[ '$rc' -eq 0 ] && grep -q -- "-mb_scheme " <<<"$0" && grep -q -- "-mb_output_dir" <<<"$0" && grep -q -- "-mb_quiet" <<<"$0" && grep -q -- "-mb_scheme_error_if_not_converged" <<<"$0" && grep -q "doc/deck-api.md" <<<"$0" && grep -q "usage: moreau" <<<"$0"' "$out"
out=$("$MOREAU" --version 2>&1)
check "--version prints moreau, PETSc and Python versions" bash -c 'grep -q "^moreau 0\.1\.0$" <<<"$0" && grep -q "^PETSc 3\." <<<"$0" && grep -q "^Python 3\." <<<"$0"' "$out"
"$MOREAU" >"$TMP/nodeck.txt" 2>&1; rc=$?
check "no deck: usage and exit 2" bash -c '[ '$rc' -eq 2 ] && grep -q "usage: moreau" "$0"' "$TMP/nodeck.txt"
expect_error "missing deck" "moreau: cannot open deck '.*nosuch\.py': No such file or directory" "$MOREAU" "$TMP/nosuch.py"
expect_error "missing deck on 2 ranks" "moreau: cannot open deck '.*nosuch\.py': No such file or directory" timeout 60 $MPIRUN -np 2 "$MOREAU" "$TMP/nosuch.py"

# --- Python errors with deck file and line
deck syntax <<'PY'
s = 1
t = (2,
u = 3 +* 4
PY
expect_error "syntax error shows deck file and line" 'File ".*syntax\.py", line [23].*|SyntaxError' "$MOREAU" "$TMP/syntax.py"
out=$("$MOREAU" "$TMP/syntax.py" 2>&1)
check "syntax error message names the deck file and line" bash -c 'grep -qE "File \".*syntax\.py\", line [23]" <<<"$0" && grep -q SyntaxError <<<"$0"' "$out"

deck kind <<PY
$HEAD
b = BODY(s, 'RIGIDD', SPHERE((0, 0, 0), 1, 1, 1), m)
PY
expect_error "unknown body kind" "BODY: kind must be 'RIGID', 'OBSTACLE', 'PSEUDO_RIGID' or 'FINITE_ELEMENT', got 'RIGIDD'" "$MOREAU" "$TMP/kind.py"
expect_error "unknown body kind: deck line in traceback" 'File ".*kind\.py", line 4' "$MOREAU" "$TMP/kind.py"

# --- finite-element bodies: the shape must be a mesh, a supported form, sound elements
deck fe_sphere <<PY
$HEAD
BODY(s, 'FINITE_ELEMENT', SPHERE((0, 0, 0), 1, 1, 1), m)
PY
expect_error "FINITE_ELEMENT with a SPHERE" "BODY: a FINITE_ELEMENT body needs a MESH or HEX shape \\(its mesh\\)" "$MOREAU" "$TMP/fe_sphere.py"
deck fe_form <<PY
$HEAD
BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 2, 1, 1, 1, [1]*6), m, form='UL')
PY
expect_error "FINITE_ELEMENT form UL (not one of Solfec's)" "BODY: FINITE_ELEMENT form 'UL' is not supported yet: 'TL' \\(total Lagrangian\\) and 'BC' \\(body co-rotational\\) and 'BC-MODAL' .* are" "$MOREAU" "$TMP/fe_form.py"
deck fe_flat <<PY
$HEAD
BODY(s, 'FINITE_ELEMENT', MESH([0,0,0, 1,0,0, 0,1,0, 0,0,1, 1,1,0], [4, 0,1,2,3, 1, 4, 0,1,2,4, 1], 1), m)
PY
expect_error "FINITE_ELEMENT mesh with a flat tetrahedron" "MESH: element at position 6: MESH tetrahedron \\(4 nodes\\) has zero volume" "$MOREAU" "$TMP/fe_flat.py"
deck fe_nonmanifold <<PY
$HEAD
# three tetrahedra on the face (0, 1, 2): apexes above, below and above again
BODY(s, 'FINITE_ELEMENT', MESH([0,0,0, 1,0,0, 0,1,0, 0.2,0.2,1, 0.2,0.2,-1, 0.3,0.3,0.5], [4, 0,1,2,3, 1, 4, 0,2,1,4, 1, 4, 0,1,2,5, 1], 1), m)
PY
expect_error "FINITE_ELEMENT mesh that is not a manifold, on 3 ranks" "FINITE_ELEMENT body 0: the face of nodes 0, 1, 2 belongs to three elements or more \\(elements 0, 1 and 2, counted from 0\\): the mesh is not a manifold there" timeout 60 $MPIRUN -np 3 "$MOREAU" "$TMP/fe_nonmanifold.py"
deck fe_hist <<PY
$HEAD
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 2, 2, 2, 1, [1] * 6), m)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 100), 0.002)
HISTORY(s, (b, (5, 0.5, 0.5), 'SX'))
PY
expect_error "HISTORY at a point outside a FINITE_ELEMENT mesh, on 2 ranks" "HISTORY: the point \\(5, 0.5, 0.5\\) is not in body 0's mesh" timeout 60 $MPIRUN -np 2 "$MOREAU" "$TMP/fe_hist.py"
deck fe_press <<PY
$HEAD
b = BODY(s, 'RIGID', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6), m)
PRESSURE(b, 1, 10.0)
PY
expect_error "PRESSURE on a RIGID body" "PRESSURE: body 0 is RIGID: only FINITE_ELEMENT bodies take a pressure on their surface" "$MOREAU" "$TMP/fe_press.py"
deck fe_press99 <<PY
$HEAD
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 2, 2, 2, 1, [1, 2, 3, 4, 5, 6]), m)
PRESSURE(b, 99, -1e3)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 100), 0.002)
PY
expect_error "PRESSURE on a surface id no boundary face carries (issue 37, 2): an error naming the ids there are" "PRESSURE: body 0 has no boundary face with surface id 99 \(its boundary's surface ids: 1, 2, 3, 4, 5, 6\)" timeout 60 "$MOREAU" "$TMP/fe_press99.py"
deck fe_torque <<PY
$HEAD
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 2, 1, 1, 1, [1]*6), m)
TORQUE(b, 'SPATIAL', (0, 0, 1), 1.0)
PY
expect_error "TORQUE on a FINITE_ELEMENT body" "TORQUE: body 0 is FINITE_ELEMENT: a torque has no meaning for it, apply forces at points" "$MOREAU" "$TMP/fe_torque.py"
deck fe_conf <<PY
$HEAD
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 2, 1, 1, 1, [1]*6), m)
b.conf = [0.0] * 5
PY
expect_error "FINITE_ELEMENT conf of the wrong length" "BODY.conf: value must be a sequence of 36 numbers, got \\[0.0, 0.0, 0.0, 0.0, 0.0\\]" "$MOREAU" "$TMP/fe_conf.py"
# element types and node numbers are checked by MESH itself (python/moreau/shapes.py,
# before the C-level "MESH element type 7 is not supported" of src/shape/element.c), with
# the position of the element's entry in the list; a separate mesh= must be a mesh
# (tests/integration/fe-embedded.sh runs such bodies)
deck fe_type7 <<PY
$HEAD
BODY(s, 'FINITE_ELEMENT', MESH([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1], [4, 0,1,3,4, 1, 7, 0,1,2,3,4,5,6, 1], 1), m)
PY
expect_error "FINITE_ELEMENT mesh with a 7-node element" "MESH: elements must be \\[n, nodes, volid, \\.\\.\\.\\] with n in 4, 5, 6, 8; bad entry 7 at position 6" "$MOREAU" "$TMP/fe_type7.py"
deck fe_node <<PY
$HEAD
BODY(s, 'FINITE_ELEMENT', MESH([0,0,0, 1,0,0, 0,1,0, 0,0,1, 1,1,1], [4, 0,1,2,3, 1, 4, 1,2,3,5, 1], 1), m)
PY
expect_error "FINITE_ELEMENT mesh with a node out of range, on 2 ranks" "MESH: element node 5 at position 6 is not in \\[0, 5\\)" timeout 60 $MPIRUN -np 2 "$MOREAU" "$TMP/fe_node.py"
deck fe_mesh <<PY
$HEAD
TET = MESH([0,0,0, 1,0,0, 0,1,0, 0,0,1], [4, 0,1,2,3, 1], 1)
BODY(s, 'FINITE_ELEMENT', TET, m, mesh=CONVEX([0,0,0, 1,0,0, 0,1,0, 0,0,1], [3, 0,2,1, 1, 3, 0,1,3, 1, 3, 1,2,3, 1, 3, 0,3,2, 1], 1))
PY
expect_error "FINITE_ELEMENT with a separate mesh= that is not a mesh" "BODY: mesh must be a MESH \\(or HEX, PIPE\\) object, got <CONVEX shape>" "$MOREAU" "$TMP/fe_mesh.py"

# --- pseudo-rigid bodies: bad material, schemes of the other kind, a flat shape, damping
CUBE="HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6)"
deck prb_young <<PY
$HEAD
BODY(s, 'PSEUDO_RIGID', $CUBE, BULK_MATERIAL(s, young=0.0))
PY
expect_error "PSEUDO_RIGID with Young's modulus 0" "BULK_MATERIAL: young must be > 0, got 0" "$MOREAU" "$TMP/prb_young.py"
deck prb_poisson <<PY
$HEAD
BODY(s, 'PSEUDO_RIGID', $CUBE, BULK_MATERIAL(s, poisson=0.5))
PY
expect_error "PSEUDO_RIGID with Poisson's ratio 0.5 (BULK_MATERIAL takes it, as Solfec; a deformable body cannot)" "BODY: a PSEUDO_RIGID body needs Poisson's ratio in \\(-1, 0.5\\), got poisson=0.5" "$MOREAU" "$TMP/prb_poisson.py"
deck prb_rig <<PY
$HEAD
b = BODY(s, 'PSEUDO_RIGID', $CUBE, m)
b.scheme = 'RIG_NEG'
PY
expect_error "a rigid scheme on a PSEUDO_RIGID body" "BODY.scheme: scheme RIG_NEG does not apply to body 0 of kind PSEUDO_RIGID" "$MOREAU" "$TMP/prb_rig.py"
deck rig_def <<PY
$HEAD
b = BODY(s, 'RIGID', $CUBE, m)
b.scheme = 'DEF_LIM'
PY
expect_error "DEF_LIM on a RIGID body" "BODY.scheme: scheme DEF_LIM does not apply to body 0 of kind RIGID" "$MOREAU" "$TMP/rig_def.py"
deck prb_damping <<PY
$HEAD
b = BODY(s, 'PSEUDO_RIGID', $CUBE, m)
b.damping = -0.5
PY
expect_error "negative damping" "BODY.damping: value must be >= 0, got -0.5" "$MOREAU" "$TMP/prb_damping.py"
deck prb_flat <<PY
$HEAD
BODY(s, 'PSEUDO_RIGID', HULL([0,0,0, 1,0,0, 0,1,0, 1,1,0, 0.5,0.5,1e-7], 1, 1), m)
PY
expect_error "a degenerate PSEUDO_RIGID shape" "PSEUDO_RIGID body 0: the shape is degenerate: its Euler tensor has determinant" "$MOREAU" "$TMP/prb_flat.py"
deck prb_force <<PY
$HEAD
b = BODY(s, 'PSEUDO_RIGID', $CUBE, m)
FORCE(b, 'SPATIAL', (0.5, 0.5, 0.5), (1, 0, 0), lambda q, u, t, h: (1, 2, 3))
RUN(s, None, 0.01)
PY
expect_error "a PSEUDO_RIGID FORCE callback returning 3 numbers" "FORCE callback must return 9 numbers \\(force, spatial torque, convected torque\\) or 12 \\(the generalized force of the body's velocities\\), got 3" "$MOREAU" "$TMP/prb_force.py"
out=$(mpirun_files 120 "$TMP/ranks-152" 2 "$MOREAU" "$TMP/prb_rig.py"); rc=$?
check "a rigid scheme on a PSEUDO_RIGID body fails on 2 ranks with the message" bash -c '[ '$rc' -ne 0 ] && grep -q "does not apply to body 0 of kind PSEUDO_RIGID" <<<"$0"' "$out"

deck density <<PY
$HEAD
steel = BULK_MATERIAL(s, density=-5.0)
PY
expect_error "negative density" "BULK_MATERIAL: density must be > 0, got -5.0" "$MOREAU" "$TMP/density.py"

deck radius <<PY
$HEAD
sph = SPHERE((0, 0, 0), 0, 1, 1)
PY
expect_error "zero sphere radius" "SPHERE: radius must be > 0, got 0" "$MOREAU" "$TMP/radius.py"

deck coplanar <<PY
$HEAD
h = HULL([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 0], 1, 1)
b = BODY(s, 'RIGID', h, m)
PY
expect_error "shape with no volume (coplanar HULL)" "ValueError: HULL: .*(coplanar|volume)" "$MOREAU" "$TMP/coplanar.py"

deck flat <<PY
$HEAD
b = BODY(s, 'RIGID', CONVEX([0,0,0, 1,0,0, 0,1,0, 1,1,0], [3, 0, 1, 2, 1, 3, 0, 2, 1, 1, 3, 1, 3, 2, 1, 3, 0, 3, 1, 1], 1), m)
PY
expect_error "shape with no volume (flat CONVEX)" "ValueError: CONVEX: .*volume" "$MOREAU" "$TMP/flat.py"

touch "$TMP/afile"
deck unwritable <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/afile/out')
PY
expect_error "unwritable output directory" "SOLFEC: cannot write results to '.*afile/out'" "$MOREAU" "$TMP/unwritable.py"
expect_error "unwritable output directory on 2 ranks" "SOLFEC: cannot write results to '.*afile/out'" timeout 60 $MPIRUN -np 2 "$MOREAU" "$TMP/unwritable.py"

deck scheme <<PY
$HEAD
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
b.scheme = 'RIG_FOO'
PY
expect_error "unknown scheme name" "BODY.scheme: unknown scheme 'RIG_FOO'; known schemes: .*RIG_NEG" "$MOREAU" "$TMP/scheme.py"

deck mass <<PY
$HEAD
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
BODY_CHARS(b, -1, 1, (0, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
PY
expect_error "negative mass in BODY_CHARS" "BODY_CHARS: mass must be > 0, got -1" "$MOREAU" "$TMP/mass.py"

deck inertia <<PY
$HEAD
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
BODY_CHARS(b, 1, 1, (0, 0, 0), (1, 0, 0, 0, -1, 0, 0, 0, 1))
PY
expect_error "indefinite inertia in BODY_CHARS" "BODY_CHARS: .*inertia must be positive definite" "$MOREAU" "$TMP/inertia.py"

deck force <<PY
$HEAD
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
FORCE(b, 'SIDEWAYS', (0, 0, 0), (1, 0, 0), 1.0)
PY
expect_error "unknown FORCE kind" "FORCE: kind must be 'SPATIAL' or 'CONVECTED', got 'SIDEWAYS'" "$MOREAU" "$TMP/force.py"

# --- callbacks
deck raises <<PY
$HEAD
def drag(q, u, t, h):
    return (1 / 0,)
for i in range(2):
    b = BODY(s, 'RIGID', SPHERE((3 * i, 0, 0), 1, 1, 1), m)
FORCE(b, 'SPATIAL', (0, 0, 0), (0, 0, 0), drag)
RUN(s, None, 0.01)
PY
expect_error "FORCE callback raising: traceback shows the deck line" 'File ".*raises\.py", line 5, in drag' "$MOREAU" "$TMP/raises.py"
expect_error "FORCE callback raising: the exception" "ZeroDivisionError" "$MOREAU" "$TMP/raises.py"
out=$(mpirun_files 60 "$TMP/ranks-227" 2 "$MOREAU" "$TMP/raises.py"); rc=$?
check "FORCE callback raising on its owner rank only (2 ranks): non-zero exit, no hang, traceback with deck line" \
  bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && grep -qE "File \".*raises\.py\", line 5, in drag" <<<"$0" && grep -q "FORCE callback raised" <<<"$0"' "$out"
[ $rc -eq 124 ] && echo "# hung: killed by timeout"

deck tuple3 <<PY
$HEAD
def drag(q, u, t, h):
    return (0, 0, 0)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
FORCE(b, 'SPATIAL', (0, 0, 0), (0, 0, 0), drag)
RUN(s, None, 0.01)
PY
expect_error "FORCE callback returning 3 numbers" "FORCE callback must return 9 numbers, got 3" "$MOREAU" "$TMP/tuple3.py"
expect_error "FORCE callback returning 3 numbers names RUN's deck line" "tuple3\.py, line 8" "$MOREAU" "$TMP/tuple3.py"

deck monitor <<PY
$HEAD
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
def cb(body):
    if s.time > 0.005:
        raise RuntimeError('monitor failed at t = %g' % s.time)
    return 1
CALLBACK(s, 1e-3, b, cb)
RUN(s, None, 0.01)
print('NOT REACHED')
PY
out=$(mpirun_files 60 "$TMP/ranks-254" 2 "$MOREAU" "$TMP/monitor.py"); rc=$?
n=$(grep -c "^Traceback" <<<"$out")
check "CALLBACK raising on every rank (2 ranks): one traceback, deck line, non-zero exit, no hang" \
  bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && [ '$n' -eq 1 ] && grep -qE "File \".*monitor\.py\", line 7, in cb" <<<"$0" && grep -q "RuntimeError: monitor failed" <<<"$0" && ! grep -q "NOT REACHED" <<<"$0"' "$out"
[ $rc -ne 0 ] && [ $n -eq 1 ] || echo "$out" | tail -n 20 | sed 's/^/# /'

# --- failures on all ranks and on some ranks
deck allfail <<PY
$HEAD
x = undefined_name + 1
PY
out=$(mpirun_files 60 "$TMP/ranks-265" 3 "$MOREAU" "$TMP/allfail.py"); rc=$?
n=$(grep -c "^Traceback" <<<"$out")
check "exception on every rank (3 ranks): traceback printed once, non-zero exit" \
  bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && [ '$n' -eq 1 ] && grep -qE "File \".*allfail\.py\", line 4" <<<"$0" && grep -q "NameError" <<<"$0"' "$out"

deck somefail <<PY
$HEAD
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
x = b.conf[9]          # None on ranks that do not own body 0
RUN(s, None, 0.01)
e = ENERGY(s)
print('NOT REACHED')
PY
out=$(mpirun_files 60 "$TMP/ranks-278" 3 "$MOREAU" "$TMP/somefail.py"); rc=$?
n=$(grep -c "^Traceback" <<<"$out")
check "exception on some ranks (3 ranks, conf is None off the owner): printed by each failing rank, non-zero exit, no hang" \
  bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && [ '$n' -eq 2 ] && grep -q "the deck failed on rank 1" <<<"$0" && grep -q "the deck failed on rank 2" <<<"$0" && grep -qE "File \".*somefail\.py\", line 5" <<<"$0" && grep -q "TypeError" <<<"$0" && ! grep -q "NOT REACHED" <<<"$0"' "$out"
[ $rc -ne 0 ] && [ $n -eq 2 ] || echo "$out" | tail -n 20 | sed 's/^/# /'

deck exit3 <<PY
import sys
sys.exit(3)
PY
"$MOREAU" "$TMP/exit3.py" >/dev/null 2>&1; rc=$?
check "sys.exit(3) in the deck exits 3" test $rc -eq 3
# BODY.selfcontact (Solfec-1.0's member): 'OFF' and 'ON' read and accepted on a
# FINITE_ELEMENT body (what 'ON' does: selfcontact.sh); other kinds and other values refused
# as Solfec refuses them
deck selfc <<PY
$HEAD
b = BODY(s, 'FINITE_ELEMENT', $CUBE, BULK_MATERIAL(s))
b.selfcontact = 'OFF'
r = BODY(s, 'RIGID', SPHERE((5, 0, 0), 1, 1, 1), m)
print('SELFC', b.selfcontact, b.mesh.kind == 'HEX' and b.mesh.nnod == 8 and r.mesh is None)
b.selfcontact = 'ON'
print('SELFC', b.selfcontact)
b.selfcontact = 'on'
PY
expect_error "BODY.selfcontact = 'on' refused, named" "BODY.selfcontact: must be 'ON' or 'OFF', got 'on'" "$MOREAU" "$TMP/selfc.py"
check "BODY.selfcontact reads 'OFF', then 'ON'; BODY.mesh is a FINITE_ELEMENT body's HEX (8 nodes), None for a sphere" bash -c 'o=$("$0" "$1" 2>&1); grep -q "^SELFC OFF True" <<<"$o" && grep -q "^SELFC ON$" <<<"$o"' "$MOREAU" "$TMP/selfc.py"
deck selfr <<PY
$HEAD
b = BODY(s, 'RIGID', $CUBE, m)
b.selfcontact = 'OFF'
PY
expect_error "BODY.selfcontact on a RIGID body" "BODY.selfcontact: self-contact is only valid for FINITE_ELEMENT bodies; body 0 is RIGID" "$MOREAU" "$TMP/selfr.py"
# BODY.display_points (Solfec-1.0's): the DISPLAY_POINTs as (label, where the point is now)
cat >"$TMP/dp.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out-dp')
s.verbose = 'OFF'
b = BODY(s, 'RIGID', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6), BULK_MATERIAL(s))
DISPLAY_POINT(b, (1, 0, 0), 'A')
DISPLAY_POINT(b, (0, 1, 0))
INITIAL_VELOCITY(b, (1, 0, 0), (0, 0, 0))
d0 = b.display_points
RUN(s, GAUSS_SEIDEL_SOLVER(1e-3, 100), 0.5)
d1 = b.display_points
ok = d0 == [('A', (1.0, 0.0, 0.0)), ('', (0.0, 1.0, 0.0))] and [l for l, _ in d1] == ['A', ''] and abs(d1[0][1][0] - 1.5) < 1e-9 and abs(d1[1][1][0] - 0.5) < 1e-9
print('DP', ok, d1)
PY
out=$(cd "$TMP" && timeout 60 "$MOREAU" dp.py 2>&1)
check "BODY.display_points: the DISPLAY_POINTs' labels and where they are now (a body moving 0.5 m)" grep -q '^DP True' <<<"$out"
