#!/usr/bin/env bash
# READ mode (issue 19; doc/deck-api.md "READ mode"): a deck run again where its results are
# opens them for reading, as Solfec-1.0 does: RUN, OUTPUT and CALLBACK do nothing, SEEK,
# FORWARD, BACKWARD and DURATION move through the stored frames, the bodies (rigid,
# pseudo-rigid, finite-element) take the frames' states, ENERGY and HISTORY read the file;
# `moreau -w` computes anew. Results written on 1 rank are read on 3 and the reverse. Bad
# results are errors naming the file; a deck failing on one rank before a SEEK ends every
# rank. Every run under timeout.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
unset PETSC_OPTIONS # lib.sh's -mb_write: this test wants READ mode
cd "$TMP"

# three bodies of three kinds falling on the ground; in WRITE mode it prints each body's
# final conf and velo (where owned), in READ mode the same after SEEK to the end, and the
# mode, times and energies it sees
cat >"$TMP/kinds.py" <<'PY'
import sys
s = SOLFEC('DYNAMIC', 1e-3, 'out')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -9.81))
SURFACE_MATERIAL(s, friction=0.3)
m = BULK_MATERIAL(s, young=1e6, poisson=0.3, density=1000)
BODY(s, 'OBSTACLE', HEX([-2,-2,-1, 2,-2,-1, 2,2,-1, -2,2,-1, -2,-2,0, 2,-2,0, 2,2,0, -2,2,0], 1, 1, 1, 1, [1]*6), m)
def box(x, z, d=0.1):
    return HEX([x-d,-d,z-d, x+d,-d,z-d, x+d,d,z-d, x-d,d,z-d, x-d,-d,z+d, x+d,-d,z+d, x+d,d,z+d, x-d,d,z+d], 2, 1, 1, 2, [2]*6)
bodies = [BODY(s, 'RIGID', SPHERE((-0.5, 0, 0.3), 0.1, 3, 3), m),
          BODY(s, 'PSEUDO_RIGID', box(0.0, 0.25), m),
          BODY(s, 'FINITE_ELEMENT', box(0.5, 0.2), m)]
bodies[1].scheme = 'DEF_LIM'
bodies[2].scheme = 'DEF_LIM'
calls = [0]
def cb():
    calls[0] += 1
    return 1
CALLBACK(s, 0.05, (), cb)
OUTPUT(s, 0.05)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-8, 500), 0.2)
def state(tag):
    for b in bodies:
        e = ENERGY(s, b)  # collective
        if b.conf is not None:
            print('%s body %d conf %s velo %s energy %s' % (tag, b.id, repr(tuple(b.conf)), repr(tuple(b.velo)), repr(e[:3])))
if s.mode == 'WRITE':
    state('STATE')
    # a body's energies at the frames: the last frame's are ENERGY(s, body)'s at the end
    ok = True
    for b in bodies:
        e = ENERGY(s, b)
        t, k, i, x = HISTORY(s, [(b, 'KINETIC'), (b, 'INTERNAL'), (b, 'EXTERNAL')], 0, 1)
        ok = ok and len(t) == 5 and (k[-1], i[-1], x[-1]) == e[:3] and k[0] == 0.0
    if RANK() == 0:
        print('BODY ENERGIES at frames: %s' % ok)
    if RANK() == 0:
        print('WRITE: time %r, callbacks %d' % (s.time, calls[0]))
else:
    if RANK() == 0:
        print('READ after RUN: time %r, callbacks %d' % (s.time, calls[0]))
    state('INITIAL')
    d = DURATION(s)
    if RANK() == 0:
        print('DURATION %r %r, time %r' % (d[0], d[1], s.time))
    SEEK(s, d[1])
    state('STATE')
    # DISPLACEMENT, VELOCITY, STRESS at the centre (owner only) against HISTORY there
    pv = []
    for b in bodies:
        c = b.center
        h = HISTORY(s, [(b, c, 'DX'), (b, c, 'DY'), (b, c, 'DZ'), (b, c, 'VZ'), (b, c, 'SX'), (b, c, 'MISES')], d[1], d[1])
        d3, v3, s7 = DISPLACEMENT(b, c), VELOCITY(b, c), STRESS(b, c)
        if d3 is not None:
            err = abs(d3[0] - h[1][-1]) + abs(d3[1] - h[2][-1]) + abs(d3[2] - h[3][-1]) + abs(v3[2] - h[4][-1])
            serr = abs(s7[0] - h[5][-1]) + abs(s7[6] - h[6][-1])
            pv.append(len(d3) == 3 and len(s7) == 7 and err < 1e-12 and serr <= 1e-9 * (1 + abs(s7[6])))
    print('POINTVALUES %s' % all(pv))
    e = ENERGY(s)
    t, k = HISTORY(s, [(s, 'KINETIC')], d[1], d[1])
    if RANK() == 0:
        print('SEEK end: time %r; ENERGY kinetic %r, HISTORY %r' % (s.time, e[0], k[-1]))
    SEEK(s, 0.074)
    t1 = s.time
    SEEK(s, 0.076)
    t2 = s.time
    BACKWARD(s, 100)
    t3 = s.time
    FORWARD(s, 2)
    t4 = s.time
    FORWARD(s, 100)
    if RANK() == 0:
        print('SEEK 0.074 -> %.3f, 0.076 -> %.3f, BACKWARD 100 -> %.3f, FORWARD 2 -> %.3f, FORWARD 100 -> %.3f' % (t1, t2, t3, t4, s.time))
    # a per-step item and a per-frame one in one call: one time axis, the frames after t = 0
    t, k, z = HISTORY(s, [(s, 'KINETIC'), (bodies[0], bodies[0].center, 'CZ')], 0, 1)
    ts, ks = HISTORY(s, [(s, 'KINETIC')], 0, 1)
    tf, zf = HISTORY(s, [(bodies[0], bodies[0].center, 'CZ')], 0, 1)
    same = [ks[min(range(len(ts)), key=lambda j: abs(ts[j] - a))] for a in t] == k and zf[1:] == z
    if RANK() == 0:
        print('MIXED %d samples at %s, values as the separate calls: %s' % (len(t), ', '.join('%.2f' % a for a in t), same))
PY

run() { local np=$1; shift; timeout 120 $MPIRUN -np "$np" "$MOREAU" "$@" 2>&1; }
out1=$(run 1 -mb_output_dir w1 kinds.py)
check "WRITE run on 1 rank" grep -q "WRITE: time 0.2" <<<"$out1"
check "... HISTORY's per-body KINETIC, INTERNAL, EXTERNAL at the frames end with ENERGY(solfec, body)" grep -q "BODY ENERGIES at frames: True" <<<"$out1"
read1=$(run 1 -mb_output_dir w1 kinds.py)
check "the same deck again: READ mode, said once" grep -q "moreau: w1/kinds.h5 holds results (5 frames): READ mode, RUN reads instead of computing (moreau -w computes anew over them)" <<<"$read1"
check "... RUN computes nothing, CALLBACK is never called, the time stays 0" grep -q "READ after RUN: time 0.0, callbacks 0" <<<"$read1"
check "... before a SEEK the bodies keep the deck's state (the sphere at z = 0.3, at rest)" grep -qE "INITIAL body 1 conf \(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, -0.5, 0.0, 0.3\) velo \(0.0, 0.0, 0.0, 0.0, 0.0, 0.0\)" <<<"$read1"
check "... DURATION gives the first and last frame times" grep -qE "DURATION 0.0 0.2000000000000001[0-9]*, time 0.0" <<<"$read1"
# the states after SEEK to the end equal those the WRITE run ended with, bit for bit
grep "^STATE" <<<"$out1" | sort >w1.state
grep "^STATE" <<<"$read1" | sort >r1.state
check "... SEEK to the end: the rigid, pseudo-rigid and finite-element bodies' conf and velo are the computed ones, bit for bit" cmp -s w1.state r1.state
check "... DISPLACEMENT, VELOCITY and STRESS at a body's centre agree with HISTORY there (rigid, pseudo-rigid, finite element)" bash -c '! grep -q "POINTVALUES False" <<<"$0" && grep -q "POINTVALUES True" <<<"$0"' "$read1"
check "... ENERGY there is /history's kinetic energy at that time" "$PY" -c '
import re, sys
m = re.search(r"ENERGY kinetic ([^,]+), HISTORY ([^\n]+)", sys.stdin.read())
sys.exit(0 if m and m.group(1) == m.group(2) else 1)' <<<"$read1"
check "... SEEK takes the nearest frame, BACKWARD and FORWARD count frames and stop at the ends" grep -q "SEEK 0.074 -> 0.050, 0.076 -> 0.100, BACKWARD 100 -> 0.000, FORWARD 2 -> 0.100, FORWARD 100 -> 0.200" <<<"$read1"
check "... HISTORY of a per-step and a per-frame item together: one axis (the frames after t = 0), the separate calls' values" grep -q "MIXED 4 samples at 0.05, 0.10, 0.15, 0.20, values as the separate calls: True" <<<"$read1"
read3=$(run 3 -mb_output_dir w1 kinds.py)
grep "^STATE" <<<"$read3" | sort >r3.state
check "results written on 1 rank read on 3: the same states" cmp -s w1.state r3.state
out3=$(run 3 -mb_output_dir w3 kinds.py)
grep "^STATE" <<<"$out3" | sort >w3.state
read31=$(run 1 -mb_output_dir w3 kinds.py)
grep "^STATE" <<<"$read31" | sort >r31.state
check "results written on 3 ranks read on 1: the same states" cmp -s w3.state r31.state
check "... and within 1e-6 of the 1-rank run's" "$PY" -c '
import sys, re
def load(p):
    return [[float(x) for x in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", l.split("conf")[1])] for l in open(p)]
a, b = load(sys.argv[1]), load(sys.argv[2])
sys.exit(0 if len(a) == len(b) == 3 and all(abs(x - y) < 1e-6 for u, v in zip(a, b) for x, y in zip(u, v)) else 1)' w1.state w3.state
again=$(run 1 -w -mb_output_dir w1 kinds.py)
check "moreau -w over existing results computes anew (WRITE mode)" grep -q "WRITE: time 0.2" <<<"$again"

# bad results: an .h5 HDF5 cannot open, one without frames; a deck failing on one rank
echo "not HDF5" >bad.h5
mkdir -p bad && mv bad.h5 bad/kinds.h5
expect_error "results HDF5 cannot open are an error naming them and -w" "results bad/kinds.h5 exist but HDF5 cannot open them .*: run with -w to compute anew over them, or remove them" timeout 60 "$MOREAU" -mb_output_dir bad kinds.py
cat >"$TMP/fail.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out')
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s))
RUN(s, None, 0.01)
if s.mode == 'READ':
    if RANK() == 1:
        raise RuntimeError('rank 1 fails before SEEK')
    SEEK(s, 0.005)
PY
run 1 -mb_output_dir f fail.py >/dev/null
start=$(date +%s)
expect_error "READ mode on 3 ranks, one raising before SEEK: every rank ends (no hang)" "rank 1 fails before SEEK" timeout 60 $MPIRUN -np 3 "$MOREAU" -mb_output_dir f fail.py
check "... within the time limit ($(($(date +%s) - start)) s)" [ $(($(date +%s) - start)) -lt 60 ]

# Solfec-1.0's tests/double-pendulum.py pattern (ported to Python 3 only): a second SOLFEC
# object on the same output path in the same run reopens the first one's results in READ
# mode and post-processes them with HISTORY (Solfec prints ERROR when it stays in WRITE)
cat >"$TMP/dp.py" <<'PY'
from math import sin, cos
PI = 3.14159265358979323846
GEOMETRIC_EPSILON (1E-5)
def run (skip):
  solfec = SOLFEC ('DYNAMIC', 0.001, 'out/tests/double-pendulum')
  solfec.verbose = 'OFF'
  mat = BULK_MATERIAL (solfec)
  SURFACE_MATERIAL (solfec, model = 'SIGNORINI_COULOMB', restitution = 0.1, friction = 0.0)
  GRAVITY (solfec, (0, 0, -9.81))
  x1, z1 = sin (PI/3.0), -cos (PI/3.0)
  a, b = (0, 0, 2.0), (x1, 0, 2.0 + z1)
  bod1 = BODY (solfec, 'RIGID', SPHERE (b, 0.05, 1, 1), mat, label = 'BALL1')
  BODY_CHARS (bod1, 1.0, 1.0, b, (1, 0, 0, 0, 1, 0, 0, 0, 1))
  PUT_RIGID_LINK (bod1, None, b, a)
  BODY (solfec, 'OBSTACLE', HEX ([-0.10, -0.2, 0.0, -0.05, -0.2, 0.0, -0.05, 0.2, 0.0, -0.10, 0.2, 0.0, -0.10, -0.2, 2.0, -0.05, -0.2, 2.0, -0.05, 0.2, 2.0, -0.10, 0.2, 2.0], 1, 1, 1, 0, [0]*6), mat)
  if solfec.mode == 'READ' and not skip: print ('Previous test results exist')
  else: RUN (solfec, GAUSS_SEIDEL_SOLVER (1E-3, 1000, failure = 'EXIT'), 0.5)
  return solfec.mode if not skip else solfec
if run (0) == 'WRITE':
  solfec = run (1)
  if solfec.mode == 'WRITE': print ('ERROR')
  else:
    bod1 = BYLABEL (solfec, 'BODY', 'BALL1')
    th = HISTORY (solfec, [(solfec, 'KINETIC'), (bod1, bod1.center, 'DZ')], 0, 0.5)
    tot = [th[1][i] + bod1.mass * 9.81 * (bod1.center[2] + th[2][i]) for i in range (len (th[0]))]
    print ('READ %d samples, total energy from %.6f to %.6f' % (len (th[0]), tot[0], tot[-1]))
PY
out=$(timeout 120 "$MOREAU" "$TMP/dp.py" 2>&1)
check "Solfec's run-then-reopen pattern: the second SOLFEC object reads the first one's results" grep -q "moreau: SOLFEC object 2 reads .*double-pendulum/dp.h5, which SOLFEC object 1 wrote (READ mode" <<<"$out"
check "... and post-processes them: 500 samples of (solfec, KINETIC) and a point's DZ on one time axis" bash -c 'grep -qE "READ 500 samples, total energy from ([0-9.]+) to" <<<"$0" && ! grep -qx ERROR <<<"$0"' "$out"

# --- solfec.constraints (Solfec-1.0's list of CONSTRAINT objects): a box resting on a table
# (four contacts) and a ball held by FIX_POINT; their normal reactions carry the weights
# (8 kg x 10 and 4.18879 kg x 10), base.R is the spatial force, and READ mode gives the
# frame's constraints, the same on 1 and 3 ranks as the run had
cat >"$TMP/con.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.5)
m = BULK_MATERIAL(s, density=1000)
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 1,-1,-1, 1,1,-1, -1,1,-1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1, 1, 1, [1]*6), m, label='table')
BODY(s, 'RIGID', HEX([0,0,0, 0.2,0,0, 0.2,0.2,0, 0,0.2,0, 0,0,0.2, 0.2,0,0.2, 0.2,0.2,0.2, 0,0.2,0.2], 1, 1, 1, 1, [1]*6), m, label='box')
FIX_POINT(BODY(s, 'RIGID', SPHERE((0.5, 0.5, 0.5), 0.1, 1, 1), m, label='ball'), (0.5, 0.5, 0.5))
OUTPUT(s, 0.01)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.05)
SEEK(s, 0.05)
import sys
rows = []
for c in s.constraints:
    f = [sum(c.base[3 * j + k] * c.R[j] for j in range(3)) for k in range(3)]
    adj = c.adjbod.label if not isinstance(c.adjbod, tuple) else c.adjbod[0].label + '-' + c.adjbod[1].label
    rows.append('CON %s %s z %.4f Rn %.6f fz %.6f\n' % (c.kind, adj, c.point[2] + 0.0, c.R[2], f[2]))
# each rank's rows to a file of its own (ranks' stdout lines may come late or merged); in READ
# mode every rank holds the frame's, rank 0 writes them
if s.mode == 'WRITE' or RANK() == 0:
    open('%s.%d' % (sys.argv[1], RANK()), 'w').write(''.join(rows))
if RANK() == 0: print('mode', s.mode)
PY
timeout 120 $MPIRUN -np 3 "$MOREAU" -w "$TMP/con.py" "$TMP/conw3" >"$TMP/con-w3.txt" 2>&1
w3=$(cat "$TMP"/conw3.* 2>/dev/null | sort)
echo "$w3" | sed 's/^/# 3 ranks, WRITE: /'
check "solfec.constraints after a run on 3 ranks: 4 contacts box-table and a FIXPNT on the ball" \
  test "$(grep -c '^CON CONTACT box-table' <<<"$w3")" = 4 -a "$(grep -c '^CON FIXPNT ball' <<<"$w3")" = 1
check "... whose normal reactions carry the weights (80 N on the contacts, 41.8879 N on the ball) and base.R is the force" awk '
  $2 == "CONTACT" { sum += $7; if ($7 - $9 > 1e-9 || $9 - $7 > 1e-9) bad = 1 }
  $2 == "FIXPNT" { ball = $9 }
  END { exit !(!bad && sum > 79.9999 && sum < 80.0001 && (ball > 41.8878 && ball < 41.888 || -ball > 41.8878 && -ball < 41.888)) }' <<<"$w3"
for np in 1 3; do
  r=$(timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/con.py" "$TMP/conr$np" 2>&1)
  check "READ mode on $np rank(s): the frame's constraints, the same as the run's" bash -c 'grep -qx "mode READ" <<<"$0" && [ "$(sort "$2")" = "$1" ]' "$r" "$w3" "$TMP/conr$np.0"
done
