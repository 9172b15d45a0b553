/*
 * test_search_grade_games.c -- whole games graded against perfect play
 * (run/gradegames.h, `nickar grade --from-start`), on the one-seed-a-pit
 * games (12 seeds on the board) of abapa, speightstown (two planes) and
 * adjikui (a database of ownership pattern 0 alone).
 *
 *   Adji Kui's start with one seed a pit offers only a pass, and two
 *   passes end the game (R-K4; results/solved), so its games grade
 *   nothing: the test checks that they are played and counted as such
 *   (two seeds a pit need the 24-seed database, half an hour to build).
 * - Against a brute-force grade of the same games: the test plays the
 *   games itself with the batch runner (the pairs and seeds gradegames.h
 *   documents), checks that every position of every game is in the
 *   database, and for every move of the graded player after the opening
 *   looks up the value of each legal move (nk_tb_move_values; speightstown:
 *   the results, nk_tb_move_pairs and nk_tb_outcome) and compares the move
 *   played with the best.  Graded moves, forced moves, optimal moves, seeds
 *   lost, results, drops of value, the errors one by one and the bands by
 *   seeds and phase must all agree.
 * - nk_gg_start refuses a database that does not cover the start and one
 *   without pattern 0; nk_gg_play refuses no game.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "run/gradegames.h"
#include "search/player.h"

static char err[NK_MSG_MAX];

static void build(nk_tb *tb, const char *variant, unsigned seeds, const char *patterns)
{
    const nk_variant *v = nk_variant_find(variant);
    assert_non_null(v);
    uint32_t set = 0;
    if (patterns != NULL)
        assert_int_equal(nk_tb_patterns_parse(v, patterns, &set, err, sizeof err), NK_OK);
    if (nk_tb_build_patterns(tb, v, seeds, set, 2, 0, NULL, err, sizeof err) != NK_OK)
        fail_msg("build %s: %s", variant, err);
}

/* The brute-force grade of one game's move: fills the same report fields. */
static void brute_move(const nk_tb *tb, const nk_game *g, int mv, uint64_t game, unsigned S,
                       nk_gg_report *want, uint64_t counts[3], bool *fell)
{
    unsigned mask;
    int val[NK_PASS + 1], opp[NK_PASS + 1];
    assert_int_equal(nk_tb_move_values(tb, &g->pos, &mask, val, NULL), NK_OK);
    assert_true((mask >> mv) & 1u);
    if (__builtin_popcount(mask) < 2) {
        want->forced++;
        return;
    }
    int best = -1;
    for (int k = 0; k <= NK_PASS; k++)
        if (((mask >> k) & 1u) && val[k] > best)
            best = val[k];
    /* the results: speightstown's need the opponent's plane */
    unsigned mask2;
    assert_int_equal(nk_tb_move_pairs(tb, &g->pos, &mask2, val, opp, NULL), NK_OK);
    assert_int_equal(mask2, mask);
    int res[NK_PASS + 1], best_res = -2;
    for (int k = 0; k <= NK_PASS; k++)
        if ((mask >> k) & 1u) {
            res[k] = nk_tb_outcome(tb, &g->pos, val[k], opp[k]);
            best_res = res[k] > best_res ? res[k] : best_res;
        }
    unsigned optimal = 0;
    for (int k = 0; k <= NK_PASS; k++)
        if ((mask >> k) & 1u)
            optimal |= (tb->planes == 2 ? res[k] == best_res : val[k] == best) ? 1u << k : 0;
    const bool opt = (optimal >> mv) & 1u;
    counts[0]++;
    counts[1] += opt;
    counts[2] += (uint64_t)(best - val[mv]);
    const unsigned b = nk_pos_on_board(&g->pos);
    want->seeds[b].moves++;
    want->seeds[b].errors += !opt;
    want->seeds[b].lost += best - val[mv];
    const int ph = 3 * b > 2 * S ? 0 : 3 * b > S ? 1 : 2;
    want->phase[ph].moves++;
    want->phase[ph].errors += !opt;
    if (res[mv] < best_res) {
        want->drops[best_res == 1 ? (res[mv] == 0 ? 0 : 1) : 2]++;
        *fell = true;
    }
    if (!opt) {
        nk_gg_error *e = &want->errors[want->nerrors++];
        e->game = game;
        e->ply = g->ply;
        e->played = (uint8_t)mv;
        e->optimal = optimal;
        e->lost = best - val[mv];
        e->best = (int8_t)best_res;
        e->got = (int8_t)res[mv];
        e->pos = g->pos;
    }
}

/* Grades games of `graded` against `opponent` after `openings` random
 * plies; passes_only: the only move at the start is a pass and two passes
 * end the game (adjikui with one seed a pit, R-K4), so the graded
 * player's one move is forced and nothing is graded. */
static void check_variant(const char *variant, const char *patterns, const char *graded,
                          const char *opponent, unsigned openings, bool passes_only)
{
    nk_tb tb;
    build(&tb, variant, 12, patterns);
    nk_spec spec[2];
    assert_int_equal(nk_spec_parse(&spec[0], graded, err, sizeof err), NK_OK);
    assert_int_equal(nk_spec_parse(&spec[1], opponent, err, sizeof err), NK_OK);
    nk_gg_settings s = {.tb = &tb,
                        .graded = {&spec[0], NULL, 0},
                        .opponent = {&spec[1], NULL, 0},
                        .per_pit = 1,
                        .games = 11, /* rounded up to 12 */
                        .openings = openings,
                        .seed = 424242,
                        .threads = 2};
    nk_gg_report got;
    if (nk_gg_play(&s, &got, err, sizeof err) != NK_OK)
        fail_msg("%s: %s", variant, err);
    assert_int_equal(got.games, 12);

    /* The same games, played here. */
    enum { N = 12 };
    nk_meeting meet[N / 2];
    nk_exec_job jobs[N];
    nk_exec_game games[N];
    for (int k = 0; k < N / 2; k++)
        meet[k] = (nk_meeting){0, 1};
    nk_exec_pairs(jobs, meet, N / 2, s.seed, 0, s.openings);
    const nk_exec_player players[2] = {s.graded, s.opponent};
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    for (int i = 0; i < NK_PITS; i++)
        start.pit[i] = 1;
    start.hash = nk_pos_hash(&start);
    nk_exec_batch b = {.variant = tb.variant,
                       .start = &start,
                       .players = players,
                       .nplayers = 2,
                       .jobs = jobs,
                       .njobs = N,
                       .threads = 1,
                       .record = true};
    assert_int_equal(nk_exec_run(&b, games, err, sizeof err), NK_OK);

    nk_gg_report *want = calloc(1, sizeof *want);
    want->errors = calloc(NK_MAX_PLIES * N, sizeof *want->errors);
    nk_game *g = malloc(sizeof *g);
    uint64_t counts[3] = {0}, fell = 0, wins = 0, draws = 0, losses = 0;
    for (int i = 0; i < N; i++) {
        const int side = i % 2 ? NK_NORTH : NK_SOUTH;
        assert_int_equal(nk_game_init(g, tb.variant, &start, NK_DEFAULT_PLY_LIMIT), NK_OK);
        bool f = false;
        for (unsigned k = 0; k < games[i].plies; k++) {
            uint8_t byte;
            assert_int_equal(nk_tb_probe(&tb, &g->pos, &byte), NK_OK); /* covered */
            if (k >= games[i].opening && g->pos.side == side)
                brute_move(&tb, g, games[i].moves[k], (uint64_t)i, 12, want, counts, &f);
            assert_int_equal(nk_game_play(g, games[i].moves[k], NULL, err, sizeof err), NK_OK);
        }
        fell += f;
        const int w = games[i].result.winner;
        wins += w == side;
        draws += w == NK_DRAW;
        losses += w != side && w != NK_DRAW;
    }
    print_message("%s: %llu graded moves, %llu optimal, %llu seeds lost, %zu errors, %llu "
                  "forced\n",
                  variant, (unsigned long long)counts[0], (unsigned long long)counts[1],
                  (unsigned long long)counts[2], want->nerrors, (unsigned long long)want->forced);
    if (passes_only) {
        assert_int_equal(counts[0], 0);
        assert_int_equal(want->forced, N);
        assert_int_equal(draws, N);
        for (int i = 0; i < N; i++)
            assert_int_equal(games[i].plies, 2);
    } else {
        assert_true(counts[0] > 50);
    }
    assert_int_equal(got.grade.positions, counts[0]);
    assert_int_equal(got.grade.optimal, counts[1]);
    assert_true(got.grade.loss == (double)counts[2]);
    assert_int_equal(got.forced, want->forced);
    assert_int_equal(got.wins, wins);
    assert_int_equal(got.draws, draws);
    assert_int_equal(got.losses, losses);
    assert_int_equal(got.games_fell, fell);
    for (int d = 0; d < NK_GG_DROPS; d++)
        assert_int_equal(got.drops[d], want->drops[d]);
    assert_int_equal(got.nerrors, want->nerrors);
    assert_int_equal(got.nerrors, counts[0] - counts[1]);
    for (size_t k = 0; k < got.nerrors; k++) {
        const nk_gg_error *a = &got.errors[k], *e = &want->errors[k];
        assert_int_equal(a->game, e->game);
        assert_int_equal(a->ply, e->ply);
        assert_int_equal(a->played, e->played);
        assert_int_equal(a->optimal, e->optimal);
        assert_int_equal(a->lost, e->lost);
        assert_int_equal(a->best, e->best);
        assert_int_equal(a->got, e->got);
        assert_memory_equal(a->pos.pit, e->pos.pit, NK_PITS);
        assert_memory_equal(a->pos.store, e->pos.store, 2);
        assert_int_equal(a->pos.side, e->pos.side);
    }
    for (unsigned k = 0; k <= 12; k++) {
        assert_int_equal(got.seeds[k].moves, want->seeds[k].moves);
        assert_int_equal(got.seeds[k].errors, want->seeds[k].errors);
        assert_true(got.seeds[k].lost == want->seeds[k].lost);
    }
    for (int p = 0; p < NK_GG_PHASES; p++) {
        assert_int_equal(got.phase[p].moves, want->phase[p].moves);
        assert_int_equal(got.phase[p].errors, want->phase[p].errors);
    }
    nk_exec_games_free(games, N);
    free(g);
    free(want->errors);
    free(want);
    nk_gg_report_free(&got);
    nk_tb_close(&tb);
}

static void test_abapa(void **state)
{
    (void)state;
    check_variant("abapa", NULL, "ab:depth=2", "random", 2, false);
}

static void test_speightstown(void **state)
{
    (void)state;
    check_variant("speightstown", NULL, "greedy", "ab:depth=2", 2, false);
}

static void test_adjikui(void **state)
{
    (void)state;
    check_variant("adjikui", "0", "ab:depth=1", "random", 0, true);
}

static void test_refused(void **state)
{
    (void)state;
    nk_tb tb;
    nk_pos start;
    build(&tb, "abapa", 11, NULL);
    assert_int_equal(nk_gg_start(&tb, 1, &start, err, sizeof err), NK_EINVAL);
    assert_string_equal(err, "the start position (1 seed a pit, 12 on the board) is not in the "
                             "database, which holds positions of at most 11 seeds");
    assert_int_equal(nk_gg_start(&tb, 0, &start, err, sizeof err), NK_ERANGE);
    nk_spec spec;
    assert_int_equal(nk_spec_parse(&spec, "random", err, sizeof err), NK_OK);
    nk_gg_settings s = {.tb = &tb, .graded = {&spec, NULL, 0}, .opponent = {&spec, NULL, 0},
                        .per_pit = 1, .games = 0, .threads = 1};
    nk_gg_report r;
    assert_int_equal(nk_gg_play(&s, &r, err, sizeof err), NK_ERANGE);
    nk_gg_report_free(&r);
    nk_tb_close(&tb);
    build(&tb, "adjikui", 4, "1,-1");
    assert_int_equal(nk_gg_start(&tb, 1, &start, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "does not hold"));
    nk_tb_close(&tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_abapa),
        cmocka_unit_test(test_speightstown),
        cmocka_unit_test(test_adjikui),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
