/*
 * file.c -- database files (docs/tablebase.md, "Files").
 *
 * A file is a 96-byte header and then the data, one byte a position, in the
 * order of the index (tb.c), plane after plane.  The header, little-endian:
 *   0  magic "NKTBASE1"     8 bytes
 *   8  format version       u32: 1 (one plane), 2 (two: speightstown)
 *  12  seeds N              u32
 *  16  variant name         16 bytes, NUL-padded
 *  32  patterns             u32
 *  36  planes               u32: zero in version 1, 2 in version 2
 *  40  data bytes           u64
 *  48  checksum             u64: FNV-1a 64 of the header with this field
 *                           zero, then of the data
 *  56  North's pits of each pattern, u16 x 11, zero-padded to byte 96
 * The patterns are all of the variant's (1, or 11 for adjikui) or a set of
 * them closed under turning the board, in the fixed order of tb.c (the
 * same set, the same header); their number is the field at 32.
 * The file is read by mmap; opening checks every field against what the
 * variant, N and the patterns give, and the checksum.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tb/tb.h"

enum { HEADER = 96, VERSION_MAX = 2 };
static const char magic[8] = {'N', 'K', 'T', 'B', 'A', 'S', 'E', '1'};

bool nk_tb_layout(nk_tb *tb, const nk_variant *v, unsigned seeds, unsigned npat,
                  const uint16_t *pat);

static uint64_t checksum(const uint8_t head[HEADER], const uint8_t *data, uint64_t n)
{
    uint8_t h[HEADER];
    memcpy(h, head, HEADER);
    memset(h + 48, 0, 8);
    uint64_t x = 0xcbf29ce484222325ull;
    for (unsigned i = 0; i < HEADER; i++) {
        x ^= h[i];
        x *= 0x100000001b3ull;
    }
    /* continue over the data: the same FNV-1a, seeded with x */
    for (uint64_t i = 0; i < n; i++) {
        x ^= data[i];
        x *= 0x100000001b3ull;
    }
    return x;
}

static void header(const nk_tb *tb, uint8_t h[HEADER])
{
    memset(h, 0, HEADER);
    memcpy(h, magic, 8);
    /* One plane: version 1, the files of before the second plane. */
    uint32_t u = tb->planes == 1 ? 1 : 2;
    memcpy(h + 8, &u, 4);
    if (tb->planes > 1) {
        u = tb->planes;
        memcpy(h + 36, &u, 4);
    }
    u = tb->seeds;
    memcpy(h + 12, &u, 4);
    strncpy((char *)h + 16, tb->variant->name, 15);
    u = tb->npat;
    memcpy(h + 32, &u, 4);
    uint64_t n = nk_tb_bytes(tb);
    memcpy(h + 40, &n, 8);
    for (unsigned k = 0; k < tb->npat; k++)
        memcpy(h + 56 + 2 * k, &tb->pat[k], 2);
}

/* Whether every byte of data (laid out as tb says) is a value a build can
 * give: no more than the b seeds on the board of its count, bit 0x80
 * clear; the cycle bit only where a cycle can be (never with no seeds,
 * never in the two-plane files, whose values are those of the game with
 * its full history); in the second plane a number with no bits, which
 * with the first plane's is at most b (g + h <= B, docs/tablebase.md).
 * A checksum says the bytes are the ones written, not that a build wrote
 * them: the values index and add up further on. */
static bool values_fit(const nk_tb *tb, const uint8_t *data)
{
    const uint8_t *plane1 = data + tb->offset[tb->seeds + 1];
    for (unsigned b = 0; b <= tb->seeds; b++) {
        uint8_t keep = b > 0 && tb->planes == 1 ? (uint8_t)~NK_TB_CYCLE : 0xFF, most = 0;
        for (uint64_t i = tb->offset[b]; i < tb->offset[b + 1]; i++) {
            uint8_t x = data[i] & keep;
            most = x > most ? x : most;
        }
        if (most > b)
            return false;
        for (uint64_t i = tb->offset[b]; tb->planes == 2 && i < tb->offset[b + 1]; i++)
            if (plane1[i] > b - data[i])
                return false;
    }
    return true;
}

void nk_tb_path(const char *dir, const nk_variant *v, char *out, size_t len)
{
    snprintf(out, len, "%s/%s.nktb", dir, v->name);
}

/* Writes a header (its checksum field filled here) and n bytes of data to
 * path through a temporary file and a rename. */
static nk_status write_file(const char *path, uint8_t h[HEADER], const uint8_t *data, uint64_t n,
                            char *err, size_t errlen)
{
    uint64_t sum = checksum(h, data, n);
    memcpy(h + 48, &sum, 8);
    size_t plen = strlen(path) + 16;
    char *tmp = malloc(plen);
    if (tmp == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    snprintf(tmp, plen, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) {
        nk_status s = nk_fail(NK_EIO, err, errlen, "cannot create '%s': %s", tmp, strerror(errno));
        free(tmp);
        return s;
    }
    bool ok = fwrite(h, 1, HEADER, f) == HEADER && fwrite(data, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        nk_status s = nk_fail(NK_EIO, err, errlen, "cannot write '%s': %s", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return s;
    }
    free(tmp);
    return NK_OK;
}

nk_status nk_tb_write(const nk_tb *tb, const char *path, char *err, size_t errlen)
{
    uint8_t h[HEADER];
    header(tb, h);
    return write_file(path, h, tb->data, nk_tb_bytes(tb), err, errlen);
}

/* Maps a whole regular file of at least HEADER bytes (what names it in the
 * errors: "an endgame database", "a bounds file"). */
static nk_status map_file(const char *path, const char *what, void **map, size_t *len, char *err,
                          size_t errlen)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return nk_fail(NK_ENOFILE, err, errlen, "cannot open '%s': %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return nk_fail(NK_ENOFILE, err, errlen, "'%s' is not a regular file", path);
    }
    *len = (size_t)sb.st_size;
    if (*len < HEADER) {
        close(fd);
        return nk_fail(NK_EFORMAT, err, errlen, "'%s' is not %s (too short)", path, what);
    }
    *map = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (*map == MAP_FAILED)
        return nk_fail(NK_EIO, err, errlen, "cannot map '%s': %s", path, strerror(errno));
    return NK_OK;
}

nk_status nk_tb_open(nk_tb *tb, const char *path, const nk_variant *expect, char *err,
                     size_t errlen)
{
    memset(tb, 0, sizeof *tb);
    void *map;
    size_t len;
    nk_status ms = map_file(path, "an endgame database", &map, &len, err, errlen);
    if (ms != NK_OK)
        return ms;
    const uint8_t *h = map;
    nk_status s = NK_EFORMAT;
    uint32_t version, seeds, npat;
    uint64_t n, sum;
    char name[17] = {0};
    memcpy(&version, h + 8, 4);
    memcpy(&seeds, h + 12, 4);
    memcpy(name, h + 16, 16);
    memcpy(&npat, h + 32, 4);
    memcpy(&n, h + 40, 8);
    memcpy(&sum, h + 48, 8);
    const nk_variant *v = nk_variant_find(name);
    if (memcmp(h, magic, 8) != 0) {
        nk_fail(s, err, errlen, "'%s' is not an endgame database (no NKTBASE1 magic)", path);
        goto fail;
    }
    if (version < 1 || version > VERSION_MAX) {
        nk_fail(s, err, errlen, "'%s': database format version %u, this nickar reads 1 to %d", path,
                version, VERSION_MAX);
        goto fail;
    }
    if (v == NULL || nk_tb_supported(v, NULL, 0) != NK_OK || seeds > NK_TB_MAX_SEEDS) {
        nk_fail(s, err, errlen, "'%s' is a damaged endgame database (bad variant or seeds)", path);
        goto fail;
    }
    /* The patterns: a valid set of the variant in the fixed order (tb.c),
     * all eleven or fewer for adjikui. */
    uint16_t pat[NK_TB_MAX_PATTERNS];
    for (unsigned k = 0; k < NK_TB_MAX_PATTERNS; k++)
        memcpy(&pat[k], h + 56 + 2 * k, 2);
    uint8_t want[HEADER];
    bool laid = npat <= NK_TB_MAX_PATTERNS && nk_tb_layout(tb, v, seeds, npat, pat);
    if (laid) {
        header(tb, want);
        memcpy(want + 48, h + 48, 8);
    }
    if (!laid || npat != tb->npat || memcmp(want, h, HEADER) != 0) {
        nk_fail(s, err, errlen, "'%s' is a damaged endgame database (header)", path);
        goto fail;
    }
    if (n != len - HEADER) {
        nk_fail(s, err, errlen,
                "'%s' is a truncated or damaged endgame database (%zu data bytes, header says "
                "%llu)",
                path, len - HEADER, (unsigned long long)n);
        goto fail;
    }
    if (checksum(h, h + HEADER, n) != sum) {
        nk_fail(s, err, errlen, "'%s' is a damaged endgame database (checksum)", path);
        goto fail;
    }
    if (!values_fit(tb, h + HEADER)) {
        nk_fail(s, err, errlen,
                "'%s' is a damaged endgame database (a value beyond the seeds on the board)", path);
        goto fail;
    }
    if (expect != NULL && v != expect) {
        s = nk_fail(NK_EMISMATCH, err, errlen, "'%s' is the database of %s, not of %s", path,
                    v->name, expect->name);
        goto fail;
    }
    tb->map = map;
    tb->map_len = len;
    tb->data = h + HEADER;
    tb->checksum = sum;
    return NK_OK;
fail:
    munmap(map, len);
    memset(tb, 0, sizeof *tb);
    return s;
}

void nk_tb_close(nk_tb *tb)
{
    if (tb->map)
        munmap(tb->map, tb->map_len);
    free(tb->owned);
    memset(tb, 0, sizeof *tb);
}

/* ===== bounds files (docs/tablebase.md, "The whole database's bounds") =====
 *
 * A 96-byte header and the two planes, lo then hi, one byte a position in
 * the order of the database's index.  The header, little-endian:
 *   0  magic "NKTBBND1"     8 bytes
 *   8  format version       u32: 1
 *  12  seeds N              u32   (the database's)
 *  16  variant name         16 bytes, NUL-padded
 *  32  patterns             u32
 *  36  zero                 u32
 *  40  data bytes           u64: 2 x the database's positions
 *  48  checksum             u64: FNV-1a 64 of the header with this field
 *                           zero, then of the data
 *  56  database checksum    u64: the checksum of the database file the
 *                           bounds were computed from
 *  64  North's pits of each pattern, u16 x 11, zero-padded to byte 96 */

static const char bmagic[8] = {'N', 'K', 'T', 'B', 'B', 'N', 'D', '1'};

static void bheader(const nk_tb *tb, uint8_t h[HEADER])
{
    memset(h, 0, HEADER);
    memcpy(h, bmagic, 8);
    uint32_t u = 1;
    memcpy(h + 8, &u, 4);
    u = tb->seeds;
    memcpy(h + 12, &u, 4);
    strncpy((char *)h + 16, tb->variant->name, 15);
    u = tb->npat;
    memcpy(h + 32, &u, 4);
    uint64_t n = 2 * tb->offset[tb->seeds + 1];
    memcpy(h + 40, &n, 8);
    memcpy(h + 56, &tb->checksum, 8);
    for (unsigned k = 0; k < tb->npat; k++)
        memcpy(h + 64 + 2 * k, &tb->pat[k], 2);
}

void nk_tb_whole_path(const char *dir, const nk_variant *v, char *out, size_t len)
{
    snprintf(out, len, "%s/%s.nkbd", dir, v->name);
}

nk_status nk_tb_whole_write(const nk_tb_whole *w, const char *path, char *err, size_t errlen)
{
    uint8_t h[HEADER];
    bheader(w->tb, h);
    /* the planes lie one after the other (nk_tb_whole_build, the map) */
    return write_file(path, h, w->lo, 2 * w->tb->offset[w->tb->seeds + 1], err, errlen);
}

/* Whether the bounds hold tb's values: lo <= value <= hi <= b, and lo = hi
 * = value where the value does not rest on the repetition rule. */
static bool bounds_hold(const nk_tb *tb, const uint8_t *lo, const uint8_t *hi)
{
    for (unsigned b = 0; b <= tb->seeds; b++)
        for (uint64_t i = tb->offset[b]; i < tb->offset[b + 1]; i++) {
            const uint8_t x = tb->data[i], v = x & NK_TB_VALUE_MASK;
            if (lo[i] > v || hi[i] < v || hi[i] > b ||
                (!(x & NK_TB_CYCLE) && (lo[i] != v || hi[i] != v)))
                return false;
        }
    return true;
}

nk_status nk_tb_whole_open(nk_tb_whole *w, const nk_tb *tb, const char *path, char *err,
                           size_t errlen)
{
    memset(w, 0, sizeof *w);
    void *map;
    size_t len;
    nk_status s = map_file(path, "a bounds file", &map, &len, err, errlen);
    if (s != NK_OK)
        return s;
    const uint8_t *h = map;
    uint8_t want[HEADER];
    bheader(tb, want);
    uint32_t version, seeds;
    uint64_t n, sum, dbsum;
    char name[17] = {0};
    memcpy(&version, h + 8, 4);
    memcpy(&seeds, h + 12, 4);
    memcpy(name, h + 16, 16);
    memcpy(&n, h + 40, 8);
    memcpy(&sum, h + 48, 8);
    memcpy(&dbsum, h + 56, 8);
    s = NK_EFORMAT;
    if (memcmp(h, bmagic, 8) != 0) {
        nk_fail(s, err, errlen, "'%s' is not a bounds file (no NKTBBND1 magic)", path);
        goto fail;
    }
    if (version != 1) {
        nk_fail(s, err, errlen, "'%s': bounds file format version %u, this nickar reads 1", path,
                version);
        goto fail;
    }
    memcpy(want + 48, h + 48, 8);
    if (memcmp(want, h, HEADER) != 0) {
        s = nk_fail(NK_EMISMATCH, err, errlen,
                    "'%s' is the bounds file of another database (%.16s to %u seeds, database "
                    "checksum %016llx; this one: %s to %u seeds, %016llx)",
                    path, name, seeds, (unsigned long long)dbsum, tb->variant->name, tb->seeds,
                    (unsigned long long)tb->checksum);
        goto fail;
    }
    if (n != len - HEADER) {
        nk_fail(s, err, errlen,
                "'%s' is a truncated or damaged bounds file (%zu data bytes, header says %llu)",
                path, len - HEADER, (unsigned long long)n);
        goto fail;
    }
    if (checksum(h, h + HEADER, n) != sum) {
        nk_fail(s, err, errlen, "'%s' is a damaged bounds file (checksum)", path);
        goto fail;
    }
    const uint8_t *lo = h + HEADER, *hi = lo + n / 2;
    if (!bounds_hold(tb, lo, hi)) {
        nk_fail(s, err, errlen, "'%s' is a damaged bounds file (a bound that does not hold the "
                "database's value)", path);
        goto fail;
    }
    w->tb = tb;
    w->lo = lo;
    w->hi = hi;
    w->map = map;
    w->map_len = len;
    w->checksum = sum;
    return NK_OK;
fail:
    munmap(map, len);
    return s;
}

void nk_tb_whole_close(nk_tb_whole *w)
{
    if (w->map)
        munmap(w->map, w->map_len);
    free(w->owned);
    memset(w, 0, sizeof *w);
}

/* ===== databases shared by players =====
 *
 * A fixed table of databases, each opened once and kept mapped until
 * nk_tb_shared_close_all.  The lock guards the table; an entry, once
 * filled, is not written again, so the nk_tb a caller got stays valid. */

enum { SHARED_MAX = 16 };

static struct {
    char path[4096];
    nk_tb tb;
} shared[SHARED_MAX];
static unsigned nshared;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

static const nk_tb *shared_lookup(const char *path)
{
    for (unsigned i = 0; i < nshared; i++)
        if (strcmp(shared[i].path, path) == 0)
            return &shared[i].tb;
    return NULL;
}

nk_status nk_tb_shared_open(const char *dir, const nk_variant *v, const nk_tb **out, char *err,
                            size_t errlen)
{
    char path[4096];
    *out = NULL;
    nk_status st = nk_tb_supported(v, err, errlen);
    if (st != NK_OK)
        return st;
    if (strlen(dir) + strlen(v->name) + 7 >= sizeof path)
        return nk_fail(NK_EINVAL, err, errlen, "the directory name is too long");
    nk_tb_path(dir, v, path, sizeof path);
    pthread_mutex_lock(&shared_lock);
    const nk_tb *tb = shared_lookup(path);
    if (tb == NULL && nshared == SHARED_MAX) {
        st = nk_fail(NK_ERANGE, err, errlen, "more than %d endgame databases open", SHARED_MAX);
    } else if (tb == NULL) {
        st = nk_tb_open(&shared[nshared].tb, path, v, err, errlen);
        if (st == NK_OK) {
            snprintf(shared[nshared].path, sizeof shared[nshared].path, "%s", path);
            tb = &shared[nshared++].tb;
        }
    }
    pthread_mutex_unlock(&shared_lock);
    *out = tb;
    return st;
}

const nk_tb *nk_tb_shared_find(const char *dir, const nk_variant *v)
{
    char path[4096];
    if (strlen(dir) + strlen(v->name) + 7 >= sizeof path)
        return NULL;
    nk_tb_path(dir, v, path, sizeof path);
    pthread_mutex_lock(&shared_lock);
    const nk_tb *tb = shared_lookup(path);
    pthread_mutex_unlock(&shared_lock);
    return tb;
}

void nk_tb_shared_close_all(void)
{
    pthread_mutex_lock(&shared_lock);
    for (unsigned i = 0; i < nshared; i++)
        nk_tb_close(&shared[i].tb);
    memset(shared, 0, sizeof shared);
    nshared = 0;
    pthread_mutex_unlock(&shared_lock);
}
