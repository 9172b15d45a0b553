/*
 * nnet.h -- the small neural network, an evaluation family beside the
 * linear feature sets and the n-tuple network (the family table is in
 * eval.h).
 *
 * Inputs, from the view of a side s (x_0 .. x_{I-1}, whole numbers):
 *   x_j      j = 0..11: the seeds in pit j of s's view, the ring in sowing
 *            order from s's row: board pit (6 * s + j) mod 12 (0..5 s's
 *            row in the Warri family, 6..11 the other);
 *   x_12     s's store;  x_13  the other side's store;
 *   x_{14+j} j = 0..11, Adji Kui II (relay sowing) only: 1 if s owns pit
 *            j of its view, else 0 (pits change owner there, R-K5).
 * So I = 14 in the Warri family and 26 in Adji Kui II.
 *
 * One hidden layer of H units with activation a, linear output:
 *
 *     f(x) = sum_k u_k * a(b_k + sum_i W_ik x_i)
 *
 * and the value is antisymmetric BY CONSTRUCTION: the same f is applied to
 * the side to move's view (x^A) and to the opponent's (x^B) and subtracted,
 * beside a store term:
 *
 *     value(pos) = w_s * (own store - opponent store) + f(x^A) - f(x^B)
 *
 * The opponent's view of a position is the side to move's view of its
 * mirror image (rows, stores and, in Adji Kui II, the pits' owners
 * swapped, the same side to move), so value(mirror(pos)) = -value(pos)
 * exactly, to the bit: f(x) is one function of its input vector (the same
 * code, the same order of sums), and IEEE subtraction and products are
 * sign-symmetric.  An output bias would cancel, so there is none.
 *
 * The weight vector, 1 + H * (I + 2) numbers, is laid out as the value
 * reads it (each run of H numbers one unit after the other):
 *     w[0]                         w_s, the store term;
 *     w[1 + i*H + k]               W_ik, input i to unit k (i = 0..I-1);
 *     w[1 + I*H + k]               b_k, unit k's bias;
 *     w[1 + (I+1)*H + k]           u_k, unit k's output weight.
 *
 * The default weights (w NULL in nk_eval_setup) are deterministic: w_s = 1,
 * every W_ik uniform in [-r, r) with r = 1 / (4 * sqrt(I)), drawn in index
 * order by SplitMix64 (base/rng.h) seeded with nk_seed_mix(NK_NNET_SEED, H,
 * I) as (nk_rng_below(2^20) / 2^19 - 1) * r, every b_k and u_k 0.  With
 * the output weights 0 the default plays exactly as `material` does (the
 * hidden layer contributes nothing), while its hidden units already differ
 * (random, not symmetric), so that a gradient or a mutation of u_k moves
 * the value at once.
 *
 * Activations (the spec's act=): tanh, relu (max(0, h)), hardtanh
 * (h clipped to [-1, 1]), sigmoid (1 / (1 + e^-h)).  tanh and sigmoid use
 * nickar's own exponential (nnet.c: a degree-12 polynomial after range
 * reduction by ln 2), within 1e-15 of libm's, in about half glibc's
 * instructions and vectorised by the compiler, and the same on every
 * machine from the same binary.  The derivative used by the gradient:
 * 1 - a^2 (tanh), a(1 - a) (sigmoid), 1 for h > 0 else 0 (relu), 1 for
 * |h| < 1 else 0 (hardtanh).
 *
 * Computed in full at every evaluation (no accumulators carried along the
 * moves of a search): docs/speed.md measures it and says why.
 *
 * The family's parameters (NK_NNET_PARAMS) follow its name in a spec's
 * features= value: `nnet`, `nnet:hidden=32`, `nnet:hidden=8:act=relu`.
 */
#ifndef NK_NNET_H
#define NK_NNET_H

#include <stddef.h>
#include <stdint.h>

#include "base/param.h"
#include "rules/rules.h"

enum {
    NK_NNET_HIDDEN_MAX = 256, /* the documented cap on hidden units */
    NK_NNET_INPUTS_WARRI = 14,
    NK_NNET_INPUTS_RELAY = 26,
    NK_NNET_INPUTS_MAX = 26,
    NK_NNET_TEXT = 64 /* the family's canonical text, "nnet:hidden=H:act=A" */
};

/* The seed of the default weights ("nnet"). */
#define NK_NNET_SEED 0x6E6E6574ull

typedef enum nk_nnet_act {
    NK_NNET_TANH,
    NK_NNET_RELU,
    NK_NNET_HARDTANH,
    NK_NNET_SIGMOID
} nk_nnet_act;

/* The parameters of the family, one row each (base/param.h row shape):
 * read from "nnet:KEY=VALUE:..." by nk_nnet_parse. */
#define NK_NNET_PARAMS(X, P)                                                                       \
    X(P, nnet, hidden, hidden, INT, unsigned, "16", NK_RANGE(1, NK_NNET_HIDDEN_MAX), NULL, NULL,   \
      "a whole number of units", "hidden units (one layer)")                                       \
    X(P, nnet, act, act, STRING, char *, "tanh", NK_ANY, NULL, nk_nnet_check_act,                  \
      "tanh, relu, hardtanh or sigmoid", "the hidden units' activation")

/* The parameter values. */
typedef struct nk_nnet_params {
    unsigned hidden;
    char act[16];
} nk_nnet_params;

/* A parsed network: its shape, bound to a variant's inputs. */
typedef struct nk_nnet {
    nk_nnet_params par;
    nk_nnet_act act;
    unsigned hidden;         /* H */
    unsigned inputs;         /* I: NK_NNET_INPUTS_WARRI or _RELAY */
    size_t count;            /* weights: 1 + H * (I + 2) */
    char text[NK_NNET_TEXT]; /* canonical: "nnet:hidden=H:act=A" */
} nk_nnet;

/* The extra rule of act= (nk_param_check): one of the activations. */
nk_status nk_nnet_check_act(char *text, size_t cap, char *why, size_t whylen);

/* The parameter table (NK_NNET_PARAMS over nk_nnet_params); *n rows. */
const nk_param *nk_nnet_params_table(size_t *n);

/* Whether text names the family ("nnet" alone or followed by ':'). */
int nk_nnet_is(const char *text);

/* Parses text, the family's name and its options ("nnet" or
 * "nnet:KEY=VALUE[:KEY=VALUE]"), for variant v (NULL: the Warri family's
 * inputs).  NK_EINVAL with one line naming the key and what is wrong (an
 * unknown key, a key given twice, an unknown activation); NK_ERANGE for a
 * width of 0 or above NK_NNET_HIDDEN_MAX. */
nk_status nk_nnet_parse(nk_nnet *nn, const char *text, const nk_variant *v, char *err,
                        size_t errlen);

/* The default weights (header) into w[0..nn->count). */
void nk_nnet_defaults(const nk_nnet *nn, double *w);

/* The inputs of side s's view of pos into x[0..nn->inputs). */
void nk_nnet_inputs(const nk_nnet *nn, const nk_pos *pos, unsigned s, double *x);

/* The value (header: the formula), unclamped, from the side to move's
 * view; w holds nn->count weights. */
double nk_nnet_value(const nk_nnet *nn, const double *w, const nk_pos *pos);

/* g[0..nn->count) = d value / d w at pos (the unclamped value, from the
 * side to move's view). */
void nk_nnet_gradient(const nk_nnet *nn, const double *w, const nk_pos *pos, double *g);

#endif
