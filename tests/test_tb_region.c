/*
 * test_tb_region.c -- the bounds behind a database's values (nk_tb_region,
 * tb.h) and the search with the game's history bounded by them
 * (nk_solve_with_history, search/solve.h).
 *
 * - Entries: nk_tb_entry inverts nk_tb_entry_pos on every entry to 5 seeds.
 * - The bounds at the count reproduce the file: for every position of at
 *   most 4 seeds and a sample of 5 to 7 (each one-plane variant; adjikui
 *   to 6, every pattern), South to move, the region from it gives
 *   lo <= hi, lo_any <= lo, hi <= hi_any, and the stored value is lo where
 *   lo = hi, else the repetition's value of the position clamped to
 *   [lo, hi] (the build's rule, docs/tablebase.md); a position without the
 *   cycle bit has lo = hi = lo_any = hi_any = its value.  Each move's
 *   bounds hold its value (nk_tb_move_values), equal to it when they meet.
 *   Some positions have lo < hi and, in the Warri family, some lo_any < lo
 *   or hi < hi_any (the test counts them), so the checks bite.
 * - The search with history against a plain one: every position with the
 *   cycle bit of at most 3 seeds in each one-plane variant, and a sample
 *   of 4, solved by a naive minimax over the whole game tree with the
 *   game's history (the engine's moves; a capture of either store starts
 *   the history afresh, and the values of such positions are remembered;
 *   a position whose hash came before since then ends the game by
 *   repetition, as nk_game does), within 20,000 nodes a position (the
 *   others are counted and skipped).  nk_solve_with_history with
 *   a budget that settles it gives the same value for the position and
 *   every move, and the value lies in [lo_any, hi_any]; with a budget of
 *   a few nodes, each move's bounds still hold the naive value.
 * - Bad calls: a two-plane database, a position beyond the database, a
 *   region beyond its limit of positions, a position the region does not
 *   reach, a zero budget.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/solve.h"
#include "tb/tb.h"

enum { WARRI_TOP = 7, ADJIKUI_TOP = 6, ALL_TO = 4, SAMPLE = 48, NAIVE_ALL = 3 };

static const char *const variants[] = {"abapa", "antigua", "bridgetown", "adjikui"};
enum { NVAR = 4 };

static void build(nk_tb *tb, const char *name, unsigned seeds)
{
    char err[NK_MSG_MAX];
    const nk_variant *v = nk_variant_find(name);
    assert_non_null(v);
    assert_int_equal(nk_tb_build(tb, v, seeds, 0, NULL, err, sizeof err), NK_OK);
}

static void test_entries(void **state)
{
    (void)state;
    nk_tb tb;
    build(&tb, "adjikui", 5);
    for (unsigned b = 0; b <= 5; b++)
        for (uint64_t i = 0; i < tb.npat * nk_tb_count(b); i++) {
            nk_pos p;
            unsigned b2;
            uint64_t i2;
            nk_tb_entry_pos(&tb, b, i, &p);
            p.side = NK_SOUTH;
            assert_int_equal(nk_tb_entry(&tb, &p, &b2, &i2), NK_OK);
            assert_int_equal(b2, b);
            assert_int_equal(i2, i);
        }
    nk_tb_close(&tb);
}

typedef struct counts {
    uint64_t positions, marked, apart, wider;
} counts;

/* The checks of one position p (South to move, stores 0). */
static void check_bounds(const nk_tb *tb, const nk_pos *p, counts *n)
{
    char err[NK_MSG_MAX];
    uint8_t byte;
    assert_int_equal(nk_tb_probe(tb, p, &byte), NK_OK);
    const int stored = byte & NK_TB_VALUE_MASK;
    nk_tb_region *r;
    assert_int_equal(nk_tb_region_new(&r, tb, p, 0, err, sizeof err), NK_OK);
    nk_tb_bounds x;
    assert_int_equal(nk_tb_region_bounds(r, p, &x), NK_OK);
    n->positions++;
    assert_true(x.lo_any <= x.lo && x.lo <= x.hi && x.hi <= x.hi_any);
    if (!(byte & NK_TB_CYCLE)) {
        assert_int_equal(nk_tb_region_size(r), 0);
        assert_true(x.lo == stored && x.hi_any == stored && x.lo_any == stored);
        assert_true(x.component == -1);
    } else {
        n->marked++;
        assert_true(x.component >= 0);
        int want = x.lo;
        if (x.lo < x.hi) {
            nk_result res;
            nk_pos_result(&tb->rules, p, NK_END_REPETITION, &res);
            want = (int)res.total[p->side];
            want = want < x.lo ? x.lo : want > x.hi ? x.hi : want;
            n->apart++;
        }
        if (stored != want) {
            char text[NK_POS_TEXT];
            nk_pos_format(p, text);
            print_error("%s %s: stored %d, bounds [%d, %d] give %d\n", tb->variant->name, text,
                        stored, x.lo, x.hi, want);
            fail();
        }
        n->wider += x.lo_any < x.lo || x.hi < x.hi_any;
    }
    unsigned mask, mask2, cyc;
    nk_tb_bounds mv[NK_PASS + 1];
    int val[NK_PASS + 1];
    assert_int_equal(nk_tb_region_moves(r, p, &mask, mv), NK_OK);
    assert_int_equal(nk_tb_move_values(tb, p, &mask2, val, &cyc), NK_OK);
    assert_int_equal(mask, nk_pos_end(&tb->rules, p) == NK_END_NONE ? mask2 : 0u);
    for (unsigned m = mask; m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        assert_true(mv[k].lo_any <= mv[k].lo && mv[k].lo <= val[k] && val[k] <= mv[k].hi &&
                    mv[k].hi <= mv[k].hi_any);
        if (!((cyc >> k) & 1u))
            assert_true(mv[k].lo_any == val[k] && mv[k].hi_any == val[k]);
    }
    nk_tb_region_free(r);
}

static void test_bounds_reproduce_values(void **state)
{
    (void)state;
    for (int vi = 0; vi < NVAR; vi++) {
        const unsigned top = vi == 3 ? ADJIKUI_TOP : WARRI_TOP;
        nk_tb tb;
        build(&tb, variants[vi], top);
        counts n = {0};
        for (unsigned b = 0; b <= top; b++) {
            const uint64_t all = tb.npat * nk_tb_count(b);
            const uint64_t step = b <= ALL_TO ? 1 : all / SAMPLE + 1;
            for (uint64_t i = 0; i < all; i += step) {
                nk_pos p;
                nk_tb_entry_pos(&tb, b, i, &p);
                p.hash = nk_pos_hash(&p);
                check_bounds(&tb, &p, &n);
            }
        }
        printf("%-10s %llu positions, %llu marked, %llu with lo < hi, %llu with wider bounds "
               "whatever a repetition gives\n",
               variants[vi], (unsigned long long)n.positions, (unsigned long long)n.marked,
               (unsigned long long)n.apart, (unsigned long long)n.wider);
        assert_true(n.marked > 0 && n.apart > 0);
        if (vi < 3) /* adjikui: none to 6 seeds */
            assert_true(n.wider > 0);
        nk_tb_close(&tb);
    }
}

/* ===== a plain minimax with the game's history ===== */

typedef struct naive {
    const nk_variant *v;
    nk_pos path[4096];
    uint64_t nodes, budget;
} naive;

static int naive_value(naive *s, unsigned depth, int only);

/* The values of positions with a fresh history found so far (a function
 * of the position alone): hash + 1 (0 empty), one slot a hash. */
enum { MEMO = 1 << 16 };
static struct {
    uint64_t key;
    int value;
} memo[MEMO];

/* What move m from path[depth - 1] gives its mover. */
static int naive_move(naive *s, unsigned depth, int m)
{
    const nk_pos *p = &s->path[depth - 1];
    const int me = p->side, b = (int)nk_pos_on_board(p);
    nk_pos c = *p;
    nk_apply(s->v, &c, m, NULL);
    nk_result res;
    nk_end end = nk_pos_end_reached(s->v, &c);
    if (end != NK_END_NONE) {
        nk_pos_result(s->v, &c, end, &res);
        return (int)res.total[me];
    }
    const int rest = (int)nk_pos_on_board(&c);
    const bool same = c.side == me;
    if (rest < b || c.store[0] + c.store[1] > 0) { /* a capture: a fresh history */
        const int took = c.store[me];
        c.store[0] = c.store[1] = 0;
        c.hash = nk_pos_hash(&c);
        const size_t slot = (size_t)(c.hash % MEMO);
        if (memo[slot].key == c.hash + 1)
            return took + (same ? memo[slot].value : rest - memo[slot].value);
        naive *t = calloc(1, sizeof *t); /* not on the stack: 128 KiB */
        assert_non_null(t);
        t->v = s->v;
        t->budget = s->budget - s->nodes;
        t->path[0] = c;
        const int w = naive_value(t, 1, -1);
        s->nodes += t->nodes;
        if (t->nodes <= t->budget) {
            memo[slot].key = c.hash + 1;
            memo[slot].value = w;
        }
        free(t);
        return took + (same ? w : rest - w);
    }
    for (unsigned k = 0; k < depth; k++)
        if (s->path[k].hash == c.hash) { /* repetition (R-W10, R-K7) */
            nk_pos_result(s->v, &c, NK_END_REPETITION, &res);
            return (int)res.total[me];
        }
    assert_true(depth < 4096);
    s->path[depth] = c;
    const int w = naive_value(s, depth + 1, -1);
    return same ? w : b - w;
}

/* The value of path[depth - 1] for its mover (only >= 0: of that move). */
static int naive_value(naive *s, unsigned depth, int only)
{
    if (++s->nodes > s->budget)
        return 0;
    if (only >= 0)
        return naive_move(s, depth, only);
    int best = -1;
    for (unsigned m = nk_legal(s->v, &s->path[depth - 1]); m && s->nodes <= s->budget; m &= m - 1) {
        const int x = naive_move(s, depth, __builtin_ctz(m));
        best = x > best ? x : best;
    }
    return best;
}

static void test_history_against_naive(void **state)
{
    (void)state;
    char err[NK_MSG_MAX];
    for (int vi = 0; vi < NVAR; vi++) {
        nk_tb tb;
        build(&tb, variants[vi], NAIVE_ALL + 1);
        memset(memo, 0, sizeof memo);
        uint64_t compared = 0, undecided = 0, off = 0;
        for (unsigned b = 1; b <= NAIVE_ALL + 1; b++) {
            const uint64_t all = tb.npat * nk_tb_count(b);
            const uint64_t step = b <= NAIVE_ALL ? 1 : 97;
            for (uint64_t i = 0; i < all; i += step) {
                nk_pos p;
                nk_tb_entry_pos(&tb, b, i, &p);
                p.hash = nk_pos_hash(&p);
                uint8_t byte;
                assert_int_equal(nk_tb_probe(&tb, &p, &byte), NK_OK);
                if (!(byte & NK_TB_CYCLE) || nk_pos_end(&tb.rules, &p) != NK_END_NONE)
                    continue;
                static naive s;
                s = (naive){.v = &tb.rules, .budget = 20000};
                s.path[0] = p;
                int want[NK_PASS + 1];
                const unsigned legal = nk_legal(&tb.rules, &p);
                for (unsigned m = legal; m; m &= m - 1)
                    want[__builtin_ctz(m)] = naive_value(&s, 1, __builtin_ctz(m));
                if (s.nodes > s.budget) {
                    undecided++;
                    continue;
                }
                nk_tb_region *r;
                assert_int_equal(nk_tb_region_new(&r, &tb, &p, 0, err, sizeof err), NK_OK);
                nk_tb_bounds x;
                assert_int_equal(nk_tb_region_bounds(r, &p, &x), NK_OK);
                nk_solve_history h, tight;
                assert_int_equal(nk_solve_with_history(&tb, r, &p, 1000000, &h, err, sizeof err),
                                 NK_OK);
                assert_int_equal(nk_solve_with_history(&tb, r, &p, 3, &tight, err, sizeof err),
                                 NK_OK);
                assert_int_equal(h.mask, legal);
                int best = -1;
                for (unsigned m = legal; m; m &= m - 1) {
                    const int k = __builtin_ctz(m);
                    best = want[k] > best ? want[k] : best;
                    if (h.lo[k] != want[k] || h.hi[k] != want[k]) {
                        char text[NK_POS_TEXT];
                        nk_pos_format(&p, text);
                        print_error("%s %s move %c: history [%d, %d], naive %d\n", variants[vi],
                                    text, nk_move_letter(k), h.lo[k], h.hi[k], want[k]);
                        fail();
                    }
                    assert_true(tight.lo[k] <= want[k] && want[k] <= tight.hi[k]);
                }
                assert_int_equal(h.root_lo, best);
                assert_int_equal(h.root_hi, best);
                assert_true(x.lo_any <= best && best <= x.hi_any);
                off += (best != (byte & NK_TB_VALUE_MASK));
                compared++;
                nk_tb_region_free(r);
            }
        }
        printf("%-10s %llu marked positions compared with a plain search with history "
               "(%llu of them differ from the database), %llu beyond its budget\n",
               variants[vi], (unsigned long long)compared, (unsigned long long)off,
               (unsigned long long)undecided);
        assert_true(compared > 0);
        nk_tb_close(&tb);
    }
}

static void test_bad_calls(void **state)
{
    (void)state;
    char err[NK_MSG_MAX];
    nk_tb two, one;
    build(&two, "speightstown", 3);
    build(&one, "abapa", 6);
    nk_pos p;
    nk_tb_region *r = (nk_tb_region *)&p;
    nk_tb_entry_pos(&two, 3, 5, &p);
    assert_int_equal(nk_tb_region_new(&r, &two, &p, 0, err, sizeof err), NK_EINVAL);
    assert_null(r);
    nk_tb_region_free(NULL);
    /* a 7-seed position beyond the 6-seed database */
    assert_int_equal(nk_pos_parse(&p, "1,1,1,1,1,1/1,0,0,0,0,0 0-0 S", err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_region_new(&r, &one, &p, 0, err, sizeof err), NK_ERANGE);
    /* a marked 6-seed position: its region holds more than 2 */
    uint64_t i = 0;
    uint8_t byte = 0;
    for (; i < nk_tb_count(6); i++) {
        nk_tb_entry_pos(&one, 6, i, &p);
        nk_tb_probe(&one, &p, &byte);
        if ((byte & NK_TB_CYCLE) && nk_pos_end(&one.rules, &p) == NK_END_NONE)
            break;
    }
    assert_true(i < nk_tb_count(6));
    assert_int_equal(nk_tb_region_new(&r, &one, &p, 2, err, sizeof err), NK_ERANGE);
    assert_non_null(strstr(err, "more than 2"));
    assert_int_equal(nk_tb_region_new(&r, &one, &p, 0, err, sizeof err), NK_OK);
    nk_solve_history h;
    assert_int_equal(nk_solve_with_history(&one, r, &p, 0, &h, err, sizeof err), NK_ERANGE);
    /* a marked position of another count is not reachable from a 3-seed one */
    nk_pos q;
    for (i = 0; i < nk_tb_count(3); i++) {
        nk_tb_entry_pos(&one, 3, i, &q);
        nk_tb_probe(&one, &q, &byte);
        if ((byte & NK_TB_CYCLE) && nk_pos_end(&one.rules, &q) == NK_END_NONE)
            break;
    }
    nk_tb_region *small;
    assert_int_equal(nk_tb_region_new(&small, &one, &q, 0, err, sizeof err), NK_OK);
    nk_tb_bounds x;
    assert_int_equal(nk_tb_region_bounds(small, &p, &x), NK_EMISMATCH);
    nk_tb_region_free(small);
    nk_tb_region_free(r);
    nk_tb_close(&one);
    nk_tb_close(&two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries),
        cmocka_unit_test(test_bounds_reproduce_values),
        cmocka_unit_test(test_history_against_naive),
        cmocka_unit_test(test_bad_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
