/*
 * protocol.c -- the pieces of the engine protocol that its client and its
 * server share (protocol.h, docs/protocol.md).
 */
#include <string.h>

#include "ext/protocol.h"

char *nk_proto_word(char **cursor)
{
    char *p = *cursor;
    while (*p == ' ')
        p++;
    if (*p == '\0') {
        *cursor = p;
        return NULL;
    }
    char *w = p;
    while (*p != '\0' && *p != ' ')
        p++;
    if (*p == ' ')
        *p++ = '\0';
    *cursor = p;
    return w;
}

int nk_proto_blank(const char *line)
{
    line += strspn(line, " ");
    return *line == '\0' || *line == '#';
}

int nk_proto_put_moves(char *buf, size_t len, size_t *at, const uint8_t *moves, unsigned n)
{
    if (*at + 2 * (size_t)n + 1 > len)
        return 0;
    for (unsigned i = 0; i < n; i++) {
        buf[(*at)++] = ' ';
        buf[(*at)++] = nk_move_letter(moves[i]);
    }
    buf[*at] = '\0';
    return 1;
}
