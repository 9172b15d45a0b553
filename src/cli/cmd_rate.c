/*
 * cmd_rate.c -- `nickar rate`: a player's rating on the scale of a
 * variant's reference ladder (experiments/ladder/run.sh), from a gauntlet
 * against every player of the ladder.
 *
 * The ladder is a text file, one `NAME<TAB>SPEC<TAB>ELO` a line, `#`
 * comments (results/ladder/<variant>.tsv).  Opponent j is pairing j of the
 * gauntlet; its meetings are numbered within the pairing as nickar match
 * and nickar tournament number them (arena/meetings.h, setup.index), all in
 * one batch, so nothing depends on --threads.  The rating is the maximum-
 * likelihood rating against the ladder's fixed ratings (nk_rating_against,
 * arena/rating.h: Bradley-Terry, draws as half a win, 95% interval from
 * the draw-corrected curvature).
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

/* Reads the ladder file into *out (n rungs).  Exit code. */
static int read_ladder(const nk_cli *cli, const char *path, const nk_variant *v, rung **out,
                       size_t *n)
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
    if (rc != NK_EXIT_OK) {
        nk_free(r);
        r = NULL;
    }
    *out = r;
    return rc;
}

int nk_cmd_rate(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_LADDER] = {"ladder", "FILE",
                        "the ladder: NAME<TAB>SPEC<TAB>ELO lines (default "
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
                 "tournament with the ladder's ratings fixed.\n"
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
    rc = read_ladder(&cli, path, v, &ladder, &n);
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
        double r = 0, se = 0;
        bool prior = false;
        if (st == NK_OK)
            st = nk_rating_against(m, elo, n, &r, &se, &prior, err, sizeof err);
        if (st != NK_OK) {
            nk_cli_error(&cli, "%s", err);
            rc = nk_cli_exit(st);
        } else if (opts[OPT_JSON].value) {
            printf("{\"player\":");
            nk_cli_json_string(stdout, me.p[0].name);
            printf(",\"variant\":\"%s\",\"ladder\":", v->name);
            nk_cli_json_string(stdout, path);
            printf(",\"games\":%zu,\"elo\":%.2f,\"se\":%.2f,\"ci\":[%.2f,%.2f],\"prior\":%s,"
                   "\"opponents\":[",
                   2 * total, r, se, r - Z95 * se, r + Z95 * se, prior ? "true" : "false");
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
                   prior ? "; it won or lost every game: one virtual draw per opponent added" : "");
        }
    }
    nk_arena_played_free(&played);
    nk_free(players);
    nk_free(meetings);
    nk_free(index);
    nk_free(m);
    nk_free(elo);
    nk_free(ladder);
    nk_player_list_free(&me);
    return rc == NK_EXIT_OK ? nk_cli_finish(&cli) : rc;
}
