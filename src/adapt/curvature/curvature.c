/* CURVATURE: the step follows the first Frenet curvature of the displacement history
   (Lages, Silveira, Cintra and Frery 2010; seed 004):
     k(t) by eq. (5) over all degrees of freedom (the three dot products come in MbAdaptData,
       already summed over ranks),
     Δt = max(Δt_max e^(−b k), Δt_min), eq. (7),
     regularization by maxima over intervals Δt_dl = ζ Δt_max (section 3): with k_(m−1) the
       regularized curvature of the last interval and maxk the largest k so far in this one,
       k_m = α k_(m−1) + (1 − α) maxk when maxk < k_(m−1), else maxk, eq. (10);
     rejection (section 3): when the interval ends with k_m > k_(m−1), its steps are thrown
       away and it is integrated again from its start with Δt(k_m).
   Eq. (5) adds 1 to ḋ·ḋ, a number to a squared velocity, so k depends on the unit of
   length (issue 22: the dolly peaks near 150 in metres, 1,900 in inches). The parameter
   length L (default 1: the deck's unit) divides the points' displacements (the velocity
   components the body marks as lengths per time, MbBodyOps.length_dof; rotations and strain
   rates enter as they are): L = 0.0254 m computes k as the paper did, in inches.
   The unit-free variant (unit_free = 1) also measures time in units of T = Δt_max: eq. (5)
   on the curve (t/T, d/L), so ḋ enters as T ḋ/L, d̈ as T² d̈/L (rotations: T θ̇, T² θ̈) and
   k, and with it b of eq. (7), is a pure number: the same motion gives the same steps in any
   units, given L in them. For a slow motion (T ḋ/L ≪ 1) k ≈ T² |d̈⊥|/L, the path's bending
   over one longest step measured in L, so b = b_s/T² (T in seconds) matches a b_s tuned in
   seconds with the same L, away from the velocity term.
   Our reading of the places the paper leaves open:
   - an interval starts at an accepted state and ends at the first step that reaches its
     start + Δt_dl (the steps are not cut to land on the boundary), or at the end of a run;
   - the interval [t_m, t] holds t_m, so maxk starts at k(t_m), the curvature of the step
     that ended there (not at 0, which would make every interval open with the step
     Δt(α k_(m−1)), far longer than the motion asks for);
   - k_(m−1) is the regularized value of eq. (10) at the end of the last interval (0 at the
     start), so that a quiet interval forgets a peak geometrically, by α per interval;
   - a redone interval is integrated at the fixed step Δt(k_m); if it ends with a still
     larger k_m it is redone again (at most MAXREDO times, or until Δt = Δt_min);
   - a rejection whose redo would shorten the interval's largest step by less than the
     fraction reject_tol (default 1 %; MbAdaptSetParameter) is not made. */
#include "../adaptimpl.h"

#define MAXREDO 4

static const char LagesCitation[] = "@article{lages2010adaptive,\n"
                                    "  author  = {Eduardo N. Lages and Eduardo S. S. Silveira and Diogo T. Cintra and Alejandro C. Frery},\n"
                                    "  title   = {An adaptive time integration strategy based on displacement history curvature},\n"
                                    "  journal = {International Journal for Numerical Methods in Engineering},\n"
                                    "  note    = {preprint of 12 July 2010 (moreau seed 004)}, year = {2010}\n}\n";
static PetscBool  LagesCited      = PETSC_FALSE;

typedef struct {
  PetscReal kprev;      /* k_(m−1): regularized curvature at the end of the last interval */
  PetscReal kmax;       /* maxk(t_m, t): largest k in this interval so far */
  PetscReal kstart;     /* k(t_m), measured by the step that ended at t_m (0 at a run's start) */
  PetscReal tc;         /* start of this interval (an accepted state) */
  PetscReal hlarge;     /* largest step taken in this interval */
  PetscInt  n;          /* steps in this interval */
  PetscBool redo;       /* this pass redoes the interval at the fixed step hredo */
  PetscReal hredo;      /* Δt(k_m) of the rejection */
  PetscInt  nredo;      /* passes redone for this interval */
  PetscBool started;    /* a run began */
  PetscReal b;          /* b of eq. (7) */
  PetscReal zeta;       /* regularization interval ζ Δt_max */
  PetscReal alpha;      /* α of eq. (10) */
  PetscReal reject;     /* 1: redo intervals whose curvature grew */
  PetscReal reject_tol; /* ... when that shortens the steps by more than this fraction */
  PetscReal length;     /* L: points' displacements enter eq. (5) as d/L */
  PetscReal unit_free;  /* 1: time enters eq. (5) in units of Δt_max as well (k a pure number) */
} Curv;

static const MbAdaptParam CurvParams[] = {
    {"b", "b of dt = dtmax exp(-b k)", offsetof(Curv, b), 1.0, 0, PETSC_MAX_REAL, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE},
    {"zeta", "regularization interval in units of dtmax", offsetof(Curv, zeta), 1.0, 0, PETSC_MAX_REAL, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE},
    /* seed 004, section 3: "a constant α = 1/2 was employed" */
    {"alpha", "weight of the previous interval's curvature", offsetof(Curv, alpha), 0.5, 0, 1, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE},
    {"reject", "redo an interval whose curvature grew", offsetof(Curv, reject), 0, 0, 1, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE},
    {"reject_tol", "reject only when the redo's steps are shorter by more than this fraction", offsetof(Curv, reject_tol), 0.01, 0, 1, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE},
    /* eq. (5) adds 1 to ḋ·ḋ, so k depends on the unit of length: L makes it the unit */
    {"length", "length scale L: points' displacements enter the curvature as d/L", offsetof(Curv, length), 1.0, 0, PETSC_MAX_REAL, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE},
    /* the unit of time is the other one eq. (5) depends on: Δt_max makes k dimensionless */
    {"unit_free", "curvature of (t/dtmax, d/L): a pure number, b too", offsetof(Curv, unit_free), 0, 0, 1, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE},
};

/* eq. (7) */
static PetscReal StepOf(MbAdapt a, PetscReal k) { return PetscMax(a->dtmax * PetscExpReal(-((Curv *)a->data)->b * k), a->dtmin); }

/* eq. (10) */
static PetscReal Regularized(MbAdapt a, const Curv *c) { return c->kmax < c->kprev ? c->alpha * c->kprev + (1 - c->alpha) * c->kmax : c->kmax; }

static PetscErrorCode CurvStart(MbAdapt a, PetscReal t, PetscReal h0, PetscReal *h)
{
  Curv *c = (Curv *)a->data;
  PetscFunctionBegin;
  if (!LagesCited) PetscCall(PetscCitationsRegister(LagesCitation, &LagesCited));
  if (!c->started) c->kprev = 0; /* "at the beginning of simulation, k_(m−1) can be adopted null" */
  c->started = PETSC_TRUE;
  c->kmax    = c->kstart;
  c->tc      = t;
  c->n       = 0;
  c->hlarge  = 0;
  c->redo    = PETSC_FALSE;
  c->nredo   = 0;
  *h         = StepOf(a, Regularized(a, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CurvPost(MbAdapt a, const MbAdaptData *dat, PetscBool last, MbAdaptAction *action, PetscReal *h)
{
  Curv     *c = (Curv *)a->data;
  PetscReal km;
  PetscFunctionBegin;
  if (c->length != 1 || c->unit_free != 0) { /* eq. (5) on (t/T, d/L): points' displacements over L, rotations as they are; T = Δt_max or 1 */
    const PetscReal s = 1 / (c->length * c->length), T = c->unit_free != 0 ? a->dtmax : 1, T2 = T * T;
    a->curvature = MbAdaptCurvature(T2 * (dat->vv - dat->vvL + s * dat->vvL), T2 * T2 * (dat->aa - dat->aaL + s * dat->aaL), T2 * T * (dat->va - dat->vaL + s * dat->vaL));
  }
  c->kmax   = PetscMax(c->kmax, a->curvature);
  c->hlarge = PetscMax(c->hlarge, dat->h);
  c->n++;
  km          = Regularized(a, c);
  a->estimate = km;
  *h          = c->redo ? c->hredo : StepOf(a, km);
  if (!(last || dat->t >= c->tc + c->zeta * a->dtmax - 1e-9 * dat->h)) PetscFunctionReturn(PETSC_SUCCESS);
  /* the interval ends here */
  if (c->reject != 0 && km > c->kprev && StepOf(a, km) < (1 - c->reject_tol) * c->hlarge && c->nredo < MAXREDO) {
    a->rejections++;
    a->discarded += c->n;
    c->hredo = StepOf(a, km);
    c->redo  = PETSC_TRUE;
    c->nredo++;
    c->kmax   = c->kstart;
    c->hlarge = 0;
    c->n      = 0;
    *h        = c->hredo;
    *action   = MB_ADAPT_REJECT;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  c->kprev  = km;
  c->kstart = a->curvature;
  c->kmax   = c->kstart;
  c->hlarge = 0;
  c->n      = 0;
  c->tc     = dat->t;
  c->redo   = PETSC_FALSE;
  c->nredo  = 0;
  *h        = StepOf(a, Regularized(a, c));
  *action   = MB_ADAPT_ACCEPT;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CurvView(MbAdapt a, PetscViewer v)
{
  const Curv *c = (const Curv *)a->data;
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "  b %g, zeta %g (interval %g), alpha %g, reject %s, length %g%s; %" PetscInt_FMT " intervals rejected, %" PetscInt_FMT " steps discarded\n", (double)c->b, (double)c->zeta, (double)(c->zeta * a->dtmax),
                                   (double)c->alpha, c->reject != 0 ? "yes" : "no", (double)c->length, c->unit_free != 0 ? ", time in units of dtmax (unit-free)" : "", a->rejections, a->discarded));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptCreate_Curvature(MbAdapt a)
{
  PetscFunctionBegin;
  PetscCall(MbAdaptSetUpData(a, sizeof(Curv), PETSC_STATIC_ARRAY_LENGTH(CurvParams), CurvParams));
  a->ops.start = CurvStart;
  a->ops.post  = CurvPost;
  a->ops.view  = CurvView;
  PetscFunctionReturn(PETSC_SUCCESS);
}
