/*
 * genome.c -- genomes, the binary encoding, populations.
 *
 * Invariants: every genome has dim >= 1 and lo[i] < hi[i] (finite) for all
 * i; a binary genome has 1 <= bits <= 32, so 2^k - 1 fits in a uint64_t and
 * converts to a double exactly.  A population's rows are contiguous: row i
 * of the weights is w + i * dim, row i of the bits is bits + i * nbits.
 */
#include "evolve/genome.h"
#include "base/alloc.h"
#include "base/names.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ===================================================================
 * Genomes
 * =================================================================== */

static bool bounds_ok(double lo, double hi)
{
    return isfinite(lo) && isfinite(hi) && lo < hi;
}

nk_status nk_genome_alloc(nk_genome **out, size_t dim, nk_encoding encoding,
                          unsigned bits, double lo, double hi,
                          char *err, size_t errlen)
{
    *out = NULL;
    if (dim == 0)
        return nk_fail(NK_EINVAL, err, errlen, "a genome needs at least one weight");
    if (encoding != NK_ENC_REAL && encoding != NK_ENC_BINARY)
        return nk_fail(NK_EINVAL, err, errlen, "unknown genome encoding %d", (int)encoding);
    if (encoding == NK_ENC_BINARY && (bits < 1 || bits > NK_GENOME_MAX_BITS))
        return nk_fail(NK_ERANGE, err, errlen,
                       "bits per weight must be 1..%d, not %u", NK_GENOME_MAX_BITS, bits);
    if (!bounds_ok(lo, hi))
        return nk_fail(NK_ERANGE, err, errlen,
                       "weight bounds [%g, %g] must be finite with min < max", lo, hi);
    nk_genome *g = nk_calloc(1, sizeof *g);
    if (g == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a genome");
    g->lo = nk_malloc(dim * sizeof *g->lo);
    g->hi = nk_malloc(dim * sizeof *g->hi);
    if (g->lo == NULL || g->hi == NULL) {
        nk_genome_free(g);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a genome of %zu weights", dim);
    }
    g->dim = dim;
    g->encoding = encoding;
    g->bits = encoding == NK_ENC_BINARY ? bits : 0;
    for (size_t i = 0; i < dim; i++) {
        g->lo[i] = lo;
        g->hi[i] = hi;
    }
    *out = g;
    return NK_OK;
}

void nk_genome_free(nk_genome *g)
{
    if (g == NULL)
        return;
    nk_free(g->lo);
    nk_free(g->hi);
    nk_free(g);
}

nk_status nk_genome_set_bounds(nk_genome *g, size_t i, double lo, double hi,
                               char *err, size_t errlen)
{
    if (i >= g->dim)
        return nk_fail(NK_ERANGE, err, errlen, "weight %zu of a genome of %zu", i, g->dim);
    if (!bounds_ok(lo, hi))
        return nk_fail(NK_ERANGE, err, errlen,
                       "bounds [%g, %g] of weight %zu must be finite with min < max", lo, hi, i);
    g->lo[i] = lo;
    g->hi[i] = hi;
    return NK_OK;
}

size_t nk_genome_nbits(const nk_genome *g)
{
    return g->encoding == NK_ENC_BINARY ? g->dim * g->bits : 0;
}

/* The encodings by name, indexed by nk_encoding. */
static const char *const encoding_names[] = {[NK_ENC_REAL] = "real", [NK_ENC_BINARY] = "binary",
                                             NULL};

nk_status nk_genome_encoding_parse(nk_encoding *out, const char *text,
                                   char *err, size_t errlen)
{
    long i = nk_names_index(NK_NAMES_STRINGS(encoding_names), text);
    if (i < 0) {
        char names[64];
        return nk_fail(NK_EINVAL, err, errlen, "unknown encoding '%s' (choose %s)", text,
                       nk_names_join(NK_NAMES_STRINGS(encoding_names), names, sizeof names));
    }
    *out = (nk_encoding)i;
    return NK_OK;
}

const char *nk_genome_encoding_name(nk_encoding encoding)
{
    return encoding == NK_ENC_BINARY ? encoding_names[NK_ENC_BINARY] : encoding_names[NK_ENC_REAL];
}

const char *nk_genome_encoding_name_at(size_t i)
{
    return nk_names_at(NK_NAMES_STRINGS(encoding_names), i);
}

double nk_genome_range(const nk_genome *g, size_t i)
{
    return g->hi[i] - g->lo[i];
}

/* ===================================================================
 * The binary encoding
 * =================================================================== */

static uint64_t full_scale(unsigned k)
{
    return ((uint64_t)1 << k) - 1;
}

double nk_genome_decode_gene(const unsigned char *bits, unsigned k, double lo,
                             double hi)
{
    uint64_t v = 0;
    for (unsigned b = 0; b < k; b++)
        v = (v << 1) | (bits[b] ? 1u : 0u);
    uint64_t full = full_scale(k);
    if (v == full)
        return hi; /* exact, whatever the rounding of (hi - lo) + lo */
    return lo + (hi - lo) * (double)v / (double)full;
}

void nk_genome_decode(const nk_genome *g, const unsigned char *bits, double *w)
{
    for (size_t i = 0; i < g->dim; i++)
        w[i] = nk_genome_decode_gene(bits + i * g->bits, g->bits, g->lo[i], g->hi[i]);
}

void nk_genome_encode(const nk_genome *g, const double *w, unsigned char *bits)
{
    unsigned k = g->bits;
    uint64_t full = full_scale(k);
    for (size_t i = 0; i < g->dim; i++) {
        double t = (w[i] - g->lo[i]) / (g->hi[i] - g->lo[i]);
        if (!(t > 0))
            t = 0; /* also NaN */
        if (t > 1)
            t = 1;
        uint64_t v = (uint64_t)llround(t * (double)full);
        unsigned char *row = bits + i * k;
        for (unsigned b = 0; b < k; b++)
            row[b] = (unsigned char)((v >> (k - 1 - b)) & 1u);
    }
}

void nk_genome_clamp(const nk_genome *g, double *w)
{
    for (size_t i = 0; i < g->dim; i++) {
        if (!(w[i] >= g->lo[i]))
            w[i] = g->lo[i]; /* also NaN */
        else if (w[i] > g->hi[i])
            w[i] = g->hi[i];
    }
}

/* ===================================================================
 * Populations
 * =================================================================== */

nk_status nk_pop_alloc(nk_pop **out, const nk_genome *g, size_t n,
                       bool with_sigma, char *err, size_t errlen)
{
    *out = NULL;
    if (n == 0)
        return nk_fail(NK_EINVAL, err, errlen, "a population needs at least one individual");
    nk_pop *p = nk_calloc(1, sizeof *p);
    if (p == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a population");
    p->genome = g;
    p->size = n;
    p->dim = g->dim;
    p->nbits = nk_genome_nbits(g);
    p->w = nk_calloc(n * g->dim, sizeof *p->w);
    p->fitness = nk_malloc(n * sizeof *p->fitness);
    p->id = nk_malloc(n * sizeof *p->id);
    p->parents = nk_malloc(2 * n * sizeof *p->parents);
    bool ok = p->w && p->fitness && p->id && p->parents;
    if (ok && with_sigma)
        ok = (p->sigma = nk_calloc(n * g->dim, sizeof *p->sigma)) != NULL;
    if (ok && p->nbits > 0)
        ok = (p->bits = nk_calloc(n * p->nbits, 1)) != NULL;
    if (!ok) {
        nk_pop_free(p);
        return nk_fail(NK_ENOMEM, err, errlen,
                       "out of memory for a population of %zu x %zu", n, g->dim);
    }
    for (size_t i = 0; i < n; i++) {
        p->fitness[i] = NAN;
        p->id[i] = -1;
        p->parents[2 * i] = p->parents[2 * i + 1] = -1;
    }
    *out = p;
    return NK_OK;
}

void nk_pop_free(nk_pop *p)
{
    if (p == NULL)
        return;
    nk_free(p->w);
    nk_free(p->sigma);
    nk_free(p->bits);
    nk_free(p->fitness);
    nk_free(p->id);
    nk_free(p->parents);
    nk_free(p);
}

double *nk_pop_w(const nk_pop *p, size_t i)
{
    return p->w + i * p->dim;
}

double *nk_pop_sigma(const nk_pop *p, size_t i)
{
    return p->sigma ? p->sigma + i * p->dim : NULL;
}

unsigned char *nk_pop_bits(const nk_pop *p, size_t i)
{
    return p->bits ? p->bits + i * p->nbits : NULL;
}

void nk_pop_copy_one(nk_pop *dst, size_t i, const nk_pop *src, size_t j)
{
    if (dst == src && i == j)
        return;
    memcpy(nk_pop_w(dst, i), nk_pop_w(src, j), dst->dim * sizeof(double));
    if (dst->sigma && src->sigma)
        memcpy(nk_pop_sigma(dst, i), nk_pop_sigma(src, j), dst->dim * sizeof(double));
    if (dst->bits && src->bits)
        memcpy(nk_pop_bits(dst, i), nk_pop_bits(src, j), dst->nbits);
    dst->fitness[i] = src->fitness[j];
    dst->id[i] = src->id[j];
    dst->parents[2 * i] = src->parents[2 * j];
    dst->parents[2 * i + 1] = src->parents[2 * j + 1];
}

void nk_pop_decode(nk_pop *p, size_t i)
{
    if (p->bits)
        nk_genome_decode(p->genome, nk_pop_bits(p, i), nk_pop_w(p, i));
}

void nk_pop_randomize(nk_pop *p, size_t i, double sigma0, gsl_rng *rng)
{
    const nk_genome *g = p->genome;
    double *w = nk_pop_w(p, i);
    if (p->bits) {
        unsigned char *b = nk_pop_bits(p, i);
        for (size_t j = 0; j < p->nbits; j++)
            b[j] = (unsigned char)gsl_rng_uniform_int(rng, 2);
        nk_genome_decode(g, b, w);
    } else {
        for (size_t j = 0; j < p->dim; j++)
            w[j] = g->lo[j] + nk_genome_range(g, j) * gsl_rng_uniform(rng);
    }
    double *s = nk_pop_sigma(p, i);
    if (s)
        for (size_t j = 0; j < p->dim; j++)
            s[j] = sigma0 * nk_genome_range(g, j);
}

bool nk_fitness_better(double a, double b)
{
    return a > b || (isnan(b) && !isnan(a));
}

size_t nk_fitness_best(const double *fitness, size_t n)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (nk_fitness_better(fitness[i], fitness[best]))
            best = i;
    return best;
}

size_t nk_pop_best(const nk_pop *p)
{
    return nk_fitness_best(p->fitness, p->size);
}
