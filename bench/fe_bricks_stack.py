# Benchmark (issue 18): many small FINITE_ELEMENT bodies in contact, for the speed-up on
# several ranks: nx*ny*nz bricks (default 10x5x10 = 500) of 2x1x1 HEX8 each, stacked in
# layers with small gaps on a floor, falling and settling under gravity (DEF_EXP, the step
# half the bricks' critical step). Run: mpirun -np N moreau bench/fe_bricks_stack.py [nx ny nz steps]
import sys
nx, ny, nz = [int(a) for a in (sys.argv[1:4] if len(sys.argv) > 3 else (10, 5, 10))]
steps = int(sys.argv[4]) if len(sys.argv) > 4 else 600
a, b, c, gap = 0.2, 0.1, 0.1, 0.001
s = SOLFEC('DYNAMIC', 1e-4, 'out/fe_bricks_stack')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
mat = BULK_MATERIAL(s, young=1e8, poisson=0.25, density=2000)
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.5)
L, W = nx * (a + gap), ny * (b + gap)
BODY(s, 'OBSTACLE', HEX([-1, -1, -0.1, L + 1, -1, -0.1, L + 1, W + 1, -0.1, -1, W + 1, -0.1, -1, -1, 0, L + 1, -1, 0, L + 1, W + 1, 0, -1, W + 1, 0], 1, 1, 1, 2, [2] * 6), mat)
bricks = []
for k in range(nz):
    for j in range(ny):
        for i in range(nx):
            x0, y0, z0 = i * (a + gap), j * (b + gap), gap + k * (c + gap)
            bricks.append(BODY(s, 'FINITE_ELEMENT', HEX([x0, y0, z0, x0 + a, y0, z0, x0 + a, y0 + b, z0, x0, y0 + b, z0, x0, y0, z0 + c, x0 + a, y0, z0 + c, x0 + a, y0 + b, z0 + c, x0, y0 + b, z0 + c], 2, 1, 1, 1, [1] * 6), mat))
hc = CRITICAL_STEP(s)
s.step = 0.5 * hc
OUTPUT(s, 1.0)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 1000), steps * s.step)
