/*
 * test_arena_sprt.c -- the SPRT of arena/arena.h: parsing its parameters,
 * the exact GSPRT's log-likelihood ratio, and the operating
 * characteristics of both models by simulation on synthetic pairs of games
 * (no games are played).
 *
 * Model of the synthetic pairs: the two games of a pair are independent,
 * each a win with probability s - d/2, a draw with d = 0.4 and a loss with
 * 1 - s - d/2, where s = nk_arena_score(elo) is the expected score of the
 * true Elo difference; the pair's pentanomial distribution is thus the
 * convolution of that trinomial with itself.  A test run feeds pairs one by
 * one, asks nk_arena_sprt after each and stops at the first crossing of a
 * bound, as `nickar match --sprt` does.
 *
 * Far-apart bounds (test_oc_far): elo0 = 0 against elo1 = 20, alpha = beta
 * = 0.05 (about 490 pairs a test), FAR_RUNS = 5000 runs per hypothesis,
 * both models on the same pairs (fixed seeds).  The simulation's standard
 * error of a rate at 0.05 is sigma = sqrt(0.05 * 0.95 / 5000) = 0.0031, so
 * the test asserts that the exact GSPRT's false-positive and
 * false-negative rates each lie within 0.05 -+ 3 sigma = [0.0408, 0.0592],
 * and that their mean (10000 tests, sigma 0.0022) lies within 0.05 -+
 * 0.0065.  The normal approximation's rates are printed, not asserted:
 * measured on these pairs, GSPRT 0.0478 and 0.0472 (mean 0.0475), normal
 * 0.0556 and 0.0588 (mean 0.0572, 3.3 sigma above nominal, so the mean
 * check refuses it), as the comparison issue measured for the normal
 * approximation (0.0615, 0.057).  experiments/sprt/oc.py runs a longer,
 * independent simulation (20000 tests per hypothesis) behind the figures
 * of docs/cli.md.
 *
 * Close bounds (test_oc_symmetric, test_oc_asymmetric), the normal model:
 * over R = 2000 runs per hypothesis (fixed seed, so the counts are the same
 * on every machine):
 *  - with the truth at elo0, the share of runs accepting H1 (false
 *    positives) is at most alpha + 3 sigma, sigma = sqrt(alpha (1 - alpha)
 *    / R) the binomial standard deviation of a share at alpha (0.0146 for
 *    alpha = 0.05); likewise false negatives (truth at elo1) against beta;
 *  - the mean number of pairs used is within 5% of Wald's approximation
 *    of the expected sample size,
 *        E[N] = (L a + (1 - L) b) / E[z],
 *    with a, b the lower and upper bounds, L the probability of accepting
 *    H0 (1 - alpha at elo0, beta at elo1) and E[z] = (s1 - s0) (2 s - s0
 *    - s1) / (2 var) the expected LLR increment of one pair, var the
 *    variance of the pair score x = points/2 under the truth.  Wald's
 *    approximation ignores the overshoot of the last step and the LLR here
 *    uses the estimated variance, so the two differ a little (the measured
 *    ratios are printed); 5% is over three times the Monte Carlo error of
 *    the mean (its standard deviation is about 1.5% at R = 2000).
 * Those tests take thousands of pairs each, where the two models agree
 * closely; they run on the normal model, which is six times cheaper.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena/arena.h"
#include "base/param.h"
#include "base/rng.h"

enum { RUNS = 2000, MAX_PAIRS = 1000000 };
static const double DRAWS = 0.4;

/* One synthetic game of A's: 1, 0.5 or 0 points at expected score s. */
static double game(nk_rng *rng, double s)
{
    double u = (double)(nk_rng_next(rng) >> 11) * 0x1.0p-53;
    double win = s - DRAWS / 2;
    return u < win ? 1.0 : u < win + DRAWS ? 0.5 : 0.0;
}

/* Variance of the pair score x = (g1 + g2) / 2 at expected score s. */
static double pair_var(double s)
{
    double win = s - DRAWS / 2, loss = 1 - s - DRAWS / 2;
    double game_var = win * (1 - s) * (1 - s) + DRAWS * (0.5 - s) * (0.5 - s) + loss * s * s;
    return game_var / 2;
}

typedef struct oc {
    unsigned h0, h1; /* runs that accepted H0, H1 */
    double mean_pairs;
} oc;

static oc simulate(const nk_sprt_spec *spec, double true_elo, uint64_t seed)
{
    nk_rng rng = {seed};
    double s = nk_arena_score(true_elo);
    oc r = {0, 0, 0};
    uint64_t total = 0;
    char err[128];
    for (int run = 0; run < RUNS; run++) {
        nk_arena_tally t;
        nk_sprt sp = {0};
        nk_arena_init(&t);
        unsigned n = 0;
        while (n < MAX_PAIRS) {
            double g1 = game(&rng, s), g2 = game(&rng, s);
            nk_arena_add_pair(&t, g1, 0, g2, 0);
            n++;
            assert_int_equal(nk_arena_sprt_spec(&t, spec, &sp, err, sizeof err), NK_OK);
            if (sp.verdict != NK_SPRT_CONTINUE)
                break;
        }
        assert_int_not_equal(sp.verdict, NK_SPRT_CONTINUE);
        if (sp.verdict == NK_SPRT_H0)
            r.h0++;
        else
            r.h1++;
        total += n;
    }
    r.mean_pairs = (double)total / RUNS;
    return r;
}

static double wald_mean(const nk_sprt_spec *spec, double true_elo, double accept_h0)
{
    double a = log(spec->beta / (1 - spec->alpha)), b = log((1 - spec->beta) / spec->alpha);
    double s0 = nk_arena_score(spec->elo0), s1 = nk_arena_score(spec->elo1);
    double s = nk_arena_score(true_elo);
    double ez = (s1 - s0) * (2 * s - s0 - s1) / (2 * pair_var(s));
    return (accept_h0 * a + (1 - accept_h0) * b) / ez;
}

static void check_oc(const nk_sprt_spec *spec, uint64_t seed)
{
    oc at0 = simulate(spec, spec->elo0, seed);
    oc at1 = simulate(spec, spec->elo1, seed + 1);
    double fp = (double)at0.h1 / RUNS, fn = (double)at1.h0 / RUNS;
    double tol_a = 3 * sqrt(spec->alpha * (1 - spec->alpha) / RUNS);
    double tol_b = 3 * sqrt(spec->beta * (1 - spec->beta) / RUNS);
    double w0 = wald_mean(spec, spec->elo0, 1 - spec->alpha);
    double w1 = wald_mean(spec, spec->elo1, spec->beta);
    char msg[512];
    snprintf(msg, sizeof msg,
             "elo0 %g elo1 %g alpha %g beta %g: false positives %.4f (<= %.4f), false "
             "negatives %.4f (<= %.4f), mean pairs at elo0 %.1f (Wald %.1f, ratio %.3f), at "
             "elo1 %.1f (Wald %.1f, ratio %.3f)",
             spec->elo0, spec->elo1, spec->alpha, spec->beta, fp, spec->alpha + tol_a, fn,
             spec->beta + tol_b, at0.mean_pairs, w0, at0.mean_pairs / w0, at1.mean_pairs, w1,
             at1.mean_pairs / w1);
    print_message("%s\n", msg);
    if (!(fp <= spec->alpha + tol_a && fn <= spec->beta + tol_b &&
          fabs(at0.mean_pairs / w0 - 1) <= 0.05 && fabs(at1.mean_pairs / w1 - 1) <= 0.05))
        fail_msg("%s", msg);
}

static void test_oc_symmetric(void **state)
{
    (void)state;
    nk_sprt_spec spec = {0, 5, 0.05, 0.05, "normal"};
    check_oc(&spec, 12345);
}

static void test_oc_asymmetric(void **state)
{
    (void)state;
    nk_sprt_spec spec = {-2, 4, 0.05, 0.10, "normal"};
    check_oc(&spec, 777);
}

/* A run stops at the first pair whose LLR crosses a bound: the LLR after
 * every earlier pair lies strictly inside. */
static void test_first_crossing(void **state)
{
    (void)state;
    nk_sprt_spec spec = {0, 20, 0.05, 0.05, "gsprt"};
    nk_rng rng = {99};
    nk_arena_tally t;
    nk_sprt sp;
    char err[128];
    nk_arena_init(&t);
    unsigned n = 0;
    do {
        double g1 = game(&rng, 0.53), g2 = game(&rng, 0.53);
        nk_arena_add_pair(&t, g1, 0, g2, 0);
        n++;
        assert_int_equal(nk_arena_sprt_spec(&t, &spec, &sp, err, sizeof err), NK_OK);
        if (sp.verdict == NK_SPRT_CONTINUE) {
            assert_true(sp.llr > sp.lower && sp.llr < sp.upper);
        }
    } while (sp.verdict == NK_SPRT_CONTINUE && n < MAX_PAIRS);
    assert_true(sp.llr <= sp.lower || sp.llr >= sp.upper);
}

/* ===== far-apart bounds: both models on the same pairs ===== */

enum { FAR_RUNS = 5000 };

/* Runs FAR_RUNS tests of spec (model ignored) with the truth at true_elo;
 * wrong[m] counts the runs of model m that accepted the false hypothesis
 * (H1 when true_elo = elo0, else H0); pairs[m] the pairs they used. */
static void simulate_far(nk_sprt_spec spec, double true_elo, uint64_t seed, unsigned wrong[2],
                         double pairs[2])
{
    static const char *const models[2] = {"gsprt", "normal"};
    nk_rng rng = {seed};
    double s = nk_arena_score(true_elo);
    nk_sprt_verdict wrong_verdict = true_elo == spec.elo0 ? NK_SPRT_H1 : NK_SPRT_H0;
    uint64_t total[2] = {0, 0};
    char err[128];
    wrong[0] = wrong[1] = 0;
    for (int run = 0; run < FAR_RUNS; run++) {
        nk_arena_tally t;
        nk_arena_init(&t);
        nk_sprt_verdict v[2] = {NK_SPRT_CONTINUE, NK_SPRT_CONTINUE};
        for (unsigned n = 1;
             n <= MAX_PAIRS && (v[0] == NK_SPRT_CONTINUE || v[1] == NK_SPRT_CONTINUE); n++) {
            double g1 = game(&rng, s), g2 = game(&rng, s);
            nk_arena_add_pair(&t, g1, 0, g2, 0);
            for (int m = 0; m < 2; m++) {
                if (v[m] != NK_SPRT_CONTINUE)
                    continue;
                nk_sprt sp;
                spec.model = models[m];
                assert_int_equal(nk_arena_sprt_spec(&t, &spec, &sp, err, sizeof err), NK_OK);
                v[m] = sp.verdict;
                if (v[m] != NK_SPRT_CONTINUE) {
                    total[m] += n;
                    wrong[m] += v[m] == wrong_verdict;
                }
            }
        }
        assert_true(v[0] != NK_SPRT_CONTINUE && v[1] != NK_SPRT_CONTINUE);
    }
    for (int m = 0; m < 2; m++)
        pairs[m] = (double)total[m] / FAR_RUNS;
}

static void test_oc_far(void **state)
{
    (void)state;
    nk_sprt_spec spec = {0, 20, 0.05, 0.05, "gsprt"};
    unsigned fp[2], fn[2];
    double pairs0[2], pairs1[2];
    simulate_far(spec, spec.elo0, 2024, fp, pairs0);
    simulate_far(spec, spec.elo1, 4048, fn, pairs1);
    double sigma = sqrt(0.05 * 0.95 / FAR_RUNS), sigma_mean = sigma / sqrt(2.0);
    double rate_fp[2], rate_fn[2];
    for (int m = 0; m < 2; m++) {
        rate_fp[m] = (double)fp[m] / FAR_RUNS;
        rate_fn[m] = (double)fn[m] / FAR_RUNS;
        print_message("elo0 0 elo1 20 alpha = beta = 0.05, %d tests per hypothesis, model %s: "
                      "false positives %.4f, false negatives %.4f (mean %.4f; standard error "
                      "%.4f each, %.4f of the mean), mean pairs %.1f at elo0, %.1f at elo1\n",
                      FAR_RUNS, m == 0 ? "gsprt" : "normal", rate_fp[m], rate_fn[m],
                      (rate_fp[m] + rate_fn[m]) / 2, sigma, sigma_mean, pairs0[m], pairs1[m]);
    }
    assert_true(fabs(rate_fp[0] - 0.05) <= 3 * sigma);
    assert_true(fabs(rate_fn[0] - 0.05) <= 3 * sigma);
    assert_true(fabs((rate_fp[0] + rate_fn[0]) / 2 - 0.05) <= 3 * sigma_mean);
}

/* ===== the exact GSPRT's LLR ===== */

static double gsprt_of(const double *n, size_t k, double s0, double s1)
{
    double llr;
    char err[128];
    assert_int_equal(nk_arena_gsprt_llr(n, k, s0, s1, &llr, err, sizeof err), NK_OK);
    return llr;
}

static void test_gsprt_llr(void **state)
{
    (void)state;
    double s0 = nk_arena_score(0), s1 = nk_arena_score(20);
    /* no games: 0 */
    double none[5] = {0, 0, 0, 0, 0};
    assert_true(gsprt_of(none, 5, s0, s1) == 0);
    /* mirrored outcomes and hypotheses: the opposite LLR */
    double n[5] = {7, 31, 52, 40, 12}, mirror[5];
    for (int i = 0; i < 5; i++)
        mirror[i] = n[4 - i];
    double llr = gsprt_of(n, 5, s0, s1);
    assert_true(fabs(llr + gsprt_of(mirror, 5, 1 - s1, 1 - s0)) < 1e-9);
    /* a multiplier at or next to 0 (the observed mean at, or a hair from,
     * a hypothesis' score) */
    double even[5] = {1, 2, 3, 2, 1};
    double l_even = gsprt_of(even, 5, 0.5, s1);
    assert_true(l_even < 0 && fabs(l_even + gsprt_of(even, 5, 1 - s1, 0.5)) < 1e-9);
    assert_true(fabs(gsprt_of(even, 5, 0.5, nk_arena_score(1e-9))) < 1e-9);
    /* one more pair of 2 points raises it, one of 0 points lowers it */
    double up[5] = {7, 31, 52, 40, 13}, down[5] = {8, 31, 52, 40, 12};
    assert_true(gsprt_of(up, 5, s0, s1) > llr && gsprt_of(down, 5, s0, s1) < llr);
    /* empty cells are regularised: a single cell gives a finite LLR of its
     * sign, growing with the count */
    double wins[5] = {0, 0, 0, 0, 5}, losses[5] = {5, 0, 0, 0, 0}, more[5] = {0, 0, 0, 0, 50};
    double w = gsprt_of(wins, 5, s0, s1), l = gsprt_of(losses, 5, s0, s1);
    assert_true(isfinite(w) && w > 0 && isfinite(l) && l < 0 && gsprt_of(more, 5, s0, s1) > w);
    /* many pairs between close hypotheses: the normal approximation agrees
     * within 1% (both are the same to second order) */
    nk_arena_tally t;
    nk_arena_init(&t);
    static const double games[5][2] = {{0, 0}, {0.5, 0}, {0.5, 0.5}, {1, 0.5}, {1, 1}};
    double big[5] = {4000, 19000, 34000, 20000, 4500};
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < big[k]; i++)
            nk_arena_add_pair(&t, games[k][0], 0, games[k][1], 0);
    nk_sprt g, a;
    char err[256];
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_GSPRT, 0, 5, 0.05, 0.05, &g, err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_NORMAL, 0, 5, 0.05, 0.05, &a, err, sizeof err),
                     NK_OK);
    print_message("81500 pairs, 0 against 5 Elo: GSPRT %.4f, normal %.4f\n", g.llr, a.llr);
    assert_true(fabs(g.llr - gsprt_of(big, 5, nk_arena_score(0), nk_arena_score(5))) < 1e-9);
    assert_true(fabs(g.llr / a.llr - 1) < 0.01);
    /* games not in pairs: the trinomial counts (losses, draws, wins) */
    nk_arena_init(&t);
    for (int i = 0; i < 30; i++)
        nk_arena_add_game(&t, i % 3 == 0 ? 0.0 : i % 3 == 1 ? 0.5 : 1.0, 0);
    nk_arena_add_game(&t, 1.0, 0);
    double tri[3] = {10, 10, 11};
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_GSPRT, 0, 20, 0.05, 0.05, &g, err, sizeof err),
                     NK_OK);
    assert_true(fabs(g.llr - gsprt_of(tri, 3, s0, s1)) < 1e-12);
    /* refused */
    assert_int_equal(nk_arena_gsprt_llr(n, 4, s0, s1, &llr, err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_arena_gsprt_llr(n, 5, s1, s0, &llr, err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_arena_gsprt_llr(n, 5, 0, s1, &llr, err, sizeof err), NK_ERANGE);
    double negative[5] = {1, -1, 1, 1, 1};
    assert_int_equal(nk_arena_gsprt_llr(negative, 5, s0, s1, &llr, err, sizeof err), NK_ERANGE);
    /* an expected score of 1 in doubles has no GSPRT (the normal model takes it) */
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_GSPRT, 0, 20000, 0.05, 0.05, &g, err, sizeof err),
                     NK_ERANGE);
    assert_true(strlen(err) > 0 && strchr(err, '\n') == NULL);
    assert_int_equal(nk_arena_sprt(&t, NK_SPRT_NORMAL, 0, 20000, 0.05, 0.05, &g, err, sizeof err),
                     NK_OK);
}

static void test_parse(void **state)
{
    (void)state;
    nk_sprt_spec s;
    char err[256];
    assert_int_equal(nk_sprt_parse("elo0=0,elo1=5", &s, err, sizeof err), NK_OK);
    assert_true(s.elo0 == 0 && s.elo1 == 5 && s.alpha == 0.05 && s.beta == 0.05);
    assert_int_equal(nk_sprt_parse("beta=0.1,elo1=2.5,alpha=0.01,elo0=-1.5", &s, err, sizeof err),
                     NK_OK);
    assert_true(s.elo0 == -1.5 && s.elo1 == 2.5 && s.alpha == 0.01 && s.beta == 0.1);
    assert_string_equal(s.model, "gsprt"); /* the default */
    assert_int_equal(nk_sprt_spec_model(&s), NK_SPRT_GSPRT);
    assert_int_equal(nk_sprt_parse("elo0=0,model=normal,elo1=1e1", &s, err, sizeof err), NK_OK);
    assert_true(s.elo0 == 0 && s.elo1 == 10);
    assert_string_equal(s.model, "normal");
    assert_int_equal(nk_sprt_spec_model(&s), NK_SPRT_NORMAL);
    assert_int_equal(nk_sprt_parse("model=gsprt,elo0=0,elo1=5", &s, err, sizeof err), NK_OK);
    assert_int_equal(nk_sprt_spec_model(&s), NK_SPRT_GSPRT);
    /* the table has one row per key, the model's choices among them */
    size_t rows;
    const nk_param *table = nk_sprt_params_table(&rows);
    assert_int_equal(rows, 5);
    long model = nk_param_index(table, rows, "model");
    assert_true(model >= 0 && table[model].type == NK_PARAM_ENUM);
    assert_string_equal(nk_param_choice(&table[model], 0), "gsprt");
    assert_string_equal(nk_param_choice(&table[model], 1), "normal");

    const char *bad_einval[] = {"", "elo0=0", "elo1=5", "elo0=0,elo1=5,", "elo0=0,elo1=x",
                                "elo0=0,elo1=5,gamma=1", "elo0=0,elo0=1,elo1=5", "elo0=,elo1=5",
                                "elo0=0,elo1=inf", "elo0 0,elo1=5", "elo0=0,,elo1=5",
                                /* the tables' strict number reader (issue 27, 6) */
                                "elo0=0x1p3,elo1=20", "elo0= 5,elo1=20", "elo0=5 ,elo1=20",
                                "elo0=0,elo1=0x14", "elo0=0,elo1=nan",
                                /* the model */
                                "elo0=0,elo1=5,model=exact",
                                "elo0=0,elo1=5,model=", "elo0=0,elo1=5,model=normal,model=gsprt"};
    for (size_t i = 0; i < sizeof bad_einval / sizeof *bad_einval; i++) {
        err[0] = '\0';
        assert_int_equal(nk_sprt_parse(bad_einval[i], &s, err, sizeof err), NK_EINVAL);
        assert_true(strlen(err) > 0 && strchr(err, '\n') == NULL);
    }
    const char *bad_erange[] = {"elo0=5,elo1=5", "elo0=5,elo1=0", "elo0=0,elo1=5,alpha=0",
                                "elo0=0,elo1=5,beta=0.5", "elo0=0,elo1=5,alpha=-0.1"};
    for (size_t i = 0; i < sizeof bad_erange / sizeof *bad_erange; i++)
        assert_int_equal(nk_sprt_parse(bad_erange[i], &s, err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_sprt_parse("elo0=0,elo1=5,gamma=1", &s, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "gamma=1"));
    assert_int_equal(nk_sprt_parse("elo0=0x1p3,elo1=20", &s, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "elo0: '0x1p3' is not a finite decimal number"));
    assert_int_equal(nk_sprt_parse("elo0= 5,elo1=20", &s, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "elo0: ' 5' is not a finite decimal number"));
    assert_int_equal(nk_sprt_parse("elo0=0,elo1=5,model=exact", &s, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "model: 'exact' is not gsprt or normal"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),        cmocka_unit_test(test_first_crossing),
        cmocka_unit_test(test_gsprt_llr),    cmocka_unit_test(test_oc_far),
        cmocka_unit_test(test_oc_symmetric), cmocka_unit_test(test_oc_asymmetric),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
