#!/usr/bin/env bash
# Contact and joints against analytic and published values (VALIDATION.md): the decks of
# cases/ that print PASSED, run on 1 rank (ranks.sh runs them on 2-4). Bad input by message.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
CASES="$MB_ROOT/cases"
cd "$TMP"

# run_case NAME NP [ARGS...]: the deck prints PASSED
run_case() {
  local c=$1 np=$2 out rc; shift 2
  out=$(timeout 600 $MPIRUN -np $np "$MOREAU" -mb_output_dir "$TMP/$c-$np" "$CASES/$c.py" "$@" 2>&1); rc=$?
  echo "$out" | grep -E "^$c:" | sed "s/^/# np $np: /"
  check "$c $* on $np rank(s) prints PASSED" bash -c '[ '$rc' -eq 0 ] && grep -qx PASSED <<<"$0" && ! grep -q FAILED <<<"$0"' "$out"
  [ $rc -eq 0 ] || echo "$out" | tail -n 8 | sed 's/^/# /'
}

run_case resting_box 1
run_case box_stack 1
run_case newton_cradle 1
run_case incline 1 0.5
run_case incline 1 0.1
run_case pendulum 1
run_case block_sliding 1
run_case penalty_ball 1
# the same stack with W's blocks inserted row by row (bodies with more constraints than
# -mb_locdyn_dense_max; every box has 8): the stack must stand as well
out=$(timeout 600 $MPIRUN -np 1 "$MOREAU" -mb_locdyn_dense_max 2 -mb_output_dir "$TMP/box_stack-rows" "$CASES/box_stack.py" 2>&1)
echo "$out" | grep -E "^box_stack:" | sed 's/^/# rows: /'
check "box_stack with W inserted row by row (-mb_locdyn_dense_max 2) prints PASSED" bash -c 'grep -qx PASSED <<<"$0" && ! grep -q FAILED <<<"$0"' "$out"
# the sweep's AVX2 variant (when the CPU has it) and the portable one give the same
# history bit for bit: spheres (closed-form local law) and the box stack (Newton's)
same_history() { "$PY" -c '
import sys, h5py, numpy as np
a, b = (h5py.File(f, "r")["history"] for f in sys.argv[1:3])
keys = [k for k in a if k != "walltime"]
bad = [k for k in keys if not np.array_equal(a[k][:], b[k][:])]
print("# compared", len(keys), "history datasets;", "differ: " + ",".join(bad) if bad else "all identical")
sys.exit(1 if bad or not keys else 0)' "$1" "$2"; }
for simd in 1 0; do
  timeout 300 "$MOREAU" -mb_solver_gs_simd $simd -mb_locdyn_simd $simd -mb_output_dir "$TMP/sib-$simd" "$MB_ROOT/bench/spheres_in_box.py" 1000 0.25 >/dev/null 2>&1
  timeout 300 "$MOREAU" -mb_solver_gs_simd $simd -mb_locdyn_simd $simd -mb_solver_view -mb_output_dir "$TMP/stack-$simd" "$CASES/box_stack.py" >"$TMP/stack-$simd.out" 2>&1
done
check "-mb_solver_view prints the solver, its tolerance and Gauss-Seidel settings" grep -q "constraint solver gauss_seidel: epsilon .*stopping test increment, Anderson window 3" <(tr '\n' ' ' <"$TMP/stack-0.out")
check "-mb_solver_gs_simd 0: -mb_solver_view reports the portable sweep" grep -q "sweep: portable" "$TMP/stack-0.out"
if grep -qw avx2 /proc/cpuinfo; then
  check "-mb_solver_view reports the AVX2 sweep on this AVX2 CPU" grep -q "sweep: AVX2" "$TMP/stack-1.out"
  check "spheres in a box: the AVX2 sweep and W blocks (-mb_solver_gs_simd 1 -mb_locdyn_simd 1) and the portable ones give the same history" same_history "$TMP/sib-1/spheres_in_box.h5" "$TMP/sib-0/spheres_in_box.h5"
  check "box stack: the AVX2 sweep and W blocks and the portable ones give the same history" same_history "$TMP/stack-1/box_stack.h5" "$TMP/stack-0/box_stack.h5"
else # both runs took the portable sweep: nothing to compare
  ok "spheres in a box and box stack: AVX2 and portable sweeps agree # SKIP this CPU has no AVX2"
fi
# (every deck of cases/ runs on 2, 3 and 4 ranks in ranks.sh, with the same checks)

# --- bad input
deck() { cat >"$TMP/$1.py"; }
HEAD="s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)"
deck neg_friction <<PY
$HEAD
SURFACE_MATERIAL(s, friction=-0.3)
PY
expect_error "-mb_locdyn_dense_max 0" "-mb_locdyn_dense_max must be >= 1, got 0" "$MOREAU" -mb_locdyn_dense_max 0 "$TMP/neg_friction.py"
expect_error "friction < 0" "SURFACE_MATERIAL: friction must be >= 0, got -0.3" "$MOREAU" "$TMP/neg_friction.py"
deck restitution <<PY
$HEAD
SURFACE_MATERIAL(s, friction=0.3, restitution=1.5)
PY
expect_error "restitution > 1" "SURFACE_MATERIAL: restitution must be in \[0, 1\], got 1.5" "$MOREAU" "$TMP/restitution.py"
deck two_obstacles <<PY
$HEAD
a = BODY(s, 'OBSTACLE', SPHERE((0, 0, 0), 1, 1, 1), m)
b = BODY(s, 'OBSTACLE', SPHERE((3, 0, 0), 1, 1, 1), m)
PUT_RIGID_LINK(a, b, (0, 0, 0), (3, 0, 0))
PY
expect_error "a constraint between two obstacles" "PUT_RIGID_LINK: bodies 0 and 1 are obstacles: a constraint between two obstacles is not supported" "$MOREAU" "$TMP/two_obstacles.py"
expect_error "a constraint between two obstacles names the deck line" 'two_obstacles\.py", line 6' "$MOREAU" "$TMP/two_obstacles.py"
# a rigid link shorter than the geometric epsilon glues its points (Solfec-1.0, dom.c): a
# sphere hanging by a zero-length link to the ground, and two spheres glued at a point, move
# as with FIX_POINT and as one body would: the glued points stay together (1e-5 m; a FIX_POINT drifts 4e-7 m here)
cat >"$TMP/glue.py" <<'PY'
import sys
how = sys.argv[1]
s = SOLFEC('DYNAMIC', 1e-3, 'out-glue-' + how)
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
m = BULK_MATERIAL(s)
a = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
b = BODY(s, 'RIGID', SPHERE((2.5, 0, 0), 1, 1, 1), m)
INITIAL_VELOCITY(b, (0, 0, 1), (0, 1, 0))
if how == 'link':
    PUT_RIGID_LINK(a, None, (0.5, 0, 0), (0.5, 0, 0))
    PUT_RIGID_LINK(a, b, (1.25, 0, 0), (1.25 + 1e-6, 0, 0))  # closer than GEOMETRIC_EPSILON (1e-4): glued
else:
    FIX_POINT(a, (0.5, 0, 0))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.2)
def at(body, X):  # the spatial place of referential point X
    q = body.conf
    c0 = body.center
    return [q[9 + i] + sum(q[3 * j + i] * (X[j] - c0[j]) for j in range(3)) for i in range(3)]
if RANK() == 0 or HERE(s, a):
    pa, pb, fixed = at(a, (1.25, 0, 0)), at(b, (1.25 + 1e-6, 0, 0)), at(a, (0.5, 0, 0))
    print('GLUE %s %.6e %.6e %.9f' % (how, max(abs(x - y) for x, y in zip(pa, pb)), max(abs(x - y) for x, y in zip(fixed, (0.5, 0, 0))), a.conf[11]))
PY
for np in 1 2; do
  out=$(cd "$TMP" && timeout 120 $MPIRUN -np $np "$MOREAU" glue.py link 2>&1)
  line=$(grep -m1 '^GLUE' <<<"$out"); echo "# $np rank(s): $line"
  [ -n "$line" ] || echo "$out" | tail -5 | sed 's/^/# /'
  check "PUT_RIGID_LINK of zero length glues its points (to the ground and between two spheres) on $np rank(s): both stay together to 1e-5 m (FIX_POINT holds its point to 4e-7 here), the sphere turns about its point" \
    awk '/^GLUE link/ { f = 1; ok = ($3 < 1e-5 && $4 < 1e-5 && $5 < -0.01) } END { exit !(f && ok) }' <<<"$out"
done
deck zero_dir <<PY
$HEAD
a = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
FIX_DIRECTION(a, (0, 0, 0), (0, 0, 0))
PY
expect_error "FIX_DIRECTION with a zero direction" "FIX_DIRECTION: direction must be non-zero" "$MOREAU" "$TMP/zero_dir.py"
deck bad_solver <<PY
$HEAD
a = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
RUN(s, GAUSS_SEIDEL_SOLVER(-1e-3, 100), 0.01)
PY
expect_error "GAUSS_SEIDEL_SOLVER epsilon <= 0" "GAUSS_SEIDEL_SOLVER: epsilon must be > 0, got -0.001" "$MOREAU" "$TMP/bad_solver.py"
deck geps <<PY
$HEAD
GEOMETRIC_EPSILON(0)
PY
expect_error "GEOMETRIC_EPSILON <= 0" "GEOMETRIC_EPSILON: epsilon must be > 0, got 0" "$MOREAU" "$TMP/geps.py"

# --- solver failure policies (a stack with 2 Gauss-Seidel iterations cannot converge)
STACK="$HEAD
SURFACE_MATERIAL(s, friction=0.5)
GRAVITY(s, (0, 0, -9.81))
for k in range(4):
    BODY(s, 'RIGID', HEX([0, 0, k * 0.2, 0.5, 0, k * 0.2, 0.5, 0.5, k * 0.2, 0, 0.5, k * 0.2, 0, 0, (k + 1) * 0.2, 0.5, 0, (k + 1) * 0.2, 0.5, 0.5, (k + 1) * 0.2, 0, 0.5, (k + 1) * 0.2], 1, 1, 1, 1, [1] * 6), m)
BODY(s, 'OBSTACLE', HEX([-1, -1, -0.5, 2, -1, -0.5, 2, 2, -0.5, -1, 2, -0.5, -1, -1, 0, 2, -1, 0, 2, 2, 0, -1, 2, 0], 1, 1, 1, 2, [2] * 6), m)"
deck fail_exit <<PY
$STACK
RUN(s, GAUSS_SEIDEL_SOLVER(1e-12, 2, failure='EXIT'), 0.01)
PY
expect_error "failure='EXIT' stops with the solver's error" "constraint solver did not converge at t = 0\.?: error .* after 2 iterations .*failure = 'EXIT'" "$MOREAU" "$TMP/fail_exit.py"
expect_error "failure='EXIT' on 2 ranks" "constraint solver did not converge at t = 0" timeout 60 $MPIRUN -np 2 "$MOREAU" "$TMP/fail_exit.py"
deck fail_callback <<PY
$STACK
calls = []
def cb(data):
    calls.append(s.time)
    return 0 if len(calls) >= 3 else 1
RUN(s, GAUSS_SEIDEL_SOLVER(1e-12, 2, failure='CALLBACK', data=None, callback=cb), 0.01)
PY
expect_error "failure='CALLBACK' returning 0 stops the run" "failure callback returned 0: run stopped" "$MOREAU" "$TMP/fail_callback.py"
deck fail_continue <<PY
$STACK
RUN(s, GAUSS_SEIDEL_SOLVER(1e-12, 2), 0.01)
PY
out=$("$MOREAU" "$TMP/fail_continue.py" 2>&1); rc=$?
check "failure='CONTINUE' runs on and the summary counts the missed steps" bash -c '[ '$rc' -eq 0 ] && grep -qE "solver gauss_seidel, [1-9][0-9]* steps missed its tolerance" <<<"$0"' "$out"

# --- contacts in the output: datasets per frame and a "contacts" grid in the XDMF index
"$PY" - "$TMP/box_stack-1/box_stack.h5" "$TMP/box_stack-1/box_stack.xmf" <<'PY' && ok "contact points, normals and forces in the frames; contacts grid in the XDMF" || notok "contact output"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
last = sorted(f['frames'])[-1]
fr = f['frames'][last]
p, n, F, k = (np.asarray(fr[x]) for x in ('contact_point', 'contact_normal', 'contact_force', 'contact_kind'))
assert p.shape == (40, 3) and n.shape == (40, 3) and F.shape == (40, 3) and (k == 0).all(), (p.shape, k)
assert np.allclose(np.linalg.norm(n, axis=1), 1.0)
# the forces hold the 10 boxes up: their vertical sum on the ground contacts equals the weight
w = 10 * 0.5 * 0.5 * 0.2 * 1000 * 9.81
ground = np.asarray(fr['contact_bodies'])[:, 1] == 10
fz = np.abs(F[np.asarray(fr['contact_bodies'])[:, 0] == 10, 2]).sum() + np.abs(F[ground, 2]).sum()
assert abs(fz - w) < 1e-3 * w, (fz, w)
x = open(sys.argv[2]).read()
assert 'Name="contacts"' in x and 'contact_force' in x
PY

# --- CONTACT_EXCLUDE_BODIES and CONTACT_EXCLUDE_SURFACES (Solfec-1.0's): ball B dropped on
# ball A, which rests on a table, stops on A (z = 0.3) unless the pair (A, B) is excluded:
# then it passes through A onto the table (z = 0.1); ball C (surface 2) falls through the
# table (surface 3) when that pair of surfaces is excluded (free fall from 0.3 m for 0.5 s:
# z = 0.3 - 5 x 0.25 = -0.95). 1 and 3 ranks
cat >"$TMP/excl.py" <<'PY'
import sys
mode = sys.argv[1]
s = SOLFEC('DYNAMIC', 1e-3, 'out-excl-' + mode)
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
SURFACE_MATERIAL(s, friction=0.3)
m = BULK_MATERIAL(s, density=1000)
BODY(s, 'OBSTACLE', HEX([-2,-2,-1, 2,-2,-1, 2,2,-1, -2,2,-1, -2,-2,0, 2,-2,0, 2,2,0, -2,2,0], 1, 1, 1, 1, [3]*6), m)
a = BODY(s, 'RIGID', SPHERE((0, 0, 0.1), 0.1, 1, 1), m, label='A')
b = BODY(s, 'RIGID', SPHERE((0, 0, 0.5), 0.1, 1, 2), m, label='B')
c = BODY(s, 'RIGID', SPHERE((0.5, 0, 0.3), 0.1, 1, 2), m, label='C')
if mode == 'bodies': CONTACT_EXCLUDE_BODIES(a, b)
if mode == 'surfaces': CONTACT_EXCLUDE_SURFACES(s, 3, 2)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-8, 1000), 0.5)
z = [BODY_STATE(x)[0][11] for x in (a, b, c)]
if RANK() == 0: print('Z %.2f %.2f %.2f' % tuple(z))
PY
for np in 1 3; do
  for want in "none:Z 0.10 0.30 0.10" "bodies:Z 0.10 0.10 0.10" "surfaces:Z 0.10 0.30 -0.95"; do
    mode=${want%%:*} z=${want#*:}
    out=$(timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/excl.py" $mode 2>&1)
    check "contact exclusion '$mode' on $np rank(s): heights of A, B, C are ${z#Z }" grep -qx "$z" <<<"$out"
  done
done
cat >"$TMP/exclbad.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out-exclbad')
a = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s))
CONTACT_EXCLUDE_BODIES(a, a)
PY
expect_error "CONTACT_EXCLUDE_BODIES of a body with itself" "CONTACT_EXCLUDE_BODIES: body 0 twice" "$MOREAU" "$TMP/exclbad.py"
printf "s = SOLFEC('DYNAMIC', 1e-3, 'out-exclbad')\nCONTACT_EXCLUDE_SURFACES(s, 1, 'x')\n" >"$TMP/exclbad.py"
expect_error "CONTACT_EXCLUDE_SURFACES with a surface that is not an int" "CONTACT_EXCLUDE_SURFACES: surf2 must be a surface id \(an int\), got 'x'" "$MOREAU" "$TMP/exclbad.py"

# --- Solfec's arguments moreau takes as Solfec does (issue 32): a Hertz power in the
# spring-dashpot contact (SURFACE_MATERIAL hpow, Solfec's pes.c: R_N = k δ^hpow): a sphere
# resting on the ground under PENALTY_SOLVER sinks to δ = (m g / k)^(1/hpow), within 1 %,
# for hpow 1.5 and 1; FIX_POINT and FIX_DIRECTION on an OBSTACLE (it stays: the deck
# runs, the sphere still falls); PIPE with 6 surface ids (the first 4 used, as lng.c does)
cat >"$TMP/hertz.py" <<'PY'
import sys
hp = float(sys.argv[1])
s = SOLFEC('DYNAMIC', 1e-4, 'out-hertz-%g' % hp)
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
m = BULK_MATERIAL(s, density=1000)
SURFACE_MATERIAL(s, model='SPRING_DASHPOT', spring=1e6, dashpot=-1, hpow=hp)
g = BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 1,-1,-1, 1,1,-1, -1,1,-1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1, 1, 1, [1]*6), m)
FIX_POINT(g, (0, 0, -0.5))
FIX_DIRECTION(g, (0, 0, -0.5), (1, 0, 0))
b = BODY(s, 'RIGID', SPHERE((0, 0, 0.1), 0.1, 1, 1), m)
p = PIPE((3, 0, 0), (0, 0, 1), 0.1, 0.02, 2, 8, 1, 1, [1, 2, 3, 4, 5, 6])
RUN(s, PENALTY_SOLVER(), 0.3)
d = 0.1 - b.conf[11]
print('HERTZ %g %.6e %.6e' % (hp, d, (b.mass * 10 / 1e6) ** (1 / hp)))
PY
for hp in 1.5 1; do
  out=$(cd "$TMP" && timeout 120 "$MOREAU" hertz.py $hp 2>&1)
  line=$(grep -m1 '^HERTZ' <<<"$out"); echo "# hpow $hp: $line"
  [ -n "$line" ] || echo "$out" | tail -5 | sed 's/^/# /'
  check "SURFACE_MATERIAL hpow $hp: the resting sphere's penetration is (m g / k)^(1/hpow) (1 %); FIX_POINT/FIX_DIRECTION on an OBSTACLE and PIPE with 6 surface ids accepted" \
    awk '/^HERTZ/ { f = 1; ok = ($3 > 0.99 * $4 && $3 < 1.01 * $4) } END { exit !(f && ok) }' <<<"$out"
done

# --- the solver's statistics, as Solfec's (issue 32): iters and error of the last step,
# itershist after itershist = 'ON' the iterations of every step since, across RUNs; the
# same numbers as HISTORY's ITERATIONS; None before a RUN and without 'ON'
# the scene of both decks below: three balls stacked on the ground (contacts from step 1)
cat >"$TMP/balls.py" <<'PY'
GRAVITY(s, (0, 0, -10))
m = BULK_MATERIAL(s)
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 1,-1,-1, 1,1,-1, -1,1,-1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1, 1, 1, [1]*6), m)
for i in range(3):
    BODY(s, 'RIGID', SPHERE((0.01 * i, 0, 0.1 + 0.2 * i), 0.1, 1, 1), m)
PY
cat >"$TMP/ih.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out-ih')
s.verbose = 'OFF'
exec(open('balls.py').read())
OUTPUT(s, 0.01)
gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000)
none = gs.iters is None and gs.itershist is None
RUN(s, gs, 0.05)
none = none and gs.itershist is None
gs.itershist = 'ON'
RUN(s, gs, 0.02)
RUN(s, gs, 0.01)
t, it = HISTORY(s, [(s, 'ITERATIONS')], 0.0, 1.0)
t, err = HISTORY(s, [(s, 'ERROR')], 0.0, 1.0)
want = [int(x) for tt, x in zip(t, it) if tt > 0.05 + 1e-9]
print('IH', none and gs.itershist == want and len(want) == 30 and gs.iters == int(it[-1]) and gs.error == err[-1], len(want), max(want), gs.iters, gs.error)
PY
out=$(cd "$TMP" && timeout 60 "$MOREAU" ih.py 2>&1); echo "# $(grep '^IH' <<<"$out")"
check "GAUSS_SEIDEL_SOLVER iters, error and itershist (30 steps after 'ON', over two RUNs) are the step history's" grep -q '^IH True 30' <<<"$out"

# merhist (Solfec-1.0's per-iteration record of the last solve): moreau's convergence
# measure at each iteration, read in a CALLBACK after every step of a stack of three balls
# on the ground (contacts from the first step): non-empty, falling to the tolerance at the
# end of each converged solve; [] before any solve; GAUSS_SEIDEL one entry per sweep
cat >"$TMP/mh.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out-mh')
s.verbose = 'OFF'
exec(open('balls.py').read())
OUTPUT(s, 1e-3)
ok, cur, rec = True, None, []
def cb(data):  # one callback for both RUNs: the solver of the current one
    rec.append(list(cur.merhist))
    return 1
CALLBACK(s, 1e-3, None, cb)
for sv, tol in ((NEWTON_SOLVER(meritval=1e-9), 1e-9), (GAUSS_SEIDEL_SOLVER(1e-8, 1000), 1e-8)):
    ok = ok and sv.merhist == []
    cur, rec = sv, []
    t0 = s.time
    RUN(s, sv, 0.01)
    t, it = HISTORY(s, [(s, 'ITERATIONS')], t0 + 1e-9, 1.0)
    good = len(rec) >= 9 and all(len(h) >= 1 and h[-1] <= tol and h[0] >= h[-1] and all(isinstance(x, float) for x in h) for h in rec)
    if sv.kind == 'GAUSS_SEIDEL_SOLVER':  # one measure per sweep: the step's iterations
        good = good and [len(h) for h in rec[-5:]] == [int(x) for x in it[-5:]]
    print('MH', sv.kind, good, len(rec), [len(h) for h in rec[:4]], rec[-1][-1] if rec and rec[-1] else None)
    ok = ok and good
print('MHALL', ok)
PY
out=$(cd "$TMP" && timeout 60 "$MOREAU" mh.py 2>&1); echo "$out" | grep '^MH ' | sed 's/^/# /'
check "NEWTON_SOLVER and GAUSS_SEIDEL_SOLVER merhist: the last solve's measure per iteration, down to the tolerance ([] before a solve)" grep -q '^MHALL True' <<<"$out"
