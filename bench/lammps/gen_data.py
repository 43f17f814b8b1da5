#!/usr/bin/python3
"""LAMMPS data file for the "spheres in a box" scene of bench/spheres_in_box.py.

    /usr/bin/python3 bench/lammps/gen_data.py SIZE OUTDIR [YOUNG]

SIZE is 1000 (10x10x10), 10000 (20x20x25) or a lattice NXxNYxNZ; YOUNG is Young's modulus
in Pa (default 60e9, glass; Poisson 0.2), used only for the time step estimate. Writes

    OUTDIR/spheres.data    atom_style sphere: id type diameter density x y z (SI units)
    OUTDIR/params.lmp      LAMMPS variables: n, box and wall positions, the Hertz contact time
                           tc (sphere-sphere, at the reference impact speed) and dt_est = tc/20
                           rounded down to one significant digit

The sphere centres are bench/spheres_in_box.py's (and bench/bullet/spheres.cpp's) exactly:
splitmix64 with seed 20261121 (MB_BENCH_SEED overrides it, as in the deck), lattice
spacing 0.11 m, jitter +-2.5 mm drawn x, y, z per sphere, x fastest, then y, then z; the
lowest layer of centres 0.11 m above the floor (z = 0), the lattice centred on x = y = 0;
spheres of diameter 0.1 m, density 2500 kg/m^3. The box: floor z = 0, side walls at
x = +-(nx*0.11 + 0.1)/2 and y = +-(ny*0.11 + 0.1)/2, walls twice the lattice top high.
"""
import math
import os
import sys

D = 0.1            # sphere diameter [m]
R = 0.5 * D        # radius [m]
RHO = 2500.0       # density [kg/m^3]
SPACING = 0.11     # lattice spacing [m]
JITTER = 2.5e-3    # +- jitter per coordinate [m]
NU = 0.2           # Poisson's ratio (glass)
V_REF = 3.0        # reference impact speed for the contact time [m/s] (see README.md)

_MASK = (1 << 64) - 1


class SplitMix64:
    """bench/spheres_in_box.py's and bench/bullet/spheres.cpp's generator, bit for bit."""

    def __init__(self, seed):
        self.state = seed & _MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def jitter(self):
        return JITTER * (2.0 * ((self.next() >> 11) * (1.0 / 9007199254740992.0)) - 1.0)


def lattice(size):
    lattices = {1000: (10, 10, 10), 10000: (20, 20, 25)}
    if 'x' in size.lower():
        nx, ny, nz = [int(s) for s in size.lower().split('x')]
        if min(nx, ny, nz) < 1:
            raise ValueError('lattice sizes must be >= 1, got %s' % size)
        return nx, ny, nz
    if int(size) not in lattices:
        raise ValueError('SIZE must be 1000, 10000 or NXxNYxNZ, got %s' % size)
    return lattices[int(size)]


def centres(nx, ny, nz, seed):
    rng = SplitMix64(seed)
    z0 = SPACING
    out = []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                x = (i - 0.5 * (nx - 1)) * SPACING + rng.jitter()
                y = (j - 0.5 * (ny - 1)) * SPACING + rng.jitter()
                z = z0 + k * SPACING + rng.jitter()
                out.append((x, y, z))
    return out


def hertz_contact_time(young, v, m_eff, r_eff, nu=NU):
    """Duration of an elastic Hertz impact at speed v (Johnson): 2.868 (m^2/(R E*^2 v))^(1/5),
    with F = 4/3 E* sqrt(R) d^(3/2) and E* = E/(2(1-nu^2)) for two spheres of one material."""
    e_star = young / (2.0 * (1.0 - nu * nu))
    return 2.868 * (m_eff ** 2 / (r_eff * e_star ** 2 * v)) ** 0.2


def floor1(x):
    """x rounded down to one significant digit."""
    p = 10.0 ** math.floor(math.log10(x))
    return math.floor(x / p + 1e-9) * p


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: gen_data.py SIZE OUTDIR [YOUNG]')
    size, outdir = sys.argv[1], sys.argv[2]
    young = float(sys.argv[3]) if len(sys.argv) > 3 else 60e9
    seed = int(os.environ.get('MB_BENCH_SEED', '20261121'))
    nx, ny, nz = lattice(size)
    n = nx * ny * nz
    pts = centres(nx, ny, nz, seed)
    hx, hy = 0.5 * (nx * SPACING + D), 0.5 * (ny * SPACING + D)
    wall_h = 2.0 * (SPACING + (nz - 1) * SPACING + R)
    mass = RHO * 4.0 / 3.0 * math.pi * R ** 3
    tc = hertz_contact_time(young, V_REF, 0.5 * mass, 0.5 * R)
    dt = floor1(tc / 20.0)
    os.makedirs(outdir, exist_ok=True)
    # the simulation box: a little wider than the walls (atoms outside it would be lost)
    bx, by = hx + 0.01, hy + 0.01
    with open(os.path.join(outdir, 'spheres.data'), 'w') as f:
        f.write('spheres in a box: %dx%dx%d = %d spheres, seed %d (bench/lammps/gen_data.py)\n\n'
                % (nx, ny, nz, n, seed))
        f.write('%d atoms\n1 atom types\n\n' % n)
        f.write('%.17g %.17g xlo xhi\n%.17g %.17g ylo yhi\n%.17g %.17g zlo zhi\n\n'
                % (-bx, bx, -by, by, -0.01, wall_h))
        f.write('Atoms # sphere\n\n')
        for i, (x, y, z) in enumerate(pts):
            f.write('%d 1 %.17g %.17g %.17g %.17g %.17g\n' % (i + 1, D, RHO, x, y, z))
    with open(os.path.join(outdir, 'params.lmp'), 'w') as f:
        f.write('# written by bench/lammps/gen_data.py %s %s %g\n' % (size, outdir, young))
        f.write('variable n equal %d\n' % n)
        f.write('variable lattice string %dx%dx%d\n' % (nx, ny, nz))
        f.write('variable hx equal %.17g\n' % hx)
        f.write('variable hy equal %.17g\n' % hy)
        f.write('variable wall_h equal %.17g\n' % wall_h)
        f.write('variable tc equal %.6g\n' % tc)
        f.write('variable dt_est equal %.3g\n' % dt)
    print('gen_data: N=%d lattice=%dx%dx%d E=%g mass=%.6g kg tc(v=%g m/s)=%.4g s dt_est=%.3g s'
          % (n, nx, ny, nz, young, mass, V_REF, tc, dt))


if __name__ == '__main__':
    main()
