#!/usr/bin/env bash
# ELLIP in decks against analytic values: mass and inertia exact (turned, scaled, copied);
# a turned rigid ellipsoid dropped on a plane obstacle comes to rest at the height of its
# vertical semi-axis; a second ellipsoid rests on it (ellipsoid–ellipsoid contact in the
# whole pipeline); a pseudo-rigid one rests at the same height; an ELLIP of equal radii
# follows a SPHERE's trajectory (sliding and rolling, friction) to 1e-8; ParaView output
# holds its facets; bad input by message.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"
deck() { cat >"$TMP/$1.py"; }

deck mass <<PY
import math
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-mass')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1500.0)
a, b, c = 0.1, 0.2, 0.3
e = ELLIP((1, -2, 0.5), (a, b, c), 1, 2)
ROTATE(e, (1, -2, 0.5), (0, 0, 1), 90)  # x -> y, y -> -x
bod = BODY(s, 'RIGID', e, m)
V = 4.0 / 3.0 * math.pi * a * b * c
M = 1500.0 * V
J = bod.inertia
want = (M / 5 * (a * a + c * c), M / 5 * (b * b + c * c), M / 5 * (a * a + b * b))  # turned: x sees b, y sees a
ok = abs(bod.volume - V) < 1e-15 and abs(bod.mass - M) < 1e-12 and max(abs(x - y) for x, y in zip(bod.center, (1, -2, 0.5))) < 1e-14
ok = ok and all(abs(J[4 * k] - want[k]) < 1e-14 for k in range(3)) and max(abs(J[k]) for k in (1, 2, 3, 5, 6, 7)) < 1e-15
print('mass', bod.volume, bod.mass, J, 'PASSED' if ok else 'FAILED')
f = SCALE(COPY(e), (2, 1, 1))  # a non-uniform scale of a turned ellipsoid is still one: volume x2
want = (0.1, 0.4, 0.3)  # the b semi-axis, turned to x, doubles
print('scaled', MASS_CENTER(f), f.center, f.radii, 'PASSED' if max(abs(x - y) for x, y in zip(f.radii, want)) < 1e-14 and abs(f.center[0] - 2) < 1e-14 else 'FAILED')
print('rot', e.rot, 'PASSED' if abs(abs(e.rot[3]) - 1) < 1e-14 else 'FAILED')
PY
out=$("$MOREAU" "$TMP/mass.py" 2>&1)
check "ELLIP: volume 4/3 pi abc, mass, inertia of a turned ellipsoid exact (1e-14)" grep -q "^mass.*PASSED" <<<"$out"
check "ELLIP: SCALE (2, 1, 1) of a turned ellipsoid: centre and semi-axes exact; center, radii, rot members" bash -c 'grep -q "^scaled.*PASSED" <<<"$0" && grep -q "^rot.*PASSED" <<<"$0"' "$out"
grep -E "FAILED|Error" <<<"$out" | sed 's/^/# /'

# kind: RIGID or PSEUDO_RIGID; placed touching the plane, at rest under gravity for 1 s
rest_deck() {
deck "rest-$1" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-rest-$1')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1000.0, young=1e9, poisson=0.25)
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.5)
GRAVITY(s, (0, 0, -10))
BODY(s, 'OBSTACLE', HULL([-1,-1,-0.1, 1,-1,-0.1, 1,1,-0.1, -1,1,-0.1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1), m)
e = ELLIP((0.1, 0.05, 0.1), (0.1, 0.2, 0.3), 2, 2)
ROTATE(e, (0.1, 0.05, 0.1), (0, 1, 0), 90)  # the 0.1 semi-axis vertical: its centre rests at 0.1
ROTATE(e, (0.1, 0.05, 0.1), (0, 0, 1), 30)
b = BODY(s, 'RIGID' if '$1' == 'rigid' else 'PSEUDO_RIGID', e, m)
if '$1' == 'pseudo':
    b.scheme = 'DEF_LIM'
    b.damping = 1e-3
top = None
if '$1' == 'rigid':  # a second ellipsoid on it, its 0.15 semi-axis vertical
    t = ELLIP((0.1, 0.05, 0.35), (0.25, 0.2, 0.15), 3, 3)
    ROTATE(t, (0.1, 0.05, 0.35), (0, 0, 1), -50)
    top = BODY(s, 'RIGID', t, m)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 10000), 1.0)
d = DISPLACEMENT(b, b.center)  # None where the body is not owned (several ranks)
if d is not None:
    z = b.center[2] + d[2]
    print('rest', z, 'PASSED' if abs(z - 0.1) < (1e-8 if '$1' == 'rigid' else 1e-6) else 'FAILED')  # pseudo-rigid: its elastic squash, rho g a^2/E ~ 1e-7
dt = DISPLACEMENT(top, top.center) if top is not None else None
if dt is not None:
    zt = top.center[2] + dt[2]
    print('stack', zt, 'PASSED' if abs(zt - 0.35) < 1e-8 else 'FAILED')
PY
}
rest_deck rigid
out=$(timeout 300 "$MOREAU" "$TMP/rest-rigid.py" 2>&1)
echo "$out" | grep -E "^(rest|stack)|Error" | sed 's/^/# /'
check "a turned rigid ELLIP on a plane under gravity stays with its centre at its vertical semi-axis, 0.1 (1e-8)" grep -q "^rest.*PASSED" <<<"$out"
check "an ELLIP resting on that ELLIP: its centre stays at 0.2 + 0.15 (1e-8)" grep -q "^stack.*PASSED" <<<"$out"
rest_deck pseudo
out=$(timeout 300 "$MOREAU" "$TMP/rest-pseudo.py" 2>&1)
echo "$out" | grep -E "^rest|Error" | sed 's/^/# /'
check "a PSEUDO_RIGID ELLIP (its shape moves with F) stays at the same height (1e-6: its elastic squash)" grep -q "^rest.*PASSED" <<<"$out"

# equal radii: the SPHERE's trajectory, thrown with spin onto a plane with friction
deck same <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-same')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1000.0)
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.3, restitution=0.0)
GRAVITY(s, (0, 0, -10))
BODY(s, 'OBSTACLE', HULL([-9,-9,-0.1, 9,-9,-0.1, 9,9,-0.1, -9,9,-0.1, -9,-9,0, 9,-9,0, 9,9,0, -9,9,0], 1, 1), m)
e = ELLIP((-2, 0, 0.3), (0.2, 0.2, 0.2), 2, 2)
ROTATE(e, (-2, 0, 0.3), (1, 2, 3), 33)
be = BODY(s, 'RIGID', e, m)
bs = BODY(s, 'RIGID', SPHERE((2, 0, 0.3), 0.2, 2, 2), m)
for b in (be, bs):
    INITIAL_VELOCITY(b, (1.0, 0.5, -0.5), (3, -2, 1))
dmax = 0
def cb(*args):
    global dmax
    ue, us = DISPLACEMENT(be, (-2, 0, 0.3)), DISPLACEMENT(bs, (2, 0, 0.3))
    if ue is None or us is None:  # on several ranks: compared at the end (final E, final S)
        return 1
    ve, vs = be.velo, bs.velo
    dmax = max([dmax] + [abs(x - y) for x, y in zip(ue, us)] + [abs(x - y) for x, y in zip(ve, vs)])
    return 1
CALLBACK(s, 1e-3, None, cb)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 10000), 1.0)
print('same', dmax, DISPLACEMENT(bs, (2, 0, 0.3)), 'PASSED' if dmax < 1e-8 else 'FAILED')
for name, b, p in (('E', be, (-2, 0, 0.3)), ('S', bs, (2, 0, 0.3))):
    u = DISPLACEMENT(b, p)
    if u is not None:
        print('final', name, ' '.join(repr(x) for x in list(u) + list(b.velo)))
PY
out=$(timeout 300 "$MOREAU" "$TMP/same.py" 2>&1)
echo "$out" | grep -E "^same|Error" | sed 's/^/# /'
check "an ELLIP of equal radii follows the SPHERE's trajectory (displacement and velocity, every step) to 1e-8" grep -q "^same.*PASSED" <<<"$out"

# two ranks: the ellipsoids travel between ranks (packed as their centre and semi-axis ends)
out=$(mpirun_files 300 "$TMP/ranks-118" 2 "$MOREAU" -mb_output_dir "$TMP/np2-rest" "$TMP/rest-rigid.py")
check "on 2 ranks: the ELLIP and the ELLIP on it rest at 0.1 and 0.35 (1e-8)" bash -c 'grep -q "^rest.*PASSED" <<<"$0" && grep -q "^stack.*PASSED" <<<"$0"' "$out"
out=$(mpirun_files 300 "$TMP/ranks-120" 2 "$MOREAU" -mb_output_dir "$TMP/np2-same" "$TMP/same.py")
echo "$out" | grep -E "^same|Error" | sed 's/^/# np 2: /'
check "on 2 ranks: the ELLIP of equal radii ends where the SPHERE does (displacement, velocity: 1e-8)" "$PY" -c '
import sys
v = {l.split()[1]: [float(x) for x in l.split()[2:]] for l in sys.argv[1].splitlines() if l.startswith("final ")}
sys.exit(0 if len(v) == 2 and max(abs(a - b) for a, b in zip(v["E"], v["S"])) < 1e-8 else 1)' "$out"

# checkpoint and restart (ellipsoids packed into the checkpoint): SIGTERM at t = 0.1, then
# moreau -mb_restart; the frames equal an uninterrupted run's bit for bit
deck pile <<'PY'
import sys, os, signal
kill = float(sys.argv[1]) if len(sys.argv) > 1 else -1.0
s = SOLFEC('DYNAMIC', 1e-3, 'out')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
SURFACE_MATERIAL(s, friction=0.4)
m = BULK_MATERIAL(s, density=1000)
BODY(s, 'OBSTACLE', HULL([-1,-1,-0.1, 1,-1,-0.1, 1,1,-0.1, -1,1,-0.1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1), m)
for i in range(4):
    e = ELLIP((0.05 * i, 0.03 * i, 0.2 + 0.35 * i), (0.1, 0.15, 0.12), 2, 2)
    ROTATE(e, e.center, (1, i, 2), 20 * i)
    BODY(s, 'RIGID' if i % 2 == 0 else 'PSEUDO_RIGID', e, m)
def cb():
    if kill > 0 and s.time >= kill - 1e-12 and RANK() == 0:
        os.kill(os.getpid(), signal.SIGTERM)
    return 1
CALLBACK(s, 0.01, (), cb)
OUTPUT(s, 0.02)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-8, 1000), 0.3)
PY
cd "$TMP"
timeout 300 "$MOREAU" -mb_output_dir ref pile.py >/dev/null 2>&1
timeout 300 "$MOREAU" -mb_output_dir rst pile.py 0.1 >/dev/null 2>&1; rc=$?
timeout 300 "$MOREAU" -mb_output_dir rst -mb_restart pile.py >"$TMP/rst.log" 2>&1
check "ELLIPs (rigid and pseudo-rigid) stopped at t = 0.1 (status $rc) and restarted: the frames equal an uninterrupted run's bit for bit" "$PY" -c '
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
ok = sorted(a["frames"]) == sorted(b["frames"]) and len(a["frames"]) > 10
for f in sorted(a["frames"]):
    ia, ib = np.argsort(a["frames"][f]["id"][()]), np.argsort(b["frames"][f]["id"][()])
    for ds in ("conf", "velo"):
        ok = ok and np.array_equal(a["frames"][f][ds][()][ia], b["frames"][f][ds][()][ib])
sys.exit(0 if ok and int(sys.argv[3]) == 75 else 1)' ref/pile.h5 rst/pile.h5 $rc

# ParaView: the ellipsoid's facets are surface cells; at the last frame its points lie on the
# sphere of radius 0.2 about the SPHERE's centre less the 4 between them
check "output: the ellipsoid's facets (72 cells, 62 points) move with it (the thrown ELLIP of equal radii)" "$PY" -c '
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
mesh = f["mesh"][sorted(f["mesh"])[-1]]
fr = f["frames"][sorted(f["frames"])[-1]]
p = fr["surface_points"][8:]
c = fr["sphere_center"][0] - np.array([4.0, 0, 0])
ok = mesh.attrs["cells"] == 6 + 72 and p.shape[0] == 62
ok = ok and np.allclose(np.linalg.norm(p - c, axis=1), 0.2, atol=1e-8)
sys.exit(0 if ok else 1)' "$TMP/out-same/same.h5"

# bad input
deck bad <<PY
ELLIP((0, 0, 0), (1, 0, 2), 1, 1)
PY
expect_error "ELLIP with a zero radius: refused, naming the radii" "ELLIP: radii must be > 0, got" "$MOREAU" "$TMP/bad.py"
deck badfe <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-badfe')
BODY(s, 'FINITE_ELEMENT', ELLIP((0, 0, 0), (1, 1, 2), 1, 1), BULK_MATERIAL(s))
PY
expect_error "a FINITE_ELEMENT body of an ELLIP: refused (it needs a MESH)" "FINITE_ELEMENT body needs a MESH or HEX shape" "$MOREAU" "$TMP/badfe.py"
