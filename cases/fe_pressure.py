# A free FINITE_ELEMENT cube (2x2x2 HEX8) under a pressure p on its whole surface, brought
# to rest by damping (DEF_LIM): hydrostatic compression about its centre, each side
# shortened by the strain p / (3K), K = E / (3 (1 - 2 poisson)) the bulk modulus, and no
# drift (the pressure's resultant on a closed surface is zero). Tolerances: 1 % of the
# corner's displacement (Saint Venant-Kirchhoff differs from linear elasticity by the
# strain, 5e-4 here), drift 1e-12 m/s.
E, nu, p = 1e6, 0.25, 1e3
K = E / (3 * (1 - 2 * nu))
s = SOLFEC('DYNAMIC', 1e-3, 'out/fe_pressure')
s.verbose = 'OFF'
m = BULK_MATERIAL(s, young=E, poisson=nu, density=1000)
cube = BODY(s, 'FINITE_ELEMENT', HEX([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1], 2, 2, 2, 1, [1] * 6), m, label='cube')
cube.scheme = 'DEF_LIM'
cube.damping = 5e-3
PRESSURE(cube, 1, TIME_SERIES([0, 0, 0.2, -p, 10, -p]))  # ramped; negative pushes in (Solfec's sign)
OUTPUT(s, 0.05)
RUN(s, None, 1.0)
# READ mode (a second run where the results are: RUN did nothing): check the last stored frame, as Solfec-1.0's decks do
if s.mode == 'READ':
    SEEK(s, DURATION(s)[1])
if cube.conf is not None:  # on the owner
    q, u = cube.conf, cube.velo
    corner, want = q[-3:], -p / (3 * K) * 0.5  # node (1, 1, 1), half a side from the centre
    err = max(abs(c - want) for c in corner) / abs(want)
    drift = max(abs(x) for x in u)
    print('fe_pressure: corner displacement %.6e (p/(3K) of half a side: %.6e), relative error %.2e; largest velocity %.2e' % (corner[0], want, err, drift))
    print('PASSED' if err < 1e-2 and drift < 1e-12 else 'FAILED')
