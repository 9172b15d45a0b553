/*
 * names.c -- lists of named things (contract in names.h).
 */
#include "base/names.h"

#include <stdio.h>
#include <string.h>

/* The item in slot i (NULL past the end). */
static const void *item_at(nk_names l, size_t i)
{
    if (i >= l.count || l.base == NULL)
        return NULL;
    const void *slot = (const char *)l.base + i * l.stride;
    const void *item = l.indirect ? *(const void *const *)slot : slot;
    if (item == NULL || *(const char *const *)item == NULL)
        return NULL;
    return item;
}

const char *nk_names_at(nk_names list, size_t i)
{
    const void *item = item_at(list, i);
    return item != NULL ? *(const char *const *)item : NULL;
}

long nk_names_index(nk_names list, const char *name)
{
    if (name == NULL)
        return -1;
    for (size_t i = 0;; i++) {
        const char *n = nk_names_at(list, i);
        if (n == NULL)
            return -1;
        if (strcmp(n, name) == 0)
            return (long)i;
    }
}

const void *nk_names_find(nk_names list, const char *name)
{
    long i = nk_names_index(list, name);
    return i < 0 ? NULL : item_at(list, (size_t)i);
}

size_t nk_names_count(nk_names list)
{
    size_t n = 0;
    while (nk_names_at(list, n) != NULL)
        n++;
    return n;
}

char *nk_names_join(nk_names list, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; used < len; i++) {
        const char *n = nk_names_at(list, i);
        if (n == NULL)
            break;
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", n);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}
