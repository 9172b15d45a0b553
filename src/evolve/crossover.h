/*
 * crossover.h -- recombination of two parents into two children.
 *
 * Operators are const type objects found by name.  Each works on real
 * genomes (weight vectors), and the positional ones also on binary genomes
 * (bit strings: the cut points and coin flips are per bit, not per weight).
 * How each keeps children within the bounds:
 *
 *   none        children are copies of the parents (real and binary)
 *   one-point   a cut c uniform in 1..n-1 (n genes, or bits): child 1 is
 *               a[0..c) b[c..n), child 2 is b[0..c) a[c..n); genes are
 *               parents' genes, so in bounds (real and binary; n = 1: copies)
 *   two-point   two distinct cuts c1 < c2 in 1..n-1, the middle segment
 *               swapped (n = 2: one-point; n = 1: copies)
 *   uniform     each gene (or bit) of child 1 from either parent with
 *               probability 1/2, child 2 takes the other parent's gene
 *   arithmetic  whole arithmetic: lambda uniform in [0, 1] per mating,
 *               child 1 = lambda a + (1 - lambda) b, child 2 = (1 - lambda) a
 *               + lambda b; a convex combination, clamped only against
 *               rounding (real only)
 *   blx-alpha   per gene, with I = |a_i - b_i|, a child gene is uniform in
 *               [min - alpha I, max + alpha I] intersected with the bounds:
 *               truncating the interval rather than clamping draws, so no
 *               probability piles up on the bounds (real only)
 *   sbx         simulated binary crossover (Deb & Agrawal 1995), every gene:
 *               u uniform, beta = (2u)^(1/(eta+1)) if u <= 1/2 else
 *               (1/(2(1-u)))^(1/(eta+1)), children mid -/+ beta |b - a| / 2
 *               assigned to child 1 or 2 by a fair coin; c1 + c2 = a + b
 *               before clamping; results clamped to the bounds (real only)
 *
 * Rates: nk_cross_pop() crosses a pair with probability rate, else copies
 * it.  ES step sizes of crossed children are the mean of the parents'
 * (intermediate recombination); copied children keep their parent's.
 */
#ifndef NK_CROSSOVER_H
#define NK_CROSSOVER_H

#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "evolve/genome.h"
#include "base/param.h"
#include "base/status.h"

/* The parameters of the operators, declared once (base/param.h says the row
 * shape): the fields of nk_cross_params, their library defaults
 * (nk_cross_params_init), and the config keys crossover.* (io/config.c). */
#define NK_CROSS_PARAMS(X, P)                                                                \
    X(P, crossover, rate, rate, DOUBLE, double, "0.9", NK_RANGE(0, 1), NULL, NULL, NULL,      \
      "probability that a pair of parents is crossed (else copied)")                         \
    X(P, crossover, blx_alpha, alpha, DOUBLE, double, "0.5", NK_ATLEAST(0), NULL, NULL, NULL, \
      "blx-alpha: how far children may fall outside the parents' interval")                  \
    X(P, crossover, sbx_eta, eta, DOUBLE, double, "15", NK_ABOVE(0), NULL, NULL, NULL,        \
      "sbx: distribution index (large: children near their parents)")

typedef struct nk_cross_params {
    NK_CROSS_PARAMS(NK_PARAM_FIELD, _)
} nk_cross_params;

/* The table of NK_CROSS_PARAMS over nk_cross_params; *n its length. */
const nk_param *nk_cross_params_table(size_t *n);

typedef struct nk_cross_type {
    const char *name;
    const char *help; /* one line */
    /* Real genomes: children c1, c2 of a and b (D genes), within bounds. */
    void (*real)(const nk_cross_params *p, const nk_genome *g, const double *a,
                 const double *b, double *c1, double *c2, gsl_rng *rng);
    /* Binary genomes (NULL if the operator has no bit-string form). */
    void (*bits)(size_t nbits, const unsigned char *a, const unsigned char *b,
                 unsigned char *c1, unsigned char *c2, gsl_rng *rng);
} nk_cross_type;

extern const nk_cross_type nk_cross_none;
extern const nk_cross_type nk_cross_one_point;
extern const nk_cross_type nk_cross_two_point;
extern const nk_cross_type nk_cross_uniform;
extern const nk_cross_type nk_cross_arithmetic;
extern const nk_cross_type nk_cross_blx;
extern const nk_cross_type nk_cross_sbx;

/* The operators, NULL-terminated. */
const nk_cross_type *const *nk_cross_types(void);
/* The operator called name, or NULL. */
const nk_cross_type *nk_cross_find(const char *name);
/* The name of item i of the list, NULL past the end (the choices of the
 * config key that picks one, base/param.h NK_CHOICES_OF). */
const char *nk_cross_name_at(size_t i);
/* Writes "none, one-point, ..." into buf; returns buf. */
char *nk_cross_names(char *buf, size_t len);

/* Default parameters, from NK_CROSS_PARAMS: rate 0.9, alpha 0.5, eta 15. */
void nk_cross_params_init(nk_cross_params *p);
/* Checks that t suits the encoding and that its parameters are in range.
 * NK_EINVAL (no binary form) or NK_ERANGE. */
nk_status nk_cross_check(const nk_cross_type *t, const nk_cross_params *p,
                         nk_encoding encoding, char *err, size_t errlen);

/* Crosses real parents a, b (D = g->dim genes) into c1, c2 (always crosses;
 * rate is not applied).  Children may alias neither parent. */
void nk_cross_real(const nk_cross_type *t, const nk_cross_params *p,
                   const nk_genome *g, const double *a, const double *b,
                   double *c1, double *c2, gsl_rng *rng);
/* Crosses bit strings (always); t must have a binary form. */
void nk_cross_bits(const nk_cross_type *t, size_t nbits, const unsigned char *a,
                   const unsigned char *b, unsigned char *c1, unsigned char *c2,
                   gsl_rng *rng);
/* Makes individuals c1 and c2 of dst (distinct) from individuals a and b of
 * src: one uniform draw decides, with probability p->rate, to cross (by the
 * genome's encoding; bits are then decoded), else to copy a to c1 and b to
 * c2.  Sigma as described above.  Fitness, ids and parents are left to the
 * caller.  Returns true if crossed.  dst may be a different population of
 * the same genome, but c1, c2 must not be rows of src that are read. */
bool nk_cross_pop(const nk_cross_type *t, const nk_cross_params *p,
                  const nk_pop *src, size_t a, size_t b, nk_pop *dst,
                  size_t c1, size_t c2, gsl_rng *rng);

#endif
