/*
 * fuzz_ciao.c -- libFuzzer harness for what `nickar ciao RUN.h5` reads: the
 * champions of a run file's sampled generations (nk_ciao_source_read,
 * src/io/ciaofile.c, over the run file reader), with every = 1 and 2, and
 * the master tournament made from them (nk_master_alloc, as cmd_ciao.c
 * does before it plays).  The analysis file that `nickar ciao --output`
 * writes is read by nothing in nickar (h5py reads it), so the input here
 * is the run file `nickar ciao` takes; an input that starts with
 * "NKFORGE1" is a list of edits to the good run file $NICKAR_FUZZ_RUN,
 * made through libhdf5 so that its checksums hold (fuzz_forge.h).  A
 * refusal must be one line; any
 * crash, sanitizer report, leak, hang or oversized allocation is a bug.
 * Seeds: tests/fuzz/corpus/ciao/ (tests/fuzz/make_corpus.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "fuzz_forge.h"
#include "io/ciaofile.h"
#include "run/master.h"

static char path[512];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(path, sizeof path, "%s", nk_fuzz_path("ciao", ".h5"));
    return 0;
}

static void read_champions(size_t every)
{
    char err[1024];
    nk_ciao_source src;
    nk_status st = nk_ciao_source_read(&src, path, every, err, sizeof err);
    if (st == NK_OK) {
        if (src.variant == NULL || src.n != src.generations / every)
            abort();
        for (size_t k = 0; k < src.n; k++)
            if (src.gen[k] != (int32_t)((k + 1) * every))
                abort();
        nk_master_settings s = {.variant = src.variant,
                                .spec = &src.spec,
                                .ply_limit = src.ply_limit,
                                .n = src.n,
                                .d = src.d,
                                .weights = src.weights,
                                .pairs = 1,
                                .threads = 1,
                                .batch = 1};
        nk_master *m = NULL;
        (void)nk_master_alloc(&m, &s, err, sizeof err);
        nk_master_free(m);
    } else {
        nk_fuzz_refusal(err, sizeof err, 1);
    }
    nk_ciao_source_free(&src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!nk_fuzz_is_forge(data, size) || !nk_fuzz_forge("NICKAR_FUZZ_RUN", path, data, size))
        nk_fuzz_write(path, data, size);
    read_champions(1);
    read_champions(2);
    unlink(path);
    return 0;
}
