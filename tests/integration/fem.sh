#!/usr/bin/env bash
# Finite-element bodies in the output: the pressurized cube (cases/fe_pressure.py) writes
# each element's Cauchy stress, which must be the hydrostatic -p I (the exact state of a
# free cube under a uniform pressure, to the SVK nonlinearity, 5e-4 of p), von Mises ~ 0,
# and its surface's nodal displacements, which must be the uniform contraction about the
# centre (-p/(3K) (X - X_c)); on 1 and 2 ranks (the same numbers). Bodies that are not
# meshes keep their body-wide stress (checked in output-layout.sh).
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
CASES="$MB_ROOT/cases"
cd "$TMP"
for np in 1 2; do
  timeout 300 $MPIRUN -np $np "$MOREAU" -mb_quiet -mb_output_dir "$TMP/p$np" "$CASES/fe_pressure.py" >"$TMP/p$np.txt" 2>&1
  check "fe_pressure on $np rank(s) prints PASSED" grep -qx PASSED "$TMP/p$np.txt"
  check "fe_pressure on $np rank(s): element stresses -p I, von Mises ~ 0, surface displacements -p/(3K)(X - Xc)" "$PY" - "$TMP/p$np/fe_pressure.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
fr = f["frames"][sorted(f["frames"])[-1]]
p, K = 1e3, 1e6 / (3 * (1 - 2 * 0.25))
st, mis = fr["surface_stress"][()], fr["surface_mises"][()]
x, d = fr["surface_points"][()], fr["surface_displacement"][()]
X = x - d
want = -p / (3 * K) * (X - 0.5)
e1 = np.max(np.abs(st[:, :3] + p)) / p
e2 = np.max(np.abs(st[:, 3:])) / p
e3 = np.max(mis) / p
e4 = np.max(np.abs(d - want)) / np.max(np.abs(want))
print("# cells %d: normal stress %.2e of p off -p, shear %.2e, von Mises %.2e; displacement %.2e off" % (len(st), e1, e2, e3, e4))
sys.exit(0 if e1 < 2e-3 and e2 < 1e-6 and e3 < 1e-6 and e4 < 1e-2 else 1)
PY
done

# --- FORCE with a callback on a finite-element body: the rigid 9 numbers (their force spread
# over the lumped masses, as gravity: a free bar of 10 kg pushed by 10 N for 0.1 s moves as a
# rigid body at 0.1 m/s, every node) or the body's nodal forces (10/nn N on each node along x:
# momentum 1 kg m/s, kinetic energy 0.05 J = the external work); a torque is refused
cat >"$TMP/fecb.py" <<'PY'
import sys
mode = sys.argv[1]
s = SOLFEC('DYNAMIC', 1e-4, 'out-fecb-' + mode)
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=1e7, poisson=0.25, density=1000)
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,0, 1,0,0, 1,0.1,0, 0,0.1,0, 0,0,0.1, 1,0,0.1, 1,0.1,0.1, 0,0.1,0.1], 4, 1, 1, 1, [1]*6), m)
b.scheme = 'DEF_LIM'
nn = len(b.velo) // 3
def nine(q, u, t, h): return (10, 0, 0, 0, 0, 0, 0, 0, 0)
def nodal(q, u, t, h): return [10.0 / nn if k % 3 == 0 else 0.0 for k in range(3 * nn)]
def torque(q, u, t, h): return (0, 0, 0, 0, 0, 1, 0, 0, 0)
FORCE(b, 'SPATIAL', (0.5, 0.05, 0.05), (1, 0, 0), {'nine': nine, 'nodal': nodal, 'torque': torque}[mode])
RUN(s, None, 0.1)
e = ENERGY(s)
print('FECB %.9f %.9f %.9f %.9f %.9f' % (min(b.velo[0::3]), max(b.velo[0::3]), e[0], e[1], e[2]))
PY
out=$(timeout 120 "$MOREAU" "$TMP/fecb.py" nine 2>&1)
check "FE FORCE callback of 9 numbers: every node at 0.1 m/s after 0.1 s (rigid translation, 1e-9)" \
  awk '/^FECB/ { exit !($2 > 0.1 - 1e-9 && $3 < 0.1 + 1e-9) }' <<<"$out"
out=$(timeout 120 "$MOREAU" "$TMP/fecb.py" nodal 2>&1)
check "FE FORCE callback of nodal forces: kinetic energy 0.05 J (momentum 1 kg m/s) to 1e-3, equal to the external work" \
  awk '/^FECB/ { k = $4; w = $6; exit !(k > 0.04995 && k < 0.05005 && (w - k - $5) < 1e-4 * w && (k + $5 - w) < 1e-4 * w) }' <<<"$out"
expect_error "FE FORCE callback with a torque" "FINITE_ELEMENT body 0: a load callback's torques \(numbers 4 to 9\) must be 0, got 1 at position 5" timeout 120 "$MOREAU" "$TMP/fecb.py" torque

# --- DEF_LIM with contacts under a held factor: a 4x4x6 HEX8 block on a rigid floor
# (bench/fe_floor.py, 64 contacts, 40 steps). By default the factor of A serves up to 10
# steps and W's blocks come from it (MUMPS's entries of A⁻¹) while the step's first CG
# residual keeps it within 1e-6 of the current A; the end state agrees with a factorization
# every step (-mb_fem_refactor 1) and with W's blocks by solves (-mb_fem_inverse_entries 0)
for v in held:"" every:"-mb_fem_refactor 1" solves:"-mb_fem_inverse_entries 0"; do
  # shellcheck disable=SC2086
  (cd "$TMP" && timeout 120 "$MOREAU" ${v#*:} "$MB_ROOT/bench/fe_floor.py" 4 4 6 40 DEF_LIM state "floor-${v%%:*}.txt" >"floor-${v%%:*}.log" 2>&1)
done
cat >"$TMP/floorcmp.py" <<'PY'
import sys
def rd(f): return [float(x) for x in open(f).read().split()]
ref = rd(sys.argv[1]); n = len(ref) // 2
worst = 0
for f in sys.argv[2:]:
    x = rd(f)
    du = max(abs(a - b) for a, b in zip(x[:n], ref[:n])) / max(abs(a) for a in ref[:n])
    dq = max(abs(a - b) for a, b in zip(x[n:], ref[n:])) / max(abs(a) for a in ref[n:])
    print("# %s against a factorization every step: velocities %.2g, displacements %.2g (relative to the largest)" % (f, du, dq))
    worst = max(worst, du, dq)
sys.exit(0 if worst < 1e-6 else 1)
PY
check "DEF_LIM block on a floor, W from a held factor: the end state within 1e-6 of a factorization every step (and of W by solves)" \
  "$PY" "$TMP/floorcmp.py" "$TMP/floor-every.txt" "$TMP/floor-held.txt" "$TMP/floor-solves.txt"
