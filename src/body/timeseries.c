/* Piecewise-linear scalar functions of time (Solfec's TIME_SERIES), reference counted so
   that several loads can share one table. */
#include <stdio.h>
#include "bodyimpl.h"

struct _p_MbTimeSeries {
  PetscInt   n;     /* number of points */
  PetscInt   refs;  /* reference count */
  PetscInt   last;  /* interval found last time: lookups move forward in time */
  PetscReal *t, *v; /* abscissae (strictly increasing) and values */
};

PetscErrorCode MbTimeSeriesCreate(PetscInt n, const PetscReal t[], const PetscReal v[], MbTimeSeries *ts)
{
  PetscFunctionBegin;
  PetscCheck(n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "time series needs at least one (t, v) pair, got %" PetscInt_FMT, n);
  for (PetscInt k = 0; k < n; k++)
    if (!isfinite(t[k]) || !isfinite(v[k])) { /* the numbers as C prints them (PETSc's %g writes "nan.") */
      char pt[64];
      (void)snprintf(pt, sizeof(pt), "(%g, %g)", (double)t[k], (double)v[k]);
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "time series point %" PetscInt_FMT " is not finite: (t, v) = %s", k, pt);
    }
  for (PetscInt k = 1; k < n; k++) PetscCheck(t[k] > t[k - 1], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "time series times must increase: t[%" PetscInt_FMT "] = %g after t[%" PetscInt_FMT "] = %g", k, (double)t[k], k - 1, (double)t[k - 1]);
  PetscCall(PetscNew(ts));
  (*ts)->n    = n;
  (*ts)->refs = 1;
  PetscCall(PetscMalloc2(n, &(*ts)->t, n, &(*ts)->v));
  PetscCall(PetscArraycpy((*ts)->t, t, n));
  PetscCall(PetscArraycpy((*ts)->v, v, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbTimeSeriesEvaluate(MbTimeSeries ts, PetscReal t, PetscReal *v)
{
  PetscInt k, n = ts->n;
  PetscFunctionBegin;
  if (t <= ts->t[0]) {
    *v = ts->v[0];
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (t >= ts->t[n - 1]) {
    *v = ts->v[n - 1];
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  k = ts->last;
  if (!(ts->t[k] <= t && t < ts->t[k + 1])) { /* bisection: t[lo] <= t < t[hi] */
    PetscInt lo = 0, hi = n - 1;
    while (hi - lo > 1) {
      PetscInt mid = (lo + hi) / 2;
      if (ts->t[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
    k = ts->last = lo;
  }
  *v = ts->v[k] + (ts->v[k + 1] - ts->v[k]) * (t - ts->t[k]) / (ts->t[k + 1] - ts->t[k]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbTimeSeriesReference(MbTimeSeries ts)
{
  PetscFunctionBegin;
  ts->refs++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbTimeSeriesDestroy(MbTimeSeries *ts)
{
  PetscFunctionBegin;
  if (!*ts) PetscFunctionReturn(PETSC_SUCCESS);
  if (--(*ts)->refs == 0) {
    PetscCall(PetscFree2((*ts)->t, (*ts)->v));
    PetscCall(PetscFree(*ts));
  }
  *ts = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbTimeSeriesGetPoints(MbTimeSeries ts, PetscInt *n, const PetscReal **t, const PetscReal **v)
{
  *n = ts->n;
  *t = ts->t;
  *v = ts->v;
  return PETSC_SUCCESS;
}
