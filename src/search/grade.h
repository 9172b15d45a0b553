/*
 * grade.h -- a player measured against perfect play: the share of its
 * moves that are optimal and the seeds it loses per move, on positions
 * inside an endgame database (docs/tablebase.md, "Grading").  `nickar
 * grade` and the benchmark of an evolution run (benchmark.tablebase) use
 * it.
 *
 * Positions come from games of a reference player against itself from
 * random openings (NK_GRADE_OPENING random plies, then the reference plays
 * both sides), played with the rules engine from the seed: every live
 * position of those games that is inside the database and offers a choice
 * (two legal moves or more) is one sample, until the number wanted.  At
 * each the graded player is asked for its move (with the game's history,
 * as in play) and the move's value is looked up: optimal when it equals
 * the best move's value (speightstown: when it keeps the best result the
 * stores give, R-W12); the seeds lost are the best value minus the move's.
 * The openings and the reference use one generator, the graded player
 * another, so every player graded with the same seed meets the same
 * positions.  The games are samples drawn with the engine, not matches:
 * they do not go through the arena.
 */
#ifndef NK_SEARCH_GRADE_H
#define NK_SEARCH_GRADE_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#include "search/player.h"
#include "tb/tb.h"

enum { NK_GRADE_OPENING = 4 };

typedef struct nk_grade {
    uint64_t positions;   /* graded */
    uint64_t games;       /* of the reference, played for them */
    uint64_t optimal;     /* optimal moves */
    uint64_t cycle;       /* positions whose value rests on the repetition rule */
    double loss, loss2;   /* sum of the seeds lost, and of their squares */
    /* Over the games that gave a position (the clusters, nk_grade_add_game):
     * their count G, and the sums of n_g^2, o_g n_g, o_g^2, l_g n_g and
     * l_g^2 (n_g positions, o_g optimal moves, l_g seeds lost of game g). */
    uint64_t clusters;
    double pos2, opt_pos, opt2, loss_pos, lossg2;
} nk_grade;

/* Adds one game's sums (a cluster) to g: its positions graded, optimal
 * moves among them and seeds lost, to positions, optimal, loss and the
 * sums over games (loss2, the per-position squares, is the caller's).  A
 * game without a position adds nothing. */
void nk_grade_add_game(nk_grade *g, uint64_t positions, uint64_t optimal, double loss);

/* NK_OK when tb holds ownership pattern 0 (the default rows, where every
 * graded game starts), else NK_EINVAL with why. */
nk_status nk_grade_pattern0(const nk_tb *tb, char *err, size_t errlen);

/* Grades `player` on up to `want` positions (fewer when 100 want + 100
 * games give fewer).  Both players must be of tb's variant.  NK_ENOMEM
 * (with why) when out of memory; NK_EINVAL (with why) when the database
 * does not hold ownership pattern 0, the default rows of every game
 * graded (an adjikui database built for other patterns, tb.h). */
nk_status nk_grade_play(const nk_tb *tb, nk_player *player, nk_player *reference,
                        uint64_t want, uint64_t seed, nk_grade *out, char *err, size_t errlen);

/* The share of optimal moves and the mean seeds lost per move, each with
 * its cluster-robust 95% interval over games (above; the share's clipped
 * to [0, 1], the seeds lost's low end at 0 at least).  All 0 when nothing
 * was graded; the intervals NAN when fewer than two games gave positions. */
void nk_grade_summary(const nk_grade *g, double share[3], double lost[3]);

/* The mean seeds lost per game over `games` games (those without a graded
 * move count as 0 lost) with its 95% t interval (its low end at 0 at
 * least; NAN with fewer than two games). */
void nk_grade_per_game(const nk_grade *g, uint64_t games, double lost[3]);

#endif
