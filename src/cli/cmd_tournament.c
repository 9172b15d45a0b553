/*
 * cmd_tournament.c -- `nickar tournament`: many players, every pairing (or
 * the first player against each other) in colour-swapped pairs of games,
 * a cross table and a maximum-likelihood rating list (arena/rating.h),
 * everything kept in a tournament file (io/tourfile.h).
 *
 * The tournament itself -- schedule, batches, tallies, ratings, resuming --
 * is run/tournament.h; this command reads the options and the players,
 * writes the file whole (through FILE.tmp) before the first game and after
 * each batch, stops between batches on SIGINT or SIGTERM, and prints.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena/meetings.h"
#include "base/alloc.h"
#include "base/param.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/util.h"
#include "exec/exec.h"
#include "io/playerio.h"
#include "io/tourfile.h"
#include "run/settings.h"
#include "run/tournament.h"

enum {
    OPT_VARIANT,
    OPT_PLAYERS,
    OPT_FORMAT,
    OPT_GAMES,
    OPT_OPENINGS,
    OPT_SEED,
    OPT_THREADS,
    OPT_PLY_LIMIT,
    OPT_OUTPUT,
    OPT_RESUME,
    OPT_FORCE,
    OPT_ANCHOR,
    OPT_JSON,
    OPT_CSV,
    OPT_QUIET,
    OPT_UNIT,
    OPT_MATCH_GAMES,
    OPT_END
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

typedef struct tourney {
    const nk_cli *cli;
    const nk_variant *variant;
    nk_player_list list;
    nk_tour_settings set;
    uint64_t threads;
    uint64_t odd_games; /* --games N when N was odd (rounded up), else 0 */
    const char *output;
    bool resume, force, json, csv, quiet;
} tourney;

/* --anchor NAME=ELO: the name is everything before the last '=' (specs
 * hold '=' themselves). */
static int read_anchor(tourney *t, const char *text)
{
    const nk_cli *cli = t->cli;
    if (text == NULL) {
        snprintf(t->set.anchor, sizeof t->set.anchor, "%s", t->list.p[0].name);
        t->set.anchor_elo = 0;
        return NK_EXIT_OK;
    }
    const char *eq = strrchr(text, '=');
    double elo = NAN;
    if (eq == NULL || eq == text || nk_param_read_double(eq + 1, &elo) != NK_OK ||
        fabs(elo) > 1e6) {
        nk_cli_error(cli, "--anchor '%s': give NAME=ELO, e.g. --anchor random=0", text);
        return NK_EXIT_USAGE;
    }
    size_t len = (size_t)(eq - text);
    for (size_t i = 0; i < t->list.n; i++)
        if (strlen(t->list.p[i].name) == len && strncmp(t->list.p[i].name, text, len) == 0) {
            snprintf(t->set.anchor, sizeof t->set.anchor, "%s", t->list.p[i].name);
            t->set.anchor_elo = elo;
            return NK_EXIT_OK;
        }
    nk_cli_error(cli,
                 "--anchor '%.*s': no player of that name (the names are those the "
                 "rating list shows)",
                 (int)len, text);
    return NK_EXIT_USAGE;
}

/* The players of --players FILE, then of the SPEC arguments. */
static int read_players(tourney *t, const char *file)
{
    const nk_cli *cli = t->cli;
    char err[NK_MSG_MAX];
    nk_status st = NK_OK;
    if (file != NULL) {
        st = nk_player_list_read(&t->list, file, t->variant, err, sizeof err);
        if (st != NK_OK) {
            nk_cli_error(cli, "--players: %s", err);
            return nk_cli_exit(st);
        }
    }
    for (int i = 0; i < cli->argc; i++) {
        st = nk_player_list_add(&t->list, NULL, cli->argv[i], t->variant, err, sizeof err);
        if (st != NK_OK) {
            nk_cli_error(cli, "player '%s': %s", cli->argv[i], err);
            return nk_cli_exit(st);
        }
    }
    if (t->list.n < 2) {
        nk_cli_error(cli,
                     "needs at least two players (got %zu), from --players FILE and/or SPEC "
                     "arguments; e.g. 'random greedy ab:depth=2'",
                     t->list.n);
        return NK_EXIT_USAGE;
    }
    return NK_EXIT_OK;
}

static int read_options(tourney *t, nk_opt *opts)
{
    const nk_cli *cli = t->cli;
    t->variant = nk_cli_variant(cli, opts[OPT_VARIANT].value);
    if (t->variant == NULL)
        return NK_EXIT_USAGE;
    snprintf(t->set.variant, sizeof t->set.variant, "%s", t->variant->name);
    t->threads = 0;
    t->output = opts[OPT_OUTPUT].value;
    t->resume = opts[OPT_RESUME].value != NULL;
    t->force = opts[OPT_FORCE].value != NULL;
    t->json = opts[OPT_JSON].value != NULL;
    t->csv = opts[OPT_CSV].value != NULL;
    t->quiet = opts[OPT_QUIET].value != NULL;
    const char *unit = NULL;
    if (!nk_cli_number(cli, OPT_GAMES, &t->set.games) ||
        !nk_cli_number(cli, OPT_OPENINGS, &t->set.openings) ||
        !nk_cli_number(cli, OPT_SEED, &t->set.seed) ||
        !nk_cli_number(cli, OPT_THREADS, &t->threads) ||
        !nk_cli_number(cli, OPT_PLY_LIMIT, &t->set.ply_limit) ||
        !nk_cli_choice(cli, OPT_UNIT, &unit))
        return NK_EXIT_USAGE;
    t->set.unit = nk_run_unit_of(unit, t->variant);
    if (opts[OPT_MATCH_GAMES].value != NULL && t->set.unit != NK_UNIT_MATCH) {
        nk_cli_error(cli, "--match-games needs --unit match");
        return NK_EXIT_USAGE;
    }
    t->set.match_games = 0; /* unit game */
    if (t->set.unit == NK_UNIT_MATCH && !nk_cli_number(cli, OPT_MATCH_GAMES, &t->set.match_games))
        return NK_EXIT_USAGE;
    const char *format = opts[OPT_FORMAT].value;
    if (format == NULL || strcmp(format, "round-robin") == 0) {
        t->set.format = NK_TOUR_ROUND_ROBIN;
    } else if (strcmp(format, "gauntlet") == 0) {
        t->set.format = NK_TOUR_GAUNTLET;
    } else {
        nk_cli_error(cli, "--format '%s': give round-robin or gauntlet", format);
        return NK_EXIT_USAGE;
    }
    if (t->json && t->csv) {
        nk_cli_error(cli, "--json and --csv exclude each other");
        return NK_EXIT_USAGE;
    }
    if (t->resume && t->force) {
        nk_cli_error(cli, "--resume and --force exclude each other");
        return NK_EXIT_USAGE;
    }
    if (t->output != NULL && t->output[0] == '\0') {
        nk_cli_error(cli, "option '--output' needs a file name");
        return NK_EXIT_USAGE;
    }
    if ((t->resume || t->force) && t->output == NULL) {
        nk_cli_error(cli, "--%s needs --output FILE", t->resume ? "resume" : "force");
        return NK_EXIT_USAGE;
    }
    int rc = read_players(t, opts[OPT_PLAYERS].value);
    if (rc != NK_EXIT_OK)
        return rc;
    rc = read_anchor(t, opts[OPT_ANCHOR].value);
    if (rc != NK_EXIT_OK)
        return rc;
    if (t->set.games % 2 != 0)
        t->odd_games = t->set.games++; /* the note comes last */
    return NK_EXIT_OK;
}

/* ===== the file and resuming ===== */

/* Refuses an existing --output without --resume or --force; *resume: a
 * file is there to continue. */
static int check_output(const tourney *t, bool *resume)
{
    *resume = false;
    if (t->output == NULL)
        return NK_EXIT_OK;
    struct stat sb;
    bool exists = stat(t->output, &sb) == 0;
    if (exists && !t->resume && !t->force) {
        nk_cli_error(t->cli,
                     "'%s' already exists; --resume continues its tournament, --force "
                     "replaces it",
                     t->output);
        return NK_EXIT_USAGE;
    }
    if (t->resume && !exists && !t->quiet)
        nk_cli_note("no tournament file '%s' yet: starting the tournament", t->output);
    *resume = exists && t->resume;
    return NK_EXIT_OK;
}

/* The tournament of the settings, continued from --output when resuming. */
static int prepare(tourney *t, nk_tournament **out)
{
    char err[NK_MSG_MAX], created[40];
    size_t p = t->list.n;
    nk_tour_entry *entries = nk_calloc(p, sizeof *entries);
    if (entries == NULL) {
        nk_cli_error(t->cli, "out of memory for %zu players", p);
        return NK_EXIT_FAIL;
    }
    for (size_t i = 0; i < p; i++) {
        const nk_named_player *np = &t->list.p[i];
        entries[i] = (nk_tour_entry){np->name, &np->def.spec, np->def.weights, np->def.n};
    }
    nk_tour_now(created, sizeof created);
    nk_tournament_settings s = {.tour = t->set,
                                .players = entries,
                                .nplayers = p,
                                .threads = (int)t->threads,
                                .created = created};
    nk_status st = nk_tournament_alloc(out, &s, err, sizeof err);
    nk_free(entries);
    if (st != NK_OK) {
        nk_cli_error(t->cli, "%s", err);
        return nk_cli_exit(st);
    }
    bool resume;
    int rc = check_output(t, &resume);
    if (rc != NK_EXIT_OK || !resume)
        return rc;
    nk_tour old;
    st = nk_tour_read(&old, t->output, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(t->cli, "--resume: %s", err);
        return nk_cli_exit(st);
    }
    /* go on from the file: its games, its creation time */
    st = nk_tournament_restore(*out, &old, err, sizeof err);
    nk_tour_free(&old);
    if (st == NK_EMISMATCH) {
        nk_cli_error(t->cli, "--resume: '%s' is another tournament: %s", t->output, err);
        return NK_EXIT_USAGE;
    }
    if (st != NK_OK) {
        nk_cli_error(t->cli, "--resume: %s", err);
        return nk_cli_exit(st);
    }
    const nk_tour *tour = nk_tournament_record_of(*out);
    if (!t->quiet)
        nk_cli_note("resuming '%s' after %zu of %zu meetings", t->output, tour->meetings_done,
                    nk_tour_meetings_total(tour));
    return NK_EXIT_OK;
}

/* ===== playing ===== */

static const char *unit_plural(const nk_tour_settings *s)
{
    return s->unit == NK_UNIT_MATCH ? "matches" : "games";
}

/* Plays batch after batch, writing the file after each, until the end or
 * a signal. */
static int play(tourney *t, nk_tournament *run)
{
    char err[NK_MSG_MAX];
    const nk_tour *tour = nk_tournament_record_of(run);
    size_t total = nk_tour_meetings_total(tour);
    nk_status st = NK_OK;
    bool tty = isatty(STDERR_FILENO) && !t->quiet;
    /* a new tournament's file is written before the first game, so that a
     * path that cannot be written is an error before any work */
    if (t->output != NULL && tour->meetings_done == 0)
        st = nk_tour_write(tour, t->output, err, sizeof err);
    while (st == NK_OK && !nk_tournament_done(run) && !stop_requested) {
        st = nk_tournament_iterate(run, err, sizeof err);
        tour = nk_tournament_record_of(run);
        if (st == NK_OK && t->output != NULL)
            st = nk_tour_write(tour, t->output, err, sizeof err);
        if (st == NK_OK && tty)
            fprintf(stderr, "\r\033[K%s %zu of %zu", unit_plural(&t->set), 2 * tour->meetings_done,
                    2 * total);
    }
    if (tty)
        fputc('\n', stderr);
    if (st != NK_OK) {
        nk_cli_error(t->cli, "%s", err);
        return nk_cli_exit(st);
    }
    if (tour->meetings_done < total) {
        if (t->output != NULL)
            nk_cli_error(t->cli,
                         "stopped after %zu of %zu %s; '%s' holds them; continue with "
                         "--resume",
                         2 * tour->meetings_done, 2 * total, unit_plural(&t->set), t->output);
        else
            nk_cli_error(t->cli, "stopped after %zu of %zu %s", 2 * tour->meetings_done, 2 * total,
                         unit_plural(&t->set));
        return NK_EXIT_FAIL;
    }
    if (!tour->has_ratings) {
        /* a complete round robin or gauntlet is always connected */
        nk_cli_error(t->cli, "the games give no rating list");
        return NK_EXIT_FAIL;
    }
    return NK_EXIT_OK;
}

int nk_cmd_tournament(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_PLAYERS] = {"players", "FILE",
                         "players file: one 'NAME = SPEC' a line, # comments (before the SPEC "
                         "arguments)",
                         NULL},
        [OPT_FORMAT] = {"format", "F",
                        "round-robin (every pair; default) or gauntlet (the first player "
                        "against each other)",
                        NULL},
        [OPT_GAMES] = NK_OPT_PAIRING_GAMES("games a pairing (with --unit match: matches)"),
        [OPT_OPENINGS] = NK_OPT_OPENINGS,
        [OPT_SEED] = NK_OPT_SEED,
        [OPT_THREADS] = NK_OPT_THREADS,
        [OPT_PLY_LIMIT] = NK_OPT_PLY_LIMIT,
        [OPT_OUTPUT] = {"output", "FILE",
                        "tournament file (HDF5): players, every game, the ratings; written "
                        "as games finish",
                        NULL},
        [OPT_RESUME] = {"resume", NULL,
                        "continue the tournament of --output FILE (same players and settings)",
                        NULL},
        [OPT_FORCE] = {"force", NULL, "replace an existing --output FILE", NULL},
        [OPT_ANCHOR] = {"anchor", "NAME=ELO",
                        "the player whose rating is fixed (default: the first player = 0)", NULL},
        [OPT_JSON] = {"json", NULL, "print one JSON object: players, cross table, ratings", NULL},
        [OPT_CSV] = {"csv", NULL,
                     "print CSV: the rating list, a blank line, one row per player and "
                     "opponent",
                     NULL},
        [OPT_QUIET] = {"quiet", NULL, "no progress or notes on stderr", NULL},
        [OPT_UNIT] = NK_OPT_UNIT,
        [OPT_MATCH_GAMES] = NK_OPT_MATCH_GAMES,
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "tournament",
        .synopsis = "--variant V [--players FILE] [SPEC...] [--format round-robin|gauntlet]\n"
                    "       [--games N] [--openings K] [--seed S] [--threads T] [--ply-limit L]\n"
                    "       [--output FILE [--resume|--force]] [--anchor NAME=ELO]\n"
                    "       [--unit game|match|auto [--match-games L]] [--json|--csv] [--quiet]",
        .about = "Plays a round robin (every pair of players) or a gauntlet (the first\n"
                 "player against each other): every pairing N games in colour-swapped\n"
                 "pairs from shared random openings, as nickar match plays them.  Prints\n"
                 "the rating list -- maximum-likelihood Elo ratings of a Bradley-Terry\n"
                 "model with draws as half a win, 95% intervals, games, score and the\n"
                 "likelihood of superiority over the next player -- and the cross table.\n\n"
                 "Players come from --players FILE (NAME = SPEC lines) and from SPEC\n"
                 "arguments (named by their spec).  RUN.h5@champions expands to the\n"
                 "champion of every generation of a run file, RUN.h5@champions:every=K\n"
                 "to every K-th (and the last), named <run>:g<G>.\n"
                 "With --unit match every result is a whole match (Warri to six won\n"
                 "games, Adji Kui II with bought pits), played as nickar match --unit\n"
                 "match plays it; ratings and cross table then score matches.\n"
                 "Example: nickar tournament --variant abapa random greedy ab:depth=2",
        .opts = opts,
        .max_args = -1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    tourney t = {.cli = &cli};
    rc = read_options(&t, opts);
    nk_tournament *run = NULL;
    if (rc == NK_EXIT_OK)
        rc = prepare(&t, &run);
    if (rc == NK_EXIT_OK) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        rc = play(&t, run);
    }
    if (rc == NK_EXIT_OK) {
        rc = nk_report_tournament(&cli, nk_tournament_record_of(run),
                                  t.json  ? NK_REPORT_JSON
                                  : t.csv ? NK_REPORT_CSV
                                          : NK_REPORT_TEXT);
        if (rc == NK_EXIT_OK)
            rc = nk_cli_finish(&cli);
    }
    /* after every check and write: an error stays the one line */
    if (rc == NK_EXIT_OK && t.odd_games != 0 && !t.quiet)
        nk_cli_error(&cli,
                     "note: --games %llu is odd; playing %llu a pairing (colour-swapped pairs)",
                     (unsigned long long)t.odd_games, (unsigned long long)t.set.games);
    nk_tournament_free(run);
    nk_player_list_free(&t.list);
    return rc;
}
