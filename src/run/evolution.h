/*
 * evolution.h -- the generation loop of an evolution run, as a GSL-style
 * iterate object.  No files: the run file side is io/evolve_file.h.
 *
 *     nk_evo_alloc(&e, &settings, resolve, threads, err, len);
 *     nk_evo_restore(e, &checkpoint, err, len);      (to resume)
 *     while (!nk_evo_done(e)) {
 *         nk_evo_iterate(e, err, len);
 *         record = nk_evo_record_of(e);              (write it somewhere)
 *     }
 *     nk_evo_free(e);
 *
 * Owns: building the run from its settings (variant, features, the
 * evolving players' spec, schedule, scoring, gauntlet and benchmark
 * players, and the strategy with its selection, crossover and mutation:
 * all in nk_evo_alloc), the hall of fame, the champion, and one
 * generation: the strategy proposes a population (individual i of
 * generation g from a gsl_rng seeded with nk_seed_mix(seed, g, i)); the
 * schedule lists the meetings (its generator seeded with nk_seed_mix(seed,
 * g, NK_EVO_STREAM_SCHEDULE)); the meetings are played (arena/meetings.h,
 * exec batch g) and tallied into fitness; the champion (best fitness,
 * first of ties) plays the benchmark when due (run/benchmark.h); the
 * strategy is told; the champion joins the hall of fame.  Nothing depends
 * on the thread count, and a run restored from the checkpoint of
 * generation g continues exactly as the run that wrote it.
 */
#ifndef NK_RUN_EVOLUTION_H
#define NK_RUN_EVOLUTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "evolve/genome.h"
#include "exec/exec.h"
#include "run/record.h"
#include "run/settings.h"

/* Every setting of a run, as typed values (the config's keys map 1:1).
 * Consumed by nk_evo_alloc (evolution.c: make_run builds everything from
 * it and keeps a copy for the loop's scalars); strings are borrowed for the
 * life of the nk_evo.  Outside run/, io/evolve_file.c fills it from a config and
 * stores config_text in the file; cli/cmd_evolve.c reads name. */
typedef struct nk_evo_settings {
    nk_run_settings run;      /* every setting of the run (run/settings.h; io's
                                 nk_config_settings fills it from a config) */
    const char *record_games; /* output.record_games: auto, on, off */
    int population_every;     /* output.population_every (io/evolve_file.c
                                 writes by it; the loop ignores it): 0 is 1 */
    const char *config_text;  /* the resolved config, stored in the file */
} nk_evo_settings;

/* The longest player list (fitness.gauntlet, benchmark.opponents), in
 * bytes. */
enum { NK_EVO_LIST_MAX = 4096 };

/* Resolves one player spec of a list (gauntlet, benchmark) for variant v:
 * the spec, and weights (*n numbers, at most NK_MAX_FEATURES; 0 for the
 * spec's own).  The caller's loader reads weights files (io/playerio.h);
 * NULL means nk_spec_parse alone. */
typedef nk_status (*nk_evo_resolve)(const char *text, const nk_variant *v, nk_spec *spec,
                                    double *weights, size_t *n, char *err, size_t errlen);

/* The seed stream of the schedule's generator (see above). */
#define NK_EVO_STREAM_SCHEDULE UINT64_C(0xC0E7011)
/* The seed stream of the tablebase schedule's positions: generation g
 * grades on those of nk_seed_mix(seed, g, NK_EVO_STREAM_TABLEBASE). */
#define NK_EVO_STREAM_TABLEBASE UINT64_C(0x7AB1EBA5E)

/* The current generation, as one record.  Valid until the next iterate or
 * free.  Arrays are row-major as in io/runfile.h. */
typedef struct nk_evo_record {
    unsigned generation;                  /* 0-based */
    const nk_pop *pop;                    /* the population as evaluated */
    const double *fitness;                /* [N] */
    const int32_t *wins, *draws, *losses; /* [N] */
    nk_run_stats stats;
    const nk_run_game *games; /* [n_games]; NULL unless games are recorded */
    size_t n_games;
    uint64_t games_played;     /* fitness games of the generation */
    const nk_run_bench *bench; /* [n_bench] */
    size_t n_bench;
    bool benchmarked;
    double benchmark_score; /* mean score over the benchmark rows */
    /* The checkpoint: all that the next generation needs. */
    const double *strategy; /* [n_strategy] nk_strategy_save */
    size_t n_strategy;
    const double *hall; /* [n_hall * D] oldest first */
    size_t n_hall;
    const double *champion; /* [1 + D]: its id, then its weights */
} nk_evo_record;

/* A checkpoint to restore (as nk_evo_record wrote it): generations done,
 * the strategy state, the hall (NULL / 0: empty) and the champion (NULL:
 * none). */
typedef struct nk_evo_checkpoint {
    unsigned done;
    const double *strategy;
    size_t n_strategy;
    const double *hall;
    size_t n_hall;          /* entries, <= hall_size */
    const double *champion; /* [1 + D] or NULL */
} nk_evo_checkpoint;

typedef struct nk_evo nk_evo;

/* Checks the settings and makes everything the loop needs.  NK_EINVAL /
 * NK_ERANGE for bad settings (err names the key), NK_ENOMEM, and the
 * resolver's errors.  threads: 0 for OpenMP's default. */
nk_status nk_evo_alloc(nk_evo **out, const nk_evo_settings *s, nk_evo_resolve resolve, int threads,
                       char *err, size_t errlen);
/* Continues from a checkpoint instead of generation 0.  NK_EFORMAT for a
 * state that does not fit the strategy or a hall too large. */
nk_status nk_evo_restore(nk_evo *e, const nk_evo_checkpoint *c, char *err, size_t errlen);
/* Runs one generation; then nk_evo_record_of describes it (NULL before the
 * first and after a failed one).  After a failure (NK_ENOMEM, the games'
 * errors) the strategy may have moved on: free the loop. */
nk_status nk_evo_iterate(nk_evo *e, char *err, size_t errlen);
const nk_evo_record *nk_evo_record_of(const nk_evo *e);
/* Generations done, and whether the run is over. */
unsigned nk_evo_generation(const nk_evo *e);
bool nk_evo_done(const nk_evo *e);
/* The champion of the last generation: its id and weights (D numbers). */
const double *nk_evo_champion(const nk_evo *e, size_t *dim, int64_t *id);

/* What a run file's header needs. */
typedef struct nk_evo_shape {
    const char *variant;
    uint64_t seed;
    const char *feature_set;
    const char *const *features; /* [d] names */
    const char *strategy;        /* the strategy's name */
    size_t n, d;                 /* individuals per generation, genes */
    int threads;                 /* per process: the batch's, resolved */
    unsigned generations;        /* of the run */
    size_t hall_size;            /* the most hall-of-fame entries */
    bool tb_intervals;           /* benchmark.tablebase: /stats keeps the
                                    grade's intervals */
} nk_evo_shape;
const nk_evo_shape *nk_evo_shape_of(const nk_evo *e);
/* Whether the fitness games are recorded (output.record_games; auto: at
 * most a million games in the run); a resumed run keeps its file's
 * choice. */
bool nk_evo_records_games(const nk_evo *e);
void nk_evo_set_records_games(nk_evo *e, bool on);
/* Whether the populations carry step sizes: asks the strategy for a first
 * population (which does not change its saved state). */
nk_status nk_evo_has_sigma(nk_evo *e, bool *out, char *err, size_t errlen);
/* NULL is allowed. */
void nk_evo_free(nk_evo *e);

#endif
