/*
 * gradegames.h -- whole games graded against perfect play, where an
 * endgame database covers the start position (`nickar grade --from-start`,
 * docs/tablebase.md "Grading whole games").
 *
 * The games: the start position with K seeds a pit (12K seeds on the
 * board, empty stores, default rows, South to move), which the database
 * must cover (12K <= its seeds), so that every position of every game is
 * in it.  They are played as `nickar match` plays its games, through the
 * batch runner (exec/exec.h): colour-swapped pairs, each pair from one
 * random opening of `openings` plies (nk_exec_pairs with the master seed,
 * batch 0), the graded player South in the first game of a pair and North
 * in the second; N games are rounded up to whole pairs.  Then each game is
 * replayed and every move of the graded player after the opening is
 * looked up: its value (the seeds of the board it collects from there
 * under perfect play, nk_tb_move_pairs) against the best move's.
 *
 * - A move is graded when the position offers a choice (two legal moves or
 *   more); forced moves are counted apart.
 * - Optimal: the move's value is the best (speightstown: the move keeps the
 *   best result that the stores allow, R-W12, as search/grade.h).  An error
 *   is a graded move that is not optimal.
 * - Seeds lost: the best value minus the move's (speightstown: plane 0,
 *   the seeds the mover can force, so an error there may lose 0 seeds and
 *   an optimal move lose some).
 * - Value thrown away: a move whose result under perfect play (win, draw,
 *   loss for the mover with the stores of the position, nk_tb_outcome) is
 *   below the best move's: win to draw, win to loss, draw to loss.  A game
 *   "fell" when the graded player made at least one such move in it.
 * - Phase, by the board seeds b of the position against the start's S:
 *   opening b > 2S/3, middle S/3 < b <= 2S/3, end b <= S/3.
 *
 * Intervals are over games (search/grade.h): each game is a cluster of its
 * graded moves.
 */
#ifndef NK_RUN_GRADEGAMES_H
#define NK_RUN_GRADEGAMES_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "exec/exec.h"
#include "search/grade.h"
#include "tb/tb.h"

enum { NK_GG_OPENING, NK_GG_MIDDLE, NK_GG_END, NK_GG_PHASES };
/* The drops of value: win to draw, win to loss, draw to loss. */
enum { NK_GG_WIN_DRAW, NK_GG_WIN_LOSS, NK_GG_DRAW_LOSS, NK_GG_DROPS };

typedef struct nk_gg_settings {
    const nk_tb *tb;                /* its variant is the games' */
    nk_exec_player graded, opponent;
    unsigned per_pit;               /* K: seeds a pit at the start (1..) */
    uint64_t games;                 /* N >= 1 (rounded up to pairs) */
    unsigned openings;              /* random plies of each pair's opening */
    uint64_t seed;                  /* master seed */
    unsigned ply_limit;             /* 0: NK_DEFAULT_PLY_LIMIT */
    int threads;                    /* of the batch (exec.h) */
} nk_gg_settings;

/* One error of the graded player. */
typedef struct nk_gg_error {
    uint64_t game;                  /* from 0, in play order */
    unsigned ply;                   /* plies of the game before the move */
    nk_pos pos;                     /* the position, graded player to move */
    uint8_t played;                 /* the move played */
    unsigned optimal;               /* mask of the optimal moves */
    int lost;                       /* seeds lost */
    int8_t best, got;               /* results (+1, 0, -1) of the best move
                                       and of the move played */
} nk_gg_error;

/* Graded moves, errors and seeds lost in one band (seeds or phase). */
typedef struct nk_gg_band {
    uint64_t moves, errors;
    double lost;
} nk_gg_band;

typedef struct nk_gg_report {
    nk_pos start;
    uint64_t games;                 /* played */
    uint64_t forced;                /* moves of the graded player without choice */
    uint64_t cycle;                 /* graded moves whose value rests on repetition */
    nk_grade grade;                 /* the graded moves, a cluster a game */
    uint64_t drops[NK_GG_DROPS];
    uint64_t games_fell;            /* games with at least one drop */
    uint64_t wins, draws, losses;   /* the graded player's results */
    nk_gg_band seeds[NK_TB_MAX_SEEDS + 1]; /* by board seeds */
    nk_gg_band phase[NK_GG_PHASES];
    nk_gg_error *errors;            /* every error, in game and ply order */
    size_t nerrors;
} nk_gg_report;

/* The start position with per_pit seeds a pit; NK_EINVAL when the
 * database does not cover it (12 per_pit > tb->seeds) or does not hold
 * ownership pattern 0 (the default rows), NK_ERANGE for per_pit 0 or above
 * 4.  Called by nk_gg_play first; a caller may call it alone to refuse bad
 * input before it writes anything. */
nk_status nk_gg_start(const nk_tb *tb, unsigned per_pit, nk_pos *start, char *err, size_t errlen);

/* Plays and grades the games into *out (release with nk_gg_report_free,
 * also after a failure).  nk_gg_start's errors, NK_ERANGE for no game,
 * nk_exec_run's (a player that cannot be made, ...), NK_ENOMEM. */
nk_status nk_gg_play(const nk_gg_settings *s, nk_gg_report *out, char *err, size_t errlen);

/* The phase of a position with b board seeds in a game started with S. */
int nk_gg_phase(unsigned b, unsigned start_seeds);

void nk_gg_report_free(nk_gg_report *r);

#endif
