/*
 * config.c -- the configuration schema and everything it drives: parsing
 * and validation of INI files and --set assignments, typed getters,
 * comparison for --resume, --print-config text and configs/README.md.
 *
 * The table `schema` below is expanded from the parameter lists: every key
 * of a run is declared once, as a row of the X-macro list next to the
 * struct that holds its value (run/settings.h says which lists, in config
 * order; base/param.h the row shape); only [output] is io's own
 * (NK_OUTPUT_PARAMS in config.h).  Nothing else in this file names a key:
 * the rules across keys, with their words for the docs, are run/'s, on the
 * typed settings (run/settings.h, nk_run_settings_check); this file says
 * each key a broken rule names with its value and origin.  To add a key: add a row to the right list and
 * use the field of nk_run_settings; the parser, --print-config, the typed
 * settings (nk_config_settings), the defaults and the README (regenerate it
 * with NICKAR_REGEN_DOCS=1 build/tests/test_io_config) follow.
 *
 * Invariants kept here:
 *   - every value is stored in canonical text (nk_config_parse_value), and
 *     its typed form is decoded from that text, so text equality is value
 *     equality and printing then parsing is the identity;
 *   - canonical text always fits on one INI line that inih reads back
 *     (strings <= NK_CONFIG_STRING_MAX characters, no control characters,
 *     no ` ;`), except lists, which nk_config_format() breaks into
 *     indented continuation lines;
 *   - inih does the parsing.  A reader function feeds it one physical line
 *     at a time, so the line number of the line being handled is always
 *     the reader's count; the reader also keeps the raw line, which tells
 *     continuation lines (indented) from key lines, and checks `[section]`
 *     names where they are written;
 *   - reading is bounded (config.h, NK_CONFIG_FILE_MAX): only regular
 *     files are opened (O_NONBLOCK, so a FIFO does not block the open),
 *     the reader takes at most one line's worth of bytes at a time and
 *     stops at the first error, so no input, /dev/zero or an endless line,
 *     can make it read or allocate without end; a read error is NK_EIO.
 * No static mutable state: everything lives in nk_config or on the stack.
 */
#include "io/config.h"
#include "base/alloc.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <fcntl.h>
#include <unistd.h>

#include <ini.h>

#include "run/schedule.h"
#include "evolve/crossover.h"
#include "evolve/mutate.h"
#include "search/player.h"
#include "rules/rules.h"

/* =====================================================================
 * The schema
 * ===================================================================== */

/* The keys of a run are declared once, in the parameter lists of the
 * objects and sections that use them (run/settings.h lists the lists);
 * here they are expanded in config order, each row knowing where its value
 * goes in nk_run_settings.  Only [output] belongs to io and is declared
 * here (NK_OUTPUT_PARAMS in config.h). */
#define OUTPUT_ROW(P, sec, nm, field, T, ctype, ...)                                          \
    NK_PARAM_DESCRIBE(nk_output_settings, field, sec, nm, T, __VA_ARGS__)
#define COUNT_ROW(...) +1

static const nk_config_key schema[] = {
    NK_RUN_PARAMS(NK_RUN_PARAM_ROW) /* run: nk_run_settings */
    NK_OUTPUT_PARAMS(OUTPUT_ROW, _) /* io: nk_output_settings */
};

/* schema[0..NRUNKEYS) describe nk_run_settings, the rest nk_output_settings. */
enum { NRUNKEYS = 0 NK_RUN_PARAMS(COUNT_ROW) };
enum { NKEYS = sizeof schema / sizeof schema[0] };

static const char *const type_names[] = {
    [NK_CFG_INT] = "int",     [NK_CFG_UINT64] = "uint64", [NK_CFG_DOUBLE] = "double",
    [NK_CFG_BOOL] = "bool",   [NK_CFG_STRING] = "string", [NK_CFG_ENUM] = "enum",
    [NK_CFG_SPECS] = "specs",
};

size_t nk_config_schema_count(void)
{
    return NKEYS;
}

const nk_config_key *nk_config_schema(size_t i)
{
    return i < NKEYS ? &schema[i] : NULL;
}

/* Index of section.name in the schema, or -1. */
static int find_key(const char *section, const char *name)
{
    for (int i = 0; i < (int)NKEYS; i++)
        if (strcmp(schema[i].section, section) == 0 && strcmp(schema[i].name, name) == 0)
            return i;
    return -1;
}

static int find_full(const char *key)
{
    for (int i = 0; i < (int)NKEYS; i++)
        if (strcmp(schema[i].key, key) == 0)
            return i;
    return -1;
}

const nk_config_key *nk_config_key_find(const char *key)
{
    int i = key != NULL ? find_full(key) : -1;
    return i < 0 ? NULL : &schema[i];
}

static bool section_known(const char *section)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(schema[i].section, section) == 0)
            return true;
    return false;
}

/* =====================================================================
 * Suggestions: the closest name by edit distance
 * ===================================================================== */

/* Optimal string alignment distance (Levenshtein plus adjacent
 * transpositions) of the first 63 characters of a and b. */
static int distance(const char *a, const char *b)
{
    enum { N = 64 };
    int d[N][N];
    size_t n = strlen(a), m = strlen(b);
    n = n < N - 1 ? n : N - 1;
    m = m < N - 1 ? m : N - 1;
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        for (size_t j = 1; j <= m; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[n][m];
}

/* The best candidate so far for a misspelt name. */
typedef struct near {
    const char *given;
    const char *best;
    int score;
} near;

static near near_start(const char *given)
{
    return (near){given, NULL, INT_MAX};
}

/* Offers a candidate; bonus lowers its score to at most bonus (-1: none).
 * A candidate that contains the given text (3+ characters) scores 1. */
static void near_offer(near *nr, const char *cand, int bonus)
{
    int d = distance(nr->given, cand);
    if (strlen(nr->given) >= 3 && strstr(cand, nr->given) != NULL && d > 1)
        d = 1;
    if (bonus >= 0 && d > bonus)
        d = bonus;
    if (d < nr->score) {
        nr->score = d;
        nr->best = cand;
    }
}

/* The best candidate if it is close enough to be a likely typo, else NULL. */
static const char *near_result(const near *nr)
{
    size_t n = strlen(nr->given);
    int limit = n < 4 ? 1 : n < 12 ? 2 : 3;
    return nr->best != NULL && nr->score <= limit ? nr->best : NULL;
}

/* " (did you mean 'x'?)" or "", into buf. */
static const char *did_you_mean(const char *best, const char *open, const char *close, char *buf,
                                size_t len)
{
    if (best == NULL)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, " (did you mean %s%s%s?)", open, best, close);
    return buf;
}

static const char *suggest_key(const char *section, const char *name, char *buf, size_t len)
{
    char given[128];
    snprintf(given, sizeof given, "%s.%s", section, name);
    near nr = near_start(given);
    for (size_t i = 0; i < NKEYS; i++)
        near_offer(&nr, schema[i].key, strcmp(schema[i].name, name) == 0 ? 1 : -1);
    return did_you_mean(near_result(&nr), "'", "'", buf, len);
}

static const char *suggest_section(const char *section, char *buf, size_t len)
{
    near nr = near_start(section);
    for (size_t i = 0; i < NKEYS; i++)
        near_offer(&nr, schema[i].section, -1);
    return did_you_mean(near_result(&nr), "[", "]", buf, len);
}

/* =====================================================================
 * Values: parsing into canonical text
 * ===================================================================== */

/* A value that inih reads back as written: one line, no control
 * characters, no ` ;` (which would start a comment). */
static nk_status check_line(const char *t, size_t max, char *why, size_t wl)
{
    size_t n = strlen(t);
    if (n > max)
        return nk_fail(NK_EINVAL, why, wl, "value is %zu characters long; at most %zu are allowed",
                       n, max);
    if (t[0] == ';')
        return nk_fail(NK_EINVAL, why, wl, "a value cannot start with ';' (it reads as a comment)");
    for (const char *p = t; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return nk_fail(NK_EINVAL, why, wl, "value holds a control character");
        if (*p == ';' && p > t && isspace((unsigned char)p[-1]))
            return nk_fail(NK_EINVAL, why, wl,
                           "' ;' cannot be part of a value: it starts a comment");
    }
    return NK_OK;
}

static nk_status parse_enum(const nk_config_key *k, const char *t, char *canon, size_t cl,
                            char *why, size_t wl)
{
    near nr = near_start(t);
    char list[256] = "";
    size_t used = 0;
    const char *c;
    for (size_t i = 0; (c = nk_param_choice(k, i)) != NULL; i++) {
        if (strcmp(c, t) == 0) {
            snprintf(canon, cl, "%s", c);
            return NK_OK;
        }
        near_offer(&nr, c, -1);
        int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", c);
        if (w > 0 && (size_t)w < sizeof list - used)
            used += (size_t)w;
    }
    char dym[96];
    return nk_fail(NK_EINVAL, why, wl, "'%.80s' is not one of %s%s", t, list,
                   did_you_mean(near_result(&nr), "'", "'", dym, sizeof dym));
}

/* Splits text at ';' into trimmed, non-empty specs, checks each with
 * nk_spec_parse (no human players in a run) and joins them with "; ". */
static nk_status parse_specs(const char *t, char *canon, size_t cl, char *why, size_t wl)
{
    size_t used = 0;
    canon[0] = '\0';
    const char *p = t;
    while (*p != '\0') {
        const char *semi = strchr(p, ';');
        const char *end = semi != NULL ? semi : p + strlen(p);
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *q = end;
        while (q > p && isspace((unsigned char)q[-1]))
            q--;
        size_t n = (size_t)(q - p);
        if (n > NK_CONFIG_STRING_MAX)
            return nk_fail(NK_EINVAL, why, wl,
                           "player spec '%.40s...' is %zu characters long; at most %d are allowed",
                           p, n, NK_CONFIG_STRING_MAX);
        if (n > 0) {
            char item[NK_CONFIG_STRING_MAX + 1];
            memcpy(item, p, n);
            item[n] = '\0';
            nk_spec spec;
            nk_status st = nk_spec_parse(&spec, item, why, wl);
            if (st != NK_OK)
                return st;
            if (spec.kind == NK_PLAYER_HUMAN)
                return nk_fail(NK_EINVAL, why, wl, "player spec 'human' cannot play in a run");
            st = check_line(item, NK_CONFIG_STRING_MAX, why, wl);
            if (st != NK_OK)
                return st;
            if (used + n + 3 > cl)
                return nk_fail(NK_EINVAL, why, wl, "list is longer than %zu characters", cl - 1);
            used += (size_t)snprintf(canon + used, cl - used, "%s%s", used ? "; " : "", item);
        }
        p = semi != NULL ? semi + 1 : end;
    }
    return NK_OK;
}

nk_status nk_config_parse_value(const nk_config_key *k, const char *text, char *canon,
                                size_t canonlen, char *why, size_t whylen)
{
    char t[NK_CONFIG_TEXT];
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        n--;
    if (n >= sizeof t)
        return nk_fail(NK_EINVAL, why, whylen, "value is longer than %zu characters", sizeof t - 1);
    memcpy(t, text, n);
    t[n] = '\0';
    nk_status st;
    switch (k->type) {
    case NK_CFG_INT:
    case NK_CFG_UINT64:
    case NK_CFG_DOUBLE:
    case NK_CFG_BOOL:
        st = nk_param_parse_scalar(k, t, canon, canonlen, why, whylen);
        break;
    case NK_CFG_ENUM:
        st = parse_enum(k, t, canon, canonlen, why, whylen);
        break;
    case NK_CFG_SPECS:
        st = parse_specs(t, canon, canonlen, why, whylen);
        break;
    case NK_CFG_STRING:
    default:
        st = check_line(t, NK_CONFIG_STRING_MAX, why, whylen);
        if (st == NK_OK)
            snprintf(canon, canonlen, "%s", t);
        break;
    }
    if (st == NK_OK && k->check != NULL)
        st = k->check(canon, canonlen, why, whylen);
    return st;
}

/* =====================================================================
 * The configuration object
 * ===================================================================== */

enum { ORIGIN_DEFAULT = -1, ORIGIN_SET = -2 };

typedef struct slot {
    char text[NK_CONFIG_TEXT]; /* canonical */
    union {
        int i;
        uint64_t u;
        double d;
        bool b;
        int e;
    } as;
    char items[NK_CONFIG_TEXT]; /* specs: the items, each NUL-terminated */
    size_t nitems;
    int file; /* index into nk_config.files, or ORIGIN_* */
    int line;
    unsigned load; /* the load (file, text or --set) that set it; 0: default */
} slot;

struct nk_config {
    slot v[NKEYS];
    char **files; /* paths of the files read, as shown in messages */
    size_t nfiles;
    unsigned loads; /* loads so far */
};

/* =====================================================================
 * Typed settings
 * ===================================================================== */

nk_status nk_config_settings(const nk_config *cfg, nk_run_settings *run, nk_output_settings *out,
                             char *err, size_t errlen)
{
    nk_run_settings_defaults(run);
    for (size_t i = 0; i < NKEYS; i++) {
        void *base = i < NRUNKEYS ? (void *)run : (void *)out;
        if (base == NULL)
            continue;
        if (nk_param_set(&schema[i], base, cfg->v[i].text) != NK_OK)
            return nk_fail(NK_EINVAL, err, errlen, "%s: the value '%s' does not fit its field",
                           schema[i].key, cfg->v[i].text);
    }
    return NK_OK;
}

nk_status nk_config_run_player(const char *text, const char *origin, nk_run_player *out,
                               const nk_variant **variant, char *err, size_t errlen)
{
    nk_config *cfg = NULL;
    nk_run_settings s;
    const nk_variant *v = NULL;
    char e2[NK_MSG_MAX];
    nk_status st = nk_config_new(&cfg, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_load_string(cfg, text ? text : "", origin, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_settings(cfg, &s, NULL, e2, sizeof e2);
    if (st == NK_OK && (v = nk_variant_find(s.experiment.variant)) == NULL)
        st = nk_fail(NK_EFORMAT, e2, sizeof e2, "unknown variant '%s'", s.experiment.variant);
    if (st == NK_OK)
        st = nk_run_player_of(&s, out, e2, sizeof e2);
    nk_config_free(cfg);
    if (st == NK_ENOMEM)
        return nk_fail(st, err, errlen, "out of memory");
    if (st != NK_OK)
        return nk_fail(NK_EFORMAT, err, errlen, "%s", e2);
    if (variant != NULL)
        *variant = v;
    return NK_OK;
}

/* Stores canonical text and decodes it. */
static void store(slot *v, const nk_config_key *k, const char *canon)
{
    snprintf(v->text, sizeof v->text, "%s", canon);
    switch (k->type) {
    case NK_CFG_INT:
        v->as.i = (int)strtol(canon, NULL, 10);
        break;
    case NK_CFG_UINT64:
        v->as.u = (uint64_t)strtoull(canon, NULL, 10);
        break;
    case NK_CFG_DOUBLE:
        v->as.d = strtod(canon, NULL);
        break;
    case NK_CFG_BOOL:
        v->as.b = strcmp(canon, "true") == 0;
        break;
    case NK_CFG_ENUM:
        v->as.e = 0;
        for (int c = 0; nk_param_choice(k, (size_t)c) != NULL; c++)
            if (strcmp(nk_param_choice(k, (size_t)c), canon) == 0)
                v->as.e = c;
        break;
    case NK_CFG_SPECS: {
        v->nitems = 0;
        size_t at = 0;
        for (const char *p = canon; *p != '\0';) {
            const char *semi = strstr(p, "; ");
            size_t n = semi != NULL ? (size_t)(semi - p) : strlen(p);
            memcpy(v->items + at, p, n);
            v->items[at + n] = '\0';
            at += n + 1;
            v->nitems++;
            p += n + (semi != NULL ? 2 : 0);
        }
        break;
    }
    case NK_CFG_STRING:
    default:
        break;
    }
}

/* Parses text as the value of key idx and stores it with its origin. */
static nk_status set_value(nk_config *cfg, int idx, const char *text, int file, int line,
                           unsigned load, char *why, size_t whylen)
{
    char canon[NK_CONFIG_TEXT];
    nk_status st = nk_config_parse_value(&schema[idx], text, canon, sizeof canon, why, whylen);
    if (st != NK_OK)
        return st;
    slot *v = &cfg->v[idx];
    store(v, &schema[idx], canon);
    v->file = file;
    v->line = line;
    v->load = load;
    return NK_OK;
}

nk_status nk_config_new(nk_config **out, char *err, size_t errlen)
{
    *out = NULL;
    nk_config *cfg = nk_calloc(1, sizeof *cfg);
    if (cfg == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a configuration");
    for (int i = 0; i < (int)NKEYS; i++) {
        char why[NK_MSG_MAX];
        nk_status st = set_value(cfg, i, schema[i].def, ORIGIN_DEFAULT, 0, 0, why, sizeof why);
        if (st != NK_OK) {
            nk_config_free(cfg);
            return nk_fail(st, err, errlen, "schema default of %s: %s", schema[i].key, why);
        }
    }
    *out = cfg;
    return NK_OK;
}

void nk_config_free(nk_config *cfg)
{
    if (cfg == NULL)
        return;
    for (size_t i = 0; i < cfg->nfiles; i++)
        nk_free(cfg->files[i]);
    nk_free(cfg->files);
    nk_free(cfg);
}

/* Remembers a file name for origins; its index, or -1 (out of memory). */
static int add_file(nk_config *cfg, const char *path)
{
    char **files = nk_realloc(cfg->files, (cfg->nfiles + 1) * sizeof *files);
    if (files == NULL)
        return -1;
    cfg->files = files;
    files[cfg->nfiles] = nk_strdup(path);
    if (files[cfg->nfiles] == NULL)
        return -1;
    return (int)cfg->nfiles++;
}

const char *nk_config_origin(const nk_config *cfg, const char *key, char *buf, size_t len)
{
    int i = find_full(key);
    assert(i >= 0 && "unknown configuration key");
    const slot *v = i >= 0 ? &cfg->v[i] : NULL;
    if (v == NULL || v->file == ORIGIN_DEFAULT)
        snprintf(buf, len, "default");
    else if (v->file == ORIGIN_SET)
        snprintf(buf, len, "--set");
    else
        snprintf(buf, len, "%s:%d", cfg->files[v->file], v->line);
    return buf;
}

/* =====================================================================
 * Loading INI text with inih
 * ===================================================================== */

enum { MAX_INCLUDE_DEPTH = 16 };

/* The state of reading one file (or text). */
typedef struct load {
    nk_config *cfg;
    const char *path; /* as shown in messages */
    bool is_file;     /* dev and ino identify the file (include cycles) */
    dev_t dev;
    ino_t ino;
    const struct load *parent; /* the including file, or NULL */
    int depth;
    int file;      /* index into cfg->files */
    unsigned id;   /* this load's number (duplicates) */
    FILE *f;       /* the source: a file... */
    const char *s; /* ...or text */
    int line;      /* physical lines read so far */
    size_t bytes;  /* bytes read so far */
    char *raw;     /* the current line as read */
    size_t rawcap;
    bool keyed;               /* a key line since the last section line */
    int last;                 /* schema index of the last key line, or -1 */
    char acc[NK_CONFIG_TEXT]; /* that key's list value as written so far */
    nk_status status;         /* the first error */
    int errline;
    char *err;
    size_t errlen;
} load;

/* Records the first error, at line (message prefixed "path:line: "). */
__attribute__((format(printf, 4, 5))) static int lfail(load *l, nk_status st, int line,
                                                       const char *fmt, ...)
{
    if (l->status != NK_OK)
        return 1;
    l->status = st;
    l->errline = line;
    if (l->err != NULL && l->errlen > 0) {
        int k = snprintf(l->err, l->errlen, "%s:%d: ", l->path, line);
        if (k >= 0 && (size_t)k < l->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(l->err + k, l->errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return 1;
}

static int lfail(load *l, nk_status st, int line, const char *fmt, ...);

/* Reads the next physical line into l->raw, at most cap bytes (its newline
 * included), so that no line, however long, is read in whole.  Returns its
 * length; -1 at the end, and after recording the error when the line finds
 * no memory, the file cannot be read (a read error is never taken for the
 * end) or the file grows past NK_CONFIG_FILE_MAX bytes. */
static ssize_t next_line(load *l, size_t cap)
{
    if (cap + 1 > l->rawcap) {
        char *raw = nk_realloc(l->raw, cap + 1);
        if (raw == NULL) {
            lfail(l, NK_ENOMEM, l->line + 1, "out of memory");
            return -1;
        }
        l->raw = raw;
        l->rawcap = cap + 1;
    }
    size_t n = 0;
    if (l->f != NULL) {
        int c = 0;
        while (n < cap && (c = getc(l->f)) != EOF) {
            l->raw[n++] = (char)c;
            if (c == '\n')
                break;
        }
        if (c == EOF && ferror(l->f)) {
            lfail(l, NK_EIO, l->line + 1, "cannot read: %s", strerror(errno));
            return -1;
        }
    } else {
        while (n < cap && *l->s != '\0') {
            char c = *l->s++;
            l->raw[n++] = c;
            if (c == '\n')
                break;
        }
    }
    l->raw[n] = '\0';
    l->bytes += n;
    if (l->bytes > NK_CONFIG_FILE_MAX) {
        lfail(l, NK_EINVAL, l->line + 1, "the file is larger than %d bytes (1 MiB)",
              NK_CONFIG_FILE_MAX);
        return -1;
    }
    return n > 0 ? (ssize_t)n : -1;
}

/* Copies [p, q) trimmed into buf. */
static void trim_copy(const char *p, const char *q, char *buf, size_t len)
{
    while (p < q && isspace((unsigned char)*p))
        p++;
    while (q > p && isspace((unsigned char)q[-1]))
        q--;
    size_t n = (size_t)(q - p) < len - 1 ? (size_t)(q - p) : len - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
}

/* inih's reader: hands inih one physical line per call (so inih's line
 * number and ours agree), refuses lines too long for inih's buffer, and
 * checks section names where they are written. */
static char *reader(char *str, int num, void *stream)
{
    load *l = stream;
    if (l->status != NK_OK || num < 4)
        return NULL; /* the first error ends the reading */
    /* num - 3 characters, "\r\n" and one more: a longer line is cut there */
    ssize_t n = next_line(l, (size_t)num);
    if (n < 0)
        return NULL;
    l->line++;
    size_t content = (size_t)n;
    while (content > 0 && (l->raw[content - 1] == '\n' || l->raw[content - 1] == '\r'))
        content--;
    if (strlen(l->raw) != (size_t)n) {
        lfail(l, NK_EINVAL, l->line, "line holds a NUL byte");
        return NULL;
    }
    if (content > (size_t)num - 3) {
        lfail(l, NK_EINVAL, l->line,
              "line is longer than %d characters (a list may continue on indented lines)",
              num - 3);
        return NULL;
    }
    memcpy(str, l->raw, (size_t)n + 1);
    const char *p = l->raw;
    if (l->line == 1 && strncmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    bool indented = *p == ' ' || *p == '\t';
    while (*p == ' ' || *p == '\t')
        p++;
    if (l->keyed && indented && *p != '\0' && strchr(";#\r\n", *p) == NULL)
        return str; /* inih reads it as a continuation, even if it looks like [x] */
    const char *close = *p == '[' ? strchr(p, ']') : NULL;
    if (close != NULL) {
        char section[64], dym[96];
        trim_copy(p + 1, close, section, sizeof section);
        l->keyed = false;
        if (!section_known(section))
            lfail(l, NK_EINVAL, l->line, "unknown section [%s]%s", section,
                  suggest_section(section, dym, sizeof dym));
    }
    return str;
}

static nk_status load_file(nk_config *cfg, const char *path, const load *parent, char *err,
                           size_t errlen);

/* include = FILE: the path relative to the including file's directory. */
static int on_include(load *l, const char *value)
{
    if (l->f == NULL)
        return lfail(l, NK_EINVAL, l->line, "include is not allowed in %s", l->path);
    if (*value == '\0')
        return lfail(l, NK_EINVAL, l->line, "include needs a file name");
    const char *slash = strrchr(l->path, '/');
    size_t dir = value[0] == '/' || slash == NULL ? 0 : (size_t)(slash - l->path) + 1;
    size_t n = dir + strlen(value) + 1;
    char *path = nk_malloc(n);
    if (path == NULL)
        return lfail(l, NK_ENOMEM, l->line, "out of memory");
    snprintf(path, n, "%.*s%s", (int)dir, l->path, value);
    nk_status st = load_file(l->cfg, path, l, l->err, l->errlen);
    nk_free(path);
    if (st != NK_OK) {
        l->status = st; /* the message is the included file's */
        l->errline = l->line;
    }
    return 1;
}

/* A key before any section: only include. */
static int on_top(load *l, const char *name, const char *value)
{
    if (strcmp(name, "include") == 0)
        return on_include(l, value);
    near nr = near_start(name);
    for (size_t i = 0; i < NKEYS; i++)
        near_offer(&nr, schema[i].name, -1);
    const char *best = near_result(&nr);
    char where[256] = "";
    size_t used = 0, found = 0;
    for (size_t i = 0; best != NULL && i < NKEYS; i++) {
        if (strcmp(schema[i].name, best) != 0)
            continue;
        int w = snprintf(where + used, sizeof where - used, "%s[%s]", found ? " or " : "",
                         schema[i].section);
        used += w > 0 && (size_t)w < sizeof where - used ? (size_t)w : 0;
        found++;
    }
    if (found > 0)
        return lfail(l, NK_EINVAL, l->line,
                     "key '%s' is outside any [section] (did you mean '%s' under %s?)", name, best,
                     where);
    return lfail(l, NK_EINVAL, l->line,
                 "key '%s' is outside any [section] (only 'include' may come before the first "
                 "section)",
                 name);
}

/* Refuses `list = a ; comment`: inih ends the value at ` ;`, which in a list
 * of specs is more likely a misplaced separator than a comment. */
static bool list_cut_by_comment(const load *l, const char *value, bool cont)
{
    if (*value == '\0' || value[strlen(value) - 1] == ';')
        return false;
    const char *start = cont ? l->raw : strpbrk(l->raw, "=:");
    if (start == NULL)
        return false;
    const char *at = strstr(start, value);
    if (at == NULL)
        return false;
    at += strlen(value);
    while (*at == ' ' || *at == '\t')
        at++;
    return *at == ';';
}

static int list_comment_error(load *l, int idx, const char *value)
{
    return lfail(l, NK_EINVAL, l->line,
                 "%s: ' ;' after '%s' starts a comment; separate specs with ';' right after "
                 "a spec ('a; b'), and put comments on lines of their own",
                 schema[idx].key, value);
}

/* An indented line: inih hands it over as more of the last key's value. */
static int on_continuation(load *l, const char *value)
{
    if (l->last < 0 || schema[l->last].type != NK_CFG_SPECS)
        return lfail(l, NK_EINVAL, l->line,
                     "indented line continues the value of '%s'; only lists of player specs "
                     "may continue on indented lines (remove the indentation)",
                     l->last >= 0 ? schema[l->last].key : "include");
    if (value[0] == '[')
        return lfail(l, NK_EINVAL, l->line,
                     "indented line '%.60s' continues the value of '%s' (remove the "
                     "indentation to start a section)",
                     value, schema[l->last].key);
    if (list_cut_by_comment(l, value, true))
        return list_comment_error(l, l->last, value);
    size_t n = strlen(l->acc);
    const char *sep = n == 0 ? "" : l->acc[n - 1] == ';' ? " " : "; ";
    if (n + strlen(sep) + strlen(value) + 1 > sizeof l->acc)
        return lfail(l, NK_EINVAL, l->line, "%s: list is longer than %zu characters",
                     schema[l->last].key, sizeof l->acc - 1);
    memcpy(l->acc + n, sep, strlen(sep));
    memcpy(l->acc + n + strlen(sep), value, strlen(value) + 1);
    char why[NK_MSG_MAX];
    const slot *v = &l->cfg->v[l->last];
    nk_status st = set_value(l->cfg, l->last, l->acc, l->file, v->line, l->id, why, sizeof why);
    if (st != NK_OK)
        return lfail(l, st, l->line, "%s: %s", schema[l->last].key, why);
    return 1;
}

/* inih's handler: one `name = value` in section (or a continuation). */
static int on_pair(void *user, const char *section_in, const char *name, const char *value)
{
    load *l = user;
    if (l->status != NK_OK)
        return 1;
    bool cont = l->keyed && (l->raw[0] == ' ' || l->raw[0] == '\t');
    l->keyed = true;
    if (cont)
        return on_continuation(l, value);
    l->last = -1;
    char section[64], dym[96];
    trim_copy(section_in, section_in + strlen(section_in), section, sizeof section);
    if (name[0] == '\0')
        return lfail(l, NK_EINVAL, l->line, "a key name must come before '='");
    if (section[0] == '\0')
        return on_top(l, name, value);
    if (!section_known(section))
        return lfail(l, NK_EINVAL, l->line, "unknown section [%s]%s", section,
                     suggest_section(section, dym, sizeof dym));
    if (strcmp(name, "include") == 0)
        return lfail(l, NK_EINVAL, l->line, "include must come before the first [section]");
    int idx = find_key(section, name);
    if (idx < 0)
        return lfail(l, NK_EINVAL, l->line, "unknown key '%s.%s'%s", section, name,
                     suggest_key(section, name, dym, sizeof dym));
    const slot *v = &l->cfg->v[idx];
    if (v->load == l->id)
        return lfail(l, NK_EINVAL, l->line, "duplicate key '%s' (already set at line %d)",
                     schema[idx].key, v->line);
    if (schema[idx].type == NK_CFG_SPECS && list_cut_by_comment(l, value, false))
        return list_comment_error(l, idx, value);
    char why[NK_MSG_MAX];
    nk_status st = set_value(l->cfg, idx, value, l->file, l->line, l->id, why, sizeof why);
    if (st != NK_OK)
        return lfail(l, st, l->line, "%s: %s", schema[idx].key, why);
    l->last = idx;
    snprintf(l->acc, sizeof l->acc, "%s", value);
    return 1;
}

/* Runs inih over l's source and sorts out which error comes first. */
static nk_status parse(load *l)
{
    int r = ini_parse_stream(reader, l, on_pair, l);
    nk_free(l->raw);
    l->raw = NULL;
    if (r == -2)
        return nk_fail(NK_ENOMEM, l->err, l->errlen, "out of memory reading %s", l->path);
    if (l->f != NULL && ferror(l->f))
        return nk_fail(NK_EIO, l->err, l->errlen, "%s: cannot read: %s", l->path, strerror(errno));
    if (r > 0 && (l->status == NK_OK || r < l->errline))
        return nk_fail(NK_EINVAL, l->err, l->errlen,
                       "%s:%d: syntax error: expected '[section]', 'key = value' or a comment",
                       l->path, r);
    return l->status;
}

/* "a.ini -> b.ini -> a.ini" for an include cycle closing at path. */
static void cycle_text(const load *parent, const char *path, char *buf, size_t len)
{
    const load *chain[MAX_INCLUDE_DEPTH + 2];
    int n = 0;
    for (const load *p = parent; p != NULL && n < MAX_INCLUDE_DEPTH + 1; p = p->parent)
        chain[n++] = p;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = n - 1; i >= 0 && used < len; i--) {
        int w = snprintf(buf + used, len - used, "%s -> ", chain[i]->path);
        used += w > 0 ? (size_t)w : 0;
    }
    if (used < len)
        snprintf(buf + used, len - used, "%s", path);
}

static nk_status load_file(nk_config *cfg, const char *path, const load *parent, char *err,
                           size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO does not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    int saved = errno;
    const char *why = NULL;
    if (fd >= 0 && fstat(fd, &sb) != 0)
        saved = errno, why = "";
    else if (fd >= 0 && S_ISDIR(sb.st_mode))
        saved = EISDIR, why = "";
    else if (fd >= 0 && !S_ISREG(sb.st_mode))
        why = "not a regular file";
    else if (fd >= 0 && sb.st_size > NK_CONFIG_FILE_MAX)
        why = "larger than 1 MiB";
    FILE *f = NULL;
    if (fd >= 0 && why == NULL) {
        int flags = fcntl(fd, F_GETFL);
        if (flags == -1 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1 ||
            (f = fdopen(fd, "r")) == NULL)
            saved = errno, why = "";
    }
    if (f == NULL && fd >= 0)
        close(fd);
    if (why == NULL || *why == '\0')
        why = strerror(saved);
    if (f == NULL && parent != NULL)
        return nk_fail(NK_ENOFILE, err, errlen, "%s:%d: cannot open included file %s: %s",
                       parent->path, parent->line, path, why);
    if (f == NULL)
        return nk_fail(NK_ENOFILE, err, errlen, "%s: cannot open: %s", path, why);
    nk_status st = NK_OK;
    int depth = parent != NULL ? parent->depth + 1 : 0;
    for (const load *p = parent; p != NULL; p = p->parent) {
        if (p->is_file && p->dev == sb.st_dev && p->ino == sb.st_ino) {
            char chain[1024];
            cycle_text(parent, path, chain, sizeof chain);
            st = nk_fail(NK_EINVAL, err, errlen, "%s:%d: include cycle: %s", parent->path,
                         parent->line, chain);
            break;
        }
    }
    if (st == NK_OK && depth > MAX_INCLUDE_DEPTH)
        st = nk_fail(NK_EINVAL, err, errlen, "%s:%d: includes nested more than %d deep",
                     parent->path, parent->line, MAX_INCLUDE_DEPTH);
    int file = st == NK_OK ? add_file(cfg, path) : -1;
    if (st == NK_OK && file < 0)
        st = nk_fail(NK_ENOMEM, err, errlen, "out of memory reading %s", path);
    if (st == NK_OK) {
        load l = {.cfg = cfg,
                  .path = cfg->files[file],
                  .is_file = true,
                  .dev = sb.st_dev,
                  .ino = sb.st_ino,
                  .parent = parent,
                  .depth = depth,
                  .file = file,
                  .id = ++cfg->loads,
                  .f = f,
                  .last = -1,
                  .err = err,
                  .errlen = errlen};
        st = parse(&l);
    }
    fclose(f);
    return st;
}

nk_status nk_config_load(nk_config *cfg, const char *path, char *err, size_t errlen)
{
    return load_file(cfg, path, NULL, err, errlen);
}

nk_status nk_config_load_string(nk_config *cfg, const char *text, const char *name, char *err,
                                size_t errlen)
{
    int file = add_file(cfg, name);
    if (file < 0)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory reading %s", name);
    load l = {.cfg = cfg,
              .path = cfg->files[file],
              .file = file,
              .id = ++cfg->loads,
              .s = text,
              .last = -1,
              .err = err,
              .errlen = errlen};
    return parse(&l);
}

nk_status nk_config_set(nk_config *cfg, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (eq == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "--set %s: expected section.key=value", assignment);
    char key[128], dym[96];
    trim_copy(assignment, eq, key, sizeof key);
    int idx = find_full(key);
    if (idx < 0) {
        const char *dot = strchr(key, '.');
        if (dot == NULL)
            return nk_fail(NK_EINVAL, err, errlen,
                           "--set %s: '%s' is not a key; keys are written section.key", assignment,
                           key);
        char section[64];
        trim_copy(key, dot, section, sizeof section);
        if (!section_known(section))
            return nk_fail(NK_EINVAL, err, errlen, "--set %s: unknown section [%s]%s", assignment,
                           section, suggest_section(section, dym, sizeof dym));
        return nk_fail(NK_EINVAL, err, errlen, "--set %s: unknown key '%s'%s", assignment, key,
                       suggest_key(section, dot + 1, dym, sizeof dym));
    }
    char why[NK_MSG_MAX];
    nk_status st = set_value(cfg, idx, eq + 1, ORIGIN_SET, 0, ++cfg->loads, why, sizeof why);
    if (st != NK_OK)
        return nk_fail(st, err, errlen, "--set %s: %s: %s", assignment, key, why);
    return NK_OK;
}

/* =====================================================================
 * Getters
 * ===================================================================== */

static const slot *get(const nk_config *cfg, const char *key, nk_config_type type)
{
    int i = find_full(key);
    assert(i >= 0 && "unknown configuration key");
    assert((i < 0 || schema[i].type == type) && "configuration key of another type");
    (void)type;
    return i >= 0 ? &cfg->v[i] : NULL;
}

int nk_config_int(const nk_config *cfg, const char *key)
{
    const slot *v = get(cfg, key, NK_CFG_INT);
    return v != NULL ? v->as.i : 0;
}

uint64_t nk_config_uint64(const nk_config *cfg, const char *key)
{
    const slot *v = get(cfg, key, NK_CFG_UINT64);
    return v != NULL ? v->as.u : 0;
}

double nk_config_double(const nk_config *cfg, const char *key)
{
    const slot *v = get(cfg, key, NK_CFG_DOUBLE);
    return v != NULL ? v->as.d : 0.0;
}

bool nk_config_bool(const nk_config *cfg, const char *key)
{
    const slot *v = get(cfg, key, NK_CFG_BOOL);
    return v != NULL && v->as.b;
}

const char *nk_config_string(const nk_config *cfg, const char *key)
{
    const nk_config_key *k = nk_config_key_find(key);
    const slot *v =
        get(cfg, key, k != NULL && k->type == NK_CFG_ENUM ? NK_CFG_ENUM : NK_CFG_STRING);
    return v != NULL ? v->text : "";
}

int nk_config_enum(const nk_config *cfg, const char *key)
{
    const slot *v = get(cfg, key, NK_CFG_ENUM);
    return v != NULL ? v->as.e : 0;
}

const char *nk_config_text(const nk_config *cfg, const char *key)
{
    int i = find_full(key);
    assert(i >= 0 && "unknown configuration key");
    return i >= 0 ? cfg->v[i].text : "";
}

size_t nk_config_list_count(const nk_config *cfg, const char *key)
{
    const slot *v = get(cfg, key, NK_CFG_SPECS);
    return v != NULL ? v->nitems : 0;
}

const char *nk_config_list_item(const nk_config *cfg, const char *key, size_t i)
{
    const slot *v = get(cfg, key, NK_CFG_SPECS);
    assert(v == NULL || i < v->nitems);
    if (v == NULL || i >= v->nitems)
        return "";
    const char *p = v->items;
    while (i-- > 0)
        p += strlen(p) + 1;
    return p;
}

/* =====================================================================
 * Rules across keys
 * ===================================================================== */

/* "key = value (origin)" into buf. */
static const char *show(const nk_config *cfg, const char *key, char *buf, size_t len)
{
    char origin[512];
    nk_config_origin(cfg, key, origin, sizeof origin);
    snprintf(buf, len, "%s = %s (%s)", key, nk_config_text(cfg, key), origin);
    return buf;
}

nk_status nk_config_validate(const nk_config *cfg, char *err, size_t errlen)
{
    /* The rules live with the typed settings (run/settings.h); here each
     * key they name is said with its value and origin. */
    nk_run_settings s;
    nk_run_clash c;
    nk_status st = nk_config_settings(cfg, &s, NULL, err, errlen);
    if (st != NK_OK || (st = nk_run_settings_check(&s, &c)) == NK_OK)
        return st;
    char sa[768], sb[768] = "";
    show(cfg, c.a, sa, sizeof sa);
    if (c.b != NULL)
        show(cfg, c.b, sb, sizeof sb);
    return nk_fail(st, err, errlen, "%s%s%s%s", sa, c.mid, sb, c.tail);
}

nk_status nk_config_read(nk_config **out, const char *path, const char *const *sets, size_t nsets,
                         char *err, size_t errlen)
{
    nk_config *cfg;
    nk_status st = nk_config_new(&cfg, err, errlen);
    if (st == NK_OK)
        st = nk_config_load(cfg, path, err, errlen);
    for (size_t i = 0; st == NK_OK && i < nsets; i++)
        st = nk_config_set(cfg, sets[i], err, errlen);
    if (st == NK_OK)
        st = nk_config_validate(cfg, err, errlen);
    if (st != NK_OK) {
        nk_config_free(cfg);
        cfg = NULL;
    }
    *out = cfg;
    return st;
}

/* =====================================================================
 * Comparing
 * ===================================================================== */

size_t nk_config_diff(const nk_config *a, const nk_config *b, bool resume,
                      const nk_config_key **keys, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < NKEYS; i++) {
        if (resume && (schema[i].flags & NK_CFG_RESUME_FREE))
            continue;
        if (strcmp(a->v[i].text, b->v[i].text) == 0)
            continue;
        if (n < max)
            keys[n] = &schema[i];
        n++;
    }
    return n;
}

nk_status nk_config_check_resume(const nk_config *stored, const nk_config *now, char *err,
                                 size_t errlen)
{
    enum { SHOWN = 4 };
    const nk_config_key *keys[SHOWN];
    size_t n = nk_config_diff(stored, now, true, keys, SHOWN);
    if (n == 0)
        return NK_OK;
    char msg[2048];
    size_t used = 0;
    for (size_t i = 0; i < n && i < SHOWN && used < sizeof msg; i++) {
        int w = snprintf(msg + used, sizeof msg - used,
                         "%s%s is '%.60s' in the run file, "
                         "'%.60s' now",
                         i ? "; " : "", keys[i]->key, nk_config_text(stored, keys[i]->key),
                         nk_config_text(now, keys[i]->key));
        used += w > 0 ? (size_t)w : 0;
    }
    if (n > SHOWN && used < sizeof msg)
        snprintf(msg + used, sizeof msg - used, "; and %zu more", n - SHOWN);
    return nk_fail(NK_EMISMATCH, err, errlen,
                   "the run file was made from another configuration: %s", msg);
}

/* =====================================================================
 * Writing: --print-config and the Markdown reference
 * ===================================================================== */

/* snprintf into a buffer that may be too small, counting the whole text. */
typedef struct sink {
    char *buf;
    size_t len, pos;
} sink;

__attribute__((format(printf, 2, 3))) static void put(sink *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n;
    if (s->buf != NULL && s->pos < s->len)
        n = vsnprintf(s->buf + s->pos, s->len - s->pos, fmt, ap);
    else
        n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        s->pos += (size_t)n;
}

static size_t finish(sink *s)
{
    if (s->buf != NULL && s->len > 0 && s->pos == 0)
        s->buf[0] = '\0';
    return s->pos;
}

enum { LIST_WIDTH = 100, LIST_INDENT = 4 };

/* `name = a; b; c`, continued on indented lines past LIST_WIDTH columns. */
static void put_list(sink *s, const char *name, const slot *v)
{
    put(s, "%s =", name);
    size_t col = strlen(name) + 2;
    const char *p = v->items;
    for (size_t i = 0; i < v->nitems; i++, p += strlen(p) + 1) {
        size_t w = strlen(p) + 2;
        if (i > 0 && col + w > LIST_WIDTH) {
            put(s, ";\n%*s%s", LIST_INDENT, "", p);
            col = LIST_INDENT + strlen(p);
        } else {
            put(s, "%s %s", i > 0 ? ";" : "", p);
            col += w;
        }
    }
    put(s, "\n");
}

size_t nk_config_format(const nk_config *cfg, char *buf, size_t len)
{
    sink s = {buf, len, 0};
    put(&s, "; nickar evolve configuration, fully resolved: every key, defaults included.\n"
            "; Reading this text back gives the same configuration.\n");
    for (size_t i = 0; i < NKEYS; i++) {
        const nk_config_key *k = &schema[i];
        if (i == 0 || strcmp(k->section, schema[i - 1].section) != 0)
            put(&s, "\n[%s]\n", k->section);
        put(&s, "; %s\n", k->help);
        if (k->type == NK_CFG_SPECS)
            put_list(&s, k->name, &cfg->v[i]);
        else if (cfg->v[i].text[0] == '\0')
            put(&s, "%s =\n", k->name);
        else
            put(&s, "%s = %s\n", k->name, cfg->v[i].text);
    }
    return finish(&s);
}

nk_status nk_config_print(const nk_config *cfg, FILE *out)
{
    size_t n = nk_config_format(cfg, NULL, 0);
    char *text = nk_malloc(n + 1);
    if (text == NULL)
        return NK_ENOMEM;
    nk_config_format(cfg, text, n + 1);
    nk_status st = fwrite(text, 1, n, out) == n && fflush(out) == 0 ? NK_OK : NK_EIO;
    nk_free(text);
    return st;
}

/* Markdown table cell text: '|', '<' and '>' escaped. */
static void put_cell(sink *s, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (strchr("|<>", *p) != NULL)
            put(s, "\\%c", *p);
        else
            put(s, "%c", *p);
    }
}

static const char doc_intro[] =
    "# Configuration reference\n"
    "\n"
    "<!-- Generated from the parameter tables (src/run/settings.h lists them) by\n"
    "     nk_config_doc_markdown() in src/io/config.c; do not edit. Regenerate with:\n"
    "     NICKAR_REGEN_DOCS=1 build/tests/test_io_config -->\n"
    "\n"
    "`nickar evolve` reads an experiment from an INI file:\n"
    "\n"
    "    nickar evolve configs/quickstart.ini [--set section.key=value]... [--print-config]\n"
    "\n"
    "Every key has a default, so a file sets only what it changes. The keys are listed\n"
    "below, one table per section; a key is named `section.key` in messages and in `--set`.\n"
    "\n"
    "## Syntax\n"
    "\n"
    "- `[section]` starts a section; `key = value` (or `key: value`) sets `section.key`.\n"
    "- A line starting with `;` or `#` is a comment, and so is the rest of a line after a\n"
    "  `;` that follows a space: `depth = 3 ; deeper is slower`. A `#` after a value is\n"
    "  part of the value; a value cannot start with `;`.\n"
    "- Spaces around keys and values are ignored. A line holds at most 197 characters.\n"
    "- Numbers: `int` and `uint64` are decimal integers, `double` any decimal number\n"
    "  (`0.3`, `1e-6`); `bool` is `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`).\n"
    "- `specs` values are lists of player specs (`random`, `greedy`,\n"
    "  `ab:depth=2,features=positional`, as for `nickar match`) separated by `;`. Since\n"
    "  ` ;` starts a comment, write the `;` right after a spec: `random; greedy`. A long\n"
    "  list continues on indented lines:\n"
    "\n"
    "      opponents = random; greedy;\n"
    "          ab:depth=2,features=positional\n"
    "\n"
    "  An indented line always continues the value above it, so indenting any other key\n"
    "  is an error.\n"
    "- A key set twice in one file is an error that names both lines (a later line\n"
    "  silently winning is usually a mistake). Unknown sections and keys are errors too,\n"
    "  and so are malformed or out-of-range values; messages name the file, the line and\n"
    "  the key, with the closest valid key or choice:\n"
    "\n"
    "      quick.ini:7: unknown key 'fitness.scheme' (did you mean 'fitness.schedule'?)\n"
    "      quick.ini:9: population.size: 1 is out of range 2..100000\n"
    "\n"
    "## Includes, overrides and resolved configs\n"
    "\n"
    "- `include = base.ini` at the top of a file, before the first section, applies\n"
    "  `base.ini` first; the including file then overrides it. The path is relative to\n"
    "  the including file. A file may include several files, applied in order (a later\n"
    "  one overrides an earlier one); an include cycle is an error.\n"
    "- `--set section.key=value`, which may be repeated, applies after the file, in\n"
    "  order: `--set population.size=32 --set fitness.schedule=random-k`. Its errors read\n"
    "  `--set fitness.scheme=sample: unknown key 'fitness.scheme' (did you mean ...?)`.\n"
    "- `--print-config` prints the resolved configuration: every key, defaults included,\n"
    "  each after a `; description` line. That text is stored in every run file and\n"
    "  reads back to the same configuration. `--resume` refuses a run file whose stored\n"
    "  configuration differs from the new one in any key but those listed at the end.\n"
    "- After all files and `--set`s, the rules across keys listed at the end are\n"
    "  checked.\n";

size_t nk_config_doc_markdown(char *buf, size_t len)
{
    sink s = {buf, len, 0};
    put(&s, "%s", doc_intro);
    for (size_t i = 0; i < NKEYS; i++) {
        const nk_config_key *k = &schema[i];
        if (i == 0 || strcmp(k->section, schema[i - 1].section) != 0)
            put(&s,
                "\n## [%s]\n\n| key | type | default | range / choices | description |\n"
                "|---|---|---|---|---|\n",
                k->section);
        put(&s, "| `%s` | %s | ", k->key, type_names[k->type]);
        if (k->def[0] != '\0')
            put(&s, "`%s`", k->def);
        else
            put(&s, "(empty)");
        put(&s, " | ");
        char range[128];
        nk_param_range_text(k, range, sizeof range);
        if (k->type == NK_CFG_ENUM) {
            const char *c;
            for (size_t j = 0; (c = nk_param_choice(k, j)) != NULL; j++)
                put(&s, "%s`%s`", j == 0 ? "" : ", ", c);
        } else if (k->type == NK_CFG_SPECS) {
            put(&s, "player specs separated by `;`");
        } else if (range[0] != '\0') {
            put_cell(&s, range);
        } else if (k->type == NK_CFG_STRING && k->rule == NULL) {
            put(&s, "one line, at most %d characters", NK_CONFIG_STRING_MAX);
        } else if (k->type != NK_CFG_STRING) {
            put(&s, "any");
        }
        if (k->rule != NULL)
            put(&s, "%s%s", k->type == NK_CFG_ENUM || range[0] != '\0' ? "; " : "", k->rule);
        put(&s, " | ");
        put_cell(&s, k->help);
        put(&s, " |\n");
    }
    put(&s, "\n## Rules across keys\n\n");
    for (size_t i = 0; i < nk_run_rule_count(); i++) {
        char rule[1024];
        put(&s, "- %s\n", nk_run_rule_doc(i, rule, sizeof rule));
    }
    put(&s, "\n## Keys that may differ on `--resume`\n\n");
    for (size_t i = 0; i < NKEYS; i++)
        if (schema[i].flags & NK_CFG_RESUME_FREE)
            put(&s, "- `%s`\n", schema[i].key);
    return finish(&s);
}
