/*
 * runfile_read.c -- opening a run file (nk_run_open: every object walked,
 * the attributes, shapes and types checked, the committed checkpoint
 * found) and reading its rows and checkpoint datasets, through the
 * handle's reader (io/h5.h), which checks what each read touches.
 */
#include "io/runfile.h"
#include "base/alloc.h"
#include "io/runfile_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

/* A scalar integer attribute of the root, or the message of its absence
 * or damage. */
static nk_status root_int(nk_run *run, const char *name, hid_t mtype, void *out)
{
    nk_h5_got got = nk_h5_get_num(run->file, name, mtype, out);
    return got == NK_H5_GOT ? NK_OK : nk_h5r_bad_attr(&run->r, got, "", name, "an integer");
}

static nk_status read_root_attrs(nk_run *run)
{
    int32_t schema, threads, ranks;
    nk_status st = root_int(run, "schema_version", H5T_NATIVE_INT32, &schema);
    if (st != NK_OK)
        return st;
    if (schema != NK_RUN_SCHEMA_VERSION)
        return nk_h5r_fail(&run->r, NK_EFORMAT,
                           "'%s' has schema_version %d; this nickar reads version %d", run->path,
                           (int)schema, NK_RUN_SCHEMA_VERSION);
    for (size_t i = 0; i < COUNT(nk_run_text_attr); i++) {
        nk_h5_got got = nk_h5r_get_text(&run->r, run->file, nk_run_text_attr[i], &run->text[i]);
        if (got != NK_H5_GOT)
            return nk_h5r_bad_attr(&run->r, got, "", nk_run_text_attr[i], "a string");
    }
    if ((st = root_int(run, "master_seed", H5T_NATIVE_UINT64, &run->meta.master_seed)) != NK_OK ||
        (st = root_int(run, "threads", H5T_NATIVE_INT32, &threads)) != NK_OK ||
        (st = root_int(run, "mpi_ranks", H5T_NATIVE_INT32, &ranks)) != NK_OK)
        return st;
    /* Files made before config_checksum existed have none. */
    if (H5Aexists(run->file, "config_checksum") > 0) {
        uint64_t sum;
        if ((st = root_int(run, "config_checksum", H5T_NATIVE_UINT64, &sum)) != NK_OK)
            return st;
        if (sum != nk_run_text_checksum(run->text[3]))
            return nk_h5r_damaged(&run->r, "the config text does not match its checksum");
    }
    H5Eclear2(H5E_DEFAULT);
    run->meta.threads = threads;
    run->meta.mpi_ranks = ranks;
    return NK_OK;
}

/* The names of variable-length /features (older files): heap ids read
 * through HDF5, their bytes from the heap by nk_h5r_heap_string.  False
 * on failure (*oom: for want of memory). */
static bool read_vlen_names(nk_run *run, hid_t ds, hid_t mt, size_t d, bool *oom)
{
    unsigned char *ids = nk_calloc(d, NK_H5_HEAP_ID_SIZE);
    bool good = false;
    *oom = ids == NULL;
    if (ids != NULL && H5Dread(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, ids) >= 0) {
        good = true;
        for (size_t i = 0; good && i < d; i++) {
            nk_h5_got got =
                nk_h5r_heap_string(&run->r, ids + i * NK_H5_HEAP_ID_SIZE, &run->features[i]);
            *oom = got == NK_H5_NOMEM;
            good = got == NK_H5_GOT;
        }
        if (!good && !*oom) { /* the message says what failed */
            H5Eclear2(H5E_DEFAULT);
            H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_DATASET,
                     H5E_READERROR, "a name's bytes do not fit its global heap collection");
        }
    }
    nk_free(ids);
    return good;
}

/* The names of fixed-length /features, size bytes each. */
static bool read_fixed_names(nk_run *run, hid_t ds, hid_t mt, size_t d, size_t size, bool *oom)
{
    char *s = nk_calloc(d, size + 1);
    bool good = false;
    *oom = s == NULL;
    if (s != NULL && H5Dread(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, s) >= 0) {
        for (size_t i = 0; i < d; i++) {
            run->features[i] = nk_strdup(s + i * (size + 1));
            *oom = *oom || run->features[i] == NULL;
        }
        good = !*oom;
    }
    nk_free(s);
    return good;
}

static nk_status read_features(nk_run *run)
{
    hsize_t d;
    hid_t ds;
    nk_status st = nk_h5r_open(&run->r, "/features", 1, H5T_STRING, &d, H5P_DEFAULT, &ds);
    if (st != NK_OK)
        return st;
    if (d < 1) {
        H5Dclose(ds);
        return nk_h5r_foreign(&run->r, "/features is empty");
    }
    hid_t ft = H5Dget_type(ds);
    bool vlen = ft >= 0 && H5Tis_variable_str(ft) > 0;
    size_t size = ft >= 0 ? H5Tget_size(ft) : 0;
    /* Each name takes at least its bytes in the file (a variable-length
     * one 16 bytes of heap): no more than the file can hold. */
    size_t each = vlen ? 16 : size;
    if (ft < 0 || each == 0 || d > run->r.file_size / each)
        st = nk_h5r_damaged(&run->r,
                            "/features claims %llu names of %zu bytes in a file of %llu bytes",
                            (unsigned long long)d, each, (unsigned long long)run->r.file_size);
    /* fixed-length names: their one chunk is where it must be */
    else if (!vlen)
        st = nk_h5r_check_chunks(&run->r, ds, "/features", 1, 0, d);
    if (st != NK_OK) {
        if (ft >= 0)
            H5Tclose(ft);
        H5Dclose(ds);
        return st;
    }
    run->meta.d = (size_t)d;
    run->features = nk_calloc(d, sizeof *run->features);
    hid_t mt = vlen ? nk_h5_heap_id_type() : nk_h5_read_str_type(ft, size + 1);
    bool good = false, oom = run->features == NULL; /* oom: a failed nk_ allocation */
    if (run->features != NULL && mt >= 0)
        good = vlen ? read_vlen_names(run, ds, mt, (size_t)d, &oom)
                    : read_fixed_names(run, ds, mt, (size_t)d, size, &oom);
    nk_h5_why w = nk_h5_why_last();
    if (mt >= 0)
        H5Tclose(mt);
    H5Tclose(ft);
    H5Dclose(ds);
    if (!good)
        return oom ? nk_h5r_nomem(&run->r)
                   : nk_h5r_damaged(&run->r, "cannot read /features: %s", w.text);
    return NK_OK;
}

/* Whether ds has the deflate filter: the compact layout (runfile.h). */
static bool deflated(hid_t ds)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    unsigned flags, conf;
    size_t nv = 0;
    bool yes = dcpl >= 0 && H5Pget_filter_by_id2(dcpl, H5Z_FILTER_DEFLATE, &flags, &nv, NULL, 0,
                                                 NULL, &conf) >= 0;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    H5Eclear2(H5E_DEFAULT);
    return yes;
}

static nk_status open_pop_ds(nk_run *run, hid_t dapl)
{
    hsize_t dims[3];
    nk_status st = nk_h5r_open(&run->r, nk_run_pop_desc[P_GENOME].path, 3, H5T_FLOAT, dims, dapl,
                               &run->pop[P_GENOME]);
    if (st != NK_OK)
        return st;
    if (dims[1] < 1 || dims[2] != run->meta.d)
        return nk_h5r_foreign(&run->r, "/population/genome is [%llu, %llu, %llu] for %zu features",
                              (unsigned long long)dims[0], (unsigned long long)dims[1],
                              (unsigned long long)dims[2], run->meta.d);
    /* As on creation, one generation of genomes fits an HDF5 chunk. */
    if (dims[2] > (UINT32_MAX / 8) / dims[1])
        return nk_h5r_damaged(&run->r, "/population/genome is [%llu, %llu, %llu]",
                              (unsigned long long)dims[0], (unsigned long long)dims[1],
                              (unsigned long long)dims[2]);
    run->meta.n = (size_t)dims[1];
    run->meta.has_sigma = nk_h5_exists(run->file, nk_run_pop_desc[P_SIGMA].path);
    run->meta.compact = deflated(run->pop[P_GENOME]);
    for (int i = 0; i < P_COUNT; i++) {
        const pop_desc_t *p = &nk_run_pop_desc[i];
        if (i == P_GENOME || (i == P_SIGMA && !run->meta.has_sigma))
            continue;
        st = nk_h5r_open(&run->r, p->path, p->rank, nk_run_code_class(p->type), dims, dapl,
                         &run->pop[i]);
        if (st != NK_OK)
            return st;
        hsize_t w = p->width == 0 ? run->meta.d : (hsize_t)p->width;
        if (dims[1] != run->meta.n || (p->rank == 3 && dims[2] != w))
            return nk_h5r_foreign(&run->r, "%s does not fit N = %zu, D = %zu", p->path, run->meta.n,
                                  run->meta.d);
    }
    return NK_OK;
}

static nk_status open_population(nk_run *run)
{
    hid_t dapl = nk_run_uncached_access();
    if (dapl < 0)
        return nk_h5r_nomem(&run->r);
    nk_status st = open_pop_ds(run, dapl);
    H5Pclose(dapl);
    return st;
}

static nk_status open_tables(nk_run *run)
{
    run->meta.record_games = nk_h5_exists(run->file, "/games");
    for (int i = 0; i < T_COUNT; i++) {
        table *t = &run->tab[i];
        hsize_t rows;
        if (i == T_GAMES && !run->meta.record_games)
            continue;
        nk_status st = nk_h5r_open(&run->r, t->path, 1, H5T_COMPOUND, &rows, H5P_DEFAULT, &t->ds);
        if (st != NK_OK)
            return st;
        hid_t ft = H5Dget_type(t->ds);
        if (!nk_h5_compound_fits(ft)) {
            if (ft >= 0)
                H5Tclose(ft);
            return nk_h5r_damaged(&run->r, "the row type of %s does not fit together", t->path);
        }
        for (size_t m = 0; m < t->count; m++) {
            const member *mb = &t->members[m];
            int k = ft >= 0 ? H5Tget_member_index(ft, mb->name) : -1;
            if (k < 0 && mb->optional) {
                /* An older file (or one without the grade's intervals):
                 * its rows end before this member, and so do the rows
                 * that this handle reads and appends. */
                H5Eclear2(H5E_DEFAULT);
                if (!nk_run_table_trim(t, m)) {
                    H5Tclose(ft);
                    return nk_h5r_nomem(&run->r);
                }
                break;
            }
            hid_t mt = k >= 0 ? H5Tget_member_type(ft, (unsigned)k) : H5I_INVALID_HID;
            bool good = mt >= 0 && H5Tget_class(mt) == nk_run_code_class(mb->type) &&
                        (mb->type != C_STR64 || H5Tis_variable_str(mt) == 0);
            if (mt >= 0)
                H5Tclose(mt);
            if (!good) {
                if (ft >= 0)
                    H5Tclose(ft);
                return nk_h5r_foreign(&run->r, "%s has no %s field '%s'", t->path,
                                      mb->type == C_F64     ? "float"
                                      : mb->type == C_STR64 ? "fixed-length string"
                                                            : "integer",
                                      mb->name);
            }
        }
        if (ft >= 0)
            H5Tclose(ft);
    }
    run->meta.tb_intervals = nk_run_has_tb_intervals(&run->tab[T_STATS]);
    return NK_OK;
}

/* Lists the links of checkpoint group g into run->blob_names (false: no
 * memory, *oom set, or an unreadable group). */
static bool list_blobs(nk_run *run, hid_t g, bool *oom)
{
    H5G_info_t info;
    if (H5Gget_info(g, &info) < 0)
        return false;
    if (info.nlinks == 0)
        return true;
    if (info.nlinks > run->r.file_size / 8) /* more links than the file holds */
        return false;
    run->blob_names = nk_calloc((size_t)info.nlinks, sizeof *run->blob_names);
    if (run->blob_names == NULL)
        return !(*oom = true);
    for (hsize_t i = 0; i < info.nlinks; i++) {
        ssize_t n = H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, NULL, 0, H5P_DEFAULT);
        char *name = n >= 0 ? nk_malloc((size_t)n + 1) : NULL;
        *oom = n >= 0 && name == NULL;
        if (name == NULL || H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name,
                                               (size_t)n + 1, H5P_DEFAULT) < 0) {
            nk_free(name);
            return false;
        }
        run->blob_names[run->n_blobs++] = name;
    }
    return true;
}

/* The committed checkpoint group's name. */
static const char *ckpt(const nk_run *run)
{
    return run->ckpt_pending ? CKPT_NEW : CKPT;
}

static nk_status open_checkpoint(nk_run *run)
{
    bool has = nk_h5_exists(run->file, CKPT), has_new = nk_h5_exists(run->file, CKPT_NEW);
    if (!has && !has_new)
        return nk_h5r_foreign(&run->r, "no group " CKPT);
    run->ckpt_pending = !has;
    run->ckpt_stale = has && has_new;
    const char *name = ckpt(run);
    hid_t g = H5Gopen2(run->file, name, H5P_DEFAULT);
    if (g < 0)
        return nk_h5r_foreign(&run->r, "%s is not a group", name);
    int32_t gen;
    int64_t games, bench;
    nk_h5_got got = nk_h5_get_num(g, "generation", H5T_NATIVE_INT32, &gen);
    const char *attr = "generation";
    if (got == NK_H5_GOT) {
        attr = "games_rows";
        got = nk_h5_get_num(g, attr, H5T_NATIVE_INT64, &games);
    }
    if (got == NK_H5_GOT) {
        attr = "benchmark_rows";
        got = nk_h5_get_num(g, attr, H5T_NATIVE_INT64, &bench);
    }
    bool oom = false;
    bool listed = got != NK_H5_GOT || list_blobs(run, g, &oom);
    H5Gclose(g);
    if (oom)
        return nk_h5r_nomem(&run->r);
    if (!listed) {
        nk_h5_why w = nk_h5_why_last();
        return nk_h5r_foreign(&run->r, "cannot list %s: %s", name, w.text);
    }
    if (got != NK_H5_GOT)
        return nk_h5r_bad_attr(&run->r, got, name, attr, "an integer");
    if (gen < -1 || games < 0 || bench < 0)
        return nk_h5r_foreign(&run->r, "%s says generation %d, %lld games, %lld benchmark rows",
                              name, (int)gen, (long long)games, (long long)bench);
    if (run->n_blobs > 1)
        qsort(run->blob_names, run->n_blobs, sizeof *run->blob_names, nk_run_cmp_names);
    run->gens = (size_t)(gen + 1);
    run->games_rows = (size_t)games;
    run->bench_rows = (size_t)bench;
    return NK_OK;
}

/* Every dataset holds the committed rows; notes whether some hold more. */
static nk_status check_lengths(nk_run *run)
{
    run->needs_repair = run->ckpt_pending || run->ckpt_stale;
    for (int i = 0; i < P_COUNT + T_COUNT; i++) {
        hid_t ds = i < P_COUNT ? run->pop[i] : run->tab[i - P_COUNT].ds;
        const char *path = i < P_COUNT ? nk_run_pop_desc[i].path : run->tab[i - P_COUNT].path;
        size_t want = i == P_COUNT + T_GAMES   ? run->games_rows
                      : i == P_COUNT + T_BENCH ? run->bench_rows
                                               : run->gens;
        if (ds < 0) { /* sigma or games, which may be absent */
            if (want > 0 && i != P_SIGMA)
                return nk_h5r_foreign(&run->r, "%zu rows of %s are complete but it does not exist",
                                      want, path);
            continue;
        }
        /* The complete rows of an uncompressed dataset lie in the file
         * (/games, and the genome and sigma of the compact layout, are
         * compressed: at most deflate's ratio, 1032 to 1). */
        size_t row = i < P_COUNT
                         ? (size_t)8 * run->meta.n *
                               (nk_run_pop_desc[i].width == 0 ? run->meta.d
                                                              : (size_t)nk_run_pop_desc[i].width)
                         : run->tab[i - P_COUNT].size;
        bool packed = i == P_COUNT + T_GAMES || (i < P_COUNT && deflated(ds));
        uint64_t room = packed ? run->r.file_size * 1032 : run->r.file_size;
        if (row > 0 && want > room / row)
            return nk_h5r_damaged(
                &run->r, "%zu rows of %s are complete but a file of %llu bytes cannot hold them",
                want, path, (unsigned long long)run->r.file_size);
        hsize_t rows = nk_h5_rows_of(ds);
        if (rows < want)
            return nk_h5r_foreign(&run->r, "%s has %llu rows but %zu are complete", path,
                                  (unsigned long long)rows, want);
        if (rows > want)
            run->needs_repair = true;
    }
    return NK_OK;
}

/* The message of a failed H5Fopen: the system's reason (a lock, a
 * permission) or HDF5's (a file that ends too early, bad metadata). */
static nk_status open_failed(nk_h5r *r, const nk_h5_why *w)
{
    if (w->oom)
        return nk_h5r_fail(r, NK_ENOMEM, "out of memory opening '%s'", r->path);
    if (w->lock)
        return nk_h5r_fail(r, NK_EIO, "cannot open '%s': another process holds a lock on it (%s)",
                           r->path, w->text);
    if (w->os)
        return nk_h5r_fail(r, NK_EIO, "cannot open '%s': %s", r->path, w->text);
    return nk_h5r_damaged(r, "%s", w->text);
}

/* The first bytes of an HDF5 file without a user block (nickar writes
 * none): the signature, then the superblock's version. */
#define HDF5_SIGNATURE "\x89HDF\r\n\x1a\n"

/* Files of the old format (superblock v0 or v1: no checksums on any
 * metadata) are read only on request.  HDF5 1.10 parses their object
 * headers unchecked, and a damaged one can make it read freed memory or
 * crash (found by the run-file fuzzer), which no check of nickar's can
 * prevent.  A user who trusts such a file sets NICKAR_READ_OLD_FORMAT=1. */
static bool old_format_allowed(void)
{
    const char *v = getenv("NICKAR_READ_OLD_FORMAT");
    return v != NULL && strcmp(v, "1") == 0;
}

/* Whether r->path is a regular, readable HDF5 file of a format this reader
 * opens (its size in *size). */
static nk_status check_path(nk_h5r *r, bool writable, uint64_t *size)
{
    /* A file given to read that cannot be opened is bad input
     * (NK_ENOFILE); one to write keeps NK_EIO. */
    nk_status cannot = writable ? NK_EIO : NK_ENOFILE;
    const char *path = r->path;
    struct stat sb;
    if (stat(path, &sb) != 0)
        return nk_h5r_fail(r, cannot, "cannot open '%s': %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return nk_h5r_fail(r, cannot, "cannot open '%s': not a regular file", path);
    int fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd < 0)
        return nk_h5r_fail(r, cannot, "cannot open '%s': %s", path, strerror(errno));
    unsigned char head[9];
    ssize_t got = read(fd, head, sizeof head);
    close(fd);
    if (got == (ssize_t)sizeof head && memcmp(head, HDF5_SIGNATURE, 8) == 0 && head[8] < 2 &&
        !old_format_allowed())
        return nk_h5r_foreign(
            r,
            "its HDF5 format (superblock v%u) has no checksums; if it is a run file of nickar's "
            "old format, set NICKAR_READ_OLD_FORMAT=1 to read it",
            (unsigned)head[8]);
    htri_t is = H5Fis_hdf5(path);
    if (is <= 0) {
        nk_h5_why w = nk_h5_why_last();
        if (is < 0 && w.os)
            return open_failed(r, &w);
        return nk_h5r_foreign(r, "not an HDF5 file");
    }
    *size = (uint64_t)sb.st_size;
    return NK_OK;
}

/* Opens the handle's file.  A reader does not lock it, so that `nickar
 * inspect` and run-file weights work on a run in progress (its writer
 * holds the lock). */
static nk_status open_file(nk_run *run, bool writable)
{
    nk_h5_why w;
    run->file = nk_h5_open(run->path, writable, writable, &w);
    if (run->file < 0)
        return open_failed(&run->r, &w);
    run->w.file = run->r.file = run->file;
    run->writable = writable;
    H5F_info2_t info;
    run->w.checksums = H5Fget_info2(run->file, &info) >= 0 && info.super.version >= 2;
    H5Eclear2(H5E_DEFAULT);
    /* New objects of a checked file (the checkpoints an append writes) have
     * checksums too; an old file stays as it was. */
    if (run->w.checksums && writable &&
        H5Fset_libver_bounds(run->file, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0) {
        w = nk_h5_why_last();
        return nk_h5r_fail(&run->r, NK_EIO, "cannot open '%s': %s", run->path, w.text);
    }
    return NK_OK;
}

/* Reads what the file says about its run and checks its shapes. */
static nk_status read_layout(nk_run *run)
{
    nk_status st = run->w.checksums ? nk_h5r_walk(&run->r) : NK_OK;
    if (st == NK_OK)
        st = read_root_attrs(run);
    if (st == NK_OK)
        st = read_features(run);
    if (st == NK_OK)
        st = open_population(run);
    if (st == NK_OK)
        st = open_tables(run);
    if (st == NK_OK)
        st = open_checkpoint(run);
    if (st == NK_OK)
        st = check_lengths(run);
    return st;
}

nk_status nk_run_open(nk_run **out, const char *path, bool writable, char *err, size_t len)
{
    *out = NULL;
    nk_h5r pre = {.file = H5I_INVALID_HID, .path = path, .kind = "run file"};
    nk_h5r_begin(&pre, err, len);
    uint64_t size = 0;
    nk_status st = check_path(&pre, writable, &size);
    if (st != NK_OK)
        return st;
    nk_run *run = nk_run_alloc(path);
    if (run == NULL || !nk_run_tables_init(run)) {
        nk_run_close(run);
        return nk_h5r_nomem(&pre);
    }
    nk_h5r_begin(&run->r, err, len);
    run->r.file_size = size;
    st = open_file(run, writable);
    if (st == NK_OK)
        st = read_layout(run);
    if (st == NK_OK && writable)
        st = nk_run_verify(run);
    if (st != NK_OK) {
        nk_run_close(run);
        return st;
    }
    nk_run_meta_link(run);
    if (writable)
        run->fd = open(path, O_WRONLY | O_CLOEXEC);
    *out = run;
    return NK_OK;
}

nk_status nk_run_read_population(nk_run *run, size_t g, const nk_run_pop *pop, char *err,
                                 size_t len)
{
    nk_h5r_begin(&run->r, err, len);
    if (g >= run->gens)
        return nk_h5r_fail(&run->r, NK_ERANGE, "'%s' has no generation %zu (%zu complete)",
                           run->path, g, run->gens);
    if (pop->sigma != NULL && !run->meta.has_sigma)
        return nk_h5r_fail(&run->r, NK_EINVAL, "'%s' has no step sizes (sigma)", run->path);
    void *data[P_COUNT] = {
        [P_GENOME] = pop->genome, [P_SIGMA] = pop->sigma,    [P_FITNESS] = pop->fitness,
        [P_WINS] = pop->wins,     [P_DRAWS] = pop->draws,    [P_LOSSES] = pop->losses,
        [P_ID] = pop->ids,        [P_PARENTS] = pop->parents};
    for (int i = 0; i < P_COUNT; i++) {
        if (data[i] == NULL)
            continue;
        bool made;
        hid_t mt = nk_run_code_type(nk_run_pop_desc[i].type, false, &made);
        nk_status st =
            nk_h5r_rows(&run->r, run->pop[i], nk_run_pop_desc[i].path, g, 1, mt, data[i]);
        if (st != NK_OK)
            return st;
    }
    return NK_OK;
}

static nk_status read_table(nk_run *run, int which, size_t rows, size_t first, size_t count,
                            void *out)
{
    const table *t = &run->tab[which];
    if (first > rows || count > rows - first)
        return nk_h5r_fail(&run->r, NK_ERANGE,
                           "'%s': rows %zu..%zu of %s do not exist (%zu complete)", run->path,
                           first, first + count, t->path, rows);
    if (count > 0)
        memset(out, 0, count * t->size); /* members the file lacks are 0 */
    return nk_h5r_rows(&run->r, t->ds, t->path, first, count, t->mem, out);
}

nk_status nk_run_read_stats(nk_run *run, size_t first, size_t count, nk_run_stats *rows, char *err,
                            size_t len)
{
    nk_h5r_begin(&run->r, err, len);
    return read_table(run, T_STATS, run->gens, first, count, rows);
}

nk_status nk_run_read_games(nk_run *run, size_t first, size_t count, nk_run_game *rows, char *err,
                            size_t len)
{
    nk_h5r_begin(&run->r, err, len);
    return read_table(run, T_GAMES, run->games_rows, first, count, rows);
}

nk_status nk_run_read_benchmark(nk_run *run, size_t first, size_t count, nk_run_bench *rows,
                                char *err, size_t len)
{
    nk_h5r_begin(&run->r, err, len);
    return read_table(run, T_BENCH, run->bench_rows, first, count, rows);
}

/* Opens checkpoint dataset name and finds its kind and length. */
nk_status nk_run_open_blob(nk_run *run, const char *name, hid_t *out, nk_run_kind *kind,
                           size_t *count)
{
    *out = H5I_INVALID_HID;
    if (!nk_run_blob_name_ok(name))
        return nk_h5r_fail(&run->r, NK_EINVAL, "bad checkpoint name '%s'",
                           name != NULL ? name : "");
    char path[128];
    snprintf(path, sizeof path, "%s/%s", ckpt(run), name);
    if (!nk_h5_exists(run->file, path))
        return nk_h5r_fail(&run->r, NK_EFORMAT, "'%s' has no checkpoint '%s'", run->path, name);
    hid_t ds = H5Dopen2(run->file, path, H5P_DEFAULT);
    if (ds < 0)
        return nk_h5r_fail(&run->r, NK_EFORMAT, "'%s': checkpoint '%s' is not a dataset", run->path,
                           name);
    hid_t t = H5Dget_type(ds), space = H5Dget_space(ds);
    hsize_t n = 0;
    /* one dimension, before HDF5 writes the dimensions into n */
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    if (rank == 1)
        rank = H5Sget_simple_extent_dims(space, &n, NULL);
    H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    size_t size = t >= 0 ? H5Tget_size(t) : 0;
    bool f64 = c == H5T_FLOAT && size == 8;
    bool u8 = c == H5T_INTEGER && size == 1 && H5Tget_sign(t) == H5T_SGN_NONE;
    if (space >= 0)
        H5Sclose(space);
    if (t >= 0)
        H5Tclose(t);
    H5Eclear2(H5E_DEFAULT);
    if (rank != 1 || (!f64 && !u8)) {
        H5Dclose(ds);
        return nk_h5r_fail(&run->r, NK_EFORMAT,
                           "'%s': checkpoint '%s' is not a 1-D float64 or uint8 array", run->path,
                           name);
    }
    if (n > run->r.file_size / size) { /* uncompressed: it lies in the file */
        H5Dclose(ds);
        return nk_h5r_damaged(&run->r, "checkpoint '%s' claims %llu values in a file of %llu bytes",
                              name, (unsigned long long)n, (unsigned long long)run->r.file_size);
    }
    *out = ds;
    *kind = f64 ? NK_RUN_F64 : NK_RUN_U8;
    *count = (size_t)n;
    return NK_OK;
}

nk_status nk_run_checkpoint_info(nk_run *run, const char *name, nk_run_kind *kind, size_t *count,
                                 char *err, size_t len)
{
    nk_h5r_begin(&run->r, err, len);
    hid_t ds;
    nk_status st = nk_run_open_blob(run, name, &ds, kind, count);
    if (st == NK_OK)
        H5Dclose(ds);
    return st;
}

nk_status nk_run_read_checkpoint(nk_run *run, const char *name, nk_run_kind kind, void *buf,
                                 size_t count, char *err, size_t len)
{
    nk_h5r_begin(&run->r, err, len);
    static const char *const kind_name[] = {"float64", "uint8"};
    hid_t ds;
    nk_run_kind k;
    size_t n;
    nk_status st = nk_run_open_blob(run, name, &ds, &k, &n);
    if (st != NK_OK)
        return st;
    if (k != kind || n != count) {
        H5Dclose(ds);
        return nk_h5r_fail(&run->r, NK_EFORMAT,
                           "'%s': checkpoint '%s' holds %zu %s values, not %zu %s", run->path, name,
                           n, kind_name[k], count, kind == NK_RUN_U8 ? kind_name[1] : kind_name[0]);
    }
    char what[128];
    snprintf(what, sizeof what, "checkpoint '%s'", name);
    if (n > 0 && (st = nk_h5r_check_chunks(&run->r, ds, what, 1, 0, n)) != NK_OK) {
        H5Dclose(ds);
        return st;
    }
    if (n > 0 && H5Dread(ds, k == NK_RUN_F64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT8, H5S_ALL,
                         H5S_ALL, H5P_DEFAULT, buf) < 0) {
        st = nk_h5r_read_failed(&run->r, what);
    }
    H5Dclose(ds);
    return st;
}
