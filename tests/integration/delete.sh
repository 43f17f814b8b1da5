#!/usr/bin/env bash
# DELETE (Solfec-1.0's, of a CONSTRAINT between RUNs): a sphere held by FIX_POINT under
# gravity stays still, then falls freely once its joint is deleted (v = -g t exactly);
# deleting twice does nothing; deleting a BODY is refused with the reason; 2 ranks alike.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"
cat >"$TMP/del.py" <<PY
def t(name, ok, got=None):
    if RANK() == 0:
        print(('ok - ' if ok else 'not ok - ') + name + ('' if ok or got is None else ' (got %r)' % (got,)), flush=True)
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)
GRAVITY(s, (0, 0, -10))
b = BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), m)
o = BODY(s, 'RIGID', SPHERE((5, 0, 0), 1, 1, 1), m)
c = FIX_POINT(b, (0, 0, 0))
k = FIX_POINT(o, (5, 0, 0))
sv = GAUSS_SEIDEL_SOLVER(1e-8, 100)
RUN(s, sv, 0.01)
v = b.velo
t('held by FIX_POINT: at rest', v is None or abs(v[5]) < 1e-12, v)
DELETE(s, c)
DELETE(s, c)
RUN(s, sv, 0.05)
v, w = b.velo, o.velo
t('its joint deleted: it falls freely, v = -g t = -0.5', v is None or abs(v[5] + 0.5) < 1e-12, v)
t('the other joint still holds', w is None or abs(w[5]) < 1e-12, w)
try:
    DELETE(s, b)
    t('DELETE of a BODY refused', False)
except NotImplementedError as e:
    t('DELETE of a BODY refused with the reason', 'DELETE: deleting a BODY is not supported in moreau' in str(e), str(e))
try:
    DELETE(s, 3)
    t('DELETE of a number refused', False)
except TypeError as e:
    t('DELETE of a number named', 'DELETE: object must be a BODY or CONSTRAINT object, got 3' in str(e), str(e))
PY
out=$(timeout 120 "$MOREAU" -w "$TMP/del.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || { echo "not ok - the deck exits 0 (rc $rc)"; echo "$out" | tail -5 | sed 's/^/# /'; }
out=$(timeout 120 $MPIRUN -np 2 "$MOREAU" -w "$TMP/del.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - ' | sed 's/ - / - 2 ranks: /'
[ $rc -eq 0 ] || { echo "not ok - 2 ranks: the deck exits 0 (rc $rc)"; echo "$out" | tail -5 | sed 's/^/# /'; }
