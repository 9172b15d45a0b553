/*
 * test_evolve_select.c -- selection schemes and elitism (evolve/select.h).
 *
 * Statistical checks use fixed seeds and bounds that a correct scheme meets
 * with probability 0.999 and a wrong one (uniform picks, inverted ranks,
 * reading beyond the top fraction) misses by orders of magnitude.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "evolve/select.h"
#include "evolve_testlib.h"

/* Pearson's statistic of counts[n] against probabilities p[n] (cells with
 * p = 0 must be empty). */
static double chi2(const size_t *counts, const double *p, size_t n, size_t total)
{
    double x = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == 0) {
            assert_int_equal(counts[i], 0);
            continue;
        }
        double e = p[i] * (double)total;
        x += ((double)counts[i] - e) * ((double)counts[i] - e) / e;
    }
    return x;
}

static size_t cells(const double *p, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += p[i] > 0;
    return k;
}

/* Picks `total` indices (m per call) and checks the frequencies against p
 * with a chi-square test at level 0.001. */
static void check_frequencies(const nk_select_type *t, const nk_select_params *par,
                              const double *f, size_t n, const double *p, size_t m,
                              size_t total, unsigned long seed)
{
    gsl_rng *r = new_rng(seed);
    size_t *counts = calloc(n, sizeof *counts), *out = malloc(m * sizeof *out);
    for (size_t done = 0; done < total; done += m) {
        assert_int_equal(nk_select_run(t, par, f, n, out, m, r, NULL, 0), NK_OK);
        for (size_t j = 0; j < m; j++) {
            assert_true(out[j] < n);
            counts[out[j]]++;
        }
    }
    double x = chi2(counts, p, n, total);
    double bound = gsl_cdf_chisq_Qinv(0.001, (double)(cells(p, n) - 1));
    if (!(x < bound))
        print_error("%s: chi2 %g >= %g\n", t->name, x, bound);
    assert_true(x < bound);
    free(counts);
    free(out);
    gsl_rng_free(r);
}

static void proportions(const double *f, size_t n, double *p)
{
    double shift = nk_select_shift(f, n), sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += f[i] + shift;
    for (size_t i = 0; i < n; i++)
        p[i] = (f[i] + shift) / sum;
}

/* ===================================================================
 * Proportional schemes
 * =================================================================== */

static void test_roulette_proportions(void **state)
{
    (void)state;
    nk_select_params par;
    nk_select_params_init(&par);
    const double f[] = {1, 2, 3, 4, 10};
    double p[5];
    proportions(f, 5, p);
    assert_near(p[4], 0.5, 1e-15);
    check_frequencies(&nk_select_roulette, &par, f, 5, p, 7, 20006, 1);
}

static void test_roulette_negative_fitness_shift(void **state)
{
    (void)state;
    nk_select_params par;
    nk_select_params_init(&par);
    const double f[] = {-3, -1, 0, 2, -3};
    assert_near(nk_select_shift(f, 5), 3.0, 0);
    double q[5];
    proportions(f, 5, q); /* weights 0, 2, 3, 5, 0 */
    assert_near(q[0], 0, 0);
    assert_near(q[1], 0.2, 1e-15);
    assert_near(q[3], 0.5, 1e-15);
    check_frequencies(&nk_select_roulette, &par, f, 5, q, 10, 20000, 2);
    check_frequencies(&nk_select_sus, &par, f, 5, q, 10, 20000, 3);
    /* Non-negative fitness is not shifted. */
    const double g[] = {0, 1, 3};
    assert_near(nk_select_shift(g, 3), 0, 0);
}

static void test_proportional_all_equal_is_uniform(void **state)
{
    (void)state;
    nk_select_params par;
    nk_select_params_init(&par);
    const double f[] = {-2, -2, -2, -2};
    const double z[] = {0, 0, 0};
    const double p[] = {0.25, 0.25, 0.25, 0.25};
    check_frequencies(&nk_select_roulette, &par, f, 4, p, 4, 8000, 4);
    check_frequencies(&nk_select_sus, &par, f, 4, p, 3, 8001, 5);
    const double p3[] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    check_frequencies(&nk_select_roulette, &par, z, 3, p3, 3, 6000, 6);
}

/* SUS: in one call of m picks, individual i gets floor or ceil of
 * m * p_i; over many calls the frequencies match p. */
static void test_sus_counts_and_frequencies(void **state)
{
    (void)state;
    nk_select_params par;
    nk_select_params_init(&par);
    const double f[] = {0.5, 7, 1, 3.25, 2, 0, 6.25};
    size_t n = 7, m = 10;
    double p[7];
    proportions(f, n, p);
    gsl_rng *r = new_rng(7);
    size_t out[10];
    int unsorted = 0;
    for (int t = 0; t < 500; t++) {
        size_t counts[7] = {0};
        assert_int_equal(nk_select_run(&nk_select_sus, &par, f, n, out, m, r, NULL, 0), NK_OK);
        for (size_t j = 0; j < m; j++)
            counts[out[j]]++;
        for (size_t i = 0; i < n; i++) {
            double e = p[i] * (double)m;
            assert_true((double)counts[i] >= floor(e) - 1e-9 && (double)counts[i] <= ceil(e) + 1e-9);
        }
        for (size_t j = 1; j < m; j++)
            unsorted += out[j] < out[j - 1];
    }
    assert_true(unsorted > 0); /* picks are shuffled */
    gsl_rng_free(r);
    check_frequencies(&nk_select_sus, &par, f, n, p, m, 20000, 8);
}

/* ===================================================================
 * Tournament
 * =================================================================== */

static void test_tournament_full_size_picks_best(void **state)
{
    (void)state;
    gsl_rng *r = new_rng(9);
    nk_select_params par;
    nk_select_params_init(&par);
    double f[13];
    size_t out[50];
    for (int t = 0; t < 100; t++) {
        size_t n = 1 + (size_t)t % 13, best = 0;
        for (size_t i = 0; i < n; i++) {
            f[i] = gsl_rng_uniform(r) * 10 - 5;
            if (f[i] > f[best])
                best = i;
        }
        par.tournament = n;
        assert_int_equal(nk_select_run(&nk_select_tournament, &par, f, n, out, 50, r, NULL, 0),
                         NK_OK);
        for (size_t j = 0; j < 50; j++)
            assert_int_equal(out[j], best);
    }
    /* Ties: the lower index wins. */
    const double g[] = {1, 4, 2, 4};
    par.tournament = 4;
    assert_int_equal(nk_select_run(&nk_select_tournament, &par, g, 4, out, 20, r, NULL, 0), NK_OK);
    for (size_t j = 0; j < 20; j++)
        assert_int_equal(out[j], 1);
    gsl_rng_free(r);
}

static void test_tournament_frequencies(void **state)
{
    (void)state;
    nk_select_params par;
    nk_select_params_init(&par);
    /* Distinct fitness in shuffled order; rank r (0 = worst) of n wins a
     * k-tournament without replacement with probability C(r, k-1) / C(n, k). */
    const double f[] = {3, 0, 5, 1, 4, 2};
    const size_t rank[] = {3, 0, 5, 1, 4, 2};
    size_t n = 6;
    double p[6];
    par.tournament = 1;
    for (size_t i = 0; i < n; i++)
        p[i] = 1.0 / 6;
    check_frequencies(&nk_select_tournament, &par, f, n, p, 6, 12000, 10);
    par.tournament = 2; /* r / 15 */
    for (size_t i = 0; i < n; i++)
        p[i] = (double)rank[i] / 15.0;
    check_frequencies(&nk_select_tournament, &par, f, n, p, 6, 15000, 11);
    par.tournament = 3; /* C(r, 2) / 20 */
    for (size_t i = 0; i < n; i++)
        p[i] = (double)rank[i] * ((double)rank[i] - 1) / 2.0 / 20.0;
    check_frequencies(&nk_select_tournament, &par, f, n, p, 6, 20000, 12);
}

/* ===================================================================
 * Linear ranking and truncation
 * =================================================================== */

static void test_linear_rank_expected_counts(void **state)
{
    (void)state;
    nk_select_params par;
    nk_select_params_init(&par);
    const double f[] = {0.3, -7, 12, 5, 1.5}; /* ranks 1, 0, 4, 3, 2 */
    const size_t rank[] = {1, 0, 4, 3, 2};
    size_t n = 5;
    const double pressures[] = {1.0, 1.5, 2.0};
    for (int k = 0; k < 3; k++) {
        double s = pressures[k], p[5];
        par.pressure = s;
        for (size_t i = 0; i < n; i++)
            p[i] = (2 - s + 2 * (s - 1) * (double)rank[i] / (double)(n - 1)) / (double)n;
        check_frequencies(&nk_select_linear_rank, &par, f, n, p, n, 25000, 20 + (unsigned long)k);
        /* Expected copies among n picks: best s, worst 2 - s. */
        gsl_rng *r = new_rng(30 + (unsigned long)k);
        size_t out[5], best = 0, worst = 0, trials = 20000;
        for (size_t t = 0; t < trials; t++) {
            assert_int_equal(nk_select_run(&nk_select_linear_rank, &par, f, n, out, n, r, NULL, 0),
                             NK_OK);
            for (size_t j = 0; j < n; j++) {
                best += out[j] == 2;
                worst += out[j] == 1;
            }
        }
        assert_near((double)best / (double)trials, s, 0.03);
        assert_near((double)worst / (double)trials, 2 - s, 0.03);
        gsl_rng_free(r);
    }
}

static void test_truncation_stays_in_top_fraction(void **state)
{
    (void)state;
    nk_select_params par;
    nk_select_params_init(&par);
    double f[10];
    for (size_t i = 0; i < 10; i++)
        f[i] = (double)((i * 7) % 10); /* a permutation of 0..9 */
    par.fraction = 0.3; /* the three best: fitness 9, 8, 7 */
    double p[10];
    for (size_t i = 0; i < 10; i++)
        p[i] = f[i] >= 7 ? 1.0 / 3 : 0;
    check_frequencies(&nk_select_truncation, &par, f, 10, p, 10, 9000, 40);
    /* A tiny fraction still keeps one: the best. */
    par.fraction = 0.01;
    for (size_t i = 0; i < 10; i++)
        p[i] = f[i] == 9;
    gsl_rng *r = new_rng(41);
    size_t out[100];
    assert_int_equal(nk_select_run(&nk_select_truncation, &par, f, 10, out, 100, r, NULL, 0),
                     NK_OK);
    for (size_t j = 0; j < 100; j++)
        assert_true(f[out[j]] == 9);
    /* Ties at the boundary go by index. */
    const double g[] = {1, 5, 5, 5, 0};
    par.fraction = 0.4; /* two: indices 1 and 2 */
    assert_int_equal(nk_select_run(&nk_select_truncation, &par, g, 5, out, 100, r, NULL, 0), NK_OK);
    for (size_t j = 0; j < 100; j++)
        assert_true(out[j] == 1 || out[j] == 2);
    gsl_rng_free(r);
}

/* ===================================================================
 * Ordering and elitism
 * =================================================================== */

static void test_order_and_elite(void **state)
{
    (void)state;
    const double f[] = {2, 9, -1, 9, 4, 2};
    size_t order[6], elite[3];
    assert_int_equal(nk_select_order(f, 6, order), NK_OK);
    const size_t want[] = {1, 3, 4, 0, 5, 2};
    assert_memory_equal(order, want, sizeof want);
    assert_int_equal(nk_select_elite(f, 6, 3, elite), NK_OK);
    assert_memory_equal(elite, want, 3 * sizeof *elite);
    assert_int_equal(nk_select_elite(f, 6, 7, elite), NK_ERANGE);
    assert_int_equal(nk_select_elite(f, 6, 0, elite), NK_OK);
    const double g[] = {NAN, 1, NAN, 0};
    const size_t want2[] = {1, 3, 0, 2};
    assert_int_equal(nk_select_order(g, 4, order), NK_OK);
    assert_memory_equal(order, want2, sizeof want2);
}

/* ===================================================================
 * Names and errors
 * =================================================================== */

static void test_find_and_names(void **state)
{
    (void)state;
    const char *names[] = {"tournament", "roulette", "linear-rank", "truncation", "sus"};
    char buf[256];
    nk_select_names(buf, sizeof buf);
    size_t k = 0;
    for (const nk_select_type *const *t = nk_select_types(); *t; t++, k++) {
        assert_string_equal((*t)->name, names[k]);
        assert_ptr_equal(nk_select_find(names[k]), *t);
        assert_non_null(strstr(buf, names[k]));
        assert_non_null((*t)->help);
    }
    assert_int_equal(k, 5);
    assert_null(nk_select_find("rank"));
    assert_string_equal(buf, "tournament, roulette, linear-rank, truncation, sus");
    nk_select_names(buf, 12); /* truncates safely */
    assert_string_equal(buf, "tournament,");
}

static void test_errors(void **state)
{
    (void)state;
    gsl_rng *r = new_rng(1);
    nk_select_params par;
    nk_select_params_init(&par);
    double f[] = {1, NAN, 3};
    size_t out[4];
    char err[128];
    for (const nk_select_type *const *t = nk_select_types(); *t; t++) {
        assert_int_equal(nk_select_run(*t, &par, f, 3, out, 4, r, err, sizeof err), NK_EINVAL);
        assert_non_null(strstr(err, "individual 1"));
        assert_int_equal(nk_select_run(*t, &par, f, 0, out, 4, r, err, sizeof err), NK_EINVAL);
    }
    f[1] = INFINITY;
    assert_int_equal(nk_select_run(&nk_select_sus, &par, f, 3, out, 4, r, NULL, 0), NK_EINVAL);
    f[1] = 2;
    par.tournament = 0;
    assert_int_equal(nk_select_run(&nk_select_tournament, &par, f, 3, out, 4, r, err, sizeof err),
                     NK_ERANGE);
    par.tournament = 4;
    assert_int_equal(nk_select_check(&nk_select_tournament, &par, 3, err, sizeof err), NK_ERANGE);
    assert_non_null(strstr(err, "tournament size 4"));
    nk_select_params_init(&par);
    par.pressure = 2.5;
    assert_int_equal(nk_select_check(&nk_select_linear_rank, &par, 3, err, sizeof err), NK_ERANGE);
    par.pressure = 0.5;
    assert_int_equal(nk_select_check(&nk_select_linear_rank, &par, 3, err, sizeof err), NK_ERANGE);
    par.fraction = 0;
    assert_int_equal(nk_select_check(&nk_select_truncation, &par, 3, err, sizeof err), NK_ERANGE);
    par.fraction = 1.5;
    assert_int_equal(nk_select_check(&nk_select_truncation, &par, 3, err, sizeof err), NK_ERANGE);
    /* Parameters a scheme does not use are not checked. */
    assert_int_equal(nk_select_check(&nk_select_roulette, &par, 3, err, sizeof err), NK_OK);
    gsl_rng_free(r);
}

/* The same generator state gives the same picks. */
static void test_reproducible(void **state)
{
    (void)state;
    nk_select_params par;
    nk_select_params_init(&par);
    par.tournament = 3;
    const double f[] = {4, -2, 0, 8, 1, 1, 3};
    for (const nk_select_type *const *t = nk_select_types(); *t; t++) {
        size_t a[40], b[40];
        gsl_rng *r1 = new_rng(77), *r2 = new_rng(77);
        assert_int_equal(nk_select_run(*t, &par, f, 7, a, 40, r1, NULL, 0), NK_OK);
        assert_int_equal(nk_select_run(*t, &par, f, 7, b, 40, r2, NULL, 0), NK_OK);
        assert_memory_equal(a, b, sizeof a);
        gsl_rng_free(r1);
        gsl_rng_free(r2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roulette_proportions),
        cmocka_unit_test(test_roulette_negative_fitness_shift),
        cmocka_unit_test(test_proportional_all_equal_is_uniform),
        cmocka_unit_test(test_sus_counts_and_frequencies),
        cmocka_unit_test(test_tournament_full_size_picks_best),
        cmocka_unit_test(test_tournament_frequencies),
        cmocka_unit_test(test_linear_rank_expected_counts),
        cmocka_unit_test(test_truncation_stays_in_top_fraction),
        cmocka_unit_test(test_order_and_elite),
        cmocka_unit_test(test_find_and_names),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_reproducible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
