# The `make run` deck: a small masonry wall of 30 bricks in running bond on the ground,
# knocked over by a steel ball, with a heap of 40 pebbles (spheres) poured beside it.
# Frictional contact with the Gauss-Seidel solver; 2 s of motion, output every 0.02 s in
# out/default/ for ParaView (bodies, spheres and contact forces as glyphs).
import random
import sys

solfec = SOLFEC('DYNAMIC', 1e-3, 'out/default')
GRAVITY(solfec, (0, 0, -9.81))
SURFACE_MATERIAL(solfec, model='SIGNORINI_COULOMB', friction=0.6, restitution=0.0)
stone = BULK_MATERIAL(solfec, label='stone', young=20e9, poisson=0.2, density=2200)
steel = BULK_MATERIAL(solfec, label='steel', young=200e9, poisson=0.3, density=7800)


def brick(x0, y0, z0, lx, ly, lz):
    return HEX([x0, y0, z0, x0 + lx, y0, z0, x0 + lx, y0 + ly, z0, x0, y0 + ly, z0,
                x0, y0, z0 + lz, x0 + lx, y0, z0 + lz, x0 + lx, y0 + ly, z0 + lz, x0, y0 + ly, z0 + lz], 1, 1, 1, 1, [1] * 6)


# ground
BODY(solfec, 'OBSTACLE', brick(-3, -3, -0.2, 8, 6, 0.2), stone, label='ground')
# the wall: 6 courses of 5 bricks 0.4 x 0.2 x 0.2 m, every other course shifted by half a brick
L, W, H = 0.4, 0.2, 0.2
for k in range(6):
    shift = 0.0 if k % 2 == 0 else 0.5 * L
    for i in range(5):
        BODY(solfec, 'RIGID', brick(-1.0 + i * L + shift, -0.5 * W, k * H, L, W, H), stone, label='brick%d_%d' % (k, i))
# the ball, thrown at the upper courses
ball = BODY(solfec, 'RIGID', SPHERE((0.0, -1.2, 0.9), 0.15, 2, 2), steel, label='ball')
INITIAL_VELOCITY(ball, (0, 4.0, 1.0), (0, 0, 0))
# pebbles falling on the ground beside the wall
rng = random.Random(7)
for i in range(40):
    c = (1.6 + 0.13 * (i % 4) + rng.uniform(-0.01, 0.01), -0.2 + 0.13 * ((i // 4) % 3), 0.3 + 0.13 * (i // 12) + rng.uniform(0, 0.02))
    BODY(solfec, 'RIGID', SPHERE(c, 0.05, 3, 3), stone, label='pebble%d' % i)

OUTPUT(solfec, 0.02)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-3, 200), float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
# READ mode (a second run where the results are: RUN did nothing): check the last stored frame, as Solfec-1.0's decks do
if solfec.mode == 'READ':
    SEEK(solfec, DURATION(solfec)[1])

kin, internal, ext, con, fri = ENERGY(solfec)
if RANK() == 0:
    print('default: %d bodies, t = %g s; kinetic %.6g J, work of gravity %.6g J, contact work %.6g J, friction dissipation %.6g J'
          % (len(solfec.bodies), solfec.time, kin, ext, con, fri))
    print('default: energy balance kinetic - work - contact work + dissipation = %.6g J (initial kinetic %.6g J)'
          % (kin - ext - con + fri, 0.5 * ball.mass * (4.0 ** 2 + 1.0 ** 2)))
    # the balance closes whatever the number of ranks: a contact missed or counted twice at a
    # partition boundary would break it
    e0 = 0.5 * ball.mass * (4.0 ** 2 + 1.0 ** 2)
    print('PASSED' if abs(kin - ext - con + fri - e0) <= 1e-4 * e0 else 'FAILED')
    print('results: %s (open %s in ParaView)' % (solfec.h5, solfec.xmf))
