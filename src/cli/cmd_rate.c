/*
 * cmd_rate.c -- `nickar rate`: a player's rating on the scale of a
 * variant's reference ladder (experiments/ladder/run.sh), from a gauntlet
 * against every player of the ladder.
 *
 * The ladder is a text file (results/ladder/<variant>.tsv), read by
 * io/ladder.h: one `NAME<TAB>SPEC<TAB>ELO` a line, `#` comments, then the
 * ladder's own results, `@anchor<TAB>NAME<TAB>ELO` (the player whose rating
 * was fixed) and one `@wdl<TAB>A<TAB>B<TAB>W<TAB>D<TAB>L` a pairing (A's
 * results against B).  The gauntlet is run/rate.h: opponent j is pairing j;
 * its meetings are numbered within the pairing as nickar match and nickar
 * tournament number them (arena/meetings.h, setup.index), all in one
 * batch, so nothing depends on --threads.  With the ladder's results the
 * rating is fitted jointly with them (nk_rating_joint, arena/rating.h:
 * Bradley-Terry, draws as half a win, 95% interval from the draw-corrected
 * curvature), so that its interval holds the ladder's uncertainty too; the
 * rating against the ladder's ratings held exact (nk_rating_against) is
 * printed beside it.  A ladder file without results gives only the
 * latter.  This file reads the options, calls the two and prints.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "io/ladder.h"
#include "io/playerio.h"
#include "run/rate.h"

enum { OPT_VARIANT, OPT_LADDER, OPT_GAMES, OPT_OPENINGS, OPT_SEED, OPT_THREADS, OPT_JSON, OPT_END };

static const double Z95 = 1.959964;

/* What the command works on: the options, the player rated and the
 * ladder. */
typedef struct rate_cmd {
    const nk_cli *cli;
    const nk_variant *v;
    uint64_t games, openings, seed, threads;
    bool json;
    char path[1024]; /* the ladder file */
    nk_player_list me;
    nk_ladder ladder;
} rate_cmd;

/* Reads the options and the player.  Exit code. */
static int read_options(rate_cmd *c, const nk_opt *opts)
{
    const nk_cli *cli = c->cli;
    c->v = nk_cli_variant(cli, opts[OPT_VARIANT].value);
    c->threads = 0;
    c->json = opts[OPT_JSON].value != NULL;
    if (c->v == NULL || !nk_cli_number(cli, OPT_GAMES, &c->games) ||
        !nk_cli_number(cli, OPT_OPENINGS, &c->openings) ||
        !nk_cli_number(cli, OPT_SEED, &c->seed) || !nk_cli_number(cli, OPT_THREADS, &c->threads))
        return NK_EXIT_USAGE;
    if (cli->argc != 1) {
        nk_cli_error(cli, "needs one player spec (e.g. ab:depth=4)");
        return NK_EXIT_USAGE;
    }
    c->games += c->games % 2;
    char err[NK_MSG_MAX];
    nk_status st = nk_player_list_add(&c->me, NULL, cli->argv[0], c->v, err, sizeof err);
    if (st == NK_OK && c->me.n != 1)
        st = nk_fail(NK_EINVAL, err, sizeof err, "give one player, not a run's champions");
    if (st != NK_OK) {
        nk_cli_error(cli, "player '%s': %s", cli->argv[0], err);
        return nk_cli_exit(st);
    }
    if (opts[OPT_LADDER].value)
        snprintf(c->path, sizeof c->path, "%s", opts[OPT_LADDER].value);
    else
        snprintf(c->path, sizeof c->path, "results/ladder/%s.tsv", c->v->name);
    st = nk_ladder_read(&c->ladder, c->path, c->v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    return NK_EXIT_OK;
}

static nk_exec_player exec_player(const nk_player_def *d)
{
    return (nk_exec_player){&d->spec, d->n ? d->weights : NULL, d->n};
}

/* Plays the gauntlet (run/rate.h): *out is it, for its result. */
static int play(const rate_cmd *c, nk_rate **out)
{
    const nk_ladder *l = &c->ladder;
    nk_exec_player *ladder = nk_calloc(l->n, sizeof *ladder);
    double *elo = nk_calloc(l->n, sizeof *elo);
    if (ladder == NULL || elo == NULL) {
        nk_free(ladder);
        nk_free(elo);
        nk_cli_error(c->cli, "out of memory");
        return NK_EXIT_FAIL;
    }
    for (size_t j = 0; j < l->n; j++) {
        ladder[j] = exec_player(&l->rung[j].def);
        elo[j] = l->rung[j].elo;
    }
    nk_rate_settings s = {.variant = c->v,
                          .player = exec_player(&c->me.p[0].def),
                          .ladder = ladder,
                          .elo = elo,
                          .n = l->n,
                          .results = l->wdl,
                          .anchor = l->anchor,
                          .anchor_elo = l->anchor_elo,
                          .games = c->games,
                          .openings = (unsigned)c->openings,
                          .seed = c->seed,
                          .threads = (int)c->threads};
    char err[NK_MSG_MAX];
    nk_status st = nk_rate_alloc(out, &s, err, sizeof err);
    while (st == NK_OK && !nk_rate_done(*out))
        st = nk_rate_iterate(*out, err, sizeof err);
    nk_free(ladder);
    nk_free(elo);
    if (st != NK_OK) {
        nk_cli_error(c->cli, "%s", err);
        return nk_cli_exit(st);
    }
    return NK_EXIT_OK;
}

static double score_of(const nk_wdl *m)
{
    unsigned g = m->w + m->d + m->l;
    return g ? (m->w + 0.5 * m->d) / g : 0.5;
}

static void print_json(const rate_cmd *c, const nk_rate_result *x)
{
    const nk_ladder *l = &c->ladder;
    printf("{\"player\":");
    nk_cli_json_string(stdout, c->me.p[0].name);
    printf(",\"variant\":\"%s\",\"ladder\":", c->v->name);
    nk_cli_json_string(stdout, c->path);
    printf(",\"games\":%zu,\"joint\":%s,\"elo\":%.2f,\"se\":%.2f,\"ci\":[%.2f,%.2f],"
           "\"prior\":%s,\"fixed_elo\":%.2f,\"fixed_se\":%.2f,\"opponents\":[",
           (size_t)x->games, x->joint ? "true" : "false", x->elo, x->se, x->elo - Z95 * x->se,
           x->elo + Z95 * x->se, x->prior ? "true" : "false", x->fixed_elo, x->fixed_se);
    for (size_t j = 0; j < l->n; j++) {
        const nk_wdl *m = &x->wdl[j];
        unsigned g = m->w + m->d + m->l;
        printf("%s{\"name\":", j ? "," : "");
        nk_cli_json_string(stdout, l->rung[j].name);
        printf(",\"elo\":%.2f,\"games\":%u,\"wins\":%u,\"draws\":%u,\"losses\":%u,"
               "\"score\":%.6f}",
               l->rung[j].elo, g, m->w, m->d, m->l, score_of(m));
    }
    printf("]}\n");
}

static void print_text(const rate_cmd *c, const nk_rate_result *x)
{
    const nk_ladder *l = &c->ladder;
    printf("variant  %s\nplayer   %s\nladder   %s (%zu players)\n", c->v->name, c->me.p[0].name,
           c->path, l->n);
    printf("games    %zu: %llu against each, colour-swapped pairs, random openings "
           "of %llu plies, seed %llu\n\n",
           (size_t)x->games, (unsigned long long)c->games, (unsigned long long)c->openings,
           (unsigned long long)c->seed);
    printf("  %-32s  %8s  %5s  W-D-L\n", "opponent", "elo", "score");
    for (size_t j = 0; j < l->n; j++) {
        const nk_wdl *m = &x->wdl[j];
        printf("  %-32.32s  %8.1f  %5.3f  %u-%u-%u\n", l->rung[j].name, l->rung[j].elo, score_of(m),
               m->w, m->d, m->l);
    }
    const double r = x->elo, se = x->se;
    printf("\nrating   %.1f +- %.1f (95%% interval [%.1f, %.1f]) on the ladder's "
           "scale%s\n",
           r, Z95 * se, r - Z95 * se, r + Z95 * se,
           x->prior ? "; virtual draws were added (a player or group won or lost every game)" : "");
    if (x->joint)
        printf("         fitted with the ladder's own results, so the interval holds "
               "their uncertainty;\n         with the ladder's ratings held exact: "
               "%.1f +- %.1f\n",
               x->fixed_elo, Z95 * x->fixed_se);
    else
        printf("         the ladder file has no results (@wdl lines): its ratings are "
               "held exact\n");
}

int nk_cmd_rate(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_LADDER] =
            {"ladder", "FILE",
             "the ladder: NAME<TAB>SPEC<TAB>ELO lines, then its @anchor and @wdl results (default "
             "results/ladder/<V>.tsv)",
             NULL},
        [OPT_GAMES] = NK_OPT_GAMES("games against each ladder player"),
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
    rate_cmd c = {.cli = &cli};
    rc = read_options(&c, opts);
    nk_rate *gauntlet = NULL;
    if (rc == NK_EXIT_OK)
        rc = play(&c, &gauntlet);
    if (rc == NK_EXIT_OK && c.json)
        print_json(&c, nk_rate_result_of(gauntlet));
    else if (rc == NK_EXIT_OK)
        print_text(&c, nk_rate_result_of(gauntlet));
    nk_rate_free(gauntlet);
    nk_ladder_free(&c.ladder);
    nk_player_list_free(&c.me);
    return rc == NK_EXIT_OK ? nk_cli_finish(&cli) : rc;
}
