/*
 * test_rules_general.c -- docs/rules.md section 4, rules of every variant: the
 * ply limit (R-G1), what a result records (R-G2), perft's conventions
 * (R-G3) and the precedence of end conditions (R-G4).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "reference/testlib.c"

static nk_game *game(const char *variant, const char *pos, unsigned limit)
{
    return tl_game(tl_variant_named(variant), pos, limit);
}

/* ===== R-G1: ply limit ===== */

static void test_R_G1_limit_bounds(void **state)
{
    (void)state;
    assert_int_equal(NK_DEFAULT_PLY_LIMIT, 1000);
    nk_game *g = malloc(sizeof *g);
    assert_non_null(g);
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    const nk_variant *v = tl_variant_named("antigua");
    assert_int_equal(nk_game_init(g, v, &start, 0), NK_ERANGE);
    assert_int_equal(nk_game_init(g, v, &start, NK_MAX_PLIES + 1), NK_ERANGE);
    assert_int_equal(nk_game_init(g, v, &start, NK_MAX_PLIES), NK_OK);
    assert_int_equal(nk_game_init(g, v, &start, 1), NK_OK);
    assert_int_equal(g->ply_limit, 1);
    free(g);
}

/* The limit ends the game as a repetition would (R-W10 / R-K7). */
static void test_R_G1_ply_limit_scores_as_repetition(void **state)
{
    (void)state;
    /* f from the start: 4,4,4,4,4,0/5,5,5,5,4,4: rows 20 and 28. */
    static const char *const names[] = {"antigua", "speightstown",
                                        "bridgetown", "abapa", "awari"};
    static const unsigned south[] = {20, 0, 24, 20, 20};
    static const unsigned north[] = {28, 0, 24, 28, 28};
    static const char winner[] = {'N', 'D', 'D', 'N', 'N'};
    for (int i = 0; i < 5; i++) {
        nk_game *g = game(names[i], NULL, 1);
        tl_play(g, "f");
        tl_expect_pos(g, "4,4,4,4,4,0/5,5,5,5,4,4 0-0 N");
        tl_expect_result(g, "ply-limit", winner[i], south[i], north[i]);
        assert_int_equal(g->ply, 1);
        char err[256] = "";
        assert_int_equal(nk_game_play(g, 6, NULL, err, sizeof err),
                         NK_EOVER);
        free(g);
    }
    /* adjikui: f (4) relays over 5 laps to 6,0,1,6,6,2/7,1,6,1,6,6; each
     * takes his own pits: 21-27. */
    nk_game *g = game("adjikui", NULL, 1);
    tl_play(g, "f");
    tl_expect_pos(g, "6,0,1,6,6,2/7,1,6,1,6,6 0-0 N");
    tl_expect_result(g, "ply-limit", 'N', 21, 27);
    free(g);
}

/* Eleven plies of the 12-ply cycle of test_rules_warri.c with a limit of
 * 11: a, c (South) and A (North) are left. */
static void test_R_G1_limit_reached_in_play(void **state)
{
    (void)state;
    static const char *const names[] = {"antigua", "speightstown",
                                        "bridgetown", "abapa", "awari"};
    static const unsigned south[] = {22, 20, 22, 22, 22};
    static const unsigned north[] = {21, 20, 21, 21, 21};
    static const char winner[] = {'S', 'D', 'S', 'S', 'S'};
    for (int i = 0; i < 5; i++) {
        nk_game *g = game(names[i], "1,0,1,0,0,0/0,1,0,0,0,0 20-20 S", 11);
        tl_play(g, "c B d C e D a E f F");
        tl_expect_result(g, "none", 0, 0, 0);
        tl_play(g, "b");
        tl_expect_pos(g, "1,0,1,0,0,0/1,0,0,0,0,0 20-20 N");
        tl_expect_result(g, "ply-limit", winner[i], south[i], north[i]);
        assert_int_equal(g->ply, 11);
        free(g);
    }
}

/* ===== R-G2: the result ===== */

static void test_R_G2_reason_names(void **state)
{
    (void)state;
    assert_string_equal(nk_end_name(NK_END_NONE), "none");
    assert_string_equal(nk_end_name(NK_END_MAJORITY), "majority");
    assert_string_equal(nk_end_name(NK_END_EMPTY_ROW), "empty-row");
    assert_string_equal(nk_end_name(NK_END_NO_FEED), "no-feed");
    assert_string_equal(nk_end_name(NK_END_FEW_SEEDS), "few-seeds");
    assert_string_equal(nk_end_name(NK_END_PASSES), "passes");
    assert_string_equal(nk_end_name(NK_END_REPETITION), "repetition");
    assert_string_equal(nk_end_name(NK_END_PLY_LIMIT), "ply-limit");
}

/* Totals include the seeds an end rule gives out; the final position is
 * left as the last move made it. */
static void test_R_G2_final_position_is_left_as_played(void **state)
{
    (void)state;
    nk_game *g = game("antigua", "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S", 0);
    tl_play(g, "f");
    /* The 2 seeds given to South by R-W7 are in the total, not moved. */
    tl_expect_pos(g, "0,0,2,0,0,0/0,0,0,0,0,0 24-22 S");
    tl_expect_result(g, "no-feed", 'S', 26, 22);
    assert_int_equal(g->ply, 1);
    assert_int_equal(g->moves[0], 5);
    nk_pos start;
    tl_pos(&start, "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S");
    assert_memory_equal(g->start.pit, start.pit, NK_PITS);
    free(g);
}

/* ===== R-G3: perft conventions ===== */

static void test_R_G3_passes_and_extra_moves_are_plies(void **state)
{
    (void)state;
    /* adjikui: South passes, North plays A, South passes, North passes
     * (the game ends): 1, 1, 1, 1, then nothing. */
    nk_game *g = game("adjikui", "0,0,0,0,0,0/2,0,0,0,0,0 0-0 S", 0);
    static const uint64_t want[] = {1, 1, 1, 1, 1, 0, 0};
    for (unsigned d = 0; d < 7; d++)
        assert_int_equal(nk_perft(g, d), want[d]);
    free(g);
    /* antigua: f (grand slam) is followed by South's own a; speightstown's
     * f ends the game. */
    g = game("antigua", "6,0,0,0,0,3/1,2,1,0,0,0 14-21 S", 0);
    assert_int_equal(nk_perft(g, 2), 3);
    free(g);
    g = game("speightstown", "6,0,0,0,0,3/1,2,1,0,0,0 14-21 S", 0);
    assert_int_equal(nk_perft(g, 2), 2);
    free(g);
}

/* A sequence that ends the game counts at its own depth, and the ply
 * limit and repetition apply inside perft. */
static void test_R_G3_game_ending_sequences_and_limits(void **state)
{
    (void)state;
    nk_game *g = game("antigua", "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S", 0);
    assert_int_equal(nk_perft(g, 1), 2); /* c, and f which ends it */
    free(g);
    /* The cycle position with only c, B, ...: the 12th ply repeats; with
     * a ply limit of 3 nothing goes beyond 3 plies. */
    g = game("antigua", "1,0,1,0,0,0/0,1,0,0,0,0 20-20 S", 3);
    uint64_t p3 = nk_perft(g, 3);
    assert_true(p3 > 0);
    assert_int_equal(nk_perft(g, 4), 0);
    free(g);
}

/* ===== R-G4: precedence of end conditions ===== */

/* majority before empty-row / no-feed / the antigua extra move. */
static void test_R_G4_majority_first(void **state)
{
    (void)state;
    static const char *pos = "0,0,2,0,0,3/1,2,1,0,0,0 18-21 S"; /* T = 48 */
    nk_game *g = game("speightstown", pos, 0);
    tl_play(g, "f");
    tl_expect_result(g, "majority", 'S', 25, 21);
    free(g);
    g = game("antigua", pos, 0);
    tl_play(g, "f");
    tl_expect_pos(g, "0,0,2,0,0,0/0,0,0,0,0,0 25-21 S");
    tl_expect_result(g, "majority", 'S', 25, 21);
    free(g);
    g = game("bridgetown", pos, 0);
    tl_play(g, "f");
    tl_expect_result(g, "majority", 'S', 26, 22);
    free(g);
    /* majority before the ply limit. */
    g = game("abapa", "0,0,0,0,0,1/1,4,4,4,4,4 23-3 S", 1);
    tl_play(g, "f");
    tl_expect_result(g, "majority", 'S', 25, 3);
    free(g);
}

/* empty-row before no-feed: an antigua grand slam that empties both rows;
 * South is to move with an empty row and cannot feed either.  T = 34,
 * majority 18: the 7 captured seeds leave 17 each. */
static void test_R_G4_empty_row_before_no_feed(void **state)
{
    (void)state;
    static const char *pos = "0,0,0,0,0,3/1,2,1,0,0,0 10-17 S";
    nk_game *g = game("antigua", pos, 0);
    tl_play(g, "f");
    tl_expect_pos(g, "0,0,0,0,0,0/0,0,0,0,0,0 17-17 S");
    tl_expect_result(g, "empty-row", 'D', 17, 17);
    free(g);
    g = game("speightstown", pos, 0);
    tl_play(g, "f");
    tl_expect_pos(g, "0,0,0,0,0,0/0,0,0,0,0,0 17-17 N");
    tl_expect_result(g, "empty-row", 'D', 17, 17);
    free(g);
}

/* no-feed before the ply limit. */
static void test_R_G4_no_feed_before_ply_limit(void **state)
{
    (void)state;
    nk_game *g = game("antigua", "0,0,0,0,1,0/0,0,0,0,0,1 20-20 N", 1);
    tl_play(g, "F");
    tl_expect_result(g, "no-feed", 'S', 22, 20);
    free(g);
}

/* few-seeds before the ply limit. */
static void test_R_G4_few_seeds_before_ply_limit(void **state)
{
    (void)state;
    nk_game *g = game("adjikui", "0,0,0,0,0,2/0,3,1,3,3,0 0-0 S", 1);
    tl_play(g, "f");
    tl_expect_result(g, "few-seeds", 'N', 4, 8);
    free(g);
}

/* passes before repetition: two passes bring back the position of two
 * plies before. */
static void test_R_G4_passes_before_repetition(void **state)
{
    (void)state;
    nk_game *g = game("adjikui", "1,1,1,1,1,1/1,1,1,1,1,1 0-0 S", 2);
    tl_play(g, "- -");
    tl_expect_result(g, "passes", 'D', 6, 6);
    free(g);
}

/* repetition before the ply limit. */
static void test_R_G4_repetition_before_ply_limit(void **state)
{
    (void)state;
    nk_game *g = game("antigua", "1,0,1,0,0,0/0,1,0,0,0,0 20-20 S", 12);
    tl_play(g, "c B d C e D a E f F b");
    /* The 12th move would repeat the start position. */
    nk_pos child = g->pos;
    assert_true(nk_apply(g->variant, &child, 6, NULL));
    assert_true(nk_game_repeats(g, child.hash));
    nk_pos other = g->pos;
    other.store[0]++;
    assert_false(nk_game_repeats(g, nk_pos_hash(&other)));
    tl_play(g, "A");
    tl_expect_result(g, "repetition", 'S', 22, 21);
    free(g);
}

/* The start position is checked too. */
static void test_R_G4_start_position_is_checked(void **state)
{
    (void)state;
    nk_game *g = game("abapa", "0,0,0,0,0,0/1,2,0,0,0,3 20-22 S", 0);
    assert_true(nk_game_over(g));
    tl_expect_result(g, "empty-row", 'N', 20, 28);
    assert_int_equal(g->ply, 0);
    assert_int_equal(nk_game_legal(g), 0);
    char err[256] = "";
    assert_int_equal(nk_game_play(g, 6, NULL, err, sizeof err), NK_EOVER);
    free(g);
    /* majority and empty-row at once: majority. */
    g = game("antigua", "0,0,0,0,0,0/1,2,0,0,0,3 25-17 S", 0);
    tl_expect_result(g, "majority", 'S', 25, 17);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R_G1_limit_bounds),
        cmocka_unit_test(test_R_G1_ply_limit_scores_as_repetition),
        cmocka_unit_test(test_R_G1_limit_reached_in_play),
        cmocka_unit_test(test_R_G2_reason_names),
        cmocka_unit_test(test_R_G2_final_position_is_left_as_played),
        cmocka_unit_test(test_R_G3_passes_and_extra_moves_are_plies),
        cmocka_unit_test(test_R_G3_game_ending_sequences_and_limits),
        cmocka_unit_test(test_R_G4_majority_first),
        cmocka_unit_test(test_R_G4_empty_row_before_no_feed),
        cmocka_unit_test(test_R_G4_no_feed_before_ply_limit),
        cmocka_unit_test(test_R_G4_few_seeds_before_ply_limit),
        cmocka_unit_test(test_R_G4_passes_before_repetition),
        cmocka_unit_test(test_R_G4_repetition_before_ply_limit),
        cmocka_unit_test(test_R_G4_start_position_is_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
