/*
 * tourfile.h -- the tournament file of `nickar tournament`: one HDF5 file
 * with the players, every game and the rating list (docs/runfile.md,
 * "Tournament files").
 *
 * Layout (schema_version 2; h5py reads it):
 *
 *   /                 attrs kind ("tournament"), schema_version (int32, 1),
 *                     nickar_version, created (ISO 8601 UTC; from
 *                     SOURCE_DATE_EPOCH when set), variant, format
 *                     ("round-robin" or "gauntlet"), unit ("game" or
 *                     "match"), match_games (int64: a match's game limit;
 *                     0 for unit game), games (games, or with unit match
 *                     matches, per pairing), openings, ply_limit (int64),
 *                     seed (uint64),
 *                     anchor (the anchor's name), anchor_elo (float64),
 *                     meetings_done (int64: the meetings, colour-swapped
 *                     pairs of games or of matches, played so far, in
 *                     schedule order),
 *                     meetings_total (int64), complete (int32, 0 or 1)
 *   /players/name     [P] fixed-length UTF-8 strings (NK_PLAYER_NAME bytes)
 *   /players/spec     [P] fixed-length UTF-8 strings (NK_SPEC_TEXT bytes)
 *   /players/weights  [P, NK_MAX_FEATURES] float64: a run-file or weights-
 *   /players/n_weights [P] int32  file player's numbers (n_weights of them;
 *                     0: the spec's own)
 *   /pairings         [Q, 2] int32: the schedule, pairing q = (a, b)
 *   /games            [G] compound nk_tour_game, in play order.  Unit
 *                     game: G = 2 * meetings_done, meeting m is game 2m
 *                     (a South) and 2m+1 (b South) of pairing m / (games/2).
 *                     Unit match: the games of match 0, then of match 1, of
 *                     each meeting; first and north_pits give each game's
 *                     start (who moves first, North's pits).  attrs
 *                     reason_names (the text of each end code)
 *   /matches          unit match only: [2 * meetings_done] compound
 *                     nk_tour_match: match 2m (a is player 0, South
 *                     throughout) and 2m+1 (b is player 0) of meeting m, each
 *                     with its games /games[first_game, first_game + games)
 *   /moves            [sum of plies] uint8: game g's moves are
 *                     moves[moves_at, moves_at + plies); the first
 *                     `opening` of them are its random opening (the games
 *                     start from the variant's start position)
 *   /cross/wins, draws, losses  [P, P] int32: i's results against j (of
 *                     matches with unit match: what the ratings are fitted
 *                     to)
 *   /cross/score      [P, P] float64: i's mean points against j (0.5 on the
 *                     diagonal and where no game was played)
 *   /ratings          [P] compound nk_tour_rating (absent while the games
 *                     so far do not give a rating list); attrs model,
 *                     interval, prior (int32: virtual draws were added)
 *
 * Every dataset is chunked with the Fletcher-32 filter, the file is in the
 * HDF5 1.8 format (object headers with checksums) and no object records
 * times, so two files written from the same data are the same bytes.
 *
 * Schema 1 (before unit match) is schema 2 without unit, match_games,
 * /matches and the games' first and north_pits columns: such a file is a
 * unit-game tournament and reads as one (first South, the default owners);
 * its rating list is fitted again from its games on reading, and a
 * --resume of it writes a schema-2 file with the same games.
 *
 * Writing: the whole file is written to PATH.tmp, flushed, synced and
 * renamed over PATH (nk_tour_write), so PATH is always a whole file: the
 * old one or the new one.  The tournament writes it after batches of
 * games; a killed tournament loses at most the games since the last write
 * and `--resume` plays them again with the same seeds.  Each step calls
 * nk_io_step (io/backup.h) first, so the kill tests can stop it anywhere.
 */
#ifndef NK_IO_TOURFILE_H
#define NK_IO_TOURFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena/meetings.h"
#include "arena/rating.h"
#include "base/status.h"
#include "exec/exec.h"
#include "io/playerio.h"

enum { NK_TOUR_SCHEMA_VERSION = 2 };

typedef enum nk_tour_format { NK_TOUR_ROUND_ROBIN = 0, NK_TOUR_GAUNTLET = 1 } nk_tour_format;

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
    double weights[NK_MAX_FEATURES];
} nk_tour_player;

/* One row of /games. */
typedef struct nk_tour_game {
    int32_t pairing;
    int32_t south, north; /* player indices */
    int32_t opening;      /* random opening plies played */
    int32_t plies;        /* plies of the game, opening included */
    int8_t winner;        /* 0 South, 1 North, 2 draw */
    int8_t reason;        /* nk_end */
    int16_t south_total, north_total;
    int64_t moves_at; /* first move in /moves */
    int8_t first;        /* the side that moved first (0 South, 1 North) */
    uint16_t north_pits; /* North's pits at the start (bit i: pit i) */
} nk_tour_game;

/* One row of /matches (unit match): player 0 sits South in every game. */
typedef struct nk_tour_match {
    int32_t pairing;
    int32_t south, north;           /* player 0 and player 1 */
    int32_t games;                  /* games played */
    int8_t winner;                  /* 0 player 0, 1 player 1, 2 draw */
    int16_t south_wins, north_wins; /* games won by each */
    int16_t draws;                  /* games drawn */
    int64_t first_game;             /* its first row in /games */
} nk_tour_match;

/* One row of /ratings, in player order. */
typedef struct nk_tour_rating {
    double elo, se, lo, hi; /* rating, standard error, 95% interval */
    double games, score;    /* games played, mean points */
    int32_t rank;           /* 1 = best */
    double los_next;        /* LOS over the player ranked next (NaN: last) */
    double se_pool;         /* standard error relative to the pool's mean
                               (arena/rating.h) */
} nk_tour_rating;

/* A tournament in memory: what its file holds. */
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

/* Allocates the player and pairing tables for the settings and players;
 * the schedule: round-robin (a, b) for a < b in order, gauntlet (0, b). */
nk_status nk_tour_init(nk_tour *t, const nk_tour_settings *set, const nk_player_list *players,
                       char *err, size_t errlen);
void nk_tour_free(nk_tour *t);

/* Appends one played game (its moves must be recorded). */
nk_status nk_tour_add_game(nk_tour *t, int32_t pairing, int32_t south, int32_t north,
                           const nk_exec_game *g, char *err, size_t errlen);

/* Appends one finished match (unit match), after its games. */
nk_status nk_tour_add_match(nk_tour *t, const nk_tour_match *m, char *err, size_t errlen);

/* The cross table the ratings are fitted to: m[i*P+j] = i's results
 * against j, of games (unit game) or of matches (unit match). */
void nk_tour_cross(const nk_tour *t, nk_wdl *m);
/* The cross table of the games, whatever the unit. */
void nk_tour_cross_games(const nk_tour *t, nk_wdl *m);

/* Fits the rating list of the games so far into t->ratings (has_ratings
 * false, NK_OK, when they do not yet give one; NK_EINVAL when the anchor
 * is not a player). */
nk_status nk_tour_rate(nk_tour *t, char *err, size_t errlen);

/* Writes the whole tournament to path (through path.tmp, see above). */
nk_status nk_tour_write(const nk_tour *t, const char *path, char *err, size_t errlen);

/* Reads a tournament file.  NK_ENOFILE when it cannot be opened,
 * NK_EFORMAT when it is not a tournament file of this schema or is
 * damaged. */
nk_status nk_tour_read(nk_tour *t, const char *path, char *err, size_t errlen);

/* Whether an HDF5 file at path is a tournament file (kind attribute). */
bool nk_tour_is_file(const char *path);

/* For --resume: NK_EMISMATCH with a message naming the first setting or
 * player in which `file` differs from `want`. */
nk_status nk_tour_compare(const nk_tour *file, const nk_tour *want, char *err, size_t errlen);

#endif
