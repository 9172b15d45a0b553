/*
 * cmd_ciao.c -- `nickar ciao`: co-evolution progress of a run.  The
 * champions of every K-th generation play a master tournament (each against
 * each, arena/ciao.h); its lower triangle is the CIAO matrix (each champion
 * against the earlier ones).  The matrix, the per-generation scores and the
 * Nash average (arena/nash.h) go to an analysis file (io/ciaofile.h), never
 * into the run file, and a summary to stdout.
 *
 * The tournament itself is run/master.h (one batch: every meeting in one
 * call of exec).  Determinism: all meetings are batch 0 of exec under the
 * master seed S, meeting k seeded by (S, 0, k), so the output does not
 * depend on --threads; nothing that does (time, thread count) is printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "io/ciaofile.h"
#include "run/master.h"

enum {
    OPT_EVERY,
    OPT_GAMES,
    OPT_OPENINGS,
    OPT_SEED,
    OPT_THREADS,
    OPT_OUTPUT,
    OPT_FORCE,
    OPT_JSON,
    OPT_END
};

typedef struct ciao {
    const nk_cli *cli;
    const char *run;
    char *output;
    uint64_t every, games, openings, seed, threads;
    uint64_t odd_games; /* --games N when N was odd (rounded up), else 0 */
    bool force, json;
} ciao;

/* RUN.h5 -> RUN.ciao.h5 (any other name: NAME.ciao.h5). */
static char *default_output(const char *run)
{
    size_t n = strlen(run);
    if (n > 3 && strcmp(run + n - 3, ".h5") == 0)
        n -= 3;
    char *out = nk_malloc(n + 16);
    if (out != NULL)
        snprintf(out, n + 16, "%.*s.ciao.h5", (int)n, run);
    return out;
}

static int read_options(ciao *c, nk_opt *opts)
{
    const nk_cli *cli = c->cli;
    c->every = 1;
    c->threads = 0;
    c->force = opts[OPT_FORCE].value != NULL;
    c->json = opts[OPT_JSON].value != NULL;
    if ((opts[OPT_EVERY].value && !nk_cli_uint(cli, OPT_EVERY, 1, UINT32_MAX, &c->every)) ||
        !nk_cli_number(cli, OPT_GAMES, &c->games) ||
        !nk_cli_number(cli, OPT_OPENINGS, &c->openings) ||
        !nk_cli_number(cli, OPT_SEED, &c->seed) || !nk_cli_number(cli, OPT_THREADS, &c->threads))
        return NK_EXIT_USAGE;
    if (cli->argc != 1) {
        nk_cli_error(cli, "needs one run file, RUN.h5 (got %d operands)", cli->argc);
        return NK_EXIT_USAGE;
    }
    c->run = cli->argv[0];
    const char *out = opts[OPT_OUTPUT].value;
    if (out != NULL && out[0] == '\0') {
        nk_cli_error(cli, "option '--output' needs a file name");
        return NK_EXIT_USAGE;
    }
    c->output = out != NULL ? nk_malloc(strlen(out) + 1) : default_output(c->run);
    if (c->output == NULL) {
        nk_cli_error(cli, "out of memory");
        return NK_EXIT_FAIL;
    }
    if (out != NULL)
        strcpy(c->output, out);
    if (c->games % 2 != 0)
        c->odd_games = c->games++; /* the note comes last */
    return NK_EXIT_OK;
}

/* Refuses an output that exists (without --force) or is the run file. */
static int check_output(const ciao *c)
{
    struct stat so, sr;
    if (stat(c->output, &so) != 0)
        return NK_EXIT_OK;
    if (stat(c->run, &sr) == 0 && so.st_dev == sr.st_dev && so.st_ino == sr.st_ino) {
        nk_cli_error(c->cli, "output '%s' is the run file itself; a run file is never altered",
                     c->output);
        return NK_EXIT_USAGE;
    }
    if (S_ISDIR(so.st_mode)) {
        nk_cli_error(c->cli, "output '%s' is a directory", c->output);
        return NK_EXIT_USAGE;
    }
    if (!c->force) {
        nk_cli_error(c->cli, "output '%s' already exists (--force replaces it)", c->output);
        return NK_EXIT_USAGE;
    }
    return NK_EXIT_OK;
}

/* ===== output ===== */

static void json_numbers(const double *v, size_t n)
{
    putchar('[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            putchar(',');
        if (isnan(v[i]))
            printf("null");
        else
            printf("%.6f", v[i]);
    }
    putchar(']');
}

static void print_json(const ciao *c, const nk_ciao_source *src, const nk_ciao *t,
                       const nk_nash *nash)
{
    size_t n = t->n;
    printf("{\"run\":");
    nk_cli_json_string(stdout, c->run);
    printf(",\"output\":");
    nk_cli_json_string(stdout, c->output);
    printf(",\"variant\":");
    nk_cli_json_string(stdout, src->variant->name);
    printf(",\"player\":");
    nk_cli_json_string(stdout, src->spec.text);
    printf(",\"every\":%llu,\"games\":%llu,\"openings\":%llu,\"seed\":%llu,\"generations\":[",
           (unsigned long long)c->every, (unsigned long long)c->games,
           (unsigned long long)c->openings, (unsigned long long)c->seed);
    for (size_t i = 0; i < n; i++)
        printf("%s%d", i ? "," : "", (int)src->gen[i]);
    printf("],\"score\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            putchar(',');
        json_numbers(t->score + i * n, n);
    }
    printf("],\"ciao\":");
    json_numbers(t->ciao, n);
    printf(",\"master\":");
    json_numbers(t->master, n);
    printf(",\"nash_mix\":");
    json_numbers(nash->mix, n);
    printf(",\"nash_payoff\":");
    json_numbers(nash->payoff, n);
    printf(",\"cyclic_share\":%.6f}\n", nash->cyclic_share);
}

static void print_text(const ciao *c, const nk_ciao_source *src, const nk_ciao *t,
                       const nk_nash *nash)
{
    size_t n = t->n, support = 0;
    printf("run       %s: variant %s, champions play as %s\n", c->run, src->variant->name,
           src->spec.text);
    printf("sampled   %zu champions: generations %d", n, (int)src->gen[0]);
    if (n > 2)
        printf(", %d%s", (int)src->gen[1], n > 3 ? ", ..." : "");
    printf("%s%d (every %llu of %zu)\n", n == 2 ? " and " : ", ", (int)src->gen[n - 1],
           (unsigned long long)c->every, src->generations);
    printf("games     %llu per pairing in colour-swapped pairs, random openings of %llu "
           "plies, seed %llu\n",
           (unsigned long long)c->games, (unsigned long long)c->openings,
           (unsigned long long)c->seed);
    printf("output    %s\n\n", c->output);
    printf("generation  vs earlier  master  nash mix  nash payoff\n");
    for (size_t i = 0; i < n; i++) {
        if (isnan(t->ciao[i]))
            printf("%10d  %10s", (int)src->gen[i], "-");
        else
            printf("%10d  %10.3f", (int)src->gen[i], t->ciao[i]);
        /* The solver is exact to about 1e-11: no "-0.000" for a payoff of 0. */
        double pay = fabs(nash->payoff[i]) < 5e-10 ? 0.0 : nash->payoff[i];
        printf("  %6.3f  %8.3f  %+11.3f\n", t->master[i], nash->mix[i], pay);
        support += nash->mix[i] > 1e-9;
    }
    printf("\nNash average: %zu of %zu champions in the maximum-entropy equilibrium; "
           "cyclic triads: %.1f%% of decided ones\n",
           support, n, 100.0 * nash->cyclic_share);
}

/* ===== the command ===== */

/* Plays the master tournament of src's champions and writes the analysis
 * file. */
static nk_status play(const ciao *c, const nk_ciao_source *src, nk_master **out, char *err,
                      size_t errlen)
{
    nk_master_settings s = {.variant = src->variant,
                            .spec = &src->spec,
                            .ply_limit = src->ply_limit,
                            .n = src->n,
                            .d = src->d,
                            .weights = src->weights,
                            .pairs = c->games / 2,
                            .openings = c->openings,
                            .seed = c->seed,
                            .threads = (int)c->threads};
    nk_status st = nk_master_alloc(out, &s, err, errlen);
    while (st == NK_OK && !nk_master_done(*out))
        st = nk_master_iterate(*out, err, errlen);
    if (st != NK_OK)
        return st;
    nk_master_record r = nk_master_record_of(*out);
    nk_ciao_settings set = {.run = c->run,
                            .every = c->every,
                            .pairs = c->games / 2,
                            .openings = c->openings,
                            .seed = c->seed};
    return nk_ciao_file_write(c->output, &set, src, r.ciao, r.nash, err, errlen);
}

static int run_ciao(const ciao *c)
{
    char err[NK_MSG_MAX];
    nk_ciao_source src;
    nk_master *m = NULL;
    nk_status st = nk_ciao_source_read(&src, c->run, (size_t)c->every, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(c->cli, "%s", err);
        nk_ciao_source_free(&src);
        return nk_cli_exit(st);
    }
    int rc = NK_EXIT_OK;
    st = play(c, &src, &m, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(c->cli, "%s", err);
        rc = st == NK_EIO || st == NK_ENOMEM ? NK_EXIT_FAIL : nk_cli_exit(st);
    } else {
        nk_master_record r = nk_master_record_of(m);
        if (c->json)
            print_json(c, &src, r.ciao, r.nash);
        else
            print_text(c, &src, r.ciao, r.nash);
    }
    nk_master_free(m);
    nk_ciao_source_free(&src);
    return rc;
}

int nk_cmd_ciao(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_EVERY] = {"every", "K",
                       "sample the champion of every K-th generation: K, 2K, ... "
                       "(default 1)",
                       NULL},
        [OPT_GAMES] = NK_OPT_PAIRING_GAMES("games per pairing of champions"),
        [OPT_OPENINGS] = NK_OPT_OPENINGS,
        [OPT_SEED] = NK_OPT_SEED,
        [OPT_THREADS] = NK_OPT_THREADS,
        [OPT_OUTPUT] = {"output", "FILE",
                        "the analysis file (default RUN.ciao.h5 next to RUN.h5; the run file "
                        "is never altered)",
                        NULL},
        [OPT_FORCE] = {"force", NULL, "replace an existing output file", NULL},
        [OPT_JSON] = {"json", NULL,
                      "print one JSON object: generations, score, ciao, master, nash_mix, "
                      "nash_payoff, cyclic_share, ...",
                      NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "ciao",
        .synopsis = "RUN.h5 [--every K] [--games N] [--openings K] [--seed S] [--threads T]\n"
                    "       [--output FILE] [--force] [--json]",
        .about = "Co-evolution progress of a run: the champions of generations K, 2K, ...\n"
                 "play a master tournament, each against each in colour-swapped pairs of\n"
                 "games (Floreano & Nolfi); its lower triangle is the CIAO matrix, each\n"
                 "champion against the earlier ones (Cliff & Miller).  Prints per sampled\n"
                 "generation the mean score against earlier champions and the master-\n"
                 "tournament score, and the Nash average of the score matrix (maximum-\n"
                 "entropy equilibrium of the antisymmetric meta-game) with the share of\n"
                 "cyclic triads.  The matrix goes to the analysis file (docs/runfile.md);\n"
                 "scripts/plot_ciao.py draws it.\n"
                 "Example: nickar ciao results/quickstart/run.h5 --every 5 --games 20",
        .opts = opts,
        .max_args = 1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    ciao c = {.cli = &cli};
    rc = read_options(&c, opts);
    if (rc == NK_EXIT_OK)
        rc = check_output(&c);
    if (rc == NK_EXIT_OK)
        rc = run_ciao(&c);
    nk_free(c.output);
    rc = rc == NK_EXIT_OK ? nk_cli_finish(&cli) : rc;
    /* after every check and write: an error stays the one line */
    if (rc == NK_EXIT_OK && c.odd_games != 0)
        nk_cli_error(&cli,
                     "note: --games %llu is odd; playing %llu per pairing (colour-swapped pairs)",
                     (unsigned long long)c.odd_games, (unsigned long long)c.games);
    return rc;
}
