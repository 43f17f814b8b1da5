# Three FINITE_ELEMENT bricks (4x2x2 HEX8 each, DEF_EXP) standing in a row on an obstacle,
# knocked by a rigid ball: contact between meshes, a rigid body and an obstacle, with
# friction, on any number of ranks. The energy balance closes: kinetic + strain energy now
# equals the start's kinetic energy plus the work of gravity and the contacts (dissipated by
# friction and the inelastic impacts), to 1 % of the ball's energy.
# Rendered for doc/img/fe-bricks.png (scripts/mbrender --color mises, see doc/deck-api.md).
import sys

form = sys.argv[1] if len(sys.argv) > 1 else 'TL'  # FINITE_ELEMENT form: 'TL' or 'BC'
scheme = sys.argv[2] if len(sys.argv) > 2 else 'DEF_EXP'  # the bricks' scheme: DEF_EXP or DEF_LIM
s = SOLFEC('DYNAMIC', 2e-4, 'out/fe_bricks')
s.verbose = 'OFF'
GRAVITY(s, (0, 0, -10))
brick = BULK_MATERIAL(s, young=5e6, poisson=0.25, density=2000, label='brick')
steel = BULK_MATERIAL(s, young=2e11, poisson=0.3, density=7800, label='steel')
SURFACE_MATERIAL(s, model='SIGNORINI_COULOMB', friction=0.4)
BODY(s, 'OBSTACLE', HEX([-0.4, -0.2, -0.1, 1.0, -0.2, -0.1, 1.0, 0.4, -0.1, -0.4, 0.4, -0.1, -0.4, -0.2, 0, 1.0, -0.2, 0, 1.0, 0.4, 0, -0.4, 0.4, 0], 1, 1, 1, 2, [2] * 6), brick, label='floor')
for k in range(3):
    x0 = 0.25 * k
    BODY(s, 'FINITE_ELEMENT', HEX([x0, 0, 0, x0 + 0.1, 0, 0, x0 + 0.1, 0.2, 0, x0, 0.2, 0, x0, 0, 0.4, x0 + 0.1, 0, 0.4, x0 + 0.1, 0.2, 0.4, x0, 0.2, 0.4], 2, 2, 4, 1, [1] * 6), brick, label='brick%d' % k, form=form).scheme = scheme
ball = BODY(s, 'RIGID', SPHERE((-0.15, 0.1, 0.3), 0.05, 3, 3), steel, label='ball')
ball.velo = (0, 0, 0, 4.0, 0, 0)
E0 = ENERGY(s)
OUTPUT(s, 0.01)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 500), 0.3)
# READ mode (a second run where the results are: RUN did nothing): check the last stored frame, as Solfec-1.0's decks do
if s.mode == 'READ':
    SEEK(s, DURATION(s)[1])
kin, internal, external, contact, friction = ENERGY(s)
start = E0[0]
balance = kin + internal - (start + external + contact - friction)
if RANK() == 0:
    print('fe_bricks (form %s, %s): kinetic %.4f + strain %.4f against %.4f + gravity %.4f + contacts %.4f - friction %.4f: off by %.2e of the ball energy %.4f' % (form, scheme, kin, internal, start, external, contact, friction, abs(balance) / start, start))
    print('PASSED' if abs(balance) < 1e-2 * start else 'FAILED')
