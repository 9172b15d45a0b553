/*
 * tune_file.h -- a tuning (run/tune.h) and its run file: the file side of
 * `nickar tune`.
 *
 * The run file is of the same kind as an evolution's (io/runfile.h), so
 * `inspect`, `view`, `match` with `RUN.h5@best` and the notebook read it:
 * one individual per generation, the weights of the fit after each solver
 * iteration (generation 1: the start, w = 0), its fitness minus the mean
 * squared residual, the feature set's names as /features, the strategy
 * attribute "tune-logistic" or "tune-least-squares", no games; the /stats
 * rows of the first and the last generation carry the grade against the
 * database (tb_positions, tb_optimal, tb_seeds_lost); the checkpoint holds
 * "champion" ([1 + D]: the generation's id, then the weights), as an
 * evolution's does.  The last generation's individual is the champion.
 * A tuning is not resumed; --force replaces a file.
 *
 *     nk_tune_file_open(&f, &settings, path, force, threads, err, len);
 *     while (!nk_tune_file_done(f))
 *         nk_tune_file_step(f, &record, err, len);
 *     nk_tune_file_close(f);
 */
#ifndef NK_TUNE_FILE_H
#define NK_TUNE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "run/evolution.h"
#include "run/tune.h"

typedef struct nk_tune_file nk_tune_file;

/* Makes the tuning (nk_tune_alloc, the reference resolved through
 * io/playerio.h: its positions drawn) and creates the run file at path;
 * an existing file is refused (NK_EINVAL, before anything is drawn) unless
 * force.  s->config_text is stored in the file.  The errors of
 * nk_tune_alloc and nk_run_create. */
nk_status nk_tune_file_open(nk_tune_file **out, const nk_evo_settings *s, const char *path,
                            bool force, int threads, char *err, size_t errlen);
/* One iteration, appended to the run file; *rec describes it (valid until
 * the next step or the close). */
nk_status nk_tune_file_step(nk_tune_file *f, const nk_tune_record **rec, char *err,
                            size_t errlen);
bool nk_tune_file_done(const nk_tune_file *f);
const nk_tune_shape *nk_tune_file_shape(const nk_tune_file *f);
/* NULL is allowed. */
void nk_tune_file_close(nk_tune_file *f);

#endif
