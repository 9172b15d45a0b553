/*
 * ciaofile.h -- the files of `nickar ciao`: the champions of a run file's
 * sampled generations (read), and the analysis file that keeps their
 * master tournament (written).
 *
 * Champions.  The champion of generation g is its individual with the
 * highest fitness, the first of ties (evolve/genome.h, nk_fitness_best: as
 * the evolution names it, and as RUN.h5@gen=g,rank=0 reads it); it plays
 * as the run's evolving players do, with the spec that run/settings.h's
 * nk_run_player_of makes from the run's stored configuration
 * (`ab:depth=D,features=F,tt=T`, with `,view=root` for view = root), under
 * the run's variant and ply limit.
 * Sampled generations: K, 2K, 3K, ... up to G (counted from 1).
 *
 * The analysis file (docs/runfile.md, "The ciao file") is HDF5, separate
 * from the run file: a run file is a long-lived, checksummed record that
 * analysis must not alter, and an analysis can be repeated with other
 * settings next to it.  Layout:
 *
 *   /             attrs kind ("nickar ciao"), schema_version (int32, 1),
 *                 nickar_version, created (ISO 8601 UTC), run (the run
 *                 file's path as given), run_created (the run's own
 *                 created attribute), variant, player (the champions'
 *                 spec), every, pairs (colour-swapped pairs per pairing),
 *                 games (per pairing, 2 * pairs), openings, seed,
 *                 ply_limit (uint64), cyclic_share (float64)
 *   /generations  [n] int32, the sampled generations (from 1)
 *   /champion_id  [n] int64, the champions' individual ids
 *   /weights      [n, D] float64, the champions' weights
 *   /score        [n, n] float64, row's mean score against column
 *   /wins, /draws, /losses  [n, n] int32, row's games against column
 *   /ciao         [n] float64, mean score against earlier champions
 *                 (NaN for the first)
 *   /master       [n] float64, master-tournament score
 *   /nash_mix, /nash_payoff  [n] float64, the Nash average (arena/nash.h)
 *
 * Every dataset has the Fletcher-32 checksum filter.  The file is written
 * under a temporary name next to PATH and renamed onto PATH when complete,
 * so a failure leaves any earlier file as it was.
 */
#ifndef NK_IO_CIAOFILE_H
#define NK_IO_CIAOFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena/ciao.h"
#include "arena/nash.h"
#include "base/status.h"
#include "rules/rules.h"
#include "search/player.h"

/* The champions of a run's sampled generations. */
typedef struct nk_ciao_source {
    const nk_variant *variant;
    nk_spec spec; /* the run's evolving players */
    unsigned ply_limit;
    size_t generations;   /* G, complete generations of the run */
    size_t n;             /* sampled generations */
    size_t d;             /* weights per champion */
    int32_t *gen;         /* [n] from 1 */
    int64_t *ids;         /* [n] */
    double *weights;      /* [n * d] */
    char run_created[64]; /* the run's created attribute */
} nk_ciao_source;

/* Reads the champions of generations every, 2 every, ... of the run file
 * at path.  The run file's errors (NK_ENOFILE, NK_EFORMAT, NK_EIO);
 * NK_ERANGE when every is 0 or the sampling gives fewer than two
 * generations; NK_EFORMAT for a stored configuration that does not read;
 * NK_ENOMEM.  Free with nk_ciao_source_free (also after a failure). */
nk_status nk_ciao_source_read(nk_ciao_source *out, const char *path, size_t every, char *err,
                              size_t errlen);
void nk_ciao_source_free(nk_ciao_source *s);

/* The settings an analysis file records. */
typedef struct nk_ciao_settings {
    const char *run; /* the run file's path */
    uint64_t every, pairs, openings, seed;
} nk_ciao_settings;

/* Writes the analysis file at path (replacing one that is there).  NK_EIO
 * "cannot write 'PATH': reason"; NK_ENOMEM. */
nk_status nk_ciao_file_write(const char *path, const nk_ciao_settings *set,
                             const nk_ciao_source *src, const nk_ciao *c, const nk_nash *nash,
                             char *err, size_t errlen);

#endif
