/*
 * nnet.c -- the small neural network: its parameters, default weights,
 * value and gradient (nnet.h).
 *
 * Invariants: a parsed network has 1 <= hidden <= NK_NNET_HIDDEN_MAX units
 * and inputs 14 (Warri family) or 26 (relay sowing), so count = 1 +
 * hidden * (inputs + 2) and every index the value reads lies below it.
 * The value reads the position only and allocates nothing (its scratch is
 * on the stack).  Both views go through the same code in the same order:
 * the pre-activations unit by unit (element-wise, so a vectorised loop
 * sums each unit in input order), the activations element-wise over each
 * view's array (the two laid out alike), and each view's output sum
 * sequentially over the units; so f(x) is one function of x, and a
 * mirrored position gives the negated value to the bit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "search/nnet.h"
#include "base/rng.h"

/* ===== the parameter table ===== */

#define NNET_ROW(P, sec, nm, field, T, ctype, ...)                                                 \
    NK_PARAM_DESCRIBE(nk_nnet_params, field, sec, nm, T, __VA_ARGS__)
static const nk_param nnet_params[] = {NK_NNET_PARAMS(NNET_ROW, _)};
enum { NPARAMS = sizeof nnet_params / sizeof nnet_params[0] };

/* The activations, in nk_nnet_act order. */
static const char *const act_names[] = {"tanh", "relu", "hardtanh", "sigmoid"};
enum { NACTS = sizeof act_names / sizeof act_names[0] };

const nk_param *nk_nnet_params_table(size_t *n)
{
    *n = NPARAMS;
    return nnet_params;
}

int nk_nnet_is(const char *text)
{
    return strncmp(text, "nnet", 4) == 0 && (text[4] == '\0' || text[4] == ':');
}

nk_status nk_nnet_check_act(char *text, size_t cap, char *why, size_t whylen)
{
    (void)cap;
    for (size_t i = 0; i < NACTS; i++)
        if (strcmp(text, act_names[i]) == 0)
            return NK_OK;
    return nk_fail(NK_EINVAL, why, whylen,
                   "'%s' is not an activation (tanh, relu, hardtanh, sigmoid)", text);
}

nk_status nk_nnet_parse(nk_nnet *nn, const char *text, const nk_variant *v, char *err,
                        size_t errlen)
{
    memset(nn, 0, sizeof *nn);
    nk_param_defaults(nnet_params, NPARAMS, &nn->par);
    if (!nk_nnet_is(text))
        return nk_fail(NK_EINVAL, err, errlen, "'%s' is not the nnet family", text);
    nk_status st = nk_param_parse_options(nnet_params, NPARAMS, &nn->par, "nnet",
                                          text[4] == ':' ? text + 5 : NULL, err, errlen);
    if (st != NK_OK)
        return st;
    for (size_t i = 0; i < NACTS; i++)
        if (strcmp(nn->par.act, act_names[i]) == 0)
            nn->act = (nk_nnet_act)i;
    nn->hidden = nn->par.hidden;
    nn->inputs =
        v != NULL && v->sowing == NK_SOW_RELAY ? NK_NNET_INPUTS_RELAY : NK_NNET_INPUTS_WARRI;
    nn->count = 1 + (size_t)nn->hidden * (nn->inputs + 2u);
    snprintf(nn->text, sizeof nn->text, "nnet:hidden=%u:act=%s", nn->hidden, act_names[nn->act]);
    return NK_OK;
}

void nk_nnet_defaults(const nk_nnet *nn, double *w)
{
    const size_t H = nn->hidden, I = nn->inputs;
    const double r = 1.0 / (4.0 * sqrt((double)I));
    nk_rng rng = {nk_seed_mix(NK_NNET_SEED, H, I)};
    memset(w, 0, nn->count * sizeof *w);
    w[0] = 1.0;
    for (size_t i = 1; i <= I * H; i++)
        w[i] = ((double)nk_rng_below(&rng, 1u << 20) / (1 << 19) - 1.0) * r;
}

/* ===== the value ===== */

void nk_nnet_inputs(const nk_nnet *nn, const nk_pos *pos, unsigned s, double *x)
{
    uint8_t ring[2 * NK_PITS]; /* the board twice: s's view reads from 6 * s */
    memcpy(ring, pos->pit, NK_PITS);
    memcpy(ring + NK_PITS, pos->pit, NK_PITS);
    const uint8_t *view = ring + s * NK_ROW;
    for (unsigned j = 0; j < NK_PITS; j++)
        x[j] = view[j];
    x[NK_PITS] = pos->store[s];
    x[NK_PITS + 1] = pos->store[s ^ 1u];
    if (nn->inputs == NK_NNET_INPUTS_RELAY) {
        const unsigned owned = nk_pos_owned(pos, (int)s);
        const unsigned turned = (owned | owned << NK_PITS) >> (s * NK_ROW);
        for (unsigned j = 0; j < NK_PITS; j++)
            x[NK_PITS + 2 + j] = (turned >> j) & 1u;
    }
}

/* e^y for |y| <= 40: y = k ln 2 + r with |r| <= ln 2 / 2 (k rounded by
 * the 1.5 * 2^52 shift), e^r by its Taylor polynomial to degree 12 (the
 * remainder below 2e-16 of it), times 2^k built in the exponent bits from
 * the shifted number's low bits.  Within 4e-16 of e^y, relatively. */
static inline double exp_small(double y)
{
    const double shift = 6755399441055744.0; /* 1.5 * 2^52 */
    const double t = y * 1.4426950408889634 + shift;
    const double k = t - shift;
    const double r = (y - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
    double p = 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    uint64_t bits;
    memcpy(&bits, &t, sizeof bits);
    bits = (bits + 1023u) << 52; /* the low bits of t hold k (two's complement) */
    double two_k;
    memcpy(&two_k, &bits, sizeof two_k);
    return p * two_k;
}

/* x clipped to [lo, hi], in two selects (which the loops below vectorise). */
static inline double clamp(double x, double lo, double hi)
{
    x = x > hi ? hi : x;
    return x < lo ? lo : x;
}

/* a(h[i]) in place, i = 0..n-1, one loop per activation. */
static void activate(nk_nnet_act act, double *restrict h, size_t n)
{
    switch (act) {
    case NK_NNET_TANH: /* 1 - 2 / (e^2h + 1); tanh(20) is 1 in double */
        for (size_t i = 0; i < n; i++)
            h[i] = clamp(h[i], -20.0, 20.0);
        for (size_t i = 0; i < n; i++)
            h[i] = 1.0 - 2.0 / (exp_small(2.0 * h[i]) + 1.0);
        break;
    case NK_NNET_RELU:
        for (size_t i = 0; i < n; i++)
            h[i] = h[i] > 0.0 ? h[i] : 0.0;
        break;
    case NK_NNET_HARDTANH:
        for (size_t i = 0; i < n; i++)
            h[i] = clamp(h[i], -1.0, 1.0);
        break;
    case NK_NNET_SIGMOID: /* sigmoid(40) is 1 in double */
        for (size_t i = 0; i < n; i++)
            h[i] = clamp(h[i], -40.0, 40.0);
        for (size_t i = 0; i < n; i++)
            h[i] = 1.0 / (1.0 + exp_small(-h[i]));
        break;
    }
}

/* a'(h) given h and a = a(h). */
static double derivative(nk_nnet_act act, double h, double a)
{
    switch (act) {
    case NK_NNET_TANH:
        return 1.0 - a * a;
    case NK_NNET_RELU:
        return h > 0.0 ? 1.0 : 0.0;
    case NK_NNET_HARDTANH:
        return h > -1.0 && h < 1.0 ? 1.0 : 0.0;
    case NK_NNET_SIGMOID:
        return a * (1.0 - a);
    }
    return 0.0;
}

/* Two doubles, one SSE2 register (GCC's vector extension: element-wise
 * IEEE operations, the same results as two scalar ones). */
typedef double v2d __attribute__((vector_size(16)));
enum { BLOCK = 8, VECS = BLOCK / 2 }; /* units whose sums stay in registers */

static inline v2d load2(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The pre-activations of both views, xa's into ha and xb's into hb:
 * h_k = b_k + x_0 W_0k + x_1 W_1k + ..., summed in input order.  Units
 * BLOCK at a time, both views together (each weight read once), the
 * rest one by one: the same operations in the same order for every
 * unit of either view. */
static void first_layer(const nk_nnet *nn, const double *w, const double *xa, const double *xb,
                        double *restrict ha, double *restrict hb)
{
    const size_t H = nn->hidden, I = nn->inputs;
    const double *b = w + 1 + I * H;
    size_t k = 0;
    for (; k + BLOCK <= H; k += BLOCK) {
        v2d sa[VECS], sb[VECS];
        for (size_t j = 0; j < VECS; j++)
            sa[j] = sb[j] = load2(b + k + 2 * j);
        for (size_t i = 0; i < I; i++) {
            const double *col = w + 1 + i * H + k;
            const v2d xai = {xa[i], xa[i]}, xbi = {xb[i], xb[i]};
            for (size_t j = 0; j < VECS; j++) {
                const v2d c = load2(col + 2 * j);
                sa[j] += xai * c;
                sb[j] += xbi * c;
            }
        }
        memcpy(ha + k, sa, sizeof sa);
        memcpy(hb + k, sb, sizeof sb);
    }
    for (; k < H; k++) {
        double sa = b[k], sb = b[k];
        for (size_t i = 0; i < I; i++) {
            sa += xa[i] * w[1 + i * H + k];
            sb += xb[i] * w[1 + i * H + k];
        }
        ha[k] = sa;
        hb[k] = sb;
    }
}

/* Where the opponent's view starts in h: H rounded up to 8 doubles (64
 * bytes), so that both views' arrays lie alike (alignment and length) and
 * a vectorised loop treats unit k of either view the same way, even
 * where a build contracts a * b + c into one rounding in one path and not
 * in another. */
static size_t view_b(size_t H)
{
    return (H + 7) & ~(size_t)7;
}

/* Both views' inputs (x[0..I): the side to move's, x[I..2I): the
 * opponent's) and pre-activations (h[0..H), h[view_b(H)..+H)). */
static void forward(const nk_nnet *nn, const double *w, const nk_pos *pos, double *x, double *h)
{
    nk_nnet_inputs(nn, pos, pos->side, x);
    nk_nnet_inputs(nn, pos, pos->side ^ 1u, x + nn->inputs);
    first_layer(nn, w, x, x + nn->inputs, h, h + view_b(nn->hidden));
}

/* sum_k u_k a_k over one view's activations, in unit order. */
static double output(const double *restrict u, const double *restrict a, size_t H)
{
    double f = 0.0;
    for (size_t k = 0; k < H; k++)
        f += u[k] * a[k];
    return f;
}

double nk_nnet_value(const nk_nnet *nn, const double *w, const nk_pos *pos)
{
    const size_t H = nn->hidden, I = nn->inputs;
    const size_t B = view_b(H);
    double x[2 * NK_NNET_INPUTS_MAX], h[2 * NK_NNET_HIDDEN_MAX] __attribute__((aligned(64)));
    forward(nn, w, pos, x, h);
    activate(nn->act, h, H);
    activate(nn->act, h + B, H);
    const double *u = w + 1 + (I + 1) * H;
    const double me = output(u, h, H), op = output(u, h + B, H);
    const int sd = (int)pos->store[pos->side] - (int)pos->store[pos->side ^ 1];
    return w[0] * sd + (me - op);
}

void nk_nnet_gradient(const nk_nnet *nn, const double *w, const nk_pos *pos, double *g)
{
    const size_t H = nn->hidden, I = nn->inputs;
    const size_t B = view_b(H);
    double x[2 * NK_NNET_INPUTS_MAX], h[2 * NK_NNET_HIDDEN_MAX] __attribute__((aligned(64))),
        a[2 * NK_NNET_HIDDEN_MAX] __attribute__((aligned(64)));
    forward(nn, w, pos, x, h);
    memcpy(a, h, H * sizeof *a);
    memcpy(a + B, h + B, H * sizeof *a);
    activate(nn->act, a, H);
    activate(nn->act, a + B, H);
    const double *u = w + 1 + (I + 1) * H;
    g[0] = (int)pos->store[pos->side] - (int)pos->store[pos->side ^ 1];
    for (size_t k = 0; k < H; k++) {
        /* d value / d h_k of each view: u_k a'(h_k), the opponent's negated */
        const double da = u[k] * derivative(nn->act, h[k], a[k]);
        const double db = u[k] * derivative(nn->act, h[B + k], a[B + k]);
        for (size_t i = 0; i < I; i++)
            g[1 + i * H + k] = da * x[i] - db * x[I + i];
        g[1 + I * H + k] = da - db;
        g[1 + (I + 1) * H + k] = a[k] - a[B + k];
    }
}
