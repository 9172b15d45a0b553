/*
 * schedule.c -- schedules, scoring and the fitness tally (see schedule.h).
 */
#include "run/schedule.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "base/alloc.h"
#include "base/param.h"

static const char *const schedule_names[NK_SCHEDULE_COUNT] = {
    [NK_SCHEDULE_ROUND_ROBIN] = "round-robin", [NK_SCHEDULE_SAMPLE] = "sample",
    [NK_SCHEDULE_RANDOM_K] = "random-k",       [NK_SCHEDULE_HALL_OF_FAME] = "hall-of-fame",
    [NK_SCHEDULE_GAUNTLET] = "gauntlet",       [NK_SCHEDULE_FITNESS_SET] = "fitness-set",
    [NK_SCHEDULE_TABLEBASE] = "tablebase",
};

const char *nk_schedule_name(nk_schedule s)
{
    return (unsigned)s < NK_SCHEDULE_COUNT ? schedule_names[s] : "unknown";
}

const char *nk_schedule_name_at(size_t i)
{
    return i < NK_SCHEDULE_COUNT ? schedule_names[i] : NULL;
}

nk_schedule nk_schedule_find(const char *name)
{
    for (int s = 0; s < NK_SCHEDULE_COUNT; s++)
        if (strcmp(schedule_names[s], name) == 0)
            return (nk_schedule)s;
    return NK_SCHEDULE_COUNT;
}

/* A growable list of meetings. */
typedef struct list {
    nk_meeting *m;
    size_t n, cap;
} list;

static int push(list *l, size_t a, size_t b)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        nk_meeting *m = nk_realloc(l->m, cap * sizeof *m);
        if (m == NULL)
            return -1;
        l->m = m;
        l->cap = cap;
    }
    l->m[l->n].a = (uint32_t)a;
    l->m[l->n].b = (uint32_t)b;
    l->n++;
    return 0;
}

/* Draws k distinct entries of pool[0..n) into pool[0..k) (partial shuffle). */
static void draw(uint32_t *pool, size_t n, size_t k, gsl_rng *rng)
{
    for (size_t i = 0; i < k && i < n; i++) {
        size_t j = i + gsl_rng_uniform_int(rng, n - i);
        uint32_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
}

/* Each individual i meets `k` opponents drawn from the population without
 * i, plus (hall-of-fame) the hall entrants. */
static int drawn_meetings(const nk_schedule_params *p, size_t k, size_t hall, gsl_rng *rng, list *l)
{
    size_t n = p->population, pool_n = n - 1 + hall;
    uint32_t *pool = nk_malloc((pool_n ? pool_n : 1) * sizeof *pool);
    if (pool == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        for (size_t j = 0; j < n; j++)
            if (j != i)
                pool[c++] = (uint32_t)j;
        for (size_t h = 0; h < hall; h++)
            pool[c++] = (uint32_t)(n + h);
        size_t take = k < pool_n ? k : pool_n;
        draw(pool, pool_n, take, rng);
        for (size_t t = 0; t < take; t++)
            if (push(l, i, pool[t]) != 0) {
                nk_free(pool);
                return -1;
            }
    }
    nk_free(pool);
    return 0;
}

nk_status nk_schedule_meetings(const nk_schedule_params *p, gsl_rng *rng, nk_meeting **out,
                               size_t *count, char *err, size_t len)
{
    list l = {NULL, 0, 0};
    size_t n = p->population;
    int rc = 0;
    *out = NULL;
    *count = 0;
    if (p->kind == NK_SCHEDULE_TABLEBASE) /* no meetings: nk_schedule_grade */
        return NK_OK;
    if (n < 2 && p->kind != NK_SCHEDULE_GAUNTLET)
        return nk_fail(NK_EINVAL, err, len, "schedule %s needs a population of at least 2",
                       nk_schedule_name(p->kind));
    switch (p->kind) {
    case NK_SCHEDULE_ROUND_ROBIN:
        for (size_t i = 0; i < n && rc == 0; i++)
            for (size_t j = i + 1; j < n && rc == 0; j++)
                rc = push(&l, i, j);
        break;
    case NK_SCHEDULE_SAMPLE:
        if (!(p->fraction > 0 && p->fraction <= 1))
            return nk_fail(NK_ERANGE, err, len, "sample fraction %g is not in (0, 1]", p->fraction);
        rc = drawn_meetings(p, (size_t)ceil(p->fraction * (double)(n - 1)), 0, rng, &l);
        break;
    case NK_SCHEDULE_RANDOM_K:
    case NK_SCHEDULE_HALL_OF_FAME:
        if (p->k == 0)
            return nk_fail(NK_ERANGE, err, len, "schedule %s needs k >= 1",
                           nk_schedule_name(p->kind));
        rc = drawn_meetings(p, p->k, p->kind == NK_SCHEDULE_HALL_OF_FAME ? p->hall : 0, rng, &l);
        break;
    case NK_SCHEDULE_GAUNTLET:
        if (p->gauntlet == 0)
            return nk_fail(NK_EINVAL, err, len, "schedule gauntlet needs at least one player");
        for (size_t i = 0; i < n && rc == 0; i++)
            for (size_t g = 0; g < p->gauntlet && rc == 0; g++)
                rc = push(&l, i, n + p->hall + g);
        break;
    case NK_SCHEDULE_FITNESS_SET: {
        if (p->k == 0)
            return nk_fail(NK_ERANGE, err, len, "schedule fitness-set needs k >= 1");
        size_t take = p->k < n ? p->k : n;
        uint32_t *set = nk_malloc(n * sizeof *set);
        if (set == NULL)
            return nk_fail(NK_ENOMEM, err, len, "out of memory listing meetings");
        for (size_t i = 0; i < n; i++)
            set[i] = (uint32_t)i;
        draw(set, n, take, rng); /* the shared set: set[0..take) */
        for (size_t i = 0; i < n && rc == 0; i++)
            for (size_t t = 0; t < take && rc == 0; t++)
                if (set[t] != i)
                    rc = push(&l, i, set[t]);
        nk_free(set);
        break;
    }
    default:
        return nk_fail(NK_EINVAL, err, len, "unknown schedule");
    }
    if (rc != 0) {
        nk_free(l.m);
        return nk_fail(NK_ENOMEM, err, len, "out of memory listing meetings");
    }
    *out = l.m;
    *count = l.n;
    return NK_OK;
}

/* A game's winner code (0 South, 1 North, 2 draw) from the South player's
 * outcome. */
static int winner_of(int south_outcome)
{
    return south_outcome > 0 ? 0 : south_outcome < 0 ? 1 : 2;
}

void nk_schedule_tally(nk_tally *t, const nk_scoring *s, const nk_meeting *meetings,
                       const nk_meeting_tally *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t a = meetings[i].a, b = meetings[i].b;
        nk_tally_add(t, s, a, b, winner_of(r[i].outcome[0]), r[i].own[0], r[i].other[0]);
        nk_tally_add(t, s, b, a, winner_of(-r[i].outcome[1]), r[i].other[1], r[i].own[1]);
    }
}

void nk_schedule_tally_for(nk_schedule kind, nk_tally *t, const nk_scoring *s,
                           const nk_meeting *meetings, const nk_meeting_tally *r, size_t n)
{
    if (kind != NK_SCHEDULE_FITNESS_SET) {
        nk_schedule_tally(t, s, meetings, r, n);
        return;
    }
    /* As nk_schedule_tally, with b's side left out (entrant past the
     * tally's n: not counted). */
    const uint32_t out = (uint32_t)t->n;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = meetings[i].a;
        nk_tally_add(t, s, a, out, winner_of(r[i].outcome[0]), r[i].own[0], r[i].other[0]);
        nk_tally_add(t, s, out, a, winner_of(-r[i].outcome[1]), r[i].other[1], r[i].own[1]);
    }
}

nk_status nk_scoring_parse(nk_scoring *s, const char *text, char *err, size_t len)
{
    double v[3];
    const char *q = text;
    if (strcmp(text, "seeds") == 0) {
        *s = (nk_scoring){1, 0, 0, 0};
        return NK_OK;
    }
    for (int i = 0; i < 3; i++) {
        /* each number read whole by base/param.h's strict reader */
        char num[64];
        size_t k = strcspn(q, ",");
        const char *end = q + k;
        bool sep_ok = i < 2 ? *end == ',' : *end == '\0';
        if (k < sizeof num) {
            memcpy(num, q, k);
            num[k] = '\0';
        }
        if (k >= sizeof num || !sep_ok || nk_param_read_double(num, &v[i]) != NK_OK)
            return nk_fail(NK_EINVAL, err, len,
                           "scoring '%s' must be three numbers win,draw,loss (e.g. 2,1,0) "
                           "or 'seeds'",
                           text);
        q = end + 1;
    }
    if (!(v[0] >= v[1] && v[1] >= v[2]))
        return nk_fail(NK_EINVAL, err, len,
                       "scoring '%s': a win must score at least a draw, a draw at least a loss",
                       text);
    *s = (nk_scoring){0, v[0], v[1], v[2]};
    return NK_OK;
}

double nk_scoring_score(const nk_scoring *s, int outcome, int own, int other)
{
    if (s->by_seeds)
        return (double)(own - other);
    return outcome > 0 ? s->win : outcome < 0 ? s->loss : s->draw;
}

nk_status nk_tally_init(nk_tally *t, size_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->score = nk_calloc(n ? n : 1, sizeof *t->score);
    t->games = nk_calloc(n ? n : 1, sizeof *t->games);
    t->wins = nk_calloc(n ? n : 1, sizeof *t->wins);
    t->draws = nk_calloc(n ? n : 1, sizeof *t->draws);
    t->losses = nk_calloc(n ? n : 1, sizeof *t->losses);
    if (!t->score || !t->games || !t->wins || !t->draws || !t->losses) {
        nk_tally_free(t);
        return NK_ENOMEM;
    }
    return NK_OK;
}

void nk_tally_free(nk_tally *t)
{
    nk_free(t->score);
    nk_free(t->games);
    nk_free(t->wins);
    nk_free(t->draws);
    nk_free(t->losses);
    memset(t, 0, sizeof *t);
}

static void tally_one(nk_tally *t, const nk_scoring *s, uint32_t who, int outcome, int own,
                      int other)
{
    if (who >= t->n)
        return;
    t->score[who] += nk_scoring_score(s, outcome, own, other);
    t->games[who]++;
    if (outcome > 0)
        t->wins[who]++;
    else if (outcome < 0)
        t->losses[who]++;
    else
        t->draws[who]++;
}

void nk_tally_add(nk_tally *t, const nk_scoring *s, uint32_t south, uint32_t north, int winner,
                  int south_seeds, int north_seeds)
{
    int south_outcome = winner == 0 ? 1 : winner == 1 ? -1 : 0;
    tally_one(t, s, south, south_outcome, south_seeds, north_seeds);
    tally_one(t, s, north, -south_outcome, north_seeds, south_seeds);
}

double nk_tally_fitness(const nk_tally *t, size_t i)
{
    return i < t->n && t->games[i] > 0 ? t->score[i] / t->games[i] : 0.0;
}

/* ===== the tablebase schedule ===== */

nk_status nk_schedule_grade_one(const nk_schedule_grading *g, const double *w, size_t dim,
                                nk_grade *out, char *why, size_t len)
{
    nk_player *me = NULL, *ref = NULL;
    nk_status st = nk_player_new(&me, g->spec, g->variant, w, dim, why, len);
    if (st == NK_OK)
        st = nk_player_new(&ref, g->reference, g->variant, g->reference_w,
                           g->reference_w ? g->reference_n : 0, why, len);
    if (st == NK_OK)
        st = nk_grade_play(g->tb, me, ref, g->positions, g->seed, out, why, len);
    nk_player_free(me);
    nk_player_free(ref);
    return st;
}

/* Grades individual i into fitness[i]; the message into why. */
static nk_status grade_one(const nk_schedule_grading *g, const double *w, size_t dim,
                           double *fitness, uint64_t *positions, char *why, size_t len)
{
    nk_grade gr;
    nk_status st = nk_schedule_grade_one(g, w, dim, &gr, why, len);
    if (st != NK_OK)
        return st;
    double share[3], lost[3];
    nk_grade_summary(&gr, share, lost);
    *fitness = g->optimal ? share[0] : -lost[0];
    *positions = gr.positions;
    return NK_OK;
}

nk_status nk_schedule_grade(const nk_schedule_grading *g, const double *w, size_t n, size_t dim,
                            double *fitness, uint64_t *positions, char *err, size_t len)
{
    nk_status *st = nk_calloc(n ? n : 1, sizeof *st);
    uint64_t *pos = nk_calloc(n ? n : 1, sizeof *pos);
    char *why = nk_calloc(n ? n : 1, NK_MSG_MAX);
    if (st == NULL || pos == NULL || why == NULL) {
        nk_free(st);
        nk_free(pos);
        nk_free(why);
        return nk_fail(NK_ENOMEM, err, len, "out of memory grading the population");
    }
    const int threads = g->threads > 0 ? g->threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t i = 0; i < n; i++)
        st[i] = grade_one(g, w + i * dim, dim, &fitness[i], &pos[i], why + i * NK_MSG_MAX,
                          NK_MSG_MAX);
    nk_status out = NK_OK;
    for (size_t i = 0; i < n && out == NK_OK; i++)
        if (st[i] != NK_OK)
            out = nk_fail(st[i], err, len, "fitness.tablebase: individual %zu: %s", i,
                          why + i * NK_MSG_MAX);
    if (out == NK_OK && positions != NULL)
        memcpy(positions, pos, n * sizeof *pos);
    nk_free(st);
    nk_free(pos);
    nk_free(why);
    return out;
}
