/*
 * meetings.c -- playing meetings as colour-swapped pairs of games or of
 * matches (see meetings.h).
 */
#include "arena/meetings.h"

#include <string.h>

#include "base/alloc.h"
#include "base/rng.h"

const char *nk_arena_unit_name(nk_arena_unit u)
{
    return u == NK_UNIT_GAME ? "game" : u == NK_UNIT_MATCH ? "match" : NULL;
}

bool nk_arena_unit_parse(const char *name, nk_arena_unit *out)
{
    for (int u = NK_UNIT_GAME; u <= NK_UNIT_MATCH; u++)
        if (strcmp(name, nk_arena_unit_name((nk_arena_unit)u)) == 0) {
            *out = (nk_arena_unit)u;
            return true;
        }
    return false;
}

/* Counts a's game (of unit k) into the meeting's game counts and seeds. */
static int count_one(nk_meeting_tally *t, int k, const nk_exec_game *g, int side)
{
    int winner = g->result.winner;
    int outcome = winner == NK_DRAW ? 0 : winner == side ? 1 : -1;
    t->own[k] += (int)g->result.total[side];
    t->other[k] += (int)g->result.total[1 - side];
    t->games[k]++;
    if (outcome > 0)
        t->game_wins++;
    else if (outcome < 0)
        t->game_losses++;
    else
        t->game_draws++;
    return outcome;
}

/* a's result in unit k: 1, 0 or -1. */
static void count_unit(nk_meeting_tally *t, int k, int outcome)
{
    t->outcome[k] = outcome;
    if (outcome > 0)
        t->wins++;
    else if (outcome < 0)
        t->losses++;
    else
        t->draws++;
}

static nk_status alloc_played(nk_arena_played *out, size_t n, size_t ngames, char *err, size_t len)
{
    out->n = n;
    out->ngames = ngames;
    out->jobs = nk_calloc(ngames + 1, sizeof *out->jobs);
    out->games = nk_calloc(ngames + 1, sizeof *out->games);
    out->first_game = nk_calloc(2 * n + 1, sizeof *out->first_game);
    out->tally = nk_calloc(n + 1, sizeof *out->tally);
    if (out->jobs == NULL || out->games == NULL || out->first_game == NULL || out->tally == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory for %zu games", ngames);
    return NK_OK;
}

static nk_status play_games(const nk_arena_setup *s, const nk_meeting *meetings, size_t n,
                            nk_arena_played *out, char *err, size_t len)
{
    nk_status st = alloc_played(out, n, 2 * n, err, len);
    if (st != NK_OK)
        return st;
    if (s->index == NULL)
        nk_exec_pairs_at(out->jobs, meetings, n, s->master, s->batch, s->first, s->opening);
    else
        for (size_t i = 0; i < n; i++)
            nk_exec_pairs_at(&out->jobs[2 * i], &meetings[i], 1, s->master, s->batch,
                             s->index[i], s->opening);
    nk_exec_batch batch = {.variant = s->variant,
                           .ply_limit = s->ply_limit,
                           .players = s->players,
                           .nplayers = s->nplayers,
                           .jobs = out->jobs,
                           .njobs = 2 * n,
                           .threads = s->threads,
                           .record = s->record};
    st = nk_exec_run(&batch, out->games, err, len);
    if (st != NK_OK)
        return st;
    for (size_t i = 0; i < 2 * n + 1; i++)
        out->first_game[i] = i;
    for (size_t i = 0; i < n; i++) {
        nk_meeting_tally *t = &out->tally[i];
        count_unit(t, 0, count_one(t, 0, &out->games[2 * i], NK_SOUTH));
        count_unit(t, 1, count_one(t, 1, &out->games[2 * i + 1], NK_NORTH));
    }
    return NK_OK;
}

/* ===== matches, round by round ===== */

typedef struct round_data {
    nk_exec_job *jobs;   /* [2n] this round's games */
    nk_exec_game *games; /* [2n] */
    size_t *match;       /* [2n] the match (2i + k) of each game */
    size_t njobs;
} round_data;

/* Round r's games: game r of every match still going. */
static void plan_round(const nk_arena_setup *s, const nk_meeting *meetings, nk_match *m, size_t nm,
                       unsigned r, round_data *rd)
{
    for (size_t j = 0; j < nm; j++) {
        if (nk_match_over(&m[j]))
            continue;
        size_t i = j / 2;
        unsigned k = (unsigned)(j % 2);
        uint64_t pair =
            nk_exec_seed(s->master, s->batch, s->index != NULL ? s->index[i] : s->first + i);
        nk_pos start;
        nk_match_next(&m[j], &start);
        rd->match[rd->njobs] = j;
        rd->jobs[rd->njobs++] =
            (nk_exec_job){.south = k == 0 ? meetings[i].a : meetings[i].b,
                          .north = k == 0 ? meetings[i].b : meetings[i].a,
                          .seed = nk_seed_mix(pair, 1 + k, r),
                          .opening_seed = r == 0 ? pair : nk_seed_mix(pair, 3, r),
                          .opening = s->opening,
                          .own_start = true,
                          .first = (uint8_t)start.side,
                          .owners = start.north};
    }
}

/* Moves the rounds' games into out in order (meeting, unit, round) and
 * tallies the meetings; count[j]: the games of match j (reused). */
static void gather(nk_arena_played *out, size_t n, const nk_match *m, round_data *rounds,
                   unsigned played_rounds, size_t *count)
{
    size_t nm = 2 * n;
    size_t at = 0;
    for (size_t j = 0; j < nm; j++) {
        out->first_game[j] = at;
        at += count[j];
    }
    out->first_game[nm] = at;
    size_t *next = count; /* reused: the next free slot of each match */
    for (size_t j = 0; j < nm; j++)
        next[j] = out->first_game[j];
    for (unsigned r = 0; r < played_rounds; r++)
        for (size_t g = 0; g < rounds[r].njobs; g++) {
            size_t j = rounds[r].match[g], to = next[j]++;
            out->jobs[to] = rounds[r].jobs[g];
            out->games[to] = rounds[r].games[g];
            rounds[r].games[g].moves = NULL; /* moved */
        }
    for (size_t i = 0; i < n; i++) {
        nk_meeting_tally *t = &out->tally[i];
        for (int k = 0; k < 2; k++) {
            size_t j = 2 * i + (size_t)k;
            for (size_t g = out->first_game[j]; g < out->first_game[j + 1]; g++)
                count_one(t, k, &out->games[g], k == 0 ? NK_SOUTH : NK_NORTH);
            /* a is player k of match k (player 0 sits South) */
            int w = m[j].winner;
            count_unit(t, k, w == NK_DRAW ? 0 : w == k ? 1 : -1);
        }
    }
}

static nk_status play_matches(const nk_arena_setup *s, const nk_meeting *meetings, size_t n,
                              nk_arena_played *out, char *err, size_t len)
{
    unsigned limit = s->match_games ? s->match_games : NK_MATCH_GAMES_DEFAULT;
    if (limit > NK_MATCH_GAMES_MAX)
        return nk_fail(NK_ERANGE, err, len, "a match's game limit %u is above %d", limit,
                       NK_MATCH_GAMES_MAX);
    size_t nm = 2 * n;
    nk_match *m = nk_calloc(nm + 1, sizeof *m);
    round_data *rounds = nk_calloc(limit, sizeof *rounds);
    size_t *count = nk_calloc(nm + 1, sizeof *count);
    nk_status st = NK_OK;
    if (m == NULL || rounds == NULL || count == NULL)
        st = nk_fail(NK_ENOMEM, err, len, "out of memory for %zu matches", nm);
    for (size_t j = 0; st == NK_OK && j < nm; j++)
        nk_match_init(&m[j], s->variant, 0, limit);
    unsigned played_rounds = 0;
    size_t total = 0;
    for (unsigned r = 0; st == NK_OK && r < limit; r++) {
        round_data *rd = &rounds[r];
        rd->jobs = nk_calloc(nm + 1, sizeof *rd->jobs);
        rd->games = nk_calloc(nm + 1, sizeof *rd->games);
        rd->match = nk_calloc(nm + 1, sizeof *rd->match);
        played_rounds = r + 1;
        if (rd->jobs == NULL || rd->games == NULL || rd->match == NULL) {
            st = nk_fail(NK_ENOMEM, err, len, "out of memory for %zu games", nm);
            break;
        }
        plan_round(s, meetings, m, nm, r, rd);
        if (rd->njobs == 0)
            break;
        nk_exec_batch batch = {.variant = s->variant,
                               .ply_limit = s->ply_limit,
                               .players = s->players,
                               .nplayers = s->nplayers,
                               .jobs = rd->jobs,
                               .njobs = rd->njobs,
                               .threads = s->threads,
                               .record = s->record};
        st = nk_exec_run(&batch, rd->games, err, len);
        for (size_t g = 0; st == NK_OK && g < rd->njobs; g++) {
            nk_match_record(&m[rd->match[g]], &rd->games[g].result);
            count[rd->match[g]]++;
            total++;
        }
    }
    if (st == NK_OK)
        st = alloc_played(out, n, total, err, len);
    if (st == NK_OK)
        gather(out, n, m, rounds, played_rounds, count);
    for (unsigned r = 0; rounds != NULL && r < played_rounds; r++) {
        if (rounds[r].games != NULL)
            nk_exec_games_free(rounds[r].games, rounds[r].njobs);
        nk_free(rounds[r].jobs);
        nk_free(rounds[r].games);
        nk_free(rounds[r].match);
    }
    nk_free(rounds);
    nk_free(count);
    nk_free(m);
    return st;
}

nk_status nk_arena_play_meetings(const nk_arena_setup *s, const nk_meeting *meetings, size_t n,
                                 nk_arena_played *out, char *err, size_t len)
{
    memset(out, 0, sizeof *out);
    if (s->unit == NK_UNIT_MATCH)
        return play_matches(s, meetings, n, out, err, len);
    return play_games(s, meetings, n, out, err, len);
}

void nk_arena_played_free(nk_arena_played *p)
{
    if (p->games)
        nk_exec_games_free(p->games, p->ngames);
    nk_free(p->jobs);
    nk_free(p->games);
    nk_free(p->first_game);
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
