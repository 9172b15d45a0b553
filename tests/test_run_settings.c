/*
 * test_run_settings.c -- parameters declared once: the names helper
 * (base/names.h), the parameter tables (base/param.h) and the typed run
 * settings (run/settings.h) filled from a config (nk_config_settings), and
 * the strategy built from them (nk_run_settings_strategy).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/names.h"
#include "base/param.h"
#include "evolve/strategy.h"
#include "io/config.h"
#include "run/settings.h"

/* ===== names ===== */

typedef struct thing {
    const char *name;
    int value;
} thing;

static void test_names(void **state)
{
    (void)state;
    static const thing a = {"alpha", 1}, b = {"beta", 2};
    static const thing *const ptrs[] = {&a, &b, NULL};
    static const thing arr[] = {{"x", 7}, {"y", 8}, {"z", 9}};
    static const char *const strs[] = {"one", "two", NULL};
    char buf[64];

    assert_ptr_equal(nk_names_find(NK_NAMES_PTRS(ptrs), "beta"), &b);
    assert_null(nk_names_find(NK_NAMES_PTRS(ptrs), "gamma"));
    assert_null(nk_names_find(NK_NAMES_PTRS(ptrs), NULL));
    assert_int_equal(nk_names_index(NK_NAMES_PTRS(ptrs), "alpha"), 0);
    assert_int_equal(nk_names_count(NK_NAMES_PTRS(ptrs)), 2);
    assert_string_equal(nk_names_join(NK_NAMES_PTRS(ptrs), buf, sizeof buf), "alpha, beta");

    assert_ptr_equal(nk_names_find(NK_NAMES_ARRAY(arr, 3), "z"), &arr[2]);
    assert_int_equal(nk_names_index(NK_NAMES_ARRAY(arr, 2), "z"), -1); /* count bounds it */
    assert_string_equal(nk_names_join(NK_NAMES_ARRAY(arr, 3), buf, sizeof buf), "x, y, z");

    assert_int_equal(nk_names_index(NK_NAMES_STRINGS(strs), "two"), 1);
    assert_string_equal(nk_names_at(NK_NAMES_STRINGS(strs), 0), "one");
    assert_null(nk_names_at(NK_NAMES_STRINGS(strs), 2));
    /* cut short, still a string */
    assert_string_equal(nk_names_join(NK_NAMES_STRINGS(strs), buf, 5), "one,");
    assert_string_equal(nk_names_join(NK_NAMES_STRINGS(strs), buf, 1), "");
}

/* The five lists of type objects answer through it. */
static void test_type_lists(void **state)
{
    (void)state;
    char buf[256];
    assert_ptr_equal(nk_select_find("sus"), &nk_select_sus);
    assert_null(nk_select_find("suss"));
    assert_string_equal(nk_select_names(buf, sizeof buf),
                        "tournament, roulette, linear-rank, truncation, sus");
    assert_ptr_equal(nk_cross_find("sbx"), &nk_cross_sbx);
    assert_ptr_equal(nk_mutate_find("lognormal"), &nk_mutate_lognormal);
    assert_ptr_equal(nk_strategy_find("cma-es"), &nk_strategy_cma_es);
    assert_string_equal(nk_strategy_names(buf, sizeof buf),
                        "ga, es-plus, es-comma, cma-es, sep-cma-es, openai-es");
    assert_non_null(nk_features_find("ayo12"));
    nk_features_list(buf, sizeof buf);
    assert_string_equal(buf,
                        "material, ayo12, positional, adjikui, ayo12-literal, ayo12-negated, dk2002");
}

/* ===== the tables ===== */

/* Value of parameter p in the struct at base, as canonical text. */
static void value_text(const nk_param *p, const void *base, char *buf, size_t len)
{
    const char *at = (const char *)base + p->offset;
    switch (p->store) {
    case NK_STORE_INT:
        snprintf(buf, len, "%d", *(const int *)at);
        break;
    case NK_STORE_UINT:
        snprintf(buf, len, "%u", *(const unsigned *)at);
        break;
    case NK_STORE_ULONG:
        snprintf(buf, len, "%lu", *(const unsigned long *)at);
        break;
    case NK_STORE_ULLONG:
        snprintf(buf, len, "%llu", *(const unsigned long long *)at);
        break;
    case NK_STORE_DOUBLE:
        nk_param_format_double(*(const double *)at, buf, len);
        break;
    case NK_STORE_BOOL:
        snprintf(buf, len, "%s", *(const bool *)at ? "true" : "false");
        break;
    case NK_STORE_CSTR:
        snprintf(buf, len, "%s", *(const char *const *)at ? *(const char *const *)at : "(null)");
        break;
    case NK_STORE_CHARS:
        snprintf(buf, len, "%s", at);
        break;
    default:
        fail_msg("%s: no store kind", p->key);
    }
}

/* Every row of the run table has a store kind, lies inside nk_run_settings,
 * overlaps no other row, and is a key of the config schema with the same
 * description; the schema is the run table plus [output]. */
static void test_run_table_shape(void **state)
{
    (void)state;
    size_t n;
    const nk_param *t = nk_run_params_table(&n);
#define ONE_ROW(...) +1
    assert_int_equal(nk_config_schema_count(), n + (0 NK_OUTPUT_PARAMS(ONE_ROW, _)));
#undef ONE_ROW
    for (size_t i = 0; i < n; i++) {
        assert_int_not_equal(t[i].store, NK_STORE_NONE);
        assert_true(t[i].offset + t[i].size <= sizeof(nk_run_settings));
        for (size_t j = 0; j < i; j++)
            assert_true(t[j].offset + t[j].size <= t[i].offset ||
                        t[i].offset + t[i].size <= t[j].offset);
        const nk_config_key *k = nk_config_schema(i);
        assert_string_equal(k->key, t[i].key);
        assert_string_equal(k->help, t[i].help);
        assert_int_equal(k->offset, t[i].offset);
        assert_int_equal(k->type, t[i].type);
    }
    assert_string_equal(nk_config_schema(n)->key, "output.file");
    assert_string_equal(nk_config_schema(n + 1)->key, "output.record_games");
}

/* The enum choices of the method keys are the names of the type lists. */
static void test_method_choices(void **state)
{
    (void)state;
    static const struct {
        const char *key;
        nk_names list;
    } cases[4] = {
        {"strategy.kind", {0}},
        {"selection.method", {0}},
        {"crossover.method", {0}},
        {"mutation.method", {0}},
    };
    nk_names lists[4] = {NK_NAMES_PTRS(nk_strategy_types()), NK_NAMES_PTRS(nk_select_types()),
                         NK_NAMES_PTRS(nk_cross_types()), NK_NAMES_PTRS(nk_mutate_types())};
    for (size_t c = 0; c < 4; c++) {
        const nk_config_key *k = nk_config_key_find(cases[c].key);
        assert_non_null(k);
        /* the same names in the same order: the choices are the list */
        assert_null(k->choices);
        assert_non_null(k->choice_at);
        size_t i = 0;
        for (; nk_names_at(lists[c], i) != NULL; i++)
            assert_string_equal(nk_param_choice(k, i), nk_names_at(lists[c], i));
        assert_null(nk_param_choice(k, i));
    }
    /* so are those of the encodings and the feature sets */
    const nk_config_key *enc = nk_config_key_find("population.encoding");
    assert_ptr_equal(enc->choice_at, nk_genome_encoding_name_at);
    assert_string_equal(nk_param_choice(enc, 1), "binary");
    assert_null(nk_param_choice(enc, 2));
    /* player.features takes what a spec's features= takes (search/eval.h):
     * every linear set and the families, checked by nk_eval_features_check */
    const nk_config_key *feat = nk_config_key_find("player.features");
    assert_int_equal(feat->type, NK_CFG_STRING);
    assert_ptr_equal(feat->check, nk_run_check_features);
    char text[64], why[NK_MSG_MAX];
    for (size_t i = 0; nk_features_at(i) != NULL; i++) {
        snprintf(text, sizeof text, "%s", nk_features_at(i)->name);
        assert_int_equal(nk_run_check_features(text, sizeof text, why, sizeof why), NK_OK);
    }
    snprintf(text, sizeof text, "ntuple:layout=ring2:cap=3");
    assert_int_equal(nk_run_check_features(text, sizeof text, why, sizeof why), NK_OK);
    snprintf(text, sizeof text, "ntuple:layout=ring9");
    assert_int_equal(nk_run_check_features(text, sizeof text, why, sizeof why), NK_EINVAL);
    snprintf(text, sizeof text, "positionall");
    assert_int_equal(nk_run_check_features(text, sizeof text, why, sizeof why), NK_EINVAL);
    assert_non_null(strstr(why, "positionall"));
}

/* The library defaults come from the same rows as the config's. */
static void test_library_defaults(void **state)
{
    (void)state;
    nk_select_params sp;
    nk_select_params_init(&sp);
    assert_int_equal(sp.tournament, 3);
    assert_true(sp.pressure == 1.7);
    assert_true(sp.fraction == 0.5);
    nk_cross_params cp;
    nk_cross_params_init(&cp);
    assert_true(cp.rate == 0.9 && cp.alpha == 0.5 && cp.eta == 15);
    nk_mutate_params mp;
    nk_mutate_params_init(&mp);
    assert_true(mp.rate == 0.2 && mp.sigma == 0.1 && mp.eta == 20);
    assert_true(mp.tau_scale == 1 && mp.sigma_floor == 1e-8); /* not keys: the library's */

    nk_run_settings s;
    nk_run_settings_defaults(&s);
    assert_memory_equal(&s.selection.par, &sp, sizeof sp);
    assert_memory_equal(&s.crossover.par, &cp, sizeof cp);
    assert_memory_equal(&s.mutation.par, &mp, sizeof mp);
    assert_int_equal(s.population.size, 16);
    assert_string_equal(s.strategy.kind, "ga");
    assert_string_equal(s.experiment.name, "quickstart");
    assert_true(s.strategy.sigma_min == 1e-6);
}

/* ===== config -> settings ===== */

static nk_config *config(const char *const *sets, size_t n)
{
    nk_config *cfg;
    char err[512] = "";
    if (nk_config_new(&cfg, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    for (size_t i = 0; i < n; i++)
        if (nk_config_set(cfg, sets[i], err, sizeof err) != NK_OK)
            fail_msg("%s: %s", sets[i], err);
    return cfg;
}

/* With no key set, the settings are the tables' defaults, field by field. */
static void test_config_defaults(void **state)
{
    (void)state;
    nk_config *cfg = config(NULL, 0);
    nk_run_settings got, want;
    nk_output_settings out;
    char err[256] = "";
    assert_int_equal(nk_config_settings(cfg, &got, &out, err, sizeof err), NK_OK);
    nk_run_settings_defaults(&want);
    size_t n;
    const nk_param *t = nk_run_params_table(&n);
    for (size_t i = 0; i < n; i++) {
        char a[1024], b[1024];
        value_text(&t[i], &got, a, sizeof a);
        value_text(&t[i], &want, b, sizeof b);
        if (strcmp(a, b) != 0)
            fail_msg("%s: config gives '%s', the table '%s'", t[i].key, a, b);
        /* and both are the default text */
        assert_string_equal(a, t[i].def);
        assert_string_equal(nk_config_text(cfg, t[i].key), t[i].def);
    }
    assert_memory_equal(&got.mutation.par, &want.mutation.par, sizeof want.mutation.par);
    assert_string_equal(out.file, "");
    assert_string_equal(out.record_games, "auto");
    nk_config_free(cfg);
}

/* A key set lands in its field, and in no other. */
static void test_config_set_lands(void **state)
{
    (void)state;
    static const struct {
        const char *set, *key, *value;
    } cases[] = {
        {"selection.tournament_size=5", "selection.tournament_size", "5"},
        {"selection.rank_pressure=1.25", "selection.rank_pressure", "1.25"},
        {"crossover.blx_alpha=0.75", "crossover.blx_alpha", "0.75"},
        {"mutation.poly_eta=7", "mutation.poly_eta", "7"},
        {"strategy.kind=cma-es", "strategy.kind", "cma-es"},
        {"strategy.lambda=12", "strategy.lambda", "12"},
        {"experiment.seed=18446744073709551615", "experiment.seed", "18446744073709551615"},
        {"player.tt=1024", "player.tt", "1024"},
        {"fitness.gauntlet=random;greedy", "fitness.gauntlet", "random; greedy"},
        {"fitness.scoring=3, 1, 0", "fitness.scoring", "3,1,0"},
        {"benchmark.games=10", "benchmark.games", "10"},
        {"population.encoding=binary", "population.encoding", "binary"},
    };
    size_t n;
    const nk_param *t = nk_run_params_table(&n);
    nk_run_settings want;
    nk_run_settings_defaults(&want);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        nk_config *cfg = config(&cases[c].set, 1);
        nk_run_settings got;
        char err[256] = "";
        assert_int_equal(nk_config_settings(cfg, &got, NULL, err, sizeof err), NK_OK);
        bool found = false;
        for (size_t i = 0; i < n; i++) {
            char a[1024], b[1024];
            value_text(&t[i], &got, a, sizeof a);
            value_text(&t[i], &want, b, sizeof b);
            if (strcmp(t[i].key, cases[c].key) == 0) {
                found = true;
                if (strcmp(a, cases[c].value) != 0)
                    fail_msg("%s: field holds '%s'", cases[c].set, a);
            } else if (strcmp(a, b) != 0) {
                fail_msg("%s changed %s to '%s'", cases[c].set, t[i].key, a);
            }
        }
        assert_true(found);
        nk_config_free(cfg);
    }
    /* the typed fields themselves */
    const char *sets[] = {"selection.tournament_size=5", "mutation.poly_eta=7", "output.file=x.h5"};
    nk_config *cfg = config(sets, 3);
    nk_run_settings s;
    nk_output_settings out;
    assert_int_equal(nk_config_settings(cfg, &s, &out, NULL, 0), NK_OK);
    assert_int_equal(s.selection.par.tournament, 5);
    assert_true(s.mutation.par.eta == 7);
    assert_string_equal(out.file, "x.h5");
    nk_config_free(cfg);
}

/* player.tt and the spec's tt= share one bound; out of range is refused by
 * both with the table's range. */
static void test_tt_bound(void **state)
{
    (void)state;
    const nk_config_key *k = nk_config_key_find("player.tt");
    size_t n;
    const nk_param *t = nk_spec_params_table(&n);
    long i = nk_param_index(t, n, "tt");
    assert_true(i >= 0);
    assert_true(k->min == t[i].min && k->max == t[i].max && k->flags == t[i].flags);
    assert_true(k->max == NK_SPEC_TT_MAX_MB);
    nk_config *cfg;
    char err[256] = "";
    assert_int_equal(nk_config_new(&cfg, NULL, 0), NK_OK);
    assert_int_equal(nk_config_set(cfg, "player.tt=1025", err, sizeof err), NK_ERANGE);
    assert_non_null(strstr(err, "0..1024"));
    nk_config_free(cfg);
}

/* ===== settings -> strategy ===== */

static void test_strategy_from_settings(void **state)
{
    (void)state;
    nk_run_settings s;
    nk_run_settings_defaults(&s);
    nk_genome *g;
    nk_strategy *st;
    char err[256] = "";
    assert_int_equal(nk_run_settings_strategy(&s, 5, &g, &st, err, sizeof err), NK_OK);
    assert_ptr_equal(nk_strategy_type_of(st), &nk_strategy_ga);
    assert_int_equal(nk_strategy_size(st), 16);
    assert_int_equal(g->dim, 5);
    nk_strategy_free(st);
    nk_genome_free(g);

    s.strategy.kind = "es-plus";
    s.strategy.lambda = 12;
    assert_int_equal(nk_run_settings_size(&s), 12);
    assert_int_equal(nk_run_settings_strategy(&s, 5, &g, &st, err, sizeof err), NK_OK);
    assert_ptr_equal(nk_strategy_type_of(st), &nk_strategy_es_plus);
    assert_int_equal(nk_strategy_size(st), 4 + 12); /* plus: mu parents and lambda children */
    nk_strategy_free(st);
    nk_genome_free(g);

    s.strategy.kind = "ga";
    s.selection.method = "best";
    assert_int_equal(nk_run_settings_strategy(&s, 5, &g, &st, err, sizeof err), NK_EINVAL);
    assert_null(g);
    assert_null(st);
    assert_non_null(strstr(err, "selection.method: unknown 'best'"));
    assert_non_null(strstr(err, "tournament, roulette"));
    assert_null(strchr(err, '\n'));
}

/* What each strategy makes of the settings, through its hooks: the size it
 * is made with, and the individuals a generation evaluates, which is the
 * size of every population it asks for (nk_strategy_size): for es-plus mu
 * + lambda, not lambda (the parents carried over are evaluated again). */
static void test_strategy_hooks(void **state)
{
    (void)state;
    const nk_strategy_type *const *types = nk_strategy_types();
    /* ga, es-plus, es-comma, cma-es, sep-cma-es, openai-es (lambda even: 6) */
    size_t want_evaluated[] = {16, 2 + 5, 5, 5, 5, 6};
    for (size_t i = 0; types[i] != NULL; i++) {
        assert_true(i < 6);
        nk_run_settings s;
        nk_run_settings_defaults(&s);
        s.strategy.kind = types[i]->name;
        s.strategy.mu = 2; /* at most lambda / 2 for the CMA-ES */
        s.strategy.lambda = types[i] == &nk_strategy_openai_es ? 6 : 5;
        s.mutation.method = "lognormal";
        if (types[i] == &nk_strategy_ga)
            s.mutation.method = "gaussian";
        nk_genome *g;
        nk_strategy *st;
        char err[256] = "";
        if (nk_run_settings_strategy(&s, 4, &g, &st, err, sizeof err) != NK_OK)
            fail_msg("%s: %s", types[i]->name, err);
        assert_int_equal(nk_run_settings_evaluated(&s), want_evaluated[i]);
        assert_int_equal(nk_run_settings_evaluated(&s), nk_strategy_size(st));
        assert_int_equal(nk_run_settings_size(&s),
                         types[i] == &nk_strategy_ga ? 16 : (size_t)s.strategy.lambda);
        assert_non_null(types[i]->size_key);
        assert_non_null(types[i]->evaluated_doc);
        nk_strategy_free(st);
        nk_genome_free(g);
    }
    nk_run_settings s;
    nk_run_settings_defaults(&s);
    s.strategy.kind = "nothing";
    assert_int_equal(nk_run_settings_evaluated(&s), 0);
    assert_int_equal(nk_run_settings_size(&s), 0);
}

/* The rules across keys on typed settings: each strategy's own rule, and
 * the number evaluated as the schedules see it. */
static void test_rules_on_settings(void **state)
{
    (void)state;
    nk_run_settings s;
    nk_run_clash c;
    nk_run_settings_defaults(&s);
    assert_int_equal(nk_run_settings_check(&s, &c), NK_OK);
    s.strategy.elitism = 16; /* ga: population.size 16 */
    assert_int_equal(nk_run_settings_check(&s, &c), NK_ERANGE);
    assert_string_equal(c.a, "strategy.elitism");
    assert_string_equal(c.mid, " must be below ");
    assert_string_equal(c.b, "population.size");
    s.strategy.kind = "es-plus"; /* elitism is the GA's */
    s.strategy.mu = 20;
    s.mutation.method = "lognormal";
    assert_int_equal(nk_run_settings_check(&s, &c), NK_OK);
    s.strategy.kind = "es-comma";
    assert_int_equal(nk_run_settings_check(&s, &c), NK_ERANGE);
    assert_string_equal(c.a, "strategy.mu");
    assert_string_equal(c.b, "strategy.lambda");
    /* the CMA-ES: mu at most lambda / 2, where every recombination weight
     * is positive (5 of 10 taken, 6 refused) */
    s.strategy.lambda = 10;
    for (int k = 0; k < 2; k++) {
        s.strategy.kind = k == 0 ? "cma-es" : "sep-cma-es";
        s.strategy.mu = 5;
        assert_int_equal(nk_run_settings_check(&s, &c), NK_OK);
        s.strategy.mu = 6;
        assert_int_equal(nk_run_settings_check(&s, &c), NK_ERANGE);
        assert_string_equal(c.a, "strategy.mu");
        assert_string_equal(c.mid, " must be at most half of ");
        assert_string_equal(c.b, "strategy.lambda");
    }
    s.strategy.kind = "es-plus";
    s.strategy.mu = 2;
    s.strategy.lambda = 4;
    s.fitness.schedule = "random-k";
    s.fitness.k = 5; /* below the 6 es-plus evaluates */
    assert_int_equal(nk_run_settings_check(&s, &c), NK_OK);
    s.fitness.k = 6;
    assert_int_equal(nk_run_settings_check(&s, &c), NK_ERANGE);
    assert_string_equal(c.a, "fitness.k");
    assert_non_null(strstr(c.mid, "the 6 individuals evaluated"));
    s.strategy.kind = "es-comma"; /* 4 evaluated */
    s.fitness.k = 4;
    assert_int_equal(nk_run_settings_check(&s, &c), NK_ERANGE);
    assert_non_null(strstr(c.mid, "the 4 individuals evaluated"));
    /* the words of every rule are one line */
    for (size_t i = 0; i < nk_run_rule_count(); i++) {
        char doc[1024];
        nk_run_rule_doc(i, doc, sizeof doc);
        assert_true(strlen(doc) > 10 && strlen(doc) < sizeof doc - 1);
        assert_null(strchr(doc, '\n'));
    }
}

/* ===== the run's player ===== */

/* The evolving players' spec, as the loop has always made it. */
static void test_run_player(void **state)
{
    (void)state;
    nk_run_settings s;
    nk_run_settings_defaults(&s);
    nk_run_player p;
    char err[256] = "";
    assert_int_equal(nk_run_player_of(&s, &p, err, sizeof err), NK_OK);
    assert_string_equal(p.spec.text, "ab:depth=2,features=positional,tt=0");
    assert_int_equal(p.ply_limit, 1000);
    s.player.view = "root";
    s.player.depth = 3;
    s.player.features = "ayo12";
    s.player.tt = 4;
    s.player.ply_limit = 300;
    assert_int_equal(nk_run_player_of(&s, &p, err, sizeof err), NK_OK);
    assert_string_equal(p.spec.text, "ab:depth=3,features=ayo12,tt=4,view=root");
    assert_string_equal(p.spec.view, "root");
    assert_int_equal(p.spec.depth, 3);
    assert_int_equal(p.spec.tt_mb, 4);
    assert_int_equal(p.ply_limit, 300);
    s.player.depth = 99; /* beyond the spec's bound: settings no config makes */
    assert_int_equal(nk_run_player_of(&s, &p, err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "player: "));
    assert_null(strchr(err, '\n'));
}

/* A valid value of row p other than its default, as text in buf; false
 * when the test does not know how to make one (a new kind of row). */
static bool other_value(const nk_param *p, char *buf, size_t len)
{
    switch (p->type) {
    case NK_PARAM_INT:
    case NK_PARAM_DOUBLE: {
        double d = strtod(p->def, NULL), step = p->type == NK_PARAM_INT ? 1 : 0.5;
        double x = nk_param_in_bounds(p, d + step) ? d + step : d - step;
        if (!nk_param_in_bounds(p, x))
            return false;
        if (p->type == NK_PARAM_INT)
            snprintf(buf, len, "%d", (int)x);
        else
            nk_param_format_double(x, buf, len);
        return true;
    }
    case NK_PARAM_ENUM:
        for (size_t i = 0; nk_param_choice(p, i) != NULL; i++)
            if (strcmp(nk_param_choice(p, i), p->def) != 0) {
                snprintf(buf, len, "%s", nk_param_choice(p, i));
                return true;
            }
        return false;
    case NK_PARAM_STRING: /* player.features: another set, then a family */
        snprintf(buf, len, "%s", strcmp(p->def, "material") != 0 ? "material" : "ntuple");
        return p->check == NULL || p->check(buf, len, NULL, 0) == NK_OK;
    default:
        return false;
    }
}

/* What the [player] keys shape: the evolving players (spec text and ply
 * limit) and the genome's bounds. */
typedef struct shaped {
    char spec[NK_SPEC_TEXT];
    unsigned ply_limit;
    double lo, hi;
} shaped;

static void shape_of(const nk_run_settings *s, shaped *out)
{
    nk_run_player p;
    nk_genome *g;
    nk_strategy *st;
    char err[NK_MSG_MAX] = "";
    if (nk_run_player_of(s, &p, err, sizeof err) != NK_OK ||
        nk_run_settings_strategy(s, 3, &g, &st, err, sizeof err) != NK_OK)
        fail_msg("%s", err);
    snprintf(out->spec, sizeof out->spec, "%s", p.spec.text);
    out->ply_limit = p.ply_limit;
    out->lo = g->lo[0];
    out->hi = g->hi[0];
    nk_strategy_free(st);
    nk_genome_free(g);
}

/* Every key of [player] (NK_PLAYER_PARAMS) reaches the run's player
 * (nk_run_player_of) or its genome (nk_run_settings_strategy): set to
 * another value, it changes one of them.  So a player-shaping key that
 * the rebuilds of a run's player (evolution, RUN.h5@game=K, @champions,
 * ciao) would drop cannot be added unnoticed. */
static void test_player_keys_shape_the_player(void **state)
{
    (void)state;
    size_t n, keys = 0;
    const nk_param *t = nk_run_params_table(&n);
    nk_run_settings base;
    nk_run_settings_defaults(&base);
    shaped want;
    shape_of(&base, &want);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(t[i].section, "player") != 0)
            continue;
        keys++;
        static char text[64][64]; /* a const char * field keeps the pointer */
        assert_true(keys <= 64);
        char *v = text[keys - 1];
        if (!other_value(&t[i], v, sizeof text[0]))
            fail_msg("%s: no other value to try (teach other_value this kind of row)",
                     t[i].key);
        nk_run_settings s = base;
        assert_int_equal(nk_param_set(&t[i], &s, v), NK_OK);
        shaped got;
        shape_of(&s, &got);
        if (strcmp(got.spec, want.spec) == 0 && got.ply_limit == want.ply_limit &&
            got.lo == want.lo && got.hi == want.hi)
            fail_msg("%s = %s changes neither the run's player (%s) nor its genome: "
                     "nk_run_player_of (run/settings.c) drops it",
                     t[i].key, v, got.spec);
    }
    assert_true(keys >= 7); /* features, depth, ply_limit, tt, view, weights_min, weights_max */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_type_lists),
        cmocka_unit_test(test_run_table_shape),
        cmocka_unit_test(test_method_choices),
        cmocka_unit_test(test_library_defaults),
        cmocka_unit_test(test_config_defaults),
        cmocka_unit_test(test_config_set_lands),
        cmocka_unit_test(test_tt_bound),
        cmocka_unit_test(test_strategy_from_settings),
        cmocka_unit_test(test_strategy_hooks),
        cmocka_unit_test(test_rules_on_settings),
        cmocka_unit_test(test_run_player),
        cmocka_unit_test(test_player_keys_shape_the_player),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
