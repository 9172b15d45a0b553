/*
 * player.h -- the player interface and player specs.
 *
 * A player chooses a move for a live game.  Players are named by a *spec*
 * (`random`, `greedy`, `human`, `ab:depth=5,features=ayo12,weights=ayo2004-d3`)
 * used everywhere: command line, configs, run files.
 *
 * Layering: this layer knows no files.  nk_spec_parse() splits a spec into an
 * nk_spec; the `weights=` value is kept as text.  A built-in weight table
 * name (nk_weights_builtin) is resolved here; a file name or `RUN.h5@best` is
 * resolved by the io layer (io/playerio.h), which then calls nk_player_new()
 * with the numbers.
 *
 * A player is not thread-safe (alpha-beta owns a transposition table): each
 * thread makes its own from the same spec.  A player's choice depends only on
 * the game, its spec and the rng passed in, so results are reproducible.
 */
#ifndef NK_PLAYER_H
#define NK_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "base/param.h"
#include "rules/rules.h"
#include "search/eval.h"
#include "search/features.h"
#include "search/mcts.h"
#include "search/search.h"

typedef enum nk_player_kind {
    NK_PLAYER_RANDOM,
    NK_PLAYER_GREEDY,
    NK_PLAYER_AB,
    NK_PLAYER_HUMAN,
    NK_PLAYER_EXT, /* a program from outside (search/ext.h) */
    NK_PLAYER_MCTS /* Monte Carlo tree search (search/mcts.h) */
} nk_player_kind;

/* NK_MAX_FEATURES comes from search/features.h. */
enum { NK_SPEC_TEXT = 512 };
/* Defaults of an `ab` spec: depth 4 when it sets no depth, nodes or time;
 * a 1 MiB transposition table (32768 entries of 24 bytes, the largest
 * power of two that fits: plenty for the fixed-depth searches of
 * evolution, and it stays in a core's cache; deep or timed searches want
 * tt=64 or more). */
enum { NK_SPEC_DEFAULT_DEPTH = 4, NK_SPEC_DEFAULT_TT_MB = 1 };
/* The largest transposition table a spec (tt=) or a config (player.tt)
 * asks for, in MiB. */
enum { NK_SPEC_TT_MAX_MB = 1024 };

/* The options of an `ab` spec, declared once (base/param.h says the row
 * shape): nk_spec_parse reads them by this table (names, bounds, error
 * messages, the list of valid keys), and nk_spec_keys() lists them for
 * help texts.  The fields are those of nk_spec below.  depth has no default
 * in the table: a spec without depth, nodes and time gets
 * NK_SPEC_DEFAULT_DEPTH. */
#define NK_SPEC_PARAMS(X, P)                                                                 \
    NK_SPEC_LIMIT_PARAMS(X, P, ab)                                                           \
    X(P, ab, tt, tt_mb, INT, unsigned, "1", NK_RANGE(0, NK_SPEC_TT_MAX_MB), NULL, NULL,       \
      "a whole number of MiB", "transposition table size in MiB (0: none)")                  \
    NK_SPEC_EVAL_PARAMS(X, P)                                                                \
    X(P, ab, view, view, STRING, char *, "mover", NK_ANY, NULL, nk_spec_check_view,           \
      "mover or root",                                                                       \
      "whose view leaves are evaluated from: mover (negamax) or root (the root player's)")    \
    X(P, ab, tb, tb, STRING, char *, "", NK_ANY, NULL, nk_spec_check_tb,                     \
      "a directory of endgame databases",                                                    \
      "endgame database directory: exact values at nodes inside it (empty: none)")

/* The search limits, keys of `ab` and `ext` specs alike (section sec). */
#define NK_SPEC_LIMIT_PARAMS(X, P, sec)                                                       \
    X(P, sec, depth, depth, INT, unsigned, NULL, NK_RANGE(1, NK_SEARCH_MAX_DEPTH), NULL, NULL, \
      "a whole number of plies", "fixed search depth in plies")                               \
    X(P, sec, nodes, nodes, UINT64, uint64_t, NULL, NK_ATLEAST(1), NULL, NULL,                 \
      "a positive whole number", "node budget per move")                                      \
    X(P, sec, time, seconds, DOUBLE, double, NULL, NK_ABOVE_TO(0, 86400), NULL, NULL,          \
      "a number of seconds", "time budget per move, in seconds")

/* The evaluation's options, which `mcts` shares (with its NK_MCTS_PARAMS,
 * search/mcts.h). */
#define NK_SPEC_EVAL_PARAMS(X, P)                                                            \
    X(P, ab, features, features, STRING, char *, "", NK_ANY, NULL, nk_spec_check_features,    \
      "a feature set, ntuple[:layout=L:cap=C] or nnet[:hidden=H:act=A]",                   \
      "feature set or evaluation family (empty: the variant's default)")                         \
    X(P, ab, weights, weights, STRING, char *, "", NK_ANY, NULL, nk_spec_check_weights,       \
      "a built-in table, default, or a file or run for the io layer",                        \
      "weights (empty: the feature set's hand-tuned default)")

/* The extra rules of features= and weights= (nk_param_check). */
nk_status nk_spec_check_features(char *text, size_t cap, char *why, size_t whylen);
nk_status nk_spec_check_weights(char *text, size_t cap, char *why, size_t whylen);
nk_status nk_spec_check_view(char *text, size_t cap, char *why, size_t whylen);
nk_status nk_spec_check_tb(char *text, size_t cap, char *why, size_t whylen);
/* The table of NK_SPEC_PARAMS over nk_spec; *n its length. */
const nk_param *nk_spec_params_table(size_t *n);
/* Writes the option names of an ab spec, "depth, nodes, ...", into
 * buf[len]; returns buf. */
char *nk_spec_keys(char *buf, size_t len);
/* The table of an mcts spec (NK_MCTS_PARAMS, then features and weights). */
const nk_param *nk_spec_mcts_table(size_t *n);

/* A parsed player spec. */
typedef struct nk_spec {
    nk_player_kind kind;
    unsigned depth;          /* ab: fixed depth (0: none, use a budget) */
    uint64_t nodes;          /* ab: node budget per move (0: none) */
    double seconds;          /* ab: time budget per move (0: none) */
    unsigned tt_mb;          /* ab: transposition table size, MiB */
    char features[NK_NTUPLE_TEXT]; /* ab: feature set name or family text (search/eval.h) */
    char weights[NK_SPEC_TEXT]; /* ab: weights source as written ("" = the set's default) */
    char view[8];            /* ab: "mover" (negamax) or "root" (search.h, nk_view) */
    char tb[NK_SPEC_TEXT];   /* ab: endgame database directory ("" = none) */
    nk_mcts_params mcts;     /* mcts (search/mcts.h); features and weights above */
    double timeout;          /* ext: seconds to wait for an answer (search/ext.h) */
    double start;            /* ext: seconds to wait for the handshake */
    char command[NK_SPEC_TEXT]; /* ext: the program and its arguments */
    char text[NK_SPEC_TEXT]; /* the spec as given (ext: spaces as %20) */
} nk_spec;

/* Sets option key=val of a spec from table[0..n) (a kind's keys): checks
 * and stores it, and marks it in *seen (one bit per row) so that a key
 * given twice is refused; the message names spec->text. */
nk_status nk_spec_option(nk_spec *spec, const nk_param *table, size_t n, const char *key,
                         const char *val, unsigned *seen, char *err, size_t errlen);

/* Splits and checks a spec; on error says which part is wrong and lists the
 * valid choices.  Grammar: `random` | `greedy` | `human` |
 * `ext:[KEY=VALUE,...]COMMAND` (search/ext.h) |
 * `ab[:KEY=VALUE[,KEY=VALUE...]]` with the keys of NK_SPEC_PARAMS: depth
 * (1..64 plies), nodes (node budget per move), time (seconds per move), tt
 * (MiB, 0..NK_SPEC_TT_MAX_MB, 0: no table),
 * features (a set of nk_features_at, or an evaluation family's text,
 * search/eval.h: `ntuple:layout=ring3`), weights (a built-in table, `default`,
 * or text for the io layer: a file name, `RUN.h5@best`; it cannot hold a
 * comma), view (`mover`, the default, or `root`: search.h), tb (a
 * directory of endgame databases, tb/tb.h: opened by the io layer through
 * nk_tb_shared_open before nk_player_new, which only looks it up).  A built-in
 * table implies its feature set when features= is absent; an explicit
 * features= must be one it weighs (nk_weights_suit).  An empty features means the
 * variant's default set (nk_features_default), an empty weights the set's
 * hand-tuned default.  `mcts[:KEY=VALUE,...]` takes the keys of
 * NK_MCTS_PARAMS (search/mcts.h) and features= and weights=, which need a
 * cutoff (the evaluation scores only the playouts cut off). */
nk_status nk_spec_parse(nk_spec *spec, const char *text, char *err, size_t errlen);

typedef struct nk_player nk_player;

/* What a player says about its last choice (for `play` and logs). */
typedef struct nk_think {
    int move;
    double score;       /* from the mover's view, in search.h's scale (a finished
                           game: seeds x NK_SCORE_SEED); 0 for players without one */
    unsigned depth;     /* depth reached (ab) */
    uint64_t nodes;     /* nodes searched (ab) */
} nk_think;

/* Makes a player for variant v.  weights (n numbers, n = the feature set's
 * size) may be NULL for non-ab players or to use spec->weights when that
 * names a built-in table, else the set's hand-tuned default.  A family
 * other than linear (search/eval.h) takes its n weights, else those the io
 * layer put in the shared table under spec->weights, else its defaults.
 * NK_EINVAL if the feature set does not suit the variant. */
nk_status nk_player_new(nk_player **out, const nk_spec *spec, const nk_variant *v,
                        const double *weights, size_t n, char *err, size_t errlen);
/* Frees a player; NULL is allowed. */
void nk_player_free(nk_player *p);
/* Chooses a legal move of the live game g.  rng serves random players and
 * tie-breaks.  Not for human players (the CLI asks the person): they, and
 * a game that is over, get NK_NO_MOVE.  think may be NULL.  greedy: the
 * move that captures most, ties drawn with rng; ab: deterministic, rng
 * unused; ext: the engine's move, with a seed derived from rng's state
 * without drawing from it, or NK_NO_MOVE when the engine failed
 * (nk_player_fault). */
int nk_player_move(nk_player *p, const nk_game *g, nk_rng *rng, nk_think *think);
/* Why the last nk_player_move of a live game gave NK_NO_MOVE: a forfeit
 * (nk_end_forfeit: an ext player's engine failed, search/ext.h), else
 * NK_END_NONE. */
nk_end nk_player_fault(const nk_player *p);
/* The spec the player was made from. */
const nk_spec *nk_player_spec(const nk_player *p);
/* The evaluation of an ab player (feature set and weights), NULL for the
 * others. */
const nk_eval *nk_player_eval(const nk_player *p);

#endif
