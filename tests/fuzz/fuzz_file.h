/*
 * fuzz_file.h -- what the file harnesses share (fuzz_tourfile, fuzz_ciao,
 * fuzz_tb, fuzz_records, fuzz_players, fuzz_weights): each input is written
 * to a temporary file that the reader under test opens by path, as the
 * nickar command does.  The file lies in $TMPDIR (run_fuzz.sh points it at
 * its own scratch directory) or /tmp, named for the harness and the
 * process, so parallel jobs (-jobs=N) do not share it.
 */
#ifndef NK_FUZZ_FILE_H
#define NK_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The path of this process's input file: TMPDIR/nk_fuzz_NAME_PID.EXT. */
const char *nk_fuzz_path(const char *name, const char *ext);

/* Writes data to nk_fuzz_path's file (aborts when it cannot: the harness
 * is broken, not the reader). */
void nk_fuzz_write(const char *path, const uint8_t *data, size_t size);

/* Aborts unless msg, a reader's refusal in a buffer of len bytes, is a
 * terminated, non-empty message; with one_line, also without a newline
 * (the binary readers' messages; a text reader's may quote the input,
 * which nk_cli_error escapes). */
void nk_fuzz_refusal(const char *msg, size_t len, int one_line);

/* Aborts unless the n names at first, first + stride, ... (each in a
 * buffer of len bytes) are terminated and unique: the names of a players
 * list or a ladder. */
void nk_fuzz_names(const char *first, size_t stride, size_t n, size_t len);

#endif
