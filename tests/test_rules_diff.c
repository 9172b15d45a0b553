/*
 * test_rules_diff.c -- differential tests: the engine (src/rules) against
 * the independent reference implementation of docs/rules.md
 * (tests/reference/reference.c).
 *
 * Seeded random games are played in both, from the start position and from
 * random positions (random pit counts with small totals, random stores and
 * side, random owners for adjikui, random ply limits), and compared at every
 * ply: the position (as R-B3 text), the end status (reason, winner, totals),
 * the legal moves, what each move did (captured seeds, relay laps, grand
 * slam), nk_pos_end, and the refusal of illegal moves.  Random positions are
 * also compared move by move through nk_legal / nk_apply, through
 * nk_pos_result for every end reason that can apply to them, and through
 * perft.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "reference/testlib.c"

/* A game record "start | moves" for failure messages. */
static void record_text(const ref_game *rg, char *out, size_t len)
{
    char text[128];
    ref_format(&rg->hist[0], text, sizeof text);
    size_t k = (size_t)snprintf(out, len, "%s |", text);
    for (int i = 0; i < rg->n && k + 3 < len; i++)
        k += (size_t)snprintf(out + k, len - k, " %c",
                              ref_move_letter(rg->move[i]));
}

static char record_buf[16384];

/* What the games reached, so that a test can insist on coverage. */
static struct coverage {
    unsigned reasons[REF_PLY_LIMIT + 1];
    unsigned plies, captures, grand_slams, passes, relays, refused;
} cov;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            record_text(rg, record_buf, sizeof record_buf);                 \
            print_error("%s: game %s\n", v->name, record_buf);              \
            fail_msg(__VA_ARGS__);                                          \
        }                                                                   \
    } while (0)

static int pick(nk_rng *rng, unsigned mask)
{
    int n = __builtin_popcount(mask);
    int k = (int)nk_rng_below(rng, (unsigned)n);
    for (int m = 0; m <= NK_PASS; m++)
        if ((mask & (1u << m)) && k-- == 0)
            return m;
    return NK_NO_MOVE;
}

static bool is_pos_reason(int reason)
{
    return reason == REF_MAJORITY || reason == REF_EMPTY_ROW
           || reason == REF_NO_FEED || reason == REF_FEW_SEEDS
           || reason == REF_PASSES;
}

/* Compares the engine's game state with the reference's. */
static void compare_state(const nk_variant *v, const nk_game *g,
                          const ref_game *rg)
{
    char got[NK_POS_TEXT], want[128];
    nk_pos_format(&g->pos, got);
    ref_format(&rg->hist[rg->n], want, sizeof want);
    CHECK(strcmp(got, want) == 0, "ply %d: engine %s, reference %s", rg->n,
          got, want);
    CHECK(g->ply == (unsigned)rg->n, "ply count %u vs %d", g->ply, rg->n);
    CHECK(g->pos.hash == nk_pos_hash(&g->pos), "stale hash at ply %d", rg->n);

    ref_result rr;
    ref_game_result(rg, &rr);
    const char *reason = nk_end_name(g->result.reason);
    CHECK(strcmp(reason, ref_reason_name(rr.reason)) == 0,
          "ply %d: engine ends with %s, reference with %s", rg->n, reason,
          ref_reason_name(rr.reason));
    nk_end pe = nk_pos_end(v, &g->pos);
    const char *want_pe = is_pos_reason(rr.reason) ? ref_reason_name(rr.reason)
                                                   : "none";
    CHECK(strcmp(nk_end_name(pe), want_pe) == 0,
          "ply %d: nk_pos_end says %s, expected %s", rg->n, nk_end_name(pe),
          want_pe);
    if (rr.reason != REF_NONE) {
        CHECK(g->result.winner == rr.winner
                  && g->result.total[0] == (unsigned)rr.total[0]
                  && g->result.total[1] == (unsigned)rr.total[1],
              "%s: engine %u-%u winner %d, reference %d-%d winner %d", reason,
              g->result.total[0], g->result.total[1], g->result.winner,
              rr.total[0], rr.total[1], rr.winner);
        CHECK(nk_game_legal(g) == 0, "moves after the end");
        cov.reasons[rr.reason]++;
        return;
    }
    unsigned lm = nk_game_legal(g), rm = ref_game_legal(rg);
    char lt[32], rt[32];
    tl_mask_text(lm, lt);
    tl_mask_text(rm, rt);
    CHECK(lm == rm, "ply %d: engine moves {%s}, reference {%s}", rg->n, lt,
          rt);
}

/* Plays one random game in both implementations, comparing every ply. */
static void diff_game(const nk_variant *v, int rv, const ref_pos *start,
                      unsigned ply_limit, nk_rng *rng, nk_game *g)
{
    nk_pos s;
    tl_from_ref(start, &s);
    ref_game rgame, *rg = &rgame;
    ref_game_init(rg, rv, start, (int)ply_limit, (int)v->max_laps);
    assert_int_equal(nk_game_init(g, v, &s, ply_limit), NK_OK);
    for (;;) {
        compare_state(v, g, rg);
        if (nk_game_over(g))
            break;
        unsigned legal = nk_game_legal(g);
        /* Now and then, an illegal move must be refused, changing nothing. */
        unsigned illegal = ~legal & ((1u << (NK_PASS + 1)) - 1);
        if (illegal && nk_rng_below(rng, 4) == 0) {
            char err[256] = "";
            int bad = pick(rng, illegal);
            nk_pos before = g->pos;
            nk_status st = nk_game_play(g, bad, NULL, err, sizeof err);
            CHECK(st == NK_EILLEGAL, "illegal move %c accepted (status %d)",
                  nk_move_letter(bad), st);
            CHECK(err[0] != '\0', "no message for an illegal move");
            CHECK(memcmp(&before, &g->pos, sizeof before) == 0
                      && g->ply == (unsigned)rg->n,
                  "a refused move changed the game");
            cov.refused++;
        }
        /* Now and then, perft from here: the game's history takes part
         * (a repetition within the next plies ends those lines). */
        if (nk_rng_below(rng, 40) == 0) {
            unsigned d = 1 + nk_rng_below(rng, 3);
            uint64_t got = nk_perft(g, d);
            unsigned long long want = ref_perft(rg, (int)d);
            CHECK(got == want, "ply %d: perft(%u) = %llu, reference %llu",
                  rg->n, d, (unsigned long long)got, want);
        }
        int m = pick(rng, legal);
        nk_ply_info info;
        ref_move rmv;
        char err[256] = "";
        CHECK(nk_game_play(g, m, &info, err, sizeof err) == NK_OK,
              "legal move %c refused: %s", nk_move_letter(m), err);
        CHECK(ref_game_play(rg, m, &rmv), "reference refused %c",
              nk_move_letter(m));
        CHECK(info.captured == (unsigned)rmv.captured,
              "move %c captured %u, reference %d", nk_move_letter(m),
              info.captured, rmv.captured);
        cov.plies++;
        cov.captures += info.captured > 0;
        cov.grand_slams += info.grand_slam;
        cov.passes += m == NK_PASS;
        cov.relays += info.laps > 1;
        if (m != NK_PASS) {
            CHECK(info.laps == (unsigned)rmv.laps, "move %c: %u laps, ref %d",
                  nk_move_letter(m), info.laps, rmv.laps);
            CHECK(info.grand_slam == (rmv.grand_slam != 0),
                  "move %c: grand slam %d, reference %d", nk_move_letter(m),
                  info.grand_slam, rmv.grand_slam);
        }
    }
    char err[256] = "";
    CHECK(nk_game_play(g, 0, NULL, err, sizeof err) == NK_EOVER,
          "a move after the end was not refused with NK_EOVER");
    ref_game_free(rg);
}

static unsigned random_ply_limit(nk_rng *rng)
{
    switch (nk_rng_below(rng, 4)) {
    case 0: return 1 + nk_rng_below(rng, 30);
    case 1: return 1 + nk_rng_below(rng, 300);
    default: return NK_DEFAULT_PLY_LIMIT;
    }
}

enum { START_GAMES = 300, RANDOM_GAMES = 900 };

static void diff_variant(int rv, uint64_t seed)
{
    const nk_variant *v = tl_variant(rv);
    nk_game *g = malloc(sizeof *g);
    assert_non_null(g);
    nk_rng rng = {seed};
    ref_pos start;
    memset(&cov, 0, sizeof cov);
    for (int i = 0; i < START_GAMES; i++) {
        ref_start(&start, i % 2);
        diff_game(v, rv, &start, NK_DEFAULT_PLY_LIMIT, &rng, g);
    }
    for (int i = 0; i < RANDOM_GAMES; i++) {
        tl_random_pos(rv, &rng, &start);
        diff_game(v, rv, &start, random_ply_limit(&rng), &rng, g);
    }
    free(g);
    print_message("%s: %u plies, %u captures, %u grand slams, %u passes, "
                  "%u relays, %u refused; ends:",
                  v->name, cov.plies, cov.captures, cov.grand_slams,
                  cov.passes, cov.relays, cov.refused);
    for (int r = REF_MAJORITY; r <= REF_PLY_LIMIT; r++)
        print_message(" %s %u", ref_reason_name(r), cov.reasons[r]);
    print_message("\n");
    /* Every end rule of the variant was reached (R-G2, R-G4). */
    for (int r = REF_MAJORITY; r <= REF_PLY_LIMIT; r++) {
        bool applies = rv == REF_ADJIKUI ? r >= REF_FEW_SEEDS
                                         : r != REF_FEW_SEEDS && r != REF_PASSES;
        if (applies)
            assert_true(cov.reasons[r] > 0);
        else
            assert_int_equal(cov.reasons[r], 0);
    }
    assert_true(cov.captures > 0);
    if (rv == REF_ADJIKUI)
        assert_true(cov.passes > 0 && cov.relays > 0);
    else
        assert_true(cov.grand_slams > 0);
}

static void test_diff_games_antigua(void **state)
{
    (void)state;
    diff_variant(REF_ANTIGUA, 101);
}

static void test_diff_games_speightstown(void **state)
{
    (void)state;
    diff_variant(REF_SPEIGHTSTOWN, 102);
}

static void test_diff_games_bridgetown(void **state)
{
    (void)state;
    diff_variant(REF_BRIDGETOWN, 103);
}

static void test_diff_games_abapa(void **state)
{
    (void)state;
    diff_variant(REF_ABAPA, 104);
}

static void test_diff_games_adjikui(void **state)
{
    (void)state;
    diff_variant(REF_ADJIKUI, 105);
}

/* Adji Kui II with tiny max_laps (R-K3): endless relays become common. */
static void test_diff_games_adjikui_small_max_laps(void **state)
{
    (void)state;
    nk_variant copy = *tl_variant(REF_ADJIKUI);
    nk_game *g = malloc(sizeof *g);
    assert_non_null(g);
    nk_rng rng = {106};
    ref_pos start;
    static const unsigned laps[] = {1, 2, 3, 5, 8, 20};
    for (int i = 0; i < 600; i++) {
        copy.max_laps = laps[i % 6];
        if (i % 3 == 0)
            ref_start(&start, i % 2);
        else
            tl_random_pos(REF_ADJIKUI, &rng, &start);
        diff_game(&copy, REF_ADJIKUI, &start, random_ply_limit(&rng), &rng,
                  g);
    }
    free(g);
}

/* Long games (255 seeds in play) up to the default ply limit and beyond
 * it, up to NK_MAX_PLIES. */
static void test_diff_long_games(void **state)
{
    (void)state;
    nk_game *g = malloc(sizeof *g);
    assert_non_null(g);
    nk_rng rng = {109};
    ref_pos start;
    assert_true(ref_parse(&start, "21,21,21,21,21,21/21,21,21,21,21,24 0-0 S"));
    for (int rv = 0; rv < REF_VARIANTS; rv++) {
        const nk_variant *v = tl_variant(rv);
        for (int i = 0; i < 6; i++) {
            start.side = i % 2;
            diff_game(v, rv, &start, i < 4 ? NK_DEFAULT_PLY_LIMIT : NK_MAX_PLIES,
                      &rng, g);
        }
    }
    free(g);
}

/* One random position: nk_legal, nk_candidates, nk_apply, nk_pos_end and
 * nk_pos_result against the reference. */
static void diff_position(const nk_variant *v, int rv, const ref_pos *rp)
{
    nk_pos p;
    char text[128];
    tl_from_ref(rp, &p);
    ref_format(rp, text, sizeof text);
    unsigned lm = nk_legal(v, &p);
    unsigned rm = ref_legal(rv, (int)v->max_laps, rp);
    char lt[32], rt[32];
    tl_mask_text(lm, lt);
    tl_mask_text(rm, rt);
    if (lm != rm)
        fail_msg("%s %s: nk_legal {%s}, reference {%s}", v->name, text, lt,
                 rt);
    unsigned cand = nk_candidates(v, &p);
    if ((lm & 0xFFFu & ~cand) != 0)
        fail_msg("%s %s: legal pits outside nk_candidates", v->name, text);
    if (!nk_needs_trial(v, &p) && (cand & 0xFFFu) != (lm & 0xFFFu))
        fail_msg("%s %s: no trial needed, yet candidates != legal", v->name,
                 text);
    for (int m = 0; m <= NK_PASS; m++) {
        if (!(cand & (1u << m)) && !(lm & (1u << m)))
            continue;
        nk_pos q = p;
        nk_ply_info info;
        bool ok = nk_apply(v, &q, m, &info);
        ref_move r;
        ref_play(rv, (int)v->max_laps, rp, m, &r);
        if (ok != (r.legal != 0))
            fail_msg("%s %s: nk_apply(%c) says %d, reference %d", v->name,
                     text, nk_move_letter(m), ok, r.legal);
        if (!ok)
            continue;
        char got[NK_POS_TEXT], want[128];
        nk_pos_format(&q, got);
        ref_format(&r.after, want, sizeof want);
        if (strcmp(got, want) != 0 || info.captured != (unsigned)r.captured)
            fail_msg("%s %s: %c gives %s (+%u), reference %s (+%d)", v->name,
                     text, nk_move_letter(m), got, info.captured, want,
                     r.captured);
        if (q.hash != nk_pos_hash(&q))
            fail_msg("%s %s: stale hash after %c", v->name, text,
                     nk_move_letter(m));
    }
    /* nk_pos_end on a parsed position (no capture, no pass led here). */
    ref_game rg;
    ref_result rr;
    ref_game_init(&rg, rv, rp, REF_DEFAULT_PLY_LIMIT, (int)v->max_laps);
    ref_game_result(&rg, &rr);
    ref_game_free(&rg);
    nk_end pe = nk_pos_end(v, &p);
    if (strcmp(nk_end_name(pe), ref_reason_name(rr.reason)) != 0)
        fail_msg("%s %s: nk_pos_end %s, reference %s", v->name, text,
                 nk_end_name(pe), ref_reason_name(rr.reason));
    /* nk_pos_result for each reason that can describe this position. */
    for (int reason = REF_MAJORITY; reason <= REF_PLY_LIMIT; reason++) {
        bool warri = rv != REF_ADJIKUI;
        if (warri && (reason == REF_FEW_SEEDS || reason == REF_PASSES))
            continue;
        if (!warri && reason <= REF_NO_FEED)
            continue;
        int mover_row = 0, other_row = 0;
        for (int i = 0; i < 6; i++) {
            mover_row += rp->pit[rp->side * 6 + i];
            other_row += rp->pit[(1 - rp->side) * 6 + i];
        }
        if (reason == REF_EMPTY_ROW && mover_row != 0)
            continue;
        if (reason == REF_NO_FEED && other_row != 0)
            continue;
        nk_end er = NK_END_NONE;
        for (int e = 1; e < NK_END_COUNT; e++)
            if (strcmp(nk_end_name((nk_end)e), ref_reason_name(reason)) == 0)
                er = (nk_end)e;
        assert_int_not_equal(er, NK_END_NONE);
        nk_result res;
        ref_result want;
        nk_pos_result(v, &p, er, &res);
        ref_score(rv, rp, reason, &want);
        if (res.winner != want.winner
            || res.total[0] != (unsigned)want.total[0]
            || res.total[1] != (unsigned)want.total[1])
            fail_msg("%s %s, %s: engine %u-%u winner %d, reference %d-%d "
                     "winner %d",
                     v->name, text, ref_reason_name(reason), res.total[0],
                     res.total[1], res.winner, want.total[0], want.total[1],
                     want.winner);
    }
}

static void test_diff_positions(void **state)
{
    (void)state;
    nk_rng rng = {107};
    for (int rv = 0; rv < REF_VARIANTS; rv++) {
        const nk_variant *v = tl_variant(rv);
        for (int i = 0; i < 4000; i++) {
            ref_pos rp;
            tl_random_pos(rv, &rng, &rp);
            diff_position(v, rv, &rp);
        }
    }
}

/* perft (R-G3) from random positions, engine against reference. */
static void test_diff_perft_random_positions(void **state)
{
    (void)state;
    nk_rng rng = {108};
    nk_game *g = malloc(sizeof *g);
    assert_non_null(g);
    for (int rv = 0; rv < REF_VARIANTS; rv++) {
        const nk_variant *v = tl_variant(rv);
        for (int i = 0; i < 60; i++) {
            ref_pos rp;
            nk_pos p;
            tl_random_pos(rv, &rng, &rp);
            tl_from_ref(&rp, &p);
            unsigned limit = 1 + nk_rng_below(&rng, 6);
            ref_game rg;
            ref_game_init(&rg, rv, &rp, (int)limit, (int)v->max_laps);
            assert_int_equal(nk_game_init(g, v, &p, limit), NK_OK);
            for (unsigned d = 0; d <= 4; d++) {
                uint64_t got = nk_perft(g, d);
                unsigned long long want = ref_perft(&rg, (int)d);
                if (got != want) {
                    char text[128];
                    ref_format(&rp, text, sizeof text);
                    fail_msg("%s %s (ply limit %u): perft(%u) = %llu, "
                             "reference %llu",
                             v->name, text, limit, d,
                             (unsigned long long)got, want);
                }
            }
            ref_game_free(&rg);
        }
    }
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diff_games_antigua),
        cmocka_unit_test(test_diff_games_speightstown),
        cmocka_unit_test(test_diff_games_bridgetown),
        cmocka_unit_test(test_diff_games_abapa),
        cmocka_unit_test(test_diff_games_adjikui),
        cmocka_unit_test(test_diff_games_adjikui_small_max_laps),
        cmocka_unit_test(test_diff_long_games),
        cmocka_unit_test(test_diff_positions),
        cmocka_unit_test(test_diff_perft_random_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
