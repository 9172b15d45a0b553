/*
 * runfile_internal.h -- what the parts of the run file share (private to
 * src/io/runfile*.c): the handle, the layout of the datasets and tables,
 * and the digests.
 *
 * The parts, by concern:
 *   runfile.c         the handle, the types of the tables, the digests
 *   runfile_create.c  nk_run_create: a new file
 *   runfile_read.c    nk_run_open and the reads
 *   runfile_verify.c  before a write: every complete row read and checked
 *   runfile_append.c  nk_run_append_generation, nk_run_truncate
 *
 * What a handle keeps true:
 *
 * - gens, games_rows and bench_rows are those of the committed checkpoint
 *   (ckpt, normally "/checkpoint"; "/checkpoint.new" when a crash came
 *   between deleting the old group and renaming the new one).  Every
 *   dataset holds at least that many rows (checked on open); it may hold
 *   more after a crash, which needs_repair records and repair() undoes.
 * - Every write of an append or a truncation goes through the handle's
 *   writer w (io/h5.h: the test hook, and the first failure with the
 *   object and the reason), so that a failure anywhere gives one message.
 * - w.ok false: a write failed after the file was touched; the handle
 *   writes no more (its HDF5 state is no longer the file's), reads still
 *   work.
 * - Every read goes through the handle's reader r (io/h5.h), whose checks
 *   bound every size by the file's size (r.file_size, which grows with
 *   the handle's own flushes).
 *
 * Memory and file types are separate: the structs of runfile.h are read
 * and written through native compound types built from offsetof, the file
 * holds packed little-endian ones, so that files do not depend on the
 * writer's padding.
 */
#ifndef NK_IO_RUNFILE_INTERNAL_H
#define NK_IO_RUNFILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/h5.h"
#include "io/runfile.h"

#ifndef NICKAR_VERSION
#define NICKAR_VERSION "unknown"
#endif

#define CKPT "/checkpoint"
#define CKPT_NEW "/checkpoint.new"

enum {
    STATS_CHUNK = 256,     /* rows per chunk of /stats */
    GAMES_CHUNK = 256,     /* rows per chunk of /games (1024 before; the
                              partly filled last chunk is compressed again
                              at every flush) */
    BENCH_CHUNK = 256,     /* rows per chunk of /benchmark */
    RESERVE_BASE = 1 << 20 /* bytes reserved beyond twice the data */
};

/* The population datasets, in the order they are written. */
enum pop_field {
    P_GENOME,
    P_SIGMA,
    P_FITNESS,
    P_WINS,
    P_DRAWS,
    P_LOSSES,
    P_ID,
    P_PARENTS,
    P_COUNT
};

/* Element codes of datasets and compound members. */
typedef enum code { C_I8, C_I16, C_I32, C_I64, C_U64, C_F64, C_STR64 } code;

typedef struct pop_desc {
    const char *path;
    code type;
    int rank;  /* [G, N] or [G, N, width] */
    int width; /* 0: D */
} pop_desc_t;
extern const pop_desc_t nk_run_pop_desc[P_COUNT];

typedef struct member {
    const char *name;
    size_t offset;
    code type;
    bool optional;   /* absent from older files (then read as 0) */
    bool undigested; /* left out of the rows digest: a wall-clock time, or
                        the digest itself */
} member;

/* A compound table: its dataset, members and the two types. */
typedef struct table {
    const char *path;
    const member *members;
    size_t count, size;  /* count: the members this file has (a prefix) */
    hid_t ds, mem, file; /* ds: H5I_INVALID_HID when absent */
} table;

enum { T_STATS, T_GAMES, T_BENCH, T_COUNT };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct nk_run {
    hid_t file;
    char *path;
    int fd; /* for reserving space; -1 when read-only */
    bool writable, needs_repair;
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
    nk_h5w w; /* the writer; w.checksums: superblock v2 or later, so
                 metadata checksums and fletcher32 on new datasets */
    nk_h5r r; /* the reader */
};

/* The names of the root's text attributes, in the order of text[]. */
extern const char *const nk_run_text_attr[6];

/* runfile.c: types and tables */
size_t nk_run_code_size(code c);
H5T_class_t nk_run_code_class(code c);
hid_t nk_run_code_type(code c, bool file, bool *made);
hid_t nk_run_compound(const table *t, bool file);
bool nk_run_tables_init(nk_run *run);
/* runfile.c: the handle */
nk_run *nk_run_alloc(const char *path);
void nk_run_meta_link(nk_run *run);
void nk_run_free_names(char **names, size_t n);
int nk_run_cmp_names(const void *a, const void *b);
bool nk_run_blob_name_ok(const char *name);
uint64_t nk_run_text_checksum(const char *text);
/* runfile.c: digests (see "Digests" there) */
#define FNV_BASIS 14695981039346656037ULL
uint64_t nk_run_digest_values(uint64_t h, code c, const void *p, size_t count);
uint64_t nk_run_digest_row(uint64_t h, const table *t, const void *row);
size_t nk_run_pop_row_values(const nk_run *run, int i);
bool nk_run_has_digest(const table *stats);
/* Whether they carry the benchmark grade's intervals (the members after
 * rows_digest), and the count of the members without them. */
bool nk_run_has_tb_intervals(const table *stats);
size_t nk_run_stats_without_intervals(void);
/* Keeps the first count members of a table (its types made again); false
 * when out of memory. */
bool nk_run_table_trim(table *t, size_t count);
/* runfile.c: the access of the population datasets (no chunk cache) */
hid_t nk_run_uncached_access(void);
/* runfile_create.c: the attributes of a checkpoint group */
bool nk_run_put_ckpt_attrs(nk_run *run, hid_t g, int32_t gen, int64_t games, int64_t bench);
/* runfile_read.c: opens checkpoint dataset name (its kind and length) */
nk_status nk_run_open_blob(nk_run *run, const char *name, hid_t *out, nk_run_kind *kind,
                           size_t *count);
/* runfile_verify.c: before a handle writes, every complete row read and
 * compared with its generation's digest, the checkpoint read */
nk_status nk_run_verify(nk_run *run);
/* runfile_append.c: flushes (and syncs) the file */
bool nk_run_flush(nk_run *run, bool sync);

#endif
