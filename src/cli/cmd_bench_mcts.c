/*
 * cmd_bench_mcts.c -- `nickar bench --mcts`: the speed of the mcts player
 * on one core against the rules' own playouts, measured in one run.
 *
 * For each variant: N random playouts from the start position (nickar
 * bench's loop, nk_bench_playouts), then one MCTS search of N playouts
 * (mcts:playouts=N, search/mcts.h) of the start position, each timed.
 * MCTS's playouts start below the tree's leaves, so they are shorter than
 * whole games: playouts per second compares the two as a player sees
 * them, plies per second (the tree's plies counted with the playout's)
 * compares the engine's work.  The move and the tree's size depend only
 * on N and the seed (a check that the run was the same).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/util.h"
#include "base/alloc.h"
#include "search/mcts.h"

enum { OPT_MCTS, OPT_VARIANT, OPT_PLAYOUTS, OPT_SEED, OPT_JSON, OPT_END };
enum { DEFAULT_PLAYOUTS = 100000 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double per_second(uint64_t n, double seconds)
{
    return seconds > 0 ? (double)n / seconds : 0.0;
}

/* Times both for variant v; false (and a message) if memory runs out. */
static bool bench_variant(const nk_cli *cli, const nk_variant *v, uint64_t playouts,
                          uint64_t seed, nk_game *g, bool json)
{
    nk_bench b;
    double t0 = now();
    nk_bench_playouts(v, playouts, seed, &b);
    const double bench_s = now() - t0;

    nk_mcts_params params = {.playouts = playouts, .c = 1.4, .seed = 0, .cutoff = 0};
    nk_mcts *m;
    if (nk_mcts_new(&m, &params, NULL) != NK_OK) {
        nk_cli_error(cli, "no memory for a tree of %" PRIu64 " playouts", playouts);
        return false;
    }
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT);
    nk_rng rng = {seed};
    nk_mcts_result r;
    t0 = now();
    nk_mcts_best(m, g, &rng, &r);
    const double mcts_s = now() - t0;
    nk_mcts_free(m);

    const double bp = per_second(b.games, bench_s), bl = per_second(b.plies, bench_s);
    const double mp = per_second(r.playouts, mcts_s), ml = per_second(r.plies, mcts_s);
    if (json) {
        printf("{\"variant\":");
        nk_cli_json_string(stdout, v->name);
        printf(",\"playouts\":%" PRIu64 ",\"bench_seconds\":%.6f,\"bench_plies\":%" PRIu64
               ",\"bench_playouts_per_second\":%.0f,\"bench_plies_per_second\":%.0f,"
               "\"mcts_seconds\":%.6f,\"mcts_plies\":%" PRIu64 ",\"mcts_nodes\":%" PRIu64
               ",\"mcts_playouts_per_second\":%.0f,\"mcts_plies_per_second\":%.0f,"
               "\"ratio_playouts\":%.4f,\"ratio_plies\":%.4f,\"move\":\"%c\"}\n",
               playouts, bench_s, b.plies, bp, bl, mcts_s, r.plies, r.nodes, mp, ml,
               bp > 0 ? mp / bp : 0.0, bl > 0 ? ml / bl : 0.0, nk_move_letter(r.move));
    } else {
        printf("%-13s playouts %" PRIu64 "  bench %.0f/s (%.0f plies/s)  mcts %.0f/s "
               "(%.0f plies/s, %.1f plies each)  ratio %.3f (plies %.3f)  move %c  nodes %" PRIu64
               "\n",
               v->name, playouts, bp, bl, mp, ml, (double)r.plies / (double)playouts,
               bp > 0 ? mp / bp : 0.0, bl > 0 ? ml / bl : 0.0, nk_move_letter(r.move), r.nodes);
    }
    fflush(stdout);
    return true;
}

int nk_cmd_bench_mcts(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_MCTS] = {"mcts", NULL, "benchmark the mcts player (this mode)", NULL},
        [OPT_VARIANT] = {"variant", "V", "rule set; default: all, one line each", NULL},
        [OPT_PLAYOUTS] = {"playouts", "N", "playouts of each side (default 100000)", NULL},
        [OPT_SEED] = NK_OPT_PLAY("seed", "S", seed, "seed of the playouts"),
        [OPT_JSON] = {"json", NULL,
                      "print one JSON object per variant: variant, playouts, bench_ and mcts_ "
                      "seconds, plies and rates, ratio_playouts, ratio_plies, move",
                      NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "bench",
        .synopsis = "--mcts [--variant V] [--playouts N] [--seed S] [--json]",
        .about = "Plays N random playouts from the start position (as nickar bench),\n"
                 "then searches the start position with mcts:playouts=N, on one core,\n"
                 "and prints both rates, in playouts and in plies per second, and\n"
                 "their ratio (mcts over bench).",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    uint64_t playouts = DEFAULT_PLAYOUTS, seed = 0;
    if (opts[OPT_PLAYOUTS].value != NULL &&
        !nk_cli_uint(&cli, OPT_PLAYOUTS, 1, NK_MCTS_MAX_PLAYOUTS, &playouts))
        return NK_EXIT_USAGE;
    if (!nk_cli_number(&cli, OPT_SEED, &seed))
        return NK_EXIT_USAGE;
    const nk_variant *one = NULL;
    if (opts[OPT_VARIANT].value != NULL &&
        (one = nk_cli_variant(&cli, opts[OPT_VARIANT].value)) == NULL)
        return NK_EXIT_USAGE;
    nk_game *g = nk_malloc(sizeof *g);
    if (g == NULL) {
        nk_cli_error(&cli, "out of memory for a game");
        return NK_EXIT_FAIL;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < nk_variant_count(); i++)
        if (one == NULL || one == nk_variant_at(i))
            ok = bench_variant(&cli, nk_variant_at(i), playouts, seed, g, opts[OPT_JSON].value);
    nk_free(g);
    return ok ? nk_cli_finish(&cli) : NK_EXIT_FAIL;
}
