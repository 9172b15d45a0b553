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
 * engine testing frameworks in the form fishtest (Stockfish's testing
 * framework) used for logistic Elo bounds: Michel Van den Bergh's normal
 * approximation of the GSPRT's log-likelihood ratio,
 *     LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var),
 * with s0, s1 the expected scores of elo0, elo1 (nk_arena_score), s the
 * observed mean score and (var, n) the pentanomial variance of the pair
 * score x = points/2 and the number of pairs (or, for games not in pairs,
 * the trinomial per-game variance and the number of games) as above.  The
 * bounds are Wald's, ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
 * For a test that stops at the first crossing, feed the pairs one by one
 * in a fixed order and ask after each (what `nickar match --sprt` does).
 */
#ifndef NK_ARENA_H
#define NK_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* The SPRT of H0: elo0 against H1: elo1 (elo0 < elo1) at error rates alpha,
 * beta (in (0, 1/2)).  NK_ERANGE for bad bounds or rates.  With no games or
 * a zero variance the LLR is 0 and the test continues. */
nk_status nk_arena_sprt(const nk_arena_tally *t, double elo0, double elo1, double alpha,
                        double beta, nk_sprt *out, char *err, size_t errlen);

/* The parameters of an SPRT: H0 elo0, H1 elo1 (elo0 < elo1, finite) and
 * the error rates alpha, beta (each in (0, 1/2); default 0.05). */
typedef struct nk_sprt_spec {
    double elo0, elo1, alpha, beta;
} nk_sprt_spec;

/* Parses "elo0=E0,elo1=E1[,alpha=A,beta=B]" (keys in any order, each at
 * most once).  NK_EINVAL for a malformed text, a missing, unknown or
 * repeated key or a value that is not a number; NK_ERANGE for values that
 * break the rules above.  err names the key and quotes the text. */
nk_status nk_sprt_parse(const char *text, nk_sprt_spec *out, char *err, size_t errlen);

/* nk_arena_sprt with the parameters of spec. */
nk_status nk_arena_sprt_spec(const nk_arena_tally *t, const nk_sprt_spec *spec, nk_sprt *out,
                             char *err, size_t errlen);

#endif
