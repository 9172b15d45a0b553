/*
 * runfile.h -- the run file of `nickar evolve`: one HDF5 file per run.
 *
 * The file describes itself (schema_version 1) and reads with h5py:
 *
 *   /                   attrs nickar_version, schema_version (int32, 1),
 *                       created (ISO 8601 text), variant, master_seed
 *                       (uint64), config (resolved INI text), threads,
 *                       mpi_ranks (int32), feature_set, strategy; the text
 *                       attributes are fixed-length UTF-8 strings (older
 *                       files: variable-length, read too)
 *   /features           [D] names of the evaluation features (fixed-length
 *                       UTF-8, one chunk; variable-length ones are read)
 *   /population/genome  [G, N, D] float64, extendible along G, one chunk
 *                       [1, N, D] per generation
 *   /population/sigma   [G, N, D] float64, only in runs with step sizes
 *                       (float32 in the compact layout, below)
 *   /population/fitness [G, N] float64
 *   /population/wins, draws, losses [G, N] int32
 *   /population/id      [G, N] int64, unique individual ids
 *   /population/parents [G, N, 2] int64, -1 where none
 *   /stats              [G] compound (nk_run_stats)
 *   /games              [M] compound (nk_run_game), only in runs that
 *                       record games; attrs winner_names, reason_names
 *                       (the text of each code)
 *   /benchmark          [B] compound (nk_run_bench; opponent is a 64-byte
 *                       NUL-terminated string)
 *   /checkpoint         group: attrs generation (int32, the last complete
 *                       generation, -1 before the first), games_rows and
 *                       benchmark_rows (int64, the rows of /games and
 *                       /benchmark that belong to complete generations);
 *                       1-D datasets of raw data for exact resume (float64
 *                       or uint8), named by the caller
 *
 * Large genomes.  A run whose genome has thousands of weights (an
 * evaluation family, search/eval.h) sets meta.compact: /population/genome
 * and /population/sigma are then shuffled and deflated (chunks [1, N, D]
 * as always), and sigma is stored as float32 (written rounded to float,
 * and its digest taken over the rounded numbers, so that verify reads back
 * what was digested).  The genome stays float64: the individuals it holds
 * are played again exactly (RUN.h5@gen=G,rank=R, @game=K, ciao); the
 * checkpoint datasets stay float64 (deflated too) so that resume is exact.
 * Rows the caller does not keep are written as NaN (nk_run_gen.genome of a
 * generation whose population is not kept holds its champion's row and
 * NaN elsewhere: io/evolve_file.c, output.population_every); deflate makes
 * them cost next to nothing, and a reader tells them by the NaN.  Files
 * without compact (every linear run by default) are byte for byte as
 * before.
 *
 * Consistency.  A generation is complete when /checkpoint says so; every
 * reader (this module, and any h5py script that wants to be exact) takes
 * G = checkpoint generation + 1 and the row counts of /checkpoint, not the
 * dataset lengths: a crash while generation G is being written can leave
 * the datasets longer.  nk_run_append_generation() writes in this order:
 * the population datasets, /games, /benchmark, /stats (each extended to its
 * new length), then the whole new checkpoint as a group /checkpoint.new
 * whose generation attribute is written last, then the old /checkpoint is
 * deleted (the commit point) and /checkpoint.new renamed to /checkpoint,
 * then everything is flushed (H5Fflush, global scope) but not synced: a
 * killed process loses nothing that was flushed, and io/backup.h covers a
 * crash of the machine (nk_run_create and nk_run_truncate do sync).
 * Opening a file copes with every state this order can leave (a stale
 * /checkpoint.new is ignored, a lone one is the committed checkpoint);
 * nk_run_truncate() cuts the datasets back and tidies the checkpoint, and
 * the first append of a handle does the same by itself.
 *
 * Space.  HDF5 updates some of its metadata in place and allocates the rest
 * at the end of the file, so a write that fails half-way because the disk
 * is full can leave a file that HDF5 no longer opens ("truncated file").
 * (Seen with HDF5 1.10.8 under a file size limit.)  To avoid that, every
 * append first reserves room at the end of the file (posix_fallocate:
 * twice the generation's data plus 1 MiB, cut back to HDF5's end of
 * allocation after the flush); when the reservation fails, nothing has
 * been written, the error says "cannot reserve", and the handle can try
 * again later.  This protects against full disks and file size limits,
 * not against crashes of the machine in the middle of a flush: HDF5 1.10
 * has no transactions.
 *
 * Damage.  New files are in the HDF5 1.8 format (superblock v2, object
 * headers with checksums) and every dataset has the Fletcher-32 filter, so
 * the file detects changed bytes itself; readers walk every object on open,
 * bound every size by the file's size, check each chunk they read and,
 * before appending, read every complete row and compare each generation's
 * rows with the digest of its /stats row, rows_digest, which the writer
 * fills (docs/runfile.md, "Rows digests": a chunk index points to a chunk
 * unchecked, and zero bytes read as a sound chunk of zeros).  A damaged file is NK_EFORMAT, "damaged run file 'PATH':
 * reason".  Old files (superblock v0, no checksums) are read as before.
 *
 * Errors are returned (an nk_status and a one-line message in err), never
 * printed: opening a handle turns off HDF5's automatic error printing for
 * the whole process (H5Eset_auto2).  HDF5 is used serially: one thread at a
 * time per process may call these functions.  HDF5 1.10 locks a file that
 * is open for writing, so a second writer is refused; handles opened for
 * reading take no lock and can read a run in progress (its complete
 * generations).  Other processes (h5py) that read a run in progress need
 * HDF5_USE_FILE_LOCKING=FALSE.
 */
#ifndef NK_RUNFILE_H
#define NK_RUNFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "run/record.h" /* the row types of /stats, /games, /benchmark */

enum { NK_RUN_SCHEMA_VERSION = 1 };
/* The longest checkpoint name, in bytes. */
enum { NK_RUN_BLOB_NAME_MAX = 63 };

typedef struct nk_run nk_run;

/* What a run file says about its run.  On creation the caller fills it in;
 * nk_run_get_meta() gives it back (strings owned by the handle). */
typedef struct nk_run_meta {
    const char *nickar_version; /* create: NULL means this build's version */
    const char *created;        /* create: NULL means now (UTC, ISO 8601) */
    const char *variant;        /* NULL is written as "" (so for all text) */
    uint64_t master_seed;
    const char *config;         /* the resolved INI text */
    int threads;
    int mpi_ranks;
    const char *feature_set;
    const char *strategy;
    size_t n;                    /* N, individuals per generation (>= 1) */
    size_t d;                    /* D, genes = features (>= 1) */
    const char *const *features; /* [D] feature names, none NULL */
    bool has_sigma;              /* /population/sigma exists */
    bool record_games;           /* /games exists */
    bool tb_intervals;           /* /stats has the benchmark grade's
                                    intervals (benchmark.tablebase) */
    bool compact;                /* the large-genome layout (see "Large
                                    genomes" above): /population/genome and
                                    /population/sigma shuffled and deflated,
                                    sigma float32; open() tells it from the
                                    datasets */
} nk_run_meta;

/* The element type of a checkpoint dataset. */
typedef enum nk_run_kind {
    NK_RUN_F64 = 0, /* float64 */
    NK_RUN_U8 = 1   /* uint8: raw bytes (generator states, ...) */
} nk_run_kind;

/* One checkpoint dataset: count elements of kind at data (data may be NULL
 * when count is 0).  Names: 1..NK_RUN_BLOB_NAME_MAX bytes of letters,
 * digits, '_', '-' and '.', not starting with '.'. */
typedef struct nk_run_blob {
    const char *name;
    nk_run_kind kind;
    const void *data;
    size_t count;
} nk_run_blob;

/* One generation to append.  Arrays are row-major: genome and sigma
 * [N * D], the per-individual arrays [N], parents [N * 2].  Every
 * generation field (stats, games, bench) must equal the index of the
 * generation being appended, nk_run_generations() before the call. */
typedef struct nk_run_gen {
    const double *genome;
    const double *sigma; /* non-NULL exactly when the run has sigma */
    const double *fitness;
    const int32_t *wins, *draws, *losses;
    const int64_t *ids;
    const int64_t *parents;
    nk_run_stats stats;
    const nk_run_game *games; /* only in runs that record games */
    size_t n_games;
    const nk_run_bench *bench;
    size_t n_bench;
    const nk_run_blob *blobs; /* the whole checkpoint: it replaces the
                                 previous one */
    size_t n_blobs;
} nk_run_gen;

/* Where nk_run_read_population() puts one generation; NULL members are
 * skipped.  Sizes as in nk_run_gen. */
typedef struct nk_run_pop {
    double *genome;
    double *sigma;
    double *fitness;
    int32_t *wins, *draws, *losses;
    int64_t *ids;
    int64_t *parents;
} nk_run_pop;

/* Creates the run file at path with its attributes and empty datasets and
 * flushes it.  An existing file is replaced only when force is true (else
 * NK_EINVAL, "... already exists").  NK_EINVAL for bad meta; NK_EIO
 * "cannot create 'PATH': reason" when the file cannot be made (a file that
 * was begun is removed); NK_ENOMEM.  On success *out is a writable handle
 * with 0 generations. */
nk_status nk_run_create(nk_run **out, const char *path,
                        const nk_run_meta *meta, bool force,
                        char *err, size_t len);

/* Opens an existing run file, for appending when writable is true, and
 * reads its attributes and shapes.  When the file cannot be opened
 * ("cannot open 'PATH': reason"): NK_ENOFILE for a file to read that is
 * missing, not a regular file or not readable, NK_EIO for one to write and
 * for a lock held by another process; NK_EFORMAT when it is not
 * a run file of this schema ("'PATH' is not a nickar run file: no
 * attribute schema_version"), or is truncated or damaged; NK_ENOMEM. */
nk_status nk_run_open(nk_run **out, const char *path, bool writable,
                      char *err, size_t len);

/* Closes a handle (NULL is allowed).  Everything appended has been flushed
 * already. */
void nk_run_close(nk_run *run);

/* The run's attributes, valid until nk_run_close(). */
const nk_run_meta *nk_run_get_meta(const nk_run *run);
/* The path the handle was opened with. */
const char *nk_run_path(const nk_run *run);
/* The number of complete generations G. */
size_t nk_run_generations(const nk_run *run);
/* The rows of /games and of /benchmark in complete generations. */
size_t nk_run_games(const nk_run *run);
size_t nk_run_benchmarks(const nk_run *run);

/* Appends generation G = nk_run_generations(run) (see the order of writes
 * above) and flushes the file.  NK_EINVAL for a read-only handle or data
 * that does not fit the run (sigma or games given or missing against the
 * meta, a generation field other than G, a winner not in 0..2, a score
 * outside [0, 1], an opponent without NUL, a bad or repeated checkpoint
 * name), with nothing written; NK_EIO "writing 'PATH' failed at generation
 * G: what: reason" when a write fails.  After a failed write the file holds
 * the G complete generations, possibly with the beginnings of generation G
 * (which the next open cuts off); this handle then refuses to write more:
 * close it and open the file again.  A failure to reserve space leaves the
 * handle usable. */
nk_status nk_run_append_generation(nk_run *run, const nk_run_gen *gen,
                                   char *err, size_t len);

/* Cuts every dataset back to the complete generations and tidies the
 * checkpoint group after a crash between writes (see above), then flushes.
 * *dropped (when non-NULL) tells whether anything was removed or changed.
 * NK_EINVAL for a read-only handle; NK_EIO when a write fails. */
nk_status nk_run_truncate(nk_run *run, bool *dropped, char *err, size_t len);

/* Reads generation g (< G) into the non-NULL members of pop.  NK_ERANGE for
 * g >= G; NK_EINVAL for sigma in a run without it; NK_EFORMAT / NK_EIO when
 * the data cannot be read. */
nk_status nk_run_read_population(nk_run *run, size_t g, const nk_run_pop *pop,
                                 char *err, size_t len);

/* Read rows [first, first + count) of /stats (first + count <= G), of
 * /games (<= nk_run_games()) and of /benchmark (<= nk_run_benchmarks()).
 * NK_ERANGE beyond those; NK_EFORMAT / NK_EIO when the data cannot be
 * read. */
nk_status nk_run_read_stats(nk_run *run, size_t first, size_t count,
                            nk_run_stats *rows, char *err, size_t len);
nk_status nk_run_read_games(nk_run *run, size_t first, size_t count,
                            nk_run_game *rows, char *err, size_t len);
nk_status nk_run_read_benchmark(nk_run *run, size_t first, size_t count,
                                nk_run_bench *rows, char *err, size_t len);

/* The datasets of the committed checkpoint: how many, and the name of the
 * i-th (in name order; valid until the next append or close). */
size_t nk_run_checkpoints(const nk_run *run);
const char *nk_run_checkpoint_name(const nk_run *run, size_t i);

/* The kind and element count of checkpoint dataset name.  NK_EFORMAT when
 * the checkpoint has no such dataset or it is not a 1-D float64 / uint8
 * array. */
nk_status nk_run_checkpoint_info(nk_run *run, const char *name,
                                 nk_run_kind *kind, size_t *count,
                                 char *err, size_t len);

/* Reads checkpoint dataset name into buf, which holds count elements of
 * kind; kind and count must be those of the dataset (NK_EFORMAT
 * otherwise, and for a missing dataset). */
nk_status nk_run_read_checkpoint(nk_run *run, const char *name,
                                 nk_run_kind kind, void *buf, size_t count,
                                 char *err, size_t len);

/* Test hook: the nth HDF5 write made through this handle from now on
 * (1 = the next) fails as a failed write would, with the reason "injected
 * failure"; 0 turns the hook off.  The writes of one append are its
 * dataset extensions, dataset and attribute writes, group and link
 * operations and the flush. */
void nk_run_fail_at(nk_run *run, unsigned long nth);

#endif
