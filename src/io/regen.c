/*
 * regen.c -- fitness games of a run file played again (io/regen.h).
 *
 * The players are made as the evolution made them: a population member is
 * the run's player (run/settings.h, nk_run_player_of) with its genome of
 * that generation, a hall-of-fame entrant the champion of its generation
 * (evolve/genome.h, nk_fitness_best), gauntlet player k is the k-th spec of
 * fitness.gauntlet with its weights resolved; the game is the job
 * nk_exec_pairs makes for meeting i of batch G, or, in a run whose
 * fitness.unit is match, the job arena/meetings.h made for its game of a
 * match (match_job).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/param.h"
#include "base/rng.h"
#include "exec/exec.h"
#include "io/config.h"
#include "io/playerio.h"
#include "io/regen.h"
#include "io/runfile.h"
#include "run/record.h"
#include "run/settings.h"
#include "search/eval.h"

typedef struct regen {
    const char *path; /* the run file's path (a copy, without the selector) */
    nk_run *run;
    nk_config *cfg;
    nk_run_settings s;
    nk_run_player player; /* the run's evolving players */
    const nk_variant *v;
    nk_player_def def[2];
    char name[2][NK_RECORD_SPEC];
} regen;

/* Splits "RUN@gen=G,game=J" or "RUN@game=K": gen is 0 for the second form. */
static bool selector(const char *source, size_t *at, unsigned long *gen, unsigned long *game)
{
    const char *a = strrchr(source, '@');
    static const char *const one[] = {"game"}, *const two[] = {"gen", "game"};
    uint64_t v[2];
    if (a == NULL || a == source)
        return false;
    *at = (size_t)(a - source);
    *gen = 0;
    if (nk_param_read_keyed(a + 1, one, v, 1) && v[0] > 0 && v[0] <= ULONG_MAX) {
        *game = (unsigned long)v[0];
        return true;
    }
    if (!nk_param_read_keyed(a + 1, two, v, 2) || v[0] == 0 || v[1] == 0 || v[0] > ULONG_MAX ||
        v[1] > ULONG_MAX)
        return false;
    *gen = (unsigned long)v[0];
    *game = (unsigned long)v[1];
    return true;
}

bool nk_regen_source(const char *source)
{
    size_t at;
    unsigned long gen, game;
    const char *a = strrchr(source, '@');
    return selector(source, &at, &gen, &game) ||
           (a != NULL && (strncmp(a + 1, "game=", 5) == 0 || strncmp(a + 1, "gen=", 4) == 0));
}

/* The evolving player whose weights are those of individual id of
 * generation g (0-based), or, with id < 0, of that generation's champion
 * (nk_fitness_best, as run/evolution.c picks it). */
static nk_status from_population(regen *r, int side, int64_t id, size_t g, char *err,
                                 size_t len)
{
    nk_player_def *d = &r->def[side];
    const nk_run_meta *m = nk_run_get_meta(r->run);
    const char *spec = r->player.spec.text;
    d->spec = r->player.spec;
    double *genome = nk_malloc(m->n * m->d * sizeof *genome);
    double *fitness = nk_malloc(m->n * sizeof *fitness);
    int64_t *ids = nk_malloc(m->n * sizeof *ids);
    nk_run_pop pop = {.genome = genome, .fitness = fitness, .ids = ids};
    nk_status st = genome == NULL || fitness == NULL || ids == NULL
                       ? nk_fail(NK_ENOMEM, err, len, "out of memory")
                       : nk_run_read_population(r->run, g, &pop, err, len);
    size_t i = 0;
    if (st == NK_OK && id < 0) {
        i = nk_fitness_best(fitness, m->n);
    } else {
        while (st == NK_OK && i < m->n && ids[i] != id)
            i++;
        if (st == NK_OK && i == m->n)
            st = nk_fail(NK_EFORMAT, err, len, "individual %lld is not in generation %zu",
                         (long long)id, g + 1);
    }
    if (st == NK_OK && isnan(genome[i * m->d]))
        st = nk_fail(NK_ERANGE, err, len,
                     "individual %lld of generation %zu: the run kept only its champion's weights "
                     "there (output.population_every)",
                     (long long)ids[i], g + 1);
    if (st == NK_OK && m->d > NK_MAX_FEATURES) {
        /* An evaluation family's genome, too long for d->weights: it
         * travels by name (search/eval.h), under "RUN@gen=G,id=I". */
        d->n = 0;
        snprintf(d->spec.weights, sizeof d->spec.weights, "%.400s@gen=%zu,id=%lld",
                 nk_run_path(r->run), g + 1, (long long)ids[i]);
        st = nk_eval_shared_put(d->spec.weights, genome + i * m->d, m->d, err, len);
    } else if (st == NK_OK) {
        d->n = m->d;
        memcpy(d->weights, genome + i * m->d, m->d * sizeof *genome);
    }
    if (st == NK_OK) {
        /* the spec cut at 480 bytes, so that ",id=N" always fits */
        snprintf(r->name[side], sizeof r->name[side], "%.480s,id=%lld", spec,
                 (long long)(id >= 0 ? id : ids[i]));
    }
    nk_free(genome);
    nk_free(fitness);
    nk_free(ids);
    return st;
}

/* The player of entrant id in generation g (0-based): a member of the
 * population, of the hall of fame (the champions of the generations
 * before g, at most fitness.hall_size of them, oldest first: hall entrant
 * h of generation g is the champion of generation g - H + h, H = min(g,
 * hall_size)), or of the gauntlet. */
static nk_status entrant(regen *r, int side, int64_t id, size_t g, char *err, size_t len)
{
    nk_player_def *d = &r->def[side];
    char e2[NK_MSG_MAX];
    if (id >= 0)
        return from_population(r, side, id, g, err, len);
    if (id > NK_RUN_GAUNTLET_ID_BASE) {
        size_t h = (size_t)(NK_RUN_HALL_ID_BASE - id);
        size_t cap = r->s.fitness.hall_size > 0 ? (size_t)r->s.fitness.hall_size : 0;
        size_t held = g < cap ? g : cap;
        if (h >= held)
            return nk_fail(NK_EFORMAT, err, len,
                           "hall of fame entrant %zu of generation %zu: the hall holds %zu",
                           h, g + 1, held);
        return from_population(r, side, -1, g - held + h, err, len);
    }
    size_t k = (size_t)(NK_RUN_GAUNTLET_ID_BASE - id);
    if (k >= nk_config_list_count(r->cfg, "fitness.gauntlet"))
        return nk_fail(NK_EFORMAT, err, len, "gauntlet player %zu is not in the run's config", k);
    const char *text = nk_config_list_item(r->cfg, "fitness.gauntlet", k);
    nk_status st = nk_playerio_load(d, text, r->v, e2, sizeof e2);
    if (st != NK_OK)
        return nk_fail(st, err, len, "gauntlet player '%s': %s", text, e2);
    snprintf(r->name[side], sizeof r->name[side], "%s", d->spec.text);
    return NK_OK;
}

/* In a run with fitness.unit match: the job of game j of generation g,
 * whose rows are gen[0..n).  The rows run meeting by meeting, the match
 * with a South then the one with b South, game by game (arena/meetings.h);
 * game r of match k of meeting i has the seed nk_seed_mix(P, 1 + k, r), P
 * the pairing's seed, and starts from the position that the results of
 * the match's games before it give (nk_match). */
static nk_status match_job(const regen *r, size_t g, const nk_run_game *gen, size_t n, size_t j,
                           nk_exec_job *job, char *err, size_t len)
{
    const nk_run_meta *m = nk_run_get_meta(r->run);
    size_t pos = 0;
    for (size_t i = 0; pos < n; i++) {
        uint64_t pair = nk_exec_seed(m->master_seed, g, i);
        for (unsigned k = 0; k < 2; k++) {
            nk_match mt;
            nk_match_init(&mt, r->v, 0, (unsigned)r->s.fitness.match_games);
            for (unsigned rd = 0; !nk_match_over(&mt); rd++, pos++) {
                if (pos >= n || gen[pos].seed != nk_seed_mix(pair, 1 + k, rd))
                    return nk_fail(NK_EMISMATCH, err, len,
                                   "the stored seed of game %zu of generation %zu is not that of "
                                   "game %u of its match",
                                   pos + 1, g + 1, rd + 1);
                if (pos == j) {
                    nk_pos start;
                    nk_match_next(&mt, &start);
                    *job = (nk_exec_job){.south = 0,
                                         .north = 1,
                                         .seed = gen[pos].seed,
                                         .opening_seed = rd == 0 ? pair : nk_seed_mix(pair, 3, rd),
                                         .opening = (unsigned)r->s.fitness.openings,
                                         .own_start = true,
                                         .first = (uint8_t)start.side,
                                         .owners = start.north};
                    return NK_OK;
                }
                nk_result res = {
                    .reason = (nk_end)gen[pos].reason,
                    .winner = gen[pos].winner,
                    .total = {(unsigned)gen[pos].south_seeds, (unsigned)gen[pos].north_seeds}};
                nk_match_record(&mt, &res);
            }
        }
    }
    return nk_fail(NK_EMISMATCH, err, len, "game %zu of generation %zu is in none of its matches",
                   j + 1, g + 1);
}

/* Plays game j of generation g again, gen[0..n) the generation's rows. */
static nk_status play(regen *r, const nk_run_game *gen, size_t n, size_t j, nk_record *out,
                      char *err, size_t len)
{
    const nk_run_meta *m = nk_run_get_meta(r->run);
    const nk_run_game *row = &gen[j];
    size_t g = (size_t)row->generation, i = j / 2;
    uint64_t pair = nk_exec_seed(m->master_seed, g, i);
    nk_exec_job job = {.south = 0,
                       .north = 1,
                       .seed = row->seed,
                       .opening_seed = pair,
                       .opening = (unsigned)r->s.fitness.openings};
    nk_status st = NK_OK;
    if (nk_run_unit_of(r->s.fitness.unit, r->v) == NK_UNIT_MATCH)
        st = match_job(r, g, gen, n, j, &job, err, len);
    else if (row->seed != nk_seed_mix(pair, j % 2 + 1, 0))
        st = nk_fail(NK_EMISMATCH, err, len,
                     "the stored seed is not that of game %zu of generation %zu", j + 1, g + 1);
    if (st != NK_OK)
        return st;
    st = entrant(r, 0, row->south_id, g, err, len);
    if (st == NK_OK)
        st = entrant(r, 1, row->north_id, g, err, len);
    if (st != NK_OK)
        return st;
    nk_exec_player players[2];
    for (int k = 0; k < 2; k++)
        players[k] =
            (nk_exec_player){&r->def[k].spec, r->def[k].n ? r->def[k].weights : NULL, r->def[k].n};
    nk_exec_batch b = {.variant = r->v, .ply_limit = r->player.ply_limit,
                       .players = players, .nplayers = 2, .jobs = &job, .njobs = 1,
                       .threads = 1, .record = true};
    nk_exec_game game = {0};
    st = nk_exec_run(&b, &game, err, len);
    const nk_result *res = &game.result;
    if (st == NK_OK && (res->winner != row->winner || (int)res->total[0] != row->south_seeds ||
                        (int)res->total[1] != row->north_seeds ||
                        (int)game.plies != row->plies || (int)res->reason != row->reason))
        st = nk_fail(NK_EMISMATCH, err, len,
                     "the game played again ends %s %u-%u (%s) after %u plies, the stored one "
                     "%s %d-%d (%s) after %d",
                     res->winner == NK_DRAW ? "draw" : res->winner ? "N" : "S", res->total[0],
                     res->total[1], nk_end_name(res->reason), game.plies,
                     row->winner == NK_DRAW ? "draw" : row->winner ? "N" : "S", row->south_seeds,
                     row->north_seeds,
                     row->reason >= 0 && row->reason < NK_END_COUNT
                         ? nk_end_name((nk_end)row->reason) : "?",
                     row->plies);
    if (st == NK_OK)
        st = nk_record_set(out, r->v, r->player.ply_limit, &game.start, game.moves,
                           game.plies, res, r->name[0], r->name[1], err, len);
    nk_exec_games_free(&game, 1);
    return st;
}

static nk_status find(regen *r, unsigned long gen, unsigned long game, nk_record *out, char *err,
                      size_t len)
{
    size_t n = nk_run_games(r->run);
    nk_run_game *rows = nk_malloc((n ? n : 1) * sizeof *rows);
    if (rows == NULL)
        return nk_fail(NK_ENOMEM, err, len, "out of memory for %zu game rows", n);
    nk_status st = nk_run_read_games(r->run, 0, n, rows, err, len);
    size_t idx = 0;
    if (st == NK_OK && gen == 0) {
        if (game > n)
            st = nk_fail(NK_ERANGE, err, len, "game=%lu: the run file holds %zu games", game, n);
        idx = game - 1;
    } else if (st == NK_OK) {
        while (idx < n && (unsigned long)rows[idx].generation < gen - 1)
            idx++;
        size_t count = 0;
        while (idx + count < n && (unsigned long)rows[idx + count].generation == gen - 1)
            count++;
        if (game > count)
            st = nk_fail(NK_ERANGE, err, len, "gen=%lu,game=%lu: generation %lu holds %zu games",
                         gen, game, gen, count);
        idx += game - 1;
    }
    if (st == NK_OK) {
        size_t first = idx, end = idx + 1;
        while (first > 0 && rows[first - 1].generation == rows[idx].generation)
            first--;
        while (end < n && rows[end].generation == rows[idx].generation)
            end++;
        st = play(r, &rows[first], end - first, idx - first, out, err, len);
    }
    nk_free(rows);
    return st;
}

nk_status nk_regen_game(const char *source, nk_record *out, char *err, size_t errlen)
{
    size_t at;
    unsigned long gen, game;
    char e2[NK_MSG_MAX];
    if (!selector(source, &at, &gen, &game))
        return nk_fail(NK_EINVAL, err, errlen,
                       "'%.300s': after '@' give game=K or gen=G,game=J (from 1)", source);
    regen r = {0};
    char *path = nk_malloc(at + 1);
    if (path == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    memcpy(path, source, at);
    path[at] = '\0';
    r.path = path;
    nk_status st = nk_run_open(&r.run, path, false, e2, sizeof e2);
    if (st == NK_OK && !nk_run_get_meta(r.run)->record_games)
        st = nk_fail(NK_EINVAL, e2, sizeof e2, "the run did not record its games "
                     "(output.record_games)");
    if (st == NK_OK)
        st = nk_config_new(&r.cfg, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_load_string(r.cfg, nk_run_get_meta(r.run)->config, path, e2, sizeof e2);
    if (st == NK_OK)
        st = nk_config_settings(r.cfg, &r.s, NULL, e2, sizeof e2);
    if (st == NK_OK && (r.v = nk_variant_find(r.s.experiment.variant)) == NULL)
        st = nk_fail(NK_EFORMAT, e2, sizeof e2, "unknown variant '%s'", r.s.experiment.variant);
    if (st == NK_OK && nk_run_player_of(&r.s, &r.player, e2, sizeof e2) != NK_OK)
        st = NK_EFORMAT;
    if (st == NK_OK)
        st = find(&r, gen, game, out, e2, sizeof e2);
    if (st != NK_OK)
        nk_fail(st, err, errlen, "%.300s: %s", source, e2);
    nk_config_free(r.cfg);
    nk_run_close(r.run);
    nk_free(path);
    return st;
}
