/*
 * report.h -- printers that more than one command uses, so that no command
 * calls into another: a tournament's rating list, cross table and
 * pairings (`nickar tournament`, and `nickar inspect` of a tournament
 * file); the line that says how to play a run's champion (`nickar evolve`
 * and `nickar inspect` of a run file).
 */
#ifndef NK_CLI_REPORT_H
#define NK_CLI_REPORT_H

#include "cli/util.h"
#include "io/runfile.h"
#include "run/tournament.h"

typedef enum nk_report_mode {
    NK_REPORT_TEXT = 0, /* the rating list, cross table and pairings as text */
    NK_REPORT_JSON = 1, /* one JSON object */
    NK_REPORT_CSV = 2   /* the rating list, a blank line, the pairings */
} nk_report_mode;

/* Prints a tournament (run/tournament.h) on stdout, with its Nash average
 * when it is a finished round robin.  Returns the exit code (out of
 * memory: a message for cli, NK_EXIT_FAIL). */
int nk_report_tournament(const nk_cli *cli, const nk_tour *tour, nk_report_mode mode);

/* Prints "PREFIX nickar play --variant V --opponent 'ab:depth=4,...'":
 * the champion of the run file path (meta: its stored metadata) searched
 * to depth 4 with the run's feature set and leaf view (nk_run_player_of,
 * through its stored config; ",view=root" for a view = root run). */
void nk_report_champion_hint(const char *prefix, const nk_run_meta *meta, const char *path);

#endif
