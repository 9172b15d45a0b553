/*
 * playerio.c -- resolving the `weights=` value of a player spec (see
 * playerio.h for the three forms).
 *
 * Which form a value takes: FILE@best or FILE@gen=... (split at the last
 * '@') is a run-file reference; else a built-in table name wins
 * over a file of the same name; else it is a file name.  The number of
 * weights read must equal the size of the spec's feature set (or the
 * variant's default set), and the message says so with the file's name.
 */
#include "io/playerio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/features.h"

/* ===== weights text files ===== */

/* The line without its comment and surrounding blanks (in place). */
static char *strip(char *line)
{
    char *hash = strchr(line, '#');
    if (hash != NULL)
        *hash = '\0';
    while (*line == ' ' || *line == '\t')
        line++;
    size_t len = strlen(line);
    while (len > 0 && strchr(" \t\r\n", line[len - 1]) != NULL)
        line[--len] = '\0';
    return line;
}

/* Reads one number that must fill the whole of text. */
static int parse_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (end == text || *end != '\0')
        return 0;
    if (errno == ERANGE || !isfinite(x))
        return -1;
    *out = x;
    return 1;
}

static nk_status read_lines(FILE *f, const char *path, double *w, size_t max, size_t *n, char *err,
                            size_t errlen)
{
    char *buf = NULL;
    size_t cap = 0;
    unsigned line_no = 0;
    nk_status st = NK_OK;
    *n = 0;
    while (st == NK_OK && getline(&buf, &cap, f) != -1) {
        line_no++;
        char *text = strip(buf);
        if (*text == '\0')
            continue;
        double x;
        int ok = parse_number(text, &x);
        if (ok <= 0)
            st = nk_fail(NK_EINVAL, err, errlen, "%s:%u: '%.40s' is not %s", path, line_no, text,
                         ok == 0 ? "one number" : "a finite number");
        else if (*n == max)
            st =
                nk_fail(NK_EINVAL, err, errlen, "%s:%u: more than %zu weights", path, line_no, max);
        else
            w[(*n)++] = x;
    }
    if (st == NK_OK && ferror(f))
        st = nk_fail(NK_EIO, err, errlen, "cannot read weights file '%s': %s", path,
                     strerror(errno));
    if (st == NK_OK && *n == 0)
        st = nk_fail(NK_EINVAL, err, errlen, "%s: no weights in the file", path);
    free(buf);
    return st;
}

nk_status nk_playerio_read_weights(const char *path, double *w, size_t max, size_t *n, char *err,
                                   size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return nk_fail(NK_EIO, err, errlen, "cannot open weights file '%s': %s", path,
                       strerror(errno));
    nk_status st = read_lines(f, path, w, max, n, err, errlen);
    fclose(f);
    return st;
}

/* ===== run files (extension point) ===== */

nk_status nk_playerio_run_weights(const char *file, const char *selector, double *w, size_t max,
                                  size_t *n, char *err, size_t errlen)
{
    /* To be filled by the run-file code: open file, check its variant and
     * feature names, pick the individual (`best`: the best of the last
     * generation; `gen=G,rank=R`: rank R by fitness in generation G) and
     * copy its D <= max weights into w, D into *n. */
    (void)w;
    (void)max;
    *n = 0;
    return nk_fail(NK_EINVAL, err, errlen,
                   "weights '%s@%s': run files are not supported yet (give a weights "
                   "text file or a built-in table)",
                   file, selector);
}

/* ===== specs ===== */

/* The feature set the spec's player will use in v. */
static const nk_feature_set *spec_set(const nk_spec *spec, const nk_variant *v)
{
    return spec->features[0] ? nk_features_find(spec->features) : nk_features_default(v);
}

static nk_status resolve_weights(nk_player_def *out, const nk_variant *v, char *err, size_t errlen)
{
    const char *value = out->spec.weights;
    const char *at = strrchr(value, '@');
    nk_status st;
    char file[NK_SPEC_TEXT];
    if (at != NULL && (strcmp(at + 1, "best") == 0 || strncmp(at + 1, "gen=", 4) == 0)) {
        snprintf(file, sizeof file, "%.*s", (int)(at - value), value);
        st = nk_playerio_run_weights(file, at + 1, out->weights, NK_MAX_FEATURES, &out->n, err,
                                     errlen);
    } else if (nk_weights_builtin(value) != NULL) {
        return NK_OK;
    } else {
        snprintf(file, sizeof file, "%s", value);
        st = nk_playerio_read_weights(file, out->weights, NK_MAX_FEATURES, &out->n, err, errlen);
    }
    if (st != NK_OK)
        return st;
    const nk_feature_set *set = spec_set(&out->spec, v);
    if (set != NULL && set->count != out->n)
        return nk_fail(NK_EINVAL, err, errlen,
                       "%s: %zu weights, but feature set '%s' has %zu features", file, out->n,
                       set->name, set->count);
    return NK_OK;
}

nk_status nk_playerio_load(nk_player_def *out, const char *text, const nk_variant *v, char *err,
                           size_t errlen)
{
    memset(out, 0, sizeof *out);
    nk_status st = nk_spec_parse(&out->spec, text, err, errlen);
    if (st != NK_OK)
        return st;
    if (out->spec.kind != NK_PLAYER_AB || out->spec.weights[0] == '\0')
        return NK_OK;
    return resolve_weights(out, v, err, errlen);
}

nk_status nk_playerio_new(nk_player **out, const nk_player_def *def, const nk_variant *v, char *err,
                          size_t errlen)
{
    return nk_player_new(out, &def->spec, v, def->n ? def->weights : NULL, def->n, err, errlen);
}
