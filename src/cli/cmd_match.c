/*
 * cmd_match.c -- `nickar match`: games between two players and the score.
 *
 * A minimal stand-in that knows only the `random` player; the search layer's
 * version (all player specs) replaces this file.  Game i is seeded with
 * nk_seed_mix(seed, i, 0); player A sits South in even games and North in
 * odd ones, and South moves first.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/util.h"

enum { OPT_VARIANT, OPT_GAMES, OPT_SEED, OPT_JSON, OPT_END };

typedef struct score {
    uint64_t wins, draws, losses; /* player A's */
    uint64_t seeds[2];            /* totals of A and of B */
} score;

static void play_one(const nk_variant *v, uint64_t seed, uint64_t i, nk_game *g,
                     score *s)
{
    nk_rng rng = {nk_seed_mix(seed, i, 0)};
    nk_pos start;
    int a_side = i % 2 == 0 ? NK_SOUTH : NK_NORTH;
    nk_pos_start(&start, NK_SOUTH);
    nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT);
    while (!nk_game_over(g))
        nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
    const nk_result *r = &g->result;
    if (r->winner == NK_DRAW)
        s->draws++;
    else if (r->winner == a_side)
        s->wins++;
    else
        s->losses++;
    s->seeds[0] += r->total[a_side];
    s->seeds[1] += r->total[!a_side];
}

int nk_cmd_match(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_GAMES] = {"games", "N", "games to play (default 100)", NULL},
        [OPT_SEED] = {"seed", "S", "seed of the games (default 1)", NULL},
        [OPT_JSON] = {"json", NULL, "print one JSON object", NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "match",
        .synopsis = "--variant V [--games N] [--seed S] [--json] SPEC_A SPEC_B",
        .about = "Plays games between players A and B, alternating colours, and prints\n"
                 "A's wins, draws and losses and each player's average seeds.  This\n"
                 "build knows the player spec `random` only.",
        .opts = opts,
        .max_args = 2,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    const nk_variant *v = nk_cli_variant(&cli, opts[OPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    uint64_t games = 100, seed = 1;
    if ((opts[OPT_GAMES].value && !nk_cli_uint(&cli, OPT_GAMES, 1, UINT32_MAX, &games)) ||
        (opts[OPT_SEED].value && !nk_cli_uint(&cli, OPT_SEED, 0, UINT64_MAX, &seed)))
        return NK_EXIT_USAGE;
    if (cli.argc < 2) {
        nk_cli_error(&cli, "missing player spec %s (see nickar match --help)",
                     cli.argc == 0 ? "SPEC_A" : "SPEC_B");
        return NK_EXIT_USAGE;
    }
    for (int i = 0; i < 2; i++) {
        if (strcmp(cli.argv[i], "random") != 0) {
            char q[96];
            nk_cli_error(&cli, "unknown player spec '%s' (this build knows: random)",
                         nk_cli_quote(cli.argv[i], q, sizeof q));
            return NK_EXIT_USAGE;
        }
    }
    nk_game g;
    score s = {0};
    for (uint64_t i = 0; i < games; i++)
        play_one(v, seed, i, &g, &s);
    double avg_a = (double)s.seeds[0] / (double)games;
    double avg_b = (double)s.seeds[1] / (double)games;
    if (opts[OPT_JSON].value != NULL)
        printf("{\"variant\":\"%s\",\"games\":%" PRIu64 ",\"wins\":%" PRIu64
               ",\"draws\":%" PRIu64 ",\"losses\":%" PRIu64
               ",\"seeds_a\":%.3f,\"seeds_b\":%.3f}\n",
               v->name, games, s.wins, s.draws, s.losses, avg_a, avg_b);
    else
        printf("%s, %" PRIu64 " games, A = %s, B = %s\n"
               "A: %" PRIu64 " wins, %" PRIu64 " draws, %" PRIu64 " losses\n"
               "average seeds: A %.2f, B %.2f\n",
               v->name, games, cli.argv[0], cli.argv[1], s.wins, s.draws, s.losses,
               avg_a, avg_b);
    return nk_cli_finish(&cli);
}
