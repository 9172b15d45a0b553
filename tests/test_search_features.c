/*
 * test_search_features.c -- the feature sets of src/search/features.c on
 * hand-computed positions (the arithmetic is in the comments), the refusals
 * of sets that do not suit a variant, the built-in weight tables, and the
 * linear evaluation (dot product, clamping, terminal scores, and the
 * symmetry that the sign convention promises).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "search/features.h"

static nk_pos pos_of(const char *text)
{
    nk_pos p;
    char err[128];
    if (nk_pos_parse(&p, text, err, sizeof err) != NK_OK)
        fail_msg("bad test position '%s': %s", text, err);
    return p;
}

/* Asserts the features of `set` in `text` (variant v). */
static void expect(const char *variant, const char *set_name, const char *text,
                   const int *want)
{
    const nk_variant *v = nk_variant_find(variant);
    const nk_feature_set *set = nk_features_find(set_name);
    assert_non_null(v);
    assert_non_null(set);
    assert_int_equal(nk_features_check(set, v, NULL, 0), NK_OK);
    nk_pos p = pos_of(text);
    int got[NK_MAX_FEATURES];
    set->compute(v, &p, got);
    for (size_t i = 0; i < set->count; i++)
        if (got[i] != want[i])
            fail_msg("%s in '%s' (%s): feature %s is %d, expected %d", set_name, text, variant,
                     set->features[i].name, got[i], want[i]);
}

/* ===== positions =====
 *
 * P2 = "1,2,0,13,0,5/2,1,0,3,1,14 7-3 N"
 *   South: a=1 (weak, lands b), b=2 (weak, lands d), c, e empty,
 *     d=13 (kroo, reaches; q=1, r=2: lands f, own row),
 *     f=5 (reaches; lands E, 1 -> 2: a capture of 2).
 *     empty 2, weak 2, kroo 1, reach 2 (d, f), cap2 1, cap3 0, seeds 21.
 *   North: A=2 (weak, lands C), B=1 (weak, lands C), C empty,
 *     D=3 (k=3, reaches; lands a, 1 -> 2: cap2),
 *     E=1 (weak, lands F), F=14 (kroo, reaches; q=1, r=3: lands c,
 *     0 + 1 + 1 = 2: cap2).
 *     empty 1, weak 3, kroo 1, reach 2 (D, F), cap2 2, cap3 0, seeds 21.
 *   Moves: South 4 non-empty pits, North 5.
 */
static const char P2N[] = "1,2,0,13,0,5/2,1,0,3,1,14 7-3 N";
static const char P2S[] = "1,2,0,13,0,5/2,1,0,3,1,14 7-3 S";

static void test_material(void **state)
{
    (void)state;
    expect("abapa", "material", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S", (const int[]){0});
    expect("abapa", "material", P2N, (const int[]){3 - 7});
    expect("abapa", "material", P2S, (const int[]){7 - 3});
    /* Every variant takes it. */
    for (size_t i = 0; i < nk_variant_count(); i++)
        assert_int_equal(nk_features_check(nk_features_find("material"), nk_variant_at(i), NULL, 0),
                         NK_OK);
    expect("adjikui", "material", "2,0,0,0,0,2/0,3,1,1,1,1 6-2 N", (const int[]){-4});
}

static void test_ayo12(void **state)
{
    (void)state;
    /* Start: every pit 4; pits c..f of each row reach the other row (4 >= 6 - k
     * for k >= 2); landings make 5, no capture. */
    expect("abapa", "ayo12", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",
           (const int[]){0, 0, 0, 0, -4, 4, 0, 0, 0, 0, 0, 0});
    /* P2, North to move: me = North, opponent = South.  Counts (see P2):
     * opponent (South) cap2 1, cap3 0, reach 2, kroo 1, store 7, empty 2;
     * own (North) cap2 2, cap3 0, reach 2, kroo 1, store 3, empty 1.
     * Signed by meaning: threats against North (a1, a2), South's reach,
     * kroos and store (a5, a7, a9) and North's own empty pits (a12)
     * negative; North's threats, reach, kroos, store and South's empty pits
     * (a11) positive. */
    expect("abapa", "ayo12", P2N,
           (const int[]){-1, 0, 2, 0, -2, 2, -1, 1, -7, 3, 2, -1});
    /* P2, South to move: opponent (North) cap2 2, cap3 0, reach 2, kroo 1,
     * store 3, empty 1; own (South) cap2 1, cap3 0, reach 2, kroo 1,
     * store 7, empty 2. */
    expect("antigua", "ayo12", P2S,
           (const int[]){-2, 0, 1, 0, -2, 2, -1, 1, -3, 7, 1, -2});
    /* f = 12 laps once (q = 1, r = 1) and lands in A: 1 + 1 + 1 = 3, a
     * capture of 3; 12 is not more than 12 (no kroo); a..e and B..F empty. */
    expect("bridgetown", "ayo12", "0,0,0,0,0,12/1,0,0,0,0,0 0-0 S",
           (const int[]){0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 5, -5});
    /* A = 11 sows the whole lap but its origin and lands in f (r = 11):
     * 2 -> 3, North's capture of 3; f = 2 reaches (k = 5) and lands in B:
     * 0 -> 1, nothing. */
    expect("speightstown", "ayo12", "0,0,0,0,0,2/11,0,0,0,0,0 0-0 N",
           (const int[]){0, 0, 0, 1, -1, 1, 0, 0, 0, 0, 5, -5});
}

/* The other readings of a1..a12 on P2, the counts as in test_ayo12. */
static void test_ayo12_readings(void **state)
{
    (void)state;
    /* Eq. 1 as printed: every count added as it is. */
    expect("abapa", "ayo12-literal", P2N, (const int[]){1, 0, 2, 0, 2, 2, 1, 1, 7, 3, 2, 1});
    expect("abapa", "ayo12-literal", P2S, (const int[]){2, 0, 1, 0, 2, 2, 1, 1, 3, 7, 1, 2});
    expect("abapa", "ayo12-literal", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",
           (const int[]){0, 0, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0});
    /* Every opponent term negated, every own term positive: a11 is
     * -(South's 2 empty pits), a12 North's 1. */
    expect("abapa", "ayo12-negated", P2N,
           (const int[]){-1, 0, 2, 0, -2, 2, -1, 1, -7, 3, -2, 1});
    expect("abapa", "ayo12-negated", P2S,
           (const int[]){-2, 0, 1, 0, -2, 2, -1, 1, -3, 7, -1, 2});
    /* Davis & Kendall: threats against the evaluating side (negated), its
     * own threats, the opponent's store (negated), its own store. */
    expect("abapa", "dk2002", P2N, (const int[]){-1, 0, 2, 0, -7, 3});
    expect("abapa", "dk2002", P2S, (const int[]){-2, 0, 1, 0, -3, 7});
    /* The published tables weigh every reading of the family, not dk2002. */
    const nk_weights *t = nk_weights_builtin("ayo2004-d3");
    assert_true(nk_weights_suit(t, nk_features_find("ayo12")));
    assert_true(nk_weights_suit(t, nk_features_find("ayo12-literal")));
    assert_true(nk_weights_suit(t, nk_features_find("ayo12-negated")));
    assert_false(nk_weights_suit(t, nk_features_find("dk2002")));
    assert_false(nk_weights_suit(t, nk_features_find("positional")));
    /* Table 1 on P2 with North to move, by hand: under ayo12
     * -0.06 + 2(0.93) - 2(0.13) + 2(0.87) - 0.06 + 0.93 - 7(0.13) + 3(0.60)
     * + 2(1.00) - 0.67 = 6.37; literally all added: 0.06 + 1.86 + 0.26 +
     * 1.74 + 0.06 + 0.93 + 0.91 + 1.80 + 2.00 + 0.67 = 10.29. */
    const nk_variant *v = nk_variant_find("abapa");
    nk_pos p = pos_of(P2N);
    nk_eval e;
    assert_int_equal(nk_eval_init(&e, v, nk_features_find("ayo12"), t->w, 12, NULL, 0), NK_OK);
    assert_true(fabs(nk_eval_score(&e, &p) - 6.37) < 1e-9);
    assert_int_equal(nk_eval_init(&e, v, nk_features_find("ayo12-literal"), t->w, 12, NULL, 0),
                     NK_OK);
    assert_true(fabs(nk_eval_score(&e, &p) - 10.29) < 1e-9);
    /* The hand-tuned ayo12 default is the ayo12-negated default with a11
     * and a12 negated: the same evaluation everywhere. */
    const nk_feature_set *a = nk_features_find("ayo12"), *n = nk_features_find("ayo12-negated");
    for (int i = 0; i < 12; i++)
        assert_true(a->defaults[i] == (i >= 10 ? -n->defaults[i] : n->defaults[i]));
}

static void test_positional(void **state)
{
    (void)state;
    expect("abapa", "positional", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",
           (const int[]){0, 0, 0, 0, 0, 0, 0, 0, 0});
    /* P2: store, board, empty, weak, kroo pairs, mobility (5 - 4). */
    expect("abapa", "positional", P2N, (const int[]){-4, 0, 1, -2, 3, -2, 1, -1, 1});
    expect("abapa", "positional", P2S, (const int[]){4, 0, 2, -1, 2, -3, 1, -1, -1});
    /* South's row empty: North's moves must feed (R-W4): E (2 seeds, k = 4)
     * and F (3, k = 5) reach, A (1, k = 0) does not: 2 moves; South has
     * none.  North: A=1, E=2 weak; B, C, D empty; 6 seeds on its side. */
    expect("antigua", "positional", "0,0,0,0,0,0/1,0,0,0,2,3 10-20 N",
           (const int[]){10, 6, 3, -6, 2, 0, 0, 0, 2});
    const nk_variant *v = nk_variant_find("antigua");
    nk_pos p = pos_of("0,0,0,0,0,0/1,0,0,0,2,3 10-20 N");
    assert_int_equal(nk_legal(v, &p), (1u << 10) | (1u << 11)); /* the same two */
}

/* Antigua's extra move (R-W8): after the grand slam of docs/rules.md section 5
 * South is to move again, and the features are South's view.  The
 * position: South c=2 (weak, lands e), the rest empty; stores 24-22. */
static void test_extra_move_view(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("antigua");
    nk_pos p = pos_of("0,0,2,0,0,3/1,2,1,0,0,0 17-22 S");
    nk_ply_info info;
    assert_true(nk_apply(v, &p, nk_move_parse('f'), &info));
    assert_true(info.grand_slam);
    assert_int_equal(p.side, NK_SOUTH);
    char text[NK_POS_TEXT];
    nk_pos_format(&p, text);
    assert_string_equal(text, "0,0,2,0,0,0/0,0,0,0,0,0 24-22 S");
    int f[NK_MAX_FEATURES];
    nk_features_find("material")->compute(v, &p, f);
    assert_int_equal(f[0], 2); /* 24 - 22 from South's view, not -2 */
    expect("antigua", "ayo12", text, (const int[]){0, 0, 0, 0, 0, 0, 0, 0, -22, 24, 6, -5});
    /* Mobility: South must feed North's empty row and c cannot: 0; North,
     * counted as if to move, has no seed: 0. */
    expect("antigua", "positional", text, (const int[]){2, 2, 5, -6, 1, 0, 0, 0, 0});
    /* In abapa the same grand slam captures nothing and North moves. */
    const nk_variant *abapa = nk_variant_find("abapa");
    nk_pos q = pos_of("0,0,2,0,0,3/1,2,1,0,0,0 17-22 S");
    assert_true(nk_apply(abapa, &q, nk_move_parse('f'), &info));
    nk_pos_format(&q, text);
    assert_string_equal(text, "0,0,2,0,0,0/2,3,2,0,0,0 17-22 N");
    nk_features_find("material")->compute(abapa, &q, f);
    assert_int_equal(f[0], 5);
}

/* Adji Kui II, default rows.  "2,0,0,0,0,2/0,3,1,1,1,1 0-0 S":
 *   South: a (2): b 0->1, c 0->1, ends on an empty pit; f (2): A 0->1,
 *     B 3->4, a North four: captured.  2 moves, 1 threat; 4 seeds.
 *   North (as if to move): B (3): C, D, E 1->2; E relays 2: F 1->2,
 *     a 2->3; a relays 3: b, c, d 0->1, ends.  C..F hold 1 (singles, not
 *     sowable).  1 move, no threat; 7 seeds, 4 singles. */
static void test_adjikui(void **state)
{
    (void)state;
    expect("adjikui", "adjikui", "2,0,0,0,0,2/0,3,1,1,1,1 0-0 S",
           (const int[]){0, -3, 0, -4, 2, -1, 1, 0});
    expect("adjikui", "adjikui", "2,0,0,0,0,2/0,3,1,1,1,1 5-1 N",
           (const int[]){-4, 3, 4, 0, 1, -2, 0, -1});
}

/* Ownership (R-K9): the same board with South's head f bought by North.
 *   "0,0,0,2,0,3/0,3,1,1,1,1 0-0 S", default rows: South's d (2): e 0->1,
 *   f 3->4, a four on the mover's side: the move ends, no capture (R-K2
 *   rule 3); f (3): A 0->1, B 3->4, C 1->2; C relays: D, E 1->2; E relays:
 *   F 1->2, a 0->1, ends.  South 2 moves, no threat, 5 seeds.  North: B
 *   (3): C, D, E -> 2; E relays: F 1->2, a 0->1, ends: 1 move, 7 seeds.
 *   Owners SSSSSNNNNNNN: f is North's.  South owns a..e: d (2) makes f a
 *   North four: captured, a threat; South 1 move, 2 seeds.  North owns f
 *   and A..F: f (3) as above, ends at a; B (3): C, D, E -> 2; E relays:
 *   F 1->2, f 3->4, a four of the mover's: ends.  2 moves, no threat,
 *   10 seeds, 4 singles. */
static void test_adjikui_ownership(void **state)
{
    (void)state;
    expect("adjikui", "adjikui", "0,0,0,2,0,3/0,3,1,1,1,1 0-0 S",
           (const int[]){0, -2, 0, -4, 2, -1, 0, 0});
    expect("adjikui", "adjikui", "0,0,0,2,0,3/0,3,1,1,1,1 0-0 S SSSSSNNNNNNN",
           (const int[]){0, -8, 0, -4, 1, -2, 1, 0});
}

/* ===== refusals ===== */

static void test_refusals(void **state)
{
    (void)state;
    char err[256];
    const nk_variant *adjikui = nk_variant_find("adjikui"), *abapa = nk_variant_find("abapa");
    assert_int_equal(nk_features_check(nk_features_find("ayo12"), adjikui, err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "'ayo12'"));
    assert_non_null(strstr(err, "'adjikui'"));
    assert_non_null(strstr(err, "material, adjikui")); /* what does suit it */
    assert_int_equal(nk_features_check(nk_features_find("positional"), adjikui, NULL, 0),
                     NK_EINVAL);
    assert_int_equal(nk_features_check(nk_features_find("adjikui"), abapa, err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "material, ayo12, positional"));
    nk_eval e;
    assert_int_equal(nk_eval_init(&e, adjikui, nk_features_find("ayo12"), NULL, 0, NULL, 0),
                     NK_EINVAL);
    /* Wrong number of weights, and a weight that is not a number. */
    double w[3] = {1, 2, 3};
    assert_int_equal(nk_eval_init(&e, abapa, nk_features_find("ayo12"), w, 3, err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "needs 12 weights, got 3"));
    double nan = 0.0 / 0.0;
    assert_int_equal(nk_eval_init(&e, abapa, nk_features_find("material"), &nan, 1, NULL, 0),
                     NK_ERANGE);
    /* Names. */
    assert_null(nk_features_find("nonesuch"));
    assert_null(nk_features_find(NULL));
    char list[128];
    nk_features_list(list, sizeof list);
    assert_string_equal(list,
                        "material, ayo12, positional, adjikui, ayo12-literal, ayo12-negated, dk2002");
    assert_ptr_equal(nk_features_default(abapa), nk_features_find("positional"));
    assert_ptr_equal(nk_features_default(adjikui), nk_features_find("adjikui"));
}

/* ===== weight tables ===== */

static void test_builtin_weights(void **state)
{
    (void)state;
    static const double d3[] = {0.06, 0.20, 0.93, 0.93, 0.13, 0.87,
                                0.06, 0.93, 0.13, 0.60, 1.00, 0.67};
    static const double d5[] = {0.80, 1.00, 0.06, 0.00, 0.87, 0.60,
                                0.00, 0.20, 0.73, 0.93, 0.00, 0.80};
    const nk_weights *t3 = nk_weights_builtin("ayo2004-d3"), *t5 = nk_weights_builtin("ayo2004-d5");
    assert_non_null(t3);
    assert_non_null(t5);
    assert_string_equal(t3->features, "ayo12");
    assert_int_equal(t3->count, 12);
    assert_int_equal(t5->count, 12);
    for (int i = 0; i < 12; i++) {
        assert_true(t3->w[i] == d3[i]);
        assert_true(t5->w[i] == d5[i]);
    }
    assert_null(nk_weights_builtin("weights.txt"));
    assert_int_equal(nk_weights_count(), 2);
    for (size_t i = 0; i < nk_features_count(); i++) {
        const nk_feature_set *set = nk_features_at(i);
        assert_true(set->count >= 1 && set->count <= NK_MAX_FEATURES);
        for (size_t k = 0; k < set->count; k++) {
            assert_non_null(set->features[k].name);
            assert_non_null(set->features[k].description);
        }
    }
}

/* ===== the evaluation ===== */

static void test_eval(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_eval e;
    nk_pos p = pos_of(P2N);
    /* ayo2004-d3 on P2 (North): sum w_i f_i. */
    const nk_weights *t = nk_weights_builtin("ayo2004-d3");
    assert_int_equal(nk_eval_init(&e, v, nk_features_find("ayo12"), t->w, t->count, NULL, 0),
                     NK_OK);
    const int f[] = {-1, 0, 2, 0, -2, 2, -1, 1, -7, 3, 2, -1};
    double want = 0;
    for (int i = 0; i < 12; i++)
        want += t->w[i] * f[i];
    assert_true(nk_eval_score(&e, &p) == want);
    /* Clamped below every finished game. */
    double big = 1e9;
    assert_int_equal(nk_eval_init(&e, v, nk_features_find("material"), &big, 1, NULL, 0), NK_OK);
    assert_true(nk_eval_score(&e, &p) == -NK_SCORE_EVAL_MAX);
    assert_true(NK_SCORE_EVAL_MAX < NK_SCORE_SEED);
}

static void test_terminal(void **state)
{
    (void)state;
    /* Majority: 25-20 to South, North to move: -5 seeds for North. */
    nk_pos p = pos_of("1,0,0,0,0,0/2,0,0,0,0,0 25-20 N");
    assert_true(nk_eval_terminal(nk_variant_find("abapa"), &p, NK_END_MAJORITY) ==
                -5 * NK_SCORE_SEED);
    /* Speightstown: a 24-22 end with 2 seeds not counted is a draw (R-W12). */
    p = pos_of("1,0,0,0,0,0/1,0,0,0,0,0 24-22 S");
    assert_true(nk_eval_terminal(nk_variant_find("speightstown"), &p, NK_END_REPETITION) == 0.0);
    /* Antigua: each takes his row: 25-23, South to move: +2. */
    assert_true(nk_eval_terminal(nk_variant_find("antigua"), &p, NK_END_REPETITION) ==
                2 * NK_SCORE_SEED);
    /* A draw scores 0. */
    p = pos_of("0,0,0,0,0,0/0,0,0,0,0,0 24-24 N");
    assert_true(nk_eval_terminal(nk_variant_find("abapa"), &p, NK_END_EMPTY_ROW) == 0.0);
}

/* Symmetry: with each own term weighted as its opponent twin, handing the
 * move to the other side negates the evaluation (the sign convention). */
static void test_symmetry(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *set;
        double w[NK_MAX_FEATURES];
    } cases[] = {
        {"abapa", "ayo12", {0.3, 0.7, 0.3, 0.7, 0.2, 0.2, 0.9, 0.9, 1.0, 1.0, 0.4, 0.4}},
        {"antigua", "positional", {1.0, 0.25, -0.5, -0.5, -0.3, -0.3, 0.6, 0.6, 0.1}},
        {"adjikui", "adjikui", {1.0, 0.5, -0.2, -0.2, 0.3, 0.3, 0.7, 0.7}},
    };
    for (size_t k = 0; k < 3; k++) {
        const nk_variant *v = nk_variant_find(cases[k].variant);
        const nk_feature_set *set = nk_features_find(cases[k].set);
        nk_eval e;
        assert_int_equal(nk_eval_init(&e, v, set, cases[k].w, set->count, NULL, 0), NK_OK);
        nk_rng rng = {k + 1};
        for (int i = 0; i < 300; i++) {
            nk_pos p;
            nk_pos_start(&p, (int)nk_rng_below(&rng, 2));
            /* Random legal play from the start gives varied positions. */
            unsigned plies = nk_rng_below(&rng, 60);
            for (unsigned j = 0; j < plies && nk_pos_end(v, &p) == NK_END_NONE; j++) {
                nk_pos child;
                if (nk_random_child(v, &p, &rng, &child, NULL) == NK_NO_MOVE)
                    break;
                p = child;
            }
            nk_pos q = p;
            q.side ^= 1u;
            q.hash = nk_pos_hash(&q);
            double a = nk_eval_score(&e, &p), b = nk_eval_score(&e, &q);
            if (fabs(a + b) > 1e-9) { /* the sums' order differs: rounding */
                char text[NK_POS_TEXT];
                nk_pos_format(&p, text);
                fail_msg("%s in '%s': %.17g and %.17g from the other side", cases[k].set, text,
                         a, b);
            }
        }
    }
}

/* ===== the fast scan against a pit-by-pit reference =====
 *
 * features.c counts the Warri features with byte arithmetic on row words;
 * ref_warri below is the definition of features.h written pit by pit (the
 * code the scan replaced).  Every feature and every evaluation (to the
 * bit, summed in the order of eval: from 0.0, feature 1 first) must agree
 * on positions of random games and on random boards with lapping pits. */

typedef struct ref_scan {
    int empty[2], weak[2], kroo[2], reach[2], cap2[2], cap3[2], seeds[2];
} ref_scan;

static void ref_scan_board(const nk_pos *p, ref_scan *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < NK_PITS; i++) {
        const int side = i >= NK_ROW, k = i - side * NK_ROW;
        const unsigned n = p->pit[i];
        s->seeds[side] += (int)n;
        if (n == 0) {
            s->empty[side]++;
            continue;
        }
        s->weak[side] += n <= 2;
        s->kroo[side] += n > 12;
        s->reach[side] += n >= (unsigned)(NK_ROW - k);
        unsigned q = 0, r = n;
        if (n > 11) {
            q = (n - 1) / 11;
            r = (n - 1) % 11 + 1;
        }
        const int land = (i + (int)r) % NK_PITS;
        if ((land >= NK_ROW) != side) {
            const unsigned c = p->pit[land] + q + 1;
            s->cap2[side] += c == 2;
            s->cap3[side] += c == 3;
        }
    }
}

/* The features of set "ayo12" (and its readings), "dk2002" or "positional"
 * by the reference scan. */
static size_t ref_warri(const char *set, const nk_pos *p, int *f)
{
    ref_scan s;
    const int me = p->side, op = me ^ 1;
    ref_scan_board(p, &s);
    if (strcmp(set, "dk2002") == 0) {
        const int d[6] = {-s.cap2[op], -s.cap3[op], s.cap2[me],
                          s.cap3[me],  -(int)p->store[op], (int)p->store[me]};
        memcpy(f, d, sizeof d);
        return 6;
    }
    if (strncmp(set, "ayo12", 5) == 0) {
        /* Sign of the opponent terms (a1, a2, a5, a7, a9), of a11 and of
         * a12 in each reading. */
        const int opp = strcmp(set, "ayo12-literal") == 0 ? 1 : -1;
        const int e11 = strcmp(set, "ayo12-negated") == 0 ? -1 : 1;
        const int e12 = strcmp(set, "ayo12") == 0 ? -1 : 1;
        const int a[12] = {opp * s.cap2[op],         opp * s.cap3[op], s.cap2[me],
                           s.cap3[me],               opp * s.reach[op], s.reach[me],
                           opp * s.kroo[op],         s.kroo[me],        opp * (int)p->store[op],
                           (int)p->store[me],        e11 * s.empty[op], e12 * s.empty[me]};
        memcpy(f, a, sizeof a);
        return 12;
    }
    int moves[2];
    for (int side = 0; side < 2; side++)
        moves[side] = s.seeds[side ^ 1] == 0 ? s.reach[side] : NK_ROW - s.empty[side];
    const int b[9] = {(int)p->store[me] - (int)p->store[op], s.seeds[me] - s.seeds[op],
                      s.empty[me], -s.empty[op], s.weak[me], -s.weak[op], s.kroo[me],
                      -s.kroo[op], moves[me] - moves[op]};
    memcpy(f, b, sizeof b);
    return 9;
}

static void check_scan(const nk_variant *v, const nk_pos *p, const nk_eval *ev)
{
    const char *name = ev->set->name;
    int want[NK_MAX_FEATURES], got[NK_MAX_FEATURES];
    const size_t n = ref_warri(name, p, want);
    assert_int_equal(n, ev->set->count);
    ev->set->compute(v, p, got);
    char text[NK_POS_TEXT];
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            nk_pos_format(p, text);
            fail_msg("%s in '%s': feature %s is %d, the reference %d", name, text,
                     ev->set->features[i].name, got[i], want[i]);
        }
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += ev->w[i] * want[i];
    if (s > NK_SCORE_EVAL_MAX)
        s = NK_SCORE_EVAL_MAX;
    if (s < -NK_SCORE_EVAL_MAX)
        s = -NK_SCORE_EVAL_MAX;
    const double e = nk_eval_score(ev, p);
    if (memcmp(&e, &s, sizeof s) != 0) {
        nk_pos_format(p, text);
        fail_msg("%s in '%s': evaluation %.17g, the reference %.17g", name, text, e, s);
    }
}

static void test_scan_reference(void **state)
{
    (void)state;
    static const char *const variants[] = {"antigua", "speightstown", "bridgetown", "abapa",
                                           "awari"};
    static const char *const names[] = {"ayo12", "positional", "ayo12-literal", "ayo12-negated",
                                        "dk2002"};
    nk_rng rng = {2026};
    for (size_t vi = 0; vi < 5; vi++) {
        const nk_variant *v = nk_variant_find(variants[vi]);
        assert_non_null(v);
        for (size_t si = 0; si < 5; si++) {
            const nk_feature_set *set = nk_features_find(names[si]);
            double w[NK_MAX_FEATURES];
            nk_eval ev;
            /* The defaults, then weights of mixed signs and magnitudes. */
            for (int round = 0; round < 2; round++) {
                for (size_t i = 0; i < set->count; i++)
                    w[i] = round == 0 ? set->defaults[i]
                                      : ((double)nk_rng_below(&rng, 2001) - 1000.0) / 37.0;
                assert_int_equal(nk_eval_init(&ev, v, set, w, set->count, NULL, 0), NK_OK);
                /* Positions of random games, every ply. */
                for (int game = 0; game < 40; game++) {
                    nk_pos p;
                    nk_pos_start(&p, (int)nk_rng_below(&rng, 2));
                    for (int ply = 0; ply < 400 && nk_pos_end(v, &p) == NK_END_NONE; ply++) {
                        check_scan(v, &p, &ev);
                        nk_pos child;
                        if (nk_random_child(v, &p, &rng, &child, NULL) == NK_NO_MOVE)
                            break;
                        p = child;
                    }
                    check_scan(v, &p, &ev);
                }
                /* Random boards of at most 255 seeds (R-B3): small counts,
                 * counts up to 11 (every sowing without a lap: the scan's
                 * fast path), and pits that lap (up to 15 seeds, pits a, e
                 * and C up to 35: at most 240 on the board). */
                for (int k = 0; k < 6000; k++) {
                    nk_pos p;
                    nk_pos_start(&p, (int)nk_rng_below(&rng, 2));
                    unsigned total = 0;
                    for (int i = 0; i < NK_PITS; i++) {
                        const unsigned top = k % 3 == 0   ? 5
                                             : k % 3 == 1 ? 12
                                             : i % 4 == 0 ? 36
                                                          : 16;
                        p.pit[i] = (uint8_t)nk_rng_below(&rng, top);
                        total += p.pit[i];
                    }
                    const unsigned room = 255 - total;
                    p.store[0] = (uint8_t)nk_rng_below(&rng, room / 2 + 1);
                    p.store[1] = (uint8_t)nk_rng_below(&rng, room - p.store[0] + 1);
                    p.hash = nk_pos_hash(&p);
                    check_scan(v, &p, &ev);
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_material),      cmocka_unit_test(test_ayo12),
        cmocka_unit_test(test_ayo12_readings),
        cmocka_unit_test(test_positional),    cmocka_unit_test(test_extra_move_view),
        cmocka_unit_test(test_adjikui),       cmocka_unit_test(test_adjikui_ownership),
        cmocka_unit_test(test_refusals),      cmocka_unit_test(test_builtin_weights),
        cmocka_unit_test(test_eval),          cmocka_unit_test(test_terminal),
        cmocka_unit_test(test_symmetry),      cmocka_unit_test(test_scan_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
