/*
 * genome.h -- genomes (what a weight vector is made of) and populations.
 *
 * A genome describes the genotype of every individual of a run: D weights,
 * each with bounds [lo, hi] (lo < hi, both finite), encoded either
 *
 *   real    the weights themselves, doubles kept within their bounds, or
 *   binary  k bits per weight (1 <= k <= 32), most significant bit first,
 *           mapped linearly onto the bounds: a gene whose bits read as the
 *           unsigned integer v decodes to lo + (hi - lo) * v / (2^k - 1),
 *           so all zeros is lo and all ones is hi (exactly: the all-ones
 *           string is given hi itself, not a rounded product).
 *
 * A population is N individuals of one genome, stored as rows of flat
 * arrays (the layout of the run file's [G, N, D] datasets): weights, ES step
 * sizes (optional), bits (binary genomes only), fitness, a unique id and the
 * ids of up to two parents (-1 where none).  For a binary genome the weight
 * row is always the decoding of the bit row; operators change the bits and
 * then call nk_pop_decode().
 *
 * A population borrows its genome: the genome must outlive it.
 */
#ifndef NK_GENOME_H
#define NK_GENOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "base/param.h"
#include "base/status.h"

typedef enum nk_encoding {
    NK_ENC_REAL = 0,  /* doubles within bounds */
    NK_ENC_BINARY = 1 /* k bits per weight, mapped onto the bounds */
} nk_encoding;

/* The population of a run as a config gives it (section population),
 * declared once (base/param.h says the row shape): the fields of
 * nk_population_settings, its defaults and the config keys population.*. */
#define NK_POPULATION_PARAMS(X, P)                                                           \
    X(P, population, size, size, INT, int, "16", NK_RANGE(2, 100000), NULL, NULL, NULL,       \
      "ga: individuals per generation (the ES and CMA-ES size theirs by strategy.mu and "    \
      "strategy.lambda)")                                                                    \
    X(P, population, encoding, encoding, ENUM, const char *, "real", NK_ANY,                 \
      NK_CHOICES_OF(nk_genome_encoding_name_at), NULL, NULL,                                 \
      "genome: real weights, or population.bits bits per weight mapped onto the bounds")     \
    X(P, population, bits, bits, INT, int, "8", NK_RANGE(1, 32), NULL, NULL, NULL,            \
      "binary encoding: bits per weight")

typedef struct nk_population_settings {
    NK_POPULATION_PARAMS(NK_PARAM_FIELD, _)
} nk_population_settings;

enum { NK_GENOME_MAX_BITS = 32 };

typedef struct nk_genome {
    size_t dim;           /* D, number of weights (>= 1) */
    nk_encoding encoding;
    unsigned bits;        /* binary: bits per weight k; real: 0 */
    double *lo, *hi;      /* [D] bounds of each weight */
} nk_genome;

/* Makes a genome of dim weights, all with bounds [lo, hi].  bits is the
 * number of bits per weight for NK_ENC_BINARY (1..32) and is ignored (set
 * to 0) for NK_ENC_REAL.  NK_EINVAL / NK_ERANGE for a bad dimension,
 * encoding, bit count or bounds; NK_ENOMEM. */
nk_status nk_genome_alloc(nk_genome **out, size_t dim, nk_encoding encoding,
                          unsigned bits, double lo, double hi,
                          char *err, size_t errlen);
/* Frees a genome; NULL is allowed. */
void nk_genome_free(nk_genome *g);
/* Sets the bounds of weight i.  NK_ERANGE unless lo < hi, both finite. */
nk_status nk_genome_set_bounds(nk_genome *g, size_t i, double lo, double hi,
                               char *err, size_t errlen);
/* The number of bits of one binary genotype (D * k); 0 for real genomes. */
size_t nk_genome_nbits(const nk_genome *g);
/* The encoding named by text ("real", "binary"); NK_EINVAL otherwise. */
nk_status nk_genome_encoding_parse(nk_encoding *out, const char *text,
                                   char *err, size_t errlen);
/* The name of an encoding ("real", "binary"). */
const char *nk_genome_encoding_name(nk_encoding encoding);
/* The name of encoding i, NULL past the end (the choices of
 * population.encoding). */
const char *nk_genome_encoding_name_at(size_t i);

/* Decodes one gene: k bits (0/1 bytes, most significant first) onto
 * [lo, hi] as described above. */
double nk_genome_decode_gene(const unsigned char *bits, unsigned k, double lo,
                             double hi);
/* Decodes a whole bit string (nk_genome_nbits bytes of 0/1) into D weights. */
void nk_genome_decode(const nk_genome *g, const unsigned char *bits, double *w);
/* Encodes D weights into the nearest bit strings (weights outside the bounds
 * are clamped first).  Decoding the result gives back weights that are
 * representable exactly. */
void nk_genome_encode(const nk_genome *g, const double *w, unsigned char *bits);
/* Clamps each weight into its bounds (NaN becomes lo). */
void nk_genome_clamp(const nk_genome *g, double *w);
/* The range hi - lo of weight i. */
double nk_genome_range(const nk_genome *g, size_t i);

/* A population (fields are public and documented; sizes fixed at alloc). */
typedef struct nk_pop {
    const nk_genome *genome; /* borrowed */
    size_t size;             /* N */
    size_t dim;              /* D (copy of genome->dim) */
    size_t nbits;            /* D * k for binary genomes, else 0 */
    double *w;               /* [N][D] weights (decoded for binary genomes) */
    double *sigma;           /* [N][D] ES step sizes (absolute units), or NULL */
    unsigned char *bits;     /* [N][nbits] 0/1 bytes, NULL for real genomes */
    double *fitness;         /* [N] higher is better; NAN until evaluated */
    int64_t *id;             /* [N] unique individual ids (-1: unset) */
    int64_t *parents;        /* [N][2] ids of the parents, -1 where none */
} nk_pop;

/* Makes a population of n >= 1 individuals of genome g, with step sizes if
 * with_sigma.  Weights, bits and sigma start at 0, fitness at NAN, ids and
 * parents at -1.  NK_EINVAL for n == 0; NK_ENOMEM. */
nk_status nk_pop_alloc(nk_pop **out, const nk_genome *g, size_t n,
                       bool with_sigma, char *err, size_t errlen);
/* Frees a population; NULL is allowed. */
void nk_pop_free(nk_pop *p);
/* Row i of the weights, step sizes (NULL without sigma) and bits (NULL for
 * real genomes). */
double *nk_pop_w(const nk_pop *p, size_t i);
double *nk_pop_sigma(const nk_pop *p, size_t i);
unsigned char *nk_pop_bits(const nk_pop *p, size_t i);
/* Copies individual j of src onto individual i of dst: weights, sigma (when
 * both have them), bits, fitness, id and parents.  Same genome required. */
void nk_pop_copy_one(nk_pop *dst, size_t i, const nk_pop *src, size_t j);
/* Recomputes the weights of individual i from its bits (binary genomes; no
 * effect on real ones). */
void nk_pop_decode(nk_pop *p, size_t i);
/* Draws individual i uniformly: weights uniform within their bounds (real)
 * or bits fair coin flips (binary); sigma, when present, set to
 * sigma0 * range of each weight. */
void nk_pop_randomize(nk_pop *p, size_t i, double sigma0, gsl_rng *rng);
/* The champion rule, the one place nickar says which individual is best
 * (the evolution loop, the strategies, and everything that finds a run's
 * champions again in its file: RUN.h5@best, @gen=G,rank=R, @champions,
 * @game=K's hall of fame, `nickar ciao`, `nickar inspect`):
 * higher fitness first, the first of ties (the lower index), and a NaN
 * fitness after every number.  nk_fitness_better says whether a ranks
 * strictly before b by it; nk_fitness_best gives the index of the
 * champion of fitness[0..n), n >= 1 (0 when all are NaN). */
bool nk_fitness_better(double a, double b);
size_t nk_fitness_best(const double *fitness, size_t n);
/* The index of the fittest individual of p (nk_fitness_best). */
size_t nk_pop_best(const nk_pop *p);

#endif
