/*
 * openaies.c -- a natural-gradient evolution strategy after T. Salimans,
 * J. Ho, X. Chen, S. Sidor and I. Sutskever, "Evolution Strategies as a
 * Scalable Alternative to Reinforcement Learning" (arXiv:1703.03864, 2017):
 * one mean m, a fixed isotropic sigma, mirrored (antithetic) samples,
 * centred-rank fitness shaping, and a gradient step on m by Adam (the
 * paper's experiments) or by plain gradient ascent (the paper's Algorithm 1
 * and 2), with optional weight decay (the paper's L2 coefficient).
 * Memory and time per generation are O(lambda D): fine for thousands of
 * weights.
 *
 * Coordinates as in cmaes.c: u = (w - lo) / (hi - lo) in [0, 1]^D; sigma
 * (strategy.sigma0) and the learning rate are fractions of each weight's
 * range.
 *
 * Ask: lambda = 2 P individuals, P mirrored pairs.  Pair j draws
 * eps_j ~ N(0, I) from rng[2j] (gsl_ran_gaussian_ziggurat, coordinate by
 * coordinate); individual 2j is m + sigma eps_j and individual 2j + 1 is
 * m - sigma eps_j (Salimans et al., section 2.2, "mirrored sampling"), each
 * clamped into the box for evaluation.  rng[2j + 1] is not used.  Ids are
 * fresh, parents -1.
 *
 * Tell (generation g, counted from 0; F_k the fitness of individual k,
 * higher is better):
 *   centred ranks (section 2.1 and the paper's code, "fitness shaping"):
 *     r_k = the rank of F_k among the lambda values, 0 for the worst and
 *           lambda - 1 for the best, tied values sharing the mean of their
 *           ranks (so a pair that scores alike moves nothing);
 *     U_k = r_k / (lambda - 1) - 1/2, in [-1/2, 1/2], summing to 0;
 *   the search gradient (Algorithm 2, with the mirrored pairs):
 *     g = 1 / (lambda sigma) sum_j (U_2j - U_2j+1) eps_j,
 *   computed from the unclamped noise eps_j, whatever the clamping did;
 *   weight decay (the penalty 1/2 wd sum (w_i / range_i)^2):
 *     g_i <- g_i - wd w_i / range_i,  w the mean in weights;
 *   the step (alpha = strategy.learning_rate):
 *     sgd:  m <- m + alpha g
 *     adam: (Kingma & Ba 2015, Algorithm 1 in the form of their section 2;
 *           beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8; t = g + 1)
 *           a <- beta1 a + (1 - beta1) g;  v <- beta2 v + (1 - beta2) g^2
 *           m <- m + alpha sqrt(1 - beta2^t) / (1 - beta1^t) a / (sqrt(v) + epsilon)
 *   then m is clamped into [0, 1].
 * Sigma stays at strategy.sigma0 (the paper keeps it fixed).
 *
 * Saved state: lambda, the optimizer's code (0 adam, 1 sgd), m, a, v
 * (3 D + 2 numbers; a and v stay 0 under sgd).  Adam's t is the
 * generation, which the strategy's header keeps.
 */
#include "evolve/strategy_impl.h"
#include "base/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

enum { ADAM_CODE = 0, SGD_CODE = 1 };
static const double beta1 = 0.9, beta2 = 0.999, adam_eps = 1e-8;

typedef struct oes {
    size_t d, lambda, pairs;
    double sigma;
    double *mean, *a, *v; /* [d]: the mean; Adam's first and second moments */
    double *mean_w;       /* [d] the mean in weights, for info */
    double *eps;          /* [pairs d] the noise of the last ask */
    double *util, *grad;  /* [lambda], [d] scratch */
} oes;

/* ===================================================================
 * The optimizers' names
 * =================================================================== */

static const char *const optimizer_names[] = {"adam", "sgd"};

const char *nk_strategy_optimizer_name_at(size_t i)
{
    return i < sizeof optimizer_names / sizeof *optimizer_names ? optimizer_names[i] : NULL;
}

bool nk_strategy_optimizer_find(const char *name, nk_strategy_optimizer *out)
{
    if (name == NULL)
        return false;
    if (strcmp(name, "adam") == 0)
        *out = NK_OPTIMIZER_ADAM;
    else if (strcmp(name, "sgd") == 0)
        *out = NK_OPTIMIZER_SGD;
    else
        return false;
    return true;
}

/* ===================================================================
 * Set-up
 * =================================================================== */

static void oes_release(nk_strategy *s)
{
    oes *c = s->impl;
    if (c == NULL)
        return;
    nk_free(c->mean);
    nk_free(c->a);
    nk_free(c->v);
    nk_free(c->mean_w);
    nk_free(c->eps);
    nk_free(c->util);
    nk_free(c->grad);
    nk_free(c);
    s->impl = NULL;
}

static bool oes_allocate(oes *c)
{
    size_t d = c->d;
    c->mean = nk_calloc(d, sizeof(double));
    c->a = nk_calloc(d, sizeof(double));
    c->v = nk_calloc(d, sizeof(double));
    c->mean_w = nk_calloc(d, sizeof(double));
    c->eps = c->pairs <= SIZE_MAX / sizeof(double) / d ? nk_calloc(c->pairs * d, sizeof(double))
                                                       : NULL;
    c->util = nk_calloc(c->lambda, sizeof(double));
    c->grad = nk_calloc(d, sizeof(double));
    return c->mean && c->a && c->v && c->mean_w && c->eps && c->util && c->grad;
}

static nk_status oes_check(const nk_strategy *s, size_t lambda, char *err, size_t errlen)
{
    const nk_genome *g = s->genome;
    const nk_strategy_params *p = &s->par;
    if (g->encoding != NK_ENC_REAL)
        return nk_fail(NK_EINVAL, err, errlen, "openai-es needs a real genome, not binary");
    if (lambda < 2 || lambda % 2 != 0)
        return nk_fail(NK_ERANGE, err, errlen,
                       "openai-es: strategy.lambda = %zu must be even and at least 2 (mirrored "
                       "pairs)",
                       lambda);
    if (!(p->sigma0 > 0 && p->sigma0 <= 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "openai-es: strategy.sigma0 = %g must lie in (0, 1] (a fraction of the "
                       "weight range)",
                       p->sigma0);
    if (!(p->learning_rate > 0 && p->learning_rate <= 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "openai-es: strategy.learning_rate = %g must lie in (0, 1]",
                       p->learning_rate);
    if (!(p->weight_decay >= 0 && p->weight_decay <= 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "openai-es: strategy.weight_decay = %g must lie in [0, 1]",
                       p->weight_decay);
    if (p->optimizer != NK_OPTIMIZER_ADAM && p->optimizer != NK_OPTIMIZER_SGD)
        return nk_fail(NK_EINVAL, err, errlen, "openai-es: unknown strategy.optimizer %d",
                       (int)p->optimizer);
    return nk_strategy_check_x0(s, err, errlen);
}

static nk_status oes_init(nk_strategy *s, char *err, size_t errlen)
{
    const nk_genome *g = s->genome;
    const nk_strategy_params *p = &s->par;
    size_t d = g->dim, lambda = p->size;
    if (lambda == 0) {
        lambda = 4 + (size_t)floor(3.0 * log((double)d));
        lambda += lambda % 2;
    }
    nk_status st = oes_check(s, lambda, err, errlen);
    if (st != NK_OK)
        return st;
    oes *c = s->impl = nk_calloc(1, sizeof *c);
    if (c == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for openai-es");
    c->d = d;
    c->lambda = lambda;
    c->pairs = lambda / 2;
    c->sigma = p->sigma0;
    if (!oes_allocate(c))
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for openai-es in %zu dimensions",
                       d);
    nk_strategy_unit_mean0(s, c->mean);
    nk_strategy_unit_to_w(g, c->mean, c->mean_w);
    s->n = lambda;
    s->mu = 0;
    s->with_sigma = false;
    return NK_OK;
}

/* ===================================================================
 * Ask
 * =================================================================== */

/* Individual k = m + sign sigma eps, clamped, into next. */
static void oes_place(nk_strategy *s, const oes *c, size_t k, const double *eps, double sign)
{
    const nk_genome *g = s->genome;
    double *w = nk_pop_w(s->next, k);
    for (size_t i = 0; i < c->d; i++) {
        double u = c->mean[i] + sign * c->sigma * eps[i];
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        w[i] = g->lo[i] + nk_genome_range(g, i) * u;
    }
    nk_genome_clamp(g, w);
    nk_strategy_mark_new(s, s->next, k, -1, -1);
}

static nk_status oes_ask(nk_strategy *s, gsl_rng *const *rng, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    oes *c = s->impl;
    for (size_t j = 0; j < c->pairs; j++) {
        double *eps = c->eps + j * c->d;
        for (size_t i = 0; i < c->d; i++)
            eps[i] = gsl_ran_gaussian_ziggurat(rng[2 * j], 1.0);
        oes_place(s, c, 2 * j, eps, 1.0);
        oes_place(s, c, 2 * j + 1, eps, -1.0);
    }
    return NK_OK;
}

/* ===================================================================
 * Tell
 * =================================================================== */

/* util[k] = the centred rank of fitness[k] (ties share their mean rank). */
static void centred_ranks(const double *fitness, size_t n, size_t *order, size_t *scratch,
                          double *util)
{
    nk_select_sort(fitness, n, order, scratch); /* best first, stable */
    for (size_t p = 0; p < n;) {
        size_t q = p + 1;
        while (q < n && fitness[order[q]] == fitness[order[p]])
            q++;
        /* positions p..q-1 from the best are ranks n-1-p .. n-q from the worst */
        double rank = (double)(n - 1) - (double)(p + q - 1) / 2.0;
        for (size_t t = p; t < q; t++)
            util[order[t]] = rank / (double)(n - 1) - 0.5;
        p = q;
    }
}

/* grad = the search gradient with weight decay (coordinates u). */
static void oes_gradient(const nk_strategy *s, oes *c)
{
    size_t d = c->d;
    double scale = 1.0 / ((double)c->lambda * c->sigma);
    memset(c->grad, 0, d * sizeof *c->grad);
    for (size_t j = 0; j < c->pairs; j++) {
        double diff = (c->util[2 * j] - c->util[2 * j + 1]) * scale;
        const double *eps = c->eps + j * d;
        if (diff != 0)
            for (size_t i = 0; i < d; i++)
                c->grad[i] += diff * eps[i];
    }
    double wd = s->par.weight_decay;
    if (wd > 0)
        for (size_t i = 0; i < d; i++)
            c->grad[i] -= wd * c->mean_w[i] / nk_genome_range(s->genome, i);
}

static void oes_step(const nk_strategy *s, oes *c)
{
    double alpha = s->par.learning_rate;
    if (s->par.optimizer == NK_OPTIMIZER_SGD) {
        for (size_t i = 0; i < c->d; i++)
            c->mean[i] += alpha * c->grad[i];
    } else {
        double t = (double)(s->generation + 1);
        double at = alpha * sqrt(1.0 - pow(beta2, t)) / (1.0 - pow(beta1, t));
        for (size_t i = 0; i < c->d; i++) {
            double g = c->grad[i];
            c->a[i] = beta1 * c->a[i] + (1.0 - beta1) * g;
            c->v[i] = beta2 * c->v[i] + (1.0 - beta2) * g * g;
            c->mean[i] += at * c->a[i] / (sqrt(c->v[i]) + adam_eps);
        }
    }
    for (size_t i = 0; i < c->d; i++)
        c->mean[i] = c->mean[i] < 0 ? 0 : c->mean[i] > 1 ? 1 : c->mean[i];
}

static void oes_tell(nk_strategy *s)
{
    oes *c = s->impl;
    centred_ranks(s->cur->fitness, c->lambda, s->idx, s->idx + c->lambda, c->util);
    oes_gradient(s, c);
    oes_step(s, c);
    nk_strategy_unit_to_w(s->genome, c->mean, c->mean_w);
}

/* ===================================================================
 * State and info
 * =================================================================== */

static size_t oes_state_size(const nk_strategy *s)
{
    const oes *c = s->impl;
    return 2 + 3 * c->d;
}

static double optimizer_code(const nk_strategy *s)
{
    return s->par.optimizer == NK_OPTIMIZER_SGD ? SGD_CODE : ADAM_CODE;
}

static void oes_save(const nk_strategy *s, double *o)
{
    const oes *c = s->impl;
    size_t d = c->d;
    *o++ = (double)c->lambda;
    *o++ = optimizer_code(s);
    memcpy(o, c->mean, d * sizeof *o);
    memcpy(o + d, c->a, d * sizeof *o);
    memcpy(o + 2 * d, c->v, d * sizeof *o);
}

static nk_status oes_load(nk_strategy *s, const double *in, char *err, size_t errlen)
{
    oes *c = s->impl;
    size_t d = c->d, n = oes_state_size(s);
    if (in[0] != (double)c->lambda || in[1] != optimizer_code(s))
        return nk_fail(NK_EMISMATCH, err, errlen,
                       "openai-es state with lambda %g, optimizer %g; expected %zu, %g", in[0],
                       in[1], c->lambda, optimizer_code(s));
    for (size_t i = 2; i < n; i++)
        if (!isfinite(in[i]))
            return nk_fail(NK_EFORMAT, err, errlen, "damaged openai-es state (number %zu)", i);
    bool ok = true;
    for (size_t i = 0; i < d; i++)
        ok = ok && in[2 + i] >= 0 && in[2 + i] <= 1 && in[2 + 2 * d + i] >= 0;
    if (!ok)
        return nk_fail(NK_EFORMAT, err, errlen,
                       "damaged openai-es state (a mean outside the box or a negative moment)");
    in += 2;
    memcpy(c->mean, in, d * sizeof *in);
    memcpy(c->a, in + d, d * sizeof *in);
    memcpy(c->v, in + 2 * d, d * sizeof *in);
    nk_strategy_unit_to_w(s->genome, c->mean, c->mean_w);
    return NK_OK;
}

static void oes_info(const nk_strategy *s, nk_strategy_info *info)
{
    const oes *c = s->impl;
    info->sigma = c->sigma;
    info->mean = c->mean_w;
}

/* ===================================================================
 * The type
 * =================================================================== */

static bool oes_clash(const nk_strategy_params *p, nk_strategy_clash *c)
{
    if (p->size % 2 == 0)
        return false;
    *c = (nk_strategy_clash){"strategy.lambda", "must be even (mirrored pairs) for",
                             "strategy.kind"};
    return true;
}

const nk_strategy_type nk_strategy_openai_es = {
    .name = "openai-es",
    .help = "natural-gradient ES (Salimans et al. 2017): mirrored samples, centred ranks, Adam",
    .code = 6,
    .size_of = nk_strategy_lambda_of,
    .size_key = "strategy.lambda",
    .evaluated = nk_strategy_lambda_evaluated, /* the lambda samples */
    .evaluated_doc = "`strategy.lambda`",
    .clash = oes_clash,
    .clash_doc = "`strategy.lambda` even (mirrored pairs)",
    .init = oes_init,
    .release = oes_release,
    .ask = oes_ask,
    .tell = oes_tell,
    .state_size = oes_state_size,
    .save = oes_save,
    .load = oes_load,
    .info = oes_info,
};
