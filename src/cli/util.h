/*
 * util.h -- helpers shared by the subcommands of the nickar command.
 *
 * A subcommand describes its options once, in a table of nk_opt; that table
 * drives both the parsing of argv and the text of --help.  The helpers that
 * read a number, a variant or a position print, on failure, exactly one line
 * "nickar <command>: <what is wrong>" on stderr and return false (or NULL);
 * the subcommand then returns NK_EXIT_USAGE.  Nothing here exits.
 *
 * Typical use:
 *
 *     nk_opt opts[] = {
 *         [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules)"},
 *         [OPT_JSON] = {"json", NULL, "print one JSON object"},
 *         [OPT_END] = {NULL},
 *     };
 *     nk_cli cli = {.name = "show", .synopsis = "--variant V [--json]",
 *                   .about = "...", .opts = opts};
 *     int rc = nk_cli_parse(&cli, argc, argv);
 *     if (rc != NK_CLI_GO)
 *         return rc;
 *     const nk_variant *v = nk_cli_variant(&cli, opts[OPT_VARIANT].value);
 */
#ifndef NK_CLI_UTIL_H
#define NK_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "base/param.h"
#include "rules/rules.h"
#include "run/play.h"

/* One option of a subcommand, written `--name value`, `--name=value` or,
 * for a flag, `--name`. */
typedef struct nk_opt {
    const char *name;  /* long name without the dashes: "variant" */
    const char *arg;   /* placeholder of the value in --help ("V"); NULL: a flag */
    const char *help;  /* one line for --help */
    const char *value; /* set by nk_cli_parse: the value (the last one given),
                          "" for a flag that was given, NULL when absent */
    /* The typed row of an option whose value is a play setting (run/play.h),
     * else NULL: --help then ends the line with the row's default and range,
     * and nk_cli_number / nk_cli_choice read the value by the row. */
    const nk_param *param;
} nk_opt;

/* An option that is play setting `row` of run/play.h (NK_PLAY_ROW_...). */
#define NK_OPT_PLAY(name, arg, row, help)                                                          \
    {name, arg, help, NULL, &nk_play_table[NK_PLAY_ROW_##row]}

/* The play-setting options that the commands playing games share (match,
 * tournament, ciao, rate), each written once: `[OPT_SEED] = NK_OPT_SEED,`
 * in a command's table; --help adds the row's default and range.
 * NK_OPT_GAMES counts the games of one set (default 100), NK_OPT_PAIRING_GAMES
 * those of each pairing (default 20); both take what N counts. */
#define NK_GAMES_ROUNDED "; an odd N is rounded up to whole colour-swapped pairs"
#define NK_OPT_GAMES(what) NK_OPT_PLAY("games", "N", games, what NK_GAMES_ROUNDED)
#define NK_OPT_PAIRING_GAMES(what) NK_OPT_PLAY("games", "N", pairing_games, what NK_GAMES_ROUNDED)
#define NK_OPT_OPENINGS                                                                            \
    NK_OPT_PLAY("openings", "K", openings, "random plies that open each pair of games; 0: none")
#define NK_OPT_SEED NK_OPT_PLAY("seed", "S", seed, "master seed of the openings and players")
#define NK_OPT_THREADS                                                                             \
    NK_OPT_PLAY("threads", "T", threads,                                                           \
                "threads that play games; default: the number of cores; the results do not "       \
                "depend on it")
#define NK_OPT_PLY_LIMIT NK_OPT_PLAY("ply-limit", "L", ply_limit, "plies after which a game ends")
#define NK_OPT_UNIT                                                                                \
    NK_OPT_PLAY("unit", "game|match|auto", unit,                                                   \
                "what a result is: a game, or with match colour-swapped pairs of whole matches "   \
                "(Warri to six won games, Adji Kui II with bought pits), --games N then "          \
                "counting matches; auto: match for adjikui, game otherwise")
#define NK_OPT_MATCH_GAMES                                                                         \
    NK_OPT_PLAY("match-games", "L", match_games, "with --unit match: the most games of a match")

/* A subcommand's interface. */
typedef struct nk_cli {
    const char *name;     /* "show": messages start with "nickar show: " */
    const char *synopsis; /* printed after "usage: nickar show " */
    const char *about;    /* paragraph(s) for --help, may be NULL */
    nk_opt *opts;         /* terminated by an entry whose name is NULL */
    int max_args;         /* operands allowed at most; -1: any number */
    /* Set by nk_cli_parse: the operands (arguments that are not options),
     * in order.  They point into the caller's argv. */
    int argc;
    char **argv;
} nk_cli;

/* nk_cli_parse's answer when the subcommand should go on. */
enum { NK_CLI_GO = -1 };

/* Parses argv (argv[0] is the subcommand's name).  Options may come before,
 * between and after operands; `--` ends the options; a lone `-` is an
 * operand.  Returns NK_CLI_GO to go on, nk_cli_finish's answer after printing
 * --help (or -h) on stdout, NK_EXIT_USAGE after a one-line message on stderr (unknown
 * option, missing value, value given to a flag, too many operands).
 * Rearranges the elements of argv. */
int nk_cli_parse(nk_cli *cli, int argc, char **argv);

/* Prints "nickar <name>: <message>\n" on stderr ("nickar: <message>" when
 * cli is NULL).  The message is escaped as a whole (base/escape.h: control
 * characters and bytes that are not UTF-8 as \n, \t, \xHH), so it is one
 * line whatever input it quotes.  Every message of src/cli goes through
 * here or nk_cli_note. */
void nk_cli_error(const nk_cli *cli, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints the message, escaped the same way, as one line on stderr without
 * a prefix (notes such as "resuming 'run.h5' after generation 3"). */
void nk_cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copies text into buf (len bytes) for quoting in a one-line message:
 * nk_escape (base/escape.h): non-printable characters and bytes that are
 * not UTF-8 are written as \n, \t or \xHH, and a text too long for buf
 * is cut with "...".  Returns buf. */
const char *nk_cli_quote(const char *text, char *buf, size_t len);

/* Reads a decimal integer in [min, max] from the value of option opts[opt]
 * (which must have been given).  On failure says which option and why. */
bool nk_cli_uint(const nk_cli *cli, int opt, uint64_t min, uint64_t max,
                 uint64_t *out);

/* The value of option opts[opt], a whole-number play setting (its param is
 * an INT or UINT64 row): the value given, checked by the row's type and
 * range (base/param.h, nk_param_parse_scalar), or the row's default when
 * the option is absent (*out unchanged when the row has none).  On failure
 * says which option and why: "bad value 'x' for --openings: expected an
 * integer from 0 to 20". */
bool nk_cli_number(const nk_cli *cli, int opt, uint64_t *out);

/* The value of option opts[opt], an ENUM play setting: the choice given,
 * or the row's default when absent.  On failure says which option and
 * lists the choices. */
bool nk_cli_choice(const nk_cli *cli, int opt, const char **out);

/* The variant named text.  NULL after a message when text is NULL (the
 * option --variant is missing) or names no variant (the message lists the
 * variants). */
const nk_variant *nk_cli_variant(const nk_cli *cli, const char *text);

/* Writes the variants' names as "antigua, speightstown, ..." into buf. */
void nk_cli_variant_names(char *buf, size_t len);

/* Reads a position in R-B3 notation, or the start position (R-B2) when text
 * is NULL.  On failure says what is wrong and where. */
bool nk_cli_position(const nk_cli *cli, const char *text, nk_pos *pos);

/* Starts a game of v from pos with the default ply limit; when the engine
 * refuses (an owners field in a game other than Adji Kui II's), says why. */
bool nk_cli_game(const nk_cli *cli, nk_game *game, const nk_variant *v,
                 const nk_pos *pos);

/* "South" or "North". */
const char *nk_cli_side_name(int side);
/* 'S' or 'N'. */
char nk_cli_side_letter(int side);

/* One sentence on a finished game: "South wins 26-22 (no-feed)" or
 * "draw 24-24 (empty-row)". */
void nk_cli_result_text(const nk_result *result, char *buf, size_t len);

/* Writes what a move did: "passes" or "plays f", then " and captures 7"
 * and " (grand slam)" when they apply (no newline). */
void nk_cli_move_text(FILE *out, int move, const nk_ply_info *info);

/* Draws the board for a person: North's row on top, read right to left
 * (F..A), South's row below (a..f), North's store at the left end and
 * South's at the right end, an arrow at the row of the side to move; pits
 * owned by the player of the other row (Adji Kui II match play) carry a
 * '*'. */
void nk_cli_board(FILE *out, const nk_pos *pos);

/* JSON output: a string with its quotes and escapes; a list of move
 * letters ["a","b"]; the members "result" ("S", "N", "draw"), "south",
 * "north", then "plies" unless plies < 0, then "reason" of a result, without
 * braces (nulls but plies while the game goes on). */
void nk_cli_json_string(FILE *out, const char *text);
void nk_cli_json_moves(FILE *out, unsigned mask);
void nk_cli_json_result(FILE *out, const nk_result *result, long plies);

/* The exit status of a command that failed with status st -- the one
 * place a status becomes an exit code:
 *
 *   0  NK_OK             success
 *   2  bad usage or bad input, the user's to fix:
 *      NK_EINVAL         malformed input: a spec, a key, a value, a line
 *      NK_ERANGE         a number outside its range
 *      NK_EILLEGAL       an illegal move
 *      NK_EOVER          a move after the end of the game
 *      NK_EFORMAT        a file that is not what it should be (not a run
 *                        file, truncated, damaged)
 *      NK_EMISMATCH      a run file made from another configuration
 *      NK_ENOFILE        an input file that cannot be opened (missing,
 *                        unreadable, a directory)
 *   1  runtime failure, not the input's fault:
 *      NK_ENOMEM         out of memory
 *      NK_EIO            reading or writing failed (a full disk, a lock
 *                        held by another process, a file that cannot be
 *                        created)
 *      NK_EINTERRUPTED   stopped by a signal
 *      any other value   (a code this table does not know)
 *
 * Usage errors found by the CLI itself (an unknown option, a bad number)
 * return NK_EXIT_USAGE directly; a failed write of the output is 1. */
int nk_cli_exit(nk_status st);

/* Flushes stdout; on a write error (a full disk, a closed pipe) says so and
 * returns NK_EXIT_FAIL, else NK_EXIT_OK. */
int nk_cli_finish(const nk_cli *cli);

#endif
