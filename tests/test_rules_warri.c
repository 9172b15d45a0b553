/*
 * test_rules_warri.c -- docs/rules.md section 2, the Warri family: antigua,
 * speightstown, bridgetown, abapa (R-W1..R-W13).
 *
 * Every expected position and total below was worked out by hand from
 * docs/rules.md (the comments show the arithmetic) and agrees with the reference
 * implementation (tests/reference/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "reference/testlib.c"

static const char *const warri[] = {"antigua", "speightstown", "bridgetown",
                                    "abapa"};

static nk_game *game(const char *variant, const char *pos)
{
    return tl_game(tl_variant_named(variant), pos, 0);
}

/* Result of a position for a reason, through nk_pos_result. */
static void expect_pos_result(const char *variant, const char *pos,
                              nk_end reason, char winner, unsigned south,
                              unsigned north)
{
    nk_pos p;
    nk_result r;
    tl_pos(&p, pos);
    nk_pos_result(tl_variant_named(variant), &p, reason, &r);
    int want = winner == 'S' ? NK_SOUTH : winner == 'N' ? NK_NORTH : NK_DRAW;
    if (r.winner != want || r.total[0] != south || r.total[1] != north)
        fail_msg("%s %s, %s: got %u-%u winner %d, expected %u-%u %c",
                 variant, pos, nk_end_name(reason), r.total[0], r.total[1],
                 r.winner, south, north, winner);
}

/* ===== R-W1: a move ===== */

static void test_R_W1_moves_are_non_empty_pits_of_the_movers_row(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        nk_game *g = game(warri[i], "0,3,0,1,0,0/4,0,4,0,4,0 10-10 S");
        tl_expect_legal(g, "b d");
        char err[256] = "";
        /* An empty pit, an opponent's pit, a pass: refused, with the list. */
        assert_int_equal(nk_game_play(g, 0, NULL, err, sizeof err),
                         NK_EILLEGAL);
        assert_non_null(strstr(err, "b"));
        assert_int_equal(nk_game_play(g, 6, NULL, err, sizeof err),
                         NK_EILLEGAL);
        assert_int_equal(nk_game_play(g, NK_PASS, NULL, err, sizeof err),
                         NK_EILLEGAL);
        tl_expect_pos(g, "0,3,0,1,0,0/4,0,4,0,4,0 10-10 S");
        /* b: its 3 seeds go one by one into c, d, e. */
        tl_play(g, "b");
        tl_expect_pos(g, "0,0,1,2,1,0/4,0,4,0,4,0 10-10 N");
        tl_expect_legal(g, "A C E");
        free(g);
    }
}

/* ===== R-W2: the origin is skipped on every lap ===== */

static void test_R_W2_twelve_seeds_skip_the_origin(void **state)
{
    (void)state;
    /* 12 seeds from a: b..F get one each (11), the 12th skips a and lands
     * in b. */
    for (int i = 0; i < 4; i++) {
        nk_game *g = game(warri[i], "12,1,1,1,1,1/1,1,1,1,1,1 10-10 S");
        tl_play(g, "a");
        tl_expect_pos(g, "0,3,2,2,2,2/2,2,2,2,2,2 10-10 N");
        free(g);
    }
}

static void test_R_W2_laps_then_capture(void **state)
{
    (void)state;
    /* 17 seeds from f: A..F, a..e (11 pits), skip f, A..F again (6): A gets
     * 1 + 2 = 3, B..F 2 each, a..e 1 each.  The last seed is in F: F, E, D,
     * C, B (2 each) and A (3) are captured: 13 seeds, a grand slam, and
     * 5 + 13 = 18 of T = 28 (majority 15) ends the game at once (R-G4:
     * majority before antigua's extra move). */
    nk_game *g = game("antigua", "0,0,0,0,0,17/1,0,0,0,0,0 5-5 S");
    nk_ply_info info = tl_play1(g, 'f');
    assert_int_equal(info.captured, 13);
    assert_true(info.grand_slam);
    tl_expect_pos(g, "1,1,1,1,1,0/0,0,0,0,0,0 18-5 S");
    tl_expect_result(g, "majority", 'S', 18, 5);
    free(g);
    /* 11 seeds from f go round to e: the origin stays empty. */
    g = game("abapa", "0,0,0,0,0,11/4,4,4,4,4,4 0-0 S");
    tl_play(g, "f");
    tl_expect_pos(g, "1,1,1,1,1,0/5,5,5,5,5,5 0-0 N");
    free(g);
}

/* ===== R-W3: capture ===== */

static void test_R_W3_capture_two_or_three(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        /* f: A 1 -> 2, captured; the pit before A is f (South's row). */
        nk_game *g = game(warri[i], "0,0,0,0,0,1/1,4,4,4,4,4 10-10 S");
        nk_ply_info info = tl_play1(g, 'f');
        assert_int_equal(info.captured, 2);
        assert_false(info.grand_slam);
        tl_expect_pos(g, "0,0,0,0,0,0/0,4,4,4,4,4 12-10 N");
        free(g);
        /* A 3 -> 4: not captured. */
        g = game(warri[i], "0,0,0,0,0,1/3,4,4,4,4,4 10-10 S");
        info = tl_play1(g, 'f');
        assert_int_equal(info.captured, 0);
        tl_expect_pos(g, "0,0,0,0,0,0/4,4,4,4,4,4 10-10 N");
        free(g);
    }
}

static void test_R_W3_capture_chain_runs_clockwise(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        /* f (3): A 1->2, B 2->3, C 1->2; C, B, A captured (7); D keeps 3. */
        nk_game *g = game(warri[i], "0,0,0,0,0,3/1,2,1,3,0,0 5-10 S");
        nk_ply_info info = tl_play1(g, 'f');
        assert_int_equal(info.captured, 7);
        assert_false(info.grand_slam);
        tl_expect_pos(g, "0,0,0,0,0,0/0,0,0,3,0,0 12-10 N");
        free(g);
    }
}

static void test_R_W3_chain_stops_at_first_failing_pit(void **state)
{
    (void)state;
    /* f (4): A 1->2, B 0->1, C 2->3, D 1->2: D and C are captured (5); B
     * holds 1 and stops the chain, so A (2) stays. */
    nk_game *g = game("antigua", "0,0,0,0,0,4/1,0,2,1,0,0 5-10 S");
    nk_ply_info info = tl_play1(g, 'f');
    assert_int_equal(info.captured, 5);
    tl_expect_pos(g, "0,0,0,0,0,0/2,1,0,0,0,0 10-10 N");
    free(g);
}

static void test_R_W3_no_capture_when_last_seed_in_own_row(void **state)
{
    (void)state;
    /* d (1): into e, South's own pit: no capture, although North's pits
     * hold 2s. */
    nk_game *g = game("antigua", "0,0,0,1,3,0/1,1,2,2,2,2 10-10 S");
    nk_ply_info info = tl_play1(g, 'd');
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "0,0,0,0,4,0/1,1,2,2,2,2 10-10 N");
    free(g);
}

static void test_R_W3_chain_never_crosses_into_movers_row(void **state)
{
    (void)state;
    /* South: e (3): f 1->2, A 1->2, B 1->2; B, A captured; f (2) is
     * South's own and stops the chain. */
    nk_game *g = game("abapa", "0,0,0,0,3,1/1,1,0,0,0,1 8-10 S");
    nk_ply_info info = tl_play1(g, 'e');
    assert_int_equal(info.captured, 4);
    tl_expect_pos(g, "0,0,0,0,0,2/0,0,0,0,0,1 12-10 N");
    free(g);
    /* North: E (3): F 1->2, a 1->2, b 1->2; b, a captured; F stops it. */
    g = game("abapa", "1,1,0,0,0,1/0,0,0,0,3,1 10-8 N");
    info = tl_play1(g, 'E');
    assert_int_equal(info.captured, 4);
    tl_expect_pos(g, "0,0,0,0,0,1/0,0,0,0,0,2 10-12 S");
    free(g);
}

/* ===== R-W4: feeding ===== */

static void test_R_W4_must_feed_an_empty_row(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        /* a (3) reaches d, e (1) reaches f: only f (6) reaches North. */
        nk_game *g = game(warri[i], "3,0,0,0,1,6/0,0,0,0,0,0 18-20 S");
        tl_expect_legal(g, "f");
        char err[256] = "";
        assert_int_equal(nk_game_play(g, 0, NULL, err, sizeof err),
                         NK_EILLEGAL);
        tl_play(g, "f");
        tl_expect_pos(g, "3,0,0,0,1,0/1,1,1,1,1,1 18-20 N");
        free(g);
    }
}

/* A move that reaches the empty row but whose capture takes everything back
 * does not feed ("after sowing and capture"); in abapa the grand slam
 * captures nothing (R-W5), so it feeds. */
static void test_R_W4_feeding_counts_after_capture(void **state)
{
    (void)state;
    /* f (17): A..F 2 each, all captured (12) in antigua & co. */
    static const char *pos = "6,0,0,0,0,17/0,0,0,0,0,0 10-10 S";
    for (int i = 0; i < 3; i++) {
        nk_game *g = game(warri[i], pos);
        tl_expect_legal(g, "a");
        free(g);
    }
    nk_game *g = game("abapa", pos);
    tl_expect_legal(g, "a f");
    nk_ply_info info = tl_play1(g, 'f');
    assert_true(info.grand_slam);
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "7,1,1,1,1,0/2,2,2,2,2,2 10-10 N");
    free(g);
}

/* ===== R-W5: grand slam ===== */

static void test_R_W5_grand_slam_captures_except_abapa(void **state)
{
    (void)state;
    /* f (2): A 1->2, B 1->2, both captured: North's row is empty. */
    static const char *pos = "1,0,0,0,0,2/1,1,0,0,0,0 6-10 S";
    for (int i = 0; i < 3; i++) {
        nk_game *g = game(warri[i], pos);
        nk_ply_info info = tl_play1(g, 'f');
        assert_true(info.grand_slam);
        assert_int_equal(info.captured, 4);
        assert_int_equal(g->pos.store[NK_SOUTH], 10);
        free(g);
    }
    nk_game *g = game("abapa", pos);
    nk_ply_info info = tl_play1(g, 'f');
    assert_true(info.grand_slam);
    assert_int_equal(info.captured, 0);
    tl_expect_pos(g, "1,0,0,0,0,0/2,2,0,0,0,0 6-10 N");
    tl_expect_result(g, "none", 0, 0, 0);
    tl_expect_legal(g, "A B");
    free(g);
}

/* A capture that leaves one seed in the opponent's row is no grand slam,
 * in abapa either. */
static void test_R_W5_partial_capture_is_not_a_grand_slam(void **state)
{
    (void)state;
    nk_game *g = game("abapa", "1,0,0,0,0,2/1,1,0,0,0,1 6-10 S");
    nk_ply_info info = tl_play1(g, 'f');
    assert_false(info.grand_slam);
    assert_int_equal(info.captured, 4);
    tl_expect_pos(g, "1,0,0,0,0,0/0,0,0,0,0,1 10-10 N");
    free(g);
}

/* ===== R-W6: majority ===== */

static void test_R_W6_majority_ends_the_game(void **state)
{
    (void)state;
    /* f: A 1->2 captured: South 23 + 2 = 25 of 48.  Board (20) not
     * counted, except bridgetown: 10 each. */
    static const char *pos = "0,0,0,0,0,1/1,4,4,4,4,4 23-3 S";
    static const unsigned south[] = {25, 25, 35, 25};
    static const unsigned north[] = {3, 3, 13, 3};
    for (int i = 0; i < 4; i++) {
        nk_game *g = game(warri[i], pos);
        tl_play(g, "f");
        tl_expect_pos(g, "0,0,0,0,0,0/0,4,4,4,4,4 25-3 N");
        tl_expect_result(g, "majority", 'S', south[i], north[i]);
        tl_expect_legal(g, "");
        assert_int_equal(g->ply, 1);
        free(g);
    }
}

static void test_R_W6_majority_at_the_start(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        nk_game *g = game(warri[i], "1,0,0,0,0,0/0,0,0,0,0,1 21-25 S");
        /* bridgetown splits 2: 1 each. */
        if (i == 2)
            tl_expect_result(g, "majority", 'N', 22, 26);
        else
            tl_expect_result(g, "majority", 'N', 21, 25);
        assert_int_equal(nk_game_legal(g), 0);
        free(g);
    }
}

/* ===== R-W7: no feeding move ===== */

static void test_R_W7_no_feed_remaining_seeds(void **state)
{
    (void)state;
    /* North's row is empty; a (3) reaches d, d (1) e, e (1) f: no move
     * feeds.  5 seeds left, T = 47, majority 24. */
    static const char *pos = "3,0,0,1,1,0/0,0,0,0,0,0 21-21 S";
    nk_game *g = game("antigua", pos); /* the mover takes them */
    tl_expect_result(g, "no-feed", 'S', 26, 21);
    tl_expect_pos(g, pos); /* the game ends at once, nothing is played */
    free(g);
    g = game("abapa", pos);
    tl_expect_result(g, "no-feed", 'S', 26, 21);
    free(g);
    g = game("speightstown", pos); /* the starved player takes them */
    tl_expect_result(g, "no-feed", 'N', 21, 26);
    free(g);
    g = game("bridgetown", pos); /* 2 each, the odd seed to South's row */
    tl_expect_result(g, "no-feed", 'S', 24, 23);
    free(g);
}

static void test_R_W7_no_feed_north_moving(void **state)
{
    (void)state;
    static const char *pos = "0,0,0,0,0,0/3,0,0,1,1,0 21-21 N";
    nk_game *g = game("antigua", pos);
    tl_expect_result(g, "no-feed", 'N', 21, 26);
    free(g);
    g = game("speightstown", pos);
    tl_expect_result(g, "no-feed", 'S', 26, 21);
    free(g);
    g = game("bridgetown", pos);
    tl_expect_result(g, "no-feed", 'N', 23, 24);
    free(g);
}

/* A no-feed reached in play: North sows his last seed into South's row;
 * South (a 1, e 1) cannot reach North's row.  T = 42, majority 22. */
static void test_R_W7_no_feed_after_a_move(void **state)
{
    (void)state;
    static const char *pos = "0,0,0,0,1,0/0,0,0,0,0,1 20-20 N";
    static const unsigned south[] = {22, 20, 21, 22};
    static const unsigned north[] = {20, 22, 21, 20};
    static const char winner[] = {'S', 'N', 'D', 'S'};
    for (int i = 0; i < 4; i++) {
        nk_game *g = game(warri[i], pos);
        tl_play(g, "F");
        tl_expect_pos(g, "1,0,0,0,1,0/0,0,0,0,0,0 20-20 S");
        tl_expect_result(g, "no-feed", winner[i], south[i], north[i]);
        free(g);
    }
}

/* ===== R-W8: antigua replays after a grand slam ===== */

static void test_R_W8_antigua_mover_plays_again(void **state)
{
    (void)state;
    /* f: grand slam of 7 (14 -> 21); South plays again and must feed: c (1)
     * reaches d only; a (6) reaches A. */
    nk_game *g = game("antigua", "6,0,1,0,0,3/1,2,1,0,0,0 13-21 S");
    tl_play(g, "f");
    tl_expect_pos(g, "6,0,1,0,0,0/0,0,0,0,0,0 20-21 S");
    tl_expect_result(g, "none", 0, 0, 0);
    tl_expect_legal(g, "a");
    tl_play(g, "a");
    tl_expect_pos(g, "0,1,2,1,1,1/1,0,0,0,0,0 20-21 N");
    free(g);
}

static void test_R_W8_other_variants_pass_the_turn(void **state)
{
    (void)state;
    /* Same grand slam: North to move with an empty row (R-W9).  Seeds
     * left: 7, all South's.  T = 48. */
    static const char *pos = "6,0,1,0,0,3/1,2,1,0,0,0 13-21 S";
    nk_game *g = game("speightstown", pos); /* North takes 7: 20-28 */
    tl_play(g, "f");
    tl_expect_pos(g, "6,0,1,0,0,0/0,0,0,0,0,0 20-21 N");
    tl_expect_result(g, "empty-row", 'N', 20, 28);
    free(g);
    g = game("bridgetown", pos); /* 3 each, the odd seed to South's row */
    tl_play(g, "f");
    tl_expect_result(g, "empty-row", 'D', 24, 24);
    free(g);
}

/* ===== R-W9: empty row at the start of one's turn ===== */

static void test_R_W9_empty_row_remaining_seeds(void **state)
{
    (void)state;
    /* South to move with an empty row; North's row holds 6.  T = 48. */
    static const char *pos = "0,0,0,0,0,0/1,2,0,0,0,3 20-22 S";
    nk_game *g = game("antigua", pos); /* the opponent takes them */
    tl_expect_result(g, "empty-row", 'N', 20, 28);
    free(g);
    g = game("abapa", pos);
    tl_expect_result(g, "empty-row", 'N', 20, 28);
    free(g);
    g = game("speightstown", pos); /* the starved player (to move) */
    tl_expect_result(g, "empty-row", 'S', 26, 22);
    free(g);
    g = game("bridgetown", pos); /* 3 each */
    tl_expect_result(g, "empty-row", 'N', 23, 25);
    free(g);
}

/* ===== R-W10: repetition ===== */

/* A 12-ply cycle: the three single seeds go round without a capture and
 * the start position (South to move) comes back.  T = 43. */
static const char *const cycle_pos = "1,0,1,0,0,0/0,1,0,0,0,0 20-20 S";
static const char *const cycle_moves = "c B d C e D a E f F b A";

static void test_R_W10_repetition_ends_the_game(void **state)
{
    (void)state;
    /* At the end South has a, c (2), North B (1). */
    static const unsigned south[] = {22, 20, 22, 22};
    static const unsigned north[] = {21, 20, 21, 21};
    static const char winner[] = {'S', 'D', 'S', 'S'};
    for (int i = 0; i < 4; i++) {
        nk_game *g = game(warri[i], cycle_pos);
        for (const char *m = cycle_moves; *m; m++) {
            if (*m == ' ')
                continue;
            tl_expect_result(g, "none", 0, 0, 0);
            tl_play1(g, *m);
        }
        tl_expect_pos(g, cycle_pos);
        assert_int_equal(g->ply, 12);
        tl_expect_result(g, "repetition", winner[i], south[i], north[i]);
        free(g);
    }
}

static void test_R_W10_repetition_remaining_seeds(void **state)
{
    (void)state;
    static const char *pos = "3,0,0,0,0,0/1,1,0,0,0,0 20-23 S";
    expect_pos_result("antigua", pos, NK_END_REPETITION, 'N', 23, 25);
    expect_pos_result("abapa", pos, NK_END_REPETITION, 'N', 23, 25);
    expect_pos_result("speightstown", pos, NK_END_REPETITION, 'D', 20, 23);
    expect_pos_result("bridgetown", pos, NK_END_REPETITION, 'N', 23, 25);
}

/* ===== R-W11: the bridgetown split ===== */

static void test_R_W11_bridgetown_split_odd_seed(void **state)
{
    (void)state;
    /* 5 seeds: 2 each, the odd one to the fuller row. */
    expect_pos_result("bridgetown", "3,0,0,0,0,0/1,1,0,0,0,0 20-23 S",
                      NK_END_REPETITION, 'N', 23, 25);
    expect_pos_result("bridgetown", "1,0,0,0,0,0/3,1,0,0,0,0 20-23 S",
                      NK_END_REPETITION, 'N', 22, 26);
    expect_pos_result("bridgetown", "1,0,0,0,0,0/3,1,0,0,0,0 20-23 N",
                      NK_END_PLY_LIMIT, 'N', 22, 26);
    expect_pos_result("bridgetown", "1,2,0,0,0,0/1,0,0,0,0,0 22-21 S",
                      NK_END_MAJORITY, 'S', 24, 23);
    /* Even: exactly half each. */
    expect_pos_result("bridgetown", "4,0,0,0,0,0/0,0,0,0,0,0 20-24 N",
                      NK_END_NO_FEED, 'N', 22, 26);
    expect_pos_result("bridgetown", "0,0,0,0,0,0/0,0,0,0,0,0 24-24 N",
                      NK_END_EMPTY_ROW, 'D', 24, 24);
}

/* ===== R-W12: result ===== */

static void test_R_W12_more_seeds_wins_equal_draws(void **state)
{
    (void)state;
    expect_pos_result("antigua", "1,0,0,0,0,0/1,0,0,0,0,0 23-23 S",
                      NK_END_REPETITION, 'D', 24, 24);
    expect_pos_result("abapa", "2,0,0,0,0,0/0,0,0,0,0,0 22-24 S",
                      NK_END_REPETITION, 'D', 24, 24);
    expect_pos_result("abapa", "3,0,0,0,0,0/0,0,0,0,0,0 22-23 S",
                      NK_END_REPETITION, 'S', 25, 23);
    expect_pos_result("antigua", "0,0,0,0,0,0/3,0,0,0,0,0 22-23 S",
                      NK_END_PLY_LIMIT, 'N', 22, 26);
}

/* speightstown: a win needs the majority; 24-22 with two seeds circulating
 * is a draw. */
static void test_R_W12_speightstown_win_needs_majority(void **state)
{
    (void)state;
    static const char *pos = "0,0,0,0,0,1/1,0,0,0,0,0 24-22 S";
    expect_pos_result("speightstown", pos, NK_END_REPETITION, 'D', 24, 22);
    expect_pos_result("speightstown", pos, NK_END_PLY_LIMIT, 'D', 24, 22);
    /* The other variants count the rows: 25-23. */
    expect_pos_result("antigua", pos, NK_END_REPETITION, 'S', 25, 23);
    expect_pos_result("bridgetown", pos, NK_END_REPETITION, 'S', 25, 23);
    /* With the majority, a win. */
    expect_pos_result("speightstown", "0,0,0,0,0,0/1,0,0,0,0,0 25-22 S",
                      NK_END_EMPTY_ROW, 'S', 26, 22);
    expect_pos_result("speightstown", "0,0,0,0,0,1/1,0,0,0,0,0 21-25 S",
                      NK_END_REPETITION, 'N', 21, 25);
}

/* ===== R-W13: match ===== */

static nk_result result_of(int winner)
{
    nk_result r = {NK_END_MAJORITY, winner, {0, 0}};
    r.total[winner == NK_DRAW ? 0 : winner] = 25;
    if (winner == NK_DRAW) {
        r.total[0] = 24;
        r.total[1] = 24;
    }
    return r;
}

static void test_R_W13_first_player_alternates(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        nk_match m;
        nk_pos start;
        char text[NK_POS_TEXT];
        nk_match_init(&m, tl_variant_named(warri[i]), 1, 20);
        assert_int_equal(m.winner, -1);
        assert_false(nk_match_over(&m));
        for (int game = 0; game < 6; game++) {
            nk_match_next(&m, &start);
            nk_pos_format(&start, text);
            /* Player 1 (North) first in game 1, then South, ... */
            assert_string_equal(text, game % 2 == 0
                                          ? "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N"
                                          : "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
            assert_true(start.hash == nk_pos_hash(&start));
            nk_result r = result_of(NK_DRAW);
            nk_match_record(&m, &r);
        }
        assert_int_equal(m.games, 6);
        assert_int_equal(m.draws, 6);
    }
}

static void test_R_W13_first_to_six_wins_draws_do_not_count(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        nk_match m;
        nk_match_init(&m, tl_variant_named(warri[i]), 0, 100);
        static const int seq[] = {NK_SOUTH, NK_DRAW, NK_NORTH, NK_SOUTH,
                                  NK_DRAW,  NK_DRAW, NK_SOUTH, NK_NORTH,
                                  NK_SOUTH, NK_NORTH, NK_DRAW, NK_NORTH,
                                  NK_NORTH, NK_SOUTH, NK_SOUTH};
        /* South wins games 1, 4, 7, 9, 14 and (the sixth) 15; North 3, 8,
         * 10, 12, 13; games 2, 5, 6, 11 are drawn. */
        for (size_t k = 0; k < sizeof seq / sizeof seq[0]; k++) {
            assert_false(nk_match_over(&m));
            nk_result r = result_of(seq[k]);
            nk_match_record(&m, &r);
        }
        assert_int_equal(m.wins[0], 6);
        assert_int_equal(m.wins[1], 5);
        assert_int_equal(m.draws, 4);
        assert_true(nk_match_over(&m));
        assert_int_equal(m.winner, 0);
    }
    /* North (player 1) reaching 6 after many draws. */
    nk_match m;
    nk_match_init(&m, tl_variant_named("antigua"), 0, 100);
    for (int k = 0; k < 30; k++) {
        nk_result r = result_of(NK_DRAW);
        nk_match_record(&m, &r);
    }
    assert_false(nk_match_over(&m));
    for (int k = 0; k < 6; k++) {
        assert_false(nk_match_over(&m));
        nk_result r = result_of(NK_NORTH);
        nk_match_record(&m, &r);
    }
    assert_int_equal(m.winner, 1);
}

static void test_R_W13_game_limit(void **state)
{
    (void)state;
    nk_match m;
    nk_result s = result_of(NK_SOUTH), n = result_of(NK_NORTH),
              d = result_of(NK_DRAW);
    /* 1-1 with a draw at the limit of 3: drawn. */
    nk_match_init(&m, tl_variant_named("bridgetown"), 0, 3);
    nk_match_record(&m, &s);
    nk_match_record(&m, &n);
    assert_false(nk_match_over(&m));
    nk_match_record(&m, &d);
    assert_true(nk_match_over(&m));
    assert_int_equal(m.winner, NK_DRAW);
    /* 2-1 at the limit of 4: player 0 wins. */
    nk_match_init(&m, tl_variant_named("speightstown"), 1, 4);
    nk_match_record(&m, &s);
    nk_match_record(&m, &d);
    nk_match_record(&m, &n);
    assert_false(nk_match_over(&m));
    nk_match_record(&m, &s);
    assert_int_equal(m.winner, 0);
    /* 0-1 at a limit of 1. */
    nk_match_init(&m, tl_variant_named("abapa"), 0, 1);
    nk_match_record(&m, &n);
    assert_int_equal(m.winner, 1);
    /* Only draws. */
    nk_match_init(&m, tl_variant_named("antigua"), 0, 2);
    nk_match_record(&m, &d);
    nk_match_record(&m, &d);
    assert_int_equal(m.winner, NK_DRAW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R_W1_moves_are_non_empty_pits_of_the_movers_row),
        cmocka_unit_test(test_R_W2_twelve_seeds_skip_the_origin),
        cmocka_unit_test(test_R_W2_laps_then_capture),
        cmocka_unit_test(test_R_W3_capture_two_or_three),
        cmocka_unit_test(test_R_W3_capture_chain_runs_clockwise),
        cmocka_unit_test(test_R_W3_chain_stops_at_first_failing_pit),
        cmocka_unit_test(test_R_W3_no_capture_when_last_seed_in_own_row),
        cmocka_unit_test(test_R_W3_chain_never_crosses_into_movers_row),
        cmocka_unit_test(test_R_W4_must_feed_an_empty_row),
        cmocka_unit_test(test_R_W4_feeding_counts_after_capture),
        cmocka_unit_test(test_R_W5_grand_slam_captures_except_abapa),
        cmocka_unit_test(test_R_W5_partial_capture_is_not_a_grand_slam),
        cmocka_unit_test(test_R_W6_majority_ends_the_game),
        cmocka_unit_test(test_R_W6_majority_at_the_start),
        cmocka_unit_test(test_R_W7_no_feed_remaining_seeds),
        cmocka_unit_test(test_R_W7_no_feed_north_moving),
        cmocka_unit_test(test_R_W7_no_feed_after_a_move),
        cmocka_unit_test(test_R_W8_antigua_mover_plays_again),
        cmocka_unit_test(test_R_W8_other_variants_pass_the_turn),
        cmocka_unit_test(test_R_W9_empty_row_remaining_seeds),
        cmocka_unit_test(test_R_W10_repetition_ends_the_game),
        cmocka_unit_test(test_R_W10_repetition_remaining_seeds),
        cmocka_unit_test(test_R_W11_bridgetown_split_odd_seed),
        cmocka_unit_test(test_R_W12_more_seeds_wins_equal_draws),
        cmocka_unit_test(test_R_W12_speightstown_win_needs_majority),
        cmocka_unit_test(test_R_W13_first_player_alternates),
        cmocka_unit_test(test_R_W13_first_to_six_wins_draws_do_not_count),
        cmocka_unit_test(test_R_W13_game_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
