#!/usr/bin/env bash
# DELETE (Solfec-1.0's, of a CONSTRAINT between RUNs): a sphere held by FIX_POINT under
# gravity stays still, then falls freely once its joint is deleted (v = -g t exactly);
# deleting twice does nothing; deleting a BODY after a RUN is refused with the reason. Of a
# BODY before the first RUN (Solfec's DOM_Remove_Body): it and its joints leave the domain —
# no contacts with it, not in the output's /bodies, its id not given again — and the object
# cannot be used any more. 1 and 2 ranks alike.
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
    t('DELETE of a BODY after a RUN refused', False)
except NotImplementedError as e:
    t('DELETE of a BODY after a RUN refused with the reason', 'DELETE: deleting body %d after a RUN is not supported in moreau' % b.id in str(e), str(e))
t('... and the body stays', b in s.bodies and b.mass > 0, s.bodies)
try:
    DELETE(s, 3)
    t('DELETE of a number refused', False)
except TypeError as e:
    t('DELETE of a number named', 'DELETE: object must be a BODY or CONSTRAINT object, got 3' in str(e), str(e))
PY
out=$(timeout 120 "$MOREAU" -w "$TMP/del.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || { echo "not ok - the deck exits 0 (rc $rc)"; echo "$out" | tail -5 | sed 's/^/# /'; }
out=$(mpirun_files 120 "$TMP/ranks-49" 2 "$MOREAU" -w "$TMP/del.py"); rc=$?
echo "$out" | grep -E '^(not )?ok - ' | sed 's/ - / - 2 ranks: /'
[ $rc -eq 0 ] || { echo "not ok - 2 ranks: the deck exits 0 (rc $rc)"; echo "$out" | tail -5 | sed 's/^/# /'; }

# DELETE of a BODY before the first RUN
cat >"$TMP/delbody.py" <<PY
def t(name, ok, got=None):
    if RANK() == 0:
        print(('ok - ' if ok else 'not ok - ') + name + ('' if ok or got is None else ' (got %r)' % (got,)), flush=True)
def raises(f, exc, text):
    try:
        f()
    except exc as e:
        return text in str(e) or print('# ' + str(e))
    return False
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/outb')
s.verbose = 'OFF'
m = BULK_MATERIAL(s)
SURFACE_MATERIAL(s)
GRAVITY(s, (0, 0, -10))
ground = BODY(s, 'OBSTACLE', HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6), m)
TRANSLATE(ground, (0, 0, 0))
# b rests in the ground (0.1 deep) and is held by a joint: deleted, it makes neither contacts nor rows
b = BODY(s, 'RIGID', SPHERE((0.5, 0.5, 1.4), 0.5, 1, 1), m, label='b')
j = FIX_POINT(b, (0.5, 0.5, 1.4))
f = BODY(s, 'RIGID', SPHERE((5, 0, 0), 1, 1, 1), m, label='f')
bid = b.id
DELETE(s, b)
n = BODY(s, 'RIGID', SPHERE((9, 0, 0), 1, 1, 1), m)
t('the next body takes the next id: the deleted one is not given again', n.id == bid + 2, (bid, f.id, n.id))
t('the deleted body leaves solfec.bodies and its label', b not in s.bodies and len(s.bodies) == 3 and BYLABEL(s, 'BODY', 'b') is None and BYLABEL(s, 'BODY', 'f') is f, s.bodies)
t('using it afterwards: a TypeError that says it was deleted', raises(lambda: b.conf, TypeError, 'BODY.conf: body %d is a deleted BODY object' % bid))
t('DELETE of it again: a TypeError, as Solfec', raises(lambda: DELETE(s, b), TypeError, 'DELETE: body %d is a deleted BODY object' % bid))
t('HERE of it: named', raises(lambda: HERE(s, b), TypeError, 'is a deleted BODY object'))
t('a joint on it: a TypeError that says it was deleted', raises(lambda: FIX_POINT(b, (0, 0, 0)), TypeError, 'body %d is a deleted BODY object' % bid))
sp = BODY(s, 'RIGID', SPHERE((0, 9, 0), 1, 1, 1), m)
PUT_SPRING(sp, (0, 9, 0), None, (0, 9, 1), spring=1.0)
t('a body with a spring: refused with the reason', raises(lambda: DELETE(s, sp), NotImplementedError, 'has PUT_SPRING spring 0: deleting a body with springs is not supported in moreau'))
sv = GAUSS_SEIDEL_SOLVER(1e-8, 100)
RUN(s, sv, 0.05)
k = [c for c in s.constraints]
t('no contact and no joint row: the deleted body is not in contact detection and its joint went with it', len(k) == 0, k)
if RANK() > 0 and k:  # each rank has its own rows
    print('not ok - rank %d has rows of a deleted body: %r' % (RANK(), k), flush=True)
v = f.velo
t('the others run: f falls freely, v = -g t = -0.5', v is None or abs(v[5] + 0.5) < 1e-12, v)
t('DELETE after the RUN: refused', raises(lambda: DELETE(s, n), NotImplementedError, 'after a RUN is not supported in moreau'))
if RANK() == 0:
    print('H5 ' + s.h5, flush=True)
PY
for np in 1 2; do
  if [ $np -eq 1 ]; then out=$(timeout 120 "$MOREAU" -w "$TMP/delbody.py" 2>&1); rc=$?; pre=""
  else out=$(mpirun_files 120 "$TMP/ranks-101" 2 "$MOREAU" -w "$TMP/delbody.py"); rc=$?; pre="2 ranks: "; fi
  echo "$out" | grep -E '^(not )?ok - ' | sed "s/ - / - $pre/"
  [ $rc -eq 0 ] || { echo "not ok - ${pre}the body deck exits 0 (rc $rc)"; echo "$out" | grep -v "^ok - " | head -n 25 | sed 's/^/# /'; } # the error comes first, mpirun's notice after
  h5=$(sed -n 's/^H5 //p' <<<"$out")
  ids=$("$PY" -c "import h5py, sys; print(sorted(int(i) for i in h5py.File(sys.argv[1], 'r')['/bodies/id'][:]))" "$h5" 2>&1)
  check "${pre}the output's /bodies holds the four bodies left, not the deleted one (ids $ids)" test "$ids" = "[0, 2, 3, 4]"
done
