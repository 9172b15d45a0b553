/*
 * ciao.c -- the master tournament of a sequence of players (ciao.h).
 */
#include "arena/ciao.h"

#include <math.h>
#include <string.h>

#include "base/alloc.h"

nk_status nk_ciao_init(nk_ciao *c, size_t n, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->score = nk_calloc(n * n, sizeof *c->score);
    c->wins = nk_calloc(n * n, sizeof *c->wins);
    c->draws = nk_calloc(n * n, sizeof *c->draws);
    c->losses = nk_calloc(n * n, sizeof *c->losses);
    c->ciao = nk_calloc(n, sizeof *c->ciao);
    c->master = nk_calloc(n, sizeof *c->master);
    if (c->score == NULL || c->wins == NULL || c->draws == NULL || c->losses == NULL ||
        c->ciao == NULL || c->master == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a master tournament of %zu", n);
    return NK_OK;
}

nk_status nk_ciao_meetings(size_t n, size_t pairs, nk_meeting **out, size_t *count, char *err,
                           size_t errlen)
{
    *out = NULL;
    *count = 0;
    if (n < 2 || pairs == 0)
        return nk_fail(NK_EINVAL, err, errlen,
                       "a master tournament needs two players or more and one pair of games "
                       "per pairing (got %zu players, %zu pairs)",
                       n, pairs);
    size_t pairings = n * (n - 1) / 2;
    if (pairs > SIZE_MAX / 4 / pairings)
        return nk_fail(NK_ERANGE, err, errlen, "too many games: %zu pairings x %zu pairs", pairings,
                       pairs);
    nk_meeting *meet = nk_calloc(pairings * pairs, sizeof *meet);
    if (meet == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a master tournament of %zu", n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            for (size_t r = 0; r < pairs; r++)
                meet[k++] = (nk_meeting){(uint32_t)i, (uint32_t)j};
    *out = meet;
    *count = k;
    return NK_OK;
}

void nk_ciao_add(nk_ciao *c, const nk_meeting *m, const nk_meeting_tally *t)
{
    size_t n = c->n, i = m->a, j = m->b;
    c->wins[i * n + j] += t->wins;
    c->losses[j * n + i] += t->wins;
    c->draws[i * n + j] += t->draws;
    c->draws[j * n + i] += t->draws;
    c->losses[i * n + j] += t->losses;
    c->wins[j * n + i] += t->losses;
}

void nk_ciao_summarise(nk_ciao *c)
{
    size_t n = c->n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            unsigned w = c->wins[i * n + j], d = c->draws[i * n + j], l = c->losses[i * n + j];
            double sc = (w + 0.5 * d) / (double)(w + d + l);
            c->score[i * n + j] = sc;
            c->score[j * n + i] = 1.0 - sc;
        }
    for (size_t i = 0; i < n; i++) {
        c->score[i * n + i] = 0.5;
        double before = 0, all = 0;
        for (size_t j = 0; j < n; j++) {
            if (j == i)
                continue;
            all += c->score[i * n + j];
            if (j < i)
                before += c->score[i * n + j];
        }
        c->ciao[i] = i ? before / (double)i : NAN;
        c->master[i] = all / (double)(n - 1);
    }
}

nk_status nk_ciao_play(const nk_arena_setup *s, size_t pairs, nk_ciao *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    nk_meeting *meet = NULL;
    size_t k = 0;
    nk_status st = nk_ciao_meetings(s->nplayers, pairs, &meet, &k, err, errlen);
    if (st == NK_OK)
        st = nk_ciao_init(out, s->nplayers, err, errlen);
    nk_arena_played played = {0};
    if (st == NK_OK)
        st = nk_arena_play_meetings(s, meet, k, &played, err, errlen);
    if (st == NK_OK) {
        for (size_t m = 0; m < k; m++)
            nk_ciao_add(out, &meet[m], &played.tally[m]);
        nk_ciao_summarise(out);
    }
    nk_arena_played_free(&played);
    nk_free(meet);
    return st;
}

void nk_ciao_free(nk_ciao *c)
{
    if (c == NULL)
        return;
    nk_free(c->score);
    nk_free(c->wins);
    nk_free(c->draws);
    nk_free(c->losses);
    nk_free(c->ciao);
    nk_free(c->master);
    memset(c, 0, sizeof *c);
}
