#!/usr/bin/env bash
# TETRAHEDRALIZE and ELLIP_MESH (TetGen, Debian's libtet1.5-dev): a cube's and a sphere
# polyhedron's volume filled exactly, the volume bound kept, surface ids carried to the
# boundary triangles and volume ids to the tetrahedra (two volume ids: each tetrahedron in
# its own half), tetrahedra of positive volume, the mesh read back from path, an ellipsoid
# whose surface nodes lie on it, a FINITE_ELEMENT body of tetrahedra that runs (1 and 2
# ranks); Solfec-1.0's own mesh file at path (HDF5 or XDR) read; bad input (an open surface,
# one through itself, a missing file, a foreign file or a broken Solfec file at path, a bad
# volume) named. Without TetGen in the build: the error that says so.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"
deck() { cat >"$TMP/$1.py"; }
HEAD="import _moreau, json, math
s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
def t(name, ok, got=None):
    if RANK() == 0:
        print(('ok - ' if ok else 'not ok - ') + name + ('' if ok or got is None else ' (got %r)' % (got,)), flush=True)
def raises(f, exc, text):
    try:
        f()
    except exc as e:
        return text in str(e) or print('# ' + str(e))
    return False
def volume(m):
    return _moreau.shape_massprops([m._cap], 1.0)[1]
def tets(path):  # the mesh TETRAHEDRALIZE wrote: [(nodes, volid)], [(triangle, surfid)], node coordinates
    d = json.load(open(path))
    e, f = d['elements'], d['surfids']
    return ([(e[i + 1:i + 5], e[i + 5]) for i in range(0, len(e), 6)],
            [(f[i + 1:i + 4], f[i + 4]) for i in range(1, len(f), 5)], d['nodes'])
def det(X, n):
    a, b, c, d = (X[k] for k in n)
    u, v, w = ([p[i] - a[i] for i in range(3)] for p in (b, c, d))
    return (u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] + (u[0] * v[1] - u[1] * v[0]) * w[2]
def boundary_volume(m):  # the divergence theorem over the faces that one element has
    count = {}
    for faces in _moreau.shape_element_faces(m._cap):
        for loop in faces:
            k = frozenset(loop)
            count[k] = (count.get(k, (0, loop))[0] + 1, loop)
    V = 0.0
    for n, loop in count.values():
        if n == 1:
            a, b, c = (m.node(k) for k in loop)
            V += (a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
    return V"

deck notet <<PY
$HEAD
import moreau
if _moreau.tetgen():
    print('TETGEN')
else:
    t('without TetGen: TETRAHEDRALIZE says moreau was built without it', raises(lambda: TETRAHEDRALIZE(HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6), 'x.mesh'), NotImplementedError, 'built without TetGen (Debian package libtet1.5-dev)'))
PY
out=$("$MOREAU" -w "$TMP/notet.py" 2>&1)
notet=$out

# Solfec-1.0's own mesh file at path (its TETRAHEDRALIZE writes the mesh there and reads it
# back: msh.c MESH_Write, HDF5 or XDR, FastLZ-compressed MESH_Pack): read, with or without
# TetGen. The corpus's inp/devel/runtime-split/pipe1.mesh is Solfec's mesh of the PIPE below.
SOLFEC_MESH="$MB_ROOT/../shared/solfec-1.0/inp/devel/runtime-split/pipe1.mesh"
if [ -f "$SOLFEC_MESH" ]; then
  cp "$SOLFEC_MESH" "$TMP/pipe1.mesh"
  deck solfecmesh <<PY
$HEAD
import shutil, struct
p = PIPE((4, 0, 0), (0, 0, 2), 0.5, 1, 1, 8, 1, 1, [1, 1, 1, 1, 1, 1])
m = TETRAHEDRALIZE(p, '$TMP/pipe1.mesh')
e = _moreau.shape_element_faces(m._cap)
t("Solfec-1.0's HDF5 mesh file at path: read (32 nodes, 48 tetrahedra)", (m.nnod, len(e)) == (32, 48), (m.nnod, len(e)))
t('it fills the PIPE it was made of exactly (volume %.12g)' % volume(p), abs(volume(m) - volume(p)) < 1e-12 * volume(p), (volume(m), volume(p)))
t('its boundary faces close it (the divergence theorem over them gives that volume)', abs(boundary_volume(m) - volume(p)) < 1e-12 * volume(p), boundary_volume(m))
raw = _moreau.solfec_mesh_ints('$TMP/pipe1.mesh')
words = struct.unpack('=%di' % (len(raw) // 4), raw)
with open('$TMP/pipe1.xdr', 'wb') as f:  # Solfec built without HDF5: n, then the n ints, big endian
    f.write(struct.pack('>i%di' % len(words), len(words), *words))
x = TETRAHEDRALIZE(p, '$TMP/pipe1.xdr')
t("the same mesh in Solfec's XDR file: read alike", (x.nnod, abs(volume(x) - volume(m))) == (32, 0.0), (x.nnod, volume(x)))
with open('$TMP/bad.xdr', 'wb') as f:  # the trailer says 10^6 doubles
    f.write(struct.pack('>i%di' % len(words), len(words), *(words[:-3] + (10 ** 6,) + words[-2:])))
t("a broken Solfec file: named with what is wrong", raises(lambda: TETRAHEDRALIZE(p, '$TMP/bad.xdr'), ValueError, "TETRAHEDRALIZE: path '$TMP/bad.xdr' holds a mesh file of Solfec-1.0 that cannot be read: the block inflates to"))
shutil.copy(s.h5, '$TMP/other.h5')
t("an HDF5 file that is not Solfec's mesh: named", raises(lambda: TETRAHEDRALIZE(p, '$TMP/other.h5'), ValueError, "is an HDF5 file without Solfec-1.0's mesh"))
PY
  out=$("$MOREAU" -w "$TMP/solfecmesh.py" 2>&1); rc=$?
  echo "$out" | grep -E '^(not )?ok - '
  [ $rc -eq 0 ] || { notok "the Solfec mesh deck exits 0 (rc=$rc)"; echo "$out" | tail -8 | sed 's/^/# /'; }
fi

if ! grep -q '^TETGEN$' <<<"$notet"; then echo "$notet" | grep -E '^(not )?ok - '; exit 0; fi

# --- a cube, moved off the axes: its volume exactly, the bound, the ids, the orientation
deck cube <<PY
$HEAD
c = HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 2, 2, 2, 7, [1, 2, 3, 4, 5, 6])
TRANSLATE(c, (10, -3, 2))
m = TETRAHEDRALIZE(c, '$TMP/mesh/cube.json', 0.005)
t('cube: the tetrahedra fill its volume 1 (to 1e-12)', abs(volume(m) - 1) < 1e-12, volume(m))
T, F, X = tets('$TMP/mesh/cube.json')
t('cube: written to path (a new folder)', len(T) == len(m.inter_element_faces()) * 2 // 4 + len(F) // 4 or len(T) > 0)
t('cube: %d tetrahedra, none above the volume bound 0.005' % len(T), len(T) > 200 and max(det(X, n) / 6 for n, _ in T) <= 0.005 * (1 + 1e-12), max(det(X, n) / 6 for n, _ in T))
t('cube: every tetrahedron turns positive (TET4 order)', min(det(X, n) for n, _ in T) > 0)
t('cube: every tetrahedron has the HEX volid 7', set(v for _, v in T) == {7})
planes = {1: (2, 2.0), 2: (0, 10.0), 3: (1, -2.0), 4: (0, 11.0), 5: (1, -3.0), 6: (2, 3.0)}  # HEX's face order (Solfec's): bottom, x=0, y=1, x=1, y=0, top
bad = [(f, sid) for f, sid in F if sid not in planes or any(abs(X[k][planes[sid][0]] - planes[sid][1]) > 1e-12 for k in f)]
t('cube: %d boundary triangles, each with the surface id of the face it lies on' % len(F), F and not bad, bad[:3])
area = {}
for f, sid in F:
    a, b, c3 = (X[k] for k in f)
    u, v = [b[i] - a[i] for i in range(3)], [c3[i] - a[i] for i in range(3)]
    area[sid] = area.get(sid, 0) + 0.5 * math.sqrt(sum(x * x for x in (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])))
t('cube: the triangles of each surface id cover its face (area 1)', sorted(area) == [1, 2, 3, 4, 5, 6] and all(abs(a - 1) < 1e-12 for a in area.values()), area)
t('cube: nodes_on_surface(4) are the nodes on x = 11', all(abs(m.node(n)[0] - 11) < 1e-12 for n in m.nodes_on_surface(4)) and len(m.nodes_on_surface(4)) > 9)
again = TETRAHEDRALIZE(c, '$TMP/mesh/cube.json', 0.5)
t('cube: called again, the mesh is read from path (the volume bound of the call is not used)', again.nnod == m.nnod and all(again.node(k) == m.node(k) for k in range(m.nnod)))
q = TETRAHEDRALIZE(c, '$TMP/mesh/cube-q.json', quality=1.2, min_angle=10)
t('cube: quality 1.2 and min_angle 10 keep the volume', abs(volume(q) - 1) < 1e-12 and q.nnod >= 27)

# two volume ids: two boxes side by side, each tetrahedron takes its own
two = MESH([0,0,0, 1,0,0, 2,0,0, 0,1,0, 1,1,0, 2,1,0, 0,0,1, 1,0,1, 2,0,1, 0,1,1, 1,1,1, 2,1,1],
           [8, 0,1,4,3, 6,7,10,9, 1, 8, 1,2,5,4, 7,8,11,10, 2], 9)
m2 = TETRAHEDRALIZE(two, '$TMP/mesh/two.json', 0.01)
T, F, X = tets('$TMP/mesh/two.json')
side = [(v, sum(X[k][0] for k in n) / 4) for n, v in T]
t('two volume ids: each tetrahedron has the id of the box it lies in', all((v == 1) == (x < 1) and v in (1, 2) for v, x in side) and {1, 2} == set(v for v, _ in side), side[:4])
t('two volume ids: the volume 2, boundary triangles only (surface id 9)', abs(volume(m2) - 2) < 1e-12 and set(s for _, s in F) == {9} and all(not all(abs(X[k][0] - 1) < 1e-12 for k in f) for f, _ in F))

# a polyhedron of a sphere from an .off file: its volume
from math import cos, sin, pi
P = [(0, 0, 1)] + [(sin(a) * cos(b), sin(a) * sin(b), cos(a)) for a in (pi / 4, pi / 2, 3 * pi / 4) for b in (2 * pi * k / 8 for k in range(8))] + [(0, 0, -1)]
Fs = [(0, 1 + k, 1 + (k + 1) % 8) for k in range(8)]
for r in range(2):
    for k in range(8):
        a, b, c1, d = 1 + 8 * r + k, 1 + 8 * r + (k + 1) % 8, 9 + 8 * r + (k + 1) % 8, 9 + 8 * r + k
        Fs += [(a, d, c1), (a, c1, b)]
Fs += [(25, 17 + (k + 1) % 8, 17 + k) for k in range(8)]
with open('$TMP/sphere.off', 'w') as f:
    f.write('OFF\n%d %d 0\n' % (len(P), len(Fs)) + ''.join('%.17g %.17g %.17g\n' % p for p in P) + ''.join('3 %d %d %d\n' % x for x in Fs))
Vp = sum(P[a][0] * (P[b][1] * P[c1][2] - P[b][2] * P[c1][1]) + P[a][1] * (P[b][2] * P[c1][0] - P[b][0] * P[c1][2]) + P[a][2] * (P[b][0] * P[c1][1] - P[b][1] * P[c1][0]) for a, b, c1 in Fs) / 6
sp = TETRAHEDRALIZE('$TMP/sphere.off', '$TMP/mesh/sphere.json', 0.05, 1.5, volid=3, surid=4)  # lng.c's spelling
T, F, X = tets('$TMP/mesh/sphere.json')
t('sphere polyhedron (.off): the tetrahedra fill its volume %.6f (to 1e-12)' % Vp, abs(volume(sp) - Vp) < 1e-12 * Vp, (volume(sp), Vp))
t('sphere polyhedron: no ids in the file: volid 3 and surfid 4 stand', set(v for _, v in T) == {3} and sp.nodes_on_surface(4) and max(det(X, n) / 6 for n, _ in T) <= 0.05 * (1 + 1e-12))

# ELLIP_MESH: the surface nodes on the ellipsoid, the volume that of its surface polyhedron
e = ELLIP_MESH((1, 2, 3), (0.6, 0.8, 1.0), 0.01, 5, 6)
on = [e.node(n) for n in e.nodes_on_surface(6)]
t('ELLIP_MESH: %d surface nodes, all on the ellipsoid' % len(on), len(on) > 100 and all(abs(((x - 1) / 0.6) ** 2 + ((y - 2) / 0.8) ** 2 + ((z - 3) / 1.0) ** 2 - 1) < 1e-12 for x, y, z in on))
V = 4 / 3 * pi * 0.6 * 0.8
t('ELLIP_MESH: volume %.5f that of its surface (%.5f), within 3%% of the ellipsoid\'s %.5f' % (volume(e), boundary_volume(e), V), abs(volume(e) - boundary_volume(e)) < 1e-12 and 0.97 * V < volume(e) < V)
t('ELLIP_MESH: surface id 6 only', e.nodes_on_surface(5) is None)

# a FINITE_ELEMENT body of tetrahedra runs
b = BODY(s, 'FINITE_ELEMENT', m, BULK_MATERIAL(s, young=1e6, density=1e3))
GRAVITY(s, (0, 0, -10))
RUN(s, NEWTON_SOLVER(), 0.003)
t('a FINITE_ELEMENT body of the cube\'s tetrahedra runs 3 steps', s.time > 0.0029, s.time)
PY
out=$("$MOREAU" -w "$TMP/cube.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || { notok "cube deck exits 0 (rc=$rc)"; echo "$out" | tail -8 | sed 's/^/# /'; }

# --- two ranks: the same mesh on each (one writes path), the body runs
deck ranks <<PY
$HEAD
c = HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6)
m = TETRAHEDRALIZE(c, '$TMP/mesh/ranks.json', 0.05)
b = BODY(s, 'FINITE_ELEMENT', m, BULK_MATERIAL(s, young=1e6, density=1e3))
b2 = BODY(s, 'FINITE_ELEMENT', TETRAHEDRALIZE(c, '$TMP/mesh/ranks.json'), BULK_MATERIAL(s, young=1e6, density=1e3))
RUN(s, NEWTON_SOLVER(), 0.002)
t('2 ranks: TETRAHEDRALIZE, bodies of tetrahedra run', s.time > 0.0019 and NCPU(s) == 2, (s.time, NCPU(s)))
PY
out=$(mpirun_files 120 "$TMP/ranks-177" 2 "$MOREAU" -w "$TMP/ranks.py"); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || { notok "2-rank deck exits 0 (rc=$rc)"; echo "$out" | tail -8 | sed 's/^/# /'; }

# --- bad input, each named
cat >"$TMP/open.off" <<'EOF_OFF'
OFF
8 5 0
0 0 0
1 0 0
1 1 0
0 1 0
0 0 1
1 0 1
1 1 1
0 1 1
4 0 3 2 1
4 0 1 5 4
4 1 2 6 5
4 2 3 7 6
4 3 0 4 7
EOF_OFF
deck errors <<PY
$HEAD
c = HEX([0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1], 1, 1, 1, 1, [1]*6)
t('an open box (.off, no top): "not closed", naming the file and an open edge', raises(lambda: TETRAHEDRALIZE('$TMP/open.off', '$TMP/o.json'), ValueError, "TETRAHEDRALIZE: file '$TMP/open.off': the surface is not closed: 4 edges belong to one face only, e.g. the edge from ("))
def cube_off(o):
    v = [(o + x, o + y, o + z) for z in (0, 1) for y in (0, 1) for x in (0, 1)]
    return v, [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (1, 3, 7, 5), (3, 2, 6, 7), (2, 0, 4, 6)]
v, f = cube_off(0)
v2, f2 = cube_off(0.5)
with open('$TMP/cross.off', 'w') as out:  # two cubes through each other
    out.write('OFF\n16 12 0\n' + ''.join('%g %g %g\n' % p for p in v + v2) + ''.join('4 %d %d %d %d\n' % q for q in f + [tuple(i + 8 for i in q) for q in f2]))
t('a surface through itself (TetGen 1.5 crashes on it: run apart): "intersects itself", named', raises(lambda: TETRAHEDRALIZE('$TMP/cross.off', '$TMP/x.json'), ValueError, "TETRAHEDRALIZE: file '$TMP/cross.off': the surface intersects itself: TetGen finds 12 faces crossing others"))
t('a missing file: named', raises(lambda: TETRAHEDRALIZE('$TMP/nosuch.stl', '$TMP/n.json'), FileNotFoundError, "TETRAHEDRALIZE: shape file '$TMP/nosuch.stl' does not exist"))
open('$TMP/shape.txt', 'w').write('x')
t('a file TetGen does not read: named with the formats', raises(lambda: TETRAHEDRALIZE('$TMP/shape.txt', '$TMP/n.json'), ValueError, "is not a surface file TetGen reads: give a .poly"))
open('$TMP/foreign.dat', 'w').write('HDF')
t('a foreign file at path: named', raises(lambda: TETRAHEDRALIZE(c, '$TMP/foreign.dat'), ValueError, "TETRAHEDRALIZE: path '$TMP/foreign.dat' exists but is not a mesh written by TETRAHEDRALIZE (moreau's file, or Solfec-1.0's HDF5 or XDR file)"))
t('volume 0: named', raises(lambda: TETRAHEDRALIZE(c, '$TMP/v.json', 0), ValueError, 'TETRAHEDRALIZE: volume (the largest tetrahedron volume) must be > 0, got 0'))
t('quality 1: named', raises(lambda: TETRAHEDRALIZE(c, '$TMP/v.json', 0.1, 1.0), ValueError, 'TETRAHEDRALIZE: quality must be > 1.0'))
t('a SPHERE: named', raises(lambda: TETRAHEDRALIZE(SPHERE((0, 0, 0), 1, 1, 1), '$TMP/v.json'), TypeError, 'TETRAHEDRALIZE: shape must be a MESH (HEX, PIPE) or the name of a TetGen input file'))
t('ELLIP_MESH with a zero radius: named', raises(lambda: ELLIP_MESH((0, 0, 0), (1, 0, 1), 0.1, 1, 1), ValueError, 'ELLIP_MESH: radii must be positive'))
PY
out=$("$MOREAU" -w "$TMP/errors.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || { notok "errors deck exits 0 (rc=$rc)"; echo "$out" | tail -8 | sed 's/^/# /'; }
