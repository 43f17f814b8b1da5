# cases/example.py — run with: mpirun -np 2 build/bin/moreau cases/example.py
solfec = SOLFEC('DYNAMIC', 1e-3, 'out/example')       # analysis, step, output directory
GRAVITY(solfec, (0, 0, -9.81))
mat = BULK_MATERIAL(solfec, model='KIRCHHOFF', young=1e9, poisson=0.25, density=2500)
nodes = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]
box = BODY(solfec, 'RIGID', HEX(nodes, 1, 1, 1, 1, [1]*6), mat, label='box')
INITIAL_VELOCITY(box, (1, 0, 5), (0, 3, 0.1))           # linear, angular
ball = BODY(solfec, 'RIGID', SPHERE((3, 0, 0), 0.5, 1, 1), mat)
ball.scheme = 'RIG_IMP'
OUTPUT(solfec, 0.01)                                     # a frame every 0.01 s
RUN(solfec, GAUSS_SEIDEL_SOLVER(1e-3, 100), 2.0)
if solfec.mode == 'READ':                               # results already there: read the last frame
    SEEK(solfec, DURATION(solfec)[1])
e = ENERGY(solfec)                                       # collective: every rank calls it
if RANK() == 0: print(e)                                 # kinetic, internal, external, contact, friction
