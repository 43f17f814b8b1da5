#!/usr/bin/env bash
# ROUGH_HEX (Solfec-1.0's lng.c behaviour): a HEX mesh of i x j x k elements around a CONVEX
# shape, its edges along the principal axes of the shape's Euler tensor (i: least second
# moment), its faces at the vertices' extreme projections widened by 10 x GEOMETRIC_EPSILON
# (Solfec's 1e-4 by default). (1) A box 0.4 x 1 x 2, rotated and moved: the mesh is that box
# widened by 1e-3 (edges 0.402, 1.002, 2.002 along i, j, k, along the box's own axes), with
# i*j*k elements and (i+1)(j+1)(k+1) nodes. (2) A random hull (drum.py's stones) with
# spacings dx: every vertex inside the mesh's box in its frame, the first division dx[0]/sum(dx)
# of the i edge; GEOMETRIC_EPSILON(1e-3) widens by 1e-2. (3) A FINITE_ELEMENT body of the hull
# with mesh=ROUGH_HEX(...) falls freely (v = -g t). (4) Bad input: a SPHERE, i = 0, a short dx.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

cat >"$TMP/box.py" <<'PY'
import math, random
def frame(X, i, j, k):
    """the box's corner 0 and its three edge vectors from the mesh's nodes (i fastest)"""
    n = lambda a, b, c: X[(c * (j + 1) + b) * (i + 1) + a]
    o = n(0, 0, 0)
    return o, [[n(i, 0, 0)[q] - o[q] for q in range(3)], [n(0, j, 0)[q] - o[q] for q in range(3)], [n(0, 0, k)[q] - o[q] for q in range(3)]]
def nodes(m):
    d = m.get_data()[0]
    return [d[3 * n:3 * n + 3] for n in range(len(d) // 3)]
def elements(m):
    e, p, ne = m.get_data()[1], 0, 0
    while p < len(e):
        ne, p = ne + 1, p + e[p] + 2
    return ne
def dot(u, v): return sum(u[q] * v[q] for q in range(3))
def inside(m, i, j, k, pts, tol=1e-12):
    """the least distance of pts inside the mesh's box (negative: one is outside)"""
    o, E = frame(nodes(m), i, j, k)
    least = 1e300
    for p in pts:
        for e in E:
            L = math.sqrt(dot(e, e))
            t = dot([p[q] - o[q] for q in range(3)], e) / L
            least = min(least, t, L - t)
    return least
a, b, c = 0.4, 1.0, 2.0
box = HULL([0,0,0, a,0,0, a,b,0, 0,b,0, 0,0,c, a,0,c, a,b,c, 0,b,c], 1, 1)
ROTATE(box, (0, 0, 0), (1, 1, 1), 30)
TRANSLATE(box, (0.3, -0.2, 0.5))
m = ROUGH_HEX(box, 2, 3, 4)
o, E = frame(nodes(m), 2, 3, 4)
V = [box.vertex(n) for n in range(box.nver)]
axes = [[V[1][q] - V[0][q] for q in range(3)], [V[3][q] - V[0][q] for q in range(3)], [V[4][q] - V[0][q] for q in range(3)]]
par = min(abs(dot(E[n], axes[n])) / math.sqrt(dot(E[n], E[n]) * dot(axes[n], axes[n])) for n in range(3))
print('BOX', elements(m), m.nnod, ' '.join('%.9f' % math.sqrt(dot(e, e)) for e in E), '%.12f' % par, '%.9f' % inside(m, 2, 3, 4, V))
random.seed(1)
pts = []
for n in range(24):
    pts += [0.3 + 0.05 * (1 - random.random()) * 2, -0.1 + 0.05 * (1 - random.random()) * 2, 0.7 + 0.05 * (1 - random.random()) * 2]
hul = HULL(pts, 1, 1)
V = [hul.vertex(n) for n in range(hul.nver)]
m = ROUGH_HEX(hul, 3, 2, 2, dx=[1, 2, 1])
X = nodes(m)
f = math.sqrt(sum((X[1][q] - X[0][q]) ** 2 for q in range(3))) / math.sqrt(sum((X[3][q] - X[0][q]) ** 2 for q in range(3)))
print('HULL', elements(m), m.nnod, '%.9f' % inside(m, 3, 2, 2, V), '%.9f' % f)
GEOMETRIC_EPSILON(1e-3)
m = ROUGH_HEX([hul], 1, 1, 1)
print('GEPS %.9f' % inside(m, 1, 1, 1, V))
PY
out=$(timeout 120 "$MOREAU" -mb_quiet "$TMP/box.py" 2>&1)
echo "$out" | sed 's/^/# /'
check "a rotated box 0.4 x 1 x 2: 24 elements, 60 nodes, edges 0.402, 1.002, 2.002 along i, j, k parallel to the box's edges, every vertex 1e-3 inside" \
  grep -qE '^BOX 24 60 0\.402000000 1\.002000000 2\.002000000 1\.0000000000(0|1)[0-9] 0\.00100000' <<<"$out"
check "a random hull, dx = [1, 2, 1]: 12 elements, 36 nodes, every vertex 1e-3 inside (at least), the first division 1/4 of the i edge" \
  grep -qE '^HULL 12 36 0\.00100000[0-9] 0\.250000000' <<<"$out"
check "GEOMETRIC_EPSILON(1e-3): the margin is 1e-2" grep -qE '^GEPS 0\.0100000' <<<"$out"

cat >"$TMP/fall.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out-fall')
s.verbose = 'OFF'
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.4)
mat = BULK_MATERIAL(s, young=10e9, poisson=0.3, density=2e3)
GRAVITY(s, (0, 0, -9.8))
pts = [0,0,0, 0.1,0,0, 0.1,0.1,0, 0,0.1,0, 0,0,0.1, 0.1,0,0.1, 0.1,0.1,0.1, 0,0.1,0.1, 0.05,0.05,0.15, 0.12,0.05,0.05]
hul = HULL(pts, 1, 1)
b = BODY(s, 'FINITE_ELEMENT', hul, mat, form='BC', mesh=ROUGH_HEX(hul, 2, 2, 2))
b.scheme = 'DEF_LIM'
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 500), 0.05)
w = b.velo
print('VZ %.6f %.6f' % (min(w[2::3]), max(w[2::3])))
PY
out=$(timeout 120 "$MOREAU" -mb_quiet "$TMP/fall.py" 2>&1)
echo "$out" | tail -n 3 | sed 's/^/# /'
check "a FINITE_ELEMENT body of a hull with mesh=ROUGH_HEX(hull, 2, 2, 2) falls freely: every node's v_z = -9.8 x 0.05" \
  grep -qE '^VZ -0\.4900(0|1)[0-9] -0\.4899(9|8)[0-9]|^VZ -0\.4900[0-9]+ -0\.4900' <<<"$out"

bad() { echo "$2" >"$TMP/$1.py"; echo "$TMP/$1.py"; }
expect_error "ROUGH_HEX of a SPHERE is refused" "ROUGH_HEX: 'shape' must be a non-empty CONVEX object" \
  "$MOREAU" -mb_quiet "$(bad sphere "ROUGH_HEX(SPHERE((0, 0, 0), 1, 1, 1), 2, 2, 2)")"
expect_error "ROUGH_HEX with i = 0 is refused" "ROUGH_HEX: i must be >= 1, got 0" \
  "$MOREAU" -mb_quiet "$(bad izero "ROUGH_HEX(HULL([0,0,0, 1,0,0, 0,1,0, 0,0,1], 1, 1), 0, 2, 2)")"
expect_error "ROUGH_HEX with dx of 1 number for i = 2 is refused" "ROUGH_HEX: dx must hold 2 positive numbers" \
  "$MOREAU" -mb_quiet "$(bad shortdx "ROUGH_HEX(HULL([0,0,0, 1,0,0, 0,1,0, 0,0,1], 1, 1), 2, 2, 2, dx=[1])")"
