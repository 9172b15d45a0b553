/*
 * mpi_wire.h -- what both ends of the MPI batch protocol share: growable
 * messages and their reader, receiving a probed message, the text of an
 * MPI error, the batch description rank 0 sends (TAG_BATCH), and the
 * backing-off wait of a thread with nothing to do.  Private to src/exec;
 * only in builds with MPI (NICKAR_HAVE_MPI).
 *
 * The protocol (exec/mpi.h): rank 0 (mpi_controller.c) sends the batch
 * (TAG_BATCH: the variant's name, start position, ply limit, threads,
 * record flag, heartbeat period, number of jobs, player table with
 * weights), then chunks (TAG_CHUNK: lo, hi and jobs lo..hi-1) and finally
 * TAG_END; a worker (mpi_worker.c) answers each chunk (TAG_RESULT: lo, hi,
 * its lowest failure so far, the games, their moves when recorded) and says
 * it is alive (TAG_ALIVE) while busy.  Messages carry raw structs (nk_spec,
 * nk_pos, nk_exec_job, nk_exec_game) and native integers: every rank runs
 * the same binary.
 */
#ifndef NK_MPI_WIRE_H
#define NK_MPI_WIRE_H

#ifdef NICKAR_HAVE_MPI

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "exec/exec.h"

/* A growable message; oom once an append failed (the message is then
 * incomplete and must not be sent).  Zero-initialise; free p. */
typedef struct nk_mpi_msg {
    unsigned char *p;
    size_t len, cap;
    bool oom;
} nk_mpi_msg;

void nk_mpi_put(nk_mpi_msg *m, const void *src, size_t n);
void nk_mpi_put_u64(nk_mpi_msg *m, uint64_t v);

/* Reading a received message; bad once it ran past the end (a read past
 * the end fills its destination with zeros). */
typedef struct nk_mpi_reader {
    const unsigned char *p;
    size_t len, at;
    bool bad;
} nk_mpi_reader;

void nk_mpi_get(nk_mpi_reader *r, void *dst, size_t n);
uint64_t nk_mpi_get_u64(nk_mpi_reader *r);

/* Receives the message that MPI_Iprobe announced into a buffer from
 * nk_malloc (*data, *len; the caller frees it, also on failure).  An MPI
 * error code. */
int nk_mpi_recv_probed(const MPI_Status *probe, unsigned char **data, size_t *len);

/* The text of MPI error code rc, into buf. */
void nk_mpi_error_text(int rc, char *buf, size_t len);

/* Appends the batch's description (TAG_BATCH) to m; alive is the
 * workers' heartbeat period in seconds.  mpi_worker.c reads it back. */
void nk_mpi_pack_batch(nk_mpi_msg *m, const nk_exec_batch *b, double alive);

/* Waiting for a message or a job: short sleeps at first, longer ones the
 * longer nothing happens (idle counts the sleeps since something did), so
 * that waiting threads leave the cores to the players. */
void nk_mpi_nap(unsigned *idle);

#endif /* NICKAR_HAVE_MPI */

#endif
