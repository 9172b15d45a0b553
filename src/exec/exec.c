/*
 * exec.c -- a batch of games, serially, on OpenMP threads, or over the
 * ranks of an MPI job (the "MPI" sections, exec/mpi.h).
 *
 * Invariants kept here:
 *  - out[i] is written only by the thread that plays job i, and only from
 *    job i's data, so the results do not depend on the threads;
 *  - each thread owns its players (made lazily from the table, freed at the
 *    end) and one nk_game (45 KB, on the heap rather than a thread's stack);
 *  - after a failure, jobs of higher index than the lowest failing one are
 *    skipped; jobs of lower index still run (dynamic scheduling hands them
 *    out in order, so they have started already) and may lower it, so the
 *    message reported is always that of the lowest failing job.
 */
#include "exec/exec.h"
#include "base/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

/* ThreadSanitizer does not see libgomp's fork, join and critical sections
 * (libgomp is not instrumented), so under TSan the batch states them: the
 * thread that starts a batch releases, every worker acquires on entry and
 * releases on exit, the starter acquires after the join; the same around
 * the critical section. */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
static char tsan_sync; /* only its address is used */
#define TSAN_RELEASE() __tsan_release(&tsan_sync)
#define TSAN_ACQUIRE() __tsan_acquire(&tsan_sync)
#define TSAN_UNCHECKED __attribute__((no_sanitize_thread))
#else
#define TSAN_RELEASE() ((void)0)
#define TSAN_ACQUIRE() ((void)0)
#define TSAN_UNCHECKED
#endif

enum { ERR_LEN = 256 };

/* A domain tag, so that game seeds differ from other per-(master, batch, i)
 * seeds derived with nk_seed_mix (an individual's variation draws). */
static const uint64_t GAME_DOMAIN = 0x67616d6573656564ull; /* "gameseed" */

uint64_t nk_exec_seed(uint64_t master, uint64_t batch, uint64_t game)
{
    return nk_seed_mix(nk_seed_mix(master, batch, game), GAME_DOMAIN, 0);
}

void nk_exec_pairs(nk_exec_job *jobs, const nk_meeting *meetings, size_t n, uint64_t master,
                   uint64_t batch, unsigned opening)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t pair = nk_exec_seed(master, batch, i);
        jobs[2 * i] = (nk_exec_job){.south = meetings[i].a,
                                    .north = meetings[i].b,
                                    .seed = nk_seed_mix(pair, 1, 0),
                                    .opening_seed = pair,
                                    .opening = opening};
        jobs[2 * i + 1] = (nk_exec_job){.south = meetings[i].b,
                                        .north = meetings[i].a,
                                        .seed = nk_seed_mix(pair, 2, 0),
                                        .opening_seed = pair,
                                        .opening = opening};
    }
}

double nk_exec_points(const nk_exec_game *game, int side)
{
    if (game->result.winner == NK_DRAW)
        return 0.5;
    return game->result.winner == side ? 1.0 : 0.0;
}

int nk_exec_seed_diff(const nk_exec_game *game, int side)
{
    return (int)game->result.total[side] - (int)game->result.total[1 - side];
}

void nk_exec_games_free(nk_exec_game *games, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        nk_free(games[i].moves);
        games[i].moves = NULL;
    }
}

/* ===== checks before playing ===== */

static nk_status check_batch(const nk_exec_batch *b, char *err, size_t errlen)
{
    if (b->variant == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "the batch has no variant");
    if (b->ply_limit > NK_MAX_PLIES)
        return nk_fail(NK_ERANGE, err, errlen, "ply limit %u is above %d", b->ply_limit,
                       NK_MAX_PLIES);
    if (b->start != NULL && b->variant->sowing == NK_SOW_WARRI &&
        b->start->north != NK_DEFAULT_NORTH) /* nk_game_init refuses it */
        return nk_fail(NK_EINVAL, err, errlen,
                       "the start position gives pits other owners than the default rows, "
                       "which only Adji Kui II allows, not %s",
                       b->variant->name);
    if (b->njobs > 0 && (b->players == NULL || b->jobs == NULL))
        return nk_fail(NK_EINVAL, err, errlen, "the batch has jobs but no %s",
                       b->players == NULL ? "players" : "job list");
    for (size_t i = 0; i < b->nplayers; i++) {
        const nk_spec *s = b->players[i].spec;
        if (s == NULL)
            return nk_fail(NK_EINVAL, err, errlen, "player %zu has no spec", i);
        if (s->kind == NK_PLAYER_HUMAN)
            return nk_fail(NK_EINVAL, err, errlen,
                           "player %zu ('%s') is a person; a batch needs engine players", i,
                           s->text);
    }
    for (size_t i = 0; i < b->njobs; i++) {
        const nk_exec_job *j = &b->jobs[i];
        if (j->south >= b->nplayers || j->north >= b->nplayers)
            return nk_fail(NK_EINVAL, err, errlen,
                           "game %zu names player %u; the batch has %zu players", i,
                           j->south >= b->nplayers ? j->south : j->north, b->nplayers);
    }
    return NK_OK;
}

/* ===== one thread's state ===== */

typedef struct worker {
    const nk_exec_batch *batch;
    nk_player **players; /* [nplayers], made on first use */
    nk_game *game;
    char err[ERR_LEN];
} worker;

static nk_status worker_init(worker *w, const nk_exec_batch *b)
{
    w->batch = b;
    w->err[0] = '\0';
    w->players = nk_calloc(b->nplayers ? b->nplayers : 1, sizeof *w->players);
    w->game = nk_malloc(sizeof *w->game);
    if (w->players == NULL || w->game == NULL)
        return nk_fail(NK_ENOMEM, w->err, sizeof w->err, "out of memory for a worker");
    return NK_OK;
}

static void worker_free(worker *w)
{
    if (w->players != NULL)
        for (size_t i = 0; i < w->batch->nplayers; i++)
            nk_player_free(w->players[i]);
    nk_free(w->players);
    nk_free(w->game);
}

/* The thread's instance of player i, made now if needed. */
static nk_status worker_player(worker *w, uint32_t i, nk_player **out)
{
    if (w->players[i] == NULL) {
        const nk_exec_player *p = &w->batch->players[i];
        char msg[ERR_LEN - 32];
        nk_status st = nk_player_new(&w->players[i], p->spec, w->batch->variant, p->weights, p->n,
                                     msg, sizeof msg);
        if (st != NK_OK) {
            w->players[i] = NULL;
            return nk_fail(st, w->err, sizeof w->err, "player %u: %s", i, msg);
        }
    }
    *out = w->players[i];
    return NK_OK;
}

/* ===== one game ===== */

static void play_opening(nk_game *g, const nk_exec_job *job)
{
    nk_rng rng = {job->opening_seed};
    for (unsigned k = 0; k < job->opening && !nk_game_over(g); k++)
        nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
}

static nk_status play_game(worker *w, size_t index, nk_exec_game *out)
{
    const nk_exec_batch *b = w->batch;
    const nk_exec_job *job = &b->jobs[index];
    nk_game *g = w->game;
    nk_pos start;
    if (b->start != NULL)
        start = *b->start;
    else
        nk_pos_start(&start, NK_SOUTH);
    memset(out, 0, sizeof *out);
    unsigned limit = b->ply_limit ? b->ply_limit : NK_DEFAULT_PLY_LIMIT;
    nk_status st = nk_game_init(g, b->variant, &start, limit);
    if (st != NK_OK) /* check_batch has ruled this out */
        return nk_fail(st, w->err, sizeof w->err, "game %zu cannot start (ply limit %u): %s",
                       index, limit, nk_strerror(st));
    out->start = start;
    play_opening(g, job);
    out->opening = g->ply;

    nk_player *p[2];
    if ((st = worker_player(w, job->south, &p[NK_SOUTH])) != NK_OK ||
        (st = worker_player(w, job->north, &p[NK_NORTH])) != NK_OK)
        return st;
    nk_rng rng = {job->seed};
    while (!nk_game_over(g)) {
        int side = g->pos.side;
        nk_think think = {.move = NK_NO_MOVE, .score = 0, .depth = 0, .nodes = 0};
        int move = nk_player_move(p[side], g, &rng, &think);
        char msg[ERR_LEN / 2];
        if (nk_game_play(g, move, NULL, msg, sizeof msg) != NK_OK)
            return nk_fail(NK_EINVAL, w->err, sizeof w->err, "game %zu: player '%s': %s", index,
                           nk_player_spec(p[side])->text, msg);
        out->nodes[side] += think.nodes;
    }
    out->result = g->result;
    out->plies = g->ply;
    if (b->record) {
        out->moves = nk_malloc(g->ply ? g->ply : 1);
        if (out->moves == NULL)
            return nk_fail(NK_ENOMEM, w->err, sizeof w->err,
                           "out of memory for the record of game %zu", index);
        memcpy(out->moves, g->moves, g->ply);
    }
    return NK_OK;
}

/* ===== the batch ===== */

typedef struct failure {
    size_t index; /* lowest failing job; SIZE_MAX: none */
    nk_status status;
    char err[ERR_LEN];
} failure;

static void note_failure(failure *f, size_t index, nk_status st, const char *msg)
{
#pragma omp critical(nk_exec_failure)
    {
        TSAN_ACQUIRE();
        if (index < f->index) {
#pragma omp atomic write
            f->index = index;
            f->status = st;
            snprintf(f->err, sizeof f->err, "%s", msg);
        }
        TSAN_RELEASE();
    }
}

static size_t failed_index(const failure *f)
{
    size_t index;
#pragma omp atomic read
    index = f->index;
    return index;
}

/* Plays job k of w's batch into out[k], unless a job of lower index has
 * failed or the batch was stopped. */
static void play_one(worker *w, size_t k, nk_exec_game *out, failure *f)
{
    const nk_exec_batch *b = w->batch;
    if (k > failed_index(f))
        return;
    if (b->stop != NULL && *b->stop) {
        note_failure(f, k, NK_EINTERRUPTED, "stopped on request");
        return;
    }
    nk_status gs = play_game(w, k, &out[k]);
    if (gs != NK_OK)
        note_failure(f, k, gs, w->err);
}

/* One thread's share of the batch. */
static void run_share(const nk_exec_batch *b, nk_exec_game *out, failure *f)
{
    worker w = {0};
    nk_status st = worker_init(&w, b);
    if (st != NK_OK)
        note_failure(f, 0, st, w.err);
    long n = (long)b->njobs;
#pragma omp for schedule(dynamic)
    for (long i = 0; i < n; i++)
        if (st == NK_OK)
            play_one(&w, (size_t)i, out, f);
    worker_free(&w);
}

/* The batch on threads.  Under TSan the region's own code (reading the
 * shared pointers, which libgomp hands over unseen) is not checked; the
 * games are. */
TSAN_UNCHECKED static void run_parallel(const nk_exec_batch *b, nk_exec_game *out, failure *f,
                                        int threads)
{
    TSAN_RELEASE();
#pragma omp parallel num_threads(threads)
    {
        TSAN_ACQUIRE();
        run_share(b, out, f);
        TSAN_RELEASE();
    }
    TSAN_ACQUIRE();
}

#ifdef NICKAR_HAVE_MPI
/* ===== MPI: the batch across ranks =====
 *
 * Rank 0 (run_distributed) runs the batch on an OpenMP team of threads + 1:
 * thread 0 talks to the workers, the others play jobs.  Everybody takes jobs
 * from one cursor, in index order: rank 0's players one at a time, thread 0
 * a chunk at a time for a worker.  A worker gets the batch (TAG_BATCH: the
 * variant's name, start position, ply limit, threads, player table with
 * weights) before its first chunk, then chunks (TAG_CHUNK: lo, hi and jobs
 * lo..hi-1), two in flight so that it never waits for the next; each answer
 * (TAG_RESULT: lo, hi, the worker's lowest failure so far, the games, their
 * moves when recorded) brings it one more, until the cursor is past the end
 * (TAG_END).  Chunks are guided: half of the worker's share (by threads) of
 * the jobs left, at least one game per thread.
 *
 * A worker (serve_batch) runs the same kind of team: thread 0 receives the
 * chunks, queues their jobs and answers each chunk as soon as its games are
 * played, saying it is alive (TAG_ALIVE) every quarter of the time-out while
 * it has unanswered chunks; the others play the queued jobs in order.
 *
 * Jobs are handed out in increasing index order, so the failure semantics
 * of the lone batch hold: after a failure no further chunk goes out, the
 * chunks out still come back, and the lowest failing job wins.  Messages
 * carry raw structs (nk_spec, nk_pos, nk_exec_job, nk_exec_game): every
 * rank runs the same binary.  Only thread 0 calls MPI (FUNNELED).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <time.h>

#include <mpi.h>

#include "exec/mpi.h"

enum { MAX_CHUNK = 1024 };

/* Waiting for a message or a job: short sleeps at first, longer ones the
 * longer nothing happens (idle counts the sleeps since something did), so
 * that waiting threads leave the cores to the players. */
static void nap(unsigned *idle)
{
    long ns = *idle < 20 ? 50000 : *idle < 1000 ? 200000 : 1000000;
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
    if (*idle < UINT_MAX)
        (*idle)++;
}

/* A growable message. */
typedef struct msg {
    unsigned char *p;
    size_t len, cap;
    bool oom;
} msg;

static void put(msg *m, const void *src, size_t n)
{
    if (m->oom || n == 0)
        return;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < m->len + n)
            cap *= 2;
        unsigned char *p = nk_realloc(m->p, cap);
        if (p == NULL) {
            m->oom = true;
            return;
        }
        m->p = p;
        m->cap = cap;
    }
    memcpy(m->p + m->len, src, n);
    m->len += n;
}

static void put_u64(msg *m, uint64_t v)
{
    put(m, &v, sizeof v);
}

/* Reading a received message; bad once it ran past the end. */
typedef struct reader {
    const unsigned char *p;
    size_t len, at;
    bool bad;
} reader;

static void get(reader *r, void *dst, size_t n)
{
    if (r->bad || n > r->len - r->at) {
        r->bad = true;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p + r->at, n);
    r->at += n;
}

static uint64_t get_u64(reader *r)
{
    uint64_t v;
    get(r, &v, sizeof v);
    return v;
}

/* Receives the message that MPI_Iprobe announced into a malloc'd buffer. */
static int recv_probed(const MPI_Status *probe, unsigned char **data, size_t *len)
{
    int n = 0;
    int rc = MPI_Get_count(probe, MPI_BYTE, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    *data = nk_malloc(n > 0 ? (size_t)n : 1);
    *len = (size_t)n;
    if (*data == NULL)
        return MPI_ERR_NO_MEM;
    return MPI_Recv(*data, n, MPI_BYTE, probe->MPI_SOURCE, probe->MPI_TAG, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE);
}

static void mpi_text(int rc, char *buf, size_t len)
{
    char s[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (rc == MPI_ERR_NO_MEM || MPI_Error_string(rc, s, &n) != MPI_SUCCESS)
        snprintf(s, sizeof s, "%s", rc == MPI_ERR_NO_MEM ? "out of memory" : "MPI error");
    snprintf(buf, len, "%s", s);
}

/* The batch's description, as rank 0 sends it (TAG_BATCH). */
static void pack_batch(msg *m, const nk_exec_batch *b, double alive)
{
    size_t name = strlen(b->variant->name);
    put_u64(m, name);
    put(m, b->variant->name, name);
    put_u64(m, b->start != NULL);
    if (b->start != NULL)
        put(m, b->start, sizeof *b->start);
    put_u64(m, b->ply_limit);
    put_u64(m, (uint64_t)(int64_t)b->threads);
    put_u64(m, b->record);
    put(m, &alive, sizeof alive);
    put_u64(m, b->njobs);
    put_u64(m, b->nplayers);
    for (size_t i = 0; i < b->nplayers; i++) {
        const nk_exec_player *p = &b->players[i];
        put(m, p->spec, sizeof *p->spec);
        put_u64(m, p->weights != NULL);
        put_u64(m, p->n);
        if (p->weights != NULL)
            put(m, p->weights, p->n * sizeof *p->weights);
    }
}

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
    failure *f;
    atomic_size_t next; /* the first job not handed out */
    int size;
    size_t threads; /* player threads of all ranks */
    double timeout;
    peer *peer; /* [size] */
    msg header;
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
    note_failure(d->f, 0, st, d->fatal_err);
}

/* Sends data (len bytes, owned: freed once sent, unless it is the shared
 * header) to worker w. */
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
        mpi_text(rc, t, sizeof t);
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
        nap(&idle);
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

/* Hands worker w its next chunk, if any is left and nothing failed. */
static void assign(dist *d, int w)
{
    const nk_exec_batch *b = d->b;
    if (d->fatal != NK_OK || failed_index(d->f) != SIZE_MAX)
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
    msg m = {0};
    put_u64(&m, lo);
    put_u64(&m, hi);
    put(&m, &b->jobs[lo], (hi - lo) * sizeof *b->jobs);
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

/* Takes in the games of one chunk of worker w. */
static void take_result(dist *d, int w, const unsigned char *data, size_t len)
{
    const nk_exec_batch *b = d->b;
    reader r = {data, len, 0, false};
    size_t lo = (size_t)get_u64(&r), hi = (size_t)get_u64(&r);
    uint64_t findex = get_u64(&r), fstatus = get_u64(&r);
    char ferr[ERR_LEN];
    get(&r, ferr, sizeof ferr);
    ferr[sizeof ferr - 1] = '\0';
    if (r.bad || lo >= hi || hi > b->njobs || d->peer[w].outstanding == 0) {
        go_fatal(d, NK_EIO, "garbled answer from worker rank %d", w);
        return;
    }
    for (size_t k = lo; k < hi; k++) {
        get(&r, &d->out[k], sizeof d->out[k]);
        d->out[k].moves = NULL;
    }
    for (size_t k = lo; b->record && k < hi && !r.bad; k++) {
        size_t n = (size_t)get_u64(&r);
        if (n > r.len - r.at)
            r.bad = true;
        if (n == 0 || r.bad)
            continue;
        d->out[k].moves = nk_malloc(n);
        if (d->out[k].moves == NULL) {
            note_failure(d->f, k, NK_ENOMEM, "out of memory for the record of a game");
            r.at += n; /* skip the record: the answers after it stay aligned */
        } else
            get(&r, d->out[k].moves, n);
    }
    if (r.bad || r.at != r.len) {
        go_fatal(d, NK_EIO, "garbled answer from worker rank %d", w);
        return;
    }
    if (findex != UINT64_MAX && fstatus > NK_OK && fstatus < NK_ESTATUS_COUNT)
        note_failure(d->f, (size_t)findex, (nk_status)fstatus, ferr);
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
            mpi_text(rc, t, sizeof t);
            go_fatal(d, NK_EIO, "MPI_Iprobe failed on rank 0: %s", t);
        }
        return false;
    }
    unsigned char *data = NULL;
    size_t len = 0;
    int w = st.MPI_SOURCE;
    rc = recv_probed(&st, &data, &len);
    if (rc != MPI_SUCCESS) {
        char t[ERR_LEN];
        mpi_text(rc, t, sizeof t);
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
    bool out = atomic_load(&d->next) >= b->njobs || failed_index(d->f) != SIZE_MAX;
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
                note_failure(d->f, lo, NK_EINTERRUPTED, "stopped on request");
        }
        if (wind_down(d))
            break;
        check_timeouts(d);
        sweep_sends(d, false);
        if (busy)
            idle = 0;
        else
            nap(&idle);
    }
    if (d->fatal == NK_OK)
        sweep_sends(d, true);
}

/* Rank 0's player threads: jobs one at a time from the cursor. */
static void play_from_cursor(dist *d)
{
    worker w = {0};
    nk_status st = worker_init(&w, d->b);
    if (st != NK_OK)
        note_failure(d->f, 0, st, w.err);
    for (;;) {
        size_t k = atomic_fetch_add(&d->next, 1);
        if (k >= d->b->njobs)
            break;
        if (st == NK_OK)
            play_one(&w, k, d->out, d->f);
    }
    worker_free(&w);
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
static nk_status run_distributed(const nk_exec_batch *b, nk_exec_game *out, failure *f, int threads,
                                 char *err, size_t errlen)
{
    if (nk_mpi_broken())
        return nk_fail(NK_EIO, err, errlen,
                       "the MPI workers were lost earlier in this run; it cannot go on");
    dist d = {.b = b, .out = out, .f = f, .size = nk_mpi_size(), .timeout = nk_mpi_timeout()};
    atomic_init(&d.next, 0);
    d.peer = nk_calloc((size_t)d.size, sizeof *d.peer);
    pack_batch(&d.header, b, d.timeout / 4);
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
static bool distributable(const nk_exec_batch *b)
{
    return nk_mpi_size() > 1 && nk_mpi_rank() == 0 && b->njobs > 0 && !omp_in_parallel() &&
           b->variant->name != NULL && nk_variant_find(b->variant->name) == b->variant;
}

/* ===== MPI: a worker ===== */

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
    failure f;
    nk_status bad; /* the batch cannot be played (bad_err says why) */
    char bad_err[ERR_LEN];
    double alive; /* seconds between signs of life */
} served;

/* The test hooks of nk_mpi_serve. */
typedef struct hooks {
    long exit_after, hang_after; /* answers; -1: never */
    long answers;
} hooks;

static long env_long(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? strtol(v, NULL, 10) : -1;
}

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
    reader r = {data, len, 0, false};
    char name[64] = "";
    size_t nlen = (size_t)get_u64(&r);
    if (nlen < sizeof name)
        get(&r, name, nlen);
    else
        r.bad = true;
    s->b.variant = nk_variant_find(name);
    if (get_u64(&r)) {
        get(&r, &s->start, sizeof s->start);
        s->b.start = &s->start;
    }
    s->b.ply_limit = (unsigned)get_u64(&r);
    s->b.threads = (int)(int64_t)get_u64(&r);
    s->b.record = get_u64(&r) != 0;
    get(&r, &s->alive, sizeof s->alive);
    s->b.njobs = (size_t)get_u64(&r);
    s->b.nplayers = (size_t)get_u64(&r);
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
        get(&r, &s->specs[i], sizeof s->specs[i]);
        bool has = get_u64(&r) != 0;
        size_t nw = (size_t)get_u64(&r);
        if (r.bad || (has && nw * sizeof(double) > r.len - r.at)) {
            r.bad = true;
            break;
        }
        s->players[i] = (nk_exec_player){&s->specs[i], has ? s->weights + off : NULL, nw};
        if (has) {
            get(&r, s->weights + off, nw * sizeof(double));
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
}

/* Queues the jobs of a TAG_CHUNK message for the players. */
static nk_status take_chunk(served *s, const unsigned char *data, size_t len, char *err,
                            size_t errlen)
{
    reader r = {data, len, 0, false};
    size_t lo = (size_t)get_u64(&r), hi = (size_t)get_u64(&r);
    if (r.bad || lo >= hi || hi > s->b.njobs || s->nchunks >= s->b.njobs ||
        len != r.at + (hi - lo) * sizeof *s->jobs)
        return nk_fail(NK_EIO, err, errlen, "worker rank %d: garbled chunk message", nk_mpi_rank());
    get(&r, &s->jobs[lo], (hi - lo) * sizeof *s->jobs);
    size_t c = s->nchunks++;
    s->chunks[c].lo = lo;
    s->chunks[c].hi = hi;
    s->chunks[c].answered = false;
    if (s->bad != NK_OK) { /* answered at once, with the failure */
        note_failure(&s->f, lo, s->bad, s->bad_err);
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
    msg m = {0};
    size_t findex;
    nk_status fstatus;
    char ferr[ERR_LEN];
#pragma omp critical(nk_exec_failure)
    {
        findex = s->f.index;
        fstatus = s->f.status;
        memcpy(ferr, s->f.err, sizeof ferr);
    }
    put_u64(&m, ch->lo);
    put_u64(&m, ch->hi);
    put_u64(&m, findex == SIZE_MAX ? UINT64_MAX : (uint64_t)findex);
    put_u64(&m, (uint64_t)fstatus);
    put(&m, ferr, sizeof ferr);
    put(&m, &s->out[ch->lo], (ch->hi - ch->lo) * sizeof *s->out);
    for (size_t k = ch->lo; s->b.record && k < ch->hi; k++) {
        size_t n = s->out[k].moves != NULL ? s->out[k].plies : 0;
        put_u64(&m, n);
        put(&m, s->out[k].moves, n);
    }
    nk_exec_games_free(&s->out[ch->lo], ch->hi - ch->lo);
    if (m.oom)
        return nk_fail(NK_ENOMEM, err, errlen, "worker rank %d: out of memory for an answer",
                       nk_mpi_rank());
    int rc = MPI_Send(m.p, (int)m.len, MPI_BYTE, 0, NK_MPI_TAG_RESULT, MPI_COMM_WORLD);
    nk_free(m.p);
    if (rc != MPI_SUCCESS) {
        char t[ERR_LEN];
        mpi_text(rc, t, sizeof t);
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
        nap(&idle);
    }
}

static void play_queued(served *s, worker *w, nk_status wst, size_t pos)
{
    size_t k = s->order[pos];
    if (wst == NK_OK)
        play_one(w, k, s->out, &s->f);
    else
        note_failure(&s->f, k, wst, w->err);
    atomic_fetch_add(&s->chunks[s->chunk_of[pos]].done, 1);
}

/* A worker's player threads. */
static void play_from_queue(served *s)
{
    worker w = {0};
    nk_status st = worker_init(&w, &s->b);
    size_t pos;
    while (next_queued(s, &pos, false))
        play_queued(s, &w, st, pos);
    worker_free(&w);
}

/* Thread 0 of a worker: receives chunks, answers them, says it is alive.
 * solo: no player thread came, so it plays too. */
static nk_status listen(served *s, hooks *h, bool solo, char *err, size_t errlen)
{
    worker w = {0};
    nk_status wst = solo ? worker_init(&w, &s->b) : NK_OK;
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
            int rc = recv_probed(&probe, &data, &len);
            if (rc != MPI_SUCCESS) {
                char t[ERR_LEN];
                mpi_text(rc, t, sizeof t);
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
            h->answers++;
            if (h->answers == h->hang_after)
                for (;;) { /* the test hook: silence, for ever */
                    struct timespec ts = {60, 0};
                    nanosleep(&ts, NULL);
                }
            if (h->answers == h->exit_after && st == NK_OK)
                st = nk_fail(NK_EINTERRUPTED, err, errlen,
                             "leaving on purpose after %ld answers "
                             "(NICKAR_TEST_WORKER_EXIT_AFTER)",
                             h->answers);
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
            nap(&idle);
        }
    }
    atomic_store(&s->quit, 1);
    if (solo)
        worker_free(&w);
    return st;
}

TSAN_UNCHECKED static nk_status serve_batch(const unsigned char *data, size_t len, hooks *h,
                                            char *err, size_t errlen)
{
    served s;
    memset(&s, 0, sizeof s);
    atomic_init(&s.avail, 0);
    atomic_init(&s.taken, 0);
    atomic_init(&s.ended, 0);
    atomic_init(&s.quit, 0);
    s.f = (failure){.index = SIZE_MAX, .status = NK_OK, .err = ""};
    served_init(&s, data, len);
    int threads = s.b.threads > 0 ? s.b.threads : omp_get_max_threads();
    nk_status st = NK_OK;
    TSAN_RELEASE();
#pragma omp parallel num_threads(threads + 1)
    {
        TSAN_ACQUIRE();
        if (omp_get_thread_num() == 0)
            st = listen(&s, h, omp_get_num_threads() == 1, err, errlen);
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
    hooks h = {-1, -1, 0};
    long target = env_long("NICKAR_TEST_WORKER_RANK");
    if (target < 0)
        target = nk_mpi_size() - 1;
    if (target == nk_mpi_rank()) {
        h.exit_after = env_long("NICKAR_TEST_WORKER_EXIT_AFTER");
        h.hang_after = env_long("NICKAR_TEST_WORKER_HANG_AFTER");
    }
    unsigned idle = 0;
    for (;;) {
        int flag = 0;
        MPI_Status probe;
        int rc = MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &probe);
        if (rc == MPI_SUCCESS && !flag) {
            nap(&idle); /* between batches */
            continue;
        }
        idle = 0;
        unsigned char *data = NULL;
        size_t len = 0;
        if (rc == MPI_SUCCESS)
            rc = recv_probed(&probe, &data, &len);
        if (rc != MPI_SUCCESS) {
            nk_free(data);
            char t[ERR_LEN];
            mpi_text(rc, t, sizeof t);
            return nk_fail(NK_EIO, err, errlen, "cannot receive from rank 0: %s", t);
        }
        nk_status st = NK_OK;
        if (probe.MPI_TAG == NK_MPI_TAG_QUIT) {
            nk_free(data);
            return NK_OK;
        }
        if (probe.MPI_TAG == NK_MPI_TAG_BATCH)
            st = serve_batch(data, len, &h, err, errlen);
        else
            st = nk_fail(NK_EIO, err, errlen, "unexpected message (tag %d) between batches",
                         probe.MPI_TAG);
        nk_free(data);
        if (st != NK_OK)
            return st;
    }
}
#else  /* no MPI: every batch is this process's */

static bool distributable(const nk_exec_batch *b)
{
    (void)b;
    return false;
}

static nk_status run_distributed(const nk_exec_batch *b, nk_exec_game *out, failure *f, int threads,
                                 char *err, size_t errlen)
{
    (void)b, (void)out, (void)f, (void)threads;
    return nk_fail(NK_EINVAL, err, errlen, "this nickar was built without MPI");
}
#endif /* NICKAR_HAVE_MPI */

nk_status nk_exec_run(const nk_exec_batch *b, nk_exec_game *out, char *err, size_t errlen)
{
    /* Before any check: after every failure out may be freed (exec.h). */
    for (size_t i = 0; out != NULL && i < b->njobs; i++)
        out[i].moves = NULL;
    nk_status st = check_batch(b, err, errlen);
    if (st != NK_OK)
        return st;
    failure f = {.index = SIZE_MAX, .status = NK_OK, .err = ""};
    int threads = b->threads > 0 ? b->threads : omp_get_max_threads();
    if (distributable(b)) {
        st = run_distributed(b, out, &f, threads, err, errlen);
        if (st != NK_OK)
            return st;
    } else if (threads > 1 && b->njobs > 1) {
        run_parallel(b, out, &f, threads);
    } else {
        run_share(b, out, &f);
    }
    if (f.index != SIZE_MAX)
        return nk_fail(f.status, err, errlen, "%s", f.err);
    return NK_OK;
}
