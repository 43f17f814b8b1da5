#!/usr/bin/env bash
# Memory per rank (issue 5): the data a rank allocates (the summary's "data memory" line,
# the peak of what is PetscMalloc()ed, reported when PETSc tracks it) falls with the ranks.
# Spheres in a box, N = 1000, 0.2 s: about 3.6 MB on one rank, 2.0 on each of two (both
# ranks hold ghosts and exchange buffers on top of their half, hence the 0.75 bound: a
# rank that kept every body, or O(N) arrays, would be at 1 or above).
source "$(dirname "$0")/../lib.sh"
opts=(-malloc_view -malloc_view_threshold 1e15 -mb_output_dir "$TMP/o")
data() { grep -oE "data memory \(PetscMalloc\(\)ed, peak\) per rank [0-9.]+ MB \(min [0-9.]+ MB\)" "$1"; }
cd "$TMP" || exit 1
MOREAU_PYTHONPATH="$MB_ROOT/python" "$MOREAU" "${opts[@]}" "$MB_ROOT/bench/spheres_in_box.py" 1000 0.2 >"$TMP/p1" 2>&1
check "1 rank: the summary reports the data memory" grep -qE "data memory .* per rank [0-9.]+ MB" "$TMP/p1"
$MPIRUN -np 2 -x MOREAU_PYTHONPATH="$MB_ROOT/python" "$MOREAU" "${opts[@]}" "$MB_ROOT/bench/spheres_in_box.py" 1000 0.2 >"$TMP/p2" 2>&1
check "2 ranks: the summary reports the data memory" grep -qE "data memory .* per rank [0-9.]+ MB" "$TMP/p2"
m1=$(data "$TMP/p1" | awk '{print $7}'); m2=$(data "$TMP/p2" | awk '{print $7}')
echo "# data memory per rank: 1 rank $m1 MB, 2 ranks (max) $m2 MB"
check "2 ranks: the largest rank holds under 0.75 of one rank's data ($m2 against $m1 MB)" \
  awk -v a="$m1" -v b="$m2" 'BEGIN { exit !(a > 0 && b > 0 && b < 0.75 * a) }'
MOREAU_PYTHONPATH="$MB_ROOT/python" "$MOREAU" -mb_output_dir "$TMP/o" "$MB_ROOT/bench/spheres_in_box.py" 1000 0.01 >"$TMP/p0" 2>&1
check "without tracking: the run's summary, but no data memory line (nothing made up)" \
  bash -c "grep -q 'peak memory per rank' '$TMP/p0' && ! grep -q 'data memory' '$TMP/p0'"
