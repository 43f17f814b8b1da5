/* moreau — parallel nonsmooth multibody dynamics. The umbrella header. */
#ifndef MOREAU_H
#define MOREAU_H

#include <moreau/mbsys.h>
#include <moreau/mbmath.h>
#include <moreau/mbshape.h>
#include <moreau/mbbody.h>
#include <moreau/mbscheme.h>
#include <moreau/mblog.h>
#include <moreau/mbdomain.h>
#include <moreau/mbgeom.h>
#include <moreau/mbsolver.h>
#include <moreau/mbadapt.h>
#include <moreau/mblocdyn.h>
#include <moreau/mbcontactmodel.h>

#endif
