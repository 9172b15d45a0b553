/*
 * runfile_create.c -- a new run file (nk_run_create): its attributes,
 * /features, the empty population datasets and tables, and the first
 * checkpoint, written through the handle's writer (io/h5.h).
 */
#include "io/runfile.h"
#include "base/alloc.h"
#include "io/runfile_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "rules/rules.h"

static nk_status check_meta(const nk_run_meta *meta, char *err, size_t len)
{
    if (meta == NULL)
        return nk_fail(NK_EINVAL, err, len, "no run metadata");
    if (meta->n < 1 || meta->d < 1)
        return nk_fail(NK_EINVAL, err, len,
                       "a run needs at least one individual and one gene (N = %zu, D = %zu)",
                       meta->n, meta->d);
    /* HDF5 chunks are below 4 GiB: one generation of genomes must fit. */
    if (meta->d > (UINT32_MAX / 8) / meta->n)
        return nk_fail(NK_ERANGE, err, len, "a generation of %zu x %zu genes is too large", meta->n,
                       meta->d);
    if (meta->features == NULL)
        return nk_fail(NK_EINVAL, err, len, "no feature names");
    for (size_t i = 0; i < meta->d; i++)
        if (meta->features[i] == NULL)
            return nk_fail(NK_EINVAL, err, len, "feature %zu has no name", i);
    return NK_OK;
}

/* Copies meta into the handle (so that nk_run_get_meta() works the same
 * after create and after open). */
static bool meta_copy(nk_run *run, const nk_run_meta *meta)
{
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL || strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(now, sizeof now, "1970-01-01T00:00:00Z");
    const char *text[6] = {meta->nickar_version != NULL ? meta->nickar_version : NICKAR_VERSION,
                           meta->created != NULL ? meta->created : now,
                           meta->variant,
                           meta->config,
                           meta->feature_set,
                           meta->strategy};
    run->meta = *meta;
    for (size_t i = 0; i < COUNT(text); i++)
        if ((run->text[i] = nk_strdup(text[i] != NULL ? text[i] : "")) == NULL)
            return false;
    run->features = nk_calloc(meta->d, sizeof *run->features);
    if (run->features == NULL)
        return false;
    for (size_t i = 0; i < meta->d; i++)
        if ((run->features[i] = nk_strdup(meta->features[i])) == NULL)
            return false;
    nk_run_meta_link(run);
    return true;
}

/* The root's attributes.  config_checksum: the config text is the root's
 * one attribute that can pass 4 KiB, and HDF5 keeps such a one, when the
 * root's attributes are in dense storage (more than 8), as a "huge" heap
 * object that no checksum covers. */
static bool write_root_attrs(nk_run *run)
{
    nk_h5w *w = &run->w;
    hid_t root = run->file;
    int32_t schema = NK_RUN_SCHEMA_VERSION;
    int32_t threads = run->meta.threads, ranks = run->meta.mpi_ranks;
    uint64_t sum = nk_run_text_checksum(run->text[3]);
    nk_h5w_attr(w, root, "/", "schema_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &schema);
    for (size_t i = 0; i < COUNT(nk_run_text_attr); i++)
        nk_h5w_text(w, root, "/", nk_run_text_attr[i], run->text[i]);
    nk_h5w_attr(w, root, "/", "master_seed", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                &run->meta.master_seed);
    nk_h5w_attr(w, root, "/", "threads", H5T_STD_I32LE, H5T_NATIVE_INT32, &threads);
    nk_h5w_attr(w, root, "/", "mpi_ranks", H5T_STD_I32LE, H5T_NATIVE_INT32, &ranks);
    return nk_h5w_attr(w, root, "/", "config_checksum", H5T_STD_U64LE, H5T_NATIVE_UINT64, &sum);
}

/* /features: fixed-length strings in one chunk with a checksum. */
static bool write_features(nk_run *run)
{
    nk_h5w *w = &run->w;
    hsize_t dims[1] = {run->meta.d};
    size_t each;
    char *buf =
        w->ok ? nk_h5_pack_texts((const char *const *)run->features, run->meta.d, &each) : NULL;
    if (buf == NULL) {
        nk_h5w_fail(w, "/features", "out of memory", false);
        return false;
    }
    hid_t t = nk_h5_utf8_type(each);
    nk_h5_shape shape = {.rank = 1, .dims = dims, .chunk = dims, .dapl = H5P_DEFAULT};
    if (nk_h5w_ok(w, "/features", t))
        nk_h5w_data(w, run->file, "/features", t, t, &shape, buf);
    nk_free(buf);
    if (t >= 0)
        H5Tclose(t);
    return w->ok;
}

static bool create_population(nk_run *run)
{
    hid_t g = nk_h5w_group(&run->w, run->file, "/population");
    if (g < 0)
        return false;
    H5Gclose(g);
    for (int i = 0; i < P_COUNT; i++) {
        const pop_desc_t *p = &nk_run_pop_desc[i];
        if (i == P_SIGMA && !run->meta.has_sigma)
            continue;
        hsize_t w = p->width == 0 ? run->meta.d : (hsize_t)p->width;
        hsize_t dims[3] = {0, run->meta.n, w};
        hsize_t maxdims[3] = {H5S_UNLIMITED, run->meta.n, w};
        hsize_t chunk[3] = {1, run->meta.n, w};
        bool made;
        /* the compact layout (runfile.h, "Large genomes") */
        bool big = run->meta.compact && (i == P_GENOME || i == P_SIGMA);
        hid_t ft = big && i == P_SIGMA ? H5T_IEEE_F32LE : nk_run_code_type(p->type, true, &made);
        hid_t dapl = nk_run_uncached_access();
        nk_h5_shape shape = {p->rank, dims, maxdims, chunk, big, dapl, NULL};
        if (nk_h5w_ok(&run->w, p->path, dapl))
            run->pop[i] = nk_h5w_dataset(&run->w, run->file, p->path, ft, &shape);
        if (dapl >= 0)
            H5Pclose(dapl);
        if (!run->w.ok)
            return false;
    }
    return true;
}

static bool create_tables(nk_run *run)
{
    static const hsize_t chunk[T_COUNT] = {STATS_CHUNK, GAMES_CHUNK, BENCH_CHUNK};
    for (int i = 0; i < T_COUNT; i++) {
        table *t = &run->tab[i];
        hsize_t dims[1] = {0}, maxdims[1] = {H5S_UNLIMITED};
        if (i == T_GAMES && !run->meta.record_games)
            continue;
        nk_h5_shape shape = {1, dims, maxdims, &chunk[i], i == T_GAMES, H5P_DEFAULT, NULL};
        t->ds = nk_h5w_dataset(&run->w, run->file, t->path, t->file, &shape);
        if (!run->w.ok)
            return false;
    }
    if (run->tab[T_GAMES].ds >= 0) {
        const char *winners[3] = {"south", "north", "draw"};
        const char *reasons[NK_END_RULES]; /* a run's games end by the rules */
        for (int r = 0; r < NK_END_RULES; r++)
            reasons[r] = nk_end_name((nk_end)r);
        hid_t ds = run->tab[T_GAMES].ds;
        return nk_h5w_text_list(&run->w, ds, "/games", "winner_names", winners, 3) &&
               nk_h5w_text_list(&run->w, ds, "/games", "reason_names", reasons, NK_END_RULES);
    }
    return true;
}

bool nk_run_put_ckpt_attrs(nk_run *run, hid_t g, int32_t gen, int64_t games, int64_t bench)
{
    nk_h5w *w = &run->w;
    nk_h5w_attr(w, g, CKPT, "games_rows", H5T_STD_I64LE, H5T_NATIVE_INT64, &games);
    nk_h5w_attr(w, g, CKPT, "benchmark_rows", H5T_STD_I64LE, H5T_NATIVE_INT64, &bench);
    return nk_h5w_attr(w, g, CKPT, "generation", H5T_STD_I32LE, H5T_NATIVE_INT32, &gen);
}

static bool create_checkpoint(nk_run *run)
{
    hid_t g = nk_h5w_group(&run->w, run->file, CKPT);
    if (g < 0)
        return false;
    bool good = nk_run_put_ckpt_attrs(run, g, -1, 0, 0);
    H5Gclose(g);
    return good;
}

nk_status nk_run_create(nk_run **out, const char *path, const nk_run_meta *meta, bool force,
                        char *err, size_t len)
{
    *out = NULL;
    nk_h5_quiet();
    nk_status st = check_meta(meta, err, len);
    if (st != NK_OK)
        return st;
    struct stat sb;
    if (!force && stat(path, &sb) == 0)
        return nk_fail(NK_EINVAL, err, len, "cannot create '%s': it already exists", path);
    nk_run *run = nk_run_alloc(path);
    if (run == NULL || !meta_copy(run, meta) || !nk_run_tables_init(run) ||
        (!meta->tb_intervals &&
         !nk_run_table_trim(&run->tab[T_STATS], nk_run_stats_without_intervals()))) {
        nk_run_close(run);
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    }
    nk_h5_why w;
    run->file = nk_h5_create(path, NK_H5_TRACK_TIMES | (force ? 0 : NK_H5_EXCL), &w);
    if (run->file < 0) {
        nk_run_close(run);
        return nk_fail(NK_EIO, err, len, "cannot create '%s': %s", path, w.text);
    }
    run->w.file = run->r.file = run->file;
    run->writable = true;
    if (!write_root_attrs(run) || !write_features(run) || !create_population(run) ||
        !create_tables(run) || !create_checkpoint(run) || !nk_run_flush(run, true)) {
        nk_fail(NK_EIO, err, len, "cannot create '%s': %s: %s", path, run->w.what, run->w.why);
        nk_run_close(run);
        unlink(path);
        return NK_EIO;
    }
    run->fd = open(path, O_WRONLY | O_CLOEXEC);
    if (run->fd >= 0 && fstat(run->fd, &sb) == 0)
        run->r.file_size = (uint64_t)sb.st_size;
    *out = run;
    return NK_OK;
}
