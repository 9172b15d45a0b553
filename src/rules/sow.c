/*
 * sow.c -- moves: sowing, capture, legality, and the end rules that depend
 * on the position alone.  This is the hot path of every playout and search;
 * its pieces are the inline functions of internal.h.
 *
 * Invariants kept by every function here:
 *  - pos->hash equals nk_pos_hash(pos) after every move (updated seed by seed
 *    with nk_zstep);
 *  - the seeds in play never change (captures move seeds into a store);
 *  - the Warri family always plays on the default rows (pits 0..5 South,
 *    6..11 North); only the relay sowing reads pos->north.
 *
 * Warri sowing (R-W1..R-W3): n seeds from pit o go to the 11 other pits in
 * order, lap after lap.  The last seed's pit is o + r (r = n mod 11, 1 <= r)
 * or, when r = 0, the pit just before o.  Capture walks back from it while
 * the pit is in the opponent's row and holds 2 or 3.
 *
 * A sowing of n <= 11 seeds from o changes the counts by a fixed amount
 * whatever they are (-n at o, +1 at each of the n pits after it), so the
 * change of each word of counts is a constant of (o, n): nk_sow_deltas,
 * which also gives the last pit and the hash change of the lift.
 *
 * Relay sowing (R-K2): no pit is skipped; each lap ends in the last pit p
 * with c seeds; an opponent-owned four is captured, a single seed or an own
 * four ends the move, any other count is lifted and sown on.  A move still
 * going after max_laps laps is endless and illegal (R-K3).
 */
#include "rules/internal.h"

/* Byte b (b = i or i - 8) of pit i's word, as a number of that word. */
#define B(i) ((uint64_t)1 << (8 * ((i) & 7)))
/* Pit i in the word of pits lo..hi. */
#define IN(i, lo, hi) ((i) >= (lo) && (i) <= (hi))
/* The change of the word of pits lo..hi by the k-th seed (1 <= k <= 11) of
 * n sown after o, if sown. */
#define T(o, n, k, lo, hi)                                                     \
    ((k) <= (n) && IN(((o) + (k)) % NK_PITS, lo, hi) ? B(((o) + (k)) % NK_PITS) : 0)
#define WORD(o, n, lo, hi)                                                     \
    (T(o, n, 1, lo, hi) + T(o, n, 2, lo, hi) + T(o, n, 3, lo, hi) +            \
     T(o, n, 4, lo, hi) + T(o, n, 5, lo, hi) + T(o, n, 6, lo, hi) +            \
     T(o, n, 7, lo, hi) + T(o, n, 8, lo, hi) + T(o, n, 9, lo, hi) +            \
     T(o, n, 10, lo, hi) + T(o, n, 11, lo, hi) -                               \
     (IN(o, lo, hi) ? (uint64_t)(n) * B(o) : 0))
#define DELTA(o, n)                                                            \
    {WORD(o, n, 0, 7),                                                         \
     (WORD(o, n, 8, 11) & 0xFFFFFFFFull) | (uint64_t)(((o) + (n)) % NK_PITS) << 32, \
     NK_ZKEY((o) * 256) ^ NK_ZKEY((o) * 256 + (n))}
#define DELTAS(o)                                                              \
    DELTA(o, 0), DELTA(o, 1), DELTA(o, 2), DELTA(o, 3), DELTA(o, 4),           \
    DELTA(o, 5), DELTA(o, 6), DELTA(o, 7), DELTA(o, 8), DELTA(o, 9),           \
    DELTA(o, 10), DELTA(o, 11)

const nk_sow_delta nk_sow_deltas[NK_PITS * NK_PITS] = {
    DELTAS(0), DELTAS(1), DELTAS(2), DELTAS(3), DELTAS(4), DELTAS(5),
    DELTAS(6), DELTAS(7), DELTAS(8), DELTAS(9), DELTAS(10), DELTAS(11),
};

#undef DELTAS
#undef DELTA
#undef WORD
#undef T
#undef IN
#undef B

/* The set bits of every 6-bit mask, for the random draws of playouts
 * (internal.h, nk_pick_mask and nk_random_play_open): written out, checked by test_rules_props. */
const uint8_t nk_sel6[64][8] = {
    {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 0, 0, 1}, {0, 1, 0, 0, 0, 0, 0, 2},
    {2, 0, 0, 0, 0, 0, 0, 1}, {0, 2, 0, 0, 0, 0, 0, 2}, {1, 2, 0, 0, 0, 0, 0, 2}, {0, 1, 2, 0, 0, 0, 0, 3},
    {3, 0, 0, 0, 0, 0, 0, 1}, {0, 3, 0, 0, 0, 0, 0, 2}, {1, 3, 0, 0, 0, 0, 0, 2}, {0, 1, 3, 0, 0, 0, 0, 3},
    {2, 3, 0, 0, 0, 0, 0, 2}, {0, 2, 3, 0, 0, 0, 0, 3}, {1, 2, 3, 0, 0, 0, 0, 3}, {0, 1, 2, 3, 0, 0, 0, 4},
    {4, 0, 0, 0, 0, 0, 0, 1}, {0, 4, 0, 0, 0, 0, 0, 2}, {1, 4, 0, 0, 0, 0, 0, 2}, {0, 1, 4, 0, 0, 0, 0, 3},
    {2, 4, 0, 0, 0, 0, 0, 2}, {0, 2, 4, 0, 0, 0, 0, 3}, {1, 2, 4, 0, 0, 0, 0, 3}, {0, 1, 2, 4, 0, 0, 0, 4},
    {3, 4, 0, 0, 0, 0, 0, 2}, {0, 3, 4, 0, 0, 0, 0, 3}, {1, 3, 4, 0, 0, 0, 0, 3}, {0, 1, 3, 4, 0, 0, 0, 4},
    {2, 3, 4, 0, 0, 0, 0, 3}, {0, 2, 3, 4, 0, 0, 0, 4}, {1, 2, 3, 4, 0, 0, 0, 4}, {0, 1, 2, 3, 4, 0, 0, 5},
    {5, 0, 0, 0, 0, 0, 0, 1}, {0, 5, 0, 0, 0, 0, 0, 2}, {1, 5, 0, 0, 0, 0, 0, 2}, {0, 1, 5, 0, 0, 0, 0, 3},
    {2, 5, 0, 0, 0, 0, 0, 2}, {0, 2, 5, 0, 0, 0, 0, 3}, {1, 2, 5, 0, 0, 0, 0, 3}, {0, 1, 2, 5, 0, 0, 0, 4},
    {3, 5, 0, 0, 0, 0, 0, 2}, {0, 3, 5, 0, 0, 0, 0, 3}, {1, 3, 5, 0, 0, 0, 0, 3}, {0, 1, 3, 5, 0, 0, 0, 4},
    {2, 3, 5, 0, 0, 0, 0, 3}, {0, 2, 3, 5, 0, 0, 0, 4}, {1, 2, 3, 5, 0, 0, 0, 4}, {0, 1, 2, 3, 5, 0, 0, 5},
    {4, 5, 0, 0, 0, 0, 0, 2}, {0, 4, 5, 0, 0, 0, 0, 3}, {1, 4, 5, 0, 0, 0, 0, 3}, {0, 1, 4, 5, 0, 0, 0, 4},
    {2, 4, 5, 0, 0, 0, 0, 3}, {0, 2, 4, 5, 0, 0, 0, 4}, {1, 2, 4, 5, 0, 0, 0, 4}, {0, 1, 2, 4, 5, 0, 0, 5},
    {3, 4, 5, 0, 0, 0, 0, 3}, {0, 3, 4, 5, 0, 0, 0, 4}, {1, 3, 4, 5, 0, 0, 0, 4}, {0, 1, 3, 4, 5, 0, 0, 5},
    {2, 3, 4, 5, 0, 0, 0, 4}, {0, 2, 3, 4, 5, 0, 0, 5}, {1, 2, 3, 4, 5, 0, 0, 5}, {0, 1, 2, 3, 4, 5, 0, 6},
};

int nk_sow_laps(nk_pos *p, int o)
{
    uint64_t h = p->hash;
    unsigned n = nk_lift(p, &h, o);
    for (; n > 11; n -= 11) /* a full lap: every pit but o */
        nk_sow_run(p, &h, o, 11);
    int last = nk_sow_run(p, &h, o, n);
    p->hash = h;
    return last;
}

static bool warri_apply(const nk_variant *v, nk_pos *p, int o, nk_ply_info *info)
{
    /* Step 3: feeding (R-W4), needed only when the opponent starts empty. */
    if (!nk_row_empty(p, p->side ^ 1u)) {
        nk_warri_play(v, p, o, info);
        return true;
    }
    nk_take t = nk_warri_sow(v, p, o);
    if (nk_row_empty(p, p->side ^ 1u))
        return false;
    nk_warri_end_move(v, p, t, info);
    return true;
}

static bool relay_apply(const nk_variant *v, nk_pos *p, int o, nk_ply_info *info)
{
    return nk_relay_play(v, p, o, info);
}

bool nk_apply(const nk_variant *v, nk_pos *p, int move, nk_ply_info *info)
{
    if (move == NK_PASS) {
        nk_set_info(info, 0, 0, false);
        nk_end_turn(p, false, 0, nk_pos_passes(p) + 1 > 2 ? 2 : nk_pos_passes(p) + 1);
        return true;
    }
    if (v->sowing == NK_SOW_RELAY)
        return relay_apply(v, p, move, info);
    return warri_apply(v, p, move, info);
}

/* nk_candidates and nk_pos_end_reached are "inline" so that the link-time
 * optimiser inlines them into the search; rules.h's declarations keep these
 * the external definitions. */
inline unsigned nk_candidates(const nk_variant *v, const nk_pos *p)
{
    if (v->sowing == NK_SOW_WARRI) /* min_sow 1, default rows */
        return nk_pits_above(p, 0) & (0x3Fu << (p->side * NK_ROW));
    return nk_relay_candidates(v, p); /* pits holding at least min_sow (2) seeds */
}

bool nk_needs_trial(const nk_variant *v, const nk_pos *p)
{
    return nk_trial_needed(v, p);
}

unsigned nk_legal(const nk_variant *v, const nk_pos *p)
{
    unsigned cand = nk_candidates(v, p);
    if (!nk_needs_trial(v, p))
        return cand;
    unsigned legal = 0;
    for (unsigned m = cand; m; m &= m - 1) {
        int move = __builtin_ctz(m);
        nk_pos child = *p;
        if (nk_apply(v, &child, move, NULL))
            legal |= 1u << move;
    }
    if (legal == 0 && v->sowing == NK_SOW_RELAY)
        legal = 1u << NK_PASS; /* R-K4 */
    return legal;
}

/* ===== end rules of the position alone (R-G4 order) ===== */

/* R-W4 trial sowings, kept out of line: the hot path never needs them. */
__attribute__((cold)) bool nk_cannot_feed(const nk_variant *v, const nk_pos *p)
{
    return nk_legal(v, p) == 0;
}

nk_end nk_relay_end(const nk_variant *v, const nk_pos *p, bool captured)
{
    const unsigned ends = v->ends;
    if ((ends & (1u << NK_END_FEW_SEEDS)) && captured && (p->flags & NK_POS_CAPTURED) &&
        nk_board_sum(p) <= 8)
        return NK_END_FEW_SEEDS; /* R-K5 */
    if ((ends & (1u << NK_END_PASSES)) && nk_pos_passes(p) >= 2)
        return NK_END_PASSES; /* R-K4 */
    return NK_END_NONE;
}

nk_end nk_pos_end(const nk_variant *v, const nk_pos *p)
{
    return nk_pos_end_after(v, p, true);
}

inline nk_end nk_pos_end_reached(const nk_variant *v, const nk_pos *p)
{
    return nk_pos_end_after(v, p, (p->flags & NK_POS_CAPTURED) != 0);
}

void nk_pos_result(const nk_variant *v, const nk_pos *p, nk_end reason, nk_result *r)
{
    unsigned t[2] = {p->store[0], p->store[1]};
    unsigned row[2] = {nk_pos_row_seeds(p, NK_SOUTH), nk_pos_row_seeds(p, NK_NORTH)};
    switch (v->remain[reason]) {
    case NK_REMAIN_NONE:
        break;
    case NK_REMAIN_OWN:
        t[0] += row[0];
        t[1] += row[1];
        break;
    case NK_REMAIN_OTHER:
        t[0] += row[1];
        t[1] += row[0];
        break;
    case NK_REMAIN_SPLIT: { /* R-W11 */
        unsigned rest = row[0] + row[1];
        t[0] += rest / 2;
        t[1] += rest / 2;
        if (rest % 2)
            t[row[1] > row[0]]++;
        break;
    }
    }
    r->reason = reason;
    r->total[0] = t[0];
    r->total[1] = t[1];
    r->winner = t[0] > t[1] ? NK_SOUTH : t[1] > t[0] ? NK_NORTH : NK_DRAW;
    if (v->win_needs_majority && r->winner != NK_DRAW &&
        t[r->winner] < nk_majority(nk_pos_total(p)))
        r->winner = NK_DRAW; /* R-W12, speightstown */
}
