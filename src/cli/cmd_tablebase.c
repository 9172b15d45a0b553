/*
 * cmd_tablebase.c -- `nickar tablebase build`: builds the endgame database
 * of a variant to N board seeds and writes DIR/VARIANT.nktb
 * (docs/tablebase.md); `nickar tablebase info FILE`: what a database file
 * holds; `nickar solve`: the exact value and the optimal moves of a
 * position inside a database.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "search/features.h"
#include "search/search.h"
#include "tb/tb.h"

enum { OPT_VARIANT, OPT_SEEDS, OPT_PATTERNS, OPT_OUTPUT, OPT_THREADS, OPT_MEMORY, OPT_END };

/* `nickar tablebase info FILE`: what a database file holds, read and
 * checked as every reader checks it (nk_tb_open). */
static int tablebase_info(nk_cli *cli, const char *path)
{
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
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "tablebase",
        .synopsis = "build --variant V --seeds N [--patterns LIST] [--output DIR] [--threads T]\n"
                    "       [--memory MIB]\n"
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
                 "checks it.",
        .opts = opts,
        .max_args = 2,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    char word[64];
    if (cli.argc >= 1 && strcmp(cli.argv[0], "info") == 0) {
        for (int o = 0; o < OPT_END; o++)
            if (opts[o].value != NULL) {
                nk_cli_error(&cli, "info takes no option, got --%s", opts[o].name);
                return NK_EXIT_USAGE;
            }
        if (cli.argc != 2) {
            nk_cli_error(&cli, "info needs the database FILE");
            return NK_EXIT_USAGE;
        }
        return tablebase_info(&cli, cli.argv[1]);
    }
    if (cli.argc == 0 || strcmp(cli.argv[0], "build") != 0) {
        nk_cli_error(&cli, "expected the action 'build' or 'info', got '%s'",
                     cli.argc ? nk_cli_quote(cli.argv[0], word, sizeof word) : "nothing");
        return NK_EXIT_USAGE;
    }
    if (cli.argc != 1) {
        nk_cli_error(&cli, "unexpected argument '%s' after build",
                     nk_cli_quote(cli.argv[1], word, sizeof word));
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
    if (opts[OPT_SEEDS].value == NULL) {
        nk_cli_error(&cli, "missing --seeds N");
        return NK_EXIT_USAGE;
    }
    uint32_t patterns = nk_tb_patterns_all(v);
    if (opts[OPT_PATTERNS].value &&
        nk_tb_patterns_parse(v, opts[OPT_PATTERNS].value, &patterns, err, sizeof err) != NK_OK) {
        nk_cli_error(&cli, "--patterns: %s", err);
        return NK_EXIT_USAGE;
    }
    uint64_t seeds, threads = 0, mib = 0;
    if (!nk_cli_uint(&cli, OPT_SEEDS, 0, NK_TB_MAX_SEEDS, &seeds))
        return NK_EXIT_USAGE;
    if (opts[OPT_THREADS].value && !nk_cli_uint(&cli, OPT_THREADS, 1, 1024, &threads))
        return NK_EXIT_USAGE;
    if (opts[OPT_MEMORY].value && !nk_cli_uint(&cli, OPT_MEMORY, 1, UINT64_C(1) << 30, &mib))
        return NK_EXIT_USAGE;
    const char *dir = opts[OPT_OUTPUT].value ? opts[OPT_OUTPUT].value : "tablebases";
    struct stat sb;
    if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        char q[256];
        nk_cli_error(&cli, "--output '%s' is not a directory", nk_cli_quote(dir, q, sizeof q));
        return NK_EXIT_USAGE;
    }
    if (stat(dir, &sb) != 0 && mkdir(dir, 0777) != 0) {
        char q[256];
        nk_cli_error(&cli, "cannot create the directory '%s'", nk_cli_quote(dir, q, sizeof q));
        return NK_EXIT_FAIL;
    }
    nk_tb tb;
    nk_tb_stats stats;
    nk_status st = nk_tb_build_patterns(&tb, v, (unsigned)seeds, patterns, (int)threads,
                                        mib << 20, &stats, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    char path[4096], list[40], pats[64] = "";
    nk_tb_path(dir, v, path, sizeof path);
    if (nk_tb_patterns_all(v) != 1) { /* adjikui: which patterns */
        nk_tb_patterns_text(&tb, list, sizeof list);
        snprintf(pats, sizeof pats, " (patterns %s)", list);
    }
    st = nk_tb_write(&tb, path, err, sizeof err);
    nk_tb_close(&tb);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    printf("%s: %s to %u seeds%s, %llu positions (%llu resting on repetition), "
           "%u counts by retrograde analysis, %llu sweeps, %.2f s, %.3g positions/s",
           path, v->name, (unsigned)seeds, pats, (unsigned long long)stats.positions,
           (unsigned long long)stats.cycle, stats.retro, (unsigned long long)stats.sweeps,
           stats.seconds, stats.seconds > 0 ? (double)stats.positions / stats.seconds : 0.0);
    if (stats.computed > 0)
        printf(", children computed again in %u counts", stats.computed);
    printf("\n");
    return nk_cli_finish(&cli);
}

enum { SOPT_VARIANT, SOPT_POSITION, SOPT_TB, SOPT_NODES, SOPT_END };

/* What a search beyond the database starts from: the game of the
 * database at the root (the majority rule off, tb->rules, and the stores
 * emptied), a second game for the children, and a material search that
 * probes the database at every node inside it. */
typedef struct beyond {
    nk_eval eval;
    nk_search *search;
    nk_game *game; /* [0] the root, [1] a child */
} beyond;

/* Returns false when out of memory. */
static bool beyond_open(beyond *b, const nk_tb *tb, const nk_pos *root)
{
    nk_pos p = *root;
    p.store[0] = p.store[1] = 0;
    p.hash = nk_pos_hash(&p);
    b->search = NULL;
    b->game = nk_malloc(2 * sizeof *b->game);
    char err[NK_MSG_MAX];
    if (b->game == NULL ||
        nk_eval_init(&b->eval, &tb->rules, nk_features_find("material"), NULL, 0, err,
                     sizeof err) != NK_OK ||
        nk_search_new(&b->search, &b->eval, 64) != NK_OK ||
        nk_game_init(b->game, &tb->rules, &p, NK_MAX_PLIES) != NK_OK) {
        nk_search_free(b->search);
        nk_free(b->game);
        return false;
    }
    nk_search_set_tb(b->search, tb);
    return true;
}

static void beyond_close(beyond *b)
{
    nk_search_free(b->search);
    nk_free(b->game);
}

/* A move's value for the side to move at the root of solve_beyond. */
typedef struct move_value {
    int value;     /* board seeds the root's mover collects (exact only) */
    int lo, hi;    /* bounds of value (equal to it when exact) */
    bool exact;    /* decided: the bounds meet */
    bool cycle;    /* a database value on the way rests on the repetition rule */
    unsigned depth;
    uint64_t nodes;
} move_value;

/* Solves a position with more board seeds than the database holds: for
 * each legal move, the child is the end of the game, a position inside the
 * database (its value), or searched by alpha-beta with the database's
 * values at every node inside it (nk_search_set_tb) until every line ends
 * there or in the end of the game, within `budget` nodes a move.  The game
 * is that of the database: the majority rule off (tb->rules) and the
 * stores emptied, so a search score (seed difference of the totals) is
 * 2 v - B.  The history of the game starts at the root.  Returns false when
 * out of memory. */
static bool solve_beyond(const nk_tb *tb, const nk_pos *root, uint64_t budget,
                         unsigned *mask, move_value out[NK_PASS + 1], uint64_t *total_nodes)
{
    beyond at;
    if (!beyond_open(&at, tb, root))
        return false;
    nk_search *search = at.search;
    nk_game *g = at.game, *child = at.game + 1;
    const int me = g->pos.side;
    const int board = (int)nk_pos_on_board(&g->pos);
    *mask = nk_game_legal(g);
    *total_nodes = 0;
    for (unsigned m = *mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        move_value *x = &out[move];
        memset(x, 0, sizeof *x);
        *child = *g;
        nk_game_play_legal(child, move, NULL);
        const nk_pos *c = &child->pos;
        const int cb = (int)nk_pos_on_board(c);
        uint8_t byte;
        if (nk_game_over(child)) {
            x->value = (int)child->result.total[me];
            x->exact = true;
        } else if (cb <= (int)tb->seeds && nk_tb_probe(tb, c, &byte) == NK_OK) {
            const int y = byte & NK_TB_VALUE_MASK;
            x->value = c->store[me] + (c->side == me ? y : cb - y);
            x->exact = true;
            x->cycle = (byte & NK_TB_CYCLE) != 0;
        } else {
            /* A lower and an upper bound: horizon leaves scored as if the
             * root's mover got none, then all, of the board there. */
            nk_search_limits lim = {0, budget, 0.0};
            int bound[2];
            for (int k = 0; k < 2; k++) {
                nk_search_result r;
                nk_search_set_bound(search, k == 0 ? -1 : 1, me);
                nk_search_best(search, child, &lim, &r);
                /* total[mover] - total[other] of the child; the totals sum
                 * to the root's board (the stores started empty). */
                const int diff = (int)(r.score / NK_SCORE_SEED + (r.score >= 0 ? 0.5 : -0.5));
                bound[k] = (board + (c->side == me ? diff : -diff)) / 2;
                x->cycle |= r.tb_cycle;
                x->depth = r.depth;
                x->nodes += r.nodes;
                if (r.exact) {
                    bound[1] = bound[0] = bound[k];
                    break;
                }
            }
            x->lo = bound[0];
            x->hi = bound[1];
            x->value = x->lo;
            x->exact = x->lo == x->hi;
            *total_nodes += x->nodes;
            continue;
        }
        x->lo = x->hi = x->value;
    }
    beyond_close(&at);
    return true;
}

/* A move's pair for the side to move at the root of solve_beyond_planes
 * (speightstown): the seeds each side can force himself to collect after
 * it, as bounds (equal when decided). */
typedef struct move_pair {
    int lo[2], hi[2]; /* [0]: the root's mover, [1]: the opponent */
    unsigned depth;
    uint64_t nodes;
} move_pair;

/* Two-plane solving beyond the database (speightstown, docs/tablebase.md):
 * for each legal move, what the root's mover (k = 0) and the opponent
 * (k = 1) can each force himself to collect, from the end of the game, the
 * database (plane 0 for the side to move there, plane 1 for the other), or
 * two searches each in collect mode (nk_search_set_collect: that side
 * maximises his own seeds, the other minimises them, a repetition gives
 * the board to nobody) with horizon leaves giving him none (a lower bound)
 * and all (an upper bound) of the board.  The stores are emptied and the
 * majority rule is off (tb->rules), as in the database.  Returns false
 * when out of memory. */
static bool solve_beyond_planes(const nk_tb *tb, const nk_pos *root, uint64_t budget,
                                unsigned *mask, move_pair out[NK_PASS + 1],
                                uint64_t *total_nodes)
{
    beyond at;
    if (!beyond_open(&at, tb, root))
        return false;
    nk_search *search = at.search;
    nk_game *g = at.game, *child = at.game + 1;
    const int me = g->pos.side;
    *mask = nk_game_legal(g);
    *total_nodes = 0;
    for (unsigned m = *mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        move_pair *x = &out[move];
        memset(x, 0, sizeof *x);
        *child = *g;
        nk_game_play_legal(child, move, NULL);
        const nk_pos *c = &child->pos;
        uint8_t byte;
        int theirs;
        if (nk_game_over(child)) {
            x->lo[0] = x->hi[0] = (int)child->result.total[me];
            x->lo[1] = x->hi[1] = (int)child->result.total[me ^ 1];
        } else if (nk_pos_on_board(c) <= tb->seeds &&
                   nk_tb_probe_pair(tb, c, &byte, &theirs) == NK_OK) {
            const int y = byte & NK_TB_VALUE_MASK;
            x->lo[0] = x->hi[0] = c->store[me] + (c->side == me ? y : theirs);
            x->lo[1] = x->hi[1] = c->store[me ^ 1] + (c->side == me ? theirs : y);
        } else {
            nk_search_limits lim = {0, budget, 0.0};
            for (int k = 0; k < 2; k++) {
                const int side = k == 0 ? me : me ^ 1;
                int bound[2];
                nk_search_set_collect(search, side);
                for (int b = 0; b < 2; b++) {
                    nk_search_result r;
                    nk_search_set_bound(search, b == 0 ? -1 : 1, side);
                    nk_search_best(search, child, &lim, &r);
                    /* side's seeds, from the child's side to move's view */
                    const double sc = c->side == side ? r.score : -r.score;
                    bound[b] = (int)(sc / NK_SCORE_SEED + 0.5);
                    x->depth = r.depth > x->depth ? r.depth : x->depth;
                    x->nodes += r.nodes;
                    if (r.exact) {
                        bound[0] = bound[1] = bound[b];
                        break;
                    }
                }
                x->lo[k] = bound[0];
                x->hi[k] = bound[1];
            }
            *total_nodes += x->nodes;
        }
    }
    nk_search_set_collect(search, -1);
    beyond_close(&at);
    return true;
}

/* The outcomes (-1 loss, 0 draw, +1 win for the root's mover) that the
 * bounds of a pair allow: nk_tb_outcome grows with the mover's seeds and
 * falls with the opponent's, so the worst is at (lo, hi), the best at
 * (hi, lo). */
static void pair_outcomes(const nk_tb *tb, const nk_pos *pos, const int lo[2], const int hi[2],
                          int *worst, int *best)
{
    *worst = nk_tb_outcome(tb, pos, lo[0], hi[1]);
    *best = nk_tb_outcome(tb, pos, hi[0], lo[1]);
}

static const char *outcome_text(int out, int me);

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
                 o == worst ? "" : o == best ? " or " : ", ", outcome_text(o, me));
    return buf;
}

/* `nickar solve` beyond a two-plane database (speightstown): what each
 * side can force himself to collect (exact, or bounds), the result that
 * follows from the stores, and each move's. */
static int solve_print_planes_beyond(nk_cli *cli, const nk_tb *tb, const nk_pos *pos,
                                     uint64_t budget)
{
    unsigned mask;
    move_pair mv[NK_PASS + 1];
    uint64_t nodes;
    if (!solve_beyond_planes(tb, pos, budget, &mask, mv, &nodes)) {
        nk_cli_error(cli, "out of memory for the search");
        return NK_EXIT_FAIL;
    }
    const int me = pos->side;
    const unsigned board = nk_pos_on_board(pos);
    /* The mover takes the best move for him, the opponent's forced seeds
     * are the least over the moves. */
    int lo[2] = {-1, 1 << 20}, hi[2] = {-1, 1 << 20};
    for (unsigned m = mask; m; m &= m - 1) {
        const move_pair *x = &mv[__builtin_ctz(m)];
        lo[0] = x->lo[0] > lo[0] ? x->lo[0] : lo[0];
        hi[0] = x->hi[0] > hi[0] ? x->hi[0] : hi[0];
        lo[1] = x->lo[1] < lo[1] ? x->lo[1] : lo[1];
        hi[1] = x->hi[1] < hi[1] ? x->hi[1] : hi[1];
    }
    char text[NK_POS_TEXT], a[64], b[64], o[64];
    nk_pos_format(pos, text);
    printf("position: %s\n", text);
    const bool exact = lo[0] == hi[0] && lo[1] == hi[1];
    printf("value: %s can force %s and %s %s of the %u seeds on the board (a repetition "
           "gives the rest to nobody; %s: search beyond the %u-seed database, %llu nodes)\n",
           nk_cli_side_name(me), range_text(a, sizeof a, lo[0], hi[0]),
           nk_cli_side_name(me ^ 1), range_text(b, sizeof b, lo[1], hi[1]), board,
           exact ? "exact" : "bounds, not decided within --nodes a search", tb->seeds,
           (unsigned long long)nodes);
    int worst, best;
    pair_outcomes(tb, pos, lo, hi, &worst, &best);
    printf("result under perfect play: %s%s (stores South %u, North %u; a win needs %u)\n",
           outcomes_text(o, sizeof o, worst, best, me), worst == best ? "" : ", not decided",
           pos->store[0], pos->store[1], nk_pos_total(pos) / 2 + 1);
    for (unsigned m = mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        const move_pair *x = &mv[move];
        int w, bst;
        pair_outcomes(tb, pos, x->lo, x->hi, &w, &bst);
        const char *mark = "";
        if (w == bst && worst == best && w == worst)
            mark = " optimal";
        else if ((w != bst || worst != best) && bst >= worst)
            mark = " possibly optimal";
        printf("move %c: %s %s, %s %s: %s%s", nk_move_letter(move), nk_cli_side_name(me),
               range_text(a, sizeof a, x->lo[0], x->hi[0]), nk_cli_side_name(me ^ 1),
               range_text(b, sizeof b, x->lo[1], x->hi[1]),
               outcomes_text(o, sizeof o, w, bst, me), mark);
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
    unsigned mask;
    move_value mv[NK_PASS + 1];
    uint64_t nodes;
    if (!solve_beyond(tb, pos, budget, &mask, mv, &nodes)) {
        nk_cli_error(cli, "out of memory for the search");
        return NK_EXIT_FAIL;
    }
    const int me = pos->side;
    const unsigned board = nk_pos_on_board(pos);
    int lo = -1, hi = -1;
    bool cycle = false;
    for (unsigned m = mask; m; m &= m - 1) {
        const move_value *x = &mv[__builtin_ctz(m)];
        cycle |= x->cycle;
        lo = x->lo > lo ? x->lo : lo;
        hi = x->hi > hi ? x->hi : hi;
    }
    char text[NK_POS_TEXT];
    nk_pos_format(pos, text);
    printf("position: %s\n", text);
    const char *rep = cycle ? " (rests on the repetition rule where the database's values do)" : "";
    if (lo == hi) {
        printf("value: %d of the %u seeds on the board to %s (exact: search beyond the "
               "%u-seed database, %llu nodes)%s\n",
               lo, board, nk_cli_side_name(me), tb->seeds, (unsigned long long)nodes, rep);
        unsigned tot[2];
        tot[me] = pos->store[me] + (unsigned)lo;
        tot[me ^ 1] = pos->store[me ^ 1] + board - (unsigned)lo;
        printf("totals under perfect play: South %u, North %u: %s\n", tot[0], tot[1],
               tot[0] > tot[1] ? "South wins" : tot[1] > tot[0] ? "North wins" : "draw");
    } else {
        printf("value: from %d to %d of the %u seeds on the board to %s (bounds: not decided "
               "within %llu nodes a search, --nodes; search beyond the %u-seed database, %llu "
               "nodes)%s\n",
               lo, hi, board, nk_cli_side_name(me), (unsigned long long)budget, tb->seeds,
               (unsigned long long)nodes, rep);
    }
    /* Optimal: a move whose value is the position's; with bounds, a move
     * that cannot be worse than another's proven value may still be. */
    for (unsigned m = mask; m; m &= m - 1) {
        const int move = __builtin_ctz(m);
        const move_value *x = &mv[move];
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

int nk_cmd_solve(int argc, char **argv)
{
    nk_opt opts[] = {
        [SOPT_VARIANT] = {"variant", "V", "rule set; required", NULL},
        [SOPT_POSITION] = {"position", "P", "position as in docs/rules.md R-B3; required", NULL},
        [SOPT_TB] = {"tb", "DIR", "directory of the database (default: tablebases)", NULL},
        [SOPT_NODES] = {"nodes", "N",
                        "beyond the database: search nodes per move (default 10000000)", NULL},
        [SOPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "solve",
        .synopsis = "--variant V --position P [--tb DIR] [--nodes N]",
        .about = "Prints the exact value of a position inside the endgame database\n"
                 "DIR/V.nktb (the board seeds the side to move collects under perfect\n"
                 "play, docs/tablebase.md), the totals and result that follow from the\n"
                 "stores, and the value of each legal move; optimal moves are marked\n"
                 "(speightstown: what each side can force himself to collect, and the\n"
                 "result). A position with more seeds is searched (alpha-beta, the\n"
                 "database's values at its leaves); the output says whether each value\n"
                 "is exact or given as bounds (not decided within N nodes a search).",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    const nk_variant *v = nk_cli_variant(&cli, opts[SOPT_VARIANT].value);
    if (v == NULL)
        return NK_EXIT_USAGE;
    char err[NK_MSG_MAX];
    if (nk_tb_supported(v, err, sizeof err) != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return NK_EXIT_USAGE;
    }
    if (opts[SOPT_POSITION].value == NULL) {
        nk_cli_error(&cli, "missing --position P");
        return NK_EXIT_USAGE;
    }
    nk_pos pos;
    nk_game game;
    if (!nk_cli_position(&cli, opts[SOPT_POSITION].value, &pos) ||
        !nk_cli_game(&cli, &game, v, &pos))
        return NK_EXIT_USAGE;
    const char *dir = opts[SOPT_TB].value ? opts[SOPT_TB].value : "tablebases";
    char path[4096];
    nk_tb_path(dir, v, path, sizeof path);
    uint64_t budget = 10000000;
    if (opts[SOPT_NODES].value && !nk_cli_uint(&cli, SOPT_NODES, 1, UINT64_MAX / 2, &budget))
        return NK_EXIT_USAGE;
    nk_tb tb;
    nk_status st = nk_tb_open(&tb, path, v, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    char text[NK_POS_TEXT];
    nk_pos_format(&pos, text);
    unsigned board = nk_pos_on_board(&pos);
    /* The owners must be a pattern of the database, beyond it too: no move
     * changes them, so a search from another pattern never reaches it. */
    int bought;
    const bool rk9 = nk_tb_owners_pattern(&pos, &bought);
    if (!rk9 || !nk_tb_holds_pattern(&tb, bought)) {
        char list[40];
        nk_tb_patterns_text(&tb, list, sizeof list);
        if (!rk9)
            nk_cli_error(&cli, "position '%s': its pit owners are no pattern of R-K9", text);
        else
            nk_cli_error(&cli,
                         "position '%s': its ownership pattern %d is not in the database '%s' "
                         "(built for patterns %s)",
                         text, bought, path, list);
        nk_tb_close(&tb);
        return NK_EXIT_USAGE;
    }
    uint8_t byte;
    st = nk_tb_probe(&tb, &pos, &byte);
    if (st == NK_ERANGE && nk_game_over(&game)) {
        char res[128];
        nk_cli_result_text(&game.result, res, sizeof res);
        printf("position: %s\nthe game is over: %s\n", text, res);
        nk_tb_close(&tb);
        return nk_cli_finish(&cli);
    }
    if (st == NK_ERANGE && tb.planes == 2) {
        rc = solve_print_planes_beyond(&cli, &tb, &pos, budget);
        nk_tb_close(&tb);
        return rc;
    }
    if (st == NK_ERANGE) {
        rc = solve_print_beyond(&cli, &tb, &pos, budget);
        nk_tb_close(&tb);
        return rc;
    }
    if (st != NK_OK) {
        if (st == NK_ERANGE)
            nk_cli_error(&cli, "position '%s' has %u seeds on the board; the database holds "
                         "at most %u", text, board, tb.seeds);
        else
            nk_cli_error(&cli, "position '%s': its pit owners are no pattern of R-K9", text);
        nk_tb_close(&tb);
        return NK_EXIT_USAGE;
    }
    const int me = pos.side;
    const unsigned value = byte & NK_TB_VALUE_MASK;
    printf("position: %s\n", text);
    if (tb.planes == 2) {
        rc = solve_print_planes(&tb, &game, &pos);
        nk_tb_close(&tb);
        return rc == NK_EXIT_OK ? nk_cli_finish(&cli) : rc;
    }
    printf("value: %u of the %u seeds on the board to %s%s\n", value, board,
           nk_cli_side_name(me),
           (byte & NK_TB_CYCLE) ? " (rests on the repetition rule)" : "");
    if (nk_game_over(&game)) {
        char res[128];
        nk_cli_result_text(&game.result, res, sizeof res);
        printf("the game is over: %s\n", res);
    } else {
        unsigned tot[2];
        tot[me] = pos.store[me] + value;
        tot[me ^ 1] = pos.store[me ^ 1] + board - value;
        printf("totals under perfect play: South %u, North %u: %s\n", tot[0], tot[1],
               tot[0] > tot[1] ? "South wins" : tot[1] > tot[0] ? "North wins" : "draw");
        unsigned mask, cyc;
        int val[NK_PASS + 1];
        nk_tb_move_values(&tb, &pos, &mask, val, &cyc);
        for (unsigned m = mask; m; m &= m - 1) {
            int move = __builtin_ctz(m);
            printf("move %c: %d%s%s\n", nk_move_letter(move), val[move],
                   val[move] == (int)value ? " optimal" : "",
                   ((cyc >> move) & 1u) ? " (repetition)" : "");
        }
    }
    nk_tb_close(&tb);
    return nk_cli_finish(&cli);
}
