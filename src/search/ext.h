/*
 * ext.h -- players from outside: the `ext:` spec, and the hook through
 * which the layer that owns processes plays them.
 *
 * `ext:[KEY=VALUE,...]COMMAND` names a program that speaks the engine
 * protocol (docs/protocol.md).  This layer knows no processes: it parses
 * the spec (the keys NK_EXT_PARAMS) and keeps the functions that start and
 * ask such an engine, which the ext layer (ext/client.h) installs once at
 * start, before any thread, as the io layer opens databases that this
 * layer then only finds (nk_tb_shared_find).  Without them an ext spec
 * parses, but nk_player_new refuses it.
 *
 * The command is split at spaces (no shell).  In the spec text `%20`
 * stands for a space and `%25` for '%'; nk_ext_spec_parse writes the
 * spec's text so (spec->text), so that it is one word in game records,
 * and the command decoded (spec->command).
 */
#ifndef NK_SEARCH_EXT_H
#define NK_SEARCH_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "search/player.h"

/* The keys of an ext spec (base/param.h says the row shape): the limits
 * sent with every `go`, and how long nickar waits. */
#define NK_EXT_DEFAULT_TIMEOUT "60"
#define NK_EXT_PARAMS(X, P)                                                                   \
    NK_SPEC_LIMIT_PARAMS(X, P, ext)                                                          \
    X(P, ext, timeout, timeout, DOUBLE, double, NK_EXT_DEFAULT_TIMEOUT, NK_ABOVE_TO(0, 86400), \
      NULL, NULL, "a number of seconds",                                                     \
      "seconds to wait for the handshake, a newgame or a move (beyond time=) before the "    \
      "engine forfeits")

/* Writes the key names of an ext spec, "depth, nodes, ...", into buf[len];
 * returns buf. */
char *nk_ext_keys(char *buf, size_t len);
/* Parses what follows `ext:` (opts; NULL: nothing) into spec, whose text
 * is the whole spec as given: the leading KEY=VALUE, items are keys of
 * NK_EXT_PARAMS, the rest the command.  Called by nk_spec_parse. */
nk_status nk_ext_spec_parse(nk_spec *spec, const char *opts, char *err, size_t errlen);

/* The functions of an engine from outside (ext/client.c). */
typedef struct nk_ext_ops {
    /* Starts the engine of spec for games of v and does the handshake;
     * *state is what the others get.  Any failure is the engine's (bad
     * input: NK_EINVAL, or NK_ENOMEM), with one line naming it. */
    nk_status (*open)(void **state, const nk_spec *spec, const nk_variant *v, char *err,
                      size_t errlen);
    /* The engine's legal move in the live game g, the search drawing from
     * seed; fills think.  NK_NO_MOVE when it failed: *fault is then the
     * forfeit (nk_end_forfeit), the engine is ended and the next call
     * starts a fresh one. */
    int (*move)(void *state, const nk_game *g, uint64_t seed, nk_think *think, nk_end *fault);
    /* Ends the engine and frees state (NULL allowed). */
    void (*close)(void *state);
} nk_ext_ops;

/* Installs the functions (once, before any thread; NULL uninstalls). */
void nk_ext_install(const nk_ext_ops *ops);

/* What nk_player_new, nk_player_move and nk_player_free call for an ext
 * player.  nk_ext_move passes a seed derived from rng's state and the
 * ply, drawing nothing from rng: an ext player leaves its opponent's
 * random numbers as an in-process player without randomness would. */
nk_status nk_ext_open(void **state, const nk_spec *spec, const nk_variant *v, char *err,
                      size_t errlen);
int nk_ext_move(void *state, const nk_game *g, const nk_rng *rng, nk_think *think,
                nk_end *fault);
void nk_ext_close(void *state);

#endif
