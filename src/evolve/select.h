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

#include "base/param.h"
#include "base/status.h"

/* The parameters of the schemes, declared once (base/param.h says the row
 * shape): the fields of nk_select_params, their library defaults
 * (nk_select_params_init), and the config keys selection.* (io/config.c).
 * The library accepts tournament sizes 1..n (nk_select_check); a config
 * asks for >= 2. */
#define NK_SELECT_PARAMS(X, P)                                                               \
    X(P, selection, tournament_size, tournament, INT, size_t, "3", NK_ATLEAST(2), NULL, NULL, \
      NULL, "tournament: individuals drawn per tournament, the fittest wins")                \
    X(P, selection, rank_pressure, pressure, DOUBLE, double, "1.7", NK_RANGE(1, 2), NULL,     \
      NULL, NULL,                                                                             \
      "linear-rank: selection pressure s (the best expects s copies, the worst 2 - s)")      \
    X(P, selection, truncation, fraction, DOUBLE, double, "0.5", NK_ABOVE_TO(0, 1), NULL,     \
      NULL, NULL, "truncation: fraction of the best that may become parents")

typedef struct nk_select_params {
    NK_SELECT_PARAMS(NK_PARAM_FIELD, _)
} nk_select_params;

/* The table of NK_SELECT_PARAMS over nk_select_params; *n its length. */
const nk_param *nk_select_params_table(size_t *n);

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
/* The name of item i of the list, NULL past the end (the choices of the
 * config key that picks one, base/param.h NK_CHOICES_OF). */
const char *nk_select_name_at(size_t i);
/* Writes "tournament, roulette, ..." into buf (for error messages); returns
 * buf. */
char *nk_select_names(char *buf, size_t len);

/* Default parameters, from NK_SELECT_PARAMS: k = 3, s = 1.7, fraction = 0.5. */
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
