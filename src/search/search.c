/*
 * search.c -- negamax alpha-beta, iterative deepening, transposition table
 * (contract in search.h).
 *
 * Invariants:
 *  - a node's score is from the view of its side to move; a child whose
 *    side to move is the same (Antigua's extra move, R-W8) is taken as is,
 *    any other child negated with the window swapped;
 *  - the path since the last capture is a chain of stack frames (one per
 *    ancestor below the root, as in perft.c), continued at the root by the
 *    game's history; a frame reached by a capture ends the chain, since the
 *    stores only grow and nothing older can repeat;
 *  - the table is valid for one nk_search_best only (entries carry the age
 *    of the search that wrote them), so searches do not depend on earlier
 *    ones;
 *  - nothing allocates after nk_search_new.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "search/search.h"
#include "base/alloc.h"
#include "tb/tb.h"

/* ===== transposition table ===== */

/* Nodes this close to the horizon skip the table: their subtrees cost
 * less than the cache miss of a probe. */
enum { TT_MIN_DEPTH = 2 };

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3, BOUND_MASK = 3, HORIZON = 4 };

typedef struct tt_entry {
    uint64_t key;
    double score;
    uint16_t age;
    int8_t move;   /* best or refuting move, NK_NO_MOVE if none */
    uint8_t depth;
    uint8_t flags; /* bound | HORIZON: an evaluation lies below */
} tt_entry;

/* One link of the search path (see the invariants above). */
typedef struct frame {
    const struct frame *up;
    uint64_t hash;
    uint64_t bloom;    /* bit hash >> 58 of this frame and of those above it
                          up to the first reached by a capture */
    unsigned ply;      /* plies below the root */
    bool by_capture;   /* reached by a capture */
    bool captured;     /* this frame or one above it was reached by a capture */
} frame;

static inline uint64_t bloom_bit(uint64_t hash)
{
    return 1ull << (hash >> 58);
}

enum { NO_PLY = 0xFFFFFFFFu };

struct nk_search {
    nk_eval eval;
    nk_view view;       /* whose view the leaves are evaluated from */
    const nk_tb *tb;    /* endgame database probed below the root (NULL: none) */
    bool tb_cycle;      /* a probed value had NK_TB_CYCLE */
    int bound;          /* nk_search_set_bound: 0, or +1 / -1 for bound_side */
    uint8_t bound_side;
    bool collect;       /* nk_search_set_collect: score collect_side's seeds */
    uint8_t collect_side;
    uint8_t root_side;  /* the root's side to move (view NK_VIEW_ROOT) */
    tt_entry *tt;       /* NULL: no table */
    uint64_t tt_mask;   /* entries - 1; entries are used in pairs */
    uint16_t age;
    /* State of the search in progress. */
    const nk_game *game;
    unsigned plies_left; /* plies from the root to the ply limit (R-G1) */
    uint64_t nodes, node_limit;
    uint64_t check_at;  /* node count at which to look at the budgets again */
    double deadline;    /* CLOCK_MONOTONIC seconds, 0: none */
    bool stopped;       /* a budget ran out: unwind */
    bool horizon;       /* an evaluation lies below the current node */
    unsigned rep_ply;   /* shallowest path frame that a position below the
                           current node repeated (NO_PLY: none) */
    uint64_t seen[64];  /* 4096-bit filter of the game's hashes since its last capture */
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

nk_status nk_search_new(nk_search **out, const nk_eval *eval, unsigned tt_mb)
{
    *out = NULL;
    if (tt_mb > 65536)
        return NK_ERANGE;
    nk_search *s = nk_calloc(1, sizeof *s);
    if (s == NULL)
        return NK_ENOMEM;
    s->eval = *eval;
    if (tt_mb > 0) {
        uint64_t want = ((uint64_t)tt_mb << 20) / sizeof(tt_entry), n = 2;
        while (n * 2 <= want)
            n *= 2;
        s->tt = nk_calloc(n, sizeof *s->tt);
        if (s->tt == NULL) {
            nk_free(s);
            return NK_ENOMEM;
        }
        s->tt_mask = n - 1;
    }
    *out = s;
    return NK_OK;
}

void nk_search_set_view(nk_search *s, nk_view view)
{
    s->view = view;
}

void nk_search_set_tb(nk_search *s, const nk_tb *tb)
{
    s->tb = tb;
}

void nk_search_set_bound(nk_search *s, int bound, int side)
{
    s->bound = bound > 0 ? 1 : bound < 0 ? -1 : 0;
    s->bound_side = (uint8_t)side;
}

void nk_search_set_collect(nk_search *s, int side)
{
    s->collect = side == NK_SOUTH || side == NK_NORTH;
    s->collect_side = (uint8_t)(s->collect ? side : 0);
}

/* Collect mode: the seeds `mine` that collect_side ends with, from the
 * side to move's view. */
static inline double collect_score(const nk_search *s, const nk_pos *pos, int mine)
{
    return (pos->side == s->collect_side ? mine : -mine) * NK_SCORE_SEED;
}

/* Collect mode: a finished game scored by collect_side's total. */
static double collect_terminal(const nk_search *s, const nk_pos *pos, nk_end end)
{
    nk_result r;
    nk_pos_result(s->eval.variant, pos, end, &r);
    return collect_score(s, pos, (int)r.total[s->collect_side]);
}

void nk_search_free(nk_search *s)
{
    if (s == NULL)
        return;
    nk_free(s->tt);
    nk_free(s);
}

void nk_search_clear(nk_search *s)
{
    if (s->tt != NULL)
        memset(s->tt, 0, (s->tt_mask + 1) * sizeof *s->tt);
    s->age = 0;
}

static uint64_t tt_key(const nk_pos *pos)
{
    return pos->hash ^ (uint64_t)pos->flags * 0x9E3779B97F4A7C15ull;
}

/* The entry of this search for key, or NULL.  Both slots are compared
 * without branches (a hit or a miss is hard to predict): the one branch
 * is the caller's, on the result. */
static const tt_entry *tt_probe(const nk_search *s, uint64_t key)
{
    const tt_entry *e = &s->tt[key & s->tt_mask & ~1ull];
    const bool hit0 = (e[0].key == key) & (e[0].age == s->age);
    const bool hit1 = (e[1].key == key) & (e[1].age == s->age);
    return (hit0 | hit1) ? e + !hit0 : NULL;
}

/* Slot 0 of a pair keeps the deeper entry of this search, slot 1 the
 * latest. */
static void tt_store(nk_search *s, uint64_t key, double score, int move, int depth,
                     unsigned flags)
{
    tt_entry *e = &s->tt[key & s->tt_mask & ~1ull];
    e += !((e[0].age != s->age) | (e[0].key == key) | (e[0].depth <= depth)); /* no branch */
    e->key = key;
    e->score = score;
    e->age = s->age;
    e->move = (int8_t)move;
    e->depth = (uint8_t)depth;
    e->flags = (uint8_t)flags;
}

/* ===== repetition (R-W10, R-K7) ===== */

static unsigned seen_bit(uint64_t hash)
{
    return (unsigned)(hash >> 52);
}

static void seen_build(nk_search *s, const nk_game *g)
{
    memset(s->seen, 0, sizeof s->seen);
    for (unsigned k = g->since; k <= g->ply; k++) {
        unsigned b = seen_bit(g->hist[k]);
        s->seen[b >> 6] |= 1ull << (b & 63);
    }
}

/* True when hash repeats a position of the path (frames from `up`) or, if
 * no capture lies on the path, of the game since its last capture.  A
 * match on the path is noted in rep_ply: the values above it, down to the
 * matched frame, depend on the path and must not enter the table. */
static bool repeats_slow(nk_search *s, const frame *f, uint64_t hash)
{
    for (; f != NULL; f = f->up) {
        if (f->hash == hash) {
            if (f->ply < s->rep_ply)
                s->rep_ply = f->ply;
            return true;
        }
        if (f->by_capture)
            return false;
    }
    unsigned b = seen_bit(hash);
    if (!((s->seen[b >> 6] >> (b & 63)) & 1u))
        return false;
    return nk_game_repeats(s->game, hash);
}

static inline bool repeats(nk_search *s, const frame *up, const nk_pos *pos)
{
    /* The filters are read whatever the answer (fewer branches that depend
     * on the position): the path's down to its first capture, and the
     * game's, which counts only when no capture lies on the path. */
    const uint64_t hash = pos->hash;
    const unsigned b = seen_bit(hash);
    uint64_t bloom = 0, game = 1;
    if (up != NULL) {
        bloom = up->bloom;
        game = !up->captured;
    }
    const uint64_t on_path = (bloom >> (hash >> 58)) & 1u;
    const uint64_t in_game = (s->seen[b >> 6] >> (b & 63)) & game;
    /* A position reached by a capture repeats nothing (the stores grew). */
    if (!((on_path | in_game) & ~(uint64_t)pos->flags & NK_POS_CAPTURED))
        return false;
    return repeats_slow(s, on_path ? up : NULL, hash);
}

/* ===== move lists and order ===== */

/* Moves in search order, handed out in stages so that a node cut off by
 * its first moves does not order or make the rest:
 *  1. the table's move, `first`;
 *  2. captures, larger first, ties in pit order.  Warri captures are
 *     predicted all at once when stage 2 starts: entry[next..n), each
 *     packing (key << 4) | (15 - move), so that decreasing entries give
 *     larger keys first and, among equal keys, pits in increasing order.
 *     A relay capture always takes one four (R-K2), so relay captures tie:
 *     the relays are made in pit order (`pending`: the candidates not made
 *     yet) and a capture is handed out as soon as it is found;
 *  3. the rest, `quiet`, in pit order; in the relay family the pass when no
 *     move is legal (R-K4).
 * Relay children are kept by move in child[]; Warri children are made by
 * the caller (list_child). */
typedef struct move_list {
    int n, next;
    int first;         /* the table's move, not handed out yet (NK_NO_MOVE: none) */
    bool legal;        /* relay: a legal move was made */
    unsigned pending;  /* candidates of stage 2 and 3 not looked at yet */
    unsigned quiet;
    unsigned entry[NK_PASS + 1];
    nk_pos child[NK_PASS + 1];
} move_list;

/* Inserts a move of that key among entries [0, n). */
static void list_add(move_list *ml, unsigned key, int move)
{
    unsigned e = key << 4 | (unsigned)(15 - move);
    int i = ml->n++;
    for (; i > 0 && ml->entry[i - 1] < e; i--)
        ml->entry[i] = ml->entry[i - 1];
    ml->entry[i] = e;
}

/* Seeds the Warri move from pit o (holding n seeds) would capture, by
 * arithmetic on the landing pit and the chain behind it (the grand-slam
 * and feeding rules ignored: this only orders moves).  A sowing of n <= 11
 * seeds adds one seed to every pit from the opponent's foot to its landing
 * pit; a longer one adds q = (n - 1) / 11 laps more.  `weak`: the
 * opponent's pits holding 1 or 2 seeds, the only ones where a sowing of at
 * most 11 can end a capture. */
static unsigned warri_capture_guess(const nk_pos *p, int o, unsigned weak)
{
    const unsigned n = p->pit[o];
    const int lo = (p->side ^ 1) * NK_ROW;
    unsigned add = 1, r = n;
    if (n > 11) {
        add = (n - 1) / 11 + 1;
        r = (n - 1) % 11 + 1;
    }
    int j = o + (int)r;
    if (j >= NK_PITS)
        j -= NK_PITS;
    if (n <= 11 && !((weak >> j) & 1u))
        return 0;
    if ((unsigned)(j - lo) >= NK_ROW)
        return 0; /* lands in the mover's own row */
    unsigned sum = 0;
    for (; j >= lo; j--) {
        const unsigned c = p->pit[j] + add;
        if (c - 2 > 1) /* neither 2 nor 3 */
            break;
        sum += c;
    }
    return sum;
}

/* Mask of the six pits from row[0] that hold 1 or 2 seeds, by SWAR on the
 * bytes (a pit of 129 or 130 seeds counts too: this only orders moves). */
static inline unsigned weak_pits(const uint8_t *row)
{
    const uint64_t hi = 0x8080808080808080ull, lo7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t x;
    memcpy(&x, row, sizeof x);
    /* Per byte: b - 1 (kept in 7 bits), then is it 0 or 1? */
    const uint64_t d = ((x | hi) - 0x0101010101010101ull) & ~0x0101010101010101ull;
    const uint64_t z = d ^ hi;                        /* zero iff b - 1 is 0 or 1 */
    const uint64_t zero = ~(((z & lo7) + lo7) | z | lo7); /* high bit of zero bytes */
    return (unsigned)((((zero >> 7) * 0x0102040810204080ull) >> 56) & 0x3Fu);
}

/* Mask of the six pits from row[0] that hold 12 seeds or more, by SWAR on
 * the bytes: per byte, bit 7 of ((b & 0x7F) + 116) | b. */
static inline unsigned lapping_pits(const uint8_t *row)
{
    const uint64_t hi = 0x8080808080808080ull, lo7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t x;
    memcpy(&x, row, sizeof x);
    const uint64_t big = ((((x & lo7) + 0x7474747474747474ull) | x) & hi) >> 7;
    return (unsigned)(((big * 0x0102040810204080ull) >> 56) & 0x3Fu);
}

/* Starts the list of the moves worth trying from pos (see move_list);
 * `first` is the table's move, if any.  Warri moves are made as they are
 * searched (a move that does not feed, R-W4, is dropped then); relay moves
 * as the list is walked, since only the relay tells whether it captures
 * and whether it ends (R-K3). */
static inline void gen_moves(const nk_variant *v, const nk_pos *pos, int first, move_list *ml)
{
    unsigned cand = nk_candidates(v, pos);
    ml->n = ml->next = 0;
    ml->quiet = 0;
    ml->legal = false;
    ml->first = NK_NO_MOVE;
    if (first >= 0 && first < NK_PITS && ((cand >> first) & 1u)) {
        cand &= ~(1u << first);
        ml->first = first;
    }
    ml->pending = cand;
}

/* Stage 2 of the Warri family: the pending candidates that capture, by
 * warri_capture_guess, go to the sorted entries, the rest to quiet.  The
 * search spends much of its time here and on branches it mispredicts, so
 * the candidates worth a guess are found first without a branch per
 * pit. */
static void warri_order(const nk_pos *pos, move_list *ml)
{
    const int lo = (pos->side ^ 1) * NK_ROW;
#ifdef __SSE2__
    /* The same suspects with SSE2 over the 16 bytes that start the
     * position: a pit of the mover's k-th place holding n <= 11 seeds ends
     * in the opponent's t-th pit when k + n = 6 + t, so the bytes n + k
     * (saturating) are compared with 6 + t for each weak pit t of the
     * opponent (pits of 1 or 2 seeds: few), and pits of 12 seeds or more
     * are suspects as they are. */
    static const uint8_t place[16] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0};
    __m128i x, k;
    _Static_assert(sizeof(nk_pos) >= 16, "nk_pos holds 16 bytes from pit[0]");
    memcpy(&x, pos->pit, 16);
    memcpy(&k, place, 16);
    const unsigned weak = (unsigned)_mm_movemask_epi8(
                              _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(1)),
                                           _mm_cmpeq_epi8(x, _mm_set1_epi8(2)))) &
                          (0x3Fu << lo);
    const __m128i landing = _mm_adds_epu8(x, k);
    __m128i hit = _mm_cmpeq_epi8(_mm_subs_epu8(x, _mm_set1_epi8(11)), _mm_setzero_si128());
    hit = _mm_xor_si128(hit, _mm_cmpeq_epi8(hit, hit)); /* 12 seeds or more */
    for (unsigned w = weak >> lo; w; w &= w - 1)
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(landing,
                                               _mm_set1_epi8((char)(NK_ROW + __builtin_ctz(w)))));
    unsigned suspects = (unsigned)_mm_movemask_epi8(hit) & ml->pending;
    const unsigned weak_abs = weak;
#else
    const int me = pos->side * NK_ROW;
    const unsigned weak = weak_pits(pos->pit + lo);
    /* The pits k of the mover's row whose guess can be non-zero, in straight
     * code (no branch on the counts): a sowing of n <= 11 seeds ending in a
     * weak pit t = k + n - 6 of the opponent's row (in either row's
     * numbering), or one of 12 seeds or more. */
    unsigned suspects = lapping_pits(pos->pit + me);
    /* Pit k with n <= 11 seeds ends in bit k + n of weak << 6 (bits 6..11:
     * the opponent's pits); a lapping pit is a suspect already, whatever
     * its shift (taken mod 64) reads. */
    const uint64_t target = (uint64_t)weak << NK_ROW;
    const uint8_t *row = pos->pit + me;
    suspects |= (unsigned)((target >> ((0u + row[0]) & 63u)) & 1u) |
                (unsigned)((target >> ((1u + row[1]) & 63u)) & 1u) << 1 |
                (unsigned)((target >> ((2u + row[2]) & 63u)) & 1u) << 2 |
                (unsigned)((target >> ((3u + row[3]) & 63u)) & 1u) << 3 |
                (unsigned)((target >> ((4u + row[4]) & 63u)) & 1u) << 4 |
                (unsigned)((target >> ((5u + row[5]) & 63u)) & 1u) << 5;
    suspects = (suspects << me) & ml->pending;
    const unsigned weak_abs = weak << lo;
#endif
    ml->quiet = ml->pending;
    for (; suspects; suspects &= suspects - 1) {
        const int mv = __builtin_ctz(suspects);
        const unsigned guess = warri_capture_guess(pos, mv, weak_abs);
        if (guess) {
            list_add(ml, guess, mv);
            ml->quiet &= ~(1u << mv);
        }
    }
    ml->pending = 0;
}

/* The relay move mv made into child[mv]; false if it is endless (R-K3). */
static inline bool relay_make(const nk_variant *v, const nk_pos *pos, move_list *ml, int mv,
                              nk_ply_info *info)
{
    ml->child[mv] = *pos;
    if (!nk_apply(v, &ml->child[mv], mv, info))
        return false;
    ml->legal = true;
    return true;
}

/* Relay stages 2 and 3 once the entries are used up: makes the pending
 * relays in pit order up to the next capture; then the quiet moves, or
 * the pass when no move is legal (R-K4). */
static int relay_next(const nk_variant *v, const nk_pos *pos, move_list *ml)
{
    while (ml->pending) {
        const int mv = __builtin_ctz(ml->pending);
        nk_ply_info info;
        ml->pending &= ml->pending - 1;
        if (!relay_make(v, pos, ml, mv, &info))
            continue;
        if (info.captured)
            return mv;
        ml->quiet |= 1u << mv;
    }
    if (ml->quiet == 0) {
        if (ml->legal)
            return NK_NO_MOVE;
        relay_make(v, pos, ml, NK_PASS, NULL);
        return NK_PASS;
    }
    const int mv = __builtin_ctz(ml->quiet);
    ml->quiet &= ml->quiet - 1;
    return mv;
}

/* The next move to try, or NK_NO_MOVE when none is left. */
static inline int next_move(const nk_variant *v, const nk_pos *pos, move_list *ml)
{
    if (ml->first != NK_NO_MOVE) {
        const int mv = ml->first;
        ml->first = NK_NO_MOVE;
        /* A relay table move is legal (it was searched): made here. */
        if (v->sowing != NK_SOW_RELAY || relay_make(v, pos, ml, mv, NULL))
            return mv;
    }
    if (v->sowing == NK_SOW_RELAY) {
        if (ml->next < ml->n)
            return 15 - (int)(ml->entry[ml->next++] & 15u);
        return relay_next(v, pos, ml);
    }
    if (ml->pending)
        warri_order(pos, ml); /* clears pending */
    if (ml->next < ml->n)
        return 15 - (int)(ml->entry[ml->next++] & 15u);
    if (ml->quiet == 0)
        return NK_NO_MOVE;
    const int mv = __builtin_ctz(ml->quiet);
    ml->quiet &= ml->quiet - 1;
    return mv;
}

/* The position that move mv of the list leads to (in buf for the Warri
 * family), or NULL if that move is not legal after all. */
static inline const nk_pos *list_child(const nk_variant *v, const nk_pos *pos,
                                       move_list *ml, int mv, nk_pos *buf)
{
    if (v->sowing == NK_SOW_RELAY)
        return &ml->child[mv];
    *buf = *pos;
    return nk_apply(v, buf, mv, NULL) ? buf : NULL;
}

/* ===== the search ===== */

/* Budgets are looked at when the node count reaches check_at: never
 * during the first iteration, then at the node budget and every 1024 nodes
 * for a time budget. */
enum { CLOCK_EVERY = 1024 };

static void arm_budgets(nk_search *s)
{
    s->check_at = s->node_limit ? s->node_limit : UINT64_MAX;
    if (s->deadline > 0 && s->nodes + CLOCK_EVERY < s->check_at)
        s->check_at = s->nodes + CLOCK_EVERY;
}

static bool budget_spent(nk_search *s)
{
    if (s->node_limit && s->nodes >= s->node_limit)
        return true;
    if (s->deadline > 0 && now_seconds() >= s->deadline)
        return true;
    arm_budgets(s);
    return false;
}

/* Step 2b, with an endgame database: a live position with at most its
 * seeds on the board is scored by its value v (the board seeds the side to
 * move collects under perfect play) as the game that ends with the mover's
 * store plus v against the opponent's plus the rest of the board: the seed
 * difference times NK_SCORE_SEED, as nk_eval_terminal scores a finished
 * game.  False (search on) for a position outside the database. */
static bool tb_node(nk_search *s, const nk_pos *pos, double *score)
{
    const unsigned board = nk_pos_on_board(pos);
    uint8_t byte;
    int theirs;
    if (board > s->tb->seeds || nk_tb_probe_pair(s->tb, pos, &byte, &theirs) != NK_OK)
        return false;
    const int v = byte & NK_TB_VALUE_MASK, me = pos->side;
    s->tb_cycle |= (byte & NK_TB_CYCLE) != 0;
    if (s->collect) {
        /* What collect_side forces: plane 0 when it moves, else plane 1. */
        const int cs = s->collect_side;
        *score = collect_score(s, pos, (int)pos->store[cs] + (me == cs ? v : theirs));
        return true;
    }
    int diff = (int)pos->store[me] + v - ((int)pos->store[me ^ 1] + (int)board - v);
    if (s->tb->planes == 2) {
        /* Speightstown: the result is the database's (R-W12: a win needs
         * the majority, else a draw); a win is scored by the split in which
         * the mover gets what he forces, a loss by the one in which the
         * opponent does, as nk_eval_terminal scores finished games. */
        const int out = nk_tb_outcome(s->tb, pos, v, theirs);
        if (out == 0)
            diff = 0;
        else if (out < 0)
            diff = (int)pos->store[me] + (int)board - theirs -
                   ((int)pos->store[me ^ 1] + theirs);
    }
    *score = diff * NK_SCORE_SEED;
    return true;
}

/* Steps 1 and 2 of every node: counts it, stops the search once a budget
 * is spent, and scores a finished game exactly, its end found in the
 * order of R-G4: the position's own rules, repetition, the ply limit.
 * True when the node is done (*score set, 0 when stopped). */
static inline __attribute__((always_inline)) bool
node_done(nk_search *s, const nk_pos *pos, const frame *up, unsigned ply, double *score)
{
    const nk_variant *v = s->eval.variant;
    if (++s->nodes >= s->check_at && budget_spent(s)) {
        s->stopped = true;
        *score = 0.0;
        return true;
    }
    /* Every node below the root was reached from a node where no end rule
     * held (the root's game is live, and a node that ends has no children). */
    nk_end end = nk_pos_end_reached(v, pos);
    if (end == NK_END_NONE && repeats(s, up, pos))
        end = NK_END_REPETITION;
    if (end == NK_END_NONE && ply >= s->plies_left)
        end = NK_END_PLY_LIMIT;
    if (end == NK_END_NONE)
        return __builtin_expect(s->tb != NULL, 0) && tb_node(s, pos, score);
    *score = __builtin_expect(s->collect, 0) ? collect_terminal(s, pos, end)
                                             : nk_eval_terminal(v, pos, end);
    return true;
}

/* The evaluation of pos from its side to move's view (negamax's
 * convention).  root: the evaluation from the root player's fixed view
 * (plain minimax's), negated where the other side is to move; the features
 * of a position are computed from its side to move, so the root's view is
 * that of the position with the root to move. */
static inline __attribute__((always_inline)) double eval_node(const nk_search *s,
                                                              const nk_pos *pos, bool root)
{
    if (!root || pos->side == s->root_side)
        return nk_eval_score(&s->eval, pos);
    nk_pos mine = *pos;
    mine.side = s->root_side;
    return -nk_eval_score(&s->eval, &mine);
}

/* A horizon leaf under nk_search_set_bound: the game that ends with every
 * board seed to bound_side (+1) or to the other side (-1), scored as a
 * finished game from the side to move's view. */
static double bound_leaf(const nk_search *s, const nk_pos *pos)
{
    const int board = (int)nk_pos_on_board(pos), me = pos->side;
    if (s->collect) {
        const int cs = s->collect_side;
        const int all = (cs == s->bound_side) == (s->bound > 0);
        return collect_score(s, pos, (int)pos->store[cs] + (all ? board : 0));
    }
    const int mine = ((me == s->bound_side) == (s->bound > 0)) ? board : 0;
    const int diff = (int)pos->store[me] + mine - ((int)pos->store[me ^ 1] + board - mine);
    return diff * NK_SCORE_SEED;
}

/* A node at depth 0: a finished game's score, else the evaluation. */
static inline __attribute__((always_inline)) double
leaf_node(nk_search *s, const nk_pos *pos, const frame *up, unsigned ply, bool root)
{
    double score;
    if (node_done(s, pos, up, ply, &score))
        return score;
    s->horizon = true;
    if (__builtin_expect(s->bound != 0, 0))
        return bound_leaf(s, pos);
    return eval_node(s, pos, root);
}

/* Each node function exists twice: for the side to move's view (the
 * default) and for the root's (root = true, constant in each copy), so the
 * default pays no test per node for the other. */
static double search_node(nk_search *s, const nk_pos *pos, const frame *up, int depth,
                          double alpha, double beta, unsigned ply);
static double frontier_node(nk_search *s, const nk_pos *pos, const frame *up, double alpha,
                            double beta, unsigned ply);
static double search_node_root(nk_search *s, const nk_pos *pos, const frame *up, int depth,
                               double alpha, double beta, unsigned ply);
static double frontier_node_root(nk_search *s, const nk_pos *pos, const frame *up,
                                 double alpha, double beta, unsigned ply);

/* A node of depth >= 1 (steps 1, 2 and 4 to 7 of search_node).  Inlined
 * into two functions: search_node for depths of 2 and more, and
 * frontier_node for depth 1, whose copy loses the table and the depth
 * tests (their outcome is a constant there).
 * nk: long function: the search's node, read as its numbered steps 4 to 7
 * in one piece; it is inlined twice, and the steps share the node's state
 * (bounds, best move, the moves' list). */
static inline __attribute__((always_inline)) double
inner_node(nk_search *s, const nk_pos *pos, const frame *up, int depth, double alpha,
           double beta, unsigned ply, bool root)
{
    const nk_variant *v = s->eval.variant;
    double score;

    /* Steps 1, 2: count the node, score a finished game. */
    if (node_done(s, pos, up, ply, &score))
        return score;

    /* Step 4: the table: a cutoff at exactly this depth, else a first move.
     * Not within reach of the ply limit, where the value depends on the
     * ply as well as on the position, nor next to the horizon. */
    const bool use_tt = s->tt != NULL && depth >= TT_MIN_DEPTH &&
                        ply + (unsigned)depth < s->plies_left;
    const uint64_t key = use_tt ? tt_key(pos) : 0;
    int first = NK_NO_MOVE;
    if (use_tt) {
        const tt_entry *e = tt_probe(s, key);
        if (e != NULL) {
            first = e->move;
            const unsigned bound = e->flags & BOUND_MASK;
            if (e->depth == depth &&
                (bound == BOUND_EXACT || (bound == BOUND_LOWER && e->score >= beta) ||
                 (bound == BOUND_UPPER && e->score <= alpha))) {
                s->horizon |= (e->flags & HORIZON) != 0;
                return e->score;
            }
        }
    }

    /* Step 5: the moves, best first. */
    move_list ml;
    gen_moves(v, pos, first, &ml);

    /* Step 6: negamax over the children, fail-soft.  A child with the same
     * side to move (R-W8) is taken without a sign flip. */
    const bool by_capture = (pos->flags & NK_POS_CAPTURED) != 0;
    uint64_t up_bloom = 0;
    bool up_captured = false;
    if (up != NULL) {
        up_bloom = up->bloom;
        up_captured = up->captured;
    }
    const frame here = {up, pos->hash,
                        bloom_bit(pos->hash) | (up_bloom & ((uint64_t)by_capture - 1u)), ply,
                        by_capture, by_capture | up_captured};
    const bool outer_horizon = s->horizon;
    const unsigned outer_rep = s->rep_ply;
    const double alpha0 = alpha;
    double best = -NK_SCORE_INF;
    int best_move = NK_NO_MOVE;
    s->horizon = false;
    s->rep_ply = NO_PLY;
    for (int mv = next_move(v, pos, &ml); mv != NK_NO_MOVE; mv = next_move(v, pos, &ml)) {
        nk_pos buf;
        const nk_pos *child = list_child(v, pos, &ml, mv, &buf);
        if (child == NULL)
            continue;
        const bool same = child->side == pos->side;
        if (depth > TT_MIN_DEPTH && s->tt != NULL) /* the child's probe, early */
            __builtin_prefetch(&s->tt[tt_key(child) & s->tt_mask & ~1ull]);
        if (depth == 1) {
            score = leaf_node(s, child, &here, ply + 1, root);
            if (!same)
                score = -score;
        } else if (depth == 2 && root) {
            score = same ? frontier_node_root(s, child, &here, alpha, beta, ply + 1)
                         : -frontier_node_root(s, child, &here, -beta, -alpha, ply + 1);
        } else if (depth == 2) {
            score = same ? frontier_node(s, child, &here, alpha, beta, ply + 1)
                         : -frontier_node(s, child, &here, -beta, -alpha, ply + 1);
        } else if (root) {
            score = same ? search_node_root(s, child, &here, depth - 1, alpha, beta, ply + 1)
                         : -search_node_root(s, child, &here, depth - 1, -beta, -alpha, ply + 1);
        } else if (same) {
            score = search_node(s, child, &here, depth - 1, alpha, beta, ply + 1);
        } else {
            score = -search_node(s, child, &here, depth - 1, -beta, -alpha, ply + 1);
        }
        if (s->stopped)
            return 0.0;
        /* Without branches on the score but the cutoff: alpha is at least
         * best throughout, and starts below beta. */
        const bool better = score > best;
        best_move = better ? mv : best_move;
        best = better ? score : best;
        alpha = best > alpha ? best : alpha;
        if (alpha >= beta)
            break;
    }
    if (best_move == NK_NO_MOVE) {
        /* No legal move yet no end rule: cannot happen under docs/rules.md
         * (R-W7/R-W9 end such Warri positions, relay has the pass). */
        s->horizon = true;
        best = eval_node(s, pos, root);
    }

    /* Step 7: remember the result, unless it rests on a repetition of a
     * position above this one (graph history: another path to here would
     * not repeat it). */
    const bool below = s->horizon;
    const bool path_bound = s->rep_ply < ply;
    s->horizon = outer_horizon || below;
    if (s->rep_ply > outer_rep)
        s->rep_ply = outer_rep;
    if (use_tt && !path_bound) {
        /* UPPER, LOWER or EXACT (best cannot be both <= alpha0 and >= beta). */
        const unsigned bound = BOUND_EXACT - 2u * (best <= alpha0) - (best >= beta);
        tt_store(s, key, best, best_move, depth, bound | (below ? HORIZON : 0u));
    }
    return best;
}

static double frontier_node(nk_search *s, const nk_pos *pos, const frame *up, double alpha,
                            double beta, unsigned ply)
{
    return inner_node(s, pos, up, 1, alpha, beta, ply, false);
}

static double frontier_node_root(nk_search *s, const nk_pos *pos, const frame *up,
                                 double alpha, double beta, unsigned ply)
{
    return inner_node(s, pos, up, 1, alpha, beta, ply, true);
}

/* Steps 1, 2: count the node, score a finished game; step 3: the horizon
 * (leaf_node); steps 4 to 7 (inner_node). */
static double search_node(nk_search *s, const nk_pos *pos, const frame *up, int depth,
                          double alpha, double beta, unsigned ply)
{
    if (depth == 0)
        return leaf_node(s, pos, up, ply, false);
    if (depth == 1)
        return frontier_node(s, pos, up, alpha, beta, ply);
    return inner_node(s, pos, up, depth, alpha, beta, ply, false);
}

static double search_node_root(nk_search *s, const nk_pos *pos, const frame *up, int depth,
                               double alpha, double beta, unsigned ply)
{
    if (depth == 0)
        return leaf_node(s, pos, up, ply, true);
    if (depth == 1)
        return frontier_node_root(s, pos, up, alpha, beta, ply);
    return inner_node(s, pos, up, depth, alpha, beta, ply, true);
}

/* ===== the root: iterative deepening ===== */

static void start_search(nk_search *s, const nk_game *g, const nk_search_limits *lim)
{
    s->game = g;
    s->nodes = 0;
    s->plies_left = g->ply_limit - g->ply;
    s->node_limit = lim->nodes;
    s->check_at = UINT64_MAX; /* the first iteration always completes */
    s->deadline = lim->seconds > 0 ? now_seconds() + lim->seconds : 0.0;
    s->stopped = false;
    s->horizon = false;
    s->rep_ply = NO_PLY;
    s->tb_cycle = false;
    s->root_side = g->pos.side;
    seen_build(s, g);
    if (s->tt != NULL && ++s->age == 0) {
        nk_search_clear(s);
        s->age = 1;
    }
}

void nk_search_best(nk_search *s, const nk_game *g, const nk_search_limits *lim,
                    nk_search_result *res)
{
    const nk_variant *v = s->eval.variant;
    res->move = NK_NO_MOVE;
    res->score = 0.0;
    res->depth = 0;
    res->nodes = 0;
    res->exact = false;
    res->tb_cycle = false;
    if (nk_game_over(g))
        return;
    start_search(s, g, lim);
    s->nodes = 1; /* the root */

    /* The root's moves, made once; the order list changes between
     * iterations (the last best first). */
    move_list ml;
    nk_pos kids[NK_PASS + 1];
    int moves[NK_PASS + 1], order[NK_PASS + 1], n = 0;
    gen_moves(v, &g->pos, NK_NO_MOVE, &ml);
    for (int mv = next_move(v, &g->pos, &ml); mv != NK_NO_MOVE;
         mv = next_move(v, &g->pos, &ml)) {
        const nk_pos *child = list_child(v, &g->pos, &ml, mv, &kids[n]);
        if (child == NULL)
            continue;
        kids[n] = *child;
        moves[n] = mv;
        order[n] = n;
        n++;
    }

    unsigned max_depth = lim->depth ? lim->depth : NK_SEARCH_MAX_DEPTH;
    if (max_depth > NK_SEARCH_MAX_DEPTH)
        max_depth = NK_SEARCH_MAX_DEPTH;
    for (unsigned d = 1; d <= max_depth; d++) {
        double alpha = -NK_SCORE_INF, best = -NK_SCORE_INF;
        int best_i = 0;
        s->horizon = false;
        for (int k = 0; k < n; k++) {
            const nk_pos *child = &kids[order[k]];
            double score;
            double (*node)(nk_search *, const nk_pos *, const frame *, int, double, double,
                           unsigned) = s->view == NK_VIEW_ROOT ? search_node_root : search_node;
            if (child->side == g->pos.side)
                score = node(s, child, NULL, (int)d - 1, alpha, NK_SCORE_INF, 1);
            else
                score = -node(s, child, NULL, (int)d - 1, -NK_SCORE_INF, -alpha, 1);
            if (s->stopped)
                break;
            if (score > best) {
                best = score;
                best_i = k;
                if (score > alpha)
                    alpha = score;
            }
        }
        if (s->stopped)
            break;
        res->move = moves[order[best_i]];
        res->score = best;
        res->depth = d;
        res->exact = !s->horizon;
        /* The best move first next time, the others keep their order. */
        int top = order[best_i];
        memmove(order + 1, order, (size_t)best_i * sizeof *order);
        order[0] = top;
        arm_budgets(s);
        if (res->exact || (s->node_limit && s->nodes >= s->node_limit) ||
            (s->deadline > 0 && now_seconds() >= s->deadline))
            break;
    }
    res->nodes = s->nodes;
    res->tb_cycle = s->tb_cycle;
}
