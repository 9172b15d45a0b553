/*
 * runconfig.c -- a run's config on the command line (see runconfig.h).
 */
#include "cli/runconfig.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "cli/cli.h"

/* The --set overrides: the new argc, -1 when --set lacks its value, -2 when
 * there are too many. */
static int take_sets(int argc, char **argv, const char **sets, size_t *nsets)
{
    int out = 1;
    *nsets = 0;
    for (int i = 1; i < argc; i++) {
        const char *val = NULL;
        if (strcmp(argv[i], "--") == 0) {
            while (i < argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strcmp(argv[i], "--set") == 0) {
            if (i + 1 >= argc)
                return -1;
            val = argv[++i];
        } else if (strncmp(argv[i], "--set=", 6) == 0) {
            val = argv[i] + 6;
        }
        if (val != NULL) {
            if (*nsets == NK_CLI_MAX_SETS)
                return -2;
            sets[(*nsets)++] = val;
            continue;
        }
        argv[out++] = argv[i];
    }
    return out;
}

int nk_cli_take_sets(const nk_cli *cli, int argc, char **argv, const char **sets, size_t *nsets)
{
    int n = take_sets(argc, argv, sets, nsets);
    if (n == -1)
        nk_cli_error(cli, "--set needs a value SECTION.KEY=VALUE");
    else if (n == -2)
        nk_cli_error(cli, "more than %d --set options", NK_CLI_MAX_SETS);
    return n;
}

/* mkdir -p for the directory part of path. */
static int make_parent_dirs(const char *path)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf)
        return -1;
    strcpy(buf, path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

/* Reads the config (with the --set overrides) into *cfg and the run's
 * settings into *s, whose config_text is *text (the caller frees both,
 * also on failure); with --print-config prints it instead.  Returns
 * NK_CLI_GO to go on, else the exit code. */
int nk_cli_load_run(const nk_cli *cli, const char *const *sets, size_t nsets, bool print,
                    nk_config **cfg, nk_evo_settings *s, char **text)
{
    char err[NK_MSG_MAX];
    nk_status st = nk_config_read(cfg, cli->argv[0], sets, nsets, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    if (print) {
        st = nk_config_print(*cfg, stdout);
        return st == NK_OK ? nk_cli_finish(cli) : nk_cli_exit(st);
    }
    size_t tlen = nk_config_format(*cfg, NULL, 0);
    *text = nk_malloc(tlen + 1);
    if (*text == NULL) {
        nk_cli_error(cli, "out of memory");
        return NK_EXIT_FAIL;
    }
    nk_config_format(*cfg, *text, tlen + 1);
    st = nk_evo_settings_from_config(s, *cfg, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    s->config_text = *text;
    return NK_CLI_GO;
}

/* The run file's path: --output, else output.file, else
 * results/<experiment.name>/run.h5; its directory is made.  Returns
 * NK_CLI_GO to go on, else the exit code. */
int nk_cli_run_path(const nk_cli *cli, const nk_config *cfg, const char *out, const char *name,
                    char *path, size_t len)
{
    if (out == NULL && *nk_config_string(cfg, "output.file"))
        out = nk_config_string(cfg, "output.file");
    if (out == NULL)
        snprintf(path, len, "results/%s/run.h5", name);
    else
        snprintf(path, len, "%s", out);
    if (make_parent_dirs(path) != 0) {
        nk_cli_error(cli, "cannot create the directory of '%s': %s", path, strerror(errno));
        return NK_EXIT_FAIL;
    }
    return NK_CLI_GO;
}

