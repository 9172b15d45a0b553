/*
 * evolve_file.h -- an evolution run and its run file: the file side of
 * `nickar evolve`.
 *
 * The loop itself is run/evolution.h; this module creates (or resumes) the run
 * file, restores the loop from its checkpoint, writes every generation's
 * record (nk_evo_record) with the checkpoint, and keeps the backup copy
 * (io/backup.h).  Driven in GSL's iterate/test style so the caller (the
 * CLI) prints progress and handles signals between generations:
 *
 *     nk_evo_file_open(&f, &settings, path, mode, threads, err, len);
 *     while (!nk_evo_file_done(f) && !stop)
 *         nk_evo_file_step(f, &progress, err, len);
 *     nk_evo_file_close(f);
 *
 * Owns: nk_evo_settings from a config, the file's header from the run's
 * shape, the checkpoint's datasets ("strategy", "hall", "champion"), and
 * the resume checks (same config, same population shape).
 */
#ifndef NK_EVOLVE_FILE_H
#define NK_EVOLVE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "run/evolution.h"

struct nk_config;
/* Fills s from a resolved config (nk_config_settings, and the output
 * section's record_games); s borrows cfg's strings, and config_text, which
 * the caller formats with nk_config_format, is left NULL.  Fails only as
 * nk_config_settings does. */
nk_status nk_evo_settings_from_config(nk_evo_settings *s, const struct nk_config *cfg, char *err,
                                      size_t len);

/* The resolver of the player specs of a run's lists (nk_evo_resolve):
 * weights files and run files read through io/playerio.h. */
nk_status nk_evo_file_resolve(const char *text, const nk_variant *v, nk_spec *spec,
                              double *weights, size_t *n, char *err, size_t errlen);

typedef enum nk_evo_mode {
    NK_EVO_NEW,   /* refuse an existing file */
    NK_EVO_FORCE, /* replace an existing file */
    NK_EVO_RESUME /* continue the run in its file; start it when neither the
                     file nor its backup exists yet (a run killed before
                     its file was made) */
} nk_evo_mode;

/* What one generation gave, for progress lines. */
typedef struct nk_evo_progress {
    unsigned generation;    /* 0-based index of the generation just done */
    unsigned generations;   /* of the run */
    uint64_t games;         /* games played this generation */
    double seconds;         /* wall time of the generation */
    double best, mean;      /* fitness */
    bool benchmarked;       /* the benchmark ran this generation */
    double benchmark_score; /* mean score of the champion over the gauntlet */
} nk_evo_progress;

typedef struct nk_evo_file nk_evo_file;

/* Checks the settings, makes the loop (run/evolution.h, with player specs
 * resolved through io/playerio.h), and creates (or, to resume, opens and
 * checks) the run file.  NK_EINVAL / NK_ERANGE for bad settings, NK_EIO
 * for the file, NK_EMISMATCH when resuming a file made from another config
 * (err lists the keys that differ). */
nk_status nk_evo_file_open(nk_evo_file **out, const nk_evo_settings *s, const char *path,
                           nk_evo_mode mode, int threads, char *err, size_t errlen);
/* The checkpoint interval: the backup copy of the run file (io/backup.h)
 * is refreshed after the first generation that ends at least this many
 * seconds after the last copy (and NK_BACKUP_SHARE times the copy's
 * duration); 0: after every generation.  Default NK_BACKUP_SECONDS.  A
 * kill costs at most the generations since the copy, which --resume plays
 * again; the run file's contents do not depend on it. */
void nk_evo_file_set_checkpoint_seconds(nk_evo_file *f, double seconds);
/* Runs and records one generation: plays it, appends it to the run file
 * (flushed, not synced) and refreshes the backup copy when it is due.
 * The /stats row gets outside_seconds: the time since the previous
 * generation's iteration ended (before its writing), less this
 * generation's play_seconds. */
nk_status nk_evo_file_step(nk_evo_file *f, nk_evo_progress *p, char *err, size_t errlen);
/* Generations complete in the file, and whether the run is over. */
unsigned nk_evo_file_generation(const nk_evo_file *f);
bool nk_evo_file_done(const nk_evo_file *f);
/* The champion of the last generation: its id and weights (D numbers). */
const double *nk_evo_file_champion(const nk_evo_file *f, size_t *dim, int64_t *id);
/* True when NK_EVO_RESUME found no run file and started the run. */
bool nk_evo_file_fresh(const nk_evo_file *f);
/* True when --resume found the run file damaged (a process killed while
 * writing) and went on from its backup copy PATH.bak (io/backup.h). */
bool nk_evo_file_recovered(const nk_evo_file *f);
/* Closes the run file and, when no step failed, syncs it and removes its
 * backup copy; frees everything; NULL is allowed. */
void nk_evo_file_close(nk_evo_file *f);

#endif
