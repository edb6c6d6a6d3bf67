// The one C edge for libturbojpeg (2.1.x). TJSCALED is a macro Swift cannot import.
#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>

static inline int ctj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}
#endif
