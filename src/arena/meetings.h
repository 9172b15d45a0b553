/*
 * meetings.h -- the one way a set of meetings is played: every meeting is a
 * colour-swapped pair of games, or of whole matches (unit match), run by
 * exec, and each gives its tally.
 *
 * Owns: nk_arena_play_meetings (the jobs, the batch, the games) and the
 * per-meeting tally, counted as integers from the games' results.  Used by
 * the experiments of run/: the fitness games and the benchmark of an
 * evolution run, the tournament (run/tournament.h), the master tournament
 * (run/master.h), and by `nickar match`.
 *
 * Seeds: meeting i of a call is pairing first + i (or index[i]) of exec
 * batch `batch` under `master` (nk_exec_pairs_at), so its games depend only
 * on (master, batch, that pairing number),
 * the two players and the batch settings, never on the thread count.
 */
#ifndef NK_ARENA_MEETINGS_H
#define NK_ARENA_MEETINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena/arena.h"
#include "base/status.h"
#include "exec/exec.h"

/* What a meeting plays.
 *  - NK_UNIT_GAME: two games, a South (moving first) in game 0, b in game 1.
 *  - NK_UNIT_MATCH: two matches (rules/rules.h nk_match: Warri to six won
 *    games, R-W13; Adji Kui II with bought pits, R-K8..R-K10), a being
 *    player 0 (South, moving first in the first game) of match 0 and b of
 *    match 1; the first player alternates game by game and each game
 *    starts from the position nk_match_next gives, owners included, so the
 *    players search positions that carry the current game's ownership.
 *    The matches are played round by round: round r plays game r of every
 *    match still going, as one exec batch.  Game r of match k of pairing
 *    p (seed P = nk_exec_seed(master, batch, p)) has the players' seed
 *    nk_seed_mix(P, 1 + k, r) and the opening seed P in round 0 (the same
 *    games as unit game) and nk_seed_mix(P, 3, r) after: the two matches
 *    of a meeting share each round's random opening. */
typedef enum nk_arena_unit { NK_UNIT_GAME = 0, NK_UNIT_MATCH = 1 } nk_arena_unit;

/* The game limit of a match when none is given, and the most allowed. */
enum { NK_MATCH_GAMES_DEFAULT = 11, NK_MATCH_GAMES_MAX = 99 };

/* "game" or "match"; NULL for another value. */
const char *nk_arena_unit_name(nk_arena_unit u);
/* The unit of a name; false for an unknown name. */
bool nk_arena_unit_parse(const char *name, nk_arena_unit *out);

/* What every meeting of a call shares.  Pointers are borrowed. */
typedef struct nk_arena_setup {
    const nk_variant *variant;
    unsigned ply_limit;             /* 0: NK_DEFAULT_PLY_LIMIT */
    const nk_exec_player *players;  /* the entrants the meetings index */
    size_t nplayers;
    uint64_t master;                /* the master seed */
    uint64_t batch;                 /* the exec batch index */
    uint64_t first;                 /* pairing index of meetings[0] (0 for a
                                       whole set; a series played in parts
                                       passes the parts' offsets) */
    unsigned opening;               /* random opening plies */
    int threads;                    /* 0: OpenMP's default; 1: serial */
    bool record;                    /* keep the games' moves (nk_exec_game.moves) */
    nk_arena_unit unit;             /* game (default) or match */
    unsigned match_games;           /* unit match: a match's game limit
                                       (0: NK_MATCH_GAMES_DEFAULT) */
    const uint64_t *index;          /* NULL: meeting i of a call is pairing i
                                       of the batch; else pairing index[i]
                                       (a tournament plays the meetings of
                                       many pairings in one call, each
                                       numbered within its own pairing) */
} nk_arena_setup;

/* One meeting's result from a's side.  Unit k (game or match k) has a
 * South (player 0) for k = 0 and North for k = 1. */
typedef struct nk_meeting_tally {
    unsigned wins, draws, losses;                /* a's, over the two units */
    int outcome[2];                              /* a's result per unit: 1 win, 0 draw, -1 loss */
    int own[2], other[2];                        /* seeds of a and of b at the end of each
                                                    game, summed over a match's games */
    unsigned games[2];                           /* games in each unit (1 for unit game) */
    unsigned game_wins, game_draws, game_losses; /* a's, over every game */
} nk_meeting_tally;

/* The meetings of one call, as played. */
typedef struct nk_arena_played {
    size_t n;                  /* meetings */
    size_t ngames;             /* games (2n for unit game) */
    nk_exec_job *jobs;         /* [ngames]: the games of meeting i, unit 0
                                  then unit 1, each in the order played */
    nk_exec_game *games;       /* [ngames] */
    size_t *first_game;        /* [2n + 1]: unit k of meeting i holds games
                                  first_game[2i + k] .. first_game[2i + k + 1] - 1
                                  (for unit game: game 2i + k) */
    nk_meeting_tally *tally;   /* [n] */
} nk_arena_played;

/* Plays meetings[0..n) (n may be 0) and fills *out (free it with
 * nk_arena_played_free, also after a failure).  Errors are those of
 * nk_exec_run, NK_ERANGE for a match game limit above NK_MATCH_GAMES_MAX,
 * and NK_ENOMEM. */
nk_status nk_arena_play_meetings(const nk_arena_setup *s, const nk_meeting *meetings, size_t n,
                                 nk_arena_played *out, char *err, size_t errlen);
void nk_arena_played_free(nk_arena_played *p);

/* a's points in unit k (0 or 1) of a meeting: 1, 0.5 or 0; and its seed
 * difference. */
double nk_meeting_points(const nk_meeting_tally *m, int k);
int nk_meeting_seed_diff(const nk_meeting_tally *m, int k);
/* Adds a meeting to a's match tally as one colour-swapped pair. */
void nk_arena_add_meeting(nk_arena_tally *t, const nk_meeting_tally *m);

#endif
