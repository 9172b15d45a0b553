/*
 * strategy_impl.h -- private: the strategy object shared by strategy.c and
 * the implementations ga.c, es.c, cmaes.c, sepcmaes.c, openaies.c.  Not
 * part of the public API.
 *
 * Life of a generation: ask() fills `next` (reading `cur`, the population
 * last told) and records in `pending_ids` how many fresh ids it used;
 * tell() copies the fitness into `next`, swaps `next` and `cur`, commits the
 * ids and the best-ever record, then calls the type's tell hook, which
 * updates whatever else the type keeps (CMA-ES: its distribution).  ask()
 * changes nothing that save() writes.
 */
#ifndef NK_STRATEGY_IMPL_H
#define NK_STRATEGY_IMPL_H

#include <stdbool.h>

#include "evolve/strategy.h"

struct nk_strategy {
    const nk_strategy_type *type;
    const nk_genome *genome;
    nk_strategy_params par; /* par.x0 points at x0 below (or NULL) */
    double *x0;             /* [D] copy of the initial mean, or NULL */
    size_t n;               /* N, population size */
    size_t mu;              /* es, cma-es: parents */
    bool with_sigma;        /* populations carry step sizes */
    nk_pop *cur;            /* last told population (valid once generation > 0) */
    nk_pop *next;           /* last asked population */
    nk_pop *pair;           /* 2 rows: children before they are placed */
    size_t *idx;            /* scratch [2 N] */
    bool asked;
    int64_t pending_ids;    /* fresh ids used by the last ask */
    uint64_t generation;
    int64_t next_id;
    uint64_t evaluations;
    double best_fitness;
    int64_t best_id;
    double *best_w;         /* [D] */
    void *impl;             /* type-specific state (cma-es) */
};

/* Fresh id k (0-based) of the population being asked. */
static inline int64_t nk_strategy_fresh_id(nk_strategy *s)
{
    return s->next_id + s->pending_ids++;
}

/* Marks individual i of pop as new: fitness NAN, fresh id, parents a, b. */
void nk_strategy_mark_new(nk_strategy *s, nk_pop *pop, size_t i, int64_t a, int64_t b);

/* Hooks shared by the types that keep no state beyond the population. */
size_t nk_strategy_no_state_size(const nk_strategy *s);
void nk_strategy_no_state_save(const nk_strategy *s, double *out);
nk_status nk_strategy_no_state_load(nk_strategy *s, const double *in, char *err,
                                    size_t errlen);
void nk_strategy_no_release(nk_strategy *s);
void nk_strategy_no_tell(nk_strategy *s);

/* What the types made with lambda (es-plus, es-comma, cma-es) share of the
 * hooks on a run's settings (es.c): the size is strategy.lambda; N is
 * lambda (not for es-plus); strategy.mu <= strategy.lambda (es-comma;
 * the CMA-ES have their own rule, below). */
size_t nk_strategy_lambda_of(const nk_population_settings *pop, const nk_strategy_settings *st);
size_t nk_strategy_lambda_evaluated(const nk_strategy_params *p);
bool nk_strategy_mu_clash(const nk_strategy_params *p, nk_strategy_clash *c);
#define NK_STRATEGY_MU_CLASH_DOC "`strategy.mu` <= `strategy.lambda`"
/* cma-es and sep-cma-es (strategy.c): strategy.mu <= strategy.lambda / 2,
 * where every recombination weight ln((lambda + 1) / 2) - ln(i) is
 * positive (nk_strategy_cma_weights). */
bool nk_strategy_cma_mu_clash(const nk_strategy_params *p, nk_strategy_clash *c);
#define NK_STRATEGY_CMA_MU_CLASH_DOC "`strategy.mu` <= `strategy.lambda` / 2"

/* What the types that work in coordinates normalised to the bounds share
 * (cma-es, sep-cma-es, openai-es; strategy.c): u_i = (w_i - lo_i) /
 * (hi_i - lo_i), the box is [0, 1]^D.
 * - nk_strategy_check_x0: NK_ERANGE (naming the weight) if the initial
 *   mean par.x0 lies outside the bounds;
 * - nk_strategy_unit_mean0: u[D] = par.x0 normalised, or the centre 0.5;
 * - nk_strategy_unit_to_w: w[D] = lo + (hi - lo) u, clamped to the bounds;
 * - nk_strategy_cma_weights: the recombination weights of CMA-ES,
 *   w_i = ln((lambda + 1) / 2) - ln i for i = 1..mu, normalised to sum 1,
 *   into w[mu]; returns mueff = 1 / sum w_i^2. */
nk_status nk_strategy_check_x0(const nk_strategy *s, char *err, size_t errlen);
void nk_strategy_unit_mean0(const nk_strategy *s, double *u);
void nk_strategy_unit_to_w(const nk_genome *g, const double *u, double *w);
double nk_strategy_cma_weights(size_t lambda, size_t mu, double *w);

#endif
