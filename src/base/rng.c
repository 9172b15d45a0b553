/*
 * rng.c -- seed mixing (rng.h).
 */
#include "base/rng.h"

uint64_t nk_seed_mix(uint64_t a, uint64_t b, uint64_t c)
{
    nk_rng r = {a};
    r.s = nk_rng_next(&r) ^ b;
    r.s = nk_rng_next(&r) ^ c;
    return nk_rng_next(&r);
}
