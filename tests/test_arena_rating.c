/*
 * test_arena_rating.c -- the maximum-likelihood rating list
 * (arena/rating.h): examples worked by hand, the coverage of the 95%
 * intervals on games drawn from known ratings, and the degenerate cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "arena/rating.h"
#include "base/rng.h"
#include "base/status.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static const double C = 2.302585092994045684 / 400.0; /* ln 10 / 400 */

/* i's result against j, kept antisymmetric. */
static void set(nk_wdl *m, size_t n, size_t i, size_t j, uint32_t w, uint32_t d, uint32_t l)
{
    m[i * n + j] = (nk_wdl){w, d, l};
    m[j * n + i] = (nk_wdl){l, d, w};
}

/* Two players, A 6-2-2 against B (10 games, 7 points, s = 0.7).
 * The maximum makes p = s: r_A - r_B = 400 log10(0.7/0.3) = 147.1896.
 * Anchor A = 0, so r_B = -147.1896.  J = C^2 * 10 * 0.7 * 0.3 = C^2 * 2.1;
 * K = C^2 * 10 * (0.21 - 0.2/4) = C^2 * 1.6 (draw share 0.2);
 * var_B = K / J^2 = 1.6 / (C^2 * 4.41) = 10949.0, se = 104.637
 * (the same as the delta method: 400/(ln10 * 0.21) * sqrt(0.016)). */
static void test_two_players_by_hand(void **state)
{
    (void)state;
    nk_wdl m[4] = {0};
    set(m, 2, 0, 1, 6, 2, 2);
    nk_ratings r;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_ratings_fit(m, 2, 0, 0.0, &r, err, sizeof err), NK_OK);
    near(r.elo[0], 0.0, 1e-12);
    near(r.elo[1], -400.0 * log10(7.0 / 3.0), 1e-6);
    double se = sqrt(1.6 / (C * C * 4.41));
    near(r.se[1], se, 1e-6);
    near(se, 104.637, 1e-3);
    near(r.se[0], 0.0, 0.0);
    near(r.lo[1], r.elo[1] - 1.959964 * se, 1e-6);
    near(r.hi[1], r.elo[1] + 1.959964 * se, 1e-6);
    near(r.games[0], 10, 0);
    near(r.score[0], 0.7, 1e-12);
    near(r.score[1], 0.3, 1e-12);
    assert_false(r.prior);
    assert_int_equal(r.order[0], 0);
    assert_int_equal(r.order[1], 1);
    /* LOS of A over B: Phi(147.19 / 104.637) = Phi(1.40666) = 0.92024 */
    near(r.los_next[0], 0.92023, 1e-4);
    assert_true(isnan(r.los_next[1]));
    nk_ratings_free(&r);

    /* Anchoring B at 1000 shifts the list: A = 1147.19, same se on A. */
    assert_int_equal(nk_ratings_fit(m, 2, 1, 1000.0, &r, err, sizeof err), NK_OK);
    near(r.elo[1], 1000.0, 1e-12);
    near(r.elo[0], 1000.0 + 400.0 * log10(7.0 / 3.0), 1e-6);
    near(r.se[0], se, 1e-6);
    nk_ratings_free(&r);
}

/* A chain: A 7-0-3 against B and B 7-0-3 against C, A and C never met.
 * Each pairing's score is matched exactly: r_B = -147.19, r_C = -294.38.
 * No draws, so the covariance is J^-1: J over (B, C) with
 * h = C^2 * 10 * 0.21 = C^2 * 2.1 per pairing is [[2h, -h], [-h, h]],
 * whose inverse is [[1/h, 1/h], [1/h, 2/h]]: var_B = 1/h, var_C = 2/h,
 * cov_BC = 1/h; so the LOS of B over C uses var 2/h + 1/h - 2/h = 1/h. */
static void test_chain_by_hand(void **state)
{
    (void)state;
    nk_wdl m[9] = {0};
    set(m, 3, 0, 1, 7, 0, 3);
    set(m, 3, 1, 2, 7, 0, 3);
    nk_ratings r;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_ratings_fit(m, 3, 0, 0.0, &r, err, sizeof err), NK_OK);
    double d = 400.0 * log10(7.0 / 3.0);
    near(r.elo[1], -d, 1e-6);
    near(r.elo[2], -2 * d, 1e-6);
    double h = C * C * 2.1;
    near(r.cov[1 * 3 + 1], 1 / h, 1e-4);
    near(r.cov[2 * 3 + 2], 2 / h, 1e-4);
    near(r.cov[1 * 3 + 2], 1 / h, 1e-4);
    near(r.los_next[1], 0.5 * erfc(-d / sqrt(1 / h) / sqrt(2.0)), 1e-9);
    assert_int_equal(r.order[2], 2);
    nk_ratings_free(&r);
}

/* Pool-relative errors, se of r_i - mean(r), in the chain above: with A
 * anchored the covariance is [[0,0,0],[0,1/h,1/h],[0,1/h,2/h]], row sums
 * 0, 2/h, 3/h, total 5/h, so var = C_ii - (2/3) row_i + (5/9)/h:
 * A 5/(9h), B 2/(9h), C 5/(9h) -- the middle player is placed best, the
 * ends alike.  The same whichever player is the anchor.  Two players:
 * r_A - mean = (r_A - r_B)/2, so each has half the se of the difference. */
static void test_pool_by_hand(void **state)
{
    (void)state;
    nk_wdl m[9] = {0};
    set(m, 3, 0, 1, 7, 0, 3);
    set(m, 3, 1, 2, 7, 0, 3);
    double h = C * C * 2.1, want[3] = {sqrt(5 / (9 * h)), sqrt(2 / (9 * h)), sqrt(5 / (9 * h))};
    char err[NK_MSG_MAX];
    for (size_t anchor = 0; anchor < 3; anchor++) {
        nk_ratings r;
        assert_int_equal(nk_ratings_fit(m, 3, anchor, 0.0, &r, err, sizeof err), NK_OK);
        for (size_t i = 0; i < 3; i++)
            near(r.se_pool[i], want[i], 1e-6);
        assert_true(r.se[anchor] == 0 && r.se_pool[anchor] > 0);
        nk_ratings_free(&r);
    }
    nk_wdl two[4] = {0};
    set(two, 2, 0, 1, 6, 2, 2);
    nk_ratings r;
    assert_int_equal(nk_ratings_fit(two, 2, 0, 0.0, &r, err, sizeof err), NK_OK);
    near(r.se_pool[0], r.se[1] / 2, 1e-9);
    near(r.se_pool[1], r.se[1] / 2, 1e-9);
    nk_ratings_free(&r);
}

/* A player rated jointly with a ladder's own results against the same
 * player rated against the ladder's fitted ratings held exact.  A known
 * case: ladder ratings 0, 200, 400, 600 (player 0 the anchor), 200 games a
 * pairing, and the new player (truth 300) 200 games against each, every
 * count at its expectation (no draws).  Both fits find 300, both 95%
 * intervals hold it, and the joint one is wider: it adds the ladder's own
 * uncertainty. */
static void test_joint_with_ladder(void **state)
{
    (void)state;
    enum { N = 4, G = 200 };
    const double truth[N] = {0, 200, 400, 600}, mine = 300;
    nk_wdl ladder[N * N] = {0}, me[N];
    for (size_t i = 0; i < N; i++) {
        for (size_t j = i + 1; j < N; j++) {
            uint32_t w = (uint32_t)lround(G / (1 + pow(10, -(truth[i] - truth[j]) / 400)));
            set(ladder, N, i, j, w, 0, G - w);
        }
        uint32_t w = (uint32_t)lround(G / (1 + pow(10, -(mine - truth[i]) / 400)));
        me[i] = (nk_wdl){w, 0, G - w};
    }
    char err[NK_MSG_MAX];
    nk_ratings lr;
    assert_int_equal(nk_ratings_fit(ladder, N, 0, 0.0, &lr, err, sizeof err), NK_OK);
    double fixed, fixed_se, joint, joint_se;
    bool prior;
    assert_int_equal(nk_rating_against(me, lr.elo, N, &fixed, &fixed_se, &prior, err, sizeof err),
                     NK_OK);
    assert_false(prior);
    assert_int_equal(
        nk_rating_joint(ladder, N, 0, 0.0, me, &joint, &joint_se, &prior, err, sizeof err), NK_OK);
    assert_false(prior);
    nk_ratings_free(&lr);
    near(fixed, mine, 3.0); /* the counts are rounded to whole games */
    near(joint, mine, 3.0);
    assert_true(fabs(fixed - mine) < 1.959964 * fixed_se);
    assert_true(fabs(joint - mine) < 1.959964 * joint_se);
    assert_true(joint_se > 1.1 * fixed_se);
    /* the same as fitting the five players as one list by hand */
    nk_wdl all[25] = {0};
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < N; j++)
            all[i * 5 + j] = ladder[i * N + j];
        set(all, 5, 4, i, me[i].w, me[i].d, me[i].l);
    }
    nk_ratings r;
    assert_int_equal(nk_ratings_fit(all, 5, 0, 0.0, &r, err, sizeof err), NK_OK);
    near(r.elo[4], joint, 1e-9);
    near(r.se[4], joint_se, 1e-9);
    nk_ratings_free(&r);
}

/* Score matrix: i's mean points, 0.5 on the diagonal and without games. */
static void test_score_matrix(void **state)
{
    (void)state;
    nk_wdl m[9] = {0};
    set(m, 3, 0, 1, 6, 2, 2);
    double s[9];
    nk_ratings_score_matrix(m, 3, s);
    near(s[0 * 3 + 1], 0.7, 1e-12);
    near(s[1 * 3 + 0], 0.3, 1e-12);
    near(s[0 * 3 + 0], 0.5, 0);
    near(s[0 * 3 + 2], 0.5, 0);
}

/* Draws games from known ratings and counts how often the 95% intervals
 * hold the truth.  6 players at 0, 60, -80, 150, 220, -200 (player 0 the
 * anchor, so every interval is of a difference to it), a round robin of 40
 * games a pairing.  A game's expected points are the model's p; a draw
 * comes with probability min(p, 1-p) (win p - d/2, loss 1 - p - d/2), so
 * the points have the right mean and the draws test the sandwich.  200
 * repetitions with a fixed seed give 1000 intervals: with true 95% coverage
 * the count has sd about 7 (plus correlation inside a repetition); the test
 * asks for 93% to 97%.  It also checks the mean of the estimates is within
 * 5 Elo of the truth (the ML bias at this size is about 1 Elo). */
static void test_coverage(void **state)
{
    (void)state;
    enum { N = 6, GAMES = 40, REPS = 200 };
    const double truth[N] = {0, 60, -80, 150, 220, -200};
    nk_rng rng = {20261202};
    unsigned covered = 0, total = 0;
    double bias[N] = {0};
    for (int rep = 0; rep < REPS; rep++) {
        nk_wdl m[N * N];
        memset(m, 0, sizeof m);
        for (size_t i = 0; i < N; i++)
            for (size_t j = i + 1; j < N; j++) {
                double p = 1.0 / (1.0 + pow(10.0, -(truth[i] - truth[j]) / 400.0));
                double d = fmin(p, 1 - p);
                uint32_t w = 0, dr = 0, l = 0;
                for (int g = 0; g < GAMES; g++) {
                    double u = (double)(nk_rng_next(&rng) >> 11) * 0x1p-53;
                    if (u < p - d / 2)
                        w++;
                    else if (u < p + d / 2)
                        dr++;
                    else
                        l++;
                }
                set(m, N, i, j, w, dr, l);
            }
        nk_ratings r;
        char err[NK_MSG_MAX];
        assert_int_equal(nk_ratings_fit(m, N, 0, 0.0, &r, err, sizeof err), NK_OK);
        for (size_t i = 1; i < N; i++) {
            covered += r.lo[i] <= truth[i] && truth[i] <= r.hi[i];
            total++;
            bias[i] += (r.elo[i] - truth[i]) / REPS;
        }
        nk_ratings_free(&r);
    }
    double share = (double)covered / total;
    print_message("coverage of the 95%% intervals: %u of %u (%.3f)\n", covered, total, share);
    assert_true(share >= 0.93 && share <= 0.97);
    for (size_t i = 1; i < N; i++)
        assert_true(fabs(bias[i]) < 5.0);
}

/* A player that lost every game: the maximum is at -infinity, so one
 * virtual draw goes to every pairing that played (documented prior).
 * A 0-0-10 against B, B 5-0-5 against C: with the prior A has 0.5 of 11
 * against B, B 5.5 of 11 against C.  r_B - r_A = 400 log10(10.5/0.5). */
static void test_sweep_gets_prior(void **state)
{
    (void)state;
    nk_wdl m[9] = {0};
    set(m, 3, 0, 1, 0, 0, 10);
    set(m, 3, 1, 2, 5, 0, 5);
    nk_ratings r;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_ratings_fit(m, 3, 0, 0.0, &r, err, sizeof err), NK_OK);
    assert_true(r.prior);
    near(r.elo[1], 400.0 * log10(10.5 / 0.5), 1e-6);
    near(r.elo[2], r.elo[1], 1e-6);
    near(r.games[0], 10, 0); /* the virtual draws are not counted */
    near(r.score[0], 0.0, 0);
    assert_int_equal(r.order[2], 0);
    nk_ratings_free(&r);
}

/* Errors: players not connected, a player without games, a bad anchor,
 * too few players. */
static void test_degenerate(void **state)
{
    (void)state;
    nk_wdl m[16] = {0};
    set(m, 4, 0, 1, 3, 1, 2);
    set(m, 4, 2, 3, 3, 1, 2);
    nk_ratings r;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_ratings_fit(m, 4, 0, 0.0, &r, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "not connected"));
    nk_ratings_free(&r);
    nk_wdl m3[9] = {0};
    set(m3, 3, 0, 1, 3, 1, 2);
    assert_int_equal(nk_ratings_fit(m3, 3, 0, 0.0, &r, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "player 2 has no games"));
    nk_ratings_free(&r);
    assert_int_equal(nk_ratings_fit(m3, 2, 2, 0.0, &r, err, sizeof err), NK_EINVAL);
    nk_ratings_free(&r);
    assert_int_equal(nk_ratings_fit(m3, 1, 0, 0.0, &r, err, sizeof err), NK_EINVAL);
    nk_ratings_free(&r);
}

/* Against a fixed ladder: 6-2-2 against one opponent rated 100 gives
 * 100 + 400 log10(7/3) = 247.19 and the se of the two-player example
 * (104.637); a second opponent with no games changes nothing; all wins
 * get the virtual draw: 4-0-0 against 0 becomes 4.5 of 5, r = 400 log10(9). */
static void test_against_ladder(void **state)
{
    (void)state;
    nk_wdl m[2] = {{6, 2, 2}, {0, 0, 0}};
    double elo[2] = {100, 500}, r, se;
    bool prior;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_rating_against(m, elo, 2, &r, &se, &prior, err, sizeof err), NK_OK);
    near(r, 100 + 400.0 * log10(7.0 / 3.0), 1e-6);
    near(se, sqrt(1.6 / (C * C * 4.41)), 1e-6);
    assert_false(prior);
    nk_wdl sweep[1] = {{4, 0, 0}};
    double zero[1] = {0};
    assert_int_equal(nk_rating_against(sweep, zero, 1, &r, &se, &prior, err, sizeof err), NK_OK);
    assert_true(prior);
    near(r, 400.0 * log10(9.0), 1e-6);
    nk_wdl none[1] = {{0, 0, 0}};
    assert_int_equal(nk_rating_against(none, zero, 1, &r, &se, &prior, err, sizeof err), NK_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_players_by_hand), cmocka_unit_test(test_chain_by_hand),
        cmocka_unit_test(test_score_matrix),        cmocka_unit_test(test_coverage),
        cmocka_unit_test(test_sweep_gets_prior),    cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_against_ladder),      cmocka_unit_test(test_pool_by_hand),
        cmocka_unit_test(test_joint_with_ladder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
