#!/usr/bin/env bash
# SOLFEC('QUASI_STATIC'): every step from rest, u = hA⁻¹f, q += hu (RIG_STATIC, DEF_STATIC;
# Solfec-1.0's static steps). A rigid sphere pushed by F from rest moves n·h²F/m in n steps
# (exactly: from rest every step; DYNAMIC would give (nh)²F/2m) at the velocity hF/m; a bar of
# 4 HEX8 held by rollers and pulled by F at its end settles at the static FL/(EA) (Saint
# Venant–Kirchhoff differs from linear elasticity by the strain, 1e-6 here: tolerance 1e-5)
# within 10 steps, where DYNAMIC is still vibrating; the deck's scheme= is ignored, as Solfec
# ignores it; on 1 and 2 ranks.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
cd "$TMP"
cat >qs.py <<'PY'
import sys
mode = sys.argv[1]
s = SOLFEC(mode, 0.01, 'out-qs-' + mode)
s.verbose = 'OFF'
E, L, a, F, rho = 2e11, 1.0, 0.1, 2e3, 8000
m = BULK_MATERIAL(s, young=E, poisson=0.3, density=rho)
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, L,0,0, L,a,0, 0,a,0, 0,0,a, L,0,a, L,a,a, 0,a,a], 4, 1, 1, 1, [1]*6), m)
b.scheme = 'DEF_LIM'
for y in (0, a):
    for z in (0, a):  # rollers on x = 0: the bar contracts freely across
        FIX_DIRECTION(b, (0, y, z), (1, 0, 0))
        if y == 0: FIX_DIRECTION(b, (0, y, z), (0, 1, 0))
        if z == 0: FIX_DIRECTION(b, (0, y, z), (0, 0, 1))
        FORCE(b, 'SPATIAL', (L, y, z), (1, 0, 0), F / 4)
r = BODY(s, 'RIGID', SPHERE((5, 0, 0), 0.5, 1, 1), m)
FORCE(r, 'SPATIAL', (5, 0, 0), (0, 0, 1), 1.0)
RUN(s, NEWTON_SOLVER(1e-14), 0.1)
mass = rho * 4.0 / 3.0 * 3.141592653589793 * 0.125
with open('qs-%s-%d.txt' % (mode, RANK()), 'w') as f:
    if b.conf is not None:
        f.write('BAR %s %.15g %.15g\n' % (b.scheme, DISPLACEMENT(b, (L, a, a))[0], F * L / (E * a * a)))
    if r.conf is not None:
        f.write('BALL %s %.15g %.15g %.15g %.15g\n' % (r.scheme, r.conf[11], 10 * 0.01**2 / mass, r.velo[5], 0.01 / mass))
PY
for np in 1 2; do
  rm -f qs-*.txt
  timeout 120 $MPIRUN -np $np "$MOREAU" -w qs.py QUASI_STATIC >run$np.txt 2>&1
  check "QUASI_STATIC on $np rank(s) runs" grep -q "steps to t = 0.1" run$np.txt
  cat qs-QUASI_STATIC-*.txt >qs$np.txt
  check "QUASI_STATIC on $np rank(s): the rigid ball moves n·h²F/m from rest each step, at hF/m (1e-12), scheme RIG_STATIC" \
    awk '/^BALL/ { ok = $2 == "RIG_STATIC" && ($3 - $4)^2 < (1e-12 * $4)^2 && ($5 - $6)^2 < (1e-12 * $6)^2 } END { exit !ok }' qs$np.txt
  check "QUASI_STATIC on $np rank(s): the bar stretches by FL/(EA) (1e-5), scheme DEF_STATIC (its DEF_LIM ignored)" \
    awk '/^BAR/ { ok = $2 == "DEF_STATIC" && ($3 - $4)^2 < (1e-5 * $4)^2 } END { exit !ok }' qs$np.txt
done
timeout 120 "$MOREAU" -w qs.py DYNAMIC >dyn.txt 2>&1
check "DYNAMIC, the same deck: the bar is not at FL/(EA) after 10 steps, the ball at (nh)²F/2m" \
  awk '/^BAR/ { bar = ($3 - $4)^2 > (0.1 * $4)^2 } /^BALL/ { ball = ($3 - 5 * $4)^2 < (1e-9 * $4)^2 } END { exit !(bar && ball) }' qs-DYNAMIC-0.txt
