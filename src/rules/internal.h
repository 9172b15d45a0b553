/*
 * internal.h -- what the files of src/rules/ share and nobody else sees:
 * the Zobrist key tables, small inline helpers on rows and byte masks, and
 * the hot path of a ply as static inline pieces.
 *
 * The hot path is written once, here, and every caller is built from it:
 * nk_apply and nk_pos_end (sow.c), nk_game_advance and nk_random_child
 * (game.c), and the playouts of nk_bench_playouts (bench.c), which make a
 * whole ply in place (nk_game_random_ply) without copying the position.
 * Everything rare (sowings of 12 seeds or more, trial sowings for R-W4 and
 * R-K3, the relay sowing, the result of a finished game) is out of line.
 */
#ifndef NK_RULES_INTERNAL_H
#define NK_RULES_INTERNAL_H

#include <string.h>

#include "rules/rules.h"

/* Zobrist keys (zobrist.c).  nk_zpit[i][c]: pit i holds c seeds;
 * nk_zstep[i][c] = nk_zpit[i][c] ^ nk_zpit[i][c + 1] (one seed sown);
 * nk_zstore[s][c]: store of side s holds c; nk_zside: North to move;
 * nk_zowner[i]: pit i's owner differs from the default rows. */
extern const uint64_t nk_zpit[NK_PITS][256];
extern const uint64_t nk_zstep[NK_PITS][256];
extern const uint64_t nk_zstore[2][256];
extern const uint64_t nk_zside;
extern const uint64_t nk_zowner[NK_PITS];

/* The pieces of the hot path are inlined wherever they are used. */
#define NK_HOT static inline __attribute__((always_inline))

/* ===== bytes and rows ===== */

#define NK_BYTES_1 0x0101010101010101ull
#define NK_BYTES_80 0x8080808080808080ull

/* The 6 pits of a side's default row as the low 48 bits of a word, pit
 * side * 6 in byte 0.  North's 8-byte load ends on the stores (bytes 12 and
 * 13 of the position), which the mask drops. */
NK_HOT uint64_t nk_row_word(const nk_pos *p, unsigned side)
{
    uint64_t w;
    memcpy(&w, p->pit + (size_t)side * NK_ROW, 8);
    return w & 0xFFFFFFFFFFFFull;
}

static inline bool nk_row_empty(const nk_pos *p, unsigned side)
{
    return nk_row_word(p, side) == 0;
}

/* Sum of the bytes of a word whose byte total is below 256. */
static inline unsigned nk_byte_sum(uint64_t w)
{
    return (unsigned)((w * NK_BYTES_1) >> 56);
}

/* Seeds of one default row. */
static inline unsigned nk_row_sum(const nk_pos *p, unsigned side)
{
    return nk_byte_sum(nk_row_word(p, side));
}

/* Seeds on the board (the 12 pits). */
static inline unsigned nk_board_sum(const nk_pos *p)
{
    uint64_t lo, hi;
    memcpy(&lo, p->pit, 8);
    memcpy(&hi, p->pit + 8, 8);
    return nk_byte_sum(lo) + nk_byte_sum(hi & 0xFFFFFFFFull);
}

/* Byte j of the result is 1 when byte j of w is non-zero, else 0. */
NK_HOT uint64_t nk_bytes01(uint64_t w)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    return ((((w & low7) + low7) | w) >> 7) & NK_BYTES_1;
}

/* Bit j of the result is byte j (0 or 1) of b. */
static inline unsigned nk_bytes_mask(uint64_t b)
{
    return (unsigned)((b * 0x0102040810204080ull) >> 56);
}

/* Byte j (0..5) of the result is bit j of m < 64, as 0 or 1.  The shifted
 * copies of m lie 7 bits apart and m has 6 bits: no carries. */
static inline uint64_t nk_spread6(unsigned m)
{
    return ((uint64_t)m * 0x0002040810204081ull) & NK_BYTES_1;
}

/* Set bits of a mask below 2^12 (portable: no popcnt instruction needed). */
static inline unsigned nk_popcount12(unsigned x)
{
    return nk_byte_sum(nk_spread6(x & 63u)) + nk_byte_sum(nk_spread6((x >> 6) & 63u));
}

/* Given the running counts of a word of 0/1 bytes (byte j: the ones among
 * bytes 0..j, at most 12), the first byte whose count reaches k >= 1.  Every
 * byte's (0x80 | count) - k stays in 0x74..0x8C: no borrow between bytes. */
NK_HOT int nk_select_run(uint64_t run, unsigned k)
{
    uint64_t reached = ((run | NK_BYTES_80) - k * NK_BYTES_1) & NK_BYTES_80;
    return __builtin_ctzll(reached) >> 3;
}

/* A uniformly random one of the 0/1 bytes of b that are 1 (at least one):
 * the k-th in pit order for k = nk_rng_below(count), as playouts have always
 * drawn their moves.  Returns its byte index. */
NK_HOT int nk_pick01(uint64_t b, nk_rng *rng)
{
    uint64_t run = b * NK_BYTES_1;
    return nk_select_run(run, nk_rng_below(rng, (unsigned)(run >> 56)) + 1);
}

/* The same draw among the set bits of a non-empty mask below 2^12: the
 * k-th set bit, k = nk_rng_below(popcount). */
static inline int nk_pick_mask(unsigned mask, nk_rng *rng)
{
    uint64_t lo = nk_spread6(mask & 63u) * NK_BYTES_1;
    uint64_t hi = nk_spread6((mask >> 6) & 63u) * NK_BYTES_1;
    unsigned nlo = (unsigned)(lo >> 56);
    unsigned k = nk_rng_below(rng, nlo + (unsigned)(hi >> 56)) + 1;
    if (k <= nlo)
        return nk_select_run(lo, k);
    return NK_ROW + nk_select_run(hi + nlo * NK_BYTES_1, k);
}

/* The majority floor(T/2) + 1 of R-B5. */
static inline unsigned nk_majority(unsigned total)
{
    return total / 2 + 1;
}

/* ===== sowing (sow.c explains the rules) ===== */

/* Adds a seed to pit i, keeping the hash h. */
NK_HOT void nk_sow_one(nk_pos *p, uint64_t *h, int i)
{
    *h ^= nk_zstep[i][p->pit[i]];
    p->pit[i]++;
}

/* Sows 1 <= n <= 11 seeds after pit o, one a pit (the origin is not
 * reached); returns the last pit.  One jump on (o, n) into straight code:
 * the case of (o, k) sows pit o + k (mod 12) and falls through to o + k - 1,
 * so entering at (o, n) sows pits o + n down to o + 1, each with a constant
 * index. */
#define NK_SOW_K(o, k)                                   \
    case (o) * NK_PITS + (k):                            \
        nk_sow_one(p, h, ((o) + (k)) % NK_PITS);         \
        __attribute__((fallthrough));
#define NK_SOW_FROM(o)                                                         \
    NK_SOW_K(o, 11) NK_SOW_K(o, 10) NK_SOW_K(o, 9) NK_SOW_K(o, 8)              \
    NK_SOW_K(o, 7) NK_SOW_K(o, 6) NK_SOW_K(o, 5) NK_SOW_K(o, 4)                \
    NK_SOW_K(o, 3) NK_SOW_K(o, 2)                                              \
    case (o) * NK_PITS + 1:                                                    \
        nk_sow_one(p, h, ((o) + 1) % NK_PITS);                                 \
        break;

NK_HOT int nk_sow_short(nk_pos *p, uint64_t *h, int o, unsigned n)
{
    switch ((unsigned)o * NK_PITS + n) {
        NK_SOW_FROM(0) NK_SOW_FROM(1) NK_SOW_FROM(2) NK_SOW_FROM(3)
        NK_SOW_FROM(4) NK_SOW_FROM(5) NK_SOW_FROM(6) NK_SOW_FROM(7)
        NK_SOW_FROM(8) NK_SOW_FROM(9) NK_SOW_FROM(10) NK_SOW_FROM(11)
    default:
        break;
    }
    int end = o + (int)n;
    return end < NK_PITS ? end : end - NK_PITS;
}

#undef NK_SOW_FROM
#undef NK_SOW_K

/* Lifts the seeds of pit o; returns how many. */
NK_HOT unsigned nk_lift(nk_pos *p, uint64_t *h, int o)
{
    const uint64_t *z = nk_zpit[o];
    unsigned n = p->pit[o];
    *h ^= z[0] ^ z[n];
    p->pit[o] = 0;
    return n;
}

/* The full laps of a Warri sowing of n >= 12 seeds from o, after the lift
 * (rare: out of line, sow.c); returns the seeds left to sow, 1..11. */
unsigned nk_sow_laps(nk_pos *p, uint64_t *h, int o, unsigned n);

/* Moves seeds to a side's store, keeping the hash h. */
NK_HOT void nk_to_store(nk_pos *p, uint64_t *h, unsigned side, unsigned seeds)
{
    unsigned s = p->store[side];
    *h ^= nk_zstore[side][s] ^ nk_zstore[side][s + seeds];
    p->store[side] = (uint8_t)(s + seeds);
}

/* What steps 1 and 2 of a Warri move took. */
typedef struct nk_take {
    unsigned captured; /* seeds moved to the mover's store */
    bool slam;         /* grand slam (R-W5), whether or not it takes */
} nk_take;

/* The capture chain ending in pit `last` of the opponent's row, which holds
 * 2 or 3 (R-W3): walks back while the pit is the opponent's and holds 2 or
 * 3.  A grand slam (R-W5) takes nothing where the variant says so. */
NK_HOT nk_take nk_warri_capture(const nk_variant *v, nk_pos *p, uint64_t *h, int last)
{
    const unsigned me = p->side;
    const int lo = (int)((me ^ 1u) * NK_ROW);
    nk_take t = {0, false};
    int j = last;
    do
        t.captured += p->pit[j--];
    while (j >= lo && p->pit[j] - 2u < 2u);
    t.slam = t.captured == nk_row_sum(p, me ^ 1u);
    if (t.slam && !v->grand_slam_captures)
        return (nk_take){0, true}; /* abapa: the grand slam takes nothing */
    for (int k = last; k > j; k--) {
        *h ^= nk_zpit[k][p->pit[k]] ^ nk_zpit[k][0];
        p->pit[k] = 0;
    }
    nk_to_store(p, h, me, t.captured);
    return t;
}

/* Steps 1 and 2 of a Warri move from pit o (R-W1..R-W3, R-W5): sows and
 * captures, keeping pos->hash; the side to move and the flags are left to
 * nk_end_turn, feeding (R-W4) to the caller. */
NK_HOT nk_take nk_warri_sow(const nk_variant *v, nk_pos *p, int o)
{
    const bool south = p->side == NK_SOUTH;
    uint64_t h = p->hash;
    unsigned n = nk_lift(p, &h, o);
    if (__builtin_expect(n >= NK_PITS, 0))
        n = nk_sow_laps(p, &h, o, n);
    int last = nk_sow_short(p, &h, o, n);
    nk_take t = {0, false};
    if ((last >= NK_ROW) == south && p->pit[last] - 2u < 2u)
        t = nk_warri_capture(v, p, &h, last);
    p->hash = h;
    return t;
}

/* The side to move changes unless the mover plays again; the flags record
 * the capture and the passes in a row. */
NK_HOT void nk_end_turn(nk_pos *p, bool same_side, unsigned captured, unsigned passes)
{
    unsigned flip = !same_side;
    p->hash ^= nk_zside & (0 - (uint64_t)flip);
    p->side = (uint8_t)(p->side ^ flip);
    p->flags = (uint8_t)((captured ? NK_POS_CAPTURED : 0u) | (passes << NK_POS_PASS_SHIFT));
}

/* A Warri move known to be legal: the opponent's row is not empty at the
 * start, so it cannot be left empty by sowing alone, and a grand slam
 * either is allowed to empty it or takes nothing (R-W4, R-W5). */
NK_HOT unsigned nk_warri_play(const nk_variant *v, nk_pos *p, int o, nk_ply_info *info)
{
    nk_take t = nk_warri_sow(v, p, o);
    if (info) {
        info->captured = t.captured;
        info->laps = 1;
        info->grand_slam = t.slam;
    }
    nk_end_turn(p, t.slam && v->grand_slam_replays, t.captured, 0);
    return t.captured;
}

/* True when nk_legal needs trial sowings: always for the relay, and in the
 * Warri family when the opponent's row is empty (R-W4). */
NK_HOT bool nk_trial_needed(const nk_variant *v, const nk_pos *p)
{
    return v->sowing == NK_SOW_RELAY || nk_row_empty(p, p->side ^ 1u);
}

/* ===== end rules ===== */

/* R-W7: no move feeds the starved opponent (trial sowings, sow.c). */
bool nk_cannot_feed(const nk_variant *v, const nk_pos *p);
/* The relay variants' end rules, R-K5 and R-K4 (sow.c). */
nk_end nk_relay_end(const nk_variant *v, const nk_pos *p, bool captured);

/* nk_pos_end for a position reached by a move from a live position: the
 * majority and few-seeds rules can only start to hold after a capture. */
NK_HOT nk_end nk_pos_end_after(const nk_variant *v, const nk_pos *p, bool captured)
{
    if (captured && (v->ends & (1u << NK_END_MAJORITY))) {
        unsigned maj = nk_majority(nk_board_sum(p) + p->store[0] + p->store[1]);
        if (p->store[0] >= maj || p->store[1] >= maj)
            return NK_END_MAJORITY; /* R-W6 */
    }
    if (v->sowing != NK_SOW_WARRI)
        return nk_relay_end(v, p, captured);
    /* The Warri family: R-W9, then R-W7; nothing to check while both rows
     * hold seeds. */
    if (__builtin_expect(nk_row_word(p, NK_SOUTH) != 0 && nk_row_word(p, NK_NORTH) != 0, 1))
        return NK_END_NONE;
    if (nk_row_empty(p, p->side))
        return NK_END_EMPTY_ROW;
    return nk_cannot_feed(v, p) ? NK_END_NO_FEED : NK_END_NONE;
}

/* ===== games ===== */

/* g->seen[b] is 1 + the latest k with bucket b = hash % 1024 among hist[0..ply]
 * (0: none), so hist[since..ply] holds a hash of bucket b only if
 * seen[b] > since: the history is scanned only then, and a capture clears
 * nothing. */
static inline unsigned nk_seen_bucket(uint64_t hash)
{
    return (unsigned)(hash & (NK_SEEN_BUCKETS - 1));
}

NK_HOT bool nk_game_repeats_inline(const nk_game *g, uint64_t hash)
{
    if (__builtin_expect(g->seen[nk_seen_bucket(hash)] <= g->since, 1))
        return false;
    for (unsigned k = g->since; k <= g->ply; k++)
        if (g->hist[k] == hash)
            return true;
    return false;
}

/* Ends the game for that reason (out of line, game.c). */
void nk_game_finish(nk_game *g, nk_end end);

/* Records the move that led to g->pos, made in place, and checks the end
 * rules (R-G4 order: the position's own, repetition, the ply limit). */
NK_HOT void nk_game_record(nk_game *g, int move, unsigned captured)
{
    const uint64_t hash = g->pos.hash;
    const bool repeated = captured == 0 && nk_game_repeats_inline(g, hash);
    const unsigned ply = ++g->ply;
    g->moves[ply - 1] = (uint8_t)move;
    if (captured)
        g->since = ply;
    g->hist[ply] = hash;
    g->seen[nk_seen_bucket(hash)] = (uint16_t)(ply + 1);
    nk_end end = nk_pos_end_after(g->variant, &g->pos, captured != 0);
    if (end == NK_END_NONE && repeated)
        end = NK_END_REPETITION;
    if (end == NK_END_NONE && ply >= g->ply_limit)
        end = NK_END_PLY_LIMIT;
    if (__builtin_expect(end != NK_END_NONE, 0))
        nk_game_finish(g, end);
}

/* A random legal move when the fast path of nk_random_play does not apply
 * (game.c): trial sowings, or no move at all. */
int nk_random_trial(const nk_variant *v, nk_pos *p, nk_rng *rng, nk_ply_info *info);

/* Plays a uniformly random legal move on pos in place, whose end rules the
 * caller has checked; returns it, NK_PASS, or NK_NO_MOVE (pos unchanged).
 * info may be NULL.  The fast path: a Warri position where both rows hold
 * seeds, so that no trial sowing is needed (R-W4) and every pit of the
 * mover's row holding seeds is legal. */
NK_HOT int nk_random_play(const nk_variant *v, nk_pos *p, nk_rng *rng, nk_ply_info *info)
{
    uint64_t south = nk_row_word(p, NK_SOUTH), north = nk_row_word(p, NK_NORTH);
    if (__builtin_expect(v->sowing != NK_SOW_WARRI || south == 0 || north == 0, 0))
        return nk_random_trial(v, p, rng, info);
    const unsigned side = p->side;
    int move = (int)(side * NK_ROW) + nk_pick01(nk_bytes01(side ? north : south), rng);
    nk_warri_play(v, p, move, info);
    return move;
}

/* One random ply of a live game, in place. */
NK_HOT void nk_game_random_ply(nk_game *g, nk_rng *rng)
{
    int move = nk_random_play(g->variant, &g->pos, rng, NULL);
    nk_game_record(g, move, g->pos.flags & NK_POS_CAPTURED);
}

#endif
