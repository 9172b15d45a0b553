/*
 * fuzz_file.c -- the temporary input file of the file harnesses
 * (fuzz_file.h).
 */
#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *nk_fuzz_path(const char *name, const char *ext)
{
    static char path[512];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/nk_fuzz_%s_%ld%s",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp", name, (long)getpid(), ext);
    return path;
}

void nk_fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        abort();
    if (size > 0 && fwrite(data, 1, size, f) != size)
        abort();
    if (fclose(f) != 0)
        abort();
}

void nk_fuzz_refusal(const char *msg, size_t len, int one_line)
{
    if (memchr(msg, '\0', len) == NULL || msg[0] == '\0')
        abort();
    if (one_line && strchr(msg, '\n') != NULL)
        abort();
}

void nk_fuzz_names(const char *first, size_t stride, size_t n, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        const char *name = first + i * stride;
        if (memchr(name, '\0', len) == NULL)
            abort();
        for (size_t j = 0; j < i; j++)
            if (strcmp(name, first + j * stride) == 0)
                abort(); /* names are unique */
    }
}
