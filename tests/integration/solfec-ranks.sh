#!/usr/bin/env bash
# Solfec-1.0's reference decks (../shared/solfec-1.0) print the same on 3 ranks as on 1
# (scripts/solfec-ranks; doc/solfec-corpus.md, "On 3 ranks"): two of the fastest, each run
# from a fresh copy on 1 rank and on 3 (mpirun, per-rank output files). BM23_hexa reads its
# result with HISTORY (the same on every rank; every rank prints the deck's FAILED, which it
# prints on 1 rank too: doc/solfec-corpus.md, "The decks' own checks"); BM02_tetra
# prints PASSED on rank 0 (its DISPLACEMENT is None on the ranks that do not own the body,
# as in Solfec-1.0's MPI build, so ranks 1 and 2 raise and the job exits 1). Both results
# files must also agree. Then the comparison must see a difference: the 3-rank run of a
# deck whose Young's modulus is changed on the ranks (a wrapper around moreau).
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
CORPUS="$MB_ROOT/../shared/solfec-1.0"
[ -d "$CORPUS" ] || { echo "no Solfec-1.0 corpus at $CORPUS"; exit 77; }
RANKS=("$PY" "$MB_ROOT/scripts/solfec-ranks" --corpus "$CORPUS" --scratch "$TMP" --cap 240 --logs "$TMP/logs")

out=$(timeout 600 "${RANKS[@]}" --moreau "$MOREAU" tests/BM23/BM23_hexa.py tests/BM02/BM02_tetra.py 2>&1); rc=$?
check "scripts/solfec-ranks: BM23_hexa and BM02_tetra print the same on 1 and 3 ranks (exit 0)" test $rc -eq 0
[ $rc -eq 0 ] || echo "$out" | sed 's/^/# /'
check "BM23_hexa: same printed verdict (FAILED), bit-identical results, 3 ranks exit 0" \
  grep -qE '^tests/BM23/BM23_hexa.py +same: yes +\| 1: FAILED \| 3: FAILED \|.*results: bit-identical \| exit 0/0' <<<"$out"
check "BM02_tetra: PASSED on 1 rank and on rank 0 of 3, results bit-identical" \
  grep -qE '^tests/BM02/BM02_tetra.py +same: yes +\| 1: PASSED \| 3: PASSED \|.*results: bit-identical' <<<"$out"

# A moreau that, on more than one rank, runs the deck with Young's modulus 1 % higher:
# the comparison must say the printed results differ and exit 1.
cat >"$TMP/moreau-perturbed" <<SH
#!/usr/bin/env bash
if [ "\${OMPI_COMM_WORLD_SIZE:-1}" -gt 1 ]; then
  sed -i 's/young = 62.8E+09/young = 63.428E+09/' "\$1"
fi
exec "$MOREAU" "\$@"
SH
chmod +x "$TMP/moreau-perturbed"
out=$(timeout 300 "${RANKS[@]}" --moreau "$TMP/moreau-perturbed" tests/BM02/BM02_tetra.py 2>&1); rc=$?
check "a 3-rank run that computes something else: exit 1, 'same: no'" \
  bash -c '[ $0 -eq 1 ] && grep -qE "^tests/BM02/BM02_tetra.py +same: no" <<<"$1"' "$rc" "$out"
[ $? -eq 0 ] || echo "$out" | sed 's/^/# /'
