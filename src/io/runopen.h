/*
 * runopen.h -- making and reopening the run file of a run that writes one
 * generation at a time and resumes (`nickar learn`, io/td_file.h): a new
 * file made whole and renamed into place, the reopening for --resume with
 * the backup copy (io/backup.h), the stored config compared with the
 * config of the resume, a checkpoint dataset read whole, the backup
 * copy's refresh and its removal when the run closes.  The same
 * steps as `nickar evolve`'s (io/evolve_file.c), for any run file.
 */
#ifndef NK_IO_RUNOPEN_H
#define NK_IO_RUNOPEN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "io/backup.h"
#include "io/runfile.h"

/* Creates the run file at path whole under PATH.new (nk_run_create), drops
 * a backup copy left by an earlier run of that name, renames it into place
 * and opens it for writing.  An existing file is refused (NK_EINVAL, "...
 * already exists: --resume continues it, --force replaces it") unless
 * force.  The errors of nk_run_create and nk_run_open; NK_EIO. */
nk_status nk_runopen_create(nk_run **out, const char *path, const nk_run_meta *meta, bool force,
                            char *err, size_t errlen);

/* Opens the run file at path for writing, to resume it.  When a backup
 * copy exists (the run did not close) and is sound, goes on from it: a
 * damaged run file (one that does not open) is kept as PATH.damaged
 * (*recovered is then true), one that opens is replaced, a missing one is
 * restored.  A damaged backup beside a sound run file is let be; when both
 * are damaged, the error says so.  A file another process holds (NK_EIO)
 * is left alone. */
nk_status nk_runopen_resume(nk_run **out, const char *path, bool *recovered, char *err,
                            size_t errlen);

/* Refreshes the backup copy PATH.bak of the run file at path now (t0: the
 * time, CLOCK_MONOTONIC seconds) and notes in *clock when and how long it
 * took (io/backup.h, nk_backup_due).  done: the complete generations, for
 * the message.  NK_EIO. */
nk_status nk_runopen_backup(const char *path, unsigned done, nk_backup_clock *clock, double t0,
                            char *err, size_t errlen);

/* Closes run (NULL allowed) and, when clean (no step failed), syncs the
 * file at path and removes its backup copy: after a failed step the
 * backup may be the only whole copy, and it goes only once the run file
 * is on disk (appends do not sync it). */
void nk_runopen_close(nk_run *run, const char *path, bool clean);

/* CLOCK_MONOTONIC in seconds. */
double nk_runopen_now(void);

/* Whether the config stored in run equals config_text as --resume asks
 * (io/config.h, nk_config_check_resume).  NK_EMISMATCH listing the keys
 * that differ, NK_EFORMAT for a stored config that does not parse; the
 * message starts "cannot resume 'PATH': ". */
nk_status nk_runopen_check_config(nk_run *run, const char *config_text, const char *path,
                                  char *err, size_t errlen);

/* Reads checkpoint dataset name (float64) into a new array (*out, *count
 * numbers; the caller frees it with nk_free). */
nk_status nk_runopen_read_blob(nk_run *run, const char *name, double **out, size_t *count,
                               char *err, size_t errlen);

#endif
