/*
 * game.c -- a game from start to result: legality checks for callers,
 * history since the last capture for repetition (R-W10, R-K7), the ply
 * limit (R-G1), and the end rules in the order of R-G4.
 */
#include <stdio.h>
#include <string.h>

#include "rules/internal.h"

nk_status nk_game_init(nk_game *g, const nk_variant *v, const nk_pos *start,
                       unsigned ply_limit)
{
    if (ply_limit == 0 || ply_limit > NK_MAX_PLIES)
        return NK_ERANGE;
    if (v->sowing == NK_SOW_WARRI && start->north != NK_DEFAULT_NORTH)
        return NK_EINVAL; /* pit ownership changes only in Adji Kui II matches */
    g->variant = v;
    g->start = *start;
    g->pos = *start;
    g->pos.hash = nk_pos_hash(start);
    g->start.hash = g->pos.hash;
    g->ply = 0;
    g->ply_limit = ply_limit;
    g->since = 0;
    g->hist[0] = g->pos.hash;
    memset(g->seen, 0, sizeof g->seen);
    g->seen[nk_seen_bucket(g->pos.hash)] = 1;
    g->result.reason = NK_END_NONE;
    g->result.winner = NK_DRAW;
    g->result.total[0] = g->result.total[1] = 0;
    nk_end end = nk_pos_end(v, &g->pos);
    if (end != NK_END_NONE)
        nk_pos_result(v, &g->pos, end, &g->result);
    return NK_OK;
}

bool nk_game_repeats(const nk_game *g, uint64_t hash)
{
    return nk_game_repeats_inline(g, hash);
}

void nk_game_finish(nk_game *g, nk_end end)
{
    nk_pos_result(g->variant, &g->pos, end, &g->result);
}

void nk_game_forfeit(nk_game *g, nk_end reason)
{
    if (nk_game_over(g) || !nk_end_forfeit(reason))
        return;
    int winner = 1 - g->pos.side;
    g->result.reason = reason;
    g->result.winner = winner;
    g->result.total[winner] = nk_pos_total(&g->pos);
    g->result.total[1 - winner] = 0;
}

void nk_game_advance(nk_game *g, int move, const nk_pos *child, const nk_ply_info *info)
{
    g->pos = *child;
    nk_game_record(g, move, info->captured);
}

void nk_game_play_legal(nk_game *g, int move, nk_ply_info *info)
{
    nk_ply_info local;
    nk_ply_info *out = info ? info : &local;
    nk_apply(g->variant, &g->pos, move, out);
    nk_game_record(g, move, out->captured);
}

unsigned nk_game_legal(const nk_game *g)
{
    return nk_game_over(g) ? 0 : nk_legal(g->variant, &g->pos);
}

nk_status nk_game_play(nk_game *g, int move, nk_ply_info *info, char *err, size_t len)
{
    if (nk_game_over(g))
        return nk_fail(NK_EOVER, err, len, "the game is over (%s) after %u plies",
                       nk_end_name(g->result.reason), g->ply);
    unsigned legal = nk_legal(g->variant, &g->pos);
    if (move < 0 || move > NK_PASS || !((legal >> move) & 1u)) {
        char list[64];
        nk_moves_format(legal, list, sizeof list);
        return nk_fail(NK_EILLEGAL, err, len, "illegal move '%c' at ply %u; legal moves: %s",
                       nk_move_letter(move), g->ply + 1, list);
    }
    nk_game_play_legal(g, move, info);
    return NK_OK;
}

/* ===== random moves ===== */

int nk_random_trial(const nk_variant *v, nk_pos *p, nk_rng *rng, nk_ply_info *info)
{
    const nk_pos pos = *p;
    unsigned mask = nk_candidates(v, p);
    while (mask) {
        int move = nk_pick_mask(mask, rng);
        if (nk_apply(v, p, move, info))
            return move;
        *p = pos;
        mask &= ~(1u << move);
    }
    if (v->sowing == NK_SOW_RELAY) {
        nk_apply(v, p, NK_PASS, info);
        return NK_PASS;
    }
    return NK_NO_MOVE;
}

int nk_random_child(const nk_variant *v, const nk_pos *pos, nk_rng *rng, nk_pos *child,
                    nk_ply_info *info)
{
    *child = *pos;
    return nk_random_play(v, child, rng, info);
}

int nk_random_move(const nk_game *g, nk_rng *rng)
{
    nk_pos child;
    nk_ply_info info;
    if (nk_game_over(g))
        return NK_NO_MOVE;
    return nk_random_child(g->variant, &g->pos, rng, &child, &info);
}
