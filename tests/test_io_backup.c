/*
 * test_io_backup.c -- the backup copy of a run file (io/backup.h): names,
 * the copy, refresh, restore (a damaged file is kept aside) and removal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/backup.h"

static char dir[512];

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void assert_text(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    assert_string_equal(buf, text);
}

static int setup(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/nk_backup_XXXXXX", base ? base : "/tmp");
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    static const char *const names[] = {"run.h5", "run.h5.bak", "run.h5.bak.tmp",
                                        "run.h5.damaged"};
    char p[NK_RUN_PATH_MAX];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        remove(p);
    }
    return rmdir(dir);
}

static void test_names(void **state)
{
    (void)state;
    char out[NK_RUN_PATH_MAX];
    nk_backup_name(out, "results/x/run.h5", ".bak");
    assert_string_equal(out, "results/x/run.h5.bak");
    nk_backup_name(out, "run.h5", ".damaged");
    assert_string_equal(out, "run.h5.damaged");
}

static void test_refresh_restore_remove(void **state)
{
    (void)state;
    char path[NK_RUN_PATH_MAX], bak[NK_RUN_PATH_MAX], kept[NK_RUN_PATH_MAX], err[512];
    snprintf(path, sizeof path, "%s/run.h5", dir);
    nk_backup_name(bak, path, ".bak");
    nk_backup_name(kept, path, ".damaged");
    write_text(path, "generation 3");
    assert_false(nk_backup_exists(path));
    assert_int_equal(nk_backup_refresh(path, 3, err, sizeof err), NK_OK);
    assert_true(nk_backup_exists(path));
    assert_text(bak, "generation 3");

    /* The file opens but may hold overwritten data: replaced. */
    write_text(path, "half of generation 4");
    assert_int_equal(nk_backup_restore(path, false, err, sizeof err), NK_OK);
    assert_text(path, "generation 3");
    assert_int_equal(access(kept, F_OK), -1);

    /* A damaged file is kept aside. */
    write_text(path, "damaged");
    assert_int_equal(nk_backup_restore(path, true, err, sizeof err), NK_OK);
    assert_text(path, "generation 3");
    assert_text(kept, "damaged");

    nk_backup_remove(path);
    assert_false(nk_backup_exists(path));
    /* Nothing to restore from. */
    assert_int_equal(nk_backup_restore(path, false, err, sizeof err), NK_EIO);
    assert_non_null(strstr(err, "backup"));
}

static void test_copy_of_a_missing_file_fails(void **state)
{
    (void)state;
    char from[NK_RUN_PATH_MAX], to[NK_RUN_PATH_MAX], err[512];
    snprintf(from, sizeof from, "%s/none.h5", dir);
    snprintf(to, sizeof to, "%s/run.h5.bak", dir);
    assert_int_equal(nk_backup_copy(from, to, err, sizeof err), NK_EIO);
    assert_non_null(strstr(err, "none.h5"));
    assert_int_equal(access(to, F_OK), -1);
}

/* The copy is due after the interval, and never sooner than
 * NK_BACKUP_SHARE times the last copy's duration; interval 0: always. */
static void test_due(void **state)
{
    (void)state;
    nk_backup_clock c = {.interval = 60, .last = 1000, .copy_seconds = 0.01};
    assert_false(nk_backup_due(&c, 1000));
    assert_false(nk_backup_due(&c, 1059.9));
    assert_true(nk_backup_due(&c, 1060));
    c.copy_seconds = 2; /* a large file: 100 copies' time, not 60 s */
    assert_false(nk_backup_due(&c, 1060));
    assert_false(nk_backup_due(&c, 1199));
    assert_true(nk_backup_due(&c, 1000 + 2.0 * NK_BACKUP_SHARE));
    c.interval = 0;
    assert_true(nk_backup_due(&c, 1000));
}

/* The sync of a file, and its failure on a missing one. */
static void test_sync(void **state)
{
    (void)state;
    char path[NK_RUN_PATH_MAX], err[512];
    snprintf(path, sizeof path, "%s/sync.h5", dir);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fputs("data", fp);
    fclose(fp);
    assert_int_equal(nk_backup_sync(path, err, sizeof err), NK_OK);
    remove(path);
    assert_int_equal(nk_backup_sync(path, err, sizeof err), NK_EIO);
    assert_non_null(strstr(err, "sync.h5"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_refresh_restore_remove),
        cmocka_unit_test(test_copy_of_a_missing_file_fails),
        cmocka_unit_test(test_due),
        cmocka_unit_test(test_sync),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
