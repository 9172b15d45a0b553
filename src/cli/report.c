/*
 * report.c -- printers shared by commands (report.h).
 *
 * A tournament is printed from one view of it: the cross table the
 * ratings are fitted to (m: games, or matches with unit match), the
 * cross table of the games (gm), the score matrix, the players in rank
 * order, and the Nash average of a finished round robin.
 */
#include "cli/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena/nash.h"
#include "arena/rating.h"
#include "base/alloc.h"
#include "cli/cli.h"
#include "io/config.h"

static const double Z95 = 1.959964;

/* ===== the tournament's view ===== */

typedef struct tour_view {
    const nk_tour *tour;
    size_t p;
    bool matches; /* unit match */
    nk_wdl *m, *gm;
    double *score;
    size_t *order; /* order[k]: the player ranked k + 1 */
    nk_nash nash;
    bool has_nash;
} tour_view;

static void view_free(tour_view *v)
{
    nk_nash_free(&v->nash);
    nk_free(v->gm);
    nk_free(v->m);
    nk_free(v->score);
    nk_free(v->order);
}

/* order[k]: the player ranked k + 1 (player order without ratings).  The
 * players are sorted by rank, never placed by it: a rank is only ever
 * compared, so that no rank read from a file indexes memory (the reader
 * checks that they are a permutation, io/tourfile.c). */
static void rank_order(const nk_tour *tour, size_t *order)
{
    for (size_t i = 0; i < tour->nplayers; i++) {
        size_t k = i;
        while (tour->has_ratings && k > 0 &&
               tour->ratings[order[k - 1]].rank > tour->ratings[i].rank) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
}

static int view_load(tour_view *v, const nk_cli *cli, const nk_tour *tour)
{
    size_t p = tour->nplayers;
    *v = (tour_view){.tour = tour, .p = p, .matches = tour->set.unit == NK_UNIT_MATCH};
    v->m = nk_calloc(p * p, sizeof *v->m);
    v->gm = nk_calloc(p * p, sizeof *v->gm);
    v->score = nk_calloc(p * p, sizeof *v->score);
    v->order = nk_calloc(p, sizeof *v->order);
    if (v->m == NULL || v->gm == NULL || v->score == NULL || v->order == NULL) {
        view_free(v);
        nk_cli_error(cli, "out of memory");
        return NK_EXIT_FAIL;
    }
    nk_tour_cross(tour, v->m);
    nk_ratings_score_matrix(v->m, p, v->score);
    rank_order(tour, v->order);
    nk_tour_cross_games(tour, v->gm);
    /* The Nash average needs the whole score matrix: a finished round robin. */
    if (tour->set.format == NK_TOUR_ROUND_ROBIN && p >= 2 &&
        tour->meetings_done == nk_tour_meetings_total(tour)) {
        char err[NK_MSG_MAX];
        nk_status st = nk_nash_average(v->score, p, &v->nash, err, sizeof err);
        if (st == NK_ENOMEM) {
            view_free(v);
            nk_cli_error(cli, "%s", err);
            return NK_EXIT_FAIL;
        }
        if (st == NK_OK)
            v->has_nash = true;
        else
            nk_cli_note("no Nash average: %s", err);
    }
    return NK_EXIT_OK;
}

/* ===== JSON ===== */

static void json_head(const tour_view *v)
{
    const nk_tour *tour = v->tour;
    const nk_tour_settings *s = &tour->set;
    printf("{\"variant\":");
    nk_cli_json_string(stdout, s->variant);
    printf(",\"format\":\"%s\",\"unit\":\"%s\",\"match_games\":%llu,\"games_played\":%zu,"
           "\"matches_played\":%zu,\"games_per_pairing\":%llu,\"openings\":%llu,\"seed\":%llu,"
           "\"ply_limit\":%llu,\"meetings_done\":%zu,\"meetings_total\":%zu,\"anchor\":",
           nk_tour_format_name(s->format), nk_arena_unit_name(s->unit),
           (unsigned long long)s->match_games, tour->ngames, tour->nmatches,
           (unsigned long long)s->games, (unsigned long long)s->openings,
           (unsigned long long)s->seed, (unsigned long long)s->ply_limit, tour->meetings_done,
           nk_tour_meetings_total(tour));
    nk_cli_json_string(stdout, s->anchor);
    printf(",\"anchor_elo\":%.6g,\"players\":[", s->anchor_elo);
    for (size_t i = 0; i < v->p; i++) {
        printf("%s{\"name\":", i ? "," : "");
        nk_cli_json_string(stdout, tour->players[i].name);
        printf(",\"spec\":");
        nk_cli_json_string(stdout, tour->players[i].spec);
        printf("}");
    }
}

/* One count of a cross table as a JSON matrix: k 0 wins, 1 draws, 2 losses. */
static void json_counts(const tour_view *v, const nk_wdl *m, int k)
{
    for (size_t i = 0; i < v->p; i++) {
        printf("%s[", i ? "," : "");
        for (size_t j = 0; j < v->p; j++) {
            const nk_wdl *c = &m[i * v->p + j];
            printf("%s%u", j ? "," : "", k == 0 ? c->w : k == 1 ? c->d : c->l);
        }
        printf("]");
    }
}

static void json_cross(const tour_view *v)
{
    const char *keys[3] = {"wins", "draws", "losses"};
    printf("],\"cross\":{");
    for (int k = 0; k < 4; k++) {
        printf("%s\"%s\":[", k ? "," : "", k < 3 ? keys[k] : "score");
        if (k < 3) {
            json_counts(v, v->m, k);
        } else {
            for (size_t i = 0; i < v->p; i++) {
                printf("%s[", i ? "," : "");
                for (size_t j = 0; j < v->p; j++)
                    printf("%s%.6f", j ? "," : "", v->score[i * v->p + j]);
                printf("]");
            }
        }
        printf("]");
    }
    if (v->matches) { /* the games inside the matches */
        printf(",\"games_wins\":[");
        for (int k = 0; k < 3; k++) {
            if (k)
                printf(",\"games_%s\":[", keys[k]);
            json_counts(v, v->gm, k);
            printf("]");
        }
    }
}

static void json_ratings(const tour_view *v)
{
    const nk_tour *tour = v->tour;
    printf("},\"model\":\"bradley-terry, draws as half a win, maximum likelihood\","
           "\"interval\":\"95%%, inverse observed information, draw-corrected "
           "sandwich; ci against the anchor, ci_pool against the mean of all\",\"prior\":%s,"
           "\"ratings\":[",
           tour->prior ? "true" : "false");
    for (size_t k = 0; tour->has_ratings && k < v->p; k++) {
        const nk_tour_rating *r = &tour->ratings[v->order[k]];
        printf("%s{\"rank\":%d,\"player\":", k ? "," : "", r->rank);
        nk_cli_json_string(stdout, tour->players[v->order[k]].name);
        printf(",\"elo\":%.2f,\"se\":%.2f,\"ci\":[%.2f,%.2f],\"se_pool\":%.2f,"
               "\"ci_pool\":[%.2f,%.2f],\"games\":%.0f,\"score\":%.6f,\"los_next\":",
               r->elo, r->se, r->lo, r->hi, r->se_pool, r->elo - Z95 * r->se_pool,
               r->elo + Z95 * r->se_pool, r->games, r->score);
        if (isnan(r->los_next))
            printf("null}");
        else
            printf("%.6f}", r->los_next);
    }
}

static void json_nash(const tour_view *v)
{
    printf("],\"nash\":");
    if (v->has_nash) {
        printf("{\"mix\":[");
        for (size_t i = 0; i < v->p; i++)
            printf("%s%.9f", i ? "," : "", v->nash.mix[i]);
        printf("],\"payoff\":[");
        for (size_t i = 0; i < v->p; i++)
            printf("%s%.9f", i ? "," : "", v->nash.payoff[i]);
        printf("],\"cyclic_share\":%.6f}", v->nash.cyclic_share);
    } else {
        printf("null");
    }
    printf("}\n");
}

static void print_json(const tour_view *v)
{
    json_head(v);
    json_cross(v);
    json_ratings(v);
    json_nash(v);
}

/* ===== CSV ===== */

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *out, const char *text)
{
    if (strpbrk(text, ",\"\r\n") == NULL) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

/* The rating list, a blank line, the pairings (and the Nash average). */
static void print_csv(const tour_view *v)
{
    const nk_tour *tour = v->tour;
    size_t p = v->p;
    printf("rank,player,elo,se,lo,hi,games,score,los_next,se_pool\n");
    for (size_t k = 0; tour->has_ratings && k < p; k++) {
        const nk_tour_rating *r = &tour->ratings[v->order[k]];
        printf("%d,", r->rank);
        csv_field(stdout, tour->players[v->order[k]].name);
        printf(",%.2f,%.2f,%.2f,%.2f,%.0f,%.6f,", r->elo, r->se, r->lo, r->hi, r->games, r->score);
        if (!isnan(r->los_next))
            printf("%.6f", r->los_next);
        printf(",%.2f\n", r->se_pool);
    }
    printf("\nplayer,opponent,%s,wins,draws,losses,score\n", v->matches ? "matches" : "games");
    for (size_t i = 0; i < p; i++)
        for (size_t j = 0; j < p; j++) {
            const nk_wdl *c = &v->m[i * p + j];
            unsigned g = c->w + c->d + c->l;
            if (i == j || g == 0)
                continue;
            csv_field(stdout, tour->players[i].name);
            putchar(',');
            csv_field(stdout, tour->players[j].name);
            printf(",%u,%u,%u,%u,%.6f\n", g, c->w, c->d, c->l, v->score[i * p + j]);
        }
    if (v->has_nash) {
        printf("\nplayer,nash_mix,nash_payoff\n");
        for (size_t i = 0; i < p; i++) {
            csv_field(stdout, tour->players[i].name);
            printf(",%.9f,%.9f\n", v->nash.mix[i], v->nash.payoff[i]);
        }
    }
}

/* ===== text ===== */

static void text_head(const tour_view *v)
{
    const nk_tour *tour = v->tour;
    const nk_tour_settings *s = &tour->set;
    printf("variant   %s\n", s->variant);
    printf("players   %zu, %s, %llu %s a pairing in colour-swapped pairs, random "
           "openings of %llu plies, seed %llu\n",
           v->p, nk_tour_format_name(s->format), (unsigned long long)s->games,
           v->matches ? "matches" : "games", (unsigned long long)s->openings,
           (unsigned long long)s->seed);
    if (v->matches) {
        printf("unit      match: at most %llu games a match; the ratings and the cross table "
               "score matches\n",
               (unsigned long long)s->match_games);
        printf("matches   %zu of %zu (%zu games)\n\n", 2 * tour->meetings_done,
               2 * nk_tour_meetings_total(tour), tour->ngames);
    } else {
        printf("unit      game\n");
        printf("games     %zu of %zu\n\n", 2 * tour->meetings_done,
               2 * nk_tour_meetings_total(tour));
    }
}

static void text_ratings(const tour_view *v, int w)
{
    const nk_tour *tour = v->tour;
    printf("rating list (Bradley-Terry/Elo, draws as half a win, maximum likelihood; "
           "95%% intervals from the likelihood's curvature, +- against %s = %g, "
           "+-pool against the mean of all):\n",
           tour->set.anchor, tour->set.anchor_elo);
    printf("  rank  %-*s     elo      +-  +-pool  %s  score   LOS next\n", w, "player",
           v->matches ? "matches" : "  games");
    for (size_t k = 0; tour->has_ratings && k < v->p; k++) {
        const nk_tour_rating *r = &tour->ratings[v->order[k]];
        printf("  %4d  %-*.*s  %7.1f  %6.1f  %6.1f  %6.0f  %5.3f", r->rank, w, w,
               tour->players[v->order[k]].name, r->elo, r->hi - r->elo, Z95 * r->se_pool, r->games,
               r->score);
        if (isnan(r->los_next))
            printf("\n");
        else
            printf("  %7.1f%%\n", 100.0 * r->los_next);
    }
    if (tour->prior)
        printf("  (a player won or lost every game of a part of the table: one virtual "
               "draw was added to every pairing)\n");
}

static void text_cross(const tour_view *v, int w)
{
    size_t p = v->p;
    printf("\ncross table (row's score against column; players by rank):\n  %*s", w + 6, "");
    for (size_t k = 0; k < p; k++)
        printf(" %5zu", k + 1);
    putchar('\n');
    for (size_t a = 0; a < p; a++) {
        size_t i = v->order[a];
        printf("  %4zu  %-*.*s", a + 1, w, w, v->tour->players[i].name);
        for (size_t b = 0; b < p; b++) {
            size_t j = v->order[b];
            const nk_wdl *c = &v->m[i * p + j];
            if (i == j || c->w + c->d + c->l == 0)
                printf("     -");
            else
                printf(" %5.3f", v->score[i * p + j]);
        }
        putchar('\n');
    }
}

static void text_pairings(const tour_view *v, int w)
{
    const nk_tour *tour = v->tour;
    size_t p = v->p;
    printf("\npairings (W-D-L of the first%s):\n",
           v->matches ? " in matches, then in the matches' games" : "");
    for (size_t q = 0; q < tour->npairings; q++) {
        size_t i = (size_t)tour->pairings[2 * q], j = (size_t)tour->pairings[2 * q + 1];
        const nk_wdl *c = &v->m[i * p + j];
        if (c->w + c->d + c->l == 0)
            continue;
        printf("  %-*.*s - %-*.*s  %5.3f  %u-%u-%u", w, w, tour->players[i].name, w, w,
               tour->players[j].name, v->score[i * p + j], c->w, c->d, c->l);
        if (v->matches)
            printf("  games %u-%u-%u", v->gm[i * p + j].w, v->gm[i * p + j].d, v->gm[i * p + j].l);
        putchar('\n');
    }
}

static void text_nash(const tour_view *v, int w)
{
    size_t p = v->p, support = 0;
    for (size_t i = 0; i < p; i++)
        support += v->nash.mix[i] > 0;
    printf("\nNash average (maximum-entropy Nash equilibrium of the meta-game "
           "score - score^T; payoff against it, 0 for players in its support):\n");
    printf("  %-*s  nash mix    payoff\n", w, "player");
    for (size_t a = 0; a < p; a++) {
        size_t i = v->order[a];
        printf("  %-*.*s  %8.4f  %+8.4f\n", w, w, v->tour->players[i].name, v->nash.mix[i],
               v->nash.payoff[i]);
    }
    printf("  %zu of %zu players in the equilibrium; cyclic triads: %.1f%% of the "
           "decided ones\n",
           support, p, 100.0 * v->nash.cyclic_share);
}

static void print_text(const tour_view *v)
{
    size_t w = 6;
    for (size_t i = 0; i < v->p; i++)
        if (strlen(v->tour->players[i].name) > w)
            w = strlen(v->tour->players[i].name);
    if (w > 48)
        w = 48;
    text_head(v);
    text_ratings(v, (int)w);
    text_cross(v, (int)w);
    text_pairings(v, (int)w);
    if (v->has_nash)
        text_nash(v, (int)w);
}

int nk_report_tournament(const nk_cli *cli, const nk_tour *tour, nk_report_mode mode)
{
    tour_view v;
    int rc = view_load(&v, cli, tour);
    if (rc != NK_EXIT_OK)
        return rc;
    if (mode == NK_REPORT_JSON)
        print_json(&v);
    else if (mode == NK_REPORT_CSV)
        print_csv(&v);
    else
        print_text(&v);
    view_free(&v);
    return NK_EXIT_OK;
}

void nk_report_champion_hint(const char *prefix, const nk_run_meta *meta, const char *path)
{
    nk_run_player player;
    char err[NK_MSG_MAX];
    bool root = nk_config_run_player(meta->config, path, &player, NULL, err, sizeof err) == NK_OK &&
                strcmp(player.spec.view, "root") == 0;
    printf("%snickar play --variant %s --opponent 'ab:depth=4,features=%s%s,weights=%s@best'\n",
           prefix, meta->variant, meta->feature_set, root ? ",view=root" : "", path);
}
