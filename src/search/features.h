/*
 * features.h -- evaluation features, named feature sets, built-in weight
 * tables and the linear evaluation score = sum_i w_i * f_i(pos).
 *
 * Every feature is an integer computed from the view of the evaluating
 * side: the side to move ("own" = the side to move, "opponent" = the other
 * side); a search with view=root evaluates a leaf from the root player's
 * side instead (search.h).  Most sets sign each term by its meaning: a
 * term that is good for the evaluating side enters positive, one that is
 * bad for it is stored NEGATED, so that a positive weight always reads
 * "this helps as the term's name says".  This convention is nickar's, not
 * a paper's: Daoud et al. (CEC 2004) print their evaluation as an unsigned
 * sum f = sum w_i a_i with every w_i in [0, 1] (the ayo12-literal set) and
 * read their terms by meaning in the text (the ayo12 set).  A set whose own
 * terms and opponent twins carry the same weight evaluates every position
 * as minus its mirror image (a symmetric evaluation).
 *
 * A set computes all its features in one pass over the twelve pits (the
 * adjikui set adds one trial relay per movable pit).  Which pits a side owns
 * comes from nk_pos_owned: the default rows in the Warri family, the bought
 * pits in an Adji Kui II match.
 *
 * Definitions (n = seeds in the pit; k = the pit's place 0..5 in its row,
 * counted from the foot; sowing from a pit lands its last seed in pit
 * (p + r) mod 12 with q = (n - 1) / 11 full laps and r = (n - 1) mod 11 + 1,
 * R-W1/R-W2, so the landing pit gains q + 1 seeds):
 *
 *   material (every variant)
 *     store_diff   own store - opponent store.
 *
 *   ayo12 (Warri family), Daoud, Kharma, Haidar & Popoola (CEC 2004), a1..a12,
 *   each signed by its meaning for the evaluating side (the paper: a11,
 *   the opponent's empty pits, is "the starting point for executing many
 *   seed-capturing manoeuvres"; a12, its own, a weakness):
 *     a1  -(opponent pits whose sowing lands its last seed in a pit of the
 *           side to move that then holds exactly 2) -- a capture of 2 starts;
 *     a2  -(the same with exactly 3);
 *     a3, a4  the same counts for the side to move's own pits (landing in
 *           the opponent's row, 2 resp. 3);
 *           a1..a4 look only at the landing pit: the capture chain behind
 *           it, the feeding rule and the grand-slam rules are not applied;
 *           each side is counted as if it were to move now;
 *     a5  -(opponent pits holding enough seeds to reach the other row:
 *           n >= 6 - k);
 *     a6  the same for own pits;
 *     a7  -(opponent pits holding more than 12 seeds: n > 12);
 *     a8  own pits with n > 12;
 *     a9  -(opponent store);  a10 own store;
 *     a11 opponent empty pits;  a12 -(own empty pits).
 *
 *   ayo12-literal: the same twelve counts, every one positive (Eq. 1 as
 *   printed: f = sum w_i a_i).
 *   ayo12-negated: the same counts with every opponent term negated and
 *   every own term positive (a11 = -(opponent empty pits), a12 = own empty
 *   pits), nickar's reading before the ayo12 set above.
 *   The built-in tables ayo2004-d3/-d5 weigh all three readings.
 *
 *   dk2002 (Warri family), Davis & Kendall (CEC 2002) as the Ayo paper
 *   recounts them ("the number of pits vulnerable to having 2 or 3 seeds
 *   captured in the next move, and the current scores of both players"):
 *     opp_cap2, opp_cap3   a1, a2 of ayo12 (threats against the evaluating
 *                          side, negated);
 *     own_cap2, own_cap3   a3, a4;
 *     opp_store            -(opponent store);  own_store  own store.
 *
 *   positional (Warri family), the per-pit style of strong Oware engines:
 *     store_diff   own store - opponent store;
 *     board_diff   seeds in own row - seeds in the opponent's row (the seeds
 *                  that the repetition and no-feed ends hand out, R-W7/R-W10);
 *     own_empty, opp_empty   empty pits (opp_empty negated);
 *     own_weak, opp_weak     pits holding 1 or 2 seeds, the ones a capture
 *                            can reach next move (opp_weak negated);
 *     own_kroo, opp_kroo     pits holding more than 12 seeds, able to lap
 *                            the board (opp_kroo negated);
 *     mobility     own moves - opponent moves, each side counted as if it
 *                  were to move now: its non-empty pits, or when the other
 *                  row is empty only those that reach it (R-W4; a lapping
 *                  move that would capture all it sowed is still counted).
 *
 *   adjikui (Adji Kui II, relay sowing), ownership respected throughout:
 *     store_diff   own store - opponent store;
 *     board_diff   seeds in own pits - seeds in the opponent's pits (what
 *                  every end rule hands out, R-K6);
 *     own_singles, opp_singles   owned pits holding exactly 1 seed, which
 *                                cannot be sown (R-K1) (opp_singles negated);
 *     own_mobility, opp_mobility legal moves: owned pits of 2+ seeds whose
 *                                relay ends within max_laps (R-K3);
 *     own_threats, opp_threats   legal moves whose relay ends by capturing
 *                                a four (R-K2 rule 1), each side tried as
 *                                if it were to move now.
 */
#ifndef NK_FEATURES_H
#define NK_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/rules.h"

enum { NK_MAX_FEATURES = 32 };

/* One feature: a config/HDF5 key and its definition in one line. */
typedef struct nk_feature {
    const char *name;
    const char *description;
} nk_feature;

/* A named feature set: a const "type object" chosen by name. */
typedef struct nk_feature_set {
    const char *name;              /* "ayo12", "positional", ... */
    const char *title;             /* one line for people */
    size_t count;                  /* number of features, <= NK_MAX_FEATURES */
    const nk_feature *features;    /* [count], in weight order */
    const double *defaults;        /* [count] hand-tuned weights */
    unsigned sowings;              /* mask of (1u << nk_sowing) it suits */
    /* Writes the count features of pos, from the side to move's view. */
    void (*compute)(const nk_variant *v, const nk_pos *pos, int *out);
    /* The name shared by readings of the same terms (the weight tables of
     * one reading fit the others), or NULL. */
    const char *family;
} nk_feature_set;

/* Number of feature sets and the i-th, in a fixed order. */
size_t nk_features_count(void);
const nk_feature_set *nk_features_at(size_t i);
/* The set of that name, or NULL. */
const nk_feature_set *nk_features_find(const char *name);
/* The name of set i, NULL past the end (the choices of player.features). */
const char *nk_features_name_at(size_t i);
/* The set a player uses when its spec names none: positional for the
 * Warri family, adjikui for relay sowing. */
const nk_feature_set *nk_features_default(const nk_variant *v);
/* NK_OK if the set makes sense for the variant; else NK_EINVAL and a
 * message naming the sets that do. */
nk_status nk_features_check(const nk_feature_set *set, const nk_variant *v, char *err,
                            size_t errlen);
/* Writes the names of all sets as "a, b, c" (for error messages). */
void nk_features_list(char *out, size_t len);

/* A built-in weight table, so that published players can be rebuilt. */
typedef struct nk_weights {
    const char *name;      /* "ayo2004-d3" */
    const char *features;  /* name of the feature set (or family) it weighs */
    const char *source;    /* where the numbers come from */
    size_t count;
    const double *w;
} nk_weights;

/* The built-in table of that name, or NULL (a name that is not built in is
 * left to the io layer: a weights file, a run file's individual). */
const nk_weights *nk_weights_builtin(const char *name);
size_t nk_weights_count(void);
/* Whether table t weighs set (its own set, or one of the same family). */
bool nk_weights_suit(const nk_weights *t, const nk_feature_set *set);
const nk_weights *nk_weights_at(size_t i);

/* ===== linear evaluation ===== */

/* Score scale: a finished game scores its seed difference times
 * NK_SCORE_SEED (at least one seed for a win, 0 for a draw); evaluations are
 * clamped to +-NK_SCORE_EVAL_MAX, so every won game scores above every
 * unfinished position and every lost game below. */
#define NK_SCORE_SEED 1.0e6
#define NK_SCORE_EVAL_MAX 5.0e5
#define NK_SCORE_INF 1.0e12

/* An evaluation of any family (search/eval.h): a linear set has set and w;
 * the n-tuple family has nt and tw (both owned: nk_eval_free), the network
 * family nn and tw (likewise), and set points at a stand-in without
 * features (its name "ntuple" or "nnet"). */
typedef struct nk_eval {
    const nk_variant *variant;
    const nk_feature_set *set;
    double w[NK_MAX_FEATURES];
    struct nk_ntuple *nt; /* the n-tuple layout, NULL for a linear set */
    double *tw;           /* its nt->count (or nn->count) weights */
    struct nk_nnet *nn;   /* the network's shape, NULL for other families */
} nk_eval;

/* Sets up an evaluation: w holds n = set->count weights (NULL: the set's
 * defaults).  NK_EINVAL if the set does not suit v or n is wrong; NK_ERANGE
 * for a weight that is not finite. */
nk_status nk_eval_init(nk_eval *e, const nk_variant *v, const nk_feature_set *set,
                       const double *w, size_t n, char *err, size_t errlen);
/* sum w_i f_i(pos) from the side to move's view (an n-tuple network: its
 * value, search/ntuple.h; a network: search/nnet.h), clamped to +-NK_SCORE_EVAL_MAX. */
double nk_eval_score(const nk_eval *e, const nk_pos *pos);
/* The exact score of a game that ended in pos for that reason, from the
 * view of pos's side to move (see NK_SCORE_SEED). */
double nk_eval_terminal(const nk_variant *v, const nk_pos *pos, nk_end reason);

#endif
