/*
 * cmd_play.c -- `nickar play`: a person plays against a player in the
 * terminal.
 *
 * The session keeps the game (nk_game, whose record is the moves played
 * since the start) and, per ply, who moved and whether the move was forced
 * (a pass the person had to make).  Undo does not unplay: it starts the game
 * again from the start position and replays all the plies before the
 * person's last chosen move, so the rules' history (repetition) stays exact.
 *
 * The person's input is read line by line (it may be piped: every line read
 * is then echoed after the prompt, so a transcript reads like a session);
 * end of input is `quit`.  Everything goes to stdout except the one-line
 * messages about bad options, which go to stderr before the game starts.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/alloc.h"
#include "cli/util.h"
#include "io/playerio.h"
#include "io/records.h"
#include "run/settings.h"
#include "search/features.h"

enum {
    OPT_VARIANT,
    OPT_OPPONENT,
    OPT_AS,
    OPT_RECORD,
    OPT_POSITION,
    OPT_SEED,
    OPT_UNIT,
    OPT_MATCH_GAMES,
    OPT_END
};

/* --match-games: the default and the most (as for nickar match). */

/* The player that answers `hint`. */
static const char HINT_SPEC[] = "ab:depth=6";

typedef struct session {
    const nk_cli *cli;
    const nk_variant *variant;
    nk_pos start;
    int person; /* NK_SOUTH or NK_NORTH */
    nk_player *opponent;
    nk_player *hint;         /* made on the first `hint` */
    nk_rng rng;              /* the opponent's */
    const char *record_path; /* NULL: no file */
    bool echo;               /* stdin is not a terminal: echo what is read */
    bool quit;
    bool match; /* --unit match */
    uint64_t match_games;
    char **lines; /* the record lines of the games played */
    size_t nlines;
    nk_game *game;
    uint8_t mover[NK_MAX_PLIES];
    bool forced[NK_MAX_PLIES];
} session;

/* ===== output ===== */

static const char *who(const session *s, int side)
{
    return side == s->person ? "you" : nk_player_spec(s->opponent)->text;
}

static void show_turn(const session *s)
{
    const nk_game *g = s->game;
    char line[128];
    putchar('\n');
    nk_cli_board(stdout, &g->pos);
    if (nk_game_over(g))
        return;
    nk_moves_format(nk_game_legal(g), line, sizeof line);
    printf("%s (%s) to move; legal moves: %s\n", nk_cli_side_name(g->pos.side), who(s, g->pos.side),
           line);
}

/* What a search says about its choice, for people: an evaluation, or a
 * game it has seen to the end (scores of NK_SCORE_SEED per seed). */
static void think_text(const nk_think *t, int side, char *buf, size_t len)
{
    if (t->depth == 0 && t->nodes == 0) {
        buf[0] = '\0';
        return;
    }
    char what[64];
    if (fabs(t->score) > NK_SCORE_EVAL_MAX) {
        double seeds = fabs(t->score) / NK_SCORE_SEED;
        snprintf(what, sizeof what, "sees %s %s by %.0f seed%s",
                 t->score > 0 ? "a win for" : "a loss for", nk_cli_side_name(side), seeds,
                 seeds == 1 ? "" : "s");
    } else {
        snprintf(what, sizeof what, "evaluation %+.2f for %s", t->score, nk_cli_side_name(side));
    }
    snprintf(buf, len, " (%s; depth %u, %llu nodes)", what, t->depth, (unsigned long long)t->nodes);
}

static void print_ply(const session *s, int mover, int move, const nk_ply_info *info,
                      const char *extra)
{
    const nk_game *g = s->game;
    printf("\n%s (%s) ", nk_cli_side_name(mover), who(s, mover));
    nk_cli_move_text(stdout, move, info);
    printf("%s.\n", extra);
    if (!nk_game_over(g) && g->pos.side == mover)
        printf("%s plays again.\n", nk_cli_side_name(mover));
}

static void print_record(FILE *out, const nk_game *g)
{
    char text[NK_POS_TEXT];
    nk_pos_format(&g->start, text);
    fputs(text, out);
    for (unsigned i = 0; i < g->ply; i++)
        fprintf(out, " %c", nk_move_letter(g->moves[i]));
    fputc('\n', out);
}

/* The result in a sentence, or why the game stopped early. */
static void outcome_text(const session *s, char *buf, size_t len)
{
    const nk_game *g = s->game;
    char line[128];
    if (!nk_game_over(g)) {
        snprintf(buf, len, "stopped after %u plies: you quit", g->ply);
        return;
    }
    nk_cli_result_text(&g->result, line, sizeof line);
    const char *verdict = g->result.winner == NK_DRAW     ? "a draw"
                          : g->result.winner == s->person ? "you win"
                                                          : "you lose";
    snprintf(buf, len, "%s after %u plies: %s", line, g->ply, verdict);
}

/* Keeps the game as one line of a records file (io/records.h; the person
 * is "human") for finish(). */
static int keep_record(session *s)
{
    const nk_game *g = s->game;
    const char *spec = nk_player_spec(s->opponent)->text;
    char err[NK_MSG_MAX];
    nk_record *rec = nk_malloc(sizeof *rec);
    char *line = nk_malloc(NK_RECORD_LINE);
    nk_status st = rec == NULL || line == NULL
                       ? nk_fail(NK_ENOMEM, err, sizeof err, "out of memory")
                       : nk_record_set(rec, g->variant, g->ply_limit, &g->start, g->moves, g->ply,
                                       &g->result, s->person == NK_SOUTH ? "human" : spec,
                                       s->person == NK_NORTH ? "human" : spec, err, sizeof err);
    if (st == NK_OK)
        nk_record_format(rec, line, NK_RECORD_LINE);
    nk_free(rec);
    char **grown = st == NK_OK ? nk_realloc(s->lines, (s->nlines + 1) * sizeof *s->lines) : NULL;
    if (st == NK_OK && grown == NULL)
        st = nk_fail(NK_ENOMEM, err, sizeof err, "out of memory");
    if (st != NK_OK) {
        nk_free(line);
        nk_cli_error(s->cli, "cannot write the record: %s", err);
        return nk_cli_exit(st);
    }
    s->lines = grown;
    s->lines[s->nlines++] = line;
    return NK_EXIT_OK;
}

/* Prints the game's result and record and keeps the record.  Returns the
 * exit status. */
static int game_done(session *s)
{
    char text[192];
    outcome_text(s, text, sizeof text);
    printf("\n%s %s.\nrecord: ", nk_game_over(s->game) ? "Game over:" : "Game", text);
    print_record(stdout, s->game);
    return s->record_path == NULL ? NK_EXIT_OK : keep_record(s);
}

/* Saves the records kept, one line a game.  Returns the exit status. */
static int finish(const session *s)
{
    if (s->record_path == NULL)
        return NK_EXIT_OK;
    FILE *f = fopen(s->record_path, "w");
    if (f == NULL) {
        nk_cli_error(s->cli, "cannot write the record to '%s': %s", s->record_path,
                     strerror(errno));
        return NK_EXIT_FAIL;
    }
    for (size_t i = 0; i < s->nlines; i++)
        fprintf(f, "%s\n", s->lines[i]);
    if (fclose(f) != 0) {
        nk_cli_error(s->cli, "cannot write the record to '%s': %s", s->record_path,
                     strerror(errno));
        return NK_EXIT_FAIL;
    }
    printf("%s saved to %s\n", s->nlines == 1 ? "record" : "records", s->record_path);
    return NK_EXIT_OK;
}

/* ===== playing ===== */

/* Plays a legal move, remembering who made it. */
static void play_move(session *s, int move, bool forced, const char *extra)
{
    nk_game *g = s->game;
    int mover = g->pos.side;
    unsigned ply = g->ply;
    nk_ply_info info;
    nk_game_play_legal(g, move, &info);
    s->mover[ply] = (uint8_t)mover;
    s->forced[ply] = forced;
    print_ply(s, mover, move, &info, extra);
    show_turn(s);
}

static void opponent_moves(session *s)
{
    nk_think think = {.move = NK_NO_MOVE, .score = 0, .depth = 0, .nodes = 0};
    int side = s->game->pos.side;
    int move = nk_player_move(s->opponent, s->game, &s->rng, &think);
    if (move == NK_NO_MOVE && nk_end_forfeit(nk_player_fault(s->opponent))) {
        /* an engine from outside failed (its line is on stderr): it loses */
        nk_game_forfeit(s->game, nk_player_fault(s->opponent));
        printf("\n%s (%s) forfeits the game (%s).\n", nk_cli_side_name(side), who(s, side),
               nk_end_name(s->game->result.reason));
        return;
    }
    char extra[160];
    think_text(&think, side, extra, sizeof extra);
    play_move(s, move, false, extra);
}

/* Restarts the game and replays its first n plies. */
static void rewind_to(session *s, unsigned n)
{
    nk_game *g = s->game;
    uint8_t moves[NK_MAX_PLIES];
    memcpy(moves, g->moves, n);
    nk_game_init(g, s->variant, &s->start, g->ply_limit);
    for (unsigned i = 0; i < n; i++)
        nk_game_play_legal(g, moves[i], NULL);
}

/* Takes back the person's last chosen move and everything after it (the
 * opponent's replies, the person's forced passes). */
static void undo(session *s)
{
    unsigned ply = s->game->ply;
    while (ply > 0 && (s->mover[ply - 1] != s->person || s->forced[ply - 1]))
        ply--;
    if (ply == 0) {
        printf("Nothing to undo: you have not moved yet.\n");
        return;
    }
    unsigned taken = s->game->ply - (ply - 1);
    rewind_to(s, ply - 1);
    printf("Took back %u %s.\n", taken, taken == 1 ? "ply" : "plies");
    show_turn(s);
}

static void hint(session *s)
{
    char err[NK_MSG_MAX], extra[160];
    if (s->hint == NULL) {
        nk_spec spec;
        nk_status st = nk_spec_parse(&spec, HINT_SPEC, err, sizeof err);
        if (st == NK_OK)
            st = nk_player_new(&s->hint, &spec, s->variant, NULL, 0, err, sizeof err);
        if (st != NK_OK) {
            printf("No hint: %s\n", err);
            return;
        }
    }
    nk_think think = {.move = NK_NO_MOVE, .score = 0, .depth = 0, .nodes = 0};
    nk_rng rng = {0};
    int move = nk_player_move(s->hint, s->game, &rng, &think);
    think_text(&think, s->game->pos.side, extra, sizeof extra);
    printf("hint: %s would play %c%s.\n", HINT_SPEC, nk_move_letter(move), extra);
}

static void help(void)
{
    printf("Type a move or a command:\n"
           "  a-f, A-F  sow that pit (a-f: South's row, A-F: North's; your legal moves\n"
           "            are listed above the prompt)\n"
           "  -         pass (only when you have no move; it is also made for you)\n"
           "  hint      what %s would play here\n"
           "  undo      take back your last move and the opponent's reply\n"
           "  board     draw the board again\n"
           "  help      this list\n"
           "  quit      stop the game (end of input does too)\n",
           HINT_SPEC);
}

/* Reads one line into *buf; false at the end of input.  The line is trimmed
 * of surrounding blanks. */
static bool read_line(session *s, char **buf, size_t *cap, char **line)
{
    printf("%s> ", nk_cli_side_name(s->person));
    fflush(stdout);
    if (getline(buf, cap, stdin) == -1) {
        printf("%s(end of input)\n", s->echo ? "" : "\n");
        return false;
    }
    char *p = *buf;
    while (isspace((unsigned char)*p))
        p++;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1]))
        p[--len] = '\0';
    if (s->echo)
        printf("%s\n", p);
    *line = p;
    return true;
}

/* Answers one line of the person's input. */
static void answer(session *s, const char *line)
{
    char q[96], list[64];
    unsigned legal = nk_game_legal(s->game);
    if (*line == '\0')
        return;
    if (strcasecmp(line, "quit") == 0 || strcasecmp(line, "q") == 0 ||
        strcasecmp(line, "exit") == 0) {
        s->quit = true;
    } else if (strcasecmp(line, "help") == 0 || strcmp(line, "?") == 0) {
        help();
    } else if (strcasecmp(line, "hint") == 0) {
        hint(s);
    } else if (strcasecmp(line, "undo") == 0) {
        undo(s);
    } else if (strcasecmp(line, "board") == 0) {
        show_turn(s);
    } else {
        int move = strlen(line) == 1 ? nk_move_parse(line[0]) : NK_NO_MOVE;
        if (move != NK_NO_MOVE && ((legal >> move) & 1u)) {
            play_move(s, move, false, "");
            return;
        }
        nk_moves_format(legal, list, sizeof list);
        printf("'%s' is not %s; your legal moves: %s (type help for the commands)\n",
               nk_cli_quote(line, q, sizeof q),
               move == NK_NO_MOVE ? "a move or a command" : "a legal move here", list);
    }
}

static void run(session *s)
{
    char *buf = NULL, *line;
    size_t cap = 0;
    nk_game *g = s->game;
    show_turn(s);
    while (!nk_game_over(g) && !s->quit) {
        if (g->pos.side != s->person) {
            opponent_moves(s);
        } else if (nk_game_legal(g) == (1u << NK_PASS)) {
            printf("You have no move: you pass.\n");
            play_move(s, NK_PASS, true, "");
        } else if (read_line(s, &buf, &cap, &line)) {
            answer(s, line);
        } else {
            s->quit = true;
        }
    }
    nk_free(buf);
}

/* ===== a match (R-W13, R-K8..R-K10) ===== */

/* Plays a whole match: the person is player 0 (South) or 1 (North) for the
 * whole match, the first player alternates, and each game starts from the
 * position the match rules give (Adji Kui II: the pits bought in the game
 * before).  Stops when the match is over or the person quits. */
static int play_match(session *s)
{
    nk_match m;
    unsigned limit = (unsigned)s->match_games;
    nk_match_init(&m, s->variant, 0, limit);
    const char *opp = nk_player_spec(s->opponent)->text;
    int me = s->person, them = !s->person; /* player index = side */
    while (!nk_match_over(&m)) {
        nk_match_next(&m, &s->start);
        nk_game_init(s->game, s->variant, &s->start, s->game->ply_limit);
        printf("\n=== Game %u of the match (at most %u): %s (%s) moves first", m.games + 1, limit,
               nk_cli_side_name(s->start.side), who(s, s->start.side));
        if (s->variant->sowing == NK_SOW_RELAY) {
            unsigned north = (unsigned)__builtin_popcount(s->start.north);
            printf("; South owns %u pits, North %u", NK_PITS - north, north);
        }
        printf(" ===\n");
        run(s);
        int rc = game_done(s);
        if (rc != NK_EXIT_OK)
            return rc;
        if (!nk_game_over(s->game))
            break; /* the person quit */
        nk_match_record(&m, &s->game->result);
        printf("Match: you %u won, %s %u won, %u drawn.\n", m.wins[me], opp, m.wins[them], m.draws);
    }
    if (!nk_match_over(&m)) {
        printf("\nMatch stopped after %u finished games: you quit.\n", m.games);
        return NK_EXIT_OK;
    }
    const char *verdict = m.winner == NK_DRAW ? "a draw" : m.winner == me ? "you win" : "you lose";
    printf("\nMatch over after %u games: %s", m.games, verdict);
    if (s->variant->sowing == NK_SOW_RELAY) {
        unsigned north = (unsigned)__builtin_popcount(m.north);
        printf(" (pits for a next game: South %u, North %u)", NK_PITS - north, north);
    } else {
        printf(" (won games: you %u, %s %u)", m.wins[me], opp, m.wins[them]);
    }
    printf(".\n");
    return NK_EXIT_OK;
}

/* ===== options ===== */

static bool read_side(const nk_cli *cli, const char *text, int *side)
{
    char q[96];
    if (text == NULL)
        *side = NK_SOUTH;
    else if (strcasecmp(text, "S") == 0 || strcasecmp(text, "south") == 0)
        *side = NK_SOUTH;
    else if (strcasecmp(text, "N") == 0 || strcasecmp(text, "north") == 0)
        *side = NK_NORTH;
    else {
        nk_cli_error(cli, "bad value '%s' for --as: expected S or N",
                     nk_cli_quote(text, q, sizeof q));
        return false;
    }
    return true;
}

static int make_opponent(session *s, const char *text)
{
    char err[NK_MSG_MAX];
    nk_player_def def;
    if (text == NULL) {
        nk_cli_error(s->cli, "missing --opponent SPEC (e.g. random, greedy, ab:depth=4)");
        return NK_EXIT_USAGE;
    }
    nk_status st = nk_playerio_load(&def, text, s->variant, err, sizeof err);
    if (st == NK_OK && def.spec.kind == NK_PLAYER_HUMAN)
        st = nk_fail(NK_EINVAL, err, sizeof err,
                     "the opponent cannot be 'human' (give random, greedy or ab:...)");
    if (st == NK_OK)
        st = nk_playerio_new(&s->opponent, &def, s->variant, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(s->cli, "opponent: %s", err);
        return nk_cli_exit(st);
    }
    return NK_EXIT_OK;
}

static int setup(session *s, nk_opt *opts)
{
    const nk_cli *cli = s->cli;
    uint64_t seed = 0;
    const char *unit = NULL;
    s->variant = nk_cli_variant(cli, opts[OPT_VARIANT].value);
    if (s->variant == NULL || !read_side(cli, opts[OPT_AS].value, &s->person) ||
        !nk_cli_position(cli, opts[OPT_POSITION].value, &s->start) ||
        !nk_cli_number(cli, OPT_SEED, &seed) || !nk_cli_choice(cli, OPT_UNIT, &unit))
        return NK_EXIT_USAGE;
    s->rng.s = seed;
    s->record_path = opts[OPT_RECORD].value;
    if (s->record_path != NULL && s->record_path[0] == '\0') {
        nk_cli_error(cli, "option '--record' needs a file name");
        return NK_EXIT_USAGE;
    }
    s->match = nk_run_unit_of(unit, s->variant) == NK_UNIT_MATCH;
    if (opts[OPT_MATCH_GAMES].value != NULL && !s->match) {
        nk_cli_error(cli, "--match-games needs --unit match");
        return NK_EXIT_USAGE;
    }
    if (!nk_cli_number(cli, OPT_MATCH_GAMES, &s->match_games))
        return NK_EXIT_USAGE;
    if (s->match && opts[OPT_POSITION].value != NULL) {
        nk_cli_error(cli, "--position cannot be used with --unit match: a match's games start "
                          "from the start position and the owners the match gives");
        return NK_EXIT_USAGE;
    }
    s->echo = !isatty(STDIN_FILENO);
    if (!nk_cli_game(cli, s->game, s->variant, &s->start))
        return NK_EXIT_USAGE;
    return make_opponent(s, opts[OPT_OPPONENT].value);
}

int nk_cmd_play(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_OPPONENT] = {"opponent", "SPEC",
                          "the player you play against: random, greedy, ab:depth=4, ...;"
                          " required",
                          NULL},
        [OPT_AS] = {"as", "S|N", "the side you play (default S, South)", NULL},
        [OPT_RECORD] = {"record", "FILE",
                        "also save the game to FILE as a line of a records file"
                        " (docs/cli.md, \"Game records\")",
                        NULL},
        [OPT_POSITION] = {"position", "P",
                          "start position as in docs/rules.md R-B3 (default: the start)", NULL},
        [OPT_SEED] = NK_OPT_PLAY("seed", "S", seed, "seed of the opponent's random choices"),
        [OPT_UNIT] = NK_OPT_PLAY("unit", "game|match|auto", unit,
                                 "play one game or a whole match: Warri to six won games, Adji "
                                 "Kui II with the pits bought in each game; auto: a match for "
                                 "adjikui, a game otherwise"),
        [OPT_MATCH_GAMES] = NK_OPT_PLAY("match-games", "L", match_games,
                                        "with --unit match: the most games of the match"),
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "play",
        .synopsis = "--variant V --opponent SPEC [--as S|N] [--record FILE]\n"
                    "       [--position P] [--seed S] [--unit game|match|auto] [--match-games L]",
        .about = "You play against a player in the terminal.  The board is drawn after\n"
                 "every move: North's row on top read right to left (F..A), South's\n"
                 "row below (a..f), the stores at the ends.  Type a pit's letter to\n"
                 "sow it, or hint, undo, board, help, quit.  A pass with no other\n"
                 "move is made for you.  At the end the result and the game's record\n"
                 "(start position and moves, docs/rules.md R-B4) are printed.  Input may be\n"
                 "piped; its end stops the game as quit does.",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    session *s = nk_calloc(1, sizeof *s);
    nk_game *game = nk_malloc(sizeof *game);
    if (s == NULL || game == NULL) {
        nk_cli_error(&cli, "out of memory");
        nk_free(s);
        nk_free(game);
        return NK_EXIT_FAIL;
    }
    s->cli = &cli;
    s->game = game;
    rc = setup(s, opts);
    if (rc == NK_EXIT_OK) {
        printf("variant %s: %s\nYou are %s; %s is %s.  Type help for the commands.\n",
               s->variant->name, s->variant->title, nk_cli_side_name(s->person),
               nk_player_spec(s->opponent)->text, nk_cli_side_name(!s->person));
        if (s->match) {
            rc = play_match(s);
        } else {
            run(s);
            rc = game_done(s);
        }
        if (rc == NK_EXIT_OK)
            rc = finish(s);
        if (rc == NK_EXIT_OK)
            rc = nk_cli_finish(&cli);
    }
    for (size_t i = 0; i < s->nlines; i++)
        nk_free(s->lines[i]);
    nk_free(s->lines);
    nk_player_free(s->opponent);
    nk_player_free(s->hint);
    nk_free(game);
    nk_free(s);
    return rc;
}
