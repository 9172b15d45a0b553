/*
 * cmd_grade.c -- `nickar grade SPEC`: how well a player plays endgames,
 * measured against perfect play (docs/tablebase.md, "Grading").
 *
 * Positions come from games of a reference player against itself from
 * random openings (R: 4 random plies, then the reference plays both sides),
 * played with the rules engine and the seed S; every live position of
 * those games that is inside the database and offers a choice (two legal
 * moves or more) is one sample, until N.  At each, the graded player is
 * asked for its move (with the game's history, as in play) and the move's
 * value is looked up: optimal when it equals the best move's value; the
 * seeds lost are the difference.  The openings and the reference use one
 * generator, the graded player another, so that every player graded with
 * the same seed meets the same positions.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/util.h"
#include "io/playerio.h"
#include "search/player.h"
#include "tb/tb.h"

enum { OPT_VARIANT, OPT_TB, OPT_POSITIONS, OPT_SEED, OPT_REFERENCE, OPT_END };
enum { OPENING_PLIES = 4 };

static int make_player(const nk_cli *cli, const char *what, const char *text,
                       const nk_variant *v, nk_player **out)
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

int nk_cmd_grade(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (not speightstown); required", NULL},
        [OPT_TB] = {"tb", "DIR", "directory of the database (default: tablebases)", NULL},
        [OPT_POSITIONS] = {"positions", "N", "positions graded, 1 to 1000000 (default 1000)",
                           NULL},
        [OPT_SEED] = {"seed", "S", "seed of the random openings (default 1)", NULL},
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
    uint64_t want = 1000, seed = 1;
    if (opts[OPT_POSITIONS].value && !nk_cli_uint(&cli, OPT_POSITIONS, 1, 1000000, &want))
        return NK_EXIT_USAGE;
    if (opts[OPT_SEED].value && !nk_cli_uint(&cli, OPT_SEED, 0, UINT64_MAX, &seed))
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
    nk_game *g = malloc(sizeof *g);
    if (g == NULL) {
        nk_cli_error(&cli, "out of memory");
        nk_tb_close(&tb);
        nk_player_free(player);
        nk_player_free(ref);
        return NK_EXIT_FAIL;
    }
    nk_rng rng = {seed};                               /* openings, reference */
    nk_rng prng = {nk_seed_mix(seed, 0x67726164ull, 1)}; /* the graded player */
    uint64_t n = 0, optimal = 0, cyc = 0, games = 0;
    double loss = 0, loss2 = 0;
    const uint64_t max_games = 100 * want + 100;
    while (n < want && games < max_games) {
        nk_pos start;
        nk_pos_start(&start, NK_SOUTH);
        nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT);
        games++;
        for (unsigned k = 0; k < OPENING_PLIES && !nk_game_over(g); k++)
            nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
        while (!nk_game_over(g) && n < want) {
            unsigned mask;
            int val[NK_PASS + 1], opp[NK_PASS + 1];
            if (nk_pos_on_board(&g->pos) <= tb.seeds &&
                nk_tb_move_pairs(&tb, &g->pos, &mask, val, opp, NULL) == NK_OK &&
                (mask & (mask - 1)) != 0) {
                int best = -1, best_out = -1;
                for (unsigned m = mask; m; m &= m - 1) {
                    const int k = __builtin_ctz(m);
                    const int o = nk_tb_outcome(&tb, &g->pos, val[k], opp[k]);
                    if (val[k] > best)
                        best = val[k];
                    if (o > best_out)
                        best_out = o;
                }
                int mv = nk_player_move(player, g, &prng, NULL);
                double lost = best - val[mv];
                n++;
                /* Speightstown: optimal keeps the result (R-W12). */
                if (tb.planes == 2)
                    optimal += nk_tb_outcome(&tb, &g->pos, val[mv], opp[mv]) == best_out;
                else
                    optimal += lost == 0;
                loss += lost;
                loss2 += lost * lost;
                uint8_t byte;
                if (nk_tb_probe(&tb, &g->pos, &byte) == NK_OK && (byte & NK_TB_CYCLE))
                    cyc++;
            }
            nk_game_play_legal(g, nk_player_move(ref, g, &rng, NULL), NULL);
        }
    }
    free(g);
    const unsigned tb_seeds = tb.seeds;
    nk_tb_close(&tb);
    nk_player_free(player);
    nk_player_free(ref);
    if (n == 0) {
        nk_cli_error(&cli, "no position of %llu games of the reference player came inside the "
                     "database (%u seeds)", (unsigned long long)games, tb_seeds);
        return NK_EXIT_USAGE;
    }
    /* Wilson's interval for the share, the normal one for the mean. */
    const double z = 1.959964, N = (double)n, p = (double)optimal / N;
    double centre = (p + z * z / (2 * N)) / (1 + z * z / N);
    double half = z * sqrt(p * (1 - p) / N + z * z / (4 * N * N)) / (1 + z * z / N);
    double mean = loss / N;
    double var = n > 1 ? (loss2 - N * mean * mean) / (N - 1) : 0;
    double mhalf = z * sqrt(var > 0 ? var / N : 0);
    printf("positions: %llu from %llu games of %s (%llu rest on the repetition rule)\n",
           (unsigned long long)n, (unsigned long long)games, ref_text, (unsigned long long)cyc);
    printf("optimal moves: %.3f  95%% interval [%.3f, %.3f]\n", p, centre - half,
           centre + half);
    printf("seeds lost per move: %.3f  95%% interval [%.3f, %.3f]\n", mean,
           mean - mhalf > 0 ? mean - mhalf : 0.0, mean + mhalf);
    if (n < want)
        printf("note: %llu positions wanted, %llu games gave %llu\n", (unsigned long long)want,
               (unsigned long long)games, (unsigned long long)n);
    return nk_cli_finish(&cli);
}
