/*
 * tune.h -- supervised tuning: an evaluation fitted to an endgame
 * database's exact values (Texel-style tuning with exact labels instead of
 * game results), as a GSL-style iterate object.  No files: the run file
 * side is io/tune_file.h, the command `nickar tune` (docs/cli.md).
 *
 *     nk_tune_alloc(&t, &settings, resolve, threads, err, len);
 *     while (!nk_tune_done(t)) {
 *         nk_tune_iterate(t, err, len);
 *         record = nk_tune_record_of(t);        (write it somewhere)
 *     }
 *     nk_tune_free(t);
 *
 * The data (in nk_tune_alloc).  Positions come from self-play games of the
 * reference player (tune.reference) from random openings, as grading draws
 * them (search/grade.h): game k is played with the generator seeded
 * nk_seed_mix(experiment.seed, k, NK_TUNE_STREAM_GAMES), NK_GRADE_OPENING
 * random plies and then the reference on both sides; every live position
 * of it with at most the database's seeds on the board (and, in adjikui,
 * the default rows) is one sample, until tune.positions of them (at most
 * 100 positions + 100 games are played).  Each sample is the model's
 * feature row phi(pos) from the side to move's view and its exact label:
 *   least-squares  the final seed margin under perfect play from here,
 *                  (own store + the board seeds the side to move collects)
 *                  - (opponent store + the seeds the opponent collects)
 *                  (tb.h: nk_tb_probe_pair);
 *   logistic       the result under perfect play for the side to move as a
 *                  probability: 1 a win, 1/2 a draw, 0 a loss
 *                  (nk_tb_outcome).
 *
 * The fit.  Every model tuned here is linear in its parameters,
 * eval(pos) = w . phi(pos) (nk_tune_model below):
 *   least-squares  minimises sum (w . phi_i - margin_i)^2 with
 *                  gsl_multifit_linear (SVD; a rank-deficient design, a
 *                  feature that never varies in the endgames, gets the
 *                  least-norm answer): one iteration;
 *   logistic       minimises sum (sigmoid(w . phi_i) - p_i)^2 (the Texel
 *                  loss) with gsl_multifit_nlinear (trust region,
 *                  Levenberg-Marquardt, Levenberg scaling) from w = 0, one
 *                  solver iteration per nk_tune_iterate, until its test
 *                  (xtol 1e-6, gtol 1e-6, ftol 1e-8) passes, it can make
 *                  no progress, or tune.iterations.
 * Record 0 is the start (w = 0), then one record per iteration; the cost
 * of a record is the mean squared residual over the positions (seeds^2,
 * or probability^2), and its fitness minus that.  The first and the last
 * record also carry a grade (search/grade.h) of the run's player (player.*)
 * with their weights, on tune.grade_positions positions of the reference's
 * games (seed nk_seed_mix(experiment.seed, NK_TUNE_STREAM_GRADE, 0), the
 * same positions for both).  The work is single-threaded today (threads
 * is only recorded), so nothing depends on the thread count.  A tuning is
 * not resumed: it is short, and made again whole.
 */
#ifndef NK_RUN_TUNE_H
#define NK_RUN_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "run/evolution.h"
#include "run/record.h"
#include "run/settings.h"

/* The seed streams of the positions' games and of the grades. */
#define NK_TUNE_STREAM_GAMES UINT64_C(0x7E57DA7A)
#define NK_TUNE_STREAM_GRADE UINT64_C(0x7E576AD)

/* What is fitted: an evaluation linear in its n parameters,
 * eval(pos) = w . phi(pos), phi from the side to move's view.  The linear
 * feature sets are such models (phi: the set's features; nk_tune_model_of
 * makes one); a richer family whose evaluation is a sum of learnt entries
 * (an n-tuple network: phi counts the entries a position touches) is one
 * too, and is added by a constructor that fills this struct.  names[i]
 * name the parameters (the run file's /features). */
typedef struct nk_tune_model {
    const char *name; /* the family or set: the run file's feature_set */
    size_t dim;
    const char *const *names;
    void (*phi)(const void *ctx, const nk_variant *v, const nk_pos *pos, double *row);
    const void *ctx;
} nk_tune_model;

/* The model of the linear feature set of the run's player
 * (player.features).  NK_EINVAL naming player.features when it is unknown
 * or does not suit the variant. */
nk_status nk_tune_model_of(const nk_run_settings *s, const nk_variant *v, nk_tune_model *m,
                           const char **names, char *err, size_t errlen);

/* ===== the fit of data ===== */

/* The solver on given data: x[n * dim] (row-major feature rows), y[n]
 * labels (a margin, or a probability for logistic), borrowed for the life
 * of the fit.  Iterate style as above: the first nk_tune_fit_iterate
 * solves least squares or takes one logistic solver iteration from w = 0.
 * NK_EINVAL for n < dim or dim 0; NK_ENOMEM. */
typedef struct nk_tune_fit nk_tune_fit;
nk_status nk_tune_fit_alloc(nk_tune_fit **out, bool logistic, const double *x, const double *y,
                            size_t n, size_t dim, unsigned iterations, char *err, size_t errlen);
nk_status nk_tune_fit_iterate(nk_tune_fit *f, char *err, size_t errlen);
bool nk_tune_fit_done(const nk_tune_fit *f);
/* The weights now (0 before the first iteration) and their cost (the mean
 * squared residual). */
const double *nk_tune_fit_weights(const nk_tune_fit *f, double *cost);
void nk_tune_fit_free(nk_tune_fit *f);

/* ===== the tuning ===== */

/* One record: the run file's generation `iteration`. */
typedef struct nk_tune_record {
    unsigned iteration;   /* 0: the start */
    const double *w;      /* [dim] the weights after it */
    double fitness;       /* minus cost */
    double cost;          /* mean squared residual */
    nk_run_stats stats;   /* generation, evaluations (positions), best =
                             mean = ... = fitness; games (the reference's,
                             in record 0); tb_*: the grade, when graded */
    bool graded;
    /* when graded: the share of optimal moves and the mean seeds lost per
     * move, each with its 95% interval (nk_grade_summary) */
    double share[3], lost[3];
} nk_tune_record;

typedef struct nk_tune nk_tune;

/* Checks the settings (tune.*, player.*, experiment.variant, .seed),
 * opens the database (tune.tablebase, shared: tb.h), resolves the
 * reference through resolve (NULL: nk_spec_parse alone) and draws the
 * positions.  NK_EINVAL / NK_ERANGE naming the key, the database's errors
 * (NK_ENOFILE, NK_EMISMATCH, NK_EFORMAT) naming tune.tablebase, NK_ENOMEM.
 * threads: 0 for OpenMP's default. */
nk_status nk_tune_alloc(nk_tune **out, const nk_run_settings *s, nk_evo_resolve resolve,
                        int threads, char *err, size_t errlen);
/* One step (record 0, then one solver iteration); then nk_tune_record_of
 * describes it.  NK_EINVAL after the last; NK_ENOMEM. */
nk_status nk_tune_iterate(nk_tune *t, char *err, size_t errlen);
const nk_tune_record *nk_tune_record_of(const nk_tune *t);
bool nk_tune_done(const nk_tune *t);
/* What the data and the fit are, for the run file's header: the model,
 * the positions drawn and the games played for them. */
typedef struct nk_tune_shape {
    const nk_tune_model *model;
    const char *variant;
    uint64_t seed;
    const char *method; /* "tune-logistic" or "tune-least-squares" */
    size_t positions;
    uint64_t games;
    int threads;
} nk_tune_shape;
const nk_tune_shape *nk_tune_shape_of(const nk_tune *t);
/* Sample i's feature row (dim numbers) and label. */
const double *nk_tune_sample(const nk_tune *t, size_t i, double *label);
/* NULL is allowed. */
void nk_tune_free(nk_tune *t);

#endif
