/*
 * fuzz_runfile.c -- libFuzzer harness for the run file reader
 * (src/io/runfile.c).  Each input is written to a file and read the ways
 * nickar reads run files: nk_run_open for reading, then what `nickar
 * inspect` and weights=RUN.h5@... read (the stats and benchmark rows, the
 * last generation's population, the checkpoint), then nk_run_open for
 * writing (as --resume opens it: that reads and checks every complete row)
 * and nk_run_truncate.  Any crash, sanitizer report, leak, hang or
 * oversized allocation is a bug (tests/CMakeLists.txt builds this with
 * clang, -fsanitize=fuzzer,address,undefined; docs/testing.md says how to
 * run it; tests/fuzz/corpus/runfile/ holds the seeds and every input that
 * once failed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/runfile.h"

static char path[256];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/nk_fuzz_runfile_%ld.h5",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp", (long)getpid());
    return 0;
}

static void write_input(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        abort();
    if (size > 0 && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
}

/* What inspect and run-file weights read. */
static void read_all(nk_run *run)
{
    char err[1024];
    const nk_run_meta *m = nk_run_get_meta(run);
    size_t g = nk_run_generations(run), nb = nk_run_benchmarks(run);
    size_t ng = nk_run_games(run);
    if (m->features != NULL)
        for (size_t i = 0; i < m->d; i++)
            if (m->features[i] == NULL)
                abort();
    nk_run_stats *stats = nk_calloc(g + 1, sizeof *stats);
    nk_run_bench *bench = nk_calloc(nb + 1, sizeof *bench);
    nk_run_game *games = nk_calloc(ng < 64 ? ng + 1 : 64, sizeof *games);
    double *genome = nk_calloc(m->n * m->d + 1, sizeof *genome);
    double *fitness = nk_calloc(m->n + 1, sizeof *fitness);
    double *sigma = m->has_sigma ? nk_calloc(m->n * m->d + 1, sizeof *sigma) : NULL;
    if (stats != NULL && bench != NULL && games != NULL && genome != NULL &&
        fitness != NULL) {
        (void)nk_run_read_stats(run, 0, g, stats, err, sizeof err);
        (void)nk_run_read_benchmark(run, 0, nb, bench, err, sizeof err);
        (void)nk_run_read_games(run, 0, ng < 64 ? ng : 64, games, err, sizeof err);
        if (g > 0) {
            nk_run_pop pop = {.genome = genome, .fitness = fitness, .sigma = sigma};
            (void)nk_run_read_population(run, g - 1, &pop, err, sizeof err);
            (void)nk_run_read_population(run, 0, &pop, err, sizeof err);
        }
    }
    for (size_t i = 0; i < nk_run_checkpoints(run); i++) {
        const char *name = nk_run_checkpoint_name(run, i);
        nk_run_kind kind;
        size_t count;
        if (nk_run_checkpoint_info(run, name, &kind, &count, err, sizeof err) != NK_OK)
            continue;
        void *buf = nk_malloc(count * (kind == NK_RUN_F64 ? 8 : 1) + 1);
        if (buf != NULL)
            (void)nk_run_read_checkpoint(run, name, kind, buf, count, err, sizeof err);
        nk_free(buf);
    }
    nk_free(stats);
    nk_free(bench);
    nk_free(games);
    nk_free(genome);
    nk_free(fitness);
    nk_free(sigma);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    write_input(data, size);
    nk_run *run = NULL;
    if (nk_run_open(&run, path, false, err, sizeof err) == NK_OK) {
        read_all(run);
        nk_run_close(run);
        run = NULL;
        if (nk_run_open(&run, path, true, err, sizeof err) == NK_OK) {
            bool dropped;
            (void)nk_run_truncate(run, &dropped, err, sizeof err);
            nk_run_close(run);
        }
    } else if (strchr(err, '\n') != NULL || err[0] == '\0') {
        abort(); /* every refusal is one line */
    }
    unlink(path);
    return 0;
}
