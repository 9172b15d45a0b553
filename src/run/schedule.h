/*
 * schedule.h -- co-evolution fitness: who meets whom in a generation, and
 * how the games' results become fitness values.
 *
 * Owns: the schedule kinds by name, nk_schedule_meetings (the meetings of
 * one generation, drawn from a generator), the scoring tables, and the
 * per-individual tally (nk_tally, fed game by game or from played meetings
 * with nk_schedule_tally).  A meeting (nk_meeting) is an exec pairing
 * (exec/exec.h), played by arena/meetings.h.
 *
 * Fitness is relative (self-play).  A schedule lists *meetings* between
 * entrants; every meeting is played twice, once with each colour.  Entrants
 * are numbered: 0..N-1 the current population, then N..N+H-1 the hall of
 * fame (past champions), then N+H..N+H+K-1 the fixed gauntlet players.  Only
 * population members receive fitness; the others are yardsticks.
 *
 * Schedules (fitness.schedule, configs/README.md):
 *   round-robin   every pair of the population meets once;
 *   sample        each individual meets ceil(fraction * (N - 1)) distinct
 *                 others drawn at random (and counts the meetings others draw
 *                 with it too);
 *   random-k      each individual meets k distinct others drawn at random;
 *   hall-of-fame  each individual meets k opponents drawn at random from the
 *                 hall of fame together with the rest of the population;
 *   gauntlet      each individual meets every gauntlet player;
 *   fitness-set   k distinct members of the population are drawn once per
 *                 generation (the shared "fitness set" of Daoud et al., CEC
 *                 2004) and every individual meets each of them but itself;
 *                 only the individual's side of a meeting counts (the set's
 *                 members earn their fitness as individuals, not as
 *                 opponents): nk_schedule_tally_for.
 *   tablebase     no meetings: every individual is graded against an
 *                 endgame database (nk_schedule_grade below), on positions
 *                 drawn afresh each generation from the population's own
 *                 play: the self-play games of the last generation's
 *                 champion (the set's hand-tuned weights before the
 *                 first), as search/grade.h draws them.
 * Random draws without replacement use a partial Fisher-Yates shuffle of
 * the candidate list, so every draw costs exactly k generator calls and the
 * meetings depend only on the generator's state.
 * Fitness of an individual = the mean score of its games under the scoring
 * table (win, draw, loss) or, with seed scoring, its mean seed difference.
 */
#ifndef NK_RUN_SCHEDULE_H
#define NK_RUN_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "arena/meetings.h"
#include "base/status.h"
#include "exec/exec.h"
#include "search/grade.h"
#include "search/player.h"
#include "tb/tb.h"

typedef enum nk_schedule {
    NK_SCHEDULE_ROUND_ROBIN,
    NK_SCHEDULE_SAMPLE,
    NK_SCHEDULE_RANDOM_K,
    NK_SCHEDULE_HALL_OF_FAME,
    NK_SCHEDULE_GAUNTLET,
    NK_SCHEDULE_FITNESS_SET,
    NK_SCHEDULE_TABLEBASE,
    NK_SCHEDULE_COUNT
} nk_schedule;

/* Name of a schedule ("round-robin", ...), and the schedule of a name
 * (NK_SCHEDULE_COUNT when unknown). */
const char *nk_schedule_name(nk_schedule s);
nk_schedule nk_schedule_find(const char *name);
/* The name of schedule i in enum order, NULL past the end (the choices of
 * fitness.schedule). */
const char *nk_schedule_name_at(size_t i);

/* Scoring of one game for one player. */
typedef struct nk_scoring {
    int by_seeds;        /* score = own seeds - opponent's seeds */
    double win, draw, loss;
} nk_scoring;

/* Parses "2,1,0", "1,0,-2" or "seeds". */
nk_status nk_scoring_parse(nk_scoring *s, const char *text, char *err, size_t errlen);

/* A finished game seen from one side: outcome +1 win, 0 draw, -1 loss. */
double nk_scoring_score(const nk_scoring *s, int outcome, int own_seeds, int other_seeds);

/* Accumulates per-individual fitness over a generation's games. */
typedef struct nk_tally {
    size_t n;
    double *score;       /* sum of scores */
    int32_t *games, *wins, *draws, *losses;
} nk_tally;

nk_status nk_tally_init(nk_tally *t, size_t n);
void nk_tally_free(nk_tally *t);
/* Adds one game between entrants south and north (only those below n
 * count); winner 0 south, 1 north, 2 draw. */
void nk_tally_add(nk_tally *t, const nk_scoring *s, uint32_t south, uint32_t north, int winner,
                  int south_seeds, int north_seeds);
/* Mean score per game of individual i (0 if it played none). */
double nk_tally_fitness(const nk_tally *t, size_t i);

typedef struct nk_schedule_params {
    nk_schedule kind;
    size_t population;   /* N >= 2 */
    size_t hall;         /* H: hall-of-fame entrants available now */
    size_t gauntlet;     /* K: gauntlet players */
    double fraction;     /* sample: (0, 1] */
    size_t k;            /* random-k, hall-of-fame: opponents per individual;
                            fitness-set: the size of the set (at most N) */
} nk_schedule_params;

/* Lists the meetings of one generation into a new array (*out, freed by the
 * caller with nk_free()); in each, a plays South in the first game.  Draws
 * come from rng.  NK_EINVAL when the schedule cannot be built (e.g.
 * gauntlet with K = 0), with a message. */
nk_status nk_schedule_meetings(const nk_schedule_params *p, gsl_rng *rng, nk_meeting **out,
                               size_t *count, char *err, size_t errlen);

/* Adds the games of meetings[0..n) with their results r[0..n) to t, game by
 * game in play order (meeting i: a South, then b South), exactly as
 * nk_tally_add of each game would. */
void nk_schedule_tally(nk_tally *t, const nk_scoring *s, const nk_meeting *meetings,
                       const nk_meeting_tally *r, size_t n);
/* The tally of schedule kind: nk_schedule_tally, except that fitness-set
 * counts only the games of each meeting's a (the individual), not of b
 * (the member of the fitness set it meets). */
void nk_schedule_tally_for(nk_schedule kind, nk_tally *t, const nk_scoring *s,
                           const nk_meeting *meetings, const nk_meeting_tally *r, size_t n);

/* ===== the tablebase schedule ===== */

/* What the individuals are graded on: the database, the players' spec
 * (the run's player: its depth, features, table, view), the reference
 * whose self-play games give the positions (spec and weights: the last
 * champion's), how many positions, the seed of the draw (the openings and
 * the reference's generator, search/grade.h: every individual of a
 * generation meets the same positions) and the measure. */
typedef struct nk_schedule_grading {
    const nk_tb *tb;
    const nk_variant *variant;
    const nk_spec *spec;
    const nk_spec *reference;
    const double *reference_w; /* [reference_n], or NULL for the set's defaults */
    size_t reference_n;
    uint64_t positions;
    uint64_t seed;
    bool optimal; /* fitness = share of optimal moves; else minus the mean
                     seeds lost per move */
    int threads;  /* 0: OpenMP's default */
} nk_schedule_grading;

/* Grades the player g->spec with the weights w[dim] as the schedule does
 * (nk_grade_play with a player and a reference made for it) into *out.
 * The errors of nk_player_new and nk_grade_play, with why. */
nk_status nk_schedule_grade_one(const nk_schedule_grading *g, const double *w, size_t dim,
                                nk_grade *out, char *why, size_t whylen);

/* The fitness of the n individuals w[n * dim] (row-major) under the
 * tablebase schedule, into fitness[n]: each individual is graded by
 * nk_grade_play with the same seed.  Individuals are graded in parallel,
 * each by its own players, so the result does not depend on the thread
 * count.  positions[i] (when not NULL) gets the positions graded.  The
 * errors of nk_player_new and nk_grade_play (the first individual's that
 * fails), NK_ENOMEM. */
nk_status nk_schedule_grade(const nk_schedule_grading *g, const double *w, size_t n, size_t dim,
                            double *fitness, uint64_t *positions, char *err, size_t errlen);

#endif
