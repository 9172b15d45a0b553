/*
 * tournament.c -- a tournament as an iterate object, and its record (see
 * tournament.h).
 *
 * The record (nk_tour) is the whole state: the object adds to it only the
 * tables a batch needs (the players as exec takes them, the meetings in
 * schedule order and each one's number within its pairing), which follow
 * from the settings.  So restoring a partial record is copying it.
 */
#include "run/tournament.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "rules/rules.h"

/* The smallest batch, in meetings. */
enum { MIN_BATCH = 64 };

struct nk_tournament {
    const nk_variant *variant;
    int threads;
    nk_tour tour;
    nk_spec *specs;          /* [nplayers] */
    nk_exec_player *players; /* [nplayers] */
    nk_meeting *meetings;    /* [total] in schedule order */
    uint64_t *index;         /* [total] each meeting's number in its pairing */
};

const char *nk_tour_format_name(nk_tour_format f)
{
    return f == NK_TOUR_GAUNTLET ? "gauntlet" : "round-robin";
}

/* ===== the record ===== */

size_t nk_tour_meetings_per_pairing(const nk_tour *t)
{
    return (size_t)(t->set.games / 2);
}

size_t nk_tour_meetings_total(const nk_tour *t)
{
    return t->npairings * nk_tour_meetings_per_pairing(t);
}

void nk_tour_free(nk_tour *t)
{
    nk_free(t->players);
    nk_free(t->pairings);
    nk_free(t->games);
    nk_free(t->moves);
    nk_free(t->matches);
    nk_free(t->ratings);
    memset(t, 0, sizeof *t);
}

/* Appends one played game (its moves must be recorded). */
static nk_status add_game(nk_tour *t, int32_t pairing, int32_t south, int32_t north,
                          const nk_exec_game *g, char *err, size_t errlen)
{
    if (t->ngames == t->games_cap) {
        size_t cap = t->games_cap ? 2 * t->games_cap : 256;
        nk_tour_game *n = nk_realloc(t->games, cap * sizeof *n);
        if (n == NULL)
            return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the games");
        t->games = n;
        t->games_cap = cap;
    }
    if (t->nmoves + g->plies > t->moves_cap) {
        size_t cap = t->moves_cap ? 2 * t->moves_cap : 65536;
        while (cap < t->nmoves + g->plies)
            cap *= 2;
        uint8_t *n = nk_realloc(t->moves, cap);
        if (n == NULL)
            return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the moves");
        t->moves = n;
        t->moves_cap = cap;
    }
    t->games[t->ngames++] = (nk_tour_game){.pairing = pairing,
                                           .south = south,
                                           .north = north,
                                           .opening = (int32_t)g->opening,
                                           .plies = (int32_t)g->plies,
                                           .winner = (int8_t)g->result.winner,
                                           .reason = (int8_t)g->result.reason,
                                           .south_total = (int16_t)g->result.total[NK_SOUTH],
                                           .north_total = (int16_t)g->result.total[NK_NORTH],
                                           .moves_at = (int64_t)t->nmoves,
                                           .first = (int8_t)g->start.side,
                                           .north_pits = g->start.north};
    if (g->plies > 0 && g->moves != NULL)
        memcpy(t->moves + t->nmoves, g->moves, g->plies);
    t->nmoves += g->plies;
    return NK_OK;
}

/* Appends one finished match (unit match), after its games. */
static nk_status add_match(nk_tour *t, const nk_tour_match *m, char *err, size_t errlen)
{
    if (t->nmatches == t->matches_cap) {
        size_t cap = t->matches_cap ? 2 * t->matches_cap : 256;
        nk_tour_match *n = nk_realloc(t->matches, cap * sizeof *n);
        if (n == NULL)
            return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the matches");
        t->matches = n;
        t->matches_cap = cap;
    }
    t->matches[t->nmatches++] = *m;
    return NK_OK;
}

/* Counts a result of south against north (winner 0 South, 1 North, 2 draw). */
static void cross_add(nk_wdl *m, size_t p, int32_t south, int32_t north, int winner)
{
    nk_wdl *s = &m[(size_t)south * p + (size_t)north];
    nk_wdl *n = &m[(size_t)north * p + (size_t)south];
    if (winner == NK_SOUTH) {
        s->w++;
        n->l++;
    } else if (winner == NK_NORTH) {
        s->l++;
        n->w++;
    } else {
        s->d++;
        n->d++;
    }
}

void nk_tour_cross_games(const nk_tour *t, nk_wdl *m)
{
    size_t p = t->nplayers;
    memset(m, 0, p * p * sizeof *m);
    for (size_t k = 0; k < t->ngames; k++)
        cross_add(m, p, t->games[k].south, t->games[k].north, t->games[k].winner);
}

void nk_tour_cross(const nk_tour *t, nk_wdl *m)
{
    if (t->set.unit != NK_UNIT_MATCH) {
        nk_tour_cross_games(t, m);
        return;
    }
    size_t p = t->nplayers;
    memset(m, 0, p * p * sizeof *m);
    for (size_t k = 0; k < t->nmatches; k++)
        cross_add(m, p, t->matches[k].south, t->matches[k].north, t->matches[k].winner);
}

nk_status nk_tour_rate(nk_tour *t, char *err, size_t errlen)
{
    size_t p = t->nplayers, anchor = p;
    for (size_t i = 0; i < p; i++)
        if (strcmp(t->players[i].name, t->set.anchor) == 0)
            anchor = i;
    if (anchor == p)
        return nk_fail(NK_EINVAL, err, errlen, "the anchor '%s' is not one of the players",
                       t->set.anchor);
    t->has_ratings = false;
    nk_wdl *m = nk_calloc(p * p, sizeof *m);
    if (m == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    nk_tour_cross(t, m);
    nk_ratings r;
    char e2[NK_MSG_MAX];
    nk_status st = nk_ratings_fit(m, p, anchor, t->set.anchor_elo, &r, e2, sizeof e2);
    if (st == NK_OK) {
        for (size_t k = 0; k < p; k++) {
            size_t i = r.order[k];
            t->ratings[i] =
                (nk_tour_rating){r.elo[i],   r.se[i],        r.lo[i],       r.hi[i],     r.games[i],
                                 r.score[i], (int32_t)k + 1, r.los_next[k], r.se_pool[i]};
        }
        t->has_ratings = true;
        t->prior = r.prior;
    } else if (st == NK_EINVAL) {
        st = NK_OK; /* not yet a connected set of results: no list */
    } else {
        nk_fail(st, err, errlen, "%s", e2);
    }
    nk_ratings_free(&r);
    nk_free(m);
    return st;
}

/* The numbers of the settings that a --resume must match, in the order
 * they are compared, by their options' names. */
static const struct {
    const char *option;
    size_t at;
} NUMBERS[] = {
    {"match-games", offsetof(nk_tour_settings, match_games)},
    {"games", offsetof(nk_tour_settings, games)},
    {"openings", offsetof(nk_tour_settings, openings)},
    {"seed", offsetof(nk_tour_settings, seed)},
    {"ply-limit", offsetof(nk_tour_settings, ply_limit)},
};

nk_status nk_tour_compare(const nk_tour *f, const nk_tour *w, char *err, size_t errlen)
{
    const nk_tour_settings *a = &f->set, *b = &w->set;
    if (strcmp(a->variant, b->variant) != 0)
        return nk_fail(NK_EMISMATCH, err, errlen, "it was made with --variant %s, not %s",
                       a->variant, b->variant);
    if (a->format != b->format)
        return nk_fail(NK_EMISMATCH, err, errlen, "it was made with --format %s, not %s",
                       nk_tour_format_name(a->format), nk_tour_format_name(b->format));
    if (a->unit != b->unit)
        return nk_fail(NK_EMISMATCH, err, errlen, "it was made with --unit %s, not %s",
                       nk_arena_unit_name(a->unit), nk_arena_unit_name(b->unit));
    for (size_t k = 0; k < sizeof NUMBERS / sizeof *NUMBERS; k++) {
        uint64_t x, y;
        memcpy(&x, (const char *)a + NUMBERS[k].at, sizeof x);
        memcpy(&y, (const char *)b + NUMBERS[k].at, sizeof y);
        if (x != y)
            return nk_fail(NK_EMISMATCH, err, errlen, "it was made with --%s %llu, not %llu",
                           NUMBERS[k].option, (unsigned long long)x, (unsigned long long)y);
    }
    if (strcmp(a->anchor, b->anchor) != 0 || a->anchor_elo != b->anchor_elo)
        return nk_fail(NK_EMISMATCH, err, errlen, "it was made with --anchor '%s=%g', not '%s=%g'",
                       a->anchor, a->anchor_elo, b->anchor, b->anchor_elo);
    if (f->nplayers != w->nplayers)
        return nk_fail(NK_EMISMATCH, err, errlen, "it has %zu players, not %zu", f->nplayers,
                       w->nplayers);
    if (f->npairings != w->npairings ||
        memcmp(f->pairings, w->pairings, 2 * f->npairings * sizeof *f->pairings) != 0)
        return nk_fail(NK_EMISMATCH, err, errlen, "its schedule of pairings is another");
    for (size_t i = 0; i < f->nplayers; i++) {
        const nk_tour_player *x = &f->players[i], *y = &w->players[i];
        if (strcmp(x->name, y->name) != 0)
            return nk_fail(NK_EMISMATCH, err, errlen, "its player %zu is '%s', not '%s'", i + 1,
                           x->name, y->name);
        if (strcmp(x->spec, y->spec) != 0)
            return nk_fail(NK_EMISMATCH, err, errlen, "its player '%s' is '%s', not '%s'", x->name,
                           x->spec, y->spec);
        if (x->n_weights != y->n_weights ||
            memcmp(x->weights, y->weights, (size_t)x->n_weights * sizeof(double)) != 0)
            return nk_fail(NK_EMISMATCH, err, errlen,
                           "its player '%s' has other weights (the weights file or run changed)",
                           x->name);
    }
    return NK_OK;
}

/* ===== the iterate object ===== */

/* One line naming the first bad setting, or NK_OK. */
static nk_status check_settings(const nk_tournament_settings *s, char *err, size_t errlen)
{
    const nk_tour_settings *t = &s->tour;
    if (nk_variant_find(t->variant) == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "unknown variant '%s'", t->variant);
    if (t->format != NK_TOUR_ROUND_ROBIN && t->format != NK_TOUR_GAUNTLET)
        return nk_fail(NK_EINVAL, err, errlen, "format %d is neither round-robin nor gauntlet",
                       (int)t->format);
    if (nk_arena_unit_name(t->unit) == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "unit %d is neither game nor match", (int)t->unit);
    if (t->unit == NK_UNIT_MATCH ? t->match_games < 1 || t->match_games > NK_MATCH_GAMES_MAX
                                 : t->match_games != 0)
        return nk_fail(NK_ERANGE, err, errlen,
                       "match games %llu: give 1 to %d with unit match, 0 with unit game",
                       (unsigned long long)t->match_games, NK_MATCH_GAMES_MAX);
    if (t->games < 2 || t->games % 2 != 0 || t->games > (1u << 30))
        return nk_fail(NK_ERANGE, err, errlen,
                       "games %llu a pairing: give an even number from 2 to 2^30",
                       (unsigned long long)t->games);
    if (t->ply_limit < 1 || t->ply_limit > NK_MAX_PLIES)
        return nk_fail(NK_ERANGE, err, errlen, "ply limit %llu: give 1 to %d",
                       (unsigned long long)t->ply_limit, NK_MAX_PLIES);
    if (t->openings > NK_MAX_PLIES)
        return nk_fail(NK_ERANGE, err, errlen, "openings %llu: give 0 to %d",
                       (unsigned long long)t->openings, NK_MAX_PLIES);
    if (!isfinite(t->anchor_elo))
        return nk_fail(NK_ERANGE, err, errlen, "the anchor's rating is not a finite number");
    if (s->threads < 0)
        return nk_fail(NK_ERANGE, err, errlen, "threads %d: give 0 (the default) or more",
                       s->threads);
    if (s->nplayers < 2 || s->players == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "a tournament needs at least two players (got %zu)",
                       s->players == NULL ? 0 : s->nplayers);
    bool anchor = false;
    for (size_t i = 0; i < s->nplayers; i++) {
        const nk_tour_entry *e = &s->players[i];
        if (e->name == NULL || e->name[0] == '\0' || strlen(e->name) >= NK_PLAYER_NAME)
            return nk_fail(NK_EINVAL, err, errlen, "player %zu: a name of 1 to %d bytes", i + 1,
                           NK_PLAYER_NAME - 1);
        if (e->spec == NULL || e->n > NK_MAX_FEATURES || (e->n > 0 && e->weights == NULL))
            return nk_fail(NK_EINVAL, err, errlen,
                           "player '%s': no spec, or weights that are not 0 to %d numbers", e->name,
                           NK_MAX_FEATURES);
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->players[j].name, e->name) == 0)
                return nk_fail(NK_EINVAL, err, errlen, "duplicate player name '%s'", e->name);
        anchor = anchor || strcmp(e->name, t->anchor) == 0;
    }
    if (!anchor)
        return nk_fail(NK_EINVAL, err, errlen, "the anchor '%s' is not one of the players",
                       t->anchor);
    return NK_OK;
}

/* The record's players and schedule: round-robin (a, b) for a < b in
 * order, gauntlet (0, b). */
static nk_status init_record(nk_tour *t, const nk_tournament_settings *s, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->set = s->tour;
    snprintf(t->created, sizeof t->created, "%s", s->created != NULL ? s->created : "");
    size_t p = s->nplayers;
    t->nplayers = p;
    t->npairings = s->tour.format == NK_TOUR_GAUNTLET ? p - 1 : p * (p - 1) / 2;
    t->players = nk_calloc(p, sizeof *t->players);
    t->pairings = nk_calloc(2 * t->npairings + 1, sizeof *t->pairings);
    t->ratings = nk_calloc(p, sizeof *t->ratings);
    if (t->players == NULL || t->pairings == NULL || t->ratings == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu players", p);
    for (size_t i = 0; i < p; i++) {
        const nk_tour_entry *e = &s->players[i];
        snprintf(t->players[i].name, NK_PLAYER_NAME, "%s", e->name);
        snprintf(t->players[i].spec, NK_SPEC_TEXT, "%s", e->spec->text);
        t->players[i].n_weights = (int32_t)e->n;
        if (e->n > 0)
            memcpy(t->players[i].weights, e->weights, e->n * sizeof(double));
    }
    size_t q = 0;
    for (size_t a = 0; a < p; a++)
        for (size_t b = a + 1; b < p; b++) {
            if (s->tour.format == NK_TOUR_GAUNTLET && a != 0)
                continue;
            t->pairings[2 * q] = (int32_t)a;
            t->pairings[2 * q + 1] = (int32_t)b;
            q++;
        }
    return NK_OK;
}

/* The tables of a batch: the players as exec takes them, the meetings in
 * schedule order and their numbers within their pairings. */
static nk_status init_tables(nk_tournament *t, const nk_tournament_settings *s, char *err,
                             size_t errlen)
{
    const nk_tour *tour = &t->tour;
    size_t p = tour->nplayers, per = nk_tour_meetings_per_pairing(tour);
    size_t total = nk_tour_meetings_total(tour);
    t->specs = nk_calloc(p, sizeof *t->specs);
    t->players = nk_calloc(p, sizeof *t->players);
    t->meetings = nk_calloc(total + 1, sizeof *t->meetings);
    t->index = nk_calloc(total + 1, sizeof *t->index);
    if (t->specs == NULL || t->players == NULL || t->meetings == NULL || t->index == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu meetings", total);
    for (size_t i = 0; i < p; i++) {
        const nk_tour_player *pl = &tour->players[i];
        t->specs[i] = *s->players[i].spec;
        t->players[i] = (nk_exec_player){&t->specs[i], pl->n_weights ? pl->weights : NULL,
                                         (size_t)pl->n_weights};
    }
    for (size_t m = 0; m < total; m++) {
        size_t q = m / per;
        t->meetings[m] =
            (nk_meeting){(uint32_t)tour->pairings[2 * q], (uint32_t)tour->pairings[2 * q + 1]};
        t->index[m] = m % per;
    }
    return NK_OK;
}

nk_status nk_tournament_alloc(nk_tournament **out, const nk_tournament_settings *s, char *err,
                              size_t errlen)
{
    *out = NULL;
    nk_status st = check_settings(s, err, errlen);
    if (st != NK_OK)
        return st;
    if (s->tour.format == NK_TOUR_ROUND_ROBIN &&
        s->nplayers > SIZE_MAX / 4 / s->nplayers / (size_t)s->tour.games)
        return nk_fail(NK_ERANGE, err, errlen, "too many games: %zu players x %llu games",
                       s->nplayers, (unsigned long long)s->tour.games);
    nk_tournament *t = nk_calloc(1, sizeof *t);
    if (t == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    t->variant = nk_variant_find(s->tour.variant);
    t->threads = s->threads;
    st = init_record(&t->tour, s, err, errlen);
    if (st == NK_OK)
        st = init_tables(t, s, err, errlen);
    if (st != NK_OK) {
        nk_tournament_free(t);
        return st;
    }
    *out = t;
    return NK_OK;
}

/* A deep copy of a record, with room for nothing more. */
static nk_status copy_record(nk_tour *to, const nk_tour *from, char *err, size_t errlen)
{
    *to = *from;
    to->players = nk_malloc(from->nplayers * sizeof *to->players + 1);
    to->pairings = nk_malloc(2 * from->npairings * sizeof *to->pairings + 1);
    to->ratings = nk_malloc(from->nplayers * sizeof *to->ratings + 1);
    to->games = nk_malloc(from->ngames * sizeof *to->games + 1);
    to->moves = nk_malloc(from->nmoves + 1);
    to->matches = nk_malloc(from->nmatches * sizeof *to->matches + 1);
    to->games_cap = from->ngames;
    to->moves_cap = from->nmoves;
    to->matches_cap = from->nmatches;
    if (to->players == NULL || to->pairings == NULL || to->ratings == NULL || to->games == NULL ||
        to->moves == NULL || to->matches == NULL) {
        nk_tour_free(to);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for a tournament of %zu games",
                       from->ngames);
    }
    memcpy(to->players, from->players, from->nplayers * sizeof *to->players);
    memcpy(to->pairings, from->pairings, 2 * from->npairings * sizeof *to->pairings);
    memcpy(to->ratings, from->ratings, from->nplayers * sizeof *to->ratings);
    if (from->ngames > 0)
        memcpy(to->games, from->games, from->ngames * sizeof *to->games);
    if (from->nmoves > 0)
        memcpy(to->moves, from->moves, from->nmoves);
    if (from->nmatches > 0)
        memcpy(to->matches, from->matches, from->nmatches * sizeof *to->matches);
    return NK_OK;
}

nk_status nk_tournament_restore(nk_tournament *t, const nk_tour *from, char *err, size_t errlen)
{
    nk_status st = nk_tour_compare(from, &t->tour, err, errlen);
    if (st != NK_OK)
        return st;
    size_t done = from->meetings_done;
    bool match = from->set.unit == NK_UNIT_MATCH;
    if (done > nk_tour_meetings_total(from) ||
        (match ? from->nmatches != 2 * done : from->ngames != 2 * done || from->nmatches != 0))
        return nk_fail(NK_EFORMAT, err, errlen,
                       "its games (%zu) and matches (%zu) do not fit %zu meetings done",
                       from->ngames, from->nmatches, done);
    nk_tour copy;
    st = copy_record(&copy, from, err, errlen);
    if (st != NK_OK)
        return st;
    nk_tour_free(&t->tour);
    t->tour = copy;
    return NK_OK;
}

/* Adds unit u (game or match u % 2 of meeting u / 2) of a played batch to
 * the record: its games, and with unit match the match. */
static nk_status add_unit(nk_tour *tour, const nk_arena_played *pl, size_t u, int32_t q, char *err,
                          size_t errlen)
{
    nk_tour_match m = {.pairing = q, .first_game = (int64_t)tour->ngames};
    nk_status st = NK_OK;
    for (size_t g = pl->first_game[u]; st == NK_OK && g < pl->first_game[u + 1]; g++) {
        const nk_exec_game *x = &pl->games[g];
        m.south = (int32_t)pl->jobs[g].south;
        m.north = (int32_t)pl->jobs[g].north;
        m.games++;
        m.south_wins += x->result.winner == NK_SOUTH;
        m.north_wins += x->result.winner == NK_NORTH;
        m.draws += x->result.winner == NK_DRAW;
        st = add_game(tour, q, m.south, m.north, x, err, errlen);
    }
    if (st != NK_OK || tour->set.unit != NK_UNIT_MATCH)
        return st;
    /* the outcome is a's (the meeting's first player), who is player 0
     * (South) of match 0 and player 1 of match 1 */
    int outcome = pl->tally[u / 2].outcome[u % 2], k = (int)(u % 2);
    m.winner = outcome == 0 ? 2 : (outcome > 0) == (k == 0) ? 0 : 1;
    return add_match(tour, &m, err, errlen);
}

nk_status nk_tournament_iterate(nk_tournament *t, char *err, size_t errlen)
{
    nk_tour *tour = &t->tour;
    size_t per = nk_tour_meetings_per_pairing(tour), total = nk_tour_meetings_total(tour);
    size_t first = tour->meetings_done;
    if (first >= total)
        return NK_OK;
    size_t n = first / 8 > MIN_BATCH ? first / 8 : MIN_BATCH;
    if (n > total - first)
        n = total - first;
    nk_arena_setup setup = {.variant = t->variant,
                            .ply_limit = (unsigned)tour->set.ply_limit,
                            .players = t->players,
                            .nplayers = tour->nplayers,
                            .master = tour->set.seed,
                            .batch = 0,
                            .opening = (unsigned)tour->set.openings,
                            .threads = t->threads,
                            .record = true,
                            .unit = tour->set.unit,
                            .match_games = (unsigned)tour->set.match_games,
                            .index = t->index + first};
    nk_arena_played played = {0};
    nk_status st = nk_arena_play_meetings(&setup, t->meetings + first, n, &played, err, errlen);
    for (size_t i = 0; st == NK_OK && i < 2 * n; i++)
        st = add_unit(tour, &played, i, (int32_t)((first + i / 2) / per), err, errlen);
    nk_arena_played_free(&played);
    if (st != NK_OK)
        return st;
    tour->meetings_done += n;
    return nk_tour_rate(tour, err, errlen);
}

bool nk_tournament_done(const nk_tournament *t)
{
    return t->tour.meetings_done >= nk_tour_meetings_total(&t->tour);
}

const nk_tour *nk_tournament_record_of(const nk_tournament *t)
{
    return &t->tour;
}

void nk_tournament_free(nk_tournament *t)
{
    if (t == NULL)
        return;
    nk_tour_free(&t->tour);
    nk_free(t->specs);
    nk_free(t->players);
    nk_free(t->meetings);
    nk_free(t->index);
    nk_free(t);
}
