/*
 * test_evolve_genome.c -- genomes, the binary encoding, populations
 * (evolve/genome.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "evolve/genome.h"
#include "evolve_testlib.h"

/* Bits from a string of '0' / '1'. */
static void bits_of(unsigned char *b, const char *s)
{
    for (size_t i = 0; s[i]; i++)
        b[i] = (unsigned char)(s[i] == '1');
}

static double decode(const char *s, double lo, double hi)
{
    unsigned char b[64];
    bits_of(b, s);
    return nk_genome_decode_gene(b, (unsigned)strlen(s), lo, hi);
}

static void test_decode_known_strings(void **state)
{
    (void)state;
    /* [0, 2^k - 1]: the decoded weight is the integer, most significant bit first. */
    assert_true(decode("0000", 0, 15) == 0.0);
    assert_true(decode("1111", 0, 15) == 15.0);
    assert_true(decode("1000", 0, 15) == 8.0);
    assert_true(decode("0001", 0, 15) == 1.0);
    assert_true(decode("0101", 0, 15) == 5.0);
    assert_true(decode("10000000", 0, 255) == 128.0);
    assert_true(decode("01111111", 0, 255) == 127.0);
    assert_true(decode("00000001", 0, 255) == 1.0);
    /* all zeros is min and all ones is max, exactly, whatever the bounds. */
    assert_true(decode("00000000", -0.7, 0.3) == -0.7);
    assert_true(decode("11111111", -0.7, 0.3) == 0.3);
    assert_true(decode("0", -2.5, 1.1) == -2.5);
    assert_true(decode("1", -2.5, 1.1) == 1.1);
    /* Two bits on [-1, 1]: -1, -1/3, 1/3, 1. */
    assert_true(decode("00", -1, 1) == -1.0);
    assert_near(decode("01", -1, 1), -1.0 / 3.0, 1e-15);
    assert_near(decode("10", -1, 1), 1.0 / 3.0, 1e-15);
    assert_true(decode("11", -1, 1) == 1.0);
    /* 32 bits. */
    char s[33];
    memset(s, '0', 32);
    s[32] = '\0';
    s[0] = '1';
    assert_true(decode(s, 0, 4294967295.0) == 2147483648.0);
    memset(s, '1', 32);
    assert_true(decode(s, 0, 4294967295.0) == 4294967295.0);
    assert_true(decode(s, -1e3, 1e3) == 1e3);
}

static void test_decode_whole_genome(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, 3, NK_ENC_BINARY, 4, 0, 15, NULL, 0), NK_OK);
    assert_int_equal(nk_genome_set_bounds(g, 1, -15, 0, NULL, 0), NK_OK);
    assert_int_equal(nk_genome_set_bounds(g, 2, 100, 115, NULL, 0), NK_OK);
    assert_int_equal(nk_genome_nbits(g), 12);
    unsigned char b[12];
    double w[3];
    bits_of(b, "1000" "0011" "1111");
    nk_genome_decode(g, b, w);
    assert_true(w[0] == 8.0);
    assert_true(w[1] == -12.0);
    assert_true(w[2] == 115.0);
    nk_genome_free(g);
}

static void test_encode_round_trip(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, 5, NK_ENC_BINARY, 10, -3, 7, NULL, 0), NK_OK);
    gsl_rng *r = new_rng(11);
    unsigned char b[50], b2[50];
    double w[5], w2[5];
    for (int t = 0; t < 200; t++) {
        for (size_t i = 0; i < 50; i++)
            b[i] = (unsigned char)gsl_rng_uniform_int(r, 2);
        nk_genome_decode(g, b, w);
        nk_genome_encode(g, w, b2);
        assert_memory_equal(b, b2, 50);
        /* Arbitrary weights encode to the nearest representable value. */
        for (size_t i = 0; i < 5; i++)
            w[i] = -3 + 10 * gsl_rng_uniform(r);
        nk_genome_encode(g, w, b2);
        nk_genome_decode(g, b2, w2);
        for (size_t i = 0; i < 5; i++)
            assert_true(fabs(w[i] - w2[i]) <= 10.0 / 1023.0 / 2.0 + 1e-12);
    }
    /* Out of bounds clamps. */
    w[0] = -100;
    w[1] = 100;
    w[2] = NAN;
    nk_genome_encode(g, w, b2);
    nk_genome_decode(g, b2, w2);
    assert_true(w2[0] == -3.0);
    assert_true(w2[1] == 7.0);
    assert_true(w2[2] == -3.0);
    gsl_rng_free(r);
    nk_genome_free(g);
}

static void test_genome_errors(void **state)
{
    (void)state;
    nk_genome *g = (nk_genome *)1;
    char err[128];
    assert_int_equal(nk_genome_alloc(&g, 0, NK_ENC_REAL, 0, 0, 1, err, sizeof err), NK_EINVAL);
    assert_null(g);
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_BINARY, 0, 0, 1, err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_BINARY, 33, 0, 1, err, sizeof err), NK_ERANGE);
    assert_non_null(strstr(err, "33"));
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_REAL, 0, 1, 1, err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_REAL, 0, 2, 1, err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_REAL, 0, -INFINITY, 1, err, sizeof err),
                     NK_ERANGE);
    assert_int_equal(nk_genome_alloc(&g, 2, (nk_encoding)7, 0, 0, 1, err, sizeof err), NK_EINVAL);
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_REAL, 99, -1, 1, err, sizeof err), NK_OK);
    assert_int_equal(g->bits, 0);
    assert_int_equal(nk_genome_nbits(g), 0);
    assert_int_equal(nk_genome_set_bounds(g, 2, 0, 1, err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_genome_set_bounds(g, 1, 1, 0, err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_genome_set_bounds(g, 1, NAN, 0, err, sizeof err), NK_ERANGE);
    assert_true(g->lo[1] == -1.0 && g->hi[1] == 1.0);
    nk_genome_free(g);
    nk_genome_free(NULL);
    nk_encoding e;
    assert_int_equal(nk_genome_encoding_parse(&e, "binary", NULL, 0), NK_OK);
    assert_int_equal(e, NK_ENC_BINARY);
    assert_int_equal(nk_genome_encoding_parse(&e, "real", NULL, 0), NK_OK);
    assert_int_equal(e, NK_ENC_REAL);
    assert_int_equal(nk_genome_encoding_parse(&e, "gray", err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "gray"));
    assert_string_equal(nk_genome_encoding_name(NK_ENC_BINARY), "binary");
}

static void test_clamp(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, 4, NK_ENC_REAL, 0, -1, 2, NULL, 0), NK_OK);
    double w[4] = {-5, 0.5, 9, NAN};
    nk_genome_clamp(g, w);
    assert_true(w[0] == -1 && w[1] == 0.5 && w[2] == 2 && w[3] == -1);
    nk_genome_free(g);
}

static void test_pop_basics(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, 3, NK_ENC_BINARY, 5, -1, 1, NULL, 0), NK_OK);
    nk_pop *p, *q;
    assert_int_equal(nk_pop_alloc(&p, g, 0, false, NULL, 0), NK_EINVAL);
    assert_int_equal(nk_pop_alloc(&p, g, 4, true, NULL, 0), NK_OK);
    assert_int_equal(nk_pop_alloc(&q, g, 2, false, NULL, 0), NK_OK);
    assert_int_equal(p->nbits, 15);
    assert_null(q->sigma);
    assert_null(nk_pop_sigma(q, 1));
    for (size_t i = 0; i < 4; i++) {
        assert_true(isnan(p->fitness[i]));
        assert_int_equal(p->id[i], -1);
        assert_int_equal(p->parents[2 * i], -1);
        assert_int_equal(p->parents[2 * i + 1], -1);
    }
    gsl_rng *r = new_rng(5);
    for (size_t i = 0; i < 4; i++) {
        nk_pop_randomize(p, i, 0.25, r);
        double w[3];
        nk_genome_decode(g, nk_pop_bits(p, i), w);
        assert_memory_equal(w, nk_pop_w(p, i), sizeof w);
        for (size_t j = 0; j < 3; j++)
            assert_true(nk_pop_sigma(p, i)[j] == 0.5);
        p->fitness[i] = (double)i * (i % 2 ? -1 : 1);
        p->id[i] = 10 + (int64_t)i;
    }
    assert_int_equal(nk_pop_best(p), 2);
    nk_pop_copy_one(q, 1, p, 2);
    assert_memory_equal(nk_pop_w(q, 1), nk_pop_w(p, 2), 3 * sizeof(double));
    assert_memory_equal(nk_pop_bits(q, 1), nk_pop_bits(p, 2), 15);
    assert_true(q->fitness[1] == 2.0);
    assert_int_equal(q->id[1], 12);
    /* Decoding follows the bits. */
    memset(nk_pop_bits(q, 1), 1, 15);
    nk_pop_decode(q, 1);
    for (size_t j = 0; j < 3; j++)
        assert_true(nk_pop_w(q, 1)[j] == 1.0);
    nk_pop_free(p);
    nk_pop_free(q);
    nk_pop_free(NULL);
    gsl_rng_free(r);
    nk_genome_free(g);
}

/* The champion rule (nk_fitness_best, nk_fitness_better): the highest
 * fitness, the first of ties, NaN after every number. */
static void test_champion_rule(void **state)
{
    (void)state;
    const double ties[] = {1, 3, 2, 3, -INFINITY};
    assert_int_equal(nk_fitness_best(ties, 5), 1);
    assert_int_equal(nk_fitness_best(ties, 1), 0);
    const double nan_first[] = {NAN, -5, NAN, -1, -1};
    assert_int_equal(nk_fitness_best(nan_first, 5), 3);
    const double all_nan[] = {NAN, NAN};
    assert_int_equal(nk_fitness_best(all_nan, 2), 0);
    const double inf[] = {2, INFINITY, NAN};
    assert_int_equal(nk_fitness_best(inf, 3), 1);
    assert_true(nk_fitness_better(1, 0));
    assert_false(nk_fitness_better(1, 1)); /* a tie keeps the first */
    assert_true(nk_fitness_better(-INFINITY, NAN));
    assert_false(nk_fitness_better(NAN, -INFINITY));
    assert_false(nk_fitness_better(NAN, NAN));
}

static void test_randomize_real_uniform(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, 2, NK_ENC_REAL, 0, 10, 20, NULL, 0), NK_OK);
    assert_int_equal(nk_genome_set_bounds(g, 1, -1, 0, NULL, 0), NK_OK);
    nk_pop *p;
    assert_int_equal(nk_pop_alloc(&p, g, 1, false, NULL, 0), NK_OK);
    gsl_rng *r = new_rng(9);
    double sum0 = 0, sum1 = 0;
    int n = 20000;
    for (int t = 0; t < n; t++) {
        nk_pop_randomize(p, 0, 0.1, r);
        double *w = nk_pop_w(p, 0);
        assert_true(w[0] >= 10 && w[0] <= 20 && w[1] >= -1 && w[1] <= 0);
        sum0 += w[0];
        sum1 += w[1];
    }
    /* Means of uniforms, within 4 standard errors. */
    assert_near(sum0 / n, 15.0, 4 * 10 / sqrt(12.0 * n));
    assert_near(sum1 / n, -0.5, 4 * 1 / sqrt(12.0 * n));
    nk_pop_free(p);
    gsl_rng_free(r);
    nk_genome_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_known_strings),
        cmocka_unit_test(test_decode_whole_genome),
        cmocka_unit_test(test_encode_round_trip),
        cmocka_unit_test(test_genome_errors),
        cmocka_unit_test(test_clamp),
        cmocka_unit_test(test_pop_basics),
        cmocka_unit_test(test_champion_rule),
        cmocka_unit_test(test_randomize_real_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
