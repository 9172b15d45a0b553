/*
 * td.c -- self-play TD(lambda) / TD-Leaf(lambda) learning (see td.h).
 *
 * Invariants: the learner's weights (t->w) change only between batches,
 * in game order; a game reads only its index, the weights before its
 * batch and the settings, so the thread that plays it and the batches
 * before a resume change nothing.  Every value of a game is from South's
 * view (td.h), so a trace needs no sign flips.  A worker (one per thread)
 * owns its search, trace, gradient and games; nothing is allocated per
 * position (a trace's store grows by doubling and is kept).
 */
#include "run/td.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#include "base/alloc.h"
#include "base/rng.h"
#include "run/benchmark.h"
#include "search/eval.h"

/* ===== one episode's update ===== */

nk_status nk_td_trace_alloc(nk_td_trace *t, size_t dim)
{
    memset(t, 0, sizeof *t);
    t->dim = dim;
    t->dw = nk_calloc(dim ? dim : 1, sizeof *t->dw);
    t->first = nk_calloc(1, sizeof *t->first);
    return t->dw == NULL || t->first == NULL ? NK_ENOMEM : NK_OK;
}

void nk_td_trace_free(nk_td_trace *t)
{
    nk_free(t->dw);
    nk_free(t->y);
    nk_free(t->first);
    nk_free(t->idx);
    nk_free(t->val);
    memset(t, 0, sizeof *t);
}

void nk_td_trace_begin(nk_td_trace *t, double lambda)
{
    t->lambda = lambda;
    t->n = t->entries = 0;
    t->first[0] = 0;
}

/* Room for one more position of n entries. */
static nk_status trace_room(nk_td_trace *t, size_t n)
{
    if (t->n + 1 > t->cap_n) {
        size_t cap = t->cap_n ? 2 * t->cap_n : 256;
        double *y = nk_realloc(t->y, cap * sizeof *y);
        if (y != NULL)
            t->y = y;
        size_t *first = nk_realloc(t->first, (cap + 1) * sizeof *first);
        if (first != NULL)
            t->first = first;
        if (y == NULL || first == NULL)
            return NK_ENOMEM;
        t->cap_n = cap;
    }
    if (t->entries + n > t->cap_entries) {
        size_t cap = t->cap_entries ? 2 * t->cap_entries : 1024;
        while (cap < t->entries + n)
            cap *= 2;
        uint32_t *idx = nk_realloc(t->idx, cap * sizeof *idx);
        if (idx != NULL)
            t->idx = idx;
        double *val = nk_realloc(t->val, cap * sizeof *val);
        if (val != NULL)
            t->val = val;
        if (idx == NULL || val == NULL)
            return NK_ENOMEM;
        t->cap_entries = cap;
    }
    return NK_OK;
}

nk_status nk_td_trace_step(nk_td_trace *t, double y, const uint32_t *idx, const double *val,
                           size_t n)
{
    if (trace_room(t, n) != NK_OK)
        return NK_ENOMEM;
    t->y[t->n] = y;
    if (n > 0) {
        memcpy(t->idx + t->entries, idx, n * sizeof *idx);
        memcpy(t->val + t->entries, val, n * sizeof *val);
    }
    t->entries += n;
    t->first[++t->n] = t->entries;
    return NK_OK;
}

void nk_td_trace_end(nk_td_trace *t, double z)
{
    memset(t->dw, 0, t->dim * sizeof *t->dw);
    t->sq = 0;
    t->steps = t->n;
    double G = 0, next = z;
    for (size_t k = t->n; k-- > 0;) {
        const double d = next - t->y[k];
        t->sq += d * d;
        G = d + t->lambda * G;
        for (size_t e = t->first[k]; e < t->first[k + 1]; e++)
            t->dw[t->idx[e]] += G * t->val[e];
        next = t->y[k];
    }
}

/* ===== the principal variation's leaf ===== */

void nk_td_leaf(nk_search *s, const nk_game *g, unsigned depth, nk_game *leaf, int *move)
{
    nk_game_fork(leaf, g);
    *move = NK_NO_MOVE;
    for (unsigned d = depth; d >= 1 && !nk_game_over(leaf); d--) {
        nk_search_limits lim = {.depth = d};
        nk_search_result r;
        nk_search_best(s, leaf, &lim, &r);
        if (d == depth)
            *move = r.move;
        nk_game_play_legal(leaf, r.move, NULL);
    }
}

/* ===== the learning run ===== */

/* A benchmark opponent as resolved. */
typedef struct td_player {
    nk_spec spec;
    double weights[NK_MAX_FEATURES];
    size_t n;
} td_player;

/* What one thread plays with. */
typedef struct td_worker {
    nk_search *search; /* over the batch's weights */
    nk_td_trace trace;
    uint32_t *idx;     /* [dim] a gradient's entries */
    double *val;       /* [dim] */
    nk_game *game, *leaf;
} td_worker;

/* What one game of a batch gives. */
typedef struct td_game {
    nk_status st;
    int winner;
    double sq;
    size_t steps;
} td_game;

struct nk_td {
    nk_run_settings s;
    const nk_variant *variant;
    nk_run_player player;
    char features[NK_SPEC_TEXT]; /* the evaluation's text (player.features) */
    size_t dim;
    double *w;                   /* [dim] the learner's weights */
    char *name_text;             /* the names of the weights, NUL-separated */
    const char **names;          /* [dim] into name_text */
    td_player bench[NK_EVO_MAX_SPECS];
    nk_exec_player bench_x[NK_EVO_MAX_SPECS];
    size_t nbench;
    int threads;
    td_worker *workers;          /* [threads] */
    double *dws;                 /* [batch * dim] the batch's updates */
    td_game *games;              /* [batch] */
    unsigned done;               /* generations */
    double *champ;               /* [1 + dim] */
    nk_run_bench rows[NK_EVO_MAX_SPECS];
    nk_td_record rec;
    bool has_rec;
    nk_td_shape shape;
};

/* The names of the weights: a linear set's features; for another family
 * "w<i>", and for the n-tuple family "store" then "<pits>:<entry>" per
 * table entry (ntuple.h: tables in layout order, entries in index
 * order). */
static nk_status make_names(nk_td *t, const nk_eval *e, char *err, size_t len)
{
    enum { NAME_MAX = 48 };
    t->names = nk_calloc(t->dim, sizeof *t->names);
    t->name_text = nk_malloc(t->dim * NAME_MAX);
    if (t->names == NULL || t->name_text == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory for %zu names", t->dim);
    for (size_t i = 0; i < t->dim; i++) {
        char *name = t->name_text + i * NAME_MAX;
        t->names[i] = name;
        if (e->nt == NULL && e->set->features != NULL) {
            snprintf(name, NAME_MAX, "%s", e->set->features[i].name);
        } else if (e->nt != NULL && i == 0) {
            snprintf(name, NAME_MAX, "store");
        } else if (e->nt != NULL) {
            size_t k = e->nt->ntuples - 1;
            while (e->nt->t[k].offset > i)
                k--;
            char pits[24];
            nk_ntuple_tuple_text(e->nt, k, pits, sizeof pits);
            snprintf(name, NAME_MAX, "%s:%zu", pits, i - e->nt->t[k].offset);
        } else {
            snprintf(name, NAME_MAX, "w%zu", i);
        }
    }
    return NK_OK;
}

/* benchmark.opponents, resolved (each spec short enough for a row). */
static nk_status make_bench(nk_td *t, nk_evo_resolve resolve, char *err, size_t len)
{
    char list[NK_EVO_LIST_MAX], e2[NK_MSG_MAX], *save = NULL;
    const char *key = "benchmark.opponents";
    if (snprintf(list, sizeof list, "%s", t->s.benchmark.opponents) >= (int)sizeof list)
        return nk_fail(NK_ERANGE, err, len, "%s: list too long", key);
    for (char *tok = strtok_r(list, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        tok += strspn(tok, " \t");
        for (char *end = tok + strlen(tok); end > tok && (end[-1] == ' ' || end[-1] == '\t');)
            *--end = '\0';
        if (*tok == '\0')
            continue;
        if (t->nbench == NK_EVO_MAX_SPECS)
            return nk_fail(NK_ERANGE, err, len, "%s: more than %d players", key, NK_EVO_MAX_SPECS);
        td_player *p = &t->bench[t->nbench];
        nk_status st = resolve != NULL
                           ? resolve(tok, t->variant, &p->spec, p->weights, &p->n, e2, sizeof e2)
                           : nk_spec_parse(&p->spec, tok, e2, sizeof e2);
        if (st == NK_OK && (p->spec.kind == NK_PLAYER_HUMAN))
            st = nk_fail(NK_EINVAL, e2, sizeof e2, "a human cannot play in a learning run");
        if (st == NK_OK && strlen(p->spec.text) >= NK_RUN_OPPONENT_LEN)
            st = nk_fail(NK_ERANGE, e2, sizeof e2, "spec '%s' is longer than %d characters",
                         p->spec.text, NK_RUN_OPPONENT_LEN - 1);
        if (st != NK_OK)
            return nk_fail(st, err, len, "%s: %s", key, e2);
        t->bench_x[t->nbench++] = (nk_exec_player){&p->spec, p->n ? p->weights : NULL, p->n};
    }
    return NK_OK;
}

/* The learner's evaluation, its weights and their names. */
static nk_status make_learner(nk_td *t, char *err, size_t len)
{
    const nk_run_settings *r = &t->s;
    char e2[NK_MSG_MAX], name[NK_SPEC_TEXT];
    nk_status st = nk_eval_features_check(r->player.features, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "player.features: %s", e2);
    st = nk_run_player_of(r, &t->player, err, len);
    if (st != NK_OK)
        return st;
    if (strcmp(t->player.spec.view, "mover") != 0)
        return nk_fail(NK_EINVAL, err, len,
                       "player.view: TD learning needs view = mover (values from the side to "
                       "move's view), not '%s'",
                       t->player.spec.view);
    snprintf(t->features, sizeof t->features, "%s", t->player.spec.features);
    st = nk_eval_features_count(t->features, t->variant, &t->dim, name, sizeof name, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "player.features: %s", e2);
    nk_eval e;
    st = nk_eval_setup(&e, t->variant, t->features, NULL, 0, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "player.features: %s", e2);
    const double *w0;
    t->w = nk_calloc(t->dim, sizeof *t->w);
    t->champ = nk_calloc(1 + t->dim, sizeof *t->champ);
    if (t->w == NULL || t->champ == NULL)
        st = nk_fail(NK_ENOMEM, err, len, "out of memory for %zu weights", t->dim);
    else if (e.nn != NULL && strcmp(r->td.start, "zero") == 0)
        /* every weight 0: each hidden unit's output and output weight are
         * 0, so no gradient ever reaches the hidden layer */
        st = nk_fail(NK_EINVAL, err, len,
                     "td.start = zero leaves a network's hidden layer without a gradient "
                     "(every weight 0): use td.start = defaults");
    else if (strcmp(r->td.start, "defaults") == 0) {
        nk_eval_weights(&e, &w0);
        memcpy(t->w, w0, t->dim * sizeof *t->w);
    }
    if (st == NK_OK && e.nt != NULL)
        snprintf(t->features, sizeof t->features, "%s", e.nt->text);
    if (st == NK_OK)
        st = make_names(t, &e, err, len);
    nk_eval_free(&e);
    return st;
}

/* One worker per thread, and the batch's buffers. */
static nk_status make_workers(nk_td *t, char *err, size_t len)
{
    const size_t batch = (size_t)t->s.td.batch;
    t->workers = nk_calloc((size_t)t->threads, sizeof *t->workers);
    t->dws = nk_malloc(batch * t->dim * sizeof *t->dws);
    t->games = nk_calloc(batch, sizeof *t->games);
    if (t->workers == NULL || t->dws == NULL || t->games == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory for a batch of %zu games", batch);
    for (int i = 0; i < t->threads; i++) {
        td_worker *wk = &t->workers[i];
        wk->idx = nk_malloc(t->dim * sizeof *wk->idx);
        wk->val = nk_malloc(t->dim * sizeof *wk->val);
        wk->game = nk_malloc(sizeof *wk->game);
        wk->leaf = nk_malloc(sizeof *wk->leaf);
        if (wk->idx == NULL || wk->val == NULL || wk->game == NULL || wk->leaf == NULL ||
            nk_td_trace_alloc(&wk->trace, t->dim) != NK_OK)
            return nk_fail(NK_ENOMEM, err, len, "out of memory for thread %d", i);
    }
    return NK_OK;
}

static nk_status make_td(nk_td *t, nk_evo_resolve resolve, char *err, size_t len)
{
    const nk_run_settings *r = &t->s;
    t->variant = nk_variant_find(r->experiment.variant);
    if (t->variant == NULL)
        return nk_fail(NK_EINVAL, err, len, "experiment.variant: unknown variant '%s'",
                       r->experiment.variant);
    if (r->benchmark.tablebase[0] != '\0')
        return nk_fail(NK_EINVAL, err, len,
                       "benchmark.tablebase: a learning run does not grade its champion (grade "
                       "RUN.h5@gen=G with nickar grade)");
    if (!(r->td.alpha > 0) || !isfinite(r->td.alpha))
        return nk_fail(NK_ERANGE, err, len, "td.alpha: %g is not a positive rate", r->td.alpha);
    if (r->td.lambda < 0 || r->td.lambda > 1)
        return nk_fail(NK_ERANGE, err, len, "td.lambda: %g is not in [0, 1]", r->td.lambda);
    if (r->benchmark.games % 2)
        return nk_fail(NK_ERANGE, err, len,
                       "benchmark.games: %d is odd (games come in colour-swapped pairs)",
                       r->benchmark.games);
    nk_status st = make_learner(t, err, len);
    if (st == NK_OK)
        st = make_bench(t, resolve, err, len);
    if (st == NK_OK)
        st = make_workers(t, err, len);
    return st;
}

nk_status nk_td_alloc(nk_td **out, const nk_run_settings *s, nk_evo_resolve resolve, int threads,
                      char *err, size_t len)
{
    nk_td *t = nk_calloc(1, sizeof *t);
    *out = NULL;
    if (t == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    t->s = *s;
    t->threads = threads > 0 ? threads : omp_get_max_threads();
    nk_status st = make_td(t, resolve, err, len);
    if (st != NK_OK) {
        nk_td_free(t);
        return st;
    }
    t->shape = (nk_td_shape){
        .variant = t->variant->name,
        .seed = s->experiment.seed,
        .features = t->features,
        .names = t->names,
        .method = s->td.leaf ? "td-leaf" : "td-lambda",
        .dim = t->dim,
        .threads = t->threads,
        .generations = (unsigned)s->experiment.generations,
    };
    *out = t;
    return NK_OK;
}

nk_status nk_td_restore(nk_td *t, const nk_td_checkpoint *c, char *err, size_t len)
{
    if (c->done == 0) {
        t->done = 0;
        return NK_OK;
    }
    if (c->n != t->dim)
        return nk_fail(NK_EFORMAT, err, len, "the checkpoint holds %zu weights, the run %zu", c->n,
                       t->dim);
    for (size_t j = 0; j < c->n; j++)
        if (!isfinite(c->w[j]))
            return nk_fail(NK_EFORMAT, err, len, "checkpoint weight %zu is not finite", j + 1);
    memcpy(t->w, c->w, t->dim * sizeof *t->w);
    t->done = c->done;
    return NK_OK;
}

/* ===== one game ===== */

/* The exact value of the ended game g from South's view (td.h). */
static double result_value(const nk_td *t, const nk_game *g)
{
    if (strcmp(t->s.td.squash, "tanh") == 0)
        return g->result.winner == NK_SOUTH ? 1.0 : g->result.winner == NK_NORTH ? -1.0 : 0.0;
    double v = nk_eval_terminal(t->variant, &g->pos, g->result.reason) / NK_SCORE_SEED;
    return g->pos.side == NK_SOUTH ? v : -v;
}

/* y(pos) from South's view, and its gradient's *n entries into idx, val
 * (td.h). */
static double value_of(const nk_td *t, const nk_eval *e, const nk_pos *pos, uint32_t *idx,
                       double *val, size_t *n)
{
    const double s = pos->side == NK_SOUTH ? 1.0 : -1.0;
    double v = s * nk_eval_score(e, pos), y = v, dy = s;
    if (strcmp(t->s.td.squash, "tanh") == 0) {
        y = tanh(v / t->s.td.scale);
        dy = s * (1 - y * y) / t->s.td.scale;
    }
    *n = nk_eval_gradient_entries(e, pos, idx, val);
    for (size_t k = 0; k < *n; k++)
        val[k] *= dy;
    return y;
}

/* Game k of the run, with the batch's evaluation e, by worker wk: its
 * update into dw, its outcome into *out. */
static void play_game(const nk_td *t, td_worker *wk, const nk_eval *e, uint64_t k, double *dw,
                      td_game *out)
{
    const nk_run_settings *r = &t->s;
    nk_rng rng = {nk_seed_mix(r->experiment.seed, k, NK_TD_STREAM_GAMES)};
    nk_game *g = wk->game;
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    out->st = nk_game_init(g, t->variant, &start, t->player.ply_limit);
    if (out->st != NK_OK)
        return;
    for (int o = 0; o < r->td.openings && !nk_game_over(g); o++)
        nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
    nk_td_trace_begin(&wk->trace, r->td.lambda);
    const nk_search_limits lim = {.depth = (unsigned)r->player.depth};
    while (!nk_game_over(g)) {
        int best;
        const nk_game *at = g; /* the position whose value is learnt */
        if (r->td.leaf) {
            nk_td_leaf(wk->search, g, lim.depth, wk->leaf, &best);
            at = wk->leaf;
        } else {
            nk_search_result res;
            nk_search_best(wk->search, g, &lim, &res);
            best = res.move;
        }
        size_t n = 0;
        double y = nk_game_over(at) ? result_value(t, at)
                                    : value_of(t, e, &at->pos, wk->idx, wk->val, &n);
        if (nk_td_trace_step(&wk->trace, y, wk->idx, wk->val, n) != NK_OK) {
            out->st = NK_ENOMEM;
            return;
        }
        double u = (double)(nk_rng_next(&rng) >> 11) * 0x1p-53;
        nk_game_play_legal(g, u < r->td.epsilon ? nk_random_move(g, &rng) : best, NULL);
    }
    nk_td_trace_end(&wk->trace, result_value(t, g));
    memcpy(dw, wk->trace.dw, t->dim * sizeof *dw);
    out->winner = g->result.winner;
    out->sq = wk->trace.sq;
    out->steps = wk->trace.steps;
}

/* ===== one generation ===== */

/* The rate of game k. */
static double alpha_of(const nk_td *t, uint64_t k)
{
    if (strcmp(t->s.td.alpha_schedule, "inverse") == 0)
        return t->s.td.alpha / (1.0 + (double)k / (double)t->s.td.alpha_games);
    return t->s.td.alpha;
}

/* Plays games first .. first + n - 1 with the weights as they are, then
 * adds their updates in order. */
static nk_status play_batch(nk_td *t, uint64_t first, size_t n, char *err, size_t len)
{
    char e2[NK_MSG_MAX];
    nk_eval e;
    nk_status st = nk_eval_setup(&e, t->variant, t->features, t->w, t->dim, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "player.features: %s", e2);
    const unsigned tt = (unsigned)t->s.player.tt;
#pragma omp parallel num_threads(t->threads)
    {
        td_worker *wk = &t->workers[omp_get_thread_num()];
        nk_status mine = nk_search_new(&wk->search, &e, tt);
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < n; i++) {
            t->games[i].st = mine;
            if (mine == NK_OK)
                play_game(t, wk, &e, first + i, t->dws + i * t->dim, &t->games[i]);
        }
        nk_search_free(wk->search);
        wk->search = NULL;
    }
    nk_eval_free(&e);
    for (size_t i = 0; i < n; i++)
        if (t->games[i].st != NK_OK)
            return nk_fail(t->games[i].st, err, len, "game %llu: %s",
                           (unsigned long long)(first + i + 1), nk_strerror(t->games[i].st));
    for (size_t i = 0; i < n; i++) {
        const double a = alpha_of(t, first + i), *dw = t->dws + i * t->dim;
        for (size_t j = 0; j < t->dim; j++)
            t->w[j] += a * dw[j];
    }
    for (size_t j = 0; j < t->dim; j++)
        if (!isfinite(t->w[j]))
            return nk_fail(NK_ERANGE, err, len,
                           "td.alpha: the weights are no longer finite numbers after game %llu "
                           "(a smaller rate, td.alpha = %g now, keeps them so)",
                           (unsigned long long)(first + n), t->s.td.alpha);
    return NK_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The generation's games: their updates, outcomes and squared errors. */
static nk_status play_generation(nk_td *t, unsigned g, nk_td_record *r, char *err, size_t len)
{
    const uint64_t per = (uint64_t)t->s.td.games, batch = (uint64_t)t->s.td.batch;
    double sq = 0;
    for (uint64_t done = 0; done < per;) {
        size_t n = (size_t)(per - done < batch ? per - done : batch);
        nk_status st = play_batch(t, g * per + done, n, err, len);
        if (st != NK_OK)
            return st;
        for (size_t i = 0; i < n; i++) {
            const td_game *gm = &t->games[i];
            r->south_wins += gm->winner == NK_SOUTH;
            r->north_wins += gm->winner == NK_NORTH;
            r->draws += gm->winner != NK_SOUTH && gm->winner != NK_NORTH;
            sq += gm->sq;
            r->positions += gm->steps;
        }
        done += n;
    }
    r->wins = r->losses = (int32_t)(r->south_wins + r->north_wins);
    r->fitness = r->positions ? -sq / (double)r->positions : 0.0;
    return NK_OK;
}

nk_status nk_td_iterate(nk_td *t, char *err, size_t len)
{
    const unsigned g = t->done;
    double t0 = now_seconds();
    nk_td_record *r = &t->rec;
    t->has_rec = false;
    if (nk_td_done(t))
        return nk_fail(NK_EINVAL, err, len, "the run is complete (%u generations)", g);
    memset(r, 0, sizeof *r);
    nk_status st = play_generation(t, g, r, err, len);
    const unsigned gens = (unsigned)t->s.experiment.generations;
    r->benchmarked = st == NK_OK && t->nbench > 0 &&
                     nk_benchmark_due((unsigned)t->s.benchmark.every, g, gens);
    if (r->benchmarked) {
        nk_benchmark b = {.variant = t->variant,
                          .ply_limit = t->player.ply_limit,
                          .master = t->s.experiment.seed,
                          .opening = (unsigned)t->s.fitness.openings,
                          .threads = t->threads,
                          .games = (unsigned)t->s.benchmark.games,
                          .opponents = t->bench_x,
                          .n = t->nbench};
        nk_exec_player champ = {&t->player.spec, t->w, t->dim};
        st = nk_benchmark_play(&b, &champ, g, t->rows, &r->n_bench, err, len);
    }
    if (st != NK_OK)
        return st;
    double sum = 0;
    for (size_t k = 0; k < r->n_bench; k++)
        sum += t->rows[k].score;
    const double play = now_seconds() - t0;
    r->generation = g;
    r->w = t->w;
    r->bench = t->rows;
    r->benchmark_score = r->n_bench ? sum / (double)r->n_bench : 0;
    r->stats = (nk_run_stats){.generation = (int32_t)g,
                              .games = t->s.td.games,
                              .evaluations = (int64_t)((g + 1) * (uint64_t)t->s.td.games),
                              .best = r->fitness,
                              .mean = r->fitness,
                              .median = r->fitness,
                              .worst = r->fitness,
                              .wall_seconds = play,
                              .play_seconds = play};
    t->champ[0] = (double)g;
    memcpy(t->champ + 1, t->w, t->dim * sizeof *t->w);
    r->champion = t->champ;
    t->done = g + 1;
    t->has_rec = true;
    return NK_OK;
}

const nk_td_record *nk_td_record_of(const nk_td *t)
{
    return t->has_rec ? &t->rec : NULL;
}

unsigned nk_td_generation(const nk_td *t)
{
    return t->done;
}

bool nk_td_done(const nk_td *t)
{
    return t->done >= (unsigned)t->s.experiment.generations;
}

const nk_td_shape *nk_td_shape_of(const nk_td *t)
{
    return &t->shape;
}

const double *nk_td_weights(const nk_td *t)
{
    return t->w;
}

void nk_td_free(nk_td *t)
{
    if (t == NULL)
        return;
    for (int i = 0; t->workers != NULL && i < t->threads; i++) {
        td_worker *wk = &t->workers[i];
        nk_search_free(wk->search);
        nk_td_trace_free(&wk->trace);
        nk_free(wk->idx);
        nk_free(wk->val);
        nk_free(wk->game);
        nk_free(wk->leaf);
    }
    nk_free(t->workers);
    nk_free(t->dws);
    nk_free(t->games);
    nk_free(t->w);
    nk_free(t->champ);
    nk_free(t->names);
    nk_free(t->name_text);
    nk_free(t);
}
