/*
 * internal.h -- what the files of src/rules/ share and nobody else sees:
 * the Zobrist key tables and small inline helpers on rows.
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

/* The 6 pits of a default row, as a byte mask test on 64-bit words:
 * South's row is bytes 0..5 of pit[0..7], North's bytes 2..7 of pit[4..11]. */
static inline bool nk_row_empty(const nk_pos *p, int side)
{
    uint64_t w;
    if (side == NK_SOUTH) {
        memcpy(&w, p->pit, 8);
        return (w & 0xFFFFFFFFFFFFull) == 0;
    }
    memcpy(&w, p->pit + 4, 8);
    return (w >> 16) == 0;
}

/* Sum of the bytes of a word whose byte total is below 256. */
static inline unsigned nk_byte_sum(uint64_t w)
{
    return (unsigned)((w * 0x0101010101010101ull) >> 56);
}

/* Seeds of one default row. */
static inline unsigned nk_row_sum(const nk_pos *p, int side)
{
    uint64_t w;
    if (side == NK_SOUTH) {
        memcpy(&w, p->pit, 8);
        return nk_byte_sum(w & 0xFFFFFFFFFFFFull);
    }
    memcpy(&w, p->pit + 4, 8);
    return nk_byte_sum(w >> 16);
}

/* Set bits of a mask below 2^16 (portable: no popcnt instruction needed). */
static inline unsigned nk_popcount16(unsigned x)
{
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0F0Fu;
    return (x + (x >> 8)) & 0x1Fu;
}

/* The majority floor(T/2) + 1 of R-B5. */
unsigned nk_majority(unsigned total);

/* nk_pos_end for a position reached by a move from a live position: the
 * majority and few-seeds rules can only start to hold after a capture. */
nk_end nk_pos_end_after(const nk_variant *v, const nk_pos *pos, bool captured);

#endif
