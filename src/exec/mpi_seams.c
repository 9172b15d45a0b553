/*
 * mpi_seams.c -- the test build's MPI worker seams (mpi_seams.h): a worker
 * that leaves or falls silent after a number of answers, as the
 * environment of the test says.  Compiled to nothing unless
 * NICKAR_TEST_SEAMS is defined, which only the nickar-test binary of
 * tests/CMakeLists.txt does.
 *
 * Invariant kept here: the seams act on one rank only, and only through
 * the status they return (or by never returning); they touch neither MPI
 * nor the batch.
 */
#include "exec/mpi_seams.h"

#ifdef NICKAR_TEST_SEAMS

#include <stdlib.h>
#include <time.h>

#include "exec/mpi.h"

static long env_long(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? strtol(v, NULL, 10) : -1;
}

void nk_mpi_seams_init(nk_mpi_seams *s)
{
    *s = (nk_mpi_seams){-1, -1, 0};
    long target = env_long("NICKAR_TEST_WORKER_RANK");
    if (target < 0)
        target = nk_mpi_size() - 1;
    if (target == nk_mpi_rank()) {
        s->exit_after = env_long("NICKAR_TEST_WORKER_EXIT_AFTER");
        s->hang_after = env_long("NICKAR_TEST_WORKER_HANG_AFTER");
    }
}

nk_status nk_mpi_seams_answered(nk_mpi_seams *s, nk_status st, char *err, size_t errlen)
{
    s->answers++;
    if (s->answers == s->hang_after)
        for (;;) { /* silence, for ever */
            struct timespec ts = {60, 0};
            nanosleep(&ts, NULL);
        }
    if (s->answers == s->exit_after && st == NK_OK)
        return nk_fail(NK_EINTERRUPTED, err, errlen,
                       "leaving on purpose after %ld answers "
                       "(NICKAR_TEST_WORKER_EXIT_AFTER)",
                       s->answers);
    return st;
}

#else
/* ISO C wants a translation unit to declare something. */
typedef int nk_mpi_seams_none;
#endif /* NICKAR_TEST_SEAMS */
