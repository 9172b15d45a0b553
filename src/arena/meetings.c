/*
 * meetings.c -- playing meetings as colour-swapped pairs (see meetings.h).
 */
#include "arena/meetings.h"

#include <string.h>

#include "base/alloc.h"

static void count_game(nk_meeting_tally *t, int k, const nk_exec_game *g, int side)
{
    int winner = g->result.winner;
    t->outcome[k] = winner == NK_DRAW ? 0 : winner == side ? 1 : -1;
    t->own[k] = (int)g->result.total[side];
    t->other[k] = (int)g->result.total[1 - side];
    if (t->outcome[k] > 0)
        t->wins++;
    else if (t->outcome[k] < 0)
        t->losses++;
    else
        t->draws++;
}

nk_status nk_arena_play_meetings(const nk_arena_setup *s, const nk_meeting *meetings, size_t n,
                                 nk_arena_played *out, char *err, size_t len)
{
    memset(out, 0, sizeof *out);
    out->jobs = nk_calloc(2 * n + 1, sizeof *out->jobs);
    out->games = nk_calloc(2 * n + 1, sizeof *out->games);
    out->tally = nk_calloc(n + 1, sizeof *out->tally);
    if (out->jobs == NULL || out->games == NULL || out->tally == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory for %zu games", 2 * n);
    out->n = n;
    if (s->index == NULL)
        nk_exec_pairs(out->jobs, meetings, n, s->master, s->batch, s->opening);
    else
        for (size_t i = 0; i < n; i++)
            nk_exec_pair_at(&out->jobs[2 * i], meetings[i], s->index[i], s->master, s->batch,
                            s->opening);
    nk_exec_batch batch = {.variant = s->variant,
                           .ply_limit = s->ply_limit,
                           .players = s->players,
                           .nplayers = s->nplayers,
                           .jobs = out->jobs,
                           .njobs = 2 * n,
                           .threads = s->threads,
                           .record = s->record};
    nk_status st = nk_exec_run(&batch, out->games, err, len);
    if (st != NK_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        count_game(&out->tally[i], 0, &out->games[2 * i], NK_SOUTH);
        count_game(&out->tally[i], 1, &out->games[2 * i + 1], NK_NORTH);
    }
    return NK_OK;
}

void nk_arena_played_free(nk_arena_played *p)
{
    if (p->games)
        nk_exec_games_free(p->games, 2 * p->n);
    nk_free(p->jobs);
    nk_free(p->games);
    nk_free(p->tally);
    memset(p, 0, sizeof *p);
}

double nk_meeting_points(const nk_meeting_tally *m, int k)
{
    return m->outcome[k] > 0 ? 1.0 : m->outcome[k] < 0 ? 0.0 : 0.5;
}

int nk_meeting_seed_diff(const nk_meeting_tally *m, int k)
{
    return m->own[k] - m->other[k];
}

void nk_arena_add_meeting(nk_arena_tally *t, const nk_meeting_tally *m)
{
    nk_arena_add_pair(t, nk_meeting_points(m, 0), nk_meeting_seed_diff(m, 0),
                      nk_meeting_points(m, 1), nk_meeting_seed_diff(m, 1));
}
