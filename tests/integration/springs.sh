#!/usr/bin/env bash
# PUT_SPRING's limits are hard stops, as in Solfec-1.0 (doc/deck-api.md, PUT_SPRING): with a
# RIG_* scheme the stroke never passes a limit; the stop is frictionless and perfectly
# plastic (restitution 0), so the kinetic energy of the approach goes into the CONTACT work.
# moreau's active=(min, max) keeps the old meaning (the force is off outside the range).
# Analytic checks on one rank, the same motion on 1 and 3 ranks, and the errors.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# --- a ball of mass 1 hangs on a spring k = 100 fixed 1 m above it, at rest length; gravity
# 10 pulls it down. Free, it would swing to stroke 2mg/k = 0.2; the upper limit 0.1 stops it
# there for good (mg = 10 > k 0.1 holds it on the stop). Impact speed v² = 2 g 0.1 − k 0.1²/m
# = 1: the stop takes ½ m v² = 0.5 J (CONTACT work −0.5), the spring holds ½ k 0.1² = 0.5 J
# (INTERNAL), gravity did m g 0.1 = 1 J (EXTERNAL).
cat >"$TMP/hang.py" <<'PY'
import sys
scheme, limits = sys.argv[1], (None if sys.argv[2] == 'none' else (-0.1, 0.1))
s = SOLFEC('DYNAMIC', 1e-3, sys.argv[3])
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
m = BULK_MATERIAL(s, density=1.0)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
BODY_CHARS(b, 1.0, 1.0, (0, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
b.scheme = scheme
PUT_SPRING(b, (0, 0, 0), None, (0, 0, 1), spring=100.0, limits=limits)
zs = []
CALLBACK(s, 1e-9, None, lambda d: zs.append(b.conf[11]) or None)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 100), 1.0)
K, I, X, C, F = ENERGY(s)
over = max(-z for z in zs) - 0.1  # the stroke is -z
kinds = [c.kind for c in s.constraints]  # the stop holding the ball, as Solfec's SPRING
print('HANG %s overshoot %.3e z_end %.12f v_end %.2e kinetic %.2e internal %.9f external %.9f contact %.9f constraints %s'
      % (scheme, over, zs[-1], b.velo[5], K, I, X, C, kinds))
ok = (over < 1e-9 and abs(zs[-1] + 0.1) < 1e-9 and abs(b.velo[5]) < 1e-9 and K < 1e-12
      and abs(I - 0.5) < 1e-9 and abs(X - 1.0) < 1e-9 and abs(C + 0.5) < 1e-9 and kinds == ['SPRING'])
print('PASSED' if ok else 'FAILED')
PY
for sc in RIG_NEG RIG_POS RIG_IMP; do
  out=$(timeout 120 "$MOREAU" "$TMP/hang.py" $sc stop "$TMP/hang-$sc" 2>&1); rc=$?
  echo "$out" | grep -E '^HANG|rror' | sed 's/^/# /'
  check "hanging ball, limit 0.1 ($sc): the stroke stops at the limit (overshoot < 1e-9), rests there (one SPRING constraint); contact work -0.5 J = -m v^2/2 of the impact, internal 0.5, external 1" bash -c '[ '$rc' -eq 0 ] && grep -qx PASSED <<<"$0"' "$out"
done
out=$(timeout 120 "$MOREAU" "$TMP/hang.py" RIG_NEG none "$TMP/hang-free" 2>&1)
echo "$out" | grep '^HANG' | sed 's/^/# without limits: /'
check "the same ball without limits passes stroke 0.1 (the check discriminates)" grep -qx FAILED <<<"$out"

# --- no gravity: the ball leaves the rest length at 2 m/s along the spring (k = 100, m = 1,
# ω = 10); free, its amplitude would be 0.2. It meets the upper limit 0.1 at v² = 4 − ω² 0.1²
# = 3 and stops (1.5 J to the stop); the spring then pulls it back and it swings with
# amplitude 0.1 exactly: it reaches the lower limit at rest, energy ½ k 0.1² = 0.5 J.
cat >"$TMP/swing.py" <<'PY'
import sys
s = SOLFEC('DYNAMIC', 1e-3, sys.argv[1])
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1.0)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
BODY_CHARS(b, 1.0, 1.0, (0, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
b.scheme = sys.argv[2]
INITIAL_VELOCITY(b, (0, 0, -2), (0, 0, 0))
PUT_SPRING(b, (0, 0, 0), None, (0, 0, 1), spring=100.0, limits=(-0.1, 0.1))
st = []
CALLBACK(s, 1e-9, None, lambda d: st.append(-b.conf[11]) or None)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 100), 1.5)
K, I, X, C, F = ENERGY(s)
print('SWING max %.9f min %.9f contact %.6f K+I %.6f' % (max(st), min(st), C, K + I))
ok = (max(st) < 0.1 + 1e-9 and -0.1 - 1e-9 < min(st) < -0.099 and abs(C + 1.5) < 5e-3
      and abs(K + I - 0.5) < 5e-3)
print('PASSED' if ok else 'FAILED')
PY
for sc in RIG_NEG RIG_IMP; do
  out=$(timeout 120 "$MOREAU" "$TMP/swing.py" "$TMP/swing-$sc" $sc 2>&1); rc=$?
  echo "$out" | grep -E '^SWING|rror' | sed "s/^/# $sc: /"
  check "ball thrown against the limit ($sc): stops at 0.1, loses m v^2/2 = 1.5 J there, then swings with amplitude 0.1 (energy 0.5 J)" bash -c '[ '$rc' -eq 0 ] && grep -qx PASSED <<<"$0"' "$out"
done

# --- three balls in a row joined by two springs with limits (±0.05), the last one pulled by
# a force: the pull stretches the springs to their stops and drags the chain. One body per
# rank on 3 ranks (-mb_balance none): the same motion as on one rank, the strokes at their
# upper limit and not past it.
cat >"$TMP/chain.py" <<'PY'
import sys
s = SOLFEC('DYNAMIC', 1e-3, sys.argv[1])
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1.0)
bs = []
for i in range(3):
    b = BODY(s, 'RIGID', SPHERE((i, 0, 0), 0.1, 1, 1), m)
    BODY_CHARS(b, 1.0, 1.0, (i, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
    b.scheme = 'RIG_NEG'
    bs.append(b)
for i in range(2):
    PUT_SPRING(bs[i + 1], (i + 1, 0, 0), bs[i], (i, 0, 0), spring=50.0, dashpot=0.1, limits=(-0.05, 0.05))
FORCE(bs[2], 'SPATIAL', (2, 0, 0), (1, 0, 0), 20.0)
slv = GAUSS_SEIDEL_SOLVER(1e-12, 1000)
RUN(s, slv, 0.12)  # the chain still stretching: the stop of the second spring only
x = [BODY_STATE(b)[0][9] for b in bs]  # collective: every rank knows every position
if RANK() == 0:
    print('CHAIN 0.12 ' + ' '.join('%.8f' % v for v in x))
RUN(s, slv, 0.48)
x = [BODY_STATE(b)[0][9] for b in bs]
if RANK() == 0:
    print('CHAIN 0.6 ' + ' '.join('%.8f' % v for v in x))
    st = [x[1] - x[0] - 1, x[2] - x[1] - 1]
    print('STROKES %.3e %.3e' % (st[0] - 0.05, st[1] - 0.05))
    print('PASSED' if max(st) < 0.05 + 1e-9 and min(st) > 0.05 - 1e-6 else 'FAILED')
PY
o1=$(timeout 120 "$MOREAU" "$TMP/chain.py" "$TMP/chain1" 2>&1)
o3=$(mpirun_files 300 "$TMP/ranks-110" 3 "$MOREAU" -mb_balance none "$TMP/chain.py" "$TMP/chain3")
echo "$o1" | grep -E '^(CHAIN|STROKES)|rror' | sed 's/^/# 1 rank: /'
echo "$o3" | grep -E '^(CHAIN|STROKES)|rror' | sed 's/^/# 3 ranks: /'
check "chain pulled by a force: both springs at their upper limit 0.05 and not past it (1e-9)" grep -qx PASSED <<<"$o1"
c1=$(grep '^CHAIN' <<<"$o1") c3=$(grep '^CHAIN' <<<"$o3")
[ "$(wc -l <<<"$c1")" = 2 ] || c1=
check "chain with stops, one body per rank: the same positions on 1 and 3 ranks (8 digits)" test -n "$c1" -a "$c1" = "$c3"

# --- active=(min, max), moreau's keyword, keeps the old meaning with every scheme: the
# force is off outside the range (the unilateral ground springs of schemes.sh and
# cases/lages_dolly.py); a ball on such a spring is not held by it
cat >"$TMP/active.py" <<'PY'
import sys
s = SOLFEC('DYNAMIC', 1e-3, sys.argv[1])
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
m = BULK_MATERIAL(s, density=1.0)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
BODY_CHARS(b, 1.0, 1.0, (0, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
b.scheme = sys.argv[2]
PUT_SPRING(b, (0, 0, 0), None, (0, 0, 1), spring=100.0, active=(-1e99, 0))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 100), 0.3)
z = BODY_STATE(b)[0][11]
print('ACTIVE z %.9f free fall %.9f' % (z, -0.5 * 10 * 0.3 ** 2))
print('PASSED' if abs(z + 0.45) < 2e-3 else 'FAILED')
PY
for sc in RIG_NEG CDM; do
  out=$(timeout 120 "$MOREAU" "$TMP/active.py" "$TMP/active-$sc" $sc 2>&1)
  echo "$out" | grep -E '^ACTIVE|rror' | sed "s/^/# $sc: /"
  check "active=(-1e99, 0) with $sc: a spring that pulls is off, the ball falls freely" grep -qx PASSED <<<"$out"
done

# --- errors
HEAD="s = SOLFEC('DYNAMIC', 1e-3, '$TMP/err')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1.0)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)"
printf '%s\nb.scheme = "CDM"\nPUT_SPRING(b, (0, 0, 0), None, (0, 0, 1), spring=1.0, limits=(-0.1, 0.1))\nRUN(s, None, 0.01)\n' "$HEAD" >"$TMP/cdm.py"
expect_error "limits with a force scheme (CDM): the error says they are hard stops that need a RIG_* scheme" \
  "scheme CDM \(body 0\) cannot take PUT_SPRING 0 \(bodies 0 and -1\) with limits \(-0.1, 0.1\): limits are hard stops \(as in Solfec-1.0\), solved by the constraint solver, so they need a RIG_\* scheme" \
  "$MOREAU" "$TMP/cdm.py"
for p in "active=(1, 0):PUT_SPRING: active must satisfy min <= max, got \(1, 0\)" \
         "active=(0, 'a'):PUT_SPRING: active must be two numbers \(min, max\), got \(0, 'a'\)" \
         "active=5:PUT_SPRING: active must be \(min, max\), got 5" \
         "limits=(0.1, -0.1):PUT_SPRING: limits must satisfy min <= max, got \(0.1, -0.1\)"; do
  kw=${p%%:*} msg=${p#*:}
  printf '%s\nPUT_SPRING(b, (0, 0, 0), None, (0, 0, 1), spring=1.0, %s)\n' "$HEAD" "$kw" >"$TMP/bad.py"
  expect_error "PUT_SPRING $kw" "$msg" "$MOREAU" "$TMP/bad.py"
done
