# The `make run` deck: a few rigid bodies of different shapes (spheres, a box, a hull)
# tumbling under gravity for two seconds, with output for ParaView in out/default/.
# Contact does not exist yet, so they fall through each other.
solfec = SOLFEC('DYNAMIC', 1e-3, 'out/default')
GRAVITY(solfec, (0, 0, -9.81))
steel = BULK_MATERIAL(solfec, model='KIRCHHOFF', label='steel', young=200e9, poisson=0.3, density=7800)
wood = BULK_MATERIAL(solfec, label='wood', young=10e9, poisson=0.3, density=600)

nodes = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
box = BODY(solfec, 'RIGID', HEX(nodes, 2, 2, 2, 1, [1] * 6), wood, label='box')
INITIAL_VELOCITY(box, (1, 0, 5), (0, 3, 0.1))

for i in range(4):
    ball = BODY(solfec, 'RIGID', SPHERE((3 + 1.2 * i, 0, 0), 0.5, 2, 2), steel, label='ball%d' % i)
    INITIAL_VELOCITY(ball, (0, 0.5 * i, 4), (0, 0, 2 * i))
    if i % 2:
        ball.scheme = 'RIG_IMP'

pts = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0.5, 0.5, -0.5]
hull = BODY(solfec, 'RIGID', TRANSLATE(HULL(pts, 3, 3), (-3, 0, 0)), wood, label='hull')
INITIAL_VELOCITY(hull, (0, 0, 6), (5, 0, 1))
dumbbell = BODY(solfec, 'RIGID', [SPHERE((0, -3, 0), 0.3, 4, 4), SPHERE((0, -2, 0), 0.3, 4, 4)], steel, label='dumbbell')
INITIAL_VELOCITY(dumbbell, (0, 0, 3), (8, 0, 0))
floor = BODY(solfec, 'OBSTACLE', HEX([-6, -6, -3, 10, -6, -3, 10, 6, -3, -6, 6, -3, -6, -6, -2.5, 10, -6, -2.5, 10, 6, -2.5, -6, 6, -2.5], 1, 1, 1, 5, [5] * 6), wood, label='floor')

OUTPUT(solfec, 0.02)
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-3, 100), 2.0)

kin, internal, ext, con, fri = ENERGY(solfec)
if RANK() == 0:
    print('default: %d bodies, t = %g s; kinetic energy %.6g J, work of gravity %.6g J, kinetic - work %.9g J'
          % (len(solfec.bodies), solfec.time, kin, ext, kin - ext))
    print('results: %s (open %s in ParaView)' % (solfec.h5, solfec.xmf))
