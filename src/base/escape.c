/*
 * escape.c -- untrusted text made fit for one line of a message.
 */
#include "base/escape.h"

#include <stdio.h>
#include <string.h>

size_t nk_escape_span(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return c >= 0x20 && c != 0x7f ? 1 : 0;
    size_t n;
    unsigned cp, min;
    if ((c & 0xe0) == 0xc0)
        n = 2, cp = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0)
        n = 3, cp = c & 0x0f, min = 0x800;
    else if ((c & 0xf8) == 0xf0)
        n = 4, cp = c & 0x07, min = 0x10000;
    else
        return 0; /* a continuation byte or 0xf8..0xff */
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) /* also stops at the NUL */
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    if (cp >= 0x80 && cp <= 0x9f) /* C1 controls */
        return 0;
    return n;
}

const char *nk_escape(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    if (len == 0)
        return buf;
    const unsigned char *p = (const unsigned char *)text;
    while (*p != '\0') {
        char piece[8];
        size_t k = nk_escape_span(p);
        if (k > 0) {
            memcpy(piece, p, k);
        } else if (*p == '\n') {
            memcpy(piece, "\\n", k = 2);
        } else if (*p == '\t') {
            memcpy(piece, "\\t", k = 2);
        } else {
            snprintf(piece, sizeof piece, "\\x%02x", *p);
            k = 4;
        }
        size_t used = nk_escape_span(p);
        if (n + k + 4 > len) { /* keep room for "..." and the NUL */
            if (n + 4 <= len)
                memcpy(buf + n, "...", 3), n += 3;
            break;
        }
        memcpy(buf + n, piece, k);
        n += k;
        p += used > 0 ? used : 1;
    }
    buf[n] = '\0';
    return buf;
}
