#ifndef CAROUSEL_CLIBPNG_SHIM_H
#define CAROUSEL_CLIBPNG_SHIM_H
#include <png.h>
#include <zlib.h>

/// Compound format macros that Swift cannot import.
static const png_uint_32 carousel_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 carousel_png_image_version = PNG_IMAGE_VERSION;
static const png_uint_32 carousel_png_flag_16bit_srgb = PNG_IMAGE_FLAG_16BIT_sRGB;
static const png_uint_32 carousel_png_format_linear_rgba = PNG_FORMAT_LINEAR_RGB_ALPHA;

/// Upper bound on the bytes png_image_write_to_memory needs (a compound macro).
static inline png_alloc_size_t carousel_png_size_max(png_image image) {
    return PNG_IMAGE_PNG_SIZE_MAX(image);
}

#endif
