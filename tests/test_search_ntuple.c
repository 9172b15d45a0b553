/*
 * test_search_ntuple.c -- the n-tuple family (src/search/ntuple.c,
 * src/search/eval.c): layouts parsed and refused, a value computed by hand
 * (the arithmetic in the comments), antisymmetry to the bit on random
 * positions, and weights files written, read back through the io layer
 * and refused when their length does not fit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "family_testlib.h"
#include "search/ntuple.h"

/* ===== layouts ===== */

static void test_layout_good(void **state)
{
    (void)state;
    nk_ntuple nt;
    char err[256];
    /* The default: ring3, cap 6: 1 + 12 * 7^3. */
    assert_int_equal(nk_ntuple_parse(&nt, "ntuple", err, sizeof err), NK_OK);
    assert_int_equal(nt.ntuples, 12);
    assert_int_equal(nt.count, 1 + 12 * 343);
    assert_string_equal(nt.text, "ntuple:layout=ring3:cap=6");
    /* ring2+ring4 with cap 3: 1 + 12 * 16 + 12 * 256; ring4's last run wraps. */
    assert_int_equal(nk_ntuple_parse(&nt, "ntuple:layout=ring2+ring4:cap=3", err, sizeof err),
                     NK_OK);
    assert_int_equal(nt.ntuples, 24);
    assert_int_equal(nt.count, 1 + 12 * 16 + 12 * 256);
    char buf[64];
    assert_string_equal(nk_ntuple_tuple_text(&nt, 23, buf, sizeof buf), "11-0-1-2");
    assert_int_equal(nt.t[12].offset, 1 + 12 * 16);
    assert_int_equal(nt.t[12].stride[3], 64);
    /* Explicit tuples, keys in any order. */
    assert_int_equal(nk_ntuple_parse(&nt, "ntuple:cap=2:layout=0-6+11-5-3", err, sizeof err),
                     NK_OK);
    assert_int_equal(nt.ntuples, 2);
    assert_int_equal(nt.count, 1 + 9 + 27);
    assert_string_equal(nk_ntuple_tuple_text(&nt, 1, buf, sizeof buf), "11-5-3");
    assert_true(nk_ntuple_is("ntuple") && nk_ntuple_is("ntuple:cap=2"));
    assert_false(nk_ntuple_is("ntuples") || nk_ntuple_is("positional"));
}

static void test_layout_bad(void **state)
{
    (void)state;
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"ntuple:layout=0-12", "pit 12 is out of range 0..11"},
        {"ntuple:layout=0-1-0", "repeats pit 0"},
        {"ntuple:layout=0++1", "has an empty tuple"},
        {"ntuple:layout=", "has an empty tuple"},
        {"ntuple:layout=0-1+", "has an empty tuple"},
        {"ntuple:layout=0--1", "is not pits"},
        {"ntuple:layout=-1", "is not pits"},
        {"ntuple:layout=ring7", "is not ring1 .. ring6"},
        {"ntuple:layout=ring0", "is not ring1 .. ring6"},
        {"ntuple:layout=0-1-2-3-4-5-6", "more than 6 pits"},
        {"ntuple:layout=ring6:cap=15", "needs more than"},
        {"ntuple:cap=0", "ntuple.cap '0' is not"},
        {"ntuple:cap=16", "ntuple.cap '16' is not"},
        {"ntuple:cap=2:cap=3", "ntuple.cap given twice"},
        {"ntuple:size=3", "unknown key 'size'"},
        {"ntuple:ring3", "is not KEY=VALUE"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nk_ntuple nt;
        char err[256] = "";
        assert_int_not_equal(nk_ntuple_parse(&nt, bad[i].text, err, sizeof err), NK_OK);
        if (strstr(err, bad[i].says) == NULL)
            fail_msg("'%s' says '%s', not '%s'", bad[i].text, err, bad[i].says);
        assert_null(strchr(err, '\n'));
    }
    /* The spec parser refuses the same, naming the spec. */
    nk_spec spec;
    char err[512];
    assert_int_equal(nk_spec_parse(&spec, "ab:depth=2,features=ntuple:layout=3-3", err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "player spec 'ab:depth=2,features=ntuple:layout=3-3'"));
    assert_non_null(strstr(err, "repeats pit 3"));
    /* Adji Kui II is refused with a reason. */
    nk_eval e;
    assert_int_equal(
        nk_eval_setup(&e, nk_variant_find("adjikui"), "ntuple", NULL, 0, err, sizeof err),
        NK_EINVAL);
    assert_non_null(strstr(err, "does not suit variant 'adjikui'"));
}

/* ===== the value ===== */

/* Layout 0-1 + 6 with cap 2: 1 + 9 + 3 = 13 weights, w[i] = i but w[0] =
 * 0.5.  Tuple 0 (pits 0, 1; strides 1, 3) at offset 1, tuple 1 (pit 6)
 * at offset 10.  Board: South 3,1,0,0,0,0, North 0,2,0,0,0,5, stores
 * 10-7.
 * South to move: view c = min(pit, 2): c0 = 2, c1 = 1, c6 = 0, c7 = 2.
 *   tuple 0: mover 1 + 2 + 1*3 = 6, opponent (pits 6, 7) 1 + 0 + 2*3 = 7;
 *   tuple 1: mover 10 + c6 = 10, opponent 10 + c12 (= pit 0: 2) = 12;
 *   value = 0.5 * (10 - 7) + (6 + 10) - (7 + 12) = -1.5.
 * North to move: its view starts at pit 6: c0 = 0, c1 = 2, c6 = 2, c7 = 1;
 *   tuple 0: mover 1 + 0 + 6 = 7, opponent 1 + 2 + 3 = 6; tuple 1: mover
 *   10 + 2 = 12, opponent 10 + 0 = 10; value = 0.5 * (7 - 10) + 19 - 16
 *   = 1.5. */
static void test_value_by_hand(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    double w[13];
    for (int i = 0; i < 13; i++)
        w[i] = i;
    w[0] = 0.5;
    nk_eval e;
    char err[256];
    assert_int_equal(nk_eval_setup(&e, v, "ntuple:layout=0-1+6:cap=2", w, 13, err, sizeof err),
                     NK_OK);
    nk_pos p = pos_of("3,1,0,0,0,0/0,2,0,0,0,5 10-7 S");
    assert_int_equal(p.pit[0], 3); /* the notation's first row is South's, pits 0..5 */
    assert_int_equal(p.pit[7], 2);
    assert_true(nk_eval_score(&e, &p) == -1.5);
    p.side = NK_NORTH;
    assert_true(nk_eval_score(&e, &p) == 1.5);
    const double *got;
    assert_int_equal(nk_eval_weights(&e, &got), 13);
    assert_true(got[12] == 12.0);
    /* The default weights: the store term alone, the material value. */
    nk_eval d;
    assert_int_equal(nk_eval_setup(&d, v, "ntuple:layout=0-1+6:cap=2", NULL, 0, err, sizeof err),
                     NK_OK);
    assert_true(nk_eval_score(&d, &p) == -3.0);
    /* A wrong count and a weight that is not finite are refused. */
    nk_eval bad;
    assert_int_equal(nk_eval_setup(&bad, v, "ntuple:layout=0-1+6:cap=2", w, 12, err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "needs 13 weights, got 12"));
    w[5] = NAN;
    assert_int_equal(nk_eval_setup(&bad, v, "ntuple:layout=0-1+6:cap=2", w, 13, err, sizeof err),
                     NK_ERANGE);
    nk_eval_free(&e);
    nk_eval_free(&d);
}

/* Antisymmetry by construction: handing the move to the other side, or
 * swapping the rows and the stores, negates the value exactly, for random
 * weights on random positions (lapping pits included). */
static void test_antisymmetry(void **state)
{
    (void)state;
    static const char *layouts[] = {"ntuple", "ntuple:layout=ring2+ring3+0-6-11:cap=4",
                                    "ntuple:layout=ring4:cap=15", "ntuple:layout=5:cap=1"};
    static const char *variants[] = {"abapa", "antigua", "speightstown", "bridgetown"};
    for (size_t k = 0; k < 4; k++) {
        const nk_variant *v = nk_variant_find(variants[k]);
        nk_eval e;
        char err[256];
        assert_int_equal(nk_eval_setup(&e, v, layouts[k], NULL, 0, err, sizeof err), NK_OK);
        nk_rng rng = {k + 11};
        for (size_t i = 0; i < e.nt->count; i++) /* weights in [-1, 1) */
            e.tw[i] = (double)nk_rng_below(&rng, 1u << 20) / (1 << 19) - 1.0;
        int nonzero = 0;
        for (int i = 0; i < 500; i++) {
            nk_pos p = random_pos(v, &rng);
            if (i % 5 == 0) /* boards with laps and the cap exceeded */
                for (int j = 0; j < NK_PITS; j++)
                    p.pit[j] = (uint8_t)nk_rng_below(&rng, 30);
            nk_pos q = p, m = p;
            q.side ^= 1u;
            for (int j = 0; j < NK_PITS; j++)
                m.pit[j] = p.pit[(j + NK_ROW) % NK_PITS];
            m.store[0] = p.store[1];
            m.store[1] = p.store[0];
            double a = nk_eval_score(&e, &p), b = nk_eval_score(&e, &q), c = nk_eval_score(&e, &m);
            nonzero += a != 0.0;
            if (b != -a || c != -a) {
                char text[NK_POS_TEXT];
                nk_pos_format(&p, text);
                fail_msg("%s in '%s': %.17g, %.17g with the other side to move, %.17g mirrored",
                         layouts[k], text, a, b, c);
            }
        }
        assert_true(nonzero > 400); /* the check saw real values */
        nk_eval_free(&e);
    }
}

/* A ring item and the same twelve tuples given pit by pit index the same
 * weights (the ring's indices by Horner, the tuples' by strides) and sum
 * in the same order: the same value to the bit. */
static void test_ring_equals_tuples(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    static const char *pairs[][2] = {
        {"ntuple:layout=ring3:cap=5",
         "ntuple:cap=5:layout=0-1-2+1-2-3+2-3-4+3-4-5+4-5-6+5-6-7+6-7-8+7-8-9+8-9-10+9-10-11+"
         "10-11-0+11-0-1"},
        {"ntuple:layout=ring1:cap=9", "ntuple:cap=9:layout=0+1+2+3+4+5+6+7+8+9+10+11"},
    };
    for (size_t k = 0; k < 2; k++) {
        nk_eval a, b;
        char err[256];
        assert_int_equal(nk_eval_setup(&a, v, pairs[k][0], NULL, 0, err, sizeof err), NK_OK);
        assert_int_equal(nk_eval_setup(&b, v, pairs[k][1], NULL, 0, err, sizeof err), NK_OK);
        assert_int_equal(a.nt->count, b.nt->count);
        assert_int_equal(a.nt->nrings, 1);
        assert_int_equal(b.nt->nloose, 12);
        nk_rng rng = {k + 3};
        for (size_t i = 0; i < a.nt->count; i++)
            a.tw[i] = b.tw[i] = (double)nk_rng_below(&rng, 1u << 20) / (1 << 16) - 8.0;
        for (int i = 0; i < 300; i++) {
            nk_pos p = random_pos(v, &rng);
            if (i % 3 == 0)
                for (int j = 0; j < NK_PITS; j++)
                    p.pit[j] = (uint8_t)nk_rng_below(&rng, 14);
            double x = nk_eval_score(&a, &p), y = nk_eval_score(&b, &p);
            if (x != y)
                fail_msg("%s: %.17g, pit by pit %.17g", pairs[k][0], x, y);
        }
        nk_eval_free(&a);
        nk_eval_free(&b);
    }
}

/* ===== weights files ===== */

static void test_weights_file(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    char path[] = "/tmp/nk_test_ntuple_XXXXXX";
    const char *features = "ntuple:layout=ring2:cap=3"; /* 1 + 12 * 16 = 193 weights */
    double w[193];
    weights_file_write(path, features, w, 193, 3e7);
    weights_file_plays(features, path, v, w, 193);
    /* The same file for a family of another length: refused, naming both. */
    weights_file_refused("ntuple:layout=ring2:cap=2", path, v, "more than 109 weights");
    weights_file_refused("ntuple:layout=ring2:cap=4", path, v,
                         "193 weights, but family 'ntuple:layout=ring2:cap=4' needs 301");
    /* A linear set still takes at most NK_MAX_FEATURES. */
    char spec[512], err[512];
    snprintf(spec, sizeof spec, "ab:depth=2,features=positional,weights=%s", path);
    nk_player_def def;
    assert_int_equal(nk_playerio_load(&def, spec, v, err, sizeof err), NK_EINVAL);
    unlink(path);
    nk_eval_shared_free_all();
}

/* The summary `inspect` prints for a long genome. */
static void test_weights_summary(void **state)
{
    (void)state;
    const double w[] = {0.5, -2.0, 0.0, 3.0, 0.0, -0.5};
    nk_weights_summary s;
    nk_eval_weights_summary(w, 6, &s);
    assert_int_equal(s.n, 6);
    assert_int_equal(s.zeros, 2);
    assert_int_equal(s.argmin, 1);
    assert_int_equal(s.argmax, 3);
    assert_true(s.min == -2.0 && s.max == 3.0);
    assert_true(s.mean == 1.0 / 6.0);     /* (0.5 - 2 + 3 - 0.5) / 6 */
    assert_true(s.mean_abs == 6.0 / 6.0); /* (0.5 + 2 + 3 + 0.5) / 6 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_good),        cmocka_unit_test(test_layout_bad),
        cmocka_unit_test(test_value_by_hand),      cmocka_unit_test(test_antisymmetry),
        cmocka_unit_test(test_ring_equals_tuples), cmocka_unit_test(test_weights_file),
        cmocka_unit_test(test_weights_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
