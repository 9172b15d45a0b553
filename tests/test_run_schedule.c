/*
 * test_run_schedule.c -- co-evolution fitness (run/schedule.h): who meets
 * whom in a generation, the scoring tables, and the fitness tally (game by
 * game and from played meetings).
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "run/schedule.h"
#include "search/features.h"
#include "evolve_testlib.h"

static void test_round_robin_every_pair_once(void **state)
{
    (void)state;
    nk_schedule_params p = {.kind = NK_SCHEDULE_ROUND_ROBIN, .population = 7};
    nk_meeting *m;
    size_t n;
    int seen[7][7] = {{0}};
    assert_int_equal(nk_schedule_meetings(&p, NULL, &m, &n, NULL, 0), NK_OK);
    assert_int_equal(n, 21);
    for (size_t i = 0; i < n; i++) {
        assert_true(m[i].a < 7 && m[i].b < 7 && m[i].a != m[i].b);
        seen[m[i].a][m[i].b]++;
        seen[m[i].b][m[i].a]++;
    }
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++)
            assert_int_equal(seen[a][b], a == b ? 0 : 1);
    free(m);
}

static void test_random_k_distinct_opponents(void **state)
{
    (void)state;
    gsl_rng *r = new_rng(3);
    nk_schedule_params p = {.kind = NK_SCHEDULE_RANDOM_K, .population = 10, .k = 4};
    nk_meeting *m;
    size_t n;
    assert_int_equal(nk_schedule_meetings(&p, r, &m, &n, NULL, 0), NK_OK);
    assert_int_equal(n, 40);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(m[i].a, i / 4);
        assert_true(m[i].b < 10 && m[i].b != m[i].a);
        for (size_t j = (i / 4) * 4; j < i; j++)
            assert_int_not_equal(m[j].b, m[i].b);
    }
    free(m);
    gsl_rng_free(r);
}

/* fitness-set: one set of k distinct members shared by the whole
 * generation; everyone meets each member but itself; only the individual's
 * side (a) of a meeting is tallied. */
static void test_fitness_set_shared(void **state)
{
    (void)state;
    gsl_rng *r = new_rng(11);
    nk_schedule_params p = {.kind = NK_SCHEDULE_FITNESS_SET, .population = 12, .k = 4};
    nk_meeting *m;
    size_t n;
    assert_int_equal(nk_schedule_meetings(&p, r, &m, &n, NULL, 0), NK_OK);
    /* 12 individuals x 4 members, less the 4 members meeting themselves. */
    assert_int_equal(n, 12 * 4 - 4);
    bool in_set[12] = {false};
    size_t members = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(m[i].a < 12 && m[i].b < 12 && m[i].a != m[i].b);
        members += !in_set[m[i].b];
        in_set[m[i].b] = true;
    }
    assert_int_equal(members, 4); /* the same 4 opponents for everyone */
    size_t per[12] = {0};
    for (size_t i = 0; i < n; i++)
        per[m[i].a]++;
    for (size_t i = 0; i < 12; i++)
        assert_int_equal(per[i], in_set[i] ? 3 : 4);
    /* Tally: every meeting a wins as South and draws as North.  Only a
     * scores: 2 + 1 per meeting, 2 games; a member's games as b are not
     * counted. */
    nk_meeting_tally *res = calloc(n, sizeof *res);
    assert_non_null(res);
    for (size_t i = 0; i < n; i++) {
        res[i].outcome[0] = 1;
        res[i].outcome[1] = 0;
    }
    nk_tally t;
    nk_scoring sc;
    assert_int_equal(nk_scoring_parse(&sc, "2,1,0", NULL, 0), NK_OK);
    assert_int_equal(nk_tally_init(&t, 12), NK_OK);
    nk_schedule_tally_for(NK_SCHEDULE_FITNESS_SET, &t, &sc, m, res, n);
    for (size_t i = 0; i < 12; i++) {
        assert_int_equal(t.games[i], 2 * (int)per[i]);
        assert_true(t.score[i] == 3.0 * (double)per[i]);
        assert_true(nk_tally_fitness(&t, i) == 1.5);
    }
    nk_tally_free(&t);
    /* The plain tally would have counted the members' side too. */
    assert_int_equal(nk_tally_init(&t, 12), NK_OK);
    nk_schedule_tally_for(NK_SCHEDULE_RANDOM_K, &t, &sc, m, res, n);
    size_t member = 0;
    while (!in_set[member])
        member++;
    assert_int_equal(t.games[member], 2 * 3 + 2 * 11);
    nk_tally_free(&t);
    free(res);
    free(m);
    /* k above N takes the whole population; k = 0 is refused. */
    p.k = 20;
    assert_int_equal(nk_schedule_meetings(&p, r, &m, &n, NULL, 0), NK_OK);
    assert_int_equal(n, 12 * 11);
    free(m);
    p.k = 0;
    char err[128];
    assert_int_equal(nk_schedule_meetings(&p, r, &m, &n, err, sizeof err), NK_ERANGE);
    gsl_rng_free(r);
}

static void test_sample_fraction_count(void **state)
{
    (void)state;
    gsl_rng *r = new_rng(5);
    nk_schedule_params p = {.kind = NK_SCHEDULE_SAMPLE, .population = 9, .fraction = 0.5};
    nk_meeting *m;
    size_t n;
    assert_int_equal(nk_schedule_meetings(&p, r, &m, &n, NULL, 0), NK_OK);
    assert_int_equal(n, 9 * 4); /* ceil(0.5 * 8) = 4 each */
    free(m);
    p.fraction = 0;
    char err[128];
    assert_int_equal(nk_schedule_meetings(&p, r, &m, &n, err, sizeof err), NK_ERANGE);
    gsl_rng_free(r);
}

static void test_hall_of_fame_draws_from_hall_and_population(void **state)
{
    (void)state;
    gsl_rng *r = new_rng(11);
    nk_schedule_params p = {.kind = NK_SCHEDULE_HALL_OF_FAME, .population = 4, .hall = 6, .k = 5};
    nk_meeting *m;
    size_t n, from_hall = 0;
    assert_int_equal(nk_schedule_meetings(&p, r, &m, &n, NULL, 0), NK_OK);
    assert_int_equal(n, 20);
    for (size_t i = 0; i < n; i++) {
        assert_true(m[i].b < 10 && m[i].b != m[i].a);
        from_hall += m[i].b >= 4;
    }
    /* 5 of 9 candidates each, 6 of them in the hall: expect 13.3 of 20. */
    assert_true(from_hall >= 6 && from_hall <= 20);
    free(m);
    gsl_rng_free(r);
}

static void test_gauntlet_meets_every_player(void **state)
{
    (void)state;
    nk_schedule_params p = {.kind = NK_SCHEDULE_GAUNTLET, .population = 3, .hall = 2, .gauntlet = 2};
    nk_meeting *m;
    size_t n;
    assert_int_equal(nk_schedule_meetings(&p, NULL, &m, &n, NULL, 0), NK_OK);
    assert_int_equal(n, 6);
    assert_int_equal(m[0].b, 5);
    assert_int_equal(m[1].b, 6);
    free(m);
    p.gauntlet = 0;
    assert_int_equal(nk_schedule_meetings(&p, NULL, &m, &n, NULL, 0), NK_EINVAL);
}

static void test_same_seed_same_meetings(void **state)
{
    (void)state;
    gsl_rng *r1 = new_rng(99), *r2 = new_rng(99);
    nk_schedule_params p = {.kind = NK_SCHEDULE_RANDOM_K, .population = 12, .k = 3};
    nk_meeting *a, *b;
    size_t na, nb;
    assert_int_equal(nk_schedule_meetings(&p, r1, &a, &na, NULL, 0), NK_OK);
    assert_int_equal(nk_schedule_meetings(&p, r2, &b, &nb, NULL, 0), NK_OK);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na * sizeof *a);
    free(a);
    free(b);
    gsl_rng_free(r1);
    gsl_rng_free(r2);
}

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

static void test_tally_of_meetings_equals_game_by_game(void **state)
{
    (void)state;
    nk_scoring s = {0, 2, 1, 0};
    /* meeting 0: 0 v 1, 0 wins as South 30-18, then draws as North 24-24;
     * meeting 1: 1 v 5 (gauntlet), 1 loses as South 10-38, wins as North 30-18 */
    nk_meeting m[2] = {{0, 1}, {1, 5}};
    nk_meeting_tally r[2] = {
        {.wins = 1, .draws = 1, .outcome = {1, 0}, .own = {30, 24}, .other = {18, 24}},
        {.wins = 1, .losses = 1, .outcome = {-1, 1}, .own = {10, 30}, .other = {38, 18}},
    };
    nk_tally a, b;
    assert_int_equal(nk_tally_init(&a, 2), NK_OK);
    assert_int_equal(nk_tally_init(&b, 2), NK_OK);
    nk_schedule_tally(&a, &s, m, r, 2);
    nk_tally_add(&b, &s, 0, 1, 0, 30, 18);
    nk_tally_add(&b, &s, 1, 0, 2, 24, 24);
    nk_tally_add(&b, &s, 1, 5, 1, 10, 38);
    nk_tally_add(&b, &s, 5, 1, 1, 18, 30);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(a.games[i], b.games[i]);
        assert_int_equal(a.wins[i], b.wins[i]);
        assert_int_equal(a.draws[i], b.draws[i]);
        assert_int_equal(a.losses[i], b.losses[i]);
        assert_true(a.score[i] == b.score[i]);
    }
    assert_int_equal(a.wins[0], 1);
    assert_int_equal(a.draws[0], 1);
    assert_int_equal(a.games[1], 4);
    assert_int_equal(a.wins[1], 1);   /* beat the gauntlet player as North */
    assert_int_equal(a.losses[1], 2); /* to 0 as North, to 5 as South */
    assert_int_equal(a.draws[1], 1);
    assert_true(nk_tally_fitness(&a, 1) == 0.75); /* (0 + 1 + 0 + 2) / 4 */
    nk_tally_free(&a);
    nk_tally_free(&b);
}

/* The tablebase schedule lists no meetings (even for one individual):
 * nk_schedule_grade gives the fitness, the same on 1 and 3 threads, equal
 * for equal weights, minus the seeds lost (at most 0) or the share optimal,
 * and positions graded as asked. */
static void test_tablebase_grades_without_meetings(void **state)
{
    (void)state;
    nk_schedule_params p = {.kind = NK_SCHEDULE_TABLEBASE, .population = 1};
    nk_meeting *m = NULL;
    size_t n = 7;
    assert_int_equal(nk_schedule_meetings(&p, NULL, &m, &n, NULL, 0), NK_OK);
    assert_int_equal(n, 0);
    free(m);
    const nk_variant *v = nk_variant_find("abapa");
    nk_tb tb;
    char err[1024];
    assert_int_equal(nk_tb_build(&tb, v, 6, 1, NULL, err, sizeof err), NK_OK);
    nk_spec spec;
    assert_int_equal(nk_spec_parse(&spec, "ab:depth=1,features=positional", err, sizeof err),
                     NK_OK);
    const size_t dim = nk_features_find("positional")->count;
    double w[4 * NK_MAX_FEATURES] = {0};
    for (size_t j = 0; j < dim; j++) {
        w[dim + j] = nk_features_find("positional")->defaults[j];
        w[2 * dim + j] = j == 0 ? -1.0 : 0.0; /* gives seeds away */
        w[3 * dim + j] = w[dim + j];
    }
    nk_schedule_grading g = {.tb = &tb, .variant = v, .spec = &spec, .reference = &spec,
                             .positions = 50, .seed = 11, .threads = 1};
    double f1[4], f3[4], share[4];
    uint64_t pos[4];
    assert_int_equal(nk_schedule_grade(&g, w, 4, dim, f1, pos, err, sizeof err), NK_OK);
    g.threads = 3;
    assert_int_equal(nk_schedule_grade(&g, w, 4, dim, f3, NULL, err, sizeof err), NK_OK);
    assert_memory_equal(f1, f3, sizeof f1);
    assert_true(f1[1] == f1[3]);
    for (int i = 0; i < 4; i++) {
        assert_true(f1[i] <= 0);
        assert_int_equal(pos[i], 50);
    }
    assert_true(f1[2] < f1[1]); /* giving seeds away loses more */
    g.optimal = true;
    assert_int_equal(nk_schedule_grade(&g, w, 4, dim, share, NULL, err, sizeof err), NK_OK);
    for (int i = 0; i < 4; i++)
        assert_true(share[i] >= 0 && share[i] <= 1);
    assert_true(share[2] < share[1]);
    nk_tb_close(&tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_robin_every_pair_once),
        cmocka_unit_test(test_random_k_distinct_opponents),
        cmocka_unit_test(test_sample_fraction_count),
        cmocka_unit_test(test_fitness_set_shared),
        cmocka_unit_test(test_hall_of_fame_draws_from_hall_and_population),
        cmocka_unit_test(test_gauntlet_meets_every_player),
        cmocka_unit_test(test_same_seed_same_meetings),
        cmocka_unit_test(test_scoring_tables),
        cmocka_unit_test(test_tally_counts_only_population),
        cmocka_unit_test(test_tally_of_meetings_equals_game_by_game),
        cmocka_unit_test(test_tablebase_grades_without_meetings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
