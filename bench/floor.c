/* floor.c: the least work carousel's render could do with libpng and giflib.
 *
 *   floor IMG1.png ... IMGn.png OUT.gif
 *
 * (a) decodes every PNG with libpng's simplified API to RGBA8;
 * (b) re-encodes exactly the frames of OUT.gif with giflib: OUT.gif is read
 *     once with DGifSlurp (not timed), then written again to a byte-counting
 *     callback: screen descriptor, every saved image's extension blocks (the
 *     loop extension sits in image 0's, the graphics control in each image's),
 *     its image descriptor and local colour map, and its raster, row by row
 *     with EGifPutLine.
 * Each is timed with CLOCK_MONOTONIC, 5 times; the best of each is printed:
 *
 *   png_ms=... gif_ms=... floor_ms=... gif_bytes=...
 */
#include <gif_lib.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPEATS 5

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "floor: %s: %s\n", what, detail);
    exit(1);
}

/* (a) Decodes one PNG to RGBA8 and throws the pixels away. */
static void decode_png(const char *path) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path))
        die(path, image.message);
    image.format = PNG_FORMAT_RGBA;
    png_bytep pixels = malloc(PNG_IMAGE_SIZE(image));
    if (pixels == NULL)
        die(path, "out of memory");
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL))
        die(path, image.message);
    free(pixels);
}

static int count_bytes(GifFileType *gif, const GifByteType *bytes, int n) {
    (void)bytes;
    *(size_t *)gif->UserData += (size_t)n;
    return n;
}

/* Writes a run of extension blocks as giflib's EGifSpew does: a leader per
 * function, continuation blocks after it, a trailer after the last. */
static void put_extensions(GifFileType *out, int count, ExtensionBlock *blocks) {
    for (int i = 0; i < count; i++) {
        ExtensionBlock *ep = &blocks[i];
        if (ep->Function != CONTINUE_EXT_FUNC_CODE)
            EGifPutExtensionLeader(out, ep->Function);
        EGifPutExtensionBlock(out, ep->ByteCount, ep->Bytes);
        if (i == count - 1 || blocks[i + 1].Function != CONTINUE_EXT_FUNC_CODE)
            EGifPutExtensionTrailer(out);
    }
}

/* (b) Encodes every frame of `in` again; returns the bytes written. */
static size_t encode_gif(const GifFileType *in) {
    size_t written = 0;
    int error = 0;
    GifFileType *out = EGifOpen(&written, count_bytes, &error);
    if (out == NULL)
        die("EGifOpen", GifErrorString(error));
    EGifSetGifVersion(out, true);
    if (EGifPutScreenDesc(out, in->SWidth, in->SHeight, in->SColorResolution,
                          in->SBackGroundColor, in->SColorMap) == GIF_ERROR)
        die("EGifPutScreenDesc", GifErrorString(out->Error));
    for (int n = 0; n < in->ImageCount; n++) {
        const SavedImage *sp = &in->SavedImages[n];
        const GifImageDesc *d = &sp->ImageDesc;
        put_extensions(out, sp->ExtensionBlockCount, sp->ExtensionBlocks);
        if (EGifPutImageDesc(out, d->Left, d->Top, d->Width, d->Height, false,
                             d->ColorMap) == GIF_ERROR)
            die("EGifPutImageDesc", GifErrorString(out->Error));
        for (int y = 0; y < d->Height; y++)
            if (EGifPutLine(out, sp->RasterBits + (size_t)y * d->Width, d->Width) == GIF_ERROR)
                die("EGifPutLine", GifErrorString(out->Error));
    }
    put_extensions(out, in->ExtensionBlockCount, in->ExtensionBlocks);
    if (EGifCloseFile(out, &error) == GIF_ERROR)
        die("EGifCloseFile", GifErrorString(error));
    return written;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: floor IMG.png... OUT.gif\n");
        return 2;
    }
    int error = 0;
    GifFileType *gif = DGifOpenFileName(argv[argc - 1], &error);
    if (gif == NULL)
        die(argv[argc - 1], GifErrorString(error));
    if (DGifSlurp(gif) == GIF_ERROR)
        die(argv[argc - 1], GifErrorString(gif->Error));

    double best_png = 1e300, best_gif = 1e300;
    size_t bytes = 0;
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_ms();
        for (int i = 1; i < argc - 1; i++)
            decode_png(argv[i]);
        double t1 = now_ms();
        bytes = encode_gif(gif);
        double t2 = now_ms();
        if (t1 - t0 < best_png) best_png = t1 - t0;
        if (t2 - t1 < best_gif) best_gif = t2 - t1;
    }
    DGifCloseFile(gif, &error);
    printf("png_ms=%.3f gif_ms=%.3f floor_ms=%.3f gif_bytes=%zu\n",
           best_png, best_gif, best_png + best_gif, bytes);
    return 0;
}
