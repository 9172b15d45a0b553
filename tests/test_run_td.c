/*
 * test_run_td.c -- self-play TD learning (run/td.h):
 *   - the episode update (nk_td_trace) by hand, and on a small case whose
 *     fixed point is known: TD(lambda) with linear function approximation
 *     on a five-state random walk, whose fixed point solves
 *     A w = b, A = Phi' D (I - lambda P)^-1 (I - P) Phi,
 *     b = Phi' D (I - lambda P)^-1 r (D: the expected visits of an episode),
 *     computed here with GSL, for lambda 0, 1/2 and 1 (features that cannot
 *     represent the true values, so the three fixed points differ);
 *   - TD-Leaf's leaf (nk_td_leaf): known leaves of depth 1 and 2, a leaf
 *     where the variation ends the game, and on random positions the
 *     leaf's evaluation equal to the search's score;
 *   - the learner: the same weights for 1 and 2 threads, a restored run
 *     equal to the uninterrupted one, linear and n-tuple evaluations, and
 *     bad settings refused with the key named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>

#include "base/alloc.h"
#include "base/rng.h"
#include "run/settings.h"
#include "run/td.h"
#include "search/eval.h"
#include "search/search.h"

/* |a - b| <= tol (this cmocka has no assert_double_equal). */
#define assert_near(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

/* ===== the episode update ===== */

/* dim 1, lambda 1/2: y0 = 0.2 (g 1), y1 = 0.5 (g 2), end 1.
 * e0 = 1, d0 = 0.3, dw = 0.3; e1 = 0.5 + 2 = 2.5, d1 = 0.5, dw = 1.55. */
static void test_trace_by_hand(void **state)
{
    (void)state;
    nk_td_trace t;
    assert_int_equal(nk_td_trace_alloc(&t, 1), NK_OK);
    nk_td_trace_begin(&t, 0.5);
    const uint32_t zero[1] = {0};
    assert_int_equal(nk_td_trace_step(&t, 0.2, zero, (const double[]){1}, 1), NK_OK);
    assert_int_equal(nk_td_trace_step(&t, 0.5, zero, (const double[]){2}, 1), NK_OK);
    nk_td_trace_end(&t, 1.0);
    assert_near(t.dw[0], 1.55, 1e-15);
    assert_near(t.sq, 0.09 + 0.25, 1e-15);
    assert_int_equal(t.steps, 2);
    /* begin starts afresh; a position without gradient adds only its error */
    nk_td_trace_begin(&t, 0.0);
    assert_int_equal(nk_td_trace_step(&t, 0.0, zero, (const double[]){1}, 1), NK_OK);
    assert_int_equal(nk_td_trace_step(&t, 0.25, NULL, NULL, 0), NK_OK);
    nk_td_trace_end(&t, -1.0);
    assert_near(t.dw[0], 0.25, 1e-15); /* lambda 0: only d0 = 0.25 along g0 */
    assert_near(t.sq, 0.0625 + 1.5625, 1e-15);
    /* entries of one index add up; a long episode grows the store: dim 3,
     * 3000 positions of y = 0 with entries (2: 1, 2: 1) and (0: 0.5), end 1,
     * lambda 1: every G_t = 1, dw = (3000 * 0.5, 0, 3000 * 2) */
    nk_td_trace_free(&t);
    assert_int_equal(nk_td_trace_alloc(&t, 3), NK_OK);
    nk_td_trace_begin(&t, 1.0);
    for (int k = 0; k < 3000; k++)
        assert_int_equal(nk_td_trace_step(&t, 0.0, (const uint32_t[]){2, 2, 0},
                                          (const double[]){1, 1, 0.5}, 3),
                         NK_OK);
    nk_td_trace_end(&t, 1.0);
    assert_true(t.dw[0] == 1500.0 && t.dw[1] == 0.0 && t.dw[2] == 6000.0);
    assert_int_equal(t.steps, 3000);
    nk_td_trace_free(&t);
}

enum { RW_N = 5, RW_D = 2, RW_START = 2 };

/* The features of state s: 1 and (s/4)^2 (the true values (s + 1)/6 are
 * linear in s, which these cannot give). */
static void rw_phi(int s, double *phi)
{
    phi[0] = 1.0;
    phi[1] = (s / 4.0) * (s / 4.0);
}

/* The TD(lambda) fixed point of the walk, by GSL. */
static void rw_fixed_point(double lambda, double w[RW_D])
{
    gsl_matrix *P = gsl_matrix_calloc(RW_N, RW_N), *M = gsl_matrix_alloc(RW_N, RW_N),
               *Minv = gsl_matrix_alloc(RW_N, RW_N), *IP = gsl_matrix_alloc(RW_N, RW_N);
    gsl_permutation *perm = gsl_permutation_alloc(RW_N);
    double r[RW_N] = {0}, d[RW_N], phi[RW_N][RW_D];
    int sign;
    for (int s = 0; s < RW_N; s++) {
        if (s > 0)
            gsl_matrix_set(P, s, s - 1, 0.5);
        if (s < RW_N - 1)
            gsl_matrix_set(P, s, s + 1, 0.5);
        rw_phi(s, phi[s]);
    }
    r[RW_N - 1] = 0.5; /* the step right of the last state pays 1 */
    /* d = start' (I - P)^-1: the expected visits of each state */
    gsl_matrix_set_identity(IP);
    gsl_matrix_sub(IP, P);
    gsl_matrix_memcpy(M, IP);
    gsl_linalg_LU_decomp(M, perm, &sign);
    gsl_linalg_LU_invert(M, perm, Minv);
    for (int s = 0; s < RW_N; s++)
        d[s] = gsl_matrix_get(Minv, RW_START, s);
    /* (I - lambda P)^-1 */
    gsl_matrix_set_identity(M);
    for (int i = 0; i < RW_N; i++)
        for (int j = 0; j < RW_N; j++)
            gsl_matrix_set(M, i, j, gsl_matrix_get(M, i, j) - lambda * gsl_matrix_get(P, i, j));
    gsl_linalg_LU_decomp(M, perm, &sign);
    gsl_linalg_LU_invert(M, perm, Minv);
    /* A = Phi' D Minv IP Phi, b = Phi' D Minv r */
    double MIPphi[RW_N][RW_D] = {{0}}, Mr[RW_N] = {0};
    for (int i = 0; i < RW_N; i++)
        for (int k = 0; k < RW_N; k++) {
            double mik = gsl_matrix_get(Minv, i, k);
            Mr[i] += mik * r[k];
            for (int l = 0; l < RW_N; l++)
                for (int j = 0; j < RW_D; j++)
                    MIPphi[i][j] += mik * gsl_matrix_get(IP, k, l) * phi[l][j];
        }
    gsl_matrix *A = gsl_matrix_calloc(RW_D, RW_D);
    gsl_vector *b = gsl_vector_calloc(RW_D), *x = gsl_vector_alloc(RW_D);
    gsl_permutation *p2 = gsl_permutation_alloc(RW_D);
    for (int i = 0; i < RW_N; i++)
        for (int a = 0; a < RW_D; a++) {
            b->data[a] += phi[i][a] * d[i] * Mr[i];
            for (int j = 0; j < RW_D; j++)
                gsl_matrix_set(A, a, j, gsl_matrix_get(A, a, j) + phi[i][a] * d[i] * MIPphi[i][j]);
        }
    gsl_linalg_LU_decomp(A, p2, &sign);
    gsl_linalg_LU_solve(A, p2, b, x);
    w[0] = x->data[0];
    w[1] = x->data[1];
    gsl_matrix_free(P);
    gsl_matrix_free(M);
    gsl_matrix_free(Minv);
    gsl_matrix_free(IP);
    gsl_matrix_free(A);
    gsl_vector_free(b);
    gsl_vector_free(x);
    gsl_permutation_free(perm);
    gsl_permutation_free(p2);
}

/* TD(lambda) on the walk through nk_td_trace, episode after episode at a
 * constant rate, the update added as the learner adds one; into w the mean
 * of the weights over the second half of the episodes (Polyak-Ruppert
 * averaging: the update is linear in w, so the mean of the iterates
 * converges to the fixed point itself, with no bias from the rate). */
static void rw_learn(double lambda, long episodes, double w[RW_D])
{
    nk_td_trace t;
    assert_int_equal(nk_td_trace_alloc(&t, RW_D), NK_OK);
    nk_rng rng = {12345};
    double cur[RW_D] = {0, 0}, sum[RW_D] = {0, 0};
    for (long k = 0; k < episodes; k++) {
        nk_td_trace_begin(&t, lambda);
        int s = RW_START;
        while (s >= 0 && s < RW_N) {
            double phi[RW_D];
            rw_phi(s, phi);
            nk_td_trace_step(&t, cur[0] * phi[0] + cur[1] * phi[1], (const uint32_t[]){0, 1}, phi,
                             RW_D);
            s += nk_rng_below(&rng, 2) ? 1 : -1;
        }
        nk_td_trace_end(&t, s == RW_N ? 1.0 : 0.0);
        for (int j = 0; j < RW_D; j++) {
            cur[j] += 0.01 * t.dw[j];
            if (k >= episodes / 2)
                sum[j] += cur[j];
        }
    }
    for (int j = 0; j < RW_D; j++)
        w[j] = sum[j] / (double)(episodes - episodes / 2);
    nk_td_trace_free(&t);
}

static void test_random_walk_fixed_point(void **state)
{
    (void)state;
    const double lambdas[3] = {0.0, 0.5, 1.0};
    double fp[3][RW_D];
    for (int i = 0; i < 3; i++) {
        double w[RW_D];
        rw_fixed_point(lambdas[i], fp[i]);
        rw_learn(lambdas[i], 2000000, w);
        for (int j = 0; j < RW_D; j++)
            if (fabs(w[j] - fp[i][j]) > 0.003)
                fail_msg("lambda %g: weight %d learnt %.5f, fixed point %.5f", lambdas[i], j,
                         w[j], fp[i][j]);
    }
    /* the fixed points differ by far more than the tolerance: the check
     * tells lambda's apart */
    for (int i = 0; i < 2; i++)
        assert_true(fabs(fp[i][0] - fp[i + 1][0]) > 0.025 && fabs(fp[i][1] - fp[i + 1][1]) > 0.025);
    /* lambda 1 is Monte Carlo: the least-squares fit of the true values
     * (s + 1) / 6 weighted by the visits d = (1, 2, 3, 2, 1), by the
     * normal equations */
    double m[2][2] = {{0}}, v[2] = {0};
    for (int s = 0; s < RW_N; s++) {
        double phi[RW_D], d = s <= 2 ? s + 1 : RW_N - s;
        rw_phi(s, phi);
        for (int a = 0; a < 2; a++) {
            v[a] += d * phi[a] * (s + 1) / 6.0;
            for (int b = 0; b < 2; b++)
                m[a][b] += d * phi[a] * phi[b];
        }
    }
    double det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    assert_near(fp[2][0], (m[1][1] * v[0] - m[0][1] * v[1]) / det, 1e-12);
    assert_near(fp[2][1], (m[0][0] * v[1] - m[1][0] * v[0]) / det, 1e-12);
}

/* ===== the principal variation's leaf ===== */

static nk_game *game_at(const char *variant, const char *text)
{
    nk_game *g = malloc(sizeof *g);
    nk_pos p;
    char err[256];
    assert_non_null(g);
    if (nk_pos_parse(&p, text, err, sizeof err) != NK_OK)
        fail_msg("bad test position '%s': %s", text, err);
    assert_int_equal(nk_game_init(g, nk_variant_find(variant), &p, 1000), NK_OK);
    return g;
}

static nk_search *material_search(const nk_variant *v)
{
    nk_eval e;
    nk_search *s;
    char err[256];
    assert_int_equal(nk_eval_setup(&e, v, "material", NULL, 0, err, sizeof err), NK_OK);
    assert_int_equal(nk_search_new(&s, &e, 0), NK_OK);
    return s;
}

/* South's f (1 seed) makes North's A 3 and captures them; after it North
 * has one move, F (its one seed into South's a).  Material: f is best at
 * depth 1 (+3) and at depth 2 (+2 after F; e gives -1). */
static void test_leaf_known(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_search *s = material_search(v);
    nk_game *g = game_at("abapa", "0,0,0,0,3,1/2,0,0,0,0,1 20-21 S");
    nk_game *leaf = malloc(sizeof *leaf);
    assert_non_null(leaf);
    char text[NK_POS_TEXT];
    int move;
    nk_td_leaf(s, g, 1, leaf, &move);
    assert_int_equal(move, 5);
    assert_false(nk_game_over(leaf));
    nk_pos_format(&leaf->pos, text);
    assert_string_equal(text, "0,0,0,0,3,0/0,0,0,0,0,1 23-21 N");
    nk_td_leaf(s, g, 2, leaf, &move);
    assert_int_equal(move, 5);
    nk_pos_format(&leaf->pos, text);
    assert_string_equal(text, "1,0,0,0,3,0/0,0,0,0,0,0 23-21 S");
    assert_int_equal(leaf->ply, 2);
    /* the root game is left as it was */
    assert_int_equal(g->ply, 0);
    /* the capture that wins the game (25 of 48): the leaf is the end, at
     * depth 1 and at depth 3 alike */
    nk_game *w = game_at("abapa", "0,0,0,0,3,1/2,0,0,0,0,1 22-19 S");
    for (unsigned d = 1; d <= 3; d += 2) {
        nk_td_leaf(s, w, d, leaf, &move);
        assert_int_equal(move, 5);
        assert_true(nk_game_over(leaf));
        assert_int_equal(leaf->result.winner, NK_SOUTH);
        assert_int_equal(leaf->ply, 1);
    }
    free(w);
    free(leaf);
    free(g);
    nk_search_free(s);
}

/* On positions of random games: the leaf of depth d, evaluated from the
 * root mover's view (or its exact result when the variation ends the
 * game), is the score of the root's search. */
static void test_leaf_value_is_search_score(void **state)
{
    (void)state;
    static const char *variants[] = {"abapa", "antigua", "adjikui"};
    for (size_t k = 0; k < 3; k++) {
        const nk_variant *v = nk_variant_find(variants[k]);
        nk_eval e;
        char err[256];
        assert_int_equal(nk_eval_setup(&e, v, "", NULL, 0, err, sizeof err), NK_OK);
        nk_search *s;
        assert_int_equal(nk_search_new(&s, &e, 0), NK_OK);
        nk_game *g = malloc(sizeof *g), *leaf = malloc(sizeof *leaf);
        assert_non_null(g);
        assert_non_null(leaf);
        nk_rng rng = {77 + k};
        int checked = 0, ended = 0;
        for (int i = 0; i < 60; i++) {
            nk_pos start;
            nk_pos_start(&start, NK_SOUTH);
            assert_int_equal(nk_game_init(g, v, &start, 1000), NK_OK);
            unsigned plies = nk_rng_below(&rng, 70);
            for (unsigned p = 0; p < plies && !nk_game_over(g); p++)
                nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
            if (nk_game_over(g))
                continue;
            unsigned depth = 1 + (unsigned)(i % 4);
            nk_search_limits lim = {.depth = depth};
            nk_search_result r;
            nk_search_best(s, g, &lim, &r);
            int move;
            nk_td_leaf(s, g, depth, leaf, &move);
            assert_int_equal(move, r.move);
            double sign = leaf->pos.side == g->pos.side ? 1.0 : -1.0, value;
            if (nk_game_over(leaf)) {
                value = sign * nk_eval_terminal(v, &leaf->pos, leaf->result.reason);
                ended++;
            } else {
                value = sign * nk_eval_score(&e, &leaf->pos);
                assert_int_equal(leaf->ply, g->ply + depth);
            }
            if (value != r.score)
                fail_msg("%s, depth %u: leaf value %.17g, search score %.17g", v->name, depth,
                         value, r.score);
            checked++;
        }
        assert_true(checked > 30);
        (void)ended;
        nk_search_free(s);
        free(g);
        free(leaf);
    }
}

/* ===== the learner ===== */

static void small_settings(nk_run_settings *s, const char *features)
{
    nk_run_settings_defaults(s);
    s->experiment.variant = "abapa";
    s->experiment.seed = 11;
    s->experiment.generations = 3;
    s->player.features = features;
    s->player.depth = 2;
    s->benchmark.every = 5;
    s->benchmark.games = 2;
    s->benchmark.opponents = "random";
    s->td.games = 6;
    s->td.batch = 4;
    s->td.alpha = 0.02;
}

/* Runs s to its end from the checkpoint c (NULL: the start) on threads;
 * the weights after each generation into w[g * dim ...], the fitness into
 * f[g]. */
static size_t run_td(const nk_run_settings *s, int threads, const nk_td_checkpoint *c, double *w,
                     double *f)
{
    nk_td *t;
    char err[1024];
    if (nk_td_alloc(&t, s, NULL, threads, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    if (c != NULL && nk_td_restore(t, c, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    const size_t dim = nk_td_shape_of(t)->dim;
    while (!nk_td_done(t)) {
        if (nk_td_iterate(t, err, sizeof err) != NK_OK)
            fail_msg("%s", err);
        const nk_td_record *r = nk_td_record_of(t);
        memcpy(w + r->generation * dim, r->w, dim * sizeof *w);
        f[r->generation] = r->fitness;
        assert_true(r->champion[0] == r->generation);
        assert_memory_equal(r->champion + 1, r->w, dim * sizeof *w);
        assert_int_equal(r->stats.games, s->td.games);
        assert_int_equal(r->south_wins + r->north_wins + (uint64_t)r->draws, s->td.games);
        assert_int_equal(r->benchmarked, r->generation != 1);
    }
    nk_td_free(t);
    return dim;
}

/* The same weights on 1 and 2 threads, and after a restore from the
 * weights of generation 2; and learning moved them. */
static void check_family(const char *features, size_t want_dim)
{
    nk_run_settings s;
    small_settings(&s, features);
    enum { MAXW = 3 * 200 };
    double w1[MAXW], w2[MAXW], wr[MAXW], f1[3], f2[3], fr[3];
    size_t dim = run_td(&s, 1, NULL, w1, f1);
    assert_int_equal(dim, want_dim);
    assert_int_equal(run_td(&s, 2, NULL, w2, f2), dim);
    assert_memory_equal(w1, w2, 3 * dim * sizeof *w1);
    assert_memory_equal(f1, f2, sizeof f1);
    nk_td_checkpoint c = {.done = 2, .w = w1 + dim, .n = dim};
    run_td(&s, 2, &c, wr, fr);
    assert_memory_equal(wr + 2 * dim, w1 + 2 * dim, dim * sizeof *w1);
    assert_true(fr[2] == f1[2]);
    size_t moved = 0;
    for (size_t j = 0; j < dim; j++)
        moved += w1[2 * dim + j] != 0.0;
    assert_true(moved > 0);
    assert_true(f1[0] < 0);
}

static void test_learner_positional(void **state)
{
    (void)state;
    check_family("positional", 9);
}

static void test_learner_ntuple(void **state)
{
    (void)state;
    check_family("ntuple:layout=ring2:cap=3", 1 + 12 * 16);
}

/* TD(lambda) without the leaf, the inverse rate and the seed margin. */
static void test_learner_variants(void **state)
{
    (void)state;
    nk_run_settings s;
    small_settings(&s, "material");
    s.td.leaf = false;
    s.td.squash = "none";
    s.td.alpha = 0.001;
    s.td.alpha_schedule = "inverse";
    s.td.alpha_games = 3;
    s.td.start = "defaults";
    double w[3], f[3];
    assert_int_equal(run_td(&s, 2, NULL, w, f), 1);
    assert_true(w[2] != 1.0); /* from the default 1, moved */
    nk_td *t;
    char err[1024];
    assert_int_equal(nk_td_alloc(&t, &s, NULL, 1, err, sizeof err), NK_OK);
    assert_string_equal(nk_td_shape_of(t)->method, "td-lambda");
    assert_string_equal(nk_td_shape_of(t)->names[0], "store_diff");
    nk_td_free(t);
}

static void test_bad_settings(void **state)
{
    (void)state;
    static const struct {
        const char *what, *key;
    } cases[] = {
        {"alpha", "td.alpha"},       {"alpha0", "td.alpha"},           {"lambda", "td.lambda"},
        {"features", "player.features"}, {"view", "player.view"},
        {"family", "player.features"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nk_run_settings s;
        small_settings(&s, "positional");
        if (strcmp(cases[i].what, "alpha") == 0)
            s.td.alpha = -0.1;
        else if (strcmp(cases[i].what, "alpha0") == 0)
            s.td.alpha = 0;
        else if (strcmp(cases[i].what, "lambda") == 0)
            s.td.lambda = 1.5;
        else if (strcmp(cases[i].what, "features") == 0)
            s.player.features = "nosuchset";
        else if (strcmp(cases[i].what, "view") == 0)
            s.player.view = "root";
        else
            s.player.features = "ntuple:layout=0-12";
        nk_td *t = NULL;
        char err[1024] = "";
        nk_status st = nk_td_alloc(&t, &s, NULL, 1, err, sizeof err);
        assert_true(st == NK_EINVAL || st == NK_ERANGE);
        assert_null(t);
        if (strncmp(err, cases[i].key, strlen(cases[i].key)) != 0 &&
            strstr(err, cases[i].key) == NULL)
            fail_msg("%s: '%s' does not name %s", cases[i].what, err, cases[i].key);
    }
}

/* Every allocation of making the learner, and of a generation (the
 * n-tuple network's evaluation, the search, the trace's store, the
 * benchmark's games), failing in turn gives NK_ENOMEM and no record; the
 * learner is freed whole (the sanitizer build checks the leaks). */
static void test_out_of_memory(void **state)
{
    (void)state;
    nk_run_settings s;
    small_settings(&s, "ntuple:layout=ring2:cap=3");
    s.experiment.generations = 1;
    s.td.games = 2;
    s.benchmark.every = 1;
    char err[1024];
    nk_td *t = NULL;
    for (int phase = 0; phase < 2; phase++) {
        nk_alloc_fail_at(0);
        if (phase == 1)
            assert_int_equal(nk_td_alloc(&t, &s, NULL, 1, err, sizeof err), NK_OK);
        unsigned long before = nk_alloc_count();
        nk_status st = phase == 0 ? nk_td_alloc(&t, &s, NULL, 1, err, sizeof err)
                                  : nk_td_iterate(t, err, sizeof err);
        assert_int_equal(st, NK_OK);
        unsigned long count = nk_alloc_count() - before;
        nk_td_free(t);
        assert_true(count > 3);
        for (unsigned long n = 1; n <= count; n++) {
            t = NULL;
            if (phase == 1)
                assert_int_equal(nk_td_alloc(&t, &s, NULL, 1, err, sizeof err), NK_OK);
            nk_alloc_fail_at(n);
            st = phase == 0 ? nk_td_alloc(&t, &s, NULL, 1, err, sizeof err)
                            : nk_td_iterate(t, err, sizeof err);
            nk_alloc_fail_at(0);
            if (st != NK_ENOMEM)
                fail_msg("phase %d: allocation %lu of %lu failed: status %d (%s)", phase, n, count,
                         (int)st, err);
            if (phase == 0)
                assert_null(t);
            else
                assert_null(nk_td_record_of(t));
            nk_td_free(t);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_by_hand),
        cmocka_unit_test(test_random_walk_fixed_point),
        cmocka_unit_test(test_leaf_known),
        cmocka_unit_test(test_leaf_value_is_search_score),
        cmocka_unit_test(test_learner_positional),
        cmocka_unit_test(test_learner_ntuple),
        cmocka_unit_test(test_learner_variants),
        cmocka_unit_test(test_bad_settings),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
