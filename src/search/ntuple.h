/*
 * ntuple.h -- the n-tuple network, an evaluation family beside the linear
 * feature sets (features.h; the family table is in eval.h).
 *
 * Pits are named from the side to move's view, in sowing order around the
 * ring: 0..5 its own row (place k counted from the row's foot, as in
 * features.h), 6..11 the opponent's row; pit j of the view is board pit
 * (6 * side + j) mod 12.  A tuple is a list of distinct pits of that ring;
 * a layout is a list of tuples.  Each tuple t of k pits owns a table of
 * (cap + 1)^k weights W_t, indexed by its pits' seed counts, each capped
 * at cap: idx_t(view) = sum_j min(n_{p_j}, cap) * (cap + 1)^j.
 *
 * The value is antisymmetric by construction (shared weights): the same
 * network is evaluated from the side to move's view and from the
 * opponent's (pit j of the opponent's view is pit j + 6 of the mover's)
 * and subtracted, plus a store term:
 *
 *     value(pos) = w_0 * (own store - opponent store)
 *                + (sum_t W_t[idx_t(mover's view)] - sum_t W_t[idx_t(opponent's view)])
 *
 * so that value(mirror(pos)) = -value(pos) exactly, to the bit (mirror:
 * the rows and the stores swapped, the same side to move).  Each view's
 * sum runs over the ring items' tuples first, then the tuples given pit
 * by pit, each in layout order.  The weight
 * vector is w_0 followed by the tables in the layout's order, each table
 * in index order: 1 + sum_t (cap + 1)^{k_t} numbers.  Its default is
 * w_0 = 1 and every table 0: the material evaluation.
 *
 * Only the Warri family (default rows): in Adji Kui II pits change owner,
 * which this view does not model yet, and the family refuses the variant.
 *
 * The family's parameters (NK_NTUPLE_PARAMS) are written after its name in
 * a spec's features= value: `ntuple`, `ntuple:layout=ring3`,
 * `ntuple:layout=ring2+ring3:cap=4`, `ntuple:layout=0-1-2+6-7-8`.  A layout
 * is items joined by '+': `ringK` (K = 1..NK_NTUPLE_MAX_K) adds the twelve
 * runs of K consecutive pits starting at pit 0, 1, ..., 11 (wrapping round
 * the ring); `P-P-...` adds one tuple of those pits (0..11, distinct).
 */
#ifndef NK_NTUPLE_H
#define NK_NTUPLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/param.h"
#include "rules/rules.h"

enum {
    NK_NTUPLE_MAX_K = 6,             /* pits in a tuple */
    NK_NTUPLE_MAX_TUPLES = 72,       /* tuples in a layout (six rings) */
    NK_NTUPLE_CAP_MAX = 15,          /* the largest cap */
    NK_NTUPLE_MAX_WEIGHTS = 1 << 20, /* numbers of a layout, the store term included */
    NK_NTUPLE_TEXT = 160             /* the family's text, "ntuple:layout=...:cap=C" */
};

/* The parameters of the family, one row each (base/param.h row shape):
 * read from "ntuple:KEY=VALUE:..." by nk_ntuple_parse. */
#define NK_NTUPLE_PARAMS(X, P)                                                                     \
    X(P, ntuple, layout, layout, STRING, char *, "ring3", NK_ANY, NULL, NULL,                      \
      "ringK or tuples of pits P-P-... (0..11, distinct), joined by +",                            \
      "tuples of pits, from the side to move's view (0..5 own row, 6..11 the opponent's)")         \
    X(P, ntuple, cap, cap, INT, unsigned, "6", NK_RANGE(1, NK_NTUPLE_CAP_MAX), NULL, NULL,         \
      "a whole number of seeds", "seed counts above cap index as cap")

/* The parameter values. */
typedef struct nk_ntuple_params {
    char layout[NK_NTUPLE_TEXT];
    unsigned cap;
} nk_ntuple_params;

/* One tuple, with the strides of its index. */
typedef struct nk_ntuple_tuple {
    uint32_t offset; /* where its table starts in the weight vector */
    uint32_t k;      /* pits */
    uint8_t pit[NK_NTUPLE_MAX_K];
    uint32_t stride[NK_NTUPLE_MAX_K]; /* (cap + 1)^j */
} nk_ntuple_tuple;

/* A `ringK` item: its twelve tuples (the runs starting at pits 0..11),
 * whose tables lie one after the other from offset, size each. */
typedef struct nk_ntuple_ring {
    uint32_t k, offset, size;
} nk_ntuple_ring;

/* A parsed layout.  Every tuple is in t (layout order); the value looks
 * up those of a ring item through rings (one index per start pit, shared
 * by both views), the others (`P-P-...`) through loose. */
typedef struct nk_ntuple {
    nk_ntuple_params par;
    size_t ntuples;
    size_t count; /* weights: 1 + sum of the table sizes */
    nk_ntuple_tuple t[NK_NTUPLE_MAX_TUPLES];
    size_t nrings, nloose;
    nk_ntuple_ring rings[NK_NTUPLE_MAX_TUPLES / NK_PITS];
    uint8_t loose[NK_NTUPLE_MAX_TUPLES]; /* indices into t */
    /* digit[j][n]: a pit of n seeds at place j of a tuple adds
     * min(n, cap) * (cap + 1)^j to its index (the strides, precomputed). */
    uint32_t digit[NK_NTUPLE_MAX_K][256];
    char text[NK_NTUPLE_TEXT]; /* canonical: "ntuple:layout=L:cap=C" */
} nk_ntuple;

/* The parameter table (NK_NTUPLE_PARAMS over nk_ntuple_params); *n rows. */
const nk_param *nk_ntuple_params_table(size_t *n);

/* Parses text, the family's name and its options ("ntuple" or
 * "ntuple:KEY=VALUE[:KEY=VALUE]").  NK_EINVAL with one line naming the key
 * and what is wrong: an unknown key, a key given twice, a layout with an
 * empty tuple, a pit out of range, a pit repeated within a tuple, a tuple
 * longer than NK_NTUPLE_MAX_K, too many tuples or weights; NK_ERANGE for a
 * cap out of range. */
nk_status nk_ntuple_parse(nk_ntuple *nt, const char *text, char *err, size_t errlen);

/* Whether text names the family ("ntuple" alone or followed by ':'). */
int nk_ntuple_is(const char *text);

/* The value (header: the formula), unclamped; w holds nt->count weights. */
double nk_ntuple_value(const nk_ntuple *nt, const double *w, const nk_pos *pos);

/* The pits of tuple i in words, "0-1-2", into buf[len]; returns buf. */
char *nk_ntuple_tuple_text(const nk_ntuple *nt, size_t i, char *buf, size_t len);

#endif
