/*
 * fuzz_pos.c -- libFuzzer target of the position parser (nk_pos_parse,
 * docs/rules.md R-B3) and the move-letter parser (nk_move_parse).
 *
 * Checks beyond "no crash, no sanitizer report": a position read is
 * written back (nk_pos_format) as text that reads again to the same
 * position and the same text, with at most 255 seeds in play; a refusal
 * leaves a terminated message; a move letter reads back to itself.
 * ctest builds it with clang and runs it briefly (fuzz_pos); long
 * campaigns: tests/fuzz/run.sh (docs/testing.md, "Fuzzing").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    for (size_t i = 0; i < size; i++) {
        int move = nk_move_parse(text[i]);
        if (move != NK_NO_MOVE && nk_move_letter(move) != text[i])
            abort();
    }

    nk_pos pos, again;
    char err[NK_MSG_MAX];
    memset(err, 'x', sizeof err);
    if (nk_pos_parse(&pos, text, err, sizeof err) == NK_OK) {
        char out[NK_POS_TEXT], out2[NK_POS_TEXT];
        nk_pos_format(&pos, out);
        if (nk_pos_total(&pos) > 255)
            abort();
        if (nk_pos_parse(&again, out, err, sizeof err) != NK_OK)
            abort();
        nk_pos_format(&again, out2);
        if (strcmp(out, out2) != 0 || nk_pos_hash(&pos) != nk_pos_hash(&again))
            abort();
    } else if (memchr(err, '\0', sizeof err) == NULL) {
        abort();
    }
    free(text);
    return 0;
}
