/*
 * arena.c -- match statistics (see arena.h for the model).
 *
 * Everything here is a pure function of the tally; the normal distribution
 * comes from GSL.  Scores are kept in [0, 1] (A's points per game); Elo
 * values are made finite by clamping the scores that enter elo().
 *
 * The exact GSPRT's constrained maxima come from GSL's Brent root solver
 * (gsl_root_fsolver_brent) on the one-dimensional equation of their
 * Lagrange multiplier; the bracket handed to it is found here (see
 * mle_lambda), the solving is GSL's.
 *
 * Logarithms and powers go through GSL (gsl_sf_log, gsl_sf_exp), which
 * brings its own libm, so that this layer needs no -lm of its own; their
 * arguments are kept positive here (GSL's default error handler aborts).
 */
#include "arena/arena.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_exp.h>
#include <gsl/gsl_sf_log.h>

#include "base/escape.h"

/* x^y for x > 0, and the square root of x >= 0. */
static double power(double x, double y)
{
    return gsl_sf_exp(y * gsl_sf_log(x));
}

static double root(double x)
{
    return x > 0 ? power(x, 0.5) : 0.0;
}

void nk_arena_init(nk_arena_tally *t)
{
    memset(t, 0, sizeof *t);
}

static void count_game(nk_arena_tally *t, double points, int seed_diff)
{
    if (points > 0.5)
        t->wins++;
    else if (points < 0.5)
        t->losses++;
    else
        t->draws++;
    t->seed_diff += seed_diff;
}

void nk_arena_add_game(nk_arena_tally *t, double points, int seed_diff)
{
    count_game(t, points, seed_diff);
    t->singles++;
}

/* Half points of one game: 2 win, 1 draw, 0 loss. */
static unsigned half_points(double points)
{
    return points > 0.5 ? 2u : points < 0.5 ? 0u : 1u;
}

void nk_arena_add_pair(nk_arena_tally *t, double points1, int seed_diff1, double points2,
                       int seed_diff2)
{
    count_game(t, points1, seed_diff1);
    count_game(t, points2, seed_diff2);
    t->pairs[half_points(points1) + half_points(points2)]++;
}

unsigned nk_arena_games(const nk_arena_tally *t)
{
    return t->wins + t->draws + t->losses;
}

double nk_arena_elo(double score)
{
    if (!(score > 0))
        return -INFINITY;
    if (!(score < 1))
        return INFINITY;
    return -400.0 * gsl_sf_log(1.0 / score - 1.0) / M_LN10;
}

double nk_arena_score(double elo)
{
    double x = -elo / 400.0 * M_LN10; /* the score is 1 / (1 + e^x) */
    /* beyond GSL's exp range the score is 0 or 1 in doubles */
    if (x > 700)
        return 0.0;
    if (x < -700)
        return 1.0;
    return 1.0 / (1.0 + gsl_sf_exp(x));
}

double nk_arena_los(unsigned wins, unsigned losses)
{
    if (wins + losses == 0)
        return 0.5;
    return gsl_cdf_ugaussian_P(((double)wins - (double)losses) /
                               root((double)wins + (double)losses));
}

/* ===== variance of the mean score ===== */

static double score_of(const nk_arena_tally *t)
{
    unsigned n = nk_arena_games(t);
    return n ? (t->wins + 0.5 * t->draws) / n : 0.5;
}

/* Per-game (trinomial) variance of the points around s. */
static double trinomial_var(const nk_arena_tally *t, double s)
{
    unsigned n = nk_arena_games(t);
    double w = 1.0 - s, d = 0.5 - s, l = -s;
    return (t->wins * w * w + t->draws * d * d + t->losses * l * l) / n;
}

static unsigned pair_count(const nk_arena_tally *t)
{
    unsigned p = 0;
    for (int k = 0; k < 5; k++)
        p += t->pairs[k];
    return p;
}

/* Per-pair (pentanomial) variance of x = pair points / 2 around s. */
static double pentanomial_var(const nk_arena_tally *t, double s)
{
    unsigned p = pair_count(t);
    double v = 0;
    for (int k = 0; k < 5; k++) {
        double d = k / 4.0 - s;
        v += t->pairs[k] * d * d;
    }
    return v / p;
}

/* The variance used and the number of samples it is per (pairs or games);
 * *pentanomial says which.  var may be 0. */
static double sample_var(const nk_arena_tally *t, double s, unsigned *samples, bool *pentanomial)
{
    if (t->singles == 0 && pair_count(t) > 0) {
        double v = pentanomial_var(t, s);
        if (v > 0) {
            *samples = pair_count(t);
            *pentanomial = true;
            return v;
        }
    }
    *samples = nk_arena_games(t);
    *pentanomial = false;
    return trinomial_var(t, s);
}

/* ===== statistics ===== */

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

void nk_arena_stats_of(const nk_arena_tally *t, nk_arena_stats *out)
{
    unsigned n = nk_arena_games(t);
    memset(out, 0, sizeof *out);
    out->games = n;
    out->wins = t->wins;
    out->draws = t->draws;
    out->losses = t->losses;
    out->score = score_of(t);
    out->los = nk_arena_los(t->wins, t->losses);
    if (n == 0)
        return;
    out->seed_diff = (double)t->seed_diff / n;

    double s = out->score, eps = 0.5 / n;
    double lo_s, hi_s;
    unsigned samples;
    double var = sample_var(t, s, &samples, &out->pentanomial);
    double z = gsl_cdf_ugaussian_Pinv(0.975);
    if (var > 0 || t->draws == n) {
        if (var == 0) /* all draws: as if one were a win and one a loss */
            var = 0.5 / n;
        out->se = root(var / samples);
        lo_s = s - z * out->se;
        hi_s = s + z * out->se;
    } else if (t->wins == n) { /* clean sweeps: exact bound on the open side */
        lo_s = power(0.025, 1.0 / n);
        hi_s = 1.0;
    } else {
        lo_s = 0.0;
        hi_s = 1.0 - power(0.025, 1.0 / n);
    }
    out->elo = nk_arena_elo(clamp(s, eps, 1.0 - eps));
    out->elo_lo = nk_arena_elo(clamp(lo_s, eps, 1.0 - eps));
    out->elo_hi = nk_arena_elo(clamp(hi_s, eps, 1.0 - eps));
}

/* ===== SPRT ===== */

const char *nk_sprt_model_name(nk_sprt_model model)
{
    return model == NK_SPRT_GSPRT ? "gsprt" : model == NK_SPRT_NORMAL ? "normal" : NULL;
}

/* fishtest's regularisation: an empty cell counts as this many. */
#define GSPRT_EMPTY 1e-3
enum { GSPRT_MAX_ITER = 200 };
/* The tolerance of the multiplier, relative (and absolute, for a root at
 * or next to 0, where a relative test alone never ends).  The LLR is
 * stationary in each multiplier at its root (the derivative is -N
 * f(lambda) = 0), so an error e in lambda moves the LLR by O(N e^2): 1e-10
 * leaves it exact to far below 1e-9 for any count a match can reach. */
#define GSPRT_TOL 1e-10
#define GSPRT_TOL_ABS 1e-15

/* The equation of the multiplier: f(lambda) = sum_i p_i d_i / (1 + lambda
 * d_i), with d_i = a_i - s; strictly decreasing where every 1 + lambda d_i
 * > 0, from +inf to -inf. */
typedef struct mle_eq {
    const double *p, *d;
    size_t k;
} mle_eq;

static double mle_f(double lambda, void *params)
{
    const mle_eq *e = params;
    double f = 0;
    for (size_t i = 0; i < e->k; i++)
        f += e->p[i] * e->d[i] / (1.0 + lambda * e->d[i]);
    return f;
}

/* The multiplier lambda of the maximum-likelihood distribution with mean s
 * (0 < s < 1) given frequencies p[0..k) (all > 0) of outcomes a_i =
 * i/(k-1), with the solver sv.  The root lies between 0 and the pole on the
 * side f(0) = mean - s points to; the bracket's far end steps towards that
 * pole (halving the distance) until f changes sign, which it must, as f
 * tends to -+inf there. */
static nk_status mle_lambda(gsl_root_fsolver *sv, const double *p, size_t k, double s,
                            double *lambda, char *err, size_t errlen)
{
    double d[5];
    for (size_t i = 0; i < k; i++)
        d[i] = (double)i / (double)(k - 1) - s;
    mle_eq e = {p, d, k};
    gsl_function fn = {mle_f, &e};
    double f0 = mle_f(0, &e);
    *lambda = 0;
    if (f0 == 0)
        return NK_OK;
    /* the pole: 1 + lambda d_i = 0 for the outcome farthest on that side;
     * the far end starts at twice Newton's first step from 0 (the root is
     * usually near it), at most half way to the pole */
    double pole = f0 > 0 ? -1.0 / d[0] : -1.0 / d[k - 1];
    double slope = 0; /* -f'(0) */
    for (size_t i = 0; i < k; i++)
        slope += p[i] * d[i] * d[i];
    double far = 2 * f0 / slope;
    if (!(fabs(far) < fabs(pole) / 2))
        far = pole / 2;
    while ((mle_f(far, &e) > 0) == (f0 > 0)) {
        double next = pole - (pole - far) / 2;
        if (next == pole || next == far) /* the doubles ran out before the pole */
            return nk_fail(NK_ERANGE, err, errlen, "GSPRT: no bracket for the score %g", s);
        far = next;
    }
    double lo = f0 > 0 ? 0 : far, hi = f0 > 0 ? far : 0;
    if (gsl_root_fsolver_set(sv, &fn, lo, hi) != GSL_SUCCESS)
        return nk_fail(NK_ERANGE, err, errlen, "GSPRT: no bracket for the score %g", s);
    for (int it = 0; it < GSPRT_MAX_ITER; it++) {
        if (gsl_root_fsolver_iterate(sv) != GSL_SUCCESS)
            break;
        lo = gsl_root_fsolver_x_lower(sv);
        hi = gsl_root_fsolver_x_upper(sv);
        if (gsl_root_test_interval(lo, hi, GSPRT_TOL_ABS, GSPRT_TOL) == GSL_SUCCESS) {
            *lambda = gsl_root_fsolver_root(sv);
            return NK_OK;
        }
    }
    return nk_fail(NK_ERANGE, err, errlen, "GSPRT: the maximum for the score %g did not converge",
                   s);
}

nk_status nk_arena_gsprt_llr(const double *n, size_t k, double s0, double s1, double *llr,
                             char *err, size_t errlen)
{
    *llr = 0;
    if (k != 3 && k != 5)
        return nk_fail(NK_ERANGE, err, errlen, "GSPRT: %zu outcomes (3 or 5)", k);
    if (!(0 < s0 && s0 < s1 && s1 < 1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "GSPRT: the expected scores %g, %g must satisfy 0 < s0 < s1 < 1", s0, s1);
    double m[5], total = 0, seen = 0;
    for (size_t i = 0; i < k; i++) {
        if (!(n[i] >= 0) || !isfinite(n[i]))
            return nk_fail(NK_ERANGE, err, errlen, "GSPRT: count %zu is %g", i, n[i]);
        seen += n[i];
        m[i] = n[i] > 0 ? n[i] : GSPRT_EMPTY;
        total += m[i];
    }
    if (seen == 0)
        return NK_OK;
    double p[5];
    for (size_t i = 0; i < k; i++)
        p[i] = m[i] / total;
    gsl_root_fsolver *sv = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (sv == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "GSPRT: out of memory for the root solver");
    double l0, l1;
    nk_status st = mle_lambda(sv, p, k, s0, &l0, err, errlen);
    if (st == NK_OK)
        st = mle_lambda(sv, p, k, s1, &l1, err, errlen);
    gsl_root_fsolver_free(sv);
    if (st != NK_OK)
        return st;
    /* p1_i / p0_i = (1 + l0 d0_i) / (1 + l1 d1_i); both factors are > 0 */
    double sum = 0;
    for (size_t i = 0; i < k; i++) {
        double a = (double)i / (double)(k - 1);
        sum += m[i] * (gsl_sf_log(1.0 + l0 * (a - s0)) - gsl_sf_log(1.0 + l1 * (a - s1)));
    }
    *llr = sum;
    return NK_OK;
}

/* The normal approximation's LLR. */
static double normal_llr(const nk_arena_tally *t, double s0, double s1)
{
    if (nk_arena_games(t) == 0)
        return 0;
    double s = score_of(t);
    unsigned samples;
    bool penta;
    double var = sample_var(t, s, &samples, &penta);
    return var > 0 ? samples * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var) : 0;
}

/* The exact GSPRT's LLR: on the pairs, or on the games when some are not
 * in a pair. */
static nk_status gsprt_llr(const nk_arena_tally *t, double s0, double s1, double *llr, char *err,
                           size_t errlen)
{
    double n[5];
    if (t->singles == 0) {
        for (int i = 0; i < 5; i++)
            n[i] = t->pairs[i];
        return nk_arena_gsprt_llr(n, 5, s0, s1, llr, err, errlen);
    }
    n[0] = t->losses;
    n[1] = t->draws;
    n[2] = t->wins;
    return nk_arena_gsprt_llr(n, 3, s0, s1, llr, err, errlen);
}

nk_status nk_arena_sprt(const nk_arena_tally *t, nk_sprt_model model, double elo0, double elo1,
                        double alpha, double beta, nk_sprt *out, char *err, size_t errlen)
{
    if (!(elo0 < elo1) || !isfinite(elo0) || !isfinite(elo1))
        return nk_fail(NK_ERANGE, err, errlen, "SPRT bounds need elo0 < elo1 (got %g, %g)", elo0,
                       elo1);
    if (!(alpha > 0 && alpha < 0.5) || !(beta > 0 && beta < 0.5))
        return nk_fail(NK_ERANGE, err, errlen,
                       "SPRT error rates must lie in (0, 0.5) (got alpha %g, beta %g)", alpha,
                       beta);
    if (nk_sprt_model_name(model) == NULL)
        return nk_fail(NK_ERANGE, err, errlen, "SPRT model %d is not gsprt or normal", (int)model);
    double s0 = nk_arena_score(elo0), s1 = nk_arena_score(elo1);
    if (model == NK_SPRT_GSPRT && !(s0 > 0 && s1 < 1 && s0 < s1))
        return nk_fail(NK_ERANGE, err, errlen,
                       "SPRT bounds %g and %g are too far from 0 for the GSPRT: their expected "
                       "scores must differ and lie strictly between 0 and 1",
                       elo0, elo1);
    out->lower = gsl_sf_log(beta / (1.0 - alpha));
    out->upper = gsl_sf_log((1.0 - beta) / alpha);
    out->llr = 0;
    if (model == NK_SPRT_NORMAL) {
        out->llr = normal_llr(t, s0, s1);
    } else {
        nk_status st = gsprt_llr(t, s0, s1, &out->llr, err, errlen);
        if (st != NK_OK)
            return st;
    }
    out->verdict = out->llr >= out->upper   ? NK_SPRT_H1
                   : out->llr <= out->lower ? NK_SPRT_H0
                                            : NK_SPRT_CONTINUE;
    return NK_OK;
}

nk_sprt_model nk_sprt_spec_model(const nk_sprt_spec *spec)
{
    return spec->model != NULL && strcmp(spec->model, "normal") == 0 ? NK_SPRT_NORMAL
                                                                     : NK_SPRT_GSPRT;
}

nk_status nk_arena_sprt_spec(const nk_arena_tally *t, const nk_sprt_spec *spec, nk_sprt *out,
                             char *err, size_t errlen)
{
    return nk_arena_sprt(t, nk_sprt_spec_model(spec), spec->elo0, spec->elo1, spec->alpha,
                         spec->beta, out, err, errlen);
}

/* ===== the SPRT's parameters ===== */

#define SPRT_ROW(P, sec, nm, field, T, ctype, ...)                                                 \
    NK_PARAM_DESCRIBE(nk_sprt_spec, field, sec, nm, T, __VA_ARGS__)
static const nk_param sprt_params[] = {NK_SPRT_PARAMS(SPRT_ROW, _)};
enum { SPRT_KEYS = sizeof sprt_params / sizeof sprt_params[0] };
_Static_assert(SPRT_KEYS <= 8 * sizeof(unsigned), "one bit of `seen` per key");

const nk_param *nk_sprt_params_table(size_t *n)
{
    *n = SPRT_KEYS;
    return sprt_params;
}

/* Reads value (quoted as qval) as key p of spec: an enum's choice (kept as
 * the row's static name) or a number by the tables' strict reader. */
static nk_status sprt_value(const nk_param *p, const char *value, const char *qval,
                            const char *quoted, nk_sprt_spec *spec, char *err, size_t errlen)
{
    char canon[64], why[256];
    if (p->type == NK_PARAM_ENUM) {
        for (size_t i = 0; nk_param_choice(p, i) != NULL; i++)
            if (strcmp(value, nk_param_choice(p, i)) == 0)
                return nk_param_set(p, spec, nk_param_choice(p, i));
        char expects[128];
        size_t n = 0;
        for (size_t i = 0; nk_param_choice(p, i) != NULL && n < sizeof expects; i++)
            n += (size_t)snprintf(expects + n, sizeof expects - n, "%s%s", i ? " or " : "",
                                  nk_param_choice(p, i));
        return nk_fail(NK_EINVAL, err, errlen, "%s: '%s' is not %s in '%s'", p->name, qval, expects,
                       quoted);
    }
    nk_status st = nk_param_parse_scalar(p, value, canon, sizeof canon, why, sizeof why);
    if (st == NK_ERANGE) {
        char expects[128];
        nk_param_expects(p, expects, sizeof expects);
        return nk_fail(st, err, errlen, "%s (%s) must be %s in '%s'", p->name, qval, expects,
                       quoted);
    }
    if (st != NK_OK)
        return nk_fail(st, err, errlen, "%s: '%s' is not a finite decimal number in '%s'", p->name,
                       qval, quoted);
    return nk_param_set(p, spec, canon);
}

nk_status nk_sprt_parse(const char *text, nk_sprt_spec *out, char *err, size_t errlen)
{
    char quoted[160], names[128];
    nk_sprt_spec spec;
    memset(&spec, 0, sizeof spec);
    nk_param_defaults(sprt_params, SPRT_KEYS, &spec);
    unsigned seen = 0;
    nk_escape(text, quoted, sizeof quoted);
    nk_param_names(sprt_params, SPRT_KEYS, names, sizeof names);
    const char *p = text;
    while (*p != '\0') {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        size_t klen = eq ? (size_t)(eq - p) : len;
        char piece[64], key[16] = "";
        snprintf(piece, sizeof piece, "%.*s", (int)(len < 60 ? len : 60), p);
        if (klen < sizeof key)
            snprintf(key, sizeof key, "%.*s", (int)klen, p);
        long k = eq != NULL && klen < sizeof key ? nk_param_index(sprt_params, SPRT_KEYS, key) : -1;
        char qpiece[160];
        nk_escape(piece, qpiece, sizeof qpiece);
        if (k < 0)
            return nk_fail(NK_EINVAL, err, errlen,
                           "'%s' in '%s' is not KEY=VALUE with KEY one of %s", qpiece, quoted,
                           names);
        if (seen & (1u << k))
            return nk_fail(NK_EINVAL, err, errlen, "%s is given twice in '%s'", key, quoted);
        char value[64];
        size_t vlen = len - klen - 1;
        if (vlen == 0 || vlen >= sizeof value)
            return nk_fail(NK_EINVAL, err, errlen, "%s needs a value in '%s'", key, quoted);
        memcpy(value, eq + 1, vlen);
        value[vlen] = '\0';
        nk_status st =
            sprt_value(&sprt_params[k], value, qpiece + klen + 1, quoted, &spec, err, errlen);
        if (st != NK_OK)
            return st;
        seen |= 1u << k;
        p += len;
        if (*p == ',') {
            p++;
            if (*p == '\0')
                return nk_fail(NK_EINVAL, err, errlen, "'%s' ends in a comma", quoted);
        }
    }
    for (size_t k = 0; k < SPRT_KEYS; k++)
        if (sprt_params[k].def == NULL && !(seen & (1u << k)))
            return nk_fail(NK_EINVAL, err, errlen,
                           "'%s' lacks %s (the form is elo0=E0,elo1=E1[,alpha=A,beta=B,"
                           "model=gsprt|normal])",
                           quoted, sprt_params[k].name);
    if (!(spec.elo0 < spec.elo1))
        return nk_fail(NK_ERANGE, err, errlen, "elo0 (%g) must be below elo1 (%g) in '%s'",
                       spec.elo0, spec.elo1, quoted);
    *out = spec;
    return NK_OK;
}
