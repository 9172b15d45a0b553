/*
 * perft.c -- counts the move sequences of exactly d plies (R-G3), under
 * every rule, repetition and the ply limit included.
 *
 * The positions since the last capture are kept as a chain of stack frames
 * (each frame points to its parent), continued by the game's own history at
 * the root, so perft allocates nothing.
 */
#include "rules/internal.h"

typedef struct frame {
    const struct frame *up;  /* parent position, NULL at the root */
    uint64_t hash;
    bool by_capture;         /* reached by a capture: nothing older can repeat */
} frame;

typedef struct perft_ctx {
    const nk_game *g;
    const nk_variant *v;
} perft_ctx;

static bool seen(const perft_ctx *c, const frame *f, uint64_t hash)
{
    for (; f != NULL; f = f->up) {
        if (f->hash == hash)
            return true;
        if (f->by_capture)
            return false;
    }
    return nk_game_repeats(c->g, hash);
}

static uint64_t perft_node(const perft_ctx *c, const nk_pos *pos, const frame *f,
                           unsigned depth, unsigned ply)
{
    uint64_t count = 0;
    unsigned legal = nk_legal(c->v, pos);
    for (unsigned m = legal; m; m &= m - 1) {
        nk_pos child = *pos;
        nk_ply_info info;
        int move = __builtin_ctz(m);
        nk_apply(c->v, &child, move, &info);
        if (depth == 1) {
            count++;
            continue;
        }
        if (nk_pos_end(c->v, &child) != NK_END_NONE)
            continue;
        if (info.captured == 0 && seen(c, f, child.hash))
            continue; /* repetition ends the game */
        if (ply + 1 >= c->g->ply_limit)
            continue;
        frame next = {f, child.hash, info.captured != 0};
        count += perft_node(c, &child, &next, depth - 1, ply + 1);
    }
    return count;
}

uint64_t nk_perft(const nk_game *g, unsigned depth)
{
    if (depth == 0)
        return 1;
    if (nk_game_over(g))
        return 0;
    perft_ctx c = {g, g->variant};
    frame root = {NULL, g->pos.hash, false};
    /* The root is hist[ply], which nk_game_repeats already scans. */
    return perft_node(&c, &g->pos, root.up, depth, g->ply);
}
