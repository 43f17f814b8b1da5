"""Solfec-1.0 functions moreau does not have: each raises, naming the reason or what to use."""


# Solfec-1.0 functions moreau does not have: each raises, naming the reason or what to use.
_UNSUPPORTED = {
    'ELLIP': 'moreau has no ellipsoid shape; approximate it by a HULL of points on its surface (or a SPHERE)',
    'ELLIP_MESH': 'moreau has no ellipsoid mesher; build the MESH yourself',
    'SPLIT': 'shapes cannot be split by a plane; build the two parts (CONVEX, HULL, MESH) yourself',
    'MESH_SPLIT': 'meshes cannot be split; build the parts as separate MESH objects',
    'RT_SPLIT': 'bodies cannot be split during a run',
    'ROUGH_HEX': 'no background meshes: a FINITE_ELEMENT body\'s shape is its MESH (or HEX)',
    'TETRAHEDRALIZE': 'no tetrahedral mesher (Tetgen); give the tetrahedra to MESH',
    'OVERLAPPING': 'no shape-overlap query; filter the shapes in Python (e.g. by MASS_CENTER)',
    'DELETE': 'bodies and constraints cannot be removed',
    'MATERIAL': 'one bulk material per body: the one given to BODY',
    'APPLY_BULKMAT': 'one bulk material per body: the one given to BODY',
    'FIELD': 'no scalar fields (the TSANG_MARSDEN material is not implemented)',
    'SIMPLIFIED_CRACK': 'bodies do not crack',
    'FRACTURE_EXPORT_YAFFEMS': 'no fracture analysis',
    'LOCDYN_DUMP': 'no local dynamics dump (PETSc\'s -log_view and -mb_solver_view describe the solver)',
    'MBFCP_EXPORT': 'no MBFCP export (moreau-fclib writes FCLIB problems)',
    'BODY_MM_EXPORT': 'no MatrixMarket export of body matrices',
    'MODAL_ANALYSIS': 'no modal analysis (the modal and reduced-order forms are not implemented)',
    'COROTATED_DISPLACEMENTS': 'no reduced-order bases',
    'RIGID_DISPLACEMENTS': 'no reduced-order bases',
    'REGISTER_BASE': 'no reduced-order bases',
    'RENDER': 'no viewer: open OUTDIR/<deck>.xmf in ParaView',
    'XDMF_EXPORT': 'moreau writes OUTDIR/<deck>.xmf during the run: open it in ParaView',
    'SOLFEC_EXPORT': 'no Solfec-format export: the results are OUTDIR/<deck>.h5 and .xmf',
    'TEST_SOLVER': 'use NEWTON_SOLVER or GAUSS_SEIDEL_SOLVER',
    'SICONOS_SOLVER': 'use GAUSS_SEIDEL_SOLVER (Siconos is not linked)',
    'HYBRID_SOLVER': 'no PARMEC coupling',
    'EXPLICIT_SOLVER': 'use PENALTY_SOLVER (spring-dashpot contacts, explicit)',
}


def _unsupported(name, why):
    def fn(*args, **kwargs):
        raise NotImplementedError('%s: not supported in moreau: %s' % (name, why))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = '%s: not supported in moreau: %s' % (name, why)
    return fn
