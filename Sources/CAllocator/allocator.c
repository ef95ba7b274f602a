#include "CAllocator.h"

// Any C library header defines __GLIBC__ on glibc (through <features.h>).
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// A render makes a frame picture (3 MB at 1125x665) and a few buffers of that order for
// every frame, on one worker thread a core, and frees them a frame or two later. With
// glibc's defaults each worker allocates from an arena of its own, and a freed picture
// often goes back to the kernel (the trim threshold follows the largest block freed), so
// the next one starts on fresh pages: a page fault and a cleared page every 4 KiB. Here
// every thread shares one arena, so a block one worker frees serves the next picture on
// either; blocks up to 8 MiB come from it rather than from mmap, and it keeps up to
// 32 MiB of free memory at its top rather than giving it back. Between two allocations a
// worker spends milliseconds on pixels, so the arena's lock is not contended. The
// library leaves the allocator to the program that links it. Measurements are in
// docs/behaviour.md ("The allocator").
void carousel_allocator_configure(void) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 8 << 20);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
}
