// The LZW coder that bench/lzw-policies.c and bench/lzw-wildcard.c count bits with: a
// dictionary of (prefix code, pixel) -> code, valid where its stamp equals the generation
// (a clear starts a new generation), and the code width as a GIF decoder reads it (one bit
// wider once the next code no longer fits, up to 12). Only counts bits; writes nothing.
#include <gif_lib.h>
#include <stdint.h>
#include <stdio.h>

static uint16_t dict[1 << 20];
static uint32_t stamp[1 << 20], generation = 1;
#define KEY(code, pixel) (((uint32_t)(code) << 8) | (uint32_t)(pixel))

typedef struct { int minimum, next, bits; long out; } Coder;

// A clear code: the table and the code width start again.
static void clear(Coder *c) { c->out += c->bits; generation++; c->next = (1 << c->minimum) + 2; c->bits = c->minimum + 1; }
// A code at the current width.
static void emit(Coder *c) { c->out += c->bits; if (c->next >= (1 << c->bits) && c->bits < 12) c->bits++; }

// The GIF at `path`, read whole by giflib, or NULL after a line on stderr.
static GifFileType *read_gif(const char *path) {
    int error;
    GifFileType *gif = DGifOpenFileName(path, &error);
    if (!gif || DGifSlurp(gif) != GIF_OK) { fprintf(stderr, "%s: not a GIF giflib reads\n", path); return NULL; }
    return gif;
}
