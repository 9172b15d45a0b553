/*
 * fuzz_forge.h -- forged HDF5 files for the file harnesses (fuzz_tourfile,
 * fuzz_ciao): an input that starts with the 8 bytes "NKFORGE1" is not a
 * file but a list of edits to a good file, made through libhdf5 so that
 * every checksum of the result holds -- a forged file, as issue 27's
 * findings 2 and 4 forged values (tests/fuzz/regress/forge_h5.c does the
 * same by hand).  Raw damage seldom gets past the Fletcher-32 checksum of
 * a chunk; a forged value always does, and only nickar's own checks stand
 * between it and its use.
 *
 * After the magic, each edit is 14 bytes:
 *   0      object: index, modulo their number, into the good file's
 *          datasets and the attributes of its root group, in the order
 *          H5Ovisit and H5Aiterate give them (by name)
 *   1..4   byte offset (little-endian u32), modulo the object's size in
 *          memory (elements x the native type's size)
 *   5      how many bytes to write there: 1, 2, 4 or 8 (low 2 bits);
 *          bit 7 set: resize the dataset's first dimension to the value
 *          modulo twice its extent plus one instead (where it can grow)
 *   6..13  the bytes written (little-endian)
 * Variable-length strings are left alone.  The good file is the
 * environment variable's file (run_fuzz.sh sets it); without one, a forge
 * input is read as it is.  NICKAR_FUZZ_SAVE=FILE keeps a copy of the
 * forged file, to reproduce a finding with nickar itself.
 */
#ifndef NK_FUZZ_FORGE_H
#define NK_FUZZ_FORGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether data is a forge input (the magic). */
bool nk_fuzz_is_forge(const uint8_t *data, size_t size);

/* Copies the file that the environment variable env names to path and
 * applies the edits of data (a forge input).  False when there is no good
 * file (env unset) or it cannot be copied or opened: the caller then uses
 * the input as it is. */
bool nk_fuzz_forge(const char *env, const char *path, const uint8_t *data, size_t size);

#endif
