/*
 * test_tb_whole.c -- the bounds whatever the rule over the whole database
 * (nk_tb_whole_build, tb.h) and their bounds file.
 *
 * - Against the regions: for each one-plane variant (to 7 seeds; adjikui
 *   to 6, every pattern), the whole database's lo and hi equal the
 *   lo_any and hi_any of nk_tb_region at every position with the cycle
 *   bit that the regions of a sample of positions (up to SAMPLE with the
 *   bit on each count) hold.  The bounds are the same with no memory
 *   limit (retrograde analysis) and with none to spare (sweeps that
 *   compute the children again), with one thread and with the default.
 *   Every position has lo <= stored value <= hi, and lo = hi = value
 *   without the cycle bit; some positions keep lo < hi (counted), so the
 *   checks bite.
 * - At 12 seeds (abapa, one seed a pit): the region from the start
 *   position, every position it holds.
 * - The search with history over a region of the whole database
 *   (nk_tb_region_whole: one component) gives, where it settles, the same
 *   values as over the position's own region, at every seventh position
 *   with the bit of 4 seeds (abapa), 20,000 nodes a move.
 * - The file: written and read back the same; bad input: a missing file, a
 *   bounds file of another database, a truncated one, a byte changed (the
 *   checksum), no magic, a bound that does not hold the database's value
 *   (a consistent checksum), a two-plane database.
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

#include "search/solve.h"
#include "tb/tb.h"

enum { WARRI_TOP = 7, ADJIKUI_TOP = 6, SAMPLE = 6, HISTORY_NODES = 20000 };

static const char *const variants[] = {"abapa", "antigua", "bridgetown", "adjikui"};
enum { NVAR = 4 };

static void build(nk_tb *tb, const char *name, unsigned seeds)
{
    char err[NK_MSG_MAX];
    const nk_variant *v = nk_variant_find(name);
    assert_non_null(v);
    assert_int_equal(nk_tb_build(tb, v, seeds, 0, NULL, err, sizeof err), NK_OK);
}

static void whole(nk_tb_whole *w, const nk_tb *tb, int threads, uint64_t max_bytes,
                  nk_tb_stats *s)
{
    char err[NK_MSG_MAX];
    nk_status st = nk_tb_whole_build(w, tb, threads, max_bytes, s, err, sizeof err);
    if (st != NK_OK)
        print_error("%s\n", err);
    assert_int_equal(st, NK_OK);
}

/* lo <= value <= hi everywhere, lo = hi = value without the bit; returns
 * the positions whose bounds stay apart. */
static uint64_t check_hold(const nk_tb *tb, const nk_tb_whole *w)
{
    uint64_t apart = 0;
    for (unsigned b = 0; b <= tb->seeds; b++)
        for (uint64_t i = tb->offset[b]; i < tb->offset[b + 1]; i++) {
            const int v = tb->data[i] & NK_TB_VALUE_MASK;
            assert_true(w->lo[i] <= v && v <= w->hi[i] && w->hi[i] <= b);
            if (!(tb->data[i] & NK_TB_CYCLE))
                assert_true(w->lo[i] == v && w->hi[i] == v);
            apart += w->lo[i] != w->hi[i];
        }
    return apart;
}

/* Every position with the bit that r holds: its region bounds equal w's;
 * returns how many were compared. */
static uint64_t compare_region(const nk_tb *tb, const nk_tb_whole *w, const nk_tb_region *r)
{
    uint64_t n = 0;
    for (unsigned b = 0; b <= tb->seeds; b++)
        for (uint64_t i = 0; i < tb->offset[b + 1] - tb->offset[b]; i++) {
            if (!(tb->data[tb->offset[b] + i] & NK_TB_CYCLE))
                continue;
            nk_pos p;
            nk_tb_entry_pos(tb, b, i, &p);
            nk_tb_bounds x;
            if (nk_tb_region_bounds(r, &p, &x) != NK_OK)
                continue; /* not reachable from the region's position */
            int lo, hi;
            assert_int_equal(nk_tb_whole_get(w, &p, &lo, &hi), NK_OK);
            if (lo != x.lo_any || hi != x.hi_any) {
                char text[NK_POS_TEXT];
                nk_pos_format(&p, text);
                print_error("%s %s: whole [%d, %d], region [%d, %d]\n", tb->variant->name, text,
                            lo, hi, x.lo_any, x.hi_any);
                fail();
            }
            n++;
        }
    return n;
}

static void test_whole_against_regions(void **state)
{
    (void)state;
    char err[NK_MSG_MAX];
    for (int k = 0; k < NVAR; k++) {
        const unsigned top = k == 3 ? ADJIKUI_TOP : WARRI_TOP;
        nk_tb tb;
        build(&tb, variants[k], top);
        nk_tb_whole w, sweeps;
        nk_tb_stats s1, s2;
        whole(&w, &tb, 0, 0, &s1);
        whole(&sweeps, &tb, 1, 1, &s2); /* no room for a list: sweeps, computed */
        const uint64_t total = tb.offset[top + 1];
        assert_memory_equal(w.lo, sweeps.lo, 2 * total);
        assert_true(s1.retro > 0 && s2.retro == 0 && s2.computed > 0);
        assert_int_equal(s1.cycle, s2.cycle);
        nk_tb_whole_close(&sweeps);
        const uint64_t apart = check_hold(&tb, &w);
        assert_int_equal(apart, s1.cycle);
        assert_true(apart > 0);
        uint64_t compared = 0;
        for (unsigned b = 1; b <= top; b++) {
            const uint64_t n = tb.offset[b + 1] - tb.offset[b];
            unsigned taken = 0;
            for (uint64_t i = 0; i < n && taken < SAMPLE; i += 1 + n / SAMPLE) {
                while (i < n && !(tb.data[tb.offset[b] + i] & NK_TB_CYCLE))
                    i++; /* the next with the bit */
                if (i == n)
                    break;
                nk_pos p;
                nk_tb_entry_pos(&tb, b, i, &p);
                nk_tb_region *r;
                assert_int_equal(nk_tb_region_new(&r, &tb, &p, 0, err, sizeof err), NK_OK);
                compared += compare_region(&tb, &w, r);
                nk_tb_region_free(r);
                taken++;
            }
        }
        print_message("%s to %u: %llu positions, %llu with bounds apart, %llu compared with "
                      "regions\n",
                      variants[k], top, (unsigned long long)total, (unsigned long long)apart,
                      (unsigned long long)compared);
        assert_true(compared > 0);
        nk_tb_whole_close(&w);
        nk_tb_close(&tb);
    }
}

static void test_whole_12_seeds_from_start(void **state)
{
    (void)state;
    char err[NK_MSG_MAX];
    nk_tb tb;
    build(&tb, "abapa", 12);
    nk_tb_whole w;
    whole(&w, &tb, 0, 0, NULL);
    check_hold(&tb, &w);
    nk_pos p;
    assert_int_equal(nk_pos_parse(&p, "1,1,1,1,1,1/1,1,1,1,1,1 0-0 S", err, sizeof err), NK_OK);
    nk_tb_region *r;
    assert_int_equal(nk_tb_region_new(&r, &tb, &p, 0, err, sizeof err), NK_OK);
    const uint64_t n = compare_region(&tb, &w, r);
    print_message("abapa 12 seeds from the start: %llu positions compared (region %llu)\n",
                  (unsigned long long)n, (unsigned long long)nk_tb_region_size(r));
    assert_int_equal(n, nk_tb_region_size(r));
    /* the start's and its moves' bounds through an attached region: the same */
    nk_tb_bounds a[NK_PASS + 1], b[NK_PASS + 1], x, y;
    unsigned ma, mb;
    assert_int_equal(nk_tb_region_bounds(r, &p, &x), NK_OK);
    assert_int_equal(nk_tb_region_moves(r, &p, &ma, a), NK_OK);
    nk_tb_region_attach(r, &w);
    assert_int_equal(nk_tb_region_bounds(r, &p, &y), NK_OK);
    assert_int_equal(nk_tb_region_moves(r, &p, &mb, b), NK_OK);
    assert_int_equal(ma, mb);
    assert_memory_equal(&x, &y, sizeof x);
    for (unsigned m = ma; m; m &= m - 1)
        assert_memory_equal(&a[__builtin_ctz(m)], &b[__builtin_ctz(m)], sizeof a[0]);
    nk_tb_region_free(r);
    nk_tb_whole_close(&w);
    nk_tb_close(&tb);
}

static void test_history_over_whole(void **state)
{
    (void)state;
    char err[NK_MSG_MAX];
    nk_tb tb;
    build(&tb, "abapa", 4);
    nk_tb_whole w;
    whole(&w, &tb, 0, 0, NULL);
    nk_tb_region *all;
    assert_int_equal(nk_tb_region_whole(&all, &w, err, sizeof err), NK_OK);
    unsigned settled = 0;
    for (uint64_t i = 0; i < nk_tb_count(4); i += 7) {
        if (!(tb.data[tb.offset[4] + i] & NK_TB_CYCLE))
            continue;
        nk_pos p;
        nk_tb_entry_pos(&tb, 4, i, &p);
        if (nk_pos_end(&tb.rules, &p) != NK_END_NONE)
            continue;
        nk_tb_region *r;
        assert_int_equal(nk_tb_region_new(&r, &tb, &p, 0, err, sizeof err), NK_OK);
        nk_solve_history h1, h2;
        assert_int_equal(nk_solve_with_history(&tb, r, &p, HISTORY_NODES, &h1, err, sizeof err), NK_OK);
        assert_int_equal(nk_solve_with_history(&tb, all, &p, HISTORY_NODES, &h2, err, sizeof err),
                         NK_OK);
        nk_tb_bounds x, y;
        nk_tb_region_bounds(all, &p, &x);
        nk_tb_region_bounds(r, &p, &y);
        assert_true(x.lo == -1 && x.hi == -1 && x.component == 0);
        assert_true(x.lo_any == y.lo_any && x.hi_any == y.hi_any);
        /* both sound: their bounds meet */
        assert_true(h1.root_lo <= h2.root_hi && h2.root_lo <= h1.root_hi);
        if (h1.root_lo == h1.root_hi && h2.root_lo == h2.root_hi) {
            for (unsigned m = h1.mask; m; m &= m - 1)
                assert_true(h1.lo[__builtin_ctz(m)] == h2.lo[__builtin_ctz(m)] &&
                            h1.hi[__builtin_ctz(m)] == h2.hi[__builtin_ctz(m)]);
            settled++;
        }
        nk_tb_region_free(r);
    }
    print_message("abapa 4 seeds: %u positions with the bit settled both ways\n", settled);
    assert_true(settled > 0);
    nk_tb_region_free(all);
    nk_tb_whole_close(&w);
    nk_tb_close(&tb);
}

/* Writes the n bytes of data to path. */
static void put(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void *get(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *x = malloc(*n);
    assert_non_null(x);
    assert_int_equal(fread(x, 1, *n, f), *n);
    fclose(f);
    return x;
}

static void test_file(void **state)
{
    (void)state;
    char err[NK_MSG_MAX], dir[] = "/tmp/nk_whole_XXXXXX", db[256], other[256], bd[256],
                          bad[256];
    assert_non_null(mkdtemp(dir));
    snprintf(db, sizeof db, "%s/abapa.nktb", dir);
    snprintf(other, sizeof other, "%s/other.nktb", dir);
    snprintf(bad, sizeof bad, "%s/bad.nkbd", dir);
    nk_tb_whole_path(dir, nk_variant_find("abapa"), bd, sizeof bd);
    assert_non_null(strstr(bd, "/abapa.nkbd"));
    nk_tb built, tb, tb2;
    build(&built, "abapa", 6);
    assert_int_equal(nk_tb_write(&built, db, err, sizeof err), NK_OK);
    nk_tb_close(&built);
    build(&built, "abapa", 5);
    assert_int_equal(nk_tb_write(&built, other, err, sizeof err), NK_OK);
    nk_tb_close(&built);
    assert_int_equal(nk_tb_open(&tb, db, NULL, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_open(&tb2, other, NULL, err, sizeof err), NK_OK);
    nk_tb_whole w, r;
    /* missing */
    assert_int_equal(nk_tb_whole_open(&r, &tb, bd, err, sizeof err), NK_ENOFILE);
    whole(&w, &tb, 0, 0, NULL);
    assert_int_equal(nk_tb_whole_write(&w, bd, err, sizeof err), NK_OK);
    assert_int_equal(access(bd, F_OK), 0);
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp", bd);
    assert_int_not_equal(access(tmp, F_OK), 0); /* renamed, not left behind */
    assert_int_equal(nk_tb_whole_open(&r, &tb, bd, err, sizeof err), NK_OK);
    const uint64_t total = tb.offset[tb.seeds + 1];
    assert_memory_equal(r.lo, w.lo, total);
    assert_memory_equal(r.hi, w.hi, total);
    assert_true(r.checksum != 0);
    nk_tb_whole_close(&r);
    /* the bounds of another database (abapa to 5) */
    assert_int_equal(nk_tb_whole_open(&r, &tb2, bd, err, sizeof err), NK_EMISMATCH);
    assert_non_null(strstr(err, "another database"));
    assert_null(strchr(err, '\n'));
    size_t n;
    uint8_t *x = get(bd, &n);
    assert_int_equal(n, 96 + 2 * total);
    /* truncated */
    put(bad, x, n - 1);
    assert_int_equal(nk_tb_whole_open(&r, &tb, bad, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "truncated"));
    /* too short for a header */
    put(bad, x, 10);
    assert_int_equal(nk_tb_whole_open(&r, &tb, bad, err, sizeof err), NK_EFORMAT);
    /* a byte changed: the checksum */
    x[96 + total / 2] ^= 1;
    put(bad, x, n);
    assert_int_equal(nk_tb_whole_open(&r, &tb, bad, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "checksum"));
    x[96 + total / 2] ^= 1;
    /* no magic: the database itself */
    assert_int_equal(nk_tb_whole_open(&r, &tb, db, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "magic"));
    /* a bound that does not hold the value, with a consistent checksum */
    uint64_t j = 0;
    while (j < total && (tb.data[j] & NK_TB_CYCLE))
        j++;
    for (; j < total; j++) /* a position without the bit, value below its seeds */
        if (!(tb.data[j] & NK_TB_CYCLE) && w.hi[j] < 6 && j >= tb.offset[6])
            break;
    assert_true(j < total);
    w.owned[j]++; /* lo above the value */
    w.owned[total + j]++;
    assert_int_equal(nk_tb_whole_write(&w, bad, err, sizeof err), NK_OK);
    assert_int_equal(nk_tb_whole_open(&r, &tb, bad, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "does not hold"));
    free(x);
    nk_tb_whole_close(&w);
    /* a two-plane database */
    nk_tb two;
    build(&two, "speightstown", 3);
    assert_int_equal(nk_tb_whole_build(&w, &two, 0, 0, NULL, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "two-plane"));
    nk_tb_close(&two);
    nk_tb_close(&tb);
    nk_tb_close(&tb2);
    remove(db);
    remove(other);
    remove(bd);
    remove(bad);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_against_regions),
        cmocka_unit_test(test_whole_12_seeds_from_start),
        cmocka_unit_test(test_history_over_whole),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
