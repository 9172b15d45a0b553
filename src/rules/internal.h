/*
 * internal.h -- what the files of src/rules/ share and nobody else sees:
 * the Zobrist key tables, small inline helpers on rows and byte masks, and
 * the hot path of a ply as static inline pieces.
 *
 * The hot path is written once, here, and every caller is built from it:
 * nk_apply and nk_pos_end (sow.c), nk_game_advance and nk_random_child
 * (game.c), and the playouts of nk_bench_playouts (bench.c), which play
 * whole games in place (nk_game_random_finish) without copying positions.
 * Both families' moves are inline (nk_warri_play, nk_relay_play); what is
 * rare (Warri sowings of 12 seeds or more, trial sowings for R-W4, the
 * end rules once a row is empty, the result of a finished game) is out of
 * line.
 */
#ifndef NK_RULES_INTERNAL_H
#define NK_RULES_INTERNAL_H

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "rules/rules.h"

/* Zobrist keys (zobrist.c).  nk_zpit[i][c]: pit i holds c seeds;
 * nk_zstep[i][c] = nk_zpit[i][c] ^ nk_zpit[i][c + 1] (one seed sown);
 * nk_zstore[s][c]: store of side s holds c; nk_zside: North to move;
 * nk_zowner[i]: pit i's owner differs from the default rows. */
extern const uint64_t nk_zpit[NK_PITS][256];
/* The key of index x as a constant expression (SplitMix64 of x): nk_zpit[i][c]
 * is NK_ZKEY(i * 256 + c) (zobrist.c explains the indexes). */
#define NK_ZM1(z) (((z) ^ ((z) >> 30)) * 0xBF58476D1CE4E5B9ull)
#define NK_ZM2(z) (((z) ^ ((z) >> 27)) * 0x94D049BB133111EBull)
#define NK_ZM3(z) ((z) ^ ((z) >> 31))
#define NK_ZKEY(x) NK_ZM3(NK_ZM2(NK_ZM1(((uint64_t)(x) + 1) * 0x9E3779B97F4A7C15ull)))
extern const uint64_t nk_zstep[NK_PITS][256];
extern const uint64_t nk_zstore[2][256];
extern const uint64_t nk_zside;
extern const uint64_t nk_zowner[NK_PITS];

/* The pieces of the hot path are inlined wherever they are used. */
#define NK_HOT static inline __attribute__((always_inline))

/* ===== bytes and rows ===== */

#define NK_BYTES_1 0x0101010101010101ull

/* The pit counts as words: pits 0..7, and pits 8..11.  The hot path writes
 * the counts of a sowing with one store of each (nk_add_counts), so that
 * these loads are served by whole earlier stores. */
NK_HOT uint64_t nk_pits_lo(const nk_pos *p)
{
    uint64_t w;
    memcpy(&w, p->pit, 8);
    return w;
}

NK_HOT uint32_t nk_pits_hi(const nk_pos *p)
{
    uint32_t w;
    memcpy(&w, p->pit + 8, 4);
    return w;
}

/* The 6 pits of a side's default row as the low 48 bits of a word, pit
 * side * 6 in byte 0. */
NK_HOT uint64_t nk_row_word(const nk_pos *p, unsigned side)
{
    uint64_t lo = nk_pits_lo(p);
    uint64_t north = (lo >> 48) | ((uint64_t)nk_pits_hi(p) << 16);
    return side ? north : lo & 0xFFFFFFFFFFFFull;
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
    return nk_byte_sum(nk_pits_lo(p)) + nk_byte_sum(nk_pits_hi(p));
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

/* Bit i (0..11) set when pit i holds more than `above` seeds.  With SSE2
 * (every x86-64) one saturating subtraction, one comparison and one
 * movemask over the 16 bytes that start the position; elsewhere pit by
 * pit. */
NK_HOT unsigned nk_pits_above(const nk_pos *p, unsigned above)
{
#ifdef __SSE2__
    _Static_assert(sizeof(nk_pos) >= 16, "nk_pos holds 16 bytes from pit[0]");
    __m128i x;
    memcpy(&x, p->pit, 16);
    x = _mm_subs_epu8(x, _mm_set1_epi8((char)above));
    const unsigned zero = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128()));
    return ~zero & 0xFFFu;
#else
    unsigned m = 0;
    for (int i = 0; i < NK_PITS; i++)
        m |= (unsigned)(p->pit[i] > above) << i;
    return m;
#endif
}

/* nk_sel6[m] for a mask m < 64: entries 0..5 the set bits of m in
 * increasing order (then zeros), entry 7 their count (sow.c). */
extern const uint8_t nk_sel6[64][8];

/* A uniformly random one of the set bits of a non-empty mask below 2^12:
 * the k-th set bit, k = nk_rng_below(popcount), as playouts have always
 * drawn their moves.  (nk_random_play_open draws within one row the same
 * way.) */
NK_HOT int nk_pick_mask(unsigned mask, nk_rng *rng)
{
    const uint8_t *lo = nk_sel6[mask & 63u], *hi = nk_sel6[(mask >> 6) & 63u];
    const unsigned nlo = lo[7];
    const unsigned k = nk_rng_below(rng, nlo + hi[7]);
    return k < nlo ? lo[k] : NK_ROW + hi[k - nlo];
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

/* The hash change of emptying pit o, which holds n seeds. */
NK_HOT void nk_lift_hash(uint64_t *h, int o, unsigned n)
{
    const uint64_t *z = nk_zpit[o];
    *h ^= z[0] ^ z[n];
}

/* The change of the pit counts when the n <= 11 seeds of pit o are lifted
 * and sown one a pit after o, as numbers to add to the words of
 * nk_pits_lo and nk_pits_hi (modulo 2^64 and 2^32): no count leaves
 * 0..255, so the words change by the sum of (change of pit i) * 256^i over
 * their pits, whatever the counts (sow.c). */
typedef struct nk_sow_delta {
    uint64_t lo;
    uint64_t hi; /* low 32 bits; bits 32..35: the last pit, (o + n) mod 12 */
    uint64_t lift; /* nk_zpit[o][0] ^ nk_zpit[o][n]: the hash change of lifting n */
} nk_sow_delta;

/* The pit where n <= 11 seeds sown after o end (o itself for n = 0), from
 * the delta of key o * 12 + n. */
NK_HOT int nk_delta_end(const nk_sow_delta *d)
{
    return (int)(d->hi >> 32);
}
extern const nk_sow_delta nk_sow_deltas[NK_PITS * NK_PITS]; /* [o * 12 + n] */

/* Adds a change of the pit counts: one 8-byte and one 4-byte store. */
NK_HOT void nk_add_counts(nk_pos *p, uint64_t dlo, uint64_t dhi)
{
    uint64_t lo = nk_pits_lo(p) + dlo;
    uint32_t hi = nk_pits_hi(p) + (uint32_t)dhi;
    memcpy(p->pit, &lo, 8);
    memcpy(p->pit + 8, &hi, 4);
}

/* The hash of sowing n <= 11 seeds after pit o, one a pit (the origin is not
 * reached), key = o * 12 + n; the counts do not change.  One jump on the key
 * into straight code: the case of (o, k) steps pit o + k (mod 12) and falls
 * through to o + k - 1, so entering at (o, n) steps pits o + n down to
 * o + 1, each with a constant index. */
#define NK_STEP_K(o, k)                                                        \
    case (o) * NK_PITS + (k):                                                  \
        *h ^= nk_zstep[((o) + (k)) % NK_PITS][p->pit[((o) + (k)) % NK_PITS]]; \
        __attribute__((fallthrough));
#define NK_STEP_FROM(o)                                                        \
    NK_STEP_K(o, 11) NK_STEP_K(o, 10) NK_STEP_K(o, 9) NK_STEP_K(o, 8)          \
    NK_STEP_K(o, 7) NK_STEP_K(o, 6) NK_STEP_K(o, 5) NK_STEP_K(o, 4)            \
    NK_STEP_K(o, 3) NK_STEP_K(o, 2)                                            \
    case (o) * NK_PITS + 1:                                                    \
        *h ^= nk_zstep[((o) + 1) % NK_PITS][p->pit[((o) + 1) % NK_PITS]];     \
        break;

NK_HOT void nk_sow_hash(const nk_pos *p, uint64_t *h, unsigned key)
{
    if (key >= NK_PITS * NK_PITS) /* never: lets the switch drop its range check */
        __builtin_unreachable();
    switch (key) {
        NK_STEP_FROM(0) NK_STEP_FROM(1) NK_STEP_FROM(2) NK_STEP_FROM(3)
        NK_STEP_FROM(4) NK_STEP_FROM(5) NK_STEP_FROM(6) NK_STEP_FROM(7)
        NK_STEP_FROM(8) NK_STEP_FROM(9) NK_STEP_FROM(10) NK_STEP_FROM(11)
    default: /* n = 0: no seed */
        break;
    }
}

#undef NK_STEP_FROM
#undef NK_STEP_K

/* Lifts the n <= 11 seeds of pit o and sows them one a pit after o;
 * returns the last pit. */
NK_HOT int nk_lift_sow(nk_pos *p, uint64_t *h, int o, unsigned n)
{
    const unsigned key = (unsigned)o * NK_PITS + n;
    const nk_sow_delta *d = &nk_sow_deltas[key];
    *h ^= d->lift; /* nk_lift_hash(h, o, n) */
    nk_sow_hash(p, h, key);
    nk_add_counts(p, d->lo, d->hi);
    return nk_delta_end(d);
}

/* Sows n <= 11 seeds after pit o, the origin keeping its seeds; returns the
 * last pit. */
NK_HOT int nk_sow_run(nk_pos *p, uint64_t *h, int o, unsigned n)
{
    const unsigned key = (unsigned)o * NK_PITS + n;
    const unsigned shift = 8u * (unsigned)(o & 7); /* the origin's byte in its word */
    const nk_sow_delta *d = &nk_sow_deltas[key];
    uint64_t lo = d->lo, hi = d->hi;
    nk_sow_hash(p, h, key);
    if (o < 8)
        lo += (uint64_t)n << shift;
    else
        hi += (uint64_t)n << shift;
    nk_add_counts(p, lo, hi);
    return nk_delta_end(d);
}

/* Lifts the seeds of pit o; returns how many. */
NK_HOT unsigned nk_lift(nk_pos *p, uint64_t *h, int o)
{
    unsigned n = p->pit[o];
    nk_lift_hash(h, o, n);
    p->pit[o] = 0;
    return n;
}

/* A Warri sowing of n >= 12 seeds from pit o (rare: out of line, sow.c):
 * lifts them and sows lap after lap, skipping o, keeping pos->hash; returns
 * the last pit. */
int nk_sow_laps(nk_pos *p, int o);

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
    for (int k = last; k > j; k--)
        nk_lift(p, h, k);
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
    unsigned n = p->pit[o];
    int last;
    if (__builtin_expect(n < NK_PITS, 1)) {
        last = nk_lift_sow(p, &h, o, n);
    } else {
        last = nk_sow_laps(p, o);
        h = p->hash;
    }
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

/* Fills what a move did, when the caller asked (info not NULL). */
NK_HOT void nk_set_info(nk_ply_info *info, unsigned captured, unsigned laps, bool slam)
{
    if (info) {
        info->captured = captured;
        info->laps = laps;
        info->grand_slam = slam;
    }
}

/* Ends a Warri move after steps 1 and 2: the mover plays again after a
 * grand slam where the variant says so (R-W8). */
NK_HOT void nk_warri_end_move(const nk_variant *v, nk_pos *p, nk_take t, nk_ply_info *info)
{
    nk_set_info(info, t.captured, 1, t.slam);
    nk_end_turn(p, t.slam && v->grand_slam_replays, t.captured, 0);
}

/* A Warri move known to be legal: the opponent's row is not empty at the
 * start, so it cannot be left empty by sowing alone, and a grand slam
 * either is allowed to empty it or takes nothing (R-W4, R-W5). */
NK_HOT void nk_warri_play(const nk_variant *v, nk_pos *p, int o, nk_ply_info *info)
{
    nk_warri_end_move(v, p, nk_warri_sow(v, p, o), info);
}

/* A relay move from pit o (R-K2, R-K3): returns false, with p part-way
 * through the move, when it is endless (more than max_laps laps); else
 * plays it, keeping pos->hash, and ends the turn.  sow.c explains the
 * rules. */
NK_HOT bool nk_relay_play(const nk_variant *v, nk_pos *p, int o, nk_ply_info *info)
{
    const unsigned me = p->side;
    const unsigned theirs = (unsigned)p->north ^ (0xFFFu & (0u - me)); /* nk_pos_owned(me ^ 1) */
    const unsigned max_laps = v->max_laps;
    uint64_t h = p->hash;
    unsigned laps = 0, captured = 0;
    int at = o;

    for (;;) {
        if ((unsigned)at >= NK_PITS) /* never: a pit (helps the compiler) */
            __builtin_unreachable();
        if (++laps > max_laps)
            return false; /* R-K3: endless */
        unsigned n = p->pit[at];
        int last;
        if (__builtin_expect(n < NK_PITS, 1)) {
            last = nk_lift_sow(p, &h, at, n);
        } else {
            nk_lift(p, &h, at);
            for (; n >= NK_PITS; n -= NK_PITS) { /* a full lap: every pit, at included */
                nk_sow_run(p, &h, at, NK_PITS - 1);
                nk_sow_one(p, &h, at);
            }
            last = nk_sow_run(p, &h, at, n);
        }
        const unsigned c = p->pit[last];
        if (__builtin_expect(c >= 8 || !((0x12u >> c) & 1u), 1)) { /* c is neither 1 nor 4 */
            at = last; /* rule 4: relay */
            continue;
        }
        if (c == 4 && ((theirs >> last) & 1u)) { /* rule 1: capture the four */
            nk_lift(p, &h, last);
            nk_to_store(p, &h, me, 4);
            captured = 4;
        }
        break; /* rules 2 and 3, or after rule 1 */
    }
    /* nk_end_turn(p, false, captured, 0), with the hash still in h. */
    p->hash = h ^ nk_zside;
    p->side = (uint8_t)(me ^ 1u);
    p->flags = (uint8_t)(captured ? NK_POS_CAPTURED : 0u);
    nk_set_info(info, captured, laps, false);
    return true;
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

/* True for a Warri position where both rows hold seeds: then no end rule of
 * the position alone but the majority holds (R-W7, R-W9), no trial sowing
 * is needed (R-W4), and every pit of the mover's row holding seeds is a
 * legal move. */
NK_HOT bool nk_warri_open(const nk_variant *v, const nk_pos *p)
{
    const uint64_t lo = nk_pits_lo(p);
    return v->sowing == NK_SOW_WARRI && (lo & 0xFFFFFFFFFFFFull) != 0 &&
           ((lo >> 48) | nk_pits_hi(p)) != 0;
}

/* nk_pos_end for a position reached by a move from a live position, with
 * open = nk_warri_open(v, p): the majority and few-seeds rules can only
 * start to hold after a capture. */
NK_HOT nk_end nk_pos_end_open(const nk_variant *v, const nk_pos *p, bool captured, bool open)
{
    if (captured && (v->ends & (1u << NK_END_MAJORITY))) {
        unsigned maj = nk_majority(nk_board_sum(p) + p->store[0] + p->store[1]);
        if (p->store[0] >= maj || p->store[1] >= maj)
            return NK_END_MAJORITY; /* R-W6 */
    }
    if (__builtin_expect(open, 1))
        return NK_END_NONE;
    if (v->sowing != NK_SOW_WARRI) {
        /* R-K5 needs a capture, R-K4 a pass: neither, no end. */
        if (!captured && !(p->flags & NK_POS_PASS_MASK))
            return NK_END_NONE;
        return nk_relay_end(v, p, captured);
    }
    /* The Warri family: R-W9, then R-W7. */
    if (nk_row_empty(p, p->side))
        return NK_END_EMPTY_ROW;
    return nk_cannot_feed(v, p) ? NK_END_NO_FEED : NK_END_NONE;
}

NK_HOT nk_end nk_pos_end_after(const nk_variant *v, const nk_pos *p, bool captured)
{
    return nk_pos_end_open(v, p, captured, nk_warri_open(v, p));
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
 * rules (R-G4 order: the position's own, repetition, the ply limit).
 * Returns nk_warri_open of the new position while the game goes on, false
 * once it is over.  sow is g->variant->sowing, a constant where the caller
 * knows it; the position is read before the record's stores (a byte store
 * to g->moves would make the compiler load it again). */
NK_HOT bool nk_game_record_sow(nk_game *g, int move, unsigned captured, nk_sowing sow)
{
    const nk_variant *v = g->variant;
    const uint64_t hash = g->pos.hash;
    const uint64_t lo = nk_pits_lo(&g->pos);
    const bool open = sow == NK_SOW_WARRI && (lo & 0xFFFFFFFFFFFFull) != 0 &&
                      ((lo >> 48) | nk_pits_hi(&g->pos)) != 0; /* nk_warri_open */
    const bool repeated = captured == 0 && nk_game_repeats_inline(g, hash);
    const unsigned ply = ++g->ply;
    const unsigned limit = g->ply_limit;
    g->hist[ply] = hash;
    g->seen[nk_seen_bucket(hash)] = (uint16_t)(ply + 1);
    if (captured)
        g->since = ply;
    g->moves[ply - 1] = (uint8_t)move;
    nk_end end = NK_END_NONE;
    if (__builtin_expect(captured != 0 || !open, 0))
        end = nk_pos_end_open(v, &g->pos, captured != 0, open);
    if (end == NK_END_NONE && repeated)
        end = NK_END_REPETITION;
    if (end == NK_END_NONE && ply >= limit)
        end = NK_END_PLY_LIMIT;
    if (__builtin_expect(end != NK_END_NONE, 0)) {
        nk_game_finish(g, end);
        return false;
    }
    return open;
}

NK_HOT bool nk_game_record(nk_game *g, int move, unsigned captured)
{
    return nk_game_record_sow(g, move, captured, g->variant->sowing);
}

/* A random legal move when the fast path of nk_random_play does not apply
 * (game.c): trial sowings, or no move at all. */
int nk_random_trial(const nk_variant *v, nk_pos *p, nk_rng *rng, nk_ply_info *info);

/* The candidates of a relay position: the owned pits holding at least
 * min_sow seeds (R-K1). */
NK_HOT unsigned nk_relay_candidates(const nk_variant *v, const nk_pos *p)
{
    const unsigned mask = nk_pits_above(p, v->min_sow - 1u);
    const unsigned owned = (unsigned)p->north ^ (0xFFFu & ((unsigned)p->side - 1u));
    return mask & owned; /* & nk_pos_owned(p, p->side) */
}

/* nk_random_trial for the relay, inline: the same draws (a random
 * candidate, dropped and drawn again while endless, R-K3), then the pass
 * (R-K4). */
NK_HOT int nk_random_relay(const nk_variant *v, nk_pos *p, nk_rng *rng, nk_ply_info *info)
{
    unsigned mask = nk_relay_candidates(v, p);
    if (__builtin_expect(mask != 0, 1)) {
        const nk_pos pos = *p;
        do {
            const int move = nk_pick_mask(mask, rng);
            if (nk_relay_play(v, p, move, info))
                return move;
            *p = pos;
            mask &= ~(1u << move);
        } while (mask);
    }
    nk_set_info(info, 0, 0, false);
    nk_end_turn(p, false, 0, nk_pos_passes(p) + 1 > 2 ? 2 : nk_pos_passes(p) + 1);
    return NK_PASS;
}

/* Plays a uniformly random legal move on pos in place, whose end rules the
 * caller has checked, with open = nk_warri_open(v, p); returns the move,
 * NK_PASS, or NK_NO_MOVE (pos unchanged).  info may be NULL.  The fast path
 * is the open position: every pit of the mover's row holding seeds is
 * legal. */
NK_HOT int nk_random_play_open(const nk_variant *v, nk_pos *p, nk_rng *rng, nk_ply_info *info,
                               bool open)
{
    if (__builtin_expect(!open, 0)) {
        if (v->sowing == NK_SOW_RELAY)
            return nk_random_relay(v, p, rng, info);
        return nk_random_trial(v, p, rng, info);
    }
    const unsigned side = p->side;
    const unsigned row = (nk_pits_above(p, 0) >> (side * NK_ROW)) & 63u;
    const uint8_t *e = nk_sel6[row];
    int move = (int)(side * NK_ROW) + e[nk_rng_below(rng, e[7])];
    nk_warri_play(v, p, move, info);
    return move;
}

NK_HOT int nk_random_play(const nk_variant *v, nk_pos *p, nk_rng *rng, nk_ply_info *info)
{
    return nk_random_play_open(v, p, rng, info, nk_warri_open(v, p));
}

/* nk_game_random_finish_sow for the Warri family, out of line (bench.c):
 * the same draws, moves and records.  g is live. */
void nk_game_random_finish_warri(nk_game *g, nk_rng *rng);

/* Plays a live game of that sowing (g->variant's, passed as a constant so
 * that each caller's loop holds only its own family's code) to its end
 * with uniformly random moves, in place. */
NK_HOT void nk_game_random_finish_sow(nk_game *g, nk_rng *rng, nk_sowing sow)
{
    if (sow == NK_SOW_WARRI) {
        if (!nk_game_over(g))
            nk_game_random_finish_warri(g, rng);
        return;
    }
    const nk_variant *v = g->variant;
    bool open = sow == NK_SOW_WARRI && nk_warri_open(v, &g->pos);
    while (!nk_game_over(g)) {
        int move;
        if (sow == NK_SOW_RELAY)
            move = nk_random_relay(v, &g->pos, rng, NULL);
        else if (__builtin_expect(open, 1))
            move = nk_random_play_open(v, &g->pos, rng, NULL, true);
        else
            move = nk_random_trial(v, &g->pos, rng, NULL);
        open = nk_game_record_sow(g, move, g->pos.flags & NK_POS_CAPTURED, sow);
    }
}

/* Plays a live game to its end with uniformly random moves, in place. */
NK_HOT void nk_game_random_finish(nk_game *g, nk_rng *rng)
{
    if (g->variant->sowing == NK_SOW_RELAY)
        nk_game_random_finish_sow(g, rng, NK_SOW_RELAY);
    else
        nk_game_random_finish_sow(g, rng, NK_SOW_WARRI);
}

#endif
