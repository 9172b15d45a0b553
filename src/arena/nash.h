/*
 * nash.h -- the Nash average of a score matrix (Balduzzi, Tuyls, Perolat
 * and Graepel 2018, "Re-evaluating evaluation") and how transitive it is.
 *
 * Input: score[i*n+j], player i's mean score against player j in [0, 1]
 * (the diagonal is ignored: a player against itself is taken as 0.5).
 *
 * Meta-game.  A = score - score^T (so A[i][j] = 2 score[i][j] - 1 when
 * score[j][i] = 1 - score[i][j]; A is antisymmetric by construction even
 * when the two halves do not add up to 1), with A[i][i] = 0.  It is the
 * payoff of the symmetric two-player zero-sum game in which each side picks
 * a player.  Its value is 0, and a mix p (a probability vector) is an
 * equilibrium strategy exactly when no player beats it: (A p)_i <= 0 for
 * every i.  The equilibria form a polytope E; the maximum-entropy one, p*,
 * is unique (entropy is strictly concave) and treats copies of a player
 * alike, which makes the ranking invariant to redundant players.
 *
 * Method (exact LPs, then a bounded convex step):
 *  1. Support.  For each player k one linear program (GLPK, simplex then
 *     glp_exact, rational arithmetic on the given doubles): maximise p_k
 *     over E.  S = {k : max p_k > 1e-12}; a k already positive in an
 *     earlier LP's optimal point is in S without its own LP.  E's relative interior, and so
 *     p*, has support exactly S (entropy pushes every coordinate that can
 *     be positive off zero).  On E every row i in S holds with equality,
 *     (A p)_i = 0 (for equilibria p, q: p^T A q = 0, a sum of terms <= 0).
 *  2. Implicit equalities.  For each j outside S one LP maximises the slack
 *     -(A p)_j over E; a slack of at most 1e-12 makes row j an equality
 *     (a row with more slack at an earlier LP's optimum needs no LP).
 *  3. Maximum entropy over {p >= 0 on S, sum 1, equality rows = 0,
 *     remaining rows <= 0}: the Lagrange dual, min over y (y >= 0 on the
 *     inequality rows) of log sum_{i in S} exp(-(K^T y)_i), K the rows
 *     restricted to S, whose solution gives p*_i proportional to
 *     exp(-(K^T y)_i).  After steps 1-2 Slater's condition holds, so the
 *     dual minimum exists.  It is solved by projected accelerated gradient
 *     descent (FISTA with gradient restarts, step 1 / max_i |K_:,i|^2, a
 *     bound on the Hessian), from y = 0, serially, so the result is
 *     deterministic.  It stops when the KKT residual -- the largest
 *     equality residual |(A p)_i|, inequality violation max(0, (A p)_j)
 *     and complementarity |y_j (A p)_j| -- is below 1e-11, and gives up
 *     after 200000 iterations with NK_ERANGE ("did not converge").  The mix
 *     is exact to about that residual; when the equilibrium is unique
 *     (the usual case for real score matrices) step 3 only confirms it.
 *     Cost, measured on random 100 x 100 score matrices: about 2 s of CPU;
 *     40 x 40: 0.03 s.
 *
 * payoff[i] = (A mix)_i, the Nash average: player i's expected score
 * margin against the equilibrium mix (0 for every player in its support,
 * negative for the others; in [-1, 1]).
 *
 * cyclic_share: among the triads {i, j, k} whose three pairs are all
 * decided (score[a][b] != 0.5 for each pair, read from the upper triangle:
 * a beats b when score[a][b] > 0.5 for a < b), the share that are cycles
 * (i beats j beats k beats i, in either direction).  A triad with a tied
 * pair is left out of both counts; with no decided triad the share is 0.
 * 0 for a transitive matrix, 1 for rock-paper-scissors.
 */
#ifndef NK_ARENA_NASH_H
#define NK_ARENA_NASH_H

#include <stddef.h>

#include "base/status.h"

typedef struct nk_nash {
    size_t n;            /* players */
    double *mix;         /* [n] the maximum-entropy equilibrium mix */
    double *payoff;      /* [n] the Nash average, (A mix)_i */
    double cyclic_share; /* share of cyclic triads among decided ones */
} nk_nash;

/* Fills *out for the n x n matrix score (n >= 1; free with nk_nash_free;
 * a failure leaves nothing to free).  NK_EINVAL for n = 0 or a score that is not a
 * number in [0, 1]; NK_ENOMEM; NK_ERANGE when the solver fails or does not
 * converge (see above). */
nk_status nk_nash_average(const double *score, size_t n, nk_nash *out, char *err, size_t errlen);
void nk_nash_free(nk_nash *out);

#endif
