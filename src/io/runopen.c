/*
 * runopen.c -- making and reopening a resumable run file (see runopen.h).
 */
#include "io/runopen.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/backup.h"
#include "io/config.h"

nk_status nk_runopen_create(nk_run **out, const char *path, const nk_run_meta *meta, bool force,
                            char *err, size_t len)
{
    /* The file is made whole under a temporary name and renamed into place,
     * so a process killed while creating it leaves no half-made run file;
     * a backup copy left by an earlier run of that name is dropped. */
    char tmp[NK_RUN_PATH_MAX], bak[NK_RUN_PATH_MAX];
    *out = NULL;
    if (!force && access(path, F_OK) == 0)
        return nk_fail(NK_EINVAL, err, len,
                       "'%s' already exists: --resume continues it, --force replaces it", path);
    nk_backup_name(tmp, path, ".new");
    nk_backup_name(bak, path, ".bak");
    nk_run *run = NULL;
    nk_status st = nk_run_create(&run, tmp, meta, true, err, len);
    nk_run_close(run);
    if (st != NK_OK)
        return st;
    nk_io_step("remove backup");
    if (access(bak, F_OK) == 0 && remove(bak) != 0) {
        int saved = errno;
        remove(tmp);
        return nk_fail(NK_EIO, err, len, "cannot create '%s': %s", path, strerror(saved));
    }
    nk_io_step("rename");
    if (rename(tmp, path) != 0) {
        int saved = errno;
        remove(tmp);
        return nk_fail(NK_EIO, err, len, "cannot create '%s': %s", path, strerror(saved));
    }
    return nk_run_open(out, path, true, err, len);
}

nk_status nk_runopen_resume(nk_run **out, const char *path, bool *recovered, char *err,
                            size_t len)
{
    *out = NULL;
    *recovered = false;
    if (!nk_backup_exists(path))
        return nk_run_open(out, path, true, err, len);
    char bak[NK_RUN_PATH_MAX], e2[NK_MSG_MAX];
    nk_backup_name(bak, path, ".bak");
    nk_run *check = NULL;
    nk_status bst = nk_run_open(&check, bak, false, e2, sizeof e2);
    nk_run_close(check);
    bool missing = access(path, F_OK) != 0 && errno == ENOENT;
    nk_status st = NK_EFORMAT;
    if (!missing) {
        st = nk_run_open(out, path, true, err, len);
        if (st != NK_OK && st != NK_EFORMAT)
            return st;
    }
    if (bst != NK_OK) {
        if (st == NK_OK)
            return NK_OK; /* the run file is sound: go on from it */
        if (missing)
            return nk_fail(bst, err, len,
                           "cannot resume '%s': it is missing and its backup cannot be used: %s",
                           path, e2);
        char e3[NK_MSG_MAX];
        snprintf(e3, sizeof e3, "%s", err);
        if (bst != NK_EFORMAT)
            return nk_fail(bst, err, len, "%s; its backup cannot be read: %s", e3, e2);
        return nk_fail(NK_EFORMAT, err, len, "%s; its backup is damaged too: %s", e3, e2);
    }
    nk_run_close(*out);
    *out = NULL;
    bool damaged = st == NK_EFORMAT && !missing;
    st = nk_backup_restore(path, damaged, err, len);
    if (st != NK_OK)
        return st;
    *recovered = damaged;
    return nk_run_open(out, path, true, err, len);
}

nk_status nk_runopen_check_config(nk_run *run, const char *config_text, const char *path,
                                  char *err, size_t len)
{
    nk_config *stored = NULL, *now = NULL;
    char e2[NK_MSG_MAX];
    nk_status st = nk_config_new(&stored, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_load_string(stored, nk_run_get_meta(run)->config, path, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_new(&now, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_load_string(now, config_text, "the config", e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_check_resume(stored, now, e2, sizeof e2);
    nk_config_free(stored);
    nk_config_free(now);
    /* A stored config that does not parse is a damaged file; a mismatch, an
     * out-of-memory or an I/O failure keeps its own status. */
    if (st == NK_EINVAL || st == NK_ERANGE)
        st = NK_EFORMAT;
    if (st != NK_OK)
        return nk_fail(st, err, len, "cannot resume '%s': %s", path, e2);
    return NK_OK;
}

nk_status nk_runopen_read_blob(nk_run *run, const char *name, double **out, size_t *count,
                               char *err, size_t len)
{
    nk_run_kind kind;
    *out = NULL;
    nk_status st = nk_run_checkpoint_info(run, name, &kind, count, err, len);
    double *buf = st == NK_OK ? nk_malloc((*count ? *count : 1) * sizeof *buf) : NULL;
    if (st == NK_OK && buf == NULL)
        st = nk_fail(NK_ENOMEM, err, len, "out of memory");
    if (st == NK_OK)
        st = nk_run_read_checkpoint(run, name, NK_RUN_F64, buf, *count, err, len);
    if (st != NK_OK) {
        nk_free(buf);
        return st;
    }
    *out = buf;
    return NK_OK;
}

double nk_runopen_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

nk_status nk_runopen_backup(const char *path, unsigned done, nk_backup_clock *clock, double t0,
                            char *err, size_t len)
{
    nk_status st = nk_backup_refresh(path, done, err, len);
    double t1 = nk_runopen_now();
    clock->last = t1;
    clock->copy_seconds = t1 - t0;
    return st;
}

void nk_runopen_close(nk_run *run, const char *path, bool clean)
{
    if (run == NULL)
        return;
    nk_run_close(run);
    char e2[NK_MSG_MAX];
    if (clean && nk_backup_sync(path, e2, sizeof e2) == NK_OK)
        nk_backup_remove(path);
}
