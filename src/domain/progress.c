/* The progress line a run prints on rank 0 about once a second: time, percentage, step,
   speed and ETA, then the physics columns the user chose with -mb_progress_columns, as
   LAMMPS's thermo_style picks its columns (issue 36). The columns are the step's /history
   record, which every rank holds after the step's one reduction: no communication more. */
#include <string.h>
#include "domainimpl.h"

/* A column: its name (a /history series), the value from a record, its printf width. */
typedef struct {
  const char *name;
  PetscReal (*get)(const MbHistory *);
  const char *fmt;
} Column;

static PetscReal Kinetic(const MbHistory *r) { return r->energy.kinetic; }
static PetscReal Internal(const MbHistory *r) { return r->energy.internal; }
static PetscReal External(const MbHistory *r) { return r->energy.external; }
static PetscReal Contact(const MbHistory *r) { return r->energy.contact; }
static PetscReal Friction(const MbHistory *r) { return r->energy.friction; }
static PetscReal Contacts(const MbHistory *r) { return (PetscReal)r->contacts; }
static PetscReal Iterations(const MbHistory *r) { return (PetscReal)r->iterations; }
static PetscReal Error(const MbHistory *r) { return r->error; }
static PetscReal Curvature(const MbHistory *r) { return r->curvature; }
static PetscReal Rejected(const MbHistory *r) { return (PetscReal)r->rejected; }

static const Column Columns[] = {
    {"kinetic", Kinetic, "%.4g"},   {"internal", Internal, "%.4g"},     {"external", External, "%.4g"}, {"contact", Contact, "%.4g"},     {"friction", Friction, "%.4g"},
    {"contacts", Contacts, "%.0f"}, {"iterations", Iterations, "%.0f"}, {"error", Error, "%.2g"},       {"curvature", Curvature, "%.3g"}, {"rejected", Rejected, "%.0f"},
};
#define NCOLUMNS ((PetscInt)(sizeof(Columns) / sizeof(Columns[0])))

/*@C
  MbDomainProgressSetFromOptions - read -mb_progress_columns NAME,NAME,... (default
  kinetic,contacts,iterations,error; "none" for none); an unknown name is an error listing
  the known ones.
@*/
PetscErrorCode MbDomainProgressSetFromOptions(MbDomain d)
{
  char      list[256] = "kinetic,contacts,iterations,error", *tok, *save = NULL;
  PetscBool set;
  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mb_progress_columns", list, sizeof(list), &set));
  d->nprogress_col = 0;
  if (!strcmp(list, "none")) PetscFunctionReturn(PETSC_SUCCESS);
  for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    PetscInt k;
    for (k = 0; k < NCOLUMNS && strcmp(tok, Columns[k].name); k++) {
    }
    PetscCheck(k < NCOLUMNS, d->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "-mb_progress_columns: unknown column '%s'; the columns: kinetic, internal, external, contact, friction, contacts, iterations, error, curvature, rejected (or none)", tok);
    PetscCheck(d->nprogress_col < MB_PROGRESS_MAXCOL, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_progress_columns: at most %d columns", MB_PROGRESS_MAXCOL);
    d->progress_col[d->nprogress_col++] = (int)k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MbDomainProgressPrint - the progress line on rank 0: frac of the RUN done, rate in steps a
  second, eta the time left as text, then the chosen columns of the last /history record.
@*/
PetscErrorCode MbDomainProgressPrint(MbDomain d, double frac, double rate, const char eta[])
{
  char line[512];
  int  n;
  PetscFunctionBegin;
  if (d->rank) PetscFunctionReturn(PETSC_SUCCESS);
  n = snprintf(line, sizeof(line), "moreau: t = %-10.6g (%5.1f%%)  h = %-9.3g  %8.0f steps/s  ETA %s", (double)d->t, 100.0 * frac, (double)d->h, rate, eta);
  if (d->nhist > 0)
    for (PetscInt i = 0; i < d->nprogress_col && n > 0 && n < (int)sizeof(line) - 40; i++) {
      const Column *c = &Columns[d->progress_col[i]];
      n += snprintf(line + n, sizeof(line) - (size_t)n, "  %s ", c->name);
      n += snprintf(line + n, sizeof(line) - (size_t)n, c->fmt, (double)c->get(&d->hist[d->nhist - 1]));
    }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", line));
  PetscFunctionReturn(PETSC_SUCCESS);
}
