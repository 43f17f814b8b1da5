#!/usr/bin/env bash
# The Delassus matrix W past PETSc's 32-bit indices: a row of W has a block for every
# constraint on its bodies, so a body with n constraints makes n² blocks; 16000 FIX_POINTs
# on one rigid body make 2.56e8 blocks, 2.3e9 values, past 2³¹ − 1. The run must stop with
# an error that names the size, the body and its constraints (PETSc's own said only
# "Product of two integers 256000000 9 overflow").
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
cd "$TMP"
cat >w.py <<'PY'
import sys
n = int(sys.argv[1])
sol = SOLFEC('DYNAMIC', 1E-3, 'out')
mat = BULK_MATERIAL(sol, model = 'KIRCHHOFF', young = 1E6, poisson = 0.25, density = 1E3)
b = BODY(sol, 'RIGID', HULL([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1), mat)
for i in range(n): FIX_POINT(b, (float(i) / n, 0.5, 0.5))
RUN(sol, GAUSS_SEIDEL_SOLVER(1E-3, 10), 1E-3)
PY
expect_error "16000 constraints on one body: W's size past 32-bit indices is named, with the body" \
  "W of 16000 constraints needs 256000000 3x3 blocks on one rank.*body 0 has 16000 constraints" timeout 300 "$MOREAU" w.py 16000
