/*
 * runconfig.h -- what the commands that run a config share (`nickar
 * evolve`, `nickar tune`): the --set overrides, the config read into a
 * run's settings (or printed with --print-config), and the run file's
 * path.
 */
#ifndef NK_CLI_RUNCONFIG_H
#define NK_CLI_RUNCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/util.h"
#include "io/config.h"
#include "io/evolve_file.h"

enum { NK_CLI_MAX_SETS = 256 };

/* The options of a run config that both commands take, for their tables. */
#define NK_OPT_RUN_SET {"set", "SECTION.KEY=VALUE", "override a config key (repeatable)", NULL}
#define NK_OPT_RUN_OUTPUT                                                                          \
    {"output", "FILE", "run file (default: output.file, else results/<experiment.name>/run.h5)",    \
     NULL}
#define NK_OPT_RUN_PRINT                                                                           \
    {"print-config", NULL, "print the resolved config (defaults included) and exit", NULL}

/* Takes every `--set X` / `--set=X` out of argv (the option repeats, which
 * nk_cli keeps only once) into sets[0..*nsets).  Returns the new argc, or
 * a negative number after one line on stderr when --set lacks its value or
 * there are more than NK_CLI_MAX_SETS. */
int nk_cli_take_sets(const nk_cli *cli, int argc, char **argv, const char **sets,
                     size_t *nsets);

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
