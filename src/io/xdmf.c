/* XDMF index of the HDF5 results (doc/output.md): a temporal collection with one spatial
   collection per frame, each referencing datasets of <name>.h5 by relative path, so ParaView
   opens <name>.xmf with its "XDMF Reader" (Xdmf 2). Rank 0 writes it; after each frame the
   file ends with the closing tags, so a run that crashes leaves a valid index: a new frame
   is written over the closing tags, which are then written again. */
#include <errno.h>
#include <string.h>
#include "outputimpl.h"

static const char XdmfHead[] = "<?xml version=\"1.0\" ?>\n"
                               "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
                               "<Xdmf Version=\"2.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
                               " <Domain>\n"
                               "  <Grid Name=\"moreau\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
static const char XdmfTail[] = "  </Grid>\n"
                               " </Domain>\n"
                               "</Xdmf>\n";

/* Every rank learns rank 0's errno and fails with the same message. */
static PetscErrorCode AgreeErrno(MbOutput out, int err, const char *what)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, out->comm));
  PetscCheck(!err, out->comm, PETSC_ERR_FILE_WRITE, "cannot %s XDMF index '%s': %s", what, out->xmf, strerror(err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbXdmfOpen(MbOutput out)
{
  int err = 0;
  PetscFunctionBegin;
  if (out->rank == 0) {
    out->xfp = fopen(out->xmf, "w");
    if (!out->xfp)
      err = errno;
    else {
      fputs(XdmfHead, out->xfp);
      out->xtail = ftell(out->xfp);
      fputs(XdmfTail, out->xfp);
      if (fflush(out->xfp) || ferror(out->xfp)) err = errno ? errno : EIO;
    }
  }
  PetscCall(AgreeErrno(out, err, "create"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A DataItem referencing an HDF5 dataset: dims "n" or "n 3". */
static void DataItem(FILE *fp, const char *indent, const char *h5name, const char *path, const char *numtype, int prec, int64_t rows, int cols)
{
  if (cols)
    fprintf(fp, "%s<DataItem Dimensions=\"%lld %d\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">%s:%s</DataItem>\n", indent, (long long)rows, cols, numtype, prec, h5name, path);
  else
    fprintf(fp, "%s<DataItem Dimensions=\"%lld\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">%s:%s</DataItem>\n", indent, (long long)rows, numtype, prec, h5name, path);
}

static void Attribute(FILE *fp, const char *name, const char *type, const char *center, const char *h5name, const char *path, const char *numtype, int prec, int64_t rows, int cols)
{
  fprintf(fp, "     <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"%s\">\n", name, type, center);
  DataItem(fp, "      ", h5name, path, numtype, prec, rows, cols);
  fprintf(fp, "     </Attribute>\n");
}

/* One frame: a spatial collection of the grids "bodies" (convex surfaces, Mixed topology of
   triangles and quadrilaterals) and "spheres" (Polyvertex); a grid with no cells is left
   out, since the reader rejects empty arrays. */
static void WriteFrame(FILE *fp, const char *h5name, PetscInt f, PetscReal t, PetscInt m, const MbOutMesh *mesh, int64_t ncon)
{
  char fr[64], me[64], p[128];
  snprintf(fr, sizeof(fr), "/frames/%06d", (int)f);
  snprintf(me, sizeof(me), "/mesh/%06d", (int)m);
  fprintf(fp, "   <Grid Name=\"frame %06d\" GridType=\"Collection\" CollectionType=\"Spatial\">\n", (int)f);
  fprintf(fp, "    <Time Value=\"%.17g\"/>\n", (double)t);
  if (mesh->ncells > 0) {
    fprintf(fp, "    <Grid Name=\"bodies\" GridType=\"Uniform\">\n");
    fprintf(fp, "     <Topology TopologyType=\"Mixed\" NumberOfElements=\"%lld\">\n", (long long)mesh->ncells);
    snprintf(p, sizeof(p), "%s/surface_topology", me);
    DataItem(fp, "      ", h5name, p, "Int", 8, mesh->ntopo, 0);
    fprintf(fp, "     </Topology>\n");
    fprintf(fp, "     <Geometry GeometryType=\"XYZ\">\n");
    snprintf(p, sizeof(p), "%s/surface_points", fr);
    DataItem(fp, "      ", h5name, p, "Float", 8, mesh->npts, 3);
    fprintf(fp, "     </Geometry>\n");
    snprintf(p, sizeof(p), "%s/surface_body", me);
    Attribute(fp, "id", "Scalar", "Cell", h5name, p, "Int", 8, mesh->ncells, 0);
    snprintf(p, sizeof(p), "%s/surface_velo", fr);
    Attribute(fp, "velocity", "Vector", "Cell", h5name, p, "Float", 8, mesh->ncells, 3);
    snprintf(p, sizeof(p), "%s/surface_mises", fr);
    Attribute(fp, "mises", "Scalar", "Cell", h5name, p, "Float", 8, mesh->ncells, 0);
    snprintf(p, sizeof(p), "%s/surface_stress", fr);
    Attribute(fp, "stress", "Tensor6", "Cell", h5name, p, "Float", 8, mesh->ncells, 6);
    snprintf(p, sizeof(p), "%s/surface_displacement", fr);
    Attribute(fp, "displacement", "Vector", "Node", h5name, p, "Float", 8, mesh->npts, 3);
    snprintf(p, sizeof(p), "%s/surface_point_velo", fr);
    Attribute(fp, "point_velocity", "Vector", "Node", h5name, p, "Float", 8, mesh->npts, 3);
    fprintf(fp, "    </Grid>\n");
  }
  if (mesh->nsph > 0) {
    fprintf(fp, "    <Grid Name=\"spheres\" GridType=\"Uniform\">\n");
    fprintf(fp, "     <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%lld\" NodesPerElement=\"1\"/>\n", (long long)mesh->nsph);
    fprintf(fp, "     <Geometry GeometryType=\"XYZ\">\n");
    snprintf(p, sizeof(p), "%s/sphere_center", fr);
    DataItem(fp, "      ", h5name, p, "Float", 8, mesh->nsph, 3);
    fprintf(fp, "     </Geometry>\n");
    snprintf(p, sizeof(p), "%s/sphere_radius", me);
    Attribute(fp, "radius", "Scalar", "Node", h5name, p, "Float", 8, mesh->nsph, 0);
    snprintf(p, sizeof(p), "%s/sphere_body", me);
    Attribute(fp, "id", "Scalar", "Node", h5name, p, "Int", 8, mesh->nsph, 0);
    snprintf(p, sizeof(p), "%s/sphere_velo", fr);
    Attribute(fp, "velocity", "Vector", "Node", h5name, p, "Float", 8, mesh->nsph, 3);
    snprintf(p, sizeof(p), "%s/sphere_mises", fr);
    Attribute(fp, "mises", "Scalar", "Node", h5name, p, "Float", 8, mesh->nsph, 0);
    fprintf(fp, "    </Grid>\n");
  }
  if (ncon > 0) { /* constraint points with normal and reaction force: glyphs in ParaView */
    fprintf(fp, "    <Grid Name=\"contacts\" GridType=\"Uniform\">\n");
    fprintf(fp, "     <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%lld\" NodesPerElement=\"1\"/>\n", (long long)ncon);
    fprintf(fp, "     <Geometry GeometryType=\"XYZ\">\n");
    snprintf(p, sizeof(p), "%s/contact_point", fr);
    DataItem(fp, "      ", h5name, p, "Float", 8, ncon, 3);
    fprintf(fp, "     </Geometry>\n");
    snprintf(p, sizeof(p), "%s/contact_normal", fr);
    Attribute(fp, "normal", "Vector", "Node", h5name, p, "Float", 8, ncon, 3);
    snprintf(p, sizeof(p), "%s/contact_force", fr);
    Attribute(fp, "force", "Vector", "Node", h5name, p, "Float", 8, ncon, 3);
    snprintf(p, sizeof(p), "%s/contact_gap", fr);
    Attribute(fp, "gap", "Scalar", "Node", h5name, p, "Float", 8, ncon, 0);
    snprintf(p, sizeof(p), "%s/contact_kind", fr);
    Attribute(fp, "kind", "Scalar", "Node", h5name, p, "Int", 8, ncon, 0);
    fprintf(fp, "    </Grid>\n");
  }
  fprintf(fp, "   </Grid>\n");
}

PetscErrorCode MbXdmfAddFrame(MbOutput out, PetscInt f)
{
  int err = 0;
  PetscFunctionBegin;
  if (out->rank == 0) {
    const char *h5name = strrchr(out->h5, '/') ? strrchr(out->h5, '/') + 1 : out->h5; /* relative to the .xmf */
    errno              = 0;
    if (fseek(out->xfp, out->xtail, SEEK_SET))
      err = errno;
    else {
      WriteFrame(out->xfp, h5name, f, out->frame[f].time, out->frame[f].mesh, &out->mesh[out->frame[f].mesh], out->frame[f].ncon);
      out->xtail = ftell(out->xfp);
      fputs(XdmfTail, out->xfp);
      if (fflush(out->xfp) || ferror(out->xfp)) err = errno ? errno : EIO;
    }
  }
  PetscCall(AgreeErrno(out, err, "write"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbXdmfClose(MbOutput out)
{
  int err = 0;
  PetscFunctionBegin;
  if (out->rank == 0 && out->xfp) {
    if (fclose(out->xfp)) err = errno;
    out->xfp = NULL;
  }
  PetscCall(AgreeErrno(out, err, "close"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
