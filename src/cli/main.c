/*
 * main.c -- entry point of the nickar command: dispatches to a subcommand.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

const nk_command nk_commands[] = {
    {"rules", "list the variants and their rules", nk_cmd_rules},
    {"show", "draw a position, its legal moves and whether the game is over", nk_cmd_show},
    {"replay", "play a sequence of moves and show each position", nk_cmd_replay},
    {"perft", "count move sequences of each depth (engine check)", nk_cmd_perft},
    {"play", "play against a player in the terminal", nk_cmd_play},
    {"match", "play games between two players and report the score", nk_cmd_match},
    {"bench", "measure engine speed and print its deterministic signature", nk_cmd_bench},
    {"evolve", "evolve evaluation weights by self-play from a config file", nk_cmd_evolve},
    {"inspect", "summarise a run file: config, champion, benchmark scores", nk_cmd_inspect},
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

int main(int argc, char **argv)
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
    fprintf(stderr, "nickar: unknown command '%s' (see nickar --help)\n", argv[1]);
    return NK_EXIT_USAGE;
}
