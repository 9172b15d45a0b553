/*
 * regen.h -- a fitness game of a run file, played again as a game record.
 *
 * A run that records its games keeps, per game, the generation, the two
 * entrants' ids, the seed and the result (/games, docs/runfile.md), and
 * play is deterministic: the game is meeting i = J/2 of exec batch G under
 * the run's master seed (arena/meetings.h), so with the run's config (the
 * evolving players' spec, the gauntlet, openings, ply limit) and the
 * individual's weights of that generation it can be played again.
 *
 * Sources (1-based, as on the command line): RUN.h5@game=K, the K-th row
 * of /games; RUN.h5@gen=G,game=J, the J-th game of generation G.  The
 * regenerated game must give the stored seed and result: a mismatch is
 * NK_EMISMATCH with what differs.  A hall-of-fame entrant is the champion
 * (best fitness, first of ties) of an earlier generation, read from that
 * generation's population as the loop kept it.
 */
#ifndef NK_IO_REGEN_H
#define NK_IO_REGEN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "io/records.h"

/* True when source looks like RUN.h5@game=K or RUN.h5@gen=G,game=J. */
bool nk_regen_source(const char *source);

/* Plays the game of source again into *out.  NK_EINVAL for a bad selector
 * or an unsupported entrant, NK_ERANGE for a game that is not there, the
 * errors of nk_run_open, NK_EMISMATCH when the game played does not match
 * the stored one, NK_ENOMEM. */
nk_status nk_regen_game(const char *source, nk_record *out, char *err, size_t errlen);

#endif
