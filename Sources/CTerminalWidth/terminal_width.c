#define _XOPEN_SOURCE 700
#define _GNU_SOURCE
#include <locale.h>
#include <wchar.h>
#include "terminal_width.h"

int terminal_width_table(unsigned char *widths, unsigned int count) {
    locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (utf8 == (locale_t)0) return -1;
    locale_t previous = uselocale(utf8);
    for (unsigned int v = 0; v < count; v++) {
        int width = wcwidth((wchar_t)v);
        widths[v] = (unsigned char)(width < 0 ? 0 : (width > 2 ? 2 : width));
    }
    uselocale(previous);
    freelocale(utf8);
    return 0;
}
