/* The deck layer's PETSc error handler (src/input/module.c, MbModuleRecordError): the message
   it keeps for the user. */
#include "mbtest.h"
#include "../../src/input/moduleimpl.h"

/* a function that asks PETSc for more memory than any machine has */
static PetscErrorCode Contacts(void)
{
  double *x = NULL;
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)1 << 45, &x));
  PetscCall(PetscFree(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc raises PETSC_ERR_MEM with the asking function's name as the message: the user must
   read "out of memory" and where, not a bare "Contacts" */
static void test_out_of_memory(void **state)
{
  PetscErrorCode e;
  MB_FAILS(Contacts(), "Contacts"); /* PETSc's own message: the bare name */
  MbModuleErrMsg[0] = 0;
  PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = Contacts();
  PetscPopErrorHandler();
  assert_true(e != 0);
  if (!strstr(MbModuleErrMsg, "out of memory") || !strstr(MbModuleErrMsg, "Contacts")) fail_msg("message \"%s\"", MbModuleErrMsg);
}

/* any other error keeps its own first message */
static void test_other_error(void **state)
{
  MbModuleErrMsg[0] = 0;
  PetscPushErrorHandler(MbModuleRecordError, NULL);
  (void)PetscError(PETSC_COMM_SELF, __LINE__, "Caller", __FILE__, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERROR_INITIAL, "step %d must be positive", -1);
  PetscPopErrorHandler();
  assert_string_equal(MbModuleErrMsg, "step -1 must be positive");
}

static const struct CMUnitTest tests[] = {cmocka_unit_test(test_out_of_memory), cmocka_unit_test(test_other_error)};
MB_TEST_MAIN(tests)
