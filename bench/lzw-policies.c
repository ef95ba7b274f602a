// What other LZW parsings and clear-code policies would save on a GIF's own indices.
//
//     cc -O2 -o /tmp/lzw-policies bench/lzw-policies.c -lgif
//     /tmp/lzw-policies bench/.cache/quality/*/carousel.gif
//
// Every image of each GIF is read with giflib (its indices as written) and coded again in
// memory by several LZW encoders; printed are the bytes of codes each would write (without
// sub-block length bytes), against the first, which clears the table when full as giflib and
// carousel do. Nothing is written. The others:
//
// - deferred clear: at a full table keep coding with it unchanged (12-bit codes, no new
//   strings), and clear only when the last W pixels cost more than R times the W pixels
//   before the table filled ("rate"), or than R times the cheapest W-pixel window seen since
//   it filled ("best"); GIF89a allows this ("DEFERRED CLEAR CODE"), some decoders refuse it;
// - early clear: never keep a full table, but clear before it fills, once it holds 1500
//   strings, when the last W pixels cost more than R times the cheapest window since the
//   last clear;
// - flexible parsing: a string shorter than the longest match when the string after it is
//   longer by more than the difference (one step of look-ahead). A standard decoder reads it.
#include "lzw-codes.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { GIFLIB, DEFER_RATE, DEFER_BEST, EARLY, FLEXIBLE };
typedef struct { int kind, window; double ratio; const char *name; } Policy;
static const Policy policies[] = {
    {GIFLIB, 0, 0, "clear when full (giflib, carousel)"},
    {DEFER_RATE, 1000, 1.10, "deferred, rate W 1000 R 1.10"},
    {DEFER_RATE, 1500, 1.05, "deferred, rate W 1500 R 1.05"},
    {DEFER_RATE, 2000, 1.10, "deferred, rate W 2000 R 1.10"},
    {DEFER_BEST, 1000, 1.10, "deferred, best W 1000 R 1.10"},
    {DEFER_BEST, 4000, 1.10, "deferred, best W 4000 R 1.10"},
    {EARLY, 2000, 1.40, "early, W 2000 R 1.40"},
    {EARLY, 4000, 1.30, "early, W 4000 R 1.30"},
    {FLEXIBLE, 0, 0, "flexible parsing"},
};
enum { POLICIES = sizeof policies / sizeof policies[0] };


// The length of the longest string in the dictionary at px[i] (and its code).
static int longest(const uint8_t *px, long i, long n, int *code) {
    int c = px[i], length = 1;
    for (; i + length < n; length++) {
        uint32_t k = KEY(c, px[i + length]);
        if (stamp[k] != generation) break;
        c = dict[k];
    }
    if (code) *code = c;
    return length;
}

static long flexible(const uint8_t *px, long n, int minimum) {
    Coder c = {minimum, (1 << minimum) + 2, minimum + 1, minimum + 1};
    generation++;
    for (long i = 0; i < n;) {
        int code, length = longest(px, i, n, &code), take = length;
        if (length > 1 && i + length < n) {
            int best = length + longest(px, i + length, n, NULL);
            for (int l = length - 1; l >= 1; l--) {
                int reach = l + longest(px, i + l, n, NULL);
                if (reach > best) { best = reach; take = l; }
            }
            if (take != length) { code = px[i]; for (int j = 1; j < take; j++) code = dict[KEY(code, px[i + j])]; }
        }
        emit(&c);
        if (i + take < n) {
            if (c.next < 4095) {
                uint32_t k = KEY(code, px[i + take]);
                if (stamp[k] != generation) { stamp[k] = generation; dict[k] = (uint16_t)c.next; }
                c.next++;   // the decoder adds the string whether or not it is new
            } else clear(&c);
        }
        i += take;
    }
    emit(&c); emit(&c);   // the last string, the end code
    return c.out;
}

static long greedy(const uint8_t *px, long n, int minimum, Policy p, long *cost) {
    Coder c = {minimum, (1 << minimum) + 2, minimum + 1, minimum + 1};
    generation++;
    int current = px[0];
    long filled = -1, check = 0;
    double best = 1e9;
    cost[0] = c.out;
    for (long i = 1; i < n; i++) {
        int pixel = px[i];
        uint32_t k = KEY(current, pixel);
        int full = 0;
        if (stamp[k] == generation) current = dict[k];
        else {
            emit(&c);
            if (c.next < 4095) { stamp[k] = generation; dict[k] = (uint16_t)c.next++; }
            else if (p.kind == GIFLIB || p.kind == EARLY) clear(&c);
            else { if (c.next < 4096) { stamp[k] = generation; dict[k] = (uint16_t)c.next++; } full = 1; }
            current = pixel;
        }
        cost[i] = c.out;
        long w = p.window;
        if (full || (filled >= 0 && c.next >= 4095)) {
            if (filled < 0) { filled = i; best = 1e9; check = i + w; }
            if (p.kind == DEFER_RATE && filled >= w && i - filled > w) {
                double recent = (double)(cost[i] - cost[i - w]) / w, before = (double)(cost[filled] - cost[filled - w]) / w;
                if (recent > p.ratio * before) { clear(&c); current = pixel; filled = -1; }
            } else if (p.kind == DEFER_BEST && i >= check) {
                double recent = (double)(cost[i] - cost[i - w]) / w;
                if (recent < best) best = recent;
                if (recent > p.ratio * best) { clear(&c); current = pixel; filled = -1; } else check = i + w / 4;
            }
        } else {
            filled = -1;
            if (p.kind == EARLY) {
                if (c.next < (1 << minimum) + 4) { best = 1e9; check = i + w; }
                else if (i >= check) {
                    double recent = (double)(cost[i] - cost[i - w]) / w;
                    if (recent < best) best = recent;
                    if (c.next > 1500 && recent > p.ratio * best) { clear(&c); current = pixel; best = 1e9; check = i + w; }
                    else check = i + w / 4;
                }
            }
        }
    }
    emit(&c); emit(&c);
    return c.out;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s GIF...\n", argv[0]); return 2; }
    for (int a = 1; a < argc; a++) {
        GifFileType *gif = read_gif(argv[a]);
        if (!gif) return 1;
        long bytes[POLICIES] = {0}, pixels = 0;
        for (int f = 0; f < gif->ImageCount; f++) {
            SavedImage *image = &gif->SavedImages[f];
            long n = (long)image->ImageDesc.Width * image->ImageDesc.Height;
            if (n == 0) continue;
            ColorMapObject *map = image->ImageDesc.ColorMap ? image->ImageDesc.ColorMap : gif->SColorMap;
            if (!map) { fprintf(stderr, "%s: image %d has no colour table\n", argv[a], f); return 1; }
            int minimum = map->BitsPerPixel < 2 ? 2 : map->BitsPerPixel;
            long *cost = malloc(n * sizeof *cost);
            for (int p = 0; p < POLICIES; p++) {
                long bits = policies[p].kind == FLEXIBLE ? flexible(image->RasterBits, n, minimum)
                                                         : greedy(image->RasterBits, n, minimum, policies[p], cost);
                bytes[p] += (bits + 7) / 8;
            }
            free(cost);
            pixels += n;
        }
        printf("%s: %d images, %ld pixels\n", argv[a], gif->ImageCount, pixels);
        for (int p = 0; p < POLICIES; p++)
            printf("  %-36s %11ld bytes  %.4f\n", policies[p].name, bytes[p], (double)bytes[p] / bytes[0]);
        DGifCloseFile(gif, NULL);
    }
    return 0;
}
