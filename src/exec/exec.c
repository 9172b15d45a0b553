/*
 * exec.c -- a batch of games, serially or on OpenMP threads; nk_exec_run
 * hands a batch to the MPI controller (mpi_controller.c) when the process
 * is rank 0 of several (exec/mpi.h).  This file owns the batch API of
 * exec.h, the checks of a batch, one thread's players and game, and the
 * lowest-failure bookkeeping that the MPI files share (exec_internal.h).
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
#include "exec/exec_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#if defined(__SANITIZE_THREAD__)
char nk_exec_tsan_sync;
#endif

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
    nk_exec_pairs_at(jobs, meetings, n, master, batch, 0, opening);
}

void nk_exec_pairs_at(nk_exec_job *jobs, const nk_meeting *meetings, size_t n, uint64_t master,
                      uint64_t batch, uint64_t first, unsigned opening)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t pair = nk_exec_seed(master, batch, first + i);
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
        if (j->own_start && (j->first > NK_NORTH ||
                             (b->variant->sowing == NK_SOW_WARRI && j->owners != NK_DEFAULT_NORTH)))
            return nk_fail(NK_EINVAL, err, errlen,
                           "game %zu starts with side %u to move and North owning pits %#x, "
                           "which %s does not allow",
                           i, j->first, j->owners, b->variant->name);
    }
    return NK_OK;
}

/* ===== one thread's state ===== */

nk_status nk_exec_worker_init(nk_exec_worker *w, const nk_exec_batch *b)
{
    w->batch = b;
    w->err[0] = '\0';
    w->players = nk_calloc(b->nplayers ? b->nplayers : 1, sizeof *w->players);
    w->game = nk_malloc(sizeof *w->game);
    if (w->players == NULL || w->game == NULL)
        return nk_fail(NK_ENOMEM, w->err, sizeof w->err, "out of memory for a worker");
    return NK_OK;
}

void nk_exec_worker_free(nk_exec_worker *w)
{
    if (w->players != NULL)
        for (size_t i = 0; i < w->batch->nplayers; i++)
            nk_player_free(w->players[i]);
    nk_free(w->players);
    nk_free(w->game);
}

/* The thread's instance of player i, made now if needed. */
static nk_status worker_player(nk_exec_worker *w, uint32_t i, nk_player **out)
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

static nk_status play_game(nk_exec_worker *w, size_t index, nk_exec_game *out)
{
    const nk_exec_batch *b = w->batch;
    const nk_exec_job *job = &b->jobs[index];
    nk_game *g = w->game;
    nk_pos start;
    if (job->own_start) {
        nk_pos_start(&start, job->first);
        start.north = job->owners;
        start.hash = nk_pos_hash(&start);
    } else if (b->start != NULL) {
        start = *b->start;
    } else {
        nk_pos_start(&start, NK_SOUTH);
    }
    memset(out, 0, sizeof *out);
    unsigned limit = b->ply_limit ? b->ply_limit : NK_DEFAULT_PLY_LIMIT;
    nk_status st = nk_game_init(g, b->variant, &start, limit);
    if (st != NK_OK) /* check_batch has ruled this out */
        return nk_fail(st, w->err, sizeof w->err, "game %zu cannot start (ply limit %u): %s", index,
                       limit, nk_strerror(st));
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
        if (move == NK_NO_MOVE && nk_end_forfeit(nk_player_fault(p[side]))) {
            nk_game_forfeit(g, nk_player_fault(p[side])); /* an engine from outside failed */
            break;
        }
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

void nk_exec_note_failure(nk_exec_failure *f, size_t index, nk_status st, const char *msg)
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

size_t nk_exec_failed_index(const nk_exec_failure *f)
{
    size_t index;
#pragma omp atomic read
    index = f->index;
    return index;
}

void nk_exec_play_one(nk_exec_worker *w, size_t k, nk_exec_game *out, nk_exec_failure *f)
{
    const nk_exec_batch *b = w->batch;
    if (k > nk_exec_failed_index(f))
        return;
    if (b->stop != NULL && *b->stop) {
        nk_exec_note_failure(f, k, NK_EINTERRUPTED, "stopped on request");
        return;
    }
    nk_status gs = play_game(w, k, &out[k]);
    if (gs != NK_OK)
        nk_exec_note_failure(f, k, gs, w->err);
}

/* One thread's share of the batch. */
static void run_share(const nk_exec_batch *b, nk_exec_game *out, nk_exec_failure *f)
{
    nk_exec_worker w = {0};
    nk_status st = nk_exec_worker_init(&w, b);
    if (st != NK_OK)
        nk_exec_note_failure(f, 0, st, w.err);
    long n = (long)b->njobs;
#pragma omp for schedule(dynamic)
    for (long i = 0; i < n; i++)
        if (st == NK_OK)
            nk_exec_play_one(&w, (size_t)i, out, f);
    nk_exec_worker_free(&w);
}

/* The batch on threads.  Under TSan the region's own code (reading the
 * shared pointers, which libgomp hands over unseen) is not checked; the
 * games are. */
TSAN_UNCHECKED static void run_parallel(const nk_exec_batch *b, nk_exec_game *out,
                                        nk_exec_failure *f, int threads)
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

/* ===== the entry point =====
 *
 * A batch goes over the MPI ranks (mpi_controller.c) when this is rank 0 of
 * several, else onto this process's threads, else it runs serially. */

nk_status nk_exec_run(const nk_exec_batch *b, nk_exec_game *out, char *err, size_t errlen)
{
    /* Before any check: after every failure out may be freed (exec.h). */
    for (size_t i = 0; out != NULL && i < b->njobs; i++)
        out[i].moves = NULL;
    nk_status st = check_batch(b, err, errlen);
    if (st != NK_OK)
        return st;
    nk_exec_failure f = {.index = SIZE_MAX, .status = NK_OK, .err = ""};
    int threads = b->threads > 0 ? b->threads : omp_get_max_threads();
    if (nk_exec_mpi_distributable(b)) {
        st = nk_exec_mpi_run(b, out, &f, threads, err, errlen);
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
