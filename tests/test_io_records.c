/*
 * test_io_records.c -- game records (io/records.h): a game written and read
 * back is the same game; every kind of damage is refused with a message
 * that says what is wrong; the file reader names FILE:LINE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/records.h"

/* A random game of v from start, as a record, and its line. */
static void random_game(nk_record *r, char *line, const char *variant, const char *start,
                        uint64_t seed, bool finish)
{
    char err[NK_MSG_MAX];
    const nk_variant *v = nk_variant_find(variant);
    nk_pos pos;
    assert_non_null(v);
    if (start != NULL)
        assert_int_equal(nk_pos_parse(&pos, start, err, sizeof err), NK_OK);
    else
        nk_pos_start(&pos, NK_SOUTH);
    nk_game *g = nk_malloc(sizeof *g);
    assert_non_null(g);
    assert_int_equal(nk_game_init(g, v, &pos, 1000), NK_OK);
    nk_rng rng = {seed};
    while (!nk_game_over(g) && (finish || g->ply < 7))
        nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
    assert_int_equal(nk_record_set(r, v, 1000, &g->start, g->moves, g->ply, &g->result,
                                   "ab:depth=2", "greedy", err, sizeof err),
                     NK_OK);
    nk_record_format(r, line, NK_RECORD_LINE);
    nk_free(g);
}

static void test_round_trip(void **state)
{
    (void)state;
    static nk_record r, back;
    static char line[NK_RECORD_LINE], again[NK_RECORD_LINE];
    char err[NK_MSG_MAX];
    const char *variants[] = {"antigua", "speightstown", "bridgetown", "abapa", "adjikui", "awari"};
    for (int i = 0; i < 6; i++) {
        for (int finish = 0; finish < 2; finish++) {
            random_game(&r, line, variants[i], NULL, 11 + (uint64_t)i, finish);
            assert_int_equal(nk_record_parse(&back, line, err, sizeof err), NK_OK);
            assert_ptr_equal(back.variant, r.variant);
            assert_int_equal(back.plies, r.plies);
            assert_memory_equal(back.moves, r.moves, r.plies);
            assert_int_equal(back.result.reason, r.result.reason);
            assert_string_equal(back.player[NK_NORTH], "greedy");
            nk_record_format(&back, again, sizeof again);
            assert_string_equal(again, line);
        }
    }
    /* Adji Kui II from bought pits: the owners field is kept. */
    random_game(&r, line, "adjikui", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N SSSSSNNNNNNS", 5, true);
    assert_non_null(strstr(line, " record=4,4,4,4,4,4/4,4,4,4,4,4 0-0 N SSSSSNNNNNNS "));
    assert_int_equal(nk_record_parse(&back, line, err, sizeof err), NK_OK);
    assert_int_equal(back.start.north, r.start.north);
    nk_record_format(&back, again, sizeof again);
    assert_string_equal(again, line);
}

/* Replaces the first `from` in line by `to` and expects the parser to
 * refuse it with a message that holds `want`. */
static void refused(const char *line, const char *from, const char *to, const char *want)
{
    static char bad[NK_RECORD_LINE];
    static nk_record r;
    char err[NK_MSG_MAX];
    const char *at = strstr(line, from);
    assert_non_null(at);
    snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - line), line, to, at + strlen(from));
    nk_status st = nk_record_parse(&r, bad, err, sizeof err);
    if (st != NK_EINVAL)
        fail_msg("'%.200s' gave status %d, want NK_EINVAL", bad, (int)st);
    if (strstr(err, want) == NULL)
        fail_msg("'%s' gave '%s', want '%s'", bad, err, want);
}

static void test_damage(void **state)
{
    (void)state;
    static nk_record r;
    static char line[NK_RECORD_LINE];
    random_game(&r, line, "antigua", NULL, 3, true);
    refused(line, "game ", "gam ", "a record starts with 'game '");
    refused(line, "variant=antigua", "variant=oware", "unknown variant 'oware'");
    refused(line, "limit=1000", "limit=0", "bad limit '0'");
    refused(line, "limit=1000", "limit=x", "bad limit 'x'");
    refused(line, " south=ab:depth=2", "", "expected south=");
    refused(line, "north=greedy", "north=", "north= has no value");
    refused(line, "result=", "result=X", "bad result");
    refused(line, "score=", "score=x", "bad score");
    refused(line, "reason=", "reason=bored", "unknown end reason 'bored");
    refused(line, "plies=", "plies=9", "but the record holds");
    refused(line, "record=4,4,4,4,4,4/", "record=4,4,4,4,4/", "bad start position");
    refused(line, "0-0 S ", "0-0 S x ", "bad move 1 'x'");
    refused(line, "0-0 S ", "0-0 S a  ", "bad move");
    refused(line, "0-0 S ", "0-0 S SSSSSNNNNNNS ", "the game cannot start: pit owners");
    refused(line, "result=", "result=none score=- reason=none plies=0 record=x ", "");
    /* The same game with a changed result: the engine disagrees. */
    const char *res = strstr(line, "score=");
    assert_non_null(res);
    refused(line, "score=", "score=1", "the moves end in");
    /* An unfinished game stated as finished and the other way. */
    static char part[NK_RECORD_LINE];
    random_game(&r, part, "abapa", NULL, 4, false);
    refused(part, "result=none score=- reason=none", "result=S score=1-0 reason=majority",
            "the moves end in 'the game goes on'");
    refused(part, "result=none score=- reason=none", "result=none score=1-0 reason=none",
            "result=none needs score=- and reason=none");
    /* An illegal move: North's pit first. */
    refused(part, "plies=7 record=4,4,4,4,4,4/4,4,4,4,4,4 0-0 S ",
            "plies=8 record=4,4,4,4,4,4/4,4,4,4,4,4 0-0 S A ", "move 1 'A' is illegal");
    /* Specs with spaces cannot be written. */
    char err[NK_MSG_MAX];
    assert_int_equal(nk_record_set(&r, r.variant, 1000, &r.start, r.moves, r.plies, &r.result,
                                   "a b", "greedy", err, sizeof err),
                     NK_EINVAL);
}

static void test_file(void **state)
{
    (void)state;
    static nk_record r;
    static char line[NK_RECORD_LINE];
    char path[] = "/tmp/nickar-records-XXXXXX", err[NK_MSG_MAX];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    random_game(&r, line, "bridgetown", NULL, 8, true);
    fprintf(f, "# games\n\n%s\n%s\n", line, line);
    fprintf(f, "game variant=antigua limit=1000 south=a north=b\n");
    assert_int_equal(fclose(f), 0);
    nk_record *recs = NULL;
    size_t n = 0;
    assert_int_equal(nk_records_read(path, &recs, &n, err, sizeof err), NK_EINVAL);
    assert_int_equal(n, 2);
    char want[600];
    snprintf(want, sizeof want, "%s:5: the line ends after north=; result=... is missing", path);
    assert_string_equal(err, want);
    nk_free(recs);
    f = fopen(path, "w");
    fprintf(f, "# nothing\n");
    fclose(f);
    recs = NULL;
    n = 0;
    assert_int_equal(nk_records_read(path, &recs, &n, err, sizeof err), NK_EFORMAT);
    nk_free(recs);
    unlink(path);
    assert_int_equal(nk_records_read(path, &recs, &n, err, sizeof err), NK_ENOFILE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_damage),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
