/*
 * test_evolve_cross.c -- crossover operators (evolve/crossover.h), each for
 * the property that defines it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "evolve/crossover.h"
#include "evolve_testlib.h"

enum { D = 8 };

/* Parents with all genes distinct: a_i = i + 1, b_i = -(i + 1). */
static void parents(double *a, double *b)
{
    for (size_t i = 0; i < D; i++) {
        a[i] = (double)i + 1;
        b[i] = -((double)i + 1);
    }
}

/* ===================================================================
 * Positional operators
 * =================================================================== */

static void test_one_point_prefix_suffix(void **state)
{
    (void)state;
    nk_genome *g = real_genome(D, -10, 10);
    nk_cross_params par;
    nk_cross_params_init(&par);
    gsl_rng *r = new_rng(1);
    double a[D], b[D], c1[D], c2[D];
    parents(a, b);
    int seen[D] = {0};
    for (int t = 0; t < 2000; t++) {
        nk_cross_real(&nk_cross_one_point, &par, g, a, b, c1, c2, r);
        size_t cut = 0;
        while (cut < D && c1[cut] == a[cut])
            cut++;
        assert_true(cut >= 1 && cut <= D - 1);
        for (size_t i = 0; i < D; i++) {
            assert_true(c1[i] == (i < cut ? a[i] : b[i]));
            assert_true(c2[i] == (i < cut ? b[i] : a[i]));
        }
        seen[cut]++;
    }
    for (size_t c = 1; c < D; c++) /* every cut, roughly uniformly: 2000/7 each */
        assert_true(seen[c] > 200 && seen[c] < 380);
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_one_point_bits(void **state)
{
    (void)state;
    gsl_rng *r = new_rng(2);
    enum { L = 20 };
    unsigned char a[L], b[L], c1[L], c2[L];
    memset(a, 0, L);
    memset(b, 1, L);
    int seen[L] = {0};
    for (int t = 0; t < 4000; t++) {
        nk_cross_bits(&nk_cross_one_point, L, a, b, c1, c2, r);
        size_t cut = 0;
        while (cut < L && c1[cut] == 0)
            cut++;
        assert_true(cut >= 1 && cut <= L - 1);
        for (size_t i = 0; i < L; i++) {
            assert_int_equal(c1[i], i >= cut);
            assert_int_equal(c2[i], i < cut);
        }
        seen[cut]++;
    }
    for (size_t c = 1; c < L; c++)
        assert_true(seen[c] > 130 && seen[c] < 300); /* 4000/19 = 210 */
    gsl_rng_free(r);
}

static void test_two_point_middle_swapped(void **state)
{
    (void)state;
    nk_genome *g = real_genome(D, -10, 10);
    nk_cross_params par;
    nk_cross_params_init(&par);
    gsl_rng *r = new_rng(3);
    double a[D], b[D], c1[D], c2[D];
    parents(a, b);
    int seen[D][D] = {{0}};
    for (int t = 0; t < 6000; t++) {
        nk_cross_real(&nk_cross_two_point, &par, g, a, b, c1, c2, r);
        size_t x = 0, y;
        while (x < D && c1[x] == a[x])
            x++;
        y = x;
        while (y < D && c1[y] == b[y])
            y++;
        assert_true(x >= 1 && x < y && y <= D - 1);
        for (size_t i = 0; i < D; i++) {
            int mid = i >= x && i < y;
            assert_true(c1[i] == (mid ? b[i] : a[i]));
            assert_true(c2[i] == (mid ? a[i] : b[i]));
        }
        seen[x][y]++;
    }
    /* All 21 pairs of cuts 1 <= x < y <= 7 occur, about 6000/21 = 286 each. */
    for (size_t x = 1; x < D; x++)
        for (size_t y = x + 1; y < D; y++)
            assert_true(seen[x][y] > 200 && seen[x][y] < 380);
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_two_point_bits_and_short(void **state)
{
    (void)state;
    gsl_rng *r = new_rng(4);
    unsigned char a[12], b[12], c1[12], c2[12];
    memset(a, 0, 12);
    memset(b, 1, 12);
    for (int t = 0; t < 500; t++) {
        nk_cross_bits(&nk_cross_two_point, 12, a, b, c1, c2, r);
        int changes = 0;
        for (size_t i = 1; i < 12; i++)
            changes += c1[i] != c1[i - 1];
        assert_int_equal(c1[0], 0);
        assert_int_equal(c1[11], 0);
        assert_int_equal(changes, 2);
        for (size_t i = 0; i < 12; i++)
            assert_int_equal(c1[i] + c2[i], 1);
    }
    /* n = 2: a one-point cut; n = 1: copies. */
    nk_cross_bits(&nk_cross_two_point, 2, a, b, c1, c2, r);
    assert_true(c1[0] == 0 && c1[1] == 1 && c2[0] == 1 && c2[1] == 0);
    nk_cross_bits(&nk_cross_one_point, 1, a, b, c1, c2, r);
    assert_true(c1[0] == 0 && c2[0] == 1);
    gsl_rng_free(r);
}

static void test_uniform_genes_from_parents(void **state)
{
    (void)state;
    nk_genome *g = real_genome(D, -10, 10);
    nk_cross_params par;
    nk_cross_params_init(&par);
    gsl_rng *r = new_rng(5);
    double a[D], b[D], c1[D], c2[D];
    parents(a, b);
    int from_a[D] = {0}, n = 4000;
    for (int t = 0; t < n; t++) {
        nk_cross_real(&nk_cross_uniform, &par, g, a, b, c1, c2, r);
        for (size_t i = 0; i < D; i++) {
            assert_true(c1[i] == a[i] || c1[i] == b[i]);
            assert_true(c2[i] == (c1[i] == a[i] ? b[i] : a[i]));
            from_a[i] += c1[i] == a[i];
        }
    }
    for (size_t i = 0; i < D; i++) /* 1/2 within 4 standard errors (0.032) */
        assert_near((double)from_a[i] / n, 0.5, 4 * 0.5 / sqrt(n));
    /* Bits: the same on a bit string. */
    unsigned char x[64], y[64], z1[64], z2[64];
    memset(x, 0, 64);
    memset(y, 1, 64);
    nk_cross_bits(&nk_cross_uniform, 64, x, y, z1, z2, r);
    int ones = 0;
    for (size_t i = 0; i < 64; i++) {
        assert_int_equal(z1[i] + z2[i], 1);
        ones += z1[i];
    }
    assert_true(ones > 10 && ones < 54);
    gsl_rng_free(r);
    nk_genome_free(g);
}

/* ===================================================================
 * Real-coded operators
 * =================================================================== */

static void test_arithmetic_on_segment(void **state)
{
    (void)state;
    nk_genome *g = real_genome(D, -10, 10);
    nk_cross_params par;
    nk_cross_params_init(&par);
    gsl_rng *r = new_rng(6);
    double a[D], b[D], c1[D], c2[D];
    parents(a, b);
    a[3] = 2.5;
    double lsum = 0;
    int n = 3000;
    for (int t = 0; t < n; t++) {
        nk_cross_real(&nk_cross_arithmetic, &par, g, a, b, c1, c2, r);
        /* c1 = l a + (1 - l) b with one l for all genes, in [0, 1]. */
        double l = (c1[0] - b[0]) / (a[0] - b[0]);
        assert_true(l >= 0 && l <= 1);
        for (size_t i = 0; i < D; i++) {
            assert_near(c1[i], l * a[i] + (1 - l) * b[i], 1e-12);
            assert_near(c1[i] + c2[i], a[i] + b[i], 1e-12);
        }
        lsum += l;
    }
    assert_near(lsum / n, 0.5, 4 / sqrt(12.0 * n));
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_blx_fills_stretched_interval(void **state)
{
    (void)state;
    nk_genome *g = real_genome(2, -10, 10);
    nk_cross_params par;
    nk_cross_params_init(&par);
    par.alpha = 0.5;
    gsl_rng *r = new_rng(7);
    /* Gene 0: parents 1 and 3, I = 2: children uniform on [0, 4].
     * Gene 1: parents 9 and 10, I = 1: [8.5, 10.5] truncated to [8.5, 10]. */
    double a[2] = {3, 9}, b[2] = {1, 10}, c1[2], c2[2];
    int bins[8] = {0}, n = 8000;
    double lo = 1e9, hi = -1e9, sum1 = 0;
    for (int t = 0; t < n / 2; t++) {
        nk_cross_real(&nk_cross_blx, &par, g, a, b, c1, c2, r);
        double c[2] = {c1[0], c2[0]};
        for (int k = 0; k < 2; k++) {
            assert_true(c[k] >= 0 && c[k] <= 4);
            bins[(int)(c[k] * 2) < 8 ? (int)(c[k] * 2) : 7]++;
            lo = fmin(lo, c[k]);
            hi = fmax(hi, c[k]);
        }
        assert_true(c1[1] >= 8.5 && c1[1] <= 10 && c2[1] >= 8.5 && c2[1] <= 10);
        sum1 += c1[1] + c2[1];
    }
    for (int k = 0; k < 8; k++) /* n / 8 = 1000 each */
        assert_true(bins[k] > 880 && bins[k] < 1120);
    assert_true(lo < 0.01 && hi > 3.99); /* fills all of it */
    assert_near(sum1 / n, 9.25, 0.02);
    /* alpha = 0: within the parents' interval. */
    par.alpha = 0;
    for (int t = 0; t < 500; t++) {
        nk_cross_real(&nk_cross_blx, &par, g, a, b, c1, c2, r);
        assert_true(c1[0] >= 1 && c1[0] <= 3 && c2[0] >= 1 && c2[0] <= 3);
    }
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_sbx_preserves_mean(void **state)
{
    (void)state;
    nk_genome *g = real_genome(D, -1e6, 1e6);
    nk_cross_params par;
    nk_cross_params_init(&par);
    gsl_rng *r = new_rng(8);
    double a[D], b[D], c1[D], c2[D];
    parents(a, b);
    double etas[] = {2, 15};
    double spread[2];
    for (int e = 0; e < 2; e++) {
        par.eta = etas[e];
        double sum[D] = {0}, dev = 0;
        int inside = 0, n = 20000;
        for (int t = 0; t < n; t++) {
            nk_cross_real(&nk_cross_sbx, &par, g, a, b, c1, c2, r);
            for (size_t i = 0; i < D; i++) {
                assert_near(c1[i] + c2[i], a[i] + b[i], 1e-9); /* mean kept exactly */
                sum[i] += c1[i];
            }
            /* beta <= 1 (children within the parents) with probability 1/2. */
            inside += fabs(c1[D - 1]) <= fabs(a[D - 1]);
            dev += fabs(c1[0]) / fabs(a[0]);
        }
        for (size_t i = 0; i < D; i++) /* E c1 = (a + b) / 2 = 0 */
            assert_near(sum[i] / n, 0.0, 0.04 * fabs(a[i]));
        assert_near((double)inside / n, 0.5, 0.015);
        spread[e] = dev / n;
    }
    assert_true(spread[1] < spread[0]); /* larger eta: children nearer the parents */
    /* Bounds: clamped. */
    nk_genome *tight = real_genome(D, -1, 8.5);
    par.eta = 0;
    for (int t = 0; t < 1000; t++) {
        nk_cross_real(&nk_cross_sbx, &par, tight, a, b, c1, c2, r);
        for (size_t i = 0; i < D; i++)
            assert_true(c1[i] >= -1 && c1[i] <= 8.5 && c2[i] >= -1 && c2[i] <= 8.5);
    }
    nk_genome_free(tight);
    gsl_rng_free(r);
    nk_genome_free(g);
}

/* ===================================================================
 * On populations: rate, bits, sigma
 * =================================================================== */

static void test_cross_pop_rate_and_sigma(void **state)
{
    (void)state;
    nk_genome *g = real_genome(4, -5, 5);
    nk_pop *src, *dst;
    assert_int_equal(nk_pop_alloc(&src, g, 2, true, NULL, 0), NK_OK);
    assert_int_equal(nk_pop_alloc(&dst, g, 2, true, NULL, 0), NK_OK);
    for (size_t j = 0; j < 4; j++) {
        nk_pop_w(src, 0)[j] = 1;
        nk_pop_w(src, 1)[j] = -1;
        nk_pop_sigma(src, 0)[j] = 0.2;
        nk_pop_sigma(src, 1)[j] = 0.4;
    }
    nk_cross_params par;
    nk_cross_params_init(&par);
    gsl_rng *r = new_rng(9);
    par.rate = 0.3;
    int crossed = 0, n = 5000;
    for (int t = 0; t < n; t++) {
        bool c = nk_cross_pop(&nk_cross_arithmetic, &par, src, 0, 1, dst, 0, 1, r);
        crossed += c;
        if (!c) {
            assert_memory_equal(nk_pop_w(dst, 0), nk_pop_w(src, 0), 4 * sizeof(double));
            assert_memory_equal(nk_pop_w(dst, 1), nk_pop_w(src, 1), 4 * sizeof(double));
            assert_true(nk_pop_sigma(dst, 0)[2] == 0.2 && nk_pop_sigma(dst, 1)[2] == 0.4);
        } else {
            assert_near(nk_pop_sigma(dst, 0)[1], 0.3, 1e-15);
            assert_near(nk_pop_sigma(dst, 1)[3], 0.3, 1e-15);
        }
    }
    assert_near((double)crossed / n, 0.3, 4 * sqrt(0.21 / n));
    par.rate = 0;
    for (int t = 0; t < 100; t++)
        assert_false(nk_cross_pop(&nk_cross_sbx, &par, src, 0, 1, dst, 1, 0, r));
    nk_pop_free(src);
    nk_pop_free(dst);
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_cross_pop_binary_decodes(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_BINARY, 4, 0, 15, NULL, 0), NK_OK);
    nk_pop *p;
    assert_int_equal(nk_pop_alloc(&p, g, 4, false, NULL, 0), NK_OK);
    memset(nk_pop_bits(p, 0), 0, 8);
    memset(nk_pop_bits(p, 1), 1, 8);
    nk_pop_decode(p, 0);
    nk_pop_decode(p, 1);
    nk_cross_params par;
    nk_cross_params_init(&par);
    par.rate = 1;
    gsl_rng *r = new_rng(10);
    for (int t = 0; t < 200; t++) {
        assert_true(nk_cross_pop(&nk_cross_one_point, &par, p, 0, 1, p, 2, 3, r));
        double w[2];
        nk_genome_decode(g, nk_pop_bits(p, 2), w);
        assert_memory_equal(w, nk_pop_w(p, 2), sizeof w);
        /* A prefix of zeros then ones: gene values 0..15 in order. */
        assert_true(nk_pop_w(p, 2)[0] <= nk_pop_w(p, 2)[1]);
        assert_near(nk_pop_w(p, 2)[0] + nk_pop_w(p, 3)[0], 15, 0);
    }
    nk_pop_free(p);
    gsl_rng_free(r);
    nk_genome_free(g);
}

/* ===================================================================
 * Names and checks
 * =================================================================== */

static void test_find_names_and_checks(void **state)
{
    (void)state;
    const char *names[] = {"none", "one-point", "two-point", "uniform", "arithmetic",
                           "blx-alpha", "sbx"};
    size_t k = 0;
    for (const nk_cross_type *const *t = nk_cross_types(); *t; t++, k++) {
        assert_string_equal((*t)->name, names[k]);
        assert_ptr_equal(nk_cross_find(names[k]), *t);
    }
    assert_int_equal(k, 7);
    assert_null(nk_cross_find("blx"));
    char buf[256], err[200];
    assert_string_equal(nk_cross_names(buf, sizeof buf),
                        "none, one-point, two-point, uniform, arithmetic, blx-alpha, sbx");
    nk_cross_params par;
    nk_cross_params_init(&par);
    assert_int_equal(nk_cross_check(&nk_cross_sbx, &par, NK_ENC_BINARY, err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "sbx"));
    assert_int_equal(nk_cross_check(&nk_cross_arithmetic, &par, NK_ENC_BINARY, NULL, 0), NK_EINVAL);
    assert_int_equal(nk_cross_check(&nk_cross_blx, &par, NK_ENC_BINARY, NULL, 0), NK_EINVAL);
    assert_int_equal(nk_cross_check(&nk_cross_two_point, &par, NK_ENC_BINARY, NULL, 0), NK_OK);
    par.rate = 1.5;
    assert_int_equal(nk_cross_check(&nk_cross_uniform, &par, NK_ENC_REAL, NULL, 0), NK_ERANGE);
    nk_cross_params_init(&par);
    par.alpha = -0.1;
    assert_int_equal(nk_cross_check(&nk_cross_blx, &par, NK_ENC_REAL, NULL, 0), NK_ERANGE);
    par.eta = NAN;
    assert_int_equal(nk_cross_check(&nk_cross_sbx, &par, NK_ENC_REAL, NULL, 0), NK_ERANGE);
}

static void test_reproducible(void **state)
{
    (void)state;
    nk_genome *g = real_genome(D, -10, 10);
    nk_cross_params par;
    nk_cross_params_init(&par);
    double a[D], b[D], x1[D], x2[D], y1[D], y2[D];
    parents(a, b);
    for (const nk_cross_type *const *t = nk_cross_types(); *t; t++) {
        gsl_rng *r1 = new_rng(99), *r2 = new_rng(99);
        for (int k = 0; k < 20; k++) {
            nk_cross_real(*t, &par, g, a, b, x1, x2, r1);
            nk_cross_real(*t, &par, g, a, b, y1, y2, r2);
            assert_memory_equal(x1, y1, sizeof x1);
            assert_memory_equal(x2, y2, sizeof x2);
        }
        gsl_rng_free(r1);
        gsl_rng_free(r2);
    }
    nk_genome_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_point_prefix_suffix),
        cmocka_unit_test(test_one_point_bits),
        cmocka_unit_test(test_two_point_middle_swapped),
        cmocka_unit_test(test_two_point_bits_and_short),
        cmocka_unit_test(test_uniform_genes_from_parents),
        cmocka_unit_test(test_arithmetic_on_segment),
        cmocka_unit_test(test_blx_fills_stretched_interval),
        cmocka_unit_test(test_sbx_preserves_mean),
        cmocka_unit_test(test_cross_pop_rate_and_sigma),
        cmocka_unit_test(test_cross_pop_binary_decodes),
        cmocka_unit_test(test_find_names_and_checks),
        cmocka_unit_test(test_reproducible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
