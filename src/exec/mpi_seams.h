/*
 * mpi_seams.h -- the test seams of the MPI worker (mpi_worker.c): the
 * points where a test build can make a worker misbehave on purpose, so
 * that tests/test_mpi.sh can check how rank 0 copes with a worker that
 * falls silent or leaves in the middle of a batch.
 *
 * Only a build with NICKAR_TEST_SEAMS defined has them: tests/CMakeLists.txt
 * compiles mpi_worker.c and mpi_seams.c that way into the nickar-test
 * binary.  Everywhere else (the nk_exec library, the nickar binary) the
 * seams below are empty inline functions and no environment variable can
 * change what a worker does.
 *
 * The test build reads, when nk_mpi_serve starts, for the rank
 * NICKAR_TEST_WORKER_RANK (default: the last):
 *   NICKAR_TEST_WORKER_EXIT_AFTER=N  nk_mpi_serve returns NK_EINTERRUPTED
 *                                    after N answers (the caller ends the
 *                                    process without MPI_Finalize);
 *   NICKAR_TEST_WORKER_HANG_AFTER=N  the worker stops answering after N
 *                                    answers and never returns.
 */
#ifndef NK_MPI_SEAMS_H
#define NK_MPI_SEAMS_H

#include <stddef.h>

#include "base/status.h"

#ifdef NICKAR_TEST_SEAMS

/* What a worker's seams are set to, and the answers it has sent. */
typedef struct nk_mpi_seams {
    long exit_after, hang_after; /* answers; -1: never */
    long answers;
} nk_mpi_seams;

/* Reads the settings above for this rank (after nk_mpi_init). */
void nk_mpi_seams_init(nk_mpi_seams *s);

/* Called by a worker's thread 0 after each answer it sent, with the status
 * of that answer; returns the status to go on with.  May never return. */
nk_status nk_mpi_seams_answered(nk_mpi_seams *s, nk_status st, char *err, size_t errlen);

#else /* a production build: no seams */

typedef struct nk_mpi_seams {
    char unused;
} nk_mpi_seams;

static inline void nk_mpi_seams_init(nk_mpi_seams *s)
{
    (void)s;
}

static inline nk_status nk_mpi_seams_answered(nk_mpi_seams *s, nk_status st, char *err,
                                              size_t errlen)
{
    (void)s, (void)err, (void)errlen;
    return st;
}

#endif /* NICKAR_TEST_SEAMS */

#endif
