/*
 * rating.h -- a rating list from pairwise results: maximum-likelihood Elo
 * ratings of many players with intervals and the likelihood of superiority.
 *
 * Input: the aggregated results of every pairing, m[i*n+j] = i's wins,
 * draws and losses against j (only the entries with i < j are read; the
 * caller keeps the matrix antisymmetric).  The fit never sees single games,
 * so 10^6 games cost what their n*n counts cost.
 *
 * Model (Bradley-Terry on the logistic Elo scale, draws as half a win, as
 * Ordo does): i's expected score against j is
 *   p_ij = 1 / (1 + 10^(-(r_i - r_j) / 400)),
 * and the log-likelihood is the sum over pairings of
 *   s_ij ln p_ij + (n_ij - s_ij) ln(1 - p_ij),
 * with n_ij the games and s_ij = W + D/2 i's points.  Its maximum is found
 * by Newton's method (Cholesky of the information matrix, step halving
 * when the likelihood would fall) with the anchor's rating held fixed:
 * player `anchor` is rated `anchor_elo`.  At the maximum each player's
 * points equal the expected points: sum_j s_ij = sum_j n_ij p_ij.
 *
 * Intervals: the covariance of the ratings is the inverse of the observed
 * information J (the curvature of the log-likelihood, anchor fixed),
 * corrected for draws by the sandwich J^-1 K J^-1: K is J with each game's
 * binomial variance p(1-p) replaced by the variance of a game's points
 * given the pairing's observed draw share d, p(1-p) - d/4 (a draw is worth
 * half a win, so draws make the points less variable than wins and losses
 * with the same mean; without draws K = J).  The 95% interval is
 * rating -+ 1.959964 * se; the anchor's se is 0.  The games of a
 * colour-swapped pair, which share their opening, are treated as
 * independent.
 *
 * Pool-relative intervals.  The anchor's own uncertainty enters every
 * interval above: each is that of r_i - r_anchor, wide when the anchor
 * (say a random player that almost never scores) carries little
 * information.  The alternative of BayesElo and Ordo holds the mean of the
 * ratings fixed instead: se_pool[i] is the standard error of r_i - mean(r),
 * from the same covariance, var = C_ii - (2/n) sum_j C_ij
 * + (1/n^2) sum_jk C_jk (a contrast, so it does not depend on which player
 * is the anchor).  It says how well a player is placed within the pool;
 * the anchor-relative se says how well it is placed against the anchor.
 *
 * Likelihood of superiority of i over j: Phi((r_i - r_j) / sd) with
 * sd^2 = var_i + var_j - 2 cov_ij.
 *
 * Existence.  The maximum is finite exactly when the graph of "i scored
 * some points against j" is strongly connected.  When the players are not
 * connected at all by games the fit fails (NK_EINVAL, naming two players
 * in different parts).  When they are connected but a player (or a group)
 * won or lost every game against the rest -- e.g. a random player that
 * never scored -- one virtual draw is added to every pairing that played
 * (a prior, as BayesElo's virtual draws; nk_ratings.prior says so), which
 * makes the maximum finite and changes little where many games were played.
 */
#ifndef NK_ARENA_RATING_H
#define NK_ARENA_RATING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* One player's results against another. */
typedef struct nk_wdl {
    uint32_t w, d, l;
} nk_wdl;

typedef struct nk_ratings {
    size_t n;
    double *elo;      /* [n] ratings */
    double *se;       /* [n] standard errors (0 for the anchor) */
    double *se_pool;  /* [n] standard errors of r_i - mean(r) (see above) */
    double *lo, *hi;  /* [n] 95% interval */
    double *cov;      /* [n*n] covariance of the ratings */
    double *games;    /* [n] games played (virtual draws not counted) */
    double *score;    /* [n] mean points per game (0.5 with no games) */
    size_t *order;    /* [n] players by rating, best first (ties: index) */
    double *los_next; /* [n] LOS of order[k] over order[k+1]; the last: NAN */
    bool prior;       /* one virtual draw was added to every pairing */
    unsigned iterations;
} nk_ratings;

/* Fits the ratings of n >= 2 players (m as above).  anchor < n.  Fills
 * *out (free with nk_ratings_free, also after a failure).  NK_EINVAL: n <
 * 2, a bad anchor, a player without games, players not connected by games;
 * NK_ENOMEM; NK_ERANGE if Newton's method does not converge. */
nk_status nk_ratings_fit(const nk_wdl *m, size_t n, size_t anchor, double anchor_elo,
                         nk_ratings *out, char *err, size_t errlen);
void nk_ratings_free(nk_ratings *r);

/* One player's rating against n opponents of fixed ratings (a ladder):
 * m[j] is its results against opponent j, rated elo[j].  The same model:
 * the maximum of the likelihood over the one free rating (Newton's
 * method), se = sqrt(K) / J with J and K as above (the draw-corrected
 * curvature).  If the player won every game or lost every game, one
 * virtual draw is added against every opponent it met (*prior says so).
 * NK_EINVAL when it played no game; NK_ERANGE without convergence. */
nk_status nk_rating_against(const nk_wdl *m, const double *elo, size_t n, double *out_elo,
                            double *out_se, bool *prior, char *err, size_t errlen);

/* One player's rating fitted jointly with a ladder's own results, so that
 * its interval holds the ladder's uncertainty too: ladder[i*n+j] are the
 * ladder's results (as m of nk_ratings_fit, i < j read), me[j] the new
 * player's against ladder player j.  The n + 1 players are fitted as one
 * list (nk_ratings_fit, the new player last) with ladder player `anchor`
 * rated anchor_elo, as the ladder was; *out_elo and *out_se are the new
 * player's rating and its standard error against the anchor, *prior
 * whether virtual draws were added.  Errors those of nk_ratings_fit. */
nk_status nk_rating_joint(const nk_wdl *ladder, size_t n, size_t anchor, double anchor_elo,
                          const nk_wdl *me, double *out_elo, double *out_se, bool *prior,
                          char *err, size_t errlen);

/* LOS of a over b from a fitted list. */
double nk_ratings_los(const nk_ratings *r, size_t a, size_t b);

/* The score matrix of the results: score[i*n+j] = i's mean points per game
 * against j (W + D/2) / N, in [0, 1]; 0.5 on the diagonal and for pairings
 * without games.  (The form of the Nash average's input.) */
void nk_ratings_score_matrix(const nk_wdl *m, size_t n, double *score);

#endif
