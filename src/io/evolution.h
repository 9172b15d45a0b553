/*
 * evolution.h -- one evolution run: from settings to generations of games,
 * fitness and variation, and the run file that records them.
 *
 * The run is driven in GSL's iterate/test style so the caller (the CLI)
 * prints progress and handles signals between generations:
 *
 *     nk_evo_open(&e, &settings, path, mode, threads, err, len);
 *     while (!nk_evo_done(e) && !stop)
 *         nk_evo_step(e, &progress, err, len);
 *     nk_evo_close(e);
 *
 * One generation: the strategy proposes a population (its generators seeded
 * from (master seed, generation, individual)); the fitness schedule lists
 * the meetings (its generator seeded from (master seed, generation, a
 * stream of its own)); every meeting is a colour-swapped pair of games with
 * per-game seeds from exec (master seed, generation, pairing); the tally
 * gives each individual its mean score; the strategy is told; every
 * `benchmark_every` generations (and at the first and the last) the champion plays the
 * benchmark gauntlet; the generation is appended to the run file with the
 * checkpoint (strategy state, hall of fame), then flushed.  Nothing depends
 * on the thread count, and a resumed run continues exactly.
 */
#ifndef NK_EVOLUTION_H
#define NK_EVOLUTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* Every setting of a run, as typed values (the config's keys map 1:1). */
typedef struct nk_evo_settings {
    const char *name;          /* experiment.name */
    uint64_t seed;             /* experiment.seed */
    const char *variant;       /* experiment.variant */
    unsigned generations;      /* experiment.generations */
    const char *features;      /* player.features */
    unsigned depth;            /* player.depth */
    unsigned ply_limit;        /* player.ply_limit */
    unsigned tt;               /* player.tt: table MiB of the evolving players */
    double wmin, wmax;         /* player.weights_min, weights_max */
    size_t size;               /* population.size (ES, CMA-ES: lambda) */
    const char *encoding;      /* population.encoding */
    unsigned bits;             /* population.bits */
    const char *strategy;      /* strategy.kind: ga, es-plus, es-comma, cma-es */
    size_t mu, elitism;
    double sigma0, sigma_min;
    const char *selection;     /* selection.method */
    size_t tournament_size;
    double rank_pressure, truncation;
    const char *crossover;     /* crossover.method */
    double crossover_rate, blx_alpha, sbx_eta;
    const char *mutation;      /* mutation.method */
    double mutation_rate, mutation_sigma, poly_eta;
    const char *schedule;      /* fitness.schedule */
    double sample_fraction;
    size_t k, hall_size;
    const char *gauntlet;      /* fitness.gauntlet: specs separated by ';' */
    const char *scoring;       /* fitness.scoring */
    unsigned openings;         /* fitness.openings */
    unsigned benchmark_every;  /* benchmark.every (0: never) */
    unsigned benchmark_games;  /* benchmark.games (even) */
    const char *benchmark;     /* benchmark.opponents: specs separated by ';' */
    const char *record_games;  /* output.record_games: auto, on, off */
    const char *config_text;   /* the resolved config, stored in the file */
} nk_evo_settings;

struct nk_config;
/* Fills s from a resolved config; s borrows cfg's strings (and config_text,
 * which the caller formats with nk_config_format). */
void nk_evo_settings_from_config(nk_evo_settings *s, const struct nk_config *cfg);

typedef enum nk_evo_mode {
    NK_EVO_NEW,      /* refuse an existing file */
    NK_EVO_FORCE,    /* replace an existing file */
    NK_EVO_RESUME    /* continue the run in its file; start it when neither the
                        file nor its backup exists yet (a run killed before
                        its file was made) */
} nk_evo_mode;

/* What one generation gave, for progress lines. */
typedef struct nk_evo_progress {
    unsigned generation;       /* 0-based index of the generation just done */
    unsigned generations;      /* of the run */
    uint64_t games;            /* games played this generation */
    double seconds;            /* wall time of the generation */
    double best, mean;         /* fitness */
    bool benchmarked;          /* the benchmark ran this generation */
    double benchmark_score;    /* mean score of the champion over the gauntlet */
} nk_evo_progress;

typedef struct nk_evo nk_evo;

/* Checks the settings, makes the strategy and players, and creates (or, to
 * resume, opens and checks) the run file.  NK_EINVAL / NK_ERANGE for bad
 * settings, NK_EIO for the file, NK_EMISMATCH when resuming a file made from
 * another config (err lists the keys that differ). */
nk_status nk_evo_open(nk_evo **out, const nk_evo_settings *s, const char *path,
                      nk_evo_mode mode, int threads, char *err, size_t errlen);
/* Runs and records one generation. */
nk_status nk_evo_step(nk_evo *e, nk_evo_progress *p, char *err, size_t errlen);
/* Generations done (complete in the file), and whether the run is over. */
unsigned nk_evo_generation(const nk_evo *e);
bool nk_evo_done(const nk_evo *e);
/* The champion of the last generation: its id and weights (D numbers). */
const double *nk_evo_champion(const nk_evo *e, size_t *dim, int64_t *id);
/* True when NK_EVO_RESUME found no run file and started the run. */
bool nk_evo_fresh(const nk_evo *e);
/* True when --resume found the run file damaged (a process killed while
 * writing) and went on from its backup copy PATH.bak (see evolution.c). */
bool nk_evo_recovered(const nk_evo *e);
/* Closes the run file, removes its backup copy, frees everything; NULL is
 * allowed. */
void nk_evo_close(nk_evo *e);

#endif
