/*
 * region.c -- the bounds behind the values of a database (tb.h,
 * nk_tb_region).
 *
 * The file keeps one byte a position: the value and the cycle bit.  Where
 * the build's two bounds met (lo = hi) that is the value; where they did
 * not, the file keeps the repetition's value clamped to them and forgets
 * them.  A region finds them again for the positions a play can reach: from
 * a position, every position with the cycle bit reachable by any moves
 * (captures included), each with its moves (an end of the game or a child
 * without the bit: a known value; a child with the bit: an edge).  Then,
 * seed count by seed count from the smallest, the build's recurrence
 *
 *     lo(p) = max( C(m), B - hi(c) )        hi(p) = max( C(m), B - lo(c) )
 *
 * (docs/tablebase.md, "Cycles and the repetition rule"; c has the other
 * side to move, else lo(c), hi(c)) is iterated from lo = 0, hi = B over the
 * region's positions of that count until nothing moves, twice at once:
 * with a capture's child at its stored value (lo, hi: what the build
 * computed, since a position without the bit has lo = hi and every
 * position that reaches one with the bit has the bit itself, the region is
 * closed under the recurrence), and with a capture's child at its own
 * bounds (lo_any, hi_any: whatever a repetition gives).  Last, the
 * strongly connected components of the moves that stay on a count
 * (Tarjan's algorithm, without recursion), for searches with history.
 *
 * Nodes are found by their entry (offset[b] + index) in an open-addressing
 * table; the explorations is breadth first, so each node's edges follow
 * those of the node before it.
 */
#include <string.h>

#include "base/alloc.h"
#include "tb/tb.h"

enum { EDGE_LOWER = 1, EDGE_SAME_SIDE = 2 };

typedef struct region_edge {
    uint32_t child; /* node */
    uint8_t took;   /* seeds the mover collected by the move (a capture) */
    uint8_t rest;   /* board seeds of the child */
    uint8_t flags;  /* EDGE_LOWER: a capture; EDGE_SAME_SIDE: the child has
                       the same side to move */
} region_edge;

typedef struct region_node {
    uint64_t key;   /* offset[b] + index */
    uint64_t first; /* its edges: edge[first .. the next node's first) */
    int64_t comp;
    uint8_t b;
    int8_t stored;   /* best known move, captures at their stored values; -1 */
    int8_t xlo, xhi; /* best known move, captures at their own bounds; -1 */
    uint8_t same;    /* has a child with the bit on its count */
    uint8_t lo, hi, lo_any, hi_any;
} region_node;

struct nk_tb_region {
    const nk_tb *tb;
    const nk_tb_whole *whole; /* lo_any, hi_any from here when not NULL */
    bool all;                 /* over the whole database: no nodes */
    region_node *node;
    uint64_t n, cap, limit;
    region_edge *edge;
    uint64_t nedge, ecap;
    uint32_t *slot; /* node + 1, 0 empty */
    uint64_t mask;  /* slots - 1 */
    bool nomem, full;
};

static inline uint64_t slot_of(const nk_tb_region *r, uint64_t key)
{
    return (key * UINT64_C(0x9E3779B97F4A7C15)) >> 17 & r->mask;
}

/* The node of key, or -1. */
static int64_t region_find(const nk_tb_region *r, uint64_t key)
{
    for (uint64_t s = slot_of(r, key);; s = (s + 1) & r->mask) {
        if (r->slot[s] == 0)
            return -1;
        if (r->node[r->slot[s] - 1].key == key)
            return r->slot[s] - 1;
    }
}

static bool region_rehash(nk_tb_region *r, uint64_t slots)
{
    uint32_t *s = nk_calloc(slots, sizeof *s);
    if (s == NULL)
        return false;
    nk_free(r->slot);
    r->slot = s;
    r->mask = slots - 1;
    for (uint64_t i = 0; i < r->n; i++) {
        uint64_t k = slot_of(r, r->node[i].key);
        while (r->slot[k])
            k = (k + 1) & r->mask;
        r->slot[k] = (uint32_t)(i + 1);
    }
    return true;
}

/* The node of key on count b, added when new; UINT32_MAX when out of
 * memory or beyond the limit (r->nomem, r->full). */
static uint32_t region_node_of(nk_tb_region *r, uint64_t key, unsigned b)
{
    int64_t f = region_find(r, key);
    if (f >= 0)
        return (uint32_t)f;
    if ((r->limit && r->n >= r->limit) || r->n >= UINT32_MAX - 1) {
        r->full = true;
        return UINT32_MAX;
    }
    if (r->n == r->cap) {
        uint64_t cap = r->cap ? 2 * r->cap : 1024;
        region_node *x = nk_realloc(r->node, cap * sizeof *x);
        if (x == NULL) {
            r->nomem = true;
            return UINT32_MAX;
        }
        r->node = x;
        r->cap = cap;
    }
    region_node *x = &r->node[r->n];
    memset(x, 0, sizeof *x);
    x->key = key;
    x->b = (uint8_t)b;
    x->comp = -1;
    r->n++;
    if (2 * r->n > r->mask + 1 && !region_rehash(r, 2 * (r->mask + 1))) {
        r->nomem = true;
        return UINT32_MAX;
    }
    uint64_t s = slot_of(r, key);
    while (r->slot[s])
        s = (s + 1) & r->mask;
    r->slot[s] = (uint32_t)r->n;
    return (uint32_t)(r->n - 1);
}

static void region_add_edge(nk_tb_region *r, uint32_t child, unsigned took, unsigned rest,
                            unsigned flags)
{
    if (r->nedge == r->ecap) {
        uint64_t cap = r->ecap ? 2 * r->ecap : 4096;
        region_edge *e = nk_realloc(r->edge, cap * sizeof *e);
        if (e == NULL) {
            r->nomem = true;
            return;
        }
        r->edge = e;
        r->ecap = cap;
    }
    r->edge[r->nedge++] = (region_edge){child, (uint8_t)took, (uint8_t)rest, (uint8_t)flags};
}

static inline int imax(int a, int b)
{
    return a > b ? a : b;
}

/* A child of a move that stays in the database: its byte.  took: the
 * seeds the mover collected, rest: the child's board seeds.  A known value
 * goes to the node's best moves, a child with the bit becomes an edge. */
static void region_child(nk_tb_region *r, uint32_t i, const nk_pos *child, int me, unsigned took,
                         unsigned rest)
{
    const nk_tb *tb = r->tb;
    unsigned cb;
    uint64_t idx;
    nk_tb_entry(tb, child, &cb, &idx);
    const uint8_t byte = tb->data[tb->offset[cb] + idx];
    const int x = byte & NK_TB_VALUE_MASK;
    const bool same_side = child->side == me;
    const int value = (int)took + (same_side ? x : (int)rest - x);
    region_node *nd = &r->node[i];
    if (!(byte & NK_TB_CYCLE)) {
        nd->stored = (int8_t)imax(nd->stored, value);
        nd->xlo = (int8_t)imax(nd->xlo, value);
        nd->xhi = (int8_t)imax(nd->xhi, value);
        return;
    }
    if (took > 0)
        nd->stored = (int8_t)imax(nd->stored, value);
    else
        nd->same = 1;
    uint32_t c = region_node_of(r, tb->offset[cb] + idx, cb);
    if (c != UINT32_MAX)
        region_add_edge(r, c, took, rest,
                        (took > 0 ? EDGE_LOWER : 0) | (same_side ? EDGE_SAME_SIDE : 0));
}

/* The moves of node i (its position p), as the build values them
 * (tb.c, tb_move_value). */
static void region_expand(nk_tb_region *r, uint32_t i, const nk_pos *p)
{
    const nk_variant *v = &r->tb->rules;
    const unsigned b = r->node[i].b;
    const int me = p->side;
    r->node[i].first = r->nedge;
    r->node[i].stored = r->node[i].xlo = r->node[i].xhi = -1;
    const unsigned legal = nk_legal(v, p);
    for (unsigned m = legal; m && !r->nomem && !r->full; m &= m - 1) {
        nk_pos child = *p;
        nk_apply(v, &child, __builtin_ctz(m), NULL);
        nk_end end = nk_pos_end_reached(v, &child);
        nk_result res;
        if (end == NK_END_NONE && v->sowing == NK_SOW_RELAY && nk_pos_passes(&child) == 1 &&
            nk_legal(v, &child) == 1u << NK_PASS) { /* two passes (R-K4) */
            nk_apply(v, &child, NK_PASS, NULL);
            end = nk_pos_end_reached(v, &child);
        }
        if (end != NK_END_NONE) {
            nk_pos_result(v, &child, end, &res);
            const int value = (int)res.total[me];
            region_node *nd = &r->node[i];
            nd->stored = (int8_t)imax(nd->stored, value);
            nd->xlo = (int8_t)imax(nd->xlo, value);
            nd->xhi = (int8_t)imax(nd->xhi, value);
            continue;
        }
        const unsigned took = child.store[me];
        region_child(r, i, &child, me, took, b - took);
    }
}

/* What node i's moves give at the count's current bounds: the two
 * fixpoints' new values. */
static void region_visit(nk_tb_region *r, uint64_t i, const uint64_t end, bool *moved)
{
    region_node *nd = &r->node[i];
    const int b = nd->b;
    int lo = imax(nd->stored, 0), hi = nd->stored;
    int alo = imax(nd->xlo, 0), ahi = nd->xhi;
    for (uint64_t k = nd->first; k < end; k++) {
        const region_edge *e = &r->edge[k];
        if (e->flags & EDGE_LOWER)
            continue;
        const region_node *c = &r->node[e->child];
        const bool flip = !(e->flags & EDGE_SAME_SIDE);
        lo = imax(lo, flip ? b - c->hi : c->lo);
        hi = imax(hi, flip ? b - c->lo : c->hi);
        alo = imax(alo, flip ? b - c->hi_any : c->lo_any);
        ahi = imax(ahi, flip ? b - c->lo_any : c->hi_any);
    }
    if (lo > nd->lo || hi < nd->hi || alo > nd->lo_any || ahi < nd->hi_any)
        *moved = true;
    if (lo > nd->lo)
        nd->lo = (uint8_t)lo;
    if (hi < nd->hi)
        nd->hi = (uint8_t)hi;
    if (alo > nd->lo_any)
        nd->lo_any = (uint8_t)alo;
    if (ahi < nd->hi_any)
        nd->hi_any = (uint8_t)ahi;
}

static inline uint64_t edges_end(const nk_tb_region *r, uint64_t i)
{
    return i + 1 < r->n ? r->node[i + 1].first : r->nedge;
}

/* The starting bounds of node i, its captures' children finished. */
static void region_start(nk_tb_region *r, uint64_t i)
{
    region_node *nd = &r->node[i];
    int xlo = nd->xlo, xhi = nd->xhi;
    for (uint64_t k = nd->first; k < edges_end(r, i); k++) {
        const region_edge *e = &r->edge[k];
        if (!(e->flags & EDGE_LOWER))
            continue;
        const region_node *c = &r->node[e->child];
        const bool same = e->flags & EDGE_SAME_SIDE;
        xlo = imax(xlo, e->took + (same ? c->lo_any : e->rest - c->hi_any));
        xhi = imax(xhi, e->took + (same ? c->hi_any : e->rest - c->lo_any));
    }
    nd->xlo = (int8_t)xlo;
    nd->xhi = (int8_t)xhi;
    nd->lo = (uint8_t)imax(nd->stored, 0);
    nd->hi = (uint8_t)(nd->same ? nd->b : nd->stored);
    nd->lo_any = (uint8_t)imax(xlo, 0);
    nd->hi_any = (uint8_t)(nd->same ? nd->b : xhi);
}

/* The strongly connected components of the moves on a count (Tarjan's
 * algorithm with an explicit stack of calls). */
static bool region_components(nk_tb_region *r)
{
    const uint64_t n = r->n ? r->n : 1;
    uint32_t *idx = nk_calloc(n, sizeof *idx), *low = nk_malloc(n * sizeof *low);
    uint32_t *stack = nk_malloc(n * sizeof *stack), *call = nk_malloc(n * sizeof *call);
    uint64_t *cursor = nk_malloc(n * sizeof *cursor);
    bool ok = idx && low && stack && call && cursor;
    uint32_t counter = 0, sp = 0;
    int64_t ncomp = 0;
    for (uint64_t s = 0; ok && s < r->n; s++) {
        if (idx[s])
            continue;
        uint64_t top = 0;
        idx[s] = low[s] = ++counter;
        stack[sp++] = (uint32_t)s;
        r->node[s].comp = -2; /* on the stack */
        call[top] = (uint32_t)s;
        cursor[top++] = r->node[s].first;
        while (top) {
            const uint32_t x = call[top - 1];
            if (cursor[top - 1] < edges_end(r, x)) {
                const region_edge *e = &r->edge[cursor[top - 1]++];
                const uint32_t w = e->child;
                if (e->flags & EDGE_LOWER)
                    continue;
                if (!idx[w]) {
                    idx[w] = low[w] = ++counter;
                    stack[sp++] = w;
                    r->node[w].comp = -2;
                    call[top] = w;
                    cursor[top++] = r->node[w].first;
                } else if (r->node[w].comp == -2 && idx[w] < low[x]) {
                    low[x] = idx[w];
                }
                continue;
            }
            if (low[x] == idx[x]) {
                uint32_t w;
                do {
                    w = stack[--sp];
                    r->node[w].comp = ncomp;
                } while (w != x);
                ncomp++;
            }
            top--;
            if (top && low[x] < low[call[top - 1]])
                low[call[top - 1]] = low[x];
        }
    }
    nk_free(idx);
    nk_free(low);
    nk_free(stack);
    nk_free(call);
    nk_free(cursor);
    return ok;
}

/* Both fixpoints, count by count from the smallest and, within a count,
 * component by component in the order Tarjan's algorithm closes them
 * (a component's children on the count are in components closed before
 * it), each iterated until nothing moves: every node once, then again
 * whenever one of its children moved (a queue, and the parents' lists). */
static bool region_solve(nk_tb_region *r)
{
    const uint64_t n = r->n ? r->n : 1;
    uint32_t *order = nk_malloc(n * sizeof *order), *tmp = nk_malloc(n * sizeof *tmp);
    uint64_t *at = nk_calloc(n + 1, sizeof *at);
    if (order == NULL || tmp == NULL || at == NULL) {
        nk_free(order);
        nk_free(tmp);
        nk_free(at);
        return false;
    }
    /* by component, then (stable) by count */
    for (uint64_t i = 0; i < r->n; i++)
        at[r->node[i].comp + 1]++;
    for (uint64_t k = 1; k <= n; k++)
        at[k] += at[k - 1];
    for (uint64_t i = 0; i < r->n; i++)
        tmp[at[r->node[i].comp]++] = (uint32_t)i;
    uint64_t cnt[NK_TB_MAX_SEEDS + 2] = {0};
    for (uint64_t i = 0; i < r->n; i++)
        cnt[r->node[i].b + 1]++;
    for (unsigned b = 1; b <= NK_TB_MAX_SEEDS + 1; b++)
        cnt[b] += cnt[b - 1];
    for (uint64_t k = 0; k < r->n; k++)
        order[cnt[r->node[tmp[k]].b]++] = tmp[k];
    /* the parents on the count of each node (CSR in at[], tmp[] reused) */
    uint32_t *par = nk_malloc((r->nedge ? r->nedge : 1) * sizeof *par);
    uint8_t *queued = nk_calloc(n, 1);
    if (par == NULL || queued == NULL) {
        nk_free(par);
        nk_free(queued);
        nk_free(order);
        nk_free(tmp);
        nk_free(at);
        return false;
    }
    memset(at, 0, (n + 1) * sizeof *at);
    for (uint64_t k = 0; k < r->nedge; k++)
        if (!(r->edge[k].flags & EDGE_LOWER))
            at[r->edge[k].child + 1]++;
    for (uint64_t k = 1; k <= n; k++)
        at[k] += at[k - 1];
    for (uint64_t i = 0; i < r->n; i++)
        for (uint64_t k = r->node[i].first; k < edges_end(r, i); k++)
            if (!(r->edge[k].flags & EDGE_LOWER))
                par[at[r->edge[k].child]++] = (uint32_t)i;
    for (uint64_t i = r->n; i > 0; i--) /* at[i]: the first parent of i again */
        at[i] = at[i - 1];
    at[0] = 0;
    /* each component: every node once, then a node again whenever one of
     * its children in the component moved (tmp: a ring of queued nodes) */
    for (uint64_t k = 0; k < r->n;) {
        uint64_t e = k;
        const int64_t comp = r->node[order[k]].comp;
        while (e < r->n && r->node[order[e]].comp == comp)
            e++;
        const uint64_t size = e - k;
        uint64_t head = 0, len = 0;
        for (uint64_t j = k; j < e; j++) {
            region_start(r, order[j]);
            tmp[len++] = order[j];
            queued[order[j]] = 1;
        }
        while (len > 0) {
            const uint32_t x = tmp[head];
            head = (head + 1) % size;
            len--;
            queued[x] = 0;
            bool moved = false;
            region_visit(r, x, edges_end(r, x), &moved);
            if (!moved)
                continue;
            for (uint64_t q = at[x]; q < at[x + 1]; q++) {
                const uint32_t y = par[q];
                if (r->node[y].comp == comp && !queued[y]) {
                    queued[y] = 1;
                    tmp[(head + len) % size] = y;
                    len++;
                }
            }
        }
        k = e;
    }
    nk_free(par);
    nk_free(queued);
    nk_free(order);
    nk_free(tmp);
    nk_free(at);
    return true;
}

nk_status nk_tb_region_new(nk_tb_region **out, const nk_tb *tb, const nk_pos *pos,
                           uint64_t max_positions, char *err, size_t errlen)
{
    *out = NULL;
    if (tb->planes != 1)
        return nk_fail(NK_EINVAL, err, errlen,
                       "region: a two-plane database (%s): no value rests on the repetition rule",
                       tb->variant->name);
    uint8_t byte;
    nk_status st = nk_tb_probe(tb, pos, &byte);
    if (st == NK_ERANGE)
        return nk_fail(st, err, errlen, "region: the position has %u board seeds, the database %u",
                       nk_pos_on_board(pos), tb->seeds);
    if (st != NK_OK)
        return nk_fail(st, err, errlen,
                       "region: the position's owners are no pattern of the database");
    nk_tb_region *r = nk_calloc(1, sizeof *r);
    if (r == NULL || !region_rehash(r, 1024)) {
        nk_free(r);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a region of the database");
    }
    r->tb = tb;
    r->limit = max_positions;
    *out = r;
    if (!(byte & NK_TB_CYCLE))
        return NK_OK;
    unsigned b;
    uint64_t idx;
    nk_tb_entry(tb, pos, &b, &idx);
    region_node_of(r, tb->offset[b] + idx, b);
    for (uint64_t i = 0; i < r->n && !r->nomem && !r->full; i++) {
        nk_pos p;
        const unsigned nb = r->node[i].b;
        nk_tb_entry_pos(tb, nb, r->node[i].key - tb->offset[nb], &p);
        region_expand(r, (uint32_t)i, &p);
    }
    if (r->full) {
        nk_tb_region_free(r);
        *out = NULL;
        return nk_fail(NK_ERANGE, err, errlen,
                       "region: more than %llu positions with the cycle bit are reachable",
                       (unsigned long long)max_positions);
    }
    if (r->nomem || !region_components(r) || !region_solve(r)) {
        nk_tb_region_free(r);
        *out = NULL;
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a region of the database");
    }
    return NK_OK;
}

void nk_tb_region_free(nk_tb_region *r)
{
    if (r == NULL)
        return;
    nk_free(r->node);
    nk_free(r->edge);
    nk_free(r->slot);
    nk_free(r);
}

nk_status nk_tb_region_whole(nk_tb_region **out, const nk_tb_whole *w, char *err,
                             size_t errlen)
{
    nk_tb_region *r = nk_calloc(1, sizeof *r);
    *out = r;
    if (r == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a region of the database");
    r->tb = w->tb;
    r->whole = w;
    r->all = true;
    return NK_OK;
}

void nk_tb_region_attach(nk_tb_region *r, const nk_tb_whole *w)
{
    r->whole = w;
}

uint64_t nk_tb_region_size(const nk_tb_region *r)
{
    return r->all ? r->tb->offset[r->tb->seeds + 1] : r->n;
}

nk_status nk_tb_region_bounds(const nk_tb_region *r, const nk_pos *pos, nk_tb_bounds *out)
{
    uint8_t byte;
    nk_status st = nk_tb_probe(r->tb, pos, &byte);
    if (st != NK_OK)
        return st;
    if (!(byte & NK_TB_CYCLE)) {
        const int v = byte & NK_TB_VALUE_MASK;
        *out = (nk_tb_bounds){v, v, v, v, -1};
        return NK_OK;
    }
    int lo_any = 0, hi_any = 0;
    if (r->whole)
        nk_tb_whole_get(r->whole, pos, &lo_any, &hi_any);
    if (r->all) { /* no nodes: one component for every position with the bit */
        *out = (nk_tb_bounds){-1, -1, lo_any, hi_any, 0};
        return NK_OK;
    }
    unsigned b;
    uint64_t idx;
    nk_tb_entry(r->tb, pos, &b, &idx);
    const int64_t i = region_find(r, r->tb->offset[b] + idx);
    if (i < 0)
        return NK_EMISMATCH;
    const region_node *nd = &r->node[i];
    *out = (nk_tb_bounds){nd->lo, nd->hi, r->whole ? lo_any : nd->lo_any,
                          r->whole ? hi_any : nd->hi_any, nd->comp};
    return NK_OK;
}

nk_status nk_tb_region_moves(const nk_tb_region *r, const nk_pos *pos, unsigned *mask,
                             nk_tb_bounds out[NK_PASS + 1])
{
    const nk_variant *v = &r->tb->rules;
    nk_pos p = *pos;
    p.store[0] = p.store[1] = 0;
    nk_tb_bounds self;
    nk_status st = nk_tb_region_bounds(r, &p, &self);
    if (st != NK_OK)
        return st;
    const int me = p.side;
    *mask = nk_pos_end(v, &p) == NK_END_NONE ? nk_legal(v, &p) : 0;
    for (unsigned m = *mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        nk_pos c = p;
        nk_apply(v, &c, move, NULL);
        const nk_end end = nk_pos_end_reached(v, &c);
        if (end != NK_END_NONE) {
            nk_result res;
            nk_pos_result(v, &c, end, &res);
            const int x = (int)res.total[me];
            out[move] = (nk_tb_bounds){x, x, x, x, -1};
            continue;
        }
        const int took = c.store[me], rest = (int)nk_pos_on_board(&c);
        c.store[0] = c.store[1] = 0;
        nk_tb_bounds cb;
        st = nk_tb_region_bounds(r, &c, &cb);
        if (st != NK_OK)
            return st;
        if (c.side == me)
            out[move] = (nk_tb_bounds){took + cb.lo, took + cb.hi, took + cb.lo_any,
                                       took + cb.hi_any, cb.component};
        else
            out[move] =
                (nk_tb_bounds){took + rest - cb.hi, took + rest - cb.lo, took + rest - cb.hi_any,
                               took + rest - cb.lo_any, cb.component};
        if (cb.lo < 0) /* not computed (a region over the whole database) */
            out[move].lo = out[move].hi = -1;
    }
    return NK_OK;
}
