#!/usr/bin/env bash
# SIMPLIFIED_CRACK (Solfec-1.0's lng.c and cra.c behaviour): a FINITE_ELEMENT bar (Poisson's
# ratio 0, so the Cauchy stress across it is F/A exactly in equilibrium) pulled apart by end
# forces growing as F(t) = k t, with a crack plane at its middle: the criterion n·σn > ft is
# first met at the step after t* = ft A / k, never before; moreau cannot split the body, so
# the run stops there with an error naming the body, the time and the stress — on one rank
# and, for a body owned by rank 1, on two. Bad arguments are named in the error.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# bar.py KIND DURATION FT0 FT1 [NX TOPOADJ]: two bars (bodies 0 and 1) of length 1 and section 0.1 × 0.1,
# each pulled by k t = 100 t at each end (a quarter at each corner), crack planes x = 0.5
# with strengths FT0 and FT1 (NX elements along, default 5: the plane crosses the middle
# one; 4: it lies on element faces); h = 1e-3, so t* = 1e3 · 0.01 / 100 = 0.1 for ft = 1e3.
cat >"$TMP/bar.py" <<PY
import sys
kind, duration, ft0, ft1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
nx, topo = (int(sys.argv[5]), sys.argv[6]) if len(sys.argv) > 6 else (5, 'OFF')
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, model='KIRCHHOFF', young=1e6, poisson=0.0, density=1.0)
L, a, k = 1.0, 0.1, 100.0
def bar(y0, ft):
    h = HEX([0,y0,0, L,y0,0, L,y0+a,0, 0,y0+a,0, 0,y0,a, L,y0,a, L,y0+a,a, 0,y0+a,a], nx, 1, 1, 1, [1]*6)
    b = BODY(s, kind, h, m)
    b.scheme = 'DEF_LIM'
    b.damping = 1e-4
    ts = TIME_SERIES([0, 0, 10, 10 * k / 4])
    for (y, z) in ((y0, 0), (y0 + a, 0), (y0, a), (y0 + a, a)):
        FORCE(b, 'SPATIAL', (L, y, z), (1, 0, 0), ts)
        FORCE(b, 'SPATIAL', (0, y, z), (-1, 0, 0), ts)
    SIMPLIFIED_CRACK(b, (0.5 * L, y0 + 0.5 * a, 0.5 * a), (1, 0, 0), (2, 3), 'TENSILE', ft=ft, topoadj=topo)
b0 = bar(0.0, ft0)
b1 = bar(1.0, ft1)
RUN(s, NEWTON_SOLVER(), duration)
print('run ended at t = %g' % s.time)
PY

# crack_t OUTPUT: the time and stress of "body N cracks at t = T: ... is S at"
crack_at() { sed -nE 's/.*body ([0-9]+) cracks at t = ([0-9.e+-]+): .* is ([0-9.e+-]+) at the referential point.*/\1 \2 \3/p' <<<"$1" | head -1; }
# within T LO HI
within() { awk -v t="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(t >= lo && t <= hi) }'; }

for kind in FINITE_ELEMENT PSEUDO_RIGID; do
  out=$("$MOREAU" "$TMP/bar.py" $kind 0.095 1e3 1e9 2>&1); rc=$?
  check "$kind bar, ft = 1e3: no crack before t* = 0.1 (a run to 0.095 ends without error)" bash -c '[ '$rc' -eq 0 ] && grep -q "run ended at t = 0.095" <<<"$0"' "$out"
  [ $rc -eq 0 ] || echo "$out" | tail -n 4 | sed 's/^/# /'
  out=$("$MOREAU" "$TMP/bar.py" $kind 0.3 1e3 1e9 2>&1); rc=$?
  read -r id t sig <<<"$(crack_at "$out")"
  check "$kind bar, ft = 1e3: the run stops with 'body 0 cracks at t = ...' at t* = 0.1 to two steps (got body ${id:-?} at ${t:-?}, stress ${sig:-?})" \
    bash -c '[ '$rc' -ne 0 ] && [ "$1" = 0 ] && awk -v t="$2" -v s="$3" "BEGIN { exit !(t >= 0.1 && t <= 0.1025 && s > 1000 && s < 1030) }" && ! grep -q "run ended" <<<"$0"' "$out" "$id" "$t" "$sig"
  check "$kind bar: the message names the plane, ft and why the run stops" bash -c 'grep -q "its SIMPLIFIED_CRACK number 1, through (0.5, 0.05, 0.05) with normal (1., 0., 0.)" <<<"$0" && grep -q "above ft = 1000" <<<"$0" && grep -q "moreau does not split a body during a run" <<<"$0"' "$out"
done
for args in "4 OFF" "4 ON" "5 ON"; do
  out=$("$MOREAU" "$TMP/bar.py" FINITE_ELEMENT 0.3 1e3 1e9 $args 2>&1); rc=$?
  read -r id t sig <<<"$(crack_at "$out")"
  check "FINITE_ELEMENT bar of ${args% *} elements (the plane $([ "${args% *}" = 4 ] && echo on element faces || echo through an element)), topoadj ${args#* }: cracks at t* = 0.1 (got body ${id:-?} at ${t:-?}, stress ${sig:-?})" \
    bash -c '[ '$rc' -ne 0 ] && [ "$0" = 0 ] && awk -v t="$1" "BEGIN { exit !(t >= 0.1 && t <= 0.1025) }"' "$id" "$t"
done
out=$("$MOREAU" "$TMP/bar.py" FINITE_ELEMENT 0.3 1e9 1e9 2>&1); rc=$?
check "ft = 1e9 on both bars: the run goes to its end" bash -c '[ '$rc' -eq 0 ] && grep -q "run ended at t = 0.3" <<<"$0"' "$out"
out=$("$MOREAU" "$TMP/bar.py" FINITE_ELEMENT 0.3 1e9 2e3 2>&1); rc=$?
read -r id t sig <<<"$(crack_at "$out")"
check "ft = 2e3 on body 1: it cracks at t* = 0.2 (got body ${id:-?} at ${t:-?})" bash -c '[ '$rc' -ne 0 ] && [ "$0" = 1 ] && awk -v t="$1" "BEGIN { exit !(t >= 0.2 && t <= 0.2025) }"' "$id" "$t"
out=$(mpirun_files 120 "$TMP/ranks-67" 2 "$MOREAU" "$TMP/bar.py" FINITE_ELEMENT 0.3 1e9 2e3); rc=$?
read -r id t sig <<<"$(crack_at "$out")"
check "2 ranks, body 1 (owned by rank 1) cracks: every rank stops with its message at t* = 0.2 (got body ${id:-?} at ${t:-?}, rc $rc)" bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ] && [ "$0" = 1 ] && awk -v t="$1" "BEGIN { exit !(t >= 0.2 && t <= 0.2025) }"' "$id" "$t"

# --- bad arguments, each named
cat >"$TMP/bad.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=1e6, poisson=0.25, density=1.0)
cube = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]
fe = BODY(s, 'FINITE_ELEMENT', HEX(cube, 2, 2, 2, 1, [1]*6), m)
rb = BODY(s, 'RIGID', HEX(cube, 1, 1, 1, 1, [1]*6), m)
def t(name, f, exc, text):
    try:
        f()
    except exc as e:
        ok = text in str(e)
        print(('ok - ' if ok else 'not ok - ') + name + ('' if ok else ' (got %r)' % str(e)), flush=True)
        return
    except Exception as e:
        print('not ok - %s (got %r)' % (name, e), flush=True)
        return
    print('not ok - %s (no error)' % name, flush=True)
P, N = (0.5, 0.5, 0.5), (1, 0, 0)
t('a RIGID body does not crack', lambda: SIMPLIFIED_CRACK(rb, P, N, (1, 2), 'TENSILE', ft=1), ValueError, 'SIMPLIFIED_CRACK: body 1 is RIGID: only PSEUDO_RIGID or FINITE_ELEMENT bodies crack')
t('criterion other than TENSILE', lambda: SIMPLIFIED_CRACK(fe, P, N, (1, 2), 'SHEAR'), ValueError, "SIMPLIFIED_CRACK: criterion must be 'TENSILE' (the only one Solfec-1.0 has), got 'SHEAR'")
t('topoadj neither ON nor OFF', lambda: SIMPLIFIED_CRACK(fe, P, N, (1, 2), 'TENSILE', 'YES'), ValueError, "SIMPLIFIED_CRACK: topoadj must be 'ON' or 'OFF', got 'YES'")
t('zero normal', lambda: SIMPLIFIED_CRACK(fe, P, (0, 0, 0), (1, 2), 'TENSILE'), ValueError, 'SIMPLIFIED_CRACK: normal must be non-zero, got (0, 0, 0)')
t('surfid of three', lambda: SIMPLIFIED_CRACK(fe, P, N, (1, 2, 3), 'TENSILE'), ValueError, 'SIMPLIFIED_CRACK: surfid must be an integer or a pair of integers (below, above the plane), got (1, 2, 3)')
t('surfid a string', lambda: SIMPLIFIED_CRACK(fe, P, N, 'a', 'TENSILE'), TypeError, "SIMPLIFIED_CRACK: surfid must be an integer or a pair of integers (below, above the plane), got 'a'")
t('ft not a number', lambda: SIMPLIFIED_CRACK(fe, P, N, 1, 'TENSILE', ft='x'), TypeError, "SIMPLIFIED_CRACK: ft must be a number, got 'x'")
t('Gf negative', lambda: SIMPLIFIED_CRACK(fe, P, N, 1, 'TENSILE', ft=1, Gf=-1), ValueError, 'SIMPLIFIED_CRACK: Gf must be >= 0, got -1')
t('a plane that misses the mesh', lambda: SIMPLIFIED_CRACK(fe, (2, 0, 0), N, 1, 'TENSILE', ft=1), ValueError, "SIMPLIFIED_CRACK: body 0: the crack plane through (2., 0., 0.) with normal (1., 0., 0.) does not cross the body's mesh")
t("topoadj 'ON' with the point off the section", lambda: SIMPLIFIED_CRACK(fe, (0.5, 3, 3), N, 1, 'TENSILE', 'ON', ft=1), ValueError, "SIMPLIFIED_CRACK: body 0: with topoadj 'ON' the crack plane's point (0.5, 3., 3.) must lie in the body's section")
SIMPLIFIED_CRACK(fe, P, N, 1, 'TENSILE', 'ON', ft=1)
SIMPLIFIED_CRACK(fe, P, (0, 0, 2), (4, 5), 'TENSILE', topoadj='OFF', ft=1.5, Gf=10)
print('ok - good ones (one surfid for both faces, topoadj ON, a normal of any length) accepted', flush=True)
PY
out=$("$MOREAU" "$TMP/bad.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
check "the bad-argument deck runs to its end" bash -c '[ '$rc' -eq 0 ]'
[ $rc -eq 0 ] || echo "$out" | tail -n 5 | sed 's/^/# /'
