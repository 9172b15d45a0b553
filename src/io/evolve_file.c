/*
 * evolve_file.c -- an evolution run and its run file (see evolve_file.h).
 */
#include "io/evolve_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "exec/mpi.h"
#include "io/backup.h"
#include "io/config.h"
#include "io/playerio.h"
#include "io/runfile.h"
#include "io/runopen.h"
#include "search/features.h"

struct nk_evo_file {
    nk_evo *evo;
    unsigned generations; /* of the run */
    unsigned every;       /* output.population_every (>= 1) */
    size_t dim;
    double *kept;         /* [N * D] a generation's genome as written when its
                             population is not kept (keep_rows) */
    double *kept_sigma;   /* the same for its step sizes */
    size_t hall_size;
    nk_run *run;
    char path[NK_RUN_PATH_MAX]; /* the run file */
    const char *config_text;
    bool recovered; /* resumed from the backup copy */
    bool clean;     /* no step failed: the run file holds every generation
                       done, so its backup may go when it closes */
    bool fresh;     /* --resume found no run file and started one */
    unsigned done;  /* generations complete in the file */
    nk_backup_clock clock; /* when the backup copy is due (io/backup.h) */
    double mark;    /* when the last generation's play, strategy and
                       statistics ended, before its writing (or when the
                       file was opened): the start of the next cycle */
};

/* ===== settings ===== */

nk_status nk_evo_settings_from_config(nk_evo_settings *s, const nk_config *c, char *err, size_t len)
{
    nk_output_settings out;
    memset(s, 0, sizeof *s);
    nk_status st = nk_config_settings(c, &s->run, &out, err, len);
    if (st == NK_OK) {
        s->record_games = out.record_games;
        s->population_every = out.population_every;
    }
    return st;
}

nk_status nk_evo_file_resolve(const char *text, const nk_variant *v, nk_spec *spec,
                              double *weights, size_t *n, char *err, size_t len)
{
    nk_player_def def;
    nk_status st = nk_playerio_load(&def, text, v, err, len);
    if (st != NK_OK)
        return st;
    *spec = def.spec;
    *n = def.n;
    memcpy(weights, def.weights, sizeof def.weights);
    return NK_OK;
}

/* ===== the run file ===== */

static nk_status create_file(nk_evo_file *f, const char *path, bool force, char *err, size_t len)
{
    const nk_evo_shape *sh = nk_evo_shape_of(f->evo);
    nk_run_meta meta = {
        .variant = sh->variant,
        .master_seed = sh->seed,
        .config = f->config_text,
        .threads = sh->threads, /* per rank */
        .mpi_ranks = nk_mpi_size(),
        .feature_set = sh->feature_set,
        .strategy = sh->strategy,
        .n = sh->n,
        .d = sh->d,
        .features = sh->features,
        .record_games = nk_evo_records_games(f->evo),
        .tb_intervals = sh->tb_intervals,
        /* the large-genome layout (io/runfile.h): a family's genome, or a
         * keep policy whose NaN rows want deflating; linear runs that keep
         * every population are written as they always were */
        .compact = sh->d > NK_MAX_FEATURES || f->every > 1,
    };
    /* Whether populations carry step sizes is known once one is made. */
    nk_status st = nk_evo_has_sigma(f->evo, &meta.has_sigma, err, len);
    if (st != NK_OK)
        return st;
    return nk_runopen_create(&f->run, path, &meta, force, err, len);
}

/* Restores the loop (strategy, hall of fame, champion) from the file's
 * checkpoint. */
static nk_status resume_file(nk_evo_file *f, const char *path, char *err, size_t len)
{
    nk_status st = nk_runopen_resume(&f->run, f->path, &f->recovered, err, len);
    if (st == NK_OK)
        st = nk_runopen_check_config(f->run, f->config_text, path, err, len);
    if (st != NK_OK)
        return st;
    const nk_run_meta *m = nk_run_get_meta(f->run);
    const nk_evo_shape *sh = nk_evo_shape_of(f->evo);
    if (m->n != sh->n || m->d != sh->d)
        return nk_fail(NK_EMISMATCH, err, len, "cannot resume '%s': population shape differs",
                       path);
    nk_evo_set_records_games(f->evo, m->record_games); /* fixed when the file was made */
    st = nk_run_truncate(f->run, NULL, err, len);
    if (st != NK_OK)
        return st;
    f->done = (unsigned)nk_run_generations(f->run);
    nk_evo_checkpoint c = {.done = f->done};
    if (f->done == 0)
        return nk_evo_restore(f->evo, &c, err, len);
    double *state = NULL, *hall = NULL, *champ = NULL;
    size_t count = 0;
    st = nk_runopen_read_blob(f->run, "strategy", &state, &c.n_strategy, err, len);
    c.strategy = state;
    if (st == NK_OK &&
        nk_run_checkpoint_info(f->run, "hall", &(nk_run_kind){0}, &count, err, len) == NK_OK &&
        count) {
        if (count % f->dim || count / f->dim > f->hall_size)
            st = nk_fail(NK_EFORMAT, err, len, "cannot resume '%s': bad hall of fame", path);
        else
            st = nk_runopen_read_blob(f->run, "hall", &hall, &count, err, len);
        c.hall = hall;
        c.n_hall = st == NK_OK ? count / f->dim : 0;
    }
    if (st == NK_OK &&
        nk_run_checkpoint_info(f->run, "champion", &(nk_run_kind){0}, &count, err, len) == NK_OK &&
        count == 1 + f->dim) {
        st = nk_runopen_read_blob(f->run, "champion", &champ, &count, err, len);
        c.champion = champ;
    }
    if (st == NK_OK)
        st = nk_evo_restore(f->evo, &c, err, len);
    nk_free(state);
    nk_free(hall);
    nk_free(champ);
    return st;
}

nk_status nk_evo_file_open(nk_evo_file **out, const nk_evo_settings *s, const char *path,
                           nk_evo_mode mode, int threads, char *err, size_t len)
{
    nk_evo_file *f = nk_calloc(1, sizeof *f);
    *out = NULL;
    if (f == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    if (strlen(path) >= sizeof f->path - NK_RUN_SUFFIX_MAX) {
        nk_free(f);
        return nk_fail(NK_ERANGE, err, len, "run file path too long");
    }
    strcpy(f->path, path);
    f->config_text = s->config_text;
    nk_status st = nk_evo_alloc(&f->evo, s, nk_evo_file_resolve, threads, err, len);
    if (st == NK_OK) {
        const nk_evo_shape *sh = nk_evo_shape_of(f->evo);
        f->dim = sh->d;
        f->generations = sh->generations;
        f->hall_size = sh->hall_size;
        f->every = s->population_every > 1 ? (unsigned)s->population_every : 1;
        char bak[NK_RUN_PATH_MAX];
        nk_backup_name(bak, path, ".bak");
        if (mode == NK_EVO_RESUME && access(path, F_OK) != 0 && errno == ENOENT &&
            access(bak, F_OK) != 0) {
            mode = NK_EVO_NEW; /* killed before its file existed: nothing to resume */
            f->fresh = true;
        }
        st = mode == NK_EVO_RESUME ? resume_file(f, path, err, len)
                                   : create_file(f, path, mode == NK_EVO_FORCE, err, len);
    }
    f->clock.interval = NK_BACKUP_SECONDS;
    if (st == NK_OK)
        st = nk_runopen_backup(f->path, f->done, &f->clock, nk_runopen_now(), err, len);
    f->clean = st == NK_OK;
    if (st != NK_OK) {
        nk_evo_file_close(f);
        return st;
    }
    f->mark = nk_runopen_now();
    *out = f;
    return NK_OK;
}

void nk_evo_file_set_checkpoint_seconds(nk_evo_file *f, double seconds)
{
    f->clock.interval = seconds > 0 ? seconds : 0;
}

/* ===== one generation ===== */

/* output.population_every = K: generation g (0-based) keeps its whole
 * population when g % K == 0 (not by being the run's last: a run extended
 * on --resume stays the same file as one run whole); the others keep
 * their champion's row (nk_fitness_best, as the loop picks it) and NaN
 * elsewhere, in f->kept (and f->kept_sigma).  Whether a row was kept is
 * read back from the NaN (no weight of a genome is NaN: genome.h clamps). */
static nk_status keep_rows(nk_evo_file *f, const nk_evo_record *r, const double **w,
                           const double **sigma, char *err, size_t len)
{
    *w = r->pop->w;
    *sigma = r->pop->sigma;
    if (f->every <= 1 || r->generation % f->every == 0)
        return NK_OK;
    size_t n = r->pop->size, d = f->dim, best = nk_fitness_best(r->fitness, n);
    if (f->kept == NULL && (f->kept = nk_malloc(n * d * sizeof *f->kept)) == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    if (r->pop->sigma != NULL && f->kept_sigma == NULL &&
        (f->kept_sigma = nk_malloc(n * d * sizeof *f->kept_sigma)) == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; i < n * d; i++)
        f->kept[i] = NAN;
    memcpy(f->kept + best * d, r->pop->w + best * d, d * sizeof *f->kept);
    *w = f->kept;
    if (r->pop->sigma != NULL) {
        for (size_t i = 0; i < n * d; i++)
            f->kept_sigma[i] = NAN;
        memcpy(f->kept_sigma + best * d, r->pop->sigma + best * d, d * sizeof *f->kept_sigma);
        *sigma = f->kept_sigma;
    }
    return NK_OK;
}

/* Appends the record of the generation just iterated, with its
 * checkpoint. */
static nk_status write_record(nk_evo_file *f, const nk_evo_record *r, double outside, char *err,
                              size_t len)
{
    const double *genome, *sigma;
    nk_status st = keep_rows(f, r, &genome, &sigma, err, len);
    if (st != NK_OK)
        return st;
    nk_run_blob blobs[3] = {
        {"strategy", NK_RUN_F64, r->strategy, r->n_strategy},
        {"hall", NK_RUN_F64, r->hall, r->n_hall * f->dim},
        {"champion", NK_RUN_F64, r->champion, 1 + f->dim},
    };
    nk_run_gen gen = {
        .genome = genome,
        .sigma = sigma,
        .fitness = r->fitness,
        .wins = r->wins,
        .draws = r->draws,
        .losses = r->losses,
        .ids = r->pop->id,
        .parents = r->pop->parents,
        .stats = r->stats,
        .games = r->games,
        .n_games = r->n_games,
        .bench = r->bench,
        .n_bench = r->n_bench,
        .blobs = blobs,
        .n_blobs = 3,
    };
    gen.stats.outside_seconds = outside;
    return nk_run_append_generation(f->run, &gen, err, len);
}

nk_status nk_evo_file_step(nk_evo_file *f, nk_evo_progress *p, char *err, size_t len)
{
    double t0 = nk_runopen_now();
    f->clean = false;
    nk_status st = nk_evo_iterate(f->evo, err, len);
    const nk_evo_record *r = nk_evo_record_of(f->evo);
    if (st == NK_OK) {
        /* The cycle since the last generation was played, less this one's
         * play: the writing of that generation (and its backup copy, when
         * one was made), then this one's strategy, records and
         * statistics. */
        double t1 = nk_runopen_now(), outside = t1 - f->mark - r->stats.play_seconds;
        f->mark = t1;
        st = write_record(f, r, outside > 0 ? outside : 0, err, len);
    }
    if (st == NK_OK) {
        f->done = r->generation + 1;
        double t1 = nk_runopen_now();
        if (nk_backup_due(&f->clock, t1))
            st = nk_runopen_backup(f->path, f->done, &f->clock, t1, err, len);
        f->clean = st == NK_OK;
    }
    if (st == NK_OK) {
        p->generation = r->generation;
        p->generations = f->generations;
        p->games = r->games_played;
        p->seconds = nk_runopen_now() - t0;
        p->best = r->stats.best;
        p->mean = r->stats.mean;
        p->benchmarked = r->benchmarked;
        p->benchmark_score = r->benchmark_score;
    }
    return st;
}

unsigned nk_evo_file_generation(const nk_evo_file *f)
{
    return f->done;
}

bool nk_evo_file_done(const nk_evo_file *f)
{
    return f->done >= f->generations;
}

const double *nk_evo_file_champion(const nk_evo_file *f, size_t *dim, int64_t *id)
{
    return nk_evo_champion(f->evo, dim, id);
}

bool nk_evo_file_recovered(const nk_evo_file *f)
{
    return f->recovered;
}

bool nk_evo_file_fresh(const nk_evo_file *f)
{
    return f->fresh;
}

void nk_evo_file_close(nk_evo_file *f)
{
    if (f == NULL)
        return;
    nk_runopen_close(f->run, f->path, f->clean);
    nk_evo_free(f->evo);
    nk_free(f->kept);
    nk_free(f->kept_sigma);
    nk_free(f);
}
