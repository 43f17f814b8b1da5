#!/usr/bin/env bash
# Solfec-1.0's installation as its decks look for it: `solfec` beside moreau, its directory on
# the deck's PATH (a deck's where('solfec') finds it), <that directory>/scripts and direct
# imports giving moreau's own abaqusreader and acc_sweep (python/moreau/solfec-compat); the
# reader on a small .inp file (counts, a translated and rotated instance, a material, SURF sets,
# errors naming file and line) and on the corpus's 81fbi.inp; acc_sweep's signal.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
BIN="$MB_BUILD/bin"
cd "$TMP"

check "build/bin/solfec is a link to moreau" bash -c '[ -L "$0/solfec" ] && [ "$(readlink -f "$0/solfec")" = "$(readlink -f "$0/moreau")" ]' "$BIN"
check "build/bin/scripts holds abaqusreader.py and acc_sweep.py" test -f "$BIN/scripts/abaqusreader.py" -a -f "$BIN/scripts/acc_sweep.py"

# a deck as 81array.py and array-of-cubes.py begin, with a PATH that has no moreau on it
cat >where.py <<'PY'
import os, sys
def where(program):
  for path in os.environ["PATH"].split(os.pathsep):
    if os.path.exists(os.path.join(path, program)):
      return path
  return None
d0 = where('solfec')
if d0 is None:
  print('ERROR: solfec not found in PATH!')
  sys.exit(1)
print('FOUND', os.path.realpath(d0))
sys.path.append(d0 + '/scripts')
from acc_sweep import *
import abaqusreader
print('READER', os.path.realpath(abaqusreader.__file__))
PY
for cmd in moreau solfec; do
  out=$(PATH=/usr/bin:/bin "$BIN/$cmd" where.py 2>&1); rc=$?
  check "run as $cmd: the deck's where('solfec') finds the binary's directory" bash -c '[ '$rc' -eq 0 ] && grep -qxF "FOUND $1" <<<"$0"' "$out" "$(readlink -f "$BIN")"
  [ $? -eq 0 ] || echo "$out" | tail -n 5 | sed 's/^/# /'
  check "run as $cmd: <solfec dir>/scripts gives moreau's abaqusreader" grep -qxF "READER $MB_ROOT/python/moreau/solfec-compat/abaqusreader.py" <<<"$out"
done

# a small model: a part of two hexahedra (C3D8R), a C3D10 tetrahedron and a C3D20 brick (data
# continued on a second line), a node set SURF7, two instances (one translated and rotated), a
# material; comments, quoted names, an *Include and keywords the reader skips
cat >nodes.inc <<'INP'
   1, 0., 0., 0.
   2, 1., 0., 0.
   3, 1., 1., 0.
   4, 0., 1., 0.
   5, 0., 0., 1.
   6, 1., 0., 1.
   7, 1., 1., 1.
   8, 0., 1., 1.
   9, 0., 0., 2.
  10, 1., 0., 2.
  11, 1., 1., 2.
  12, 0., 1., 2.
INP
cat >small.inp <<'INP'
*Heading
** a comment
*Preprint, echo=NO
*Part, name="Brick"
*Node
*Include, input=nodes.inc
  99, 5., 5., 5.
*Element, type=C3D8R
1, 1, 2, 3, 4, 5, 6, 7, 8
2, 5, 6, 7, 8, 9, 10, 11, 12
*Nset, nset=Surf7
 9, 10, 11, 12
*Nset, nset=_P1, internal, generate
 1, 12, 1
*Elset, elset=_P1, internal, generate
 1, 2, 1
*Solid Section, elset=_P1, material=Graphite
,
*End Part
*Part, name=Other
*Node
 1, 0., 0., 0.
 2, 1., 0., 0.
 3, 0., 1., 0.
 4, 0., 0., 1.
 5, .5, 0., 0.
 6, .5, .5, 0.
 7, 0., .5, 0.
 8, 0., 0., .5
 9, .5, 0., .5
 10, 0., .5, .5
 21, 3., 0., 0.
 22, 4., 0., 0.
 23, 4., 1., 0.
 24, 3., 1., 0.
 25, 3., 0., 1.
 26, 4., 0., 1.
 27, 4., 1., 1.
 28, 3., 1., 1.
 29, 3.5, 0., 0.
 30, 4., .5, 0.
 31, 3.5, 1., 0.
 32, 3., .5, 0.
 33, 3.5, 0., 1.
 34, 4., .5, 1.
 35, 3.5, 1., 1.
 36, 3., .5, 1.
 37, 3., 0., .5
 38, 4., 0., .5
 39, 4., 1., .5
 40, 3., 1., .5
*Element, type=C3D10M
 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
*Element, type=C3D20R
 2, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
 36, 37, 38, 39, 40
*Solid Section, elset=all, material=GRAPHITE
*End Part
*Assembly, name=Assembly
*Instance, name=B1, part=BRICK
*End Instance
*Instance, name=B2, part=Brick
 10., 0., 0.
 10., 0., 0., 10., 0., 1., 90.
*End Instance
*Instance, name=O1, part=Other
*End Instance
*Nset, nset=RP
 1,
*End Assembly
*Material, name=Graphite
*Density
 1687.5,
*Elastic
 1.18e+10, 0.21
*Step, name=skipped
*Static
*End Step
INP
cat >reader.py <<'PY'
from abaqusreader import AbaqusInput
s = SOLFEC('DYNAMIC', 1e-3, 'out')
s.verbose = 'OFF'
model = AbaqusInput('small.inp', s)
print(model)
p = model.parts['BRICK']
print('PART', p.name, len(p.abqnodes), len(p.abqelements), len(p.nodes) // 3, p.elements, p.surfids, p.materialname)
o = model.parts['OTHER']
print('OTHER', len(o.nodes) // 3, o.elements)
b2 = model.assembly.instances['B2']
print('B2', b2.translate, b2.point, b2.direction, b2.angle)
# node 0 of the part (Abaqus node 1 at the origin): translated to (10, 0, 0), then turned 90
# degrees about the vertical axis through (10, 0, 0): stays; node 1 (1, 0, 0) -> (11, 0, 0) -> (10, 1, 0)
print('NODE0 %.6f %.6f %.6f' % b2.mesh.node(0))
print('NODE1 %.6f %.6f %.6f' % b2.mesh.node(1))
m = b2.material
print('MATERIAL', m.label, m.density, m.young, m.poisson, m is model.assembly.instances['O1'].material)
print('SURF7', b2.mesh.nodes_on_surface(7))
for i in model.assembly.instances.values():
    BODY(s, 'FINITE_ELEMENT', i.mesh, i.material, i.name)
print('BODIES', len(s.bodies), ['%.3f' % b.mass for b in s.bodies])
PY
out=$("$MOREAU" reader.py 2>&1); rc=$?
check "AbaqusInput reads the small .inp (exit 0)" test $rc -eq 0
[ $rc -eq 0 ] || echo "$out" | tail -n 8 | sed 's/^/# /'
check "a part: 13 nodes read, 2 elements, the 12 nodes they use, MESH's element list, SURF7's id, its material" \
  grep -qxF "PART BRICK 13 2 12 [8, 0, 1, 2, 3, 4, 5, 6, 7, 1, 8, 4, 5, 6, 7, 8, 9, 10, 11, 1] [0, 4, 8, 9, 10, 11, 7] GRAPHITE" <<<"$out"
check "second-order elements keep their corners (C3D10M -> 4, C3D20R continued on a line -> 8)" \
  grep -qxF "OTHER 12 [4, 0, 1, 2, 3, 1, 8, 4, 5, 6, 7, 8, 9, 10, 11, 1]" <<<"$out"
check "an instance's translation and rotation (point, direction b - a, degrees)" \
  grep -qxF "B2 (10.0, 0.0, 0.0) (10.0, 0.0, 0.0) (0.0, 0.0, 1.0) 90.0" <<<"$out"
check "the instance's mesh is translated, then rotated" bash -c 'grep -qx "NODE0 10.000000 0.000000 0.000000" <<<"$0" && grep -qxE "NODE1 10.000000 1.000000 -?0.000000" <<<"$0"' "$out"
check "the material: one KIRCHHOFF BULK_MATERIAL with *Density and *Elastic's values, shared" grep -qxF "MATERIAL GRAPHITE 1687.5 11800000000.0 0.21 True" <<<"$out"
check "SURF7's face gives surface id 7 to its nodes" grep -qxF "SURF7 [8, 9, 10, 11]" <<<"$out"
check "bodies from the instances (mass = density x volume: 1/6 + 1, 2, 2; newest first, as Solfec's solfec.bodies)" grep -qxF "BODIES 3 ['1968.750', '3375.000', '3375.000']" <<<"$out"

# errors: the file and line, or the missing file
sed 's/type=C3D10M/type=S4R/' small.inp >bad1.inp
printf "from abaqusreader import AbaqusInput\nAbaqusInput('bad1.inp')\n" >bad1.py
expect_error "a shell element: the file:line and the type" "bad1\.inp:52: element type 'S4R' in part OTHER" "$MOREAU" bad1.py
sed 's/^ 10\., 0\., 0\., 10\., 0\., 1\., 90\./ 10., 0., 0., 10./' small.inp >bad2.inp
printf "from abaqusreader import AbaqusInput\nAbaqusInput('bad2.inp')\n" >bad2.py
expect_error "an instance line of 4 numbers: the file:line" "bad2\.inp:64: \*Instance B2: a data line is a translation \(3 numbers\) or a rotation \(7\), got 4" "$MOREAU" bad2.py
printf "from abaqusreader import AbaqusInput\nAbaqusInput('nosuch.inp')\n" >bad3.py
expect_error "a missing file is named" "AbaqusInput: cannot open the .inp file 'nosuch.inp'" "$MOREAU" bad3.py
sed 's/^\*Material, name=Graphite/*Material, name=Steel/' small.inp >bad4.inp
printf "from abaqusreader import AbaqusInput\nAbaqusInput('bad4.inp', SOLFEC('DYNAMIC', 1e-3, 'out4'))\n" >bad4.py
expect_error "an instance's material that no *Material defines" "instance B1: its part BRICK has material GRAPHITE, which no \*Material defines" "$MOREAU" bad4.py

# the corpus's two fuel bricks (examples/81array/81fbi.inp), without a solfec object
CORPUS="$MB_ROOT/../shared/solfec-1.0"
if [ -f "$CORPUS/examples/81array/81fbi.inp" ]; then
  cat >fbi.py <<PY
from abaqusreader import AbaqusInput
model = AbaqusInput('$CORPUS/examples/81array/81fbi.inp')
p = model.parts['FB']
m = model.materials['FB_GRAPHITE']
i = model.assembly.instances['FB2(0)(0)']
print('FBI', len(model.parts), len(p.nodes) // 3, len(p.abqelements), len(model.assembly.instances), m.density, m.Ym, m.poisson, i.material)
print('ROT %.4f %s' % (i.angle, i.direction))
n, e, s = MESH(p.nodes, p.elements, p.surfids).get_data()
print('ROUNDTRIP', n == p.nodes, sorted(e) == sorted(p.elements))
PY
  out=$("$MOREAU" fbi.py 2>&1)
  check "81fbi.inp: 1 part of 144 nodes and 40 elements, 2 instances, FB_Graphite's values, no material without solfec" \
    grep -qxF "FBI 1 144 40 2 1687.71 11800000000.0 0.21 None" <<<"$out"
  [ $? -eq 0 ] || echo "$out" | tail -n 5 | sed 's/^/# /'
  check "81fbi.inp: the instance's rotation, 45 degrees about -z" grep -qxF "ROT 45.0000 (0.0, 0.0, -1.0)" <<<"$out"
  check "81fbi.inp: MESH(part data).get_data() gives the part's data back" grep -qxF "ROUNDTRIP True True" <<<"$out"
else
  echo "# no corpus at $CORPUS: 81fbi.inp not read"
fi

# acc_sweep: the signal of array-of-cubes.py (rest .6 s, step 5e-4, 2.4 s of 2 Hz at 5 m/s^2)
cat >sweep.py <<'PY'
import math
from acc_sweep import acc_sweep
vt, vd, vv, va = acc_sweep(.6, 5e-4, 2.4, 2, 2, 5)
r = 1200
motion = vv[r:]
print('LENGTHS', len(vt) == len(vd) == len(vv) == len(va), len(vt))
print('TIMES', abs(vt[1] - 5e-4) < 1e-15, all(abs(vt[k] - k * 5e-4) < 1e-9 for k in range(len(vt))))
print('REST', all(x == 0 for x in vv[:r] + vd[:r] + va[:r]), abs(vv[r]) < 0.01)
print('AMAX %.3f' % max(abs(a) for a in va))
print('VAMP %.3f' % (0.5 * (max(motion) - min(motion))))          # 5 / (2 pi 2) = 0.398
print('VMEAN %.3f' % abs(sum(motion) / len(motion)))
dv = max(abs(vd[k + 1] - vd[k] - 5e-4 * 0.5 * (vv[k] + vv[k + 1])) for k in range(r, len(vv) - 1))
print('DV', dv < 1e-12)
try:
    acc_sweep(0, 0, 1, 1, 1, 1)
except ValueError as e:
    print('ERR', e)
PY
out=$("$MOREAU" sweep.py 2>&1)
check "acc_sweep: four lists of one length (rest + motion)" grep -qxF "LENGTHS True 6001" <<<"$out"
[ $? -eq 0 ] || echo "$out" | tail -n 8 | sed 's/^/# /'
check "acc_sweep: times 0, step, 2 step, ..." grep -qxF "TIMES True True" <<<"$out"
check "acc_sweep: at rest for rest seconds, the motion starting from about zero velocity" grep -qxF "REST True True" <<<"$out"
check "acc_sweep: acceleration magnitude amag" grep -qxF "AMAX 5.000" <<<"$out"
check "acc_sweep: velocity amplitude amag / (2 pi f) = 0.398 about a zero mean" bash -c 'grep -qxE "VAMP 0\.39[789]" <<<"$0" && grep -qxE "VMEAN 0\.0[01][0-9]" <<<"$0"' "$out"
check "acc_sweep: the displacement integrates the velocity" grep -qxF "DV True" <<<"$out"
check "acc_sweep: a zero step is an error naming it" grep -qxF "ERR acc_sweep: step must be > 0, got 0" <<<"$out"
