/*
 * test_arena_nash.c -- the Nash average (arena/nash.h) on matrices whose
 * maximum-entropy equilibrium is worked out by hand below each test, and
 * the share of cyclic triads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "arena/nash.h"

static const double EPS = 1e-8;

static void solve(const double *score, size_t n, nk_nash *out)
{
    char err[256] = "";
    nk_status st = nk_nash_average(score, n, out, err, sizeof err);
    if (st != NK_OK)
        fail_msg("nk_nash_average: %s", err);
    assert_int_equal(out->n, n);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(out->mix[i] >= 0);
        sum += out->mix[i];
    }
    assert_float_equal(sum, 1.0, EPS);
}

/* Rock-paper-scissors: the only equilibrium is uniform, every payoff 0,
 * the one triad is a cycle. */
static void test_rock_paper_scissors(void **state)
{
    (void)state;
    const double s[9] = {0.5, 0,   1, /* R loses to P, beats S */
                         1,   0.5, 0, /* P */
                         0,   1,   0.5};
    nk_nash r;
    solve(s, 3, &r);
    for (int i = 0; i < 3; i++) {
        assert_float_equal(r.mix[i], 1.0 / 3, EPS);
        assert_float_equal(r.payoff[i], 0.0, EPS);
    }
    assert_float_equal(r.cyclic_share, 1.0, 0);
    nk_nash_free(&r);
}

/* Transitive: 0 > 1 > 2 > 3 by 0.7 each.  Row 0 beats every mix that is
 * not all on 0, so the mix is (1, 0, 0, 0); payoffs are A[i][0] =
 * score[i][0] - score[0][i]: 0, -0.4, -0.4, -0.4.  No triad is a cycle. */
static void test_transitive(void **state)
{
    (void)state;
    double s[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            s[i * 4 + j] = i == j ? 0.5 : i < j ? 0.7 : 0.3;
    nk_nash r;
    solve(s, 4, &r);
    assert_float_equal(r.mix[0], 1.0, EPS);
    for (int i = 1; i < 4; i++) {
        assert_float_equal(r.mix[i], 0.0, EPS);
        assert_float_equal(r.payoff[i], -0.4, EPS);
    }
    assert_float_equal(r.payoff[0], 0.0, EPS);
    assert_float_equal(r.cyclic_share, 0.0, 0);
    nk_nash_free(&r);
}

/* RPS plus D, who scores 0.3 against each of R, P, S.  D gets no mass
 * (its row is -0.4 everywhere, so it cannot be in a mix that no one beats),
 * R, P, S get 1/3 each, and D's payoff is 3 * (1/3) * (0.3 - 0.7) = -0.4.
 * Triads: RPS is a cycle; the three with D are transitive (D loses to
 * both): share 1/4. */
static void test_rps_with_a_dominated_player(void **state)
{
    (void)state;
    const double s[16] = {0.5, 0,   1,   0.7, /* R */
                          1,   0.5, 0,   0.7, /* P */
                          0,   1,   0.5, 0.7, /* S */
                          0.3, 0.3, 0.3, 0.5};
    nk_nash r;
    solve(s, 4, &r);
    for (int i = 0; i < 3; i++) {
        assert_float_equal(r.mix[i], 1.0 / 3, EPS);
        assert_float_equal(r.payoff[i], 0.0, EPS);
    }
    assert_float_equal(r.mix[3], 0.0, EPS);
    assert_float_equal(r.payoff[3], -0.4, EPS);
    assert_float_equal(r.cyclic_share, 0.25, 1e-15);
    nk_nash_free(&r);
}

/* RPS with rock twice (R1, R2 tie each other and play alike).  Equilibria:
 * p_R1 + p_R2 = 1/3, p_P = p_S = 1/3, a segment.  Entropy on it is largest
 * where R1 and R2 split 1/3 evenly: (1/6, 1/6, 1/3, 1/3).  (The uniform
 * mix 1/4 each is no equilibrium: P would beat it.)  Payoffs all 0.
 * Triads: {R1,P,S} and {R2,P,S} cycles; the two with R1-R2 are tied and
 * left out: share 1. */
static void test_clones_share_their_mass(void **state)
{
    (void)state;
    const double s[16] = {0.5, 0.5, 0,   1,    /* R1 */
                          0.5, 0.5, 0,   1,    /* R2 */
                          1,   1,   0.5, 0,    /* P */
                          0,   0,   1,   0.5}; /* S */
    nk_nash r;
    solve(s, 4, &r);
    assert_float_equal(r.mix[0], 1.0 / 6, EPS);
    assert_float_equal(r.mix[1], 1.0 / 6, EPS);
    assert_float_equal(r.mix[2], 1.0 / 3, EPS);
    assert_float_equal(r.mix[3], 1.0 / 3, EPS);
    for (int i = 0; i < 4; i++)
        assert_float_equal(r.payoff[i], 0.0, EPS);
    assert_float_equal(r.cyclic_share, 1.0, 0);
    nk_nash_free(&r);
}

/* a ties b and c; b beats c 0.6.  A p <= 0: b's row gives 0.2 p_c <= 0, so
 * p_c = 0; every (t, 1 - t, 0) is an equilibrium (a and b tie, and c cannot
 * beat them).  Maximum entropy: t = 1/2, so (1/2, 1/2, 0) -- c is left out
 * although it ties a.  Payoffs: a 0, b 0, c = -0.2 * 1/2 = -0.1.  No triad
 * is decided: share 0. */
static void test_several_equilibria_pick_the_widest(void **state)
{
    (void)state;
    const double s[9] = {0.5, 0.5, 0.5, /* a */
                         0.5, 0.5, 0.6, /* b */
                         0.5, 0.4, 0.5};
    nk_nash r;
    solve(s, 3, &r);
    assert_float_equal(r.mix[0], 0.5, EPS);
    assert_float_equal(r.mix[1], 0.5, EPS);
    assert_float_equal(r.mix[2], 0.0, EPS);
    assert_float_equal(r.payoff[0], 0.0, EPS);
    assert_float_equal(r.payoff[1], 0.0, EPS);
    assert_float_equal(r.payoff[2], -0.1, EPS);
    assert_float_equal(r.cyclic_share, 0.0, 0);
    nk_nash_free(&r);
}

/* a and b tie; d beats a 0.9 and loses to b 0.3.  d can have no mass (b's
 * row would be 0.4 p_d > 0), so p = (t, 1 - t, 0), and d does not beat p
 * only while 0.8 t - 0.4 (1 - t) <= 0, i.e. t <= 1/3.  Entropy grows
 * towards t = 1/2, so the maximum over [0, 1/3] is at the bound: (1/3, 2/3,
 * 0), where d's row is active (payoff 0 although d is outside the
 * support).  The solver must stop at the inequality, not at the uniform
 * mix of the support. */
static void test_an_outside_row_binds(void **state)
{
    (void)state;
    const double s[9] = {0.5, 0.5, 0.1, /* a */
                         0.5, 0.5, 0.7, /* b */
                         0.9, 0.3, 0.5};
    nk_nash r;
    solve(s, 3, &r);
    assert_float_equal(r.mix[0], 1.0 / 3, EPS);
    assert_float_equal(r.mix[1], 2.0 / 3, EPS);
    assert_float_equal(r.mix[2], 0.0, EPS);
    for (int i = 0; i < 3; i++)
        assert_float_equal(r.payoff[i], 0.0, EPS);
    nk_nash_free(&r);
}

/* All ties: every mix is an equilibrium; the widest is uniform. */
static void test_all_ties_are_uniform(void **state)
{
    (void)state;
    double s[25];
    for (int i = 0; i < 25; i++)
        s[i] = 0.5;
    nk_nash r;
    solve(s, 5, &r);
    for (int i = 0; i < 5; i++) {
        assert_float_equal(r.mix[i], 0.2, EPS);
        assert_float_equal(r.payoff[i], 0.0, EPS);
    }
    nk_nash_free(&r);
}

/* One player, and bad input. */
static void test_edges(void **state)
{
    (void)state;
    const double one = 0.5;
    nk_nash r;
    solve(&one, 1, &r);
    assert_float_equal(r.mix[0], 1.0, 0);
    assert_float_equal(r.payoff[0], 0.0, 0);
    nk_nash_free(&r);
    char err[256];
    assert_int_equal(nk_nash_average(&one, 0, &r, err, sizeof err), NK_EINVAL);
    nk_nash_free(&r);
    const double bad[4] = {0.5, 1.5, -0.5, 0.5};
    assert_int_equal(nk_nash_average(bad, 2, &r, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "not in [0, 1]"));
    nk_nash_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rock_paper_scissors),
        cmocka_unit_test(test_transitive),
        cmocka_unit_test(test_rps_with_a_dominated_player),
        cmocka_unit_test(test_clones_share_their_mass),
        cmocka_unit_test(test_several_equilibria_pick_the_widest),
        cmocka_unit_test(test_an_outside_row_binds),
        cmocka_unit_test(test_all_ties_are_uniform),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
