#!/usr/bin/env bash
# scripts/scaling (issue 5's scaling study): a real two-point series on a tiny deck writes
# its table, plots and JSON with the columns the study reads; its -log_view parser survives
# another rank's output printed into rank 0's table; bad options get a message naming them.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
"$PY" -c 'import matplotlib' 2>/dev/null || { echo "no matplotlib for $PY"; exit 77; }
SC="$MB_ROOT/scripts/scaling"
cd "$TMP"

# a strong series of 27 spheres on 1 and 2 ranks, 50 steps: in flight, but enough to
# exercise the runs, balance, ghosts, the log parsing and the tables
out=$(timeout 300 "$PY" "$SC" --series strong --decks spheres --spheres 3x3x3 --ranks 1,2 --time 0.05 \
  --mpirun "$MPIRUN" --moreau "$MOREAU" --out "$TMP/sc" 2>&1); rc=$?
[ $rc -eq 0 ] || echo "$out" | tail -n 10 | sed 's/^/# /'
check "a 1-2 rank strong series runs" test $rc -eq 0
check "it writes scaling.md, scaling.json and scaling-strong.png" \
  bash -c '[ -s "$0/scaling.md" ] && [ -s "$0/scaling.json" ] && [ -s "$0/scaling-strong.png" ]' "$TMP/sc"
check "the table has a row per rank count, 32 bodies and 50 steps each" \
  bash -c 'grep -qE "^\| spheres \| 3x3x3 \| 1 \| 32 \| 50 \|" "$0" && grep -qE "^\| spheres \| 3x3x3 \| 2 \| 32 \| 50 \|" "$0"' "$TMP/sc/scaling.md"
# the numbers the study reads, recomputed from the two runs' own wall times and logs
check "speed-up and efficiency of the 2-rank run follow from the wall times; it reports ghosts and a METIS partition" "$PY" - "$TMP/sc/scaling.json" <<'PY'
import json, sys
rs = {r["ranks"]: r for r in json.load(open(sys.argv[1]))["results"]}
one, two = rs[1], rs[2]
s = (one["wall"] / one["steps"]) / (two["wall"] / two["steps"])
print("# walls %.3f / %.3f s: speed-up %.3f (table %.3f), efficiency %.3f" % (one["wall"], two["wall"], s, two["speedup"], two["efficiency"]))
ok = abs(two["speedup"] - s) < 1e-9 and abs(two["efficiency"] - s / 2) < 1e-9 and one["speedup"] == 1.0
ok = ok and two.get("edgecut", 0) > 0 and two["events"]["Ghost"]["msgs"] > 0
sys.exit(0 if ok else 1)
PY

# the parser: rank 1's -malloc_view lines printed into the middle of rank 0's -log_view row
check "the -log_view parser skips a row another rank printed into, and reads the rest" "$PY" - "$SC" <<'PY'
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("scaling", sys.argv[1])
spec = importlib.util.spec_from_loader("scaling", loader)
m = importlib.util.module_from_spec(spec)
loader.exec_module(m)
log = """MbGhost              300 1.0 2.2179e-02 1.1 0.00e+00 0.0 6.9e+02 1.8e+04 3.9e+02  3  0  3 46  3   3  0  3 46  3     0
MbSolve              300 1.0 2.6731e-01 1.0 1.52e+07 1.0 1.9e+04 6.7e+02 7.5e+03 33 100 91 46 55  33 100 91 46 55   113
MbSolverSolve        192 1.0 2.4250e-01 1.0 [1] Maximum memory PetscMalloc()ed 4841072 maximum size of entire process 65175552
[1] Memory usage sorted by function
"""
ev = m.parse_log(log)["events"]
ok = set(ev) == {"Ghost", "Solve"} and ev["Ghost"]["msgs"] == 690.0 and ev["Solve"]["reductions"] == 7500.0
print("# events read: %s" % sorted(ev))
sys.exit(0 if ok else 1)
PY

expect_error "scaling --ranks 0" "--ranks: ranks must be >= 1" "$PY" "$SC" --ranks 0 --dry-run --moreau "$MOREAU"
expect_error "scaling --time -1" "--time: must be > 0, got -1" "$PY" "$SC" --time -1 --dry-run --moreau "$MOREAU"
