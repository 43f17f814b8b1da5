#!/usr/bin/env bash
# BEND(shape, point, direction, angle), Solfec-1.0's bending of a mesh about an axis (its
# lng.c behaviour and manual): a straight bar's nodes against the analytic arc (radius z + R,
# angle x / R: arc lengths kept on the innermost fibre), the part beyond the angle going on
# straight along the tangent, the volume and a body's mass against the bent elements' exact
# volume and the map's Jacobian r / R, and bad input named.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

cat >"$TMP/bend.py" <<PY
import math
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
def t(name, ok, got=None):
    print(('ok - ' if ok else 'not ok - ') + name + ('' if ok or got is None else ' (got %r)' % (got,)), flush=True)
def raises(f, exc, *texts):
    """True when f raises exc with every one of texts in its message; else False, the
    message (or 'no error') printed as a TAP comment."""
    try:
        f()
    except exc as e:
        if all(x in str(e) for x in texts):
            return True
        print('# %s: %s' % (type(e).__name__, e))
        return False
    print('# no error')
    return False
UNIT = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]
R, h, w = 2.0, 0.5, 0.3  # the axis at distance R below the bar's bottom face, thickness h, width w

def bar(length, n):
    """A bar along x from 0 to length, y in [0, w], z in [0, h]: n elements along, 2 across."""
    return SCALE(HEX(UNIT, n, 1, 2, 1, [1, 2, 3, 4, 5, 6]), (length, w, h))

def arc(x, y, z, theta):
    """The bent place of (x, y, z) about the axis (0, t, -R) along +y (v = +x): the angle
    x / R on the radius z + R up to theta, then straight on along the tangent."""
    r, a = z + R, min(x / R, theta)
    p = (r * math.sin(a), y, -R + r * math.cos(a))
    if x / R > theta:
        l = x - theta * R
        p = (p[0] + l * math.cos(theta), y, p[2] - l * math.sin(theta))
    return p

def nodes(m):
    return [m.node(k) for k in range(m.nnod)]

def maxdiff(m, X0, theta):
    return max(max(abs(p - q) for p, q in zip(m.node(k), arc(*X0[k], theta))) for k in range(len(X0)))

def volume(m):
    return MASS_CENTER(m) and BODY(s, 'RIGID', COPY(m), BULK_MATERIAL(s, density=1.0)).volume

# 90 degrees: the whole bar (length R pi / 2) on a quarter circle
n = 16
m = bar(R * math.pi / 2, n)
X0 = nodes(m)
V0 = volume(m)
out = BEND(m, (0, 0, -R), (0, 1, 0), 90)
t('BEND returns the shape it bent', out is m)
err = maxdiff(m, X0, math.pi / 2)
t('90 degrees: every node on its analytic arc (radius z + R, angle x / R) to 1e-12', err <= 1e-12, err)
end = [m.node(k) for k in range(m.nnod) if abs(X0[k][0] - R * math.pi / 2) < 1e-12]
t('90 degrees: the end section lies in the plane x = r, z = -R (turned a quarter)', all(abs(p[2] + R) < 1e-12 and R - 1e-12 <= p[0] <= R + h + 1e-12 for p in end), end)
# each bent element is an annular sector's chord polygon: w (r2^2 - r1^2) sin(da) / 2
V = volume(m)
Vchord = w * n * 0.5 * ((R + h) ** 2 - R ** 2) * math.sin(math.pi / 2 / n)
t('90 degrees: the volume is the bent elements\' exact volume to 1e-12', abs(V - Vchord) <= 1e-12 * Vchord, (V, Vchord))
Vmap = V0 * (R + h / 2) / R  # the map's Jacobian r / R averaged over the thickness
t('90 degrees: the volume grows by (R + h/2) / R, as the map does, within the chords\' error', abs(V - Vmap) <= Vmap * (math.pi / 2 / n) ** 2 / 6 and V > V0, (V, Vmap, V0))
body = BODY(s, 'FINITE_ELEMENT', m, BULK_MATERIAL(s, density=7.0))
t('a FINITE_ELEMENT body of the bent mesh has mass density x bent volume', abs(body.mass - 7.0 * Vchord) <= 1e-12 * 7.0 * Vchord, body.mass)

# 180 degrees on a bar longer than the half circle: the rest goes on straight
m = bar(R * math.pi + 1.5, 40)
X0 = nodes(m)
BEND(m, (0, 0, -R), (0, 1, 0), 180)
err = maxdiff(m, X0, math.pi)
t('180 degrees: arc then straight back along -x, every node to 1e-12', err <= 1e-12, err)

# 45 degrees on the quarter-circle bar, with a direction of length 5: the same bend
m, m5 = bar(R * math.pi / 2, n), bar(R * math.pi / 2, n)
X0 = nodes(m)
BEND(m, (0, 0, -R), (0, 1, 0), 45)
BEND(m5, (0, -7, -R), (0, 5, 0), 45)
err = maxdiff(m, X0, math.pi / 4)
t('45 degrees: bent up to the angle, then straight along its tangent, to 1e-12', err <= 1e-12, err)
t('the direction\'s length and the point\'s place along the axis do not matter', max(max(abs(p - q) for p, q in zip(m.node(k), m5.node(k))) for k in range(m.nnod)) <= 1e-12)
V = volume(m)
Vpart = w * (n // 2) * 0.5 * ((R + h) ** 2 - R ** 2) * math.sin(math.pi / 2 / n) + w * h * R * math.pi / 4
t('45 degrees: the bent half grows, the straight half keeps its volume (1e-12)', abs(V - Vpart) <= 1e-12 * Vpart, (V, Vpart))

# the right-hand rule: about -y the bend would go towards -x, where the bar is not: it stays
m = bar(4.0, 4)
X0 = nodes(m)
BEND(m, (0, 0, -R), (0, -1, 0), 90)
t('about the reversed axis the bar (on the other side) stays', nodes(m) == X0)

# a HEX turned and moved bends the same (the bend follows the mesh's current nodes)
m = bar(R * math.pi / 2, n)
ROTATE(m, (0, 0, 0), (0, 0, 1), 90)  # now along y
X0 = [(y, -x, z) for (x, y, z) in nodes(m)]  # its nodes in the bar's frame
BEND(m, (0, 0, -R), (-1, 0, 0), 90)
err = max(max(abs(p - q) for p, q in zip(m.node(k), (lambda a: (-a[1], a[0], a[2]))(arc(*X0[k], math.pi / 2)))) for k in range(m.nnod))
t('a rotated bar bends on the rotated arc (1e-12)', err <= 1e-12, err)

# PIPE's rings start where Solfec-1.0's do (msh.c: at n x (1, 0, 0), then towards n x that),
# which puts a node of inp/tire.py's pipe nearest its bending axis
q = PIPE((1, 2, 3), (0, 0, 2), 1.0, 0.5, 1, 4, 1, 1, [1, 2, 3, 4])
t('PIPE along z: ring node 0 at +y, node 1 (across the wall) further out, node 2 at -x, node 8 the next ring\'s 0 (Solfec\'s frame)',
  max(max(abs(a - b) for a, b in zip(q.node(k), x)) for k, x in ((0, (1, 3, 3)), (1, (1, 3.5, 3)), (2, (0, 2, 3)), (8, (1, 3, 5)), (10, (0, 2, 5)))) < 1e-12,
  [q.node(k) for k in (0, 1, 2, 8, 10)])
# PIPE (a MESH) bends too: a half torus, as inp/tire.py
p = PIPE((0, 0, 0), (0, 0, -1.88495559215), 0.3, 0.1, 10, 10, 1, 1, [1, 1, 2, 3])
BEND(p, (0, 1, 0), (1, 0, 0), 180)
far = [p.node(k) for k in range(p.nnod) if abs(p.node(k)[2]) < 1e-9 and p.node(k)[1] > 1.0]
t('PIPE bent by 180 degrees about an axis 0.6 from its inside: its far end is back at z = 0 across the axis', len(far) == 20, len(far))

# bad input: named, and the shape unchanged
m = bar(4.0, 4)
X0 = nodes(m)
t('zero direction', raises(lambda: BEND(m, (0, 0, -R), (0, 0, 0), 90), ValueError, 'BEND: direction must be non-zero, got (0, 0, 0)'))
t('angle 0', raises(lambda: BEND(m, (0, 0, -R), (0, 1, 0), 0), ValueError, 'BEND: angle must be > 0, got 0'))
t('negative angle', raises(lambda: BEND(m, (0, 0, -R), (0, 1, 0), -30), ValueError, 'BEND: angle must be > 0, got -30'))
t('an axis through the mesh (point inside it)', raises(lambda: BEND(m, (1.5, 0.1, 0.2), (0, 1, 0), 90), ValueError, 'BEND: the axis through point (1.5, 0.1, 0.2) along direction (0, 1, 0) passes through the mesh (element 1)'))
t('an axis through the mesh (point outside it)', raises(lambda: BEND(m, (2.5, 0.15, 5), (0, 0, 1), 90), ValueError, 'passes through the mesh'))
t('an axis in an inner face of the mesh', raises(lambda: BEND(m, (1, 0.1, 0.25), (0, 1, 0), 90), ValueError, 'passes through the mesh'))
t('an axis along the bar\'s edge (on its surface, as Solfec)', raises(lambda: BEND(m, (0, 0, 0), (0, 1, 0), 90), ValueError, 'passes through the mesh'))
t('an axis touching the bar at a corner only: a node on the axis, zero radius', raises(lambda: BEND(m, (0, 0, 0), (1, 0, -1), 90), ValueError, 'BEND: mesh node 0 at (0, 0, 0) lies on the axis through point (0, 0, 0) along direction (1, 0, -1)', 'bending radius would be zero'))
t('point not 3 numbers', raises(lambda: BEND(m, (0, 0), (0, 1, 0), 90), TypeError, 'BEND: point must be a sequence of 3 numbers, got (0, 0)'))
t('a CONVEX is not a MESH (as Solfec)', raises(lambda: BEND(HULL(UNIT), (0, 0, -R), (0, 1, 0), 90), TypeError, 'BEND: shape must be a MESH object', 'HULL'))
t('a SPHERE is not a MESH', raises(lambda: BEND(SPHERE((0, 0, 0), 1, 1, 1), (0, 0, -R), (0, 1, 0), 90), TypeError, 'BEND: shape must be a MESH object'))
t('MESH2CONVEX\'s pieces are not a MESH', raises(lambda: BEND(MESH2CONVEX(bar(1, 1)), (0, 0, -R), (0, 1, 0), 90), TypeError, 'BEND: shape must be a MESH object'))
t('after the errors the mesh is unchanged', nodes(m) == X0)
# an element across the plane of the axis and the bending direction: the map would mirror its
# nodes below the axis (Solfec folds such a mesh over itself)
fold = MESH([0,0,1, 1,0,1, 1,1,1, 0,1,1, 0,0,2, 1,0,2, 1,1,2, 0,1,2,
             2,0,-0.5, 3,0,-0.5, 3,1,-0.5, 2,1,-0.5, 2,0,0.5, 3,0,0.5, 3,1,0.5, 2,1,0.5],
            [8, 0,1,2,3,4,5,6,7, 1, 8, 8,9,10,11,12,13,14,15, 1], 1)
X0 = nodes(fold)
t('a node on the far side of the axis, which the map would mirror, is refused, named', raises(lambda: BEND(fold, (0, 0, 0), (0, 1, 0), 180), ValueError, 'BEND: mesh node 8 at (2, 0, -0.5), where the bend would turn it, is on the other side of the axis through point (0, 0, 0) along direction (0, 1, 0) than node 0, the nearest', 'would fold over itself'))
t('and the folded mesh is unchanged', nodes(fold) == X0)
PY
out=$("$MOREAU" "$TMP/bend.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || echo "$out" | tail -8 | sed 's/^/# /'
check "the BEND deck runs to its end, every check passed" bash -c '[ '$rc' -eq 0 ] && [ $(grep -c "^ok - " <<<"$0") -eq $(grep -c "^t(" "$1") ] && ! grep -q "^not ok" <<<"$0"' "$out" "$TMP/bend.py"
