/*
 * eval.c -- the evaluation families and the shared weight vectors
 * (eval.h).
 *
 * Invariants: an nk_eval of the linear family is exactly what
 * nk_eval_init makes (nt and tw NULL), so that the linear sets score as
 * they always did; one of the n-tuple family owns its layout and a copy of
 * its weights.  The shared table is guarded by one lock; an entry, once
 * filled, is never written again, so a pointer found stays valid until
 * nk_eval_shared_free_all.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "search/eval.h"
#include "base/alloc.h"

/* ===== the families ===== */

static const nk_eval_family families[] = {
    {"linear", "a weighted sum over a feature set (features= names the set)", NULL},
    {"ntuple", "an n-tuple network over pits of the Warri ring", nk_ntuple_params_table},
    {"nnet", "a small neural network over the pits and the stores", nk_nnet_params_table},
};
enum { NFAMILIES = sizeof families / sizeof families[0] };

size_t nk_eval_family_count(void)
{
    return NFAMILIES;
}

const nk_eval_family *nk_eval_family_at(size_t i)
{
    return i < NFAMILIES ? &families[i] : NULL;
}

const nk_eval_family *nk_eval_family_of(const char *features)
{
    return nk_ntuple_is(features) ? &families[1]
           : nk_nnet_is(features) ? &families[2]
                                  : &families[0];
}

/* The stand-in set of an n-tuple evaluation: its name, no features. */
static const nk_feature_set ntuple_set = {
    "ntuple", "an n-tuple network (search/ntuple.h)", 0, NULL, NULL, 1u << NK_SOW_WARRI, NULL,
    NULL};

/* The stand-in set of a network: its name, no features, every variant. */
static const nk_feature_set nnet_set = {
    "nnet", "a small neural network (search/nnet.h)",    0,    NULL,
    NULL,   (1u << NK_SOW_WARRI) | (1u << NK_SOW_RELAY), NULL, NULL};

nk_status nk_eval_features_check(const char *features, char *err, size_t errlen)
{
    if (nk_nnet_is(features)) {
        nk_nnet nn;
        return nk_nnet_parse(&nn, features, NULL, err, errlen);
    }
    if (nk_ntuple_is(features)) {
        nk_ntuple *nt = nk_malloc(sizeof *nt);
        if (nt == NULL)
            return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
        nk_status st = nk_ntuple_parse(nt, features, err, errlen);
        nk_free(nt);
        return st;
    }
    if (nk_features_find(features) == NULL) {
        char list[128];
        nk_features_list(list, sizeof list);
        return nk_fail(NK_EINVAL, err, errlen,
                       "unknown feature set '%s'; valid sets: %s, or ntuple[:layout=L:cap=C] "
                       "or nnet[:hidden=H:act=A]",
                       features, list);
    }
    return NK_OK;
}

/* NK_OK if the n-tuple family suits v: the Warri family only. */
static nk_status ntuple_suits(const char *features, const nk_variant *v, char *err, size_t errlen)
{
    if (v->sowing == NK_SOW_WARRI)
        return NK_OK;
    return nk_fail(NK_EINVAL, err, errlen,
                   "features '%s': the n-tuple family does not suit variant '%s' (relay sowing: "
                   "pits change owner, which its view of rows does not model); use adjikui or "
                   "material",
                   features, v->name);
}

nk_status nk_eval_features_count(const char *features, const nk_variant *v, size_t *n, char *name,
                                 size_t namelen, char *err, size_t errlen)
{
    *n = 0;
    if (nk_nnet_is(features)) {
        nk_nnet nn;
        nk_status st = nk_nnet_parse(&nn, features, v, err, errlen);
        if (st == NK_OK) {
            *n = nn.count;
            snprintf(name, namelen, "family '%s'", nn.text);
        }
        return st;
    }
    if (!nk_ntuple_is(features)) {
        const nk_feature_set *set =
            features[0] ? nk_features_find(features) : nk_features_default(v);
        if (set == NULL)
            return nk_eval_features_check(features, err, errlen);
        nk_status st = nk_features_check(set, v, err, errlen);
        if (st == NK_OK) {
            *n = set->count;
            snprintf(name, namelen, "feature set '%s'", set->name);
        }
        return st;
    }
    nk_status st = ntuple_suits(features, v, err, errlen);
    nk_ntuple *nt = st == NK_OK ? nk_malloc(sizeof *nt) : NULL;
    if (st == NK_OK && nt == NULL)
        st = nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    if (st == NK_OK)
        st = nk_ntuple_parse(nt, features, err, errlen);
    if (st == NK_OK) {
        *n = nt->count;
        snprintf(name, namelen, "family '%s'", nt->text);
    }
    nk_free(nt);
    return st;
}

/* Checks a family's n weights w (NULL: its defaults) against the count
 * its text needs and allocates e->tw for them (copied in when given). */
static nk_status family_weights(nk_eval *e, const char *text, size_t count, const double *w,
                                size_t n, char *err, size_t errlen)
{
    if (w != NULL && n != count)
        return nk_fail(NK_EINVAL, err, errlen, "family '%s' needs %zu weights, got %zu", text,
                       count, n);
    for (size_t i = 0; w != NULL && i < n; i++)
        if (!isfinite(w[i]))
            return nk_fail(NK_ERANGE, err, errlen, "weight %zu is not a finite number", i + 1);
    if ((e->tw = nk_calloc(count, sizeof *e->tw)) == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu weights", count);
    if (w != NULL)
        memcpy(e->tw, w, n * sizeof *w);
    return NK_OK;
}

static nk_status ntuple_setup(nk_eval *e, const nk_variant *v, const char *features,
                              const double *w, size_t n, char *err, size_t errlen)
{
    nk_status st = ntuple_suits(features, v, err, errlen);
    if (st != NK_OK)
        return st;
    memset(e, 0, sizeof *e);
    e->variant = v;
    e->set = &ntuple_set;
    e->nt = nk_malloc(sizeof *e->nt);
    if (e->nt == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    st = nk_ntuple_parse(e->nt, features, err, errlen);
    if (st == NK_OK)
        st = family_weights(e, e->nt->text, e->nt->count, w, n, err, errlen);
    if (st != NK_OK) {
        nk_eval_free(e);
        return st;
    }
    if (w == NULL)
        e->tw[0] = 1.0; /* the default: the store term alone (material) */
    return NK_OK;
}

/* A network: every variant (its inputs follow v's board). */
static nk_status nnet_setup(nk_eval *e, const nk_variant *v, const char *features, const double *w,
                            size_t n, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->variant = v;
    e->set = &nnet_set;
    e->nn = nk_malloc(sizeof *e->nn);
    nk_status st = e->nn != NULL ? nk_nnet_parse(e->nn, features, v, err, errlen)
                                 : nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    if (st == NK_OK)
        st = family_weights(e, e->nn->text, e->nn->count, w, n, err, errlen);
    if (st != NK_OK) {
        nk_eval_free(e);
        return st;
    }
    if (w == NULL)
        nk_nnet_defaults(e->nn, e->tw);
    return NK_OK;
}

nk_status nk_eval_setup(nk_eval *e, const nk_variant *v, const char *features, const double *w,
                        size_t n, char *err, size_t errlen)
{
    if (nk_ntuple_is(features))
        return ntuple_setup(e, v, features, w, n, err, errlen);
    if (nk_nnet_is(features))
        return nnet_setup(e, v, features, w, n, err, errlen);
    const nk_feature_set *set = features[0] ? nk_features_find(features) : nk_features_default(v);
    if (set == NULL)
        return nk_eval_features_check(features, err, errlen);
    return nk_eval_init(e, v, set, w, n, err, errlen);
}

void nk_eval_free(nk_eval *e)
{
    if (e == NULL)
        return;
    nk_free(e->nt);
    nk_free(e->nn);
    nk_free(e->tw);
    e->nt = NULL;
    e->nn = NULL;
    e->tw = NULL;
}

size_t nk_eval_weights(const nk_eval *e, const double **w)
{
    if (e->nt != NULL) {
        *w = e->tw;
        return e->nt->count;
    }
    if (e->nn != NULL) {
        *w = e->tw;
        return e->nn->count;
    }
    *w = e->w;
    return e->set->count;
}

/* ===== the gradient ===== */

/* The n-tuple network's gradient as entries: the value (ntuple.h) is
 * w_0 * sd + sum_t W_t[idx_t(mover)] - sum_t W_t[idx_t(opponent)], so each
 * tuple gives +1 at its mover's entry and -1 at its opponent's (none when
 * they are the same entry).  Every tuple of the layout is in nt->t (a ring
 * item's twelve runs too, pit s + j mod 12 for the run from s), whose
 * index is summed here pit by pit over the same digits as the value's;
 * view[p + 6] is pit p of the opponent's view. */
static size_t ntuple_entries(const nk_ntuple *nt, const nk_pos *pos, uint32_t *idx, double *val)
{
    uint8_t ring[2 * NK_PITS];
    memcpy(ring, pos->pit, NK_PITS);
    memcpy(ring + NK_PITS, pos->pit, NK_PITS);
    const uint8_t *view = ring + pos->side * NK_ROW;
    size_t n = 0;
    idx[n] = 0;
    val[n++] = (double)((int)pos->store[pos->side] - (int)pos->store[pos->side ^ 1]);
    for (size_t i = 0; i < nt->ntuples; i++) {
        const nk_ntuple_tuple *t = &nt->t[i];
        uint32_t a = t->offset, b = t->offset;
        for (uint32_t j = 0; j < t->k; j++) {
            a += nt->digit[j][view[t->pit[j]]];
            b += nt->digit[j][view[t->pit[j] + NK_ROW]];
        }
        if (a != b) {
            idx[n] = a;
            val[n++] = 1.0;
            idx[n] = b;
            val[n++] = -1.0;
        }
    }
    return n;
}

/* The family of a set-up evaluation, its index in families. */
static size_t family_index(const nk_eval *e)
{
    return e->nt != NULL ? 1 : e->nn != NULL ? 2 : 0;
}

void nk_eval_gradient(const nk_eval *e, const nk_pos *pos, double *g)
{
    switch (family_index(e)) {
    case 1: { /* ntuple: its entries, scattered */
        uint32_t idx[1 + 2 * NK_NTUPLE_MAX_TUPLES];
        double val[1 + 2 * NK_NTUPLE_MAX_TUPLES];
        size_t n = ntuple_entries(e->nt, pos, idx, val);
        memset(g, 0, e->nt->count * sizeof *g);
        for (size_t k = 0; k < n; k++)
            g[idx[k]] += val[k];
        return;
    }
    case 2: /* nnet */
        nk_nnet_gradient(e->nn, e->tw, pos, g);
        return;
    default: { /* linear: the features */
        int f[NK_MAX_FEATURES];
        e->set->compute(e->variant, pos, f);
        for (size_t j = 0; j < e->set->count; j++)
            g[j] = f[j];
        return;
    }
    }
}

size_t nk_eval_gradient_entries(const nk_eval *e, const nk_pos *pos, uint32_t *idx, double *val)
{
    switch (family_index(e)) {
    case 1: /* ntuple */
        return ntuple_entries(e->nt, pos, idx, val);
    default: { /* the dense gradient, every index */
        const double *w;
        size_t n = nk_eval_weights(e, &w);
        nk_eval_gradient(e, pos, val);
        for (size_t j = 0; j < n; j++)
            idx[j] = (uint32_t)j;
        return n;
    }
    }
}

size_t nk_eval_parts(const nk_eval *e, nk_eval_part *parts)
{
    if (e->nn != NULL) {
        const size_t H = e->nn->hidden, I = e->nn->inputs;
        parts[0] = (nk_eval_part){"store term", 0, 1};
        parts[1] = (nk_eval_part){"first layer", 1, I * H};
        parts[2] = (nk_eval_part){"biases", 1 + I * H, H};
        parts[3] = (nk_eval_part){"output weights", 1 + (I + 1) * H, H};
        return 4;
    }
    if (e->nt != NULL) {
        parts[0] = (nk_eval_part){"store term", 0, 1};
        parts[1] = (nk_eval_part){"tables", 1, e->nt->count - 1};
        return 2;
    }
    parts[0] = (nk_eval_part){"weights", 0, e->set->count};
    return 1;
}

void nk_eval_weights_summary(const double *w, size_t n, nk_weights_summary *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    double sum = 0.0, sum_abs = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || w[i] < w[out->argmin])
            out->argmin = i;
        if (i == 0 || w[i] > w[out->argmax])
            out->argmax = i;
        out->zeros += w[i] == 0.0;
        sum += w[i];
        sum_abs += fabs(w[i]);
    }
    if (n > 0) {
        out->min = w[out->argmin];
        out->max = w[out->argmax];
        out->mean = sum / (double)n;
        out->mean_abs = sum_abs / (double)n;
    }
}

/* ===== shared weight vectors ===== */

enum { SHARED_MAX = 64, SHARED_KEY = 512 };

static struct {
    char key[SHARED_KEY];
    double *w;
    size_t n;
} shared[SHARED_MAX];
static unsigned nshared;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned shared_lookup(const char *key)
{
    unsigned i = 0;
    while (i < nshared && strcmp(shared[i].key, key) != 0)
        i++;
    return i;
}

nk_status nk_eval_shared_put(const char *key, const double *w, size_t n, char *err, size_t errlen)
{
    if (strlen(key) >= SHARED_KEY)
        return nk_fail(NK_EINVAL, err, errlen, "weights '%.40s...': the name is too long", key);
    nk_status st = NK_OK;
    pthread_mutex_lock(&shared_lock);
    unsigned i = shared_lookup(key);
    if (i < nshared) {
        if (shared[i].n != n || memcmp(shared[i].w, w, n * sizeof *w) != 0)
            st = nk_fail(NK_EINVAL, err, errlen,
                         "weights '%s' changed while in use (read again with other numbers)", key);
    } else if (nshared == SHARED_MAX) {
        st = nk_fail(NK_ERANGE, err, errlen, "more than %d large weight files in use", SHARED_MAX);
    } else if ((shared[i].w = nk_malloc(n * sizeof *w)) == NULL) {
        st = nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu weights", n);
    } else {
        memcpy(shared[i].w, w, n * sizeof *w);
        shared[i].n = n;
        snprintf(shared[i].key, sizeof shared[i].key, "%s", key);
        nshared++;
    }
    pthread_mutex_unlock(&shared_lock);
    return st;
}

const double *nk_eval_shared_find(const char *key, size_t *n)
{
    const double *w = NULL;
    pthread_mutex_lock(&shared_lock);
    unsigned i = shared_lookup(key);
    if (i < nshared) {
        w = shared[i].w;
        *n = shared[i].n;
    }
    pthread_mutex_unlock(&shared_lock);
    return w;
}

void nk_eval_shared_free_all(void)
{
    pthread_mutex_lock(&shared_lock);
    for (unsigned i = 0; i < nshared; i++)
        nk_free(shared[i].w);
    memset(shared, 0, sizeof shared);
    nshared = 0;
    pthread_mutex_unlock(&shared_lock);
}
