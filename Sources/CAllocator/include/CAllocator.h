#ifndef CAROUSEL_ALLOCATOR_H
#define CAROUSEL_ALLOCATOR_H

/// Sets the C allocator for a run of the command-line tool (glibc only; elsewhere it does
/// nothing). Call once, first thing in `main`, before any thread starts. See allocator.c.
void carousel_allocator_configure(void);

#endif
