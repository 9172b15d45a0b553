/*
 * lib_internal.h -- what the files of src/lib/ share: the structs behind
 * the opaque handles of the public header (include/nickar.h).  Private to
 * this directory.
 */
#ifndef NK_LIB_INTERNAL_H
#define NK_LIB_INTERNAL_H

#include <nickar.h>

#include "base/rng.h"
#include "rules/rules.h"
#include "search/player.h"

/* A game: the engine's game, kept whole (its history serves the
 * repetition rule). */
struct nickar_game {
    nk_game g;
};

/* A player: the engine's player for one variant, its generator. */
struct nickar_player {
    nk_player *p;
    const nk_variant *variant;
    nk_rng rng;
};

/* The variant of that name, or NULL and NICKAR_EINVAL in err naming the
 * variants. */
const nk_variant *nk_lib_variant(const char *name, char *err, size_t errlen);

#endif
