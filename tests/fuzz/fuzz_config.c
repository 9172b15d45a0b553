/*
 * fuzz_config.c -- libFuzzer target of the config reader (src/io/config.c):
 * the input as INI text (nk_config_load_string) and as a file
 * (nk_config_load, through a temporary file, so the bounded line reader and
 * `include` run too).
 *
 * Checks beyond "no crash, no sanitizer report": text and file give the
 * same answer but where the file may do more (an include); a config read
 * is validated, and when valid its formatted text (nk_config_format) reads
 * back to the same text -- the round trip that --print-config and the run
 * file's stored config rely on.  ctest builds it with
 * clang and runs it briefly (fuzz_config); long campaigns:
 * tests/fuzz/run.sh (docs/testing.md, "Fuzzing").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

/* The formatted text of cfg (malloc'd). */
static char *format(const nk_config *cfg)
{
    size_t n = nk_config_format(cfg, NULL, 0);
    char *buf = malloc(n + 1);
    if (buf != NULL)
        nk_config_format(cfg, buf, n + 1);
    return buf;
}

static void round_trip(const nk_config *cfg)
{
    char err[NK_MSG_MAX];
    if (nk_config_validate(cfg, err, sizeof err) != NK_OK)
        return;
    char *text = format(cfg);
    nk_config *back = NULL;
    if (text == NULL || nk_config_new(&back, err, sizeof err) != NK_OK)
        abort();
    if (nk_config_load_string(back, text, "formatted", err, sizeof err) != NK_OK)
        abort();
    char *again = format(back);
    if (again == NULL || strcmp(text, again) != 0)
        abort();
    free(again);
    free(text);
    nk_config_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (path[0] == '\0') {
        snprintf(path, sizeof path, "/tmp/nickar-fuzz-config-%ld.ini", (long)getpid());
    }
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char err[NK_MSG_MAX];
    nk_config *cfg = NULL;
    if (nk_config_new(&cfg, err, sizeof err) != NK_OK)
        abort();
    nk_status st = nk_config_load_string(cfg, text, "fuzz", err, sizeof err);
    if (memchr(err, '\0', sizeof err) == NULL)
        abort();
    if (st == NK_OK)
        round_trip(cfg);
    nk_config_free(cfg);

    FILE *f = fopen(path, "wb");
    if (f == NULL)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    if (nk_config_new(&cfg, err, sizeof err) != NK_OK)
        abort();
    nk_status fst = nk_config_load(cfg, path, err, sizeof err);
    /* text stops at a NUL the file reads as "a NUL byte"; include works only
     * in a file; otherwise both readers agree */
    if (memchr(data, '\0', size) == NULL && strstr(text, "include") == NULL &&
        (fst == NK_OK) != (st == NK_OK))
        abort();
    if (fst == NK_OK)
        round_trip(cfg);
    nk_config_free(cfg);
    unlink(path);
    free(text);
    return 0;
}
