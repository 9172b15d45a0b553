/*
 * h5.h -- the one HDF5 layer under nickar's files: the run file
 * (runfile.h), the tournament file (tourfile.h) and the ciao file
 * (ciaofile.h) make and read their HDF5 objects through it.
 *
 * It holds, in one place:
 *
 * - errors as one line: HDF5's error stack reduced to one reason
 *   (nk_h5_why), the system's message where there is one;
 * - the settings of a new file (nk_h5_create): the 1.8 format (superblock
 *   v2, object headers with checksums, no consistency flags that keep a
 *   file a killed writer had open from opening), no modification times in
 *   object headers (so that the same data gives the same bytes), every
 *   chunked dataset with the Fletcher-32 filter;
 * - a writer with a sticky error (nk_h5w): the first failure is kept with
 *   the object it concerned and the reason, and every later call is a
 *   no-op that returns false, so that a file is written as a list of calls
 *   and checked once at the end;
 * - a reader with a sticky error (nk_h5r) and the checks against damaged
 *   files: every attribute's type, dataspace and size are checked before
 *   it is read into a buffer of known size (a damaged dataspace cannot
 *   make HDF5 write past it), every size a file claims is bounded by the
 *   file's size, and every chunk that a read touches is found through the
 *   chunk index, in the file, of the size it must have and with its
 *   checksum filter applied (a damaged index in the 1.8 format, which has
 *   no checksum, otherwise reads a missing chunk as fill values, without
 *   an error).  Reading a dataset through nk_h5r_rows or nk_h5r_whole
 *   applies them all; a new kind of file gets them by using these.
 *
 * Every function turns off HDF5's automatic error printing first (nothing
 * below cli/ prints).  HDF5 is used serially: one thread at a time.
 */
#ifndef NK_IO_H5_H
#define NK_IO_H5_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hdf5.h>

#include "base/status.h"

/* ===== errors ===== */

/* The reason of an HDF5 failure, as one line. */
typedef struct nk_h5_why {
    char text[200];
    bool os;   /* the text is the system's (errno) message */
    bool lock; /* the failure was a file lock */
    bool oom;  /* nickar ran out of memory checking the file (not damage) */
} nk_h5_why;

/* The reason of the last HDF5 failure (innermost first, the system's
 * message where there is one); clears HDF5's error stack. */
nk_h5_why nk_h5_why_last(void);
/* Turns off HDF5's automatic error printing (the whole process). */
void nk_h5_quiet(void);
/* Copies n bytes of src as one line into dst (cap bytes). */
void nk_h5_line(char *dst, size_t cap, const char *src, size_t n);

/* ===== types ===== */

/* Fixed-length NUL-terminated string types of size bytes (the caller
 * closes them): ASCII, UTF-8, and the memory type that reads file type ft
 * (its character set) into size bytes. */
hid_t nk_h5_str_type(size_t size);
hid_t nk_h5_utf8_type(size_t size);
hid_t nk_h5_read_str_type(hid_t ft, size_t size);
/* A variable-length UTF-8 string type. */
hid_t nk_h5_vstr_type(void);

/* A sane type for a number or a fixed-length string: 1 to 64 bytes and,
 * for numbers, a precision and offset within them. */
bool nk_h5_plain_fits(hid_t t);
/* Every member of compound type ft lies within the row, overlaps no other
 * and is plain (a damaged header of an older file can say otherwise, and
 * HDF5's conversions then read and write out of bounds). */
bool nk_h5_compound_fits(hid_t ft);

/* ===== files ===== */

/* How a file is made; 0 is the deterministic default for a new kind of
 * file.  The flags keep the bytes of the files made before this layer. */
enum {
    NK_H5_TRACK_TIMES = 1u,   /* object headers keep their times (the run
                                 file and the ciao file) */
    NK_H5_LIBVER_LATEST = 2u, /* upper format bound "latest" (the ciao
                                 file), else 1.8 */
    NK_H5_EXCL = 4u           /* fail when the file exists */
};

/* Creates path with those settings; on failure H5I_INVALID_HID and the
 * reason in *why. */
hid_t nk_h5_create(const char *path, unsigned flags, nk_h5_why *why);
/* Opens path for reading (lock: take HDF5's file lock) or writing; objects
 * still open are closed with the file.  On failure H5I_INVALID_HID and
 * the reason in *why. */
hid_t nk_h5_open(const char *path, bool writable, bool lock, nk_h5_why *why);
/* Whether loc has a link path (false too when the check fails). */
bool nk_h5_exists(hid_t loc, const char *path);

/* ===== the writer ===== */

typedef struct nk_h5w {
    hid_t file;
    unsigned flags;        /* as in nk_h5_create */
    bool checksums;        /* Fletcher-32 on new chunked datasets */
    const char *label;     /* io steps: "LABEL attribute" ...; NULL: the
                              object's name */
    unsigned long fail_at; /* test hook: the nth write from now fails */
    bool ok;               /* false after the first failure */
    bool os;               /* its reason came from the system */
    char what[96];         /* the object of the first failure */
    char why[200];         /* and its reason */
} nk_h5w;

/* A writer for file (checksums on, ok). */
nk_h5w nk_h5w_make(hid_t file, unsigned flags, const char *label);
/* Keeps a failure of what (when it is the first). */
void nk_h5w_fail(nk_h5w *w, const char *what, const char *why, bool os);
/* False when w has failed or the test hook makes this write fail; calls
 * the io step (io/backup.h) of a write of kind ("attribute", "dataset",
 * "group", ...) on what. */
bool nk_h5w_may(nk_h5w *w, const char *kind, const char *what);
/* True when an HDF5 call succeeded (rc >= 0); else keeps what and why. */
bool nk_h5w_ok(nk_h5w *w, const char *what, int64_t rc);

/* A scalar attribute name of file type ftype on loc from value (mtype),
 * replacing one of that name; what names loc in messages. */
bool nk_h5w_attr(nk_h5w *w, hid_t loc, const char *what, const char *name, hid_t ftype, hid_t mtype,
                 const void *value);
/* A text attribute: a fixed-length UTF-8 string (NULL is ""), whose bytes
 * sit in the checksummed object header. */
bool nk_h5w_text(nk_h5w *w, hid_t loc, const char *what, const char *name, const char *value);
/* A 1-D attribute of n texts as fixed-length UTF-8 strings. */
bool nk_h5w_text_list(nk_h5w *w, hid_t loc, const char *what, const char *name,
                      const char *const *values, size_t n);
/* n texts as one block of fixed-length ones of *size bytes each (new
 * memory, NULL when there is none). */
char *nk_h5_pack_texts(const char *const *values, size_t n, size_t *size);
/* A new group (the caller closes it); H5I_INVALID_HID on failure. */
hid_t nk_h5w_group(nk_h5w *w, hid_t loc, const char *path);

/* The shape of a new dataset. */
typedef struct nk_h5_shape {
    int rank; /* 1 to 3 */
    const hsize_t *dims;
    const hsize_t *maxdims; /* NULL: fixed */
    const hsize_t *chunk;   /* NULL: not chunked (then no checksum) */
    bool deflate;           /* shuffle and deflate level 4, if available */
    hid_t dapl;             /* access properties, or H5P_DEFAULT */
    const char *what;       /* its name in io steps and messages; NULL:
                               the name it is created under */
} nk_h5_shape;

/* Creates dataset name of file type ftype under loc (one io step; the
 * caller closes it); H5I_INVALID_HID on failure. */
hid_t nk_h5w_dataset(nk_h5w *w, hid_t loc, const char *name, hid_t ftype, const nk_h5_shape *shape);
/* Writes the whole of ds from data (mtype); no io step. */
bool nk_h5w_write(nk_h5w *w, hid_t ds, const char *what, hid_t mtype, const void *data);
/* Creates a dataset, writes data into it when its first dimension is not
 * 0, and closes it. */
bool nk_h5w_data(nk_h5w *w, hid_t loc, const char *name, hid_t ftype, hid_t mtype,
                 const nk_h5_shape *shape, const void *data);
/* Extends ds along its first dimension to first + count rows (cutting off
 * anything beyond) and writes rows [first, first + count) from buf. */
bool nk_h5w_rows(nk_h5w *w, hid_t ds, const char *what, hsize_t first, hsize_t count, hid_t mtype,
                 const void *buf);
/* Cuts ds back to rows rows if it is longer (then sets *changed). */
bool nk_h5w_shrink(nk_h5w *w, hid_t ds, const char *what, hsize_t rows, bool *changed);

/* ===== the reader ===== */

/* Where one chunk lies in the file. */
typedef struct nk_h5_span {
    uint64_t addr, size;
    char what[64]; /* the dataset, for the message */
} nk_h5_span;

typedef struct nk_h5r {
    hid_t file;
    const char *path;
    const char *kind;   /* "run file", "tournament file": the messages */
    uint64_t file_size; /* the bound of every size the file claims */
    nk_status st;       /* the first failure since nk_h5r_begin */
    char *err;
    size_t len;
    nk_h5_span *spans; /* non-NULL: every chunk checked is noted */
    size_t n_spans, cap_spans;
} nk_h5r;

/* Starts a read: clears the sticky status; errors go to err. */
void nk_h5r_begin(nk_h5r *r, char *err, size_t len);
/* The failures, kept when they are the first (the sticky status is
 * returned): "damaged KIND 'PATH': ...", "'PATH' is not a nickar KIND:
 * ...", any other status with its message, out of memory. */
nk_status nk_h5r_damaged(nk_h5r *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
nk_status nk_h5r_foreign(nk_h5r *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
nk_status nk_h5r_fail(nk_h5r *r, nk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
nk_status nk_h5r_nomem(nk_h5r *r);
/* A failed read of what: the system's reason is NK_EIO ("reading 'PATH'
 * failed: what: reason"); HDF5's own (a bad signature or checksum, an
 * address beyond the end) a damaged file. */
nk_status nk_h5r_read_failed(nk_h5r *r, const char *what);

/* What an attribute read found. */
typedef enum nk_h5_got {
    NK_H5_GOT = 0,
    NK_H5_MISSING = 1,
    NK_H5_NOT_KIND = 2, /* not a scalar of the class asked for */
    NK_H5_DAMAGED = 3,  /* unreadable, or larger than it can be */
    NK_H5_NOMEM = 4
} nk_h5_got;

/* A scalar number attribute of mtype's class (integer or float), read as
 * mtype into out. */
nk_h5_got nk_h5_get_num(hid_t loc, const char *name, hid_t mtype, void *out);
/* A scalar fixed-length text attribute of at most cap bytes (NUL
 * included) into out (cap bytes, zero-filled and NUL-terminated). */
nk_h5_got nk_h5_get_text_in(hid_t loc, const char *name, char *out, size_t cap);
/* A scalar text attribute, fixed-length (no longer than the file) or
 * variable-length (its bytes read from the global heap with every size
 * checked), in new memory. */
nk_h5_got nk_h5r_get_text(const nk_h5r *r, hid_t loc, const char *name, char **out);
/* The message of a failed attribute read of name on where (may be ""),
 * that should have been kind ("an integer"): missing and not_kind a
 * foreign file, damaged a damaged one. */
nk_status nk_h5r_bad_attr(nk_h5r *r, nk_h5_got got, const char *where, const char *name,
                          const char *kind);
/* Sticky forms: the attribute must be there and read (else "damaged KIND
 * 'PATH': attribute 'NAME'"). */
bool nk_h5r_num(nk_h5r *r, hid_t loc, const char *name, hid_t mtype, void *out);
bool nk_h5r_text_in(nk_h5r *r, hid_t loc, const char *name, char *out, size_t cap);

/* Variable-length strings of older files are read without HDF5's global
 * heap code (unchecked in 1.10: a damaged heap id overflows its buffers):
 * the opaque type that receives the heap ids as stored, and the string of
 * one id, read from the file and checked. */
enum { NK_H5_HEAP_ID_SIZE = 16 };
hid_t nk_h5_heap_id_type(void);
nk_h5_got nk_h5r_heap_string(const nk_h5r *r, const unsigned char *id, char **out);

/* Opens dataset path, checks its rank and element class (numbers: plain),
 * gives its dims; a foreign file otherwise ("no dataset P", "P has R
 * dimensions, not N", "P does not hold CLASS values"). */
nk_status nk_h5r_open(nk_h5r *r, const char *path, int rank, H5T_class_t cls, hsize_t *dims,
                      hid_t dapl, hid_t *out);
/* The length of ds along its first dimension (0 when it cannot tell). */
hsize_t nk_h5_rows_of(hid_t ds);

/* Every chunk that holds rows [first, first + count) of ds (rank dims) is
 * found through the chunk index, lies in the file, is no larger than the
 * file, has its stored size (exact, or deflate's bound) and its checksum
 * filter applied; an unchunked dataset passes.  Notes each chunk when
 * r->spans is set. */
nk_status nk_h5r_check_chunks(nk_h5r *r, hid_t ds, const char *what, int rank, hsize_t first,
                              hsize_t count);
/* Every chunk of a whole dataset of dims (rank 1 or 2, unfiltered but for
 * the checksum) is stored once, at its own place, of its size: no chunk
 * too many or too few. */
nk_status nk_h5r_check_all_chunks(nk_h5r *r, hid_t ds, const char *what, int rank,
                                  const hsize_t *dims);
/* Reads rows [first, first + count) of ds (every other dimension whole)
 * after nk_h5r_check_chunks. */
nk_status nk_h5r_rows(nk_h5r *r, hid_t ds, const char *what, hsize_t first, hsize_t count,
                      hid_t mtype, void *buf);
/* Reads the whole dataset name under loc, which must have shape dims
 * (rank 1 or 2), after both chunk checks; else "damaged KIND 'PATH':
 * dataset 'NAME' is missing, of the wrong shape or damaged". */
bool nk_h5r_whole(nk_h5r *r, hid_t loc, const char *name, hid_t mtype, int rank,
                  const hsize_t *dims, void *out);
/* The length along the first dimension of dataset name (-1 when it is
 * missing or has no dimension). */
hsize_t nk_h5r_extent(nk_h5r *r, const char *name);
/* Starts noting the chunks checked (nk_h5r_check_spans then says whether
 * two share bytes, and stops). */
nk_status nk_h5r_spans_begin(nk_h5r *r);
nk_status nk_h5r_check_spans(nk_h5r *r);

/* Walks every object of the file with all of its information (headers,
 * attribute storage, chunk indexes, link storage): in a checked file, a
 * damaged structure anywhere fails a checksum here. */
nk_status nk_h5r_walk(nk_h5r *r);

#endif
