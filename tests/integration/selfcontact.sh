#!/usr/bin/env bash
# BODY.selfcontact = 'ON' (Solfec-1.0's BODY_DETECT_SELF_CONTACT): elements of one
# FINITE_ELEMENT mesh that share no node make contacts, rows whose master and slave are the
# same body (U = (H_m − H_s)u, W = h(H_m − H_s)A⁻¹(H_m − H_s)ᵀ). QUASI_STATIC (every step from
# rest), frictionless, on 1 and 2 ranks:
#  - a U of 10 HEX8 (a base of 2, two arms of 4 whose inner faces touch along a slit, nodes
#    doubled there) squeezed by F at the arms' tips: the arms touch and do not pass through
#    each other (gaps >= -1e-9 a; the tips' centres stay a apart within 1 %), and the contact
#    forces along x add up to F within 10 % (the base carries the rest: the U is statically
#    indeterminate); with 'OFF' the arms pass through each other (the tips' centres closer
#    than 0.7 a);
#  - one body of two HEX8 that share no node (one MESH), face to face, pushed together by F:
#    each piece is held by the contact alone, so the contact forces add up to F exactly (to
#    the solver's tolerance); with 'OFF' the pieces pass through each other;
#  - a free 3×3×3 HEX with 'ON' and no load makes no contacts (neighbours share nodes);
#  - PENALTY_SOLVER (spring–dashpot forces, DYNAMIC): the two pieces thrown at each other
#    bounce apart with 'ON' and pass through each other with 'OFF'.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
cd "$TMP"
cat >sc.py <<'PY'
import sys
case, sc, tag = sys.argv[1], sys.argv[2], sys.argv[3]
s = SOLFEC('QUASI_STATIC' if case in ('U', 'pair') else 'DYNAMIC', 0.01, 'out-sc-%s-%s-%s' % (case, sc, tag))
s.verbose = 'OFF'
E, a, F = 1e7, 0.1, 100.0
m = BULK_MATERIAL(s, young=E, poisson=0.3, density=1000)
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.0)
nodes, ids, elems = [], {}, []
def node(x, y, z, side):
    key = (x, y, z, side)
    if key not in ids:
        ids[key] = len(nodes) // 3
        nodes.extend((x * a, y * a, z * a))
    return ids[key]
def hexel(x0, z0, side):  # a cube of side a at (x0, 0, z0)·a; side: its copy of shared nodes
    c = [(x0, 0, z0), (x0 + 1, 0, z0), (x0 + 1, 1, z0), (x0, 1, z0)]
    elems.extend([8] + [node(x, y, z, side(x, z)) for (x, y, z) in c] + [node(x, y, z + 1, side(x, z + 1)) for (x, y, z) in c] + [1])
if case == 'U':  # the slit x = a above z = a has two sides; below it, one node
    hexel(0, 0, lambda x, z: 0); hexel(1, 0, lambda x, z: 0)
    for k in range(1, 5):
        hexel(0, k, lambda x, z: 'L' if x == 1 and z > 1 else 0)
        hexel(1, k, lambda x, z: 'R' if x == 1 and z > 1 else 0)
    top = 5 * a
elif case == 'pair':
    hexel(0, 0, lambda x, z: 'L'); hexel(1, 0, lambda x, z: 'R')
    top = a
if case == 'penalty':  # the two pieces apart by a/10, thrown at each other at 1 m/s each
    s.step = 1e-4
    SURFACE_MATERIAL(s, model='SPRING_DASHPOT', spring=1e6, dashpot=1e2, friction=0.0)
    nodes, elems = [], []
    for x0 in (0, 1.1):
        elems.extend([8] + list(range(len(nodes) // 3, len(nodes) // 3 + 8)) + [1])
        for (x, y, z) in [(0,0,0),(1,0,0),(1,1,0),(0,1,0),(0,0,1),(1,0,1),(1,1,1),(0,1,1)]:
            nodes.extend(((x + x0) * a, y * a, z * a))
    b = BODY(s, 'FINITE_ELEMENT', MESH(nodes, elems, 1), m)
    b.selfcontact, b.scheme = sc, 'DEF_LIM'
    if b.velo is not None:
        b.velo = [1.0 if k % 3 == 0 and k < 24 else -1.0 if k % 3 == 0 else 0.0 for k in range(48)]
    RUN(s, PENALTY_SOLVER(), 0.03)
    with open('sc-%s-%s-%s-%d.txt' % (case, sc, tag, RANK()), 'w') as f:
        if b.conf is not None:
            dl, dr = DISPLACEMENT(b, (0.5 * a, 0.5 * a, 0.5 * a))[0], DISPLACEMENT(b, (1.6 * a, 0.5 * a, 0.5 * a))[0]
            f.write('BODY %.15g %.15g\n' % (1.1 + (dr - dl) / a, (dr + dl) / a))  # the second 0: the force on each side
    sys.exit(0)
if case == 'free':
    b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 3, 3, 3, 1, [1]*6), m)
    b.selfcontact = sc
    RUN(s, GAUSS_SEIDEL_SOLVER(1e-8, 1000), 0.01)
    with open('sc-%s-%s-%s-%d.txt' % (case, sc, tag, RANK()), 'w') as f:
        f.write('FREE %s %d\n' % (b.selfcontact, len([c for c in s.constraints if c.kind == 'CONTACT'])))
    sys.exit(0)
if case == 'pair':  # a ball far away first: the body is id 1, rank 1's on 2 ranks
    BODY(s, 'RIGID', SPHERE((5, 5, 5), 0.1, 1, 1), m)
b = BODY(s, 'FINITE_ELEMENT', MESH(nodes, elems, 1), m)
b.selfcontact = sc
zs = (0, a) if case == 'pair' else (top,)
for y in (0, a):  # squeezed along x: F on each side
    for z in zs:
        FORCE(b, 'SPATIAL', (0, y, z), (1, 0, 0), F / (2 * len(zs)))
        FORCE(b, 'SPATIAL', (2 * a, y, z), (-1, 0, 0), F / (2 * len(zs)))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 100000), 0.3)
with open('sc-%s-%s-%s-%d.txt' % (case, sc, tag, RANK()), 'w') as f:
    fx, gmin, n = 0.0, 1.0, 0
    for c in s.constraints:
        if c.kind != 'CONTACT':
            continue
        B, R = c.base, c.R  # base·R: the force on the master, axes t1, t2, n
        fx += abs(B[0] * R[0] + B[3] * R[1] + B[6] * R[2])
        gmin = min(gmin, c.gap)
        n += 1
        assert tuple(c.adjbod) == (b, b), c.adjbod
    if b.conf is not None:
        zc = top - 0.5 * a
        xl = DISPLACEMENT(b, (0.5 * a, 0.5 * a, zc))[0] + 0.5 * a
        xr = DISPLACEMENT(b, (1.5 * a, 0.5 * a, zc))[0] + 1.5 * a
        f.write('BODY %.15g %.15g\n' % ((xr - xl) / a, a))
    f.write('CONTACTS %d %.15g %.15g %.15g\n' % (n, fx, F, gmin / a))
PY
for np in 1 2; do
  for case in U pair free penalty; do
    for sc in ON OFF; do
      timeout 300 $MPIRUN -np $np "$MOREAU" -w sc.py $case $sc $np >run-$case-$sc-$np.txt 2>&1 || { cat run-$case-$sc-$np.txt; }
      cat sc-$case-$sc-$np-*.txt >res-$case-$sc-$np.txt 2>/dev/null
    done
  done
  # sums over the ranks' files: contacts (each on its owner), the tips' distance from the body's owner
  sum() { awk '/^BODY/ { d = $2 } /^CONTACTS/ { n += $2; fx += $3; F = $4; if ($5 < g || !set) g = $5; set = 1 } END { print n + 0, fx + 0, F + 0, g + 0, d }' "$1"; }
  read -r n fx F g d < <(sum res-U-ON-$np.txt)
  check "U, selfcontact ON, $np rank(s): contacts ($n), no interpenetration (min gap/a $g), tips a apart (distance/a $d)" \
    awk -v n="$n" -v g="$g" -v d="$d" 'BEGIN { exit !(n > 0 && g >= -1e-9 && d > 0.99 && d < 1.01) }'
  check "U, selfcontact ON, $np rank(s): the contact forces along x ($fx) balance the squeeze F = $F within 10 %" \
    awk -v fx="$fx" -v F="$F" 'BEGIN { exit !((fx - F)^2 < (0.1 * F)^2) }'
  read -r n fx F g d < <(sum res-U-OFF-$np.txt)
  check "U, selfcontact OFF, $np rank(s): no contacts ($n), the arms pass through each other (distance/a $d)" \
    awk -v n="$n" -v d="$d" 'BEGIN { exit !(n == 0 && d < 0.7) }'
  read -r n fx F g d < <(sum res-pair-ON-$np.txt)
  check "two pieces of one body, ON, $np rank(s): the contact forces ($fx over $n points) equal the push F = $F (1e-6)" \
    awk -v n="$n" -v fx="$fx" -v F="$F" -v g="$g" 'BEGIN { exit !(n > 0 && (fx - F)^2 < (1e-6 * F)^2 && g >= -1e-9) }'
  read -r n fx F g d < <(sum res-pair-OFF-$np.txt)
  check "two pieces of one body, OFF, $np rank(s): they pass through each other (distance/a $d)" \
    awk -v n="$n" -v d="$d" 'BEGIN { exit !(n == 0 && d < 0.5) }'
  check "a free HEX with selfcontact ON, $np rank(s): 0 contacts (neighbouring elements make none)" \
    awk '/^FREE/ { on = $2 == "ON"; n += $3; seen = 1 } END { exit !(seen && on && n == 0) }' res-free-ON-$np.txt
  read -r n fx F g d < <(sum res-penalty-ON-$np.txt)
  sym=$(awk '/^BODY/ { print $3 }' res-penalty-ON-$np.txt)
  check "PENALTY_SOLVER (SPRING_DASHPOT), two pieces of one body thrown together, ON, $np rank(s): they bounce apart (distance/a $d > 1.1), symmetrically (the centres' mean moved by $sym a)" \
    awk -v d="$d" -v sym="$sym" 'BEGIN { exit !(d > 1.1 && sym != "" && sym^2 < 1e-16) }'
  read -r n fx F g d < <(sum res-penalty-OFF-$np.txt)
  check "PENALTY_SOLVER, the same, OFF, $np rank(s): they pass through each other (distance/a $d < 0.6)" \
    awk -v d="$d" 'BEGIN { exit !(d < 0.6) }'
done
