/*
 * crossover.c -- the crossover operators.
 *
 * The positional operators (one-point, two-point, uniform) are written once
 * over arrays of fixed-size elements and serve both weights (doubles) and
 * bit strings (bytes).  The real-coded operators (arithmetic, blx-alpha,
 * sbx) work gene by gene against the genome's bounds.  Draw order is fixed
 * per operator (documented inline) so results depend only on the generator.
 */
#include "evolve/crossover.h"
#include "base/names.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ===================================================================
 * Positional operators, on n elements of size sz
 * =================================================================== */

static void copy_pair(size_t sz, size_t n, const void *a, const void *b,
                      void *c1, void *c2)
{
    memcpy(c1, a, sz * n);
    memcpy(c2, b, sz * n);
}

/* c1 = a[0..x) b[x..y) a[y..n), c2 the complement. */
static void splice(size_t sz, size_t n, const char *a, const char *b, char *c1,
                   char *c2, size_t x, size_t y)
{
    memcpy(c1, a, sz * x);
    memcpy(c2, b, sz * x);
    memcpy(c1 + sz * x, b + sz * x, sz * (y - x));
    memcpy(c2 + sz * x, a + sz * x, sz * (y - x));
    memcpy(c1 + sz * y, a + sz * y, sz * (n - y));
    memcpy(c2 + sz * y, b + sz * y, sz * (n - y));
}

static void one_point(size_t sz, size_t n, const void *a, const void *b,
                      void *c1, void *c2, gsl_rng *rng)
{
    if (n < 2) {
        copy_pair(sz, n, a, b, c1, c2);
        return;
    }
    size_t cut = 1 + gsl_rng_uniform_int(rng, n - 1); /* 1..n-1 */
    splice(sz, n, a, b, c1, c2, cut, n);
}

static void two_point(size_t sz, size_t n, const void *a, const void *b,
                      void *c1, void *c2, gsl_rng *rng)
{
    if (n < 3) {
        one_point(sz, n, a, b, c1, c2, rng);
        return;
    }
    size_t x = 1 + gsl_rng_uniform_int(rng, n - 1); /* 1..n-1 */
    size_t y = 1 + gsl_rng_uniform_int(rng, n - 2); /* 1..n-1 without x */
    if (y >= x)
        y++;
    if (y < x) {
        size_t t = x;
        x = y;
        y = t;
    }
    splice(sz, n, a, b, c1, c2, x, y);
}

static void uniform_mix(size_t sz, size_t n, const char *a, const char *b,
                        char *c1, char *c2, gsl_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        int swap = (int)gsl_rng_uniform_int(rng, 2);
        memcpy(c1 + sz * i, (swap ? b : a) + sz * i, sz);
        memcpy(c2 + sz * i, (swap ? a : b) + sz * i, sz);
    }
}

/* ===================================================================
 * Real and binary entry points of each operator
 * =================================================================== */

static void none_real(const nk_cross_params *p, const nk_genome *g, const double *a,
                      const double *b, double *c1, double *c2, gsl_rng *rng)
{
    (void)p;
    (void)rng;
    copy_pair(sizeof(double), g->dim, a, b, c1, c2);
}

static void none_bits(size_t n, const unsigned char *a, const unsigned char *b,
                      unsigned char *c1, unsigned char *c2, gsl_rng *rng)
{
    (void)rng;
    copy_pair(1, n, a, b, c1, c2);
}

static void one_point_real(const nk_cross_params *p, const nk_genome *g, const double *a,
                           const double *b, double *c1, double *c2, gsl_rng *rng)
{
    (void)p;
    one_point(sizeof(double), g->dim, a, b, c1, c2, rng);
}

static void one_point_bits(size_t n, const unsigned char *a, const unsigned char *b,
                           unsigned char *c1, unsigned char *c2, gsl_rng *rng)
{
    one_point(1, n, a, b, c1, c2, rng);
}

static void two_point_real(const nk_cross_params *p, const nk_genome *g, const double *a,
                           const double *b, double *c1, double *c2, gsl_rng *rng)
{
    (void)p;
    two_point(sizeof(double), g->dim, a, b, c1, c2, rng);
}

static void two_point_bits(size_t n, const unsigned char *a, const unsigned char *b,
                           unsigned char *c1, unsigned char *c2, gsl_rng *rng)
{
    two_point(1, n, a, b, c1, c2, rng);
}

static void uniform_real(const nk_cross_params *p, const nk_genome *g, const double *a,
                         const double *b, double *c1, double *c2, gsl_rng *rng)
{
    (void)p;
    uniform_mix(sizeof(double), g->dim, (const char *)a, (const char *)b,
                (char *)c1, (char *)c2, rng);
}

static void uniform_bits(size_t n, const unsigned char *a, const unsigned char *b,
                         unsigned char *c1, unsigned char *c2, gsl_rng *rng)
{
    uniform_mix(1, n, (const char *)a, (const char *)b, (char *)c1, (char *)c2, rng);
}

static void arithmetic_real(const nk_cross_params *p, const nk_genome *g, const double *a,
                            const double *b, double *c1, double *c2, gsl_rng *rng)
{
    (void)p;
    double lambda = gsl_rng_uniform(rng); /* one draw per mating */
    for (size_t i = 0; i < g->dim; i++) {
        c1[i] = lambda * a[i] + (1 - lambda) * b[i];
        c2[i] = (1 - lambda) * a[i] + lambda * b[i];
    }
    nk_genome_clamp(g, c1);
    nk_genome_clamp(g, c2);
}

static void blx_real(const nk_cross_params *p, const nk_genome *g, const double *a,
                     const double *b, double *c1, double *c2, gsl_rng *rng)
{
    for (size_t i = 0; i < g->dim; i++) { /* draws: c1[i], c2[i] */
        double lo = fmin(a[i], b[i]), hi = fmax(a[i], b[i]);
        double ext = p->alpha * (hi - lo);
        lo = fmax(lo - ext, g->lo[i]);
        hi = fmin(hi + ext, g->hi[i]);
        if (hi < lo) /* parents outside the bounds: nothing to truncate to */
            lo = hi = lo > g->hi[i] ? g->hi[i] : g->lo[i];
        c1[i] = lo + (hi - lo) * gsl_rng_uniform(rng);
        c2[i] = lo + (hi - lo) * gsl_rng_uniform(rng);
    }
}

static double sbx_beta(double u, double eta)
{
    double e = 1.0 / (eta + 1.0);
    return u <= 0.5 ? pow(2.0 * u, e) : pow(1.0 / (2.0 * (1.0 - u)), e);
}

static void sbx_real(const nk_cross_params *p, const nk_genome *g, const double *a,
                     const double *b, double *c1, double *c2, gsl_rng *rng)
{
    for (size_t i = 0; i < g->dim; i++) { /* draws: u, then the coin */
        double beta = sbx_beta(gsl_rng_uniform(rng), p->eta);
        double mid = 0.5 * (a[i] + b[i]), half = 0.5 * fabs(b[i] - a[i]);
        double lo = mid - beta * half, hi = mid + beta * half;
        int swap = (int)gsl_rng_uniform_int(rng, 2);
        c1[i] = swap ? hi : lo;
        c2[i] = swap ? lo : hi;
    }
    nk_genome_clamp(g, c1);
    nk_genome_clamp(g, c2);
}

const nk_cross_type nk_cross_none = {
    "none", "no recombination: children are copies", none_real, none_bits};
const nk_cross_type nk_cross_one_point = {
    "one-point", "one cut, tails swapped (genes or bits)", one_point_real, one_point_bits};
const nk_cross_type nk_cross_two_point = {
    "two-point", "two cuts, middle segments swapped (genes or bits)", two_point_real,
    two_point_bits};
const nk_cross_type nk_cross_uniform = {
    "uniform", "each gene or bit from either parent with probability 1/2", uniform_real,
    uniform_bits};
const nk_cross_type nk_cross_arithmetic = {
    "arithmetic", "convex combinations with one uniform weight (real only)",
    arithmetic_real, NULL};
const nk_cross_type nk_cross_blx = {
    "blx-alpha", "uniform in the parents' interval stretched by alpha (real only)",
    blx_real, NULL};
const nk_cross_type nk_cross_sbx = {
    "sbx", "simulated binary crossover with index eta (real only)", sbx_real, NULL};

static const nk_cross_type *const cross_list[] = {
    &nk_cross_none, &nk_cross_one_point, &nk_cross_two_point, &nk_cross_uniform,
    &nk_cross_arithmetic, &nk_cross_blx, &nk_cross_sbx, NULL};

const nk_cross_type *const *nk_cross_types(void)
{
    return cross_list;
}

const nk_cross_type *nk_cross_find(const char *name)
{
    return nk_names_find(NK_NAMES_PTRS(cross_list), name);
}

const char *nk_cross_name_at(size_t i)
{
    return nk_names_at(NK_NAMES_PTRS(cross_list), i);
}

char *nk_cross_names(char *buf, size_t len)
{
    return nk_names_join(NK_NAMES_PTRS(cross_list), buf, len);
}

/* ===================================================================
 * Checking and applying
 * =================================================================== */

#define CROSS_ROW(P, sec, nm, field, T, ctype, ...)                                          \
    NK_PARAM_DESCRIBE(nk_cross_params, field, sec, nm, T, __VA_ARGS__)
static const nk_param cross_params[] = {NK_CROSS_PARAMS(CROSS_ROW, _)};

const nk_param *nk_cross_params_table(size_t *n)
{
    *n = sizeof cross_params / sizeof cross_params[0];
    return cross_params;
}

void nk_cross_params_init(nk_cross_params *p)
{
    memset(p, 0, sizeof *p);
    nk_param_defaults(cross_params, sizeof cross_params / sizeof cross_params[0], p);
}

nk_status nk_cross_check(const nk_cross_type *t, const nk_cross_params *p,
                         nk_encoding encoding, char *err, size_t errlen)
{
    if (encoding == NK_ENC_BINARY && t->bits == NULL)
        return nk_fail(NK_EINVAL, err, errlen,
                       "crossover %s works on real genomes only "
                       "(binary genomes: none, one-point, two-point, uniform)", t->name);
    if (!(p->rate >= 0 && p->rate <= 1))
        return nk_fail(NK_ERANGE, err, errlen, "crossover rate %g must lie in [0, 1]", p->rate);
    if (t == &nk_cross_blx && !(p->alpha >= 0 && isfinite(p->alpha)))
        return nk_fail(NK_ERANGE, err, errlen, "blx-alpha alpha %g must be >= 0", p->alpha);
    if (t == &nk_cross_sbx && !(p->eta >= 0 && isfinite(p->eta)))
        return nk_fail(NK_ERANGE, err, errlen, "sbx eta %g must be >= 0", p->eta);
    return NK_OK;
}

void nk_cross_real(const nk_cross_type *t, const nk_cross_params *p,
                   const nk_genome *g, const double *a, const double *b,
                   double *c1, double *c2, gsl_rng *rng)
{
    t->real(p, g, a, b, c1, c2, rng);
}

void nk_cross_bits(const nk_cross_type *t, size_t nbits, const unsigned char *a,
                   const unsigned char *b, unsigned char *c1, unsigned char *c2,
                   gsl_rng *rng)
{
    t->bits(nbits, a, b, c1, c2, rng);
}

bool nk_cross_pop(const nk_cross_type *t, const nk_cross_params *p,
                  const nk_pop *src, size_t a, size_t b, nk_pop *dst,
                  size_t c1, size_t c2, gsl_rng *rng)
{
    bool cross = gsl_rng_uniform(rng) < p->rate;
    size_t d = src->dim;
    if (!cross) {
        memcpy(nk_pop_w(dst, c1), nk_pop_w(src, a), d * sizeof(double));
        memcpy(nk_pop_w(dst, c2), nk_pop_w(src, b), d * sizeof(double));
        if (src->bits && dst->bits) {
            memcpy(nk_pop_bits(dst, c1), nk_pop_bits(src, a), src->nbits);
            memcpy(nk_pop_bits(dst, c2), nk_pop_bits(src, b), src->nbits);
        }
    } else if (src->bits) {
        nk_cross_bits(t, src->nbits, nk_pop_bits(src, a), nk_pop_bits(src, b),
                      nk_pop_bits(dst, c1), nk_pop_bits(dst, c2), rng);
        nk_pop_decode(dst, c1);
        nk_pop_decode(dst, c2);
    } else {
        nk_cross_real(t, p, src->genome, nk_pop_w(src, a), nk_pop_w(src, b),
                      nk_pop_w(dst, c1), nk_pop_w(dst, c2), rng);
    }
    if (src->sigma && dst->sigma) {
        const double *sa = nk_pop_sigma(src, a), *sb = nk_pop_sigma(src, b);
        double *s1 = nk_pop_sigma(dst, c1), *s2 = nk_pop_sigma(dst, c2);
        for (size_t i = 0; i < d; i++) {
            double m = 0.5 * (sa[i] + sb[i]);
            s1[i] = cross ? m : sa[i];
            s2[i] = cross ? m : sb[i];
        }
    }
    return cross;
}
