#!/usr/bin/env bash
# Finite-element bodies in the output: the pressurized cube (cases/fe_pressure.py) writes
# each element's Cauchy stress, which must be the hydrostatic -p I (the exact state of a
# free cube under a uniform pressure, to the SVK nonlinearity, 5e-4 of p), von Mises ~ 0,
# and its surface's nodal displacements, which must be the uniform contraction about the
# centre (-p/(3K) (X - X_c)); on 1 and 2 ranks (the same numbers). Bodies that are not
# meshes keep their body-wide stress (checked in output-layout.sh).
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
CASES="$MB_ROOT/cases"
cd "$TMP"
for np in 1 2; do
  timeout 300 $MPIRUN -np $np "$MOREAU" -mb_quiet -mb_output_dir "$TMP/p$np" "$CASES/fe_pressure.py" >"$TMP/p$np.txt" 2>&1
  check "fe_pressure on $np rank(s) prints PASSED" grep -qx PASSED "$TMP/p$np.txt"
  check "fe_pressure on $np rank(s): element stresses -p I, von Mises ~ 0, surface displacements -p/(3K)(X - Xc)" "$PY" - "$TMP/p$np/fe_pressure.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
fr = f["frames"][sorted(f["frames"])[-1]]
p, K = 1e3, 1e6 / (3 * (1 - 2 * 0.25))
st, mis = fr["surface_stress"][()], fr["surface_mises"][()]
x, d = fr["surface_points"][()], fr["surface_displacement"][()]
X = x - d
want = -p / (3 * K) * (X - 0.5)
e1 = np.max(np.abs(st[:, :3] + p)) / p
e2 = np.max(np.abs(st[:, 3:])) / p
e3 = np.max(mis) / p
e4 = np.max(np.abs(d - want)) / np.max(np.abs(want))
print("# cells %d: normal stress %.2e of p off -p, shear %.2e, von Mises %.2e; displacement %.2e off" % (len(st), e1, e2, e3, e4))
sys.exit(0 if e1 < 2e-3 and e2 < 1e-6 and e3 < 1e-6 and e4 < 1e-2 else 1)
PY
done

# --- FORCE with a callback on a finite-element body: the rigid 9 numbers (their force spread
# over the lumped masses, as gravity: a free bar of 10 kg pushed by 10 N for 0.1 s moves as a
# rigid body at 0.1 m/s, every node) or the body's nodal forces (10/nn N on each node along x:
# momentum 1 kg m/s, kinetic energy 0.05 J = the external work); a torque is refused
cat >"$TMP/fecb.py" <<'PY'
import sys
mode = sys.argv[1]
s = SOLFEC('DYNAMIC', 1e-4, 'out-fecb-' + mode)
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000)
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,0.1,0, 0,0.1,0, 0,0,0.1, 1,0,0.1, 1,0.1,0.1, 0,0.1,0.1], 4, 1, 1, 1, [1]*6), m)
b.scheme = 'DEF_LIM'
nn = len(b.velo) // 3
def nine(q, u, t, h): return (10, 0, 0, 0, 0, 0, 0, 0, 0)
def nodal(q, u, t, h): return [10.0 / nn if k % 3 == 0 else 0.0 for k in range(3 * nn)]
def torque(q, u, t, h): return (0, 0, 0, 0, 0, 1, 0, 0, 0)
FORCE(b, 'SPATIAL', (0.5, 0.05, 0.05), (1, 0, 0), {'nine': nine, 'nodal': nodal, 'torque': torque}[mode])
RUN(s, None, 0.1)
e = ENERGY(s)
print('FECB %.9f %.9f %.9f %.9f %.9f' % (min(b.velo[0::3]), max(b.velo[0::3]), e[0], e[1], e[2]))
PY
out=$(timeout 120 "$MOREAU" "$TMP/fecb.py" nine 2>&1)
check "FE FORCE callback of 9 numbers: every node at 0.1 m/s after 0.1 s (rigid translation, 1e-9)" \
  awk '/^FECB/ { exit !($2 > 0.1 - 1e-9 && $3 < 0.1 + 1e-9) }' <<<"$out"
out=$(timeout 120 "$MOREAU" "$TMP/fecb.py" nodal 2>&1)
check "FE FORCE callback of nodal forces: kinetic energy 0.05 J (momentum 1 kg m/s) to 1e-3, equal to the external work" \
  awk '/^FECB/ { k = $4; w = $6; exit !(k > 0.04995 && k < 0.05005 && (w - k - $5) < 1e-4 * w && (k + $5 - w) < 1e-4 * w) }' <<<"$out"
expect_error "FE FORCE callback with a torque" "FINITE_ELEMENT body 0: a load callback's torques \(numbers 4 to 9\) must be 0, got 1 at position 5" timeout 120 "$MOREAU" "$TMP/fecb.py" torque

# --- DEF_LIM with contacts under a held factor: a 4x4x6 HEX8 block on a rigid floor
# (bench/fe_floor.py, 64 contacts, 40 steps). By default the factor of A serves up to 10
# steps and W's blocks come from it (MUMPS's entries of A⁻¹) while the step's first CG
# residual keeps it within 1e-6 of the current A; the end state agrees with a factorization
# every step (-mb_fem_refactor 1) and with W's blocks by solves (-mb_fem_inverse_entries 0)
for v in held:"" every:"-mb_fem_refactor 1" solves:"-mb_fem_inverse_entries 0"; do
  # shellcheck disable=SC2086
  (cd "$TMP" && timeout 120 "$MOREAU" ${v#*:} "$MB_ROOT/bench/fe_floor.py" 4 4 6 40 DEF_LIM state "floor-${v%%:*}.txt" >"floor-${v%%:*}.log" 2>&1)
done
cat >"$TMP/floorcmp.py" <<'PY'
import sys
def rd(f): return [float(x) for x in open(f).read().split()]
ref = rd(sys.argv[1]); n = len(ref) // 2
worst = 0
for f in sys.argv[2:]:
    x = rd(f)
    du = max(abs(a - b) for a, b in zip(x[:n], ref[:n])) / max(abs(a) for a in ref[:n])
    dq = max(abs(a - b) for a, b in zip(x[n:], ref[n:])) / max(abs(a) for a in ref[n:])
    print("# %s against a factorization every step: velocities %.2g, displacements %.2g (relative to the largest)" % (f, du, dq))
    worst = max(worst, du, dq)
sys.exit(0 if worst < 1e-6 else 1)
PY
check "DEF_LIM block on a floor, W from a held factor: the end state within 1e-6 of a factorization every step (and of W by solves)" \
  "$PY" "$TMP/floorcmp.py" "$TMP/floor-every.txt" "$TMP/floor-held.txt" "$TMP/floor-solves.txt"

# --- constraints on a finite-element bar (1 x 0.1 x 0.1 m, 4x1x1 HEX8, E = 1e7, rho = 1000:
# c = sqrt(E/rho) = 100 m/s; CRITICAL_STEP 7.5e-4 under DEF_EXP), both schemes.
FEBAR="HEX([0,0,0, 1,0,0, 1,0.1,0, 0,0.1,0, 0,0,0.1, 1,0,0.1, 1,0.1,0.1, 0,0.1,0.1], 4, 1, 1, 1, [1]*6)"
# SET_VELOCITY 0.1 m/s along x at the tip face's centre (a point inside a face, interpolated)
# for 40 steps of 1e-4 s: the point's VX is 0.1 at every frame after t = 0 (1e-9 of it: one
# bilateral row, the solver at 1e-10), its DX the midpoint rule's 0.1 (t - h/2) (the first
# step starts from rest; 1e-9 of it), while the far end (x = 0), which the wave front
# (0.4 m in 0.004 s) has not reached, moves at below 1e-2 of it
cat >"$TMP/fesv.py" <<PY
import sys
h, v = 1e-4, 0.1
s = SOLFEC('DYNAMIC', h, 'out-fesv-' + sys.argv[1])
s.verbose = 'OFF'
b = BODY(s, 'FINITE_ELEMENT', $FEBAR, BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000))
b.scheme = sys.argv[1]
SET_VELOCITY(b, (1, 0.05, 0.05), (1, 0, 0), v)
OUTPUT(s, h)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 40 * h)
t, vx, dx, vo = HISTORY(s, [(b, (1, 0.05, 0.05), 'VX'), (b, (1, 0.05, 0.05), 'DX'), (b, (0, 0.05, 0.05), 'VX')])
ev = max(abs(u - v) for u in vx[1:]) / v
ed = max(abs(d - v * (x - h / 2)) for x, d in zip(t[1:], dx[1:])) / (v * t[-1])
print('FESV %d %.3e %.3e %.3e' % (len(t), ev, ed, max(abs(u) for u in vo) / v))
PY
for sc in DEF_EXP DEF_LIM; do
  out=$(timeout 120 "$MOREAU" -mb_quiet "$TMP/fesv.py" $sc 2>&1)
  grep '^FESV' <<<"$out" | awk '{ printf "# %s: %d frames; tip VX off 0.1 by %s, DX off 0.1 (t - h/2) by %s, far end |VX| up to %s of 0.1\n", "'$sc'", $2, $3, $4, $5 }'
  check "FE SET_VELOCITY ($sc): the point's VX = 0.1 m/s at every frame (1e-9), DX = 0.1 (t - h/2) (1e-9), the far end below 1e-2 of it" \
    awk '/^FESV/ { f = 1; ok = ($2 == 41 && $3 < 1e-9 && $4 < 1e-9 && $5 < 1e-2) } END { exit !(f && ok) }' <<<"$out"
done

# FIX_DIRECTION along z at the x = 0 end's face centre P of the bar falling under gravity
# (10 m/s^2 along -z) and moving at (0.1, 0.05, 0) m/s: over 200 steps of 2e-4 s P's DZ and VZ
# stay 0 (1e-9 of the far end's fall, about 1e-2 m) while P moves on along y at 0.05 t
# (nothing acts along y: 1e-9) and along x at 0.1 t (up to 2 % more: P also slides in, along
# +x, as the bar tilts), and the far end falls between free fall's g t^2/2 = 8e-3 m and a
# rigid bar's 3 g t^2/4 = 1.2e-2 m (its end accelerates at 3g/2 about a vertically fixed end)
cat >"$TMP/fefd.py" <<PY
import sys
s = SOLFEC('DYNAMIC', 2e-4, 'out-fefd-' + sys.argv[1])
s.verbose = 'OFF'
b = BODY(s, 'FINITE_ELEMENT', $FEBAR, BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000))
b.scheme = sys.argv[1]
b.velo = [0.1, 0.05, 0.0] * 20
GRAVITY(s, (0, 0, -10))
FIX_DIRECTION(b, (0, 0.05, 0.05), (0, 0, 1))
OUTPUT(s, 2e-3)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.04)
P, Q = (0, 0.05, 0.05), (1, 0.05, 0.05)
t, dx, dy, dz, vz, dq = HISTORY(s, [(b, P, 'DX'), (b, P, 'DY'), (b, P, 'DZ'), (b, P, 'VZ'), (b, Q, 'DZ')])
T = t[-1]
print('FEFD %.3e %.3e %.3e %.3e %.6e' % (max(abs(z) for z in dz) / abs(dq[-1]), max(abs(w) for w in vz) / (abs(dq[-1]) / T),
      abs(dy[-1] - 0.05 * T) / (0.05 * T), (dx[-1] - 0.1 * T) / (0.1 * T), dq[-1]))
PY
for sc in DEF_EXP DEF_LIM; do
  out=$(timeout 120 "$MOREAU" -mb_quiet "$TMP/fefd.py" $sc 2>&1)
  grep '^FEFD' <<<"$out" | awk '{ printf "# %s: fixed DZ %s and VZ %s of the far end'"'"'s fall (and its speed), DY off 0.05 t by %s, DX above 0.1 t by %s, far end DZ %s m\n", "'$sc'", $2, $3, $4, $5, $6 }'
  check "FE FIX_DIRECTION ($sc): the fixed component stays 0 (1e-9 of the motion), the point moves on along x (0.1 t, up to 2 % more) and y (0.05 t, 1e-9), the far end falls (8e-3 to 1.2e-2 m)" \
    awk '/^FEFD/ { f = 1; ok = ($2 < 1e-9 && $3 < 1e-9 && $4 < 1e-9 && $5 >= 0 && $5 < 2e-2 && $6 < -8e-3 && $6 > -1.2e-2) } END { exit !(f && ok) }' <<<"$out"
done

# PUT_SPRING (k = 1e4 N/m) from the top face's centre of a stiff FE cube (0.1 m, one HEX8,
# E = 1e8, rho = 1000: m = 1 kg) to a fixed point 0.1 m above, its rest length, released at
# rest under gravity. A rigid mass would move as z(t) = -(m g / k)(1 - cos w t), w = sqrt(k/m):
# it crosses the equilibrium -m g/k = -1e-3 m at T/4, 3T/4, 5T/4 (T = 2 pi sqrt(m/k) = 62.8 ms)
# and turns at -2 m g / k. The cube's own stiffness (about E a = 1e7 N/m, 1e3 k, in series
# with the spring) lengthens T by ~k/(2 E a), 5e-4: the three crossings within 1 % of T, the
# attachment point's lowest DZ within 1 % of -2 m g/k, over 400 steps of 2e-4 s. CRITICAL_STEP
# of a DEF_LIM body on the spring is the spring's 2/w = 2 sqrt(m/k) = 0.02 s (1e-9).
cat >"$TMP/fesp.py" <<'PY'
import sys, math
k, g = 1e4, 10.0
s = SOLFEC('DYNAMIC', 2e-4, 'out-fesp-' + sys.argv[1])
s.verbose = 'OFF'
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, .1,0,0, .1,.1,0, 0,.1,0, 0,0,.1, .1,0,.1, .1,.1,.1, 0,.1,.1], 1, 1, 1, 1, [1]*6), BULK_MATERIAL(s, young=1e8, poisson=0.25, density=1000))
b.scheme = sys.argv[1]
GRAVITY(s, (0, 0, -g))
PUT_SPRING(b, (0.05, 0.05, 0.1), None, (0.05, 0.05, 0.2), spring=k)
hc = CRITICAL_STEP(s)
OUTPUT(s, 2e-4)
RUN(s, None, 0.08)
t, dz = HISTORY(s, [(b, (0.05, 0.05, 0.1), 'DZ')])
m = b.mass
e, T = -m * g / k, 2 * math.pi * math.sqrt(m / k)
cross = [t[i] + (t[i + 1] - t[i]) * (e - dz[i]) / (dz[i + 1] - dz[i]) for i in range(len(t) - 1) if (dz[i] - e) * (dz[i + 1] - e) < 0]
want = [T / 4, 3 * T / 4, 5 * T / 4]
ec = max(abs(a - w) for a, w in zip(cross, want)) / T if len(cross) == 3 else 1
print('FESP %d %.3e %.3e %.3e %.9g' % (len(cross), ec, abs(min(dz) - 2 * e) / abs(2 * e), abs(hc - 2 * math.sqrt(m / k)) / hc, hc))
PY
for sc in DEF_LIM DEF_EXP; do
  out=$(timeout 120 "$MOREAU" -mb_quiet "$TMP/fesp.py" $sc 2>&1)
  grep '^FESP' <<<"$out" | awk '{ printf "# %s: %d crossings of -m g/k, off T/4, 3T/4, 5T/4 by %s of T; lowest point off -2 m g/k by %s; CRITICAL_STEP %s\n", "'$sc'", $2, $3, $4, $6 }'
  if [ $sc = DEF_LIM ]; then
    check "FE block on a PUT_SPRING ($sc): period 2 pi sqrt(m/k) (1 %), lowest point -2 m g/k (1 %), CRITICAL_STEP 2 sqrt(m/k) (1e-9)" \
      awk '/^FESP/ { f = 1; ok = ($2 == 3 && $3 < 1e-2 && $4 < 1e-2 && $5 < 1e-9) } END { exit !(f && ok) }' <<<"$out"
  else # DEF_EXP: CRITICAL_STEP is the cube's own bound (2.2e-4), below the spring's
    check "FE block on a PUT_SPRING ($sc): period 2 pi sqrt(m/k) (1 %), lowest point -2 m g/k (1 %)" \
      awk '/^FESP/ { f = 1; ok = ($2 == 3 && $3 < 1e-2 && $4 < 1e-2 && $6 > 2e-4 && $6 < 1e-3) } END { exit !(f && ok) }' <<<"$out"
  fi
done

# CRITICAL_STEP, the step lowered as Solfec-1.0 lowers it, and the warning: a rigid sphere
# (body 0) and two DEF_EXP bars, the second (body 2) 4 times as stiff (E = 4e7: c doubles,
# its bound halves, 1e-9), so the smallest bound is body 2's; its nodes start with small
# velocities (1e-3 m/s) to feed an instability. A step 1.2 times CRITICAL_STEP is lowered to
# half of it (Solfec's dom.c: step = min(step, h_crit/2)) with one line naming body 2 and
# the three steps (as %g), on 1 and on 3 ranks (body 2 on rank 2 there), and the run ends
# in its duration (240 steps); with -mb_keep_step the step stays, the warning names body 2
# and both steps, once, and the run does blow up. 0.45 times it runs its 100 steps with
# neither line, and so does 0.95 times it with -mb_keep_step, the summary naming body 2's bound.
cat >"$TMP/fecs.py" <<PY
import sys, math
s = SOLFEC('DYNAMIC', 1e-5, 'out-fecs-' + sys.argv[1])
s.verbose = 'OFF'
BODY(s, 'RIGID', SPHERE((5, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s))
BODY(s, 'FINITE_ELEMENT', $FEBAR, BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000))
h1 = CRITICAL_STEP(s)
b = BODY(s, 'FINITE_ELEMENT', TRANSLATE($FEBAR, (0, 1, 0)), BULK_MATERIAL(s, young=4e7, poisson=0.25, density=1000))
b.velo = [1e-3 * math.sin(7 * i) for i in range(60)]
hc = CRITICAL_STEP(s)
s.step = float(sys.argv[1]) * hc
if RANK() == 0:  # one rank's line: mpirun interleaves lines that several ranks print at once
    print('FECS %.3e %g %g %g' % (abs(hc - h1 / 2) / hc, s.step, hc, hc / 2))
RUN(s, None, 100 * s.step)
PY
for np in 1 3; do
  out=$(timeout 120 $MPIRUN -np $np "$MOREAU" -mb_keep_step "$TMP/fecs.py" 1.2 2>&1); rc=$?
  want=$(awk '/^FECS/ { printf "moreau: WARNING: the step %s is above the critical step %s of body 2 (DEF_EXP): the run will blow up; take a step below it, or DEF_LIM for that body", $3, $4; exit }' <<<"$out")
  n=$(grep -cxF -- "$want" <<<"$out")
  echo "# 1.2 CRITICAL_STEP -mb_keep_step on $np rank(s): exit $rc, $n x '$want'; $(grep -m1 -o 'the run has blown up at step [0-9]*' <<<"$out"); body 2's bound off half body 1's by $(awk '/^FECS/ { print $2; exit }' <<<"$out")"
  check "FE DEF_EXP step above CRITICAL_STEP with -mb_keep_step on $np rank(s): one warning naming body 2 and both steps, the run blows up" \
    bash -c '[ '$n' -eq 1 ] && [ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && grep -q "the run has blown up" <<<"$0" && awk "/^FECS/ { exit !(\$2 < 1e-9) }" <<<"$0"' "$out"
  out=$(timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/fecs.py" 1.2 2>&1); rc=$?
  want=$(awk '/^FECS/ { printf "moreau: the step %s is above half the critical step %s of body 2 (DEF_EXP): lowered to %s, as Solfec-1.0 does (-mb_keep_step keeps the deck'"'"'s step)", $3, $4, $5; exit }' <<<"$out")
  n=$(grep -cxF -- "$want" <<<"$out")
  echo "# 1.2 CRITICAL_STEP on $np rank(s): exit $rc, $n x '$want'; $(grep -m1 '^moreau: [0-9]* steps to' <<<"$out")"
  check "FE DEF_EXP step above half CRITICAL_STEP on $np rank(s): lowered to the half, one line naming body 2 and the steps, 240 steps, no warning" \
    bash -c '[ '$n' -eq 1 ] && [ '$rc' -eq 0 ] && ! grep -q WARNING <<<"$0" && grep -q "^moreau: 240 steps to" <<<"$0"' "$out"
done
for run in "0.45" "-mb_keep_step 0.95"; do
  set -- $run; f=${!#}
  out=$(timeout 120 "$MOREAU" "${@:1:$#-1}" "$TMP/fecs.py" $f 2>&1); rc=$?
  hc=$(awk '/^FECS/ { print $4; exit }' <<<"$out")
  echo "# $run CRITICAL_STEP: exit $rc, $(grep -c 'WARNING\|lowered' <<<"$out") warnings or notices; $(grep -m1 'critical step of the DEF_EXP' <<<"$out")"
  check "FE DEF_EXP step $run CRITICAL_STEP: the deck's step, no warning, 100 steps, the summary names body 2's bound" \
    bash -c '[ '$rc' -eq 0 ] && ! grep -q "WARNING\|lowered" <<<"$0" && grep -q "^moreau: 100 steps to" <<<"$0" && grep -q "^moreau: critical step of the DEF_EXP bodies '$hc' (body 2) at the start" <<<"$0"' "$out"
done

# --- a step raised between RUNs above the critical step is checked at that RUN
cat >"$TMP/cs2.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-4, 'out-cs2'); s.verbose = 'OFF'
bar = [0,0,0, 1,0,0, 1,0.1,0, 0,0.1,0, 0,0,0.1, 1,0,0.1, 1,0.1,0.1, 0,0.1,0.1]
b = BODY(s, 'FINITE_ELEMENT', HEX(bar, 4,1,1, 1, [1]*6), BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000))
GRAVITY(s, (0,0,-10)); hc = CRITICAL_STEP(s)
RUN(s, None, 5*s.step); s.step = 2*hc; RUN(s, None, 20*s.step)
print('CS2 step %g' % s.step)
PY
out=$(cd "$TMP" && timeout 120 "$MOREAU" -mb_keep_step cs2.py 2>&1)
check "a step doubled past CRITICAL_STEP between RUNs, -mb_keep_step: the second RUN warns, naming body 0" \
  grep -q "^moreau: WARNING: the step 0.00150756 is above the critical step 0.000753778 of body 0 (DEF_EXP)" <<<"$out"
out=$(cd "$TMP" && timeout 120 "$MOREAU" cs2.py 2>&1)
check "a step doubled past CRITICAL_STEP between RUNs: the second RUN lowers it to half, naming body 0; the deck reads the lowered step" \
  bash -c 'grep -q "^moreau: the step 0.00150756 is above half the critical step 0.000753778 of body 0 (DEF_EXP): lowered to 0.000376889" <<<"$0" && grep -q "^CS2 step 0.000376889" <<<"$0"' "$out"

# --- the 'BC' form (body co-rotational): the bar hitting a wall (cases/fe_bar_wall.py's own
# checks: contact 2L/c within 5 %, exit speed and mean force rho c A v within 6 %), and the
# bricks knocked by a ball (cases/fe_bricks.py, large rotations) with the same energies on
# 1 and 3 ranks (relative 1e-9)
out=$(cd "$TMP" && timeout 300 "$MOREAU" -mb_output_dir bcwall "$MB_ROOT/cases/fe_bar_wall.py" BC 2>&1)
echo "$out" | grep '^fe_bar_wall' | sed 's/^/# BC: /'
check "form 'BC': a bar hitting a wall leaves as cases/fe_bar_wall.py says (PASSED, run in the BC form)" bash -c 'grep -q "^fe_bar_wall (form BC):" <<<"$0" && grep -q "^PASSED" <<<"$0"' "$out"
out=$(cd "$TMP" && timeout 300 "$MOREAU" -mb_output_dir bcpull "$MB_ROOT/cases/fe_bar_pull.py" BC 2>&1)
echo "$out" | grep '^fe_bar_pull' | sed 's/^/# BC: /'
check "form 'BC': the pulled bar of cases/fe_bar_pull.py (elongation FL/(EA) and HISTORY's SX = F/A from the frames, 1 %: PASSED)" \
  bash -c 'grep -q "^fe_bar_pull (form BC):" <<<"$0" && grep -q "^PASSED" <<<"$0"' "$out"
for np in 1 3; do
  (cd "$TMP" && timeout 300 $MPIRUN -np $np "$MOREAU" -mb_output_dir bcbricks$np "$MB_ROOT/cases/fe_bricks.py" BC >bcbricks$np.log 2>&1)
done
check "form 'BC': the bricks ran in the BC form on 1 and 3 ranks" bash -c 'grep -q "^fe_bricks (form BC, DEF_EXP):" "$0" && grep -q "^fe_bricks (form BC, DEF_EXP):" "$1"' "$TMP/bcbricks1.log" "$TMP/bcbricks3.log"
check "form 'BC': three bricks knocked by a ball, the same energies on 1 and 3 ranks (1e-9)" \
  awk '/energy kinetic/ { n++; for (i = 4; i <= NF; i += 3) v[n, i] = $i } END { if (n != 2) exit 1; for (i = 4; i <= 13; i += 3) { d = v[1, i] - v[2, i]; if (d < 0) d = -d; s = v[1, i] < 0 ? -v[1, i] : v[1, i]; if (d > 1e-9 * (s + 1e-12)) exit 1 } }' "$TMP/bcbricks1.log" "$TMP/bcbricks3.log"
