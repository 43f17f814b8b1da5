#!/usr/bin/env bash
# Rounding in the 'BC' form of finite-element bodies: a steel bar at rest 10 m from the
# origin (tests/BM22/BM22_hexa.py's beam sits there), four corners fixed, no load, DEF_LIM and
# DEF_EXP. The co-rotated displacement a = R̲ᵀ(Z + q) − Z lost q below ε|Z| (2e-15 m), and the
# quantized a made an internal force that is no gradient of the strain energy: energy came
# from nothing, 600 times what the start gave in 100 steps, and BM22 stopped as blown up.
# With -mb_blowup_factor 1 the run must end: nothing made beyond the energy given.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
cd "$TMP"
cat >far.py <<'PY'
import sys
o, scheme = 10.0, sys.argv[1]
nodes = [o, o, o, o + 0.02, o, o, o + 0.02, o + 0.02, o, o, o + 0.02, o,
         o, o, o + 0.2, o + 0.02, o, o + 0.2, o + 0.02, o + 0.02, o + 0.2, o, o + 0.02, o + 0.2]
msh = HEX(nodes, 2, 2, 10, 1, [1, 1, 1, 1, 1, 1])
sol = SOLFEC('DYNAMIC', 1E-4 if scheme == 'DEF_LIM' else 1E-7, 'out' + scheme)
mat = BULK_MATERIAL(sol, model = 'KIRCHHOFF', young = 2E11, poisson = 0.3, density = 7.8E3)
bod = BODY(sol, 'FINITE_ELEMENT', msh, mat, form = 'BC')
bod.scheme = scheme
for p in [(o, o, o), (o + 0.02, o, o), (o + 0.02, o + 0.02, o), (o, o + 0.02, o)]: FIX_POINT(bod, p)
RUN(sol, GAUSS_SEIDEL_SOLVER(1E-6, 1000, 1E-6), 100 * sol.step)
print('FAR %s done at t = %g' % (scheme, sol.time))
PY
for scheme in DEF_LIM DEF_EXP; do
  out=$(timeout 300 "$MOREAU" -mb_blowup_factor 1 far.py $scheme 2>&1)
  check "a 'BC' bar at rest 10 m from the origin ($scheme, 100 steps) makes no energy from nothing (-mb_blowup_factor 1)" grep -q "^FAR $scheme done" <<<"$out"
  grep -m1 "blown up" <<<"$out" | cut -c1-300 | sed 's/^/# /'
done
