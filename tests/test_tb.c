/*
 * test_tb.c -- endgame databases (src/tb, docs/tablebase.md).
 *
 * - The index is a bijection: rank(unrank(r)) = r for every rank of the
 *   seed counts 0..7.
 * - Every position with at most 3 seeds on the board (NK_TB_TOP=N for
 *   more), each one-plane variant, each side to move (Adji Kui II: every
 *   ownership pattern), and 300 random positions of 4 to 10 seeds per
 *   variant within a node budget: the database's value equals an
 *   exhaustive alpha-beta search of the full game tree with the game's
 *   history (repetition as the engine applies it, R-W10/R-K7), over the
 *   engine's own moves.  Positions without NK_TB_CYCLE must agree; those
 *   with it may differ (docs/tablebase.md, "Cycles"): the test counts them,
 *   prints the count and names the first of them.  (test_tb_fixpoint.c
 *   compares every position to 8 seeds, 6 in adjikui, with a solver that
 *   does not search.)  The search's table is keyed by the position and
 *   the part of the history in its strongly connected component
 *   (ref_use_table; exact, see there).  Every position of exactly 4 seeds
 *   and 200 random ones of 5 and 6 seeds per variant are compared the same
 *   way within a node budget a position, the undecided ones counted.
 * - The retrograde invariant over a whole database of 8 seeds: every value
 *   without NK_TB_CYCLE is the best of its moves' values, and every
 *   position whose game is over holds its end rule's value.
 * - Speightstown (two planes, docs/tablebase.md): every position with at
 *   most 3 board seeds, each side to move, against a search with the game's
 *   history of what each side can force himself to collect (both planes
 *   must agree everywhere: the values do not rest on a cycle treatment),
 *   and every position of 4 seeds within a node budget a position (the
 *   undecided counted, every decided one equal);
 *   the invariant of both planes over the whole 8-seed database; its file
 *   (format version 2) reads back, a damaged one is refused.
 * - Files: a written file reads back equal; a damaged byte, a truncated
 *   file, a foreign file and another variant's file are refused.
 * - Sets of ownership patterns (nk_tb_build_patterns): the lists that read
 *   and the ones refused (open, unknown, twice, not numbers, another
 *   variant's); adjikui to 6 seeds built for {0}, {0, 2, -2} and
 *   {1, 5, -1, -5} holds the full build's bytes for each of its patterns,
 *   probes a position of another pattern as outside (NK_EINVAL), writes
 *   the same file for the same set and reads it back; a header whose
 *   patterns are no valid set (open, out of order, twice, unknown) is
 *   refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tb/tb.h"

static const char *const tb_variants[] = {"abapa", "antigua", "bridgetown", "adjikui"};
enum { NVAR = 4 };

/* ===== the reference: alpha-beta with the game's history ===== */

/* Values of positions with a fresh history (the start of a search, or
 * right after a capture: R-W10 keeps only the positions since the last
 * capture, so their value is a function of the position). */
typedef struct memo_entry {
    uint8_t key[16]; /* pits, side, owners (2 bytes), used */
    int value;
} memo_entry;

typedef struct ref {
    const nk_tb *tb; /* for move ordering and first guesses only */
    nk_variant v; /* without the majority rule, as the database */
    memo_entry *memo;
    size_t cap;
    uint64_t hist[8192];
    unsigned nh;
    uint64_t nodes;  /* of the current comparison */
    uint64_t budget; /* nodes a comparison may search */
    bool aborted;    /* the budget ran out: no value */
    uint64_t total_nodes;
    struct scc_map *scc; /* when not NULL: the table of ref_seg (below) */
    struct seg_entry *tt;
    size_t tt_cap;
    uint64_t tt_hits;
} ref;

/* ===== the reference's table: positions and the history that matters =====
 *
 * Within one seed count (the history since the last capture), the value of
 * ref_seg at p depends on the history H only through its repetitions: a
 * position d reached from p ends the game when d is in H.  Every h in H
 * reaches p (the path went from h to p), so a d = h reachable from p lies
 * in p's strongly connected component of the count's non-capturing moves.
 * The value is therefore a function of (p, H ∩ SCC(p)): the table is keyed
 * by p and that set (an order-free hash of it), which is exact where the
 * plain search enumerates every order of the same history, and is the
 * fresh value wherever H holds nothing of p's component but p.  The
 * components are computed over the positions (pits, owners, side: what
 * the repetition test compares), with the moves of the position without a
 * pass behind it (a superset of a passed position's). */
typedef struct scc_map {
    uint64_t *key; /* position hash + 1 (0: empty) */
    uint32_t *comp; /* its component */
    size_t cap;
} scc_map;

static size_t scc_find(const scc_map *m, uint64_t h)
{
    size_t i = (h * 0x9E3779B97F4A7C15ull) >> 20 & (m->cap - 1);
    while (m->key[i] != 0 && m->key[i] != h + 1)
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* The components of every position of 0..top seeds (all patterns, both
 * sides, stores 0) under v's non-capturing moves (Tarjan, iterative). */
static scc_map *scc_build(const nk_variant *v, const nk_tb *tb, unsigned top)
{
    size_t n = 0;
    for (unsigned b = 0; b <= top; b++)
        n += (size_t)nk_tb_count(b) * tb->npat * 2;
    scc_map *m = calloc(1, sizeof *m);
    assert_non_null(m);
    m->cap = 1;
    while (m->cap < 2 * n)
        m->cap *= 2;
    m->key = calloc(m->cap, sizeof *m->key);
    m->comp = calloc(m->cap, sizeof *m->comp);
    nk_pos *pos = calloc(n, sizeof *pos);
    uint32_t *edge = calloc(n * (NK_PASS + 1), sizeof *edge), *ne = calloc(n, sizeof *ne);
    uint32_t *idx = malloc(n * sizeof *idx), *low = malloc(n * sizeof *low);
    uint32_t *stack = malloc(n * sizeof *stack), *call = malloc(n * sizeof *call),
             *next = calloc(n, sizeof *next);
    bool *on = calloc(n, sizeof *on);
    assert_true(m->key && m->comp && pos && edge && ne && idx && low && stack && call && next &&
                on);
    size_t k = 0;
    for (unsigned b = 0; b <= top; b++)
        for (uint64_t i = 0; i < nk_tb_count(b); i++)
            for (unsigned pat = 0; pat < tb->npat; pat++)
                for (int side = 0; side < 2; side++) {
                    nk_pos *p = &pos[k];
                    nk_tb_unrank(b, i, p->pit);
                    p->north = tb->pat[pat];
                    p->side = (uint8_t)side;
                    p->hash = nk_pos_hash(p);
                    size_t j = scc_find(m, p->hash);
                    m->key[j] = p->hash + 1;
                    m->comp[j] = (uint32_t)k++;
                }
    for (size_t a = 0; a < n; a++) {
        if (nk_pos_end_reached(v, &pos[a]) != NK_END_NONE)
            continue;
        for (unsigned mv = nk_legal(v, &pos[a]); mv; mv &= mv - 1) {
            nk_pos c = pos[a];
            nk_apply(v, &c, __builtin_ctz(mv), NULL);
            if (c.store[0] + c.store[1] > 0 || nk_pos_end_reached(v, &c) != NK_END_NONE)
                continue;
            c.flags = 0;
            size_t j = scc_find(m, nk_pos_hash(&c));
            assert_true(m->key[j] != 0);
            edge[a * (NK_PASS + 1) + ne[a]++] = m->comp[j];
        }
    }
    /* Tarjan: idx (0: unvisited, else order + 1), low, the component of a
     * node is the index of its root. */
    uint32_t order = 0, sp = 0;
    uint32_t *comp = malloc(n * sizeof *comp);
    assert_non_null(comp);
    memset(idx, 0, n * sizeof *idx);
    for (size_t r0 = 0; r0 < n; r0++) {
        if (idx[r0])
            continue;
        uint32_t depth = 0;
        call[depth++] = (uint32_t)r0;
        idx[r0] = low[r0] = ++order;
        stack[sp++] = (uint32_t)r0;
        on[r0] = true;
        while (depth) {
            uint32_t a = call[depth - 1];
            if (next[a] < ne[a]) {
                uint32_t c = edge[(size_t)a * (NK_PASS + 1) + next[a]++];
                if (!idx[c]) {
                    idx[c] = low[c] = ++order;
                    stack[sp++] = c;
                    on[c] = true;
                    call[depth++] = c;
                } else if (on[c] && idx[c] < low[a]) {
                    low[a] = idx[c];
                }
                continue;
            }
            if (low[a] == idx[a]) {
                uint32_t c;
                do {
                    c = stack[--sp];
                    on[c] = false;
                    comp[c] = a;
                } while (c != a);
            }
            depth--;
            if (depth && low[a] < low[call[depth - 1]])
                low[call[depth - 1]] = low[a];
        }
    }
    for (size_t j = 0; j < m->cap; j++)
        if (m->key[j])
            m->comp[j] = comp[m->comp[j]];
    free(comp);
    free(pos);
    free(edge);
    free(ne);
    free(idx);
    free(low);
    free(stack);
    free(call);
    free(next);
    free(on);
    return m;
}

static void scc_free(scc_map *m)
{
    if (m == NULL)
        return;
    free(m->key);
    free(m->comp);
    free(m);
}

static uint32_t scc_of(const scc_map *m, uint64_t h)
{
    size_t j = scc_find(m, h);
    assert_true(m->key[j] != 0);
    return m->comp[j];
}

/* A table entry: the position's hash, two order-free hashes of H ∩ SCC(p)
 * (128 bits of key in all), and the bounds found (fail-soft). */
typedef struct seg_entry {
    uint64_t pos, set1, set2;
    int8_t lo, hi; /* lo > hi: empty */
} seg_entry;

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7FB5D329728EA185ull;
    x ^= x >> 27;
    x *= 0x81DADEF4BC2DD44Dull;
    return x ^ (x >> 33);
}

/* The slot of p and the history; salt tells apart searches of different
 * games over the same positions (speightstown: whose seeds are counted). */
static seg_entry *seg_slot(ref *r, const nk_pos *p, uint64_t salt, uint64_t *s1, uint64_t *s2)
{
    const uint32_t mine = scc_of(r->scc, p->hash);
    uint64_t a = mix64(salt), b = 0;
    for (unsigned k = 0; k < r->nh; k++)
        if (scc_of(r->scc, r->hist[k]) == mine) {
            a ^= mix64(r->hist[k]);
            b ^= mix64(r->hist[k] ^ 0xD6E8FEB86659FD93ull);
        }
    *s1 = a;
    *s2 = b;
    return &r->tt[(mix64(p->hash ^ a) ^ b) & (r->tt_cap - 1)];
}

static void memo_key(const nk_pos *p, uint8_t key[16])
{
    memcpy(key, p->pit, 12);
    key[12] = p->side;
    memcpy(key + 13, &p->north, 2);
    key[15] = 1;
}

static memo_entry *memo_slot(ref *r, const uint8_t key[16])
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 16; i++)
        h = (h ^ key[i]) * 1099511628211ull;
    size_t i = h & (r->cap - 1);
    while (r->memo[i].key[15] && memcmp(r->memo[i].key, key, 16) != 0)
        i = (i + 1) & (r->cap - 1);
    return &r->memo[i];
}

static int ref_root(ref *r, const nk_pos *p);

/* Table lookup (fail-soft bounds): true with *out when the entry decides
 * the window (alpha, beta). */
static bool seg_hit(ref *r, const seg_entry *te, const nk_pos *p, uint64_t s1, uint64_t s2,
                    int alpha, int beta, int *out)
{
    if (te->pos != p->hash || te->set1 != s1 || te->set2 != s2 || te->lo > te->hi)
        return false;
    if (te->lo == te->hi || te->lo >= beta) {
        *out = te->lo;
    } else if (te->hi <= alpha) {
        *out = te->hi;
    } else {
        return false;
    }
    r->tt_hits++;
    return true;
}

/* Table store: best, found with the window (alpha0, beta), bounds the
 * value from one side, or is it. */
static void seg_store(seg_entry *te, const nk_pos *p, uint64_t s1, uint64_t s2, int board,
                      int best, int alpha0, int beta)
{
    if (te->pos != p->hash || te->set1 != s1 || te->set2 != s2 || te->lo > te->hi) {
        te->pos = p->hash;
        te->set1 = s1;
        te->set2 = s2;
        te->lo = 0;
        te->hi = (int8_t)board;
    }
    if (best > alpha0 && best < beta)
        te->lo = te->hi = (int8_t)best;
    else if (best >= beta)
        te->lo = (int8_t)(best > te->lo ? best : te->lo);
    else
        te->hi = (int8_t)(best < te->hi ? best : te->hi);
}

/* The best value for the side to move at p (live, in the history), with
 * the window (alpha, beta). */
static int ref_seg(ref *r, const nk_pos *p, int alpha, int beta)
{
    const nk_variant *v = &r->v;
    const int me = p->side;
    const int b = (int)nk_pos_on_board(p);
    if (++r->nodes > r->budget) {
        r->aborted = true;
        return 0;
    }
    seg_entry *te = NULL;
    uint64_t s1 = 0, s2 = 0;
    const int alpha0 = alpha;
    if (r->scc != NULL) {
        te = seg_slot(r, p, 0, &s1, &s2);
        int hit;
        if (seg_hit(r, te, p, s1, s2, alpha, beta, &hit))
            return hit;
    }
    unsigned legal;
    int guess[NK_PASS + 1];
    assert_int_equal(nk_tb_move_values(r->tb, p, &legal, guess, NULL), NK_OK);
    int order[NK_PASS + 1], n = 0;
    for (unsigned m = legal; m; m &= m - 1) { /* the database's best first */
        int move = __builtin_ctz(m), j = n++;
        for (; j > 0 && guess[order[j - 1]] < guess[move]; j--)
            order[j] = order[j - 1];
        order[j] = move;
    }
    int best = -1;
    for (int o = 0; o < n; o++) {
        int move = order[o];
        nk_pos c = *p;
        nk_apply(v, &c, move, NULL);
        int val;
        nk_result res;
        nk_end end = nk_pos_end_reached(v, &c);
        if (end != NK_END_NONE) {
            nk_pos_result(v, &c, end, &res);
            val = (int)res.total[me];
        } else if (c.store[0] + c.store[1] > 0) { /* a capture: fresh history */
            int got = c.store[me], rest = b - got;
            nk_pos q = c;
            q.store[0] = q.store[1] = 0;
            q.flags = 0;
            q.hash = nk_pos_hash(&q);
            int x = ref_root(r, &q);
            val = got + (c.side == me ? x : rest - x);
        } else {
            bool seen = false;
            for (unsigned k = 0; k < r->nh; k++)
                seen |= r->hist[k] == c.hash;
            if (seen) { /* R-W10, R-K7 */
                nk_pos_result(v, &c, NK_END_REPETITION, &res);
                val = (int)res.total[me];
            } else {
                assert_true(r->nh < 8192);
                r->hist[r->nh++] = c.hash;
                if (c.side != me)
                    val = b - ref_seg(r, &c, b - beta, b - alpha);
                else
                    val = ref_seg(r, &c, alpha, beta);
                r->nh--;
            }
        }
        if (r->aborted)
            return 0;
        if (val > best)
            best = val;
        if (best > alpha)
            alpha = best;
        if (alpha >= beta)
            break;
    }
    if (te != NULL)
        seg_store(te, p, s1, s2, b, best, alpha0, beta);
    return best;
}

/* A search from the root p gets a history of its own, starting at p:
 * hist_start saves the caller's (the count into *nh) and hist_restore
 * gives it back. */
static uint64_t *hist_start(ref *r, const nk_pos *p, unsigned *nh)
{
    *nh = r->nh;
    uint64_t *saved = malloc((*nh + 1) * sizeof *saved);
    assert_non_null(saved);
    memcpy(saved, r->hist, *nh * sizeof *saved);
    r->nh = 1;
    r->hist[0] = p->hash;
    return saved;
}

static void hist_restore(ref *r, uint64_t *saved, unsigned nh)
{
    memcpy(r->hist, saved, nh * sizeof *saved);
    free(saved);
    r->nh = nh;
}

/* Value of p (stores 0, live) with a history that starts at p. */
static int ref_root(ref *r, const nk_pos *p)
{
    uint8_t key[16];
    memo_key(p, key);
    memo_entry *e = memo_slot(r, key);
    if (e->key[15])
        return e->value;
    unsigned nh;
    uint64_t *saved = hist_start(r, p, &nh);
    /* MTD(f): null-window searches from the database's value as the first
     * guess, until the bounds meet; the value is the search's, exact. */
    uint8_t byte;
    assert_int_equal(nk_tb_probe(r->tb, p, &byte), NK_OK);
    int x = byte & NK_TB_VALUE_MASK, lower = -1, upper = (int)nk_pos_on_board(p) + 1;
    while (lower < upper) {
        int beta = x == lower ? x + 1 : x;
        r->nh = 1;
        x = ref_seg(r, p, beta - 1, beta);
        if (r->aborted)
            break;
        if (x < beta)
            upper = x;
        else
            lower = x;
    }
    hist_restore(r, saved, nh);
    if (r->aborted)
        return 0;
    e = memo_slot(r, key); /* the table did not move: same slot */
    memcpy(e->key, key, 16);
    e->value = x;
    return x;
}

/* The reference value of any position with stores 0. */
static int ref_value(ref *r, nk_pos p)
{
    p.hash = nk_pos_hash(&p);
    nk_end end = nk_pos_end(&r->v, &p);
    if (end != NK_END_NONE) {
        nk_result res;
        nk_pos_result(&r->v, &p, end, &res);
        return (int)res.total[p.side];
    }
    return ref_root(r, &p);
}

static void ref_init(ref *r, const nk_variant *v, const nk_tb *tb)
{
    memset(r, 0, sizeof *r);
    r->tb = tb;
    r->v = *v;
    r->v.ends &= ~(1u << NK_END_MAJORITY);
    r->cap = (size_t)1 << 22;
    r->budget = getenv("NK_TB_BUDGET") ? strtoull(getenv("NK_TB_BUDGET"), NULL, 10) : 3000;
    r->memo = calloc(r->cap, sizeof *r->memo);
    assert_non_null(r->memo);
}

/* Turns the table on for positions of at most top seeds. */
static void ref_use_table(ref *r, unsigned top)
{
    r->scc = scc_build(&r->v, r->tb, top);
    r->tt_cap = (size_t)1 << 20;
    r->tt = malloc(r->tt_cap * sizeof *r->tt);
    assert_non_null(r->tt);
    for (size_t i = 0; i < r->tt_cap; i++)
        r->tt[i] = (seg_entry){0, 0, 0, 1, 0}; /* lo > hi: empty */
}

static void ref_free(ref *r)
{
    free(r->memo);
    scc_free(r->scc);
    free(r->tt);
}

/* ===== comparisons ===== */

typedef struct tally {
    uint64_t positions, exact, cycle_marked, differ_marked, undecided;
} tally;

/* Compares one position (stores 0); a difference without the cycle mark
 * fails the test, one with it is counted and the first ones named. */
static void compare(const nk_tb *tb, ref *r, const nk_pos *p, tally *t)
{
    uint8_t byte;
    assert_int_equal(nk_tb_probe(tb, p, &byte), NK_OK);
    int db = byte & NK_TB_VALUE_MASK;
    r->nodes = 0;
    r->aborted = false;
    int want = ref_value(r, *p);
    r->total_nodes += r->nodes;
    t->positions++;
    if (byte & NK_TB_CYCLE)
        t->cycle_marked++;
    if (r->aborted) {
        t->undecided++;
        return;
    }
    if (db == want) {
        t->exact++;
        return;
    }
    char text[NK_POS_TEXT];
    nk_pos_format(p, text);
    if (!(byte & NK_TB_CYCLE)) {
        print_error("%s %s: database %d, search with history %d, not marked\n",
                    tb->variant->name, text, db, want);
        fail();
    }
    if (t->differ_marked++ < 5)
        printf("  differs (repetition): %s %s  database %d, with history %d\n",
               tb->variant->name, text, db, want);
}

static void report(const char *what, const char *variant, const tally *t)
{
    printf("%s %-10s %8llu positions: %llu equal, %llu differ (all marked NK_TB_CYCLE), "
           "%llu not decided within the node budget; %llu marked\n",
           what, variant, (unsigned long long)t->positions, (unsigned long long)t->exact,
           (unsigned long long)t->differ_marked, (unsigned long long)t->undecided,
           (unsigned long long)t->cycle_marked);
}

/* ===== speightstown: what each side can force himself to collect ===== */

static int sp_root(ref *r, const nk_pos *p, int who);

/* The seeds player `who` collects from p (live, stores 0, in the history
 * r->hist) when he maximizes them and the other side minimizes them, with
 * the window (alpha, beta); a repetition gives the board to nobody. */
static int sp_seg(ref *r, const nk_pos *p, int who, int alpha, int beta)
{
    const nk_variant *v = &r->v;
    const bool maxi = p->side == who;
    if (++r->nodes > r->budget) {
        r->aborted = true;
        return 0;
    }
    seg_entry *te = NULL;
    uint64_t s1 = 0, s2 = 0;
    const int alpha0 = alpha, beta0 = beta;
    if (r->scc != NULL) {
        int hit;
        te = seg_slot(r, p, 0x5EED0000u + (unsigned)who, &s1, &s2);
        if (seg_hit(r, te, p, s1, s2, alpha, beta, &hit))
            return hit;
    }
    int best = maxi ? -1 : 1000;
    for (unsigned m = nk_legal(v, p); m; m &= m - 1) {
        nk_pos c = *p;
        nk_apply(v, &c, __builtin_ctz(m), NULL);
        int val;
        nk_result res;
        nk_end end = nk_pos_end_reached(v, &c);
        if (end != NK_END_NONE) {
            nk_pos_result(v, &c, end, &res);
            val = (int)res.total[who];
        } else if (c.store[0] + c.store[1] > 0) { /* a capture: fresh history */
            int got = c.store[who];
            nk_pos q = c;
            q.store[0] = q.store[1] = 0;
            q.flags = 0;
            q.hash = nk_pos_hash(&q);
            val = got + sp_root(r, &q, who);
        } else {
            bool seen = false;
            for (unsigned k = 0; k < r->nh; k++)
                seen |= r->hist[k] == c.hash;
            if (seen) { /* R-W10 */
                nk_pos_result(v, &c, NK_END_REPETITION, &res);
                val = (int)res.total[who];
            } else {
                assert_true(r->nh < 8192);
                r->hist[r->nh++] = c.hash;
                val = sp_seg(r, &c, who, alpha, beta);
                r->nh--;
            }
        }
        if (r->aborted)
            return 0;
        if (maxi) {
            best = val > best ? val : best;
            alpha = best > alpha ? best : alpha;
        } else {
            best = val < best ? val : best;
            beta = best < beta ? best : beta;
        }
        if (alpha >= beta)
            break;
    }
    if (te != NULL)
        seg_store(te, p, s1, s2, (int)nk_pos_on_board(p), best, alpha0, beta0);
    return best;
}

/* The same for p with a history that starts at p (memoized). */
static int sp_root(ref *r, const nk_pos *p, int who)
{
    uint8_t key[16];
    memo_key(p, key);
    key[13] = (uint8_t)(0x80 | who); /* the owners are the default rows */
    memo_entry *e = memo_slot(r, key);
    if (e->key[15])
        return e->value;
    unsigned nh;
    uint64_t *saved = hist_start(r, p, &nh);
    int x = sp_seg(r, p, who, -1, (int)nk_pos_on_board(p) + 1);
    hist_restore(r, saved, nh);
    if (r->aborted)
        return 0;
    e = memo_slot(r, key);
    memcpy(e->key, key, 16);
    e->value = x;
    return x;
}

static void test_speightstown_history(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("speightstown");
    nk_tb tb;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_tb_build(&tb, v, 4, 0, NULL, err, sizeof err), NK_OK);
    assert_int_equal(tb.planes, 2);
    ref r;
    ref_init(&r, v, &tb);
    ref_use_table(&r, 4);
    r.budget = 50000000;
    const char *env = getenv("NK_TB_BUDGET4");
    const uint64_t budget4 = env ? strtoull(env, NULL, 10) : 2000;
    uint64_t n = 0, sure = 0, n4 = 0, equal4 = 0, undecided4 = 0, nodes3 = 0;
    for (unsigned b = 0; b <= 4; b++)
        for (uint64_t i = 0; i < nk_tb_count(b); i++)
            for (int side = 0; side < 2; side++) {
                if (b == 4) { /* every 4-seed position, within a budget each */
                    if (r.budget != budget4)
                        nodes3 = r.nodes;
                    r.budget = budget4;
                    r.nodes = 0;
                    r.aborted = false;
                }
                nk_pos p;
                memset(&p, 0, sizeof p);
                nk_tb_unrank(b, i, p.pit);
                p.north = NK_DEFAULT_NORTH;
                p.side = (uint8_t)side;
                p.hash = nk_pos_hash(&p);
                uint8_t byte;
                int theirs, want[2];
                assert_int_equal(nk_tb_probe_pair(&tb, &p, &byte, &theirs), NK_OK);
                assert_int_equal(byte & NK_TB_CYCLE, 0);
                nk_end end = nk_pos_end(&r.v, &p);
                for (int k = 0; k < 2; k++) {
                    const int who = k == 0 ? side : side ^ 1;
                    if (end != NK_END_NONE) {
                        nk_result res;
                        nk_pos_result(&r.v, &p, end, &res);
                        want[k] = (int)res.total[who];
                    } else {
                        want[k] = sp_root(&r, &p, who);
                    }
                }
                if (b == 4) {
                    n4++;
                    if (r.aborted) {
                        undecided4++;
                        continue;
                    }
                }
                assert_false(r.aborted);
                if ((byte & NK_TB_VALUE_MASK) != want[0] || theirs != want[1]) {
                    char text[NK_POS_TEXT];
                    nk_pos_format(&p, text);
                    print_error("speightstown %s: database %d/%d, search with history %d/%d\n",
                                text, byte & NK_TB_VALUE_MASK, theirs, want[0], want[1]);
                    fail();
                }
                if (b == 4) {
                    equal4++;
                    continue;
                }
                n++;
                sure += want[0] + want[1] < (int)b; /* some seeds go to nobody */
            }
    printf("speightstown <=3 seeds: %llu positions, both planes equal the search with "
           "history; %llu where perfect play leaves seeds to nobody; %llu nodes\n",
           (unsigned long long)n, (unsigned long long)sure, (unsigned long long)nodes3);
    printf("speightstown 4 seeds: %llu positions: %llu equal (both planes), 0 differ, %llu "
           "not decided within %llu nodes a position\n",
           (unsigned long long)n4, (unsigned long long)equal4, (unsigned long long)undecided4,
           (unsigned long long)budget4);
    assert_int_equal(n, 2 * 455);
    assert_int_equal(n4, 2 * 1365);
    assert_true(sure > 0 && equal4 > 0);
    ref_free(&r);
    nk_tb_close(&tb);
}

/* Both planes of speightstown over the whole 8-seed database: an ended
 * position holds its end rule's split, a live one the best of its moves
 * for the mover (plane 0) and the least the mover can leave the opponent
 * (plane 1), and the two never add up to more than the board. */
static void test_speightstown_invariant(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("speightstown");
    nk_tb tb;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_tb_build(&tb, v, 8, 2, NULL, err, sizeof err), NK_OK);
    uint64_t live = 0, over = 0, nobody = 0;
    for (unsigned b = 0; b <= 8; b++)
        for (uint64_t i = 0; i < nk_tb_count(b); i++) {
            nk_pos p;
            memset(&p, 0, sizeof p);
            nk_tb_unrank(b, i, p.pit);
            p.north = NK_DEFAULT_NORTH;
            uint8_t byte;
            int h;
            assert_int_equal(nk_tb_probe_pair(&tb, &p, &byte, &h), NK_OK);
            const int g = byte & NK_TB_VALUE_MASK;
            assert_int_equal(byte & NK_TB_CYCLE, 0);
            assert_true(g + h <= (int)b);
            nobody += g + h < (int)b;
            nk_end end = nk_pos_end(&tb.rules, &p);
            if (end != NK_END_NONE) {
                nk_result res;
                nk_pos_result(&tb.rules, &p, end, &res);
                assert_int_equal(g, res.total[NK_SOUTH]);
                assert_int_equal(h, res.total[NK_NORTH]);
                over++;
                continue;
            }
            unsigned mask;
            int mv[NK_PASS + 1], opp[NK_PASS + 1];
            assert_int_equal(nk_tb_move_pairs(&tb, &p, &mask, mv, opp, NULL), NK_OK);
            int best = -1, least = 1000;
            for (unsigned m = mask; m; m &= m - 1) {
                const int k = __builtin_ctz(m);
                best = mv[k] > best ? mv[k] : best;
                least = opp[k] < least ? opp[k] : least;
            }
            assert_int_equal(g, best);
            assert_int_equal(h, least);
            live++;
        }
    printf("invariant speightstown %llu live positions checked, %llu over, %llu leave seeds "
           "to nobody\n",
           (unsigned long long)live, (unsigned long long)over, (unsigned long long)nobody);
    assert_true(live > 0 && over > 0 && nobody > 0);
    /* the file: version 2, two planes, reads back equal; damage refused */
    char dir[] = "/tmp/nk_tbs_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/speightstown.nktb", dir);
    assert_int_equal(nk_tb_write(&tb, path, err, sizeof err), NK_OK);
    nk_tb rd;
    assert_int_equal(nk_tb_open(&rd, path, v, err, sizeof err), NK_OK);
    assert_int_equal(rd.planes, 2);
    assert_int_equal(nk_tb_bytes(&rd), 2 * tb.offset[9]);
    assert_memory_equal(rd.data, tb.data, nk_tb_bytes(&tb));
    nk_tb_close(&rd);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    uint32_t version;
    fseek(f, 8, SEEK_SET);
    assert_int_equal(fread(&version, 4, 1, f), 1);
    assert_int_equal(version, 2);
    fseek(f, 96 + (long)tb.offset[9] + 5, SEEK_SET); /* plane 1 */
    int c = fgetc(f);
    fseek(f, 96 + (long)tb.offset[9] + 5, SEEK_SET);
    fputc(c ^ 1, f);
    fclose(f);
    assert_int_equal(nk_tb_open(&rd, path, v, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "checksum"));
    unlink(path);
    rmdir(dir);
    nk_tb_close(&tb);
}

static void test_index_bijection(void **state)
{
    (void)state;
    for (unsigned b = 0; b <= 7; b++) {
        uint64_t n = nk_tb_count(b);
        for (uint64_t i = 0; i < n; i++) {
            uint8_t pit[NK_PITS];
            nk_tb_unrank(b, i, pit);
            unsigned sum = 0;
            for (int k = 0; k < NK_PITS; k++)
                sum += pit[k];
            assert_int_equal(sum, b);
            assert_int_equal(nk_tb_rank(pit), i);
        }
    }
    assert_int_equal(nk_tb_count(15), 7726160);
}

/* Every position with at most 6 board seeds, both sides to move, every
 * pattern. */
static void test_all_small_positions(void **state)
{
    (void)state;
    for (int k = 0; k < NVAR; k++) {
        const nk_variant *v = nk_variant_find(tb_variants[k]);
        nk_tb tb;
        char err[NK_MSG_MAX];
        assert_int_equal(nk_tb_build(&tb, v, 6, 0, NULL, err, sizeof err), NK_OK);
        ref r;
        ref_init(&r, v, &tb);
        tally t = {0};
        unsigned top = getenv("NK_TB_TOP") ? (unsigned)atoi(getenv("NK_TB_TOP")) : 3;
        r.budget = 50000000; /* never reached at 3 seeds: every position decided */
        if (!getenv("NK_TB_TABLE") || strcmp(getenv("NK_TB_TABLE"), "0") != 0)
            ref_use_table(&r, top); /* NK_TB_TABLE=0: the plain search */
        for (unsigned b = 0; b <= top; b++)
            for (uint64_t i = 0; i < nk_tb_count(b); i++)
                for (unsigned pat = 0; pat < tb.npat; pat++)
                    for (int side = 0; side < 2; side++) {
                        nk_pos p;
                        memset(&p, 0, sizeof p);
                        nk_tb_unrank(b, i, p.pit);
                        p.north = tb.pat[pat];
                        p.side = (uint8_t)side;
                        compare(&tb, &r, &p, &t);
                    }
        report("<=3 seeds", v->name, &t);
        assert_int_equal(t.undecided, 0);
        printf("  reference nodes %llu, table hits %llu\n", (unsigned long long)r.total_nodes,
               (unsigned long long)r.tt_hits);
        assert_true(t.exact > t.positions / 2);
        ref_free(&r);
        nk_tb_close(&tb);
    }
}

/* Every position of exactly 4 board seeds (each side to move, every
 * pattern) and 200 random positions of 5 and 6 seeds per variant, against
 * the search with history and its table (ref_use_table), within a node
 * budget a position (NK_TB_BUDGET4, default 2000): positions not decided
 * within it are counted, as are those that differ (only with the cycle
 * mark). */
static void test_history_4_to_6(void **state)
{
    (void)state;
    uint64_t x = 0x2545F4914F6CDD1Dull;
    const char *env = getenv("NK_TB_BUDGET4");
    for (int k = 0; k < NVAR; k++) {
        const nk_variant *v = nk_variant_find(tb_variants[k]);
        nk_tb tb;
        char err[NK_MSG_MAX];
        assert_int_equal(nk_tb_build(&tb, v, 6, 0, NULL, err, sizeof err), NK_OK);
        ref r;
        ref_init(&r, v, &tb);
        ref_use_table(&r, 6);
        r.budget = env ? strtoull(env, NULL, 10) : 2000;
        tally t4 = {0}, t56 = {0};
        for (uint64_t i = 0; i < nk_tb_count(4); i++)
            for (unsigned pat = 0; pat < tb.npat; pat++)
                for (int side = 0; side < 2; side++) {
                    nk_pos p;
                    memset(&p, 0, sizeof p);
                    nk_tb_unrank(4, i, p.pit);
                    p.north = tb.pat[pat];
                    p.side = (uint8_t)side;
                    compare(&tb, &r, &p, &t4);
                }
        report("4 seeds", v->name, &t4);
        for (int n = 0; n < 200; n++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            unsigned b = 5 + (unsigned)((x >> 33) & 1u);
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            nk_pos p;
            memset(&p, 0, sizeof p);
            nk_tb_unrank(b, (x >> 20) % nk_tb_count(b), p.pit);
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            p.north = tb.pat[(x >> 40) % tb.npat];
            p.side = (uint8_t)((x >> 50) & 1u);
            compare(&tb, &r, &p, &t56);
        }
        report("5-6 seeds", v->name, &t56);
        printf("  reference nodes %llu, table hits %llu, budget %llu a position\n",
               (unsigned long long)r.total_nodes, (unsigned long long)r.tt_hits,
               (unsigned long long)r.budget);
        assert_true(t4.exact > 0 && t56.exact > 0);
        ref_free(&r);
        nk_tb_close(&tb);
    }
}

/* 500 random positions of 7 to 10 board seeds per variant. */
static void test_random_positions(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < NVAR; k++) {
        const nk_variant *v = nk_variant_find(tb_variants[k]);
        nk_tb tb;
        char err[NK_MSG_MAX];
        assert_int_equal(nk_tb_build(&tb, v, 10, 0, NULL, err, sizeof err), NK_OK);
        ref r;
        ref_init(&r, v, &tb);
        tally t = {0};
        for (int n = 0; n < 300; n++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            unsigned b = 4 + (unsigned)((x >> 33) % 7);
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            nk_pos p;
            memset(&p, 0, sizeof p);
            nk_tb_unrank(b, (x >> 20) % nk_tb_count(b), p.pit);
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            p.north = tb.pat[(x >> 40) % tb.npat];
            p.side = (uint8_t)((x >> 50) & 1u);
            compare(&tb, &r, &p, &t);
        }
        report("4-10 seeds", v->name, &t);
        printf("  reference nodes %llu\n", (unsigned long long)r.total_nodes);
        assert_true(t.exact > 0);
        free(r.memo);
        nk_tb_close(&tb);
    }
}

/* The retrograde invariant over every position of a database of 8 seeds. */
static void test_invariant(void **state)
{
    (void)state;
    for (int k = 0; k < NVAR; k++) {
        const nk_variant *v = nk_variant_find(tb_variants[k]);
        nk_tb tb;
        char err[NK_MSG_MAX];
        assert_int_equal(nk_tb_build(&tb, v, 8, 0, NULL, err, sizeof err), NK_OK);
        uint64_t checked = 0, over = 0;
        for (unsigned b = 0; b <= 8; b++)
            for (uint64_t i = 0; i < nk_tb_count(b); i++)
                for (unsigned pat = 0; pat < tb.npat; pat++) {
                    nk_pos p;
                    memset(&p, 0, sizeof p);
                    nk_tb_unrank(b, i, p.pit);
                    p.north = tb.pat[pat];
                    uint8_t byte;
                    assert_int_equal(nk_tb_probe(&tb, &p, &byte), NK_OK);
                    int val = byte & NK_TB_VALUE_MASK;
                    assert_true(val <= (int)b);
                    nk_end end = nk_pos_end(&tb.rules, &p);
                    if (end != NK_END_NONE) {
                        nk_result res;
                        nk_pos_result(&tb.rules, &p, end, &res);
                        assert_int_equal(val, res.total[NK_SOUTH]);
                        over++;
                        continue;
                    }
                    if (byte & NK_TB_CYCLE)
                        continue;
                    unsigned mask;
                    int mv[NK_PASS + 1];
                    assert_int_equal(nk_tb_move_values(&tb, &p, &mask, mv, NULL), NK_OK);
                    int best = -1;
                    for (unsigned m = mask; m; m &= m - 1)
                        if (mv[__builtin_ctz(m)] > best)
                            best = mv[__builtin_ctz(m)];
                    assert_int_equal(val, best);
                    checked++;
                }
        printf("invariant %-10s %llu positions checked, %llu over\n", v->name,
               (unsigned long long)checked, (unsigned long long)over);
        assert_true(checked > 0);
        assert_true(over > 0 || v->sowing == NK_SOW_RELAY); /* relay positions never start over */
        nk_tb_close(&tb);
    }
}

/* The database is the same for 1 and 2 threads. */
static void test_threads(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_tb a, b;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_tb_build(&a, v, 9, 1, NULL, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_build(&b, v, 9, 2, NULL, err, sizeof err), NK_OK);
    assert_memory_equal(a.data, b.data, a.offset[10]);
    nk_tb_close(&a);
    nk_tb_close(&b);
}

/* Under a memory limit the counts whose children's lists do not fit
 * compute them again at each sweep: the same bytes, whether no chunk, some
 * or all keep their lists, in each kind of variant (sowing with captures,
 * relay sowing with its eleven patterns, two planes). */
static void test_memory_limit(void **state)
{
    (void)state;
    const struct {
        const char *name;
        unsigned seeds;
    } cases[] = {{"abapa", 9}, {"adjikui", 6}, {"speightstown", 8}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const nk_variant *v = nk_variant_find(cases[c].name);
        nk_tb full, lim;
        nk_tb_stats fs, ls;
        char err[NK_MSG_MAX];
        assert_int_equal(nk_tb_build(&full, v, cases[c].seeds, 2, &fs, err, sizeof err), NK_OK);
        assert_int_equal(fs.computed, 0);
        const uint64_t bytes = nk_tb_bytes(&full);
        /* 1 byte: nothing kept; then limits around what the build holds
         * (the database, the work arrays, two threads' chunk buffers of
         * 3.4 MB each), where part of the lists fit. */
        const uint64_t limits[] = {1, 7u << 20, 8u << 20, 9u << 20, 10u << 20};
        unsigned computed = 0;
        for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
            assert_int_equal(nk_tb_build_within(&lim, v, cases[c].seeds, 2, limits[l], &ls, err,
                                                sizeof err),
                             NK_OK);
            assert_int_equal(nk_tb_bytes(&lim), bytes);
            assert_memory_equal(lim.data, full.data, bytes);
            if (l == 0)
                assert_true(ls.computed > 0);
            computed += ls.computed;
            nk_tb_close(&lim);
        }
        printf("memory limit %-12s %u seeds: the same bytes under %zu limits "
               "(%u counts computed again)\n",
               v->name, cases[c].seeds, sizeof limits / sizeof limits[0], computed);
        nk_tb_close(&full);
    }
}

/* Retrograde analysis (the parents' lists, every count when no limit is
 * set) and the sweeps (every count under a limit that keeps no list) reach
 * the same fixpoint: the same bytes, in every variant (both planes of
 * speightstown), on one thread and on two (the threads race to enter the
 * states). */
static void test_retrograde(void **state)
{
    (void)state;
    const struct {
        const char *name;
        unsigned seeds;
    } cases[] = {{"abapa", 10},   {"antigua", 10},     {"bridgetown", 10},
                 {"adjikui", 7},  {"speightstown", 10}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const nk_variant *v = nk_variant_find(cases[c].name);
        nk_tb swept;
        nk_tb_stats ss;
        char err[NK_MSG_MAX];
        assert_int_equal(nk_tb_build_within(&swept, v, cases[c].seeds, 2, 1, &ss, err, sizeof err),
                         NK_OK);
        assert_int_equal(ss.retro, 0);
        assert_true(ss.sweeps > 0);
        for (int threads = 1; threads <= 2; threads++) {
            nk_tb retro;
            nk_tb_stats rs;
            assert_int_equal(nk_tb_build(&retro, v, cases[c].seeds, threads, &rs, err, sizeof err),
                             NK_OK);
            assert_int_equal(rs.retro, cases[c].seeds + 1);
            assert_int_equal(rs.sweeps, 0);
            assert_int_equal(rs.cycle, ss.cycle);
            assert_memory_equal(retro.data, swept.data, nk_tb_bytes(&swept));
            nk_tb_close(&retro);
        }
        printf("retrograde %-12s %u seeds: the sweeps' bytes (%llu positions, %llu sweeps)\n",
               v->name, cases[c].seeds, (unsigned long long)ss.positions,
               (unsigned long long)ss.sweeps);
        nk_tb_close(&swept);
    }
}

static void write_bytes(const char *path, const void *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

static void test_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/nk_tb_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], other[256], bad[256];
    snprintf(path, sizeof path, "%s/abapa.nktb", dir);
    snprintf(other, sizeof other, "%s/antigua.nktb", dir);
    snprintf(bad, sizeof bad, "%s/bad.nktb", dir);
    const nk_variant *ab = nk_variant_find("abapa"), *an = nk_variant_find("antigua");
    nk_tb tb, rd;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_tb_build(&tb, ab, 5, 0, NULL, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_write(&tb, path, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_open(&rd, path, ab, err, sizeof err), NK_OK);
    assert_int_equal(rd.seeds, 5);
    assert_memory_equal(rd.data, tb.data, tb.offset[6]);
    nk_tb_close(&rd);
    /* another variant's database */
    nk_tb t2;
    assert_int_equal(nk_tb_build(&t2, an, 5, 0, NULL, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_write(&t2, other, err, sizeof err), NK_OK);
    nk_tb_close(&t2);
    assert_int_equal(nk_tb_open(&rd, other, ab, err, sizeof err), NK_EMISMATCH);
    assert_non_null(strstr(err, "antigua"));
    /* read the file whole */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t len = 96 + tb.offset[6];
    uint8_t *buf = malloc(len + 1);
    assert_int_equal(fread(buf, 1, len + 1, f), len);
    fclose(f);
    /* one plane: format version 1, as before speightstown's second plane */
    assert_int_equal(buf[8], 1);
    assert_int_equal(buf[36], 0);
    /* a damaged data byte */
    buf[96 + 1000] ^= 1;
    write_bytes(bad, buf, len);
    assert_int_equal(nk_tb_open(&rd, bad, ab, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "checksum"));
    buf[96 + 1000] ^= 1;
    /* a damaged header: the seed count */
    buf[12] ^= 1;
    write_bytes(bad, buf, len);
    assert_int_equal(nk_tb_open(&rd, bad, ab, err, sizeof err), NK_EFORMAT);
    buf[12] ^= 1;
    /* truncated */
    write_bytes(bad, buf, len - 1);
    assert_int_equal(nk_tb_open(&rd, bad, ab, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "truncated"));
    /* foreign */
    uint8_t foreign[136];
    memset(foreign, 'G', sizeof foreign);
    memcpy(foreign, "GIF89a", 6);
    write_bytes(bad, foreign, sizeof foreign);
    assert_int_equal(nk_tb_open(&rd, bad, ab, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "not an endgame database"));
    /* missing */
    assert_int_equal(nk_tb_open(&rd, "/nonexistent/x.nktb", ab, err, sizeof err), NK_ENOFILE);
    /* a position outside the database */
    nk_pos p;
    assert_int_equal(nk_pos_parse(&p, "4,4,0,0,0,0/0,0,0,0,0,0 0-0 S", err, sizeof err), NK_OK);
    uint8_t byte;
    assert_int_equal(nk_tb_probe(&tb, &p, &byte), NK_ERANGE);
    free(buf);
    nk_tb_close(&tb);
    unlink(path);
    unlink(other);
    unlink(bad);
    rmdir(dir);
}

/* The slice of pattern k of count b: count(b) bytes. */
static const uint8_t *pattern_slice(const nk_tb *tb, unsigned b, unsigned k)
{
    return tb->data + tb->offset[b] + (uint64_t)k * nk_tb_count(b);
}

/* Sets of ownership patterns (tb.h): the lists that read and those
 * refused; a build of a set holds exactly the full build's bytes of each of
 * its patterns, in the fixed order whatever the order of the list; its file
 * reads back and is the same for the same set; a header whose patterns are
 * not a valid set is refused; a position of another pattern is outside. */
static void test_patterns(void **state)
{
    (void)state;
    const nk_variant *ak = nk_variant_find("adjikui"), *ab = nk_variant_find("abapa");
    char err[NK_MSG_MAX];
    uint32_t set, set2;
    assert_int_equal(nk_tb_patterns_all(ak), 0x7FF);
    assert_int_equal(nk_tb_patterns_all(ab), 1);
    assert_int_equal(nk_tb_patterns_parse(ak, "all", &set, err, sizeof err), NK_OK);
    assert_int_equal(set, 0x7FF);
    assert_int_equal(nk_tb_patterns_parse(ak, "0", &set, err, sizeof err), NK_OK);
    assert_int_equal(set, 1);
    /* bits of 0, 1..5, -1..-5: 2 is bit 2, -2 bit 7 */
    assert_int_equal(nk_tb_patterns_parse(ak, "0,2,-2", &set, err, sizeof err), NK_OK);
    assert_int_equal(set, 1u | 1u << 2 | 1u << 7);
    assert_int_equal(nk_tb_patterns_parse(ak, "-2,0,2", &set2, err, sizeof err), NK_OK);
    assert_int_equal(set2, set);
    assert_int_equal(nk_tb_patterns_parse(ab, "0", &set2, err, sizeof err), NK_OK);
    assert_int_equal(set2, 1);
    assert_int_equal(nk_tb_patterns_parse(ab, "all", &set2, err, sizeof err), NK_OK);
    assert_int_equal(set2, 1);
    const struct {
        const nk_variant *v;
        const char *text, *why;
    } bad[] = {
        {ak, "2", "2 without -2"},          {ak, "0,-3", "-3 without 3"},
        {ak, "6", "6 is none"},             {ak, "-6,6", "-6 is none"},
        {ak, "0,0", "listed twice"},        {ak, "1,-1,1", "listed twice"},
        {ak, "", "not a pattern"},          {ak, "0,", "not a pattern"},
        {ak, ",0", "not a pattern"},        {ak, "one", "not a pattern"},
        {ak, "-", "not a pattern"},         {ak, "+1,-1", "not a pattern"},
        {ak, "0 ", "not a pattern"},        {ab, "1,-1", "one ownership pattern"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(nk_tb_patterns_parse(bad[i].v, bad[i].text, &set2, err, sizeof err),
                         NK_EINVAL);
        if (strstr(err, bad[i].why) == NULL)
            fail_msg("'%s': '%s' does not say '%s'", bad[i].text, err, bad[i].why);
    }
    /* A set that is not closed, or not the variant's, is refused by the
     * build too. */
    nk_tb tb;
    assert_int_equal(nk_tb_build_patterns(&tb, ak, 3, 1u << 2, 1, 0, NULL, err, sizeof err),
                     NK_EINVAL);
    assert_int_equal(nk_tb_build_patterns(&tb, ab, 3, 3, 1, 0, NULL, err, sizeof err),
                     NK_EINVAL);

    /* The full build and two sets, the same bytes for each shared pattern. */
    enum { SEEDS = 6 };
    nk_tb full, sub;
    assert_int_equal(nk_tb_build(&full, ak, SEEDS, 2, NULL, err, sizeof err), NK_OK);
    assert_int_equal(full.npat, 11);
    const char *const lists[] = {"0", "-2,2,0", "1,-1,5,-5"};
    const unsigned npats[] = {1, 3, 4};
    const int order[][4] = {{0}, {0, 2, -2}, {1, 5, -1, -5}};
    char dir[] = "/tmp/nk_tbpat_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], path2[256];
    snprintf(path, sizeof path, "%s/adjikui.nktb", dir);
    snprintf(path2, sizeof path2, "%s/again.nktb", dir);
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
        assert_int_equal(nk_tb_patterns_parse(ak, lists[l], &set, err, sizeof err), NK_OK);
        assert_int_equal(nk_tb_build_patterns(&sub, ak, SEEDS, set, 2, 0, NULL, err, sizeof err),
                         NK_OK);
        assert_int_equal(sub.npat, npats[l]);
        uint64_t n = 0;
        for (unsigned k = 0; k < sub.npat; k++) {
            const int j = nk_tb_pattern_bought(&sub, k);
            assert_int_equal(j, order[l][k]); /* the fixed order */
            assert_true(nk_tb_holds_pattern(&sub, j));
            unsigned kf = 0;
            while (nk_tb_pattern_bought(&full, kf) != j)
                kf++;
            assert_int_equal(sub.pat[k], full.pat[kf]);
            for (unsigned b = 0; b <= SEEDS; b++) {
                assert_memory_equal(pattern_slice(&sub, b, k), pattern_slice(&full, b, kf),
                                    nk_tb_count(b));
                n += nk_tb_count(b);
            }
        }
        assert_int_equal(nk_tb_bytes(&sub), n);
        assert_false(nk_tb_holds_pattern(&sub, 3));
        /* Probes: a position of a pattern held has the full build's byte,
         * one of another pattern is outside (NK_EINVAL). */
        nk_pos p;
        uint8_t x, y;
        unsigned mask;
        int val[NK_PASS + 1];
        assert_int_equal(nk_pos_parse(&p, "2,0,1,0,0,0/0,1,0,2,0,0 0-0 N", err, sizeof err),
                         NK_OK);
        for (int j = -5; j <= 5; j++) {
            p.north = full.pat[j >= 0 ? j : 5 - j];
            int jj;
            assert_true(nk_tb_owners_pattern(&p, &jj));
            assert_int_equal(nk_tb_probe(&full, &p, &x), NK_OK);
            if (nk_tb_holds_pattern(&sub, j)) {
                assert_int_equal(nk_tb_probe(&sub, &p, &y), NK_OK);
                assert_int_equal(x, y);
            } else {
                assert_int_equal(nk_tb_probe(&sub, &p, &y), NK_EINVAL);
                assert_int_equal(nk_tb_move_values(&sub, &p, &mask, val, NULL), NK_EINVAL);
            }
        }
        /* The file reads back, and the same set gives the same bytes. */
        assert_int_equal(nk_tb_write(&sub, path, err, sizeof err), NK_OK);
        nk_tb rd;
        assert_int_equal(nk_tb_open(&rd, path, ak, err, sizeof err), NK_OK);
        assert_int_equal(rd.npat, sub.npat);
        assert_memory_equal(rd.pat, sub.pat, sub.npat * sizeof sub.pat[0]);
        assert_memory_equal(rd.data, sub.data, nk_tb_bytes(&sub));
        nk_tb_close(&rd);
        nk_tb_close(&sub);
        assert_int_equal(nk_tb_build_patterns(&sub, ak, SEEDS, set, 1, 0, NULL, err, sizeof err),
                         NK_OK);
        assert_int_equal(nk_tb_write(&sub, path2, err, sizeof err), NK_OK);
        nk_tb_close(&sub);
        FILE *f1 = fopen(path, "rb"), *f2 = fopen(path2, "rb");
        assert_non_null(f1);
        assert_non_null(f2);
        int c1, c2;
        do {
            c1 = fgetc(f1);
            c2 = fgetc(f2);
            assert_int_equal(c1, c2);
        } while (c1 != EOF);
        fclose(f1);
        fclose(f2);
    }
    /* The last file (1,-1,5,-5): headers whose patterns are not a valid
     * set are refused as damaged (the header is checked before the
     * checksum). */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t head[96];
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fseek(f, 0, SEEK_END);
    const size_t len = (size_t)ftell(f);
    uint8_t *buf = malloc(len);
    assert_non_null(buf);
    fseek(f, 0, SEEK_SET);
    assert_int_equal(fread(buf, 1, len, f), len);
    fclose(f);
    char bad_path[256];
    snprintf(bad_path, sizeof bad_path, "%s/bad.nktb", dir);
    nk_tb rd;
    uint16_t u;
    for (int c = 0; c < 4; c++) {
        uint8_t *h = malloc(len);
        assert_non_null(h);
        memcpy(h, buf, len);
        switch (c) {
        case 0: /* three patterns listed: -5 is missing, 5 is not closed */
            h[32] = 3;
            memset(h + 56 + 6, 0, 2);
            break;
        case 1: /* 1 and 5 swapped: not the fixed order */
            memcpy(h + 56, buf + 58, 2);
            memcpy(h + 58, buf + 56, 2);
            break;
        case 2: /* 1 twice */
            memcpy(h + 58, buf + 56, 2);
            break;
        case 3: /* a mask that is no pattern */
            u = 0x0FC1;
            memcpy(h + 56, &u, 2);
            break;
        }
        write_bytes(bad_path, h, len);
        free(h);
        err[0] = '\0';
        assert_int_equal(nk_tb_open(&rd, bad_path, ak, err, sizeof err), NK_EFORMAT);
        if (strstr(err, "header") == NULL)
            fail_msg("header %d: '%s'", c, err);
    }
    free(buf);
    nk_tb_close(&full);
    /* The Warri family: the one pattern is the full build. */
    nk_tb a, b;
    assert_int_equal(nk_tb_build(&a, ab, 5, 1, NULL, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_build_patterns(&b, ab, 5, 1, 1, 0, NULL, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_bytes(&a), nk_tb_bytes(&b));
    assert_memory_equal(a.data, b.data, nk_tb_bytes(&a));
    nk_tb_close(&a);
    nk_tb_close(&b);
    unlink(path);
    unlink(path2);
    unlink(bad_path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_bijection),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_invariant),
        cmocka_unit_test(test_memory_limit),
        cmocka_unit_test(test_retrograde),
        cmocka_unit_test(test_all_small_positions),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_history_4_to_6),
        cmocka_unit_test(test_speightstown_invariant),
        cmocka_unit_test(test_speightstown_history),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
