#!/usr/bin/env bash
# The decks of cases/ run a second time where their results are (READ mode, as Solfec-1.0:
# RUN does nothing) post-process the stored results: the second run says READ mode and
# prints the same verdict and numbers as the first, or says in one line why its check
# needs the run (and prints no verdict). Issue 36, item 1.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
CASES="$MB_ROOT/cases"
unset PETSC_OPTIONS # lib.sh's -mb_write would make the second run compute again

# the lines a deck prints itself (not moreau's notices "[...]" nor its run summary)
verdict() { grep -vE '^\[|^moreau|READ|results:|^ *$|^#' <<<"$1"; }

# twice NAME DECK ARGS...: run the deck twice into a fresh output directory
twice() {
  local name=$1 deck=$2 out1 out2 rc1 rc2; shift 2
  rm -rf "$TMP/$name"
  out1=$(cd "$TMP" && timeout 120 "$MOREAU" -mb_output_dir "$TMP/$name" "$CASES/$deck.py" "$@" 2>&1); rc1=$?
  out2=$(cd "$TMP" && timeout 120 "$MOREAU" -mb_output_dir "$TMP/$name" "$CASES/$deck.py" "$@" 2>&1); rc2=$?
  check "$name: the first run computes and prints PASSED" bash -c '[ $1 -eq 0 ] && ! grep -q READ <<<"$0" && grep -qx PASSED <<<"$0"' "$out1" $rc1
  check "$name: the second run is in READ mode and exits 0" bash -c '[ $1 -eq 0 ] && grep -q "READ" <<<"$0"' "$out2" $rc2
  SAME=$(diff <(verdict "$out1") <(verdict "$out2"))
  R1=$out1 R2=$out2
}

# decks whose check is made again from the stored results: the same lines (verdict and numbers)
for spec in "default 0.1" "fe_pressure" "fe_bricks" "fe_bar_pull" "tumbling_box" "penalty_ball" "spring_oscillator stable GALPHA"; do
  set -- $spec
  name=$1; twice "$1" "$@"
  check "$name: READ mode prints the same verdict and numbers as the run" test -z "$SAME"
  [ -z "$SAME" ] || sed 's/^/# /' <<<"$SAME" | head -n 8
done

# the energy check of RIG_POS comes from /history: the same numbers; the momentum was
# sampled by a CALLBACK every step, which READ mode says it does not have
twice torque_free torque_free RIG_POS 1
energy() { grep -o 'torque_free RIG_POS: .*(lowest [^)]*)' <<<"$1"; grep -xE 'PASSED|FAILED' <<<"$1"; }
check "torque_free RIG_POS: READ mode prints the same energy drift and verdict as the run" \
  bash -c '[ -n "$0" ] && [ "$0" = "$1" ]' "$(energy "$R1")" "$(energy "$R2")"

# decks whose check needs every step (a CALLBACK), which the results do not keep: one
# clear line, no verdict, exit 0
cannot() {
  local name=$1 out1 out2 rc2; shift
  rm -rf "$TMP/$name"
  out1=$(cd "$TMP" && timeout 120 "$MOREAU" -mb_output_dir "$TMP/$name" "$CASES/$@" 2>&1)
  out2=$(cd "$TMP" && timeout 120 "$MOREAU" -mb_output_dir "$TMP/$name" "$CASES/$@" 2>&1); rc2=$?
  check "$name: READ mode says in one line that the check needs the run, prints no verdict, exits 0" \
    bash -c '[ $1 -eq 0 ] && [ $(grep -c "READ mode: the .* cannot be made from the stored results" <<<"$0") -eq 1 ] && ! grep -qxE "PASSED|FAILED" <<<"$0"' "$out2" $rc2
}
cannot torque_free-neg torque_free.py RIG_NEG 1
cannot lages_dolly lages_dolly.py curvature CDM 0.01
