/*
 * td.h -- self-play temporal-difference learning of the run's evaluation,
 * TD(lambda) and TD-Leaf(lambda) (Baxter, Tridgell & Weaver 2000), as a
 * GSL-style iterate object: the baseline that evolution is measured
 * against, on the same representations (any evaluation family with a
 * gradient, search/eval.h: the linear sets and the n-tuple networks).  No
 * files: the run file side is io/td_file.h, the command `nickar learn`
 * (docs/cli.md).
 *
 *     nk_td_alloc(&t, &settings, resolve, threads, err, len);
 *     nk_td_restore(t, &checkpoint, err, len);       (to resume)
 *     while (!nk_td_done(t)) {
 *         nk_td_iterate(t, err, len);                (one generation)
 *         record = nk_td_record_of(t);               (write it somewhere)
 *     }
 *     nk_td_free(t);
 *
 * The player.  One learner plays both sides of every game as the run's
 * player (nk_run_player_of: player.features, .depth, .tt, .ply_limit; its
 * view must be the mover's).  Its weights start at 0 or at the family's
 * defaults (td.start).  Game k of the run (k = 0, 1, ... over all
 * generations) draws from an nk_rng seeded nk_seed_mix(experiment.seed, k,
 * NK_TD_STREAM_GAMES): td.openings uniformly random plies from the start
 * position (South moves first), then at every position a uniformly random
 * legal move with probability td.epsilon, else the search's best move.
 *
 * What is learnt.  The value of a position x is, from South's view (every
 * value of a game in one view, so that nothing depends on who moves
 * next, and Antigua's second move after a grand slam needs nothing
 * special):
 *   v(x)  = s * eval(l), l the position whose evaluation is learnt: with
 *           td.leaf the leaf of x's principal variation at player.depth
 *           (TD-Leaf), else x itself (TD(lambda)); s = +1 when South is to
 *           move in l, -1 otherwise (eval is the mover's, search/eval.h);
 *   y(x)  = tanh(v(x) / td.scale) with td.squash = tanh, v(x) with none;
 *   and where the principal variation ends the game (or x is the end),
 *   the game's exact result instead, which no weight changes: with tanh
 *   +1 South won, -1 North won, 0 drawn; with none the seed margin
 *   nk_eval_terminal / NK_SCORE_SEED from South's view (at least one
 *   seed for a win).
 * The gradient of y is d y = s * y' * nk_eval_gradient(l), y' = (1 - y^2)
 * / td.scale for tanh, 1 for none.
 *
 * The update (nk_td_trace: offline TD(lambda), the weights fixed during a
 * game, computed backwards from its end).  For the positions x_0 .. x_{T-1} of a game where a move was
 * chosen (after the opening) and the end x_T, with y_t = y(x_t), y_T the
 * result and g_t = d y(x_t):
 *     e_t = lambda e_{t-1} + g_t   (e_{-1} = 0),
 *     d_t = y_{t+1} - y_t,
 *     dw  = sum_t d_t e_t,
 * and the game adds alpha_k dw to the weights, alpha_k = td.alpha (constant)
 * or td.alpha / (1 + k / td.alpha_games) (inverse) for game k.  This is
 * KnightCap's TD-Leaf update (sum_t g_t sum_{j>=t} lambda^{j-t} d_j) in
 * its accumulating-trace form.
 *
 * Batches and threads.  The games of a generation are played in batches of
 * td.batch consecutive games (the last may be shorter), every game of a
 * batch with the weights as they were before it, on the threads (OpenMP);
 * then the batch's updates are added in game order.  So the weights after
 * a generation depend on the settings alone, never on the thread count.
 *
 * A generation.  td.games games, then the benchmark when it is due
 * (run/benchmark.h: the learner with its new weights as the champion,
 * benchmark.*, openings fitness.openings, as evolution's so that the
 * curves compare), then the record: the weights (one individual, id g,
 * parent g - 1), fitness = minus the mean squared TD error d_t^2 of the
 * generation's games, the games and their outcomes.  The checkpoint is
 * the weights: every game's draws come from its index, traces end with
 * their game, and the rate from the game count, so generations done and
 * weights are all that a resumed run needs.
 */
#ifndef NK_RUN_TD_H
#define NK_RUN_TD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "run/evolution.h"
#include "run/record.h"
#include "run/settings.h"
#include "search/search.h"

/* The seed stream of the self-play games. */
#define NK_TD_STREAM_GAMES UINT64_C(0x7DDA7A)

/* ===== one episode's update ===== */

/* An episode's TD(lambda) update (above), in its backward form: the
 * positions are kept, their values y_t and gradients g_t as entries
 * (nk_eval_gradient_entries: an n-tuple network's few nonzero ones), and
 * nk_td_trace_end computes
 *     dw = sum_t g_t G_t,   G_t = d_t + lambda G_{t+1}   (G_T = 0),
 * the same sum as sum_t d_t e_t (each g_k collects the later errors d_t
 * decayed by lambda^(t-k)), in O(entries) rather than O(dim) a position.
 * nk_td_trace_begin starts an episode; nk_td_trace_step gives the next
 * position's y and gradient (n entries idx, val; n = 0: none); then
 * nk_td_trace_end the value of the end.  After it dw (dim numbers) is the
 * episode's update before the rate, sq the sum of the squared TD errors
 * and steps their number. */
typedef struct nk_td_trace {
    size_t dim;
    double lambda;
    double *dw;       /* [dim] */
    double *y;        /* [n] the positions' values */
    size_t *first;    /* [n + 1] where each position's entries start */
    uint32_t *idx;    /* [entries] */
    double *val;      /* [entries] */
    size_t n, entries, cap_n, cap_entries;
    double sq;
    size_t steps;
} nk_td_trace;

/* NK_ENOMEM; free with nk_td_trace_free (also after a failure). */
nk_status nk_td_trace_alloc(nk_td_trace *t, size_t dim);
void nk_td_trace_free(nk_td_trace *t);
void nk_td_trace_begin(nk_td_trace *t, double lambda);
/* NK_ENOMEM when the episode's store cannot grow. */
nk_status nk_td_trace_step(nk_td_trace *t, double y, const uint32_t *idx, const double *val,
                           size_t n);
void nk_td_trace_end(nk_td_trace *t, double z);

/* ===== the principal variation's leaf ===== */

/* The leaf of the principal variation of a search of depth plies from
 * the live game g (depth >= 1), into *leaf (a fork of g, nk_game_fork,
 * the variation's moves played on it): searches of depth, depth - 1, ...,
 * 1 from the root and then from each position the previous search's best
 * move leads to.  A search of depth d values its best move's child at
 * exactly the value the child's own search of depth d - 1 gives (the same
 * tree), so the leaf's evaluation is the root's score (up to the sign of
 * who moves) unless the game ends on the way, when leaf is over with its
 * result.  *move is the root's best move.  Ties between equal moves go
 * as the search breaks them. */
void nk_td_leaf(nk_search *s, const nk_game *g, unsigned depth, nk_game *leaf, int *move);

/* ===== the learning run ===== */

/* One record: the run file's generation. */
typedef struct nk_td_record {
    unsigned generation;   /* 0-based */
    const double *w;       /* [dim] the weights after it */
    double fitness;        /* minus the mean squared TD error */
    nk_run_stats stats;    /* games (this generation's), evaluations (the
                              games of the run so far), best = mean = median
                              = worst = fitness */
    int32_t wins, draws, losses; /* the learner against itself: decisive
                                    games count as a win and a loss */
    uint64_t south_wins, north_wins, positions; /* positions: TD steps */
    const nk_run_bench *bench; /* [n_bench] */
    size_t n_bench;
    bool benchmarked;
    double benchmark_score; /* mean score over the benchmark rows */
    const double *champion; /* [1 + dim] the checkpoint: generation, weights */
} nk_td_record;

/* A checkpoint to restore: generations done and the weights after them
 * (dim numbers; ignored when done is 0). */
typedef struct nk_td_checkpoint {
    unsigned done;
    const double *w;
    size_t n;
} nk_td_checkpoint;

/* What a run file's header needs. */
typedef struct nk_td_shape {
    const char *variant;
    uint64_t seed;
    const char *features;        /* the evaluation: a set's name or the
                                    family's canonical text */
    const char *const *names;    /* [dim] names of the weights */
    const char *method;          /* "td-leaf" or "td-lambda" */
    size_t dim;
    int threads;
    unsigned generations;
} nk_td_shape;

typedef struct nk_td nk_td;

/* Checks the settings (td.*, player.*, experiment.*, benchmark.*), makes
 * the learner and resolves the benchmark players through resolve (NULL:
 * nk_spec_parse alone).  NK_EINVAL / NK_ERANGE naming the key; NK_ENOMEM.
 * threads: 0 for OpenMP's default. */
nk_status nk_td_alloc(nk_td **out, const nk_run_settings *s, nk_evo_resolve resolve, int threads,
                      char *err, size_t errlen);
/* Continues from a checkpoint.  NK_EFORMAT for weights of another count
 * or not finite. */
nk_status nk_td_restore(nk_td *t, const nk_td_checkpoint *c, char *err, size_t errlen);
/* One generation; then nk_td_record_of describes it (NULL before the first
 * and after a failure).  NK_EINVAL after the last; NK_ERANGE naming
 * td.alpha when the weights stop being finite numbers; NK_ENOMEM; the
 * benchmark's errors. */
nk_status nk_td_iterate(nk_td *t, char *err, size_t errlen);
const nk_td_record *nk_td_record_of(const nk_td *t);
unsigned nk_td_generation(const nk_td *t);
bool nk_td_done(const nk_td *t);
const nk_td_shape *nk_td_shape_of(const nk_td *t);
/* The weights now (dim numbers). */
const double *nk_td_weights(const nk_td *t);
/* NULL is allowed. */
void nk_td_free(nk_td *t);

#endif
