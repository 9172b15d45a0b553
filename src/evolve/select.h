/*
 * select.h -- parent selection and elitism.
 *
 * A selection scheme picks m parent indices out of n individuals given their
 * fitness values (higher is better; all finite).  Schemes are const type
 * objects found by name, so that configs choose them:
 *
 *   tournament   k distinct individuals drawn uniformly (without
 *                replacement), the fittest wins; k = n always picks the best
 *   roulette     fitness-proportional, each pick independent
 *   linear-rank  Baker's linear ranking: the individual of rank r (0 = worst,
 *                n-1 = best) is picked with probability
 *                (2 - s + 2 (s - 1) r / (n - 1)) / n, pressure s in [1, 2]:
 *                the best expects s copies among n picks, the worst 2 - s
 *   truncation   uniform among the best round(fraction * n) (at least 1)
 *   sus          stochastic universal sampling: fitness-proportional with
 *                one spin and m equally spaced pointers, so individual i gets
 *                floor or ceil of its expected count m * f_i / sum f; the
 *                picks are then shuffled (Fisher-Yates, same generator) so
 *                that consecutive picks are not neighbours
 *
 * Roulette and SUS shift: proportional selection needs non-negative
 * weights, so each fitness f_i is weighted f_i - min(0, min_j f_j).  When
 * all fitness values are >= 0 nothing changes (plain proportions); when some
 * are negative the worst individual gets weight 0 (windowing).  If all
 * weights are 0 the picks are uniform.
 *
 * Ties: where an order is needed (ranking, truncation, elitism, tournament
 * winner) equal fitness values are ordered by index, lower first.
 *
 * All randomness comes from the generator passed in; no state is kept.
 */
#ifndef NK_SELECT_H
#define NK_SELECT_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "base/status.h"

typedef struct nk_select_params {
    size_t tournament; /* tournament: size k, 1 <= k <= n */
    double pressure;   /* linear-rank: selection pressure s in [1, 2] */
    double fraction;   /* truncation: fraction of the best eligible, (0, 1] */
} nk_select_params;

typedef struct nk_select_type {
    const char *name;
    const char *help; /* one line */
    /* Picks m indices into out; params and fitness already checked. */
    nk_status (*pick)(const nk_select_params *p, const double *fitness, size_t n,
                      size_t *out, size_t m, gsl_rng *rng);
} nk_select_type;

extern const nk_select_type nk_select_tournament;
extern const nk_select_type nk_select_roulette;
extern const nk_select_type nk_select_linear_rank;
extern const nk_select_type nk_select_truncation;
extern const nk_select_type nk_select_sus;

/* The schemes, NULL-terminated. */
const nk_select_type *const *nk_select_types(void);
/* The scheme called name, or NULL. */
const nk_select_type *nk_select_find(const char *name);
/* Writes "tournament, roulette, ..." into buf (for error messages); returns
 * buf. */
char *nk_select_names(char *buf, size_t len);

/* Default parameters: k = 2, s = 1.5, fraction = 0.5. */
void nk_select_params_init(nk_select_params *p);
/* Checks the parameters that scheme t uses against a population of n.
 * NK_ERANGE naming the bad parameter. */
nk_status nk_select_check(const nk_select_type *t, const nk_select_params *p,
                          size_t n, char *err, size_t errlen);
/* Picks m parent indices out of n (fitness[n], higher is better) into out.
 * NK_EINVAL if some fitness is not finite or n == 0, NK_ERANGE for bad
 * parameters, NK_ENOMEM. */
nk_status nk_select_run(const nk_select_type *t, const nk_select_params *p,
                        const double *fitness, size_t n, size_t *out, size_t m,
                        gsl_rng *rng, char *err, size_t errlen);

/* Sorts the indices 0..n-1 best first (stable: ties by index, NaN last)
 * into order[n].  NK_ENOMEM. */
nk_status nk_select_order(const double *fitness, size_t n, size_t *order);
/* The same without allocating: scratch holds n indices. */
void nk_select_sort(const double *fitness, size_t n, size_t *order, size_t *scratch);
/* Elitism: the indices of the count best individuals, best first, into
 * out[count] (count <= n).  NK_ERANGE if count > n, NK_ENOMEM. */
nk_status nk_select_elite(const double *fitness, size_t n, size_t count, size_t *out);
/* The shift roulette and SUS add to every fitness: max(0, -min fitness). */
double nk_select_shift(const double *fitness, size_t n);

#endif
