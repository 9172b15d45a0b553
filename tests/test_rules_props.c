/*
 * test_rules_props.c -- properties of the rules engine over thousands of
 * seeded random games per variant, from the start position and from random
 * positions:
 *
 *   - seeds are conserved (R-B5) and every count stays in range;
 *   - every game ends, within its ply limit, with one of its variant's end
 *     reasons (R-G2), and the result is consistent (totals, winner);
 *   - a game replayed from its record (start position + moves, through the
 *     R-B3/R-B4 text) ends the same way;
 *   - the hash kept incrementally equals nk_pos_hash() after every ply;
 *   - parse(format(pos)) is pos after every ply;
 *   - perft(d) = sum over the legal moves of perft(d - 1) (R-G3);
 *   - the rules are symmetric: swapping the two sides swaps the legal moves,
 *     the end reason and the totals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "reference/testlib.c"

enum { START_GAMES = 1000, RANDOM_GAMES = 2000 };

static char msg[512];

static void describe(const nk_game *g)
{
    char text[NK_POS_TEXT];
    nk_pos_format(&g->start, text);
    int k = snprintf(msg, sizeof msg, "%s game from %s, ply %u",
                     g->variant->name, text, g->ply);
    (void)k;
}

static unsigned end_mask(const nk_variant *v)
{
    if (v->sowing == NK_SOW_RELAY)
        return 1u << NK_END_FEW_SEEDS | 1u << NK_END_PASSES
               | 1u << NK_END_REPETITION | 1u << NK_END_PLY_LIMIT;
    return 1u << NK_END_MAJORITY | 1u << NK_END_EMPTY_ROW
           | 1u << NK_END_NO_FEED | 1u << NK_END_REPETITION
           | 1u << NK_END_PLY_LIMIT;
}

/* Invariants of one position of a game. */
static void check_pos(const nk_game *g, unsigned total, uint16_t north,
                      const nk_pos *prev)
{
    const nk_pos *p = &g->pos;
    if (nk_pos_total(p) != total) {
        describe(g);
        fail_msg("%s: %u seeds in play, %u at the start", msg,
                 nk_pos_total(p), total);
    }
    if (p->side > 1 || nk_pos_passes(p) > 2 || p->north != north) {
        describe(g);
        fail_msg("%s: side %d, passes %u, owners %#x", msg, p->side,
                 nk_pos_passes(p), p->north);
    }
    if (p->hash != nk_pos_hash(p)) {
        describe(g);
        fail_msg("%s: incremental hash differs from nk_pos_hash", msg);
    }
    if (prev != NULL && (p->store[0] < prev->store[0]
                         || p->store[1] < prev->store[1])) {
        describe(g);
        fail_msg("%s: a store decreased", msg);
    }
    /* parse(format(pos)) == pos */
    char text[NK_POS_TEXT];
    nk_pos q;
    nk_pos_format(p, text);
    tl_pos(&q, text);
    if (memcmp(q.pit, p->pit, NK_PITS) != 0 || q.store[0] != p->store[0]
        || q.store[1] != p->store[1] || q.side != p->side
        || q.north != p->north || q.hash != p->hash) {
        describe(g);
        fail_msg("%s: %s does not read back as the same position", msg, text);
    }
}

/* The result of a finished game is consistent. */
static void check_result(const nk_game *g, unsigned total)
{
    const nk_result *r = &g->result;
    const nk_variant *v = g->variant;
    describe(g);
    if (!(end_mask(v) & (1u << r->reason)))
        fail_msg("%s: ended with %s", msg, nk_end_name(r->reason));
    if (g->ply > g->ply_limit)
        fail_msg("%s: past the ply limit %u", msg, g->ply_limit);
    if (r->reason == NK_END_PLY_LIMIT && g->ply != g->ply_limit)
        fail_msg("%s: ply-limit before the limit", msg);
    if (r->total[0] < g->pos.store[0] || r->total[1] < g->pos.store[1])
        fail_msg("%s: a total below its store", msg);
    unsigned sum = r->total[0] + r->total[1];
    /* Seeds left on the board are not counted only at a majority (R-W6,
     * except bridgetown) and at a speightstown repetition or ply limit
     * (R-W10, R-G1). */
    bool speightstown = strcmp(v->name, "speightstown") == 0;
    bool bridgetown = strcmp(v->name, "bridgetown") == 0;
    bool all_counted = !((r->reason == NK_END_MAJORITY && !bridgetown)
                         || (speightstown
                             && (r->reason == NK_END_REPETITION
                                 || r->reason == NK_END_PLY_LIMIT)));
    if (sum > total || (all_counted && sum != total))
        fail_msg("%s: totals %u-%u of %u seeds (%s)", msg, r->total[0],
                 r->total[1], total, nk_end_name(r->reason));
    int best = r->total[0] > r->total[1]   ? NK_SOUTH
               : r->total[1] > r->total[0] ? NK_NORTH
                                           : NK_DRAW;
    if (v->win_needs_majority && best != NK_DRAW
        && r->total[best] < total / 2 + 1)
        best = NK_DRAW;
    if (r->winner != best)
        fail_msg("%s: winner %d with totals %u-%u", msg, r->winner,
                 r->total[0], r->total[1]);
    if (nk_game_legal(g) != 0)
        fail_msg("%s: moves after the end", msg);
}

/* The record as text, read back and replayed. */
static void check_replay(const nk_game *g, nk_game *copy)
{
    char start_text[NK_POS_TEXT];
    nk_pos_format(&g->start, start_text);
    static char record[4 * NK_MAX_PLIES];
    size_t k = 0;
    for (unsigned i = 0; i < g->ply; i++) {
        record[k++] = nk_move_letter(g->moves[i]);
        record[k++] = ' ';
    }
    record[k] = '\0';
    nk_pos start;
    tl_pos(&start, start_text);
    assert_int_equal(nk_game_init(copy, g->variant, &start, g->ply_limit),
                     NK_OK);
    for (size_t i = 0; i < k; i += 2) {
        int move = nk_move_parse(record[i]);
        char err[256] = "";
        if (nk_game_play(copy, move, NULL, err, sizeof err) != NK_OK) {
            describe(g);
            fail_msg("%s: replay refused %c at ply %zu: %s", msg, record[i],
                     i / 2, err);
        }
    }
    describe(g);
    if (memcmp(&copy->pos, &g->pos, sizeof g->pos) != 0
        || copy->ply != g->ply || copy->result.reason != g->result.reason
        || copy->result.winner != g->result.winner
        || copy->result.total[0] != g->result.total[0]
        || copy->result.total[1] != g->result.total[1])
        fail_msg("%s: the replay ends differently", msg);
}

/* perft(d) = sum over legal moves of perft(d - 1), at this game state. */
static void check_perft_sum(const nk_game *g, nk_game *child, unsigned d)
{
    uint64_t sum = 0;
    unsigned legal = nk_game_legal(g);
    for (int m = 0; m <= NK_PASS; m++) {
        if (!(legal & (1u << m)))
            continue;
        memcpy(child, g, sizeof *g);
        nk_game_play_legal(child, m, NULL);
        sum += nk_perft(child, d - 1);
    }
    if (nk_perft(g, d) != sum) {
        describe(g);
        fail_msg("%s: perft(%u) = %llu, sum over moves %llu", msg, d,
                 (unsigned long long)nk_perft(g, d), (unsigned long long)sum);
    }
}

/* ===== symmetry ===== */

static unsigned mirror_mask(unsigned mask)
{
    unsigned out = mask & (1u << NK_PASS);
    for (int i = 0; i < NK_PITS; i++)
        if (mask & (1u << i))
            out |= 1u << ((i + 6) % 12);
    return out;
}

static void mirror(const nk_pos *p, nk_pos *out)
{
    ref_pos r, m;
    tl_to_ref(p, &r);
    m = r;
    for (int i = 0; i < 12; i++) {
        m.pit[(i + 6) % 12] = r.pit[i];
        m.owner[(i + 6) % 12] = 1 - r.owner[i];
    }
    m.store[0] = r.store[1];
    m.store[1] = r.store[0];
    m.side = 1 - r.side;
    tl_from_ref(&m, out);
}

static void check_symmetry(const nk_variant *v, const nk_pos *p)
{
    nk_pos m;
    mirror(p, &m);
    char text[NK_POS_TEXT];
    nk_pos_format(p, text);
    if (nk_legal(v, &m) != mirror_mask(nk_legal(v, p)))
        fail_msg("%s %s: the mirrored position has other moves", v->name,
                 text);
    nk_end e = nk_pos_end(v, p);
    if (nk_pos_end(v, &m) != e)
        fail_msg("%s %s: the mirrored position ends otherwise", v->name,
                 text);
    for (int reason = NK_END_MAJORITY; reason < NK_END_COUNT; reason++) {
        if (!(end_mask(v) & (1u << reason)))
            continue;
        nk_result a, b;
        nk_pos_result(v, p, (nk_end)reason, &a);
        nk_pos_result(v, &m, (nk_end)reason, &b);
        int bw = b.winner == NK_DRAW ? NK_DRAW : 1 - b.winner;
        if (a.total[0] != b.total[1] || a.total[1] != b.total[0]
            || a.winner != bw)
            fail_msg("%s %s (%s): %u-%u, mirrored %u-%u", v->name, text,
                     nk_end_name((nk_end)reason), a.total[0], a.total[1],
                     b.total[1], b.total[0]);
    }
}

/* ===== the games ===== */

typedef struct stats {
    unsigned games, plies, reasons[NK_END_COUNT];
} stats;

static void play_game(nk_game *g, nk_game *scratch, nk_rng *rng, stats *st,
                      bool deep_checks)
{
    const unsigned total = nk_pos_total(&g->pos);
    const uint16_t north = g->pos.north;
    nk_pos prev = g->pos;
    check_pos(g, total, north, NULL);
    while (!nk_game_over(g)) {
        if (deep_checks && nk_rng_below(rng, 16) == 0) {
            check_perft_sum(g, scratch, 1 + nk_rng_below(rng, 3));
            check_symmetry(g->variant, &g->pos);
        }
        int move = nk_random_move(g, rng);
        if (move < 0 || !(nk_game_legal(g) & (1u << move))) {
            describe(g);
            fail_msg("%s: nk_random_move gave %d", msg, move);
        }
        prev = g->pos;
        nk_game_play_legal(g, move, NULL);
        check_pos(g, total, north, &prev);
        if (g->ply > g->ply_limit) {
            describe(g);
            fail_msg("%s: still going past the ply limit", msg);
        }
    }
    check_result(g, total);
    check_replay(g, scratch);
    st->games++;
    st->plies += g->ply;
    st->reasons[g->result.reason]++;
}

static void props_variant(int rv, uint64_t seed)
{
    const nk_variant *v = tl_variant(rv);
    nk_game *g = malloc(sizeof *g), *scratch = malloc(sizeof *scratch);
    assert_non_null(g);
    assert_non_null(scratch);
    nk_rng rng = {seed};
    stats st;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < START_GAMES; i++) {
        nk_pos start;
        nk_pos_start(&start, i % 2);
        assert_int_equal(nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT),
                         NK_OK);
        play_game(g, scratch, &rng, &st, i < 60);
    }
    for (int i = 0; i < RANDOM_GAMES; i++) {
        ref_pos r;
        nk_pos start;
        tl_random_pos(rv, &rng, &r);
        tl_from_ref(&r, &start);
        check_symmetry(v, &start);
        unsigned limit = nk_rng_below(&rng, 3) == 0
                             ? 1 + nk_rng_below(&rng, 100)
                             : NK_DEFAULT_PLY_LIMIT;
        assert_int_equal(nk_game_init(g, v, &start, limit), NK_OK);
        play_game(g, scratch, &rng, &st, i < 200);
    }
    print_message("%s: %u games, %u plies; ends:", v->name, st.games,
                  st.plies);
    for (int r = 1; r < NK_END_COUNT; r++)
        print_message(" %s %u", nk_end_name((nk_end)r), st.reasons[r]);
    print_message("\n");
    free(g);
    free(scratch);
}

static void test_props_antigua(void **state)
{
    (void)state;
    props_variant(REF_ANTIGUA, 201);
}

static void test_props_speightstown(void **state)
{
    (void)state;
    props_variant(REF_SPEIGHTSTOWN, 202);
}

static void test_props_bridgetown(void **state)
{
    (void)state;
    props_variant(REF_BRIDGETOWN, 203);
}

static void test_props_abapa(void **state)
{
    (void)state;
    props_variant(REF_ABAPA, 204);
}

static void test_props_adjikui(void **state)
{
    (void)state;
    props_variant(REF_ADJIKUI, 205);
}

/* Long games: with 255 seeds in play, random Warri games run into the
 * default ply limit of 1000 (and it is respected: they end at exactly 1000
 * with ply-limit), and under NK_MAX_PLIES they run past 1000 plies. */
static const char *const big_pos = "21,21,21,21,21,21/21,21,21,21,21,24 0-0 S";

static void test_props_long_games(void **state)
{
    (void)state;
    nk_game *g = malloc(sizeof *g), *scratch = malloc(sizeof *scratch);
    assert_non_null(g);
    assert_non_null(scratch);
    nk_rng rng = {206};
    for (int rv = 0; rv < REF_VARIANTS; rv++) {
        const nk_variant *v = tl_variant(rv);
        stats st;
        memset(&st, 0, sizeof st);
        nk_pos start;
        tl_pos(&start, big_pos);
        unsigned longest = 0;
        for (int i = 0; i < 12; i++) {
            unsigned limit = i < 8 ? NK_DEFAULT_PLY_LIMIT : NK_MAX_PLIES;
            assert_int_equal(nk_game_init(g, v, &start, limit), NK_OK);
            play_game(g, scratch, &rng, &st, false);
            if (g->ply > longest)
                longest = g->ply;
        }
        print_message("%s from %s: longest %u plies, %u ply-limit ends\n",
                      v->name, big_pos, longest,
                      st.reasons[NK_END_PLY_LIMIT]);
        if (rv != REF_ADJIKUI) {
            assert_true(st.reasons[NK_END_PLY_LIMIT] > 0);
            assert_true(longest > NK_DEFAULT_PLY_LIMIT);
        }
    }
    free(g);
    free(scratch);
}

/* nk_bench_playouts is deterministic in its seed. */
static void test_props_bench_is_deterministic(void **state)
{
    (void)state;
    for (size_t i = 0; i < nk_variant_count(); i++) {
        nk_bench a, b;
        nk_bench_playouts(nk_variant_at(i), 50, 7, &a);
        nk_bench_playouts(nk_variant_at(i), 50, 7, &b);
        assert_int_equal(a.games, 50);
        assert_int_equal(a.plies, b.plies);
        assert_true(a.signature == b.signature);
        assert_true(a.plies > 50);
    }
}

/* nk_bench_playouts plays its games with loops of their own (the Warri
 * family's keeps the game's scalars in local variables, internal.h): its
 * plies and signature equal those of the same games played ply by ply
 * through the public nk_random_child and nk_game_advance, mixed as bench.c
 * mixes them.  200 games a variant cover captures, repetitions, trial
 * sowings (R-W4) and every end rule the random games reach. */
static void test_props_bench_equals_ply_by_ply(void **state)
{
    (void)state;
    nk_game *g = malloc(sizeof *g);
    assert_non_null(g);
    for (size_t vi = 0; vi < nk_variant_count(); vi++) {
        const nk_variant *v = nk_variant_at(vi);
        const uint64_t seed = 11, games = 200;
        uint64_t sig = 0, plies = 0;
        for (uint64_t i = 0; i < games; i++) {
            nk_rng rng = {nk_seed_mix(seed, i, 0)};
            nk_pos start;
            nk_pos_start(&start, NK_SOUTH);
            assert_int_equal(nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT), NK_OK);
            while (!nk_game_over(g)) {
                nk_pos child;
                nk_ply_info info;
                const int move = nk_random_child(v, &g->pos, &rng, &child, &info);
                assert_true(move != NK_NO_MOVE);
                nk_game_advance(g, move, &child, &info);
            }
            plies += g->ply;
            const uint64_t res = (uint64_t)g->ply | (uint64_t)g->result.reason << 16 |
                                 (uint64_t)g->result.total[0] << 24 |
                                 (uint64_t)g->result.total[1] << 32;
            sig = nk_seed_mix(sig, g->pos.hash, res);
        }
        nk_bench b;
        nk_bench_playouts(v, games, seed, &b);
        assert_int_equal(b.plies, plies);
        assert_true(b.signature == sig);
    }
    free(g);
}

/* The random draw of playouts (nk_random_child, and the bench's playouts
 * built from the same pieces): k = nk_rng_below(count) over the candidate
 * pits (nk_candidates), the k-th in pit order; a move that turns out
 * illegal is dropped and the draw made again among the rest; with none
 * left, the pass (relay) or no move.  Checked against that definition,
 * written here with plain bit loops, on every ply of random games, so that
 * the engine's table look-ups draw exactly the same moves. */
static int kth_bit(unsigned mask, unsigned k)
{
    for (int i = 0; i <= NK_PASS; i++)
        if ((mask >> i) & 1u) {
            if (k == 0)
                return i;
            k--;
        }
    return NK_NO_MOVE;
}

static void test_props_random_draw(void **state)
{
    (void)state;
    for (size_t vi = 0; vi < nk_variant_count(); vi++) {
        const nk_variant *v = nk_variant_at(vi);
        nk_rng rng = {1000 + vi};
        for (int game = 0; game < 200; game++) {
            nk_pos p;
            nk_pos_start(&p, game % 2 ? NK_NORTH : NK_SOUTH);
            for (int ply = 0; ply < 300 && nk_pos_end(v, &p) == NK_END_NONE; ply++) {
                const unsigned legal = nk_legal(v, &p);
                unsigned mask = nk_candidates(v, &p);
                nk_rng want_rng = rng;
                int want = NK_NO_MOVE;
                while (mask) {
                    unsigned n = 0;
                    for (unsigned m = mask; m; m &= m - 1)
                        n++;
                    const int mv = kth_bit(mask, nk_rng_below(&want_rng, n));
                    if ((legal >> mv) & 1u) {
                        want = mv;
                        break;
                    }
                    mask &= ~(1u << mv);
                }
                if (want == NK_NO_MOVE && v->sowing == NK_SOW_RELAY)
                    want = NK_PASS;
                nk_pos child;
                nk_ply_info info;
                const int got = nk_random_child(v, &p, &rng, &child, &info);
                assert_int_equal(got, want);
                assert_true(rng.s == want_rng.s);
                if (got == NK_NO_MOVE)
                    break;
                p = child;
            }
        }
    }
}

/* nk_candidates is the pits of the mover's row (owned pits for the relay)
 * holding at least min_sow seeds, pit by pit, for any counts 0..255 and any
 * stores, side, flags and owners (the candidates are read from the 16 bytes
 * that start the position: only the 12 pits may count). */
static void test_props_candidates(void **state)
{
    (void)state;
    nk_rng rng = {4242};
    for (size_t vi = 0; vi < nk_variant_count(); vi++) {
        const nk_variant *v = nk_variant_at(vi);
        for (int t = 0; t < 20000; t++) {
            nk_pos p;
            memset(&p, 0, sizeof p);
            const uint64_t r = nk_rng_next(&rng);
            for (int i = 0; i < NK_PITS; i++) {
                /* mostly 0..3 (the interesting edge), sometimes any byte */
                const uint64_t d = nk_rng_next(&rng);
                p.pit[i] = (uint8_t)((d & 3u) ? d >> 8 & 3u : d >> 16);
            }
            p.store[0] = (uint8_t)(r >> 8);
            p.store[1] = (uint8_t)(r >> 16);
            p.side = (uint8_t)(r & 1u);
            p.flags = (uint8_t)(r >> 24);
            p.north = v->sowing == NK_SOW_RELAY ? (uint16_t)(r >> 32 & 0xFFFu) : NK_DEFAULT_NORTH;
            const unsigned owned = nk_pos_owned(&p, p.side);
            unsigned want = 0;
            for (int i = 0; i < NK_PITS; i++)
                if (((owned >> i) & 1u) && p.pit[i] >= v->min_sow)
                    want |= 1u << i;
            assert_int_equal(nk_candidates(v, &p), want);
        }
    }
}

/* nk_pos_end_reached equals nk_pos_end on every child of a position where
 * no end rule holds (every legal move, every ply of random games). */
static void test_props_end_reached(void **state)
{
    (void)state;
    for (size_t vi = 0; vi < nk_variant_count(); vi++) {
        const nk_variant *v = nk_variant_at(vi);
        nk_rng rng = {77 + vi};
        for (int game = 0; game < 300; game++) {
            nk_pos p;
            nk_pos_start(&p, game % 2 ? NK_NORTH : NK_SOUTH);
            for (int ply = 0; ply < 400 && nk_pos_end(v, &p) == NK_END_NONE; ply++) {
                const unsigned legal = nk_legal(v, &p);
                for (int mv = 0; mv <= NK_PASS; mv++) {
                    if (!((legal >> mv) & 1u))
                        continue;
                    nk_pos c = p;
                    assert_true(nk_apply(v, &c, mv, NULL));
                    assert_int_equal(nk_pos_end_reached(v, &c), nk_pos_end(v, &c));
                }
                nk_pos child;
                if (nk_random_child(v, &p, &rng, &child, NULL) == NK_NO_MOVE)
                    break;
                p = child;
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_props_antigua),
        cmocka_unit_test(test_props_speightstown),
        cmocka_unit_test(test_props_bridgetown),
        cmocka_unit_test(test_props_abapa),
        cmocka_unit_test(test_props_adjikui),
        cmocka_unit_test(test_props_long_games),
        cmocka_unit_test(test_props_bench_is_deterministic),
        cmocka_unit_test(test_props_bench_equals_ply_by_ply),
        cmocka_unit_test(test_props_random_draw),
        cmocka_unit_test(test_props_end_reached),
        cmocka_unit_test(test_props_candidates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
