/*
 * process.c -- a program behind two pipes (contract in process.h).
 *
 * Started with posix_spawnp, which reports a program that cannot be run
 * (ENOENT, EACCES) as its own failure rather than as a child that exits at
 * once.  Ended in three steps: its input is closed (a protocol engine exits
 * at the end of its input), it has a grace period to exit, then its
 * process group is killed.  The exit is seen with waitid(WNOWAIT) first, so
 * that the group is killed while the group's leader is still unreaped and
 * its number cannot belong to anyone else yet; then it is reaped.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "ext/process.h"

extern char **environ;

/* The engine's environment: nickar's, less what would make it believe it
 * is a rank of an MPI job (the launcher's variables, NICKAR_MPI): an
 * engine started by a rank is that rank's, not the job's (exec/mpi.c reads
 * them).  NULL when out of memory; the strings are environ's. */
static char **engine_environ(void)
{
    static const char *const drop[] = {"OMPI_", "PMIX_", "PMI_", "NICKAR_MPI"};
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    char **env = nk_malloc((n + 1) * sizeof *env);
    if (env == NULL)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool keep = true;
        for (size_t d = 0; d < sizeof drop / sizeof *drop; d++)
            keep &= strncmp(environ[i], drop[d], strlen(drop[d])) != 0;
        if (keep)
            env[k++] = environ[i];
    }
    env[k] = NULL;
    return env;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Splits command at spaces into argv (words point into copy); -1 for more
 * than NK_PROC_ARGS words. */
static int split_words(char *copy, char *argv[NK_PROC_ARGS + 1])
{
    int argc = 0;
    char *save = NULL; /* strtok_r: engines start on several threads at once */
    for (char *w = strtok_r(copy, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
        if (argc == NK_PROC_ARGS)
            return -1;
        argv[argc++] = w;
    }
    argv[argc] = NULL;
    return argc;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* The spawn of argv with in_r as its input and out_w as its output. */
static int spawn(pid_t *pid, char *const argv[], int in_r, int out_w)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none, dflt;
    sigemptyset(&none);
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGPIPE);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in_r, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out_w, STDOUT_FILENO);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                        POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &dflt);
    posix_spawnattr_setpgroup(&attr, 0);
    char **env = engine_environ();
    int rc = env == NULL ? ENOMEM : posix_spawnp(pid, argv[0], &fa, &attr, argv, env);
    nk_free(env);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

nk_status nk_proc_start(nk_proc *p, const char *command, char *err, size_t errlen)
{
    char copy[4096];
    char *argv[NK_PROC_ARGS + 1];
    memset(p, 0, sizeof *p);
    p->in = p->out = -1;
    snprintf(copy, sizeof copy, "%s", command);
    int argc = split_words(copy, argv);
    if (argc <= 0)
        return nk_fail(NK_EINVAL, err, errlen, argc ? "the command has more than %d words"
                                                    : "the command is empty", NK_PROC_ARGS);
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return nk_fail(NK_EINVAL, err, errlen, "cannot make a pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0) {
        int e = errno;
        close(in[0]);
        close(in[1]);
        return nk_fail(NK_EINVAL, err, errlen, "cannot make a pipe: %s", strerror(e));
    }
    int rc = spawn(&p->pid, argv, in[0], out[1]);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        p->pid = 0;
        return nk_fail(NK_EINVAL, err, errlen, "cannot start '%s': %s", argv[0], strerror(rc));
    }
    p->in = in[1];
    p->out = out[0];
    return NK_OK;
}

bool nk_proc_send(nk_proc *p, const char *line)
{
    if (p->in < 0)
        return false;
    /* SIGPIPE blocked in this thread while writing, and taken back if the
     * write raised it: a gone engine is an EPIPE, not the end of nickar. */
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    size_t n = strlen(line);
    char buf[NK_PROC_LINE + 2];
    bool ok = n < sizeof buf - 1;
    if (ok) {
        memcpy(buf, line, n);
        buf[n++] = '\n';
    }
    for (size_t done = 0; ok && done < n;) {
        ssize_t w = write(p->in, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            ok = false;
            if (errno == EPIPE) {
                sigset_t pending;
                sigpending(&pending);
                if (sigismember(&pending, SIGPIPE)) {
                    struct timespec zero = {0, 0};
                    sigtimedwait(&pipe_set, NULL, &zero);
                }
            }
            break;
        }
        done += (size_t)w;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* Moves the first line of buf (newline at nl) into line[len]. */
static void take_line(nk_proc *p, size_t nl, char *line, size_t len)
{
    size_t n = nl;
    if (n > 0 && p->buf[n - 1] == '\r')
        n--;
    if (len > 0) {
        size_t c = n < len - 1 ? n : len - 1;
        memcpy(line, p->buf, c);
        line[c] = '\0';
    }
    p->have -= nl + 1;
    memmove(p->buf, p->buf + nl + 1, p->have);
}

nk_proc_got nk_proc_read(nk_proc *p, char *line, size_t len, double seconds)
{
    double deadline = now_seconds() + seconds;
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->have);
        if (nl != NULL && (size_t)(nl - p->buf) <= NK_PROC_LINE) {
            take_line(p, (size_t)(nl - p->buf), line, len);
            return NK_PROC_GOT_LINE;
        }
        if (nl != NULL || p->have > NK_PROC_LINE) {
            p->have = 0;
            return NK_PROC_GOT_LONG;
        }
        if (p->out < 0)
            return NK_PROC_GOT_EOF;
        double left = deadline - now_seconds();
        if (left <= 0)
            return NK_PROC_GOT_TIMEOUT;
        struct pollfd fd = {p->out, POLLIN, 0};
        int ms = left > 1e6 ? 1000000000 : (int)(left * 1000.0) + 1;
        int r = poll(&fd, 1, ms);
        if (r < 0 && errno != EINTR)
            return NK_PROC_GOT_EOF;
        if (r <= 0)
            continue;
        ssize_t got = read(p->out, p->buf + p->have, sizeof p->buf - p->have);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            return NK_PROC_GOT_EOF;
        p->have += (size_t)got;
    }
}

/* Whether the process has exited (seen, not reaped). */
static bool has_exited(const nk_proc *p)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == p->pid;
}

/* Reads and drops what it writes while it exits, for at most ms. */
static void drain(nk_proc *p, int ms)
{
    if (p->out < 0) {
        struct timespec ts = {0, (long)ms * 1000000L};
        nanosleep(&ts, NULL);
        return;
    }
    struct pollfd fd = {p->out, POLLIN, 0};
    if (poll(&fd, 1, ms) > 0) {
        char sink[4096];
        if (read(p->out, sink, sizeof sink) <= 0)
            close_fd(&p->out);
    }
}

void nk_proc_end(nk_proc *p, double grace)
{
    if (p->pid <= 0)
        return;
    close_fd(&p->in);
    double deadline = now_seconds() + grace;
    while (!has_exited(p) && now_seconds() < deadline)
        drain(p, 10);
    kill(-p->pid, SIGKILL); /* the group: what it started, and itself if still running */
    kill(p->pid, SIGKILL);
    while (waitpid(p->pid, &p->status, 0) < 0 && errno == EINTR)
        ;
    p->reaped = true;
    p->pid = 0;
    close_fd(&p->out);
    p->have = 0;
}

const char *nk_proc_exit_text(const nk_proc *p, char *buf, size_t len)
{
    if (!p->reaped)
        snprintf(buf, len, "is running");
    else if (WIFEXITED(p->status))
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(p->status));
    else if (WIFSIGNALED(p->status))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(p->status),
                 strsignal(WTERMSIG(p->status)));
    else
        snprintf(buf, len, "ended with wait status %d", p->status);
    return buf;
}
