/*
 * runconfig.h -- what the commands that run a config share (`nickar
 * evolve`, `nickar learn`, `nickar tune`): the --set overrides, the config
 * read into a run's settings (or printed with --print-config), and the run
 * file's path; and what the two that run generations into a resumable run
 * file share (`evolve`, `learn`): their options, the stop on a signal and
 * the messages around the generations.
 */
#ifndef NK_CLI_RUNCONFIG_H
#define NK_CLI_RUNCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/util.h"
#include "io/config.h"
#include "io/evolve_file.h"

enum { NK_CLI_MAX_SETS = 256 };

/* The options of a run config that both commands take, for their tables. */
#define NK_OPT_RUN_SET                                                                             \
    {                                                                                              \
        "set", "SECTION.KEY=VALUE", "override a config key (repeatable)", NULL                     \
    }
#define NK_OPT_RUN_OUTPUT                                                                          \
    {                                                                                              \
        "output", "FILE",                                                                          \
            "run file (default: output.file, else results/<experiment.name>/run.h5)", NULL         \
    }
#define NK_OPT_RUN_PRINT                                                                           \
    {                                                                                              \
        "print-config", NULL, "print the resolved config (defaults included) and exit", NULL       \
    }

/* The option table of `evolve` and `learn`, in this order (their opts[]
 * index by these); THREADS's text is each command's own. */
enum {
    NK_RUN_OPT_SET,
    NK_RUN_OPT_OUTPUT,
    NK_RUN_OPT_THREADS,
    NK_RUN_OPT_RESUME,
    NK_RUN_OPT_FORCE,
    NK_RUN_OPT_CHECKPOINT,
    NK_RUN_OPT_QUIET,
    NK_RUN_OPT_PRINT,
    NK_RUN_OPT_END
};
#define NK_OPT_RUN_RESUME                                                                          \
    {                                                                                              \
        "resume", NULL, "continue the run in its run file (start it if there is none yet)", NULL   \
    }
#define NK_OPT_RUN_FORCE                                                                           \
    {                                                                                              \
        "force", NULL, "replace an existing run file", NULL                                        \
    }
#define NK_OPT_RUN_CHECKPOINT                                                                      \
    {                                                                                              \
        "checkpoint-seconds", "S",                                                                 \
            "seconds between backup copies (default 60; 0: every generation)", NULL                \
    }
#define NK_OPT_RUN_QUIET                                                                           \
    {                                                                                              \
        "quiet", NULL, "no progress output", NULL                                                  \
    }
#define NK_OPT_RUN_SYNOPSIS                                                                        \
    "CONFIG.ini [--set section.key=value]... [--output FILE] [--threads N]\n"                      \
    "       [--resume | --force] [--checkpoint-seconds S] [--quiet] [--print-config]"

/* The command line of `evolve` and `learn` past their option table. */
typedef struct nk_cli_run_args {
    const char *sets[NK_CLI_MAX_SETS];
    size_t nsets;
    bool resume, force, quiet, print;
    uint64_t threads, checkpoint;
} nk_cli_run_args;

/* Reads argv into *a through cli (whose options are indexed by
 * NK_RUN_OPT_*): one config file, --resume and --force exclusive, the
 * numbers checked.  Returns NK_CLI_GO to go on, else the exit code (one
 * line on stderr). */
int nk_cli_read_run_args(nk_cli *cli, int argc, char **argv, nk_cli_run_args *a);

/* The run file's opening mode that --resume and --force ask for. */
nk_evo_mode nk_cli_run_mode(const nk_cli_run_args *a);

/* SIGINT and SIGTERM from now on only set the flag nk_cli_stop_requested
 * reads: the running generation finishes and is written. */
void nk_cli_catch_stop(void);
bool nk_cli_stop_requested(void);

/* The notes before the generations (unless quiet): a damaged file
 * recovered from its backup copy, a fresh run, or a resumed one after
 * generation `done`. */
void nk_cli_run_notes(const nk_cli_run_args *a, const char *path, bool recovered, bool fresh,
                      unsigned done);

/* --resume of a run that already holds more generations than the config
 * asks (it cannot be shortened): one line, and true. */
bool nk_cli_run_too_long(const nk_cli *cli, const nk_cli_run_args *a, const char *path,
                         unsigned have, unsigned want);

/* The exit of a run stopped by a signal after generation `done`: one
 * line, NK_EXIT_FAIL. */
int nk_cli_run_stopped(const nk_cli *cli, const char *path, unsigned done);

/* Takes every `--set X` / `--set=X` out of argv (the option repeats, which
 * nk_cli keeps only once) into sets[0..*nsets).  Returns the new argc, or
 * a negative number after one line on stderr when --set lacks its value or
 * there are more than NK_CLI_MAX_SETS. */
int nk_cli_take_sets(const nk_cli *cli, int argc, char **argv, const char **sets, size_t *nsets);

/* Reads the config cli->argv[0] (with the --set overrides) into *cfg and
 * the run's settings into *s, whose config_text is *text (the caller frees
 * both, also on failure); with print, prints it instead.  Returns
 * NK_CLI_GO to go on, else the exit code. */
int nk_cli_load_run(const nk_cli *cli, const char *const *sets, size_t nsets, bool print,
                    nk_config **cfg, nk_evo_settings *s, char **text);

/* The run file's path: out (--output), else output.file, else
 * results/<name>/run.h5; its directory is made.  Returns NK_CLI_GO to go
 * on, else the exit code. */
int nk_cli_run_path(const nk_cli *cli, const nk_config *cfg, const char *out, const char *name,
                    char *path, size_t len);

#endif
