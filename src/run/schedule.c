/*
 * schedule.c -- the meetings of a generation (see schedule.h).
 */
#include "run/schedule.h"

#include <math.h>
#include <string.h>

#include "base/alloc.h"

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
static int drawn_meetings(const nk_schedule_params *p, size_t k, size_t hall, gsl_rng *rng,
                          list *l)
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
            return nk_fail(NK_ERANGE, err, len, "sample fraction %g is not in (0, 1]",
                           p->fraction);
        rc = drawn_meetings(p, (size_t)ceil(p->fraction * (double)(n - 1)), 0, rng, &l);
        break;
    case NK_SCHEDULE_RANDOM_K:
    case NK_SCHEDULE_HALL_OF_FAME:
        if (p->k == 0)
            return nk_fail(NK_ERANGE, err, len, "schedule %s needs k >= 1",
                           nk_schedule_name(p->kind));
        rc = drawn_meetings(p, p->k, p->kind == NK_SCHEDULE_HALL_OF_FAME ? p->hall : 0, rng,
                            &l);
        break;
    case NK_SCHEDULE_GAUNTLET:
        if (p->gauntlet == 0)
            return nk_fail(NK_EINVAL, err, len, "schedule gauntlet needs at least one player");
        for (size_t i = 0; i < n && rc == 0; i++)
            for (size_t g = 0; g < p->gauntlet && rc == 0; g++)
                rc = push(&l, i, n + p->hall + g);
        break;
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
