/*
 * fuzz_tb.c -- libFuzzer harness for the endgame database reader
 * (nk_tb_open, src/tb/file.c), as `nickar tablebase solve`, `nickar grade`
 * and `ab:...,tb=DIR` players read a .nktb file.  Each input is opened
 * twice: as it is, and with its header's checksum (bytes 48..55, FNV-1a
 * 64 of the header with that field zeroed, then of the data;
 * docs/tablebase.md) recomputed over the bytes given, so that mutated data
 * reaches the checks behind the checksum as a forged file would (issue 27,
 * finding 4).  When a file opens, positions of every pattern and board
 * seed count are probed as `solve` probes them (nk_tb_probe_pair,
 * nk_tb_outcome, nk_tb_move_pairs, nk_tb_move_values), and no value may
 * exceed the seeds on the board.  A refusal must be one line.  Seeds:
 * tests/fuzz/corpus/tb/ (tests/fuzz/make_corpus.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "tb/tb.h"

enum { HEADER = 96, SAMPLES = 12 };

static char path[512];
static uint8_t *buf;
static size_t buf_len;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(path, sizeof path, "%s", nk_fuzz_path("tb", ".nktb"));
    return 0;
}

/* The file's checksum (file.c): FNV-1a 64 of the header with bytes
 * 48..55 zeroed, then of the data. */
static uint64_t fnv(const uint8_t *d, size_t n)
{
    uint64_t x = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        x ^= (i >= 48 && i < 56) ? 0 : d[i];
        x *= 0x100000001b3ull;
    }
    return x;
}

static void check_value(int v, unsigned board)
{
    if (v < 0 || v > (int)board)
        abort(); /* a value is at most the seeds on the board */
}

static void probe(const nk_tb *tb, const nk_pos *pos)
{
    const unsigned board = nk_pos_on_board(pos);
    uint8_t byte;
    int theirs;
    if (nk_tb_probe_pair(tb, pos, &byte, &theirs) != NK_OK)
        return;
    const int mine = byte & NK_TB_VALUE_MASK;
    check_value(mine, board);
    check_value(theirs, board);
    (void)nk_tb_outcome(tb, pos, mine, theirs);
    if (nk_pos_end(tb->variant, pos) != NK_END_NONE)
        return;
    unsigned mask, cycle;
    int val[NK_PASS + 1], opp[NK_PASS + 1];
    if (nk_tb_move_pairs(tb, pos, &mask, val, opp, NULL) == NK_OK)
        for (unsigned m = mask; m; m &= m - 1) {
            const int move = __builtin_ctz(m);
            check_value(val[move], board);
            (void)nk_tb_outcome(tb, pos, val[move], opp[move]);
        }
    if (nk_tb_move_values(tb, pos, &mask, val, &cycle) == NK_OK)
        for (unsigned m = mask; m; m &= m - 1)
            check_value(val[__builtin_ctz(m)], board);
}

/* Samples of every pattern and board seed count, South to move. */
static void probe_all(const nk_tb *tb)
{
    for (unsigned k = 0; k < tb->npat; k++)
        for (unsigned b = 0; b <= tb->seeds; b++) {
            const uint64_t count = nk_tb_count(b);
            for (uint64_t i = 0; i < SAMPLES && i < count; i++) {
                nk_pos pos = {.side = NK_SOUTH, .north = tb->pat[k]};
                nk_tb_unrank(b, count <= SAMPLES ? i : i * (count / SAMPLES), pos.pit);
                pos.hash = nk_pos_hash(&pos);
                probe(tb, &pos);
            }
        }
}

static void open_probe(const uint8_t *data, size_t size)
{
    char err[1024];
    nk_fuzz_write(path, data, size);
    nk_tb tb;
    if (nk_tb_open(&tb, path, NULL, err, sizeof err) == NK_OK) {
        probe_all(&tb);
        nk_tb_close(&tb);
    } else {
        nk_fuzz_refusal(err, sizeof err, 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    open_probe(data, size);
    if (size >= HEADER) {
        if (size > buf_len) {
            free(buf);
            buf = malloc(size);
            buf_len = buf == NULL ? 0 : size;
            if (buf == NULL)
                abort();
        }
        memcpy(buf, data, size);
        const uint64_t sum = fnv(buf, size);
        memcpy(buf + 48, &sum, 8);
        open_probe(buf, size);
    }
    unlink(path);
    return 0;
}
