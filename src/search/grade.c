/*
 * grade.c -- a player against perfect play (grade.h).
 */
#include <math.h>
#include <stdlib.h>

#include "base/rng.h"
#include "search/grade.h"

nk_status nk_grade_play(const nk_tb *tb, nk_player *player, nk_player *reference,
                        uint64_t want, uint64_t seed, nk_grade *out, char *err, size_t errlen)
{
    const nk_variant *v = tb->variant;
    nk_grade z = {0};
    *out = z;
    if (!nk_tb_holds_pattern(tb, 0)) {
        char list[40];
        nk_tb_patterns_text(tb, list, sizeof list);
        return nk_fail(NK_EINVAL, err, errlen,
                       "the games graded start from the default rows (ownership pattern 0), "
                       "which the database (built for patterns %s) does not hold",
                       list);
    }
    nk_game *g = malloc(sizeof *g);
    if (g == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for grading");
    nk_rng rng = {seed};                                 /* openings, reference */
    nk_rng prng = {nk_seed_mix(seed, 0x67726164ull, 1)}; /* the graded player */
    const uint64_t max_games = 100 * want + 100;
    while (out->positions < want && out->games < max_games) {
        nk_pos start;
        nk_pos_start(&start, NK_SOUTH);
        nk_game_init(g, v, &start, NK_DEFAULT_PLY_LIMIT);
        out->games++;
        for (unsigned k = 0; k < NK_GRADE_OPENING && !nk_game_over(g); k++)
            nk_game_play_legal(g, nk_random_move(g, &rng), NULL);
        while (!nk_game_over(g) && out->positions < want) {
            unsigned mask;
            int val[NK_PASS + 1], opp[NK_PASS + 1];
            if (nk_pos_on_board(&g->pos) <= tb->seeds &&
                nk_tb_move_pairs(tb, &g->pos, &mask, val, opp, NULL) == NK_OK &&
                (mask & (mask - 1)) != 0) {
                int best = -1, best_out = -1;
                for (unsigned m = mask; m; m &= m - 1) {
                    const int k = __builtin_ctz(m);
                    const int o = nk_tb_outcome(tb, &g->pos, val[k], opp[k]);
                    if (val[k] > best)
                        best = val[k];
                    if (o > best_out)
                        best_out = o;
                }
                int mv = nk_player_move(player, g, &prng, NULL);
                if (mv == NK_NO_MOVE) /* a forfeit (search/ext.h): the worst move */
                    for (unsigned m = mask; m; m &= m - 1)
                        if (mv < 0 || val[__builtin_ctz(m)] < val[mv])
                            mv = __builtin_ctz(m);
                double lost = best - val[mv];
                out->positions++;
                /* Speightstown: optimal keeps the result (R-W12). */
                if (tb->planes == 2)
                    out->optimal += nk_tb_outcome(tb, &g->pos, val[mv], opp[mv]) == best_out;
                else
                    out->optimal += lost == 0;
                out->loss += lost;
                out->loss2 += lost * lost;
                uint8_t byte;
                if (nk_tb_probe(tb, &g->pos, &byte) == NK_OK && (byte & NK_TB_CYCLE))
                    out->cycle++;
            }
            int ref = nk_player_move(reference, g, &rng, NULL);
            if (ref == NK_NO_MOVE) /* a forfeit of the reference: the next game */
                break;
            nk_game_play_legal(g, ref, NULL);
        }
    }
    free(g);
    return NK_OK;
}

void nk_grade_summary(const nk_grade *g, double share[3], double lost[3])
{
    for (int k = 0; k < 3; k++)
        share[k] = lost[k] = 0;
    if (g->positions == 0)
        return;
    /* Wilson's interval for the share, the normal one for the mean. */
    const double z = 1.959964, N = (double)g->positions, p = (double)g->optimal / N;
    const double centre = (p + z * z / (2 * N)) / (1 + z * z / N);
    const double half = z * sqrt(p * (1 - p) / N + z * z / (4 * N * N)) / (1 + z * z / N);
    const double mean = g->loss / N;
    const double var = g->positions > 1 ? (g->loss2 - N * mean * mean) / (N - 1) : 0;
    const double mhalf = z * sqrt(var > 0 ? var / N : 0);
    share[0] = p;
    share[1] = centre - half;
    share[2] = centre + half;
    lost[0] = mean;
    lost[1] = mean - mhalf > 0 ? mean - mhalf : 0.0;
    lost[2] = mean + mhalf;
}
