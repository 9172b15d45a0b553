/*
 * record.h -- the rows an evolution run produces per generation, as the run
 * file stores them (io/runfile.h writes and reads these types).
 *
 * Owns: the row types of /stats, /games and /benchmark, the width of a
 * benchmark row's opponent field, and the ids that game rows give to
 * entrants that are not population members.
 */
#ifndef NK_RUN_RECORD_H
#define NK_RUN_RECORD_H

#include <stdint.h>

/* Bytes of the opponent field of a benchmark row, its NUL included. */
enum { NK_RUN_OPPONENT_LEN = 64 };

/* Ids of game rows: a population member has its individual id (>= 0); hall
 * of fame entrant h (0 oldest) is NK_RUN_HALL_ID(h) = -1 - h, gauntlet
 * player k is NK_RUN_GAUNTLET_ID(k) = -1000 - k. */
#define NK_RUN_HALL_ID_BASE ((int64_t)-1)
#define NK_RUN_GAUNTLET_ID_BASE ((int64_t)-1000)
#define NK_RUN_HALL_ID(h) (NK_RUN_HALL_ID_BASE - (int64_t)(h))
#define NK_RUN_GAUNTLET_ID(k) (NK_RUN_GAUNTLET_ID_BASE - (int64_t)(k))

/* One row of /stats: the summary of one generation.  wall_seconds,
 * play_seconds and outside_seconds are wall-clock times (not reproducible):
 * the generation's time, the part of it spent playing games (fitness and
 * benchmark), and the time of the generation's cycle outside play (the
 * writing of the previous generation, then this one's strategy, records and
 * statistics; io/evolve_file.c).  Files made before the last two existed
 * read them as 0. */
typedef struct nk_run_stats {
    int32_t generation;
    int64_t games, evaluations;
    double best, mean, median, std, worst, diversity, wall_seconds;
    double play_seconds, outside_seconds;
    /* benchmark.tablebase: the champion graded against the database at a
     * benchmark generation (search/grade.h): positions graded (0: not
     * graded), the share of optimal moves, the mean seeds lost per move.
     * Files made before they existed read them as 0. */
    int64_t tb_positions;
    double tb_optimal, tb_seeds_lost;
    /* Filled by the run file's writer, never by its caller: FNV-1a (64
     * bits) of the generation's rows and of this row's other reproducible
     * members (io/runfile.h, "Digests").  Files made before it read 0. */
    uint64_t rows_digest;
    /* benchmark.tablebase: the 95% intervals over games (cluster-robust,
     * search/grade.h) of tb_optimal and tb_seeds_lost; NAN when fewer
     * than two games gave positions.  Only the files of runs with
     * benchmark.tablebase have them (nk_run_meta.tb_intervals); others,
     * and files made before they existed, read them as 0. */
    double tb_optimal_lo, tb_optimal_hi, tb_seeds_lost_lo, tb_seeds_lost_hi;
} nk_run_stats;

/* One row of /games: one game of the fitness evaluation. */
typedef struct nk_run_game {
    int32_t generation;
    int64_t south_id, north_id;
    int8_t winner; /* 0 south, 1 north, 2 draw */
    int16_t south_seeds, north_seeds, plies;
    int8_t reason; /* an nk_end code (rules/rules.h) */
    uint64_t seed;
} nk_run_game;

/* One row of /benchmark: the champion against one fixed opponent. */
typedef struct nk_run_bench {
    int32_t generation;
    char opponent[NK_RUN_OPPONENT_LEN]; /* a player spec, NUL-terminated */
    int32_t wins, draws, losses;
    double score; /* in [0, 1] */
} nk_run_bench;

#endif
