/*
 * fuzz_players.c -- libFuzzer harness for the players file reader
 * (nk_player_list_read, src/io/playerio.c), as `nickar tournament
 * --players FILE` reads it, under one variant an input (chosen by its
 * size).  The reader runs in a directory of its own (the working
 * directory is restored after each input, for libFuzzer's relative paths)
 * that holds a weights file `w.txt` (9 numbers, the positional set's)
 * and, when NICKAR_FUZZ_RUN names a run file (run_fuzz.sh sets it to
 * tests/fuzz/corpus/ciao/ga3.h5), a link `r.h5` to it, so that lines such
 * as `a = ab:weights=w.txt` and `b = r.h5@champions` of the seeds
 * resolve.  A refusal must be a terminated, non-empty message; a list
 * read holds unique, terminated names; any crash, sanitizer report, leak
 * or hang is a bug.  Seeds: tests/fuzz/corpus/players/
 * (tests/fuzz/make_corpus.sh).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "io/playerio.h"
#include "tb/tb.h"

static char path[512], dir[512], home[4096];

static void remove_dir(void)
{
    char p[600];
    snprintf(p, sizeof p, "%s/w.txt", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/r.h5", dir);
    unlink(p);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(path, sizeof path, "%s", nk_fuzz_path("players", ".txt"));
    snprintf(dir, sizeof dir, "%s", nk_fuzz_path("players", ".d"));
    const char *run = getenv("NICKAR_FUZZ_RUN");
    char *abs = run != NULL && run[0] != '\0' ? realpath(run, NULL) : NULL;
    if (getcwd(home, sizeof home) == NULL || mkdir(dir, 0700) != 0 || chdir(dir) != 0)
        abort();
    atexit(remove_dir);
    /* the positional feature set's 9 numbers */
    static const char weights[] = "# a weights file\n1\n-0.5\n2.25\n0\n1e-3\n3\n4\n5\n-6\n";
    nk_fuzz_write("w.txt", (const uint8_t *)weights, sizeof weights - 1);
    if (abs != NULL && symlink(abs, "r.h5") != 0)
        abort();
    free(abs);
    if (chdir(home) != 0) /* libFuzzer reads its corpus after this */
        abort();
    return 0;
}

static void check(const nk_player_list *l)
{
    if (l->n > 0)
        nk_fuzz_names(l->p[0].name, sizeof l->p[0], l->n, NK_PLAYER_NAME);
    for (size_t i = 0; i < l->n; i++)
        if (l->p[i].def.n > NK_MAX_FEATURES)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    nk_fuzz_write(path, data, size);
    if (chdir(dir) != 0)
        abort();
    /* one variant an input, by its size: a fixed choice, and one read */
    nk_player_list l = {0};
    if (nk_player_list_read(&l, path, nk_variant_at(size % nk_variant_count()), err,
                            sizeof err) == NK_OK)
        check(&l);
    else
        nk_fuzz_refusal(err, sizeof err, 0);
    nk_player_list_free(&l);
    nk_tb_shared_close_all(); /* a spec's tb=DIR opened a database */
    if (chdir(home) != 0)
        abort();
    unlink(path);
    return 0;
}
