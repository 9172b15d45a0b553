/*
 * play.h -- the play settings: how games are played by every command that
 * plays them (seed, games, openings, threads, ply limit, unit, match
 * games), each declared once, with one type, one default and one range.
 *
 * A play setting is a row template: NK_PLAY_<NAME>(X, P, section, name,
 * field, help) expands into one row of base/param.h's shape
 *
 *     X(P, section, name, field, TYPE, ctype, default, bounds, choices,
 *       check, rule, help)
 *
 * with everything but the key, the field and the help fixed here.  The
 * config keys that are play settings use the templates in their lists
 * (run/settings.h: experiment.seed, player.ply_limit, fitness.openings,
 * fitness.unit, fitness.match_games), and NK_PLAY_PARAMS below lists every
 * template once as the table of the command-line options (cli/util.h:
 * NK_OPT_SEED, NK_OPT_OPENINGS, ...): an option reads, checks and
 * documents its value by its row, so that the config and the command line
 * cannot disagree on a default or a range (tests/test_run_play.c).
 *
 * The one difference between the two, kept on purpose: the unit's default
 * is `auto` in a config (match for adjikui, game otherwise) and `game` on
 * the command line (so that the committed ladders and scripts, which play
 * adjikui by games, replay the same).  NK_PLAY_UNIT therefore takes the
 * default as an argument; every other template fixes it.
 */
#ifndef NK_RUN_PLAY_H
#define NK_RUN_PLAY_H

#include <stddef.h>
#include <stdint.h>

#include "base/param.h"
#include "rules/rules.h"

#define NK_PLAY_TEXT_(x) #x
#define NK_PLAY_TEXT(x) NK_PLAY_TEXT_(x)

/* The most games (or matches) a command plays a pairing, and the most
 * threads it plays them on. */
#define NK_PLAY_MAX_GAMES 1000000
#define NK_PLAY_MAX_THREADS 1024

/* ----- the row templates ----- */

#define NK_PLAY_SEED(X, P, sec, nm, field, help)                                                   \
    X(P, sec, nm, field, UINT64, uint64_t, "1", NK_ANY, NULL, NULL, NULL, help)
/* games of a command that plays one set of games (match) or one set
 * against each opponent (rate) */
#define NK_PLAY_GAMES(X, P, sec, nm, field, help)                                                  \
    X(P, sec, nm, field, INT, int, "100", NK_RANGE(1, NK_PLAY_MAX_GAMES), NULL, NULL, NULL, help)
/* games of each pairing of a command that pairs many players (tournament,
 * ciao) */
#define NK_PLAY_PAIRING_GAMES(X, P, sec, nm, field, help)                                          \
    X(P, sec, nm, field, INT, int, "20", NK_RANGE(1, NK_PLAY_MAX_GAMES), NULL, NULL, NULL, help)
#define NK_PLAY_OPENINGS(X, P, sec, nm, field, help)                                               \
    X(P, sec, nm, field, INT, int, "2", NK_RANGE(0, 20), NULL, NULL, NULL, help)
/* no default: the number of cores */
#define NK_PLAY_THREADS(X, P, sec, nm, field, help)                                                \
    X(P, sec, nm, field, INT, int, NULL, NK_RANGE(1, NK_PLAY_MAX_THREADS), NULL, NULL, NULL, help)
#define NK_PLAY_PLY_LIMIT(X, P, sec, nm, field, help)                                              \
    X(P, sec, nm, field, INT, int, NK_PLAY_TEXT(NK_DEFAULT_PLY_LIMIT), NK_RANGE(1, NK_MAX_PLIES),  \
      NULL, NULL, NULL, help)
/* choices auto, game, match (nk_run_unit_name_at, run/settings.h); def is
 * "auto" in a config, "game" on the command line (see above) */
#define NK_PLAY_UNIT(X, P, sec, nm, field, def, help)                                              \
    X(P, sec, nm, field, ENUM, const char *, def, NK_ANY, NK_CHOICES_OF(nk_run_unit_name_at),      \
      NULL, NULL, help)
/* arena/meetings.h: NK_MATCH_GAMES_DEFAULT, NK_MATCH_GAMES_MAX (a test
 * checks that they agree) */
#define NK_PLAY_MATCH_GAMES(X, P, sec, nm, field, help)                                            \
    X(P, sec, nm, field, INT, int, "11", NK_RANGE(1, 99), NULL, NULL, NULL, help)

/* ----- the table of the command line ----- */

#define NK_PLAY_PARAMS(X, P)                                                                       \
    NK_PLAY_SEED(X, P, play, seed, seed, "master seed")                                            \
    NK_PLAY_GAMES(X, P, play, games, games, "games to play")                                       \
    NK_PLAY_PAIRING_GAMES(X, P, play, pairing_games, pairing_games, "games a pairing")             \
    NK_PLAY_OPENINGS(X, P, play, openings, openings, "random plies that open each pair of games")  \
    NK_PLAY_THREADS(X, P, play, threads, threads, "threads that play games")                       \
    NK_PLAY_PLY_LIMIT(X, P, play, ply_limit, ply_limit, "plies after which a game ends")           \
    NK_PLAY_UNIT(X, P, play, unit, unit, "game", "what a result is")                               \
    NK_PLAY_MATCH_GAMES(X, P, play, match_games, match_games, "the most games of a match")

typedef struct nk_play_settings {
    NK_PLAY_PARAMS(NK_PARAM_FIELD, _)
} nk_play_settings;

/* The rows' indices: NK_PLAY_ROW_seed, NK_PLAY_ROW_games, ... */
#define NK_PLAY_ROW_INDEX(P, sec, nm, ...) NK_PLAY_ROW_##nm,
enum { NK_PLAY_PARAMS(NK_PLAY_ROW_INDEX, _) NK_PLAY_ROWS };

/* The table: nk_play_table[NK_PLAY_ROW_x] describes the field x of
 * nk_play_settings (section "play"). */
extern const nk_param nk_play_table[NK_PLAY_ROWS];

/* Fills s with the rows' defaults (threads: 0, none). */
void nk_play_settings_defaults(nk_play_settings *s);

#endif
