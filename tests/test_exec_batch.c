/*
 * test_exec_batch.c -- batches of games (exec/exec.h): the results do not
 * depend on the number of threads, the records replay to the results, the
 * two games of a pair share their opening, and bad batches are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"

enum { PAIRS = 12, GAMES = 2 * PAIRS };

typedef struct fixture {
    nk_spec spec[3];
    nk_exec_player players[3];
    nk_exec_job jobs[GAMES];
    nk_exec_batch batch;
} fixture;

/* Players random, greedy and ab:depth=2; pairs cycle through the three
 * pairings (0,1), (1,2), (2,0); openings of 3 plies. */
static void setup(fixture *f, const char *variant)
{
    static const char *const specs[3] = {"random", "greedy", "ab:depth=2"};
    char err[256];
    nk_meeting m[PAIRS];
    memset(f, 0, sizeof *f);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(nk_spec_parse(&f->spec[i], specs[i], err, sizeof err), NK_OK);
        f->players[i] = (nk_exec_player){&f->spec[i], NULL, 0};
    }
    for (uint32_t i = 0; i < PAIRS; i++) {
        m[i] = (nk_meeting){i % 3, (i + 1) % 3};
    }
    nk_exec_pairs(f->jobs, m, PAIRS, 7, 3, 3);
    f->batch = (nk_exec_batch){.variant = nk_variant_find(variant),
                               .players = f->players,
                               .nplayers = 3,
                               .jobs = f->jobs,
                               .njobs = GAMES,
                               .record = true};
    assert_non_null(f->batch.variant);
}

static void run_ok(fixture *f, int threads, nk_exec_game *out)
{
    char err[256] = "";
    f->batch.threads = threads;
    nk_status st = nk_exec_run(&f->batch, out, err, sizeof err);
    if (st != NK_OK)
        fail_msg("nk_exec_run: %s", err);
}

static void assert_same_games(const nk_exec_game *x, const nk_exec_game *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(x[i].result.winner, y[i].result.winner);
        assert_int_equal(x[i].result.reason, y[i].result.reason);
        assert_int_equal(x[i].result.total[0], y[i].result.total[0]);
        assert_int_equal(x[i].result.total[1], y[i].result.total[1]);
        assert_int_equal(x[i].plies, y[i].plies);
        assert_int_equal(x[i].opening, y[i].opening);
        assert_int_equal(x[i].nodes[0], y[i].nodes[0]);
        assert_int_equal(x[i].nodes[1], y[i].nodes[1]);
        assert_memory_equal(x[i].moves, y[i].moves, x[i].plies);
    }
}

static void check_threads(const char *variant)
{
    fixture f;
    nk_exec_game one[GAMES], two[GAMES], three[GAMES];
    setup(&f, variant);
    run_ok(&f, 1, one);
    run_ok(&f, 2, two);
    run_ok(&f, 3, three);
    assert_same_games(one, two, GAMES);
    assert_same_games(one, three, GAMES);
    nk_exec_games_free(one, GAMES);
    nk_exec_games_free(two, GAMES);
    nk_exec_games_free(three, GAMES);
}

static void test_threads_antigua(void **state)
{
    (void)state;
    check_threads("antigua");
}

static void test_threads_adjikui(void **state)
{
    (void)state;
    check_threads("adjikui");
}

/* Every record replays, move by move and legally, to the stored result;
 * both games of a pair start with the same opening; ab searched. */
static void test_records_and_pairs(void **state)
{
    (void)state;
    fixture f;
    nk_exec_game g[GAMES];
    nk_game *replay = malloc(sizeof *replay);
    char err[256];
    assert_non_null(replay);
    setup(&f, "antigua");
    run_ok(&f, 2, g);
    for (size_t i = 0; i < GAMES; i++) {
        assert_int_equal(nk_game_init(replay, f.batch.variant, &g[i].start, NK_DEFAULT_PLY_LIMIT),
                         NK_OK);
        for (unsigned k = 0; k < g[i].plies; k++)
            assert_int_equal(nk_game_play(replay, g[i].moves[k], NULL, err, sizeof err), NK_OK);
        assert_true(nk_game_over(replay));
        assert_memory_equal(&replay->result, &g[i].result, sizeof replay->result);
        assert_int_equal(g[i].opening, 3);
        if (i % 2 == 1)
            assert_memory_equal(g[i].moves, g[i - 1].moves, 3);
        /* the ab player (index 2) searched; random and greedy did not */
        int ab_side = f.jobs[i].south == 2 ? NK_SOUTH : f.jobs[i].north == 2 ? NK_NORTH : -1;
        for (int side = 0; side < 2; side++)
            if (side != ab_side)
                assert_int_equal(g[i].nodes[side], 0);
        if (ab_side >= 0 && g[i].plies > 4)
            assert_true(g[i].nodes[ab_side] > 0);
        double pts = nk_exec_points(&g[i], NK_SOUTH) + nk_exec_points(&g[i], NK_NORTH);
        assert_true(pts == 1.0);
        assert_int_equal(nk_exec_seed_diff(&g[i], NK_SOUTH), -nk_exec_seed_diff(&g[i], NK_NORTH));
    }
    /* different pairs get different openings somewhere */
    bool differ = false;
    for (size_t i = 2; i < GAMES; i += 2)
        differ = differ || memcmp(g[i].moves, g[0].moves, 3) != 0;
    assert_true(differ);
    nk_exec_games_free(g, GAMES);
    free(replay);
}

static void test_seeds(void **state)
{
    (void)state;
    uint64_t s = nk_exec_seed(1, 0, 0);
    assert_true(s == nk_exec_seed(1, 0, 0));
    assert_true(s != nk_exec_seed(2, 0, 0));
    assert_true(s != nk_exec_seed(1, 1, 0));
    assert_true(s != nk_exec_seed(1, 0, 1));
    assert_true(nk_exec_seed(1, 0, 1) != nk_exec_seed(1, 1, 0));
    assert_true(s != nk_seed_mix(1, 0, 0)); /* a domain of its own */
}

/* No record: moves stay NULL; no jobs: nothing to do. */
static void test_no_record_no_jobs(void **state)
{
    (void)state;
    fixture f;
    nk_exec_game g[GAMES];
    setup(&f, "abapa");
    f.batch.record = false;
    run_ok(&f, 2, g);
    for (size_t i = 0; i < GAMES; i++)
        assert_null(g[i].moves);
    f.batch.njobs = 0;
    run_ok(&f, 2, g);
}

static void test_bad_batches(void **state)
{
    (void)state;
    fixture f;
    nk_exec_game g[GAMES];
    char err[256];
    nk_spec human, adji;

    setup(&f, "antigua");
    f.jobs[5].north = 3;
    assert_int_equal(nk_exec_run(&f.batch, g, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "game 5 names player 3"));

    setup(&f, "antigua");
    f.batch.ply_limit = NK_MAX_PLIES + 1;
    assert_int_equal(nk_exec_run(&f.batch, g, err, sizeof err), NK_ERANGE);

    setup(&f, "antigua");
    f.batch.variant = NULL;
    assert_int_equal(nk_exec_run(&f.batch, g, err, sizeof err), NK_EINVAL);

    setup(&f, "antigua");
    assert_int_equal(nk_spec_parse(&human, "human", err, sizeof err), NK_OK);
    f.players[1].spec = &human;
    assert_int_equal(nk_exec_run(&f.batch, g, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "person"));

    /* A player that cannot be made for the variant: the message of the
     * lowest failing game, whatever the threads. */
    setup(&f, "antigua");
    assert_int_equal(nk_spec_parse(&adji, "ab:depth=1,features=adjikui", err, sizeof err), NK_OK);
    f.players[2].spec = &adji;
    for (int threads = 1; threads <= 3; threads++) {
        f.batch.threads = threads;
        err[0] = '\0';
        assert_int_equal(nk_exec_run(&f.batch, g, err, sizeof err), NK_EINVAL);
        assert_non_null(strstr(err, "player 2"));
        nk_exec_games_free(g, GAMES);
    }

    setup(&f, "antigua");
    volatile int stop = 1;
    f.batch.stop = &stop;
    assert_int_equal(nk_exec_run(&f.batch, g, err, sizeof err), NK_EINTERRUPTED);
    nk_exec_games_free(g, GAMES);
}

/* After any failure, bad batches included, nk_exec_games_free may be
 * called on out (exec.h): no entry is left with a stale record pointer. */
static void test_bad_batch_leaves_out_freeable(void **state)
{
    (void)state;
    fixture f;
    nk_exec_game g[GAMES];
    char err[256];
    static uint8_t stale;
    setup(&f, "antigua");
    f.jobs[5].north = 3;
    for (size_t i = 0; i < GAMES; i++)
        g[i].moves = &stale;
    assert_int_equal(nk_exec_run(&f.batch, g, err, sizeof err), NK_EINVAL);
    for (size_t i = 0; i < GAMES; i++)
        assert_null(g[i].moves);
    nk_exec_games_free(g, GAMES);
}

/* A start position the variant cannot play from (pit owners other than
 * the default rows in the Warri family, docs/rules.md R-B3) is a bad batch,
 * and the message says so (it used to blame the ply limit). */
static void test_bad_start(void **state)
{
    (void)state;
    fixture f;
    nk_exec_game g[GAMES];
    char err[256] = "";
    nk_pos start;
    assert_int_equal(nk_pos_parse(&start, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSSNNNNN", err,
                                  sizeof err),
                     NK_OK);
    setup(&f, "antigua");
    f.batch.start = &start;
    for (int threads = 1; threads <= 2; threads++) {
        f.batch.threads = threads;
        err[0] = '\0';
        assert_int_equal(nk_exec_run(&f.batch, g, err, sizeof err), NK_EINVAL);
        assert_null(strstr(err, "ply limit"));
        assert_non_null(strstr(err, "owners"));
        nk_exec_games_free(g, GAMES);
    }
    /* The same position is a fine start in Adji Kui II. */
    setup(&f, "adjikui");
    f.batch.start = &start;
    run_ok(&f, 2, g);
    nk_exec_games_free(g, GAMES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_antigua),   cmocka_unit_test(test_threads_adjikui),
        cmocka_unit_test(test_records_and_pairs), cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_no_record_no_jobs), cmocka_unit_test(test_bad_batches),
        cmocka_unit_test(test_bad_batch_leaves_out_freeable), cmocka_unit_test(test_bad_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
