/*
 * zobrist.c -- the Zobrist keys, computed by the compiler.
 *
 * Each key is SplitMix64 of its index, written as a constant expression, so
 * the tables are const data with no initialisation step and no mutable
 * state.  Index ranges: pits 0..3071 (pit * 256 + count), stores
 * 4096..4607, side 8192, owners 8200..8211.
 */
#include "rules/internal.h"

#define ZKEY(x) NK_ZKEY(x)
#define ZSTEP(x) (ZKEY(x) ^ ZKEY((x) + 1))

#define K4(F, b) F(b), F((b) + 1), F((b) + 2), F((b) + 3)
#define K16(F, b) K4(F, b), K4(F, (b) + 4), K4(F, (b) + 8), K4(F, (b) + 12)
#define K64(F, b) K16(F, b), K16(F, (b) + 16), K16(F, (b) + 32), K16(F, (b) + 48)
#define K256(F, b) K64(F, b), K64(F, (b) + 64), K64(F, (b) + 128), K64(F, (b) + 192)
#define ROW(F, p) {K256(F, (p) * 256)}

const uint64_t nk_zpit[NK_PITS][256] = {
    ROW(ZKEY, 0), ROW(ZKEY, 1), ROW(ZKEY, 2), ROW(ZKEY, 3),
    ROW(ZKEY, 4), ROW(ZKEY, 5), ROW(ZKEY, 6), ROW(ZKEY, 7),
    ROW(ZKEY, 8), ROW(ZKEY, 9), ROW(ZKEY, 10), ROW(ZKEY, 11),
};

const uint64_t nk_zstep[NK_PITS][256] = {
    ROW(ZSTEP, 0), ROW(ZSTEP, 1), ROW(ZSTEP, 2), ROW(ZSTEP, 3),
    ROW(ZSTEP, 4), ROW(ZSTEP, 5), ROW(ZSTEP, 6), ROW(ZSTEP, 7),
    ROW(ZSTEP, 8), ROW(ZSTEP, 9), ROW(ZSTEP, 10), ROW(ZSTEP, 11),
};

const uint64_t nk_zstore[2][256] = {ROW(ZKEY, 16), ROW(ZKEY, 17)};

const uint64_t nk_zside = ZKEY(8192);

const uint64_t nk_zowner[NK_PITS] = {
    K4(ZKEY, 8200), K4(ZKEY, 8204), K4(ZKEY, 8208),
};
