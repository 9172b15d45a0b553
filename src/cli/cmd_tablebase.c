/*
 * cmd_tablebase.c -- `nickar tablebase build`: builds the endgame database
 * of a variant to N board seeds and writes DIR/VARIANT.nktb
 * (docs/tablebase.md); `nickar solve`: the exact value and the optimal
 * moves of a position inside a database.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/util.h"
#include "tb/tb.h"

enum { OPT_VARIANT, OPT_SEEDS, OPT_OUTPUT, OPT_THREADS, OPT_END };

int nk_cmd_tablebase(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (not speightstown); required", NULL},
        [OPT_SEEDS] = {"seeds", "N", "largest board seed count, 0 to 48; required", NULL},
        [OPT_OUTPUT] = {"output", "DIR", "directory of the file (default: tablebases)", NULL},
        [OPT_THREADS] = {"threads", "T", "OpenMP threads (default: OpenMP's choice)", NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "tablebase",
        .synopsis = "build --variant V --seeds N [--output DIR] [--threads T]",
        .about = "Builds the endgame database of a variant: the value under perfect\n"
                 "play of every position with at most N seeds on the board, written to\n"
                 "DIR/V.nktb (docs/tablebase.md).  The file is the same for any T.",
        .opts = opts,
        .max_args = 1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli.argc != 1 || strcmp(cli.argv[0], "build") != 0) {
        char q[64];
        nk_cli_error(&cli, "expected the action 'build', got '%s'",
                     cli.argc ? nk_cli_quote(cli.argv[0], q, sizeof q) : "nothing");
        return NK_EXIT_USAGE;
    }
    const nk_variant *v = nk_cli_variant(&cli, opts[OPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    char err[NK_MSG_MAX];
    if (nk_tb_supported(v, err, sizeof err) != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return NK_EXIT_USAGE;
    }
    if (opts[OPT_SEEDS].value == NULL) {
        nk_cli_error(&cli, "missing --seeds N");
        return NK_EXIT_USAGE;
    }
    uint64_t seeds, threads = 0;
    if (!nk_cli_uint(&cli, OPT_SEEDS, 0, NK_TB_MAX_SEEDS, &seeds))
        return NK_EXIT_USAGE;
    if (opts[OPT_THREADS].value && !nk_cli_uint(&cli, OPT_THREADS, 1, 1024, &threads))
        return NK_EXIT_USAGE;
    const char *dir = opts[OPT_OUTPUT].value ? opts[OPT_OUTPUT].value : "tablebases";
    struct stat sb;
    if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        char q[256];
        nk_cli_error(&cli, "--output '%s' is not a directory", nk_cli_quote(dir, q, sizeof q));
        return NK_EXIT_USAGE;
    }
    if (stat(dir, &sb) != 0 && mkdir(dir, 0777) != 0) {
        char q[256];
        nk_cli_error(&cli, "cannot create the directory '%s'", nk_cli_quote(dir, q, sizeof q));
        return NK_EXIT_FAIL;
    }
    nk_tb tb;
    nk_tb_stats stats;
    nk_status st = nk_tb_build(&tb, v, (unsigned)seeds, (int)threads, &stats, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    char path[4096];
    nk_tb_path(dir, v, path, sizeof path);
    st = nk_tb_write(&tb, path, err, sizeof err);
    nk_tb_close(&tb);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    printf("%s: %s to %u seeds, %llu positions (%llu resting on repetition), "
           "%llu sweeps, %.2f s, %.3g positions/s\n",
           path, v->name, (unsigned)seeds, (unsigned long long)stats.positions,
           (unsigned long long)stats.cycle, (unsigned long long)stats.sweeps, stats.seconds,
           stats.seconds > 0 ? (double)stats.positions / stats.seconds : 0.0);
    return nk_cli_finish(&cli);
}

enum { SOPT_VARIANT, SOPT_POSITION, SOPT_TB, SOPT_END };

int nk_cmd_solve(int argc, char **argv)
{
    nk_opt opts[] = {
        [SOPT_VARIANT] = {"variant", "V", "rule set (not speightstown); required", NULL},
        [SOPT_POSITION] = {"position", "P", "position as in docs/rules.md R-B3; required", NULL},
        [SOPT_TB] = {"tb", "DIR", "directory of the database (default: tablebases)", NULL},
        [SOPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "solve",
        .synopsis = "--variant V --position P [--tb DIR]",
        .about = "Prints the exact value of a position inside the endgame database\n"
                 "DIR/V.nktb (the board seeds the side to move collects under perfect\n"
                 "play, docs/tablebase.md), the totals and result that follow from the\n"
                 "stores, and the value of each legal move; optimal moves are marked.",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    const nk_variant *v = nk_cli_variant(&cli, opts[SOPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    char err[NK_MSG_MAX];
    if (nk_tb_supported(v, err, sizeof err) != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return NK_EXIT_USAGE;
    }
    if (opts[SOPT_POSITION].value == NULL) {
        nk_cli_error(&cli, "missing --position P");
        return NK_EXIT_USAGE;
    }
    nk_pos pos;
    nk_game game;
    if (!nk_cli_position(&cli, opts[SOPT_POSITION].value, &pos) ||
        !nk_cli_game(&cli, &game, v, &pos))
        return NK_EXIT_USAGE;
    const char *dir = opts[SOPT_TB].value ? opts[SOPT_TB].value : "tablebases";
    char path[4096];
    nk_tb_path(dir, v, path, sizeof path);
    nk_tb tb;
    nk_status st = nk_tb_open(&tb, path, v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    char text[NK_POS_TEXT];
    nk_pos_format(&pos, text);
    unsigned board = nk_pos_on_board(&pos);
    uint8_t byte;
    st = nk_tb_probe(&tb, &pos, &byte);
    if (st != NK_OK) {
        if (st == NK_ERANGE)
            nk_cli_error(&cli, "position '%s' has %u seeds on the board; the database holds "
                         "at most %u", text, board, tb.seeds);
        else
            nk_cli_error(&cli, "position '%s': its pit owners are no pattern of R-K9", text);
        nk_tb_close(&tb);
        return NK_EXIT_USAGE;
    }
    const int me = pos.side;
    const unsigned value = byte & NK_TB_VALUE_MASK;
    printf("position: %s\n", text);
    printf("value: %u of the %u seeds on the board to %s%s\n", value, board,
           nk_cli_side_name(me),
           (byte & NK_TB_CYCLE) ? " (rests on the repetition rule)" : "");
    if (nk_game_over(&game)) {
        char res[128];
        nk_cli_result_text(&game.result, res, sizeof res);
        printf("the game is over: %s\n", res);
    } else {
        unsigned tot[2];
        tot[me] = pos.store[me] + value;
        tot[me ^ 1] = pos.store[me ^ 1] + board - value;
        printf("totals under perfect play: South %u, North %u: %s\n", tot[0], tot[1],
               tot[0] > tot[1] ? "South wins" : tot[1] > tot[0] ? "North wins" : "draw");
        unsigned mask, cyc;
        int val[NK_PASS + 1];
        nk_tb_move_values(&tb, &pos, &mask, val, &cyc);
        for (unsigned m = mask; m; m &= m - 1) {
            int move = __builtin_ctz(m);
            printf("move %c: %d%s%s\n", nk_move_letter(move), val[move],
                   val[move] == (int)value ? " optimal" : "",
                   ((cyc >> move) & 1u) ? " (repetition)" : "");
        }
    }
    nk_tb_close(&tb);
    return nk_cli_finish(&cli);
}
