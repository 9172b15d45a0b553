/*
 * fuzz_weights.c -- libFuzzer harness for the weights file reader
 * (nk_playerio_read_weights, src/io/playerio.c), as a spec's
 * `weights=FILE` reads it: the input is written to a file and read with
 * room for NK_MAX_FEATURES numbers and for 3 (the "more than max" path),
 * then resolved as `ab:weights=FILE` for every variant (nk_playerio_load,
 * which checks the count against the feature set).  Every number read is
 * finite and the count within max; a refusal must be a terminated,
 * non-empty message; the same file gives the same answer twice.  Any
 * crash, sanitizer report, leak or hang is a bug.  Seeds:
 * tests/fuzz/corpus/weights/ (tests/fuzz/make_corpus.sh).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "io/playerio.h"

static char path[512], spec[600];
static nk_player_def def;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(path, sizeof path, "%s", nk_fuzz_path("weights", ".txt"));
    snprintf(spec, sizeof spec, "ab:depth=1,weights=%s", path);
    return 0;
}

static nk_status read_weights(size_t max, double *w, size_t *n)
{
    char err[1024];
    nk_status st = nk_playerio_read_weights(path, w, max, n, err, sizeof err);
    if (st == NK_OK) {
        if (*n == 0 || *n > max)
            abort();
        for (size_t i = 0; i < *n; i++)
            if (!isfinite(w[i]))
                abort(); /* one finite number a line */
    } else {
        nk_fuzz_refusal(err, sizeof err, 0);
    }
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    double w[NK_MAX_FEATURES], w2[NK_MAX_FEATURES];
    size_t n = 0, n2 = 0;
    nk_fuzz_write(path, data, size);
    nk_status st = read_weights(NK_MAX_FEATURES, w, &n);
    nk_status st2 = read_weights(NK_MAX_FEATURES, w2, &n2);
    if (st != st2 || (st == NK_OK && (n != n2 || memcmp(w, w2, n * sizeof *w) != 0)))
        abort(); /* deterministic */
    (void)read_weights(3, w2, &n2);
    for (size_t i = 0; i < nk_variant_count(); i++)
        if (nk_playerio_load(&def, spec, nk_variant_at(i), err, sizeof err) != NK_OK)
            nk_fuzz_refusal(err, sizeof err, 0);
    unlink(path);
    return 0;
}
