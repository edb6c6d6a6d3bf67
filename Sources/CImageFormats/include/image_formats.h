// WebP (libwebp, libwebpdemux) and GIF (giflib) to RGBA, first frame only, for the image
// pipeline (issue 45: GoToSocial's previews are WebP, Pleroma serves GIF and WebP
// originals). The libraries' C APIs want callbacks and structures Swift handles badly
// (giflib reads through a function pointer with user data); this file is that edge.
#ifndef IMAGE_FORMATS_H
#define IMAGE_FORMATS_H
#include <stddef.h>
#include <stdint.h>

/// A WebP's canvas size, and whether it is animated (then the first frame is what decodes).
/// Returns 0, or -1 for a file libwebp cannot read.
int cif_webp_info(const uint8_t *data, size_t size, int *width, int *height, int *animated);

/// The first frame of a WebP (still or animated), scaled by libwebp while it decodes to
/// `width` x `height` (at most the canvas), as RGBA into `rgba` (width * height * 4 bytes).
/// Returns 0, or -1 when it cannot be decoded.
int cif_webp_decode(const uint8_t *data, size_t size, int width, int height, uint8_t *rgba);

/// A GIF's logical screen size. Returns 0, or giflib's error code (> 0) for a file it
/// cannot open.
int cif_gif_info(const uint8_t *data, size_t size, int *width, int *height);

/// The first image of a GIF drawn on its screen (`width` x `height`, from cif_gif_info) as
/// RGBA into `rgba`: pixels outside the frame, and transparent ones, are left as they
/// were (the caller fills the buffer first). Returns 0, or giflib's error code (> 0), or -1
/// when the file has no image or its frame lies outside the screen.
int cif_gif_decode_first(const uint8_t *data, size_t size, int width, int height, uint8_t *rgba);

/// `rgba` (width x height) as a lossy WebP of `quality` (0-100) in a buffer libwebp made
/// (free it with cif_free); returns its size, 0 when encoding failed. For the benchmarks,
/// which compare decoding a WebP with a JPEG of the same photo.
size_t cif_webp_encode(const uint8_t *rgba, int width, int height, float quality, uint8_t **output);

/// Frees what cif_webp_encode made.
void cif_free(void *pointer);

#endif
