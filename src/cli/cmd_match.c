/*
 * cmd_match.c -- `nickar match`: games between two players, A and B, and
 * the statistics of A's score (arena/arena.h).
 *
 * The match itself, with its SPRT, is run/match.h: this file reads the
 * options, resolves the two players, has the games counted written to
 * --records after each part (io/records.h) and prints the result.  The games come in colour-swapped
 * pairs: pair i is played from one random opening of K plies, drawn with
 * the pair's seed nk_exec_seed(S, 0, i), once with A South and once with A
 * North (South moves first in both).  The batch runs on OpenMP threads
 * (exec/exec.h) and every game's result lands at its index, so the output
 * does not depend on --threads; nothing that does (time, thread count) is
 * printed on stdout.
 */
#include <stdio.h>
#include <stdlib.h>

#include "arena/arena.h"
#include "arena/meetings.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "exec/exec.h"
#include "io/playerio.h"
#include "io/records.h"
#include "run/match.h"
#include "run/settings.h"
#include "search/player.h"

enum {
    OPT_VARIANT,
    OPT_GAMES,
    OPT_OPENINGS,
    OPT_SEED,
    OPT_THREADS,
    OPT_PLY_LIMIT,
    OPT_JSON,
    OPT_RECORDS,
    OPT_SPRT,
    OPT_UNIT,
    OPT_MATCH_GAMES,
    OPT_END
};

/* With --sprt: the default cap on games. */
enum { SPRT_DEFAULT_GAMES = 20000 };

typedef struct match {
    const nk_cli *cli;
    const nk_variant *variant;
    nk_player_def def[2]; /* A, B */
    uint64_t games, openings, seed, threads, ply_limit;
    bool json;
    const char *records; /* --records FILE, or NULL */
    bool sprt;           /* --sprt given */
    nk_sprt_spec spec;
    nk_arena_unit unit; /* --unit */
    uint64_t match_games;
    uint64_t odd_games; /* --games N when N was odd (rounded up), else 0 */
} match;

/* Resolves the spec of player A (i = 0) or B (1) and makes it once, so that
 * a spec that does not suit the variant is a message before any game. */
static int load_player(match *m, int i, const char *text)
{
    char err[NK_MSG_MAX];
    const char *who = i == 0 ? "A" : "B";
    nk_status st = nk_playerio_load(&m->def[i], text, m->variant, err, sizeof err);
    if (st == NK_OK && m->def[i].spec.kind == NK_PLAYER_HUMAN)
        st = nk_fail(NK_EINVAL, err, sizeof err, "'human' cannot play a match (use nickar play)");
    nk_player *p = NULL;
    if (st == NK_OK)
        st = nk_playerio_new(&p, &m->def[i], m->variant, err, sizeof err);
    nk_player_free(p);
    if (st != NK_OK) {
        nk_cli_error(m->cli, "player %s: %s", who, err);
        return nk_cli_exit(st);
    }
    return NK_EXIT_OK;
}

/* ===== options ===== */

static int read_options(match *m, nk_opt *opts)
{
    const nk_cli *cli = m->cli;
    m->variant = nk_cli_variant(cli, opts[OPT_VARIANT].value);
    const char *unit = NULL;
    if (m->variant == NULL || !nk_cli_choice(cli, OPT_UNIT, &unit) ||
        !nk_cli_number(cli, OPT_MATCH_GAMES, &m->match_games))
        return NK_EXIT_USAGE;
    m->unit = nk_run_unit_of(unit, m->variant);
    if (opts[OPT_MATCH_GAMES].value != NULL && m->unit != NK_UNIT_MATCH) {
        nk_cli_error(cli, "--match-games needs --unit match");
        return NK_EXIT_USAGE;
    }
    m->sprt = opts[OPT_SPRT].value != NULL;
    if (m->sprt) {
        m->games = SPRT_DEFAULT_GAMES; /* unless --games says (the play table's default is
                                          without --sprt) */
        char err[NK_MSG_MAX];
        if (nk_sprt_parse(opts[OPT_SPRT].value, &m->spec, err, sizeof err) != NK_OK) {
            nk_cli_error(cli, "--sprt: %s", err);
            return NK_EXIT_USAGE;
        }
    }
    m->threads = 0;
    m->json = opts[OPT_JSON].value != NULL;
    m->records = opts[OPT_RECORDS].value;
    if (m->records != NULL && m->records[0] == '\0') {
        nk_cli_error(cli, "option '--records' needs a file name");
        return NK_EXIT_USAGE;
    }
    if ((!m->sprt || opts[OPT_GAMES].value != NULL) && !nk_cli_number(cli, OPT_GAMES, &m->games))
        return NK_EXIT_USAGE;
    if (!nk_cli_number(cli, OPT_OPENINGS, &m->openings) ||
        !nk_cli_number(cli, OPT_SEED, &m->seed) || !nk_cli_number(cli, OPT_THREADS, &m->threads) ||
        !nk_cli_number(cli, OPT_PLY_LIMIT, &m->ply_limit))
        return NK_EXIT_USAGE;
    if (cli->argc != 2) {
        nk_cli_error(cli,
                     "needs two player specs, SPEC_A and SPEC_B (got %d); e.g. "
                     "'ab:depth=4 greedy'",
                     cli->argc);
        return NK_EXIT_USAGE;
    }
    int rc = load_player(m, 0, cli->argv[0]);
    if (rc == NK_EXIT_OK)
        rc = load_player(m, 1, cli->argv[1]);
    if (rc == NK_EXIT_OK && m->games % 2 != 0)
        m->odd_games = m->games++; /* the note comes last (odd_note) */
    /* with --unit match, --games counts matches (in colour-swapped pairs) */
    return rc;
}

/* ===== playing ===== */

/* Writes the games of the first npairs pairs of p to the --records file
 * (io/records.h), in the order of the games: pair i gives games 2i (A
 * South) and 2i+1, or with --unit match the games of its match with A
 * South, then those of its match with B South.  append: add to the file (a
 * later part of an SPRT). */
static int write_records(const match *m, const nk_arena_played *p, size_t npairs, bool append)
{
    const char *specs[2] = {m->def[0].spec.text, m->def[1].spec.text};
    char err[NK_MSG_MAX];
    nk_status st =
        nk_records_write_games(m->records, append, m->variant, (unsigned)m->ply_limit, p->games,
                               p->jobs, p->first_game[2 * npairs], specs, err, sizeof err);
    if (st == NK_EINVAL || st == NK_ERANGE) /* a game that cannot be a record */
        nk_cli_error(m->cli, "--records: %s", err);
    else if (st != NK_OK)
        nk_cli_error(m->cli, "%s", err);
    return nk_cli_exit(st);
}

/* Plays the match (run/match.h): part by part, the games counted written
 * to --records after each; *out is the match, for its result. */
static int play(const match *m, nk_run_match **out)
{
    nk_run_match_settings s = {.variant = m->variant,
                               .games = m->games,
                               .openings = (unsigned)m->openings,
                               .seed = m->seed,
                               .threads = (int)m->threads,
                               .ply_limit = (unsigned)m->ply_limit,
                               .record = m->records != NULL,
                               .unit = m->unit,
                               .match_games = (unsigned)m->match_games,
                               .sprt = m->sprt,
                               .spec = m->spec};
    for (int i = 0; i < 2; i++)
        s.players[i] =
            (nk_exec_player){&m->def[i].spec, m->def[i].n ? m->def[i].weights : NULL, m->def[i].n};
    char err[NK_MSG_MAX];
    nk_status st = nk_run_match_alloc(out, &s, err, sizeof err);
    int rc = NK_EXIT_OK;
    while (st == NK_OK && rc == NK_EXIT_OK && !nk_run_match_done(*out)) {
        st = nk_run_match_iterate(*out, err, sizeof err);
        const nk_run_match_part *part = nk_run_match_part_of(*out);
        if (st == NK_OK && m->records != NULL)
            rc = write_records(m, part->played, part->counted, part->first > 0);
    }
    if (st != NK_OK) {
        nk_cli_error(m->cli, "%s", err);
        rc = nk_cli_exit(st);
    }
    return rc;
}

static const char *decision_name(const nk_sprt *s)
{
    return s->verdict == NK_SPRT_H1 ? "H1" : s->verdict == NK_SPRT_H0 ? "H0" : "undecided";
}

/* ===== output ===== */

static void print_text(const match *m, const nk_run_match_result *o)
{
    const nk_arena_stats *s = &o->stats;
    printf("variant  %s: %s\n", m->variant->name, m->variant->title);
    printf("A        %s\nB        %s\n", m->def[0].spec.text, m->def[1].spec.text);
    if (m->unit == NK_UNIT_MATCH) {
        printf("matches  %u in %u colour-swapped pairs, at most %llu games a match, %llu games "
               "in all;\n         random openings of %llu plies, seed %llu\n\n",
               s->games, s->games / 2, (unsigned long long)m->match_games,
               (unsigned long long)o->ngames, (unsigned long long)m->openings,
               (unsigned long long)m->seed);
        printf("A: %u matches won, %u drawn, %u lost; score %.1f%% (%.1f of %u)\n", s->wins,
               s->draws, s->losses, 100.0 * s->score, s->score * s->games, s->games);
        printf("games inside the matches: A %u wins, %u draws, %u losses\n", o->game_wins,
               o->game_draws, o->game_losses);
    } else {
        printf("games    %u in %u colour-swapped pairs, random openings of %llu plies, "
               "seed %llu\n\n",
               s->games, s->games / 2, (unsigned long long)m->openings,
               (unsigned long long)m->seed);
        printf("A: %u wins, %u draws, %u losses; score %.1f%% (%.1f of %u)\n", s->wins, s->draws,
               s->losses, 100.0 * s->score, s->score * s->games, s->games);
    }
    printf("seed difference: %+.2f per %s (A's view)\n", s->seed_diff,
           m->unit == NK_UNIT_MATCH ? "match" : "game");
    printf("Elo difference: %+.1f, 95%% confidence interval [%+.1f, %+.1f] (%s)\n", s->elo,
           s->elo_lo, s->elo_hi, s->pentanomial ? "from the pairs" : "from the games");
    printf("likelihood of superiority: %.1f%%\n", 100.0 * s->los);
    printf("plies: %.1f per game; ends:", o->mean_plies);
    bool first = true;
    for (int r = 1; r < NK_END_COUNT; r++) {
        if (o->reasons[r] == 0)
            continue;
        printf("%s %s %u", first ? "" : ",", nk_end_name((nk_end)r), o->reasons[r]);
        first = false;
    }
    putchar('\n');
    if (m->sprt) {
        const nk_sprt *t = &o->sprt;
        bool exact = nk_sprt_spec_model(&m->spec) == NK_SPRT_GSPRT;
        printf("\nSPRT: H0 elo = %g against H1 elo = %g, alpha %g, beta %g (model %s: %s on the "
               "pairs, logistic Elo)\n",
               m->spec.elo0, m->spec.elo1, m->spec.alpha, m->spec.beta,
               nk_sprt_model_name(nk_sprt_spec_model(&m->spec)),
               exact ? "the exact GSPRT" : "the normal approximation of the GSPRT");
        printf("LLR %.3f, bounds [%.3f, %.3f]\n", t->llr, t->lower, t->upper);
        if (t->verdict == NK_SPRT_CONTINUE)
            printf("decision: undecided after %u %s (the --games cap of %llu)\n", s->games,
                   m->unit == NK_UNIT_MATCH ? "matches" : "games", (unsigned long long)m->games);
        else
            printf("decision: %s (elo = %g) after %u %s\n", decision_name(t),
                   t->verdict == NK_SPRT_H1 ? m->spec.elo1 : m->spec.elo0, s->games,
                   m->unit == NK_UNIT_MATCH ? "matches" : "games");
    }
}

static void print_json(const match *m, const nk_run_match_result *o)
{
    const nk_arena_stats *s = &o->stats;
    printf("{\"variant\":");
    nk_cli_json_string(stdout, m->variant->name);
    printf(",\"a\":");
    nk_cli_json_string(stdout, m->def[0].spec.text);
    printf(",\"b\":");
    nk_cli_json_string(stdout, m->def[1].spec.text);
    printf(",\"games\":%u,\"pairs\":%u,\"openings\":%llu,\"seed\":%llu", s->games, s->games / 2,
           (unsigned long long)m->openings, (unsigned long long)m->seed);
    printf(",\"wins\":%u,\"draws\":%u,\"losses\":%u,\"score\":%.6f,\"seed_diff\":%.4f", s->wins,
           s->draws, s->losses, s->score, s->seed_diff);
    printf(",\"elo\":%.2f,\"elo_ci\":[%.2f,%.2f],\"ci_from\":\"%s\",\"los\":%.6f", s->elo,
           s->elo_lo, s->elo_hi, s->pentanomial ? "pairs" : "games", s->los);
    printf(",\"pentanomial\":[%u,%u,%u,%u,%u],\"plies\":%.2f,\"reasons\":{", o->pentanomial[0],
           o->pentanomial[1], o->pentanomial[2], o->pentanomial[3], o->pentanomial[4],
           o->mean_plies);
    bool first = true;
    for (int r = 1; r < NK_END_COUNT; r++) {
        if (o->reasons[r] == 0)
            continue;
        printf("%s\"%s\":%u", first ? "" : ",", nk_end_name((nk_end)r), o->reasons[r]);
        first = false;
    }
    printf("}");
    if (m->unit == NK_UNIT_MATCH)
        printf(",\"unit\":\"match\",\"match_games\":%llu,\"games_played\":%llu,"
               "\"game_wins\":%u,\"game_draws\":%u,\"game_losses\":%u",
               (unsigned long long)m->match_games, (unsigned long long)o->ngames, o->game_wins,
               o->game_draws, o->game_losses);
    else
        printf(",\"unit\":\"game\"");
    if (m->sprt)
        printf(",\"sprt\":{\"elo0\":%.17g,\"elo1\":%.17g,\"alpha\":%.17g,\"beta\":%.17g,"
               "\"model\":\"%s\",\"llr\":%.6f,\"lower\":%.6f,\"upper\":%.6f,"
               "\"decision\":\"%s\",\"games_cap\":%llu}",
               m->spec.elo0, m->spec.elo1, m->spec.alpha, m->spec.beta,
               nk_sprt_model_name(nk_sprt_spec_model(&m->spec)), o->sprt.llr, o->sprt.lower,
               o->sprt.upper, decision_name(&o->sprt), (unsigned long long)m->games);
    printf("}\n");
}

int nk_cmd_match(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_GAMES] = NK_OPT_GAMES("games to play"),
        [OPT_OPENINGS] = NK_OPT_OPENINGS,
        [OPT_SEED] = NK_OPT_SEED,
        [OPT_THREADS] = NK_OPT_THREADS,
        [OPT_PLY_LIMIT] = NK_OPT_PLY_LIMIT,
        [OPT_JSON] = {"json", NULL,
                      "print one JSON object: games, wins, draws, losses, score, seed_diff, "
                      "elo, elo_ci, los, pentanomial, reasons, ...",
                      NULL},
        [OPT_RECORDS] = {"records", "FILE",
                         "also write every game to FILE, one line a game (docs/cli.md,"
                         " \"Game records\"), for nickar replay and nickar view",
                         NULL},
        [OPT_SPRT] = {"sprt", "elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]",
                      "sequential test of H0 (Elo E0) against H1 (Elo E1) at error rates A, "
                      "B (default 0.05): stops at the first pair whose log-likelihood "
                      "ratio crosses a bound; --games is then the cap (default 20000); "
                      "model gsprt (default: fishtest's exact GSPRT) or normal (its normal "
                      "approximation)",
                      NULL},
        [OPT_UNIT] = NK_OPT_UNIT,
        [OPT_MATCH_GAMES] = NK_OPT_MATCH_GAMES,
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    /* The keys of an ab spec come from its parameter table (search/player.h). */
    char keys[128], about[1024];
    snprintf(about, sizeof about,
             "Plays colour-swapped pairs of games between players A and B, each\n"
             "pair from the same random opening of K plies, and prints from A's\n"
             "view: wins, draws, losses, score, average seed difference, the Elo\n"
             "difference with a 95%% confidence interval, and the likelihood of\n"
             "superiority (LOS).\n\n"
             "A player spec is random, greedy, or ab[:KEY=VALUE,...] with keys\n"
             "%s; weights= takes a built-in\n"
             "table, a text file of numbers (one per feature, # comments), or an\n"
             "individual of a run file: RUN.h5@best or RUN.h5@gen=G,rank=R.\n"
             "Example: nickar match --variant antigua ab:depth=4 greedy",
             nk_spec_keys(keys, sizeof keys));
    nk_cli cli = {
        .name = "match",
        .synopsis =
            "--variant V [--games N] [--openings K] [--seed S] [--threads T]\n"
            "       [--ply-limit L] [--json] [--records FILE]\n"
            "       [--sprt elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]] [--unit game|match|auto]\n"
            "       [--match-games L] SPEC_A SPEC_B",
        .about = about,
        .opts = opts,
        .max_args = 2,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    match m = {.cli = &cli};
    rc = read_options(&m, opts);
    if (rc != NK_EXIT_OK)
        return rc;
    nk_run_match *played = NULL;
    rc = play(&m, &played);
    if (rc == NK_EXIT_OK && m.json)
        print_json(&m, nk_run_match_result_of(played));
    else if (rc == NK_EXIT_OK)
        print_text(&m, nk_run_match_result_of(played));
    nk_run_match_free(played);
    rc = rc == NK_EXIT_OK ? nk_cli_finish(&cli) : rc;
    /* after every check and write: an error stays the one line */
    if (rc == NK_EXIT_OK && m.odd_games != 0)
        nk_cli_error(&cli, "note: --games %llu is odd; playing %llu (colour-swapped pairs)",
                     (unsigned long long)m.odd_games, (unsigned long long)m.games);
    return rc;
}
