/*
 * fuzz_ladder.c -- libFuzzer harness for the reference ladder reader
 * (nk_ladder_read, src/io/ladder.c), as `nickar rate` reads
 * results/ladder/<variant>.tsv, under one variant an input (chosen by its
 * size).  A ladder read has 1 to NK_LADDER_MAX players with unique,
 * terminated names and finite ratings, and an anchor inside it when it
 * has results; a refusal must be a terminated, non-empty message.  Any
 * crash, sanitizer report, leak or hang is a bug.  Seeds:
 * tests/fuzz/corpus/ladder/ (tests/fuzz/make_corpus.sh copies two of
 * results/ladder/).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "io/ladder.h"

static char path[512];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(path, sizeof path, "%s", nk_fuzz_path("ladder", ".tsv"));
    return 0;
}

static void check(const nk_ladder *l)
{
    if (l->n == 0 || l->n > NK_LADDER_MAX || (l->wdl != NULL && l->anchor >= l->n))
        abort();
    nk_fuzz_names(l->rung[0].name, sizeof l->rung[0], l->n, NK_PLAYER_NAME);
    for (size_t i = 0; i < l->n; i++)
        if (!isfinite(l->rung[i].elo))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    nk_fuzz_write(path, data, size);
    nk_ladder l;
    if (nk_ladder_read(&l, path, nk_variant_at(size % nk_variant_count()), err, sizeof err) ==
        NK_OK)
        check(&l);
    else
        nk_fuzz_refusal(err, sizeof err, 0);
    nk_ladder_free(&l);
    unlink(path);
    return 0;
}
