/*
 * testlib.h -- helpers shared by the rules tests (tests/test_rules_*.c):
 * conversions between the engine's nk_pos and the reference's ref_pos (both
 * through the R-B3 text), and short ways to set up, play and check games.
 *
 * A test program includes testlib.c (which includes reference.c) after the
 * cmocka headers.  Every helper fails the current cmocka test on error.
 */
#ifndef NK_TESTLIB_H
#define NK_TESTLIB_H

#include <stdint.h>

#include "rules/rules.h"
#include "reference.h"

/* The engine variant of a reference variant, and by name. */
const nk_variant *tl_variant(int ref_variant);
const nk_variant *tl_variant_named(const char *name);

/* Parses text into an engine position (the test fails if it is rejected). */
void tl_pos(nk_pos *pos, const char *text);
/* Engine position <-> reference position, through R-B3 text. */
void tl_to_ref(const nk_pos *pos, ref_pos *out);
void tl_from_ref(const ref_pos *r, nk_pos *out);

/* A heap-allocated engine game from a position text (NULL: the start
 * position, South to move); ply_limit 0 means the default. */
nk_game *tl_game(const nk_variant *v, const char *text, unsigned ply_limit);
/* Plays space-separated move letters; each must be legal. */
void tl_play(nk_game *g, const char *moves);
/* Plays one move letter and returns what it did. */
nk_ply_info tl_play1(nk_game *g, char letter);
/* Asserts the current position's text. */
void tl_expect_pos(const nk_game *g, const char *text);
/* Asserts the result: reason name ("none" while going on), winner ('S', 'N',
 * 'D'), totals. */
void tl_expect_result(const nk_game *g, const char *reason, char winner,
                      unsigned south, unsigned north);
/* Asserts the legal moves of the game now, as letters ("a c F", "-", ""). */
void tl_expect_legal(const nk_game *g, const char *letters);
/* Mask -> "a c F" (out holds at least 32 bytes). */
void tl_mask_text(unsigned mask, char *out);

/* Random positions for the differential and property tests: pit counts
 * with a small total, random stores, random side, and (adjikui) random
 * owners.  Always a valid R-B3 position (total <= 255). */
void tl_random_pos(int ref_variant, nk_rng *rng, ref_pos *out);

#endif
