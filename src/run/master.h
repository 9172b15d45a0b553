/*
 * master.h -- the master tournament of a run's sampled champions (`nickar
 * ciao`) as a GSL-style iterate object.  No files: the champions come from
 * a run file and the result goes to an analysis file (io/ciaofile.h).
 *
 *     nk_master_alloc(&m, &settings, err, len);
 *     while (!nk_master_done(m))
 *         nk_master_iterate(m, err, len);               (one batch)
 *     record = nk_master_record_of(m);                  (the matrix, Nash)
 *     nk_master_free(m);
 *
 * Owns: the schedule (arena/ciao.h: for each pair i < j in row-major
 * order, `pairs` meetings (i, j)), the batches, the tally and, after the
 * last batch, the summary (score matrix, CIAO and master scores) and the
 * Nash average of the score matrix (arena/nash.h).
 *
 * Determinism: meeting k of the schedule is pairing k of exec batch 0
 * under the master seed in whichever batch it is played, so the result
 * depends neither on the thread count nor on the batch size.  The
 * champions play with one spec (the run's evolving players') and their
 * own weights.
 */
#ifndef NK_RUN_MASTER_H
#define NK_RUN_MASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena/ciao.h"
#include "arena/nash.h"
#include "base/status.h"
#include "rules/rules.h"
#include "search/player.h"

/* Everything a master tournament is made from.  Borrowed during alloc
 * only. */
typedef struct nk_master_settings {
    const nk_variant *variant;
    const nk_spec *spec;   /* the champions' player */
    unsigned ply_limit;    /* 0 (the default) to NK_MAX_PLIES */
    size_t n, d;           /* champions (>= 2), weights each (0: the spec's own; any
                              length: an evaluation family's whole vector) */
    const double *weights; /* [n * d] */
    uint64_t pairs;        /* colour-swapped pairs of games per pairing, >= 1 */
    uint64_t openings;     /* random opening plies */
    uint64_t seed;         /* the master seed */
    int threads;           /* 0: OpenMP's default */
    size_t batch;          /* meetings per iterate; 0: all in one */
} nk_master_settings;

/* The result, complete once the tournament is done. */
typedef struct nk_master_record {
    size_t meetings_done, meetings_total;
    const nk_ciao *ciao; /* counts so far; score, ciao, master when done */
    const nk_nash *nash; /* NULL until done */
} nk_master_record;

typedef struct nk_master nk_master;

/* Checks the settings and makes the schedule.  NK_EINVAL / NK_ERANGE with
 * one line naming the bad setting; NK_ENOMEM. */
nk_status nk_master_alloc(nk_master **out, const nk_master_settings *s, char *err, size_t errlen);
/* Plays the next batch and tallies it; after the last, the summary and
 * the Nash average (nothing when done).  The errors of the games, of
 * nk_nash_average, NK_ENOMEM: then free the object. */
nk_status nk_master_iterate(nk_master *m, char *err, size_t errlen);
bool nk_master_done(const nk_master *m);
/* Valid until the next iterate or free. */
nk_master_record nk_master_record_of(const nk_master *m);
/* NULL is allowed. */
void nk_master_free(nk_master *m);

#endif
