/*
 * bench.c -- random playouts from the start position: the engine's speed
 * benchmark and its signature.  The signature mixes every game's final
 * position hash, ply count, end reason and totals, so it changes when (and
 * only when) the rules' behaviour changes, like a chess engine's bench
 * node count.  Game i is seeded with nk_seed_mix(seed, i, 0).  The same
 * loop plays any live game to its end for others (nk_game_playout: the
 * playouts of MCTS, search/mcts.c).
 */
#include <stdlib.h>

#include "rules/internal.h"
#include "base/alloc.h"

/* nk_game_random_finish_sow for the Warri family: the same draws, moves
 * and records, with the game's scalars (the position's hash, side and
 * flags, the ply, the index of the last capture, the draw state) held in
 * local variables and written back to the game before every out-of-line
 * call and at the end.  A byte store may alias anything, so a loop that
 * kept them in the game would load them again after each store of counts,
 * moves and filter entries.  g is live.
 * nk: long function: the hot loop of the random playouts (nickar bench):
 * the sowing's computed jumps need their labels in this function, and the
 * scalars above stay in registers across the whole loop. */
__attribute__((noinline)) void nk_game_random_finish_warri(nk_game *g, nk_rng *rng)
{
    /* The sowing of n <= 11 seeds from pit o (nk_lift_sow): one computed
     * jump on o * 12 + n into straight code, as nk_sow_hash's switch, but
     * without its range check and relative table (a function holding
     * such a table cannot be inlined or copied: hence this one is out of
     * line). */
#define NK_E(o) &&sown, &&sow_##o##_1, &&sow_##o##_2, &&sow_##o##_3, &&sow_##o##_4,          \
                &&sow_##o##_5, &&sow_##o##_6, &&sow_##o##_7, &&sow_##o##_8, &&sow_##o##_9, \
                &&sow_##o##_10, &&sow_##o##_11
    static const void *const sow_at[NK_PITS * NK_PITS] = {
        NK_E(0), NK_E(1), NK_E(2), NK_E(3), NK_E(4), NK_E(5),
        NK_E(6), NK_E(7), NK_E(8), NK_E(9), NK_E(10), NK_E(11),
    };
#undef NK_E
    const nk_variant *v = g->variant;
    nk_pos *p = &g->pos;
    unsigned ply = g->ply;
    unsigned side6 = p->side * NK_ROW; /* the mover's first pit */
    uint64_t h = p->hash;
    nk_rng r = *rng;
    unsigned full = nk_pits_above(p, 0); /* the pits holding seeds */
    bool open = (full & 63u) != 0 && (full >> NK_ROW) != 0; /* nk_warri_open */
#define NK_SYNC_POS()                                                          \
    (p->hash = h, p->side = (uint8_t)(side6 != 0), p->flags = (uint8_t)flags)
    for (;;) {
        int move;
        unsigned flags;
        if (__builtin_expect(open, 1)) {
            /* nk_random_play_open's draw, then nk_warri_play. */
            const uint8_t *e = nk_sel6[(full >> side6) & 63u];
            move = (int)side6 + e[nk_rng_below(&r, e[7])];
            const unsigned n = p->pit[move];
            int last;
            if (__builtin_expect(n < NK_PITS, 1)) {
                const unsigned key = (unsigned)move * NK_PITS + n;
                const nk_sow_delta *d = &nk_sow_deltas[key];
                const uint64_t dlo = d->lo, dhi = d->hi; /* loaded before the jump */
                h ^= d->lift;
                goto *sow_at[key];
#define NK_S(o, k)                                                             \
    sow_##o##_##k : h ^= nk_zstep[((o) + (k)) % NK_PITS][p->pit[((o) + (k)) % NK_PITS]];
#define NK_FROM(o)                                                             \
    NK_S(o, 11) NK_S(o, 10) NK_S(o, 9) NK_S(o, 8) NK_S(o, 7) NK_S(o, 6)        \
    NK_S(o, 5) NK_S(o, 4) NK_S(o, 3) NK_S(o, 2) NK_S(o, 1) goto sown;
                NK_FROM(0) NK_FROM(1) NK_FROM(2) NK_FROM(3) NK_FROM(4) NK_FROM(5)
                NK_FROM(6) NK_FROM(7) NK_FROM(8) NK_FROM(9) NK_FROM(10) NK_FROM(11)
#undef NK_FROM
#undef NK_S
            sown:
                nk_add_counts(p, dlo, dhi);
                last = (int)(dhi >> 32); /* nk_delta_end(d) */
            } else {
                p->hash = h;
                last = nk_sow_laps(p, move);
                h = p->hash;
            }
            nk_take t = {0, false};
            if ((unsigned)last - (side6 ^ NK_ROW) < NK_ROW && p->pit[last] - 2u < 2u) {
                p->side = (uint8_t)(side6 != 0); /* nk_warri_capture reads it */
                t = nk_warri_capture(v, p, &h, last);
            }
            /* nk_end_turn(p, t.slam && v->grand_slam_replays, t.captured, 0) */
            const unsigned flip = !(t.slam && v->grand_slam_replays);
            h ^= nk_zside & (0 - (uint64_t)flip);
            side6 ^= NK_ROW & (0u - flip);
            flags = t.captured ? NK_POS_CAPTURED : 0u;
        } else {
            /* g->pos is up to date: the ply that left a row empty wrote it
             * back (or it is the game's first). */
            *rng = r;
            move = nk_random_trial(v, p, rng, NULL);
            r = *rng;
            h = p->hash;
            side6 = p->side * NK_ROW;
            flags = p->flags;
        }
        /* nk_game_record_sow(g, move, flags & NK_POS_CAPTURED, NK_SOW_WARRI),
         * with one test for what is rare: a capture, a row left empty, a
         * hash whose bucket was seen since the last capture, the ply
         * limit. */
        const unsigned captured = flags & NK_POS_CAPTURED;
        full = nk_pits_above(p, 0);
        const bool now_open = (full & 63u) != 0 && (full >> NK_ROW) != 0;
        const unsigned bucket = nk_seen_bucket(h);
        const bool seen = g->seen[bucket] > g->since;
        g->moves[ply] = (uint8_t)move;
        ply++;
        g->hist[ply] = h;
        g->seen[bucket] = (uint16_t)(ply + 1);
        if (__builtin_expect(captured != 0 || !now_open || seen || ply >= g->ply_limit, 0)) {
            bool repeated = false;
            if (captured)
                g->since = ply;
            else if (seen)
                for (unsigned k = g->since; k < ply; k++) /* hist[since..ply - 1] */
                    if (g->hist[k] == h) {
                        repeated = true;
                        break;
                    }
            nk_end end = NK_END_NONE;
            if (captured != 0 || !now_open) {
                NK_SYNC_POS();
                end = nk_pos_end_open(v, p, captured != 0, now_open);
            }
            if (end == NK_END_NONE && repeated)
                end = NK_END_REPETITION;
            if (end == NK_END_NONE && ply >= g->ply_limit)
                end = NK_END_PLY_LIMIT;
            if (end != NK_END_NONE) {
                NK_SYNC_POS();
                g->ply = ply;
                *rng = r;
                nk_game_finish(g, end);
                return;
            }
            open = now_open;
            continue;
        }
        open = true;
    }
#undef NK_SYNC_POS
}

/* The relay family's playout loop in a function of its own, so that its
 * registers are not shared with the outer loop's. */
static __attribute__((noinline)) void bench_relay(nk_game *g, nk_rng *rng)
{
    nk_game_random_finish_sow(g, rng, NK_SOW_RELAY);
}

void nk_game_playout(nk_game *g, nk_rng *rng)
{
    if (g->variant->sowing == NK_SOW_RELAY)
        bench_relay(g, rng);
    else
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
            bench_relay(g, &rng);
        else
            nk_game_random_finish_sow(g, &rng, NK_SOW_WARRI);
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
