/*
 * master.c -- the master tournament of a run's champions as an iterate
 * object (see master.h).
 */
#include "run/master.h"

#include <string.h>

#include "arena/meetings.h"
#include "base/alloc.h"
#include "search/features.h"

struct nk_master {
    nk_spec spec;
    nk_exec_player *players; /* [n] */
    double *weights;         /* [n * d] */
    nk_arena_setup setup;
    nk_meeting *meetings; /* [total] the schedule */
    size_t total, done, batch;
    nk_ciao ciao;
    nk_nash nash;
    bool summarised;
};

/* One line naming the first bad setting, or NK_OK. */
static nk_status check_settings(const nk_master_settings *s, char *err, size_t errlen)
{
    if (s->variant == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "no variant");
    if (s->spec == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "no player spec for the champions");
    if (s->ply_limit > NK_MAX_PLIES)
        return nk_fail(NK_ERANGE, err, errlen, "ply limit %u: give 1 to %d (0: the default)",
                       s->ply_limit, NK_MAX_PLIES);
    if (s->d > 0 && s->weights == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "%zu weights a champion, but none given", s->d);
    if (s->openings > NK_MAX_PLIES)
        return nk_fail(NK_ERANGE, err, errlen, "openings %llu: give 0 to %d",
                       (unsigned long long)s->openings, NK_MAX_PLIES);
    if (s->threads < 0)
        return nk_fail(NK_ERANGE, err, errlen, "threads %d: give 0 (the default) or more",
                       s->threads);
    return NK_OK;
}

nk_status nk_master_alloc(nk_master **out, const nk_master_settings *s, char *err, size_t errlen)
{
    *out = NULL;
    nk_status st = check_settings(s, err, errlen);
    if (st != NK_OK)
        return st;
    nk_master *m = nk_calloc(1, sizeof *m);
    if (m == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    st = nk_ciao_meetings(s->n, (size_t)s->pairs, &m->meetings, &m->total, err, errlen);
    if (st == NK_OK)
        st = nk_ciao_init(&m->ciao, s->n, err, errlen);
    if (st == NK_OK) {
        m->players = nk_calloc(s->n, sizeof *m->players);
        m->weights = nk_malloc(s->n * s->d * sizeof *m->weights + 1);
        if (m->players == NULL || m->weights == NULL)
            st = nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    }
    if (st != NK_OK) {
        nk_master_free(m);
        return st;
    }
    m->spec = *s->spec;
    if (s->n * s->d > 0)
        memcpy(m->weights, s->weights, s->n * s->d * sizeof *m->weights);
    for (size_t i = 0; i < s->n; i++)
        m->players[i] = (nk_exec_player){&m->spec, m->weights + i * s->d, s->d};
    m->setup = (nk_arena_setup){.variant = s->variant,
                                .ply_limit = s->ply_limit,
                                .players = m->players,
                                .nplayers = s->n,
                                .master = s->seed,
                                .batch = 0,
                                .opening = (unsigned)s->openings,
                                .threads = s->threads};
    m->batch = s->batch == 0 ? m->total : s->batch;
    *out = m;
    return NK_OK;
}

nk_status nk_master_iterate(nk_master *m, char *err, size_t errlen)
{
    if (m->summarised)
        return NK_OK;
    size_t n = m->total - m->done < m->batch ? m->total - m->done : m->batch;
    nk_arena_setup setup = m->setup;
    setup.first = m->done;
    nk_arena_played played = {0};
    nk_status st = nk_arena_play_meetings(&setup, m->meetings + m->done, n, &played, err, errlen);
    for (size_t k = 0; st == NK_OK && k < n; k++)
        nk_ciao_add(&m->ciao, &m->meetings[m->done + k], &played.tally[k]);
    nk_arena_played_free(&played);
    if (st != NK_OK)
        return st;
    m->done += n;
    if (m->done < m->total)
        return NK_OK;
    nk_ciao_summarise(&m->ciao);
    st = nk_nash_average(m->ciao.score, m->ciao.n, &m->nash, err, errlen);
    m->summarised = st == NK_OK;
    return st;
}

bool nk_master_done(const nk_master *m)
{
    return m->summarised;
}

nk_master_record nk_master_record_of(const nk_master *m)
{
    return (nk_master_record){m->done, m->total, &m->ciao, m->summarised ? &m->nash : NULL};
}

void nk_master_free(nk_master *m)
{
    if (m == NULL)
        return;
    nk_free(m->players);
    nk_free(m->weights);
    nk_free(m->meetings);
    nk_ciao_free(&m->ciao);
    nk_nash_free(&m->nash);
    nk_free(m);
}
