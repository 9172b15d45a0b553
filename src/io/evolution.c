/*
 * evolution.c -- the generation loop of `nickar evolve` (see evolution.h).
 *
 * Seeds (DESIGN.md, "Randomness and determinism"): individual i of
 * generation g is made by a gsl_rng seeded with nk_seed_mix(seed, g, i);
 * the schedule of generation g draws from nk_seed_mix(seed, g, STREAM_SCHEDULE);
 * the games of generation g are exec batch g, the benchmark games of
 * generation g against opponent k exec batch BENCH_BATCH + g * MAX_SPECS + k.
 * The checkpoint after generation g holds the strategy state as of its
 * tell, the hall of fame and the champion, which is all that generation
 * g + 1 needs.
 */
#include "io/evolution.h"
#include "base/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>
#include <omp.h>

#include "arena/meetings.h"
#include "run/schedule.h"
#include "evolve/strategy.h"
#include "exec/exec.h"
#include "exec/mpi.h"
#include "io/playerio.h"
#include "io/config.h"
#include "io/runfile.h"
#include "search/features.h"

enum { MAX_SPECS = 32 };
#define STREAM_SCHEDULE 0xC0E7011ull
#define BENCH_BATCH (1ull << 40)

struct nk_evo {
    nk_evo_settings s;
    const nk_variant *variant;
    const nk_feature_set *set;
    size_t dim;
    nk_genome *genome;
    nk_strategy *strategy;
    nk_scoring scoring;
    nk_schedule schedule;
    nk_spec spec;                 /* the evolving players' spec */
    nk_player_def gauntlet[MAX_SPECS];
    size_t ngauntlet;
    nk_player_def bench[MAX_SPECS];
    size_t nbench;
    double *hall;                 /* [hall_size][D] past champions, oldest first */
    size_t nhall;
    gsl_rng **rng;                /* one per individual */
    size_t nrng;
    nk_run *run;
    char path[4096];              /* the run file */
    bool recovered;               /* resumed from the backup copy */
    bool clean;                   /* the file and its backup agree (no step failed) */
    bool fresh;                   /* --resume found no run file and started one */
    unsigned done;                /* complete generations */
    bool record;
    int threads;
    double *champion;             /* [D] */
    int64_t champion_id;
};

/* ===== settings ===== */

void nk_evo_settings_from_config(nk_evo_settings *s, const nk_config *c)
{
    memset(s, 0, sizeof *s);
    s->name = nk_config_string(c, "experiment.name");
    s->seed = nk_config_uint64(c, "experiment.seed");
    s->variant = nk_config_string(c, "experiment.variant");
    s->generations = (unsigned)nk_config_int(c, "experiment.generations");
    s->features = nk_config_string(c, "player.features");
    s->depth = (unsigned)nk_config_int(c, "player.depth");
    s->ply_limit = (unsigned)nk_config_int(c, "player.ply_limit");
    s->tt = (unsigned)nk_config_int(c, "player.tt");
    s->wmin = nk_config_double(c, "player.weights_min");
    s->wmax = nk_config_double(c, "player.weights_max");
    s->strategy = nk_config_string(c, "strategy.kind");
    s->size = strcmp(s->strategy, "ga") == 0 ? (size_t)nk_config_int(c, "population.size")
                                             : (size_t)nk_config_int(c, "strategy.lambda");
    s->encoding = nk_config_string(c, "population.encoding");
    s->bits = (unsigned)nk_config_int(c, "population.bits");
    s->mu = (size_t)nk_config_int(c, "strategy.mu");
    s->elitism = (size_t)nk_config_int(c, "strategy.elitism");
    s->sigma0 = nk_config_double(c, "strategy.sigma0");
    s->sigma_min = nk_config_double(c, "strategy.sigma_min");
    s->selection = nk_config_string(c, "selection.method");
    s->tournament_size = (size_t)nk_config_int(c, "selection.tournament_size");
    s->rank_pressure = nk_config_double(c, "selection.rank_pressure");
    s->truncation = nk_config_double(c, "selection.truncation");
    s->crossover = nk_config_string(c, "crossover.method");
    s->crossover_rate = nk_config_double(c, "crossover.rate");
    s->blx_alpha = nk_config_double(c, "crossover.blx_alpha");
    s->sbx_eta = nk_config_double(c, "crossover.sbx_eta");
    s->mutation = nk_config_string(c, "mutation.method");
    s->mutation_rate = nk_config_double(c, "mutation.rate");
    s->mutation_sigma = nk_config_double(c, "mutation.sigma");
    s->poly_eta = nk_config_double(c, "mutation.poly_eta");
    s->schedule = nk_config_string(c, "fitness.schedule");
    s->sample_fraction = nk_config_double(c, "fitness.sample_fraction");
    s->k = (size_t)nk_config_int(c, "fitness.k");
    s->hall_size = (size_t)nk_config_int(c, "fitness.hall_size");
    s->gauntlet = nk_config_text(c, "fitness.gauntlet");
    s->scoring = nk_config_string(c, "fitness.scoring");
    s->openings = (unsigned)nk_config_int(c, "fitness.openings");
    s->benchmark_every = (unsigned)nk_config_int(c, "benchmark.every");
    s->benchmark_games = (unsigned)nk_config_int(c, "benchmark.games");
    s->benchmark = nk_config_text(c, "benchmark.opponents");
    s->record_games = nk_config_string(c, "output.record_games");
}

static nk_status parse_specs(const char *list, const nk_variant *v, nk_player_def *defs,
                             size_t *n, const char *key, char *err, size_t len)
{
    char buf[4096], *save = NULL;
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
        if (*n == MAX_SPECS)
            return nk_fail(NK_ERANGE, err, len, "%s: more than %d players", key, MAX_SPECS);
        char e2[512];
        nk_status st = nk_playerio_load(&defs[*n], tok, v, e2, sizeof e2);
        if (st != NK_OK)
            return nk_fail(st, err, len, "%s: %s", key, e2);
        if (defs[*n].spec.kind == NK_PLAYER_HUMAN)
            return nk_fail(NK_EINVAL, err, len, "%s: a human cannot play in an evolution run",
                           key);
        (*n)++;
    }
    return NK_OK;
}

static nk_status make_strategy(nk_evo *e, char *err, size_t len)
{
    const nk_evo_settings *s = &e->s;
    nk_encoding enc;
    nk_status st = nk_genome_encoding_parse(&enc, s->encoding, err, len);
    if (st != NK_OK)
        return st;
    st = nk_genome_alloc(&e->genome, e->dim, enc, s->bits, s->wmin, s->wmax, err, len);
    if (st != NK_OK)
        return st;
    const nk_strategy_type *t = nk_strategy_find(s->strategy);
    if (t == NULL) {
        char names[128];
        return nk_fail(NK_EINVAL, err, len, "strategy.kind: unknown strategy '%s' (choices: %s)",
                       s->strategy, nk_strategy_names(names, sizeof names));
    }
    nk_strategy_params p;
    nk_strategy_params_init(&p, t, enc);
    p.size = s->size;
    p.mu = s->mu;
    p.elite = s->elitism;
    p.sigma0 = s->sigma0;
    p.select = nk_select_find(s->selection);
    p.select_par.tournament = s->tournament_size;
    p.select_par.pressure = s->rank_pressure;
    p.select_par.fraction = s->truncation;
    p.cross = nk_cross_find(s->crossover);
    p.cross_par.rate = s->crossover_rate;
    p.cross_par.alpha = s->blx_alpha;
    p.cross_par.eta = s->sbx_eta;
    p.mutate = nk_mutate_find(s->mutation);
    p.mutate_par.rate = s->mutation_rate;
    p.mutate_par.sigma = s->mutation_sigma;
    p.mutate_par.eta = s->poly_eta;
    if (s->sigma_min > 0 && s->sigma_min < 1)
        p.mutate_par.sigma_floor = s->sigma_min;
    if (p.select == NULL || p.cross == NULL || p.mutate == NULL) {
        char names[256];
        if (p.select == NULL)
            return nk_fail(NK_EINVAL, err, len, "selection.method: unknown '%s' (choices: %s)",
                           s->selection, nk_select_names(names, sizeof names));
        if (p.cross == NULL)
            return nk_fail(NK_EINVAL, err, len, "crossover.method: unknown '%s' (choices: %s)",
                           s->crossover, nk_cross_names(names, sizeof names));
        return nk_fail(NK_EINVAL, err, len, "mutation.method: unknown '%s' (choices: %s)",
                       s->mutation, nk_mutate_names(names, sizeof names));
    }
    return nk_strategy_alloc(&e->strategy, t, e->genome, &p, err, len);
}

static nk_status setup(nk_evo *e, char *err, size_t len)
{
    const nk_evo_settings *s = &e->s;
    char e2[512];
    e->variant = nk_variant_find(s->variant);
    if (e->variant == NULL)
        return nk_fail(NK_EINVAL, err, len, "experiment.variant: unknown variant '%s'", s->variant);
    e->set = nk_features_find(s->features);
    if (e->set == NULL) {
        char names[256];
        nk_features_list(names, sizeof names);
        return nk_fail(NK_EINVAL, err, len, "player.features: unknown feature set '%s' (%s)",
                       s->features, names);
    }
    if (nk_features_check(e->set, e->variant, e2, sizeof e2) != NK_OK)
        return nk_fail(NK_EINVAL, err, len, "player.features: %s", e2);
    e->dim = e->set->count;
    char spec[128];
    /* player.tt: each search uses its table once (search.h) and the evolving
     * players are made anew every batch, so at the shallow depths of most
     * runs a table costs more (memory traffic) than it saves. */
    snprintf(spec, sizeof spec, "ab:depth=%u,features=%s,tt=%u", s->depth, s->features, s->tt);
    if (nk_spec_parse(&e->spec, spec, e2, sizeof e2) != NK_OK)
        return nk_fail(NK_EINVAL, err, len, "player: %s", e2);
    e->schedule = nk_schedule_find(s->schedule);
    if (e->schedule == NK_SCHEDULE_COUNT)
        return nk_fail(NK_EINVAL, err, len, "fitness.schedule: unknown schedule '%s'", s->schedule);
    nk_status st = nk_scoring_parse(&e->scoring, s->scoring, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "fitness.scoring: %s", e2);
    st = parse_specs(s->gauntlet, e->variant, e->gauntlet, &e->ngauntlet, "fitness.gauntlet",
                     err, len);
    if (st == NK_OK)
        st = parse_specs(s->benchmark, e->variant, e->bench, &e->nbench, "benchmark.opponents",
                         err, len);
    if (st != NK_OK)
        return st;
    for (size_t k = 0; k < e->nbench; k++)
        if (strlen(e->bench[k].spec.text) >= NK_RUN_OPPONENT_LEN)
            return nk_fail(NK_ERANGE, err, len,
                           "benchmark.opponents: spec '%s' is longer than %d characters",
                           e->bench[k].spec.text, NK_RUN_OPPONENT_LEN - 1);
    if (e->schedule == NK_SCHEDULE_GAUNTLET && e->ngauntlet == 0)
        return nk_fail(NK_EINVAL, err, len, "fitness.gauntlet: the gauntlet schedule needs players");
    if (s->benchmark_games % 2)
        return nk_fail(NK_ERANGE, err, len, "benchmark.games: %u is odd (games come in colour-swapped pairs)",
                       s->benchmark_games);
    st = make_strategy(e, err, len);
    if (st != NK_OK)
        return st;
    e->nrng = nk_strategy_size(e->strategy);
    e->rng = nk_calloc(e->nrng, sizeof *e->rng);
    e->hall = nk_calloc((s->hall_size ? s->hall_size : 1) * e->dim, sizeof *e->hall);
    e->champion = nk_calloc(e->dim, sizeof *e->champion);
    if (e->rng == NULL || e->hall == NULL || e->champion == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; i < e->nrng; i++)
        if ((e->rng[i] = gsl_rng_alloc(gsl_rng_mt19937)) == NULL)
            return nk_fail(NK_ENOMEM, err, len, "out of memory");
    e->champion_id = -1;
    return NK_OK;
}

/* Games per generation of the schedule (for record_games = auto). */
static uint64_t games_per_generation(const nk_evo *e)
{
    uint64_t n = e->nrng;
    switch (e->schedule) {
    case NK_SCHEDULE_ROUND_ROBIN:
        return n * (n - 1);
    case NK_SCHEDULE_SAMPLE:
        return 2 * n * (uint64_t)ceil(e->s.sample_fraction * (double)(n - 1));
    case NK_SCHEDULE_GAUNTLET:
        return 2 * n * e->ngauntlet;
    default:
        return 2 * n * e->s.k;
    }
}

/* ===== one generation ===== */

typedef struct gen_data {
    nk_meeting *meet;
    size_t nmeet;
    nk_arena_played played;
    nk_exec_player *players;
    nk_tally tally;
    double *fitness;
    nk_run_game *rows;
    nk_run_bench bench[MAX_SPECS];
    size_t nbench;
} gen_data;

static void gen_free(gen_data *d)
{
    nk_arena_played_free(&d->played);
    nk_free(d->meet);
    nk_free(d->players);
    nk_free(d->fitness);
    nk_free(d->rows);
    nk_tally_free(&d->tally);
}

/* Plays the meetings of generation g between the entrants (population,
 * hall, gauntlet) and tallies the population's fitness. */
static nk_status play_generation(nk_evo *e, unsigned g, const nk_pop *pop, gen_data *d,
                                 char *err, size_t len)
{
    size_t n = pop->size, nent = n + e->nhall + e->ngauntlet;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (r == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    gsl_rng_set(r, (unsigned long)nk_seed_mix(e->s.seed, g, STREAM_SCHEDULE));
    nk_schedule_params sp = {e->schedule, n, e->nhall, e->ngauntlet, e->s.sample_fraction, e->s.k};
    nk_status st = nk_schedule_meetings(&sp, r, &d->meet, &d->nmeet, err, len);
    gsl_rng_free(r);
    if (st != NK_OK)
        return st;
    d->players = nk_calloc(nent, sizeof *d->players);
    if (!d->players || nk_tally_init(&d->tally, n) != NK_OK)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; i < n; i++)
        d->players[i] = (nk_exec_player){&e->spec, nk_pop_w(pop, i), e->dim};
    for (size_t h = 0; h < e->nhall; h++)
        d->players[n + h] = (nk_exec_player){&e->spec, e->hall + h * e->dim, e->dim};
    for (size_t k = 0; k < e->ngauntlet; k++) {
        const nk_player_def *def = &e->gauntlet[k];
        d->players[n + e->nhall + k] =
            (nk_exec_player){&def->spec, def->n ? def->weights : NULL, def->n};
    }
    nk_arena_setup setup = {.variant = e->variant, .ply_limit = e->s.ply_limit,
                            .players = d->players, .nplayers = nent, .master = e->s.seed,
                            .batch = g, .opening = e->s.openings, .threads = e->threads};
    st = nk_arena_play_meetings(&setup, d->meet, d->nmeet, &d->played, err, len);
    if (st != NK_OK)
        return st;
    nk_schedule_tally(&d->tally, &e->scoring, d->meet, d->played.tally, d->nmeet);
    d->fitness = nk_malloc(n * sizeof *d->fitness);
    if (d->fitness == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; i < n; i++)
        d->fitness[i] = nk_tally_fitness(&d->tally, i);
    return NK_OK;
}

/* The id an entrant had in the run file's game rows: population ids, and
 * -1 - k for the hall of fame (k) and -1000 - k for gauntlet player k. */
static int64_t entrant_id(const nk_evo *e, const nk_pop *pop, uint32_t who)
{
    if (who < pop->size)
        return pop->id[who];
    if (who < pop->size + e->nhall)
        return -1 - (int64_t)(who - pop->size);
    return -1000 - (int64_t)(who - pop->size - e->nhall);
}

static nk_status game_rows(nk_evo *e, unsigned g, const nk_pop *pop, gen_data *d, char *err,
                           size_t len)
{
    size_t ngames = 2 * d->nmeet;
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

/* The champion (best fitness of the generation) plays every benchmark
 * opponent benchmark_games times, colours swapped. */
static nk_status benchmark(nk_evo *e, unsigned g, gen_data *d, char *err, size_t len)
{
    size_t pairs = e->s.benchmark_games / 2;
    nk_exec_player pl[2] = {{&e->spec, e->champion, e->dim}, {NULL, NULL, 0}};
    nk_meeting *meet = nk_calloc(pairs + 1, sizeof *meet);
    nk_status st = NK_OK;
    if (meet == NULL)
        st = nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; st == NK_OK && i < pairs; i++)
        meet[i] = (nk_meeting){0, 1};
    for (size_t k = 0; st == NK_OK && k < e->nbench; k++) {
        const nk_player_def *def = &e->bench[k];
        pl[1] = (nk_exec_player){&def->spec, def->n ? def->weights : NULL, def->n};
        nk_arena_setup setup = {.variant = e->variant, .ply_limit = e->s.ply_limit,
                                .players = pl, .nplayers = 2, .master = e->s.seed,
                                .batch = BENCH_BATCH + g * (uint64_t)MAX_SPECS + k,
                                .opening = e->s.openings, .threads = e->threads};
        nk_arena_played played;
        st = nk_arena_play_meetings(&setup, meet, pairs, &played, err, len);
        nk_run_bench *row = &d->bench[d->nbench++];
        memset(row, 0, sizeof *row);
        row->generation = (int32_t)g;
        memcpy(row->opponent, def->spec.text, strlen(def->spec.text) + 1); /* fits: setup */
        for (size_t i = 0; st == NK_OK && i < pairs; i++) {
            row->wins += (int32_t)played.tally[i].wins;
            row->draws += (int32_t)played.tally[i].draws;
            row->losses += (int32_t)played.tally[i].losses;
        }
        row->score = pairs ? (row->wins + 0.5 * row->draws) / (double)(2 * pairs) : 0;
        nk_arena_played_free(&played);
    }
    nk_free(meet);
    return st;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void stats_row(const nk_evo *e, unsigned g, const nk_pop *pop, const gen_data *d,
                      double seconds, nk_run_stats *st)
{
    size_t n = pop->size;
    double *f = nk_malloc(n * sizeof *f), sum = 0, sq = 0;
    memset(st, 0, sizeof *st);
    st->generation = (int32_t)g;
    st->games = (int64_t)(2 * d->nmeet);
    st->evaluations = (int64_t)((g + 1) * (uint64_t)n);
    st->wall_seconds = seconds;
    if (f == NULL)
        return;
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
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ===== the run file ===== */

/* The backup copy's name, PATH.bak (see "the backup copy" below). */
static void backup_path(const nk_evo *e, char *out, size_t len)
{
    snprintf(out, len, "%s.bak", e->path);
}


static const char *strategy_label(const nk_evo *e)
{
    return nk_strategy_type_of(e->strategy)->name;
}

static nk_status create_file(nk_evo *e, const char *path, bool force, char *err, size_t len)
{
    const char *names[NK_MAX_FEATURES];
    for (size_t j = 0; j < e->dim; j++)
        names[j] = e->set->features[j].name;
    nk_run_meta meta = {
        .variant = e->s.variant,
        .master_seed = e->s.seed,
        .config = e->s.config_text,
        .threads = e->threads > 0 ? e->threads : omp_get_max_threads(), /* per rank */
        .mpi_ranks = nk_mpi_size(),
        .feature_set = e->set->name,
        .strategy = strategy_label(e),
        .n = e->nrng,
        .d = e->dim,
        .features = names,
        .record_games = e->record,
    };
    /* Whether populations carry step sizes is known once one is made. */
    const nk_pop *pop;
    nk_status st = nk_strategy_ask(e->strategy, e->rng, e->nrng, &pop, err, len);
    if (st != NK_OK)
        return st;
    meta.has_sigma = pop->sigma != NULL;
    /* The file is made whole under a temporary name and renamed into place,
     * so a process killed while creating it leaves no half-made run file;
     * a backup copy left by an earlier run of that name is dropped. */
    char tmp[4200], bak[4200];
    if (!force && access(path, F_OK) == 0)
        return nk_fail(NK_EINVAL, err, len,
                       "'%s' already exists: --resume continues it, --force replaces it", path);
    snprintf(tmp, sizeof tmp, "%s.new", path);
    backup_path(e, bak, sizeof bak);
    nk_run *run = NULL;
    st = nk_run_create(&run, tmp, &meta, true, err, len);
    nk_run_close(run);
    if (st != NK_OK)
        return st;
    if ((access(bak, F_OK) == 0 && remove(bak) != 0) || rename(tmp, path) != 0) {
        int saved = errno;
        remove(tmp);
        return nk_fail(NK_EIO, err, len, "cannot create '%s': %s", path, strerror(saved));
    }
    return nk_run_open(&e->run, path, true, err, len);
}

/* ===== the backup copy =====
 *
 * HDF5 1.10 updates metadata in place, so a process killed (SIGKILL) while
 * a generation is being flushed can leave a file that no longer opens.  To
 * resume from any moment, a copy of the run file as of the last complete
 * generation is kept beside it, PATH.bak: written as PATH.bak.tmp, synced
 * and renamed, so it is always whole.  --resume goes on from it whenever
 * it exists, that is whenever the run did not close: not only when the run
 * file no longer opens, for a kill during a flush can also leave a file
 * that opens but whose checkpoint data was overwritten (HDF5 reuses the
 * space of the checkpoint it is replacing).  The generations after the
 * copy are played again, which gives the same results (every draw is
 * seeded by generation).  The copy is
 * refreshed after every generation while the file is below BACKUP_EVERY_MB,
 * then every 10 generations, and removed when the run file is closed
 * cleanly. */

enum { BACKUP_EVERY_MB = 256 };

static nk_status copy_file(const char *from, const char *to, char *err, size_t len)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", to);
    FILE *in = fopen(from, "rb");
    if (in == NULL)
        return nk_fail(NK_EIO, err, len, "cannot read '%s': %s", from, strerror(errno));
    FILE *out = fopen(tmp, "wb");
    if (out == NULL) {
        fclose(in);
        return nk_fail(NK_EIO, err, len, "cannot write the backup '%s': %s", tmp, strerror(errno));
    }
    static const size_t chunk = 1 << 20;
    char *buf = nk_malloc(chunk);
    bool ok = buf != NULL;
    size_t n;
    while (ok && (n = fread(buf, 1, chunk, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    ok = ok && !ferror(in) && fflush(out) == 0 && fsync(fileno(out)) == 0;
    int saved = errno;
    nk_free(buf);
    fclose(in);
    ok = fclose(out) == 0 && ok;
    if (!ok || rename(tmp, to) != 0) {
        if (ok)
            saved = errno;
        remove(tmp);
        return nk_fail(NK_EIO, err, len, "cannot write the backup '%s': %s", to,
                       buf == NULL ? "out of memory" : strerror(saved));
    }
    return NK_OK;
}

static nk_status backup(nk_evo *e, char *err, size_t len)
{
    char bak[4200];
    struct stat st;
    if (stat(e->path, &st) == 0 && st.st_size > (off_t)BACKUP_EVERY_MB << 20 && e->done % 10)
        return NK_OK;
    backup_path(e, bak, sizeof bak);
    return copy_file(e->path, bak, err, len);
}

/* Opens the run file to resume it.  When a whole backup exists (the run
 * did not close), goes on from the backup: a damaged file (one that does
 * not open) is kept as PATH.damaged, one that opens is replaced.  A file
 * that another process holds (NK_EIO) is left alone. */
static nk_status open_for_resume(nk_evo *e, char *err, size_t len)
{
    char bak[4200], damaged[4200], e2[1024];
    nk_status st = nk_run_open(&e->run, e->path, true, err, len);
    if (st != NK_OK && st != NK_EFORMAT)
        return st;
    backup_path(e, bak, sizeof bak);
    if (access(bak, R_OK) != 0)
        return st;
    nk_run_close(e->run);
    e->run = NULL;
    if (st == NK_EFORMAT) {
        snprintf(damaged, sizeof damaged, "%s.damaged", e->path);
        if (rename(e->path, damaged) != 0 || copy_file(bak, e->path, e2, sizeof e2) != NK_OK)
            return nk_fail(NK_EIO, err, len, "'%s' is damaged and restoring it from '%s' failed",
                           e->path, bak);
        e->recovered = true;
    } else if (copy_file(bak, e->path, e2, sizeof e2) != NK_OK) {
        return nk_fail(NK_EIO, err, len, "cannot restore '%s' from its backup copy: %s",
                       e->path, e2);
    }
    return nk_run_open(&e->run, e->path, true, err, len);
}

/* Restores the strategy and the hall of fame from the file's checkpoint. */
static nk_status resume_file(nk_evo *e, const char *path, char *err, size_t len)
{
    nk_status st = open_for_resume(e, err, len);
    if (st != NK_OK)
        return st;
    const nk_run_meta *m = nk_run_get_meta(e->run);
    nk_config *stored = NULL, *now = NULL;
    char e2[1024];
    st = nk_config_new(&stored, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_load_string(stored, m->config, path, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_new(&now, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_load_string(now, e->s.config_text, "the config", e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_check_resume(stored, now, e2, sizeof e2);
    nk_config_free(stored);
    nk_config_free(now);
    if (st != NK_OK)
        return nk_fail(st == NK_EMISMATCH ? NK_EMISMATCH : NK_EFORMAT, err, len,
                       "cannot resume '%s': %s", path, e2);
    if (m->n != e->nrng || m->d != e->dim)
        return nk_fail(NK_EMISMATCH, err, len, "cannot resume '%s': population shape differs",
                       path);
    e->record = m->record_games; /* fixed when the file was made */
    st = nk_run_truncate(e->run, NULL, err, len);
    if (st != NK_OK)
        return st;
    e->done = (unsigned)nk_run_generations(e->run);
    if (e->done == 0)
        return NK_OK;
    nk_run_kind kind;
    size_t count;
    st = nk_run_checkpoint_info(e->run, "strategy", &kind, &count, err, len);
    double *state = st == NK_OK ? nk_malloc((count ? count : 1) * sizeof *state) : NULL;
    if (st == NK_OK && state == NULL)
        st = nk_fail(NK_ENOMEM, err, len, "out of memory");
    if (st == NK_OK)
        st = nk_run_read_checkpoint(e->run, "strategy", NK_RUN_F64, state, count, err, len);
    if (st == NK_OK)
        st = nk_strategy_load(e->strategy, state, count, err, len);
    nk_free(state);
    if (st != NK_OK)
        return st;
    if (nk_run_checkpoint_info(e->run, "hall", &kind, &count, err, len) == NK_OK && count) {
        if (count % e->dim || count / e->dim > e->s.hall_size)
            return nk_fail(NK_EFORMAT, err, len, "cannot resume '%s': bad hall of fame", path);
        st = nk_run_read_checkpoint(e->run, "hall", NK_RUN_F64, e->hall, count, err, len);
        e->nhall = count / e->dim;
    }
    double champ[1 + NK_MAX_FEATURES];
    if (st == NK_OK && nk_run_checkpoint_info(e->run, "champion", &kind, &count, err, len) ==
                           NK_OK && count == 1 + e->dim) {
        st = nk_run_read_checkpoint(e->run, "champion", NK_RUN_F64, champ, count, err, len);
        e->champion_id = (int64_t)champ[0];
        memcpy(e->champion, champ + 1, e->dim * sizeof *champ);
    }
    return st;
}

nk_status nk_evo_open(nk_evo **out, const nk_evo_settings *s, const char *path,
                      nk_evo_mode mode, int threads, char *err, size_t len)
{
    nk_evo *e = nk_calloc(1, sizeof *e);
    *out = NULL;
    if (e == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    e->s = *s;
    e->threads = threads;
    if (strlen(path) >= sizeof e->path - 16) {
        nk_free(e);
        return nk_fail(NK_ERANGE, err, len, "run file path too long");
    }
    strcpy(e->path, path);
    nk_status st = setup(e, err, len);
    if (st == NK_OK) {
        uint64_t total = games_per_generation(e) * s->generations;
        e->record = strcmp(s->record_games, "on") == 0 ||
                    (strcmp(s->record_games, "auto") == 0 && total <= 1000000);
        char bak[4200];
        backup_path(e, bak, sizeof bak);
        if (mode == NK_EVO_RESUME && access(path, F_OK) != 0 && errno == ENOENT &&
            access(bak, F_OK) != 0) {
            mode = NK_EVO_NEW; /* killed before its file existed: nothing to resume */
            e->fresh = true;
        }
        st = mode == NK_EVO_RESUME ? resume_file(e, path, err, len)
                                   : create_file(e, path, mode == NK_EVO_FORCE, err, len);
    }
    if (st == NK_OK)
        st = backup(e, err, len);
    e->clean = st == NK_OK;
    if (st != NK_OK) {
        nk_evo_close(e);
        return st;
    }
    *out = e;
    return NK_OK;
}

/* ===== one generation ===== */

static void add_to_hall(nk_evo *e, const double *w)
{
    size_t cap = e->s.hall_size;
    if (cap == 0)
        return;
    if (e->nhall == cap) {
        memmove(e->hall, e->hall + e->dim, (cap - 1) * e->dim * sizeof *e->hall);
        e->nhall--;
    }
    memcpy(e->hall + e->nhall * e->dim, w, e->dim * sizeof *w);
    e->nhall++;
}

static nk_status record(nk_evo *e, const nk_pop *pop, gen_data *d,
                        const nk_run_stats *stats, char *err, size_t len)
{
    size_t ssize = nk_strategy_state_size(e->strategy);
    double *state = nk_malloc((ssize ? ssize : 1) * sizeof *state);
    double champ[1 + NK_MAX_FEATURES];
    if (state == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    nk_strategy_save(e->strategy, state);
    champ[0] = (double)e->champion_id;
    memcpy(champ + 1, e->champion, e->dim * sizeof *champ);
    nk_run_blob blobs[3] = {
        {"strategy", NK_RUN_F64, state, ssize},
        {"hall", NK_RUN_F64, e->hall, e->nhall * e->dim},
        {"champion", NK_RUN_F64, champ, 1 + e->dim},
    };
    nk_run_gen gen = {
        .genome = pop->w,
        .sigma = pop->sigma,
        .fitness = d->fitness,
        .wins = d->tally.wins,
        .draws = d->tally.draws,
        .losses = d->tally.losses,
        .ids = pop->id,
        .parents = pop->parents,
        .stats = *stats,
        .games = e->record ? d->rows : NULL,
        .n_games = e->record ? 2 * d->nmeet : 0,
        .bench = d->bench,
        .n_bench = d->nbench,
        .blobs = blobs,
        .n_blobs = 3,
    };
    nk_status st = nk_run_append_generation(e->run, &gen, err, len);
    nk_free(state);
    return st;
}

nk_status nk_evo_step(nk_evo *e, nk_evo_progress *p, char *err, size_t len)
{
    unsigned g = e->done;
    double t0 = now_seconds();
    gen_data d;
    const nk_pop *pop;
    memset(&d, 0, sizeof d);
    if (nk_evo_done(e))
        return nk_fail(NK_EINVAL, err, len, "the run is complete (%u generations)", g);
    e->clean = false;
    for (size_t i = 0; i < e->nrng; i++)
        gsl_rng_set(e->rng[i], (unsigned long)nk_seed_mix(e->s.seed, g, i));
    nk_status st = nk_strategy_ask(e->strategy, e->rng, e->nrng, &pop, err, len);
    if (st == NK_OK)
        st = play_generation(e, g, pop, &d, err, len);
    if (st == NK_OK && e->record)
        st = game_rows(e, g, pop, &d, err, len);
    if (st == NK_OK) {
        /* The champion: best fitness of this generation (first of ties). */
        size_t best = 0;
        for (size_t i = 1; i < pop->size; i++)
            if (d.fitness[i] > d.fitness[best])
                best = i;
        e->champion_id = pop->id[best];
        memcpy(e->champion, nk_pop_w(pop, best), e->dim * sizeof *e->champion);
    }
    bool bench = st == NK_OK && e->nbench > 0 && e->s.benchmark_every > 0 &&
                 (g == 0 || (g + 1) % e->s.benchmark_every == 0 || g + 1 == e->s.generations);
    if (bench)
        st = benchmark(e, g, &d, err, len);
    nk_run_stats stats;
    if (st == NK_OK) {
        /* Record before telling: tell() replaces the population. */
        stats_row(e, g, pop, &d, 0, &stats);
        nk_pop *copy = NULL;
        st = nk_pop_alloc(&copy, e->genome, pop->size, pop->sigma != NULL, err, len);
        for (size_t i = 0; st == NK_OK && i < pop->size; i++)
            nk_pop_copy_one(copy, i, pop, i);
        if (st == NK_OK)
            st = nk_strategy_tell(e->strategy, d.fitness, pop->size, err, len);
        if (st == NK_OK) {
            add_to_hall(e, e->champion);
            stats.wall_seconds = now_seconds() - t0;
            st = record(e, copy, &d, &stats, err, len);
        }
        nk_pop_free(copy);
    }
    if (st == NK_OK) {
        e->done = g + 1;
        st = backup(e, err, len);
        e->clean = st == NK_OK;
    }
    if (st == NK_OK) {
        p->generation = g;
        p->generations = e->s.generations;
        p->games = 2 * d.nmeet;
        p->seconds = now_seconds() - t0;
        p->best = stats.best;
        p->mean = stats.mean;
        p->benchmarked = bench;
        double sum = 0;
        for (size_t k = 0; k < d.nbench; k++)
            sum += d.bench[k].score;
        p->benchmark_score = d.nbench ? sum / (double)d.nbench : 0;
    }
    gen_free(&d);
    return st;
}

unsigned nk_evo_generation(const nk_evo *e)
{
    return e->done;
}

bool nk_evo_done(const nk_evo *e)
{
    return e->done >= e->s.generations;
}

const double *nk_evo_champion(const nk_evo *e, size_t *dim, int64_t *id)
{
    *dim = e->dim;
    *id = e->champion_id;
    return e->champion;
}

bool nk_evo_recovered(const nk_evo *e)
{
    return e->recovered;
}

bool nk_evo_fresh(const nk_evo *e)
{
    return e->fresh;
}

void nk_evo_close(nk_evo *e)
{
    if (e == NULL)
        return;
    if (e->run != NULL) {
        char bak[4200];
        nk_run_close(e->run);
        /* After a failed step the backup may be the only whole copy. */
        backup_path(e, bak, sizeof bak);
        if (e->clean)
            remove(bak);
    }
    for (size_t i = 0; e->rng && i < e->nrng; i++)
        gsl_rng_free(e->rng[i]);
    nk_free(e->rng);
    nk_free(e->hall);
    nk_free(e->champion);
    nk_strategy_free(e->strategy);
    nk_genome_free(e->genome);
    nk_free(e);
}
