// The one C edge for libchafa (1.12.x); its headers need glib's.
#ifndef CCHAFA_SHIM_H
#define CCHAFA_SHIM_H
#include <chafa.h>
#endif
