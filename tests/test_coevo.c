/*
 * test_coevo.c -- co-evolution scoring and tally (evolve/coevo.h); the
 * schedules are tested by test_run_schedule.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "evolve/coevo.h"
#include "evolve_testlib.h"

static void test_scoring_tables(void **state)
{
    (void)state;
    nk_scoring s;
    char err[160];
    assert_int_equal(nk_scoring_parse(&s, "1,0,-2", err, sizeof err), NK_OK);
    assert_true(nk_scoring_score(&s, -1, 10, 30) == -2.0);
    assert_true(nk_scoring_score(&s, 1, 30, 10) == 1.0);
    assert_int_equal(nk_scoring_parse(&s, "seeds", err, sizeof err), NK_OK);
    assert_true(nk_scoring_score(&s, 1, 30, 18) == 12.0);
    assert_int_equal(nk_scoring_parse(&s, "2,1", err, sizeof err), NK_EINVAL);
    assert_int_equal(nk_scoring_parse(&s, "0,1,2", err, sizeof err), NK_EINVAL);
    assert_int_equal(nk_scoring_parse(&s, "2,x,0", err, sizeof err), NK_EINVAL);
}

static void test_tally_counts_only_population(void **state)
{
    (void)state;
    nk_tally t;
    nk_scoring s = {0, 2, 1, 0};
    assert_int_equal(nk_tally_init(&t, 2), NK_OK);
    nk_tally_add(&t, &s, 0, 1, 0, 30, 18);  /* 0 beats 1 */
    nk_tally_add(&t, &s, 1, 0, 2, 24, 24);  /* draw */
    nk_tally_add(&t, &s, 0, 5, 1, 10, 38);  /* 0 loses to a gauntlet player */
    assert_int_equal(t.games[0], 3);
    assert_int_equal(t.games[1], 2);
    assert_int_equal(t.wins[0], 1);
    assert_int_equal(t.draws[0], 1);
    assert_int_equal(t.losses[0], 1);
    assert_true(nk_tally_fitness(&t, 0) == 1.0);  /* (2 + 1 + 0) / 3 */
    assert_true(nk_tally_fitness(&t, 1) == 0.5);  /* (0 + 1) / 2 */
    nk_tally_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scoring_tables),
        cmocka_unit_test(test_tally_counts_only_population),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
