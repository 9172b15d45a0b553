/*
 * strategy.h -- evolution strategies as ask / tell steps.
 *
 * A strategy turns fitness values into the next population to evaluate.  It
 * knows nothing of games: the caller evaluates the weight rows of the
 * population that nk_strategy_ask() gives, and hands the fitness values
 * (higher is better) back with nk_strategy_tell().  Between the two the
 * caller logs, writes the population to the run file, and checkpoints:
 *
 *     nk_strategy_alloc(&s, &nk_strategy_cma_es, genome, &params, err, len);
 *     for (gen = ...) {
 *         seed rng[i] from (master seed, gen, i) for i < nk_strategy_size(s);
 *         nk_strategy_ask(s, rng, n, &pop, err, len);     evaluate pop->w rows
 *         nk_strategy_tell(s, fitness, n, err, len);      log, checkpoint
 *     }
 *
 * Strategies (const type objects, found by name):
 *
 *   ga        generational GA on N individuals: the best `elite` are copied
 *             unchanged (same id, same parents) to the front; the others are
 *             made in pairs from a mating pool chosen by the selection
 *             scheme, crossed with the crossover rate and mutated
 *   es-plus   (mu+lambda)-ES: each generation's population is the mu best of
 *             the last one (same ids, fitness carried over) followed by
 *             lambda offspring, N = mu + lambda; all N are to be evaluated
 *             again (self-play fitness is relative), a caller with an
 *             absolute fitness may hand back the carried values
 *   es-comma  (mu,lambda)-ES: N = lambda offspring of the mu best of the
 *             last population
 *   cma-es    CMA-ES as in Hansen's tutorial (2016): lambda samples of
 *             N(m, sigma^2 C), weighted recombination of the mu best with
 *             w_i ~ ln((lambda+1)/2) - ln i, cumulation paths p_sigma and
 *             p_c, rank-one and rank-mu updates of C, cumulative step-size
 *             adaptation; C is eigendecomposed (gsl_eigen_symmv) every
 *             `eigen_every` generations, or lazily (0) when more than
 *             lambda / (c1 + cmu) / D / 10 evaluations have passed
 *             since the last time (every generation for small D)
 *   sep-cma-es  separable CMA-ES (Ros & Hansen 2008): CMA-ES with C kept
 *             diagonal and its learning rate raised by (D + 2) / 3, no
 *             eigendecomposition; time and memory linear in D (sepcmaes.c)
 *   openai-es natural-gradient ES after Salimans et al. (2017): lambda / 2
 *             mirrored pairs m +- sigma eps around one mean, centred-rank
 *             fitness shaping, an Adam (or plain) step on the mean along
 *             the estimated gradient, sigma fixed at sigma0, optional
 *             weight decay (openaies.c)
 *
 * ES offspring: a parent drawn uniformly from the mu best (and, when the
 * crossover is not `none`, a second one, the pair crossed with the
 * crossover rate; first child kept), then mutated (lognormal by default:
 * the step sizes live in the population's sigma rows).  The selection
 * scheme is not used by the ES.
 *
 * CMA-ES works in coordinates normalised to the bounds, u_i = (w_i - lo_i) /
 * (hi_i - lo_i) in [0, 1], so sigma0 is a fraction of each weight's range.
 * A sample outside the box is clamped into it, and the clamped point is both
 * evaluated and used in the update (Lamarckian repair), so the mean stays
 * inside the box.  Its individuals have no parents (-1).  sep-cma-es and
 * openai-es work in the same coordinates, sigma0 the same fraction;
 * openai-es clamps its samples for evaluation but estimates the gradient
 * from the unclamped noise, and clamps its mean.
 *
 * Randomness: ask() takes one generator per individual of the population it
 * makes; rng[i] makes individual i (its initial draw, crossover of the pair
 * it heads, mutation, or CMA sample; openai-es: rng[2j] draws the noise of
 * the mirrored pair 2j, 2j + 1, and rng[2j + 1] is not used).  Selection
 * of the GA's whole mating pool, one draw for the population, uses rng[0].
 * Nothing else is random, so a run depends only on how the caller seeds
 * the generators.
 *
 * Ids: fresh ids count up from 0 in population order, one per new
 * individual; survivors (elites, ES parents) keep theirs.
 *
 * Resume: ask() does not change the state that nk_strategy_save() writes
 * (the state as of the last tell), and ask() with generators seeded alike
 * gives the same population.  Saving after a tell and loading into a
 * strategy allocated with the same type, genome and parameters continues
 * exactly.  The state is a flat array of doubles (ids are exact below
 * 2^53).
 */
#ifndef NK_STRATEGY_H
#define NK_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "evolve/crossover.h"
#include "evolve/genome.h"
#include "evolve/mutate.h"
#include "evolve/select.h"
#include "base/param.h"
#include "base/status.h"

typedef struct nk_strategy nk_strategy;

/* The knobs of a run's strategy as a config gives them (section strategy),
 * declared once (base/param.h says the row shape): the fields of
 * nk_strategy_settings, its defaults and the config keys strategy.*.
 * run/settings.c turns them into nk_strategy_params. */
#define NK_STRATEGY_PARAMS(X, P)                                                             \
    X(P, strategy, kind, kind, ENUM, const char *, "ga", NK_ANY,                             \
      NK_CHOICES_OF(nk_strategy_name_at), NULL, NULL,                                        \
      "generational GA, (mu+lambda)-ES, (mu,lambda)-ES, CMA-ES, separable CMA-ES or "        \
      "OpenAI-style natural-gradient ES")                                                    \
    X(P, strategy, mu, mu, INT, int, "4", NK_ATLEAST(1), NULL, NULL, NULL,                    \
      "ES: parents kept each generation; CMA-ES: best samples recombined")                   \
    X(P, strategy, lambda, lambda, INT, int, "16", NK_ATLEAST(1), NULL, NULL, NULL,           \
      "ES, CMA-ES: offspring (samples) per generation; openai-es: even (mirrored pairs)")    \
    X(P, strategy, elitism, elitism, INT, int, "1", NK_ATLEAST(0), NULL, NULL, NULL,          \
      "ga: best individuals copied unchanged into the next generation")                      \
    X(P, strategy, sigma0, sigma0, DOUBLE, double, "0.3", NK_ABOVE(0), NULL, NULL, NULL,      \
      "ES, CMA-ES: initial step size; openai-es: its fixed sigma; a fraction of the range")   \
    X(P, strategy, sigma_min, sigma_min, DOUBLE, double, "1e-6", NK_BETWEEN(0, 1), NULL,      \
      NULL, NULL, "ES: least step size, as a fraction of the weight range")                  \
    X(P, strategy, optimizer, optimizer, ENUM, const char *, "adam", NK_ANY,                  \
      NK_CHOICES_OF(nk_strategy_optimizer_name_at), NULL, NULL,                              \
      "openai-es: the step on the mean, adam (Kingma & Ba 2015) or sgd (plain ascent)")      \
    X(P, strategy, learning_rate, learning_rate, DOUBLE, double, "0.01", NK_ABOVE_TO(0, 1),   \
      NULL, NULL, NULL, "openai-es: step size of the optimizer, as a fraction of the range")  \
    X(P, strategy, weight_decay, weight_decay, DOUBLE, double, "0", NK_RANGE(0, 1), NULL,     \
      NULL, NULL, "openai-es: L2 pull of every weight towards 0 (0: none)")

/* The step rules of openai-es (strategy.optimizer). */
typedef enum nk_strategy_optimizer {
    NK_OPTIMIZER_ADAM, /* Adam (Kingma & Ba 2015): beta1 0.9, beta2 0.999, eps 1e-8 */
    NK_OPTIMIZER_SGD   /* plain gradient ascent: m += learning_rate g */
} nk_strategy_optimizer;
/* The name of optimizer i ("adam", "sgd"), NULL past the end. */
const char *nk_strategy_optimizer_name_at(size_t i);
/* The optimizer called name into *out; false (and *out unchanged) if none. */
bool nk_strategy_optimizer_find(const char *name, nk_strategy_optimizer *out);

typedef struct nk_strategy_settings {
    NK_STRATEGY_PARAMS(NK_PARAM_FIELD, _)
} nk_strategy_settings;
typedef struct nk_strategy_info nk_strategy_info;

typedef struct nk_strategy_params {
    size_t size;  /* ga: N; es: lambda; cma-es, sep-cma-es: lambda (0: 4 +
                     floor(3 ln D)); openai-es: lambda, even (0: the same,
                     rounded up to even) */
    size_t mu;    /* es: parents (comma: mu <= lambda); cma-es, sep-cma-es:
                     0 = lambda / 2; openai-es: not used */
    size_t elite; /* ga: individuals copied unchanged, <= N */
    const nk_select_type *select;  /* ga */
    nk_select_params select_par;
    const nk_cross_type *cross;    /* ga, es (es: NULL = none) */
    nk_cross_params cross_par;
    const nk_mutate_type *mutate;  /* ga, es */
    nk_mutate_params mutate_par;
    double sigma0;         /* es: initial step sizes; cma-es, sep-cma-es:
                              initial sigma; openai-es: the fixed sigma; all as
                              fractions of each weight's range, > 0 */
    const double *x0;      /* cma-es: initial mean (D weights; NULL: the
                              centre of the bounds); copied at alloc */
    unsigned eigen_every;  /* cma-es: decompose C every k generations; 0: lazily */
    nk_strategy_optimizer optimizer; /* openai-es: the step on the mean */
    double learning_rate;  /* openai-es: the optimizer's step size, (0, 1] */
    double weight_decay;   /* openai-es: L2 pull towards 0, [0, 1] */
} nk_strategy_params;

/* A rule across two settings of a run that a strategy's parameters break
 * (nk_strategy_type.clash): "<a> <relation> <b>", a and b the config keys
 * of the parameters (strategy.*, population.*, selection.*). */
typedef struct nk_strategy_clash {
    const char *a, *relation, *b;
} nk_strategy_clash;

typedef struct nk_strategy_type {
    const char *name;
    const char *help; /* one line */
    int code;         /* identifies the type in saved states */
    /* What the type makes of a run's settings (run/settings.c asks these;
     * no code outside the type tests its name):
     * - size_of: nk_strategy_params.size from the settings, taken from the
     *   config key size_key (population.size or strategy.lambda);
     * - evaluated: N, the individuals each generation asks to be evaluated
     *   (nk_strategy_size; a run plays them all, parents carried over
     *   included), from the parameters' size and mu; evaluated_doc says it
     *   in config keys for configs/README.md;
     * - clash: whether the parameters break a rule across the settings
     *   (then *c names it) before nk_strategy_alloc refuses them in its own
     *   words; clash_doc is the rule for configs/README.md (both NULL: the
     *   type has none). */
    size_t (*size_of)(const nk_population_settings *pop, const nk_strategy_settings *st);
    const char *size_key;
    size_t (*evaluated)(const nk_strategy_params *p);
    const char *evaluated_doc;
    bool (*clash)(const nk_strategy_params *p, nk_strategy_clash *c);
    const char *clash_doc;
    /* The most weights (genome dimension) the type takes, 0 for any: the
     * full-covariance CMA-ES keeps D x D matrices and decomposes them
     * (O(D^3)), so it stops at NK_CMAES_MAX_DIM; the linear-time types
     * (sep-cma-es, openai-es) and the GA and ES take any.  nk_strategy_alloc
     * refuses a larger genome (NK_ERANGE). */
    size_t max_dim;
    /* Implementation hooks (strategy_impl.h); callers use the functions
     * below. */
    nk_status (*init)(nk_strategy *s, char *err, size_t errlen);
    void (*release)(nk_strategy *s);
    nk_status (*ask)(nk_strategy *s, gsl_rng *const *rng, char *err, size_t errlen);
    void (*tell)(nk_strategy *s);
    size_t (*state_size)(const nk_strategy *s);
    void (*save)(const nk_strategy *s, double *out);
    nk_status (*load)(nk_strategy *s, const double *in, char *err, size_t errlen);
    void (*info)(const nk_strategy *s, nk_strategy_info *info); /* may be NULL */
} nk_strategy_type;

/* The most weights the full-covariance CMA-ES takes (max_dim above): its
 * covariance, eigenvectors and decomposition cost 2 D^2 doubles (16 MB at
 * 1000) and O(D^3) work; for thousands of weights (an n-tuple network)
 * use sep-cma-es or openai-es. */
enum { NK_CMAES_MAX_DIM = 1000 };

extern const nk_strategy_type nk_strategy_ga;
extern const nk_strategy_type nk_strategy_es_plus;
extern const nk_strategy_type nk_strategy_es_comma;
extern const nk_strategy_type nk_strategy_cma_es;
extern const nk_strategy_type nk_strategy_sep_cma_es;
extern const nk_strategy_type nk_strategy_openai_es;

/* The strategies, NULL-terminated. */
const nk_strategy_type *const *nk_strategy_types(void);
/* The strategy called name, or NULL. */
const nk_strategy_type *nk_strategy_find(const char *name);
/* The name of item i of the list, NULL past the end (the choices of the
 * config key that picks one, base/param.h NK_CHOICES_OF). */
const char *nk_strategy_name_at(size_t i);
/* Writes "ga, es-plus, es-comma, cma-es, sep-cma-es, openai-es" into buf;
 * returns buf. */
char *nk_strategy_names(char *buf, size_t len);

/* Default parameters of strategy t for a genome of that encoding:
 *   ga:       N 50, elite 1, tournament k = 3, uniform crossover rate 0.9,
 *             gaussian mutation (sigma 0.1, rate 0.2) or bit-flip (rate 1/n)
 *   es-*:     mu 5, lambda 35, no crossover, lognormal mutation rate 1,
 *             sigma0 0.1 (binary genomes: bit-flip, rate 1/n)
 *   cma-es:   lambda and mu by D (0), sigma0 0.3, lazy eigendecomposition
 *   sep-cma-es: lambda and mu by D (0), sigma0 0.3
 *   openai-es: lambda by D (0: 4 + floor(3 ln D), rounded up to even),
 *             sigma0 0.05, adam, learning rate 0.01, no weight decay
 * and the operator defaults of select.h, crossover.h, mutate.h. */
void nk_strategy_params_init(nk_strategy_params *p, const nk_strategy_type *t,
                             nk_encoding encoding);

/* Makes a strategy of type t for genome g (borrowed: it must outlive the
 * strategy) with parameters p (copied, x0 included).  Checks the operators
 * against the encoding and every parameter; NK_EINVAL / NK_ERANGE say which
 * one is wrong; NK_ENOMEM. */
nk_status nk_strategy_alloc(nk_strategy **out, const nk_strategy_type *t,
                            const nk_genome *g, const nk_strategy_params *p,
                            char *err, size_t errlen);
/* Frees a strategy; NULL is allowed. */
void nk_strategy_free(nk_strategy *s);
/* The type of s. */
const nk_strategy_type *nk_strategy_type_of(const nk_strategy *s);
/* N, the size of every population ask() makes (the number of generators it
 * needs). */
size_t nk_strategy_size(const nk_strategy *s);

/* Makes the next population to evaluate from rng[0..nrng) (nrng >= N) and
 * points *pop at it (owned by s; fitness is NAN for new individuals, carried
 * over for survivors).  The pointer stays valid through the tell, after
 * which it is the population nk_strategy_pop() returns, fitness filled in,
 * until the next ask.  Asking again before telling makes it afresh.
 * NK_EINVAL if nrng < N or a generator is NULL; NK_ENOMEM. */
nk_status nk_strategy_ask(nk_strategy *s, gsl_rng *const *rng, size_t nrng,
                          const nk_pop **pop, char *err, size_t errlen);
/* Gives the fitness values fitness[N] of the population last asked, in its
 * order, and updates the strategy.  NK_EINVAL (and no change) if nothing
 * was asked, n != N, or some fitness is not finite. */
nk_status nk_strategy_tell(nk_strategy *s, const double *fitness, size_t n,
                           char *err, size_t errlen);
/* The population last told, with its fitness (NULL before the first tell). */
const nk_pop *nk_strategy_pop(const nk_strategy *s);

struct nk_strategy_info {
    uint64_t generation;  /* tells so far */
    uint64_t evaluations; /* fitness values told so far */
    double best_fitness;  /* best ever told (-inf before the first tell);
                             meaningful when fitness is absolute */
    int64_t best_id;      /* its id (-1 before the first tell) */
    const double *best_w; /* [D] its weights */
    double sigma;         /* cma-es, sep-cma-es, openai-es: step size
                             (fraction of the range); es: mean step size of
                             the last population over the range; ga: 0 */
    double axis_ratio;    /* cma-es, sep-cma-es: sqrt of the condition number
                             of C; else 1 */
    const double *mean;   /* cma-es, sep-cma-es, openai-es: mean of the
                             distribution (weights); else NULL */
};

/* Fills info about s (pointers valid until the next ask, tell or load). */
void nk_strategy_info_get(const nk_strategy *s, nk_strategy_info *info);

/* The number of doubles nk_strategy_save() writes. */
size_t nk_strategy_state_size(const nk_strategy *s);
/* Writes the state of s as of the last tell into state[state_size]. */
void nk_strategy_save(const nk_strategy *s, double *state);
/* Restores a state written by nk_strategy_save() from a strategy of the
 * same type, genome shape and parameters.  NK_EMISMATCH if it was made by
 * another type or shape, NK_EFORMAT if it is damaged; s is unchanged on
 * error. */
nk_status nk_strategy_load(nk_strategy *s, const double *state, size_t n,
                           char *err, size_t errlen);

#endif
