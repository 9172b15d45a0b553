/*
 * fuzz_tourfile.c -- libFuzzer harness for the tournament file reader
 * (src/io/tourfile.c).  Each input is written to a file and read the ways
 * nickar reads tournament files:
 *
 *   - `nickar inspect FILE`: nk_tour_is_file, nk_tour_read, then the
 *     printers of the rating list, cross table and pairings
 *     (nk_report_tournament, src/cli/report.c) as text, JSON and CSV, with
 *     stdout sent to /dev/null;
 *   - `nickar tournament ... --output FILE --resume`: a tournament made
 *     from the file's own settings and players (nk_tournament_alloc) is
 *     restored from the record read (nk_tournament_restore), and the record
 *     is written again as a batch would write it (nk_tour_write) and read
 *     back, which must succeed.
 *
 * An input that starts with "NKFORGE1" is a list of edits to the good
 * tournament file $NICKAR_FUZZ_TOUR, made through libhdf5 so that its
 * checksums hold (fuzz_forge.h): forged values, which raw damage seldom
 * gets past the chunks' Fletcher-32 checksums to make.
 *
 * A refusal must be one line; any crash, sanitizer report, leak, hang or
 * oversized allocation is a bug (tests/CMakeLists.txt builds this with
 * clang, -fsanitize=fuzzer,address,undefined; docs/testing.md, "Fuzzing";
 * the seeds are tests/fuzz/corpus/tourfile/, made by
 * tests/fuzz/make_corpus.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "cli/report.h"
#include "fuzz_file.h"
#include "fuzz_forge.h"
#include "io/tourfile.h"
#include "run/tournament.h"

static char path[512], out[520];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(path, sizeof path, "%s", nk_fuzz_path("tourfile", ".h5"));
    snprintf(out, sizeof out, "%s.out", path);
    if (freopen("/dev/null", "w", stdout) == NULL)
        abort();
    return 0;
}

/* What `nickar inspect` prints of a tournament file. */
static void print_all(const nk_tour *t)
{
    nk_cli cli = {.name = "inspect"};
    for (int mode = NK_REPORT_TEXT; mode <= NK_REPORT_CSV; mode++)
        (void)nk_report_tournament(&cli, t, (nk_report_mode)mode);
    fflush(stdout);
}

/* What --resume does with the record: a tournament of the file's own
 * settings and players, restored from it, and the record written again. */
static void resume(const nk_tour *t)
{
    char err[1024];
    nk_spec *specs = nk_calloc(t->nplayers + 1, sizeof *specs);
    nk_tour_entry *entries = nk_calloc(t->nplayers + 1, sizeof *entries);
    bool ok = specs != NULL && entries != NULL;
    for (size_t i = 0; ok && i < t->nplayers; i++) {
        const nk_tour_player *p = &t->players[i];
        ok = nk_spec_parse(&specs[i], p->spec, err, sizeof err) == NK_OK && p->n_weights >= 0 &&
             p->n_weights <= NK_MAX_FEATURES;
        if (ok)
            entries[i] = (nk_tour_entry){p->name, &specs[i], p->weights, (size_t)p->n_weights};
    }
    nk_tournament *run = NULL;
    if (ok) {
        nk_tournament_settings s = {.tour = t->set,
                                    .players = entries,
                                    .nplayers = t->nplayers,
                                    .threads = 1,
                                    .created = t->created};
        if (nk_tournament_alloc(&run, &s, err, sizeof err) == NK_OK &&
            nk_tournament_restore(run, t, err, sizeof err) == NK_OK) {
            if (nk_tour_write(nk_tournament_record_of(run), out, err, sizeof err) != NK_OK)
                abort(); /* the record read and checked can be written */
            nk_tour back;
            if (nk_tour_read(&back, out, err, sizeof err) != NK_OK)
                abort(); /* and what was written reads again */
            nk_tour_free(&back);
            unlink(out);
        }
    }
    nk_tournament_free(run);
    nk_free(entries);
    nk_free(specs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    if (!nk_fuzz_is_forge(data, size) || !nk_fuzz_forge("NICKAR_FUZZ_TOUR", path, data, size))
        nk_fuzz_write(path, data, size);
    (void)nk_tour_is_file(path);
    nk_tour t;
    nk_status st = nk_tour_read(&t, path, err, sizeof err);
    if (st == NK_OK) {
        print_all(&t);
        resume(&t);
        nk_tour_free(&t);
    } else {
        nk_fuzz_refusal(err, sizeof err, 1);
    }
    unlink(path);
    return 0;
}
