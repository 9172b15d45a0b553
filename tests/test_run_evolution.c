/*
 * test_run_evolution.c -- the generation loop as an iterate object
 * (run/evolution.h): the same settings give the same generations (whatever the thread count),
 * a loop restored from a generation's checkpoint continues exactly as the
 * run that wrote it (the quickstart GA, and the strategies for large
 * genomes, sep-cma-es and openai-es), and bad settings are refused with the
 * key named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "io/config.h"
#include "io/evolve_file.h"
#include "run/evolution.h"
#include "run/settings.h"
#include "tb/tb.h"

/* A small, fast run: quickstart at depth 1 with 6 players, the hall of
 * fame schedule (so the checkpoint's hall matters), games recorded and a
 * benchmark every generation. */
static const char *const SETS[] = {
    "experiment.generations=4",
    "population.size=6",
    "player.depth=1",
    "fitness.schedule=hall-of-fame",
    "fitness.k=3",
    "fitness.hall_size=2",
    "benchmark.every=1",
    "benchmark.games=4",
    "output.record_games=on",
};

typedef struct cfg {
    nk_config *cfg;
    char *text;
    nk_evo_settings s;
} cfg;

static void load(cfg *c, const char *const *extra, size_t nextra)
{
    const char *dir = getenv("NICKAR_SOURCE_DIR");
    char path[1024], err[1024];
    const char *sets[16];
    size_t n = 0;
    for (size_t i = 0; i < sizeof SETS / sizeof *SETS; i++)
        sets[n++] = SETS[i];
    for (size_t i = 0; i < nextra; i++)
        sets[n++] = extra[i];
    assert_non_null(dir);
    snprintf(path, sizeof path, "%s/configs/quickstart.ini", dir);
    nk_status st = nk_config_read(&c->cfg, path, sets, n, err, sizeof err);
    if (st != NK_OK)
        fail_msg("%s", err);
    size_t len = nk_config_format(c->cfg, NULL, 0);
    c->text = malloc(len + 1);
    assert_non_null(c->text);
    nk_config_format(c->cfg, c->text, len + 1);
    st = nk_evo_settings_from_config(&c->s, c->cfg, err, sizeof err);
    if (st != NK_OK)
        fail_msg("%s", err);
    c->s.config_text = c->text;
}

static void unload(cfg *c)
{
    nk_config_free(c->cfg);
    free(c->text);
}

/* A generation's record, copied out of the loop. */
typedef struct snap {
    unsigned generation;
    size_t n, d;
    double *genome, *fitness;
    int32_t *wins, *draws, *losses;
    int64_t *ids, *parents;
    nk_run_stats stats;
    nk_run_game *games;
    size_t n_games;
    nk_run_bench *bench;
    size_t n_bench;
    double *strategy, *hall, *champion;
    size_t n_strategy, n_hall;
} snap;

static void *dup(const void *p, size_t bytes)
{
    void *q = malloc(bytes ? bytes : 1);
    assert_non_null(q);
    if (bytes)
        memcpy(q, p, bytes);
    return q;
}

static void take(snap *s, const nk_evo_record *r)
{
    assert_non_null(r);
    size_t n = r->pop->size, d = r->pop->dim;
    s->generation = r->generation;
    s->n = n;
    s->d = d;
    s->genome = dup(r->pop->w, n * d * sizeof(double));
    s->fitness = dup(r->fitness, n * sizeof(double));
    s->wins = dup(r->wins, n * sizeof(int32_t));
    s->draws = dup(r->draws, n * sizeof(int32_t));
    s->losses = dup(r->losses, n * sizeof(int32_t));
    s->ids = dup(r->pop->id, n * sizeof(int64_t));
    s->parents = dup(r->pop->parents, 2 * n * sizeof(int64_t));
    s->stats = r->stats;
    s->stats.wall_seconds = 0; /* wall-clock times: not reproducible */
    s->stats.play_seconds = 0;
    s->stats.outside_seconds = 0;
    s->games = dup(r->games, r->n_games * sizeof *r->games);
    s->n_games = r->n_games;
    s->bench = dup(r->bench, r->n_bench * sizeof *r->bench);
    s->n_bench = r->n_bench;
    s->strategy = dup(r->strategy, r->n_strategy * sizeof(double));
    s->n_strategy = r->n_strategy;
    s->hall = dup(r->hall, r->n_hall * d * sizeof(double));
    s->n_hall = r->n_hall;
    s->champion = dup(r->champion, (1 + d) * sizeof(double));
}

static void drop(snap *s)
{
    free(s->genome);
    free(s->fitness);
    free(s->wins);
    free(s->draws);
    free(s->losses);
    free(s->ids);
    free(s->parents);
    free(s->games);
    free(s->bench);
    free(s->strategy);
    free(s->hall);
    free(s->champion);
}

static void assert_same(const snap *a, const snap *b)
{
    assert_int_equal(a->generation, b->generation);
    assert_int_equal(a->n, b->n);
    assert_memory_equal(a->genome, b->genome, a->n * a->d * sizeof(double));
    assert_memory_equal(a->fitness, b->fitness, a->n * sizeof(double));
    assert_memory_equal(a->wins, b->wins, a->n * sizeof(int32_t));
    assert_memory_equal(a->draws, b->draws, a->n * sizeof(int32_t));
    assert_memory_equal(a->losses, b->losses, a->n * sizeof(int32_t));
    assert_memory_equal(a->ids, b->ids, a->n * sizeof(int64_t));
    assert_memory_equal(a->parents, b->parents, 2 * a->n * sizeof(int64_t));
    assert_memory_equal(&a->stats, &b->stats, sizeof a->stats);
    assert_int_equal(a->n_games, b->n_games);
    assert_memory_equal(a->games, b->games, a->n_games * sizeof *a->games);
    assert_int_equal(a->n_bench, b->n_bench);
    assert_memory_equal(a->bench, b->bench, a->n_bench * sizeof *a->bench);
    assert_int_equal(a->n_strategy, b->n_strategy);
    assert_memory_equal(a->strategy, b->strategy, a->n_strategy * sizeof(double));
    assert_int_equal(a->n_hall, b->n_hall);
    assert_memory_equal(a->hall, b->hall, a->n_hall * a->d * sizeof(double));
    assert_memory_equal(a->champion, b->champion, (1 + a->d) * sizeof(double));
}

/* The checkpoint a record left after `done` generations. */
static nk_evo_checkpoint checkpoint_of(const snap *s, unsigned done)
{
    return (nk_evo_checkpoint){.done = done,
                               .strategy = s->strategy,
                               .n_strategy = s->n_strategy,
                               .hall = s->hall,
                               .n_hall = s->n_hall,
                               .champion = s->champion};
}

/* Runs `count` generations of a fresh loop into out[0..count). */
static void run(const nk_evo_settings *s, int threads, snap *out, unsigned count)
{
    nk_evo *e = NULL;
    char err[1024];
    nk_status st = nk_evo_alloc(&e, s, NULL, threads, err, sizeof err);
    if (st != NK_OK)
        fail_msg("%s", err);
    assert_int_equal(nk_evo_generation(e), 0);
    assert_null(nk_evo_record_of(e));
    for (unsigned g = 0; g < count; g++) {
        st = nk_evo_iterate(e, err, sizeof err);
        if (st != NK_OK)
            fail_msg("%s", err);
        assert_int_equal(nk_evo_generation(e), g + 1);
        take(&out[g], nk_evo_record_of(e));
    }
    nk_evo_free(e);
}

static void test_two_iterates_equal_a_fresh_run(void **state)
{
    (void)state;
    cfg c;
    snap a[2], b[2];
    load(&c, NULL, 0);
    run(&c.s, 1, a, 2);
    run(&c.s, 2, b, 2);
    for (int g = 0; g < 2; g++) {
        assert_int_equal(a[g].generation, g);
        assert_same(&a[g], &b[g]);
    }
    /* The record is complete: every individual played, games were kept,
     * the benchmark ran against the three quickstart opponents, and the
     * champion joined the hall of fame. */
    assert_int_equal(a[0].n, 6);
    assert_true(a[0].n_games > 0);
    assert_int_equal(a[0].stats.games, (int64_t)a[0].n_games);
    assert_int_equal(a[0].n_bench, 3);
    for (size_t k = 0; k < 3; k++)
        assert_int_equal(a[0].bench[k].wins + a[0].bench[k].draws + a[0].bench[k].losses, 4);
    assert_int_equal(a[0].n_hall, 1);
    assert_int_equal(a[1].n_hall, 2);
    for (size_t i = 0; i < a[0].n; i++)
        assert_int_equal(a[0].wins[i] + a[0].draws[i] + a[0].losses[i] > 0, 1);
    assert_true(a[0].ids[0] != a[1].ids[0]);
    for (int g = 0; g < 2; g++) {
        drop(&a[g]);
        drop(&b[g]);
    }
    unload(&c);
}

/* What a generation evaluates is what the strategy says
 * (nk_run_settings_evaluated): for the (mu+lambda)-ES, the mu parents
 * carried over play again beside the lambda offspring, so mu + lambda
 * individuals get a fitness from games of that generation; the size the
 * strategy is made with (nk_run_settings_size) is lambda. */
static void test_es_plus_evaluates_mu_plus_lambda(void **state)
{
    (void)state;
    const char *const plus[] = {"strategy.kind=es-plus", "strategy.mu=2", "strategy.lambda=3",
                                "mutation.method=lognormal", "benchmark.every=0"};
    cfg c;
    snap a[2];
    load(&c, plus, sizeof plus / sizeof *plus);
    assert_int_equal(nk_run_settings_size(&c.s.run), 3);
    assert_int_equal(nk_run_settings_evaluated(&c.s.run), 2 + 3);
    run(&c.s, 1, a, 2);
    for (int g = 0; g < 2; g++) {
        assert_int_equal(a[g].n, nk_run_settings_evaluated(&c.s.run));
        for (size_t i = 0; i < a[g].n; i++) /* every one played this generation */
            assert_true(a[g].wins[i] + a[g].draws[i] + a[g].losses[i] > 0);
    }
    /* the first two of generation 2 are parents carried over from generation 1 */
    for (size_t k = 0; k < 2; k++) {
        bool found = false;
        for (size_t i = 0; i < a[0].n; i++)
            found = found || a[0].ids[i] == a[1].ids[k];
        assert_true(found);
    }
    for (int g = 0; g < 2; g++)
        drop(&a[g]);
    unload(&c);
}

static void test_restore_continues_identically(void **state)
{
    (void)state;
    cfg c;
    snap a[4];
    char err[1024];
    load(&c, NULL, 0);
    run(&c.s, 2, a, 4);
    /* A new loop from the checkpoint of generation 1 (two done). */
    nk_evo *e = NULL;
    assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 1, err, sizeof err), NK_OK);
    nk_evo_checkpoint cp = checkpoint_of(&a[1], 2);
    assert_int_equal(nk_evo_restore(e, &cp, err, sizeof err), NK_OK);
    assert_int_equal(nk_evo_generation(e), 2);
    for (unsigned g = 2; g < 4; g++) {
        snap s;
        nk_status st = nk_evo_iterate(e, err, sizeof err);
        if (st != NK_OK)
            fail_msg("%s", err);
        take(&s, nk_evo_record_of(e));
        assert_same(&s, &a[g]);
        drop(&s);
    }
    assert_true(nk_evo_done(e));
    assert_int_equal(nk_evo_iterate(e, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "complete"));
    /* A hall larger than the settings allow is refused. */
    nk_evo_checkpoint bad = cp;
    bad.n_hall = 3;
    nk_evo *e2 = NULL;
    assert_int_equal(nk_evo_alloc(&e2, &c.s, NULL, 1, err, sizeof err), NK_OK);
    assert_int_equal(nk_evo_restore(e2, &bad, err, sizeof err), NK_EFORMAT);
    nk_evo_free(e2);
    nk_evo_free(e);
    for (int g = 0; g < 4; g++)
        drop(&a[g]);
    unload(&c);
}

/* ===== the tablebase schedule ===== */

/* A directory holding abapa's database to 8 seeds (built once, in a
 * temporary directory), and the --set that names it. */
static char tb_set[1100];

static const char *tb_dir(void)
{
    static char dir[1024];
    if (dir[0] != '\0')
        return dir;
    char err[1024], path[1100];
    snprintf(dir, sizeof dir, "%s", "/tmp/nk_test_evo_tbXXXXXX");
    assert_non_null(mkdtemp(dir));
    nk_tb tb;
    const nk_variant *v = nk_variant_find("abapa");
    assert_non_null(v);
    if (nk_tb_build(&tb, v, 8, 1, NULL, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    nk_tb_path(dir, v, path, sizeof path);
    if (nk_tb_write(&tb, path, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    nk_tb_close(&tb);
    snprintf(tb_set, sizeof tb_set, "fitness.tablebase=%s", dir);
    return dir;
}

static void tb_cleanup(void)
{
    const char *dir = tb_dir();
    char path[1100];
    nk_tb_path(dir, nk_variant_find("abapa"), path, sizeof path);
    remove(path);
    remove(dir); /* empty: remove() takes it as rmdir() */
}

/* The tablebase schedule: every individual graded on positions drawn from
 * the last champion's games, the same on 1 and 2 threads; no games are
 * played; fitness is minus the seeds lost (at most 0, not all equal) or
 * the share optimal (in [0, 1]); a loop restored from the checkpoint of
 * generation 1 continues identically (the champion, the positions' source,
 * is in the checkpoint). */
static void test_tablebase_schedule(void **state)
{
    (void)state;
    tb_dir();
    const char *const sets[] = {"fitness.schedule=tablebase", tb_set,
                                "fitness.tablebase_positions=40", "benchmark.every=0"};
    cfg c;
    snap a[3], b[3];
    char err[1024];
    load(&c, sets, sizeof sets / sizeof *sets);
    run(&c.s, 1, a, 3);
    run(&c.s, 2, b, 3);
    bool differ = false;
    for (int g = 0; g < 3; g++) {
        assert_same(&a[g], &b[g]);
        assert_int_equal(a[g].n_games, 0);
        assert_int_equal(a[g].stats.games, 0);
        for (size_t i = 0; i < a[g].n; i++) {
            assert_true(a[g].fitness[i] <= 0);
            differ = differ || a[g].fitness[i] != a[g].fitness[0];
        }
    }
    assert_true(differ);
    nk_evo *e = NULL;
    assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 2, err, sizeof err), NK_OK);
    nk_evo_checkpoint cp = checkpoint_of(&a[1], 2);
    assert_int_equal(nk_evo_restore(e, &cp, err, sizeof err), NK_OK);
    snap r;
    if (nk_evo_iterate(e, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    take(&r, nk_evo_record_of(e));
    assert_same(&r, &a[2]);
    drop(&r);
    nk_evo_free(e);
    /* Restored without its champion, generation 2 grades on other
     * positions (those of the hand-tuned weights' games): the checkpoint's
     * champion matters. */
    assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 1, err, sizeof err), NK_OK);
    cp.champion = NULL;
    assert_int_equal(nk_evo_restore(e, &cp, err, sizeof err), NK_OK);
    assert_int_equal(nk_evo_iterate(e, err, sizeof err), NK_OK);
    take(&r, nk_evo_record_of(e));
    assert_memory_equal(r.genome, a[2].genome, r.n * r.d * sizeof(double));
    assert_memory_not_equal(r.fitness, a[2].fitness, r.n * sizeof(double));
    drop(&r);
    nk_evo_free(e);
    for (int g = 0; g < 3; g++) {
        drop(&a[g]);
        drop(&b[g]);
    }
    unload(&c);
    /* The share of optimal moves instead. */
    const char *const share[] = {"fitness.schedule=tablebase", tb_set,
                                 "fitness.tablebase_positions=40", "benchmark.every=0",
                                 "fitness.tablebase_measure=optimal"};
    load(&c, share, sizeof share / sizeof *share);
    run(&c.s, 2, a, 1);
    for (size_t i = 0; i < a[0].n; i++)
        assert_true(a[0].fitness[i] >= 0 && a[0].fitness[i] <= 1);
    drop(&a[0]);
    unload(&c);
}

/* A tablebase schedule whose directory holds no database of the variant
 * (missing, or one of another variant under its name) is refused,
 * naming fitness.tablebase. */
static void test_tablebase_schedule_bad_database(void **state)
{
    (void)state;
    char dir[] = "/tmp/nk_test_evo_badXXXXXX", path[1100], err[1024], set[1200];
    assert_non_null(mkdtemp(dir));
    snprintf(set, sizeof set, "fitness.tablebase=%s", dir);
    const char *const sets[] = {"fitness.schedule=tablebase", set, "benchmark.every=0"};
    cfg c;
    nk_evo *e = NULL;
    load(&c, sets, sizeof sets / sizeof *sets);
    assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 1, err, sizeof err), NK_ENOFILE);
    assert_null(e);
    assert_non_null(strstr(err, "fitness.tablebase"));
    /* antigua's database where abapa's should be */
    nk_tb tb;
    assert_int_equal(nk_tb_build(&tb, nk_variant_find("antigua"), 3, 1, NULL, err, sizeof err),
                     NK_OK);
    nk_tb_path(dir, nk_variant_find("abapa"), path, sizeof path);
    assert_int_equal(nk_tb_write(&tb, path, err, sizeof err), NK_OK);
    nk_tb_close(&tb);
    assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 1, err, sizeof err), NK_EMISMATCH);
    assert_null(e);
    assert_non_null(strstr(err, "fitness.tablebase"));
    assert_non_null(strstr(err, "antigua"));
    /* and none at all: the settings rule (nk_run_settings_check) */
    c.s.run.fitness.tablebase = "";
    nk_run_clash clash;
    assert_int_equal(nk_run_settings_check(&c.s.run, &clash), NK_EINVAL);
    assert_string_equal(clash.a, "fitness.schedule");
    assert_non_null(strstr(clash.mid, "fitness.tablebase"));
    assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 1, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "fitness.tablebase"));
    remove(path);
    remove(dir); /* empty: remove() takes it as rmdir() */
    unload(&c);
}

/* The strategies for large genomes, sep-cma-es and openai-es: the same
 * generations on 1 and 2 threads, and a loop restored from the checkpoint
 * of generation 1 continues exactly. */
static void check_threads_and_restore(const char *kind)
{
    const char *const sets[] = {kind, "strategy.lambda=6", "strategy.mu=3",
                                "strategy.sigma0=0.1"};
    cfg c;
    snap a[4], b[4];
    char err[1024];
    load(&c, sets, sizeof sets / sizeof *sets);
    run(&c.s, 1, a, 4);
    run(&c.s, 2, b, 4);
    for (int g = 0; g < 4; g++)
        assert_same(&a[g], &b[g]);
    assert_int_equal(a[0].n, 6);
    assert_true(memcmp(a[0].genome, a[1].genome, 6 * a[0].d * sizeof(double)) != 0);
    nk_evo *e = NULL;
    assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 2, err, sizeof err), NK_OK);
    nk_evo_checkpoint cp = {.done = 2,
                            .strategy = a[1].strategy,
                            .n_strategy = a[1].n_strategy,
                            .hall = a[1].hall,
                            .n_hall = a[1].n_hall,
                            .champion = a[1].champion};
    assert_int_equal(nk_evo_restore(e, &cp, err, sizeof err), NK_OK);
    for (unsigned g = 2; g < 4; g++) {
        snap s;
        if (nk_evo_iterate(e, err, sizeof err) != NK_OK)
            fail_msg("%s: %s", kind, err);
        take(&s, nk_evo_record_of(e));
        assert_same(&s, &a[g]);
        drop(&s);
    }
    nk_evo_free(e);
    for (int g = 0; g < 4; g++) {
        drop(&a[g]);
        drop(&b[g]);
    }
    unload(&c);
}

static void test_large_genome_strategies_threads_and_restore(void **state)
{
    (void)state;
    check_threads_and_restore("strategy.kind=sep-cma-es");
    check_threads_and_restore("strategy.kind=openai-es");
}

static void test_bad_settings_name_the_key(void **state)
{
    (void)state;
    static const struct {
        const char *field, *value, *key;
    } cases[] = {
        {"variant", "nowhere", "experiment.variant"},
        {"schedule", "nope", "fitness.schedule"},
        {"selection", "nope", "selection.method"},
        {"benchmark", "greedy; human", "benchmark.opponents"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cfg c;
        char err[1024] = "";
        nk_evo *e = NULL;
        load(&c, NULL, 0);
        if (strcmp(cases[i].field, "variant") == 0)
            c.s.run.experiment.variant = cases[i].value;
        else if (strcmp(cases[i].field, "schedule") == 0)
            c.s.run.fitness.schedule = cases[i].value;
        else if (strcmp(cases[i].field, "selection") == 0)
            c.s.run.selection.method = cases[i].value;
        else
            c.s.run.benchmark.opponents = cases[i].value;
        assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 1, err, sizeof err), NK_EINVAL);
        assert_null(e);
        assert_non_null(strstr(err, cases[i].key));
        unload(&c);
    }
}

/* Every allocation of a generation may fail: the iterate then says
 * NK_ENOMEM (none is swallowed), and the loop frees cleanly. */
static void test_out_of_memory_is_reported(void **state)
{
    (void)state;
    cfg c;
    char err[1024];
    load(&c, NULL, 0);
    nk_evo *e = NULL;
    assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 1, err, sizeof err), NK_OK);
    nk_alloc_fail_at(0);
    assert_int_equal(nk_evo_iterate(e, err, sizeof err), NK_OK);
    unsigned long count = nk_alloc_count();
    nk_evo_free(e);
    assert_true(count > 10);
    for (unsigned long n = 1; n <= count; n++) {
        e = NULL;
        assert_int_equal(nk_evo_alloc(&e, &c.s, NULL, 1, err, sizeof err), NK_OK);
        nk_alloc_fail_at(n);
        nk_status st = nk_evo_iterate(e, err, sizeof err);
        nk_alloc_fail_at(0);
        if (st != NK_ENOMEM)
            fail_msg("allocation %lu of %lu failed: status %d (%s)", n, count, (int)st, err);
        assert_null(nk_evo_record_of(e));
        nk_evo_free(e);
    }
    unload(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_iterates_equal_a_fresh_run),
        cmocka_unit_test(test_es_plus_evaluates_mu_plus_lambda),
        cmocka_unit_test(test_restore_continues_identically),
        cmocka_unit_test(test_large_genome_strategies_threads_and_restore),
        cmocka_unit_test(test_tablebase_schedule),
        cmocka_unit_test(test_tablebase_schedule_bad_database),
        cmocka_unit_test(test_bad_settings_name_the_key),
        cmocka_unit_test(test_out_of_memory_is_reported),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tb_cleanup();
    return failed;
}
