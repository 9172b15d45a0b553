/*
 * rate.c -- the gauntlet of `nickar rate` (rate.h).
 *
 * Entrant 0 is the player rated, entrant j + 1 ladder player j; meeting k
 * of the batch is (0, k / per + 1), pairing index k % per within it (per =
 * games / 2).
 */
#include "run/rate.h"

#include <string.h>

#include "arena/meetings.h"
#include "base/alloc.h"

struct nk_rate {
    nk_rate_settings s;
    nk_exec_player *players; /* [n + 1] */
    nk_meeting *meetings;    /* [total] */
    uint64_t *index;         /* [total] */
    nk_wdl *wdl;             /* [n] */
    size_t per, total;
    bool done;
    nk_rate_result result;
};

static nk_status check_settings(const nk_rate_settings *s, char *err, size_t errlen)
{
    if (s->variant == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "rate: no variant");
    if (s->player.spec == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "rate: no spec for the player rated");
    if (s->n == 0 || s->ladder == NULL || s->elo == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "rate: no ladder players");
    for (size_t j = 0; j < s->n; j++)
        if (s->ladder[j].spec == NULL)
            return nk_fail(NK_EINVAL, err, errlen, "rate: no spec for ladder player %zu", j);
    if (s->results != NULL && s->anchor >= s->n)
        return nk_fail(NK_ERANGE, err, errlen, "rate: anchor %zu: the ladder has %zu players",
                       s->anchor, s->n);
    if (s->games < 2 || s->games % 2 != 0)
        return nk_fail(NK_ERANGE, err, errlen,
                       "rate: games %llu: needs an even number, at least 2 (colour-swapped "
                       "pairs)",
                       (unsigned long long)s->games);
    if (s->games / 2 > SIZE_MAX / sizeof(nk_meeting) / s->n)
        return nk_fail(NK_ERANGE, err, errlen, "rate: games %llu: too many",
                       (unsigned long long)s->games);
    if (s->openings > NK_MAX_PLIES)
        return nk_fail(NK_ERANGE, err, errlen, "rate: openings %u: at most %d plies", s->openings,
                       NK_MAX_PLIES);
    if (s->threads < 0)
        return nk_fail(NK_ERANGE, err, errlen, "rate: threads %d: must be 0 or more", s->threads);
    return NK_OK;
}

nk_status nk_rate_alloc(nk_rate **out, const nk_rate_settings *s, char *err, size_t errlen)
{
    *out = NULL;
    nk_status st = check_settings(s, err, errlen);
    if (st != NK_OK)
        return st;
    nk_rate *r = nk_calloc(1, sizeof *r);
    if (r == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    r->s = *s;
    r->per = (size_t)(s->games / 2);
    r->total = s->n * r->per;
    r->players = nk_calloc(s->n + 1, sizeof *r->players);
    r->meetings = nk_calloc(r->total, sizeof *r->meetings);
    r->index = nk_calloc(r->total, sizeof *r->index);
    r->wdl = nk_calloc(s->n, sizeof *r->wdl);
    if (!r->players || !r->meetings || !r->index || !r->wdl) {
        nk_rate_free(r);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    }
    r->players[0] = s->player;
    memcpy(r->players + 1, s->ladder, s->n * sizeof *s->ladder);
    for (size_t k = 0; k < r->total; k++) {
        r->meetings[k] = (nk_meeting){0, (uint32_t)(k / r->per + 1)};
        r->index[k] = k % r->per;
    }
    *out = r;
    return NK_OK;
}

/* The ratings of the results in r->wdl (see rate.h). */
static nk_status fit(nk_rate *r, char *err, size_t errlen)
{
    const nk_rate_settings *s = &r->s;
    nk_rate_result *x = &r->result;
    x->wdl = r->wdl;
    x->games = 2 * (uint64_t)r->total;
    x->joint = s->results != NULL;
    nk_status st = nk_rating_against(r->wdl, s->elo, s->n, &x->fixed_elo, &x->fixed_se,
                                     &x->fixed_prior, err, errlen);
    if (st == NK_OK && x->joint)
        st = nk_rating_joint(s->results, s->n, s->anchor, s->anchor_elo, r->wdl, &x->elo, &x->se,
                             &x->prior, err, errlen);
    if (!x->joint) {
        x->elo = x->fixed_elo;
        x->se = x->fixed_se;
        x->prior = x->fixed_prior;
    }
    return st;
}

nk_status nk_rate_iterate(nk_rate *r, char *err, size_t errlen)
{
    if (r->done)
        return nk_fail(NK_EINVAL, err, errlen, "rate: already over");
    nk_arena_setup setup = {.variant = r->s.variant,
                            .players = r->players,
                            .nplayers = r->s.n + 1,
                            .master = r->s.seed,
                            .opening = r->s.openings,
                            .threads = r->s.threads,
                            .index = r->index};
    nk_arena_played played = {0};
    nk_status st = nk_arena_play_meetings(&setup, r->meetings, r->total, &played, err, errlen);
    if (st == NK_OK) {
        for (size_t k = 0; k < r->total; k++) {
            nk_wdl *c = &r->wdl[k / r->per];
            c->w += played.tally[k].wins;
            c->d += played.tally[k].draws;
            c->l += played.tally[k].losses;
        }
    }
    nk_arena_played_free(&played);
    if (st == NK_OK)
        st = fit(r, err, errlen);
    r->done = st == NK_OK;
    return st;
}

bool nk_rate_done(const nk_rate *r)
{
    return r->done;
}

const nk_rate_result *nk_rate_result_of(const nk_rate *r)
{
    return r->done ? &r->result : NULL;
}

void nk_rate_free(nk_rate *r)
{
    if (r == NULL)
        return;
    nk_free(r->players);
    nk_free(r->meetings);
    nk_free(r->index);
    nk_free(r->wdl);
    nk_free(r);
}
