/*
 * alloc.c -- the allocation seam (alloc.h).
 *
 * The count is shared by all threads (games are played on OpenMP threads),
 * so it is kept with atomic operations; which allocation is "the Nth" is
 * repeatable only when one thread allocates, as in the failure tests.
 * Once failing, every later allocation fails too, the way memory that has
 * run out stays out: a path that recovers by allocating again is tested
 * against that.
 */
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

static unsigned long fail_at; /* 0: off */
static unsigned long count;

static int refused(void)
{
    unsigned long n = __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    unsigned long at = __atomic_load_n(&fail_at, __ATOMIC_RELAXED);
    return at != 0 && n >= at;
}

void *nk_malloc(size_t size)
{
    return refused() ? NULL : malloc(size);
}

void *nk_calloc(size_t n, size_t size)
{
    return refused() ? NULL : calloc(n, size);
}

void *nk_realloc(void *p, size_t size)
{
    return refused() ? NULL : realloc(p, size);
}

char *nk_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = nk_malloc(n);
    if (c != NULL)
        memcpy(c, s, n);
    return c;
}

void nk_free(void *p)
{
    free(p);
}

void nk_alloc_fail_at(unsigned long n)
{
    __atomic_store_n(&count, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&fail_at, n, __ATOMIC_RELAXED);
}

unsigned long nk_alloc_count(void)
{
    return __atomic_load_n(&count, __ATOMIC_RELAXED);
}
