/*
 * backup.h -- the crash-safe backup copy of a run file, PATH.bak.
 *
 * HDF5 1.10 updates metadata in place, so a process killed (SIGKILL) while
 * a generation is being flushed can leave a file that no longer opens.  To
 * resume from any moment, a copy of the run file as of the last complete
 * generation is kept beside it, PATH.bak: written as PATH.bak.tmp, synced
 * and renamed, so it is always whole.  --resume goes on from it whenever
 * it exists, that is whenever the run did not close: not only when the run
 * file no longer opens, for a kill during a flush can also leave a file
 * that opens but whose checkpoint data was overwritten (HDF5 reuses the
 * space of the checkpoint it is replacing).  The generations after the
 * copy are played again, which gives the same results (every draw is
 * seeded by generation).  The copy is refreshed after every generation
 * while the file is below NK_BACKUP_EVERY_MB, then every 10 generations,
 * and removed when the run file is closed cleanly.
 *
 * Owns: the names derived from a run file's path (PATH.bak, PATH.bak.tmp,
 * PATH.new, PATH.damaged), the copy, its refresh policy and the restore.
 */
#ifndef NK_IO_BACKUP_H
#define NK_IO_BACKUP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

/* Bytes of a path buffer; a run file's path is shorter than
 * NK_RUN_PATH_MAX - NK_RUN_SUFFIX_MAX, so that it fits with any suffix
 * above (".bak.tmp", ".damaged", ".new"). */
enum { NK_RUN_PATH_MAX = 4096, NK_RUN_SUFFIX_MAX = 16 };
/* The file size above which the copy is refreshed every 10 generations. */
enum { NK_BACKUP_EVERY_MB = 256 };

/* out = path + suffix (out holds NK_RUN_PATH_MAX bytes). */
void nk_backup_name(char *out, const char *path, const char *suffix);
/* Copies from to `to` through to.tmp (synced, renamed).  NK_EIO. */
nk_status nk_backup_copy(const char *from, const char *to, char *err, size_t errlen);
/* Refreshes PATH.bak after `done` complete generations (see above). */
nk_status nk_backup_refresh(const char *path, unsigned done, char *err, size_t errlen);
/* Whether PATH.bak exists (readable). */
bool nk_backup_exists(const char *path);
/* Replaces the run file by its backup copy; a damaged run file is kept as
 * PATH.damaged.  NK_EIO. */
nk_status nk_backup_restore(const char *path, bool damaged, char *err, size_t errlen);
/* Removes PATH.bak. */
void nk_backup_remove(const char *path);

#endif
