/*
 * settings.h -- every setting of an evolution run as one typed struct,
 * nk_run_settings, made of the settings structs of the objects a run uses
 * (population, strategy, selection, crossover, mutation) and of the run's
 * own sections (experiment, player, fitness, benchmark).
 *
 * Every parameter is declared once, in an X-macro list (base/param.h says
 * the row shape): the evolve objects' lists live next to their structs
 * (NK_POPULATION_PARAMS in evolve/genome.h, NK_STRATEGY_PARAMS in
 * evolve/strategy.h, NK_SELECT_PARAMS in evolve/select.h, NK_CROSS_PARAMS in
 * evolve/crossover.h, NK_MUTATE_PARAMS in evolve/mutate.h), the run's own
 * below.  NK_RUN_PARAMS(X) strings them together in config order with the
 * path of each struct inside nk_run_settings; io/config.c expands it into
 * the config schema, and nk_run_settings_defaults() into the defaults.  To
 * add a parameter: add a row to the right list and use the field; the
 * struct, the defaults, the config key, --print-config and
 * configs/README.md follow.
 *
 * Strings (const char *) borrow the text of whoever filled the struct: the
 * tables' defaults (static) or a configuration (io/config.h,
 * nk_config_settings; valid while it lives).  ENUM values are kept by name;
 * SPECS values as the canonical list text "a; b".
 */
#ifndef NK_RUN_SETTINGS_H
#define NK_RUN_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "base/param.h"
#include "base/status.h"
#include "evolve/crossover.h"
#include "evolve/genome.h"
#include "evolve/mutate.h"
#include "evolve/select.h"
#include "evolve/strategy.h"
#include "arena/meetings.h"
#include "run/play.h"
#include "run/schedule.h"
#include "search/player.h"

/* [experiment] */
#define NK_EXPERIMENT_PARAMS(X, P)                                                                 \
    X(P, experiment, name, name, STRING, const char *, "quickstart", NK_ANY, NULL,                 \
      nk_run_check_file_name,                                                                      \
      "1 to 64 letters, digits, `.`, `_`, `-`; starts with a letter or digit",                     \
      "name of the experiment: the run file is results/<name>/run.h5 unless output.file says")     \
    X(P, experiment, description, description, STRING, const char *, "", NK_ANY, NULL, NULL, NULL, \
      "free text kept in the run file")                                                            \
    NK_PLAY_SEED(X, P, experiment, seed, seed,                                                     \
                 "master seed: every game and every variation draw is seeded from it")             \
    X(P, experiment, variant, variant, ENUM, const char *, "abapa", NK_ANY,                        \
      NK_CHOICES_OF(nk_variant_name_at), NULL, NULL, "rule set played (nickar rules lists them)")  \
    X(P, experiment, generations, generations, INT, int, "30", NK_RESUME_RANGE(1, 1000000), NULL,  \
      NULL, NULL, "generations to run; may be raised on --resume to extend a run")

/* The widest weight bounds: a weight, the width of the bounds (max - min,
 * which the encodings and operators scale by, squared by CMA-ES) and a sum
 * of weights times features must all stay finite.  1e100 keeps them far
 * from DBL_MAX (about 1.8e308); wider bounds, -1e308..1e308 say, made
 * weights that are not finite numbers. */
#define NK_WEIGHT_BOUND 1e100

/* [player]: the evolving players */
#define NK_PLAYER_PARAMS(X, P)                                                                     \
    X(P, player, features, features, STRING, const char *, "positional", NK_ANY, NULL,             \
      nk_run_check_features,                                                                       \
      "a linear feature set (`material`, `positional`, ...) or an evaluation family: `ntuple[:layout=L]"      \
      "[:cap=C]` (search/eval.h)",                                                                 \
      "evaluation of the evolved players: a linear feature set (one weight per feature) or an "   \
      "evaluation family (its whole weight vector, thousands of weights, is the genome)")          \
    X(P, player, depth, depth, INT, int, "2", NK_RANGE(1, 30), NULL, NULL, NULL,                   \
      "alpha-beta depth of the evolved players, in plies")                                         \
    NK_PLAY_PLY_LIMIT(X, P, player, ply_limit, ply_limit,                                          \
                      "plies after which a game ends under the variant's ply-limit rule")          \
    X(P, player, tt, tt, INT, int, "0", NK_RANGE(0, NK_SPEC_TT_MAX_MB), NULL, NULL, NULL,          \
      "transposition table of each evolving player in MiB; 0: none (fastest at shallow "           \
      "depths)")                                                                                   \
    X(P, player, view, view, ENUM, const char *, "mover", NK_ANY, NK_CHOICES("mover", "root"),    \
      NULL, NULL,                                                                                  \
      "whose view leaves are evaluated from: mover (negamax) or root (the root player's, as "     \
      "plain minimax)")                                                                            \
    X(P, player, weights_min, weights_min, DOUBLE, double, "-1",                                   \
      NK_RANGE(-NK_WEIGHT_BOUND, NK_WEIGHT_BOUND), NULL, NULL, NULL,                               \
      "lower bound of every weight")                                                               \
    X(P, player, weights_max, weights_max, DOUBLE, double, "1",                                    \
      NK_RANGE(-NK_WEIGHT_BOUND, NK_WEIGHT_BOUND), NULL, NULL, NULL,                               \
      "upper bound of every weight")

/* The operator choices of the GA (the method key heads each section). */
#define NK_SELECTION_METHOD_PARAMS(X, P)                                                           \
    X(P, selection, method, method, ENUM, const char *, "tournament", NK_ANY,                      \
      NK_CHOICES_OF(nk_select_name_at), NULL, NULL, "ga: how parents are chosen")
#define NK_CROSSOVER_METHOD_PARAMS(X, P)                                                           \
    X(P, crossover, method, method, ENUM, const char *, "blx-alpha", NK_ANY,                       \
      NK_CHOICES_OF(nk_cross_name_at), NULL, NULL, "recombination of two parents")
#define NK_MUTATION_METHOD_PARAMS(X, P)                                                            \
    X(P, mutation, method, method, ENUM, const char *, "gaussian", NK_ANY,                         \
      NK_CHOICES_OF(nk_mutate_name_at), NULL, NULL, "mutation operator")

/* [fitness]: who meets whom, and how games score */
#define NK_FITNESS_PARAMS(X, P)                                                                    \
    X(P, fitness, schedule, schedule, ENUM, const char *, "round-robin", NK_ANY,                   \
      NK_CHOICES_OF(nk_schedule_name_at), NULL, NULL,                                              \
      "who meets whom each generation (every meeting is two games, one per colour)")               \
    X(P, fitness, sample_fraction, sample_fraction, DOUBLE, double, "0.5", NK_ABOVE_TO(0, 1),      \
      NULL, NULL, NULL, "sample: fraction of the others each individual meets")                    \
    X(P, fitness, k, k, INT, int, "4", NK_ATLEAST(1), NULL, NULL, NULL,                            \
      "random-k, hall-of-fame: opponents per individual; fitness-set: size of the shared set")                                          \
    X(P, fitness, hall_size, hall_size, INT, int, "10", NK_ATLEAST(1), NULL, NULL, NULL,           \
      "hall-of-fame: past champions kept as opponents")                                            \
    X(P, fitness, gauntlet, gauntlet, SPECS, const char *, "greedy; ab:depth=1,features=material", \
      NK_ANY, NULL, NULL, NULL, "gauntlet: the fixed opponents every individual meets")            \
    X(P, fitness, scoring, scoring, STRING, const char *, "2,1,0", NK_ANY, NULL,                   \
      nk_run_check_scoring, "`W,D,L` (points for a win, draw, loss; W >= D >= L) or `seeds`",      \
      "points per game: win,draw,loss, or seeds for the seed difference")                          \
    NK_PLAY_OPENINGS(X, P, fitness, openings, openings,                                            \
                     "random plies that open each meeting, so that deterministic players vary "    \
                     "their games")                                                                \
    NK_PLAY_UNIT(X, P, fitness, unit, unit, "auto",                                                \
                 "what a meeting scores: two games, or two whole matches (Warri to six won "       \
                 "games, Adji Kui II with bought pits; scoring then scores matches); auto: "       \
                 "match for adjikui, game otherwise")                                              \
    NK_PLAY_MATCH_GAMES(X, P, fitness, match_games, match_games,                                   \
                        "unit match: the most games of a match")                                   \
    X(P, fitness, tablebase, tablebase, STRING, const char *, "", NK_ANY, NULL, NULL, NULL,        \
      "tablebase: directory of the endgame database (DIR/VARIANT.nktb) every individual is "      \
      "graded against")                                                                            \
    X(P, fitness, tablebase_positions, tablebase_positions, INT, int, "200", NK_RANGE(1, 100000),  \
      NULL, NULL, NULL,                                                                            \
      "tablebase: positions each individual is graded on, drawn afresh each generation")          \
    X(P, fitness, tablebase_measure, tablebase_measure, ENUM, const char *, "lost", NK_ANY,        \
      NK_CHOICES("lost", "optimal"), NULL, NULL,                                                   \
      "tablebase: fitness is minus the seeds lost per move (lost) or the share of optimal "       \
      "moves (optimal)")

/* [benchmark]: the champion against fixed opponents */
#define NK_BENCHMARK_PARAMS(X, P)                                                                  \
    X(P, benchmark, every, every, INT, int, "5", NK_ATLEAST(0), NULL, NULL, NULL,                  \
      "the champion plays the benchmark every this many generations (0: never)")                   \
    X(P, benchmark, games, games, INT, int, "40", NK_ATLEAST(2), NULL, nk_run_check_even, "even",  \
      "games against each benchmark opponent, half with each colour")                              \
    X(P, benchmark, opponents, opponents, SPECS, const char *,                                     \
      "random; greedy; ab:depth=2,features=positional", NK_ANY, NULL, NULL, NULL,                  \
      "the fixed benchmark opponents")                                                             \
    X(P, benchmark, tablebase, tablebase, STRING, const char *, "", NK_ANY, NULL, NULL, NULL,      \
      "directory of an endgame database (DIR/VARIANT.nktb): at every benchmark generation the "    \
      "champion is graded against it (empty: not graded)")                                         \
    X(P, benchmark, tablebase_positions, tablebase_positions, INT, int, "200",                     \
      NK_RANGE(1, 100000), NULL, NULL, NULL,                                                       \
      "benchmark.tablebase: positions the champion is graded on")

/* [tune]: `nickar tune`, an evaluation fitted to an endgame database
 * (run/tune.h); evolve does not read them */
#define NK_TUNE_PARAMS(X, P)                                                                       \
    X(P, tune, tablebase, tablebase, STRING, const char *, "", NK_ANY, NULL, NULL, NULL,           \
      "directory of the endgame database (DIR/VARIANT.nktb) whose values are fitted")             \
    X(P, tune, loss, loss, ENUM, const char *, "logistic", NK_ANY,                                 \
      NK_CHOICES("logistic", "least-squares"), NULL, NULL,                                         \
      "logistic: sigmoid(eval) fitted to the result under perfect play (1, 1/2, 0); "              \
      "least-squares: eval fitted to the final seed margin under perfect play")                   \
    X(P, tune, positions, positions, INT, int, "5000", NK_RANGE(1, 1000000), NULL, NULL, NULL,     \
      "positions drawn from the reference's games inside the database to fit on")                 \
    X(P, tune, reference, reference, STRING, const char *, "ab:depth=3", NK_ANY, NULL, NULL, NULL, \
      "the player whose self-play games (from random openings) give the positions")               \
    X(P, tune, iterations, iterations, INT, int, "100", NK_RANGE(1, 100000), NULL, NULL, NULL,     \
      "logistic: the most solver iterations")                                                      \
    X(P, tune, grade_positions, grade_positions, INT, int, "1000", NK_RANGE(1, 100000), NULL,      \
      NULL, NULL, "positions the start and the result are graded on (search/grade.h)")

/* [td]: `nickar learn`, self-play TD(lambda) / TD-Leaf(lambda) learning of
 * the player's evaluation (run/td.h); evolve and tune do not read them */
#define NK_TD_PARAMS(X, P)                                                                         \
    X(P, td, games, games, INT, int, "100", NK_RANGE(1, 1000000), NULL, NULL, NULL,                \
      "self-play games per generation (the weights are stored after each generation)")            \
    X(P, td, batch, batch, INT, int, "1", NK_RANGE(1, 1024), NULL, NULL, NULL,                     \
      "games played with the same weights (in parallel), their updates then added in game "       \
      "order; 1: the weights change after every game")                                            \
    X(P, td, alpha, alpha, DOUBLE, double, "0.01", NK_ABOVE(0), NULL, NULL, NULL,                  \
      "learning rate: the step of each update along the TD error times the trace")                \
    X(P, td, alpha_schedule, alpha_schedule, ENUM, const char *, "constant", NK_ANY,               \
      NK_CHOICES("constant", "inverse"), NULL, NULL,                                               \
      "constant: td.alpha throughout; inverse: td.alpha / (1 + games played / td.alpha_games)")   \
    X(P, td, alpha_games, alpha_games, INT, int, "1000", NK_ATLEAST(1), NULL, NULL, NULL,          \
      "inverse: the games after which the rate is half of td.alpha")                              \
    X(P, td, lambda, lambda, DOUBLE, double, "0.7", NK_RANGE(0, 1), NULL, NULL, NULL,              \
      "trace decay: 0 learns from the next position's value alone, 1 from the game's result")     \
    X(P, td, epsilon, epsilon, DOUBLE, double, "0.1", NK_RANGE(0, 1), NULL, NULL, NULL,            \
      "exploration: the chance of a uniformly random legal move instead of the search's")         \
    NK_PLAY_OPENINGS(X, P, td, openings, openings,                                                 \
                     "random plies that open each self-play game")                                \
    X(P, td, leaf, leaf, BOOL, bool, "true", NK_ANY, NULL, NULL, NULL,                             \
      "TD-Leaf: a position's value is its principal variation's leaf's at player.depth "          \
      "(Baxter, Tridgell & Weaver); false: its own evaluation (TD(lambda))")                      \
    X(P, td, squash, squash, ENUM, const char *, "tanh", NK_ANY, NK_CHOICES("tanh", "none"), NULL, \
      NULL,                                                                                        \
      "tanh: tanh(eval / td.scale) learns the result (1 won, 0 drawn, -1 lost); none: eval "      \
      "learns the final seed margin")                                                              \
    X(P, td, scale, scale, DOUBLE, double, "10", NK_ABOVE(0), NULL, NULL, NULL,                    \
      "tanh: the evaluation (in seeds of the store term) whose squashed value is tanh(1)")        \
    X(P, td, start, start, ENUM, const char *, "zero", NK_ANY, NK_CHOICES("zero", "defaults"),     \
      NULL, NULL,                                                                                  \
      "the weights learning starts from: all 0 (not for a network: its hidden layer would get "  \
      "no gradient), or the family's defaults")

typedef struct nk_experiment_settings {
    NK_EXPERIMENT_PARAMS(NK_PARAM_FIELD, _)
} nk_experiment_settings;
typedef struct nk_player_settings {
    NK_PLAYER_PARAMS(NK_PARAM_FIELD, _)
} nk_player_settings;
typedef struct nk_selection_settings {
    NK_SELECTION_METHOD_PARAMS(NK_PARAM_FIELD, _)
    nk_select_params par;
} nk_selection_settings;
typedef struct nk_crossover_settings {
    NK_CROSSOVER_METHOD_PARAMS(NK_PARAM_FIELD, _)
    nk_cross_params par;
} nk_crossover_settings;
typedef struct nk_mutation_settings {
    NK_MUTATION_METHOD_PARAMS(NK_PARAM_FIELD, _)
    nk_mutate_params par;
} nk_mutation_settings;
typedef struct nk_fitness_settings {
    NK_FITNESS_PARAMS(NK_PARAM_FIELD, _)
} nk_fitness_settings;
typedef struct nk_benchmark_settings {
    NK_BENCHMARK_PARAMS(NK_PARAM_FIELD, _)
} nk_benchmark_settings;
typedef struct nk_tune_settings {
    NK_TUNE_PARAMS(NK_PARAM_FIELD, _)
} nk_tune_settings;
typedef struct nk_td_settings {
    NK_TD_PARAMS(NK_PARAM_FIELD, _)
} nk_td_settings;

/* Every setting of a run. */
typedef struct nk_run_settings {
    nk_experiment_settings experiment;
    nk_player_settings player;
    nk_population_settings population;
    nk_strategy_settings strategy;
    nk_selection_settings selection;
    nk_crossover_settings crossover;
    nk_mutation_settings mutation;
    nk_fitness_settings fitness;
    nk_benchmark_settings benchmark;
    nk_tune_settings tune;
    nk_td_settings td;
} nk_run_settings;

/* Every parameter of nk_run_settings in config order; X gets the path of
 * the field's struct inside nk_run_settings as P (the member is P.field). */
#define NK_RUN_PARAMS(X)                                                                           \
    NK_EXPERIMENT_PARAMS(X, experiment)                                                            \
    NK_PLAYER_PARAMS(X, player)                                                                    \
    NK_POPULATION_PARAMS(X, population)                                                            \
    NK_STRATEGY_PARAMS(X, strategy)                                                                \
    NK_SELECTION_METHOD_PARAMS(X, selection)                                                       \
    NK_SELECT_PARAMS(X, selection.par)                                                             \
    NK_CROSSOVER_METHOD_PARAMS(X, crossover)                                                       \
    NK_CROSS_PARAMS(X, crossover.par)                                                              \
    NK_MUTATION_METHOD_PARAMS(X, mutation)                                                         \
    NK_MUTATE_PARAMS(X, mutation.par)                                                              \
    NK_FITNESS_PARAMS(X, fitness)                                                                  \
    NK_BENCHMARK_PARAMS(X, benchmark)                                                              \
    NK_TUNE_PARAMS(X, tune)                                                                        \
    NK_TD_PARAMS(X, td)

/* An X for NK_RUN_PARAMS: the nk_param row of a field of nk_run_settings. */
#define NK_RUN_PARAM_ROW(P, sec, nm, field, T, ctype, ...)                                         \
    NK_PARAM_DESCRIBE(nk_run_settings, P.field, sec, nm, T, __VA_ARGS__)

/* The choices of fitness.unit: "auto", "game", "match"; NULL past them. */
const char *nk_run_unit_name_at(size_t i);
/* What fitness.unit means for a variant: auto is match for Adji Kui II
 * (adjikui) and game for every other variant. */
nk_arena_unit nk_run_unit_of(const char *unit, const nk_variant *variant);

/* The extra rules of single keys (nk_param_check). */
nk_status nk_run_check_file_name(char *text, size_t cap, char *why, size_t whylen);
nk_status nk_run_check_scoring(char *text, size_t cap, char *why, size_t whylen);
nk_status nk_run_check_even(char *text, size_t cap, char *why, size_t whylen);
/* player.features: any text nk_eval_features_check takes (search/eval.h). */
nk_status nk_run_check_features(char *text, size_t cap, char *why, size_t whylen);

/* The table of NK_RUN_PARAMS over nk_run_settings; *n its length. */
const nk_param *nk_run_params_table(size_t *n);
/* Fills s with the tables' defaults (the values of an empty config file). */
void nk_run_settings_defaults(nk_run_settings *s);

/* The evolving players of a run, as everything that plays them again must
 * make them: the evolution loop (run/evolution.c), a recorded game played
 * again (RUN.h5@game=K, io/regen.c), a run's champions in a tournament
 * (RUN.h5@champions, io/playerio.c) and in `nickar ciao` (io/ciaofile.c).
 * Every key of NK_PLAYER_PARAMS shapes either this player or the genome
 * (player.weights_min, .weights_max: nk_run_settings_strategy); a new
 * player key goes into nk_run_player_of, and test_run_settings fails
 * while one changes neither. */
typedef struct nk_run_player {
    /* "ab:depth=D,features=F,tt=T" and ",view=root" for view = root, as
     * parsed by nk_spec_parse; the weights are the individual's */
    nk_spec spec;
    unsigned ply_limit; /* player.ply_limit: where the players' games end */
} nk_run_player;
/* Fills *out from s.  NK_EINVAL (a message "player: ...") for a spec that
 * does not parse: settings that no config check made. */
nk_status nk_run_player_of(const nk_run_settings *s, nk_run_player *out, char *err, size_t len);

/* The size the strategy is made with (nk_strategy_params.size), as the
 * strategy takes it from the settings (nk_strategy_type.size_of):
 * population.size for the GA, strategy.lambda (the offspring per
 * generation) for the ES and CMA-ES.  0 for an unknown strategy.kind. */
size_t nk_run_settings_size(const nk_run_settings *s);
/* The individuals a generation of a run of s evaluates: every individual
 * of the population the strategy asks for (nk_strategy_size, which the
 * loop plays in full, run/evolution.c), as the strategy counts it
 * (nk_strategy_type.evaluated): population.size for the GA,
 * strategy.mu + strategy.lambda for the (mu+lambda)-ES, whose mu parents
 * carried over are played and evaluated again beside their lambda
 * offspring (self-play fitness is relative), strategy.lambda for the
 * (mu,lambda)-ES and CMA-ES.  What the fitness schedules see.  0 for an
 * unknown strategy.kind. */
size_t nk_run_settings_evaluated(const nk_run_settings *s);

/* ===== the rules across keys ===== */

/* A rule across keys that settings break, as "<a><mid><b><tail>": a and b
 * are keys (b may be NULL: then "<a><mid>"), mid and tail the words
 * between and after them, spaces included.  io/config.c writes each key
 * with its value and where it was set. */
typedef struct nk_run_clash {
    const char *a, *b;
    char mid[160];
    const char *tail;
} nk_run_clash;

/* The rules across keys, checked once every key has its value (single
 * keys are checked by their rows): the weight bounds, the strategy's own
 * (nk_strategy_type.clash), operators against the genome encoding, the
 * fitness schedule against the individuals evaluated, the benchmark's
 * players.  NK_OK, or the status of the first rule s breaks (NK_ERANGE for
 * numbers, NK_EINVAL otherwise) with *c saying it.  s must hold known
 * names (strategy.kind, the methods, fitness.schedule: what a config
 * allows). */
nk_status nk_run_settings_check(const nk_run_settings *s, nk_run_clash *c);
/* The number of rules; rule i in words, one line of markdown for
 * configs/README.md, into buf[len]; returns buf. */
size_t nk_run_rule_count(void);
char *nk_run_rule_doc(size_t i, char *buf, size_t len);

/* Builds the genome (dim weights, by population.* and the player's weight
 * bounds) and the strategy with its operators (strategy.*, selection.*,
 * crossover.*, mutation.*) that a run of s uses.  On success the caller owns
 * both (nk_strategy_free, then nk_genome_free: the strategy borrows the
 * genome); on failure both are NULL.  NK_EINVAL for an unknown name (the
 * message names the key and lists the choices), else what nk_genome_alloc
 * and nk_strategy_alloc return. */
nk_status nk_run_settings_strategy(const nk_run_settings *s, size_t dim, nk_genome **genome,
                                   nk_strategy **strategy, char *err, size_t len);

#endif
