/*
 * ciao.c -- the master tournament of a sequence of players (ciao.h).
 */
#include "arena/ciao.h"

#include <math.h>
#include <string.h>

#include "base/alloc.h"

nk_status nk_ciao_play(const nk_arena_setup *s, size_t pairs, nk_ciao *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t n = s->nplayers;
    if (n < 2 || pairs == 0)
        return nk_fail(NK_EINVAL, err, errlen,
                       "a master tournament needs two players or more and one pair of games "
                       "per pairing (got %zu players, %zu pairs)",
                       n, pairs);
    size_t pairings = n * (n - 1) / 2;
    if (pairs > SIZE_MAX / 4 / pairings)
        return nk_fail(NK_ERANGE, err, errlen, "too many games: %zu pairings x %zu pairs", pairings,
                       pairs);
    out->n = n;
    out->score = nk_calloc(n * n, sizeof *out->score);
    out->wins = nk_calloc(n * n, sizeof *out->wins);
    out->draws = nk_calloc(n * n, sizeof *out->draws);
    out->losses = nk_calloc(n * n, sizeof *out->losses);
    out->ciao = nk_calloc(n, sizeof *out->ciao);
    out->master = nk_calloc(n, sizeof *out->master);
    nk_meeting *meet = nk_calloc(pairings * pairs, sizeof *meet);
    if (out->score == NULL || out->wins == NULL || out->draws == NULL || out->losses == NULL ||
        out->ciao == NULL || out->master == NULL || meet == NULL) {
        nk_free(meet);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a master tournament of %zu", n);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            for (size_t r = 0; r < pairs; r++)
                meet[k++] = (nk_meeting){(uint32_t)i, (uint32_t)j};
    nk_arena_played played = {0};
    nk_status st = nk_arena_play_meetings(s, meet, k, &played, err, errlen);
    if (st == NK_OK) {
        k = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                unsigned w = 0, d = 0, l = 0;
                for (size_t r = 0; r < pairs; r++, k++) {
                    w += played.tally[k].wins;
                    d += played.tally[k].draws;
                    l += played.tally[k].losses;
                }
                out->wins[i * n + j] = out->losses[j * n + i] = w;
                out->draws[i * n + j] = out->draws[j * n + i] = d;
                out->losses[i * n + j] = out->wins[j * n + i] = l;
                double sc = (w + 0.5 * d) / (double)(w + d + l);
                out->score[i * n + j] = sc;
                out->score[j * n + i] = 1.0 - sc;
            }
        for (size_t i = 0; i < n; i++) {
            out->score[i * n + i] = 0.5;
            double before = 0, all = 0;
            for (size_t j = 0; j < n; j++) {
                if (j == i)
                    continue;
                all += out->score[i * n + j];
                if (j < i)
                    before += out->score[i * n + j];
            }
            out->ciao[i] = i ? before / (double)i : NAN;
            out->master[i] = all / (double)(n - 1);
        }
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
