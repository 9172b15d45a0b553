/*
 * test_tb_fixpoint.c -- the endgame databases (src/tb) against a second,
 * independent solver of the same game, over every position with at most
 * a few board seeds, in each of the five variants, each side to move,
 * and for adjikui each ownership pattern that match play can give (R-K9,
 * R-K10).
 *
 * (8 seeds in the Warri family, 6 in adjikui: below.)
 *
 * The solver here shares nothing with the engine or src/tb: its moves,
 * captures, end rules and end-of-game distributions are those of the
 * independent reference implementation of the rules (tests/reference/:
 * ref_legal, ref_play, ref_score, ref_buy), its positions are keys in a
 * hash table (no combinatorial index, no turned boards: North to move is
 * solved as itself), Adji Kui's passes are part of its state (a position
 * after one pass is a state of its own, a second pass ends the game), and
 * it iterates the documented recurrences (docs/tablebase.md) naively, a
 * whole sweep over every state of a seed count at a time:
 *
 * - abapa, antigua, bridgetown, adjikui: lo (least fixpoint, from 0) and
 *   hi (greatest, from the board) of what the mover collects; where they
 *   meet that is the value, elsewhere the repetition's value of the
 *   position (R-W10, R-K7) clamped to [lo, hi]; the cycle mark on every
 *   position with lo < hi and every position from which one can be reached
 *   (also through a capture into a marked smaller count).
 * - speightstown: g and h, what the mover and what the opponent can force
 *   themselves to collect, least fixpoints from 0.
 *
 * Every value and every cycle mark of the database must equal the
 * solver's; the test prints how many positions it compared and how many
 * carry the mark.  (Where the cycle mark's values differ from play with
 * the game's history is counted by test_tb.c, whose search with history is
 * feasible to 3 seeds.)  The majority rule is off, as in the database: the
 * stores are not part of a position.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/reference.c"
#include "tb/tb.h"

/* The largest count solved: 8 in the Warri family and 6 in adjikui (eleven
 * ownership patterns and the pass state: 0.8 million states at 6 seeds);
 * NK_TB_FIX_SEEDS=N raises the Warri family's (10 was measured: see
 * docs/tablebase.md).  FIX_MAX bounds it (pits fit 4 bits of a key). */
enum { WARRI_SEEDS = 8, ADJIKUI_SEEDS = 6, FIX_MAX = 12, MAX_OWNERS = 32 };

/* ===== states ===== */

/* A state: a position with stores 0 and whether the last move was a pass
 * (adjikui only). */
/* fstate: a state of the fixpoint solver. */
typedef struct fstate {
    ref_pos pos;
    int passed;
    int over;            /* the game ends here (no moves) */
    int base;            /* best known value of a move (capture, end), -1 none */
    int hbase;           /* speightstown: least opponent's known value, 1000 none */
    int cyc_known;       /* a capture into a marked smaller position */
    int nedge, edge0;    /* same-count children: edges[edge0 ..] */
    int lo, hi;          /* lo/hi, or g/h for speightstown */
    int value, cyc;      /* final */
} fstate;

typedef struct edge {
    int to;
    int flip; /* the child has the other side to move */
} edge;

typedef struct table {
    uint64_t *key;
    int *idx;
    size_t cap;
} table;

static uint64_t pos_key(const ref_pos *p, int passed)
{
    uint64_t k = 0;
    for (int i = 0; i < 12; i++)
        k |= (uint64_t)p->pit[i] << (4 * i);
    k |= (uint64_t)p->side << 48;
    k |= (uint64_t)passed << 49;
    for (int i = 0; i < 12; i++)
        k |= (uint64_t)p->owner[i] << (50 + i);
    return k + 1; /* 0: an empty slot */
}

static int *table_slot(table *t, uint64_t key)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (t->cap - 1);
    while (t->key[i] != 0 && t->key[i] != key)
        i = (i + 1) & (t->cap - 1);
    if (t->key[i] == 0) {
        t->key[i] = key;
        t->idx[i] = -1;
    }
    return &t->idx[i];
}

/* The solver's world: every state of counts 0..seeds. */
typedef struct world {
    int variant;
    int two;             /* speightstown: g and h */
    int nown;
    int owner[MAX_OWNERS][12];
    fstate *st;
    int nst, capst;
    int seeds;           /* counts 0..seeds */
    int first[FIX_MAX + 2]; /* states of count b: first[b] .. first[b+1]-1 */
    edge *edges;
    int nedges, capedges;
    table t;
} world;

static int add_state(world *w, const ref_pos *p, int passed)
{
    if (w->nst == w->capst) {
        w->capst = w->capst ? 2 * w->capst : 1 << 16;
        w->st = realloc(w->st, (size_t)w->capst * sizeof *w->st);
        assert_non_null(w->st);
    }
    fstate *s = &w->st[w->nst];
    memset(s, 0, sizeof *s);
    s->pos = *p;
    s->passed = passed;
    *table_slot(&w->t, pos_key(p, passed)) = w->nst;
    return w->nst++;
}

static int find_state(world *w, const ref_pos *p, int passed)
{
    int i = *table_slot(&w->t, pos_key(p, passed));
    assert_true(i >= 0);
    return i;
}

/* The ownership patterns of match play: the default rows, and every one
 * R-K9 gives after a won game (totals W + L = 48) that R-K10 lets the
 * match go on with (each player owns a pit). */
static void owners_init(world *w)
{
    int own[12];
    ref_buy(REF_DRAW, 24, 24, own);
    memcpy(w->owner[0], own, sizeof own);
    w->nown = 1;
    if (w->variant != REF_ADJIKUI)
        return;
    for (int winner = 0; winner < 2; winner++)
        for (int wt = 25; wt <= 48; wt++) {
            ref_buy(winner, wt, 48 - wt, own);
            int n[2] = {0, 0};
            for (int i = 0; i < 12; i++)
                n[own[i]]++;
            if (n[0] == 0 || n[1] == 0)
                continue;
            int seen = 0;
            for (int k = 0; k < w->nown; k++)
                seen |= memcmp(w->owner[k], own, sizeof own) == 0;
            if (!seen) {
                assert_true(w->nown < MAX_OWNERS);
                memcpy(w->owner[w->nown++], own, sizeof own);
            }
        }
}

/* Every composition of b seeds into the pits from `from` on. */
static void enumerate(world *w, ref_pos *p, int from, int left)
{
    if (from == 11) {
        p->pit[11] = left;
        for (int k = 0; k < w->nown; k++)
            for (int side = 0; side < 2; side++)
                for (int passed = 0; passed <= (w->variant == REF_ADJIKUI); passed++) {
                    ref_pos q = *p;
                    memcpy(q.owner, w->owner[k], sizeof q.owner);
                    q.side = side;
                    add_state(w, &q, passed);
                }
        return;
    }
    for (int x = 0; x <= left; x++) {
        p->pit[from] = x;
        enumerate(w, p, from + 1, left - x);
    }
}

static int row_total(const ref_pos *p, int side)
{
    int n = 0;
    for (int i = 0; i < 12; i++)
        if ((i < 6 ? REF_SOUTH : REF_NORTH) == side)
            n += p->pit[i];
    return n;
}

/* The end rule that holds in p, reached by a move that captured `captured`
 * seeds (the one before it a pass when `passes` is 2), without the
 * majority rule and without repetition: the reference's end_reason,
 * R-W9, R-W7, R-K5, R-K4. */
static int end_now(const world *w, const ref_pos *p, int captured, int passes)
{
    if (w->variant != REF_ADJIKUI) {
        if (row_total(p, p->side) == 0)
            return REF_EMPTY_ROW;
        if (row_total(p, 1 - p->side) == 0 && ref_legal(w->variant, REF_DEFAULT_MAX_LAPS, p) == 0)
            return REF_NO_FEED;
        return REF_NONE;
    }
    if (captured > 0 && ref_on_board(p) <= 8)
        return REF_FEW_SEEDS;
    if (passes == 2)
        return REF_PASSES;
    return REF_NONE;
}

/* First pass over count b: ends, known move values, same-count edges. */
static void count_init(world *w, int b)
{
    for (int i = w->first[b]; i < w->first[b + 1]; i++) {
        fstate *s = &w->st[i];
        const ref_pos *p = &s->pos;
        const int me = p->side;
        ref_result r;
        int end = end_now(w, p, 0, 0);
        s->base = -1;
        s->hbase = 1000;
        s->edge0 = w->nedges;
        if (end != REF_NONE) {
            ref_score(w->variant, p, end, &r);
            s->over = 1;
            s->lo = r.total[me];
            s->hi = w->two ? r.total[1 - me] : r.total[me];
            continue;
        }
        unsigned legal = ref_legal(w->variant, REF_DEFAULT_MAX_LAPS, p);
        assert_true(legal != 0);
        for (int m = 0; m <= REF_PASS; m++) {
            if (!((legal >> m) & 1u))
                continue;
            ref_move mv;
            ref_play(w->variant, REF_DEFAULT_MAX_LAPS, p, m, &mv);
            assert_true(mv.legal);
            const ref_pos *c = &mv.after;
            int passes = m == REF_PASS ? 1 + s->passed : 0;
            int cend = end_now(w, c, mv.captured, passes);
            int mine, theirs;
            if (cend != REF_NONE) {
                ref_score(w->variant, c, cend, &r);
                mine = r.total[me];
                theirs = r.total[1 - me];
            } else if (mv.captured > 0) { /* a smaller count, finished */
                ref_pos q = *c;
                q.store[0] = q.store[1] = 0;
                const fstate *t = &w->st[find_state(w, &q, 0)];
                const int same = c->side == me;
                if (w->two) {
                    mine = mv.captured + (same ? t->lo : t->hi);
                    theirs = same ? t->hi : t->lo;
                } else {
                    const int rest = b - mv.captured;
                    mine = mv.captured + (same ? t->value : rest - t->value);
                    theirs = b - mine;
                }
                s->cyc_known |= t->cyc;
            } else {
                if (w->nedges == w->capedges) {
                    w->capedges = w->capedges ? 2 * w->capedges : 1 << 16;
                    w->edges = realloc(w->edges, (size_t)w->capedges * sizeof *w->edges);
                    assert_non_null(w->edges);
                }
                w->edges[w->nedges].to = find_state(w, c, m == REF_PASS);
                w->edges[w->nedges].flip = c->side != me;
                w->nedges++;
                s->nedge++;
                continue;
            }
            if (mine > s->base)
                s->base = mine;
            if (theirs < s->hbase)
                s->hbase = theirs;
        }
        if (w->two) {
            s->lo = s->base < 0 ? 0 : s->base;
            s->hi = s->nedge ? 0 : s->hbase;
        } else {
            s->lo = s->base < 0 ? 0 : s->base;
            s->hi = s->nedge ? b : s->base;
        }
    }
}

/* Sweeps of the recurrences over count b until nothing moves, then the
 * final values and the cycle marks. */
static void count_solve(world *w, int b)
{
    for (int moved = 1; moved;) {
        moved = 0;
        for (int i = w->first[b]; i < w->first[b + 1]; i++) {
            fstate *s = &w->st[i];
            if (s->over || s->nedge == 0)
                continue;
            int lo = s->base < 0 ? 0 : s->base, hi = w->two ? s->hbase : s->base;
            for (int j = 0; j < s->nedge; j++) {
                const edge *e = &w->edges[s->edge0 + j];
                const fstate *c = &w->st[e->to];
                int a, z;
                if (w->two) { /* g = max(mine), h = min(theirs) */
                    a = e->flip ? c->hi : c->lo;
                    z = e->flip ? c->lo : c->hi;
                    if (z < hi)
                        hi = z;
                } else {      /* lo = max(B - hi(c)), hi = max(B - lo(c)) */
                    a = e->flip ? b - c->hi : c->lo;
                    z = e->flip ? b - c->lo : c->hi;
                    if (z > hi)
                        hi = z;
                }
                if (a > lo)
                    lo = a;
            }
            if (lo != s->lo || hi != s->hi) {
                /* both bounds only move one way */
                assert_true(lo > s->lo || lo == s->lo);
                assert_true(w->two ? hi >= s->hi : hi <= s->hi);
                s->lo = lo;
                s->hi = hi;
                moved = 1;
            }
        }
    }
    for (int i = w->first[b]; i < w->first[b + 1]; i++) {
        fstate *s = &w->st[i];
        if (w->two) {
            s->value = s->lo;
            s->cyc = 0;
            continue;
        }
        s->cyc = s->lo < s->hi || s->cyc_known;
        if (s->lo == s->hi) {
            s->value = s->lo;
        } else {
            ref_result r;
            ref_score(w->variant, &s->pos, REF_REPETITION, &r);
            int x = r.total[s->pos.side];
            s->value = x < s->lo ? s->lo : x > s->hi ? s->hi : x;
        }
    }
    for (int moved = 1; moved && !w->two;) {
        moved = 0;
        for (int i = w->first[b]; i < w->first[b + 1]; i++) {
            fstate *s = &w->st[i];
            for (int j = 0; j < s->nedge && !s->cyc; j++)
                if (w->st[w->edges[s->edge0 + j].to].cyc) {
                    s->cyc = 1;
                    moved = 1;
                }
        }
    }
}

static void world_free(world *w)
{
    free(w->st);
    free(w->edges);
    free(w->t.key);
    free(w->t.idx);
}

/* The engine's form of a reference position (stores 0). */
static void to_engine(const ref_pos *p, nk_pos *q)
{
    memset(q, 0, sizeof *q);
    unsigned north = 0;
    for (int i = 0; i < 12; i++) {
        q->pit[i] = (uint8_t)p->pit[i];
        if (p->owner[i] == REF_NORTH)
            north |= 1u << i;
    }
    q->north = (uint16_t)north;
    q->side = (uint8_t)p->side;
}

static void check_variant(const char *name)
{
    world w;
    memset(&w, 0, sizeof w);
    w.variant = ref_variant_find(name);
    assert_true(w.variant >= 0);
    w.two = w.variant == REF_SPEIGHTSTOWN;
    owners_init(&w);
    w.seeds = w.variant == REF_ADJIKUI ? ADJIKUI_SEEDS : WARRI_SEEDS;
    if (w.variant != REF_ADJIKUI && getenv("NK_TB_FIX_SEEDS"))
        w.seeds = atoi(getenv("NK_TB_FIX_SEEDS"));
    assert_true(w.seeds >= 0 && w.seeds <= FIX_MAX);
    size_t states = 0;
    for (int b = 0; b <= w.seeds; b++)
        states += 2 * (size_t)w.nown * (w.variant == REF_ADJIKUI ? 2 : 1) *
                  (size_t)nk_tb_count((unsigned)b);
    w.t.cap = 1;
    while (w.t.cap < 2 * states)
        w.t.cap <<= 1;
    w.t.key = calloc(w.t.cap, sizeof *w.t.key);
    w.t.idx = calloc(w.t.cap, sizeof *w.t.idx);
    assert_true(w.t.key && w.t.idx);
    for (int b = 0; b <= w.seeds; b++) {
        ref_pos p;
        memset(&p, 0, sizeof p);
        w.first[b] = w.nst;
        enumerate(&w, &p, 0, b);
    }
    w.first[w.seeds + 1] = w.nst;
    for (int b = 0; b <= w.seeds; b++) {
        count_init(&w, b);
        count_solve(&w, b);
    }
    const nk_variant *v = nk_variant_find(name);
    nk_tb tb;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_tb_build(&tb, v, (unsigned)w.seeds, 0, NULL, err, sizeof err), NK_OK);
    uint64_t compared = 0, marked = 0, differ = 0;
    for (int i = 0; i < w.nst; i++) {
        const fstate *s = &w.st[i];
        if (s->passed)
            continue; /* the database's entries have no pass behind them */
        nk_pos q;
        to_engine(&s->pos, &q);
        uint8_t byte;
        int theirs;
        assert_int_equal(nk_tb_probe_pair(&tb, &q, &byte, &theirs), NK_OK);
        const int value = byte & NK_TB_VALUE_MASK, cyc = (byte & NK_TB_CYCLE) != 0;
        const int want_theirs = w.two ? s->hi : ref_on_board(&s->pos) - s->value;
        compared++;
        marked += cyc;
        if (value != s->value || cyc != s->cyc || theirs != want_theirs) {
            char text[128];
            ref_format(&s->pos, text, sizeof text);
            if (differ++ < 10)
                print_error("%s %s: database %d/%d%s, independent solver %d/%d%s\n", name, text,
                            value, theirs, cyc ? " (cycle)" : "", s->value, want_theirs,
                            s->cyc ? " (cycle)" : "");
        }
    }
    printf("%-12s %d ownership pattern(s), %llu positions of at most %d seeds compared "
           "(%llu with the cycle mark), %llu differ; %d solver states\n",
           name, w.nown, (unsigned long long)compared, w.seeds, (unsigned long long)marked,
           (unsigned long long)differ, w.nst);
    assert_int_equal(differ, 0);
    /* every composition, both sides, every pattern */
    uint64_t want = 0;
    for (int b = 0; b <= w.seeds; b++)
        want += nk_tb_count((unsigned)b);
    assert_int_equal(compared, want * 2 * (uint64_t)w.nown);
    nk_tb_close(&tb);
    world_free(&w);
}

static void test_abapa(void **st_)
{
    (void)st_;
    check_variant("abapa");
}

static void test_antigua(void **st_)
{
    (void)st_;
    check_variant("antigua");
}

static void test_bridgetown(void **st_)
{
    (void)st_;
    check_variant("bridgetown");
}

static void test_speightstown(void **st_)
{
    (void)st_;
    check_variant("speightstown");
}

static void test_adjikui(void **st_)
{
    (void)st_;
    check_variant("adjikui");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_abapa),        cmocka_unit_test(test_antigua),
        cmocka_unit_test(test_bridgetown),   cmocka_unit_test(test_speightstown),
        cmocka_unit_test(test_adjikui),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
