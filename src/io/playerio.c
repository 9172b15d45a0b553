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
#include "base/alloc.h"
#include "io/backup.h"
#include "io/config.h"
#include "io/runfile.h"
#include "run/settings.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/param.h"
#include "search/eval.h"
#include "search/features.h"
#include "tb/tb.h"

/* ===== weights text files ===== */

/* A weights file is a regular file of at most 1 MiB. */
enum { WEIGHTS_FILE_MAX = 1 << 20 };

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

/* Reads one weight, the whole of text, with the parameter tables' reader
 * (base/param.h): a finite decimal number, as a config takes it (no hex,
 * no spaces); 0 for text that is not one, -1 for one too close to 0. */
static int parse_number(const char *text, double *out)
{
    nk_status st = nk_param_read_double(text, out);
    return st == NK_OK ? 1 : st == NK_ERANGE ? -1 : 0;
}

static nk_status read_lines(FILE *f, const char *path, double *w, size_t max, size_t *n, char *err,
                            size_t errlen)
{
    char *buf = NULL;
    size_t cap = 0;
    unsigned line_no = 0;
    nk_status st = NK_OK;
    *n = 0;
    size_t total = 0;
    ssize_t len;
    while (st == NK_OK && (len = getline(&buf, &cap, f)) != -1) {
        line_no++;
        total += (size_t)len;
        if (total > WEIGHTS_FILE_MAX) {
            st = nk_fail(NK_EINVAL, err, errlen, "%s:%u: the file is larger than 1 MiB", path,
                         line_no);
            break;
        }
        if (strlen(buf) != (size_t)len) { /* strtod would stop at the NUL */
            st = nk_fail(NK_EINVAL, err, errlen, "%s:%u: line holds a NUL byte", path, line_no);
            break;
        }
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
    /* getline's -1 is the end only at the end of the file: a failed read
     * or a line that found no memory is an error, not a shorter file */
    if (st == NK_OK && (ferror(f) || !feof(f)))
        st = nk_fail(errno == ENOMEM ? NK_ENOMEM : NK_EIO, err, errlen,
                     "cannot read weights file '%s': %s", path, strerror(errno));
    if (st == NK_OK && *n == 0)
        st = nk_fail(NK_EINVAL, err, errlen, "%s: no weights in the file", path);
    nk_free(buf);
    return st;
}

nk_status nk_playerio_read_weights(const char *path, double *w, size_t max, size_t *n, char *err,
                                   size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO does not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return nk_fail(NK_ENOFILE, err, errlen, "cannot open weights file '%s': %s", path,
                       strerror(errno));
    struct stat sb;
    const char *why = NULL;
    int e = 0;
    if (fstat(fd, &sb) != 0)
        e = errno;
    else if (S_ISDIR(sb.st_mode))
        e = EISDIR;
    else if (!S_ISREG(sb.st_mode))
        why = "not a regular file";
    else if (sb.st_size > WEIGHTS_FILE_MAX)
        why = "larger than 1 MiB";
    FILE *f = NULL;
    if (e == 0 && why == NULL) {
        int flags = fcntl(fd, F_GETFL);
        if (flags == -1 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1 ||
            (f = fdopen(fd, "r")) == NULL)
            e = errno;
    }
    if (f == NULL) {
        close(fd);
        return nk_fail(NK_ENOFILE, err, errlen, "cannot open weights file '%s': %s", path,
                       why != NULL ? why : strerror(e));
    }
    nk_status st = read_lines(f, path, w, max, n, err, errlen);
    fclose(f);
    return st;
}

/* ===== run files (extension point) ===== */

nk_status nk_playerio_run_weights(const char *file, const char *selector, double *w, size_t max,
                                  size_t *n, char *err, size_t errlen)
{
    static const char *const keys[] = {"gen", "rank"};
    uint64_t gr[2] = {0, 0};
    bool best = strcmp(selector, "best") == 0;
    *n = 0;
    if (!best && (!nk_param_read_keyed(selector, keys, gr, 2) || gr[0] > ULONG_MAX ||
                  gr[1] > ULONG_MAX))
        return nk_fail(NK_EINVAL, err, errlen,
                       "weights '%s@%s': after '@' give 'best' or 'gen=G,rank=R'", file,
                       selector);
    unsigned long gen = (unsigned long)gr[0], rank = (unsigned long)gr[1];
    nk_run *run = NULL;
    char e2[NK_MSG_MAX];
    nk_status st = nk_run_open(&run, file, false, e2, sizeof e2);
    if (st != NK_OK) {
        nk_backup_hint(file, e2, sizeof e2);
        return nk_fail(st, err, errlen, "weights '%s@%s': %s", file, selector, e2);
    }
    const nk_run_meta *m = nk_run_get_meta(run);
    size_t g = nk_run_generations(run);
    double *genome = NULL, *fitness = NULL;
    if (g == 0)
        st = nk_fail(NK_EINVAL, err, errlen, "weights '%s@%s': the run has no complete generation",
                     file, selector);
    else if (best)
        gen = g - 1;
    else if (gen < 1 || gen > g)
        st = nk_fail(NK_ERANGE, err, errlen,
                     "weights '%s@%s': generation %lu is not in 1..%zu", file, selector, gen, g);
    else
        gen--; /* generations count from 1 for people, from 0 in the file */
    if (st == NK_OK && rank >= m->n)
        st = nk_fail(NK_ERANGE, err, errlen, "weights '%s@%s': rank %lu is not in 0..%zu", file,
                     selector, rank, m->n - 1);
    if (st == NK_OK && m->d > max)
        st = nk_fail(NK_ERANGE, err, errlen, "weights '%s@%s': %zu weights, at most %zu", file,
                     selector, m->d, max);
    if (st == NK_OK) {
        genome = nk_malloc(m->n * m->d * sizeof *genome);
        fitness = nk_malloc(m->n * sizeof *fitness);
        if (genome == NULL || fitness == NULL)
            st = nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    }
    if (st == NK_OK) {
        nk_run_pop pop = {.genome = genome, .fitness = fitness};
        st = nk_run_read_population(run, gen, &pop, e2, sizeof e2);
        if (st != NK_OK)
            nk_fail(st, err, errlen, "weights '%s@%s': %s", file, selector, e2);
    }
    if (st == NK_OK) {
        /* The individual of that rank by fitness: the order of the champion
         * rule (nk_fitness_better: best first, ties by index, NaN last), so
         * rank 0 is the champion. */
        size_t *order = nk_malloc(m->n * sizeof *order);
        if (order == NULL) {
            st = nk_fail(NK_ENOMEM, err, errlen, "out of memory");
        } else {
            for (size_t i = 0; i < m->n; i++) {
                size_t k = i;
                while (k > 0 && nk_fitness_better(fitness[i], fitness[order[k - 1]])) {
                    order[k] = order[k - 1];
                    k--;
                }
                order[k] = i;
            }
            memcpy(w, genome + order[rank] * m->d, m->d * sizeof *w);
            *n = m->d;
            nk_free(order);
            /* a row not kept (output.population_every: NaN, io/evolve_file.c) */
            if (isnan(w[0]))
                st = nk_fail(NK_ERANGE, err, errlen,
                             "weights '%s@%s': generation %lu keeps only its champion's weights "
                             "(output.population_every); rank 0 is kept",
                             file, selector, gen + 1);
        }
    }
    nk_free(genome);
    nk_free(fitness);
    nk_run_close(run);
    return st;
}

/* ===== specs ===== */

/* The feature set the spec's player will use in v. */
static const nk_feature_set *spec_set(const nk_spec *spec, const nk_variant *v)
{
    return spec->features[0] ? nk_features_find(spec->features) : nk_features_default(v);
}

/* The weights file of a family other than linear (search/eval.h): read
 * once, of exactly the family's length, into the shared table under the
 * weights= text; the def keeps no numbers (n = 0). */
static nk_status resolve_family_weights(nk_player_def *out, const nk_variant *v, char *err,
                                        size_t errlen)
{
    const char *value = out->spec.weights;
    char name[NK_SPEC_TEXT];
    size_t need = 0, n = 0;
    nk_status st =
        nk_eval_features_count(out->spec.features, v, &need, name, sizeof name, err, errlen);
    if (st != NK_OK)
        return st;
    const char *at = strrchr(value, '@');
    bool run = at != NULL && (strcmp(at + 1, "best") == 0 || strncmp(at + 1, "gen=", 4) == 0);
    double *w = nk_malloc(need * sizeof *w);
    if (w == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu weights", need);
    if (run) {
        /* an individual of a run that evolved this family (RUN.h5@best) */
        char file[NK_SPEC_TEXT];
        snprintf(file, sizeof file, "%.*s", (int)(at - value), value);
        st = nk_playerio_run_weights(file, at + 1, w, need, &n, err, errlen);
    } else {
        st = nk_playerio_read_weights(value, w, need, &n, err, errlen);
    }
    if (st == NK_OK && n != need)
        st = nk_fail(NK_EINVAL, err, errlen, "%s: %zu weights, but %s needs %zu", value, n, name,
                     need);
    if (st == NK_OK)
        st = nk_eval_shared_put(value, w, n, err, errlen);
    nk_free(w);
    return st;
}

static nk_status resolve_weights(nk_player_def *out, const nk_variant *v, char *err, size_t errlen)
{
    const char *value = out->spec.weights;
    if (nk_eval_family_of(out->spec.features) != nk_eval_family_at(0))
        return resolve_family_weights(out, v, err, errlen);
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
    if (out->spec.kind != NK_PLAYER_AB && out->spec.kind != NK_PLAYER_MCTS)
        return NK_OK;
    if (out->spec.tb[0] != '\0') {
        const nk_tb *tb;
        char e2[NK_MSG_MAX], q[256], q2[NK_MSG_MAX];
        st = nk_tb_shared_open(out->spec.tb, v, &tb, e2, sizeof e2);
        if (st != NK_OK)
            return nk_fail(st, err, errlen, "player spec '%s': tb: %s",
                           nk_escape(out->spec.text, q, sizeof q), nk_escape(e2, q2, sizeof q2));
    }
    if (out->spec.weights[0] == '\0')
        return NK_OK;
    return resolve_weights(out, v, err, errlen);
}

nk_status nk_playerio_new(nk_player **out, const nk_player_def *def, const nk_variant *v, char *err,
                          size_t errlen)
{
    return nk_player_new(out, &def->spec, v, def->n ? def->weights : NULL, def->n, err, errlen);
}

/* ===== player lists ===== */

bool nk_playerio_is_champions(const char *text)
{
    const char *at = strrchr(text, '@');
    return at != NULL && strncmp(at + 1, "champions", 9) == 0 &&
           (at[10] == '\0' || at[10] == ':');
}

void nk_player_list_free(nk_player_list *l)
{
    nk_free(l->p);
    memset(l, 0, sizeof *l);
}

static nk_status list_push(nk_player_list *l, const char *name, const nk_player_def *def,
                           char *err, size_t errlen)
{
    if (strlen(name) >= NK_PLAYER_NAME)
        return nk_fail(NK_EINVAL, err, errlen, "player name '%.40s...' is longer than %d bytes",
                       name, NK_PLAYER_NAME - 1);
    if (l->n == NK_PLAYER_LIST_MAX)
        return nk_fail(NK_ERANGE, err, errlen, "more than %d players", NK_PLAYER_LIST_MAX);
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->p[i].name, name) == 0)
            return nk_fail(NK_EINVAL, err, errlen, "duplicate player name '%s'", name);
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        nk_named_player *p = nk_realloc(l->p, cap * sizeof *p);
        if (p == NULL)
            return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
        l->p = p;
        l->cap = cap;
    }
    snprintf(l->p[l->n].name, NK_PLAYER_NAME, "%s", name);
    l->p[l->n].def = *def;
    l->n++;
    return NK_OK;
}

/* The spec of the run's evolving players, from its stored config
 * (run/settings.h, nk_run_player_of), and its generations. */
static nk_status run_player(const char *file, char *spec_head, size_t len, size_t *gens, char *err,
                            size_t errlen)
{
    nk_run *run = NULL;
    char e2[NK_MSG_MAX];
    nk_status st = nk_run_open(&run, file, false, e2, sizeof e2);
    if (st != NK_OK) {
        nk_backup_hint(file, e2, sizeof e2);
        return nk_fail(st, err, errlen, "'%s@champions': %s", file, e2);
    }
    *gens = nk_run_generations(run);
    nk_run_player player;
    st = nk_config_run_player(nk_run_get_meta(run)->config, file, &player, NULL, e2, sizeof e2);
    if (st != NK_OK)
        nk_fail(st, err, errlen, "'%s@champions': the run's config: %s", file, e2);
    else
        snprintf(spec_head, len, "%s", player.spec.text);
    nk_run_close(run);
    return st;
}

static nk_status add_champions(nk_player_list *l, const char *name, const char *text,
                               const nk_variant *v, char *err, size_t errlen)
{
    const char *at = strrchr(text, '@');
    char file[NK_SPEC_TEXT], head[NK_SPEC_TEXT], prefix[NK_PLAYER_NAME];
    if ((size_t)(at - text) >= sizeof file)
        return nk_fail(NK_EINVAL, err, errlen, "'%s': the run file's name is too long", text);
    snprintf(file, sizeof file, "%.*s", (int)(at - text), text);
    static const char *const key[] = {"every"};
    uint64_t every = 1;
    const char *sel = at + 10; /* after "champions" */
    if (*sel == ':') {
        if (!nk_param_read_keyed(sel + 1, key, &every, 1) || every < 1)
            return nk_fail(NK_EINVAL, err, errlen,
                           "'%s': after '@champions' give nothing or ':every=K' (K >= 1)", text);
    }
    if (name != NULL) {
        snprintf(prefix, sizeof prefix, "%s", name);
    } else {
        const char *base = strrchr(file, '/');
        base = base ? base + 1 : file;
        size_t blen = strlen(base);
        if (blen > 3 && strcmp(base + blen - 3, ".h5") == 0)
            blen -= 3;
        snprintf(prefix, sizeof prefix, "%.*s", (int)blen, base);
    }
    size_t gens = 0;
    nk_status st = run_player(file, head, sizeof head, &gens, err, errlen);
    if (st != NK_OK)
        return st;
    if (gens == 0)
        return nk_fail(NK_ERANGE, err, errlen, "'%s': the run has no complete generation", text);
    for (size_t g = 1; g <= gens; g++) {
        if ((g - 1) % every != 0 && g != gens)
            continue;
        char spec[NK_SPEC_TEXT + 64], pname[NK_PLAYER_NAME + 32];
        int n = snprintf(spec, sizeof spec, "%s,weights=%s@gen=%zu,rank=0", head, file, g);
        if (n < 0 || (size_t)n >= NK_SPEC_TEXT)
            return nk_fail(NK_EINVAL, err, errlen, "'%s': the champion's spec is too long", text);
        snprintf(pname, sizeof pname, "%s:g%zu", prefix, g);
        nk_player_def def;
        st = nk_playerio_load(&def, spec, v, err, errlen);
        if (st == NK_OK)
            st = list_push(l, pname, &def, err, errlen);
        if (st != NK_OK)
            return st;
    }
    return NK_OK;
}

nk_status nk_player_list_add(nk_player_list *l, const char *name, const char *text,
                             const nk_variant *v, char *err, size_t errlen)
{
    if (nk_playerio_is_champions(text))
        return add_champions(l, name, text, v, err, errlen);
    nk_player_def def;
    nk_status st = nk_playerio_load(&def, text, v, err, errlen);
    if (st == NK_OK && def.spec.kind == NK_PLAYER_HUMAN)
        st = nk_fail(NK_EINVAL, err, errlen, "'human' cannot play in a tournament");
    if (st == NK_OK) {
        nk_player *p = NULL;
        st = nk_playerio_new(&p, &def, v, err, errlen);
        nk_player_free(p);
    }
    if (st != NK_OK)
        return st;
    return list_push(l, name ? name : text, &def, err, errlen);
}

/* A players file is a regular file of at most 4 MiB. */
enum { PLAYERS_FILE_MAX = 4 << 20, PLAYERS_LINE_MAX = 4096 };

nk_status nk_player_list_read(nk_player_list *l, const char *path, const nk_variant *v, char *err,
                              size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return nk_fail(NK_ENOFILE, err, errlen, "cannot open players file '%s': %s", path,
                       strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > PLAYERS_FILE_MAX) {
        fclose(f);
        return nk_fail(NK_ENOFILE, err, errlen,
                       "players file '%s' is not a regular file of at most 4 MiB", path);
    }
    char *buf = nk_malloc(PLAYERS_LINE_MAX);
    if (buf == NULL) {
        fclose(f);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    }
    nk_status st = NK_OK;
    unsigned lineno = 0;
    char e2[NK_MSG_MAX];
    while (st == NK_OK && fgets(buf, PLAYERS_LINE_MAX, f) != NULL) {
        lineno++;
        size_t len = strlen(buf);
        if (len == PLAYERS_LINE_MAX - 1 && buf[len - 1] != '\n' && !feof(f)) {
            st = nk_fail(NK_EINVAL, err, errlen, "%s:%u: line longer than %d bytes", path, lineno,
                         PLAYERS_LINE_MAX - 2);
            break;
        }
        buf[strcspn(buf, "\r\n")] = '\0';
        char *line = strip(buf);
        if (*line == '\0')
            continue;
        char *eq = strchr(line, '=');
        char *name = line, *spec = eq ? eq + 1 : NULL;
        if (eq != NULL) {
            *eq = '\0';
            name = strip(name);
            spec = strip(spec);
        }
        if (eq == NULL) {
            st = nk_fail(NK_EINVAL, err, errlen, "%s:%u: expected 'NAME = SPEC', got '%s'", path,
                         lineno, line);
            break;
        }
        if (*name == '\0' || *spec == '\0') {
            st = nk_fail(NK_EINVAL, err, errlen, "%s:%u: expected 'NAME = SPEC': the %s is empty",
                         path, lineno, *name == '\0' ? "name" : "spec");
            break;
        }
        st = nk_player_list_add(l, name, spec, v, e2, sizeof e2);
        if (st != NK_OK)
            nk_fail(st, err, errlen, "%s:%u: %s", path, lineno, e2);
    }
    if (st == NK_OK && ferror(f))
        st = nk_fail(NK_EIO, err, errlen, "cannot read players file '%s'", path);
    nk_free(buf);
    fclose(f);
    return st;
}
