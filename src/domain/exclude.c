/* Pairs of bodies, and pairs of surface ids, that make no contacts (Solfec-1.0's
   CONTACT_EXCLUDE_BODIES and CONTACT_EXCLUDE_SURFACES): two sorted sets of unordered pairs,
   the same on every rank (the deck adds them on every rank), looked up by the detection's
   pair filter (bodies) and per contact point (surfaces). And the other way round, the
   bodies whose primitives do make contacts with each other (Solfec-1.0's BODY.selfcontact,
   its BODY_DETECT_SELF_CONTACT flag): a sorted set of ids, the same on every rank. */
#include "domainimpl.h"

static int ComparePair(const void *x, const void *y)
{
  const PetscInt *a = (const PetscInt *)x, *b = (const PetscInt *)y;
  return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] != b[1] ? (a[1] < b[1] ? -1 : 1) : 0;
}

PetscErrorCode MbDomainExcludeContact(MbDomain d, MbExclude kind, PetscInt a, PetscInt b)
{
  PetscInt   key[2] = {PetscMin(a, b), PetscMax(a, b)}, *n;
  PetscInt **set;
  PetscFunctionBegin;
  PetscCheck(kind == MB_EXCLUDE_BODIES || kind == MB_EXCLUDE_SURFACES, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "exclusion kind %d: 0 (bodies) or 1 (surfaces)", (int)kind);
  if (kind == MB_EXCLUDE_BODIES) {
    PetscCheck(a != b, d->comm, PETSC_ERR_ARG_WRONG, "CONTACT_EXCLUDE_BODIES: body %" PetscInt_FMT " twice (a body makes contacts with itself only with BODY.selfcontact = 'ON', which turns them off again as 'OFF')", a);
    PetscCheck(key[0] >= 0 && key[1] < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "CONTACT_EXCLUDE_BODIES: bodies %" PetscInt_FMT " and %" PetscInt_FMT ": ids run from 0 to %" PetscInt_FMT, a, b, d->nglobal - 1);
  }
  n   = &d->nexcl[kind];
  set = &d->excl[kind];
  if (bsearch(key, *set, (size_t)*n, 2 * sizeof(PetscInt), ComparePair)) PetscFunctionReturn(PETSC_SUCCESS); /* given before */
  PetscCall(PetscRealloc(sizeof(PetscInt) * 2 * (size_t)(*n + 1), set));
  (*set)[2 * *n]     = key[0];
  (*set)[2 * *n + 1] = key[1];
  (*n)++;
  qsort(*set, (size_t)*n, 2 * sizeof(PetscInt), ComparePair);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool MbDomainExcluded(MbDomain d, MbExclude kind, PetscInt a, PetscInt b)
{
  PetscInt key[2] = {PetscMin(a, b), PetscMax(a, b)};
  if (!d->nexcl[kind]) return PETSC_FALSE;
  return bsearch(key, d->excl[kind], (size_t)d->nexcl[kind], 2 * sizeof(PetscInt), ComparePair) ? PETSC_TRUE : PETSC_FALSE;
}

static int CompareId(const void *x, const void *y)
{
  const PetscInt a = *(const PetscInt *)x, b = *(const PetscInt *)y;
  return a < b ? -1 : a > b ? 1 : 0;
}

PetscErrorCode MbDomainSetSelfContact(MbDomain d, PetscInt id, PetscBool on)
{
  PetscInt *at;
  PetscFunctionBegin;
  PetscCheck(id >= 0 && id < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "BODY.selfcontact: body %" PetscInt_FMT ": ids run from 0 to %" PetscInt_FMT, id, d->nglobal - 1);
  at = d->nself ? (PetscInt *)bsearch(&id, d->self, (size_t)d->nself, sizeof(PetscInt), CompareId) : NULL;
  if (on && !at) {
    PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)(d->nself + 1), &d->self));
    d->self[d->nself++] = id;
    qsort(d->self, (size_t)d->nself, sizeof(PetscInt), CompareId);
  } else if (!on && at) {
    PetscCall(PetscArraymove(at, at + 1, d->nself - (at - d->self) - 1));
    d->nself--;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool MbDomainSelfContact(MbDomain d, PetscInt id)
{
  if (!d->nself) return PETSC_FALSE;
  return bsearch(&id, d->self, (size_t)d->nself, sizeof(PetscInt), CompareId) ? PETSC_TRUE : PETSC_FALSE;
}

PetscErrorCode MbDomainExcludeDestroy(MbDomain d)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(d->self));
  d->nself = 0;
  for (int k = 0; k < 2; k++) {
    PetscCall(PetscFree(d->excl[k]));
    d->nexcl[k] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
