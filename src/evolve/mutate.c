/*
 * mutate.c -- the mutation operators.
 *
 * Draw order per operator (results depend only on the generator):
 *   bit-flip    one uniform per bit
 *   gaussian    per weight: one uniform, then one normal if it mutates
 *   polynomial  per weight: one uniform, then one more if it mutates
 *   lognormal   N0, then per weight: N_i, one uniform, one normal if it
 *               mutates
 * Normals come from gsl_ran_gaussian_ziggurat.
 */
#include "evolve/mutate.h"
#include "base/names.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_randist.h>

/* ===================================================================
 * The operators
 * =================================================================== */

static size_t none_real(const nk_mutate_params *p, const nk_genome *g, double *w,
                        double *sigma, gsl_rng *rng)
{
    (void)p, (void)g, (void)w, (void)sigma, (void)rng;
    return 0;
}

static size_t none_bits(const nk_mutate_params *p, size_t nbits, unsigned char *bits,
                        gsl_rng *rng)
{
    (void)p, (void)nbits, (void)bits, (void)rng;
    return 0;
}

static size_t bit_flip(const nk_mutate_params *p, size_t nbits, unsigned char *bits,
                       gsl_rng *rng)
{
    double rate = nk_mutate_rate(p, nbits);
    size_t flips = 0;
    for (size_t i = 0; i < nbits; i++)
        if (gsl_rng_uniform(rng) < rate) {
            bits[i] = (unsigned char)!bits[i];
            flips++;
        }
    return flips;
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static size_t gaussian(const nk_mutate_params *p, const nk_genome *g, double *w,
                       double *sigma, gsl_rng *rng)
{
    (void)sigma;
    double rate = nk_mutate_rate(p, g->dim);
    size_t changed = 0;
    for (size_t i = 0; i < g->dim; i++) {
        if (gsl_rng_uniform(rng) >= rate)
            continue;
        double s = p->sigma * nk_genome_range(g, i);
        w[i] = clamp(w[i] + gsl_ran_gaussian_ziggurat(rng, s), g->lo[i], g->hi[i]);
        changed++;
    }
    return changed;
}

/* Deb's polynomial mutation of y in [lo, hi] (the bounded form of the
 * NSGA-II code): the step is at most the distance to the bound on its side. */
static double polynomial_one(double y, double lo, double hi, double eta, double u)
{
    double range = hi - lo, e1 = eta + 1.0, pw = 1.0 / e1, dq;
    if (u <= 0.5) {
        double xy = 1.0 - (y - lo) / range;
        double val = 2.0 * u + (1.0 - 2.0 * u) * pow(xy, e1);
        dq = pow(val, pw) - 1.0;
    } else {
        double xy = 1.0 - (hi - y) / range;
        double val = 2.0 * (1.0 - u) + 2.0 * (u - 0.5) * pow(xy, e1);
        dq = 1.0 - pow(val, pw);
    }
    return clamp(y + dq * range, lo, hi);
}

static size_t polynomial(const nk_mutate_params *p, const nk_genome *g, double *w,
                         double *sigma, gsl_rng *rng)
{
    (void)sigma;
    double rate = nk_mutate_rate(p, g->dim);
    size_t changed = 0;
    for (size_t i = 0; i < g->dim; i++) {
        if (gsl_rng_uniform(rng) >= rate)
            continue;
        double y = clamp(w[i], g->lo[i], g->hi[i]);
        w[i] = polynomial_one(y, g->lo[i], g->hi[i], p->eta, gsl_rng_uniform(rng));
        changed++;
    }
    return changed;
}

static size_t lognormal(const nk_mutate_params *p, const nk_genome *g, double *w,
                        double *sigma, gsl_rng *rng)
{
    double d = (double)g->dim;
    double tau = p->tau_scale / sqrt(2.0 * sqrt(d));
    double tau_global = p->tau_scale / sqrt(2.0 * d);
    double rate = nk_mutate_rate(p, g->dim);
    double common = tau_global * gsl_ran_gaussian_ziggurat(rng, 1.0);
    size_t changed = 0;
    for (size_t i = 0; i < g->dim; i++) {
        double range = nk_genome_range(g, i);
        double s = sigma[i] * exp(common + tau * gsl_ran_gaussian_ziggurat(rng, 1.0));
        sigma[i] = clamp(s, p->sigma_floor * range, range); /* NaN: impossible, s > 0 */
        if (gsl_rng_uniform(rng) >= rate)
            continue;
        w[i] = clamp(w[i] + sigma[i] * gsl_ran_gaussian_ziggurat(rng, 1.0), g->lo[i], g->hi[i]);
        changed++;
    }
    return changed;
}

const nk_mutate_type nk_mutate_none = {
    "none", "no mutation", false, none_real, none_bits};
const nk_mutate_type nk_mutate_bit_flip = {
    "bit-flip", "each bit flips with probability rate (binary only)", false, NULL, bit_flip};
const nk_mutate_type nk_mutate_gaussian = {
    "gaussian", "adds N(0, (sigma * range)^2) to each weight with probability rate",
    false, gaussian, NULL};
const nk_mutate_type nk_mutate_polynomial = {
    "polynomial", "Deb's bounded polynomial mutation with index eta", false, polynomial,
    NULL};
const nk_mutate_type nk_mutate_lognormal = {
    "lognormal", "self-adaptive log-normal step sizes (ES), then gaussian steps", true,
    lognormal, NULL};

static const nk_mutate_type *const mutate_list[] = {
    &nk_mutate_none, &nk_mutate_bit_flip, &nk_mutate_gaussian, &nk_mutate_polynomial,
    &nk_mutate_lognormal, NULL};

const nk_mutate_type *const *nk_mutate_types(void)
{
    return mutate_list;
}

const nk_mutate_type *nk_mutate_find(const char *name)
{
    return nk_names_find(NK_NAMES_PTRS(mutate_list), name);
}

const char *nk_mutate_name_at(size_t i)
{
    return nk_names_at(NK_NAMES_PTRS(mutate_list), i);
}

char *nk_mutate_names(char *buf, size_t len)
{
    return nk_names_join(NK_NAMES_PTRS(mutate_list), buf, len);
}

/* ===================================================================
 * Checking and applying
 * =================================================================== */

#define MUTATE_ROW(P, sec, nm, field, T, ctype, ...)                                         \
    NK_PARAM_DESCRIBE(nk_mutate_params, field, sec, nm, T, __VA_ARGS__)
static const nk_param mutate_params[] = {NK_MUTATE_PARAMS(MUTATE_ROW, _)};

const nk_param *nk_mutate_params_table(size_t *n)
{
    *n = sizeof mutate_params / sizeof mutate_params[0];
    return mutate_params;
}

void nk_mutate_params_init(nk_mutate_params *p)
{
    memset(p, 0, sizeof *p);
    p->tau_scale = 1.0;
    p->sigma_floor = 1e-8;
    nk_param_defaults(mutate_params, sizeof mutate_params / sizeof mutate_params[0], p);
}

nk_status nk_mutate_check(const nk_mutate_type *t, const nk_mutate_params *p,
                          nk_encoding encoding, char *err, size_t errlen)
{
    if (encoding == NK_ENC_BINARY && t->bits == NULL)
        return nk_fail(NK_EINVAL, err, errlen,
                       "mutation %s works on real genomes only (binary genomes: bit-flip, none)",
                       t->name);
    if (encoding == NK_ENC_REAL && t->real == NULL)
        return nk_fail(NK_EINVAL, err, errlen,
                       "mutation %s works on binary genomes only", t->name);
    if (!(p->rate <= 1) || isnan(p->rate))
        return nk_fail(NK_ERANGE, err, errlen,
                       "mutation rate %g must lie in [0, 1] (negative: 1/n)", p->rate);
    if (t == &nk_mutate_gaussian && !(p->sigma > 0 && isfinite(p->sigma)))
        return nk_fail(NK_ERANGE, err, errlen, "gaussian sigma %g must be > 0", p->sigma);
    if (t == &nk_mutate_polynomial && !(p->eta >= 0 && isfinite(p->eta)))
        return nk_fail(NK_ERANGE, err, errlen, "polynomial eta %g must be >= 0", p->eta);
    if (t == &nk_mutate_lognormal && !(p->tau_scale > 0 && isfinite(p->tau_scale)))
        return nk_fail(NK_ERANGE, err, errlen, "lognormal tau scale %g must be > 0",
                       p->tau_scale);
    if (t == &nk_mutate_lognormal && !(p->sigma_floor > 0 && p->sigma_floor < 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "lognormal sigma floor %g must lie in (0, 1) (a fraction of the range)",
                       p->sigma_floor);
    return NK_OK;
}

double nk_mutate_rate(const nk_mutate_params *p, size_t n)
{
    if (p->rate >= 0)
        return p->rate;
    return n > 0 ? 1.0 / (double)n : 0.0;
}

size_t nk_mutate_real(const nk_mutate_type *t, const nk_mutate_params *p,
                      const nk_genome *g, double *w, double *sigma, gsl_rng *rng)
{
    return t->real(p, g, w, sigma, rng);
}

size_t nk_mutate_bits(const nk_mutate_type *t, const nk_mutate_params *p,
                      size_t nbits, unsigned char *bits, gsl_rng *rng)
{
    return t->bits(p, nbits, bits, rng);
}

size_t nk_mutate_pop(const nk_mutate_type *t, const nk_mutate_params *p,
                     nk_pop *pop, size_t i, gsl_rng *rng)
{
    if (pop->bits) {
        size_t n = nk_mutate_bits(t, p, pop->nbits, nk_pop_bits(pop, i), rng);
        nk_pop_decode(pop, i);
        return n;
    }
    return nk_mutate_real(t, p, pop->genome, nk_pop_w(pop, i), nk_pop_sigma(pop, i), rng);
}
