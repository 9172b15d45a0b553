/*
 * td_file.h -- a TD learning run (run/td.h) and its run file: the file
 * side of `nickar learn`.
 *
 * The run file is of the same kind as an evolution's (io/runfile.h), so
 * `inspect`, `match` with `RUN.h5@best` and `RUN.h5@gen=G,rank=0`, `ciao`
 * and the notebook read it: one individual per generation, the learner's
 * weights after the generation's games (id G, parent G - 1), its fitness
 * minus the mean squared TD error of those games, wins = losses = the
 * decisive self-play games and draws the drawn ones; the weights' names as
 * /features; the root attributes feature_set (the evaluation) and
 * strategy "td-leaf" or "td-lambda"; /stats with games (the generation's)
 * and evaluations (the games of the run so far); /benchmark as an
 * evolution's, so a learning curve comes out of the same readers; no
 * /games (a self-play game of a learner changes its weights and explores
 * at random: it cannot be played again from a row).  The checkpoint holds
 * "champion" ([1 + D]: the generation's id, then the weights), which is
 * what --resume reads back.  The backup copy PATH.bak (io/backup.h) is
 * kept as evolution's is.
 *
 *     nk_td_file_open(&f, &settings, path, mode, threads, err, len);
 *     while (!nk_td_file_done(f) && !stop)
 *         nk_td_file_step(f, &record, err, len);
 *     nk_td_file_close(f);
 */
#ifndef NK_TD_FILE_H
#define NK_TD_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "io/evolve_file.h"
#include "run/td.h"

typedef struct nk_td_file nk_td_file;

/* Makes the learner (nk_td_alloc, benchmark players resolved through
 * io/playerio.h) and creates the run file (NK_EVO_NEW, NK_EVO_FORCE), or
 * opens it, checks that its stored config matches and restores the
 * learner from its checkpoint (NK_EVO_RESUME; a run with neither file nor
 * backup is started).  s->config_text is stored in the file.  The errors
 * of nk_td_alloc and of the run file; NK_EMISMATCH for a file of another
 * config or not of a learning run. */
nk_status nk_td_file_open(nk_td_file **out, const nk_evo_settings *s, const char *path,
                          nk_evo_mode mode, int threads, char *err, size_t errlen);
/* The checkpoint interval of the backup copy (as nk_evo_file's). */
void nk_td_file_set_checkpoint_seconds(nk_td_file *f, double seconds);
/* One generation, appended to the run file; *rec describes it (valid
 * until the next step or the close). */
nk_status nk_td_file_step(nk_td_file *f, const nk_td_record **rec, char *err, size_t errlen);
unsigned nk_td_file_generation(const nk_td_file *f);
bool nk_td_file_done(const nk_td_file *f);
const nk_td_shape *nk_td_file_shape(const nk_td_file *f);
/* True when NK_EVO_RESUME found no run file and started the run; when it
 * went on from the backup copy of a damaged file. */
bool nk_td_file_fresh(const nk_td_file *f);
bool nk_td_file_recovered(const nk_td_file *f);
/* Closes the run file and, when no step failed, syncs it and removes its
 * backup copy; NULL is allowed. */
void nk_td_file_close(nk_td_file *f);

#endif
