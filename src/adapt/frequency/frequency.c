/* APPARENT_FREQUENCY (Park and Underwood 1980): the central difference method's step is
   kept at a fraction of its stability limit 2/ω, with ω the largest apparent frequency of
   the motion, measured from the increments of acceleration and displacement of all the
   degrees of freedom: ω² = ‖Δd̈‖ / ‖Δd‖. Here Δd̈ is the change of the step-mean
   accelerations over (h_n + h_(n−1))/2 and Δd the matching displacement increment
   ḋ(t_n)·(h_n + h_(n−1))/2 (MbAdaptData). The step is ratio · 2/ω; it drops at once when
   that is smaller and grows only when it is more than 20 % larger (at most doubling),
   which is our reading of the paper's rule against frequent changes. ω = 0 (free flight:
   the paper's reason why this controller does not suit the elastic collision) gives
   Δt_max. */
#include "../adaptimpl.h"

static const char PUCitation[] = "@article{park1980variable,\n"
                                 "  author  = {K. C. Park and P. G. Underwood},\n"
                                 "  title   = {A variable-step central difference method for structural dynamics analysis. Part 1. Theoretical aspects},\n"
                                 "  journal = {Computer Methods in Applied Mechanics and Engineering},\n"
                                 "  volume  = {22}, number = {2}, pages = {241--258}, year = {1980}\n}\n";
static PetscBool  PUCited      = PETSC_FALSE;

typedef struct {
  PetscReal ratio; /* the step as a fraction of 2/ω */
} Freq;

static const MbAdaptParam FreqParams[] = {
    {"ratio", "step as a fraction of 2/omega", offsetof(Freq, ratio), 0.8, 0, 1, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE},
};

static PetscErrorCode FreqStart(MbAdapt a, PetscReal t, PetscReal h0, PetscReal *h)
{
  PetscFunctionBegin;
  if (!PUCited) PetscCall(PetscCitationsRegister(PUCitation, &PUCited));
  *h = MbAdaptClamp(a, h0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreqPost(MbAdapt a, const MbAdaptData *dat, PetscBool last, MbAdaptAction *action, PetscReal *h)
{
  PetscReal hbar, dd, omega2, hs;
  PetscFunctionBegin;
  *h = MbAdaptClamp(a, dat->h);
  if (dat->hprev <= 0) {
    a->estimate = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  hbar        = 0.5 * (dat->h + dat->hprev);
  dd          = PetscSqrtReal(dat->u0u0) * hbar;
  omega2      = dd > 0 ? PetscSqrtReal(dat->dada) / dd : 0;
  a->estimate = PetscSqrtReal(omega2);
  hs          = omega2 > 0 ? ((Freq *)a->data)->ratio * 2 / a->estimate : a->dtmax;
  if (hs < dat->h)
    *h = MbAdaptClamp(a, hs);
  else if (hs > 1.2 * dat->h)
    *h = MbAdaptClamp(a, PetscMin(hs, 2 * dat->h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreqView(MbAdapt a, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "  step = %g * 2/omega\n", (double)((Freq *)a->data)->ratio));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptCreate_Frequency(MbAdapt a)
{
  PetscFunctionBegin;
  PetscCall(MbAdaptSetUpData(a, sizeof(Freq), PETSC_STATIC_ARRAY_LENGTH(FreqParams), FreqParams));
  a->ops.start = FreqStart;
  a->ops.post  = FreqPost;
  a->ops.view  = FreqView;
  PetscFunctionReturn(PETSC_SUCCESS);
}
