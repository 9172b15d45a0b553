/*
 * tourfile.h -- the tournament file of `nickar tournament`: one HDF5 file
 * with the players, every game and the rating list (docs/runfile.md,
 * "Tournament files").
 *
 * Layout (schema_version 1; h5py reads it):
 *
 *   /                 attrs kind ("tournament"), schema_version (int32, 1),
 *                     nickar_version, created (ISO 8601 UTC; from
 *                     SOURCE_DATE_EPOCH when set), variant, format
 *                     ("round-robin" or "gauntlet"), games (games per
 *                     pairing), openings, ply_limit (int64), seed (uint64),
 *                     anchor (the anchor's name), anchor_elo (float64),
 *                     meetings_done (int64: the meetings, colour-swapped
 *                     pairs of games, played so far, in schedule order),
 *                     meetings_total (int64), complete (int32, 0 or 1)
 *   /players/name     [P] fixed-length UTF-8 strings (NK_PLAYER_NAME bytes)
 *   /players/spec     [P] fixed-length UTF-8 strings (NK_SPEC_TEXT bytes)
 *   /players/weights  [P, NK_MAX_FEATURES] float64: a run-file or weights-
 *   /players/n_weights [P] int32  file player's numbers (n_weights of them;
 *                     0: the spec's own)
 *   /pairings         [Q, 2] int32: the schedule, pairing q = (a, b)
 *   /games            [2 * meetings_done] compound nk_tour_game, in play
 *                     order: meeting m is game 2m (a South) and 2m+1
 *                     (b South) of pairing m / (games/2); attrs
 *                     reason_names (the text of each end code)
 *   /moves            [sum of plies] uint8: game g's moves are
 *                     moves[moves_at, moves_at + plies); the first
 *                     `opening` of them are its random opening (the games
 *                     start from the variant's start position)
 *   /cross/wins, draws, losses  [P, P] int32: i's results against j
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

#include "arena/rating.h"
#include "base/status.h"
#include "exec/exec.h"
#include "io/playerio.h"

enum { NK_TOUR_SCHEMA_VERSION = 1 };

typedef enum nk_tour_format { NK_TOUR_ROUND_ROBIN = 0, NK_TOUR_GAUNTLET = 1 } nk_tour_format;

/* What fixes the games of a tournament (a --resume must match them). */
typedef struct nk_tour_settings {
    char variant[32];
    nk_tour_format format;
    uint64_t games; /* per pairing, even */
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
} nk_tour_game;

/* One row of /ratings, in player order. */
typedef struct nk_tour_rating {
    double elo, se, lo, hi; /* rating, standard error, 95% interval */
    double games, score;    /* games played, mean points */
    int32_t rank;           /* 1 = best */
    double los_next;        /* LOS over the player ranked next (NaN: last) */
} nk_tour_rating;

/* A tournament in memory: what its file holds. */
typedef struct nk_tour {
    nk_tour_settings set;
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

/* The cross table of the games so far: m[i*P+j] = i's results against j. */
void nk_tour_cross(const nk_tour *t, nk_wdl *m);

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
