#!/usr/bin/env bash
# STRESS and HISTORY of a finite-element body at a point, evaluated as Solfec-1.0 does (fem.c
# FEM_Point_Values / FEM_Cur_Node_Values behaviour): inside an element, the Cauchy stress of
# that element's F at the point; at a mesh node, the plain mean over the elements around the
# node of each one's stress there. A bar of three HEX8 along z (ν = 0) is driven by
# SET_VELOCITY to nodal displacements u_z ∝ z², so each element has its own uniaxial strain
# ε_e = u(z+1) − u(z) (1, 3, 5 times a constant) and σ_zz = J⁻¹(F S Fᵀ)_zz = (1 + ε) E (ε + ε²/2)
# by hand. At the inner nodes z = 1, 2 the value is the mean of the two elements' (one
# element's alone was moreau's before: a third off); at the end nodes and inside an element,
# that element's. STRESS and HISTORY agree with it to 1e-9, on 1 and 2 ranks.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"
cat >bar.py <<'PY'
import sys
s = SOLFEC('DYNAMIC', 1e-3, sys.argv[1])
s.verbose = 'OFF'
E, c, T = 1e6, 0.01, 0.01
m = BULK_MATERIAL(s, young=E, poisson=0.0, density=1000)
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,3, 1,0,3, 1,1,3, 0,1,3], 1, 1, 3, 1, [1]*6), m)
for x in (0, 1):
    for y in (0, 1):
        for z in (0, 1, 2, 3):
            SET_VELOCITY(b, (x, y, z), (1, 0, 0), 0.0)
            SET_VELOCITY(b, (x, y, z), (0, 1, 0), 0.0)
            SET_VELOCITY(b, (x, y, z), (0, 0, 1), c * z * z / T)
OUTPUT(s, T / 2)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), T)
def svk(eps):  # uniaxial stretch, ν = 0 (λ = 0, 2μ = E): σ_zz = (1 + ε) E (ε + ε²/2)
    return (1 + eps) * E * (eps + eps * eps / 2)
u = [DISPLACEMENT(b, (0, 0, z)) for z in (0, 1, 2, 3)]
if u[0] is not None:
    el = [svk(u[i + 1][2] - u[i][2]) for i in range(3)]
    print('ELEMENTS %s' % ' '.join('%.6g' % e for e in el))
    want = {0: el[0], 1: (el[0] + el[1]) / 2, 2: (el[1] + el[2]) / 2, 3: el[2], 1.5: el[1]}
ok = True
for z in (0, 1, 1.5, 2, 3):
    for (x, y) in ((0, 0), (1, 1), (0.5, 0.5)) if z == 1.5 else ((0, 0), (1, 1)):
        h = HISTORY(s, [(b, (x, y, z), 'SZ')], 0, 1)[1][-1]  # collective
        st = STRESS(b, (x, y, z))
        if st is None:
            continue
        w = want[z]
        good = abs(st[2] - w) <= 1e-9 * abs(w) and abs(h - w) <= 1e-9 * abs(w)
        ok = ok and good
        print('AT z %g (%g, %g): STRESS SZ %.10g, HISTORY %.10g, by hand %.10g %s' % (z, x, y, st[2], h, w, 'ok' if good else 'OFF'))
if u[0] is not None:
    print('STRESS POINTS AS SOLFEC' if ok else 'STRESS POINTS DIFFER')
PY
for np in 1 2; do
  out=$(timeout 120 $MPIRUN -np $np "$MOREAU" -w bar.py out$np 2>&1)
  grep -E "^(ELEMENTS|AT z (1|2) \(0, 0\))" <<<"$out" | sed "s/^/# np $np: /"
  check "STRESS and HISTORY of a HEX8 bar under a linearly varying stress on $np rank(s): the elements' own at inner points and end nodes, their mean at inner nodes, as computed by hand" grep -q "^STRESS POINTS AS SOLFEC" <<<"$out"
done
