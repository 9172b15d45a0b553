/*
 * runfile_append.c -- appending a generation to a run file and cutting it
 * back after a crash (the order of writes and the space reservation in
 * runfile.h), through the handle's writer (io/h5.h).
 */
#include "io/runfile.h"
#include "base/alloc.h"
#include "io/backup.h" /* nk_io_step, the test seam of kills */
#include "io/runfile_internal.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

/* Flushes the file, cuts off what is left of a space reservation beyond
 * HDF5's end of allocation (HDF5 trims only when its own idea of the end
 * of file differs) and, when sync is true, asks the system to put it all on
 * disk.  A flush hands every byte to the system, so that readers and a
 * later process see the whole generation even when this one is killed;
 * only a crash of the machine can lose what was not synced, and the run's
 * backup copy (io/backup.h), which is synced, covers that. */
bool nk_run_flush(nk_run *run, bool sync)
{
    if (!nk_h5w_may(&run->w, "write", "flush") ||
        !nk_h5w_ok(&run->w, "flush", H5Fflush(run->file, H5F_SCOPE_GLOBAL)))
        return false;
    haddr_t eoa;
    struct stat sb;
    if (run->fd >= 0 && H5Fget_eoa(run->file, &eoa) >= 0 && fstat(run->fd, &sb) == 0 &&
        (haddr_t)sb.st_size > eoa &&
        (nk_io_step("truncate"), ftruncate(run->fd, (off_t)eoa) != 0)) {
        /* a reservation left in place costs space, nothing else */
    }
    H5Eclear2(H5E_DEFAULT);
    if (run->fd >= 0 && fstat(run->fd, &sb) == 0 && (uint64_t)sb.st_size > run->r.file_size)
        run->r.file_size = (uint64_t)sb.st_size; /* the bound of reads */
    if (!sync)
        return true;
    if (run->fd >= 0)
        nk_io_step("fsync");
    if (run->fd >= 0 && fsync(run->fd) != 0 && errno != EINVAL && errno != EROFS) {
        nk_h5w_fail(&run->w, "fsync", strerror(errno), true);
        return false;
    }
    return true;
}

/* Makes sure that bytes more bytes can be written at the end of the file
 * without the file system refusing them (see "Space" in runfile.h).
 * Returns 0 or the errno of a refusal; file systems that cannot reserve
 * are let be. */
static int reserve(nk_run *run, size_t bytes)
{
    haddr_t eoa;
    if (run->fd < 0 || H5Fget_eoa(run->file, &eoa) < 0) {
        H5Eclear2(H5E_DEFAULT);
        return 0;
    }
    nk_io_step("reserve");
    int e = posix_fallocate(run->fd, (off_t)eoa, (off_t)bytes);
    if (e == EINVAL || e == EOPNOTSUPP || e == ENODEV || e == ESPIPE)
        return 0;
    return e;
}

static nk_status check_rows(const nk_run *run, const nk_run_gen *gen, int32_t g, char *err,
                            size_t len)
{
    if (gen->n_games > 0 && !run->meta.record_games)
        return nk_fail(NK_EINVAL, err, len, "'%s' does not record games", run->path);
    if ((gen->n_games > 0 && gen->games == NULL) || (gen->n_bench > 0 && gen->bench == NULL))
        return nk_fail(NK_EINVAL, err, len, "game or benchmark rows missing");
    for (size_t i = 0; i < gen->n_games; i++) {
        const nk_run_game *r = &gen->games[i];
        if (r->generation != g)
            return nk_fail(NK_EINVAL, err, len, "game %zu has generation %d, not %d", i,
                           (int)r->generation, (int)g);
        if (r->winner < 0 || r->winner > 2)
            return nk_fail(NK_EINVAL, err, len, "game %zu has winner %d", i, (int)r->winner);
    }
    for (size_t i = 0; i < gen->n_bench; i++) {
        const nk_run_bench *r = &gen->bench[i];
        if (r->generation != g)
            return nk_fail(NK_EINVAL, err, len, "benchmark row %zu has generation %d, not %d", i,
                           (int)r->generation, (int)g);
        if (memchr(r->opponent, '\0', sizeof r->opponent) == NULL)
            return nk_fail(NK_EINVAL, err, len,
                           "benchmark row %zu: the opponent is longer than %d bytes", i,
                           NK_RUN_OPPONENT_LEN - 1);
        if (!(r->score >= 0.0 && r->score <= 1.0))
            return nk_fail(NK_ERANGE, err, len, "benchmark row %zu: score %g is not in [0, 1]", i,
                           r->score);
    }
    return NK_OK;
}

static nk_status check_gen(const nk_run *run, const nk_run_gen *gen, char *err, size_t len)
{
    if (run->gens >= INT32_MAX)
        return nk_fail(NK_ERANGE, err, len, "too many generations");
    int32_t g = (int32_t)run->gens;
    if (gen->genome == NULL || gen->fitness == NULL || gen->wins == NULL || gen->draws == NULL ||
        gen->losses == NULL || gen->ids == NULL || gen->parents == NULL)
        return nk_fail(NK_EINVAL, err, len, "population data missing");
    if ((gen->sigma != NULL) != run->meta.has_sigma)
        return nk_fail(NK_EINVAL, err, len,
                       run->meta.has_sigma ? "'%s' needs step sizes (sigma)"
                                           : "'%s' has no step sizes (sigma)",
                       run->path);
    if (gen->stats.generation != g)
        return nk_fail(NK_EINVAL, err, len, "the stats row has generation %d, not %d",
                       (int)gen->stats.generation, (int)g);
    nk_status st = check_rows(run, gen, g, err, len);
    if (st != NK_OK)
        return st;
    if (gen->n_blobs > 0 && gen->blobs == NULL)
        return nk_fail(NK_EINVAL, err, len, "checkpoint data missing");
    for (size_t i = 0; i < gen->n_blobs; i++) {
        const nk_run_blob *b = &gen->blobs[i];
        if (!nk_run_blob_name_ok(b->name))
            return nk_fail(NK_EINVAL, err, len, "bad checkpoint name '%s'",
                           b->name != NULL ? b->name : "");
        if (b->kind != NK_RUN_F64 && b->kind != NK_RUN_U8)
            return nk_fail(NK_EINVAL, err, len, "checkpoint '%s' has an unknown kind", b->name);
        if (b->count > 0 && b->data == NULL)
            return nk_fail(NK_EINVAL, err, len, "checkpoint '%s' has no data", b->name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(gen->blobs[j].name, b->name) == 0)
                return nk_fail(NK_EINVAL, err, len, "checkpoint '%s' given twice", b->name);
    }
    return NK_OK;
}

/* The bytes one generation adds, roughly (for the space reservation). */
static size_t gen_bytes(const nk_run *run, const nk_run_gen *gen)
{
    size_t n = run->meta.n, d = run->meta.d;
    size_t bytes = n * d * 8 * (run->meta.has_sigma ? 2 : 1) + n * 52 + sizeof(nk_run_stats) +
                   gen->n_games * sizeof(nk_run_game) + gen->n_bench * sizeof(nk_run_bench);
    for (size_t i = 0; i < gen->n_blobs; i++)
        bytes += gen->blobs[i].count * (gen->blobs[i].kind == NK_RUN_F64 ? 8 : 1);
    return bytes;
}

/* Cuts the datasets back to the committed rows and tidies the checkpoint
 * group (no flush). */
static bool repair(nk_run *run, bool *changed)
{
    if (run->ckpt_pending) {
        if (!nk_h5w_may(&run->w, "write", CKPT) ||
            !nk_h5w_ok(&run->w, CKPT,
                       H5Lmove(run->file, CKPT_NEW, run->file, CKPT, H5P_DEFAULT, H5P_DEFAULT)))
            return false;
        run->ckpt_pending = false;
        *changed = true;
    } else if (run->ckpt_stale) {
        if (!nk_h5w_may(&run->w, "write", CKPT_NEW) ||
            !nk_h5w_ok(&run->w, CKPT_NEW, H5Ldelete(run->file, CKPT_NEW, H5P_DEFAULT)))
            return false;
        run->ckpt_stale = false;
        *changed = true;
    }
    for (int i = 0; i < P_COUNT; i++)
        if (run->pop[i] >= 0 &&
            !nk_h5w_shrink(&run->w, run->pop[i], nk_run_pop_desc[i].path, run->gens, changed))
            return false;
    const hsize_t rows[T_COUNT] = {run->gens, run->games_rows, run->bench_rows};
    for (int i = 0; i < T_COUNT; i++)
        if (run->tab[i].ds >= 0 &&
            !nk_h5w_shrink(&run->w, run->tab[i].ds, run->tab[i].path, rows[i], changed))
            return false;
    run->needs_repair = false;
    return true;
}

/* The arrays of a generation, by population dataset. */
static void pop_arrays(const nk_run_gen *gen, const void *data[P_COUNT])
{
    data[P_GENOME] = gen->genome;
    data[P_SIGMA] = gen->sigma;
    data[P_FITNESS] = gen->fitness;
    data[P_WINS] = gen->wins;
    data[P_DRAWS] = gen->draws;
    data[P_LOSSES] = gen->losses;
    data[P_ID] = gen->ids;
    data[P_PARENTS] = gen->parents;
}

/* The rows digest of gen (see "Digests"; its stats' own is not read). */
static uint64_t gen_digest(const nk_run *run, const nk_run_gen *gen)
{
    const void *data[P_COUNT];
    pop_arrays(gen, data);
    uint64_t h = FNV_BASIS;
    for (int i = 0; i < P_COUNT; i++)
        if (run->pop[i] >= 0)
            h = nk_run_digest_values(h, nk_run_pop_desc[i].type, data[i],
                                     nk_run_pop_row_values(run, i));
    if (run->tab[T_GAMES].ds >= 0)
        for (size_t k = 0; k < gen->n_games; k++)
            h = nk_run_digest_row(h, &run->tab[T_GAMES], &gen->games[k]);
    for (size_t k = 0; k < gen->n_bench; k++)
        h = nk_run_digest_row(h, &run->tab[T_BENCH], &gen->bench[k]);
    return nk_run_digest_row(h, &run->tab[T_STATS], &gen->stats);
}

/* x as float32 stores it: rounded to nearest, beyond FLT_MAX infinite (a
 * cast would be undefined there), NaN kept. */
static float to_float(double x)
{
    if (x > FLT_MAX || x < -FLT_MAX)
        return x > 0 ? INFINITY : -INFINITY;
    return (float)x;
}

/* sig32: the compact layout's float32 sigma (NULL otherwise). */
static bool put_population(nk_run *run, const nk_run_gen *gen, const float *sig32)
{
    const void *data[P_COUNT];
    pop_arrays(gen, data);
    for (int i = 0; i < P_COUNT; i++) {
        if (run->pop[i] < 0)
            continue;
        bool made;
        hid_t mt = nk_run_code_type(nk_run_pop_desc[i].type, false, &made);
        if (i == P_SIGMA && sig32 != NULL) {
            mt = H5T_NATIVE_FLOAT;
            data[i] = sig32;
        }
        if (!nk_h5w_rows(&run->w, run->pop[i], nk_run_pop_desc[i].path, run->gens, 1, mt, data[i]))
            return false;
    }
    return true;
}

/* One checkpoint dataset under group g: chunked with a checksum in a
 * checked file (when not empty), contiguous in an old one. */
static bool put_blob(nk_run *run, hid_t g, const nk_run_blob *b)
{
    char what[128];
    snprintf(what, sizeof what, CKPT "/%s", b->name);
    hsize_t dims[1] = {b->count};
    bool f64 = b->kind == NK_RUN_F64;
    bool chunked = run->w.checksums && b->count > 0;
    /* compact: deflated too (lossless: resume reads the same numbers) */
    nk_h5_shape shape = {1,  dims, NULL, chunked ? dims : NULL, chunked && run->meta.compact,
                         H5P_DEFAULT, what};
    hid_t ds = nk_h5w_dataset(&run->w, g, b->name, f64 ? H5T_IEEE_F64LE : H5T_STD_U8LE, &shape);
    if (ds >= 0 && b->count > 0 && nk_h5w_may(&run->w, "write", what))
        nk_h5w_write(&run->w, ds, what, f64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT8, b->data);
    if (ds >= 0)
        H5Dclose(ds);
    return run->w.ok;
}

/* Writes the new checkpoint as CKPT_NEW, then commits it: deletes CKPT
 * (the commit point) and renames CKPT_NEW to CKPT. */
static bool put_checkpoint(nk_run *run, const nk_run_gen *gen)
{
    nk_h5w *w = &run->w;
    hid_t g = nk_h5w_group(w, run->file, CKPT_NEW);
    if (g < 0)
        return false;
    for (size_t i = 0; i < gen->n_blobs; i++)
        put_blob(run, g, &gen->blobs[i]);
    nk_run_put_ckpt_attrs(run, g, (int32_t)run->gens, (int64_t)(run->games_rows + gen->n_games),
                          (int64_t)(run->bench_rows + gen->n_bench));
    H5Gclose(g);
    return nk_h5w_may(w, "link", CKPT) &&
           nk_h5w_ok(w, CKPT, H5Ldelete(run->file, CKPT, H5P_DEFAULT)) &&
           nk_h5w_may(w, "link", CKPT) &&
           nk_h5w_ok(w, CKPT,
                     H5Lmove(run->file, CKPT_NEW, run->file, CKPT, H5P_DEFAULT, H5P_DEFAULT));
}

/* The checkpoint names of gen, sorted, in new memory (NULL: none or no
 * memory, as *ok tells). */
static char **blob_names(const nk_run_gen *gen, bool *good)
{
    *good = true;
    if (gen->n_blobs == 0)
        return NULL;
    char **names = nk_calloc(gen->n_blobs, sizeof *names);
    *good = names != NULL;
    for (size_t i = 0; *good && i < gen->n_blobs; i++)
        *good = (names[i] = nk_strdup(gen->blobs[i].name)) != NULL;
    if (!*good) {
        nk_run_free_names(names, gen->n_blobs);
        return NULL;
    }
    qsort(names, gen->n_blobs, sizeof *names, nk_run_cmp_names);
    return names;
}

nk_status nk_run_append_generation(nk_run *run, const nk_run_gen *gen, char *err, size_t len)
{
    if (!run->writable)
        return nk_fail(NK_EINVAL, err, len, "'%s' is open read-only", run->path);
    if (!run->w.ok)
        return nk_fail(NK_EIO, err, len,
                       "'%s': a write failed earlier; open the file again to continue", run->path);
    nk_status st = check_gen(run, gen, err, len);
    if (st != NK_OK)
        return st;
    size_t g = run->gens;
    bool names_ok;
    char **names = blob_names(gen, &names_ok);
    if (!names_ok)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    size_t bytes = gen_bytes(run, gen);
    int e = reserve(run, 2 * bytes + RESERVE_BASE);
    if (e != 0) {
        nk_run_free_names(names, gen->n_blobs);
        return nk_fail(NK_EIO, err, len,
                       "writing '%s' failed at generation %zu: cannot reserve %zu bytes: %s",
                       run->path, g, 2 * bytes + RESERVE_BASE, strerror(e));
    }
    /* compact: sigma stored as float32, rounded here (no conversion left
     * to HDF5) and digested as verify reads it back */
    nk_run_gen rounded = *gen;
    double *sig = NULL;
    float *sig32 = NULL;
    if (run->meta.compact && gen->sigma != NULL) {
        size_t k = run->meta.n * run->meta.d;
        sig = nk_malloc(k * sizeof *sig);
        sig32 = nk_malloc(k * sizeof *sig32);
        if (sig == NULL || sig32 == NULL) {
            nk_free(sig);
            nk_free(sig32);
            nk_run_free_names(names, gen->n_blobs);
            return nk_fail(NK_ENOMEM, err, len, "out of memory");
        }
        for (size_t i = 0; i < k; i++) {
            sig32[i] = to_float(gen->sigma[i]);
            sig[i] = (double)sig32[i];
        }
        rounded.sigma = sig;
        gen = &rounded;
    }
    nk_run_stats stats = gen->stats;
    stats.rows_digest = nk_run_has_digest(&run->tab[T_STATS]) ? gen_digest(run, gen) : 0;
    bool changed = false;
    bool good =
        (!run->needs_repair || repair(run, &changed)) && put_population(run, gen, sig32) &&
        (run->tab[T_GAMES].ds < 0 ||
         nk_h5w_rows(&run->w, run->tab[T_GAMES].ds, "/games", run->games_rows, gen->n_games,
                     run->tab[T_GAMES].mem, gen->games)) &&
        nk_h5w_rows(&run->w, run->tab[T_BENCH].ds, "/benchmark", run->bench_rows, gen->n_bench,
                    run->tab[T_BENCH].mem, gen->bench) &&
        nk_h5w_rows(&run->w, run->tab[T_STATS].ds, "/stats", g, 1, run->tab[T_STATS].mem, &stats) &&
        put_checkpoint(run, gen) && nk_run_flush(run, false);
    nk_free(sig);
    nk_free(sig32);
    if (!good) {
        nk_run_free_names(names, gen->n_blobs);
        return nk_fail(NK_EIO, err, len, "writing '%s' failed at generation %zu: %s: %s", run->path,
                       g, run->w.what, run->w.why);
    }
    nk_run_free_names(run->blob_names, run->n_blobs);
    run->blob_names = names;
    run->n_blobs = gen->n_blobs;
    run->gens = g + 1;
    run->games_rows += gen->n_games;
    run->bench_rows += gen->n_bench;
    return NK_OK;
}

nk_status nk_run_truncate(nk_run *run, bool *dropped, char *err, size_t len)
{
    bool changed = false;
    if (dropped != NULL)
        *dropped = false;
    if (!run->writable)
        return nk_fail(NK_EINVAL, err, len, "'%s' is open read-only", run->path);
    if (!run->w.ok)
        return nk_fail(NK_EIO, err, len,
                       "'%s': a write failed earlier; open the file again to continue", run->path);
    if (!run->needs_repair)
        return NK_OK;
    int e = reserve(run, RESERVE_BASE);
    if (e != 0)
        return nk_fail(NK_EIO, err, len, "truncating '%s' failed: cannot reserve %d bytes: %s",
                       run->path, RESERVE_BASE, strerror(e));
    if (!repair(run, &changed) || !nk_run_flush(run, true)) {
        return nk_fail(NK_EIO, err, len, "truncating '%s' failed: %s: %s", run->path, run->w.what,
                       run->w.why);
    }
    if (dropped != NULL)
        *dropped = changed;
    return NK_OK;
}
