#!/usr/bin/env bash
# INITIALIZE_STATE and RIGID_TO_FEM (Solfec-1.0 lng.c behaviour; doc/deck-api.md): a run
# starts from the bodies' state in another run's results. Deck A (rigid cubes sliding on a
# table and flying, spinning) runs to 0.2; deck B INITIALIZE_STATEs from A's results at 0.1
# and runs 0.1: B's first frame is A's frame at 0.1 bit for bit, and B's last is A's last
# to 1e-12. RIGID_TO_FEM: a rigid cube moving at v and spinning at ω becomes a
# FINITE_ELEMENT cube whose nodes are at x̄ + Λ(X − X̄) and move at v + ω × (x − x̄) to
# 1e-12. Bad input (no results at the path, a time past them, other bodies, another kind,
# a subset matching nothing) is an error naming the value, on every rank. Also on 2 ranks.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# the scene: a table, a cube sliding on it, a cube flying and spinning; $1 the extra lines
scene() {
  cat <<PY
import sys
s = SOLFEC('DYNAMIC', 1e-3, sys.argv[1] if len(sys.argv) > 1 else 'outA')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -9.81))
SURFACE_MATERIAL(s, friction=0.3)
m = BULK_MATERIAL(s, young=1e6, poisson=0.3, density=1000)
BODY(s, 'OBSTACLE', HEX([-2,-2,-1, 2,-2,-1, 2,2,-1, -2,2,-1, -2,-2,0, 2,-2,0, 2,2,0, -2,2,0], 1, 1, 1, 1, [1]*6), m, label='TABLE')
def box(x, z, d=0.1):
    return HEX([x-d,-d,z-d, x+d,-d,z-d, x+d,d,z-d, x-d,d,z-d, x-d,-d,z+d, x+d,-d,z+d, x+d,d,z+d, x-d,d,z+d], 1, 1, 1, 2, [2]*6)
slide = BODY(s, '${KIND:-RIGID}', box(-0.5, 0.1), m, label='SLIDE')
fly = BODY(s, 'RIGID', box(0.5, 2.0), m, label='FLY')
INITIAL_VELOCITY(slide, (1.0, 0.2, 0), (0, 0, 0))
INITIAL_VELOCITY(fly, (0.3, -0.2, 1.0), (1.0, 2.0, 3.0))
OUTPUT(s, 1e-3)
$1
PY
}
scene "RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.2)" >a.py
scene "INITIALIZE_STATE(s, 'outA', 0.1)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.1)" >b.py
out=$(timeout 120 "$MOREAU" a.py 2>&1) || { echo "$out" | tail -5 | sed 's/^/# /'; notok "deck A runs"; exit 1; }
out=$(timeout 120 "$MOREAU" b.py outB 2>&1); rc=$?
check "INITIALIZE_STATE runs and says which results and time it took" bash -c '[ '$rc' -eq 0 ] && grep -q "INITIALIZE_STATE: bodies take their state from outA/a.h5 at t = 0.1" <<<"$0"' "$out"
[ $rc -eq 0 ] || echo "$out" | tail -5 | sed 's/^/# /'

# compare frames of two files, rows sorted by id: 'exact' or a tolerance
cat >cmp.py <<'PY'
import sys, h5py, numpy as np
fa, ta, fb, tb, tol = sys.argv[1], float(sys.argv[2]), sys.argv[3], float(sys.argv[4]), sys.argv[5]
def frame(path, t):
    f = h5py.File(path, 'r')
    g = min(f['frames'].values(), key=lambda g: abs(g.attrs['time'] - t))
    o = np.argsort(g['id'][:])
    return g.attrs['time'], g['conf'][:][o], g['velo'][:][o], g['nodal_state'][:] if 'nodal_state' in g else None
a, b = frame(fa, ta), frame(fb, tb)
if tol == 'exact':
    ok = np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])
    err = max(np.abs(a[1] - b[1]).max(), np.abs(a[2] - b[2]).max())
else:
    err = max(np.abs(a[1] - b[1]).max(), np.abs(a[2] - b[2]).max())
    ok = err <= float(tol)
print('A at t = %.6g, B at t = %.6g: largest difference %.3g' % (a[0], b[0], err))
sys.exit(0 if ok else 1)
PY
out=$("$PY" cmp.py outA/a.h5 0.1 outB/b.h5 0 exact 2>&1); rc=$?
check "B's first frame is A's frame at t = 0.1 bit for bit ($out)" test $rc -eq 0
out=$("$PY" cmp.py outA/a.h5 0.2 outB/b.h5 0.1 1e-12 2>&1); rc=$?
check "B continued is A continued to 1e-12 ($out)" test $rc -eq 0

# the same on 2 ranks, from results 1 rank wrote
out=$(mpirun_files 120 "$TMP/ranks-68" 2 "$MOREAU" b.py outB2); rc=$?
[ $rc -eq 0 ] || echo "$out" | tail -5 | sed 's/^/# /'
out=$("$PY" cmp.py outA/a.h5 0.2 outB2/b.h5 0.1 1e-12 2>&1); rc=$?
check "2 ranks: B continued is A continued to 1e-12 ($out)" test $rc -eq 0

# subset=: only the body of that label takes A's state; the others keep the deck's
scene "INITIALIZE_STATE(s, 'outA', 0.1, subset='^FL')
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 1e-3)" >sub.py
timeout 120 "$MOREAU" sub.py outS >/dev/null 2>&1
check "subset='^FL': the flying cube takes A's state, the sliding one keeps its own" "$PY" -c '
import h5py, numpy as np
a, b = h5py.File("outA/a.h5", "r"), h5py.File("outS/sub.h5", "r")
ga = min(a["frames"].values(), key=lambda g: abs(g.attrs["time"] - 0.1))
fa, fb, f0 = dict(zip(ga["id"][:], ga["velo"][:])), dict(zip(b["frames/000000/id"][:], b["frames/000000/velo"][:])), dict(zip(a["frames/000000/id"][:], a["frames/000000/velo"][:]))
assert np.array_equal(fb[2], fa[2]) and np.array_equal(fb[1], f0[1]), (fb, fa, f0)'

# RIGID_TO_FEM: A's cubes are rigid; in C the sliding one is a FINITE_ELEMENT body
KIND=FINITE_ELEMENT scene "RIGID_TO_FEM('outA', 0.15, s)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 1e-3)" >c.py
sed -i "s/fly = BODY(s, 'RIGID'/fly = BODY(s, 'FINITE_ELEMENT'/" c.py
out=$(timeout 120 "$MOREAU" c.py outC 2>&1); rc=$?
check "RIGID_TO_FEM runs" test $rc -eq 0
[ $rc -eq 0 ] || echo "$out" | tail -5 | sed 's/^/# /'
out=$("$PY" - <<'PY' 2>&1
import h5py, numpy as np
a, c = h5py.File('outA/a.h5', 'r'), h5py.File('outC/c.h5', 'r')
ga = min(a['frames'].values(), key=lambda g: abs(g.attrs['time'] - 0.15))
gc = c['frames/000000']
X = {}
worst = [0.0, 0.0]
for bid in (1, 2):
    ra = list(ga['id'][:]).index(bid)
    rc = list(gc['id'][:]).index(bid)
    L = ga['conf'][ra][:9].reshape(3, 3).T
    xc = ga['conf'][ra][9:]
    W, v = ga['velo'][ra][:3], ga['velo'][ra][3:]
    w = L @ W
    if bid == 2:
        assert np.abs(w).max() > 0.5 and np.abs(L - np.eye(3)).max() > 0.1, 'the flying cube should spin and be turned'
    Xc = a['bodies/center'][list(a['bodies/id'][:]).index(bid)]
    o0, o1 = gc['nodal_offset'][rc]
    q = gc['nodal_state'][o0:o1].reshape(-1, 3)
    u = gc['nodal_state'][o1:o1 + (o1 - o0)].reshape(-1, 3)
    # reference nodes: the box of the deck
    x0 = -0.5 if bid == 1 else 0.5
    z0 = 0.1 if bid == 1 else 2.0
    Xs = np.array([[x0-.1,-.1,z0-.1],[x0+.1,-.1,z0-.1],[x0+.1,.1,z0-.1],[x0-.1,.1,z0-.1],[x0-.1,-.1,z0+.1],[x0+.1,-.1,z0+.1],[x0+.1,.1,z0+.1],[x0-.1,.1,z0+.1]])
    # the mesh keeps its own node order: each node is the corner X whose place X + q is
    # nearest the rigid map's x̄ + Λ(X − X̄) (a wrong map misses for every corner)
    off = [[np.abs(X + qn - (xc + L @ (X - Xc))).max() for X in Xs] for qn in q]
    x = np.array([Xs[int(np.argmin(o))] + qn for o, qn in zip(off, q)])
    assert len(set(int(np.argmin(o)) for o in off)) == 8, 'the nodes should be the 8 corners'
    worst[0] = max(worst[0], max(min(o) for o in off))
    worst[1] = max(worst[1], np.abs(u - (v + np.cross(w, x - xc))).max())
print('places off by %.3g, velocities by %.3g' % tuple(worst))
assert max(worst) <= 1e-12
PY
); rc=$?
check "RIGID_TO_FEM: nodes at x̄ + Λ(X − X̄) moving at v + ω × (x − x̄) to 1e-12 ($(tail -1 <<<"$out"))" test $rc -eq 0

# bad input: errors naming the value
scene "INITIALIZE_STATE(s, 'nowhere/out', 0.1)" >e1.py
expect_error "a path without results is an error naming it" "INITIALIZE_STATE: no results at 'nowhere/out'" timeout 60 "$MOREAU" e1.py outE
scene "INITIALIZE_STATE(s, 'outA', 0.7)" >e2.py
expect_error "a time past the results is an error naming it and their span" "time 0.7 is beyond the results in outA/a.h5: their 201 frames span t = 0\\.? to 0.2" timeout 60 "$MOREAU" e2.py outE
scene "BODY(s, 'RIGID', SPHERE((0, 1, 1), 0.1, 1, 1), m)
INITIALIZE_STATE(s, 'outA', 0.1)" >e3.py
expect_error "another number of bodies is an error naming both counts" "outA/a.h5 holds 3 bodies at t = 0.1 and this run has 4" timeout 60 "$MOREAU" e3.py outE
KIND=PSEUDO_RIGID scene "INITIALIZE_STATE(s, 'outA', 0.1)" >e4.py
expect_error "another kind is an error naming the body and both kinds" "body 1 \('SLIDE'\) is PSEUDO_RIGID here and body 1 of outA/a.h5 is RIGID" timeout 60 "$MOREAU" e4.py outE
scene "INITIALIZE_STATE(s, 'outA', -1)" >e5.py
expect_error "a negative time is an error naming it" "INITIALIZE_STATE: time must be >= 0, got -1" timeout 60 "$MOREAU" e5.py outE
scene "INITIALIZE_STATE(s, 'outA', 0.1, subset=['NONE'])" >e6.py
expect_error "a subset matching no label is an error naming the pattern" "subset pattern 'NONE' matches no body label" timeout 60 "$MOREAU" e6.py outE
scene "RIGID_TO_FEM('outA', 0.1, s, subset='FLY')" | sed "s/fly = BODY(s, 'RIGID'/fly = BODY(s, 'PSEUDO_RIGID'/" >e7.py
expect_error "RIGID_TO_FEM onto a kind that cannot take it is an error naming the body" "body 2 \('FLY'\) is PSEUDO_RIGID here and body 2 of outA/a.h5 is RIGID: a PSEUDO_RIGID body cannot take" timeout 60 "$MOREAU" e7.py outE
# on 2 ranks body 1 is rank 1's: every rank stops with its message, none waits for the others
# (each rank's output from its own file: mpirun's merged output can drop lines under load)
mpirun_files 60 perrank 2 "$MOREAU" e4.py outE2 >/dev/null; rc=$?
check "2 ranks: a kind mismatch of rank 1's body is rank 0's error too, at once (rc=$rc)" bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && grep -qE "^RuntimeError: INITIALIZE_STATE: body 1 \('"'"'SLIDE'"'"'\) is PSEUDO_RIGID here" perrank/rank.0'
[ $? -eq 0 ] || sed 's/^/# rank 0: /' perrank/rank.0 2>/dev/null | head -20
