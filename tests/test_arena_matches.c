/*
 * test_arena_matches.c -- meetings played as whole matches (arena/meetings.h,
 * unit match): every game of a match starts from the position the match
 * rules give (first player alternating, Adji Kui II owners bought from the
 * previous game's totals, R-K9), the match is scored as a unit by its own
 * rules (R-W13, R-K10) rather than by the majority of its games, the first
 * game of each match is the game unit game plays, and the results do not
 * depend on the number of threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "arena/meetings.h"

enum { MEETINGS = 16 };

typedef struct fixture {
    nk_spec spec[2];
    nk_exec_player players[2];
    nk_meeting meet[MEETINGS];
    nk_arena_setup setup;
} fixture;

static const char *spec0;

/* spec0 (0, greedy when NULL) against random (1), meetings alternating
 * (0, 1) and (1, 0). */
static void make(fixture *f, const char *variant, unsigned limit, int threads)
{
    const char *specs[2] = {spec0 ? spec0 : "greedy", "random"};
    char err[256];
    memset(f, 0, sizeof *f);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(nk_spec_parse(&f->spec[i], specs[i], err, sizeof err), NK_OK);
        f->players[i] = (nk_exec_player){&f->spec[i], NULL, 0};
    }
    for (uint32_t i = 0; i < MEETINGS; i++)
        f->meet[i] = (nk_meeting){i % 2, 1 - i % 2};
    f->setup = (nk_arena_setup){.variant = nk_variant_find(variant),
                                .players = f->players,
                                .nplayers = 2,
                                .master = 11,
                                .batch = 2,
                                .opening = 2,
                                .threads = threads,
                                .unit = NK_UNIT_MATCH,
                                .match_games = limit};
    assert_non_null(f->setup.variant);
}

/* Checks every match of p against the match rules, replayed here from the
 * games' results: each game's start (side to move, owners), the end of the
 * match, its winner and the tally.  Counts the matches whose result (a win
 * of player 0 or 1, or a draw) is not that of the majority of their games
 * into *upsets (into *reversed those won by the player who won fewer
 * games), and the games that started with owners other than the
 * default rows into *bought. */
static void check_matches(const fixture *f, const nk_arena_played *p, unsigned limit,
                          unsigned *upsets, unsigned *reversed, unsigned *bought)
{
    bool relay = f->setup.variant->sowing == NK_SOW_RELAY;
    for (size_t i = 0; i < p->n; i++) {
        const nk_meeting_tally *t = &p->tally[i];
        unsigned gw = 0, gd = 0, gl = 0;
        for (int k = 0; k < 2; k++) {
            size_t j = 2 * i + (size_t)k, lo = p->first_game[j], hi = p->first_game[j + 1];
            uint32_t p0 = k == 0 ? f->meet[i].a : f->meet[i].b; /* player 0: South */
            assert_true(hi > lo && hi - lo <= limit);
            assert_int_equal(t->games[k], hi - lo);
            unsigned wins[2] = {0, 0}; /* by player (= side) */
            uint16_t owners = NK_DEFAULT_NORTH;
            int winner = -1;
            for (size_t g = lo; g < hi; g++) {
                const nk_exec_game *gm = &p->games[g];
                unsigned r = (unsigned)(g - lo);
                assert_int_equal(winner, -1); /* no game after the end */
                assert_int_equal(p->jobs[g].south, p0);
                /* first player alternates, South first in game 1 */
                assert_int_equal(gm->start.side, r % 2 == 0 ? NK_SOUTH : NK_NORTH);
                /* the owners the game was played with */
                assert_int_equal(gm->start.north, owners);
                if (owners != NK_DEFAULT_NORTH)
                    (*bought)++;
                const nk_result *res = &gm->result;
                if (res->winner != NK_DRAW)
                    wins[res->winner]++;
                int a_side = k == 0 ? NK_SOUTH : NK_NORTH;
                if (res->winner == NK_DRAW)
                    gd++;
                else if (res->winner == a_side)
                    gw++;
                else
                    gl++;
                if (relay) {
                    owners = nk_adjikui_buy(
                        res->winner, res->winner == NK_DRAW ? 0 : res->total[res->winner],
                        res->winner == NK_DRAW ? 0 : res->total[1 - res->winner]);
                    unsigned np = (unsigned)__builtin_popcount(owners);
                    if (np == 0 || np == NK_PITS)
                        winner = np == 0 ? 0 : 1;
                    else if (r + 1 >= limit)
                        winner = np < NK_PITS - np ? 0 : np > NK_PITS - np ? 1 : NK_DRAW;
                } else if (wins[0] >= 6 || wins[1] >= 6) {
                    winner = wins[0] >= 6 ? 0 : 1;
                } else if (r + 1 >= limit) {
                    winner = wins[0] > wins[1] ? 0 : wins[1] > wins[0] ? 1 : NK_DRAW;
                }
            }
            assert_int_not_equal(winner, -1); /* the match ended with its last game */
            int a_player = k;                 /* a is player 0 of match 0, player 1 of match 1 */
            int want = winner == NK_DRAW ? 0 : winner == a_player ? 1 : -1;
            assert_int_equal(t->outcome[k], want);
            /* the match's result against that of the majority of its games */
            int majority = wins[0] > wins[1] ? 0 : wins[1] > wins[0] ? 1 : NK_DRAW;
            if (winner != majority)
                (*upsets)++;
            if (winner != NK_DRAW && wins[winner] < wins[1 - winner])
                (*reversed)++; /* won by the player with fewer game wins */
        }
        assert_int_equal(t->game_wins, gw);
        assert_int_equal(t->game_draws, gd);
        assert_int_equal(t->game_losses, gl);
        assert_int_equal(t->wins + t->draws + t->losses, 2);
    }
}

/* Adji Kui II: owners carry over from game to game, and the match winner is
 * the player who would own more pits, not the one who won more games
 * (random against random, so that games go both ways within a match). */
static void test_adjikui_matches(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    unsigned limit = 4, upsets = 0, reversed = 0, bought = 0;
    spec0 = "random";
    make(&f, "adjikui", limit, 1);
    spec0 = NULL;
    nk_arena_played p;
    assert_int_equal(nk_arena_play_meetings(&f.setup, f.meet, MEETINGS, &p, err, sizeof err),
                     NK_OK);
    check_matches(&f, &p, limit, &upsets, &reversed, &bought);
    print_message("adjikui: %zu games, %u started with bought pits, %u matches whose result is "
                  "not the majority of their games, %u won by the player with fewer game "
                  "wins\n",
                  p.ngames, bought, upsets, reversed);
    assert_true(bought > 0);
    assert_true(upsets > 0);
    assert_true(reversed > 0);
    nk_arena_played_free(&p);
}

/* Warri (Antigua): to six won games, or the limit. */
static void test_warri_matches(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    unsigned limit = 9, upsets = 0, reversed = 0, bought = 0;
    make(&f, "antigua", limit, 1);
    nk_arena_played p;
    assert_int_equal(nk_arena_play_meetings(&f.setup, f.meet, MEETINGS, &p, err, sizeof err),
                     NK_OK);
    check_matches(&f, &p, limit, &upsets, &reversed, &bought);
    assert_int_equal(bought, 0);
    assert_int_equal(reversed, 0);
    assert_int_equal(upsets, 0); /* Warri: more wins take the match (R-W13) */
    /* greedy wins its six games before the limit in most matches */
    unsigned short_matches = 0;
    for (size_t j = 0; j < 2 * MEETINGS; j++)
        short_matches += p.first_game[j + 1] - p.first_game[j] < limit;
    assert_true(short_matches > 0);
    nk_arena_played_free(&p);
}

/* The first game of each match is the game that unit game plays for the
 * same pairing (same seeds, same opening, default start). */
static void test_first_game_is_unit_game(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    make(&f, "adjikui", 3, 1);
    nk_arena_played pm, pg;
    assert_int_equal(nk_arena_play_meetings(&f.setup, f.meet, MEETINGS, &pm, err, sizeof err),
                     NK_OK);
    f.setup.unit = NK_UNIT_GAME;
    assert_int_equal(nk_arena_play_meetings(&f.setup, f.meet, MEETINGS, &pg, err, sizeof err),
                     NK_OK);
    assert_int_equal(pg.ngames, 2 * MEETINGS);
    for (size_t j = 0; j < 2 * MEETINGS; j++) {
        const nk_exec_game *a = &pm.games[pm.first_game[j]], *b = &pg.games[j];
        assert_true(pm.jobs[pm.first_game[j]].seed == pg.jobs[j].seed);
        assert_int_equal(a->plies, b->plies);
        assert_int_equal(a->result.winner, b->result.winner);
        assert_int_equal(a->result.total[0], b->result.total[0]);
    }
    nk_arena_played_free(&pm);
    nk_arena_played_free(&pg);
}

/* The same games and tallies on 1 and 3 threads. */
static void test_threads(void **state)
{
    (void)state;
    fixture f1, f3;
    char err[256];
    make(&f1, "adjikui", 5, 1);
    make(&f3, "adjikui", 5, 3);
    nk_arena_played a, b;
    assert_int_equal(nk_arena_play_meetings(&f1.setup, f1.meet, MEETINGS, &a, err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_arena_play_meetings(&f3.setup, f3.meet, MEETINGS, &b, err, sizeof err),
                     NK_OK);
    assert_int_equal(a.ngames, b.ngames);
    assert_memory_equal(a.first_game, b.first_game, (2 * MEETINGS + 1) * sizeof *a.first_game);
    assert_memory_equal(a.tally, b.tally, MEETINGS * sizeof *a.tally);
    for (size_t g = 0; g < a.ngames; g++) {
        assert_int_equal(a.games[g].plies, b.games[g].plies);
        assert_memory_equal(&a.games[g].result, &b.games[g].result, sizeof a.games[g].result);
    }
    nk_arena_played_free(&a);
    nk_arena_played_free(&b);
}

static void test_unit_names(void **state)
{
    (void)state;
    nk_arena_unit u = NK_UNIT_GAME;
    assert_true(nk_arena_unit_parse("match", &u) && u == NK_UNIT_MATCH);
    assert_true(nk_arena_unit_parse("game", &u) && u == NK_UNIT_GAME);
    assert_false(nk_arena_unit_parse("set", &u));
    assert_string_equal(nk_arena_unit_name(NK_UNIT_MATCH), "match");
    fixture f;
    char err[256];
    make(&f, "antigua", NK_MATCH_GAMES_MAX + 1, 1);
    nk_arena_played p;
    assert_int_equal(nk_arena_play_meetings(&f.setup, f.meet, 2, &p, err, sizeof err), NK_ERANGE);
    nk_arena_played_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_names),    cmocka_unit_test(test_adjikui_matches),
        cmocka_unit_test(test_warri_matches), cmocka_unit_test(test_first_game_is_unit_game),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
