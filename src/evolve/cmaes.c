/*
 * cmaes.c -- CMA-ES, after N. Hansen, "The CMA Evolution Strategy: A
 * Tutorial" (arXiv:1604.00772), with positive recombination weights only.
 *
 * Coordinates: u = (w - lo) / (hi - lo), so the box is [0, 1]^D.  The
 * distribution is N(m, sigma^2 C) with C = B diag(D^2) B^T; B and D come from
 * the last eigendecomposition, which may be older than C (lazy update), as
 * in the tutorial's reference code.
 *
 * Constants (D dimensions, lambda samples, mu parents):
 *   w_i     = ln((lambda + 1) / 2) - ln i, i = 1..mu, normalised to sum 1
 *   mueff   = 1 / sum w_i^2
 *   c_sigma = (mueff + 2) / (D + mueff + 5)
 *   d_sigma = 1 + 2 max(0, sqrt((mueff - 1) / (D + 1)) - 1) + c_sigma
 *   c_c     = (4 + mueff / D) / (D + 4 + 2 mueff / D)
 *   c_1     = 2 / ((D + 1.3)^2 + mueff)
 *   c_mu    = min(1 - c_1, 2 (mueff - 2 + 1 / mueff) / ((D + 2)^2 + mueff))
 *   chi_D   = sqrt(D) (1 - 1 / (4 D) + 1 / (21 D^2)), E||N(0, I)||
 *
 * Ask: sample k draws z ~ N(0, I) from rng[k], y = B (D .* z), u = m +
 * sigma y, clamped to the box; the step kept for the update is the clamped
 * one, y = (u_clamped - m) / sigma (Lamarckian repair).
 *
 * Tell (generation g, counted from 0), y_i:lambda the steps sorted best first:
 *   y_w     = sum w_i y_i:lambda;  m <- m + sigma y_w
 *   p_sigma <- (1 - c_sigma) p_sigma + sqrt(c_sigma (2 - c_sigma) mueff) C^-1/2 y_w
 *   h_sigma = [ ||p_sigma|| / sqrt(1 - (1 - c_sigma)^(2 (g + 1))) < (1.4 + 2 / (D + 1)) chi_D ]
 *   p_c     <- (1 - c_c) p_c + h_sigma sqrt(c_c (2 - c_c) mueff) y_w
 *   C       <- (1 + c_1 delta - c_1 - c_mu) C + c_1 p_c p_c^T
 *              + c_mu sum w_i y_i:lambda y_i:lambda^T,  delta = (1 - h_sigma) c_c (2 - c_c)
 *   sigma   <- sigma exp((c_sigma / d_sigma) (||p_sigma|| / chi_D - 1))
 * then C is decomposed (gsl_eigen_symmv, eigenvalues sorted ascending) when
 * due: every eigen_every generations, or lazily when more than
 * lambda / (c_1 + c_mu) / D / 10 evaluations have passed since the last time.
 *
 * Saved state: lambda, mu, sigma, generation of the last decomposition, m,
 * p_sigma, p_c, C, B, D (2 D^2 + 4 D + 4 numbers).
 */
#include "evolve/strategy_impl.h"
#include "base/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_randist.h>

typedef struct cma {
    size_t d, lambda, mu;
    double *weights;               /* [mu] */
    double mueff, cs, ds, cc, c1, cmu, chin;
    double sigma;
    uint64_t eigen_gen;            /* generation count at the last decomposition */
    double *mean, *ps, *pc;        /* [d] */
    double *C, *B, *D;             /* [d d], [d d] (columns: eigenvectors), [d] */
    double *mean_w;                /* [d] the mean in weights, for info */
    double *y;                     /* [lambda d] steps of the last ask */
    double *yw, *t1, *t2;          /* [d] scratch */
    gsl_matrix *work, *evec;
    gsl_vector *eval;
    gsl_eigen_symmv_workspace *ws;
} cma;

/* ===================================================================
 * Set-up
 * =================================================================== */

static void cma_release(nk_strategy *s)
{
    cma *c = s->impl;
    if (c == NULL)
        return;
    nk_free(c->weights);
    nk_free(c->mean);
    nk_free(c->ps);
    nk_free(c->pc);
    nk_free(c->C);
    nk_free(c->B);
    nk_free(c->D);
    nk_free(c->mean_w);
    nk_free(c->y);
    nk_free(c->yw);
    nk_free(c->t1);
    nk_free(c->t2);
    if (c->work)
        gsl_matrix_free(c->work);
    if (c->evec)
        gsl_matrix_free(c->evec);
    if (c->eval)
        gsl_vector_free(c->eval);
    if (c->ws)
        gsl_eigen_symmv_free(c->ws);
    nk_free(c);
    s->impl = NULL;
}

static bool cma_allocate(cma *c)
{
    size_t d = c->d;
    c->weights = nk_malloc(c->mu * sizeof(double));
    c->mean = nk_calloc(d, sizeof(double));
    c->ps = nk_calloc(d, sizeof(double));
    c->pc = nk_calloc(d, sizeof(double));
    c->C = nk_calloc(d * d, sizeof(double));
    c->B = nk_calloc(d * d, sizeof(double));
    c->D = nk_calloc(d, sizeof(double));
    c->mean_w = nk_calloc(d, sizeof(double));
    c->y = nk_calloc(c->lambda * d, sizeof(double));
    c->yw = nk_calloc(d, sizeof(double));
    c->t1 = nk_calloc(d, sizeof(double));
    c->t2 = nk_calloc(d, sizeof(double));
    c->work = gsl_matrix_alloc(d, d);
    c->evec = gsl_matrix_alloc(d, d);
    c->eval = gsl_vector_alloc(d);
    c->ws = gsl_eigen_symmv_alloc(d);
    return c->weights && c->mean && c->ps && c->pc && c->C && c->B && c->D && c->mean_w &&
           c->y && c->yw && c->t1 && c->t2 && c->work && c->evec && c->eval && c->ws;
}

static void cma_constants(cma *c)
{
    double d = (double)c->d;
    double mueff = c->mueff = nk_strategy_cma_weights(c->lambda, c->mu, c->weights);
    c->cs = (mueff + 2.0) / (d + mueff + 5.0);
    c->ds = 1.0 + 2.0 * fmax(0.0, sqrt((mueff - 1.0) / (d + 1.0)) - 1.0) + c->cs;
    c->cc = (4.0 + mueff / d) / (d + 4.0 + 2.0 * mueff / d);
    c->c1 = 2.0 / ((d + 1.3) * (d + 1.3) + mueff);
    c->cmu = fmin(1.0 - c->c1, 2.0 * (mueff - 2.0 + 1.0 / mueff) / ((d + 2.0) * (d + 2.0) + mueff));
    c->chin = sqrt(d) * (1.0 - 1.0 / (4.0 * d) + 1.0 / (21.0 * d * d));
}

static nk_status cma_check(const nk_strategy *s, size_t lambda, size_t mu, char *err,
                           size_t errlen)
{
    const nk_genome *g = s->genome;
    const nk_strategy_params *p = &s->par;
    if (g->encoding != NK_ENC_REAL)
        return nk_fail(NK_EINVAL, err, errlen, "cma-es needs a real genome, not binary");
    if (lambda < 2)
        return nk_fail(NK_ERANGE, err, errlen, "cma-es needs lambda >= 2, not %zu", lambda);
    if (mu < 1 || mu > lambda)
        return nk_fail(NK_ERANGE, err, errlen, "cma-es needs 1 <= mu (%zu) <= lambda (%zu)",
                       mu, lambda);
    if (2 * mu > lambda)
        return nk_fail(NK_ERANGE, err, errlen,
                       "cma-es needs mu (%zu) <= lambda / 2 (%zu): the recombination weight "
                       "ln((lambda + 1) / 2) - ln(i) of parent i > lambda / 2 is not positive",
                       mu, lambda / 2);
    if (!(p->sigma0 > 0 && p->sigma0 <= 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "initial sigma %g must lie in (0, 1] (a fraction of the range)",
                       p->sigma0);
    return nk_strategy_check_x0(s, err, errlen);
}

static nk_status cma_init(nk_strategy *s, char *err, size_t errlen)
{
    const nk_genome *g = s->genome;
    const nk_strategy_params *p = &s->par;
    size_t d = g->dim;
    size_t lambda = p->size ? p->size : 4 + (size_t)floor(3.0 * log((double)d));
    size_t mu = p->mu ? p->mu : lambda / 2;
    nk_status st = cma_check(s, lambda, mu, err, errlen);
    if (st != NK_OK)
        return st;
    cma *c = s->impl = nk_calloc(1, sizeof *c);
    if (c == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for cma-es");
    c->d = d;
    c->lambda = lambda;
    c->mu = mu;
    if (!cma_allocate(c))
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for cma-es in %zu dimensions", d);
    cma_constants(c);
    c->sigma = p->sigma0;
    nk_strategy_unit_mean0(s, c->mean);
    for (size_t i = 0; i < d; i++)
        c->C[i * d + i] = c->B[i * d + i] = c->D[i] = 1.0;
    nk_strategy_unit_to_w(g, c->mean, c->mean_w);
    s->n = lambda;
    s->mu = mu;
    s->with_sigma = false;
    return NK_OK;
}

/* ===================================================================
 * Ask
 * =================================================================== */

static void cma_sample(const nk_strategy *s, cma *c, size_t k, gsl_rng *rng)
{
    size_t d = c->d;
    const nk_genome *g = s->genome;
    double *y = c->y + k * d, *w = nk_pop_w(s->next, k);
    for (size_t i = 0; i < d; i++)
        c->t1[i] = c->D[i] * gsl_ran_gaussian_ziggurat(rng, 1.0);
    for (size_t i = 0; i < d; i++) {
        double yi = 0;
        for (size_t j = 0; j < d; j++)
            yi += c->B[i * d + j] * c->t1[j];
        double u = c->mean[i] + c->sigma * yi;
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        y[i] = (u - c->mean[i]) / c->sigma;
        w[i] = g->lo[i] + nk_genome_range(g, i) * u;
    }
    nk_genome_clamp(g, w);
}

static nk_status cma_ask(nk_strategy *s, gsl_rng *const *rng, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    cma *c = s->impl;
    for (size_t k = 0; k < c->lambda; k++) {
        cma_sample(s, c, k, rng[k]);
        nk_strategy_mark_new(s, s->next, k, -1, -1);
    }
    return NK_OK;
}

/* ===================================================================
 * Tell
 * =================================================================== */

/* out = C^-1/2 v = B diag(1/D) B^T v (with the last decomposition). */
static void inv_sqrt_times(const cma *c, const double *v, double *tmp, double *out)
{
    size_t d = c->d;
    for (size_t j = 0; j < d; j++) {
        double t = 0;
        for (size_t i = 0; i < d; i++)
            t += c->B[i * d + j] * v[i];
        tmp[j] = t / c->D[j];
    }
    for (size_t i = 0; i < d; i++) {
        double t = 0;
        for (size_t j = 0; j < d; j++)
            t += c->B[i * d + j] * tmp[j];
        out[i] = t;
    }
}

static double norm(const double *v, size_t d)
{
    double s = 0;
    for (size_t i = 0; i < d; i++)
        s += v[i] * v[i];
    return sqrt(s);
}

/* Rank-one and rank-mu update of C; order[0..mu) are the best samples. */
static void cma_update_cov(cma *c, const size_t *order, double hsig)
{
    size_t d = c->d;
    double delta = (1.0 - hsig) * c->cc * (2.0 - c->cc);
    double keep = 1.0 + c->c1 * delta - c->c1 - c->cmu;
    for (size_t i = 0; i < d; i++)
        for (size_t j = i; j < d; j++) {
            double rank_mu = 0;
            for (size_t k = 0; k < c->mu; k++) {
                const double *y = c->y + order[k] * d;
                rank_mu += c->weights[k] * y[i] * y[j];
            }
            double v = keep * c->C[i * d + j] + c->c1 * c->pc[i] * c->pc[j] + c->cmu * rank_mu;
            c->C[i * d + j] = c->C[j * d + i] = v;
        }
}

static void cma_decompose(cma *c)
{
    size_t d = c->d;
    for (size_t i = 0; i < d; i++)
        for (size_t j = 0; j < d; j++)
            gsl_matrix_set(c->work, i, j, c->C[i * d + j]);
    gsl_eigen_symmv(c->work, c->eval, c->evec, c->ws);
    gsl_eigen_symmv_sort(c->eval, c->evec, GSL_EIGEN_SORT_VAL_ASC);
    double top = gsl_vector_get(c->eval, d - 1);
    for (size_t j = 0; j < d; j++) {
        double e = gsl_vector_get(c->eval, j);
        if (!(e > top * 1e-20)) /* rounding made C not positive definite */
            e = top > 0 ? top * 1e-20 : 1e-300;
        c->D[j] = sqrt(e);
        for (size_t i = 0; i < d; i++)
            c->B[i * d + j] = gsl_matrix_get(c->evec, i, j);
    }
}

static bool decomposition_due(const nk_strategy *s, const cma *c, uint64_t gens)
{
    uint64_t since = gens - c->eigen_gen;
    if (s->par.eigen_every > 0)
        return since >= s->par.eigen_every;
    return (double)(since * c->lambda) > (double)c->lambda / (c->c1 + c->cmu) / (double)c->d / 10.0;
}

static void cma_tell(nk_strategy *s)
{
    cma *c = s->impl;
    size_t d = c->d;
    size_t *order = s->idx;
    nk_select_sort(s->cur->fitness, c->lambda, order, s->idx + c->lambda);
    for (size_t i = 0; i < d; i++) {
        double t = 0;
        for (size_t k = 0; k < c->mu; k++)
            t += c->weights[k] * c->y[order[k] * d + i];
        c->yw[i] = t;
        c->mean[i] += c->sigma * t;
        c->mean[i] = c->mean[i] < 0 ? 0 : c->mean[i] > 1 ? 1 : c->mean[i];
    }
    inv_sqrt_times(c, c->yw, c->t1, c->t2);
    double fs = sqrt(c->cs * (2.0 - c->cs) * c->mueff);
    for (size_t i = 0; i < d; i++)
        c->ps[i] = (1.0 - c->cs) * c->ps[i] + fs * c->t2[i];
    double nps = norm(c->ps, d);
    double g1 = (double)(s->generation + 1);
    double hsig = nps / sqrt(1.0 - pow(1.0 - c->cs, 2.0 * g1)) <
                  (1.4 + 2.0 / ((double)d + 1.0)) * c->chin ? 1.0 : 0.0;
    double fc = hsig * sqrt(c->cc * (2.0 - c->cc) * c->mueff);
    for (size_t i = 0; i < d; i++)
        c->pc[i] = (1.0 - c->cc) * c->pc[i] + fc * c->yw[i];
    cma_update_cov(c, order, hsig);
    c->sigma *= exp((c->cs / c->ds) * (nps / c->chin - 1.0));
    if (decomposition_due(s, c, s->generation + 1)) {
        cma_decompose(c);
        c->eigen_gen = s->generation + 1;
    }
    nk_strategy_unit_to_w(s->genome, c->mean, c->mean_w);
}

/* ===================================================================
 * State and info
 * =================================================================== */

static size_t cma_state_size(const nk_strategy *s)
{
    const cma *c = s->impl;
    return 4 + 4 * c->d + 2 * c->d * c->d;
}

static void cma_save(const nk_strategy *s, double *o)
{
    const cma *c = s->impl;
    size_t d = c->d;
    *o++ = (double)c->lambda;
    *o++ = (double)c->mu;
    *o++ = c->sigma;
    *o++ = (double)c->eigen_gen;
    memcpy(o, c->mean, d * sizeof *o);
    memcpy(o + d, c->ps, d * sizeof *o);
    memcpy(o + 2 * d, c->pc, d * sizeof *o);
    memcpy(o + 3 * d, c->C, d * d * sizeof *o);
    memcpy(o + 3 * d + d * d, c->B, d * d * sizeof *o);
    memcpy(o + 3 * d + 2 * d * d, c->D, d * sizeof *o);
}

static nk_status cma_load(nk_strategy *s, const double *in, char *err, size_t errlen)
{
    cma *c = s->impl;
    size_t d = c->d, n = cma_state_size(s);
    if (in[0] != (double)c->lambda || in[1] != (double)c->mu)
        return nk_fail(NK_EMISMATCH, err, errlen,
                       "cma-es state with lambda %g, mu %g; expected %zu, %zu", in[0], in[1],
                       c->lambda, c->mu);
    for (size_t i = 2; i < n; i++)
        if (!isfinite(in[i]))
            return nk_fail(NK_EFORMAT, err, errlen, "damaged cma-es state (number %zu)", i);
    const double *dd = in + 4 + 3 * d + 2 * d * d;
    bool ok = in[2] > 0 && in[3] >= 0 && in[3] == floor(in[3]);
    for (size_t i = 0; i < d; i++)
        ok = ok && dd[i] > 0;
    if (!ok)
        return nk_fail(NK_EFORMAT, err, errlen, "damaged cma-es state (sigma or axes)");
    c->sigma = in[2];
    c->eigen_gen = (uint64_t)in[3];
    in += 4;
    memcpy(c->mean, in, d * sizeof *in);
    memcpy(c->ps, in + d, d * sizeof *in);
    memcpy(c->pc, in + 2 * d, d * sizeof *in);
    memcpy(c->C, in + 3 * d, d * d * sizeof *in);
    memcpy(c->B, in + 3 * d + d * d, d * d * sizeof *in);
    memcpy(c->D, in + 3 * d + 2 * d * d, d * sizeof *in);
    nk_strategy_unit_to_w(s->genome, c->mean, c->mean_w);
    return NK_OK;
}

static void cma_info(const nk_strategy *s, nk_strategy_info *info)
{
    const cma *c = s->impl;
    double lo = c->D[0], hi = c->D[0];
    for (size_t i = 1; i < c->d; i++) {
        lo = fmin(lo, c->D[i]);
        hi = fmax(hi, c->D[i]);
    }
    info->sigma = c->sigma;
    info->axis_ratio = hi / lo;
    info->mean = c->mean_w;
}

const nk_strategy_type nk_strategy_cma_es = {
    .name = "cma-es",
    .help = "CMA-ES (Hansen's tutorial): adapts a full covariance matrix",
    .code = 4,
    .size_of = nk_strategy_lambda_of,
    .size_key = "strategy.lambda",
    .evaluated = nk_strategy_lambda_evaluated, /* the lambda samples */
    .evaluated_doc = "`strategy.lambda`",
    .clash = nk_strategy_cma_mu_clash,
    .clash_doc = NK_STRATEGY_CMA_MU_CLASH_DOC,
    .max_dim = NK_CMAES_MAX_DIM,
    .init = cma_init,
    .release = cma_release,
    .ask = cma_ask,
    .tell = cma_tell,
    .state_size = cma_state_size,
    .save = cma_save,
    .load = cma_load,
    .info = cma_info,
};
