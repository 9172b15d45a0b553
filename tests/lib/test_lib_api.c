/*
 * test_lib_api.c -- the public C API of libnickar (include/nickar.h),
 * linked against the shared library as a user links it: only the header's
 * symbols are reachable.  Every call's success and each of its refusals,
 * with the one-line message it writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <nickar.h>

static char err[NICKAR_ERR_MAX];

static void test_version(void **state)
{
    (void)state;
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", NICKAR_VERSION_MAJOR, NICKAR_VERSION_MINOR,
             NICKAR_VERSION_PATCH);
    assert_string_equal(nickar_version(), want);
    assert_int_equal(nickar_api_version(), NICKAR_API_VERSION);
    assert_string_equal(nickar_strerror(NICKAR_OK), "success");
    assert_string_equal(nickar_strerror(NICKAR_EILLEGAL), "illegal move");
    assert_string_equal(nickar_strerror(NICKAR_ENOFILE), "cannot open an input file");
    assert_string_equal(nickar_strerror((nickar_status)99), "unknown error");
}

static void test_variants(void **state)
{
    (void)state;
    size_t n = nickar_variant_count();
    assert_int_equal(n, 6);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(nickar_variant_name(i));
        assert_non_null(nickar_variant_title(i));
        assert_int_equal(nickar_variant_find(nickar_variant_name(i)), (int)i);
    }
    assert_null(nickar_variant_name(n));
    assert_null(nickar_variant_title(n));
    assert_int_equal(nickar_variant_find("abapa"), 4);
    assert_int_equal(nickar_variant_find("chess"), -1);
    assert_int_equal(nickar_variant_find(NULL), -1);
}

static void test_moves(void **state)
{
    (void)state;
    const char *letters = "abcdefABCDEF-";
    for (int m = 0; m <= NICKAR_PASS; m++) {
        assert_int_equal(nickar_move_letter(m), letters[m]);
        assert_int_equal(nickar_move_parse(letters[m]), m);
    }
    assert_int_equal(nickar_move_letter(13), '?');
    assert_int_equal(nickar_move_letter(-1), '?');
    assert_int_equal(nickar_move_parse('g'), NICKAR_NO_MOVE);
}

static void test_positions(void **state)
{
    (void)state;
    nickar_position p;
    char text[NICKAR_POS_TEXT];
    nickar_position_start(&p, NICKAR_NORTH);
    assert_int_equal(nickar_position_format(&p, text, err, sizeof err), NICKAR_OK);
    assert_string_equal(text, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N");
    const char *owned = "1,0,5,0,3,6/2,0,0,8,1,4 7-9 S SSNSSSNNNNSN";
    assert_int_equal(nickar_position_parse(owned, &p, err, sizeof err), NICKAR_OK);
    assert_int_equal(p.pit[2], 5);
    assert_int_equal(p.pit[9], 8);
    assert_int_equal(p.store[NICKAR_NORTH], 9);
    assert_int_equal(p.side, NICKAR_SOUTH);
    assert_int_equal(p.north, 0x4 | 0x40 | 0x80 | 0x100 | 0x200 | 0x800);
    assert_int_equal(nickar_position_format(&p, text, err, sizeof err), NICKAR_OK);
    assert_string_equal(text, owned);

    assert_int_equal(nickar_position_parse("4,4,4/4 0-0 S", &p, err, sizeof err), NICKAR_EINVAL);
    assert_non_null(strstr(err, "South's (a..f)"));
    assert_int_equal(nickar_position_parse(NULL, &p, err, sizeof err), NICKAR_EINVAL);
    nickar_position_start(&p, NICKAR_SOUTH);
    p.pit[3] = 256;
    assert_int_equal(nickar_position_format(&p, text, err, sizeof err), NICKAR_ERANGE);
    assert_string_equal(err, "pit d holds 256 seeds; 0..255 are allowed");
    p.pit[3] = 250;
    assert_int_equal(nickar_position_format(&p, text, err, sizeof err), NICKAR_ERANGE);
    assert_string_equal(err, "294 seeds in all; at most 255 are allowed");
    p.pit[3] = 4;
    p.store[1] = -1;
    assert_int_equal(nickar_position_format(&p, text, err, sizeof err), NICKAR_ERANGE);
    p.store[1] = 0;
    p.side = 2;
    assert_int_equal(nickar_position_format(&p, text, err, sizeof err), NICKAR_EINVAL);
    p.side = 0;
    p.north = 0x1000;
    assert_int_equal(nickar_position_format(&p, text, err, sizeof err), NICKAR_EINVAL);
}

/* The error buffer is never overrun and always terminated; NULL is allowed. */
static void test_error_buffer(void **state)
{
    (void)state;
    nickar_game *g;
    char small[9];
    memset(small, 'x', sizeof small);
    assert_int_equal(nickar_game_new(&g, "chess", NULL, 0, small, 8), NICKAR_EINVAL);
    assert_null(g);
    assert_string_equal(small, "unknown");
    assert_int_equal(small[8], 'x');
    assert_int_equal(nickar_game_new(&g, "chess", NULL, 0, NULL, 0), NICKAR_EINVAL);
    assert_int_equal(nickar_game_new(&g, "chess", NULL, 0, err, sizeof err), NICKAR_EINVAL);
    assert_string_equal(err, "unknown variant 'chess'; valid variants: antigua, speightstown, "
                             "bridgetown, adjikui, abapa, awari");
}

static void test_game(void **state)
{
    (void)state;
    nickar_game *g;
    char text[NICKAR_POS_TEXT];
    assert_int_equal(nickar_game_new(&g, "abapa", NULL, 0, err, sizeof err), NICKAR_OK);
    assert_string_equal(nickar_game_variant(g), "abapa");
    assert_int_equal(nickar_game_ply_limit(g), NICKAR_DEFAULT_PLY_LIMIT);
    assert_int_equal(nickar_game_legal(g), 0x3F);
    assert_int_equal(nickar_game_to_move(g), NICKAR_SOUTH);
    assert_int_equal(nickar_game_play(g, 7, NULL, err, sizeof err), NICKAR_EILLEGAL);
    assert_non_null(strstr(err, "a, b, c, d, e, f"));
    assert_int_equal(nickar_game_play(g, 13, NULL, err, sizeof err), NICKAR_EILLEGAL);
    assert_int_equal(nickar_game_play(g, -1, NULL, err, sizeof err), NICKAR_EILLEGAL);
    unsigned captured = 99;
    assert_int_equal(nickar_game_play(g, 1, &captured, err, sizeof err), NICKAR_OK);
    assert_int_equal(captured, 0);
    nickar_game_position_text(g, text);
    assert_string_equal(text, "4,0,5,5,5,5/4,4,4,4,4,4 0-0 N");
    assert_int_equal(nickar_game_ply(g), 1);
    assert_int_equal(nickar_game_move_at(g, 0), 1);
    assert_int_equal(nickar_game_move_at(g, 1), NICKAR_NO_MOVE);
    assert_int_equal(nickar_game_legal(g), 0xFC0);
    nickar_result r;
    nickar_game_result(g, &r);
    assert_false(r.over);
    assert_string_equal(r.reason, "none");
    assert_int_equal(r.winner, -1);

    nickar_game *c = nickar_game_clone(g);
    assert_non_null(c);
    assert_int_equal(nickar_game_play(c, 6, NULL, err, sizeof err), NICKAR_OK);
    assert_int_equal(nickar_game_ply(c), 2);
    assert_int_equal(nickar_game_ply(g), 1);
    nickar_position p;
    nickar_game_position(c, &p);
    assert_int_equal(p.pit[6], 0);
    assert_int_equal(p.side, NICKAR_SOUTH);
    nickar_game_free(c);
    nickar_game_free(g);
    nickar_game_free(NULL);
}

static void test_game_end(void **state)
{
    (void)state;
    nickar_game *g;
    /* South has 25 of 48: the majority rule ends the game at once. */
    assert_int_equal(nickar_game_new(&g, "abapa", "1,0,0,0,0,0/0,0,0,0,0,1 25-21 N", 0, err,
                                     sizeof err),
                     NICKAR_OK);
    assert_true(nickar_game_over(g));
    assert_int_equal(nickar_game_legal(g), 0);
    nickar_result r;
    nickar_game_result(g, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "majority");
    assert_int_equal(r.winner, NICKAR_SOUTH);
    assert_int_equal(nickar_game_play(g, 11, NULL, err, sizeof err), NICKAR_EOVER);
    nickar_think t;
    nickar_player *pl;
    assert_int_equal(nickar_player_new(&pl, "greedy", "abapa", 1, err, sizeof err), NICKAR_OK);
    assert_int_equal(nickar_player_move(pl, g, &t, err, sizeof err), NICKAR_EOVER);
    assert_string_equal(err, "the game is over (majority)");
    nickar_player_free(pl);
    double v;
    assert_int_equal(nickar_evaluate(g, "ab", &v, err, sizeof err), NICKAR_OK);
    assert_true(v < -1e6); /* North to move has lost */
    nickar_game_free(g);

    /* The ply limit: two plies, then the game is over. */
    assert_int_equal(nickar_game_new(&g, "abapa", NULL, 2, err, sizeof err), NICKAR_OK);
    assert_int_equal(nickar_game_play(g, 0, NULL, err, sizeof err), NICKAR_OK);
    assert_int_equal(nickar_game_play(g, 6, NULL, err, sizeof err), NICKAR_OK);
    nickar_game_result(g, &r);
    assert_string_equal(r.reason, "ply-limit");
    nickar_game_free(g);

    assert_int_equal(nickar_game_new(&g, "abapa", NULL, NICKAR_MAX_PLY_LIMIT + 1, err, sizeof err),
                     NICKAR_ERANGE);
    assert_int_equal(nickar_game_new(&g, "abapa", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S NNNNNNSSSSSS",
                                     0, err, sizeof err),
                     NICKAR_EINVAL);
    assert_non_null(strstr(err, "owners"));
    assert_int_equal(nickar_game_new(&g, "adjikui", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S NNNNNNSSSSSS",
                                     0, err, sizeof err),
                     NICKAR_OK);
    nickar_game_free(g);
    assert_int_equal(nickar_game_new(&g, "abapa", "4,4 0-0 S", 0, err, sizeof err), NICKAR_EINVAL);
    assert_null(g);
}

static void test_players(void **state)
{
    (void)state;
    nickar_player *p;
    assert_int_equal(nickar_player_new(&p, "ab:depth=0", "abapa", 1, err, sizeof err),
                     NICKAR_ERANGE);
    assert_null(p);
    assert_non_null(strstr(err, "depth"));
    assert_int_equal(nickar_player_new(&p, "wizard", "abapa", 1, err, sizeof err), NICKAR_EINVAL);
    assert_non_null(strstr(err, "valid players"));
    assert_int_equal(nickar_player_new(&p, "human", "abapa", 1, err, sizeof err), NICKAR_EINVAL);
    assert_int_equal(nickar_player_new(&p, "greedy", "chess", 1, err, sizeof err), NICKAR_EINVAL);
    assert_int_equal(nickar_player_new(&p, "ab:weights=/no/such/file", "abapa", 1, err, sizeof err),
                     NICKAR_ENOFILE);
    assert_non_null(strstr(err, "/no/such/file"));

    nickar_game *g, *other;
    assert_int_equal(nickar_game_new(&g, "abapa", NULL, 0, err, sizeof err), NICKAR_OK);
    assert_int_equal(nickar_game_new(&other, "awari", NULL, 0, err, sizeof err), NICKAR_OK);
    assert_int_equal(nickar_player_new(&p, "ab:depth=4", "abapa", 1, err, sizeof err), NICKAR_OK);
    assert_string_equal(nickar_player_spec(p), "ab:depth=4");
    nickar_think t1, t2;
    assert_int_equal(nickar_player_move(p, g, &t1, err, sizeof err), NICKAR_OK);
    assert_true(t1.move >= 0 && t1.move < 6);
    assert_int_equal(t1.depth, 4);
    assert_true(t1.nodes > 0);
    assert_int_equal(nickar_search(g, "ab:depth=4", 7, &t2, err, sizeof err), NICKAR_OK);
    assert_int_equal(t2.move, t1.move);
    assert_int_equal(t2.nodes, t1.nodes);
    assert_true(t2.score == t1.score);
    assert_int_equal(nickar_player_move(p, other, &t1, err, sizeof err), NICKAR_EINVAL);
    assert_string_equal(err, "player 'ab:depth=4' plays abapa, the game is awari");
    double v;
    assert_int_equal(nickar_player_evaluate(p, g, &v, err, sizeof err), NICKAR_OK);
    assert_true(v == 0.0); /* the start is symmetric */
    nickar_player_free(p);
    assert_int_equal(nickar_evaluate(g, "greedy", &v, err, sizeof err), NICKAR_EINVAL);
    assert_non_null(strstr(err, "no evaluation"));
    assert_int_equal(nickar_search(g, "ab:colour=red", 1, NULL, err, sizeof err), NICKAR_EINVAL);
    nickar_game_free(other);
    nickar_game_free(g);
}

/* A side a move ahead in seeds is evaluated better, and the mirror image
 * worse, from the side to move's view. */
static void test_evaluation(void **state)
{
    (void)state;
    nickar_game *g;
    double a, b;
    assert_int_equal(nickar_game_new(&g, "abapa", "4,4,4,4,4,4/4,4,4,4,0,0 8-0 S", 0, err,
                                     sizeof err),
                     NICKAR_OK);
    assert_int_equal(nickar_evaluate(g, "ab:features=positional", &a, err, sizeof err), NICKAR_OK);
    nickar_game_free(g);
    assert_int_equal(nickar_game_new(&g, "abapa", "4,4,4,4,4,4/4,4,4,4,0,0 8-0 N", 0, err,
                                     sizeof err),
                     NICKAR_OK);
    assert_int_equal(nickar_evaluate(g, "ab:features=positional", &b, err, sizeof err), NICKAR_OK);
    nickar_game_free(g);
    assert_true(a > 0);
    assert_true(b < 0);
}

/* Random players: the same seed, the same game; nickar_player_seed starts
 * over.  Weights from a file. */
static void test_seeds_and_weights(void **state)
{
    (void)state;
    unsigned moves[2][40];
    for (int run = 0; run < 2; run++) {
        nickar_player *p;
        nickar_game *g;
        assert_int_equal(nickar_player_new(&p, "random", "awari", 5, err, sizeof err), NICKAR_OK);
        if (run == 1) {
            nickar_player_seed(p, 99);
            nickar_player_seed(p, 5);
        }
        assert_int_equal(nickar_game_new(&g, "awari", NULL, 0, err, sizeof err), NICKAR_OK);
        for (int k = 0; k < 40 && !nickar_game_over(g); k++) {
            nickar_think t;
            assert_int_equal(nickar_player_move(p, g, &t, err, sizeof err), NICKAR_OK);
            assert_int_equal(nickar_game_play(g, t.move, NULL, err, sizeof err), NICKAR_OK);
            moves[run][k] = (unsigned)t.move;
        }
        nickar_game_free(g);
        nickar_player_free(p);
    }
    assert_memory_equal(moves[0], moves[1], sizeof moves[0]);

    char path[] = "/tmp/nickar-weights-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# dk2002\n1\n1\n1\n1\n-1\n1\n", f);
    fclose(f);
    char spec[128];
    snprintf(spec, sizeof spec, "ab:depth=2,features=dk2002,weights=%s", path);
    nickar_game *g;
    double v;
    assert_int_equal(nickar_game_new(&g, "abapa", "4,4,4,4,4,4/4,4,4,4,4,4 3-0 S", 0, err,
                                     sizeof err),
                     NICKAR_OK);
    assert_int_equal(nickar_evaluate(g, spec, &v, err, sizeof err), NICKAR_OK);
    assert_true(v == 3.0); /* own store 3 (x1), opponent store 0 (x-1 of its negation) */
    nickar_game_free(g);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),          cmocka_unit_test(test_variants),
        cmocka_unit_test(test_moves),            cmocka_unit_test(test_positions),
        cmocka_unit_test(test_error_buffer),     cmocka_unit_test(test_game),
        cmocka_unit_test(test_game_end),         cmocka_unit_test(test_players),
        cmocka_unit_test(test_evaluation),       cmocka_unit_test(test_seeds_and_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
