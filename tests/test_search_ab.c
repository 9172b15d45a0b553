/*
 * test_search_ab.c -- alpha-beta search (src/search/search.c) against a
 * plain minimax written here from the contract in search.h, and its other
 * promises: the table changes no value, forced captures and wins are found,
 * Antigua's extra move keeps the sign, a search repeated gives the same
 * node count, budgets are respected, and the bench signature is the one
 * recorded in search.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "search/search.h"

/* ===== helpers ===== */

static nk_game *game_from(const nk_variant *v, const char *text, unsigned ply_limit)
{
    nk_game *g = malloc(sizeof *g);
    nk_pos pos;
    char err[128];
    assert_non_null(g);
    if (text == NULL)
        nk_pos_start(&pos, NK_SOUTH);
    else if (nk_pos_parse(&pos, text, err, sizeof err) != NK_OK)
        fail_msg("bad test position '%s': %s", text, err);
    assert_int_equal(nk_game_init(g, v, &pos, ply_limit ? ply_limit : NK_DEFAULT_PLY_LIMIT),
                     NK_OK);
    return g;
}

/* Plays `plies` random moves (fewer if the game ends). */
static void random_plies(nk_game *g, unsigned plies, nk_rng *rng)
{
    for (unsigned i = 0; i < plies && !nk_game_over(g); i++)
        nk_game_play_legal(g, nk_random_move(g, rng), NULL);
}

static nk_search *make_search(const nk_variant *v, const char *set, unsigned tt_mb)
{
    nk_eval e;
    nk_search *s;
    char err[256];
    const nk_feature_set *fs = nk_features_find(set);
    assert_non_null(fs);
    if (nk_eval_init(&e, v, fs, NULL, 0, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    assert_int_equal(nk_search_new(&s, &e, tt_mb), NK_OK);
    return s;
}

static nk_search_result search_depth(nk_search *s, const nk_game *g, unsigned depth)
{
    nk_search_limits lim = {depth, 0, 0.0};
    nk_search_result r;
    nk_search_best(s, g, &lim, &r);
    return r;
}

/* ===== the reference: plain minimax, straight from search.h ===== */

typedef struct ref_ctx {
    const nk_game *g;
    const nk_eval *e;
    uint64_t path[NK_SEARCH_MAX_DEPTH + 2]; /* path[k]: hash k plies below the root */
    bool capture[NK_SEARCH_MAX_DEPTH + 2];  /* path[k] was reached by a capture */
} ref_ctx;

/* Does the position at path[ply] repeat an earlier one since the last
 * capture, on the path or in the game? */
static bool ref_repeats(const ref_ctx *c, unsigned ply)
{
    if (c->capture[ply])
        return false;
    for (unsigned k = ply; k-- > 1;) {
        if (c->path[k] == c->path[ply])
            return true;
        if (c->capture[k])
            return false;
    }
    for (unsigned k = c->g->since; k <= c->g->ply; k++)
        if (c->g->hist[k] == c->path[ply])
            return true;
    return false;
}

static double minimax(ref_ctx *c, const nk_pos *pos, unsigned depth, unsigned ply)
{
    const nk_variant *v = c->g->variant;
    if (ply > 0) {
        nk_end end = nk_pos_end(v, pos);
        if (end == NK_END_NONE && ref_repeats(c, ply))
            end = NK_END_REPETITION;
        if (end == NK_END_NONE && c->g->ply + ply >= c->g->ply_limit)
            end = NK_END_PLY_LIMIT;
        if (end != NK_END_NONE)
            return nk_eval_terminal(v, pos, end);
    }
    if (depth == 0)
        return nk_eval_score(c->e, pos);
    unsigned legal = nk_legal(v, pos);
    assert_true(legal != 0);
    double best = -NK_SCORE_INF;
    for (int mv = 0; mv <= NK_PASS; mv++) {
        if (!((legal >> mv) & 1u))
            continue;
        nk_pos child = *pos;
        nk_ply_info info;
        assert_true(nk_apply(v, &child, mv, &info));
        c->path[ply + 1] = child.hash;
        c->capture[ply + 1] = info.captured > 0;
        double s = minimax(c, &child, depth - 1, ply + 1);
        if (child.side != pos->side)
            s = -s;
        if (s > best)
            best = s;
    }
    return best;
}

static double reference_value(const nk_game *g, const nk_eval *e, unsigned depth)
{
    ref_ctx c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.e = e;
    c.path[0] = g->pos.hash;
    return minimax(&c, &g->pos, depth, 0);
}

/* Plain minimax from the root player's fixed view (view=root): the root
 * maximises, the other side minimises, leaves are evaluated with the root
 * to move, finished games scored exactly; the value from the root's view. */
static double minimax_root(ref_ctx *c, const nk_pos *pos, unsigned depth, unsigned ply,
                           int root)
{
    const nk_variant *v = c->g->variant;
    if (ply > 0) {
        nk_end end = nk_pos_end(v, pos);
        if (end == NK_END_NONE && ref_repeats(c, ply))
            end = NK_END_REPETITION;
        if (end == NK_END_NONE && c->g->ply + ply >= c->g->ply_limit)
            end = NK_END_PLY_LIMIT;
        if (end != NK_END_NONE) {
            const double t = nk_eval_terminal(v, pos, end);
            return pos->side == root ? t : -t;
        }
    }
    if (depth == 0) {
        nk_pos mine = *pos;
        mine.side = (uint8_t)root;
        return nk_eval_score(c->e, &mine);
    }
    unsigned legal = nk_legal(v, pos);
    assert_true(legal != 0);
    const bool max = pos->side == root;
    double best = max ? -NK_SCORE_INF : NK_SCORE_INF;
    for (int mv = 0; mv <= NK_PASS; mv++) {
        if (!((legal >> mv) & 1u))
            continue;
        nk_pos child = *pos;
        nk_ply_info info;
        assert_true(nk_apply(v, &child, mv, &info));
        c->path[ply + 1] = child.hash;
        c->capture[ply + 1] = info.captured > 0;
        double s = minimax_root(c, &child, depth - 1, ply + 1, root);
        if (max ? s > best : s < best)
            best = s;
    }
    return best;
}

/* view=root against minimax_root, with the paper's own asymmetric
 * evaluation (ayo12-literal, Table 1: every weight positive, so a
 * position is not worth minus its mirror image): the value of every
 * position of random games, depths 1 to 4, table on and off, in abapa and
 * in antigua (whose extra move keeps the side to move, R-W8). */
static void test_view_root_minimax(void **state)
{
    (void)state;
    static const char *const variants[] = {"abapa", "antigua"};
    const nk_weights *t = nk_weights_builtin("ayo2004-d3");
    unsigned differ = 0;
    for (int vi = 0; vi < 2; vi++) {
        const nk_variant *v = nk_variant_find(variants[vi]);
        nk_eval e;
        assert_int_equal(nk_eval_init(&e, v, nk_features_find("ayo12-literal"), t->w, 12, NULL, 0),
                         NK_OK);
        nk_search *plain, *tt, *mover;
        assert_int_equal(nk_search_new(&plain, &e, 0), NK_OK);
        assert_int_equal(nk_search_new(&tt, &e, 1), NK_OK);
        assert_int_equal(nk_search_new(&mover, &e, 1), NK_OK);
        nk_search_set_view(plain, NK_VIEW_ROOT);
        nk_search_set_view(tt, NK_VIEW_ROOT);
        for (unsigned i = 0; i < 12; i++) {
            nk_rng rng = {nk_seed_mix(77, vi, i)};
            nk_game *g = game_from(v, NULL, NK_DEFAULT_PLY_LIMIT);
            random_plies(g, 2 + nk_rng_below(&rng, 50), &rng);
            if (nk_game_over(g)) {
                free(g);
                continue;
            }
            for (unsigned d = 1; d <= 4; d++) {
                ref_ctx c;
                memset(&c, 0, sizeof c);
                c.g = g;
                c.e = &e;
                c.path[0] = g->pos.hash;
                const double want = minimax_root(&c, &g->pos, d, 0, g->pos.side);
                const nk_search_result a = search_depth(plain, g, d), b = search_depth(tt, g, d);
                if (a.score != want || b.score != want)
                    fail_msg("%s game %u depth %u: view=root %.17g / %.17g, minimax %.17g",
                             v->name, i, d, a.score, b.score, want);
                differ += search_depth(mover, g, d).score != want;
            }
            free(g);
        }
        nk_search_free(plain);
        nk_search_free(tt);
        nk_search_free(mover);
    }
    /* The view matters for this evaluation: negamax scores otherwise. */
    assert_true(differ > 0);
}

/* With a symmetric evaluation (each own term weighted as its opponent
 * twin, features.h) view=root and view=mover are the same search: the same
 * move, score and node count at every position of a game, and the same
 * game when players of each view play it. */
static void test_view_symmetric(void **state)
{
    (void)state;
    /* Dyadic weights: every partial sum is exact, so a position and its
     * mirror score exactly opposite (other weights may differ in the last
     * bit, which can move a cutoff). */
    static const double sym[12] = {0.25, 0.75, 0.25, 0.75, 0.125, 0.125,
                                   1.0,  1.0,  0.5,  0.5,  0.375, 0.375};
    static const struct {
        const char *variant, *set;
        const double *w;
    } cases[] = {{"abapa", "ayo12", sym}, {"antigua", "material", NULL}, {"adjikui", "material", NULL}};
    for (size_t k = 0; k < 3; k++) {
        const nk_variant *v = nk_variant_find(cases[k].variant);
        const nk_feature_set *set = nk_features_find(cases[k].set);
        nk_eval e;
        assert_int_equal(nk_eval_init(&e, v, set, cases[k].w, set->count, NULL, 0), NK_OK);
        nk_search *root, *mover;
        assert_int_equal(nk_search_new(&root, &e, 1), NK_OK);
        assert_int_equal(nk_search_new(&mover, &e, 1), NK_OK);
        nk_search_set_view(root, NK_VIEW_ROOT);
        /* Each plays the moves it chooses; both must choose alike. */
        nk_game *g = game_from(v, NULL, 120);
        unsigned plies = 0;
        while (!nk_game_over(g)) {
            const nk_search_result a = search_depth(root, g, 4), b = search_depth(mover, g, 4);
            if (a.move != b.move || a.score != b.score || a.nodes != b.nodes)
                fail_msg("%s/%s ply %u: root %d %.17g %llu, mover %d %.17g %llu", v->name,
                         set->name, plies, a.move, a.score, (unsigned long long)a.nodes, b.move,
                         b.score, (unsigned long long)b.nodes);
            nk_game_play_legal(g, a.move, NULL);
            plies++;
        }
        assert_true(plies > 10);
        free(g);
        nk_search_free(root);
        nk_search_free(mover);
    }
}

/* ===== property: alpha-beta (table on and off) == minimax ===== */

typedef struct case_spec {
    const char *variant, *set;
    unsigned max_depth;
} case_spec;

static void check_minimax(const case_spec *cs, unsigned games, uint64_t seed)
{
    const nk_variant *v = nk_variant_find(cs->variant);
    assert_non_null(v);
    nk_search *plain = make_search(v, cs->set, 0), *tt = make_search(v, cs->set, 1);
    nk_eval e;
    assert_int_equal(nk_eval_init(&e, v, nk_features_find(cs->set), NULL, 0, NULL, 0), NK_OK);
    unsigned checked = 0;
    for (unsigned i = 0; i < games; i++) {
        nk_rng rng = {nk_seed_mix(seed, i, 7)};
        /* Short ply limits bring the ply-limit end into reach now and then. */
        unsigned limit = i % 5 == 4 ? 30 + nk_rng_below(&rng, 40) : NK_DEFAULT_PLY_LIMIT;
        nk_game *g = game_from(v, NULL, limit);
        random_plies(g, nk_rng_below(&rng, 160), &rng);
        if (nk_game_over(g)) {
            free(g);
            continue;
        }
        for (unsigned d = 1; d <= cs->max_depth; d++) {
            double want = reference_value(g, &e, d);
            nk_search_result a = search_depth(plain, g, d), b = search_depth(tt, g, d);
            char text[NK_POS_TEXT];
            nk_pos_format(&g->pos, text);
            if (a.score != want || b.score != want)
                fail_msg("%s/%s game %u ply %u '%s' depth %u: minimax %.17g, alpha-beta %.17g, "
                         "with table %.17g",
                         v->name, cs->set, i, g->ply, text, d, want, a.score, b.score);
            assert_true(a.depth == d || (a.exact && a.depth < d));
            assert_true(a.move >= 0 && a.move <= NK_PASS);
            assert_true((nk_game_legal(g) >> a.move) & 1u);
            checked++;
        }
        free(g);
    }
    assert_true(checked > games / 2);
    nk_search_free(plain);
    nk_search_free(tt);
}

static void test_minimax_warri(void **state)
{
    (void)state;
    static const case_spec cases[] = {
        {"abapa", "material", 4},      {"abapa", "ayo12", 4},
        {"antigua", "positional", 4},  {"antigua", "material", 5},
        {"speightstown", "ayo12", 4},  {"bridgetown", "positional", 4},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_minimax(&cases[k], 40, 1000 + k);
}

static void test_minimax_adjikui(void **state)
{
    (void)state;
    static const case_spec cases[] = {
        {"adjikui", "material", 3},
        {"adjikui", "adjikui", 3},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_minimax(&cases[k], 25, 2000 + k);
}

/* Endgames with few seeds, where repetitions and exact ends are common. */
static void test_minimax_endgames(void **state)
{
    (void)state;
    static const char *const variants[] = {"abapa", "antigua", "speightstown", "bridgetown"};
    unsigned exact = 0;
    for (size_t k = 0; k < 4; k++) {
        const nk_variant *v = nk_variant_find(variants[k]);
        nk_search *plain = make_search(v, "material", 0), *tt = make_search(v, "material", 1);
        nk_eval e;
        assert_int_equal(nk_eval_init(&e, v, nk_features_find("material"), NULL, 0, NULL, 0),
                         NK_OK);
        for (unsigned i = 0; i < 60; i++) {
            nk_rng rng = {nk_seed_mix(77, k, i)};
            char text[NK_POS_TEXT];
            unsigned pits[NK_PITS] = {0}, seeds = 2 + nk_rng_below(&rng, 5);
            for (unsigned j = 0; j < seeds; j++)
                pits[nk_rng_below(&rng, NK_PITS)]++;
            unsigned south = 24 - seeds + nk_rng_below(&rng, seeds + 1); /* both < 25 */
            snprintf(text, sizeof text, "%u,%u,%u,%u,%u,%u/%u,%u,%u,%u,%u,%u %u-%u %c", pits[0],
                     pits[1], pits[2], pits[3], pits[4], pits[5], pits[6], pits[7], pits[8],
                     pits[9], pits[10], pits[11], south, 48 - seeds - south,
                     i % 2 ? 'N' : 'S');
            nk_game *g = game_from(v, text, 0);
            if (!nk_game_over(g)) {
                for (unsigned d = 1; d <= 7; d++) {
                    double want = reference_value(g, &e, d);
                    nk_search_result a = search_depth(plain, g, d), b = search_depth(tt, g, d);
                    if (a.score != want || b.score != want)
                        fail_msg("%s '%s' depth %u: minimax %.17g, alpha-beta %.17g, "
                                 "table %.17g",
                                 v->name, text, d, want, a.score, b.score);
                    exact += a.exact;
                }
            }
            free(g);
        }
        nk_search_free(plain);
        nk_search_free(tt);
    }
    assert_true(exact > 50); /* the endgames do get solved */
}

/* ===== hand-made positions ===== */

/* docs/rules.md section 5: South's f is a grand slam.  Antigua: South plays
 * again, cannot feed, and the game ends 26-22 (R-W8, R-W7): +4 seeds. */
static void test_forced_win_antigua(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("antigua");
    nk_game *g = game_from(v, "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S", 0);
    nk_search *s = make_search(v, "material", 1);
    for (unsigned d = 1; d <= 6; d++) {
        nk_search_result r = search_depth(s, g, d);
        assert_int_equal(r.move, nk_move_parse('f'));
        assert_true(r.score == 4 * NK_SCORE_SEED);
    }
    nk_search_free(s);
    free(g);
}

/* The same position in bridgetown ends 25-23 (R-W9, R-W11): +2 seeds. */
static void test_forced_win_bridgetown(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("bridgetown");
    nk_game *g = game_from(v, "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S", 0);
    nk_search *s = make_search(v, "ayo12", 1);
    nk_search_result r = search_depth(s, g, 3);
    assert_int_equal(r.move, nk_move_parse('f'));
    assert_true(r.score == 2 * NK_SCORE_SEED);
    nk_search_free(s);
    free(g);
}

/* Antigua's extra move, no sign flip (R-W8).  South's e sows 3 seeds into
 * f, A, B, making 2 in A and 3 in B: both are captured (5 seeds) and North's
 * row is empty, a grand slam; South, with 21 against 24, moves again (f
 * feeds, a does not).  At depth 1 the child is scored from South's view:
 * 21 - 24 = -3 (a sign flip would give +3).  a scores -8, f (A: 1 -> 2,
 * captured) -6. */
static void test_extra_move_sign(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("antigua");
    nk_game *g = game_from(v, "1,0,0,0,3,1/1,2,0,0,0,0 16-24 S", 0);
    assert_false(nk_game_over(g));
    nk_pos child = g->pos;
    nk_ply_info info;
    assert_true(nk_apply(v, &child, nk_move_parse('e'), &info));
    assert_true(info.grand_slam);
    assert_int_equal(info.captured, 5);
    assert_int_equal(child.side, NK_SOUTH);

    nk_search *s = make_search(v, "material", 1);
    nk_search_result r1 = search_depth(s, g, 1);
    assert_int_equal(r1.move, nk_move_parse('e'));
    assert_true(r1.score == -3.0);
    nk_eval e;
    assert_int_equal(nk_eval_init(&e, v, nk_features_find("material"), NULL, 0, NULL, 0), NK_OK);
    for (unsigned d = 1; d <= 6; d++) {
        nk_search_result r = search_depth(s, g, d);
        double want = reference_value(g, &e, d);
        if (r.score != want)
            fail_msg("depth %u: search %.17g, minimax %.17g", d, r.score, want);
    }
    nk_search_free(s);
    free(g);
}

/* A capture is taken at depth 1 (abapa, material): c (4 seeds into d, e,
 * f, A) makes 2 in A; nothing else captures. */
static void test_forced_capture(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_game *g = game_from(v, "3,0,4,1,1,1/1,5,5,5,5,5 6-6 S", 0);
    nk_search *s = make_search(v, "material", 1);
    nk_search_result r = search_depth(s, g, 1);
    assert_int_equal(r.move, nk_move_parse('c'));
    assert_true(r.score == 2.0);
    nk_search_free(s);
    free(g);
}

/* Adji Kui II: a four captured by relay (R-K2) that wins the game, and the
 * pass searched when there is no move (R-K4). */
static void test_adjikui_capture_and_pass(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("adjikui");
    /* f (2 seeds) lands in B: 3 -> 4, a North four: captured; 7 seeds are
     * left on the board, so the game ends (R-K5) 6-5 to South (R-K6). */
    nk_game *g = game_from(v, "2,0,0,0,0,2/0,3,1,1,1,1 0-0 S", 0);
    nk_search *s = make_search(v, "adjikui", 1);
    for (unsigned d = 1; d <= 4; d++) {
        nk_search_result r = search_depth(s, g, d);
        assert_int_equal(r.move, nk_move_parse('f'));
        assert_true(r.score == 1 * NK_SCORE_SEED);
    }
    free(g);
    /* South has no pit of 2 or more: the pass. */
    g = game_from(v, "1,1,1,1,1,1/3,3,3,3,3,3 10-10 S", 0);
    nk_search_result r = search_depth(s, g, 3);
    assert_int_equal(r.move, NK_PASS);
    nk_search_free(s);
    free(g);
}

/* ===== determinism and budgets ===== */

static void test_repeat_search(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_rng rng = {12345};
    nk_game *g = game_from(v, NULL, 0);
    random_plies(g, 12, &rng);
    nk_search *s1 = make_search(v, "ayo12", 2), *s2 = make_search(v, "ayo12", 2);
    nk_search_result a = search_depth(s1, g, 7), b = search_depth(s1, g, 7),
                     c = search_depth(s2, g, 7);
    assert_int_equal(a.nodes, b.nodes);
    assert_int_equal(a.nodes, c.nodes);
    assert_int_equal(a.move, b.move);
    assert_int_equal(a.move, c.move);
    assert_true(a.score == b.score && a.score == c.score);
    nk_search_free(s1);
    nk_search_free(s2);
    free(g);
}

static void test_node_budget(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("antigua");
    nk_game *g = game_from(v, NULL, 0);
    nk_search *s = make_search(v, "positional", 1);
    nk_search_limits lim = {0, 5000, 0.0};
    nk_search_result r, r2;
    nk_search_best(s, g, &lim, &r);
    nk_search_best(s, g, &lim, &r2);
    assert_true(r.depth >= 3);
    assert_true(r.nodes >= 5000 && r.nodes <= 5001);
    assert_int_equal(r.nodes, r2.nodes);
    assert_int_equal(r.move, r2.move);
    /* The result is the last completed iteration's. */
    nk_search_result full = search_depth(s, g, r.depth);
    assert_int_equal(full.move, r.move);
    assert_true(full.score == r.score);
    /* A budget too small for depth 1 still gives a move. */
    lim.nodes = 1;
    nk_search_best(s, g, &lim, &r);
    assert_int_equal(r.depth, 1);
    assert_true(r.move >= 0 && r.move < NK_ROW);
    nk_search_free(s);
    free(g);
}

static void test_time_budget(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_game *g = game_from(v, NULL, 0);
    nk_search *s = make_search(v, "material", 1);
    nk_search_limits lim = {0, 0, 0.05};
    nk_search_result r;
    nk_search_best(s, g, &lim, &r);
    assert_true(r.depth >= 2);
    assert_true(r.move >= 0 && r.move < NK_ROW);
    nk_search_free(s);
    free(g);
}

static void test_game_over(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_game *g = game_from(v, "1,0,0,0,0,0/1,0,0,0,0,0 25-21 S", 0);
    assert_true(nk_game_over(g));
    nk_search *s = make_search(v, "material", 1);
    nk_search_result r = search_depth(s, g, 3);
    assert_int_equal(r.move, NK_NO_MOVE);
    nk_search_free(s);
    free(g);
}

/* ===== the bench signature recorded in search.h ===== */

static void test_bench_signature(void **state)
{
    (void)state;
    uint64_t total = 0;
    for (size_t i = 0; i < nk_features_count(); i++) {
        nk_search_bench b;
        assert_int_equal(nk_search_bench_run(nk_features_at(i)->name, &b), NK_OK);
        assert_true(b.positions > 0);
        total += b.nodes;
    }
    nk_search_bench b;
    assert_int_equal(nk_search_bench_run("nonesuch", &b), NK_EINVAL);
    if (total != NK_SEARCH_BENCH_SIGNATURE)
        fail_msg("search bench signature %llu, search.h records %llu: if search or evaluation "
                 "behaviour changed on purpose, record the new value",
                 (unsigned long long)total, (unsigned long long)NK_SEARCH_BENCH_SIGNATURE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimax_warri),
        cmocka_unit_test(test_minimax_adjikui),
        cmocka_unit_test(test_minimax_endgames),
        cmocka_unit_test(test_forced_win_antigua),
        cmocka_unit_test(test_forced_win_bridgetown),
        cmocka_unit_test(test_extra_move_sign),
        cmocka_unit_test(test_forced_capture),
        cmocka_unit_test(test_adjikui_capture_and_pass),
        cmocka_unit_test(test_repeat_search),
        cmocka_unit_test(test_node_budget),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_game_over),
        cmocka_unit_test(test_bench_signature),
        cmocka_unit_test(test_view_root_minimax),
        cmocka_unit_test(test_view_symmetric),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
