#!/usr/bin/env bash
# CALLBACKs that read a body's state on 1, 2 and 3 ranks (issue 20): a parallel-safe deck
# finishes with the same results on every rank count; a Solfec-style deck whose callback
# indexes body.velo (None where the body is not owned) and then calls ENERGY ends every
# rank with its TypeError instead of MPI_ERR_TRUNCATE and a hang (Solfec-1.0's
# tests/math-pendulum did that on 2 ranks); a collective call made on some ranks only is
# an error naming the calls. Every multi-rank run is under timeout: a hang is a failure.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# A mathematical pendulum (length 1, g = pi^2, released horizontally: period
# 4 K(1/sqrt 2)/pi = 2.36068 s). Body 0 is a far obstacle, so the pendulum (body 1) is not
# owned by rank 0 on 2 and 3 ranks. The callback calls ENERGY on every rank (collective),
# then reads conf and velo where the body is owned; the owner counts the sign changes of
# the vertical velocity and returns 0 after a period (the other ranks return 1: any 0
# stops every rank).
cat >"$TMP/state.py" <<'PY'
import sys
def say(*a):  # one write per line: lines of several ranks must not interleave
    sys.stdout.write(' '.join(str(x) for x in a) + '\n')
    sys.stdout.flush()
g = 3.14159265358979323846 ** 2
s = SOLFEC('DYNAMIC', 2e-3, sys.argv[1])
s.verbose = 'OFF'
m = BULK_MATERIAL(s)
GRAVITY(s, (0, 0, -g))
BODY(s, 'OBSTACLE', SPHERE((9, 9, 9), 0.1, 1, 1), m)
b = BODY(s, 'RIGID', SPHERE((1, 0, 1), 0.05, 1, 1), m)
BODY_CHARS(b, 1.0, 1.0, (1, 0, 1), (1, 0, 0, 0, 1, 0, 0, 0, 1))
PUT_RIGID_LINK(b, None, (1, 0, 1), (0, 0, 1))
OUTPUT(s, 1.0)
w = {'calls': 0, 'prev': 0.0, 'turns': 0, 'drift': 0.0, 'period': None}
def watch(sol, bod):
    kin = ENERGY(sol, bod)[0]  # collective: every rank, owner or not
    w['calls'] += 1
    q, u = bod.conf, bod.velo  # None where bod is not owned
    if u is None:
        return 1
    w['drift'] = max(w['drift'], abs(kin + bod.mass * g * (q[11] - 1)))
    if u[5] * w['prev'] < 0:
        w['turns'] += 1
    if u[5] != 0:
        w['prev'] = u[5]
    if w['turns'] == 4:
        w['period'] = sol.time
        return 0
    return 1
CALLBACK(s, 2e-3, (s, b), watch)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-8, 1000), 3.0)
say('RANK %d t %.6f calls %d' % (RANK(), s.time, w['calls']))
if HERE(s, b):
    say('PERIOD %.6f' % w['period'])
    say('DRIFT %.3e' % w['drift'])
    say('STATE ' + ' '.join('%.10e' % x for x in b.conf + b.velo))
PY
for np in 1 2 3; do
  out=$(timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/state.py" "$TMP/state$np" 2>&1); rc=$?
  echo "$out" >"$TMP/state$np.txt"
  n=$(grep -c "^RANK [0-9] t " <<<"$out")
  check "a CALLBACK reading conf and velo on $np rank(s) finishes (exit $rc, every rank stopped at the same time after as many calls)" \
    bash -c '[ '$rc' -eq 0 ] && [ '$n' -eq '$np' ] && [ $(grep "^RANK [0-9] t " <<<"$0" | cut -d" " -f3- | sort -u | wc -l) -eq 1 ]' "$out"
  [ $rc -eq 0 ] || { [ $rc -eq 124 ] && echo "# hung: killed by timeout"; echo "$out" | grep -v "PETSC ERROR: Configure" | tail -n 12 | sed 's/^/# /'; }
done
check "... the owner measured the period (2.36068 s within a step) and kept its energy to 1e-4 of m g L" "$PY" -c '
import sys
d = dict(l.split(None, 1) for l in open(sys.argv[1]) if l.split(None, 1)[0] in ("PERIOD", "DRIFT"))
sys.exit(0 if abs(float(d["PERIOD"]) - 2.36068) <= 2e-3 and float(d["DRIFT"]) < 1e-3 else 1)' "$TMP/state1.txt"
for np in 2 3; do
  check "... the same period, stop time, calls and final state on $np ranks as on 1 (1e-10)" "$PY" -c '
import sys
def lines(f):
    r = {}
    for l in open(f):
        k = l.split()
        if k and k[0] in ("PERIOD", "STATE"): r[k[0]] = [float(x) for x in k[1:]]
        if k and k[0] == "RANK": r["STOP"] = k[2:]
    return r
a, b = lines(sys.argv[1]), lines(sys.argv[2])
ok = sorted(a) == ["PERIOD", "STATE", "STOP"] and sorted(b) == sorted(a) and a["STOP"] == b["STOP"]
ok = ok and all(abs(x - y) <= 1e-10 * max(1.0, abs(x)) for k in ("PERIOD", "STATE") for x, y in zip(a[k], b[k]))
sys.exit(0 if ok else 1)' "$TMP/state1.txt" "$TMP/state$np.txt"
done

# Solfec-style: the callback indexes velo before its ENERGY call. Off the owner velo is None
# (as in Solfec), so the callback raises there while the owner's goes into ENERGY: this
# paired two different collectives (MPI_ERR_TRUNCATE, then a hang).
cat >"$TMP/solfec.py" <<'PY'
g = 3.14159265358979323846 ** 2
s = SOLFEC('DYNAMIC', 1e-3, 'out/solfec')
m = BULK_MATERIAL(s)
GRAVITY(s, (0, 0, -g))
b = BODY(s, 'RIGID', SPHERE((1, 0, 1), 0.05, 0, 0), m)
BODY_CHARS(b, 1.0, 1.0, (1, 0, 1), (1, 0, 0, 0, 1, 0, 0, 0, 1))
PUT_RIGID_LINK(b, None, (1, 0, 1), (0, 0, 1))
previous = 0.0
def swing(sol, bod):
  global previous
  if bod.velo[5] * previous < 0: return 0
  previous = bod.velo[5]
  kin = ENERGY(sol, bod)[0]
  pot = bod.mass * g * bod.conf[11]
  return 1
CALLBACK(s, 1e-3, (s, b), swing)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-3, 1000), 0.05)
print('NOT REACHED')
PY
for np in 2 3; do
  out=$(timeout 60 $MPIRUN -np $np "$MOREAU" -mb_quiet "$TMP/solfec.py" 2>&1); rc=$?
  n=$(grep -c "the deck failed on rank [12]:" <<<"$out")
  check "a Solfec-style CALLBACK indexing velo off the owner on $np ranks: every rank ends (exit $rc), TypeError at its line from each of the $((np - 1)) other rank(s)" \
    bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && [ '$n' -eq '$((np - 1))' ] && grep -qE "File \".*solfec\.py\", line 11, in swing" <<<"$0" && grep -q "TypeError" <<<"$0" && ! grep -q "MPI_ERR\|NOT REACHED" <<<"$0"' "$out"
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $n -eq $((np - 1)) ] || { [ $rc -eq 124 ] && echo "# hung: killed by timeout"; echo "$out" | grep -v "PETSC ERROR: Configure" | tail -n 12 | sed 's/^/# /'; }
done

# A collective call on some ranks only: in a CALLBACK, and at the end of a deck
cat >"$TMP/someenergy.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-some')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
def cb(sol, bod):
    if HERE(sol, bod):
        ENERGY(sol, bod)
    return 1
CALLBACK(s, 1e-3, (s, b), cb)
RUN(s, None, 0.01)
print('NOT REACHED')
PY
out=$(mpirun_files 60 "$TMP/ranks-131" 2 "$MOREAU" "$TMP/someenergy.py"); rc=$?
check "ENERGY in a CALLBACK on the owner only (2 ranks): an error naming both calls, no hang (exit $rc)" \
  bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && grep -q "the ranks reached different collective calls (1 rank at the end of a CALLBACK call, 1 rank at ENERGY)" <<<"$0" && grep -qE "File \".*someenergy\.py\", line 7, in cb" <<<"$0" && ! grep -q "MPI_ERR\|NOT REACHED" <<<"$0"' "$out"
[ $rc -ne 0 ] && [ $rc -ne 124 ] || echo "$out" | grep -v "PETSC ERROR: Configure" | tail -n 12 | sed 's/^/# /'
cat >"$TMP/rank0energy.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-rank0')
s.verbose = 'OFF'
BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(s))
RUN(s, None, 0.002)
if RANK() == 0:
    print(ENERGY(s))
PY
out=$(mpirun_files 60 "$TMP/ranks-143" 3 "$MOREAU" "$TMP/rank0energy.py"); rc=$?
check "ENERGY on rank 0 only at the end of a deck (3 ranks): an error naming both calls, no hang (exit $rc)" \
  bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && grep -q "ENERGY: the ranks reached different collective calls (2 ranks at the end of the deck, 1 rank at ENERGY)" <<<"$0" && grep -qE "File \".*rank0energy\.py\", line 6" <<<"$0" && ! grep -q "MPI_ERR" <<<"$0"' "$out"
[ $rc -ne 0 ] && [ $rc -ne 124 ] || echo "$out" | grep -v "PETSC ERROR: Configure" | tail -n 12 | sed 's/^/# /'

# --- Solfec-1.0's timing (its sol.c): RUN steps while t < t0 + duration, so 1 s at h = 3e-4
# (3333.3 steps) takes 3334; a CALLBACK of interval dt is first called after the first step
# that reaches t0 + dt (t = 0.0102 here, step 34), never at the start; an interval of h
# after every step. On 1 and 2 ranks.
cat >"$TMP/timing.py" <<PY
s = SOLFEC('DYNAMIC', 3e-4, '$TMP/out-timing')
s.verbose = 'OFF'
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(s))
calls, every = [], [0]
def cb(s):
    calls.append(s.time)
    return 1
def each(s):
    every[0] += 1
    return 1
CALLBACK(s, 0.01, (s,), cb)
CALLBACK(s, 3e-4, (s,), each)
RUN(s, None, 1.0)
if RANK() == 0:
    print('TIMING first %.6f calls %d every %d' % (calls[0], len(calls), every[0]))
PY
for np in 1 2; do
  out=$(timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/timing.py" 2>&1); rc=$?
  check "RUN 1 s at h = 3e-4 takes Solfec's 3334 steps ($np rank(s))" grep -q "moreau: 3334 steps to t = 1.0002" <<<"$out"
  check "... the CALLBACK of 0.01 s is first called at t = 0.0102 (after step 34), 100 times; the one of interval h after each of the 3334 steps" grep -q "TIMING first 0.010200 calls 100 every 3334" <<<"$out"
done

# BODY_STATE: a body's conf and velo on every rank (collective), where body.conf is None on
# the ranks that do not own it; the same numbers on each rank, those of the owner
cat >"$TMP/bstate.py" <<'PY'
import sys
s = SOLFEC('DYNAMIC', 1e-3, sys.argv[1])
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -9.81))
BODY(s, 'OBSTACLE', SPHERE((9, 9, 9), 0.1, 1, 1), BULK_MATERIAL(s))
b = BODY(s, 'RIGID', SPHERE((0, 0, 1), 0.1, 1, 1), BULK_MATERIAL(s))
RUN(s, None, 0.01)
q, u = BODY_STATE(b)
sys.stdout.write('BSTATE %s %s owned %s\n' % (repr(q[9:]), repr(u[3:]), b.conf is not None))
PY
out=$(mpirun_files 120 "$TMP/ranks-188" 3 "$MOREAU" "$TMP/bstate.py" "$TMP/bstate")
check "BODY_STATE on 3 ranks: every rank has the owner's state (one owner, three equal lines)" bash -c '[ $(grep -c "^BSTATE (0.0, 0.0, 0.999509" <<<"$0") -eq 3 ] && [ $(grep -c "owned True" <<<"$0") -eq 1 ] && [ $(grep "^BSTATE" <<<"$0" | cut -d" " -f2-7 | sort -u | wc -l) -eq 1 ]' "$out"
