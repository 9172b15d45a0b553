/*
 * cmd_rate.c -- `nickar rate`: a player's rating on the scale of a
 * variant's reference ladder (experiments/ladder/run.sh), from a gauntlet
 * against every player of the ladder.
 *
 * The ladder is a text file, one `NAME<TAB>SPEC<TAB>ELO` a line, `#`
 * comments (results/ladder/<variant>.tsv), then the ladder's own results:
 * `@anchor<TAB>NAME<TAB>ELO` (the player whose rating was fixed) and one
 * `@wdl<TAB>A<TAB>B<TAB>W<TAB>D<TAB>L` a pairing (A's results against B).  Opponent j is pairing j of the
 * gauntlet; its meetings are numbered within the pairing as nickar match
 * and nickar tournament number them (arena/meetings.h, setup.index), all in
 * one batch, so nothing depends on --threads.  With the ladder's results
 * the rating is fitted jointly with them (nk_rating_joint, arena/rating.h:
 * Bradley-Terry, draws as half a win, 95% interval from the draw-corrected
 * curvature), so that its interval holds the ladder's uncertainty too; the
 * rating against the ladder's ratings held exact (nk_rating_against) is
 * printed beside it.  A ladder file without results gives only the
 * latter.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/meetings.h"
#include "arena/rating.h"
#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "io/playerio.h"

enum { OPT_VARIANT, OPT_LADDER, OPT_GAMES, OPT_OPENINGS, OPT_SEED, OPT_THREADS, OPT_JSON, OPT_END };

enum {
    MAX_GAMES = 1000000,
    MAX_OPENING = 100,
    MAX_THREADS = 1024,
    MAX_LADDER = 1000,
    LINE_MAX_BYTES = 2048
};
static const double Z95 = 1.959964;

typedef struct rung {
    char name[NK_PLAYER_NAME];
    nk_player_def def;
    double elo;
} rung;

/* The ladder's own results, when its file has them. */
typedef struct ladder_results {
    nk_wdl *wdl; /* [n*n], NULL when the file has none */
    size_t anchor;
    double anchor_elo;
    bool has_anchor;
} ladder_results;

static size_t rung_index(const rung *r, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].name, name) == 0)
            return i;
    return n;
}

/* A results line (fields split at tabs, field[0] "@anchor" or "@wdl").
 * Exit code. */
static int read_result(const nk_cli *cli, const char *path, unsigned lineno, char **field,
                       int nfield, const rung *r, size_t n, ladder_results *res)
{
    char *end = NULL;
    if (strcmp(field[0], "@anchor") == 0) {
        double elo = nfield == 3 ? strtod(field[2], &end) : NAN;
        size_t a = nfield == 3 ? rung_index(r, n, field[1]) : n;
        if (nfield != 3 || end == field[2] || *end != '\0' || !isfinite(elo) || a == n) {
            nk_cli_error(cli, "%s:%u: expected @anchor<TAB>NAME<TAB>ELO naming a ladder player",
                         path, lineno);
            return NK_EXIT_USAGE;
        }
        res->anchor = a;
        res->anchor_elo = elo;
        res->has_anchor = true;
        return NK_EXIT_OK;
    }
    size_t a = nfield == 6 ? rung_index(r, n, field[1]) : n;
    size_t b = nfield == 6 ? rung_index(r, n, field[2]) : n;
    unsigned long v[3];
    bool good = nfield == 6 && a < n && b < n && a != b;
    for (int k = 0; good && k < 3; k++) {
        errno = 0;
        v[k] = strtoul(field[3 + k], &end, 10);
        good = end != field[3 + k] && *end == '\0' && errno == 0 && field[3 + k][0] != '-' &&
               v[k] <= 100000000ul;
    }
    if (!good) {
        nk_cli_error(cli,
                     "%s:%u: expected @wdl<TAB>A<TAB>B<TAB>W<TAB>D<TAB>L: two ladder players "
                     "(listed above) and A's wins, draws and losses against B",
                     path, lineno);
        return NK_EXIT_USAGE;
    }
    if (res->wdl == NULL && (res->wdl = nk_calloc(n * n, sizeof *res->wdl)) == NULL) {
        nk_cli_error(cli, "out of memory");
        return NK_EXIT_FAIL;
    }
    nk_wdl *x = &res->wdl[a * n + b], *y = &res->wdl[b * n + a];
    if (x->w + x->d + x->l > 0) {
        nk_cli_error(cli, "%s:%u: a second @wdl line for %s and %s", path, lineno, field[1],
                     field[2]);
        return NK_EXIT_USAGE;
    }
    *x = (nk_wdl){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
    *y = (nk_wdl){(uint32_t)v[2], (uint32_t)v[1], (uint32_t)v[0]};
    return NK_EXIT_OK;
}

/* Reads the ladder file into *out (n rungs).  Exit code. */
static int read_ladder(const nk_cli *cli, const char *path, const nk_variant *v, rung **out,
                       size_t *n, ladder_results *res)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        nk_cli_error(cli,
                     "no ladder '%s': %s (experiments/ladder/run.sh makes it; --ladder FILE "
                     "names another)",
                     path, strerror(errno));
        return NK_EXIT_USAGE;
    }
    rung *r = nk_calloc(MAX_LADDER, sizeof *r);
    char *line = nk_malloc(LINE_MAX_BYTES);
    int rc = r && line ? NK_EXIT_OK : NK_EXIT_FAIL;
    if (rc != NK_EXIT_OK)
        nk_cli_error(cli, "out of memory");
    unsigned lineno = 0;
    *n = 0;
    while (rc == NK_EXIT_OK && fgets(line, LINE_MAX_BYTES, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
            continue;
        if (line[0] == '@') {
            char *field[7];
            int nfield = 0;
            for (char *at = line; at != NULL && nfield < 7; nfield++) {
                field[nfield] = at;
                at = strchr(at, '\t');
                if (at != NULL)
                    *at++ = '\0';
            }
            if (strcmp(field[0], "@anchor") != 0 && strcmp(field[0], "@wdl") != 0) {
                nk_cli_error(cli, "%s:%u: '%s': a line may start with @anchor or @wdl only", path,
                             lineno, field[0]);
                rc = NK_EXIT_USAGE;
                break;
            }
            rc = read_result(cli, path, lineno, field, nfield, r, *n, res);
            continue;
        }
        if (res->wdl != NULL || res->has_anchor) {
            nk_cli_error(cli, "%s:%u: a player after the results (the players come first)", path,
                         lineno);
            rc = NK_EXIT_USAGE;
            break;
        }
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        char *end = NULL;
        double elo = t2 ? strtod(t2 + 1, &end) : NAN;
        if (t2 == NULL || end == t2 + 1 || *end != '\0' || !isfinite(elo) || t1 == line) {
            nk_cli_error(cli, "%s:%u: expected NAME<TAB>SPEC<TAB>ELO", path, lineno);
            rc = NK_EXIT_USAGE;
            break;
        }
        if (*n == MAX_LADDER) {
            nk_cli_error(cli, "%s:%u: more than %d players", path, lineno, MAX_LADDER);
            rc = NK_EXIT_USAGE;
            break;
        }
        *t1 = *t2 = '\0';
        char err[NK_MSG_MAX];
        rung *g = &r[*n];
        snprintf(g->name, sizeof g->name, "%s", line);
        g->elo = elo;
        nk_status st = nk_playerio_load(&g->def, t1 + 1, v, err, sizeof err);
        if (st != NK_OK) {
            nk_cli_error(cli, "%s:%u: %s", path, lineno, err);
            rc = nk_cli_exit(st);
            break;
        }
        (*n)++;
    }
    fclose(f);
    nk_free(line);
    if (rc == NK_EXIT_OK && *n == 0) {
        nk_cli_error(cli, "%s: no players in the ladder", path);
        rc = NK_EXIT_USAGE;
    }
    if (rc == NK_EXIT_OK && (res->wdl != NULL) != res->has_anchor) {
        nk_cli_error(cli, "%s: the ladder's results need both @anchor and @wdl lines", path);
        rc = NK_EXIT_USAGE;
    }
    if (rc != NK_EXIT_OK) {
        nk_free(r);
        r = NULL;
        nk_free(res->wdl);
        res->wdl = NULL;
    }
    *out = r;
    return rc;
}

int nk_cmd_rate(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_LADDER] = {"ladder", "FILE",
                        "the ladder: NAME<TAB>SPEC<TAB>ELO lines, then its @anchor and @wdl results (default "
                        "results/ladder/<V>.tsv)",
                        NULL},
        [OPT_GAMES] = NK_OPT_GAMES("games against each ladder player (default 100)"),
        [OPT_OPENINGS] = NK_OPT_OPENINGS,
        [OPT_SEED] = NK_OPT_SEED,
        [OPT_THREADS] = NK_OPT_THREADS,
        [OPT_JSON] = {"json", NULL,
                      "print one JSON object: player, elo, se, ci, games, prior, opponents", NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "rate",
        .synopsis = "--variant V [--ladder FILE] [--games N] [--openings K] [--seed S]\n"
                    "       [--threads T] [--json] SPEC",
        .about = "Plays SPEC against every player of the variant's reference ladder\n"
                 "(experiments/ladder/run.sh writes results/ladder/<V>.tsv) in\n"
                 "colour-swapped pairs from shared random openings, and prints its\n"
                 "rating on the ladder's scale (random = 0) with a 95% interval: the\n"
                 "maximum-likelihood rating of the Bradley-Terry model of nickar\n"
                 "tournament, fitted jointly with the ladder's own results (its @wdl\n"
                 "lines), so that the interval holds the ladder's uncertainty too; the\n"
                 "rating against the ladder's ratings held exact is printed beside it.\n"
                 "Example: nickar rate --variant abapa ab:depth=4",
        .opts = opts,
        .max_args = 1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    const nk_variant *v = nk_cli_variant(&cli, opts[OPT_VARIANT].value);
    uint64_t games = 100, openings = 2, seed = 1, threads = 0;
    if (v == NULL ||
        (opts[OPT_GAMES].value && !nk_cli_uint(&cli, OPT_GAMES, 1, MAX_GAMES, &games)) ||
        (opts[OPT_OPENINGS].value && !nk_cli_uint(&cli, OPT_OPENINGS, 0, MAX_OPENING, &openings)) ||
        (opts[OPT_SEED].value && !nk_cli_uint(&cli, OPT_SEED, 0, UINT64_MAX, &seed)) ||
        (opts[OPT_THREADS].value && !nk_cli_uint(&cli, OPT_THREADS, 1, MAX_THREADS, &threads)))
        return NK_EXIT_USAGE;
    if (cli.argc != 1) {
        nk_cli_error(&cli, "needs one player spec (e.g. ab:depth=4)");
        return NK_EXIT_USAGE;
    }
    games += games % 2;
    char err[NK_MSG_MAX], path[1024];
    nk_player_list me = {0};
    nk_status st = nk_player_list_add(&me, NULL, cli.argv[0], v, err, sizeof err);
    if (st == NK_OK && me.n != 1)
        st = nk_fail(NK_EINVAL, err, sizeof err, "give one player, not a run's champions");
    if (st != NK_OK) {
        nk_cli_error(&cli, "player '%s': %s", cli.argv[0], err);
        nk_player_list_free(&me);
        return nk_cli_exit(st);
    }
    if (opts[OPT_LADDER].value)
        snprintf(path, sizeof path, "%s", opts[OPT_LADDER].value);
    else
        snprintf(path, sizeof path, "results/ladder/%s.tsv", v->name);
    rung *ladder = NULL;
    size_t n = 0;
    ladder_results res = {0};
    rc = read_ladder(&cli, path, v, &ladder, &n, &res);
    if (rc != NK_EXIT_OK) {
        nk_player_list_free(&me);
        return rc;
    }
    size_t per = (size_t)(games / 2), total = n * per;
    nk_exec_player *players = nk_calloc(n + 1, sizeof *players);
    nk_meeting *meetings = nk_calloc(total, sizeof *meetings);
    uint64_t *index = nk_calloc(total, sizeof *index);
    nk_wdl *m = nk_calloc(n, sizeof *m);
    double *elo = nk_calloc(n, sizeof *elo);
    nk_arena_played played = {0};
    if (!players || !meetings || !index || !m || !elo) {
        nk_cli_error(&cli, "out of memory");
        rc = NK_EXIT_FAIL;
    } else {
        const nk_player_def *d0 = &me.p[0].def;
        players[0] = (nk_exec_player){&d0->spec, d0->n ? d0->weights : NULL, d0->n};
        for (size_t j = 0; j < n; j++) {
            const nk_player_def *d = &ladder[j].def;
            players[j + 1] = (nk_exec_player){&d->spec, d->n ? d->weights : NULL, d->n};
            elo[j] = ladder[j].elo;
        }
        for (size_t k = 0; k < total; k++) {
            meetings[k] = (nk_meeting){0, (uint32_t)(k / per + 1)};
            index[k] = k % per;
        }
        nk_arena_setup setup = {.variant = v,
                                .players = players,
                                .nplayers = n + 1,
                                .master = seed,
                                .opening = (unsigned)openings,
                                .threads = (int)threads,
                                .index = index};
        st = nk_arena_play_meetings(&setup, meetings, total, &played, err, sizeof err);
        if (st == NK_OK) {
            for (size_t k = 0; k < total; k++) {
                nk_wdl *c = &m[k / per];
                c->w += played.tally[k].wins;
                c->d += played.tally[k].draws;
                c->l += played.tally[k].losses;
            }
        }
        /* r, se: the rating reported -- joint with the ladder's results
         * when the file has them; fixed_*: against its ratings held exact */
        double r = 0, se = 0, fixed = 0, fixed_se = 0;
        bool prior = false, fixed_prior = false, joint = res.wdl != NULL;
        if (st == NK_OK)
            st = nk_rating_against(m, elo, n, &fixed, &fixed_se, &fixed_prior, err, sizeof err);
        if (st == NK_OK && joint)
            st = nk_rating_joint(res.wdl, n, res.anchor, res.anchor_elo, m, &r, &se, &prior, err,
                                 sizeof err);
        if (!joint) {
            r = fixed;
            se = fixed_se;
            prior = fixed_prior;
        }
        if (st != NK_OK) {
            nk_cli_error(&cli, "%s", err);
            rc = nk_cli_exit(st);
        } else if (opts[OPT_JSON].value) {
            printf("{\"player\":");
            nk_cli_json_string(stdout, me.p[0].name);
            printf(",\"variant\":\"%s\",\"ladder\":", v->name);
            nk_cli_json_string(stdout, path);
            printf(",\"games\":%zu,\"joint\":%s,\"elo\":%.2f,\"se\":%.2f,\"ci\":[%.2f,%.2f],"
                   "\"prior\":%s,\"fixed_elo\":%.2f,\"fixed_se\":%.2f,\"opponents\":[",
                   2 * total, joint ? "true" : "false", r, se, r - Z95 * se, r + Z95 * se,
                   prior ? "true" : "false", fixed, fixed_se);
            for (size_t j = 0; j < n; j++) {
                unsigned g = m[j].w + m[j].d + m[j].l;
                printf("%s{\"name\":", j ? "," : "");
                nk_cli_json_string(stdout, ladder[j].name);
                printf(",\"elo\":%.2f,\"games\":%u,\"wins\":%u,\"draws\":%u,\"losses\":%u,"
                       "\"score\":%.6f}",
                       ladder[j].elo, g, m[j].w, m[j].d, m[j].l,
                       g ? (m[j].w + 0.5 * m[j].d) / g : 0.5);
            }
            printf("]}\n");
        } else {
            printf("variant  %s\nplayer   %s\nladder   %s (%zu players)\n", v->name, me.p[0].name,
                   path, n);
            printf("games    %zu: %llu against each, colour-swapped pairs, random openings "
                   "of %llu plies, seed %llu\n\n",
                   2 * total, (unsigned long long)games, (unsigned long long)openings,
                   (unsigned long long)seed);
            printf("  %-32s  %8s  %5s  W-D-L\n", "opponent", "elo", "score");
            for (size_t j = 0; j < n; j++) {
                unsigned g = m[j].w + m[j].d + m[j].l;
                printf("  %-32.32s  %8.1f  %5.3f  %u-%u-%u\n", ladder[j].name, ladder[j].elo,
                       g ? (m[j].w + 0.5 * m[j].d) / g : 0.5, m[j].w, m[j].d, m[j].l);
            }
            printf("\nrating   %.1f +- %.1f (95%% interval [%.1f, %.1f]) on the ladder's "
                   "scale%s\n",
                   r, Z95 * se, r - Z95 * se, r + Z95 * se,
                   prior ? "; virtual draws were added (a player or group won or lost every game)"
                         : "");
            if (joint)
                printf("         fitted with the ladder's own results, so the interval holds "
                       "their uncertainty;\n         with the ladder's ratings held exact: "
                       "%.1f +- %.1f\n",
                       fixed, Z95 * fixed_se);
            else
                printf("         the ladder file has no results (@wdl lines): its ratings are "
                       "held exact\n");
        }
    }
    nk_arena_played_free(&played);
    nk_free(players);
    nk_free(meetings);
    nk_free(index);
    nk_free(m);
    nk_free(elo);
    nk_free(ladder);
    nk_free(res.wdl);
    nk_player_list_free(&me);
    return rc == NK_EXIT_OK ? nk_cli_finish(&cli) : rc;
}
