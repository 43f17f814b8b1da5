#!/usr/bin/env bash
# The fault catalogue (issue 23): inputs and situations that once got through silently or
# crashed, each reproduced and checked by its message or its effect, on 1 and more ranks
# where it matters. Add a case here for every fault found.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# --- every deck solver choice reaches the solver (NEWTON_SOLVER once ran Gauss-Seidel)
for solver in "GAUSS_SEIDEL_SOLVER(1e-6, 100):constraint solver gauss_seidel" "NEWTON_SOLVER(1e-8, 50):constraint solver newton" "PENALTY_SOLVER():constraint solver gauss_seidel"; do
  call=${solver%%:*} want=${solver#*:}
  cat >"$TMP/solver.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-solver')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
SURFACE_MATERIAL(s, model='SPRING_DASHPOT', friction=0.3, spring=1e5, dashpot=10)
m = BULK_MATERIAL(s)
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 1,-1,-1, 1,1,-1, -1,1,-1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1, 1, 1, [1]*6), m)
BODY(s, 'RIGID', HEX([0,0,0, 0.2,0,0, 0.2,0.2,0, 0,0.2,0, 0,0,0.2, 0.2,0,0.2, 0.2,0.2,0.2, 0,0.2,0.2], 1, 1, 1, 1, [1]*6), m)
RUN(s, $call, 0.01)
PY
  for np in 1 2; do
    out=$(timeout 120 $MPIRUN -np $np "$MOREAU" -mb_solver_view "$TMP/solver.py" 2>&1)
    check "$call on $np rank(s): -mb_solver_view prints '$want'" grep -q "$want" <<<"$out"
  done
done

# --- no NaN or infinity reaches the output: a TIME_SERIES with a NaN is refused at input;
# a state that overflows (a speed of 1e200, a CDM body on a 1e12 N/m spring above its
# critical step) stops the run on every rank naming the body, the step and the time
cat >"$TMP/tsnan.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-tsnan')
ts = TIME_SERIES([0, 0, 1, float('nan')])
PY
expect_error "TIME_SERIES with a NaN value" "TIME_SERIES: time series point 1 is not finite: \(t, v\) = \(1, nan\)" "$MOREAU" "$TMP/tsnan.py"
cat >"$TMP/fast.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-fast')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)
BODY(s, 'RIGID', SPHERE((5, 0, 0), 1, 1, 1), m)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
b.velo = (0, 0, 0, 1e200, 0, 0)
OUTPUT(s, 1e-3)
RUN(s, None, 0.01)
PY
for np in 1 2; do
  expect_error "a body launched at 1e200 m/s on $np rank(s)" "the state of body 1 is not finite after step 1 \(t = 0.001, h = 0.001\): the run has blown up" timeout 60 $MPIRUN -np $np "$MOREAU" "$TMP/fast.py"
done
check "... and no NaN or infinity is in its output file" "$PY" -c '
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
ok = all(np.all(np.isfinite(f["frames"][k]["conf"][()])) and np.all(np.isfinite(f["frames"][k]["velo"][()])) for k in f["frames"])
ok = ok and all(np.all(np.isfinite(f["history"][k][()])) for k in f["history"])
sys.exit(0 if ok else 1)' "$TMP/out-fast/fast.h5"
cat >"$TMP/stiff.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-stiff')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
b.scheme = 'CDM'
PUT_SPRING(b, (0, 0, 0), None, (0, 0, -1), spring=1e12)
b.velo = (0, 0, 0, 0, 0, 1)
RUN(s, None, 1.0)
PY
expect_error "CDM on a 1e12 N/m spring above its critical step: stopped at its second step" "the run has blown up at step 2 \(t = 0.002, h = 0.001\): the bodies' energy is .* made from nothing since t = 0.001, over 1000 times .*\(body 0 holds the most" timeout 60 "$MOREAU" "$TMP/stiff.py"

# --- a finite but exploding state (blowup.c's energy rule): a CDM body on a spring at
# omega h = 2.05 (critical: 2) grows 2.44 times in energy per step; it overflows after about
# 800 steps, writing finite garbage until then. The energy rule stops it within a few steps;
# with the rule off (-mb_blowup_factor 0) only the overflow stops it
cat >"$TMP/above.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-above')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
b.scheme = 'CDM'
PUT_SPRING(b, (0, 0, 0), None, (0, 0, -1), spring=4.0/3*3.141592653589793e-3*2050**2)
b.velo = (0, 0, 0, 0, 0, 1)
OUTPUT(s, 1e-3)
RUN(s, None, 1.0)
PY
out=$(timeout 60 "$MOREAU" "$TMP/above.py" 2>&1)
n=$(grep -oE "blown up at step [0-9]+" <<<"$out" | grep -oE "[0-9]+$")
check "CDM at omega h = 2.05: the energy rule stops it within 20 steps (step ${n:-none})" test "${n:-999}" -le 20
out=$(timeout 60 "$MOREAU" -mb_blowup_factor 0 "$TMP/above.py" 2>&1)
n=$(grep -oE "not finite after step [0-9]+" <<<"$out" | grep -oE "[0-9]+$")
check "... and with -mb_blowup_factor 0 only the overflow stops it, past step 500 (step ${n:-none})" test "${n:-0}" -gt 500
# penalty contact of 1e15 N/m at h = 1e-3 (critical step ~3e-6): kicked out at 2e6 m/s in
# one step, finite (the issue's fourth case), on 1 and 3 ranks
cat >"$TMP/penalty.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-penalty')
s.verbose = 'OFF'
SURFACE_MATERIAL(s, model='SPRING_DASHPOT', spring=1e15, dashpot=0, friction=0)
m = BULK_MATERIAL(s)
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 1,-1,-1, 1,1,-1, -1,1,-1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1, 1, 1, [1]*6), m)
for i in range(3): BODY(s, 'RIGID', SPHERE((-0.5 + 0.5 * i, 0, 0.1), 0.1, 1, 1), m)
GRAVITY(s, (0, 0, -10))
OUTPUT(s, 1e-3)
RUN(s, PENALTY_SOLVER(), 0.2)
PY
for np in 1 3; do
  expect_error "penalty contact of 1e15 N/m at h = 1e-3 on $np rank(s)" "the run has blown up at step [0-9] \(t = 0.00[0-9], h = 0.001\): .* made from nothing" timeout 60 $MPIRUN -np $np "$MOREAU" "$TMP/penalty.py"
done
check "... and no NaN or infinity, nor the blown-up step, is in its output file" "$PY" -c '
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
v = [np.abs(f["frames"][k]["velo"][()]).max() for k in f["frames"]]
sys.exit(0 if all(np.isfinite(x) and x < 100 for x in v) else 1)' "$TMP/out-penalty/penalty.h5"
out=$(timeout 60 "$MOREAU" -mb_blowup_factor 0 "$TMP/penalty.py" 2>&1)
check "... which runs to its end with the rule off (exit 0: the rule is what stops it)" test $? -eq 0
# energy the deck gives is not made from nothing: a body at rest is given 10 m/s by a
# CALLBACK, and 20 m/s between two RUN calls (without the baseline these stop the run)
cat >"$TMP/given.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-given')
s.verbose = 'OFF'
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s))
b.velo = (0, 0, 0, 1e-3, 0, 0)
def kick(b):
  if b.velo is not None and b.velo[3] < 1: b.velo = (0, 0, 0, 10, 0, 0)
  return 1
CALLBACK(s, 0.005, (b,), kick)
RUN(s, None, 0.01)
if b.velo is not None: b.velo = (0, 0, 0, 20, 0, 0)
RUN(s, None, 0.01)
if b.velo is not None: print('speed', b.velo[3])
PY
for np in 1 2; do
  out=$(timeout 60 $MPIRUN -np $np "$MOREAU" "$TMP/given.py" 2>&1)
  check "velocities given by a CALLBACK and between RUN calls are not a blow-up on $np rank(s)" grep -q "speed 20" <<<"$out"
done

# --- shapes and configurations that are not what they claim: a HEX with two nodes swapped
# (a bow-tie face) is a twisted element; conf that is not a rotation
cat >"$TMP/bowtie.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-bowtie')
BODY(s, 'RIGID', HEX([0,0,0, 1,0,0, 0,1,0, 1,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6), BULK_MATERIAL(s))
PY
expect_error "a HEX with nodes 2 and 3 swapped" "HEX: MESH hexahedron \(8 nodes\) is twisted: its corners turn 6 one way and 2 the other \(two nodes swapped\? a face folded over itself\)" "$MOREAU" "$TMP/bowtie.py"
cat >"$TMP/conf.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-conf')
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(s))
b.conf = (2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0)
PY
expect_error "conf that is not a rotation" "body 0 \(RIGID\): the first 9 numbers of conf must be a rotation \(columns\), but its columns' dot products differ from the identity's by 3" "$MOREAU" "$TMP/conf.py"

# --- long output paths: ~300 characters (Open MPI's sharedfp/lockedfile component aborted
# on these: moreau leaves it out), ~3,970 (works), ~4,200 (refused: no directory is made)
seg=$(printf 'y%.0s' $(seq 1 150)) p300="$TMP/lp/$seg/$seg"
seg200=$(printf 'z%.0s' $(seq 1 200)) p4k="$TMP/lq" p42="$TMP/lr"
for i in $(seq 1 19); do p4k="$p4k/$seg200"; done
for i in $(seq 1 21); do p42="$p42/$seg200"; done
for p in "$p300" "$p4k"; do
  cat >"$TMP/long.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$p')
s.verbose = 'OFF'
BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(s))
OUTPUT(s, 1e-3)
RUN(s, None, 0.003)
PY
  for np in 1 3; do
    timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/long.py" >"$TMP/long.out" 2>&1
    check "an output directory of ${#p} characters on $np rank(s): the run writes its file" test -s "$p/long.h5"
    rm -f "$p/long.h5"
  done
done
printf "s = SOLFEC('DYNAMIC', 1e-3, '%s')\n" "$p42" >"$TMP/toolong.py"
expect_error "an output directory of ${#p42} characters is refused" "the output directory's path has ${#p42} characters; at most 4095 are supported" "$MOREAU" "$TMP/toolong.py"
check "... and no directory of it is made" test ! -e "$TMP/lr"

# --- a denormal coordinate (1e-310: finite) is accepted, not refused as "not finite"
cat >"$TMP/denormal.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-denormal')
s.verbose = 'OFF'
BODY(s, 'RIGID', HEX([1e-310,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6), BULK_MATERIAL(s))
BODY(s, 'RIGID', SPHERE((5, 1e-310, 0), 1, 1, 1), BULK_MATERIAL(s))
RUN(s, None, 0.002)
print('DENORMAL OK')
PY
out=$(timeout 60 "$MOREAU" "$TMP/denormal.py" 2>&1)
check "a coordinate of 1e-310 is accepted" grep -qx "DENORMAL OK" <<<"$out"

# --- contradictory joints. At one point (FIX_POINT and SET_VELOCITY; FIX_DIRECTION and
# SET_VELOCITY along it; two SET_VELOCITY along one direction at different speeds): an
# error at the start of the run naming both, on every rank (it ran with reactions of 1e20).
for pair in "FIX_POINT(b, (0, 0, 0)):SET_VELOCITY(b, (0, 0, 0), (1, 0, 0), 1.0):FIX_POINT (joint 0) and SET_VELOCITY (joint 1) of body 0 at point (0, 0, 0) contradict each other: the point is fixed, and it must move at 1 along (1, 0, 0); remove one of them" \
            "SET_VELOCITY(b, (0, 0, 0), (1, 0, 0), 1.0):FIX_POINT(b, (0, 0, 0)):FIX_POINT (joint 1) and SET_VELOCITY (joint 0) of body 0 at point (0, 0, 0) contradict each other: the point is fixed" \
            "FIX_DIRECTION(b, (0, 0, 1), (0, 0, 1)):SET_VELOCITY(b, (0, 0, 1), (0, 0, -1), 0.5):FIX_DIRECTION (joint 0) and SET_VELOCITY (joint 1) of body 0 at point (0, 0, 1) contradict each other: the point may not move along that direction, and it must move at 0.5 along (0, 0, -1)" \
            "SET_VELOCITY(b, (1, 0, 0), (0, 1, 0), 2.0):SET_VELOCITY(b, (1, 0, 0), (0, 1, 0), 3.0):SET_VELOCITY (joint 0) and SET_VELOCITY (joint 1) of body 0 at point (1, 0, 0) contradict each other: another SET_VELOCITY there gives another speed, and it must move at 3"; do
  j1=${pair%%:*} rest=${pair#*:} j2=${rest%%:*} want=${rest#*:}
  cat >"$TMP/contra.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-contra')
m = BULK_MATERIAL(s)
b = BODY(s, 'RIGID', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6), m)
$j1
$j2
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 1000), 0.01)
PY
  for np in 1 3; do
    expect_error "contradictory joints ${j1%%(*} and ${j2%%(*} at one point on $np rank(s): refused naming both" "$(sed 's/[()]/\\&/g' <<<"$want")" timeout 60 $MPIRUN -np $np "$MOREAU" "$TMP/contra.py"
  done
done
# compatible ones run: a direction fixed and a speed along another one
sed -i 's/^FIX_DIRECTION.*$/FIX_DIRECTION(b, (0, 0, 1), (0, 0, 1))/; s/^SET_VELOCITY.*$/SET_VELOCITY(b, (0, 0, 1), (1, 0, 0), 0.5)/' "$TMP/contra.py"
sed -i '4s/.*/FIX_DIRECTION(b, (0, 0, 1), (0, 0, 1))/' "$TMP/contra.py"
check "FIX_DIRECTION along z and SET_VELOCITY along x at one point: compatible, the run goes on" timeout 60 "$MOREAU" "$TMP/contra.py"
# the input check cannot see every contradiction (a fixed point and a speed at another point
# that the rotation about it cannot give): the solver cannot meet both, and the summary says
# so (it said "0 steps missed its tolerance")
cat >"$TMP/contra.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-contra')
m = BULK_MATERIAL(s)
b = BODY(s, 'RIGID', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6), m)
FIX_POINT(b, (0, 0, 0))
SET_VELOCITY(b, (1, 0, 0), (1, 0, 0), 1.0)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 1000), 0.01)
PY
out=$(timeout 60 "$MOREAU" "$TMP/contra.py" 2>&1)
check "contradictory joints at two points: the steps that missed the tolerance are reported" grep -qE "solver gauss_seidel, [1-9][0-9]* steps missed its tolerance" <<<"$out"

# --- the output file's name is taken by a directory: one line of moreau's, no HDF5 stack
mkdir -p "$TMP/taken/taken.h5"
printf "s = SOLFEC('DYNAMIC', 1e-3, '%s')\n" "$TMP/taken" >"$TMP/taken.py"
expect_error "a directory where the .h5 goes" "cannot write .*taken/taken.h5: a directory of that name is in the way" "$MOREAU" "$TMP/taken.py"
out=$(timeout 60 "$MOREAU" "$TMP/taken.py" 2>&1)
check "... with no HDF5 diagnostic stack (that is -mb_hdf5_debug's)" bash -c '! grep -q HDF5-DIAG <<<"$0"' "$out"

# --- two SOLFEC objects writing one file (the same output directory, or -mb_output_dir for
# all): the earlier object's file is closed before the later one writes it anew, so the
# file is readable and holds the last run; the earlier object's HISTORY is a clear error
cat >"$TMP/twosol.py" <<PY
def run(v):
    s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-twosol')
    s.verbose = 'OFF'
    m = BULK_MATERIAL(s)
    b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
    b.velo = (0, 0, 0, v, 0, 0)
    RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.01)
    return s, b
s1, b1 = run(1.0)
s2, b2 = run(2.0)
t, dx = HISTORY(s2, (b2, (0, 0, 0), 'DX'))
if RANK() == 0: print('SECOND DX %.6f' % dx[-1])
try:
    HISTORY(s1, (b1, (0, 0, 0), 'DX'))
except RuntimeError as e:
    if RANK() == 0: print('FIRST: %s' % e)
PY
for np in 1 2; do
  out=$(timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/twosol.py" 2>&1); rc=$?
  check "two SOLFEC objects on one file, $np rank(s): the run ends well and says the second took the file over" bash -c '[ '$rc' -eq 0 ] && grep -q "SOLFEC object 2 writes .*twosol.h5, as SOLFEC object 1 did: that object.s file is closed and written anew" <<<"$0"' "$out"
  check "... the second object's HISTORY reads its own run (DX 0.02 at 2 m/s)" grep -q "SECOND DX 0.020000" <<<"$out"
  check "... the first object's HISTORY is an error naming the cause" grep -q "FIRST: HISTORY: this SOLFEC object's output file was taken over by a later SOLFEC object" <<<"$out"
  check "... and the file is readable, with the last run's frames" "$PY" -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
sys.exit(0 if len(f["frames"]) > 0 and f["history/time"][-1] > 0.0099 else 1)' "$TMP/out-twosol/twosol.h5"
done

# --- a full disk (a 1 MB tmpfs, where this machine lets us mount one): the run stops on
# every rank with moreau's message naming the frame, the file and the cause, no hang, and
# the file stays readable up to the last complete frame. HDF5's collective flush left ranks
# in a barrier for ever when the write failed on rank 0 only, and Open MPI's OMPIO went on
# after failed writes: moreau checks the room before each frame (twice the last one) and
# chooses ROMIO. A 4 kB one is refused at SOLFEC with the same cause.
mnt="$TMP/full"; mkdir -p "$mnt"
if mount -t tmpfs -o size=1m tmpfs "$mnt" 2>/dev/null; then
  cat >"$TMP/full.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$mnt/out')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
m = BULK_MATERIAL(s)
for i in range(50):
    BODY(s, 'RIGID', SPHERE((0.01 * i, 0, 0.2 + 0.25 * i), 0.1, 1, 1), m)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 100), 1.0)
PY
  for np in 1 3; do
    rm -rf "$mnt/out"
    out=$(timeout 120 $MPIRUN -np $np "$MOREAU" -mb_quiet "$TMP/full.py" 2>&1); rc=$?
    check "a full disk on $np rank(s): the run stops (no hang) with the frame, the file and the cause" bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && grep -qE "cannot write frame [0-9]+ of .*full/out/full.h5: .*no space left on device" <<<"$0"' "$out"
    check "... and the file reads up to its last complete frame" "$PY" -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
sys.exit(0 if len(f["frames"]) >= 1 and "time" in f["frames/000000"].attrs else 1)' "$mnt/out/full.h5"
  done
  umount -l "$mnt" 2>/dev/null # lazily: a killed rank may still hold the file
  mount -t tmpfs -o size=4k tmpfs "$mnt"
  for np in 1 3; do
    out=$(timeout 120 $MPIRUN -np $np "$MOREAU" -mb_quiet "$TMP/full.py" 2>&1); rc=$?
    check "a nearly full disk at the start on $np rank(s): SOLFEC says so, no crash, no hang" bash -c '[ '$rc' -eq 1 ] && grep -q "SOLFEC: cannot write results to .*: cannot write .*full.h5: no space left on device (4 kB free" <<<"$0" && ! grep -qi "segmentation\|signal" <<<"$0"' "$out"
  done
  umount -l "$mnt" 2>/dev/null
else
  echo "ok - a full disk # SKIP this machine does not let the test mount a tmpfs"
fi

# --- sys.exit on one rank only: the job ends (no hang), non-zero, and says which rank left
cat >"$TMP/sysexit.py" <<PY
import sys
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-sysexit')
m = BULK_MATERIAL(s)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
if RANK() == 1:
    sys.exit(3)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.01)
PY
out=$(mpirun_files 120 "$TMP/ranks-307" 2 "$MOREAU" -mb_quiet "$TMP/sysexit.py"); rc=$?
check "sys.exit(3) on rank 1 of 2: the job ends non-zero and says so" bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && grep -q "moreau: the deck called sys.exit(3) on rank 1, not on every rank" <<<"$0"' "$out"
check "... and the job's exit status is the deck's code, 3 (rc=$rc)" test $rc -eq 3
mpirun_files 120 "$TMP/ranks-sysexit3" 3 "$MOREAU" -mb_quiet "$TMP/sysexit.py" >/dev/null; rc=$?
check "sys.exit(3) on rank 1 of 3: the job's exit status is 3 (rc=$rc)" test $rc -eq 3
cat >"$TMP/sysexitall.py" <<PY
import sys
sys.exit(5)
PY
mpirun_files 120 "$TMP/ranks-sysexit5" 3 "$MOREAU" -mb_quiet "$TMP/sysexitall.py" >/dev/null; rc=$?
check "sys.exit(5) on every rank of 3: the job's exit status is 5 (rc=$rc)" test $rc -eq 5

# --- a second process holding the .h5 open (h5py, ParaView): the file is not truncated under
# it (it ended unreadable once that process wrote or closed it); a clear refusal instead
cat >"$TMP/held.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-held')
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.005)
PY
timeout 120 "$MOREAU" -mb_quiet "$TMP/held.py" >/dev/null 2>&1
for mode in a r; do
  "$PY" -c 'import sys, time, h5py; f = h5py.File(sys.argv[1], sys.argv[2]); print("held", flush=True); time.sleep(30)' "$TMP/out-held/held.h5" $mode >"$TMP/holder.out" 2>&1 &
  holder=$!
  for i in $(seq 50); do grep -q held "$TMP/holder.out" && break; sleep 0.1; done
  out=$(mpirun_files 120 "$TMP/ranks-322" 2 "$MOREAU" -mb_quiet "$TMP/held.py"); rc=$?
  kill $holder 2>/dev/null; wait $holder 2>/dev/null
  check "the .h5 held open by another process (h5py, mode '$mode'), 2 ranks: refused with the reason" bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && grep -q "cannot write .*held.h5: another process has it open" <<<"$0"' "$out"
done
check "... and the file it held is intact" "$PY" -c 'import sys, h5py; f = h5py.File(sys.argv[1], "r"); sys.exit(0 if len(f["frames"]) == 6 else 1)' "$TMP/out-held/held.h5"

# --- a run that would write more than 10^4 frames (no OUTPUT: every step) says so once, before
# it starts (issue 20: output was most of such runs); a CALLBACK stops it after a step
cat >"$TMP/manyframes.py" <<PY
s = SOLFEC('DYNAMIC', 1e-5, '$TMP/out-manyframes')
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s))
CALLBACK(s, 1e-5, (), lambda: 0)
RUN(s, None, 1.0)
RUN(s, None, 1.0)
PY
out=$(mpirun_files 120 "$TMP/ranks-337" 2 "$MOREAU" -mb_quiet "$TMP/manyframes.py")
check "a RUN of about 10^5 frames prints one notice suggesting OUTPUT" bash -c '[ "$(grep -c "this RUN writes about 1e+05 frames to .*manyframes.h5 (every step: no OUTPUT interval)" <<<"$0")" = 1 ]' "$out"
