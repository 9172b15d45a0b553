/*
 * test_run_master.c -- the master tournament of `nickar ciao` as an
 * iterate object (run/master.h): played in batches of any size, on any
 * number of threads, it gives the matrix, the CIAO and master scores and
 * the Nash average of one call of nk_ciao_play (arena/ciao.h); bad
 * settings are refused with one line naming what is wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/master.h"
#include "search/features.h"

enum { N = 4, PAIRS = 3 };

/* Four "champions": depth-1 searchers with the positional set's default
 * weights scaled, so that they differ. */
typedef struct champs {
    nk_spec spec;
    double weights[N * NK_MAX_FEATURES];
    size_t d;
    nk_master_settings s;
} champs;

static void make(champs *c, int threads, size_t batch)
{
    char err[NK_MSG_MAX];
    memset(c, 0, sizeof *c);
    if (nk_spec_parse(&c->spec, "ab:depth=1,features=positional", err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    const nk_feature_set *set = nk_features_find("positional");
    assert_non_null(set);
    c->d = set->count;
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < c->d; k++)
            c->weights[i * c->d + k] = (double)((i * 7 + k * 3) % 5) - 2.0 + 0.25 * (double)i;
    c->s = (nk_master_settings){.variant = nk_variant_find("abapa"),
                                .spec = &c->spec,
                                .ply_limit = 1000,
                                .n = N,
                                .d = c->d,
                                .weights = c->weights,
                                .pairs = PAIRS,
                                .openings = 2,
                                .seed = 11,
                                .threads = threads,
                                .batch = batch};
    assert_non_null(c->s.variant);
}

static nk_master *play(const champs *c, size_t *iterates)
{
    char err[NK_MSG_MAX];
    nk_master *m = NULL;
    if (nk_master_alloc(&m, &c->s, err, sizeof err) != NK_OK)
        fail_msg("nk_master_alloc: %s", err);
    *iterates = 0;
    while (!nk_master_done(m)) {
        assert_null(nk_master_record_of(m).nash);
        if (nk_master_iterate(m, err, sizeof err) != NK_OK)
            fail_msg("nk_master_iterate: %s", err);
        ++*iterates;
    }
    return m;
}

static void same_double(double a, double b)
{
    assert_true((isnan(a) && isnan(b)) || a == b);
}

static void assert_same_ciao(const nk_ciao *a, const nk_ciao *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t k = 0; k < a->n * a->n; k++) {
        assert_int_equal(a->wins[k], b->wins[k]);
        assert_int_equal(a->draws[k], b->draws[k]);
        assert_int_equal(a->losses[k], b->losses[k]);
        same_double(a->score[k], b->score[k]);
    }
    for (size_t i = 0; i < a->n; i++) {
        same_double(a->ciao[i], b->ciao[i]);
        same_double(a->master[i], b->master[i]);
    }
}

static void assert_same(const nk_master_record *a, const nk_master_record *b)
{
    assert_int_equal(a->meetings_done, a->meetings_total);
    assert_int_equal(a->meetings_total, b->meetings_total);
    assert_same_ciao(a->ciao, b->ciao);
    assert_non_null(a->nash);
    assert_non_null(b->nash);
    for (size_t i = 0; i < a->ciao->n; i++) {
        same_double(a->nash->mix[i], b->nash->mix[i]);
        same_double(a->nash->payoff[i], b->nash->payoff[i]);
    }
    same_double(a->nash->cyclic_share, b->nash->cyclic_share);
}

static void test_batches_and_threads_do_not_matter(void **state)
{
    (void)state;
    champs c;
    size_t iterates;
    make(&c, 1, 0);
    nk_master *whole = play(&c, &iterates);
    assert_int_equal(iterates, 1);
    nk_master_record w = nk_master_record_of(whole);
    assert_int_equal(w.meetings_total, N * (N - 1) / 2 * PAIRS);
    unsigned games = 0;
    for (size_t k = 0; k < N * N; k++)
        games += w.ciao->wins[k] + w.ciao->draws[k] + w.ciao->losses[k];
    assert_int_equal(games, 2 * 2 * w.meetings_total); /* each game counted for both */
    const struct {
        int threads;
        size_t batch, iterates;
    } runs[] = {{1, 5, 4}, {3, 1, 18}, {2, 17, 2}, {4, 0, 1}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        make(&c, runs[r].threads, runs[r].batch);
        nk_master *m = play(&c, &iterates);
        assert_int_equal(iterates, runs[r].iterates);
        nk_master_record x = nk_master_record_of(m);
        assert_same(&x, &w);
        nk_master_free(m);
    }
    nk_master_free(whole);
}

/* The iterate object plays what one call of nk_ciao_play plays. */
static void test_equals_ciao_play(void **state)
{
    (void)state;
    champs c;
    size_t iterates;
    make(&c, 2, 4);
    nk_master *m = play(&c, &iterates);
    nk_exec_player players[N];
    for (size_t i = 0; i < N; i++)
        players[i] = (nk_exec_player){&c.spec, c.weights + i * c.d, c.d};
    nk_arena_setup s = {.variant = c.s.variant,
                        .ply_limit = c.s.ply_limit,
                        .players = players,
                        .nplayers = N,
                        .master = c.s.seed,
                        .opening = (unsigned)c.s.openings,
                        .threads = 1};
    nk_ciao one;
    char err[NK_MSG_MAX];
    if (nk_ciao_play(&s, PAIRS, &one, err, sizeof err) != NK_OK)
        fail_msg("nk_ciao_play: %s", err);
    assert_same_ciao(nk_master_record_of(m).ciao, &one);
    nk_ciao_free(&one);
    nk_master_free(m);
}

static void test_bad_settings(void **state)
{
    (void)state;
    struct {
        const char *what, *words;
        nk_status st;
    } cases[] = {
        {"variant", "no variant", NK_EINVAL},
        {"spec", "no player spec", NK_EINVAL},
        {"one champion", "two players or more", NK_EINVAL},
        {"no pairs", "got 4 players, 0 pairs", NK_EINVAL},
        {"ply limit", "ply limit 5001", NK_ERANGE},
        {"weights", "33 weights a champion, but none given", NK_EINVAL},
        {"threads", "threads -2", NK_ERANGE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        champs c;
        make(&c, 1, 0);
        switch (k) {
        case 0:
            c.s.variant = NULL;
            break;
        case 1:
            c.s.spec = NULL;
            break;
        case 2:
            c.s.n = 1;
            break;
        case 3:
            c.s.pairs = 0;
            break;
        case 4:
            c.s.ply_limit = 5001;
            break;
        case 5:
            c.s.d = NK_MAX_FEATURES + 1; /* any length, but the numbers must be there */
            c.s.weights = NULL;
            break;
        case 6:
            c.s.threads = -2;
            break;
        }
        char err[NK_MSG_MAX] = "";
        nk_master *m = (nk_master *)&c; /* must be set to NULL */
        nk_status st = nk_master_alloc(&m, &c.s, err, sizeof err);
        if (st != cases[k].st || strstr(err, cases[k].words) == NULL || strchr(err, '\n'))
            fail_msg("%s: status %d, '%s'", cases[k].what, (int)st, err);
        assert_null(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batches_and_threads_do_not_matter),
        cmocka_unit_test(test_equals_ciao_play),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
