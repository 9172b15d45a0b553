/*
 * runfile.c -- the HDF5 run file of `nickar evolve` (layout, order of
 * writes and crash semantics in runfile.h; the parts and what a handle
 * keeps true in runfile_internal.h): the handle, the types of the
 * datasets and tables, and the rows digests.
 */
#include "io/runfile.h"
#include "base/alloc.h"
#include "io/runfile_internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

/* The population datasets (runfile.h). */
const pop_desc_t nk_run_pop_desc[P_COUNT] = {
    [P_GENOME] = {"/population/genome", C_F64, 3, 0},
    [P_SIGMA] = {"/population/sigma", C_F64, 3, 0},
    [P_FITNESS] = {"/population/fitness", C_F64, 2, 1},
    [P_WINS] = {"/population/wins", C_I32, 2, 1},
    [P_DRAWS] = {"/population/draws", C_I32, 2, 1},
    [P_LOSSES] = {"/population/losses", C_I32, 2, 1},
    [P_ID] = {"/population/id", C_I64, 2, 1},
    [P_PARENTS] = {"/population/parents", C_I64, 3, 2},
};

#define MEMBER(s, f, c)                                                                            \
    {                                                                                              \
#f, offsetof(s, f), c, false, false                                                        \
    }
#define OPTIONAL(s, f, c)                                                                          \
    {                                                                                              \
#f, offsetof(s, f), c, true, false                                                         \
    }
#define UNDIGESTED(s, f, c, opt)                                                                   \
    {                                                                                              \
#f, offsetof(s, f), c, opt, true                                                           \
    }
static const member stats_members[] = {
    MEMBER(nk_run_stats, generation, C_I32), MEMBER(nk_run_stats, games, C_I64),
    MEMBER(nk_run_stats, evaluations, C_I64), MEMBER(nk_run_stats, best, C_F64),
    MEMBER(nk_run_stats, mean, C_F64), MEMBER(nk_run_stats, median, C_F64),
    MEMBER(nk_run_stats, std, C_F64), MEMBER(nk_run_stats, worst, C_F64),
    MEMBER(nk_run_stats, diversity, C_F64), UNDIGESTED(nk_run_stats, wall_seconds, C_F64, false),
    /* Optional members come last: a file has a prefix of the list. */
    UNDIGESTED(nk_run_stats, play_seconds, C_F64, true),
    UNDIGESTED(nk_run_stats, outside_seconds, C_F64, true),
    OPTIONAL(nk_run_stats, tb_positions, C_I64), OPTIONAL(nk_run_stats, tb_optimal, C_F64),
    OPTIONAL(nk_run_stats, tb_seeds_lost, C_F64),
    UNDIGESTED(nk_run_stats, rows_digest, C_U64, true),
    /* Only in the files of runs with benchmark.tablebase (nk_run_meta.
     * tb_intervals), so that the others keep the layout they had. */
    OPTIONAL(nk_run_stats, tb_optimal_lo, C_F64), OPTIONAL(nk_run_stats, tb_optimal_hi, C_F64),
    OPTIONAL(nk_run_stats, tb_seeds_lost_lo, C_F64),
    OPTIONAL(nk_run_stats, tb_seeds_lost_hi, C_F64),
};
enum { STATS_TB_INTERVALS = 4 }; /* the members after rows_digest */
static const member game_members[] = {
    MEMBER(nk_run_game, generation, C_I32),  MEMBER(nk_run_game, south_id, C_I64),
    MEMBER(nk_run_game, north_id, C_I64),    MEMBER(nk_run_game, winner, C_I8),
    MEMBER(nk_run_game, south_seeds, C_I16), MEMBER(nk_run_game, north_seeds, C_I16),
    MEMBER(nk_run_game, plies, C_I16),       MEMBER(nk_run_game, reason, C_I8),
    MEMBER(nk_run_game, seed, C_U64),
};
static const member bench_members[] = {
    MEMBER(nk_run_bench, generation, C_I32), MEMBER(nk_run_bench, opponent, C_STR64),
    MEMBER(nk_run_bench, wins, C_I32),       MEMBER(nk_run_bench, draws, C_I32),
    MEMBER(nk_run_bench, losses, C_I32),     MEMBER(nk_run_bench, score, C_F64),
};
#undef MEMBER
#undef OPTIONAL
#undef UNDIGESTED

const char *const nk_run_text_attr[6] = {"nickar_version", "created",     "variant",
                                         "config",         "feature_set", "strategy"};

/* ===================================================================
 * Types
 * =================================================================== */

size_t nk_run_code_size(code c)
{
    static const size_t size[] = {1, 2, 4, 8, 8, 8, NK_RUN_OPPONENT_LEN};
    return size[c];
}

H5T_class_t nk_run_code_class(code c)
{
    return c == C_F64 ? H5T_FLOAT : c == C_STR64 ? H5T_STRING : H5T_INTEGER;
}

/* The predefined type of an element code, native or little-endian; a new
 * string type for C_STR64 (*made tells that the caller must close it). */
hid_t nk_run_code_type(code c, bool file, bool *made)
{
    *made = false;
    switch (c) {
    case C_I8:
        return file ? H5T_STD_I8LE : H5T_NATIVE_INT8;
    case C_I16:
        return file ? H5T_STD_I16LE : H5T_NATIVE_INT16;
    case C_I32:
        return file ? H5T_STD_I32LE : H5T_NATIVE_INT32;
    case C_I64:
        return file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    case C_U64:
        return file ? H5T_STD_U64LE : H5T_NATIVE_UINT64;
    case C_F64:
        return file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE;
    case C_STR64:
        *made = true;
        return nk_h5_str_type(NK_RUN_OPPONENT_LEN);
    }
    return H5I_INVALID_HID;
}

/* The compound type of a table: native at the struct's offsets, or packed
 * little-endian for the file. */
hid_t nk_run_compound(const table *t, bool file)
{
    size_t size = t->size;
    if (file) {
        size = 0;
        for (size_t i = 0; i < t->count; i++)
            size += nk_run_code_size(t->members[i].type);
    }
    hid_t ct = H5Tcreate(H5T_COMPOUND, size);
    if (ct < 0)
        return ct;
    size_t off = 0;
    for (size_t i = 0; i < t->count; i++) {
        bool made;
        hid_t mt = nk_run_code_type(t->members[i].type, file, &made);
        herr_t rc =
            mt < 0 ? -1 : H5Tinsert(ct, t->members[i].name, file ? off : t->members[i].offset, mt);
        if (made && mt >= 0)
            H5Tclose(mt);
        if (rc < 0) {
            H5Tclose(ct);
            return H5I_INVALID_HID;
        }
        off += nk_run_code_size(t->members[i].type);
    }
    return ct;
}

/* Sets up the three tables of a handle (datasets not yet open). */
bool nk_run_tables_init(nk_run *run)
{
    static const struct {
        const char *path;
        const member *members;
        size_t count, size;
    } def[T_COUNT] = {
        [T_STATS] = {"/stats", stats_members, COUNT(stats_members), sizeof(nk_run_stats)},
        [T_GAMES] = {"/games", game_members, COUNT(game_members), sizeof(nk_run_game)},
        [T_BENCH] = {"/benchmark", bench_members, COUNT(bench_members), sizeof(nk_run_bench)},
    };
    for (int i = 0; i < T_COUNT; i++) {
        table *t = &run->tab[i];
        t->path = def[i].path;
        t->members = def[i].members;
        t->count = def[i].count;
        t->size = def[i].size;
        t->ds = H5I_INVALID_HID;
        t->mem = nk_run_compound(t, false);
        t->file = nk_run_compound(t, true);
        if (t->mem < 0 || t->file < 0)
            return false;
    }
    return true;
}

/* ===================================================================
 * Digests
 * =================================================================== */

/* The 1.8 format's chunk indexes carry no checksum, and a chunk's
 * Fletcher-32 covers only its own bytes: a flipped bit in a chunk's
 * address that leads to zero-filled bytes reads as a sound chunk of zeros
 * (the Fletcher-32 of zeros is zero).  So every /stats row carries
 * rows_digest, FNV-1a (64 bits) of, in this order, the generation's rows of
 * the population datasets (in nk_run_pop_desc's order), its rows of /games and of
 * /benchmark, then its own members but the wall-clock times and the digest;
 * every value as the little-endian bytes of its width, a string up to its
 * NUL.  verify_data compares them before a write. */
#define FNV_PRIME 1099511628211ULL

static uint64_t digest_value(uint64_t h, code c, const void *p)
{
    if (c == C_STR64) {
        const unsigned char *b = p;
        for (size_t i = 0; i < NK_RUN_OPPONENT_LEN && b[i] != 0; i++)
            h = (h ^ b[i]) * FNV_PRIME;
        return h;
    }
    uint64_t v = 0;
    switch (c) {
    case C_I8: {
        int8_t x;
        memcpy(&x, p, sizeof x);
        v = (uint8_t)x;
        break;
    }
    case C_I16: {
        int16_t x;
        memcpy(&x, p, sizeof x);
        v = (uint16_t)x;
        break;
    }
    case C_I32: {
        int32_t x;
        memcpy(&x, p, sizeof x);
        v = (uint32_t)x;
        break;
    }
    default:
        memcpy(&v, p, sizeof v);
        break; /* int64, uint64, float64 */
    }
    for (size_t i = 0; i < nk_run_code_size(c); i++, v >>= 8)
        h = (h ^ (v & 0xff)) * FNV_PRIME;
    return h;
}

/* Adds count values of code c at p. */
uint64_t nk_run_digest_values(uint64_t h, code c, const void *p, size_t count)
{
    for (size_t i = 0; i < count; i++)
        h = digest_value(h, c, (const char *)p + i * nk_run_code_size(c));
    return h;
}

/* Adds a row of table t (the members this file has, less the undigested). */
uint64_t nk_run_digest_row(uint64_t h, const table *t, const void *row)
{
    for (size_t m = 0; m < t->count; m++)
        if (!t->members[m].undigested)
            h = digest_value(h, t->members[m].type, (const char *)row + t->members[m].offset);
    return h;
}

/* The values of one generation's row of population dataset i. */
size_t nk_run_pop_row_values(const nk_run *run, int i)
{
    return run->meta.n *
           (nk_run_pop_desc[i].width == 0 ? run->meta.d : (size_t)nk_run_pop_desc[i].width);
}

/* Whether the file's /stats rows carry rows_digest (the last member but
 * the grade's intervals). */
bool nk_run_has_digest(const table *stats)
{
    return stats->count >= COUNT(stats_members) - STATS_TB_INTERVALS;
}

bool nk_run_has_tb_intervals(const table *stats)
{
    return stats->count == COUNT(stats_members);
}

size_t nk_run_stats_without_intervals(void)
{
    return COUNT(stats_members) - STATS_TB_INTERVALS;
}

/* Keeps the first count members of table t: its types made again. */
bool nk_run_table_trim(table *t, size_t count)
{
    t->count = count;
    H5Tclose(t->mem);
    H5Tclose(t->file);
    t->mem = nk_run_compound(t, false);
    t->file = nk_run_compound(t, true);
    return t->mem >= 0 && t->file >= 0;
}

/* ===================================================================
 * Handles
 * =================================================================== */

nk_run *nk_run_alloc(const char *path)
{
    nk_run *run = nk_calloc(1, sizeof *run);
    if (run == NULL)
        return NULL;
    run->file = H5I_INVALID_HID;
    run->fd = -1;
    for (int i = 0; i < P_COUNT; i++)
        run->pop[i] = H5I_INVALID_HID;
    for (int i = 0; i < T_COUNT; i++)
        run->tab[i].ds = run->tab[i].mem = run->tab[i].file = H5I_INVALID_HID;
    run->path = nk_strdup(path);
    if (run->path == NULL) {
        nk_free(run);
        return NULL;
    }
    run->w = nk_h5w_make(H5I_INVALID_HID, NK_H5_TRACK_TIMES, NULL);
    run->r = (nk_h5r){.file = H5I_INVALID_HID, .path = run->path, .kind = "run file"};
    return run;
}

void nk_run_free_names(char **names, size_t n)
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
    nk_run_free_names(run->features, run->meta.d);
    nk_run_free_names(run->blob_names, run->n_blobs);
    nk_free(run->r.spans);
    nk_free(run->path);
    nk_free(run);
}

/* Points meta's text members at run->text. */
void nk_run_meta_link(nk_run *run)
{
    run->meta.nickar_version = run->text[0];
    run->meta.created = run->text[1];
    run->meta.variant = run->text[2];
    run->meta.config = run->text[3];
    run->meta.feature_set = run->text[4];
    run->meta.strategy = run->text[5];
    run->meta.features = (const char *const *)run->features;
}

const nk_run_meta *nk_run_get_meta(const nk_run *run)
{
    return &run->meta;
}
const char *nk_run_path(const nk_run *run)
{
    return run->path;
}
size_t nk_run_generations(const nk_run *run)
{
    return run->gens;
}
size_t nk_run_games(const nk_run *run)
{
    return run->games_rows;
}
size_t nk_run_benchmarks(const nk_run *run)
{
    return run->bench_rows;
}
size_t nk_run_checkpoints(const nk_run *run)
{
    return run->n_blobs;
}

const char *nk_run_checkpoint_name(const nk_run *run, size_t i)
{
    return i < run->n_blobs ? run->blob_names[i] : NULL;
}

void nk_run_fail_at(nk_run *run, unsigned long nth)
{
    run->w.fail_at = nth;
}

int nk_run_cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool nk_run_blob_name_ok(const char *name)
{
    size_t n = name != NULL ? strlen(name) : 0;
    if (n < 1 || n > NK_RUN_BLOB_NAME_MAX || name[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return false;
    }
    return true;
}

/* FNV-1a (64 bits) of a text. The config text is the root's one attribute
 * that can pass 4 KiB, and HDF5 keeps such a one, when the root's
 * attributes are in dense storage (more than 8), as a "huge" heap object
 * that no checksum covers; config_checksum covers it. */
uint64_t nk_run_text_checksum(const char *text)
{
    uint64_t h = FNV_BASIS;
    for (const unsigned char *p = (const unsigned char *)text; *p != 0; p++)
        h = (h ^ *p) * FNV_PRIME;
    return h;
}

/* Access for the population datasets: no chunk cache.  Each of their
 * chunks is one generation, written once, whole, and never touched again;
 * in HDF5's default cache (521 slots and 1 MiB per dataset) the written
 * chunks stayed until it was full, and every flush walked all of them, so
 * that an append's cost grew with the generations until about 500 of them
 * filled it.  Without a cache a chunk goes to the file when it is written
 * (through its checksum filter), and a read reads each chunk once. */
hid_t nk_run_uncached_access(void)
{
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    if (dapl >= 0 && H5Pset_chunk_cache(dapl, 1, 0, 1.0) < 0) {
        H5Pclose(dapl);
        return H5I_INVALID_HID;
    }
    return dapl;
}
