/*
 * arena.c -- match statistics (see arena.h for the model).
 *
 * Everything here is a pure function of the tally; the normal distribution
 * comes from GSL.  Scores are kept in [0, 1] (A's points per game); Elo
 * values are made finite by clamping the scores that enter elo().
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
#include <gsl/gsl_math.h>
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

nk_status nk_arena_sprt(const nk_arena_tally *t, double elo0, double elo1, double alpha,
                        double beta, nk_sprt *out, char *err, size_t errlen)
{
    if (!(elo0 < elo1) || !isfinite(elo0) || !isfinite(elo1))
        return nk_fail(NK_ERANGE, err, errlen, "SPRT bounds need elo0 < elo1 (got %g, %g)", elo0,
                       elo1);
    if (!(alpha > 0 && alpha < 0.5) || !(beta > 0 && beta < 0.5))
        return nk_fail(NK_ERANGE, err, errlen,
                       "SPRT error rates must lie in (0, 0.5) (got alpha %g, beta %g)", alpha,
                       beta);
    out->lower = gsl_sf_log(beta / (1.0 - alpha));
    out->upper = gsl_sf_log((1.0 - beta) / alpha);
    out->llr = 0;
    unsigned n = nk_arena_games(t);
    if (n > 0) {
        double s = score_of(t), s0 = nk_arena_score(elo0), s1 = nk_arena_score(elo1);
        unsigned samples;
        bool penta;
        double var = sample_var(t, s, &samples, &penta);
        if (var > 0)
            out->llr = samples * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
    }
    out->verdict = out->llr >= out->upper   ? NK_SPRT_H1
                   : out->llr <= out->lower ? NK_SPRT_H0
                                            : NK_SPRT_CONTINUE;
    return NK_OK;
}

nk_status nk_arena_sprt_spec(const nk_arena_tally *t, const nk_sprt_spec *spec, nk_sprt *out,
                             char *err, size_t errlen)
{
    return nk_arena_sprt(t, spec->elo0, spec->elo1, spec->alpha, spec->beta, out, err, errlen);
}

/* ===== the SPRT's parameters ===== */

enum { SPRT_KEYS = 4 };
static const char *const sprt_keys[SPRT_KEYS] = {"elo0", "elo1", "alpha", "beta"};

nk_status nk_sprt_parse(const char *text, nk_sprt_spec *out, char *err, size_t errlen)
{
    char quoted[160];
    double value[SPRT_KEYS] = {0, 0, 0.05, 0.05};
    bool seen[SPRT_KEYS] = {false, false, false, false};
    nk_escape(text, quoted, sizeof quoted);
    const char *p = text;
    while (*p != '\0') {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        size_t klen = eq ? (size_t)(eq - p) : len;
        int k = 0;
        while (k < SPRT_KEYS &&
               !(strlen(sprt_keys[k]) == klen && strncmp(p, sprt_keys[k], klen) == 0))
            k++;
        char piece[64];
        snprintf(piece, sizeof piece, "%.*s", (int)(len < 60 ? len : 60), p);
        char qpiece[160];
        nk_escape(piece, qpiece, sizeof qpiece);
        if (eq == NULL || k == SPRT_KEYS)
            return nk_fail(NK_EINVAL, err, errlen,
                           "'%s' in '%s' is not KEY=VALUE with KEY elo0, elo1, alpha or beta",
                           qpiece, quoted);
        if (seen[k])
            return nk_fail(NK_EINVAL, err, errlen, "%s is given twice in '%s'", sprt_keys[k],
                           quoted);
        char num[64];
        size_t vlen = len - klen - 1;
        if (vlen == 0 || vlen >= sizeof num)
            return nk_fail(NK_EINVAL, err, errlen, "%s needs a number in '%s'", sprt_keys[k],
                           quoted);
        memcpy(num, eq + 1, vlen);
        num[vlen] = '\0';
        char *end;
        errno = 0;
        double v = strtod(num, &end);
        if (*end != '\0' || end == num || errno != 0 || !isfinite(v))
            return nk_fail(NK_EINVAL, err, errlen, "%s: '%s' is not a finite number in '%s'",
                           sprt_keys[k], qpiece + klen + 1, quoted);
        value[k] = v;
        seen[k] = true;
        p += len;
        if (*p == ',') {
            p++;
            if (*p == '\0')
                return nk_fail(NK_EINVAL, err, errlen, "'%s' ends in a comma", quoted);
        }
    }
    for (int k = 0; k < 2; k++)
        if (!seen[k])
            return nk_fail(NK_EINVAL, err, errlen,
                           "'%s' lacks %s (the form is elo0=E0,elo1=E1[,alpha=A,beta=B])", quoted,
                           sprt_keys[k]);
    if (!(value[0] < value[1]))
        return nk_fail(NK_ERANGE, err, errlen, "elo0 (%g) must be below elo1 (%g) in '%s'",
                       value[0], value[1], quoted);
    for (int k = 2; k < 4; k++)
        if (!(value[k] > 0 && value[k] < 0.5))
            return nk_fail(NK_ERANGE, err, errlen, "%s (%g) must lie strictly between 0 and 0.5",
                           sprt_keys[k], value[k]);
    *out = (nk_sprt_spec){value[0], value[1], value[2], value[3]};
    return NK_OK;
}
