#include <stdlib.h>
#include <string.h>
#include <gif_lib.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include "image_formats.h"

int cif_webp_info(const uint8_t *data, size_t size, int *width, int *height, int *animated) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return -1;
    *animated = features.has_animation;
    if (!features.has_animation) {
        *width = features.width;
        *height = features.height;
        return 0;
    }
    WebPData whole = { data, size };
    WebPDemuxer *demux = WebPDemux(&whole);
    if (demux == NULL) return -1;
    *width = (int)WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
    *height = (int)WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    WebPDemuxDelete(demux);
    return 0;
}

/// Decodes `bitstream` (one frame's VP8/VP8L data) scaled to width x height into rgba.
static int decode_scaled(const uint8_t *bitstream, size_t size, int width, int height, uint8_t *rgba) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return -1;
    if (WebPGetFeatures(bitstream, size, &config.input) != VP8_STATUS_OK) return -1;
    if (width != config.input.width || height != config.input.height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = width;
        config.options.scaled_height = height;
        // Scaled down to a thumbnail: the in-loop filter and fancy chroma upsampling cost a
        // third of the decode and their effect is averaged away by the scaling.
        if (width < config.input.width && height < config.input.height) {
            config.options.bypass_filtering = 1;
            config.options.no_fancy_upsampling = 1;
        }
    }
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = rgba;
    config.output.u.RGBA.stride = width * 4;
    config.output.u.RGBA.size = (size_t)width * (size_t)height * 4;
    VP8StatusCode status = WebPDecode(bitstream, size, &config);
    WebPFreeDecBuffer(&config.output);
    return status == VP8_STATUS_OK ? 0 : -1;
}

int cif_webp_decode(const uint8_t *data, size_t size, int width, int height, uint8_t *rgba) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return -1;
    if (!features.has_animation) return decode_scaled(data, size, width, height, rgba);
    // Animated: the first frame. It may cover only part of the canvas; it is decoded at
    // its own size, scaled as the canvas is, and placed where it belongs.
    WebPData whole = { data, size };
    WebPDemuxer *demux = WebPDemux(&whole);
    if (demux == NULL) return -1;
    int canvas_width = (int)WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
    int canvas_height = (int)WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    WebPIterator frame;
    int result = -1;
    if (canvas_width > 0 && canvas_height > 0 && WebPDemuxGetFrame(demux, 1, &frame)) {
        // In 64 bits: a canvas 200000 wide times an offset of the same size overflows an int.
        int64_t frame_width = (int64_t)frame.width * width / canvas_width, frame_height = (int64_t)frame.height * height / canvas_height;
        int64_t x = (int64_t)frame.x_offset * width / canvas_width, y = (int64_t)frame.y_offset * height / canvas_height;
        if (frame_width < 1) frame_width = 1;
        if (frame_height < 1) frame_height = 1;
        if (x >= 0 && y >= 0 && x + frame_width <= width && y + frame_height <= height) {
            uint8_t *pixels = malloc((size_t)frame_width * (size_t)frame_height * 4);
            if (pixels != NULL) {
                result = decode_scaled(frame.fragment.bytes, frame.fragment.size, (int)frame_width, (int)frame_height, pixels);
                if (result == 0) {
                    for (int64_t row = 0; row < frame_height; row++) {
                        memcpy(rgba + ((size_t)(y + row) * width + x) * 4, pixels + (size_t)row * frame_width * 4, (size_t)frame_width * 4);
                    }
                }
                free(pixels);
            }
        }
        WebPDemuxReleaseIterator(&frame);
    }
    WebPDemuxDelete(demux);
    return result;
}

/// giflib reads from memory through this: the bytes left, and where.
struct gif_source {
    const uint8_t *data;
    size_t size;
    size_t offset;
};

static int read_gif(GifFileType *gif, GifByteType *buffer, int wanted) {
    struct gif_source *source = gif->UserData;
    size_t left = source->size - source->offset;
    size_t count = (size_t)wanted < left ? (size_t)wanted : left;
    memcpy(buffer, source->data + source->offset, count);
    source->offset += count;
    return (int)count;
}

int cif_gif_info(const uint8_t *data, size_t size, int *width, int *height) {
    struct gif_source source = { data, size, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&source, read_gif, &error);
    if (gif == NULL) return error > 0 ? error : 1;
    *width = gif->SWidth;
    *height = gif->SHeight;
    DGifCloseFile(gif, &error);
    return 0;
}

int cif_gif_decode_first(const uint8_t *data, size_t size, int width, int height, uint8_t *rgba) {
    struct gif_source source = { data, size, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&source, read_gif, &error);
    if (gif == NULL) return error > 0 ? error : 1;
    int transparent = -1, result = -1;
    GifRecordType record;
    do {
        if (DGifGetRecordType(gif, &record) == GIF_ERROR) { result = gif->Error; break; }
        if (record == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *extension;
            if (DGifGetExtension(gif, &code, &extension) == GIF_ERROR) { result = gif->Error; break; }
            while (extension != NULL) {
                if (code == GRAPHICS_EXT_FUNC_CODE && extension[0] >= 4 && (extension[1] & 1)) transparent = extension[4];
                if (DGifGetExtensionNext(gif, &extension) == GIF_ERROR) { extension = NULL; result = gif->Error; record = TERMINATE_RECORD_TYPE; }
            }
        } else if (record == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR) { result = gif->Error; break; }
            GifImageDesc desc = gif->Image;
            ColorMapObject *colors = desc.ColorMap != NULL ? desc.ColorMap : gif->SColorMap;
            if (colors == NULL || desc.Left < 0 || desc.Top < 0 || desc.Width <= 0 || desc.Height <= 0
                || desc.Left + desc.Width > width || desc.Top + desc.Height > height) { result = -1; break; }
            GifPixelType *line = malloc((size_t)desc.Width);
            if (line == NULL) { result = -1; break; }
            // Interlaced images come in four passes of rows.
            static const int starts[] = { 0, 4, 2, 1 }, steps[] = { 8, 8, 4, 2 };
            int passes = desc.Interlace ? 4 : 1;
            result = 0;
            for (int pass = 0; pass < passes && result == 0; pass++) {
                int start = desc.Interlace ? starts[pass] : 0, step = desc.Interlace ? steps[pass] : 1;
                for (int row = start; row < desc.Height; row += step) {
                    if (DGifGetLine(gif, line, desc.Width) == GIF_ERROR) { result = gif->Error; break; }
                    uint8_t *out = rgba + ((size_t)(desc.Top + row) * width + desc.Left) * 4;
                    for (int x = 0; x < desc.Width; x++, out += 4) {
                        int index = line[x];
                        if (index == transparent || index >= colors->ColorCount) continue;
                        GifColorType color = colors->Colors[index];
                        out[0] = color.Red;
                        out[1] = color.Green;
                        out[2] = color.Blue;
                        out[3] = 255;
                    }
                }
            }
            free(line);
            break;  // the first image only
        }
    } while (record != TERMINATE_RECORD_TYPE);
    DGifCloseFile(gif, &error);
    return result;
}

size_t cif_webp_encode(const uint8_t *rgba, int width, int height, float quality, uint8_t **output) {
    return WebPEncodeRGBA(rgba, width, height, width * 4, quality, output);
}

void cif_free(void *pointer) { WebPFree(pointer); }
