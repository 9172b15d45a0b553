/*
 * test_tb_solve.c -- solving beyond an endgame database (search/solve.h).
 *
 * - One plane (abapa): random positions of 5 to 7 board seeds, solved
 *   beyond a 3-seed database, against the 7-seed database.  With a budget
 *   that decides them, every exact value (the position's and each move's)
 *   is the larger database's; with a tight budget every bound holds it,
 *   and some are left open.  Values that rest on the repetition rule (the
 *   database's NK_TB_CYCLE, or the solve's cycle) may differ, as in
 *   test_tb.c (docs/tablebase.md, "Cycles"): the sample takes positions
 *   whose value does not, and skips the moves whose values do.
 * - Two planes (speightstown): the same for what each side can force
 *   himself to collect, against nk_tb_probe_pair and nk_tb_move_pairs of
 *   the larger database (no cycle treatment there: every value is
 *   compared), and the outcomes the bounds allow hold its outcome.
 * - Bad calls: a database of the other kind, a zero budget.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "search/solve.h"

enum { SMALL = 3, LARGE = 5, POSITIONS = 24 };

typedef struct dbs {
    nk_tb small, large;
} dbs;

static void build(dbs *d, const char *variant)
{
    const nk_variant *v = nk_variant_find(variant);
    char err[NK_MSG_MAX];
    assert_non_null(v);
    assert_int_equal(nk_tb_build(&d->small, v, SMALL, 0, NULL, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_build(&d->large, v, LARGE, 0, NULL, err, sizeof err), NK_OK);
}

static void unbuild(dbs *d)
{
    nk_tb_close(&d->small);
    nk_tb_close(&d->large);
}

/* Position k of the sample: SMALL + 2 to LARGE board seeds, either side
 * to move, empty stores, a live game. */
static bool sample(const nk_tb *tb, uint64_t *x, nk_pos *p)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    unsigned b = SMALL + 1 + (unsigned)((*x >> 33) % (LARGE - SMALL));
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    memset(p, 0, sizeof *p);
    nk_tb_unrank(b, (*x >> 20) % nk_tb_count(b), p->pit);
    p->north = tb->pat[0];
    p->side = (uint8_t)((*x >> 50) & 1u);
    p->hash = nk_pos_hash(p);
    nk_game g;
    return nk_game_init(&g, &tb->rules, p, NK_MAX_PLIES) == NK_OK && !nk_game_over(&g);
}

typedef struct counts {
    unsigned exact, open, cycle;
} counts;

/* One plane: the solve of p beyond d->small against d->large. */
static void check_values(const dbs *d, const nk_pos *p, uint64_t budget, counts *c)
{
    nk_solve sv;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_solve_beyond(&d->small, p, budget, &sv, err, sizeof err), NK_OK);
    uint8_t byte;
    assert_int_equal(nk_tb_probe(&d->large, p, &byte), NK_OK);
    unsigned mask, cyc;
    int val[NK_PASS + 1];
    assert_int_equal(nk_tb_move_values(&d->large, p, &mask, val, &cyc), NK_OK);
    assert_int_equal(sv.mask, mask);
    assert_true(sv.lo <= sv.hi);
    if (byte & NK_TB_CYCLE) {
        c->cycle++;
    } else {
        const int v = byte & NK_TB_VALUE_MASK;
        if (sv.lo > v || v > sv.hi)
            fail_msg("value %d outside [%d, %d]", v, sv.lo, sv.hi);
        c->exact += sv.lo == sv.hi;
        c->open += sv.lo != sv.hi;
    }
    for (unsigned m = mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        const nk_solve_move *x = &sv.move[move];
        assert_true(x->lo <= x->hi);
        assert_int_equal(x->exact, x->lo == x->hi);
        if (x->cycle || ((cyc >> move) & 1u))
            continue;
        if (x->lo > val[move] || val[move] > x->hi)
            fail_msg("move %d: %d outside [%d, %d]", move, val[move], x->lo, x->hi);
    }
}

static void test_one_plane(void **state)
{
    (void)state;
    dbs d;
    build(&d, "abapa");
    counts decided = {0}, tight = {0};
    uint64_t x = 0x243F6A8885A308D3ull;
    for (int n = 0; n < POSITIONS;) {
        nk_pos p;
        uint8_t byte;
        if (!sample(&d.small, &x, &p) || nk_tb_probe(&d.large, &p, &byte) != NK_OK ||
            (byte & NK_TB_CYCLE))
            continue; /* values on cycles may differ (see above) */
        check_values(&d, &p, 200000, &decided);
        check_values(&d, &p, 10, &tight);
        n++;
    }
    printf("  decided budget: %u exact, %u open, %u on cycles; tight: %u exact, %u open\n",
           decided.exact, decided.open, decided.cycle, tight.exact, tight.open);
    assert_true(decided.exact >= POSITIONS / 2);
    assert_int_equal(decided.open, 0);
    assert_true(tight.open > 0);
    unbuild(&d);
}

/* Two planes: the solve of p beyond d->small against d->large. */
static void check_pairs(const dbs *d, const nk_pos *p, uint64_t budget, counts *c)
{
    nk_solve_pairs sv;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_solve_beyond_planes(&d->small, p, budget, &sv, err, sizeof err), NK_OK);
    uint8_t byte;
    int theirs;
    assert_int_equal(nk_tb_probe_pair(&d->large, p, &byte, &theirs), NK_OK);
    const int want[2] = {byte & NK_TB_VALUE_MASK, theirs};
    for (int k = 0; k < 2; k++)
        if (sv.lo[k] > want[k] || want[k] > sv.hi[k])
            fail_msg("side %d: %d outside [%d, %d]", k, want[k], sv.lo[k], sv.hi[k]);
    const bool exact = sv.lo[0] == sv.hi[0] && sv.lo[1] == sv.hi[1];
    c->exact += exact;
    c->open += !exact;
    int worst, best;
    nk_solve_pair_outcomes(&d->small, p, sv.lo, sv.hi, &worst, &best);
    const int out = nk_tb_outcome(&d->large, p, want[0], want[1]);
    assert_true(worst <= out && out <= best);
    unsigned mask;
    int mine[NK_PASS + 1], other[NK_PASS + 1];
    assert_int_equal(nk_tb_move_pairs(&d->large, p, &mask, mine, other, NULL), NK_OK);
    assert_int_equal(sv.mask, mask);
    for (unsigned m = mask; m; m &= m - 1) {
        const nk_solve_pair *x = &sv.move[__builtin_ctz(m)];
        const int w[2] = {mine[__builtin_ctz(m)], other[__builtin_ctz(m)]};
        for (int k = 0; k < 2; k++)
            if (x->lo[k] > w[k] || w[k] > x->hi[k])
                fail_msg("move %d side %d: %d outside [%d, %d]", __builtin_ctz(m), k, w[k],
                         x->lo[k], x->hi[k]);
    }
}

static void test_two_planes(void **state)
{
    (void)state;
    dbs d;
    build(&d, "speightstown");
    assert_int_equal(d.small.planes, 2);
    counts decided = {0}, tight = {0};
    uint64_t x = 0x13198A2E03707344ull;
    for (int n = 0; n < POSITIONS;) {
        nk_pos p;
        if (!sample(&d.small, &x, &p))
            continue;
        check_pairs(&d, &p, 200000, &decided);
        check_pairs(&d, &p, 10, &tight);
        n++;
    }
    printf("  decided budget: %u exact, %u open; tight: %u exact, %u open\n", decided.exact,
           decided.open, tight.exact, tight.open);
    assert_true(decided.exact >= POSITIONS / 4);
    assert_true(tight.open > 0);
    unbuild(&d);
}

static void test_bad_calls(void **state)
{
    (void)state;
    char err[NK_MSG_MAX];
    nk_tb one, two;
    assert_int_equal(nk_tb_build(&one, nk_variant_find("abapa"), 2, 1, NULL, err, sizeof err),
                     NK_OK);
    assert_int_equal(
        nk_tb_build(&two, nk_variant_find("speightstown"), 2, 1, NULL, err, sizeof err), NK_OK);
    nk_pos p;
    assert_int_equal(nk_pos_parse(&p, "1,1,0,0,0,1/1,0,0,1,0,0 0-0 S", err, sizeof err), NK_OK);
    nk_solve sv;
    nk_solve_pairs sp;
    assert_int_equal(nk_solve_beyond(&two, &p, 100, &sv, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "plane"));
    assert_int_equal(nk_solve_beyond_planes(&one, &p, 100, &sp, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "plane"));
    assert_int_equal(nk_solve_beyond(&one, &p, 0, &sv, err, sizeof err), NK_ERANGE);
    assert_non_null(strstr(err, "budget"));
    assert_null(strchr(err, '\n'));
    assert_int_equal(nk_solve_beyond(&one, &p, 100, &sv, err, sizeof err), NK_OK);
    nk_tb_close(&one);
    nk_tb_close(&two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_plane),
        cmocka_unit_test(test_two_planes),
        cmocka_unit_test(test_bad_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
