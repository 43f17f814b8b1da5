# Benchmark: the cost of an output frame over a long run (issue 20). 50 spheres settle on a
# floor and roll on; no OUTPUT interval, so every step is a frame, as in a Solfec deck that
# sets none. A CALLBACK every `window` steps measures the wall time of the last window
# (steps + frames); the run prints the frames per second of the first and the last window
# and their ratio, which must stay near 1 if a frame's cost does not grow with the frames
# already in the file.
#
#   build/bin/moreau -mb_quiet bench/frame_cost.py [frames] [window]
#       frames = 20000 (default), window = frames / 20
#   build/bin/moreau -mb_quiet bench/frame_cost.py 100000    the target of issue 20
# Results: doc/benchmarks.md, "Frame cost over a long run".
import sys
import time

frames = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
window = int(sys.argv[2]) if len(sys.argv) > 2 else max(frames // 20, 1)
h = 1e-3
s = SOLFEC('DYNAMIC', h, 'out/frame_cost')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -9.81))
SURFACE_MATERIAL(s, friction=0.3)
m = BULK_MATERIAL(s, density=2500)
BODY(s, 'OBSTACLE', HEX([-50, -50, -0.2, 50, -50, -0.2, 50, 50, -0.2, -50, 50, -0.2, -50, -50, 0, 50, -50, 0, 50, 50, 0, -50, 50, 0], 1, 1, 1, 1, [1] * 6), m)  # wide: the spheres roll on it for the whole run
for k in range(50):
    i, j, l = k % 5, (k // 5) % 5, k // 25
    b = BODY(s, 'RIGID', SPHERE((-0.3 + 0.15 * i, -0.3 + 0.15 * j, 0.06 + 0.15 * l), 0.05, 2, 2), m)
    b.velo = (0, 0, 0, 0.05 * (i - 2), 0.05 * (j - 2), 0)
rates = []
clock = [time.perf_counter()]


def measure():
    now = time.perf_counter()
    rates.append(window / (now - clock[0]))
    clock[0] = now
    return 1


CALLBACK(s, window * h - 0.5 * h, (), measure)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-4, 100), frames * h)
if RANK() == 0 and len(rates) >= 2:
    print('frame_cost: %d frames of 50 spheres, windows of %d: %.0f frames/s at the start, %.0f at the end, end/start %.3f' % (frames, window, rates[0], rates[-1], rates[-1] / rates[0]))
