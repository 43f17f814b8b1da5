#!/usr/bin/env bash
# HEX given left-handed nodes ((1-0) x (2-1) . (4-0) < 0, e.g. its first four nodes on top,
# as tests/BM14/BM14_hexa.py gives them) swaps its lower and upper nodes first (Solfec-1.0
# msh.c MESH_Hex behaviour). (1) The 6th surface id goes to the face of the nodes given
# first (the top here), the 1st to the other, and node 0 is the 5th node given; a
# right-handed HEX is unchanged. (2) A FINITE_ELEMENT cube of such a HEX falls onto an
# obstacle and rests on it (without the swap its elements are inside out and it fell through:
# BM14's two plates did not touch).
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

cat >"$TMP/faces.py" <<'PY'
def zs(m, sid): return sorted(set(round(m.node(i)[2], 9) for i in m.nodes_on_surface(sid)))
left = [0,-2.5,0.5, 10,-2.5,0.5, 10,2.5,0.5, 0,2.5,0.5, 0,-2.5,0, 10,-2.5,0, 10,2.5,0, 0,2.5,0]
right = left[12:] + left[:12]
for name, n in (('left', left), ('right', right)):
    m = HEX(n, 2, 2, 1, 0, [1, 2, 3, 4, 5, 6])
    print('FACES %s top %s bottom %s node0 %s' % (name, zs(m, 6), zs(m, 1), tuple(m.node(0))))
PY
out=$("$MOREAU" "$TMP/faces.py" 2>&1)
check "left-handed HEX: surface 6 on the nodes given first (z 0.5), node 0 the 5th given" \
  grep -qF "FACES left top [0.5] bottom [0.0] node0 (0.0, -2.5, 0.0)" <<<"$out"
check "right-handed HEX unchanged" grep -qF "FACES right top [0.5] bottom [0.0] node0 (0.0, -2.5, 0.0)" <<<"$out"
grep FACES <<<"$out" | sed 's/^/# /'

cat >"$TMP/drop.py" <<'PY'
s = SOLFEC('DYNAMIC', 1e-3, 'out-drop')
GRAVITY(s, (0, 0, -10))
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.0, restitution=0.0)
m = BULK_MATERIAL(s, model='KIRCHHOFF', young=1e7, poisson=0.3, density=1e3)
top, bot = 0.11, 0.01
b = BODY(s, 'FINITE_ELEMENT', HEX([0,0,top, 0.1,0,top, 0.1,0.1,top, 0,0.1,top,
                                   0,0,bot, 0.1,0,bot, 0.1,0.1,bot, 0,0.1,bot], 1, 1, 1, 1, [1]*6), m)
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 1,-1,-1, 1,1,-1, -1,1,-1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1, 1, 2, [2]*6), m)
RUN(s, NEWTON_SOLVER(), 0.3)
print('LOWEST %.6f' % min(b.mesh.node(i)[2] + DISPLACEMENT(b, b.mesh.node(i))[2] for i in range(8)))
PY
out=$("$MOREAU" "$TMP/drop.py" 2>&1)
low=$(sed -n 's/^LOWEST //p' <<<"$out")
check "FINITE_ELEMENT cube of a left-handed HEX rests on the obstacle (lowest z $low)" \
  $PY -c "import sys; sys.exit(0 if abs(float('${low:-nan}')) < 1e-3 else 1)"
