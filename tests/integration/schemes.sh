#!/usr/bin/env bash
# The force schemes (EULER_EXP, EULER_IMP, GALPHA, CDM, EGALPHA, CHUNG_LEE) and the RIG_*
# schemes on an undamped linear oscillator (cases/spring_oscillator.py): measured order of
# accuracy against theory (±0.3), the implicit ones stable at 10× the explicit critical
# step 2/ω, step rejection of a failed Newton; springs (linear, callback, unilateral,
# energy), penalty contact with the force schemes on 1 and 2 ranks; bad input by message.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
CASES="$MB_ROOT/cases"
cd "$TMP"

# osc MODE SCHEME [ARGS...]: cases/spring_oscillator.py prints PASSED
osc() {
  local out rc
  out=$(timeout 120 "$MOREAU" -mb_output_dir "$TMP/osc" "$CASES/spring_oscillator.py" "$@" 2>&1); rc=$?
  echo "$out" | grep '^RESULT' | sed 's/^/# /'
  check "oscillator $*: PASSED" bash -c '[ '$rc' -eq 0 ] && grep -qx PASSED <<<"$0"' "$out"
  [ $rc -eq 0 ] || echo "$out" | tail -n 6 | sed 's/^/# /'
}

# --- order of accuracy (EULER_* 1, the others 2)
for s in EULER_EXP EULER_IMP GALPHA CDM EGALPHA CHUNG_LEE RIG_POS RIG_NEG RIG_IMP; do osc order "$s"; done
osc order GALPHA rho_inf=0.0
osc order EGALPHA rho_b=1.0
osc order CHUNG_LEE beta=1.037

# --- implicit schemes at 10x (and 100x) the explicit critical step: energy never grows
osc stable EULER_IMP 10
osc stable GALPHA 10
osc stable GALPHA 10 rho_inf=1.0
osc stable GALPHA 10 rho_inf=0.0
osc stable GALPHA 100
# (-mb_blowup_factor 0: the case's own check is the one tested, not the run's blow-up stop)
out=$("$MOREAU" -mb_blowup_factor 0 -mb_output_dir "$TMP/osc" "$CASES/spring_oscillator.py" stable CDM 1.05 2>&1)
echo "$out" | grep '^RESULT' | sed 's/^/# /'
check "the check discriminates: CDM just above 2/omega blows up (FAILED, energy > 1e6 x)" bash -c 'grep -qx FAILED <<<"$0" && awk "/^RESULT/ { exit !(\$12 > 1e6) }" <<<"$0"' "$out"
out=$("$MOREAU" -mb_output_dir "$TMP/osc" "$CASES/spring_oscillator.py" stable CDM 1.05 2>&1)
check "... and by default the run stops itself within 20 steps: energy made from nothing (blowup.c)" bash -c 'n=$(grep -oE "blown up at step [0-9]+" <<<"$0" | grep -oE "[0-9]+$"); [ "${n:-99}" -le 20 ]' "$out"

# --- step rejection: a Newton capped at 3 iterations on a stiff cubic spring fails; the
#     step is redone as two halves and the run goes on
cat >"$TMP/cubic.py" <<PY
s = SOLFEC('DYNAMIC', 0.05, '$TMP/cubic')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1.0)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
BODY_CHARS(b, 1.0, 1.0, (0, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
PUT_SPRING(b, (0, 0, 0), None, (-1, 0, 0), lambda s, v: -1e6 * s ** 3, direction=(1, 0, 0))
INITIAL_VELOCITY(b, (1, 0, 0), (0, 0, 0))
b.scheme = 'EULER_IMP'
RUN(s, PENALTY_SOLVER(), 1.0)
E = ENERGY(s)
print('ENERGY %.6g' % (E[0] + E[1]))
PY
out=$("$MOREAU" -mb_scheme_max_it 3 "$TMP/cubic.py" 2>&1); rc=$?
echo "$out" | grep -E '^ENERGY|Newton' | sed 's/^/# /'
check "EULER_IMP: failed Newtons are redone as half steps and the run completes with energy <= initial" bash -c '[ '$rc' -eq 0 ] && grep -qE "non-converged steps [1-9]" <<<"$0" && awk "/^ENERGY/ { exit !(\$2 > 0 && \$2 <= 0.5) }" <<<"$0"' "$out"
expect_error "EULER_IMP with -mb_scheme_error_if_not_converged stops at the first failed Newton" "EULER_IMP: Newton did not converge \(DIVERGED_MAX_IT after 3 iterations\) at t = " "$MOREAU" -mb_scheme_max_it 3 -mb_scheme_error_if_not_converged "$TMP/cubic.py"

# --- springs
cat >"$TMP/bounce.py" <<PY
# a ball falls 0.5 m onto a spring that only pushes (active=(-inf, 0]): it bounces back to
# its start; a spring that also pulled would hold it near z = 0.5
import sys, math
s = SOLFEC('DYNAMIC', 2e-4, '$TMP/bounce')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
m = BULK_MATERIAL(s, density=1.0)
b = BODY(s, 'RIGID', SPHERE((0, 0, 1), 0.1, 1, 1), m)
BODY_CHARS(b, 1.0, 1.0, (0, 0, 1), (1, 0, 0, 0, 1, 0, 0, 0, 1))
k = 1e4
PUT_SPRING(b, (0, 0, 1), None, (0, 0, 0), spring=k, rest=0.5, active=(-1e99, 0), direction=(0, 0, 1))
b.scheme = sys.argv[1]
OUTPUT(s, 2e-3)
RUN(s, PENALTY_SOLVER(), 0.8)
t, z = HISTORY(s, [(b, (0, 0, 1), 'CZ')])
E = ENERGY(s)
d = (10 + math.sqrt(100 + 4 * (k / 2) * 5)) / k  # m g (0.5 + d) = k d^2 / 2
print('BOUNCE zmin %.6f (exact %.6f) zmax after %.6f energy balance %.2e' % (min(z), 0.5 - d, max(z[len(z) // 2:]), E[0] + E[1] - E[2]))
ok = abs(min(z) - (0.5 - d)) < 2e-3 and abs(max(z[len(z) // 2:]) - 1.0) < 2e-3 and abs(E[0] + E[1] - E[2]) < 1e-2
print('PASSED' if ok else 'FAILED')
PY
for s in CDM EGALPHA CHUNG_LEE GALPHA RIG_NEG; do
  out=$("$MOREAU" "$TMP/bounce.py" $s 2>&1); rc=$?
  echo "$out" | grep '^BOUNCE' | sed "s/^/# $s: /"
  check "unilateral spring (active=(-1e99, 0)) with $s: the ball bounces back to its height; K + spring energy = work of gravity" bash -c '[ '$rc' -eq 0 ] && grep -qx PASSED <<<"$0"' "$out"
done

cat >"$TMP/pair.py" <<PY
# two bodies joined by a damped spring, one pulled by a constant force; on any number of
# ranks the same motion (body 0 on rank 0, body 1 on rank 1)
import sys
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/pair')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, density=1.0)
a = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
b = BODY(s, 'RIGID', SPHERE((1, 0.2, 0), 0.1, 1, 1), m)
if len(sys.argv) > 2:
    PUT_SPRING(a, (0, 0, 0.05), b, (1, 0.2, 0), lambda s, v: -300 * s - 0.5 * v)
else:
    PUT_SPRING(a, (0, 0, 0.05), b, (1, 0.2, 0), spring=300, dashpot=0.5)
FORCE(b, 'SPATIAL', (1, 0.2, 0), (1, 0.5, 0), 2.0)
a.scheme = b.scheme = sys.argv[1]
RUN(s, PENALTY_SOLVER(), 0.05)
for x in (a, b):
    if HERE(s, x):  # one write per line: the lines of two ranks must not interleave
        sys.stdout.write('BODY %d %.8f %.8f %.8f\n' % ((x.id,) + tuple(x.conf[9:12])))
        sys.stdout.flush()
PY
for s in CDM GALPHA RIG_NEG; do
  o1=$("$MOREAU" "$TMP/pair.py" $s 2>&1 | grep '^BODY' | sort)
  o3=$("$MOREAU" "$TMP/pair.py" $s callback 2>&1 | grep '^BODY' | sort)
  echo "$o1" | sed "s/^/# $s 1 rank: /"
  check "spring as a callback of (stroke, velocity) = the linear spring and dashpot ($s)" test -n "$o1" -a "$o1" = "$o3"
  [ $s = RIG_NEG ] && continue
  # -mb_balance none keeps body 0 on rank 0 and body 1 on rank 1 (METIS would join them)
  o2=$(timeout 120 $MPIRUN -np 2 "$MOREAU" -mb_balance none "$TMP/pair.py" $s 2>&1 | grep '^BODY' | sort)
  check "spring between bodies on two ranks ($s): the same motion on 1 and 2 ranks (8 digits)" test -n "$o1" -a "$o1" = "$o2"
done

# --- penalty contact with the force schemes (cases/penalty_ball.py: settles at m g / k)
for s in CDM EGALPHA CHUNG_LEE GALPHA; do
  out=$(timeout 120 "$MOREAU" -mb_scheme $s -mb_output_dir "$TMP/pb" "$CASES/penalty_ball.py" 2>&1)
  check "penalty_ball with -mb_scheme $s prints PASSED" grep -qx PASSED <<<"$out"
done

# --- the contact model is a registered part: -mb_contact_model spring_dashpot makes a
# Gauss-Seidel deck's contacts the penalty forces of PENALTY_SOLVER (the same /history);
# without it the ball rests on the Signorini contact at zero gap and the check fails
sed 's/PENALTY_SOLVER()/GAUSS_SEIDEL_SOLVER(1e-6, 100)/' "$CASES/penalty_ball.py" >"$TMP/pb_gs.py"
timeout 120 "$MOREAU" -mb_output_dir "$TMP/pbm" -mb_contact_model spring_dashpot "$TMP/pb_gs.py" >"$TMP/pb_gs.txt" 2>&1
check "GAUSS_SEIDEL_SOLVER with -mb_contact_model spring_dashpot: penalty_ball prints PASSED" grep -qx PASSED "$TMP/pb_gs.txt"
timeout 120 "$MOREAU" -mb_output_dir "$TMP/pbr" "$TMP/pb_gs.py" >"$TMP/pb_rows.txt" 2>&1
check "the same deck with rows for the solver does not (the check discriminates)" grep -qx FAILED "$TMP/pb_rows.txt"
timeout 120 "$MOREAU" -mb_output_dir "$TMP/pbp" "$CASES/penalty_ball.py" >/dev/null 2>&1
check "-mb_contact_model spring_dashpot and PENALTY_SOLVER write the same /history" "$PY" -c '
import sys, h5py, numpy as np
a, b = (h5py.File(f, "r")["history"] for f in sys.argv[1:3])
keys = [k for k in a if k != "walltime"]
sys.exit(0 if keys and all(np.array_equal(a[k][:], b[k][:]) for k in keys) else 1)' "$TMP/pbm/pb_gs.h5" "$TMP/pbp/penalty_ball.h5"
expect_error "-mb_contact_model with an unknown name" "unknown contact model 'nosuch'; known contact models: signorini_coulomb, spring_dashpot" "$MOREAU" -mb_output_dir "$TMP/pbx" -mb_contact_model nosuch "$CASES/penalty_ball.py"
expect_error "-mb_contact_penalty_delta 0" "contact model spring_dashpot: delta \\(the friction regularization speed\\) must be > 0, got 0" "$MOREAU" -mb_output_dir "$TMP/pbx" -mb_contact_penalty_delta 0 "$CASES/penalty_ball.py"

# --- the critical step estimate: 2/sqrt(k (1/m1 + 1/m2)) of the stiffest spring or penalty material
cat >"$TMP/crit.py" <<PY
import math
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/crit')
m = BULK_MATERIAL(s, density=1.0)
a = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
b = BODY(s, 'RIGID', SPHERE((1, 0, 0), 0.1, 1, 1), m)
BODY_CHARS(a, 1.0, 1.0, (0, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
BODY_CHARS(b, 2.0, 1.0, (1, 0, 0), (1, 0, 0, 0, 1, 0, 0, 0, 1))
h0 = CRITICAL_STEP(s)
PUT_SPRING(a, (0, 0, 0), None, (-1, 0, 0), spring=4 * math.pi ** 2)
PUT_SPRING(a, (0, 0, 0), b, (1, 0, 0), spring=10.0)
h1 = CRITICAL_STEP(s)
SURFACE_MATERIAL(s, model='SPRING_DASHPOT', spring=1e3)
h2 = CRITICAL_STEP(s)
if RANK() == 0:
    print('CRIT %g %.6f %.6f' % (h0, h1, h2))
PY
for np in 1 2; do
  out=$(timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/crit.py" 2>&1)
  echo "$out" | grep '^CRIT' | sed "s/^/# np $np: /"
  check "CRITICAL_STEP on $np rank(s): inf, then 1/pi from the stiffest spring, then 2/sqrt(2000) from the penalty material" grep -qx "CRIT inf 0.318310 0.044721" <<<"$out"
done

# --- bad input
deck() { cat >"$TMP/$1.py"; }
HEAD="s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)"
deck unknown <<PY
$HEAD
b.scheme = 'CDMX'
PY
expect_error "unknown scheme" "BODY.scheme: unknown scheme 'CDMX'; known schemes: .*EULER_EXP.*CHUNG_LEE" "$MOREAU" "$TMP/unknown.py"
deck obstacle <<PY
$HEAD
o = BODY(s, 'OBSTACLE', SPHERE((3, 0, 0), 0.1, 1, 1), m)
o.scheme = 'CDM'
PY
expect_error "a scheme that does not apply to the body kind" "BODY.scheme: scheme CDM does not apply to body 1 of kind OBSTACLE" "$MOREAU" "$TMP/obstacle.py"
for p in "GALPHA rho_inf=1.5:scheme GALPHA: rho_inf must be in \[0, 1\], got 1.5" \
         "EGALPHA rho_b=-0.1:scheme EGALPHA: rho_b must be in \[0, 1\], got -0.1" \
         "CHUNG_LEE beta=0.5:scheme CHUNG_LEE: beta must be in \[1, 28/27\], got 0.5" \
         "GALPHA beta=1.0:scheme GALPHA has no parameter 'beta' \(it has rho_inf\)" \
         "EGALPHA rho_inf=0.5:scheme EGALPHA has no parameter 'rho_inf' \(it has rho_b\)" \
         "CHUNG_LEE rho_b=0.5:scheme CHUNG_LEE has no parameter 'rho_b' \(it has beta\)" \
         "CDM rho_b=0.5:scheme CDM has no parameters \(got rho_b = 0.5\)" \
         "RIG_NEG beta=1.5:scheme RIG_NEG has no parameters \(got beta = 1.5\)" \
         "EULER_IMP rho_inf=0.5:scheme EULER_IMP has no parameters \(got rho_inf = 0.5\)"; do
  sp=${p%%:*}; msg=${p#*:}
  deck param <<PY
$HEAD
SCHEME_PARAMETERS(s, '${sp%% *}', ${sp#* })
PY
  expect_error "SCHEME_PARAMETERS(s, ${sp%% *}, ${sp#* })" "SCHEME_PARAMETERS: $msg" "$MOREAU" "$TMP/param.py"
done
deck galpha <<PY
$HEAD
b.scheme = 'GALPHA'
PY
expect_error "-mb_scheme_rho_inf 2" "scheme GALPHA: rho_inf must be in \[0, 1\], got 2" "$MOREAU" -mb_scheme_rho_inf 2 "$TMP/galpha.py"
# each scheme reads its own option: -mb_scheme_rho_b and -mb_scheme_beta reach EGALPHA and
# CHUNG_LEE, and the other schemes leave them alone
for sb in "EGALPHA -mb_scheme_rho_b 1.5:scheme EGALPHA: rho_b must be in \[0, 1\], got 1.5" \
          "CHUNG_LEE -mb_scheme_beta 2:scheme CHUNG_LEE: beta must be in \[1, 28/27\], got 2"; do
  sp=${sb%%:*}; msg=${sb#*:}
  deck optsch <<PY
$HEAD
b.scheme = '${sp%% *}'
RUN(s, None, 0.002)
PY
  expect_error "${sp}" "$msg" "$MOREAU" ${sp#* } "$TMP/optsch.py"
done
deck optcdm <<PY
$HEAD
b.scheme = 'CDM'
RUN(s, None, 0.002)
print('CDM ran')
PY
check "-mb_scheme_beta 2 with a CDM body: not CDM's option, the run goes on" grep -q "CDM ran" <<<"$("$MOREAU" -mb_scheme_beta 2 "$TMP/optcdm.py" 2>&1)"
for p in "spring=-1:PUT_SPRING: spring must be >= 0, got -1" \
         "dashpot=-2.5:PUT_SPRING: dashpot must be >= 0, got -2.5" \
         "spring=1, limits=(1, 0):PUT_SPRING: limits must satisfy min <= max, got \(1, 0\)" \
         "function=5:PUT_SPRING: function must be a callable of \(stroke, velocity\), got 5" \
         "spring=1, direction=(0, 0, 0):PUT_SPRING: direction must be non-zero" \
         "spring=1, rest=-1:PUT_SPRING: rest must be > 0"; do
  kw=${p%%:*}; msg=${p#*:}
  deck spring <<PY
$HEAD
PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), $kw)
PY
  expect_error "PUT_SPRING $kw" "$msg" "$MOREAU" "$TMP/spring.py"
done
# a spring of zero length (its points coincide: Solfec takes z for the direction while they
# do, dom.c): accepted; the sphere pulled back to the point along the line of its points
# oscillates as m x'' = -k x, from the start at the point with velocity v: x(T/4) = v/omega (1 %)
cat >"$TMP/zero.py" <<'PY'
import math
s = SOLFEC('DYNAMIC', 1e-4, 'out-zero')
s.verbose = 'OFF'
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s))
INITIAL_VELOCITY(b, (1, 0, 0), (0, 0, 0))
PUT_SPRING(b, (0, 0, 0), None, (0, 0, 0), spring=1e3)
w = math.sqrt(1e3 / b.mass)
RUN(s, None, 0.5 * math.pi / w)
print('ZERO %.6f %.6f' % (b.conf[9], 1 / w))
PY
out=$(cd "$TMP" && timeout 60 "$MOREAU" zero.py 2>&1)
echo "# zero-length spring: $(grep '^ZERO' <<<"$out")"
check "zero-length PUT_SPRING accepted: the sphere reaches v/omega at T/4 (1 %)" awk '/^ZERO/ { f = 1; ok = ($2 > 0.99 * $3 && $2 < 1.01 * $3) } END { exit !(f && ok) }' <<<"$out"
deck notnum <<PY
$HEAD
PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), lambda s, v: 'abc')
b.scheme = 'CDM'
RUN(s, PENALTY_SOLVER(), 0.01)
PY
expect_error "spring function returning a string" "PUT_SPRING function must return a number \(the force\), for stroke 0\.?, velocity 0\.? \('<lambda>' defined at .*notnum\.py:5\)" "$MOREAU" "$TMP/notnum.py"
deck joint <<PY
$HEAD
FIX_POINT(b, (0, 0, 0.1))
b.scheme = 'CDM'
RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.01)
PY
expect_error "CDM with a joint" "scheme CDM \(body 0\) cannot be combined with the FIX_POINT joint between bodies 0 and -1" "$MOREAU" "$TMP/joint.py"
deck contact <<PY
$HEAD
c = BODY(s, 'RIGID', SPHERE((0.15, 0, 0), 0.1, 1, 1), m)
b.scheme = c.scheme = 'EGALPHA'
RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.01)
PY
expect_error "EGALPHA with a Gauss-Seidel contact" "cannot handle the CONTACT constraint between bodies 1 and 0 at t = .*: contacts need PENALTY_SOLVER" "$MOREAU" "$TMP/contact.py"
deck mixed <<PY
$HEAD
c = BODY(s, 'RIGID', SPHERE((3, 0, 0), 0.1, 1, 1), m)
b.scheme = 'CDM'
RUN(s, PENALTY_SOLVER(), 0.01)
PY
expect_error "CDM and RIG_NEG in one domain" "scheme CDM \(body 0\) cannot share a domain with RIG_POS/RIG_NEG/RIG_IMP bodies" "$MOREAU" "$TMP/mixed.py"
deck mixed2 <<PY
$HEAD
c = BODY(s, 'RIGID', SPHERE((3, 0, 0), 0.1, 1, 1), m)
b.scheme = 'GALPHA'
c.scheme = 'EULER_IMP'
RUN(s, PENALTY_SOLVER(), 0.01)
PY
expect_error "GALPHA and EULER_IMP in one domain" "an implicit scheme \(EULER_IMP, GALPHA\) solves for all bodies at once and cannot be mixed" "$MOREAU" "$TMP/mixed2.py"
