/*
 * testlib.c -- helpers of the rules tests; see testlib.h.  Include this file
 * (once) into a test program after <cmocka.h>.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.c"

const nk_variant *tl_variant(int ref_variant)
{
    return tl_variant_named(ref_variant_name(ref_variant));
}

const nk_variant *tl_variant_named(const char *name)
{
    const nk_variant *v = nk_variant_find(name);
    if (v == NULL)
        fail_msg("the engine has no variant named %s", name);
    return v;
}

void tl_pos(nk_pos *pos, const char *text)
{
    char err[256] = "";
    nk_status st = nk_pos_parse(pos, text, err, sizeof err);
    if (st != NK_OK)
        fail_msg("nk_pos_parse rejected \"%s\": %s", text, err);
}

void tl_to_ref(const nk_pos *pos, ref_pos *out)
{
    char text[NK_POS_TEXT];
    nk_pos_format(pos, text);
    if (!ref_parse(out, text))
        fail_msg("the reference cannot parse the engine's \"%s\"", text);
}

void tl_from_ref(const ref_pos *r, nk_pos *out)
{
    char text[128];
    ref_format(r, text, sizeof text);
    tl_pos(out, text);
}

nk_game *tl_game(const nk_variant *v, const char *text, unsigned ply_limit)
{
    nk_pos start;
    if (text == NULL)
        nk_pos_start(&start, NK_SOUTH);
    else
        tl_pos(&start, text);
    nk_game *g = malloc(sizeof *g);
    assert_non_null(g);
    nk_status st = nk_game_init(g, v, &start,
                                ply_limit ? ply_limit : NK_DEFAULT_PLY_LIMIT);
    assert_int_equal(st, NK_OK);
    return g;
}

nk_ply_info tl_play1(nk_game *g, char letter)
{
    char err[256] = "";
    nk_ply_info info;
    memset(&info, 0, sizeof info);
    int move = nk_move_parse(letter);
    if (move == NK_NO_MOVE)
        fail_msg("bad move letter '%c'", letter);
    nk_status st = nk_game_play(g, move, &info, err, sizeof err);
    if (st != NK_OK) {
        char text[NK_POS_TEXT];
        nk_pos_format(&g->pos, text);
        fail_msg("move %c refused in %s (%s): %s", letter, text,
                 nk_strerror(st), err);
    }
    return info;
}

void tl_play(nk_game *g, const char *moves)
{
    for (const char *s = moves; *s; s++)
        if (*s != ' ')
            tl_play1(g, *s);
}

void tl_expect_pos(const nk_game *g, const char *text)
{
    char got[NK_POS_TEXT];
    nk_pos_format(&g->pos, got);
    assert_string_equal(got, text);
    assert_true(g->pos.hash == nk_pos_hash(&g->pos));
}

void tl_expect_result(const nk_game *g, const char *reason, char winner,
                      unsigned south, unsigned north)
{
    assert_string_equal(nk_end_name(g->result.reason), reason);
    if (strcmp(reason, "none") == 0)
        return;
    int want = winner == 'S' ? NK_SOUTH : winner == 'N' ? NK_NORTH : NK_DRAW;
    assert_int_equal(g->result.winner, want);
    assert_int_equal(g->result.total[NK_SOUTH], south);
    assert_int_equal(g->result.total[NK_NORTH], north);
}

void tl_mask_text(unsigned mask, char *out)
{
    int k = 0;
    for (int m = 0; m <= NK_PASS; m++) {
        if (!(mask & (1u << m)))
            continue;
        if (k > 0)
            out[k++] = ' ';
        out[k++] = nk_move_letter(m);
    }
    out[k] = '\0';
}

void tl_expect_legal(const nk_game *g, const char *letters)
{
    char got[32];
    tl_mask_text(nk_game_legal(g), got);
    assert_string_equal(got, letters);
}

void tl_random_pos(int ref_variant, nk_rng *rng, ref_pos *out)
{
    static const int caps[] = {1, 2, 3, 4, 6, 9};
    ref_start(out, (int)nk_rng_below(rng, 2));
    int cap = caps[nk_rng_below(rng, 6)];
    for (int i = 0; i < 12; i++)
        out->pit[i] = (int)nk_rng_below(rng, (unsigned)cap + 1);
    /* Sometimes a row is empty, to reach feeding, no-feed and empty-row. */
    if (nk_rng_below(rng, 6) == 0) {
        int row = (int)nk_rng_below(rng, 2);
        for (int i = 0; i < 6; i++)
            out->pit[row * 6 + i] = 0;
    }
    /* Sometimes a big pit, for full laps (R-W2) and long relays. */
    if (nk_rng_below(rng, 5) == 0)
        out->pit[nk_rng_below(rng, 12)] = 10 + (int)nk_rng_below(rng, 30);
    int board = ref_on_board(out);
    out->store[0] = (int)nk_rng_below(rng, 30);
    out->store[1] = (int)nk_rng_below(rng, 30);
    if (board + out->store[0] + out->store[1] > 255) {
        out->store[0] = 0;
        out->store[1] = 0;
    }
    if (ref_variant == REF_ADJIKUI && nk_rng_below(rng, 2) == 0) {
        unsigned kind = nk_rng_below(rng, 8);
        for (int i = 0; i < 12; i++)
            out->owner[i] = kind == 0   ? REF_SOUTH
                            : kind == 1 ? REF_NORTH
                                        : (int)nk_rng_below(rng, 2);
    }
}
