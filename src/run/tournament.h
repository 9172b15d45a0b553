/*
 * tournament.h -- a tournament of `nickar tournament` as a GSL-style
 * iterate object, and its record (nk_tour: what a tournament file holds).
 * No files: the tournament file side is io/tourfile.h.
 *
 *     nk_tournament_alloc(&t, &settings, err, len);
 *     nk_tournament_restore(t, &partial, err, len);   (to resume)
 *     while (!nk_tournament_done(t)) {
 *         nk_tournament_iterate(t, err, len);           (one batch)
 *         tour = nk_tournament_record_of(t);            (write it somewhere)
 *     }
 *     nk_tournament_free(t);
 *
 * Schedule.  Round robin: pairing q = (a, b) for a < b in order; gauntlet:
 * (0, b).  Pairing q plays games/2 meetings (arena/meetings.h: colour-
 * swapped pairs of games, or of matches with unit match); meeting k of it
 * is pairing k of exec batch 0 under the master seed (setup.index),
 * exactly as `nickar match A B` numbers its pairs: so a pairing's games are
 * those of `nickar match --seed S --games N --openings K A B`, and every
 * pairing starts from the same random openings.
 *
 * Batches.  The meetings are played in schedule order (pairing by pairing)
 * in batches of at least 64 meetings and at least an eighth of those done,
 * so that writing the record after each batch costs a bounded multiple of
 * its final size.  Each batch runs on the threads of exec and its results
 * land by index, so nothing depends on the thread count; after each batch
 * the games are tallied (the cross table) and the rating list fitted
 * again.  A tournament restored from a partial record (one that stopped
 * after any batch) plays the rest exactly as the whole tournament would.
 */
#ifndef NK_RUN_TOURNAMENT_H
#define NK_RUN_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena/meetings.h"
#include "arena/rating.h"
#include "base/status.h"
#include "exec/exec.h"
#include "search/features.h"
#include "search/player.h"

/* The longest player name, in bytes with its terminator. */
enum { NK_PLAYER_NAME = 128 };

typedef enum nk_tour_format { NK_TOUR_ROUND_ROBIN = 0, NK_TOUR_GAUNTLET = 1 } nk_tour_format;

/* "round-robin" or "gauntlet". */
const char *nk_tour_format_name(nk_tour_format f);

/* What fixes the games of a tournament (a --resume must match them). */
typedef struct nk_tour_settings {
    char variant[32];
    nk_tour_format format;
    nk_arena_unit unit;   /* game or match */
    uint64_t match_games; /* unit match: a match's game limit; 0 for unit game */
    uint64_t games;       /* per pairing (matches with unit match), even */
    uint64_t openings, seed, ply_limit;
    char anchor[NK_PLAYER_NAME]; /* the anchor's name */
    double anchor_elo;
} nk_tour_settings;

typedef struct nk_tour_player {
    char name[NK_PLAYER_NAME];
    char spec[NK_SPEC_TEXT];
    int32_t n_weights;
    double weights[NK_MAX_FEATURES]; /* a linear set's; a family's travel by
                                        name (n_weights 0, io/tourfile.h) */
} nk_tour_player;

/* One game. */
typedef struct nk_tour_game {
    int32_t pairing;
    int32_t south, north; /* player indices */
    int32_t opening;      /* random opening plies played */
    int32_t plies;        /* plies of the game, opening included */
    int8_t winner;        /* 0 South, 1 North, 2 draw */
    int8_t reason;        /* nk_end */
    int16_t south_total, north_total;
    int64_t moves_at;    /* first move in moves[] */
    int8_t first;        /* the side that moved first (0 South, 1 North) */
    uint16_t north_pits; /* North's pits at the start (bit i: pit i) */
} nk_tour_game;

/* One match (unit match): player 0 sits South in every game. */
typedef struct nk_tour_match {
    int32_t pairing;
    int32_t south, north;           /* player 0 and player 1 */
    int32_t games;                  /* games played */
    int8_t winner;                  /* 0 player 0, 1 player 1, 2 draw */
    int16_t south_wins, north_wins; /* games won by each */
    int16_t draws;                  /* games drawn */
    int64_t first_game;             /* its first game in games[] */
} nk_tour_match;

/* One player's rating, in player order. */
typedef struct nk_tour_rating {
    double elo, se, lo, hi; /* rating, standard error, 95% interval */
    double games, score;    /* games played, mean points */
    int32_t rank;           /* 1 = best */
    double los_next;        /* LOS over the player ranked next (NaN: last) */
    double se_pool;         /* standard error relative to the pool's mean
                               (arena/rating.h) */
} nk_tour_rating;

/* A tournament as played so far: what its file holds (io/tourfile.h), and
 * the resume state (a partial record restores the iterate object). */
typedef struct nk_tour {
    nk_tour_settings set;
    int schema; /* the schema_version of the file read (0: made in memory) */
    char created[40];
    size_t nplayers;
    nk_tour_player *players;
    size_t npairings;
    int32_t *pairings; /* [2 * npairings] */
    size_t meetings_done;
    size_t ngames, games_cap;
    nk_tour_game *games;
    size_t nmoves, moves_cap;
    uint8_t *moves;
    size_t nmatches, matches_cap; /* unit match: 2 * meetings_done */
    nk_tour_match *matches;
    bool has_ratings;
    bool prior;
    nk_tour_rating *ratings; /* [nplayers] */
} nk_tour;

/* Meetings (colour-swapped pairs) of one pairing, and of the tournament. */
size_t nk_tour_meetings_per_pairing(const nk_tour *t);
size_t nk_tour_meetings_total(const nk_tour *t);

/* Frees the arrays of a record and zeroes it (a zeroed record is fine). */
void nk_tour_free(nk_tour *t);

/* The cross table the ratings are fitted to: m[i*P+j] = i's results
 * against j, of games (unit game) or of matches (unit match). */
void nk_tour_cross(const nk_tour *t, nk_wdl *m);
/* The cross table of the games, whatever the unit. */
void nk_tour_cross_games(const nk_tour *t, nk_wdl *m);

/* Fits the rating list of the games so far into t->ratings (has_ratings
 * false, NK_OK, when they do not yet give one; NK_EINVAL when the anchor
 * is not a player). */
nk_status nk_tour_rate(nk_tour *t, char *err, size_t errlen);

/* For --resume: NK_EMISMATCH with a message naming the first setting or
 * player in which `file` differs from `want`. */
nk_status nk_tour_compare(const nk_tour *file, const nk_tour *want, char *err, size_t errlen);

/* ===== the iterate object ===== */

/* One entrant: its name (unique, shorter than NK_PLAYER_NAME), its spec
 * and its weights (n numbers; NULL and 0: the spec's own). */
typedef struct nk_tour_entry {
    const char *name;
    const nk_spec *spec;
    const double *weights;
    size_t n;
} nk_tour_entry;

/* Everything a tournament is made from.  Borrowed during alloc only. */
typedef struct nk_tournament_settings {
    nk_tour_settings tour;        /* what fixes the games */
    const nk_tour_entry *players; /* [nplayers] */
    size_t nplayers;
    int threads;         /* 0: OpenMP's default */
    const char *created; /* the record's creation time (a file's stamp); NULL: none */
} nk_tournament_settings;

typedef struct nk_tournament nk_tournament;

/* Checks the settings and makes the schedule.  NK_EINVAL / NK_ERANGE with
 * one line naming the bad setting; NK_ENOMEM. */
nk_status nk_tournament_alloc(nk_tournament **out, const nk_tournament_settings *s, char *err,
                              size_t errlen);
/* Continues from a partial record (a copy of it is taken): NK_EMISMATCH
 * when it is another tournament (nk_tour_compare's message), NK_EFORMAT
 * when its games do not fit its meetings, NK_ENOMEM.  The record's
 * creation time and schema come with it. */
nk_status nk_tournament_restore(nk_tournament *t, const nk_tour *from, char *err, size_t errlen);
/* Plays the next batch, tallies it and fits the ratings again (nothing
 * when done).  After a failure the record may hold part of the batch:
 * free the object. */
nk_status nk_tournament_iterate(nk_tournament *t, char *err, size_t errlen);
bool nk_tournament_done(const nk_tournament *t);
/* The tournament so far; valid until the next iterate, restore or free. */
const nk_tour *nk_tournament_record_of(const nk_tournament *t);
/* NULL is allowed. */
void nk_tournament_free(nk_tournament *t);

#endif
