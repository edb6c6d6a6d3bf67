// The one C edge for libpng's simplified API; its version and format macros are wrapped.
#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
#include <string.h>
#include <png.h>
#include <zlib.h>

static inline void cpng_image_init(png_imagep image) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
}
static inline png_uint_32 cpng_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 cpng_format_rgb(void) { return PNG_FORMAT_RGB; }
static inline png_uint_32 cpng_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }
/// zlib's one-shot deflate (kitty's `o=z`): the bytes written, 0 when `capacity` was short.
static inline unsigned long cpng_deflate(const unsigned char *input, unsigned long count, unsigned char *output, unsigned long capacity, int level) {
    uLongf size = capacity;
    return compress2(output, &size, input, count, level) == Z_OK ? size : 0;
}
#endif
