/*
 * td_file.c -- a TD learning run and its run file (see td_file.h).
 */
#include "io/td_file.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/backup.h"
#include "io/runfile.h"
#include "io/runopen.h"
#include "search/features.h"

struct nk_td_file {
    nk_td *td;
    nk_run *run;
    char path[NK_RUN_PATH_MAX];
    bool fresh, recovered, clean;
    nk_backup_clock clock;
};

static nk_status create_file(nk_td_file *f, const nk_evo_settings *s, bool force, char *err,
                             size_t len)
{
    const nk_td_shape *sh = nk_td_shape_of(f->td);
    nk_run_meta meta = {
        .variant = sh->variant,
        .master_seed = sh->seed,
        .config = s->config_text,
        .threads = sh->threads,
        .mpi_ranks = 1,
        .feature_set = sh->features,
        .strategy = sh->method,
        .n = 1,
        .d = sh->dim,
        .features = sh->names,
        /* a family's thousands of weights: the large-genome layout */
        .compact = sh->dim > NK_MAX_FEATURES,
    };
    return nk_runopen_create(&f->run, f->path, &meta, force, err, len);
}

/* Reopens the file, checks it is this run's and restores the learner. */
static nk_status resume_file(nk_td_file *f, const nk_evo_settings *s, char *err, size_t len)
{
    nk_status st = nk_runopen_resume(&f->run, f->path, &f->recovered, err, len);
    if (st == NK_OK)
        st = nk_runopen_check_config(f->run, s->config_text, f->path, err, len);
    if (st != NK_OK)
        return st;
    const nk_run_meta *m = nk_run_get_meta(f->run);
    const nk_td_shape *sh = nk_td_shape_of(f->td);
    if (m->n != 1 || m->d != sh->dim || strcmp(m->strategy, sh->method) != 0)
        return nk_fail(NK_EMISMATCH, err, len,
                       "cannot resume '%s': it is not a run of nickar learn with %zu weights "
                       "(%s, population %zu, %zu weights)",
                       f->path, sh->dim, m->strategy, m->n, m->d);
    st = nk_run_truncate(f->run, NULL, err, len);
    if (st != NK_OK)
        return st;
    nk_td_checkpoint c = {.done = (unsigned)nk_run_generations(f->run)};
    double *champ = NULL;
    size_t count = 0;
    if (c.done > 0) {
        st = nk_runopen_read_blob(f->run, "champion", &champ, &count, err, len);
        if (st == NK_OK && count != 1 + sh->dim)
            st = nk_fail(NK_EFORMAT, err, len, "cannot resume '%s': bad checkpoint", f->path);
        c.w = champ != NULL ? champ + 1 : NULL;
        c.n = count ? count - 1 : 0;
    }
    if (st == NK_OK)
        st = nk_td_restore(f->td, &c, err, len);
    nk_free(champ);
    return st;
}

nk_status nk_td_file_open(nk_td_file **out, const nk_evo_settings *s, const char *path,
                          nk_evo_mode mode, int threads, char *err, size_t len)
{
    *out = NULL;
    nk_td_file *f = nk_calloc(1, sizeof *f);
    if (f == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    if (strlen(path) >= sizeof f->path - NK_RUN_SUFFIX_MAX) {
        nk_free(f);
        return nk_fail(NK_ERANGE, err, len, "run file path too long");
    }
    strcpy(f->path, path);
    nk_status st = nk_td_alloc(&f->td, &s->run, nk_evo_file_resolve, threads, err, len);
    if (st == NK_OK) {
        char bak[NK_RUN_PATH_MAX];
        nk_backup_name(bak, path, ".bak");
        if (mode == NK_EVO_RESUME && access(path, F_OK) != 0 && errno == ENOENT &&
            access(bak, F_OK) != 0) {
            mode = NK_EVO_NEW; /* killed before its file existed: nothing to resume */
            f->fresh = true;
        }
        st = mode == NK_EVO_RESUME ? resume_file(f, s, err, len)
                                   : create_file(f, s, mode == NK_EVO_FORCE, err, len);
    }
    f->clock.interval = NK_BACKUP_SECONDS;
    if (st == NK_OK)
        st = nk_runopen_backup(f->path, nk_td_generation(f->td), &f->clock, nk_runopen_now(), err,
                               len);
    f->clean = st == NK_OK;
    if (st != NK_OK) {
        nk_td_file_close(f);
        return st;
    }
    *out = f;
    return NK_OK;
}

void nk_td_file_set_checkpoint_seconds(nk_td_file *f, double seconds)
{
    f->clock.interval = seconds > 0 ? seconds : 0;
}

nk_status nk_td_file_step(nk_td_file *f, const nk_td_record **rec, char *err, size_t len)
{
    f->clean = false;
    nk_status st = nk_td_iterate(f->td, err, len);
    if (st != NK_OK)
        return st;
    const nk_td_record *r = nk_td_record_of(f->td);
    const int64_t id = r->generation, parents[2] = {(int64_t)r->generation - 1, -1};
    nk_run_blob blob = {"champion", NK_RUN_F64, r->champion, 1 + nk_td_shape_of(f->td)->dim};
    nk_run_gen gen = {
        .genome = r->w,
        .fitness = &r->fitness,
        .wins = &r->wins,
        .draws = &r->draws,
        .losses = &r->losses,
        .ids = &id,
        .parents = parents,
        .stats = r->stats,
        .bench = r->bench,
        .n_bench = r->n_bench,
        .blobs = &blob,
        .n_blobs = 1,
    };
    st = nk_run_append_generation(f->run, &gen, err, len);
    double t1 = nk_runopen_now();
    if (st == NK_OK && nk_backup_due(&f->clock, t1))
        st = nk_runopen_backup(f->path, r->generation + 1, &f->clock, t1, err, len);
    f->clean = st == NK_OK;
    *rec = r;
    return st;
}

unsigned nk_td_file_generation(const nk_td_file *f)
{
    return nk_td_generation(f->td);
}

bool nk_td_file_done(const nk_td_file *f)
{
    return nk_td_done(f->td);
}

const nk_td_shape *nk_td_file_shape(const nk_td_file *f)
{
    return nk_td_shape_of(f->td);
}

bool nk_td_file_fresh(const nk_td_file *f)
{
    return f->fresh;
}

bool nk_td_file_recovered(const nk_td_file *f)
{
    return f->recovered;
}

void nk_td_file_close(nk_td_file *f)
{
    if (f == NULL)
        return;
    nk_runopen_close(f->run, f->path, f->clean);
    nk_td_free(f->td);
    nk_free(f);
}
