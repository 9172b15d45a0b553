/*
 * tune_file.c -- a tuning and its run file (see tune_file.h).
 */
#include "io/tune_file.h"

#include <unistd.h>

#include "base/alloc.h"
#include "io/evolve_file.h"
#include "io/runfile.h"

struct nk_tune_file {
    nk_tune *tune;
    nk_run *run;
};

nk_status nk_tune_file_open(nk_tune_file **out, const nk_evo_settings *s, const char *path,
                            bool force, int threads, char *err, size_t len)
{
    *out = NULL;
    if (!force && access(path, F_OK) == 0)
        return nk_fail(NK_EINVAL, err, len, "'%s' already exists: --force replaces it", path);
    nk_tune_file *f = nk_calloc(1, sizeof *f);
    if (f == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    nk_status st = nk_tune_alloc(&f->tune, &s->run, nk_evo_file_resolve, threads, err, len);
    if (st == NK_OK) {
        const nk_tune_shape *sh = nk_tune_shape_of(f->tune);
        nk_run_meta meta = {
            .variant = sh->variant,
            .master_seed = sh->seed,
            .config = s->config_text,
            .threads = sh->threads,
            .mpi_ranks = 1,
            .feature_set = sh->model->name,
            .strategy = sh->method,
            .n = 1,
            .d = sh->model->dim,
            .features = sh->model->names,
        };
        st = nk_run_create(&f->run, path, &meta, force, err, len);
    }
    if (st != NK_OK) {
        nk_tune_file_close(f);
        return st;
    }
    *out = f;
    return NK_OK;
}

nk_status nk_tune_file_step(nk_tune_file *f, const nk_tune_record **rec, char *err, size_t len)
{
    nk_status st = nk_tune_iterate(f->tune, err, len);
    if (st != NK_OK)
        return st;
    const nk_tune_record *r = nk_tune_record_of(f->tune);
    const size_t dim = nk_tune_shape_of(f->tune)->model->dim;
    double *champion = nk_malloc((1 + dim) * sizeof *champion);
    if (champion == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    const int64_t id = r->iteration, parents[2] = {-1, -1};
    const int32_t zero = 0;
    champion[0] = (double)id;
    for (size_t j = 0; j < dim; j++)
        champion[1 + j] = r->w[j];
    nk_run_blob blob = {"champion", NK_RUN_F64, champion, 1 + dim};
    nk_run_gen gen = {
        .genome = r->w,
        .fitness = &r->fitness,
        .wins = &zero,
        .draws = &zero,
        .losses = &zero,
        .ids = &id,
        .parents = parents,
        .stats = r->stats,
        .blobs = &blob,
        .n_blobs = 1,
    };
    st = nk_run_append_generation(f->run, &gen, err, len);
    nk_free(champion);
    *rec = r;
    return st;
}

bool nk_tune_file_done(const nk_tune_file *f)
{
    return nk_tune_done(f->tune);
}

const nk_tune_shape *nk_tune_file_shape(const nk_tune_file *f)
{
    return nk_tune_shape_of(f->tune);
}

void nk_tune_file_close(nk_tune_file *f)
{
    if (f == NULL)
        return;
    nk_run_close(f->run);
    nk_tune_free(f->tune);
    nk_free(f);
}
