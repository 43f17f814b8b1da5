#!/usr/bin/env bash
# FINITE_ELEMENT bodies with a separate mesh (Solfec-1.0's BODY(..., shape, ..., mesh = MESH)):
# the shape is what contact sees, its points moving with the elements of the mesh that hold
# them. (1) A shape identical to the mesh moves exactly as the mesh-only body (both forms,
# DEF_EXP and DEF_LIM, frictional contact): bit for bit. (2) A coarse mesh (one HEX8) carrying
# a finer shape (8 cubes) whose bottom lies 0.1 below the mesh (points outside the mesh move
# with the element's map extended): free fall exact (v = -g t, d = -g t^2/2), the impact when
# the shape's bottom (not the mesh's) reaches the floor (t = 0.2 s, not 0.245 s), at rest on
# the shape's bottom, the body's mass the shape's (640 kg, not the mesh's 1000); the output
# frames draw the shape (its 64 points, on the floor) and keep the mesh's nodal state; the
# same on 2 ranks. (3) Bad input: a shape outside its mesh, a mesh= that is not a mesh.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

cat >"$TMP/ident.py" <<'PY'
import sys
mode, form, scheme = sys.argv[1], sys.argv[2], sys.argv[3]
s = SOLFEC('DYNAMIC', 1e-3, 'out-ident-%s-%s-%s' % (mode, form, scheme))
s.verbose = 'OFF'
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.3)
m = BULK_MATERIAL(s, young=1e6, poisson=0.25, density=1000)
GRAVITY(s, (0, 0, -10))
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 2,-1,-1, 2,2,-1, -1,2,-1, -1,-1,0, 2,-1,0, 2,2,0, -1,2,0], 1, 1, 1, 0, [1]*6), m)
nodes = [0,0,0.1, 1,0,0.1, 1,1,0.1, 0,1,0.1, 0,0,1.1, 1,0,1.1, 1,1,1.1, 0,1,1.1]
msh = HEX(nodes, 2, 2, 2, 1, [1]*6)
if mode == 'mesh':
    b = BODY(s, 'FINITE_ELEMENT', msh, m, form=form)
else:
    b = BODY(s, 'FINITE_ELEMENT', HEX(nodes, 2, 2, 2, 1, [1]*6), m, form=form, mesh=msh)
b.scheme = scheme
INITIAL_VELOCITY(b, (0.3, 0, 0), (0, 0, 0.5))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-8, 1000), 0.4)
print('Q', ' '.join('%r' % v for v in b.conf))
print('U', ' '.join('%r' % v for v in b.velo))
PY
for fs in "TL DEF_EXP" "BC DEF_LIM"; do
  set -- $fs
  timeout 300 "$MOREAU" -mb_quiet "$TMP/ident.py" mesh $1 $2 >"$TMP/mesh-$1.txt" 2>&1
  timeout 300 "$MOREAU" -mb_quiet "$TMP/ident.py" embed $1 $2 >"$TMP/embed-$1.txt" 2>&1
  check "form $1, $2: a shape identical to the mesh moves as the mesh-only body, bit for bit (nodes' q and u after 0.4 s of sliding contact)" \
    "$PY" - "$TMP/mesh-$1.txt" "$TMP/embed-$1.txt" <<'PY'
import sys
def rd(f):
    d = {l[0]: l.split()[1:] for l in open(f) if l[:2] in ('Q ', 'U ')}
    return d if len(d) == 2 else None
a, b = rd(sys.argv[1]), rd(sys.argv[2])
if a is None or b is None:
    print('# a run failed'); sys.exit(1)
diff = max(abs(float(x) - float(y)) for k in 'QU' for x, y in zip(a[k], b[k]))
moved = max(abs(float(x)) for x in a['Q'])
print('# largest difference %g (displacements up to %g)' % (diff, moved))
sys.exit(0 if a == b and moved > 0.05 else 1)
PY
done

cat >"$TMP/drop.py" <<'PY'
import sys
mode = sys.argv[1]  # 'embed', or 'mesh': the mesh alone, in contrast
s = SOLFEC('DYNAMIC', 1e-3, 'out-drop-' + mode)
s.verbose = 'OFF'
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.0, restitution=0.0)
m = BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000)
GRAVITY(s, (0, 0, -10))
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 2,-1,-1, 2,2,-1, -1,2,-1, -1,-1,0, 2,-1,0, 2,2,0, -1,2,0], 1, 1, 1, 0, [1]*6), m)
# the coarse mesh: one HEX8 over [0,1]^2 x [0.3,1.3]; the shape: 8 cubes over [0.1,0.9]^2 x [0.2,1.2]
msh = HEX([0,0,0.3, 1,0,0.3, 1,1,0.3, 0,1,0.3, 0,0,1.3, 1,0,1.3, 1,1,1.3, 0,1,1.3], 1, 1, 1, 1, [1]*6)
V = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]
F = [4, 0,3,2,1, 2,  4, 4,5,6,7, 2,  4, 0,1,5,4, 2,  4, 1,2,6,5, 2,  4, 2,3,7,6, 2,  4, 3,0,4,7, 2]
shp = []
for i in range(2):
    for j in range(2):
        for k in range(2):
            c = CONVEX(V, F, 1)
            SCALE(c, (0.4, 0.4, 0.5))
            TRANSLATE(c, (0.1 + 0.4 * i, 0.1 + 0.4 * j, 0.2 + 0.5 * k))
            shp.append(c)
b = BODY(s, 'FINITE_ELEMENT', shp, m, mesh=msh) if mode == 'embed' else BODY(s, 'FINITE_ELEMENT', msh, m)
b.damping = 1e-3
OUTPUT(s, 0.05)
for t in (0.195, 0.21, 1.0):
    RUN(s, GAUSS_SEIDEL_SOLVER(1e-8, 1000), t - s.time)
    st = BODY_STATE(b)
    vz, dz = st[1][2::3], st[0][2::3]
    kin = ENERGY(s)[0]  # collective, as BODY_STATE
    if RANK() == 0:
        print('AT %.3f %.15g %.15g %.15g %.15g %.15g %.15g' % (s.time, min(vz), max(vz), min(dz), max(dz), b.mass, kin), flush=True)
PY
for np in 1 2; do
  out=$(timeout 300 $MPIRUN -np $np "$MOREAU" -mb_quiet -mb_output_dir "$TMP/d$np" "$TMP/drop.py" embed 2>&1)
  echo "$out" | grep '^AT' | sed 's/^/# /'
  check "$np rank(s): free fall exact before the impact (v = -1.95, d = -0.190125 at t = 0.195, every node, 1e-12), the mass the shape's (640 kg; its nodes' too: kinetic energy 1216.8 J)" \
    awk '/^AT 0.195/ { ok = ($3 + 1.95)^2 < 1e-24 && ($4 + 1.95)^2 < 1e-24 && ($5 + 0.190125)^2 < 1e-24 && ($6 + 0.190125)^2 < 1e-24 && $7 == 640 && ($8 / (0.5 * 640 * 1.95^2) - 1)^2 < 1e-24 } END { exit !ok }' <<<"$out"
  check "$np rank(s): the shape's bottom hits the floor at t = 0.2 (by t = 0.21 the nodes have slowed from -2.1 to above -0.7)" \
    awk '/^AT 0.210/ { ok = $3 > -0.7 } END { exit !ok }' <<<"$out"
  check "$np rank(s): at rest on the shape's bottom at t = 1 (displacement -0.2 to 1e-3; the mesh's bottom, 0.1 above, would give -0.3)" \
    awk '/^AT 1.000/ { ok = $5 > -0.201 && $6 < -0.199 && $3 > -0.01 && $4 < 0.01 } END { exit !ok }' <<<"$out"
  check "$np rank(s): the last frame draws the shape (64 points of 8 cubes, its lowest on the floor to 1e-3) and keeps the mesh's nodal state (8 nodes: 48 numbers)" \
    "$PY" - "$TMP/d$np/drop.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
fr = f['frames'][sorted(f['frames'])[-1]]
x, d = fr['surface_points'][()], fr['surface_displacement'][()]
fe = np.abs(d[:, 2]) > 0.1  # the obstacle's points do not move
off = fr['nodal_offset'][()]
n = int(max(o[1] for o in off if o[0] >= 0) - min(o[0] for o in off if o[0] >= 0))
print('# FE points %d, lowest z %.3g, highest %.4g; nodal state %d numbers' % (fe.sum(), x[fe, 2].min(), x[fe, 2].max(), len(fr['nodal_state'])))
sys.exit(0 if fe.sum() == 64 and abs(x[fe, 2].min()) < 1e-3 and abs(x[fe, 2].max() - 1.0) < 2e-3 and len(fr['nodal_state']) == 48 else 1)
PY
done
out=$(timeout 300 "$MOREAU" -mb_quiet -mb_output_dir "$TMP/dm" "$TMP/drop.py" mesh 2>&1)
check "contrast: the mesh alone (1000 kg) free-falls until its own bottom lands (still -2.1 at t = 0.21, at rest on -0.3)" \
  awk '/^AT 0.210/ { a = ($3 + 2.1)^2 < 1e-20 && $7 == 1000 } /^AT 1.000/ { b = $5 > -0.301 && $6 < -0.299 } END { exit !(a && b) }' <<<"$out"

cat >"$TMP/bad.py" <<'PY'
import sys
s = SOLFEC('DYNAMIC', 1e-3, 'out-bad')
m = BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000)
msh = HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6)
if sys.argv[1] == 'outside':
    c = HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6)
    TRANSLATE(c, (5, 0, 0))
    BODY(s, 'FINITE_ELEMENT', [CONVEX([0,0,0, 1,0,0, 0,1,0, 0,0,1], [3, 0,2,1, 1, 3, 0,1,3, 1, 3, 1,2,3, 1, 3, 0,3,2, 1], 1), c], m, mesh=msh)
else:
    BODY(s, 'FINITE_ELEMENT', msh, m, mesh=SPHERE((0, 0, 0), 1, 1, 1))
PY
expect_error "a shape part outside its mesh is refused, named" "FINITE_ELEMENT body 0: primitive 1 of its shape .* meets no element of its mesh" timeout 60 "$MOREAU" "$TMP/bad.py" outside
expect_error "mesh= that is not a MESH is refused" "BODY: mesh must be a MESH \\(or HEX, PIPE\\) object" timeout 60 "$MOREAU" "$TMP/bad.py" sphere
