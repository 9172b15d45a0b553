/*
 * bench.c -- random playouts from the start position: the engine's speed
 * benchmark and its signature.  The signature mixes every game's final
 * position hash, ply count, end reason and totals, so it changes when (and
 * only when) the rules' behaviour changes, like a chess engine's bench
 * node count.  Game i is seeded with nk_seed_mix(seed, i, 0).
 */
#include <stdlib.h>

#include "rules/internal.h"
#include "base/alloc.h"

/* The Warri family's playout loop in a function of its own, so that its
 * registers are not shared with the outer loop's and the relay's. */
static __attribute__((noinline)) void bench_warri(nk_game *g, nk_rng *rng)
{
    nk_game_random_finish_sow(g, rng, NK_SOW_WARRI);
}

void nk_bench_playouts(const nk_variant *v, uint64_t games, uint64_t seed, nk_bench *out)
{
    nk_game *g = nk_malloc(sizeof *g);
    uint64_t sig = 0, plies = 0;
    out->games = out->plies = out->signature = 0;
    if (g == NULL)
        return;
    const nk_sowing sow = v->sowing;
    for (uint64_t i = 0; i < games; i++) {
        nk_rng rng = {nk_seed_mix(seed, i, 0)};
        nk_pos start;
        nk_pos_start(&start, NK_SOUTH);
        nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT);
        if (sow == NK_SOW_RELAY) /* one loop per family, each with its constant */
            nk_game_random_finish_sow(g, &rng, NK_SOW_RELAY);
        else
            bench_warri(g, &rng);
        plies += g->ply;
        uint64_t res = (uint64_t)g->ply | (uint64_t)g->result.reason << 16 |
                       (uint64_t)g->result.total[0] << 24 | (uint64_t)g->result.total[1] << 32;
        sig = nk_seed_mix(sig, g->pos.hash, res);
    }
    nk_free(g);
    out->games = games;
    out->plies = plies;
    out->signature = sig;
}
