/* Solfec-1.0's mesh file in its HDF5 form (Solfec-1.0 msh.c MESH_Write/MESH_Read behaviour):
   the root's int attribute "data size" (n) and the 1-D int dataset "compressed mesh data" of
   n ints, Solfec's compressed packing of a MESH, which python/moreau/solfecmesh.py unpacks.
   TETRAHEDRALIZE reads a mesh Solfec left at its path (inp/devel/runtime-split/pipe1.mesh). */
#include "outputimpl.h"

/* The ints of the dataset when the file has Solfec's shape (*n = -1 otherwise); HDF5 calls
   that fail on a file of another kind are that answer, not an error. */
static void ReadWords(hid_t file, int *n, int **data)
{
  hid_t   a, ds, sp;
  int     size    = -1;
  hsize_t dims[1] = {0};
  *n              = -1;
  if (H5Aexists(file, "data size") <= 0 || (a = H5Aopen(file, "data size", H5P_DEFAULT)) < 0) return;
  if (H5Aread(a, H5T_NATIVE_INT, &size) < 0) size = -1;
  H5Aclose(a);
  if (size < 4 || H5Lexists(file, "compressed mesh data", H5P_DEFAULT) <= 0 || (ds = H5Dopen2(file, "compressed mesh data", H5P_DEFAULT)) < 0) return;
  if ((sp = H5Dget_space(ds)) >= 0) {
    if (H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1 && dims[0] == (hsize_t)size && !PetscMalloc1(size, data)) {
      if (H5Dread(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data) >= 0)
        *n = size;
      else
        (void)PetscFree(*data);
    }
    H5Sclose(sp);
  }
  H5Dclose(ds);
}

PetscErrorCode MbSolfecMeshFileRead(const char path[], PetscInt *n, int **data)
{
  hid_t file;
  int   size;
  PetscFunctionBegin;
  *n    = 0;
  *data = NULL;
  MbH5Get(file, H5Fopen, (path, H5F_ACC_RDONLY, H5P_DEFAULT), path);
  H5E_BEGIN_TRY { ReadWords(file, &size, data); }
  H5E_END_TRY;
  H5Fclose(file);
  PetscCheck(size >= 4, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "'%s' is an HDF5 file without Solfec-1.0's mesh (a root attribute 'data size' of at least 4 and a 1-D int dataset 'compressed mesh data' of that many ints)", path);
  *n = size;
  PetscFunctionReturn(PETSC_SUCCESS);
}
