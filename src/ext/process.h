/*
 * process.h -- a program started with pipes to its standard input and
 * output, spoken to a line at a time with deadlines, and always reaped.
 *
 * The engine protocol (docs/protocol.md) needs four things of a process:
 * start it without a shell, write a line without dying of SIGPIPE when it
 * has gone, read a line or learn within a deadline that none came, and end
 * it so that no zombie and no orphan of it remains.  The program runs in a
 * process group of its own (so that ending it ends what it started) with
 * SIGPIPE and the signal mask at their defaults; every pipe end is
 * close-on-exec, so that engines started by other threads at the same time
 * inherit none of it (an inherited write end would hide an engine's exit).
 *
 * Nothing here prints; failures are a status and a one-line message.
 */
#ifndef NK_EXT_PROCESS_H
#define NK_EXT_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/status.h"

/* The longest line read, its newline excluded (docs/protocol.md). */
enum { NK_PROC_LINE = 16383, NK_PROC_ARGS = 64 };

typedef struct nk_proc {
    pid_t pid;      /* 0: no process */
    int in, out;    /* our ends of its standard input and output; -1: closed */
    int status;     /* its wait status once reaped */
    bool reaped;
    size_t have;    /* bytes in buf not yet returned as lines */
    char buf[NK_PROC_LINE + 2];
} nk_proc;

/* The results of nk_proc_read. */
typedef enum nk_proc_got {
    NK_PROC_GOT_LINE,    /* a line */
    NK_PROC_GOT_EOF,     /* its output closed (it exited, most likely) */
    NK_PROC_GOT_TIMEOUT, /* no whole line within the deadline */
    NK_PROC_GOT_LONG     /* a line longer than NK_PROC_LINE */
} nk_proc_got;

/* Starts command, split at spaces, with its standard error inherited.
 * NK_EINVAL when it cannot be started (err: why, e.g. "No such file or
 * directory"), NK_ENOMEM. */
nk_status nk_proc_start(nk_proc *p, const char *command, char *err, size_t errlen);
/* Writes line and a newline.  false when the process no longer reads
 * (EPIPE), without SIGPIPE. */
bool nk_proc_send(nk_proc *p, const char *line);
/* Reads the next line (without its newline or a '\r' before it) into
 * line[len], waiting at most seconds. */
nk_proc_got nk_proc_read(nk_proc *p, char *line, size_t len, double seconds);
/* Ends the process: closes its input, gives it grace seconds to exit,
 * then kills its process group, and reaps it.  No-op without a process. */
void nk_proc_end(nk_proc *p, double grace);
/* How it ended, once reaped ("exited with status 3", "was killed by
 * signal 9"), into buf; "is running" before. */
const char *nk_proc_exit_text(const nk_proc *p, char *buf, size_t len);

#endif
