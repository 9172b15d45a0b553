/*
 * match.h -- a match between two players, A and B, as an iterate object:
 * colour-swapped pairs of games (or of whole matches, unit match), the
 * statistics of A's score (arena/arena.h), and with an SPRT the sequential
 * test that stops at the first pair whose log-likelihood ratio crosses a
 * bound.  No files: `nickar match` (cli/cmd_match.c) writes the records
 * and prints.
 *
 *     nk_run_match_alloc(&m, &settings, err, len);
 *     while (!nk_run_match_done(m)) {
 *         nk_run_match_iterate(m, err, len);
 *         part = nk_run_match_part_of(m);        (the games counted: records)
 *     }
 *     result = nk_run_match_result_of(m);
 *     nk_run_match_free(m);
 *
 * Pair i is played from one random opening, drawn with the pair's seed
 * nk_exec_seed(seed, 0, i), once with A South and once with A North (South
 * moves first in both): meeting i of exec batch 0 (arena/meetings.h).
 * Without an SPRT one iterate plays every pair; with one, each iterate
 * plays the next NK_RUN_MATCH_SPRT_PART pairs and counts them in index order,
 * one by one, until the test decides (the pairs after the deciding one are
 * played but not counted) or the games cap is reached.  The results depend
 * neither on the part size nor on the thread count.
 */
#ifndef NK_RUN_MATCH_H
#define NK_RUN_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena/arena.h"
#include "arena/meetings.h"
#include "base/status.h"
#include "exec/exec.h"
#include "rules/rules.h"

/* With an SPRT: the pairs played per iterate (the results do not depend
 * on it: pairs are counted in index order). */
enum { NK_RUN_MATCH_SPRT_PART = 64 };

/* Every setting of a match, as typed values.  Pointers are borrowed for
 * the life of the nk_run_match. */
typedef struct nk_run_match_settings {
    const nk_variant *variant;
    nk_exec_player players[2]; /* A, B */
    uint64_t games;            /* games (unit match: matches) to play, even:
                                  colour-swapped pairs; with an SPRT the cap */
    unsigned openings;         /* random opening plies, at most NK_MAX_PLIES */
    uint64_t seed;             /* the master seed */
    int threads;               /* 0: OpenMP's default; 1: serial */
    unsigned ply_limit;        /* 1 to NK_MAX_PLIES */
    bool record;               /* keep the games' moves (nk_run_match_part.played) */
    nk_arena_unit unit;        /* game or match */
    unsigned match_games;      /* unit match: a match's game limit, 1 to
                                  NK_MATCH_GAMES_MAX */
    bool sprt;                 /* run the sequential test of spec */
    nk_sprt_spec spec;
} nk_run_match_settings;

/* The match so far, from A's view. */
typedef struct nk_run_match_result {
    nk_arena_tally tally;
    nk_arena_stats stats;
    unsigned pentanomial[5];                     /* pairs by A's points, 0..4 half points */
    unsigned reasons[NK_END_COUNT];              /* how the games counted ended */
    uint64_t plies, ngames;                      /* summed over the games counted */
    unsigned game_wins, game_draws, game_losses; /* A's games, inside the matches */
    double mean_plies;                           /* plies / ngames (0 with none) */
    nk_sprt sprt; /* with an SPRT: the test after the last pair counted (its
                     bounds also before any) */
} nk_run_match_result;

/* The part the last iterate played: pairs first .. first + played.n - 1,
 * of which the first `counted` count (all but those after the SPRT's
 * decision).  Games of pair i of the part: played.first_game[2i] to
 * played.first_game[2i + 2] - 1, in the order played; their moves when the
 * settings record them.  Valid until the next iterate or free. */
typedef struct nk_run_match_part {
    uint64_t first;
    size_t counted;
    const nk_arena_played *played;
} nk_run_match_part;

typedef struct nk_run_match nk_run_match;

/* Checks the settings and makes the match.  NK_EINVAL / NK_ERANGE for bad
 * settings (err names the setting, one line), NK_ENOMEM. */
nk_status nk_run_match_alloc(nk_run_match **out, const nk_run_match_settings *s, char *err,
                             size_t errlen);
/* Plays the next part and counts it.  Errors those of
 * nk_arena_play_meetings; after one, free the match. */
nk_status nk_run_match_iterate(nk_run_match *m, char *err, size_t errlen);
/* Whether the match is over: every pair played, or the SPRT decided. */
bool nk_run_match_done(const nk_run_match *m);
/* The part of the last iterate (NULL before the first). */
const nk_run_match_part *nk_run_match_part_of(const nk_run_match *m);
/* The result after the pairs counted so far. */
const nk_run_match_result *nk_run_match_result_of(const nk_run_match *m);
/* NULL is allowed. */
void nk_run_match_free(nk_run_match *m);

#endif
