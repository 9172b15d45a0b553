/*
 * test_rules_board.c -- docs/rules.md section 1: the board, the start position,
 * position and move notation, seeds in play (R-B1..R-B5).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "reference/testlib.c"

/* ===== R-B1: pits, rows, names, sowing direction, stores ===== */

static void test_R_B1_pit_indices_and_letters(void **state)
{
    (void)state;
    const char *letters = "abcdefABCDEF";
    for (int i = 0; i < NK_PITS; i++) {
        assert_int_equal(nk_move_letter(i), letters[i]);
        assert_int_equal(nk_move_parse(letters[i]), i);
    }
    nk_pos p;
    tl_pos(&p, "1,2,3,4,5,6/7,8,9,10,11,12 0-0 S");
    for (int i = 0; i < NK_PITS; i++)
        assert_int_equal(p.pit[i], i + 1);
}

static void test_R_B1_default_rows(void **state)
{
    (void)state;
    nk_pos p;
    nk_pos_start(&p, NK_SOUTH);
    assert_int_equal(p.north, NK_DEFAULT_NORTH);
    for (int i = 0; i < 6; i++)
        assert_int_equal(nk_pos_owner(&p, i), NK_SOUTH);
    for (int i = 6; i < 12; i++)
        assert_int_equal(nk_pos_owner(&p, i), NK_NORTH);
    assert_int_equal(nk_pos_owned(&p, NK_SOUTH), 0x03F);
    assert_int_equal(nk_pos_owned(&p, NK_NORTH), 0xFC0);
    tl_pos(&p, "1,2,3,4,5,6/7,8,9,10,11,12 0-0 S");
    assert_int_equal(nk_pos_row_seeds(&p, NK_SOUTH), 21);
    assert_int_equal(nk_pos_row_seeds(&p, NK_NORTH), 57);
}

/* Sowing runs counter-clockwise: South's head f is followed by North's foot
 * A, and North's head F by South's foot a. */
static void test_R_B1_sowing_is_counter_clockwise(void **state)
{
    (void)state;
    nk_game *g = tl_game(tl_variant_named("abapa"), NULL, 0);
    tl_play(g, "f");
    tl_expect_pos(g, "4,4,4,4,4,0/5,5,5,5,4,4 0-0 N");
    tl_play(g, "F");
    tl_expect_pos(g, "5,5,5,5,4,0/5,5,5,5,4,0 0-0 S");
    free(g);
}

/* Stores never receive sown seeds: 22 seeds from f go into the eleven other
 * pits, two each (R-W2 skips the origin), and no store changes. */
static void test_R_B1_stores_never_receive_sown_seeds(void **state)
{
    (void)state;
    nk_game *g = tl_game(tl_variant_named("antigua"),
                         "0,0,0,0,0,22/1,1,1,1,1,1 0-0 S", 0);
    tl_play(g, "f");
    tl_expect_pos(g, "2,2,2,2,2,0/3,3,3,3,3,3 0-0 N");
    free(g);
}

/* ===== R-B2: the start position ===== */

static void test_R_B2_start_position(void **state)
{
    (void)state;
    char text[NK_POS_TEXT];
    nk_pos p;
    nk_pos_start(&p, NK_SOUTH);
    nk_pos_format(&p, text);
    assert_string_equal(text, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
    assert_int_equal(p.side, NK_SOUTH);
    assert_int_equal(p.store[0], 0);
    assert_int_equal(p.store[1], 0);
    assert_int_equal(p.flags, 0);
    assert_true(p.hash == nk_pos_hash(&p));
    nk_pos_start(&p, NK_NORTH);
    nk_pos_format(&p, text);
    assert_string_equal(text, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N");
    assert_true(p.hash == nk_pos_hash(&p));
}

static void test_R_B2_every_variant_starts_with_six_moves(void **state)
{
    (void)state;
    assert_int_equal(nk_variant_count(), 6);
    for (int rv = 0; rv < REF_VARIANTS; rv++) {
        const nk_variant *v = tl_variant(rv);
        nk_game *g = tl_game(v, NULL, 0);
        tl_expect_result(g, "none", 0, 0, 0);
        tl_expect_legal(g, "a b c d e f");
        nk_pos north;
        nk_pos_start(&north, NK_NORTH);
        assert_int_equal(nk_game_init(g, v, &north, NK_DEFAULT_PLY_LIMIT),
                         NK_OK);
        tl_expect_legal(g, "A B C D E F");
        free(g);
    }
    /* The variants by index are the variants by name. */
    for (size_t i = 0; i < nk_variant_count(); i++)
        assert_ptr_equal(nk_variant_find(nk_variant_at(i)->name),
                         nk_variant_at(i));
    assert_null(nk_variant_find("oware"));
    assert_null(nk_variant_find(""));
}

/* ===== R-B3: position notation ===== */

static void test_R_B3_good_strings_round_trip(void **state)
{
    (void)state;
    static const char *const good[] = {
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N",
        "0,0,0,0,0,0/0,0,0,0,0,0 0-0 S",
        "255,0,0,0,0,0/0,0,0,0,0,0 0-0 N",
        "0,0,0,0,0,0/0,0,0,0,0,255 0-0 S",
        "0,0,0,0,0,0/0,0,0,0,0,0 255-0 S",
        "0,0,0,0,0,0/0,0,0,0,0,0 0-255 N",
        "0,0,0,0,0,0/0,0,0,0,0,0 200-55 N",
        "1,2,3,4,5,6/7,8,9,10,11,12 13-14 N",
        "0,0,2,0,0,3/1,2,1,0,0,0 17-22 S",
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N SSSSSSSSNNNN",
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S NNSSSSNNNNNN",
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSSSSSSS",
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S NNNNNNNNNNNN",
        "1,0,3,0,5,0/0,6,0,8,0,9 7-11 S NSNSNSNSNSNS",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        nk_pos p;
        char text[NK_POS_TEXT];
        tl_pos(&p, good[i]);
        nk_pos_format(&p, text);
        assert_string_equal(text, good[i]);
        assert_true(p.hash == nk_pos_hash(&p));
        /* The reference reads the same position. */
        ref_pos r;
        char rtext[128];
        assert_true(ref_parse(&r, good[i]));
        ref_format(&r, rtext, sizeof rtext);
        assert_string_equal(rtext, text);
    }
}

static void test_R_B3_fields_are_read_into_the_position(void **state)
{
    (void)state;
    nk_pos p;
    tl_pos(&p, "1,0,3,0,5,0/0,6,0,8,0,9 7-11 N SSSSSSSSNNNN");
    static const uint8_t pits[12] = {1, 0, 3, 0, 5, 0, 0, 6, 0, 8, 0, 9};
    assert_memory_equal(p.pit, pits, 12);
    assert_int_equal(p.store[NK_SOUTH], 7);
    assert_int_equal(p.store[NK_NORTH], 11);
    assert_int_equal(p.side, NK_NORTH);
    assert_int_equal(p.north, 0xF00); /* pits 8..11 */
    assert_int_equal(nk_pos_owner(&p, 6), NK_SOUTH);
    assert_int_equal(nk_pos_owner(&p, 8), NK_NORTH);
    assert_int_equal(nk_pos_row_seeds(&p, NK_SOUTH), 9 + 6);
    assert_int_equal(nk_pos_row_seeds(&p, NK_NORTH), 17);
    tl_pos(&p, "0,0,0,0,0,0/0,0,0,0,0,0 0-0 S NSSSSSSSSSSS");
    assert_int_equal(p.north, 0x001);
}

/* The owners field appears only when ownership differs from the default
 * rows: written out in full, the default rows are read and then omitted. */
static void test_R_B3_default_owners_are_not_written(void **state)
{
    (void)state;
    nk_pos p;
    char text[NK_POS_TEXT];
    tl_pos(&p, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSNNNNNN");
    assert_int_equal(p.north, NK_DEFAULT_NORTH);
    nk_pos_format(&p, text);
    assert_string_equal(text, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
}

static void test_R_B3_bad_strings_are_rejected_with_a_message(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        " ",
        "4,4,4,4,4,4/4,4,4,4,4,4",                        /* no stores, side */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0",                    /* no side */
        "4,4,4,4,4,4/4,4,4,4,4,4 S",                      /* no stores */
        "4,4,4,4,4/4,4,4,4,4,4 0-0 S",                    /* 5 South pits */
        "4,4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",                /* 7 South pits */
        "4,4,4,4,4,4/4,4,4,4,4 0-0 S",                    /* 5 North pits */
        "4,4,4,4,4,4/4,4,4,4,4,4,4 0-0 S",                /* 7 North pits */
        "4,4,4,4,4,4,4,4,4,4,4,4 0-0 S",                  /* no slash */
        "4,4,4,4,4,4/4,4,4,4,4,4/4 0-0 S",                /* two slashes */
        "4,4,4,4,4,4 4,4,4,4,4,4 0-0 S",                  /* space for / */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSNNNNNN S",   /* extra field */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S x",                /* extra field */
        "4,4,x,4,4,4/4,4,4,4,4,4 0-0 S",                  /* letter */
        "4,4,4,4,4,4/4,4,4,4,4,a 0-0 S",                  /* letter */
        "4,4,4e0,4,4,4/4,4,4,4,4,4 0-0 S",                /* letter */
        "0x4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",                /* letter */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-x S",                  /* letter */
        "4,4,4,4,4,4/4,4,4,4,4,4 a-0 S",                  /* letter */
        "4,4,-1,4,4,4/4,4,4,4,4,4 0-0 S",                 /* negative */
        "-4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",                 /* negative */
        "4,4,4,4,4,4/4,4,4,4,4,4 -1-0 S",                 /* negative */
        "4,4,4,4,4,4/4,4,4,4,4,4 0--1 S",                 /* negative */
        "+4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",                 /* sign */
        "256,0,0,0,0,0/0,0,0,0,0,0 0-0 S",                /* > 255 */
        "0,0,0,0,0,0/0,0,0,0,0,1000 0-0 S",               /* > 255 */
        "0,0,0,0,0,0/0,0,0,0,0,0 256-0 S",                /* > 255 */
        "0,0,0,0,0,0/0,0,0,0,0,0 0-256 S",                /* > 255 */
        "4294967300,0,0,0,0,0/0,0,0,0,0,0 0-0 S",         /* overflow */
        "99999999999999999999,0,0,0,0,0/0,0,0,0,0,0 0-0 S",
        "200,56,0,0,0,0/0,0,0,0,0,0 0-0 S",               /* total 256 */
        "0,0,0,0,0,0/0,0,0,0,0,0 128-128 S",              /* total 256 */
        "4,4,4,4,4,4/4,4,4,4,4,4 200-10 S",               /* total 258 */
        "255,255,0,0,0,0/0,0,0,0,0,0 0-0 S",              /* total 510 */
        "4,,4,4,4,4/4,4,4,4,4,4 0-0 S",                   /* empty count */
        "4,4,4,4,4,4,/4,4,4,4,4,4 0-0 S",                 /* trailing comma */
        "4,4,4,4,4,4/4,4,4,4,4, 0-0 S",                   /* empty count */
        "4;4;4;4;4;4/4;4;4;4;4;4 0-0 S",                  /* separator */
        "4,4,4,4,4,4/4,4,4,4,4,4 0:0 S",                  /* separator */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0-0 S",                /* three stores */
        "4,4,4,4,4,4/4,4,4,4,4,4 00 S",                   /* one store */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 X",                  /* side */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 s",                  /* side */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 SN",                 /* side */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 South",              /* side */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSNNNNN",      /* 11 owners */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSNNNNNNN",    /* 13 owners */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSNNNNNX",     /* bad letter */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S ssssssnnnnnn",     /* bad letters */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSS NNNNNN",    /* space inside */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S 000000111111",     /* digits */
        " 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",                 /* leading space */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S ",                 /* trailing space */
        "4,4,4,4,4,4/4,4,4,4,4,4  0-0 S",                 /* double space */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0  S",                 /* double space */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S  SSSSSSSSNNNN",    /* double space */
        "4, 4,4,4,4,4/4,4,4,4,4,4 0-0 S",                 /* space in field */
        "4,4,4,4,4,4 /4,4,4,4,4,4 0-0 S",                 /* space in field */
        "4,4,4,4,4,4/4,4,4,4,4,4 0 - 0 S",                /* space in field */
        "4,4,4,4,4,4/4,4,4,4,4,4\t0-0 S",                 /* tab */
        "4,4,4,4,4,4/4,4,4,4,4,4 0-0\tS",                 /* tab */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nk_pos p;
        char err[256] = "";
        nk_status st = nk_pos_parse(&p, bad[i], err, sizeof err);
        if (st == NK_OK)
            fail_msg("nk_pos_parse accepted \"%s\"", bad[i]);
        if (st != NK_EINVAL && st != NK_ERANGE)
            fail_msg("\"%s\": status %d (%s)", bad[i], st, nk_strerror(st));
        if (err[0] == '\0')
            fail_msg("\"%s\" rejected without a message", bad[i]);
        /* The reference rejects it as well. */
        ref_pos r;
        if (ref_parse(&r, bad[i]))
            fail_msg("the reference accepted \"%s\"", bad[i]);
    }
}

/* A message fits a small buffer (truncated, NUL-terminated), and a NULL
 * buffer is allowed. */
static void test_R_B3_message_buffers(void **state)
{
    (void)state;
    nk_pos p;
    char small[8];
    memset(small, 'x', sizeof small);
    assert_int_not_equal(nk_pos_parse(&p, "4,4,4 0-0 S", small, sizeof small),
                         NK_OK);
    assert_non_null(memchr(small, '\0', sizeof small));
    assert_int_not_equal(nk_pos_parse(&p, "4,4,4 0-0 S", NULL, 0), NK_OK);
}

/* Any pit count 0..255 is accepted (a total of at most 255). */
static void test_R_B3_counts_up_to_255(void **state)
{
    (void)state;
    char text[128];
    for (int n = 0; n <= 255; n++) {
        snprintf(text, sizeof text, "0,0,0,%d,0,0/0,0,0,0,0,0 0-0 N", n);
        nk_pos p;
        tl_pos(&p, text);
        assert_int_equal(p.pit[3], n);
        assert_int_equal(nk_pos_total(&p), n);
    }
}

/* The owners field belongs to Adji Kui II match play: the parser reads it
 * for any position, a Warri game refuses to start from it (decision of
 * docs/rules.md), an adjikui game accepts it. */
static void test_R_B3_owners_field_only_for_adjikui_games(void **state)
{
    (void)state;
    nk_pos p;
    tl_pos(&p, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSSSNNNN");
    nk_game *g = malloc(sizeof *g);
    assert_non_null(g);
    for (int rv = 0; rv < REF_VARIANTS; rv++) {
        nk_status st = nk_game_init(g, tl_variant(rv), &p,
                                    NK_DEFAULT_PLY_LIMIT);
        assert_int_equal(st, rv == REF_ADJIKUI ? NK_OK : NK_EINVAL);
    }
    free(g);
}

/* ===== R-B4: move notation ===== */

static void test_R_B4_move_letters(void **state)
{
    (void)state;
    assert_int_equal(nk_move_letter(NK_PASS), '-');
    assert_int_equal(nk_move_parse('-'), NK_PASS);
    static const char bad[] = "gGzZ0 9_.+/\n";
    for (size_t i = 0; i < sizeof bad - 1; i++)
        assert_int_equal(nk_move_parse(bad[i]), NK_NO_MOVE);
    assert_int_equal(nk_move_parse('\0'), NK_NO_MOVE);
    /* Absolute: the letters name the same pits whoever moves. */
    nk_game *g = tl_game(tl_variant_named("antigua"), NULL, 0);
    char err[256];
    assert_int_equal(nk_game_play(g, nk_move_parse('A'), NULL, err,
                                  sizeof err),
                     NK_EILLEGAL);
    tl_play(g, "c C");
    tl_expect_pos(g, "5,4,0,5,5,5/5,4,0,5,5,5 0-0 S");
    free(g);
}

static void test_R_B4_moves_format(void **state)
{
    (void)state;
    char text[64];
    nk_moves_format(0, text, sizeof text);
    assert_string_equal(text, "none");
    nk_moves_format(1u << 0, text, sizeof text);
    assert_string_equal(text, "a");
    nk_moves_format((1u << 0) | (1u << 2) | (1u << 11), text, sizeof text);
    assert_string_equal(text, "a, c, F");
    nk_moves_format(1u << NK_PASS, text, sizeof text);
    assert_string_equal(text, "-");
}

/* Two consecutive letters by the same player after an Antigua grand slam
 * (R-W8). */
static void test_R_B4_same_player_twice_after_antigua_grand_slam(void **state)
{
    (void)state;
    nk_game *g = tl_game(tl_variant_named("antigua"),
                         "6,0,0,0,0,3/1,2,1,0,0,0 14-21 S", 0);
    tl_play(g, "f a");
    tl_expect_pos(g, "0,1,1,1,1,1/1,0,0,0,0,0 21-21 N");
    assert_int_equal(g->moves[0], 5);
    assert_int_equal(g->moves[1], 0);
    free(g);
}

/* ===== R-B5: seeds in play and the majority ===== */

static void test_R_B5_seeds_in_play(void **state)
{
    (void)state;
    nk_pos p;
    nk_pos_start(&p, NK_SOUTH);
    assert_int_equal(nk_pos_total(&p), 48);
    assert_int_equal(nk_pos_on_board(&p), 48);
    tl_pos(&p, "1,0,0,0,0,2/0,0,3,0,0,0 10-7 N");
    assert_int_equal(nk_pos_total(&p), 23);
    assert_int_equal(nk_pos_on_board(&p), 6);
}

/* T = 48: the majority is 25 (24 does not end the game); T = 47: 24. */
static void test_R_B5_majority_is_floor_half_plus_one(void **state)
{
    (void)state;
    const nk_variant *v = tl_variant_named("antigua");
    nk_pos p;
    tl_pos(&p, "1,1,1,1,1,1/1,1,1,1,1,1 24-12 N"); /* T = 48 */
    assert_int_equal(nk_pos_end(v, &p), NK_END_NONE);
    tl_pos(&p, "1,1,1,1,1,1/1,1,1,1,1,1 12-25 N");
    assert_int_equal(nk_pos_end(v, &p), NK_END_MAJORITY);
    tl_pos(&p, "1,1,1,1,1,1/1,1,1,1,1,0 24-12 N"); /* T = 47 */
    assert_int_equal(nk_pos_end(v, &p), NK_END_MAJORITY);
    tl_pos(&p, "1,1,1,1,1,1/1,1,1,1,1,0 23-13 N");
    assert_int_equal(nk_pos_end(v, &p), NK_END_NONE);
    tl_pos(&p, "1,1,0,0,0,0/1,1,0,0,0,0 3-0 S"); /* T = 7: majority 4 */
    assert_int_equal(nk_pos_end(v, &p), NK_END_NONE);
    tl_pos(&p, "1,1,0,0,0,0/1,0,0,0,0,0 4-0 S"); /* T = 7 */
    assert_int_equal(nk_pos_end(v, &p), NK_END_MAJORITY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R_B1_pit_indices_and_letters),
        cmocka_unit_test(test_R_B1_default_rows),
        cmocka_unit_test(test_R_B1_sowing_is_counter_clockwise),
        cmocka_unit_test(test_R_B1_stores_never_receive_sown_seeds),
        cmocka_unit_test(test_R_B2_start_position),
        cmocka_unit_test(test_R_B2_every_variant_starts_with_six_moves),
        cmocka_unit_test(test_R_B3_good_strings_round_trip),
        cmocka_unit_test(test_R_B3_fields_are_read_into_the_position),
        cmocka_unit_test(test_R_B3_default_owners_are_not_written),
        cmocka_unit_test(test_R_B3_bad_strings_are_rejected_with_a_message),
        cmocka_unit_test(test_R_B3_message_buffers),
        cmocka_unit_test(test_R_B3_counts_up_to_255),
        cmocka_unit_test(test_R_B3_owners_field_only_for_adjikui_games),
        cmocka_unit_test(test_R_B4_move_letters),
        cmocka_unit_test(test_R_B4_moves_format),
        cmocka_unit_test(test_R_B4_same_player_twice_after_antigua_grand_slam),
        cmocka_unit_test(test_R_B5_seeds_in_play),
        cmocka_unit_test(test_R_B5_majority_is_floor_half_plus_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
