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
