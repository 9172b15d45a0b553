/*
 * test_evolve_mutate.c -- mutation operators (evolve/mutate.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "evolve/mutate.h"
#include "evolve_testlib.h"

static void test_gaussian_std(void **state)
{
    (void)state;
    nk_genome *g = real_genome(4, -10, 10);
    assert_int_equal(nk_genome_set_bounds(g, 3, 0, 100, NULL, 0), NK_OK);
    nk_mutate_params par;
    nk_mutate_params_init(&par);
    par.rate = 1;
    par.sigma = 0.1; /* std 2 on [-10, 10], 10 on [0, 100] */
    gsl_rng *r = new_rng(1);
    double sum[4] = {0}, sq[4] = {0};
    int n = 20000;
    for (int t = 0; t < n; t++) {
        double w[4] = {0, 0, 0, 50};
        assert_int_equal(nk_mutate_real(&nk_mutate_gaussian, &par, g, w, NULL, r), 4);
        for (size_t i = 0; i < 4; i++) {
            sum[i] += w[i];
            sq[i] += (w[i] - (i == 3 ? 50 : 0)) * (w[i] - (i == 3 ? 50 : 0));
        }
    }
    for (size_t i = 0; i < 4; i++) {
        double want = i == 3 ? 10 : 2;
        /* sample std within 3% (its standard error is 0.5%) */
        assert_near(sqrt(sq[i] / n), want, 0.03 * want);
        assert_near(sum[i] / n - (i == 3 ? 50 : 0), 0, 4 * want / sqrt(n));
    }
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_gaussian_rate_and_clamp(void **state)
{
    (void)state;
    nk_genome *g = real_genome(10, -1, 1);
    nk_mutate_params par;
    nk_mutate_params_init(&par);
    par.rate = -1; /* 1/D */
    par.sigma = 2; /* wild steps: clamping matters */
    gsl_rng *r = new_rng(2);
    size_t changed = 0, n = 10000;
    for (size_t t = 0; t < n; t++) {
        double w[10] = {0}, before[10] = {0};
        size_t c = nk_mutate_real(&nk_mutate_gaussian, &par, g, w, NULL, r);
        size_t diff = 0;
        for (size_t i = 0; i < 10; i++) {
            assert_true(w[i] >= -1 && w[i] <= 1);
            diff += w[i] != before[i];
        }
        assert_int_equal(c, diff);
        changed += c;
    }
    assert_near((double)changed / (double)(10 * n), 0.1, 4 * sqrt(0.09 / (10.0 * (double)n)));
    par.rate = 0.5;
    assert_near(nk_mutate_rate(&par, 10), 0.5, 0);
    par.rate = -1;
    assert_near(nk_mutate_rate(&par, 8), 0.125, 0);
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_bit_flip_rate(void **state)
{
    (void)state;
    nk_mutate_params par;
    nk_mutate_params_init(&par);
    par.rate = 0.05;
    gsl_rng *r = new_rng(3);
    enum { L = 1000 };
    unsigned char b[L], before[L];
    size_t flips = 0, trials = 200;
    for (size_t i = 0; i < L; i++)
        b[i] = (unsigned char)(i % 3 == 0);
    for (size_t t = 0; t < trials; t++) {
        memcpy(before, b, L);
        size_t f = nk_mutate_bits(&nk_mutate_bit_flip, &par, L, b, r);
        size_t diff = 0;
        for (size_t i = 0; i < L; i++) {
            assert_true(b[i] <= 1);
            diff += b[i] != before[i];
        }
        assert_int_equal(f, diff);
        flips += f;
    }
    double total = (double)(L * trials);
    assert_near((double)flips / total, 0.05, 4 * sqrt(0.05 * 0.95 / total));
    /* Default rate: one bit in L on average. */
    par.rate = -1;
    flips = 0;
    for (size_t t = 0; t < 4000; t++)
        flips += nk_mutate_bits(&nk_mutate_bit_flip, &par, 50, b, r);
    assert_near((double)flips / 4000, 1.0, 0.07);
    gsl_rng_free(r);
}

static void test_polynomial_in_bounds(void **state)
{
    (void)state;
    nk_genome *g = real_genome(3, -2, 6);
    nk_mutate_params par;
    nk_mutate_params_init(&par);
    par.rate = 1;
    gsl_rng *r = new_rng(4);
    double etas[] = {0, 1, 20};
    for (int e = 0; e < 3; e++) {
        par.eta = etas[e];
        double sum_mid = 0, dev = 0;
        int moved = 0, n = 10000;
        for (int t = 0; t < n; t++) {
            double w[3] = {-2, 2, 6}; /* at lo, middle, at hi */
            nk_mutate_real(&nk_mutate_polynomial, &par, g, w, NULL, r);
            for (size_t i = 0; i < 3; i++)
                assert_true(w[i] >= -2 && w[i] <= 6);
            moved += w[1] != 2;
            sum_mid += w[1];
            dev += fabs(w[1] - 2);
        }
        assert_true(moved > n * 9 / 10);
        assert_near(sum_mid / n, 2, 0.1); /* symmetric around the middle */
        if (e == 2)
            assert_true(dev / n < 0.5); /* eta 20: small steps */
        if (e == 0)
            assert_true(dev / n > 1.0); /* eta 0: spread over the range */
    }
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_lognormal_floor_and_tau(void **state)
{
    (void)state;
    enum { DIM = 16 };
    nk_genome *g = real_genome(DIM, -1, 1);
    nk_mutate_params par;
    nk_mutate_params_init(&par);
    par.rate = 1;
    par.sigma_floor = 1e-3; /* floor 2e-3 on a range of 2 */
    gsl_rng *r = new_rng(5);
    /* Starting at the floor, sigma never goes below it (nor above the range). */
    double w[DIM], s[DIM];
    for (size_t i = 0; i < DIM; i++) {
        w[i] = 0;
        s[i] = 2e-3;
    }
    for (int t = 0; t < 3000; t++) {
        nk_mutate_real(&nk_mutate_lognormal, &par, g, w, s, r);
        for (size_t i = 0; i < DIM; i++) {
            assert_true(s[i] >= 2e-3 && s[i] <= 2);
            assert_true(w[i] >= -1 && w[i] <= 1);
        }
    }
    /* Far from floor and cap, log(sigma' / sigma) is N(0, tau^2 + tau'^2) and
     * the per-individual mean of the logs has variance tau'^2 + tau^2 / D. */
    double tau = 1 / sqrt(2 * sqrt((double)DIM)), taug = 1 / sqrt(2.0 * DIM);
    double sq = 0, msq = 0, steps = 0;
    int n = 5000;
    for (int t = 0; t < n; t++) {
        double mean = 0;
        for (size_t i = 0; i < DIM; i++) {
            w[i] = 0;
            s[i] = 0.01;
        }
        nk_mutate_real(&nk_mutate_lognormal, &par, g, w, s, r);
        for (size_t i = 0; i < DIM; i++) {
            double l = log(s[i] / 0.01);
            sq += l * l;
            mean += l / DIM;
            steps += (w[i] / s[i]) * (w[i] / s[i]);
        }
        msq += mean * mean;
    }
    assert_near(sqrt(sq / (n * DIM)), sqrt(tau * tau + taug * taug), 0.01);
    assert_near(sqrt(msq / n), sqrt(taug * taug + tau * tau / DIM), 0.01);
    /* The weight step uses the new sigma: w / sigma' is standard normal. */
    assert_near(steps / (n * DIM), 1.0, 0.03);
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_mutate_pop_binary(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_BINARY, 8, -1, 1, NULL, 0), NK_OK);
    nk_pop *p;
    assert_int_equal(nk_pop_alloc(&p, g, 1, false, NULL, 0), NK_OK);
    nk_mutate_params par;
    nk_mutate_params_init(&par);
    par.rate = 0.5;
    gsl_rng *r = new_rng(6);
    for (int t = 0; t < 50; t++) {
        nk_mutate_pop(&nk_mutate_bit_flip, &par, p, 0, r);
        double w[2];
        nk_genome_decode(g, nk_pop_bits(p, 0), w);
        assert_memory_equal(w, nk_pop_w(p, 0), sizeof w);
    }
    nk_pop_free(p);
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_none_and_checks(void **state)
{
    (void)state;
    nk_genome *g = real_genome(3, -1, 1);
    nk_mutate_params par;
    nk_mutate_params_init(&par);
    gsl_rng *r = new_rng(7);
    double w[3] = {0.1, 0.2, 0.3};
    assert_int_equal(nk_mutate_real(&nk_mutate_none, &par, g, w, NULL, r), 0);
    assert_true(w[0] == 0.1 && w[1] == 0.2 && w[2] == 0.3);
    const char *names[] = {"none", "bit-flip", "gaussian", "polynomial", "lognormal"};
    size_t k = 0;
    for (const nk_mutate_type *const *t = nk_mutate_types(); *t; t++, k++) {
        assert_string_equal((*t)->name, names[k]);
        assert_ptr_equal(nk_mutate_find(names[k]), *t);
    }
    assert_int_equal(k, 5);
    assert_null(nk_mutate_find("flip"));
    char buf[128], err[200];
    assert_string_equal(nk_mutate_names(buf, sizeof buf),
                        "none, bit-flip, gaussian, polynomial, lognormal");
    assert_int_equal(nk_mutate_check(&nk_mutate_bit_flip, &par, NK_ENC_REAL, err, sizeof err),
                     NK_EINVAL);
    assert_int_equal(nk_mutate_check(&nk_mutate_gaussian, &par, NK_ENC_BINARY, err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "gaussian"));
    assert_int_equal(nk_mutate_check(&nk_mutate_lognormal, &par, NK_ENC_BINARY, NULL, 0), NK_EINVAL);
    assert_int_equal(nk_mutate_check(&nk_mutate_bit_flip, &par, NK_ENC_BINARY, NULL, 0), NK_OK);
    assert_true(nk_mutate_lognormal.needs_sigma && !nk_mutate_gaussian.needs_sigma);
    par.rate = 1.01;
    assert_int_equal(nk_mutate_check(&nk_mutate_gaussian, &par, NK_ENC_REAL, NULL, 0), NK_ERANGE);
    nk_mutate_params_init(&par);
    par.sigma = 0;
    assert_int_equal(nk_mutate_check(&nk_mutate_gaussian, &par, NK_ENC_REAL, NULL, 0), NK_ERANGE);
    par.eta = -1;
    assert_int_equal(nk_mutate_check(&nk_mutate_polynomial, &par, NK_ENC_REAL, NULL, 0), NK_ERANGE);
    par.sigma_floor = 0;
    assert_int_equal(nk_mutate_check(&nk_mutate_lognormal, &par, NK_ENC_REAL, NULL, 0), NK_ERANGE);
    par.sigma_floor = 0.5;
    par.tau_scale = 0;
    assert_int_equal(nk_mutate_check(&nk_mutate_lognormal, &par, NK_ENC_REAL, NULL, 0), NK_ERANGE);
    gsl_rng_free(r);
    nk_genome_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gaussian_std),
        cmocka_unit_test(test_gaussian_rate_and_clamp),
        cmocka_unit_test(test_bit_flip_rate),
        cmocka_unit_test(test_polynomial_in_bounds),
        cmocka_unit_test(test_lognormal_floor_and_tau),
        cmocka_unit_test(test_mutate_pop_binary),
        cmocka_unit_test(test_none_and_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
