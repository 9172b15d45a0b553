/*
 * mpi_controller.c -- rank 0's side of a batch over the ranks of an MPI job
 * (exec/mpi.h): handing out chunks of jobs, taking in the answers, noticing
 * silent workers.  nk_exec_run (exec.c) calls it for a batch that
 * nk_exec_mpi_distributable accepts; the worker's side is mpi_worker.c, the
 * messages are mpi_wire.h's.
 *
 * Rank 0 (nk_exec_mpi_run) runs the batch on an OpenMP team of threads + 1:
 * thread 0 talks to the workers, the others play jobs.  Everybody takes jobs
 * from one cursor, in index order: rank 0's players one at a time, thread 0
 * a chunk at a time for a worker.  A worker gets the batch (TAG_BATCH)
 * before its first chunk, then chunks (TAG_CHUNK), two in flight so that it
 * never waits for the next; each answer (TAG_RESULT) brings it one more,
 * until the cursor is past the end (TAG_END).  Chunks are guided: half of
 * the worker's share (by threads) of the jobs left, at least one game per
 * thread.
 *
 * Invariants kept here:
 *  - jobs are handed out in increasing index order, so the failure
 *    semantics of the lone batch hold: after a failure no further chunk
 *    goes out, the chunks out still come back, and the lowest failing job
 *    wins;
 *  - a worker with chunks out that says nothing (no answer, no TAG_ALIVE)
 *    for nk_mpi_timeout() seconds fails the batch and marks MPI broken;
 *  - only thread 0 calls MPI (MPI_THREAD_FUNNELED).
 */
#include "exec/exec_internal.h"
#include "exec/mpi.h"

#ifdef NICKAR_HAVE_MPI

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>
#include <omp.h>

#include "base/alloc.h"
#include "exec/mpi_wire.h"

enum { MAX_CHUNK = 1024 };

/* ===== MPI: rank 0 ===== */

typedef struct peer {
    bool active;        /* got the batch */
    bool ended;         /* got TAG_END */
    size_t outstanding; /* chunks sent, not answered */
    double heard;       /* when it last spoke, or got work while idle */
} peer;

typedef struct sent {
    MPI_Request req;
    unsigned char *data; /* freed once sent; NULL: the shared header */
} sent;

typedef struct dist {
    const nk_exec_batch *b;
    nk_exec_game *out;
    nk_exec_failure *f;
    atomic_size_t next; /* the first job not handed out */
    int size;
    size_t threads; /* player threads of all ranks */
    double timeout;
    peer *peer; /* [size] */
    nk_mpi_msg header;
    sent *sends;
    size_t nsends, capsends;
    nk_status fatal;
    char fatal_err[ERR_LEN];
} dist;

static size_t rank_threads(const nk_exec_batch *b, int r)
{
    return b->threads > 0 ? (size_t)b->threads : (size_t)nk_mpi_threads_of(r);
}

/* The batch cannot go on: says why (the first reason only) and makes rank
 * 0's players stop. */
static void go_fatal(dist *d, nk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void go_fatal(dist *d, nk_status st, const char *fmt, ...)
{
    if (d->fatal != NK_OK)
        return;
    d->fatal = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->fatal_err, sizeof d->fatal_err, fmt, ap);
    va_end(ap);
    nk_exec_note_failure(d->f, 0, st, d->fatal_err);
}

/* Sends data (len bytes, owned: freed once sent, unless it is the shared
 * header) to nk_exec_worker w. */
static void send_to(dist *d, int w, int tag, unsigned char *data, size_t len)
{
    if (d->nsends == d->capsends) {
        size_t cap = d->capsends ? 2 * d->capsends : 16;
        sent *s = nk_realloc(d->sends, cap * sizeof *s);
        if (s == NULL) {
            if (data != d->header.p)
                nk_free(data);
            go_fatal(d, NK_ENOMEM, "out of memory for messages to rank %d", w);
            return;
        }
        d->sends = s;
        d->capsends = cap;
    }
    sent *s = &d->sends[d->nsends];
    int rc = MPI_Isend(data, (int)len, MPI_BYTE, w, tag, MPI_COMM_WORLD, &s->req);
    if (rc != MPI_SUCCESS) {
        char t[ERR_LEN];
        nk_mpi_error_text(rc, t, sizeof t);
        if (data != d->header.p)
            nk_free(data);
        go_fatal(d, NK_EIO, "cannot send to worker rank %d: %s", w, t);
        return;
    }
    s->data = data == d->header.p ? NULL : data;
    d->nsends++;
}

/* Frees the messages that have gone; with wait, until all have, or the
 * time-out says a worker is lost. */
static void sweep_sends(dist *d, bool wait)
{
    double start = MPI_Wtime();
    unsigned idle = 0;
    for (;;) {
        size_t keep = 0;
        for (size_t i = 0; i < d->nsends; i++) {
            int done = 0;
            MPI_Test(&d->sends[i].req, &done, MPI_STATUS_IGNORE);
            if (done)
                nk_free(d->sends[i].data);
            else
                d->sends[keep++] = d->sends[i];
        }
        d->nsends = keep;
        if (!wait || keep == 0 || d->fatal != NK_OK)
            return;
        if (MPI_Wtime() - start > d->timeout) {
            go_fatal(d, NK_EIO, "a worker did not take its messages within %g s", d->timeout);
            return;
        }
        nk_mpi_nap(&idle);
    }
}

static size_t chunk_size(dist *d, int w)
{
    if (nk_mpi_chunk() > 0)
        return nk_mpi_chunk() < 65536 ? nk_mpi_chunk() : 65536;
    size_t n = d->b->njobs, next = atomic_load(&d->next);
    size_t left = next < n ? n - next : 0, tw = rank_threads(d->b, w);
    size_t c = (left * tw + 2 * d->threads - 1) / (2 * d->threads);
    if (c < tw)
        c = tw;
    return c < MAX_CHUNK ? c : MAX_CHUNK;
}

/* Hands nk_exec_worker w its next chunk, if any is left and nothing failed. */
static void assign(dist *d, int w)
{
    const nk_exec_batch *b = d->b;
    if (d->fatal != NK_OK || nk_exec_failed_index(d->f) != SIZE_MAX)
        return;
    size_t c = chunk_size(d, w);
    size_t lo = atomic_fetch_add(&d->next, c);
    if (lo >= b->njobs)
        return;
    size_t hi = lo + c < b->njobs ? lo + c : b->njobs;
    peer *p = &d->peer[w];
    if (!p->active) {
        send_to(d, w, NK_MPI_TAG_BATCH, d->header.p, d->header.len);
        p->active = true;
    }
    nk_mpi_msg m = {0};
    nk_mpi_put_u64(&m, lo);
    nk_mpi_put_u64(&m, hi);
    nk_mpi_put(&m, &b->jobs[lo], (hi - lo) * sizeof *b->jobs);
    if (m.oom) {
        nk_free(m.p);
        go_fatal(d, NK_ENOMEM, "out of memory for a message to rank %d", w);
        return;
    }
    if (p->outstanding == 0)
        p->heard = MPI_Wtime();
    p->outstanding++;
    send_to(d, w, NK_MPI_TAG_CHUNK, m.p, m.len);
}

/* Takes in the games of one chunk of nk_exec_worker w. */
static void take_result(dist *d, int w, const unsigned char *data, size_t len)
{
    const nk_exec_batch *b = d->b;
    nk_mpi_reader r = {data, len, 0, false};
    size_t lo = (size_t)nk_mpi_get_u64(&r), hi = (size_t)nk_mpi_get_u64(&r);
    uint64_t findex = nk_mpi_get_u64(&r), fstatus = nk_mpi_get_u64(&r);
    char ferr[ERR_LEN];
    nk_mpi_get(&r, ferr, sizeof ferr);
    ferr[sizeof ferr - 1] = '\0';
    if (r.bad || lo >= hi || hi > b->njobs || d->peer[w].outstanding == 0) {
        go_fatal(d, NK_EIO, "garbled answer from worker rank %d", w);
        return;
    }
    for (size_t k = lo; k < hi; k++) {
        nk_mpi_get(&r, &d->out[k], sizeof d->out[k]);
        d->out[k].moves = NULL;
    }
    for (size_t k = lo; b->record && k < hi && !r.bad; k++) {
        size_t n = (size_t)nk_mpi_get_u64(&r);
        if (n > r.len - r.at)
            r.bad = true;
        if (n == 0 || r.bad)
            continue;
        d->out[k].moves = nk_malloc(n);
        if (d->out[k].moves == NULL) {
            nk_exec_note_failure(d->f, k, NK_ENOMEM, "out of memory for the record of a game");
            r.at += n; /* skip the record: the answers after it stay aligned */
        } else
            nk_mpi_get(&r, d->out[k].moves, n);
    }
    if (r.bad || r.at != r.len) {
        go_fatal(d, NK_EIO, "garbled answer from worker rank %d", w);
        return;
    }
    if (findex != UINT64_MAX && fstatus > NK_OK && fstatus < NK_ESTATUS_COUNT)
        nk_exec_note_failure(d->f, (size_t)findex, (nk_status)fstatus, ferr);
    d->peer[w].outstanding--;
    assign(d, w);
}

/* Handles one message, if one has come; returns whether one had. */
static bool poll_workers(dist *d)
{
    int flag = 0;
    MPI_Status st;
    int rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (rc != MPI_SUCCESS || !flag) {
        if (rc != MPI_SUCCESS) {
            char t[ERR_LEN];
            nk_mpi_error_text(rc, t, sizeof t);
            go_fatal(d, NK_EIO, "MPI_Iprobe failed on rank 0: %s", t);
        }
        return false;
    }
    unsigned char *data = NULL;
    size_t len = 0;
    int w = st.MPI_SOURCE;
    rc = nk_mpi_recv_probed(&st, &data, &len);
    if (rc != MPI_SUCCESS) {
        char t[ERR_LEN];
        nk_mpi_error_text(rc, t, sizeof t);
        go_fatal(d, NK_EIO, "cannot receive from worker rank %d: %s", w, t);
    } else if (w <= 0 || w >= d->size) {
        go_fatal(d, NK_EIO, "a message from rank %d, which is no worker", w);
    } else {
        d->peer[w].heard = MPI_Wtime();
        if (st.MPI_TAG == NK_MPI_TAG_RESULT)
            take_result(d, w, data, len);
        else if (st.MPI_TAG != NK_MPI_TAG_ALIVE)
            go_fatal(d, NK_EIO, "unexpected message (tag %d) from worker rank %d", st.MPI_TAG, w);
    }
    nk_free(data);
    return true;
}

/* When the jobs are all out (or nothing more goes out), says so to the
 * workers; whether every worker has answered everything. */
static bool wind_down(dist *d)
{
    const nk_exec_batch *b = d->b;
    bool out = atomic_load(&d->next) >= b->njobs || nk_exec_failed_index(d->f) != SIZE_MAX;
    bool done = true;
    for (int w = 1; w < d->size; w++) {
        peer *p = &d->peer[w];
        if (out && p->active && !p->ended) {
            send_to(d, w, NK_MPI_TAG_END, NULL, 0);
            p->ended = true;
        }
        if (p->outstanding > 0 || (p->active && !p->ended))
            done = false;
    }
    return done;
}

static void check_timeouts(dist *d)
{
    double now = MPI_Wtime();
    for (int w = 1; w < d->size && d->fatal == NK_OK; w++)
        if (d->peer[w].outstanding > 0 && now - d->peer[w].heard > d->timeout)
            go_fatal(d, NK_EIO, "worker rank %d did not answer within %g s", w, d->timeout);
}

/* Thread 0 of rank 0: hands out the chunks and takes in the answers. */
static void coordinate(dist *d)
{
    const nk_exec_batch *b = d->b;
    for (int w = 1; w < d->size; w++)
        d->peer[w].heard = MPI_Wtime();
    for (int round = 0; round < 2; round++)
        for (int w = 1; w < d->size; w++)
            assign(d, w);
    unsigned idle = 0;
    while (d->fatal == NK_OK) {
        bool busy = poll_workers(d);
        if (b->stop != NULL && *b->stop) {
            size_t lo = atomic_fetch_add(&d->next, b->njobs);
            if (lo < b->njobs)
                nk_exec_note_failure(d->f, lo, NK_EINTERRUPTED, "stopped on request");
        }
        if (wind_down(d))
            break;
        check_timeouts(d);
        sweep_sends(d, false);
        if (busy)
            idle = 0;
        else
            nk_mpi_nap(&idle);
    }
    if (d->fatal == NK_OK)
        sweep_sends(d, true);
}

/* Rank 0's player threads: jobs one at a time from the cursor. */
static void play_from_cursor(dist *d)
{
    nk_exec_worker w = {0};
    nk_status st = nk_exec_worker_init(&w, d->b);
    if (st != NK_OK)
        nk_exec_note_failure(d->f, 0, st, w.err);
    for (;;) {
        size_t k = atomic_fetch_add(&d->next, 1);
        if (k >= d->b->njobs)
            break;
        if (st == NK_OK)
            nk_exec_play_one(&w, k, d->out, d->f);
    }
    nk_exec_worker_free(&w);
}

TSAN_UNCHECKED static void run_team(dist *d, int threads)
{
    TSAN_RELEASE();
#pragma omp parallel num_threads(threads + 1)
    {
        TSAN_ACQUIRE();
        if (omp_get_thread_num() == 0) {
            coordinate(d);
            if (omp_get_num_threads() == 1) /* no player thread came */
                play_from_cursor(d);
        } else {
            play_from_cursor(d);
        }
        TSAN_RELEASE();
    }
    TSAN_ACQUIRE();
}

/* The batch over every rank.  A failure of the game itself lands in f, as
 * in a lone batch; a lost worker or a broken MPI gives its own status and
 * message and marks MPI broken. */
nk_status nk_exec_mpi_run(const nk_exec_batch *b, nk_exec_game *out, nk_exec_failure *f,
                          int threads, char *err, size_t errlen)
{
    if (nk_mpi_broken())
        return nk_fail(NK_EIO, err, errlen,
                       "the MPI workers were lost earlier in this run; it cannot go on");
    dist d = {.b = b, .out = out, .f = f, .size = nk_mpi_size(), .timeout = nk_mpi_timeout()};
    atomic_init(&d.next, 0);
    d.peer = nk_calloc((size_t)d.size, sizeof *d.peer);
    nk_mpi_pack_batch(&d.header, b, d.timeout / 4);
    if (d.peer == NULL || d.header.oom) {
        nk_free(d.peer);
        nk_free(d.header.p);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a distributed batch");
    }
    d.threads = (size_t)threads;
    for (int w = 1; w < d.size; w++)
        d.threads += rank_threads(b, w);
    run_team(&d, threads);
    nk_free(d.peer);
    if (d.fatal != NK_OK) {
        /* Messages may still be on their way to a lost worker: their buffers
         * stay allocated, the job is about to end. */
        nk_mpi_set_broken();
        return nk_fail(d.fatal, err, errlen, "%s", d.fatal_err);
    }
    nk_free(d.sends);
    nk_free(d.header.p);
    return NK_OK;
}

/* Whether nk_exec_run should spread b over the ranks. */
bool nk_exec_mpi_distributable(const nk_exec_batch *b)
{
    return nk_mpi_size() > 1 && nk_mpi_rank() == 0 && b->njobs > 0 && !omp_in_parallel() &&
           b->variant->name != NULL && nk_variant_find(b->variant->name) == b->variant;
}

#else  /* no MPI: every batch is this process's */

bool nk_exec_mpi_distributable(const nk_exec_batch *b)
{
    (void)b;
    return false;
}

nk_status nk_exec_mpi_run(const nk_exec_batch *b, nk_exec_game *out, nk_exec_failure *f,
                          int threads, char *err, size_t errlen)
{
    (void)b, (void)out, (void)f, (void)threads;
    return nk_fail(NK_EINVAL, err, errlen, "this nickar was built without MPI");
}
#endif /* NICKAR_HAVE_MPI */
