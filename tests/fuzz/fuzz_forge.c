/*
 * fuzz_forge.c -- forged HDF5 files made from a good one by a list of
 * edits (fuzz_forge.h).
 */
#include "fuzz_forge.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"

enum { EDIT = 14, MAX_OBJECTS = 64, NAME_MAX_LEN = 256 };
static const char magic[8] = {'N', 'K', 'F', 'O', 'R', 'G', 'E', '1'};

bool nk_fuzz_is_forge(const uint8_t *data, size_t size)
{
    return size >= sizeof magic && memcmp(data, magic, sizeof magic) == 0;
}

typedef struct object {
    char name[NAME_MAX_LEN];
    bool attr; /* an attribute of "/" (else a dataset) */
} object;

typedef struct objects {
    object o[MAX_OBJECTS];
    size_t n;
} objects;

static herr_t add_dataset(hid_t o, const char *name, const H5O_info_t *info, void *op)
{
    (void)o;
    objects *l = op;
    if (info->type == H5O_TYPE_DATASET && l->n < MAX_OBJECTS &&
        strlen(name) + 2 < NAME_MAX_LEN) {
        snprintf(l->o[l->n].name, NAME_MAX_LEN, "/%s", name);
        l->o[l->n++].attr = false;
    }
    return 0;
}

static herr_t add_attr(hid_t loc, const char *name, const H5A_info_t *info, void *op)
{
    (void)loc, (void)info;
    objects *l = op;
    if (l->n < MAX_OBJECTS && strlen(name) < NAME_MAX_LEN) {
        snprintf(l->o[l->n].name, NAME_MAX_LEN, "%s", name);
        l->o[l->n++].attr = true;
    }
    return 0;
}

static bool copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (in == NULL)
        return false;
    FILE *out = fopen(to, "wb");
    bool ok = out != NULL;
    char buf[65536];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    fclose(in);
    if (out != NULL && fclose(out) != 0)
        ok = false;
    return ok;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Writes n bytes of value at byte offset `at` (modulo the size) of the
 * object's memory image. */
static void poke(hid_t obj, bool attr, hid_t type, hid_t space, size_t at, const uint8_t *value,
                 int n)
{
    hssize_t count = H5Sget_select_npoints(space);
    size_t esize = H5Tget_size(type);
    if (count <= 0 || esize == 0 || (size_t)count > (64u << 20) / esize)
        return;
    size_t size = (size_t)count * esize;
    uint8_t *buf = malloc(size);
    if (buf == NULL)
        abort();
    herr_t rc = attr ? H5Aread(obj, type, buf) : H5Dread(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    if (rc >= 0) {
        at %= size;
        for (int i = 0; i < n && at + (size_t)i < size; i++)
            buf[at + (size_t)i] = value[i];
        if (attr)
            H5Awrite(obj, type, buf);
        else
            H5Dwrite(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    }
    free(buf);
}

static void resize(hid_t ds, hid_t space, uint64_t value)
{
    hsize_t dims[H5S_MAX_RANK];
    int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    if (rank < 1)
        return;
    dims[0] = (hsize_t)(value % (2 * dims[0] + 1));
    H5Dset_extent(ds, dims);
}

static void edit(hid_t f, const object *o, const uint8_t *e)
{
    hid_t obj = o->attr ? H5Aopen(f, o->name, H5P_DEFAULT) : H5Dopen2(f, o->name, H5P_DEFAULT);
    if (obj < 0)
        return;
    hid_t ftype = o->attr ? H5Aget_type(obj) : H5Dget_type(obj);
    hid_t space = o->attr ? H5Aget_space(obj) : H5Dget_space(obj);
    hid_t type = ftype >= 0 ? H5Tget_native_type(ftype, H5T_DIR_ASCEND) : -1;
    if (type >= 0 && space >= 0 && H5Tdetect_class(ftype, H5T_VLEN) <= 0 &&
        H5Tis_variable_str(ftype) <= 0) {
        const uint64_t value = le(e + 6, 8);
        if ((e[5] & 0x80) && !o->attr)
            resize(obj, space, value);
        else
            poke(obj, o->attr, type, space, (size_t)le(e + 1, 4), e + 6, 1 << (e[5] & 3));
    }
    if (type >= 0)
        H5Tclose(type);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (space >= 0)
        H5Sclose(space);
    if (o->attr)
        H5Aclose(obj);
    else
        H5Dclose(obj);
}

bool nk_fuzz_forge(const char *env, const char *path, const uint8_t *data, size_t size)
{
    const char *good = getenv(env);
    if (good == NULL || good[0] == '\0' || !copy_file(good, path))
        return false;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        return false;
    objects l = {.n = 0};
    H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_INC, add_dataset, &l, H5O_INFO_BASIC);
    H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, NULL, add_attr, &l);
    for (size_t at = sizeof magic; l.n > 0 && at + EDIT <= size; at += EDIT)
        edit(f, &l.o[data[at] % l.n], data + at);
    H5Fclose(f);
    /* NICKAR_FUZZ_SAVE=FILE keeps the forged file, a reproducer for nickar */
    const char *save = getenv("NICKAR_FUZZ_SAVE");
    if (save != NULL && save[0] != '\0' && !copy_file(path, save))
        abort();
    return true;
}
