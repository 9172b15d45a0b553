/*
 * ntuple.c -- the n-tuple network: its layouts and its value (ntuple.h).
 *
 * Invariants: a parsed layout's tuples hold 1..NK_NTUPLE_MAX_K distinct
 * pits in 0..11, their tables lie one after the other from offset 1 (0 is
 * the store term), and count is 1 + the sum of the table sizes, at most
 * NK_NTUPLE_MAX_WEIGHTS; so every index the value computes lies below
 * count.  The value reads the position only, allocates nothing and sums
 * the mover's and the opponent's views apart, over the same tuples in the
 * same order (the ring items' first, then the loose tuples, each in layout
 * order), so that a mirrored position gives the negated value to the bit.
 * An index is a sum of looked-up digits (digit[j][n] = min(n, cap) *
 * (cap + 1)^j), no multiplication; a ring item's twelve indices serve
 * both views.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/ntuple.h"

/* ===== the parameter table ===== */

#define NTUPLE_ROW(P, sec, nm, field, T, ctype, ...)                                               \
    NK_PARAM_DESCRIBE(nk_ntuple_params, field, sec, nm, T, __VA_ARGS__)
static const nk_param ntuple_params[] = {NK_NTUPLE_PARAMS(NTUPLE_ROW, _)};
enum { NPARAMS = sizeof ntuple_params / sizeof ntuple_params[0] };

const nk_param *nk_ntuple_params_table(size_t *n)
{
    *n = NPARAMS;
    return ntuple_params;
}

int nk_ntuple_is(const char *text)
{
    return strncmp(text, "ntuple", 6) == 0 && (text[6] == '\0' || text[6] == ':');
}

/* ===== layouts ===== */

/* Adds a tuple of k pits; the caller checked the pits. */
static nk_status add_tuple(nk_ntuple *nt, const uint8_t *pit, unsigned k, char *err, size_t errlen)
{
    if (nt->ntuples == NK_NTUPLE_MAX_TUPLES)
        return nk_fail(NK_EINVAL, err, errlen, "ntuple.layout: more than %d tuples",
                       NK_NTUPLE_MAX_TUPLES);
    nk_ntuple_tuple *t = &nt->t[nt->ntuples];
    size_t size = 1;
    t->k = k;
    for (unsigned j = 0; j < k; j++) {
        t->pit[j] = pit[j];
        t->stride[j] = (uint32_t)size;
        size *= nt->par.cap + 1u;
    }
    if (nt->count + size > NK_NTUPLE_MAX_WEIGHTS)
        return nk_fail(NK_EINVAL, err, errlen,
                       "ntuple.layout '%s' with cap %u needs more than %d weights", nt->par.layout,
                       nt->par.cap, NK_NTUPLE_MAX_WEIGHTS);
    t->offset = (uint32_t)nt->count;
    nt->count += size;
    nt->ntuples++;
    return NK_OK;
}

/* `ringK`: the twelve runs of K consecutive pits. */
static nk_status add_ring(nk_ntuple *nt, const char *item, char *err, size_t errlen)
{
    char *end;
    long k = strtol(item + 4, &end, 10);
    if (item[4] < '0' || item[4] > '9' || *end != '\0' || k < 1 || k > NK_NTUPLE_MAX_K)
        return nk_fail(NK_EINVAL, err, errlen, "ntuple.layout: '%s' is not ring1 .. ring%d", item,
                       NK_NTUPLE_MAX_K);
    const uint32_t offset = (uint32_t)nt->count;
    for (unsigned s = 0; s < NK_PITS; s++) {
        uint8_t pit[NK_NTUPLE_MAX_K];
        for (unsigned j = 0; j < (unsigned)k; j++)
            pit[j] = (uint8_t)((s + j) % NK_PITS);
        nk_status st = add_tuple(nt, pit, (unsigned)k, err, errlen);
        if (st != NK_OK)
            return st;
    }
    nt->rings[nt->nrings++] =
        (nk_ntuple_ring){(uint32_t)k, offset, (uint32_t)(nt->count - offset) / NK_PITS};
    return NK_OK;
}

/* `P-P-...`: one tuple. */
static nk_status add_pits(nk_ntuple *nt, const char *item, char *err, size_t errlen)
{
    uint8_t pit[NK_NTUPLE_MAX_K];
    unsigned k = 0;
    const char *s = item;
    for (;;) {
        if (*s < '0' || *s > '9')
            return nk_fail(NK_EINVAL, err, errlen,
                           "ntuple.layout: tuple '%s' is not pits P-P-... (0..11) or ringK", item);
        char *end;
        long p = strtol(s, &end, 10);
        if (p < 0 || p >= NK_PITS)
            return nk_fail(NK_EINVAL, err, errlen,
                           "ntuple.layout: tuple '%s': pit %ld is out of range 0..11", item, p);
        for (unsigned j = 0; j < k; j++)
            if (pit[j] == p)
                return nk_fail(NK_EINVAL, err, errlen, "ntuple.layout: tuple '%s' repeats pit %ld",
                               item, p);
        if (k == NK_NTUPLE_MAX_K)
            return nk_fail(NK_EINVAL, err, errlen,
                           "ntuple.layout: tuple '%s' has more than %d pits", item,
                           NK_NTUPLE_MAX_K);
        pit[k++] = (uint8_t)p;
        if (*end == '\0')
            break;
        if (*end != '-')
            return nk_fail(NK_EINVAL, err, errlen,
                           "ntuple.layout: tuple '%s' is not pits P-P-... (0..11) or ringK", item);
        s = end + 1;
    }
    nk_status st = add_tuple(nt, pit, k, err, errlen);
    if (st == NK_OK)
        nt->loose[nt->nloose++] = (uint8_t)(nt->ntuples - 1);
    return st;
}

static nk_status parse_layout(nk_ntuple *nt, char *err, size_t errlen)
{
    char buf[NK_NTUPLE_TEXT];
    snprintf(buf, sizeof buf, "%s", nt->par.layout);
    nt->ntuples = nt->nrings = nt->nloose = 0;
    nt->count = 1; /* the store term */
    char *item = buf;
    for (;;) {
        char *plus = strchr(item, '+');
        if (plus != NULL)
            *plus = '\0';
        nk_status st;
        if (*item == '\0')
            st = nk_fail(NK_EINVAL, err, errlen, "ntuple.layout '%s' has an empty tuple",
                         nt->par.layout);
        else if (strncmp(item, "ring", 4) == 0)
            st = add_ring(nt, item, err, errlen);
        else
            st = add_pits(nt, item, err, errlen);
        if (st != NK_OK)
            return st;
        if (plus == NULL)
            return NK_OK;
        item = plus + 1;
    }
}

nk_status nk_ntuple_parse(nk_ntuple *nt, const char *text, char *err, size_t errlen)
{
    memset(nt, 0, sizeof *nt);
    nk_param_defaults(ntuple_params, NPARAMS, &nt->par);
    if (!nk_ntuple_is(text))
        return nk_fail(NK_EINVAL, err, errlen, "'%s' is not the ntuple family", text);
    if (strlen(text) >= NK_NTUPLE_TEXT)
        return nk_fail(NK_EINVAL, err, errlen, "'%.40s...' is longer than %d characters", text,
                       NK_NTUPLE_TEXT - 1);
    nk_status st = nk_param_parse_options(ntuple_params, NPARAMS, &nt->par, "ntuple",
                                          text[6] == ':' ? text + 7 : NULL, err, errlen);
    if (st == NK_OK)
        st = parse_layout(nt, err, errlen);
    if (st != NK_OK)
        return st;
    for (uint32_t j = 0, stride = 1; j < NK_NTUPLE_MAX_K; j++, stride *= nt->par.cap + 1u)
        for (unsigned n = 0; n < 256; n++)
            nt->digit[j][n] = (n < nt->par.cap ? n : nt->par.cap) * stride;
    int n =
        snprintf(nt->text, sizeof nt->text, "ntuple:layout=%s:cap=%u", nt->par.layout, nt->par.cap);
    if (n < 0 || (size_t)n >= sizeof nt->text)
        return nk_fail(NK_EINVAL, err, errlen, "ntuple.layout '%.40s...' is too long",
                       nt->par.layout);
    return NK_OK;
}

char *nk_ntuple_tuple_text(const nk_ntuple *nt, size_t i, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t j = 0; j < nt->t[i].k; j++) {
        int n = snprintf(buf + used, len - used, "%s%u", j ? "-" : "", nt->t[i].pit[j]);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
    return buf;
}

/* ===== the value ===== */

/* idx[s] = the index of the run of k pits from pit s of view (s = 0..11):
 * the digits of its pits summed.  One loop per k, unrolled with k fixed. */
static inline void ring_index(const uint32_t (*d)[256], const uint8_t *v, uint32_t k, uint32_t *idx)
{
#define RUN1(s) d[0][v[(s)]]
#define RUN2(s) RUN1(s) + d[1][v[(s) + 1]]
#define RUN3(s) RUN2(s) + d[2][v[(s) + 2]]
#define RUN4(s) RUN3(s) + d[3][v[(s) + 3]]
#define RUN5(s) RUN4(s) + d[4][v[(s) + 4]]
#define RUN6(s) RUN5(s) + d[5][v[(s) + 5]]
#define RUNS(RUN)                                                                                  \
    for (unsigned s = 0; s < NK_PITS; s++)                                                         \
        idx[s] = RUN(s);                                                                           \
    break;
    _Static_assert(NK_NTUPLE_MAX_K == 6, "one case per tuple length");
    switch (k) {
    case 1:
        RUNS(RUN1)
    case 2:
        RUNS(RUN2)
    case 3:
        RUNS(RUN3)
    case 4:
        RUNS(RUN4)
    case 5:
        RUNS(RUN5)
    default:
        RUNS(RUN6)
    }
#undef RUNS
#undef RUN6
#undef RUN5
#undef RUN4
#undef RUN3
#undef RUN2
#undef RUN1
}

double nk_ntuple_value(const nk_ntuple *nt, const double *w, const nk_pos *pos)
{
    /* view[j]: the seeds of pit j of the mover's view, j = 0..23 (pit j + 6
     * of the mover's view is pit j of the opponent's; the ring is repeated
     * so that no index wraps).  A pit's term in an index is one look-up,
     * nt->digit[j][seeds] = min(seeds, cap) * (cap + 1)^j. */
    uint8_t ring[3 * NK_PITS];
    memcpy(ring, pos->pit, NK_PITS);
    memcpy(ring + NK_PITS, pos->pit, NK_PITS);
    memcpy(ring + 2 * NK_PITS, pos->pit, NK_PITS);
    const uint8_t *view = ring + pos->side * NK_ROW;
    double me = 0.0, op = 0.0;
    /* A ring item: one index per start pit s, shared by both views (the
     * opponent's run from its pit s is the mover's from pit s + 6). */
    for (size_t g = 0; g < nt->nrings; g++) {
        const nk_ntuple_ring *r = &nt->rings[g];
        uint32_t idx[NK_PITS];
        ring_index(nt->digit, view, r->k, idx);
        const double *tab = w + r->offset;
        for (unsigned s = 0; s < NK_PITS; s++, tab += r->size) {
            me += tab[idx[s]];
            op += tab[idx[(s + NK_ROW) % NK_PITS]];
        }
    }
    for (size_t i = 0; i < nt->nloose; i++) {
        const nk_ntuple_tuple *t = &nt->t[nt->loose[i]];
        uint32_t a = t->offset, b = t->offset;
        for (uint32_t j = 0; j < t->k; j++) {
            a += nt->digit[j][view[t->pit[j]]];
            b += nt->digit[j][view[t->pit[j] + NK_ROW]];
        }
        me += w[a];
        op += w[b];
    }
    const int sd = (int)pos->store[pos->side] - (int)pos->store[pos->side ^ 1];
    return w[0] * sd + (me - op);
}
