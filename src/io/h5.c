/*
 * h5.c -- the one HDF5 layer under nickar's files (h5.h).
 *
 * The writer and the reader keep their first failure and turn every later
 * call into a no-op; the checks against damaged files sit in the reader's
 * functions (attributes: type, dataspace and size before a read; datasets:
 * shape, and every chunk a read touches, before it), so that the files
 * above need no checks of their own to be safe.
 */
#include "io/h5.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/backup.h" /* nk_io_step */

/* ===================================================================
 * Errors as one line
 * =================================================================== */

void nk_h5_line(char *dst, size_t cap, const char *src, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        dst[i] = (src[i] == '\n' || src[i] == '\r' || src[i] == '\t') ? ' ' : src[i];
    while (n > 0 && dst[n - 1] == ' ')
        n--;
    dst[n] = '\0';
}

static herr_t why_walk(unsigned n, const H5E_error2_t *e, void *data)
{
    static const char key[] = "error message = '";
    nk_h5_why *w = data;
    const char *desc = e->desc != NULL ? e->desc : "";
    const char *m = strstr(desc, key);
    if (strstr(desc, "unable to lock file") != NULL)
        w->lock = true;
    if (m != NULL && !w->os) {
        m += sizeof key - 1;
        const char *end = strchr(m, '\'');
        nk_h5_line(w->text, sizeof w->text, m, end != NULL ? (size_t)(end - m) : strlen(m));
        w->os = true;
    } else if (n == 0 && !w->os && desc[0] != '\0') {
        nk_h5_line(w->text, sizeof w->text, desc, strlen(desc));
    }
    return 0;
}

nk_h5_why nk_h5_why_last(void)
{
    nk_h5_why w = {"HDF5 error", false, false, false};
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, why_walk, &w);
    H5Eclear2(H5E_DEFAULT);
    return w;
}

void nk_h5_quiet(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ===================================================================
 * Types
 * =================================================================== */

hid_t nk_h5_str_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return t;
    if (H5Tset_size(t, size) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

hid_t nk_h5_utf8_type(size_t size)
{
    hid_t t = nk_h5_str_type(size);
    if (t >= 0 && H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

hid_t nk_h5_read_str_type(hid_t ft, size_t size)
{
    hid_t t = nk_h5_str_type(size);
    if (t < 0)
        return t;
    H5T_cset_t cs = H5Tget_cset(ft);
    if (cs < 0 || H5Tset_cset(t, cs) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

hid_t nk_h5_vstr_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return t;
    if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

bool nk_h5_plain_fits(hid_t t)
{
    size_t size = H5Tget_size(t);
    H5T_class_t c = H5Tget_class(t);
    if (size < 1 || size > 64)
        return false;
    if (c == H5T_STRING)
        return H5Tis_variable_str(t) == 0;
    if (c != H5T_INTEGER && c != H5T_FLOAT)
        return false;
    size_t prec = H5Tget_precision(t);
    int off = H5Tget_offset(t);
    return prec >= 1 && off >= 0 && prec + (size_t)off <= 8 * size;
}

bool nk_h5_compound_fits(hid_t ft)
{
    if (ft < 0 || H5Tget_class(ft) != H5T_COMPOUND)
        return false;
    size_t size = H5Tget_size(ft);
    int n = H5Tget_nmembers(ft);
    if (n < 1 || n > 64 || size < 1 || size > 4096)
        return false;
    size_t lo[64], hi[64];
    bool good = true;
    for (int i = 0; good && i < n; i++) {
        hid_t mt = H5Tget_member_type(ft, (unsigned)i);
        size_t off = H5Tget_member_offset(ft, (unsigned)i);
        good = mt >= 0 && nk_h5_plain_fits(mt) && off < size && H5Tget_size(mt) <= size - off;
        if (good) {
            lo[i] = off;
            hi[i] = off + H5Tget_size(mt);
            for (int j = 0; good && j < i; j++)
                good = hi[i] <= lo[j] || hi[j] <= lo[i];
        }
        if (mt >= 0)
            H5Tclose(mt);
    }
    H5Eclear2(H5E_DEFAULT);
    return good;
}

/* ===================================================================
 * Files
 * =================================================================== */

hid_t nk_h5_create(const char *path, unsigned flags, nk_h5_why *why)
{
    nk_h5_quiet();
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t fcpl = H5P_DEFAULT;
    /* The 1.8 format: superblock v2 and object headers with checksums, no
     * consistency flags (the 1.10 format's superblock v3 keeps a file that
     * a killed writer had open from opening at all). */
    if (fapl >= 0) {
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V18,
                             flags & NK_H5_LIBVER_LATEST ? H5F_LIBVER_LATEST : H5F_LIBVER_V18);
    }
    if (!(flags & NK_H5_TRACK_TIMES)) {
        fcpl = H5Pcreate(H5P_FILE_CREATE);
        if (fcpl >= 0)
            H5Pset_obj_track_times(fcpl, 0);
    }
    hid_t f = fapl < 0 || fcpl < 0
                  ? H5I_INVALID_HID
                  : H5Fcreate(path, flags & NK_H5_EXCL ? H5F_ACC_EXCL : H5F_ACC_TRUNC, fcpl, fapl);
    *why = nk_h5_why_last(); /* before H5Pclose clears the error stack */
    if (fapl >= 0)
        H5Pclose(fapl);
    if (fcpl >= 0 && fcpl != H5P_DEFAULT)
        H5Pclose(fcpl);
    return f;
}

static bool dense_attrs_fit(hid_t f, const char *path, bool *oom); /* below, with the reader */

hid_t nk_h5_open(const char *path, bool writable, bool lock, nk_h5_why *why)
{
    nk_h5_quiet();
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0)
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
    /* A reader that takes no lock works on a file in progress (its writer
     * holds the lock). */
    if (fapl >= 0 && !lock)
        H5Pset_file_locking(fapl, 0, 1);
    hid_t f = H5Fopen(path, writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, fapl);
    *why = nk_h5_why_last();
    if (fapl >= 0)
        H5Pclose(fapl);
    /* before anything can make HDF5 decode an attribute */
    bool oom = false;
    if (f >= 0 && !dense_attrs_fit(f, path, &oom)) {
        H5Fclose(f);
        H5Eclear2(H5E_DEFAULT);
        *why = oom ? (nk_h5_why){"out of memory", false, false, true}
                   : (nk_h5_why){"an attribute's stored sizes do not fit in it", false, false,
                                 false};
        f = H5I_INVALID_HID;
    }
    return f;
}

bool nk_h5_exists(hid_t loc, const char *path)
{
    htri_t e = H5Lexists(loc, path, H5P_DEFAULT);
    if (e < 0)
        H5Eclear2(H5E_DEFAULT);
    return e > 0;
}

/* ===================================================================
 * The writer
 * =================================================================== */

nk_h5w nk_h5w_make(hid_t file, unsigned flags, const char *label)
{
    return (nk_h5w){.file = file, .flags = flags, .checksums = true, .label = label, .ok = true};
}

void nk_h5w_fail(nk_h5w *w, const char *what, const char *why, bool os)
{
    if (!w->ok)
        return;
    w->ok = false;
    snprintf(w->what, sizeof w->what, "%s", what);
    snprintf(w->why, sizeof w->why, "%s", why);
    w->os = os;
}

bool nk_h5w_may(nk_h5w *w, const char *kind, const char *what)
{
    if (!w->ok)
        return false;
    if (w->label != NULL) {
        char step[64];
        snprintf(step, sizeof step, "%s %s", w->label, kind);
        nk_io_step(step);
    } else {
        nk_io_step(what);
    }
    if (w->fail_at == 0 || --w->fail_at > 0)
        return true;
    nk_h5w_fail(w, what, "injected failure", false);
    return false;
}

bool nk_h5w_ok(nk_h5w *w, const char *what, int64_t rc)
{
    if (rc >= 0)
        return w->ok;
    nk_h5_why y = nk_h5_why_last();
    nk_h5w_fail(w, what, y.text, y.os);
    return false;
}

bool nk_h5w_attr(nk_h5w *w, hid_t loc, const char *what, const char *name, hid_t ftype, hid_t mtype,
                 const void *value)
{
    if (!nk_h5w_may(w, "attribute", what))
        return false;
    if (H5Aexists(loc, name) > 0 && !nk_h5w_ok(w, what, H5Adelete(loc, name)))
        return false;
    hid_t space = H5Screate(H5S_SCALAR);
    if (!nk_h5w_ok(w, what, space))
        return false;
    hid_t a = H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    bool good = nk_h5w_ok(w, what, a) && nk_h5w_ok(w, what, H5Awrite(a, mtype, value));
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    return good;
}

bool nk_h5w_text(nk_h5w *w, hid_t loc, const char *what, const char *name, const char *value)
{
    if (!w->ok)
        return false;
    const char *v = value != NULL ? value : "";
    hid_t t = nk_h5_utf8_type(strlen(v) + 1);
    if (!nk_h5w_ok(w, what, t))
        return false;
    bool good = nk_h5w_attr(w, loc, what, name, t, t, v);
    H5Tclose(t);
    return good;
}

char *nk_h5_pack_texts(const char *const *values, size_t n, size_t *size)
{
    size_t each = 1;
    for (size_t i = 0; i < n; i++)
        if (strlen(values[i]) + 1 > each)
            each = strlen(values[i]) + 1;
    char *buf = nk_calloc(n, each);
    if (buf != NULL)
        for (size_t i = 0; i < n; i++)
            memcpy(buf + i * each, values[i], strlen(values[i]));
    *size = each;
    return buf;
}

bool nk_h5w_text_list(nk_h5w *w, hid_t loc, const char *what, const char *name,
                      const char *const *values, size_t n)
{
    if (!nk_h5w_may(w, "attribute", what))
        return false;
    hsize_t dims[1] = {n};
    size_t each;
    char *buf = nk_h5_pack_texts(values, n, &each);
    if (buf == NULL) {
        nk_h5w_fail(w, what, "out of memory", false);
        return false;
    }
    hid_t t = nk_h5_utf8_type(each);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t a = t < 0 || space < 0 ? H5I_INVALID_HID
                                 : H5Acreate2(loc, name, t, space, H5P_DEFAULT, H5P_DEFAULT);
    bool good = nk_h5w_ok(w, what, a) && nk_h5w_ok(w, what, H5Awrite(a, t, buf));
    nk_free(buf);
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    if (t >= 0)
        H5Tclose(t);
    return good;
}

hid_t nk_h5w_group(nk_h5w *w, hid_t loc, const char *path)
{
    if (!nk_h5w_may(w, "group", path))
        return H5I_INVALID_HID;
    hid_t gcpl = H5P_DEFAULT;
    if (!(w->flags & NK_H5_TRACK_TIMES)) {
        gcpl = H5Pcreate(H5P_GROUP_CREATE);
        if (gcpl >= 0)
            H5Pset_obj_track_times(gcpl, 0);
    }
    hid_t g = gcpl < 0 ? gcpl : H5Gcreate2(loc, path, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    if (gcpl >= 0 && gcpl != H5P_DEFAULT)
        H5Pclose(gcpl);
    if (!nk_h5w_ok(w, path, g) && g >= 0) {
        H5Gclose(g);
        g = H5I_INVALID_HID;
    }
    return g;
}

/* The creation properties of a dataset: its chunks, filters (in this
 * order: shuffle, deflate, Fletcher-32) and times. */
static hid_t dataset_create(nk_h5w *w, const char *name, const nk_h5_shape *s)
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    bool good = nk_h5w_ok(w, name, dcpl);
    if (good && s->chunk != NULL)
        good = nk_h5w_ok(w, name, H5Pset_chunk(dcpl, s->rank, s->chunk));
    if (good && s->chunk != NULL && s->deflate && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0)
        good =
            nk_h5w_ok(w, name, H5Pset_shuffle(dcpl)) && nk_h5w_ok(w, name, H5Pset_deflate(dcpl, 4));
    if (good && s->chunk != NULL && w->checksums)
        good = nk_h5w_ok(w, name, H5Pset_fletcher32(dcpl));
    if (good && !(w->flags & NK_H5_TRACK_TIMES))
        good = nk_h5w_ok(w, name, H5Pset_obj_track_times(dcpl, 0));
    if (!good && dcpl >= 0) {
        H5Pclose(dcpl);
        dcpl = H5I_INVALID_HID;
    }
    return dcpl;
}

hid_t nk_h5w_dataset(nk_h5w *w, hid_t loc, const char *name, hid_t ftype, const nk_h5_shape *shape)
{
    const char *what = shape->what != NULL ? shape->what : name;
    if (!nk_h5w_may(w, "dataset", what))
        return H5I_INVALID_HID;
    hid_t space = H5Screate_simple(shape->rank, shape->dims, shape->maxdims);
    hid_t dcpl = nk_h5w_ok(w, what, space) ? dataset_create(w, what, shape) : H5I_INVALID_HID;
    hid_t ds = H5I_INVALID_HID;
    if (dcpl >= 0) {
        ds = H5Dcreate2(loc, name, ftype, space, H5P_DEFAULT, dcpl, shape->dapl);
        if (!nk_h5w_ok(w, what, ds) && ds >= 0) {
            H5Dclose(ds);
            ds = H5I_INVALID_HID;
        }
        H5Pclose(dcpl);
    }
    if (space >= 0)
        H5Sclose(space);
    return ds;
}

bool nk_h5w_write(nk_h5w *w, hid_t ds, const char *what, hid_t mtype, const void *data)
{
    return w->ok && nk_h5w_ok(w, what, H5Dwrite(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
}

bool nk_h5w_data(nk_h5w *w, hid_t loc, const char *name, hid_t ftype, hid_t mtype,
                 const nk_h5_shape *shape, const void *data)
{
    hid_t ds = nk_h5w_dataset(w, loc, name, ftype, shape);
    if (ds >= 0 && shape->dims[0] > 0)
        nk_h5w_write(w, ds, name, mtype, data);
    if (ds >= 0)
        H5Dclose(ds);
    return w->ok;
}

/* The rank and dims of ds (dims[1], dims[2] 1 beyond the rank); -1 on
 * failure, kept in w. */
static int dims_of(nk_h5w *w, hid_t ds, const char *what, hsize_t dims[3])
{
    dims[0] = 0;
    dims[1] = dims[2] = 1;
    hid_t space = H5Dget_space(ds);
    if (!nk_h5w_ok(w, what, space))
        return -1;
    int rank = H5Sget_simple_extent_ndims(space);
    if (rank > 3) {
        H5Sclose(space);
        nk_h5w_fail(w, what, "more than 3 dimensions", false);
        return -1;
    }
    rank = H5Sget_simple_extent_dims(space, dims, NULL);
    H5Sclose(space);
    return nk_h5w_ok(w, what, rank) ? rank : -1;
}

/* The conversion buffers of a write (native rows to packed file rows)
 * sized to the rows written: HDF5's default is 1 MiB for each, cleared on
 * every write, which cost more than the rest of a run file's append. */
static hid_t sized_transfer(nk_h5w *w, hid_t ds, const char *what, hid_t mtype, size_t elems)
{
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    hid_t ftype = H5Dget_type(ds);
    size_t row = H5Tget_size(mtype) > H5Tget_size(ftype) ? H5Tget_size(mtype) : H5Tget_size(ftype);
    size_t bytes = elems * row;
    bool good = nk_h5w_ok(w, what, dxpl) && nk_h5w_ok(w, what, ftype) &&
                nk_h5w_ok(w, what, H5Pset_buffer(dxpl, bytes > 0 ? bytes : 1, NULL, NULL));
    if (ftype >= 0)
        H5Tclose(ftype);
    if (!good && dxpl >= 0) {
        H5Pclose(dxpl);
        dxpl = H5I_INVALID_HID;
    }
    return dxpl;
}

bool nk_h5w_rows(nk_h5w *w, hid_t ds, const char *what, hsize_t first, hsize_t count, hid_t mtype,
                 const void *buf)
{
    hsize_t dims[3];
    int rank = w->ok ? dims_of(w, ds, what, dims) : -1;
    if (rank < 0)
        return false;
    dims[0] = first + count;
    if (!nk_h5w_may(w, "extend", what) || !nk_h5w_ok(w, what, H5Dset_extent(ds, dims)))
        return false;
    if (count == 0)
        return true;
    hsize_t start[3] = {first, 0, 0};
    hsize_t n[3] = {count, dims[1], dims[2]};
    hid_t space = H5Dget_space(ds);
    hid_t mem = H5Screate_simple(rank, n, NULL);
    hid_t dxpl = nk_h5w_ok(w, what, space) && nk_h5w_ok(w, what, mem)
                     ? sized_transfer(w, ds, what, mtype, (size_t)(count * n[1] * n[2]))
                     : H5I_INVALID_HID;
    bool good =
        dxpl >= 0 &&
        nk_h5w_ok(w, what, H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, n, NULL)) &&
        nk_h5w_may(w, "write", what) &&
        nk_h5w_ok(w, what, H5Dwrite(ds, mtype, mem, space, dxpl, buf));
    if (dxpl >= 0)
        H5Pclose(dxpl);
    if (mem >= 0)
        H5Sclose(mem);
    if (space >= 0)
        H5Sclose(space);
    return good;
}

bool nk_h5w_shrink(nk_h5w *w, hid_t ds, const char *what, hsize_t rows, bool *changed)
{
    hsize_t dims[3];
    if (!w->ok || dims_of(w, ds, what, dims) < 0)
        return false;
    if (dims[0] <= rows)
        return true;
    dims[0] = rows;
    if (!nk_h5w_may(w, "extend", what) || !nk_h5w_ok(w, what, H5Dset_extent(ds, dims)))
        return false;
    *changed = true;
    return true;
}

/* ===================================================================
 * The reader: failures
 * =================================================================== */

void nk_h5r_begin(nk_h5r *r, char *err, size_t len)
{
    nk_h5_quiet();
    r->st = NK_OK;
    r->err = err;
    r->len = len;
}

static nk_status keep(nk_h5r *r, nk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static nk_status keep(nk_h5r *r, nk_status st, const char *fmt, ...)
{
    if (r->st != NK_OK)
        return r->st;
    char line[NK_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    H5Eclear2(H5E_DEFAULT);
    return r->st = nk_fail(st, r->err, r->len, "%s", line);
}

nk_status nk_h5r_damaged(nk_h5r *r, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return keep(r, NK_EFORMAT, "damaged %s '%s': %s", r->kind, r->path, what);
}

nk_status nk_h5r_foreign(nk_h5r *r, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return keep(r, NK_EFORMAT, "'%s' is not a nickar %s: %s", r->path, r->kind, what);
}

nk_status nk_h5r_fail(nk_h5r *r, nk_status st, const char *fmt, ...)
{
    char line[NK_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return keep(r, st, "%s", line);
}

nk_status nk_h5r_nomem(nk_h5r *r)
{
    return keep(r, NK_ENOMEM, "out of memory");
}

nk_status nk_h5r_read_failed(nk_h5r *r, const char *what)
{
    nk_h5_why w = nk_h5_why_last();
    if (w.os)
        return keep(r, NK_EIO, "reading '%s' failed: %s: %s", r->path, what, w.text);
    return nk_h5r_damaged(r, "cannot read %s: %s", what, w.text);
}

/* ===================================================================
 * The reader: attributes, checked before they are read
 * =================================================================== */

/* Opens attribute name of loc when it is a scalar of class cls. */
static nk_h5_got open_scalar(hid_t loc, const char *name, H5T_class_t cls, hid_t *a, hid_t *t)
{
    *a = *t = H5I_INVALID_HID;
    if (H5Aexists(loc, name) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return NK_H5_MISSING;
    }
    *a = H5Aopen(loc, name, H5P_DEFAULT);
    *t = *a >= 0 ? H5Aget_type(*a) : H5I_INVALID_HID;
    hid_t space = *a >= 0 ? H5Aget_space(*a) : H5I_INVALID_HID;
    nk_h5_got got = NK_H5_DAMAGED;
    /* the dataspace first: one element, or HDF5 writes past the buffer */
    if (*t >= 0 && space >= 0)
        got = H5Tget_class(*t) == cls && H5Sget_simple_extent_npoints(space) == 1 ? NK_H5_GOT
                                                                                  : NK_H5_NOT_KIND;
    if (space >= 0)
        H5Sclose(space);
    return got;
}

static void close_attr(hid_t a, hid_t t)
{
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    H5Eclear2(H5E_DEFAULT);
}

nk_h5_got nk_h5_get_num(hid_t loc, const char *name, hid_t mtype, void *out)
{
    hid_t a, t;
    nk_h5_got got = open_scalar(loc, name, H5Tget_class(mtype), &a, &t);
    if (got == NK_H5_GOT && (!nk_h5_plain_fits(t) || H5Aread(a, mtype, out) < 0))
        got = NK_H5_DAMAGED;
    close_attr(a, t);
    return got;
}

nk_h5_got nk_h5_get_text_in(hid_t loc, const char *name, char *out, size_t cap)
{
    hid_t a, t;
    memset(out, 0, cap);
    nk_h5_got got = open_scalar(loc, name, H5T_STRING, &a, &t);
    if (got == NK_H5_GOT && (H5Tis_variable_str(t) != 0 || H5Tget_size(t) > cap))
        got = NK_H5_NOT_KIND;
    /* read as NUL-terminated strings of its size: at most cap bytes */
    hid_t mt = got == NK_H5_GOT ? nk_h5_read_str_type(t, H5Tget_size(t)) : H5I_INVALID_HID;
    if (got == NK_H5_GOT && (mt < 0 || H5Aread(a, mt, out) < 0))
        got = NK_H5_DAMAGED;
    if (mt >= 0)
        H5Tclose(mt);
    out[cap - 1] = '\0';
    close_attr(a, t);
    return got;
}

/* A fixed-length text attribute of size n (no more than the file holds)
 * in new memory. */
static nk_h5_got fixed_text(const nk_h5r *r, hid_t a, hid_t t, char **out)
{
    size_t n = H5Tget_size(t);
    if (n == 0 || n > r->file_size) /* more than the file holds */
        return NK_H5_NOT_KIND;
    hid_t mt = nk_h5_read_str_type(t, n + 1);
    char *s = nk_calloc(n + 1, 1);
    nk_h5_got got = s == NULL ? NK_H5_NOMEM : NK_H5_DAMAGED;
    if (s != NULL && mt >= 0 && H5Aread(a, mt, s) >= 0) {
        *out = s;
        s = NULL;
        got = NK_H5_GOT;
    }
    nk_free(s);
    if (mt >= 0)
        H5Tclose(mt);
    return got;
}

nk_h5_got nk_h5r_get_text(const nk_h5r *r, hid_t loc, const char *name, char **out)
{
    hid_t a, t;
    *out = NULL;
    nk_h5_got got = open_scalar(loc, name, H5T_STRING, &a, &t);
    if (got == NK_H5_GOT && H5Tis_variable_str(t) > 0) {
        hid_t mt = nk_h5_heap_id_type();
        unsigned char id[NK_H5_HEAP_ID_SIZE];
        got = NK_H5_DAMAGED;
        if (mt >= 0 && H5Aread(a, mt, id) >= 0)
            got = nk_h5r_heap_string(r, id, out);
        if (mt >= 0)
            H5Tclose(mt);
    } else if (got == NK_H5_GOT) {
        got = fixed_text(r, a, t, out);
    }
    close_attr(a, t);
    return got;
}

nk_status nk_h5r_bad_attr(nk_h5r *r, nk_h5_got got, const char *where, const char *name,
                          const char *kind)
{
    if (got == NK_H5_NOMEM)
        return nk_h5r_nomem(r);
    const char *sep = where[0] != '\0' ? " of " : "";
    if (got == NK_H5_MISSING)
        return nk_h5r_foreign(r, "no attribute %s%s%s", name, sep, where);
    if (got == NK_H5_NOT_KIND)
        return nk_h5r_foreign(r, "attribute %s%s%s is not %s", name, sep, where, kind);
    return nk_h5r_damaged(r, "cannot read attribute %s%s%s", name, sep, where);
}

bool nk_h5r_num(nk_h5r *r, hid_t loc, const char *name, hid_t mtype, void *out)
{
    if (r->st != NK_OK)
        return false;
    if (nk_h5_get_num(loc, name, mtype, out) == NK_H5_GOT)
        return true;
    nk_h5r_damaged(r, "attribute '%s'", name);
    return false;
}

bool nk_h5r_text_in(nk_h5r *r, hid_t loc, const char *name, char *out, size_t cap)
{
    if (r->st != NK_OK)
        return false;
    if (nk_h5_get_text_in(loc, name, out, cap) == NK_H5_GOT)
        return true;
    nk_h5r_damaged(r, "attribute '%s'", name);
    return false;
}

/* ===================================================================
 * Variable-length strings, read without HDF5's global heap code
 *
 * Older run files keep their text in variable-length strings, whose bytes
 * HDF5 1.10 keeps in the global heap: unchecked, and a damaged heap or heap
 * id makes HDF5's own reader overflow buffers or crash.  So nickar reads
 * only the heap ids through HDF5 (a conversion to an opaque type that
 * copies them as they are stored) and the heap collection itself, checking
 * every size and offset against the collection and the file.
 * =================================================================== */

#define HEAP_ID_TAG "nickar raw global heap id"

/* The conversion from a variable-length string as stored (its heap id;
 * length 4, collection address 8, index 4) to the opaque type HEAP_ID_TAG:
 * the bytes stay as they are. */
static herr_t heap_id_conv(hid_t src, hid_t dst, H5T_cdata_t *cdata, size_t nelmts,
                           size_t buf_stride, size_t bkg_stride, void *buf, void *bkg, hid_t dxpl)
{
    (void)nelmts, (void)buf_stride, (void)bkg_stride, (void)buf, (void)bkg;
    (void)dxpl;
    if (cdata->command == H5T_CONV_INIT) {
        char *tag = H5Tget_class(dst) == H5T_OPAQUE ? H5Tget_tag(dst) : NULL;
        bool mine = tag != NULL && strcmp(tag, HEAP_ID_TAG) == 0;
        H5free_memory(tag);
        if (!mine || H5Tis_variable_str(src) <= 0 || H5Tget_size(src) != NK_H5_HEAP_ID_SIZE ||
            H5Tget_size(dst) != NK_H5_HEAP_ID_SIZE)
            return -1;
        cdata->need_bkg = H5T_BKG_NO;
    }
    return 0; /* H5T_CONV_CONV: same size, nothing moves; H5T_CONV_FREE */
}

hid_t nk_h5_heap_id_type(void)
{
    static bool registered;
    hid_t t = H5Tcreate(H5T_OPAQUE, NK_H5_HEAP_ID_SIZE);
    if (t < 0 || H5Tset_tag(t, HEAP_ID_TAG) < 0) {
        if (t >= 0)
            H5Tclose(t);
        return H5I_INVALID_HID;
    }
    if (!registered) {
        hid_t v = nk_h5_vstr_type();
        if (v < 0 || H5Tregister(H5T_PERS_SOFT, "nickar heap id", v, t, heap_id_conv) < 0) {
            if (v >= 0)
                H5Tclose(v);
            H5Tclose(t);
            return H5I_INVALID_HID;
        }
        H5Tclose(v);
        registered = true;
    }
    return t;
}

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The heap collection at addr, read whole and checked against the file:
 * NULL when it does not fit (*got NK_H5_DAMAGED) or without memory. */
static unsigned char *heap_collection(const nk_h5r *r, uint64_t addr, uint64_t *size,
                                      nk_h5_got *got)
{
    unsigned char head[16];
    *got = NK_H5_DAMAGED;
    *size = 0;
    int fd = open(r->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (addr < r->file_size && r->file_size - addr >= 16 &&
        pread(fd, head, 16, (off_t)addr) == 16 && memcmp(head, "GCOL", 4) == 0 && head[4] == 1)
        *size = le(head + 8, 8);
    unsigned char *col = NULL;
    if (*size >= 16 && *size <= r->file_size - addr) {
        col = nk_malloc((size_t)*size);
        if (col == NULL)
            *got = NK_H5_NOMEM;
        else if (pread(fd, col, (size_t)*size, (off_t)addr) != (ssize_t)*size) {
            nk_free(col);
            col = NULL;
        }
    }
    close(fd);
    return col;
}

nk_h5_got nk_h5r_heap_string(const nk_h5r *r, const unsigned char *id, char **out)
{
    *out = NULL;
    uint64_t len = le(id, 4), addr = le(id + 4, 8), index = le(id + 12, 4);
    if (len == 0 && addr == 0) { /* a NULL string */
        *out = nk_strdup("");
        return *out != NULL ? NK_H5_GOT : NK_H5_NOMEM;
    }
    uint64_t size;
    nk_h5_got got;
    unsigned char *col = heap_collection(r, addr, &size, &got);
    if (col == NULL)
        return got;
    /* objects: index (2), references (2), reserved (4), size (8), data
     * padded to 8 bytes; index 0 is the free space at the end */
    for (uint64_t p = 16; p <= size - 16;) {
        uint64_t k = le(col + p, 2), n = le(col + p + 8, 8);
        if (k == 0 || n > size - p - 16)
            break;
        if (k == index) {
            if (len <= n && (*out = nk_malloc((size_t)len + 1)) != NULL) {
                memcpy(*out, col + p + 16, (size_t)len);
                (*out)[len] = '\0';
            }
            got = len > n ? NK_H5_DAMAGED : *out != NULL ? NK_H5_GOT : NK_H5_NOMEM;
            break;
        }
        p += 16 + ((n + 7) & ~(uint64_t)7);
    }
    nk_free(col);
    return got;
}

/* ===================================================================
 * The reader: datasets
 * =================================================================== */

nk_status nk_h5r_open(nk_h5r *r, const char *path, int rank, H5T_class_t cls, hsize_t *dims,
                      hid_t dapl, hid_t *out)
{
    static const char *const cls_name[] = {[H5T_INTEGER] = "integer",
                                           [H5T_FLOAT] = "float",
                                           [H5T_STRING] = "string",
                                           [H5T_COMPOUND] = "compound"};
    *out = H5I_INVALID_HID;
    if (!nk_h5_exists(r->file, path))
        return nk_h5r_foreign(r, "no dataset %s", path);
    hid_t ds = H5Dopen2(r->file, path, dapl);
    if (ds < 0)
        return nk_h5r_foreign(r, "%s is not a dataset", path);
    hid_t space = H5Dget_space(ds), t = H5Dget_type(ds);
    int n = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    /* numbers: a sane size and precision */
    if ((c == H5T_INTEGER || c == H5T_FLOAT) && !nk_h5_plain_fits(t))
        c = H5T_NO_CLASS;
    if (n == rank)
        H5Sget_simple_extent_dims(space, dims, NULL);
    if (space >= 0)
        H5Sclose(space);
    if (t >= 0)
        H5Tclose(t);
    if (n != rank || c != cls) {
        H5Dclose(ds);
        return n != rank ? nk_h5r_foreign(r, "%s has %d dimensions, not %d", path, n, rank)
                         : nk_h5r_foreign(r, "%s does not hold %s values", path, cls_name[cls]);
    }
    *out = ds;
    return NK_OK;
}

hsize_t nk_h5_rows_of(hid_t ds)
{
    hsize_t dims[3] = {0, 0, 0};
    hid_t space = H5Dget_space(ds);
    if (space >= 0) {
        H5Sget_simple_extent_dims(space, dims, NULL);
        H5Sclose(space);
    }
    return dims[0];
}

/* Records a chunk that a check found in place. */
static bool note_span(nk_h5r *r, uint64_t addr, uint64_t size, const char *what)
{
    if (r->n_spans == r->cap_spans) {
        size_t cap = 2 * r->cap_spans;
        nk_h5_span *s = nk_realloc(r->spans, cap * sizeof *s);
        if (s == NULL)
            return false;
        r->spans = s;
        r->cap_spans = cap;
    }
    nk_h5_span *c = &r->spans[r->n_spans++];
    c->addr = addr;
    c->size = size;
    snprintf(c->what, sizeof c->what, "%s", what);
    return true;
}

nk_status nk_h5r_spans_begin(nk_h5r *r)
{
    r->cap_spans = 64;
    r->n_spans = 0;
    r->spans = nk_malloc(r->cap_spans * sizeof *r->spans);
    return r->spans != NULL ? NK_OK : nk_h5r_nomem(r);
}

static int span_cmp(const void *a, const void *b)
{
    const nk_h5_span *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* No two chunks share a byte of the file. The 1.8 format's chunk indexes
 * carry no checksum: a flipped bit in a chunk's address can lead to a
 * chunk of another dataset of the same size, whose own checksum holds. */
nk_status nk_h5r_check_spans(nk_h5r *r)
{
    if (r->spans != NULL)
        qsort(r->spans, r->n_spans, sizeof *r->spans, span_cmp);
    for (size_t i = 1; r->st == NK_OK && i < r->n_spans; i++) {
        const nk_h5_span *a = &r->spans[i - 1], *b = &r->spans[i];
        if (b->addr < a->addr + a->size)
            nk_h5r_damaged(r, "a chunk of %s and one of %s lie on the same bytes", a->what,
                           b->what);
    }
    nk_free(r->spans);
    r->spans = NULL;
    r->n_spans = r->cap_spans = 0;
    return r->st;
}

/* What the chunks of ds are: their dims (rank of them), the filter bit of
 * their checksum (0: none) and whether a filter changes their size.
 * 1 chunked, 0 not, -1 when HDF5 cannot tell. */
static int chunk_layout(hid_t ds, int rank, hsize_t cdims[3], unsigned *checksum_bit, bool *packed)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    *checksum_bit = 0;
    *packed = false;
    if (dcpl < 0)
        return -1;
    bool chunked =
        H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_chunk(dcpl, 3, cdims) == rank && cdims[0] > 0;
    int nf = chunked ? H5Pget_nfilters(dcpl) : 0;
    for (int i = 0; i < nf && i < 32; i++) {
        unsigned flags, conf[8];
        size_t nconf = 8;
        char name[64];
        H5Z_filter_t f =
            H5Pget_filter2(dcpl, (unsigned)i, &flags, &nconf, conf, sizeof name, name, NULL);
        if (f == H5Z_FILTER_FLETCHER32)
            *checksum_bit = 1u << i;
        else if (f != H5Z_FILTER_SHUFFLE)
            *packed = true;
    }
    H5Pclose(dcpl);
    H5Eclear2(H5E_DEFAULT);
    return chunked ? 1 : 0;
}

/* The bytes of one chunk of ds (cdims), or more than bound when they
 * would exceed it. */
static hsize_t chunk_bytes(hid_t ds, int rank, const hsize_t *cdims, uint64_t bound)
{
    hid_t t = H5Dget_type(ds);
    hsize_t bytes = t >= 0 ? H5Tget_size(t) : 0;
    if (t >= 0)
        H5Tclose(t);
    for (int d = 0; d < rank && bytes > 0 && bytes <= bound; d++)
        bytes = cdims[d] > 0 && bytes <= bound / cdims[d] ? bytes * cdims[d] : bound + 1;
    return bytes;
}

nk_status nk_h5r_check_chunks(nk_h5r *r, hid_t ds, const char *what, int rank, hsize_t first,
                              hsize_t count)
{
    if (r->st != NK_OK)
        return r->st;
    hsize_t cdims[3] = {1, 1, 1};
    unsigned checksum_bit;
    bool packed; /* a filter that changes the size (deflate, ...) */
    int chunked = chunk_layout(ds, rank, cdims, &checksum_bit, &packed);
    if (chunked < 0)
        return nk_h5r_read_failed(r, what);
    if (chunked == 0)
        return NK_OK;
    /* HDF5 allocates a whole chunk to read one: its size, from the
     * (unchecked) layout, must fit in the file like the chunk itself. */
    hsize_t bytes = chunk_bytes(ds, rank, cdims, r->file_size);
    if (bytes == 0 || bytes > r->file_size)
        return nk_h5r_damaged(r, "%s: its chunks are larger than the file", what);
    for (hsize_t k = first / cdims[0]; k <= (first + count - 1) / cdims[0]; k++) {
        hsize_t offset[3] = {k * cdims[0], 0, 0};
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        hsize_t size = 0;
        hsize_t found = 0; /* by the lookup that reading uses */
        if (H5Dget_chunk_info_by_coord(ds, offset, &mask, &addr, &size) < 0 ||
            H5Dget_chunk_storage_size(ds, offset, &found) < 0)
            return nk_h5r_read_failed(r, what);
        /* The stored size, which HDF5 1.10 trusts when it copies a chunk
         * out of its filter buffer, is exact where no filter packs the
         * data (the chunk and its 4-byte checksum), and bounded by
         * deflate's worst case where one does. */
        hsize_t stored = bytes + (checksum_bit != 0 ? 4 : 0);
        bool size_fits = packed ? size <= stored + stored / 1000 + 64 : size == stored;
        if (addr == HADDR_UNDEF || size == 0 || found != size || !size_fits ||
            addr > r->file_size || size > r->file_size - addr || (mask & checksum_bit) != 0)
            return nk_h5r_damaged(r, "%s: chunk %llu is missing or out of place", what,
                                  (unsigned long long)k);
        if (r->spans != NULL && !note_span(r, addr, size, what))
            return nk_h5r_nomem(r);
    }
    return NK_OK;
}

/* The number of chunks of dims (rank 1 or 2) in chunks of cdims, and the
 * index of the chunk at off. */
static hsize_t chunks_of(int rank, const hsize_t *dims, const hsize_t *cdims)
{
    hsize_t n = (dims[0] + cdims[0] - 1) / cdims[0];
    return rank == 2 ? n * ((dims[1] + cdims[1] - 1) / cdims[1]) : n;
}

static hsize_t chunk_index(int rank, const hsize_t *dims, const hsize_t *cdims, const hsize_t *off)
{
    hsize_t k = off[0] / cdims[0];
    return rank == 2 ? k * ((dims[1] + cdims[1] - 1) / cdims[1]) + off[1] / cdims[1] : k;
}

/* Whether each of the n chunks of ds is stored once, at its own place,
 * bytes + 4 long, with its checksum applied (mask 0). */
static bool each_chunk_once(hid_t ds, int rank, const hsize_t *dims, const hsize_t *cdims,
                            hsize_t n, hsize_t bytes, bool *nomem)
{
    hsize_t count = 0;
    hid_t sp = H5Dget_space(ds);
    unsigned char *seen = nk_calloc(n, 1);
    *nomem = seen == NULL;
    bool good = seen != NULL && sp >= 0 && H5Dget_num_chunks(ds, sp, &count) >= 0 && count == n;
    for (hsize_t i = 0; good && i < n; i++) {
        hsize_t off[2] = {0, 0}, size = 0;
        haddr_t addr;
        unsigned mask = 0;
        good = H5Dget_chunk_info(ds, sp, i, off, &mask, &addr, &size) >= 0 && mask == 0 &&
               size == bytes + 4 && off[0] % cdims[0] == 0 && off[0] < dims[0] &&
               (rank == 1 || (off[1] % cdims[1] == 0 && off[1] < dims[1]));
        if (good) {
            hsize_t k = chunk_index(rank, dims, cdims, off);
            good = seen[k] == 0;
            seen[k] = 1;
        }
    }
    nk_free(seen);
    if (sp >= 0)
        H5Sclose(sp);
    return good;
}

nk_status nk_h5r_check_all_chunks(nk_h5r *r, hid_t ds, const char *what, int rank,
                                  const hsize_t *dims)
{
    if (r->st != NK_OK || dims[rank - 1] == 0 || dims[0] == 0)
        return r->st;
    hsize_t cdims[3] = {0, 0, 0};
    unsigned checksum_bit;
    bool packed, nomem = false;
    bool good = chunk_layout(ds, rank, cdims, &checksum_bit, &packed) == 1 && !packed &&
                checksum_bit != 0 && (rank == 1 || cdims[1] > 0);
    if (good) {
        hsize_t n = chunks_of(rank, dims, cdims);
        hsize_t bytes = chunk_bytes(ds, rank, cdims, r->file_size);
        good = bytes <= r->file_size && n <= r->file_size / (bytes + 4) &&
               H5Dget_storage_size(ds) == n * (bytes + 4) &&
               each_chunk_once(ds, rank, dims, cdims, n, bytes, &nomem);
    }
    H5Eclear2(H5E_DEFAULT);
    if (nomem)
        return nk_h5r_nomem(r);
    return good ? NK_OK : nk_h5r_damaged(r, "%s: its chunks are not all stored, once", what);
}

nk_status nk_h5r_rows(nk_h5r *r, hid_t ds, const char *what, hsize_t first, hsize_t count,
                      hid_t mtype, void *buf)
{
    if (r->st != NK_OK || count == 0)
        return r->st;
    hsize_t dims[3] = {0, 1, 1};
    hid_t space = H5Dget_space(ds);
    /* at most 3 dimensions, before HDF5 writes them into dims */
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    if (rank > 3) {
        H5Sclose(space);
        return nk_h5r_damaged(r, "%s has %d dimensions", what, rank);
    }
    if (rank > 0)
        rank = H5Sget_simple_extent_dims(space, dims, NULL);
    hsize_t start[3] = {first, 0, 0};
    hsize_t n[3] = {count, dims[1], dims[2]};
    if (rank > 0 && nk_h5r_check_chunks(r, ds, what, rank, first, count) != NK_OK) {
        H5Sclose(space);
        return r->st;
    }
    hid_t mem = rank > 0 ? H5Screate_simple(rank, n, NULL) : H5I_INVALID_HID;
    bool good = mem >= 0 && H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, n, NULL) >= 0 &&
                H5Dread(ds, mtype, mem, space, H5P_DEFAULT, buf) >= 0;
    if (!good)
        nk_h5r_read_failed(r, what);
    if (mem >= 0)
        H5Sclose(mem);
    if (space >= 0)
        H5Sclose(space);
    return r->st;
}

bool nk_h5r_whole(nk_h5r *r, hid_t loc, const char *name, hid_t mtype, int rank,
                  const hsize_t *dims, void *out)
{
    if (r->st != NK_OK)
        return false;
    hid_t d = nk_h5_exists(loc, name) ? H5Dopen2(loc, name, H5P_DEFAULT) : H5I_INVALID_HID;
    hid_t s = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hsize_t got[2] = {0, 0};
    bool good = s >= 0 && H5Sget_simple_extent_ndims(s) == rank &&
                H5Sget_simple_extent_dims(s, got, NULL) == rank && got[0] == dims[0] &&
                (rank == 1 || got[1] == dims[1]);
    if (s >= 0)
        H5Sclose(s);
    if (good && dims[0] > 0) {
        nk_h5r_check_all_chunks(r, d, name, rank, got);
        if (got[rank - 1] > 0)
            nk_h5r_check_chunks(r, d, name, rank, 0, got[0]);
        good = r->st == NK_OK && H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0;
    }
    if (d >= 0)
        H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    if (!good)
        nk_h5r_damaged(r, "dataset '%s' is missing, of the wrong shape or damaged", name);
    return r->st == NK_OK;
}

hsize_t nk_h5r_extent(nk_h5r *r, const char *name)
{
    hid_t d = nk_h5_exists(r->file, name) ? H5Dopen2(r->file, name, H5P_DEFAULT) : H5I_INVALID_HID;
    hid_t s = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hsize_t n[3] = {0, 0, 0};
    if (s < 0 || H5Sget_simple_extent_ndims(s) < 1 || H5Sget_simple_extent_ndims(s) > 3 ||
        H5Sget_simple_extent_dims(s, n, NULL) < 1)
        n[0] = (hsize_t)-1;
    if (s >= 0)
        H5Sclose(s);
    if (d >= 0)
        H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    return n[0];
}

static herr_t visit_none(hid_t obj, const char *name, const H5O_info_t *info, void *data)
{
    (void)obj, (void)name, (void)info, (void)data;
    return 0;
}

nk_status nk_h5r_walk(nk_h5r *r)
{
    if (r->st == NK_OK &&
        H5Ovisit2(r->file, H5_INDEX_NAME, H5_ITER_NATIVE, visit_none, NULL, H5O_INFO_ALL) < 0) {
        nk_h5_why w = nk_h5_why_last();
        return nk_h5r_damaged(r, "%s", w.text);
    }
    return r->st;
}
/* ===================================================================
 * Attributes kept outside the object headers, checked before HDF5
 * decodes one
 *
 * An object with many attributes (the root of a run file) keeps them in a
 * fractal heap; one larger than 4 KiB is a "huge" object of that heap,
 * stored as it is, with no checksum (the heap's header, its B-trees and
 * its blocks have one).  HDF5 1.10 decodes such an attribute message
 * without checking its sizes against the object: a damaged dataspace size
 * makes it copy the value from beyond its buffer (found by the mutation
 * campaign of issue 27), and it decodes them to look one up by name
 * (H5Aexists), before any of nickar's checks can run.  So nk_h5_open reads
 * every huge attribute message of every object itself, from the B-tree of
 * the heap's huge objects (whose records, checksummed, give each one's
 * address and length), and refuses the file when a message's sizes do not
 * fit in it.
 * =================================================================== */

enum {
    DENSE_HEADER_MAX = 65536,   /* bytes of an object header chunk read */
    DENSE_MESSAGE_MAX = 1 << 26 /* the largest attribute message read */
};

/* n bytes at addr of fd (within size): whether they were read. */
static bool read_at(int fd, uint64_t size, uint64_t addr, void *buf, size_t n)
{
    return addr <= size && n <= size - addr && pread(fd, buf, n, (off_t)addr) == (ssize_t)n;
}

/* Whether attribute message m (n bytes, versions 1 to 3) holds its name,
 * datatype, dataspace and value: the sizes it states, the element size of
 * its datatype (a number, a string or a variable-length string) times the
 * elements of its dataspace. */
static bool attr_message_fits(const unsigned char *m, size_t n)
{
    if (n < 9 || m[0] < 1 || m[0] > 3 || (m[0] >= 2 && (m[1] & 3) != 0)) /* no shared parts */
        return false;
    uint64_t name = le(m + 2, 2), dt = le(m + 4, 2), ds = le(m + 6, 2), at = m[0] == 3 ? 9 : 8;
    if (m[0] == 1) { /* version 1 pads each part to 8 bytes */
        name = (name + 7) & ~(uint64_t)7;
        dt = (dt + 7) & ~(uint64_t)7;
        ds = (ds + 7) & ~(uint64_t)7;
    }
    if (name > n - at || dt > n - at - name || ds > n - at - name - dt || dt < 8 || ds < 2)
        return false;
    const unsigned char *t = m + at + name, *s = t + dt;
    unsigned cls = t[0] & 0x0f;
    uint64_t elem = le(t + 4, 4), least = cls == 0 ? 12 : cls == 1 ? 20 : cls == 3 ? 8 : 20;
    if ((cls != 0 && cls != 1 && cls != 3 && cls != 9) || dt < least || elem == 0)
        return false;
    /* the dataspace: version 1 (rank, flags, 5 reserved) or 2 (rank,
     * flags, type), then the dims and, with flag 1, the maximum dims */
    unsigned rank = s[1], flags = ds > 2 ? s[2] : 0;
    uint64_t head = s[0] == 1 ? 8 : 4, elems = 1;
    if ((s[0] != 1 && s[0] != 2) || rank > 32 || ds < head ||
        (uint64_t)rank * 8 * ((flags & 1) + 1) > ds - head)
        return false;
    /* its class (version 2: 0 scalar, 1 simple, 2 null; version 1: simple
     * with a rank, else scalar) fits the rank; no flag but the maximum */
    unsigned cls2 = s[0] == 2 ? s[3] : rank > 0;
    if ((flags & ~1u) != 0 || cls2 > 2 || (cls2 == 1) != (rank > 0))
        return false;
    if (cls2 == 2) /* a null dataspace: no value */
        elems = 0;
    for (unsigned d = 0; d < rank && elems > 0; d++) {
        uint64_t k = le(s + head + 8 * d, 8);
        elems = k != 0 && elems > (uint64_t)DENSE_MESSAGE_MAX / k ? UINT64_MAX : elems * k;
    }
    uint64_t used = at + name + dt + ds;
    return elems <= (n - used) / elem;
}

/* An allocation of the walk below: a failure is noted, so that the file is
 * not called damaged for want of memory (nk_h5_why.oom). */
static _Thread_local bool dense_oom;

static void *dense_alloc(size_t n)
{
    void *p = nk_malloc(n);
    if (p == NULL)
        dense_oom = true;
    return p;
}

/* Checks the huge attribute messages listed by a leaf or internal node
 * (depth 1, whose children are leaves) of a huge-object B-tree: records of
 * address, length and id, 24 bytes. */
static bool huge_records_fit(int fd, uint64_t size, uint64_t node, unsigned nrec, unsigned depth,
                             uint64_t node_size);

static bool huge_message_fits(int fd, uint64_t size, const unsigned char *rec)
{
    uint64_t addr = le(rec, 8), len = le(rec + 8, 8);
    if (len == 0 || len > DENSE_MESSAGE_MAX || addr > size || len > size - addr)
        return false;
    unsigned char *m = dense_alloc((size_t)len);
    bool good = m != NULL && read_at(fd, size, addr, m, (size_t)len) && attr_message_fits(m, len);
    nk_free(m);
    return good;
}

static bool huge_records_fit(int fd, uint64_t size, uint64_t node, unsigned nrec, unsigned depth,
                             uint64_t node_size)
{
    unsigned char *b = dense_alloc((size_t)node_size);
    uint64_t leaf_max = (node_size - 10) / 24; /* records a leaf holds */
    unsigned width = 1;                        /* bytes of a child's record count */
    while (width < 8 && leaf_max >> (8 * width) != 0)
        width++;
    bool good = b != NULL && read_at(fd, size, node, b, (size_t)node_size) &&
                memcmp(b, depth == 0 ? "BTLF" : "BTIN", 4) == 0 && b[5] == 1 &&
                6 + 24 * (uint64_t)nrec + (depth > 0 ? (nrec + 1) * (8 + width) : 0) <= node_size;
    for (unsigned k = 0; good && k < nrec; k++)
        good = huge_message_fits(fd, size, b + 6 + 24 * k);
    for (unsigned k = 0; good && depth > 0 && k <= nrec; k++) {
        const unsigned char *c = b + 6 + 24 * nrec + k * (8 + width);
        good = huge_records_fit(fd, size, le(c, 8), (unsigned)le(c + 8, (int)width), 0, node_size);
    }
    nk_free(b);
    return good;
}

/* The huge objects of the fractal heap at heap: each a sound attribute
 * message. */
static bool heap_huge_fit(int fd, uint64_t size, uint64_t heap)
{
    unsigned char h[32], t[34];
    if (heap == UINT64_MAX) /* the attributes are in the object header */
        return true;
    /* no header; or I/O filters, or heap ids that hold a huge object's
     * address (17 bytes or more), which attribute heaps never have */
    if (!read_at(fd, size, heap, h, sizeof h) || memcmp(h, "FRHP", 4) != 0 || le(h + 5, 2) >= 17 ||
        le(h + 7, 2) != 0)
        return false;
    uint64_t tree = le(h + 22, 8);
    if (tree == UINT64_MAX) /* no huge object */
        return true;
    if (!read_at(fd, size, tree, t, sizeof t) || memcmp(t, "BTHD", 4) != 0 || t[5] != 1 ||
        le(t + 10, 2) != 24)
        return false;
    uint64_t node_size = le(t + 6, 4), depth = le(t + 12, 2), root = le(t + 16, 8);
    unsigned nrec = (unsigned)le(t + 24, 2);
    if (node_size < 34 || node_size > DENSE_HEADER_MAX || depth > 1)
        return false;
    return root == UINT64_MAX || huge_records_fit(fd, size, root, nrec, (unsigned)depth, node_size);
}

/* Walks the messages of one chunk of a version-2 object header (b, n
 * bytes, from the first message to the checksum): the heap of an
 * attribute info message is checked, a continuation followed (at most
 * *budget chunks in all). */
static bool header_chunk_fits(int fd, uint64_t size, const unsigned char *b, size_t n, bool order,
                              int *budget);

static bool header_at_fits(int fd, uint64_t size, uint64_t addr, uint64_t len, bool order,
                           int *budget)
{
    if (--*budget < 0 || len < 8 || len > DENSE_HEADER_MAX)
        return false;
    unsigned char *b = dense_alloc((size_t)len);
    bool good = b != NULL && read_at(fd, size, addr, b, (size_t)len) && memcmp(b, "OCHK", 4) == 0 &&
                header_chunk_fits(fd, size, b + 4, (size_t)len - 8, order, budget);
    nk_free(b);
    return good;
}

static bool header_chunk_fits(int fd, uint64_t size, const unsigned char *b, size_t n, bool order,
                              int *budget)
{
    size_t head = order ? 6 : 4, at = 0;
    bool good = true;
    while (good && n - at >= head) {
        unsigned type = b[at];
        size_t len = (size_t)le(b + at + 1, 2);
        at += head;
        if (len > n - at)
            return false;
        const unsigned char *m = b + at;
        if (type == 0x15 && len >= 18) /* attribute info: version, flags, [index], heap */
            good = heap_huge_fit(fd, size, le(m + 2 + (m[1] & 1 ? 2 : 0), 8));
        else if (type == 0x10 && len >= 16) /* continuation: address, length */
            good = header_at_fits(fd, size, le(m, 8), le(m + 8, 8), order, budget);
        at += len;
    }
    return good;
}

/* The object header at addr (version 2; version 1 has no dense
 * attributes in the files nickar writes, and is left to HDF5). */
static bool object_attrs_fit(int fd, uint64_t size, uint64_t addr)
{
    unsigned char h[48];
    if (!read_at(fd, size, addr, h, 6))
        return false;
    if (memcmp(h, "OHDR", 4) != 0)
        return h[0] == 1;
    unsigned flags = h[5];
    size_t at = 6 + (flags & 0x20 ? 16 : 0) + (flags & 0x10 ? 4 : 0),
           width = (size_t)1 << (flags & 3);
    if (!read_at(fd, size, addr, h, at + width))
        return false;
    uint64_t len = le(h + at, (int)width);
    at += width;
    if (len > DENSE_HEADER_MAX)
        return false;
    unsigned char *b = dense_alloc((size_t)len);
    int budget = 64;
    bool good = b != NULL && read_at(fd, size, addr + at, b, (size_t)len) &&
                header_chunk_fits(fd, size, b, (size_t)len, (flags & 0x04) != 0, &budget);
    nk_free(b);
    return good;
}

typedef struct dense_walk {
    int fd;
    uint64_t size;
    bool good;
} dense_walk;

static herr_t dense_visit(hid_t obj, const char *name, const H5O_info_t *info, void *data)
{
    (void)obj, (void)name;
    dense_walk *w = data;
    if (info->num_attrs > 0 && !object_attrs_fit(w->fd, w->size, info->addr))
        w->good = false;
    return w->good ? 0 : 1;
}

/* Whether every attribute that HDF5 keeps unchecked in file f (at path)
 * fits in its stored bytes. */
static bool dense_attrs_fit(hid_t f, const char *path, bool *oom)
{
    dense_oom = false;
    dense_walk w = {open(path, O_RDONLY | O_CLOEXEC), 0, true};
    struct stat sb;
    if (w.fd < 0 || fstat(w.fd, &sb) != 0) {
        if (w.fd >= 0)
            close(w.fd);
        return true; /* HDF5 opened it: let its reads give the reason */
    }
    w.size = (uint64_t)sb.st_size;
    if (H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_NATIVE, dense_visit, &w,
                  H5O_INFO_BASIC | H5O_INFO_NUM_ATTRS) < 0)
        H5Eclear2(H5E_DEFAULT); /* a damaged group: its readers will say so */
    close(w.fd);
    *oom = dense_oom;
    return w.good;
}
