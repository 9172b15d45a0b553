/*
 * solve.c -- solving beyond an endgame database (solve.h).
 *
 * A solve opens the game of the database at the root (the majority rule
 * off, tb->rules, and the stores emptied), a second game for the children,
 * and a material search that probes the database at every node inside it;
 * then each legal move is decided from the end of the game, the database,
 * or bounding searches.
 */
#include "search/solve.h"

#include <string.h>

#include "base/alloc.h"
#include "search/features.h"
#include "search/search.h"

typedef struct beyond {
    nk_eval eval;
    nk_search *search;
    nk_game *game; /* [0] the root, [1] a child */
} beyond;

/* Checks the arguments and opens the search.  planes: the kind of
 * database the caller solves beyond. */
static nk_status beyond_open(beyond *b, const nk_tb *tb, const nk_pos *root, unsigned planes,
                             uint64_t budget, char *err, size_t errlen)
{
    int bought;
    if (tb->planes != planes)
        return nk_fail(NK_EINVAL, err, errlen, "solve: a database of %u plane%s, not %u",
                       tb->planes, tb->planes == 1 ? "" : "s", planes);
    if (!nk_tb_owners_pattern(root, &bought) || !nk_tb_holds_pattern(tb, bought))
        return nk_fail(NK_EINVAL, err, errlen,
                       "solve: the position's pit owners are no pattern of the database");
    if (budget == 0)
        return nk_fail(NK_ERANGE, err, errlen, "solve: a budget of 0 nodes a search");
    nk_pos p = *root;
    p.store[0] = p.store[1] = 0;
    p.hash = nk_pos_hash(&p);
    b->search = NULL;
    b->game = nk_malloc(2 * sizeof *b->game);
    char msg[NK_MSG_MAX];
    if (b->game == NULL ||
        nk_eval_init(&b->eval, &tb->rules, nk_features_find("material"), NULL, 0, msg,
                     sizeof msg) != NK_OK ||
        nk_search_new(&b->search, &b->eval, 64) != NK_OK ||
        nk_game_init(b->game, &tb->rules, &p, NK_MAX_PLIES) != NK_OK) {
        nk_search_free(b->search);
        nk_free(b->game);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the search");
    }
    nk_search_set_tb(b->search, tb);
    return NK_OK;
}

static void beyond_close(beyond *b)
{
    nk_search_free(b->search);
    nk_free(b->game);
}

/* Bounds a move's value by two searches of the child (see solve.h);
 * board: the root's board seeds, me: the root's mover. */
static void bound_move(nk_search *search, const nk_game *child, uint64_t budget, int board, int me,
                       nk_solve_move *x)
{
    const nk_pos *c = &child->pos;
    nk_search_limits lim = {0, budget, 0.0};
    int bound[2];
    for (int k = 0; k < 2; k++) {
        nk_search_result r;
        nk_search_set_bound(search, k == 0 ? -1 : 1, me);
        nk_search_best(search, child, &lim, &r);
        /* total[mover] - total[other] of the child; the totals sum to the
         * root's board (the stores started empty). */
        const int diff = (int)(r.score / NK_SCORE_SEED + (r.score >= 0 ? 0.5 : -0.5));
        bound[k] = (board + (c->side == me ? diff : -diff)) / 2;
        x->cycle |= r.tb_cycle;
        x->depth = r.depth;
        x->nodes += r.nodes;
        if (r.exact) {
            bound[1] = bound[0] = bound[k];
            break;
        }
    }
    x->lo = bound[0];
    x->hi = bound[1];
    x->value = x->lo;
    x->exact = x->lo == x->hi;
}

nk_status nk_solve_beyond(const nk_tb *tb, const nk_pos *root, uint64_t budget, nk_solve *out,
                          char *err, size_t errlen)
{
    beyond at;
    nk_status st = beyond_open(&at, tb, root, 1, budget, err, errlen);
    if (st != NK_OK)
        return st;
    nk_game *g = at.game, *child = at.game + 1;
    const int me = g->pos.side;
    const int board = (int)nk_pos_on_board(&g->pos);
    memset(out, 0, sizeof *out);
    out->mask = nk_game_legal(g);
    out->lo = out->hi = -1;
    for (unsigned m = out->mask; m; m &= m - 1) {
        nk_solve_move *x = &out->move[__builtin_ctz(m)];
        *child = *g;
        nk_game_play_legal(child, __builtin_ctz(m), NULL);
        const nk_pos *c = &child->pos;
        uint8_t byte;
        if (nk_game_over(child)) {
            x->value = (int)child->result.total[me];
            x->exact = true;
            x->lo = x->hi = x->value;
        } else if (nk_pos_on_board(c) <= tb->seeds && nk_tb_probe(tb, c, &byte) == NK_OK) {
            const int y = byte & NK_TB_VALUE_MASK;
            x->value = c->store[me] + (c->side == me ? y : (int)nk_pos_on_board(c) - y);
            x->exact = true;
            x->cycle = (byte & NK_TB_CYCLE) != 0;
            x->lo = x->hi = x->value;
        } else {
            bound_move(at.search, child, budget, board, me, x);
            out->nodes += x->nodes;
        }
        out->cycle |= x->cycle;
        out->lo = x->lo > out->lo ? x->lo : out->lo;
        out->hi = x->hi > out->hi ? x->hi : out->hi;
    }
    beyond_close(&at);
    return NK_OK;
}

/* Bounds what each side can force himself to collect after a move, by
 * searches of the child in collect mode (see solve.h). */
static void bound_pair(nk_search *search, const nk_game *child, uint64_t budget, int me,
                       nk_solve_pair *x)
{
    const nk_pos *c = &child->pos;
    nk_search_limits lim = {0, budget, 0.0};
    for (int k = 0; k < 2; k++) {
        const int side = k == 0 ? me : me ^ 1;
        int bound[2];
        nk_search_set_collect(search, side);
        for (int b = 0; b < 2; b++) {
            nk_search_result r;
            nk_search_set_bound(search, b == 0 ? -1 : 1, side);
            nk_search_best(search, child, &lim, &r);
            /* side's seeds, from the child's side to move's view */
            const double sc = c->side == side ? r.score : -r.score;
            bound[b] = (int)(sc / NK_SCORE_SEED + 0.5);
            x->depth = r.depth > x->depth ? r.depth : x->depth;
            x->nodes += r.nodes;
            if (r.exact) {
                bound[0] = bound[1] = bound[b];
                break;
            }
        }
        x->lo[k] = bound[0];
        x->hi[k] = bound[1];
    }
}

nk_status nk_solve_beyond_planes(const nk_tb *tb, const nk_pos *root, uint64_t budget,
                                 nk_solve_pairs *out, char *err, size_t errlen)
{
    beyond at;
    nk_status st = beyond_open(&at, tb, root, 2, budget, err, errlen);
    if (st != NK_OK)
        return st;
    nk_game *g = at.game, *child = at.game + 1;
    const int me = g->pos.side;
    memset(out, 0, sizeof *out);
    out->mask = nk_game_legal(g);
    out->lo[0] = out->hi[0] = -1;
    out->lo[1] = out->hi[1] = 1 << 20;
    for (unsigned m = out->mask; m; m &= m - 1) {
        nk_solve_pair *x = &out->move[__builtin_ctz(m)];
        *child = *g;
        nk_game_play_legal(child, __builtin_ctz(m), NULL);
        const nk_pos *c = &child->pos;
        uint8_t byte;
        int theirs;
        if (nk_game_over(child)) {
            x->lo[0] = x->hi[0] = (int)child->result.total[me];
            x->lo[1] = x->hi[1] = (int)child->result.total[me ^ 1];
        } else if (nk_pos_on_board(c) <= tb->seeds &&
                   nk_tb_probe_pair(tb, c, &byte, &theirs) == NK_OK) {
            const int y = byte & NK_TB_VALUE_MASK;
            x->lo[0] = x->hi[0] = c->store[me] + (c->side == me ? y : theirs);
            x->lo[1] = x->hi[1] = c->store[me ^ 1] + (c->side == me ? theirs : y);
        } else {
            bound_pair(at.search, child, budget, me, x);
            out->nodes += x->nodes;
        }
        out->lo[0] = x->lo[0] > out->lo[0] ? x->lo[0] : out->lo[0];
        out->hi[0] = x->hi[0] > out->hi[0] ? x->hi[0] : out->hi[0];
        out->lo[1] = x->lo[1] < out->lo[1] ? x->lo[1] : out->lo[1];
        out->hi[1] = x->hi[1] < out->hi[1] ? x->hi[1] : out->hi[1];
    }
    nk_search_set_collect(at.search, -1);
    beyond_close(&at);
    return NK_OK;
}

void nk_solve_pair_outcomes(const nk_tb *tb, const nk_pos *pos, const int lo[2], const int hi[2],
                            int *worst, int *best)
{
    *worst = nk_tb_outcome(tb, pos, lo[0], hi[1]);
    *best = nk_tb_outcome(tb, pos, hi[0], lo[1]);
}
