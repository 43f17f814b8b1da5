#!/usr/bin/env bash
# Moving obstacles (Solfec-1.0's OBSTACLE given a velocity: bod.c moves it by its velocity
# and the joints on it alone, pushed by no load and no contact; doc/deck-api.md): a ball
# resting on an OBSTACLE plate that SET_VELOCITY moves up at v is carried up with it, and an
# OBSTACLE given an INITIAL_VELOCITY spin about a principal axis turns at that rate; on 1
# and 2 ranks (the plate and the ball on different ranks), the same numbers; a checkpoint
# keeps the obstacles' motion (restart bit for bit); the energy balances (the plate's work
# on the ball counted with the reactions'); contradictory prescribed velocities and
# a moving obstacle in a QUASI_STATIC analysis are errors that say so. Under timeout.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"

# The plate (body 0, 2 x 2 x 0.1, top at z = 0) moves up at v = 0.5, prescribed at the
# centre of its top, its horizontal motion held by FIX_DIRECTION at two corners; the ball
# (body 1, radius 0.1) rests on it under gravity; the cube (body 2) far above spins at
# w = 2 about z. Printed: the rises of the ball and the plate, the plate's sideways drift,
# the cube's angle (from a point of it at radius 0.5).
cat >"$TMP/movobs.py" <<'PY'
import math, sys
h, T, v, w = 1e-3, 0.5, 0.5, 2.0
s = SOLFEC(sys.argv[1] if len(sys.argv) > 1 else 'DYNAMIC', h, 'out')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
SURFACE_MATERIAL(s, friction=0.5)
m = BULK_MATERIAL(s, density=1000)
plate = BODY(s, 'OBSTACLE', HEX([-1, -1, -0.1, 1, -1, -0.1, 1, 1, -0.1, -1, 1, -0.1, -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0], 1, 1, 1, 1, [1] * 6), m)
SET_VELOCITY(plate, (0, 0, 0), (0, 0, 1), v)
for p in ((1, 1, 0), (-1, -1, 0)):
    FIX_DIRECTION(plate, p, (1, 0, 0))
    FIX_DIRECTION(plate, p, (0, 1, 0))
ball = BODY(s, 'RIGID', SPHERE((0, 0, 0.1), 0.1, 2, 2), m)
spin = BODY(s, 'OBSTACLE', HEX([-0.5, -0.5, 4.5, 0.5, -0.5, 4.5, 0.5, 0.5, 4.5, -0.5, 0.5, 4.5, -0.5, -0.5, 5.5, 0.5, -0.5, 5.5, 0.5, 0.5, 5.5, -0.5, 0.5, 5.5], 1, 1, 1, 3, [3] * 6), m)
INITIAL_VELOCITY(spin, (0, 0, 0), (0, 0, w))
OUTPUT(s, 10 * h)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-8, 1000), T)
t, bz, pz, px, sx, sy = HISTORY(s, [(ball, (0, 0, 0.1), 'DZ'), (plate, (0, 0, 0), 'DZ'), (plate, (1, 1, 0), 'DX'), (spin, (0.5, 0, 5), 'DX'), (spin, (0.5, 0, 5), 'DY')])
if RANK() == 0:
    print('MOVOBS t %.6f v %g w %g ball %.12e plate %.12e dx %.3e angle %.12e' % (t[-1], v, w, bz[-1], pz[-1], px[-1], math.atan2(sy[-1], 0.5 + sx[-1])))
PY

# movobs NP ARGS...: the deck's MOVOBS line
movobs() { local np=$1; shift; timeout 300 $MPIRUN -np "$np" "$MOREAU" "$@" 2>&1 | tee "$TMP/log-$np" | grep -m1 '^MOVOBS'; }
l1=$(movobs 1 -mb_output_dir o1 movobs.py); echo "# 1 rank:  $l1"
l2=$(movobs 2 -mb_output_dir o2 movobs.py); echo "# 2 ranks: $l2"
[ -n "$l1" ] || tail -n 8 "$TMP/log-1" | sed 's/^/# /'
# the plate's placement at t follows Solfec's midpoint rule from u(0) = 0 to u = v: it
# rises v (t − h/2); the ball rides it, so it rises as much (1e-9 m), and so v t within 1 %
check "a ball resting on an OBSTACLE plate moving up at v = 0.5 (SET_VELOCITY) rises v t (1 %) with the plate (1e-9 m); the plate does not drift sideways" \
  awk '{ t = $3; v = $5; b = $9; p = $11; dx = $13 } END { d = b - p; if (d < 0) d = -d; e = b - v * t; if (e < 0) e = -e; if (dx < 0) dx = -dx; exit !(NR == 1 && d < 1e-9 && e < 0.01 * v * t && dx < 1e-12) }' <<<"$l1"
check "an OBSTACLE given an INITIAL_VELOCITY spin w = 2 about its principal axis turns w t (1e-9 rad)" \
  awk '{ t = $3; w = $7; a = $15; e = a - w * t; if (e < 0) e = -e; exit !(NR == 1 && e < 1e-9) }' <<<"$l1"
# the plate's work on the ball counts with the reactions' (contact work), so the energy
# balances: kinetic = external (gravity) + contact − friction, to 1e-6 of the work done
check "... the energy balances: the moving plate's work on the ball is counted in the contact work" \
  awk '/^moreau: energy/ { k = $4; x = $7; c = $10; f = $13; g = k - x - c + f; if (g < 0) g = -g; s = (x < 0 ? -x : x) + c; n = 1 } END { exit !(n && g < 1e-6 * s) }' "$TMP/log-1"
check "... the same numbers on 2 ranks (the plate and the ball on different ranks)" bash -c '[ -n "$0" ] && [ "$0" = "$1" ]' "$l1" "$l2"

# --- a checkpoint carries the obstacles' motion: stopped at step 200, restarted, the same line
timeout 300 $MPIRUN -np 1 "$MOREAU" -mb_output_dir r1 -mb_signal_at_step 200 movobs.py >"$TMP/log-stop" 2>&1; rc=$?
check "stopped at step 200 (exit status 75, got $rc)" [ $rc -eq 75 ]
lr=$(movobs 1 -mb_output_dir r1 -mb_restart movobs.py); echo "# restart: $lr"
check "... restarted, the moving obstacles end where the uninterrupted run's do (the same line)" bash -c '[ -n "$0" ] && [ "$0" = "$1" ]' "$l1" "$lr"

# --- contradictory prescribed velocities: two SET_VELOCITY along z at two points of the
# plate's vertical axis (whose z velocities are equal in any rigid motion) with 0.5 and 1
sed -e 's/^SET_VELOCITY(plate, (0, 0, 0), (0, 0, 1), v)$/&\nSET_VELOCITY(plate, (0, 0, -0.1), (0, 0, 1), 1.0)/' movobs.py >contra.py
expect_error "contradictory SET_VELOCITYs on an OBSTACLE: an error naming the body and the velocities" "OBSTACLE 0: its prescribed velocities contradict each other: .* which make it 0.5, not the prescribed 1" timeout 120 "$MOREAU" -mb_output_dir oc contra.py
# --- Solfec-1.0 refuses moving obstacles in the quasi-static case; so does moreau
expect_error "a moving OBSTACLE in a QUASI_STATIC analysis: an error that says so" "body 0 is an obstacle given a velocity or a prescribed motion: moving obstacles do not work in a QUASI_STATIC analysis" timeout 120 "$MOREAU" -mb_output_dir oq movobs.py QUASI_STATIC
