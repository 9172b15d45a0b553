/*
 * select.c -- selection schemes, ordering, elitism.
 *
 * Each scheme is a const nk_select_type; nk_select_run() checks the input
 * once (finite fitness, parameters) so the schemes themselves only pick.
 * Proportional schemes (roulette, linear-rank, SUS) share one cumulative
 * weight table and a binary search; schemes that allocate scratch memory
 * return NK_ENOMEM rather than fail silently.
 */
#include "evolve/select.h"
#include "base/names.h"
#include "base/alloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ===================================================================
 * Ordering
 * =================================================================== */

/* true if individual a ranks before b: fitter, or as fit and lower index. */
static int before(const double *f, size_t a, size_t b)
{
    double fa = f[a], fb = f[b];
    if (isnan(fa) || isnan(fb)) {
        if (isnan(fa) != isnan(fb))
            return !isnan(fa);
        return a < b;
    }
    if (fa != fb)
        return fa > fb;
    return a < b;
}

/* Bottom-up merge sort of idx[n] by before(); tmp is scratch of n. */
static void merge_sort(const double *f, size_t *idx, size_t *tmp, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = before(f, idx[j], idx[i]) ? idx[j++] : idx[i++];
            while (i < mid)
                tmp[k++] = idx[i++];
            while (j < hi)
                tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, n * sizeof *idx);
    }
}

void nk_select_sort(const double *fitness, size_t n, size_t *order, size_t *scratch)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    merge_sort(fitness, order, scratch, n);
}

nk_status nk_select_order(const double *fitness, size_t n, size_t *order)
{
    size_t *tmp = nk_malloc((n ? n : 1) * sizeof *tmp);
    if (tmp == NULL)
        return NK_ENOMEM;
    nk_select_sort(fitness, n, order, tmp);
    nk_free(tmp);
    return NK_OK;
}

nk_status nk_select_elite(const double *fitness, size_t n, size_t count, size_t *out)
{
    if (count > n)
        return NK_ERANGE;
    if (count == 0)
        return NK_OK;
    size_t *order = nk_malloc(n * sizeof *order);
    if (order == NULL)
        return NK_ENOMEM;
    nk_status st = nk_select_order(fitness, n, order);
    if (st == NK_OK)
        memcpy(out, order, count * sizeof *out);
    nk_free(order);
    return st;
}

double nk_select_shift(const double *fitness, size_t n)
{
    double min = 0;
    for (size_t i = 0; i < n; i++)
        if (fitness[i] < min)
            min = fitness[i];
    return -min;
}

/* ===================================================================
 * Proportional picking from a cumulative weight table
 * =================================================================== */

/* cum[i] = w[0] + ... + w[i]; returns the total.  All-zero weights are
 * replaced by ones (uniform picks). */
static double cumulate(double *cum, const double *w, size_t n)
{
    double total = 0;
    for (size_t i = 0; i < n; i++)
        cum[i] = total += w[i];
    if (total > 0)
        return total;
    for (size_t i = 0; i < n; i++)
        cum[i] = (double)(i + 1);
    return (double)n;
}

/* The first i with cum[i] > x (x in [0, total)); the last index if rounding
 * leaves x at or above the total.  Zero-weight individuals are never
 * returned except through that rounding guard, which skips them too. */
static size_t spin(const double *cum, size_t n, double x)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    while (lo > 0 && cum[lo] == cum[lo - 1])
        lo--; /* rounding guard: land on an individual with weight */
    return lo;
}

/* Shifted proportional weights into w[n] (see select.h). */
static void shifted_weights(const double *fitness, size_t n, double *w)
{
    double shift = nk_select_shift(fitness, n);
    for (size_t i = 0; i < n; i++)
        w[i] = fitness[i] + shift;
}

static void roulette_picks(const double *w, size_t n, double *cum, size_t *out,
                           size_t m, gsl_rng *rng)
{
    double total = cumulate(cum, w, n);
    for (size_t j = 0; j < m; j++)
        out[j] = spin(cum, n, gsl_rng_uniform(rng) * total);
}

static void shuffle(size_t *a, size_t m, gsl_rng *rng)
{
    for (size_t i = m; i > 1; i--) {
        size_t j = gsl_rng_uniform_int(rng, i);
        size_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* ===================================================================
 * The schemes
 * =================================================================== */

static nk_status tournament_pick(const nk_select_params *p, const double *fitness,
                                 size_t n, size_t *out, size_t m, gsl_rng *rng)
{
    size_t *idx = nk_malloc(n * sizeof *idx);
    if (idx == NULL)
        return NK_ENOMEM;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    size_t k = p->tournament;
    for (size_t j = 0; j < m; j++) {
        /* Partial Fisher-Yates: idx[0..k) becomes a uniform k-subset. */
        size_t best = SIZE_MAX;
        for (size_t t = 0; t < k; t++) {
            size_t r = t + gsl_rng_uniform_int(rng, n - t);
            size_t c = idx[r];
            idx[r] = idx[t];
            idx[t] = c;
            if (best == SIZE_MAX || before(fitness, c, best))
                best = c;
        }
        out[j] = best;
    }
    nk_free(idx);
    return NK_OK;
}

static nk_status roulette_pick(const nk_select_params *p, const double *fitness,
                               size_t n, size_t *out, size_t m, gsl_rng *rng)
{
    (void)p;
    double *w = nk_malloc(2 * n * sizeof *w);
    if (w == NULL)
        return NK_ENOMEM;
    shifted_weights(fitness, n, w);
    roulette_picks(w, n, w + n, out, m, rng);
    nk_free(w);
    return NK_OK;
}

static nk_status rank_pick(const nk_select_params *p, const double *fitness,
                           size_t n, size_t *out, size_t m, gsl_rng *rng)
{
    double *w = nk_malloc(2 * n * sizeof *w);
    size_t *order = nk_malloc(n * sizeof *order);
    nk_status st = NK_ENOMEM;
    if (w && order && (st = nk_select_order(fitness, n, order)) == NK_OK) {
        double s = p->pressure;
        /* order[0] is the best: rank n-1. */
        for (size_t q = 0; q < n; q++) {
            double r = n > 1 ? (double)(n - 1 - q) / (double)(n - 1) : 1.0;
            w[order[q]] = (2.0 - s + 2.0 * (s - 1.0) * r) / (double)n;
        }
        roulette_picks(w, n, w + n, out, m, rng);
    }
    nk_free(w);
    nk_free(order);
    return st;
}

static size_t truncation_count(double fraction, size_t n)
{
    double t = round(fraction * (double)n);
    if (t < 1)
        return 1;
    return t > (double)n ? n : (size_t)t;
}

static nk_status truncation_pick(const nk_select_params *p, const double *fitness,
                                 size_t n, size_t *out, size_t m, gsl_rng *rng)
{
    size_t *order = nk_malloc(n * sizeof *order);
    if (order == NULL)
        return NK_ENOMEM;
    nk_status st = nk_select_order(fitness, n, order);
    size_t t = truncation_count(p->fraction, n);
    for (size_t j = 0; st == NK_OK && j < m; j++)
        out[j] = order[gsl_rng_uniform_int(rng, t)];
    nk_free(order);
    return st;
}

static nk_status sus_pick(const nk_select_params *p, const double *fitness,
                          size_t n, size_t *out, size_t m, gsl_rng *rng)
{
    (void)p;
    if (m == 0)
        return NK_OK;
    double *w = nk_malloc(2 * n * sizeof *w);
    if (w == NULL)
        return NK_ENOMEM;
    double *cum = w + n;
    shifted_weights(fitness, n, w);
    double total = cumulate(cum, w, n);
    double step = total / (double)m;
    double start = gsl_rng_uniform(rng) * step;
    size_t i = 0;
    for (size_t j = 0; j < m; j++) {
        double x = start + (double)j * step;
        while (i < n - 1 && cum[i] <= x)
            i++;
        size_t k = i;
        while (k > 0 && cum[k] == cum[k - 1])
            k--; /* rounding guard: a pointer past the total, on a zero tail */
        out[j] = k;
    }
    shuffle(out, m, rng);
    nk_free(w);
    return NK_OK;
}

const nk_select_type nk_select_tournament = {
    "tournament", "k distinct individuals drawn, the fittest wins (tournament = k)",
    tournament_pick};
const nk_select_type nk_select_roulette = {
    "roulette", "fitness-proportional, independent spins (negative fitness shifted)",
    roulette_pick};
const nk_select_type nk_select_linear_rank = {
    "linear-rank", "linear ranking with selection pressure s in [1, 2] (pressure = s)",
    rank_pick};
const nk_select_type nk_select_truncation = {
    "truncation", "uniform among the best fraction (fraction = f)", truncation_pick};
const nk_select_type nk_select_sus = {
    "sus", "stochastic universal sampling: fitness-proportional, one spin", sus_pick};

static const nk_select_type *const select_list[] = {
    &nk_select_tournament, &nk_select_roulette, &nk_select_linear_rank,
    &nk_select_truncation, &nk_select_sus, NULL};

const nk_select_type *const *nk_select_types(void)
{
    return select_list;
}

const nk_select_type *nk_select_find(const char *name)
{
    return nk_names_find(NK_NAMES_PTRS(select_list), name);
}

const char *nk_select_name_at(size_t i)
{
    return nk_names_at(NK_NAMES_PTRS(select_list), i);
}

char *nk_select_names(char *buf, size_t len)
{
    return nk_names_join(NK_NAMES_PTRS(select_list), buf, len);
}

/* ===================================================================
 * Checking and running
 * =================================================================== */

#define SELECT_ROW3(P, sec, nm, field, T, ctype, ...)                                        \
    NK_PARAM_DESCRIBE(nk_select_params, field, sec, nm, T, __VA_ARGS__)
static const nk_param select_params[] = {NK_SELECT_PARAMS(SELECT_ROW3, _)};

const nk_param *nk_select_params_table(size_t *n)
{
    *n = sizeof select_params / sizeof select_params[0];
    return select_params;
}

void nk_select_params_init(nk_select_params *p)
{
    memset(p, 0, sizeof *p);
    nk_param_defaults(select_params, sizeof select_params / sizeof select_params[0], p);
}

nk_status nk_select_check(const nk_select_type *t, const nk_select_params *p,
                          size_t n, char *err, size_t errlen)
{
    if (t == &nk_select_tournament && (p->tournament < 1 || p->tournament > n))
        return nk_fail(NK_ERANGE, err, errlen,
                       "tournament size %zu must be 1..%zu (the population size)",
                       p->tournament, n);
    if (t == &nk_select_linear_rank && !(p->pressure >= 1 && p->pressure <= 2))
        return nk_fail(NK_ERANGE, err, errlen,
                       "linear-rank pressure %g must lie in [1, 2]", p->pressure);
    if (t == &nk_select_truncation && !(p->fraction > 0 && p->fraction <= 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "truncation fraction %g must lie in (0, 1]", p->fraction);
    return NK_OK;
}

nk_status nk_select_run(const nk_select_type *t, const nk_select_params *p,
                        const double *fitness, size_t n, size_t *out, size_t m,
                        gsl_rng *rng, char *err, size_t errlen)
{
    if (n == 0)
        return nk_fail(NK_EINVAL, err, errlen, "selection from an empty population");
    for (size_t i = 0; i < n; i++)
        if (!isfinite(fitness[i]))
            return nk_fail(NK_EINVAL, err, errlen,
                           "fitness of individual %zu is %g, not a finite number", i, fitness[i]);
    nk_status st = nk_select_check(t, p, n, err, errlen);
    if (st != NK_OK)
        return st;
    st = t->pick(p, fitness, n, out, m, rng);
    if (st != NK_OK)
        return nk_fail(st, err, errlen, "%s selection: %s", t->name, nk_strerror(st));
    return NK_OK;
}
