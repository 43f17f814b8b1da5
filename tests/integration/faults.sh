#!/usr/bin/env bash
# The fault catalogue (issue 23): inputs and situations that once got through silently or
# crashed, each reproduced and checked by its message or its effect, on 1 and more ranks
# where it matters. Add a case here for every fault found.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# --- every deck solver choice reaches the solver (NEWTON_SOLVER once ran Gauss-Seidel)
for solver in "GAUSS_SEIDEL_SOLVER(1e-6, 100):constraint solver gauss_seidel" "NEWTON_SOLVER(1e-8, 50):constraint solver newton" "PENALTY_SOLVER():constraint solver gauss_seidel"; do
  call=${solver%%:*} want=${solver#*:}
  cat >"$TMP/solver.py" <<PY
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out-solver')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
SURFACE_MATERIAL(s, model='SPRING_DASHPOT', friction=0.3, spring=1e5, dashpot=10)
m = BULK_MATERIAL(s)
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 1,-1,-1, 1,1,-1, -1,1,-1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1, 1, 1, [1]*6), m)
BODY(s, 'RIGID', HEX([0,0,0, 0.2,0,0, 0.2,0.2,0, 0,0.2,0, 0,0,0.2, 0.2,0,0.2, 0.2,0.2,0.2, 0,0.2,0.2], 1, 1, 1, 1, [1]*6), m)
RUN(s, $call, 0.01)
PY
  for np in 1 2; do
    out=$(timeout 120 $MPIRUN -np $np "$MOREAU" -mb_solver_view "$TMP/solver.py" 2>&1)
    check "$call on $np rank(s): -mb_solver_view prints '$want'" grep -q "$want" <<<"$out"
  done
done
