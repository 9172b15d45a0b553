/*
 * nash.c -- the maximum-entropy Nash equilibrium of the antisymmetric
 * meta-game of a score matrix, and the share of cyclic triads (nash.h says
 * the method).
 */
#include "arena/nash.h"

#include <glpk.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base/alloc.h"

enum { MAX_ITER = 200000 };
static const double SUPPORT_EPS = 1e-12; /* max p_k above this: k is in the support */
static const double SLACK_EPS = 1e-12;   /* max slack at most this: an implicit equality */
static const double KKT_TOL = 1e-11;     /* stop of the dual descent */

/* One LP over E = {p >= 0, sum p = 1, A p <= 0}: maximise p_k (slack < 0)
 * or the slack -(A p)_j (slack = j).  *value gets the optimum, x[0..n) the
 * optimal point. */
static nk_status lp_max(const double *a, size_t n, size_t k, long slack, double *value, double *x,
                        char *err, size_t errlen)
{
    size_t nz = n * n + n;
    int *ia = nk_malloc((nz + 1) * sizeof *ia), *ja = nk_malloc((nz + 1) * sizeof *ja);
    double *ar = nk_malloc((nz + 1) * sizeof *ar);
    if (ia == NULL || ja == NULL || ar == NULL) {
        nk_free(ia);
        nk_free(ja);
        nk_free(ar);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the Nash average");
    }
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_rows(lp, (int)n + 1);
    glp_add_cols(lp, (int)n);
    size_t e = 0;
    for (size_t i = 0; i < n; i++) {
        glp_set_row_bnds(lp, (int)i + 1, GLP_UP, 0.0, 0.0);
        for (size_t j = 0; j < n; j++) {
            if (a[i * n + j] == 0.0)
                continue;
            e++;
            ia[e] = (int)i + 1;
            ja[e] = (int)j + 1;
            ar[e] = a[i * n + j];
        }
    }
    glp_set_row_bnds(lp, (int)n + 1, GLP_FX, 1.0, 1.0);
    for (size_t j = 0; j < n; j++) {
        e++;
        ia[e] = (int)n + 1;
        ja[e] = (int)j + 1;
        ar[e] = 1.0;
        glp_set_col_bnds(lp, (int)j + 1, GLP_LO, 0.0, 0.0);
        double c = slack < 0 ? (j == k ? 1.0 : 0.0) : -a[(size_t)slack * n + j];
        glp_set_obj_coef(lp, (int)j + 1, c);
    }
    glp_load_matrix(lp, (int)e, ia, ja, ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    int rc = glp_simplex(lp, &parm);
    if (rc == 0)
        rc = glp_exact(lp, &parm);
    int status = rc == 0 ? glp_get_status(lp) : 0;
    nk_status st = NK_OK;
    if (rc != 0 || status != GLP_OPT)
        st = nk_fail(NK_ERANGE, err, errlen,
                     "Nash average: the linear program failed (GLPK code %d, status %d)", rc,
                     status);
    else {
        *value = glp_get_obj_val(lp);
        for (size_t j = 0; j < n; j++)
            x[j] = glp_get_col_prim(lp, (int)j + 1);
    }
    glp_delete_prob(lp);
    nk_free(ia);
    nk_free(ja);
    nk_free(ar);
    return st;
}

/* p[0..s) = softmax(-(K^T y)) over the s support columns; K is m x s. */
static void primal(const double *k, size_t m, size_t s, const double *y, double *p)
{
    double top = -INFINITY;
    for (size_t i = 0; i < s; i++) {
        double c = 0;
        for (size_t r = 0; r < m; r++)
            c += k[r * s + i] * y[r];
        p[i] = -c;
        if (p[i] > top)
            top = p[i];
    }
    double sum = 0;
    for (size_t i = 0; i < s; i++) {
        p[i] = exp(p[i] - top);
        sum += p[i];
    }
    for (size_t i = 0; i < s; i++)
        p[i] /= sum;
}

/* f(y) = log sum exp(-(K^T y)); grad = -K p. */
static double dual(const double *k, size_t m, size_t s, const double *y, double *p, double *grad)
{
    double top = -INFINITY;
    double *c = p; /* reuse p as scratch for -c */
    for (size_t i = 0; i < s; i++) {
        double v = 0;
        for (size_t r = 0; r < m; r++)
            v += k[r * s + i] * y[r];
        c[i] = -v;
        if (c[i] > top)
            top = c[i];
    }
    double sum = 0;
    for (size_t i = 0; i < s; i++) {
        p[i] = exp(c[i] - top);
        sum += p[i];
    }
    for (size_t i = 0; i < s; i++)
        p[i] /= sum;
    for (size_t r = 0; r < m; r++) {
        double g = 0;
        for (size_t i = 0; i < s; i++)
            g += k[r * s + i] * p[i];
        grad[r] = -g;
    }
    return top + log(sum);
}

/* The KKT residual of y (rows [0, meq) equalities, the rest inequalities). */
static double kkt(const double *k, size_t m, size_t meq, size_t s, const double *y, double *p)
{
    primal(k, m, s, y, p);
    double worst = 0;
    for (size_t r = 0; r < m; r++) {
        double v = 0;
        for (size_t i = 0; i < s; i++)
            v += k[r * s + i] * p[i];
        double res = r < meq ? fabs(v) : fmax(fmax(v, 0.0), fabs(y[r] * v));
        if (res > worst)
            worst = res;
    }
    return worst;
}

/* Minimises the dual by projected FISTA with gradient restarts; p gets the
 * primal mix.  Work arrays are allocated here. */
static nk_status max_entropy(const double *k, size_t m, size_t meq, size_t s, double *p, char *err,
                             size_t errlen)
{
    double lip = 0;
    for (size_t i = 0; i < s; i++) {
        double col = 0;
        for (size_t r = 0; r < m; r++)
            col += k[r * s + i] * k[r * s + i];
        lip = fmax(lip, col);
    }
    if (m == 0 || lip == 0) {
        for (size_t i = 0; i < s; i++) /* all rows zero: uniform */
            p[i] = 1.0 / (double)s;
        return NK_OK;
    }
    double *y = nk_calloc(m, sizeof *y), *z = nk_calloc(m, sizeof *z);
    double *prev = nk_calloc(m, sizeof *prev), *g = nk_calloc(m, sizeof *g);
    if (y == NULL || z == NULL || prev == NULL || g == NULL) {
        nk_free(y);
        nk_free(z);
        nk_free(prev);
        nk_free(g);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the Nash average");
    }
    double step = 1.0 / lip, t = 1.0;
    nk_status st = NK_ERANGE;
    for (long it = 0; it < MAX_ITER; it++) {
        if (it % 16 == 0 && kkt(k, m, meq, s, y, p) < KKT_TOL) {
            st = NK_OK;
            break;
        }
        dual(k, m, s, z, p, g);
        memcpy(prev, y, m * sizeof *y);
        for (size_t r = 0; r < m; r++) {
            y[r] = z[r] - step * g[r];
            if (r >= meq && y[r] < 0)
                y[r] = 0;
        }
        /* Restart when the momentum points uphill (O'Donoghue & Candes). */
        double up = 0;
        for (size_t r = 0; r < m; r++)
            up += g[r] * (y[r] - prev[r]);
        double tn = up > 0 ? 1.0 : 0.5 * (1.0 + sqrt(1.0 + 4.0 * t * t));
        double beta = up > 0 ? 0.0 : (t - 1.0) / tn;
        for (size_t r = 0; r < m; r++) {
            z[r] = y[r] + beta * (y[r] - prev[r]);
            if (r >= meq && z[r] < 0)
                z[r] = 0;
        }
        t = tn;
    }
    if (st == NK_OK)
        primal(k, m, s, y, p);
    else
        nk_fail(NK_ERANGE, err, errlen,
                "Nash average: the maximum-entropy step did not converge in %d iterations",
                MAX_ITER);
    nk_free(y);
    nk_free(z);
    nk_free(prev);
    nk_free(g);
    return st;
}

static double cyclic_share(const double *score, size_t n)
{
    unsigned long long decided = 0, cyclic = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double ij = score[i * n + j];
            if (ij == 0.5)
                continue;
            for (size_t k = j + 1; k < n; k++) {
                double jk = score[j * n + k], ik = score[i * n + k];
                if (jk == 0.5 || ik == 0.5)
                    continue;
                decided++;
                /* i>j, j>k, k>i  or  j>i, k>j, i>k */
                bool a = ij > 0.5, b = jk > 0.5, c = ik < 0.5;
                if (a == b && b == c)
                    cyclic++;
            }
        }
    return decided ? (double)cyclic / (double)decided : 0.0;
}

/* Step 1 of nk_nash_average: the support, in cols[0 .. *s).  A coordinate
 * positive in any LP's optimal point is in the support (in[]): its own LP
 * is then skipped. */
static nk_status nash_support(const double *a, size_t n, bool *in, double *x, size_t *cols,
                              size_t *s, char *err, size_t errlen)
{
    for (size_t c = 0; c < n; c++) {
        double v = 0;
        if (in[c])
            continue;
        nk_status st = lp_max(a, n, c, -1, &v, x, err, errlen);
        if (st != NK_OK)
            return st;
        for (size_t j = 0; j < n; j++)
            in[j] = in[j] || x[j] > SUPPORT_EPS;
    }
    *s = 0;
    for (size_t c = 0; c < n; c++)
        if (in[c])
            cols[(*s)++] = c;
    if (*s == 0)
        return nk_fail(NK_ERANGE, err, errlen, "Nash average: no equilibrium found");
    return NK_OK;
}

/* Step 2: the rows, in rows[0 .. *m): support rows and implicit
 * equalities first (the first *meq), then the inequalities.  A row with
 * slack in any LP's optimal point is no implicit equality (strict[]): its
 * own LP is then skipped. */
static nk_status nash_rows(const double *a, size_t n, const bool *in, bool *strict, double *x,
                           size_t *rows, size_t *meq, size_t *m, char *err, size_t errlen)
{
    *m = 0;
    for (size_t r = 0; r < n; r++)
        if (in[r])
            rows[(*m)++] = r;
    for (size_t r = 0; r < n; r++) {
        if (in[r] || strict[r])
            continue;
        double v = 0;
        nk_status st = lp_max(a, n, 0, (long)r, &v, x, err, errlen);
        if (st != NK_OK)
            return st;
        if (v <= SLACK_EPS)
            rows[(*m)++] = r;
        for (size_t q = r + 1; q < n; q++) {
            double ax = 0;
            for (size_t j = 0; j < n; j++)
                ax += a[q * n + j] * x[j];
            strict[q] = strict[q] || -ax > SLACK_EPS;
        }
    }
    *meq = *m;
    for (size_t r = 0; r < n; r++) {
        bool listed = false;
        for (size_t q = 0; q < *meq; q++)
            listed = listed || rows[q] == r;
        if (!listed)
            rows[(*m)++] = r;
    }
    return NK_OK;
}

nk_status nk_nash_average(const double *score, size_t n, nk_nash *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return nk_fail(NK_EINVAL, err, errlen, "Nash average: no players");
    for (size_t i = 0; i < n * n; i++)
        if (i % (n + 1) != 0 && !(score[i] >= 0.0 && score[i] <= 1.0))
            return nk_fail(NK_EINVAL, err, errlen,
                           "Nash average: score[%zu][%zu] = %g is not in [0, 1]", i / n, i % n,
                           score[i]);
    out->n = n;
    out->mix = nk_calloc(n, sizeof *out->mix);
    out->payoff = nk_calloc(n, sizeof *out->payoff);
    double *a = nk_calloc(n * n, sizeof *a);
    size_t *rows = nk_calloc(n, sizeof *rows), *cols = nk_calloc(n, sizeof *cols);
    bool *in = nk_calloc(n, sizeof *in), *strict = nk_calloc(n, sizeof *strict);
    double *x = nk_calloc(n, sizeof *x);
    double *k = nk_calloc(n * n, sizeof *k), *p = nk_calloc(n, sizeof *p);
    nk_status st = NK_OK;
    if (out->mix == NULL || out->payoff == NULL || a == NULL || rows == NULL || cols == NULL ||
        in == NULL || strict == NULL || x == NULL || k == NULL || p == NULL)
        st = nk_fail(NK_ENOMEM, err, errlen, "out of memory for the Nash average");
    if (st == NK_OK) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                a[i * n + j] = i == j ? 0.0 : score[i * n + j] - score[j * n + i];
        glp_term_out(GLP_OFF);
    }
    size_t s = 0, meq = 0, m = 0;
    if (st == NK_OK) /* 1. the support */
        st = nash_support(a, n, in, x, cols, &s, err, errlen);
    if (st == NK_OK) /* 2. the rows */
        st = nash_rows(a, n, in, strict, x, rows, &meq, &m, err, errlen);
    /* 3. maximum entropy */
    if (st == NK_OK) {
        for (size_t r = 0; r < m; r++)
            for (size_t i = 0; i < s; i++)
                k[r * s + i] = a[rows[r] * n + cols[i]];
        st = max_entropy(k, m, meq, s, p, err, errlen);
    }
    if (st == NK_OK) {
        for (size_t i = 0; i < s; i++)
            out->mix[cols[i]] = p[i];
        for (size_t i = 0; i < n; i++) {
            double v = 0;
            for (size_t j = 0; j < n; j++)
                v += a[i * n + j] * out->mix[j];
            out->payoff[i] = v;
        }
        out->cyclic_share = cyclic_share(score, n);
    }
    nk_free(a);
    nk_free(rows);
    nk_free(cols);
    nk_free(in);
    nk_free(strict);
    nk_free(x);
    nk_free(k);
    nk_free(p);
    if (st != NK_OK)
        nk_nash_free(out);
    return st;
}

void nk_nash_free(nk_nash *out)
{
    if (out == NULL)
        return;
    nk_free(out->mix);
    nk_free(out->payoff);
    memset(out, 0, sizeof *out);
}
