/*
 * test_run_tune.c -- supervised tuning (run/tune.h): the solvers recover
 * known weights from labels made by a known evaluation (least squares
 * exactly, logistic within a tolerance), a tuning of positional weights on
 * the one-seed-a-pit database (abapa to 12 seeds) grades better than the
 * zero weights it starts from, it gives the same records for any thread
 * count and the same positions every time, and bad settings are refused
 * with the key named.
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

#include "base/alloc.h"
#include "base/rng.h"
#include "run/settings.h"
#include "run/tune.h"
#include "search/features.h"
#include "tb/tb.h"

/* ===== the fit of data ===== */

enum { N = 600, D = 5 };
static const double TRUTH[D] = {0.8, -0.5, 0.3, 0.0, 1.2};

/* Feature rows: small integers as a feature set gives (uniform in
 * -4..4), one column a constant; labels from TRUTH, plus noise of the
 * given size (uniform in +-noise). */
static void synthetic(double *x, double *y, bool logistic, double noise, uint64_t seed)
{
    nk_rng rng = {seed};
    for (size_t i = 0; i < N; i++) {
        double e = 0;
        for (size_t j = 0; j < D; j++) {
            x[i * D + j] = j == 3 ? 1.0 : (double)(int)(nk_rng_below(&rng, 9)) - 4.0;
            e += TRUTH[j] * x[i * D + j];
        }
        double u = (double)nk_rng_next(&rng) / 18446744073709551616.0 * 2 - 1;
        y[i] = logistic ? 1.0 / (1.0 + exp(-e)) : e;
        y[i] += noise * u;
    }
}

static const double *fit(nk_tune_fit *f, double *cost, unsigned *iterations)
{
    char err[1024];
    unsigned k = 0;
    double before;
    nk_tune_fit_weights(f, &before);
    while (!nk_tune_fit_done(f)) {
        if (nk_tune_fit_iterate(f, err, sizeof err) != NK_OK)
            fail_msg("%s", err);
        double now;
        nk_tune_fit_weights(f, &now);
        assert_true(now <= before + 1e-15); /* the cost never rises */
        before = now;
        k++;
    }
    *iterations = k;
    return nk_tune_fit_weights(f, cost);
}

static void test_least_squares_recovers_known_weights(void **state)
{
    (void)state;
    static double x[N * D], y[N];
    char err[1024];
    unsigned k;
    double cost;
    synthetic(x, y, false, 0.0, 1);
    nk_tune_fit *f = NULL;
    assert_int_equal(nk_tune_fit_alloc(&f, false, x, y, N, D, 50, err, sizeof err), NK_OK);
    const double *w = fit(f, &cost, &k);
    assert_int_equal(k, 1);
    for (size_t j = 0; j < D; j++)
        assert_true(fabs(w[j] - TRUTH[j]) < 1e-9);
    assert_true(cost < 1e-18);
    nk_tune_fit_free(f);
    /* with noise of +-0.5 seeds: within 0.05 of the truth, and the cost
     * near the noise's variance (1/12 of 1^2) */
    synthetic(x, y, false, 0.5, 2);
    assert_int_equal(nk_tune_fit_alloc(&f, false, x, y, N, D, 50, err, sizeof err), NK_OK);
    w = fit(f, &cost, &k);
    for (size_t j = 0; j < D; j++)
        assert_true(fabs(w[j] - TRUTH[j]) < 0.05);
    assert_true(cost > 0.06 && cost < 0.1);
    nk_tune_fit_free(f);
}

static void test_logistic_recovers_known_weights(void **state)
{
    (void)state;
    static double x[N * D], y[N];
    char err[1024];
    unsigned k;
    double cost, start;
    synthetic(x, y, true, 0.0, 3);
    nk_tune_fit *f = NULL;
    assert_int_equal(nk_tune_fit_alloc(&f, true, x, y, N, D, 200, err, sizeof err), NK_OK);
    const double *w0 = nk_tune_fit_weights(f, &start);
    for (size_t j = 0; j < D; j++)
        assert_true(w0[j] == 0);
    const double *w = fit(f, &cost, &k);
    assert_true(k > 1 && k < 200); /* converged, not stopped */
    for (size_t j = 0; j < D; j++)
        if (fabs(w[j] - TRUTH[j]) > 1e-4)
            fail_msg("weight %zu: %g, truth %g", j, w[j], TRUTH[j]);
    assert_true(cost < 1e-12 && start > 0.01);
    nk_tune_fit_free(f);
    /* noisy probabilities (+-0.05): within 0.1 */
    synthetic(x, y, true, 0.05, 4);
    assert_int_equal(nk_tune_fit_alloc(&f, true, x, y, N, D, 200, err, sizeof err), NK_OK);
    w = fit(f, &cost, &k);
    for (size_t j = 0; j < D; j++)
        assert_true(fabs(w[j] - TRUTH[j]) < 0.1);
    nk_tune_fit_free(f);
}

static void test_fit_refuses_too_few_rows(void **state)
{
    (void)state;
    double x[4 * D] = {0}, y[4] = {0};
    char err[1024];
    nk_tune_fit *f = NULL;
    assert_int_equal(nk_tune_fit_alloc(&f, false, x, y, 4, D, 10, err, sizeof err), NK_EINVAL);
    assert_null(f);
    assert_non_null(strstr(err, "4 positions"));
}

/* ===== the tuning, on the one-seed-a-pit database ===== */

static char tb_dir[64];

static int build_db(void **state)
{
    (void)state;
    char err[1024], path[128];
    snprintf(tb_dir, sizeof tb_dir, "%s", "/tmp/nk_test_tuneXXXXXX");
    if (mkdtemp(tb_dir) == NULL)
        return -1;
    const nk_variant *v = nk_variant_find("abapa");
    nk_tb tb;
    if (nk_tb_build(&tb, v, 12, 0, NULL, err, sizeof err) != NK_OK)
        return -1;
    nk_tb_path(tb_dir, v, path, sizeof path);
    nk_status st = nk_tb_write(&tb, path, err, sizeof err);
    nk_tb_close(&tb);
    return st == NK_OK ? 0 : -1;
}

static int remove_db(void **state)
{
    (void)state;
    char path[128];
    nk_tb_path(tb_dir, nk_variant_find("abapa"), path, sizeof path);
    remove(path);
    remove(tb_dir); /* empty: remove() takes it as rmdir() */
    return 0;
}

static void settings(nk_run_settings *s, const char *loss)
{
    nk_run_settings_defaults(s);
    s->experiment.variant = "abapa";
    s->experiment.seed = 9;
    s->player.features = "positional";
    s->player.depth = 2;
    s->tune.tablebase = tb_dir;
    s->tune.loss = loss;
    s->tune.positions = 1500;
    s->tune.grade_positions = 400;
}

/* Runs a tuning to its end; the first and the last record into *first,
 * *last (weights copied into w). */
static unsigned tune(const nk_run_settings *s, int threads, nk_tune_record *first,
                     nk_tune_record *last, double *w)
{
    nk_tune *t = NULL;
    char err[1024];
    if (nk_tune_alloc(&t, s, NULL, threads, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    const nk_tune_shape *sh = nk_tune_shape_of(t);
    assert_int_equal(sh->positions, (size_t)s->tune.positions);
    assert_true(sh->games > 0);
    assert_int_equal(sh->model->dim, nk_features_find("positional")->count);
    /* every label is a result (logistic) or a margin of at most 48 seeds */
    for (size_t i = 0; i < sh->positions; i++) {
        double y;
        nk_tune_sample(t, i, &y);
        if (strcmp(s->tune.loss, "logistic") == 0)
            assert_true(y == 0 || y == 0.5 || y == 1);
        else
            assert_true(fabs(y) <= 48 && y == floor(y));
    }
    unsigned n = 0;
    while (!nk_tune_done(t)) {
        if (nk_tune_iterate(t, err, sizeof err) != NK_OK)
            fail_msg("%s", err);
        const nk_tune_record *r = nk_tune_record_of(t);
        assert_int_equal(r->iteration, n);
        assert_int_equal(r->stats.generation, (int32_t)n);
        assert_true(r->graded == (n == 0 || nk_tune_done(t)));
        if (n == 0)
            *first = *r;
        *last = *r;
        memcpy(w, r->w, sh->model->dim * sizeof *w);
        n++;
    }
    assert_int_equal(nk_tune_iterate(t, err, sizeof err), NK_EINVAL);
    nk_tune_free(t);
    last->w = w;
    return n;
}

static void test_tuned_weights_grade_better_than_zero(void **state)
{
    (void)state;
    const char *const losses[] = {"logistic", "least-squares"};
    for (int k = 0; k < 2; k++) {
        nk_run_settings s;
        nk_tune_record first, last, again_first, again_last;
        double w[NK_MAX_FEATURES], w2[NK_MAX_FEATURES];
        settings(&s, losses[k]);
        unsigned n = tune(&s, 1, &first, &last, w);
        assert_true(n >= 2);
        assert_true(last.cost < 0.9 * first.cost);
        assert_int_equal(first.stats.tb_positions, 400);
        assert_int_equal(last.stats.tb_positions, 400);
        /* the grade's positions are the same for both: the tuned weights
         * lose fewer seeds and play more optimal moves than w = 0 */
        if (!(last.lost[0] < first.lost[0] && last.share[0] > first.share[0]))
            fail_msg("%s: lost %g -> %g, optimal %g -> %g", losses[k], first.lost[0],
                     last.lost[0], first.share[0], last.share[0]);
        /* the same on 3 threads */
        assert_int_equal(tune(&s, 3, &again_first, &again_last, w2), n);
        assert_memory_equal(w, w2, nk_features_find("positional")->count * sizeof *w);
        assert_true(again_last.cost == last.cost);
        assert_memory_equal(&again_last.stats, &last.stats, sizeof last.stats);
    }
}

static void test_bad_settings_name_the_key(void **state)
{
    (void)state;
    nk_run_settings s;
    nk_tune *t = NULL;
    char err[1024];
    settings(&s, "logistic");
    s.tune.tablebase = "";
    assert_int_equal(nk_tune_alloc(&t, &s, NULL, 1, err, sizeof err), NK_EINVAL);
    assert_null(t);
    assert_non_null(strstr(err, "tune.tablebase"));
    settings(&s, "logistic");
    s.tune.tablebase = "/nonexistent/dir";
    assert_int_equal(nk_tune_alloc(&t, &s, NULL, 1, err, sizeof err), NK_ENOFILE);
    assert_non_null(strstr(err, "tune.tablebase"));
    settings(&s, "logistic");
    s.experiment.variant = "antigua"; /* the directory holds abapa's only */
    assert_int_equal(nk_tune_alloc(&t, &s, NULL, 1, err, sizeof err), NK_ENOFILE);
    assert_non_null(strstr(err, "tune.tablebase"));
    settings(&s, "logistic");
    s.tune.reference = "human";
    assert_int_equal(nk_tune_alloc(&t, &s, NULL, 1, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "tune.reference"));
    settings(&s, "logistic");
    s.player.features = "adjikui";
    assert_int_equal(nk_tune_alloc(&t, &s, NULL, 1, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "player.features"));
    settings(&s, "logistic");
    s.tune.positions = 3; /* fewer positions than weights */
    assert_int_equal(nk_tune_alloc(&t, &s, NULL, 1, err, sizeof err), NK_ERANGE);
    assert_non_null(strstr(err, "tune.positions"));
    assert_null(t);
}

/* Every allocation of a tuning (its making and its iterations), made to
 * fail in turn, gives NK_ENOMEM and frees cleanly. */
static void test_out_of_memory_is_reported(void **state)
{
    (void)state;
    nk_run_settings s;
    char err[1024];
    settings(&s, "least-squares");
    s.tune.positions = 60;
    s.tune.grade_positions = 10;
    nk_alloc_fail_at(0);
    unsigned long base = nk_alloc_count();
    nk_tune *t = NULL;
    assert_int_equal(nk_tune_alloc(&t, &s, NULL, 1, err, sizeof err), NK_OK);
    while (!nk_tune_done(t))
        assert_int_equal(nk_tune_iterate(t, err, sizeof err), NK_OK);
    nk_tune_free(t);
    unsigned long count = nk_alloc_count() - base;
    assert_true(count > 5);
    for (unsigned long n = 1; n <= count; n++) {
        t = NULL;
        nk_alloc_fail_at(n);
        nk_status st = nk_tune_alloc(&t, &s, NULL, 1, err, sizeof err);
        while (st == NK_OK && !nk_tune_done(t))
            st = nk_tune_iterate(t, err, sizeof err);
        nk_alloc_fail_at(0);
        if (st != NK_ENOMEM)
            fail_msg("allocation %lu of %lu failed: status %d (%s)", n, count, (int)st, err);
        nk_tune_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest fits[] = {
        cmocka_unit_test(test_least_squares_recovers_known_weights),
        cmocka_unit_test(test_logistic_recovers_known_weights),
        cmocka_unit_test(test_fit_refuses_too_few_rows),
    };
    const struct CMUnitTest tunes[] = {
        cmocka_unit_test(test_tuned_weights_grade_better_than_zero),
        cmocka_unit_test(test_bad_settings_name_the_key),
        cmocka_unit_test(test_out_of_memory_is_reported),
    };
    int failed = cmocka_run_group_tests(fits, NULL, NULL);
    return failed + cmocka_run_group_tests(tunes, build_db, remove_db);
}
