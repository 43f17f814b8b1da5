#!/usr/bin/env bash
# CONTACT_SPARSIFY (src/domain/sparsify.c, Solfec-1.0's dom.c sparsify_contacts behaviour):
# a block of 4x4 finite elements resting on another, shifted by 1/250 of an element, so
# that each upper element lies on one lower element and grazes three more with slivers
# (area ratio 0.001) and corners. Every point the narrow phase finds with (0, 0, 0): 196;
# by default (threshold 0.01): the slivers go, and each upper element keeps the four
# corners of its face on the lower one, 64 (no two within 2·GEOMETRIC_EPSILON: a point is
# not dropped as the duplicate of a sliver's point that the area test drops); unshifted,
# the points that adjacent elements make at their shared nodes merge: the 5x5 nodes, 25;
# with threshold 0.001 the slivers stay, their points merging with the faces': between;
# minarea 1 (past every element's area): none. The
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
out=$(timeout 300 "$MOREAU" sp.py on 0 2>&1)
n_on0=$(count "$out")
echo "# contacts: every point $n_off, default $n_on (unshifted $n_on0), threshold 0.001 $n_thr, minarea 1 $n_minarea"
check "CONTACT_SPARSIFY(sol, 0, 0, 0) keeps every point (196)" test "$n_off" = 196
check "by default (threshold 0.01) the slivers go: the 16 faces' corners (64)" test "$n_on" = 64
check "unshifted, the points at the 5x5 shared nodes merge (25)" test "$n_on0" = 25
check "threshold 0.001 keeps the slivers (between 25 and 196)" test "$n_thr" -gt 25 -a "$n_thr" -lt 196
check "minarea 1 drops every contact" test "$n_minarea" = 0
o1=$(timeout 300 "$MOREAU" sp.py on 0.001 2>&1)
o2=$(mpirun_files 300 "$TMP/ranks-50" 2 "$MOREAU" sp.py on 0.001)
check "the same contacts on 1 and 2 ranks" test "$(count "$o1")" = "$(count "$o2")" -a -n "$(count "$o1")"
check "the same energies on 1 and 2 ranks (1e-9)" awk '/energy kinetic/ { n++; for (i = 4; i <= NF; i += 3) v[n, i] = $i } END { if (n != 2) exit 1; for (i = 4; i <= 13; i += 3) { d = v[1, i] - v[2, i]; if (d < 0) d = -d; s = v[1, i] < 0 ? -v[1, i] : v[1, i]; if (d > 1e-9 * (s + 1e-12)) exit 1 } }' <(echo "$o1") <(echo "$o2")

# A cylinder resting on its bottom edge on a plate (tests/BM17's meshes: the 9 wedges of the
# cylinder next to that edge and the 14 of the plate under it): the edge makes contacts of
# area 0 where the cylinder's faces meet the plate's, and the neighbouring wedges' face
# contacts lie at the same points. The area test drops the edge contacts; the duplicate
# test must not drop the face contacts for them, or the cylinder gets no contact at all on
# its first step and sinks into the plate (BM17's displacement was 10 per cent short).
cat >edge.py <<'PY'
GEOMETRIC_EPSILON(1E-5)
s = SOLFEC('QUASI_STATIC', 1E-4, 'outedge')
m = BULK_MATERIAL(s, model = 'KIRCHHOFF', young = 2.1E11, poisson = 0.3, density = 7850)
SURFACE_MATERIAL(s, model = 'SIGNORINI_COULOMB', friction = 0.0)
cn = [0, 0, -0.05, 0, -0.00196299, -0.0499614, 0, -0.00392295, -0.0498459, 0, -0.00587687, -0.0496534, 0, 0.00392295, -0.0498459, 0, 0.00196299, -0.0499614, 0, -0.00477026, -0.0480171, 0, -0.00093343, -0.0480214, 0, 0.00275449, -0.0480129, 0, -0.00280058, -0.0481919, 0, 0.000902439, -0.0479455, 0.1, -0.00587687, -0.0496534, 0.1, -0.00392295, -0.0498459, 0.1, -0.00477026, -0.0480171, 0.1, -0.00196299, -0.0499614, 0.1, 0, -0.05, 0.1, -0.00093343, -0.0480214, 0.1, 0.00196299, -0.0499614, 0.1, 0.00392295, -0.0498459, 0.1, 0.00275449, -0.0480129, 0.1, -0.00280058, -0.0481919, 0.1, 0.000902439, -0.0479455]
ce = [6, 3, 2, 6, 11, 12, 13, 19, 6, 1, 0, 7, 14, 15, 16, 20, 6, 5, 4, 8, 17, 18, 19, 21, 6, 2, 1, 9, 12, 14, 20, 83, 6, 0, 5, 10, 15, 17, 21, 84, 6, 2, 9, 6, 12, 20, 13, 129, 6, 0, 10, 7, 15, 21, 16, 130, 6, 9, 1, 7, 20, 14, 16, 168, 6, 10, 5, 8, 21, 17, 19, 169]
bn = [0, 0.003, -0.053, 0, 0.0015, -0.053, 0, -0, -0.053, 0, -0.0015, -0.053, 0, -0.003, -0.053, 0, 0.003, -0.05, 0, 0.0015, -0.05, 0, -0, -0.05, 0, -0.0015, -0.05, 0, -0.003, -0.05, 0, 0.00225, -0.0515, 0, 0.000749996, -0.0515, 0, -0.000750004, -0.0515, 0, -0.00225, -0.0515, 0.1, 0.003, -0.053, 0.1, 0.0015, -0.053, 0.1, 0.00225, -0.0515, 0.1, -0, -0.053, 0.1, 0.000749996, -0.0515, 0.1, -0.0015, -0.053, 0.1, -0.000750004, -0.0515, 0.1, -0.003, -0.053, 0.1, -0.00225, -0.0515, 0.1, 0.003, -0.05, 0.1, 0.0015, -0.05, 0.1, -0, -0.05, 0.1, -0.0015, -0.05, 0.1, -0.003, -0.05]
be = [6, 1, 0, 10, 15, 14, 16, 195, 6, 2, 1, 11, 17, 15, 18, 197, 6, 1, 10, 11, 15, 16, 18, 198, 6, 3, 2, 12, 19, 17, 20, 199, 6, 2, 11, 12, 17, 18, 20, 200, 6, 4, 3, 13, 21, 19, 22, 201, 6, 3, 12, 13, 19, 20, 22, 202, 6, 5, 6, 10, 23, 24, 16, 498, 6, 6, 7, 11, 24, 25, 18, 499, 6, 7, 8, 12, 25, 26, 20, 500, 6, 8, 9, 13, 26, 27, 22, 501, 6, 6, 11, 10, 24, 18, 16, 699, 6, 7, 12, 11, 25, 20, 18, 700, 6, 8, 13, 12, 26, 22, 20, 701]
plate = BODY(s, 'FINITE_ELEMENT', MESH(bn, be, 2), m)
cyl = BODY(s, 'FINITE_ELEMENT', MESH(cn, ce, 1), m)
for i in range(len(bn) // 3):
  if bn[3*i+2] < -0.0529: FIX_POINT(plate, (bn[3*i], bn[3*i+1], bn[3*i+2]))
FORCE(cyl, 'SPATIAL', (cn[0], cn[1], cn[2]), (0, 0, -1), 100)
RUN(s, NEWTON_SOLVER(1E-10, delta = 5E-9, locdyn = 'OFF'), 1E-4)
print('EDGE CONTACTS', len([c for c in s.constraints if c.kind == 'CONTACT']))
PY
out=$(timeout 120 "$MOREAU" edge.py 2>&1)
n=$(sed -n 's/^EDGE CONTACTS //p' <<<"$out")
check "a cylinder on its edge keeps its contact with the plate by default (the edge contacts go, not the face contacts at their points)" test -n "$n" -a "${n:-0}" -ge 1
[ -n "$n" ] || echo "$out" | tail -n 8 | sed 's/^/# /'
