#!/usr/bin/env bash
# Solfec-1.0 parity of the deck API (issue 19): every function called positionally in
# Solfec-1.0's order and by Solfec's keyword names, each value checked where it lands
# (attributes readable from Python, -mb_solver_view, the run itself); every Solfec-1.0
# function name defined in a deck (no NameError), those moreau lacks raising
# "NAME: not supported in moreau: ..."; SCALE, PIPE, MESH2CONVEX, SET_DISPLACEMENT,
# SET_ACCELERATION, critical damping (dashpot < 0) and the solver failure callback.
# Signatures from Solfec-1.0's lng.c keyword lists and its user manual.
source "$(dirname "$0")/../lib.sh"
[ -x "$MOREAU" ] || { echo "no $MOREAU (build first)"; exit 77; }
export MOREAU_PYTHONPATH="$MB_ROOT/python"
cd "$TMP"
deck() { cat >"$TMP/$1.py"; }
HEAD="s = SOLFEC('DYNAMIC', 1e-3, '$TMP/out')
s.verbose = 'OFF'
def t(name, ok, got=None):
    if RANK() == 0:
        print(('ok - ' if ok else 'not ok - ') + name + ('' if ok or got is None else ' (got %r)' % (got,)), flush=True)
def close(a, b, tol=1e-12):
    return all(abs(x - y) <= tol * max(1.0, abs(y)) for x, y in zip(a, b))
def raises(f, exc, text):
    try:
        f()
    except exc as e:
        return text in str(e)
    return False"

# --- every function's positional order and keywords, values read back in the deck
deck sig <<PY
$HEAD
import math
# materials
bm = BULK_MATERIAL(s, 'KIRCHHOFF', 'bm', 2e9, 0.3, 2000.0, 1e6, None, 5.0)
t('BULK_MATERIAL positional (solfec, model, label, young, poisson, density, tensile, fields, fracene)',
  (bm.model, bm.label, bm.young, bm.poisson, bm.density, bm.tensile, bm.fracene) == ('KIRCHHOFF', 'bm', 2e9, 0.3, 2000.0, 1e6, 5.0))
bk = BULK_MATERIAL(solfec=s, model='KIRCHHOFF', label='bk', young=3e9, poisson=0.2, density=500.0, tensile=2.0, fields=None, fracene=3.0)
t('BULK_MATERIAL by keyword', (bk.label, bk.young, bk.poisson, bk.density, bk.tensile, bk.fracene) == ('bk', 3e9, 0.2, 500.0, 2.0, 3.0))
sm = SURFACE_MATERIAL(s, 1, 2, 'SPRING_DASHPOT', 'sm', 0.3, 0.1, 0.5, 1e5, 2.0, 1.0)
t('SURFACE_MATERIAL positional (solfec, surf1, surf2, model, label, friction, cohesion, restitution, spring, dashpot, hpow)',
  (sm.surf1, sm.surf2, sm.model, sm.label, sm.friction, sm.cohesion, sm.restitution, sm.spring, sm.dashpot, sm.hpow) == (1, 2, 'SPRING_DASHPOT', 'sm', 0.3, 0.1, 0.5, 1e5, 2.0, 1.0))
sk = SURFACE_MATERIAL(solfec=s, surf1=3, surf2=4, model='SIGNORINI_COULOMB', label='sk', friction=0.2, cohesion=0.0, restitution=0.1, spring=0.0, dashpot=-1.0, hpow=1.0)
t('SURFACE_MATERIAL by keyword, dashpot < 0 (critical) accepted', (sk.surf1, sk.surf2, sk.label, sk.friction, sk.restitution, sk.dashpot) == (3, 4, 'sk', 0.2, 0.1, -1.0))
t('SURFACE_MATERIAL hpow 1.5 kept (Hertz), hpow <= 0 refused, named', SURFACE_MATERIAL(s, 7, 8, model='SPRING_DASHPOT', spring=1e5, hpow=1.5).hpow == 1.5 and raises(lambda: SURFACE_MATERIAL(s, hpow=0), ValueError, 'SURFACE_MATERIAL: hpow must be > 0, got 0'))
t('BYLABEL(solfec, kind, label) with BULK_MATERIAL, SURFACE_MATERIAL', BYLABEL(solfec=s, kind='BULK_MATERIAL', label='bm') is bm and BYLABEL(s, 'SURFACE_MATERIAL', 'sm') is sm and BYLABEL(s, 'FIELD', 'x') is None)
# shapes
sp = SPHERE((1, 2, 3), 0.5, 7, 8)
sq = SPHERE(center=(1, 2, 3), radius=0.5, volid=7, surfid=8)
t('SPHERE positional and keyword (center, radius, volid, surfid)', all((tuple(x.center), x.radius, x.volid, x.surfid) == ((1, 2, 3), 0.5, 7, 8) for x in (sp, sq)))
cube = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]
faces = [4, 0,3,2,1, 1, 4, 4,5,6,7, 1, 4, 0,1,5,4, 1, 4, 1,2,6,5, 1, 4, 2,3,7,6, 1, 4, 3,0,4,7, 1]
c1 = CONVEX(cube, faces, 3)
c2 = CONVEX(vertices=cube, faces=faces, volid=3, convex=c1)
t('CONVEX(vertices, faces, volid, convex): the collection grows', isinstance(c2, list) and len(c2) == 2 and c2[0] is c1)
h1 = HULL(cube, 1, 2, c2)
h2 = HULL(points=cube, volid=1, surfid=2)
t('HULL(points, volid, surfid, convex)', isinstance(h1, list) and len(h1) == 3 and abs(MASS_CENTER(h2)[0] - 0.5) < 1e-12)
hx = HEX(cube, 2, 1, 1, 1, [1] * 6, [1, 3], [1], [1])
hk = HEX(nodes=cube, i=2, j=1, k=1, volid=1, surfids=[1] * 6, dx=[1, 3], dy=[1], dz=[1])
hs = HEX(nodes=cube, i=2, j=1, k=1, volid=1, surids=[1] * 6)
t('HEX positional, by keyword and with lng.c\'s surids', all(abs(MASS_CENTER(x)[1] - 0.5) < 1e-12 for x in (hx, hk, hs)))
ms = MESH(nodes=[0,0,0, 1,0,0, 0,1,0, 0,0,1], elements=[4, 0, 1, 2, 3, 1], surfids=[1])
t('MESH(nodes, elements, surfids)', close(MASS_CENTER(shape=ms), (0.25, 0.25, 0.25)))
t('TRANSLATE(shape, vector) on a point', close(TRANSLATE(shape=(1, 2, 3), vector=(1, 1, 1)), (2, 3, 4)))
t('ROTATE(shape, point, vector, angle) on a point', close(ROTATE(shape=(1, 0, 0), point=(0, 0, 0), vector=(0, 0, 1), angle=90.0), (0, 1, 0)))
t('SCALE(shape, coefs) on a point', close(SCALE(shape=(1, 2, 3), coefs=(2, 3, 4)), (2, 6, 12)))
cp = COPY(shape=hx)
t('COPY(shape) keeps a mesh for FINITE_ELEMENT', BODY(s, 'FINITE_ELEMENT', cp, BULK_MATERIAL(s, young=1e3, density=1e3)).kind == 'FINITE_ELEMENT')
# bodies
b = BODY(s, 'RIGID', SPHERE((0, 0, 1), 0.5, 1, 1), 'bm', 'B1', None, None, None)
t('BODY positional (solfec, kind, shape, material as a label, label, form, mesh, modal)', b.label == 'B1' and abs(b.mass - 2000.0 * 4 / 3 * math.pi * 0.125) < 1e-9)
b2 = BODY(solfec=s, kind='RIGID', shape=SPHERE((3, 0, 1), 0.5, 1, 1), material=bk, label='B2', form=None, mesh=None, base=None)
t('BODY by keyword (base= as the manual names it)', BYLABEL(s, 'BODY', 'B2') is b2 and abs(b2.mass - 500.0 * 4 / 3 * math.pi * 0.125) < 1e-9)
t('BODY with an unknown material label refused', raises(lambda: BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), 'nosuch'), TypeError, "no BULK_MATERIAL has that label"))
BODY_CHARS(b, 2.0, 1.5, (0, 0, 1), (1, 0, 0, 0, 2, 0, 0, 0, 3))
t('BODY_CHARS positional (body, mass, volume, center, tensor)', (b.mass, b.volume) == (2.0, 1.5) and close(b.tensor, (1, 0, 0, 0, 2, 0, 0, 0, 3)))
BODY_CHARS(body=b2, mass=3.0, volume=1.0, center=(3, 0, 1), tensor=(4, 0, 0, 0, 4, 0, 0, 0, 4))
t('BODY_CHARS by keyword (tensor)', b2.mass == 3.0 and close(b2.inertia, (4, 0, 0, 0, 4, 0, 0, 0, 4)))
INITIAL_VELOCITY(body=b2, linear=(1, 0, 0), angular=(0, 0, 0))
t('INITIAL_VELOCITY(body, linear, angular)', close(b2.velo, (0, 0, 0, 1, 0, 0)))
t('MASS_CENTER(shape) of a shape and of a BODY', close(MASS_CENTER(shape=SPHERE((1, 2, 3), 1, 1, 1)), (1, 2, 3)) and close(MASS_CENTER(b2), (3, 0, 1)))
# loads, time series
ts = TIME_SERIES([0, 0, 1, 2])
tp = TIME_SERIES(points=[[0, 0], [1, 4]], label='tp', cache=0)
t('TIME_SERIES(points, label, cache), a list of pairs too', abs(ts(0.5) - 1) < 1e-12 and abs(tp(0.5) - 2) < 1e-12)
GRAVITY(solfec=s, vector=(0, 0, -9.81))
t('GRAVITY(solfec, vector)', close(s._gravity, (0, 0, -9.81)))
FORCE(body=b2, kind='SPATIAL', point=(3, 0, 1), direction=(1, 0, 0), value=0.0, data=None)
TORQUE(body=b2, kind='CONVECTED', direction=(0, 0, 1), value=ts)
t('FORCE(body, kind, point, direction, value, data), TORQUE(body, kind, direction, value) by keyword', True)
# constraints
j1 = FIX_POINT(body=b, point=(0, 0, 1), strength=float('inf'))
j2 = FIX_DIRECTION(body=b, point=(0, 0, 1), direction=(1, 0, 0), body2=None, point2=None)
j3 = SET_VELOCITY(body=b, point=(0, 0, 1), direction=(0, 1, 0), value=0.0)
j4 = PUT_RIGID_LINK(None, b2, (3, 0, 5), (3, 0, 1))
j5 = PUT_RIGID_LINK(body1=b2, body2=None, point1=(3, 0, 1), point2=(3, 0, 6), strength=None)
t('FIX_POINT, FIX_DIRECTION, SET_VELOCITY by keyword; PUT_RIGID_LINK with body1 None', [j.kind for j in (j1, j2, j3, j4, j5)] == ['FIXPNT', 'FIXDIR', 'VELODIR', 'RIGLNK', 'RIGLNK'] and j4.bodies == (b2, None))
t('FIX_POINT strength refused, named', raises(lambda: FIX_POINT(b, (0, 0, 1), 1e3), ValueError, 'FIX_POINT: strength 1000.0 is not supported in moreau'))
j6 = FIX_DIRECTION(body=b, point=(0, 0, 1), direction=(1, 0, 0), body2=b2, point2=(3, 0, 1))
t('FIX_DIRECTION with body2, point2 by keyword (a direction relative to body)', j6.kind == 'FIXDIR' and j6.bodies == (b, b2))
t('FIX_DIRECTION with point2 but no body2 refused, named', raises(lambda: FIX_DIRECTION(b, (0, 0, 1), (1, 0, 0), None, (3, 0, 1)), ValueError, 'FIX_DIRECTION: give both body2 and point2'))
sp1 = PUT_SPRING(b, (0, 0, 1), b2, (3, 0, 1), lambda st, v: 0.0, (-1, 1), (1, 0, 0), 'FIXED')
sp2 = PUT_SPRING(body1=b, point1=(0, 0, 1), body2=b2, point2=(3, 0, 1), function=lambda st, v: 0.0, limits=(-1, 1), direction=(1, 0, 0), update='FIXED')
t('PUT_SPRING positional and keyword (body1, point1, body2, point2, function, limits, direction, update)', sp1.bodies == (b, b2) and sp2.index == sp1.index + 1)
t("PUT_SPRING update='CONV1' refused, named", raises(lambda: PUT_SPRING(b, (0, 0, 1), b2, (3, 0, 1), lambda st, v: 0.0, (-1, 1), (1, 0, 0), 'CONV1'), ValueError, "update='CONV1' (a direction convected with a body) is not supported in moreau"))
t('HERE(solfec, object) on a body and a constraint', HERE(solfec=s, object=b) and HERE(s, j4))
t('NCPU(solfec), NCPU(), RANK(), VIEWER()', NCPU(s) == 1 and NCPU() == 1 and RANK() == 0 and VIEWER() is False)
# solvers
def cb(*a):
    return 1
gs = GAUSS_SEIDEL_SOLVER(1e-5, 77, 0.5, 'EXIT', 1e-9, 33, 'PROJECTED_NEWTON', 'd', cb)
t('GAUSS_SEIDEL_SOLVER positional (epsilon, maxiter, meritval, failure, diagepsilon, diagmaxiter, diagsolver, data, callback)',
  (gs.epsilon, gs.maxiter, gs.meritval, gs.failure, gs.diagepsilon, gs.diagmaxiter, gs.diagsolver, gs.data, gs.callback) == (1e-5, 77, 0.5, 'EXIT', 1e-9, 33, 'PROJECTED_NEWTON', 'd', cb))
gk = GAUSS_SEIDEL_SOLVER(epsilon=1e-6, maxiter=88, meritval=0.25, failure='CALLBACK', diagepsilon=1e-8, diagmaxiter=44, diagsolver='DE_SAXCE_FENG', data=(1, 2), callback=cb)
t('GAUSS_SEIDEL_SOLVER by keyword', (gk.epsilon, gk.maxiter, gk.meritval, gk.failure, gk.diagepsilon, gk.diagmaxiter, gk.diagsolver, gk.data) == (1e-6, 88, 0.25, 'CALLBACK', 1e-8, 44, 'DE_SAXCE_FENG', (1, 2)))
gd = GAUSS_SEIDEL_SOLVER(1e-3, 10000)
t("GAUSS_SEIDEL_SOLVER Solfec's defaults (meritval 1, diagepsilon min(eps, meritval, 1e-4)/100, diagmaxiter max(100, maxiter/100))",
  (gd.meritval, gd.failure, gd.diagsolver, gd.diagmaxiter) == (1.0, 'CONTINUE', 'SEMISMOOTH_NEWTON', 100) and abs(gd.diagepsilon - 1e-6) < 1e-18)
gd.reverse = 'ON'
gd.epsilon = 1e-7
t("GAUSS_SEIDEL_SOLVER members written as in Solfec (obj.reverse = 'ON', obj.epsilon)", gd.reverse == 'ON' and gd.epsilon == 1e-7)
t('GAUSS_SEIDEL_SOLVER.iters before a RUN: None, merhist []; rerhist a clear AttributeError', gd.iters is None and gd.itershist is None and gd.merhist == [] and raises(lambda: gd.rerhist, AttributeError, "GAUSS_SEIDEL_SOLVER.rerhist: not supported in moreau"))
ns = NEWTON_SOLVER(1e-7, 55, 'OFF', 'DIAG', 7, 99, 0.3, 0.1, 0.5, 1e-9, 'OFF', 'avgWii')
t('NEWTON_SOLVER positional (meritval, maxiter, locdyn, linver, linmaxiter, maxmatvec, epsilon, delta, theta, omega, gsflag, reldelta)',
  (ns.meritval, ns.maxiter, ns.locdyn, ns.linver, ns.linmaxiter, ns.maxmatvec, ns.epsilon, ns.delta, ns.theta, ns.omega, ns.gsflag, ns.reldelta) == (1e-7, 55, 'OFF', 'DIAG', 7, 99, 0.3, 0.1, 0.5, 1e-9, 'OFF', 'avgWii'))
nk = NEWTON_SOLVER(meritval=1e-6, maxiter=5, locdyn='ON', linver='GMRES', linmaxiter=3, maxmatvec=9, epsilon=0.2, delta=0.0, theta=0.4, omega=1e-8, gsflag='ON', reldelta='OFF')
nd = NEWTON_SOLVER()
t("NEWTON_SOLVER by keyword; Solfec's defaults (meritval 1e-8, maxiter 1000, maxmatvec linmaxiter*maxiter, omega meritval/100)",
  (nk.maxiter, nk.theta, nk.omega) == (5, 0.4, 1e-8) and (nd.meritval, nd.maxiter, nd.linver, nd.maxmatvec, nd.epsilon, nd.theta) == (1e-8, 1000, 'GMRES', 10000, 0.25, 0.25) and abs(nd.omega - 1e-10) < 1e-24)
t("PENALTY_SOLVER(variant): 'IMPLICIT' by default, 'EXPLICIT' accepted, others refused",
  PENALTY_SOLVER().variant == 'IMPLICIT' and PENALTY_SOLVER('EXPLICIT').variant == 'EXPLICIT' and PENALTY_SOLVER(variant='IMPLICIT').variant == 'IMPLICIT'
  and raises(lambda: PENALTY_SOLVER('SEMI'), ValueError, "PENALTY_SOLVER: variant must be 'IMPLICIT' or 'EXPLICIT', got 'SEMI'"))
# simulation
IMBALANCE_TOLERANCE(s, 1.2, 0.5, 7)
IMBALANCE_TOLERANCE(solfec=s, tolerance=1.3, weightfactor=1.0, updatefreq=10)
t('IMBALANCE_TOLERANCE positional (solfec, tolerance, weightfactor, updatefreq): the third is weightfactor',
  raises(lambda: IMBALANCE_TOLERANCE(s, 1.2, 2.0), ValueError, 'weightfactor must be a number in [0, 1], got 2.0')
  and raises(lambda: IMBALANCE_TOLERANCE(s, 1.2, 0.5, -3), ValueError, 'updatefreq must be an integer >= 0 (steps), got -3'))
GEOMETRIC_EPSILON(epsilon=1e-6)
OUTPUT(solfec=s, interval=1e-3, compression='OFF')
calls = []
CALLBACK(solfec=s, interval=1e-3, data=(5,), callback=lambda x: calls.append(x) or 1)
WARNINGS(state='OFF')
DISPLAY_POINT(body=b, point=(0, 0, 1), label='top')
CONTACT_SPARSIFY(s, 0.0, 0.0)
UNPHYSICAL_PENETRATION(solfec=s, depth=0.1)
t('TIMING(solfec, kind) is None (as Solfec in WRITE mode)', TIMING(solfec=s, kind='CONDET') is None)
RUN(solfec=s, solver=GAUSS_SEIDEL_SOLVER(1e-4, 100), duration=0.002)
t('RUN(solfec, solver, duration) by keyword; CALLBACK by keyword passed its data', abs(s.time - 0.002) < 1e-12 and calls and calls[-1] == 5)
e1, e2 = ENERGY(solfec=s, object=b2), ENERGY(s, [b2])
t('ENERGY(solfec, object): a body, a list of bodies, the solfec', close(e1, e2) and e1[0] > 0 and len(ENERGY(s, s)) == 5)
t('DURATION(solfec)', DURATION(solfec=s)[1] == s.time)
PY
out=$("$MOREAU" "$TMP/sig.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
check "the signature deck runs to its end, every check passed" bash -c '[ '$rc' -eq 0 ] && [ $(grep -c "^ok - " <<<"$0") -eq $(grep -c "^t(" "$1") ]' "$out" "$TMP/sig.py"
check "UNPHYSICAL_PENETRATION prints its notice once; CONTACT_SPARSIFY with threshold 0 prints none" \
  bash -c '[ $(grep -c "moreau: UNPHYSICAL_PENETRATION: the penetration bound is not enforced in moreau" <<<"$0") -eq 1 ] && ! grep -q "CONTACT_SPARSIFY" <<<"$0"' "$out"

# --- the solvers' positional numbers reach the C solver (-mb_solver_view)
for solver in "GAUSS_SEIDEL_SOLVER(1e-5, 77, 0.5):gauss_seidel: epsilon 1e-05, maxit 77" "NEWTON_SOLVER(1e-7, 55, 'ON', 'GMRES', 10):newton: epsilon 1e-07, maxit 55"; do
  deck view <<PY
$HEAD
BODY(s, 'RIGID', SPHERE((0, 0, 1), 0.5, 1, 1), BULK_MATERIAL(s))
RUN(s, ${solver%%:*}, 0.002)
PY
  out=$("$MOREAU" -mb_solver_view "$TMP/view.py" 2>&1); rc=$?
  check "${solver%%:*} reaches the C solver as ${solver#*:} (-mb_solver_view)" bash -c '[ '$rc' -eq 0 ] && grep -q "constraint solver $1" <<<"$0"' "$out" "${solver#*:}"
done

# --- every Solfec-1.0 function is a name in a deck; the ones moreau lacks say so
deck names <<PY
$HEAD
import inspect
solfec_names = '''CONVEX HULL MESH2CONVEX MESH HEX TETRAHEDRALIZE PIPE ROUGH_HEX SPHERE ELLIP ELLIP_MESH SOLFEC FIELD
SURFACE_MATERIAL BULK_MATERIAL APPLY_BULKMAT MATERIAL BODY TIME_SERIES GAUSS_SEIDEL_SOLVER PENALTY_SOLVER
NEWTON_SOLVER TEST_SOLVER SICONOS_SOLVER HYBRID_SOLVER FIX_POINT FIX_DIRECTION SET_DISPLACEMENT SET_VELOCITY
SET_ACCELERATION PUT_RIGID_LINK PUT_SPRING GRAVITY FORCE TORQUE PRESSURE SIMPLIFIED_CRACK IMBALANCE_TOLERANCE
RANK BARRIER NCPU HERE VIEWER BODY_CHARS INITIAL_VELOCITY DELETE SCALE TRANSLATE ROTATE SPLIT MESH_SPLIT COPY
BEND BYLABEL MASS_CENTER CONTACT_EXCLUDE_BODIES CONTACT_EXCLUDE_SURFACES CONTACT_SPARSIFY RUN OUTPUT EXTENTS
CALLBACK UNPHYSICAL_PENETRATION GEOMETRIC_EPSILON WARNINGS INITIALIZE_STATE RIGID_TO_FEM LOCDYN_DUMP OVERLAPPING
MBFCP_EXPORT NON_SOLFEC_ARGV MODAL_ANALYSIS BODY_MM_EXPORT DISPLAY_POINT FRACTURE_EXPORT_YAFFEMS DURATION RENDER
FORWARD BACKWARD SEEK DISPLACEMENT VELOCITY STRESS ENERGY TIMING HISTORY REGISTER_CALLBACK SUBDIR
COROTATED_DISPLACEMENTS RIGID_DISPLACEMENTS REGISTER_BASE RT_SPLIT XDMF_EXPORT SOLFEC_EXPORT'''.split()
missing = [n for n in solfec_names if n not in globals()]
t('every Solfec-1.0 function is defined in a deck (%d names)' % len(solfec_names), not missing, missing)
bad = []
for n in [
          'MATERIAL', 'APPLY_BULKMAT', 'TEST_SOLVER', 'SICONOS_SOLVER', 'HYBRID_SOLVER',
          'REGISTER_BASE', 'XDMF_EXPORT', 'RT_SPLIT', 'FIELD']:
    try:
        globals()[n]((0, 0, 0), (1, 1, 1), 1, 1)
        bad.append((n, 'no error'))
    except NotImplementedError as e:
        if not str(e).startswith(n + ': not supported in moreau: ') or len(str(e)) < len(n) + 35:
            bad.append((n, str(e)))
    except Exception as e:
        bad.append((n, repr(e)))
t('the unsupported ones raise "NAME: not supported in moreau: <why>"', not bad, bad)
PY
out=$("$MOREAU" "$TMP/names.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || echo "$out" | tail -5 | sed 's/^/# /'
deck rtsplit <<PY
$HEAD
RT_SPLIT(BODY(s, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(s)), (0, 0, 0), (0, 0, 1))
PY
expect_error "RT_SPLIT in a deck: non-zero exit and the reason" "RT_SPLIT: not supported in moreau: bodies cannot be split during a run" "$MOREAU" "$TMP/rtsplit.py"
out=$("$MOREAU" "$TMP/rtsplit.py" 2>&1)
check "RT_SPLIT's traceback names the deck line, no AttributeError or NameError" bash -c 'grep -qE "rtsplit.py\", line [0-9]+, in <module>" <<<"$0" && grep -q "NotImplementedError: RT_SPLIT: not supported in moreau" <<<"$0" && ! grep -qE "AttributeError|NameError" <<<"$0"' "$out"

# --- SCALE, PIPE, MESH2CONVEX
deck shapes <<PY
$HEAD
import math
m = BULK_MATERIAL(s, density=1.0)
cube = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]
h = HEX(cube, 1, 1, 1, 1, [1] * 6)
r = SCALE(h, (2, 3, 4))
b = BODY(s, 'RIGID', h, m)
t('SCALE of a HEX: the volume times 24, the centre scaled about the origin, the shape returned', r is h and abs(b.volume - 24) < 1e-12 and close(b.center, (1, 1.5, 2)))
sp = SPHERE((1, 1, 1), 0.5, 1, 1)
SCALE([sp], (3, 5, 7))
t("SCALE of a SPHERE (in a list): Solfec's rule, radius times the first factor, the centre stays", sp.radius == 1.5 and tuple(sp.center) == (1, 1, 1))
c = CONVEX(cube, [4, 0,3,2,1, 1, 4, 4,5,6,7, 1, 4, 0,1,5,4, 1, 4, 1,2,6,5, 1, 4, 2,3,7,6, 1, 4, 3,0,4,7, 1], 1)
SCALE(c, (0.5, 0.5, 0.5))
t('SCALE of a CONVEX', abs(BODY(s, 'RIGID', c, m).volume - 0.125) < 1e-12)
t('SCALE with a factor <= 0 refused', raises(lambda: SCALE(c, (1, -1, 1)), ValueError, 'SCALE: coefs must be > 0'))
fe = HEX(cube, 2, 2, 2, 1, [1] * 6)
SCALE(fe, (2, 1, 1))
t('SCALE of a HEX keeps its mesh (a FINITE_ELEMENT body of volume 2)', abs(BODY(s, 'FINITE_ELEMENT', fe, BULK_MATERIAL(s, young=1e6, density=1.0)).volume - 2) < 1e-12)
ri, th, L, n = 1.0, 0.2, 3.0, 12
p = PIPE((0, 0, 0), (0, 0, L), ri, th, 2, n, 2, 1, [1, 2, 3, 4])
pb = BODY(s, 'RIGID', p, m)
exact = 0.5 * n * math.sin(2 * math.pi / n) * ((ri + th) ** 2 - ri ** 2) * L  # polygonal rings
t('PIPE(pnt, dir, rin, thi, ndir, nrad, nthi, volid, surfids): a MESH of hexahedra of the polygonal ring\'s volume', abs(pb.volume - exact) < 1e-9 * exact and close(pb.center, (0, 0, L / 2), 1e-9), (pb.volume, exact))
pk = PIPE(pnt=(1, 2, 3), dir=(2, 0, 0), rin=0.5, thi=0.1, ndir=1, nrad=8, nthi=1, volid=1, surfids=[1, 2, 3, 4])
fp = BODY(s, 'FINITE_ELEMENT', pk, BULK_MATERIAL(s, young=1e6, density=1.0))
t('PIPE by keyword, along x, usable as a FINITE_ELEMENT mesh', close(fp.center, (2, 2, 3), 1e-9))
t('PIPE with nrad < 3 refused', raises(lambda: PIPE((0, 0, 0), (0, 0, 1), 1, 0.1, 1, 2, 1, 1, [1, 2, 3, 4]), ValueError, 'PIPE: nrad must be >= 3, got 2'))
mc = MESH2CONVEX(HEX(cube, 2, 1, 1, 1, [1] * 6))
t('MESH2CONVEX(mesh): rigid pieces, not a FINITE_ELEMENT mesh', abs(BODY(s, 'RIGID', mc, m).volume - 1) < 1e-12 and raises(lambda: BODY(s, 'FINITE_ELEMENT', mc, m), ValueError, 'needs a MESH or HEX shape'))
PY
out=$("$MOREAU" "$TMP/shapes.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || { notok "the shapes deck runs to its end"; echo "$out" | tail -5 | sed 's/^/# /'; }

# --- SET_DISPLACEMENT, SET_ACCELERATION (prescribed velocities, as Solfec), on 1 and 2 ranks
deck setdisp <<PY
$HEAD
m = BULK_MATERIAL(s)
a = BODY(s, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), m)
b = BODY(s, 'RIGID', SPHERE((5, 0, 0), 0.1, 1, 1), m)
SET_DISPLACEMENT(a, (0, 0, 0), (1, 0, 0), TIME_SERIES([0, 0, 0.2, 0.1, 0.4, 0.1]))
SET_ACCELERATION(body=b, point=(5, 0, 0), direction=(0, 1, 0), tms=TIME_SERIES([0, 2, 1, 2]))
# a series that ends at 0.2 s: as Solfec-1.0 (tms.c TMS_Integral, TMS_Value), the velocity, its
# integral, is held at the series' total (0.1 + 0.05 = 0.15) beyond its last time
c = BODY(s, 'RIGID', SPHERE((0, 5, 0), 0.1, 1, 1), m)
SET_ACCELERATION(c, (0, 5, 0), (0, 0, 1), TIME_SERIES([0, 1, 0.1, 1, 0.2, 0.5]))
# within a segment, as Solfec: the running integrals at the series' times, interpolated
# linearly (0.5 at t = 0.05, where the exact integral of the interpolated series is 0.25)
d = BODY(s, 'RIGID', SPHERE((0, -5, 0), 0.1, 1, 1), m)
SET_ACCELERATION(d, (0, -5, 0), (0, 0, 1), TIME_SERIES([0, 0, 0.1, 20, 0.2, 20]))
RUN(s, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.3)
hc = HISTORY(s, [(c, (0, 5, 0), 'VZ')], 0.2, 0.3)
hd = HISTORY(s, [(d, (0, -5, 0), 'VZ')], 0.05, 0.05)
t('SET_ACCELERATION within a segment: the running integral interpolated linearly, 0.5 at t = 0.05', abs(hd[1][-1] - 0.5) < 1e-9, hd[1][-1])
t('SET_ACCELERATION beyond the series end: the velocity stays at the series integral 0.175', len(hc[1]) > 50 and all(abs(v - 0.175) < 1e-9 for v in hc[1][1:]), (len(hc[1]), min(hc[1]), max(hc[1])))
h = HISTORY(s, [(a, (0, 0, 0), 'DX'), (b, (5, 0, 0), 'DY'), (b, (5, 0, 0), 'VY')], 0.3, 0.3)
t('SET_DISPLACEMENT follows the series (0.1 at t = 0.3, within one step of motion: the scheme averages the velocities at the two ends of a step)', abs(h[1][-1] - 0.1) <= 0.5e-3 + 1e-12, h[1][-1])
t('SET_ACCELERATION: velocity 2t = 0.6 and displacement t^2 = 0.09 at t = 0.3', abs(h[3][-1] - 0.6) < 1e-9 and abs(h[2][-1] - 0.09) < 2e-3, (h[3][-1], h[2][-1]))
PY
for np in 1 2; do
  out=$(timeout 120 $MPIRUN -np $np "$MOREAU" "$TMP/setdisp.py" 2>&1); rc=$?
  echo "$out" | grep -E '^(not )?ok - ' | sed "s/\$/ ($np ranks)/"
  [ $rc -eq 0 ] || { notok "SET_DISPLACEMENT deck on $np ranks"; echo "$out" | tail -5 | sed 's/^/# /'; }
done

# --- SURFACE_MATERIAL dashpot < 0: critical damping 2 sqrt(k m), m the effective mass at the contact
deck crit <<PY
import sys, math
$HEAD
m = BULK_MATERIAL(s, density=1000.0)
k = 1e6
b = BODY(s, 'RIGID', SPHERE((0, 0, 0.11), 0.1, 1, 1), m)
BODY(s, 'OBSTACLE', HEX([-1,-1,-1, 1,-1,-1, 1,1,-1, -1,1,-1, -1,-1,0, 1,-1,0, 1,1,0, -1,1,0], 1, 1, 1, 2, [2]*6), m)
# a sphere hit through its centre: the effective mass is its mass
c = {'crit': -1.0, 'given': 2 * math.sqrt(k * b.mass), 'none': 0.0}[sys.argv[1]]
SURFACE_MATERIAL(s, model='SPRING_DASHPOT', spring=k, dashpot=c)
INITIAL_VELOCITY(b, (0, 0, -1), (0, 0, 0))
s.step = 1e-4
RUN(s, PENALTY_SOLVER(), 0.03)
h = HISTORY(s, (b, (0, 0, 0.11), 'VZ'), 0, 1)
if RANK() == 0:
    print('vz %.15e' % h[1][-1])
PY
v_crit=$(timeout 60 $MPIRUN -np 2 "$MOREAU" "$TMP/crit.py" crit 2>&1 | grep '^vz' | cut -d' ' -f2)
v_given=$("$MOREAU" "$TMP/crit.py" given 2>&1 | grep '^vz' | cut -d' ' -f2)
v_none=$("$MOREAU" "$TMP/crit.py" none 2>&1 | grep '^vz' | cut -d' ' -f2)
check "dashpot = -1 (2 ranks) equals dashpot = 2 sqrt(k m) given, to round-off ($v_crit, $v_given)" \
  $PY -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if abs(a - b) <= 1e-12 * abs(b) else 1)' "$v_crit" "$v_given"
check "critical damping takes most of the rebound: $v_crit against $v_none undamped" \
  $PY -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if 0 <= a < 0.2 * b and b > 0.99 else 1)' "$v_crit" "$v_none"

# --- the solver's failure callback: Solfec's callback(solver, *data)
deck fcb <<PY
$HEAD
m = BULK_MATERIAL(s)
SURFACE_MATERIAL(s, friction=0.5)
GRAVITY(s, (0, 0, -9.81))
for k in range(4):
    BODY(s, 'RIGID', HEX([0, 0, k * 0.2, 0.5, 0, k * 0.2, 0.5, 0.5, k * 0.2, 0, 0.5, k * 0.2, 0, 0, (k + 1) * 0.2, 0.5, 0, (k + 1) * 0.2, 0.5, 0.5, (k + 1) * 0.2, 0, 0.5, (k + 1) * 0.2], 1, 1, 1, 1, [1] * 6), m)
BODY(s, 'OBSTACLE', HEX([-1, -1, -0.5, 2, -1, -0.5, 2, 2, -0.5, -1, 2, -0.5, -1, -1, 0, 2, -1, 0, 2, 2, 0, -1, 2, 0], 1, 1, 1, 2, [2] * 6), m)
got = []
def cb(solver, a, b):
    got.append((solver, a, b))
    return 1
gs = GAUSS_SEIDEL_SOLVER(1e-12, 2, 1.0, 'CALLBACK', None, None, 'SEMISMOOTH_NEWTON', ('x', 7), cb)
RUN(s, gs, 0.003)
t('failure callback called as callback(solver, *data), Solfec-1.0\'s order', got and all(g == (gs, 'x', 7) for g in got), got[:1])
PY
out=$("$MOREAU" "$TMP/fcb.py" 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok - '
[ $rc -eq 0 ] || { notok "the failure-callback deck runs to its end"; echo "$out" | tail -5 | sed 's/^/# /'; }
exit 0
