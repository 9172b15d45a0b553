/*
 * test_evolve_cmaes.c -- CMA-ES (evolve/strategy.h, cma-es).
 *
 * Convergence figures were measured with the seeds below and are asserted
 * with a margin; the optimum is off-centre and the start far from it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "evolve/strategy.h"
#include "evolve_testlib.h"

enum { DIM = 12, MAXN = 64 };

/* A test objective: smaller is better (the strategy maximises -f). */
typedef struct problem {
    double opt[DIM];          /* the optimum */
    double rot[DIM * DIM];    /* orthogonal rotation (ellipsoid) */
    double scale[DIM];        /* axis weights (1 for the sphere) */
    bool rotated;
} problem;

static double objective(const problem *pb, const double *w)
{
    double f = 0, z[DIM];
    for (size_t i = 0; i < DIM; i++)
        z[i] = w[i] - pb->opt[i];
    for (size_t i = 0; i < DIM; i++) {
        double y = z[i];
        if (pb->rotated) {
            y = 0;
            for (size_t j = 0; j < DIM; j++)
                y += pb->rot[i * DIM + j] * z[j];
        }
        f += pb->scale[i] * y * y;
    }
    return f;
}

static void sphere(problem *pb)
{
    memset(pb, 0, sizeof *pb);
    for (size_t i = 0; i < DIM; i++) {
        pb->opt[i] = 1.0 + 0.1 * (double)i;
        pb->scale[i] = 1;
    }
}

/* Ellipsoid with condition 1e6, rotated by a random orthogonal matrix
 * (Gram-Schmidt on Gaussian vectors). */
static void rotated_ellipsoid(problem *pb, unsigned long seed)
{
    sphere(pb);
    pb->rotated = true;
    gsl_rng *r = new_rng(seed);
    for (size_t i = 0; i < DIM; i++) {
        pb->scale[i] = pow(1e6, (double)i / (DIM - 1));
        double *v = pb->rot + i * DIM;
        for (size_t j = 0; j < DIM; j++)
            v[j] = gsl_ran_gaussian(r, 1.0);
        for (size_t k = 0; k < i; k++) {
            const double *u = pb->rot + k * DIM;
            double dot = 0;
            for (size_t j = 0; j < DIM; j++)
                dot += u[j] * v[j];
            for (size_t j = 0; j < DIM; j++)
                v[j] -= dot * u[j];
        }
        double n = 0;
        for (size_t j = 0; j < DIM; j++)
            n += v[j] * v[j];
        for (size_t j = 0; j < DIM; j++)
            v[j] /= sqrt(n);
    }
    gsl_rng_free(r);
}

/* One generation: seeds, ask, evaluate, tell; returns the generation's best f. */
static double generation(runner *rn, nk_strategy *s, const problem *pb)
{
    const nk_pop *pop = runner_ask(rn, s);
    size_t n = nk_strategy_size(s);
    char err[200];
    double fit[MAXN], best = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double f = objective(pb, nk_pop_w(pop, i));
        fit[i] = -f;
        best = fmin(best, f);
    }
    assert_int_equal(nk_strategy_tell(s, fit, n, err, sizeof err), NK_OK);
    return best;
}

/* Evaluations until some individual has f < target (0 if never within max). */
static uint64_t evals_to_target(const problem *pb, const nk_strategy_params *par,
                                const nk_genome *g, uint64_t master, double target,
                                uint64_t max)
{
    nk_strategy *s;
    char err[200];
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, par, err, sizeof err), NK_OK);
    runner rn;
    runner_init(&rn, master, MAXN);
    uint64_t evals = 0, hit = 0;
    while (evals < max && hit == 0) {
        double f = generation(&rn, s, pb);
        evals += nk_strategy_size(s);
        if (f < target)
            hit = evals;
    }
    runner_free(&rn);
    nk_strategy_free(s);
    return hit;
}

static void cma_params(nk_strategy_params *par, const double *x0)
{
    nk_strategy_params_init(par, &nk_strategy_cma_es, NK_ENC_REAL);
    par->x0 = x0;
    par->sigma0 = 0.2;
}

/* ===================================================================
 * Convergence
 * =================================================================== */

static void test_sphere_12d(void **state)
{
    (void)state;
    problem pb;
    sphere(&pb);
    nk_genome *g = real_genome(DIM, -10, 10);
    double x0[DIM];
    for (size_t i = 0; i < DIM; i++)
        x0[i] = -3; /* f(x0) about 230 */
    nk_strategy_params par;
    cma_params(&par, x0); /* sigma 4, lambda 11, mu 5 */
    uint64_t total = 0;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        uint64_t n = evals_to_target(&pb, &par, g, seed, 1e-8, 20000);
        print_message("cma-es 12-D sphere, seed %lu: %lu evaluations to f < 1e-8\n",
                      (unsigned long)seed, (unsigned long)n);
        assert_true(n > 0 && n <= 2800);
        total += n;
    }
    print_message("cma-es 12-D sphere: mean %lu evaluations\n", (unsigned long)(total / 5));
    nk_genome_free(g);
}

static void test_sphere_12d_eigen_every_generation(void **state)
{
    (void)state;
    problem pb;
    sphere(&pb);
    nk_genome *g = real_genome(DIM, -10, 10);
    double x0[DIM];
    for (size_t i = 0; i < DIM; i++)
        x0[i] = 5;
    nk_strategy_params par;
    cma_params(&par, x0);
    par.eigen_every = 1;
    uint64_t n = evals_to_target(&pb, &par, g, 7, 1e-8, 20000);
    print_message("cma-es 12-D sphere, eigen every generation: %lu evaluations\n",
                  (unsigned long)n);
    assert_true(n > 0 && n <= 2800);
    par.eigen_every = 5;
    par.size = 24; /* a larger population also works */
    n = evals_to_target(&pb, &par, g, 7, 1e-8, 20000);
    print_message("cma-es 12-D sphere, lambda 24, eigen every 5: %lu evaluations\n",
                  (unsigned long)n);
    assert_true(n > 0 && n <= 6000);
    nk_genome_free(g);
}

static void test_rotated_ellipsoid_12d(void **state)
{
    (void)state;
    problem pb;
    rotated_ellipsoid(&pb, 2024);
    nk_genome *g = real_genome(DIM, -10, 10);
    double x0[DIM];
    for (size_t i = 0; i < DIM; i++)
        x0[i] = -2;
    nk_strategy_params par;
    cma_params(&par, x0);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        uint64_t n = evals_to_target(&pb, &par, g, seed, 1e-8, 60000);
        print_message("cma-es 12-D rotated ellipsoid (cond 1e6), seed %lu: %lu evaluations\n",
                      (unsigned long)seed, (unsigned long)n);
        assert_true(n > 0 && n <= 11000);
    }
    /* Learning C is what does it: the axis ratio approaches sqrt(1e6). */
    nk_strategy *s;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    runner rn;
    runner_init(&rn, 9, MAXN);
    for (int k = 0; k < 800; k++)
        generation(&rn, s, &pb);
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    print_message("cma-es ellipsoid: axis ratio %g after %lu evaluations\n", info.axis_ratio,
                  (unsigned long)info.evaluations);
    assert_true(info.axis_ratio > 300 && info.axis_ratio < 3000);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

/* The optimum outside the box: samples stay in it and the mean converges
 * onto the nearest boundary point. */
static void test_bounds_respected(void **state)
{
    (void)state;
    problem pb;
    sphere(&pb);
    pb.opt[0] = 3; /* box is [-1, 2.5] */
    nk_genome *g = real_genome(DIM, -1, 2.5);
    nk_strategy_params par;
    cma_params(&par, NULL);
    nk_strategy *s;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    runner rn;
    runner_init(&rn, 3, MAXN);
    for (int k = 0; k < 400; k++) {
        generation(&rn, s, &pb);
        const nk_pop *p = nk_strategy_pop(s);
        for (size_t i = 0; i < p->size; i++)
            for (size_t j = 0; j < DIM; j++)
                assert_true(nk_pop_w(p, i)[j] >= -1 && nk_pop_w(p, i)[j] <= 2.5);
    }
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    print_message("cma-es, optimum outside the box: mean[0] %.12g, mean[1] - opt[1] %.3g\n",
                  info.mean[0], info.mean[1] - pb.opt[1]);
    assert_true(fabs(info.mean[0] - 2.5) < 1e-6);
    for (size_t j = 1; j < DIM; j++)
        assert_true(fabs(info.mean[j] - pb.opt[j]) < 1e-3);
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

/* ===================================================================
 * One step against the tutorial's formulas
 * =================================================================== */

enum { SD = 4, SL = 8, SM = 4 }; /* D = 4: lambda = 4 + floor(3 ln 4) = 8, mu = 4 */

typedef struct cma_view { /* the cma-es part of a saved state */
    double sigma, m[SD], ps[SD], pc[SD], C[SD][SD], B[SD][SD], D[SD];
} cma_view;

static void view_state(const nk_strategy *s, cma_view *v)
{
    size_t n = nk_strategy_state_size(s);
    double *st = malloc(n * sizeof *st);
    nk_strategy_save(s, st);
    const double *c = st + 12 + SD + 4 * SL + SL * SD; /* header, best, population */
    assert_true(c[0] == SL && c[1] == SM);
    v->sigma = c[2];
    c += 4;
    for (size_t i = 0; i < SD; i++) {
        v->m[i] = c[i];
        v->ps[i] = c[SD + i];
        v->pc[i] = c[2 * SD + i];
        v->D[i] = c[3 * SD + 2 * SD * SD + i];
        for (size_t j = 0; j < SD; j++) {
            v->C[i][j] = c[3 * SD + i * SD + j];
            v->B[i][j] = c[3 * SD + SD * SD + i * SD + j];
        }
    }
    free(st);
}

/* The expected state after one tell, computed directly from the tutorial
 * (Hansen 2016, eqs. 39-47 with positive weights) in plain loops. */
static void tutorial_step(const cma_view *a, double y[SL][SD], const double *f, double g,
                          cma_view *b)
{
    double n = SD, w[SM], sw = 0, sw2 = 0;
    for (int i = 0; i < SM; i++)
        sw += w[i] = log((SL + 1) / 2.0) - log(i + 1.0);
    for (int i = 0; i < SM; i++) {
        w[i] /= sw;
        sw2 += w[i] * w[i];
    }
    double mueff = 1 / sw2, cs = (mueff + 2) / (n + mueff + 5);
    double ds = 1 + 2 * fmax(0, sqrt((mueff - 1) / (n + 1)) - 1) + cs;
    double cc = (4 + mueff / n) / (n + 4 + 2 * mueff / n), c1 = 2 / ((n + 1.3) * (n + 1.3) + mueff);
    double cmu = fmin(1 - c1, 2 * (mueff - 2 + 1 / mueff) / ((n + 2) * (n + 2) + mueff));
    double chin = sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));
    int rank[SL]; /* rank[k]: index of the k-th best (highest f) */
    for (int k = 0; k < SL; k++)
        rank[k] = k;
    for (int i = 0; i < SL; i++)
        for (int j = i + 1; j < SL; j++)
            if (f[rank[j]] > f[rank[i]]) {
                int t = rank[i];
                rank[i] = rank[j];
                rank[j] = t;
            }
    double yw[SD] = {0}, z[SD], t[SD], nps = 0;
    for (int k = 0; k < SM; k++)
        for (int i = 0; i < SD; i++)
            yw[i] += w[k] * y[rank[k]][i];
    for (int j = 0; j < SD; j++) { /* C^-1/2 yw = B D^-1 B^T yw */
        t[j] = 0;
        for (int i = 0; i < SD; i++)
            t[j] += a->B[i][j] * yw[i] / a->D[j];
    }
    for (int i = 0; i < SD; i++) {
        z[i] = 0;
        for (int j = 0; j < SD; j++)
            z[i] += a->B[i][j] * t[j];
        b->m[i] = a->m[i] + a->sigma * yw[i];
        b->ps[i] = (1 - cs) * a->ps[i] + sqrt(cs * (2 - cs) * mueff) * z[i];
        nps += b->ps[i] * b->ps[i];
    }
    nps = sqrt(nps);
    int hsig = nps / sqrt(1 - pow(1 - cs, 2 * (g + 1))) < (1.4 + 2 / (n + 1)) * chin;
    for (int i = 0; i < SD; i++)
        b->pc[i] = (1 - cc) * a->pc[i] + hsig * sqrt(cc * (2 - cc) * mueff) * yw[i];
    double dh = (1 - hsig) * cc * (2 - cc);
    for (int i = 0; i < SD; i++)
        for (int j = 0; j < SD; j++) {
            double r = 0;
            for (int k = 0; k < SM; k++)
                r += w[k] * y[rank[k]][i] * y[rank[k]][j];
            b->C[i][j] = (1 - c1 - cmu) * a->C[i][j] + c1 * (b->pc[i] * b->pc[j] + dh * a->C[i][j]) +
                         cmu * r;
        }
    b->sigma = a->sigma * exp(cs / ds * (nps / chin - 1));
}

static void test_one_step_matches_tutorial(void **state)
{
    (void)state;
    nk_genome *g;
    assert_int_equal(nk_genome_alloc(&g, SD, NK_ENC_REAL, 0, -100, 100, NULL, 0), NK_OK);
    assert_int_equal(nk_genome_set_bounds(g, 2, -50, 150, NULL, 0), NK_OK);
    nk_strategy_params par;
    nk_strategy_params_init(&par, &nk_strategy_cma_es, NK_ENC_REAL);
    par.sigma0 = 0.01;
    par.eigen_every = 1;
    nk_strategy *s;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_size(s), SL);
    runner rn;
    runner_init(&rn, 17, MAXN);
    for (int gen = 0; gen < 40; gen++) {
        cma_view a, b, want;
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
        tutorial_step(&a, y, f, gen, &want);
        double scale = 0;
        for (size_t i = 0; i < SD; i++)
            for (size_t j = 0; j < SD; j++)
                scale = fmax(scale, fabs(want.C[i][j]));
        assert_true(fabs(b.sigma - want.sigma) <= 1e-12 * want.sigma);
        for (size_t i = 0; i < SD; i++) {
            assert_true(fabs(b.m[i] - want.m[i]) <= 1e-9 * a.sigma);
            assert_true(fabs(b.ps[i] - want.ps[i]) <= 1e-9);
            assert_true(fabs(b.pc[i] - want.pc[i]) <= 1e-9);
            for (size_t j = 0; j < SD; j++) {
                assert_true(fabs(b.C[i][j] - want.C[i][j]) <= 1e-9 * scale);
                /* decomposed every generation: B diag(D^2) B^T = C */
                double c = 0;
                for (size_t k = 0; k < SD; k++)
                    c += b.B[i][k] * b.D[k] * b.D[k] * b.B[j][k];
                assert_true(fabs(c - b.C[i][j]) <= 1e-9 * scale);
            }
        }
    }
    runner_free(&rn);
    nk_strategy_free(s);
    nk_genome_free(g);
}

/* ===================================================================
 * State, resume, determinism
 * =================================================================== */

static void test_save_load_identical_next_ask(void **state)
{
    (void)state;
    problem pb;
    rotated_ellipsoid(&pb, 5);
    nk_genome *g = real_genome(DIM, -10, 10);
    nk_strategy_params par;
    cma_params(&par, NULL);
    par.eigen_every = 0; /* lazy: the stale B, D must be saved too */
    nk_strategy *a, *b;
    assert_int_equal(nk_strategy_alloc(&a, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_alloc(&b, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    runner ra, rb;
    runner_init(&ra, 11, MAXN);
    runner_init(&rb, 11, MAXN);
    for (int k = 0; k < 37; k++)
        generation(&ra, a, &pb);
    size_t n = nk_strategy_state_size(a);
    assert_int_equal(n, 12 + DIM + 4 * 11 + 11 * DIM + 4 + 4 * DIM + 2 * DIM * DIM);
    double *st = malloc(n * sizeof *st), *st2 = malloc(n * sizeof *st2);
    nk_strategy_save(a, st);
    /* ask() does not change the saved state */
    const nk_pop *pa, *pb2;
    assert_int_equal(nk_strategy_ask(a, ra.rng, MAXN, &pa, NULL, 0), NK_OK);
    nk_strategy_save(a, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    char err[200];
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_OK);
    nk_strategy_save(b, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    for (int k = 0; k < 20; k++) {
        nk_strategy_info ia, ib;
        nk_strategy_info_get(a, &ia);
        nk_strategy_info_get(b, &ib);
        assert_int_equal(ia.generation, ib.generation);
        for (size_t i = 0; i < 11; i++) {
            gsl_rng_set(ra.rng[i], seed_of(99, ia.generation, i));
            gsl_rng_set(rb.rng[i], seed_of(99, ib.generation, i));
        }
        assert_int_equal(nk_strategy_ask(a, ra.rng, 11, &pa, NULL, 0), NK_OK);
        assert_int_equal(nk_strategy_ask(b, rb.rng, 11, &pb2, NULL, 0), NK_OK);
        assert_same_pop(pa, pb2);
        double fit[11];
        for (size_t i = 0; i < 11; i++)
            fit[i] = -objective(&pb, nk_pop_w(pa, i));
        assert_int_equal(nk_strategy_tell(a, fit, 11, NULL, 0), NK_OK);
        assert_int_equal(nk_strategy_tell(b, fit, 11, NULL, 0), NK_OK);
    }
    nk_strategy_save(a, st);
    nk_strategy_save(b, st2);
    assert_memory_equal(st, st2, n * sizeof *st);
    free(st);
    free(st2);
    runner_free(&ra);
    runner_free(&rb);
    nk_strategy_free(a);
    nk_strategy_free(b);
    nk_genome_free(g);
}

static void test_same_seed_same_run(void **state)
{
    (void)state;
    problem pb;
    sphere(&pb);
    nk_genome *g = real_genome(DIM, -10, 10);
    nk_strategy_params par;
    cma_params(&par, NULL);
    nk_strategy *a, *b;
    assert_int_equal(nk_strategy_alloc(&a, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_alloc(&b, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    runner ra, rb, rc;
    runner_init(&ra, 5, MAXN);
    runner_init(&rb, 5, MAXN);
    for (int k = 0; k < 30; k++) {
        double fa = generation(&ra, a, &pb), fb = generation(&rb, b, &pb);
        assert_true(fa == fb);
        assert_same_pop(nk_strategy_pop(a), nk_strategy_pop(b));
    }
    /* Another master seed gives another run. */
    nk_strategy *c;
    assert_int_equal(nk_strategy_alloc(&c, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    runner_init(&rc, 6, MAXN);
    generation(&rc, c, &pb);
    assert_true(memcmp(nk_strategy_pop(c)->w, nk_strategy_pop(a)->w, DIM * sizeof(double)) != 0);
    runner_free(&ra);
    runner_free(&rb);
    runner_free(&rc);
    nk_strategy_free(a);
    nk_strategy_free(b);
    nk_strategy_free(c);
    nk_genome_free(g);
}

static void test_params_and_errors(void **state)
{
    (void)state;
    nk_genome *g = real_genome(DIM, -1, 1);
    nk_strategy_params par;
    cma_params(&par, NULL);
    nk_strategy *s;
    char err[200];
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, err, sizeof err), NK_OK);
    assert_int_equal(nk_strategy_size(s), 11); /* 4 + floor(3 ln 12) */
    assert_ptr_equal(nk_strategy_type_of(s), &nk_strategy_cma_es);
    assert_null(nk_strategy_pop(s));
    nk_strategy_info info;
    nk_strategy_info_get(s, &info);
    assert_true(info.sigma == 0.2 && info.axis_ratio == 1 && info.mean[3] == 0);
    assert_true(info.best_fitness == -INFINITY && info.best_id == -1);
    nk_strategy_free(s);
    nk_strategy_free(NULL);
    /* Binary genomes, bad sigma, lambda, mu, x0. */
    nk_genome *bin;
    assert_int_equal(nk_genome_alloc(&bin, 3, NK_ENC_BINARY, 8, -1, 1, NULL, 0), NK_OK);
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, bin, &par, err, sizeof err),
                     NK_EINVAL);
    assert_null(s);
    par.sigma0 = 0;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, err, sizeof err), NK_ERANGE);
    cma_params(&par, NULL);
    par.size = 1;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, err, sizeof err), NK_ERANGE);
    par.size = 6;
    par.mu = 7;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, err, sizeof err), NK_ERANGE);
    /* w_4 = ln(3.5) - ln(4) < 0: a parent with a negative weight */
    par.mu = 4;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, err, sizeof err), NK_ERANGE);
    assert_non_null(strstr(err, "mu (4)"));
    par.mu = 3; /* the largest with positive weights */
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, err, sizeof err), NK_OK);
    nk_strategy_free(s);
    s = NULL;
    par.size = 7; /* w_4 = ln(4) - ln(4) = 0: refused as well */
    par.mu = 4;
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, err, sizeof err), NK_ERANGE);
    par.size = 6;
    double x0[DIM] = {0};
    x0[4] = 1.5;
    cma_params(&par, x0);
    assert_int_equal(nk_strategy_alloc(&s, &nk_strategy_cma_es, g, &par, err, sizeof err), NK_ERANGE);
    assert_non_null(strstr(err, "weight 4"));
    nk_genome_free(bin);
    nk_genome_free(g);
}

static void test_load_rejects_other_states(void **state)
{
    (void)state;
    nk_genome *g = real_genome(DIM, -1, 1);
    nk_strategy_params par;
    cma_params(&par, NULL);
    nk_strategy *a, *b;
    assert_int_equal(nk_strategy_alloc(&a, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    par.size = 12;
    assert_int_equal(nk_strategy_alloc(&b, &nk_strategy_cma_es, g, &par, NULL, 0), NK_OK);
    size_t n = nk_strategy_state_size(a);
    double *st = malloc(n * sizeof *st);
    nk_strategy_save(a, st);
    char err[300];
    assert_int_equal(nk_strategy_load(b, st, n, err, sizeof err), NK_EMISMATCH);
    assert_int_equal(nk_strategy_load(a, st, n - 1, err, sizeof err), NK_EMISMATCH);
    st[0] = 1;
    assert_int_equal(nk_strategy_load(a, st, n, err, sizeof err), NK_EFORMAT);
    nk_strategy_save(a, st);
    st[n - 1] = -1; /* an axis length must be > 0 */
    assert_int_equal(nk_strategy_load(a, st, n, err, sizeof err), NK_EFORMAT);
    nk_strategy_save(a, st);
    st[12 + DIM + 11 + 2] = 0.5; /* a fractional id (id[2], after 11 fitness values) */
    assert_int_equal(nk_strategy_load(a, st, n, err, sizeof err), NK_EFORMAT);
    free(st);
    nk_strategy_free(a);
    nk_strategy_free(b);
    nk_genome_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_12d),
        cmocka_unit_test(test_sphere_12d_eigen_every_generation),
        cmocka_unit_test(test_rotated_ellipsoid_12d),
        cmocka_unit_test(test_bounds_respected),
        cmocka_unit_test(test_one_step_matches_tutorial),
        cmocka_unit_test(test_save_load_identical_next_ask),
        cmocka_unit_test(test_same_seed_same_run),
        cmocka_unit_test(test_params_and_errors),
        cmocka_unit_test(test_load_rejects_other_states),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
