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
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/runconfig.h"
#include "cli/util.h"
#include "io/backup.h"
#include "io/config.h"
#include "io/runfile.h"
#include "io/td_file.h"
#include "search/eval.h"

enum {
    OPT_SET,
    OPT_OUTPUT,
    OPT_THREADS,
    OPT_RESUME,
    OPT_FORCE,
    OPT_CHECKPOINT,
    OPT_QUIET,
    OPT_PRINT,
    OPT_END
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void progress_line(const nk_td_record *r, unsigned generations, bool tty)
{
    char bench[48] = "";
    if (r->benchmarked)
        snprintf(bench, sizeof bench, "  benchmark %.3f", r->benchmark_score);
    fprintf(stderr,
            "%sgeneration %u/%u  games %lld  South %llu North %llu drawn %d  TD error (mean "
            "square) %.4g%s  %.1fs%s",
            tty ? "\r\033[K" : "", r->generation + 1, generations,
            (long long)r->stats.evaluations, (unsigned long long)r->south_wins,
            (unsigned long long)r->north_wins, r->draws, -r->fitness, bench,
            r->stats.wall_seconds, tty ? "" : "\n");
    fflush(stderr);
}

/* The weights at the end: each of a short vector, a summary of a long
 * one. */
static void summary(const nk_td_shape *sh, const double *w, const char *path)
{
    printf("learnt %zu weights of %s (%s) in %s, run file %s\n", sh->dim, sh->features,
           sh->method, sh->variant, path);
    if (sh->dim <= 32) {
        for (size_t j = 0; j < sh->dim; j++)
            printf("  %-20s %12.6f\n", sh->names[j], w[j]);
        return;
    }
    nk_weights_summary s;
    nk_eval_weights_summary(w, sh->dim, &s);
    printf("  %zu weights, %zu zero, mean %.6f, mean |w| %.6f, min %.6f (%s), max %.6f (%s)\n",
           s.n, s.zeros, s.mean, s.mean_abs, s.min, sh->names[s.argmin], s.max,
           sh->names[s.argmax]);
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

typedef struct learn_args {
    bool resume, force, quiet;
    uint64_t threads, checkpoint;
} learn_args;

/* The generations, until the run is done or a signal asks to stop. */
static nk_status loop(nk_td_file *f, const learn_args *a, double **last, char *err, size_t len)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    const bool tty = isatty(STDERR_FILENO);
    const nk_td_shape *sh = nk_td_file_shape(f);
    nk_status st = NK_OK;
    while (st == NK_OK && !nk_td_file_done(f) && !stop_requested) {
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

static int run(const nk_cli *cli, const learn_args *a, const nk_config *cfg,
               const nk_evo_settings *s, const char *path)
{
    char err[NK_MSG_MAX];
    nk_td_file *f = NULL;
    nk_status st = nk_td_file_open(&f, s, path,
                                   a->resume  ? NK_EVO_RESUME
                                   : a->force ? NK_EVO_FORCE
                                              : NK_EVO_NEW,
                                   (int)a->threads, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    nk_td_file_set_checkpoint_seconds(f, (double)a->checkpoint);
    unsigned want = (unsigned)nk_config_int(cfg, "experiment.generations");
    if (a->resume && nk_td_file_generation(f) > want) {
        nk_cli_error(cli,
                     "'%s' already holds %u generations, more than experiment.generations = %u; "
                     "nothing to do (raise experiment.generations to extend it)",
                     path, nk_td_file_generation(f), want);
        nk_td_file_close(f);
        return NK_EXIT_USAGE;
    }
    if (!a->quiet && nk_td_file_recovered(f))
        nk_cli_note("'%s' was damaged (kept as '%s.damaged'); going on from its backup copy", path,
                    path);
    if (!a->quiet && nk_td_file_fresh(f))
        nk_cli_note("no run file '%s' yet: starting the run", path);
    else if (!a->quiet && a->resume)
        nk_cli_note("resuming '%s' after generation %u", path, nk_td_file_generation(f));
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
    if (interrupted) {
        nk_cli_error(cli,
                     "stopped after generation %u; '%s' holds every complete generation; "
                     "continue with --resume",
                     done, path);
        return NK_EXIT_FAIL;
    }
    if (!a->quiet)
        hint(path);
    return nk_cli_finish(cli);
}

/* Reads argv through cli into *a.  Returns NK_CLI_GO to go on, else the
 * exit code. */
static int read_args(nk_cli *cli, int argc, char **argv, const char **sets, size_t *nsets,
                     learn_args *a)
{
    const nk_opt *opts = cli->opts;
    int n = nk_cli_take_sets(cli, argc, argv, sets, nsets);
    if (n < 0)
        return NK_EXIT_USAGE;
    int rc = nk_cli_parse(cli, n, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli->argc != 1) {
        nk_cli_error(cli, "missing the config file (nickar learn CONFIG.ini)");
        return NK_EXIT_USAGE;
    }
    a->resume = opts[OPT_RESUME].value != NULL;
    a->force = opts[OPT_FORCE].value != NULL;
    a->quiet = opts[OPT_QUIET].value != NULL;
    if (a->resume && a->force) {
        nk_cli_error(cli, "--resume and --force exclude each other");
        return NK_EXIT_USAGE;
    }
    a->threads = 0;
    a->checkpoint = NK_BACKUP_SECONDS;
    if (!nk_cli_number(cli, OPT_THREADS, &a->threads) ||
        (opts[OPT_CHECKPOINT].value &&
         !nk_cli_uint(cli, OPT_CHECKPOINT, 0, 31536000, &a->checkpoint)))
        return NK_EXIT_USAGE;
    return NK_CLI_GO;
}

int nk_cmd_learn(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_SET] = NK_OPT_RUN_SET,
        [OPT_OUTPUT] = NK_OPT_RUN_OUTPUT,
        [OPT_THREADS] = NK_OPT_PLAY("threads", "N", threads,
                                    "threads playing a batch's games (td.batch); the run does "
                                    "not depend on it; default: all cores"),
        [OPT_RESUME] = {"resume", NULL,
                        "continue the run in its run file (start it if there is none yet)", NULL},
        [OPT_FORCE] = {"force", NULL, "replace an existing run file", NULL},
        [OPT_CHECKPOINT] = {"checkpoint-seconds", "S",
                            "seconds between backup copies (default 60; 0: every generation)",
                            NULL},
        [OPT_QUIET] = {"quiet", NULL, "no progress output", NULL},
        [OPT_PRINT] = NK_OPT_RUN_PRINT,
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "learn",
        .synopsis =
            "CONFIG.ini [--set section.key=value]... [--output FILE] [--threads N]\n"
            "       [--resume | --force] [--checkpoint-seconds S] [--quiet] [--print-config]",
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
    const char *sets[NK_CLI_MAX_SETS];
    size_t nsets = 0;
    learn_args a;
    int rc = read_args(&cli, argc, argv, sets, &nsets, &a);
    if (rc != NK_CLI_GO)
        return rc;
    nk_config *cfg = NULL;
    nk_evo_settings s;
    char *text = NULL, path[4096];
    rc = nk_cli_load_run(&cli, sets, nsets, opts[OPT_PRINT].value != NULL, &cfg, &s, &text);
    if (rc == NK_CLI_GO)
        rc = nk_cli_run_path(&cli, cfg, opts[OPT_OUTPUT].value, s.run.experiment.name, path,
                             sizeof path);
    if (rc == NK_CLI_GO)
        rc = run(&cli, &a, cfg, &s, path);
    nk_free(text);
    nk_config_free(cfg);
    return rc;
}
