/*
 * test_io_ladder.c -- a reference ladder's text file (io/ladder.h): a
 * ladder with its results reads back (players, ratings, the results both
 * ways round, the anchor); one without results has none; every damaged
 * file is refused with one line naming FILE:LINE (or FILE) and the ladder
 * left empty.
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

#include "io/ladder.h"

static char path[256];

static void write_file(const char *text)
{
    snprintf(path, sizeof path, "/tmp/test_io_ladder_%ld.tsv", (long)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static const char GOOD[] = "# a ladder\n"
                           "random\trandom\t0\n"
                           "\n"
                           "greedy\tgreedy\t250.5\n"
                           "d1\tab:depth=1\t400\n"
                           "@anchor\trandom\t0\n"
                           "@wdl\trandom\tgreedy\t1\t2\t7\n"
                           "@wdl\td1\tgreedy\t6\t0\t4\n";

static void test_read(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    char err[NK_MSG_MAX];
    nk_ladder l;
    write_file(GOOD);
    if (nk_ladder_read(&l, path, v, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    assert_int_equal(l.n, 3);
    assert_string_equal(l.rung[1].name, "greedy");
    assert_string_equal(l.rung[2].def.spec.text, "ab:depth=1");
    assert_true(l.rung[1].elo == 250.5);
    assert_true(l.has_anchor && l.anchor == 0 && l.anchor_elo == 0);
    assert_non_null(l.wdl);
    assert_int_equal(l.wdl[0 * 3 + 1].w, 1);
    assert_int_equal(l.wdl[1 * 3 + 0].w, 7);
    assert_int_equal(l.wdl[1 * 3 + 0].d, 2);
    assert_int_equal(l.wdl[2 * 3 + 1].w, 6);
    assert_int_equal(l.wdl[1 * 3 + 2].l, 6);
    assert_int_equal(l.wdl[0 * 3 + 2].w + l.wdl[0 * 3 + 2].d + l.wdl[0 * 3 + 2].l, 0);
    nk_ladder_free(&l);
    /* without results */
    write_file("random\trandom\t0\ngreedy\tgreedy\t250\n");
    assert_int_equal(nk_ladder_read(&l, path, v, err, sizeof err), NK_OK);
    assert_int_equal(l.n, 2);
    assert_null(l.wdl);
    assert_false(l.has_anchor);
    nk_ladder_free(&l);
    nk_ladder_free(&l); /* an empty ladder */
    unlink(path);
}

static void test_damaged(void **state)
{
    (void)state;
    const struct {
        const char *text, *want;
        nk_status st;
    } cases[] = {
        {"a\tb\n", ":1: expected NAME<TAB>SPEC<TAB>ELO", NK_EFORMAT},
        {"a\trandom\tx\n", ":1: expected NAME", NK_EFORMAT},
        {"\trandom\t0\n", ":1: expected NAME", NK_EFORMAT},
        {"a\tnobody\t0\n", ":1: ", NK_EINVAL},
        {"# none\n", ": no players in the ladder", NK_EFORMAT},
        {"a\trandom\t0\n@foo\ta\n", ":2: '@foo': a line may start with @anchor or @wdl only",
         NK_EFORMAT},
        {"a\trandom\t0\n@anchor\tb\t0\n", ":2: expected @anchor", NK_EFORMAT},
        {"a\trandom\t0\nb\tgreedy\t1\n@anchor\ta\t0\n@wdl\ta\tb\t1\t2\n", ":4: expected @wdl",
         NK_EFORMAT},
        {"a\trandom\t0\nb\tgreedy\t1\n@anchor\ta\t0\n@wdl\ta\tb\t1\t2\t-3\n", ":4: expected @wdl",
         NK_EFORMAT},
        {"a\trandom\t0\nb\tgreedy\t1\n@anchor\ta\t0\n@wdl\ta\ta\t1\t2\t3\n", ":4: expected @wdl",
         NK_EFORMAT},
        {"a\trandom\t0\nb\tgreedy\t1\n@anchor\ta\t0\n@wdl\ta\tb\t1\t2\t3\n@wdl\tb\ta\t3\t2\t1\n",
         ":5: a second @wdl line for b and a", NK_EFORMAT},
        {"a\trandom\t0\nb\tgreedy\t1\n@wdl\ta\tb\t1\t2\t3\n",
         ": the ladder's results need both @anchor and @wdl lines", NK_EFORMAT},
        {"a\trandom\t0\n@anchor\ta\t0\nb\tgreedy\t1\n", ":3: a player after the results",
         NK_EFORMAT},
        /* found by fuzz_ladder: a second player of the same name, whose
         * results no @wdl line could name */
        {"random\trandom\t3\nrandom\trandom\t0\n", ":2: duplicate player name 'random'",
         NK_EFORMAT},
        /* a name cut to NK_PLAYER_NAME - 1 bytes would be another name */
        {"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\trandom\t0\n", ":1: player name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is "
         "longer than 127 bytes", NK_EFORMAT},
    };
    const nk_variant *v = nk_variant_find("abapa");
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        write_file(cases[c].text);
        char err[NK_MSG_MAX] = "";
        nk_ladder l;
        assert_int_equal(nk_ladder_read(&l, path, v, err, sizeof err), cases[c].st);
        char want[512];
        snprintf(want, sizeof want, "%s%s", path, cases[c].want);
        if (strncmp(err, want, strlen(want)) != 0 || strchr(err, '\n') != NULL)
            fail_msg("case %zu: '%s', expected '%s...'", c, err, want);
        assert_null(l.rung);
        assert_null(l.wdl);
        assert_int_equal(l.n, 0);
    }
    unlink(path);
    char err[NK_MSG_MAX];
    nk_ladder l;
    assert_int_equal(nk_ladder_read(&l, path, v, err, sizeof err), NK_ENOFILE);
    assert_non_null(strstr(err, "no ladder '"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read),
        cmocka_unit_test(test_damaged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
