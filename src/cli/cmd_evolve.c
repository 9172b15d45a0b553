/*
 * cmd_evolve.c -- `nickar evolve`: runs an evolution experiment from a
 * config file and records it in an HDF5 run file.
 *
 * Progress: on a terminal one updating line; otherwise one log line per
 * generation on stderr; --quiet silences both.  SIGINT (and SIGTERM) let
 * the current generation finish and be written, then the command stops;
 * `--resume` continues the run exactly.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/alloc.h"
#include "cli/report.h"
#include "cli/runconfig.h"
#include "cli/util.h"
#include "io/backup.h"
#include "io/config.h"
#include "io/evolve_file.h"
#include "io/runfile.h"

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

/* elapsed: the wall time of the `steps` generations run by this command
 * (after --resume, fewer than the generation's number). */
static void progress_line(const nk_evo_progress *p, bool tty, double elapsed, unsigned steps)
{
    double rate = p->seconds > 0 ? (double)p->games / p->seconds : 0;
    double eta = steps ? elapsed / steps * (p->generations - p->generation - 1) : 0;
    char bench[48] = "";
    if (p->benchmarked)
        snprintf(bench, sizeof bench, "  benchmark %.3f", p->benchmark_score);
    fprintf(stderr, "%sgeneration %u/%u  %.0f games/s  best %.3f  mean %.3f%s  ETA %.0fs%s",
            tty ? "\r\033[K" : "", p->generation + 1, p->generations, rate, p->best, p->mean, bench,
            eta, tty ? "" : "\n");
    fflush(stderr);
}

/* The champion and the benchmark scores at the end of a run. */
static void summary(const nk_cli *cli, const char *path)
{
    nk_run *run;
    char err[NK_MSG_MAX];
    if (nk_run_open(&run, path, false, err, sizeof err) != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return;
    }
    const nk_run_meta *m = nk_run_get_meta(run);
    size_t g = nk_run_generations(run), nb = nk_run_benchmarks(run);
    printf("run file: %s (%zu generations)\n", path, g);
    nk_run_bench *rows = nb ? nk_calloc(nb, sizeof *rows) : NULL;
    if (rows && nk_run_read_benchmark(run, 0, nb, rows, err, sizeof err) == NK_OK) {
        printf("champion's benchmark scores (generation: opponent score W-D-L):\n");
        for (size_t i = 0; i < nb; i++)
            printf("  %4d: %-40s %.3f  %d-%d-%d\n", rows[i].generation + 1, rows[i].opponent,
                   rows[i].score, rows[i].wins, rows[i].draws, rows[i].losses);
    }
    nk_free(rows);
    nk_report_champion_hint("play the champion:  ", m, path);
    nk_run_close(run);
}

/* The command line of `nickar evolve` past its option table. */
typedef struct evolve_args {
    const char *sets[NK_CLI_MAX_SETS];
    size_t nsets;
    bool resume, force, quiet, print;
    uint64_t threads, checkpoint;
} evolve_args;

/* Reads argv into *a through cli (whose options are the table above).
 * Returns NK_CLI_GO to go on, else the exit code. */
static int read_args(nk_cli *cli, int argc, char **argv, evolve_args *a)
{
    const nk_opt *opts = cli->opts;
    int n = nk_cli_take_sets(cli, argc, argv, a->sets, &a->nsets);
    if (n < 0)
        return NK_EXIT_USAGE;
    int rc = nk_cli_parse(cli, n, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli->argc != 1) {
        nk_cli_error(cli, "missing the config file (nickar evolve CONFIG.ini)");
        return NK_EXIT_USAGE;
    }
    a->resume = opts[OPT_RESUME].value != NULL;
    a->force = opts[OPT_FORCE].value != NULL;
    a->quiet = opts[OPT_QUIET].value != NULL;
    a->print = opts[OPT_PRINT].value != NULL;
    if (a->resume && a->force) {
        nk_cli_error(cli, "--resume and --force exclude each other");
        return NK_EXIT_USAGE;
    }
    a->threads = 0;
    if (!nk_cli_number(cli, OPT_THREADS, &a->threads))
        return NK_EXIT_USAGE;
    a->checkpoint = NK_BACKUP_SECONDS;
    if (opts[OPT_CHECKPOINT].value &&
        !nk_cli_uint(cli, OPT_CHECKPOINT, 0, 31536000, &a->checkpoint))
        return NK_EXIT_USAGE;
    return NK_CLI_GO;
}

/* Opens the run file at path (new, replaced or resumed, as a says), runs
 * the generations until the run is done or a signal asks to stop, and
 * prints the summary.  Returns the exit code. */
static int run(const nk_cli *cli, const evolve_args *a, const nk_config *cfg,
               const nk_evo_settings *s, const char *path)
{
    char err[NK_MSG_MAX];
    bool resume = a->resume, quiet = a->quiet;
    nk_evo_file *e = NULL;
    nk_status st = nk_evo_file_open(&e, s, path,
                                    resume     ? NK_EVO_RESUME
                                    : a->force ? NK_EVO_FORCE
                                               : NK_EVO_NEW,
                                    (int)a->threads, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    nk_evo_file_set_checkpoint_seconds(e, (double)a->checkpoint);
    /* --resume with fewer generations than the run already has: the file
     * cannot be made shorter, and running nothing silently would look
     * like success */
    unsigned want = (unsigned)nk_config_int(cfg, "experiment.generations");
    if (resume && nk_evo_file_generation(e) > want) {
        nk_cli_error(cli,
                     "'%s' already holds %u generations, more than experiment.generations = %u; "
                     "nothing to do (a run cannot be shortened: raise experiment.generations "
                     "to extend it)",
                     path, nk_evo_file_generation(e), want);
        nk_evo_file_close(e);
        return NK_EXIT_USAGE;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    bool tty = isatty(STDERR_FILENO);
    double elapsed = 0;
    unsigned steps = 0;
    if (!quiet && nk_evo_file_recovered(e))
        nk_cli_note("'%s' was damaged (kept as '%s.damaged'); going on from its backup copy", path,
                    path);
    if (!quiet && nk_evo_file_fresh(e))
        nk_cli_note("no run file '%s' yet: starting the run", path);
    else if (!quiet && resume)
        nk_cli_note("resuming '%s' after generation %u", path, nk_evo_file_generation(e));
    while (st == NK_OK && !nk_evo_file_done(e) && !stop_requested) {
        nk_evo_progress p;
        st = nk_evo_file_step(e, &p, err, sizeof err);
        if (st == NK_OK && !quiet) {
            elapsed += p.seconds;
            progress_line(&p, tty, elapsed, ++steps);
        }
    }
    if (!quiet && tty)
        fputc('\n', stderr);
    bool interrupted = st == NK_OK && !nk_evo_file_done(e);
    unsigned done = nk_evo_file_generation(e);
    nk_evo_file_close(e);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    if (interrupted) {
        nk_cli_error(cli,
                     "stopped after generation %u; '%s' holds every complete "
                     "generation; continue with --resume",
                     done, path);
        return NK_EXIT_FAIL;
    }
    if (!quiet)
        summary(cli, path);
    return nk_cli_finish(cli);
}

int nk_cmd_evolve(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_SET] = NK_OPT_RUN_SET,
        [OPT_OUTPUT] = NK_OPT_RUN_OUTPUT,
        [OPT_THREADS] =
            NK_OPT_PLAY("threads", "N", threads, "threads playing games; default: all cores"),
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
        .name = "evolve",
        .synopsis =
            "CONFIG.ini [--set section.key=value]... [--output FILE] [--threads N]\n"
            "       [--resume | --force] [--checkpoint-seconds S] [--quiet] [--print-config]",
        .about = "Evolves the weights of an evaluation function by self-play, as the\n"
                 "config says (configs/README.md lists every key), and writes every\n"
                 "generation to an HDF5 run file.  Same config and seed give the same\n"
                 "populations whatever --threads is.  Ctrl-C finishes the current\n"
                 "generation and stops; --resume continues exactly.",
        .opts = opts,
        .max_args = 1,
    };
    evolve_args a;
    int rc = read_args(&cli, argc, argv, &a);
    if (rc != NK_CLI_GO)
        return rc;
    nk_config *cfg = NULL;
    nk_evo_settings s;
    char *text = NULL;
    rc = nk_cli_load_run(&cli, a.sets, a.nsets, a.print, &cfg, &s, &text);
    char path[4096];
    if (rc == NK_CLI_GO)
        rc = nk_cli_run_path(&cli, cfg, opts[OPT_OUTPUT].value, s.run.experiment.name, path, sizeof path);
    if (rc == NK_CLI_GO)
        rc = run(&cli, &a, cfg, &s, path);
    nk_free(text);
    nk_config_free(cfg);
    return rc;
}
