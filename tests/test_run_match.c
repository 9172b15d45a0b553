/*
 * test_run_match.c -- the match as an iterate object (run/match.h).
 *
 * - With an SPRT the match stops exactly where the sequential test first
 *   crosses a bound: a reference plays every pair of the cap in one batch
 *   (arena/meetings.h, the same seeds), feeds the pairs one by one to
 *   nk_arena_sprt_spec and stops at the first crossing, as the loop of
 *   `nickar match` did before it became this object; the match gives the
 *   same pairs counted, tally, LLR and verdict.  One case decides after
 *   several parts, one in the first part, one never (the cap).
 * - The parts: each starts where the last ended, NK_RUN_MATCH_SPRT_PART
 *   pairs a part, the counted pairs add up to the games of the result, and
 *   the result does not depend on the thread count.
 * - Without an SPRT one iterate plays every pair, whose tally is the
 *   reference's; its games, written as records (io/records.h, in two
 *   appends, as `nickar match --records` writes the parts), read back.
 * - Bad settings are refused with one line naming the setting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/meetings.h"
#include "base/alloc.h"
#include "io/records.h"
#include "run/match.h"
#include "search/player.h"

typedef struct fixture {
    nk_spec spec[2];
    nk_run_match_settings s;
} fixture;

/* random against random on antigua (fast games), SPRT elo0 -30 against
 * elo1 30, cap `games`. */
static void setup_match(fixture *f, uint64_t seed, uint64_t games, bool sprt)
{
    char err[NK_MSG_MAX];
    memset(f, 0, sizeof *f);
    assert_int_equal(nk_spec_parse(&f->spec[0], "random", err, sizeof err), NK_OK);
    assert_int_equal(nk_spec_parse(&f->spec[1], "random", err, sizeof err), NK_OK);
    f->s = (nk_run_match_settings){.variant = nk_variant_find("antigua"),
                                   .games = games,
                                   .openings = 2,
                                   .seed = seed,
                                   .threads = 1,
                                   .ply_limit = NK_DEFAULT_PLY_LIMIT,
                                   .unit = NK_UNIT_GAME,
                                   .match_games = NK_MATCH_GAMES_DEFAULT,
                                   .sprt = sprt,
                                   .spec = {-30, 30, 0.05, 0.05, "gsprt"}};
    assert_non_null(f->s.variant);
    for (int i = 0; i < 2; i++)
        f->s.players[i] = (nk_exec_player){&f->spec[i], NULL, 0};
}

/* The reference: every pair of the cap in one batch, counted one by one
 * until the SPRT crosses a bound (or every pair without one). */
typedef struct reference {
    nk_arena_tally t;
    nk_sprt sprt;
    size_t counted;
} reference;

static void play_reference(const nk_run_match_settings *s, reference *r)
{
    size_t n = (size_t)(s->games / 2);
    nk_meeting *meetings = calloc(n, sizeof *meetings);
    assert_non_null(meetings);
    for (size_t i = 0; i < n; i++)
        meetings[i] = (nk_meeting){0, 1};
    nk_arena_setup setup = {.variant = s->variant,
                            .ply_limit = s->ply_limit,
                            .players = s->players,
                            .nplayers = 2,
                            .master = s->seed,
                            .opening = s->openings,
                            .threads = 0,
                            .unit = s->unit,
                            .match_games = s->match_games};
    nk_arena_played p = {0};
    char err[NK_MSG_MAX];
    assert_int_equal(nk_arena_play_meetings(&setup, meetings, n, &p, err, sizeof err), NK_OK);
    memset(r, 0, sizeof *r);
    nk_arena_init(&r->t);
    if (s->sprt)
        assert_int_equal(nk_arena_sprt_spec(&r->t, &s->spec, &r->sprt, err, sizeof err), NK_OK);
    while (r->counted < n) {
        nk_arena_add_meeting(&r->t, &p.tally[r->counted++]);
        if (!s->sprt)
            continue;
        assert_int_equal(nk_arena_sprt_spec(&r->t, &s->spec, &r->sprt, err, sizeof err), NK_OK);
        if (r->sprt.verdict != NK_SPRT_CONTINUE)
            break;
    }
    nk_arena_played_free(&p);
    free(meetings);
}

/* Runs the match to its end; checks the parts as it goes.  *parts: the
 * iterates. */
static nk_run_match *run_match(const nk_run_match_settings *s, size_t *parts)
{
    char err[NK_MSG_MAX];
    nk_run_match *m = NULL;
    assert_int_equal(nk_run_match_alloc(&m, s, err, sizeof err), NK_OK);
    assert_null(nk_run_match_part_of(m));
    uint64_t next = 0, counted = 0;
    *parts = 0;
    while (!nk_run_match_done(m)) {
        assert_int_equal(nk_run_match_iterate(m, err, sizeof err), NK_OK);
        const nk_run_match_part *part = nk_run_match_part_of(m);
        assert_non_null(part);
        assert_int_equal(part->first, next);
        assert_true(part->counted <= part->played->n);
        /* a part is full unless it is the last */
        if (!nk_run_match_done(m))
            assert_int_equal(part->counted, s->sprt ? NK_RUN_MATCH_SPRT_PART : s->games / 2);
        next += part->played->n;
        counted += part->counted;
        (*parts)++;
    }
    assert_int_equal(nk_run_match_result_of(m)->stats.games, 2 * counted);
    /* a match that is over plays no more */
    assert_int_equal(nk_run_match_iterate(m, err, sizeof err), NK_EINVAL);
    return m;
}

static void assert_same_tally(const nk_arena_tally *a, const nk_arena_tally *b)
{
    assert_int_equal(a->wins, b->wins);
    assert_int_equal(a->draws, b->draws);
    assert_int_equal(a->losses, b->losses);
    assert_int_equal(a->seed_diff, b->seed_diff);
    assert_memory_equal(a->pairs, b->pairs, sizeof a->pairs);
}

/* The match against the reference, for one seed and cap; returns the
 * verdict and the parts played. */
static nk_sprt_verdict check_sprt_case(uint64_t seed, uint64_t games, size_t *parts)
{
    fixture f;
    setup_match(&f, seed, games, true);
    reference r;
    play_reference(&f.s, &r);
    nk_run_match *m = run_match(&f.s, parts);
    const nk_run_match_result *x = nk_run_match_result_of(m);
    assert_int_equal(x->stats.games, 2 * r.counted);
    assert_same_tally(&x->tally, &r.t);
    assert_int_equal(x->sprt.verdict, r.sprt.verdict);
    assert_true(x->sprt.llr == r.sprt.llr);
    assert_true(x->sprt.lower == r.sprt.lower && x->sprt.upper == r.sprt.upper);
    assert_int_equal(x->ngames, 2 * r.counted);
    unsigned ends = 0;
    for (int e = 0; e < NK_END_COUNT; e++)
        ends += x->reasons[e];
    assert_int_equal(ends, 2 * r.counted);
    nk_run_match_free(m);
    return r.sprt.verdict;
}

static void test_sprt_stops_at_first_crossing(void **state)
{
    (void)state;
    size_t parts;
    /* seed 2: decided after several parts (272 pairs) */
    assert_int_not_equal(check_sprt_case(2, 2000, &parts), NK_SPRT_CONTINUE);
    assert_true(parts > 1);
    /* seed 1: decided within the first part (25 pairs) */
    assert_int_not_equal(check_sprt_case(1, 2000, &parts), NK_SPRT_CONTINUE);
    assert_int_equal(parts, 1);
    /* a cap of 150 games (two parts, the last short) before any decision */
    assert_int_equal(check_sprt_case(2, 150, &parts), NK_SPRT_CONTINUE);
    assert_int_equal(parts, 2);
}

/* The same match on 1 and 3 threads. */
static void test_threads(void **state)
{
    (void)state;
    fixture f;
    setup_match(&f, 3, 2000, true);
    size_t parts1, parts3;
    nk_run_match *a = run_match(&f.s, &parts1);
    f.s.threads = 3;
    nk_run_match *b = run_match(&f.s, &parts3);
    assert_int_equal(parts1, parts3);
    const nk_run_match_result *x = nk_run_match_result_of(a), *y = nk_run_match_result_of(b);
    assert_same_tally(&x->tally, &y->tally);
    assert_true(x->sprt.llr == y->sprt.llr);
    assert_int_equal(x->plies, y->plies);
    nk_run_match_free(a);
    nk_run_match_free(b);
}

/* The games of a part written as records (io/records.h) read back: one
 * line a game, in order, with its players, plies and result; a file that
 * cannot be written is NK_EIO, naming it. */
static void check_records(const nk_arena_played *p)
{
    char path[128], err[NK_MSG_MAX];
    snprintf(path, sizeof path, "/tmp/test_run_match_%ld.txt", (long)getpid());
    const char *specs[2] = {"random", "ab:depth=1"}; /* any names */
    const nk_variant *v = nk_variant_find("antigua");
    assert_int_equal(nk_records_write_games(path, false, v, NK_DEFAULT_PLY_LIMIT, p->games, p->jobs,
                                            10, specs, err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_records_write_games(path, true, v, NK_DEFAULT_PLY_LIMIT, p->games + 10,
                                            p->jobs + 10, p->ngames - 10, specs, err, sizeof err),
                     NK_OK);
    nk_record *recs = NULL;
    size_t n = 0;
    if (nk_records_read(path, &recs, &n, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    assert_int_equal(n, p->ngames);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(recs[i].player[NK_SOUTH], specs[p->jobs[i].south]);
        assert_string_equal(recs[i].player[NK_NORTH], specs[p->jobs[i].north]);
        assert_int_equal(recs[i].plies, p->games[i].plies);
        assert_int_equal(recs[i].result.winner, p->games[i].result.winner);
        assert_int_equal(recs[i].result.reason, p->games[i].result.reason);
    }
    nk_free(recs);
    unlink(path);
    assert_int_equal(nk_records_write_games("/nonexistent/dir/x", false, v, NK_DEFAULT_PLY_LIMIT,
                                            p->games, p->jobs, 1, specs, err, sizeof err),
                     NK_EIO);
    assert_non_null(strstr(err, "/nonexistent/dir/x"));
}

/* Without an SPRT: one part, every pair, the reference's tally; the moves
 * kept when recorded. */
static void test_fixed_games(void **state)
{
    (void)state;
    fixture f;
    setup_match(&f, 5, 40, false);
    f.s.record = true;
    reference r;
    play_reference(&f.s, &r);
    size_t parts;
    nk_run_match *m = run_match(&f.s, &parts);
    assert_int_equal(parts, 1);
    const nk_run_match_part *part = nk_run_match_part_of(m);
    assert_int_equal(part->counted, 20);
    assert_int_equal(part->played->ngames, 40);
    assert_non_null(part->played->games[0].moves);
    const nk_run_match_result *x = nk_run_match_result_of(m);
    assert_same_tally(&x->tally, &r.t);
    assert_int_equal(x->stats.games, 40);
    assert_true(x->mean_plies == (double)x->plies / 40.0);
    check_records(part->played);
    nk_run_match_free(m);
}

/* One bad setting each: refused, one line naming it. */
static void test_bad_settings(void **state)
{
    (void)state;
    struct {
        const char *word; /* in the message */
        nk_status st;
        int what;
    } cases[] = {
        {"games 0", NK_ERANGE, 0},       {"games 7", NK_ERANGE, 1},
        {"ply limit 0", NK_ERANGE, 2},   {"ply limit 5001", NK_ERANGE, 3},
        {"openings 9999", NK_ERANGE, 4}, {"match games 0", NK_ERANGE, 5},
        {"elo0", NK_ERANGE, 6},          {"alpha", NK_ERANGE, 7},
        {"variant", NK_EINVAL, 8},       {"player B", NK_EINVAL, 9},
        {"unit", NK_EINVAL, 10},         {"threads", NK_ERANGE, 11},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        fixture f;
        setup_match(&f, 1, 100, true);
        nk_run_match_settings *s = &f.s;
        switch (cases[c].what) {
        case 0:
            s->games = 0;
            break;
        case 1:
            s->games = 7;
            break;
        case 2:
            s->ply_limit = 0;
            break;
        case 3:
            s->ply_limit = NK_MAX_PLIES + 1;
            break;
        case 4:
            s->openings = 9999;
            break;
        case 5:
            s->unit = NK_UNIT_MATCH;
            s->match_games = 0;
            break;
        case 6:
            s->spec.elo0 = 40;
            break;
        case 7:
            s->spec.alpha = 0.7;
            break;
        case 8:
            s->variant = NULL;
            break;
        case 9:
            s->players[1].spec = NULL;
            break;
        case 10:
            s->unit = (nk_arena_unit)7;
            break;
        default:
            s->threads = -1;
            break;
        }
        char err[NK_MSG_MAX] = "";
        nk_run_match *m = (nk_run_match *)&f; /* set to NULL by a refusal */
        assert_int_equal(nk_run_match_alloc(&m, s, err, sizeof err), cases[c].st);
        assert_null(m);
        if (strstr(err, cases[c].word) == NULL || strchr(err, '\n') != NULL)
            fail_msg("case %zu: '%s' does not name '%s' in one line", c, err, cases[c].word);
    }
    /* the same settings without those faults are accepted */
    fixture f;
    setup_match(&f, 1, 100, true);
    char err[NK_MSG_MAX];
    nk_run_match *m = NULL;
    assert_int_equal(nk_run_match_alloc(&m, &f.s, err, sizeof err), NK_OK);
    nk_run_match_free(m);
    nk_run_match_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sprt_stops_at_first_crossing),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_fixed_games),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
