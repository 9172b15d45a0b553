/*
 * evolution.c -- the generation loop of an evolution run (see evolution.h).
 *
 * The checkpoint after generation g holds the strategy state as of its
 * tell, the hall of fame and the champion, which is all that generation
 * g + 1 needs.
 */
#include "run/evolution.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_rng.h>
#include <omp.h>

#include "arena/meetings.h"
#include "base/alloc.h"
#include "base/rng.h"
#include "evolve/strategy.h"
#include "run/benchmark.h"
#include "run/schedule.h"
#include "search/eval.h"
#include "search/features.h"
#include "search/grade.h"
#include "tb/tb.h"

/* A gauntlet or benchmark player as resolved. */
typedef struct evo_player {
    nk_spec spec;
    double weights[NK_MAX_FEATURES];
    size_t n;
} evo_player;

/* What one generation leaves until the next: the record's storage. */
typedef struct gen_data {
    nk_meeting *meet;
    size_t nmeet;
    nk_arena_played played;
    nk_exec_player *players;
    nk_tally tally;
    double *fitness;
    nk_run_game *rows;
    nk_run_bench bench[NK_EVO_MAX_SPECS];
    size_t nbench;
    nk_pop *pop;   /* the population as evaluated (a copy: tell replaces it) */
    double *state; /* the strategy state after tell */
    double *champ; /* [1 + D] */
} gen_data;

struct nk_evo {
    nk_evo_settings s;
    const nk_variant *variant;
    const nk_feature_set *set;
    size_t dim;
    nk_genome *genome;
    nk_strategy *strategy;
    nk_scoring scoring;
    nk_schedule schedule;
    nk_run_player player; /* the evolving players: spec and ply limit (nk_run_player_of) */
    evo_player gauntlet[NK_EVO_MAX_SPECS];
    size_t ngauntlet;
    evo_player bench[NK_EVO_MAX_SPECS];
    nk_exec_player bench_x[NK_EVO_MAX_SPECS];
    size_t nbench;
    const nk_tb *tb; /* benchmark.tablebase (shared, tb.h), or NULL */
    const nk_tb *fit_tb; /* fitness.tablebase of the tablebase schedule, or NULL */
    double *hall; /* [hall_size][D] past champions, oldest first */
    size_t nhall;
    gsl_rng **rng; /* one per individual */
    size_t nrng;
    unsigned done; /* generations iterated (or restored) */
    bool record;
    int threads;
    double *champion; /* [D] */
    int64_t champion_id;
    const char **names; /* [dim] the weights' names (make_names) */
    char *name_text;    /* their text when generated */
    nk_evo_shape shape;
    gen_data d;
    nk_evo_record rec;
    bool has_rec;
};

/* ===== from the settings ===== */

static nk_status resolve_spec(nk_evo_resolve resolve, const char *text, const nk_variant *v,
                              evo_player *p, char *err, size_t len)
{
    if (resolve != NULL)
        return resolve(text, v, &p->spec, p->weights, &p->n, err, len);
    p->n = 0;
    return nk_spec_parse(&p->spec, text, err, len);
}

static nk_status parse_specs(const char *list, const nk_variant *v, nk_evo_resolve resolve,
                             evo_player *defs, size_t *n, const char *key, char *err, size_t len)
{
    char buf[NK_EVO_LIST_MAX], *save = NULL;
    *n = 0;
    if (strlen(list) >= sizeof buf)
        return nk_fail(NK_ERANGE, err, len, "%s: list too long", key);
    strcpy(buf, list);
    for (char *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        while (*tok == ' ' || *tok == '\t')
            tok++;
        char *end = tok + strlen(tok);
        while (end > tok && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (*tok == '\0')
            continue;
        if (*n == NK_EVO_MAX_SPECS)
            return nk_fail(NK_ERANGE, err, len, "%s: more than %d players", key, NK_EVO_MAX_SPECS);
        char e2[NK_MSG_MAX];
        nk_status st = resolve_spec(resolve, tok, v, &defs[*n], e2, sizeof e2);
        if (st != NK_OK)
            return nk_fail(st, err, len, "%s: %s", key, e2);
        if (defs[*n].spec.kind == NK_PLAYER_HUMAN)
            return nk_fail(NK_EINVAL, err, len, "%s: a human cannot play in an evolution run", key);
        (*n)++;
    }
    return NK_OK;
}

/* The database of v in dir for a grading (the key names the setting):
 * shared (tb.h), and holding ownership pattern 0, where the graded games
 * start (grade.h). */
static nk_status open_tb(const nk_variant *v, const char *key, const char *dir, const nk_tb **tb,
                         char *err, size_t len)
{
    char e2[NK_MSG_MAX];
    nk_status st = nk_tb_shared_open(dir, v, tb, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "%s: %s", key, e2);
    if (!nk_tb_holds_pattern(*tb, 0))
        return nk_fail(NK_EINVAL, err, len,
                       "%s: the database of %s in '%s' does not hold ownership pattern 0 (the "
                       "default rows), where the graded games start",
                       key, v->name, dir);
    return NK_OK;
}

/* Games per generation of the schedule played as single games. */
static uint64_t meetings_games(const nk_evo *e)
{
    uint64_t n = e->nrng;
    switch (e->schedule) {
    case NK_SCHEDULE_ROUND_ROBIN:
        return n * (n - 1);
    case NK_SCHEDULE_SAMPLE:
        return 2 * n * (uint64_t)ceil(e->s.run.fitness.sample_fraction * (double)(n - 1));
    case NK_SCHEDULE_GAUNTLET:
        return 2 * n * e->ngauntlet;
    case NK_SCHEDULE_TABLEBASE: /* graded, no games */
        return 0;
    case NK_SCHEDULE_FITNESS_SET: {
        /* each of the k set members meets everyone but itself */
        const uint64_t k = (uint64_t)e->s.run.fitness.k < n ? (uint64_t)e->s.run.fitness.k : n;
        return 2 * k * (n - 1);
    }
    default:
        return 2 * n * (uint64_t)e->s.run.fitness.k;
    }
}

/* Games per generation of the schedule (for record_games = auto); with
 * fitness.unit match, at most (every match played to its game limit). */
static uint64_t games_per_generation(const nk_evo *e)
{
    uint64_t per = nk_run_unit_of(e->s.run.fitness.unit, e->variant) == NK_UNIT_MATCH
                       ? (uint64_t)e->s.run.fitness.match_games
                       : 1;
    return per * meetings_games(e);
}

/* The names of the weights (the run file's /features): a linear set's
 * feature names; for a family, "w0", "w1", ... by index into its weight
 * vector (search/eval.h says what each index is). */
static nk_status make_names(nk_evo *e, char *err, size_t len)
{
    e->names = nk_calloc(e->dim, sizeof *e->names);
    if (e->names == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    if (e->set != NULL) {
        for (size_t j = 0; j < e->dim; j++)
            e->names[j] = e->set->features[j].name;
        return NK_OK;
    }
    enum { NAME_MAX_LEN = 24 };
    e->name_text = nk_malloc(e->dim * NAME_MAX_LEN);
    if (e->name_text == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t j = 0; j < e->dim; j++) {
        char *t = e->name_text + j * NAME_MAX_LEN;
        snprintf(t, NAME_MAX_LEN, "w%zu", j);
        e->names[j] = t;
    }
    return NK_OK;
}

/* Everything the loop needs from the settings, in one place: variant,
 * features, the evolving players (nk_run_player_of), schedule, scoring, the
 * gauntlet and benchmark players, the strategy (nk_run_settings_strategy:
 * genome, selection, crossover, mutation), the generators, whether games
 * are recorded, and the shape.  The loop itself then reads only the scalars
 * experiment.seed and .generations, fitness.openings,
 * .sample_fraction, .k and .hall_size, benchmark.every and .games from
 * e->s.run. */
static nk_status make_run(nk_evo *e, nk_evo_resolve resolve, char *err, size_t len)
{
    const nk_evo_settings *s = &e->s;
    const nk_run_settings *r = &s->run;
    char e2[NK_MSG_MAX];
    e->variant = nk_variant_find(r->experiment.variant);
    if (e->variant == NULL)
        return nk_fail(NK_EINVAL, err, len, "experiment.variant: unknown variant '%s'",
                       r->experiment.variant);
    /* Any features text a spec takes (search/eval.h): a linear set, or a
     * family whose whole weight vector is the genome. */
    char fname[NK_SPEC_TEXT];
    if (nk_eval_features_count(r->player.features, e->variant, &e->dim, fname, sizeof fname, e2,
                               sizeof e2) != NK_OK)
        return nk_fail(NK_EINVAL, err, len, "player.features: %s", e2);
    e->set = nk_features_find(r->player.features); /* NULL for a family */
    if (nk_run_player_of(r, &e->player, err, len) != NK_OK)
        return NK_EINVAL;
    e->schedule = nk_schedule_find(r->fitness.schedule);
    if (e->schedule == NK_SCHEDULE_COUNT)
        return nk_fail(NK_EINVAL, err, len, "fitness.schedule: unknown schedule '%s'",
                       r->fitness.schedule);
    nk_status st = nk_scoring_parse(&e->scoring, r->fitness.scoring, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "fitness.scoring: %s", e2);
    st = parse_specs(r->fitness.gauntlet, e->variant, resolve, e->gauntlet, &e->ngauntlet,
                     "fitness.gauntlet", err, len);
    if (st == NK_OK)
        st = parse_specs(r->benchmark.opponents, e->variant, resolve, e->bench, &e->nbench,
                         "benchmark.opponents", err, len);
    if (st != NK_OK)
        return st;
    for (size_t k = 0; k < e->nbench; k++) {
        if (strlen(e->bench[k].spec.text) >= NK_RUN_OPPONENT_LEN)
            return nk_fail(NK_ERANGE, err, len,
                           "benchmark.opponents: spec '%s' is longer than %d characters",
                           e->bench[k].spec.text, NK_RUN_OPPONENT_LEN - 1);
        e->bench_x[k] = (nk_exec_player){&e->bench[k].spec,
                                         e->bench[k].n ? e->bench[k].weights : NULL, e->bench[k].n};
    }
    if (e->schedule == NK_SCHEDULE_GAUNTLET && e->ngauntlet == 0)
        return nk_fail(NK_EINVAL, err, len,
                       "fitness.gauntlet: the gauntlet schedule needs players");
    if (r->benchmark.games % 2)
        return nk_fail(NK_ERANGE, err, len,
                       "benchmark.games: %d is odd (games come in colour-swapped pairs)",
                       r->benchmark.games);
    if (r->benchmark.tablebase[0] != '\0') {
        st = open_tb(e->variant, "benchmark.tablebase", r->benchmark.tablebase, &e->tb, err, len);
        if (st != NK_OK)
            return st;
    }
    if (e->schedule == NK_SCHEDULE_TABLEBASE) {
        if (r->fitness.tablebase[0] == '\0')
            return nk_fail(NK_EINVAL, err, len,
                           "fitness.tablebase: the tablebase schedule needs a database");
        st = open_tb(e->variant, "fitness.tablebase", r->fitness.tablebase, &e->fit_tb, err, len);
        if (st != NK_OK)
            return st;
    }
    st = nk_run_settings_strategy(r, e->dim, &e->genome, &e->strategy, err, len);
    if (st != NK_OK)
        return st;
    e->nrng = nk_strategy_size(e->strategy);
    e->rng = nk_calloc(e->nrng, sizeof *e->rng);
    e->hall = nk_calloc((r->fitness.hall_size > 0 ? (size_t)r->fitness.hall_size : 1) * e->dim,
                        sizeof *e->hall);
    e->champion = nk_calloc(e->dim, sizeof *e->champion);
    if (e->rng == NULL || e->hall == NULL || e->champion == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; i < e->nrng; i++)
        if ((e->rng[i] = gsl_rng_alloc(gsl_rng_mt19937)) == NULL)
            return nk_fail(NK_ENOMEM, err, len, "out of memory");
    e->champion_id = -1;
    uint64_t total = games_per_generation(e) * (unsigned)r->experiment.generations;
    e->record = strcmp(s->record_games, "on") == 0 ||
                (strcmp(s->record_games, "auto") == 0 && total <= 1000000);
    st = make_names(e, err, len);
    if (st != NK_OK)
        return st;
    e->shape = (nk_evo_shape){
        .variant = r->experiment.variant,
        .seed = r->experiment.seed,
        .feature_set = e->set != NULL ? e->set->name : r->player.features,
        .features = e->names,
        .strategy = nk_strategy_type_of(e->strategy)->name,
        .n = e->nrng,
        .d = e->dim,
        .threads = e->threads > 0 ? e->threads : omp_get_max_threads(),
        .generations = (unsigned)r->experiment.generations,
        .hall_size = (size_t)r->fitness.hall_size,
        .tb_intervals = e->tb != NULL,
    };
    return NK_OK;
}

nk_status nk_evo_alloc(nk_evo **out, const nk_evo_settings *s, nk_evo_resolve resolve, int threads,
                       char *err, size_t len)
{
    nk_evo *e = nk_calloc(1, sizeof *e);
    *out = NULL;
    if (e == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    e->s = *s;
    e->threads = threads;
    nk_status st = make_run(e, resolve, err, len);
    if (st != NK_OK) {
        nk_evo_free(e);
        return st;
    }
    *out = e;
    return NK_OK;
}

nk_status nk_evo_restore(nk_evo *e, const nk_evo_checkpoint *c, char *err, size_t len)
{
    e->done = c->done;
    if (c->done == 0)
        return NK_OK;
    nk_status st = nk_strategy_load(e->strategy, c->strategy, c->n_strategy, err, len);
    if (st != NK_OK)
        return st;
    if (c->n_hall > (size_t)e->s.run.fitness.hall_size)
        return nk_fail(NK_EFORMAT, err, len, "bad hall of fame");
    if (c->n_hall) {
        memcpy(e->hall, c->hall, c->n_hall * e->dim * sizeof *e->hall);
        e->nhall = c->n_hall;
    }
    if (c->champion) {
        e->champion_id = (int64_t)c->champion[0];
        memcpy(e->champion, c->champion + 1, e->dim * sizeof *e->champion);
    }
    return NK_OK;
}

/* ===== one generation ===== */

static void gen_free(gen_data *d)
{
    nk_arena_played_free(&d->played);
    nk_free(d->meet);
    nk_free(d->players);
    nk_free(d->fitness);
    nk_free(d->rows);
    nk_tally_free(&d->tally);
    nk_pop_free(d->pop);
    nk_free(d->state);
    nk_free(d->champ);
    memset(d, 0, sizeof *d);
}

static void add_to_hall(nk_evo *e, const double *w)
{
    size_t cap = (size_t)e->s.run.fitness.hall_size;
    if (cap == 0)
        return;
    if (e->nhall == cap) {
        memmove(e->hall, e->hall + e->dim, (cap - 1) * e->dim * sizeof *e->hall);
        e->nhall--;
    }
    memcpy(e->hall + e->nhall * e->dim, w, e->dim * sizeof *w);
    e->nhall++;
}

/* The tablebase schedule: every individual of generation g graded against
 * fitness.tablebase on the positions of the seed of g (schedule.h), drawn
 * from the self-play games of the last generation's champion (the set's
 * hand-tuned weights in generation 0); no games are played. */
static nk_status grade_generation(nk_evo *e, unsigned g, const nk_pop *pop, gen_data *d,
                                  char *err, size_t len)
{
    size_t n = pop->size;
    if (nk_tally_init(&d->tally, n) != NK_OK ||
        (d->fitness = nk_malloc(n * sizeof *d->fitness)) == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    nk_schedule_grading gr = {
        .tb = e->fit_tb,
        .variant = e->variant,
        .spec = &e->player.spec,
        .reference = &e->player.spec,
        .reference_w = e->champion_id >= 0 ? e->champion : NULL,
        .reference_n = e->dim,
        .positions = (uint64_t)e->s.run.fitness.tablebase_positions,
        .seed = nk_seed_mix(e->s.run.experiment.seed, g, NK_EVO_STREAM_TABLEBASE),
        .optimal = strcmp(e->s.run.fitness.tablebase_measure, "optimal") == 0,
        .threads = e->threads,
    };
    return nk_schedule_grade(&gr, pop->w, n, e->dim, d->fitness, NULL, err, len);
}

/* Plays the meetings of generation g between the entrants (population,
 * hall, gauntlet) and tallies the population's fitness. */
static nk_status play_generation(nk_evo *e, unsigned g, const nk_pop *pop, gen_data *d, char *err,
                                 size_t len)
{
    if (e->schedule == NK_SCHEDULE_TABLEBASE)
        return grade_generation(e, g, pop, d, err, len);
    size_t n = pop->size, nent = n + e->nhall + e->ngauntlet;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (r == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    gsl_rng_set(r, (unsigned long)nk_seed_mix(e->s.run.experiment.seed, g, NK_EVO_STREAM_SCHEDULE));
    nk_schedule_params sp = {e->schedule,
                             n,
                             e->nhall,
                             e->ngauntlet,
                             e->s.run.fitness.sample_fraction,
                             (size_t)e->s.run.fitness.k};
    nk_status st = nk_schedule_meetings(&sp, r, &d->meet, &d->nmeet, err, len);
    gsl_rng_free(r);
    if (st != NK_OK)
        return st;
    d->players = nk_calloc(nent, sizeof *d->players);
    if (!d->players || nk_tally_init(&d->tally, n) != NK_OK)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; i < n; i++)
        d->players[i] = (nk_exec_player){&e->player.spec, nk_pop_w(pop, i), e->dim};
    for (size_t h = 0; h < e->nhall; h++)
        d->players[n + h] = (nk_exec_player){&e->player.spec, e->hall + h * e->dim, e->dim};
    for (size_t k = 0; k < e->ngauntlet; k++) {
        const evo_player *def = &e->gauntlet[k];
        d->players[n + e->nhall + k] =
            (nk_exec_player){&def->spec, def->n ? def->weights : NULL, def->n};
    }
    nk_arena_setup setup = {.variant = e->variant,
                            .ply_limit = e->player.ply_limit,
                            .players = d->players,
                            .nplayers = nent,
                            .master = e->s.run.experiment.seed,
                            .batch = g,
                            .opening = (unsigned)e->s.run.fitness.openings,
                            .threads = e->threads,
                            .unit = nk_run_unit_of(e->s.run.fitness.unit, e->variant),
                            .match_games = (unsigned)e->s.run.fitness.match_games};
    st = nk_arena_play_meetings(&setup, d->meet, d->nmeet, &d->played, err, len);
    if (st != NK_OK)
        return st;
    nk_schedule_tally_for(e->schedule, &d->tally, &e->scoring, d->meet, d->played.tally,
                          d->nmeet);
    d->fitness = nk_malloc(n * sizeof *d->fitness);
    if (d->fitness == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; i < n; i++)
        d->fitness[i] = nk_tally_fitness(&d->tally, i);
    return NK_OK;
}

/* The id an entrant has in the game rows (run/record.h). */
static int64_t entrant_id(const nk_evo *e, const nk_pop *pop, uint32_t who)
{
    if (who < pop->size)
        return pop->id[who];
    if (who < pop->size + e->nhall)
        return NK_RUN_HALL_ID(who - pop->size);
    return NK_RUN_GAUNTLET_ID(who - pop->size - e->nhall);
}

static nk_status game_rows(nk_evo *e, unsigned g, const nk_pop *pop, gen_data *d, char *err,
                           size_t len)
{
    size_t ngames = d->played.ngames;
    d->rows = nk_calloc(ngames + 1, sizeof *d->rows);
    if (d->rows == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t j = 0; j < ngames; j++) {
        const nk_exec_game *gm = &d->played.games[j];
        const nk_exec_job *job = &d->played.jobs[j];
        nk_run_game *r = &d->rows[j];
        r->generation = (int32_t)g;
        r->south_id = entrant_id(e, pop, job->south);
        r->north_id = entrant_id(e, pop, job->north);
        r->winner = (int8_t)gm->result.winner;
        r->south_seeds = (int16_t)gm->result.total[0];
        r->north_seeds = (int16_t)gm->result.total[1];
        r->plies = (int16_t)gm->plies;
        r->reason = (int8_t)gm->result.reason;
        r->seed = job->seed;
    }
    return NK_OK;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* benchmark.tablebase: the champion graded against the database
 * (search/grade.h) on the same positions every generation (drawn from the
 * games of ab:depth=3 with a seed fixed by the master seed), into its
 * /stats row. */
static nk_status grade_champion(const nk_evo *e, nk_run_stats *stats, char *err, size_t len)
{
    char e2[NK_MSG_MAX];
    nk_spec ref_spec;
    nk_player *champ = NULL, *ref = NULL;
    nk_grade gr;
    nk_status st =
        nk_player_new(&champ, &e->player.spec, e->variant, e->champion, e->dim, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_spec_parse(&ref_spec, "ab:depth=3", e2, sizeof e2);
    if (st == NK_OK)
        st = nk_player_new(&ref, &ref_spec, e->variant, NULL, 0, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_grade_play(e->tb, champ, ref, (uint64_t)e->s.run.benchmark.tablebase_positions,
                           nk_seed_mix(e->s.run.experiment.seed, 0x7462ull, 0), &gr, e2,
                           sizeof e2);
    nk_player_free(champ);
    nk_player_free(ref);
    if (st != NK_OK)
        return nk_fail(st, err, len, "benchmark.tablebase: %s", e2);
    double share[3], lost[3];
    nk_grade_summary(&gr, share, lost);
    stats->tb_positions = (int64_t)gr.positions;
    stats->tb_optimal = share[0];
    stats->tb_seeds_lost = lost[0];
    stats->tb_optimal_lo = share[1];
    stats->tb_optimal_hi = share[2];
    stats->tb_seeds_lost_lo = lost[1];
    stats->tb_seeds_lost_hi = lost[2];
    return NK_OK;
}

static nk_status stats_row(const nk_evo *e, unsigned g, const nk_pop *pop, const gen_data *d,
                           nk_run_stats *st, char *err, size_t len)
{
    size_t n = pop->size;
    double *f = nk_malloc(n * sizeof *f), sum = 0, sq = 0;
    memset(st, 0, sizeof *st);
    st->generation = (int32_t)g;
    st->games = (int64_t)d->played.ngames;
    st->evaluations = (int64_t)((g + 1) * (uint64_t)n);
    if (f == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    memcpy(f, d->fitness, n * sizeof *f);
    qsort(f, n, sizeof *f, cmp_double);
    for (size_t i = 0; i < n; i++)
        sum += f[i];
    st->mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        sq += (f[i] - st->mean) * (f[i] - st->mean);
    st->std = sqrt(sq / (double)n);
    st->best = f[n - 1];
    st->worst = f[0];
    st->median = n % 2 ? f[n / 2] : 0.5 * (f[n / 2 - 1] + f[n / 2]);
    /* Diversity: mean over weights of the population's standard deviation,
     * as a fraction of the weight's range. */
    double div = 0;
    for (size_t j = 0; j < e->dim; j++) {
        double m = 0, v = 0;
        for (size_t i = 0; i < n; i++)
            m += nk_pop_w(pop, i)[j];
        m /= (double)n;
        for (size_t i = 0; i < n; i++)
            v += (nk_pop_w(pop, i)[j] - m) * (nk_pop_w(pop, i)[j] - m);
        div += sqrt(v / (double)n) / nk_genome_range(e->genome, j);
    }
    st->diversity = div / (double)e->dim;
    nk_free(f);
    return NK_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The checkpoint of the generation just told, into the record. */
static nk_status checkpoint(nk_evo *e, gen_data *d, char *err, size_t len)
{
    size_t ssize = nk_strategy_state_size(e->strategy);
    d->state = nk_malloc((ssize ? ssize : 1) * sizeof *d->state);
    d->champ = nk_malloc((1 + e->dim) * sizeof *d->champ);
    if (d->state == NULL || d->champ == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    nk_strategy_save(e->strategy, d->state);
    d->champ[0] = (double)e->champion_id;
    memcpy(d->champ + 1, e->champion, e->dim * sizeof *d->champ);
    e->rec.strategy = d->state;
    e->rec.n_strategy = ssize;
    e->rec.hall = e->hall;
    e->rec.n_hall = e->nhall;
    e->rec.champion = d->champ;
    return NK_OK;
}

nk_status nk_evo_iterate(nk_evo *e, char *err, size_t len)
{
    unsigned g = e->done;
    double t0 = now_seconds();
    gen_data *d = &e->d;
    const nk_pop *pop;
    gen_free(d);
    e->has_rec = false;
    memset(&e->rec, 0, sizeof e->rec);
    if (nk_evo_done(e))
        return nk_fail(NK_EINVAL, err, len, "the run is complete (%u generations)", g);
    for (size_t i = 0; i < e->nrng; i++)
        gsl_rng_set(e->rng[i], (unsigned long)nk_seed_mix(e->s.run.experiment.seed, g, i));
    nk_status st = nk_strategy_ask(e->strategy, e->rng, e->nrng, &pop, err, len);
    double play = 0, p0 = now_seconds(); /* wall time spent playing games */
    if (st == NK_OK)
        st = play_generation(e, g, pop, d, err, len);
    play += now_seconds() - p0;
    if (st == NK_OK && e->record)
        st = game_rows(e, g, pop, d, err, len);
    if (st == NK_OK) {
        /* The champion of this generation (genome.h, nk_fitness_best). */
        size_t best = nk_fitness_best(d->fitness, pop->size);
        e->champion_id = pop->id[best];
        memcpy(e->champion, nk_pop_w(pop, best), e->dim * sizeof *e->champion);
    }
    bool bench = st == NK_OK && e->nbench > 0 &&
                 nk_benchmark_due((unsigned)e->s.run.benchmark.every, g,
                                  (unsigned)e->s.run.experiment.generations);
    if (bench) {
        nk_benchmark b = {.variant = e->variant,
                          .ply_limit = e->player.ply_limit,
                          .master = e->s.run.experiment.seed,
                          .opening = (unsigned)e->s.run.fitness.openings,
                          .threads = e->threads,
                          .games = (unsigned)e->s.run.benchmark.games,
                          .opponents = e->bench_x,
                          .n = e->nbench};
        nk_exec_player champ = {&e->player.spec, e->champion, e->dim};
        p0 = now_seconds();
        st = nk_benchmark_play(&b, &champ, g, d->bench, &d->nbench, err, len);
        play += now_seconds() - p0;
    }
    nk_run_stats stats;
    if (st == NK_OK)
        st = stats_row(e, g, pop, d, &stats, err, len);
    if (st == NK_OK && e->tb != NULL &&
        nk_benchmark_due((unsigned)e->s.run.benchmark.every, g,
                         (unsigned)e->s.run.experiment.generations)) {
        p0 = now_seconds();
        st = grade_champion(e, &stats, err, len);
        play += now_seconds() - p0;
    }
    if (st == NK_OK) {
        /* Keep the population before telling: tell() replaces it. */
        st = nk_pop_alloc(&d->pop, e->genome, pop->size, pop->sigma != NULL, err, len);
        for (size_t i = 0; st == NK_OK && i < pop->size; i++)
            nk_pop_copy_one(d->pop, i, pop, i);
        if (st == NK_OK)
            st = nk_strategy_tell(e->strategy, d->fitness, pop->size, err, len);
        if (st == NK_OK) {
            add_to_hall(e, e->champion);
            stats.wall_seconds = now_seconds() - t0;
            stats.play_seconds = play;
            st = checkpoint(e, d, err, len);
        }
    }
    if (st != NK_OK)
        return st;
    nk_evo_record *r = &e->rec;
    r->generation = g;
    r->pop = d->pop;
    r->fitness = d->fitness;
    r->wins = d->tally.wins;
    r->draws = d->tally.draws;
    r->losses = d->tally.losses;
    r->stats = stats;
    r->games = e->record ? d->rows : NULL;
    r->n_games = e->record ? d->played.ngames : 0;
    r->games_played = d->played.ngames;
    r->bench = d->bench;
    r->n_bench = d->nbench;
    r->benchmarked = bench;
    double sum = 0;
    for (size_t k = 0; k < d->nbench; k++)
        sum += d->bench[k].score;
    r->benchmark_score = d->nbench ? sum / (double)d->nbench : 0;
    e->has_rec = true;
    e->done = g + 1;
    return NK_OK;
}

const nk_evo_record *nk_evo_record_of(const nk_evo *e)
{
    return e->has_rec ? &e->rec : NULL;
}

unsigned nk_evo_generation(const nk_evo *e)
{
    return e->done;
}

bool nk_evo_done(const nk_evo *e)
{
    return e->done >= (unsigned)e->s.run.experiment.generations;
}

const double *nk_evo_champion(const nk_evo *e, size_t *dim, int64_t *id)
{
    *dim = e->dim;
    *id = e->champion_id;
    return e->champion;
}

const nk_evo_shape *nk_evo_shape_of(const nk_evo *e)
{
    return &e->shape;
}

bool nk_evo_records_games(const nk_evo *e)
{
    return e->record;
}

void nk_evo_set_records_games(nk_evo *e, bool on)
{
    e->record = on;
}

nk_status nk_evo_has_sigma(nk_evo *e, bool *out, char *err, size_t len)
{
    const nk_pop *pop;
    nk_status st = nk_strategy_ask(e->strategy, e->rng, e->nrng, &pop, err, len);
    if (st == NK_OK)
        *out = pop->sigma != NULL;
    return st;
}

void nk_evo_free(nk_evo *e)
{
    if (e == NULL)
        return;
    gen_free(&e->d);
    for (size_t i = 0; e->rng && i < e->nrng; i++)
        gsl_rng_free(e->rng[i]);
    nk_free(e->rng);
    nk_free(e->hall);
    nk_free(e->champion);
    nk_free(e->names);
    nk_free(e->name_text);
    nk_strategy_free(e->strategy);
    nk_genome_free(e->genome);
    nk_free(e);
}
