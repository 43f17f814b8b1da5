"""Solfec-1.0 functions moreau does not have: each raises, naming the reason or what to use."""


# Solfec-1.0 functions moreau does not have: each raises, naming the reason or what to use.
_UNSUPPORTED = {
    'RT_SPLIT': 'bodies cannot be split during a run',
    'MATERIAL': 'one bulk material per body: the one given to BODY',
    'APPLY_BULKMAT': 'one bulk material per body: the one given to BODY',
    'FIELD': 'no scalar fields (the TSANG_MARSDEN material is not implemented)',
    'FRACTURE_EXPORT_YAFFEMS': 'no fracture analysis',
    'BODY_MM_EXPORT': 'no MatrixMarket export of body matrices',
    'COROTATED_DISPLACEMENTS': 'no snapshots of co-rotated displacements (POD bases); MODAL_ANALYSIS gives a modal base',
    'RIGID_DISPLACEMENTS': 'no rigid displacement vectors; MODAL_ANALYSIS gives a modal base (its first six modes are rigid for a free body)',
    'REGISTER_BASE': 'no registered bases: give BODY base=(values, vectors)',
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
