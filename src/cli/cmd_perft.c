/*
 * cmd_perft.c -- `nickar perft`: the number of move sequences of each depth
 * from a position (R-G3), the engine's check against known counts.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/util.h"

enum { OPT_VARIANT, OPT_DEPTH, OPT_POSITION, OPT_END };

enum { PERFT_MAX_DEPTH = 64 };

int nk_cmd_perft(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_DEPTH] = {"depth", "D", "deepest depth counted, 1 to 64; required", NULL},
        [OPT_POSITION] = {"position", "P", "position as in docs/rules.md R-B3 (default: the start)",
                          NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "perft",
        .synopsis = "--variant V --depth D [--position P]",
        .about = "Prints one line `d count` for each depth d from 1 to D: the number\n"
                 "of move sequences of exactly d plies from the position, under every\n"
                 "rule (docs/rules.md R-G3).  Counts grow about sixfold per ply.",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    const nk_variant *v = nk_cli_variant(&cli, opts[OPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    if (opts[OPT_DEPTH].value == NULL) {
        nk_cli_error(&cli, "missing --depth D");
        return NK_EXIT_USAGE;
    }
    uint64_t depth;
    nk_pos pos;
    nk_game game;
    if (!nk_cli_uint(&cli, OPT_DEPTH, 1, PERFT_MAX_DEPTH, &depth) ||
        !nk_cli_position(&cli, opts[OPT_POSITION].value, &pos) ||
        !nk_cli_game(&cli, &game, v, &pos))
        return NK_EXIT_USAGE;
    for (unsigned d = 1; d <= depth; d++) {
        printf("%u %" PRIu64 "\n", d, nk_perft(&game, d));
        fflush(stdout); /* deep counts take long: show each when known */
    }
    return nk_cli_finish(&cli);
}
