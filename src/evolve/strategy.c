/*
 * strategy.c -- what all strategies share: allocation, the ask / tell
 * protocol, ids and the best-ever record, and the saved state.
 *
 * Saved state, a flat array of doubles (version 1):
 *
 *   header   magic, version, type code, D, N, nbits, has sigma,
 *            generation, next id, evaluations, best fitness, best id
 *   best     [D] weights of the best ever told
 *   pop      the last told population: fitness [N], id [N], parents [2N],
 *            w [N D], sigma [N D] (if any), bits [N nbits] (if binary)
 *   type     what the type keeps besides (cma-es: its distribution)
 *
 * Loading checks everything before changing anything.
 */
#include "evolve/strategy_impl.h"
#include "base/names.h"
#include "base/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HEADER = 12, STATE_VERSION = 1 };
static const double state_magic = 1852535668.0; /* "nkst" read as a big-endian integer */

/* ===================================================================
 * The list of strategies
 * =================================================================== */

static const nk_strategy_type *const strategy_list[] = {
    &nk_strategy_ga, &nk_strategy_es_plus, &nk_strategy_es_comma, &nk_strategy_cma_es,
    &nk_strategy_sep_cma_es, &nk_strategy_openai_es, NULL};

const nk_strategy_type *const *nk_strategy_types(void)
{
    return strategy_list;
}

const nk_strategy_type *nk_strategy_find(const char *name)
{
    return nk_names_find(NK_NAMES_PTRS(strategy_list), name);
}

const char *nk_strategy_name_at(size_t i)
{
    return nk_names_at(NK_NAMES_PTRS(strategy_list), i);
}

char *nk_strategy_names(char *buf, size_t len)
{
    return nk_names_join(NK_NAMES_PTRS(strategy_list), buf, len);
}

void nk_strategy_params_init(nk_strategy_params *p, const nk_strategy_type *t,
                             nk_encoding encoding)
{
    memset(p, 0, sizeof *p);
    nk_select_params_init(&p->select_par);
    nk_cross_params_init(&p->cross_par);
    nk_mutate_params_init(&p->mutate_par);
    p->select = &nk_select_tournament;
    p->cross = &nk_cross_uniform;
    p->mutate = encoding == NK_ENC_BINARY ? &nk_mutate_bit_flip : &nk_mutate_gaussian;
    if (encoding == NK_ENC_BINARY)
        p->mutate_par.rate = -1.0; /* bit-flip: 1/n per bit (the table's rate is per weight) */
    p->sigma0 = 0.1;
    if (t == &nk_strategy_ga) {
        p->size = 50;
        p->elite = 1;
    } else if (t == &nk_strategy_es_plus || t == &nk_strategy_es_comma) {
        p->size = 35;
        p->mu = 5;
        p->cross = &nk_cross_none;
        if (encoding == NK_ENC_REAL) {
            p->mutate = &nk_mutate_lognormal;
            p->mutate_par.rate = 1.0;
        }
    } else if (t == &nk_strategy_cma_es || t == &nk_strategy_sep_cma_es) {
        p->sigma0 = 0.3;
    } else if (t == &nk_strategy_openai_es) {
        p->sigma0 = 0.05;
        p->optimizer = NK_OPTIMIZER_ADAM;
        p->learning_rate = 0.01;
    }
}

/* ===================================================================
 * Allocation
 * =================================================================== */

nk_status nk_strategy_alloc(nk_strategy **out, const nk_strategy_type *t,
                            const nk_genome *g, const nk_strategy_params *p,
                            char *err, size_t errlen)
{
    *out = NULL;
    if (t == NULL || g == NULL || p == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "strategy, genome and parameters are required");
    if (t->max_dim > 0 && g->dim > t->max_dim)
        return nk_fail(NK_ERANGE, err, errlen,
                       "%s takes at most %zu weights, not %zu (use sep-cma-es or openai-es)",
                       t->name, t->max_dim, g->dim);
    nk_strategy *s = nk_calloc(1, sizeof *s);
    if (s == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a strategy");
    s->type = t;
    s->genome = g;
    s->par = *p;
    s->par.x0 = NULL;
    s->best_fitness = -INFINITY;
    s->best_id = -1;
    nk_status st = NK_OK;
    if (p->x0) {
        if ((s->x0 = nk_malloc(g->dim * sizeof *s->x0)) == NULL)
            st = nk_fail(NK_ENOMEM, err, errlen, "out of memory for a strategy");
        else {
            memcpy(s->x0, p->x0, g->dim * sizeof *s->x0);
            s->par.x0 = s->x0;
        }
    }
    if (st == NK_OK)
        st = t->init(s, err, errlen); /* sets n, mu, with_sigma */
    if (st == NK_OK) {
        nk_status a = nk_pop_alloc(&s->cur, g, s->n, s->with_sigma, err, errlen);
        if (a == NK_OK)
            a = nk_pop_alloc(&s->next, g, s->n, s->with_sigma, err, errlen);
        if (a == NK_OK)
            a = nk_pop_alloc(&s->pair, g, 2, s->with_sigma, err, errlen);
        s->idx = nk_malloc(2 * s->n * sizeof *s->idx);
        s->best_w = nk_calloc(g->dim, sizeof *s->best_w);
        if (a == NK_OK && (s->idx == NULL || s->best_w == NULL))
            a = NK_ENOMEM;
        if (a != NK_OK)
            st = nk_fail(a, err, errlen, "out of memory for a population of %zu", s->n);
    }
    if (st != NK_OK) {
        nk_strategy_free(s);
        return st;
    }
    *out = s;
    return NK_OK;
}

void nk_strategy_free(nk_strategy *s)
{
    if (s == NULL)
        return;
    s->type->release(s);
    nk_pop_free(s->cur);
    nk_pop_free(s->next);
    nk_pop_free(s->pair);
    nk_free(s->idx);
    nk_free(s->best_w);
    nk_free(s->x0);
    nk_free(s);
}

const nk_strategy_type *nk_strategy_type_of(const nk_strategy *s)
{
    return s->type;
}

size_t nk_strategy_size(const nk_strategy *s)
{
    return s->n;
}

/* ===================================================================
 * Ask and tell
 * =================================================================== */

void nk_strategy_mark_new(nk_strategy *s, nk_pop *pop, size_t i, int64_t a, int64_t b)
{
    pop->fitness[i] = NAN;
    pop->id[i] = nk_strategy_fresh_id(s);
    pop->parents[2 * i] = a;
    pop->parents[2 * i + 1] = b;
}

nk_status nk_strategy_ask(nk_strategy *s, gsl_rng *const *rng, size_t nrng,
                          const nk_pop **pop, char *err, size_t errlen)
{
    if (rng == NULL || nrng < s->n)
        return nk_fail(NK_EINVAL, err, errlen,
                       "%s needs %zu generators (one per individual), got %zu",
                       s->type->name, s->n, rng ? nrng : 0);
    for (size_t i = 0; i < s->n; i++)
        if (rng[i] == NULL)
            return nk_fail(NK_EINVAL, err, errlen, "generator %zu is missing", i);
    s->asked = false;
    s->pending_ids = 0;
    nk_status st = s->type->ask(s, rng, err, errlen);
    if (st != NK_OK)
        return st;
    s->asked = true;
    if (pop)
        *pop = s->next;
    return NK_OK;
}

static void record_best(nk_strategy *s)
{
    size_t b = nk_pop_best(s->cur);
    if (s->cur->fitness[b] > s->best_fitness) {
        s->best_fitness = s->cur->fitness[b];
        s->best_id = s->cur->id[b];
        memcpy(s->best_w, nk_pop_w(s->cur, b), s->genome->dim * sizeof *s->best_w);
    }
}

nk_status nk_strategy_tell(nk_strategy *s, const double *fitness, size_t n,
                           char *err, size_t errlen)
{
    if (!s->asked)
        return nk_fail(NK_EINVAL, err, errlen, "tell without a population asked");
    if (n != s->n)
        return nk_fail(NK_EINVAL, err, errlen, "%zu fitness values for a population of %zu",
                       n, s->n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(fitness[i]))
            return nk_fail(NK_EINVAL, err, errlen,
                           "fitness of individual %zu is %g, not a finite number", i, fitness[i]);
    memcpy(s->next->fitness, fitness, n * sizeof *fitness);
    nk_pop *t = s->cur;
    s->cur = s->next;
    s->next = t;
    s->asked = false;
    s->next_id += s->pending_ids;
    s->pending_ids = 0;
    s->evaluations += n;
    record_best(s);
    s->type->tell(s); /* sees generation = index of this generation */
    s->generation++;
    return NK_OK;
}

const nk_pop *nk_strategy_pop(const nk_strategy *s)
{
    return s->generation > 0 ? s->cur : NULL;
}

void nk_strategy_info_get(const nk_strategy *s, nk_strategy_info *info)
{
    memset(info, 0, sizeof *info);
    info->generation = s->generation;
    info->evaluations = s->evaluations;
    info->best_fitness = s->best_fitness;
    info->best_id = s->best_id;
    info->best_w = s->best_w;
    info->axis_ratio = 1.0;
    if (s->with_sigma && s->generation > 0) {
        double sum = 0;
        for (size_t i = 0; i < s->n; i++)
            for (size_t j = 0; j < s->genome->dim; j++)
                sum += nk_pop_sigma(s->cur, i)[j] / nk_genome_range(s->genome, j);
        info->sigma = sum / (double)(s->n * s->genome->dim);
    }
    if (s->type->info)
        s->type->info(s, info);
}

/* ===================================================================
 * Saved state
 * =================================================================== */

static size_t pop_doubles(const nk_strategy *s)
{
    size_t n = s->n, d = s->genome->dim;
    return 4 * n + n * d * (s->with_sigma ? 2 : 1) + n * s->cur->nbits;
}

size_t nk_strategy_state_size(const nk_strategy *s)
{
    return HEADER + s->genome->dim + pop_doubles(s) + s->type->state_size(s);
}

static double *put_pop(const nk_pop *p, double *o)
{
    size_t n = p->size, d = p->dim;
    for (size_t i = 0; i < n; i++)
        *o++ = p->fitness[i];
    for (size_t i = 0; i < n; i++)
        *o++ = (double)p->id[i];
    for (size_t i = 0; i < 2 * n; i++)
        *o++ = (double)p->parents[i];
    memcpy(o, p->w, n * d * sizeof *o);
    o += n * d;
    if (p->sigma) {
        memcpy(o, p->sigma, n * d * sizeof *o);
        o += n * d;
    }
    for (size_t i = 0; i < n * p->nbits; i++)
        *o++ = p->bits[i];
    return o;
}

void nk_strategy_save(const nk_strategy *s, double *state)
{
    double *o = state;
    *o++ = state_magic;
    *o++ = STATE_VERSION;
    *o++ = s->type->code;
    *o++ = (double)s->genome->dim;
    *o++ = (double)s->n;
    *o++ = (double)s->cur->nbits;
    *o++ = s->with_sigma;
    *o++ = (double)s->generation;
    *o++ = (double)s->next_id;
    *o++ = (double)s->evaluations;
    *o++ = s->best_fitness;
    *o++ = (double)s->best_id;
    memcpy(o, s->best_w, s->genome->dim * sizeof *o);
    o += s->genome->dim;
    o = put_pop(s->cur, o);
    s->type->save(s, o);
}

/* An integer-valued double in [lo, 2^53]. */
static bool is_count(double x, double lo)
{
    return x >= lo && x <= 9007199254740992.0 && x == floor(x);
}

static bool pop_ok(const nk_pop *p, const double *in)
{
    size_t n = p->size, d = p->dim;
    const double *fit = in, *id = in + n, *par = in + 2 * n, *w = in + 4 * n;
    for (size_t i = 0; i < n; i++)
        if (isinf(fit[i]) || !is_count(id[i], -1) || !is_count(par[2 * i], -1) ||
            !is_count(par[2 * i + 1], -1))
            return false;
    for (size_t i = 0; i < n * d * (p->sigma ? 2 : 1); i++)
        if (!isfinite(w[i]))
            return false;
    const double *bits = w + n * d * (p->sigma ? 2 : 1);
    for (size_t i = 0; i < n * p->nbits; i++)
        if (bits[i] != 0 && bits[i] != 1)
            return false;
    return true;
}

static void get_pop(nk_pop *p, const double *in)
{
    size_t n = p->size, d = p->dim;
    for (size_t i = 0; i < n; i++)
        p->fitness[i] = *in++;
    for (size_t i = 0; i < n; i++)
        p->id[i] = (int64_t)*in++;
    for (size_t i = 0; i < 2 * n; i++)
        p->parents[i] = (int64_t)*in++;
    memcpy(p->w, in, n * d * sizeof *in);
    in += n * d;
    if (p->sigma) {
        memcpy(p->sigma, in, n * d * sizeof *in);
        in += n * d;
    }
    for (size_t i = 0; i < n * p->nbits; i++)
        p->bits[i] = (unsigned char)*in++;
}

static nk_status check_header(const nk_strategy *s, const double *h, size_t n,
                              char *err, size_t errlen)
{
    if (n < HEADER || h[0] != state_magic)
        return nk_fail(NK_EFORMAT, err, errlen, "not a saved strategy state");
    if (h[1] != STATE_VERSION)
        return nk_fail(NK_EFORMAT, err, errlen, "strategy state version %g, expected %d",
                       h[1], STATE_VERSION);
    if (h[2] != s->type->code || h[3] != (double)s->genome->dim || h[4] != (double)s->n ||
        h[5] != (double)s->cur->nbits || h[6] != (double)s->with_sigma)
        return nk_fail(NK_EMISMATCH, err, errlen,
                       "strategy state of type %g, D %g, N %g, %g bits, sigma %g; "
                       "expected %d, %zu, %zu, %zu, %d",
                       h[2], h[3], h[4], h[5], h[6], s->type->code, s->genome->dim, s->n,
                       s->cur->nbits, (int)s->with_sigma);
    if (n != nk_strategy_state_size(s))
        return nk_fail(NK_EMISMATCH, err, errlen,
                       "strategy state of %zu numbers, expected %zu", n,
                       nk_strategy_state_size(s));
    if (!is_count(h[7], 0) || !is_count(h[8], 0) || !is_count(h[9], 0) ||
        isnan(h[10]) || (isinf(h[10]) && h[10] > 0) || !is_count(h[11], -1))
        return nk_fail(NK_EFORMAT, err, errlen, "damaged strategy state header");
    return NK_OK;
}

nk_status nk_strategy_load(nk_strategy *s, const double *state, size_t n,
                           char *err, size_t errlen)
{
    nk_status st = check_header(s, state, n, err, errlen);
    if (st != NK_OK)
        return st;
    size_t d = s->genome->dim;
    const double *best = state + HEADER, *pop = best + d;
    for (size_t i = 0; i < d; i++)
        if (!isfinite(best[i]))
            return nk_fail(NK_EFORMAT, err, errlen, "damaged strategy state (best weights)");
    if (!pop_ok(s->cur, pop))
        return nk_fail(NK_EFORMAT, err, errlen, "damaged strategy state (population)");
    st = s->type->load(s, pop + pop_doubles(s), err, errlen);
    if (st != NK_OK)
        return st;
    s->generation = (uint64_t)state[7];
    s->next_id = (int64_t)state[8];
    s->evaluations = (uint64_t)state[9];
    s->best_fitness = state[10];
    s->best_id = (int64_t)state[11];
    memcpy(s->best_w, best, d * sizeof *best);
    get_pop(s->cur, pop);
    s->asked = false;
    s->pending_ids = 0;
    return NK_OK;
}

/* ===================================================================
 * Hooks for types without state of their own
 * =================================================================== */

size_t nk_strategy_no_state_size(const nk_strategy *s)
{
    (void)s;
    return 0;
}

void nk_strategy_no_state_save(const nk_strategy *s, double *out)
{
    (void)s, (void)out;
}

nk_status nk_strategy_no_state_load(nk_strategy *s, const double *in, char *err,
                                    size_t errlen)
{
    (void)s, (void)in, (void)err, (void)errlen;
    return NK_OK;
}

void nk_strategy_no_release(nk_strategy *s)
{
    (void)s;
}

void nk_strategy_no_tell(nk_strategy *s)
{
    (void)s;
}

/* ===================================================================
 * Helpers of the types in normalised coordinates
 * =================================================================== */

nk_status nk_strategy_check_x0(const nk_strategy *s, char *err, size_t errlen)
{
    const nk_genome *g = s->genome;
    const double *x0 = s->par.x0;
    for (size_t i = 0; x0 && i < g->dim; i++)
        if (!(x0[i] >= g->lo[i] && x0[i] <= g->hi[i]))
            return nk_fail(NK_ERANGE, err, errlen,
                           "initial mean %g of weight %zu lies outside [%g, %g]", x0[i], i,
                           g->lo[i], g->hi[i]);
    return NK_OK;
}

void nk_strategy_unit_mean0(const nk_strategy *s, double *u)
{
    const nk_genome *g = s->genome;
    for (size_t i = 0; i < g->dim; i++)
        u[i] = s->par.x0 ? (s->par.x0[i] - g->lo[i]) / nk_genome_range(g, i) : 0.5;
}

void nk_strategy_unit_to_w(const nk_genome *g, const double *u, double *w)
{
    for (size_t i = 0; i < g->dim; i++)
        w[i] = g->lo[i] + nk_genome_range(g, i) * u[i];
    nk_genome_clamp(g, w);
}

bool nk_strategy_cma_mu_clash(const nk_strategy_params *p, nk_strategy_clash *c)
{
    if (2 * p->mu <= p->size)
        return false;
    *c = (nk_strategy_clash){"strategy.mu", "must be at most half of", "strategy.lambda"};
    return true;
}

double nk_strategy_cma_weights(size_t lambda, size_t mu, double *w)
{
    double sum = 0, sum2 = 0;
    for (size_t i = 0; i < mu; i++) {
        w[i] = log(((double)lambda + 1.0) / 2.0) - log((double)i + 1.0);
        sum += w[i];
    }
    for (size_t i = 0; i < mu; i++) {
        w[i] /= sum;
        sum2 += w[i] * w[i];
    }
    return 1.0 / sum2;
}
