/*
 * match.c -- a match between two players as an iterate object (match.h).
 *
 * The match keeps the setup of its meetings (all of them (0, 1): A is
 * entrant 0, B entrant 1), the offset of the next part, and the result,
 * which counts the pairs in index order; with an SPRT the test is asked
 * after every pair, and the first that crosses a bound ends the match.
 */
#include "run/match.h"

#include <stdio.h>
#include <string.h>

#include "base/alloc.h"

struct nk_run_match {
    nk_run_match_settings s;
    nk_arena_setup setup;
    nk_meeting *meetings; /* [part] */
    size_t npairs, part;  /* pairs in all (the cap), pairs per iterate */
    uint64_t next;        /* the first pair of the next part */
    bool decided;         /* the SPRT crossed a bound */
    bool started;
    nk_arena_played played;
    nk_run_match_part last;
    nk_run_match_result result;
};

/* One line naming the bad setting, or NK_OK. */
static nk_status check_settings(const nk_run_match_settings *s, char *err, size_t errlen)
{
    if (s->variant == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "match: no variant");
    for (int i = 0; i < 2; i++)
        if (s->players[i].spec == NULL)
            return nk_fail(NK_EINVAL, err, errlen, "match: no spec for player %c", "AB"[i]);
    if (s->games < 2 || s->games % 2 != 0)
        return nk_fail(NK_ERANGE, err, errlen,
                       "match: games %llu: needs an even number, at least 2 (colour-swapped "
                       "pairs)",
                       (unsigned long long)s->games);
    if (s->games / 2 > SIZE_MAX / sizeof(nk_meeting))
        return nk_fail(NK_ERANGE, err, errlen, "match: games %llu: too many",
                       (unsigned long long)s->games);
    if (s->openings > NK_MAX_PLIES)
        return nk_fail(NK_ERANGE, err, errlen, "match: openings %u: at most %d plies", s->openings,
                       NK_MAX_PLIES);
    if (s->ply_limit < 1 || s->ply_limit > NK_MAX_PLIES)
        return nk_fail(NK_ERANGE, err, errlen, "match: ply limit %u: must be 1 to %d", s->ply_limit,
                       NK_MAX_PLIES);
    if (s->threads < 0)
        return nk_fail(NK_ERANGE, err, errlen, "match: threads %d: must be 0 or more", s->threads);
    if (nk_arena_unit_name(s->unit) == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "match: unit %d: neither game nor match",
                       (int)s->unit);
    if (s->unit == NK_UNIT_MATCH && (s->match_games < 1 || s->match_games > NK_MATCH_GAMES_MAX))
        return nk_fail(NK_ERANGE, err, errlen, "match: match games %u: must be 1 to %d",
                       s->match_games, NK_MATCH_GAMES_MAX);
    return NK_OK;
}

nk_status nk_run_match_alloc(nk_run_match **out, const nk_run_match_settings *s, char *err,
                             size_t errlen)
{
    *out = NULL;
    nk_status st = check_settings(s, err, errlen);
    if (st != NK_OK)
        return st;
    nk_run_match *m = nk_calloc(1, sizeof *m);
    if (m == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the match");
    m->s = *s;
    m->npairs = (size_t)(s->games / 2);
    m->part = s->sprt && m->npairs > NK_RUN_MATCH_SPRT_PART ? NK_RUN_MATCH_SPRT_PART : m->npairs;
    m->meetings = nk_calloc(m->part + 1, sizeof *m->meetings);
    if (m->meetings == NULL) {
        size_t games = 2 * m->part;
        nk_free(m);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu games", games);
    }
    for (size_t i = 0; i < m->part; i++)
        m->meetings[i] = (nk_meeting){0, 1};
    m->setup = (nk_arena_setup){.variant = s->variant,
                                .ply_limit = s->ply_limit,
                                .players = m->s.players,
                                .nplayers = 2,
                                .master = s->seed,
                                .batch = 0,
                                .opening = s->openings,
                                .threads = s->threads,
                                .record = s->record,
                                .unit = s->unit,
                                .match_games = s->match_games};
    nk_run_match_result *r = &m->result;
    nk_arena_init(&r->tally);
    nk_arena_stats_of(&r->tally, &r->stats);
    /* the bounds, also when no pair is counted; and a check of the spec */
    char msg[NK_MSG_MAX];
    if (s->sprt &&
        (st = nk_arena_sprt_spec(&r->tally, &s->spec, &r->sprt, msg, sizeof msg)) != NK_OK) {
        nk_run_match_free(m);
        return nk_fail(st, err, errlen, "match: %s", msg);
    }
    *out = m;
    return NK_OK;
}

/* Counts pair i of p into r. */
static void count_pair(nk_run_match_result *r, const nk_arena_played *p, size_t i)
{
    const nk_meeting_tally *mt = &p->tally[i];
    nk_arena_add_meeting(&r->tally, mt);
    for (size_t g = p->first_game[2 * i]; g < p->first_game[2 * i + 2]; g++) {
        r->reasons[p->games[g].result.reason]++;
        r->plies += p->games[g].plies;
        r->ngames++;
    }
    r->game_wins += mt->game_wins;
    r->game_draws += mt->game_draws;
    r->game_losses += mt->game_losses;
}

static void finish(nk_run_match_result *r)
{
    nk_arena_stats_of(&r->tally, &r->stats);
    memcpy(r->pentanomial, r->tally.pairs, sizeof r->pentanomial);
    r->mean_plies = r->ngames ? (double)r->plies / (double)r->ngames : 0;
}

nk_status nk_run_match_iterate(nk_run_match *m, char *err, size_t errlen)
{
    if (nk_run_match_done(m))
        return nk_fail(NK_EINVAL, err, errlen, "match: already over");
    size_t n = m->npairs - m->next < m->part ? (size_t)(m->npairs - m->next) : m->part;
    nk_arena_played_free(&m->played);
    memset(&m->played, 0, sizeof m->played);
    m->started = true;
    m->last = (nk_run_match_part){m->next, 0, &m->played};
    nk_arena_setup setup = m->setup;
    setup.first = m->next;
    nk_status st = nk_arena_play_meetings(&setup, m->meetings, n, &m->played, err, errlen);
    if (st != NK_OK)
        return st;
    nk_run_match_result *r = &m->result;
    size_t counted = 0;
    while (counted < n && !m->decided) {
        count_pair(r, &m->played, counted++);
        if (m->s.sprt) {
            /* the spec was checked by alloc; what is left is running out of memory */
            char msg[NK_MSG_MAX];
            st = nk_arena_sprt_spec(&r->tally, &m->s.spec, &r->sprt, msg, sizeof msg);
            if (st != NK_OK)
                return nk_fail(st, err, errlen, "match: %s", msg);
            m->decided = r->sprt.verdict != NK_SPRT_CONTINUE;
        }
    }
    m->last.counted = counted;
    m->next += n;
    finish(r);
    return NK_OK;
}

bool nk_run_match_done(const nk_run_match *m)
{
    return m->decided || m->next >= m->npairs;
}

const nk_run_match_part *nk_run_match_part_of(const nk_run_match *m)
{
    return m->started ? &m->last : NULL;
}

const nk_run_match_result *nk_run_match_result_of(const nk_run_match *m)
{
    return &m->result;
}

void nk_run_match_free(nk_run_match *m)
{
    if (m == NULL)
        return;
    nk_arena_played_free(&m->played);
    nk_free(m->meetings);
    nk_free(m);
}
