/*
 * schedule.h -- who meets whom in a generation of co-evolution, and how the
 * meetings' results feed the per-individual fitness tally.
 *
 * Owns: nk_schedule_meetings (the meetings of one generation, drawn from a
 * generator) and nk_schedule_tally (meetings' results into an nk_tally).
 * The schedule kinds and scoring themselves are evolve/coevo.h; a meeting
 * (nk_meeting) is an exec pairing (exec/exec.h), played by
 * arena/meetings.h.
 *
 * Entrants are numbered: 0..N-1 the current population, then N..N+H-1 the
 * hall of fame (past champions), then N+H..N+H+K-1 the fixed gauntlet
 * players.  Only population members receive fitness; the others are
 * yardsticks.  Random draws without replacement use a partial Fisher-Yates
 * shuffle of the candidate list, so every draw costs exactly k generator
 * calls and the meetings depend only on the generator's state.
 */
#ifndef NK_RUN_SCHEDULE_H
#define NK_RUN_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "arena/meetings.h"
#include "base/status.h"
#include "evolve/coevo.h"
#include "exec/exec.h"

typedef struct nk_schedule_params {
    nk_schedule kind;
    size_t population;   /* N >= 2 */
    size_t hall;         /* H: hall-of-fame entrants available now */
    size_t gauntlet;     /* K: gauntlet players */
    double fraction;     /* sample: (0, 1] */
    size_t k;            /* random-k, hall-of-fame: opponents per individual */
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

#endif
