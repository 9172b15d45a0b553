/*
 * mpi_worker.c -- a worker rank's side of a batch over the ranks of an MPI
 * job (exec/mpi.h): nk_mpi_serve waits for a batch from rank 0, plays the
 * chunks it is sent on its OpenMP threads and sends the games back, until
 * rank 0 says stop.  The controller's side is mpi_controller.c, the
 * messages are mpi_wire.h's; in a build without MPI nk_mpi_serve only says
 * so.
 *
 * A worker (serve_batch) runs a team of threads + 1: thread 0 (listen)
 * receives the chunks, queues their jobs and answers each chunk as soon as
 * its games are played, saying it is alive (TAG_ALIVE) every quarter of the
 * time-out while it has unanswered chunks; the others play the queued jobs
 * in order.
 *
 * Invariants kept here:
 *  - each chunk is answered once, when all its games are played (or
 *    skipped), with the lowest failure this worker has seen so far;
 *  - a batch this rank cannot play (unknown variant, no memory, a garbled
 *    batch message) is still answered, chunk by chunk, with that failure;
 *  - only thread 0 calls MPI (MPI_THREAD_FUNNELED);
 *  - the test seams (mpi_seams.h) are empty here unless the file is built
 *    for nickar-test.
 */
#include "exec/exec_internal.h"
#include "exec/mpi.h"
#include "tb/tb.h"

#ifdef NICKAR_HAVE_MPI

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include <mpi.h>
#include <omp.h>

#include "base/alloc.h"
#include "exec/mpi_seams.h"
#include "exec/mpi_wire.h"

typedef struct chunk {
    size_t lo, hi;
    atomic_size_t done; /* games played (or skipped) */
    bool answered;
} chunk;

typedef struct served {
    nk_exec_batch b;
    nk_pos start;
    nk_spec *specs;
    double *weights;
    nk_exec_player *players;
    nk_exec_job *jobs; /* [njobs]; those of the chunks received */
    nk_exec_game *out; /* [njobs] */
    size_t *order;     /* queue position -> job index */
    size_t *chunk_of;  /* queue position -> chunk */
    chunk *chunks;     /* [njobs] at most */
    size_t nchunks;
    atomic_size_t avail; /* queue positions published */
    atomic_size_t taken; /* queue positions claimed by players */
    atomic_int ended;    /* TAG_END came: avail is final */
    atomic_int quit;     /* players leave now */
    nk_exec_failure f;
    nk_status bad; /* the batch cannot be played (bad_err says why) */
    char bad_err[ERR_LEN];
    double alive; /* seconds between signs of life */
} served;

static void served_free(served *s)
{
    if (s->out != NULL)
        nk_exec_games_free(s->out, s->b.njobs);
    nk_free(s->specs);
    nk_free(s->weights);
    nk_free(s->players);
    nk_free(s->jobs);
    nk_free(s->out);
    nk_free(s->order);
    nk_free(s->chunk_of);
    nk_free(s->chunks);
}

/* Reads TAG_BATCH into s.  A batch this rank cannot play (unknown variant,
 * no memory) leaves s->bad set: its chunks are answered with that failure. */
static void served_init(served *s, const unsigned char *data, size_t len)
{
    nk_mpi_reader r = {data, len, 0, false};
    char name[64] = "";
    size_t nlen = (size_t)nk_mpi_get_u64(&r);
    if (nlen < sizeof name)
        nk_mpi_get(&r, name, nlen);
    else
        r.bad = true;
    s->b.variant = nk_variant_find(name);
    if (nk_mpi_get_u64(&r)) {
        nk_mpi_get(&r, &s->start, sizeof s->start);
        s->b.start = &s->start;
    }
    s->b.ply_limit = (unsigned)nk_mpi_get_u64(&r);
    s->b.threads = (int)(int64_t)nk_mpi_get_u64(&r);
    s->b.record = nk_mpi_get_u64(&r) != 0;
    nk_mpi_get(&r, &s->alive, sizeof s->alive);
    s->b.njobs = (size_t)nk_mpi_get_u64(&r);
    s->b.nplayers = (size_t)nk_mpi_get_u64(&r);
    size_t n = s->b.njobs, np = s->b.nplayers;
    if (r.bad || np > len / sizeof(nk_spec)) { /* sizes from a garbled message */
        s->bad = nk_fail(NK_EIO, s->bad_err, sizeof s->bad_err, "garbled batch message");
        s->b.njobs = 0;
        return;
    }
    s->specs = nk_calloc(np + 1, sizeof *s->specs);
    s->players = nk_calloc(np + 1, sizeof *s->players);
    s->weights = nk_malloc(len);
    s->jobs = nk_calloc(n + 1, sizeof *s->jobs);
    s->out = nk_calloc(n + 1, sizeof *s->out);
    s->order = nk_calloc(n + 1, sizeof *s->order);
    s->chunk_of = nk_calloc(n + 1, sizeof *s->chunk_of);
    s->chunks = nk_calloc(n + 1, sizeof *s->chunks);
    if (!s->specs || !s->players || !s->weights || !s->jobs || !s->out || !s->order ||
        !s->chunk_of || !s->chunks) {
        s->bad =
            nk_fail(NK_ENOMEM, s->bad_err, sizeof s->bad_err,
                    "worker rank %d: out of memory for a batch of %zu games", nk_mpi_rank(), n);
        return;
    }
    size_t off = 0;
    for (size_t i = 0; i < np; i++) {
        nk_mpi_get(&r, &s->specs[i], sizeof s->specs[i]);
        bool has = nk_mpi_get_u64(&r) != 0;
        size_t nw = (size_t)nk_mpi_get_u64(&r);
        if (r.bad || (has && nw * sizeof(double) > r.len - r.at)) {
            r.bad = true;
            break;
        }
        s->players[i] = (nk_exec_player){&s->specs[i], has ? s->weights + off : NULL, nw};
        if (has) {
            nk_mpi_get(&r, s->weights + off, nw * sizeof(double));
            off += nw;
        }
    }
    s->b.players = s->players;
    s->b.jobs = s->jobs;
    if (r.bad || r.at != r.len)
        s->bad = nk_fail(NK_EIO, s->bad_err, sizeof s->bad_err, "garbled batch message");
    else if (s->b.variant == NULL)
        s->bad = nk_fail(NK_EINVAL, s->bad_err, sizeof s->bad_err,
                         "worker rank %d does not know variant '%s'", nk_mpi_rank(), name);
    /* Endgame databases (tb=): opened here once per process, as the io
     * layer does on the first rank; the players find them (tb/tb.h). */
    for (size_t i = 0; s->bad == NK_OK && i < np; i++) {
        const nk_tb *tb;
        char e2[NK_MSG_MAX];
        s->specs[i].tb[sizeof s->specs[i].tb - 1] = '\0';
        if (s->specs[i].kind == NK_PLAYER_AB && s->specs[i].tb[0] != '\0' &&
            nk_tb_shared_open(s->specs[i].tb, s->b.variant, &tb, e2, sizeof e2) != NK_OK)
            s->bad = nk_fail(NK_EINVAL, s->bad_err, sizeof s->bad_err, "worker rank %d: %s",
                             nk_mpi_rank(), e2);
    }
}

/* Queues the jobs of a TAG_CHUNK message for the players. */
static nk_status take_chunk(served *s, const unsigned char *data, size_t len, char *err,
                            size_t errlen)
{
    nk_mpi_reader r = {data, len, 0, false};
    size_t lo = (size_t)nk_mpi_get_u64(&r), hi = (size_t)nk_mpi_get_u64(&r);
    if (r.bad || lo >= hi || hi > s->b.njobs || s->nchunks >= s->b.njobs ||
        len != r.at + (hi - lo) * sizeof *s->jobs)
        return nk_fail(NK_EIO, err, errlen, "worker rank %d: garbled chunk message", nk_mpi_rank());
    nk_mpi_get(&r, &s->jobs[lo], (hi - lo) * sizeof *s->jobs);
    size_t c = s->nchunks++;
    s->chunks[c].lo = lo;
    s->chunks[c].hi = hi;
    s->chunks[c].answered = false;
    if (s->bad != NK_OK) { /* answered at once, with the failure */
        nk_exec_note_failure(&s->f, lo, s->bad, s->bad_err);
        atomic_init(&s->chunks[c].done, hi - lo);
        return NK_OK;
    }
    atomic_init(&s->chunks[c].done, 0);
    size_t pos = atomic_load(&s->avail);
    for (size_t k = lo; k < hi; k++, pos++) {
        s->order[pos] = k;
        s->chunk_of[pos] = c;
    }
    atomic_store(&s->avail, pos);
    return NK_OK;
}

/* Sends the games of chunk c to rank 0. */
static nk_status answer(served *s, size_t c, char *err, size_t errlen)
{
    const chunk *ch = &s->chunks[c];
    nk_mpi_msg m = {0};
    size_t findex;
    nk_status fstatus;
    char ferr[ERR_LEN];
#pragma omp critical(nk_exec_failure)
    {
        findex = s->f.index;
        fstatus = s->f.status;
        memcpy(ferr, s->f.err, sizeof ferr);
    }
    nk_mpi_put_u64(&m, ch->lo);
    nk_mpi_put_u64(&m, ch->hi);
    nk_mpi_put_u64(&m, findex == SIZE_MAX ? UINT64_MAX : (uint64_t)findex);
    nk_mpi_put_u64(&m, (uint64_t)fstatus);
    nk_mpi_put(&m, ferr, sizeof ferr);
    nk_mpi_put(&m, &s->out[ch->lo], (ch->hi - ch->lo) * sizeof *s->out);
    for (size_t k = ch->lo; s->b.record && k < ch->hi; k++) {
        size_t n = s->out[k].moves != NULL ? s->out[k].plies : 0;
        nk_mpi_put_u64(&m, n);
        nk_mpi_put(&m, s->out[k].moves, n);
    }
    nk_exec_games_free(&s->out[ch->lo], ch->hi - ch->lo);
    if (m.oom)
        return nk_fail(NK_ENOMEM, err, errlen, "worker rank %d: out of memory for an answer",
                       nk_mpi_rank());
    int rc = MPI_Send(m.p, (int)m.len, MPI_BYTE, 0, NK_MPI_TAG_RESULT, MPI_COMM_WORLD);
    nk_free(m.p);
    if (rc != MPI_SUCCESS) {
        char t[ERR_LEN];
        nk_mpi_error_text(rc, t, sizeof t);
        return nk_fail(NK_EIO, err, errlen, "worker rank %d cannot answer rank 0: %s",
                       nk_mpi_rank(), t);
    }
    return NK_OK;
}

/* Takes the next queued job for a player; false when there is none and
 * will be none (or the batch is being left).  With nowait, false too when
 * none is queued yet. */
static bool next_queued(served *s, size_t *pos, bool nowait)
{
    if (nowait && atomic_load(&s->taken) >= atomic_load(&s->avail))
        return false;
    *pos = atomic_fetch_add(&s->taken, 1);
    unsigned idle = 0;
    for (;;) {
        if (atomic_load(&s->quit))
            return false;
        if (*pos < atomic_load(&s->avail))
            return true;
        if (atomic_load(&s->ended) && *pos >= atomic_load(&s->avail))
            return false;
        nk_mpi_nap(&idle);
    }
}

static void play_queued(served *s, nk_exec_worker *w, nk_status wst, size_t pos)
{
    size_t k = s->order[pos];
    if (wst == NK_OK)
        nk_exec_play_one(w, k, s->out, &s->f);
    else
        nk_exec_note_failure(&s->f, k, wst, w->err);
    atomic_fetch_add(&s->chunks[s->chunk_of[pos]].done, 1);
}

/* A worker's player threads. */
static void play_from_queue(served *s)
{
    nk_exec_worker w = {0};
    nk_status st = nk_exec_worker_init(&w, &s->b);
    size_t pos;
    while (next_queued(s, &pos, false))
        play_queued(s, &w, st, pos);
    nk_exec_worker_free(&w);
}

/* Thread 0 of a worker: receives chunks, answers them, says it is alive.
 * solo: no player thread came, so it plays too. */
static nk_status listen(served *s, nk_mpi_seams *seams, bool solo, char *err, size_t errlen)
{
    nk_exec_worker w = {0};
    nk_status wst = solo ? nk_exec_worker_init(&w, &s->b) : NK_OK;
    nk_status st = NK_OK;
    size_t first = 0; /* chunks before it are all answered */
    double last = MPI_Wtime();
    unsigned idle = 0;
    while (st == NK_OK) {
        bool busy = false;
        int flag = 0;
        MPI_Status probe;
        if (!atomic_load(&s->ended) &&
            MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &probe) == MPI_SUCCESS && flag) {
            unsigned char *data = NULL;
            size_t len = 0;
            busy = true;
            int rc = nk_mpi_recv_probed(&probe, &data, &len);
            if (rc != MPI_SUCCESS) {
                char t[ERR_LEN];
                nk_mpi_error_text(rc, t, sizeof t);
                st = nk_fail(NK_EIO, err, errlen, "worker rank %d cannot receive: %s",
                             nk_mpi_rank(), t);
            } else if (probe.MPI_TAG == NK_MPI_TAG_CHUNK) {
                st = take_chunk(s, data, len, err, errlen);
            } else if (probe.MPI_TAG == NK_MPI_TAG_END) {
                atomic_store(&s->ended, 1);
            } else {
                st = nk_fail(NK_EIO, err, errlen,
                             "worker rank %d: unexpected message (tag %d) in a batch",
                             nk_mpi_rank(), probe.MPI_TAG);
            }
            nk_free(data);
        }
        for (size_t c = first; st == NK_OK && c < s->nchunks; c++) {
            chunk *ch = &s->chunks[c];
            if (ch->answered || atomic_load(&ch->done) < ch->hi - ch->lo)
                continue;
            st = answer(s, c, err, errlen);
            ch->answered = true;
            busy = true;
            last = MPI_Wtime();
            st = nk_mpi_seams_answered(seams, st, err, errlen); /* nickar-test only */
        }
        while (first < s->nchunks && s->chunks[first].answered)
            first++;
        if (st != NK_OK || (atomic_load(&s->ended) && first == s->nchunks))
            break;
        if (first < s->nchunks && MPI_Wtime() - last > s->alive) {
            MPI_Send(NULL, 0, MPI_BYTE, 0, NK_MPI_TAG_ALIVE, MPI_COMM_WORLD);
            last = MPI_Wtime();
        }
        size_t pos;
        if (solo && next_queued(s, &pos, true)) {
            play_queued(s, &w, wst, pos);
            idle = 0;
        } else if (busy) {
            idle = 0;
        } else {
            nk_mpi_nap(&idle);
        }
    }
    atomic_store(&s->quit, 1);
    if (solo)
        nk_exec_worker_free(&w);
    return st;
}

TSAN_UNCHECKED static nk_status serve_batch(const unsigned char *data, size_t len,
                                            nk_mpi_seams *seams, char *err, size_t errlen)
{
    served s;
    memset(&s, 0, sizeof s);
    atomic_init(&s.avail, 0);
    atomic_init(&s.taken, 0);
    atomic_init(&s.ended, 0);
    atomic_init(&s.quit, 0);
    s.f = (nk_exec_failure){.index = SIZE_MAX, .status = NK_OK, .err = ""};
    served_init(&s, data, len);
    int threads = s.b.threads > 0 ? s.b.threads : omp_get_max_threads();
    nk_status st = NK_OK;
    TSAN_RELEASE();
#pragma omp parallel num_threads(threads + 1)
    {
        TSAN_ACQUIRE();
        if (omp_get_thread_num() == 0)
            st = listen(&s, seams, omp_get_num_threads() == 1, err, errlen);
        else
            play_from_queue(&s);
        TSAN_RELEASE();
    }
    TSAN_ACQUIRE();
    served_free(&s);
    return st;
}

nk_status nk_mpi_serve(char *err, size_t errlen)
{
    nk_mpi_seams seams;
    nk_mpi_seams_init(&seams);
    unsigned idle = 0;
    for (;;) {
        int flag = 0;
        MPI_Status probe;
        int rc = MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &probe);
        if (rc == MPI_SUCCESS && !flag) {
            nk_mpi_nap(&idle); /* between batches */
            continue;
        }
        idle = 0;
        unsigned char *data = NULL;
        size_t len = 0;
        if (rc == MPI_SUCCESS)
            rc = nk_mpi_recv_probed(&probe, &data, &len);
        if (rc != MPI_SUCCESS) {
            nk_free(data);
            char t[ERR_LEN];
            nk_mpi_error_text(rc, t, sizeof t);
            return nk_fail(NK_EIO, err, errlen, "cannot receive from rank 0: %s", t);
        }
        nk_status st = NK_OK;
        if (probe.MPI_TAG == NK_MPI_TAG_QUIT) {
            nk_free(data);
            return NK_OK;
        }
        if (probe.MPI_TAG == NK_MPI_TAG_BATCH)
            st = serve_batch(data, len, &seams, err, errlen);
        else
            st = nk_fail(NK_EIO, err, errlen, "unexpected message (tag %d) between batches",
                         probe.MPI_TAG);
        nk_free(data);
        if (st != NK_OK)
            return st;
    }
}

#else /* no MPI in this build */

nk_status nk_mpi_serve(char *err, size_t errlen)
{
    return nk_fail(NK_EINVAL, err, errlen, "this nickar was built without MPI");
}

#endif /* NICKAR_HAVE_MPI */
