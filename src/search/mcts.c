/*
 * mcts.c -- UCT over random playouts (contract and steps in mcts.h).
 *
 * Invariants of the tree after a search of P playouts (the tests check
 * them): the root has P visits, each the sum of its children's; any other
 * node that is not a finished game has one visit more than its children
 * together (the playout from it when it was made); a finished game's node
 * has no children, and a visit for every time it was reached.  Every node
 * but the root was made by one playout, so a tree holds at most 1 + P
 * nodes: the array is allocated once, at that size.
 *
 * Rewards are kept for the side that played a node's move, so selection
 * reads them without knowing whose turn it is (Antigua's grand slam, R-W8,
 * gives the same side two moves in a row).
 */
#include <math.h>
#include <string.h>

#include "search/mcts.h"
#include "base/alloc.h"

struct nk_mcts {
    nk_mcts_params params;
    nk_eval eval; /* cut-off playouts only */
    nk_mcts_node *node;
    size_t count, cap;
    nk_game *work; /* the game of one playout, forked from the searched one */
};

nk_status nk_mcts_new(nk_mcts **out, const nk_mcts_params *params, const nk_eval *eval)
{
    *out = NULL;
    if (params->cutoff > 0 && eval == NULL)
        return NK_EINVAL;
    if (params->playouts < 1 || params->playouts > NK_MCTS_MAX_PLAYOUTS)
        return NK_ERANGE;
    nk_mcts *m = nk_calloc(1, sizeof *m);
    if (m == NULL)
        return NK_ENOMEM;
    m->params = *params;
    if (eval != NULL)
        m->eval = *eval;
    m->cap = (size_t)params->playouts + 1;
    m->node = nk_malloc(m->cap * sizeof *m->node);
    m->work = nk_malloc(sizeof *m->work);
    if (m->node == NULL || m->work == NULL) {
        nk_mcts_free(m);
        return NK_ENOMEM;
    }
    *out = m;
    return NK_OK;
}

void nk_mcts_free(nk_mcts *m)
{
    if (m == NULL)
        return;
    nk_free(m->node);
    nk_free(m->work);
    nk_free(m);
}

const nk_mcts_node *nk_mcts_tree(const nk_mcts *m, size_t *count)
{
    *count = m->count;
    return m->node;
}

/* The reward of a finished game for South. */
static double result_reward(const nk_game *w)
{
    return w->result.winner == NK_SOUTH ? 1.0 : w->result.winner == NK_NORTH ? 0.0 : 0.5;
}

/* Step 1: from the root down to a node with an untried move or a
 * finished game, playing the moves on w. */
static uint32_t select_leaf(nk_mcts *m, nk_game *w)
{
    const double c = m->params.c;
    uint32_t k = 0;
    for (;;) {
        const nk_mcts_node *n = &m->node[k];
        if (n->terminal || n->untried != 0 || n->child == 0)
            return k;
        const double log_n = log((double)n->visits);
        uint32_t best = n->child;
        double best_u = -1.0;
        for (uint32_t ch = n->child; ch != 0; ch = m->node[ch].sibling) {
            const nk_mcts_node *x = &m->node[ch];
            const double visits = (double)x->visits;
            const double u = x->reward / visits + c * sqrt(log_n / visits);
            if (u > best_u) {
                best_u = u;
                best = ch;
            }
        }
        nk_game_play_legal(w, m->node[best].move, NULL);
        k = best;
    }
}

/* Step 2: a random untried move of node k becomes its newest child, played
 * on w; returns the child. */
static uint32_t expand(nk_mcts *m, uint32_t k, nk_game *w, nk_rng *rng)
{
    nk_mcts_node *n = &m->node[k];
    unsigned mask = n->untried;
    for (unsigned skip = nk_rng_below(rng, (unsigned)__builtin_popcount(mask)); skip; skip--)
        mask &= mask - 1;
    const int move = __builtin_ctz(mask);
    n->untried = (uint16_t)(n->untried & ~(1u << move));
    const uint8_t mover = w->pos.side;
    nk_game_play_legal(w, move, NULL);
    const uint32_t c = (uint32_t)m->count++;
    const bool over = nk_game_over(w);
    m->node[c] = (nk_mcts_node){.parent = k,
                                .child = 0,
                                .sibling = n->child,
                                .visits = 0,
                                .reward = 0.0,
                                .untried = (uint16_t)(over ? 0 : nk_game_legal(w)),
                                .move = (uint8_t)move,
                                .mover = mover,
                                .terminal = over};
    n->child = c;
    return c;
}

/* Step 3: the playout from w's live game; its reward for South. */
static double simulate(const nk_mcts *m, nk_game *w, nk_rng *rng)
{
    const unsigned limit = w->ply_limit;
    if (m->params.cutoff > 0 && w->ply + m->params.cutoff < limit)
        w->ply_limit = w->ply + m->params.cutoff; /* the cut-off is a ply limit of the copy */
    nk_game_playout(w, rng);
    if (w->result.reason != NK_END_PLY_LIMIT || w->ply >= limit)
        return result_reward(w);
    const double e = nk_eval_score(&m->eval, &w->pos);
    const double p = 1.0 / (1.0 + exp(-e / NK_MCTS_EVAL_SEEDS));
    return w->pos.side == NK_SOUTH ? p : 1.0 - p;
}

/* Step 4: a visit and the reward for every node from k up to the root. */
static void backpropagate(nk_mcts *m, uint32_t k, double south)
{
    for (;;) {
        nk_mcts_node *n = &m->node[k];
        n->visits++;
        n->reward += n->mover == NK_SOUTH ? south : 1.0 - south;
        if (k == 0)
            return;
        k = n->parent;
    }
}

/* One playout, steps 1 to 4; returns the plies it played. */
static unsigned iterate(nk_mcts *m, const nk_game *g, nk_rng *rng)
{
    nk_game *w = m->work;
    nk_game_fork(w, g);
    uint32_t k = select_leaf(m, w);
    if (!m->node[k].terminal && m->node[k].untried != 0)
        k = expand(m, k, w, rng);
    backpropagate(m, k, m->node[k].terminal ? result_reward(w) : simulate(m, w, rng));
    return w->ply - g->ply;
}

/* The root's child of most visits, then of the larger mean reward, then
 * the first. */
static uint32_t most_visited(const nk_mcts *m)
{
    uint32_t best = m->node[0].child;
    for (uint32_t ch = m->node[best].sibling; ch != 0; ch = m->node[ch].sibling) {
        const nk_mcts_node *x = &m->node[ch], *b = &m->node[best];
        if (x->visits > b->visits ||
            (x->visits == b->visits && x->reward * b->visits > b->reward * x->visits))
            best = ch;
    }
    return best;
}

void nk_mcts_best(nk_mcts *m, const nk_game *g, nk_rng *rng, nk_mcts_result *res)
{
    *res = (nk_mcts_result){.move = NK_NO_MOVE, .value = 0.0, .playouts = 0, .nodes = 0,
                            .plies = 0};
    m->count = 0;
    const unsigned legal = nk_game_legal(g);
    if (legal == 0)
        return;
    if ((legal & (legal - 1)) == 0) {
        res->move = __builtin_ctz(legal);
        return;
    }
    nk_rng own = {nk_seed_mix(m->params.seed, g->pos.hash, g->ply)};
    if (m->params.seed == 0)
        own = *rng;
    m->node[0] = (nk_mcts_node){.parent = 0,
                                .child = 0,
                                .sibling = 0,
                                .visits = 0,
                                .reward = 0.0,
                                .untried = (uint16_t)legal,
                                .move = NK_PASS,
                                .mover = (uint8_t)(g->pos.side ^ 1u),
                                .terminal = 0};
    m->count = 1;
    for (uint64_t i = 0; i < m->params.playouts; i++)
        res->plies += iterate(m, g, &own);
    if (m->params.seed == 0)
        *rng = own;
    const uint32_t best = most_visited(m);
    res->move = m->node[best].move;
    res->value = m->node[best].reward / m->node[best].visits;
    res->playouts = m->params.playouts;
    res->nodes = m->count;
}
