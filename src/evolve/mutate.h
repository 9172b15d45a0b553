/*
 * mutate.h -- mutation operators.
 *
 * Operators are const type objects found by name:
 *
 *   none        no change (real and binary)
 *   bit-flip    each bit flips with probability rate (binary only)
 *   gaussian    each weight, with probability rate, gets
 *               N(0, (sigma * (hi - lo))^2) added, then is clamped (real)
 *   polynomial  Deb's bounded polynomial mutation with index eta, each
 *               weight with probability rate; the perturbation is scaled to
 *               the distances to the bounds, so results stay within them by
 *               construction (clamped only against rounding) (real)
 *   lognormal   self-adaptive ES mutation: with N0 one standard normal per
 *               individual and N_i one per weight,
 *                 sigma_i <- sigma_i exp(tau' N0 + tau N_i),
 *                 tau = c / sqrt(2 sqrt(D)), tau' = c / sqrt(2 D)
 *               (c = tau_scale, 1 by default), then sigma_i is kept within
 *               [sigma_floor * (hi - lo), hi - lo]; each weight, with
 *               probability rate, then gets sigma_i N(0, 1) added and is
 *               clamped.  All step sizes are updated whatever the rate.
 *               Needs the population's sigma rows (real)
 *
 * Rates: a negative rate means the default 1/n, n the number of weights
 * (bits for bit-flip).  ES strategies normally use rate 1.
 */
#ifndef NK_MUTATE_H
#define NK_MUTATE_H

#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "evolve/genome.h"
#include "base/param.h"
#include "base/status.h"

/* The parameters of the operators, declared once (base/param.h says the row
 * shape): the fields of nk_mutate_params, their library defaults
 * (nk_mutate_params_init), and the config keys mutation.* (io/config.c).
 * The library also takes a negative rate (1/n); a config does not. */
#define NK_MUTATE_PARAMS(X, P)                                                               \
    X(P, mutation, rate, rate, DOUBLE, double, "0.2", NK_RANGE(0, 1), NULL, NULL, NULL,       \
      "probability that a weight (a bit, for bit-flip) mutates")                             \
    X(P, mutation, sigma, sigma, DOUBLE, double, "0.1", NK_ABOVE(0), NULL, NULL, NULL,        \
      "gaussian: standard deviation, as a fraction of the weight range")                     \
    X(P, mutation, poly_eta, eta, DOUBLE, double, "20", NK_ABOVE(0), NULL, NULL, NULL,        \
      "polynomial: distribution index (large: small steps)")

typedef struct nk_mutate_params {
    NK_MUTATE_PARAMS(NK_PARAM_FIELD, _)
    /* Not config keys (set by the strategy or the caller): */
    double tau_scale;   /* lognormal: factor c on tau and tau', > 0 */
    double sigma_floor; /* lognormal: least step size, fraction of the range, (0, 1) */
} nk_mutate_params;

/* The table of NK_MUTATE_PARAMS over nk_mutate_params; *n its length. */
const nk_param *nk_mutate_params_table(size_t *n);

typedef struct nk_mutate_type {
    const char *name;
    const char *help;  /* one line */
    bool needs_sigma;  /* uses the population's step sizes */
    /* Real genomes: mutates w (and sigma when needs_sigma) in place, within
     * bounds; returns the number of weights changed.  NULL: binary only. */
    size_t (*real)(const nk_mutate_params *p, const nk_genome *g, double *w,
                   double *sigma, gsl_rng *rng);
    /* Binary genomes; returns the number of bits flipped.  NULL: real only. */
    size_t (*bits)(const nk_mutate_params *p, size_t nbits, unsigned char *bits,
                   gsl_rng *rng);
} nk_mutate_type;

extern const nk_mutate_type nk_mutate_none;
extern const nk_mutate_type nk_mutate_bit_flip;
extern const nk_mutate_type nk_mutate_gaussian;
extern const nk_mutate_type nk_mutate_polynomial;
extern const nk_mutate_type nk_mutate_lognormal;

/* The operators, NULL-terminated. */
const nk_mutate_type *const *nk_mutate_types(void);
/* The operator called name, or NULL. */
const nk_mutate_type *nk_mutate_find(const char *name);
/* The name of item i of the list, NULL past the end (the choices of the
 * config key that picks one, base/param.h NK_CHOICES_OF). */
const char *nk_mutate_name_at(size_t i);
/* Writes "none, bit-flip, ..." into buf; returns buf. */
char *nk_mutate_names(char *buf, size_t len);

/* Default parameters: from NK_MUTATE_PARAMS rate 0.2, sigma 0.1, eta 20;
 * tau_scale 1, sigma_floor 1e-8. */
void nk_mutate_params_init(nk_mutate_params *p);
/* Checks that t suits the encoding and that its parameters are in range.
 * NK_EINVAL (wrong encoding) or NK_ERANGE. */
nk_status nk_mutate_check(const nk_mutate_type *t, const nk_mutate_params *p,
                          nk_encoding encoding, char *err, size_t errlen);
/* The rate applied to n weights or bits (p->rate, or 1/n if negative). */
double nk_mutate_rate(const nk_mutate_params *p, size_t n);

/* Mutates real weights w[D] (and sigma[D] for lognormal; may be NULL for
 * the others) in place; returns the number of weights changed. */
size_t nk_mutate_real(const nk_mutate_type *t, const nk_mutate_params *p,
                      const nk_genome *g, double *w, double *sigma, gsl_rng *rng);
/* Mutates a bit string in place; returns the number of bits flipped. */
size_t nk_mutate_bits(const nk_mutate_type *t, const nk_mutate_params *p,
                      size_t nbits, unsigned char *bits, gsl_rng *rng);
/* Mutates individual i of pop by its genome's encoding (decoding the bits
 * afterwards); returns the number of weights or bits changed. */
size_t nk_mutate_pop(const nk_mutate_type *t, const nk_mutate_params *p,
                     nk_pop *pop, size_t i, gsl_rng *rng);

#endif
