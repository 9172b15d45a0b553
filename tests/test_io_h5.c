/*
 * test_io_h5.c -- the HDF5 layer under nickar's files (src/io/h5.h).
 *
 * What is checked:
 *
 * - the writer's sticky error: the first failure is kept with its object,
 *   every later call is a no-op that writes nothing; the test hook fails
 *   the nth write;
 * - the deterministic settings: the same objects written twice, a second
 *   apart, give the same bytes;
 * - attributes are checked before they are read: a 1-D attribute where a
 *   scalar is asked for, or a text longer than the buffer, is refused
 *   without HDF5 writing past the buffer (the guard bytes stay);
 * - chunks: rows whose chunk is not stored (an extended dataset, as a
 *   damaged chunk index would read) are refused as a damaged file, not
 *   read as fill values; the stored rows read; the reader keeps its first
 *   failure until nk_h5r_begin;
 * - a whole dataset with a missing chunk is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/h5.h"

static char dir[256];
static char err[512];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/nk_h5_XXXXXX");
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
    static char path[320];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static hid_t new_file(const char *name, unsigned flags)
{
    nk_h5_why why;
    hid_t f = nk_h5_create(in_dir(name), flags, &why);
    assert_true(f >= 0);
    return f;
}

static uint64_t file_size(const char *path)
{
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    return (uint64_t)sb.st_size;
}

static void test_writer_sticky(void **state)
{
    (void)state;
    hid_t f = new_file("sticky.h5", 0);
    nk_h5w w = nk_h5w_make(f, 0, NULL);
    int32_t v = 7;
    assert_true(nk_h5w_attr(&w, f, "/", "first", H5T_STD_I32LE, H5T_NATIVE_INT32, &v));
    assert_false(
        nk_h5w_attr(&w, H5I_INVALID_HID, "nowhere", "x", H5T_STD_I32LE, H5T_NATIVE_INT32, &v));
    assert_false(w.ok);
    assert_string_equal(w.what, "nowhere");
    /* later calls write nothing and keep the first failure */
    assert_false(nk_h5w_text(&w, f, "/", "later", "text"));
    assert_true(nk_h5w_group(&w, f, "/g") < 0);
    assert_string_equal(w.what, "nowhere");
    assert_int_equal(H5Aexists(f, "later"), 0);
    assert_int_equal(H5Lexists(f, "/g", H5P_DEFAULT), 0);
    H5Fclose(f);
}

static void test_writer_fail_at(void **state)
{
    (void)state;
    hid_t f = new_file("hook.h5", 0);
    nk_h5w w = nk_h5w_make(f, 0, "test");
    w.fail_at = 2;
    int32_t v = 1;
    assert_true(nk_h5w_attr(&w, f, "/", "a", H5T_STD_I32LE, H5T_NATIVE_INT32, &v));
    assert_false(nk_h5w_attr(&w, f, "/", "b", H5T_STD_I32LE, H5T_NATIVE_INT32, &v));
    assert_string_equal(w.why, "injected failure");
    assert_int_equal(H5Aexists(f, "b"), 0);
    H5Fclose(f);
}

/* A small file of every kind of object the writer makes. */
static void write_sample(const char *name)
{
    hid_t f = new_file(name, 0);
    nk_h5w w = nk_h5w_make(f, 0, NULL);
    double x[6] = {1, 2, 3, 4, 5, 6};
    hsize_t dims[2] = {3, 2}, max[2] = {H5S_UNLIMITED, 2};
    nk_h5_shape shape = {2, dims, max, dims, false, H5P_DEFAULT, NULL};
    nk_h5w_text(&w, f, "/", "kind", "sample");
    hid_t g = nk_h5w_group(&w, f, "/g");
    assert_true(g >= 0);
    nk_h5w_data(&w, g, "x", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &shape, x);
    H5Gclose(g);
    assert_true(w.ok);
    assert_true(H5Fclose(f) >= 0);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    *n = (size_t)file_size(path);
    char *buf = malloc(*n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, *n, fp), *n);
    fclose(fp);
    return buf;
}

static void test_deterministic(void **state)
{
    (void)state;
    write_sample("one.h5");
    sleep(1); /* object headers would differ by their times */
    write_sample("two.h5");
    size_t n1, n2;
    char *a = slurp(in_dir("one.h5"), &n1), *b = slurp(in_dir("two.h5"), &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
}

static void test_attr_checked(void **state)
{
    (void)state;
    hid_t f = new_file("attrs.h5", 0);
    int32_t many[1000];
    for (int i = 0; i < 1000; i++)
        many[i] = i;
    hsize_t n = 1000;
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate2(f, "n", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Awrite(a, H5T_NATIVE_INT32, many) >= 0);
    H5Aclose(a);
    H5Sclose(sp);
    nk_h5w w = nk_h5w_make(f, 0, NULL);
    nk_h5w_text(&w, f, "/", "long", "a text of many bytes");
    nk_h5w_text(&w, f, "/", "fits", "1234567");
    struct {
        int32_t value, guard;
    } one = {0, 0x5a5a5a5a};
    assert_int_equal(nk_h5_get_num(f, "n", H5T_NATIVE_INT32, &one.value), NK_H5_NOT_KIND);
    assert_int_equal(one.guard, 0x5a5a5a5a);
    assert_int_equal(nk_h5_get_num(f, "none", H5T_NATIVE_INT32, &one.value), NK_H5_MISSING);
    struct {
        char text[8];
        char guard[8];
    } t;
    memset(t.guard, 'G', sizeof t.guard);
    assert_int_equal(nk_h5_get_text_in(f, "long", t.text, sizeof t.text), NK_H5_NOT_KIND);
    assert_int_equal(nk_h5_get_text_in(f, "fits", t.text, sizeof t.text), NK_H5_GOT);
    assert_string_equal(t.text, "1234567");
    assert_memory_equal(t.guard, "GGGGGGGG", 8);
    H5Fclose(f);
}

/* A dataset of 12 int32 rows in chunks of 4 of which only the first is
 * stored. */
static void write_gappy(const char *name)
{
    hid_t f = new_file(name, 0);
    nk_h5w w = nk_h5w_make(f, 0, NULL);
    int32_t rows[4] = {1, 2, 3, 4};
    hsize_t dims[1] = {0}, max[1] = {H5S_UNLIMITED}, chunk[1] = {4};
    nk_h5_shape shape = {1, dims, max, chunk, false, H5P_DEFAULT, NULL};
    hid_t ds = nk_h5w_dataset(&w, f, "/d", H5T_STD_I32LE, &shape);
    assert_true(nk_h5w_rows(&w, ds, "/d", 0, 4, H5T_NATIVE_INT32, rows));
    hsize_t twelve[1] = {12};
    assert_true(H5Dset_extent(ds, twelve) >= 0);
    H5Dclose(ds);
    assert_true(H5Fclose(f) >= 0);
}

static void test_missing_chunk(void **state)
{
    (void)state;
    write_gappy("gappy.h5");
    const char *path = in_dir("gappy.h5");
    nk_h5_why why;
    nk_h5r r = {.path = path, .kind = "test file", .file_size = file_size(path)};
    r.file = nk_h5_open(path, false, false, &why);
    assert_true(r.file >= 0);
    nk_h5r_begin(&r, err, sizeof err);
    hid_t ds = H5Dopen2(r.file, "/d", H5P_DEFAULT);
    int32_t buf[4] = {0};
    assert_int_equal(nk_h5r_rows(&r, ds, "/d", 0, 4, H5T_NATIVE_INT32, buf), NK_OK);
    assert_int_equal(buf[3], 4);
    assert_int_equal(nk_h5r_rows(&r, ds, "/d", 4, 4, H5T_NATIVE_INT32, buf), NK_EFORMAT);
    char want[400];
    /* the chunk index has no entry (HDF5: "chunk storage is not allocated") */
    snprintf(want, sizeof want, "damaged test file '%s': ", path);
    assert_memory_equal(err, want, strlen(want));
    assert_non_null(strstr(err, "/d"));
    /* sticky: the stored rows now fail too, with the first message */
    assert_int_equal(nk_h5r_rows(&r, ds, "/d", 0, 4, H5T_NATIVE_INT32, buf), NK_EFORMAT);
    assert_memory_equal(err, want, strlen(want));
    nk_h5r_begin(&r, err, sizeof err);
    assert_int_equal(nk_h5r_rows(&r, ds, "/d", 0, 4, H5T_NATIVE_INT32, buf), NK_OK);
    int32_t all[12];
    hsize_t d12[1] = {12};
    assert_false(nk_h5r_whole(&r, r.file, "/d", H5T_NATIVE_INT32, 1, d12, all));
    assert_int_equal(r.st, NK_EFORMAT);
    H5Dclose(ds);
    H5Fclose(r.file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_sticky), cmocka_unit_test(test_writer_fail_at),
        cmocka_unit_test(test_deterministic), cmocka_unit_test(test_attr_checked),
        cmocka_unit_test(test_missing_chunk),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
