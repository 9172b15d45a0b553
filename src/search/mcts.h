/*
 * mcts.h -- Monte Carlo tree search: UCT (Kocsis & Szepesvari, ECML 2006)
 * over uniformly random playouts on the rules' playout engine
 * (nk_game_playout: the loop `nickar bench` times), optionally cut off
 * after a number of plies and scored by an evaluation (features.h).
 *
 * One search builds a tree from the live game given, one node a playout:
 *  1. selection: from the root, while the node has no untried move, go to
 *     the child of the largest upper bound Q + c sqrt(ln N / n) (Q: the
 *     child's mean reward for the side that played its move, N and n: the
 *     parent's and the child's visits; the first in the node's list on a
 *     tie), playing its move on a copy of the game (nk_game_fork), so the
 *     end rules, repetitions (R-W10, R-K7) and the ply limit hold in the
 *     tree as in the game;
 *  2. expansion: an untried move drawn at random becomes a new child;
 *  3. simulation: from there, random moves to the end of the game (a
 *     finished game is scored as it stands, no playout), or, with
 *     cutoff=K, for at most K plies: a game that has not ended by then is
 *     scored by the evaluation e (seeds, from the side to move's view) as
 *     a win with probability 1 / (1 + exp(-e / NK_MCTS_EVAL_SEEDS));
 *  4. backpropagation: every node on the path gets a visit and the reward
 *     (1 a win, 1/2 a draw, 0 a loss) for the side that played its move.
 * The move played is the root's child of most visits (then the larger
 * mean reward, then the first).  A game with one legal move gets it with
 * no search.
 *
 * Randomness: every draw (the expansion's and the playouts') comes from
 * the generator the caller passes, so the same game seed gives the same
 * moves on any number of threads; with seed=S (S > 0) the draws come from
 * a generator seeded with S and the position instead, and the caller's
 * is left alone: a position then always gets the same move.
 *
 * A search owns its node array (1 + playouts nodes, allocated once): it
 * allocates nothing per move.  Not thread-safe: one a thread.
 */
#ifndef NK_MCTS_H
#define NK_MCTS_H

#include <stddef.h>
#include <stdint.h>

#include "base/param.h"
#include "rules/rules.h"
#include "search/features.h"

/* The most playouts a move: 32 bytes a node, so 320 MB of tree. */
#define NK_MCTS_MAX_PLAYOUTS 10000000
/* The seeds of evaluation that make a 73% win (1/(1+e^-1)) at a cut-off. */
#define NK_MCTS_EVAL_SEEDS 4.0

/* The options of an `mcts` spec, declared once (base/param.h says the row
 * shape; search/player.c reads them with features= and weights=, which
 * are those of `ab`).  The fields are those of nk_mcts_params. */
#define NK_MCTS_PARAMS(X, P)                                                                      \
    X(P, mcts, playouts, playouts, UINT64, uint64_t, "1000", NK_RANGE(1, NK_MCTS_MAX_PLAYOUTS),   \
      NULL, NULL, "a whole number of playouts", "playouts (tree nodes) per move")                 \
    X(P, mcts, c, c, DOUBLE, double, "1.4", NK_RANGE(0, 100), NULL, NULL, "a number",            \
      "UCT's exploration constant c (0: the best mean reward alone)")                            \
    X(P, mcts, seed, seed, UINT64, uint64_t, "0", NK_ANY, NULL, NULL, "a whole number",          \
      "0: draw from the game's generator; S: from a generator seeded with S and the position")   \
    X(P, mcts, cutoff, cutoff, INT, unsigned, "0", NK_RANGE(0, NK_MAX_PLIES), NULL, NULL,        \
      "a whole number of plies",                                                                  \
      "plies a playout plays before the evaluation scores it (0: to the end of the game)")

typedef struct nk_mcts_params {
    NK_MCTS_PARAMS(NK_PARAM_FIELD, _)
} nk_mcts_params;

/* A node of the tree: node 0 is the root; children are linked through
 * sibling, newest first; index 0 as a child or sibling means none. */
typedef struct nk_mcts_node {
    uint32_t parent;  /* the root's is 0 */
    uint32_t child;   /* first child */
    uint32_t sibling; /* next child of the parent */
    uint32_t visits;
    double reward;    /* sum of the rewards for mover */
    uint16_t untried; /* legal moves not yet children (a move mask) */
    uint8_t move;     /* the move that led here (the root: NK_PASS, unused) */
    uint8_t mover;    /* the side that played it */
    uint8_t terminal; /* the game is over here */
} nk_mcts_node;

typedef struct nk_mcts_result {
    int move;          /* NK_NO_MOVE if the game is over */
    double value;      /* the move's mean reward for the side to move, in [0, 1] */
    uint64_t playouts; /* 0 when the move was the only one */
    uint64_t nodes;    /* nodes of the tree, the root included */
    uint64_t plies;    /* plies the playouts played, in the tree and after it */
} nk_mcts_result;

typedef struct nk_mcts nk_mcts;

/* Makes a search.  eval (copied) scores the playouts cut off by
 * params->cutoff; NULL when cutoff is 0.  NK_ENOMEM for the node array,
 * NK_EINVAL for a cut-off without an evaluation. */
nk_status nk_mcts_new(nk_mcts **out, const nk_mcts_params *params, const nk_eval *eval);
/* Frees a search; NULL is allowed. */
void nk_mcts_free(nk_mcts *m);
/* Searches the game g (whose variant must be eval's) and chooses a move,
 * drawing from rng (or from the seed= generator; above). */
void nk_mcts_best(nk_mcts *m, const nk_game *g, nk_rng *rng, nk_mcts_result *res);
/* The tree of the last search (count nodes; count is 0 before the first,
 * or after a move chosen with no search). */
const nk_mcts_node *nk_mcts_tree(const nk_mcts *m, size_t *count);

#endif
