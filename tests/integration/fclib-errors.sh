#!/usr/bin/env bash
# moreau-fclib on broken FCLIB files (issue 23): a copy of one local and one global problem of
# ../shared/fclib with one dataset altered each (a row pointer negative, past the end,
# decreasing; x, i or a vector shorter than declared; an index out of range; inf or nan in
# q, w, f, x, mu or the solution; mu negative; sizes that disagree). Each is run on 1 and on
# 3 ranks and must exit non-zero on every rank (no "solved" rank), print the message naming
# the dataset, the entry and the bad value once, and neither crash nor hang. The untouched
# copies, a compressed-column copy and a denormal in q still solve.
source "$(dirname "$0")/../lib.sh"
EXE="$MB_BUILD/bin/moreau-fclib"
FCLIB="${MB_FCLIB:-$MB_ROOT/../shared/fclib}"
LOCAL="$FCLIB/fclib_local_problem_test.hdf5" # 48 contacts, W 144 x 144 in compressed rows, 4896 entries
GLOBAL="$FCLIB/faf_Box_Stacks-i0035-31-0.hdf5" # 31 contacts, M 450 x 450, H 450 x 93 (485 triplets)
[ -x "$EXE" ] || { echo "no $EXE (build first)"; exit 77; }
[ -f "$LOCAL" ] && [ -f "$GLOBAL" ] || { echo "no FCLIB problems in $FCLIB"; exit 77; }

# every broken file: NAME BASE DATASET CHANGE (set an entry, cut to a length, retype)
cat >"$TMP/gen.py" <<'PY'
import sys, shutil, h5py, numpy as np
L, G, out = sys.argv[1:4]
def make(name, src, *changes):
    dst = f"{out}/{name}.hdf5"
    shutil.copyfile(src, dst)
    with h5py.File(dst, "r+") as f:
        for c in changes: c(f)
def setv(path, k, v):
    def c(f): d = f[path]; a = d[...]; a[k] = v; d[...] = a
    return c
def replace(path, fn):
    def c(f): a = fn(f[path][...]); del f[path]; f[path] = a
    return c
cut = lambda path, n: replace(path, lambda a: a[:n])
def to_columns(f):  # the same W in compressed columns (nz = -1)
    g = f["fclib_local/W"]; p, i, x = g["p"][...], g["i"][...], g["x"][...]
    m = int(g["m"][0]); rows = np.repeat(np.arange(m), np.diff(p)); nnz = p[-1]
    o = np.lexsort((rows[:nnz], i[:nnz]))
    cols = i[:nnz][o]
    for k, v in (("p", np.concatenate(([0], np.cumsum(np.bincount(cols, minlength=int(g["n"][0]))))).astype(np.int32)),
                 ("i", rows[:nnz][o].astype(np.int32)), ("x", x[:nnz][o]), ("nz", np.array([-1], np.int32))):
        del g[k]; g[k] = v
with h5py.File(f"{out}/empty.hdf5", "w") as f:  # no contacts: every size 0
    for k, v in dict(m=[0], n=[0], nz=[-2], p=[0], i=[]).items(): f["fclib_local/W/" + k] = np.array(v, np.int32)
    f["fclib_local/W/x"] = np.zeros(0); f["fclib_local/vectors/mu"] = np.zeros(0); f["fclib_local/vectors/q"] = np.zeros(0)
make("local", L)
make("global", G)
make("csc", L, to_columns)
make("q_denormal", L, setv("fclib_local/vectors/q", 0, 5e-320))
make("wp_neg", L, setv("fclib_local/W/p", 3, -5))
make("wp_past", L, setv("fclib_local/W/p", 3, 99999))
make("wp_first", L, setv("fclib_local/W/p", 0, 1))
make("wp_decr", L, setv("fclib_local/W/p", 3, 47))
make("wp_short", L, cut("fclib_local/W/p", 144))
make("wp_float", L, replace("fclib_local/W/p", lambda a: a.astype(float) + 0.5))
make("wp_big", L, replace("fclib_local/W/p", lambda a: np.where(np.arange(a.size) == 3, 2**40, a.astype(np.int64))))
make("wx_short", L, cut("fclib_local/W/x", 4000))
make("wi_range", L, setv("fclib_local/W/i", 10, 144))
make("wx_inf", L, setv("fclib_local/W/x", 7, np.inf))
make("wm_neg", L, setv("fclib_local/W/m", 0, -3))
make("wnz_bad", L, setv("fclib_local/W/nz", 0, -3))
make("q_inf", L, setv("fclib_local/vectors/q", 5, np.inf))
make("q_nan", L, setv("fclib_local/vectors/q", 6, np.nan))
make("q_short", L, cut("fclib_local/vectors/q", 143))
make("mu_neg", L, setv("fclib_local/vectors/mu", 2, -1.0))
make("mu_nan", L, setv("fclib_local/vectors/mu", 2, np.nan))
make("mu_short", L, cut("fclib_local/vectors/mu", 47))
make("r_inf", L, setv("solution/r", 1, -np.inf))
make("u_short", L, cut("solution/u", 100))
make("spacedim", L, setv("fclib_local/spacedim", 0, 2))
make("csc_neg", L, to_columns, setv("fclib_local/W/p", 5, -2))
make("csc_i", L, to_columns, setv("fclib_local/W/i", 0, 144))
make("hx_short", G, cut("fclib_global/H/x", 400))
make("hi_short", G, cut("fclib_global/H/i", 400))
make("hp_range", G, setv("fclib_global/H/p", 0, 93))
make("hi_neg", G, setv("fclib_global/H/i", 0, -1))
make("hn_wrong", G, setv("fclib_global/H/n", 0, 96))
make("m_square", G, setv("fclib_global/M/m", 0, 451))
make("mx_nan", G, setv("fclib_global/M/x", 4, np.nan))
make("hx_inf", G, setv("fclib_global/H/x", 9, -np.inf))
make("w_nan", G, setv("fclib_global/vectors/w", 4, np.nan))
make("w_short", G, cut("fclib_global/vectors/w", 92))
make("f_inf", G, setv("fclib_global/vectors/f", 3, np.inf))
make("f_short", G, cut("fclib_global/vectors/f", 449))
make("mu_neg_global", G, setv("fclib_global/vectors/mu", 30, -0.25))
PY
"$PY" "$TMP/gen.py" "$LOCAL" "$GLOBAL" "$TMP" || { echo "cannot write the broken files ($PY)"; exit 1; }

# crashed OUT: a sanitizer report, a signal or a PETSc trace in OUT
crashed() { grep -qE "Segmentation|AddressSanitizer|runtime error|Caught signal|SEGV|munmap|double free|Aborted" <<<"$1"; }

# refused NAME PATTERN: FILE on 1 rank and on 3 ranks must fail on every rank, with PATTERN
# (grep -E, after "moreau-fclib: 'FILE': ") printed once, no crash, no hang
refused() {
  local name=$1 pat="moreau-fclib: '$TMP/$1\.hdf5': $2" out rc n
  out=$(timeout 60 "$EXE" "$TMP/$name.hdf5" 2>&1); rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -qE -- "$pat" <<<"$out" && ! crashed "$out"; then ok "$name on 1 rank: exit $rc, '$(grep -oE -- "$2" <<<"$out" | head -n 1)'"
  else notok "$name on 1 rank (rc=$rc, wanted /$pat/)"; echo "$out" | tail -n 6 | sed 's/^/# /'; fi
  # each rank reports its own exit status; mpirun's is non-zero when any is
  out=$(timeout 60 $MPIRUN -np 3 bash -c '"$0" "$@"; rc=$?; echo "rank-exit $rc"; exit $rc' "$EXE" "$TMP/$name.hdf5" 2>&1); rc=$?
  n=$(grep -cE -- "$pat" <<<"$out")
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$n" -eq 1 ] && ! grep -q "^rank-exit 0$" <<<"$out" && grep -qE "^rank-exit [1-9]" <<<"$out" && ! crashed "$out"; then ok "$name on 3 ranks: exit $rc on every rank, the message once"
  else notok "$name on 3 ranks (rc=$rc, message printed $n times, rank exits: $(grep -oE '^rank-exit [0-9]+' <<<"$out" | tr '\n' ' '))"; echo "$out" | grep -v "^rank-exit" | tail -n 6 | sed 's/^/# /'; fi
}

# the untouched copies solve: the failures below come from the one altered dataset
for f in "local:the untouched local copy" "global:the untouched global copy" "q_denormal:a denormal in q (5e-320, finite)" "empty:a problem with no contacts (every size 0)"; do
  out=$(timeout 120 "$EXE" "$TMP/${f%%:*}.hdf5" 2>&1); rc=$?
  check "${f#*:} solves, exit 0" bash -c '[ '$rc' -eq 0 ] && grep -q "^file='"${f%%:*}"'.hdf5 " <<<"$0" && ! grep -qE "runtime error|AddressSanitizer" <<<"$0"' "$out"
done
a=$(timeout 120 "$EXE" "$TMP/local.hdf5" 2>&1 | grep -oE "iterations=[0-9]+ error=[^ ]+")
b=$(timeout 120 "$EXE" "$TMP/csc.hdf5" 2>&1 | grep -oE "iterations=[0-9]+ error=[^ ]+")
check "W in compressed columns (nz = -1) solves like compressed rows ($b; rows: $a)" test -n "$a" -a "$a" = "$b"

# W: sizes, row pointers, indices, values
refused wp_neg "/fclib_local/W/p\[3\] = -5 is negative"
refused wp_past "/fclib_local/W/p\[3\] = 99999 is past the end of /fclib_local/W/i \(4896 entries\)"
refused wp_first "/fclib_local/W/p\[0\] = 1; compressed row pointers start at 0"
refused wp_decr "/fclib_local/W/p\[3\] = 47 is less than p\[2\] = 48; row pointers must not decrease"
refused wp_short "/fclib_local/W/p has 144 entries, expected 145 \(/fclib_local/W/m \+ 1\)"
refused wp_float "/fclib_local/W/p is not an integer dataset"
refused wp_big "/fclib_local/W/p\[3\] = 1099511627776 does not fit a PetscInt"
refused wx_short "/fclib_local/W/x has 4000 entries, fewer than the 4896 of /fclib_local/W/p\[144\]"
refused wi_range "/fclib_local/W/i\[10\] = 144 is outside the columns 0\.\.143"
refused wx_inf "/fclib_local/W/x\[7\] = inf is not finite"
refused wm_neg "/fclib_local/W/m = -3 is negative"
refused wnz_bad "/fclib_local/W/nz = -3; expected -2 \(compressed rows\), -1 \(compressed columns\)"
refused csc_neg "/fclib_local/W/p\[5\] = -2 is negative"
refused csc_i "/fclib_local/W/i\[0\] = 144 is outside the rows 0\.\.143"
# vectors: lengths, finite values, mu >= 0 (%g as C prints it: -1, not PETSc's -1.)
refused q_inf "/fclib_local/vectors/q\[5\] = inf is not finite"
refused q_nan "/fclib_local/vectors/q\[6\] = -?nan is not finite"
refused q_short "/fclib_local/vectors/q has 143 entries, expected 144"
refused mu_neg "/fclib_local/vectors/mu\[2\] = -1 is negative; a friction coefficient must be >= 0"
refused mu_nan "/fclib_local/vectors/mu\[2\] = -?nan is not finite"
refused mu_short "/fclib_local/W is 144 x 144 but /fclib_local/vectors/mu has 47 contacts \(expected 141 x 141\)"
refused r_inf "/solution/r\[1\] = -inf is not finite"
refused u_short "/solution/u has 100 entries, expected 144"
refused spacedim "/fclib_local/spacedim = 2; only 3-D problems are supported"
# global: M, H, f, w
refused hx_short "/fclib_global/H/x has 400 entries, fewer than the 485 triplets of /fclib_global/H/nz"
refused hi_short "/fclib_global/H/i has 400 entries, fewer than the 485 triplets"
refused hp_range "/fclib_global/H/p\[0\] = 93 is outside the columns 0\.\.92"
refused hi_neg "/fclib_global/H/i\[0\] = -1 is outside the rows 0\.\.449"
refused hn_wrong "/fclib_global/H has 96 columns but /fclib_global/vectors/mu has 31 contacts \(expected 93\)"
refused m_square "/fclib_global/M is 451 x 450; a mass matrix is square"
refused mx_nan "/fclib_global/M/x\[4\] = -?nan is not finite"
refused hx_inf "/fclib_global/H/x\[9\] = -inf is not finite"
refused w_nan "/fclib_global/vectors/w\[4\] = -?nan is not finite"
refused w_short "/fclib_global/vectors/w has 92 entries, expected 93"
refused f_inf "/fclib_global/vectors/f\[3\] = inf is not finite"
refused f_short "/fclib_global/vectors/f has 449 entries, expected 450"
refused mu_neg_global "/fclib_global/vectors/mu\[30\] = -0\.25 is negative"

# a broken file among good ones: the good one is still solved, the exit status is 1
out=$(timeout 120 "$EXE" "$TMP/wp_neg.hdf5" "$TMP/local.hdf5" 2>&1); rc=$?
check "a broken file before a good one: the good one solved, exit 1" bash -c '[ '$rc' -eq 1 ] && grep -q "^file=local.hdf5 " <<<"$0" && grep -q "1 could not be solved" <<<"$0"' "$out"
