/*
 * tb.c -- the index of a database, the values of a position's moves, the
 * build by fixpoint iteration, and probes (docs/tablebase.md).
 *
 * Index.  The positions with b seeds on the board and South to move are,
 * for each ownership pattern, the compositions of b into 12 pits, ranked by
 * the combinatorial number system: the 11 bars between the pits stand at
 * s_j = p_0 + ... + p_j + j, strictly increasing in [0, b + 10], and the
 * rank is sum_j C(s_j, j + 1), in [0, C(b + 11, 11)).  The byte of pattern
 * k and rank r of seed count b is data[offset[b] + k * C(b + 11, 11) + r].
 *
 * Build.  Seed count b needs only the finished counts below it: a capture
 * leaves fewer seeds on the board, every other move as many.  For each
 * position two bounds are iterated: lo, the seeds the mover can force in a
 * finite number of moves, and hi, the most he can get unless the opponent
 * forces less in a finite number of moves.  With C(m) the value of a move m
 * that ends the game or captures (known) and B - x(c) for a move to a
 * position c of the same count,
 *     lo(p) = max(C, B - hi(c)),   hi(p) = max(C, B - lo(c)),
 * starting from lo = 0 and hi = B where a move stays on the count.  lo only
 * grows and hi only shrinks, so the iteration ends, at the least fixpoint of
 * lo and the greatest of hi whatever the order of the updates: the result
 * does not depend on the number of threads.  Where lo = hi the value is
 * forced; where lo < hi best play goes round a cycle and the game ends by
 * repetition, and the database takes the repetition's value of the position
 * itself, clamped to [lo, hi].  NK_TB_CYCLE marks every position from which
 * such a position can be reached (a least fixpoint too).  The builder
 * finds these fixpoints by retrograde analysis where the parents' lists
 * fit in memory, by sweeps of the recurrences otherwise (below).
 *
 * Speightstown (two planes).  A repetition gives the board to nobody
 * (R-W10), so what each side can force himself to collect is a reachability
 * value: g(p), what the mover can force, and h(p), what the opponent can,
 * are the least fixpoints of
 *     g(p) = max(G(m), x(c)),   h(p) = min(H(m), y(c)),
 * over the moves m, with G(m), H(m) the mover's and the opponent's seeds of
 * a move that ends the game or captures (known), and for a move to c of the
 * same count x(c) = h(c), y(c) = g(c) when c has the other side to move
 * (g(c), h(c) otherwise).  Both start at 0 and only grow; an infinite play
 * gives nobody anything, as the repetition that ends it does, so these
 * values are those of the game with its full history (no NK_TB_CYCLE).
 */
#ifdef _OPENMP /* the fuzz harnesses compile this layer without OpenMP */
#include <omp.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__ /* defined by the headers above */
#include <malloc.h> /* malloc_trim */
#endif

#include "tb/tb.h"

static uint64_t binom[NK_TB_MAX_SEEDS + NK_PITS + 1][NK_PITS + 1];

static void binom_init(void)
{
    static int done;
    if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
        return;
    for (unsigned n = 0; n <= NK_TB_MAX_SEEDS + NK_PITS; n++) {
        binom[n][0] = 1;
        for (unsigned k = 1; k <= NK_PITS; k++)
            binom[n][k] = n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
    }
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

uint64_t nk_tb_count(unsigned b)
{
    binom_init();
    return binom[b + NK_PITS - 1][NK_PITS - 1];
}

uint64_t nk_tb_rank(const uint8_t pit[NK_PITS])
{
    binom_init();
    uint64_t r = 0;
    unsigned s = 0;
    for (unsigned j = 0; j < NK_PITS - 1; j++) {
        s += pit[j];
        r += binom[s + j][j + 1];
    }
    return r;
}

void nk_tb_unrank(unsigned b, uint64_t rank, uint8_t pit[NK_PITS])
{
    binom_init();
    unsigned s[NK_PITS - 1];
    unsigned top = b + NK_PITS - 1; /* s_j < top */
    for (int j = NK_PITS - 2; j >= 0; j--) {
        unsigned x = top - 1;
        while (binom[x][j + 1] > rank)
            x--;
        rank -= binom[x][j + 1];
        s[j] = x;
        top = x;
    }
    pit[0] = (uint8_t)s[0];
    for (unsigned j = 1; j < NK_PITS - 1; j++)
        pit[j] = (uint8_t)(s[j] - s[j - 1] - 1);
    pit[NK_PITS - 1] = (uint8_t)(b + NK_PITS - 2 - s[NK_PITS - 2]);
}

/* ===== variants and patterns ===== */

nk_status nk_tb_supported(const nk_variant *v, char *err, size_t errlen)
{
    (void)v;
    (void)err;
    (void)errlen;
    return NK_OK;
}

/* The ownership patterns of a variant, in their fixed order: index k of
 * the full list is pattern 0 (the default rows), then 1..5 (South owns the
 * first j pits of North's row, A onwards), then -1..-5 (North owns the
 * first j of South's, a onwards); R-K9: the winner buys from the loser's
 * foot, j <= 5 by R-K10.  The Warri family has pattern 0 only. */
static unsigned variant_npat(const nk_variant *v)
{
    return v->sowing == NK_SOW_RELAY ? NK_TB_MAX_PATTERNS : 1;
}

static int full_bought(unsigned k)
{
    return k <= 5 ? (int)k : -(int)(k - 5);
}

static unsigned full_index(int j)
{
    return j >= 0 ? (unsigned)j : (unsigned)(5 - j);
}

/* North's pits of pattern j (|j| <= 5), South's way of naming it. */
static uint16_t bought_north(int j)
{
    if (j >= 0)
        return (uint16_t)(NK_DEFAULT_NORTH & ~(((1u << j) - 1) << NK_ROW));
    return (uint16_t)(NK_DEFAULT_NORTH | ((1u << -j) - 1));
}

uint32_t nk_tb_patterns_all(const nk_variant *v)
{
    return (UINT32_C(1) << variant_npat(v)) - 1;
}

/* The pattern whose North pits are north; false when none is. */
static bool north_bought(uint16_t north, int *bought)
{
    for (int j = -5; j <= 5; j++)
        if (bought_north(j) == north) {
            *bought = j;
            return true;
        }
    return false;
}

bool nk_tb_owners_pattern(const nk_pos *pos, int *bought)
{
    return north_bought(pos->north, bought);
}

/* Whether a set (bits of the full list) is a valid one of v: not empty,
 * within v's list, and closed under turning the board (j with -j). */
static bool set_valid(const nk_variant *v, uint32_t set)
{
    if (set == 0 || (set & ~nk_tb_patterns_all(v)) != 0)
        return false;
    for (unsigned k = 0; k < variant_npat(v); k++)
        if ((set >> k) & 1u && !((set >> full_index(-full_bought(k))) & 1u))
            return false;
    return true;
}

nk_status nk_tb_patterns_parse(const nk_variant *v, const char *text, uint32_t *set, char *err,
                               size_t errlen)
{
    *set = 0;
    if (strcmp(text, "all") == 0) {
        *set = nk_tb_patterns_all(v);
        return NK_OK;
    }
    const unsigned npat = variant_npat(v);
    uint32_t s = 0;
    const char *c = text;
    for (;;) {
        /* one item: an integer, digits after an optional minus */
        const char *start = c;
        const bool number = *c == '-' ? c[1] >= '0' && c[1] <= '9' : *c >= '0' && *c <= '9';
        char *end = (char *)c;
        long j = number ? strtol(c, &end, 10) : 0;
        if (!number || (*end != ',' && *end != '\0')) {
            size_t n = strcspn(start, ",");
            return nk_fail(NK_EINVAL, err, errlen,
                           "'%.*s' is not a pattern: a comma list of 0, 1 to 5, -1 to -5, or "
                           "all",
                           (int)(n > 16 ? 16 : n), start);
        }
        if (j > 5 || j < -5 || full_index((int)j) >= npat) {
            if (npat == 1)
                return nk_fail(NK_EINVAL, err, errlen,
                               "%s has one ownership pattern, 0 (the default rows): %ld is "
                               "not one",
                               v->name, j);
            return nk_fail(NK_EINVAL, err, errlen,
                           "%ld is none of the ownership patterns of %s (0, 1 to 5, -1 to -5)",
                           j, v->name);
        }
        if ((s >> full_index((int)j)) & 1u)
            return nk_fail(NK_EINVAL, err, errlen, "pattern %ld is listed twice", j);
        s |= UINT32_C(1) << full_index((int)j);
        if (*end == '\0')
            break;
        c = end + 1; /* past the comma */
    }
    for (unsigned k = 0; k < npat; k++)
        if ((s >> k) & 1u && !((s >> full_index(-full_bought(k))) & 1u))
            return nk_fail(NK_EINVAL, err, errlen,
                           "pattern %d without %d: a position of pattern %d with North to move "
                           "is stored as pattern %d with South to move, so a set holds both or "
                           "neither",
                           full_bought(k), -full_bought(k), full_bought(k), -full_bought(k));
    *set = s;
    return NK_OK;
}

int nk_tb_pattern_bought(const nk_tb *tb, unsigned k)
{
    int j = 0; /* stays 0 only if pat[] held no pattern: it holds the list's */
    north_bought(tb->pat[k], &j);
    return j;
}

bool nk_tb_holds_pattern(const nk_tb *tb, int bought)
{
    for (unsigned k = 0; k < tb->npat; k++)
        if (nk_tb_pattern_bought(tb, k) == bought)
            return true;
    return false;
}

void nk_tb_patterns_text(const nk_tb *tb, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (unsigned k = 0; k < tb->npat && n < len; k++) {
        int w = snprintf(out + n, len - n, "%s%d", k ? "," : "", nk_tb_pattern_bought(tb, k));
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

/* North's pits of the patterns of set, South to move, in the order of the
 * full list: the same set always gives the same layout. */
static void tb_patterns(nk_tb *tb, uint32_t set)
{
    tb->npat = 0;
    for (unsigned k = 0; k < variant_npat(tb->variant); k++)
        if ((set >> k) & 1u)
            tb->pat[tb->npat++] = bought_north(full_bought(k));
}

/* set: a valid set of v (set_valid), 0 for all of v's patterns. */
static void tb_layout(nk_tb *tb, const nk_variant *v, unsigned seeds, uint32_t set)
{
    tb->variant = v;
    tb->rules = *v;
    tb->rules.ends &= ~(1u << NK_END_MAJORITY); /* stores are not in the index */
    tb->seeds = seeds;
    tb->planes = v->win_needs_majority ? 2 : 1;
    tb_patterns(tb, set == 0 ? nk_tb_patterns_all(v) : set);
    tb->offset[0] = 0;
    for (unsigned b = 0; b <= seeds; b++)
        tb->offset[b + 1] = tb->offset[b] + tb->npat * nk_tb_count(b);
}

uint64_t nk_tb_bytes(const nk_tb *tb)
{
    return tb->planes * tb->offset[tb->seeds + 1];
}

/* ===== positions and their index ===== */

/* The South-to-move form of a position whose stores and flags the caller
 * has cleared: North to move turns the board by six pits. */
static void tb_turn(nk_pos *p)
{
    if (p->side == NK_SOUTH)
        return;
    nk_pos q = *p;
    unsigned north = 0;
    for (int i = 0; i < NK_PITS; i++) {
        int from = (i + NK_ROW) % NK_PITS;
        q.pit[i] = p->pit[from];
        if (!((p->north >> from) & 1u))
            north |= 1u << i;
    }
    q.north = (uint16_t)north;
    q.side = NK_SOUTH;
    *p = q;
}

static int tb_pattern(const nk_tb *tb, uint16_t north)
{
    for (unsigned k = 0; k < tb->npat; k++)
        if (tb->pat[k] == north)
            return (int)k;
    return -1;
}

/* Index (from offset[b]) of a position with stores and flags cleared, or -1
 * when its owners are no pattern. */
static int64_t tb_index(const nk_tb *tb, nk_pos p, unsigned b)
{
    tb_turn(&p);
    int k = tb_pattern(tb, p.north);
    if (k < 0)
        return -1;
    return (int64_t)((uint64_t)k * nk_tb_count(b) + nk_tb_rank(p.pit));
}

static void tb_position(const nk_tb *tb, unsigned b, uint64_t i, nk_pos *p)
{
    uint64_t n = nk_tb_count(b);
    memset(p, 0, sizeof *p);
    nk_tb_unrank(b, i % n, p->pit);
    p->north = tb->pat[i / n];
    p->side = NK_SOUTH;
}

/* The position of index i + 1 from that of i (same count, South to move):
 * the next composition in the order of the rank (the bars s_j above: the
 * first s_j that can move up by one does, the ones below it go back to
 * 0, 1, ...; in pits, the first nonempty pit t >= 1 gives one seed to pit
 * t - 1, which gets pit 0's seeds too), or a new unrank where the next
 * ownership pattern starts. */
static inline void tb_step(const nk_tb *tb, unsigned b, uint64_t count, uint64_t i1, nk_pos *p)
{
    if (i1 % count == 0) {
        tb_position(tb, b, i1, p);
        return;
    }
    unsigned t = 1;
    while (p->pit[t] == 0)
        t++;
    const uint8_t s0 = p->pit[0];
    p->pit[0] = 0;
    p->pit[t - 1] = (uint8_t)(s0 + 1);
    p->pit[t]--;
}

/* ===== the value of a move ===== */

enum { MOVE_KNOWN, MOVE_SAME };

typedef struct tb_move {
    int kind;        /* MOVE_KNOWN: value; MOVE_SAME: index and flip */
    int value;       /* seeds of the board the mover collects */
    int value_hi;    /* MOVE_KNOWN: the same with a capture's child at the hi
                        of the bounds whatever the rule (nk_tb_whole_build;
                        value otherwise) */
    int opp;         /* MOVE_KNOWN: those the opponent collects (his plane) */
    bool cycle;      /* a known value that rests on the repetition rule */
    uint64_t index;  /* MOVE_SAME: the child's index in the same count */
    bool flip;       /* MOVE_SAME: the child has the other side to move */
} tb_move;

/* The value x of entry i (from offset[b]) of data and the opponent's y. */
static inline void tb_pair(const nk_tb *tb, const uint8_t *data, unsigned b, uint64_t i, int *x,
                           int *y)
{
    uint8_t byte = data[tb->offset[b] + i];
    *x = byte & NK_TB_VALUE_MASK;
    *y = tb->planes == 2 ? (int)data[tb->offset[tb->seeds + 1] + tb->offset[b] + i]
                         : (int)b - *x;
}

/* What the move from p (stores 0, not over) to child is worth, given the
 * finished counts below b = the seeds on p's board; data holds them.  any,
 * when not NULL, holds instead the bounds whatever the rule of those
 * counts (nk_tb_whole's two planes, any + total the hi plane): a capture's
 * child is then at its lo (value) and its hi (value_hi). */
static void tb_move_value(const nk_tb *tb, const uint8_t *data, const uint8_t *any,
                          const nk_pos *p, nk_pos *child, unsigned b, tb_move *out)
{
    const nk_variant *v = &tb->rules;
    const int me = p->side;
    nk_result r;
    out->cycle = false;
    out->kind = MOVE_KNOWN;
    nk_end end = nk_pos_end_reached(v, child);
    if (end != NK_END_NONE) {
        nk_pos_result(v, child, end, &r);
        out->value = out->value_hi = (int)r.total[me];
        out->opp = (int)r.total[me ^ 1];
        return;
    }
    unsigned c = child->store[me];
    if (c > 0) { /* a capture: a smaller count, finished */
        nk_pos q = *child;
        q.store[0] = q.store[1] = 0;
        q.flags = 0;
        unsigned rest = b - c;
        int64_t i = tb_index(tb, q, rest);
        if (any != NULL) { /* the mover's share at the child's lo, at its hi */
            const uint64_t at = tb->offset[rest] + (uint64_t)i;
            const int lo = any[at], hi = any[tb->offset[tb->seeds + 1] + at];
            const bool same = child->side == me;
            out->value = (int)c + (same ? lo : (int)rest - hi);
            out->value_hi = (int)c + (same ? hi : (int)rest - lo);
            out->opp = (int)rest - (out->value - (int)c);
            return;
        }
        uint8_t byte = data[tb->offset[rest] + (uint64_t)i];
        int x, y;
        tb_pair(tb, data, rest, (uint64_t)i, &x, &y);
        out->value = out->value_hi = (int)c + (child->side == me ? x : y);
        out->opp = child->side == me ? y : x;
        out->cycle = (byte & NK_TB_CYCLE) != 0;
        return;
    }
    if (v->sowing == NK_SOW_RELAY && nk_pos_passes(child) == 1 &&
        nk_legal(v, child) == 1u << NK_PASS) {
        /* The opponent passed too: two passes end the game (R-K4). */
        nk_pos g = *child;
        nk_apply(v, &g, NK_PASS, NULL);
        end = nk_pos_end_reached(v, &g);
        nk_pos_result(v, &g, end, &r);
        out->value = out->value_hi = (int)r.total[me];
        out->opp = (int)r.total[me ^ 1];
        return;
    }
    /* The same count.  After one pass, a player who can sow has the moves
     * and children of the same position with no pass behind it. */
    nk_pos q = *child;
    q.flags = 0;
    out->kind = MOVE_SAME;
    out->index = (uint64_t)tb_index(tb, q, b);
    out->flip = child->side != me;
}

/* The moves of a live position p (stores 0): their values; returns the
 * mask of legal moves. */
static unsigned tb_moves(const nk_tb *tb, const uint8_t *data, const uint8_t *any,
                         const nk_pos *p, unsigned b, tb_move mv[NK_PASS + 1])
{
    unsigned legal = nk_legal(&tb->rules, p);
    for (unsigned m = legal; m; m &= m - 1) {
        int move = __builtin_ctz(m);
        nk_pos child = *p;
        nk_apply(&tb->rules, &child, move, NULL);
        tb_move_value(tb, data, any, p, &child, b, &mv[move]);
    }
    return legal;
}

/* ===== the build ===== */

static inline uint8_t ld(const uint8_t *a, uint64_t i)
{
    return __atomic_load_n(&a[i], __ATOMIC_RELAXED);
}

static inline void st(uint8_t *a, uint64_t i, uint8_t x)
{
    __atomic_store_n(&a[i], x, __ATOMIC_RELAXED);
}

/* Work arrays of one seed count.  on[i] has a bit for each move of
 * position i that stays on the count (bit m for move m, as nk_legal).  The
 * children of those moves (their indices, NOFLIP set when the child has the
 * same side to move) are stored, one after another in the chunk's own
 * array (CHUNK positions a chunk, arrays of the exact size), as long as they
 * fit the build's memory limit (the first pass keeps a chunk's list while
 * the lists kept so far and it fit, in whatever order the threads finish
 * the chunks); a chunk without its list computes its children again each
 * time a sweep needs them (level_compute).  Only the time differs. */
enum { CHUNK = 1 << 16, MOVES = NK_PASS + 1 };
#define NOFLIP 0x80000000u

typedef struct tb_chunk {
    uint32_t *edge;
    uint64_t len; /* children of the chunk's positions on the count */
} tb_chunk;

typedef struct tb_level {
    const nk_tb *tb;
    unsigned b;
    uint64_t n, count, nchunks; /* count: the positions of one pattern */
    uint8_t *lo, *hi; /* two planes: g and h (the database's own planes) */
    uint8_t *base;   /* best known move value + 1, 0 for none; 0xFF: over */
    uint8_t *xbase;  /* the same for hi: base in a build; in the bounds
                        whatever the rule (nk_tb_whole_build) each capture
                        at its child's hi */
    const uint8_t *any; /* the bounds whatever the rule of the counts below
                        (nk_tb_whole_build), else NULL (tb_move_value) */
    uint8_t *hbase;  /* two planes: least known opponent's value, 0xFF: none */
    uint8_t *cyc;    /* NK_TB_CYCLE or 0 */
    uint16_t *on;    /* the moves that stay on the count (bits, above) */
    tb_chunk *chunk;
    uint64_t room;   /* bytes the lists may take (0: none kept) */
    uint64_t used;   /* bytes the first pass asked for them */
    /* Which positions' bounds moved in the last sweep and in this one: two
     * bits a position side by side (bit 2i + par: this sweep, 2i + 1 - par:
     * the last), so that one read answers for both.  A position is
     * evaluated again only when one of its children moved since it was last
     * evaluated (every position in the first sweep).  The bits are small
     * enough to stay in the cache where the bounds are not. */
    uint64_t *moved;
    unsigned par;
    bool nomem;
} tb_level;

/* The number of bits of a move mask (13 bits), by a table: the portable
 * build has no popcount instruction, the library's is a call, and a sweep
 * needs it for every position. */
#define NK_P2(n) n, n + 1, n + 1, n + 2
#define NK_P4(n) NK_P2(n), NK_P2(n + 1), NK_P2(n + 1), NK_P2(n + 2)
#define NK_P6(n) NK_P4(n), NK_P4(n + 1), NK_P4(n + 1), NK_P4(n + 2)
#define NK_P8(n) NK_P6(n), NK_P6(n + 1), NK_P6(n + 1), NK_P6(n + 2)
#define NK_P10(n) NK_P8(n), NK_P8(n + 1), NK_P8(n + 1), NK_P8(n + 2)
#define NK_P12(n) NK_P10(n), NK_P10(n + 1), NK_P10(n + 1), NK_P10(n + 2)
static const uint8_t bits13[1u << MOVES] = {NK_P12(0), NK_P12(1)};

static inline unsigned pop16(unsigned x)
{
    return bits13[x];
}

/* Whether position x moved in the last sweep or in this one. */
static inline bool moved_either(const uint64_t *m, uint64_t x)
{
    return (__atomic_load_n(&m[x >> 5], __ATOMIC_RELAXED) >> (2 * (x & 31))) & 3u;
}

static inline void set_moved(uint64_t *m, unsigned par, uint64_t i)
{
    __atomic_fetch_or(&m[i >> 5], (uint64_t)1 << (2 * (i & 31) + par), __ATOMIC_RELAXED);
}

/* Whether one of the deg children in e moved in the last sweep or, earlier,
 * in this one (as the sweep reads the bounds in place, a move made earlier
 * in the same sweep is seen at once). */
static inline bool children_moved(const tb_level *L, const uint32_t *e, unsigned deg)
{
    for (unsigned j = 0; j < deg; j++)
        if (moved_either(L->moved, e[j] & ~NOFLIP))
            return true;
    return false;
}

/* The bits of one parity in every word: 0x55... (even) or 0xAA... (odd). */
static inline uint64_t parity_bits(unsigned par)
{
    return par ? UINT64_C(0xAAAAAAAAAAAAAAAA) : UINT64_C(0x5555555555555555);
}

/* Starts the first sweep: every position moved "in the last sweep". */
static void level_start(tb_level *L)
{
    L->par = 0;
    const uint64_t last = parity_bits(1);
    for (uint64_t w = 0; w < (L->n + 31) / 32; w++)
        L->moved[w] = last;
}

/* Ends a sweep: this sweep's bits become the last sweep's. */
static void level_turn(tb_level *L)
{
    L->par ^= 1;
    const uint64_t keep = ~parity_bits(L->par);
    for (uint64_t w = 0; w < (L->n + 31) / 32; w++)
        L->moved[w] &= keep;
}

/* The children on the count of position i, as the first pass found them
 * (tb_move_value, MOVE_SAME): the move applied by the engine to the
 * position, the child's index in e (NOFLIP when it has the same side to
 * move).  Returns their number. */
static unsigned level_compute(const tb_level *L, const nk_pos *pp, unsigned on, uint32_t e[MOVES])
{
    const nk_tb *tb = L->tb;
    const nk_pos p = *pp;
    unsigned d = 0;
    for (unsigned m = on; m; m &= m - 1) {
        nk_pos child = p;
        nk_apply(&tb->rules, &child, __builtin_ctz(m), NULL);
        nk_pos q = child;
        q.flags = 0;
        e[d++] = (uint32_t)tb_index(tb, q, L->b) | (child.side != p.side ? 0 : NOFLIP);
    }
    return d;
}

/* The end of chunk k of n positions (one past its last position). */
static inline uint64_t chunk_end(uint64_t n, uint64_t k)
{
    return (k + 1) * CHUNK < n ? (k + 1) * CHUNK : n;
}

/* First pass: terminal positions, known move values, starting bounds, and
 * the moves that stay on the count (on[], and their number in each chunk). */
static void level_init(const nk_tb *tb, const uint8_t *data, tb_level *L)
{
    const unsigned b = L->b;
    bool nomem = false;
#pragma omp parallel if (L->nchunks > 1) reduction(|| : nomem)
    {
    /* The children of a chunk, kept when the lists fit (L->room). */
    uint32_t *scratch = L->room > 0 ? malloc(CHUNK * MOVES * sizeof *scratch) : NULL;
    nomem |= L->room > 0 && scratch == NULL;
#pragma omp for schedule(dynamic, 1)
    for (uint64_t k = 0; k < L->nchunks; k++) {
        tb_chunk *c = &L->chunk[k];
        const uint64_t end_i = chunk_end(L->n, k);
        uint32_t *e = scratch;
        c->len = 0;
        nk_pos p;
        tb_position(tb, b, k * CHUNK, &p);
        for (uint64_t i = k * CHUNK; i < end_i; i++) {
            if (i > k * CHUNK)
                tb_step(tb, b, L->count, i, &p);
            L->on[i] = 0;
            L->cyc[i] = 0;
            nk_end end = nk_pos_end(&tb->rules, &p);
            if (end != NK_END_NONE) {
                nk_result r;
                nk_pos_result(&tb->rules, &p, end, &r);
                L->lo[i] = (uint8_t)r.total[NK_SOUTH];
                L->hi[i] = (uint8_t)(L->hbase ? r.total[NK_NORTH] : r.total[NK_SOUTH]);
                L->base[i] = 0xFF;
                continue;
            }
            tb_move mv[NK_PASS + 1];
            unsigned legal = tb_moves(tb, data, L->any, &p, b, mv);
            int best = -1, xbest = -1, least = 0xFF;
            bool cyc = false;
            unsigned on = 0;
            for (unsigned m = legal; m; m &= m - 1) {
                const int move = __builtin_ctz(m);
                const tb_move *x = &mv[move];
                if (x->kind == MOVE_KNOWN) {
                    if (x->value > best)
                        best = x->value;
                    if (x->value_hi > xbest)
                        xbest = x->value_hi;
                    if (x->opp < least)
                        least = x->opp;
                    cyc |= x->cycle;
                } else {
                    on |= 1u << move;
                    if (e)
                        *e++ = (uint32_t)x->index | (x->flip ? 0 : NOFLIP);
                }
            }
            L->on[i] = (uint16_t)on;
            c->len += pop16(on);
            L->base[i] = (uint8_t)(best + 1);
            L->xbase[i] = (uint8_t)(xbest + 1); /* a build: xbase is base, xbest best */
            L->lo[i] = (uint8_t)(best < 0 ? 0 : best);
            if (L->hbase) { /* h starts at 0 below its moves on the count */
                L->hbase[i] = (uint8_t)least;
                L->hi[i] = (uint8_t)(on ? 0 : least);
            } else {
                L->hi[i] = (uint8_t)(on ? (int)b : xbest);
            }
            L->cyc[i] = cyc ? NK_TB_CYCLE : 0;
        }
        /* Keep the chunk's children while they fit in the room left. */
        if (scratch && c->len > 0 &&
            __atomic_add_fetch(&L->used, c->len * sizeof *e, __ATOMIC_RELAXED) <= L->room) {
            c->edge = malloc(c->len * sizeof *c->edge);
            if (c->edge)
                memcpy(c->edge, scratch, c->len * sizeof *c->edge);
            else
                nomem = true;
        }
    }
    free(scratch);
    }
    L->nomem = nomem;
}

/* Frees the children's lists, and gives the memory back to the system
 * (glibc keeps freed blocks of its heaps otherwise: the next count may be
 * one that computes its children because they would not fit). */
static void level_free(tb_level *L, uint64_t nchunks)
{
    bool any = false;
    for (uint64_t k = 0; k < nchunks; k++) {
        any |= L->chunk[k].edge != NULL;
        free(L->chunk[k].edge);
        L->chunk[k].edge = NULL;
    }
#ifdef __GLIBC__
    if (any)
        malloc_trim(0);
#else
    (void)any;
#endif
}

/* The walks over a count's positions by their children on the count, one
 * sweep each: the bounds of one plane (lo and hi towards each other), the
 * two planes (g and h growing), the cycle mark (spreading to parents). */
enum { WALK_BOUNDS, WALK_PLANES, WALK_MARK };

/* Whether a walk of kind has nothing to do at position i, whose children
 * it need not read: one plane's bounds have met, the mark is set. */
static inline bool walk_settled(const tb_level *L, uint64_t i, const int kind)
{
    if (kind == WALK_BOUNDS)
        return ld(L->lo, i) == ld(L->hi, i);
    if (kind == WALK_MARK)
        return ld(L->cyc, i) != 0;
    return false;
}

/* Stores position i's new lo where lo_moved, its new hi where hi_moved,
 * and marks it moved in this sweep; returns the number of values that
 * moved. */
static inline uint64_t visit_store(tb_level *L, uint64_t i, bool lo_moved, int lo, bool hi_moved,
                                   int hi)
{
    uint64_t moved = 0;
    if (lo_moved) {
        st(L->lo, i, (uint8_t)lo);
        moved++;
    }
    if (hi_moved) {
        st(L->hi, i, (uint8_t)hi);
        moved++;
    }
    if (moved)
        set_moved(L->moved, L->par, i);
    return moved;
}

/* One plane: lo and hi of position i from its deg children e (and its
 * known moves, base), when a child moved; returns the bounds that moved. */
static inline uint64_t visit_bounds(tb_level *L, uint64_t i, const uint32_t *e, unsigned deg)
{
    if (!children_moved(L, e, deg))
        return 0;
    const int b = (int)L->b;
    const uint8_t lo = ld(L->lo, i), hi = ld(L->hi, i);
    int nlo = (int)L->base[i] - 1, nhi = (int)L->xbase[i] - 1;
    for (unsigned j = 0; j < deg; j++) {
        uint32_t x = e[j] & ~NOFLIP;
        int clo = ld(L->lo, x), chi = ld(L->hi, x);
        bool flip = !(e[j] & NOFLIP);
        int a = flip ? b - chi : clo; /* what the mover forces */
        int z = flip ? b - clo : chi; /* what he may hope for */
        if (a > nlo)
            nlo = a;
        if (z > nhi)
            nhi = z;
    }
    return visit_store(L, i, nlo > lo, nlo, nhi < hi, nhi);
}

/* Two planes (speightstown): g and h of position i, both growing to their
 * least fixpoint; returns the values that moved. */
static inline uint64_t visit_planes(tb_level *L, uint64_t i, const uint32_t *e, unsigned deg)
{
    if (!children_moved(L, e, deg))
        return 0;
    const uint8_t g = ld(L->lo, i), h = ld(L->hi, i);
    int ng = (int)L->base[i] - 1, nh = L->hbase[i];
    for (unsigned j = 0; j < deg; j++) {
        uint32_t x = e[j] & ~NOFLIP;
        int cg = ld(L->lo, x), ch = ld(L->hi, x);
        bool flip = !(e[j] & NOFLIP);
        int mine = flip ? ch : cg, theirs = flip ? cg : ch;
        if (mine > ng)
            ng = mine;
        if (theirs < nh)
            nh = theirs;
    }
    return visit_store(L, i, ng > g, ng, nh > h, nh);
}

/* The cycle mark of position i (not marked): set when a child has it. */
static inline uint64_t visit_mark(tb_level *L, uint64_t i, const uint32_t *e, unsigned deg)
{
    for (unsigned j = 0; j < deg; j++)
        if (ld(L->cyc, e[j] & ~NOFLIP)) {
            st(L->cyc, i, NK_TB_CYCLE);
            return 1;
        }
    return 0;
}

/* One chunk of a walk: each position with children on the count and
 * something to do gets them from the chunk's list (stored) or computes
 * them from its position, stepped from the one before it (tb_step).
 * stored and kind are constants at each call, so that the compiler makes
 * one loop for each pair; returns what moved. */
static inline __attribute__((always_inline)) uint64_t walk_chunk(tb_level *L, uint64_t k,
                                                                 const bool stored, const int kind)
{
    uint64_t moved = 0;
    const uint32_t *ep = L->chunk[k].edge;
    uint32_t tmp[MOVES];
    const uint64_t end_i = chunk_end(L->n, k);
    nk_pos p; /* position i, where the children are computed */
    if (!stored)
        tb_position(L->tb, L->b, k * CHUNK, &p);
    for (uint64_t i = k * CHUNK; i < end_i; i++) {
        if (!stored && i > k * CHUNK)
            tb_step(L->tb, L->b, L->count, i, &p);
        const unsigned deg = pop16(L->on[i]);
        if (kind != WALK_BOUNDS && deg == 0) /* one plane: walk_settled skips them */
            continue;
        if (walk_settled(L, i, kind)) {
            if (stored)
                ep += deg;
            continue;
        }
        const uint32_t *e;
        if (stored) {
            e = ep;
            ep += deg;
        } else {
            level_compute(L, &p, L->on[i], tmp);
            e = tmp;
        }
        if (kind == WALK_BOUNDS)
            moved += visit_bounds(L, i, e, deg);
        else if (kind == WALK_PLANES)
            moved += visit_planes(L, i, e, deg);
        else
            moved += visit_mark(L, i, e, deg);
    }
    return moved;
}

/* Chunk k of a walk of kind, by the loop made for its kind and whether it
 * keeps its list. */
static uint64_t walk_any(tb_level *L, uint64_t k, int kind)
{
    const bool stored = L->chunk[k].edge != NULL; /* else computed (none, or no room) */
    switch (kind) {
    case WALK_BOUNDS:
        return stored ? walk_chunk(L, k, true, WALK_BOUNDS) : walk_chunk(L, k, false, WALK_BOUNDS);
    case WALK_PLANES:
        return stored ? walk_chunk(L, k, true, WALK_PLANES) : walk_chunk(L, k, false, WALK_PLANES);
    default:
        return stored ? walk_chunk(L, k, true, WALK_MARK) : walk_chunk(L, k, false, WALK_MARK);
    }
}

/* One walk of kind over the count, the chunks shared by the threads;
 * returns the number of values that moved (0: the fixpoint). */
static uint64_t level_walk(tb_level *L, int kind)
{
    uint64_t moved = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : moved) if (L->nchunks > 1)
    for (uint64_t k = 0; k < L->nchunks; k++)
        moved += walk_any(L, k, kind);
    return moved;
}

/* ===== retrograde analysis: the same fixpoint from the parents' lists ===== */

/* The fixpoint of lo and hi is a game: for each position i two states, (i,
 * lo) where the mover is X and (i, hi) where the mover is his opponent Y,
 * with X's share of the board as the payoff, an infinite play worth 0 to X
 * (lo is the least fixpoint, hi the greatest).  X's share is lo(i) at (i,
 * lo) and B - hi(i) at (i, hi); a move to c keeps the mover's role when the
 * side to move stays (NOFLIP) and gives it to the other state otherwise.
 * X forces at least t from the states of the attractor A_t of the exits
 * worth at least t to him: a state of X is in it when one exit or one child
 * is, a state of Y when all his exits and all his children are.  A_t only
 * grows as t falls, so one pass from t = B down to 1 enters each state once,
 * at its value, and each move is followed back once per state of its child:
 * linear in the moves, where the sweeps walk the bounds down a seed at a
 * time along the cycles (docs/speed.md, "Endgame databases").  The result is
 * the same fixpoint as the sweeps', so the same bytes.
 *
 * Speightstown's two planes are the same game: g is X's share at (i, g),
 * where X moves, and h is X's share at (i, h), where his opponent moves and
 * takes the least (both least fixpoints, an infinite play worth 0); only
 * the value stored at Y's states differs (h = t, not B - t). */

/* The parents of each position on the count: those of c are
 * par[first[c] .. first[c + 1]), each a parent's index with NOFLIP when the
 * move keeps the side to move (in no particular order: the threads fill
 * them). */
typedef struct tb_back {
    uint32_t *first; /* n + 1 */
    uint32_t *par;   /* one a stored child */
    uint8_t *left;   /* the children of (i, hi) not yet in the attractor */
} tb_back;

/* The bytes the parents' lists need beyond the children's, or 0 when the
 * children's lists are not all kept or the states do not fit 32 bits. */
static uint64_t back_bytes(const tb_level *L)
{
    uint64_t edges = 0;
    for (uint64_t k = 0; k < L->nchunks; k++) {
        if (L->chunk[k].len > 0 && L->chunk[k].edge == NULL)
            return 0;
        edges += L->chunk[k].len;
    }
    if (edges >= UINT32_MAX || 2 * L->n >= UINT32_MAX)
        return 0;
    return 4 * (L->n + 1) + 4 * edges + L->n;
}

/* Turns the children's lists into the parents' (the children's are
 * freed). */
static bool back_build(tb_level *L, tb_back *bk)
{
    const uint64_t n = L->n;
    uint64_t edges = 0;
    for (uint64_t k = 0; k < L->nchunks; k++)
        edges += L->chunk[k].len;
    bk->first = calloc(n + 1, sizeof *bk->first);
    bk->par = malloc((edges ? edges : 1) * sizeof *bk->par);
    bk->left = malloc(n ? n : 1);
    if (!bk->first || !bk->par || !bk->left)
        return false;
    uint32_t *first = bk->first;
#pragma omp parallel for schedule(dynamic, 1) if (L->nchunks > 1)
    for (uint64_t k = 0; k < L->nchunks; k++) {
        const tb_chunk *c = &L->chunk[k];
        for (uint64_t j = 0; j < c->len; j++)
            __atomic_fetch_add(&first[c->edge[j] & ~NOFLIP], 1, __ATOMIC_RELAXED);
    }
    for (uint64_t c = 1; c < n; c++) /* first[c]: the end of c's parents */
        first[c] += first[c - 1];
    first[n] = (uint32_t)edges;
#pragma omp parallel for schedule(dynamic, 1) if (L->nchunks > 1)
    for (uint64_t k = 0; k < L->nchunks; k++) {
        const uint32_t *e = L->chunk[k].edge;
        const uint64_t end_i = chunk_end(n, k);
        for (uint64_t i = k * CHUNK; i < end_i; i++) {
            const unsigned deg = pop16(L->on[i]);
            bk->left[i] = (uint8_t)deg;
            for (unsigned j = 0; j < deg; j++, e++) {
                uint32_t at = __atomic_sub_fetch(&first[*e & ~NOFLIP], 1, __ATOMIC_RELAXED);
                bk->par[at] = (uint32_t)i | (*e & NOFLIP);
            }
        }
        free(L->chunk[k].edge);
        L->chunk[k].edge = NULL;
    }
    return true;
}

static void back_free(tb_back *bk)
{
    free(bk->first);
    free(bk->par);
    free(bk->left);
    memset(bk, 0, sizeof *bk);
}

/* A thread's states entered and not yet followed back (i << 1 | role). */
typedef struct tb_stack {
    uint32_t *s;
    uint64_t top, cap;
    bool nomem;
} tb_stack;

static inline void stack_push(tb_stack *st, uint32_t s)
{
    if (st->top == st->cap) {
        uint64_t cap = st->cap ? 2 * st->cap : 1u << 12;
        uint32_t *x = realloc(st->s, cap * sizeof *x);
        if (!x) {
            st->nomem = true;
            return;
        }
        st->s = x;
        st->cap = cap;
    }
    st->s[st->top++] = s;
}

/* X's exits: the best known move's value (-1 for none), or an end's. */
static inline int exit_x(const tb_level *L, uint64_t i)
{
    return L->base[i] == 0xFF ? (int)L->lo[i] : (int)L->base[i] - 1;
}

/* The least share Y's exits leave X (more than B for none).  Two planes:
 * X's share at (i, h) is h itself, the least opponent's value among the
 * known moves (0xFF for none). */
static inline int exit_y(const tb_level *L, uint64_t i)
{
    const int b = (int)L->b;
    if (L->hbase)
        return L->base[i] == 0xFF ? (int)L->hi[i] : (int)L->hbase[i];
    if (L->base[i] == 0xFF)
        return b - (int)L->lo[i];
    return L->xbase[i] ? b - ((int)L->xbase[i] - 1) : b + 1;
}

/* hi of a state (i, hi) that is not in the attractor yet: X's share 0 (B -
 * 0 for one plane, 0 for the second plane). */
static inline uint8_t y_out(const tb_level *L)
{
    return L->hbase ? 0 : (uint8_t)L->b;
}

/* Enters a state at threshold t when it is not in yet: X's (i, lo) gets lo
 * = t, Y's (i, hi) gets hi = B - t (two planes: h = t); each once: the
 * threads race for it. */
static inline bool enter_x(tb_level *L, uint32_t i, int t)
{
    uint8_t zero = 0;
    /* a plain read first: most parents met are in already */
    return ld(L->lo, i) == 0 && __atomic_compare_exchange_n(&L->lo[i], &zero, (uint8_t)t, false,
                                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static inline bool enter_y(tb_level *L, uint32_t i, int t)
{
    uint8_t out = y_out(L);
    const uint8_t in = (uint8_t)(L->hbase ? (unsigned)t : L->b - (unsigned)t);
    return __atomic_compare_exchange_n(&L->hi[i], &out, in, false, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED);
}

/* Follows the thread's entered states back to their parents at t. */
static void back_drain(tb_level *L, const tb_back *bk, tb_stack *st, int t)
{
    while (st->top > 0 && !st->nomem) {
        const uint32_t s = st->s[--st->top];
        const uint32_t c = s >> 1, role = s & 1u;
        for (uint32_t j = bk->first[c]; j < bk->first[c + 1]; j++) {
            const uint32_t p = bk->par[j] & ~NOFLIP;
            const uint32_t prole = (bk->par[j] & NOFLIP) ? role : role ^ 1u;
            if (prole == 0) { /* X moves at (p, lo): one child is enough */
                if (enter_x(L, p, t))
                    stack_push(st, p << 1);
            } else if (__atomic_sub_fetch(&bk->left[p], 1, __ATOMIC_RELAXED) == 0 &&
                       exit_y(L, p) >= t && enter_y(L, p, t)) { /* Y: all of them */
                stack_push(st, p << 1 | 1u);
            }
        }
    }
}

/* The fixpoint of lo and hi by the attractors (above); false when out of
 * memory.  The threads share each threshold's positions and follow back
 * what they enter; the values do not depend on who enters what. */
static bool level_retro(tb_level *L, const tb_back *bk)
{
    const uint64_t n = L->n;
    const int b = (int)L->b;
    for (uint64_t i = 0; i < n; i++)
        if (L->base[i] != 0xFF) { /* not yet entered: X's share 0 */
            L->lo[i] = 0;
            L->hi[i] = y_out(L);
        }
    bool nomem = false;
#pragma omp parallel if (L->nchunks > 1) reduction(|| : nomem)
    {
        tb_stack st = {0};
        for (int t = b; t >= 1; t--) {
#pragma omp for schedule(dynamic, 1)
            for (uint64_t k = 0; k < L->nchunks; k++) {
                const uint64_t end_i = chunk_end(n, k);
                for (uint64_t i = k * CHUNK; i < end_i && !st.nomem; i++) {
                    const bool over = L->base[i] == 0xFF;
                    if (exit_x(L, i) == t && (over || enter_x(L, (uint32_t)i, t))) {
                        stack_push(&st, (uint32_t)i << 1);
                        back_drain(L, bk, &st, t);
                    }
                    if (exit_y(L, i) == t &&
                        (over || (__atomic_load_n(&bk->left[i], __ATOMIC_RELAXED) == 0 &&
                                  enter_y(L, (uint32_t)i, t)))) {
                        stack_push(&st, (uint32_t)i << 1 | 1u);
                        back_drain(L, bk, &st, t);
                    }
                }
            }
            /* the implied barrier: threshold t is finished before t - 1 */
        }
        nomem |= st.nomem;
        free(st.s);
    }
    return !nomem;
}

/* The cycle mark from the parents' lists: every parent of a marked position
 * is marked (the fixpoint of level_walk's WALK_MARK).  Marks made by the
 * walks below are WALKED until the end, so that each position starts at
 * most one walk. */
enum { WALKED = 0x80 };
static bool back_mark(tb_level *L, const tb_back *bk)
{
    bool nomem = false;
#pragma omp parallel if (L->nchunks > 1) reduction(|| : nomem)
    {
        tb_stack st = {0};
#pragma omp for schedule(dynamic, 1)
        for (uint64_t k = 0; k < L->nchunks; k++) {
            const uint64_t end_i = chunk_end(L->n, k);
            for (uint64_t i = k * CHUNK; i < end_i && !st.nomem; i++) {
                /* a position marked before the pass starts a walk; one a
                 * walk marks (WALKED) is followed by that walk */
                if (__atomic_load_n(&L->cyc[i], __ATOMIC_RELAXED) != NK_TB_CYCLE)
                    continue;
                st.top = 0;
                stack_push(&st, (uint32_t)i);
                while (st.top > 0 && !st.nomem) {
                    const uint32_t c = st.s[--st.top];
                    for (uint32_t j = bk->first[c]; j < bk->first[c + 1]; j++) {
                        const uint32_t p = bk->par[j] & ~NOFLIP;
                        uint8_t zero = 0;
                        if (ld(L->cyc, p) == 0 &&
                            __atomic_compare_exchange_n(&L->cyc[p], &zero, WALKED, false,
                                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                            stack_push(&st, p);
                    }
                }
            }
        }
        nomem |= st.nomem;
        free(st.s);
    }
#pragma omp parallel for schedule(static) if (L->nchunks > 1)
    for (uint64_t i = 0; i < L->n; i++)
        if (L->cyc[i] == WALKED)
            L->cyc[i] = NK_TB_CYCLE;
    return !nomem;
}

nk_status nk_tb_build(nk_tb *tb, const nk_variant *v, unsigned seeds, int threads,
                      nk_tb_stats *stats, char *err, size_t errlen)
{
    return nk_tb_build_within(tb, v, seeds, threads, 0, stats, err, errlen);
}

nk_status nk_tb_build_within(nk_tb *tb, const nk_variant *v, unsigned seeds, int threads,
                             uint64_t max_bytes, nk_tb_stats *stats, char *err, size_t errlen)
{
    return nk_tb_build_patterns(tb, v, seeds, 0, threads, max_bytes, stats, err, errlen);
}

/* The work arrays of a build, sized for its largest count (top
 * positions), shared by the counts in turn (tb_level). */
typedef struct tb_work {
    uint64_t top, nch, words; /* positions, chunks, words of moved bits */
    bool whole;               /* the bounds whatever the rule (nk_tb_whole_build) */
    uint8_t *out;             /* the result: the database, or the two planes of bounds */
    uint8_t *hi, *base, *xbase, *cyc, *hbase;
    uint16_t *on;
    tb_chunk *chunk;
    uint64_t *bits;
    uint64_t fixed; /* bytes the build holds besides the children's lists */
} tb_work;

/* Allocates the result (w->out: the database, or with w->whole the two
 * planes of bounds beside tb's database) and the work arrays of tb's
 * layout; false when out of memory (work_free frees what was allocated,
 * the caller w->out). */
static bool work_alloc(const nk_tb *tb, tb_work *w)
{
    const uint64_t total = tb->offset[tb->seeds + 1];
    const uint64_t top = w->top;
    const bool two = tb->planes == 2;
    w->nch = (top + CHUNK - 1) / CHUNK;
    w->words = (top + 31) / 32; /* two bits a position */
    w->out = malloc((w->whole ? 2 : tb->planes) * total);
    w->hi = two || w->whole ? NULL : malloc(top); /* whole: the hi plane */
    w->xbase = w->whole ? malloc(top) : NULL;
    w->base = malloc(top);
    w->cyc = malloc(top);
    w->hbase = two ? malloc(top) : NULL;
    w->on = malloc(top * sizeof *w->on);
    w->chunk = calloc(w->nch, sizeof *w->chunk);
    w->bits = malloc(w->words * sizeof *w->bits);
    int nthreads = 1;
#ifdef _OPENMP
    nthreads = omp_get_max_threads();
#endif
    /* What the build holds besides the children's lists: the database, five
     * bytes of work a position of the largest count, the bits, the chunks,
     * and each thread's list of one chunk (level_init). */
    w->fixed = tb->planes * total + (w->whole ? 2 * total : 0) + 5 * top +
               w->words * sizeof *w->bits + w->nch * sizeof *w->chunk +
               (uint64_t)nthreads * CHUNK * MOVES * sizeof(uint32_t);
    return w->bits && w->out && (two || w->whole || w->hi) && (!two || w->hbase) &&
           (!w->whole || w->xbase) && w->base && w->cyc && w->on && w->chunk;
}

static void work_free(tb_work *w)
{
    free(w->chunk);
    free(w->hi);
    free(w->bits);
    free(w->hbase);
    free(w->xbase);
    free(w->base);
    free(w->cyc);
    free(w->on);
}

/* The fixpoint of count L->b's values, with the cycle mark (one plane):
 * by retrograde analysis where the parents' lists fit, else by sweeps;
 * false when out of memory.  Counts what it did in s. */
static bool level_solve(tb_level *L, nk_tb_stats *s)
{
    const bool two = L->hbase != NULL;
    const uint64_t extra = back_bytes(L);
    const bool retro = extra > 0 && L->used <= L->room && extra <= L->room - L->used;
    tb_back bk = {0};
    bool ok = true;
    if (retro) {
        ok = back_build(L, &bk) && level_retro(L, &bk);
        s->retro++;
    } else {
        while (level_walk(L, two ? WALK_PLANES : WALK_BOUNDS) != 0) {
            level_turn(L);
            s->sweeps++;
        }
        s->sweeps++;
    }
    if (ok && !two && L->any == NULL) { /* two planes: no cycle, the fixpoints are the
                                           values; the bounds whatever the rule: no mark */
        for (uint64_t i = 0; i < L->n; i++)
            if (L->lo[i] != L->hi[i])
                L->cyc[i] = NK_TB_CYCLE;
        if (retro)
            ok = back_mark(L, &bk);
        else
            while (level_walk(L, WALK_MARK) != 0)
                ;
    }
    back_free(&bk);
    return ok;
}

/* One plane: the database's bytes of count L->b, the forced value where
 * lo = hi, else the repetition's value clamped to [lo, hi], with the cycle
 * mark; returns the number of positions marked.  Each position from the
 * one before it (tb_step). */
static uint64_t level_values(const nk_tb *tb, tb_level *L)
{
    uint64_t ncyc = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : ncyc) if (L->nchunks > 1)
    for (uint64_t k = 0; k < L->nchunks; k++) {
        const uint64_t end_i = chunk_end(L->n, k);
        nk_pos p;
        tb_position(tb, L->b, k * CHUNK, &p);
        for (uint64_t i = k * CHUNK; i < end_i; i++) {
            if (i > k * CHUNK)
                tb_step(tb, L->b, L->count, i, &p);
            int x;
            if (L->lo[i] == L->hi[i]) {
                x = L->lo[i];
            } else { /* the repetition's value here, clamped */
                nk_result r;
                nk_pos_result(&tb->rules, &p, NK_END_REPETITION, &r);
                x = (int)r.total[NK_SOUTH];
                if (x < L->lo[i])
                    x = L->lo[i];
                if (x > L->hi[i])
                    x = L->hi[i];
            }
            L->lo[i] = (uint8_t)(x | L->cyc[i]);
            ncyc += L->cyc[i] != 0;
        }
    }
    return ncyc;
}

/* Solves count b of tb from the finished counts below it, within
 * max_bytes (0: no limit): the database's fixpoint into w->out, or with
 * w->whole the bounds whatever the rule (lo into w->out's first plane, hi
 * into its second, the counts below read from them).  False when out of
 * memory. */
static bool build_count(const nk_tb *tb, tb_work *w, unsigned b, uint64_t max_bytes,
                        nk_tb_stats *s)
{
    const bool two = tb->planes == 2;
    const uint64_t total = tb->offset[tb->seeds + 1];
    tb_level L = {.tb = tb,
                  .b = b,
                  .count = nk_tb_count(b),
                  .n = tb->npat * nk_tb_count(b),
                  .lo = w->out + tb->offset[b],
                  .hi = two || w->whole ? w->out + total + tb->offset[b] : w->hi,
                  .base = w->base,
                  .xbase = w->whole ? w->xbase : w->base,
                  .any = w->whole ? w->out : NULL,
                  .hbase = w->hbase,
                  .cyc = w->cyc,
                  .on = w->on,
                  .chunk = w->chunk,
                  .moved = w->bits};
    L.nchunks = (L.n + CHUNK - 1) / CHUNK;
    L.room = max_bytes == 0 ? UINT64_MAX : max_bytes > w->fixed ? max_bytes - w->fixed : 0;
    level_init(tb, w->whole ? tb->data : w->out, &L);
    if (L.nomem) {
        level_free(&L, L.nchunks);
        return false;
    }
    bool all = true; /* every chunk keeps its children */
    for (uint64_t k = 0; k < L.nchunks; k++)
        all &= w->chunk[k].len == 0 || w->chunk[k].edge != NULL;
    s->computed += !all;
    level_start(&L);
    const bool ok = level_solve(&L, s);
    level_free(&L, L.nchunks);
    if (ok && w->whole) { /* the positions whose bounds stay apart */
        for (uint64_t i = 0; i < L.n; i++)
            s->cycle += L.lo[i] != L.hi[i];
    } else if (ok && !two) {
        s->cycle += level_values(tb, &L);
    }
    return ok;
}

/* The checks of nk_tb_build_patterns' arguments. */
static nk_status build_check(const nk_variant *v, unsigned seeds, uint32_t patterns, char *err,
                             size_t errlen)
{
    nk_status st0 = nk_tb_supported(v, err, errlen);
    if (st0 != NK_OK)
        return st0;
    if (patterns != 0 && !set_valid(v, patterns))
        return nk_fail(NK_EINVAL, err, errlen,
                       "pattern set 0x%x: not a set of %s's ownership patterns closed under "
                       "turning the board",
                       (unsigned)patterns, v->name);
    if (seeds > NK_TB_MAX_SEEDS)
        return nk_fail(NK_ERANGE, err, errlen, "seeds %u: at most %d", seeds, NK_TB_MAX_SEEDS);
    return NK_OK;
}

/* Solves every count of tb's layout, smallest first, with `threads`
 * threads (0: OpenMP's default) within max_bytes: the database, or with
 * w->whole its bounds whatever the rule, into w->out; s gets what was done
 * and the wall time.  False when out of memory (w->out freed). */
static bool build_all(const nk_tb *tb, tb_work *w, int threads, uint64_t max_bytes,
                      nk_tb_stats *s)
{
#ifdef _OPENMP
    if (threads > 0)
        omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *s = (nk_tb_stats){.positions = tb->offset[tb->seeds + 1]};
    bool ok = work_alloc(tb, w);
    for (unsigned b = 0; b <= tb->seeds && ok; b++)
        ok = build_count(tb, w, b, max_bytes, s);
    work_free(w);
    if (!ok) {
        free(w->out);
        w->out = NULL;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    s->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return ok;
}

nk_status nk_tb_build_patterns(nk_tb *tb, const nk_variant *v, unsigned seeds, uint32_t patterns,
                               int threads, uint64_t max_bytes, nk_tb_stats *stats, char *err,
                               size_t errlen)
{
    memset(tb, 0, sizeof *tb);
    nk_status st0 = build_check(v, seeds, patterns, err, errlen);
    if (st0 != NK_OK)
        return st0;
    tb_layout(tb, v, seeds, patterns);
    const uint64_t total = tb->offset[seeds + 1];
    tb_work w = {.top = tb->npat * nk_tb_count(seeds)};
    if (w.top >= NOFLIP)
        return nk_fail(NK_ERANGE, err, errlen, "seeds %u: too many positions for the index",
                       seeds);
    nk_tb_stats s;
    if (!build_all(tb, &w, threads, max_bytes, &s)) {
        memset(tb, 0, sizeof *tb);
        return nk_fail(NK_ENOMEM, err, errlen, "no memory for a database of %llu positions",
                       (unsigned long long)total);
    }
    tb->data = tb->owned = w.out;
    if (stats)
        *stats = s;
    return NK_OK;
}

/* ===== the bounds whatever the rule over the whole database ===== */

nk_status nk_tb_whole_build(nk_tb_whole *out, const nk_tb *tb, int threads, uint64_t max_bytes,
                            nk_tb_stats *stats, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (tb->planes != 1)
        return nk_fail(NK_EINVAL, err, errlen,
                       "bounds: a two-plane database (%s): no value rests on the repetition rule",
                       tb->variant->name);
    const uint64_t total = tb->offset[tb->seeds + 1];
    tb_work w = {.top = tb->npat * nk_tb_count(tb->seeds), .whole = true};
    nk_tb_stats s;
    if (!build_all(tb, &w, threads, max_bytes, &s))
        return nk_fail(NK_ENOMEM, err, errlen,
                       "no memory for the bounds of a database of %llu positions",
                       (unsigned long long)total);
    out->tb = tb;
    out->owned = w.out;
    out->lo = w.out;
    out->hi = w.out + total;
    if (stats)
        *stats = s;
    return NK_OK;
}

nk_status nk_tb_whole_get(const nk_tb_whole *w, const nk_pos *pos, int *lo, int *hi)
{
    uint8_t byte;
    nk_status st = nk_tb_probe(w->tb, pos, &byte);
    if (st != NK_OK)
        return st;
    if (!(byte & NK_TB_CYCLE)) {
        *lo = *hi = byte & NK_TB_VALUE_MASK;
        return NK_OK;
    }
    unsigned b;
    uint64_t i;
    nk_tb_entry(w->tb, pos, &b, &i);
    *lo = w->lo[w->tb->offset[b] + i]; /* the entry's mover is pos's */
    *hi = w->hi[w->tb->offset[b] + i];
    return NK_OK;
}

/* ===== probes ===== */

nk_status nk_tb_probe(const nk_tb *tb, const nk_pos *pos, uint8_t *byte)
{
    int theirs;
    return nk_tb_probe_pair(tb, pos, byte, &theirs);
}

int nk_tb_outcome(const nk_tb *tb, const nk_pos *pos, int mine, int theirs)
{
    const int me = pos->side;
    const int s = (int)pos->store[me], t = (int)pos->store[me ^ 1];
    if (tb->planes == 2) {
        const int maj = (int)nk_pos_total(pos) / 2 + 1; /* R-B5 */
        return s + mine >= maj ? 1 : t + theirs >= maj ? -1 : 0;
    }
    return s + mine > t + theirs ? 1 : s + mine < t + theirs ? -1 : 0;
}

nk_status nk_tb_probe_pair(const nk_tb *tb, const nk_pos *pos, uint8_t *byte, int *theirs)
{
    unsigned b = nk_pos_on_board(pos);
    if (b > tb->seeds)
        return NK_ERANGE;
    const nk_variant *v = &tb->rules;
    nk_pos p = *pos;
    p.store[0] = p.store[1] = 0;
    const int me = p.side;
    /* Owners that are no pattern of the database are outside it, even
     * where the rules alone give the value below. */
    nk_pos t = p;
    tb_turn(&t);
    const int k = tb_pattern(tb, t.north);
    if (k < 0)
        return NK_EINVAL;
    nk_end end = nk_pos_end_reached(v, &p);
    if (end != NK_END_NONE) { /* over already (R-K4, R-K5 use the flags) */
        nk_result r;
        nk_pos_result(v, &p, end, &r);
        *byte = (uint8_t)r.total[me];
        *theirs = (int)r.total[me ^ 1];
        return NK_OK;
    }
    if (v->sowing == NK_SOW_RELAY && nk_pos_passes(&p) == 1 &&
        nk_legal(v, &p) == 1u << NK_PASS) {
        nk_pos g = p;
        nk_result r;
        nk_apply(v, &g, NK_PASS, NULL);
        nk_pos_result(v, &g, nk_pos_end_reached(v, &g), &r);
        *byte = (uint8_t)r.total[me];
        *theirs = (int)r.total[me ^ 1];
        return NK_OK;
    }
    /* The index of tb_index, from the turned board found above. */
    const uint64_t i = (uint64_t)k * nk_tb_count(b) + nk_tb_rank(t.pit);
    int x;
    *byte = tb->data[tb->offset[b] + i];
    tb_pair(tb, tb->data, b, i, &x, theirs);
    return NK_OK;
}

nk_status nk_tb_move_values(const nk_tb *tb, const nk_pos *pos, unsigned *mask,
                            int out[NK_PASS + 1], unsigned *cycle)
{
    return nk_tb_move_pairs(tb, pos, mask, out, NULL, cycle);
}

nk_status nk_tb_move_pairs(const nk_tb *tb, const nk_pos *pos, unsigned *mask,
                           int out[NK_PASS + 1], int theirs[NK_PASS + 1], unsigned *cycle)
{
    unsigned b = nk_pos_on_board(pos);
    if (b > tb->seeds)
        return NK_ERANGE;
    nk_pos p = *pos;
    p.store[0] = p.store[1] = 0;
    nk_pos q = p;
    q.flags = 0;
    if (tb_index(tb, q, b) < 0)
        return NK_EINVAL;
    tb_move mv[NK_PASS + 1];
    unsigned legal = tb_moves(tb, tb->data, NULL, &p, b, mv);
    unsigned cyc = 0;
    for (unsigned m = legal; m; m &= m - 1) {
        int move = __builtin_ctz(m);
        const tb_move *x = &mv[move];
        if (x->kind == MOVE_KNOWN) {
            out[move] = x->value;
            if (theirs)
                theirs[move] = x->opp;
            if (x->cycle)
                cyc |= 1u << move;
        } else {
            uint8_t byte = tb->data[tb->offset[b] + x->index];
            int cx, cy;
            tb_pair(tb, tb->data, b, x->index, &cx, &cy);
            out[move] = x->flip ? cy : cx;
            if (theirs)
                theirs[move] = x->flip ? cx : cy;
            if (byte & NK_TB_CYCLE)
                cyc |= 1u << move;
        }
    }
    *mask = legal;
    if (cycle)
        *cycle = cyc;
    return NK_OK;
}

nk_status nk_tb_entry(const nk_tb *tb, const nk_pos *pos, unsigned *b, uint64_t *index)
{
    const unsigned n = nk_pos_on_board(pos);
    if (n > tb->seeds)
        return NK_ERANGE;
    nk_pos p = *pos;
    p.store[0] = p.store[1] = 0;
    p.flags = 0;
    const int64_t i = tb_index(tb, p, n);
    if (i < 0)
        return NK_EINVAL;
    *b = n;
    *index = (uint64_t)i;
    return NK_OK;
}

void nk_tb_entry_pos(const nk_tb *tb, unsigned b, uint64_t index, nk_pos *pos)
{
    tb_position(tb, b, index, pos);
}

/* For file.c: the layout of a database of v to `seeds` with the patterns
 * of the header, pat[0..npat-1] (North's pits); false when they are not a
 * valid set of v in the fixed order. */
bool nk_tb_layout(nk_tb *tb, const nk_variant *v, unsigned seeds, unsigned npat,
                  const uint16_t *pat);
bool nk_tb_layout(nk_tb *tb, const nk_variant *v, unsigned seeds, unsigned npat,
                  const uint16_t *pat)
{
    uint32_t set = 0;
    int last = -1;
    if (npat == 0 || npat > variant_npat(v))
        return false;
    for (unsigned i = 0; i < npat; i++) {
        int k = -1;
        for (unsigned f = 0; f < variant_npat(v); f++)
            if (bought_north(full_bought(f)) == pat[i])
                k = (int)f;
        if (k <= last) /* none of v's, out of order, or twice */
            return false;
        set |= UINT32_C(1) << k;
        last = k;
    }
    if (!set_valid(v, set))
        return false;
    tb_layout(tb, v, seeds, set);
    return true;
}
