#ifndef CAROUSEL_CGIFLIB_SHIM_H
#define CAROUSEL_CGIFLIB_SHIM_H
#include <gif_lib.h>
#endif
