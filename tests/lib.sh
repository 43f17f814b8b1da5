# Helpers for integration tests (source it): TAP output, Debian's python, mpirun.
# MB_BUILD and MB_ROOT come from tests/run.
: "${MB_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${MB_BUILD:=$MB_ROOT/build}"
MOREAU="$MB_BUILD/bin/moreau"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Tests run decks again and again into the same directories: they compute every time (a
# deck whose results exist would otherwise read them, READ mode). tests/integration/
# readmode.sh unsets it.
export PETSC_OPTIONS="${PETSC_OPTIONS:+$PETSC_OPTIONS }-mb_write"
# Debian's interpreter sees python3-numpy/h5py/matplotlib; the first python3 on PATH may not.
mb_python() {
  local p
  for p in /usr/bin/python3 "$(command -v python3)"; do
    [ -x "$p" ] && "$p" -c 'import numpy, h5py' 2>/dev/null && { echo "$p"; return 0; }
  done
  return 1
}
PY=$(mb_python) || PY=/usr/bin/python3
# yield when idle: ranks that wait must not spin when the machine has fewer cores than ranks
MPIRUN="mpirun --oversubscribe --bind-to none --mca mpi_yield_when_idle 1"
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
# check NAME COMMAND...: one TAP line from a command's exit status
check() { local n=$1; shift; if "$@"; then ok "$n"; else notok "$n"; fi; }
# expect_error NAME PATTERN COMMAND...: the command must fail and print PATTERN (grep -E)
expect_error() {
  local n=$1 pat=$2 out rc; shift 2
  out=$("$@" 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -qE -- "$pat" <<<"$out"; then ok "$n"; else notok "$n (rc=$rc, wanted /$pat/)"; echo "$out" | tail -n 8 | sed 's/^/# /'; fi
}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# mpirun_files SECONDS DIR NP COMMAND...: mpirun -np NP COMMAND under timeout SECONDS, each
# rank writing its own stdout and stderr to DIR/rank.N itself (not through mpirun, whose
# merged output can drop lines under load or when a rank aborts); prints the files in rank
# order and returns mpirun's status (124 on the timeout).
mpirun_files() {
  local secs=$1 dir=$2 np=$3 rc r; shift 3
  rm -rf "$dir"; mkdir -p "$dir"
  timeout "$secs" $MPIRUN -np "$np" bash -c 'exec "$@" >"$0/rank.$OMPI_COMM_WORLD_RANK" 2>&1' "$dir" "$@" </dev/null; rc=$?
  for ((r = 0; r < np; r++)); do [ -f "$dir/rank.$r" ] && cat "$dir/rank.$r"; done
  return $rc
}
