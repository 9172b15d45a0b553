/*
 * cmd_evolve.c -- `nickar evolve`: runs an evolution experiment from a
 * config file and records it in an HDF5 run file.
 *
 * Progress: on a terminal one updating line; otherwise one log line per
 * generation on stderr; --quiet silences both.  SIGINT (and SIGTERM) let
 * the current generation finish and be written, then the command stops;
 * `--resume` continues the run exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/alloc.h"
#include "cli/report.h"
#include "cli/runconfig.h"
#include "cli/util.h"
#include "io/config.h"
#include "io/evolve_file.h"
#include "io/runfile.h"

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

/* Opens the run file at path (new, replaced or resumed, as a says), runs
 * the generations until the run is done or a signal asks to stop, and
 * prints the summary.  Returns the exit code. */
static int run(const nk_cli *cli, const nk_cli_run_args *a, const nk_config *cfg,
               const nk_evo_settings *s, const char *path)
{
    char err[NK_MSG_MAX];
    bool quiet = a->quiet;
    nk_evo_file *e = NULL;
    nk_status st =
        nk_evo_file_open(&e, s, path, nk_cli_run_mode(a), (int)a->threads, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    nk_evo_file_set_checkpoint_seconds(e, (double)a->checkpoint);
    /* --resume with fewer generations than the run already has: the file
     * cannot be made shorter, and running nothing silently would look
     * like success */
    unsigned want = (unsigned)nk_config_int(cfg, "experiment.generations");
    if (nk_cli_run_too_long(cli, a, path, nk_evo_file_generation(e), want)) {
        nk_evo_file_close(e);
        return NK_EXIT_USAGE;
    }
    nk_cli_catch_stop();
    bool tty = isatty(STDERR_FILENO);
    double elapsed = 0;
    unsigned steps = 0;
    nk_cli_run_notes(a, path, nk_evo_file_recovered(e), nk_evo_file_fresh(e),
                     nk_evo_file_generation(e));
    while (st == NK_OK && !nk_evo_file_done(e) && !nk_cli_stop_requested()) {
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
    if (interrupted)
        return nk_cli_run_stopped(cli, path, done);
    if (!quiet)
        summary(cli, path);
    return nk_cli_finish(cli);
}

int nk_cmd_evolve(int argc, char **argv)
{
    nk_opt opts[] = {
        [NK_RUN_OPT_SET] = NK_OPT_RUN_SET,
        [NK_RUN_OPT_OUTPUT] = NK_OPT_RUN_OUTPUT,
        [NK_RUN_OPT_THREADS] =
            NK_OPT_PLAY("threads", "N", threads, "threads playing games; default: all cores"),
        [NK_RUN_OPT_RESUME] = NK_OPT_RUN_RESUME,
        [NK_RUN_OPT_FORCE] = NK_OPT_RUN_FORCE,
        [NK_RUN_OPT_CHECKPOINT] = NK_OPT_RUN_CHECKPOINT,
        [NK_RUN_OPT_QUIET] = NK_OPT_RUN_QUIET,
        [NK_RUN_OPT_PRINT] = NK_OPT_RUN_PRINT,
        [NK_RUN_OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "evolve",
        .synopsis = NK_OPT_RUN_SYNOPSIS,
        .about = "Evolves the weights of an evaluation function by self-play, as the\n"
                 "config says (configs/README.md lists every key), and writes every\n"
                 "generation to an HDF5 run file.  Same config and seed give the same\n"
                 "populations whatever --threads is.  Ctrl-C finishes the current\n"
                 "generation and stops; --resume continues exactly.",
        .opts = opts,
        .max_args = 1,
    };
    nk_cli_run_args a;
    int rc = nk_cli_read_run_args(&cli, argc, argv, &a);
    if (rc != NK_CLI_GO)
        return rc;
    nk_config *cfg = NULL;
    nk_evo_settings s;
    char *text = NULL;
    rc = nk_cli_load_run(&cli, a.sets, a.nsets, a.print, &cfg, &s, &text);
    char path[4096];
    if (rc == NK_CLI_GO)
        rc = nk_cli_run_path(&cli, cfg, opts[NK_RUN_OPT_OUTPUT].value, s.run.experiment.name, path,
                             sizeof path);
    if (rc == NK_CLI_GO)
        rc = run(&cli, &a, cfg, &s, path);
    nk_free(text);
    nk_config_free(cfg);
    return rc;
}
