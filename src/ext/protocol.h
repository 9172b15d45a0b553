/*
 * protocol.h -- what the client (ext/client.c: nickar asks an engine) and
 * the server (ext/server.c: `nickar engine`) of the engine protocol share
 * (docs/protocol.md).
 */
#ifndef NK_EXT_PROTOCOL_H
#define NK_EXT_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "ext/process.h"
#include "rules/rules.h"

/* The protocol version this nickar speaks, and the longest line. */
enum { NK_PROTOCOL_VERSION = 1, NK_PROTOCOL_LINE = NK_PROC_LINE };

/* The next word of *cursor (split at spaces, NUL-terminated in place), or
 * NULL at the end. */
char *nk_proto_word(char **cursor);
/* Whether a line is to be ignored: empty, spaces only, or a # comment. */
int nk_proto_blank(const char *line);
/* Appends " M" for each of moves[0..n) to buf (length *at, capacity len);
 * false when it does not fit. */
int nk_proto_put_moves(char *buf, size_t len, size_t *at, const uint8_t *moves, unsigned n);

#endif
