/*
 * test_io_runfile.c -- the HDF5 run file (src/io/runfile.h).
 *
 * Every test works in a fresh directory made with mkdtemp.  What is
 * checked:
 *
 * - round trip: create, append three generations (random bit patterns,
 *   NaNs and infinities included), close, open, and read back every
 *   attribute, feature name, population array, stats, game and benchmark
 *   row and checkpoint dataset bit for bit;
 * - runs without step sizes or game records, and the refusal of data that
 *   does not fit the run, with nothing written;
 * - refusing to overwrite without force, unwritable paths;
 * - opening what is not a run file: missing, a directory, a text file, an
 *   empty file, a foreign HDF5 file, another schema_version, a missing
 *   dataset, a mistyped attribute, truncated copies, a clobbered signature:
 *   each a one-line message, never a crash; a file locked by a writer in
 *   another process (refused to a second writer, readable by a reader); fixed-length strings where nickar writes
 *   variable-length ones;
 * - a write failing at every single write of an append (the test hook of
 *   nk_run_fail_at): the file then opens with the generations before, or
 *   with the new one when the failure came after the commit, and after
 *   nk_run_truncate its datasets hold exactly the complete rows;
 * - crash states made by hand (datasets longer than the checkpoint, a
 *   stale or a lone /checkpoint.new);
 * - a real write failure: a child process appends under RLIMIT_FSIZE
 *   until the file system refuses; the error names the file and the
 *   generation and the file keeps every complete generation;
 * - h5py reads the file as documented (tests/check_runfile.py);
 * - no test leaves an HDF5 file or object open.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>

#include "io/runfile.h"
#include "rules/rules.h"

static char dir[256];
static char err[512];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s/nk_runfile_XXXXXX",
             getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    if (d != NULL) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (unlink(path) != 0)
                rmdir(path);
        }
        closedir(d);
    }
    rmdir(dir);
    return 0;
}

/* No test leaves a file, group, dataset or attribute open. */
static int count_ids(void **state)
{
    (void)state;
    return H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL) == 0 ? 0 : -1;
}

static int check_ids(void **state)
{
    (void)state;
    ssize_t n = H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL);
    if (n != 0)
        print_error("%zd HDF5 objects left open\n", n);
    return n == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
    static char path[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    return path[k];
}

/* The message is one line and starts with the formatted prefix. */
static void expect_msg(const char *prefix_fmt, ...)
{
    char prefix[600];
    va_list ap;
    va_start(ap, prefix_fmt);
    vsnprintf(prefix, sizeof prefix, prefix_fmt, ap);
    va_end(ap);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("message '%s' does not start with '%s'", err, prefix);
    assert_null(strchr(err, '\n'));
}

static void expect_in_msg(const char *part)
{
    if (strstr(err, part) == NULL)
        fail_msg("message '%s' does not contain '%s'", err, part);
}

/* ===================================================================
 * Generation data
 * =================================================================== */

enum { MAX_N = 24, MAX_D = 40, MAX_GAMES = 6, MAX_BENCH = 2 };

typedef struct gen_buf {
    double genome[MAX_N * MAX_D], sigma[MAX_N * MAX_D], fitness[MAX_N];
    int32_t wins[MAX_N], draws[MAX_N], losses[MAX_N];
    int64_t ids[MAX_N], parents[MAX_N * 2];
    nk_run_stats stats;
    nk_run_game games[MAX_GAMES];
    nk_run_bench bench[MAX_BENCH];
    uint8_t rng[40];
    double cma[7], extra[3];
    nk_run_blob blobs[3];
    size_t n_games, n_bench, n_blobs;
    bool has_sigma;
} gen_buf;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

static double bits(uint64_t x)
{
    double v;
    memcpy(&v, &x, sizeof v);
    return v;
}

/* Generation g of a run with seed s: random bit patterns, with the
 * special values placed where they are sure to be. */
static void fill(gen_buf *b, uint64_t s, size_t g, size_t n, size_t d,
                 bool sigma, bool games)
{
    memset(b, 0, sizeof *b);
    uint64_t k = mix(s * 1000 + g);
    for (size_t i = 0; i < n * d; i++) {
        b->genome[i] = bits(mix(k++));
        b->sigma[i] = bits(mix(k++));
    }
    b->genome[0] = NAN;
    b->genome[1] = -0.0;
    b->genome[2 % (n * d)] = INFINITY;
    b->genome[n * d - 1] = 4.9e-324;
    for (size_t i = 0; i < n; i++) {
        b->fitness[i] = bits(mix(k++));
        b->wins[i] = (int32_t)mix(k++);
        b->draws[i] = (int32_t)mix(k++);
        b->losses[i] = (int32_t)mix(k++);
        b->ids[i] = (int64_t)(g * n + i);
        b->parents[2 * i] = g == 0 ? -1 : (int64_t)mix(k++);
        b->parents[2 * i + 1] = g == 0 ? -1 : INT64_MIN + (int64_t)i;
    }
    b->has_sigma = sigma;
    b->stats = (nk_run_stats){(int32_t)g, (int64_t)mix(k++),
                              (int64_t)mix(k++), bits(mix(k++)),
                              bits(mix(k++)), bits(mix(k++)), bits(mix(k++)),
                              -INFINITY, bits(mix(k++)), 0.125 * (double)g,
                              0.25 * (double)g, 0.5 * (double)g,
                              (int64_t)(g % 2 ? 0 : 100 + g), 0.0625 * (double)g,
                              bits(mix(k++)), 0 /* the writer fills it */,
                              0.5 + 0.001 * (double)g, 0.75, NAN, 1e300 * (double)g};
    b->n_games = games ? 1 + g % 3 + (g == 1 ? 3 : 0) : 0;
    for (size_t i = 0; i < b->n_games; i++) {
        uint64_t r = mix(k++);
        b->games[i] = (nk_run_game){(int32_t)g, (int64_t)r, -(int64_t)i,
                                    (int8_t)(r % 3), (int16_t)r,
                                    (int16_t)(r >> 16), (int16_t)(r >> 32),
                                    (int8_t)(r % NK_END_COUNT), mix(r)};
    }
    b->n_bench = g % 2 == 0 ? 2 : 0;
    for (size_t i = 0; i < b->n_bench; i++) {
        b->bench[i].generation = (int32_t)g;
        if (i == 0)
            snprintf(b->bench[i].opponent, sizeof b->bench[i].opponent,
                     "random");
        else
            snprintf(b->bench[i].opponent, sizeof b->bench[i].opponent,
                     "alphabeta:depth=%zu,weights=hand", g);
        b->bench[i].wins = (int32_t)(g + i);
        b->bench[i].draws = -1;
        b->bench[i].losses = INT32_MAX;
        b->bench[i].score = i == 0 ? 1.0 : 1.0 / 3.0;
    }
    if (g == 0) /* the longest opponent there can be */
        memset(b->bench[1].opponent, 'x', NK_RUN_OPPONENT_LEN - 1);
    for (size_t i = 0; i < sizeof b->rng; i++)
        b->rng[i] = (uint8_t)mix(k++);
    for (size_t i = 0; i < 7; i++)
        b->cma[i] = bits(mix(k++));
    b->blobs[0] = (nk_run_blob){"rng_state", NK_RUN_U8, b->rng, sizeof b->rng};
    b->blobs[1] = (nk_run_blob){"cma", NK_RUN_F64, b->cma, 1 + g % 7};
    b->blobs[2] = (nk_run_blob){"empty.0", NK_RUN_F64, NULL, 0};
    b->n_blobs = g == 0 ? 3 : 2;
}

static nk_run_gen view(const gen_buf *b)
{
    return (nk_run_gen){b->genome, b->has_sigma ? b->sigma : NULL,
                        b->fitness, b->wins, b->draws, b->losses, b->ids,
                        b->parents, b->stats, b->games, b->n_games, b->bench,
                        b->n_bench, b->blobs, b->n_blobs};
}

static const char *const feature_names[MAX_D] = {
    "material", "mobility", "stores", "empty_pits", "a feature with a long "
    "name, commas and ünïcödé", "x"};

static nk_run_meta make_meta(size_t n, size_t d, bool sigma, bool games)
{
    static char names[MAX_D][32];
    static const char *ptrs[MAX_D];
    for (size_t i = 0; i < MAX_D; i++) {
        if (i < 6) {
            ptrs[i] = feature_names[i];
        } else {
            snprintf(names[i], sizeof names[i], "f%zu", i);
            ptrs[i] = names[i];
        }
    }
    return (nk_run_meta){
        .nickar_version = NULL,
        .created = "2024-05-01T12:00:00Z",
        .variant = "warri",
        .master_seed = UINT64_MAX - 1,
        .config = "[run]\nvariant = warri ; the game\n[evolve]\nstrategy = "
                  "cma-es\n",
        .threads = 8,
        .mpi_ranks = 3,
        .feature_set = "basic",
        .strategy = "cma-es",
        .n = n,
        .d = d,
        .features = ptrs,
        .has_sigma = sigma,
        .record_games = games,
    };
}

static nk_run *create_or_fail(const char *path, const nk_run_meta *meta)
{
    nk_run *run = NULL;
    nk_status st = nk_run_create(&run, path, meta, true, err, sizeof err);
    if (st != NK_OK)
        fail_msg("create: %s", err);
    return run;
}

static nk_run *open_or_fail(const char *path, bool writable)
{
    nk_run *run = NULL;
    if (nk_run_open(&run, path, writable, err, sizeof err) != NK_OK)
        fail_msg("open: %s", err);
    return run;
}

static void append_or_fail(nk_run *run, const gen_buf *b)
{
    nk_run_gen gen = view(b);
    if (nk_run_append_generation(run, &gen, err, sizeof err) != NK_OK)
        fail_msg("append: %s", err);
}

/* Rows compared member by member, bit for bit (padding aside). */
#define SAME(a, b, f) (memcmp(&(a)->f, &(b)->f, sizeof (a)->f) == 0)

static void expect_stats(const nk_run_stats *a, const nk_run_stats *b)
{
    assert_true(SAME(a, b, generation) && SAME(a, b, games) &&
                SAME(a, b, evaluations) && SAME(a, b, best) &&
                SAME(a, b, mean) && SAME(a, b, median) && SAME(a, b, std) &&
                SAME(a, b, worst) && SAME(a, b, diversity) &&
                SAME(a, b, wall_seconds) && SAME(a, b, play_seconds) &&
                SAME(a, b, outside_seconds) && SAME(a, b, tb_positions) &&
                SAME(a, b, tb_optimal) && SAME(a, b, tb_seeds_lost) &&
                SAME(a, b, tb_optimal_lo) && SAME(a, b, tb_optimal_hi) &&
                SAME(a, b, tb_seeds_lost_lo) && SAME(a, b, tb_seeds_lost_hi));
}

static void expect_game(const nk_run_game *a, const nk_run_game *b)
{
    assert_true(SAME(a, b, generation) && SAME(a, b, south_id) &&
                SAME(a, b, north_id) && SAME(a, b, winner) &&
                SAME(a, b, south_seeds) && SAME(a, b, north_seeds) &&
                SAME(a, b, plies) && SAME(a, b, reason) && SAME(a, b, seed));
}

static void expect_bench(const nk_run_bench *a, const nk_run_bench *b)
{
    assert_string_equal(a->opponent, b->opponent);
    assert_true(SAME(a, b, generation) && SAME(a, b, wins) &&
                SAME(a, b, draws) && SAME(a, b, losses) && SAME(a, b, score));
}

/* Generations [0, g) of run (seed s) read back bit for bit. */
static void expect_gens(nk_run *run, uint64_t s, size_t g)
{
    const nk_run_meta *m = nk_run_get_meta(run);
    size_t n = m->n, d = m->d;
    static gen_buf want, got;
    size_t games = 0, bench = 0;
    assert_int_equal(nk_run_generations(run), g);
    for (size_t k = 0; k < g; k++) {
        fill(&want, s, k, n, d, m->has_sigma, m->record_games);
        if (!m->tb_intervals) /* a file without them reads them as 0 */
            want.stats.tb_optimal_lo = want.stats.tb_optimal_hi =
                want.stats.tb_seeds_lost_lo = want.stats.tb_seeds_lost_hi = 0;
        memset(&got, 0xa5, sizeof got);
        nk_run_pop pop = {got.genome, m->has_sigma ? got.sigma : NULL,
                          got.fitness, got.wins, got.draws, got.losses,
                          got.ids, got.parents};
        assert_int_equal(nk_run_read_population(run, k, &pop, err,
                                                sizeof err), NK_OK);
        assert_memory_equal(got.genome, want.genome, n * d * sizeof(double));
        if (m->has_sigma && !m->compact)
            assert_memory_equal(got.sigma, want.sigma,
                                n * d * sizeof(double));
        for (size_t i = 0; m->has_sigma && m->compact && i < n * d; i++) {
            /* float32: rounded, infinite beyond FLT_MAX, NaN kept */
            double v = want.sigma[i];
            double r = v > FLT_MAX ? INFINITY : v < -FLT_MAX ? -INFINITY : (double)(float)v;
            if (isnan(v))
                assert_true(isnan(got.sigma[i]));
            else
                assert_memory_equal(&got.sigma[i], &r, sizeof r);
        }
        assert_memory_equal(got.fitness, want.fitness, n * sizeof(double));
        assert_memory_equal(got.wins, want.wins, n * sizeof(int32_t));
        assert_memory_equal(got.draws, want.draws, n * sizeof(int32_t));
        assert_memory_equal(got.losses, want.losses, n * sizeof(int32_t));
        assert_memory_equal(got.ids, want.ids, n * sizeof(int64_t));
        assert_memory_equal(got.parents, want.parents, 2 * n * sizeof(int64_t));

        nk_run_stats row;
        memset(&row, 0, sizeof row);
        assert_int_equal(nk_run_read_stats(run, k, 1, &row, err, sizeof err),
                         NK_OK);
        expect_stats(&row, &want.stats);

        for (size_t i = 0; i < want.n_games; i++) {
            nk_run_game gr;
            memset(&gr, 0, sizeof gr);
            assert_int_equal(nk_run_read_games(run, games + i, 1, &gr, err,
                                               sizeof err), NK_OK);
            expect_game(&gr, &want.games[i]);
        }
        games += want.n_games;
        if (want.n_bench > 0) {
            nk_run_bench br[MAX_BENCH];
            memset(br, 0, sizeof br);
            assert_int_equal(nk_run_read_benchmark(run, bench, want.n_bench,
                                                   br, err, sizeof err),
                             NK_OK);
            for (size_t i = 0; i < want.n_bench; i++)
                expect_bench(&br[i], &want.bench[i]);
        }
        bench += want.n_bench;
    }
    assert_int_equal(nk_run_games(run), games);
    assert_int_equal(nk_run_benchmarks(run), bench);
    if (g == 0) {
        assert_int_equal(nk_run_checkpoints(run), 0);
        return;
    }
    /* the checkpoint is the last generation's, and only its */
    fill(&want, s, g - 1, n, d, m->has_sigma, m->record_games);
    assert_int_equal(nk_run_checkpoints(run), want.n_blobs);
    assert_string_equal(nk_run_checkpoint_name(run, 0), "cma");
    if (want.n_blobs == 3)
        assert_string_equal(nk_run_checkpoint_name(run, 1), "empty.0");
    assert_string_equal(nk_run_checkpoint_name(run, want.n_blobs - 1),
                        "rng_state");
    assert_null(nk_run_checkpoint_name(run, want.n_blobs));
    for (size_t i = 0; i < want.n_blobs; i++) {
        const nk_run_blob *b = &want.blobs[i];
        nk_run_kind kind;
        size_t count;
        assert_int_equal(nk_run_checkpoint_info(run, b->name, &kind, &count,
                                                err, sizeof err), NK_OK);
        assert_int_equal(kind, b->kind);
        assert_int_equal(count, b->count);
        uint8_t buf[64 * 8];
        assert_int_equal(nk_run_read_checkpoint(run, b->name, kind, buf,
                                                count, err, sizeof err),
                         NK_OK);
        if (count > 0)
            assert_memory_equal(buf, b->data,
                                count * (kind == NK_RUN_F64 ? 8 : 1));
    }
}

/* ===================================================================
 * Raw HDF5 views of a closed file
 * =================================================================== */

static long long raw_rows(const char *path, const char *ds_path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    long long rows = -1;
    if (H5Lexists(f, ds_path, H5P_DEFAULT) > 0) {
        hid_t ds = H5Dopen2(f, ds_path, H5P_DEFAULT);
        hid_t space = H5Dget_space(ds);
        hsize_t dims[3];
        H5Sget_simple_extent_dims(space, dims, NULL);
        rows = (long long)dims[0];
        H5Sclose(space);
        H5Dclose(ds);
    }
    H5Fclose(f);
    return rows;
}

static bool raw_exists(const char *path, const char *obj)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    bool e = H5Lexists(f, obj, H5P_DEFAULT) > 0;
    H5Fclose(f);
    return e;
}

/* Every dataset of a closed run file holds exactly the complete rows. */
static void expect_exact(const char *path, long long g, long long games,
                         long long bench, bool sigma)
{
    static const char *const pop[] = {
        "/population/genome", "/population/fitness", "/population/wins",
        "/population/draws", "/population/losses", "/population/id",
        "/population/parents", "/stats"};
    for (size_t i = 0; i < sizeof pop / sizeof pop[0]; i++)
        assert_int_equal(raw_rows(path, pop[i]), g);
    assert_int_equal(raw_rows(path, "/population/sigma"), sigma ? g : -1);
    assert_int_equal(raw_rows(path, "/games"), games);
    assert_int_equal(raw_rows(path, "/benchmark"), bench);
    assert_true(raw_exists(path, "/checkpoint"));
    assert_false(raw_exists(path, "/checkpoint.new"));
}

/* Runs one HDF5 modification on a closed file. */
typedef void (*raw_edit)(hid_t file);

static void edit(const char *path, raw_edit fn)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    fn(f);
    assert_true(H5Fclose(f) >= 0);
}

static void copy_prefix(const char *from, const char *to, long bytes)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    int c;
    for (long i = 0; i < bytes && (c = getc(in)) != EOF; i++)
        putc(c, out);
    fclose(in);
    fclose(out);
}

static long file_size(const char *path)
{
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    return (long)sb.st_size;
}

/* ===================================================================
 * Tests
 * =================================================================== */

static void test_roundtrip(void **state)
{
    (void)state;
    const char *path = in_dir("round.h5");
    nk_run_meta meta = make_meta(5, 6, true, true);
    nk_run *run = create_or_fail(path, &meta);
    assert_int_equal(nk_run_generations(run), 0);
    assert_string_equal(nk_run_path(run), path);
    expect_gens(run, 1, 0);
    gen_buf *b = malloc(sizeof *b);
    for (size_t g = 0; g < 3; g++) {
        fill(b, 1, g, 5, 6, true, true);
        append_or_fail(run, b);
    }
    expect_gens(run, 1, 3); /* the writer reads back too */
    nk_run_close(run);
    nk_run_close(NULL);

    run = open_or_fail(path, false);
    const nk_run_meta *m = nk_run_get_meta(run);
    assert_string_equal(m->nickar_version, NICKAR_VERSION);
    assert_string_equal(m->created, "2024-05-01T12:00:00Z");
    assert_string_equal(m->variant, "warri");
    assert_string_equal(m->config, meta.config);
    assert_string_equal(m->feature_set, "basic");
    assert_string_equal(m->strategy, "cma-es");
    assert_true(m->master_seed == UINT64_MAX - 1);
    assert_int_equal(m->threads, 8);
    assert_int_equal(m->mpi_ranks, 3);
    assert_int_equal(m->n, 5);
    assert_int_equal(m->d, 6);
    assert_true(m->has_sigma);
    assert_true(m->record_games);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(m->features[i], meta.features[i]);
    expect_gens(run, 1, 3);

    /* out of range, wrong checkpoint reads, writes on a read-only handle */
    double genome[30];
    nk_run_pop pop = {.genome = genome};
    assert_int_equal(nk_run_read_population(run, 3, &pop, err, sizeof err),
                     NK_ERANGE);
    expect_msg("'%s' has no generation 3 (3 complete)", path);
    nk_run_stats rows[4];
    assert_int_equal(nk_run_read_stats(run, 1, 3, rows, err, sizeof err),
                     NK_ERANGE);
    assert_int_equal(nk_run_read_stats(run, 0, 3, rows, err, sizeof err),
                     NK_OK);
    assert_int_equal(rows[2].generation, 2);
    nk_run_game games[8];
    assert_int_equal(nk_run_read_games(run, 0, nk_run_games(run) + 1, games,
                                       err, sizeof err), NK_ERANGE);
    assert_int_equal(nk_run_read_benchmark(run, 5, 0, NULL, err, sizeof err),
                     NK_ERANGE);
    uint8_t bytes[64];
    assert_int_equal(nk_run_read_checkpoint(run, "rng_state", NK_RUN_U8,
                                            bytes, 39, err, sizeof err),
                     NK_EFORMAT);
    expect_msg("'%s': checkpoint 'rng_state' holds 40 uint8 values, not 39 "
               "uint8", path);
    assert_int_equal(nk_run_read_checkpoint(run, "rng_state", NK_RUN_F64,
                                            bytes, 5, err, sizeof err),
                     NK_EFORMAT);
    assert_int_equal(nk_run_read_checkpoint(run, "empty.0", NK_RUN_F64,
                                            bytes, 0, err, sizeof err),
                     NK_EFORMAT); /* gone: not in the last checkpoint */
    expect_msg("'%s' has no checkpoint 'empty.0'", path);
    assert_int_equal(nk_run_read_checkpoint(run, "../stats", NK_RUN_U8, bytes,
                                            1, err, sizeof err), NK_EINVAL);
    nk_run_gen gen = view(b);
    assert_int_equal(nk_run_append_generation(run, &gen, err, sizeof err),
                     NK_EINVAL);
    expect_msg("'%s' is open read-only", path);
    assert_int_equal(nk_run_truncate(run, NULL, err, sizeof err), NK_EINVAL);
    nk_run_close(run);

    /* appending after a reopen continues the same file */
    run = open_or_fail(path, true);
    fill(b, 1, 3, 5, 6, true, true);
    append_or_fail(run, b);
    nk_run_close(run);
    run = open_or_fail(path, false);
    expect_gens(run, 1, 4);
    nk_run_close(run);
    free(b);
}

/* The grade's intervals (benchmark.tablebase): only a file made with
 * tb_intervals has the four columns; they read back, survive a reopen for
 * appending (whose check of the rows digests covers them) and say so in
 * the meta; a file without them has not one more column than before. */
static void test_tb_intervals(void **state)
{
    (void)state;
    gen_buf *b = malloc(sizeof *b);
    for (int with = 0; with < 2; with++) {
        const char *path = in_dir(with ? "tbi.h5" : "notbi.h5");
        nk_run_meta meta = make_meta(3, 2, false, false);
        meta.tb_intervals = with;
        nk_run *run = create_or_fail(path, &meta);
        for (size_t g = 0; g < 2; g++) {
            fill(b, 7, g, 3, 2, false, false);
            append_or_fail(run, b);
        }
        nk_run_close(run);
        run = open_or_fail(path, true);
        assert_true(nk_run_get_meta(run)->tb_intervals == (bool)with);
        fill(b, 7, 2, 3, 2, false, false);
        append_or_fail(run, b);
        nk_run_close(run);
        run = open_or_fail(path, false);
        expect_gens(run, 7, 3);
        nk_run_close(run);
        hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        hid_t ds = H5Dopen2(f, "/stats", H5P_DEFAULT);
        hid_t t = H5Dget_type(ds);
        assert_int_equal(H5Tget_nmembers(t), with ? 20 : 16);
        H5Tclose(t);
        H5Dclose(ds);
        H5Fclose(f);
    }
    free(b);
}

static void test_no_sigma_no_games(void **state)
{
    (void)state;
    const char *path = in_dir("plain.h5");
    nk_run_meta meta = make_meta(3, 2, false, false);
    nk_run *run = create_or_fail(path, &meta);
    gen_buf *b = malloc(sizeof *b);
    fill(b, 2, 0, 3, 2, true, false);
    nk_run_gen gen = view(b);
    assert_int_equal(nk_run_append_generation(run, &gen, err, sizeof err),
                     NK_EINVAL);
    expect_msg("'%s' has no step sizes (sigma)", path);
    fill(b, 2, 0, 3, 2, false, true);
    gen = view(b);
    assert_int_equal(nk_run_append_generation(run, &gen, err, sizeof err),
                     NK_EINVAL);
    expect_msg("'%s' does not record games", path);
    assert_int_equal(nk_run_generations(run), 0);
    for (size_t g = 0; g < 2; g++) {
        fill(b, 2, g, 3, 2, false, false);
        append_or_fail(run, b);
    }
    nk_run_close(run);
    expect_exact(path, 2, -1, 2, false);

    run = open_or_fail(path, false);
    assert_false(nk_run_get_meta(run)->has_sigma);
    assert_false(nk_run_get_meta(run)->record_games);
    expect_gens(run, 2, 2);
    double sigma[6];
    nk_run_pop pop = {.sigma = sigma};
    assert_int_equal(nk_run_read_population(run, 0, &pop, err, sizeof err),
                     NK_EINVAL);
    assert_int_equal(nk_run_read_games(run, 0, 0, NULL, err, sizeof err),
                     NK_OK);
    nk_run_game row;
    assert_int_equal(nk_run_read_games(run, 0, 1, &row, err, sizeof err),
                     NK_ERANGE);
    nk_run_close(run);

    /* a run that needs sigma refuses generations without */
    meta = make_meta(3, 2, true, true);
    run = create_or_fail(in_dir("sigma.h5"), &meta);
    fill(b, 2, 0, 3, 2, false, true);
    gen = view(b);
    assert_int_equal(nk_run_append_generation(run, &gen, err, sizeof err),
                     NK_EINVAL);
    expect_msg("'%s' needs step sizes (sigma)", in_dir("sigma.h5"));
    nk_run_close(run);
    free(b);
}

static void test_bad_data(void **state)
{
    (void)state;
    const char *path = in_dir("bad.h5");
    nk_run_meta meta = make_meta(4, 3, true, true);
    nk_run *run = create_or_fail(path, &meta);
    gen_buf *b = malloc(sizeof *b);
    nk_run_gen gen;
#define REFUSED(status, prefix)                                             \
    do {                                                                    \
        gen = view(b);                                                      \
        assert_int_equal(nk_run_append_generation(run, &gen, err,           \
                                                  sizeof err), status);     \
        expect_msg(prefix);                                                 \
        fill(b, 3, 0, 4, 3, true, true);                                    \
    } while (0)
    fill(b, 3, 0, 4, 3, true, true);
    b->stats.generation = 1;
    REFUSED(NK_EINVAL, "the stats row has generation 1, not 0");
    b->games[0].generation = 2;
    REFUSED(NK_EINVAL, "game 0 has generation 2, not 0");
    b->games[0].winner = 3;
    REFUSED(NK_EINVAL, "game 0 has winner 3");
    b->bench[1].score = 1.5;
    REFUSED(NK_ERANGE, "benchmark row 1: score 1.5 is not in [0, 1]");
    b->bench[0].score = NAN;
    REFUSED(NK_ERANGE, "benchmark row 0: score");
    memset(b->bench[0].opponent, 'y', sizeof b->bench[0].opponent);
    REFUSED(NK_EINVAL, "benchmark row 0: the opponent is longer than 63");
    b->blobs[1].name = "rng_state";
    REFUSED(NK_EINVAL, "checkpoint 'rng_state' given twice");
    b->blobs[1].name = "a/b";
    REFUSED(NK_EINVAL, "bad checkpoint name 'a/b'");
    b->blobs[1].name = ".hidden";
    REFUSED(NK_EINVAL, "bad checkpoint name '.hidden'");
    b->blobs[1].data = NULL;
    REFUSED(NK_EINVAL, "checkpoint 'cma' has no data");
    b->fitness[0] = 0; /* keep the fill, drop a pointer */
    gen = view(b);
    gen.ids = NULL;
    assert_int_equal(nk_run_append_generation(run, &gen, err, sizeof err),
                     NK_EINVAL);
#undef REFUSED
    assert_int_equal(nk_run_generations(run), 0);
    nk_run_close(run);
    expect_exact(path, 0, 0, 0, true);

    nk_run *none = NULL;
    meta.n = 0;
    assert_int_equal(nk_run_create(&none, in_dir("n0.h5"), &meta, true, err,
                                   sizeof err), NK_EINVAL);
    assert_null(none);
    meta.n = 4;
    meta.features = NULL;
    assert_int_equal(nk_run_create(&none, in_dir("n0.h5"), &meta, true, err,
                                   sizeof err), NK_EINVAL);
    assert_int_equal(access(in_dir("n0.h5"), F_OK), -1);
    free(b);
}

static void test_overwrite(void **state)
{
    (void)state;
    const char *path = in_dir("over.h5");
    nk_run_meta meta = make_meta(2, 2, false, true);
    nk_run *run = create_or_fail(path, &meta);
    gen_buf *b = malloc(sizeof *b);
    fill(b, 4, 0, 2, 2, false, true);
    append_or_fail(run, b);
    nk_run_close(run);

    nk_run *again = NULL;
    assert_int_equal(nk_run_create(&again, path, &meta, false, err,
                                   sizeof err), NK_EINVAL);
    assert_null(again);
    expect_msg("cannot create '%s': it already exists", path);
    run = open_or_fail(path, false);
    expect_gens(run, 4, 1);
    nk_run_close(run);

    /* a text file is not overwritten either */
    const char *text = in_dir("notes.txt");
    FILE *f = fopen(text, "w");
    fputs("keep me\n", f);
    fclose(f);
    assert_int_equal(nk_run_create(&again, text, &meta, false, err,
                                   sizeof err), NK_EINVAL);
    assert_int_equal(file_size(text), 8);

    run = create_or_fail(path, &meta); /* force */
    assert_int_equal(nk_run_generations(run), 0);
    nk_run_close(run);
    run = open_or_fail(path, false);
    expect_gens(run, 4, 0);
    nk_run_close(run);
    free(b);
}

static void test_unwritable(void **state)
{
    (void)state;
    nk_run_meta meta = make_meta(2, 2, false, false);
    nk_run *run = NULL;
    const char *path = in_dir("no/such/dir/x.h5");
    assert_int_equal(nk_run_create(&run, path, &meta, false, err,
                                   sizeof err), NK_EIO);
    assert_null(run);
    expect_msg("cannot create '%s': No such file or directory", path);
    assert_int_equal(nk_run_create(&run, dir, &meta, true, err, sizeof err),
                     NK_EIO);
    expect_msg("cannot create '%s': ", dir);
    expect_in_msg("directory");
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void expect_open(const char *path, nk_status st)
{
    nk_run *run = (nk_run *)&run; /* must be reset to NULL */
    err[0] = '\0';
    nk_status got = nk_run_open(&run, path, false, err, sizeof err);
    if (got != st)
        fail_msg("open '%s': status %d, message '%s'", path, (int)got, err);
    assert_null(run);
    assert_true(err[0] != '\0');
    assert_null(strchr(err, '\n'));
}

static void edit_schema(hid_t f)
{
    hid_t a = H5Aopen(f, "schema_version", H5P_DEFAULT);
    int v = 2;
    H5Awrite(a, H5T_NATIVE_INT, &v);
    H5Aclose(a);
}

static void edit_drop_stats(hid_t f)
{
    H5Ldelete(f, "/stats", H5P_DEFAULT);
}

static void edit_seed_text(hid_t f)
{
    H5Adelete(f, "master_seed");
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 4);
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, "master_seed", t, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, "1234");
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
}

static void edit_genome_shape(hid_t f)
{
    H5Ldelete(f, "/features", H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 8);
    hsize_t dims[1] = {1};
    hid_t s = H5Screate_simple(1, dims, NULL);
    hid_t ds = H5Dcreate2(f, "/features", t, s, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
    H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, "onlyone");
    H5Dclose(ds);
    H5Sclose(s);
    H5Tclose(t);
}

static void put_fixed_strings(hid_t f)
{
    /* /features and the variant as another writer might make them:
     * fixed-length, NUL-padded, no terminator when full */
    static const char names[6][12] = {"material", "mobility", "stores",
                                      "empty_pits", "exactly12ch", "x"};
    char buf[6][12];
    memcpy(buf, names, sizeof buf);
    memcpy(buf[4], "exactly12chr", 12);
    H5Ldelete(f, "/features", H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 12);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    hsize_t dims[1] = {6};
    hid_t s = H5Screate_simple(1, dims, NULL);
    hid_t ds = H5Dcreate2(f, "/features", t, s, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
    assert_true(H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Dclose(ds);
    H5Sclose(s);
    H5Adelete(f, "variant");
    H5Tset_size(t, 5);
    s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, "variant", t, s, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Awrite(a, t, "warri") >= 0);
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
}

static void test_fixed_strings(void **state)
{
    (void)state;
    const char *path = in_dir("fixed.h5");
    nk_run_meta meta = make_meta(2, 6, false, false);
    meta.variant = "oware";
    nk_run_close(create_or_fail(path, &meta));
    edit(path, put_fixed_strings);
    nk_run *run = open_or_fail(path, false);
    const nk_run_meta *m = nk_run_get_meta(run);
    assert_string_equal(m->variant, "warri");
    assert_int_equal(m->d, 6);
    assert_string_equal(m->features[0], "material");
    assert_string_equal(m->features[4], "exactly12chr");
    assert_string_equal(m->features[5], "x");
    nk_run_close(run);
}

static void test_locked(void **state)
{
    (void)state;
    /* main() made sure HDF5_USE_FILE_LOCKING is unset, so locks are on. */
    const char *path = in_dir("locked.h5");
    nk_run_meta meta = make_meta(2, 2, false, false);
    nk_run_close(create_or_fail(path, &meta));
    int ready[2], done[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(done), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* a writer in another process */
        nk_run *run = NULL;
        char c = nk_run_open(&run, path, true, err, sizeof err) == NK_OK
                     ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
            _exit(2);
        nk_run_close(run);
        _exit(0);
    }
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    /* A second writer is refused; a reader does not lock and may read the
     * run in progress. */
    nk_run *second = (nk_run *)&second;
    assert_int_equal(nk_run_open(&second, path, true, err, sizeof err), NK_EIO);
    assert_null(second);
    expect_msg("cannot open '%s': another process holds a lock on it", path);
    nk_run *reader = open_or_fail(path, false);
    assert_int_equal(nk_run_generations(reader), 0);
    nk_run_close(reader);
    assert_int_equal(write(done[1], "x", 1), 1);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(ready[0]);
    close(ready[1]);
    close(done[0]);
    close(done[1]);
    nk_run *run = open_or_fail(path, false); /* and once it is gone */
    nk_run_close(run);
}

static void test_open_errors(void **state)
{
    (void)state;
    const char *path = in_dir("missing.h5");
    expect_open(path, NK_ENOFILE);
    expect_msg("cannot open '%s': No such file or directory", path);
    expect_open(dir, NK_ENOFILE);
    expect_msg("cannot open '%s': not a regular file", dir);

    path = in_dir("text.h5");
    write_text(path, "[run]\nvariant = warri\n");
    expect_open(path, NK_EFORMAT);
    expect_msg("'%s' is not a nickar run file: not an HDF5 file", path);
    path = in_dir("empty.h5");
    write_text(path, "");
    expect_open(path, NK_EFORMAT);
    expect_msg("'%s' is not a nickar run file: not an HDF5 file", path);

    /* a foreign HDF5 file */
    path = in_dir("foreign.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims[1] = {4};
    hid_t s = H5Screate_simple(1, dims, NULL);
    hid_t ds = H5Dcreate2(f, "data", H5T_IEEE_F64LE, s, H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT);
    double v[4] = {1, 2, 3, 4};
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(ds);
    H5Sclose(s);
    H5Fclose(f);
    expect_open(path, NK_EFORMAT);
    expect_msg("'%s' is not a nickar run file: its HDF5 format (superblock "
               "v0) has no checksums; if it is a run file of nickar's old "
               "format, set NICKAR_READ_OLD_FORMAT=1 to read it", path);
    setenv("NICKAR_READ_OLD_FORMAT", "1", 1);
    expect_open(path, NK_EFORMAT);
    expect_msg("'%s' is not a nickar run file: no attribute schema_version",
               path);
    unsetenv("NICKAR_READ_OLD_FORMAT");

    /* a real run file, then damaged copies of it */
    const char *good = in_dir("good.h5");
    nk_run_meta meta = make_meta(6, 5, true, true);
    nk_run *run = create_or_fail(good, &meta);
    gen_buf *b = malloc(sizeof *b);
    for (size_t g = 0; g < 3; g++) {
        fill(b, 5, g, 6, 5, true, true);
        append_or_fail(run, b);
    }
    nk_run_close(run);
    free(b);
    long size = file_size(good);

    static const struct {
        raw_edit fn;
        const char *msg;
    } edits[] = {
        {edit_schema, "'%s' has schema_version 2; this nickar reads version 1"},
        {edit_drop_stats, "'%s' is not a nickar run file: no dataset /stats"},
        {edit_seed_text, "'%s' is not a nickar run file: attribute "
                         "master_seed is not an integer"},
        {edit_genome_shape, "'%s' is not a nickar run file: "
                            "/population/genome is [3, 6, 5] for 1 features"},
    };
    path = in_dir("edited.h5");
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        copy_prefix(good, path, size);
        edit(path, edits[i].fn);
        expect_open(path, NK_EFORMAT);
        expect_msg(edits[i].msg, path);
    }

    /* truncated copies: HDF5 sees that the file ends too early */
    path = in_dir("cut.h5");
    const long cuts[] = {size / 4, size / 2, size - size / 4, size - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        copy_prefix(good, path, cuts[i]);
        expect_open(path, NK_EFORMAT);
        expect_msg("damaged run file '%s': ", path);
        expect_in_msg("truncated file");
    }
    copy_prefix(good, path, 100); /* the superblock alone */
    expect_open(path, NK_EFORMAT);

    /* a clobbered signature */
    copy_prefix(good, path, size);
    int fd = open(path, O_WRONLY);
    assert_int_equal(pwrite(fd, "garbage!", 8, 0), 8);
    close(fd);
    expect_open(path, NK_EFORMAT);
    expect_msg("'%s' is not a nickar run file: not an HDF5 file", path);
}

/* Under LeakSanitizer (the asan preset): libhdf5's own error paths keep
 * some memory when it reads the damaged files below; leaks of nickar's
 * code are still reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libhdf5\n";
}

/* New files detect their own damage: the 1.8 format (superblock v2, object
 * headers with checksums) and Fletcher-32 on every dataset; a flipped bit
 * anywhere is refused as a damaged file (or, in space that means nothing,
 * reads as before), never a crash or another status. */
static void test_checksums(void **state)
{
    (void)state;
    const char *good = in_dir("sums.h5");
    nk_run_meta meta = make_meta(6, 5, true, true);
    nk_run *run = create_or_fail(good, &meta);
    gen_buf *b = malloc(sizeof *b);
    for (size_t g = 0; g < 2; g++) {
        fill(b, 5, g, 6, 5, true, true);
        append_or_fail(run, b);
    }
    nk_run_close(run);
    free(b);

    hid_t f = H5Fopen(good, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    H5F_info2_t info;
    assert_true(H5Fget_info2(f, &info) >= 0);
    assert_true(info.super.version >= 2);
    const char *sets[] = {"/features", "/population/genome", "/population/sigma",
                          "/stats", "/games", "/benchmark"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        hid_t ds = H5Dopen2(f, sets[i], H5P_DEFAULT);
        assert_true(ds >= 0);
        hid_t dcpl = H5Dget_create_plist(ds);
        if (H5Pget_filter_by_id2(dcpl, H5Z_FILTER_FLETCHER32, NULL, NULL, NULL, 0,
                                 NULL, NULL) < 0)
            fail_msg("%s has no Fletcher-32 filter", sets[i]);
        H5Pclose(dcpl);
        H5Dclose(ds);
    }
    hid_t a = H5Aopen(f, "variant", H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    assert_int_equal(H5Tis_variable_str(t), 0); /* fixed-length text */
    H5Tclose(t);
    H5Aclose(a);
    H5Fclose(f);
    H5Eclear2(H5E_DEFAULT);

    long size = file_size(good);
    const char *path = in_dir("flipped.h5");
    int refused = 0, read = 0;
    for (long off = 0; off < size; off += 211) {
        copy_prefix(good, path, size);
        int fd = open(path, O_RDWR);
        unsigned char c;
        assert_int_equal(pread(fd, &c, 1, off), 1);
        c ^= (unsigned char)(1u << (off % 8));
        assert_int_equal(pwrite(fd, &c, 1, off), 1);
        close(fd);
        nk_run *r = NULL;
        nk_status st = nk_run_open(&r, path, false, err, sizeof err);
        if (st == NK_OK) {
            nk_run_stats rows[2];
            st = nk_run_read_stats(r, 0, nk_run_generations(r), rows, err, sizeof err);
            nk_run_close(r);
        }
        if (st == NK_OK) {
            read++;
            continue;
        }
        if (st != NK_EFORMAT)
            fail_msg("a bit flipped at %ld: status %d: %s", off, (int)st, err);
        assert_null(strchr(err, '\n'));
        refused++;
    }
    assert_true(refused > read / 4);
}

/* A file made before the checksummed format (superblock v0, variable-length
 * text, no checksums; made by nickar 0.1.0 as of the run layer's merge,
 * tests/runfile_old_format.h5) is refused with one line naming the format
 * and the way to read it, and with NICKAR_READ_OLD_FORMAT=1 it is still
 * read and opens for appending. */
static void test_old_format(void **state)
{
    (void)state;
    const char *src = getenv("NICKAR_SOURCE_DIR");
    assert_non_null(src);
    char fixture[600];
    snprintf(fixture, sizeof fixture, "%s/tests/runfile_old_format.h5", src);
    hid_t f = H5Fopen(fixture, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    H5F_info2_t info;
    assert_true(H5Fget_info2(f, &info) >= 0);
    assert_int_equal(info.super.version, 0);
    H5Fclose(f);
    const char *path = in_dir("old.h5");
    copy_prefix(fixture, path, file_size(fixture));
    unsetenv("NICKAR_READ_OLD_FORMAT");
    for (int writable = 0; writable < 2; writable++) {
        nk_run *run = NULL;
        assert_int_equal(nk_run_open(&run, path, writable, err, sizeof err), NK_EFORMAT);
        assert_null(run);
        assert_non_null(strstr(err, "(superblock v0) has no checksums"));
        assert_non_null(strstr(err, "NICKAR_READ_OLD_FORMAT=1"));
        assert_null(strchr(err, '\n'));
    }
    setenv("NICKAR_READ_OLD_FORMAT", "1", 1);
    for (int writable = 0; writable < 2; writable++) {
        nk_run *run = open_or_fail(path, writable);
        const nk_run_meta *m = nk_run_get_meta(run);
        assert_string_equal(m->variant, "abapa");
        assert_string_equal(m->strategy, "ga");
        assert_string_equal(m->feature_set, "positional");
        assert_int_equal(m->master_seed, 5);
        assert_int_equal(m->n, 4);
        assert_int_equal(m->d, 9);
        assert_string_equal(m->features[0], "store_diff");
        assert_non_null(strstr(m->config, "[experiment]"));
        assert_int_equal(nk_run_generations(run), 2);
        double genome[4 * 9], fitness[4];
        nk_run_pop pop = {.genome = genome, .fitness = fitness};
        assert_int_equal(nk_run_read_population(run, 1, &pop, err, sizeof err), NK_OK);
        if (writable) {
            bool dropped = true;
            assert_int_equal(nk_run_truncate(run, &dropped, err, sizeof err), NK_OK);
            assert_false(dropped);
        }
        nk_run_close(run);
    }
    unsetenv("NICKAR_READ_OLD_FORMAT");
}

/* A run of N = 4, D = 3 (sigma, games) with generations [0, g) of seed s. */
static nk_run *run_with(const char *path, uint64_t s, size_t g)
{
    nk_run_meta meta = make_meta(4, 3, true, true);
    nk_run *run = create_or_fail(path, &meta);
    gen_buf *b = malloc(sizeof *b);
    for (size_t k = 0; k < g; k++) {
        fill(b, s, k, 4, 3, true, true);
        append_or_fail(run, b);
    }
    free(b);
    return run;
}

static void rows_after(uint64_t s, size_t g, long long *games,
                       long long *bench)
{
    gen_buf *b = malloc(sizeof *b);
    *games = *bench = 0;
    for (size_t k = 0; k < g; k++) {
        fill(b, s, k, 4, 3, true, true);
        *games += (long long)b->n_games;
        *bench += (long long)b->n_bench;
    }
    free(b);
}

/* Rewrites row g of the 2-D int32 dataset name ([G, N]) of the file at
 * path through HDF5 (so that its chunk's Fletcher-32 is sound): to zeros,
 * or (keep) to the values it holds. */
static void rewrite_row(const char *path, const char *name, hsize_t g, bool keep)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t space = H5Dget_space(ds);
    hsize_t dims[2];
    assert_int_equal(H5Sget_simple_extent_dims(space, dims, NULL), 2);
    assert_true(g < dims[0] && dims[1] <= 64);
    int32_t row[64] = {0}, old[64];
    hsize_t start[2] = {g, 0}, n[2] = {1, dims[1]};
    hid_t mem = H5Screate_simple(2, n, NULL);
    assert_true(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, n, NULL) >= 0);
    assert_true(H5Dread(ds, H5T_NATIVE_INT32, mem, space, H5P_DEFAULT, old) >= 0);
    if (!keep) /* the damage must change something */
        assert_true(memcmp(old, row, dims[1] * sizeof *row) != 0);
    assert_true(H5Dwrite(ds, H5T_NATIVE_INT32, mem, space, H5P_DEFAULT,
                         keep ? old : row) >= 0);
    H5Sclose(mem);
    H5Sclose(space);
    H5Dclose(ds);
    H5Fclose(f);
}

/* Rewrites the member `seed` (uint64) of row r of /games to v. */
static void rewrite_game_seed(const char *path, hsize_t r, uint64_t v)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, "/games", H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof v);
    assert_true(H5Tinsert(t, "seed", 0, H5T_NATIVE_UINT64) >= 0);
    hid_t space = H5Dget_space(ds);
    hsize_t start = r, n = 1;
    hid_t mem = H5Screate_simple(1, &n, NULL);
    assert_true(H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, NULL, &n, NULL) >= 0);
    assert_true(H5Dwrite(ds, t, mem, space, H5P_DEFAULT, &v) >= 0);
    H5Sclose(mem);
    H5Sclose(space);
    H5Tclose(t);
    H5Dclose(ds);
    H5Fclose(f);
}

/* A chunk's Fletcher-32 covers its bytes, not where its (unchecked) index
 * says it lies: a flipped address that leads to zero-filled bytes reads as
 * a sound chunk of zeros.  The rows digest of each /stats row finds any
 * such substitution before a write: rows rewritten to other values with
 * sound checksums (here through HDF5) are refused with one line naming the
 * generation, and rows written back unchanged are not. */
static void test_rows_digest(void **state)
{
    (void)state;
    const char *good = in_dir("digest.h5"), *path = in_dir("digest-x.h5");
    nk_run_close(run_with(good, 7, 3));
    long size = file_size(good);

    copy_prefix(good, path, size);
    rewrite_row(path, "/population/losses", 1, true);
    nk_run *run = open_or_fail(path, true);
    assert_int_equal(nk_run_generations(run), 3);
    nk_run_close(run);

    copy_prefix(good, path, size);
    rewrite_row(path, "/population/losses", 1, false);
    run = NULL;
    assert_int_equal(nk_run_open(&run, path, true, err, sizeof err), NK_EFORMAT);
    assert_null(run);
    assert_non_null(strstr(err, "the rows of generation 2 do not match the digest"));
    assert_null(strchr(err, '\n'));

    copy_prefix(good, path, size);
    rewrite_game_seed(path, 0, 12345);
    assert_int_equal(nk_run_open(&run, path, true, err, sizeof err), NK_EFORMAT);
    assert_non_null(strstr(err, "the rows of generation 1 do not match the digest"));
}

static void test_failed_append(void **state)
{
    (void)state;
    const char *path = in_dir("inject.h5");
    gen_buf *b = malloc(sizeof *b);
    fill(b, 6, 2, 4, 3, true, true);
    nk_run_gen gen = view(b);
    long long games2, bench2, games3, bench3;
    rows_after(6, 2, &games2, &bench2);
    rows_after(6, 3, &games3, &bench3);
    unsigned before = 0, after = 0;
    unsigned long k;
    for (k = 1; k < 200; k++) {
        nk_run *run = run_with(path, 6, 2);
        nk_run_fail_at(run, k);
        nk_status st = nk_run_append_generation(run, &gen, err, sizeof err);
        if (st == NK_OK) { /* k is past the last write */
            nk_run_close(run);
            break;
        }
        assert_int_equal(st, NK_EIO);
        expect_msg("writing '%s' failed at generation 2: ", path);
        expect_in_msg(": injected failure");
        assert_int_equal(nk_run_append_generation(run, &gen, err, sizeof err),
                         NK_EIO);
        expect_msg("'%s': a write failed earlier", path);
        nk_run_close(run);

        /* the file holds generations 0 and 1, or 0..2 once the old
         * checkpoint was deleted (the commit point) */
        run = open_or_fail(path, true);
        size_t g = nk_run_generations(run);
        assert_true(g == 2 || g == 3);
        if (g == 3)
            after++;
        else
            before++;
        assert_true(g == 2 || before > 0);
        assert_true(g == 3 || after == 0); /* once committed, always */
        expect_gens(run, 6, g);
        bool dropped = true;
        assert_int_equal(nk_run_truncate(run, &dropped, err, sizeof err),
                         NK_OK);
        if (k == 1)
            assert_false(dropped); /* nothing had been written */
        expect_gens(run, 6, g);
        nk_run_close(run);
        expect_exact(path, (long long)g, g == 3 ? games3 : games2,
                     g == 3 ? bench3 : bench2, true);

        /* and the run goes on */
        if (g == 2) {
            run = open_or_fail(path, true);
            append_or_fail(run, b);
            nk_run_close(run);
        }
        run = open_or_fail(path, false);
        expect_gens(run, 6, 3);
        nk_run_close(run);
    }
    assert_true(k < 200);
    assert_true(before >= 20); /* every dataset, table and checkpoint write */
    assert_true(after >= 2);   /* the rename and the flush */
    free(b);
}

static void edit_crash(hid_t f)
{
    /* generation 2 begun: genome and games longer, a partial checkpoint */
    hsize_t dims[3] = {3, 4, 3};
    hid_t ds = H5Dopen2(f, "/population/genome", H5P_DEFAULT);
    assert_true(H5Dset_extent(ds, dims) >= 0);
    H5Dclose(ds);
    ds = H5Dopen2(f, "/games", H5P_DEFAULT);
    hsize_t rows[1] = {100};
    assert_true(H5Dset_extent(ds, rows) >= 0);
    H5Dclose(ds);
    hid_t g = H5Gcreate2(f, "/checkpoint.new", H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    H5Gclose(g);
}

static void edit_lone_new(hid_t f)
{
    assert_true(H5Lmove(f, "/checkpoint", f, "/checkpoint.new", H5P_DEFAULT,
                        H5P_DEFAULT) >= 0);
}

static void test_crash_states(void **state)
{
    (void)state;
    const char *path = in_dir("crash.h5");
    long long games, bench;
    rows_after(7, 2, &games, &bench);
    nk_run_close(run_with(path, 7, 2));
    edit(path, edit_crash);
    assert_int_equal(raw_rows(path, "/population/genome"), 3);

    nk_run *run = open_or_fail(path, false); /* readers take the checkpoint */
    expect_gens(run, 7, 2);
    nk_run_close(run);
    run = open_or_fail(path, true);
    bool dropped = false;
    assert_int_equal(nk_run_truncate(run, &dropped, err, sizeof err), NK_OK);
    assert_true(dropped);
    assert_int_equal(nk_run_truncate(run, &dropped, err, sizeof err), NK_OK);
    assert_false(dropped);
    expect_gens(run, 7, 2);
    nk_run_close(run);
    expect_exact(path, 2, games, bench, true);

    /* the crash came between deleting /checkpoint and the rename */
    edit(path, edit_lone_new);
    run = open_or_fail(path, false);
    expect_gens(run, 7, 2);
    nk_run_close(run);
    /* the first append repairs by itself */
    run = open_or_fail(path, true);
    gen_buf *b = malloc(sizeof *b);
    fill(b, 7, 2, 4, 3, true, true);
    append_or_fail(run, b);
    nk_run_close(run);
    rows_after(7, 3, &games, &bench);
    expect_exact(path, 3, games, bench, true);
    run = open_or_fail(path, false);
    expect_gens(run, 7, 3);
    nk_run_close(run);

    /* datasets shorter than the checkpoint: damaged */
    edit(path, edit_crash); /* genome to 3 rows: shrinks nothing; games 100 */
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, "/stats", H5P_DEFAULT);
    hsize_t rows[1] = {1};
    H5Dset_extent(ds, rows);
    H5Dclose(ds);
    H5Fclose(f);
    expect_open(path, NK_EFORMAT);
    expect_msg("'%s' is not a nickar run file: /stats has 1 rows but 3 are "
               "complete", path);
    free(b);
}

/* In a child under a file size limit of the current size + extra: append
 * generations from 2 on until one fails, then lift the limit and append
 * that generation again with the same handle; write the two statuses, the
 * generation count at the failure and its message to fd.  The limit makes
 * the file system refuse writes (EFBIG) as a full disk would (ENOSPC). */
static void limited_child(const char *path, long extra, int fd)
{
    nk_run *run = run_with(path, 8, 2);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit r;
    r.rlim_cur = (rlim_t)(file_size(path) + extra);
    r.rlim_max = RLIM_INFINITY;
    if (setrlimit(RLIMIT_FSIZE, &r) != 0)
        _exit(3);
    static gen_buf b;
    nk_status st = NK_OK;
    for (size_t g = 2; g < 1000 && st == NK_OK; g++) {
        fill(&b, 8, g, 4, 3, true, true);
        nk_run_gen gen = view(&b);
        st = nk_run_append_generation(run, &gen, err, sizeof err);
    }
    char out[700];
    int n = snprintf(out, sizeof out, "%d %zu ", (int)st,
                     nk_run_generations(run));
    r.rlim_cur = RLIM_INFINITY;
    char again[sizeof err];
    nk_run_gen gen = view(&b);
    nk_status retry = setrlimit(RLIMIT_FSIZE, &r) != 0
                          ? NK_EINVAL
                          : nk_run_append_generation(run, &gen, again,
                                                     sizeof again);
    n += snprintf(out + n, sizeof out - (size_t)n, "%d %s", (int)retry, err);
    nk_run_close(run);
    if (write(fd, out, (size_t)n) != n)
        _exit(4);
    _exit(0);
}

/* New files have /games chunks of 256 rows (docs/runfile.md), and their
 * rows read back. */
static void test_games_chunk(void **state)
{
    (void)state;
    const char *path = in_dir("chunk.h5");
    nk_run_meta meta = make_meta(8, 3, true, true);
    nk_run *run = create_or_fail(path, &meta);
    static gen_buf b;
    for (size_t g = 0; g < 3; g++) {
        fill(&b, 21, g, 8, 3, true, true);
        append_or_fail(run, &b);
    }
    nk_run_close(run);

    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t ds = H5Dopen2(f, "/games", H5P_DEFAULT);
    assert_true(ds >= 0);
    hid_t dcpl = H5Dget_create_plist(ds);
    hsize_t chunk[1] = {0};
    assert_int_equal(H5Pget_chunk(dcpl, 1, chunk), 1);
    assert_int_equal(chunk[0], 256);
    H5Pclose(dcpl);
    H5Dclose(ds);
    H5Fclose(f);

    run = open_or_fail(path, false);
    expect_gens(run, 21, 3);
    nk_run_close(run);
}

static void test_file_too_large(void **state)
{
    (void)state;
    const char *path = in_dir("limit.h5");
    const long extras[] = {0, 4096, 400000, (1 << 20) + 20000};
    for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++) {
        int p[2];
        assert_int_equal(pipe(p), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(p[0]);
            limited_child(path, extras[i], p[1]);
        }
        close(p[1]);
        char out[700] = {0};
        ssize_t n = read(p[0], out, sizeof out - 1);
        close(p[0]);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        assert_true(n > 0);
        int st, retry;
        size_t g;
        int used;
        assert_int_equal(sscanf(out, "%d %zu %d %n", &st, &g, &retry, &used),
                         3);
        snprintf(err, sizeof err, "%s", out + used);
        assert_int_equal(st, NK_EIO);
        expect_msg("writing '%s' failed at generation %zu: cannot reserve ",
                   path, g);
        expect_in_msg("File too large");
        if (extras[i] < 1 << 20)
            assert_int_equal(g, 2);
        else
            assert_true(g > 3);
        /* nothing was written: once there is room, the handle goes on */
        assert_int_equal(retry, NK_OK);

        /* every complete generation is there, and the run goes on */
        nk_run *run = open_or_fail(path, false);
        expect_gens(run, 8, g + 1);
        nk_run_close(run);
        run = open_or_fail(path, true);
        static gen_buf b;
        fill(&b, 8, g + 1, 4, 3, true, true);
        append_or_fail(run, &b);
        nk_run_close(run);
        run = open_or_fail(path, false);
        expect_gens(run, 8, g + 2);
        nk_run_close(run);
    }

    /* a file that cannot even be created is not left behind */
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit r = {1000, 1000};
        setrlimit(RLIMIT_FSIZE, &r);
        nk_run_meta meta = make_meta(4, 3, true, true);
        nk_run *run = NULL;
        nk_status st = nk_run_create(&run, in_dir("small.h5"), &meta, false,
                                     err, sizeof err);
        bool good = st == NK_EIO && run == NULL &&
                    strncmp(err, "cannot create '", 15) == 0 &&
                    strstr(err, "File too large") != NULL;
        _exit(good ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(access(in_dir("small.h5"), F_OK), -1);
}

/* The values that tests/check_runfile.py expects. */
static void fill_simple(gen_buf *b, size_t g, size_t n, size_t d)
{
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < d; j++) {
            double v = (double)g * 10000.0 + (double)i * 100.0 + (double)j;
            b->genome[i * d + j] = v;
            b->sigma[i * d + j] = v * 0.5;
        }
        b->fitness[i] = (double)g + (double)i * 0.25;
        b->wins[i] = (int32_t)i;
        b->draws[i] = (int32_t)g;
        b->losses[i] = (int32_t)(i + g);
        b->ids[i] = (int64_t)(g * n + i);
        b->parents[2 * i] = g == 0 ? -1 : (int64_t)((g - 1) * n + i);
        b->parents[2 * i + 1] = g == 0 ? -1
                                       : (int64_t)((g - 1) * n + (i + 1) % n);
    }
    b->has_sigma = true;
    b->stats = (nk_run_stats){.generation = (int32_t)g,
                              .games = (int64_t)(10 * g),
                              .best = (double)g + 1.5};
    b->n_games = 2;
    for (size_t r = 0; r < 2; r++) {
        size_t row = 2 * g + r;
        b->games[r] = (nk_run_game){.generation = (int32_t)g,
                                    .winner = (int8_t)(row % 3),
                                    .plies = (int16_t)(40 + row),
                                    .seed = (UINT64_C(1) << 63) + row};
    }
    b->n_bench = 1;
    b->bench[0] = (nk_run_bench){.generation = (int32_t)g,
                                 .opponent = "greedy:depth=2",
                                 .score = 0.25 * (double)g};
    for (size_t k = 0; k < 16; k++)
        b->rng[k] = (uint8_t)((g * 16 + k) % 256);
    for (size_t k = 0; k < 4; k++)
        b->cma[k] = (double)g + (double)k * 0.5;
    b->blobs[0] = (nk_run_blob){"rng", NK_RUN_U8, b->rng, 16};
    b->blobs[1] = (nk_run_blob){"cma", NK_RUN_F64, b->cma, 4};
    b->n_blobs = 2;
}

static void test_python(void **state)
{
    (void)state;
    const char *python = "/usr/bin/python3";
    if (access(python, X_OK) != 0)
        fail_msg("%s is missing (scripts/setup.sh installs it)", python);
    char script[1024];
    const char *src = getenv("NICKAR_SOURCE_DIR");
    if (src != NULL) {
        snprintf(script, sizeof script, "%s/tests/check_runfile.py", src);
    } else {
        snprintf(script, sizeof script, "%s", __FILE__);
        char *slash = strrchr(script, '/');
        snprintf(slash != NULL ? slash + 1 : script,
                 sizeof script - (size_t)(slash != NULL ? slash + 1 - script
                                                        : 0),
                 "check_runfile.py");
    }
    const char *path = in_dir("py.h5");
    static const char *names[3] = {"feature_0", "feature_1", "feature_2"};
    nk_run_meta meta = {
        .created = "2024-05-01T12:00:00Z", .variant = "warri",
        .master_seed = UINT64_MAX - 1, .config = "[run]\nseed = 7 ; ñ\n",
        .threads = 4, .mpi_ranks = 1, .feature_set = "basic",
        .strategy = "cma-es", .n = 5, .d = 3, .features = names,
        .has_sigma = true, .record_games = true};
    nk_run *run = create_or_fail(path, &meta);
    gen_buf *b = malloc(sizeof *b);
    for (size_t g = 0; g < 4; g++) {
        fill_simple(b, g, 5, 3);
        append_or_fail(run, b);
    }
    nk_run_close(run);
    free(b);

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(python, python, script, path, "5", "3", "4", (char *)NULL);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77)
        fail_msg("python3-h5py is not installed (scripts/setup.sh installs it)");
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* The compact layout (runfile.h, "Large genomes"): genome and sigma
 * deflated, sigma float32; everything reads back (the genome bit for bit,
 * sigma rounded), a writable open verifies the rows' digests over the
 * rounded numbers, and appending goes on. */
static void test_compact(void **state)
{
    (void)state;
    const char *path = in_dir("compact.h5");
    nk_run_meta meta = make_meta(5, MAX_D, true, true);
    meta.compact = true;
    nk_run *run = create_or_fail(path, &meta);
    gen_buf *b = malloc(sizeof *b);
    for (size_t g = 0; g < 3; g++) {
        fill(b, 9, g, 5, MAX_D, true, true);
        append_or_fail(run, b);
    }
    nk_run_close(run);
    run = open_or_fail(path, false);
    assert_true(nk_run_get_meta(run)->compact);
    expect_gens(run, 9, 3);
    nk_run_close(run);
    run = open_or_fail(path, true); /* verifies every complete row */
    fill(b, 9, 3, 5, MAX_D, true, true);
    append_or_fail(run, b);
    nk_run_close(run);
    run = open_or_fail(path, false);
    expect_gens(run, 9, 4);
    nk_run_close(run);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    const char *const sets[] = {"/population/genome", "/population/sigma"};
    const size_t size[] = {8, 4};
    for (size_t i = 0; i < 2; i++) {
        hid_t ds = H5Dopen2(f, sets[i], H5P_DEFAULT), t = H5Dget_type(ds);
        hid_t dcpl = H5Dget_create_plist(ds);
        assert_int_equal(H5Tget_size(t), size[i]);
        unsigned flags, conf;
        size_t nv = 0;
        assert_true(H5Pget_filter_by_id2(dcpl, H5Z_FILTER_DEFLATE, &flags, &nv, NULL, 0, NULL,
                                         &conf) >= 0);
        nv = 0;
        assert_true(H5Pget_filter_by_id2(dcpl, H5Z_FILTER_SHUFFLE, &flags, &nv, NULL, 0, NULL,
                                         &conf) >= 0);
        H5Pclose(dcpl);
        H5Tclose(t);
        H5Dclose(ds);
    }
    H5Fclose(f);
    /* a file without the flag keeps the old layout and reads as such */
    meta.compact = false;
    run = create_or_fail(in_dir("plain64.h5"), &meta);
    fill(b, 9, 0, 5, MAX_D, true, true);
    append_or_fail(run, b);
    nk_run_close(run);
    run = open_or_fail(in_dir("plain64.h5"), false);
    assert_false(nk_run_get_meta(run)->compact);
    expect_gens(run, 9, 1);
    nk_run_close(run);
    free(b);
}

int main(int argc, char **argv)
{
    /* HDF5 reads HDF5_USE_FILE_LOCKING once, when it starts: run again
     * without it, so that test_locked sees HDF5's locks. */
    (void)argc;
    if (getenv("HDF5_USE_FILE_LOCKING") != NULL) {
        unsetenv("HDF5_USE_FILE_LOCKING");
        execv("/proc/self/exe", argv);
        return 1;
    }
#define TEST(f) cmocka_unit_test_setup_teardown(f, count_ids, check_ids)
    const struct CMUnitTest tests[] = {
        TEST(test_roundtrip),
        TEST(test_no_sigma_no_games),
        TEST(test_bad_data),
        TEST(test_overwrite),
        TEST(test_unwritable),
        TEST(test_open_errors),
        TEST(test_fixed_strings),
        TEST(test_locked),
        TEST(test_failed_append),
        TEST(test_crash_states),
        TEST(test_file_too_large),
        TEST(test_games_chunk),
        TEST(test_python),
        TEST(test_checksums),
        TEST(test_old_format),
        TEST(test_rows_digest),
        TEST(test_tb_intervals),
        TEST(test_compact),
    };
#undef TEST
    if (H5open() < 0)
        return 1;
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
