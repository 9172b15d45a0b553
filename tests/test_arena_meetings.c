/*
 * test_arena_meetings.c -- playing meetings (arena/meetings.h): every
 * meeting is a colour-swapped pair, and its tally counts the two games'
 * results from a's side, wins, draws and losses, as the games say.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "arena/meetings.h"

enum { MEETINGS = 12 };

typedef struct fixture {
    nk_spec spec[2];
    nk_exec_player players[2];
    nk_meeting meet[MEETINGS];
    nk_arena_setup setup;
} fixture;

/* random (0) and greedy (1) under Antigua rules, games cut at 2 plies (the
 * seeds then split evenly often enough to give draws), meetings alternate
 * (0, 1) and (1, 0). */
static void make(fixture *f, int threads)
{
    static const char *const specs[2] = {"random", "greedy"};
    char err[256];
    memset(f, 0, sizeof *f);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(nk_spec_parse(&f->spec[i], specs[i], err, sizeof err), NK_OK);
        f->players[i] = (nk_exec_player){&f->spec[i], NULL, 0};
    }
    for (uint32_t i = 0; i < MEETINGS; i++)
        f->meet[i] = (nk_meeting){i % 2, 1 - i % 2};
    f->setup = (nk_arena_setup){.variant = nk_variant_find("antigua"),
                                .ply_limit = 2,
                                .players = f->players,
                                .nplayers = 2,
                                .master = 7,
                                .batch = 3,
                                .opening = 1,
                                .threads = threads};
    assert_non_null(f->setup.variant);
}

/* The tallies against the same games played directly through exec and
 * counted here game by game. */
static void test_tallies_count_the_games(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    make(&f, 1);
    nk_arena_played p;
    assert_int_equal(nk_arena_play_meetings(&f.setup, f.meet, MEETINGS, &p, err, sizeof err),
                     NK_OK);
    assert_int_equal(p.n, MEETINGS);

    nk_exec_job jobs[2 * MEETINGS];
    nk_exec_game games[2 * MEETINGS];
    memset(games, 0, sizeof games);
    nk_exec_pairs(jobs, f.meet, MEETINGS, 7, 3, 1);
    nk_exec_batch b = {.variant = f.setup.variant, .ply_limit = 2, .players = f.players,
                       .nplayers = 2, .jobs = jobs, .njobs = 2 * MEETINGS, .threads = 1};
    assert_int_equal(nk_exec_run(&b, games, err, sizeof err), NK_OK);

    unsigned wins = 0, draws = 0, losses = 0;
    for (size_t i = 0; i < MEETINGS; i++) {
        const nk_meeting_tally *t = &p.tally[i];
        uint32_t a = f.meet[i].a;
        /* colour swap: a South first, then North, from one opening */
        assert_int_equal(p.jobs[2 * i].south, a);
        assert_int_equal(p.jobs[2 * i].north, f.meet[i].b);
        assert_int_equal(p.jobs[2 * i + 1].south, f.meet[i].b);
        assert_int_equal(p.jobs[2 * i + 1].north, a);
        assert_true(p.jobs[2 * i].opening_seed == p.jobs[2 * i + 1].opening_seed);
        unsigned w = 0, d = 0, l = 0;
        for (int k = 0; k < 2; k++) {
            const nk_exec_game *g = &games[2 * i + k];
            int side = k == 0 ? NK_SOUTH : NK_NORTH; /* where a sat */
            assert_int_equal(p.games[2 * i + k].result.winner, g->result.winner);
            if (g->result.winner == NK_DRAW) {
                d++;
                assert_int_equal(t->outcome[k], 0);
                assert_true(nk_meeting_points(t, k) == 0.5);
            } else if (g->result.winner == side) {
                w++;
                assert_int_equal(t->outcome[k], 1);
                assert_true(nk_meeting_points(t, k) == 1.0);
            } else {
                l++;
                assert_int_equal(t->outcome[k], -1);
                assert_true(nk_meeting_points(t, k) == 0.0);
            }
            assert_int_equal(t->own[k], g->result.total[side]);
            assert_int_equal(t->other[k], g->result.total[1 - side]);
            assert_int_equal(nk_meeting_seed_diff(t, k), nk_exec_seed_diff(g, side));
        }
        assert_int_equal(t->wins, w);
        assert_int_equal(t->draws, d);
        assert_int_equal(t->losses, l);
        wins += w;
        draws += d;
        losses += l;
    }
    /* The fixture exercises every case. */
    assert_true(wins > 0);
    assert_true(draws > 0);
    assert_true(losses > 0);
    assert_int_equal(wins + draws + losses, 2 * MEETINGS);
    nk_exec_games_free(games, 2 * MEETINGS);
    nk_arena_played_free(&p);
    assert_null(p.games);
}

/* A hand-made meeting: a wins as South, draws as North. */
static void test_add_meeting_is_a_pair(void **state)
{
    (void)state;
    nk_meeting_tally m = {.wins = 1, .draws = 1, .outcome = {1, 0}, .own = {30, 24},
                          .other = {18, 24}};
    nk_arena_tally a, b;
    nk_arena_init(&a);
    nk_arena_init(&b);
    nk_arena_add_meeting(&a, &m);
    nk_arena_add_pair(&b, 1.0, 12, 0.5, 0);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(a.wins, 1);
    assert_int_equal(a.draws, 1);
    assert_int_equal(a.losses, 0);
    assert_int_equal(a.pairs[3], 1); /* 1.5 points: three half points */
    assert_int_equal(a.seed_diff, 12);
}

static void test_threads_do_not_matter(void **state)
{
    (void)state;
    fixture f1, f2;
    char err[256];
    nk_arena_played p1, p2;
    make(&f1, 1);
    make(&f2, 2);
    assert_int_equal(nk_arena_play_meetings(&f1.setup, f1.meet, MEETINGS, &p1, err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_arena_play_meetings(&f2.setup, f2.meet, MEETINGS, &p2, err, sizeof err),
                     NK_OK);
    assert_memory_equal(p1.tally, p2.tally, MEETINGS * sizeof *p1.tally);
    assert_memory_equal(p1.jobs, p2.jobs, 2 * MEETINGS * sizeof *p1.jobs);
    nk_arena_played_free(&p1);
    nk_arena_played_free(&p2);
}

static void test_no_meetings_and_bad_player(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    nk_arena_played p;
    make(&f, 1);
    assert_int_equal(nk_arena_play_meetings(&f.setup, f.meet, 0, &p, err, sizeof err), NK_OK);
    assert_int_equal(p.n, 0);
    nk_arena_played_free(&p);
    f.meet[3] = (nk_meeting){0, 5};
    assert_int_equal(nk_arena_play_meetings(&f.setup, f.meet, MEETINGS, &p, err, sizeof err),
                     NK_EINVAL);
    assert_true(err[0] != '\0');
    nk_arena_played_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tallies_count_the_games),
        cmocka_unit_test(test_add_meeting_is_a_pair),
        cmocka_unit_test(test_threads_do_not_matter),
        cmocka_unit_test(test_no_meetings_and_bad_player),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
