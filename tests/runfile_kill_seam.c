/*
 * runfile_kill_seam.c -- compiled only into nickar-test (tests/CMakeLists.txt):
 * with NICKAR_KILL_AT=N in the environment, the process dies with _exit(137)
 * (as a SIGKILL would leave it: no flush, no cleanup) just before the Nth
 * step of the run file's I/O (nk_io_step in io/backup.h: every HDF5 write
 * and flush, every write, sync, rename, link, unlink and truncate of the
 * copies).  NICKAR_KILL_LOG=FILE appends one line per step ("N what") so
 * that a test can count them.  tests/test_runfile_kill.sh walks N over
 * every step of a small run and of its resume.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "io/backup.h"

static unsigned long kill_at, steps;
static FILE *log_file;

static void step(const char *what)
{
    steps++;
    if (log_file != NULL) {
        fprintf(log_file, "%lu %s\n", steps, what);
        fflush(log_file);
    }
    if (kill_at != 0 && steps == kill_at)
        _exit(137);
}

__attribute__((constructor)) static void install(void)
{
    const char *at = getenv("NICKAR_KILL_AT"), *log = getenv("NICKAR_KILL_LOG");
    if (at != NULL)
        kill_at = strtoul(at, NULL, 10);
    if (log != NULL)
        log_file = fopen(log, "a");
    if (kill_at != 0 || log_file != NULL)
        nk_io_step_hook = step;
}
