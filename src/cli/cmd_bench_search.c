/*
 * cmd_bench_search.c -- `nickar bench --search`: the speed of alpha-beta on
 * one core, in nodes per second, per feature set, and the search signature
 * (the bench's node count, which changes only when search or evaluation
 * behaviour changes; search.h records the current one).
 *
 * Each feature set's bench (nk_search_bench_run) is run again until it has
 * taken at least MIN_SECONDS, for a steadier rate; every pass must give the
 * same node count, and one pass's counts, summed over the sets, are the
 * signature.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/util.h"
#include "search/eval.h"
#include "search/search.h"

enum { OPT_SEARCH, OPT_FEATURES, OPT_JSON, OPT_END };

static const double MIN_SECONDS = 0.5;

typedef struct set_run {
    const char *name;
    uint64_t positions, pass_nodes, nodes;
    double seconds;
} set_run;

/* Runs one set's bench until MIN_SECONDS; false if the passes disagree. */
static bool run_set(const nk_cli *cli, const char *name, set_run *out)
{
    memset(out, 0, sizeof *out);
    out->name = name;
    do {
        nk_search_bench b;
        if (nk_search_bench_run(name, &b) != NK_OK) {
            nk_cli_error(cli, "the bench of feature set '%s' failed", name);
            return false;
        }
        if (out->nodes > 0 && b.nodes != out->pass_nodes) {
            nk_cli_error(cli,
                         "feature set '%s': passes searched %" PRIu64 " and %" PRIu64
                         " nodes: the search is not deterministic",
                         name, out->pass_nodes, b.nodes);
            return false;
        }
        out->positions = b.positions;
        out->pass_nodes = b.nodes;
        out->nodes += b.nodes;
        out->seconds += b.seconds;
    } while (out->seconds < MIN_SECONDS);
    return true;
}

static double rate(uint64_t nodes, double seconds)
{
    return seconds > 0 ? (double)nodes / seconds : 0.0;
}

static void print_text(const set_run *runs, size_t n, bool all)
{
    uint64_t nodes = 0, sig = 0;
    double seconds = 0;
    for (size_t i = 0; i < n; i++) {
        const set_run *r = &runs[i];
        printf("%-13s positions %3" PRIu64 "  nodes %10" PRIu64 "  seconds %6.3f"
               "  nodes/s %10.0f  signature %" PRIu64 "\n",
               r->name, r->positions, r->nodes, r->seconds, rate(r->nodes, r->seconds),
               r->pass_nodes);
        nodes += r->nodes;
        seconds += r->seconds;
        sig += r->pass_nodes;
    }
    if (!all)
        return;
    printf("total         nodes %" PRIu64 "  seconds %.3f  nodes/s %.0f  signature %" PRIu64
           " (%s)\n",
           nodes, seconds, rate(nodes, seconds), sig,
           sig == NK_SEARCH_BENCH_SIGNATURE ? "as recorded in search.h"
                                            : "differs from the one recorded in search.h");
}

static void print_json(const set_run *runs, size_t n, bool all)
{
    uint64_t nodes = 0, sig = 0;
    double seconds = 0;
    for (size_t i = 0; i < n; i++) {
        nodes += runs[i].nodes;
        seconds += runs[i].seconds;
        sig += runs[i].pass_nodes;
    }
    printf("{\"nodes\":%" PRIu64 ",\"seconds\":%.6f,\"nodes_per_second\":%.0f,"
           "\"signature\":%" PRIu64,
           nodes, seconds, rate(nodes, seconds), sig);
    if (all)
        printf(",\"recorded_signature\":%" PRIu64, (uint64_t)NK_SEARCH_BENCH_SIGNATURE);
    printf(",\"sets\":[");
    for (size_t i = 0; i < n; i++) {
        const set_run *r = &runs[i];
        printf("%s{\"features\":", i ? "," : "");
        nk_cli_json_string(stdout, r->name);
        printf(",\"positions\":%" PRIu64 ",\"nodes\":%" PRIu64 ",\"seconds\":%.6f,"
               "\"nodes_per_second\":%.0f,\"signature\":%" PRIu64 "}",
               r->positions, r->nodes, r->seconds, rate(r->nodes, r->seconds), r->pass_nodes);
    }
    printf("]}\n");
}

int nk_cmd_bench_search(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_SEARCH] = {"search", NULL, "benchmark the alpha-beta search (this mode)", NULL},
        [OPT_FEATURES] =
            {"features", "SET",
             "only this feature set (material, ayo12, positional, adjikui, ayo12-literal,"
             " ayo12-negated, dk2002) or evaluation family (ntuple[:layout=L:cap=C],"
             " nnet[:hidden=H:act=A]), or"
             " several joined by commas, searched in turn in one run;"
             " default: all sets, whose node counts sum to the signature",
             NULL},
        [OPT_JSON] = {"json", NULL,
                      "print one JSON object: nodes, seconds, nodes_per_second, signature,"
                      " recorded_signature (without --features), sets (the same per"
                      " feature set)",
                      NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "bench",
        .synopsis = "--search [--features SET] [--json]",
        .about = "Searches a fixed set of positions (random openings of fixed seeds) to a\n"
                 "fixed depth with each feature set's default weights, on one core, and\n"
                 "prints nodes, seconds, nodes per second and the signature: the node\n"
                 "count of one pass, which changes only when search or evaluation\n"
                 "behaviour changes.  Each set is searched again until it has run for\n"
                 "half a second; every pass must give the same node count.",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    set_run runs[NK_MAX_FEATURES];
    size_t n = 0;
    const char *only = opts[OPT_FEATURES].value;
    char buf[4096]; /* the list's items, which runs[].name point into */
    if (only != NULL) {
        /* A list "A,B,...": each a set or a family's text, searched in turn. */
        char quoted[64], why[NK_MSG_MAX];
        snprintf(buf, sizeof buf, "%s", only);
        for (char *item = buf; item != NULL && n < NK_MAX_FEATURES;) {
            char *comma = strchr(item, ',');
            if (comma != NULL)
                *comma++ = '\0';
            if (nk_features_find(item) == NULL &&
                nk_eval_features_check(item, why, sizeof why) != NK_OK) {
                if (nk_eval_family_of(item) == nk_eval_family_at(0)) {
                    char list[128];
                    nk_features_list(list, sizeof list);
                    nk_cli_error(&cli, "unknown feature set '%s'; valid sets: %s",
                                 nk_cli_quote(item, quoted, sizeof quoted), list);
                } else {
                    nk_cli_error(&cli, "--features: %s", why);
                }
                return NK_EXIT_USAGE;
            }
            runs[n++].name = item;
            item = comma;
        }
        for (size_t i = 0; i < n; i++)
            if (!run_set(&cli, runs[i].name, &runs[i]))
                return NK_EXIT_FAIL;
    }
    for (size_t i = 0; only == NULL && i < nk_features_count() && n < NK_MAX_FEATURES; i++)
        if (!run_set(&cli, nk_features_at(i)->name, &runs[n++]))
            return NK_EXIT_FAIL;
    if (opts[OPT_JSON].value != NULL)
        print_json(runs, n, only == NULL);
    else
        print_text(runs, n, only == NULL);
    return nk_cli_finish(&cli);
}
