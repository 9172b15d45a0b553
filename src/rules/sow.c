/*
 * sow.c -- moves: sowing, capture, legality, and the end rules that depend
 * on the position alone.  This is the hot path of every playout and search.
 *
 * Invariants kept by every function here:
 *  - pos->hash equals nk_pos_hash(pos) after every move (updated seed by seed
 *    with nk_zstep, lap by lap for big pits);
 *  - the seeds in play never change (captures move seeds into a store);
 *  - the Warri family always plays on the default rows (pits 0..5 South,
 *    6..11 North); only the relay sowing reads pos->north.
 *
 * Warri sowing (R-W1..R-W3): n seeds from pit o go to the 11 other pits in
 * order; n >= 11 adds n / 11 to every other pit and sows the remainder.  The
 * last seed's pit is o + r (r = n mod 11, 1 <= r) or, when r = 0, the pit
 * just before o.  Capture walks back from it while the pit is in the
 * opponent's row and holds 2 or 3.
 *
 * Relay sowing (R-K2): no pit is skipped; each lap ends in the last pit p
 * with c seeds; an opponent-owned four is captured, a single seed or an own
 * four ends the move, any other count is lifted and sown on.  A move still
 * going after max_laps laps is endless and illegal (R-K3).
 */
#include "rules/internal.h"

/* next_pit[12] serves the "no pit to skip" value NK_PITS of sow_run. */
static const uint8_t next_pit[NK_PITS + 1] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0};

unsigned nk_majority(unsigned total)
{
    return total / 2 + 1;
}

/* Adds k seeds to every pit but `skip` (NK_PITS: none); keeps the hash. */
static void add_laps(nk_pos *p, unsigned k, int skip)
{
    for (int i = 0; i < NK_PITS; i++) {
        if (i == skip)
            continue;
        unsigned c = p->pit[i];
        p->hash ^= nk_zpit[i][c] ^ nk_zpit[i][c + k];
        p->pit[i] = (uint8_t)(c + k);
    }
}

/* Sows n >= 1 seeds one by one after pit `from`, passing over `skip`
 * (NK_PITS: none); returns the last pit.  With n <= 11 and skip = from, the
 * origin is never reached, so the Warri fast path passes NK_PITS. */
static inline int sow_run(nk_pos *p, int from, unsigned n, int skip)
{
    uint64_t h = p->hash;
    int i = from;
    do {
        i = next_pit[i];
        if (i == skip)
            i = next_pit[i];
        unsigned c = p->pit[i];
        h ^= nk_zstep[i][c];
        p->pit[i] = (uint8_t)(c + 1);
    } while (--n);
    p->hash = h;
    return i;
}

/* Sows 1 <= n <= 11 seeds after pit o (the origin is not reached);
 * returns the last pit.  Two runs without wrap-around tests: up to pit 11,
 * then from pit 0. */
static inline int sow_short(nk_pos *p, int o, unsigned n)
{
    uint64_t h = p->hash;
    int end = o + (int)n, stop = end < NK_PITS ? end : NK_PITS - 1;
    for (int i = o + 1; i <= stop; i++) {
        unsigned c = p->pit[i];
        h ^= nk_zstep[i][c];
        p->pit[i] = (uint8_t)(c + 1);
    }
    for (int i = 0; i <= end - NK_PITS; i++) {
        unsigned c = p->pit[i];
        h ^= nk_zstep[i][c];
        p->pit[i] = (uint8_t)(c + 1);
    }
    p->hash = h;
    return end < NK_PITS ? end : end - NK_PITS;
}

/* Warri sowing of n >= 12 seeds from o (rare: out of line). */
static __attribute__((noinline)) int sow_laps(nk_pos *p, int o, unsigned n)
{
    add_laps(p, n / 11, o);
    return n % 11 ? sow_run(p, o, n % 11, o) : (o + NK_PITS - 1) % NK_PITS;
}

static void to_store(nk_pos *p, int side, unsigned seeds)
{
    unsigned s = p->store[side];
    p->hash ^= nk_zstore[side][s] ^ nk_zstore[side][s + seeds];
    p->store[side] = (uint8_t)(s + seeds);
}

static void end_turn(nk_pos *p, bool same_side, unsigned captured, unsigned passes)
{
    if (!same_side) {
        p->side ^= 1u;
        p->hash ^= nk_zside;
    }
    p->flags = (uint8_t)((captured ? NK_POS_CAPTURED : 0u) | (passes << NK_POS_PASS_SHIFT));
}

static bool warri_apply(const nk_variant *v, nk_pos *p, int o, nk_ply_info *info)
{
    const int me = p->side, opp = me ^ 1;
    const int lo = opp * NK_ROW, hi = lo + NK_ROW - 1;
    const bool starving = nk_row_empty(p, opp);
    unsigned n = p->pit[o];
    int last;

    /* Step 1: lift and sow (R-W1, R-W2). */
    p->hash ^= nk_zpit[o][n] ^ nk_zpit[o][0];
    p->pit[o] = 0;
    if (n <= 11)
        last = sow_short(p, o, n);
    else
        last = sow_laps(p, o, n);

    /* Step 2: the capture chain (R-W3), and the grand slam (R-W5). */
    unsigned captured = 0;
    bool slam = false;
    if (last >= lo && last <= hi && (p->pit[last] == 2 || p->pit[last] == 3)) {
        int j = last;
        while (j >= lo && (p->pit[j] == 2 || p->pit[j] == 3))
            captured += p->pit[j--];
        slam = captured == nk_row_sum(p, opp);
        if (slam && !v->grand_slam_captures) {
            captured = 0;
        } else {
            for (int k = last; k > j; k--) {
                p->hash ^= nk_zpit[k][p->pit[k]] ^ nk_zpit[k][0];
                p->pit[k] = 0;
            }
            to_store(p, me, captured);
        }
    }

    /* Step 3: feeding (R-W4). */
    if (starving && nk_row_empty(p, opp))
        return false;
    if (info) {
        info->captured = captured;
        info->laps = 1;
        info->grand_slam = slam;
    }
    end_turn(p, slam && v->grand_slam_replays, captured, 0);
    return true;
}

static bool relay_apply(const nk_variant *v, nk_pos *p, int o, nk_ply_info *info)
{
    const int me = p->side;
    unsigned n = p->pit[o], laps = 0, captured = 0;
    int at = o;

    p->hash ^= nk_zpit[o][n] ^ nk_zpit[o][0];
    p->pit[o] = 0;
    for (;;) {
        if (++laps > v->max_laps)
            return false; /* R-K3: endless */
        if (n >= NK_PITS)
            add_laps(p, n / NK_PITS, NK_PITS);
        int last = n % NK_PITS ? sow_run(p, at, n % NK_PITS, NK_PITS) : at;
        unsigned c = p->pit[last];
        if (c == 4 && nk_pos_owner(p, last) != me) { /* rule 1: capture the four */
            p->hash ^= nk_zpit[last][4] ^ nk_zpit[last][0];
            p->pit[last] = 0;
            to_store(p, me, 4);
            captured = 4;
            break;
        }
        if (c == 1 || c == 4) /* rules 2 and 3 */
            break;
        p->hash ^= nk_zpit[last][c] ^ nk_zpit[last][0]; /* rule 4: relay */
        p->pit[last] = 0;
        n = c;
        at = last;
    }
    if (info) {
        info->captured = captured;
        info->laps = laps;
        info->grand_slam = false;
    }
    end_turn(p, false, captured, 0);
    return true;
}

bool nk_apply(const nk_variant *v, nk_pos *p, int move, nk_ply_info *info)
{
    if (move == NK_PASS) {
        if (info) {
            info->captured = 0;
            info->laps = 0;
            info->grand_slam = false;
        }
        end_turn(p, false, 0, nk_pos_passes(p) + 1 > 2 ? 2 : nk_pos_passes(p) + 1);
        return true;
    }
    if (v->sowing == NK_SOW_RELAY)
        return relay_apply(v, p, move, info);
    return warri_apply(v, p, move, info);
}

/* Bit j set when byte j of w is non-zero. */
static inline unsigned nonzero_bytes(uint64_t w)
{
    uint64_t t = (((w & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | w) & 0x8080808080808080ull;
    return (unsigned)(((t >> 7) * 0x0102040810204080ull) >> 56);
}

unsigned nk_candidates(const nk_variant *v, const nk_pos *p)
{
    uint64_t lo, hi;
    if (v->sowing == NK_SOW_WARRI) { /* min_sow 1, default rows */
        memcpy(&lo, p->pit + p->side * NK_ROW, 8);
        return nonzero_bytes(lo & 0xFFFFFFFFFFFFull) << (p->side * NK_ROW);
    }
    /* Pits holding at least min_sow (2) seeds: clear bit 0 of every byte. */
    uint64_t drop = 0x0101010101010101ull * (v->min_sow >= 2 ? 1u : 0u);
    memcpy(&lo, p->pit, 8);
    memcpy(&hi, p->pit + 8, 8);
    unsigned mask = nonzero_bytes(lo & ~drop) | (nonzero_bytes(hi & ~drop & 0xFFFFFFFFull) << 8);
    return mask & nk_pos_owned(p, p->side);
}

bool nk_needs_trial(const nk_variant *v, const nk_pos *p)
{
    return v->sowing == NK_SOW_RELAY || nk_row_empty(p, p->side ^ 1);
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
static __attribute__((noinline, cold)) bool can_feed(const nk_variant *v, const nk_pos *p)
{
    return nk_legal(v, p) != 0;
}

nk_end nk_pos_end(const nk_variant *v, const nk_pos *p)
{
    return nk_pos_end_after(v, p, true);
}

nk_end nk_pos_end_after(const nk_variant *v, const nk_pos *p, bool captured)
{
    const unsigned ends = v->ends;
    if (captured && (ends & (1u << NK_END_MAJORITY))) {
        unsigned maj = nk_majority(nk_pos_total(p));
        if (p->store[0] >= maj || p->store[1] >= maj)
            return NK_END_MAJORITY; /* R-W6 */
    }
    if (v->sowing == NK_SOW_WARRI) { /* the Warri family: R-W9, then R-W7 */
        if (nk_row_empty(p, p->side))
            return NK_END_EMPTY_ROW;
        if (nk_row_empty(p, p->side ^ 1) && !can_feed(v, p))
            return NK_END_NO_FEED;
        return NK_END_NONE;
    }
    if ((ends & (1u << NK_END_FEW_SEEDS)) && captured && (p->flags & NK_POS_CAPTURED) &&
        nk_pos_on_board(p) <= 8)
        return NK_END_FEW_SEEDS; /* R-K5 */
    if ((ends & (1u << NK_END_PASSES)) && nk_pos_passes(p) >= 2)
        return NK_END_PASSES; /* R-K4 */
    return NK_END_NONE;
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
