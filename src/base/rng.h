/*
 * rng.h -- the small deterministic generator and the seed mixing that every
 * layer uses.
 *
 * nk_rng is SplitMix64: 8 bytes of state.  The engine's playouts and the
 * players' tie-breaks draw from it, so the rules layer needs nothing beyond
 * libc; the evolution layers use GSL's generators, seeded through
 * nk_seed_mix.  nk_seed_mix(a, b, c) is the fixed hash from which every
 * per-game and per-individual seed is derived (docs/architecture.md,
 * "Randomness and determinism"): changing it changes every run.
 */
#ifndef NK_RNG_H
#define NK_RNG_H

#include <stdint.h>

typedef struct nk_rng {
    uint64_t s;
} nk_rng;

static inline uint64_t nk_rng_next(nk_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1 (Lemire's multiply-shift, bias < n / 2^64). */
static inline unsigned nk_rng_below(nk_rng *r, unsigned n)
{
    return (unsigned)(((unsigned __int128)nk_rng_next(r) * n) >> 64);
}

/* Mixes three 64-bit words into one seed (per-game and per-individual
 * seeds). */
uint64_t nk_seed_mix(uint64_t a, uint64_t b, uint64_t c);

#endif
