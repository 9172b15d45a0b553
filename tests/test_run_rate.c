/*
 * test_run_rate.c -- the gauntlet of `nickar rate` as an iterate object
 * (run/rate.h).
 *
 * - The gauntlet plays every ladder player in one batch; a reference plays
 *   each opponent in a batch of its own (the same seeds: pairing index
 *   within the opponent) and gets the same results, and from them the
 *   same ratings: against the ladder's ratings held exact and, with the
 *   ladder's results, fitted jointly with them.
 * - Nothing depends on the thread count.
 * - Bad settings are refused with one line naming the setting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "arena/meetings.h"
#include "run/rate.h"
#include "search/player.h"

enum { N = 3, GAMES = 6 };

typedef struct fixture {
    nk_spec me, spec[N];
    nk_exec_player ladder[N];
    double elo[N];
    nk_wdl results[N * N];
    nk_rate_settings s;
} fixture;

static void setup_rate(fixture *f, bool with_results)
{
    static const char *const specs[N] = {"random", "greedy", "ab:depth=1"};
    char err[NK_MSG_MAX];
    memset(f, 0, sizeof *f);
    assert_int_equal(nk_spec_parse(&f->me, "ab:depth=2", err, sizeof err), NK_OK);
    for (int j = 0; j < N; j++) {
        assert_int_equal(nk_spec_parse(&f->spec[j], specs[j], err, sizeof err), NK_OK);
        f->ladder[j] = (nk_exec_player){&f->spec[j], NULL, 0};
        f->elo[j] = 400.0 * j;
    }
    /* the ladder's own results: each beats the one below 7-1-2 */
    for (int j = 1; j < N; j++) {
        f->results[j * N + j - 1] = (nk_wdl){7, 1, 2};
        f->results[(j - 1) * N + j] = (nk_wdl){2, 1, 7};
    }
    f->s = (nk_rate_settings){.variant = nk_variant_find("abapa"),
                              .player = {&f->me, NULL, 0},
                              .ladder = f->ladder,
                              .elo = f->elo,
                              .n = N,
                              .results = with_results ? f->results : NULL,
                              .anchor = 0,
                              .anchor_elo = 0,
                              .games = GAMES,
                              .openings = 2,
                              .seed = 11,
                              .threads = 1};
    assert_non_null(f->s.variant);
}

/* The player's results against opponent j, in a batch of their own. */
static nk_wdl play_one(const nk_rate_settings *s, size_t j)
{
    nk_exec_player players[2] = {s->player, s->ladder[j]};
    nk_meeting meetings[GAMES / 2];
    for (size_t i = 0; i < GAMES / 2; i++)
        meetings[i] = (nk_meeting){0, 1};
    nk_arena_setup setup = {.variant = s->variant,
                            .players = players,
                            .nplayers = 2,
                            .master = s->seed,
                            .opening = s->openings,
                            .threads = 1};
    nk_arena_played p = {0};
    char err[NK_MSG_MAX];
    assert_int_equal(nk_arena_play_meetings(&setup, meetings, GAMES / 2, &p, err, sizeof err),
                     NK_OK);
    nk_wdl w = {0, 0, 0};
    for (size_t i = 0; i < p.n; i++) {
        w.w += p.tally[i].wins;
        w.d += p.tally[i].draws;
        w.l += p.tally[i].losses;
    }
    nk_arena_played_free(&p);
    return w;
}

static const nk_rate_result *run_rate(nk_rate **r, const nk_rate_settings *s)
{
    char err[NK_MSG_MAX];
    assert_int_equal(nk_rate_alloc(r, s, err, sizeof err), NK_OK);
    assert_false(nk_rate_done(*r));
    assert_null(nk_rate_result_of(*r));
    unsigned steps = 0;
    while (!nk_rate_done(*r)) {
        if (nk_rate_iterate(*r, err, sizeof err) != NK_OK)
            fail_msg("%s", err);
        steps++;
    }
    assert_int_equal(steps, 1);
    assert_int_equal(nk_rate_iterate(*r, err, sizeof err), NK_EINVAL);
    return nk_rate_result_of(*r);
}

static void check_against_reference(bool with_results)
{
    fixture f;
    setup_rate(&f, with_results);
    nk_rate *r = NULL;
    const nk_rate_result *x = run_rate(&r, &f.s);
    nk_wdl want[N];
    for (size_t j = 0; j < N; j++) {
        want[j] = play_one(&f.s, j);
        assert_int_equal(x->wdl[j].w, want[j].w);
        assert_int_equal(x->wdl[j].d, want[j].d);
        assert_int_equal(x->wdl[j].l, want[j].l);
        assert_int_equal(want[j].w + want[j].d + want[j].l, GAMES);
    }
    assert_int_equal(x->games, N * GAMES);
    char err[NK_MSG_MAX];
    double elo, se;
    bool prior;
    assert_int_equal(nk_rating_against(want, f.elo, N, &elo, &se, &prior, err, sizeof err), NK_OK);
    assert_true(x->fixed_elo == elo && x->fixed_se == se && x->fixed_prior == prior);
    assert_int_equal(x->joint, with_results);
    if (with_results) {
        assert_int_equal(
            nk_rating_joint(f.results, N, 0, 0, want, &elo, &se, &prior, err, sizeof err), NK_OK);
    }
    assert_true(x->elo == elo && x->se == se && x->prior == prior);
    assert_true(x->se > 0);
    nk_rate_free(r);
}

static void test_fixed_ladder(void **state)
{
    (void)state;
    check_against_reference(false);
}

static void test_joint_with_results(void **state)
{
    (void)state;
    check_against_reference(true);
}

static void test_threads(void **state)
{
    (void)state;
    fixture f;
    setup_rate(&f, true);
    nk_rate *a = NULL, *b = NULL;
    const nk_rate_result *x = run_rate(&a, &f.s);
    f.s.threads = 3;
    const nk_rate_result *y = run_rate(&b, &f.s);
    assert_memory_equal(x->wdl, y->wdl, N * sizeof *x->wdl);
    assert_true(x->elo == y->elo && x->se == y->se);
    nk_rate_free(a);
    nk_rate_free(b);
}

static void test_bad_settings(void **state)
{
    (void)state;
    struct {
        const char *word;
        nk_status st;
    } cases[] = {
        {"games 5", NK_ERANGE},  {"games 0", NK_ERANGE},         {"no ladder", NK_EINVAL},
        {"anchor 3", NK_ERANGE}, {"ladder player 1", NK_EINVAL}, {"player rated", NK_EINVAL},
        {"variant", NK_EINVAL},  {"openings", NK_ERANGE},        {"threads", NK_ERANGE},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        fixture f;
        setup_rate(&f, true);
        nk_rate_settings *s = &f.s;
        switch (c) {
        case 0:
            s->games = 5;
            break;
        case 1:
            s->games = 0;
            break;
        case 2:
            s->n = 0;
            break;
        case 3:
            s->anchor = N;
            break;
        case 4:
            f.ladder[1].spec = NULL;
            break;
        case 5:
            s->player.spec = NULL;
            break;
        case 6:
            s->variant = NULL;
            break;
        case 7:
            s->openings = NK_MAX_PLIES + 1;
            break;
        default:
            s->threads = -2;
            break;
        }
        char err[NK_MSG_MAX] = "";
        nk_rate *r = (nk_rate *)&f; /* set to NULL by a refusal */
        assert_int_equal(nk_rate_alloc(&r, s, err, sizeof err), cases[c].st);
        assert_null(r);
        if (strstr(err, cases[c].word) == NULL || strchr(err, '\n') != NULL)
            fail_msg("case %zu: '%s' does not name '%s' in one line", c, err, cases[c].word);
    }
    nk_rate_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_ladder),
        cmocka_unit_test(test_joint_with_results),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
