/*
 * test_evolve_sepcmaes.c -- separable CMA-ES (evolve/strategy.h,
 * sep-cma-es): convergence on functions whose optimum is known, in 100 and
 * 1000 dimensions, one step against the paper's formulas, a state linear
 * in D, resume and determinism.
 *
 * Convergence figures were measured with the seeds below and are asserted
 * with a margin (the figures are printed); the optimum is off-centre and
 * the start far from it.
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

/* f(w) = sum_i scale_i z_i^2, z = w - opt, optionally with each pair of
 * coordinates (2k, 2k + 1) turned by 45 degrees first (a non-separable
 * problem that costs O(D) to evaluate).  Smaller is better; the strategy
 * maximises -f.  Optimum f = 0 at opt, opt_i = 1 + 0.01 (i mod 100). */
typedef struct problem {
    size_t d;
    double *opt, *scale;
    bool turned;
} problem;

static void problem_init(problem *pb, size_t d, double cond, bool turned)
{
    pb->d = d;
    pb->opt = malloc(d * sizeof *pb->opt);
    pb->scale = malloc(d * sizeof *pb->scale);
    assert_true(pb->opt && pb->scale);
    for (size_t i = 0; i < d; i++) {
        pb->opt[i] = 1.0 + 0.01 * (double)(i % 100);
        pb->scale[i] = d > 1 ? pow(cond, (double)i / (double)(d - 1)) : 1.0;
    }
    pb->turned = turned;
}

static void problem_free(problem *pb)
{
    free(pb->opt);
    free(pb->scale);
}

static double objective(const problem *pb, const double *w)
{
    double f = 0;
    size_t i = 0;
    if (pb->turned)
        for (; i + 1 < pb->d; i += 2) {
            double a = w[i] - pb->opt[i], b = w[i + 1] - pb->opt[i + 1];
            double p = (a + b) / sqrt(2.0), q = (a - b) / sqrt(2.0);
            f += pb->scale[i] * p * p + pb->scale[i + 1] * q * q;
        }
    for (; i < pb->d; i++) {
        double z = w[i] - pb->opt[i];
        f += pb->scale[i] * z * z;
    }
    return f;
}

/* One generation: seeds, ask, evaluate, tell; returns the generation's best f. */
static double generation(runner *rn, nk_strategy *s, const problem *pb)
{
    const nk_pop *pop = runner_ask(rn, s);
    size_t n = nk_strategy_size(s);
    double fit[MAXN], best = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double f = objective(pb, nk_pop_w(pop, i));
        fit[i] = -f;
        best = fmin(best, f);
    }
    char err[200];
    assert_int_equal(nk_strategy_tell(s, fit, n, err, sizeof err), NK_OK);
    return best;
}

static void sep_params(nk_strategy_params *par, const double *x0)
{
    nk_strategy_params_init(par, &nk_strategy_sep_cma_es, NK_ENC_REAL);
    par->x0 = x0;
    par->sigma0 = 0.2;
}

/* Runs from x0 = -3 everywhere on [-10, 10]^D until some individual has
 * f < target or max evaluations passed; returns the evaluations (0: never)
 * and the final info in *info (axis ratio, sigma). */
static uint64_t evals_to_target(const problem *pb, uint64_t master, double target, uint64_t max,
                                nk_strategy_info *info)
{
    nk_genome *g = real_genome(pb->d, -10, 10);
    double *x0 = malloc(pb->d * sizeof *x0);
    for (size_t i = 0; i < pb->d; i++)
        x0[i] = -3;
    nk_strategy_params par;
    sep_params(&par, x0);
    nk_strategy *s;
    char err[200];
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_OK);
    free(x0);
    runner rn;
    runner_init(&rn, master, MAXN);
    uint64_t evals = 0, hit = 0;
    while (evals < max && hit == 0) {
        double f = generation(&rn, s, pb);
        evals += nk_strategy_size(s);
        if (f < target)
            hit = evals;
    }
    nk_strategy_info_get(s, info);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
    return hit;
}

/* ===================================================================
 * Convergence
 * =================================================================== */

static void test_sphere_100d(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 100, 1, false); /* f(x0) = 2028.8 */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        nk_strategy_info info;
        uint64_t n = evals_to_target(&pb, seed, 1e-8, 60000, &info);
        print_message("sep-cma-es 100-D sphere, seed %lu: %lu evaluations to f < 1e-8\n",
                      (unsigned long)seed, (unsigned long)n);
        assert_true(n > 0 && n <= 15000);
    }
    problem_free(&pb);
}

/* Axis-parallel ellipsoid, condition 1e6: what the diagonal learns.  The
 * axis ratio of C approaches sqrt(1e6) = 1000. */
static void test_ellipsoid_100d(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 100, 1e6, false);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        nk_strategy_info info;
        uint64_t n = evals_to_target(&pb, seed, 1e-8, 100000, &info);
        print_message("sep-cma-es 100-D ellipsoid (cond 1e6), seed %lu: %lu evaluations to "
                      "f < 1e-8, axis ratio %.0f\n",
                      (unsigned long)seed, (unsigned long)n, info.axis_ratio);
        assert_true(n > 0 && n <= 45000);
        assert_true(info.axis_ratio > 300 && info.axis_ratio < 3000);
    }
    problem_free(&pb);
}

/* Not separable: pairs of coordinates turned by 45 degrees, condition 1e2.
 * A diagonal C cannot follow the turned axes, yet it still gets there. */
static void test_turned_ellipsoid_100d(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 100, 1e2, true);
    nk_strategy_info info;
    uint64_t n = evals_to_target(&pb, 4, 1e-8, 100000, &info);
    print_message("sep-cma-es 100-D pairwise-turned ellipsoid (cond 1e2): %lu evaluations to "
                  "f < 1e-8\n",
                  (unsigned long)n);
    assert_true(n > 0 && n <= 20000);
    problem_free(&pb);
}

/* Linear in D: a 1000-D sphere, from f(x0) = 20288 to f < 1e-6. */
static void test_sphere_1000d(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 1000, 1, false);
    nk_strategy_info info;
    uint64_t n = evals_to_target(&pb, 1, 1e-6, 300000, &info);
    print_message("sep-cma-es 1000-D sphere: %lu evaluations to f < 1e-6\n", (unsigned long)n);
    assert_true(n > 0 && n <= 120000);
    problem_free(&pb);
}

/* ===================================================================
 * One step against the paper's formulas
 * =================================================================== */

enum { SD = 5, SL = 8, SM = 4 }; /* D = 5: lambda = 4 + floor(3 ln 5) = 8, mu = 4 */

typedef struct sep_view { /* the sep-cma-es part of a saved state */
    double sigma, m[SD], ps[SD], pc[SD], c[SD];
} sep_view;

static void view_state(const nk_strategy *s, sep_view *v)
{
    size_t n = nk_strategy_state_size(s);
    double *st = malloc(n * sizeof *st);
    nk_strategy_save(s, st);
    const double *c = st + 12 + SD + 4 * SL + SL * SD; /* header, best, population */
    assert_true(c[0] == SL && c[1] == SM);
    v->sigma = c[2];
    c += 3;
    for (size_t i = 0; i < SD; i++) {
        v->m[i] = c[i];
        v->ps[i] = c[SD + i];
        v->pc[i] = c[2 * SD + i];
        v->c[i] = c[3 * SD + i];
    }
    free(st);
}

/* The expected state after one tell, from Ros & Hansen (2008) with the
 * Hansen & Kern (2004) constants, in plain loops. */
static void paper_step(const sep_view *a, double y[SL][SD], const double *f, double g,
                       sep_view *b)
{
    double n = SD, w[SM], sw = 0, sw2 = 0;
    for (int i = 0; i < SM; i++)
        sw += w[i] = log((SL + 1) / 2.0) - log(i + 1.0);
    for (int i = 0; i < SM; i++) {
        w[i] /= sw;
        sw2 += w[i] * w[i];
    }
    double mueff = 1 / sw2, cs = (mueff + 2) / (n + mueff + 3);
    double ds = 1 + 2 * fmax(0, sqrt((mueff - 1) / (n + 1)) - 1) + cs;
    double cc = 4 / (n + 4);
    double ccov = 1 / mueff * 2 / pow(n + sqrt(2), 2) +
                  (1 - 1 / mueff) * fmin(1, (2 * mueff - 1) / (pow(n + 2, 2) + mueff));
    ccov = fmin(1, ccov * (n + 2) / 3);
    double chin = sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));
    int rank[SL];
    for (int k = 0; k < SL; k++)
        rank[k] = k;
    for (int i = 0; i < SL; i++)
        for (int j = i + 1; j < SL; j++)
            if (f[rank[j]] > f[rank[i]]) {
                int t = rank[i];
                rank[i] = rank[j];
                rank[j] = t;
            }
    double yw[SD] = {0}, nps = 0;
    for (int k = 0; k < SM; k++)
        for (int i = 0; i < SD; i++)
            yw[i] += w[k] * y[rank[k]][i];
    for (int i = 0; i < SD; i++) {
        b->m[i] = a->m[i] + a->sigma * yw[i];
        b->ps[i] = (1 - cs) * a->ps[i] + sqrt(cs * (2 - cs) * mueff) * yw[i] / sqrt(a->c[i]);
        nps += b->ps[i] * b->ps[i];
    }
    nps = sqrt(nps);
    int hsig = nps / sqrt(1 - pow(1 - cs, 2 * (g + 1))) < (1.4 + 2 / (n + 1)) * chin;
    for (int i = 0; i < SD; i++) {
        b->pc[i] = (1 - cc) * a->pc[i] + hsig * sqrt(cc * (2 - cc) * mueff) * yw[i];
        double r = 0;
        for (int k = 0; k < SM; k++)
            r += w[k] * y[rank[k]][i] * y[rank[k]][i];
        b->c[i] = (1 - ccov) * a->c[i] +
                  ccov / mueff * (b->pc[i] * b->pc[i] + (1 - hsig) * cc * (2 - cc) * a->c[i]) +
                  ccov * (1 - 1 / mueff) * r;
    }
    b->sigma = a->sigma * exp(cs / ds * (nps / chin - 1));
}

static void test_one_step_matches_paper(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, SD, NK_ENC_REAL, 0, -100, 100, NULL, 0), NK_OK);
    assert_int_equal(nk_genome_set_bounds(g, 2, -50, 150, NULL, 0), NK_OK);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_sep_cma_es, NK_ENC_REAL);
    par.sigma0 = 0.01;
    nk_strategy *s;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_size(s), SL);
    runner rn;
    runner_init(&rn, 17, MAXN);
    for (int gen = 0; gen < 60; gen++) {
        sep_view a, b, want;
        view_state(s, &a);
        for (size_t i = 0; i < SL; i++)
            gsl_rng_set(rn.rng[i], seed_of(17, (uint64_t)gen, i));
        const nk_pop *pop;
        assert_int_equal(nk_strategy_ask(s, rn.rng, SL, &pop, NULL, 0), NK_OK);
        double f[SL], y[SL][SD];
        for (size_t k = 0; k < SL; k++) {
            const double *w = nk_pop_w(pop, k);
            f[k] = 0;
            for (size_t i = 0; i < SD; i++) {
                double u = (w[i] - g->lo[i]) / nk_genome_range(g, i);
                y[k][i] = (u - a.m[i]) / a.sigma;
                f[k] -= pow(10, (double)i) * (w[i] - 3) * (w[i] - 3) + w[0] * w[i];
            }
        }
        assert_int_equal(nk_strategy_tell(s, f, SL, NULL, 0), NK_OK);
        view_state(s, &b);
        paper_step(&a, y, f, gen, &want);
        assert_true(fabs(b.sigma - want.sigma) <= 1e-12 * want.sigma);
        for (size_t i = 0; i < SD; i++) {
            assert_true(fabs(b.m[i] - want.m[i]) <= 1e-9 * a.sigma);
            assert_true(fabs(b.ps[i] - want.ps[i]) <= 1e-9);
            assert_true(fabs(b.pc[i] - want.pc[i]) <= 1e-9);
            assert_true(fabs(b.c[i] - want.c[i]) <= 1e-9 * want.c[i]);
        }
    }
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    assert_true(info.axis_ratio > 1); /* the diagonal learnt something */
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

/* ===================================================================
 * Size, state, resume, determinism
 * =================================================================== */

/* The state and the memory are linear in D: a genome of 20,000 weights
 * makes a state of 12 + D + 4 N + N D + 3 + 4 D numbers, and the mean
 * moves towards the optimum of a sphere. */
static void test_large_genome_linear_state(void **state)
{
    (void)state;
    enum { BIG = 20000 };
    nk_genome *g = real_genome(BIG, -10, 10);
    double *x0 = malloc(BIG * sizeof *x0);
    for (size_t i = 0; i < BIG; i++)
        x0[i] = -3;
    nk_strategy_params par;
    sep_params(&par, x0);
    par.size = 10;
    par.sigma0 = 0.002; /* 0.04: about the best step this far out (sigma* ~ mueff R / D) */
    nk_strategy *s;
    char err[200];
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_OK);
    free(x0);
    assert_int_equal(nk_strategy_state_size(s), 12 + BIG + 4 * 10 + 10 * BIG + 3 + 4 * BIG);
    problem pb;
    problem_init(&pb, BIG, 1, false);
    runner rn;
    runner_init(&rn, 3, MAXN);
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    double f0 = objective(&pb, info.mean);
    for (int k = 0; k < 30; k++)
        generation(&rn, s, &pb);
    nk_strategy_info_get(s, &info);
    double f = objective(&pb, info.mean);
    print_message("sep-cma-es 20000-D sphere: f(mean) %g -> %g in 30 generations of 10\n", f0,
                  f);
    assert_true(f < 0.999 * f0);
    runner_free(&rn);
    problem_free(&pb);
    nk_strategy_free(s);
    nk_genome_free(g);
}

static void test_save_load_identical_next_ask(void **state)
{
    (void)state;
    enum { D = 30, L = 12 };
    problem pb;
    problem_init(&pb, D, 1e4, true);
    nk_genome *g = real_genome(D, -10, 10);
    nk_strategy_params par;
    sep_params(&par, NULL);
    par.size = L;
    nk_strategy *a, *b;
    assert_int_equal(nk_strategy_alloc(&a, &nk_strategy_sep_cma_es, g, &par, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_alloc(&b, &nk_strategy_sep_cma_es, g, &par, NULL, 0), NK_OK);
    runner ra, rb;
    runner_init(&ra, 11, MAXN);
    runner_init(&rb, 11, MAXN);
    for (int k = 0; k < 37; k++)
        generation(&ra, a, &pb);
    size_t n = nk_strategy_state_size(a);
    assert_int_equal(n, 12 + D + 4 * L + L * D + 3 + 4 * D);
    double *st = malloc(n * sizeof *st), *st2 = malloc(n * sizeof *st2);
    nk_strategy_save(a, st);
    /* ask() does not change the saved state */
    runner_ask(&ra, a);
    nk_strategy_save(a, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    char err[200];
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_OK);
    nk_strategy_save(b, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    for (int k = 0; k < 20; k++) {
        const nk_pop *pa = runner_ask(&ra, a), *pb2 = runner_ask(&rb, b);
        assert_same_pop(pa, pb2);
        double fit[L];
        for (size_t i = 0; i < L; i++)
            fit[i] = -objective(&pb, nk_pop_w(pa, i));
        assert_int_equal(nk_strategy_tell(a, fit, L, NULL, 0), NK_OK);
        assert_int_equal(nk_strategy_tell(b, fit, L, NULL, 0), NK_OK);
    }
    nk_strategy_save(a, st);
    nk_strategy_save(b, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    /* Damaged or foreign states are refused, b unchanged. */
    st[n - 1] = -1; /* a variance must be > 0 */
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EFORMAT);
    nk_strategy_save(a, st);
    st[n - 4 * D - 1] = 0; /* sigma */
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EFORMAT);
    nk_strategy_save(a, st);
    st[n - 4 * D - 2] = 3; /* mu */
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EMISMATCH);
    nk_strategy_save(a, st);
    st[2] = 4; /* the type code of cma-es */
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EMISMATCH);
    nk_strategy_save(b, st2);
    nk_strategy_save(a, st);
    assert_memory_equal(st, st2, n * sizeof *st);
    free(st);
    free(st2);
    runner_free(&ra);
    runner_free(&rb);
    problem_free(&pb);
    nk_strategy_free(a);
    nk_strategy_free(b);
    nk_genome_free(g);
}

static void test_params_and_errors(void **state)
{
    (void)state;
    nk_genome *g = real_genome(12, -1, 1);
    nk_strategy_params par;
    sep_params(&par, NULL);
    nk_strategy *s;
    char err[200];
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_strategy_size(s), 11); /* 4 + floor(3 ln 12) */
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    assert_true(info.sigma == 0.2 && info.axis_ratio == 1 && info.mean[3] == 0);
    nk_strategy_free(s);
    nk_genome *bin;
    assert_int_equal(nk_genome_alloc(&bin, 3, NK_ENC_BINARY, 8, -1, 1, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, bin, &par, err, sizeof err),
                     NK_EINVAL);
    assert_null(s);
    par.sigma0 = 1.5;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_ERANGE);
    assert_non_null(strstr(err, "strategy.sigma0"));
    assert_null(strchr(err, '\n'));
    sep_params(&par, NULL);
    par.size = 1;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_ERANGE);
    assert_non_null(strstr(err, "strategy.lambda"));
    par.size = 6;
    par.mu = 7;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_ERANGE);
    assert_non_null(strstr(err, "strategy.mu"));
    par.mu = 4; /* w_4 = ln(3.5) - ln(4) < 0 */
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_ERANGE);
    assert_non_null(strstr(err, "strategy.mu (4)"));
    assert_null(strchr(err, '\n'));
    par.mu = 3;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_OK);
    nk_strategy_free(s);
    s = NULL;
    double x0[12] = {0};
    x0[4] = 1.5;
    sep_params(&par, x0);
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_sep_cma_es, g, &par, err, sizeof err),
                     NK_ERANGE);
    assert_non_null(strstr(err, "weight 4"));
    nk_genome_free(bin);
    nk_genome_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_100d),
        cmocka_unit_test(test_ellipsoid_100d),
        cmocka_unit_test(test_turned_ellipsoid_100d),
        cmocka_unit_test(test_sphere_1000d),
        cmocka_unit_test(test_one_step_matches_paper),
        cmocka_unit_test(test_large_genome_linear_state),
        cmocka_unit_test(test_save_load_identical_next_ask),
        cmocka_unit_test(test_params_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
