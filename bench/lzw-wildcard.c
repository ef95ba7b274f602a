// What a GIF's LZW data would save if each pixel were coded with whichever of its equivalent
// indices extends the string: a pixel the frame leaves transparent could as well take an
// entry whose colour is the one the canvas shows there, and a drawn pixel whose entry shows
// what the canvas already shows could as well be transparent. The screen is the same either
// way, pixel for pixel, so such a parse is lossless and changes nothing a viewer sees.
//
//     cc -O2 -o /tmp/lzw-wildcard bench/lzw-wildcard.c -lgif
//     /tmp/lzw-wildcard GIF...
//
// Every image is read with giflib and replayed on a canvas (disposal to the background
// clears to transparent, as in carousel's cleared frames; disposal to the previous frame is
// refused, as carousel never writes it); its indices are then coded again in memory by four LZW
// encoders, each clearing the table when full as giflib and carousel do:
//
// - greedy: the indices as written (the baseline: carousel's own parse);
// - first hit: where the string's extension by the written index is not in the dictionary,
//   by the first equivalent index that is;
// - look-ahead start: as first hit, and a new string starts with the equivalent index
//   whose greedy string from there runs furthest (up to 64 pixels);
// - look-ahead all: as look-ahead start, and of several equivalent indices that extend the
//   string, the one whose string runs furthest.
//
// Printed are the bytes of codes each writes (without sub-block length bytes), against
// greedy's, and the CPU time of each. Each parse's codes are decoded as a GIF decoder
// decodes them, and the indices they give are checked to show what the GIF's own show, pixel
// for pixel; a mismatch is reported and exits 1. Nothing is written. The minimum code size
// is taken from the size of the image's colour table (as carousel writes it; giflib does not
// report the one in the file), and an image is coded in the order giflib returns its pixels.
#include "lzw-codes.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OPTIONS = 4, MODES = 4, DEPTH = 64 };
static const char *names[MODES] = {"greedy", "first hit", "look-ahead start", "look-ahead all"};


// The codes of the last parse, clear and end codes included, for decoding it again.
static int32_t *codes;
static long code_count;

// Each pixel's equivalent indices, the written one first (at most OPTIONS).
static uint8_t *option, *options;

// How far the greedy string from `code` runs at pixel i, taking any equivalent index.
static int reach(long i, long n, int code) {
    int length = 0;
    for (; i < n && length < DEPTH; i++, length++) {
        int hit = -1;
        for (int k = 0; k < options[i] && hit < 0; k++) {
            uint32_t key = KEY(code, option[i * OPTIONS + k]);
            if (stamp[key] == generation) hit = dict[key];
        }
        if (hit < 0) break;
        code = hit;
    }
    return length;
}

// The bits of codes for n pixels; `chosen` gets the index each pixel was coded with.
static long encode(int mode, long n, int minimum, uint8_t *chosen) {
    Coder c = {minimum, (1 << minimum) + 2, minimum + 1, minimum + 1};
    generation++;
    code_count = 0;
    codes[code_count++] = 1 << minimum;   // the clear code the coder starts with
    int current = option[0];
    chosen[0] = option[0];
    for (long i = 1; i < n; i++) {
        int count = mode == 0 ? 1 : options[i], hit = -1, best = -1;
        const uint8_t *o = option + i * OPTIONS;
        for (int k = 0; k < count; k++) {
            uint32_t key = KEY(current, o[k]);
            if (stamp[key] != generation) continue;
            int length = mode == 3 && count > 1 ? reach(i + 1, n, dict[key]) : 0;
            if (length > best) { best = length; hit = dict[key]; chosen[i] = o[k]; }
            if (mode != 3) break;
        }
        if (hit >= 0) { current = hit; continue; }
        int start = o[0];
        if (mode >= 2 && count > 1) {
            best = -1;
            for (int k = 0; k < count; k++) {
                int length = reach(i + 1, n, o[k]);
                if (length > best) { best = length; start = o[k]; }
            }
        }
        emit(&c);
        codes[code_count++] = current;
        if (c.next < 4095) {
            uint32_t key = KEY(current, start);
            if (stamp[key] != generation) { stamp[key] = generation; dict[key] = (uint16_t)c.next; }
            c.next++;
        } else {
            clear(&c);
            codes[code_count++] = 1 << minimum;
        }
        current = start;
        chosen[i] = (uint8_t)start;
    }
    emit(&c); emit(&c);   // the last string, the end code
    codes[code_count++] = current;
    codes[code_count++] = (1 << minimum) + 1;
    return c.out;
}

// The pixels `codes` decode to, as a GIF decoder reads them (a table of strings, each a
// prefix code and a last pixel, added after every code but the first after a clear, up to
// 4,096), into `out` (room for n); the count, or -1 for a code no decoder could read.
static long decode(int minimum, uint8_t *out, long n) {
    static uint16_t prefix[4096], length[4096];
    static uint8_t last[4096], first[4096];
    int clear_code = 1 << minimum, end = clear_code + 1, next = end + 1, previous = -1;
    for (int c = 0; c < clear_code; c++) { length[c] = 1; last[c] = first[c] = (uint8_t)c; }
    long at = 0;
    for (long k = 0; k < code_count; k++) {
        int code = codes[k];
        if (code == clear_code) { next = end + 1; previous = -1; continue; }
        if (code == end) break;
        int known = code < clear_code || (code > end && code < next);
        if (!known && (code != next || previous < 0)) return -1;
        // The string of `code`, or (the code about to be added) the previous one and its first pixel.
        int string = known ? code : previous;
        long size = length[string] + !known;
        if (at + size > n) return -1;
        if (!known) out[at + size - 1] = first[previous];
        for (long j = length[string] - 1, s = string; j >= 0; j--, s = prefix[s]) out[at + j] = last[s];
        if (previous >= 0 && next < 4096) {
            prefix[next] = (uint16_t)previous;
            last[next] = known ? first[code] : first[previous];
            first[next] = first[previous];
            length[next] = (uint16_t)(length[previous] + 1);
            next++;
        }
        previous = code;
        at += size;
    }
    return at;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s GIF...\n", argv[0]); return 2; }
    for (int a = 1; a < argc; a++) {
        GifFileType *gif = read_gif(argv[a]);
        if (!gif) return 1;
        long width = gif->SWidth, height = gif->SHeight;
        uint32_t *canvas = malloc(width * height * 4);
        for (long p = 0; p < width * height; p++) canvas[p] = 0xFF000000u;   // transparent: a colour no entry has
        long bytes[MODES] = {0}, pixels = 0, equivalent = 0;
        double seconds[MODES] = {0};
        for (int f = 0; f < gif->ImageCount; f++) {
            SavedImage *image = &gif->SavedImages[f];
            GraphicsControlBlock control = {.DisposalMode = 0, .TransparentColor = NO_TRANSPARENT_COLOR};
            DGifSavedExtensionToGCB(gif, f, &control);
            long left = image->ImageDesc.Left, top = image->ImageDesc.Top, w = image->ImageDesc.Width, n = w * image->ImageDesc.Height;
            if (n == 0) continue;
            ColorMapObject *map = image->ImageDesc.ColorMap ? image->ImageDesc.ColorMap : gif->SColorMap;
            if (!map) { fprintf(stderr, "%s: image %d has no colour table\n", argv[a], f); return 1; }
            int minimum = map->BitsPerPixel < 2 ? 2 : map->BitsPerPixel, transparent = control.TransparentColor;
            uint32_t colour[256];
            for (int j = 0; j < map->ColorCount; j++)
                colour[j] = (uint32_t)map->Colors[j].Red << 16 | map->Colors[j].Green << 8 | map->Colors[j].Blue;
            if (control.DisposalMode == DISPOSE_PREVIOUS) { fprintf(stderr, "%s: image %d disposes to the previous frame\n", argv[a], f); return 1; }
            // Over the first image's canvas (the background) nothing is taken as shown.
            int free_choice = f > 0;
            option = malloc(n * OPTIONS); options = malloc(n);
            for (long p = 0; p < n; p++) {
                uint32_t shown = canvas[(top + p / w) * width + left + p % w];
                int written = image->RasterBits[p], k = 0;
                option[p * OPTIONS + k++] = (uint8_t)written;
                if (free_choice && (written == transparent || colour[written] == shown)) {
                    if (written != transparent && transparent >= 0) option[p * OPTIONS + k++] = (uint8_t)transparent;
                    for (int j = 0; j < map->ColorCount && k < OPTIONS; j++)
                        if (j != written && j != transparent && colour[j] == shown) option[p * OPTIONS + k++] = (uint8_t)j;
                }
                options[p] = (uint8_t)k;
                equivalent += k > 1;
            }
            uint8_t *chosen = malloc(n), *decoded = malloc(n);
            codes = malloc((n + 8 + n / 4000) * sizeof *codes);
            for (int m = 0; m < MODES; m++) {
                clock_t start = clock();
                bytes[m] += (encode(m, n, minimum, chosen) + 7) / 8;
                seconds[m] += (double)(clock() - start) / CLOCKS_PER_SEC;
                if (decode(minimum, decoded, n) != n || memcmp(decoded, chosen, n) != 0) {
                    fprintf(stderr, "%s: image %d: the codes of %s do not decode to the indices chosen\n", argv[a], f, names[m]);
                    return 1;
                }
                for (long p = 0; p < n; p++) {   // the parse shows what the GIF shows
                    uint32_t *at = &canvas[(top + p / w) * width + left + p % w];
                    uint32_t written = image->RasterBits[p] == transparent ? *at : colour[image->RasterBits[p]];
                    uint32_t parsed = decoded[p] == transparent ? *at : colour[decoded[p]];
                    if (written != parsed) { fprintf(stderr, "%s: image %d pixel %ld: %s shows another colour\n", argv[a], f, p, names[m]); return 1; }
                }
            }
            for (long p = 0; p < n; p++)
                if (image->RasterBits[p] != transparent) canvas[(top + p / w) * width + left + p % w] = colour[image->RasterBits[p]];
            if (control.DisposalMode == DISPOSE_BACKGROUND)   // cleared: transparent, a colour no entry has
                for (long p = 0; p < n; p++) canvas[(top + p / w) * width + left + p % w] = 0xFF000000u;
            free(option); free(options); free(chosen); free(decoded); free(codes);
            pixels += n;
        }
        printf("%s: %d images, %ld pixels, %ld (%.1f%%) with an equivalent index\n", argv[a], gif->ImageCount, pixels,
               equivalent, 100.0 * equivalent / pixels);
        for (int m = 0; m < MODES; m++)
            printf("  %-18s %11ld bytes  %.4f  %6.2f s\n", names[m], bytes[m], (double)bytes[m] / bytes[0], seconds[m]);
        DGifCloseFile(gif, NULL);
        free(canvas);
    }
    return 0;
}
