/*
 * test_rules_examples.c -- every worked example of docs/rules.md section 5,
 * verbatim: positions, moves, totals, reasons, resulting positions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "reference/testlib.c"

/* "Start 0,0,2,0,0,3/1,2,1,0,0,0 17-22 S, South plays f" */
static const char *const one_pos = "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S";

/* "the three seeds land in A, B, C, making 2, 3, 2; the chain captures all
 * three pits (7 seeds), emptying North's row -- a grand slam." */
static nk_game *play_f(const char *variant, unsigned captured)
{
    nk_game *g = tl_game(tl_variant_named(variant), one_pos, 0);
    tl_expect_legal(g, "c f");
    nk_ply_info info = tl_play1(g, 'f');
    assert_true(info.grand_slam);
    assert_int_equal(info.captured, captured);
    assert_int_equal(g->ply, 1);
    return g;
}

/* "antigua: South has 24 and plays again (R-W8); c cannot reach North's
 * row, so R-W7 ends the game: South takes the 2 seeds left. South 26,
 * North 22: South wins, reason no-feed." */
static void test_R_W5_R_W7_R_W8_example_antigua(void **state)
{
    (void)state;
    nk_game *g = play_f("antigua", 7);
    tl_expect_pos(g, "0,0,2,0,0,0/0,0,0,0,0,0 24-22 S");
    assert_int_equal(g->pos.store[NK_SOUTH], 24);
    assert_int_equal(g->pos.side, NK_SOUTH); /* plays again */
    /* c (2) reaches d, e only: no feeding move. */
    assert_int_equal(nk_legal(g->variant, &g->pos), 0);
    tl_expect_result(g, "no-feed", 'S', 26, 22);
    free(g);
}

/* "speightstown: North to move with an empty row (R-W9): North, the starved
 * player, takes the 2 seeds: 24-24, neither has 25: draw, reason
 * empty-row." */
static void test_R_W9_R_W12_example_speightstown(void **state)
{
    (void)state;
    nk_game *g = play_f("speightstown", 7);
    tl_expect_pos(g, "0,0,2,0,0,0/0,0,0,0,0,0 24-22 N");
    tl_expect_result(g, "empty-row", 'D', 24, 24);
    free(g);
}

/* "bridgetown: R-W9 and R-W11: one seed each: 25-23, South wins." */
static void test_R_W9_R_W11_example_bridgetown(void **state)
{
    (void)state;
    nk_game *g = play_f("bridgetown", 7);
    tl_expect_pos(g, "0,0,2,0,0,0/0,0,0,0,0,0 24-22 N");
    tl_expect_result(g, "empty-row", 'S', 25, 23);
    free(g);
}

/* "abapa: grand slam captures nothing (R-W5); the game goes on from
 * 0,0,2,0,0,0/2,3,2,0,0,0 17-22 N." */
static void test_R_W5_example_abapa(void **state)
{
    (void)state;
    nk_game *g = play_f("abapa", 0);
    tl_expect_pos(g, "0,0,2,0,0,0/2,3,2,0,0,0 17-22 N");
    tl_expect_result(g, "none", 0, 0, 0);
    tl_expect_legal(g, "A B C");
    free(g);
}

/* "awari: the grand slam captures the 7 seeds (R-W5) and it is North's turn
 * (no extra move, R-W8): 0,0,2,0,0,0/0,0,0,0,0,0 24-22 N. North's row is
 * empty, so R-W9 ends the game and the 2 seeds on the board go to South:
 * South 26, North 22, South wins, reason empty-row." */
static void test_R_W5_R_W9_example_awari(void **state)
{
    (void)state;
    nk_game *g = play_f("awari", 7);
    tl_expect_pos(g, "0,0,2,0,0,0/0,0,0,0,0,0 24-22 N");
    tl_expect_result(g, "empty-row", 'S', 26, 22);
    free(g);
    /* A grand slam in a full 48-seed game, worked by hand: from
     * 10,10,5,4,3,3/1,1,2,0,0,0 4-5 S (35 + 4 + 4 + 5 = 48) South plays f:
     * its 3 seeds land in A (1 -> 2), B (1 -> 2) and C (2 -> 3); the chain
     * runs back from C: 3 + 2 + 2 = 7 seeds, and D, E, F are empty, so
     * North's row is empty.  awari captures them: South's store 4 + 7 = 11,
     * North to move with an empty row, and R-W9 gives the 32 seeds on the
     * board to South: 43 to 5. */
    g = tl_game(tl_variant_named("awari"), "10,10,5,4,3,3/1,1,2,0,0,0 4-5 S", 0);
    nk_ply_info info = tl_play1(g, 'f');
    assert_true(info.grand_slam);
    assert_int_equal(info.captured, 7);
    tl_expect_pos(g, "10,10,5,4,3,0/0,0,0,0,0,0 11-5 N");
    tl_expect_result(g, "empty-row", 'S', 43, 5);
    free(g);
    /* The same move in abapa captures nothing and North plays on. */
    g = tl_game(tl_variant_named("abapa"), "10,10,5,4,3,3/1,1,2,0,0,0 4-5 S", 0);
    info = tl_play1(g, 'f');
    assert_true(info.grand_slam);
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "10,10,5,4,3,0/2,2,3,0,0,0 4-5 N");
    tl_expect_result(g, "none", 0, 0, 0);
    free(g);
}

/* "0,0,0,0,0,2/0,1,0,0,0,0 0-0 S (a test position; totals need not be 48),
 * South plays f: seeds land in A (0->1) and B (1->2); B was occupied and
 * does not hold 4, so its 2 seeds are lifted and sown into C and D; D was
 * empty: the move ends at 0,0,0,0,0,0/1,0,1,1,0,0 0-0 N." */
static void test_R_K2_example_relay(void **state)
{
    (void)state;
    nk_game *g = tl_game(tl_variant_named("adjikui"),
                         "0,0,0,0,0,2/0,1,0,0,0,0 0-0 S", 0);
    tl_expect_result(g, "none", 0, 0, 0);
    tl_expect_legal(g, "f");
    nk_ply_info info = tl_play1(g, 'f');
    assert_int_equal(info.laps, 2);
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "0,0,0,0,0,0/1,0,1,1,0,0 0-0 N");
    tl_expect_result(g, "none", 0, 0, 0);
    free(g);
}

/* "0,0,0,2,0,3/0,0,0,0,0,0 0-0 S, South plays d: e 0->1, f 3->4: a four on
 * the mover's own side ends the move without capture:
 * 0,0,0,0,1,4/0,0,0,0,0,0 0-0 N, and North, with no pit of 2 or more,
 * passes." */
static void test_R_K2_R_K4_example_own_four_then_pass(void **state)
{
    (void)state;
    nk_game *g = tl_game(tl_variant_named("adjikui"),
                         "0,0,0,2,0,3/0,0,0,0,0,0 0-0 S", 0);
    nk_ply_info info = tl_play1(g, 'd');
    assert_int_equal(info.captured, 0);
    assert_int_equal(info.laps, 1);
    tl_expect_pos(g, "0,0,0,0,1,4/0,0,0,0,0,0 0-0 N");
    tl_expect_legal(g, "-");
    tl_play(g, "-");
    tl_expect_pos(g, "0,0,0,0,1,4/0,0,0,0,0,0 0-0 S");
    tl_expect_result(g, "none", 0, 0, 0);
    free(g);
}

/* "Match: South wins a game 31-17. 31 - 24 = 7 = 4*1 + 3, so South keeps
 * a..f, buys A, and (r = 3) also gets B; North owns C..F (floor(17/4) = 4
 * pits). Owners field: SSSSSSSSNNNN." */
static void test_R_K9_example_match_buy(void **state)
{
    (void)state;
    uint16_t north = nk_adjikui_buy(NK_SOUTH, 31, 17);
    nk_pos p;
    nk_pos_start(&p, NK_SOUTH);
    p.north = north;
    p.hash = nk_pos_hash(&p);
    char text[NK_POS_TEXT];
    nk_pos_format(&p, text);
    assert_string_equal(text, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSSSNNNN");
    /* Through a match: the game's result gives the next game's owners. */
    nk_match m;
    nk_match_init(&m, tl_variant_named("adjikui"), 0, 10);
    nk_result r = {NK_END_PASSES, NK_SOUTH, {31, 17}};
    nk_match_record(&m, &r);
    nk_match_next(&m, &p);
    nk_pos_format(&p, text);
    assert_string_equal(text, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N SSSSSSSSNNNN");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R_W5_R_W7_R_W8_example_antigua),
        cmocka_unit_test(test_R_W9_R_W12_example_speightstown),
        cmocka_unit_test(test_R_W9_R_W11_example_bridgetown),
        cmocka_unit_test(test_R_W5_example_abapa),
        cmocka_unit_test(test_R_W5_R_W9_example_awari),
        cmocka_unit_test(test_R_K2_example_relay),
        cmocka_unit_test(test_R_K2_R_K4_example_own_four_then_pass),
        cmocka_unit_test(test_R_K9_example_match_buy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
