/*
 * backup.h -- the crash-safe backup copy of a run file, PATH.bak.
 *
 * HDF5 1.10 updates metadata in place, so a process killed (SIGKILL) while
 * a generation is being flushed can leave a file that no longer opens.  To
 * resume from any moment, a copy of the run file as of some complete
 * generation is kept beside it, PATH.bak: written as PATH.bak.tmp, synced
 * and renamed, so it is always whole.  --resume goes on from it whenever
 * it exists, that is whenever the run did not close: not only when the run
 * file no longer opens, for a kill during a flush can also leave a file
 * that opens but whose checkpoint data was overwritten (HDF5 reuses the
 * space of the checkpoint it is replacing).  The generations after the
 * copy are played again, which gives the same results (every draw is
 * seeded by generation), so the copy need not follow every generation:
 * it is made when the run file is opened and then refreshed after the
 * first generation that ends at least a checkpoint interval after the
 * last copy (NK_BACKUP_SECONDS, `nickar evolve --checkpoint-seconds`), and
 * never sooner than NK_BACKUP_SHARE times the last copy's duration, so
 * that copying takes at most 1/NK_BACKUP_SHARE of the run's time however
 * large the file grows (nk_backup_due).  It is removed when the run file
 * is closed cleanly, after the run file is synced (nk_backup_sync).

 * The restore cannot be stranded by a kill: the damaged file is kept as
 * PATH.damaged by a second link (or a copy), never moved away, and the
 * backup is copied to PATH.tmp, synced and renamed over PATH; the backup
 * stays until the run closes cleanly.  So at every moment PATH is either
 * the old file or the whole backup copy, and PATH.bak is whole: some later
 * --resume always succeeds.  (A PATH that is missing beside a PATH.bak --
 * left by older versions -- is restored too.)
 *
 * Owns: the names derived from a run file's path (PATH.bak, PATH.bak.tmp,
 * PATH.new, PATH.damaged, PATH.tmp), the copy, its refresh policy and the
 * restore; and the test seam of the run file's I/O steps (nk_io_step).
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
/* The default checkpoint interval in seconds, and the least ratio of the
 * interval to the duration of the last copy. */
enum { NK_BACKUP_SECONDS = 60, NK_BACKUP_SHARE = 100 };

/* When the copy is due.  interval: seconds (0: after every generation);
 * last: the time of the last copy (any monotonic clock, seconds);
 * copy_seconds: how long it took. */
typedef struct nk_backup_clock {
    double interval;
    double last;
    double copy_seconds;
} nk_backup_clock;
/* Whether a copy is due at time now: interval 0, or at least interval and
 * NK_BACKUP_SHARE * copy_seconds since the last. */
bool nk_backup_due(const nk_backup_clock *c, double now);

/* out = path + suffix (out holds NK_RUN_PATH_MAX bytes). */
void nk_backup_name(char *out, const char *path, const char *suffix);
/* Copies from to `to` through to.tmp (synced, renamed).  NK_EIO. */
nk_status nk_backup_copy(const char *from, const char *to, char *err, size_t errlen);
/* Refreshes PATH.bak now: a copy of the run file with `done` complete
 * generations (the number is for the error message).  NK_EIO. */
nk_status nk_backup_refresh(const char *path, unsigned done, char *err, size_t errlen);
/* Puts the file at path on disk (fsync; a step of the seam, "fsync"), so
 * that the backup copy may go.  NK_EIO. */
nk_status nk_backup_sync(const char *path, char *err, size_t errlen);
/* Whether PATH.bak exists (readable). */
bool nk_backup_exists(const char *path);
/* Replaces the run file by its backup copy; a damaged run file is kept as
 * PATH.damaged.  NK_EIO. */
nk_status nk_backup_restore(const char *path, bool damaged, char *err, size_t errlen);
/* When the run file at path was being written when its writer stopped (a
 * PATH.bak or, for a missing file, a PATH.new lies beside it), appends to
 * msg (a NUL-terminated message in len bytes) what recovers it: "; it was
 * being written when its run stopped: `nickar evolve CONFIG --resume` ...".
 * Readers that fail on a run file add it to their error. */
void nk_backup_hint(const char *path, char *msg, size_t len);
/* Removes PATH.bak. */
void nk_backup_remove(const char *path);

/* Test seam.  Every step of the run file's I/O that a kill could interrupt
 * -- each HDF5 write and flush of the run file (io/runfile*.c, through
 * io/h5.h's writer), each write, sync, rename,
 * link, unlink and truncate of the copies here and in io/evolve_file.c,
 * and the final sync of the run file before its copy is removed --
 * calls nk_io_step(what) just before it.  In nickar and the libraries the
 * hook is NULL and this costs one test; the nickar-test binary
 * (tests/CMakeLists.txt) sets it to stop the process at the Nth step
 * (NICKAR_KILL_AT=N), which tests/test_runfile_kill.sh uses. */
extern void (*nk_io_step_hook)(const char *what);
void nk_io_step(const char *what);

#endif
