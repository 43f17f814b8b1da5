#!/usr/bin/env bash
# CONTACT_SPARSIFY (src/domain/sparsify.c, Solfec-1.0's dom.c sparsify_contacts behaviour):
# a block of 4x4 finite elements resting on another, shifted by 1/250 of an element, so
# that each upper element lies on one lower element and grazes three more with slivers
# (area ratio 0.001) and corners. Every point the narrow phase finds with (0, 0, 0): 196;
# by default (threshold 0.01): the slivers go, and the points that adjacent elements make
# at their shared nodes merge (2·GEOMETRIC_EPSILON): the 5x5 nodes, 25; with threshold
# 0.001 the slivers stay: between; minarea 1 (past every element's area): none. The
# result must not depend on the number of ranks (1 and 2: the same contacts and energies).
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
cd "$TMP"
cat >sp.py <<'PY'
import sys
mode, delta = sys.argv[1], float(sys.argv[2])
def block(x0, y0, z0):
  n = [x0, y0, z0, x0 + 1, y0, z0, x0 + 1, y0 + 1, z0, x0, y0 + 1, z0,
       x0, y0, z0 + 0.25, x0 + 1, y0, z0 + 0.25, x0 + 1, y0 + 1, z0 + 0.25, x0, y0 + 1, z0 + 0.25]
  return HEX(n, 4, 4, 1, 1, [1, 1, 1, 1, 1, 1])
sol = SOLFEC('DYNAMIC', 1E-4, 'out' + mode)
GEOMETRIC_EPSILON(1E-6)
if mode == 'off': CONTACT_SPARSIFY(sol, 0, 0, 0)
elif mode == 'minarea': CONTACT_SPARSIFY(sol, 0.01, 1.0)
elif mode == 'thr': CONTACT_SPARSIFY(sol, 0.001)
SURFACE_MATERIAL(sol, model = 'SIGNORINI_COULOMB', friction = 0.3)
GRAVITY(sol, (0, 0, -10))
mat = BULK_MATERIAL(sol, model = 'KIRCHHOFF', young = 1E6, poisson = 0.25, density = 1E3)
BODY(sol, 'OBSTACLE', block(0, 0, 0), mat)
BODY(sol, 'FINITE_ELEMENT', block(delta, delta, 0.25), mat)
RUN(sol, GAUSS_SEIDEL_SOLVER(1E-8, 1000), 1E-3)
PY
# the contacts at the end; 0 for a run that ended with none (no such line)
count() {
  local n
  n=$(sed -n 's/^moreau: [0-9]* constraints at the end (\([0-9]*\) contacts).*/\1/p' <<<"$1")
  if [ -z "$n" ] && grep -q '^moreau: [0-9]* steps to t = ' <<<"$1"; then n=0; fi
  echo "$n"
}
for m in off on thr minarea; do
  out=$(timeout 300 "$MOREAU" sp.py $m 0.001 2>&1)
  eval "n_$m=\$(count \"\$out\")"
  [ -n "$(count "$out")" ] || { echo "$out" | tail -n 5 | sed 's/^/# /'; }
done
echo "# contacts: every point $n_off, default $n_on, threshold 0.001 $n_thr, minarea 1 $n_minarea"
check "CONTACT_SPARSIFY(sol, 0, 0, 0) keeps every point (196)" test "$n_off" = 196
check "by default (threshold 0.01) the slivers go and the points at the 5x5 shared nodes merge (25)" test "$n_on" = 25
check "threshold 0.001 keeps the slivers (between 25 and 196)" test "$n_thr" -gt 25 -a "$n_thr" -lt 196
check "minarea 1 drops every contact" test "$n_minarea" = 0
o1=$(timeout 300 "$MOREAU" sp.py on 0.001 2>&1)
o2=$(mpirun_files 300 "$TMP/ranks-50" 2 "$MOREAU" sp.py on 0.001)
check "the same contacts on 1 and 2 ranks" test "$(count "$o1")" = "$(count "$o2")" -a -n "$(count "$o1")"
check "the same energies on 1 and 2 ranks (1e-9)" awk '/energy kinetic/ { n++; for (i = 4; i <= NF; i += 3) v[n, i] = $i } END { if (n != 2) exit 1; for (i = 4; i <= 13; i += 3) { d = v[1, i] - v[2, i]; if (d < 0) d = -d; s = v[1, i] < 0 ? -v[1, i] : v[1, i]; if (d > 1e-9 * (s + 1e-12)) exit 1 } }' <(echo "$o1") <(echo "$o2")
