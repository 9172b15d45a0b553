/*
 * ga.c -- the generational genetic algorithm.
 *
 * Generation 0: N individuals drawn uniformly (rng[i] draws individual i).
 * Later generations, from the population last told:
 *   1. the `elite` best are copied to positions 0..elite-1, unchanged (id,
 *      parents and fitness carried over);
 *   2. the mating pool, 2 * ceil((N - elite) / 2) picks, is chosen in one
 *      call of the selection scheme with rng[0];
 *   3. pair j of the pool makes the children at c = elite + 2j and c + 1
 *      (the second dropped past the end): crossed with the crossover rate
 *      using rng[c], else copied;
 *   4. every child c is mutated with rng[c].
 * A crossed child's parents are (its first-gene parent, the other); a copied
 * child's are (its parent, -1).
 */
#include "evolve/strategy_impl.h"

#include <math.h>

static nk_status ga_init(nk_strategy *s, char *err, size_t errlen)
{
    const nk_strategy_params *p = &s->par;
    nk_encoding enc = s->genome->encoding;
    if (p->size < 1)
        return nk_fail(NK_ERANGE, err, errlen, "ga population size must be at least 1");
    if (p->elite > p->size)
        return nk_fail(NK_ERANGE, err, errlen, "elite %zu exceeds the population size %zu",
                       p->elite, p->size);
    if (p->select == NULL || p->cross == NULL || p->mutate == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "ga needs selection, crossover and mutation");
    nk_status st = nk_select_check(p->select, &p->select_par, p->size, err, errlen);
    if (st == NK_OK)
        st = nk_cross_check(p->cross, &p->cross_par, enc, err, errlen);
    if (st == NK_OK)
        st = nk_mutate_check(p->mutate, &p->mutate_par, enc, err, errlen);
    if (st != NK_OK)
        return st;
    s->with_sigma = p->mutate->needs_sigma;
    if (s->with_sigma && !(p->sigma0 > 0 && p->sigma0 <= 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "initial step size %g must lie in (0, 1] (a fraction of the range)",
                       p->sigma0);
    s->n = s->type->evaluated(p);
    return NK_OK;
}

static void ga_first(nk_strategy *s, gsl_rng *const *rng)
{
    for (size_t i = 0; i < s->n; i++) {
        nk_pop_randomize(s->next, i, s->par.sigma0, rng[i]);
        nk_strategy_mark_new(s, s->next, i, -1, -1);
    }
}

/* Step 3 for pair j: children c, c + 1 of pool parents a, b. */
static void ga_pair(nk_strategy *s, size_t c, size_t a, size_t b, gsl_rng *rng)
{
    const nk_pop *cur = s->cur;
    nk_pop *next = s->next;
    bool crossed = nk_cross_pop(s->par.cross, &s->par.cross_par, cur, a, b, s->pair, 0, 1, rng);
    for (size_t t = 0; t < 2 && c + t < s->n; t++) {
        size_t first = t == 0 ? a : b, other = t == 0 ? b : a;
        nk_pop_copy_one(next, c + t, s->pair, t);
        nk_strategy_mark_new(s, next, c + t, cur->id[first], crossed ? cur->id[other] : -1);
    }
}

static nk_status ga_ask(nk_strategy *s, gsl_rng *const *rng, char *err, size_t errlen)
{
    if (s->generation == 0) {
        ga_first(s, rng);
        return NK_OK;
    }
    const nk_strategy_params *p = &s->par;
    size_t n = s->n, e = p->elite, pairs = (n - e + 1) / 2;
    nk_status st = nk_select_elite(s->cur->fitness, n, e, s->idx); /* step 1 */
    if (st != NK_OK)
        return nk_fail(st, err, errlen, "elitism: %s", nk_strerror(st));
    for (size_t k = 0; k < e; k++)
        nk_pop_copy_one(s->next, k, s->cur, s->idx[k]);
    if (pairs == 0)
        return NK_OK;
    st = nk_select_run(p->select, &p->select_par, s->cur->fitness, n, s->idx, /* step 2 */
                       2 * pairs, rng[0], err, errlen);
    if (st != NK_OK)
        return st;
    for (size_t j = 0; j < pairs; j++) /* step 3 */
        ga_pair(s, e + 2 * j, s->idx[2 * j], s->idx[2 * j + 1], rng[e + 2 * j]);
    for (size_t c = e; c < n; c++) /* step 4 */
        nk_mutate_pop(p->mutate, &p->mutate_par, s->next, c, rng[c]);
    return NK_OK;
}

/* ===== what the GA makes of a run's settings ===== */

static size_t ga_size_of(const nk_population_settings *pop, const nk_strategy_settings *st)
{
    (void)st;
    return (size_t)pop->size;
}

static size_t ga_evaluated(const nk_strategy_params *p)
{
    return p->size;
}

static bool ga_clash(const nk_strategy_params *p, nk_strategy_clash *c)
{
    if (p->elite >= p->size)
        *c = (nk_strategy_clash){"strategy.elitism", "must be below", "population.size"};
    else if (p->select == &nk_select_tournament && p->select_par.tournament > p->size)
        *c = (nk_strategy_clash){"selection.tournament_size", "must be at most",
                                 "population.size"};
    else
        return false;
    return true;
}

const nk_strategy_type nk_strategy_ga = {
    .name = "ga",
    .help = "generational GA: elitism, selection, crossover, mutation",
    .code = 1,
    .size_of = ga_size_of,
    .size_key = "population.size",
    .evaluated = ga_evaluated,
    .evaluated_doc = "`population.size`",
    .clash = ga_clash,
    .clash_doc = "`strategy.elitism` < `population.size`, and with `tournament` selection "
                 "`selection.tournament_size` <= `population.size`",
    .init = ga_init,
    .release = nk_strategy_no_release,
    .ask = ga_ask,
    .tell = nk_strategy_no_tell,
    .state_size = nk_strategy_no_state_size,
    .save = nk_strategy_no_state_save,
    .load = nk_strategy_no_state_load,
    .info = NULL,
};
