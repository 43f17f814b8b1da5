#!/usr/bin/env bash
# The command line as a user types it (issue 36, item 3): moreau's options come from one table
# (src/core/options.c) that --help prints with defaults and README's table names; a
# misspelled -mb_* option is an error naming the nearest one, on every rank, before anything
# is written; Solfec-1.0's flags (-w, -s, -i; -v, -f, -g, -c refused with the way to go) and
# moreau's -mb_* options are taken wherever they stand, other arguments after the deck are
# the deck's; an option nothing read is named at the end.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
unset PETSC_OPTIONS # the deck here shows READ mode and -w itself
cd "$TMP"
cat >d.py <<'PY'
import sys
print("argv", sys.argv[1:], "SUBDIR", SUBDIR())
s = SOLFEC('DYNAMIC', 1e-3, 'out')
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), BULK_MATERIAL(s))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.002)
print("outpath", s.outpath, "mode", s.mode)
PY

# --- one table: README's options and --help's are the same names
help=$("$MOREAU" --help)
readme=$(awk '/^\| option \| meaning \|/{on=1; next} on && /^\|/{print; next} on{exit}' "$MB_ROOT/README.md" | cut -d'|' -f2)
names_help=$(grep -oE -- '^  -mb_[a-z_0-9]+\*?' <<<"$help" | sed 's/^  //' | sort -u)
names_readme=$(grep -oE -- '-mb_[a-z_0-9]+(\*|<name>)?' <<<"$readme" | sort -u)
missing=""
for o in $names_help; do
  case "$o" in -mb_adapt_b|-mb_adapt_zeta|-mb_adapt_alpha|-mb_adapt_reject|-mb_adapt_reject_tol|-mb_adapt_length|-mb_adapt_unit_free|-mb_adapt_tol|-mb_adapt_ratio) o='-mb_adapt_<name>' ;; esac
  grep -qxF -- "$o" <<<"$names_readme" || missing="$missing $o"
done
check "every option --help lists is in README's table of options" test -z "$missing"
[ -z "$missing" ] || echo "# not in README:$missing"
extra=""
for o in $names_readme; do
  [ "$o" = '-mb_adapt_<name>' ] && continue
  grep -qxF -- "$o" <<<"$names_help" || extra="$extra $o"
done
check "every option README's table names is in --help" test -z "$extra"
[ -z "$extra" ] || echo "# not in --help:$extra"
check "--help gives defaults (-mb_scheme_rtol R ... (default 1e-10))" grep -qE -- '^  -mb_scheme_rtol R .*\(default 1e-10\)$' <<<"$help"
check "--help names Solfec's flags" grep -q -- "Solfec-1.0's flags: -w (-mb_write), -s SUB" <<<"$help"

# --- misspelled options: an error naming the nearest, status 2, nothing written
expect_error "-mb_quite: unknown, did you mean -mb_quiet" "^moreau: unknown option -mb_quite \(did you mean -mb_quiet\?" "$MOREAU" -mb_quite d.py
"$MOREAU" -mb_checkpoint_wal 1 d.py >o 2>&1; rc=$?
check "-mb_checkpoint_wal 1: exit 2 and -mb_checkpoint_wall named" bash -c '[ '$rc' = 2 ] && grep -q "unknown option -mb_checkpoint_wal (did you mean -mb_checkpoint_wall?" o'
check "... and the deck did not run (no output directory)" test ! -e out
expect_error "a misspelled option in PETSC_OPTIONS is refused too" "unknown option -mb_progres \(did you mean -mb_progress\?" env PETSC_OPTIONS="-mb_progres 2" "$MOREAU" d.py
expect_error "a misspelled option after the deck is refused too" "unknown option -mb_qiuet \(did you mean -mb_quiet\?" "$MOREAU" d.py -mb_qiuet
mpirun_files 60 ranks 2 "$MOREAU" -mb_quite d.py >/dev/null; rc=$?
check "2 ranks: the job ends non-zero, not hanging (rc=$rc)" bash -c '[ '$rc' -ne 0 ] && [ '$rc' -ne 124 ]'
check "2 ranks: rank 0 names the option once, rank 1 prints nothing" bash -c '[ "$(grep -c "unknown option -mb_quite" ranks/rank.0)" = 1 ] && ! grep -q "unknown option" ranks/rank.1'
expect_error "an option that needs a value, last on the line: named with what it takes" "option -mb_progress needs a value \(S\)" "$MOREAU" d.py -mb_progress

# --- Solfec's flags, and options after the deck
out=$("$MOREAU" d.py 2>&1)
check "a first run writes (WRITE mode)" grep -q "mode WRITE" <<<"$out"
out=$("$MOREAU" d.py 2>&1)
check "a second run reads (READ mode, as Solfec-1.0)" grep -q "mode READ" <<<"$out"
out=$("$MOREAU" d.py -w 2>&1)
check "Solfec's -w after the deck computes anew (as solfec deck.py -w)" bash -c 'grep -q "mode WRITE" <<<"$0" && grep -q "^argv \[\] " <<<"$0"' "$out"
out=$("$MOREAU" -w d.py -s sub one -i 5 two 2>&1); rc=$?
check "-s sub: SUBDIR() is 'sub', outpath out/sub, the results in out/sub/d.h5" bash -c '[ '$rc' = 0 ] && grep -q "SUBDIR sub" <<<"$0" && grep -q "outpath out/sub mode WRITE" <<<"$0" && [ -f out/sub/d.h5 ]' "$out"
check "... the deck's own arguments are the rest: ['one', 'two']" grep -q "^argv \['one', 'two'\] " <<<"$out"
out=$("$MOREAU" -w d.py -mb_output_dir od x 2>&1)
check "-mb_output_dir od after the deck is taken as moreau's (results in od/d.h5; argv ['x'])" bash -c 'grep -q "^argv \[.x.\] " <<<"$0" && [ -f od/d.h5 ]' "$out"
out=$("$MOREAU" -w d.py -- -mb_quiet -w 2>&1)
check "after -- every argument is the deck's: ['-mb_quiet', '-w']" grep -q "^argv \['-mb_quiet', '-w'\] " <<<"$out"
expect_error "Solfec's -v (viewer): refused, pointing at ParaView" "Solfec's viewer \(-v\) is not part of moreau: run the deck, then open OUTDIR/<deck name>.xmf in ParaView" "$MOREAU" -v d.py
expect_error "Solfec's -c: refused, pointing at checkpoints and -mb_restart" "-c \(continue writing after the stored results\) is not supported: .*-mb_restart" "$MOREAU" d.py -c

# --- the deck itself
cp d.py deck.txt
out=$("$MOREAU" -w deck.txt 2>&1); rc=$?
check "a deck file not ending in .py runs (Solfec takes any file)" bash -c '[ '$rc' = 0 ] && grep -q "^argv \[\]" <<<"$0"' "$out"
expect_error "a deck that does not exist is named" "'nodeck.txt' is neither an option nor a deck: no such file" "$MOREAU" nodeck.txt

# --- a PETSc option nothing read: named at the end, the run still completes
out=$("$MOREAU" -w -log_veiw d.py 2>&1); rc=$?
check "-log_veiw: a warning naming it, exit 0" bash -c '[ '$rc' = 0 ] && grep -q "warning: option -log_veiw was given but nothing read it" <<<"$0"' "$out"
out=$("$MOREAU" -w -log_view :lv.txt d.py 2>&1)
check "-log_view (read by PETSc) is not warned about" bash -c '! grep -q "nothing read it" <<<"$0" && [ -s lv.txt ]' "$out"
out=$("$MOREAU" -w -mb_solver_gs_simd d.py 2>&1); rc=$?
check "a boolean option with no value before the deck (as PETSc's): the deck is still the deck (rc=$rc)" bash -c '[ '$rc' = 0 ] && grep -q "^argv \[\] " <<<"$0"' "$out"
out=$("$MOREAU" -w -mb_signals 0 d.py x 2>&1); rc=$?
check "... and with its value (-mb_signals 0)" bash -c '[ '$rc' = 0 ] && grep -q "^argv \[.x.\] " <<<"$0"' "$out"
