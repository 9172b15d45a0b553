/*
 * test_arena_stats.c -- match statistics (arena/arena.h) against values
 * computed by hand (the numbers in the comments; z = 1.959964).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "arena/arena.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void add_games(nk_arena_tally *t, unsigned w, unsigned d, unsigned l)
{
    for (unsigned i = 0; i < w; i++)
        nk_arena_add_game(t, 1.0, 2);
    for (unsigned i = 0; i < d; i++)
        nk_arena_add_game(t, 0.5, 0);
    for (unsigned i = 0; i < l; i++)
        nk_arena_add_game(t, 0.0, -1);
}

static void test_elo_function(void **state)
{
    (void)state;
    near(nk_arena_elo(0.5), 0.0, 1e-12);
    near(nk_arena_elo(0.75), 400.0 * log10(3.0), 1e-9); /* 190.85 */
    near(nk_arena_elo(0.25), -400.0 * log10(3.0), 1e-9);
    near(nk_arena_score(400.0 * log10(3.0)), 0.75, 1e-12);
    near(nk_arena_score(nk_arena_elo(0.3)), 0.3, 1e-12);
    assert_true(isinf(nk_arena_elo(1.0)) && nk_arena_elo(1.0) > 0);
    assert_true(isinf(nk_arena_elo(0.0)) && nk_arena_elo(0.0) < 0);
    assert_true(nk_arena_score(1e9) == 1.0 && nk_arena_score(-1e9) == 0.0);
}

/* 10 wins, 0 draws, 10 losses: Elo 0, LOS 0.5; s = 0.5, var = 0.25, se =
 * sqrt(0.25 / 20), interval elo(0.5 -+ z se) = -+163.32. */
static void test_even_score(void **state)
{
    (void)state;
    nk_arena_tally t;
    nk_arena_stats s;
    nk_arena_init(&t);
    add_games(&t, 10, 0, 10);
    nk_arena_stats_of(&t, &s);
    assert_int_equal(s.games, 20);
    near(s.score, 0.5, 1e-12);
    near(s.elo, 0.0, 1e-9);
    near(s.los, 0.5, 1e-12);
    near(s.elo_lo, -163.3214, 1e-3);
    near(s.elo_hi, 163.3214, 1e-3);
    near(s.seed_diff, 0.5, 1e-12); /* (10 * 2 - 10) / 20 */
    assert_false(s.pentanomial);
}

/* 60 wins, 20 draws, 20 losses: s = 0.7, elo = 147.19; trinomial var =
 * (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16, se = 0.04, interval
 * elo(0.7 -+ 0.078399) = [86.23, 218.25]; LOS = Phi(40 / sqrt(80)). */
static void test_known_trinomial(void **state)
{
    (void)state;
    nk_arena_tally t;
    nk_arena_stats s;
    nk_arena_init(&t);
    add_games(&t, 60, 20, 20);
    nk_arena_stats_of(&t, &s);
    assert_int_equal(s.wins, 60);
    assert_int_equal(s.draws, 20);
    assert_int_equal(s.losses, 20);
    near(s.score, 0.7, 1e-12);
    near(s.se, 0.04, 1e-12);
    near(s.elo, 147.1907, 1e-3);
    near(s.elo_lo, 86.2250, 1e-3);
    near(s.elo_hi, 218.2518, 1e-3);
    near(s.los, 0.9999961279, 1e-9);
}

/* Pairs with A's points 0, 1/2, 1, 3/2, 2 counted 2, 3, 10, 4, 1 times:
 * s = 19.5 / 40 = 0.4875, per-pair variance of points/2 = 0.05921875,
 * se = sqrt(0.05921875 / 20) = 0.054414, elo -8.69, interval
 * [-84.42, 66.21]. */
static void test_known_pentanomial(void **state)
{
    (void)state;
    static const unsigned counts[5] = {2, 3, 10, 4, 1};
    /* one way to make each pair score: (first game, second game) */
    static const double games[5][2] = {{0, 0}, {0.5, 0}, {1, 0}, {1, 0.5}, {1, 1}};
    nk_arena_tally t;
    nk_arena_stats s;
    nk_arena_init(&t);
    for (int k = 0; k < 5; k++)
        for (unsigned i = 0; i < counts[k]; i++)
            nk_arena_add_pair(&t, games[k][0], 0, games[k][1], 0);
    for (int k = 0; k < 5; k++)
        assert_int_equal(t.pairs[k], counts[k]);
    nk_arena_stats_of(&t, &s);
    assert_true(s.pentanomial);
    assert_int_equal(s.games, 40);
    near(s.score, 0.4875, 1e-12);
    near(s.se, 0.0544145, 1e-6);
    near(s.elo, -8.6877, 1e-3);
    near(s.elo_lo, -84.4171, 1e-3);
    near(s.elo_hi, 66.2125, 1e-3);
}

/* Pairs that all score 1-1 have no pentanomial variance: the trinomial
 * one is used (as for 10 wins, 10 losses). */
static void test_pentanomial_zero_falls_back(void **state)
{
    (void)state;
    nk_arena_tally t;
    nk_arena_stats s;
    nk_arena_init(&t);
    for (int i = 0; i < 10; i++)
        nk_arena_add_pair(&t, 1.0, 5, 0.0, -5);
    nk_arena_stats_of(&t, &s);
    assert_false(s.pentanomial);
    near(s.elo, 0.0, 1e-9);
    near(s.elo_lo, -163.3214, 1e-3);
    near(s.elo_hi, 163.3214, 1e-3);
}

/* Clamping: 10 wins of 10: point and upper bound elo(1 - 1/20) = 511.50,
 * lower bound elo(0.025^(1/10)) = 140.22; mirrored for 10 losses.  All
 * draws: variance 1/(2N), interval -+98.89 for N = 10. */
static void test_clamped_extremes(void **state)
{
    (void)state;
    nk_arena_tally t;
    nk_arena_stats s;
    nk_arena_init(&t);
    add_games(&t, 10, 0, 0);
    nk_arena_stats_of(&t, &s);
    near(s.elo, 511.5014, 1e-3);
    near(s.elo_hi, 511.5014, 1e-3);
    near(s.elo_lo, 140.2172, 1e-3);
    near(s.los, 0.9992172, 1e-6); /* Phi(sqrt(10)) */

    nk_arena_init(&t);
    add_games(&t, 0, 0, 10);
    nk_arena_stats_of(&t, &s);
    near(s.elo, -511.5014, 1e-3);
    near(s.elo_lo, -511.5014, 1e-3);
    near(s.elo_hi, -140.2172, 1e-3);

    nk_arena_init(&t);
    add_games(&t, 0, 10, 0);
    nk_arena_stats_of(&t, &s);
    near(s.elo, 0.0, 1e-9);
    near(s.elo_lo, -98.8891, 1e-3);
    near(s.elo_hi, 98.8891, 1e-3);
    near(s.los, 0.5, 1e-12);

    /* 4 wins, 96 losses in pairs: the lower bound stops at elo(1/200). */
    nk_arena_init(&t);
    for (int i = 0; i < 4; i++)
        nk_arena_add_pair(&t, 1.0, 1, 0.0, -1);
    for (int i = 0; i < 46; i++)
        nk_arena_add_pair(&t, 0.0, -1, 0.0, -1);
    nk_arena_stats_of(&t, &s);
    near(s.elo, -552.0845, 1e-3);
    near(s.elo_lo, -919.5412, 1e-3);
    assert_true(s.elo_hi > s.elo && isfinite(s.elo_hi));
}

static void test_no_games(void **state)
{
    (void)state;
    nk_arena_tally t;
    nk_arena_stats s;
    nk_arena_init(&t);
    nk_arena_stats_of(&t, &s);
    assert_int_equal(s.games, 0);
    near(s.score, 0.5, 0);
    near(s.elo, 0, 0);
    near(s.elo_lo, 0, 0);
    near(s.elo_hi, 0, 0);
    near(s.los, 0.5, 0);
}

/* SPRT of elo0 = 0 against elo1 = 10 at alpha = beta = 0.05: bounds -+2.944;
 * 60/20/20 gives LLR = 100 (s1 - s0)(2 * 0.7 - s0 - s1) / (2 * 0.16) =
 * 1.7337 (continue); 28/44/28 gives -0.07393. */
static void test_sprt(void **state)
{
    (void)state;
    nk_arena_tally t;
    nk_sprt r;
    char err[128];
    nk_arena_init(&t);
    add_games(&t, 60, 20, 20);
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_NORMAL, 0, 10, 0.05, 0.05, &r, err, sizeof err),
                     NK_OK);
    near(r.lower, -2.944439, 1e-6);
    near(r.upper, 2.944439, 1e-6);
    near(r.llr, 1.733713, 1e-5);
    assert_int_equal(r.verdict, NK_SPRT_CONTINUE);

    add_games(&t, 120, 40, 40); /* the same score, three times the games */
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_NORMAL, 0, 10, 0.05, 0.05, &r, err, sizeof err),
                     NK_OK);
    near(r.llr, 3 * 1.733713, 1e-4);
    assert_int_equal(r.verdict, NK_SPRT_H1);

    nk_arena_init(&t);
    add_games(&t, 28, 44, 28);
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_NORMAL, 0, 10, 0.05, 0.05, &r, err, sizeof err),
                     NK_OK);
    near(r.llr, -0.0739254, 1e-6);

    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_NORMAL, 10, 0, 0.05, 0.05, &r, err, sizeof err),
                     NK_ERANGE);
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_NORMAL, 0, 10, 0.0, 0.05, &r, err, sizeof err),
                     NK_ERANGE);
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_NORMAL, 0, 10, 0.05, 0.7, &r, err, sizeof err),
                     NK_ERANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_function),
        cmocka_unit_test(test_even_score),
        cmocka_unit_test(test_known_trinomial),
        cmocka_unit_test(test_known_pentanomial),
        cmocka_unit_test(test_pentanomial_zero_falls_back),
        cmocka_unit_test(test_clamped_extremes),
        cmocka_unit_test(test_no_games),
        cmocka_unit_test(test_sprt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
