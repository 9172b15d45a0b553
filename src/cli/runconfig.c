/*
 * runconfig.c -- a run's config on the command line (see runconfig.h).
 */
#include "cli/runconfig.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "io/backup.h"

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

int nk_cli_read_run_args(nk_cli *cli, int argc, char **argv, nk_cli_run_args *a)
{
    const nk_opt *opts = cli->opts;
    int n = nk_cli_take_sets(cli, argc, argv, a->sets, &a->nsets);
    if (n < 0)
        return NK_EXIT_USAGE;
    int rc = nk_cli_parse(cli, n, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli->argc != 1) {
        nk_cli_error(cli, "missing the config file (nickar %s CONFIG.ini)", cli->name);
        return NK_EXIT_USAGE;
    }
    a->resume = opts[NK_RUN_OPT_RESUME].value != NULL;
    a->force = opts[NK_RUN_OPT_FORCE].value != NULL;
    a->quiet = opts[NK_RUN_OPT_QUIET].value != NULL;
    a->print = opts[NK_RUN_OPT_PRINT].value != NULL;
    if (a->resume && a->force) {
        nk_cli_error(cli, "--resume and --force exclude each other");
        return NK_EXIT_USAGE;
    }
    a->threads = 0;
    if (!nk_cli_number(cli, NK_RUN_OPT_THREADS, &a->threads))
        return NK_EXIT_USAGE;
    a->checkpoint = NK_BACKUP_SECONDS;
    if (opts[NK_RUN_OPT_CHECKPOINT].value &&
        !nk_cli_uint(cli, NK_RUN_OPT_CHECKPOINT, 0, 31536000, &a->checkpoint))
        return NK_EXIT_USAGE;
    return NK_CLI_GO;
}

nk_evo_mode nk_cli_run_mode(const nk_cli_run_args *a)
{
    return a->resume ? NK_EVO_RESUME : a->force ? NK_EVO_FORCE : NK_EVO_NEW;
}

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

void nk_cli_catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

bool nk_cli_stop_requested(void)
{
    return stop_flag != 0;
}

void nk_cli_run_notes(const nk_cli_run_args *a, const char *path, bool recovered, bool fresh,
                      unsigned done)
{
    if (a->quiet)
        return;
    if (recovered)
        nk_cli_note("'%s' was damaged (kept as '%s.damaged'); going on from its backup copy", path,
                    path);
    if (fresh)
        nk_cli_note("no run file '%s' yet: starting the run", path);
    else if (a->resume)
        nk_cli_note("resuming '%s' after generation %u", path, done);
}

bool nk_cli_run_too_long(const nk_cli *cli, const nk_cli_run_args *a, const char *path,
                         unsigned have, unsigned want)
{
    if (!a->resume || have <= want)
        return false;
    nk_cli_error(cli,
                 "'%s' already holds %u generations, more than experiment.generations = %u; "
                 "nothing to do (a run cannot be shortened: raise experiment.generations "
                 "to extend it)",
                 path, have, want);
    return true;
}

int nk_cli_run_stopped(const nk_cli *cli, const char *path, unsigned done)
{
    nk_cli_error(cli,
                 "stopped after generation %u; '%s' holds every complete generation; "
                 "continue with --resume",
                 done, path);
    return NK_EXIT_FAIL;
}
