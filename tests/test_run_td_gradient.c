/*
 * test_run_td_gradient.c -- nk_eval_gradient (src/search/eval.c), the
 * gradient the TD learner (src/run/td.c) follows: checked against central
 * finite differences of nk_eval_score on random positions with random
 * weights, for every linear set that suits the variant and for n-tuple
 * layouts (rings, loose tuples, a cap that clips), with its entries
 * (nk_eval_gradient_entries) adding up to it; and by hand on one
 * position.
 *
 * Both families are linear in their weights, so a central difference of
 * step h is exact up to rounding: the tolerance is a rounding bound, not a
 * truncation one, and a gradient entry off by one (a wrong table entry, a
 * sign) fails it by far.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/rng.h"
#include "search/eval.h"

/* A random position of a random game of v (lapping pits now and then). */
static nk_pos random_pos(const nk_variant *v, nk_rng *rng, int i)
{
    nk_pos p;
    nk_pos_start(&p, (int)nk_rng_below(rng, 2));
    unsigned plies = nk_rng_below(rng, 80);
    for (unsigned j = 0; j < plies && nk_pos_end(v, &p) == NK_END_NONE; j++) {
        nk_pos child;
        if (nk_random_child(v, &p, rng, &child, NULL) == NK_NO_MOVE)
            break;
        p = child;
    }
    if (i % 7 == 0)
        for (int j = 0; j < NK_PITS; j++)
            p.pit[j] = (uint8_t)nk_rng_below(rng, 30);
    return p;
}

/* Sets weight i of e to x. */
static void set_weight(nk_eval *e, size_t i, double x)
{
    if (e->nt != NULL)
        e->tw[i] = x;
    else
        e->w[i] = x;
}

/* The gradient of e against central differences at `positions` random
 * positions of v; returns the number of nonzero gradient entries seen. */
static size_t check_fd(nk_eval *e, const nk_variant *v, unsigned seed, int positions,
                       const char *what)
{
    const double *w0;
    size_t n = nk_eval_weights(e, &w0), nonzero = 0;
    double *w = malloc(n * sizeof *w), *g = malloc(n * sizeof *g), *val = malloc(n * sizeof *val),
           *sum = malloc(n * sizeof *sum);
    uint32_t *idx = malloc(n * sizeof *idx);
    assert_true(w != NULL && g != NULL && val != NULL && sum != NULL && idx != NULL);
    nk_rng rng = {seed};
    for (size_t i = 0; i < n; i++) { /* weights in [-1, 1): values far below the clamp */
        w[i] = (double)nk_rng_below(&rng, 1u << 20) / (1 << 19) - 1.0;
        set_weight(e, i, w[i]);
    }
    const double h = 0.5;
    for (int k = 0; k < positions; k++) {
        nk_pos p = random_pos(v, &rng, k);
        nk_eval_gradient(e, &p, g);
        /* every entry for the small families; a sample of the large ones,
         * always with every entry the gradient says is nonzero */
        for (size_t i = 0; i < n; i++) {
            if (n > 64 && g[i] == 0.0 && nk_rng_below(&rng, 64) != 0)
                continue;
            set_weight(e, i, w[i] + h);
            double up = nk_eval_score(e, &p);
            set_weight(e, i, w[i] - h);
            double down = nk_eval_score(e, &p);
            set_weight(e, i, w[i]);
            double fd = (up - down) / (2 * h);
            if (fabs(fd - g[i]) > 1e-9 * (1 + fabs(g[i]))) {
                char text[NK_POS_TEXT];
                nk_pos_format(&p, text);
                fail_msg("%s at '%s': weight %zu: gradient %.17g, finite difference %.17g", what,
                         text, i, g[i], fd);
            }
            nonzero += g[i] != 0.0;
        }
        /* the entries add up to the gradient, index by index */
        size_t m = nk_eval_gradient_entries(e, &p, idx, val);
        assert_true(m <= n);
        memset(sum, 0, n * sizeof *sum);
        for (size_t q = 0; q < m; q++)
            sum[idx[q]] += val[q];
        assert_memory_equal(sum, g, n * sizeof *g);
        if (e->nt != NULL)
            assert_true(m <= 1 + 2 * e->nt->ntuples);
    }
    free(w);
    free(g);
    free(val);
    free(sum);
    free(idx);
    return nonzero;
}

static void test_linear_sets(void **state)
{
    (void)state;
    static const char *variants[] = {"abapa", "antigua", "adjikui"};
    for (size_t k = 0; k < 3; k++) {
        const nk_variant *v = nk_variant_find(variants[k]);
        size_t checked = 0;
        for (size_t s = 0; s < nk_features_count(); s++) {
            const nk_feature_set *set = nk_features_at(s);
            char err[256], what[128];
            nk_eval e;
            if (nk_eval_setup(&e, v, set->name, NULL, 0, err, sizeof err) != NK_OK)
                continue; /* the set does not suit the variant */
            snprintf(what, sizeof what, "%s in %s", set->name, v->name);
            size_t nonzero = check_fd(&e, v, 7u + (unsigned)s, 200, what);
            assert_true(nonzero > 0);
            nk_eval_free(&e);
            checked++;
        }
        assert_true(checked >= 2);
    }
}

static void test_ntuple_layouts(void **state)
{
    (void)state;
    static const char *layouts[] = {"ntuple:layout=ring2:cap=3", "ntuple",
                                    "ntuple:layout=ring2+ring3+0-6-11:cap=4",
                                    "ntuple:layout=5+0-1:cap=1"};
    const nk_variant *v = nk_variant_find("abapa");
    for (size_t k = 0; k < 4; k++) {
        nk_eval e;
        char err[256];
        assert_int_equal(nk_eval_setup(&e, v, layouts[k], NULL, 0, err, sizeof err), NK_OK);
        size_t nonzero = check_fd(&e, v, 31u + (unsigned)k, 60, layouts[k]);
        assert_true(nonzero > 60); /* the store term and table entries */
        nk_eval_free(&e);
    }
}

/* One position by hand: board 4,4,4,4,4,0 / 5,5,5,5,2,2, stores 1 (South)
 * and 3 (North), North to move.  ring1 with cap 3: twelve one-pit
 * tuples, tables of 4 entries, weight vector 1 + 48.  North's view starts
 * at board pit 6: its pit j is board pit (6 + j) mod 12.  Tuple s looks up
 * entry min(n, 3) of pit s of the mover's view (+1) and of pit s + 6 of it
 * (the opponent's pit s, -1). */
static void test_by_hand(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_pos p;
    char err[256];
    assert_int_equal(nk_pos_parse(&p, "4,4,4,4,4,0/5,5,5,5,2,2 1-3 N", err, sizeof err), NK_OK);
    nk_eval e;
    assert_int_equal(nk_eval_setup(&e, v, "ntuple:layout=ring1:cap=3", NULL, 0, err, sizeof err),
                     NK_OK);
    assert_int_equal(e.nt->count, 49);
    double g[49], want[49] = {0};
    nk_eval_gradient(&e, &p, g);
    /* North's view: pits 0..5 = board 6..11 = 5,5,5,5,2,2 (capped: 3,3,3,3,2,2);
     * pits 6..11 = board 0..5 = 4,4,4,4,4,0 (3,3,3,3,3,0). */
    const int board[12] = {4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 2, 2};
    for (int s = 0; s < 12; s++) {
        int mine = board[(6 + s) % 12], theirs = board[s % 12];
        want[1 + 4 * s + (mine < 3 ? mine : 3)] += 1;
        want[1 + 4 * s + (theirs < 3 ? theirs : 3)] -= 1;
    }
    want[0] = 3 - 1; /* North's store less South's */
    for (int i = 0; i < 49; i++)
        assert_true(g[i] == want[i]);
    assert_true(g[0] == 2.0);
    /* tuple 5 (mover's pit 5 = board 11, 2 seeds: entry 2) against the
     * opponent's pit 5 (board 5, empty: entry 0) */
    assert_true(g[1 + 4 * 5 + 2] == 1.0 && g[1 + 4 * 5 + 0] == -1.0);
    /* tuple 0: 5 seeds against 4, both capped to entry 3: they cancel */
    assert_true(g[1 + 3] == 0.0);
    nk_eval_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_sets),
        cmocka_unit_test(test_ntuple_layouts),
        cmocka_unit_test(test_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
