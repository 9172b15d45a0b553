/*
 * test_search_spec.c -- player specs (nk_spec_parse) and their errors, and
 * the players behind them (nk_player_new / nk_player_move): random,
 * greedy, alpha-beta with built-in, default and given weights, human.
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

#include "search/player.h"
#include "spec_testlib.h"

static void test_simple_kinds(void **state)
{
    (void)state;
    assert_int_equal(spec_ok("random").kind, NK_PLAYER_RANDOM);
    assert_int_equal(spec_ok("greedy").kind, NK_PLAYER_GREEDY);
    assert_int_equal(spec_ok("human").kind, NK_PLAYER_HUMAN);
}

static void test_ab_specs(void **state)
{
    (void)state;
    nk_spec s = spec_ok("ab:depth=5,features=ayo12,weights=ayo2004-d3");
    assert_int_equal(s.kind, NK_PLAYER_AB);
    assert_int_equal(s.depth, 5);
    assert_int_equal(s.nodes, 0);
    assert_true(s.seconds == 0.0);
    assert_int_equal(s.tt_mb, NK_SPEC_DEFAULT_TT_MB);
    assert_string_equal(s.features, "ayo12");
    assert_string_equal(s.weights, "ayo2004-d3");

    s = spec_ok("ab:depth=4,features=positional,weights=runs/w.txt");
    assert_string_equal(s.weights, "runs/w.txt"); /* kept for the io layer */

    s = spec_ok("ab");
    assert_int_equal(s.depth, NK_SPEC_DEFAULT_DEPTH);
    assert_string_equal(s.features, "");
    assert_string_equal(s.weights, "");

    /* A built-in table names its set. */
    s = spec_ok("ab:weights=ayo2004-d5,depth=3");
    assert_string_equal(s.features, "ayo12");

    s = spec_ok("ab:nodes=100000,tt=0,features=material,weights=default");
    assert_int_equal(s.depth, 0); /* a budget, no depth */
    assert_int_equal(s.nodes, 100000);
    assert_int_equal(s.tt_mb, 0);
    assert_string_equal(s.weights, "");

    s = spec_ok("ab:time=0.25");
    assert_true(s.seconds == 0.25);
    assert_int_equal(s.depth, 0);
}

static void test_spec_errors(void **state)
{
    (void)state;
    spec_bad("", NK_EINVAL, "empty", "random, greedy, human, ab", NULL);
    spec_bad("alphabeta:depth=3", NK_EINVAL, "unknown player 'alphabeta'",
              "random, greedy, human, ab", NULL);
    spec_bad("Random", NK_EINVAL, "unknown player 'Random'", NULL);
    spec_bad("random:seed=3", NK_EINVAL, "'random' takes no options", NULL);
    spec_bad("ab:", NK_EINVAL, "nothing after 'ab:'", "depth, nodes, time, tt, features, weights",
              NULL);
    spec_bad("ab:depth", NK_EINVAL, "'depth' is not KEY=VALUE", NULL);
    spec_bad("ab:=4", NK_EINVAL, "'=4' is not KEY=VALUE", NULL);
    spec_bad("ab:depth=4,", NK_EINVAL, "'' is not KEY=VALUE", NULL);
    spec_bad("ab:deep=4", NK_EINVAL, "unknown option 'deep'",
              "depth, nodes, time, tt, features, weights", NULL);
    spec_bad("ab:depth=0", NK_ERANGE, "depth '0'", "1..64", NULL);
    spec_bad("ab:depth=65", NK_ERANGE, "depth '65'", NULL);
    spec_bad("ab:depth=4x", NK_ERANGE, "depth '4x'", NULL);
    spec_bad("ab:depth=-4", NK_ERANGE, "depth '-4'", NULL);
    spec_bad("ab:depth=4,depth=5", NK_EINVAL, "'depth' given twice", NULL);
    spec_bad("ab:nodes=0", NK_ERANGE, "nodes '0'", NULL);
    spec_bad("ab:time=0", NK_ERANGE, "time '0'", NULL);
    spec_bad("ab:time=fast", NK_ERANGE, "time 'fast'", NULL);
    spec_bad("ab:tt=70000", NK_ERANGE, "tt '70000'", NULL);
    spec_bad("ab:features=ayo", NK_EINVAL, "unknown feature set 'ayo'",
              "material, ayo12, positional, adjikui", NULL);
    spec_bad("ab:weights=", NK_EINVAL, "weights needs a value", NULL);
    spec_bad("ab:features=positional,weights=ayo2004-d3", NK_EINVAL,
              "weights 'ayo2004-d3' are for feature set 'ayo12', not 'positional'", NULL);
    char long_spec[NK_SPEC_TEXT + 10];
    memset(long_spec, 'x', sizeof long_spec - 1);
    long_spec[sizeof long_spec - 1] = '\0';
    memcpy(long_spec, "ab:weights=", 11);
    spec_bad(long_spec, NK_EINVAL, "at most 511", NULL);
}

/* The options of an ab spec follow their table (NK_SPEC_PARAMS): every
 * bounded number is taken at its bounds and refused just past them, with
 * the table's range in the message; the key list in errors is the table's. */
static void test_spec_table_bounds(void **state)
{
    (void)state;
    size_t n;
    const nk_param *t = nk_spec_params_table(&n);
    assert_int_equal(n, 8);
    char keys[128];
    assert_string_equal(nk_spec_keys(keys, sizeof keys),
                        "depth, nodes, time, tt, features, weights, view, tb");
    size_t numeric = 0;
    for (size_t i = 0; i < n; i++) {
        const nk_param *p = &t[i];
        if (p->type != NK_PARAM_INT && p->type != NK_PARAM_UINT64 && p->type != NK_PARAM_DOUBLE)
            continue;
        numeric++;
        assert_true(p->flags & NK_PARAM_MIN);
        char text[128], range[64];
        nk_param_range_text(p, range, sizeof range);
        bool integral = p->type != NK_PARAM_DOUBLE;
        double step = integral ? 1 : 1e-3;
        /* the lowest value taken, one below refused */
        double lo = (p->flags & NK_PARAM_MIN_OPEN) ? p->min + step : p->min;
        snprintf(text, sizeof text, integral ? "ab:%s=%.0f" : "ab:%s=%.3f", p->name, lo);
        spec_ok(text);
        snprintf(text, sizeof text, integral ? "ab:%s=%.0f" : "ab:%s=%.3f", p->name, p->min - step);
        if (!(p->flags & NK_PARAM_MIN_OPEN))
            spec_bad(text, NK_ERANGE, p->name, range, NULL);
        if (p->flags & NK_PARAM_MAX) {
            snprintf(text, sizeof text, integral ? "ab:%s=%.0f" : "ab:%s=%.3f", p->name, p->max);
            spec_ok(text);
            snprintf(text, sizeof text, integral ? "ab:%s=%.0f" : "ab:%s=%.3f", p->name,
                     p->max + step);
            spec_bad(text, NK_ERANGE, p->name, range, NULL);
        }
    }
    assert_int_equal(numeric, 4);
    /* tt: 0..NK_SPEC_TT_MAX_MB (the bound player.tt of a config shares) */
    assert_int_equal(NK_SPEC_TT_MAX_MB, 1024);
    assert_int_equal(spec_ok("ab:tt=1024").tt_mb, 1024);
    spec_bad("ab:tt=1025", NK_ERANGE, "tt '1025'", "0..1024", NULL);
    /* the table's defaults are the spec's */
    nk_spec s = spec_ok("ab");
    assert_int_equal(s.tt_mb, NK_SPEC_DEFAULT_TT_MB);
    long tt = nk_param_index(t, n, "tt");
    assert_true(tt >= 0);
    assert_string_equal(t[tt].def, "1");
    /* a value that is not a number at all is refused like one out of range */
    spec_bad("ab:nodes=many", NK_ERANGE, "nodes 'many'", "whole number", NULL);
    spec_bad("ab:features=", NK_EINVAL, "unknown feature set ''", NULL);
    /* view: mover by default, root, nothing else */
    assert_string_equal(spec_ok("ab").view, "mover");
    assert_string_equal(spec_ok("ab:depth=3,view=root").view, "root");
    spec_bad("ab:view=north", NK_EINVAL, "view 'north' is not mover or root", NULL);
    /* the published tables weigh every reading of ayo12, nothing else */
    assert_string_equal(spec_ok("ab:features=ayo12-literal,weights=ayo2004-d3").features,
                        "ayo12-literal");
    spec_bad("ab:features=dk2002,weights=ayo2004-d3", NK_EINVAL, "are for feature set 'ayo12'",
              NULL);
}

/* ===== players ===== */

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

static nk_player *player(const char *text, const char *variant, const double *w, size_t n)
{
    nk_spec spec = spec_ok(text);
    nk_player *p;
    char err[256];
    if (nk_player_new(&p, &spec, nk_variant_find(variant), w, n, err, sizeof err) != NK_OK)
        fail_msg("player '%s' for %s refused: %s", text, variant, err);
    assert_string_equal(nk_player_spec(p)->text, text);
    return p;
}

static void test_player_errors(void **state)
{
    (void)state;
    nk_spec spec;
    nk_player *p = (nk_player *)&spec;
    char err[256];
    const nk_variant *adjikui = nk_variant_find("adjikui"), *abapa = nk_variant_find("abapa");
    spec = spec_ok("ab:features=positional");
    assert_int_equal(nk_player_new(&p, &spec, adjikui, NULL, 0, err, sizeof err), NK_EINVAL);
    assert_null(p);
    assert_non_null(strstr(err, "sets for 'adjikui': material, adjikui"));
    spec = spec_ok("ab:weights=ayo2004-d3");
    assert_int_equal(nk_player_new(&p, &spec, adjikui, NULL, 0, err, sizeof err), NK_EINVAL);
    /* A weights file is the io layer's: without numbers it is an error. */
    spec = spec_ok("ab:features=ayo12,weights=w.txt");
    assert_int_equal(nk_player_new(&p, &spec, abapa, NULL, 0, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "'w.txt' is not a built-in table"));
    double w[12] = {0};
    assert_int_equal(nk_player_new(&p, &spec, abapa, w, 11, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "needs 12 weights, got 11"));
    assert_int_equal(nk_player_new(&p, &spec, abapa, w, 12, err, sizeof err), NK_OK);
    nk_player_free(p);
    nk_player_free(NULL);
}

static void test_ab_weights(void **state)
{
    (void)state;
    const nk_weights *t = nk_weights_builtin("ayo2004-d5");
    nk_player *p = player("ab:depth=2,weights=ayo2004-d5", "abapa", NULL, 0);
    const nk_eval *e = nk_player_eval(p);
    assert_non_null(e);
    assert_string_equal(e->set->name, "ayo12");
    assert_memory_equal(e->w, t->w, 12 * sizeof(double));
    nk_player_free(p);
    /* No weights: the set's default; no set: the variant's default. */
    p = player("ab:depth=2", "adjikui", NULL, 0);
    e = nk_player_eval(p);
    assert_string_equal(e->set->name, "adjikui");
    assert_memory_equal(e->w, e->set->defaults, e->set->count * sizeof(double));
    nk_player_free(p);
    /* Given numbers win over the spec's text. */
    double w[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    p = player("ab:depth=2,features=positional,weights=file.txt", "antigua", w, 9);
    assert_memory_equal(nk_player_eval(p)->w, w, sizeof w);
    nk_player_free(p);
    p = player("random", "antigua", NULL, 0);
    assert_null(nk_player_eval(p));
    nk_player_free(p);
}

static void test_random_and_human(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("bridgetown");
    nk_game *g = game_from(v, NULL);
    nk_player *r = player("random", "bridgetown", NULL, 0);
    nk_player *h = player("human", "bridgetown", NULL, 0);
    nk_rng rng = {3};
    unsigned seen = 0;
    for (int i = 0; i < 200; i++) {
        nk_think t;
        int m = nk_player_move(r, g, &rng, &t);
        assert_true((nk_game_legal(g) >> m) & 1u);
        assert_int_equal(t.move, m);
        seen |= 1u << m;
    }
    assert_int_equal(seen, 0x3F); /* every opening move comes up */
    assert_int_equal(nk_player_move(h, g, &rng, NULL), NK_NO_MOVE);
    free(g);
    /* A finished game: no move. */
    g = game_from(v, "1,0,0,0,0,0/1,0,0,0,0,0 25-21 S");
    assert_true(nk_game_over(g));
    assert_int_equal(nk_player_move(r, g, &rng, NULL), NK_NO_MOVE);
    nk_player_free(r);
    nk_player_free(h);
    free(g);
}

static void test_greedy(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_player *p = player("greedy", "abapa", NULL, 0);
    /* c captures 2 (lands in A: 1 -> 2); f captures 5 (lands in A? no: f
     * holds 2: A 1 -> 2, B 2 -> 3, captures B then A: 5).  Greedy takes f. */
    nk_game *g = game_from(v, "3,0,4,1,1,2/1,2,5,5,5,5 6-5 S");
    nk_rng rng = {1};
    for (int i = 0; i < 20; i++)
        assert_int_equal(nk_player_move(p, g, &rng, NULL), nk_move_parse('f'));
    free(g);
    /* No capture anywhere: ties broken by the rng, every move possible, and
     * the same seed gives the same move. */
    g = game_from(v, NULL);
    unsigned seen = 0;
    for (uint64_t seed = 0; seed < 100; seed++) {
        nk_rng a = {seed}, b = {seed};
        int m = nk_player_move(p, g, &a, NULL);
        assert_int_equal(m, nk_player_move(p, g, &b, NULL));
        seen |= 1u << m;
    }
    assert_int_equal(seen, 0x3F);
    nk_player_free(p);
    free(g);
}

static void test_ab_player(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_player *p = player("ab:depth=3,features=material", "abapa", NULL, 0);
    nk_game *g = game_from(v, "3,0,4,1,1,2/1,2,5,5,5,5 6-5 S");
    nk_rng rng = {1};
    nk_think t1, t2;
    int m = nk_player_move(p, g, &rng, &t1);
    assert_int_equal(m, nk_player_move(p, g, &rng, &t2));
    assert_int_equal(t1.move, m);
    assert_int_equal(t1.depth, 3);
    assert_true(t1.nodes > 1);
    assert_int_equal(t1.nodes, t2.nodes);
    assert_true(t1.score == t2.score);
    assert_true((nk_game_legal(g) >> m) & 1u);
    nk_player_free(p);
    /* A node budget. */
    p = player("ab:nodes=2000,features=ayo12", "abapa", NULL, 0);
    nk_player_move(p, g, &rng, &t1);
    assert_true(t1.nodes <= 2001);
    assert_true(t1.depth >= 2);
    nk_player_free(p);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simple_kinds),   cmocka_unit_test(test_ab_specs),
        cmocka_unit_test(test_spec_errors),    cmocka_unit_test(test_player_errors),
        cmocka_unit_test(test_ab_weights),     cmocka_unit_test(test_random_and_human),
        cmocka_unit_test(test_greedy),         cmocka_unit_test(test_ab_player),
        cmocka_unit_test(test_spec_table_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
