/*
 * arena.h -- match statistics: score, Elo difference with a confidence
 * interval, likelihood of superiority, and the SPRT.
 *
 * A tally counts one player's ("A"'s) games against another: wins, draws,
 * losses, the seed difference, and, for games played in colour-swapped
 * pairs, the pentanomial count of pair scores (0, 1/2, 1, 3/2, 2 points).
 *
 * Model.  With score s = (W + D/2) / N, the logistic Elo difference is
 * elo(s) = -400 log10(1/s - 1).  The 95% interval maps s -+ z * se through
 * elo(), z = 1.959964 (two-sided 95% normal quantile), where se is the
 * standard error of the mean score:
 *   - games in pairs only (the usual match): pentanomial -- the variance of
 *     the per-pair score x = points/2 over the P pairs, se = sqrt(var / P);
 *     pairs share an opening, so this is the honest variance;
 *   - otherwise trinomial: the per-game variance
 *     var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N, se = sqrt(var / N).
 * If the pentanomial variance is 0 (every pair scored the same, e.g. one
 * win and one loss each) the trinomial one is used instead.
 * Clamping: a score of 0 or 1 has no finite Elo.  Every score that enters
 * elo() is clamped to [1/(2N), 1 - 1/(2N)] (half a game from the edge, as
 * if one game had been a draw).  When even the trinomial variance is 0 (all
 * games won, all lost, or all drawn) the normal interval is empty: a clean
 * sweep of N games then gets the exact (Clopper-Pearson) bound on its open
 * side, 0.025^(1/N) for N wins (mirrored for N losses), and N draws get
 * the variance as if one draw had been a win and another a loss, 1/(2N).
 * LOS = Phi((W - L) / sqrt(W + L)) (draws carry no information; 0.5 with
 * no decisive game).  No games: score 0.5, Elo 0, interval [0, 0], LOS 0.5.
 *
 * SPRT (sequential probability ratio test, H0: elo = elo0 against H1: elo
 * = elo1, both logistic Elo) is the generalised SPRT (GSPRT) of chess
 * engine testing frameworks, on the pentanomial counts n_i of the pairs
 * (pair score per game a_i = i/4, i = 0..4; for games not in pairs the
 * trinomial counts of losses, draws, wins, a_i = i/2).  Two models of its
 * log-likelihood ratio (the spec's model=):
 *   - gsprt (the default): the exact GSPRT that fishtest (Stockfish's
 *     testing framework) computes for logistic Elo bounds.  Under each
 *     hypothesis the distribution of the outcomes is the maximum-likelihood
 *     one whose expected score is s0 (resp. s1), the expected score of
 *     elo0 (elo1) (nk_arena_score); that maximum has the form
 *         p_i = phat_i / (1 + lambda (a_i - s)),
 *     phat_i = n_i / N the observed frequencies, with lambda the root of
 *     sum_i phat_i (a_i - s) / (1 + lambda (a_i - s)) = 0 (found by GSL's
 *     Brent solver), and
 *         LLR = sum_i n_i ln(p1_i / p0_i).
 *     Empty cells are regularised as fishtest does: a count of 0 counts as
 *     1e-3 (in n_i and in N), so that every s in (0, 1) has a maximum and
 *     the LLR is finite; it adds at most a few thousandths to the LLR.
 *   - normal: Michel Van den Bergh's normal approximation of that ratio
 *     (fishtest's LLR_alt2),
 *         LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var),
 *     with s the observed mean score and (var, n) the pentanomial variance
 *     of the pair score x = points/2 and the number of pairs (or, for
 *     games not in pairs, the trinomial per-game variance and the number of
 *     games) as above.  It errs above alpha and beta when the bounds are
 *     far apart (tests/test_arena_sprt.c).
 * With no games the LLR is 0 under both.  The bounds are Wald's,
 * ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).  For a test that stops
 * at the first crossing, feed the pairs one by one in a fixed order and ask
 * after each (what `nickar match --sprt` does).
 */
#ifndef NK_ARENA_H
#define NK_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/param.h"
#include "base/status.h"

typedef struct nk_arena_tally {
    unsigned wins, draws, losses; /* A's games */
    unsigned singles;             /* games counted one by one (not in a pair) */
    unsigned pairs[5];            /* pairs by A's points in half points: 0..4 */
    long seed_diff;               /* sum of A's seed differences */
} nk_arena_tally;

typedef struct nk_arena_stats {
    unsigned games, wins, draws, losses;
    double score;     /* (W + D/2) / N, 0.5 with no games */
    double seed_diff; /* average seed difference per game, A's view */
    double elo;       /* Elo difference, A minus B */
    double elo_lo;    /* 95% confidence interval */
    double elo_hi;
    double se;        /* standard error of the score */
    double los;       /* likelihood of superiority, 0..1 */
    bool pentanomial; /* the variance came from pairs */
} nk_arena_stats;

/* An empty tally. */
void nk_arena_init(nk_arena_tally *t);
/* Counts one game of A's: points 1, 0.5 or 0 (anything above 0.5 is a win,
 * below a loss) and A's seed difference. */
void nk_arena_add_game(nk_arena_tally *t, double points, int seed_diff);
/* Counts a colour-swapped pair of A's games (the same as two add_game calls
 * for W/D/L and seeds, plus the pair's pentanomial count). */
void nk_arena_add_pair(nk_arena_tally *t, double points1, int seed_diff1, double points2,
                       int seed_diff2);
/* Games counted. */
unsigned nk_arena_games(const nk_arena_tally *t);
/* The statistics of the tally (see the model above). */
void nk_arena_stats_of(const nk_arena_tally *t, nk_arena_stats *out);

/* elo(s) = -400 log10(1/s - 1) for 0 < s < 1 (infinite at 0 and 1); and its
 * inverse, the expected score of an Elo difference. */
double nk_arena_elo(double score);
double nk_arena_score(double elo);
/* Phi((wins - losses) / sqrt(wins + losses)); 0.5 when both are 0. */
double nk_arena_los(unsigned wins, unsigned losses);

typedef enum nk_sprt_verdict {
    NK_SPRT_CONTINUE = 0,
    NK_SPRT_H0 = -1, /* accept H0 (elo = elo0): stop */
    NK_SPRT_H1 = 1   /* accept H1 (elo = elo1): stop */
} nk_sprt_verdict;

typedef struct nk_sprt {
    double llr;   /* log-likelihood ratio so far */
    double lower; /* ln(beta / (1 - alpha)) */
    double upper; /* ln((1 - beta) / alpha) */
    nk_sprt_verdict verdict;
} nk_sprt;

/* The model of the LLR (see above). */
typedef enum nk_sprt_model {
    NK_SPRT_GSPRT = 0, /* fishtest's exact GSPRT */
    NK_SPRT_NORMAL = 1 /* its normal approximation */
} nk_sprt_model;

/* "gsprt" or "normal" (the spec's model= values); NULL for anything else. */
const char *nk_sprt_model_name(nk_sprt_model model);

/* The SPRT of H0: elo0 against H1: elo1 (elo0 < elo1) at error rates alpha,
 * beta (in (0, 1/2)) under model.  NK_ERANGE for bad bounds or rates (and,
 * for gsprt, bounds whose expected score is 0 or 1 in doubles), NK_ENOMEM.
 * With no games, or (normal) a zero variance, the LLR is 0 and the test
 * continues. */
nk_status nk_arena_sprt(const nk_arena_tally *t, nk_sprt_model model, double elo0, double elo1,
                        double alpha, double beta, nk_sprt *out, char *err, size_t errlen);

/* The exact GSPRT's LLR of counts n[0..k) (k = 3 or 5, each >= 0) of
 * outcomes a_i = i / (k - 1), for expected scores s0 < s1 in (0, 1), with
 * fishtest's regularisation of empty cells; 0 when every count is 0.
 * NK_ERANGE for bad arguments, NK_ENOMEM. */
nk_status nk_arena_gsprt_llr(const double *n, size_t k, double s0, double s1, double *llr,
                             char *err, size_t errlen);

/* The parameters of an SPRT, one row each: H0 elo0, H1 elo1 (elo0 < elo1,
 * the rule across rows that nk_sprt_parse checks), the error rates alpha,
 * beta and the model of the LLR. */
#define NK_SPRT_PARAMS(X, P)                                                                       \
    X(P, sprt, elo0, elo0, DOUBLE, double, NULL, NK_ANY, NULL, NULL, "a number of Elo",            \
      "H0: the Elo difference of the null hypothesis (required; below elo1)")                      \
    X(P, sprt, elo1, elo1, DOUBLE, double, NULL, NK_ANY, NULL, NULL, "a number of Elo",            \
      "H1: the Elo difference of the alternative (required; above elo0)")                          \
    X(P, sprt, alpha, alpha, DOUBLE, double, "0.05", NK_BETWEEN(0, 0.5), NULL, NULL, NULL,         \
      "the false-positive rate: accepting H1 when H0 holds")                                       \
    X(P, sprt, beta, beta, DOUBLE, double, "0.05", NK_BETWEEN(0, 0.5), NULL, NULL, NULL,           \
      "the false-negative rate: accepting H0 when H1 holds")                                       \
    X(P, sprt, model, model, ENUM, const char *, "gsprt", NK_ANY, NK_CHOICES("gsprt", "normal"),   \
      NULL, NULL,                                                                                  \
      "the log-likelihood ratio: gsprt (fishtest's exact generalised SPRT) or normal (its "        \
      "normal approximation)")

/* model points at a static name, "gsprt" or "normal" (NULL: gsprt). */
typedef struct nk_sprt_spec {
    NK_SPRT_PARAMS(NK_PARAM_FIELD, _)
} nk_sprt_spec;

/* The table of NK_SPRT_PARAMS over nk_sprt_spec; *n its length. */
const nk_param *nk_sprt_params_table(size_t *n);

/* Parses "elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]" (keys in any order,
 * each at most once; values read by the parameter tables' strict reader,
 * nk_param_parse_scalar: decimal numbers only, no spaces).  NK_EINVAL for a
 * malformed text, a missing, unknown or repeated key or a value that is not
 * a number (or not a model); NK_ERANGE for values that break the rules
 * above.  err names the key and quotes the text. */
nk_status nk_sprt_parse(const char *text, nk_sprt_spec *out, char *err, size_t errlen);

/* The model of spec (NULL or "gsprt": NK_SPRT_GSPRT). */
nk_sprt_model nk_sprt_spec_model(const nk_sprt_spec *spec);

/* nk_arena_sprt with the parameters of spec. */
nk_status nk_arena_sprt_spec(const nk_arena_tally *t, const nk_sprt_spec *spec, nk_sprt *out,
                             char *err, size_t errlen);

#endif
