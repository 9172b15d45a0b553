/*
 * eval.h -- evaluation families: the kinds of evaluation a player's
 * `features=` value can name, each a const type object with a parameter
 * table.
 *
 *   linear   a weighted sum over a feature set (features.h): the value
 *            is the set's name (material, ayo12, positional, ...); its
 *            weights are the set's, at most NK_MAX_FEATURES.
 *   ntuple   an n-tuple network (ntuple.h): `ntuple[:KEY=VALUE...]` with
 *            the keys of NK_NTUPLE_PARAMS (layout, cap); its weights are
 *            the store term and the tuples' tables, thousands of them.
 *   nnet     a small neural network (nnet.h): `nnet[:KEY=VALUE...]` with
 *            the keys of NK_NNET_PARAMS (hidden, act); one hidden layer,
 *            antisymmetric by construction (f(own view) - f(opponent's
 *            view)); its weights are 1 + hidden * (inputs + 2), inputs 14
 *            in the Warri family and 26 in Adji Kui II.
 *
 * An nk_eval set up here is scored by nk_eval_score (features.h) whatever
 * its family; nk_eval_free releases what a family other than linear
 * allocated (a no-op for linear, so every nk_eval may be freed).
 *
 * Weights too many for a player's inline numbers (NK_MAX_FEATURES: specs
 * carried through exec, tournaments and run files) travel by name: the io
 * layer reads the file of `weights=FILE` once and puts the numbers in the
 * process's shared table under the weights text (nk_eval_shared_put);
 * nk_player_new finds them there (nk_eval_shared_find), as it finds an
 * endgame database opened by the io layer (tb/tb.h).  Both functions are
 * thread-safe; a vector once put stays, unchanged, until
 * nk_eval_shared_free_all.
 */
#ifndef NK_EVAL_H
#define NK_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/param.h"
#include "rules/rules.h"
#include "search/features.h"
#include "search/nnet.h"
#include "search/ntuple.h"

/* A family: a type object chosen by the text of a features= value. */
typedef struct nk_eval_family {
    const char *name;  /* "linear", "ntuple", "nnet" */
    const char *title; /* one line for people */
    /* The family's parameter table (n rows), NULL for none. */
    const nk_param *(*params)(size_t *n);
} nk_eval_family;

size_t nk_eval_family_count(void);
const nk_eval_family *nk_eval_family_at(size_t i);
/* The family that features text names: ntuple for "ntuple[:...]", nnet
 * for "nnet[:...]", else linear (whether the set exists is nk_eval_features_check's to say). */
const nk_eval_family *nk_eval_family_of(const char *features);

/* Checks a features= text without a variant: a linear set's name or a
 * family with valid parameters.  NK_EINVAL with one line saying what is
 * wrong (valid sets listed). */
nk_status nk_eval_features_check(const char *features, char *err, size_t errlen);

/* How many weights features (empty: v's default set) takes in v, and its
 * canonical name into name[namelen].  NK_EINVAL if it does not suit v. */
nk_status nk_eval_features_count(const char *features, const nk_variant *v, size_t *n, char *name,
                                 size_t namelen, char *err, size_t errlen);

/* Sets up e for variant v from a features text (empty: v's default set)
 * and n weights w (NULL: the family's defaults).  A linear set is
 * nk_eval_init; other families allocate (nk_eval_free).  NK_EINVAL for a
 * text or a count that does not fit, NK_ERANGE for a weight that is not
 * finite, NK_ENOMEM. */
nk_status nk_eval_setup(nk_eval *e, const nk_variant *v, const char *features, const double *w,
                        size_t n, char *err, size_t errlen);
/* Frees what nk_eval_setup allocated; e is zeroed (NULL allowed). */
void nk_eval_free(nk_eval *e);
/* e's weights: their number, and *w pointed at them. */
size_t nk_eval_weights(const nk_eval *e, const double **w);

/* The gradient of e's value at pos with respect to its weights: g gets
 * nk_eval_weights(e) numbers, g[i] = d value / d w_i of the unclamped
 * value from pos's side to move's view (what nk_eval_score gives before
 * its clamp).  Every family's value is differentiable in its weights:
 *   linear   the value is sum_i w_i f_i(pos), so g is the features f(pos);
 *   ntuple   the value is linear in its weights too (ntuple.h): g[0] is
 *            own store - opponent store, and each table entry gets +1 for
 *            every tuple that looks it up from the mover's view and -1 for
 *            every one from the opponent's view (an entry both look up
 *            gets 0), every other entry 0.
 *   nnet     back-propagation through the one hidden layer (nnet.h,
 *            nk_nnet_gradient), the activation's derivative taken as 0 at
 *            relu's and hardtanh's kinks.
 * Allocates nothing; g must not alias e's weights.  (The TD learner,
 * run/td.h, is its user.) */
void nk_eval_gradient(const nk_eval *e, const nk_pos *pos, double *g);
/* The same gradient as entries: idx[k], val[k] for k < the count returned
 * (at most nk_eval_weights(e); idx and val must hold that many), whose sum
 * by index is the gradient; an index may come more than once, and an
 * index not listed is 0.  An n-tuple network lists the store term and two
 * entries a tuple (1 + 2 * tuples, where the dense gradient has thousands
 * of numbers); a linear set every feature in order, a network every
 * weight in order. */
size_t nk_eval_gradient_entries(const nk_eval *e, const nk_pos *pos, uint32_t *idx, double *val);

/* A named run of a family's weight vector (inspect summarises each). */
typedef struct nk_eval_part {
    const char *name; /* "store term", "first layer", ... */
    size_t offset, count;
} nk_eval_part;
enum { NK_EVAL_PARTS_MAX = 4 };
/* The parts of e's weights, in order, covering them all, into
 * parts[0..NK_EVAL_PARTS_MAX); returns their number: a linear set's
 * weights are one part ("weights"); an n-tuple network's two (the store
 * term, the tables); a network's four (the store term, the first layer,
 * the biases, the output weights). */
size_t nk_eval_parts(const nk_eval *e, nk_eval_part *parts);

/* A summary of a long weight vector (`inspect` prints it instead of the
 * numbers): count, extremes and their indices, mean, mean of |w|, the
 * numbers that are exactly 0. */
typedef struct nk_weights_summary {
    size_t n, zeros, argmin, argmax;
    double min, max, mean, mean_abs;
} nk_weights_summary;
/* Summarises w[0..n) (n >= 1), summing from index 0 up. */
void nk_eval_weights_summary(const double *w, size_t n, nk_weights_summary *out);

/* ===== shared weight vectors ===== */

/* Keeps a copy of w[0..n) under key.  A key put again must bring the same
 * numbers (NK_EINVAL otherwise: the file changed while in use).  NK_ERANGE
 * beyond the table's size, NK_ENOMEM. */
nk_status nk_eval_shared_put(const char *key, const double *w, size_t n, char *err, size_t errlen);
/* The vector put under key, its length in *n; NULL if none. */
const double *nk_eval_shared_find(const char *key, size_t *n);
void nk_eval_shared_free_all(void);

#endif
