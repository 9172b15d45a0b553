/*
 * cmd_inspect.c -- `nickar inspect`: summarises a run file: what the run
 * was, how far it got, the champion and its weights by feature name, the
 * fitness of each generation and the benchmark scores over time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/alloc.h"
#include "cli/report.h"
#include "cli/util.h"
#include "evolve/genome.h"
#include "io/backup.h"
#include "io/runfile.h"
#include "io/tourfile.h"
#include "search/eval.h"

enum { OPT_JSON, OPT_END };

typedef struct summary {
    const nk_run_meta *m;
    size_t g, nb;
    nk_run_stats *stats; /* [g] */
    nk_run_bench *bench; /* [nb] */
    double *genome;      /* [N * D] of the last generation */
    double *fitness;     /* [N] */
    int64_t *ids;        /* [N] */
    size_t best;
} summary;

static void summary_free(summary *s)
{
    nk_free(s->stats);
    nk_free(s->bench);
    nk_free(s->genome);
    nk_free(s->fitness);
    nk_free(s->ids);
}

static nk_status load(nk_run *run, summary *s, char *err, size_t len)
{
    memset(s, 0, sizeof *s);
    s->m = nk_run_get_meta(run);
    s->g = nk_run_generations(run);
    s->nb = nk_run_benchmarks(run);
    size_t n = s->m->n, d = s->m->d;
    s->stats = nk_calloc(s->g + 1, sizeof *s->stats);
    s->bench = nk_calloc(s->nb + 1, sizeof *s->bench);
    s->genome = nk_calloc(n * d, sizeof *s->genome);
    s->fitness = nk_calloc(n, sizeof *s->fitness);
    s->ids = nk_calloc(n, sizeof *s->ids);
    if (!s->stats || !s->bench || !s->genome || !s->fitness || !s->ids)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    nk_status st = nk_run_read_stats(run, 0, s->g, s->stats, err, len);
    if (st == NK_OK)
        st = nk_run_read_benchmark(run, 0, s->nb, s->bench, err, len);
    if (st == NK_OK && s->g > 0) {
        nk_run_pop pop = {.genome = s->genome, .fitness = s->fitness, .ids = s->ids};
        st = nk_run_read_population(run, s->g - 1, &pop, err, len);
        s->best = nk_fitness_best(s->fitness, n); /* the champion */
    }
    return st;
}

/* A family's champion part by part (nk_eval_parts), when it has more
 * than one: a part of one weight by its value, a longer one summarised.
 * Nothing when the run's family or variant is not known here. */
static void print_parts(const nk_run_meta *m, const double *w)
{
    const nk_variant *v = nk_variant_find(m->variant);
    nk_eval e;
    nk_eval_part parts[NK_EVAL_PARTS_MAX];
    if (v == NULL || nk_eval_setup(&e, v, m->feature_set, w, m->d, NULL, 0) != NK_OK)
        return;
    const size_t n = nk_eval_parts(&e, parts);
    for (size_t i = 0; n > 1 && i < n; i++) {
        nk_weights_summary ws;
        nk_eval_weights_summary(w + parts[i].offset, parts[i].count, &ws);
        if (ws.n == 1)
            printf("  %-15s % .6f\n", parts[i].name, ws.min);
        else
            printf("  %-15s %zu weights: min % .6f, max % .6f, mean % .6f, mean |w| %.6f, %zu "
                   "zero\n",
                   parts[i].name, ws.n, ws.min, ws.max, ws.mean, ws.mean_abs, ws.zeros);
    }
    nk_eval_free(&e);
}

static void print_text(const char *path, const summary *s)
{
    const nk_run_meta *m = s->m;
    printf("run file     %s\n", path);
    printf("created      %s by nickar %s\n", m->created, m->nickar_version);
    printf("variant      %s\n", m->variant);
    printf("strategy     %s, population %zu, %zu weights (%s)\n", m->strategy, m->n, m->d,
           m->feature_set);
    printf("master seed  %" PRIu64 ", threads %d, MPI ranks %d\n", m->master_seed, m->threads,
           m->mpi_ranks);
    printf("generations  %zu complete\n", s->g);
    if (s->g == 0)
        return;
    printf("\nfitness per generation:\n  gen     best     mean   median    worst  diversity   "
           "games  seconds\n");
    for (size_t i = 0; i < s->g; i++) {
        const nk_run_stats *r = &s->stats[i];
        printf("  %3d %8.3f %8.3f %8.3f %8.3f %10.4f %7" PRId64 " %8.2f\n", r->generation + 1,
               r->best, r->mean, r->median, r->worst, r->diversity, r->games, r->wall_seconds);
    }
    printf("\nchampion of generation %zu: individual %" PRId64 ", fitness %.4f\n", s->g,
           s->ids[s->best], s->fitness[s->best]);
    if (m->d > NK_MAX_FEATURES) {
        /* a long genome (an evaluation family's tables): a summary */
        nk_weights_summary ws;
        nk_eval_weights_summary(s->genome + s->best * m->d, m->d, &ws);
        printf("  %zu weights: min % .6f (%s), max % .6f (%s), mean % .6f, mean |w| %.6f, "
               "%zu zero\n",
               ws.n, ws.min, m->features[ws.argmin], ws.max, m->features[ws.argmax], ws.mean,
               ws.mean_abs, ws.zeros);
        print_parts(m, s->genome + s->best * m->d);
    }
    for (size_t j = 0; j < m->d && m->d <= NK_MAX_FEATURES; j++)
        printf("  %-20s % .6f\n", m->features[j], s->genome[s->best * m->d + j]);
    if (s->nb) {
        printf("\nbenchmark (champion against fixed players):\n  gen  opponent                     "
               "             score   W-D-L\n");
        for (size_t i = 0; i < s->nb; i++)
            printf("  %3d  %-40s %6.3f   %d-%d-%d\n", s->bench[i].generation + 1,
                   s->bench[i].opponent, s->bench[i].score, s->bench[i].wins, s->bench[i].draws,
                   s->bench[i].losses);
    }
    bool graded = false;
    for (size_t i = 0; i < s->g; i++)
        graded |= s->stats[i].tb_positions > 0;
    if (graded) {
        printf("\nendgame play (champion against the database, benchmark.tablebase):\n"
               "  gen  positions  optimal  seeds lost per move\n");
        for (size_t i = 0; i < s->g; i++)
            if (s->stats[i].tb_positions > 0)
                printf("  %3d  %9" PRId64 "  %7.3f  %8.3f\n", s->stats[i].generation + 1,
                       s->stats[i].tb_positions, s->stats[i].tb_optimal, s->stats[i].tb_seeds_lost);
    }
    nk_report_champion_hint("\nuse it:  ", m, path);
}

static void print_json(const char *path, const summary *s)
{
    const nk_run_meta *m = s->m;
    printf("{\"file\":");
    nk_cli_json_string(stdout, path);
    printf(",\"variant\":");
    nk_cli_json_string(stdout, m->variant);
    printf(",\"strategy\":");
    nk_cli_json_string(stdout, m->strategy);
    printf(",\"feature_set\":");
    nk_cli_json_string(stdout, m->feature_set);
    printf(",\"master_seed\":%" PRIu64 ",\"population\":%zu,\"generations\":%zu", m->master_seed,
           m->n, s->g);
    /* A long genome (more than NK_MAX_FEATURES weights, an evaluation
     * family's tables): no names, and the champion's weights summarised. */
    const bool whole = m->d <= NK_MAX_FEATURES;
    printf(whole ? ",\"features\":[" : ",\"features\":null");
    for (size_t j = 0; whole && j < m->d; j++) {
        printf(j ? "," : "");
        nk_cli_json_string(stdout, m->features[j]);
    }
    printf(whole ? "],\"stats\":[" : ",\"stats\":[");
    for (size_t i = 0; i < s->g; i++)
        printf("%s{\"generation\":%d,\"best\":%.17g,\"mean\":%.17g,\"median\":%.17g,"
               "\"worst\":%.17g,\"diversity\":%.17g,\"games\":%" PRId64 "}",
               i ? "," : "", s->stats[i].generation, s->stats[i].best, s->stats[i].mean,
               s->stats[i].median, s->stats[i].worst, s->stats[i].diversity, s->stats[i].games);
    printf("]");
    if (s->g > 0) {
        printf(",\"champion\":{\"generation\":%zu,\"id\":%" PRId64
               ",\"fitness\":%.17g,",
               s->g - 1, s->ids[s->best], s->fitness[s->best]);
        if (!whole) {
            nk_weights_summary ws;
            nk_eval_weights_summary(s->genome + s->best * m->d, m->d, &ws);
            printf("\"weights\":null,\"weights_summary\":{\"n\":%zu,\"min\":%.17g,"
                   "\"argmin\":%zu,\"max\":%.17g,\"argmax\":%zu,\"mean\":%.17g,"
                   "\"mean_abs\":%.17g,\"zeros\":%zu}}",
                   ws.n, ws.min, ws.argmin, ws.max, ws.argmax, ws.mean, ws.mean_abs, ws.zeros);
        }
        printf(whole ? "\"weights\":{" : "");
        for (size_t j = 0; whole && j < m->d; j++) {
            printf(j ? "," : "");
            nk_cli_json_string(stdout, m->features[j]);
            printf(":%.17g", s->genome[s->best * m->d + j]);
        }
        printf(whole ? "}}" : "");
    } else {
        printf(",\"champion\":null");
    }
    printf(",\"benchmark\":[");
    for (size_t i = 0; i < s->nb; i++) {
        printf("%s{\"generation\":%d,\"opponent\":", i ? "," : "", s->bench[i].generation);
        nk_cli_json_string(stdout, s->bench[i].opponent);
        printf(",\"wins\":%d,\"draws\":%d,\"losses\":%d,\"score\":%.17g}", s->bench[i].wins,
               s->bench[i].draws, s->bench[i].losses, s->bench[i].score);
    }
    printf("],\"tablebase\":[");
    bool first = true;
    for (size_t i = 0; i < s->g; i++) {
        const nk_run_stats *r = &s->stats[i];
        if (r->tb_positions <= 0)
            continue;
        printf("%s{\"generation\":%d,\"positions\":%" PRId64 ",\"optimal\":%.17g,"
               "\"seeds_lost\":%.17g}",
               first ? "" : ",", r->generation, r->tb_positions, r->tb_optimal, r->tb_seeds_lost);
        first = false;
    }
    printf("]}\n");
}

int nk_cmd_inspect(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_JSON] = {"json", NULL, "print one JSON object", NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "inspect",
        .synopsis = "RUN.h5|TOURNAMENT.h5 [--json]",
        .about = "Summarises a run file written by nickar evolve: the run's settings,\n"
                 "the complete generations, fitness per generation, the champion of the\n"
                 "last generation with its weights by feature name, and the benchmark\n"
                 "scores over time.  A run in progress can be inspected too.\n"
                 "A tournament file (nickar tournament --output) gives its rating list,\n"
                 "cross table and pairings, as the tournament printed them.",
        .opts = opts,
        .max_args = 1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli.argc != 1) {
        nk_cli_error(&cli, "missing the run file (nickar inspect RUN.h5)");
        return NK_EXIT_USAGE;
    }
    char err[NK_MSG_MAX];
    if (nk_tour_is_file(cli.argv[0])) {
        /* a tournament file (nickar tournament --output) */
        nk_tour tour;
        nk_status ts = nk_tour_read(&tour, cli.argv[0], err, sizeof err);
        if (ts != NK_OK) {
            nk_cli_error(&cli, "%s", err);
            return nk_cli_exit(ts);
        }
        if (!opts[OPT_JSON].value)
            printf("tournament file  %s\ncreated          %s\n", cli.argv[0], tour.created);
        int prc = nk_report_tournament(&cli, &tour,
                                       opts[OPT_JSON].value ? NK_REPORT_JSON : NK_REPORT_TEXT);
        nk_tour_free(&tour);
        return prc == NK_EXIT_OK ? nk_cli_finish(&cli) : prc;
    }
    nk_run *run = NULL;
    nk_status st = nk_run_open(&run, cli.argv[0], false, err, sizeof err);
    if (st != NK_OK) {
        nk_backup_hint(cli.argv[0], err, sizeof err);
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    summary s;
    st = load(run, &s, err, sizeof err);
    if (st == NK_OK) {
        if (opts[OPT_JSON].value)
            print_json(cli.argv[0], &s);
        else
            print_text(cli.argv[0], &s);
    } else {
        nk_backup_hint(cli.argv[0], err, sizeof err);
        nk_cli_error(&cli, "%s", err);
    }
    summary_free(&s);
    nk_run_close(run);
    return st == NK_OK ? nk_cli_finish(&cli) : nk_cli_exit(st);
}
