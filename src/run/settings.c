/*
 * settings.c -- the settings of a run (contract in settings.h): the table
 * of every run parameter, its defaults, the extra rules of single keys, and
 * the one function that turns the settings into a genome and a strategy
 * with its operators.
 */
#include "run/settings.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/schedule.h"

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
    if (nk_spec_parse(&out->spec, text, e2, sizeof e2) != NK_OK)
        return nk_fail(NK_EINVAL, err, len, "player: %s", e2);
    return NK_OK;
}

/* ===== the strategy ===== */

size_t nk_run_settings_size(const nk_run_settings *s)
{
    return strcmp(s->strategy.kind, "ga") == 0 ? (size_t)s->population.size
                                               : (size_t)s->strategy.lambda;
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
    nk_strategy_params_init(&p, t, enc);
    p.size = nk_run_settings_size(s);
    p.mu = (size_t)s->strategy.mu;
    p.elite = (size_t)s->strategy.elitism;
    p.sigma0 = s->strategy.sigma0;
    p.select = nk_select_find(s->selection.method);
    p.select_par = s->selection.par;
    p.cross = nk_cross_find(s->crossover.method);
    p.cross_par = s->crossover.par;
    p.mutate = nk_mutate_find(s->mutation.method);
    p.mutate_par = s->mutation.par; /* with the library's values of what no key sets */
    if (s->strategy.sigma_min > 0 && s->strategy.sigma_min < 1)
        p.mutate_par.sigma_floor = s->strategy.sigma_min;
    if (p.select == NULL)
        return nk_fail(NK_EINVAL, err, len, "selection.method: unknown '%s' (choices: %s)",
                       s->selection.method, nk_select_names(names, sizeof names));
    if (p.cross == NULL)
        return nk_fail(NK_EINVAL, err, len, "crossover.method: unknown '%s' (choices: %s)",
                       s->crossover.method, nk_cross_names(names, sizeof names));
    if (p.mutate == NULL)
        return nk_fail(NK_EINVAL, err, len, "mutation.method: unknown '%s' (choices: %s)",
                       s->mutation.method, nk_mutate_names(names, sizeof names));
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
