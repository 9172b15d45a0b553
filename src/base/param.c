/*
 * param.c -- parameter descriptors (contract in param.h): bounds, scalar
 * values in canonical text, and storing values into settings structs.
 */
#include "base/param.h"
#include "base/names.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static nk_names names_of(const nk_param *table, size_t n)
{
    return (nk_names){n > 0 ? (const void *)&table[0].name : NULL, sizeof *table, n, false};
}

long nk_param_index(const nk_param *table, size_t n, const char *name)
{
    return nk_names_index(names_of(table, n), name);
}

char *nk_param_names(const nk_param *table, size_t n, char *buf, size_t len)
{
    return nk_names_join(names_of(table, n), buf, len);
}

const char *nk_param_choice(const nk_param *p, size_t i)
{
    if (p->choice_at != NULL)
        return p->choice_at(i);
    return p->choices != NULL ? nk_names_at(NK_NAMES_STRINGS(p->choices), i) : NULL;
}

void nk_param_format_double(double x, char *buf, size_t len)
{
    char tmp[48];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, x);
        if (strtod(tmp, NULL) == x)
            break;
    }
    char *e = strchr(tmp, 'e');
    int exp10 = e != NULL ? atoi(e + 1) : 0;
    if (e != NULL && exp10 >= 0 && exp10 <= 15) {
        /* 2e+01 -> 20: whole numbers below 1e16 without an exponent */
        char fixed[48];
        int digits = (int)(e - tmp) - (tmp[0] == '-') - (strchr(tmp, '.') != NULL);
        int decimals = digits - 1 - exp10 > 0 ? digits - 1 - exp10 : 0;
        snprintf(fixed, sizeof fixed, "%.*f", decimals, x);
        if (strtod(fixed, NULL) == x) {
            snprintf(buf, len, "%s", fixed);
            return;
        }
    }
    if (e != NULL) {
        char *p = e + 1, *q = e + 1;
        if (*p == '+')
            p++;
        else if (*p == '-')
            *q++ = *p++;
        while (*p == '0' && p[1] != '\0')
            p++;
        memmove(q, p, strlen(p) + 1);
    }
    snprintf(buf, len, "%s", tmp);
}

void nk_param_range_text(const nk_param *k, char *buf, size_t len)
{
    char lo[32], hi[32];
    nk_param_format_double(k->min, lo, sizeof lo);
    nk_param_format_double(k->max, hi, sizeof hi);
    bool has_lo = k->flags & NK_PARAM_MIN, has_hi = k->flags & NK_PARAM_MAX;
    bool lo_open = k->flags & NK_PARAM_MIN_OPEN, hi_open = k->flags & NK_PARAM_MAX_OPEN;
    bool integral = k->type == NK_PARAM_INT || k->type == NK_PARAM_UINT64;
    if (has_lo && has_hi && integral)
        snprintf(buf, len, "%s..%s", lo, hi);
    else if (has_lo && has_hi)
        snprintf(buf, len, "%c%s, %s%c", lo_open ? '(' : '[', lo, hi, hi_open ? ')' : ']');
    else if (has_lo)
        snprintf(buf, len, "%s %s", lo_open ? ">" : ">=", lo);
    else if (has_hi)
        snprintf(buf, len, "%s %s", hi_open ? "<" : "<=", hi);
    else
        snprintf(buf, len, "%s", "");
}

bool nk_param_in_bounds(const nk_param *k, double x)
{
    if (k->flags & NK_PARAM_MIN) {
        if ((k->flags & NK_PARAM_MIN_OPEN) ? !(x > k->min) : !(x >= k->min))
            return false;
    }
    if (k->flags & NK_PARAM_MAX) {
        if ((k->flags & NK_PARAM_MAX_OPEN) ? !(x < k->max) : !(x <= k->max))
            return false;
    }
    return true;
}

void nk_param_expects(const nk_param *p, char *buf, size_t len)
{
    char r[96];
    nk_param_range_text(p, r, sizeof r);
    const char *noun = p->rule != NULL                                         ? p->rule
                       : p->type == NK_PARAM_INT || p->type == NK_PARAM_UINT64 ? "a whole number"
                       : p->type == NK_PARAM_DOUBLE                            ? "a number"
                       : p->type == NK_PARAM_BOOL                              ? "true or false"
                                                                               : "a value";
    bool both = (p->flags & NK_PARAM_MIN) && (p->flags & NK_PARAM_MAX);
    snprintf(buf, len, "%s%s%s", noun, r[0] == '\0' ? "" : both ? " in " : " ", r);
}

static nk_status out_of_range(const nk_param *k, const char *text, char *why, size_t wl)
{
    char r[128];
    nk_param_range_text(k, r, sizeof r);
    if ((k->flags & NK_PARAM_MIN) && (k->flags & NK_PARAM_MAX))
        return nk_fail(NK_ERANGE, why, wl, "%s is out of range %s", text, r);
    if (k->flags & (NK_PARAM_MIN | NK_PARAM_MAX))
        return nk_fail(NK_ERANGE, why, wl, "%s is out of range: it must be %s", text, r);
    return nk_fail(NK_ERANGE, why, wl, "%s is out of range", text);
}

static nk_status parse_int(const nk_param *k, const char *t, char *canon, size_t cl, char *why,
                           size_t wl)
{
    char *end;
    errno = 0;
    long long x = strtoll(t, &end, 10);
    if (end == t || *end != '\0' || isspace((unsigned char)*t))
        return nk_fail(NK_EINVAL, why, wl, "'%.80s' is not an integer", t);
    if (errno == ERANGE || x < INT_MIN || x > INT_MAX || !nk_param_in_bounds(k, (double)x))
        return out_of_range(k, t, why, wl);
    snprintf(canon, cl, "%lld", x);
    return NK_OK;
}

static nk_status parse_uint64(const nk_param *k, const char *t, char *canon, size_t cl, char *why,
                              size_t wl)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(t, &end, 10);
    if (end == t || *end != '\0' || !isdigit((unsigned char)*t))
        return nk_fail(NK_EINVAL, why, wl, "'%.80s' is not an unsigned integer", t);
    if (errno == ERANGE || !nk_param_in_bounds(k, (double)x))
        return out_of_range(k, t, why, wl);
    snprintf(canon, cl, "%llu", x);
    return NK_OK;
}

static nk_status parse_double(const nk_param *k, const char *t, char *canon, size_t cl, char *why,
                              size_t wl)
{
    char *end;
    errno = 0;
    double x = strtod(t, &end);
    /* decimal only: strtod also reads hex floats (0x1p3) and inf/nan */
    if (end == t || *end != '\0' || strspn(t, "0123456789+-.eE") != strlen(t) || !isfinite(x))
        return nk_fail(NK_EINVAL, why, wl, "'%.80s' is not a finite number", t);
    if (errno == ERANGE && x == 0.0)
        return nk_fail(NK_ERANGE, why, wl, "%.80s is too close to 0 to be represented", t);
    if (!nk_param_in_bounds(k, x))
        return out_of_range(k, t, why, wl);
    nk_param_format_double(x, canon, cl);
    return NK_OK;
}

static bool same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

static nk_status parse_bool(const char *t, char *canon, size_t cl, char *why, size_t wl)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (same_word(t, yes[i]) || same_word(t, no[i])) {
            snprintf(canon, cl, "%s", same_word(t, yes[i]) ? "true" : "false");
            return NK_OK;
        }
    }
    return nk_fail(NK_EINVAL, why, wl, "'%.80s' is not a boolean (true/false, yes/no, on/off, 1/0)",
                   t);
}

/* text as the one value of an unnamed row of that type: its canonical
 * text into canon[cl] (from which strtod/strtoull read the same number). */
static nk_status read_number(nk_param_type type, const char *text, char *canon, size_t cl)
{
    const nk_param number = {.key = "number", .type = type};
    char why[NK_MSG_MAX];
    return nk_param_parse_scalar(&number, text, canon, cl, why, sizeof why);
}

nk_status nk_param_read_double(const char *text, double *out)
{
    char canon[64];
    nk_status st = read_number(NK_PARAM_DOUBLE, text, canon, sizeof canon);
    if (st == NK_OK)
        *out = strtod(canon, NULL);
    return st;
}

nk_status nk_param_read_uint64(const char *text, uint64_t *out)
{
    char canon[32];
    nk_status st = read_number(NK_PARAM_UINT64, text, canon, sizeof canon);
    if (st == NK_OK)
        *out = strtoull(canon, NULL, 10);
    return st;
}

bool nk_param_read_keyed(const char *text, const char *const keys[], uint64_t vals[], size_t n)
{
    const char *c = text;
    for (size_t i = 0; i < n; i++) {
        size_t kl = strlen(keys[i]);
        if (strncmp(c, keys[i], kl) != 0 || c[kl] != '=')
            return false;
        c += kl + 1;
        size_t vl = strcspn(c, ",");
        char num[32];
        if (vl == 0 || vl >= sizeof num)
            return false;
        memcpy(num, c, vl);
        num[vl] = '\0';
        if (nk_param_read_uint64(num, &vals[i]) != NK_OK)
            return false;
        c += vl;
        if (i + 1 < n && *c++ != ',')
            return false;
    }
    return *c == '\0';
}

nk_status nk_param_parse_scalar(const nk_param *p, const char *t, char *canon, size_t cl, char *why,
                                size_t wl)
{
    switch (p->type) {
    case NK_PARAM_INT:
        return parse_int(p, t, canon, cl, why, wl);
    case NK_PARAM_UINT64:
        return parse_uint64(p, t, canon, cl, why, wl);
    case NK_PARAM_DOUBLE:
        return parse_double(p, t, canon, cl, why, wl);
    case NK_PARAM_BOOL:
        return parse_bool(t, canon, cl, why, wl);
    default:
        return nk_fail(NK_EINVAL, why, wl, "%s is not a number or a boolean", p->name);
    }
}

nk_status nk_param_set(const nk_param *p, void *base, const char *text)
{
    void *at = (char *)base + p->offset;
    switch (p->store) {
    case NK_STORE_INT:
        *(int *)at = (int)strtol(text, NULL, 10);
        return NK_OK;
    case NK_STORE_UINT:
        *(unsigned *)at = (unsigned)strtoul(text, NULL, 10);
        return NK_OK;
    case NK_STORE_ULONG:
        *(unsigned long *)at = (unsigned long)strtoull(text, NULL, 10);
        return NK_OK;
    case NK_STORE_ULLONG:
        *(unsigned long long *)at = strtoull(text, NULL, 10);
        return NK_OK;
    case NK_STORE_DOUBLE:
        *(double *)at = strtod(text, NULL);
        return NK_OK;
    case NK_STORE_BOOL:
        *(bool *)at = strcmp(text, "true") == 0;
        return NK_OK;
    case NK_STORE_CSTR:
        *(const char **)at = text;
        return NK_OK;
    case NK_STORE_CHARS:
        if (strlen(text) >= p->size)
            return NK_ERANGE;
        memcpy(at, text, strlen(text) + 1);
        return NK_OK;
    case NK_STORE_NONE:
    default:
        return NK_EINVAL;
    }
}

void nk_param_defaults(const nk_param *table, size_t n, void *base)
{
    for (size_t i = 0; i < n; i++)
        if (table[i].def != NULL)
            (void)nk_param_set(&table[i], base, table[i].def);
}

/* ----- a type object's options ----- */

/* Sets option KEY=VALUE (item, NUL-terminated, written in) of family by
 * table[0..n); seen holds the keys already given. */
static nk_status set_option(const nk_param *table, size_t n, void *base, const char *family,
                            char *item, unsigned *seen, char *err, size_t errlen)
{
    char names[96], why[160], canon[256];
    char *eq = strchr(item, '=');
    if (eq == NULL || eq == item)
        return nk_fail(NK_EINVAL, err, errlen, "%s: '%s' is not KEY=VALUE; valid keys: %s", family,
                       item, nk_param_names(table, n, names, sizeof names));
    *eq = '\0';
    long k = nk_param_index(table, n, item);
    if (k < 0)
        return nk_fail(NK_EINVAL, err, errlen, "%s: unknown key '%s'; valid keys: %s", family, item,
                       nk_param_names(table, n, names, sizeof names));
    if (*seen & (1u << k))
        return nk_fail(NK_EINVAL, err, errlen, "%s.%s given twice", family, item);
    *seen |= 1u << k;
    const nk_param *p = &table[k];
    const char *val = eq + 1;
    if (p->type != NK_PARAM_STRING) {
        if (nk_param_parse_scalar(p, val, canon, sizeof canon, why, sizeof why) != NK_OK) {
            char expects[128];
            nk_param_expects(p, expects, sizeof expects);
            return nk_fail(NK_ERANGE, err, errlen, "%s.%s '%s' is not %s", family, p->name, val,
                           expects);
        }
    } else if ((size_t)snprintf(canon, sizeof canon, "%s", val) >= sizeof canon) {
        return nk_fail(NK_EINVAL, err, errlen, "%s.%s '%.40s...' is too long", family, p->name,
                       val);
    }
    if (p->check != NULL) {
        nk_status st = p->check(canon, sizeof canon, why, sizeof why);
        if (st != NK_OK)
            return nk_fail(st, err, errlen, "%s.%s %s", family, p->name, why);
    }
    if (nk_param_set(p, base, canon) != NK_OK)
        return nk_fail(NK_EINVAL, err, errlen, "%s.%s '%.40s...' is too long", family, p->name,
                       val);
    return NK_OK;
}

nk_status nk_param_parse_options(const nk_param *table, size_t n, void *base, const char *family,
                                 const char *opts, char *err, size_t errlen)
{
    char buf[256];
    if (opts == NULL)
        return NK_OK;
    if (strlen(opts) >= sizeof buf)
        return nk_fail(NK_EINVAL, err, errlen, "%s: options '%.40s...' are too long", family, opts);
    snprintf(buf, sizeof buf, "%s", opts);
    unsigned seen = 0;
    for (char *item = buf; item != NULL;) {
        char *colon = strchr(item, ':');
        if (colon != NULL)
            *colon = '\0';
        nk_status st = set_option(table, n, base, family, item, &seen, err, errlen);
        if (st != NK_OK)
            return st;
        item = colon != NULL ? colon + 1 : NULL;
    }
    return NK_OK;
}
