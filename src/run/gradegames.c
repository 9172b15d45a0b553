/*
 * gradegames.c -- whole games graded against perfect play (gradegames.h).
 *
 * The games are played first, all of them, by the batch runner with their
 * moves recorded; the grading then replays each record with the engine
 * and looks up the graded player's moves, one game at a time, in the
 * calling thread.  The graded player's side in game i is South for even i
 * (nk_exec_pairs: the first game of a pair has meeting.a South).
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "run/gradegames.h"

enum { GG_MAX_PER_PIT = 4 };

nk_status nk_gg_start(const nk_tb *tb, unsigned per_pit, nk_pos *start, char *err, size_t errlen)
{
    if (per_pit < 1 || per_pit > GG_MAX_PER_PIT)
        return nk_fail(NK_ERANGE, err, errlen, "seeds a pit %u: must be 1 to %d", per_pit,
                       GG_MAX_PER_PIT);
    nk_status st = nk_grade_pattern0(tb, err, errlen);
    if (st != NK_OK)
        return st;
    const unsigned seeds = NK_PITS * per_pit;
    if (seeds > tb->seeds)
        return nk_fail(NK_EINVAL, err, errlen,
                       "the start position (%u seed%s a pit, %u on the board) is not in the "
                       "database, which holds positions of at most %u seeds",
                       per_pit, per_pit == 1 ? "" : "s", seeds, tb->seeds);
    nk_pos_start(start, NK_SOUTH);
    for (int i = 0; i < NK_PITS; i++)
        start->pit[i] = (uint8_t)per_pit;
    start->hash = nk_pos_hash(start);
    return NK_OK;
}

int nk_gg_phase(unsigned b, unsigned start_seeds)
{
    if (3 * b > 2 * start_seeds)
        return NK_GG_OPENING;
    return 3 * b > start_seeds ? NK_GG_MIDDLE : NK_GG_END;
}

void nk_gg_report_free(nk_gg_report *r)
{
    if (r == NULL)
        return;
    nk_free(r->errors);
    r->errors = NULL;
    r->nerrors = 0;
}

/* The sums of one game (a cluster). */
typedef struct game_sums {
    uint64_t n, optimal;
    double lost;
    bool fell;
} game_sums;

static nk_status add_error(nk_gg_report *r, const nk_gg_error *e, size_t *cap, char *err,
                           size_t errlen)
{
    if (r->nerrors == *cap) {
        size_t want = *cap ? 2 * *cap : 64;
        nk_gg_error *grown = nk_realloc(r->errors, want * sizeof *grown);
        if (grown == NULL)
            return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the errors");
        r->errors = grown;
        *cap = want;
    }
    r->errors[r->nerrors++] = *e;
    return NK_OK;
}

/* Grades the graded player's move `mv` in g's position. */
static nk_status grade_move(const nk_tb *tb, const nk_game *g, int mv, uint64_t game,
                            unsigned start_seeds, nk_gg_report *r, game_sums *gs, size_t *cap,
                            char *err, size_t errlen)
{
    unsigned mask;
    int val[NK_PASS + 1], opp[NK_PASS + 1];
    nk_status st = nk_tb_move_pairs(tb, &g->pos, &mask, val, opp, NULL);
    if (st != NK_OK)
        return nk_fail(st, err, errlen, "game %llu, ply %u: the position is not in the database",
                       (unsigned long long)game + 1, g->ply);
    if ((mask & (mask - 1)) == 0) {
        r->forced++;
        return NK_OK;
    }
    int best = -1, best_out = -2;
    for (unsigned m = mask; m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        const int o = nk_tb_outcome(tb, &g->pos, val[k], opp[k]);
        best = val[k] > best ? val[k] : best;
        best_out = o > best_out ? o : best_out;
    }
    unsigned optimal = 0;
    for (unsigned m = mask; m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        const bool opt = tb->planes == 2 ? nk_tb_outcome(tb, &g->pos, val[k], opp[k]) == best_out
                                         : val[k] == best;
        optimal |= opt ? 1u << k : 0;
    }
    const int got = nk_tb_outcome(tb, &g->pos, val[mv], opp[mv]);
    const int lost = best - val[mv];
    const bool is_opt = (optimal >> mv) & 1u;
    const unsigned b = nk_pos_on_board(&g->pos);
    uint8_t byte;
    if (nk_tb_probe(tb, &g->pos, &byte) == NK_OK && (byte & NK_TB_CYCLE))
        r->cycle++;
    gs->n++;
    gs->optimal += is_opt;
    gs->lost += lost;
    r->grade.loss2 += (double)lost * lost;
    nk_gg_band *bands[2] = {&r->seeds[b], &r->phase[nk_gg_phase(b, start_seeds)]};
    for (int i = 0; i < 2; i++) {
        bands[i]->moves++;
        bands[i]->errors += !is_opt;
        bands[i]->lost += lost;
    }
    if (got < best_out) {
        r->drops[best_out == 1 ? (got == 0 ? NK_GG_WIN_DRAW : NK_GG_WIN_LOSS) : NK_GG_DRAW_LOSS]++;
        gs->fell = true;
    }
    if (is_opt)
        return NK_OK;
    nk_gg_error e = {.game = game,
                     .ply = g->ply,
                     .pos = g->pos,
                     .played = (uint8_t)mv,
                     .optimal = optimal,
                     .lost = lost,
                     .best = (int8_t)best_out,
                     .got = (int8_t)got};
    return add_error(r, &e, cap, err, errlen);
}

/* Replays game i and grades its graded player's moves after the opening. */
static nk_status grade_game(const nk_gg_settings *s, const nk_exec_game *eg, uint64_t i,
                            nk_game *g, nk_gg_report *r, size_t *cap, char *err, size_t errlen)
{
    const int side = i % 2 == 0 ? NK_SOUTH : NK_NORTH;
    const unsigned start_seeds = nk_pos_on_board(&r->start);
    nk_status st = nk_game_init(g, s->tb->variant, &eg->start,
                                s->ply_limit ? s->ply_limit : NK_DEFAULT_PLY_LIMIT);
    game_sums gs = {0};
    for (unsigned k = 0; st == NK_OK && k < eg->plies; k++) {
        const int mv = eg->moves[k];
        if (k >= eg->opening && g->pos.side == side)
            st = grade_move(s->tb, g, mv, i, start_seeds, r, &gs, cap, err, errlen);
        if (st == NK_OK)
            nk_game_play_legal(g, mv, NULL);
    }
    if (st != NK_OK)
        return st;
    nk_grade_add_game(&r->grade, gs.n, gs.optimal, gs.lost);
    r->games_fell += gs.fell;
    const int w = eg->result.winner;
    r->wins += w == side;
    r->draws += w == NK_DRAW;
    r->losses += w != side && w != NK_DRAW;
    return NK_OK;
}

nk_status nk_gg_play(const nk_gg_settings *s, nk_gg_report *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (s->games == 0)
        return nk_fail(NK_ERANGE, err, errlen, "no game to grade");
    nk_status st = nk_gg_start(s->tb, s->per_pit, &out->start, err, errlen);
    if (st != NK_OK)
        return st;
    const size_t pairs = (size_t)((s->games + 1) / 2), n = 2 * pairs;
    nk_meeting *meet = nk_calloc(pairs, sizeof *meet);
    nk_exec_job *jobs = nk_calloc(n, sizeof *jobs);
    nk_exec_game *games = nk_calloc(n, sizeof *games);
    nk_game *g = nk_malloc(sizeof *g);
    if (meet == NULL || jobs == NULL || games == NULL || g == NULL)
        st = nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu games", n);
    if (st == NK_OK) {
        for (size_t k = 0; k < pairs; k++)
            meet[k] = (nk_meeting){0, 1};
        nk_exec_pairs(jobs, meet, pairs, s->seed, 0, s->openings);
        const nk_exec_player players[2] = {s->graded, s->opponent};
        nk_exec_batch b = {.variant = s->tb->variant,
                           .start = &out->start,
                           .ply_limit = s->ply_limit,
                           .players = players,
                           .nplayers = 2,
                           .jobs = jobs,
                           .njobs = n,
                           .threads = s->threads,
                           .record = true};
        st = nk_exec_run(&b, games, err, errlen);
    }
    size_t cap = 0;
    for (size_t i = 0; st == NK_OK && i < n; i++) {
        st = grade_game(s, &games[i], i, g, out, &cap, err, errlen);
        out->games++;
    }
    if (games != NULL)
        nk_exec_games_free(games, n);
    nk_free(g);
    nk_free(games);
    nk_free(jobs);
    nk_free(meet);
    return st;
}
