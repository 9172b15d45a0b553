/*
 * ladder.c -- a reference ladder's text file (ladder.h).
 *
 * Lines are read one by one: players first, then the results; a results
 * line is split at its tabs into at most seven fields.  Every error names
 * FILE:LINE (or FILE for the whole file) in one line.
 */
#include "io/ladder.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/param.h"

static size_t rung_index(const nk_ladder *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->rung[i].name, name) == 0)
            return i;
    return l->n;
}

/* An @anchor line (fields split at tabs). */
static nk_status read_anchor(nk_ladder *l, const char *path, unsigned lineno, char **field,
                             int nfield, char *err, size_t errlen)
{
    double elo = NAN;
    size_t a = nfield == 3 ? rung_index(l, field[1]) : l->n;
    if (nfield != 3 || nk_param_read_double(field[2], &elo) != NK_OK || a == l->n)
        return nk_fail(NK_EFORMAT, err, errlen,
                       "%s:%u: expected @anchor<TAB>NAME<TAB>ELO naming a ladder player", path,
                       lineno);
    l->anchor = a;
    l->anchor_elo = elo;
    l->has_anchor = true;
    return NK_OK;
}

/* A @wdl line (fields split at tabs). */
static nk_status read_wdl(nk_ladder *l, const char *path, unsigned lineno, char **field, int nfield,
                          char *err, size_t errlen)
{
    const size_t n = l->n;
    size_t a = nfield == 6 ? rung_index(l, field[1]) : n;
    size_t b = nfield == 6 ? rung_index(l, field[2]) : n;
    uint64_t v[3];
    bool good = nfield == 6 && a < n && b < n && a != b;
    for (int k = 0; good && k < 3; k++)
        good = nk_param_read_uint64(field[3 + k], &v[k]) == NK_OK && v[k] <= 100000000u;
    if (!good)
        return nk_fail(NK_EFORMAT, err, errlen,
                       "%s:%u: expected @wdl<TAB>A<TAB>B<TAB>W<TAB>D<TAB>L: two ladder players "
                       "(listed above) and A's wins, draws and losses against B",
                       path, lineno);
    if (l->wdl == NULL && (l->wdl = nk_calloc(n * n, sizeof *l->wdl)) == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    nk_wdl *x = &l->wdl[a * n + b], *y = &l->wdl[b * n + a];
    if (x->w + x->d + x->l > 0)
        return nk_fail(NK_EFORMAT, err, errlen, "%s:%u: a second @wdl line for %s and %s", path,
                       lineno, field[1], field[2]);
    *x = (nk_wdl){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
    *y = (nk_wdl){(uint32_t)v[2], (uint32_t)v[1], (uint32_t)v[0]};
    return NK_OK;
}

/* A results line: "@anchor" or "@wdl" first. */
static nk_status read_result(nk_ladder *l, const char *path, unsigned lineno, char *line, char *err,
                             size_t errlen)
{
    char *field[7];
    int nfield = 0;
    for (char *at = line; at != NULL && nfield < 7; nfield++) {
        field[nfield] = at;
        at = strchr(at, '\t');
        if (at != NULL)
            *at++ = '\0';
    }
    if (strcmp(field[0], "@anchor") == 0)
        return read_anchor(l, path, lineno, field, nfield, err, errlen);
    if (strcmp(field[0], "@wdl") == 0)
        return read_wdl(l, path, lineno, field, nfield, err, errlen);
    return nk_fail(NK_EFORMAT, err, errlen,
                   "%s:%u: '%s': a line may start with @anchor or @wdl only", path, lineno,
                   field[0]);
}

/* A player's line: NAME<TAB>SPEC<TAB>ELO. */
static nk_status read_rung(nk_ladder *l, const char *path, unsigned lineno, char *line,
                           const nk_variant *v, char *err, size_t errlen)
{
    if (l->wdl != NULL || l->has_anchor)
        return nk_fail(NK_EFORMAT, err, errlen,
                       "%s:%u: a player after the results (the players come first)", path, lineno);
    char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    double elo = NAN;
    if (t2 == NULL || nk_param_read_double(t2 + 1, &elo) != NK_OK || t1 == line)
        return nk_fail(NK_EFORMAT, err, errlen, "%s:%u: expected NAME<TAB>SPEC<TAB>ELO", path,
                       lineno);
    if (l->n == NK_LADDER_MAX)
        return nk_fail(NK_EFORMAT, err, errlen, "%s:%u: more than %d players", path, lineno,
                       NK_LADDER_MAX);
    *t1 = *t2 = '\0';
    if (strlen(line) >= NK_PLAYER_NAME)
        return nk_fail(NK_EFORMAT, err, errlen,
                       "%s:%u: player name '%.40s...' is longer than %d bytes", path, lineno,
                       line, NK_PLAYER_NAME - 1);
    if (rung_index(l, line) < l->n)
        return nk_fail(NK_EFORMAT, err, errlen, "%s:%u: duplicate player name '%s'", path,
                       lineno, line);
    char msg[NK_MSG_MAX];
    nk_ladder_rung *g = &l->rung[l->n];
    snprintf(g->name, sizeof g->name, "%s", line);
    g->elo = elo;
    nk_status st = nk_playerio_load(&g->def, t1 + 1, v, msg, sizeof msg);
    if (st != NK_OK)
        return nk_fail(st, err, errlen, "%s:%u: %s", path, lineno, msg);
    l->n++;
    return NK_OK;
}

nk_status nk_ladder_read(nk_ladder *out, const char *path, const nk_variant *v, char *err,
                         size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return nk_fail(NK_ENOFILE, err, errlen,
                       "no ladder '%s': %s (experiments/ladder/run.sh makes it; --ladder FILE "
                       "names another)",
                       path, strerror(errno));
    out->rung = nk_calloc(NK_LADDER_MAX, sizeof *out->rung);
    char *line = nk_malloc(NK_LADDER_LINE);
    nk_status st = out->rung && line ? NK_OK : nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    unsigned lineno = 0;
    while (st == NK_OK && fgets(line, NK_LADDER_LINE, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
            continue;
        if (line[0] == '@')
            st = read_result(out, path, lineno, line, err, errlen);
        else
            st = read_rung(out, path, lineno, line, v, err, errlen);
    }
    fclose(f);
    nk_free(line);
    if (st == NK_OK && out->n == 0)
        st = nk_fail(NK_EFORMAT, err, errlen, "%s: no players in the ladder", path);
    if (st == NK_OK && (out->wdl != NULL) != out->has_anchor)
        st = nk_fail(NK_EFORMAT, err, errlen,
                     "%s: the ladder's results need both @anchor and @wdl lines", path);
    if (st != NK_OK)
        nk_ladder_free(out);
    return st;
}

void nk_ladder_free(nk_ladder *l)
{
    nk_free(l->rung);
    nk_free(l->wdl);
    memset(l, 0, sizeof *l);
}
