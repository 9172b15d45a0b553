/*
 * search.h -- negamax alpha-beta with iterative deepening and a
 * transposition table, over a linear evaluation (features.h).
 *
 * What a search scores:
 *  - a finished game exactly: its seed difference times NK_SCORE_SEED from
 *    the side to move's view (nk_eval_terminal), above every evaluation;
 *    "finished" means nk_pos_end, then a repetition, then the ply limit, in
 *    the order of R-G4;
 *  - a repetition: a position (after a move that captured nothing) equal to
 *    one on the current search path or in the game's history since its last
 *    capture (nk_game hist[since..ply]) ends the game there, scored by the
 *    variant's repetition rule (nk_pos_result with NK_END_REPETITION);
 *  - the ply limit: a node at game ply g->ply_limit ends by NK_END_PLY_LIMIT;
 *  - a pass (Adji Kui II, R-K4) is a ply like any other; after Antigua's
 *    grand slam (R-W8) the same side moves again and the child's score is
 *    taken without a sign flip;
 *  - anything else at depth 0: the evaluation, from the side to move's view
 *    (view NK_VIEW_MOVER, the default), or from the root player's fixed
 *    view (NK_VIEW_ROOT: the evaluation of the leaf with the root player
 *    to move, negated where the other side is to move -- the plain
 *    minimax of Daoud et al., CEC 2004, whose evaluation is not the
 *    negative of its mirror image).  With a symmetric evaluation
 *    (features.h) the two views give the same search, node for node.
 *
 * Transposition table: keyed by pos.hash mixed with pos.flags (passes and
 * the capture flag are not in the hash but change which end rules hold).
 * A stored value cuts off only a search of exactly its depth, and a value
 * that rests on a repetition of a position above its node (which another
 * path to the node would not repeat: graph history) is not stored, so a
 * fixed-depth search returns the same value with the table on or off.
 * Entries of other depths still give the first move to try.  Nodes within
 * reach of the ply limit, and nodes of depth 1 (whose few leaves cost less
 * than a probe's cache miss), neither read nor write the table.  The table is
 * logically cleared at the start of every nk_search_best (an age stamp), so
 * a search's result and node count depend only on the game, the evaluation
 * and the limits.
 *
 * Move order: the table's move, then captures (predicted by arithmetic in
 * the Warri family, by a trial relay in Adji Kui II), larger first, then
 * the rest in pit order; at the root, the previous iteration's best first.
 *
 * A node is one position visited by the search (the root included); the
 * node budget counts those.  Nothing here allocates per node: a search owns
 * its table and path arrays.
 */
#ifndef NK_SEARCH_H
#define NK_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/rules.h"
#include "search/features.h"

enum { NK_SEARCH_MAX_DEPTH = 64 };

/* When to stop.  At least one of the three should be set; with none the
 * search goes to NK_SEARCH_MAX_DEPTH.  Depth 1 is always completed, so a
 * move is always found; a budget that runs out during a later iteration
 * gives that iteration up and returns the previous one's result.  Node
 * budgets are deterministic, time budgets are not. */
typedef struct nk_search_limits {
    unsigned depth;   /* deepest iteration, plies (0: no depth limit) */
    uint64_t nodes;   /* node budget (0: none) */
    double seconds;   /* wall-clock budget (0: none) */
} nk_search_limits;

typedef struct nk_search_result {
    int move;         /* best move, NK_NO_MOVE if the game is over */
    double score;     /* its value, from the side to move's view */
    unsigned depth;   /* deepest completed iteration */
    uint64_t nodes;   /* nodes visited, all iterations */
    bool exact;       /* the value is the game's, not an evaluation's: every
                         line of the last iteration ended the game (or the
                         database's value was taken: nk_search_set_tb) */
    bool tb_cycle;    /* a database value that rests on the repetition rule
                         (NK_TB_CYCLE) was taken somewhere in the search */
} nk_search_result;

typedef struct nk_search nk_search;

/* Makes a search over a copy of eval with a transposition table of tt_mb
 * MiB (0: no table; at most 65536).  NK_ENOMEM, NK_ERANGE. */
nk_status nk_search_new(nk_search **out, const nk_eval *eval, unsigned tt_mb);

/* Whose view the leaves are evaluated from (see above). */
typedef enum nk_view { NK_VIEW_MOVER, NK_VIEW_ROOT } nk_view;
/* Sets the view of later searches (a new search has NK_VIEW_MOVER). */
void nk_search_set_view(nk_search *s, nk_view view);
/* Sets the endgame database later searches probe (NULL: none, the
 * default).  Every node below the root that is not finished (the end
 * rules, a repetition, the ply limit, above) and has at most tb->seeds
 * seeds on the board takes the database's value instead of being searched
 * further: the game that ends with the mover's store plus the value
 * against the opponent's store plus the rest of the board, scored as a
 * finished game (seed difference times NK_SCORE_SEED, not an evaluation),
 * in either view.  The database must be of the search's variant; it is
 * read only, and may be shared by any number of searches. */
struct nk_tb;
void nk_search_set_tb(nk_search *s, const struct nk_tb *tb);
/* Bound mode (for exact solving, `nickar solve`): bound +1 scores every
 * horizon leaf as the game that ends with all the board's seeds to `side`,
 * -1 as the game that ends with none of them to it, as finished games
 * (seed difference times NK_SCORE_SEED) instead of the evaluation.  The
 * search's score is then an upper (+1) or lower (-1) bound, for `side`, of
 * the value of the game without a ply limit cut at the horizon.  0 (the
 * default): the evaluation. */
void nk_search_set_bound(nk_search *s, int bound, int side);
/* Collect mode (for `nickar solve` in speightstown, whose result needs
 * what each side can force himself to collect): with side NK_SOUTH or
 * NK_NORTH, every finished game, database value and bound leaf is scored
 * by the seeds `side` ends with in its store (times NK_SCORE_SEED), from
 * the side to move's view (negated where the other side moves): the search
 * is the zero-sum game in which `side` collects as much as he can and the
 * other side keeps that as small as it can, a repetition giving the board
 * to nobody where the variant's rule does (R-W10).  A database value is
 * the seeds that side forces from there (the plane of its side:
 * nk_tb_probe_pair); a bound leaf gives `side` the whole board when bound
 * is +1 for `side` (or -1 for the other), else none of it.  Any other
 * side (-1): off, the default. */
void nk_search_set_collect(nk_search *s, int side);
/* Frees a search; NULL is allowed. */
void nk_search_free(nk_search *s);
/* Empties the transposition table, writing all of its memory (a benchmark
 * calls it before timing, so that page faults are not counted). */
void nk_search_clear(nk_search *s);
/* Searches the live game g (whose variant must be eval's) within lim. */
void nk_search_best(nk_search *s, const nk_game *g, const nk_search_limits *lim,
                    nk_search_result *res);

/* ===== benchmark ===== */

typedef struct nk_search_bench {
    uint64_t positions; /* positions searched */
    uint64_t nodes;     /* nodes of all searches: the signature */
    double seconds;     /* wall clock */
} nk_search_bench;

/* The search bench: fixed positions (random playouts of fixed seeds, in the
 * variants the set suits) searched to a fixed depth with the named feature
 * set (or evaluation family text, search/eval.h: `ntuple:layout=ring3`)
 * and its default weights.  NK_EINVAL for an unknown set name. */
nk_status nk_search_bench_run(const char *set_name, nk_search_bench *out);

/* The node-count signature of the whole bench (every feature set, in
 * nk_features_at order), as recorded by the last commit that changed search
 * or evaluation behaviour.  The test suite checks it. */
#define NK_SEARCH_BENCH_SIGNATURE 2294659ull

#endif
