/*
 * test_run_tournament.c -- the tournament as an iterate object
 * (run/tournament.h): one restored from the record of its first batch
 * ends exactly as one played whole, whatever the thread count, for unit
 * game and unit match; a record of another tournament, or one whose games
 * do not fit its meetings, is refused; bad settings are refused with one
 * line naming what is wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "run/tournament.h"

enum { MAXP = 4 };

/* Settings for players texts[0..n) (named by their specs). */
typedef struct setup {
    nk_spec specs[MAXP];
    nk_tour_entry entries[MAXP];
    nk_tournament_settings s;
} setup;

static void make(setup *u, const char *variant, const char *const *texts, size_t n, uint64_t games,
                 nk_arena_unit unit, int threads)
{
    char err[NK_MSG_MAX];
    memset(u, 0, sizeof *u);
    for (size_t i = 0; i < n; i++) {
        if (nk_spec_parse(&u->specs[i], texts[i], err, sizeof err) != NK_OK)
            fail_msg("%s: %s", texts[i], err);
        u->entries[i] = (nk_tour_entry){texts[i], &u->specs[i], NULL, 0};
    }
    nk_tour_settings *t = &u->s.tour;
    snprintf(t->variant, sizeof t->variant, "%s", variant);
    t->format = NK_TOUR_ROUND_ROBIN;
    t->unit = unit;
    t->match_games = unit == NK_UNIT_MATCH ? 5 : 0;
    t->games = games;
    t->openings = 2;
    t->seed = 7;
    t->ply_limit = 1000;
    snprintf(t->anchor, sizeof t->anchor, "%s", texts[0]);
    u->s.players = u->entries;
    u->s.nplayers = n;
    u->s.threads = threads;
    u->s.created = "2026-01-01T00:00:00Z";
}

static nk_tournament *alloc_ok(const setup *u)
{
    char err[NK_MSG_MAX];
    nk_tournament *t = NULL;
    if (nk_tournament_alloc(&t, &u->s, err, sizeof err) != NK_OK)
        fail_msg("nk_tournament_alloc: %s", err);
    return t;
}

static void iterate_ok(nk_tournament *t)
{
    char err[NK_MSG_MAX];
    if (nk_tournament_iterate(t, err, sizeof err) != NK_OK)
        fail_msg("nk_tournament_iterate: %s", err);
}

static nk_tournament *play_whole(const setup *u, size_t *batches)
{
    nk_tournament *t = alloc_ok(u);
    *batches = 0;
    while (!nk_tournament_done(t)) {
        iterate_ok(t);
        ++*batches;
    }
    return t;
}

static void same_game(const nk_tour_game *a, const nk_tour_game *b)
{
    assert_int_equal(a->pairing, b->pairing);
    assert_int_equal(a->south, b->south);
    assert_int_equal(a->north, b->north);
    assert_int_equal(a->opening, b->opening);
    assert_int_equal(a->plies, b->plies);
    assert_int_equal(a->winner, b->winner);
    assert_int_equal(a->reason, b->reason);
    assert_int_equal(a->south_total, b->south_total);
    assert_int_equal(a->north_total, b->north_total);
    assert_int_equal(a->moves_at, b->moves_at);
    assert_int_equal(a->first, b->first);
    assert_int_equal(a->north_pits, b->north_pits);
}

static void same_match(const nk_tour_match *a, const nk_tour_match *b)
{
    assert_int_equal(a->pairing, b->pairing);
    assert_int_equal(a->south, b->south);
    assert_int_equal(a->north, b->north);
    assert_int_equal(a->games, b->games);
    assert_int_equal(a->winner, b->winner);
    assert_int_equal(a->south_wins, b->south_wins);
    assert_int_equal(a->north_wins, b->north_wins);
    assert_int_equal(a->draws, b->draws);
    assert_int_equal(a->first_game, b->first_game);
}

static void same_double(double a, double b)
{
    assert_true((isnan(a) && isnan(b)) || a == b);
}

/* Two records hold the same tournament: settings, players, games, moves,
 * matches and ratings. */
static void assert_same(const nk_tour *a, const nk_tour *b)
{
    char err[NK_MSG_MAX];
    assert_int_equal(nk_tour_compare(a, b, err, sizeof err), NK_OK);
    assert_string_equal(a->created, b->created);
    assert_int_equal(a->meetings_done, b->meetings_done);
    assert_int_equal(a->ngames, b->ngames);
    assert_int_equal(a->nmoves, b->nmoves);
    assert_int_equal(a->nmatches, b->nmatches);
    assert_true(a->ngames > 0);
    for (size_t k = 0; k < a->ngames; k++)
        same_game(&a->games[k], &b->games[k]);
    assert_memory_equal(a->moves, b->moves, a->nmoves);
    for (size_t k = 0; k < a->nmatches; k++)
        same_match(&a->matches[k], &b->matches[k]);
    assert_int_equal(a->has_ratings, b->has_ratings);
    assert_int_equal(a->prior, b->prior);
    for (size_t i = 0; a->has_ratings && i < a->nplayers; i++) {
        const nk_tour_rating *x = &a->ratings[i], *y = &b->ratings[i];
        same_double(x->elo, y->elo);
        same_double(x->se, y->se);
        same_double(x->lo, y->lo);
        same_double(x->hi, y->hi);
        same_double(x->games, y->games);
        same_double(x->score, y->score);
        assert_int_equal(x->rank, y->rank);
        same_double(x->los_next, y->los_next);
        same_double(x->se_pool, y->se_pool);
    }
}

/* Plays the first batch, restores a fresh object (threads2) from its
 * record, finishes that and compares it with the tournament played whole
 * (threads1). */
static void halves_equal_whole(setup *u, int threads1, int threads2)
{
    u->s.threads = threads1;
    size_t batches;
    nk_tournament *whole = play_whole(u, &batches);
    assert_true(batches >= 2); /* else there is no half to restore */
    const nk_tour *w = nk_tournament_record_of(whole);
    assert_true(w->has_ratings);

    nk_tournament *first = alloc_ok(u);
    iterate_ok(first);
    const nk_tour *part = nk_tournament_record_of(first);
    assert_true(part->meetings_done > 0 && part->meetings_done < nk_tour_meetings_total(part));

    u->s.threads = threads2;
    nk_tournament *second = alloc_ok(u);
    char err[NK_MSG_MAX];
    if (nk_tournament_restore(second, part, err, sizeof err) != NK_OK)
        fail_msg("nk_tournament_restore: %s", err);
    nk_tournament_free(first); /* the restored object holds its own copy */
    assert_false(nk_tournament_done(second));
    while (!nk_tournament_done(second))
        iterate_ok(second);
    assert_same(nk_tournament_record_of(second), w);
    nk_tournament_free(second);
    nk_tournament_free(whole);
}

static const char *const FOUR[] = {"random", "greedy", "ab:depth=1", "ab:depth=2"};

static void test_game_halves_equal_whole(void **state)
{
    (void)state;
    setup u;
    /* 6 pairings x 24 meetings = 144: batches of 64, 64, 16 */
    make(&u, "abapa", FOUR, 4, 48, NK_UNIT_GAME, 1);
    halves_equal_whole(&u, 1, 1);
}

static void test_threads_do_not_matter(void **state)
{
    (void)state;
    setup u;
    make(&u, "abapa", FOUR, 4, 48, NK_UNIT_GAME, 1);
    halves_equal_whole(&u, 1, 4);
    halves_equal_whole(&u, 3, 2);
}

static void test_match_halves_equal_whole(void **state)
{
    (void)state;
    setup u;
    /* one pairing of 65 meetings: batches of 64 and 1 */
    make(&u, "antigua", FOUR, 2, 130, NK_UNIT_MATCH, 2);
    halves_equal_whole(&u, 2, 1);
}

static void test_restore_refuses_another_tournament(void **state)
{
    (void)state;
    setup u;
    make(&u, "abapa", FOUR, 3, 4, NK_UNIT_GAME, 1);
    nk_tournament *a = alloc_ok(&u);
    iterate_ok(a);
    u.s.tour.seed = 8;
    nk_tournament *b = alloc_ok(&u);
    char err[NK_MSG_MAX];
    assert_int_equal(nk_tournament_restore(b, nk_tournament_record_of(a), err, sizeof err),
                     NK_EMISMATCH);
    assert_non_null(strstr(err, "--seed 7, not 8"));
    assert_null(strchr(err, '\n'));
    /* a record whose games do not fit its meetings */
    nk_tour bad = *nk_tournament_record_of(a);
    bad.set.seed = 8;
    bad.ngames--;
    assert_int_equal(nk_tournament_restore(b, &bad, err, sizeof err), NK_EFORMAT);
    assert_null(strchr(err, '\n'));
    assert_int_equal(nk_tournament_record_of(b)->meetings_done, 0); /* untouched */
    nk_tournament_free(a);
    nk_tournament_free(b);
}

/* Each bad setting is refused with its status and one line naming it. */
static void test_bad_settings(void **state)
{
    (void)state;
    struct {
        const char *what, *words;
        nk_status st;
    } cases[] = {
        {"variant", "unknown variant", NK_EINVAL},
        {"one player", "at least two players", NK_EINVAL},
        {"odd games", "games 5", NK_ERANGE},
        {"no games", "games 0", NK_ERANGE},
        {"anchor", "the anchor 'nobody'", NK_EINVAL},
        {"duplicate", "duplicate player name 'random'", NK_EINVAL},
        {"match games", "match games 3", NK_ERANGE},
        {"ply limit", "ply limit 0", NK_ERANGE},
        {"threads", "threads -1", NK_ERANGE},
        {"weights", "player 'random'", NK_EINVAL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        setup u;
        make(&u, "abapa", FOUR, 3, 4, NK_UNIT_GAME, 1);
        switch (c) {
        case 0:
            snprintf(u.s.tour.variant, sizeof u.s.tour.variant, "nosuch");
            break;
        case 1:
            u.s.nplayers = 1;
            break;
        case 2:
            u.s.tour.games = 5;
            break;
        case 3:
            u.s.tour.games = 0;
            break;
        case 4:
            snprintf(u.s.tour.anchor, sizeof u.s.tour.anchor, "nobody");
            break;
        case 5:
            u.entries[2].name = "random";
            break;
        case 6:
            u.s.tour.match_games = 3;
            break;
        case 7:
            u.s.tour.ply_limit = 0;
            break;
        case 8:
            u.s.threads = -1;
            break;
        case 9:
            u.entries[0].n = NK_MAX_FEATURES + 1;
            break;
        }
        char err[NK_MSG_MAX] = "";
        nk_tournament *t = (nk_tournament *)&u; /* must be set to NULL */
        nk_status st = nk_tournament_alloc(&t, &u.s, err, sizeof err);
        if (st != cases[c].st || strstr(err, cases[c].words) == NULL || strchr(err, '\n'))
            fail_msg("%s: status %d, '%s'", cases[c].what, (int)st, err);
        assert_null(t);
    }
}

/* Makes a tournament, plays it, and restores a second one from its
 * record: the first status that is not NK_OK. */
static nk_status scenario(const setup *u, char *err, size_t errlen)
{
    nk_tournament *a = NULL, *b = NULL;
    nk_status st = nk_tournament_alloc(&a, &u->s, err, errlen);
    while (st == NK_OK && !nk_tournament_done(a))
        st = nk_tournament_iterate(a, err, errlen);
    if (st == NK_OK)
        st = nk_tournament_alloc(&b, &u->s, err, errlen);
    if (st == NK_OK)
        st = nk_tournament_restore(b, nk_tournament_record_of(a), err, errlen);
    nk_tournament_free(a);
    nk_tournament_free(b);
    return st;
}

/* Every allocation may fail: the object says NK_ENOMEM (none is
 * swallowed) and frees cleanly. */
static void test_out_of_memory_is_reported(void **state)
{
    (void)state;
    setup u;
    make(&u, "abapa", FOUR, 3, 2, NK_UNIT_GAME, 1);
    char err[NK_MSG_MAX];
    nk_alloc_fail_at(0);
    assert_int_equal(scenario(&u, err, sizeof err), NK_OK);
    unsigned long count = nk_alloc_count();
    assert_true(count > 10);
    for (unsigned long n = 1; n <= count; n++) {
        nk_alloc_fail_at(n);
        nk_status st = scenario(&u, err, sizeof err);
        nk_alloc_fail_at(0);
        if (st != NK_ENOMEM || strchr(err, '\n') != NULL)
            fail_msg("allocation %lu of %lu failed: status %d (%s)", n, count, (int)st, err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_halves_equal_whole),
        cmocka_unit_test(test_threads_do_not_matter),
        cmocka_unit_test(test_match_halves_equal_whole),
        cmocka_unit_test(test_restore_refuses_another_tournament),
        cmocka_unit_test(test_bad_settings),
        cmocka_unit_test(test_out_of_memory_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
