# Benchmark: create N sphere bodies (default 1,000,000) on a 100 x 100 x 100 lattice and
# report the time; measure with
#   /usr/bin/time -v build/bin/moreau bench/million_spheres.py [N]
# (elapsed time and "Maximum resident set size"). Target on one rank: < 30 s, < 2 GiB.
import sys
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
side = 1
while side ** 3 < n:
    side += 1
solfec = SOLFEC('DYNAMIC', 1e-3, 'out/million_spheres')
material = BULK_MATERIAL(solfec, density=2500)
t0 = time.perf_counter()
for k in range(n):
    i, r = divmod(k, side * side)
    j, l = divmod(r, side)
    BODY(solfec, 'RIGID', SPHERE((i, j, l), 0.4, 1, 1), material)
k = n
t1 = time.perf_counter()
if RANK() == 0:
    print('million_spheres: %d bodies created in %.2f s (%.2f us per body) on %d rank%s'
          % (k, t1 - t0, 1e6 * (t1 - t0) / max(k, 1), NCPU(), 's' if NCPU() > 1 else ''))
