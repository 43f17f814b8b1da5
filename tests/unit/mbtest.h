/* Shared harness for unit tests: PETSc initialized around cmocka's group runner.
   A test file defines its tests and ends with MB_TEST_MAIN(tests). */
#ifndef MOREAU_MBTEST_H
#define MOREAU_MBTEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <moreau/moreau.h>

/* assert that a PETSc call succeeds */
#define MB_OK(call) assert_int_equal((int)(call), 0)
/* assert |a − b| <= tol */
#define MB_CLOSE(a, b, tol)                                                                                                                                                                                                                              \
  do {                                                                                                                                                                                                                                                   \
    double _a = (a), _b = (b), _t = (tol);                                                                                                                                                                                                               \
    if (!(fabs(_a - _b) <= _t)) fail_msg("%s = %.17g, expected %.17g within %g", #a, _a, _b, _t);                                                                                                                                                        \
  } while (0)

/* Run call with PETSc's error printing silenced; return its error code. For tests that
   check that bad input fails. The message of the error is left in mb_last_error. */
#define MB_FAILS(call, pattern)                                                                                                                                                                                                                          \
  do {                                                                                                                                                                                                                                                   \
    PetscPushErrorHandler(MbTestErrorHandler, NULL);                                                                                                                                                                                                     \
    PetscErrorCode _e = (call);                                                                                                                                                                                                                          \
    PetscPopErrorHandler();                                                                                                                                                                                                                              \
    if (!_e) fail_msg("%s succeeded; expected an error", #call);                                                                                                                                                                                         \
    if (!strstr(mb_last_error, pattern)) fail_msg("%s: error message \"%s\" does not contain \"%s\"", #call, mb_last_error, pattern);                                                                                                                    \
  } while (0)

char                  mb_last_error[1024];
static PetscErrorCode MbTestErrorHandler(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && mess) snprintf(mb_last_error, sizeof(mb_last_error), "%s", mess);
  return n;
}

#define MB_TEST_MAIN(tests)                                                                                                                                                                                                                              \
  int main(int argc, char **argv)                                                                                                                                                                                                                        \
  {                                                                                                                                                                                                                                                      \
    int fails;                                                                                                                                                                                                                                           \
    if (PetscInitialize(&argc, &argv, NULL, NULL)) return 1;                                                                                                                                                                                             \
    if (MbInitialize()) return 1;                                                                                                                                                                                                                        \
    fails = cmocka_run_group_tests(tests, NULL, NULL);                                                                                                                                                                                                   \
    MbFinalize();                                                                                                                                                                                                                                        \
    PetscFinalize();                                                                                                                                                                                                                                     \
    return fails ? 1 : 0;                                                                                                                                                                                                                                \
  }

#endif
