# Pseudo-rigid bodies (seed 003) in contact and in joints, each beside its rigid twin in one
# run: as Young's modulus grows, a pseudo-rigid body must do what the rigid one does.
# Scenes side by side (their own floors and surface materials), h = 1e-3, DEF_LIM, 1 s:
#  1. rest:     a cube on a frictionless floor (damped): after 0.2 s its centre moves less
#               than 1e-6 m, and it sits lower than the rigid cube by its static
#               compression: the contact forces m g at depth a/2 balance V S_zz (seed 003's
#               f_F), so S_zz = rho g a / 2, uniaxial, the strain rho g a / (2Y), the centre
#               lower by rho g a^2 / (4Y) (1e-3 relative; friction would hold the bottom
#               from spreading and the stress would not be uniaxial).
#  2. drop:     cubes dropped 0.2 m. Restitution 0 (Y = 1e12): centre heights within 1 % of
#               the drop. Restitution 1: the rebound apex tends to the rigid one as 1/Y
#               (below why): within 1 % of the drop at Y = 1e12, and more than five times
#               closer than at Y = 1e11.
#  3. slide:    cubes launched at v0 = 2 m/s on a floor with friction mu = 0.4 stop after
#               v0^2 / (2 mu g) = 0.5097 m (both kinds, 1 %).
#  4. pendulum: a cube bob on PUT_RIGID_LINK to a pivot, rigid and pseudo-rigid at
#               Y = 1e6 ... 1e9: the far corner's x tends to the rigid bob's as 1/Y (more
#               than five times closer at 1e7 than at 1e6) until the difference of the
#               schemes (RIG_NEG and DEF_LIM, O(h^2)): within 1e-4 of the length over 1 s
#               from Y = 1e7 on.
# Why the bounce needs a stiff body: the impulse of a contact reaches the deformation modes
# through W = h H A^-1 H^T. With DEF_EXP (A = M) that does not depend on the stiffness at
# all: a pseudo-rigid cube bouncing with restitution 1 gives part of its energy to its
# deformation modes however stiff it is (measured: apex 0.125 m against 0.2 m at Y = 1e8).
# With DEF_LIM, A = M + (h^2/4) K, those modes' compliance is 1/(E0 + h^2 k/4): the answer
# tends to the rigid one as 1/(h omega)^2, i.e. as 1/Y at a fixed step (measured: apex short
# by 0.036, 0.0040, 0.0004 m at Y = 1e10, 1e11, 1e12).
h = 1e-3
s = SOLFEC('DYNAMIC', h, 'out/pseudo_rigid')
s.verbose = 'OFF'
rho, nu, g, a = 2000.0, 0.25, 9.81, 0.5
GRAVITY(s, (0, 0, -g))
CUBE, REST, DROP0, DROP1, SLIDE = 1, 10, 11, 12, 13  # surface ids
SURFACE_MATERIAL(s, friction=0.0)
SURFACE_MATERIAL(s, CUBE, REST, friction=0.0)
SURFACE_MATERIAL(s, CUBE, DROP0, friction=0.0, restitution=0.0)
SURFACE_MATERIAL(s, CUBE, DROP1, friction=0.0, restitution=1.0)
SURFACE_MATERIAL(s, CUBE, SLIDE, friction=0.4)


def cube(x, y, z, a):
    """HEX nodes of a cube of side a with its bottom centre at (x, y, z)."""
    h = a / 2
    return HEX([x - h, y - h, z, x + h, y - h, z, x + h, y + h, z, x - h, y + h, z,
                x - h, y - h, z + a, x + h, y - h, z + a, x + h, y + h, z + a, x - h, y + h, z + a], 1, 1, 1, 1, [CUBE] * 6)


def floor(x, surf):
    """A floor 3 m wide, its top at z = 0, centred at x."""
    n = [x - 1.5, -2, -0.5, x + 1.5, -2, -0.5, x + 1.5, 2, -0.5, x - 1.5, 2, -0.5,
         x - 1.5, -2, 0, x + 1.5, -2, 0, x + 1.5, 2, 0, x - 1.5, 2, 0]
    return BODY(s, 'OBSTACLE', HEX(n, 1, 1, 1, 2, [surf] * 6), BULK_MATERIAL(s, density=rho))


def twins(x, z, young, damping=0.0):
    """A rigid cube at y = -1 and a pseudo-rigid (DEF_LIM) one at y = +1."""
    mat = BULK_MATERIAL(s, young=young, poisson=nu, density=rho)
    r = BODY(s, 'RIGID', cube(x, -1, z, a), mat)
    p = BODY(s, 'PSEUDO_RIGID', cube(x, 1, z, a), mat)
    p.scheme = 'DEF_LIM'
    p.damping = damping
    return r, p


Y = 1e8
floor(0, REST)
rest = twins(0, 0.0, Y, damping=1e-3)
floor(4, DROP0)
drop0 = twins(4, 0.2, 1e12)
floor(8, DROP1)
drop1 = [twins(8 + dx, 0.2, young) for dx, young in ((-0.8, 1e11), (0.8, 1e12))]
floor(12, SLIDE)
slide = twins(11, 0.0, Y, damping=1e-3)
mu, v0 = 0.4, 2.0
for b in slide:
    INITIAL_VELOCITY(b, (v0, 0, 0), (0, 0, 0))
bobs = []  # the rigid bob, then pseudo-rigid ones of Young's modulus 1e6 ... 1e9
for kind, y, young in (('RIGID', -1, 1e9), ('PSEUDO_RIGID', 1, 1e6), ('PSEUDO_RIGID', 3, 1e7), ('PSEUDO_RIGID', 5, 1e8), ('PSEUDO_RIGID', 7, 1e9)):
    b = BODY(s, kind, cube(17, y, -0.1, 0.2), BULK_MATERIAL(s, young=young, poisson=nu, density=rho))
    if kind == 'PSEUDO_RIGID':
        b.scheme = 'DEF_LIM'
    PUT_RIGID_LINK(b, None, (16.9, y, 0), (16, y, 0))  # a massless rod of length 0.9 to the pivot
    bobs.append((b, y))

OUTPUT(s, 4e-3)
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 1.0)

ok = True
out = []
r, p = rest
t, zr, zp = HISTORY(s, [(r, r.center, 'CZ'), (p, p.center, 'CZ')])
k = next(i for i in range(len(t)) if t[i] >= 0.2 - 1e-9)
drift = max(abs(zp[i] - zp[k]) for i in range(k, len(t)))
sink, ref = zr[-1] - zp[-1], rho * g * a * a / (4 * Y)
ok = ok and drift < 1e-6 and abs(sink - ref) < 1e-3 * ref
out.append('rest: drift after settling %.2e m (1e-6), sits %.5e m below the rigid cube (rho g a^2/(4Y) = %.5e, 1e-3)' % (drift, sink, ref))

r, p = drop0
t, zr, zp = HISTORY(s, [(r, r.center, 'CZ'), (p, p.center, 'CZ')])
diff = max(abs(x - y) for x, y in zip(zr, zp)) / 0.2
ok = ok and diff < 1e-2
out.append('drop, restitution 0, Y = 1e12: max |z_prb - z_rigid| = %.2e of the drop (1e-2)' % diff)
short = []
for (r, p), young in zip(drop1, (1e11, 1e12)):
    t, zr, zp = HISTORY(s, [(r, r.center, 'CZ'), (p, p.center, 'CZ')])
    i0 = next(i for i in range(1, len(t)) if zr[i] > zr[i - 1])  # the rigid cube's bounce
    i1 = next(i for i in range(i0, len(t)) if zr[i] < zr[i - 1])  # its apex
    apr, app = zr[i1 - 1], max(zp[i0:i1 + 50])
    short.append(apr - app)
    out.append('drop, restitution 1, Y = %g: rebound apex %.5f m, the rigid cube %.5f m' % (young, app - a / 2, apr - a / 2))
ok = ok and short[1] < 0.01 * 0.2 and short[0] > 5 * short[1]
out.append('drop: the apex falls short by %.2e and %.2e m (1e-2 of the drop at Y = 1e12; 1/Y convergence: ratio %.1f > 5)' % (short[0], short[1], short[0] / short[1]))

r, p = slide
t, xr, xp = HISTORY(s, [(r, r.center, 'DX'), (p, p.center, 'DX')])
ref = v0 * v0 / (2 * mu * g)
ok = ok and abs(xr[-1] - ref) < 0.01 * ref and abs(xp[-1] - ref) < 0.01 * ref
out.append('slide: stops after %.4f m (rigid %.4f m, reference %.4f m; 1 %%)' % (xp[-1], xr[-1], ref))

x = HISTORY(s, [(b, (17.1, y, 0.1), 'CX') for b, y in bobs])[1:]
diff = [max(abs(a - c) for a, c in zip(x[0], xp)) / 1.1 for xp in x[1:]]
ok = ok and diff[0] > 5 * diff[1] and max(diff[1:]) < 1e-4
out.append('pendulum: max |x_prb - x_rigid| of the far corner, of the length, at Y = 1e6, 1e7, 1e8, 1e9: %s (falls as 1/Y to the schemes\' O(h^2) difference: 1e-4)' % ', '.join('%.1e' % v for v in diff))

if RANK() == 0:
    for line in out:
        print('pseudo_rigid ' + line)
    print('PASSED' if ok else 'FAILED')
