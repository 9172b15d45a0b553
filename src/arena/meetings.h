/*
 * meetings.h -- the one way a set of meetings is played: every meeting is a
 * colour-swapped pair of games run by exec, and each gives its tally.
 *
 * Owns: nk_arena_play_meetings (the jobs, the batch, the games) and the
 * per-meeting tally, counted as integers from the games' results.  Used by
 * the fitness games and the benchmark of an evolution run (run/) and by
 * `nickar match`.
 *
 * Seeds: meeting i of a call is pairing i (or index[i]) of exec batch
 * `batch` under `master` (nk_exec_pairs), so its games depend only on
 * (master, batch, i),
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

/* What every meeting of a call shares.  Pointers are borrowed. */
typedef struct nk_arena_setup {
    const nk_variant *variant;
    unsigned ply_limit;             /* 0: NK_DEFAULT_PLY_LIMIT */
    const nk_exec_player *players;  /* the entrants the meetings index */
    size_t nplayers;
    uint64_t master;                /* the master seed */
    uint64_t batch;                 /* the exec batch index */
    unsigned opening;               /* random opening plies */
    int threads;                    /* 0: OpenMP's default; 1: serial */
    bool record;                    /* keep the games' moves (nk_exec_game.moves) */
    const uint64_t *index;          /* NULL: meeting i of a call is pairing i
                                       of the batch; else pairing index[i]
                                       (a tournament plays the meetings of
                                       many pairings in one call, each
                                       numbered within its own pairing) */
} nk_arena_setup;

/* One meeting's result from a's side.  Game 0 has a South, game 1 a North. */
typedef struct nk_meeting_tally {
    unsigned wins, draws, losses; /* a's, over the two games */
    int outcome[2];               /* a's result per game: 1 win, 0 draw, -1 loss */
    int own[2], other[2];         /* seeds of a and of b at the end of each game */
} nk_meeting_tally;

/* The meetings of one call, as played. */
typedef struct nk_arena_played {
    size_t n;                  /* meetings */
    nk_exec_job *jobs;         /* [2n]: game 2i and 2i+1 of meeting i */
    nk_exec_game *games;       /* [2n] */
    nk_meeting_tally *tally;   /* [n] */
} nk_arena_played;

/* Plays meetings[0..n) (n may be 0) and fills *out (free it with
 * nk_arena_played_free, also after a failure).  Errors are those of
 * nk_exec_run, and NK_ENOMEM. */
nk_status nk_arena_play_meetings(const nk_arena_setup *s, const nk_meeting *meetings, size_t n,
                                 nk_arena_played *out, char *err, size_t errlen);
void nk_arena_played_free(nk_arena_played *p);

/* a's points in game k (0 or 1) of a meeting: 1, 0.5 or 0; and its seed
 * difference. */
double nk_meeting_points(const nk_meeting_tally *m, int k);
int nk_meeting_seed_diff(const nk_meeting_tally *m, int k);
/* Adds a meeting to a's match tally as one colour-swapped pair. */
void nk_arena_add_meeting(nk_arena_tally *t, const nk_meeting_tally *m);

#endif
