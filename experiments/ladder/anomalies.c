/*
 * anomalies.c -- why `greedy` sits below `material-d1` on every reference
 * ladder, and `positional-d1` at or below `material-d1` on the Warri ones
 * (issue 24, item 16).  Built and run by experiments/ladder/anomalies.sh,
 * which writes results/ladder/anomalies.txt; experiments/ladder/readme.py
 * quotes it in results/ladder/README.md.
 *
 *     anomalies VARIANT PAIRS
 *
 * Both greedy and ab:depth=1,features=material maximise the seeds the move
 * captures; they differ in two ways only:
 *   - ties (most often: no move captures anything) -- greedy draws one at
 *     random (player.c), the search keeps the first best move in its move
 *     order, captures larger first and then the quiet moves in pit order
 *     (search.c): in effect the lowest pit;
 *   - a move that ends the game -- the search scores the finished game
 *     (nk_eval_terminal: the seed totals once the end rule has handed out
 *     the seeds left on the board), greedy only the seeds captured.
 * To tell them apart this program plays, besides nickar's own players,
 * depth-one players written here on the same rules API:
 *   greedy-low   greedy with ties broken to the lowest pit (a for South,
 *                A for North: the pit farthest from the opponent's row);
 *   greedy-high  greedy with ties broken to the highest pit (f, F);
 *   d1-rand      material at depth one (a finished game scored as the
 *                search scores it) with ties drawn at random;
 *   d1-low       the same with ties to the lowest pit -- it must play the
 *                moves of material-d1 (checked: "agreement" below);
 * and matches them pairwise: colour-swapped pairs from random 2-ply
 * openings, as nickar match plays them (fixed seeds).  It also counts, over
 * the positions where material-d1 moves in its match against greedy, how
 * often the choice is a tie and how often a finished game decides it; and,
 * for positional-d1, how often it passes up the largest capture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/arena.h"
#include "base/rng.h"
#include "rules/rules.h"
#include "search/player.h"

enum { GREEDY, MATERIAL1, POSITIONAL1, GREEDY_LOW, GREEDY_HIGH, D1_RAND, D1_LOW, KINDS };
static const char *const kind_name[KINDS] = {
    "greedy", "material-d1", "positional-d1", "greedy-low", "greedy-high", "d1-rand", "d1-low"};
static const char *const kind_spec[KINDS] = {
    "greedy", "ab:depth=1,features=material", "ab:depth=1,features=positional", NULL, NULL, NULL,
    NULL};

typedef struct stats {
    unsigned long moves;       /* material-d1's moves counted */
    unsigned long ties;        /* ... where several moves shared the largest capture */
    unsigned long ends;        /* ... where a finished game made it leave greedy's set */
    unsigned long greedy_set;  /* ... that lie in greedy's set of largest captures */
    unsigned long p_moves;     /* positional-d1's moves */
    unsigned long p_declined;  /* ... that capture less than the most a move could */
    unsigned long agree, seen; /* d1-low against material-d1, move by move */
} stats;

/* The depth-one value of each legal move for the side to move: the seed
 * difference after it, a finished game scored as nk_eval_terminal does.
 * captured[m] gets the seeds the move captures, ended[m] whether it ends
 * the game.  Returns the legal mask. */
static unsigned depth_one(const nk_game *g, int *value, int *captured, bool *ended)
{
    unsigned legal = nk_game_legal(g);
    const int me = g->pos.side;
    static nk_game child; /* one thread: this program is serial */
    for (unsigned m = legal; m; m &= m - 1) {
        int mv = __builtin_ctz(m);
        child = *g;
        nk_ply_info info;
        nk_game_play_legal(&child, mv, &info);
        captured[mv] = (int)info.captured;
        ended[mv] = nk_game_over(&child);
        if (ended[mv]) {
            const nk_result *r = &child.result;
            int diff = (int)r->total[me] - (int)r->total[me ^ 1];
            value[mv] = r->winner == NK_DRAW ? 0
                        : r->winner == me    ? (diff > 1 ? diff : 1)
                                             : (diff < -1 ? diff : -1);
        } else {
            value[mv] = (int)child.pos.store[me] - (int)child.pos.store[me ^ 1];
        }
    }
    return legal;
}

/* The moves of mask with the largest key. */
static unsigned best_of(unsigned mask, const int *key)
{
    unsigned best = 0;
    int top = 0;
    for (unsigned m = mask; m; m &= m - 1) {
        int mv = __builtin_ctz(m);
        if (best == 0 || key[mv] > top) {
            top = key[mv];
            best = 0;
        }
        if (key[mv] == top)
            best |= 1u << mv;
    }
    return best;
}

static int pick(unsigned mask, bool lowest, nk_rng *rng)
{
    if (lowest)
        return __builtin_ctz(mask);
    unsigned k = nk_rng_below(rng, (unsigned)__builtin_popcount(mask));
    for (; k; k--)
        mask &= mask - 1;
    return __builtin_ctz(mask);
}

static int choose(int kind, nk_player *const *players, const nk_game *g, nk_rng *rng, stats *st)
{
    int value[NK_PITS + 1], captured[NK_PITS + 1];
    bool ended[NK_PITS + 1];
    unsigned legal = depth_one(g, value, captured, ended);
    unsigned most = best_of(legal, captured), top = best_of(legal, value);
    switch (kind) {
    case GREEDY_LOW:
        return pick(most, true, rng);
    case GREEDY_HIGH:
        return 31 - __builtin_clz(most);
    case D1_RAND:
        return pick(top, false, rng);
    case D1_LOW:
        return pick(top, true, rng);
    default: {
        int mv = nk_player_move(players[kind], g, rng, NULL);
        if (kind == MATERIAL1) {
            st->moves++;
            st->ties += __builtin_popcount(top) > 1;
            bool in = (most >> mv) & 1u;
            st->greedy_set += in;
            st->ends += !in && ended[mv];
            st->seen++;
            st->agree += __builtin_ctz(top) == mv;
        } else if (kind == POSITIONAL1) {
            st->p_moves++;
            st->p_declined += !((most >> mv) & 1u);
        }
        return mv;
    }
    }
}

/* One game from opening (2 random plies drawn with orng), a South, b
 * North; A's points. */
static double game(const nk_variant *v, int a, int b, nk_player *const *players, uint64_t seed,
                   stats *st)
{
    static nk_game g;
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    nk_game_init(&g, v, &start, NK_DEFAULT_PLY_LIMIT);
    nk_rng orng = {nk_seed_mix(seed, 1, 0)}, rng = {nk_seed_mix(seed, 2, 0)};
    for (int i = 0; i < 2 && !nk_game_over(&g); i++)
        nk_game_play_legal(&g, nk_random_move(&g, &orng), NULL);
    while (!nk_game_over(&g)) {
        int kind = g.pos.side == NK_SOUTH ? a : b;
        nk_game_play_legal(&g, choose(kind, players, &g, &rng, st), NULL);
    }
    return g.result.winner == NK_DRAW ? 0.5 : g.result.winner == NK_SOUTH ? 1.0 : 0.0;
}

static void match(const nk_variant *v, int a, int b, unsigned pairs, nk_player *const *players,
                  stats *st)
{
    nk_arena_tally t;
    nk_arena_init(&t);
    for (unsigned i = 0; i < pairs; i++) {
        uint64_t seed = nk_seed_mix(2024, (uint64_t)a * KINDS + (uint64_t)b, i);
        double p1 = game(v, a, b, players, seed, st);
        double p2 = 1.0 - game(v, b, a, players, seed, st);
        nk_arena_add_pair(&t, p1, 0, p2, 0);
    }
    nk_arena_stats s;
    nk_arena_stats_of(&t, &s);
    printf("%-14s %-14s %5u %5u %5u  %.3f  %+7.1f [%+.1f, %+.1f]\n", kind_name[a], kind_name[b],
           s.wins, s.draws, s.losses, s.score, s.elo, s.elo_lo, s.elo_hi);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: anomalies VARIANT PAIRS\n");
        return 2;
    }
    const nk_variant *v = nk_variant_find(argv[1]);
    unsigned pairs = (unsigned)strtoul(argv[2], NULL, 10);
    if (v == NULL || pairs == 0) {
        fprintf(stderr, "anomalies: unknown variant '%s' or no pairs\n", argv[1]);
        return 2;
    }
    nk_player *players[KINDS] = {NULL};
    char err[256];
    for (int k = 0; k < KINDS; k++) {
        if (kind_spec[k] == NULL)
            continue;
        nk_spec spec;
        if (nk_spec_parse(&spec, kind_spec[k], err, sizeof err) != NK_OK)
            return 2;
        if (nk_player_new(&players[k], &spec, v, NULL, 0, err, sizeof err) != NK_OK) {
            if (k != POSITIONAL1) {
                fprintf(stderr, "anomalies: %s\n", err);
                return 2;
            }
            players[k] = NULL; /* adjikui: positional does not suit relay sowing */
        }
    }
    printf("variant %s, %u colour-swapped pairs a match (random 2-ply openings)\n", v->name, pairs);
    printf("%-14s %-14s %5s %5s %5s  %5s  %s\n", "A", "B", "W", "D", "L", "score",
           "Elo of A [95%]");
    /* the matches; material-d1's figures come from the first, positional-d1's
     * from the last two, the agreement from d1-low's */
    static const int games[][2] = {
        {GREEDY, MATERIAL1},  {GREEDY_LOW, MATERIAL1}, {GREEDY_HIGH, MATERIAL1},
        {D1_RAND, MATERIAL1}, {GREEDY, D1_RAND},       {GREEDY, GREEDY_LOW},
        {D1_LOW, MATERIAL1},  {POSITIONAL1, D1_RAND},  {POSITIONAL1, MATERIAL1}};
    stats st, scratch;
    memset(&st, 0, sizeof st);
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        int a = games[i][0], b = games[i][1];
        if (players[a] == NULL && kind_spec[a] != NULL)
            continue; /* positional does not suit this variant */
        memset(&scratch, 0, sizeof scratch);
        stats *s = i == 0 || a == POSITIONAL1 ? &st : &scratch;
        match(v, a, b, pairs, players, s);
        if (a == D1_LOW) {
            st.agree = scratch.agree;
            st.seen = scratch.seen;
        }
    }
    printf("material-d1 against greedy: %lu moves; several moves tie for the best value in "
           "%.1f%%; the move lies in greedy's set of largest captures in %.1f%%, and leaves it "
           "for a finished game in %.1f%%\n",
           st.moves, 100.0 * st.ties / st.moves, 100.0 * st.greedy_set / st.moves,
           100.0 * st.ends / st.moves);
    printf("d1-low plays material-d1's move in %.2f%% of %lu positions\n",
           100.0 * st.agree / st.seen, st.seen);
    if (st.p_moves > 0)
        printf("positional-d1: %lu moves, %.1f%% of them capture less than the most a move "
               "could\n",
               st.p_moves, 100.0 * st.p_declined / st.p_moves);
    for (int k = 0; k < KINDS; k++)
        nk_player_free(players[k]);
    return 0;
}
