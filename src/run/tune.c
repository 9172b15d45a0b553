/*
 * tune.c -- an evaluation fitted to an endgame database (see tune.h).
 *
 * Two parts: the fit of given data (nk_tune_fit: GSL's solvers, nothing of
 * games), and the tuning (nk_tune: the positions drawn from the
 * reference's games, labelled by the database, fitted, graded).  GSL's
 * error handler is off while GSL works (its failures are statuses here),
 * as in arena/rating.c.
 */
#include "run/tune.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <omp.h>

#include "base/alloc.h"
#include "base/rng.h"
#include "search/features.h"
#include "run/schedule.h"
#include "search/grade.h"
#include "tb/tb.h"

/* ===== the fit of data ===== */

/* The logistic solver's convergence test (gsl_multifit_nlinear_test): the
 * step, the gradient and the change of the cost, relative. */
#define NK_TUNE_XTOL 1e-6
#define NK_TUNE_GTOL 1e-6
#define NK_TUNE_FTOL 1e-8

struct nk_tune_fit {
    bool logistic, done;
    const double *x, *y;
    size_t n, dim;
    unsigned iterations, iter;
    double *w, cost;
    gsl_multifit_nlinear_workspace *ws;
    gsl_multifit_nlinear_fdf fdf;
};

static double sigmoid(double z)
{
    return 1.0 / (1.0 + exp(-z));
}

static double dot(const double *a, const double *b, size_t n)
{
    double s = 0;
    for (size_t j = 0; j < n; j++)
        s += a[j] * b[j];
    return s;
}

/* The mean squared residual of w. */
static double cost_of(const nk_tune_fit *f, const double *w)
{
    double sum = 0;
    for (size_t i = 0; i < f->n; i++) {
        double e = dot(f->x + i * f->dim, w, f->dim);
        double r = (f->logistic ? sigmoid(e) : e) - f->y[i];
        sum += r * r;
    }
    return sum / (double)f->n;
}

/* The logistic residuals sigmoid(w . x_i) - y_i and their Jacobian. */
static int logistic_f(const gsl_vector *w, void *params, gsl_vector *out)
{
    const nk_tune_fit *f = params;
    for (size_t i = 0; i < f->n; i++)
        gsl_vector_set(out, i, sigmoid(dot(f->x + i * f->dim, w->data, f->dim)) - f->y[i]);
    return GSL_SUCCESS;
}

static int logistic_df(const gsl_vector *w, void *params, gsl_matrix *jac)
{
    const nk_tune_fit *f = params;
    for (size_t i = 0; i < f->n; i++) {
        const double *row = f->x + i * f->dim;
        double s = sigmoid(dot(row, w->data, f->dim)), ds = s * (1 - s);
        for (size_t j = 0; j < f->dim; j++)
            gsl_matrix_set(jac, i, j, ds * row[j]);
    }
    return GSL_SUCCESS;
}

nk_status nk_tune_fit_alloc(nk_tune_fit **out, bool logistic, const double *x, const double *y,
                            size_t n, size_t dim, unsigned iterations, char *err, size_t len)
{
    *out = NULL;
    if (dim == 0 || n < dim)
        return nk_fail(NK_EINVAL, err, len, "%zu positions cannot fit %zu weights", n, dim);
    nk_tune_fit *f = nk_calloc(1, sizeof *f);
    double *w = nk_calloc(dim, sizeof *w);
    if (f == NULL || w == NULL) {
        nk_free(f);
        nk_free(w);
        return nk_fail(NK_ENOMEM, err, len, "out of memory for the fit");
    }
    *f = (nk_tune_fit){.logistic = logistic, .x = x, .y = y, .n = n, .dim = dim,
                       .iterations = iterations, .w = w};
    f->cost = cost_of(f, w);
    *out = f;
    return NK_OK;
}

/* Least squares: one solve (SVD, gsl_multifit_linear). */
static nk_status fit_linear(nk_tune_fit *f, char *err, size_t len)
{
    gsl_matrix_const_view X = gsl_matrix_const_view_array(f->x, f->n, f->dim);
    gsl_vector_const_view Y = gsl_vector_const_view_array(f->y, f->n);
    gsl_vector_view c = gsl_vector_view_array(f->w, f->dim);
    gsl_matrix *cov = gsl_matrix_alloc(f->dim, f->dim);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(f->n, f->dim);
    double chisq = 0;
    int rc = cov && ws ? gsl_multifit_linear(&X.matrix, &Y.vector, &c.vector, cov, &chisq, ws)
                       : GSL_ENOMEM;
    gsl_multifit_linear_free(ws);
    gsl_matrix_free(cov);
    if (rc == GSL_ENOMEM)
        return nk_fail(NK_ENOMEM, err, len, "out of memory for the fit");
    if (rc != GSL_SUCCESS)
        return nk_fail(NK_EINVAL, err, len, "the least-squares fit failed: %s",
                       gsl_strerror(rc));
    f->cost = chisq / (double)f->n;
    f->done = true;
    return NK_OK;
}

/* Logistic: one iteration of the trust-region solver (made at the first). */
static nk_status fit_logistic(nk_tune_fit *f, char *err, size_t len)
{
    if (f->ws == NULL) {
        gsl_multifit_nlinear_parameters p = gsl_multifit_nlinear_default_parameters();
        p.scale = gsl_multifit_nlinear_scale_levenberg; /* features that never vary */
        f->ws = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &p, f->n, f->dim);
        if (f->ws == NULL)
            return nk_fail(NK_ENOMEM, err, len, "out of memory for the fit");
        f->fdf = (gsl_multifit_nlinear_fdf){.f = logistic_f, .df = logistic_df, .n = f->n,
                                            .p = f->dim, .params = f};
        gsl_vector_view w0 = gsl_vector_view_array(f->w, f->dim);
        int rc = gsl_multifit_nlinear_init(&w0.vector, &f->fdf, f->ws);
        if (rc != GSL_SUCCESS)
            return nk_fail(NK_EINVAL, err, len, "the logistic fit failed: %s", gsl_strerror(rc));
    }
    int rc = gsl_multifit_nlinear_iterate(f->ws), info = 0;
    f->iter++;
    if (rc != GSL_SUCCESS && rc != GSL_ENOPROG)
        return nk_fail(NK_EINVAL, err, len, "the logistic fit failed at iteration %u: %s",
                       f->iter, gsl_strerror(rc));
    const gsl_vector *w = gsl_multifit_nlinear_position(f->ws);
    memcpy(f->w, w->data, f->dim * sizeof *f->w);
    const gsl_vector *r = gsl_multifit_nlinear_residual(f->ws);
    f->cost = dot(r->data, r->data, f->n) / (double)f->n;
    f->done = rc == GSL_ENOPROG || f->iter >= f->iterations ||
              gsl_multifit_nlinear_test(NK_TUNE_XTOL, NK_TUNE_GTOL, NK_TUNE_FTOL, &info, f->ws) == GSL_SUCCESS;
    return NK_OK;
}

nk_status nk_tune_fit_iterate(nk_tune_fit *f, char *err, size_t len)
{
    if (f->done)
        return nk_fail(NK_EINVAL, err, len, "the fit is complete");
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    nk_status st = f->logistic ? fit_logistic(f, err, len) : fit_linear(f, err, len);
    gsl_set_error_handler(old);
    return st;
}

bool nk_tune_fit_done(const nk_tune_fit *f)
{
    return f->done;
}

const double *nk_tune_fit_weights(const nk_tune_fit *f, double *cost)
{
    *cost = f->cost;
    return f->w;
}

void nk_tune_fit_free(nk_tune_fit *f)
{
    if (f == NULL)
        return;
    gsl_multifit_nlinear_free(f->ws);
    nk_free(f->w);
    nk_free(f);
}

/* ===== the model of a linear feature set ===== */

static void linear_phi(const void *ctx, const nk_variant *v, const nk_pos *pos, double *row)
{
    const nk_feature_set *set = ctx;
    int f[NK_MAX_FEATURES];
    set->compute(v, pos, f);
    for (size_t j = 0; j < set->count; j++)
        row[j] = f[j];
}

nk_status nk_tune_model_of(const nk_run_settings *s, const nk_variant *v, nk_tune_model *m,
                           const char **names, char *err, size_t len)
{
    const nk_feature_set *set = nk_features_find(s->player.features);
    char e2[NK_MSG_MAX];
    if (set == NULL)
        return nk_fail(NK_EINVAL, err, len, "player.features: unknown feature set '%s'",
                       s->player.features);
    if (nk_features_check(set, v, e2, sizeof e2) != NK_OK)
        return nk_fail(NK_EINVAL, err, len, "player.features: %s", e2);
    for (size_t j = 0; j < set->count; j++)
        names[j] = set->features[j].name;
    *m = (nk_tune_model){set->name, set->count, names, linear_phi, set};
    return NK_OK;
}

/* ===== the tuning ===== */

struct nk_tune {
    nk_run_settings s;
    const nk_variant *variant;
    const char *names[NK_MAX_FEATURES];
    nk_tune_model model;
    nk_run_player player; /* graded with the weights (nk_run_player_of) */
    const nk_tb *tb;
    nk_spec ref;          /* tune.reference, resolved */
    double ref_w[NK_MAX_FEATURES];
    size_t ref_n;
    double *x, *y;        /* [n * dim], [n] */
    size_t n;
    uint64_t games;
    bool logistic;
    nk_tune_fit *fit;
    unsigned done;        /* records made */
    bool finished;
    nk_tune_record rec;
    bool has_rec;
    nk_tune_shape shape;
};

/* Sample the live position pos when the database holds it. */
static void take(nk_tune *t, const nk_pos *pos)
{
    uint8_t byte;
    int theirs;
    if (nk_pos_on_board(pos) > t->tb->seeds || nk_tb_probe_pair(t->tb, pos, &byte, &theirs) != NK_OK)
        return;
    const int mine = byte & NK_TB_VALUE_MASK, me = pos->side;
    if (t->logistic)
        t->y[t->n] = (nk_tb_outcome(t->tb, pos, mine, theirs) + 1) / 2.0;
    else
        t->y[t->n] = (pos->store[me] + mine) - (pos->store[1 - me] + theirs);
    t->model.phi(t->model.ctx, t->variant, pos, t->x + t->n * t->model.dim);
    t->n++;
}

/* The positions: tune.h says how they are drawn. */
static nk_status draw_positions(nk_tune *t, char *err, size_t len)
{
    const size_t want = (size_t)t->s.tune.positions;
    const uint64_t max_games = 100 * (uint64_t)want + 100;
    char e2[NK_MSG_MAX];
    nk_player *ref = NULL;
    nk_game *g = nk_malloc(sizeof *g);
    t->x = nk_malloc(want * t->model.dim * sizeof *t->x);
    t->y = nk_malloc(want * sizeof *t->y);
    if (g == NULL || t->x == NULL || t->y == NULL) {
        nk_free(g);
        return nk_fail(NK_ENOMEM, err, len, "out of memory for %zu positions", want);
    }
    nk_status st = nk_player_new(&ref, &t->ref, t->variant, t->ref_n ? t->ref_w : NULL, t->ref_n,
                                 e2, sizeof e2);
    if (st != NK_OK) {
        nk_free(g);
        return nk_fail(st, err, len, "tune.reference: %s", e2);
    }
    for (uint64_t k = 0; t->n < want && k < max_games; k++) {
        nk_rng rng = {nk_seed_mix(t->s.experiment.seed, k, NK_TUNE_STREAM_GAMES)};
        nk_pos start;
        nk_pos_start(&start, NK_SOUTH);
        nk_game_init(g, t->variant, &start, NK_DEFAULT_PLY_LIMIT);
        t->games++;
        for (unsigned o = 0; o < NK_GRADE_OPENING && !nk_game_over(g); o++)
            nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
        while (!nk_game_over(g) && t->n < want) {
            take(t, &g->pos);
            int mv = nk_player_move(ref, g, &rng, NULL);
            if (mv == NK_NO_MOVE) /* a forfeit (search/ext.h): the next game */
                break;
            nk_game_play_legal(g, mv, NULL);
        }
    }
    nk_player_free(ref);
    nk_free(g);
    if (t->n < t->model.dim)
        return nk_fail(NK_ERANGE, err, len,
                       "tune.positions: %zu positions inside the database in %llu games, fewer "
                       "than the %zu weights",
                       t->n, (unsigned long long)t->games, t->model.dim);
    return NK_OK;
}

static nk_status make_tune(nk_tune *t, nk_evo_resolve resolve, char *err, size_t len)
{
    const nk_run_settings *r = &t->s;
    char e2[NK_MSG_MAX];
    t->variant = nk_variant_find(r->experiment.variant);
    if (t->variant == NULL)
        return nk_fail(NK_EINVAL, err, len, "experiment.variant: unknown variant '%s'",
                       r->experiment.variant);
    nk_status st = nk_tune_model_of(r, t->variant, &t->model, t->names, err, len);
    if (st != NK_OK)
        return st;
    if (nk_run_player_of(r, &t->player, err, len) != NK_OK)
        return NK_EINVAL;
    if (r->tune.tablebase[0] == '\0')
        return nk_fail(NK_EINVAL, err, len, "tune.tablebase: tuning needs a database");
    st = nk_tb_shared_open(r->tune.tablebase, t->variant, &t->tb, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "tune.tablebase: %s", e2);
    if (!nk_tb_holds_pattern(t->tb, 0))
        return nk_fail(NK_EINVAL, err, len,
                       "tune.tablebase: the database of %s in '%s' does not hold ownership "
                       "pattern 0 (the default rows), where the games start",
                       t->variant->name, r->tune.tablebase);
    st = resolve != NULL
             ? resolve(r->tune.reference, t->variant, &t->ref, t->ref_w, &t->ref_n, e2, sizeof e2)
             : nk_spec_parse(&t->ref, r->tune.reference, e2, sizeof e2);
    if (st == NK_OK && (t->ref.kind == NK_PLAYER_HUMAN || t->ref.kind == NK_PLAYER_EXT))
        st = nk_fail(NK_EINVAL, e2, sizeof e2, "'%s' is not a player of nickar's own",
                     r->tune.reference);
    if (st != NK_OK)
        return nk_fail(st, err, len, "tune.reference: %s", e2);
    t->logistic = strcmp(r->tune.loss, "logistic") == 0;
    st = draw_positions(t, err, len);
    if (st == NK_OK)
        st = nk_tune_fit_alloc(&t->fit, t->logistic, t->x, t->y, t->n, t->model.dim,
                               (unsigned)r->tune.iterations, err, len);
    return st;
}

nk_status nk_tune_alloc(nk_tune **out, const nk_run_settings *s, nk_evo_resolve resolve,
                        int threads, char *err, size_t len)
{
    nk_tune *t = nk_calloc(1, sizeof *t);
    *out = NULL;
    if (t == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    t->s = *s;
    nk_status st = make_tune(t, resolve, err, len);
    if (st != NK_OK) {
        nk_tune_free(t);
        return st;
    }
    t->shape = (nk_tune_shape){
        .model = &t->model,
        .variant = t->variant->name,
        .seed = s->experiment.seed,
        .method = t->logistic ? "tune-logistic" : "tune-least-squares",
        .positions = t->n,
        .games = t->games,
        .threads = threads > 0 ? threads : omp_get_max_threads(),
    };
    *out = t;
    return NK_OK;
}

/* The grade of the run's player with weights w into the record. */
static nk_status grade(const nk_tune *t, nk_tune_record *r, char *err, size_t len)
{
    char e2[NK_MSG_MAX];
    nk_grade gr;
    nk_schedule_grading g = {
        .tb = t->tb,
        .variant = t->variant,
        .spec = &t->player.spec,
        .reference = &t->ref,
        .reference_w = t->ref_n ? t->ref_w : NULL,
        .reference_n = t->ref_n,
        .positions = (uint64_t)t->s.tune.grade_positions,
        .seed = nk_seed_mix(t->s.experiment.seed, NK_TUNE_STREAM_GRADE, 0),
    };
    nk_status st = nk_schedule_grade_one(&g, r->w, t->model.dim, &gr, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "grading: %s", e2);
    nk_grade_summary(&gr, r->share, r->lost);
    r->stats.tb_positions = (int64_t)gr.positions;
    r->stats.tb_optimal = r->share[0];
    r->stats.tb_seeds_lost = r->lost[0];
    r->graded = true;
    return NK_OK;
}

nk_status nk_tune_iterate(nk_tune *t, char *err, size_t len)
{
    t->has_rec = false;
    if (t->finished)
        return nk_fail(NK_EINVAL, err, len, "the tuning is complete (%u records)", t->done);
    nk_status st = t->done == 0 ? NK_OK : nk_tune_fit_iterate(t->fit, err, len);
    if (st != NK_OK)
        return st;
    nk_tune_record *r = &t->rec;
    memset(r, 0, sizeof *r);
    r->iteration = t->done;
    r->w = nk_tune_fit_weights(t->fit, &r->cost);
    r->fitness = -r->cost;
    r->stats = (nk_run_stats){.generation = (int32_t)t->done,
                              .games = t->done == 0 ? (int64_t)t->games : 0,
                              .evaluations = (int64_t)t->n,
                              .best = r->fitness,
                              .mean = r->fitness,
                              .median = r->fitness,
                              .worst = r->fitness};
    bool last = t->done > 0 && nk_tune_fit_done(t->fit);
    if (t->done == 0 || last) {
        st = grade(t, r, err, len);
        if (st != NK_OK)
            return st;
    }
    t->done++;
    t->finished = last;
    t->has_rec = true;
    return NK_OK;
}

const nk_tune_record *nk_tune_record_of(const nk_tune *t)
{
    return t->has_rec ? &t->rec : NULL;
}

bool nk_tune_done(const nk_tune *t)
{
    return t->finished;
}

const nk_tune_shape *nk_tune_shape_of(const nk_tune *t)
{
    return &t->shape;
}

const double *nk_tune_sample(const nk_tune *t, size_t i, double *label)
{
    *label = t->y[i];
    return t->x + i * t->model.dim;
}

void nk_tune_free(nk_tune *t)
{
    if (t == NULL)
        return;
    nk_tune_fit_free(t->fit);
    nk_free(t->x);
    nk_free(t->y);
    nk_free(t);
}
