/*
 * coevo.c -- schedule names and scoring (see coevo.h).
 */
#include "evolve/coevo.h"
#include "base/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const schedule_names[NK_SCHEDULE_COUNT] = {
    [NK_SCHEDULE_ROUND_ROBIN] = "round-robin",   [NK_SCHEDULE_SAMPLE] = "sample",
    [NK_SCHEDULE_RANDOM_K] = "random-k",         [NK_SCHEDULE_HALL_OF_FAME] = "hall-of-fame",
    [NK_SCHEDULE_GAUNTLET] = "gauntlet",
};

const char *nk_schedule_name(nk_schedule s)
{
    return (unsigned)s < NK_SCHEDULE_COUNT ? schedule_names[s] : "unknown";
}

nk_schedule nk_schedule_find(const char *name)
{
    for (int s = 0; s < NK_SCHEDULE_COUNT; s++)
        if (strcmp(schedule_names[s], name) == 0)
            return (nk_schedule)s;
    return NK_SCHEDULE_COUNT;
}

nk_status nk_scoring_parse(nk_scoring *s, const char *text, char *err, size_t len)
{
    char *end;
    double v[3];
    const char *q = text;
    if (strcmp(text, "seeds") == 0) {
        *s = (nk_scoring){1, 0, 0, 0};
        return NK_OK;
    }
    for (int i = 0; i < 3; i++) {
        v[i] = strtod(q, &end);
        if (end == q || (i < 2 && *end != ',') || (i == 2 && *end != '\0') || !isfinite(v[i]))
            return nk_fail(NK_EINVAL, err, len,
                           "scoring '%s' must be three numbers win,draw,loss (e.g. 2,1,0) "
                           "or 'seeds'", text);
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
