/*
 * ciao.h -- the master tournament of a sequence of players (a run's
 * champions, oldest first): every player against every other, and the two
 * progress measures read from it.
 *
 * Owns: the meetings of a master tournament, their tally and the summary
 * of its score matrix; nk_ciao_play plays it in one call.  `nickar ciao`
 * plays it through run/master.h, in batches.
 *
 * Meetings: for each pair i < j, in row-major order, `pairs` meetings
 * (i, j) -- colour-swapped pairs of games from random openings, as
 * `nickar match` plays them -- all in one call of nk_arena_play_meetings,
 * so meeting k's games depend on (master, batch, k) and never on threads.
 * Players do not meet themselves.
 *
 * score[i*n+j]: i's mean score against j (win 1, draw 1/2) over its
 * 2 * pairs games; score[j*n+i] = 1 - score[i*n+j]; the diagonal is 0.5.
 * ciao[i] = the mean of score[i][j] over j < i: Cliff and Miller's CIAO
 * row (current individual against ancestral opponents); NAN for i = 0.
 * master[i] = the mean of score[i][j] over j != i: Floreano and Nolfi's
 * master tournament score.  A run that makes progress shows ciao and
 * master rising; stagnation, a flat line; cycling, a CIAO matrix with
 * low entries below the diagonal.
 */
#ifndef NK_ARENA_CIAO_H
#define NK_ARENA_CIAO_H

#include <stddef.h>

#include "arena/meetings.h"

typedef struct nk_ciao {
    size_t n;                        /* players */
    double *score;                   /* [n * n] */
    unsigned *wins, *draws, *losses; /* [n * n] row player's games against the column's */
    double *ciao;                    /* [n] */
    double *master;                  /* [n] */
} nk_ciao;

/* Plays the master tournament of the s->nplayers >= 2 players of s with
 * `pairs` >= 1 colour-swapped pairs per pairing and fills *out (free with
 * nk_ciao_free, also after a failure).  NK_EINVAL for fewer than two
 * players or no pairs; NK_ENOMEM; the errors of nk_arena_play_meetings. */
nk_status nk_ciao_play(const nk_arena_setup *s, size_t pairs, nk_ciao *out, char *err,
                       size_t errlen);
void nk_ciao_free(nk_ciao *c);

/* The parts of nk_ciao_play, for a master tournament played in parts
 * (run/master.h). */

/* The tables of n >= 2 players, all counts 0.  NK_ENOMEM (free with
 * nk_ciao_free also after a failure). */
nk_status nk_ciao_init(nk_ciao *c, size_t n, char *err, size_t errlen);
/* The meetings in order (see above): *out = [n(n-1)/2 * pairs], *count
 * their number (free with nk_free).  NK_EINVAL for fewer than two players
 * or no pairs, NK_ERANGE for too many, NK_ENOMEM. */
nk_status nk_ciao_meetings(size_t n, size_t pairs, nk_meeting **out, size_t *count, char *err,
                           size_t errlen);
/* Counts a played meeting of m->a against m->b. */
void nk_ciao_add(nk_ciao *c, const nk_meeting *m, const nk_meeting_tally *t);
/* score, ciao and master from the counts (every pair has been played). */
void nk_ciao_summarise(nk_ciao *c);

#endif
