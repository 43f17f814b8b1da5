/* TetGen's stand-in for a build without it (Debian's libtet1.5-dev was absent when moreau
   was built): every call errors, saying how to get it. */
#include <stdio.h>
#include <stdlib.h>
#include "tetgenrun.h"

int MbTetgenAvailable(void) { return 0; }

int MbTetgenRun(const MbTetgenPLC *plc, const char *switches, MbTetgenMesh *out, char *err, size_t errlen)
{
  (void)plc;
  (void)switches;
  (void)out;
  snprintf(err, errlen, "moreau was built without TetGen (Debian package libtet1.5-dev): install it (make deps) and rebuild moreau");
  return 1;
}

void MbTetgenMeshFree(MbTetgenMesh *mesh) { (void)mesh; }
