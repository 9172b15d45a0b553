/*
 * benchmark.h -- the benchmark of an evolution run: the champion of a
 * generation against every benchmark opponent, in colour-swapped pairs.
 *
 * Owns: when a generation is benchmarked, the exec batch numbering of the
 * benchmark games, and the rows they give (run/record.h).  Seeds: the games
 * against opponent k after generation g are exec batch
 * NK_BENCH_BATCH + g * NK_EVO_MAX_SPECS + k under the master seed, so they
 * never share a seed with the fitness games (batch g).
 */
#ifndef NK_RUN_BENCHMARK_H
#define NK_RUN_BENCHMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "exec/exec.h"
#include "run/record.h"

/* The most players of a list (fitness.gauntlet, benchmark.opponents). */
enum { NK_EVO_MAX_SPECS = 32 };
/* The first exec batch index of the benchmark games. */
#define NK_BENCH_BATCH (UINT64_C(1) << 40)

typedef struct nk_benchmark {
    const nk_variant *variant;
    unsigned ply_limit;
    uint64_t master;                 /* the master seed */
    unsigned opening;                /* random opening plies */
    int threads;
    unsigned games;                  /* per opponent, even */
    const nk_exec_player *opponents; /* [n]; their spec texts fit a row */
    size_t n;
} nk_benchmark;

/* Whether generation g (0-based) of a run of `generations` is benchmarked
 * every `every` generations: the first, every every-th, and the last. */
bool nk_benchmark_due(unsigned every, unsigned g, unsigned generations);

/* The champion plays b's opponents; rows[0..*nrows) get one row each (rows
 * holds b->n).  Errors are those of arena/meetings.h. */
nk_status nk_benchmark_play(const nk_benchmark *b, const nk_exec_player *champion, unsigned g,
                            nk_run_bench *rows, size_t *nrows, char *err, size_t errlen);

#endif
