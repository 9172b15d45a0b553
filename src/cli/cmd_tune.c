/*
 * cmd_tune.c -- `nickar tune`: fits the evaluation of a run config's player
 * to an endgame database's exact values (run/tune.h) and writes the fit as
 * a run file (io/tune_file.h) whose champion is the fitted weights.
 *
 * Progress: one line per solver iteration on stderr, unless --quiet; the
 * summary (residual, grade of the start and of the result, the weights) on
 * stdout.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/runconfig.h"
#include "cli/util.h"
#include "io/config.h"
#include "io/runfile.h"
#include "io/tune_file.h"

enum { OPT_SET, OPT_OUTPUT, OPT_THREADS, OPT_FORCE, OPT_QUIET, OPT_PRINT, OPT_END };

static void grade_line(const char *what, const nk_tune_record *r)
{
    printf("  %-7s optimal %.3f [%.3f, %.3f]  seeds lost per move %.3f [%.3f, %.3f]  (%lld "
           "positions)\n",
           what, r->share[0], r->share[1], r->share[2], r->lost[0], r->lost[1], r->lost[2],
           (long long)r->stats.tb_positions);
}

static void summary(const nk_tune_file *f, const nk_evo_settings *s, const nk_tune_record *first,
                    const nk_tune_record *last, const char *path)
{
    const nk_tune_shape *sh = nk_tune_file_shape(f);
    const bool logistic = strcmp(s->run.tune.loss, "logistic") == 0;
    printf("tuned %s weights of %s (%s) on %zu positions from %llu games of %s inside the "
           "database\n",
           sh->model->name, sh->variant, s->run.tune.loss, sh->positions,
           (unsigned long long)sh->games, s->run.tune.reference);
    printf("iterations %u, residual (root mean square, %s) %.4f, at the start (w = 0) %.4f\n",
           last->iteration, logistic ? "probability" : "seeds", sqrt(last->cost),
           sqrt(first->cost));
    printf("grade against the database (95%% intervals over positions):\n");
    grade_line("start", first);
    grade_line("tuned", last);
    printf("weights:\n");
    for (size_t j = 0; j < sh->model->dim; j++)
        printf("  %-20s %12.6f\n", sh->model->names[j], last->w[j]);
    printf("run file: %s\n", path);
}

/* How to play the result (the run file closed: HDF5 locks it while it is
 * written). */
static void hint(const char *path)
{
    nk_run *run = NULL;
    char err[NK_MSG_MAX];
    if (nk_run_open(&run, path, false, err, sizeof err) == NK_OK)
        nk_report_champion_hint("play the result:  ", nk_run_get_meta(run), path);
    nk_run_close(run);
}

static int run(const nk_cli *cli, const nk_evo_settings *s, const char *path, bool force,
               bool quiet, int threads)
{
    char err[NK_MSG_MAX];
    nk_tune_file *f = NULL;
    nk_status st = nk_tune_file_open(&f, s, path, force, threads, err, sizeof err);
    nk_tune_record first = {0}, last = {0};
    double *w = NULL;
    if (st == NK_OK && (w = nk_malloc(nk_tune_file_shape(f)->model->dim * sizeof *w)) == NULL)
        st = nk_fail(NK_ENOMEM, err, sizeof err, "out of memory");
    while (st == NK_OK && !nk_tune_file_done(f)) {
        const nk_tune_record *r;
        st = nk_tune_file_step(f, &r, err, sizeof err);
        if (st != NK_OK)
            break;
        if (r->iteration == 0)
            first = *r;
        last = *r;
        memcpy(w, r->w, nk_tune_file_shape(f)->model->dim * sizeof *w);
        last.w = w;
        if (!quiet)
            fprintf(stderr, "iteration %u  residual %.6f\n", r->iteration, sqrt(r->cost));
    }
    if (st == NK_OK)
        summary(f, s, &first, &last, path);
    nk_tune_file_close(f);
    nk_free(w);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    hint(path);
    return nk_cli_finish(cli);
}

int nk_cmd_tune(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_SET] = NK_OPT_RUN_SET,
        [OPT_OUTPUT] = NK_OPT_RUN_OUTPUT,
        [OPT_THREADS] = NK_OPT_PLAY("threads", "N", threads,
                                    "threads (recorded; the tuning does not depend on it)"),
        [OPT_FORCE] = {"force", NULL, "replace an existing run file", NULL},
        [OPT_QUIET] = {"quiet", NULL, "no progress output", NULL},
        [OPT_PRINT] = NK_OPT_RUN_PRINT,
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "tune",
        .synopsis = "CONFIG.ini [--set section.key=value]... [--output FILE] [--threads N]\n"
                    "       [--force] [--quiet] [--print-config]",
        .about = "Fits the evaluation weights of the config's player (player.features) to\n"
                 "the exact values of an endgame database (tune.tablebase), on positions\n"
                 "drawn from the games of tune.reference: logistic regression on the\n"
                 "result under perfect play, or least squares on the final seed margin\n"
                 "(tune.loss; docs/tablebase.md, \"Learning from the database\").  Writes a\n"
                 "run file whose champion is the fitted weights, and prints the fit's\n"
                 "residual and the grade of the start (w = 0) and of the result.",
        .opts = opts,
        .max_args = 1,
    };
    const char *sets[NK_CLI_MAX_SETS];
    size_t nsets = 0;
    int n = nk_cli_take_sets(&cli, argc, argv, sets, &nsets);
    if (n < 0)
        return NK_EXIT_USAGE;
    int rc = nk_cli_parse(&cli, n, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli.argc != 1) {
        nk_cli_error(&cli, "missing the config file (nickar tune CONFIG.ini)");
        return NK_EXIT_USAGE;
    }
    uint64_t threads = 0;
    if (!nk_cli_number(&cli, OPT_THREADS, &threads))
        return NK_EXIT_USAGE;
    nk_config *cfg = NULL;
    nk_evo_settings s;
    char *text = NULL, path[4096];
    rc = nk_cli_load_run(&cli, sets, nsets, opts[OPT_PRINT].value != NULL, &cfg, &s, &text);
    if (rc == NK_CLI_GO)
        rc = nk_cli_run_path(&cli, cfg, opts[OPT_OUTPUT].value, s.run.experiment.name, path,
                             sizeof path);
    if (rc == NK_CLI_GO)
        rc = run(&cli, &s, path, opts[OPT_FORCE].value != NULL, opts[OPT_QUIET].value != NULL,
                 (int)threads);
    nk_free(text);
    nk_config_free(cfg);
    return rc;
}
