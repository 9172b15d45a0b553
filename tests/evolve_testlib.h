/*
 * evolve_testlib.h -- helpers shared by the evolution tests
 * (test_evolve_*.c, test_run_schedule.c): a tolerance assertion, seeded generators,
 * real genomes, the caller's per-individual seeding and a runner that holds
 * one generator per individual for the ask / tell loop.
 *
 * Everything here is static inline, so a test that uses only part of it gets
 * no unused-function warning.
 */
#ifndef NK_TESTS_EVOLVE_TESTLIB_H
#define NK_TESTS_EVOLVE_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "evolve/genome.h"
#include "evolve/strategy.h"

/* assert |a - b| <= tol, printing both on failure. */
static inline void near_at(double a, double b, double tol, const char *file, int line)
{
    if (!(fabs(a - b) <= tol)) {
        print_error("%.17g differs from %.17g by more than %g\n", a, b, tol);
        _fail(file, line);
    }
}
#define assert_near(a, b, tol) near_at((a), (b), (tol), __FILE__, __LINE__)

/* A Mersenne Twister seeded with `seed`; gsl_rng_free() it. */
static inline gsl_rng *new_rng(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    return r;
}

/* A real genome of d genes, all on [lo, hi]; nk_genome_free() it. */
static inline nk_genome *real_genome(size_t d, double lo, double hi)
{
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, d, NK_ENC_REAL, 0, lo, hi, NULL, 0), NK_OK);
    return g;
}

/* The caller's per-individual seeding: a hash of (master, generation, i). */
static inline unsigned long seed_of(uint64_t master, uint64_t gen, uint64_t i)
{
    uint64_t x = master * 0x9E3779B97F4A7C15u ^ (gen + 1) * 0xBF58476D1CE4E5B9u ^
                 (i + 1) * 0x94D049BB133111EBu;
    x ^= x >> 31;
    x *= 0xD6E9F8CC1B1A0D27u;
    x ^= x >> 29;
    return (unsigned long)(x & 0xffffffffu);
}

/* One generator per individual, n of them, seeded by seed_of(master, ...). */
typedef struct runner {
    gsl_rng **rng; /* [n] */
    size_t n;
    uint64_t master;
} runner;

static inline void runner_init(runner *rn, uint64_t master, size_t n)
{
    rn->master = master;
    rn->n = n;
    rn->rng = malloc(n * sizeof *rn->rng);
    assert_non_null(rn->rng);
    for (size_t i = 0; i < n; i++)
        rn->rng[i] = gsl_rng_alloc(gsl_rng_mt19937);
}

static inline void runner_free(runner *rn)
{
    for (size_t i = 0; i < rn->n; i++)
        gsl_rng_free(rn->rng[i]);
    free(rn->rng);
}

/* Seeds the generator of each individual for the strategy's current
 * generation and asks for the population. */
static inline const nk_pop *runner_ask(runner *rn, nk_strategy *s)
{
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    size_t n = nk_strategy_size(s);
    assert_true(n <= rn->n);
    for (size_t i = 0; i < n; i++)
        gsl_rng_set(rn->rng[i], seed_of(rn->master, info.generation, i));
    const nk_pop *pop;
    char err[200];
    assert_int_equal(nk_strategy_ask(s, rn->rng, n, &pop, err, sizeof err), NK_OK);
    return pop;
}

/* Two populations are the same: weights, step sizes and bits where present,
 * ids and parents. */
static inline void assert_same_pop(const nk_pop *a, const nk_pop *b)
{
    assert_int_equal(a->size, b->size);
    assert_memory_equal(a->w, b->w, a->size * a->dim * sizeof(double));
    if (a->sigma)
        assert_memory_equal(a->sigma, b->sigma, a->size * a->dim * sizeof(double));
    if (a->bits)
        assert_memory_equal(a->bits, b->bits, a->size * a->nbits);
    assert_memory_equal(a->id, b->id, a->size * sizeof(int64_t));
    assert_memory_equal(a->parents, b->parents, 2 * a->size * sizeof(int64_t));
}

#endif
