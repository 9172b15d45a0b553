/*
 * test_rules_adjikui.c -- docs/rules.md section 3, Adji Kui II (R-K1..R-K10).
 *
 * Expected positions were worked out by hand from docs/rules.md (the comments
 * show the relay step by step) and agree with the reference implementation
 * (tests/reference/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "reference/testlib.c"

static const nk_variant *adji(void)
{
    return tl_variant_named("adjikui");
}

static nk_game *game(const char *pos)
{
    return tl_game(adji(), pos, 0);
}

/* ===== R-K1: which pits may be sown ===== */

static void test_R_K1_owned_pits_with_two_or_more(void **state)
{
    (void)state;
    nk_game *g = game("1,2,0,3,1,5/2,2,2,2,2,2 0-0 S");
    tl_expect_legal(g, "b d f");
    char err[256] = "";
    /* A single seed cannot be sown. */
    assert_int_equal(nk_game_play(g, 0, NULL, err, sizeof err), NK_EILLEGAL);
    assert_int_equal(nk_game_play(g, 4, NULL, err, sizeof err), NK_EILLEGAL);
    /* Nor an opponent's pit, nor a pass while a move exists. */
    assert_int_equal(nk_game_play(g, 6, NULL, err, sizeof err), NK_EILLEGAL);
    assert_int_equal(nk_game_play(g, NK_PASS, NULL, err, sizeof err),
                     NK_EILLEGAL);
    free(g);
}

static void test_R_K1_bought_pits_may_be_sown(void **state)
{
    (void)state;
    /* South owns A as well. */
    nk_game *g = game("1,2,0,3,1,5/2,2,2,2,2,2 0-0 S SSSSSSSNNNNN");
    tl_expect_legal(g, "b d f A");
    free(g);
    g = game("1,2,0,3,1,5/2,2,2,2,2,2 0-0 N SSSSSSSNNNNN");
    tl_expect_legal(g, "B C D E F");
    free(g);
    /* North owns a and b. */
    g = game("2,2,2,2,2,2/2,2,2,2,2,2 0-0 N NNSSSSNNNNNN");
    tl_expect_legal(g, "a b A B C D E F");
    free(g);
}

/* ===== R-K2: relay sowing ===== */

/* Case 1: the last seed makes four in an opponent's pit: captured. */
static void test_R_K2_capture_four_in_opponents_pit(void **state)
{
    (void)state;
    /* e (2): f 0->1, A 3->4, North's: captured; 9 seeds stay. */
    nk_game *g = game("0,0,0,0,2,0/3,0,2,2,2,2 0-0 S");
    nk_ply_info info = tl_play1(g, 'e');
    assert_int_equal(info.captured, 4);
    assert_int_equal(info.laps, 1);
    tl_expect_pos(g, "0,0,0,0,0,1/0,0,2,2,2,2 4-0 N");
    tl_expect_result(g, "none", 0, 0, 0);
    free(g);
}

/* Case 2: the last seed lands in an empty pit; case 4: relay. */
static void test_R_K2_relay_until_an_empty_pit(void **state)
{
    (void)state;
    /* f (13): A..F, a..e, f (the 12th seed lands in the origin, which is
     * not skipped), A: A = 2 -> relay B 2, C 2 -> relay D 2, E 2 -> relay
     * F 2, a 2 -> relay b 2, c 2 -> relay d 2, e 2 -> relay f 2, A 0->1:
     * the move ends after 7 laps. */
    nk_game *g = game("0,0,0,0,0,13/0,0,0,0,0,0 0-0 S");
    nk_ply_info info = tl_play1(g, 'f');
    assert_int_equal(info.laps, 7);
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "0,2,0,2,0,2/1,2,0,2,0,2 0-0 N");
    free(g);
}

/* No pit is skipped: 12 seeds go once round and the last lands in the
 * (emptied) origin. */
static void test_R_K2_lap_sows_into_its_origin(void **state)
{
    (void)state;
    nk_game *g = game("0,0,0,0,0,12/0,0,0,0,0,0 0-0 S");
    nk_ply_info info = tl_play1(g, 'f');
    assert_int_equal(info.laps, 1);
    tl_expect_pos(g, "1,1,1,1,1,1/1,1,1,1,1,1 0-0 N");
    free(g);
}

/* Case 3: a four in the mover's own pit ends the move, no capture. */
static void test_R_K2_own_four_ends_without_capture(void **state)
{
    (void)state;
    /* South owns A: e (2): f 1, A 3->4: South's own pit. */
    nk_game *g = game("0,0,0,0,2,0/3,0,2,2,2,0 0-0 S SSSSSSSNNNNN");
    nk_ply_info info = tl_play1(g, 'e');
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "0,0,0,0,0,1/4,0,2,2,2,0 0-0 N SSSSSSSNNNNN");
    free(g);
}

/* Capture follows ownership: a four made in a bought pit is captured by
 * the buyer's opponent, that is the original owner. */
static void test_R_K2_capture_follows_ownership(void **state)
{
    (void)state;
    /* South owns A; North's F (7): a..f 1 each, A 3->4 (South's): North
     * captures. */
    nk_game *g = game("0,0,0,0,0,0/3,0,2,2,2,7 0-0 N SSSSSSSNNNNN");
    nk_ply_info info = tl_play1(g, 'F');
    assert_int_equal(info.captured, 4);
    tl_expect_pos(g, "1,1,1,1,1,1/0,0,2,2,2,0 0-4 S SSSSSSSNNNNN");
    free(g);
}

/* Fours formed in passing stay on the board. */
static void test_R_K2_fours_in_passing_stay(void **state)
{
    (void)state;
    /* f (3): A 3->4 in passing, B 0->1, C 0->1: ends in C. */
    nk_game *g = game("0,0,0,0,0,3/3,0,0,0,0,0 0-0 S");
    nk_ply_info info = tl_play1(g, 'f');
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "0,0,0,0,0,0/4,1,1,0,0,0 0-0 N");
    free(g);
}

/* ===== R-K3: endless relays ===== */

static void test_R_K3_default_max_laps(void **state)
{
    (void)state;
    assert_int_equal(adji()->max_laps, 1000);
    assert_int_equal(adji()->min_sow, 2);
}

/* a's relay never ends (it cycles): not legal; South, with no other pit
 * of two, passes. */
static void test_R_K3_endless_relay_is_not_legal(void **state)
{
    (void)state;
    static const char *pos = "2,0,1,0,1,0/1,3,2,1,0,1 0-0 S";
    nk_game *g = game(pos);
    tl_expect_legal(g, "-");
    char err[256] = "";
    assert_int_equal(nk_game_play(g, 0, NULL, err, sizeof err), NK_EILLEGAL);
    tl_play(g, "-");
    tl_expect_pos(g, "2,0,1,0,1,0/1,3,2,1,0,1 0-0 N");
    free(g);
    /* It is a true cycle: a hundred times the limit does not end it. */
    nk_variant big = *adji();
    big.max_laps = 100000;
    nk_pos p;
    tl_pos(&p, pos);
    assert_int_equal(nk_legal(&big, &p), 1u << NK_PASS);
    assert_false(nk_apply(&big, &p, 0, NULL));
}

static void test_R_K3_endless_move_beside_a_legal_one(void **state)
{
    (void)state;
    nk_game *g = game("0,2,1,2,0,1/0,2,1,0,2,1 0-0 S");
    tl_expect_legal(g, "b"); /* d is endless */
    free(g);
}

/* A move that ends on lap max_laps is legal; one lap more is endless. */
static void test_R_K3_lap_limit_boundary(void **state)
{
    (void)state;
    nk_variant v = *adji();
    nk_pos p;
    /* The relay of docs/rules.md section 5 takes 2 laps. */
    tl_pos(&p, "0,0,0,0,0,2/0,1,0,0,0,0 0-0 S");
    v.max_laps = 2;
    assert_int_equal(nk_legal(&v, &p), 1u << 5);
    v.max_laps = 1;
    assert_int_equal(nk_legal(&v, &p), 1u << NK_PASS);
    /* 13 seeds from f take 7 laps. */
    tl_pos(&p, "0,0,0,0,0,13/0,0,0,0,0,0 0-0 S");
    v.max_laps = 7;
    assert_int_equal(nk_legal(&v, &p), 1u << 5);
    nk_pos q = p;
    nk_ply_info info;
    assert_true(nk_apply(&v, &q, 5, &info));
    assert_int_equal(info.laps, 7);
    v.max_laps = 6;
    assert_int_equal(nk_legal(&v, &p), 1u << NK_PASS);
    /* In a game with that variant, South passes. */
    nk_game *g = tl_game(&v, "0,0,0,0,0,13/0,0,0,0,0,0 0-0 S", 0);
    tl_expect_legal(g, "-");
    free(g);
}

/* ===== R-K4: passes ===== */

static void test_R_K4_pass_when_no_move(void **state)
{
    (void)state;
    nk_game *g = game("1,1,1,1,1,1/1,1,1,1,1,2 0-0 S");
    tl_expect_legal(g, "-");
    nk_ply_info info = tl_play1(g, '-');
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "1,1,1,1,1,1/1,1,1,1,1,2 0-0 N");
    tl_expect_legal(g, "F");
    free(g);
}

static void test_R_K4_two_passes_in_a_row_end_the_game(void **state)
{
    (void)state;
    nk_game *g = game("1,1,1,1,1,1/1,1,1,1,1,1 0-0 S");
    tl_play(g, "-");
    tl_expect_result(g, "none", 0, 0, 0);
    tl_play(g, "-");
    tl_expect_pos(g, "1,1,1,1,1,1/1,1,1,1,1,1 0-0 S");
    tl_expect_result(g, "passes", 'D', 6, 6);
    assert_int_equal(g->ply, 2);
    free(g);
}

/* Passes separated by a move are not "in a row". */
static void test_R_K4_passes_not_in_a_row(void **state)
{
    (void)state;
    /* South owns no pit and always passes. */
    nk_game *g = game("0,0,0,0,0,0/2,0,0,0,2,0 0-0 S NNNNNNNNNNNN");
    tl_play(g, "- A - E -");
    tl_expect_pos(g, "1,0,0,0,0,0/0,1,1,0,0,1 0-0 N NNNNNNNNNNNN");
    tl_expect_result(g, "none", 0, 0, 0);
    tl_expect_legal(g, "-");
    tl_play(g, "-");
    tl_expect_result(g, "passes", 'N', 0, 4);
    assert_int_equal(g->ply, 6);
    free(g);
}

/* ===== R-K5: few seeds ===== */

static void test_R_K5_eight_or_fewer_after_a_capture(void **state)
{
    (void)state;
    /* f (2): A 1, B 3->4 captured: 8 seeds left: the game ends; each takes
     * his pits: South 4 + 0, North 1 + 1 + 3 + 3. */
    nk_game *g = game("0,0,0,0,0,2/0,3,1,3,3,0 0-0 S");
    tl_play(g, "f");
    tl_expect_pos(g, "0,0,0,0,0,0/1,0,1,3,3,0 4-0 N");
    tl_expect_result(g, "few-seeds", 'N', 4, 8);
    free(g);
    /* With 9 left it goes on. */
    g = game("0,0,0,0,0,2/0,3,1,3,3,1 0-0 S");
    tl_play(g, "f");
    tl_expect_pos(g, "0,0,0,0,0,0/1,0,1,3,3,1 4-0 N");
    tl_expect_result(g, "none", 0, 0, 0);
    free(g);
}

/* Few seeds without a capture do not end the game. */
static void test_R_K5_needs_a_capture(void **state)
{
    (void)state;
    nk_game *g = game("0,0,0,0,0,2/0,1,0,0,0,0 0-0 S");
    tl_expect_result(g, "none", 0, 0, 0);
    tl_play(g, "f");
    tl_expect_result(g, "none", 0, 0, 0);
    free(g);
}

/* ===== R-K6: at any end each takes the seeds of his pits ===== */

static void test_R_K6_each_takes_owned_pits(void **state)
{
    (void)state;
    /* After two passes: South owns a..f and A (3 seeds), North B..F (2). */
    nk_game *g = game("1,1,0,0,0,0/1,1,1,0,0,0 10-5 S SSSSSSSNNNNN");
    tl_play(g, "- -");
    tl_expect_result(g, "passes", 'S', 13, 7);
    free(g);
    /* North owns a; South owns b..f and A: South 0 + 2, North 3 + 1. */
    nk_pos p;
    tl_pos(&p, "3,0,0,0,0,0/2,0,0,0,0,1 5-7 N NSSSSSSNNNNN");
    static const nk_end reasons[] = {NK_END_FEW_SEEDS, NK_END_PASSES,
                                     NK_END_REPETITION, NK_END_PLY_LIMIT};
    for (int i = 0; i < 4; i++) {
        nk_result r;
        nk_pos_result(adji(), &p, reasons[i], &r);
        assert_int_equal(r.total[NK_SOUTH], 7);
        assert_int_equal(r.total[NK_NORTH], 11);
        assert_int_equal(r.winner, NK_NORTH);
    }
}

/* ===== R-K7: repetition ===== */

/* A 10-ply cycle with passes and relays; the position after each pass has
 * the pits of the one before it but the other side to move, which is not a
 * repetition. */
static void test_R_K7_repetition(void **state)
{
    (void)state;
    static const char *pos = "0,1,0,0,2,0/1,1,0,0,1,0 20-20 S";
    nk_game *g = game(pos);
    static const char *moves = "eB-C-Da-d";
    for (const char *m = moves; *m; m++) {
        tl_play1(g, *m);
        tl_expect_result(g, "none", 0, 0, 0);
    }
    tl_expect_pos(g, "0,1,0,0,2,0/1,1,0,0,1,0 20-20 N");
    tl_play(g, "-");
    tl_expect_pos(g, pos);
    assert_int_equal(g->ply, 10);
    tl_expect_result(g, "repetition", 'D', 23, 23);
    free(g);
}

/* The same pits with other owners are another position. */
static void test_R_K7_owners_are_part_of_the_position(void **state)
{
    (void)state;
    nk_pos a, b;
    tl_pos(&a, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
    tl_pos(&b, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSSNNNNN");
    assert_true(a.hash != b.hash);
    assert_true(nk_pos_hash(&a) != nk_pos_hash(&b));
}

/* ===== R-K8: match, the first player alternates ===== */

static void test_R_K8_match_first_player_alternates(void **state)
{
    (void)state;
    nk_match m;
    nk_pos start;
    char text[NK_POS_TEXT];
    nk_match_init(&m, adji(), 0, 10);
    nk_result draw = {NK_END_PASSES, NK_DRAW, {24, 24}};
    for (int i = 0; i < 4; i++) {
        nk_match_next(&m, &start);
        nk_pos_format(&start, text);
        assert_string_equal(text, i % 2 == 0
                                      ? "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S"
                                      : "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N");
        nk_match_record(&m, &draw);
        assert_false(nk_match_over(&m));
    }
}

/* ===== R-K9: buying pits ===== */

static void test_R_K9_buy_worked_example(void **state)
{
    (void)state;
    /* South 31-17: 31 - 24 = 7 = 4*1 + 3: South keeps a..f, buys A and
     * (r = 3) B; North owns C..F. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 31, 17), 0xF00);
}

static void test_R_K9_buy_other_splits(void **state)
{
    (void)state;
    /* A draw: the default rows. */
    assert_int_equal(nk_adjikui_buy(NK_DRAW, 24, 24), NK_DEFAULT_NORTH);
    /* North 31-17: North keeps A..F, buys a and b. */
    assert_int_equal(nk_adjikui_buy(NK_NORTH, 31, 17), 0xFC3);
    /* 48-0: the winner owns every pit. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 48, 0), 0x000);
    assert_int_equal(nk_adjikui_buy(NK_NORTH, 48, 0), 0xFFF);
    /* 25-23: 1 = 4*0 + 1: the pit between (A) goes to the loser, who owns
     * floor(23/4) = 5 pits B..F plus A: the default rows. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 25, 23), NK_DEFAULT_NORTH);
    /* 26-22: r = 2, A to the loser. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 26, 22), NK_DEFAULT_NORTH);
    /* 27-21: r = 3, A to the winner; loser B..F. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 27, 21), 0xF80);
    /* 28-20: k = 1, r = 0: A bought; loser floor(20/4) = 5: B..F. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 28, 20), 0xF80);
    /* 29-19: k = 1, r = 1: A bought, B to the loser, who owns B..F. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 29, 19), 0xF80);
    /* 36-12: k = 3, r = 0: A, B, C bought; the loser D..F. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 36, 12), 0xE00);
    /* 47-1: k = 5, r = 3: A..E bought and F (r >= 3): South owns all. */
    assert_int_equal(nk_adjikui_buy(NK_SOUTH, 47, 1), 0x000);
    /* North 46-2: k = 5, r = 2: a..e bought, f (r = 2) stays South's. */
    assert_int_equal(nk_adjikui_buy(NK_NORTH, 46, 2), 0xFDF);
    /* North 33-15: k = 2, r = 1: a, b bought; c to the loser, who owns
     * c..f (floor(15/4) = 3 pits d..f plus c). */
    assert_int_equal(nk_adjikui_buy(NK_NORTH, 33, 15), 0xFC3);
    /* North 39-9: k = 3, r = 3: a, b, c and d to North; e, f South's. */
    assert_int_equal(nk_adjikui_buy(NK_NORTH, 39, 9), 0xFCF);
}

/* Every split of 48 against the reference, and the pit count identity. */
static void test_R_K9_buy_every_split(void **state)
{
    (void)state;
    for (int winner = 0; winner < 2; winner++) {
        for (int w = 25; w <= 48; w++) {
            int l = 48 - w, owner[12];
            ref_buy(winner, w, l, owner);
            unsigned want = 0;
            for (int i = 0; i < 12; i++)
                if (owner[i] == REF_NORTH)
                    want |= 1u << i;
            assert_int_equal(nk_adjikui_buy(winner, (unsigned)w, (unsigned)l),
                             want);
        }
    }
}

static void test_R_K9_match_uses_the_bought_pits(void **state)
{
    (void)state;
    nk_match m;
    nk_pos start;
    char text[NK_POS_TEXT];
    nk_match_init(&m, adji(), 0, 10);
    nk_result r = {NK_END_PASSES, NK_SOUTH, {31, 17}};
    nk_match_record(&m, &r);
    assert_false(nk_match_over(&m));
    assert_int_equal(m.north, 0xF00);
    nk_match_next(&m, &start);
    nk_pos_format(&start, text);
    assert_string_equal(text,
                        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N SSSSSSSSNNNN");
    assert_true(start.hash == nk_pos_hash(&start));
    /* Ownership is computed afresh from the last game: a North win 26-22
     * gives the default rows back. */
    nk_result back = {NK_END_PASSES, NK_NORTH, {22, 26}};
    nk_match_record(&m, &back);
    assert_int_equal(m.north, NK_DEFAULT_NORTH);
    /* A draw too. */
    nk_match_record(&m, &r);
    assert_int_equal(m.north, 0xF00);
    nk_result draw = {NK_END_PASSES, NK_DRAW, {24, 24}};
    nk_match_record(&m, &draw);
    assert_int_equal(m.north, NK_DEFAULT_NORTH);
}

/* ===== R-K10: end of the match ===== */

static void test_R_K10_match_ends_when_a_player_owns_no_pit(void **state)
{
    (void)state;
    nk_match m;
    nk_match_init(&m, adji(), 0, 10);
    nk_result r = {NK_END_FEW_SEEDS, NK_SOUTH, {48, 0}};
    nk_match_record(&m, &r);
    assert_true(nk_match_over(&m));
    assert_int_equal(m.winner, 0);
    /* North 47-1: r = 3 gives North the last pit too. */
    nk_match_init(&m, adji(), 0, 10);
    nk_result n = {NK_END_FEW_SEEDS, NK_NORTH, {1, 47}};
    nk_match_record(&m, &n);
    assert_true(nk_match_over(&m));
    assert_int_equal(m.winner, 1);
    /* North 46-2: South keeps f: not over. */
    nk_match_init(&m, adji(), 0, 10);
    nk_result n2 = {NK_END_FEW_SEEDS, NK_NORTH, {2, 46}};
    nk_match_record(&m, &n2);
    assert_false(nk_match_over(&m));
    assert_int_equal(m.north, 0xFDF);
}

static void test_R_K10_game_limit_more_pits_wins(void **state)
{
    (void)state;
    nk_match m;
    nk_result s = {NK_END_PASSES, NK_SOUTH, {31, 17}};
    nk_result n = {NK_END_PASSES, NK_NORTH, {17, 31}};
    nk_result d = {NK_END_PASSES, NK_DRAW, {24, 24}};
    /* One game, South 31-17: South will own 8 pits: South wins. */
    nk_match_init(&m, adji(), 0, 1);
    nk_match_record(&m, &s);
    assert_int_equal(m.winner, 0);
    /* South wins two, North the last: North will own 8 pits. */
    nk_match_init(&m, adji(), 1, 3);
    nk_match_record(&m, &s);
    nk_match_record(&m, &s);
    assert_false(nk_match_over(&m));
    nk_match_record(&m, &n);
    assert_int_equal(m.winner, 1);
    /* Ending on a draw: 6 pits each: drawn. */
    nk_match_init(&m, adji(), 0, 2);
    nk_match_record(&m, &s);
    nk_match_record(&m, &d);
    assert_int_equal(m.winner, NK_DRAW);
    /* A close win (25-23) leaves 6 pits each: drawn as well. */
    nk_result close = {NK_END_PASSES, NK_SOUTH, {25, 23}};
    nk_match_init(&m, adji(), 0, 1);
    nk_match_record(&m, &close);
    assert_int_equal(m.winner, NK_DRAW);
}

/* The Warri "first to 6 wins" (R-W13) is not an Adji Kui II rule. */
static void test_R_K10_six_wins_do_not_end_the_match(void **state)
{
    (void)state;
    nk_match m;
    nk_result close = {NK_END_PASSES, NK_SOUTH, {25, 23}};
    nk_match_init(&m, adji(), 0, 20);
    for (int i = 0; i < 10; i++)
        nk_match_record(&m, &close);
    assert_false(nk_match_over(&m));
    assert_int_equal(m.games, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R_K1_owned_pits_with_two_or_more),
        cmocka_unit_test(test_R_K1_bought_pits_may_be_sown),
        cmocka_unit_test(test_R_K2_capture_four_in_opponents_pit),
        cmocka_unit_test(test_R_K2_relay_until_an_empty_pit),
        cmocka_unit_test(test_R_K2_lap_sows_into_its_origin),
        cmocka_unit_test(test_R_K2_own_four_ends_without_capture),
        cmocka_unit_test(test_R_K2_capture_follows_ownership),
        cmocka_unit_test(test_R_K2_fours_in_passing_stay),
        cmocka_unit_test(test_R_K3_default_max_laps),
        cmocka_unit_test(test_R_K3_endless_relay_is_not_legal),
        cmocka_unit_test(test_R_K3_endless_move_beside_a_legal_one),
        cmocka_unit_test(test_R_K3_lap_limit_boundary),
        cmocka_unit_test(test_R_K4_pass_when_no_move),
        cmocka_unit_test(test_R_K4_two_passes_in_a_row_end_the_game),
        cmocka_unit_test(test_R_K4_passes_not_in_a_row),
        cmocka_unit_test(test_R_K5_eight_or_fewer_after_a_capture),
        cmocka_unit_test(test_R_K5_needs_a_capture),
        cmocka_unit_test(test_R_K6_each_takes_owned_pits),
        cmocka_unit_test(test_R_K7_repetition),
        cmocka_unit_test(test_R_K7_owners_are_part_of_the_position),
        cmocka_unit_test(test_R_K8_match_first_player_alternates),
        cmocka_unit_test(test_R_K9_buy_worked_example),
        cmocka_unit_test(test_R_K9_buy_other_splits),
        cmocka_unit_test(test_R_K9_buy_every_split),
        cmocka_unit_test(test_R_K9_match_uses_the_bought_pits),
        cmocka_unit_test(test_R_K10_match_ends_when_a_player_owns_no_pit),
        cmocka_unit_test(test_R_K10_game_limit_more_pits_wins),
        cmocka_unit_test(test_R_K10_six_wins_do_not_end_the_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
