/*
 * cmd_learn.c -- `nickar learn`: self-play TD(lambda) / TD-Leaf(lambda)
 * learning of the evaluation of a run config's player (run/td.h), recorded
 * in a run file of evolution's kind (io/td_file.h), so that a learning
 * curve and the champions of a learner compare with an evolution's on the
 * same representation.
 *
 * The name: `learn` says what the command does beside `evolve` (by
 * selection) and `tune` (fitted to a database's labels): the learner
 * teaches itself from its own games.
 *
 * Progress: one line per generation on stderr (one updating line on a
 * terminal), unless --quiet.  SIGINT (and SIGTERM) let the current
 * generation finish and be written, then the command stops; --resume
 * continues exactly.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/runconfig.h"
#include "cli/util.h"
#include "io/config.h"
#include "io/runfile.h"
#include "io/td_file.h"
#include "search/eval.h"

static void progress_line(const nk_td_record *r, unsigned generations, bool tty)
{
    char bench[48] = "";
    if (r->benchmarked)
        snprintf(bench, sizeof bench, "  benchmark %.3f", r->benchmark_score);
    fprintf(stderr,
            "%sgeneration %u/%u  games %lld  South %llu North %llu drawn %d  TD error (mean "
            "square) %.4g%s  %.1fs%s",
            tty ? "\r\033[K" : "", r->generation + 1, generations, (long long)r->stats.evaluations,
            (unsigned long long)r->south_wins, (unsigned long long)r->north_wins, r->draws,
            -r->fitness, bench, r->stats.wall_seconds, tty ? "" : "\n");
    fflush(stderr);
}

/* The weights at the end: each of a short vector, a summary of a long
 * one. */
static void summary(const nk_td_shape *sh, const double *w, const char *path)
{
    printf("learnt %zu weights of %s (%s) in %s, run file %s\n", sh->dim, sh->features, sh->method,
           sh->variant, path);
    if (sh->dim <= 32) {
        for (size_t j = 0; j < sh->dim; j++)
            printf("  %-20s %12.6f\n", sh->names[j], w[j]);
        return;
    }
    nk_weights_summary s;
    nk_eval_weights_summary(w, sh->dim, &s);
    printf("  %zu weights, %zu zero, mean %.6f, mean |w| %.6f, min %.6f (%s), max %.6f (%s)\n", s.n,
           s.zeros, s.mean, s.mean_abs, s.min, sh->names[s.argmin], s.max, sh->names[s.argmax]);
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

/* The generations, until the run is done or a signal asks to stop. */
static nk_status loop(nk_td_file *f, const nk_cli_run_args *a, double **last, char *err, size_t len)
{
    nk_cli_catch_stop();
    const bool tty = isatty(STDERR_FILENO);
    const nk_td_shape *sh = nk_td_file_shape(f);
    nk_status st = NK_OK;
    while (st == NK_OK && !nk_td_file_done(f) && !nk_cli_stop_requested()) {
        const nk_td_record *r;
        st = nk_td_file_step(f, &r, err, len);
        if (st != NK_OK)
            break;
        if (*last == NULL && (*last = nk_malloc(sh->dim * sizeof **last)) == NULL)
            return nk_fail(NK_ENOMEM, err, len, "out of memory");
        memcpy(*last, r->w, sh->dim * sizeof **last);
        if (!a->quiet)
            progress_line(r, sh->generations, tty);
    }
    if (!a->quiet && tty)
        fputc('\n', stderr);
    return st;
}

static int run(const nk_cli *cli, const nk_cli_run_args *a, const nk_config *cfg,
               const nk_evo_settings *s, const char *path)
{
    char err[NK_MSG_MAX];
    nk_td_file *f = NULL;
    nk_status st =
        nk_td_file_open(&f, s, path, nk_cli_run_mode(a), (int)a->threads, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    nk_td_file_set_checkpoint_seconds(f, (double)a->checkpoint);
    unsigned want = (unsigned)nk_config_int(cfg, "experiment.generations");
    if (nk_cli_run_too_long(cli, a, path, nk_td_file_generation(f), want)) {
        nk_td_file_close(f);
        return NK_EXIT_USAGE;
    }
    nk_cli_run_notes(a, path, nk_td_file_recovered(f), nk_td_file_fresh(f),
                     nk_td_file_generation(f));
    double *last = NULL;
    st = loop(f, a, &last, err, sizeof err);
    const nk_td_shape shape = *nk_td_file_shape(f);
    bool interrupted = st == NK_OK && !nk_td_file_done(f);
    unsigned done = nk_td_file_generation(f);
    if (st == NK_OK && !interrupted && !a->quiet && last != NULL)
        summary(&shape, last, path);
    nk_td_file_close(f);
    nk_free(last);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    if (interrupted)
        return nk_cli_run_stopped(cli, path, done);
    if (!a->quiet)
        hint(path);
    return nk_cli_finish(cli);
}

int nk_cmd_learn(int argc, char **argv)
{
    nk_opt opts[] = {
        [NK_RUN_OPT_SET] = NK_OPT_RUN_SET,
        [NK_RUN_OPT_OUTPUT] = NK_OPT_RUN_OUTPUT,
        [NK_RUN_OPT_THREADS] = NK_OPT_PLAY("threads", "N", threads,
                                           "threads playing a batch's games (td.batch); the run "
                                           "does not depend on it; default: all cores"),
        [NK_RUN_OPT_RESUME] = NK_OPT_RUN_RESUME,
        [NK_RUN_OPT_FORCE] = NK_OPT_RUN_FORCE,
        [NK_RUN_OPT_CHECKPOINT] = NK_OPT_RUN_CHECKPOINT,
        [NK_RUN_OPT_QUIET] = NK_OPT_RUN_QUIET,
        [NK_RUN_OPT_PRINT] = NK_OPT_RUN_PRINT,
        [NK_RUN_OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "learn",
        .synopsis = NK_OPT_RUN_SYNOPSIS,
        .about = "Learns the evaluation weights of the config's player (player.features,\n"
                 "a linear set, an n-tuple network or a neural network) by self-play\n"
                 "TD(lambda), or "
                 "TD-Leaf(lambda) through the search's principal variation (td.leaf;\n"
                 "the [td] keys, configs/README.md), and writes the weights after every\n"
                 "generation of td.games games to a run file of evolution's kind, with\n"
                 "the benchmark rows of a learning curve.  The same config gives the same\n"
                 "file whatever --threads is; Ctrl-C finishes the current generation and\n"
                 "stops; --resume continues exactly.",
        .opts = opts,
        .max_args = 1,
    };
    nk_cli_run_args a;
    int rc = nk_cli_read_run_args(&cli, argc, argv, &a);
    if (rc != NK_CLI_GO)
        return rc;
    nk_config *cfg = NULL;
    nk_evo_settings s;
    char *text = NULL, path[4096];
    rc = nk_cli_load_run(&cli, a.sets, a.nsets, a.print, &cfg, &s, &text);
    if (rc == NK_CLI_GO)
        rc = nk_cli_run_path(&cli, cfg, opts[NK_RUN_OPT_OUTPUT].value, s.run.experiment.name, path,
                             sizeof path);
    if (rc == NK_CLI_GO)
        rc = run(&cli, &a, cfg, &s, path);
    nk_free(text);
    nk_config_free(cfg);
    return rc;
}
