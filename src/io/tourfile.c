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

#include "base/alloc.h"
#include "io/backup.h"
#include "io/h5.h"
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

/* The layout of a tournament dataset of rank 1 or 2 (dims[0] may be 0):
 * extendible along its rows, in chunks of up to CHUNK_ROWS whole rows. */
static nk_h5_shape tour_shape(int rank, const hsize_t *dims, hsize_t max[2], hsize_t chunk[2])
{
    max[0] = H5S_UNLIMITED;
    max[1] = dims[rank - 1];
    chunk[0] = dims[0] == 0 ? 1 : dims[0] < CHUNK_ROWS ? dims[0] : CHUNK_ROWS;
    if (rank == 2)
        chunk[1] = dims[1] == 0 ? 1 : dims[1];
    return (nk_h5_shape){rank, dims, max, chunk, false, H5P_DEFAULT, NULL};
}

/* A tournament dataset (the caller closes it; -1 on failure). */
static hid_t put_data(nk_h5w *w, hid_t loc, const char *name, hid_t ftype, hid_t mtype, int rank,
                      const hsize_t *dims, const void *data)
{
    hsize_t max[2], chunk[2];
    nk_h5_shape shape = tour_shape(rank, dims, max, chunk);
    hid_t d = nk_h5w_dataset(w, loc, name, ftype, &shape);
    if (d >= 0 && dims[0] > 0)
        nk_h5w_write(w, d, name, mtype, data);
    return d;
}

static void put_data_close(nk_h5w *w, hid_t loc, const char *name, hid_t ftype, hid_t mtype,
                           int rank, const hsize_t *dims, const void *data)
{
    hsize_t max[2], chunk[2];
    nk_h5_shape shape = tour_shape(rank, dims, max, chunk);
    nk_h5w_data(w, loc, name, ftype, mtype, &shape, data);
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

/* The root's attributes (tourfile.h). */
static void write_root_attrs(nk_h5w *w, const nk_tour *t)
{
    hid_t root = w->file;
    int32_t schema = NK_TOUR_SCHEMA_VERSION,
            complete = t->meetings_done == nk_tour_meetings_total(t);
    int64_t match_games = (int64_t)t->set.match_games;
    int64_t games = (int64_t)t->set.games, openings = (int64_t)t->set.openings,
            ply = (int64_t)t->set.ply_limit, done = (int64_t)t->meetings_done,
            total = (int64_t)nk_tour_meetings_total(t);
    nk_h5w_text(w, root, "kind", "kind", "tournament");
    nk_h5w_attr(w, root, "schema_version", "schema_version", H5T_STD_I32LE, H5T_NATIVE_INT32,
                &schema);
    nk_h5w_text(w, root, "nickar_version", "nickar_version", NICKAR_VERSION);
    nk_h5w_text(w, root, "created", "created", t->created);
    nk_h5w_text(w, root, "variant", "variant", t->set.variant);
    nk_h5w_text(w, root, "format", "format", nk_tour_format_name(t->set.format));
    nk_h5w_text(w, root, "unit", "unit", nk_arena_unit_name(t->set.unit));
    nk_h5w_attr(w, root, "match_games", "match_games", H5T_STD_I64LE, H5T_NATIVE_INT64,
                &match_games);
    nk_h5w_attr(w, root, "games", "games", H5T_STD_I64LE, H5T_NATIVE_INT64, &games);
    nk_h5w_attr(w, root, "openings", "openings", H5T_STD_I64LE, H5T_NATIVE_INT64, &openings);
    nk_h5w_attr(w, root, "ply_limit", "ply_limit", H5T_STD_I64LE, H5T_NATIVE_INT64, &ply);
    nk_h5w_attr(w, root, "seed", "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &t->set.seed);
    nk_h5w_text(w, root, "anchor", "anchor", t->set.anchor);
    nk_h5w_attr(w, root, "anchor_elo", "anchor_elo", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                &t->set.anchor_elo);
    nk_h5w_attr(w, root, "meetings_done", "meetings_done", H5T_STD_I64LE, H5T_NATIVE_INT64, &done);
    nk_h5w_attr(w, root, "meetings_total", "meetings_total", H5T_STD_I64LE, H5T_NATIVE_INT64,
                &total);
    nk_h5w_attr(w, root, "complete", "complete", H5T_STD_I32LE, H5T_NATIVE_INT32, &complete);
}

/* /players: name, spec, weights, n_weights. */
static void write_players(nk_h5w *w, const nk_tour *t)
{
    size_t p = t->nplayers;
    char *names = nk_calloc(p, NK_PLAYER_NAME), *specs = nk_calloc(p, NK_SPEC_TEXT);
    double *wts = nk_calloc(p * NK_MAX_FEATURES, sizeof *wts);
    int32_t *nw = nk_calloc(p, sizeof *nw);
    if (!names || !specs || !wts || !nw)
        nk_h5w_fail(w, "out of memory", "", false);
    for (size_t i = 0; w->ok && i < p; i++) {
        memcpy(names + i * NK_PLAYER_NAME, t->players[i].name, NK_PLAYER_NAME);
        memcpy(specs + i * NK_SPEC_TEXT, t->players[i].spec, NK_SPEC_TEXT);
        memcpy(wts + i * NK_MAX_FEATURES, t->players[i].weights, sizeof t->players[i].weights);
        nw[i] = t->players[i].n_weights;
    }
    hid_t g = nk_h5w_group(w, w->file, "/players");
    hid_t tn = nk_h5_utf8_type(NK_PLAYER_NAME), ts = nk_h5_utf8_type(NK_SPEC_TEXT);
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
    nk_free(names);
    nk_free(specs);
    nk_free(wts);
    nk_free(nw);
}

/* A table of rows of the native compound type mt, packed in the file (no
 * padding bytes, whose contents memory does not fix, reach it); its
 * dataset open for attributes, or -1. */
static hid_t put_table(nk_h5w *w, const char *name, hid_t mt, size_t rows, const void *data)
{
    hid_t packed = H5Tcopy(mt);
    H5Tpack(packed);
    hsize_t dims[1] = {rows};
    hid_t d = put_data(w, w->file, name, packed, mt, 1, dims, data);
    H5Tclose(packed);
    H5Tclose(mt);
    return d;
}

/* /pairings, /games, /matches (unit match), /moves. */
static void write_games(nk_h5w *w, const nk_tour *t)
{
    hsize_t dq[2] = {t->npairings, 2};
    put_data_close(w, w->file, "/pairings", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dq, t->pairings);
    hid_t d = put_table(w, "/games", game_type(NK_TOUR_SCHEMA_VERSION), t->ngames, t->games);
    if (d >= 0) {
        /* The rules' reasons, and the forfeits when a game ended so. */
        int reasons = NK_END_RULES;
        for (size_t i = 0; i < t->ngames; i++)
            if (t->games[i].reason >= reasons && t->games[i].reason < NK_END_COUNT)
                reasons = NK_END_COUNT;
        char names_buf[NK_END_COUNT * 32] = "";
        for (int r = 0; r < reasons; r++) {
            strcat(names_buf, r ? "," : "");
            strcat(names_buf, nk_end_name((nk_end)r));
        }
        nk_h5w_text(w, d, "reason_names", "reason_names", names_buf);
        nk_h5w_text(w, d, "winner_names", "winner_names", "south,north,draw");
        H5Dclose(d);
    }
    if (t->set.unit == NK_UNIT_MATCH) {
        d = put_table(w, "/matches", match_type(), t->nmatches, t->matches);
        if (d >= 0) {
            nk_h5w_text(w, d, "winner_names", "winner_names", "south,north,draw");
            H5Dclose(d);
        }
    }
    hsize_t dm[1] = {t->nmoves};
    put_data_close(w, w->file, "/moves", H5T_STD_U8LE, H5T_NATIVE_UINT8, 1, dm, t->moves);
}

/* /cross: the cross table, both halves from the row's view, and the score
 * matrix. */
static void write_cross(nk_h5w *w, const nk_tour *t)
{
    size_t p = t->nplayers;
    nk_wdl *cross = nk_calloc(p * p, sizeof *cross);
    int32_t *cw = nk_calloc(p * p, sizeof *cw), *cd = nk_calloc(p * p, sizeof *cd),
            *cl = nk_calloc(p * p, sizeof *cl);
    double *score = nk_calloc(p * p, sizeof *score);
    if (!cross || !cw || !cd || !cl || !score)
        nk_h5w_fail(w, "out of memory", "", false);
    if (w->ok) {
        nk_tour_cross(t, cross);
        nk_ratings_score_matrix(cross, p, score);
        for (size_t k = 0; k < p * p; k++) {
            cw[k] = (int32_t)cross[k].w;
            cd[k] = (int32_t)cross[k].d;
            cl[k] = (int32_t)cross[k].l;
        }
    }
    hid_t g = nk_h5w_group(w, w->file, "/cross");
    hsize_t dc[2] = {p, p};
    if (g >= 0) {
        put_data_close(w, g, "wins", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dc, cw);
        put_data_close(w, g, "draws", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dc, cd);
        put_data_close(w, g, "losses", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dc, cl);
        put_data_close(w, g, "score", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dc, score);
        H5Gclose(g);
    }
    nk_free(cross);
    nk_free(cw);
    nk_free(cd);
    nk_free(cl);
    nk_free(score);
}

/* /ratings and how they were fitted. */
static void write_ratings(nk_h5w *w, const nk_tour *t)
{
    hid_t d = put_table(w, "/ratings", rating_type(), t->nplayers, t->ratings);
    if (d < 0)
        return;
    int32_t prior = t->prior;
    nk_h5w_text(w, d, "model", "model",
                "Bradley-Terry on the logistic Elo scale, draws as half a win, maximum "
                "likelihood");
    nk_h5w_text(w, d, "interval", "interval",
                "95%: 1.959964 se, se from the inverse observed information with the "
                "anchor fixed, corrected for draws (sandwich); se_pool: of the rating "
                "less the mean of all, from the same covariance");
    nk_h5w_attr(w, d, "prior", "prior", H5T_STD_I32LE, H5T_NATIVE_INT32, &prior);
    H5Dclose(d);
}

static void write_all(nk_h5w *w, const nk_tour *t)
{
    write_root_attrs(w, t);
    write_players(w, t);
    write_games(w, t);
    write_cross(w, t);
    if (t->has_ratings)
        write_ratings(w, t);
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
    nk_io_step("tournament create");
    nk_h5_why why;
    hid_t file = nk_h5_create(tmp, 0, &why);
    if (file < 0)
        return nk_fail(NK_EIO, err, errlen, "cannot create '%s'", tmp);
    nk_h5w w = nk_h5w_make(file, 0, "tournament");
    write_all(&w, t);
    nk_io_step("tournament flush");
    nk_h5w_ok(&w, "flush", w.ok ? H5Fflush(file, H5F_SCOPE_GLOBAL) : 0);
    if (H5Fclose(file) < 0)
        nk_h5w_fail(&w, "close", "", false);
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

bool nk_tour_is_file(const char *path)
{
    nk_h5_quiet();
    if (H5Fis_hdf5(path) <= 0)
        return false;
    nk_h5_why why;
    hid_t f = nk_h5_open(path, false, true, &why);
    if (f < 0)
        return false;
    char kind[32] = "";
    nk_h5_get_text_in(f, "kind", kind, sizeof kind);
    H5Fclose(f);
    return strcmp(kind, "tournament") == 0;
}

/* The root's attributes, checked; *total: meetings_total. */
static void read_root_attrs(nk_h5r *r, nk_tour *t, int64_t *total)
{
    hid_t root = r->file;
    char kind[32], format[32], unit[32] = "game";
    int32_t schema = 0, complete = 0;
    int64_t games = 0, openings = 0, ply = 0, done = 0, match_games = 0;
    nk_h5r_text_in(r, root, "kind", kind, sizeof kind);
    if (r->st == NK_OK && strcmp(kind, "tournament") != 0)
        nk_h5r_damaged(r, "not a tournament file (kind is not 'tournament')");
    nk_h5r_num(r, root, "schema_version", H5T_NATIVE_INT32, &schema);
    if (r->st == NK_OK && (schema < 1 || schema > NK_TOUR_SCHEMA_VERSION))
        nk_h5r_fail(r, NK_EFORMAT,
                    "tournament file '%s' has schema_version %d; this nickar reads 1 to %d",
                    r->path, schema, NK_TOUR_SCHEMA_VERSION);
    t->schema = schema;
    if (schema >= 2) {
        nk_h5r_text_in(r, root, "unit", unit, sizeof unit);
        nk_h5r_num(r, root, "match_games", H5T_NATIVE_INT64, &match_games);
    }
    nk_h5r_text_in(r, root, "created", t->created, sizeof t->created);
    nk_h5r_text_in(r, root, "variant", t->set.variant, sizeof t->set.variant);
    nk_h5r_text_in(r, root, "format", format, sizeof format);
    nk_h5r_num(r, root, "games", H5T_NATIVE_INT64, &games);
    nk_h5r_num(r, root, "openings", H5T_NATIVE_INT64, &openings);
    nk_h5r_num(r, root, "ply_limit", H5T_NATIVE_INT64, &ply);
    nk_h5r_num(r, root, "seed", H5T_NATIVE_UINT64, &t->set.seed);
    nk_h5r_text_in(r, root, "anchor", t->set.anchor, sizeof t->set.anchor);
    nk_h5r_num(r, root, "anchor_elo", H5T_NATIVE_DOUBLE, &t->set.anchor_elo);
    nk_h5r_num(r, root, "meetings_done", H5T_NATIVE_INT64, &done);
    nk_h5r_num(r, root, "meetings_total", H5T_NATIVE_INT64, total);
    nk_h5r_num(r, root, "complete", H5T_NATIVE_INT32, &complete);
    if (r->st != NK_OK)
        return;
    if (strcmp(format, "round-robin") == 0)
        t->set.format = NK_TOUR_ROUND_ROBIN;
    else if (strcmp(format, "gauntlet") == 0)
        t->set.format = NK_TOUR_GAUNTLET;
    else
        nk_h5r_damaged(r, "format is neither 'round-robin' nor 'gauntlet'");
    if (!nk_arena_unit_parse(unit, &t->set.unit))
        nk_h5r_damaged(r, "unit is neither 'game' nor 'match'");
    else if (t->set.unit == NK_UNIT_MATCH ? match_games < 1 || match_games > NK_MATCH_GAMES_MAX
                                          : match_games != 0)
        nk_h5r_damaged(r, "match_games out of range for the unit");
    t->set.match_games = (uint64_t)match_games;
    if (games < 2 || games % 2 != 0 || games > (1 << 30) || openings < 0 || ply < 1 || done < 0 ||
        *total < done)
        nk_h5r_damaged(r, "games, openings, ply_limit or meetings_done out of range");
    t->set.games = (uint64_t)games;
    t->set.openings = (uint64_t)openings;
    t->set.ply_limit = (uint64_t)ply;
    t->meetings_done = (size_t)done;
}

/* The sizes of the datasets, checked against the attributes and the file
 * (every row takes at least a byte of it). */
static void read_extents(nk_h5r *r, nk_tour *t, int64_t total)
{
    hsize_t p = nk_h5r_extent(r, "/players/name");
    if (r->st == NK_OK && (p < 2 || p > MAX_PLAYERS))
        nk_h5r_damaged(r, "/players/name: not 2 to 100000 players");
    if (r->st != NK_OK)
        return;
    t->nplayers = (size_t)p;
    t->npairings = t->set.format == NK_TOUR_GAUNTLET ? p - 1 : p * (p - 1) / 2;
    if ((int64_t)nk_tour_meetings_total(t) != total)
        nk_h5r_damaged(r, "meetings_total does not match the players and games");
    hsize_t ng = nk_h5r_extent(r, "/games");
    if (t->set.unit == NK_UNIT_MATCH) {
        t->nmatches = 2 * t->meetings_done;
        if (r->st == NK_OK && nk_h5r_extent(r, "/matches") != t->nmatches)
            nk_h5r_damaged(r, "/matches missing or not 2 * meetings_done rows");
        if (r->st == NK_OK && (ng == (hsize_t)-1 || ng > (hsize_t)t->nmatches * NK_MATCH_GAMES_MAX))
            nk_h5r_damaged(r, "/games missing or of more rows than the matches allow");
        t->ngames = (size_t)ng;
    } else {
        t->ngames = 2 * t->meetings_done;
        if (r->st == NK_OK && ng != t->ngames)
            nk_h5r_damaged(r, "/games missing or not 2 * meetings_done rows");
    }
    hsize_t nm = nk_h5r_extent(r, "/moves");
    if (r->st == NK_OK && nm == (hsize_t)-1)
        nk_h5r_damaged(r, "/moves missing");
    if (r->st == NK_OK &&
        (t->ngames > r->file_size || t->nmatches > r->file_size || nm > r->file_size))
        nk_h5r_damaged(r, "/games or /moves claims more rows than the file holds");
    t->nmoves = (size_t)nm;
}

/* /players into t->players (the arrays of t allocated). */
static void read_players(nk_h5r *r, nk_tour *t)
{
    size_t p = t->nplayers;
    char *names = nk_calloc(p, NK_PLAYER_NAME), *specs = nk_calloc(p, NK_SPEC_TEXT);
    double *wts = nk_calloc(p * NK_MAX_FEATURES, sizeof *wts);
    int32_t *nw = nk_calloc(p, sizeof *nw);
    hid_t tn = nk_h5_utf8_type(NK_PLAYER_NAME), ts = nk_h5_utf8_type(NK_SPEC_TEXT);
    hsize_t d1[2] = {p, 0}, d2[2] = {p, NK_MAX_FEATURES};
    if (!names || !specs || !wts || !nw)
        nk_h5r_fail(r, NK_ENOMEM, "out of memory reading '%s'", r->path);
    nk_h5r_whole(r, r->file, "/players/name", tn, 1, d1, names);
    nk_h5r_whole(r, r->file, "/players/spec", ts, 1, d1, specs);
    nk_h5r_whole(r, r->file, "/players/weights", H5T_NATIVE_DOUBLE, 2, d2, wts);
    nk_h5r_whole(r, r->file, "/players/n_weights", H5T_NATIVE_INT32, 1, d1, nw);
    H5Tclose(tn);
    H5Tclose(ts);
    for (size_t i = 0; r->st == NK_OK && i < p; i++) {
        memcpy(t->players[i].name, names + i * NK_PLAYER_NAME, NK_PLAYER_NAME);
        t->players[i].name[NK_PLAYER_NAME - 1] = '\0';
        memcpy(t->players[i].spec, specs + i * NK_SPEC_TEXT, NK_SPEC_TEXT);
        t->players[i].spec[NK_SPEC_TEXT - 1] = '\0';
        memcpy(t->players[i].weights, wts + i * NK_MAX_FEATURES, sizeof t->players[i].weights);
        t->players[i].n_weights = nw[i];
        if (nw[i] < 0 || nw[i] > NK_MAX_FEATURES)
            nk_h5r_damaged(r, "/players/n_weights out of range");
    }
    nk_free(names);
    nk_free(specs);
    nk_free(wts);
    nk_free(nw);
}

/* /pairings: the schedule of the format, (a, b) for a < b in order (the
 * gauntlet's a = 0), so that every pairing names two players. */
static void check_pairings(nk_h5r *r, const nk_tour *t)
{
    size_t q = 0;
    for (size_t a = 0; a < t->nplayers && r->st == NK_OK; a++)
        for (size_t b = a + 1; b < t->nplayers && r->st == NK_OK; b++) {
            if (t->set.format == NK_TOUR_GAUNTLET && a != 0)
                break;
            if (q >= t->npairings || t->pairings[2 * q] != (int32_t)a ||
                t->pairings[2 * q + 1] != (int32_t)b)
                nk_h5r_damaged(r, "/pairings is not the schedule of the players");
            q++;
        }
    if (r->st == NK_OK && q != t->npairings)
        nk_h5r_damaged(r, "/pairings is not the schedule of the players");
}

/* Whether game g's fields are in range: its players, pairing and
 * result, its start (schema 2), and its moves, which must follow the
 * previous game's (*at: where they start) and be pits or the pass. */
static bool game_fits(const nk_tour *t, const nk_tour_game *g, int64_t *at)
{
    size_t p = t->nplayers;
    if (g->pairing < 0 || (size_t)g->pairing >= t->npairings || g->south < 0 || g->north < 0 ||
        (size_t)g->south >= p || (size_t)g->north >= p || g->plies < 0 || g->moves_at != *at ||
        (size_t)g->moves_at + (size_t)g->plies > t->nmoves || g->winner < 0 || g->winner > 2 ||
        g->reason < 0 || g->reason >= NK_END_COUNT || g->opening < 0 || g->opening > g->plies ||
        g->south_total < 0 || g->north_total < 0)
        return false;
    const int32_t *q = &t->pairings[2 * g->pairing]; /* the pairing's players, a < b */
    if (!((g->south == q[0] && g->north == q[1]) || (g->south == q[1] && g->north == q[0])))
        return false;
    if (t->schema >= 2 && (g->first < 0 || g->first > 1 || g->north_pits >= 1u << NK_PITS))
        return false;
    for (int32_t k = 0; k < g->plies; k++)
        if (t->moves[g->moves_at + k] > NK_PASS)
            return false;
    *at += g->plies;
    return true;
}

/* Every game within the players, pairings and moves, the moves of one
 * after another's and all of them used; schema 1's games given their
 * start. */
static void check_games(nk_h5r *r, nk_tour *t)
{
    int64_t at = 0;
    for (size_t k = 0; r->st == NK_OK && k < t->ngames; k++) {
        if (!game_fits(t, &t->games[k], &at))
            nk_h5r_damaged(r, "row %zu of /games is out of range or points outside the file", k);
        if (t->schema < 2) { /* schema 1: unit-game games from the start position */
            t->games[k].first = NK_SOUTH;
            t->games[k].north_pits = NK_DEFAULT_NORTH;
        }
    }
    if (r->st == NK_OK && (size_t)at != t->nmoves)
        nk_h5r_damaged(r, "/moves holds moves of no game");
}

/* The matches: each its own run of the games, in order, between its two
 * players. */
static void check_matches(nk_h5r *r, nk_tour *t)
{
    int64_t at = 0;
    for (size_t k = 0; r->st == NK_OK && k < t->nmatches; k++) {
        const nk_tour_match *m = &t->matches[k];
        bool good = m->pairing >= 0 && (size_t)m->pairing < t->npairings && m->first_game == at &&
                    m->games >= 1 && (uint64_t)m->games <= t->set.match_games &&
                    (size_t)at + (size_t)m->games <= t->ngames && m->winner >= 0 &&
                    m->winner <= 2 && m->south_wins >= 0 && m->north_wins >= 0 && m->draws >= 0 &&
                    m->south_wins + m->north_wins + m->draws == m->games;
        for (int32_t g = 0; good && g < m->games; g++) {
            const nk_tour_game *x = &t->games[at + g];
            good = x->south == m->south && x->north == m->north && x->pairing == m->pairing;
        }
        if (!good)
            nk_h5r_damaged(r, "a row of /matches does not match its games");
        at += m->games;
    }
    if (r->st == NK_OK && t->set.unit == NK_UNIT_MATCH && (size_t)at != t->ngames)
        nk_h5r_damaged(r, "/games holds games of no match");
}

/* The ranks of /ratings are a permutation of 1..P (the printers order the
 * players by them). */
static void check_ranks(nk_h5r *r, const nk_tour *t)
{
    size_t p = t->nplayers;
    if (r->st != NK_OK || !t->has_ratings)
        return;
    unsigned char *seen = nk_calloc(p, 1);
    if (seen == NULL) {
        nk_h5r_nomem(r);
        return;
    }
    for (size_t i = 0; i < p && r->st == NK_OK; i++) {
        int32_t k = t->ratings[i].rank;
        if (k < 1 || (size_t)k > p || seen[k - 1])
            nk_h5r_damaged(r, "the ranks of /ratings are not 1 to %zu, each once", p);
        else
            seen[k - 1] = 1;
    }
    nk_free(seen);
}

/* /cross as written: the cross table of the games read and its score
 * matrix, so that damage there is refused, not kept by a --resume. */
static void check_cross(nk_h5r *r, const nk_tour *t)
{
    static const char *const names[4] = {"/cross/wins", "/cross/draws", "/cross/losses",
                                         "/cross/score"};
    size_t p = t->nplayers;
    if (r->st != NK_OK)
        return;
    if (p > r->file_size / 8 / p) /* the file holds the p * p scores of 8 bytes */
        nk_h5r_damaged(r, "/cross: more players than the file holds");
    nk_wdl *cross = nk_calloc(p * p, sizeof *cross);
    double *want = nk_calloc(p * p, sizeof *want), *got = nk_calloc(p * p, sizeof *got);
    int32_t *n = nk_calloc(p * p, sizeof *n);
    hsize_t dims[2] = {p, p};
    if (r->st == NK_OK && (cross == NULL || want == NULL || got == NULL || n == NULL))
        nk_h5r_nomem(r);
    if (r->st == NK_OK) {
        nk_tour_cross(t, cross);
        nk_ratings_score_matrix(cross, p, want);
    }
    for (int c = 0; c < 3 && r->st == NK_OK; c++) {
        nk_h5r_whole(r, r->file, names[c], H5T_NATIVE_INT32, 2, dims, n);
        for (size_t k = 0; k < p * p && r->st == NK_OK; k++)
            if ((uint32_t)n[k] != (c == 0 ? cross[k].w : c == 1 ? cross[k].d : cross[k].l))
                nk_h5r_damaged(r, "%s is not the cross table of the games", names[c]);
    }
    nk_h5r_whole(r, r->file, names[3], H5T_NATIVE_DOUBLE, 2, dims, got);
    if (r->st == NK_OK && memcmp(got, want, p * p * sizeof *got) != 0)
        nk_h5r_damaged(r, "%s is not the score matrix of the games", names[3]);
    nk_free(cross);
    nk_free(want);
    nk_free(got);
    nk_free(n);
}

/* /ratings as written, or schema 1's fitted again (the same fit). */
static void read_ratings(nk_h5r *r, nk_tour *t)
{
    hid_t root = r->file;
    hsize_t d1[1] = {t->nplayers};
    if (r->st == NK_OK && t->schema < 2) {
        /* schema 1's rating rows are fitted again (the same fit) */
        r->st = nk_tour_rate(t, r->err, r->len);
    } else if (r->st == NK_OK && H5Lexists(root, "/ratings", H5P_DEFAULT) > 0) {
        hid_t rt = rating_type();
        t->has_ratings = nk_h5r_whole(r, r->file, "/ratings", rt, 1, d1, t->ratings);
        H5Tclose(rt);
        hid_t d = H5Dopen2(root, "/ratings", H5P_DEFAULT);
        int32_t prior = 0;
        if (d >= 0) {
            nk_h5r_num(r, d, "prior", H5T_NATIVE_INT32, &prior);
            H5Dclose(d);
        }
        t->prior = prior != 0;
    }
    check_ranks(r, t);
}

static void read_all(nk_h5r *r, nk_tour *t)
{
    int64_t total = 0;
    read_root_attrs(r, t, &total);
    if (r->st == NK_OK)
        read_extents(r, t, total);
    if (r->st != NK_OK)
        return;
    t->players = nk_calloc(t->nplayers, sizeof *t->players);
    t->pairings = nk_calloc(2 * t->npairings + 1, sizeof *t->pairings);
    t->ratings = nk_calloc(t->nplayers, sizeof *t->ratings);
    t->games = nk_calloc(t->ngames + 1, sizeof *t->games);
    t->games_cap = t->ngames + 1;
    t->moves = nk_malloc(t->nmoves + 1);
    t->moves_cap = t->nmoves + 1;
    t->matches = nk_calloc(t->nmatches + 1, sizeof *t->matches);
    t->matches_cap = t->nmatches + 1;
    if (!t->players || !t->pairings || !t->ratings || !t->games || !t->moves || !t->matches) {
        nk_h5r_fail(r, NK_ENOMEM, "out of memory reading '%s'", r->path);
        return;
    }
    hid_t gt = game_type(t->schema);
    hsize_t dq[2] = {t->npairings, 2}, dg[1] = {t->ngames}, dm[1] = {t->nmoves};
    read_players(r, t);
    nk_h5r_whole(r, r->file, "/pairings", H5T_NATIVE_INT32, 2, dq, t->pairings);
    nk_h5r_whole(r, r->file, "/games", gt, 1, dg, t->games);
    nk_h5r_whole(r, r->file, "/moves", H5T_NATIVE_UINT8, 1, dm, t->moves);
    H5Tclose(gt);
    if (t->set.unit == NK_UNIT_MATCH) {
        hid_t mt = match_type();
        hsize_t dk[1] = {t->nmatches};
        nk_h5r_whole(r, r->file, "/matches", mt, 1, dk, t->matches);
        H5Tclose(mt);
    }
    check_pairings(r, t);
    check_games(r, t);
    check_matches(r, t);
    read_ratings(r, t);
    check_cross(r, t);
}

nk_status nk_tour_read(nk_tour *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return nk_fail(NK_ENOFILE, err, errlen, "cannot open tournament file '%s': %s", path,
                       errno ? strerror(errno) : "not a regular file");
    nk_h5_why why;
    hid_t f = nk_h5_open(path, false, true, &why);
    if (f < 0 && why.oom)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory opening '%s'", path);
    if (f < 0)
        return nk_fail(NK_EFORMAT, err, errlen, "'%s' is not an HDF5 file that opens", path);
    nk_h5r r = {
        .file = f, .path = path, .kind = "tournament file", .file_size = (uint64_t)sb.st_size};
    nk_h5r_begin(&r, err, errlen);
    read_all(&r, t);
    H5Fclose(f);
    if (r.st != NK_OK)
        nk_tour_free(t);
    return r.st;
}
