/*
 * fuzz_records.c -- libFuzzer harness for the game records reader
 * (nk_records_read, src/io/records.c), as `nickar replay` and `nickar view`
 * read a records file.  Each input is written to a file and read; each
 * record read is replayed as those commands step through it
 * (nk_record_game at the start, half way and the end), and formatted
 * (nk_record_format) to a line that must read back (nk_record_parse) to
 * the same line: the round trip that `match --records` and `replay` rely
 * on.  A refusal must be a terminated, non-empty message; any crash,
 * sanitizer report, leak or hang is a bug.  Seeds:
 * tests/fuzz/corpus/records/ (tests/fuzz/make_corpus.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "fuzz_file.h"
#include "io/records.h"

static char path[512];
static char line[NK_RECORD_LINE], again[NK_RECORD_LINE];
static nk_game game;
static nk_record back;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(path, sizeof path, "%s", nk_fuzz_path("records", ".txt"));
    return 0;
}

static void check(const nk_record *r)
{
    char err[1024];
    const unsigned at[3] = {0, r->plies / 2, r->plies};
    for (int i = 0; i < 3; i++)
        if (nk_record_game(r, &game, at[i], err, sizeof err) != NK_OK)
            abort(); /* a record read replays */
    size_t n = nk_record_format(r, line, sizeof line);
    if (n >= sizeof line)
        abort();
    if (nk_record_parse(&back, line, err, sizeof err) != NK_OK)
        abort(); /* its line reads again */
    nk_record_format(&back, again, sizeof again);
    if (strcmp(line, again) != 0)
        abort(); /* to the same record */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    nk_fuzz_write(path, data, size);
    nk_record *recs = NULL;
    size_t n = 0;
    nk_status st = nk_records_read(path, &recs, &n, err, sizeof err);
    if (st == NK_OK) {
        if (n == 0)
            abort();
        for (size_t i = 0; i < n; i++)
            check(&recs[i]);
    } else {
        nk_fuzz_refusal(err, sizeof err, 0);
    }
    nk_free(recs);
    unlink(path);
    return 0;
}
