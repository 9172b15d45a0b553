/*
 * cmd_bench.c -- `nickar bench`: random playouts from the start position on
 * one core; prints their speed and a deterministic signature that changes
 * only when the rules change (a commit that changes the rules says so with
 * the new signature).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/util.h"

enum { OPT_VARIANT, OPT_GAMES, OPT_SEED, OPT_JSON, OPT_SEARCH, OPT_RATINGS, OPT_MCTS, OPT_END };

enum { BENCH_DEFAULT_GAMES = 100000 };
#define BENCH_MAX_GAMES 1000000000000ull

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void bench_one(const nk_variant *v, uint64_t games, uint64_t seed, bool json)
{
    nk_bench b;
    double t0 = now_seconds();
    nk_bench_playouts(v, games, seed, &b);
    double seconds = now_seconds() - t0;
    double rate = seconds > 0 ? (double)b.plies / seconds : 0.0;
    if (json) {
        printf("{\"variant\":");
        nk_cli_json_string(stdout, v->name);
        printf(",\"games\":%" PRIu64 ",\"plies\":%" PRIu64 ",\"seconds\":%.6f,"
               "\"plies_per_second\":%.0f,\"signature\":\"%016" PRIx64 "\"}\n",
               b.games, b.plies, seconds, rate, b.signature);
    } else {
        printf("%-13s games %" PRIu64 "  plies %" PRIu64 "  seconds %.3f"
               "  plies/s %.0f  signature %016" PRIx64 "\n",
               v->name, b.games, b.plies, seconds, rate, b.signature);
    }
    fflush(stdout);
}

int nk_cmd_bench(int argc, char **argv)
{
    /* `--search` selects the search benchmark (cmd_bench_search.c). */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--search") == 0)
            return nk_cmd_bench_search(argc, argv);
        else if (strcmp(argv[i], "--ratings") == 0)
            return nk_cmd_bench_ratings(argc, argv);
        else if (strcmp(argv[i], "--mcts") == 0)
            return nk_cmd_bench_mcts(argc, argv);
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); default: all, one line each",
                         NULL},
        [OPT_GAMES] = {"games", "N", "playouts per variant (default 100000)", NULL},
        [OPT_SEED] = NK_OPT_PLAY("seed", "S", seed, "seed of the playouts"),
        [OPT_JSON] = {"json", NULL,
                      "print one JSON object per variant: variant, games, plies, seconds,"
                      " plies_per_second, signature (16 hex digits)",
                      NULL},
        [OPT_SEARCH] = {"search", NULL,
                        "benchmark the alpha-beta search instead: nodes per second and"
                        " its signature (see nickar bench --search --help)",
                        NULL},
        [OPT_RATINGS] = {"ratings", NULL,
                         "benchmark the rating fit of nickar tournament instead (see nickar"
                         " bench --ratings --help)",
                         NULL},
        [OPT_MCTS] = {"mcts", NULL,
                      "benchmark the mcts player against these playouts instead (see nickar"
                      " bench --mcts --help)",
                      NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "bench",
        .synopsis = "[--variant V] [--games N] [--seed S] [--json]",
        .about = "Plays random games from the start position on one core and prints\n"
                 "games, plies, seconds, plies per second and a signature that\n"
                 "depends only on the rules, the number of games and the seed.",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    uint64_t games = BENCH_DEFAULT_GAMES, seed = 0;
    if (opts[OPT_GAMES].value != NULL && !nk_cli_uint(&cli, OPT_GAMES, 1, BENCH_MAX_GAMES, &games))
        return NK_EXIT_USAGE;
    if (!nk_cli_number(&cli, OPT_SEED, &seed))
        return NK_EXIT_USAGE;
    bool json = opts[OPT_JSON].value != NULL;
    if (opts[OPT_VARIANT].value != NULL) {
        const nk_variant *v = nk_cli_variant(&cli, opts[OPT_VARIANT].value);
        if (v == NULL)
            return NK_EXIT_USAGE;
        bench_one(v, games, seed, json);
    } else {
        for (size_t i = 0; i < nk_variant_count(); i++)
            bench_one(nk_variant_at(i), games, seed, json);
    }
    return nk_cli_finish(&cli);
}
