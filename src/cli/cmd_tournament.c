/*
 * cmd_tournament.c -- `nickar tournament`: many players, every pairing (or
 * the first player against each other) in colour-swapped pairs of games,
 * a cross table and a maximum-likelihood rating list (arena/rating.h),
 * everything kept in a tournament file (io/tourfile.h).
 *
 * Games.  Pairing q = (a, b) plays games/2 meetings; meeting k of it is
 * pairing k of exec batch 0 under the master seed (arena/meetings.h,
 * setup.index), exactly as `nickar match A B` numbers its pairs: so a
 * pairing's games are those of `nickar match --seed S --games N --openings
 * K A B`, and every pairing starts from the same random openings.  The
 * meetings are played in schedule order (pairing by pairing) in batches;
 * each batch runs on the threads of exec and its results land by index, so
 * nothing depends on --threads.  The file is written whole (through
 * FILE.tmp) before the first game and after each batch; the batches grow with the tournament (at
 * least 64 meetings, at least an eighth of those done), so the writing costs a bounded multiple of
 * the file's final size.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena/meetings.h"
#include "arena/nash.h"
#include "arena/rating.h"
#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "exec/exec.h"
#include "io/playerio.h"
#include "io/tourfile.h"

enum {
    OPT_VARIANT,
    OPT_PLAYERS,
    OPT_FORMAT,
    OPT_GAMES,
    OPT_OPENINGS,
    OPT_SEED,
    OPT_THREADS,
    OPT_PLY_LIMIT,
    OPT_OUTPUT,
    OPT_RESUME,
    OPT_FORCE,
    OPT_ANCHOR,
    OPT_JSON,
    OPT_CSV,
    OPT_QUIET,
    OPT_UNIT,
    OPT_MATCH_GAMES,
    OPT_END
};

static const double Z95 = 1.959964;

enum {
    MAX_GAMES = 1000000,
    MAX_OPENING = 100,
    MAX_THREADS = 1024,
    MAX_PLAYERS = 2000,
    MIN_BATCH = 64
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

typedef struct tourney {
    const nk_cli *cli;
    const nk_variant *variant;
    nk_player_list list;
    nk_tour_settings set;
    uint64_t threads;
    const char *output;
    bool resume, force, json, csv, quiet;
} tourney;

static bool opt_uint(const nk_cli *cli, int opt, uint64_t min, uint64_t max, uint64_t *out)
{
    return cli->opts[opt].value == NULL || nk_cli_uint(cli, opt, min, max, out);
}

/* --anchor NAME=ELO: the name is everything before the last '=' (specs
 * hold '=' themselves). */
static int read_anchor(tourney *t, const char *text)
{
    const nk_cli *cli = t->cli;
    if (text == NULL) {
        snprintf(t->set.anchor, sizeof t->set.anchor, "%s", t->list.p[0].name);
        t->set.anchor_elo = 0;
        return NK_EXIT_OK;
    }
    const char *eq = strrchr(text, '=');
    char *end = NULL;
    double elo = eq ? strtod(eq + 1, &end) : NAN;
    if (eq == NULL || eq == text || end == eq + 1 || *end != '\0' || !isfinite(elo) ||
        fabs(elo) > 1e6) {
        nk_cli_error(cli, "--anchor '%s': give NAME=ELO, e.g. --anchor random=0", text);
        return NK_EXIT_USAGE;
    }
    size_t len = (size_t)(eq - text);
    for (size_t i = 0; i < t->list.n; i++)
        if (strlen(t->list.p[i].name) == len && strncmp(t->list.p[i].name, text, len) == 0) {
            snprintf(t->set.anchor, sizeof t->set.anchor, "%s", t->list.p[i].name);
            t->set.anchor_elo = elo;
            return NK_EXIT_OK;
        }
    nk_cli_error(cli,
                 "--anchor '%.*s': no player of that name (the names are those the "
                 "rating list shows)",
                 (int)len, text);
    return NK_EXIT_USAGE;
}

static int read_options(tourney *t, nk_opt *opts)
{
    const nk_cli *cli = t->cli;
    char err[NK_MSG_MAX];
    t->variant = nk_cli_variant(cli, opts[OPT_VARIANT].value);
    if (t->variant == NULL)
        return NK_EXIT_USAGE;
    snprintf(t->set.variant, sizeof t->set.variant, "%s", t->variant->name);
    t->set.games = 20;
    t->set.openings = 2;
    t->set.seed = 1;
    t->set.ply_limit = NK_DEFAULT_PLY_LIMIT;
    t->threads = 0;
    t->output = opts[OPT_OUTPUT].value;
    t->resume = opts[OPT_RESUME].value != NULL;
    t->force = opts[OPT_FORCE].value != NULL;
    t->json = opts[OPT_JSON].value != NULL;
    t->csv = opts[OPT_CSV].value != NULL;
    t->quiet = opts[OPT_QUIET].value != NULL;
    if (!opt_uint(cli, OPT_GAMES, 1, MAX_GAMES, &t->set.games) ||
        !opt_uint(cli, OPT_OPENINGS, 0, MAX_OPENING, &t->set.openings) ||
        !opt_uint(cli, OPT_SEED, 0, UINT64_MAX, &t->set.seed) ||
        !opt_uint(cli, OPT_THREADS, 1, MAX_THREADS, &t->threads) ||
        !opt_uint(cli, OPT_PLY_LIMIT, 1, NK_MAX_PLIES, &t->set.ply_limit))
        return NK_EXIT_USAGE;
    t->set.unit = NK_UNIT_GAME;
    if (opts[OPT_UNIT].value != NULL && !nk_arena_unit_parse(opts[OPT_UNIT].value, &t->set.unit)) {
        nk_cli_error(cli, "--unit: '%s' is neither 'game' nor 'match'", opts[OPT_UNIT].value);
        return NK_EXIT_USAGE;
    }
    if (opts[OPT_MATCH_GAMES].value != NULL && t->set.unit != NK_UNIT_MATCH) {
        nk_cli_error(cli, "--match-games needs --unit match");
        return NK_EXIT_USAGE;
    }
    t->set.match_games = t->set.unit == NK_UNIT_MATCH ? NK_MATCH_GAMES_DEFAULT : 0;
    if (!opt_uint(cli, OPT_MATCH_GAMES, 1, NK_MATCH_GAMES_MAX, &t->set.match_games))
        return NK_EXIT_USAGE;
    const char *format = opts[OPT_FORMAT].value;
    if (format == NULL || strcmp(format, "round-robin") == 0) {
        t->set.format = NK_TOUR_ROUND_ROBIN;
    } else if (strcmp(format, "gauntlet") == 0) {
        t->set.format = NK_TOUR_GAUNTLET;
    } else {
        nk_cli_error(cli, "--format '%s': give round-robin or gauntlet", format);
        return NK_EXIT_USAGE;
    }
    if (t->json && t->csv) {
        nk_cli_error(cli, "--json and --csv exclude each other");
        return NK_EXIT_USAGE;
    }
    if (t->resume && t->force) {
        nk_cli_error(cli, "--resume and --force exclude each other");
        return NK_EXIT_USAGE;
    }
    if (t->output != NULL && t->output[0] == '\0') {
        nk_cli_error(cli, "option '--output' needs a file name");
        return NK_EXIT_USAGE;
    }
    if ((t->resume || t->force) && t->output == NULL) {
        nk_cli_error(cli, "--%s needs --output FILE", t->resume ? "resume" : "force");
        return NK_EXIT_USAGE;
    }
    nk_status st = NK_OK;
    if (opts[OPT_PLAYERS].value != NULL) {
        st = nk_player_list_read(&t->list, opts[OPT_PLAYERS].value, t->variant, err, sizeof err);
        if (st != NK_OK) {
            nk_cli_error(cli, "--players: %s", err);
            return nk_cli_exit(st);
        }
    }
    for (int i = 0; i < cli->argc; i++) {
        st = nk_player_list_add(&t->list, NULL, cli->argv[i], t->variant, err, sizeof err);
        if (st != NK_OK) {
            nk_cli_error(cli, "player '%s': %s", cli->argv[i], err);
            return nk_cli_exit(st);
        }
    }
    if (t->list.n < 2) {
        nk_cli_error(cli,
                     "needs at least two players (got %zu), from --players FILE and/or SPEC "
                     "arguments; e.g. 'random greedy ab:depth=2'",
                     t->list.n);
        return NK_EXIT_USAGE;
    }
    if (t->list.n > MAX_PLAYERS) {
        nk_cli_error(cli, "%zu players; at most %d", t->list.n, MAX_PLAYERS);
        return NK_EXIT_USAGE;
    }
    int rc = read_anchor(t, opts[OPT_ANCHOR].value);
    if (rc != NK_EXIT_OK)
        return rc;
    if (t->set.games % 2 != 0) {
        t->set.games++;
        if (!t->quiet)
            nk_cli_note("note: --games %llu is odd; playing %llu a pairing (colour-swapped "
                        "pairs)",
                        (unsigned long long)t->set.games - 1, (unsigned long long)t->set.games);
    }
    return NK_EXIT_OK;
}

/* ===== the file and resuming ===== */

static int prepare(tourney *t, nk_tour *tour)
{
    char err[NK_MSG_MAX];
    nk_status st = nk_tour_init(tour, &t->set, &t->list, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(t->cli, "%s", err);
        return nk_cli_exit(st);
    }
    if (t->output == NULL)
        return NK_EXIT_OK;
    struct stat sb;
    bool exists = stat(t->output, &sb) == 0;
    if (exists && !t->resume && !t->force) {
        nk_cli_error(t->cli,
                     "'%s' already exists; --resume continues its tournament, --force "
                     "replaces it",
                     t->output);
        return NK_EXIT_USAGE;
    }
    if (!exists || !t->resume) {
        if (t->resume && !t->quiet)
            nk_cli_note("no tournament file '%s' yet: starting the tournament", t->output);
        return NK_EXIT_OK;
    }
    nk_tour old;
    st = nk_tour_read(&old, t->output, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(t->cli, "--resume: %s", err);
        return nk_cli_exit(st);
    }
    st = nk_tour_compare(&old, tour, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(t->cli, "--resume: '%s' is another tournament: %s", t->output, err);
        nk_tour_free(&old);
        return NK_EXIT_USAGE;
    }
    /* go on from the file: its games, its creation time */
    nk_tour_free(tour);
    *tour = old;
    if (!t->quiet)
        nk_cli_note("resuming '%s' after %zu of %zu meetings", t->output, tour->meetings_done,
                    nk_tour_meetings_total(tour));
    return NK_EXIT_OK;
}

/* ===== playing ===== */

static const char *unit_plural(const nk_tour_settings *s)
{
    return s->unit == NK_UNIT_MATCH ? "matches" : "games";
}

/* Adds unit u (game or match u % 2 of meeting u / 2) of a played batch to
 * the tournament: its games, and with unit match the match. */
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
        st = nk_tour_add_game(tour, q, m.south, m.north, x, err, errlen);
    }
    if (st != NK_OK || tour->set.unit != NK_UNIT_MATCH)
        return st;
    /* the outcome is a's (the meeting's first player), who is player 0
     * (South) of match 0 and player 1 of match 1 */
    int outcome = pl->tally[u / 2].outcome[u % 2], k = (int)(u % 2);
    m.winner = outcome == 0 ? 2 : (outcome > 0) == (k == 0) ? 0 : 1;
    return nk_tour_add_match(tour, &m, err, errlen);
}

static int play(tourney *t, nk_tour *tour)
{
    char err[NK_MSG_MAX];
    size_t per = nk_tour_meetings_per_pairing(tour), total = nk_tour_meetings_total(tour);
    size_t p = t->list.n;
    nk_exec_player *players = nk_calloc(p, sizeof *players);
    nk_meeting *meetings = nk_calloc(total + 1, sizeof *meetings);
    uint64_t *index = nk_calloc(total + 1, sizeof *index);
    if (players == NULL || meetings == NULL || index == NULL) {
        nk_free(players);
        nk_free(meetings);
        nk_free(index);
        nk_cli_error(t->cli, "out of memory for %zu meetings", total);
        return NK_EXIT_FAIL;
    }
    for (size_t i = 0; i < p; i++) {
        const nk_player_def *d = &t->list.p[i].def;
        players[i] = (nk_exec_player){&d->spec, d->n ? d->weights : NULL, d->n};
    }
    for (size_t m = 0; m < total; m++) {
        size_t q = m / per;
        meetings[m] =
            (nk_meeting){(uint32_t)tour->pairings[2 * q], (uint32_t)tour->pairings[2 * q + 1]};
        index[m] = m % per;
    }
    nk_arena_setup setup = {.variant = t->variant,
                            .ply_limit = (unsigned)t->set.ply_limit,
                            .players = players,
                            .nplayers = p,
                            .master = t->set.seed,
                            .batch = 0,
                            .opening = (unsigned)t->set.openings,
                            .threads = (int)t->threads,
                            .record = true,
                            .unit = t->set.unit,
                            .match_games = (unsigned)t->set.match_games};
    nk_status st = NK_OK;
    bool tty = isatty(STDERR_FILENO) && !t->quiet;
    /* a new tournament's file is written before the first game, so that a
     * path that cannot be written is an error before any work */
    if (t->output != NULL && tour->meetings_done == 0)
        st = nk_tour_write(tour, t->output, err, sizeof err);
    while (st == NK_OK && tour->meetings_done < total && !stop_requested) {
        size_t first = tour->meetings_done;
        size_t n = first / 8 > MIN_BATCH ? first / 8 : MIN_BATCH;
        if (n > total - first)
            n = total - first;
        setup.index = index + first;
        nk_arena_played played = {0};
        st = nk_arena_play_meetings(&setup, meetings + first, n, &played, err, sizeof err);
        for (size_t i = 0; st == NK_OK && i < 2 * n; i++)
            st = add_unit(tour, &played, i, (int32_t)((first + i / 2) / per), err, sizeof err);
        nk_arena_played_free(&played);
        if (st == NK_OK) {
            tour->meetings_done += n;
            st = nk_tour_rate(tour, err, sizeof err);
        }
        if (st == NK_OK && t->output != NULL)
            st = nk_tour_write(tour, t->output, err, sizeof err);
        if (st == NK_OK && tty)
            fprintf(stderr, "\r\033[K%s %zu of %zu", unit_plural(&t->set),
                    2 * tour->meetings_done, 2 * total);
    }
    if (tty)
        fputc('\n', stderr);
    nk_free(players);
    nk_free(meetings);
    nk_free(index);
    if (st != NK_OK) {
        nk_cli_error(t->cli, "%s", err);
        return nk_cli_exit(st);
    }
    if (tour->meetings_done < total) {
        if (t->output != NULL)
            nk_cli_error(t->cli,
                         "stopped after %zu of %zu %s; '%s' holds them; continue with "
                         "--resume",
                         2 * tour->meetings_done, 2 * total, unit_plural(&t->set), t->output);
        else
            nk_cli_error(t->cli, "stopped after %zu of %zu %s", 2 * tour->meetings_done,
                         2 * total, unit_plural(&t->set));
        return NK_EXIT_FAIL;
    }
    if (!tour->has_ratings) {
        /* a complete round robin or gauntlet is always connected */
        nk_cli_error(t->cli, "the games give no rating list");
        return NK_EXIT_FAIL;
    }
    return NK_EXIT_OK;
}

/* ===== output ===== */

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

static const char *format_name(nk_tour_format f)
{
    return f == NK_TOUR_GAUNTLET ? "gauntlet" : "round-robin";
}

int nk_tournament_print(const struct nk_cli *cli, const nk_tour *tour, int mode)
{
    size_t p = tour->nplayers;
    const nk_tour_settings *s = &tour->set;
    nk_wdl *m = nk_calloc(p * p, sizeof *m), *gm = nk_calloc(p * p, sizeof *gm);
    double *score = nk_calloc(p * p, sizeof *score);
    size_t *order = nk_calloc(p, sizeof *order);
    if (m == NULL || gm == NULL || score == NULL || order == NULL) {
        nk_free(gm);
        nk_free(m);
        nk_free(score);
        nk_free(order);
        nk_cli_error(cli, "out of memory");
        return NK_EXIT_FAIL;
    }
    nk_tour_cross(tour, m);
    nk_ratings_score_matrix(m, p, score);
    bool matches = s->unit == NK_UNIT_MATCH;
    for (size_t i = 0; i < p; i++)
        order[tour->has_ratings ? (size_t)tour->ratings[i].rank - 1 : i] = i;
    nk_tour_cross_games(tour, gm);
    /* The Nash average needs the whole score matrix: a finished round robin. */
    nk_nash nash = {0};
    bool has_nash = false;
    if (s->format == NK_TOUR_ROUND_ROBIN && p >= 2 &&
        tour->meetings_done == nk_tour_meetings_total(tour)) {
        char err[NK_MSG_MAX];
        nk_status st = nk_nash_average(score, p, &nash, err, sizeof err);
        if (st == NK_ENOMEM) {
            nk_free(gm);
            nk_free(m);
            nk_free(score);
            nk_free(order);
            nk_cli_error(cli, "%s", err);
            return NK_EXIT_FAIL;
        }
        if (st == NK_OK)
            has_nash = true;
        else
            nk_cli_note("no Nash average: %s", err);
    }
    if (mode == 1) { /* JSON */
        printf("{\"variant\":");
        nk_cli_json_string(stdout, s->variant);
        printf(",\"format\":\"%s\",\"unit\":\"%s\",\"match_games\":%llu,\"games_played\":%zu,"
               "\"matches_played\":%zu,\"games_per_pairing\":%llu,\"openings\":%llu,\"seed\":%llu,"
               "\"ply_limit\":%llu,\"meetings_done\":%zu,\"meetings_total\":%zu,\"anchor\":",
               format_name(s->format), nk_arena_unit_name(s->unit),
               (unsigned long long)s->match_games, tour->ngames, tour->nmatches,
               (unsigned long long)s->games, (unsigned long long)s->openings, (unsigned long long)s->seed,
               (unsigned long long)s->ply_limit, tour->meetings_done, nk_tour_meetings_total(tour));
        nk_cli_json_string(stdout, s->anchor);
        printf(",\"anchor_elo\":%.6g,\"players\":[", s->anchor_elo);
        for (size_t i = 0; i < p; i++) {
            printf("%s{\"name\":", i ? "," : "");
            nk_cli_json_string(stdout, tour->players[i].name);
            printf(",\"spec\":");
            nk_cli_json_string(stdout, tour->players[i].spec);
            printf("}");
        }
        printf("],\"cross\":{");
        const char *keys[3] = {"wins", "draws", "losses"};
        for (int k = 0; k < 4; k++) {
            printf("%s\"%s\":[", k ? "," : "", k < 3 ? keys[k] : "score");
            for (size_t i = 0; i < p; i++) {
                printf("%s[", i ? "," : "");
                for (size_t j = 0; j < p; j++) {
                    const nk_wdl *c = &m[i * p + j];
                    if (k < 3)
                        printf("%s%u", j ? "," : "", k == 0 ? c->w : k == 1 ? c->d : c->l);
                    else
                        printf("%s%.6f", j ? "," : "", score[i * p + j]);
                }
                printf("]");
            }
            printf("]");
        }
        if (matches) { /* the games inside the matches */
            printf(",\"games_wins\":[");
            for (int k = 0; k < 3; k++) {
                if (k)
                    printf(",\"games_%s\":[", keys[k]);
                for (size_t i = 0; i < p; i++) {
                    printf("%s[", i ? "," : "");
                    for (size_t j = 0; j < p; j++) {
                        const nk_wdl *c = &gm[i * p + j];
                        printf("%s%u", j ? "," : "", k == 0 ? c->w : k == 1 ? c->d : c->l);
                    }
                    printf("]");
                }
                printf("]");
            }
        }
        printf("},\"model\":\"bradley-terry, draws as half a win, maximum likelihood\","
               "\"interval\":\"95%%, inverse observed information, draw-corrected "
               "sandwich; ci against the anchor, ci_pool against the mean of all\",\"prior\":%s,\"ratings\":[",
               tour->prior ? "true" : "false");
        for (size_t k = 0; tour->has_ratings && k < p; k++) {
            const nk_tour_rating *r = &tour->ratings[order[k]];
            printf("%s{\"rank\":%d,\"player\":", k ? "," : "", r->rank);
            nk_cli_json_string(stdout, tour->players[order[k]].name);
            printf(",\"elo\":%.2f,\"se\":%.2f,\"ci\":[%.2f,%.2f],\"se_pool\":%.2f,"
                   "\"ci_pool\":[%.2f,%.2f],\"games\":%.0f,\"score\":%.6f,\"los_next\":",
                   r->elo, r->se, r->lo, r->hi, r->se_pool, r->elo - Z95 * r->se_pool,
                   r->elo + Z95 * r->se_pool, r->games, r->score);
            if (isnan(r->los_next))
                printf("null}");
            else
                printf("%.6f}", r->los_next);
        }
        printf("],\"nash\":");
        if (has_nash) {
            printf("{\"mix\":[");
            for (size_t i = 0; i < p; i++)
                printf("%s%.9f", i ? "," : "", nash.mix[i]);
            printf("],\"payoff\":[");
            for (size_t i = 0; i < p; i++)
                printf("%s%.9f", i ? "," : "", nash.payoff[i]);
            printf("],\"cyclic_share\":%.6f}", nash.cyclic_share);
        } else {
            printf("null");
        }
        printf("}\n");
    } else if (mode == 2) { /* CSV: the rating list, a blank line, the pairings */
        printf("rank,player,elo,se,lo,hi,games,score,los_next,se_pool\n");
        for (size_t k = 0; tour->has_ratings && k < p; k++) {
            const nk_tour_rating *r = &tour->ratings[order[k]];
            printf("%d,", r->rank);
            csv_field(stdout, tour->players[order[k]].name);
            printf(",%.2f,%.2f,%.2f,%.2f,%.0f,%.6f,", r->elo, r->se, r->lo, r->hi, r->games,
                   r->score);
            if (!isnan(r->los_next))
                printf("%.6f", r->los_next);
            printf(",%.2f\n", r->se_pool);
        }
        printf("\nplayer,opponent,%s,wins,draws,losses,score\n", matches ? "matches" : "games");
        for (size_t i = 0; i < p; i++)
            for (size_t j = 0; j < p; j++) {
                const nk_wdl *c = &m[i * p + j];
                unsigned g = c->w + c->d + c->l;
                if (i == j || g == 0)
                    continue;
                csv_field(stdout, tour->players[i].name);
                putchar(',');
                csv_field(stdout, tour->players[j].name);
                printf(",%u,%u,%u,%u,%.6f\n", g, c->w, c->d, c->l, score[i * p + j]);
            }
        if (has_nash) {
            printf("\nplayer,nash_mix,nash_payoff\n");
            for (size_t i = 0; i < p; i++) {
                csv_field(stdout, tour->players[i].name);
                printf(",%.9f,%.9f\n", nash.mix[i], nash.payoff[i]);
            }
        }
    } else {
        size_t w = 6;
        for (size_t i = 0; i < p; i++)
            if (strlen(tour->players[i].name) > w)
                w = strlen(tour->players[i].name);
        if (w > 48)
            w = 48;
        printf("variant   %s\n", s->variant);
        printf("players   %zu, %s, %llu %s a pairing in colour-swapped pairs, random "
               "openings of %llu plies, seed %llu\n",
               p, format_name(s->format), (unsigned long long)s->games, matches ? "matches" : "games",
               (unsigned long long)s->openings, (unsigned long long)s->seed);
        if (matches) {
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
        printf("rating list (Bradley-Terry/Elo, draws as half a win, maximum likelihood; "
               "95%% intervals from the likelihood's curvature, +- against %s = %g, "
               "+-pool against the mean of all):\n",
               s->anchor, s->anchor_elo);
        printf("  rank  %-*s     elo      +-  +-pool  %s  score   LOS next\n", (int)w, "player",
               matches ? "matches" : "  games");
        for (size_t k = 0; tour->has_ratings && k < p; k++) {
            const nk_tour_rating *r = &tour->ratings[order[k]];
            printf("  %4d  %-*.*s  %7.1f  %6.1f  %6.1f  %6.0f  %5.3f", r->rank, (int)w, (int)w,
                   tour->players[order[k]].name, r->elo, r->hi - r->elo, Z95 * r->se_pool,
                   r->games, r->score);
            if (isnan(r->los_next))
                printf("\n");
            else
                printf("  %7.1f%%\n", 100.0 * r->los_next);
        }
        if (tour->prior)
            printf("  (a player won or lost every game of a part of the table: one virtual "
                   "draw was added to every pairing)\n");
        printf("\ncross table (row's score against column; players by rank):\n  %*s", (int)w + 6,
               "");
        for (size_t k = 0; k < p; k++)
            printf(" %5zu", k + 1);
        putchar('\n');
        for (size_t a = 0; a < p; a++) {
            size_t i = order[a];
            printf("  %4zu  %-*.*s", a + 1, (int)w, (int)w, tour->players[i].name);
            for (size_t b = 0; b < p; b++) {
                size_t j = order[b];
                const nk_wdl *c = &m[i * p + j];
                if (i == j || c->w + c->d + c->l == 0)
                    printf("     -");
                else
                    printf(" %5.3f", score[i * p + j]);
            }
            putchar('\n');
        }
        printf("\npairings (W-D-L of the first%s):\n",
               matches ? " in matches, then in the matches' games" : "");
        for (size_t q = 0; q < tour->npairings; q++) {
            size_t i = (size_t)tour->pairings[2 * q], j = (size_t)tour->pairings[2 * q + 1];
            const nk_wdl *c = &m[i * p + j];
            if (c->w + c->d + c->l == 0)
                continue;
            printf("  %-*.*s - %-*.*s  %5.3f  %u-%u-%u", (int)w, (int)w, tour->players[i].name,
                   (int)w, (int)w, tour->players[j].name, score[i * p + j], c->w, c->d, c->l);
            if (matches)
                printf("  games %u-%u-%u", gm[i * p + j].w, gm[i * p + j].d, gm[i * p + j].l);
            putchar('\n');
        }
        if (has_nash) {
            size_t support = 0;
            for (size_t i = 0; i < p; i++)
                support += nash.mix[i] > 0;
            printf("\nNash average (maximum-entropy Nash equilibrium of the meta-game "
                   "score - score^T; payoff against it, 0 for players in its support):\n");
            printf("  %-*s  nash mix    payoff\n", (int)w, "player");
            for (size_t a = 0; a < p; a++) {
                size_t i = order[a];
                printf("  %-*.*s  %8.4f  %+8.4f\n", (int)w, (int)w, tour->players[i].name,
                       nash.mix[i], nash.payoff[i]);
            }
            printf("  %zu of %zu players in the equilibrium; cyclic triads: %.1f%% of the "
                   "decided ones\n",
                   support, p, 100.0 * nash.cyclic_share);
        }
    }
    nk_nash_free(&nash);
    nk_free(gm);
    nk_free(m);
    nk_free(score);
    nk_free(order);
    return NK_EXIT_OK;
}

int nk_cmd_tournament(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_PLAYERS] = {"players", "FILE",
                         "players file: one 'NAME = SPEC' a line, # comments (before the SPEC "
                         "arguments)",
                         NULL},
        [OPT_FORMAT] = {"format", "F",
                        "round-robin (every pair; default) or gauntlet (the first player "
                        "against each other)",
                        NULL},
        [OPT_GAMES] = NK_OPT_GAMES("games a pairing (default 20; with --unit match: matches)"),
        [OPT_OPENINGS] = NK_OPT_OPENINGS,
        [OPT_SEED] = NK_OPT_SEED,
        [OPT_THREADS] = NK_OPT_THREADS,
        [OPT_PLY_LIMIT] = NK_OPT_PLY_LIMIT,
        [OPT_OUTPUT] = {"output", "FILE",
                        "tournament file (HDF5): players, every game, the ratings; written "
                        "as games finish",
                        NULL},
        [OPT_RESUME] = {"resume", NULL,
                        "continue the tournament of --output FILE (same players and settings)",
                        NULL},
        [OPT_FORCE] = {"force", NULL, "replace an existing --output FILE", NULL},
        [OPT_ANCHOR] = {"anchor", "NAME=ELO",
                        "the player whose rating is fixed (default: the first player = 0)", NULL},
        [OPT_JSON] = {"json", NULL, "print one JSON object: players, cross table, ratings", NULL},
        [OPT_CSV] = {"csv", NULL,
                     "print CSV: the rating list, a blank line, one row per player and "
                     "opponent",
                     NULL},
        [OPT_QUIET] = {"quiet", NULL, "no progress or notes on stderr", NULL},
        [OPT_UNIT] = NK_OPT_UNIT,
        [OPT_MATCH_GAMES] = NK_OPT_MATCH_GAMES,
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "tournament",
        .synopsis = "--variant V [--players FILE] [SPEC...] [--format round-robin|gauntlet]\n"
                    "       [--games N] [--openings K] [--seed S] [--threads T] [--ply-limit L]\n"
                    "       [--output FILE [--resume|--force]] [--anchor NAME=ELO]\n"
                    "       [--unit game|match [--match-games L]] [--json|--csv] [--quiet]",
        .about = "Plays a round robin (every pair of players) or a gauntlet (the first\n"
                 "player against each other): every pairing N games in colour-swapped\n"
                 "pairs from shared random openings, as nickar match plays them.  Prints\n"
                 "the rating list -- maximum-likelihood Elo ratings of a Bradley-Terry\n"
                 "model with draws as half a win, 95% intervals, games, score and the\n"
                 "likelihood of superiority over the next player -- and the cross table.\n\n"
                 "Players come from --players FILE (NAME = SPEC lines) and from SPEC\n"
                 "arguments (named by their spec).  RUN.h5@champions expands to the\n"
                 "champion of every generation of a run file, RUN.h5@champions:every=K\n"
                 "to every K-th (and the last), named <run>:g<G>.\n"
                 "With --unit match every result is a whole match (Warri to six won\n"
                 "games, Adji Kui II with bought pits), played as nickar match --unit\n"
                 "match plays it; ratings and cross table then score matches.\n"
                 "Example: nickar tournament --variant abapa random greedy ab:depth=2",
        .opts = opts,
        .max_args = -1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    tourney t = {.cli = &cli};
    rc = read_options(&t, opts);
    nk_tour tour = {0};
    if (rc == NK_EXIT_OK)
        rc = prepare(&t, &tour);
    if (rc == NK_EXIT_OK) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        rc = play(&t, &tour);
    }
    if (rc == NK_EXIT_OK) {
        rc = nk_tournament_print(&cli, &tour, t.json ? 1 : t.csv ? 2 : 0);
        if (rc == NK_EXIT_OK)
            rc = nk_cli_finish(&cli);
    }
    nk_tour_free(&tour);
    nk_player_list_free(&t.list);
    return rc;
}
