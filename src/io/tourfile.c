/*
 * tourfile.c -- the tournament file (see tourfile.h for the layout).
 */
#include "io/tourfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "base/alloc.h"
#include "io/backup.h"
#include "rules/rules.h"

#ifndef NICKAR_VERSION
#define NICKAR_VERSION "unknown"
#endif

/* Bounds on what a file may claim, so that a damaged size cannot make us
 * allocate wildly. */
enum { MAX_PLAYERS = 100000, CHUNK_ROWS = 4096 };

/* Now, or SOURCE_DATE_EPOCH (seconds since 1970) when that is set to a
 * number: the reproducible-builds convention, so that tests can compare
 * whole files. */
void nk_tour_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    if (epoch != NULL && *epoch != '\0') {
        char *end;
        errno = 0;
        long long v = strtoll(epoch, &end, 10);
        if (*end == '\0' && errno == 0 && v >= 0)
            now = (time_t)v;
    }
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ===== writing ===== */

typedef struct writer {
    hid_t file;
    bool ok;
    char what[128];
} writer;

static bool w_ok(writer *w, const char *what, herr_t rc)
{
    if (rc < 0 && w->ok) {
        w->ok = false;
        snprintf(w->what, sizeof w->what, "%s", what);
    }
    return rc >= 0;
}

static hid_t text_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, size) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0 ||
                   H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

static void put_text(writer *w, hid_t loc, const char *name, const char *value)
{
    if (!w->ok)
        return;
    nk_io_step("tournament attribute");
    hid_t t = text_type(strlen(value) + 1);
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = t >= 0 && s >= 0 ? H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT) : -1;
    w_ok(w, name, a >= 0 ? H5Awrite(a, t, value) : -1);
    if (a >= 0)
        H5Aclose(a);
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
}

static void put_num(writer *w, hid_t loc, const char *name, hid_t ftype, hid_t mtype,
                    const void *value)
{
    if (!w->ok)
        return;
    nk_io_step("tournament attribute");
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = s >= 0 ? H5Acreate2(loc, name, ftype, s, H5P_DEFAULT, H5P_DEFAULT) : -1;
    w_ok(w, name, a >= 0 ? H5Awrite(a, mtype, value) : -1);
    if (a >= 0)
        H5Aclose(a);
    if (s >= 0)
        H5Sclose(s);
}

/* A chunked, checksummed dataset of rank 1 or 2 (dims[0] may be 0). */
static hid_t put_data(writer *w, hid_t loc, const char *name, hid_t ftype, hid_t mtype, int rank,
                      const hsize_t *dims, const void *data)
{
    if (!w->ok)
        return -1;
    nk_io_step("tournament dataset");
    hsize_t max[2] = {H5S_UNLIMITED, dims[rank - 1]}, chunk[2];
    chunk[0] = dims[0] == 0 ? 1 : dims[0] < CHUNK_ROWS ? dims[0] : CHUNK_ROWS;
    if (rank == 2)
        chunk[1] = dims[1] == 0 ? 1 : dims[1];
    hid_t s = H5Screate_simple(rank, dims, max);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    bool good = s >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, rank, chunk) >= 0 &&
                H5Pset_fletcher32(dcpl) >= 0 && H5Pset_obj_track_times(dcpl, 0) >= 0;
    hid_t d = good ? H5Dcreate2(loc, name, ftype, s, H5P_DEFAULT, dcpl, H5P_DEFAULT) : -1;
    if (d >= 0 && dims[0] > 0)
        w_ok(w, name, H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
    else
        w_ok(w, name, d);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (s >= 0)
        H5Sclose(s);
    return d;
}

static void put_data_close(writer *w, hid_t loc, const char *name, hid_t ftype, hid_t mtype,
                           int rank, const hsize_t *dims, const void *data)
{
    hid_t d = put_data(w, loc, name, ftype, mtype, rank, dims, data);
    if (d >= 0)
        H5Dclose(d);
}

static hid_t group(writer *w, const char *name)
{
    if (!w->ok)
        return -1;
    nk_io_step("tournament group");
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    if (gcpl >= 0)
        H5Pset_obj_track_times(gcpl, 0);
    hid_t g = H5Gcreate2(w->file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    if (gcpl >= 0)
        H5Pclose(gcpl);
    w_ok(w, name, g);
    return g;
}

/* The game row's type; schema 1 had no first and north_pits. */
static hid_t game_type(int schema)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(nk_tour_game));
    H5Tinsert(t, "pairing", HOFFSET(nk_tour_game, pairing), H5T_NATIVE_INT32);
    H5Tinsert(t, "south", HOFFSET(nk_tour_game, south), H5T_NATIVE_INT32);
    H5Tinsert(t, "north", HOFFSET(nk_tour_game, north), H5T_NATIVE_INT32);
    H5Tinsert(t, "opening", HOFFSET(nk_tour_game, opening), H5T_NATIVE_INT32);
    H5Tinsert(t, "plies", HOFFSET(nk_tour_game, plies), H5T_NATIVE_INT32);
    H5Tinsert(t, "winner", HOFFSET(nk_tour_game, winner), H5T_NATIVE_INT8);
    H5Tinsert(t, "reason", HOFFSET(nk_tour_game, reason), H5T_NATIVE_INT8);
    H5Tinsert(t, "south_total", HOFFSET(nk_tour_game, south_total), H5T_NATIVE_INT16);
    H5Tinsert(t, "north_total", HOFFSET(nk_tour_game, north_total), H5T_NATIVE_INT16);
    H5Tinsert(t, "moves_at", HOFFSET(nk_tour_game, moves_at), H5T_NATIVE_INT64);
    if (schema >= 2) {
        H5Tinsert(t, "first", HOFFSET(nk_tour_game, first), H5T_NATIVE_INT8);
        H5Tinsert(t, "north_pits", HOFFSET(nk_tour_game, north_pits), H5T_NATIVE_UINT16);
    }
    return t;
}

static hid_t match_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(nk_tour_match));
    H5Tinsert(t, "pairing", HOFFSET(nk_tour_match, pairing), H5T_NATIVE_INT32);
    H5Tinsert(t, "south", HOFFSET(nk_tour_match, south), H5T_NATIVE_INT32);
    H5Tinsert(t, "north", HOFFSET(nk_tour_match, north), H5T_NATIVE_INT32);
    H5Tinsert(t, "games", HOFFSET(nk_tour_match, games), H5T_NATIVE_INT32);
    H5Tinsert(t, "winner", HOFFSET(nk_tour_match, winner), H5T_NATIVE_INT8);
    H5Tinsert(t, "south_wins", HOFFSET(nk_tour_match, south_wins), H5T_NATIVE_INT16);
    H5Tinsert(t, "north_wins", HOFFSET(nk_tour_match, north_wins), H5T_NATIVE_INT16);
    H5Tinsert(t, "draws", HOFFSET(nk_tour_match, draws), H5T_NATIVE_INT16);
    H5Tinsert(t, "first_game", HOFFSET(nk_tour_match, first_game), H5T_NATIVE_INT64);
    return t;
}

static hid_t rating_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(nk_tour_rating));
    H5Tinsert(t, "elo", HOFFSET(nk_tour_rating, elo), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "se", HOFFSET(nk_tour_rating, se), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "lo", HOFFSET(nk_tour_rating, lo), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "hi", HOFFSET(nk_tour_rating, hi), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "games", HOFFSET(nk_tour_rating, games), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "score", HOFFSET(nk_tour_rating, score), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "rank", HOFFSET(nk_tour_rating, rank), H5T_NATIVE_INT32);
    H5Tinsert(t, "los_next", HOFFSET(nk_tour_rating, los_next), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "se_pool", HOFFSET(nk_tour_rating, se_pool), H5T_NATIVE_DOUBLE);
    return t;
}

static void write_all(writer *w, const nk_tour *t)
{
    hid_t root = w->file;
    int32_t schema = NK_TOUR_SCHEMA_VERSION,
            complete = t->meetings_done == nk_tour_meetings_total(t);
    int64_t match_games = (int64_t)t->set.match_games;
    int64_t games = (int64_t)t->set.games, openings = (int64_t)t->set.openings,
            ply = (int64_t)t->set.ply_limit, done = (int64_t)t->meetings_done,
            total = (int64_t)nk_tour_meetings_total(t);
    put_text(w, root, "kind", "tournament");
    put_num(w, root, "schema_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &schema);
    put_text(w, root, "nickar_version", NICKAR_VERSION);
    put_text(w, root, "created", t->created);
    put_text(w, root, "variant", t->set.variant);
    put_text(w, root, "format", nk_tour_format_name(t->set.format));
    put_text(w, root, "unit", nk_arena_unit_name(t->set.unit));
    put_num(w, root, "match_games", H5T_STD_I64LE, H5T_NATIVE_INT64, &match_games);
    put_num(w, root, "games", H5T_STD_I64LE, H5T_NATIVE_INT64, &games);
    put_num(w, root, "openings", H5T_STD_I64LE, H5T_NATIVE_INT64, &openings);
    put_num(w, root, "ply_limit", H5T_STD_I64LE, H5T_NATIVE_INT64, &ply);
    put_num(w, root, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &t->set.seed);
    put_text(w, root, "anchor", t->set.anchor);
    put_num(w, root, "anchor_elo", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &t->set.anchor_elo);
    put_num(w, root, "meetings_done", H5T_STD_I64LE, H5T_NATIVE_INT64, &done);
    put_num(w, root, "meetings_total", H5T_STD_I64LE, H5T_NATIVE_INT64, &total);
    put_num(w, root, "complete", H5T_STD_I32LE, H5T_NATIVE_INT32, &complete);

    size_t p = t->nplayers;
    char *names = nk_calloc(p, NK_PLAYER_NAME), *specs = nk_calloc(p, NK_SPEC_TEXT);
    double *wts = nk_calloc(p * NK_MAX_FEATURES, sizeof *wts);
    int32_t *nw = nk_calloc(p, sizeof *nw);
    nk_wdl *cross = nk_calloc(p * p, sizeof *cross);
    int32_t *cw = nk_calloc(p * p, sizeof *cw), *cd = nk_calloc(p * p, sizeof *cd),
            *cl = nk_calloc(p * p, sizeof *cl);
    double *score = nk_calloc(p * p, sizeof *score);
    if (!names || !specs || !wts || !nw || !cross || !cw || !cd || !cl || !score) {
        w->ok = false;
        snprintf(w->what, sizeof w->what, "out of memory");
    }
    if (w->ok) {
        for (size_t i = 0; i < p; i++) {
            memcpy(names + i * NK_PLAYER_NAME, t->players[i].name, NK_PLAYER_NAME);
            memcpy(specs + i * NK_SPEC_TEXT, t->players[i].spec, NK_SPEC_TEXT);
            memcpy(wts + i * NK_MAX_FEATURES, t->players[i].weights, sizeof t->players[i].weights);
            nw[i] = t->players[i].n_weights;
        }
        nk_tour_cross(t, cross);
        nk_ratings_score_matrix(cross, p, score);
        for (size_t i = 0; i < p; i++)
            for (size_t j = 0; j < p; j++) {
                size_t k = i * p + j;
                /* the score matrix reads i < j; fill both halves from i's view */
                cw[k] = (int32_t)cross[k].w;
                cd[k] = (int32_t)cross[k].d;
                cl[k] = (int32_t)cross[k].l;
            }
    }
    hid_t g = group(w, "/players");
    hid_t tn = text_type(NK_PLAYER_NAME), ts = text_type(NK_SPEC_TEXT);
    hsize_t d1[2] = {p, 0}, d2[2] = {p, NK_MAX_FEATURES};
    if (g >= 0) {
        put_data_close(w, g, "name", tn, tn, 1, d1, names);
        put_data_close(w, g, "spec", ts, ts, 1, d1, specs);
        put_data_close(w, g, "weights", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, d2, wts);
        put_data_close(w, g, "n_weights", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, d1, nw);
        H5Gclose(g);
    }
    if (tn >= 0)
        H5Tclose(tn);
    if (ts >= 0)
        H5Tclose(ts);
    hsize_t dq[2] = {t->npairings, 2};
    put_data_close(w, root, "/pairings", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dq, t->pairings);
    /* the file's compound types are packed: no padding bytes (whose
     * contents memory does not fix) reach the file */
    hid_t gt = game_type(NK_TOUR_SCHEMA_VERSION), gp = H5Tcopy(gt);
    H5Tpack(gp);
    hsize_t dg[1] = {t->ngames};
    hid_t d = put_data(w, root, "/games", gp, gt, 1, dg, t->games);
    if (d >= 0) {
        char names_buf[NK_END_COUNT * 32] = "";
        for (int r = 0; r < NK_END_COUNT; r++) {
            strcat(names_buf, r ? "," : "");
            strcat(names_buf, nk_end_name((nk_end)r));
        }
        put_text(w, d, "reason_names", names_buf);
        put_text(w, d, "winner_names", "south,north,draw");
        H5Dclose(d);
    }
    H5Tclose(gp);
    H5Tclose(gt);
    if (t->set.unit == NK_UNIT_MATCH) {
        hid_t mt = match_type(), mp = H5Tcopy(mt);
        H5Tpack(mp);
        hsize_t dk[1] = {t->nmatches};
        d = put_data(w, root, "/matches", mp, mt, 1, dk, t->matches);
        if (d >= 0) {
            put_text(w, d, "winner_names", "south,north,draw");
            H5Dclose(d);
        }
        H5Tclose(mp);
        H5Tclose(mt);
    }
    hsize_t dm[1] = {t->nmoves};
    put_data_close(w, root, "/moves", H5T_STD_U8LE, H5T_NATIVE_UINT8, 1, dm, t->moves);
    g = group(w, "/cross");
    hsize_t dc[2] = {p, p};
    if (g >= 0) {
        put_data_close(w, g, "wins", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dc, cw);
        put_data_close(w, g, "draws", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dc, cd);
        put_data_close(w, g, "losses", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dc, cl);
        put_data_close(w, g, "score", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dc, score);
        H5Gclose(g);
    }
    if (t->has_ratings) {
        hid_t rt = rating_type(), rp = H5Tcopy(rt);
        H5Tpack(rp);
        d = put_data(w, root, "/ratings", rp, rt, 1, d1, t->ratings);
        if (d >= 0) {
            int32_t prior = t->prior;
            put_text(w, d, "model",
                     "Bradley-Terry on the logistic Elo scale, draws as half a win, maximum "
                     "likelihood");
            put_text(w, d, "interval",
                     "95%: 1.959964 se, se from the inverse observed information with the "
                     "anchor fixed, corrected for draws (sandwich); se_pool: of the rating "
                     "less the mean of all, from the same covariance");
            put_num(w, d, "prior", H5T_STD_I32LE, H5T_NATIVE_INT32, &prior);
            H5Dclose(d);
        }
        H5Tclose(rp);
        H5Tclose(rt);
    }
    nk_free(names);
    nk_free(specs);
    nk_free(wts);
    nk_free(nw);
    nk_free(cross);
    nk_free(cw);
    nk_free(cd);
    nk_free(cl);
    nk_free(score);
}

static nk_status sync_path(const char *path, bool dir, char *err, size_t errlen)
{
    nk_io_step(dir ? "tournament sync directory" : "tournament sync");
    int fd = open(path, (dir ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
    if (fd < 0)
        return nk_fail(NK_EIO, err, errlen, "cannot open '%s' to sync it: %s", path,
                       strerror(errno));
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    if (rc != 0 && !dir)
        return nk_fail(NK_EIO, err, errlen, "cannot sync '%s': %s", path, strerror(e));
    return NK_OK;
}

nk_status nk_tour_write(const nk_tour *t, const char *path, char *err, size_t errlen)
{
    char tmp[NK_RUN_PATH_MAX];
    if (strlen(path) + NK_RUN_SUFFIX_MAX >= NK_RUN_PATH_MAX)
        return nk_fail(NK_EINVAL, err, errlen, "the path '%.60s...' is too long", path);
    nk_backup_name(tmp, path, ".tmp");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    if (fapl >= 0)
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18);
    if (fcpl >= 0)
        H5Pset_obj_track_times(fcpl, 0);
    nk_io_step("tournament create");
    writer w = {.ok = true};
    w.file = H5Fcreate(tmp, H5F_ACC_TRUNC, fcpl, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (w.file < 0)
        return nk_fail(NK_EIO, err, errlen, "cannot create '%s'", tmp);
    write_all(&w, t);
    nk_io_step("tournament flush");
    if (w.ok)
        w_ok(&w, "flush", H5Fflush(w.file, H5F_SCOPE_GLOBAL));
    if (H5Fclose(w.file) < 0 && w.ok) {
        w.ok = false;
        snprintf(w.what, sizeof w.what, "close");
    }
    if (!w.ok) {
        unlink(tmp);
        return nk_fail(NK_EIO, err, errlen, "cannot write '%s': %s failed", tmp, w.what);
    }
    nk_status st = sync_path(tmp, false, err, errlen);
    if (st != NK_OK)
        return st;
    nk_io_step("tournament rename");
    if (rename(tmp, path) != 0)
        return nk_fail(NK_EIO, err, errlen, "cannot rename '%s' to '%s': %s", tmp, path,
                       strerror(errno));
    char dir[NK_RUN_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return sync_path(dir, true, err, errlen);
}

/* ===== reading ===== */

typedef struct reader {
    hid_t file;
    const char *path;
    char *err;
    size_t errlen;
    nk_status st;
} reader;

static bool bad(reader *r, const char *what)
{
    if (r->st == NK_OK)
        r->st = nk_fail(NK_EFORMAT, r->err, r->errlen, "damaged tournament file '%s': %s", r->path,
                        what);
    return false;
}

static bool get_text(reader *r, hid_t loc, const char *name, char *out, size_t len)
{
    if (r->st != NK_OK)
        return false;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
    bool good = ft >= 0 && H5Tget_class(ft) == H5T_STRING && !H5Tis_variable_str(ft) &&
                H5Tget_size(ft) <= len;
    hid_t mt = good ? text_type(H5Tget_size(ft)) : -1;
    memset(out, 0, len);
    good = good && mt >= 0 && H5Aread(a, mt, out) >= 0;
    out[len - 1] = '\0';
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    if (a >= 0)
        H5Aclose(a);
    if (!good) {
        char what[96];
        snprintf(what, sizeof what, "attribute '%s'", name);
        return bad(r, what);
    }
    return true;
}

static bool get_num(reader *r, hid_t loc, const char *name, hid_t mtype, void *out)
{
    if (r->st != NK_OK)
        return false;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    bool good = a >= 0 && H5Aread(a, mtype, out) >= 0;
    if (a >= 0)
        H5Aclose(a);
    if (!good) {
        char what[96];
        snprintf(what, sizeof what, "attribute '%s'", name);
        return bad(r, what);
    }
    return true;
}

/* Whether every chunk of a dataset is stored, each with its Fletcher-32
 * checksum: a chunk whose index entry was damaged would otherwise read as
 * the fill value (zeros) without an error. */
static bool all_chunks_stored(hid_t d, int rank, const hsize_t *dims, bool *nomem)
{
    hid_t dcpl = H5Dget_create_plist(d), ft = H5Dget_type(d);
    hsize_t chunk[2] = {0, 0};
    bool good = dcpl >= 0 && ft >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED &&
                H5Pget_chunk(dcpl, rank, chunk) == rank && chunk[0] > 0 &&
                (rank == 1 || chunk[1] > 0);
    if (good) {
        hsize_t n = (dims[0] + chunk[0] - 1) / chunk[0], bytes = chunk[0] * H5Tget_size(ft);
        if (rank == 2) {
            n *= (dims[1] + chunk[1] - 1) / chunk[1];
            bytes *= chunk[1];
        }
        good = dims[rank - 1] == 0 || H5Dget_storage_size(d) == n * (bytes + 4);
        /* the chunk index has no checksum of its own: each chunk must sit
         * at its own place, once */
        hsize_t count = 0;
        hid_t sp = H5Dget_space(d);
        unsigned char *seen = good && dims[rank - 1] > 0 ? nk_calloc(n, 1) : NULL;
        if (good && dims[rank - 1] > 0 && seen == NULL)
            *nomem = true;
        if (seen == NULL || sp < 0 || H5Dget_num_chunks(d, sp, &count) < 0 || count != n)
            good = good && dims[rank - 1] == 0;
        for (hsize_t i = 0; good && seen != NULL && i < n; i++) {
            hsize_t off[2] = {0, 0}, size = 0;
            haddr_t addr;
            unsigned mask = 0;
            good = H5Dget_chunk_info(d, sp, i, off, &mask, &addr, &size) >= 0 && mask == 0 &&
                   size == bytes + 4 && off[0] % chunk[0] == 0 && off[0] < dims[0] &&
                   (rank == 1 || (off[1] % chunk[1] == 0 && off[1] < dims[1]));
            if (good) {
                hsize_t k = off[0] / chunk[0];
                if (rank == 2)
                    k = k * ((dims[1] + chunk[1] - 1) / chunk[1]) + off[1] / chunk[1];
                good = seen[k] == 0;
                seen[k] = 1;
            }
        }
        nk_free(seen);
        if (sp >= 0)
            H5Sclose(sp);
    }
    if (ft >= 0)
        H5Tclose(ft);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return good;
}

/* Reads a whole dataset whose shape must be dims (rank 1 or 2). */
static bool get_data(reader *r, const char *name, hid_t mtype, int rank, const hsize_t *dims,
                     void *out)
{
    if (r->st != NK_OK)
        return false;
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    hid_t s = d >= 0 ? H5Dget_space(d) : -1;
    hsize_t got[2] = {0, 0};
    bool good = s >= 0 && H5Sget_simple_extent_ndims(s) == rank &&
                H5Sget_simple_extent_dims(s, got, NULL) == rank && got[0] == dims[0] &&
                (rank == 1 || got[1] == dims[1]);
    bool nomem = false;
    if (good && dims[0] > 0)
        good = all_chunks_stored(d, rank, got, &nomem) &&
               H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0;
    if (s >= 0)
        H5Sclose(s);
    if (d >= 0)
        H5Dclose(d);
    if (nomem) {
        r->st = nk_fail(NK_ENOMEM, r->err, r->errlen, "out of memory reading '%s'", r->path);
        return false;
    }
    if (!good) {
        char what[96];
        snprintf(what, sizeof what, "dataset '%s' is missing, of the wrong shape or damaged", name);
        return bad(r, what);
    }
    return true;
}

static hsize_t extent(reader *r, const char *name)
{
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    hid_t s = d >= 0 ? H5Dget_space(d) : -1;
    hsize_t n = 0;
    if (s < 0 || H5Sget_simple_extent_dims(s, &n, NULL) < 1)
        n = (hsize_t)-1;
    if (s >= 0)
        H5Sclose(s);
    if (d >= 0)
        H5Dclose(d);
    return n;
}

bool nk_tour_is_file(const char *path)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (H5Fis_hdf5(path) <= 0)
        return false;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return false;
    char kind[32] = "";
    hid_t a = H5Aexists(f, "kind") > 0 ? H5Aopen(f, "kind", H5P_DEFAULT) : -1;
    if (a >= 0) {
        hid_t ft = H5Aget_type(a);
        if (ft >= 0 && H5Tget_class(ft) == H5T_STRING && !H5Tis_variable_str(ft) &&
            H5Tget_size(ft) < sizeof kind) {
            hid_t mt = text_type(H5Tget_size(ft));
            H5Aread(a, mt, kind);
            H5Tclose(mt);
        }
        if (ft >= 0)
            H5Tclose(ft);
        H5Aclose(a);
    }
    H5Fclose(f);
    return strcmp(kind, "tournament") == 0;
}

static void read_all(reader *r, nk_tour *t)
{
    hid_t root = r->file;
    char kind[32], format[32], unit[32] = "game";
    int32_t schema = 0, complete = 0;
    int64_t games = 0, openings = 0, ply = 0, done = 0, total = 0, match_games = 0;
    get_text(r, root, "kind", kind, sizeof kind);
    if (r->st == NK_OK && strcmp(kind, "tournament") != 0)
        bad(r, "not a tournament file (kind is not 'tournament')");
    get_num(r, root, "schema_version", H5T_NATIVE_INT32, &schema);
    if (r->st == NK_OK && (schema < 1 || schema > NK_TOUR_SCHEMA_VERSION))
        r->st = nk_fail(NK_EFORMAT, r->err, r->errlen,
                        "tournament file '%s' has schema_version %d; this nickar reads 1 to %d",
                        r->path, schema, NK_TOUR_SCHEMA_VERSION);
    t->schema = schema;
    if (schema >= 2) {
        get_text(r, root, "unit", unit, sizeof unit);
        get_num(r, root, "match_games", H5T_NATIVE_INT64, &match_games);
    }
    get_text(r, root, "created", t->created, sizeof t->created);
    get_text(r, root, "variant", t->set.variant, sizeof t->set.variant);
    get_text(r, root, "format", format, sizeof format);
    get_num(r, root, "games", H5T_NATIVE_INT64, &games);
    get_num(r, root, "openings", H5T_NATIVE_INT64, &openings);
    get_num(r, root, "ply_limit", H5T_NATIVE_INT64, &ply);
    get_num(r, root, "seed", H5T_NATIVE_UINT64, &t->set.seed);
    get_text(r, root, "anchor", t->set.anchor, sizeof t->set.anchor);
    get_num(r, root, "anchor_elo", H5T_NATIVE_DOUBLE, &t->set.anchor_elo);
    get_num(r, root, "meetings_done", H5T_NATIVE_INT64, &done);
    get_num(r, root, "meetings_total", H5T_NATIVE_INT64, &total);
    get_num(r, root, "complete", H5T_NATIVE_INT32, &complete);
    if (r->st != NK_OK)
        return;
    if (strcmp(format, "round-robin") == 0)
        t->set.format = NK_TOUR_ROUND_ROBIN;
    else if (strcmp(format, "gauntlet") == 0)
        t->set.format = NK_TOUR_GAUNTLET;
    else
        bad(r, "format is neither 'round-robin' nor 'gauntlet'");
    if (!nk_arena_unit_parse(unit, &t->set.unit))
        bad(r, "unit is neither 'game' nor 'match'");
    else if (t->set.unit == NK_UNIT_MATCH ? match_games < 1 || match_games > NK_MATCH_GAMES_MAX
                                          : match_games != 0)
        bad(r, "match_games out of range for the unit");
    t->set.match_games = (uint64_t)match_games;
    if (games < 2 || games % 2 != 0 || games > (1 << 30) || openings < 0 || ply < 1 || done < 0 ||
        total < done)
        bad(r, "games, openings, ply_limit or meetings_done out of range");
    t->set.games = (uint64_t)games;
    t->set.openings = (uint64_t)openings;
    t->set.ply_limit = (uint64_t)ply;
    t->meetings_done = (size_t)done;
    hsize_t p = extent(r, "/players/name");
    if (r->st == NK_OK && (p < 2 || p > MAX_PLAYERS))
        bad(r, "/players/name: not 2 to 100000 players");
    if (r->st != NK_OK)
        return;
    t->nplayers = (size_t)p;
    t->npairings = t->set.format == NK_TOUR_GAUNTLET ? p - 1 : p * (p - 1) / 2;
    if ((int64_t)nk_tour_meetings_total(t) != total)
        bad(r, "meetings_total does not match the players and games");
    hsize_t ng = extent(r, "/games");
    if (t->set.unit == NK_UNIT_MATCH) {
        t->nmatches = 2 * t->meetings_done;
        if (r->st == NK_OK && extent(r, "/matches") != t->nmatches)
            bad(r, "/matches missing or not 2 * meetings_done rows");
        if (r->st == NK_OK && (ng == (hsize_t)-1 || ng > (hsize_t)t->nmatches * NK_MATCH_GAMES_MAX))
            bad(r, "/games missing or of more rows than the matches allow");
        t->ngames = (size_t)ng;
    } else {
        t->ngames = 2 * t->meetings_done;
        if (r->st == NK_OK && ng != t->ngames)
            bad(r, "/games missing or not 2 * meetings_done rows");
    }
    hsize_t nm = extent(r, "/moves");
    if (r->st == NK_OK && nm == (hsize_t)-1)
        bad(r, "/moves missing");
    if (r->st != NK_OK)
        return;
    t->nmoves = (size_t)nm;
    t->players = nk_calloc(p, sizeof *t->players);
    t->pairings = nk_calloc(2 * t->npairings + 1, sizeof *t->pairings);
    t->ratings = nk_calloc(p, sizeof *t->ratings);
    t->games = nk_calloc(t->ngames + 1, sizeof *t->games);
    t->games_cap = t->ngames + 1;
    t->moves = nk_malloc(t->nmoves + 1);
    t->moves_cap = t->nmoves + 1;
    t->matches = nk_calloc(t->nmatches + 1, sizeof *t->matches);
    t->matches_cap = t->nmatches + 1;
    char *names = nk_calloc(p, NK_PLAYER_NAME), *specs = nk_calloc(p, NK_SPEC_TEXT);
    double *wts = nk_calloc(p * NK_MAX_FEATURES, sizeof *wts);
    int32_t *nw = nk_calloc(p, sizeof *nw);
    if (!t->players || !t->pairings || !t->ratings || !t->games || !t->moves || !t->matches ||
        !names || !specs || !wts || !nw) {
        r->st = nk_fail(NK_ENOMEM, r->err, r->errlen, "out of memory reading '%s'", r->path);
    } else {
        hid_t tn = text_type(NK_PLAYER_NAME), ts = text_type(NK_SPEC_TEXT), gt = game_type(schema);
        hsize_t d1[2] = {p, 0}, d2[2] = {p, NK_MAX_FEATURES}, dq[2] = {t->npairings, 2},
                dg[1] = {t->ngames}, dm[1] = {t->nmoves};
        get_data(r, "/players/name", tn, 1, d1, names);
        get_data(r, "/players/spec", ts, 1, d1, specs);
        get_data(r, "/players/weights", H5T_NATIVE_DOUBLE, 2, d2, wts);
        get_data(r, "/players/n_weights", H5T_NATIVE_INT32, 1, d1, nw);
        get_data(r, "/pairings", H5T_NATIVE_INT32, 2, dq, t->pairings);
        get_data(r, "/games", gt, 1, dg, t->games);
        get_data(r, "/moves", H5T_NATIVE_UINT8, 1, dm, t->moves);
        if (t->set.unit == NK_UNIT_MATCH) {
            hid_t mt = match_type();
            hsize_t dk[1] = {t->nmatches};
            get_data(r, "/matches", mt, 1, dk, t->matches);
            H5Tclose(mt);
        }
        H5Tclose(tn);
        H5Tclose(ts);
        H5Tclose(gt);
        for (size_t i = 0; r->st == NK_OK && i < p; i++) {
            memcpy(t->players[i].name, names + i * NK_PLAYER_NAME, NK_PLAYER_NAME);
            t->players[i].name[NK_PLAYER_NAME - 1] = '\0';
            memcpy(t->players[i].spec, specs + i * NK_SPEC_TEXT, NK_SPEC_TEXT);
            t->players[i].spec[NK_SPEC_TEXT - 1] = '\0';
            memcpy(t->players[i].weights, wts + i * NK_MAX_FEATURES, sizeof t->players[i].weights);
            t->players[i].n_weights = nw[i];
            if (nw[i] < 0 || nw[i] > NK_MAX_FEATURES)
                bad(r, "/players/n_weights out of range");
        }
        for (size_t k = 0; r->st == NK_OK && k < t->ngames; k++) {
            const nk_tour_game *g = &t->games[k];
            if (g->pairing < 0 || (size_t)g->pairing >= t->npairings || g->south < 0 ||
                g->north < 0 || (hsize_t)g->south >= p || (hsize_t)g->north >= p || g->plies < 0 ||
                g->moves_at < 0 || (size_t)g->moves_at + g->plies > t->nmoves || g->winner < 0 ||
                g->winner > 2)
                bad(r, "a row of /games points outside the file");
            if (schema < 2) { /* schema 1: unit-game games from the start position */
                t->games[k].first = NK_SOUTH;
                t->games[k].north_pits = NK_DEFAULT_NORTH;
            }
        }
        /* the matches: each its own run of the games, in order, between
         * its two players */
        int64_t at = 0;
        for (size_t k = 0; r->st == NK_OK && k < t->nmatches; k++) {
            const nk_tour_match *m = &t->matches[k];
            bool good = m->pairing >= 0 && (size_t)m->pairing < t->npairings &&
                        m->first_game == at && m->games >= 1 &&
                        (uint64_t)m->games <= t->set.match_games &&
                        (size_t)at + (size_t)m->games <= t->ngames && m->winner >= 0 &&
                        m->winner <= 2;
            for (int32_t g = 0; good && g < m->games; g++) {
                const nk_tour_game *x = &t->games[at + g];
                good = x->south == m->south && x->north == m->north && x->pairing == m->pairing;
            }
            if (!good)
                bad(r, "a row of /matches does not match its games");
            at += m->games;
        }
        if (r->st == NK_OK && t->set.unit == NK_UNIT_MATCH && (size_t)at != t->ngames)
            bad(r, "/games holds games of no match");
        if (r->st == NK_OK && schema < 2) {
            /* schema 1's rating rows are fitted again (the same fit) */
            r->st = nk_tour_rate(t, r->err, r->errlen);
        } else if (r->st == NK_OK && H5Lexists(root, "/ratings", H5P_DEFAULT) > 0) {
            hid_t rt = rating_type();
            t->has_ratings = get_data(r, "/ratings", rt, 1, d1, t->ratings);
            H5Tclose(rt);
            hid_t d = H5Dopen2(root, "/ratings", H5P_DEFAULT);
            int32_t prior = 0;
            if (d >= 0) {
                get_num(r, d, "prior", H5T_NATIVE_INT32, &prior);
                H5Dclose(d);
            }
            t->prior = prior != 0;
        }
    }
    nk_free(names);
    nk_free(specs);
    nk_free(wts);
    nk_free(nw);
}

nk_status nk_tour_read(nk_tour *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return nk_fail(NK_ENOFILE, err, errlen, "cannot open tournament file '%s': %s", path,
                       errno ? strerror(errno) : "not a regular file");
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return nk_fail(NK_EFORMAT, err, errlen, "'%s' is not an HDF5 file that opens", path);
    reader r = {.file = f, .path = path, .err = err, .errlen = errlen, .st = NK_OK};
    read_all(&r, t);
    H5Fclose(f);
    if (r.st != NK_OK)
        nk_tour_free(t);
    return r.st;
}
