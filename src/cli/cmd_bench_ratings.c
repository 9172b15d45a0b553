/*
 * cmd_bench_ratings.c -- `nickar bench --ratings`: the speed of the rating
 * fit (arena/rating.h) on synthetic games.
 *
 * P players get true ratings uniform in [-600, 600]; G games are drawn
 * between two players chosen uniformly (different), each with the model's
 * expected score p and a draw with probability min(p, 1-p)/2; the games
 * are counted into the P x P table, and the table is fitted (anchor:
 * player 0 at its true rating).  Prints the seconds of the counting and of
 * the fit (these vary with the machine) and the root-mean-square error of
 * the fitted ratings against the truth, which depends only on P, G and the
 * seed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "arena/rating.h"
#include "base/alloc.h"
#include "base/rng.h"
#include "cli/cli.h"
#include "cli/util.h"

enum { OPT_RATINGS, OPT_PLAYERS, OPT_GAMES, OPT_SEED, OPT_JSON, OPT_END };

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double uniform(nk_rng *r)
{
    return (double)(nk_rng_next(r) >> 11) * 0x1p-53;
}

int nk_cmd_bench_ratings(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_RATINGS] = {"ratings", NULL, "benchmark the rating fit (this command)", NULL},
        [OPT_PLAYERS] = {"players", "P", "players (default 200)", NULL},
        [OPT_GAMES] = {"games", "G", "synthetic games (default 1000000)", NULL},
        [OPT_SEED] = NK_OPT_PLAY("seed", "S", seed, "seed of the ratings and games"),
        [OPT_JSON] = {"json", NULL,
                      "one JSON object: players, games, count_seconds, fit_seconds, "
                      "iterations, rms_error",
                      NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "bench",
        .synopsis = "--ratings [--players P] [--games G] [--seed S] [--json]",
        .about = "Draws G games between P players of known ratings, counts them into\n"
                 "the table of pairwise results and fits the rating list (the fit of\n"
                 "nickar tournament).  Prints the seconds of the counting and of the\n"
                 "fit, and the RMS error of the fitted ratings, which depends only on\n"
                 "P, G and the seed.",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    uint64_t p = 200, games = 1000000, seed = 0;
    if ((opts[OPT_PLAYERS].value && !nk_cli_uint(&cli, OPT_PLAYERS, 2, 5000, &p)) ||
        (opts[OPT_GAMES].value && !nk_cli_uint(&cli, OPT_GAMES, 1, 1000000000, &games)) ||
        !nk_cli_number(&cli, OPT_SEED, &seed))
        return NK_EXIT_USAGE;
    size_t n = (size_t)p;
    double *truth = nk_calloc(n, sizeof *truth);
    nk_wdl *m = nk_calloc(n * n, sizeof *m);
    if (truth == NULL || m == NULL) {
        nk_free(truth);
        nk_free(m);
        nk_cli_error(&cli, "out of memory for %zu players", n);
        return NK_EXIT_FAIL;
    }
    nk_rng rng = {seed};
    for (size_t i = 0; i < n; i++)
        truth[i] = -600.0 + 1200.0 * uniform(&rng);
    double t0 = seconds();
    for (uint64_t g = 0; g < games; g++) {
        size_t i = nk_rng_below(&rng, (unsigned)n), j = nk_rng_below(&rng, (unsigned)n - 1);
        j += j >= i;
        if (i > j) {
            size_t k = i;
            i = j;
            j = k;
        }
        double e = 1.0 / (1.0 + pow(10.0, -(truth[i] - truth[j]) / 400.0));
        double d = 0.5 * fmin(e, 1.0 - e), u = uniform(&rng);
        nk_wdl *c = &m[i * n + j];
        if (u < e - d / 2)
            c->w++;
        else if (u < e + d / 2)
            c->d++;
        else
            c->l++;
    }
    double t1 = seconds();
    nk_ratings r;
    char err[NK_MSG_MAX];
    nk_status st = nk_ratings_fit(m, n, 0, truth[0], &r, err, sizeof err);
    double t2 = seconds();
    if (st == NK_OK) {
        double sq = 0;
        for (size_t i = 0; i < n; i++)
            sq += (r.elo[i] - truth[i]) * (r.elo[i] - truth[i]);
        double rms = sqrt(sq / (double)n);
        if (opts[OPT_JSON].value)
            printf("{\"players\":%zu,\"games\":%llu,\"count_seconds\":%.4f,\"fit_seconds\":%.4f,"
                   "\"iterations\":%u,\"rms_error\":%.6f}\n",
                   n, (unsigned long long)games, t1 - t0, t2 - t1, r.iterations, rms);
        else
            printf("players %zu  games %llu  counting %.3f s  fit %.3f s (%u Newton steps)  "
                   "rms error %.3f Elo\n",
                   n, (unsigned long long)games, t1 - t0, t2 - t1, r.iterations, rms);
    } else {
        nk_cli_error(&cli, "%s", err);
    }
    nk_ratings_free(&r);
    nk_free(truth);
    nk_free(m);
    return st == NK_OK ? nk_cli_finish(&cli) : nk_cli_exit(st);
}
