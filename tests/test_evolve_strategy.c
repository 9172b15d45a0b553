/*
 * test_evolve_strategy.c -- the generational GA and the (mu+lambda) and
 * (mu,lambda) evolution strategies; the ask / tell protocol, ids, saved
 * state, determinism (evolve/strategy.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evolve/strategy.h"
#include "evolve_testlib.h"

enum { MAXN = 128 };

/* Sphere around 0.3 (i + 1) - 1, maximised as -f. */
static double sphere(const double *w, size_t d)
{
    double f = 0;
    for (size_t i = 0; i < d; i++) {
        double z = w[i] - (0.3 * (double)(i + 1) - 1);
        f += z * z;
    }
    return f;
}

/* Sum of the weights (maximised as is): OneMax for binary genomes. */
static double sum(const double *w, size_t d)
{
    double f = 0;
    for (size_t i = 0; i < d; i++)
        f += w[i];
    return -f;
}

typedef double (*objective)(const double *w, size_t d);

/* One generation; returns the best fitness (-f) of the told population. */
static double generation(runner *rn, nk_strategy *s, objective f)
{
    const nk_pop *pop = runner_ask(rn, s);
    size_t n = pop->size;
    double fit[MAXN], best = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        fit[i] = -f(nk_pop_w(pop, i), pop->dim);
        best = fmax(best, fit[i]);
    }
    char err[200];
    assert_int_equal(nk_strategy_tell(s, fit, n, err, sizeof err), NK_OK);
    return best;
}

static nk_strategy *make(const nk_strategy_type *t, const nk_genome *g,
                         const nk_strategy_params *p)
{
    nk_strategy *s;
    char err[200] = "";
    nk_status st = nk_strategy_alloc(&s, t, g, p, err, sizeof err);
    if (st != NK_OK)
        print_error("%s\n", err);
    assert_int_equal(st, NK_OK);
    return s;
}

/* ===================================================================
 * Generational GA
 * =================================================================== */

static void test_ga_elitism_keeps_best(void **state)
{
    (void)state;
    nk_genome *g = real_genome(6, -5, 5);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_ga, NK_ENC_REAL);
    par.size = 40;
    par.elite = 2;
    nk_strategy *s = make(&nk_strategy_ga, g, &par);
    runner rn;
    runner_init(&rn, 1, MAXN);
    double first = generation(&rn, s, sphere), prev = first, last = first;
    for (int k = 0; k < 60; k++) {
        const nk_pop *cur = nk_strategy_pop(s);
        size_t b = nk_pop_best(cur);
        int64_t best_id = cur->id[b];
        double best_w[6];
        memcpy(best_w, nk_pop_w(cur, b), sizeof best_w);
        const nk_pop *next = runner_ask(&rn, s);
        /* the elite: first in the new population, same id, weights, fitness */
        assert_int_equal(next->id[0], best_id);
        assert_memory_equal(nk_pop_w(next, 0), best_w, sizeof best_w);
        assert_true(next->fitness[0] == cur->fitness[b]);
        assert_true(isnan(next->fitness[2]));
        double fit[40];
        for (size_t i = 0; i < 40; i++)
            fit[i] = -sphere(nk_pop_w(next, i), 6);
        assert_int_equal(nk_strategy_tell(s, fit, 40, NULL, 0), NK_OK);
        last = nk_strategy_pop(s)->fitness[nk_pop_best(nk_strategy_pop(s))];
        assert_true(last >= prev); /* never loses the best */
        prev = last;
    }
    print_message("ga 6-D sphere: best f %g -> %g in 61 generations of 40\n", -first, -last);
    assert_true(-last < -first / 100);
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    assert_true(info.best_fitness == last);
    assert_int_equal(info.evaluations, 61 * 40);
    assert_int_equal(info.generation, 61);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

static void test_ga_ids_and_parents(void **state)
{
    (void)state;
    nk_genome *g = real_genome(4, -5, 5);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_ga, NK_ENC_REAL);
    par.size = 11; /* odd: the last pair's second child is dropped */
    par.elite = 2;
    par.cross_par.rate = 0.5;
    nk_strategy *s = make(&nk_strategy_ga, g, &par);
    runner rn;
    runner_init(&rn, 2, MAXN);
    generation(&rn, s, sphere);
    const nk_pop *p0 = nk_strategy_pop(s);
    for (size_t i = 0; i < 11; i++) {
        assert_int_equal(p0->id[i], (int64_t)i);
        assert_int_equal(p0->parents[2 * i], -1);
        assert_int_equal(p0->parents[2 * i + 1], -1);
    }
    int64_t next_id = 11;
    int crossed = 0, copied = 0;
    for (int k = 0; k < 30; k++) {
        int64_t prev_ids[11];
        memcpy(prev_ids, nk_strategy_pop(s)->id, sizeof prev_ids);
        generation(&rn, s, sphere);
        const nk_pop *p = nk_strategy_pop(s);
        for (size_t i = 0; i < 11; i++) {
            bool in_prev = false, a_prev = false, b_prev = false;
            for (size_t j = 0; j < 11; j++) {
                in_prev |= p->id[i] == prev_ids[j];
                a_prev |= p->parents[2 * i] == prev_ids[j];
                b_prev |= p->parents[2 * i + 1] == prev_ids[j];
            }
            if (i < 2) { /* elites are survivors */
                assert_true(in_prev);
                continue;
            }
            assert_int_equal(p->id[i], next_id++); /* fresh ids in order */
            assert_true(a_prev);
            assert_true(b_prev || p->parents[2 * i + 1] == -1);
            crossed += b_prev;
            copied += !b_prev;
        }
    }
    assert_true(crossed > 60 && copied > 60); /* rate 0.5 */
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

static void test_ga_binary_onemax(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, 4, NK_ENC_BINARY, 8, 0, 255, NULL, 0), NK_OK);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_ga, NK_ENC_BINARY);
    assert_ptr_equal(par.mutate, &nk_mutate_bit_flip);
    par.size = 30;
    par.cross = &nk_cross_two_point;
    par.select = &nk_select_tournament;
    par.select_par.tournament = 3;
    nk_strategy *s = make(&nk_strategy_ga, g, &par);
    runner rn;
    runner_init(&rn, 3, MAXN);
    double best = 0;
    for (int k = 0; k < 80; k++) {
        best = -generation(&rn, s, sum);
        const nk_pop *p = nk_strategy_pop(s);
        for (size_t i = 0; i < p->size; i++) {
            double w[4];
            nk_genome_decode(g, nk_pop_bits(p, i), w);
            assert_memory_equal(w, nk_pop_w(p, i), sizeof w);
        }
    }
    (void)best;
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    print_message("ga binary 4 x 8 bits: best sum %g of 1020\n", info.best_fitness);
    assert_true(info.best_fitness >= 1000);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

/* Every selection with every real crossover runs and makes progress. */
static void test_ga_every_operator(void **state)
{
    (void)state;
    nk_genome *g = real_genome(5, -5, 5);
    for (const nk_select_type *const *st = nk_select_types(); *st; st++)
        for (const nk_cross_type *const *ct = nk_cross_types(); *ct; ct++) {
            nk_strategy_params par;
            nk_strategy_params_init(&par, &nk_strategy_ga, NK_ENC_REAL);
            par.size = 24;
            par.select = *st;
            par.cross = *ct;
            par.mutate = &nk_mutate_polynomial;
            nk_strategy *s = make(&nk_strategy_ga, g, &par);
            runner rn;
            runner_init(&rn, 4, MAXN);
            double first = generation(&rn, s, sphere);
            for (int k = 0; k < 40; k++)
                generation(&rn, s, sphere);
            nk_strategy_info info;
            nk_strategy_info_get(s, &info);
            if (!(info.best_fitness > first / 4))
                print_error("%s + %s: %g -> %g\n", (*st)->name, (*ct)->name, first,
                            info.best_fitness);
            assert_true(info.best_fitness > first / 4);
            runner_free(&rn);
            nk_strategy_free(s);
        }
    nk_genome_free(g);
}

/* ===================================================================
 * Evolution strategies
 * =================================================================== */

static void test_es_plus_monotone(void **state)
{
    (void)state;
    nk_genome *g = real_genome(10, -5, 5);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_es_plus, NK_ENC_REAL);
    par.mu = 5;
    par.size = 35;
    par.sigma0 = 0.1;
    nk_strategy *s = make(&nk_strategy_es_plus, g, &par);
    assert_int_equal(nk_strategy_size(s), 40);
    runner rn;
    runner_init(&rn, 5, MAXN);
    double prev = generation(&rn, s, sphere), first = prev;
    int gens = 1;
    while (-prev > 1e-6 && gens < 400) {
        const nk_pop *cur = nk_strategy_pop(s);
        size_t order[40];
        nk_select_order(cur->fitness, 40, order);
        const nk_pop *next = runner_ask(&rn, s);
        for (size_t k = 0; k < 5; k++) { /* the mu best survive, in order */
            assert_int_equal(next->id[k], cur->id[order[k]]);
            assert_true(next->fitness[k] == cur->fitness[order[k]]);
        }
        for (size_t k = 5; k < 40; k++) {
            assert_true(isnan(next->fitness[k]));
            bool from_parent = false;
            for (size_t j = 0; j < 5; j++)
                from_parent |= next->parents[2 * k] == next->id[j];
            assert_true(from_parent);
            assert_int_equal(next->parents[2 * k + 1], -1); /* no recombination */
        }
        double fit[40], best = -INFINITY;
        for (size_t i = 0; i < 40; i++) {
            fit[i] = -sphere(nk_pop_w(next, i), 10);
            best = fmax(best, fit[i]);
        }
        assert_int_equal(nk_strategy_tell(s, fit, 40, NULL, 0), NK_OK);
        assert_true(best >= prev); /* monotone: parents compete */
        prev = best;
        gens++;
    }
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    print_message("(5+35)-ES 10-D sphere: f %g -> %g in %d generations (%lu evaluations), "
                  "mean sigma/range %g\n",
                  -first, -prev, gens, (unsigned long)info.evaluations, info.sigma);
    assert_true(-prev <= 1e-6);
    assert_true(gens <= 250);
    assert_true(info.sigma < 1e-3); /* the step sizes adapted down */
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

static void test_es_comma_improves(void **state)
{
    (void)state;
    nk_genome *g = real_genome(10, -5, 5);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_es_comma, NK_ENC_REAL);
    nk_strategy *s = make(&nk_strategy_es_comma, g, &par);
    assert_int_equal(nk_strategy_size(s), 35);
    runner rn;
    runner_init(&rn, 6, MAXN);
    double first = generation(&rn, s, sphere), f = first;
    for (int k = 0; k < 150; k++)
        f = generation(&rn, s, sphere);
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    print_message("(5,35)-ES 10-D sphere: f %g -> %g in 151 generations, sigma %g\n", -first,
                  -f, info.sigma);
    assert_true(-f < -first * 1e-4);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

static void test_es_recombination(void **state)
{
    (void)state;
    nk_genome *g = real_genome(8, -5, 5);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_es_comma, NK_ENC_REAL);
    par.cross = &nk_cross_arithmetic;
    par.cross_par.rate = 1;
    nk_strategy *s = make(&nk_strategy_es_comma, g, &par);
    runner rn;
    runner_init(&rn, 7, MAXN);
    double first = generation(&rn, s, sphere), f = first;
    int two = 0;
    for (int k = 0; k < 100; k++) {
        f = generation(&rn, s, sphere);
        const nk_pop *p = nk_strategy_pop(s);
        for (size_t i = 0; i < p->size; i++)
            two += p->parents[2 * i + 1] >= 0;
    }
    assert_true(two > 3000); /* most have two parents (same parent twice: one) */
    assert_true(-f < -first * 1e-4);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

/* ===================================================================
 * Saved state and determinism, for every strategy
 * =================================================================== */

/* Runs `before` generations on a, saves, loads into a fresh b, then runs
 * both for 10 more: identical populations all along. */
static void check_resume(const nk_strategy_type *t, const nk_genome *g,
                         const nk_strategy_params *par, int before)
{
    nk_strategy *a = make(t, g, par), *b = make(t, g, par);
    runner ra, rb;
    runner_init(&ra, 8, MAXN);
    runner_init(&rb, 8, MAXN);
    for (int k = 0; k < before; k++)
        generation(&ra, a, sphere);
    size_t n = nk_strategy_state_size(a);
    double *st = malloc(n * sizeof *st), *st2 = malloc(n * sizeof *st2);
    nk_strategy_save(a, st);
    runner_ask(&ra, a); /* an ask does not change the state */
    nk_strategy_save(a, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    char err[300];
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_OK);
    if (before > 0)
        assert_same_pop(nk_strategy_pop(a), nk_strategy_pop(b));
    for (int k = 0; k < 10; k++) {
        const nk_pop *pa = runner_ask(&ra, a), *pb = runner_ask(&rb, b);
        assert_same_pop(pa, pb);
        double fit[MAXN];
        for (size_t i = 0; i < pa->size; i++)
            fit[i] = -sphere(nk_pop_w(pa, i), pa->dim);
        assert_int_equal(nk_strategy_tell(a, fit, pa->size, NULL, 0), NK_OK);
        assert_int_equal(nk_strategy_tell(b, fit, pa->size, NULL, 0), NK_OK);
    }
    nk_strategy_save(a, st);
    nk_strategy_save(b, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    nk_strategy_info ia, ib;
    nk_strategy_info_get(a, &ia);
    nk_strategy_info_get(b, &ib);
    assert_true(ia.best_fitness == ib.best_fitness && ia.best_id == ib.best_id);
    assert_int_equal(ia.evaluations, ib.evaluations);
    free(st);
    free(st2);
    runner_free(&ra);
    runner_free(&rb);
    nk_strategy_free(a);
    nk_strategy_free(b);
}

static void test_resume_every_strategy(void **state)
{
    (void)state;
    nk_genome *g = real_genome(5, -5, 5), *bin;
    assert_int_equal(nk_genome_alloc(&bin, 5, NK_ENC_BINARY, 6, -5, 5, NULL, 0), NK_OK);
    for (const nk_strategy_type *const *t = nk_strategy_types(); *t; t++) {
        nk_strategy_params par;
        nk_strategy_params_init(&par, *t, NK_ENC_REAL);
        par.size = *t == &nk_strategy_ga ? 20 : 12;
        check_resume(*t, g, &par, 0);
        check_resume(*t, g, &par, 7);
        if (*t == &nk_strategy_cma_es || *t == &nk_strategy_sep_cma_es ||
            *t == &nk_strategy_openai_es) /* real genomes only */
            continue;
        nk_strategy_params_init(&par, *t, NK_ENC_BINARY);
        par.size = 16;
        check_resume(*t, bin, &par, 5);
    }
    /* The GA with self-adaptive step sizes carries them too. */
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_ga, NK_ENC_REAL);
    par.mutate = &nk_mutate_lognormal;
    par.size = 10;
    check_resume(&nk_strategy_ga, g, &par, 4);
    nk_genome_free(bin);
    nk_genome_free(g);
}

static void test_same_seed_same_run(void **state)
{
    (void)state;
    nk_genome *g = real_genome(5, -5, 5);
    for (const nk_strategy_type *const *t = nk_strategy_types(); *t; t++) {
        nk_strategy_params par;
        nk_strategy_params_init(&par, *t, NK_ENC_REAL);
        par.size = 16;
        nk_strategy *a = make(*t, g, &par), *b = make(*t, g, &par), *c = make(*t, g, &par);
        runner ra, rb, rc;
        runner_init(&ra, 21, MAXN);
        runner_init(&rb, 21, MAXN);
        runner_init(&rc, 22, MAXN);
        for (int k = 0; k < 15; k++) {
            generation(&ra, a, sphere);
            generation(&rb, b, sphere);
            generation(&rc, c, sphere);
            assert_same_pop(nk_strategy_pop(a), nk_strategy_pop(b));
        }
        assert_true(memcmp(nk_strategy_pop(a)->w, nk_strategy_pop(c)->w,
                           5 * 16 * sizeof(double)) != 0);
        runner_free(&ra);
        runner_free(&rb);
        runner_free(&rc);
        nk_strategy_free(a);
        nk_strategy_free(b);
        nk_strategy_free(c);
    }
    nk_genome_free(g);
}

/* ===================================================================
 * Protocol and parameter errors
 * =================================================================== */

static void test_protocol_errors(void **state)
{
    (void)state;
    nk_genome *g = real_genome(3, -5, 5);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_ga, NK_ENC_REAL);
    par.size = 4;
    nk_strategy *s = make(&nk_strategy_ga, g, &par);
    char err[200];
    double fit[4] = {1, 2, 3, 4};
    assert_int_equal(nk_strategy_tell(s, fit, 4, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "ask"));
    runner rn;
    runner_init(&rn, 1, MAXN);
    const nk_pop *p;
    assert_int_equal(nk_strategy_ask(s, rn.rng, 3, &p, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "4 generators"));
    assert_int_equal(nk_strategy_ask(s, NULL, 4, &p, err, sizeof err), NK_EINVAL);
    assert_int_equal(nk_strategy_ask(s, rn.rng, 4, &p, err, sizeof err), NK_OK);
    assert_int_equal(nk_strategy_tell(s, fit, 3, err, sizeof err), NK_EINVAL);
    fit[2] = NAN;
    assert_int_equal(nk_strategy_tell(s, fit, 4, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "individual 2"));
    assert_null(nk_strategy_pop(s)); /* nothing told yet */
    fit[2] = 3;
    assert_int_equal(nk_strategy_tell(s, fit, 4, err, sizeof err), NK_OK);
    assert_int_equal(nk_strategy_tell(s, fit, 4, err, sizeof err), NK_EINVAL); /* told twice */
    /* A state of another type. */
    nk_strategy_params_init(&par, &nk_strategy_es_comma, NK_ENC_REAL);
    par.size = 4;
    par.mu = 2;
    nk_strategy *e = make(&nk_strategy_es_comma, g, &par);
    size_t n = nk_strategy_state_size(s);
    double *st = malloc(n * sizeof *st);
    nk_strategy_save(s, st);
    assert_int_equal(nk_strategy_load(e, st, n, err, sizeof err), NK_EMISMATCH);
    free(st);
    nk_strategy_free(e);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

static void test_parameter_errors(void **state)
{
    (void)state;
    nk_genome *g = real_genome(3, -5, 5), *bin;
    assert_int_equal(nk_genome_alloc(&bin, 3, NK_ENC_BINARY, 4, 0, 1, NULL, 0), NK_OK);
    nk_strategy *s = (nk_strategy *)1;
    nk_strategy_params par;
    char err[300];
    nk_strategy_params_init(&par, &nk_strategy_ga, NK_ENC_REAL);
    par.elite = 51;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_ga, g, &par, err, sizeof err), NK_ERANGE);
    assert_null(s);
    par.elite = 1;
    par.size = 0;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_ga, g, &par, err, sizeof err), NK_ERANGE);
    nk_strategy_params_init(&par, &nk_strategy_ga, NK_ENC_REAL);
    par.cross = &nk_cross_sbx;
    par.mutate = &nk_mutate_bit_flip;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_ga, g, &par, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "bit-flip"));
    par.mutate = &nk_mutate_gaussian;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_ga, bin, &par, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "sbx"));
    par.select_par.tournament = 60;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_ga, g, &par, err, sizeof err), NK_ERANGE);
    par.select_par.tournament = 2;
    par.select = NULL;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_ga, g, &par, err, sizeof err), NK_EINVAL);
    nk_strategy_params_init(&par, &nk_strategy_es_comma, NK_ENC_REAL);
    par.mu = 40;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_es_comma, g, &par, err, sizeof err),
                     NK_ERANGE);
    assert_non_null(strstr(err, "mu (40) <= lambda (35)"));
    /* (mu+lambda) allows mu > lambda. */
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_es_plus, g, &par, err, sizeof err), NK_OK);
    assert_int_equal(nk_strategy_size(s), 75);
    nk_strategy_free(s);
    par.mu = 0;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_es_plus, g, &par, err, sizeof err),
                     NK_ERANGE);
    par.mu = 2;
    par.sigma0 = 0;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_es_plus, g, &par, err, sizeof err),
                     NK_ERANGE);
    assert_int_equal(nk_strategy_alloc(&s, NULL, g, &par, err, sizeof err), NK_EINVAL);
    nk_genome_free(bin);
    nk_genome_free(g);
}

static void test_find_and_names(void **state)
{
    (void)state;
    const char *names[] = {"ga", "es-plus", "es-comma", "cma-es", "sep-cma-es", "openai-es"};
    size_t k = 0;
    for (const nk_strategy_type *const *t = nk_strategy_types(); *t; t++, k++) {
        assert_string_equal((*t)->name, names[k]);
        assert_ptr_equal(nk_strategy_find(names[k]), *t);
        assert_non_null((*t)->help);
    }
    assert_int_equal(k, 6);
    assert_null(nk_strategy_find("cmaes"));
    char buf[100];
    assert_string_equal(nk_strategy_names(buf, sizeof buf),
                        "ga, es-plus, es-comma, cma-es, sep-cma-es, openai-es");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ga_elitism_keeps_best),
        cmocka_unit_test(test_ga_ids_and_parents),
        cmocka_unit_test(test_ga_binary_onemax),
        cmocka_unit_test(test_ga_every_operator),
        cmocka_unit_test(test_es_plus_monotone),
        cmocka_unit_test(test_es_comma_improves),
        cmocka_unit_test(test_es_recombination),
        cmocka_unit_test(test_resume_every_strategy),
        cmocka_unit_test(test_same_seed_same_run),
        cmocka_unit_test(test_protocol_errors),
        cmocka_unit_test(test_parameter_errors),
        cmocka_unit_test(test_find_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
