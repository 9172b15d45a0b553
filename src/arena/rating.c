/*
 * rating.c -- maximum-likelihood Elo ratings (arena/rating.h).
 */
#include "arena/rating.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>

#include "base/alloc.h"

enum { MAX_ITER = 200 };
static const double Z95 = 1.959964;

/* ln(10) / 400: d p / d r = C p (1 - p). */
#define C_ELO (2.302585092994045684 / 400.0)

void nk_ratings_free(nk_ratings *r)
{
    if (r == NULL)
        return;
    nk_free(r->elo);
    nk_free(r->se);
    nk_free(r->se_pool);
    nk_free(r->lo);
    nk_free(r->hi);
    nk_free(r->cov);
    nk_free(r->games);
    nk_free(r->score);
    nk_free(r->order);
    nk_free(r->los_next);
    memset(r, 0, sizeof *r);
}

void nk_ratings_score_matrix(const nk_wdl *m, size_t n, double *score)
{
    for (size_t i = 0; i < n; i++) {
        score[i * n + i] = 0.5;
        for (size_t j = i + 1; j < n; j++) {
            const nk_wdl *c = &m[i * n + j];
            double g = (double)c->w + c->d + c->l;
            double s = g > 0 ? ((double)c->w + 0.5 * c->d) / g : 0.5;
            score[i * n + j] = s;
            score[j * n + i] = 1.0 - s;
        }
    }
}

double nk_ratings_los(const nk_ratings *r, size_t a, size_t b)
{
    size_t n = r->n;
    double var = r->cov[a * n + a] + r->cov[b * n + b] - 2.0 * r->cov[a * n + b];
    double diff = r->elo[a] - r->elo[b];
    if (!(var > 0))
        return diff > 0 ? 1.0 : diff < 0 ? 0.0 : 0.5;
    return gsl_cdf_ugaussian_P(diff / sqrt(var));
}

/* Working arrays: games n_ij and points s_ij (i's) per pairing, dense. */
typedef struct fit {
    size_t n;
    double *ng, *pts, *draws; /* [n*n], symmetric / i's view / symmetric */
} fit;

static double expected(double ri, double rj)
{
    return 1.0 / (1.0 + pow(10.0, -(ri - rj) / 400.0));
}

static double loglik(const fit *f, const double *r)
{
    double ll = 0;
    for (size_t i = 0; i < f->n; i++)
        for (size_t j = i + 1; j < f->n; j++) {
            double g = f->ng[i * f->n + j];
            if (g <= 0)
                continue;
            double s = f->pts[i * f->n + j];
            /* ln p = -ln(1 + 10^-x), computed stably. */
            double x = (r[i] - r[j]) * C_ELO;
            double lp = x > 0 ? -log1p(exp(-x)) : x - log1p(exp(x));
            double lq = -x > 0 ? -log1p(exp(x)) : -x - log1p(exp(-x));
            ll += s * lp + (g - s) * lq;
        }
    return ll;
}

/* Union-find-free reachability: BFS over "i scored against j" (forward)
 * or "j scored against i" (backward), or over any game (both).  Marks
 * reached players in seen[]; returns how many. */
static size_t reach(const nk_wdl *m, size_t n, int dir, unsigned char *seen, size_t *queue)
{
    memset(seen, 0, n);
    size_t head = 0, tail = 0;
    seen[0] = 1;
    queue[tail++] = 0;
    while (head < tail) {
        size_t i = queue[head++];
        for (size_t j = 0; j < n; j++) {
            if (seen[j] || j == i)
                continue;
            const nk_wdl *c = i < j ? &m[i * n + j] : &m[j * n + i];
            /* i's wins/draws/losses against j */
            uint32_t w = i < j ? c->w : c->l, d = c->d, l = i < j ? c->l : c->w;
            bool edge = dir == 0 ? (w + d + l > 0) : dir > 0 ? (w + d > 0) : (l + d > 0);
            if (edge) {
                seen[j] = 1;
                queue[tail++] = j;
            }
        }
    }
    return tail;
}

static bool alloc_out(nk_ratings *r, size_t n)
{
    r->n = n;
    r->elo = nk_calloc(n, sizeof *r->elo);
    r->se = nk_calloc(n, sizeof *r->se);
    r->se_pool = nk_calloc(n, sizeof *r->se_pool);
    r->lo = nk_calloc(n, sizeof *r->lo);
    r->hi = nk_calloc(n, sizeof *r->hi);
    r->cov = nk_calloc(n * n, sizeof *r->cov);
    r->games = nk_calloc(n, sizeof *r->games);
    r->score = nk_calloc(n, sizeof *r->score);
    r->order = nk_calloc(n, sizeof *r->order);
    r->los_next = nk_calloc(n, sizeof *r->los_next);
    return r->elo && r->se && r->se_pool && r->lo && r->hi && r->cov && r->games && r->score && r->order &&
           r->los_next;
}

/* The information matrix over the free players (all but the anchor):
 * sum over pairings of g * v * C^2 on the Laplacian pattern, where v is
 * p(1-p) (J) or p(1-p) - d/4 clipped at 0 (K). */
static void information(const fit *f, const double *r, size_t anchor, bool draws_corrected,
                        gsl_matrix *a)
{
    size_t n = f->n;
    gsl_matrix_set_zero(a);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double g = f->ng[i * n + j];
            if (g <= 0)
                continue;
            double p = expected(r[i], r[j]);
            double v = p * (1.0 - p);
            if (draws_corrected) {
                v -= 0.25 * f->draws[i * n + j] / g;
                if (v < 0)
                    v = 0;
            }
            double h = g * v * C_ELO * C_ELO;
            size_t fi = i < anchor ? i : i - 1, fj = j < anchor ? j : j - 1;
            if (i != anchor)
                *gsl_matrix_ptr(a, fi, fi) += h;
            if (j != anchor)
                *gsl_matrix_ptr(a, fj, fj) += h;
            if (i != anchor && j != anchor) {
                *gsl_matrix_ptr(a, fi, fj) -= h;
                *gsl_matrix_ptr(a, fj, fi) -= h;
            }
        }
}

static nk_status newton(const fit *f, size_t anchor, double *r, unsigned *iters, gsl_matrix *a,
                        gsl_vector *g, gsl_vector *step, double *trial, char *err, size_t errlen)
{
    size_t n = f->n;
    double ll = loglik(f, r);
    for (unsigned it = 1; it <= MAX_ITER; it++) {
        *iters = it;
        /* gradient over the free players: C * (points - expected points) */
        gsl_vector_set_zero(g);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                double gm = f->ng[i * n + j];
                if (gm <= 0)
                    continue;
                double d = C_ELO * (f->pts[i * n + j] - gm * expected(r[i], r[j]));
                if (i != anchor)
                    *gsl_vector_ptr(g, i < anchor ? i : i - 1) += d;
                if (j != anchor)
                    *gsl_vector_ptr(g, j < anchor ? j : j - 1) -= d;
            }
        information(f, r, anchor, false, a);
        if (gsl_linalg_cholesky_decomp1(a) != GSL_SUCCESS ||
            gsl_linalg_cholesky_solve(a, g, step) != GSL_SUCCESS)
            return nk_fail(NK_ERANGE, err, errlen,
                           "rating fit: the information matrix is singular");
        double big = 0;
        for (size_t k = 0; k < n - 1; k++)
            big = fmax(big, fabs(gsl_vector_get(step, k)));
        /* step halving: the log-likelihood is concave, so a short enough
         * Newton step always raises it */
        double t = 1.0, lt = ll;
        for (int h = 0; h < 60; h++) {
            for (size_t i = 0; i < n; i++)
                trial[i] =
                    i == anchor ? r[i] : r[i] + t * gsl_vector_get(step, i < anchor ? i : i - 1);
            lt = loglik(f, trial);
            if (lt >= ll - 1e-12 * fabs(ll))
                break;
            t *= 0.5;
        }
        memcpy(r, trial, n * sizeof *r);
        ll = lt;
        if (big * t < 1e-9)
            return NK_OK;
    }
    return nk_fail(NK_ERANGE, err, errlen, "rating fit: no convergence after %d iterations",
                   MAX_ITER);
}

/* The work space of a fit of n players: the tables, the reach's marks and
 * queue, Newton's trial point, matrices and vectors over the n - 1 free
 * players. */
typedef struct fit_work {
    fit f;
    unsigned char *seen;
    size_t *queue;
    double *trial;
    gsl_matrix *a, *b, *t;
    gsl_vector *g, *step;
} fit_work;

/* false when out of memory (fit_work_free frees what was allocated); GSL's
 * error handler is off. */
static bool fit_work_alloc(fit_work *w, size_t n)
{
    w->f = (fit){.n = n};
    w->f.ng = nk_calloc(n * n, sizeof *w->f.ng);
    w->f.pts = nk_calloc(n * n, sizeof *w->f.pts);
    w->f.draws = nk_calloc(n * n, sizeof *w->f.draws);
    w->seen = nk_malloc(n);
    w->queue = nk_malloc(n * sizeof *w->queue);
    w->trial = nk_malloc(n * sizeof *w->trial);
    w->a = gsl_matrix_alloc(n - 1, n - 1);
    w->b = gsl_matrix_alloc(n - 1, n - 1);
    w->t = gsl_matrix_alloc(n - 1, n - 1);
    w->g = gsl_vector_alloc(n - 1);
    w->step = gsl_vector_alloc(n - 1);
    return w->f.ng && w->f.pts && w->f.draws && w->seen && w->queue && w->trial && w->a && w->b &&
           w->t && w->g && w->step;
}

static void fit_work_free(fit_work *w)
{
    gsl_vector_free(w->step);
    gsl_vector_free(w->g);
    gsl_matrix_free(w->t);
    gsl_matrix_free(w->b);
    gsl_matrix_free(w->a);
    nk_free(w->trial);
    nk_free(w->queue);
    nk_free(w->seen);
    nk_free(w->f.draws);
    nk_free(w->f.pts);
    nk_free(w->f.ng);
}

/* Each player's games and score; fails naming a player without games. */
static nk_status fit_totals(const nk_wdl *m, size_t n, nk_ratings *out, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        double pts = 0, games = 0;
        for (size_t j = 0; j < n; j++) {
            if (j == i)
                continue;
            const nk_wdl *c = i < j ? &m[i * n + j] : &m[j * n + i];
            double w = i < j ? c->w : c->l;
            games += (double)c->w + c->d + c->l;
            pts += w + 0.5 * c->d;
        }
        out->games[i] = games;
        out->score[i] = games > 0 ? pts / games : 0.5;
        if (games == 0)
            return nk_fail(NK_EINVAL, err, errlen, "rating fit: player %zu has no games", i);
    }
    return NK_OK;
}

/* Fails when the games do not connect every player with player 0 (no
 * common scale); sets out->prior when they do not connect them by wins
 * both ways (a finite maximum needs the prior's draw). */
static nk_status fit_scale(const nk_wdl *m, size_t n, fit_work *w, nk_ratings *out, char *err,
                           size_t errlen)
{
    if (reach(m, n, 0, w->seen, w->queue) < n) {
        size_t k = 1;
        while (k + 1 < n && w->seen[k] != 0)
            k++;
        return nk_fail(NK_EINVAL, err, errlen,
                       "rating fit: players 0 and %zu are not connected by games, so they have "
                       "no common scale",
                       k);
    }
    out->prior = reach(m, n, 1, w->seen, w->queue) < n || reach(m, n, -1, w->seen, w->queue) < n;
    return NK_OK;
}

/* The fit's tables of games, draws and points of each pair, with the
 * prior's one draw where prior is set. */
static void fit_tables(const nk_wdl *m, bool prior, fit *f)
{
    const size_t n = f->n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const nk_wdl *c = &m[i * n + j];
            double gm = (double)c->w + c->d + c->l;
            if (gm <= 0)
                continue;
            double d = c->d + (prior ? 1.0 : 0.0);
            gm += prior ? 1.0 : 0.0;
            double s = c->w + 0.5 * d;
            f->ng[i * n + j] = f->ng[j * n + i] = gm;
            f->draws[i * n + j] = f->draws[j * n + i] = d;
            f->pts[i * n + j] = s;
            f->pts[j * n + i] = gm - s;
        }
}

/* The covariance of the ratings at out->elo: J^-1 K J^-1 over the free
 * players, 0 in the anchor's row and column. */
static nk_status fit_covariance(fit_work *w, size_t anchor, nk_ratings *out, char *err,
                                size_t errlen)
{
    const size_t n = w->f.n;
    information(&w->f, out->elo, anchor, false, w->a);
    information(&w->f, out->elo, anchor, true, w->b);
    if (gsl_linalg_cholesky_decomp1(w->a) != GSL_SUCCESS ||
        gsl_linalg_cholesky_invert(w->a) != GSL_SUCCESS)
        return nk_fail(NK_ERANGE, err, errlen, "rating fit: the information matrix is singular");
    gsl_blas_dsymm(CblasLeft, CblasUpper, 1.0, w->a, w->b, 0.0, w->t);  /* J^-1 K */
    gsl_blas_dsymm(CblasRight, CblasUpper, 1.0, w->a, w->t, 0.0, w->b); /* J^-1 K J^-1 */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            out->cov[i * n + j] =
                i == anchor || j == anchor
                    ? 0.0
                    : gsl_matrix_get(w->b, i < anchor ? i : i - 1, j < anchor ? j : j - 1);
    return NK_OK;
}

/* From the ratings and their covariance: the standard errors, the 95%
 * intervals, the errors against the pool's mean, the order (best first)
 * and each player's likelihood of superiority over the next. */
static void fit_summary(nk_ratings *out, size_t n)
{
    const double *r = out->elo;
    for (size_t i = 0; i < n; i++) {
        double v = out->cov[i * n + i];
        out->se[i] = v > 0 ? sqrt(v) : 0.0;
        out->lo[i] = r[i] - Z95 * out->se[i];
        out->hi[i] = r[i] + Z95 * out->se[i];
    }
    /* var(r_i - mean r) = C_ii - (2/n) row_i + (1/n^2) total */
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        double row = 0;
        for (size_t j = 0; j < n; j++)
            row += out->cov[i * n + j];
        out->se_pool[i] = row; /* the row sum, for now */
        total += row;
    }
    double dn = (double)n;
    for (size_t i = 0; i < n; i++) {
        double v = out->cov[i * n + i] - 2.0 * out->se_pool[i] / dn + total / (dn * dn);
        out->se_pool[i] = v > 0 ? sqrt(v) : 0.0;
    }
    for (size_t i = 0; i < n; i++) { /* insertion sort, best first, stable */
        size_t k = i;
        while (k > 0 && r[out->order[k - 1]] < r[i]) {
            out->order[k] = out->order[k - 1];
            k--;
        }
        out->order[k] = i;
    }
    for (size_t k = 0; k < n; k++)
        out->los_next[k] = k + 1 < n ? nk_ratings_los(out, out->order[k], out->order[k + 1]) : NAN;
}

nk_status nk_ratings_fit(const nk_wdl *m, size_t n, size_t anchor, double anchor_elo,
                         nk_ratings *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (n < 2)
        return nk_fail(NK_EINVAL, err, errlen, "rating fit: needs at least 2 players, got %zu", n);
    if (anchor >= n)
        return nk_fail(NK_EINVAL, err, errlen, "rating fit: anchor %zu is not a player (0..%zu)",
                       anchor, n - 1);
    if (!alloc_out(out, n))
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    fit_work w;
    nk_status st = fit_work_alloc(&w, n) ? NK_OK : nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    if (st == NK_OK)
        st = fit_totals(m, n, out, err, errlen);
    if (st == NK_OK)
        st = fit_scale(m, n, &w, out, err, errlen);
    if (st == NK_OK) {
        fit_tables(m, out->prior, &w.f);
        for (size_t i = 0; i < n; i++)
            out->elo[i] = anchor_elo;
        st = newton(&w.f, anchor, out->elo, &out->iterations, w.a, w.g, w.step, w.trial, err,
                    errlen);
    }
    if (st == NK_OK)
        st = fit_covariance(&w, anchor, out, err, errlen);
    if (st == NK_OK)
        fit_summary(out, n);
    gsl_set_error_handler(old);
    fit_work_free(&w);
    return st;
}

nk_status nk_rating_against(const nk_wdl *m, const double *elo, size_t n, double *out_elo,
                            double *out_se, bool *prior, char *err, size_t errlen)
{
    double games = 0, pts = 0, mean = 0;
    for (size_t j = 0; j < n; j++) {
        double g = (double)m[j].w + m[j].d + m[j].l;
        games += g;
        pts += m[j].w + 0.5 * m[j].d;
        mean += g * elo[j];
    }
    if (games <= 0)
        return nk_fail(NK_EINVAL, err, errlen, "rating: the player has no games");
    *prior = pts <= 0 || pts >= games;
    double v = *prior ? 1.0 : 0.0;
    double r = mean / games; /* start at the opponents' mean */
    for (int it = 0; it < MAX_ITER; it++) {
        double g = 0, info = 0;
        for (size_t j = 0; j < n; j++) {
            double gm = (double)m[j].w + m[j].d + m[j].l;
            if (gm <= 0)
                continue;
            double p = expected(r, elo[j]);
            g += C_ELO * (m[j].w + 0.5 * (m[j].d + v) - (gm + v) * p);
            info += C_ELO * C_ELO * (gm + v) * p * (1.0 - p);
        }
        double step = g / info;
        if (step > 400)
            step = 400;
        if (step < -400)
            step = -400;
        r += step;
        if (fabs(step) < 1e-9) {
            double jj = 0, kk = 0;
            for (size_t k = 0; k < n; k++) {
                double gm = (double)m[k].w + m[k].d + m[k].l;
                if (gm <= 0)
                    continue;
                double p = expected(r, elo[k]), var = p * (1.0 - p);
                double q = var - 0.25 * (m[k].d + v) / (gm + v);
                jj += (gm + v) * var;
                kk += (gm + v) * (q > 0 ? q : 0);
            }
            *out_elo = r;
            *out_se = sqrt(kk) / (C_ELO * jj);
            return NK_OK;
        }
    }
    return nk_fail(NK_ERANGE, err, errlen, "rating: no convergence after %d iterations", MAX_ITER);
}

nk_status nk_rating_joint(const nk_wdl *ladder, size_t n, size_t anchor, double anchor_elo,
                          const nk_wdl *me, double *out_elo, double *out_se, bool *prior,
                          char *err, size_t errlen)
{
    size_t p = n + 1;
    nk_wdl *m = nk_calloc(p * p, sizeof *m);
    if (m == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu players", p);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            m[i * p + j] = ladder[i * n + j];
        m[i * p + n] = (nk_wdl){me[i].l, me[i].d, me[i].w};
        m[n * p + i] = me[i];
    }
    nk_ratings r;
    nk_status st = nk_ratings_fit(m, p, anchor, anchor_elo, &r, err, errlen);
    if (st == NK_OK) {
        *out_elo = r.elo[n];
        *out_se = r.se[n];
        *prior = r.prior;
    }
    nk_ratings_free(&r);
    nk_free(m);
    return st;
}
