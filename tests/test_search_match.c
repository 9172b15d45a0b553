/*
 * test_search_match.c -- match play between players: the hand-tuned
 * defaults must beat the baselines (src/search/features.c records the
 * tuning).  ab:depth=4 with the positional defaults scores at least 90%
 * against random and 70% against greedy (the bar; the recorded
 * 200-game results are far above it).
 *
 * A match is played in pairs of games from the same opening of 2 to 4
 * random plies, the players swapping colours; a win scores 1, a draw 1/2.
 * Everything is seeded, so a match always gives the same result.  The
 * number of pairs per match is NICKAR_MATCH_PAIRS (default 30, so that a
 * sanitizer build stays quick; 100 pairs are the 200 games of the record).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "search/player.h"

typedef struct match_result {
    unsigned wins, draws, losses; /* of player A */
    double score;                 /* A's points / games */
} match_result;

static nk_player *make_player(const char *spec_text, const nk_variant *v)
{
    nk_spec spec;
    nk_player *p;
    char err[256];
    if (nk_spec_parse(&spec, spec_text, err, sizeof err) != NK_OK ||
        nk_player_new(&p, &spec, v, NULL, 0, err, sizeof err) != NK_OK)
        fail_msg("player '%s': %s", spec_text, err);
    return p;
}

/* Plays one game from the opening; returns the winner (a side or NK_DRAW). */
static int play_game(nk_game *g, const nk_variant *v, const nk_pos *start,
                     const uint8_t *opening, unsigned n_open, nk_player *south,
                     nk_player *north, uint64_t seed)
{
    nk_rng rng = {seed};
    assert_int_equal(nk_game_init(g, v, start, NK_DEFAULT_PLY_LIMIT), NK_OK);
    for (unsigned i = 0; i < n_open; i++)
        nk_game_play_legal(g, opening[i], NULL);
    while (!nk_game_over(g)) {
        nk_player *p = g->pos.side == NK_SOUTH ? south : north;
        int move = nk_player_move(p, g, &rng, NULL);
        assert_true(move >= 0 && ((nk_game_legal(g) >> move) & 1u));
        nk_game_play_legal(g, move, NULL);
    }
    return g->result.winner;
}

static match_result play_match(const char *variant, const char *spec_a, const char *spec_b,
                               unsigned pairs, uint64_t seed)
{
    const nk_variant *v = nk_variant_find(variant);
    nk_player *a = make_player(spec_a, v), *b = make_player(spec_b, v);
    nk_game *g = malloc(sizeof *g);
    match_result r = {0, 0, 0, 0.0};
    assert_non_null(g);
    for (unsigned i = 0; i < pairs; i++) {
        /* The opening: 2 to 4 random plies from the start, South first. */
        nk_rng rng = {nk_seed_mix(seed, i, 0)};
        nk_pos start;
        uint8_t opening[4];
        unsigned n = 2 + nk_rng_below(&rng, 3);
        nk_pos_start(&start, NK_SOUTH);
        assert_int_equal(nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT), NK_OK);
        for (unsigned k = 0; k < n && !nk_game_over(g); k++) {
            opening[k] = (uint8_t)nk_random_move(g, &rng);
            nk_game_play_legal(g, opening[k], NULL);
        }
        for (int swap = 0; swap < 2; swap++) {
            nk_player *south = swap ? b : a, *north = swap ? a : b;
            int w = play_game(g, v, &start, opening, n, south, north, nk_seed_mix(seed, i, 1 + swap));
            int a_side = swap ? NK_NORTH : NK_SOUTH;
            if (w == NK_DRAW)
                r.draws++;
            else if (w == a_side)
                r.wins++;
            else
                r.losses++;
        }
    }
    r.score = (r.wins + 0.5 * r.draws) / (2.0 * pairs);
    free(g);
    nk_player_free(a);
    nk_player_free(b);
    return r;
}

static unsigned match_pairs(void)
{
    const char *env = getenv("NICKAR_MATCH_PAIRS");
    long n = env ? strtol(env, NULL, 10) : 30;
    return n >= 1 && n <= 100000 ? (unsigned)n : 30;
}

static void expect_score(const char *variant, const char *a, const char *b, double at_least)
{
    unsigned pairs = match_pairs();
    match_result r = play_match(variant, a, b, pairs, 2024);
    print_message("%-12s %-38s vs %-24s %u games: +%u =%u -%u  score %.3f\n", variant, a, b,
                  2 * pairs, r.wins, r.draws, r.losses, r.score);
    if (r.score < at_least)
        fail_msg("%s: '%s' scored %.3f against '%s', below %.2f", variant, a, r.score, b,
                 at_least);
}

static void test_positional_vs_random(void **state)
{
    (void)state;
    expect_score("abapa", "ab:depth=4,features=positional", "random", 0.90);
    expect_score("antigua", "ab:depth=4,features=positional", "random", 0.90);
}

static void test_positional_vs_greedy(void **state)
{
    (void)state;
    expect_score("abapa", "ab:depth=4,features=positional", "greedy", 0.70);
    expect_score("antigua", "ab:depth=4,features=positional", "greedy", 0.70);
}

/* The other defaults beat the material control at the same depth. */
static void test_defaults_vs_material(void **state)
{
    (void)state;
    expect_score("abapa", "ab:depth=4,features=positional", "ab:depth=4,features=material", 0.75);
    expect_score("abapa", "ab:depth=4,features=ayo12", "ab:depth=4,features=material", 0.75);
    expect_score("adjikui", "ab:depth=4,features=adjikui", "ab:depth=4,features=material", 0.75);
    expect_score("adjikui", "ab:depth=4,features=adjikui", "greedy", 0.70);
}

/* A match is reproducible. */
static void test_reproducible(void **state)
{
    (void)state;
    match_result a = play_match("bridgetown", "ab:depth=2", "greedy", 3, 5);
    match_result b = play_match("bridgetown", "ab:depth=2", "greedy", 3, 5);
    assert_int_equal(a.wins, b.wins);
    assert_int_equal(a.draws, b.draws);
    assert_int_equal(a.losses, b.losses);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positional_vs_random),
        cmocka_unit_test(test_positional_vs_greedy),
        cmocka_unit_test(test_defaults_vs_material),
        cmocka_unit_test(test_reproducible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
