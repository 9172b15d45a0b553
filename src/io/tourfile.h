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
 *                     0: the spec's own).  A player of an evaluation
 *                     family (search/eval.h: an ntuple spec with
 *                     weights=FILE or =RUN.h5@best, however long its
 *                     vector) has 0 here: its numbers travel by name, the
 *                     spec's weights= text, and are read again from there
 *                     (io/playerio.h), so the layout holds any genome.
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

#include "base/status.h"
#include "run/tournament.h"

enum { NK_TOUR_SCHEMA_VERSION = 2 };

/* The record's model (settings, players, games, matches, ratings) is
 * nk_tour of run/tournament.h; this file only stores it. */

/* Now as ISO 8601 UTC, or SOURCE_DATE_EPOCH (seconds since 1970) when that
 * is set to a number: the reproducible-builds convention, so that tests can
 * compare whole files.  The `created` of a new tournament. */
void nk_tour_now(char *buf, size_t len);

/* Writes the whole tournament to path (through path.tmp, see above). */
nk_status nk_tour_write(const nk_tour *t, const char *path, char *err, size_t errlen);

/* Reads a tournament file.  NK_ENOFILE when it cannot be opened,
 * NK_EFORMAT when it is not a tournament file of this schema or is
 * damaged. */
nk_status nk_tour_read(nk_tour *t, const char *path, char *err, size_t errlen);

/* Whether an HDF5 file at path is a tournament file (kind attribute). */
bool nk_tour_is_file(const char *path);

#endif
