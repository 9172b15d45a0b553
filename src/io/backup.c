/*
 * backup.c -- the backup copy of a run file (see backup.h).
 */
#include "io/backup.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"

void (*nk_io_step_hook)(const char *what) = NULL;

void nk_io_step(const char *what)
{
    if (nk_io_step_hook != NULL)
        nk_io_step_hook(what);
}

void nk_backup_name(char *out, const char *path, const char *suffix)
{
    snprintf(out, NK_RUN_PATH_MAX, "%s%s", path, suffix);
}

/* Syncs the directory that holds path, so that a rename in it lasts (file
 * systems that cannot sync a directory are let be). */
static void sync_dir(const char *path)
{
    char dir[NK_RUN_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    int fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    nk_io_step("sync directory");
    (void)fsync(fd);
    close(fd);
}

/* rename(from, to) as a step of the seam, the directory synced after. */
static int step_rename(const char *from, const char *to)
{
    nk_io_step("rename");
    int rc = rename(from, to);
    if (rc == 0)
        sync_dir(to);
    return rc;
}

nk_status nk_backup_copy(const char *from, const char *to, char *err, size_t len)
{
    char tmp[NK_RUN_PATH_MAX];
    nk_backup_name(tmp, to, ".tmp");
    FILE *in = fopen(from, "rb");
    if (in == NULL)
        return nk_fail(NK_EIO, err, len, "cannot read '%s': %s", from, strerror(errno));
    nk_io_step("create copy");
    FILE *out = fopen(tmp, "wb");
    if (out == NULL) {
        fclose(in);
        return nk_fail(NK_EIO, err, len, "cannot write the backup '%s': %s", tmp, strerror(errno));
    }
    static const size_t chunk = 1 << 20;
    char *buf = nk_malloc(chunk);
    bool ok = buf != NULL;
    size_t n;
    while (ok && (n = fread(buf, 1, chunk, in)) > 0) {
        nk_io_step("write copy");
        ok = fwrite(buf, 1, n, out) == n;
    }
    ok = ok && !ferror(in) && fflush(out) == 0;
    if (ok)
        nk_io_step("sync copy");
    ok = ok && fsync(fileno(out)) == 0;
    int saved = errno;
    nk_free(buf);
    fclose(in);
    ok = fclose(out) == 0 && ok;
    if (!ok || step_rename(tmp, to) != 0) {
        if (ok)
            saved = errno;
        remove(tmp);
        return nk_fail(NK_EIO, err, len, "cannot write the backup '%s': %s", to,
                       buf == NULL ? "out of memory" : strerror(saved));
    }
    return NK_OK;
}

bool nk_backup_due(const nk_backup_clock *c, double now)
{
    if (c->interval <= 0)
        return true;
    double since = now - c->last;
    return since >= c->interval && since >= NK_BACKUP_SHARE * c->copy_seconds;
}

nk_status nk_backup_refresh(const char *path, unsigned done, char *err, size_t len)
{
    char bak[NK_RUN_PATH_MAX], e2[NK_MSG_MAX];
    nk_backup_name(bak, path, ".bak");
    if (nk_backup_copy(path, bak, e2, sizeof e2) != NK_OK)
        return nk_fail(NK_EIO, err, len, "%s (after generation %u)", e2, done);
    return NK_OK;
}

nk_status nk_backup_sync(const char *path, char *err, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return nk_fail(NK_EIO, err, len, "cannot sync '%s': %s", path, strerror(errno));
    nk_io_step("fsync");
    int rc = fsync(fd), saved = errno;
    close(fd);
    if (rc != 0 && saved != EINVAL && saved != EROFS)
        return nk_fail(NK_EIO, err, len, "cannot sync '%s': %s", path, strerror(saved));
    return NK_OK;
}

bool nk_backup_exists(const char *path)
{
    char bak[NK_RUN_PATH_MAX];
    nk_backup_name(bak, path, ".bak");
    return access(bak, R_OK) == 0;
}

/* Keeps the damaged file as kept without moving it away from path: a
 * second link, or a copy where the file system has no links. */
static nk_status keep_damaged(const char *path, const char *kept, char *err, size_t len)
{
    nk_io_step("unlink");
    if (unlink(kept) != 0 && errno != ENOENT)
        return nk_fail(NK_EIO, err, len, "cannot replace '%s': %s", kept, strerror(errno));
    nk_io_step("link");
    if (link(path, kept) == 0) {
        sync_dir(kept);
        return NK_OK;
    }
    return nk_backup_copy(path, kept, err, len);
}

nk_status nk_backup_restore(const char *path, bool damaged, char *err, size_t len)
{
    char bak[NK_RUN_PATH_MAX], kept[NK_RUN_PATH_MAX], e2[NK_MSG_MAX];
    nk_backup_name(bak, path, ".bak");
    if (damaged) {
        nk_backup_name(kept, path, ".damaged");
        if (access(path, F_OK) == 0 && keep_damaged(path, kept, e2, sizeof e2) != NK_OK)
            return nk_fail(NK_EIO, err, len, "'%s' is damaged and keeping it as '%s' failed: %s",
                           path, kept, e2);
        if (nk_backup_copy(bak, path, e2, sizeof e2) != NK_OK)
            return nk_fail(NK_EIO, err, len, "'%s' is damaged and restoring it from '%s' failed: %s",
                           path, bak, e2);
    } else if (nk_backup_copy(bak, path, e2, sizeof e2) != NK_OK) {
        return nk_fail(NK_EIO, err, len, "cannot restore '%s' from its backup copy: %s", path,
                       e2);
    }
    return NK_OK;
}

void nk_backup_hint(const char *path, char *msg, size_t len)
{
    char other[NK_RUN_PATH_MAX];
    size_t used = strlen(msg);
    if (used + 1 >= len)
        return;
    nk_backup_name(other, path, ".bak");
    if (access(other, F_OK) == 0) {
        snprintf(msg + used, len - used,
                 "; it was being written when its run stopped: `nickar evolve CONFIG --output "
                 "%s --resume` recovers it from its backup copy '%s'", path, other);
        return;
    }
    nk_backup_name(other, path, ".new");
    if (access(path, F_OK) != 0 && access(other, F_OK) == 0)
        snprintf(msg + used, len - used,
                 "; its run stopped while creating it: `nickar evolve CONFIG --output %s "
                 "--resume` starts the run", path);
}

void nk_backup_remove(const char *path)
{
    char bak[NK_RUN_PATH_MAX];
    nk_backup_name(bak, path, ".bak");
    nk_io_step("remove backup");
    remove(bak);
}
