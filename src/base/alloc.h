/*
 * alloc.h -- nickar's one allocation seam.
 *
 * Every allocation of nickar's own code goes through these functions (the
 * memory of libraries -- HDF5, GSL, inih, getline -- does not), so that a
 * test can make the Nth allocation fail and check that each failure ends
 * in a clean NK_ENOMEM: no crash, no leak, no damaged file.  The switch is
 * nk_alloc_fail_at(); `nickar` sets it from the environment variable
 * NICKAR_FAIL_ALLOC=N (tests/test_alloc_fail.sh walks N over every
 * allocation of a small run).  With the switch off (the default) these are
 * malloc, calloc, realloc, strdup and free plus one relaxed atomic add.
 */
#ifndef NK_ALLOC_H
#define NK_ALLOC_H

#include <stddef.h>

void *nk_malloc(size_t size);
void *nk_calloc(size_t n, size_t size);
void *nk_realloc(void *p, size_t size);
char *nk_strdup(const char *s);
void nk_free(void *p);

/* Makes allocation number n (counting from 1 since the program started or
 * since the last call) and every later one fail, as if memory had run out;
 * 0 turns failures off.  Resets the count. */
void nk_alloc_fail_at(unsigned long n);
/* Allocations counted since the program started or the last
 * nk_alloc_fail_at() (for a test that walks N up to this number). */
unsigned long nk_alloc_count(void);

#endif
