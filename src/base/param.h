/*
 * param.h -- parameter descriptors: every tunable value of the framework
 * (an operator's knob, a player-spec option, a config key) is declared once,
 * in an X-macro list next to the settings struct that holds it, and the list
 * is expanded into whatever needs it: the struct's fields, the library
 * defaults, the config schema, the player-spec parser, --print-config and
 * configs/README.md.
 *
 * A list row has twelve arguments:
 *
 *     X(P, section, name, field, TYPE, ctype, "default", bounds, choices,
 *       check, "rule", "help")
 *
 *   P        the path of the struct holding the field inside the struct a
 *            table describes (passed in by the expander, e.g. selection.par);
 *   section, name   the key "section.name" (bare words, stringified);
 *   field    the member of the settings struct (often = name);
 *   TYPE     INT, UINT64, DOUBLE, BOOL, STRING, ENUM, SPECS (NK_PARAM_<TYPE>);
 *   ctype    the member's C type (used by NK_PARAM_FIELD to declare it);
 *   default  the default as canonical text (NULL: none);
 *   bounds   NK_ANY, NK_RANGE(lo, hi), NK_ATLEAST(lo), NK_ABOVE(lo),
 *            NK_ABOVE_TO(lo, hi), NK_BETWEEN(lo, hi), NK_RESUME_RANGE(lo, hi);
 *   choices  NK_CHOICES("a", "b") for an ENUM, else NULL;
 *   check    an extra rule (nk_param_check) or NULL; rule says it in words.
 *
 * Expanders: NK_PARAM_FIELD declares the member; NK_PARAM_DESCRIBE(S,
 * member, ...) makes an nk_param row for struct S (a file defines a
 * one-line wrapper that passes its S and P).  Example (evolve/select.h):
 *
 *     #define NK_SELECT_PARAMS(X, P)                                         \
 *         X(P, selection, tournament_size, tournament, INT, size_t, "3",    \
 *           NK_ATLEAST(2), NULL, NULL, NULL, "tournament: ...")            \
 *         ...
 *     typedef struct nk_select_params {
 *         NK_SELECT_PARAMS(NK_PARAM_FIELD, _)
 *     } nk_select_params;
 */
#ifndef NK_PARAM_H
#define NK_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

typedef enum nk_param_type {
    NK_PARAM_INT,    /* a decimal integer (within int) */
    NK_PARAM_UINT64, /* a decimal integer 0..2^64-1 */
    NK_PARAM_DOUBLE, /* a finite decimal number */
    NK_PARAM_BOOL,   /* true/false, yes/no, on/off, 1/0 (written true/false) */
    NK_PARAM_STRING, /* one line of text */
    NK_PARAM_ENUM,   /* one of the choices */
    NK_PARAM_SPECS   /* player specs (search/player.h) separated by `;` */
} nk_param_type;

/* Bits of nk_param.flags. */
enum {
    NK_PARAM_MIN = 1u << 0,        /* min is a bound */
    NK_PARAM_MAX = 1u << 1,        /* max is a bound */
    NK_PARAM_MIN_OPEN = 1u << 2,   /* the bound min itself is excluded */
    NK_PARAM_MAX_OPEN = 1u << 3,   /* the bound max itself is excluded */
    NK_PARAM_RESUME_FREE = 1u << 4 /* may differ between a run file and --resume */
};

/* How the value is kept in its struct (from the member's C type). */
typedef enum nk_param_store {
    NK_STORE_NONE,
    NK_STORE_INT,    /* int */
    NK_STORE_UINT,   /* unsigned */
    NK_STORE_ULONG,  /* unsigned long (size_t, uint64_t on LP64) */
    NK_STORE_ULLONG, /* unsigned long long */
    NK_STORE_DOUBLE,
    NK_STORE_BOOL,
    NK_STORE_CSTR, /* const char *: points at text that outlives the struct */
    NK_STORE_CHARS /* char[size]: a copy */
} nk_param_store;

/* An extra rule of one parameter: checks text (already in the type's
 * canonical form) and may rewrite it, in place, to a canonical form of its
 * own (cap bytes); on failure writes why into why[whylen]. */
typedef nk_status (*nk_param_check)(char *text, size_t cap, char *why, size_t whylen);

/* One parameter. */
typedef struct nk_param {
    const char *section; /* "population" */
    const char *name;    /* "size" */
    const char *key;     /* "population.size" */
    nk_param_type type;
    const char *def;            /* the default, as canonical text (NULL: none) */
    unsigned flags;             /* NK_PARAM_* */
    double min, max;            /* numeric bounds, see flags */
    const char *const *choices; /* enum: the choices, NULL-terminated */
    nk_param_check check;       /* extra rule, or NULL */
    const char *rule;           /* that rule in words, for the docs */
    const char *help;           /* one line for people */
    size_t offset;              /* where the value is kept in the table's struct */
    size_t size;                /* its size in bytes */
    nk_param_store store;       /* and its C type */
    /* enum: the choices as a function (item i, NULL past the end) when they
     * are the names of a list of type objects, else NULL */
    const char *(*choice_at)(size_t i);
} nk_param;

/* ----- writing rows ----- */

/* Bounds (one argument of a row; parenthesised so that it can be passed on). */
#define NK_ANY (0, 0, 0)
#define NK_RANGE(lo, hi) (NK_PARAM_MIN | NK_PARAM_MAX, lo, hi)                        /* [lo, hi] */
#define NK_ATLEAST(lo) (NK_PARAM_MIN, lo, 0)                                          /* >= lo */
#define NK_ABOVE(lo) (NK_PARAM_MIN | NK_PARAM_MIN_OPEN, lo, 0)                        /* > lo */
#define NK_ABOVE_TO(lo, hi) (NK_PARAM_MIN | NK_PARAM_MIN_OPEN | NK_PARAM_MAX, lo, hi) /* (lo, hi]  \
                                                                                       */
#define NK_BETWEEN(lo, hi)                                                                         \
    (NK_PARAM_MIN | NK_PARAM_MIN_OPEN | NK_PARAM_MAX | NK_PARAM_MAX_OPEN, lo, hi) /* (lo, hi) */
#define NK_RESUME_RANGE(lo, hi) (NK_PARAM_RESUME_FREE | NK_PARAM_MIN | NK_PARAM_MAX, lo, hi)
#define NK_RESUME_ANY (NK_PARAM_RESUME_FREE, 0, 0)
#define NK_CHOICES(...) ((const char *const[]){__VA_ARGS__, NULL})
/* Choices that are the names of a list of type objects: fn(i) is the name of
 * item i, NULL past the end (e.g. nk_select_name_at). */
#define NK_CHOICES_OF(fn) (fn)

typedef const char *(*nk_param_choice_fn)(size_t i);
#define NK_PARAM_CHOICE_LIST(c) _Generic((c), nk_param_choice_fn : NULL, default : (c))
#define NK_PARAM_CHOICE_FN(c) _Generic((c), nk_param_choice_fn : (c), default : NULL)

#define NK_PARAM_UNPAREN(...) __VA_ARGS__

/* The store kind of member m of struct S. */
#define NK_PARAM_STORE_OF(S, m)                                                                    \
    _Generic((((S *)0)->m), int: NK_STORE_INT, unsigned: NK_STORE_UINT,                      \
             unsigned long: NK_STORE_ULONG, unsigned long long: NK_STORE_ULLONG,             \
             double: NK_STORE_DOUBLE, bool: NK_STORE_BOOL, const char *: NK_STORE_CSTR,      \
             char *: NK_STORE_CHARS, default: NK_STORE_NONE)

/* A row's member declaration. */
#define NK_PARAM_FIELD(P, sec, nm, field, T, ctype, def, bounds, choices, check, rule, help)       \
    ctype field;

/* An nk_param for member `member` of struct S. */
#define NK_PARAM_DESCRIBE(S, member, sec, nm, T, def, bounds, choices, check, rule, help)          \
    {#sec,                                                                                         \
     #nm,                                                                                          \
     #sec "." #nm,                                                                                 \
     NK_PARAM_##T,                                                                                 \
     def,                                                                                          \
     NK_PARAM_UNPAREN bounds,                                                                      \
     NK_PARAM_CHOICE_LIST(choices),                                                                \
     check,                                                                                        \
     rule,                                                                                         \
     help,                                                                                         \
     offsetof(S, member),                                                                          \
     sizeof(((S *)0)->member),                                                                     \
     NK_PARAM_STORE_OF(S, member),                                                                 \
     NK_PARAM_CHOICE_FN(choices)},

/* ----- using tables ----- */

/* The index of the parameter called name (its name, not its key) among
 * table[0..n), or -1. */
long nk_param_index(const nk_param *table, size_t n, const char *name);
/* Writes the names of table[0..n) as "a, b, c" into buf[len]; returns buf. */
char *nk_param_names(const nk_param *table, size_t n, char *buf, size_t len);

/* Choice i of an enum parameter (from choices or choice_at), NULL past the
 * end. */
const char *nk_param_choice(const nk_param *p, size_t i);

/* The shortest %g text that reads back to x, with a tidy exponent. */
void nk_param_format_double(double x, char *buf, size_t len);
/* The bounds of p in words: "2..100000", "[0, 1]", "(0, 1]", ">= 1", "> 0";
 * "" when unbounded. */
void nk_param_range_text(const nk_param *p, char *buf, size_t len);
/* Whether x lies within p's bounds. */
bool nk_param_in_bounds(const nk_param *p, double x);
/* What a value of p must be, in words: its rule (or a noun for its type)
 * and its bounds: "a whole number of plies in 1..64", "a number in (0, 1]",
 * "a whole number >= 1", "true or false". */
void nk_param_expects(const nk_param *p, char *buf, size_t len);

/* Checks text (no surrounding spaces) as a value of a numeric or boolean
 * parameter (INT, UINT64, DOUBLE, BOOL) and writes its canonical form into
 * canon[cl]; on failure writes why into why[wl]: NK_EINVAL for a malformed
 * value, NK_ERANGE for one out of bounds.  Other types: NK_EINVAL. */
nk_status nk_param_parse_scalar(const nk_param *p, const char *text, char *canon, size_t cl,
                                char *why, size_t wl);

/* The one strict reader of a number outside a table: the whole of text as
 * a finite decimal number, read as nk_param_parse_scalar reads a DOUBLE
 * (no hex, no spaces, no inf or nan); NK_EINVAL for text that is not one,
 * NK_ERANGE for one too close to 0; *out is set only on NK_OK. */
nk_status nk_param_read_double(const char *text, double *out);
/* The same for a whole number: the whole of text as decimal digits alone
 * (no sign, no spaces, no hex), at most UINT64_MAX; NK_EINVAL for text that
 * is not one, NK_ERANGE for one too large; *out is set only on NK_OK. */
nk_status nk_param_read_uint64(const char *text, uint64_t *out);
/* Reads text as exactly "K1=V1,K2=V2,...": the n keys of keys[] in that
 * order, each value read by nk_param_read_uint64 into vals[] (the form of
 * the selectors "gen=G,rank=R" and "game=N").  false, with vals[] partly
 * written, for anything else. */
bool nk_param_read_keyed(const char *text, const char *const keys[], uint64_t vals[], size_t n);

/* Stores canonical text as p's value into the struct at base.  NK_STORE_CSTR
 * keeps the pointer text (it must outlive the struct); NK_STORE_CHARS copies
 * it (NK_ERANGE if it does not fit).  NK_EINVAL for NK_STORE_NONE. */
nk_status nk_param_set(const nk_param *p, void *base, const char *text);
/* Stores the default of every parameter of table[0..n) that has one into
 * the struct at base. */
void nk_param_defaults(const nk_param *table, size_t n, void *base);

/* Reads the options of a type object chosen by text (an evaluation
 * family's "KEY=VALUE:KEY=VALUE...", opts NULL for none) into the struct at
 * base by table[0..n) (at most 32 rows).  Every message is one line naming
 * the key as family.KEY: NK_EINVAL for an item that is not KEY=VALUE, an
 * unknown key, a key given twice, a value too long or refused by the row's
 * check (its status); NK_ERANGE for a number out of its bounds. */
nk_status nk_param_parse_options(const nk_param *table, size_t n, void *base, const char *family,
                                 const char *opts, char *err, size_t errlen);

#endif
