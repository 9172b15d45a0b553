/*
 * rate.h -- the gauntlet of `nickar rate` as an iterate object: a player
 * against every player of a reference ladder, and its rating on the
 * ladder's scale.  No files: io/ladder.h reads the ladder, cli/cmd_rate.c
 * prints.
 *
 *     nk_rate_alloc(&r, &settings, err, len);
 *     while (!nk_rate_done(r))
 *         nk_rate_iterate(r, err, len);
 *     result = nk_rate_result_of(r);
 *     nk_rate_free(r);
 *
 * Opponent j is pairing j of the gauntlet: games/2 meetings (colour-swapped
 * pairs from shared random openings), numbered within the pairing as
 * `nickar match` and `nickar tournament` number them (arena/meetings.h,
 * setup.index), of exec batch 0 under the seed.  The whole gauntlet is one
 * batch (one iterate), so nothing depends on the thread count.  The rating
 * is that of the Bradley-Terry model of arena/rating.h against the
 * ladder's ratings held exact (nk_rating_against) and, when the ladder
 * has its own results, fitted jointly with them (nk_rating_joint), so that
 * its interval holds the ladder's uncertainty too.
 */
#ifndef NK_RUN_RATE_H
#define NK_RUN_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena/rating.h"
#include "base/status.h"
#include "exec/exec.h"
#include "rules/rules.h"

/* Every setting of a gauntlet, as typed values.  Pointers are borrowed for
 * the life of the nk_rate. */
typedef struct nk_rate_settings {
    const nk_variant *variant;
    nk_exec_player player;        /* the player rated */
    const nk_exec_player *ladder; /* [n] the ladder's players */
    const double *elo;            /* [n] their ratings */
    size_t n;
    const nk_wdl *results; /* [n*n] the ladder's own results, or NULL */
    size_t anchor;         /* with results: the anchor ... */
    double anchor_elo;     /* ... and its rating */
    uint64_t games;        /* against each ladder player: even, at least 2 */
    unsigned openings;     /* random opening plies */
    uint64_t seed;         /* the master seed */
    int threads;           /* 0: OpenMP's default; 1: serial */
} nk_rate_settings;

/* The gauntlet's result. */
typedef struct nk_rate_result {
    const nk_wdl *wdl;          /* [n] the player's results against ladder player j */
    uint64_t games;             /* in all */
    bool joint;                 /* fitted with the ladder's results */
    double elo, se;             /* the rating reported: joint when the ladder has results */
    bool prior;                 /* virtual draws were added to it */
    double fixed_elo, fixed_se; /* against the ladder's ratings held exact */
    bool fixed_prior;
} nk_rate_result;

typedef struct nk_rate nk_rate;

/* Checks the settings and makes the gauntlet.  NK_EINVAL / NK_ERANGE for
 * bad settings (err names the setting, one line), NK_ENOMEM. */
nk_status nk_rate_alloc(nk_rate **out, const nk_rate_settings *s, char *err, size_t errlen);
/* Plays the gauntlet and fits the rating.  Errors those of
 * nk_arena_play_meetings and of the fits (arena/rating.h). */
nk_status nk_rate_iterate(nk_rate *r, char *err, size_t errlen);
bool nk_rate_done(const nk_rate *r);
/* The result (NULL before the gauntlet is done). */
const nk_rate_result *nk_rate_result_of(const nk_rate *r);
/* NULL is allowed. */
void nk_rate_free(nk_rate *r);

#endif
