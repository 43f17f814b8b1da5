/* The inner loop of the nonsmooth Gauss–Seidel sweep, included by gauss_seidel.c once per
   instruction set: SWEEP_NAME is the function, SWEEP_ATTR its attributes, and the
   accumulation b = B_α + Σ_β W_αβ R_β is written with SWEEP_DECL(bv) (b from B_α),
   SWEEP_ADD(m, x) (b += M x for the column-major 3×3 block m) and SWEEP_GET(b) (b into a
   PetscReal[3]). Every variant sums each component in the same order,
   b_c + ((m_c x₀ + m_{c+3} x₁) + m_{c+6} x₂) block after block, so they are bit-identical.

   Sweeps this rank's rows: r is this rank's part of R, g the ghost values. Accumulates
   ‖ΔR‖² and ‖R‖² of the rows; returns the block of a singular EQUALITY/NORMAL row, or −1. */
SWEEP_ATTR static PetscInt SWEEP_NAME(MbBlockCtx *ctx, PetscInt nrows, const PetscInt rows[], const PetscScalar *bv, const MbLaw law[], PetscScalar *r, const PetscScalar *g, PetscReal *dR2, PetscReal *R2)
{
  const PetscReal    *ob = ctx->ob;
  const PetscInt     *oc = ctx->oc, *optr = ctx->optr, *oseg = ctx->oseg;
  const MbBlockIso   *iso   = ctx->iso;
  const MbBlockStick *stick = ctx->stick;
  PetscReal           d2 = 0, r2 = 0;
  for (PetscInt ii = 0; ii < nrows; ii++) {
    const PetscInt i = rows[ii];
    PetscReal      b[3], R[3], R0[3];
    PetscInt       k;
    SWEEP_DECL(bv + 3 * i);
    /* global column order: ghost columns below this rank's, then its own, then above */
    for (k = optr[i]; k < oseg[2 * i]; k++) SWEEP_ADD(ob + 9 * k, g + oc[k]);
    for (; k < oseg[2 * i + 1]; k++) SWEEP_ADD(ob + 9 * k, r + oc[k]);
    for (; k < optr[i + 1]; k++) SWEEP_ADD(ob + 9 * k, g + oc[k]);
    SWEEP_GET(b);
    const MbBlockIso *h = &iso[i];
    for (int d = 0; d < 3; d++) R[d] = R0[d] = PetscRealPart(r[3 * i + d]);
    if (h->ia > 0) { /* inline: most rows of a granular scene (spheres) */
      const PetscReal bb[3] = {b[0] + h->bias[0], b[1] + h->bias[1], b[2] + h->bias[2]};
      MbLawIsoContact(h->ia, h->ic, h->cN, h->mu, h->coh, bb, R);
    } else if (h->ia == -2 && MbLawStickContact(&stick[i], b, R)) { /* inline: convex contacts that separate or stick */
    } else if (!MbLawLocalSolveDiag(&law[i], &ctx->diag[i], b, ctx->local_maxit, R, NULL)) {
      if (law[i].kind != MB_LAW_CONTACT) return i;
      ctx->local_fail++;
    }
    for (int d = 0; d < 3; d++) {
      d2 += (R[d] - R0[d]) * (R[d] - R0[d]);
      r2 += R[d] * R[d];
      r[3 * i + d] = R[d];
    }
  }
  *dR2 += d2;
  *R2 += r2;
  return -1;
}
