/* Moving obstacles: Solfec-1.0 moves an OBSTACLE by its velocity (INITIAL_VELOCITY) and the
   joints on it alone (SET_VELOCITY, FIX_POINT, FIX_DIRECTION, ...; bod.c: no loads and no
   contact reactions act on it). Each step the owner of a body whose motion is prescribed
   (MbBodyIsDriven) places it at mid-step from u(t), gives it u(t + h) from the rows of those
   joints at that placement — they make no rows of W (MbConSetAddJoints) — and, after the
   solve, places it at t + h (the body's drive ops, src/body/rigid/rigid.c). This runs before
   the ghost refresh and the detection, so other ranks' copies and the contacts see u(t + h)
   (the local dynamics adds the obstacle's point velocities to B). */
#include "domainimpl.h"
#include "../body/bodyimpl.h"

typedef struct {
  PetscInt          body, seq; /* the obstacle's id; the row's place in joint order */
  MbBodyVelocityRow row;
} DriveRow;

static int CompareDriveRow(const void *x, const void *y)
{
  const DriveRow *a = (const DriveRow *)x, *b = (const DriveRow *)y;
  if (a->body != b->body) return a->body < b->body ? -1 : 1;
  return a->seq < b->seq ? -1 : (a->seq > b->seq ? 1 : 0);
}

/* The rows of the joints on one obstacle alone that this rank owns, at the bodies' current
   (mid-step) placement, sorted by body id and then joint order. */
static PetscErrorCode CollectRows(MbDomain d, PetscInt *nrow, DriveRow **rows)
{
  PetscInt  n = 0, cap = 0;
  DriveRow *r = NULL;
  PetscFunctionBegin;
  for (PetscInt j = 0; j < d->cs->njoint; j++) {
    MbJoint          *jt = &d->cs->joint[j];
    MbBody            b;
    PetscInt          m;
    MbBodyVelocityRow v[3];
    if (jt->removed || jt->body[1] >= 0 || d->map.movable[jt->body[0]] || d->map.owner[jt->body[0]] != d->rank) continue;
    b = d->map.all[jt->body[0]];
    PetscCheck(b && MbBodyIsDriven(b), PETSC_COMM_SELF, PETSC_ERR_SUP, "joint %" PetscInt_FMT " is on body %" PetscInt_FMT " alone, which takes no reactions and whose motion cannot be prescribed", j, jt->body[0]);
    PetscCall(MbJointVelocityRows(jt, j, b, d->t, d->h, &m, v));
    if (n + m > cap) {
      cap = PetscMax(2 * cap, n + m + 8);
      PetscCall(PetscRealloc(sizeof(DriveRow) * cap, &r));
    }
    for (PetscInt k = 0; k < m; k++, n++) r[n] = (DriveRow){.body = jt->body[0], .seq = n, .row = v[k]};
  }
  if (n > 1) qsort(r, (size_t)n, sizeof(DriveRow), CompareDriveRow);
  *nrow = n;
  *rows = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainDriveBegin(MbDomain d)
{
  PetscInt           nrow = 0, k = 0; /* set by CollectRows (initialized: GCC cannot see that) */
  DriveRow          *rows = NULL;
  MbBodyVelocityRow *v    = NULL;
  PetscBool          any  = PETSC_FALSE;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++)
    if (!d->body[i]->scheme && MbBodyIsDriven(d->body[i])) {
      PetscCall(MbBodyDriveBegin(d->body[i], d->h));
      any = PETSC_TRUE;
    }
  if (!any) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CollectRows(d, &nrow, &rows));
  PetscCall(PetscMalloc1(nrow + 1, &v));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody   b = d->body[i];
    PetscInt n = 0;
    if (b->scheme || !MbBodyIsDriven(b)) continue;
    while (k < nrow && rows[k].body < b->id) k++; /* d->body is in id order */
    if (k < nrow && rows[k].body != b->id) {      /* not in order: find its rows */
      k = 0;
      while (k < nrow && rows[k].body != b->id) k++;
    }
    while (k + n < nrow && rows[k + n].body == b->id) {
      v[n] = rows[k + n].row;
      n++;
    }
    PetscCall(MbBodyDriveVelocity(b, d->h, n, v));
    /* Solfec-1.0 (lng.c, SET_VELOCITY): "Moving obstacles do not work in the quasi-static case" */
    PetscCheck(!d->quasi_static || !MbBodyInMotion(b), PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " is an obstacle given a velocity or a prescribed motion: moving obstacles do not work in a QUASI_STATIC analysis (nor in Solfec-1.0)",
               b->id);
  }
  PetscCall(PetscFree(v));
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainDriveEnd(MbDomain d)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++)
    if (!d->body[i]->scheme && MbBodyIsDriven(d->body[i])) PetscCall(MbBodyDriveEnd(d->body[i], d->h));
  PetscFunctionReturn(PETSC_SUCCESS);
}
