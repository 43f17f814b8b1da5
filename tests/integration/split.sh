#!/usr/bin/env bash
# SPLIT, MESH_SPLIT and OVERLAPPING (Solfec-1.0's lng.c behaviour): a unit cube cut by planes
# (volumes and mass centres against the analytic cut, the cut faces' surface ids), meshes
# split and opened along element faces, overlaps of spheres and cubes with known answers,
# and bad input named in the error.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"
cat >"$TMP/split.py" <<PY
import _moreau as m
from moreau import Shape
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
def t(name, ok, got=None):
    print(('ok - ' if ok else 'not ok - ') + name + ('' if ok or got is None else ' (got %r)' % (got,)), flush=True)
def close(a, b, tol=1e-12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))
def raises(f, exc, text):
    try:
        f()
    except exc as e:
        return text in str(e) or print('# %s' % e)
    return False
def cube(sid=5):
    v = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]
    f = [4, 0,3,2,1, sid, 4, 4,5,6,7, sid, 4, 0,1,5,4, sid, 4, 1,2,6,5, sid, 4, 2,3,7,6, sid, 4, 3,0,4,7, sid]
    return CONVEX(v, f, 1)
def vc(shp):
    mass, vol, c, J = m.shape_massprops([shp._cap], 1.0)
    return vol, c
def cutfaces(shp, sid):
    v, faces = m.shape_piece(shp._cap, 0)
    return [[v[k] for k in loop] for loop, s in faces if s == sid]

# --- a unit cube cut at x = 0.3: volumes 0.3 and 0.7, centres at x = 0.15 and 0.65
a, b = SPLIT(cube(), (0.3, 0, 0), (1, 0, 0), (7, 8))
(va, ca), (vb, cb) = vc(a), vc(b)
t('x = 0.3: volumes 0.3 and 0.7 (1e-12), summing to 1', close((va, vb, va + vb), (0.3, 0.7, 1.0)), (va, vb))
t('x = 0.3: mass centres (0.15, .5, .5) and (0.65, .5, .5)', close(ca, (0.15, 0.5, 0.5)) and close(cb, (0.65, 0.5, 0.5)), (ca, cb))
fa, fb = cutfaces(a, 7), cutfaces(b, 8)
t('x = 0.3: one cut face each, surfid 7 below and 8 above, on the plane', len(fa) == 1 and len(fb) == 1 and all(abs(p[0] - 0.3) < 1e-12 for p in fa[0] + fb[0]) and len(cutfaces(a, 8)) == 0, (fa, fb))
def newell(loop):
    n = [0.0, 0.0, 0.0]
    for k in range(len(loop)):
        p, q = loop[k], loop[(k + 1) % len(loop)]
        n[0] += (p[1] - q[1]) * (p[2] + q[2]); n[1] += (p[2] - q[2]) * (p[0] + q[0]); n[2] += (p[0] - q[0]) * (p[1] + q[1])
    return n
t('x = 0.3: the cut face below points along the normal, the one above against it', newell(fa[0])[0] > 0 and newell(fb[0])[0] < 0)
t('x = 0.3: the other faces keep their surface id', len(cutfaces(a, 5)) == 5 and len(cutfaces(b, 5)) == 5)
# --- x + y = 1: two triangular prisms of volume 1/2, centres (1/3, 1/3, 1/2) and (2/3, 2/3, 1/2)
a, b = SPLIT(cube(), (0.5, 0.5, 0), (2, 2, 0))
(va, ca), (vb, cb) = vc(a), vc(b)
t('x + y = 1: volumes 1/2, centres (1/3, 1/3, 1/2) and (2/3, 2/3, 1/2)', close((va, vb), (0.5, 0.5)) and close(ca, (1/3, 1/3, 0.5)) and close(cb, (2/3, 2/3, 0.5)), (va, vb, ca, cb))
t('default surfid (0, 0) on the cut', len(cutfaces(a, 0)) == 1 and len(cutfaces(b, 0)) == 1)
# --- lists: a cube crossed and a cube wholly above the plane, touching it or apart
a, b = SPLIT([cube(), TRANSLATE(cube(), (1, 0, 0))], (0.3, 0, 0), (1, 0, 0))
t('a list of touching cubes: below 0.3, above one compound of 0.7 + 1', isinstance(b, Shape) and close((vc(a)[0], vc(b)[0]), (0.3, 1.7)), (a, b))
a, b = SPLIT([cube(), TRANSLATE(cube(), (2, 0, 0))], (0.3, 0, 0), (1, 0, 0))
t('a list of cubes apart: above, two shapes (0.7 and the whole second cube), as Solfec separates them', isinstance(b, list) and len(b) == 2 and close(sorted(vc(x)[0] for x in b), (0.7, 1.0)), b)
# --- rigid bodies of the two parts run
a, b = SPLIT(cube(), (0.5, 0, 0), (1, 0, 0))
BODY(s, 'RIGID', a, BULK_MATERIAL(s)); BODY(s, 'RIGID', TRANSLATE(b, (0.1, 0, 0)), BULK_MATERIAL(s, label='b'))
# --- bad input
t('zero normal named', raises(lambda: SPLIT(cube(), (0, 0, 0), (0, 0, 0)), ValueError, 'SPLIT: normal must be non-zero, got (0, 0, 0)'))
t('a plane missing the shape named', raises(lambda: SPLIT(cube(), (2, 0, 0), (1, 0, 0)), ValueError, 'SPLIT: the plane through (2.0, 0.0, 0.0) with normal (1, 0, 0) misses the shape: all of it lies below the plane'))
t('a plane touching a face misses it', raises(lambda: SPLIT(cube(), (0, 0, 0), (1, 0, 0)), ValueError, 'all of it lies above the plane'))
t('bad surfid named', raises(lambda: SPLIT(cube(), (0.5, 0, 0), (1, 0, 0), (1, 2, 3)), ValueError, 'SPLIT: surfid must be a pair of integers, got (1, 2, 3)'))
t('bad topoadj named', raises(lambda: SPLIT(cube(), (0.5, 0, 0), (1, 0, 0), (1, 2), 'MAYBE'), ValueError, "SPLIT: topoadj must be 'ON' or 'OFF', got 'MAYBE'"))
t('a sphere the plane crosses named', raises(lambda: SPLIT(SPHERE((0, 0, 0), 1, 1, 1), (0, 0, 0), (1, 0, 0)), ValueError, 'cuts the SPHERE of centre (0.0, 0.0, 0.0) and radius 1'))

# --- meshes: a HEX of 2 x 1 x 1 elements over [0, 2] x [0, 1] x [0, 1]
def hex2():
    return HEX([0,0,0, 2,0,0, 2,1,0, 0,1,0, 0,0,1, 2,0,1, 2,1,1, 0,1,1], 2, 1, 1, 1, [1, 1, 1, 1, 1, 1])
a, b = SPLIT(hex2(), (1, 0, 0), (1, 0, 0), (7, 8))
t('a HEX split at x = 1 along its element faces: two meshes of 8 nodes', a.nnod == 8 and b.nnod == 8, (a.nnod, b.nnod))
t('the cut faces: surfid 7 on the part below (x <= 1), 8 above', sorted(a.node(n)[0] for n in a.nodes_on_surface(7)) == [1.0] * 4 and a.nodes_on_surface(8) is None and sorted(b.node(n)[0] for n in b.nodes_on_surface(8)) == [1.0] * 4, (a.nodes_on_surface(7), b.nodes_on_surface(8)))
t('the mesh parts have volume 1 each, centres x = 0.5 and 1.5', close((vc(a)[0], vc(b)[0], vc(a)[1][0], vc(b)[1][0]), (1, 1, 0.5, 1.5)))
t('a plane through an element named', raises(lambda: SPLIT(hex2(), (0.5, 0, 0), (1, 0, 0)), ValueError, 'SPLIT: the plane through (0.5, 0.0, 0.0) with normal (1.0, 0.0, 0.0) cuts element 0 (nodes [0, 1, 4, 3, 6, 7, 10, 9]) of the HEX'))
p = PIPE((0, 0, 0), (0, 0, 2), 0.5, 1, 1, 8, 1, 1, [1, 1, 1, 1])
a, b = SPLIT(p, (1, 0, 0), (0, 1, 0), (2, 3), 'ON')
one = a if b is None else b
t("topoadj 'ON' opens one wall of a pipe: one part, 4 nodes more, faces 2 and 3 on the slit", (a is None) != (b is None) and one.nnod == 36 and len(one.nodes_on_surface(2)) == 4 and len(one.nodes_on_surface(3)) == 4, (a, b))
a, b = SPLIT(p, (1, 0, 0), (0, 1, 0), (2, 3), 'OFF')
t("topoadj 'OFF' cuts a pipe in two halves", a is not None and b is not None and a.nnod == 20 and b.nnod == 20 and close((vc(a)[0],), (vc(b)[0],)))
out = MESH_SPLIT(hex2(), faceset=[[1, 4, 10, 7]], surfid1=5, surfid2=6)
t('MESH_SPLIT by a face: two meshes; surfid1 where the face normal points out', isinstance(out, list) and len(out) == 2 and [o.nnod for o in out] == [8, 8] and out[0].nodes_on_surface(5) and out[1].nodes_on_surface(6) and out[0].nodes_on_surface(6) is None, out)
out = MESH_SPLIT(hex2(), nodeset=[1, 4, 7, 10], surfid1=9)
t('MESH_SPLIT by a node set: two meshes, surfid1 on both sides', len(out) == 2 and all(len(o.nodes_on_surface(9)) == 4 for o in out))
out = MESH_SPLIT(p, faceset=[[0, 1, 17, 16]])
t('MESH_SPLIT by one face of a pipe: one opened mesh (36 nodes)', isinstance(out, list) and len(out) == 1 and out[0].nnod == 36, out)
t('MESH_SPLIT by a boundary face only: None', MESH_SPLIT(hex2(), faceset=[[0, 3, 9, 6]]) is None)
t('MESH_SPLIT of a face that is not there named', raises(lambda: MESH_SPLIT(hex2(), faceset=[[0, 1, 2, 5]]), ValueError, "MESH_SPLIT: face [0, 1, 2, 5] is not a face of the mesh's elements"))

# --- OVERLAPPING: the unit cube against spheres and cubes
s0, s1, s2, s3 = SPHERE((.5, .5, .5), .1), SPHERE((1.05, .5, .5), .1), SPHERE((1.2, .5, .5), .1), SPHERE((3, 3, 3), 1)
c0, c1 = TRANSLATE(cube(), (0.9, 0, 0)), TRANSLATE(cube(), (1.5, 0, 0))
shapes = [s0, s1, s2, c0, s3, c1]
got = OVERLAPPING(cube(), shapes)
t('OVERLAPPING: the inner sphere, the penetrating sphere and the overlapping cube, in order', got == [s0, s1, c0], got)
got = OVERLAPPING(cube(), shapes, 'NOT')
t("OVERLAPPING 'NOT': the others", got == [s2, s3, c1], got)
got = OVERLAPPING(cube(), shapes, gap=-0.06)
t('OVERLAPPING gap = -0.06: the sphere 0.05 deep no longer counts', got == [s0, c0], got)
t('OVERLAPPING: one shape returns it, none None', OVERLAPPING(cube(), [s2, s1]) is s1 and OVERLAPPING(cube(), [s2, s3]) is None and OVERLAPPING([cube(), c1], s3) is None)
got = OVERLAPPING([c1, SPHERE((3, 3, 3), 0.5)], shapes)
t('OVERLAPPING: obstacles as a list (a cube and a sphere)', got == [c0, s3, c1], got)
t('OVERLAPPING: gap > 0 named', raises(lambda: OVERLAPPING(cube(), shapes, gap=0.1), ValueError, 'OVERLAPPING: gap must be <= 0 (the largest gap that counts as an overlap), got 0.1'))
t("OVERLAPPING: not other than 'NOT' named", raises(lambda: OVERLAPPING(cube(), shapes, 'YES'), ValueError, "OVERLAPPING: not must be 'NOT', got 'YES'"))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 100), 0.005)
t('rigid bodies made of the parts run', s.time > 0.004, s.time)
PY
out=$(timeout 300 "$MOREAU" "$TMP/split.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - |^# '
[ $rc -eq 0 ] || { echo "not ok - the deck exits 0 (rc $rc)"; echo "$out" | tail -5 | sed 's/^/# /'; }
