/*
 * names.h -- lists of named things: "list the names" and "find by name",
 * written once for every list of type objects (selection schemes,
 * crossover and mutation operators, strategies, feature sets) and for the
 * choices of a parameter (base/param.h).
 *
 * A list is described, not copied: an nk_names view says where its items
 * are and how to step from one to the next.  Every item is a struct whose
 * first member is its name (`const char *name`), or a plain string.
 *
 *     static const nk_select_type *const list[] = {&a, &b, NULL};
 *     const nk_select_type *t = nk_names_find(NK_NAMES_PTRS(list), "a");
 *     char buf[128];
 *     nk_names_join(NK_NAMES_PTRS(list), buf, sizeof buf);   // "a, b"
 */
#ifndef NK_NAMES_H
#define NK_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct nk_names {
    const void *base; /* the first slot */
    size_t stride;    /* bytes from one slot to the next */
    size_t count;     /* slots; SIZE_MAX: the list ends at a NULL slot */
    bool indirect;    /* a slot holds a pointer to the item (else the item) */
} nk_names;

/* A NULL-terminated array of pointers to structs whose first member is the
 * name (`static const T *const list[] = {&a, &b, NULL}`). */
#define NK_NAMES_PTRS(list) ((nk_names){(list), sizeof *(list), SIZE_MAX, true})
/* An array of n structs whose first member is the name. */
#define NK_NAMES_ARRAY(arr, n) ((nk_names){(arr), sizeof *(arr), (n), false})
/* A NULL-terminated array of strings (`{"a", "b", NULL}`). */
#define NK_NAMES_STRINGS(list) ((nk_names){(list), sizeof *(list), SIZE_MAX, false})

/* The name of item i, or NULL past the end. */
const char *nk_names_at(nk_names list, size_t i);
/* The item (a struct or, for a list of strings, the slot) named name, or
 * NULL (also for a NULL name). */
const void *nk_names_find(nk_names list, const char *name);
/* The index of the item named name, or -1. */
long nk_names_index(nk_names list, const char *name);
/* Number of items. */
size_t nk_names_count(nk_names list);
/* Writes the names as "a, b, c" into buf[len] (cut short if it does not
 * fit; "" when len allows nothing else); returns buf. */
char *nk_names_join(nk_names list, char *buf, size_t len);

#endif
