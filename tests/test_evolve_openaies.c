/*
 * test_evolve_openaies.c -- the natural-gradient ES (evolve/strategy.h,
 * openai-es): convergence on a sphere whose optimum is known (10 and 100
 * dimensions, Adam and plain SGD), the mirrored pairs, one step against
 * the formulas (centred ranks with ties, the gradient, weight decay, Adam's
 * and SGD's steps), a state linear in D, resume and determinism.
 *
 * Convergence figures were measured with the seeds below and are asserted
 * with a margin (the figures are printed).  Sigma is fixed, so the mean
 * settles within a distance of the optimum set by sigma and the learning
 * rate; the tolerances say how close.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evolve/strategy.h"
#include "evolve_testlib.h"

enum { MAXN = 64 };

/* Sphere around opt_i = 1 + 0.01 (i mod 100); f = sum (w_i - opt_i)^2. */
static double sphere(const double *w, size_t d)
{
    double f = 0;
    for (size_t i = 0; i < d; i++) {
        double z = w[i] - (1.0 + 0.01 * (double)(i % 100));
        f += z * z;
    }
    return f;
}

/* One generation of fitness -sphere. */
static void generation(runner *rn, nk_strategy *s)
{
    const nk_pop *pop = runner_ask(rn, s);
    size_t n = nk_strategy_size(s);
    double fit[MAXN];
    for (size_t i = 0; i < n; i++)
        fit[i] = -sphere(nk_pop_w(pop, i), pop->dim);
    char err[200];
    assert_int_equal(nk_strategy_tell(s, fit, n, err, sizeof err), NK_OK);
}

static void oes_params(nk_strategy_params *par, const double *x0, size_t lambda, double sigma,
                       double lr)
{
    nk_strategy_params_init(par, &nk_strategy_openai_es, NK_ENC_REAL);
    par->x0 = x0;
    par->size = lambda;
    par->sigma0 = sigma;
    par->learning_rate = lr;
}

/* Runs `gens` generations from x0 = -3 on [-10, 10]^d; returns f(mean). */
static double run_sphere(size_t d, const nk_strategy_params *base, uint64_t master,
                         unsigned gens)
{
    nk_genome *g = real_genome(d, -10, 10);
    double *x0 = malloc(d * sizeof *x0);
    for (size_t i = 0; i < d; i++)
        x0[i] = -3;
    nk_strategy_params par = *base;
    par.x0 = x0;
    nk_strategy *s;
    char err[200];
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_openai_es, g, &par, err, sizeof err),
                     NK_OK);
    free(x0);
    runner rn;
    runner_init(&rn, master, MAXN);
    for (unsigned k = 0; k < gens; k++)
        generation(&rn, s);
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    double f = sphere(info.mean, d);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
    return f;
}

/* ===================================================================
 * Convergence
 * =================================================================== */

static void test_sphere_adam(void **state)
{
    (void)state;
    nk_strategy_params par;
    oes_params(&par, NULL, 20, 0.005, 0.003);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        double f = run_sphere(10, &par, seed, 600);
        print_message("openai-es adam 10-D sphere, seed %lu: f(mean) %.3g after 600 "
                      "generations of 20 (f(x0) 163.6)\n",
                      (unsigned long)seed, f);
        assert_true(f < 1e-2); /* within 0.1 of the optimum */
    }
    oes_params(&par, NULL, 40, 0.005, 0.001);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        double f = run_sphere(100, &par, seed, 800);
        print_message("openai-es adam 100-D sphere, seed %lu: f(mean) %.3g after 800 "
                      "generations of 40 (f(x0) 2028.8)\n",
                      (unsigned long)seed, f);
        assert_true(f < 1e-2); /* within 0.1 of the optimum */
    }
}

static void test_sphere_sgd(void **state)
{
    (void)state;
    nk_strategy_params par;
    oes_params(&par, NULL, 40, 0.005, 0.0002);
    par.optimizer = NK_OPTIMIZER_SGD;
    double f = run_sphere(100, &par, 5, 600);
    print_message("openai-es sgd 100-D sphere: f(mean) %.3g after 600 generations of 40 "
                  "(f(x0) 2028.8)\n",
                  f);
    assert_true(f < 0.5); /* within 0.71 of the optimum */
}

/* ===================================================================
 * One step against the formulas
 * =================================================================== */

enum { SD = 4, SL = 8 };

typedef struct oes_view { /* the openai-es part of a saved state */
    double m[SD], a[SD], v[SD];
} oes_view;

static void view_state(const nk_strategy *s, oes_view *v)
{
    size_t n = nk_strategy_state_size(s);
    double *st = malloc(n * sizeof *st);
    nk_strategy_save(s, st);
    const double *c = st + 12 + SD + 4 * SL + SL * SD; /* header, best, population */
    assert_true(c[0] == SL);
    c += 2;
    for (size_t i = 0; i < SD; i++) {
        v->m[i] = c[i];
        v->a[i] = c[SD + i];
        v->v[i] = c[2 * SD + i];
    }
    free(st);
}

/* Centred ranks of f[SL] by counting, ties sharing the mean rank. */
static void want_utilities(const double *f, double *u)
{
    for (int k = 0; k < SL; k++) {
        double below = 0, equal = 0;
        for (int j = 0; j < SL; j++) {
            below += f[j] < f[k];
            equal += f[j] == f[k];
        }
        double rank = below + (equal - 1) / 2; /* 0 = worst */
        u[k] = rank / (SL - 1) - 0.5;
    }
}

static void check_steps(nk_strategy_optimizer opt, double wd)
{
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, SD, NK_ENC_REAL, 0, -100, 100, NULL, 0), NK_OK);
    assert_int_equal(nk_genome_set_bounds(g, 2, -50, 150, NULL, 0), NK_OK);
    nk_strategy_params par;
    oes_params(&par, NULL, SL, 0.01, 0.003);
    par.optimizer = opt;
    par.weight_decay = wd;
    nk_strategy *s;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_openai_es, g, &par, NULL, 0), NK_OK);
    runner rn;
    runner_init(&rn, 23, MAXN);
    for (int gen = 0; gen < 30; gen++) {
        oes_view a, b;
        view_state(s, &a);
        const nk_pop *pop = runner_ask(&rn, s);
        double f[SL], eps[SL / 2][SD], u[SL];
        for (size_t k = 0; k < SL; k++) {
            const double *w = nk_pop_w(pop, k);
            f[k] = -round(sphere(w, SD)); /* rounded: ties on purpose */
            for (size_t i = 0; k % 2 == 0 && i < SD; i++)
                eps[k / 2][i] = ((w[i] - g->lo[i]) / nk_genome_range(g, i) - a.m[i]) / 0.01;
        }
        assert_int_equal(nk_strategy_tell(s, f, SL, NULL, 0), NK_OK);
        view_state(s, &b);
        want_utilities(f, u);
        double t = gen + 1;
        for (size_t i = 0; i < SD; i++) {
            double grad = 0;
            for (size_t j = 0; j < SL / 2; j++)
                grad += (u[2 * j] - u[2 * j + 1]) * eps[j][i];
            grad /= SL * 0.01;
            grad -= wd * (g->lo[i] + nk_genome_range(g, i) * a.m[i]) / nk_genome_range(g, i);
            double m = a.m[i], ma = 0, mv = 0;
            if (opt == NK_OPTIMIZER_SGD) {
                m += 0.003 * grad;
            } else {
                ma = 0.9 * a.a[i] + 0.1 * grad;
                mv = 0.999 * a.v[i] + 0.001 * grad * grad;
                m += 0.003 * sqrt(1 - pow(0.999, t)) / (1 - pow(0.9, t)) * ma / (sqrt(mv) + 1e-8);
            }
            assert_true(fabs(b.m[i] - m) <= 1e-12);
            assert_true(fabs(b.a[i] - ma) <= 1e-12 * fmax(1, fabs(ma)));
            assert_true(fabs(b.v[i] - mv) <= 1e-12 * fmax(1, mv));
        }
    }
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

static void test_one_step_matches_formulas(void **state)
{
    (void)state;
    check_steps(NK_OPTIMIZER_ADAM, 0);
    check_steps(NK_OPTIMIZER_SGD, 0);
    check_steps(NK_OPTIMIZER_ADAM, 0.05);
    check_steps(NK_OPTIMIZER_SGD, 0.05);
}

/* Individuals 2j and 2j + 1 lie either side of the mean, the same noise
 * mirrored; ids fresh, no parents. */
static void test_mirrored_pairs(void **state)
{
    (void)state;
    enum { D = 7, L = 10 };
    nk_genome *g = real_genome(D, -10, 10);
    nk_strategy_params par;
    oes_params(&par, NULL, L, 0.05, 0.01);
    nk_strategy *s;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_openai_es, g, &par, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_size(s), L);
    runner rn;
    runner_init(&rn, 8, MAXN);
    for (int gen = 0; gen < 5; gen++) {
        nk_strategy_info info;
        nk_strategy_info_get(s, &info);
        double mean[D];
        memcpy(mean, info.mean, sizeof mean);
        const nk_pop *pop = runner_ask(&rn, s);
        for (size_t j = 0; j < L / 2; j++) {
            const double *p = nk_pop_w(pop, 2 * j), *q = nk_pop_w(pop, 2 * j + 1);
            double dist = 0;
            for (size_t i = 0; i < D; i++) {
                assert_true(fabs((p[i] - mean[i]) + (q[i] - mean[i])) <= 1e-12);
                dist += (p[i] - mean[i]) * (p[i] - mean[i]);
            }
            assert_true(dist > 0);
            assert_int_equal(pop->id[2 * j + 1], pop->id[2 * j] + 1);
            assert_int_equal(pop->parents[4 * j], -1);
            assert_true(isnan(pop->fitness[2 * j]));
        }
        /* all alike: centred ranks all 0, so the mean stays put */
        double fit[L];
        for (size_t k = 0; k < L; k++)
            fit[k] = 1;
        assert_int_equal(nk_strategy_tell(s, fit, L, NULL, 0), NK_OK);
        nk_strategy_info_get(s, &info);
        assert_memory_equal(mean, info.mean, sizeof mean);
    }
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

/* Weight decay alone (all fitness alike) pulls every weight towards 0:
 * with SGD, w <- w - lr wd w exactly (in a box symmetric about 0). */
static void test_weight_decay_pulls_to_zero(void **state)
{
    (void)state;
    enum { D = 3, L = 4 };
    nk_genome *g = real_genome(D, -2, 2);
    double x0[D] = {1.5, -1, 0};
    nk_strategy_params par;
    oes_params(&par, x0, L, 0.05, 0.1);
    par.optimizer = NK_OPTIMIZER_SGD;
    par.weight_decay = 0.5;
    nk_strategy *s;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_openai_es, g, &par, NULL, 0), NK_OK);
    runner rn;
    runner_init(&rn, 2, MAXN);
    double want[D] = {1.5, -1, 0};
    for (int gen = 0; gen < 10; gen++) {
        runner_ask(&rn, s);
        double fit[L] = {0, 0, 0, 0};
        assert_int_equal(nk_strategy_tell(s, fit, L, NULL, 0), NK_OK);
        nk_strategy_info info;
        nk_strategy_info_get(s, &info);
        for (size_t i = 0; i < D; i++) {
            want[i] -= 0.1 * 0.5 * want[i]; /* range 4: u moves lr wd w / 4, w 4 times that */
            assert_true(fabs(info.mean[i] - want[i]) <= 1e-12);
        }
    }
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

/* ===================================================================
 * Size, state, resume, determinism
 * =================================================================== */

static void test_large_genome_linear_state(void **state)
{
    (void)state;
    enum { BIG = 20000, L = 10 };
    nk_genome *g = real_genome(BIG, -10, 10);
    nk_strategy_params par;
    oes_params(&par, NULL, L, 0.005, 0.001);
    nk_strategy *s;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_openai_es, g, &par, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_state_size(s), 12 + BIG + 4 * L + L * BIG + 2 + 3 * BIG);
    runner rn;
    runner_init(&rn, 3, MAXN);
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    double f0 = sphere(info.mean, BIG);
    for (int k = 0; k < 30; k++)
        generation(&rn, s);
    nk_strategy_info_get(s, &info);
    double f = sphere(info.mean, BIG);
    print_message("openai-es 20000-D sphere: f(mean) %g -> %g in 30 generations of 10\n", f0, f);
    assert_true(f < 0.999 * f0);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

static void test_save_load_identical_next_ask(void **state)
{
    (void)state;
    enum { D = 30, L = 12 };
    nk_genome *g = real_genome(D, -10, 10);
    nk_strategy_params par;
    oes_params(&par, NULL, L, 0.02, 0.01);
    par.weight_decay = 0.01;
    nk_strategy *a, *b;
    assert_int_equal(nk_strategy_alloc(&a, &nk_strategy_openai_es, g, &par, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_alloc(&b, &nk_strategy_openai_es, g, &par, NULL, 0), NK_OK);
    runner ra, rb;
    runner_init(&ra, 11, MAXN);
    runner_init(&rb, 11, MAXN);
    for (int k = 0; k < 37; k++)
        generation(&ra, a);
    size_t n = nk_strategy_state_size(a);
    assert_int_equal(n, 12 + D + 4 * L + L * D + 2 + 3 * D);
    double *st = malloc(n * sizeof *st), *st2 = malloc(n * sizeof *st2);
    nk_strategy_save(a, st);
    runner_ask(&ra, a); /* ask() does not change the saved state */
    nk_strategy_save(a, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    char err[200];
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_OK);
    nk_strategy_save(b, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    for (int k = 0; k < 20; k++) {
        const nk_pop *pa = runner_ask(&ra, a), *pb = runner_ask(&rb, b);
        assert_same_pop(pa, pb);
        double fit[L];
        for (size_t i = 0; i < L; i++)
            fit[i] = -sphere(nk_pop_w(pa, i), D);
        assert_int_equal(nk_strategy_tell(a, fit, L, NULL, 0), NK_OK);
        assert_int_equal(nk_strategy_tell(b, fit, L, NULL, 0), NK_OK);
    }
    nk_strategy_save(a, st);
    nk_strategy_save(b, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    /* Damaged or foreign states are refused, b unchanged. */
    st[n - 1] = -1; /* a second moment must be >= 0 */
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EFORMAT);
    nk_strategy_save(a, st);
    st[n - 3 * D] = 1.5; /* a mean outside the box */
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EFORMAT);
    nk_strategy_save(a, st);
    st[n - 3 * D - 1] = 1; /* saved under sgd */
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EMISMATCH);
    nk_strategy_save(a, st);
    st[n - 3 * D - 2] = 14; /* lambda */
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EMISMATCH);
    nk_strategy_save(b, st2);
    nk_strategy_save(a, st);
    assert_memory_equal(st, st2, n * sizeof *st);
    free(st);
    free(st2);
    runner_free(&ra);
    runner_free(&rb);
    nk_strategy_free(a);
    nk_strategy_free(b);
    nk_genome_free(g);
}

static void test_params_and_errors(void **state)
{
    (void)state;
    nk_genome *g = real_genome(12, -1, 1);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_openai_es, NK_ENC_REAL);
    nk_strategy *s;
    char err[200];
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_openai_es, g, &par, err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_strategy_size(s), 12); /* 4 + floor(3 ln 12) = 11, made even */
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    assert_true(info.sigma == 0.05 && info.axis_ratio == 1 && info.mean[3] == 0);
    nk_strategy_free(s);
    nk_strategy_optimizer o = NK_OPTIMIZER_SGD;
    assert_true(nk_strategy_optimizer_find("adam", &o) && o == NK_OPTIMIZER_ADAM);
    assert_false(nk_strategy_optimizer_find("rmsprop", &o));
    assert_string_equal(nk_strategy_optimizer_name_at(1), "sgd");
    assert_null(nk_strategy_optimizer_name_at(2));
    static const struct {
        const char *field;
        double value;
        const char *key;
    } bad[] = {
        {"size", 7, "strategy.lambda"},         {"size", 1, "strategy.lambda"},
        {"sigma0", 0, "strategy.sigma0"},       {"sigma0", 1.5, "strategy.sigma0"},
        {"lr", 0, "strategy.learning_rate"},    {"lr", 2, "strategy.learning_rate"},
        {"wd", -0.1, "strategy.weight_decay"},  {"wd", 1.5, "strategy.weight_decay"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        oes_params(&par, NULL, 8, 0.05, 0.01);
        if (strcmp(bad[k].field, "size") == 0)
            par.size = (size_t)bad[k].value;
        else if (strcmp(bad[k].field, "sigma0") == 0)
            par.sigma0 = bad[k].value;
        else if (strcmp(bad[k].field, "lr") == 0)
            par.learning_rate = bad[k].value;
        else
            par.weight_decay = bad[k].value;
        assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_openai_es, g, &par, err, sizeof err),
                         NK_ERANGE);
        assert_null(s);
        assert_non_null(strstr(err, bad[k].key));
        assert_null(strchr(err, '\n'));
    }
    /* The clash hook names strategy.lambda for an odd size. */
    nk_strategy_clash c;
    oes_params(&par, NULL, 9, 0.05, 0.01);
    assert_true(nk_strategy_openai_es.clash(&par, &c));
    assert_string_equal(c.a, "strategy.lambda");
    par.size = 10;
    assert_false(nk_strategy_openai_es.clash(&par, &c));
    nk_genome *bin;
    assert_int_equal(nk_genome_alloc(&bin, 3, NK_ENC_BINARY, 8, -1, 1, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_openai_es, bin, &par, err, sizeof err),
                     NK_EINVAL);
    nk_genome_free(bin);
    nk_genome_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_adam),
        cmocka_unit_test(test_sphere_sgd),
        cmocka_unit_test(test_one_step_matches_formulas),
        cmocka_unit_test(test_mirrored_pairs),
        cmocka_unit_test(test_weight_decay_pulls_to_zero),
        cmocka_unit_test(test_large_genome_linear_state),
        cmocka_unit_test(test_save_load_identical_next_ask),
        cmocka_unit_test(test_params_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
