/*
 * backup.c -- the backup copy of a run file (see backup.h).
 */
#include "io/backup.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"

void nk_backup_name(char *out, const char *path, const char *suffix)
{
    snprintf(out, NK_RUN_PATH_MAX, "%s%s", path, suffix);
}

nk_status nk_backup_copy(const char *from, const char *to, char *err, size_t len)
{
    char tmp[NK_RUN_PATH_MAX];
    nk_backup_name(tmp, to, ".tmp");
    FILE *in = fopen(from, "rb");
    if (in == NULL)
        return nk_fail(NK_EIO, err, len, "cannot read '%s': %s", from, strerror(errno));
    FILE *out = fopen(tmp, "wb");
    if (out == NULL) {
        fclose(in);
        return nk_fail(NK_EIO, err, len, "cannot write the backup '%s': %s", tmp, strerror(errno));
    }
    static const size_t chunk = 1 << 20;
    char *buf = nk_malloc(chunk);
    bool ok = buf != NULL;
    size_t n;
    while (ok && (n = fread(buf, 1, chunk, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    ok = ok && !ferror(in) && fflush(out) == 0 && fsync(fileno(out)) == 0;
    int saved = errno;
    nk_free(buf);
    fclose(in);
    ok = fclose(out) == 0 && ok;
    if (!ok || rename(tmp, to) != 0) {
        if (ok)
            saved = errno;
        remove(tmp);
        return nk_fail(NK_EIO, err, len, "cannot write the backup '%s': %s", to,
                       buf == NULL ? "out of memory" : strerror(saved));
    }
    return NK_OK;
}

nk_status nk_backup_refresh(const char *path, unsigned done, char *err, size_t len)
{
    char bak[NK_RUN_PATH_MAX];
    struct stat st;
    if (stat(path, &st) == 0 && st.st_size > (off_t)NK_BACKUP_EVERY_MB << 20 && done % 10)
        return NK_OK;
    nk_backup_name(bak, path, ".bak");
    return nk_backup_copy(path, bak, err, len);
}

bool nk_backup_exists(const char *path)
{
    char bak[NK_RUN_PATH_MAX];
    nk_backup_name(bak, path, ".bak");
    return access(bak, R_OK) == 0;
}

nk_status nk_backup_restore(const char *path, bool damaged, char *err, size_t len)
{
    char bak[NK_RUN_PATH_MAX], kept[NK_RUN_PATH_MAX], e2[NK_MSG_MAX];
    nk_backup_name(bak, path, ".bak");
    if (damaged) {
        nk_backup_name(kept, path, ".damaged");
        if (rename(path, kept) != 0 || nk_backup_copy(bak, path, e2, sizeof e2) != NK_OK)
            return nk_fail(NK_EIO, err, len, "'%s' is damaged and restoring it from '%s' failed",
                           path, bak);
    } else if (nk_backup_copy(bak, path, e2, sizeof e2) != NK_OK) {
        return nk_fail(NK_EIO, err, len, "cannot restore '%s' from its backup copy: %s", path,
                       e2);
    }
    return NK_OK;
}

void nk_backup_remove(const char *path)
{
    char bak[NK_RUN_PATH_MAX];
    nk_backup_name(bak, path, ".bak");
    remove(bak);
}
