/*
 * test_rules_perft.c -- perft reference counts (R-G3) for every variant.
 *
 * How the numbers were obtained: with the independent reference
 * implementation of docs/rules.md (tests/reference/reference.c, which shares no
 * code with src/rules), through its driver:
 *
 *   cc -std=c17 -O2 -o ref_tool tests/reference/ref_tool.c
 *   ref_tool perft VARIANT DEPTH ['POSITION']
 *
 * with the default ply limit (1000) and max_laps (1000).  The engine must
 * reproduce them; the reference itself recomputes the cheaper ones at test
 * time, so that the table and the reference cannot drift apart.
 *
 * From the start position the four Warri variants agree up to depth 11 (no
 * grand slam, majority or feeding question arises that early); the other
 * positions are chosen to separate them: grand slams (antigua's extra move
 * R-W8, abapa's capture-less grand slam R-W5, speightstown/bridgetown's
 * empty row R-W9), forced feeding (R-W4), full laps (R-W2), repetition in
 * the endgame (R-W10); for adjikui, passes, owners (R-K9) and relays.
 *
 * Counts above DEEP_NODES are only checked when NICKAR_PERFT_DEEP is set in
 * the environment (they take minutes in a sanitizer build).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "reference/testlib.c"

enum { MAX_DEPTH = 16 };
#define DEEP_NODES 1000000ull
#define REF_NODES 60000ull /* the reference recomputes counts up to this */

typedef struct perft_case {
    const char *variant;
    const char *pos; /* NULL: the start position, South to move */
    int depths;      /* count[0..depths-1] are known */
    unsigned long long count[MAX_DEPTH]; /* [d-1] = perft(d) */
} perft_case;

#define WARRI_START                                                         \
    {6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872, 18137964,     \
     91558687}

static const perft_case cases[] = {
    /* From the start position (R-B2). */
    {"antigua", NULL,
     12, {6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872, 18137964,
      91558687, 460005710}},
    {"speightstown", NULL, 11, WARRI_START},
    {"bridgetown", NULL, 11, WARRI_START},
    {"abapa", NULL, 11, WARRI_START},
    {"adjikui", NULL,
     12, {6, 23, 102, 407, 1656, 6625, 26527, 105032, 416066, 1635217, 6404018,
      24971585}},

    /* The worked example of docs/rules.md section 5 (a grand slam by f). */
    {"antigua", "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S",
     8, {2, 3, 9, 25, 50, 157, 212, 658}},
    {"speightstown", "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S",
     8, {2, 3, 9, 25, 50, 157, 212, 658}},
    {"bridgetown", "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S",
     8, {2, 3, 9, 25, 50, 157, 212, 658}},
    {"abapa", "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S",
     8, {2, 6, 12, 35, 70, 233, 348, 1139}},

    /* A grand slam after which South can feed: antigua replays (R-W8). */
    {"antigua", "6,0,0,0,0,3/1,2,1,0,0,0 14-21 S",
     8, {2, 3, 11, 26, 90, 236, 707, 2278}},
    {"speightstown", "6,0,0,0,0,3/1,2,1,0,0,0 14-21 S",
     8, {2, 2, 10, 21, 84, 212, 673, 2170}},
    {"bridgetown", "6,0,0,0,0,3/1,2,1,0,0,0 14-21 S",
     8, {2, 2, 10, 21, 84, 212, 673, 2170}},
    {"abapa", "6,0,0,0,0,3/1,2,1,0,0,0 14-21 S",
     8, {2, 5, 13, 30, 129, 357, 1308, 4328}},

    /* An endgame, North to move. */
    {"antigua", "2,1,0,3,0,1/1,0,2,1,1,0 19-17 N",
     8, {4, 16, 52, 190, 628, 2113, 6815, 21945}},
    {"speightstown", "2,1,0,3,0,1/1,0,2,1,1,0 19-17 N",
     8, {4, 16, 52, 190, 628, 2113, 6815, 21942}},
    {"bridgetown", "2,1,0,3,0,1/1,0,2,1,1,0 19-17 N",
     8, {4, 16, 52, 190, 628, 2113, 6815, 21942}},
    {"abapa", "2,1,0,3,0,1/1,0,2,1,1,0 19-17 N",
     8, {4, 16, 52, 190, 628, 2113, 6815, 21952}},

    /* North's row empty: South must feed (R-W4). */
    {"antigua", "3,0,0,0,1,6/0,0,0,0,0,0 18-20 S",
     8, {1, 6, 12, 60, 186, 761, 2570, 9040}},
    {"abapa", "3,0,0,0,1,6/0,0,0,0,0,0 18-20 S",
     8, {1, 6, 12, 60, 186, 761, 2570, 9040}},

    /* A pit of 14 sows a full lap past its origin (R-W2). */
    {"antigua", "0,0,0,0,0,14/1,1,0,1,0,1 14-16 S",
     8, {1, 3, 13, 26, 83, 130, 376, 588}},
    {"speightstown", "0,0,0,0,0,14/1,1,0,1,0,1 14-16 S",
     8, {1, 3, 13, 26, 83, 130, 376, 588}},
    {"abapa", "0,0,0,0,0,14/1,1,0,1,0,1 14-16 S",
     8, {1, 3, 13, 26, 83, 130, 380, 597}},

    /* Three single seeds chasing each other: the start position comes back
     * after 12 plies (R-W10), so repetition cuts the tree from depth 12. */
    {"antigua", "1,0,1,0,0,0/0,1,0,0,0,0 20-20 S",
     16, {2, 2, 4, 4, 7, 7, 14, 15, 25, 33, 35, 42, 29, 40, 54, 70}},
    {"speightstown", "1,0,1,0,0,0/0,1,0,0,0,0 20-20 S",
     16, {2, 2, 4, 4, 7, 7, 14, 15, 25, 33, 35, 42, 29, 40, 54, 70}},
    {"bridgetown", "1,0,1,0,0,0/0,1,0,0,0,0 20-20 S",
     16, {2, 2, 4, 4, 7, 7, 14, 15, 25, 33, 35, 42, 29, 40, 54, 70}},
    {"abapa", "1,0,1,0,0,0/0,1,0,0,0,0 20-20 S",
     16, {2, 2, 4, 4, 7, 7, 14, 15, 25, 33, 35, 43, 30, 42, 56, 73}},

    /* Adji Kui II. */
    /* A forced 10-ply cycle with passes (R-K7): the 10th ply repeats the
     * start position and ends the game. */
    {"adjikui", "0,1,0,0,2,0/1,1,0,0,1,0 20-20 S",
     12, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}},
    {"adjikui", "0,0,0,0,0,2/0,1,0,0,0,0 0-0 S", 6, {1, 1, 1, 0, 0, 0}},
    {"adjikui", "0,0,0,0,0,0/2,0,0,0,0,0 0-0 S", 6, {1, 1, 1, 1, 0, 0}},
    {"adjikui", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N SSSSSSSSNNNN",
     10, {4, 19, 56, 306, 815, 4409, 11604, 61953, 161126, 853240}},
    {"adjikui", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S NNNNNNNNNNSN",
     10, {1, 7, 7, 53, 53, 399, 399, 2926, 2926, 21032}},
    {"adjikui", "3,0,5,2,0,1/2,2,0,4,1,3 10-15 N SSSNSSSNNSNN",
     10, {3, 10, 18, 63, 140, 440, 991, 3006, 6758, 20797}},
    {"adjikui", "2,2,2,2,2,2/2,2,2,2,2,2 12-12 S",
     10, {6, 24, 65, 188, 496, 1426, 3954, 10728, 29638, 79909}},
};

static void test_R_G3_perft_engine_matches_table(void **state)
{
    (void)state;
    bool deep = getenv("NICKAR_PERFT_DEEP") != NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const perft_case *c = &cases[i];
        nk_game *g = tl_game(tl_variant_named(c->variant), c->pos, 0);
        assert_int_equal(nk_perft(g, 0), 1);
        for (int d = 1; d <= c->depths; d++) {
            if (c->count[d - 1] > DEEP_NODES && !deep)
                break;
            uint64_t got = nk_perft(g, (unsigned)d);
            if (got != c->count[d - 1])
                fail_msg("%s %s: perft(%d) = %llu, expected %llu", c->variant,
                         c->pos ? c->pos : "start", d,
                         (unsigned long long)got, c->count[d - 1]);
        }
        free(g);
    }
}

/* The reference recomputes the cheaper entries of the table. */
static void test_R_G3_perft_table_matches_reference(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const perft_case *c = &cases[i];
        ref_pos start;
        ref_start(&start, REF_SOUTH);
        if (c->pos != NULL)
            assert_true(ref_parse(&start, c->pos));
        ref_game g;
        ref_game_init(&g, ref_variant_find(c->variant), &start,
                      REF_DEFAULT_PLY_LIMIT, REF_DEFAULT_MAX_LAPS);
        for (int d = 1; d <= c->depths; d++) {
            if (c->count[d - 1] > REF_NODES)
                break;
            unsigned long long got = ref_perft(&g, d);
            if (got != c->count[d - 1])
                fail_msg("reference %s %s: perft(%d) = %llu, table %llu",
                         c->variant, c->pos ? c->pos : "start", d, got,
                         c->count[d - 1]);
        }
        ref_game_free(&g);
    }
}

/* The start position with North to move gives the same counts (R-B2: a
 * config may choose North; the rules are symmetric). */
static void test_R_G3_perft_north_first_is_symmetric(void **state)
{
    (void)state;
    for (size_t i = 0; i < 5; i++) {
        const perft_case *c = &cases[i];
        nk_pos start;
        nk_pos_start(&start, NK_NORTH);
        nk_game *g = malloc(sizeof *g);
        assert_non_null(g);
        assert_int_equal(nk_game_init(g, tl_variant_named(c->variant), &start,
                                      NK_DEFAULT_PLY_LIMIT),
                         NK_OK);
        for (unsigned d = 1; d <= 6; d++)
            assert_int_equal(nk_perft(g, d), c->count[d - 1]);
        free(g);
    }
}

/* perft counts the sequences of a finished game as none (R-G3). */
static void test_R_G3_perft_of_finished_game_is_zero(void **state)
{
    (void)state;
    nk_game *g = tl_game(tl_variant_named("antigua"),
                         "0,0,2,0,0,0/0,0,0,0,0,0 25-21 S", 0);
    assert_true(nk_game_over(g));
    assert_int_equal(nk_perft(g, 0), 1);
    assert_int_equal(nk_perft(g, 1), 0);
    assert_int_equal(nk_perft(g, 3), 0);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R_G3_perft_table_matches_reference),
        cmocka_unit_test(test_R_G3_perft_engine_matches_table),
        cmocka_unit_test(test_R_G3_perft_north_first_is_symmetric),
        cmocka_unit_test(test_R_G3_perft_of_finished_game_is_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
