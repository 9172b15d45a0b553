/*
 * cmd_grade.c -- `nickar grade SPEC`: how well a player plays endgames,
 * measured against perfect play (docs/tablebase.md, "Grading").
 *
 * The positions and what counts as optimal: search/grade.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/util.h"
#include "io/playerio.h"
#include "search/grade.h"
#include "search/player.h"
#include "tb/tb.h"

enum { OPT_VARIANT, OPT_TB, OPT_POSITIONS, OPT_SEED, OPT_REFERENCE, OPT_END };

static int make_player(const nk_cli *cli, const char *what, const char *text, const nk_variant *v,
                       nk_player **out)
{
    char err[NK_MSG_MAX];
    nk_player_def def;
    nk_status st = nk_playerio_load(&def, text, v, err, sizeof err);
    if (st == NK_OK && def.spec.kind == NK_PLAYER_HUMAN)
        st = nk_fail(NK_EINVAL, err, sizeof err, "'human' cannot be graded");
    if (st == NK_OK)
        st = nk_playerio_new(out, &def, v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s: %s", what, err);
        return nk_cli_exit(st);
    }
    return NK_EXIT_OK;
}

/* "what: x  95% interval [lo, hi]", or "(no interval: one game)". */
static void print_estimate(const char *what, const double x[3])
{
    if (isnan(x[1]))
        printf("%s: %.3f  (no interval: one game)\n", what, x[0]);
    else
        printf("%s: %.3f  95%% interval [%.3f, %.3f]\n", what, x[0], x[1], x[2]);
}

int nk_cmd_grade(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set; required", NULL},
        [OPT_TB] = {"tb", "DIR", "directory of the database (default: tablebases)", NULL},
        [OPT_POSITIONS] = {"positions", "N", "positions graded, 1 to 1000000 (default 1000)", NULL},
        [OPT_SEED] = NK_OPT_PLAY("seed", "S", seed, "seed of the random openings"),
        [OPT_REFERENCE] = {"reference", "SPEC",
                           "player of the games the positions come from (default "
                           "ab:depth=3)",
                           NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "grade",
        .synopsis = "SPEC --variant V [--tb DIR] [--positions N] [--seed S] [--reference SPEC]",
        .about = "Grades a player against perfect play: on N positions inside the\n"
                 "database DIR/V.nktb, drawn from games of the reference player from\n"
                 "random openings, the share of its moves that are optimal and the mean\n"
                 "number of seeds it loses per move, each with a 95% interval.",
        .opts = opts,
        .max_args = 1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli.argc != 1) {
        nk_cli_error(&cli, "missing the player SPEC to grade");
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
    uint64_t want = 1000, seed = 0;
    if (opts[OPT_POSITIONS].value && !nk_cli_uint(&cli, OPT_POSITIONS, 1, 1000000, &want))
        return NK_EXIT_USAGE;
    if (!nk_cli_number(&cli, OPT_SEED, &seed))
        return NK_EXIT_USAGE;
    nk_player *player = NULL, *ref = NULL;
    rc = make_player(&cli, "player", cli.argv[0], v, &player);
    if (rc != NK_EXIT_OK)
        return rc;
    const char *ref_text = opts[OPT_REFERENCE].value ? opts[OPT_REFERENCE].value : "ab:depth=3";
    rc = make_player(&cli, "reference", ref_text, v, &ref);
    if (rc != NK_EXIT_OK) {
        nk_player_free(player);
        return rc;
    }
    const char *dir = opts[OPT_TB].value ? opts[OPT_TB].value : "tablebases";
    char path[4096];
    nk_tb_path(dir, v, path, sizeof path);
    nk_tb tb;
    nk_status st = nk_tb_open(&tb, path, v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        nk_player_free(player);
        nk_player_free(ref);
        return nk_cli_exit(st);
    }
    nk_grade gr;
    st = nk_grade_play(&tb, player, ref, want, seed, &gr, err, sizeof err);
    const unsigned tb_seeds = tb.seeds;
    nk_tb_close(&tb);
    nk_player_free(player);
    nk_player_free(ref);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    if (gr.positions == 0) {
        nk_cli_error(&cli,
                     "no position of %llu games of the reference player came inside the "
                     "database (%u seeds)",
                     (unsigned long long)gr.games, tb_seeds);
        return NK_EXIT_USAGE;
    }
    double share[3], lost[3];
    nk_grade_summary(&gr, share, lost);
    printf("positions: %llu from %llu games of %s (%llu rest on the repetition rule)\n",
           (unsigned long long)gr.positions, (unsigned long long)gr.games, ref_text,
           (unsigned long long)gr.cycle);
    print_estimate("optimal moves", share);
    print_estimate("seeds lost per move", lost);
    printf("intervals: cluster-robust over the %llu games that gave positions\n",
           (unsigned long long)gr.clusters);
    if (gr.positions < want)
        printf("note: %llu positions wanted, %llu games gave %llu\n", (unsigned long long)want,
               (unsigned long long)gr.games, (unsigned long long)gr.positions);
    return nk_cli_finish(&cli);
}
