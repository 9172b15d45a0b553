/*
 * cmd_replay.c -- `nickar replay`: plays a sequence of moves and shows each
 * position, as text for people or as one JSON object per ply.
 *
 * The moves are checked in a first, silent pass, so that bad input prints
 * its one-line message and nothing else; a second pass prints.  With
 * --random the game then goes on with uniformly random legal moves until it
 * ends; a seed makes that game the same on every run and machine.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/util.h"
#include "base/alloc.h"
#include "io/records.h"

enum { OPT_VARIANT, OPT_POSITION, OPT_JSON, OPT_RANDOM, OPT_SEED, OPT_GAME, OPT_END };

typedef struct replay {
    const nk_cli *cli;
    const nk_variant *variant;
    nk_pos start;
    bool json;
    bool random;
    uint64_t seed;
    const nk_record *rec; /* the game of a records file, or NULL */
    nk_record *out;       /* the game as a record, and its line: */
    char *line;           /* allocated before anything is printed */
} replay;

/* ===== output ===== */

static void print_start(const replay *r, const nk_game *g)
{
    char text[NK_POS_TEXT];
    if (r->json)
        return;
    nk_pos_format(&g->pos, text);
    printf("variant   %s: %s\nstart     %s\n\n", r->variant->name, r->variant->title, text);
    nk_cli_board(stdout, &g->pos);
}

static void print_ply(const replay *r, const nk_game *g, int mover, int move,
                      const nk_ply_info *info)
{
    char text[NK_POS_TEXT];
    nk_pos_format(&g->pos, text);
    if (r->json) {
        printf("{\"ply\":%u,\"move\":\"%c\",\"position\":", g->ply, nk_move_letter(move));
        nk_cli_json_string(stdout, text);
        printf(",\"captured\":%u}\n", info->captured);
        return;
    }
    printf("\nply %u: %s ", g->ply, nk_cli_side_name(mover));
    nk_cli_move_text(stdout, move, info);
    printf("\nposition  %s\n", text);
    nk_cli_board(stdout, &g->pos);
}

static void print_end(const replay *r, const nk_game *g)
{
    char line[256], text[NK_POS_TEXT];
    if (r->json) {
        putchar('{');
        nk_cli_json_result(stdout, &g->result, (long)g->ply);
        printf("}\n");
        return;
    }
    if (nk_game_over(g)) {
        nk_cli_result_text(&g->result, line, sizeof line);
        printf("\nGame over after %u %s: %s.\n", g->ply, g->ply == 1 ? "ply" : "plies", line);
    } else {
        nk_moves_format(nk_game_legal(g), line, sizeof line);
        printf("\nThe game goes on after %u %s: %s to move; legal moves: %s\n", g->ply,
               g->ply == 1 ? "ply" : "plies", nk_cli_side_name(g->pos.side), line);
    }
    nk_pos_format(&g->start, text);
    printf("record: %s", text);
    for (unsigned i = 0; i < g->ply; i++)
        printf(" %c", nk_move_letter(g->moves[i]));
    putchar('\n');
    /* The game as a line of a records file (io/records.h); the specs are
     * the record's or "-", which nk_record_set accepts. */
    char err[NK_MSG_MAX];
    if (nk_record_set(r->out, r->variant, g->ply_limit, &g->start, g->moves, g->ply, &g->result,
                      r->rec ? r->rec->player[NK_SOUTH] : "-",
                      r->rec ? r->rec->player[NK_NORTH] : "-", err, sizeof err) == NK_OK) {
        nk_record_format(r->out, r->line, NK_RECORD_LINE);
        printf("%s\n", r->line);
    }
}

/* ===== playing ===== */

/* Plays the move written tok (len characters), the n-th given; prints when
 * print is set.  False after a message when the move is bad. */
static bool play_token(const replay *r, nk_game *g, const char *tok, size_t len, unsigned n,
                       bool print)
{
    char q[96], word[16], line[256], text[NK_POS_TEXT], err[256];
    snprintf(word, sizeof word, "%.*s", (int)(len < 12 ? len : 12), tok);
    int move = len == 1 ? nk_move_parse(tok[0]) : NK_NO_MOVE;
    if (move == NK_NO_MOVE) {
        nk_cli_error(r->cli,
                     "bad move '%s%s' (move %u): a move is one letter,"
                     " a-f or A-F, or - for a pass",
                     nk_cli_quote(word, q, sizeof q), len > 12 ? "..." : "", n);
        return false;
    }
    int mover = g->pos.side;
    nk_pos before = g->pos;
    nk_ply_info info;
    nk_status s = nk_game_play(g, move, &info, err, sizeof err);
    if (s == NK_EOVER) {
        nk_cli_result_text(&g->result, line, sizeof line);
        nk_cli_error(r->cli,
                     "move %u '%c' comes after the end of the game: %s"
                     " after ply %u",
                     n, tok[0], line, g->ply);
        return false;
    }
    if (s != NK_OK) {
        nk_pos_format(&before, text);
        nk_moves_format(nk_game_legal(g), line, sizeof line);
        nk_cli_error(r->cli, "illegal move %u '%c' for %s in %s; legal moves: %s", n, tok[0],
                     nk_cli_side_name(mover), text, line);
        return false;
    }
    if (print)
        print_ply(r, g, mover, move, &info);
    return true;
}

/* Plays the whole game; prints when print is set. */
static bool run(const replay *r, bool print)
{
    char q[96];
    nk_game g;
    if (r->rec != NULL) {
        if (nk_game_init(&g, r->variant, &r->start, r->rec->ply_limit) != NK_OK)
            return false; /* nk_record_parse has checked it */
    } else if (!nk_cli_game(r->cli, &g, r->variant, &r->start)) {
        return false;
    }
    if (print)
        print_start(r, &g);
    unsigned n = 0;
    for (unsigned i = 0; r->rec != NULL && i < r->rec->plies; i++) {
        char tok = nk_move_letter(r->rec->moves[i]);
        if (!play_token(r, &g, &tok, 1, ++n, print))
            return false;
    }
    for (int i = 0; r->rec == NULL && i < r->cli->argc; i++) {
        const char *p = r->cli->argv[i];
        bool any = false;
        for (;;) {
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '\0')
                break;
            size_t len = 0;
            while (p[len] != '\0' && !isspace((unsigned char)p[len]))
                len++;
            if (!play_token(r, &g, p, len, ++n, print))
                return false;
            any = true;
            p += len;
        }
        if (!any) {
            nk_cli_error(r->cli, "bad move '%s' (argument %d): no move in it",
                         nk_cli_quote(r->cli->argv[i], q, sizeof q), i + 1);
            return false;
        }
    }
    if (r->random) {
        nk_rng rng = {r->seed};
        while (!nk_game_over(&g)) {
            int mover = g.pos.side;
            int move = nk_random_move(&g, &rng);
            nk_ply_info info;
            nk_game_play_legal(&g, move, &info);
            if (print)
                print_ply(r, &g, mover, move, &info);
        }
    }
    if (print)
        print_end(r, &g);
    return true;
}

/* True when text looks like moves ("c", "c D a"), not a file name. */
static bool moves_only(const char *text)
{
    bool any = false;
    for (const char *p = text; *p; p++) {
        if (isspace((unsigned char)*p))
            continue;
        if (nk_move_parse(*p) == NK_NO_MOVE || (p[1] != '\0' && !isspace((unsigned char)p[1])))
            return false;
        any = true;
    }
    return any;
}

/* Replays game K of the records file given as the one operand. */
static int replay_records(replay *r, nk_opt *opts)
{
    const nk_cli *cli = r->cli;
    char err[NK_MSG_MAX];
    uint64_t k = 1;
    if (opts[OPT_POSITION].value != NULL || opts[OPT_RANDOM].value != NULL ||
        opts[OPT_SEED].value != NULL) {
        nk_cli_error(cli, "a records file gives the start and the moves: no --position,"
                          " --random or --seed with it");
        return NK_EXIT_USAGE;
    }
    if (opts[OPT_GAME].value != NULL && !nk_cli_uint(cli, OPT_GAME, 1, UINT32_MAX, &k))
        return NK_EXIT_USAGE;
    nk_record *recs = NULL;
    size_t n = 0;
    nk_status st = nk_records_read(cli->argv[0], &recs, &n, err, sizeof err);
    int rc = NK_EXIT_OK;
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        rc = nk_cli_exit(st);
    } else if (k > n) {
        nk_cli_error(cli, "--game %llu: '%s' holds %zu game%s", (unsigned long long)k, cli->argv[0],
                     n, n == 1 ? "" : "s");
        rc = NK_EXIT_USAGE;
    } else {
        r->rec = &recs[k - 1];
        r->variant = r->rec->variant;
        r->start = r->rec->start;
        if (run(r, false) && run(r, true))
            rc = nk_cli_finish(cli);
        else
            rc = NK_EXIT_USAGE;
    }
    nk_free(recs);
    return rc;
}

static int replay_main(replay *rp, nk_opt *opts);

int nk_cmd_replay(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_POSITION] = {"position", "P",
                          "start position as in docs/rules.md R-B3 (default: the start)", NULL},
        [OPT_JSON] = {"json", NULL,
                      "print one JSON object per ply, {\"ply\",\"move\",\"position\","
                      "\"captured\"}, then {\"result\",\"south\",\"north\",\"plies\","
                      "\"reason\"}",
                      NULL},
        [OPT_RANDOM] = {"random", NULL, "after the moves given, play random legal moves to the end",
                        NULL},
        [OPT_SEED] = NK_OPT_PLAY("seed", "S", seed, "seed of --random's moves"),
        [OPT_GAME] = {"game", "K", "with a records file: the K-th game of the file (default 1)",
                      NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "replay",
        .synopsis = "--variant V [--position P] [--json] [--random [--seed S]] [MOVE...]\n"
                    "       [--json] [--game K] RECORDS",
        .about = "Plays the moves, one letter each (a-f South's pits, A-F North's,\n"
                 "- a pass), from the start or from P, and shows every position; the\n"
                 "moves may also come as one argument, separated by spaces.  Then\n"
                 "the result, or whose turn it is if the game goes on, and the\n"
                 "game's record, also as a line of a records file.  Without\n"
                 "--variant the one argument is a records file (nickar match\n"
                 "--records, docs/cli.md) and its K-th game is replayed; RUN.h5@game=K\n"
                 "or RUN.h5@gen=G,game=J plays a fitness game of a run file again.",
        .opts = opts,
        .max_args = -1,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    replay r = {
        .cli = &cli,
        .json = opts[OPT_JSON].value != NULL,
        .random = opts[OPT_RANDOM].value != NULL,
    };
    /* The game's line is written into these (print_end). */
    r.out = nk_malloc(sizeof *r.out);
    r.line = nk_malloc(NK_RECORD_LINE);
    if (r.out == NULL || r.line == NULL) {
        nk_free(r.out);
        nk_free(r.line);
        nk_cli_error(&cli, "out of memory");
        return NK_EXIT_FAIL;
    }
    rc = replay_main(&r, opts);
    nk_free(r.out);
    nk_free(r.line);
    return rc;
}

static int replay_main(replay *rp, nk_opt *opts)
{
    replay r = *rp;
    const nk_cli *cli = r.cli;
    /* One operand without --variant is a records file, unless it is a
     * move and no such file exists (then --variant is what is missing). */
    if (opts[OPT_VARIANT].value == NULL && cli->argc == 1 &&
        !(moves_only(cli->argv[0]) && access(cli->argv[0], F_OK) != 0))
        return replay_records(&r, opts);
    if (opts[OPT_GAME].value != NULL) {
        nk_cli_error(cli, "option '--game' needs a records file instead of --variant");
        return NK_EXIT_USAGE;
    }
    r.variant = nk_cli_variant(cli, opts[OPT_VARIANT].value);
    if (r.variant == NULL || !nk_cli_position(cli, opts[OPT_POSITION].value, &r.start))
        return NK_EXIT_USAGE;
    if (opts[OPT_SEED].value != NULL && !r.random) {
        nk_cli_error(cli, "option '--seed' needs --random");
        return NK_EXIT_USAGE;
    }
    if (!nk_cli_number(cli, OPT_SEED, &r.seed))
        return NK_EXIT_USAGE;
    if (!run(&r, false))
        return NK_EXIT_USAGE;
    run(&r, true);
    return nk_cli_finish(cli);
}
