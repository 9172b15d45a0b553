/*
 * test_tb_player.c -- `ab:...,tb=DIR` players (search/search.h
 * nk_search_set_tb, tb/tb.h nk_tb_shared_open, docs/tablebase.md
 * "Players").
 *
 * - From won positions of 8 board seeds found in the database (South to
 *   move, no NK_TB_CYCLE: values that do not rest on the repetition rule),
 *   with empty stores, so that the majority rule cannot end the game before
 *   the board is played out: `ab:depth=1,tb=DIR` collects exactly the
 *   database's value against itself, and at least that value against a
 *   depth-6 search without the database, greedy and random.
 * - The same positions with stores 20-20 (48 seeds in all): the result of
 *   the real game, majority rule included, is the one the value predicts.
 * - Speightstown (two planes): from positions won under perfect play with
 *   the stores given, `ab:depth=1,tb=DIR` wins against a depth-6 search,
 *   greedy and random; from drawn ones it does not lose.
 * - adjikui with a database of ownership pattern 0 only: from positions of
 *   other patterns `ab:depth=4,tb=DIR` plays the same games as
 *   `ab:depth=4` (outside the database), from positions of pattern 0 the
 *   same as with the database of all eleven patterns.
 * - nk_player_new refuses a tb= whose database is not open, and
 *   nk_tb_shared_open opens a database once (the same nk_tb twice) and
 *   refuses a missing one and another variant's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "search/player.h"
#include "tb/tb.h"

static char dir[] = "/tmp/nk_tbp_XXXXXX";
static const nk_variant *abapa;
static const nk_tb *db;

static const nk_variant *speight;
static const nk_tb *sdb;

static int setup(void **state)
{
    (void)state;
    char err[NK_MSG_MAX], path[256];
    nk_tb tb;
    abapa = nk_variant_find("abapa");
    speight = nk_variant_find("speightstown");
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(path, sizeof path, "%s/abapa.nktb", dir);
    if (nk_tb_build(&tb, abapa, 8, 0, NULL, err, sizeof err) != NK_OK ||
        nk_tb_write(&tb, path, err, sizeof err) != NK_OK)
        return -1;
    nk_tb_close(&tb);
    snprintf(path, sizeof path, "%s/speightstown.nktb", dir);
    if (nk_tb_build(&tb, speight, 8, 0, NULL, err, sizeof err) != NK_OK ||
        nk_tb_write(&tb, path, err, sizeof err) != NK_OK)
        return -1;
    nk_tb_close(&tb);
    if (nk_tb_shared_open(dir, speight, &sdb, err, sizeof err) != NK_OK)
        return -1;
    return nk_tb_shared_open(dir, abapa, &db, err, sizeof err) == NK_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char path[256];
    nk_tb_shared_close_all();
    snprintf(path, sizeof path, "%s/abapa.nktb", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/speightstown.nktb", dir);
    unlink(path);
    rmdir(dir);
    return 0;
}

static nk_player *make_for(const nk_variant *v, const char *text)
{
    nk_spec spec;
    nk_player *p = NULL;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_spec_parse(&spec, text, err, sizeof err), NK_OK);
    if (nk_player_new(&p, &spec, v, NULL, 0, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    return p;
}

static nk_player *make(const char *text)
{
    return make_for(abapa, text);
}

/* Plays the game of v from pos, south and north moving; the result. */
static nk_result play_v(const nk_variant *v, const nk_pos *pos, nk_player *south,
                        nk_player *north, uint64_t seed)
{
    nk_game g;
    nk_rng rng = {seed};
    assert_int_equal(nk_game_init(&g, v, pos, NK_DEFAULT_PLY_LIMIT), NK_OK);
    while (!nk_game_over(&g)) {
        int mv = nk_player_move(g.pos.side == NK_SOUTH ? south : north, &g, &rng, NULL);
        assert_true(mv != NK_NO_MOVE);
        nk_game_play_legal(&g, mv, NULL);
    }
    return g.result;
}

static nk_result play(const nk_pos *pos, nk_player *south, nk_player *north, uint64_t seed)
{
    return play_v(abapa, pos, south, north, seed);
}

/* Speightstown: from 12 positions of 8 board seeds that South wins under
 * perfect play with stores that leave him needing exactly what he can
 * force (s + g = 25 of 48, R-W12), `ab:depth=1,tb=DIR` wins against a
 * depth-6 search, greedy and random; from positions the database calls
 * drawn (neither side can force the majority) it does not lose. */
static void test_speightstown_endgame(void **state)
{
    (void)state;
    char text[256];
    snprintf(text, sizeof text, "ab:depth=1,tb=%s", dir);
    nk_player *tbp = make_for(speight, text);
    const char *others[] = {"ab:depth=6", "greedy", "random"};
    unsigned won = 0, drawn = 0;
    for (uint64_t i = 0; i < nk_tb_count(8) && (won < 12 || drawn < 12); i += 7) {
        nk_pos p;
        memset(&p, 0, sizeof p);
        nk_tb_unrank(8, i, p.pit);
        p.north = NK_DEFAULT_NORTH;
        p.side = NK_SOUTH;
        uint8_t byte;
        int h;
        assert_int_equal(nk_tb_probe_pair(sdb, &p, &byte, &h), NK_OK);
        const int g = byte & NK_TB_VALUE_MASK;
        if (g == 0 || nk_pos_end_reached(&sdb->rules, &p) != NK_END_NONE)
            continue;
        /* South one seed short of winning by what he forces: a draw when
         * North cannot force his own majority either; else exactly enough:
         * a win. */
        p.store[NK_SOUTH] = (uint8_t)(won >= 12 || i % 2 ? 24 - g : 25 - g);
        p.store[NK_NORTH] = (uint8_t)(40 - p.store[NK_SOUTH]);
        p.hash = nk_pos_hash(&p);
        const int out = nk_tb_outcome(sdb, &p, g, h);
        if (out < 0 || (out == 1 && won >= 12) || (out == 0 && drawn >= 12))
            continue;
        for (int k = 0; k < 3; k++) {
            nk_player *o = make_for(speight, others[k]);
            nk_result r = play_v(speight, &p, tbp, o, 11 + i);
            nk_player_free(o);
            if (out == 1 && r.winner != NK_SOUTH) {
                nk_pos_format(&p, text);
                fail_msg("%s: South should win against %s, got winner %d", text, others[k],
                         r.winner);
            }
            if (out == 0 && r.winner == NK_NORTH) {
                nk_pos_format(&p, text);
                fail_msg("%s: South should not lose against %s", text, others[k]);
            }
        }
        won += out == 1;
        drawn += out == 0;
    }
    printf("  speightstown: %u won and %u drawn positions of 8 seeds played out\n", won, drawn);
    assert_int_equal(won, 12);
    assert_int_equal(drawn, 12);
    nk_player_free(tbp);
}

/* The first n won positions of b seeds without NK_TB_CYCLE, South to move. */
static unsigned won_positions(unsigned b, nk_pos *out, uint8_t *value, unsigned n)
{
    unsigned k = 0;
    for (uint64_t i = 0; i < nk_tb_count(b) && k < n; i += 13) {
        nk_pos p;
        memset(&p, 0, sizeof p);
        nk_tb_unrank(b, i, p.pit);
        p.north = NK_DEFAULT_NORTH;
        p.side = NK_SOUTH;
        p.hash = nk_pos_hash(&p);
        uint8_t byte;
        if (nk_pos_end_reached(abapa, &p) != NK_END_NONE ||
            nk_tb_probe(db, &p, &byte) != NK_OK || (byte & NK_TB_CYCLE) ||
            2 * (byte & NK_TB_VALUE_MASK) <= b)
            continue;
        out[k] = p;
        value[k++] = byte & NK_TB_VALUE_MASK;
    }
    return k;
}

enum { NPOS = 12 };

static void test_perfect_endgame(void **state)
{
    (void)state;
    nk_pos pos[NPOS];
    uint8_t value[NPOS];
    unsigned n = won_positions(8, pos, value, NPOS);
    printf("  %u won positions of 8 seeds without the cycle bit\n", n);
    assert_int_equal(n, NPOS);
    char text[256];
    snprintf(text, sizeof text, "ab:depth=1,tb=%s", dir);
    nk_player *tbp = make(text), *tbq = make(text);
    nk_player *opp[3] = {make("ab:depth=6"), make("greedy"), make("random")};
    unsigned above = 0;
    for (unsigned k = 0; k < n; k++) {
        /* Empty stores: the board is played out, the totals are the seeds
         * each side collects. */
        nk_result r = play(&pos[k], tbp, tbq, k);
        if (r.total[NK_SOUTH] != value[k])
            fail_msg("position %u: perfect play from both sides gave South %u, the database %u",
                     k, r.total[NK_SOUTH], value[k]);
        for (unsigned o = 0; o < 3; o++) {
            r = play(&pos[k], tbp, opp[o], 1000 * k + o);
            if (r.total[NK_SOUTH] < value[k])
                fail_msg("position %u against %s: South collected %u, the database says %u", k,
                         nk_player_spec(opp[o])->text, r.total[NK_SOUTH], value[k]);
            above += r.total[NK_SOUTH] > value[k];
        }
        /* Stores 20-20: the real game (the majority rule ends it when a
         * store reaches 25) has the result the value predicts. */
        nk_pos q = pos[k];
        q.store[NK_SOUTH] = q.store[NK_NORTH] = 20;
        q.hash = nk_pos_hash(&q);
        int want = 2 * value[k] > 8 ? NK_SOUTH : 2 * value[k] == 8 ? NK_DRAW : NK_NORTH;
        for (unsigned o = 0; o < 3; o++)
            assert_int_equal(play(&q, tbp, opp[o], 7 * k + o).winner, want);
    }
    printf("  games where the opponent gave away more than the value: %u of %u\n", above,
           3 * n);
    for (unsigned o = 0; o < 3; o++)
        nk_player_free(opp[o]);
    nk_player_free(tbp);
    nk_player_free(tbq);
}

/* Without tb= nothing changes; a tb= that was not opened is refused. */
static void test_not_open(void **state)
{
    (void)state;
    nk_spec spec;
    nk_player *p = NULL;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_spec_parse(&spec, "ab:depth=2,tb=/nonexistent/dir", err, sizeof err),
                     NK_OK);
    assert_string_equal(spec.tb, "/nonexistent/dir");
    assert_int_equal(nk_player_new(&p, &spec, abapa, NULL, 0, err, sizeof err), NK_EINVAL);
    assert_null(p);
    assert_non_null(strstr(err, "is not open"));
    assert_int_equal(nk_spec_parse(&spec, "ab:depth=2,tb=", err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "tb needs a value"));
}

static void test_shared_open(void **state)
{
    (void)state;
    const nk_tb *again = NULL;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_tb_shared_open(dir, abapa, &again, err, sizeof err), NK_OK);
    assert_ptr_equal(again, db);
    assert_ptr_equal(nk_tb_shared_find(dir, abapa), db);
    assert_null(nk_tb_shared_find(dir, nk_variant_find("antigua")));
    assert_int_equal(nk_tb_shared_open(dir, nk_variant_find("antigua"), &again, err, sizeof err),
                     NK_ENOFILE);
    assert_null(again);
    assert_int_equal(nk_tb_shared_open("/nonexistent/dir", abapa, &again, err, sizeof err),
                     NK_ENOFILE);
    assert_int_equal(
        nk_tb_shared_open(dir, nk_variant_find("speightstown"), &again, err, sizeof err),
        NK_OK);
    assert_ptr_equal(again, sdb);
}

/* Plays adjikui from text (the owners field names the pattern) with
 * south against greedy: the moves played, one letter each, and the
 * result. */
static nk_result play_adjikui(const char *text, nk_player *south, uint64_t seed, char *moves,
                              size_t len)
{
    const nk_variant *ak = nk_variant_find("adjikui");
    nk_pos pos;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_pos_parse(&pos, text, err, sizeof err), NK_OK);
    nk_player *greedy = make_for(ak, "greedy");
    nk_game g;
    nk_rng rng = {seed};
    size_t n = 0;
    assert_int_equal(nk_game_init(&g, ak, &pos, NK_DEFAULT_PLY_LIMIT), NK_OK);
    while (!nk_game_over(&g)) {
        int mv = nk_player_move(g.pos.side == NK_SOUTH ? south : greedy, &g, &rng, NULL);
        assert_true(mv != NK_NO_MOVE);
        if (n + 1 < len)
            moves[n++] = nk_move_letter(mv);
        nk_game_play_legal(&g, mv, NULL);
    }
    moves[n] = '\0';
    nk_player_free(greedy);
    return g.result;
}

/* A database built for some ownership patterns only (adjikui, pattern 0):
 * a position of another pattern is outside it, so `ab:depth=4,tb=DIR`
 * plays there exactly as `ab:depth=4` (the search goes on, no value is
 * taken from it), and a position of pattern 0 exactly as with the database
 * of all eleven patterns. */
static void test_pattern_outside(void **state)
{
    (void)state;
    const nk_variant *ak = nk_variant_find("adjikui");
    char err[NK_MSG_MAX], p0[300], all[300], path[400], text[400];
    snprintf(p0, sizeof p0, "%s/p0", dir);
    snprintf(all, sizeof all, "%s/all", dir);
    const char *dirs[2] = {p0, all};
    for (int d = 0; d < 2; d++) {
        nk_tb tb;
        assert_int_equal(mkdir(dirs[d], 0777), 0);
        nk_tb_path(dirs[d], ak, path, sizeof path);
        assert_int_equal(nk_tb_build_patterns(&tb, ak, 6, d == 0 ? 1 : 0, 0, 0, NULL, err,
                                              sizeof err),
                         NK_OK);
        assert_int_equal(nk_tb_write(&tb, path, err, sizeof err), NK_OK);
        nk_tb_close(&tb);
        const nk_tb *opened;
        assert_int_equal(nk_tb_shared_open(dirs[d], ak, &opened, err, sizeof err), NK_OK);
        assert_int_equal(opened->npat, d == 0 ? 1 : 11);
    }
    snprintf(text, sizeof text, "ab:depth=4,tb=%s", p0);
    nk_player *with0 = make_for(ak, text);
    snprintf(text, sizeof text, "ab:depth=4,tb=%s", all);
    nk_player *with_all = make_for(ak, text);
    nk_player *without = make_for(ak, "ab:depth=4");
    const char *const outside[] = {"2,0,1,0,0,0/0,1,0,2,0,0 0-0 S SSSSSSSNNNNN",
                                   "0,2,0,1,1,0/0,0,2,0,0,0 0-0 N NNSSSSNNNNNN",
                                   "1,0,0,2,0,0/0,2,1,0,0,0 0-0 S SSSSSSSSSNNN"};
    const char *const inside[] = {"2,0,1,0,0,0/0,1,0,2,0,0 0-0 S",
                                  "0,2,0,1,1,0/0,0,2,0,0,0 0-0 N"};
    char ma[1200], mb[1200];
    for (unsigned k = 0; k < 3; k++) {
        nk_result a = play_adjikui(outside[k], with0, k, ma, sizeof ma),
                  b = play_adjikui(outside[k], without, k, mb, sizeof mb);
        assert_string_equal(ma, mb);
        assert_memory_equal(&a, &b, sizeof a);
    }
    for (unsigned k = 0; k < 2; k++) {
        nk_result a = play_adjikui(inside[k], with0, k, ma, sizeof ma),
                  b = play_adjikui(inside[k], with_all, k, mb, sizeof mb);
        assert_string_equal(ma, mb);
        assert_memory_equal(&a, &b, sizeof a);
    }
    nk_player_free(with0);
    nk_player_free(with_all);
    nk_player_free(without);
    for (int d = 0; d < 2; d++) {
        nk_tb_path(dirs[d], ak, path, sizeof path);
        unlink(path); /* still mapped until the teardown: that is fine */
        rmdir(dirs[d]);
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shared_open),
    cmocka_unit_test(test_not_open),
    cmocka_unit_test(test_perfect_endgame),
    cmocka_unit_test(test_speightstown_endgame),
    cmocka_unit_test(test_pattern_outside),
};

int main(void)
{
    return cmocka_run_group_tests(tests, setup, teardown);
}
