/*
 * bench.c -- the search benchmark: a fixed set of positions searched to a
 * fixed depth with each feature set's default weights (an evaluation
 * family's: bench_weights).  Its node count is
 * the search signature (search.h): it changes when the search, the
 * evaluation, the default weights or the rules change, and only then.
 *
 * Positions: for every variant the set suits, BENCH_GAMES games of
 * BENCH_MIN_PLIES + (0..BENCH_SPREAD-1) random plies from the start
 * position (South first), game i of variant k seeded with
 * nk_seed_mix(BENCH_SEED, k, i); games that ended early are skipped.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/player.h"
#include "base/alloc.h"
#include "search/eval.h"
#include "search/search.h"

/* The table is a player's default (NK_SPEC_DEFAULT_TT_MB). */
enum { BENCH_GAMES = 24, BENCH_MIN_PLIES = 4, BENCH_SPREAD = 48 };
static const uint64_t BENCH_SEED = 0x6E69636B6172ull; /* "nickar" */

/* Depth per feature set: deep enough that the bench measures search more
 * than setup, small enough for a sanitizer build.  Sets not listed: 6. */
static unsigned bench_depth(const nk_feature_set *set)
{
    static const struct {
        const char *name;
        unsigned depth;
    } depths[] = {{"material", 9}, {"ayo12", 8}, {"positional", 8}, {"adjikui", 10},
                  {"ntuple", 8}, {"nnet", 8}};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++)
        if (strcmp(depths[i].name, set->name) == 0)
            return depths[i].depth;
    return 6;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The weights of the bench: a linear set's defaults (w NULL); for another
 * family, whose default tables are all 0 (a material search), the store
 * term 1 and every other weight drawn uniformly in [-0.5, 0.5) from a
 * fixed seed, so that the tree is one of a real evaluation's. */
static nk_status bench_weights(const char *features, const nk_variant *v, double **w, size_t *n)
{
    char name[8];
    *w = NULL;
    *n = 0;
    if (nk_eval_family_of(features) == nk_eval_family_at(0))
        return NK_OK;
    nk_status st = nk_eval_features_count(features, v, n, name, sizeof name, NULL, 0);
    if (st != NK_OK)
        return st;
    if ((*w = nk_malloc(*n * sizeof **w)) == NULL)
        return NK_ENOMEM;
    nk_rng rng = {BENCH_SEED};
    (*w)[0] = 1.0;
    for (size_t i = 1; i < *n; i++)
        (*w)[i] = (double)nk_rng_below(&rng, 1u << 20) / (1u << 20) - 0.5;
    return NK_OK;
}

/* Searches the bench positions of one variant; adds to out. */
static nk_status bench_variant(const char *features, const nk_variant *v, size_t k, nk_game *g,
                               nk_search_bench *out)
{
    nk_eval e;
    nk_search *s;
    double *w = NULL;
    size_t n = 0;
    nk_status st = bench_weights(features, v, &w, &n);
    if (st == NK_OK)
        st = nk_eval_setup(&e, v, features, w, n, NULL, 0);
    nk_free(w);
    if (st == NK_OK && (st = nk_search_new(&s, &e, NK_SPEC_DEFAULT_TT_MB)) != NK_OK)
        nk_eval_free(&e);
    if (st != NK_OK)
        return st;
    nk_search_clear(s);
    const nk_search_limits lim = {bench_depth(e.set), 0, 0.0};
    for (unsigned i = 0; i < BENCH_GAMES; i++) {
        nk_rng rng = {nk_seed_mix(BENCH_SEED, k, i)};
        nk_pos start;
        nk_pos_start(&start, NK_SOUTH);
        nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT);
        unsigned plies = BENCH_MIN_PLIES + nk_rng_below(&rng, BENCH_SPREAD);
        for (unsigned p = 0; p < plies && !nk_game_over(g); p++)
            nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
        if (nk_game_over(g))
            continue;
        nk_search_result r;
        double t0 = seconds_now();
        nk_search_best(s, g, &lim, &r);
        out->seconds += seconds_now() - t0;
        out->nodes += r.nodes;
        out->positions++;
    }
    nk_search_free(s);
    nk_eval_free(&e);
    return NK_OK;
}

nk_status nk_search_bench_run(const char *set_name, nk_search_bench *out)
{
    memset(out, 0, sizeof *out);
    if (nk_eval_features_check(set_name, NULL, 0) != NK_OK)
        return NK_EINVAL;
    nk_game *g = nk_malloc(sizeof *g);
    if (g == NULL)
        return NK_ENOMEM;
    nk_status st = NK_OK;
    for (size_t k = 0; k < nk_variant_count() && st == NK_OK; k++) {
        const nk_variant *v = nk_variant_at(k);
        size_t n;
        char name[8];
        if (nk_eval_features_count(set_name, v, &n, name, sizeof name, NULL, 0) == NK_OK)
            st = bench_variant(set_name, v, k, g, out);
    }
    nk_free(g);
    return st;
}
