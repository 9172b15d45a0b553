/*
 * fuzz_spec.c -- libFuzzer target of the player-spec parser (nk_spec_parse,
 * docs/cli.md "Player specs"): `random`, `ab:depth=3,features=...`, ...
 *
 * Checks beyond "no crash, no sanitizer report": the parser is
 * deterministic (the same text gives the same answer and message twice)
 * and a refusal leaves a terminated message.  ctest builds it with clang
 * and runs it briefly (fuzz_spec); long campaigns: tests/fuzz/run.sh
 * (docs/testing.md, "Fuzzing").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search/player.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    nk_spec a, b;
    char e1[NK_MSG_MAX], e2[NK_MSG_MAX];
    memset(e1, 'x', sizeof e1);
    memset(e2, 'y', sizeof e2);
    nk_status s1 = nk_spec_parse(&a, text, e1, sizeof e1);
    nk_status s2 = nk_spec_parse(&b, text, e2, sizeof e2);
    if (s1 != s2)
        abort();
    if (s1 != NK_OK && (memchr(e1, '\0', sizeof e1) == NULL || strcmp(e1, e2) != 0))
        abort();
    free(text);
    return 0;
}
