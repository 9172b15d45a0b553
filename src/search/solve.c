/*
 * solve.c -- solving beyond an endgame database (solve.h).
 *
 * A solve opens the game of the database at the root (the majority rule
 * off, tb->rules, and the stores emptied), a second game for the children,
 * and a material search that probes the database at every node inside it;
 * then each legal move is decided from the end of the game, the database,
 * or bounding searches.
 */
#include "search/solve.h"

#include <string.h>

#include "base/alloc.h"
#include "search/features.h"
#include "search/search.h"

typedef struct beyond {
    nk_eval eval;
    nk_search *search;
    nk_game *game; /* [0] the root, [1] a child */
} beyond;

/* Checks the arguments and opens the search.  planes: the kind of
 * database the caller solves beyond. */
static nk_status beyond_open(beyond *b, const nk_tb *tb, const nk_pos *root, unsigned planes,
                             uint64_t budget, char *err, size_t errlen)
{
    int bought;
    if (tb->planes != planes)
        return nk_fail(NK_EINVAL, err, errlen, "solve: a database of %u plane%s, not %u",
                       tb->planes, tb->planes == 1 ? "" : "s", planes);
    if (!nk_tb_owners_pattern(root, &bought) || !nk_tb_holds_pattern(tb, bought))
        return nk_fail(NK_EINVAL, err, errlen,
                       "solve: the position's pit owners are no pattern of the database");
    if (budget == 0)
        return nk_fail(NK_ERANGE, err, errlen, "solve: a budget of 0 nodes a search");
    nk_pos p = *root;
    p.store[0] = p.store[1] = 0;
    p.hash = nk_pos_hash(&p);
    b->search = NULL;
    b->game = nk_malloc(2 * sizeof *b->game);
    char msg[NK_MSG_MAX];
    if (b->game == NULL ||
        nk_eval_init(&b->eval, &tb->rules, nk_features_find("material"), NULL, 0, msg,
                     sizeof msg) != NK_OK ||
        nk_search_new(&b->search, &b->eval, 64) != NK_OK ||
        nk_game_init(b->game, &tb->rules, &p, NK_MAX_PLIES) != NK_OK) {
        nk_search_free(b->search);
        nk_free(b->game);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the search");
    }
    nk_search_set_tb(b->search, tb);
    return NK_OK;
}

static void beyond_close(beyond *b)
{
    nk_search_free(b->search);
    nk_free(b->game);
}

/* Bounds a move's value by two searches of the child (see solve.h);
 * board: the root's board seeds, me: the root's mover. */
static void bound_move(nk_search *search, const nk_game *child, uint64_t budget, int board, int me,
                       nk_solve_move *x)
{
    const nk_pos *c = &child->pos;
    nk_search_limits lim = {0, budget, 0.0};
    int bound[2];
    for (int k = 0; k < 2; k++) {
        nk_search_result r;
        nk_search_set_bound(search, k == 0 ? -1 : 1, me);
        nk_search_best(search, child, &lim, &r);
        /* total[mover] - total[other] of the child; the totals sum to the
         * root's board (the stores started empty). */
        const int diff = (int)(r.score / NK_SCORE_SEED + (r.score >= 0 ? 0.5 : -0.5));
        bound[k] = (board + (c->side == me ? diff : -diff)) / 2;
        x->cycle |= r.tb_cycle;
        x->depth = r.depth;
        x->nodes += r.nodes;
        if (r.exact) {
            bound[1] = bound[0] = bound[k];
            break;
        }
    }
    x->lo = bound[0];
    x->hi = bound[1];
    x->value = x->lo;
    x->exact = x->lo == x->hi;
}

nk_status nk_solve_beyond(const nk_tb *tb, const nk_pos *root, uint64_t budget, nk_solve *out,
                          char *err, size_t errlen)
{
    beyond at;
    nk_status st = beyond_open(&at, tb, root, 1, budget, err, errlen);
    if (st != NK_OK)
        return st;
    nk_game *g = at.game, *child = at.game + 1;
    const int me = g->pos.side;
    const int board = (int)nk_pos_on_board(&g->pos);
    memset(out, 0, sizeof *out);
    out->mask = nk_game_legal(g);
    out->lo = out->hi = -1;
    for (unsigned m = out->mask; m; m &= m - 1) {
        nk_solve_move *x = &out->move[__builtin_ctz(m)];
        *child = *g;
        nk_game_play_legal(child, __builtin_ctz(m), NULL);
        const nk_pos *c = &child->pos;
        uint8_t byte;
        if (nk_game_over(child)) {
            x->value = (int)child->result.total[me];
            x->exact = true;
            x->lo = x->hi = x->value;
        } else if (nk_pos_on_board(c) <= tb->seeds && nk_tb_probe(tb, c, &byte) == NK_OK) {
            const int y = byte & NK_TB_VALUE_MASK;
            x->value = c->store[me] + (c->side == me ? y : (int)nk_pos_on_board(c) - y);
            x->exact = true;
            x->cycle = (byte & NK_TB_CYCLE) != 0;
            x->lo = x->hi = x->value;
        } else {
            bound_move(at.search, child, budget, board, me, x);
            out->nodes += x->nodes;
        }
        out->cycle |= x->cycle;
        out->lo = x->lo > out->lo ? x->lo : out->lo;
        out->hi = x->hi > out->hi ? x->hi : out->hi;
    }
    beyond_close(&at);
    return NK_OK;
}

/* Bounds what each side can force himself to collect after a move, by
 * searches of the child in collect mode (see solve.h). */
static void bound_pair(nk_search *search, const nk_game *child, uint64_t budget, int me,
                       nk_solve_pair *x)
{
    const nk_pos *c = &child->pos;
    nk_search_limits lim = {0, budget, 0.0};
    for (int k = 0; k < 2; k++) {
        const int side = k == 0 ? me : me ^ 1;
        int bound[2];
        nk_search_set_collect(search, side);
        for (int b = 0; b < 2; b++) {
            nk_search_result r;
            nk_search_set_bound(search, b == 0 ? -1 : 1, side);
            nk_search_best(search, child, &lim, &r);
            /* side's seeds, from the child's side to move's view */
            const double sc = c->side == side ? r.score : -r.score;
            bound[b] = (int)(sc / NK_SCORE_SEED + 0.5);
            x->depth = r.depth > x->depth ? r.depth : x->depth;
            x->nodes += r.nodes;
            if (r.exact) {
                bound[0] = bound[1] = bound[b];
                break;
            }
        }
        x->lo[k] = bound[0];
        x->hi[k] = bound[1];
    }
}

nk_status nk_solve_beyond_planes(const nk_tb *tb, const nk_pos *root, uint64_t budget,
                                 nk_solve_pairs *out, char *err, size_t errlen)
{
    beyond at;
    nk_status st = beyond_open(&at, tb, root, 2, budget, err, errlen);
    if (st != NK_OK)
        return st;
    nk_game *g = at.game, *child = at.game + 1;
    const int me = g->pos.side;
    memset(out, 0, sizeof *out);
    out->mask = nk_game_legal(g);
    out->lo[0] = out->hi[0] = -1;
    out->lo[1] = out->hi[1] = 1 << 20;
    for (unsigned m = out->mask; m; m &= m - 1) {
        nk_solve_pair *x = &out->move[__builtin_ctz(m)];
        *child = *g;
        nk_game_play_legal(child, __builtin_ctz(m), NULL);
        const nk_pos *c = &child->pos;
        uint8_t byte;
        int theirs;
        if (nk_game_over(child)) {
            x->lo[0] = x->hi[0] = (int)child->result.total[me];
            x->lo[1] = x->hi[1] = (int)child->result.total[me ^ 1];
        } else if (nk_pos_on_board(c) <= tb->seeds &&
                   nk_tb_probe_pair(tb, c, &byte, &theirs) == NK_OK) {
            const int y = byte & NK_TB_VALUE_MASK;
            x->lo[0] = x->hi[0] = c->store[me] + (c->side == me ? y : theirs);
            x->lo[1] = x->hi[1] = c->store[me ^ 1] + (c->side == me ? theirs : y);
        } else {
            bound_pair(at.search, child, budget, me, x);
            out->nodes += x->nodes;
        }
        out->lo[0] = x->lo[0] > out->lo[0] ? x->lo[0] : out->lo[0];
        out->hi[0] = x->hi[0] > out->hi[0] ? x->hi[0] : out->hi[0];
        out->lo[1] = x->lo[1] < out->lo[1] ? x->lo[1] : out->lo[1];
        out->hi[1] = x->hi[1] < out->hi[1] ? x->hi[1] : out->hi[1];
    }
    nk_search_set_collect(at.search, -1);
    beyond_close(&at);
    return NK_OK;
}

void nk_solve_pair_outcomes(const nk_tb *tb, const nk_pos *pos, const int lo[2], const int hi[2],
                            int *worst, int *best)
{
    *worst = nk_tb_outcome(tb, pos, lo[0], hi[1]);
    *best = nk_tb_outcome(tb, pos, hi[0], lo[1]);
}

/* ===== the value with the game's history ===== */

enum { HIST_TABLE = 1u << 20 }; /* at most: 4 slots a position of the region */

/* Bounds proven for a position with a fresh history (its entry + 1; 0
 * empty), one slot a key, replaced by the latest. */
typedef struct hist_slot {
    uint64_t key;
    int8_t lo, hi;
} hist_slot;

typedef struct hist {
    const nk_tb *tb;
    const nk_tb_region *region;
    const nk_variant *v;
    nk_pos *path;    /* the positions since the history started afresh */
    unsigned depth;  /* positions on the path */
    unsigned base;   /* where the current history starts */
    uint64_t nodes, budget;
    bool stop, deep;
    hist_slot *table;
    uint64_t mask; /* slots - 1 */
} hist;

/* Whether pos is a position of the current history (the stores are 0 since
 * it started: no capture since). */
static bool hist_repeats(const hist *h, const nk_pos *pos)
{
    for (unsigned k = h->base; k < h->depth; k++) {
        const nk_pos *q = &h->path[k];
        if (q->side == pos->side && q->north == pos->north &&
            memcmp(q->pit, pos->pit, NK_PITS) == 0)
            return true;
    }
    return false;
}

static bool hist_push(hist *h, const nk_pos *pos)
{
    if (h->depth >= NK_SOLVE_HISTORY_DEPTH) {
        h->stop = h->deep = true;
        return false;
    }
    h->path[h->depth++] = *pos;
    return true;
}

static int hist_node(hist *h, const nk_pos *p, int64_t comp, int alpha, int beta);

/* The slot of a position with a fresh history, and its key. */
static hist_slot *hist_slot_of(const hist *h, const nk_pos *pos, uint64_t *key)
{
    unsigned b;
    uint64_t i;
    nk_tb_entry(h->tb, pos, &b, &i);
    *key = h->tb->offset[b] + i + 1;
    return &h->table[(*key * UINT64_C(0x9E3779B97F4A7C15) >> 20) & h->mask];
}

/* The value of q (stores 0) for its mover with a fresh history, within
 * the window (alpha, beta), fail-soft; bd: its region bounds. */
static int hist_fresh(hist *h, const nk_pos *q, const nk_tb_bounds *bd, int alpha, int beta)
{
    int lo = bd->lo_any, hi = bd->hi_any;
    if (lo == hi)
        return lo;
    uint64_t key;
    hist_slot *s = hist_slot_of(h, q, &key);
    if (s->key == key) {
        lo = s->lo > lo ? s->lo : lo;
        hi = s->hi < hi ? s->hi : hi;
    }
    if (lo == hi || hi <= alpha)
        return hi;
    if (lo >= beta)
        return lo;
    const int a = alpha > lo - 1 ? alpha : lo - 1, z = beta < hi + 1 ? beta : hi + 1;
    const unsigned base = h->base;
    h->base = h->depth;
    int w = a;
    if (hist_push(h, q)) {
        w = hist_node(h, q, bd->component, a, z);
        h->depth--;
    }
    h->base = base;
    if (h->stop)
        return w;
    if (w <= a)
        hi = w < hi ? w : hi;
    else if (w >= z)
        lo = w > lo ? w : lo;
    else
        lo = hi = w;
    *s = (hist_slot){key, (int8_t)lo, (int8_t)hi};
    return w;
}

/* What move m from p (on the path, stores 0, component comp of the region)
 * gives p's mover, within (alpha, beta), fail-soft.  *inside (when not
 * NULL) tells whether the child is searched with p's history. */
static int hist_move(hist *h, const nk_pos *p, int64_t comp, int m, int alpha, int beta,
                     bool *inside)
{
    const nk_variant *v = h->v;
    const int me = p->side;
    nk_pos c = *p;
    nk_apply(v, &c, m, NULL);
    nk_end end = nk_pos_end_reached(v, &c);
    nk_result r;
    if (inside)
        *inside = false;
    if (end != NK_END_NONE) {
        nk_pos_result(v, &c, end, &r);
        return (int)r.total[me];
    }
    const int took = c.store[me];
    const int rest = (int)nk_pos_on_board(&c);
    const bool same = c.side == me;
    if (took == 0 && hist_repeats(h, &c)) { /* R-W10, R-K7 */
        nk_pos_result(v, &c, NK_END_REPETITION, &r);
        return (int)r.total[me];
    }
    c.store[0] = c.store[1] = 0;
    nk_tb_bounds bd;
    nk_tb_region_bounds(h->region, &c, &bd);
    /* the child's window: the mover gets took + w, or took + rest - w */
    const int wa = same ? alpha - took : took + rest - beta;
    const int wb = same ? beta - took : took + rest - alpha;
    int w;
    if (took > 0 || bd.component != comp) {
        w = hist_fresh(h, &c, &bd, wa, wb);
    } else {
        if (inside) {
            *inside = true;
            return 0;
        }
        w = wa;
        if (hist_push(h, &c)) {
            w = hist_node(h, &c, comp, wa, wb);
            h->depth--;
        }
    }
    return took + (same ? w : rest - w);
}

/* The value of p (the last position of the path) for its mover within
 * (alpha, beta), fail-soft.  The moves in the order of the database's
 * values (the best first), the ones that leave the history before the
 * ones searched with it. */
static int hist_node(hist *h, const nk_pos *p, int64_t comp, int alpha, int beta)
{
    if (++h->nodes > h->budget) {
        h->stop = true;
        return alpha;
    }
    unsigned legal, later = 0;
    int val[NK_PASS + 1], order[NK_PASS + 1], n = 0;
    nk_tb_move_values(h->tb, p, &legal, val, NULL);
    for (unsigned m = legal; m; m &= m - 1) { /* insertion by value */
        const int move = __builtin_ctz(m);
        int k = n++;
        while (k > 0 && val[order[k - 1]] < val[move]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = move;
    }
    int best = -1;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < n && !h->stop; k++) {
            const int move = order[k];
            if (pass == 1 && !((later >> move) & 1u))
                continue;
            bool inside = false;
            const int x = hist_move(h, p, comp, move, alpha, beta, pass == 0 ? &inside : NULL);
            if (inside) {
                later |= 1u << move;
                continue;
            }
            if (x > best)
                best = x;
            if (best > alpha)
                alpha = best;
            if (alpha >= beta)
                return best;
        }
    return best;
}

nk_status nk_solve_with_history(const nk_tb *tb, const nk_tb_region *region, const nk_pos *root,
                           uint64_t budget, nk_solve_history *out, char *err, size_t errlen)
{
    if (tb->planes != 1)
        return nk_fail(NK_EINVAL, err, errlen, "history: a two-plane database");
    if (budget == 0)
        return nk_fail(NK_ERANGE, err, errlen, "history: a budget of 0 nodes a move");
    nk_pos p = *root;
    p.store[0] = p.store[1] = 0;
    nk_tb_bounds bd;
    nk_status st = nk_tb_region_bounds(region, &p, &bd);
    if (st != NK_OK || nk_pos_end(&tb->rules, &p) != NK_END_NONE)
        return nk_fail(NK_EINVAL, err, errlen,
                       "history: the position is not a live position of the region");
    hist h = {.tb = tb, .region = region, .v = &tb->rules, .budget = budget};
    h.path = nk_malloc(NK_SOLVE_HISTORY_DEPTH * sizeof *h.path);
    uint64_t slots = 64;
    while (slots < HIST_TABLE && slots < 4 * nk_tb_region_size(region))
        slots *= 2;
    h.mask = slots - 1;
    h.table = nk_calloc(slots, sizeof *h.table);
    if (h.path == NULL || h.table == NULL) {
        nk_free(h.path);
        nk_free(h.table);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the search with history");
    }
    memset(out, 0, sizeof *out);
    const int b = (int)nk_pos_on_board(&p);
    out->mask = nk_legal(h.v, &p);
    out->root_lo = out->root_hi = -1;
    hist_push(&h, &p);
    unsigned legal;
    int guess[NK_PASS + 1];
    nk_tb_bounds mb[NK_PASS + 1];
    nk_tb_move_values(tb, &p, &legal, guess, NULL);
    nk_tb_region_moves(region, &p, &legal, mb);
    for (unsigned m = out->mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        /* a child outside the root's component starts a fresh history:
         * its bounds hold (nk_tb_region_moves counts captures in) */
        const bool fresh = mb[move].component != bd.component || bd.component < 0;
        int lo = fresh ? mb[move].lo_any : 0, hi = fresh ? mb[move].hi_any : b;
        int x = guess[move];
        h.nodes = 0;
        h.stop = false;
        while (lo < hi && !h.stop) { /* is the move worth at least t? (MTD(f)) */
            x = x < lo ? lo : x > hi ? hi : x;
            const int t = x == lo ? x + 1 : x;
            const int w = hist_move(&h, &p, bd.component, move, t - 1, t, NULL);
            if (h.stop)
                break;
            if (w >= t)
                lo = w > lo ? w : lo;
            else
                hi = w < hi ? w : hi;
            x = w;
        }
        out->lo[move] = lo;
        out->hi[move] = hi;
        out->nodes[move] = h.nodes < budget ? h.nodes : budget;
        out->total += out->nodes[move];
        out->root_lo = lo > out->root_lo ? lo : out->root_lo;
        out->root_hi = hi > out->root_hi ? hi : out->root_hi;
    }
    out->deep = h.deep;
    nk_free(h.path);
    nk_free(h.table);
    return NK_OK;
}
