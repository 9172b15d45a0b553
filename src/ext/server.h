/*
 * server.h -- the engine's side of the engine protocol (docs/protocol.md):
 * one of nickar's players served to whoever speaks the protocol
 * (`nickar engine --player SPEC`, cli/cmd_engine.c).
 *
 * The server turns each line it is given into the lines of its answer; it
 * reads and writes nothing itself (the command moves the lines), so that
 * it is tested without a process.  It keeps the game it is told (start
 * position and moves), checks every move with the rules, and answers
 * `go` with its player's move, drawing from the seed given: the same
 * moves as the player makes in-process.
 */
#ifndef NK_EXT_SERVER_H
#define NK_EXT_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/player.h"

/* Makes the served player for variant v with these search limits instead
 * of the spec's (all 0: the spec's own), resolving what needs files. */
typedef nk_status (*nk_ext_make_fn)(void *ctx, const nk_variant *v, unsigned depth,
                                    uint64_t nodes, double seconds, nk_player **out, char *err,
                                    size_t errlen);

typedef struct nk_ext_server nk_ext_server;

/* A server of spec (its text names the engine), whose players make()
 * makes.  It plays the variants for which make succeeds; NK_EINVAL when
 * there is none (err gives the first variant's reason) or for a person. */
nk_status nk_ext_server_new(nk_ext_server **out, const nk_spec *spec, nk_ext_make_fn make,
                            void *ctx, char *err, size_t errlen);
void nk_ext_server_free(nk_ext_server *s);
/* Handles one line (without its newline) and writes the answer, zero or
 * more lines each ending in '\n', into reply[len].  false after `quit`. */
bool nk_ext_server_line(nk_ext_server *s, const char *line, char *reply, size_t len);

#endif
