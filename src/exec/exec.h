/*
 * exec.h -- runs a batch of games, serially or on OpenMP threads.
 *
 * A batch is a table of players and a list of jobs.  A player is a parsed
 * spec plus, optionally, its weight vector (an individual of a population, a
 * weights file); a job is one game: which player sits South, which North,
 * the game's seed, and the random opening that starts it.  The batch writes
 * each game's result into the caller's array at the job's index, so the
 * results are the same whatever the number of threads and whatever order
 * the threads take the jobs in (schedule(dynamic)).
 *
 * Determinism: a game depends only on its job and the batch (variant, start
 * position, ply limit, player table).  Its opening is drawn from the job's
 * opening_seed, uniformly among the legal moves (nk_random_move); the
 * players then draw from one nk_rng seeded with the job's seed, in turn
 * order.  A player's choice depends only on the game, its spec and that rng
 * (search/player.h), so a player made once per thread and reused for many
 * games plays each game as a fresh one would.
 *
 * Players are not thread-safe: each thread makes its own, lazily, the first
 * time one of its jobs needs it, and frees them at the end of the batch.  A
 * thread thus holds at most one instance of each player it met (with an
 * alpha-beta player's transposition table: mind tt_mb with many players).
 *
 * Seeds: nk_exec_seed(master, batch, game) is the per-game seed of
 * docs/architecture.md ("Randomness and determinism"): batch is the
 * generation (or 0 for a match), game the index of the game or the pairing
 * within the batch.
 */
#ifndef NK_EXEC_H
#define NK_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/rules.h"
#include "search/player.h"

/* One entry of a batch's player table.  The spec and the weights are
 * borrowed; they must outlive the batch run. */
typedef struct nk_exec_player {
    const nk_spec *spec;
    const double *weights; /* n numbers for nk_player_new; NULL: the spec's own */
    size_t n;
} nk_exec_player;

/* One game. */
typedef struct nk_exec_job {
    uint32_t south;        /* index in the player table of the South player */
    uint32_t north;        /* ... and of the North player */
    uint64_t seed;         /* the players' rng */
    uint64_t opening_seed; /* the random opening's rng (shared by the two
                              games of a colour-swapped pair) */
    unsigned opening;      /* random plies before the players take over */
} nk_exec_job;

/* What one game gave. */
typedef struct nk_exec_game {
    nk_result result;  /* winner (a side or NK_DRAW), totals, reason */
    unsigned plies;    /* plies of the whole game, opening included */
    unsigned opening;  /* random opening plies actually played (fewer
                          than asked only if the opening ended the game) */
    uint64_t nodes[2]; /* nodes searched by the South and North players
                          (nk_think.nodes summed) */
    nk_pos start;      /* the position the game started from */
    uint8_t *moves;    /* with record: the plies moves (malloc'd, freed
                          by nk_exec_games_free); else NULL */
} nk_exec_game;

/* A batch.  Zero-initialise and fill in; the pointers are borrowed. */
typedef struct nk_exec_batch {
    const nk_variant *variant;
    const nk_pos *start; /* NULL: the start position, South to move */
    unsigned ply_limit;  /* 0: NK_DEFAULT_PLY_LIMIT */
    const nk_exec_player *players;
    size_t nplayers;
    const nk_exec_job *jobs;
    size_t njobs;
    int threads;              /* 0: OpenMP's default (the cores); 1: serial */
    bool record;              /* keep every game's moves */
    const volatile int *stop; /* optional: when *stop becomes non-zero the
                                 batch starts no further game and returns
                                 NK_EINTERRUPTED */
} nk_exec_batch;

/* The per-game seed (docs/architecture.md): a fixed hash of (master seed, batch or
 * generation index, game or pairing index). */
uint64_t nk_exec_seed(uint64_t master, uint64_t batch, uint64_t game);

/* One meeting of two entries of a batch's player table: played as a
 * colour-swapped pair of games, a South in the first. */
typedef struct nk_meeting {
    uint32_t a, b;
} nk_meeting;

/* Fills jobs[0 .. 2*n-1] with colour-swapped pairs: meeting i (a, b) gives
 * job 2i with a South and job 2i+1 with b South, both from the same random
 * opening of `opening` plies, drawn with the pairing's seed
 * nk_exec_seed(master, batch, i); the two games' players get seeds mixed
 * from it.  (A match is the meeting (0, 1) repeated.) */
void nk_exec_pairs(nk_exec_job *jobs, const nk_meeting *meetings, size_t n, uint64_t master,
                   uint64_t batch, unsigned opening);
/* The two jobs of one meeting as pairing `index` of the batch: jobs[0..1]
 * are what nk_exec_pairs writes for meeting i = index. */
void nk_exec_pair_at(nk_exec_job *jobs, nk_meeting meeting, uint64_t index, uint64_t master,
                     uint64_t batch, unsigned opening);

/* Plays every job of the batch and writes its result into out[job index]
 * (out has b->njobs entries; on failure their contents are unspecified but
 * nk_exec_games_free may still be called on them).  NK_EINVAL for a bad
 * batch (no variant, a start position with pit owners in a Warri-family
 * variant, a player index out of range, a human player, a player that
 * cannot be made for the variant: err says which), NK_ERANGE for a bad
 * ply limit, NK_ENOMEM, NK_EINTERRUPTED when *stop was raised.  After a
 * failure the message is that of the failing job of lowest index. */
nk_status nk_exec_run(const nk_exec_batch *b, nk_exec_game *out, char *err, size_t errlen);

/* Frees the move records of n games (and sets them to NULL); out may hold
 * games without records.  NULL with n = 0 is allowed. */
void nk_exec_games_free(nk_exec_game *games, size_t n);

/* The points a side earned in a game: 1 for a win, 0.5 for a draw, 0 for a
 * loss; and its seed difference (own total minus the other's). */
double nk_exec_points(const nk_exec_game *game, int side);
int nk_exec_seed_diff(const nk_exec_game *game, int side);

#endif
