/*
 * ciaofile.c -- the champions of a run file and the analysis file of
 * `nickar ciao` (ciaofile.h).
 */
#include "io/ciaofile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/backup.h"
#include "io/config.h"
#include "io/h5.h"
#include "io/runfile.h"
#include "run/settings.h"

/* ===== the champions ===== */

/* The spec, variant and ply limit of the run's evolving players, from its
 * stored configuration (run/settings.h, nk_run_player_of). */
static nk_status run_player(nk_ciao_source *out, const nk_run_meta *m, char *err, size_t errlen)
{
    nk_config *cfg = NULL;
    nk_run_settings s;
    char e2[NK_MSG_MAX];
    nk_status st = nk_config_new(&cfg, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_load_string(cfg, m->config, "the stored config", e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_settings(cfg, &s, NULL, e2, sizeof e2);
    if (st == NK_OK && (out->variant = nk_variant_find(s.experiment.variant)) == NULL)
        st = nk_fail(NK_EFORMAT, e2, sizeof e2, "unknown variant '%s'", s.experiment.variant);
    nk_run_player player;
    if (st == NK_OK)
        st = nk_run_player_of(&s, &player, e2, sizeof e2);
    if (st == NK_OK) {
        out->spec = player.spec;
        out->ply_limit = player.ply_limit;
    }
    nk_config_free(cfg);
    if (st == NK_ENOMEM)
        return nk_fail(st, err, errlen, "out of memory");
    if (st != NK_OK)
        return nk_fail(NK_EFORMAT, err, errlen, "the run's configuration: %s", e2);
    return NK_OK;
}

nk_status nk_ciao_source_read(nk_ciao_source *out, const char *path, size_t every, char *err,
                              size_t errlen)
{
    memset(out, 0, sizeof *out);
    char e2[NK_MSG_MAX];
    nk_run *run = NULL;
    nk_status st = nk_run_open(&run, path, false, e2, sizeof e2);
    if (st != NK_OK) {
        nk_backup_hint(path, e2, sizeof e2);
        return nk_fail(st, err, errlen, "%s", e2);
    }
    const nk_run_meta *m = nk_run_get_meta(run);
    size_t g = nk_run_generations(run);
    out->generations = g;
    out->d = m->d;
    snprintf(out->run_created, sizeof out->run_created, "%s", m->created ? m->created : "");
    if (every == 0)
        st = nk_fail(NK_ERANGE, err, errlen, "the sampling step must be at least 1");
    else if (g / every < 2)
        st = nk_fail(NK_ERANGE, err, errlen,
                     "'%s' has %zu complete generation%s: every %zu-th gives %zu champion%s, "
                     "and a master tournament needs 2",
                     path, g, g == 1 ? "" : "s", every, g / every, g / every == 1 ? "" : "s");
    if (st == NK_OK)
        st = run_player(out, m, err, errlen);
    if (st == NK_OK) {
        const nk_feature_set *set =
            out->spec.features[0] ? nk_features_find(out->spec.features) : NULL;
        if (set != NULL && set->count != m->d)
            st = nk_fail(NK_EFORMAT, err, errlen,
                         "'%s' has %zu weights per individual, but feature set '%s' has %zu", path,
                         m->d, set->name, set->count);
    }
    double *genome = NULL, *fitness = NULL;
    int64_t *ids = NULL;
    if (st == NK_OK) {
        out->n = g / every;
        out->gen = nk_calloc(out->n, sizeof *out->gen);
        out->ids = nk_calloc(out->n, sizeof *out->ids);
        out->weights = nk_calloc(out->n * m->d, sizeof *out->weights);
        genome = nk_malloc(m->n * m->d * sizeof *genome);
        fitness = nk_malloc(m->n * sizeof *fitness);
        ids = nk_malloc(m->n * sizeof *ids);
        if (out->gen == NULL || out->ids == NULL || out->weights == NULL || genome == NULL ||
            fitness == NULL || ids == NULL)
            st = nk_fail(NK_ENOMEM, err, errlen, "out of memory for the champions of '%s'", path);
    }
    for (size_t k = 0; st == NK_OK && k < out->n; k++) {
        size_t gen = (k + 1) * every; /* from 1 */
        nk_run_pop pop = {.genome = genome, .fitness = fitness, .ids = ids};
        st = nk_run_read_population(run, gen - 1, &pop, e2, sizeof e2);
        if (st != NK_OK) {
            nk_fail(st, err, errlen, "%s", e2);
            break;
        }
        size_t b = nk_fitness_best(fitness, m->n);
        out->gen[k] = (int32_t)gen;
        out->ids[k] = ids[b];
        memcpy(out->weights + k * m->d, genome + b * m->d, m->d * sizeof *genome);
    }
    nk_free(genome);
    nk_free(fitness);
    nk_free(ids);
    nk_run_close(run);
    return st;
}

void nk_ciao_source_free(nk_ciao_source *s)
{
    if (s == NULL)
        return;
    nk_free(s->gen);
    nk_free(s->ids);
    nk_free(s->weights);
    memset(s, 0, sizeof *s);
}

/* ===== the analysis file ===== */

/* A dataset of rank 1 or 2 (cols 0: rank 1), checksummed in one chunk. */
static void dataset(nk_h5w *w, const char *name, hid_t ftype, hid_t mtype, size_t rows, size_t cols,
                    const void *data)
{
    hsize_t dims[2] = {rows, cols};
    nk_h5_shape shape = {cols ? 2 : 1, dims, NULL, dims, false, H5P_DEFAULT, NULL};
    nk_h5w_data(w, w->file, name, ftype, mtype, &shape, data);
}

/* The file's attributes (ciaofile.h). */
static void write_attrs(nk_h5w *w, const nk_ciao_settings *set, const nk_ciao_source *src,
                        const nk_nash *nash)
{
    char now[32] = "";
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm) != NULL)
        strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int32_t version = 1;
    uint64_t games = 2 * set->pairs, ply = src->ply_limit;
    hid_t root = w->file;
    nk_h5w_text(w, root, "kind", "kind", "nickar ciao");
    nk_h5w_attr(w, root, "schema_version", "schema_version", H5T_STD_I32LE, H5T_NATIVE_INT32,
                &version);
    nk_h5w_text(w, root, "nickar_version", "nickar_version", NICKAR_VERSION);
    nk_h5w_text(w, root, "created", "created", now);
    nk_h5w_text(w, root, "run", "run", set->run);
    nk_h5w_text(w, root, "run_created", "run_created", src->run_created);
    nk_h5w_text(w, root, "variant", "variant", src->variant->name);
    nk_h5w_text(w, root, "player", "player", src->spec.text);
    const struct {
        const char *name;
        const uint64_t *value;
    } nums[] = {{"every", &set->every}, {"pairs", &set->pairs},       {"games", &games},
                {"openings", &set->openings}, {"seed", &set->seed}, {"ply_limit", &ply}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        nk_h5w_attr(w, root, nums[i].name, nums[i].name, H5T_STD_U64LE, H5T_NATIVE_UINT64,
                    nums[i].value);
    nk_h5w_attr(w, root, "cyclic_share", "cyclic_share", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                &nash->cyclic_share);
}

nk_status nk_ciao_file_write(const char *path, const nk_ciao_settings *set,
                             const nk_ciao_source *src, const nk_ciao *c, const nk_nash *nash,
                             char *err, size_t errlen)
{
    size_t n = c->n, len = strlen(path) + 32;
    char *tmp = nk_malloc(len);
    int32_t *counts = nk_malloc(3 * n * n * sizeof *counts);
    if (tmp == NULL || counts == NULL) {
        nk_free(tmp);
        nk_free(counts);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    }
    snprintf(tmp, len, "%s.part-%ld", path, (long)getpid());
    for (size_t i = 0; i < n * n; i++) {
        counts[i] = (int32_t)c->wins[i];
        counts[n * n + i] = (int32_t)c->draws[i];
        counts[2 * n * n + i] = (int32_t)c->losses[i];
    }
    nk_h5_why why;
    hid_t file = nk_h5_create(tmp, NK_H5_TRACK_TIMES | NK_H5_LIBVER_LATEST, &why);
    nk_h5w w = nk_h5w_make(file, NK_H5_TRACK_TIMES, "ciao");
    if (file < 0)
        nk_h5w_fail(&w, "cannot create the file", why.text, why.os);
    write_attrs(&w, set, src, nash);
    dataset(&w, "generations", H5T_STD_I32LE, H5T_NATIVE_INT32, n, 0, src->gen);
    dataset(&w, "champion_id", H5T_STD_I64LE, H5T_NATIVE_INT64, n, 0, src->ids);
    dataset(&w, "weights", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, src->d, src->weights);
    dataset(&w, "score", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, n, c->score);
    dataset(&w, "wins", H5T_STD_I32LE, H5T_NATIVE_INT32, n, n, counts);
    dataset(&w, "draws", H5T_STD_I32LE, H5T_NATIVE_INT32, n, n, counts + n * n);
    dataset(&w, "losses", H5T_STD_I32LE, H5T_NATIVE_INT32, n, n, counts + 2 * n * n);
    dataset(&w, "ciao", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, 0, c->ciao);
    dataset(&w, "master", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, 0, c->master);
    dataset(&w, "nash_mix", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, 0, nash->mix);
    dataset(&w, "nash_payoff", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, 0, nash->payoff);
    if (file >= 0 && H5Fclose(file) < 0)
        nk_h5w_fail(&w, "closing the file", "", false);
    if (w.ok && rename(tmp, path) != 0) {
        char why2[200];
        snprintf(why2, sizeof why2, "renaming it into place: %s", strerror(errno));
        nk_h5w_fail(&w, why2, "", true);
    }
    if (!w.ok)
        unlink(tmp);
    nk_free(tmp);
    nk_free(counts);
    if (!w.ok)
        return nk_fail(NK_EIO, err, errlen, "cannot write '%s': %s", path, w.what);
    return NK_OK;
}
