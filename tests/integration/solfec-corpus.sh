#!/usr/bin/env bash
# Solfec-1.0's decks (../shared/solfec-1.0) through scripts/solfec-corpus: the decks that complete
# in a few seconds each (doc/solfec-corpus.md) must complete; the runner finds the 155 decks and
# classifies a small made-up corpus as it should (needs external: a module or a missing input file; Python error, refused,
# simulating at cap, completes) and --compare names the decks whose outcome changed.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
CORPUS="$MB_ROOT/../shared/solfec-1.0"
[ -d "$CORPUS" ] || { echo "no Solfec-1.0 corpus at $CORPUS"; exit 77; }
RUNNER=("$PY" "$MB_ROOT/scripts/solfec-corpus" --moreau "$MOREAU" --scratch "$TMP")

# Every deck that completes in under ~5 s on the 2-core VM (doc/solfec-corpus.md, c2f44e5: 2-4 s
# each); add more as moreau reads more of the corpus (most decks are Python 2 and fail to compile
# today; these 9 are valid Python 3 already).
FAST=(
  examples/time-series/cached-ts.py
  examples/time-series/labeled-ts.py
  inp/balls.py
  inp/devel/initialise-state-1.py
  inp/devel/rigid-to-fem-1.py
  inp/domino-parallel.py
  inp/domino.py
  inp/elements.py
  inp/inplane.py
)

n=$("${RUNNER[@]}" --corpus "$CORPUS" --list | wc -l)
check "the runner finds the corpus's 155 decks (files that call SOLFEC)" test "$n" -eq 155

list=$(IFS=,; echo "${FAST[*]}")
# a section the runner does not write (scripts/solfec-ranks's "On 3 ranks") survives a rewrite
printf '# old table\n\n## The decks'"'"' own checks\n\nold\n\n## On 3 ranks\n\nkept line\n' >"$TMP/fast.md"
out=$(timeout 300 "${RUNNER[@]}" --corpus "$CORPUS" --cap 30 -j 2 --filter "$list" --out "$TMP/fast.md" --logs "$TMP/fast" 2>&1)
check "rewriting the table keeps its '## On 3 ranks' section, drops the old table" \
  bash -c 'grep -qx "## On 3 ranks" "$0" && grep -qx "kept line" "$0" && ! grep -qx "# old table" "$0" && ! grep -qx old "$0"' "$TMP/fast.md"
tsv="$TMP/fast/solfec-corpus.tsv"
for d in "${FAST[@]}"; do
  check "$d completes" grep -qP "^\Q$d\E\tcompletes\t" "$tsv"
  [ $? -eq 0 ] || { grep -F "$d" "$tsv" | sed 's/^/# /'; tail -n 5 "$TMP/fast/logs/${d//\//__}.log" | sed 's/^/# /'; }
done
check "the table counts every fast deck as completes" grep -qx "| completes | ${#FAST[@]} |" "$TMP/fast.md"
[ $? -eq 0 ] || echo "$out" | tail -n 12 | sed 's/^/# /'

# the classifier on made-up decks (each fails or stops within a few seconds)
fake="$TMP/fake"; mkdir -p "$fake/inp"
printf "s = SOLFEC('DYNAMIC', 0.01, 'out/ext')\nimport parmec\n" >"$fake/inp/ext.py"
printf "s = SOLFEC('DYNAMIC', 0.01, 'out/file')\nTIME_SERIES('inp/nosuch.txt')\n" >"$fake/inp/file.py"
printf "s = SOLFEC('DYNAMIC', 0.01, 'out/py2')\nx = = 1\n" >"$fake/inp/py2.py"
printf "s = SOLFEC('DYNAMIC', 0.01, 'out/name')\nx = UNPHYSICAL_CALL_ABC\n" >"$fake/inp/name.py"
printf "s = SOLFEC('DYNAMIC', 0.01, 'out/ref')\nsv = SICONOS_SOLVER()\n" >"$fake/inp/ref.py"
cat >"$fake/inp/slow.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-4, 'out/slow')
m = BULK_MATERIAL(s)
for i in range(8):
    BODY(s, 'RIGID', SPHERE((0, 0, 2.1 * i), 1, 1, 1), m)
GRAVITY(s, (0, 0, -10))
RUN(s, None, 1e6)
PY
cat >"$fake/inp/ok.py" <<'PY'
s = SOLFEC('DYNAMIC', 0.01, 'out/ok')
BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(s))
RUN(s, None, 0.1)
print('\b\b\b\bFAILED (Computed displacement was 0.5 while reference is 0.25)')
PY
printf "# a helper (no solver)\nx = 1\n" >"$fake/inp/helper.py"
# a deck whose input a plain Python generate.py of its folder writes (as Solfec-1.0's
# inp/devel/long-input-motion): the runner runs it first, in that folder
mkdir -p "$fake/inp/gen"
cat >"$fake/inp/gen/generate.py" <<'PY'
f = open('series.txt', 'w')
for i in range(100):
    f.write('%d %d\n' % (i, (-1) ** i))
f.close()
PY
cat >"$fake/inp/gen/series.py" <<'PY'
s = SOLFEC('DYNAMIC', 0.01, 'out/gen')
ts = TIME_SERIES('inp/gen/series.txt')
print('series of %d points' % len(ts.times))
RUN(s, None, 0.05)
PY
timeout 120 "${RUNNER[@]}" --corpus "$fake" --cap 10 --kill-after 3 --out "$TMP/fake.md" --logs "$TMP/fakelogs" >"$TMP/fake.out" 2>&1
ftsv="$TMP/fakelogs/solfec-corpus.tsv"
expect_row() { check "$1" grep -qP "$2" "$ftsv"; }
expect_row "import parmec: needs external (module parmec)" '^inp/ext\.py\tneeds external\tmodule parmec\t'
expect_row "an input file the corpus lacks: needs external (file inp/nosuch.txt)" '^inp/file\.py\tneeds external\tfile inp/nosuch\.txt \(not in the corpus\)\t'
expect_row "a syntax error (neither Python 3 nor 2): Python error (SyntaxError, with the line)" "^inp/py2\.py\tPython error\tSyntaxError: .*inp/py2\.py:2\)\t"
expect_row "an unknown name: Python error (NameError)" "^inp/name\.py\tPython error\tNameError: name 'UNPHYSICAL_CALL_ABC'"
expect_row "a function moreau refuses: refused, naming it" '^inp/ref\.py\trefused\tSICONOS_SOLVER: not supported in moreau'
expect_row "a long run: simulating at cap, with how far it got" '^inp/slow\.py\tsimulating at cap\t(stopped at )?t = '
expect_row "a short run: completes, with its steps" '^inp/ok\.py\tcompletes\t10 steps to t = 0\.1\t'
expect_row "a deck whose folder's generate.py writes its input: run after it, completes" '^inp/gen/series\.py\tcompletes\t5 steps to t = 0\.05\t'
check "generate.py ran in the deck's folder (100 lines), its log beside the deck's" bash -c 'grep -q "series of 100 points" "$0/logs/inp__gen__series.py.log" && test -f "$0/logs/inp__gen__series.py.gen.log"' "$TMP/fakelogs"
check "generate.py is no deck" bash -c '! grep -qP "^inp/gen/generate\.py\t" "$0"' "$ftsv"
check "a deck's own check (Solfec's test decks print PASSED or FAILED): the TSV's check column and the table's section quote it" \
  bash -c 'grep -qP "^inp/ok\.py\tcompletes\t.*\tFAILED: \(Computed displacement was 0\.5 while reference is 0\.25\)$" "$0" && grep -q "^| inp/ok.py | FAILED: (Computed displacement was 0.5" "$1" && grep -q "0 passed, 1 failed" "$1"' "$ftsv" "$TMP/fake.md"
check "a helper that never calls SOLFEC is no deck" bash -c '! grep -q helper "$0"' "$ftsv"
check "the table has the summary, the command line and the commit" bash -c 'grep -q "^| simulating at cap | 1 |" "$0" && grep -q "Generated by .scripts/solfec-corpus .*--cap 10" "$0" && grep -q "moreau commit [0-9a-f]" "$0"' "$TMP/fake.md"

# --compare: one deck's outcome changed
sed 's/^inp\/ok\.py\tcompletes/inp\/ok.py\tPython error/' "$ftsv" >"$TMP/old.tsv"
out=$("${RUNNER[@]}" --compare "$TMP/old.tsv" --against "$ftsv" 2>&1)
check "--compare names the deck whose outcome changed, and only it" bash -c 'grep -q "^inp/ok.py: Python error -> completes" <<<"$0" && grep -q "^1 of 8 decks changed" <<<"$0"' "$out"
[ $? -eq 0 ] || echo "$out" | sed 's/^/# /'

# --reclassify: the run's logs classified again give the same outcomes, and the table says so
cp "$ftsv" "$TMP/before.tsv"
"${RUNNER[@]}" --corpus "$fake" --reclassify --logs "$TMP/fakelogs" --out "$TMP/fake2.md" >/dev/null 2>&1
out=$("${RUNNER[@]}" --compare "$TMP/before.tsv" --against "$ftsv" 2>&1)
check "--reclassify keeps every outcome and notes itself in the table" bash -c 'grep -q "^0 of 8 decks changed" <<<"$0" && grep -q "Reclassified from its logs" "$1"' "$out" "$TMP/fake2.md"
