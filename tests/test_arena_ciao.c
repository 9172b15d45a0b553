/*
 * test_arena_ciao.c -- the master tournament (arena/ciao.h) of a sequence
 * whose answer is known: searchers of increasing strength stand in for the
 * champions of a run that makes progress (random, then alpha-beta at depth
 * 1, 3 and 5).  The matrix has the right shape and symmetry, later players
 * beat earlier ones, the CIAO and master-tournament scores rise, and the
 * numbers do not depend on the thread count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "arena/ciao.h"

enum { N = 4, PAIRS = 8 };

static void play(int threads, nk_ciao *c)
{
    static const char *const specs[N] = {"random", "ab:depth=1", "ab:depth=3", "ab:depth=5"};
    nk_spec spec[N];
    nk_exec_player players[N];
    char err[256];
    for (int i = 0; i < N; i++) {
        assert_int_equal(nk_spec_parse(&spec[i], specs[i], err, sizeof err), NK_OK);
        players[i] = (nk_exec_player){&spec[i], NULL, 0};
    }
    nk_arena_setup s = {.variant = nk_variant_find("abapa"),
                        .players = players,
                        .nplayers = N,
                        .master = 11,
                        .opening = 2,
                        .threads = threads};
    assert_non_null(s.variant);
    if (nk_ciao_play(&s, PAIRS, c, err, sizeof err) != NK_OK)
        fail_msg("nk_ciao_play: %s", err);
}

static void test_stronger_later_players_score_higher(void **state)
{
    (void)state;
    nk_ciao c;
    play(1, &c);
    assert_int_equal(c.n, N);
    for (int i = 0; i < N; i++) {
        assert_float_equal(c.score[i * N + i], 0.5, 0);
        for (int j = 0; j < N; j++) {
            if (i == j)
                continue;
            unsigned games = c.wins[i * N + j] + c.draws[i * N + j] + c.losses[i * N + j];
            assert_int_equal(games, 2 * PAIRS);
            assert_int_equal(c.wins[i * N + j], c.losses[j * N + i]);
            assert_float_equal(c.score[i * N + j] + c.score[j * N + i], 1.0, 1e-15);
            /* the later (deeper) player wins most of its games */
            if (i > j)
                assert_true(c.score[i * N + j] > 0.5);
        }
    }
    assert_true(isnan(c.ciao[0]));
    assert_float_equal(c.ciao[1], c.score[1 * N + 0], 1e-15);
    for (int i = 1; i < N; i++)
        assert_true(c.master[i] > c.master[i - 1]);
    for (int i = 2; i < N; i++)
        assert_true(c.ciao[i] > 0.5);
    nk_ciao_free(&c);
}

static void test_threads_do_not_change_the_matrix(void **state)
{
    (void)state;
    nk_ciao a, b;
    play(1, &a);
    play(3, &b);
    assert_memory_equal(a.score, b.score, N * N * sizeof *a.score);
    assert_memory_equal(a.wins, b.wins, N * N * sizeof *a.wins);
    assert_memory_equal(a.draws, b.draws, N * N * sizeof *a.draws);
    nk_ciao_free(&a);
    nk_ciao_free(&b);
}

static void test_needs_two_players(void **state)
{
    (void)state;
    nk_spec spec;
    char err[256];
    assert_int_equal(nk_spec_parse(&spec, "random", err, sizeof err), NK_OK);
    nk_exec_player p = {&spec, NULL, 0};
    nk_arena_setup s = {.variant = nk_variant_find("abapa"), .players = &p, .nplayers = 1};
    nk_ciao c;
    assert_int_equal(nk_ciao_play(&s, 1, &c, err, sizeof err), NK_EINVAL);
    nk_ciao_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stronger_later_players_score_higher),
        cmocka_unit_test(test_threads_do_not_change_the_matrix),
        cmocka_unit_test(test_needs_two_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
