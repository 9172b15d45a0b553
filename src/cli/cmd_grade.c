/*
 * cmd_grade.c -- `nickar grade SPEC`: how well a player plays endgames,
 * measured against perfect play (docs/tablebase.md, "Grading").
 *
 * The positions and what counts as optimal: search/grade.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "io/playerio.h"
#include "run/gradegames.h"
#include "search/grade.h"
#include "search/player.h"
#include "tb/tb.h"

enum {
    OPT_VARIANT,
    OPT_TB,
    OPT_POSITIONS,
    OPT_SEED,
    OPT_REFERENCE,
    OPT_FROM_START,
    OPT_GAMES,
    OPT_OPPONENT,
    OPT_PER_PIT,
    OPT_OPENINGS,
    OPT_THREADS,
    OPT_ERRORS,
    OPT_END
};

/* Loads a player's spec and weights; 'human' is refused. */
static int load_player(const nk_cli *cli, const char *what, const char *text, const nk_variant *v,
                       nk_player_def *def)
{
    char err[NK_MSG_MAX];
    nk_status st = nk_playerio_load(def, text, v, err, sizeof err);
    if (st == NK_OK && def->spec.kind == NK_PLAYER_HUMAN)
        st = nk_fail(NK_EINVAL, err, sizeof err, "'human' cannot be graded");
    if (st != NK_OK) {
        nk_cli_error(cli, "%s: %s", what, err);
        return nk_cli_exit(st);
    }
    return NK_EXIT_OK;
}

static int make_player(const nk_cli *cli, const char *what, const char *text, const nk_variant *v,
                       nk_player **out)
{
    char err[NK_MSG_MAX];
    nk_player_def def;
    int rc = load_player(cli, what, text, v, &def);
    if (rc != NK_EXIT_OK)
        return rc;
    nk_status st = nk_playerio_new(out, &def, v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s: %s", what, err);
        return nk_cli_exit(st);
    }
    return NK_EXIT_OK;
}

/* "what: x  95% interval [lo, hi]", or "(no interval: one game)". */
static void print_estimate(const char *what, const double x[3])
{
    if (isnan(x[1]))
        printf("%s: %.3f  (no interval: one game)\n", what, x[0]);
    else
        printf("%s: %.3f  95%% interval [%.3f, %.3f]\n", what, x[0], x[1], x[2]);
}

/* ===== grading on positions (the default) ===== */

static int grade_positions(nk_cli *cli, nk_opt *opts, const nk_variant *v, const nk_tb *tb,
                           uint64_t seed)
{
    uint64_t want = 1000;
    if (opts[OPT_POSITIONS].value && !nk_cli_uint(cli, OPT_POSITIONS, 1, 1000000, &want))
        return NK_EXIT_USAGE;
    nk_player *player = NULL, *ref = NULL;
    int rc = make_player(cli, "player", cli->argv[0], v, &player);
    if (rc != NK_EXIT_OK)
        return rc;
    const char *ref_text = opts[OPT_REFERENCE].value ? opts[OPT_REFERENCE].value : "ab:depth=3";
    rc = make_player(cli, "reference", ref_text, v, &ref);
    if (rc != NK_EXIT_OK) {
        nk_player_free(player);
        return rc;
    }
    char err[NK_MSG_MAX];
    nk_grade gr;
    nk_status st = nk_grade_play(tb, player, ref, want, seed, &gr, err, sizeof err);
    nk_player_free(player);
    nk_player_free(ref);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    if (gr.positions == 0) {
        nk_cli_error(cli,
                     "no position of %llu games of the reference player came inside the "
                     "database (%u seeds)",
                     (unsigned long long)gr.games, tb->seeds);
        return NK_EXIT_USAGE;
    }
    double share[3], lost[3];
    nk_grade_summary(&gr, share, lost);
    printf("positions: %llu from %llu games of %s (%llu rest on the repetition rule)\n",
           (unsigned long long)gr.positions, (unsigned long long)gr.games, ref_text,
           (unsigned long long)gr.cycle);
    print_estimate("optimal moves", share);
    print_estimate("seeds lost per move", lost);
    printf("intervals: cluster-robust over the %llu games that gave positions\n",
           (unsigned long long)gr.clusters);
    if (gr.positions < want)
        printf("note: %llu positions wanted, %llu games gave %llu\n", (unsigned long long)want,
               (unsigned long long)gr.games, (unsigned long long)gr.positions);
    return NK_EXIT_OK;
}

/* ===== grading whole games (--from-start) ===== */

static const char *result_name(int r)
{
    return r > 0 ? "win" : r < 0 ? "loss" : "draw";
}

/* The moves of a mask as letters, e.g. "af". */
static void move_letters(unsigned mask, char *out)
{
    size_t k = 0;
    for (unsigned m = mask; m; m &= m - 1)
        out[k++] = nk_move_letter(__builtin_ctz(m));
    out[k] = '\0';
}

/* One line an error (docs/cli.md, "nickar grade"): nickar view reads it. */
static void write_errors(FILE *f, const nk_variant *v, const nk_gg_report *r)
{
    for (size_t i = 0; i < r->nerrors; i++) {
        const nk_gg_error *e = &r->errors[i];
        char opt[NK_PASS + 2], pos[NK_POS_TEXT];
        move_letters(e->optimal, opt);
        nk_pos_format(&e->pos, pos);
        fprintf(f, "error variant=%s game=%llu ply=%u played=%c optimal=%s lost=%d result=%s",
                v->name, (unsigned long long)e->game + 1, e->ply + 1, nk_move_letter(e->played),
                opt, e->lost, result_name(e->best));
        if (e->got != e->best)
            fprintf(f, ">%s", result_name(e->got));
        fprintf(f, " position=%s\n", pos);
    }
}

static void print_band(const char *name, const nk_gg_band *b)
{
    printf("  %-8s %7llu %7llu %8.3f %8.3f\n", name, (unsigned long long)b->moves,
           (unsigned long long)b->errors,
           b->moves ? 1.0 - (double)b->errors / (double)b->moves : 0.0,
           b->moves ? b->lost / (double)b->moves : 0.0);
}

static void print_games(const nk_gg_settings *s, const char *graded, const char *opponent,
                        const nk_gg_report *r)
{
    const nk_grade *gr = &r->grade;
    const unsigned S = nk_pos_on_board(&r->start);
    char start[NK_POS_TEXT];
    nk_pos_format(&r->start, start);
    printf("games: %llu of %s against %s from %s (%u seed%s a pit), graded player South in "
           "odd games, North in even; %u random plies open each pair\n",
           (unsigned long long)r->games, graded, opponent, start, s->per_pit,
           s->per_pit == 1 ? "" : "s", s->openings);
    printf("results of the graded player: %llu wins, %llu draws, %llu losses\n",
           (unsigned long long)r->wins, (unsigned long long)r->draws,
           (unsigned long long)r->losses);
    printf("moves graded: %llu with a choice (%llu forced moves not graded; %llu rest on the "
           "repetition rule)\n",
           (unsigned long long)gr->positions, (unsigned long long)r->forced,
           (unsigned long long)r->cycle);
    double share[3], lost[3], per_game[3];
    nk_grade_summary(gr, share, lost);
    nk_grade_per_game(gr, r->games, per_game);
    print_estimate("optimal moves", share);
    print_estimate("seeds lost per move", lost);
    print_estimate("seeds lost per game", per_game);
    printf("intervals: over the %llu games (per move: cluster-robust; per game: t)\n",
           (unsigned long long)r->games);
    printf("errors: %zu%s\n", r->nerrors,
           s->tb->planes == 2 ? " (speightstown: moves that give up the best result the stores "
                                "allow)"
                              : "");
    printf("value thrown away: %llu moves (win to draw %llu, win to loss %llu, draw to loss "
           "%llu) in %llu games\n",
           (unsigned long long)(r->drops[NK_GG_WIN_DRAW] + r->drops[NK_GG_WIN_LOSS] +
                                r->drops[NK_GG_DRAW_LOSS]),
           (unsigned long long)r->drops[NK_GG_WIN_DRAW],
           (unsigned long long)r->drops[NK_GG_WIN_LOSS],
           (unsigned long long)r->drops[NK_GG_DRAW_LOSS], (unsigned long long)r->games_fell);
    printf("by phase (board seeds: opening more than %u, middle %u to %u, end %u or fewer):\n",
           2 * S / 3, S / 3 + 1, 2 * S / 3, S / 3);
    printf("  %-8s %7s %7s %8s %8s\n", "phase", "moves", "errors", "optimal", "lost");
    static const char *const phase[NK_GG_PHASES] = {"opening", "middle", "end"};
    for (int p = 0; p < NK_GG_PHASES; p++)
        print_band(phase[p], &r->phase[p]);
    printf("by seeds on the board:\n");
    printf("  %-8s %7s %7s %8s %8s\n", "seeds", "moves", "errors", "optimal", "lost");
    for (int b = (int)S; b >= 0; b--)
        if (r->seeds[b].moves > 0) {
            char name[16];
            snprintf(name, sizeof name, "%d", b);
            print_band(name, &r->seeds[b]);
        }
}

/* --errors: written to PATH.new, renamed onto PATH once complete. */
static int open_errors(const nk_cli *cli, const char *path, char *tmp, size_t len, FILE **out)
{
    *out = NULL;
    if (path == NULL)
        return NK_EXIT_OK;
    if (path[0] == '\0' || (size_t)snprintf(tmp, len, "%s.new", path) >= len) {
        nk_cli_error(cli, "--errors: bad file name");
        return NK_EXIT_USAGE;
    }
    *out = fopen(tmp, "w");
    if (*out == NULL) {
        nk_cli_error(cli, "--errors: cannot write '%s': %s", path, strerror(errno));
        return NK_EXIT_USAGE;
    }
    return NK_EXIT_OK;
}

static int grade_games(nk_cli *cli, nk_opt *opts, const nk_variant *v, const nk_tb *tb,
                       uint64_t seed)
{
    nk_gg_settings s = {.tb = tb, .seed = seed};
    uint64_t games = 0, openings = 0, threads = 0, per_pit = tb->seeds / NK_PITS;
    if (!nk_cli_number(cli, OPT_GAMES, &games) || !nk_cli_number(cli, OPT_OPENINGS, &openings) ||
        !nk_cli_number(cli, OPT_THREADS, &threads) ||
        (opts[OPT_PER_PIT].value && !nk_cli_uint(cli, OPT_PER_PIT, 1, 4, &per_pit)))
        return NK_EXIT_USAGE;
    s.games = games;
    s.openings = (unsigned)openings;
    s.threads = (int)threads;
    s.per_pit = per_pit > 0 ? (unsigned)per_pit : 1;
    char err[NK_MSG_MAX];
    nk_pos start;
    nk_status st = nk_gg_start(tb, s.per_pit, &start, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "--from-start: %s", err);
        return NK_EXIT_USAGE;
    }
    nk_player_def *def = nk_calloc(2, sizeof *def);
    if (def == NULL) {
        nk_cli_error(cli, "out of memory");
        return NK_EXIT_FAIL;
    }
    const char *opp_text = opts[OPT_OPPONENT].value ? opts[OPT_OPPONENT].value : "ab:depth=3";
    int rc = load_player(cli, "player", cli->argv[0], v, &def[0]);
    if (rc == NK_EXIT_OK)
        rc = load_player(cli, "opponent", opp_text, v, &def[1]);
    s.graded = (nk_exec_player){&def[0].spec, def[0].n ? def[0].weights : NULL, def[0].n};
    s.opponent = (nk_exec_player){&def[1].spec, def[1].n ? def[1].weights : NULL, def[1].n};
    char tmp[4200];
    FILE *ef = NULL;
    if (rc == NK_EXIT_OK)
        rc = open_errors(cli, opts[OPT_ERRORS].value, tmp, sizeof tmp, &ef);
    if (rc != NK_EXIT_OK) {
        nk_free(def);
        return rc;
    }
    nk_gg_report r;
    st = nk_gg_play(&s, &r, err, sizeof err);
    nk_free(def);
    if (st == NK_OK && ef != NULL) {
        write_errors(ef, v, &r);
        int bad = ferror(ef);
        bad |= fclose(ef) != 0;
        ef = NULL;
        if (bad || rename(tmp, opts[OPT_ERRORS].value) != 0)
            st = nk_fail(NK_EIO, err, sizeof err, "--errors: cannot write '%s': %s",
                         opts[OPT_ERRORS].value, strerror(errno));
    }
    if (st != NK_OK) {
        if (ef != NULL)
            fclose(ef);
        if (opts[OPT_ERRORS].value != NULL)
            unlink(tmp);
        nk_gg_report_free(&r);
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    print_games(&s, cli->argv[0], opp_text, &r);
    nk_gg_report_free(&r);
    return NK_EXIT_OK;
}

/* Options of one way of grading given with the other. */
static bool check_mode(const nk_cli *cli, const nk_opt *opts, bool from_start)
{
    static const int games_only[] = {OPT_GAMES,    OPT_OPPONENT, OPT_PER_PIT,
                                     OPT_OPENINGS, OPT_THREADS,  OPT_ERRORS};
    static const int positions_only[] = {OPT_POSITIONS, OPT_REFERENCE};
    const int *list = from_start ? positions_only : games_only;
    size_t n = from_start ? sizeof positions_only / sizeof *list : sizeof games_only / sizeof *list;
    for (size_t i = 0; i < n; i++)
        if (opts[list[i]].value != NULL) {
            nk_cli_error(cli, "--%s %s --from-start", opts[list[i]].name,
                         from_start ? "does not go with" : "needs");
            return false;
        }
    return true;
}

int nk_cmd_grade(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set; required", NULL},
        [OPT_TB] = {"tb", "DIR", "directory of the database (default: tablebases)", NULL},
        [OPT_POSITIONS] = {"positions", "N", "positions graded, 1 to 1000000 (default 1000)", NULL},
        [OPT_SEED] = NK_OPT_PLAY("seed", "S", seed, "seed of the random openings"),
        [OPT_REFERENCE] = {"reference", "SPEC",
                           "player of the games the positions come from (default "
                           "ab:depth=3)",
                           NULL},
        [OPT_FROM_START] = {"from-start", NULL,
                            "grade whole games from the start position with K seeds a pit "
                            "(--per-pit), which the database must cover",
                            NULL},
        [OPT_GAMES] = NK_OPT_GAMES("with --from-start: games to grade"),
        [OPT_OPPONENT] = {"opponent", "SPEC",
                          "with --from-start: the graded player's opponent (default ab:depth=3)",
                          NULL},
        [OPT_PER_PIT] = {"per-pit", "K",
                         "with --from-start: seeds a pit at the start, 1 to 4 (default: the "
                         "most the database covers)",
                         NULL},
        [OPT_OPENINGS] = NK_OPT_OPENINGS,
        [OPT_THREADS] = NK_OPT_THREADS,
        [OPT_ERRORS] = {"errors", "FILE",
                        "with --from-start: write each error of the graded player to FILE, one "
                        "line each, for nickar view",
                        NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "grade",
        .synopsis = "SPEC --variant V [--tb DIR] [--positions N] [--seed S] [--reference SPEC]\n"
                    "       SPEC --variant V [--tb DIR] --from-start [--games N] [--opponent SPEC]"
                    " [--per-pit K] [--openings K] [--seed S] [--threads T] [--errors FILE]",
        .about = "Grades a player against perfect play: on N positions inside the\n"
                 "database DIR/V.nktb, drawn from games of the reference player from\n"
                 "random openings, the share of its moves that are optimal and the mean\n"
                 "number of seeds it loses per move, each with a 95% interval over the\n"
                 "games (cluster-robust).  With --from-start, every move of the player\n"
                 "in N whole games against the opponent from the start position with K\n"
                 "seeds a pit, which the database covers: also the seeds lost per game,\n"
                 "the value thrown away and the errors by phase and by seeds.",
        .opts = opts,
        .max_args = 1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli.argc != 1) {
        nk_cli_error(&cli, "missing the player SPEC to grade");
        return NK_EXIT_USAGE;
    }
    const nk_variant *v = nk_cli_variant(&cli, opts[OPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    char err[NK_MSG_MAX];
    if (nk_tb_supported(v, err, sizeof err) != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return NK_EXIT_USAGE;
    }
    const bool from_start = opts[OPT_FROM_START].value != NULL;
    uint64_t seed = 0;
    if (!check_mode(&cli, opts, from_start) || !nk_cli_number(&cli, OPT_SEED, &seed))
        return NK_EXIT_USAGE;
    const char *dir = opts[OPT_TB].value ? opts[OPT_TB].value : "tablebases";
    char path[4096];
    nk_tb_path(dir, v, path, sizeof path);
    nk_tb tb;
    nk_status st = nk_tb_open(&tb, path, v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    rc = from_start ? grade_games(&cli, opts, v, &tb, seed)
                    : grade_positions(&cli, opts, v, &tb, seed);
    nk_tb_close(&tb);
    return rc == NK_EXIT_OK ? nk_cli_finish(&cli) : rc;
}
