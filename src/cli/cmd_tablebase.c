/*
 * cmd_tablebase.c -- `nickar tablebase build`: builds the endgame database
 * of a variant to N board seeds and writes DIR/VARIANT.nktb
 * (docs/tablebase.md); `nickar tablebase info FILE`: what a database file
 * holds; `nickar tablebase bounds`: the bounds whatever the repetition rule
 * of every position of a database, written to DIR/VARIANT.nkbd; `nickar
 * solve`: the exact value and the optimal moves of a position inside a
 * database.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "search/solve.h"
#include "tb/tb.h"

enum { OPT_VARIANT, OPT_SEEDS, OPT_PATTERNS, OPT_OUTPUT, OPT_THREADS, OPT_MEMORY, OPT_TB, OPT_END };

/* `nickar tablebase info FILE`: what a database file holds, read and
 * checked as every reader checks it (nk_tb_open). */
static int tablebase_info(nk_cli *cli, const nk_opt *opts)
{
    for (int o = 0; o < OPT_END; o++)
        if (opts[o].value != NULL) {
            nk_cli_error(cli, "info takes no option, got --%s", opts[o].name);
            return NK_EXIT_USAGE;
        }
    if (cli->argc != 2) {
        nk_cli_error(cli, "info needs the database FILE");
        return NK_EXIT_USAGE;
    }
    const char *path = cli->argv[1];
    nk_tb tb;
    char err[NK_MSG_MAX], list[40];
    nk_status st = nk_tb_open(&tb, path, NULL, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    nk_tb_patterns_text(&tb, list, sizeof list);
    int bits = 0;
    for (uint32_t all = nk_tb_patterns_all(tb.variant); all; all &= all - 1)
        bits++;
    printf("file: %s\nvariant: %s\nseeds: 0 to %u\npatterns: %s (%u of the variant's %d)\n"
           "planes: %u\npositions: %llu\nchecksum: %016llx\n",
           path, tb.variant->name, tb.seeds, list, tb.npat, bits, tb.planes,
           (unsigned long long)tb.offset[tb.seeds + 1], (unsigned long long)tb.checksum);
    nk_tb_close(&tb);
    return nk_cli_finish(cli);
}

/* The settings of `nickar tablebase build`. */
typedef struct build_opts {
    const nk_variant *v;
    uint32_t patterns;
    uint64_t seeds, threads, mib;
    const char *dir;
} build_opts;

/* Reads build's arguments and options; makes the output directory.  Exit
 * code. */
static int build_options(nk_cli *cli, const nk_opt *opts, build_opts *b)
{
    char word[64], err[NK_MSG_MAX];
    if (cli->argc == 0 || strcmp(cli->argv[0], "build") != 0) {
        nk_cli_error(cli, "expected the action 'build', 'bounds' or 'info', got '%s'",
                     cli->argc ? nk_cli_quote(cli->argv[0], word, sizeof word) : "nothing");
        return NK_EXIT_USAGE;
    }
    if (opts[OPT_TB].value != NULL) {
        nk_cli_error(cli, "build writes to --output DIR; --tb is bounds' option");
        return NK_EXIT_USAGE;
    }
    if (cli->argc != 1) {
        nk_cli_error(cli, "unexpected argument '%s' after build",
                     nk_cli_quote(cli->argv[1], word, sizeof word));
        return NK_EXIT_USAGE;
    }
    const nk_variant *v = b->v = nk_cli_variant(cli, opts[OPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    if (nk_tb_supported(v, err, sizeof err) != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return NK_EXIT_USAGE;
    }
    if (opts[OPT_SEEDS].value == NULL) {
        nk_cli_error(cli, "missing --seeds N");
        return NK_EXIT_USAGE;
    }
    b->patterns = nk_tb_patterns_all(v);
    if (opts[OPT_PATTERNS].value &&
        nk_tb_patterns_parse(v, opts[OPT_PATTERNS].value, &b->patterns, err, sizeof err) != NK_OK) {
        nk_cli_error(cli, "--patterns: %s", err);
        return NK_EXIT_USAGE;
    }
    b->threads = b->mib = 0;
    if (!nk_cli_uint(cli, OPT_SEEDS, 0, NK_TB_MAX_SEEDS, &b->seeds) ||
        (opts[OPT_THREADS].value && !nk_cli_uint(cli, OPT_THREADS, 1, 1024, &b->threads)) ||
        (opts[OPT_MEMORY].value && !nk_cli_uint(cli, OPT_MEMORY, 1, UINT64_C(1) << 30, &b->mib)))
        return NK_EXIT_USAGE;
    b->dir = opts[OPT_OUTPUT].value ? opts[OPT_OUTPUT].value : "tablebases";
    struct stat sb;
    char q[256];
    if (stat(b->dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        nk_cli_error(cli, "--output '%s' is not a directory", nk_cli_quote(b->dir, q, sizeof q));
        return NK_EXIT_USAGE;
    }
    if (stat(b->dir, &sb) != 0 && mkdir(b->dir, 0777) != 0) {
        nk_cli_error(cli, "cannot create the directory '%s'", nk_cli_quote(b->dir, q, sizeof q));
        return NK_EXIT_FAIL;
    }
    return NK_EXIT_OK;
}

/* `nickar tablebase build`: builds the database, writes it and says what
 * it holds and how long it took. */
static int tablebase_build(nk_cli *cli, const nk_opt *opts)
{
    build_opts b;
    int rc = build_options(cli, opts, &b);
    if (rc != NK_EXIT_OK)
        return rc;
    const nk_variant *v = b.v;
    char err[NK_MSG_MAX];
    nk_tb tb;
    nk_tb_stats stats;
    nk_status st = nk_tb_build_patterns(&tb, v, (unsigned)b.seeds, b.patterns, (int)b.threads,
                                        b.mib << 20, &stats, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    char path[4096], list[40], pats[64] = "";
    nk_tb_path(b.dir, v, path, sizeof path);
    if (nk_tb_patterns_all(v) != 1) { /* adjikui: which patterns */
        nk_tb_patterns_text(&tb, list, sizeof list);
        snprintf(pats, sizeof pats, " (patterns %s)", list);
    }
    st = nk_tb_write(&tb, path, err, sizeof err);
    nk_tb_close(&tb);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    printf("%s: %s to %u seeds%s, %llu positions (%llu resting on repetition), "
           "%u counts by retrograde analysis, %llu sweeps, %.2f s, %.3g positions/s",
           path, v->name, (unsigned)b.seeds, pats, (unsigned long long)stats.positions,
           (unsigned long long)stats.cycle, stats.retro, (unsigned long long)stats.sweeps,
           stats.seconds, stats.seconds > 0 ? (double)stats.positions / stats.seconds : 0.0);
    if (stats.computed > 0)
        printf(", children computed again in %u counts", stats.computed);
    printf("\n");
    return nk_cli_finish(cli);
}

/* `nickar tablebase bounds`: the bounds whatever the repetition rule of
 * every position of DIR/V.nktb (nk_tb_whole_build), written to DIR/V.nkbd
 * (through a temporary file and a rename: an existing file is replaced
 * only by a complete one). */
static int tablebase_bounds(nk_cli *cli, const nk_opt *opts)
{
    char word[64], err[NK_MSG_MAX];
    if (cli->argc != 1) {
        nk_cli_error(cli, "unexpected argument '%s' after bounds",
                     nk_cli_quote(cli->argv[1], word, sizeof word));
        return NK_EXIT_USAGE;
    }
    const int takes_none[] = {OPT_SEEDS, OPT_PATTERNS, OPT_OUTPUT};
    for (size_t k = 0; k < sizeof takes_none / sizeof takes_none[0]; k++)
        if (opts[takes_none[k]].value != NULL) {
            nk_cli_error(cli, "bounds takes the database's seeds and patterns and writes "
                         "beside it (--tb DIR), got --%s", opts[takes_none[k]].name);
            return NK_EXIT_USAGE;
        }
    const nk_variant *v = nk_cli_variant(cli, opts[OPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    uint64_t threads = 0, mib = 0;
    if ((opts[OPT_THREADS].value && !nk_cli_uint(cli, OPT_THREADS, 1, 1024, &threads)) ||
        (opts[OPT_MEMORY].value && !nk_cli_uint(cli, OPT_MEMORY, 1, UINT64_C(1) << 30, &mib)))
        return NK_EXIT_USAGE;
    const char *dir = opts[OPT_TB].value ? opts[OPT_TB].value : "tablebases";
    char path[4096], out[4096];
    nk_tb_path(dir, v, path, sizeof path);
    nk_tb_whole_path(dir, v, out, sizeof out);
    nk_tb tb;
    nk_status st = nk_tb_open(&tb, path, v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    nk_tb_whole w;
    nk_tb_stats s;
    st = nk_tb_whole_build(&w, &tb, (int)threads, mib << 20, &s, err, sizeof err);
    if (st == NK_OK) {
        st = nk_tb_whole_write(&w, out, err, sizeof err);
        nk_tb_whole_close(&w);
    }
    nk_tb_close(&tb);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    printf("%s: the bounds whatever the repetition rule of %s, %llu positions (%llu with "
           "lo < hi), %u counts by retrograde analysis, %llu sweeps, %.2f s",
           out, path, (unsigned long long)s.positions, (unsigned long long)s.cycle, s.retro,
           (unsigned long long)s.sweeps, s.seconds);
    if (s.computed > 0)
        printf(", children computed again in %u counts", s.computed);
    printf("\n");
    return nk_cli_finish(cli);
}

int nk_cmd_tablebase(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set; required", NULL},
        [OPT_SEEDS] = {"seeds", "N", "largest board seed count, 0 to 48; required", NULL},
        [OPT_PATTERNS] = {"patterns", "LIST",
                          "ownership patterns to store: all (default), or a comma list such "
                          "as 0 or 0,1,-1 (above)",
                          NULL},
        [OPT_OUTPUT] = {"output", "DIR", "directory of the file (default: tablebases)", NULL},
        [OPT_THREADS] = {"threads", "T", "OpenMP threads (default: OpenMP's choice)", NULL},
        [OPT_MEMORY] = {"memory", "MIB",
                        "memory limit of the build in MiB; the counts whose children do not "
                        "fit compute them again (default: none)",
                        NULL},
        [OPT_TB] = {"tb", "DIR", "bounds: directory of the database (default: tablebases)",
                    NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "tablebase",
        .synopsis = "build --variant V --seeds N [--patterns LIST] [--output DIR] [--threads T]\n"
                    "       [--memory MIB]\n"
                    "   or: nickar tablebase bounds --variant V [--tb DIR] [--threads T] "
                    "[--memory MIB]\n"
                    "   or: nickar tablebase info FILE",
        .about = "Builds the endgame database of a variant: the value under perfect\n"
                 "play of every position with at most N seeds on the board, written to\n"
                 "DIR/V.nktb (docs/tablebase.md).  The file is the same for any T.\n"
                 "adjikui stores every ownership pattern of R-K9, or those of --patterns:\n"
                 "0 the default rows, j = 1..5 South owns the first j pits of North's row,\n"
                 "-j North owns the first j of South's; a list holds -j with j.  A game\n"
                 "from the start position needs only 0.  The Warri family has pattern 0\n"
                 "only (--patterns all or 0).\n"
                 "info FILE prints what a database file holds: its variant, N, patterns,\n"
                 "planes, stored positions and checksum, the file checked as solve\n"
                 "checks it.\n"
                 "bounds computes, for every position of the one-plane database\n"
                 "DIR/V.nktb, the bounds of its value whatever the repetition rule\n"
                 "gives, and writes them to DIR/V.nkbd beside it (two bytes a position,\n"
                 "docs/tablebase.md); solve --bounds and --history read them there.\n"
                 "The file is the same for any T and MIB.",
        .opts = opts,
        .max_args = 2,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    if (cli.argc >= 1 && strcmp(cli.argv[0], "info") == 0)
        return tablebase_info(&cli, opts);
    if (cli.argc >= 1 && strcmp(cli.argv[0], "bounds") == 0)
        return tablebase_bounds(&cli, opts);
    return tablebase_build(&cli, opts);
}

enum {
    SOPT_VARIANT,
    SOPT_POSITION,
    SOPT_TB,
    SOPT_NODES,
    SOPT_BOUNDS,
    SOPT_HISTORY,
    SOPT_REGION,
    SOPT_END
};

static const char *outcome_text(int out, int me);

/* The totals under perfect play when the side to move of pos collects
 * value of the board's seeds, and the result. */
static void print_totals(const nk_pos *pos, unsigned value)
{
    const int me = pos->side;
    unsigned tot[2];
    tot[me] = pos->store[me] + value;
    tot[me ^ 1] = pos->store[me ^ 1] + nk_pos_on_board(pos) - value;
    printf("totals under perfect play: South %u, North %u: %s\n", tot[0], tot[1],
           tot[0] > tot[1]   ? "South wins"
           : tot[1] > tot[0] ? "North wins"
                             : "draw");
}

/* "3" or "from 1 to 4". */
static const char *range_text(char *buf, size_t len, int lo, int hi)
{
    if (lo == hi)
        snprintf(buf, len, "%d", lo);
    else
        snprintf(buf, len, "from %d to %d", lo, hi);
    return buf;
}

/* The outcomes from worst to best: "draw", "North wins or draw", ... */
static const char *outcomes_text(char *buf, size_t len, int worst, int best, int me)
{
    buf[0] = '\0';
    for (int o = worst; o <= best; o++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
                 o == worst  ? ""
                 : o == best ? " or "
                             : ", ",
                 outcome_text(o, me));
    return buf;
}

/* `nickar solve` beyond a two-plane database (speightstown): what each
 * side can force himself to collect (exact, or bounds), the result that
 * follows from the stores, and each move's. */
static int solve_print_planes_beyond(nk_cli *cli, const nk_tb *tb, const nk_pos *pos,
                                     uint64_t budget)
{
    nk_solve_pairs sv;
    char err[NK_MSG_MAX];
    nk_status st = nk_solve_beyond_planes(tb, pos, budget, &sv, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    const int me = pos->side;
    const unsigned board = nk_pos_on_board(pos);
    char text[NK_POS_TEXT], a[64], b[64], o[64];
    nk_pos_format(pos, text);
    printf("position: %s\n", text);
    const bool exact = sv.lo[0] == sv.hi[0] && sv.lo[1] == sv.hi[1];
    printf("value: %s can force %s and %s %s of the %u seeds on the board (a repetition "
           "gives the rest to nobody; %s: search beyond the %u-seed database, %llu nodes)\n",
           nk_cli_side_name(me), range_text(a, sizeof a, sv.lo[0], sv.hi[0]),
           nk_cli_side_name(me ^ 1), range_text(b, sizeof b, sv.lo[1], sv.hi[1]), board,
           exact ? "exact" : "bounds, not decided within --nodes a search", tb->seeds,
           (unsigned long long)sv.nodes);
    int worst, best;
    nk_solve_pair_outcomes(tb, pos, sv.lo, sv.hi, &worst, &best);
    printf("result under perfect play: %s%s (stores South %u, North %u; a win needs %u)\n",
           outcomes_text(o, sizeof o, worst, best, me), worst == best ? "" : ", not decided",
           pos->store[0], pos->store[1], nk_pos_total(pos) / 2 + 1);
    for (unsigned m = sv.mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        const nk_solve_pair *x = &sv.move[move];
        int w, bst;
        nk_solve_pair_outcomes(tb, pos, x->lo, x->hi, &w, &bst);
        const char *mark = "";
        if (w == bst && worst == best && w == worst)
            mark = " optimal";
        else if ((w != bst || worst != best) && bst >= worst)
            mark = " possibly optimal";
        printf("move %c: %s %s, %s %s: %s%s", nk_move_letter(move), nk_cli_side_name(me),
               range_text(a, sizeof a, x->lo[0], x->hi[0]), nk_cli_side_name(me ^ 1),
               range_text(b, sizeof b, x->lo[1], x->hi[1]), outcomes_text(o, sizeof o, w, bst, me),
               mark);
        if (x->nodes)
            printf(" (depth %u, %llu nodes)", x->depth, (unsigned long long)x->nodes);
        printf("\n");
    }
    return nk_cli_finish(cli);
}

/* `nickar solve` beyond the database: prints the value (exact, or bounds
 * when some move was not decided) and every move's. */
static int solve_print_beyond(nk_cli *cli, const nk_tb *tb, const nk_pos *pos, uint64_t budget)
{
    nk_solve sv;
    char err[NK_MSG_MAX];
    nk_status st = nk_solve_beyond(tb, pos, budget, &sv, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    const int me = pos->side;
    const unsigned board = nk_pos_on_board(pos);
    const int lo = sv.lo, hi = sv.hi;
    char text[NK_POS_TEXT];
    nk_pos_format(pos, text);
    printf("position: %s\n", text);
    const char *rep =
        sv.cycle ? " (rests on the repetition rule where the database's values do)" : "";
    if (lo == hi) {
        printf("value: %d of the %u seeds on the board to %s (exact: search beyond the "
               "%u-seed database, %llu nodes)%s\n",
               lo, board, nk_cli_side_name(me), tb->seeds, (unsigned long long)sv.nodes, rep);
        print_totals(pos, (unsigned)lo);
    } else {
        printf("value: from %d to %d of the %u seeds on the board to %s (bounds: not decided "
               "within %llu nodes a search, --nodes; search beyond the %u-seed database, %llu "
               "nodes)%s\n",
               lo, hi, board, nk_cli_side_name(me), (unsigned long long)budget, tb->seeds,
               (unsigned long long)sv.nodes, rep);
    }
    /* Optimal: a move whose value is the position's; with bounds, a move
     * that cannot be worse than another's proven value may still be. */
    for (unsigned m = sv.mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        const nk_solve_move *x = &sv.move[move];
        const char *mark = "";
        if (x->exact && lo == hi && x->value == lo)
            mark = " optimal";
        else if (!x->exact && x->hi >= lo)
            mark = " possibly optimal";
        if (x->exact)
            printf("move %c: %d%s%s\n", nk_move_letter(move), x->value, mark,
                   x->cycle ? " (repetition)" : "");
        else
            printf("move %c: from %d to %d%s (depth %u, %llu nodes)%s\n", nk_move_letter(move),
                   x->lo, x->hi, mark, x->depth, (unsigned long long)x->nodes,
                   x->cycle ? " (repetition)" : "");
    }
    return nk_cli_finish(cli);
}

static const char *outcome_text(int out, int me)
{
    if (out == 0)
        return "draw";
    return (out > 0) == (me == NK_SOUTH) ? "South wins" : "North wins";
}

/* `nickar solve` inside a two-plane database (speightstown): what each
 * side can force himself to collect, the result that follows from the
 * stores (R-W12), and each move's; a move is optimal when it keeps the
 * position's result. */
static int solve_print_planes(const nk_tb *tb, const nk_game *game, const nk_pos *pos)
{
    const int me = pos->side;
    const unsigned board = nk_pos_on_board(pos);
    uint8_t byte;
    int theirs;
    nk_tb_probe_pair(tb, pos, &byte, &theirs);
    const int mine = byte & NK_TB_VALUE_MASK;
    printf("value: %s can force %d and %s %d of the %u seeds on the board (a repetition "
           "gives the rest to nobody)\n",
           nk_cli_side_name(me), mine, nk_cli_side_name(me ^ 1), theirs, board);
    if (nk_game_over(game)) {
        char res[128];
        nk_cli_result_text(&game->result, res, sizeof res);
        printf("the game is over: %s\n", res);
        return NK_EXIT_OK;
    }
    const int out = nk_tb_outcome(tb, pos, mine, theirs);
    printf("result under perfect play: %s (stores South %u, North %u; a win needs %u)\n",
           outcome_text(out, me), pos->store[0], pos->store[1], nk_pos_total(pos) / 2 + 1);
    unsigned mask;
    int val[NK_PASS + 1], opp[NK_PASS + 1];
    nk_tb_move_pairs(tb, pos, &mask, val, opp, NULL);
    for (unsigned m = mask; m; m &= m - 1) {
        int move = __builtin_ctz(m);
        int o = nk_tb_outcome(tb, pos, val[move], opp[move]);
        printf("move %c: %s %d, %s %d: %s%s\n", nk_move_letter(move), nk_cli_side_name(me),
               val[move], nk_cli_side_name(me ^ 1), opp[move], outcome_text(o, me),
               o == out ? " optimal" : "");
    }
    return NK_EXIT_OK;
}

/* With a bounds file, the most positions of a region (about 100 bytes
 * each) before the file alone bounds the values. */
#define SOLVE_REGION_MAX UINT64_C(10000000)

/* What `nickar solve` works on. */
typedef struct solve_cmd {
    nk_cli *cli;
    nk_pos pos;
    nk_game game; /* of the variant, at pos */
    uint64_t budget;
    bool bounds;     /* --bounds or --history: the bounds behind the values */
    uint64_t history; /* --history N: nodes a move of the search with history (0: none) */
    uint64_t region;  /* --region N: with a bounds file, the region's most positions */
    char path[4096]; /* the database file */
    char bpath[4096]; /* its bounds file (DIR/V.nkbd) */
    nk_tb tb;
    nk_tb_whole whole; /* the bounds file, when --bounds finds one (whole.tb set) */
} solve_cmd;

/* Reads the options and opens the database, whose patterns must hold the
 * position's: no move changes the owners, so a search from another
 * pattern never reaches it.  Exit code; on success the caller closes
 * c->tb. */
static int solve_open(solve_cmd *c, const nk_opt *opts)
{
    nk_cli *cli = c->cli;
    const nk_variant *v = nk_cli_variant(cli, opts[SOPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    char err[NK_MSG_MAX];
    if (nk_tb_supported(v, err, sizeof err) != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return NK_EXIT_USAGE;
    }
    if (opts[SOPT_POSITION].value == NULL) {
        nk_cli_error(cli, "missing --position P");
        return NK_EXIT_USAGE;
    }
    if (!nk_cli_position(cli, opts[SOPT_POSITION].value, &c->pos) ||
        !nk_cli_game(cli, &c->game, v, &c->pos))
        return NK_EXIT_USAGE;
    const char *dir = opts[SOPT_TB].value ? opts[SOPT_TB].value : "tablebases";
    nk_tb_path(dir, v, c->path, sizeof c->path);
    c->budget = 10000000;
    if (opts[SOPT_NODES].value && !nk_cli_uint(cli, SOPT_NODES, 1, UINT64_MAX / 2, &c->budget))
        return NK_EXIT_USAGE;
    if (opts[SOPT_HISTORY].value &&
        !nk_cli_uint(cli, SOPT_HISTORY, 1, UINT64_MAX / 2, &c->history))
        return NK_EXIT_USAGE;
    c->region = SOLVE_REGION_MAX;
    if (opts[SOPT_REGION].value && !nk_cli_uint(cli, SOPT_REGION, 1, UINT32_MAX - 2, &c->region))
        return NK_EXIT_USAGE;
    c->bounds = opts[SOPT_BOUNDS].value != NULL || c->history > 0;
    nk_status st = nk_tb_open(&c->tb, c->path, v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(cli, "%s", err);
        return nk_cli_exit(st);
    }
    /* --bounds: the bounds file beside the database, when there is one */
    nk_tb_whole_path(dir, v, c->bpath, sizeof c->bpath);
    st = c->bounds && c->tb.planes == 1
             ? nk_tb_whole_open(&c->whole, &c->tb, c->bpath, err, sizeof err)
             : NK_ENOFILE;
    if (st != NK_OK && st != NK_ENOFILE) {
        nk_cli_error(cli, "%s", err);
        nk_tb_close(&c->tb);
        return nk_cli_exit(st);
    }
    char text[NK_POS_TEXT];
    nk_pos_format(&c->pos, text);
    int bought;
    const bool rk9 = nk_tb_owners_pattern(&c->pos, &bought);
    if (!rk9 || !nk_tb_holds_pattern(&c->tb, bought)) {
        char list[40];
        nk_tb_patterns_text(&c->tb, list, sizeof list);
        if (!rk9)
            nk_cli_error(cli, "position '%s': its pit owners are no pattern of R-K9", text);
        else
            nk_cli_error(cli,
                         "position '%s': its ownership pattern %d is not in the database '%s' "
                         "(built for patterns %s)",
                         text, bought, c->path, list);
        nk_tb_close(&c->tb);
        return NK_EXIT_USAGE;
    }
    return NK_EXIT_OK;
}

/* `nickar solve` inside a one-plane database: the value (byte), the
 * totals and each move's value. */
static void solve_print_inside(const nk_tb *tb, const nk_game *game, const nk_pos *pos,
                               uint8_t byte)
{
    const int me = pos->side;
    const unsigned value = byte & NK_TB_VALUE_MASK;
    printf("value: %u of the %u seeds on the board to %s%s\n", value, nk_pos_on_board(pos),
           nk_cli_side_name(me), (byte & NK_TB_CYCLE) ? " (rests on the repetition rule)" : "");
    if (nk_game_over(game)) {
        char res[128];
        nk_cli_result_text(&game->result, res, sizeof res);
        printf("the game is over: %s\n", res);
        return;
    }
    print_totals(pos, value);
    unsigned mask, cyc;
    int val[NK_PASS + 1];
    nk_tb_move_values(tb, pos, &mask, val, &cyc);
    for (unsigned m = mask; m; m &= m - 1) {
        int move = __builtin_ctz(m);
        printf("move %c: %d%s%s\n", nk_move_letter(move), val[move],
               val[move] == (int)value ? " optimal" : "",
               ((cyc >> move) & 1u) ? " (repetition)" : "");
    }
}

/* "lo 5, hi 7 at this count; lo 4, hi 7 whatever a repetition gives". */
static void print_bounds(const nk_tb_bounds *x)
{
    if (x->lo < 0) /* over the whole database: the count's own are not computed */
        printf("lo %d, hi %d whatever a repetition gives (at this count: not computed)\n",
               x->lo_any, x->hi_any);
    else
        printf("lo %d, hi %d at this count; lo %d, hi %d whatever a repetition gives\n", x->lo,
               x->hi, x->lo_any, x->hi_any);
}

/* `nickar solve --bounds` and `--history N` after the values: the bounds
 * behind them (nk_tb_region) and the values with the game's history. */
static int solve_print_bounds(const solve_cmd *c)
{
    char err[NK_MSG_MAX];
    nk_tb_region *r;
    const bool whole = c->whole.tb != NULL;
    nk_status st = nk_tb_region_new(&r, &c->tb, &c->pos, whole ? c->region : 0, err, sizeof err);
    if (st == NK_OK && whole)
        nk_tb_region_attach(r, &c->whole);
    else if (st == NK_ERANGE && whole) /* too large: the bounds file alone */
        st = nk_tb_region_whole(&r, &c->whole, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(c->cli, "%s", err);
        return nk_cli_exit(st);
    }
    nk_tb_bounds self, mv[NK_PASS + 1];
    unsigned mask;
    nk_tb_region_bounds(r, &c->pos, &self);
    nk_tb_region_moves(r, &c->pos, &mask, mv);
    if (self.lo < 0 && self.component >= 0) /* over the whole database */
        printf("positions with the cycle bit reachable: more than %llu (no region: the bounds "
               "whatever a repetition gives from %s)\nbounds: ",
               (unsigned long long)c->region, c->bpath);
    else
        printf("positions with the cycle bit reachable: %llu\nbounds: ",
               (unsigned long long)nk_tb_region_size(r));
    print_bounds(&self);
    for (unsigned m = mask; m; m &= m - 1) {
        printf("bounds of move %c: ", nk_move_letter(__builtin_ctz(m)));
        print_bounds(&mv[__builtin_ctz(m)]);
    }
    int rc = NK_EXIT_OK;
    if (c->history > 0 && mask != 0) {
        nk_solve_history h;
        st = nk_solve_with_history(&c->tb, r, &c->pos, c->history, &h, err, sizeof err);
        if (st != NK_OK) {
            nk_cli_error(c->cli, "%s", err);
            rc = nk_cli_exit(st);
        } else {
            char buf[64];
            printf("with the history: %s (%s; %llu nodes, at most %llu a move)\n",
                   range_text(buf, sizeof buf, h.root_lo, h.root_hi),
                   h.root_lo == h.root_hi ? "settled" : "not settled",
                   (unsigned long long)h.total, (unsigned long long)c->history);
            for (unsigned m = h.mask; m; m &= m - 1) {
                const int move = __builtin_ctz(m);
                printf("with the history, move %c: %s (%llu nodes)\n", nk_move_letter(move),
                       range_text(buf, sizeof buf, h.lo[move], h.hi[move]),
                       (unsigned long long)h.nodes[move]);
            }
            if (h.deep)
                printf("with the history: a path reached %d positions (the depth limit)\n",
                       NK_SOLVE_HISTORY_DEPTH);
        }
    }
    nk_tb_region_free(r);
    return rc;
}

/* Solves the position: inside the database, beyond it, or the end of the
 * game.  Exit code. */
static int solve_run(solve_cmd *c)
{
    nk_cli *cli = c->cli;
    const nk_tb *tb = &c->tb;
    char text[NK_POS_TEXT];
    nk_pos_format(&c->pos, text);
    uint8_t byte;
    nk_status st = nk_tb_probe(tb, &c->pos, &byte);
    if (st == NK_ERANGE && nk_game_over(&c->game)) {
        char res[128];
        nk_cli_result_text(&c->game.result, res, sizeof res);
        printf("position: %s\nthe game is over: %s\n", text, res);
        return nk_cli_finish(cli);
    }
    if (st == NK_ERANGE && c->bounds) {
        nk_cli_error(cli, "--bounds, --history: position '%s' has more seeds than the database "
                     "(%u)", text, tb->seeds);
        return NK_EXIT_USAGE;
    }
    if (st == NK_ERANGE && tb->planes == 2)
        return solve_print_planes_beyond(cli, tb, &c->pos, c->budget);
    if (st == NK_ERANGE)
        return solve_print_beyond(cli, tb, &c->pos, c->budget);
    if (st != NK_OK) {
        nk_cli_error(cli, "position '%s': its pit owners are no pattern of R-K9", text);
        return NK_EXIT_USAGE;
    }
    if (c->bounds && tb->planes == 2) {
        nk_cli_error(cli, "--bounds, --history: no %s value rests on the repetition rule "
                     "(two planes, docs/tablebase.md)", tb->variant->name);
        return NK_EXIT_USAGE;
    }
    printf("position: %s\n", text);
    if (tb->planes == 2) {
        int rc = solve_print_planes(tb, &c->game, &c->pos);
        return rc == NK_EXIT_OK ? nk_cli_finish(cli) : rc;
    }
    solve_print_inside(tb, &c->game, &c->pos, byte);
    if (c->bounds) {
        int rc = solve_print_bounds(c);
        if (rc != NK_EXIT_OK)
            return rc;
    }
    return nk_cli_finish(cli);
}

int nk_cmd_solve(int argc, char **argv)
{
    nk_opt opts[] = {
        [SOPT_VARIANT] = {"variant", "V", "rule set; required", NULL},
        [SOPT_POSITION] = {"position", "P", "position as in docs/rules.md R-B3; required", NULL},
        [SOPT_TB] = {"tb", "DIR", "directory of the database (default: tablebases)", NULL},
        [SOPT_NODES] = {"nodes", "N",
                        "beyond the database: search nodes per move (default 10000000)", NULL},
        [SOPT_BOUNDS] = {"bounds", NULL,
                         "also the bounds behind each value (one-plane databases)", NULL},
        [SOPT_HISTORY] = {"history", "N",
                          "also each move's value with the game's history, N nodes a move",
                          NULL},
        [SOPT_REGION] = {"region", "N",
                         "with a bounds file DIR/V.nkbd: the region of the position up to N "
                         "positions (default 10000000), beyond it the file alone",
                         NULL},
        [SOPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "solve",
.synopsis = "--variant V --position P [--tb DIR] [--nodes N] [--bounds] [--history N]\n"
                    "       [--region N]",
        .about = "Prints the exact value of a position inside the endgame database\n"
                 "DIR/V.nktb (the board seeds the side to move collects under perfect\n"
                 "play, docs/tablebase.md), the totals and result that follow from the\n"
                 "stores, and the value of each legal move; optimal moves are marked\n"
                 "(speightstown: what each side can force himself to collect, and the\n"
                 "result). A position with more seeds is searched (alpha-beta, the\n"
                 "database's values at its leaves); the output says whether each value\n"
                 "is exact or given as bounds (not decided within N nodes a search).\n"
                 "--bounds adds, inside a one-plane database, the bounds [lo, hi] behind\n"
                 "the value and each move's (docs/tablebase.md, \"Cycles and the\n"
                 "repetition rule\"): at this count, and whatever a repetition gives;\n"
                 "--history N adds the values with the game's history, searched from\n"
                 "the position with repetitions as the rules define them, N nodes a move.\n"
                 "Where the bounds file DIR/V.nkbd exists (nickar tablebase bounds), the\n"
                 "bounds whatever a repetition gives come from it, and a position whose\n"
                 "region would hold more than --region N positions is bounded by the\n"
                 "file alone (the bounds at this count are then not computed).",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    solve_cmd c = {.cli = &cli};
    rc = solve_open(&c, opts);
    if (rc != NK_EXIT_OK)
        return rc;
    rc = solve_run(&c);
    nk_tb_whole_close(&c.whole);
    nk_tb_close(&c.tb);
    return rc;
}
