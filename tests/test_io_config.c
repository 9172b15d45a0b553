/*
 * test_io_config.c -- the configuration system (src/io/config.h): schema,
 * INI files and includes, --set, every error path and its message, the
 * print -> parse round trip, comparison for --resume, the example configs
 * and configs/README.md.
 *
 * Files are written under a fresh mkdtemp() directory.  Messages are
 * compared in full where their form is part of the contract (file:line,
 * suggestions, --set), by substring elsewhere.
 *
 * With NICKAR_REGEN_DOCS=1 in the environment, test_doc rewrites
 * configs/README.md from the schema instead of comparing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/schedule.h"
#include "evolve/crossover.h"
#include "evolve/genome.h"
#include "evolve/mutate.h"
#include "evolve/select.h"
#include "evolve/strategy.h"
#include "io/config.h"
#include "rules/rules.h"
#include "search/features.h"

static char tmpdir[256];
static char err[2048];

/* ----- helpers ----- */

/* The path of name under the temporary directory (a rotating buffer). */
static const char *tpath(const char *name)
{
    static char bufs[8][512];
    static int next;
    char *b = bufs[next++ % 8];
    snprintf(b, sizeof bufs[0], "%s/%s", tmpdir, name);
    return b;
}

/* Writes text to tmpdir/name (making one level of subdirectory). */
static const char *write_file(const char *name, const char *text)
{
    const char *slash = strchr(name, '/');
    if (slash != NULL) {
        char dir[256];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - name), name);
        mkdir(tpath(dir), 0700);
    }
    const char *path = tpath(name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static nk_config *fresh(void)
{
    nk_config *cfg;
    assert_int_equal(nk_config_new(&cfg, err, sizeof err), NK_OK);
    return cfg;
}

/* Loads text (as tmpdir/name) into a fresh config; returns the status and
 * leaves the config in *out (freed by the caller). */
static nk_status load_text(const char *name, const char *text, nk_config **out)
{
    *out = fresh();
    err[0] = '\0';
    return nk_config_load(*out, write_file(name, text), err, sizeof err);
}

/* Expects loading text to fail with st and exactly the message
 * "tmpdir/name:" + rest. */
static void expect_load_error(const char *name, const char *text, nk_status st, const char *rest)
{
    nk_config *cfg;
    assert_int_equal(load_text(name, text, &cfg), st);
    char want[2048];
    snprintf(want, sizeof want, "%s:%s", tpath(name), rest);
    assert_string_equal(err, want);
    nk_config_free(cfg);
}

static void expect_set_error(const char *arg, nk_status st, const char *msg)
{
    nk_config *cfg = fresh();
    assert_int_equal(nk_config_set(cfg, arg, err, sizeof err), st);
    assert_string_equal(err, msg);
    nk_config_free(cfg);
}

static void expect_contains(const char *text, const char *part)
{
    if (strstr(text, part) == NULL)
        fail_msg("'%s' does not contain '%s'", text, part);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

static char *format(const nk_config *cfg)
{
    size_t n = nk_config_format(cfg, NULL, 0);
    char *text = malloc(n + 1);
    assert_non_null(text);
    assert_int_equal(nk_config_format(cfg, text, n + 1), n);
    assert_int_equal(strlen(text), n);
    return text;
}

static int setup(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/nk_config_XXXXXX", base ? base : "/tmp");
    return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            remove_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(tmpdir);
    return 0;
}

/* ----- the schema ----- */

static void test_schema(void **state)
{
    (void)state;
    size_t n = nk_config_schema_count();
    assert_true(n >= 40);
    for (size_t i = 0; i < n; i++) {
        const nk_config_key *k = nk_config_schema(i);
        char key[128];
        snprintf(key, sizeof key, "%s.%s", k->section, k->name);
        assert_string_equal(k->key, key);
        assert_ptr_equal(nk_config_key_find(key), k);
        assert_true(strlen(k->help) > 10);
        assert_null(strchr(k->help, '\n'));
        /* sections are contiguous: a section seen before comes right back */
        for (size_t j = 0; j + 1 < i; j++)
            if (strcmp(nk_config_schema(j)->section, k->section) == 0)
                assert_string_equal(nk_config_schema(i - 1)->section, k->section);
        char canon[NK_CONFIG_TEXT], why[512];
        if (nk_config_parse_value(k, k->def, canon, sizeof canon, why, sizeof why) != NK_OK)
            fail_msg("default of %s: %s", k->key, why);
        assert_string_equal(canon, k->def); /* defaults are written canonically */
    }
    assert_null(nk_config_schema(n));
    assert_null(nk_config_key_find("population"));
    assert_null(nk_config_key_find("population.sise"));
    assert_true(nk_config_key_find("experiment.generations")->flags & NK_CFG_RESUME_FREE);
    assert_true(nk_config_key_find("output.file")->flags & NK_CFG_RESUME_FREE);
    assert_false(nk_config_key_find("population.size")->flags & NK_CFG_RESUME_FREE);
}

/* Every choice of an enum names something the lower layers know. */
static void test_schema_choices(void **state)
{
    (void)state;
    static const char *const keys[] = {
        "experiment.variant", "population.encoding", "strategy.kind",
        "selection.method",   "crossover.method",    "mutation.method", "fitness.schedule",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *key = keys[i];
        const nk_config_key *k = nk_config_key_find(key);
        assert_non_null(k);
        assert_int_equal(k->type, NK_CFG_ENUM);
        const char *name;
        for (size_t ch = 0; (name = nk_param_choice(k, ch)) != NULL; ch++) {
            bool ok;
            nk_encoding enc;
            if (strcmp(key, "experiment.variant") == 0)
                ok = nk_variant_find(name) != NULL;
            else if (strcmp(key, "population.encoding") == 0)
                ok = nk_genome_encoding_parse(&enc, name, NULL, 0) == NK_OK;
            else if (strcmp(key, "strategy.kind") == 0)
                ok = nk_strategy_find(name) != NULL;
            else if (strcmp(key, "selection.method") == 0)
                ok = nk_select_find(name) != NULL;
            else if (strcmp(key, "crossover.method") == 0)
                ok = nk_cross_find(name) != NULL;
            else if (strcmp(key, "mutation.method") == 0)
                ok = nk_mutate_find(name) != NULL;
            else
                ok = nk_schedule_find(name) != NK_SCHEDULE_COUNT;
            if (!ok)
                fail_msg("%s: choice '%s' is not known to the lower layers", key, name);
        }
    }
}

/* ----- defaults and getters ----- */

static void test_defaults(void **state)
{
    (void)state;
    nk_config *cfg = fresh();
    assert_string_equal(nk_config_string(cfg, "experiment.name"), "quickstart");
    assert_string_equal(nk_config_string(cfg, "experiment.description"), "");
    assert_true(nk_config_uint64(cfg, "experiment.seed") == 1);
    assert_string_equal(nk_config_string(cfg, "experiment.variant"), "abapa");
    assert_int_equal(nk_config_enum(cfg, "experiment.variant"), 4);
    assert_int_equal(nk_config_int(cfg, "experiment.generations"), 30);
    assert_string_equal(nk_config_string(cfg, "player.features"), "positional");
    assert_int_equal(nk_config_int(cfg, "player.depth"), 2);
    assert_int_equal(nk_config_int(cfg, "player.ply_limit"), 1000);
    assert_true(nk_config_double(cfg, "player.weights_min") == -1.0);
    assert_true(nk_config_double(cfg, "player.weights_max") == 1.0);
    assert_int_equal(nk_config_int(cfg, "population.size"), 16);
    assert_string_equal(nk_config_string(cfg, "strategy.kind"), "ga");
    assert_true(nk_config_double(cfg, "strategy.sigma0") == 0.3);
    assert_true(nk_config_double(cfg, "strategy.sigma_min") == 1e-6);
    assert_string_equal(nk_config_text(cfg, "strategy.sigma_min"), "1e-6");
    assert_true(nk_config_double(cfg, "selection.rank_pressure") == 1.7);
    assert_string_equal(nk_config_string(cfg, "crossover.method"), "blx-alpha");
    assert_true(nk_config_double(cfg, "crossover.sbx_eta") == 15.0);
    assert_string_equal(nk_config_string(cfg, "fitness.scoring"), "2,1,0");
    assert_int_equal(nk_config_list_count(cfg, "fitness.gauntlet"), 2);
    assert_string_equal(nk_config_list_item(cfg, "fitness.gauntlet", 0), "greedy");
    assert_string_equal(nk_config_list_item(cfg, "fitness.gauntlet", 1),
                        "ab:depth=1,features=material");
    assert_int_equal(nk_config_list_count(cfg, "benchmark.opponents"), 3);
    assert_string_equal(nk_config_list_item(cfg, "benchmark.opponents", 2),
                        "ab:depth=2,features=positional");
    assert_string_equal(nk_config_text(cfg, "benchmark.opponents"),
                        "random; greedy; ab:depth=2,features=positional");
    assert_int_equal(nk_config_int(cfg, "benchmark.games"), 40);
    assert_string_equal(nk_config_string(cfg, "output.file"), "");
    assert_string_equal(nk_config_string(cfg, "output.record_games"), "auto");
    char buf[256];
    assert_string_equal(nk_config_origin(cfg, "population.size", buf, sizeof buf), "default");
    assert_int_equal(nk_config_validate(cfg, err, sizeof err), NK_OK);
    nk_config_free(cfg);
    nk_config_free(NULL);
}

/* ----- files ----- */

static void test_file(void **state)
{
    (void)state;
    nk_config *cfg;
    nk_status st = load_text("file.ini",
                             "; a comment\n"
                             "# another\n"
                             "\n"
                             "[population]\n"
                             "size = 24   ; inline comment\n"
                             "[experiment]\n"
                             "  seed=18446744073709551615\n"
                             "description = runs # not a comment = fine\n"
                             "[player]\n"
                             "weights_min = -2.50\n"
                             "depth: 3\n"
                             "[population]\n"
                             "encoding = binary\n"
                             "[crossover]\n"
                             "method = uniform\n"
                             "[mutation]\n"
                             "method = bit-flip\n",
                             &cfg);
    assert_int_equal(st, NK_OK);
    assert_int_equal(nk_config_int(cfg, "population.size"), 24);
    assert_true(nk_config_uint64(cfg, "experiment.seed") == UINT64_MAX);
    assert_string_equal(nk_config_string(cfg, "experiment.description"),
                        "runs # not a comment = fine");
    assert_true(nk_config_double(cfg, "player.weights_min") == -2.5);
    assert_string_equal(nk_config_text(cfg, "player.weights_min"), "-2.5");
    assert_int_equal(nk_config_int(cfg, "player.depth"), 3);
    assert_int_equal(nk_config_enum(cfg, "population.encoding"), 1);
    assert_int_equal(nk_config_int(cfg, "population.bits"), 8); /* untouched */
    char buf[1024], want[1024];
    snprintf(want, sizeof want, "%s:5", tpath("file.ini"));
    assert_string_equal(nk_config_origin(cfg, "population.size", buf, sizeof buf), want);
    snprintf(want, sizeof want, "%s:13", tpath("file.ini"));
    assert_string_equal(nk_config_origin(cfg, "population.encoding", buf, sizeof buf), want);
    assert_int_equal(nk_config_validate(cfg, err, sizeof err), NK_OK);
    nk_config_free(cfg);
}

static void test_include(void **state)
{
    (void)state;
    write_file("inc/base.ini", "[population]\nsize = 20\nbits = 10\n[player]\ndepth = 4\n");
    write_file("inc/second.ini", "[population]\nbits = 12\n[experiment]\nseed = 7\n");
    mkdir(tpath("inc/sub"), 0700);
    write_file("inc/sub/leaf.ini", "[player]\nply_limit = 300\n");
    write_file("inc/sub/mid.ini", "include = leaf.ini\n[player]\nply_limit = 400\ndepth = 5\n");
    nk_config *cfg;
    nk_status st = load_text("top.ini",
                             "; includes come first\n"
                             "include = inc/base.ini\n"
                             "include = inc/second.ini\n"
                             "include = inc/sub/mid.ini\n"
                             "[population]\n"
                             "size = 30\n",
                             &cfg);
    if (st != NK_OK)
        fail_msg("%s", err);
    assert_int_equal(nk_config_int(cfg, "population.size"), 30);   /* top overrides base */
    assert_int_equal(nk_config_int(cfg, "population.bits"), 12);   /* later include wins */
    assert_int_equal(nk_config_int(cfg, "player.depth"), 5);       /* mid over base */
    assert_int_equal(nk_config_int(cfg, "player.ply_limit"), 400); /* mid over its leaf */
    assert_true(nk_config_uint64(cfg, "experiment.seed") == 7);
    char buf[1024], want[1024];
    snprintf(want, sizeof want, "%s/inc/second.ini:2", tmpdir);
    assert_string_equal(nk_config_origin(cfg, "population.bits", buf, sizeof buf), want);
    snprintf(want, sizeof want, "%s/inc/sub/mid.ini:3", tmpdir);
    assert_string_equal(nk_config_origin(cfg, "player.ply_limit", buf, sizeof buf), want);
    nk_config_free(cfg);

    /* the same file included twice (no cycle) is fine */
    st = load_text("twice.ini", "include = inc/base.ini\ninclude = inc/base.ini\n", &cfg);
    assert_int_equal(st, NK_OK);
    nk_config_free(cfg);

    /* an included file's own errors name that file */
    write_file("inc/bad.ini", "[player]\n\ndepth = 99\n");
    char tail[1024];
    snprintf(tail, sizeof tail, "%s/inc/bad.ini:3: player.depth: 99 is out of range 1..30", tmpdir);
    st = load_text("incbad.ini", "include = inc/bad.ini\n", &cfg);
    assert_int_equal(st, NK_ERANGE);
    assert_string_equal(err, tail);
    nk_config_free(cfg);

    /* a missing include names the including line, the path and strerror */
    snprintf(tail, sizeof tail, "2: cannot open included file %s/inc/none.ini: %s", tmpdir,
             strerror(ENOENT));
    expect_load_error("incmissing.ini", "; x\ninclude = inc/none.ini\n", NK_ENOFILE, tail);

    expect_load_error("inclate.ini", "[player]\ninclude = inc/base.ini\n", NK_EINVAL,
                      "2: include must come before the first [section]");
    expect_load_error("incempty.ini", "include =\n", NK_EINVAL, "1: include needs a file name");
    expect_load_error("toplevel2.ini", "methd = sus\n", NK_EINVAL,
                      "1: key 'methd' is outside any [section] (did you mean 'method' under "
                      "[selection] or [crossover] or [mutation]?)");
    expect_load_error("toplevel3.ini", "zzz = 1\n", NK_EINVAL,
                      "1: key 'zzz' is outside any [section] (only 'include' may come before "
                      "the first section)");
    expect_load_error("toplevel.ini", "size = 3\n", NK_EINVAL,
                      "1: key 'size' is outside any [section] (did you mean 'size' under "
                      "[population]?)");
}

static void test_include_cycle(void **state)
{
    (void)state;
    write_file("cyc/a.ini", "include = b.ini\n[player]\ndepth = 3\n");
    write_file("cyc/b.ini", "; b\ninclude = c.ini\n");
    write_file("cyc/c.ini", "include = ./a.ini\n");
    nk_config *cfg = fresh();
    char path[512], want[2048];
    snprintf(path, sizeof path, "%s/cyc/a.ini", tmpdir);
    assert_int_equal(nk_config_load(cfg, path, err, sizeof err), NK_EINVAL);
    snprintf(want, sizeof want,
             "%s/cyc/c.ini:1: include cycle: %s/cyc/a.ini -> %s/cyc/b.ini -> %s/cyc/c.ini -> "
             "%s/cyc/./a.ini",
             tmpdir, tmpdir, tmpdir, tmpdir, tmpdir);
    assert_string_equal(err, want);
    nk_config_free(cfg);

    snprintf(want, sizeof want, "1: include cycle: %s -> %s", tpath("self.ini"), tpath("self.ini"));
    expect_load_error("self.ini", "include = self.ini\n", NK_EINVAL, want);
}

static void test_load_string(void **state)
{
    (void)state;
    nk_config *cfg = fresh();
    assert_int_equal(
        nk_config_load_string(cfg, "[player]\ndepth = 7\n", "run.h5:/config", err, sizeof err),
        NK_OK);
    assert_int_equal(nk_config_int(cfg, "player.depth"), 7);
    char buf[256];
    assert_string_equal(nk_config_origin(cfg, "player.depth", buf, sizeof buf), "run.h5:/config:2");
    assert_int_equal(nk_config_load_string(cfg, "[player]\ndepth = 0", "s", err, sizeof err),
                     NK_ERANGE);
    assert_string_equal(err, "s:2: player.depth: 0 is out of range 1..30");
    assert_int_equal(nk_config_load_string(cfg, "include = x.ini\n", "s", err, sizeof err),
                     NK_EINVAL);
    assert_string_equal(err, "s:1: include is not allowed in s");
    /* an empty text changes nothing */
    assert_int_equal(nk_config_load_string(cfg, "", "s", err, sizeof err), NK_OK);
    nk_config_free(cfg);
}

/* ----- --set ----- */

static void test_set(void **state)
{
    (void)state;
    nk_config *cfg;
    assert_int_equal(load_text("set.ini", "[population]\nsize = 20\n", &cfg), NK_OK);
    assert_int_equal(nk_config_set(cfg, "population.size=40", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(cfg, " selection.method = truncation ", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(cfg, "population.size=50", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(cfg, "experiment.description=a=b", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(cfg, "benchmark.opponents=random;greedy", err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_config_int(cfg, "population.size"), 50);
    assert_string_equal(nk_config_string(cfg, "selection.method"), "truncation");
    assert_string_equal(nk_config_string(cfg, "experiment.description"), "a=b");
    assert_string_equal(nk_config_text(cfg, "benchmark.opponents"), "random; greedy");
    char buf[64];
    assert_string_equal(nk_config_origin(cfg, "population.size", buf, sizeof buf), "--set");
    nk_config_free(cfg);

    expect_set_error("fitness.scheme=sample", NK_EINVAL,
                     "--set fitness.scheme=sample: unknown key 'fitness.scheme' (did you mean "
                     "'fitness.schedule'?)");
    expect_set_error("fitnes.schedule=sample", NK_EINVAL,
                     "--set fitnes.schedule=sample: unknown section [fitnes] (did you mean "
                     "[fitness]?)");
    expect_set_error("population.size", NK_EINVAL,
                     "--set population.size: expected section.key=value");
    expect_set_error("size=3", NK_EINVAL,
                     "--set size=3: 'size' is not a key; keys are written section.key");
    expect_set_error("population.size=1", NK_ERANGE,
                     "--set population.size=1: population.size: 1 is out of range 2..100000");
    expect_set_error("selection.method=rank", NK_EINVAL,
                     "--set selection.method=rank: selection.method: 'rank' is not one of "
                     "tournament, roulette, linear-rank, truncation, sus (did you mean "
                     "'linear-rank'?)");
    expect_set_error("player.size=3", NK_EINVAL,
                     "--set player.size=3: unknown key 'player.size' (did you mean "
                     "'population.size'?)");
    expect_set_error("population.zzzzz=3", NK_EINVAL,
                     "--set population.zzzzz=3: unknown key 'population.zzzzz'");
}

/* ----- errors in files ----- */

static void test_unknown(void **state)
{
    (void)state;
    expect_load_error("quick.ini",
                      "[experiment]\nname = q\n\n[fitness]\nschedule = sample\n; x\n"
                      "scheme = sample\n",
                      NK_EINVAL,
                      "7: unknown key 'fitness.scheme' (did you mean 'fitness.schedule'?)");
    expect_load_error("tsize.ini", "[selection]\ntournament_szie = 4\n", NK_EINVAL,
                      "2: unknown key 'selection.tournament_szie' (did you mean "
                      "'selection.tournament_size'?)");
    expect_load_error("wrongsec.ini", "[player]\nsize = 4\n", NK_EINVAL,
                      "2: unknown key 'player.size' (did you mean 'population.size'?)");
    expect_load_error("nosugg.ini", "[player]\nquux = 4\n", NK_EINVAL,
                      "2: unknown key 'player.quux'");
    /* unknown sections are reported at their header, even when empty */
    expect_load_error("sec.ini", "[player]\ndepth = 3\n[fitnes]\n", NK_EINVAL,
                      "3: unknown section [fitnes] (did you mean [fitness]?)");
    expect_load_error("sec2.ini", "[ mutation ]\nrate = 0.5\n[zzz]\nk = 1\n", NK_EINVAL,
                      "3: unknown section [zzz]");
}

static void test_bad_values(void **state)
{
    (void)state;
    expect_load_error("int.ini", "[population]\nsize = ten\n", NK_EINVAL,
                      "2: population.size: 'ten' is not an integer");
    expect_load_error("int2.ini", "[population]\nsize = 2.5\n", NK_EINVAL,
                      "2: population.size: '2.5' is not an integer");
    expect_load_error("int3.ini", "[population]\nsize =\n", NK_EINVAL,
                      "2: population.size: '' is not an integer");
    expect_load_error("int4.ini", "[population]\nsize = 99999999999999999999\n", NK_ERANGE,
                      "2: population.size: 99999999999999999999 is out of range 2..100000");
    expect_load_error("u64.ini", "[experiment]\nseed = -1\n", NK_EINVAL,
                      "2: experiment.seed: '-1' is not an unsigned integer");
    expect_load_error("u64b.ini", "[experiment]\nseed = 18446744073709551616\n", NK_ERANGE,
                      "2: experiment.seed: 18446744073709551616 is out of range");
    expect_load_error("dbl.ini", "[crossover]\nrate = high\n", NK_EINVAL,
                      "2: crossover.rate: 'high' is not a finite number");
    expect_load_error("dbl2.ini", "[player]\nweights_min = nan\n", NK_EINVAL,
                      "2: player.weights_min: 'nan' is not a finite number");
    expect_load_error("dbl3.ini", "[player]\nweights_max = 1e999\n", NK_EINVAL,
                      "2: player.weights_max: '1e999' is not a finite number");
    /* decimal only: no hex floats (strtod would read 0x1p-1 as 0.5) */
    expect_load_error("dbl4.ini", "[crossover]\nrate = 0x1p-1\n", NK_EINVAL,
                      "2: crossover.rate: '0x1p-1' is not a finite number");
    expect_load_error("enum.ini", "[selection]\nmethod = tornament\n", NK_EINVAL,
                      "2: selection.method: 'tornament' is not one of tournament, roulette, "
                      "linear-rank, truncation, sus (did you mean 'tournament'?)");
    expect_load_error("enum2.ini", "[strategy]\nkind = cmaes\n", NK_EINVAL,
                      "2: strategy.kind: 'cmaes' is not one of ga, es-plus, es-comma, cma-es, "
                      "sep-cma-es, openai-es (did you mean 'cma-es'?)");
    expect_load_error("enum3.ini", "[output]\nrecord_games = yes\n", NK_EINVAL,
                      "2: output.record_games: 'yes' is not one of auto, on, off");
    expect_load_error("name.ini", "[experiment]\nname = ../etc\n", NK_EINVAL,
                      "2: experiment.name: '../etc' is not a safe file name (1 to 64 letters, "
                      "digits, '.', '_', '-', starting with a letter or digit)");
    expect_load_error("odd.ini", "[benchmark]\ngames = 41\n", NK_EINVAL,
                      "2: benchmark.games: 41 is odd: games are played in pairs, one with each "
                      "colour");

    /* scoring: canonical form, and the rules of nk_scoring_parse */
    nk_config *cfg = fresh();
    assert_int_equal(nk_config_set(cfg, "fitness.scoring= 1, 0 ,-2", err, sizeof err), NK_OK);
    assert_string_equal(nk_config_string(cfg, "fitness.scoring"), "1,0,-2");
    assert_int_equal(nk_config_set(cfg, "fitness.scoring=3.0,1.50,0", err, sizeof err), NK_OK);
    assert_string_equal(nk_config_string(cfg, "fitness.scoring"), "3,1.5,0");
    assert_int_equal(nk_config_set(cfg, "fitness.scoring=seeds", err, sizeof err), NK_OK);
    assert_string_equal(nk_config_string(cfg, "fitness.scoring"), "seeds");
    assert_int_equal(nk_config_set(cfg, "fitness.scoring=0,1,2", err, sizeof err), NK_EINVAL);
    expect_contains(err, "--set fitness.scoring=0,1,2: fitness.scoring: ");
    assert_int_equal(nk_config_set(cfg, "fitness.scoring=2,1", err, sizeof err), NK_EINVAL);
    expect_contains(err, "win,draw,loss");
    nk_config_free(cfg);
}

/* bool has no key in the schema yet: its parser, through a key of its own. */
static void test_bool_and_strings(void **state)
{
    (void)state;
    const nk_config_key flag = {.section = "test",
                                .name = "flag",
                                .key = "test.flag",
                                .type = NK_CFG_BOOL,
                                .def = "false",
                                .help = "a test flag"};
    char canon[64], why[256];
    const char *yes[] = {"true", "Yes", "ON", "1", " TRUE "};
    const char *no[] = {"false", "no", "Off", "0"};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(nk_config_parse_value(&flag, yes[i], canon, sizeof canon, why, sizeof why),
                         NK_OK);
        assert_string_equal(canon, "true");
    }
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(nk_config_parse_value(&flag, no[i], canon, sizeof canon, why, sizeof why),
                         NK_OK);
        assert_string_equal(canon, "false");
    }
    assert_int_equal(nk_config_parse_value(&flag, "maybe", canon, sizeof canon, why, sizeof why),
                     NK_EINVAL);
    assert_string_equal(why, "'maybe' is not a boolean (true/false, yes/no, on/off, 1/0)");

    /* strings must read back as written */
    const nk_config_key *desc = nk_config_key_find("experiment.description");
    assert_int_equal(nk_config_parse_value(desc, "a ; b", canon, sizeof canon, why, sizeof why),
                     NK_EINVAL);
    assert_string_equal(why, "' ;' cannot be part of a value: it starts a comment");
    assert_int_equal(nk_config_parse_value(desc, "a\tb", canon, sizeof canon, why, sizeof why),
                     NK_EINVAL);
    char longtext[300];
    memset(longtext, 'x', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    assert_int_equal(nk_config_parse_value(desc, longtext, canon, sizeof canon, why, sizeof why),
                     NK_EINVAL);
    expect_contains(why, "at most 160");

    /* number bounds in words */
    const nk_config_key *k = nk_config_key_find("mutation.sigma");
    assert_int_equal(nk_config_parse_value(k, "0", canon, sizeof canon, why, sizeof why),
                     NK_ERANGE);
    assert_string_equal(why, "0 is out of range: it must be > 0");
    k = nk_config_key_find("selection.truncation");
    assert_int_equal(nk_config_parse_value(k, "0", canon, sizeof canon, why, sizeof why),
                     NK_ERANGE);
    assert_string_equal(why, "0 is out of range (0, 1]");
    k = nk_config_key_find("crossover.rate");
    assert_int_equal(nk_config_parse_value(k, "1.5", canon, sizeof canon, why, sizeof why),
                     NK_ERANGE);
    assert_string_equal(why, "1.5 is out of range [0, 1]");
    assert_int_equal(nk_config_parse_value(k, "1e0", canon, sizeof canon, why, sizeof why), NK_OK);
    assert_string_equal(canon, "1");
    k = nk_config_key_find("strategy.elitism");
    assert_int_equal(nk_config_parse_value(k, "-1", canon, sizeof canon, why, sizeof why),
                     NK_ERANGE);
    assert_string_equal(why, "-1 is out of range: it must be >= 0");
    k = nk_config_key_find("strategy.sigma_min");
    assert_int_equal(nk_config_parse_value(k, "1", canon, sizeof canon, why, sizeof why),
                     NK_ERANGE);
    assert_string_equal(why, "1 is out of range (0, 1)");
    assert_int_equal(nk_config_parse_value(k, "1e-400", canon, sizeof canon, why, sizeof why),
                     NK_ERANGE);
    assert_int_equal(nk_config_parse_value(k, "0.000025", canon, sizeof canon, why, sizeof why),
                     NK_OK);
    assert_string_equal(canon, "2.5e-5");
}

static void test_out_of_range(void **state)
{
    (void)state;
    expect_load_error("r1.ini", "[population]\nsize = 1\n", NK_ERANGE,
                      "2: population.size: 1 is out of range 2..100000");
    expect_load_error("r2.ini", "[experiment]\ngenerations = 1000001\n", NK_ERANGE,
                      "2: experiment.generations: 1000001 is out of range 1..1000000");
    expect_load_error("r3.ini", "[mutation]\nrate = -0.1\n", NK_ERANGE,
                      "2: mutation.rate: -0.1 is out of range [0, 1]");
    expect_load_error("r4.ini", "[selection]\nrank_pressure = 2.5\n", NK_ERANGE,
                      "2: selection.rank_pressure: 2.5 is out of range [1, 2]");
    expect_load_error("r5.ini", "[fitness]\nopenings = 21\n", NK_ERANGE,
                      "2: fitness.openings: 21 is out of range 0..20");
    expect_load_error("r6.ini", "[crossover]\nsbx_eta = 0\n", NK_ERANGE,
                      "2: crossover.sbx_eta: 0 is out of range: it must be > 0");
}

static void test_duplicate(void **state)
{
    (void)state;
    expect_load_error("dup.ini",
                      "[population]\nsize = 10\n[player]\ndepth = 3\n[population]\nsize = 12\n",
                      NK_EINVAL, "6: duplicate key 'population.size' (already set at line 2)");
    /* but a file may override what it includes, and --set may repeat */
    write_file("dupbase.ini", "[population]\nsize = 10\n");
    nk_config *cfg;
    assert_int_equal(
        load_text("dupok.ini", "include = dupbase.ini\n[population]\nsize = 12\n", &cfg), NK_OK);
    assert_int_equal(nk_config_int(cfg, "population.size"), 12);
    /* loading the same file again is a new load, not a duplicate */
    assert_int_equal(nk_config_load(cfg, tpath("dupok.ini"), err, sizeof err), NK_OK);
    nk_config_free(cfg);
}

static void test_missing_file(void **state)
{
    (void)state;
    nk_config *cfg = fresh();
    char want[1024];
    assert_int_equal(nk_config_load(cfg, tpath("nope.ini"), err, sizeof err), NK_ENOFILE);
    snprintf(want, sizeof want, "%s: cannot open: %s", tpath("nope.ini"), strerror(ENOENT));
    assert_string_equal(err, want);
    assert_int_equal(nk_config_load(cfg, tmpdir, err, sizeof err), NK_ENOFILE);
    snprintf(want, sizeof want, "%s: cannot open: %s", tmpdir, strerror(EISDIR));
    assert_string_equal(err, want);
    nk_config_free(cfg);
    /* nk_config_read frees and returns NULL */
    cfg = (nk_config *)&want;
    assert_int_equal(nk_config_read(&cfg, tpath("nope.ini"), NULL, 0, err, sizeof err), NK_ENOFILE);
    assert_null(cfg);
}

static void test_syntax(void **state)
{
    (void)state;
    expect_load_error("syn1.ini", "[player]\ndepth = 3\n\nthis is not a pair\n", NK_EINVAL,
                      "4: syntax error: expected '[section]', 'key = value' or a comment");
    expect_load_error("syn2.ini", "; x\n[player\ndepth = 3\n", NK_EINVAL,
                      "2: syntax error: expected '[section]', 'key = value' or a comment");
    /* the first error wins, whoever found it */
    expect_load_error("syn3.ini", "[player]\ngarbage\n[population]\nsise = 3\n", NK_EINVAL,
                      "2: syntax error: expected '[section]', 'key = value' or a comment");
    expect_load_error("syn4.ini", "[population]\nsise = 3\ngarbage\n", NK_EINVAL,
                      "2: unknown key 'population.sise' (did you mean 'population.size'?)");
    /* line numbers count every physical line, CRLF files included */
    expect_load_error("crlf.ini", "[player]\r\n\r\n; c\r\ndepth = 0\r\n", NK_ERANGE,
                      "4: player.depth: 0 is out of range 1..30");
    /* lines too long for inih */
    char text[512];
    snprintf(text, sizeof text, "[experiment]\ndescription = %0200d\n", 0);
    expect_load_error("long.ini", text, NK_EINVAL,
                      "2: line is longer than 197 characters (a list may "
                      "continue on indented lines)");
    /* an indented key continues the one above: an error but for lists */
    expect_load_error("indent.ini", "[player]\ndepth = 3\n  ply_limit = 20\n", NK_EINVAL,
                      "3: indented line continues the value of 'player.depth'; only lists of "
                      "player specs may continue on indented lines (remove the indentation)");
    expect_load_error("indent3.ini", "[fitness]\ngauntlet = random;\n  [player]\n", NK_EINVAL,
                      "3: indented line '[player]' continues the value of 'fitness.gauntlet' "
                      "(remove the indentation to start a section)");
    expect_load_error("noname.ini", "[player]\n= 5\n", NK_EINVAL,
                      "2: a key name must come before '='");
    /* ... but an indented first key of a section is fine */
    nk_config *cfg;
    assert_int_equal(
        load_text("indent2.ini", "[player]\n  depth = 4\n[population]\n\tsize = 8\n", &cfg), NK_OK);
    assert_int_equal(nk_config_int(cfg, "player.depth"), 4);
    assert_int_equal(nk_config_int(cfg, "population.size"), 8);
    nk_config_free(cfg);
}

static void test_lists(void **state)
{
    (void)state;
    nk_config *cfg;
    nk_status st = load_text("list.ini",
                             "[benchmark]\n"
                             "opponents = random;\n"
                             "    greedy\n"
                             "\n"
                             "    ; an indented comment is a comment\n"
                             "    ab:depth=3,features=ayo12;ab:depth=1 ;\n"
                             "[fitness]\n"
                             "gauntlet = random;   ; a comment after a finished list\n",
                             &cfg);
    if (st != NK_OK)
        fail_msg("%s", err);
    assert_string_equal(nk_config_text(cfg, "benchmark.opponents"),
                        "random; greedy; ab:depth=3,features=ayo12; ab:depth=1");
    assert_int_equal(nk_config_list_count(cfg, "benchmark.opponents"), 4);
    assert_string_equal(nk_config_list_item(cfg, "benchmark.opponents", 3), "ab:depth=1");
    assert_string_equal(nk_config_text(cfg, "fitness.gauntlet"), "random");
    nk_config_free(cfg);

    /* an empty list */
    assert_int_equal(load_text("empty.ini", "[fitness]\ngauntlet =\n", &cfg), NK_OK);
    assert_int_equal(nk_config_list_count(cfg, "fitness.gauntlet"), 0);
    assert_string_equal(nk_config_text(cfg, "fitness.gauntlet"), "");
    nk_config_free(cfg);

    expect_load_error("cut.ini", "[benchmark]\nopponents = random ; greedy\n", NK_EINVAL,
                      "2: benchmark.opponents: ' ;' after 'random' starts a comment; separate "
                      "specs with ';' right after a spec ('a; b'), and put comments on lines of "
                      "their own");
    /* spec errors are search/player.c's, after file:line and key */
    assert_int_equal(load_text("badspec.ini", "[benchmark]\nopponents = random;\n  grredy\n", &cfg),
                     NK_EINVAL);
    char want[1024];
    snprintf(want, sizeof want, "%s:3: benchmark.opponents: ", tpath("badspec.ini"));
    assert_true(strncmp(err, want, strlen(want)) == 0);
    expect_contains(err, "'grredy'");
    nk_config_free(cfg);
    expect_load_error("human.ini", "[fitness]\ngauntlet = human\n", NK_EINVAL,
                      "2: fitness.gauntlet: player spec 'human' cannot play in a run");
}

/* ----- print -> parse ----- */

static void roundtrip(const nk_config *cfg)
{
    char *text = format(cfg);
    nk_config *back = fresh();
    if (nk_config_load_string(back, text, "printed", err, sizeof err) != NK_OK)
        fail_msg("%s\n%s", err, text);
    const nk_config_key *keys[8];
    size_t n = nk_config_diff(cfg, back, false, keys, 8);
    if (n != 0)
        fail_msg("%zu keys differ after the round trip, first %s: '%s' vs '%s'", n, keys[0]->key,
                 nk_config_text(cfg, keys[0]->key), nk_config_text(back, keys[0]->key));
    char *again = format(back);
    assert_string_equal(text, again);
    /* the same through a file */
    nk_config *fromfile = fresh();
    assert_int_equal(nk_config_load(fromfile, write_file("printed.ini", text), err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_config_diff(cfg, fromfile, false, keys, 8), 0);
    /* every key is there, after its description */
    for (size_t i = 0; i < nk_config_schema_count(); i++) {
        const nk_config_key *k = nk_config_schema(i);
        char line[512];
        snprintf(line, sizeof line, "; %s\n%s =", k->help, k->name);
        expect_contains(text, line);
    }
    nk_config_free(fromfile);
    free(again);
    nk_config_free(back);
    free(text);
}

static void test_roundtrip(void **state)
{
    (void)state;
    nk_config *cfg = fresh();
    roundtrip(cfg);
    const char *sets[] = {
        "experiment.description=mixed text: # hash, = sign; semicolon;x and 'quotes'",
        "experiment.seed=12345678901234567890",
        "player.weights_min=-0.30000000000000004",
        "player.weights_max=1e10",
        "strategy.sigma0=0.1",
        "strategy.sigma_min=3e-7",
        "mutation.rate=0.333333333333333314829616256247",
        "fitness.scoring=1,0,-2",
        "fitness.gauntlet=random;greedy;ab:depth=1,features=material;"
        "ab:depth=2,features=positional;ab:depth=3,features=positional;"
        "ab:depth=4,features=positional;ab:depth=5,features=positional",
        "benchmark.opponents=",
        "output.file=results/x y/run.h5",
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (nk_config_set(cfg, sets[i], err, sizeof err) != NK_OK)
            fail_msg("%s", err);
    char *text = format(cfg);
    /* the long list wraps onto indented continuation lines */
    expect_contains(text, ";\n    ab:depth=");
    expect_contains(text, "\nopponents =\n");
    expect_contains(text, "\nweights_min = -0.30000000000000004\n");
    expect_contains(text, "\nsigma_min = 3e-7\n");
    free(text);
    roundtrip(cfg);
    nk_config_free(cfg);

    /* strings that look like comments or separators read back as written */
    cfg = fresh();
    assert_int_equal(nk_config_set(cfg, "experiment.description=;x", err, sizeof err), NK_EINVAL);
    assert_string_equal(err, "--set experiment.description=;x: experiment.description: a value "
                             "cannot start with ';' (it reads as a comment)");
    nk_config_free(cfg);
    const char *tricky[] = {
        "#starts with a hash",    "semi;colon", "has: a colon = and an equals sign",
        "ends with a semicolon;", "[brackets]", "x"};
    for (size_t i = 0; i < sizeof tricky / sizeof tricky[0]; i++) {
        char set[256];
        snprintf(set, sizeof set, "experiment.description=%s", tricky[i]);
        cfg = fresh();
        assert_int_equal(nk_config_set(cfg, set, err, sizeof err), NK_OK);
        assert_string_equal(nk_config_string(cfg, "experiment.description"), tricky[i]);
        roundtrip(cfg);
        nk_config_free(cfg);
    }

    /* nk_config_format is snprintf-like */
    cfg = fresh();
    size_t n = nk_config_format(cfg, NULL, 0);
    char small[16];
    assert_int_equal(nk_config_format(cfg, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    FILE *f = fopen(tpath("print.ini"), "w");
    assert_non_null(f);
    assert_int_equal(nk_config_print(cfg, f), NK_OK);
    fclose(f);
    char *printed = read_all(tpath("print.ini"));
    text = format(cfg);
    assert_string_equal(printed, text);
    free(printed);
    free(text);
    nk_config_free(cfg);
}

/* ----- comparing ----- */

static void test_diff(void **state)
{
    (void)state;
    nk_config *a = fresh(), *b = fresh();
    const nk_config_key *keys[8];
    assert_int_equal(nk_config_diff(a, b, false, keys, 8), 0);
    assert_int_equal(nk_config_check_resume(a, b, err, sizeof err), NK_OK);
    /* equal values written differently are equal */
    assert_int_equal(nk_config_set(b, "crossover.rate=0.90", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(b, "fitness.scoring=2, 1, 0", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(b,
                                   "benchmark.opponents=random;greedy ;"
                                   "ab:depth=2,features=positional",
                                   err, sizeof err),
                     NK_OK);
    assert_int_equal(nk_config_diff(a, b, false, keys, 8), 0);

    assert_int_equal(nk_config_set(b, "output.file=other.h5", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(b, "population.size=20", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(b, "experiment.generations=100", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(b, "mutation.sigma=0.2", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_diff(a, b, false, keys, 8), 4);
    assert_string_equal(keys[0]->key, "experiment.generations"); /* schema order */
    assert_string_equal(keys[1]->key, "population.size");
    assert_string_equal(keys[2]->key, "mutation.sigma");
    assert_string_equal(keys[3]->key, "output.file");
    assert_int_equal(nk_config_diff(a, b, false, keys, 2), 4); /* counts past max */
    assert_int_equal(nk_config_diff(a, b, true, keys, 8), 2);
    assert_string_equal(keys[0]->key, "population.size");
    assert_string_equal(keys[1]->key, "mutation.sigma");
    assert_int_equal(nk_config_check_resume(a, b, err, sizeof err), NK_EMISMATCH);
    assert_string_equal(err, "the run file was made from another configuration: "
                             "population.size is '16' in the run file, '20' now; "
                             "mutation.sigma is '0.1' in the run file, '0.2' now");
    /* only the keys that may differ: resume is fine */
    assert_int_equal(nk_config_set(b, "population.size=16", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(b, "mutation.sigma=0.1", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_check_resume(a, b, err, sizeof err), NK_OK);
    const char *more[] = {"player.depth=3", "player.ply_limit=10", "population.bits=4",
                          "strategy.mu=2",  "strategy.lambda=3",   "fitness.k=2"};
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(nk_config_set(b, more[i], err, sizeof err), NK_OK);
    assert_int_equal(nk_config_check_resume(a, b, err, sizeof err), NK_EMISMATCH);
    expect_contains(err, "; and 2 more");
    nk_config_free(a);
    nk_config_free(b);
}

/* ----- rules across keys ----- */

static void expect_rule(const char *const *sets, size_t n, nk_status st, const char *msg)
{
    nk_config *cfg = fresh();
    for (size_t i = 0; i < n; i++)
        if (nk_config_set(cfg, sets[i], err, sizeof err) != NK_OK)
            fail_msg("%s", err);
    assert_int_equal(nk_config_validate(cfg, err, sizeof err), st);
    if (msg != NULL)
        assert_string_equal(err, msg);
    nk_config_free(cfg);
}

#define RULE(st, msg, ...)                                                                         \
    do {                                                                                           \
        const char *s_[] = {__VA_ARGS__};                                                          \
        expect_rule(s_, sizeof s_ / sizeof s_[0], st, msg);                                        \
    } while (0)

static void test_validate(void **state)
{
    (void)state;
    RULE(NK_ERANGE, "player.weights_min = 1 (--set) must be below player.weights_max = 1 (default)",
         "player.weights_min=1");
    RULE(NK_ERANGE, "strategy.mu = 20 (--set) must be at most strategy.lambda = 16 (default)",
         "strategy.kind=es-comma", "strategy.mu=20", "mutation.method=lognormal");
    RULE(NK_OK, NULL, "strategy.kind=es-plus", "strategy.mu=20", "mutation.method=lognormal");
    RULE(NK_ERANGE, "strategy.elitism = 16 (--set) must be below population.size = 16 (default)",
         "strategy.elitism=16");
    RULE(NK_ERANGE,
         "selection.tournament_size = 5 (--set) must be at most population.size = 4 (--set)",
         "population.size=4", "selection.tournament_size=5");
    RULE(NK_OK, NULL, "population.size=4", "selection.tournament_size=5", "selection.method=sus");
    RULE(NK_EINVAL,
         "crossover.method = blx-alpha (default) does not work on binary genomes "
         "(population.encoding = binary (--set))",
         "population.encoding=binary");
    RULE(NK_EINVAL,
         "mutation.method = gaussian (default) does not work on binary genomes "
         "(population.encoding = binary (--set))",
         "population.encoding=binary", "crossover.method=two-point");
    RULE(NK_OK, NULL, "population.encoding=binary", "crossover.method=two-point",
         "mutation.method=bit-flip");
    RULE(NK_EINVAL,
         "mutation.method = bit-flip (--set) does not work on real genomes "
         "(population.encoding = real (default))",
         "mutation.method=bit-flip");
    RULE(NK_EINVAL, "fitness.schedule = gauntlet (--set) needs players in fitness.gauntlet",
         "fitness.schedule=gauntlet", "fitness.gauntlet=");
    RULE(NK_EINVAL,
         "fitness.gauntlet = greedy; ext:/bin/true (--set) holds an ext: player, which can be a "
         "benchmark opponent (benchmark.opponents) but not a fitness opponent",
         "fitness.schedule=gauntlet", "fitness.gauntlet=greedy; ext:/bin/true");
    RULE(NK_OK, NULL, "fitness.gauntlet=greedy; ext:/bin/true");
    RULE(NK_ERANGE,
         "fitness.k = 16 (--set) must be below the 16 individuals evaluated per generation "
         "(fitness.schedule = random-k (--set))",
         "fitness.schedule=random-k", "fitness.k=16");
    RULE(NK_ERANGE, NULL, "fitness.schedule=random-k", "strategy.kind=es-comma", "strategy.mu=2",
         "strategy.lambda=4", "fitness.k=4", "mutation.method=lognormal");
    RULE(NK_OK, NULL, "fitness.schedule=random-k", "strategy.kind=es-plus", "strategy.mu=2",
         "strategy.lambda=4", "fitness.k=5", "mutation.method=lognormal");
    /* one individual per generation has no one to play but a gauntlet */
    RULE(NK_ERANGE,
         "strategy.lambda = 1 (--set) leaves 1 individual evaluated per generation; "
         "fitness.schedule = round-robin (default) needs at least 2",
         "strategy.kind=es-comma", "strategy.mu=1", "strategy.lambda=1",
         "mutation.method=lognormal");
    RULE(NK_OK, NULL, "strategy.kind=es-comma", "strategy.mu=1", "strategy.lambda=1",
         "mutation.method=lognormal", "fitness.schedule=gauntlet");
    RULE(NK_EINVAL, "benchmark.every = 5 (default) needs players in benchmark.opponents",
         "benchmark.opponents=");
    RULE(NK_OK, NULL, "benchmark.opponents=", "benchmark.every=0");

    /* nk_config_read: file, --set in order, then the rules */
    const char *path = write_file("read.ini", "[population]\nsize = 10\n");
    const char *sets[] = {"population.size=12", "player.depth=3"};
    nk_config *cfg;
    assert_int_equal(nk_config_read(&cfg, path, sets, 2, err, sizeof err), NK_OK);
    assert_int_equal(nk_config_int(cfg, "population.size"), 12);
    assert_int_equal(nk_config_int(cfg, "player.depth"), 3);
    nk_config_free(cfg);
    const char *bad[] = {"player.weights_max=-5"};
    assert_int_equal(nk_config_read(&cfg, path, bad, 1, err, sizeof err), NK_ERANGE);
    assert_null(cfg);
}

/* ----- the repository's files ----- */

static const char *source_dir(void)
{
    const char *dir = getenv("NICKAR_SOURCE_DIR");
    return dir != NULL ? dir : ".";
}

/* Every .ini file of configs/ loads, passes the rules and round-trips. */
static void test_examples(void **state)
{
    (void)state;
    char dirpath[1024];
    snprintf(dirpath, sizeof dirpath, "%s/configs", source_dir());
    DIR *d = opendir(dirpath);
    assert_non_null(d);
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ini") != 0)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dirpath, e->d_name);
        nk_config *cfg;
        if (nk_config_read(&cfg, path, NULL, 0, err, sizeof err) != NK_OK)
            fail_msg("%s", err);
        roundtrip(cfg);
        nk_config_free(cfg);
        seen++;
    }
    closedir(d);
    assert_true(seen >= 3);
}

/* configs/README.md is nk_config_doc_markdown(), byte for byte. */
static void test_doc(void **state)
{
    (void)state;
    size_t n = nk_config_doc_markdown(NULL, 0);
    char *doc = malloc(n + 1);
    assert_non_null(doc);
    assert_int_equal(nk_config_doc_markdown(doc, n + 1), n);
    /* every key is in it */
    for (size_t i = 0; i < nk_config_schema_count(); i++) {
        char cell[128];
        snprintf(cell, sizeof cell, "| `%s` |", nk_config_schema(i)->key);
        expect_contains(doc, cell);
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/README.md", source_dir());
    const char *regen = getenv("NICKAR_REGEN_DOCS");
    if (regen != NULL && strcmp(regen, "1") == 0) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(fwrite(doc, 1, n, f), n);
        assert_int_equal(fclose(f), 0);
        print_message("rewrote %s\n", path);
        free(doc);
        return;
    }
    char *file = read_all(path);
    if (file == NULL)
        fail_msg("cannot read %s; make it with NICKAR_REGEN_DOCS=1 test_io_config", path);
    if (strcmp(file, doc) != 0) {
        int line = 1;
        size_t i = 0;
        while (file[i] != '\0' && file[i] == doc[i]) {
            if (file[i] == '\n')
                line++;
            i++;
        }
        print_error("%s differs from the schema from line %d on.\n"
                    "Regenerate it: NICKAR_REGEN_DOCS=1 <build>/tests/test_io_config\n",
                    path, line);
        free(file);
        free(doc);
        fail();
    }
    free(file);
    free(doc);
}

/* Hostile files: only regular files of at most 1 MiB are read, a long line
 * is refused without being read in whole, a read error is an error. */
static void test_limits(void **state)
{
    (void)state;
    nk_config *cfg = fresh();
    char want[1024];
    /* devices, FIFOs and directories, named directly or included */
    assert_int_equal(nk_config_load(cfg, "/dev/zero", err, sizeof err), NK_ENOFILE);
    assert_string_equal(err, "/dev/zero: cannot open: not a regular file");
    expect_load_error("zero.ini", "include = /dev/zero\n", NK_ENOFILE,
                      "1: cannot open included file /dev/zero: not a regular file");
    expect_load_error("rand.ini", "; random bytes\ninclude = /dev/urandom\n", NK_ENOFILE,
                      "2: cannot open included file /dev/urandom: not a regular file");
    assert_int_equal(mkfifo(tpath("fifo"), 0600), 0);
    nk_config *c2;
    assert_int_equal(load_text("fifo.ini", "include = fifo\n", &c2), NK_ENOFILE);
    nk_config_free(c2);
    snprintf(want, sizeof want, "%s:1: cannot open included file %s: not a regular file",
             tpath("fifo.ini"), tpath("fifo"));
    assert_string_equal(err, want);
    assert_int_equal(nk_config_load(cfg, tpath("fifo"), err, sizeof err), NK_ENOFILE);
    snprintf(want, sizeof want, "%s: cannot open: not a regular file", tpath("fifo"));
    assert_string_equal(err, want);
    assert_int_equal(nk_config_load(cfg, tmpdir, err, sizeof err), NK_ENOFILE);
    expect_contains(err, "cannot open: Is a directory");
    /* includes nest at most 16 deep: d0 -> d1 -> ... -> d16 is fine, d17 is not */
    char name[32], body[64];
    for (int i = 0; i <= 17; i++) {
        snprintf(name, sizeof name, "d%d.ini", i);
        snprintf(body, sizeof body, i < 17 ? "include = d%d.ini\n" : "[player]\ndepth = 3\n",
                 i + 1);
        write_file(name, body);
    }
    nk_config *deep = fresh();
    assert_int_equal(nk_config_load(deep, tpath("d1.ini"), err, sizeof err), NK_OK);
    assert_int_equal(nk_config_int(deep, "player.depth"), 3);
    nk_config_free(deep);
    deep = fresh();
    assert_int_equal(nk_config_load(deep, tpath("d0.ini"), err, sizeof err), NK_EINVAL);
    snprintf(want, sizeof want, "%s:1: includes nested more than 16 deep", tpath("d16.ini"));
    assert_string_equal(err, want);
    nk_config_free(deep);
    /* a file over 1 MiB, even of empty lines, is refused before reading */
    FILE *f = fopen(tpath("big.ini"), "w");
    assert_non_null(f);
    for (int i = 0; i <= NK_CONFIG_FILE_MAX; i++)
        fputc('\n', f);
    fclose(f);
    assert_int_equal(nk_config_load(cfg, tpath("big.ini"), err, sizeof err), NK_ENOFILE);
    snprintf(want, sizeof want, "%s: cannot open: larger than 1 MiB", tpath("big.ini"));
    assert_string_equal(err, want);
    /* exactly 1 MiB of comment lines is fine */
    f = fopen(tpath("full.ini"), "w");
    assert_non_null(f);
    for (int i = 0; i < NK_CONFIG_FILE_MAX / 4; i++)
        fputs(";ab\n", f);
    fclose(f);
    assert_int_equal(nk_config_load(cfg, tpath("full.ini"), err, sizeof err), NK_OK);
    /* a line of 1 MB is stopped at the limit, in a file and in text */
    f = fopen(tpath("long.ini"), "w");
    assert_non_null(f);
    fputs("[experiment]\ndescription = ", f);
    for (int i = 0; i < 100000; i++)
        fputs("xxxxxxxxxx", f);
    fclose(f);
    assert_int_equal(nk_config_load(cfg, tpath("long.ini"), err, sizeof err), NK_EINVAL);
    snprintf(want, sizeof want,
             "%s:2: line is longer than 197 characters (a list may continue on indented lines)",
             tpath("long.ini"));
    assert_string_equal(err, want);
    char line[512];
    snprintf(line, sizeof line, "[experiment]\n; fine\ndescription = %0190d\n[player]\nsise = 3\n", 0);
    expect_load_error("long2.ini", line, NK_EINVAL,
                      "3: line is longer than 197 characters (a list may continue on indented "
                      "lines)");
    size_t n = 5000000;
    char *text = malloc(n + 1);
    assert_non_null(text);
    memset(text, 'y', n);
    memcpy(text, "[experiment]\ndescription = ", 27);
    text[n] = '\0';
    assert_int_equal(nk_config_load_string(cfg, text, "text", err, sizeof err), NK_EINVAL);
    assert_string_equal(err, "text:2: line is longer than 197 characters (a list may continue "
                             "on indented lines)");
    /* text over 1 MiB in short lines */
    for (size_t i = 0; i < n; i += 2)
        memcpy(text + i, ";\n", 2);
    assert_int_equal(nk_config_load_string(cfg, text, "text", err, sizeof err), NK_EINVAL);
    snprintf(want, sizeof want, "text:%d: the file is larger than %d bytes (1 MiB)",
             NK_CONFIG_FILE_MAX / 2 + 1, NK_CONFIG_FILE_MAX);
    assert_string_equal(err, want);
    free(text);
    /* a read error is an error, not the end of the file (reading
     * /proc/self/mem at offset 0 fails with EIO) */
    if (access("/proc/self/mem", R_OK) == 0) {
        assert_int_equal(nk_config_load(cfg, "/proc/self/mem", err, sizeof err), NK_EIO);
        expect_contains(err, "/proc/self/mem");
        expect_contains(err, "cannot read");
    }
    nk_config_free(cfg);
}

/* Weight bounds must stay finite through the run: at most 1e100 across. */
static void test_weight_bounds(void **state)
{
    (void)state;
    expect_set_error("player.weights_max=1e308", NK_ERANGE,
                     "--set player.weights_max=1e308: player.weights_max: 1e308 is out of "
                     "range [-1e100, 1e100]");
    expect_set_error("player.weights_min=-1e101", NK_ERANGE,
                     "--set player.weights_min=-1e101: player.weights_min: -1e101 is out of "
                     "range [-1e100, 1e100]");
    expect_load_error("wb.ini", "[player]\nweights_min = -1e308\n", NK_ERANGE,
                      "2: player.weights_min: -1e308 is out of range [-1e100, 1e100]");
    nk_config *cfg = fresh();
    assert_int_equal(nk_config_set(cfg, "player.weights_min=-1e100", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_set(cfg, "player.weights_max=1e100", err, sizeof err), NK_OK);
    assert_int_equal(nk_config_validate(cfg, err, sizeof err), NK_OK);
    nk_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_schema_choices),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_include),
        cmocka_unit_test(test_include_cycle),
        cmocka_unit_test(test_load_string),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_bool_and_strings),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_duplicate),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_syntax),
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_diff),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_doc),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_weight_bounds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
