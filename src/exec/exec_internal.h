/*
 * exec_internal.h -- what the batch code (exec.c) shares with the MPI
 * controller (mpi_controller.c) and worker (mpi_worker.c): one thread's
 * players and game, the lowest failure of a batch, playing one job, and
 * the dispatch from nk_exec_run to the ranks.  Private to src/exec; the
 * layer's API is exec.h and mpi.h (docs/architecture.md).
 */
#ifndef NK_EXEC_INTERNAL_H
#define NK_EXEC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "exec/exec.h"

/* ThreadSanitizer does not see libgomp's fork, join and critical sections
 * (libgomp is not instrumented), so under TSan the batch states them: the
 * thread that starts a batch releases, every worker acquires on entry and
 * releases on exit, the starter acquires after the join; the same around
 * the critical section.  One sync object serves every file of the layer. */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
extern char nk_exec_tsan_sync; /* only its address is used */
#define TSAN_RELEASE() __tsan_release(&nk_exec_tsan_sync)
#define TSAN_ACQUIRE() __tsan_acquire(&nk_exec_tsan_sync)
#define TSAN_UNCHECKED __attribute__((no_sanitize_thread))
#else
#define TSAN_RELEASE() ((void)0)
#define TSAN_ACQUIRE() ((void)0)
#define TSAN_UNCHECKED
#endif

enum { ERR_LEN = NK_MSG_MAX };

/* One thread's state: its players (made on first use) and its game. */
typedef struct nk_exec_worker {
    const nk_exec_batch *batch;
    nk_player **players; /* [nplayers], made on first use */
    nk_game *game;
    char err[ERR_LEN];
} nk_exec_worker;

/* The lowest failing job of a batch.  Written under the OpenMP critical
 * section nk_exec_failure (nk_exec_note_failure); index is also read
 * atomically (nk_exec_failed_index). */
typedef struct nk_exec_failure {
    size_t index; /* lowest failing job; SIZE_MAX: none */
    nk_status status;
    char err[ERR_LEN];
} nk_exec_failure;

/* Readies w for batch b (NK_ENOMEM, with w->err, when it cannot);
 * nk_exec_worker_free may be called either way. */
nk_status nk_exec_worker_init(nk_exec_worker *w, const nk_exec_batch *b);
void nk_exec_worker_free(nk_exec_worker *w);

/* Records a failure of job index, unless one of lower index is known. */
void nk_exec_note_failure(nk_exec_failure *f, size_t index, nk_status st, const char *msg);
size_t nk_exec_failed_index(const nk_exec_failure *f);

/* Plays job k of w's batch into out[k], unless a job of lower index has
 * failed or the batch was stopped. */
void nk_exec_play_one(nk_exec_worker *w, size_t k, nk_exec_game *out, nk_exec_failure *f);

/* mpi_controller.c: whether nk_exec_run should spread b over the MPI ranks
 * (never in a build without MPI), and the batch over every rank.  A failure
 * of a game lands in f, as in a lone batch; a lost worker or a broken MPI
 * gives its own status and message and marks MPI broken. */
bool nk_exec_mpi_distributable(const nk_exec_batch *b);
nk_status nk_exec_mpi_run(const nk_exec_batch *b, nk_exec_game *out, nk_exec_failure *f,
                          int threads, char *err, size_t errlen);

#endif
