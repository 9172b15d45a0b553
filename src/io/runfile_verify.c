/*
 * runfile_verify.c -- before a handle writes to a run file, every complete
 * row and the checkpoint are read (so every chunk and chunk index that
 * leads to them is checked, io/h5.h) and each generation's rows are
 * compared with the digest of its /stats row (runfile.c, "Digests"): an
 * append never builds on damaged structures, which HDF5 does not check
 * when it writes and can crash on.
 */
#include "io/runfile.h"
#include "base/alloc.h"
#include "io/runfile_internal.h"

#include <stdio.h>
#include <string.h>

#include <hdf5.h>

/* Adds row r of table i (at row, read into its memory type) to the digest
 * of its generation; a /stats row is compared with its generation's. */
static nk_status digest_table_row(nk_run *run, int i, size_t r, const char *row, uint64_t *dg)
{
    const table *t = &run->tab[i];
    if (i == T_STATS) {
        const nk_run_stats *s = (const nk_run_stats *)row;
        if (nk_run_digest_row(dg[r], t, row) != s->rows_digest)
            return nk_h5r_damaged(&run->r,
                                  "the rows of generation %zu "
                                  "do not match the digest of its /stats row",
                                  r + 1);
        return NK_OK;
    }
    int32_t g; /* every table's first member is its generation */
    memcpy(&g, row + t->members[0].offset, sizeof g);
    if (g < 0 || (size_t)g >= run->gens)
        return nk_h5r_damaged(&run->r,
                              "row %zu of %s names generation "
                              "%ld, not one of the %zu complete ones",
                              r, t->path, (long)g + 1, run->gens);
    dg[g] = nk_run_digest_row(dg[g], t, row);
    return NK_OK;
}

/* Reads every complete generation of every population dataset (one
 * generation of one dataset at a time, in buf) and adds it to its digest
 * (dg: NULL in files without digests). */
static nk_status verify_population(nk_run *run, void *buf, uint64_t *dg)
{
    nk_status st = NK_OK;
    for (int i = 0; st == NK_OK && i < P_COUNT; i++) {
        if (run->pop[i] < 0)
            continue;
        bool made;
        hid_t mt = nk_run_code_type(nk_run_pop_desc[i].type, false, &made);
        for (size_t g = 0; st == NK_OK && g < run->gens; g++) {
            st = nk_h5r_rows(&run->r, run->pop[i], nk_run_pop_desc[i].path, g, 1, mt, buf);
            if (st == NK_OK && dg != NULL)
                dg[g] = nk_run_digest_values(dg[g], nk_run_pop_desc[i].type, buf,
                                             nk_run_pop_row_values(run, i));
        }
    }
    return st;
}

/* Reads every complete row of the tables, STATS_CHUNK rows at a time,
 * /stats last: its rows close the digests. */
static nk_status verify_tables(nk_run *run, void *buf, uint64_t *dg)
{
    static const int order[T_COUNT] = {T_GAMES, T_BENCH, T_STATS};
    nk_status st = NK_OK;
    for (int o = 0; st == NK_OK && o < T_COUNT; o++) {
        int i = order[o];
        const table *t = &run->tab[i];
        size_t rows = i == T_GAMES ? run->games_rows : i == T_BENCH ? run->bench_rows : run->gens;
        if (t->ds < 0)
            continue;
        for (size_t r = 0; st == NK_OK && r < rows; r += STATS_CHUNK) {
            size_t n = rows - r < STATS_CHUNK ? rows - r : STATS_CHUNK;
            st = nk_h5r_rows(&run->r, t->ds, t->path, r, n, t->mem, buf);
            for (size_t k = 0; st == NK_OK && dg != NULL && k < n; k++)
                st = digest_table_row(run, i, r + k, (const char *)buf + k * t->size, dg);
        }
    }
    return st;
}

/* Reads every dataset of the committed checkpoint. */
static nk_status verify_blobs(nk_run *run)
{
    nk_status st = NK_OK;
    for (size_t b = 0; st == NK_OK && b < run->n_blobs; b++) {
        const char *name = run->blob_names[b];
        if (!nk_run_blob_name_ok(name)) /* a name the writer would not have given */
            return nk_h5r_damaged(&run->r, "bad checkpoint name '%s'", name);
        hid_t ds;
        nk_run_kind kind;
        size_t count;
        if ((st = nk_run_open_blob(run, name, &ds, &kind, &count)) != NK_OK)
            break;
        char what[128];
        snprintf(what, sizeof what, "checkpoint '%s'", name);
        void *data = NULL;
        if (count > 0)
            st = nk_h5r_check_chunks(&run->r, ds, what, 1, 0, count);
        if (st == NK_OK && count > 0) {
            data = nk_malloc(count * (kind == NK_RUN_F64 ? 8 : 1));
            if (data == NULL)
                st = nk_h5r_nomem(&run->r);
            else if (H5Dread(ds, kind == NK_RUN_F64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT8, H5S_ALL,
                             H5S_ALL, H5P_DEFAULT, data) < 0)
                st = nk_h5r_read_failed(&run->r, what);
        }
        nk_free(data);
        H5Dclose(ds);
    }
    return st;
}

/* Before a handle writes to a file, reads every complete row and the
 * checkpoint: the data's checksums and the chunk indexes that lead to them
 * are checked, so that an append never builds on damaged structures (HDF5
 * does not check them when it writes, and can crash on them), and no two
 * chunks share bytes.  Memory: one generation of one dataset, or
 * STATS_CHUNK table rows, at a time. */
nk_status nk_run_verify(nk_run *run)
{
    size_t row_max = 8 * run->meta.n * (run->meta.d > 2 ? run->meta.d : 2);
    for (int i = 0; i < T_COUNT; i++)
        if (run->tab[i].size * STATS_CHUNK > row_max)
            row_max = run->tab[i].size * STATS_CHUNK;
    bool digests = nk_run_has_digest(&run->tab[T_STATS]);
    void *buf = nk_malloc(row_max);
    /* the rows digest of each generation, as its rows are read */
    uint64_t *dg = digests ? nk_malloc((run->gens ? run->gens : 1) * sizeof *dg) : NULL;
    nk_status st = buf == NULL || (digests && dg == NULL) ? nk_h5r_nomem(&run->r)
                                                          : nk_h5r_spans_begin(&run->r);
    for (size_t g = 0; dg != NULL && g < run->gens; g++)
        dg[g] = FNV_BASIS;
    if (st == NK_OK)
        st = verify_population(run, buf, dg);
    if (st == NK_OK)
        st = verify_tables(run, buf, dg);
    nk_free(dg);
    nk_free(buf);
    if (st == NK_OK)
        st = verify_blobs(run);
    if (st == NK_OK)
        st = nk_h5r_check_spans(&run->r); /* and stops noting them */
    nk_free(run->r.spans);
    run->r.spans = NULL;
    run->r.n_spans = run->r.cap_spans = 0;
    return st;
}
