#!/usr/bin/env bash
# MODAL_ANALYSIS and the reduced finite-element forms 'BC-MODAL' / 'BC-RO'.
# 1. A free-free bar (1 x 1 x nz HEX8, Poisson 0): its axial modes are exactly those of the
#    lumped 1-D chain, omega_k = (2/h) c sin(x), x = k pi h / (2L), c = sqrt(E/rho), found to
#    1e-9; against the continuum's k pi c / L they are within the mesh's dispersion x^2/6
#    (sin x / x > 1 - x^2/6); six rigid modes (|lambda| < 1e-9 of the first elastic one);
#    the modes M-orthonormal to 1e-10 (M: the lumped masses of the regular grid); the file
#    at path read back by MODAL_ANALYSIS(None, 0, path) as written; on 2 ranks with the body
#    owned by rank 1, the same eigenvalues.
# 2. A 'BC-MODAL' body with all its modes moves as the 'BC' body (a FIX_POINT, a point force,
#    gravity, damping, a spin): the same nodal displacements to 1e-12 and velocities to 1e-10
#    of their size; with the rigid modes and five elastic ones (Solfec-1.0's
#    inp/rotating-bar.py), a spinning bar keeps its energy to 2e-3 over 1 s, its kinetic
#    energy within 2e-3 of the BC body's.
# 3. Bad input: clear errors.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

cat >"$TMP/bar.py" <<'PY'
import math, sys, os
L, a, nz, E, rho = 1.0, 0.1, 10, 1e9, 1e3
nodes = [-a/2,-a/2,0, a/2,-a/2,0, a/2,a/2,0, -a/2,a/2,0, -a/2,-a/2,L, a/2,-a/2,L, a/2,a/2,L, -a/2,a/2,L]
sol = SOLFEC('DYNAMIC', 1e-3, 'out')
bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=E, poisson=0.0, density=rho)
if len(sys.argv) > 1:  # a body before it: on 2 ranks the bar is owned by rank 1
    BODY(sol, 'RIGID', SPHERE((5, 0, 0), 0.1, 0, 0), bulk)
mesh = HEX(nodes, 1, 1, nz, 0, [0]*6)
b = BODY(sol, 'FINITE_ELEMENT', mesh, bulk)
num = 60
vals, vecs = MODAL_ANALYSIS(b, num, 'out/modes')
N = 3 * mesh.nnod
ok = len(vals) == num and len(vecs) == num * N
h, c = L / nz, math.sqrt(E / rho)
rigid = max(abs(v) for v in vals[:6]) / vals[6]
ok = ok and rigid < 1e-9 and vals[6] > 0
worst_d = worst_c = 0
for k in (1, 2, 3):
    x = k * math.pi * h / (2 * L)
    lam = ((2 / h) * c * math.sin(x)) ** 2
    d = min(abs(v - lam) / lam for v in vals)
    w = math.sqrt(min(vals, key=lambda v: abs(v - lam)))
    e = abs(w - k * math.pi * c / L) / (k * math.pi * c / L)
    worst_d = max(worst_d, d)
    ok = ok and d < 1e-9 and e < x * x / 6
    worst_c = max(worst_c, e / (x * x / 6))
# lumped masses of the regular grid: rho h_x h_y h_z times 1/2 per direction the node is on a face of
m = [rho * a * a * h * 0.25 * (0.5 if (i // 4) in (0, nz) else 1) for i in range(mesh.nnod)]
mass_ok = abs(sum(m) - rho * a * a * L) < 1e-12 * rho * a * a * L
orth = 0
for i in range(num):
    vi = vecs[i*N:(i+1)*N]
    for j in range(i, num):
        vj = vecs[j*N:(j+1)*N]
        s = sum(m[k // 3] * vi[k] * vj[k] for k in range(N))
        orth = max(orth, abs(s - (1 if i == j else 0)))
ok = ok and mass_ok and orth < 1e-10
back = MODAL_ANALYSIS(None, 0, 'out/modes')
ok = ok and back[0] == vals and back[1] == vecs and os.path.getsize('out/modes') == 8 + 8 * num * (N + 1)
if RANK() == 0:
    print('# rigid %.1e, axial modes off the chain %.1e, off the continuum %.2f of x^2/6, M-orthonormal to %.1e' % (rigid, worst_d, worst_c, orth))
    print('EIG ' + ' '.join('%.10e' % v for v in vals[6:]))
    print('PASSED' if ok else 'FAILED')
PY
timeout 120 "$MOREAU" -mb_quiet "$TMP/bar.py" >"$TMP/bar1.txt" 2>&1
grep '^#' "$TMP/bar1.txt"
check "free-free bar: rigid modes, axial frequencies (exact chain; continuum within x^2/6), M-orthonormal to 1e-10, the file read back" grep -qx PASSED "$TMP/bar1.txt"
mkdir -p "$TMP/r2" && cd "$TMP/r2"
timeout 120 $MPIRUN -np 2 "$MOREAU" -mb_quiet "$TMP/bar.py" owned-by-rank-1 >"$TMP/bar2.txt" 2>&1
cd "$TMP"
check "2 ranks, the bar owned by rank 1: the same checks and the same eigenvalues" \
  bash -c "grep -qx PASSED '$TMP/bar2.txt' && [ \"\$(grep ^EIG '$TMP/bar1.txt')\" = \"\$(grep ^EIG '$TMP/bar2.txt')\" ]"

cat >"$TMP/same.py" <<'PY'
a, L = 0.1, 0.4
def bar(x0):
    nodes = [-a,-a,-L, a,-a,-L, a,a,-L, -a,a,-L, -a,-a,L, a,-a,L, a,a,L, -a,a,L]
    m = HEX(nodes, 1, 1, 4, 0, [0]*6)
    TRANSLATE(m, (x0, 0, 0))
    return m
sol = SOLFEC('DYNAMIC', 1e-3, 'out')
bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=1e7, poisson=0.25, density=1e3)
b0 = BODY(sol, 'FINITE_ELEMENT', bar(0), bulk)
data = MODAL_ANALYSIS(b0, 60, 'out/modes')
b1 = BODY(sol, 'FINITE_ELEMENT', bar(5), bulk, form='BC')
b2 = BODY(sol, 'FINITE_ELEMENT', bar(10), bulk, form='BC-MODAL', base=data)
b1.scheme = 'DEF_LIM'
for b in (b1, b2):
    b.damping = 1e-3
    INITIAL_VELOCITY(b, (0, 0, 1), (1, 0, 0.5))
    FORCE(b, 'SPATIAL', (b.center[0] + a, a, L), (1, 0, 0), 1e3)
FIX_POINT(b1, (5-a, -a, -L))
FIX_POINT(b2, (10-a, -a, -L))
GRAVITY(sol, (0, 0, -10))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-12, 1000), 0.1)
dq = max(abs(x - y) for x, y in zip(b1.conf, b2.conf)) / max(abs(x) for x in b1.conf)
du = max(abs(x - y) for x, y in zip(b1.velo, b2.velo)) / max(abs(x) for x in b1.velo)
print('# BC-MODAL with all 60 modes vs BC after 0.1 s: displacements %.1e, velocities %.1e of their size (scheme %s)' % (dq, du, b2.scheme))
print('PASSED' if dq < 1e-12 and du < 1e-10 and b2.scheme == 'DEF_LIM' else 'FAILED')
PY
timeout 120 "$MOREAU" -mb_quiet "$TMP/same.py" >"$TMP/same.txt" 2>&1
grep '^#' "$TMP/same.txt"
check "a BC-MODAL body with all its modes moves as the BC body" grep -qx PASSED "$TMP/same.txt"

cat >"$TMP/spin.py" <<'PY'
nodes = [-0.05,-0.05,-0.5, 0.05,-0.05,-0.5, 0.05,0.05,-0.5, -0.05,0.05,-0.5, -0.05,-0.05,0.5, 0.05,-0.05,0.5, 0.05,0.05,0.5, -0.05,0.05,0.5]
mesh = HEX(nodes, 2, 2, 20, 0, [0]*6)
s0 = SOLFEC('DYNAMIC', 1.0, 'out0')  # the modes' own SOLFEC object, as Solfec's decks do
b0 = BODY(s0, 'FINITE_ELEMENT', COPY(mesh), BULK_MATERIAL(s0, model='KIRCHHOFF', young=200E4, poisson=0.26, density=7.8E3))
d = MODAL_ANALYSIS(b0, 45, 'out0/modes')
sl = SOLFEC('DYNAMIC', 1/64., 'out')
bl = BULK_MATERIAL(sl, model='KIRCHHOFF', young=200E4, poisson=0.26, density=7.8E3)
N = mesh.nnod * 3
sel = (0, 1, 2, 3, 4, 5, 13, 18, 25, 33, 38)  # inp/rotating-bar.py's
b1 = BODY(sl, 'FINITE_ELEMENT', TRANSLATE(COPY(mesh), (5, 0, 0)), bl, form='BC')
b1.scheme = 'DEF_LIM'
b2 = BODY(sl, 'FINITE_ELEMENT', TRANSLATE(COPY(mesh), (10, 0, 0)), bl, form='RO', modal=([d[0][j] for j in sel], [x for j in sel for x in d[1][j*N:(j+1)*N]]))
for b in (b1, b2):
    INITIAL_VELOCITY(b, (0, 0, 0), (1, 0, 0))
e0 = ENERGY(sl, b2)
RUN(sl, NEWTON_SOLVER(), 1.0)
e1, e2 = ENERGY(sl, b1), ENERGY(sl, b2)
drift = abs(e2[0] + e2[1] - e0[0] - e0[1]) / (e0[0] + e0[1])
dbc = abs(e2[0] - e1[0]) / e1[0]
print("# 'RO' (BC-MODAL) spinning bar, 6 rigid + 5 elastic modes: energy %.6g -> %.6g (%.1e); kinetic %.1e off the BC body's" % (e0[0] + e0[1], e2[0] + e2[1], drift, dbc))
print('PASSED' if drift < 2e-3 and dbc < 2e-3 and abs(sl.time - 1) < 1e-9 else 'FAILED')
PY
timeout 120 "$MOREAU" -mb_quiet "$TMP/spin.py" >"$TMP/spin.txt" 2>&1
grep '^#' "$TMP/spin.txt"
check "a reduced spinning bar keeps its energy" grep -qx PASSED "$TMP/spin.txt"

# --- bad input
err() { # err NAME PATTERN DECK-LINES: a deck with a FINITE_ELEMENT body b (4 HEX8) and a rigid r
  local n=$1 pat=$2
  cat >"$TMP/err.py" <<PY
nodes = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,4, 1,0,4, 1,1,4, 0,1,4]
sol = SOLFEC('DYNAMIC', 1e-3, 'out')
bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=1e6, poisson=0.25, density=1e3)
b = BODY(sol, 'FINITE_ELEMENT', HEX(nodes, 1, 1, 4, 0, [0]*6), bulk)
r = BODY(sol, 'RIGID', SPHERE((5, 0, 0), 0.5, 0, 0), bulk)
$3
PY
  expect_error "$n" "$pat" timeout 60 "$MOREAU" -mb_quiet "$TMP/err.py"
}
err "MODAL_ANALYSIS of a rigid body" "MODAL_ANALYSIS: body 1 is of kind RIGID, which has no stiffness" "MODAL_ANALYSIS(r, 3, 'out/m')"
err "num above the unknowns" "MODAL_ANALYSIS: body 0 has 60 unknowns \(3 per node\): num must be at most that, got 61" "MODAL_ANALYSIS(b, 61, 'out/m')"
err "num 0 with a body" "num must be positive when a body is given" "MODAL_ANALYSIS(b, 0, 'out/m')"
err "no path" "MODAL_ANALYSIS: path must be a file name" "MODAL_ANALYSIS(b, 3)"
err "bad verbose" "verbose must be 'ON' or 'OFF', got 'YES'" "MODAL_ANALYSIS(b, 3, 'out/m', verbose='YES')"
err "no body, no file" "MODAL_ANALYSIS: neither a body nor a file of modes at path='out/none'" "MODAL_ANALYSIS(None, 0, 'out/none')"
err "BC-MODAL without a base" "BODY: the BC-MODAL form needs its base" "BODY(sol, 'FINITE_ELEMENT', HEX(nodes, 1, 1, 4, 0, [0]*6), bulk, form='BC-MODAL')"
err "a base of the wrong size" "BODY: base has 2 values and 100 vector entries; the mesh has 60 unknowns" "BODY(sol, 'FINITE_ELEMENT', HEX(nodes, 1, 1, 4, 0, [0]*6), bulk, form='BC-RO', base=([1, 2], [0.0]*100))"
err "a REGISTER_BASE label" "base='pod' names a REGISTER_BASE base, which moreau does not have" "BODY(sol, 'FINITE_ELEMENT', HEX(nodes, 1, 1, 4, 0, [0]*6), bulk, form='BC-RO', base='pod')"
err "a linearly dependent base" "E\^T \(M \+ 0\.? K\) E of its base E is not positive definite" "d = MODAL_ANALYSIS(b, 2, 'out/m'); BODY(sol, 'FINITE_ELEMENT', HEX(nodes, 1, 1, 4, 0, [0]*6), bulk, form='BC-RO', base=([0, 0], d[1][:60] * 2))"
