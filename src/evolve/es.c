/*
 * es.c -- the (mu+lambda) and (mu,lambda) evolution strategies.
 *
 * Generation 0: N individuals drawn uniformly, step sizes sigma0 * range
 * (N = mu + lambda for es-plus, lambda for es-comma).  Later generations:
 * the mu best of the population last told are the parents; es-plus copies
 * them, unchanged, to positions 0..mu-1; offspring fill the rest.
 * Offspring at position k, all draws from rng[k]: a parent uniform among
 * the mu; if the crossover is not `none`, a second parent uniform among the
 * mu and the pair crossed with the crossover rate (first child kept, step
 * sizes averaged when crossed); then the mutation (lognormal by default).
 */
#include "evolve/strategy_impl.h"

static bool is_plus(const nk_strategy *s)
{
    return s->type == &nk_strategy_es_plus;
}

static nk_status es_init(nk_strategy *s, char *err, size_t errlen)
{
    nk_strategy_params *p = &s->par;
    nk_encoding enc = s->genome->encoding;
    if (p->cross == NULL)
        p->cross = &nk_cross_none;
    if (p->mutate == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "%s needs a mutation", s->type->name);
    if (p->size < 1 || p->mu < 1)
        return nk_fail(NK_ERANGE, err, errlen, "%s needs mu >= 1 and lambda >= 1",
                       s->type->name);
    if (!is_plus(s) && p->mu > p->size)
        return nk_fail(NK_ERANGE, err, errlen, "es-comma needs mu (%zu) <= lambda (%zu)",
                       p->mu, p->size);
    nk_status st = nk_cross_check(p->cross, &p->cross_par, enc, err, errlen);
    if (st == NK_OK)
        st = nk_mutate_check(p->mutate, &p->mutate_par, enc, err, errlen);
    if (st != NK_OK)
        return st;
    if (!(p->sigma0 > 0 && p->sigma0 <= 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "initial step size %g must lie in (0, 1] (a fraction of the range)",
                       p->sigma0);
    s->with_sigma = p->mutate->needs_sigma;
    s->mu = p->mu;
    s->n = s->type->evaluated(p);
    return NK_OK;
}

/* One offspring at position k of next from parents order[0..mu) of cur. */
static void es_offspring(nk_strategy *s, const size_t *parents, size_t k, gsl_rng *rng)
{
    const nk_strategy_params *p = &s->par;
    const nk_pop *cur = s->cur;
    nk_pop *next = s->next;
    size_t a = parents[gsl_rng_uniform_int(rng, s->mu)];
    int64_t other = -1;
    if (p->cross != &nk_cross_none) {
        size_t b = parents[gsl_rng_uniform_int(rng, s->mu)];
        if (nk_cross_pop(p->cross, &p->cross_par, cur, a, b, s->pair, 0, 1, rng))
            other = cur->id[b];
        nk_pop_copy_one(next, k, s->pair, 0);
    } else {
        nk_pop_copy_one(next, k, cur, a);
    }
    nk_strategy_mark_new(s, next, k, cur->id[a], other);
    nk_mutate_pop(p->mutate, &p->mutate_par, next, k, rng);
}

static nk_status es_ask(nk_strategy *s, gsl_rng *const *rng, char *err, size_t errlen)
{
    if (s->generation == 0) {
        for (size_t i = 0; i < s->n; i++) {
            nk_pop_randomize(s->next, i, s->par.sigma0, rng[i]);
            nk_strategy_mark_new(s, s->next, i, -1, -1);
        }
        return NK_OK;
    }
    (void)err, (void)errlen;
    size_t *order = s->idx;
    nk_select_sort(s->cur->fitness, s->n, order, s->idx + s->n);
    size_t k = 0;
    if (is_plus(s))
        for (; k < s->mu; k++)
            nk_pop_copy_one(s->next, k, s->cur, order[k]);
    for (; k < s->n; k++)
        es_offspring(s, order, k, rng[k]);
    return NK_OK;
}

/* ===== what the ES make of a run's settings ===== */

/* Both are made with lambda (nk_strategy_params.size); shared by CMA-ES. */
size_t nk_strategy_lambda_of(const nk_population_settings *pop, const nk_strategy_settings *st)
{
    (void)pop;
    return (size_t)st->lambda;
}

/* The mu parents carried over are evaluated again with the lambda
 * offspring: self-play fitness is relative (strategy.h). */
static size_t plus_evaluated(const nk_strategy_params *p)
{
    return p->mu + p->size;
}

size_t nk_strategy_lambda_evaluated(const nk_strategy_params *p)
{
    return p->size;
}

bool nk_strategy_mu_clash(const nk_strategy_params *p, nk_strategy_clash *c)
{
    if (p->mu <= p->size)
        return false;
    *c = (nk_strategy_clash){"strategy.mu", "must be at most", "strategy.lambda"};
    return true;
}

const nk_strategy_type nk_strategy_es_plus = {
    .name = "es-plus",
    .help = "(mu+lambda)-ES: parents compete with their offspring",
    .code = 2,
    .size_of = nk_strategy_lambda_of,
    .size_key = "strategy.lambda",
    .evaluated = plus_evaluated,
    .evaluated_doc = "`strategy.mu + strategy.lambda`",
    .clash = NULL,
    .clash_doc = NULL,
    .init = es_init,
    .release = nk_strategy_no_release,
    .ask = es_ask,
    .tell = nk_strategy_no_tell,
    .state_size = nk_strategy_no_state_size,
    .save = nk_strategy_no_state_save,
    .load = nk_strategy_no_state_load,
    .info = NULL,
};

const nk_strategy_type nk_strategy_es_comma = {
    .name = "es-comma",
    .help = "(mu,lambda)-ES: parents are the best offspring only",
    .code = 3,
    .size_of = nk_strategy_lambda_of,
    .size_key = "strategy.lambda",
    .evaluated = nk_strategy_lambda_evaluated,
    .evaluated_doc = "`strategy.lambda`",
    .clash = nk_strategy_mu_clash,
    .clash_doc = NK_STRATEGY_MU_CLASH_DOC,
    .init = es_init,
    .release = nk_strategy_no_release,
    .ask = es_ask,
    .tell = nk_strategy_no_tell,
    .state_size = nk_strategy_no_state_size,
    .save = nk_strategy_no_state_save,
    .load = nk_strategy_no_state_load,
    .info = NULL,
};
