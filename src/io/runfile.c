/*
 * runfile.c -- the HDF5 run file of `nickar evolve` (layout, order of
 * writes and crash semantics in runfile.h).
 *
 * What a handle keeps true:
 *
 * - gens, games_rows and bench_rows are those of the committed checkpoint
 *   (ckpt, normally "/checkpoint"; "/checkpoint.new" when a crash came
 *   between deleting the old group and renaming the new one).  Every
 *   dataset holds at least that many rows (checked on open); it may hold
 *   more after a crash, which needs_repair records and repair() undoes.
 * - Every write of an append or a truncation goes through may_write()
 *   (the test hook) and ok() (which keeps what failed and why), so that a
 *   failure anywhere gives one message naming the object and the reason.
 * - broken: a write failed after the file was touched; the handle writes
 *   no more (its HDF5 state is no longer the file's), reads still work.
 *
 * Memory and file types are separate: the structs of runfile.h are read
 * and written through native compound types built from offsetof, the file
 * holds packed little-endian ones, so that files do not depend on the
 * writer's padding.
 */
#include "io/runfile.h"
#include "base/alloc.h"
#include "io/backup.h" /* nk_io_step, the test seam of kills */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "rules/rules.h"

#ifndef NICKAR_VERSION
#define NICKAR_VERSION "unknown"
#endif

#define CKPT "/checkpoint"
#define CKPT_NEW "/checkpoint.new"

enum {
    STATS_CHUNK = 256,  /* rows per chunk of /stats */
    GAMES_CHUNK = 256,  /* rows per chunk of /games (1024 before; the
                           partly filled last chunk is compressed again
                           at every flush) */
    BENCH_CHUNK = 256,  /* rows per chunk of /benchmark */
    RESERVE_BASE = 1 << 20 /* bytes reserved beyond twice the data */
};

/* The population datasets, in the order they are written. */
enum pop_field { P_GENOME, P_SIGMA, P_FITNESS, P_WINS, P_DRAWS, P_LOSSES,
                 P_ID, P_PARENTS, P_COUNT };

/* Element codes of datasets and compound members. */
typedef enum code { C_I8, C_I16, C_I32, C_I64, C_U64, C_F64, C_STR64 } code;

static const struct pop_desc {
    const char *path;
    code type;
    int rank;   /* [G, N] or [G, N, width] */
    int width;  /* 0: D */
} pop_desc[P_COUNT] = {
    [P_GENOME] = {"/population/genome", C_F64, 3, 0},
    [P_SIGMA] = {"/population/sigma", C_F64, 3, 0},
    [P_FITNESS] = {"/population/fitness", C_F64, 2, 1},
    [P_WINS] = {"/population/wins", C_I32, 2, 1},
    [P_DRAWS] = {"/population/draws", C_I32, 2, 1},
    [P_LOSSES] = {"/population/losses", C_I32, 2, 1},
    [P_ID] = {"/population/id", C_I64, 2, 1},
    [P_PARENTS] = {"/population/parents", C_I64, 3, 2},
};

typedef struct member {
    const char *name;
    size_t offset;
    code type;
    bool optional; /* absent from older files (then read as 0) */
} member;

#define MEMBER(s, f, c) {#f, offsetof(s, f), c, false}
#define OPTIONAL(s, f, c) {#f, offsetof(s, f), c, true}
static const member stats_members[] = {
    MEMBER(nk_run_stats, generation, C_I32),
    MEMBER(nk_run_stats, games, C_I64),
    MEMBER(nk_run_stats, evaluations, C_I64),
    MEMBER(nk_run_stats, best, C_F64),
    MEMBER(nk_run_stats, mean, C_F64),
    MEMBER(nk_run_stats, median, C_F64),
    MEMBER(nk_run_stats, std, C_F64),
    MEMBER(nk_run_stats, worst, C_F64),
    MEMBER(nk_run_stats, diversity, C_F64),
    MEMBER(nk_run_stats, wall_seconds, C_F64),
    /* Optional members come last: a file has a prefix of the list. */
    OPTIONAL(nk_run_stats, play_seconds, C_F64),
    OPTIONAL(nk_run_stats, outside_seconds, C_F64),
    OPTIONAL(nk_run_stats, tb_positions, C_I64),
    OPTIONAL(nk_run_stats, tb_optimal, C_F64),
    OPTIONAL(nk_run_stats, tb_seeds_lost, C_F64),
};
static const member game_members[] = {
    MEMBER(nk_run_game, generation, C_I32),
    MEMBER(nk_run_game, south_id, C_I64),
    MEMBER(nk_run_game, north_id, C_I64),
    MEMBER(nk_run_game, winner, C_I8),
    MEMBER(nk_run_game, south_seeds, C_I16),
    MEMBER(nk_run_game, north_seeds, C_I16),
    MEMBER(nk_run_game, plies, C_I16),
    MEMBER(nk_run_game, reason, C_I8),
    MEMBER(nk_run_game, seed, C_U64),
};
static const member bench_members[] = {
    MEMBER(nk_run_bench, generation, C_I32),
    MEMBER(nk_run_bench, opponent, C_STR64),
    MEMBER(nk_run_bench, wins, C_I32),
    MEMBER(nk_run_bench, draws, C_I32),
    MEMBER(nk_run_bench, losses, C_I32),
    MEMBER(nk_run_bench, score, C_F64),
};
#undef MEMBER
#undef OPTIONAL
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A compound table: its dataset, members and the two types. */
typedef struct table {
    const char *path;
    const member *members;
    size_t count, size; /* count: the members this file has (a prefix) */
    hid_t ds, mem, file; /* ds: H5I_INVALID_HID when absent */
} table;

enum { T_STATS, T_GAMES, T_BENCH, T_COUNT };

/* Where one chunk lies in the file. */
typedef struct chunk_span {
    uint64_t addr, size;
    char what[64]; /* the dataset, for the message */
} chunk_span;

struct nk_run {
    hid_t file;
    char *path;
    int fd; /* for reserving space; -1 when read-only */
    bool writable, broken, needs_repair;
    bool ckpt_pending; /* the committed checkpoint is CKPT_NEW */
    bool ckpt_stale;   /* a stale CKPT_NEW lies beside CKPT */
    nk_run_meta meta;  /* strings owned, below */
    char *text[6];     /* nickar_version, created, variant, config,
                          feature_set, strategy */
    char **features;
    hid_t pop[P_COUNT]; /* sigma: H5I_INVALID_HID when absent */
    table tab[T_COUNT];
    size_t gens, games_rows, bench_rows;
    char **blob_names;
    size_t n_blobs;
    unsigned long fail_at;  /* test hook */
    char fail_what[96];     /* the object of the failed write */
    char fail_why[200];     /* and the reason */
    bool fail_os;           /* the reason came from the system */
    bool checked;           /* superblock v2 or later: metadata checksums,
                               fletcher32 on the data of new datasets */
    uint64_t file_size;     /* bytes of the file when it was opened */
    chunk_span *spans;      /* while verify_data runs: every chunk checked */
    size_t n_spans, cap_spans;
};

/* ===================================================================
 * HDF5 errors as one line
 * =================================================================== */

typedef struct why {
    char text[200];
    bool os;   /* the text is the system's (errno) message */
    bool lock; /* the failure was a file lock */
} why;

/* Copies n bytes of src as one line (newlines become spaces). */
static void copy_line(char *dst, size_t cap, const char *src, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        dst[i] = (src[i] == '\n' || src[i] == '\r' || src[i] == '\t')
                     ? ' ' : src[i];
    while (n > 0 && dst[n - 1] == ' ')
        n--;
    dst[n] = '\0';
}

static herr_t why_walk(unsigned n, const H5E_error2_t *e, void *data)
{
    static const char key[] = "error message = '";
    why *w = data;
    const char *desc = e->desc != NULL ? e->desc : "";
    const char *m = strstr(desc, key);
    if (strstr(desc, "unable to lock file") != NULL)
        w->lock = true;
    if (m != NULL && !w->os) {
        m += sizeof key - 1;
        const char *end = strchr(m, '\'');
        copy_line(w->text, sizeof w->text, m,
                  end != NULL ? (size_t)(end - m) : strlen(m));
        w->os = true;
    } else if (n == 0 && !w->os && desc[0] != '\0') {
        copy_line(w->text, sizeof w->text, desc, strlen(desc));
    }
    return 0;
}

/* The reason of the last HDF5 failure (innermost first, the system's
 * message where there is one); clears HDF5's error stack. */
static why h5_why(void)
{
    why w = {"HDF5 error", false, false};
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, why_walk, &w);
    H5Eclear2(H5E_DEFAULT);
    return w;
}

static void quiet(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* The two ways a file fails to be a run file, as NK_EFORMAT: "'PATH' is
 * not a nickar run file: ..." (foreign) or "damaged run file 'PATH': ..." */
static nk_status file_fail(bool damage, const char *path, char *err, size_t len,
                           const char *fmt, va_list ap)
{
    char what[256];
    vsnprintf(what, sizeof what, fmt, ap);
    H5Eclear2(H5E_DEFAULT);
    return damage ? nk_fail(NK_EFORMAT, err, len, "damaged run file '%s': %s", path, what)
                  : nk_fail(NK_EFORMAT, err, len, "'%s' is not a nickar run file: %s", path,
                            what);
}

static nk_status not_run(const char *path, char *err, size_t len,
                         const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static nk_status not_run(const char *path, char *err, size_t len,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nk_status st = file_fail(false, path, err, len, fmt, ap);
    va_end(ap);
    return st;
}

static nk_status damaged(const char *path, char *err, size_t len,
                         const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static nk_status damaged(const char *path, char *err, size_t len,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nk_status st = file_fail(true, path, err, len, fmt, ap);
    va_end(ap);
    return st;
}

/* A failed read: the system's reason is NK_EIO; HDF5's own (a bad
 * signature or checksum, an address beyond the end) a damaged file. */
static nk_status read_failed(const nk_run *run, const char *what,
                             char *err, size_t len)
{
    why w = h5_why();
    if (w.os)
        return nk_fail(NK_EIO, err, len, "reading '%s' failed: %s: %s",
                       run->path, what, w.text);
    return damaged(run->path, err, len, "cannot read %s: %s", what, w.text);
}

/* ===================================================================
 * Types
 * =================================================================== */

static size_t code_size(code c)
{
    static const size_t size[] = {1, 2, 4, 8, 8, 8, NK_RUN_OPPONENT_LEN};
    return size[c];
}

static H5T_class_t code_class(code c)
{
    return c == C_F64 ? H5T_FLOAT : c == C_STR64 ? H5T_STRING : H5T_INTEGER;
}

/* A fixed-length string type of size bytes (the caller closes it). */
static hid_t str_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return t;
    if (H5Tset_size(t, size) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

/* The memory type that reads fixed-length strings of file type ft (its
 * character set; HDF5 does not convert between sets) NUL-terminated in
 * size bytes. */
static hid_t read_str_type(hid_t ft, size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return t;
    H5T_cset_t cs = H5Tget_cset(ft);
    if (cs < 0 || H5Tset_cset(t, cs) < 0 || H5Tset_size(t, size) < 0 ||
        H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

/* A variable-length UTF-8 string type (the caller closes it). */
static hid_t vstr_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return t;
    if (H5Tset_size(t, H5T_VARIABLE) < 0 ||
        H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

/* The predefined type of an element code, native or little-endian; a new
 * string type for C_STR64 (*made tells that the caller must close it). */
static hid_t code_type(code c, bool file, bool *made)
{
    *made = false;
    switch (c) {
    case C_I8: return file ? H5T_STD_I8LE : H5T_NATIVE_INT8;
    case C_I16: return file ? H5T_STD_I16LE : H5T_NATIVE_INT16;
    case C_I32: return file ? H5T_STD_I32LE : H5T_NATIVE_INT32;
    case C_I64: return file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    case C_U64: return file ? H5T_STD_U64LE : H5T_NATIVE_UINT64;
    case C_F64: return file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE;
    case C_STR64: *made = true; return str_type(NK_RUN_OPPONENT_LEN);
    }
    return H5I_INVALID_HID;
}

/* The compound type of a table: native at the struct's offsets, or packed
 * little-endian for the file. */
static hid_t compound(const table *t, bool file)
{
    size_t size = t->size;
    if (file) {
        size = 0;
        for (size_t i = 0; i < t->count; i++)
            size += code_size(t->members[i].type);
    }
    hid_t ct = H5Tcreate(H5T_COMPOUND, size);
    if (ct < 0)
        return ct;
    size_t off = 0;
    for (size_t i = 0; i < t->count; i++) {
        bool made;
        hid_t mt = code_type(t->members[i].type, file, &made);
        herr_t rc = mt < 0 ? -1
                    : H5Tinsert(ct, t->members[i].name,
                                file ? off : t->members[i].offset, mt);
        if (made && mt >= 0)
            H5Tclose(mt);
        if (rc < 0) {
            H5Tclose(ct);
            return H5I_INVALID_HID;
        }
        off += code_size(t->members[i].type);
    }
    return ct;
}

/* Sets up the three tables of a handle (datasets not yet open). */
static bool tables_init(nk_run *run)
{
    static const struct {
        const char *path;
        const member *members;
        size_t count, size;
    } def[T_COUNT] = {
        [T_STATS] = {"/stats", stats_members, COUNT(stats_members),
                     sizeof(nk_run_stats)},
        [T_GAMES] = {"/games", game_members, COUNT(game_members),
                     sizeof(nk_run_game)},
        [T_BENCH] = {"/benchmark", bench_members, COUNT(bench_members),
                     sizeof(nk_run_bench)},
    };
    for (int i = 0; i < T_COUNT; i++) {
        table *t = &run->tab[i];
        t->path = def[i].path;
        t->members = def[i].members;
        t->count = def[i].count;
        t->size = def[i].size;
        t->ds = H5I_INVALID_HID;
        t->mem = compound(t, false);
        t->file = compound(t, true);
        if (t->mem < 0 || t->file < 0)
            return false;
    }
    return true;
}

/* ===================================================================
 * Handles
 * =================================================================== */

static nk_run *run_alloc(const char *path)
{
    nk_run *run = nk_calloc(1, sizeof *run);
    if (run == NULL)
        return NULL;
    run->file = H5I_INVALID_HID;
    run->fd = -1;
    for (int i = 0; i < P_COUNT; i++)
        run->pop[i] = H5I_INVALID_HID;
    for (int i = 0; i < T_COUNT; i++)
        run->tab[i].ds = run->tab[i].mem = run->tab[i].file =
            H5I_INVALID_HID;
    run->path = nk_strdup(path);
    if (run->path == NULL) {
        nk_free(run);
        return NULL;
    }
    return run;
}

static void free_names(char **names, size_t n)
{
    if (names == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        nk_free(names[i]);
    nk_free(names);
}

void nk_run_close(nk_run *run)
{
    if (run == NULL)
        return;
    for (int i = 0; i < P_COUNT; i++)
        if (run->pop[i] >= 0)
            H5Dclose(run->pop[i]);
    for (int i = 0; i < T_COUNT; i++) {
        if (run->tab[i].ds >= 0)
            H5Dclose(run->tab[i].ds);
        if (run->tab[i].mem >= 0)
            H5Tclose(run->tab[i].mem);
        if (run->tab[i].file >= 0)
            H5Tclose(run->tab[i].file);
    }
    if (run->file >= 0)
        H5Fclose(run->file);
    if (run->fd >= 0)
        close(run->fd);
    H5Eclear2(H5E_DEFAULT);
    for (size_t i = 0; i < COUNT(run->text); i++)
        nk_free(run->text[i]);
    free_names(run->features, run->meta.d);
    free_names(run->blob_names, run->n_blobs);
    nk_free(run->spans);
    nk_free(run->path);
    nk_free(run);
}

/* Points meta's text members at run->text. */
static void meta_link(nk_run *run)
{
    run->meta.nickar_version = run->text[0];
    run->meta.created = run->text[1];
    run->meta.variant = run->text[2];
    run->meta.config = run->text[3];
    run->meta.feature_set = run->text[4];
    run->meta.strategy = run->text[5];
    run->meta.features = (const char *const *)run->features;
}

static const char *const text_attr[6] = {
    "nickar_version", "created", "variant", "config", "feature_set",
    "strategy"};

const nk_run_meta *nk_run_get_meta(const nk_run *run) { return &run->meta; }
const char *nk_run_path(const nk_run *run) { return run->path; }
size_t nk_run_generations(const nk_run *run) { return run->gens; }
size_t nk_run_games(const nk_run *run) { return run->games_rows; }
size_t nk_run_benchmarks(const nk_run *run) { return run->bench_rows; }
size_t nk_run_checkpoints(const nk_run *run) { return run->n_blobs; }

const char *nk_run_checkpoint_name(const nk_run *run, size_t i)
{
    return i < run->n_blobs ? run->blob_names[i] : NULL;
}

void nk_run_fail_at(nk_run *run, unsigned long nth) { run->fail_at = nth; }

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ===================================================================
 * Writing, one checked step at a time
 * =================================================================== */

/* False when the test hook makes this write fail. */
static bool may_write(nk_run *run, const char *what)
{
    nk_io_step(what);
    if (run->fail_at == 0 || --run->fail_at > 0)
        return true;
    snprintf(run->fail_what, sizeof run->fail_what, "%s", what);
    snprintf(run->fail_why, sizeof run->fail_why, "injected failure");
    run->fail_os = false;
    return false;
}

/* True when an HDF5 call succeeded (rc >= 0); else keeps what and why. */
static bool ok(nk_run *run, const char *what, int64_t rc)
{
    if (rc >= 0)
        return true;
    why w = h5_why();
    snprintf(run->fail_what, sizeof run->fail_what, "%s", what);
    snprintf(run->fail_why, sizeof run->fail_why, "%s", w.text);
    run->fail_os = w.os;
    return false;
}

static bool exists(hid_t loc, const char *path)
{
    htri_t e = H5Lexists(loc, path, H5P_DEFAULT);
    if (e < 0)
        H5Eclear2(H5E_DEFAULT);
    return e > 0;
}

/* Writes a scalar attribute of file type ftype from value (of mtype). */
static bool put_attr(nk_run *run, hid_t loc, const char *what,
                     const char *name, hid_t ftype, hid_t mtype,
                     const void *value)
{
    if (!may_write(run, what))
        return false;
    if (H5Aexists(loc, name) > 0 && !ok(run, what, H5Adelete(loc, name)))
        return false;
    hid_t space = H5Screate(H5S_SCALAR);
    if (!ok(run, what, space))
        return false;
    hid_t a = H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    bool good = ok(run, what, a) && ok(run, what, H5Awrite(a, mtype, value));
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    return good;
}

/* A fixed-length UTF-8 string type of size bytes (the caller closes it). */
static hid_t fstr_type(size_t size)
{
    hid_t t = str_type(size);
    if (t >= 0 && H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

/* A text attribute: a fixed-length string, whose bytes sit in the (in a
 * checked file, checksummed) object header; old files have variable-length
 * ones, which HDF5 1.10 keeps in the unchecked global heap. */
static bool put_text_attr(nk_run *run, hid_t loc, const char *what,
                          const char *name, const char *value)
{
    const char *v = value != NULL ? value : "";
    hid_t t = fstr_type(strlen(v) + 1);
    if (!ok(run, what, t))
        return false;
    bool good = put_attr(run, loc, what, name, t, t, v);
    H5Tclose(t);
    return good;
}

/* n strings as one block of fixed-length ones (size bytes each). */
static char *pack_strings(const char *const *values, size_t n, size_t *size)
{
    size_t w = 1;
    for (size_t i = 0; i < n; i++)
        if (strlen(values[i]) + 1 > w)
            w = strlen(values[i]) + 1;
    char *buf = nk_calloc(n, w);
    if (buf != NULL)
        for (size_t i = 0; i < n; i++)
            memcpy(buf + i * w, values[i], strlen(values[i]));
    *size = w;
    return buf;
}

/* A 1-D attribute of n variable-length strings. */
static bool put_text_list_attr(nk_run *run, hid_t loc, const char *what,
                               const char *name, const char *const *values,
                               size_t n)
{
    if (!may_write(run, what))
        return false;
    hsize_t dims[1] = {n};
    size_t w;
    char *buf = pack_strings(values, n, &w);
    if (buf == NULL) {
        snprintf(run->fail_what, sizeof run->fail_what, "%s", what);
        snprintf(run->fail_why, sizeof run->fail_why, "out of memory");
        run->fail_os = false;
        return false;
    }
    hid_t t = fstr_type(w);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t a = t < 0 || space < 0 ? H5I_INVALID_HID
              : H5Acreate2(loc, name, t, space, H5P_DEFAULT, H5P_DEFAULT);
    bool good = ok(run, what, a) && ok(run, what, H5Awrite(a, t, buf));
    nk_free(buf);
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    if (t >= 0)
        H5Tclose(t);
    return good;
}

/* Access for the population datasets: no chunk cache.  Each of their
 * chunks is one generation, written once, whole, and never touched again;
 * in HDF5's default cache (521 slots and 1 MiB per dataset) the written
 * chunks stayed until it was full, and every flush walked all of them, so
 * that an append's cost grew with the generations until about 500 of them
 * filled it.  Without a cache a chunk goes to the file when it is written
 * (through its checksum filter), and a read reads each chunk once. */
static hid_t uncached_access(void)
{
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    if (dapl >= 0 && H5Pset_chunk_cache(dapl, 1, 0, 1.0) < 0) {
        H5Pclose(dapl);
        return H5I_INVALID_HID;
    }
    return dapl;
}

/* Creates an empty dataset extendible along its first dimension. */
static bool create_ext(nk_run *run, const char *path, hid_t ftype, int rank,
                       const hsize_t *shape, const hsize_t *chunk,
                       bool deflate, hid_t dapl, hid_t *out)
{
    hsize_t dims[3], maxdims[3];
    for (int i = 0; i < rank; i++)
        dims[i] = maxdims[i] = shape[i];
    dims[0] = 0;
    maxdims[0] = H5S_UNLIMITED;
    if (!may_write(run, path))
        return false;
    hid_t space = H5Screate_simple(rank, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    bool good = ok(run, path, space) && ok(run, path, dcpl) &&
                ok(run, path, H5Pset_chunk(dcpl, rank, chunk));
    if (good && deflate && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0)
        good = ok(run, path, H5Pset_shuffle(dcpl)) &&
               ok(run, path, H5Pset_deflate(dcpl, 4));
    if (good && run->checked)
        good = ok(run, path, H5Pset_fletcher32(dcpl));
    *out = H5I_INVALID_HID;
    if (good) {
        *out = H5Dcreate2(run->file, path, ftype, space, H5P_DEFAULT, dcpl,
                          dapl);
        good = ok(run, path, *out);
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return good;
}

/* Extends ds along its first dimension to first + count rows (cutting off
 * anything beyond) and writes rows [first, first + count) from buf. */
static bool put_rows(nk_run *run, hid_t ds, const char *what, hsize_t first,
                     hsize_t count, hid_t mtype, const void *buf)
{
    hsize_t dims[3] = {0, 1, 1};
    hid_t space = H5Dget_space(ds);
    if (!ok(run, what, space))
        return false;
    int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    H5Sclose(space);
    if (!ok(run, what, rank))
        return false;
    dims[0] = first + count;
    if (!may_write(run, what) || !ok(run, what, H5Dset_extent(ds, dims)))
        return false;
    if (count == 0)
        return true;
    hsize_t start[3] = {first, 0, 0};
    hsize_t n[3] = {count, dims[1], dims[2]};
    space = H5Dget_space(ds);
    hid_t mem = H5Screate_simple(rank, n, NULL);
    /* The conversion buffers of a write (the tables' native rows to their
     * packed file rows) sized to the rows written: HDF5's default is 1 MiB
     * for each, cleared on every write, which cost more than the rest of
     * an append. */
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    hid_t ftype = H5Dget_type(ds);
    size_t row = H5Tget_size(mtype) > H5Tget_size(ftype) ? H5Tget_size(mtype)
                                                         : H5Tget_size(ftype);
    size_t bytes = (size_t)(count * n[1] * n[2]) * row;
    bool good = ok(run, what, space) && ok(run, what, mem) &&
                ok(run, what, dxpl) && ok(run, what, ftype) &&
                ok(run, what, H5Pset_buffer(dxpl, bytes > 0 ? bytes : 1,
                                            NULL, NULL)) &&
                ok(run, what, H5Sselect_hyperslab(space, H5S_SELECT_SET,
                                                  start, NULL, n, NULL)) &&
                may_write(run, what) &&
                ok(run, what, H5Dwrite(ds, mtype, mem, space, dxpl, buf));
    if (ftype >= 0)
        H5Tclose(ftype);
    if (dxpl >= 0)
        H5Pclose(dxpl);
    if (mem >= 0)
        H5Sclose(mem);
    if (space >= 0)
        H5Sclose(space);
    return good;
}

/* Cuts ds back to rows rows along its first dimension if it is longer. */
static bool shrink(nk_run *run, hid_t ds, const char *what, hsize_t rows,
                   bool *changed)
{
    hsize_t dims[3];
    hid_t space = H5Dget_space(ds);
    if (!ok(run, what, space))
        return false;
    int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    H5Sclose(space);
    if (!ok(run, what, rank))
        return false;
    if (dims[0] <= rows)
        return true;
    dims[0] = rows;
    if (!may_write(run, what) || !ok(run, what, H5Dset_extent(ds, dims)))
        return false;
    *changed = true;
    return true;
}

/* Flushes the file, cuts off what is left of a space reservation beyond
 * HDF5's end of allocation (HDF5 trims only when its own idea of the end
 * of file differs) and, when sync is true, asks the system to put it all on
 * disk.  A flush hands every byte to the system, so that readers and a
 * later process see the whole generation even when this one is killed;
 * only a crash of the machine can lose what was not synced, and the run's
 * backup copy (io/backup.h), which is synced, covers that. */
static bool flush(nk_run *run, bool sync)
{
    if (!may_write(run, "flush") ||
        !ok(run, "flush", H5Fflush(run->file, H5F_SCOPE_GLOBAL)))
        return false;
    haddr_t eoa;
    struct stat sb;
    if (run->fd >= 0 && H5Fget_eoa(run->file, &eoa) >= 0 &&
        fstat(run->fd, &sb) == 0 && (haddr_t)sb.st_size > eoa &&
        (nk_io_step("truncate"), ftruncate(run->fd, (off_t)eoa) != 0)) {
        /* a reservation left in place costs space, nothing else */
    }
    H5Eclear2(H5E_DEFAULT);
    if (run->fd >= 0 && fstat(run->fd, &sb) == 0 &&
        (uint64_t)sb.st_size > run->file_size)
        run->file_size = (uint64_t)sb.st_size; /* the bound of reads */
    if (!sync)
        return true;
    if (run->fd >= 0)
        nk_io_step("fsync");
    if (run->fd >= 0 && fsync(run->fd) != 0 && errno != EINVAL &&
        errno != EROFS) {
        snprintf(run->fail_what, sizeof run->fail_what, "fsync");
        snprintf(run->fail_why, sizeof run->fail_why, "%s", strerror(errno));
        run->fail_os = true;
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

/* ===================================================================
 * Creating
 * =================================================================== */

static nk_status check_meta(const nk_run_meta *meta, char *err, size_t len)
{
    if (meta == NULL)
        return nk_fail(NK_EINVAL, err, len, "no run metadata");
    if (meta->n < 1 || meta->d < 1)
        return nk_fail(NK_EINVAL, err, len,
                       "a run needs at least one individual and one gene "
                       "(N = %zu, D = %zu)", meta->n, meta->d);
    /* HDF5 chunks are below 4 GiB: one generation of genomes must fit. */
    if (meta->d > (UINT32_MAX / 8) / meta->n)
        return nk_fail(NK_ERANGE, err, len,
                       "a generation of %zu x %zu genes is too large",
                       meta->n, meta->d);
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
    if (gmtime_r(&t, &tm) == NULL ||
        strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(now, sizeof now, "1970-01-01T00:00:00Z");
    const char *text[6] = {
        meta->nickar_version != NULL ? meta->nickar_version : NICKAR_VERSION,
        meta->created != NULL ? meta->created : now,
        meta->variant, meta->config, meta->feature_set, meta->strategy};
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
    meta_link(run);
    return true;
}

/* FNV-1a (64 bits) of a text. The config text is the root's one attribute
 * that can pass 4 KiB, and HDF5 keeps such a one, when the root's
 * attributes are in dense storage (more than 8), as a "huge" heap object
 * that no checksum covers; config_checksum covers it. */
static uint64_t text_checksum(const char *text)
{
    uint64_t h = 14695981039346656037ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p != 0; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return h;
}

static bool write_root_attrs(nk_run *run)
{
    hid_t root = run->file;
    int32_t schema = NK_RUN_SCHEMA_VERSION;
    int32_t threads = run->meta.threads, ranks = run->meta.mpi_ranks;
    bool good = put_attr(run, root, "/", "schema_version", H5T_STD_I32LE,
                         H5T_NATIVE_INT32, &schema);
    for (size_t i = 0; good && i < COUNT(text_attr); i++)
        good = put_text_attr(run, root, "/", text_attr[i], run->text[i]);
    return good &&
           put_attr(run, root, "/", "master_seed", H5T_STD_U64LE,
                    H5T_NATIVE_UINT64, &run->meta.master_seed) &&
           put_attr(run, root, "/", "threads", H5T_STD_I32LE,
                    H5T_NATIVE_INT32, &threads) &&
           put_attr(run, root, "/", "mpi_ranks", H5T_STD_I32LE,
                    H5T_NATIVE_INT32, &ranks) &&
           put_attr(run, root, "/", "config_checksum", H5T_STD_U64LE,
                    H5T_NATIVE_UINT64, &(uint64_t){text_checksum(run->text[3])});
}

/* /features: fixed-length strings in one chunk with a checksum. */
static bool write_features(nk_run *run)
{
    hsize_t dims[1] = {run->meta.d};
    if (!may_write(run, "/features"))
        return false;
    size_t w;
    char *buf = pack_strings((const char *const *)run->features, run->meta.d,
                             &w);
    if (buf == NULL) {
        snprintf(run->fail_what, sizeof run->fail_what, "/features");
        snprintf(run->fail_why, sizeof run->fail_why, "out of memory");
        return false;
    }
    hid_t t = fstr_type(w);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    bool good = ok(run, "/features", dcpl) &&
                ok(run, "/features", H5Pset_chunk(dcpl, 1, dims)) &&
                ok(run, "/features", H5Pset_fletcher32(dcpl));
    hid_t ds = !good || t < 0 || space < 0 ? H5I_INVALID_HID
               : H5Dcreate2(run->file, "/features", t, space, H5P_DEFAULT,
                            dcpl, H5P_DEFAULT);
    good = good && ok(run, "/features", ds) &&
           ok(run, "/features", H5Dwrite(ds, t, H5S_ALL, H5S_ALL,
                                         H5P_DEFAULT, buf));
    nk_free(buf);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (ds >= 0)
        H5Dclose(ds);
    if (space >= 0)
        H5Sclose(space);
    if (t >= 0)
        H5Tclose(t);
    return good;
}

static bool create_population(nk_run *run)
{
    if (!may_write(run, "/population"))
        return false;
    hid_t g = H5Gcreate2(run->file, "/population", H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    if (!ok(run, "/population", g))
        return false;
    H5Gclose(g);
    for (int i = 0; i < P_COUNT; i++) {
        const struct pop_desc *p = &pop_desc[i];
        if (i == P_SIGMA && !run->meta.has_sigma)
            continue;
        hsize_t w = p->width == 0 ? run->meta.d : (hsize_t)p->width;
        hsize_t shape[3] = {0, run->meta.n, w};
        hsize_t chunk[3] = {1, run->meta.n, w};
        bool made;
        hid_t ft = code_type(p->type, true, &made);
        hid_t dapl = uncached_access();
        bool good = ok(run, p->path, dapl) &&
                    create_ext(run, p->path, ft, p->rank, shape, chunk, false,
                               dapl, &run->pop[i]);
        if (dapl >= 0)
            H5Pclose(dapl);
        if (!good)
            return false;
    }
    return true;
}

static bool create_tables(nk_run *run)
{
    static const hsize_t chunk[T_COUNT] = {STATS_CHUNK, GAMES_CHUNK,
                                           BENCH_CHUNK};
    for (int i = 0; i < T_COUNT; i++) {
        table *t = &run->tab[i];
        hsize_t shape[1] = {0};
        if (i == T_GAMES && !run->meta.record_games)
            continue;
        if (!create_ext(run, t->path, t->file, 1, shape, &chunk[i],
                        i == T_GAMES, H5P_DEFAULT, &t->ds))
            return false;
    }
    if (run->tab[T_GAMES].ds >= 0) {
        const char *winners[3] = {"south", "north", "draw"};
        const char *reasons[NK_END_COUNT];
        for (int r = 0; r < NK_END_COUNT; r++)
            reasons[r] = nk_end_name((nk_end)r);
        hid_t ds = run->tab[T_GAMES].ds;
        return put_text_list_attr(run, ds, "/games", "winner_names",
                                  winners, 3) &&
               put_text_list_attr(run, ds, "/games", "reason_names", reasons,
                                  NK_END_COUNT);
    }
    return true;
}

/* The attributes of a checkpoint group, generation last. */
static bool put_ckpt_attrs(nk_run *run, hid_t g, int32_t gen, int64_t games,
                           int64_t bench)
{
    return put_attr(run, g, CKPT, "games_rows", H5T_STD_I64LE,
                    H5T_NATIVE_INT64, &games) &&
           put_attr(run, g, CKPT, "benchmark_rows", H5T_STD_I64LE,
                    H5T_NATIVE_INT64, &bench) &&
           put_attr(run, g, CKPT, "generation", H5T_STD_I32LE,
                    H5T_NATIVE_INT32, &gen);
}

static bool create_checkpoint(nk_run *run)
{
    if (!may_write(run, CKPT))
        return false;
    hid_t g = H5Gcreate2(run->file, CKPT, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    if (!ok(run, CKPT, g))
        return false;
    bool good = put_ckpt_attrs(run, g, -1, 0, 0);
    H5Gclose(g);
    return good;
}

static hid_t file_access(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0)
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
    return fapl;
}

nk_status nk_run_create(nk_run **out, const char *path,
                        const nk_run_meta *meta, bool force,
                        char *err, size_t len)
{
    *out = NULL;
    quiet();
    nk_status st = check_meta(meta, err, len);
    if (st != NK_OK)
        return st;
    struct stat sb;
    if (!force && stat(path, &sb) == 0)
        return nk_fail(NK_EINVAL, err, len,
                       "cannot create '%s': it already exists", path);
    nk_run *run = run_alloc(path);
    if (run == NULL || !meta_copy(run, meta) || !tables_init(run)) {
        nk_run_close(run);
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    }
    hid_t fapl = file_access();
    /* The 1.8 format: superblock v2 and object headers with checksums, no
     * consistency flags (the 1.10 format's superblock v3 keeps a file that
     * a killed writer had open from opening at all). */
    if (fapl >= 0)
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18);
    run->checked = true;
    run->file = H5Fcreate(path, force ? H5F_ACC_TRUNC : H5F_ACC_EXCL,
                          H5P_DEFAULT, fapl);
    why w = h5_why(); /* before H5Pclose clears the error stack */
    H5Pclose(fapl);
    if (run->file < 0) {
        nk_run_close(run);
        return nk_fail(NK_EIO, err, len, "cannot create '%s': %s", path,
                       w.text);
    }
    run->writable = true;
    if (!write_root_attrs(run) || !write_features(run) ||
        !create_population(run) || !create_tables(run) ||
        !create_checkpoint(run) || !flush(run, true)) {
        nk_fail(NK_EIO, err, len, "cannot create '%s': %s: %s", path,
                run->fail_what, run->fail_why);
        nk_run_close(run);
        unlink(path);
        return NK_EIO;
    }
    run->fd = open(path, O_WRONLY | O_CLOEXEC);
    if (run->fd >= 0 && fstat(run->fd, &sb) == 0)
        run->file_size = (uint64_t)sb.st_size;
    *out = run;
    return NK_OK;
}

/* ===================================================================
 * Opening
 * =================================================================== */

/* ===================================================================
 * Variable-length strings, read without HDF5's global heap code
 *
 * Older run files keep their text in variable-length strings, whose bytes
 * HDF5 1.10 keeps in the global heap: unchecked, and a damaged heap or heap
 * id makes HDF5's own reader overflow buffers or crash.  So nickar reads
 * only the heap ids through HDF5 (a conversion to an opaque type that
 * copies them as they are stored) and the heap collection itself, checking
 * every size and offset against the collection and the file.
 * =================================================================== */

#define HEAP_ID_TAG "nickar raw global heap id"
enum { HEAP_ID_SIZE = 16 }; /* length (4), collection address (8), index (4) */

/* The conversion from a variable-length string as stored (its heap id) to
 * the opaque type HEAP_ID_TAG: the bytes stay as they are. */
static herr_t heap_id_conv(hid_t src, hid_t dst, H5T_cdata_t *cdata,
                           size_t nelmts, size_t buf_stride,
                           size_t bkg_stride, void *buf, void *bkg,
                           hid_t dxpl)
{
    (void)nelmts, (void)buf_stride, (void)bkg_stride, (void)buf, (void)bkg;
    (void)dxpl;
    if (cdata->command == H5T_CONV_INIT) {
        char *tag = H5Tget_class(dst) == H5T_OPAQUE ? H5Tget_tag(dst) : NULL;
        bool mine = tag != NULL && strcmp(tag, HEAP_ID_TAG) == 0;
        H5free_memory(tag);
        if (!mine || H5Tis_variable_str(src) <= 0 ||
            H5Tget_size(src) != HEAP_ID_SIZE || H5Tget_size(dst) != HEAP_ID_SIZE)
            return -1;
        cdata->need_bkg = H5T_BKG_NO;
    }
    return 0; /* H5T_CONV_CONV: same size, nothing moves; H5T_CONV_FREE */
}

/* The opaque type that receives heap ids (the caller closes it); registers
 * the conversion once. */
static hid_t heap_id_type(void)
{
    static bool registered;
    hid_t t = H5Tcreate(H5T_OPAQUE, HEAP_ID_SIZE);
    if (t < 0 || H5Tset_tag(t, HEAP_ID_TAG) < 0) {
        if (t >= 0)
            H5Tclose(t);
        return H5I_INVALID_HID;
    }
    if (!registered) {
        hid_t v = vstr_type();
        if (v < 0 || H5Tregister(H5T_PERS_SOFT, "nickar heap id", v, t,
                                 heap_id_conv) < 0) {
            if (v >= 0)
                H5Tclose(v);
            H5Tclose(t);
            return H5I_INVALID_HID;
        }
        H5Tclose(v);
        registered = true;
    }
    return t;
}

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The string of heap id id (HEAP_ID_SIZE bytes as stored), read from the
 * file's global heap collection and checked: 0 done, 3 damaged (a size or
 * offset that does not fit, a bad collection), 4 no memory. */
static int heap_string(const nk_run *run, const unsigned char *id, char **out)
{
    *out = NULL;
    uint64_t len = le(id, 4), addr = le(id + 4, 8), index = le(id + 12, 4);
    if (len == 0 && addr == 0) { /* a NULL string */
        *out = nk_strdup("");
        return *out != NULL ? 0 : 4;
    }
    unsigned char head[16];
    int fd = open(run->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 3;
    uint64_t size = 0;
    int rc = 3;
    if (addr < run->file_size && run->file_size - addr >= 16 &&
        pread(fd, head, 16, (off_t)addr) == 16 &&
        memcmp(head, "GCOL", 4) == 0 && head[4] == 1)
        size = le(head + 8, 8);
    unsigned char *col = NULL;
    if (size >= 16 && size <= run->file_size - addr) {
        col = nk_malloc((size_t)size);
        if (col == NULL)
            rc = 4;
        else if (pread(fd, col, (size_t)size, (off_t)addr) != (ssize_t)size) {
            nk_free(col);
            col = NULL;
        }
    }
    close(fd);
    if (col == NULL)
        return rc;
    /* objects: index (2), references (2), reserved (4), size (8), data
     * padded to 8 bytes; index 0 is the free space at the end */
    for (uint64_t p = 16; p <= size - 16;) {
        uint64_t k = le(col + p, 2), n = le(col + p + 8, 8);
        if (k == 0 || n > size - p - 16)
            break;
        if (k == index) {
            if (len <= n && (*out = nk_malloc((size_t)len + 1)) != NULL) {
                memcpy(*out, col + p + 16, (size_t)len);
                (*out)[len] = '\0';
            }
            rc = len > n ? 3 : *out != NULL ? 0 : 4;
            break;
        }
        p += 16 + ((n + 7) & ~(uint64_t)7);
    }
    nk_free(col);
    return rc;
}

/* Reads a text attribute (fixed- or variable-length) into a new string:
 * 0 done, 1 missing, 2 not a scalar string, 3 unreadable, 4 no memory. */
static int get_text_attr(const nk_run *run, hid_t loc, const char *name,
                         char **out)
{
    *out = NULL;
    if (H5Aexists(loc, name) <= 0)
        return 1;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID;
    hid_t space = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    int rc = 3;
    if (t < 0 || space < 0)
        goto done;
    rc = 2;
    if (H5Tget_class(t) != H5T_STRING || H5Sget_simple_extent_npoints(space) != 1)
        goto done;
    if (H5Tis_variable_str(t) > 0) {
        hid_t mt = heap_id_type();
        unsigned char id[HEAP_ID_SIZE];
        rc = 3;
        if (mt >= 0 && H5Aread(a, mt, id) >= 0)
            rc = heap_string(run, id, out);
        if (mt >= 0)
            H5Tclose(mt);
    } else {
        size_t n = H5Tget_size(t);
        if (n == 0 || n > run->file_size) /* more than the file holds */
            goto done;
        hid_t mt = read_str_type(t, n + 1);
        char *s = nk_calloc(n + 1, 1);
        rc = s == NULL ? 4 : 3;
        if (s != NULL && mt >= 0 && H5Aread(a, mt, s) >= 0) {
            *out = s;
            s = NULL;
            rc = 0;
        }
        nk_free(s);
        if (mt >= 0)
            H5Tclose(mt);
    }
done:
    if (space >= 0)
        H5Sclose(space);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* Reads a scalar integer attribute as mtype; return codes as above. */
static int get_int_attr(hid_t loc, const char *name, hid_t mtype, void *out)
{
    if (H5Aexists(loc, name) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return 1;
    }
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID;
    hid_t space = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    int rc = 3;
    if (t >= 0 && space >= 0) {
        rc = 2;
        if (H5Tget_class(t) == H5T_INTEGER &&
            H5Sget_simple_extent_npoints(space) == 1)
            rc = H5Aread(a, mtype, out) >= 0 ? 0 : 3;
    }
    if (space >= 0)
        H5Sclose(space);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* The message of a failed attribute read. */
static nk_status bad_attr(const nk_run *run, int rc, const char *where,
                          const char *name, const char *kind,
                          char *err, size_t len)
{
    if (rc == 4)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    const char *sep = where[0] != '\0' ? " of " : "";
    if (rc == 1)
        return not_run(run->path, err, len, "no attribute %s%s%s", name, sep,
                       where);
    if (rc == 2)
        return not_run(run->path, err, len, "attribute %s%s%s is not %s",
                       name, sep, where, kind);
    return damaged(run->path, err, len, "cannot read attribute %s%s%s", name,
                   sep, where);
}

static nk_status read_root_attrs(nk_run *run, char *err, size_t len)
{
    int32_t schema, threads, ranks;
    int rc = get_int_attr(run->file, "schema_version", H5T_NATIVE_INT32,
                          &schema);
    if (rc != 0)
        return bad_attr(run, rc, "", "schema_version", "an integer", err,
                        len);
    if (schema != NK_RUN_SCHEMA_VERSION)
        return nk_fail(NK_EFORMAT, err, len,
                       "'%s' has schema_version %d; this nickar reads "
                       "version %d", run->path, (int)schema,
                       NK_RUN_SCHEMA_VERSION);
    for (size_t i = 0; i < COUNT(text_attr); i++)
        if ((rc = get_text_attr(run, run->file, text_attr[i],
                                &run->text[i])) != 0)
            return bad_attr(run, rc, "", text_attr[i], "a string", err, len);
    if ((rc = get_int_attr(run->file, "master_seed", H5T_NATIVE_UINT64,
                           &run->meta.master_seed)) != 0)
        return bad_attr(run, rc, "", "master_seed", "an integer", err, len);
    if ((rc = get_int_attr(run->file, "threads", H5T_NATIVE_INT32,
                           &threads)) != 0)
        return bad_attr(run, rc, "", "threads", "an integer", err, len);
    if ((rc = get_int_attr(run->file, "mpi_ranks", H5T_NATIVE_INT32,
                           &ranks)) != 0)
        return bad_attr(run, rc, "", "mpi_ranks", "an integer", err, len);
    /* Files made before config_checksum existed have none. */
    if (H5Aexists(run->file, "config_checksum") > 0) {
        uint64_t sum;
        if ((rc = get_int_attr(run->file, "config_checksum", H5T_NATIVE_UINT64,
                               &sum)) != 0)
            return bad_attr(run, rc, "", "config_checksum", "an integer", err,
                            len);
        if (sum != text_checksum(run->text[3]))
            return damaged(run->path, err, len,
                           "the config text does not match its checksum");
    }
    H5Eclear2(H5E_DEFAULT);
    run->meta.threads = threads;
    run->meta.mpi_ranks = ranks;
    return NK_OK;
}

static bool plain_fits(hid_t t);

/* Opens dataset path, checks its rank and element class, gives its dims. */
static nk_status open_ds(nk_run *run, const char *path, int rank,
                         H5T_class_t cls, hsize_t *dims, hid_t dapl,
                         hid_t *out, char *err, size_t len)
{
    static const char *const cls_name[] = {
        [H5T_INTEGER] = "integer", [H5T_FLOAT] = "float",
        [H5T_STRING] = "string", [H5T_COMPOUND] = "compound"};
    *out = H5I_INVALID_HID;
    if (!exists(run->file, path))
        return not_run(run->path, err, len, "no dataset %s", path);
    hid_t ds = H5Dopen2(run->file, path, dapl);
    if (ds < 0)
        return not_run(run->path, err, len, "%s is not a dataset", path);
    hid_t space = H5Dget_space(ds), t = H5Dget_type(ds);
    int r = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    /* numbers: a sane size and precision (see plain_fits) */
    if ((c == H5T_INTEGER || c == H5T_FLOAT) && !plain_fits(t))
        c = H5T_NO_CLASS;
    if (r == rank)
        H5Sget_simple_extent_dims(space, dims, NULL);
    if (space >= 0)
        H5Sclose(space);
    if (t >= 0)
        H5Tclose(t);
    if (r != rank) {
        H5Dclose(ds);
        return not_run(run->path, err, len, "%s has %d dimensions, not %d",
                       path, r, rank);
    }
    if (c != cls) {
        H5Dclose(ds);
        return not_run(run->path, err, len, "%s does not hold %s values",
                       path, cls_name[cls]);
    }
    *out = ds;
    return NK_OK;
}

static nk_status read_features(nk_run *run, char *err, size_t len)
{
    hsize_t d;
    hid_t ds;
    nk_status st = open_ds(run, "/features", 1, H5T_STRING, &d, H5P_DEFAULT,
                           &ds, err, len);
    if (st != NK_OK)
        return st;
    if (d < 1) {
        H5Dclose(ds);
        return not_run(run->path, err, len, "/features is empty");
    }
    hid_t ft = H5Dget_type(ds);
    bool vlen = ft >= 0 && H5Tis_variable_str(ft) > 0;
    size_t size = ft >= 0 ? H5Tget_size(ft) : 0;
    /* Each name takes at least its bytes in the file (a variable-length
     * one 16 bytes of heap): no more than the file can hold. */
    size_t each = vlen ? 16 : size;
    if (ft < 0 || each == 0 || d > run->file_size / each) {
        if (ft >= 0)
            H5Tclose(ft);
        H5Dclose(ds);
        return damaged(run->path, err, len, "/features claims %llu names "
                       "of %zu bytes in a file of %llu bytes",
                       (unsigned long long)d, each,
                       (unsigned long long)run->file_size);
    }
    run->meta.d = (size_t)d;
    run->features = nk_calloc(d, sizeof *run->features);
    hid_t mt = vlen ? heap_id_type() : read_str_type(ft, size + 1);
    bool good = false, oom = run->features == NULL; /* oom: a failed nk_ allocation */
    if (run->features != NULL && mt >= 0) {
        if (vlen) {
            unsigned char *ids = nk_calloc(d, HEAP_ID_SIZE);
            oom = ids == NULL;
            if (ids != NULL &&
                H5Dread(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, ids) >= 0) {
                good = true;
                for (size_t i = 0; good && i < d; i++) {
                    int rc = heap_string(run, ids + i * HEAP_ID_SIZE,
                                         &run->features[i]);
                    oom = rc == 4;
                    good = rc == 0;
                }
                if (!good && !oom) { /* the message says what failed */
                    H5Eclear2(H5E_DEFAULT);
                    H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__,
                             H5E_ERR_CLS, H5E_DATASET, H5E_READERROR,
                             "a name's bytes do not fit its global heap "
                             "collection");
                }
            }
            nk_free(ids);
        } else {
            char *s = nk_calloc(d, size + 1);
            oom = s == NULL;
            if (s != NULL &&
                H5Dread(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, s) >= 0) {
                for (size_t i = 0; i < d; i++) {
                    run->features[i] = nk_strdup(s + i * (size + 1));
                    oom = oom || run->features[i] == NULL;
                }
                good = !oom;
            }
            nk_free(s);
        }
    }
    why w = h5_why();
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    H5Dclose(ds);
    if (!good)
        return oom ? nk_fail(NK_ENOMEM, err, len, "out of memory")
                   : damaged(run->path, err, len, "cannot read /features: %s",
                             w.text);
    return NK_OK;
}

static nk_status open_pop_ds(nk_run *run, hid_t dapl, char *err,
                            size_t len);

static nk_status open_population(nk_run *run, char *err, size_t len)
{
    hid_t dapl = uncached_access();
    if (dapl < 0)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    nk_status st = open_pop_ds(run, dapl, err, len);
    H5Pclose(dapl);
    return st;
}

static nk_status open_pop_ds(nk_run *run, hid_t dapl, char *err, size_t len)
{
    hsize_t dims[3];
    nk_status st = open_ds(run, pop_desc[P_GENOME].path, 3, H5T_FLOAT, dims,
                           dapl, &run->pop[P_GENOME], err, len);
    if (st != NK_OK)
        return st;
    if (dims[1] < 1 || dims[2] != run->meta.d)
        return not_run(run->path, err, len,
                       "/population/genome is [%llu, %llu, %llu] for %zu "
                       "features", (unsigned long long)dims[0],
                       (unsigned long long)dims[1],
                       (unsigned long long)dims[2], run->meta.d);
    /* As on creation, one generation of genomes fits an HDF5 chunk. */
    if (dims[2] > (UINT32_MAX / 8) / dims[1])
        return damaged(run->path, err, len, "/population/genome is [%llu, "
                       "%llu, %llu]", (unsigned long long)dims[0],
                       (unsigned long long)dims[1],
                       (unsigned long long)dims[2]);
    run->meta.n = (size_t)dims[1];
    run->meta.has_sigma = exists(run->file, pop_desc[P_SIGMA].path);
    for (int i = 0; i < P_COUNT; i++) {
        const struct pop_desc *p = &pop_desc[i];
        if (i == P_GENOME || (i == P_SIGMA && !run->meta.has_sigma))
            continue;
        st = open_ds(run, p->path, p->rank, code_class(p->type), dims,
                     dapl, &run->pop[i], err, len);
        if (st != NK_OK)
            return st;
        hsize_t w = p->width == 0 ? run->meta.d : (hsize_t)p->width;
        if (dims[1] != run->meta.n || (p->rank == 3 && dims[2] != w))
            return not_run(run->path, err, len,
                           "%s does not fit N = %zu, D = %zu", p->path,
                           run->meta.n, run->meta.d);
    }
    return NK_OK;
}

/* A sane type for a number or a string member: a size of 1 to 64 bytes
 * and, for numbers, a precision and offset within it. */
static bool plain_fits(hid_t t)
{
    size_t size = H5Tget_size(t);
    H5T_class_t c = H5Tget_class(t);
    if (size < 1 || size > 64)
        return false;
    if (c == H5T_STRING)
        return H5Tis_variable_str(t) == 0;
    if (c != H5T_INTEGER && c != H5T_FLOAT)
        return false;
    size_t prec = H5Tget_precision(t);
    int off = H5Tget_offset(t);
    return prec >= 1 && off >= 0 && prec + (size_t)off <= 8 * size;
}

/* Every member of compound type ft lies within the row, does not overlap
 * another, and is a plain number or fixed-length string (an unchecked
 * header of an older file can say otherwise, and HDF5's conversions then
 * read and write out of bounds). */
static bool compound_fits(hid_t ft)
{
    if (ft < 0 || H5Tget_class(ft) != H5T_COMPOUND)
        return false;
    size_t size = H5Tget_size(ft);
    int n = H5Tget_nmembers(ft);
    if (n < 1 || n > 64 || size < 1 || size > 4096)
        return false;
    size_t lo[64], hi[64];
    bool good = true;
    for (int i = 0; good && i < n; i++) {
        hid_t mt = H5Tget_member_type(ft, (unsigned)i);
        size_t off = H5Tget_member_offset(ft, (unsigned)i);
        good = mt >= 0 && plain_fits(mt) && off < size &&
               H5Tget_size(mt) <= size - off;
        if (good) {
            lo[i] = off;
            hi[i] = off + H5Tget_size(mt);
            for (int j = 0; good && j < i; j++)
                good = hi[i] <= lo[j] || hi[j] <= lo[i];
        }
        if (mt >= 0)
            H5Tclose(mt);
    }
    H5Eclear2(H5E_DEFAULT);
    return good;
}

static nk_status open_tables(nk_run *run, char *err, size_t len)
{
    run->meta.record_games = exists(run->file, "/games");
    for (int i = 0; i < T_COUNT; i++) {
        table *t = &run->tab[i];
        hsize_t rows;
        if (i == T_GAMES && !run->meta.record_games)
            continue;
        nk_status st = open_ds(run, t->path, 1, H5T_COMPOUND, &rows,
                               H5P_DEFAULT, &t->ds, err, len);
        if (st != NK_OK)
            return st;
        hid_t ft = H5Dget_type(t->ds);
        if (!compound_fits(ft)) {
            if (ft >= 0)
                H5Tclose(ft);
            return damaged(run->path, err, len, "the row type of %s does not "
                           "fit together", t->path);
        }
        for (size_t m = 0; m < t->count; m++) {
            const member *mb = &t->members[m];
            int k = ft >= 0 ? H5Tget_member_index(ft, mb->name) : -1;
            if (k < 0 && mb->optional) {
                /* An older file: its rows end before this member, and so
                 * do the rows that this handle reads and appends. */
                H5Eclear2(H5E_DEFAULT);
                t->count = m;
                H5Tclose(t->mem);
                H5Tclose(t->file);
                t->mem = compound(t, false);
                t->file = compound(t, true);
                if (t->mem < 0 || t->file < 0) {
                    H5Tclose(ft);
                    return nk_fail(NK_ENOMEM, err, len, "out of memory");
                }
                break;
            }
            hid_t mt = k >= 0 ? H5Tget_member_type(ft, (unsigned)k)
                              : H5I_INVALID_HID;
            bool good = mt >= 0 && H5Tget_class(mt) == code_class(mb->type) &&
                        (mb->type != C_STR64 || H5Tis_variable_str(mt) == 0);
            if (mt >= 0)
                H5Tclose(mt);
            if (!good) {
                if (ft >= 0)
                    H5Tclose(ft);
                return not_run(run->path, err, len,
                               "%s has no %s field '%s'", t->path,
                               mb->type == C_F64     ? "float"
                               : mb->type == C_STR64 ? "fixed-length string"
                                                     : "integer",
                               mb->name);
            }
        }
        if (ft >= 0)
            H5Tclose(ft);
    }
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
    run->blob_names = nk_calloc((size_t)info.nlinks, sizeof *run->blob_names);
    if (run->blob_names == NULL)
        return !(*oom = true);
    for (hsize_t i = 0; i < info.nlinks; i++) {
        ssize_t n = H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i,
                                       NULL, 0, H5P_DEFAULT);
        char *name = n >= 0 ? nk_malloc((size_t)n + 1) : NULL;
        *oom = n >= 0 && name == NULL;
        if (name == NULL ||
            H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name,
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

static nk_status open_checkpoint(nk_run *run, char *err, size_t len)
{
    bool has = exists(run->file, CKPT), has_new = exists(run->file, CKPT_NEW);
    if (!has && !has_new)
        return not_run(run->path, err, len, "no group " CKPT);
    run->ckpt_pending = !has;
    run->ckpt_stale = has && has_new;
    const char *name = ckpt(run);
    hid_t g = H5Gopen2(run->file, name, H5P_DEFAULT);
    if (g < 0)
        return not_run(run->path, err, len, "%s is not a group", name);
    int32_t gen;
    int64_t games, bench;
    int rc = get_int_attr(g, "generation", H5T_NATIVE_INT32, &gen);
    const char *attr = "generation";
    if (rc == 0) {
        attr = "games_rows";
        rc = get_int_attr(g, attr, H5T_NATIVE_INT64, &games);
    }
    if (rc == 0) {
        attr = "benchmark_rows";
        rc = get_int_attr(g, attr, H5T_NATIVE_INT64, &bench);
    }
    bool oom = false;
    bool listed = rc != 0 || list_blobs(run, g, &oom);
    H5Gclose(g);
    if (oom)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    if (!listed) {
        why w = h5_why();
        return not_run(run->path, err, len, "cannot list %s: %s", name,
                       w.text);
    }
    if (rc != 0)
        return bad_attr(run, rc, name, attr, "an integer", err, len);
    if (gen < -1 || games < 0 || bench < 0)
        return not_run(run->path, err, len,
                       "%s says generation %d, %lld games, %lld benchmark "
                       "rows", name, (int)gen, (long long)games,
                       (long long)bench);
    if (run->n_blobs > 1)
        qsort(run->blob_names, run->n_blobs, sizeof *run->blob_names,
              cmp_names);
    run->gens = (size_t)(gen + 1);
    run->games_rows = (size_t)games;
    run->bench_rows = (size_t)bench;
    return NK_OK;
}

static hsize_t rows_of(hid_t ds)
{
    hsize_t dims[3] = {0, 0, 0};
    hid_t space = H5Dget_space(ds);
    if (space >= 0) {
        H5Sget_simple_extent_dims(space, dims, NULL);
        H5Sclose(space);
    }
    return dims[0];
}

/* Every dataset holds the committed rows; notes whether some hold more. */
static nk_status check_lengths(nk_run *run, char *err, size_t len)
{
    run->needs_repair = run->ckpt_pending || run->ckpt_stale;
    for (int i = 0; i < P_COUNT + T_COUNT; i++) {
        hid_t ds = i < P_COUNT ? run->pop[i] : run->tab[i - P_COUNT].ds;
        const char *path = i < P_COUNT ? pop_desc[i].path
                                       : run->tab[i - P_COUNT].path;
        size_t want = i == P_COUNT + T_GAMES   ? run->games_rows
                      : i == P_COUNT + T_BENCH ? run->bench_rows
                                               : run->gens;
        if (ds < 0) { /* sigma or games, which may be absent */
            if (want > 0 && i != P_SIGMA)
                return not_run(run->path, err, len,
                               "%zu rows of %s are complete but it does not "
                               "exist", want, path);
            continue;
        }
        /* The complete rows of an uncompressed dataset lie in the file
         * (/games is compressed: at most deflate's ratio, 1032 to 1). */
        size_t row = i < P_COUNT ? (size_t)8 * run->meta.n *
                     (pop_desc[i].width == 0 ? run->meta.d
                                             : (size_t)pop_desc[i].width)
                                 : run->tab[i - P_COUNT].size;
        uint64_t room = i == P_COUNT + T_GAMES ? run->file_size * 1032
                                               : run->file_size;
        if (row > 0 && want > room / row)
            return damaged(run->path, err, len, "%zu rows of %s are complete "
                           "but a file of %llu bytes cannot hold them", want,
                           path, (unsigned long long)run->file_size);
        hsize_t rows = rows_of(ds);
        if (rows < want)
            return not_run(run->path, err, len,
                           "%s has %llu rows but %zu are complete", path,
                           (unsigned long long)rows, want);
        if (rows > want)
            run->needs_repair = true;
    }
    return NK_OK;
}

static nk_status open_blob(nk_run *run, const char *name, hid_t *out,
                           nk_run_kind *kind, size_t *count,
                           char *err, size_t len);
static nk_status get_rows(nk_run *run, hid_t ds, const char *what,
                          hsize_t first, hsize_t count, hid_t mtype,
                          void *buf, char *err, size_t len);
static nk_status check_chunks(nk_run *run, hid_t ds, const char *what,
                              int rank, hsize_t first, hsize_t count,
                              char *err, size_t len);

/* Records a chunk that check_chunks found in place. */
static bool note_span(nk_run *run, uint64_t addr, uint64_t size,
                      const char *what)
{
    if (run->n_spans == run->cap_spans) {
        size_t cap = 2 * run->cap_spans;
        chunk_span *s = nk_realloc(run->spans, cap * sizeof *s);
        if (s == NULL)
            return false;
        run->spans = s;
        run->cap_spans = cap;
    }
    chunk_span *c = &run->spans[run->n_spans++];
    c->addr = addr;
    c->size = size;
    snprintf(c->what, sizeof c->what, "%s", what);
    return true;
}

static int span_cmp(const void *a, const void *b)
{
    const chunk_span *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* No two chunks share a byte of the file. The 1.8 format's chunk indexes
 * carry no checksum: a flipped bit in a chunk's address can lead to a
 * chunk of another dataset of the same size, whose own checksum holds. */
static nk_status check_spans(nk_run *run, char *err, size_t len)
{
    qsort(run->spans, run->n_spans, sizeof *run->spans, span_cmp);
    for (size_t i = 1; i < run->n_spans; i++) {
        const chunk_span *a = &run->spans[i - 1], *b = &run->spans[i];
        if (b->addr < a->addr + a->size)
            return damaged(run->path, err, len, "a chunk of %s and one of %s "
                           "lie on the same bytes", a->what, b->what);
    }
    return NK_OK;
}

/* Before a handle writes to a file, reads every complete row and the
 * checkpoint: the data's checksums and the chunk indexes that lead to them
 * are checked, so that an append never builds on damaged structures (HDF5
 * does not check them when it writes, and can crash on them).  Memory: one
 * generation of one dataset, or BENCH_CHUNK table rows, at a time. */
static nk_status verify_data(nk_run *run, char *err, size_t len)
{
    size_t row_max = 8 * run->meta.n * (run->meta.d > 2 ? run->meta.d : 2);
    for (int i = 0; i < T_COUNT; i++)
        if (run->tab[i].size * STATS_CHUNK > row_max)
            row_max = run->tab[i].size * STATS_CHUNK;
    void *buf = nk_malloc(row_max);
    run->cap_spans = 64;
    run->n_spans = 0;
    run->spans = nk_malloc(run->cap_spans * sizeof *run->spans);
    if (buf == NULL || run->spans == NULL) {
        nk_free(buf);
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    }
    nk_status st = NK_OK;
    for (int i = 0; st == NK_OK && i < P_COUNT; i++) {
        if (run->pop[i] < 0)
            continue;
        bool made;
        hid_t mt = code_type(pop_desc[i].type, false, &made);
        for (size_t g = 0; st == NK_OK && g < run->gens; g++)
            st = get_rows(run, run->pop[i], pop_desc[i].path, g, 1, mt, buf,
                          err, len);
    }
    for (int i = 0; st == NK_OK && i < T_COUNT; i++) {
        const table *t = &run->tab[i];
        size_t rows = i == T_GAMES ? run->games_rows
                      : i == T_BENCH ? run->bench_rows : run->gens;
        if (t->ds < 0)
            continue;
        for (size_t r = 0; st == NK_OK && r < rows; r += STATS_CHUNK) {
            size_t n = rows - r < STATS_CHUNK ? rows - r : STATS_CHUNK;
            st = get_rows(run, t->ds, t->path, r, n, t->mem, buf, err, len);
        }
    }
    nk_free(buf);
    for (size_t b = 0; st == NK_OK && b < run->n_blobs; b++) {
        hid_t ds;
        nk_run_kind kind;
        size_t count;
        st = open_blob(run, run->blob_names[b], &ds, &kind, &count, err, len);
        if (st == NK_EINVAL) /* a name the writer would not have given */
            st = damaged(run->path, err, len, "bad checkpoint name '%s'",
                         run->blob_names[b]);
        if (st != NK_OK)
            break;
        char what[128];
        snprintf(what, sizeof what, "checkpoint '%s'", run->blob_names[b]);
        void *data = NULL;
        if (count > 0)
            st = check_chunks(run, ds, what, 1, 0, count, err, len);
        if (st == NK_OK && count > 0) {
            data = nk_malloc(count * (kind == NK_RUN_F64 ? 8 : 1));
            if (data == NULL)
                st = nk_fail(NK_ENOMEM, err, len, "out of memory");
            else if (H5Dread(ds, kind == NK_RUN_F64 ? H5T_NATIVE_DOUBLE
                                                    : H5T_NATIVE_UINT8,
                             H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
                st = read_failed(run, what, err, len);
        }
        nk_free(data);
        H5Dclose(ds);
    }
    if (st == NK_OK)
        st = check_spans(run, err, len);
    nk_free(run->spans);
    run->spans = NULL;
    run->n_spans = run->cap_spans = 0;
    return st;
}

static herr_t visit_none(hid_t obj, const char *name, const H5O_info_t *info,
                         void *data)
{
    (void)obj, (void)name, (void)info, (void)data;
    return 0;
}

/* Walks every object of the file with all of its information (headers,
 * attribute storage, chunk indexes, link storage): in a checked file, a
 * damaged structure anywhere fails a checksum here, even one that this
 * reader would not otherwise touch. */
static nk_status walk_objects(nk_run *run, char *err, size_t len)
{
    if (H5Ovisit2(run->file, H5_INDEX_NAME, H5_ITER_NATIVE, visit_none, NULL,
                  H5O_INFO_ALL) < 0) {
        why w = h5_why();
        return damaged(run->path, err, len, "%s", w.text);
    }
    return NK_OK;
}

/* The message of a failed H5Fopen: the system's reason (a lock, a
 * permission) or HDF5's (a file that ends too early, bad metadata). */
static nk_status open_failed(const char *path, const why *w, char *err,
                             size_t len)
{
    if (w->lock)
        return nk_fail(NK_EIO, err, len, "cannot open '%s': another process "
                       "holds a lock on it (%s)", path, w->text);
    if (w->os)
        return nk_fail(NK_EIO, err, len, "cannot open '%s': %s", path,
                       w->text);
    return damaged(path, err, len, "%s", w->text);
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

nk_status nk_run_open(nk_run **out, const char *path, bool writable,
                      char *err, size_t len)
{
    *out = NULL;
    quiet();
    /* A file given to read that cannot be opened is bad input
     * (NK_ENOFILE); one to write keeps NK_EIO. */
    nk_status cannot = writable ? NK_EIO : NK_ENOFILE;
    struct stat sb;
    if (stat(path, &sb) != 0)
        return nk_fail(cannot, err, len, "cannot open '%s': %s", path,
                       strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return nk_fail(cannot, err, len, "cannot open '%s': not a regular "
                       "file", path);
    int fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd < 0)
        return nk_fail(cannot, err, len, "cannot open '%s': %s", path,
                       strerror(errno));
    unsigned char head[9];
    ssize_t got = read(fd, head, sizeof head);
    close(fd);
    if (got == (ssize_t)sizeof head && memcmp(head, HDF5_SIGNATURE, 8) == 0 &&
        head[8] < 2 && !old_format_allowed())
        return not_run(path, err, len, "its HDF5 format (superblock v%u) "
                       "has no checksums; if it is a run file of nickar's "
                       "old format, set NICKAR_READ_OLD_FORMAT=1 to read it",
                       (unsigned)head[8]);
    htri_t is = H5Fis_hdf5(path);
    if (is <= 0) {
        why w = h5_why();
        if (is < 0 && w.os)
            return open_failed(path, &w, err, len);
        return not_run(path, err, len, "not an HDF5 file");
    }
    nk_run *run = run_alloc(path);
    if (run == NULL || !tables_init(run)) {
        nk_run_close(run);
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    }
    run->file_size = (uint64_t)sb.st_size;
    hid_t fapl = file_access();
    /* A reader does not lock the file, so that `nickar inspect` and run-file
     * weights work on a run in progress (its writer holds the lock). */
    if (fapl >= 0 && !writable)
        H5Pset_file_locking(fapl, 0, 1);
    run->file = H5Fopen(path, writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, fapl);
    why w = h5_why(); /* before H5Pclose clears the error stack */
    H5Pclose(fapl);
    if (run->file < 0) {
        nk_run_close(run);
        return open_failed(path, &w, err, len);
    }
    run->writable = writable;
    H5F_info2_t info;
    run->checked = H5Fget_info2(run->file, &info) >= 0 &&
                   info.super.version >= 2;
    H5Eclear2(H5E_DEFAULT);
    /* New objects of a checked file (the checkpoints an append writes) have
     * checksums too; an old file stays as it was. */
    if (run->checked && writable &&
        H5Fset_libver_bounds(run->file, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0) {
        why w2 = h5_why();
        nk_run_close(run);
        return nk_fail(NK_EIO, err, len, "cannot open '%s': %s", path,
                       w2.text);
    }
    nk_status st = run->checked ? walk_objects(run, err, len) : NK_OK;
    if (st == NK_OK)
        st = read_root_attrs(run, err, len);
    if (st == NK_OK)
        st = read_features(run, err, len);
    if (st == NK_OK)
        st = open_population(run, err, len);
    if (st == NK_OK)
        st = open_tables(run, err, len);
    if (st == NK_OK)
        st = open_checkpoint(run, err, len);
    if (st == NK_OK)
        st = check_lengths(run, err, len);
    if (st == NK_OK && writable)
        st = verify_data(run, err, len);
    if (st != NK_OK) {
        nk_run_close(run);
        return st;
    }
    meta_link(run);
    if (writable)
        run->fd = open(path, O_WRONLY | O_CLOEXEC);
    *out = run;
    return NK_OK;
}

/* ===================================================================
 * Appending
 * =================================================================== */

static bool blob_name_ok(const char *name)
{
    size_t n = name != NULL ? strlen(name) : 0;
    if (n < 1 || n > NK_RUN_BLOB_NAME_MAX || name[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
            return false;
    }
    return true;
}

static nk_status check_rows(const nk_run *run, const nk_run_gen *gen,
                            int32_t g, char *err, size_t len)
{
    if (gen->n_games > 0 && !run->meta.record_games)
        return nk_fail(NK_EINVAL, err, len,
                       "'%s' does not record games", run->path);
    if ((gen->n_games > 0 && gen->games == NULL) ||
        (gen->n_bench > 0 && gen->bench == NULL))
        return nk_fail(NK_EINVAL, err, len, "game or benchmark rows missing");
    for (size_t i = 0; i < gen->n_games; i++) {
        const nk_run_game *r = &gen->games[i];
        if (r->generation != g)
            return nk_fail(NK_EINVAL, err, len, "game %zu has generation %d, "
                           "not %d", i, (int)r->generation, (int)g);
        if (r->winner < 0 || r->winner > 2)
            return nk_fail(NK_EINVAL, err, len, "game %zu has winner %d",
                           i, (int)r->winner);
    }
    for (size_t i = 0; i < gen->n_bench; i++) {
        const nk_run_bench *r = &gen->bench[i];
        if (r->generation != g)
            return nk_fail(NK_EINVAL, err, len, "benchmark row %zu has "
                           "generation %d, not %d", i, (int)r->generation,
                           (int)g);
        if (memchr(r->opponent, '\0', sizeof r->opponent) == NULL)
            return nk_fail(NK_EINVAL, err, len, "benchmark row %zu: the "
                           "opponent is longer than %d bytes", i,
                           NK_RUN_OPPONENT_LEN - 1);
        if (!(r->score >= 0.0 && r->score <= 1.0))
            return nk_fail(NK_ERANGE, err, len, "benchmark row %zu: score "
                           "%g is not in [0, 1]", i, r->score);
    }
    return NK_OK;
}

static nk_status check_gen(const nk_run *run, const nk_run_gen *gen,
                           char *err, size_t len)
{
    if (run->gens >= INT32_MAX)
        return nk_fail(NK_ERANGE, err, len, "too many generations");
    int32_t g = (int32_t)run->gens;
    if (gen->genome == NULL || gen->fitness == NULL || gen->wins == NULL ||
        gen->draws == NULL || gen->losses == NULL || gen->ids == NULL ||
        gen->parents == NULL)
        return nk_fail(NK_EINVAL, err, len, "population data missing");
    if ((gen->sigma != NULL) != run->meta.has_sigma)
        return nk_fail(NK_EINVAL, err, len, run->meta.has_sigma
                       ? "'%s' needs step sizes (sigma)"
                       : "'%s' has no step sizes (sigma)", run->path);
    if (gen->stats.generation != g)
        return nk_fail(NK_EINVAL, err, len, "the stats row has generation "
                       "%d, not %d", (int)gen->stats.generation, (int)g);
    nk_status st = check_rows(run, gen, g, err, len);
    if (st != NK_OK)
        return st;
    if (gen->n_blobs > 0 && gen->blobs == NULL)
        return nk_fail(NK_EINVAL, err, len, "checkpoint data missing");
    for (size_t i = 0; i < gen->n_blobs; i++) {
        const nk_run_blob *b = &gen->blobs[i];
        if (!blob_name_ok(b->name))
            return nk_fail(NK_EINVAL, err, len, "bad checkpoint name '%s'",
                           b->name != NULL ? b->name : "");
        if (b->kind != NK_RUN_F64 && b->kind != NK_RUN_U8)
            return nk_fail(NK_EINVAL, err, len, "checkpoint '%s' has an "
                           "unknown kind", b->name);
        if (b->count > 0 && b->data == NULL)
            return nk_fail(NK_EINVAL, err, len, "checkpoint '%s' has no "
                           "data", b->name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(gen->blobs[j].name, b->name) == 0)
                return nk_fail(NK_EINVAL, err, len, "checkpoint '%s' given "
                               "twice", b->name);
    }
    return NK_OK;
}

/* The bytes one generation adds, roughly (for the space reservation). */
static size_t gen_bytes(const nk_run *run, const nk_run_gen *gen)
{
    size_t n = run->meta.n, d = run->meta.d;
    size_t bytes = n * d * 8 * (run->meta.has_sigma ? 2 : 1) + n * 52 +
                   sizeof(nk_run_stats) + gen->n_games * sizeof(nk_run_game) +
                   gen->n_bench * sizeof(nk_run_bench);
    for (size_t i = 0; i < gen->n_blobs; i++)
        bytes += gen->blobs[i].count * (gen->blobs[i].kind == NK_RUN_F64
                                            ? 8 : 1);
    return bytes;
}

/* Cuts the datasets back to the committed rows and tidies the checkpoint
 * group (no flush). */
static bool repair(nk_run *run, bool *changed)
{
    if (run->ckpt_pending) {
        if (!may_write(run, CKPT) ||
            !ok(run, CKPT, H5Lmove(run->file, CKPT_NEW, run->file, CKPT,
                                   H5P_DEFAULT, H5P_DEFAULT)))
            return false;
        run->ckpt_pending = false;
        *changed = true;
    } else if (run->ckpt_stale) {
        if (!may_write(run, CKPT_NEW) ||
            !ok(run, CKPT_NEW, H5Ldelete(run->file, CKPT_NEW, H5P_DEFAULT)))
            return false;
        run->ckpt_stale = false;
        *changed = true;
    }
    for (int i = 0; i < P_COUNT; i++)
        if (run->pop[i] >= 0 &&
            !shrink(run, run->pop[i], pop_desc[i].path, run->gens, changed))
            return false;
    const hsize_t rows[T_COUNT] = {run->gens, run->games_rows,
                                   run->bench_rows};
    for (int i = 0; i < T_COUNT; i++)
        if (run->tab[i].ds >= 0 &&
            !shrink(run, run->tab[i].ds, run->tab[i].path, rows[i], changed))
            return false;
    run->needs_repair = false;
    return true;
}

static bool put_population(nk_run *run, const nk_run_gen *gen)
{
    const void *data[P_COUNT] = {
        [P_GENOME] = gen->genome, [P_SIGMA] = gen->sigma,
        [P_FITNESS] = gen->fitness, [P_WINS] = gen->wins,
        [P_DRAWS] = gen->draws, [P_LOSSES] = gen->losses,
        [P_ID] = gen->ids, [P_PARENTS] = gen->parents};
    for (int i = 0; i < P_COUNT; i++) {
        if (run->pop[i] < 0)
            continue;
        bool made;
        hid_t mt = code_type(pop_desc[i].type, false, &made);
        if (!put_rows(run, run->pop[i], pop_desc[i].path, run->gens, 1, mt,
                      data[i]))
            return false;
    }
    return true;
}

static bool put_blob(nk_run *run, hid_t g, const nk_run_blob *b)
{
    char what[128];
    snprintf(what, sizeof what, CKPT "/%s", b->name);
    hsize_t dims[1] = {b->count};
    bool f64 = b->kind == NK_RUN_F64;
    if (!may_write(run, what))
        return false;
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    bool good = ok(run, what, dcpl);
    if (good && run->checked && b->count > 0)
        good = ok(run, what, H5Pset_chunk(dcpl, 1, dims)) &&
               ok(run, what, H5Pset_fletcher32(dcpl));
    hid_t ds = space < 0 || !good ? H5I_INVALID_HID
               : H5Dcreate2(g, b->name, f64 ? H5T_IEEE_F64LE : H5T_STD_U8LE,
                            space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    good = good && ok(run, what, ds);
    if (good && b->count > 0)
        good = may_write(run, what) &&
               ok(run, what, H5Dwrite(ds, f64 ? H5T_NATIVE_DOUBLE
                                              : H5T_NATIVE_UINT8,
                                      H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                      b->data));
    if (ds >= 0)
        H5Dclose(ds);
    if (space >= 0)
        H5Sclose(space);
    return good;
}

/* Writes the new checkpoint as CKPT_NEW, then commits it: deletes CKPT
 * (the commit point) and renames CKPT_NEW to CKPT. */
static bool put_checkpoint(nk_run *run, const nk_run_gen *gen)
{
    if (!may_write(run, CKPT_NEW))
        return false;
    hid_t g = H5Gcreate2(run->file, CKPT_NEW, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    if (!ok(run, CKPT_NEW, g))
        return false;
    bool good = true;
    for (size_t i = 0; good && i < gen->n_blobs; i++)
        good = put_blob(run, g, &gen->blobs[i]);
    good = good && put_ckpt_attrs(run, g, (int32_t)run->gens,
                                  (int64_t)(run->games_rows + gen->n_games),
                                  (int64_t)(run->bench_rows + gen->n_bench));
    H5Gclose(g);
    return good && may_write(run, CKPT) &&
           ok(run, CKPT, H5Ldelete(run->file, CKPT, H5P_DEFAULT)) &&
           may_write(run, CKPT) &&
           ok(run, CKPT, H5Lmove(run->file, CKPT_NEW, run->file, CKPT,
                                 H5P_DEFAULT, H5P_DEFAULT));
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
        free_names(names, gen->n_blobs);
        return NULL;
    }
    qsort(names, gen->n_blobs, sizeof *names, cmp_names);
    return names;
}

nk_status nk_run_append_generation(nk_run *run, const nk_run_gen *gen,
                                   char *err, size_t len)
{
    if (!run->writable)
        return nk_fail(NK_EINVAL, err, len, "'%s' is open read-only",
                       run->path);
    if (run->broken)
        return nk_fail(NK_EIO, err, len, "'%s': a write failed earlier; "
                       "open the file again to continue", run->path);
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
        free_names(names, gen->n_blobs);
        return nk_fail(NK_EIO, err, len, "writing '%s' failed at generation "
                       "%zu: cannot reserve %zu bytes: %s", run->path, g,
                       2 * bytes + RESERVE_BASE, strerror(e));
    }
    bool changed = false;
    bool good = (!run->needs_repair || repair(run, &changed)) &&
                put_population(run, gen) &&
                (run->tab[T_GAMES].ds < 0 ||
                 put_rows(run, run->tab[T_GAMES].ds, "/games",
                          run->games_rows, gen->n_games, run->tab[T_GAMES].mem,
                          gen->games)) &&
                put_rows(run, run->tab[T_BENCH].ds, "/benchmark",
                         run->bench_rows, gen->n_bench, run->tab[T_BENCH].mem,
                         gen->bench) &&
                put_rows(run, run->tab[T_STATS].ds, "/stats", g, 1,
                         run->tab[T_STATS].mem, &gen->stats) &&
                put_checkpoint(run, gen) && flush(run, false);
    if (!good) {
        free_names(names, gen->n_blobs);
        run->broken = true;
        return nk_fail(NK_EIO, err, len, "writing '%s' failed at generation "
                       "%zu: %s: %s", run->path, g, run->fail_what,
                       run->fail_why);
    }
    free_names(run->blob_names, run->n_blobs);
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
        return nk_fail(NK_EINVAL, err, len, "'%s' is open read-only",
                       run->path);
    if (run->broken)
        return nk_fail(NK_EIO, err, len, "'%s': a write failed earlier; "
                       "open the file again to continue", run->path);
    if (!run->needs_repair)
        return NK_OK;
    int e = reserve(run, RESERVE_BASE);
    if (e != 0)
        return nk_fail(NK_EIO, err, len, "truncating '%s' failed: cannot "
                       "reserve %d bytes: %s", run->path, RESERVE_BASE,
                       strerror(e));
    if (!repair(run, &changed) || !flush(run, true)) {
        run->broken = true;
        return nk_fail(NK_EIO, err, len, "truncating '%s' failed: %s: %s",
                       run->path, run->fail_what, run->fail_why);
    }
    if (dropped != NULL)
        *dropped = changed;
    return NK_OK;
}

/* ===================================================================
 * Reading
 * =================================================================== */

/* Every chunk that holds rows [first, first + count) of ds (rank dims) is
 * in the file, within its size, with its checksum filter applied: a damaged
 * chunk index (unchecked in the 1.8 format) could otherwise make HDF5 read
 * a missing chunk as fill values, or skip the checksum, without an error.
 * An unchunked dataset passes. */
static nk_status check_chunks(nk_run *run, hid_t ds, const char *what,
                              int rank, hsize_t first, hsize_t count,
                              char *err, size_t len)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0)
        return read_failed(run, what, err, len);
    hsize_t cdims[3] = {1, 1, 1};
    unsigned checksum_bit = 0;
    bool packed = false; /* a filter that changes the size (deflate, ...) */
    bool chunked = H5Pget_layout(dcpl) == H5D_CHUNKED &&
                   H5Pget_chunk(dcpl, 3, cdims) == rank && cdims[0] > 0;
    int nf = chunked ? H5Pget_nfilters(dcpl) : 0;
    for (int i = 0; i < nf && i < 32; i++) {
        unsigned flags, conf[8];
        size_t nconf = 8;
        char name[64];
        H5Z_filter_t f = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nconf,
                                        conf, sizeof name, name, NULL);
        if (f == H5Z_FILTER_FLETCHER32)
            checksum_bit = 1u << i;
        else if (f != H5Z_FILTER_SHUFFLE)
            packed = true;
    }
    H5Pclose(dcpl);
    H5Eclear2(H5E_DEFAULT);
    if (!chunked)
        return NK_OK;
    /* HDF5 allocates a whole chunk to read one: its size, from the (unchecked)
     * layout, must fit in the file like the chunk itself. */
    hid_t t = H5Dget_type(ds);
    hsize_t bytes = t >= 0 ? H5Tget_size(t) : 0;
    if (t >= 0)
        H5Tclose(t);
    for (int d = 0; d < rank && bytes > 0 && bytes <= run->file_size; d++)
        bytes = cdims[d] > 0 && bytes <= run->file_size / cdims[d] ? bytes * cdims[d]
                                                                   : run->file_size + 1;
    if (bytes == 0 || bytes > run->file_size)
        return damaged(run->path, err, len, "%s: its chunks are larger than the file",
                       what);
    for (hsize_t k = first / cdims[0]; k <= (first + count - 1) / cdims[0];
         k++) {
        hsize_t offset[3] = {k * cdims[0], 0, 0};
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        hsize_t size = 0;
        hsize_t found = 0; /* by the lookup that reading uses */
        if (H5Dget_chunk_info_by_coord(ds, offset, &mask, &addr, &size) < 0 ||
            H5Dget_chunk_storage_size(ds, offset, &found) < 0)
            return read_failed(run, what, err, len);
        /* The stored size, which HDF5 1.10 trusts when it copies a chunk
         * out of its filter buffer, is exact where no filter packs the
         * data (the chunk and its 4-byte checksum), and bounded by
         * deflate's worst case where one does. */
        hsize_t stored = bytes + (checksum_bit != 0 ? 4 : 0);
        bool size_fits = packed ? size <= stored + stored / 1000 + 64
                                : size == stored;
        if (addr == HADDR_UNDEF || size == 0 || found != size || !size_fits ||
            addr > run->file_size ||
            size > run->file_size - addr || (mask & checksum_bit) != 0)
            return damaged(run->path, err, len, "%s: chunk %llu is missing "
                           "or out of place", what, (unsigned long long)k);
        if (run->spans != NULL && !note_span(run, addr, size, what))
            return nk_fail(NK_ENOMEM, err, len, "out of memory");
    }
    return NK_OK;
}

/* Reads rows [first, first + count) of ds (all of the other dimensions). */
static nk_status get_rows(nk_run *run, hid_t ds, const char *what,
                          hsize_t first, hsize_t count, hid_t mtype,
                          void *buf, char *err, size_t len)
{
    if (count == 0)
        return NK_OK;
    hsize_t dims[3] = {0, 1, 1};
    hid_t space = H5Dget_space(ds);
    int rank = space >= 0 ? H5Sget_simple_extent_dims(space, dims, NULL) : -1;
    hsize_t start[3] = {first, 0, 0};
    hsize_t n[3] = {count, dims[1], dims[2]};
    if (rank > 0) {
        nk_status cst = check_chunks(run, ds, what, rank, first, count, err,
                                     len);
        if (cst != NK_OK) {
            H5Sclose(space);
            return cst;
        }
    }
    hid_t mem = rank > 0 ? H5Screate_simple(rank, n, NULL) : H5I_INVALID_HID;
    bool good = mem >= 0 &&
                H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, n,
                                    NULL) >= 0 &&
                H5Dread(ds, mtype, mem, space, H5P_DEFAULT, buf) >= 0;
    nk_status st = good ? NK_OK : read_failed(run, what, err, len);
    if (mem >= 0)
        H5Sclose(mem);
    if (space >= 0)
        H5Sclose(space);
    return st;
}

nk_status nk_run_read_population(nk_run *run, size_t g, const nk_run_pop *pop,
                                 char *err, size_t len)
{
    if (g >= run->gens)
        return nk_fail(NK_ERANGE, err, len, "'%s' has no generation %zu "
                       "(%zu complete)", run->path, g, run->gens);
    if (pop->sigma != NULL && !run->meta.has_sigma)
        return nk_fail(NK_EINVAL, err, len, "'%s' has no step sizes (sigma)",
                       run->path);
    void *data[P_COUNT] = {
        [P_GENOME] = pop->genome, [P_SIGMA] = pop->sigma,
        [P_FITNESS] = pop->fitness, [P_WINS] = pop->wins,
        [P_DRAWS] = pop->draws, [P_LOSSES] = pop->losses,
        [P_ID] = pop->ids, [P_PARENTS] = pop->parents};
    for (int i = 0; i < P_COUNT; i++) {
        if (data[i] == NULL)
            continue;
        bool made;
        hid_t mt = code_type(pop_desc[i].type, false, &made);
        nk_status st = get_rows(run, run->pop[i], pop_desc[i].path, g, 1, mt,
                                data[i], err, len);
        if (st != NK_OK)
            return st;
    }
    return NK_OK;
}

static nk_status read_table(nk_run *run, int which, size_t rows,
                            size_t first, size_t count, void *out,
                            char *err, size_t len)
{
    const table *t = &run->tab[which];
    if (first > rows || count > rows - first)
        return nk_fail(NK_ERANGE, err, len, "'%s': rows %zu..%zu of %s do "
                       "not exist (%zu complete)", run->path, first,
                       first + count, t->path, rows);
    if (count > 0)
        memset(out, 0, count * t->size); /* members the file lacks are 0 */
    return get_rows(run, t->ds, t->path, first, count, t->mem, out, err, len);
}

nk_status nk_run_read_stats(nk_run *run, size_t first, size_t count,
                            nk_run_stats *rows, char *err, size_t len)
{
    return read_table(run, T_STATS, run->gens, first, count, rows, err, len);
}

nk_status nk_run_read_games(nk_run *run, size_t first, size_t count,
                            nk_run_game *rows, char *err, size_t len)
{
    return read_table(run, T_GAMES, run->games_rows, first, count, rows, err,
                      len);
}

nk_status nk_run_read_benchmark(nk_run *run, size_t first, size_t count,
                                nk_run_bench *rows, char *err, size_t len)
{
    return read_table(run, T_BENCH, run->bench_rows, first, count, rows, err,
                      len);
}

/* Opens checkpoint dataset name and finds its kind and length. */
static nk_status open_blob(nk_run *run, const char *name, hid_t *out,
                           nk_run_kind *kind, size_t *count,
                           char *err, size_t len)
{
    *out = H5I_INVALID_HID;
    if (!blob_name_ok(name))
        return nk_fail(NK_EINVAL, err, len, "bad checkpoint name '%s'",
                       name != NULL ? name : "");
    char path[128];
    snprintf(path, sizeof path, "%s/%s", ckpt(run), name);
    if (!exists(run->file, path))
        return nk_fail(NK_EFORMAT, err, len, "'%s' has no checkpoint '%s'",
                       run->path, name);
    hid_t ds = H5Dopen2(run->file, path, H5P_DEFAULT);
    if (ds < 0)
        return nk_fail(NK_EFORMAT, err, len, "'%s': checkpoint '%s' is not a "
                       "dataset", run->path, name);
    hid_t t = H5Dget_type(ds), space = H5Dget_space(ds);
    hsize_t n = 0;
    int rank = space >= 0 ? H5Sget_simple_extent_dims(space, &n, NULL) : -1;
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
        return nk_fail(NK_EFORMAT, err, len, "'%s': checkpoint '%s' is not "
                       "a 1-D float64 or uint8 array", run->path, name);
    }
    if (n > run->file_size / size) { /* uncompressed: it lies in the file */
        H5Dclose(ds);
        return damaged(run->path, err, len, "checkpoint '%s' claims %llu "
                       "values in a file of %llu bytes", name,
                       (unsigned long long)n,
                       (unsigned long long)run->file_size);
    }
    *out = ds;
    *kind = f64 ? NK_RUN_F64 : NK_RUN_U8;
    *count = (size_t)n;
    return NK_OK;
}

nk_status nk_run_checkpoint_info(nk_run *run, const char *name,
                                 nk_run_kind *kind, size_t *count,
                                 char *err, size_t len)
{
    hid_t ds;
    nk_status st = open_blob(run, name, &ds, kind, count, err, len);
    if (st == NK_OK)
        H5Dclose(ds);
    return st;
}

nk_status nk_run_read_checkpoint(nk_run *run, const char *name,
                                 nk_run_kind kind, void *buf, size_t count,
                                 char *err, size_t len)
{
    static const char *const kind_name[] = {"float64", "uint8"};
    hid_t ds;
    nk_run_kind k;
    size_t n;
    nk_status st = open_blob(run, name, &ds, &k, &n, err, len);
    if (st != NK_OK)
        return st;
    if (k != kind || n != count) {
        H5Dclose(ds);
        return nk_fail(NK_EFORMAT, err, len, "'%s': checkpoint '%s' holds "
                       "%zu %s values, not %zu %s", run->path, name, n,
                       kind_name[k], count,
                       kind == NK_RUN_U8 ? kind_name[1] : kind_name[0]);
    }
    char what[128];
    snprintf(what, sizeof what, "checkpoint '%s'", name);
    if (n > 0 && (st = check_chunks(run, ds, what, 1, 0, n, err, len)) != NK_OK) {
        H5Dclose(ds);
        return st;
    }
    if (n > 0 && H5Dread(ds, k == NK_RUN_F64 ? H5T_NATIVE_DOUBLE
                                             : H5T_NATIVE_UINT8,
                         H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        st = read_failed(run, what, err, len);
    }
    H5Dclose(ds);
    return st;
}
