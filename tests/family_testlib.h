/*
 * family_testlib.h -- for the cmocka tests of the evaluation families
 * (test_search_ntuple.c, test_search_nnet.c): positions from text and from
 * random games, a weights file written with numbers drawn from a seed, and
 * a player loaded from it through the io layer.  Static functions: each
 * test that includes it is one program.
 */
#ifndef NK_FAMILY_TESTLIB_H
#define NK_FAMILY_TESTLIB_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "io/playerio.h"
#include "search/eval.h"

static nk_pos pos_of(const char *text)
{
    nk_pos p;
    char err[128];
    if (nk_pos_parse(&p, text, err, sizeof err) != NK_OK)
        fail_msg("bad test position '%s': %s", text, err);
    return p;
}

/* A random position of a random game of v. */
static nk_pos random_pos(const nk_variant *v, nk_rng *rng)
{
    nk_pos p;
    nk_pos_start(&p, (int)nk_rng_below(rng, 2));
    unsigned plies = nk_rng_below(rng, 80);
    for (unsigned j = 0; j < plies && nk_pos_end(v, &p) == NK_END_NONE; j++) {
        nk_pos child;
        if (nk_random_child(v, &p, rng, &child, NULL) == NK_NO_MOVE)
            break;
        p = child;
    }
    return p;
}

/* Writes a weights file of n numbers into a new file whose name goes to
 * path (a mkstemp template): a comment naming features, then w[i] =
 * (a draw in [-2^29, 2^29)) / div, one a line, kept in w[0..n). */
static void weights_file_write(char *path, const char *features, double *w, size_t n, double div)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    nk_rng rng = {5};
    fprintf(f, "# %s\n", features);
    for (size_t i = 0; i < n; i++) {
        w[i] = ((double)nk_rng_below(&rng, 1u << 30) - (1 << 29)) / div;
        fprintf(f, "%.17g\n", w[i]);
    }
    fclose(f);
}

/* `ab:depth=2,features=F,weights=PATH` loads in v through the io layer,
 * holds exactly w[0..n) and moves. */
static void weights_file_plays(const char *features, const char *path, const nk_variant *v,
                               const double *w, size_t n)
{
    char spec[512], err[512];
    snprintf(spec, sizeof spec, "ab:depth=2,features=%s,weights=%s", features, path);
    nk_player_def def;
    if (nk_playerio_load(&def, spec, v, err, sizeof err) != NK_OK)
        fail_msg("%s: %s", spec, err);
    assert_int_equal(def.n, 0); /* the numbers travel by name (eval.h) */
    nk_player *p;
    assert_int_equal(nk_playerio_new(&p, &def, v, err, sizeof err), NK_OK);
    const double *got;
    assert_int_equal(nk_eval_weights(nk_player_eval(p), &got), n);
    for (size_t i = 0; i < n; i++)
        assert_true(got[i] == w[i]);
    /* The player searches with them. */
    nk_game g;
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    nk_game_init(&g, v, &start, NK_DEFAULT_PLY_LIMIT);
    nk_rng r2 = {1};
    assert_true(nk_player_move(p, &g, &r2, NULL) != NK_NO_MOVE);
    nk_player_free(p);
}

/* `ab:depth=2,features=F,weights=PATH` is refused in v with a one-line
 * message naming the file and holding says. */
static void weights_file_refused(const char *features, const char *path, const nk_variant *v,
                                 const char *says)
{
    char spec[512], err[512] = "";
    snprintf(spec, sizeof spec, "ab:depth=2,features=%s,weights=%s", features, path);
    nk_player_def def;
    assert_int_equal(nk_playerio_load(&def, spec, v, err, sizeof err), NK_EINVAL);
    if (strstr(err, path) == NULL || strstr(err, says) == NULL)
        fail_msg("%s says '%s', not the file and '%s'", spec, err, says);
    assert_null(strchr(err, '\n'));
}

#endif
