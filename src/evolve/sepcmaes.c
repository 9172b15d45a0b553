/*
 * sepcmaes.c -- separable CMA-ES, after R. Ros and N. Hansen, "A Simple
 * Modification in CMA-ES Achieving Linear Time and Space Complexity"
 * (PPSN X, LNCS 5199, 2008): the CMA-ES of Hansen & Kern (2004) with the
 * covariance matrix kept diagonal, C = diag(c), and its learning rate
 * multiplied by (n + 2) / 3.  A generation costs O(lambda n) time and the
 * strategy O(lambda n) memory: nothing here is quadratic in n, so genomes
 * of thousands of weights are fine.
 *
 * Coordinates, bounds and repair as in cmaes.c: u = (w - lo) / (hi - lo) in
 * [0, 1]^n; a sample outside the box is clamped into it and the clamped
 * step is the one used in the update (Lamarckian repair); the mean is
 * clamped too.
 *
 * Constants (n dimensions, lambda samples, mu parents), the paper's, which
 * are those of Hansen & Kern (2004):
 *   w_i     = ln((lambda + 1) / 2) - ln i, i = 1..mu, normalised to sum 1
 *   mueff   = 1 / sum w_i^2,  mu_cov = mueff
 *   c_sigma = (mueff + 2) / (n + mueff + 3)
 *   d_sigma = 1 + 2 max(0, sqrt((mueff - 1) / (n + 1)) - 1) + c_sigma
 *   c_c     = 4 / (n + 4)
 *   c_cov   = (1 / mu_cov) 2 / (n + sqrt 2)^2
 *             + (1 - 1 / mu_cov) min(1, (2 mueff - 1) / ((n + 2)^2 + mueff))
 *   c_cov'  = min(1, c_cov (n + 2) / 3)            (the separable rate)
 *   chi_n   = sqrt(n) (1 - 1 / (4 n) + 1 / (21 n^2))
 *
 * Ask: sample k draws z ~ N(0, I) from rng[k] (gsl_ran_gaussian_ziggurat,
 * coordinate by coordinate), y = sqrt(c) .* z, u = m + sigma y, clamped;
 * y = (u_clamped - m) / sigma.
 *
 * Tell (generation g, counted from 0), y_i:lambda the steps best first:
 *   y_w     = sum w_i y_i:lambda;  m <- m + sigma y_w
 *   p_sigma <- (1 - c_sigma) p_sigma + sqrt(c_sigma (2 - c_sigma) mueff) y_w ./ sqrt(c)
 *   h_sigma = [ ||p_sigma|| / sqrt(1 - (1 - c_sigma)^(2 (g + 1))) < (1.4 + 2 / (n + 1)) chi_n ]
 *   p_c     <- (1 - c_c) p_c + h_sigma sqrt(c_c (2 - c_c) mueff) y_w
 *   c_j     <- (1 - c_cov') c_j
 *              + (c_cov' / mu_cov) (p_c,j^2 + (1 - h_sigma) c_c (2 - c_c) c_j)
 *              + c_cov' (1 - 1 / mu_cov) sum w_i y_i:lambda,j^2
 *   sigma   <- sigma exp((c_sigma / d_sigma) (||p_sigma|| / chi_n - 1))
 * (c_j is updated after p_sigma used sqrt(c_j), as C^-1/2 of the full
 * algorithm uses the matrix before the update.)  Since C is diagonal its
 * square root is read off directly: there is no eigendecomposition, and
 * strategy.eigen_every has no effect.
 *
 * Saved state: lambda, mu, sigma, m, p_sigma, p_c, c (4 n + 3 numbers).
 */
#include "evolve/strategy_impl.h"
#include "base/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

typedef struct sep {
    size_t d, lambda, mu;
    double *weights;          /* [mu] */
    double mueff, cs, ds, cc, ccov, c1, cmu, chin;
    double sigma;
    double *mean, *ps, *pc, *c; /* [d]; c: the diagonal of C */
    double *mean_w;           /* [d] the mean in weights, for info */
    double *y;                /* [lambda d] steps of the last ask */
} sep;

/* ===================================================================
 * Set-up
 * =================================================================== */

static void sep_release(nk_strategy *s)
{
    sep *c = s->impl;
    if (c == NULL)
        return;
    nk_free(c->weights);
    nk_free(c->mean);
    nk_free(c->ps);
    nk_free(c->pc);
    nk_free(c->c);
    nk_free(c->mean_w);
    nk_free(c->y);
    nk_free(c);
    s->impl = NULL;
}

static bool sep_allocate(sep *c)
{
    size_t d = c->d;
    c->weights = nk_malloc(c->mu * sizeof(double));
    c->mean = nk_calloc(d, sizeof(double));
    c->ps = nk_calloc(d, sizeof(double));
    c->pc = nk_calloc(d, sizeof(double));
    c->c = nk_calloc(d, sizeof(double));
    c->mean_w = nk_calloc(d, sizeof(double));
    c->y = c->lambda <= SIZE_MAX / sizeof(double) / d ? nk_calloc(c->lambda * d, sizeof(double))
                                                      : NULL;
    return c->weights && c->mean && c->ps && c->pc && c->c && c->mean_w && c->y;
}

static void sep_constants(sep *c)
{
    double n = (double)c->d;
    double mueff = c->mueff = nk_strategy_cma_weights(c->lambda, c->mu, c->weights);
    double mucov = mueff;
    c->cs = (mueff + 2.0) / (n + mueff + 3.0);
    c->ds = 1.0 + 2.0 * fmax(0.0, sqrt((mueff - 1.0) / (n + 1.0)) - 1.0) + c->cs;
    c->cc = 4.0 / (n + 4.0);
    double ccov = (1.0 / mucov) * 2.0 / ((n + sqrt(2.0)) * (n + sqrt(2.0))) +
                  (1.0 - 1.0 / mucov) * fmin(1.0, (2.0 * mueff - 1.0) / ((n + 2.0) * (n + 2.0) + mueff));
    c->ccov = fmin(1.0, ccov * (n + 2.0) / 3.0);
    c->c1 = c->ccov / mucov;
    c->cmu = c->ccov * (1.0 - 1.0 / mucov);
    c->chin = sqrt(n) * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));
}

static nk_status sep_check(const nk_strategy *s, size_t lambda, size_t mu, char *err,
                           size_t errlen)
{
    const nk_genome *g = s->genome;
    const nk_strategy_params *p = &s->par;
    if (g->encoding != NK_ENC_REAL)
        return nk_fail(NK_EINVAL, err, errlen, "sep-cma-es needs a real genome, not binary");
    if (lambda < 2)
        return nk_fail(NK_ERANGE, err, errlen,
                       "sep-cma-es needs strategy.lambda >= 2, not %zu", lambda);
    if (mu < 1 || mu > lambda)
        return nk_fail(NK_ERANGE, err, errlen,
                       "sep-cma-es needs 1 <= strategy.mu (%zu) <= strategy.lambda (%zu)", mu,
                       lambda);
    if (2 * mu > lambda)
        return nk_fail(NK_ERANGE, err, errlen,
                       "sep-cma-es needs strategy.mu (%zu) <= strategy.lambda / 2 (%zu): the "
                       "recombination weight ln((lambda + 1) / 2) - ln(i) of parent i > lambda / 2 "
                       "is not positive",
                       mu, lambda / 2);
    if (!(p->sigma0 > 0 && p->sigma0 <= 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "sep-cma-es: strategy.sigma0 = %g must lie in (0, 1] (a fraction of the "
                       "weight range)",
                       p->sigma0);
    return nk_strategy_check_x0(s, err, errlen);
}

static nk_status sep_init(nk_strategy *s, char *err, size_t errlen)
{
    const nk_genome *g = s->genome;
    const nk_strategy_params *p = &s->par;
    size_t d = g->dim;
    size_t lambda = p->size ? p->size : 4 + (size_t)floor(3.0 * log((double)d));
    size_t mu = p->mu ? p->mu : lambda / 2;
    nk_status st = sep_check(s, lambda, mu, err, errlen);
    if (st != NK_OK)
        return st;
    sep *c = s->impl = nk_calloc(1, sizeof *c);
    if (c == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for sep-cma-es");
    c->d = d;
    c->lambda = lambda;
    c->mu = mu;
    if (!sep_allocate(c))
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for sep-cma-es in %zu dimensions",
                       d);
    sep_constants(c);
    c->sigma = p->sigma0;
    nk_strategy_unit_mean0(s, c->mean);
    for (size_t i = 0; i < d; i++)
        c->c[i] = 1.0;
    nk_strategy_unit_to_w(g, c->mean, c->mean_w);
    s->n = lambda;
    s->mu = mu;
    s->with_sigma = false;
    return NK_OK;
}

/* ===================================================================
 * Ask
 * =================================================================== */

static void sep_sample(const nk_strategy *s, sep *c, size_t k, gsl_rng *rng)
{
    size_t d = c->d;
    const nk_genome *g = s->genome;
    double *y = c->y + k * d, *w = nk_pop_w(s->next, k);
    for (size_t i = 0; i < d; i++) {
        double u = c->mean[i] + c->sigma * sqrt(c->c[i]) * gsl_ran_gaussian_ziggurat(rng, 1.0);
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        y[i] = (u - c->mean[i]) / c->sigma;
        w[i] = g->lo[i] + nk_genome_range(g, i) * u;
    }
    nk_genome_clamp(g, w);
}

static nk_status sep_ask(nk_strategy *s, gsl_rng *const *rng, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sep *c = s->impl;
    for (size_t k = 0; k < c->lambda; k++) {
        sep_sample(s, c, k, rng[k]);
        nk_strategy_mark_new(s, s->next, k, -1, -1);
    }
    return NK_OK;
}

/* ===================================================================
 * Tell
 * =================================================================== */

/* The mean, p_sigma and p_c moved by y_w (the weighted step of the mu
 * best, order[0..mu)); returns ||p_sigma||. */
static double sep_move(sep *c, const size_t *order)
{
    size_t d = c->d;
    double fs = sqrt(c->cs * (2.0 - c->cs) * c->mueff), nps = 0;
    for (size_t i = 0; i < d; i++) {
        double yw = 0;
        for (size_t k = 0; k < c->mu; k++)
            yw += c->weights[k] * c->y[order[k] * d + i];
        c->mean[i] += c->sigma * yw;
        c->mean[i] = c->mean[i] < 0 ? 0 : c->mean[i] > 1 ? 1 : c->mean[i];
        c->ps[i] = (1.0 - c->cs) * c->ps[i] + fs * yw / sqrt(c->c[i]);
        c->pc[i] = (1.0 - c->cc) * c->pc[i]; /* + h_sigma term, sep_update */
        nps += c->ps[i] * c->ps[i];
    }
    return sqrt(nps);
}

/* p_c's new step and the diagonal's rank-one and rank-mu update. */
static void sep_update(sep *c, const size_t *order, double hsig)
{
    size_t d = c->d;
    double fc = hsig * sqrt(c->cc * (2.0 - c->cc) * c->mueff);
    double keep = 1.0 - c->ccov + c->c1 * (1.0 - hsig) * c->cc * (2.0 - c->cc);
    for (size_t i = 0; i < d; i++) {
        double yw = 0, rank_mu = 0;
        for (size_t k = 0; k < c->mu; k++) {
            double y = c->y[order[k] * d + i];
            yw += c->weights[k] * y;
            rank_mu += c->weights[k] * y * y;
        }
        c->pc[i] += fc * yw;
        c->c[i] = keep * c->c[i] + c->c1 * c->pc[i] * c->pc[i] + c->cmu * rank_mu;
    }
}

static void sep_tell(nk_strategy *s)
{
    sep *c = s->impl;
    size_t *order = s->idx;
    nk_select_sort(s->cur->fitness, c->lambda, order, s->idx + c->lambda);
    double nps = sep_move(c, order);
    double g1 = (double)(s->generation + 1);
    double hsig = nps / sqrt(1.0 - pow(1.0 - c->cs, 2.0 * g1)) <
                  (1.4 + 2.0 / ((double)c->d + 1.0)) * c->chin ? 1.0 : 0.0;
    sep_update(c, order, hsig);
    c->sigma *= exp((c->cs / c->ds) * (nps / c->chin - 1.0));
    nk_strategy_unit_to_w(s->genome, c->mean, c->mean_w);
}

/* ===================================================================
 * State and info
 * =================================================================== */

static size_t sep_state_size(const nk_strategy *s)
{
    const sep *c = s->impl;
    return 3 + 4 * c->d;
}

static void sep_save(const nk_strategy *s, double *o)
{
    const sep *c = s->impl;
    size_t d = c->d;
    *o++ = (double)c->lambda;
    *o++ = (double)c->mu;
    *o++ = c->sigma;
    memcpy(o, c->mean, d * sizeof *o);
    memcpy(o + d, c->ps, d * sizeof *o);
    memcpy(o + 2 * d, c->pc, d * sizeof *o);
    memcpy(o + 3 * d, c->c, d * sizeof *o);
}

static nk_status sep_load(nk_strategy *s, const double *in, char *err, size_t errlen)
{
    sep *c = s->impl;
    size_t d = c->d, n = sep_state_size(s);
    if (in[0] != (double)c->lambda || in[1] != (double)c->mu)
        return nk_fail(NK_EMISMATCH, err, errlen,
                       "sep-cma-es state with lambda %g, mu %g; expected %zu, %zu", in[0], in[1],
                       c->lambda, c->mu);
    for (size_t i = 2; i < n; i++)
        if (!isfinite(in[i]))
            return nk_fail(NK_EFORMAT, err, errlen, "damaged sep-cma-es state (number %zu)", i);
    bool ok = in[2] > 0;
    for (size_t i = 0; i < d; i++)
        ok = ok && in[3 + 3 * d + i] > 0;
    if (!ok)
        return nk_fail(NK_EFORMAT, err, errlen, "damaged sep-cma-es state (sigma or variances)");
    c->sigma = in[2];
    in += 3;
    memcpy(c->mean, in, d * sizeof *in);
    memcpy(c->ps, in + d, d * sizeof *in);
    memcpy(c->pc, in + 2 * d, d * sizeof *in);
    memcpy(c->c, in + 3 * d, d * sizeof *in);
    nk_strategy_unit_to_w(s->genome, c->mean, c->mean_w);
    return NK_OK;
}

static void sep_info(const nk_strategy *s, nk_strategy_info *info)
{
    const sep *c = s->impl;
    double lo = c->c[0], hi = c->c[0];
    for (size_t i = 1; i < c->d; i++) {
        lo = fmin(lo, c->c[i]);
        hi = fmax(hi, c->c[i]);
    }
    info->sigma = c->sigma;
    info->axis_ratio = sqrt(hi / lo);
    info->mean = c->mean_w;
}

const nk_strategy_type nk_strategy_sep_cma_es = {
    .name = "sep-cma-es",
    .help = "separable CMA-ES (Ros & Hansen 2008): a diagonal covariance, linear in D",
    .code = 5,
    .size_of = nk_strategy_lambda_of,
    .size_key = "strategy.lambda",
    .evaluated = nk_strategy_lambda_evaluated, /* the lambda samples */
    .evaluated_doc = "`strategy.lambda`",
    .clash = nk_strategy_cma_mu_clash,
    .clash_doc = NK_STRATEGY_CMA_MU_CLASH_DOC,
    .init = sep_init,
    .release = sep_release,
    .ask = sep_ask,
    .tell = sep_tell,
    .state_size = sep_state_size,
    .save = sep_save,
    .load = sep_load,
    .info = sep_info,
};
