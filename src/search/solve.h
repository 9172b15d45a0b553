/*
 * solve.h -- solving beyond an endgame database: a position with more
 * board seeds than the database holds, searched by alpha-beta with the
 * database's values at every node inside it (`nickar solve`,
 * docs/tablebase.md).
 *
 * The game is that of the database: the majority rule off (tb->rules) and
 * the stores emptied, so a search score (the seed difference of the
 * totals) maps to the seeds a side collects from the board; the history of
 * the game starts at the root.  For each legal move the child is the end
 * of the game, a position inside the database (its value), or searched
 * within `budget` nodes a search: twice, with the horizon's leaves scored
 * as if the side concerned got none (a lower bound) and then all (an upper
 * bound) of the board there; a search that reaches no horizon is exact
 * and ends the pair.  Each move is thus exact or bounded, and so is the
 * position.
 */
#ifndef NK_SEARCH_SOLVE_H
#define NK_SEARCH_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "rules/rules.h"
#include "tb/tb.h"

/* A move's value for the side to move at the root (one-plane database):
 * the board seeds the root's mover collects after it. */
typedef struct nk_solve_move {
    int value;  /* exact only (else lo) */
    int lo, hi; /* bounds of value (equal to it when exact) */
    bool exact; /* decided: the bounds meet */
    bool cycle; /* a database value on the way rests on the repetition rule */
    unsigned depth;
    uint64_t nodes; /* 0 for a move decided without a search */
} nk_solve_move;

/* The solution of a position beyond a one-plane database. */
typedef struct nk_solve {
    unsigned mask; /* the legal moves at the root */
    nk_solve_move move[NK_PASS + 1];
    int lo, hi;     /* the position's value: the best over the moves */
    bool cycle;     /* some move's value rests on the repetition rule */
    uint64_t nodes; /* searched, over every move */
} nk_solve;

/* A move's pair for the side to move at the root (two-plane database,
 * speightstown): the seeds each side can force himself to collect after
 * it, as bounds (equal when decided).  Each side's seeds come from two
 * searches in collect mode (nk_search_set_collect: that side maximises his
 * own seeds, the other minimises them, a repetition gives the board to
 * nobody). */
typedef struct nk_solve_pair {
    int lo[2], hi[2]; /* [0]: the root's mover, [1]: the opponent */
    unsigned depth;
    uint64_t nodes;
} nk_solve_pair;

/* The solution of a position beyond a two-plane database. */
typedef struct nk_solve_pairs {
    unsigned mask;
    nk_solve_pair move[NK_PASS + 1];
    int lo[2], hi[2]; /* the mover takes his best move; the opponent's
                         forced seeds are the least over the moves */
    uint64_t nodes;
} nk_solve_pairs;

/* Solves root (a position of tb's variant, its owners a pattern the
 * database holds) beyond the one-plane database tb, within budget (>= 1)
 * nodes a search.  NK_EINVAL for a two-plane database or a position of
 * another pattern, NK_ERANGE for a zero budget, NK_ENOMEM. */
nk_status nk_solve_beyond(const nk_tb *tb, const nk_pos *root, uint64_t budget, nk_solve *out,
                          char *err, size_t errlen);
/* The same beyond a two-plane database.  NK_EINVAL for a one-plane one. */
nk_status nk_solve_beyond_planes(const nk_tb *tb, const nk_pos *root, uint64_t budget,
                                 nk_solve_pairs *out, char *err, size_t errlen);
/* The outcomes (-1 loss, 0 draw, +1 win for pos's mover) that the bounds
 * of a pair allow: nk_tb_outcome grows with the mover's seeds and falls
 * with the opponent's, so the worst is at (lo, hi), the best at (hi, lo). */
void nk_solve_pair_outcomes(const nk_tb *tb, const nk_pos *pos, const int lo[2], const int hi[2],
                            int *worst, int *best);

/* ===== the value with the game's history ===== */

/* The value of a position inside a one-plane database in the game with
 * its full history: a repetition ends the game as the rules define it
 * (R-W10, R-K7: the pits, the side to move and the owners, since the last
 * capture), where the database's values rest on its treatment of cycles
 * (docs/tablebase.md).  A search with the history from root, bounded at its
 * leaves by the region's bounds (nk_tb_region, built from root):
 *
 * - after a capture the history starts afresh (R-W10), so the value of the
 *   child lies in its [lo_any, hi_any] and is exact where they meet;
 * - a move to a position of another component of the region (or without
 *   the cycle bit) can never come back to a position of the history (one
 *   that came back would be in the same component), so that position too
 *   is valued with a fresh history;
 * - only the moves inside a component are searched with the history; a
 *   position that appears again ends the game by repetition.
 *
 * Alpha-beta (moves in the order of the database's values) with a table of
 * the bounds proven for positions with a fresh history; each root move's
 * value is narrowed by MTD(f) tests (is it at least t?) from the
 * database's value, within the move's bounds where its child starts a
 * fresh history (else within the board), budget nodes a move; a path
 * longer than NK_SOLVE_HISTORY_DEPTH positions stops a test as the budget
 * does.
 * Values are the seeds of the root's board its mover collects. */
enum { NK_SOLVE_HISTORY_DEPTH = 10000 };

typedef struct nk_solve_history {
    unsigned mask;                       /* the legal moves at the root */
    int lo[NK_PASS + 1], hi[NK_PASS + 1]; /* each move's value: bounds, equal
                                            when settled */
    int root_lo, root_hi;                /* the root's: the best move's */
    uint64_t nodes[NK_PASS + 1];         /* searched for each move */
    uint64_t total;                      /* over every move */
    bool deep;                           /* a test stopped at the depth limit */
} nk_solve_history;

/* Solves root (a live position inside the one-plane database tb, region
 * built from it) with its history, within budget (>= 1) nodes a move.
 * NK_EINVAL for a two-plane database or a position outside it,
 * NK_ERANGE for a zero budget, NK_ENOMEM. */
nk_status nk_solve_with_history(const nk_tb *tb, const nk_tb_region *region, const nk_pos *root,
                           uint64_t budget, nk_solve_history *out, char *err, size_t errlen);

#endif
