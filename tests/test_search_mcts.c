/*
 * test_search_mcts.c -- the `mcts` player (search/mcts.h): its spec keys
 * and their bounds, a won game and a large capture found, the same moves
 * from the same seed (and from seed= whatever the caller's generator),
 * the tree's visit counts, the cut-off by an evaluation, and the playout
 * engine it runs on (nk_game_playout, nk_game_fork: the same games as
 * nickar bench's loop and as a whole copy of the game).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "search/mcts.h"
#include "search/player.h"
#include "spec_testlib.h"

/* An mcts spec (spec_testlib.h), its kind checked. */
static nk_spec parse_ok(const char *text)
{
    nk_spec spec = spec_ok(text);
    assert_int_equal(spec.kind, NK_PLAYER_MCTS);
    return spec;
}

static nk_player *player(const char *text, const nk_variant *v)
{
    nk_spec spec = parse_ok(text);
    nk_player *p;
    char err[512] = "";
    if (nk_player_new(&p, &spec, v, NULL, 0, err, sizeof err) != NK_OK)
        fail_msg("player '%s': %s", text, err);
    return p;
}

static nk_game *game_from(const nk_variant *v, const char *text)
{
    nk_game *g = malloc(sizeof *g);
    nk_pos pos;
    assert_non_null(g);
    if (text == NULL)
        nk_pos_start(&pos, NK_SOUTH);
    else
        assert_int_equal(nk_pos_parse(&pos, text, NULL, 0), NK_OK);
    assert_int_equal(nk_game_init(g, v, &pos, NK_DEFAULT_PLY_LIMIT), NK_OK);
    return g;
}

/* ===== specs ===== */

static void test_spec_defaults(void **state)
{
    (void)state;
    nk_spec s = parse_ok("mcts");
    assert_int_equal(s.mcts.playouts, 1000);
    assert_true(s.mcts.c == 1.4);
    assert_int_equal(s.mcts.seed, 0);
    assert_int_equal(s.mcts.cutoff, 0);
    assert_string_equal(s.features, "");
    s = parse_ok("mcts:playouts=300,c=0.7,seed=9,cutoff=20,features=positional");
    assert_int_equal(s.mcts.playouts, 300);
    assert_true(s.mcts.c == 0.7);
    assert_int_equal(s.mcts.seed, 9);
    assert_int_equal(s.mcts.cutoff, 20);
    assert_string_equal(s.features, "positional");
    assert_string_equal(s.text, "mcts:playouts=300,c=0.7,seed=9,cutoff=20,features=positional");
    /* a built-in table names its set, as for ab */
    assert_string_equal(parse_ok("mcts:cutoff=4,weights=ayo2004-d3").features, "ayo12");
    assert_int_equal(parse_ok("mcts:seed=18446744073709551615").mcts.seed, UINT64_MAX);
}

/* Every bounded key is taken at its bounds and refused just past them,
 * with the table's range in the message; the rest of the errors name the
 * key, or the keys there are. */
static void test_spec_refused(void **state)
{
    (void)state;
    size_t n;
    const nk_param *t = nk_spec_mcts_table(&n);
    char keys[128];
    assert_string_equal(nk_param_names(t, n, keys, sizeof keys),
                        "playouts, c, seed, cutoff, features, weights");
    size_t bounded = 0;
    for (size_t i = 0; i < n; i++) {
        const nk_param *p = &t[i];
        if (!(p->flags & NK_PARAM_MIN))
            continue;
        bounded++;
        assert_true(p->flags & NK_PARAM_MAX);
        bool integral = p->type != NK_PARAM_DOUBLE;
        const char *fmt = integral ? "mcts:%s=%.0f" : "mcts:%s=%.3f";
        double step = integral ? 1 : 1e-3;
        char text[128], range[64];
        nk_param_range_text(p, range, sizeof range);
        snprintf(text, sizeof text, fmt, p->name, p->min);
        parse_ok(text);
        snprintf(text, sizeof text, fmt, p->name, p->max);
        parse_ok(text);
        snprintf(text, sizeof text, fmt, p->name, p->min - step);
        spec_bad(text, NK_ERANGE, p->name, range, NULL);
        snprintf(text, sizeof text, fmt, p->name, p->max + step);
        spec_bad(text, NK_ERANGE, p->name, range, NULL);
    }
    assert_int_equal(bounded, 3); /* playouts, c, cutoff */
    spec_bad("mcts:playouts=0", NK_ERANGE, "playouts '0'", "1..10000000", NULL);
    spec_bad("mcts:c=-0.5", NK_ERANGE, "c '-0.5'", "[0, 100]", NULL);
    spec_bad("mcts:playouts=many", NK_ERANGE, "playouts 'many'", "whole number", NULL);
    spec_bad("mcts:seed=-1", NK_ERANGE, "seed '-1'", NULL);
    spec_bad("mcts:c=nan", NK_ERANGE, "c 'nan'", NULL);
    spec_bad("mcts:depth=3", NK_EINVAL, "unknown option 'depth'",
              "playouts, c, seed, cutoff, features, weights", NULL);
    spec_bad("mcts:playouts=5,playouts=6", NK_EINVAL, "'playouts' given twice", NULL);
    spec_bad("mcts:", NK_EINVAL, "nothing after 'mcts:'", NULL);
    spec_bad("mcts:playouts", NK_EINVAL, "is not KEY=VALUE", NULL);
    spec_bad("mcts:features=positional", NK_EINVAL, "need cutoff", NULL);
    spec_bad("mcts:cutoff=5,features=chess", NK_EINVAL, "unknown feature set 'chess'", NULL);
    spec_bad("mcts:cutoff=5,features=dk2002,weights=ayo2004-d3", NK_EINVAL,
              "are for feature set 'ayo12'", NULL);
    spec_bad("mctsx", NK_EINVAL, "unknown player 'mctsx'", "mcts:KEY=VALUE", NULL);
    /* a set that does not suit the variant is refused when the player is made */
    nk_spec s = parse_ok("mcts:cutoff=5,features=positional");
    nk_player *p = NULL;
    char err[256] = "";
    assert_int_equal(nk_player_new(&p, &s, nk_variant_find("adjikui"), NULL, 0, err, sizeof err),
                     NK_EINVAL);
    assert_null(p);
    assert_non_null(strstr(err, "positional"));
}

/* ===== the search ===== */

/* Abapa, South to move with 22 seeds in store: f sows into A, which then
 * holds 3, a capture to 25 of 48 seeds, the majority (R-W6); e captures
 * nothing. */
static const char won_in_one[] = "0,0,0,0,3,1/2,0,5,5,5,5 22-0 S";
/* Abapa, South to move: f sows A, B, C to 1, 2, 3, and C and B are taken
 * (5 seeds); c and e end in A, which then holds 1: no capture. */
static const char big_capture[] = "0,0,4,0,2,3/0,1,2,5,6,6 9-10 S";

static void test_finds_win_and_capture(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_player *p = player("mcts:playouts=400", v);
    nk_game *g = game_from(v, won_in_one);
    assert_true(__builtin_popcount(nk_game_legal(g)) == 2);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        nk_rng rng = {seed};
        nk_think t;
        assert_int_equal(nk_player_move(p, g, &rng, &t), 5);
        assert_int_equal(t.nodes, 400);
    }
    free(g);
    g = game_from(v, big_capture);
    assert_true(__builtin_popcount(nk_game_legal(g)) >= 3);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        nk_rng rng = {seed};
        assert_int_equal(nk_player_move(p, g, &rng, NULL), 5);
    }
    free(g);
    nk_player_free(p);
}

/* Visits: the root's are the playouts and its children's sum; any other
 * live node has one more than its children together; a finished game has
 * no children.  Rewards lie within [0, visits], every child's move was a
 * legal move of its parent, and the tree holds 1 + playouts nodes at most
 * (exactly, when no playout ends in the tree). */
static void check_tree(const nk_mcts *m, uint64_t playouts)
{
    size_t count;
    const nk_mcts_node *t = nk_mcts_tree(m, &count);
    assert_true(count >= 2 && count <= playouts + 1);
    assert_int_equal(t[0].visits, playouts);
    uint64_t ended = 0;
    for (size_t k = 0; k < count; k++) {
        uint64_t sum = 0;
        size_t kids = 0;
        for (uint32_t c = t[k].child; c != 0; c = t[c].sibling) {
            assert_true(c < count);
            assert_int_equal(t[c].parent, k);
            assert_true(t[c].visits >= 1);
            sum += t[c].visits;
            kids++;
        }
        assert_true(t[k].reward >= 0.0 && t[k].reward <= t[k].visits);
        if (k == 0)
            assert_int_equal(t[k].visits, sum);
        else if (t[k].terminal) {
            assert_int_equal(kids, 0);
            ended += t[k].visits - 1;
        } else
            assert_int_equal(t[k].visits, sum + 1);
    }
    /* each playout made a node, except those that ended on a finished game
     * already in the tree */
    assert_int_equal(count - 1 + ended, playouts);
}

static void test_tree_counts(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_spec s = parse_ok("mcts:playouts=3000");
    nk_mcts *m;
    assert_int_equal(nk_mcts_new(&m, &s.mcts, NULL), NK_OK);
    const char *const starts[] = {NULL, won_in_one, big_capture, "1,0,0,0,0,2/0,0,1,0,1,0 20-23 S"};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        nk_game *g = game_from(v, starts[i]);
        nk_rng rng = {i + 1};
        nk_mcts_result r;
        nk_mcts_best(m, g, &rng, &r);
        assert_int_equal(r.playouts, 3000);
        size_t count;
        nk_mcts_tree(m, &count);
        assert_int_equal(r.nodes, count);
        assert_true((nk_game_legal(g) >> r.move) & 1u);
        assert_true(r.value >= 0.0 && r.value <= 1.0);
        check_tree(m, 3000);
        free(g);
    }
    /* the winning move is worth a certain win */
    nk_game *g = game_from(v, won_in_one);
    nk_rng rng = {3};
    nk_mcts_result r;
    nk_mcts_best(m, g, &rng, &r);
    assert_true(r.value == 1.0);
    /* a finished game: no move; a forced one: no search */
    assert_int_equal(nk_game_play(g, 5, NULL, NULL, 0), NK_OK);
    assert_true(nk_game_over(g));
    nk_mcts_best(m, g, &rng, &r);
    assert_int_equal(r.move, NK_NO_MOVE);
    free(g);
    g = game_from(v, "0,0,0,0,0,1/0,0,0,0,0,9 20-18 S");
    assert_int_equal(nk_game_legal(g), 1u << 5);
    nk_mcts_best(m, g, &rng, &r);
    assert_int_equal(r.move, 5);
    assert_int_equal(r.playouts, 0);
    free(g);
    nk_mcts_free(m);
}

/* Plays a game of a against b from the start with the game seed given;
 * writes the moves (NUL-terminated letters) into out. */
static void play_game(nk_player *a, nk_player *b, const nk_variant *v, uint64_t seed, char *out)
{
    nk_game *g = game_from(v, NULL);
    nk_rng rng = {seed};
    while (!nk_game_over(g)) {
        nk_player *p = g->pos.side == NK_SOUTH ? a : b;
        int move = nk_player_move(p, g, &rng, NULL);
        assert_int_equal(nk_game_play(g, move, NULL, NULL, 0), NK_OK);
    }
    for (unsigned k = 0; k < g->ply; k++)
        out[k] = nk_move_letter(g->moves[k]);
    out[g->ply] = '\0';
    free(g);
}

static void test_deterministic(void **state)
{
    (void)state;
    static char one[NK_MAX_PLIES + 1], two[NK_MAX_PLIES + 1], three[NK_MAX_PLIES + 1];
    for (size_t i = 0; i < nk_variant_count(); i++) {
        const nk_variant *v = nk_variant_at(i);
        nk_player *a = player("mcts:playouts=60", v), *b = player("mcts:playouts=40,c=0.5", v);
        play_game(a, b, v, 11, one);
        nk_player *a2 = player("mcts:playouts=60", v), *b2 = player("mcts:playouts=40,c=0.5", v);
        play_game(b2, b2, v, 99, three); /* the players keep nothing from game to game */
        play_game(a2, b2, v, 11, two);
        assert_string_equal(one, two);
        play_game(a, b, v, 12, three);
        assert_string_not_equal(one, three);
        nk_player_free(a);
        nk_player_free(b);
        nk_player_free(a2);
        nk_player_free(b2);
    }
    /* seed=S: the move depends on the position and S, not on the caller's
     * generator, which is left as it was */
    const nk_variant *v = nk_variant_find("antigua");
    nk_player *p = player("mcts:playouts=200,seed=5", v);
    nk_game *g = game_from(v, "3,0,4,1,1,2/1,2,5,5,5,5 6-5 S");
    nk_rng r1 = {1}, r2 = {2};
    int m1 = nk_player_move(p, g, &r1, NULL), m2 = nk_player_move(p, g, &r2, NULL);
    assert_int_equal(m1, m2);
    assert_int_equal(r1.s, 1);
    assert_int_equal(r2.s, 2);
    nk_player_free(p);
    /* without seed=, the caller's generator is drawn from */
    p = player("mcts:playouts=200", v);
    nk_player_move(p, g, &r1, NULL);
    assert_int_not_equal(r1.s, 1);
    nk_player_free(p);
    free(g);
}

/* cutoff=K: the playouts stop after K plies and the evaluation scores
 * them; the tree keeps its counts, and the search sees the won game. */
static void test_cutoff(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_spec s = parse_ok("mcts:playouts=500,cutoff=1,features=material");
    nk_mcts *m;
    assert_int_equal(nk_mcts_new(&m, &s.mcts, NULL), NK_EINVAL); /* a cut-off needs an eval */
    nk_eval e;
    assert_int_equal(nk_eval_init(&e, v, nk_features_find("material"), NULL, 0, NULL, 0), NK_OK);
    assert_int_equal(nk_mcts_new(&m, &s.mcts, &e), NK_OK);
    nk_game *g = game_from(v, big_capture);
    nk_rng rng = {4};
    nk_mcts_result r;
    nk_mcts_best(m, g, &rng, &r);
    assert_int_equal(r.move, 5);
    check_tree(m, 500);
    /* one ply then the store difference: a child's value is the logistic of
     * its position after one random reply, never a whole game's 0 or 1 */
    size_t count;
    const nk_mcts_node *t = nk_mcts_tree(m, &count);
    for (uint32_t c = t[0].child; c != 0; c = t[c].sibling)
        assert_true(t[c].reward > 0.0 && t[c].reward < t[c].visits);
    free(g);
    nk_mcts_free(m);
    /* through a spec, with the weights of a built-in table */
    nk_player *p = player("mcts:playouts=100,cutoff=8,features=ayo12,weights=ayo2004-d5", v);
    g = game_from(v, NULL);
    assert_true((nk_game_legal(g) >> nk_player_move(p, g, &rng, NULL)) & 1u);
    nk_player_free(p);
    free(g);
}

/* nk_game_playout plays the games of nickar bench's loop, and a fork
 * plays on like the whole game it was taken from. */
static void test_playout_engine(void **state)
{
    (void)state;
    for (size_t i = 0; i < nk_variant_count(); i++) {
        const nk_variant *v = nk_variant_at(i);
        nk_bench b;
        nk_bench_playouts(v, 20, 77, &b);
        uint64_t sig = 0, plies = 0;
        nk_game *g = game_from(v, NULL), *whole = malloc(sizeof *whole),
                *fork = malloc(sizeof *fork);
        assert_non_null(whole);
        assert_non_null(fork);
        for (uint64_t k = 0; k < 20; k++) {
            nk_rng rng = {nk_seed_mix(77, k, 0)};
            nk_pos start;
            nk_pos_start(&start, NK_SOUTH);
            nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT);
            nk_game_playout(g, &rng);
            plies += g->ply;
            uint64_t res = (uint64_t)g->ply | (uint64_t)g->result.reason << 16 |
                           (uint64_t)g->result.total[0] << 24 |
                           (uint64_t)g->result.total[1] << 32;
            sig = nk_seed_mix(sig, g->pos.hash, res);
        }
        assert_int_equal(plies, b.plies);
        assert_int_equal(sig, b.signature);
        /* 30 random plies, then the rest from a whole copy and from a fork */
        nk_pos start;
        nk_pos_start(&start, NK_SOUTH);
        nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT);
        nk_rng rng = {5};
        for (int k = 0; k < 30 && !nk_game_over(g); k++)
            nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
        memcpy(whole, g, sizeof *g);
        memset(fork, 0xA5, sizeof *fork);
        nk_game_fork(fork, g);
        nk_rng r1 = {6}, r2 = {6};
        nk_game_playout(whole, &r1);
        nk_game_playout(fork, &r2);
        assert_int_equal(whole->ply, fork->ply);
        assert_int_equal(whole->pos.hash, fork->pos.hash);
        assert_int_equal(whole->result.reason, fork->result.reason);
        assert_memory_equal(whole->moves + g->ply, fork->moves + g->ply, whole->ply - g->ply);
        free(g);
        free(whole);
        free(fork);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_defaults),  cmocka_unit_test(test_spec_refused),
        cmocka_unit_test(test_finds_win_and_capture), cmocka_unit_test(test_tree_counts),
        cmocka_unit_test(test_deterministic),  cmocka_unit_test(test_cutoff),
        cmocka_unit_test(test_playout_engine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
