/*
 * test_base_param.c -- the one strict reader of numbers outside the
 * parameter tables (base/param.h): nk_param_read_double,
 * nk_param_read_uint64 and nk_param_read_keyed, which the selectors
 * (RUN@gen=G,rank=R, @champions:every=K, @game=N), reference ladders and
 * both ends of the engine protocol read their numbers with.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/param.h"

static void test_read_double(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        double want;
    } good[] = {{"1.5", 1.5}, {"-2", -2.0}, {"3e2", 300.0}, {"+0.25", 0.25}, {"0", 0.0}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double x = -99;
        assert_int_equal(nk_param_read_double(good[i].text, &x), NK_OK);
        assert_true(x == good[i].want);
    }
    static const char *const bad[] = {"0x1p3", " 5", "5 ", "inf", "nan", "", "1.5x", "1e400", "--1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double x = -99;
        if (nk_param_read_double(bad[i], &x) == NK_OK)
            fail_msg("'%s' read as %g", bad[i], x);
        assert_true(x == -99); /* untouched */
    }
}

static void test_read_uint64(void **state)
{
    (void)state;
    uint64_t x = 7;
    assert_int_equal(nk_param_read_uint64("0", &x), NK_OK);
    assert_true(x == 0);
    assert_int_equal(nk_param_read_uint64("18446744073709551615", &x), NK_OK);
    assert_true(x == UINT64_MAX);
    assert_int_equal(nk_param_read_uint64("007", &x), NK_OK);
    assert_true(x == 7);
    x = 5;
    assert_int_equal(nk_param_read_uint64("18446744073709551616", &x), NK_ERANGE);
    static const char *const bad[] = {"+1", "-1", " 1", "1 ", "0x10", "1.0", "", "1e3", "12a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (nk_param_read_uint64(bad[i], &x) != NK_EINVAL)
            fail_msg("'%s' was not refused as malformed", bad[i]);
    assert_true(x == 5); /* untouched */
}

static void test_read_keyed(void **state)
{
    (void)state;
    static const char *const two[] = {"gen", "rank"};
    uint64_t v[2] = {0, 0};
    assert_true(nk_param_read_keyed("gen=3,rank=0", two, v, 2));
    assert_true(v[0] == 3 && v[1] == 0);
    assert_true(nk_param_read_keyed("gen=12,rank=18446744073709551615", two, v, 2));
    assert_true(v[0] == 12 && v[1] == UINT64_MAX);
    static const char *const bad[] = {
        "gen=3",         "gen=3,rank=0,", "gen=+3,rank=0", "rank=0,gen=3",  "gen= 3,rank=0",
        "gen=3,rank=0x1", "gen=,rank=1",  "gen=3rank=1",   "gen=3,rank=-1", "gen=3,rank=1 ",
        "gen=3,,rank=1", "",             "gen=3,rank=18446744073709551616", "generation=3,rank=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (nk_param_read_keyed(bad[i], two, v, 2))
            fail_msg("'%s' was read as gen=%llu,rank=%llu", bad[i], (unsigned long long)v[0],
                     (unsigned long long)v[1]);
    static const char *const one[] = {"every"};
    uint64_t k = 0;
    assert_true(nk_param_read_keyed("every=5", one, &k, 1));
    assert_true(k == 5);
    assert_false(nk_param_read_keyed("every=5,", one, &k, 1));
    assert_false(nk_param_read_keyed("every", one, &k, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_double),
        cmocka_unit_test(test_read_uint64),
        cmocka_unit_test(test_read_keyed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
