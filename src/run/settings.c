/*
 * settings.c -- the settings of a run (contract in settings.h): the table
 * of every run parameter, its defaults, the extra rules of single keys, and
 * the one function that turns the settings into a genome and a strategy
 * with its operators.
 */
#include "run/settings.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/schedule.h"
#include "search/eval.h"

static const nk_param run_params[] = {NK_RUN_PARAMS(NK_RUN_PARAM_ROW)};
enum { NRUN = sizeof run_params / sizeof run_params[0] };

const nk_param *nk_run_params_table(size_t *n)
{
    *n = NRUN;
    return run_params;
}

void nk_run_settings_defaults(nk_run_settings *s)
{
    memset(s, 0, sizeof *s);
    /* the library values of what no config key sets */
    nk_mutate_params_init(&s->mutation.par);
    nk_param_defaults(run_params, NRUN, s);
}

/* ===== the extra rules of single keys ===== */

nk_status nk_run_check_file_name(char *text, size_t cap, char *why, size_t whylen)
{
    (void)cap;
    size_t n = strlen(text);
    bool ok = n >= 1 && n <= 64 && isalnum((unsigned char)text[0]);
    for (size_t i = 0; ok && i < n; i++)
        ok = isalnum((unsigned char)text[i]) || strchr("._-", text[i]) != NULL;
    if (!ok)
        return nk_fail(NK_EINVAL, why, whylen,
                       "'%.80s' is not a safe file name (1 to 64 letters, digits, '.', '_', "
                       "'-', starting with a letter or digit)",
                       text);
    return NK_OK;
}

nk_status nk_run_check_features(char *text, size_t cap, char *why, size_t whylen)
{
    (void)cap;
    return nk_eval_features_check(text, why, whylen);
}

static const char *const unit_names[] = {"auto", "game", "match"};

const char *nk_run_unit_name_at(size_t i)
{
    return i < sizeof unit_names / sizeof *unit_names ? unit_names[i] : NULL;
}

nk_arena_unit nk_run_unit_of(const char *unit, const nk_variant *variant)
{
    if (strcmp(unit, "match") == 0)
        return NK_UNIT_MATCH;
    if (strcmp(unit, "game") == 0)
        return NK_UNIT_GAME;
    return strcmp(variant->name, "adjikui") == 0 ? NK_UNIT_MATCH : NK_UNIT_GAME;
}

nk_status nk_run_check_scoring(char *text, size_t cap, char *why, size_t whylen)
{
    char compact[256];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof compact; p++)
        if (!isspace((unsigned char)*p))
            compact[n++] = *p;
    compact[n] = '\0';
    nk_scoring sc;
    nk_status st = nk_scoring_parse(&sc, compact, why, whylen);
    if (st != NK_OK)
        return st;
    if (sc.by_seeds) {
        snprintf(text, cap, "seeds");
    } else {
        char w[48], d[48], l[48];
        nk_param_format_double(sc.win, w, sizeof w);
        nk_param_format_double(sc.draw, d, sizeof d);
        nk_param_format_double(sc.loss, l, sizeof l);
        snprintf(text, cap, "%s,%s,%s", w, d, l);
    }
    return NK_OK;
}

nk_status nk_run_check_even(char *text, size_t cap, char *why, size_t whylen)
{
    (void)cap;
    if (strtol(text, NULL, 10) % 2 != 0)
        return nk_fail(NK_EINVAL, why, whylen,
                       "%s is odd: games are played in pairs, one with each colour", text);
    return NK_OK;
}

/* ===== the evolving players ===== */

nk_status nk_run_player_of(const nk_run_settings *s, nk_run_player *out, char *err, size_t len)
{
    char text[NK_SPEC_TEXT], e2[NK_MSG_MAX];
    /* player.tt: each search uses its table once (search.h) and the evolving
     * players are made anew every batch, so at the shallow depths of most
     * runs a table costs more (memory traffic) than it saves. */
    snprintf(text, sizeof text, "ab:depth=%d,features=%s,tt=%d%s", s->player.depth,
             s->player.features, s->player.tt,
             strcmp(s->player.view, "root") == 0 ? ",view=root" : "");
    out->ply_limit = (unsigned)s->player.ply_limit;
    nk_status st = nk_spec_parse(&out->spec, text, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st == NK_ENOMEM ? NK_ENOMEM : NK_EINVAL, err, len, "player: %s", e2);
    return NK_OK;
}

/* ===== the strategy ===== */

size_t nk_run_settings_size(const nk_run_settings *s)
{
    const nk_strategy_type *t = nk_strategy_find(s->strategy.kind);
    return t != NULL ? t->size_of(&s->population, &s->strategy) : 0;
}

/* The parameters of strategy t that the settings give, for a genome of
 * encoding enc (the library's values of what no key sets). */
static void params_of(const nk_run_settings *s, const nk_strategy_type *t, nk_encoding enc,
                      nk_strategy_params *p)
{
    nk_strategy_params_init(p, t, enc);
    p->size = t->size_of(&s->population, &s->strategy);
    p->mu = (size_t)s->strategy.mu;
    p->elite = (size_t)s->strategy.elitism;
    p->sigma0 = s->strategy.sigma0;
    p->select = nk_select_find(s->selection.method);
    p->select_par = s->selection.par;
    p->cross = nk_cross_find(s->crossover.method);
    p->cross_par = s->crossover.par;
    p->mutate = nk_mutate_find(s->mutation.method);
    p->mutate_par = s->mutation.par; /* with the library's values of what no key sets */
    if (s->strategy.sigma_min > 0 && s->strategy.sigma_min < 1)
        p->mutate_par.sigma_floor = s->strategy.sigma_min;
    nk_strategy_optimizer_find(s->strategy.optimizer, &p->optimizer); /* checked by its row */
    p->learning_rate = s->strategy.learning_rate;
    p->weight_decay = s->strategy.weight_decay;
}

/* The encoding of population.encoding (real when it is not a known one). */
static nk_encoding encoding_of(const nk_run_settings *s)
{
    nk_encoding enc = NK_ENC_REAL;
    return nk_genome_encoding_parse(&enc, s->population.encoding, NULL, 0) == NK_OK ? enc
                                                                                  : NK_ENC_REAL;
}

size_t nk_run_settings_evaluated(const nk_run_settings *s)
{
    const nk_strategy_type *t = nk_strategy_find(s->strategy.kind);
    if (t == NULL)
        return 0;
    nk_strategy_params p;
    params_of(s, t, encoding_of(s), &p);
    return t->evaluated(&p);
}

static nk_status build(const nk_run_settings *s, size_t dim, nk_genome **genome,
                       nk_strategy **strategy, char *err, size_t len)
{
    nk_encoding enc;
    nk_status st = nk_genome_encoding_parse(&enc, s->population.encoding, err, len);
    if (st != NK_OK)
        return st;
    st = nk_genome_alloc(genome, dim, enc, (unsigned)s->population.bits, s->player.weights_min,
                         s->player.weights_max, err, len);
    if (st != NK_OK)
        return st;
    char names[256];
    const nk_strategy_type *t = nk_strategy_find(s->strategy.kind);
    if (t == NULL)
        return nk_fail(NK_EINVAL, err, len, "strategy.kind: unknown strategy '%s' (choices: %s)",
                       s->strategy.kind, nk_strategy_names(names, sizeof names));
    nk_strategy_params p;
    params_of(s, t, enc, &p);
    if (p.select == NULL)
        return nk_fail(NK_EINVAL, err, len, "selection.method: unknown '%s' (choices: %s)",
                       s->selection.method, nk_select_names(names, sizeof names));
    if (p.cross == NULL)
        return nk_fail(NK_EINVAL, err, len, "crossover.method: unknown '%s' (choices: %s)",
                       s->crossover.method, nk_cross_names(names, sizeof names));
    if (p.mutate == NULL)
        return nk_fail(NK_EINVAL, err, len, "mutation.method: unknown '%s' (choices: %s)",
                       s->mutation.method, nk_mutate_names(names, sizeof names));
    if (t->max_dim > 0 && dim > t->max_dim)
        return nk_fail(NK_ERANGE, err, len,
                       "strategy.kind: %s takes at most %zu weights, but player.features '%s' has "
                       "%zu (use sep-cma-es or openai-es)",
                       t->name, t->max_dim, s->player.features, dim);
    return nk_strategy_alloc(strategy, t, *genome, &p, err, len);
}

nk_status nk_run_settings_strategy(const nk_run_settings *s, size_t dim, nk_genome **genome,
                                   nk_strategy **strategy, char *err, size_t len)
{
    *genome = NULL;
    *strategy = NULL;
    nk_status st = build(s, dim, genome, strategy, err, len);
    if (st != NK_OK) {
        nk_strategy_free(*strategy);
        nk_genome_free(*genome);
        *strategy = NULL;
        *genome = NULL;
    }
    return st;
}

/* ===== the rules across keys ===== */

/* c = "<a><mid><b><tail>" (nk_run_clash); returns st. */
static nk_status clash(nk_status st, nk_run_clash *c, const char *a, const char *mid,
                       const char *b, const char *tail)
{
    c->a = a;
    c->b = b;
    snprintf(c->mid, sizeof c->mid, "%s", mid);
    c->tail = tail;
    return st;
}

static nk_status rule_bounds(const nk_run_settings *s, nk_run_clash *c)
{
    if (s->player.weights_min < s->player.weights_max)
        return NK_OK;
    return clash(NK_ERANGE, c, "player.weights_min", " must be below ", "player.weights_max", "");
}

/* The strategy's own rules (nk_strategy_type.clash). */
static nk_status rule_strategy(const nk_run_settings *s, nk_run_clash *c)
{
    const nk_strategy_type *t = nk_strategy_find(s->strategy.kind);
    if (t == NULL)
        return clash(NK_EINVAL, c, "strategy.kind", " is not a strategy", NULL, "");
    nk_strategy_params p;
    params_of(s, t, encoding_of(s), &p);
    nk_strategy_clash sc;
    if (t->clash == NULL || !t->clash(&p, &sc))
        return NK_OK;
    nk_status st = clash(NK_ERANGE, c, sc.a, "", sc.b, "");
    snprintf(c->mid, sizeof c->mid, " %s ", sc.relation);
    return st;
}

/* Appends printf text to buf[len] at *used (cut at the end). */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = *used < len ? buf + *used : NULL;
    int n = vsnprintf(at, at != NULL ? len - *used : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used += (size_t)n;
}

/* A text of a strategy type, for the docs (NULL: none). */
typedef const char *(*type_words)(const nk_strategy_type *t);
static const char *clash_words(const nk_strategy_type *t)
{
    return t->clash_doc;
}
static const char *evaluated_words(const nk_strategy_type *t)
{
    return t->evaluated_doc;
}

/* When strategy i is the first of those whose words (by get) are its
 * own, writes their names into names[len] ("`a`", "`a` and `b`", "`a`,
 * `b` and `c`", in list order) and returns its words; else NULL. */
static const char *word_group(type_words get, size_t i, char *names, size_t len)
{
    const nk_strategy_type *const *t = nk_strategy_types();
    const char *words = get(t[i]);
    if (words == NULL)
        return NULL;
    for (size_t j = 0; j < i; j++)
        if (get(t[j]) != NULL && strcmp(get(t[j]), words) == 0)
            return NULL;
    size_t last = i, used = 0;
    append(names, len, &used, "`%s`", t[i]->name);
    for (size_t j = i + 1; t[j] != NULL; j++)
        if (get(t[j]) != NULL && strcmp(get(t[j]), words) == 0)
            last = j;
    for (size_t j = i + 1; j <= last; j++)
        if (get(t[j]) != NULL && strcmp(get(t[j]), words) == 0)
            append(names, len, &used, "%s`%s`", j == last ? " and " : ", ", t[j]->name);
    return words;
}

/* The strategies' own rules, grouped by their words. */
static void doc_strategy(char *buf, size_t len)
{
    size_t used = 0;
    char names[256];
    buf[0] = '\0';
    for (size_t i = 0; nk_strategy_types()[i] != NULL; i++) {
        const char *words = word_group(clash_words, i, names, sizeof names);
        if (words != NULL)
            append(buf, len, &used, "%s %s: %s", used ? "; for" : "For", names, words);
    }
    append(buf, len, &used, ".");
}

static nk_status rule_encoding(const nk_run_settings *s, nk_run_clash *c)
{
    bool binary = encoding_of(s) == NK_ENC_BINARY;
    const nk_cross_type *x = nk_cross_find(s->crossover.method);
    const nk_mutate_type *m = nk_mutate_find(s->mutation.method);
    const char *bad = NULL;
    if (x != NULL && (binary ? x->bits == NULL : x->real == NULL))
        bad = "crossover.method";
    else if (m != NULL && (binary ? m->bits == NULL : m->real == NULL))
        bad = "mutation.method";
    if (bad == NULL)
        return NK_OK;
    return clash(NK_EINVAL, c, bad,
                 binary ? " does not work on binary genomes (" : " does not work on real genomes (",
                 "population.encoding", ")");
}

/* Whether a list of specs ("a; b", SPECS) holds a player. */
static bool has_players(const char *specs)
{
    for (const char *p = specs; *p; p++)
        if (!isspace((unsigned char)*p) && *p != ';')
            return true;
    return false;
}

/* Whether a list of specs ("a; b", SPECS) holds an ext: player. */
static bool has_ext(const char *specs)
{
    for (const char *p = specs; *p; p++) {
        while (isspace((unsigned char)*p))
            p++;
        if (strncmp(p, "ext:", 4) == 0)
            return true;
        p += strcspn(p, ";");
        if (*p == '\0')
            break;
    }
    return false;
}

static nk_status rule_schedule(const nk_run_settings *s, nk_run_clash *c)
{
    nk_schedule k = nk_schedule_find(s->fitness.schedule);
    if (k == NK_SCHEDULE_GAUNTLET && !has_players(s->fitness.gauntlet))
        return clash(NK_EINVAL, c, "fitness.schedule", " needs players in fitness.gauntlet", NULL,
                     "");
    /* A fitness game an engine forfeits ends by a reason that is not the
       rules' (rules.h, NK_END_RULES), and a run file's /games names only
       those; an engine's strength is measured as a benchmark opponent. */
    if (k == NK_SCHEDULE_GAUNTLET && has_ext(s->fitness.gauntlet))
        return clash(NK_EINVAL, c, "fitness.gauntlet",
                     " holds an ext: player, which can be a benchmark opponent "
                     "(benchmark.opponents) but not a fitness opponent",
                     NULL, "");
    /* Every schedule but the gauntlet pits individuals against each other. */
    size_t n = nk_run_settings_evaluated(s);
    const nk_strategy_type *t = nk_strategy_find(s->strategy.kind);
    if (k != NK_SCHEDULE_GAUNTLET && k != NK_SCHEDULE_TABLEBASE && n < 2 && t != NULL) {
        nk_status st = clash(NK_ERANGE, c, t->size_key, "", "fitness.schedule", " needs at least 2");
        snprintf(c->mid, sizeof c->mid, " leaves %zu individual evaluated per generation; ", n);
        return st;
    }
    if (k == NK_SCHEDULE_RANDOM_K && (size_t)s->fitness.k >= n) {
        nk_status st = clash(NK_ERANGE, c, "fitness.k", "", "fitness.schedule", ")");
        snprintf(c->mid, sizeof c->mid,
                 " must be below the %zu individuals evaluated per generation (", n);
        return st;
    }
    return NK_OK;
}

/* How many individuals a generation evaluates, strategy by strategy. */
static void doc_schedule(char *buf, size_t len)
{
    size_t used = 0;
    char names[256];
    buf[0] = '\0';
    append(buf, len, &used, "%s",
           "`fitness.schedule = gauntlet` needs players in `fitness.gauntlet`; every other "
           "schedule but `tablebase` needs at least 2 individuals evaluated per generation, and with "
           "`random-k`, `fitness.k` must be below the number of individuals evaluated per "
           "generation (");
    const char *sep = "";
    for (size_t i = 0; nk_strategy_types()[i] != NULL; i++) {
        const char *words = word_group(evaluated_words, i, names, sizeof names);
        if (words != NULL) {
            append(buf, len, &used, "%s%s for %s", sep, words, names);
            sep = ", ";
        }
    }
    append(buf, len, &used, ").");
}

static nk_status rule_tablebase(const nk_run_settings *s, nk_run_clash *c)
{
    if (nk_schedule_find(s->fitness.schedule) != NK_SCHEDULE_TABLEBASE ||
        s->fitness.tablebase[0] != '\0')
        return NK_OK;
    return clash(NK_EINVAL, c, "fitness.schedule",
                 " needs a database: the directory of VARIANT.nktb in fitness.tablebase", NULL,
                 "");
}

static nk_status rule_benchmark(const nk_run_settings *s, nk_run_clash *c)
{
    if (s->benchmark.every == 0 || has_players(s->benchmark.opponents))
        return NK_OK;
    return clash(NK_EINVAL, c, "benchmark.every", " needs players in benchmark.opponents", NULL,
                 "");
}

static const struct rule {
    const char *text;                   /* for configs/README.md */
    void (*doc)(char *buf, size_t len); /* when the words are made (text NULL) */
    nk_status (*check)(const nk_run_settings *s, nk_run_clash *c);
} rules[] = {
    {"`player.weights_min` < `player.weights_max`.", NULL, rule_bounds},
    {NULL, doc_strategy, rule_strategy},
    {"`crossover.method` and `mutation.method` must work on the genome encoding: `arithmetic`, "
     "`blx-alpha`, `sbx`, `gaussian`, `polynomial` and `lognormal` need `real` genomes, "
     "`bit-flip` needs `binary` ones.",
     NULL, rule_encoding},
    {NULL, doc_schedule, rule_schedule},
    {"`fitness.schedule = tablebase` needs a database: `fitness.tablebase` names its directory.",
     NULL, rule_tablebase},
    {"`benchmark.every` > 0 needs players in `benchmark.opponents`.", NULL, rule_benchmark},
};
enum { NRULES = sizeof rules / sizeof rules[0] };

nk_status nk_run_settings_check(const nk_run_settings *s, nk_run_clash *c)
{
    for (size_t i = 0; i < NRULES; i++) {
        nk_status st = rules[i].check(s, c);
        if (st != NK_OK)
            return st;
    }
    return NK_OK;
}

size_t nk_run_rule_count(void)
{
    return NRULES;
}

char *nk_run_rule_doc(size_t i, char *buf, size_t len)
{
    if (len == 0)
        return buf;
    if (i >= NRULES)
        buf[0] = '\0';
    else if (rules[i].text != NULL)
        snprintf(buf, len, "%s", rules[i].text);
    else
        rules[i].doc(buf, len);
    return buf;
}
