#ifndef CAROUSEL_CGIFLIB_SHIM_H
#define CAROUSEL_CGIFLIB_SHIM_H
/* Debian: /usr/include, found by default (and named by libgif.pc). Homebrew's giflib
   ships no pkg-config file, and /opt/homebrew/include is not on clang's default path,
   so its two prefixes are tried by name when the default path does not have it. */
#if __has_include(<gif_lib.h>)
#include <gif_lib.h>
#elif __has_include("/opt/homebrew/opt/giflib/include/gif_lib.h")
#include "/opt/homebrew/opt/giflib/include/gif_lib.h"
#elif __has_include("/usr/local/opt/giflib/include/gif_lib.h")
#include "/usr/local/opt/giflib/include/gif_lib.h"
#else
#include <gif_lib.h>
#endif
#endif
