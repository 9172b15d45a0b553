/*
 * main.c -- entry point of the nickar command: dispatches to a subcommand.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "exec/mpi.h"
#include "ext/client.h"

const nk_command nk_commands[] = {
    {"rules", "list the variants and their rules", nk_cmd_rules},
    {"show", "draw a position, its legal moves and whether the game is over", nk_cmd_show},
    {"replay", "play a sequence of moves and show each position", nk_cmd_replay},
    {"perft", "count move sequences of each depth (engine check)", nk_cmd_perft},
    {"play", "play against a player in the terminal", nk_cmd_play},
    {"match", "play games between two players and report the score", nk_cmd_match},
    {"tournament", "play many players against each other and fit a rating list",
     nk_cmd_tournament},
    {"rate", "rate a player against a variant's reference ladder", nk_cmd_rate},
    {"bench", "measure engine speed and print its deterministic signature", nk_cmd_bench},
    {"evolve", "evolve evaluation weights by self-play from a config file", nk_cmd_evolve},
    {"tune", "fit evaluation weights to an endgame database from a config file", nk_cmd_tune},
    {"learn", "learn evaluation weights by self-play TD(lambda) from a config file", nk_cmd_learn},
    {"inspect", "summarise a run file (config, champion, benchmark scores) or a tournament file", nk_cmd_inspect},
    {"ciao", "co-evolution progress: master tournament of a run's champions (CIAO)", nk_cmd_ciao},
    {"tablebase", "build an endgame database (perfect play with few seeds), or describe one", nk_cmd_tablebase},
    {"solve", "the exact value and optimal moves of a position in a database", nk_cmd_solve},
    {"grade", "grade a player's endgame moves against a database", nk_cmd_grade},
    {"view", "write an HTML page that replays the games of records files", nk_cmd_view},
    {"engine", "serve a player over the engine protocol (docs/protocol.md)", nk_cmd_engine},
    {NULL, NULL, NULL},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: nickar <command> [options]   (nickar <command> --help)\n\n"
                 "nickar evolves evaluation functions for Caribbean mancala games.\n\n"
                 "commands:\n");
    for (const nk_command *c = nk_commands; c->name != NULL; c++)
        fprintf(out, "  %-11s %s\n", c->name, c->summary);
}

static int run_command(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return NK_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return NK_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("nickar %s\n", NICKAR_VERSION);
        return NK_EXIT_OK;
    }
    for (const nk_command *c = nk_commands; c->name != NULL; c++)
        if (strcmp(argv[1], c->name) == 0)
            return c->run(argc - 1, argv + 1);
    nk_cli_error(NULL, "unknown command '%s' (see nickar --help)", argv[1]);
    return NK_EXIT_USAGE;
}

/* The test switches of the allocation seam (base/alloc.h), read from the
 * environment before anything is allocated:
 *   NICKAR_FAIL_ALLOC=N   allocation number N (from 1) and every later one
 *                         fail, as if memory had run out;
 *   NICKAR_ALLOC_COUNT=1  prints "nickar: N allocations" on stderr at the
 *                         end, for a test that walks N up to that number.
 * tests/test_alloc_fail.sh uses them.  Returns false after a message when
 * NICKAR_FAIL_ALLOC is not a positive integer. */
static bool alloc_switches(void)
{
    const char *fail = getenv("NICKAR_FAIL_ALLOC");
    if (fail == NULL || *fail == '\0')
        return true;
    char *end = NULL;
    unsigned long n = strtoul(fail, &end, 10);
    if (fail[0] < '0' || fail[0] > '9' || *end != '\0' || n == 0) {
        nk_cli_error(NULL, "bad NICKAR_FAIL_ALLOC '%.40s': expected a positive integer",
                fail);
        return false;
    }
    nk_alloc_fail_at(n);
    return true;
}

/* A forfeit of an engine from outside (ext/client.h), one line on stderr;
 * called from the thread that played the game. */
static void forfeit_note(const char *line)
{
    nk_cli_error(NULL, "%s", line);
}

static void alloc_report(void)
{
    const char *count = getenv("NICKAR_ALLOC_COUNT");
    if (count != NULL && strcmp(count, "1") == 0)
        fprintf(stderr, "nickar: %lu allocations\n", nk_alloc_count());
}

/* Under mpirun (exec/mpi.h) rank 0 runs the command and the other ranks
 * play the games it hands out until it says stop.  When a worker was lost,
 * the command has closed its files and returned; MPI_Abort then ends the
 * job.  A worker that fails ends its process without MPI_Finalize, which
 * makes mpirun end the job too. */
int main(int argc, char **argv)
{
    char err[NK_MSG_MAX];
    if (!alloc_switches())
        return NK_EXIT_USAGE;
    nk_ext_client_install(forfeit_note);
    if (nk_mpi_init(&argc, &argv, err, sizeof err) != NK_OK) {
        nk_cli_error(NULL, "%s", err);
        nk_mpi_abort(NK_EXIT_FAIL);
        return NK_EXIT_FAIL;
    }
    if (nk_mpi_rank() > 0) {
        if (nk_mpi_serve(err, sizeof err) != NK_OK) {
            nk_cli_error(NULL, "worker rank %d: %s", nk_mpi_rank(), err);
            fflush(stderr);
            _exit(NK_EXIT_FAIL);
        }
        nk_mpi_finalize();
        return NK_EXIT_OK;
    }
    int rc = run_command(argc, argv);
    if (nk_mpi_broken()) {
        fflush(stdout);
        fflush(stderr);
        nk_mpi_abort(rc != NK_EXIT_OK ? rc : NK_EXIT_FAIL);
    }
    nk_mpi_finalize();
    alloc_report();
    return rc;
}
