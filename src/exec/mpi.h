/*
 * mpi.h -- nickar under mpirun: one process per rank, rank 0 the controller.
 *
 * The same binary runs alone or as one of K ranks under `mpirun -np K`
 * (docs/cluster.md).  Rank 0 runs the command as a
 * lone process would; every batch of games it starts (nk_exec_run) goes out
 * to the other ranks in chunks of several games, to whichever rank answered
 * last (dynamic load balancing), while rank 0's own threads play games of
 * the same batch too.  The other ranks run nk_mpi_serve(): they wait for a
 * batch, play the chunks they are sent on their OpenMP threads and send the
 * results back, until rank 0 says stop.  Every game's result lands at its
 * job's index, so the results are those of a single process, whatever the
 * number of ranks and threads.
 *
 * A rank is "launched by mpirun" when its environment says so
 * (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK or PMI_SIZE); only then does
 * nk_mpi_init call MPI_Init, so a plain `nickar` starts as fast as ever and
 * never touches MPI.  NICKAR_MPI=0 or 1 in the environment overrides the
 * guess.  Without MPI support (the build option NICKAR_MPI=OFF) every
 * function below is a no-op for a lone process, and nk_mpi_init refuses to
 * run as one of several ranks.
 *
 * Failure: a worker that stops answering (no result nor sign of life for
 * nk_mpi_timeout() seconds; a busy worker says it is alive every quarter of
 * that) makes the batch fail with "worker rank R did not answer within N s"
 * and marks MPI broken (nk_mpi_broken); the command then closes its files
 * and returns, and main calls nk_mpi_abort.  A worker that dies is noticed
 * by mpirun, which ends the whole job.  The environment settings:
 *
 *   NICKAR_MPI_TIMEOUT=S   seconds before a silent worker is given up
 *                          (default 120)
 *   NICKAR_MPI_CHUNK=N     games per message (default: guided, from the
 *                          games left and the ranks' threads)
 *
 * Threads: MPI is initialised with MPI_THREAD_FUNNELED; only the thread that
 * called nk_mpi_init talks to MPI (thread 0 of the batch's OpenMP team).
 *
 * This header is implemented by mpi.c (start, end, settings, what every
 * rank knows), mpi_controller.c (rank 0's side of a batch, reached through
 * nk_exec_run) and mpi_worker.c (nk_mpi_serve); mpi_wire.c holds the
 * messages they exchange.
 */
#ifndef NK_MPI_H
#define NK_MPI_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

/* The message tags of the batch protocol (mpi_wire.h); TAG_QUIT, which ends a
 * worker's loop, is also sent by nk_mpi_finalize. */
enum {
    NK_MPI_TAG_QUIT = 1, /* 0 -> worker: leave nk_mpi_serve */
    NK_MPI_TAG_BATCH,    /* 0 -> worker: a batch's variant, limits, players */
    NK_MPI_TAG_CHUNK,    /* 0 -> worker: jobs lo..hi-1 to play */
    NK_MPI_TAG_END,      /* 0 -> worker: no more chunks in this batch */
    NK_MPI_TAG_RESULT,   /* worker -> 0: the games of one chunk */
    NK_MPI_TAG_ALIVE     /* worker -> 0: still playing (heartbeat) */
};

/* Starts MPI when the process was launched by mpirun (see above); argc and
 * argv are those of main.  NK_EINVAL, with the reason in err, when it cannot
 * (MPI_Init failed, no MPI_THREAD_FUNNELED, a build without MPI run as one
 * of several ranks). */
nk_status nk_mpi_init(int *argc, char ***argv, char *err, size_t errlen);

/* Rank 0: tells every worker to stop (unless MPI is broken); then, on every
 * rank, MPI_Finalize.  Nothing when MPI was not started.  Call once, at the
 * end of main. */
void nk_mpi_finalize(void);

/* Ends every rank of the job (MPI_Abort with that code) when MPI was
 * started; returns otherwise. */
void nk_mpi_abort(int code);

/* This process's rank (0 when alone) and the number of ranks (1 alone). */
int nk_mpi_rank(void);
int nk_mpi_size(void);

/* Whether this build has MPI support. */
bool nk_mpi_available(void);

/* The OpenMP threads rank r uses by default (its omp_get_max_threads() at
 * start-up); 1 for a rank out of range. */
int nk_mpi_threads_of(int rank);

/* Seconds without word from a busy worker before rank 0 gives it up
 * (NICKAR_MPI_TIMEOUT, default 120). */
double nk_mpi_timeout(void);

/* Games per message when NICKAR_MPI_CHUNK is set, else 0 (guided). */
size_t nk_mpi_chunk(void);

/* True once a worker was given up: no further batch can be distributed and
 * the job must end with nk_mpi_abort. */
bool nk_mpi_broken(void);
void nk_mpi_set_broken(void);

/* A worker's loop (rank > 0): plays the batches rank 0 sends until it says
 * stop (NK_OK).  Other statuses: NK_ENOMEM, NK_EIO (an MPI call failed or a
 * message was garbled), NK_EINTERRUPTED (only in the test build
 * nickar-test: a test seam of mpi_seams.h made the worker leave); the
 * caller then ends the process without MPI_Finalize.  The test seams, which
 * can also make a worker fall silent for ever, exist only in nickar-test;
 * in nickar no test setting of the environment changes what a worker does. */
nk_status nk_mpi_serve(char *err, size_t errlen);

#endif
