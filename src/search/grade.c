/*
 * grade.c -- a player against perfect play (grade.h).
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "base/rng.h"
#include "search/grade.h"

nk_status nk_grade_pattern0(const nk_tb *tb, char *err, size_t errlen)
{
    if (nk_tb_holds_pattern(tb, 0))
        return NK_OK;
    char list[40];
    nk_tb_patterns_text(tb, list, sizeof list);
    return nk_fail(NK_EINVAL, err, errlen,
                   "the games graded start from the default rows (ownership pattern 0), "
                   "which the database (built for patterns %s) does not hold",
                   list);
}

nk_status nk_grade_play(const nk_tb *tb, nk_player *player, nk_player *reference,
                        uint64_t want, uint64_t seed, nk_grade *out, char *err, size_t errlen)
{
    const nk_variant *v = tb->variant;
    nk_grade z = {0};
    *out = z;
    nk_status st = nk_grade_pattern0(tb, err, errlen);
    if (st != NK_OK)
        return st;
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
        uint64_t n = 0, opt = 0; /* this game's sums (a cluster) */
        double lsum = 0;
        while (!nk_game_over(g) && out->positions + n < want) {
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
                n++;
                /* Speightstown: optimal keeps the result (R-W12). */
                if (tb->planes == 2)
                    opt += nk_tb_outcome(tb, &g->pos, val[mv], opp[mv]) == best_out;
                else
                    opt += lost == 0;
                lsum += lost;
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
        nk_grade_add_game(out, n, opt, lsum);
    }
    free(g);
    return NK_OK;
}

void nk_grade_add_game(nk_grade *g, uint64_t positions, uint64_t optimal, double loss)
{
    if (positions == 0)
        return;
    const double n = (double)positions, o = (double)optimal;
    g->positions += positions;
    g->optimal += optimal;
    g->loss += loss;
    g->clusters++;
    g->pos2 += n * n;
    g->opt_pos += o * n;
    g->opt2 += o * o;
    g->loss_pos += loss * n;
    g->lossg2 += loss * loss;
}

/* The ratio R = sum y / sum n and the half width of its cluster-robust 95%
 * interval (grade.h) from the sums over G clusters; NAN when G < 2. */
static double ratio_half(double y, double y2, double yn, const nk_grade *g, double *ratio)
{
    const double N = (double)g->positions, G = (double)g->clusters;
    const double r = y / N;
    *ratio = r;
    if (g->clusters < 2)
        return NAN;
    double ss = y2 - 2 * r * yn + r * r * g->pos2; /* sum (y_g - R n_g)^2 */
    if (ss < 0)
        ss = 0; /* rounding */
    return gsl_cdf_tdist_Pinv(0.975, G - 1) * sqrt(G / (G - 1) * ss) / N;
}

void nk_grade_summary(const nk_grade *g, double share[3], double lost[3])
{
    for (int k = 0; k < 3; k++)
        share[k] = lost[k] = 0;
    if (g->positions == 0)
        return;
    double p, mean;
    const double ph = ratio_half((double)g->optimal, g->opt2, g->opt_pos, g, &p);
    const double mh = ratio_half(g->loss, g->lossg2, g->loss_pos, g, &mean);
    share[0] = p;
    share[1] = p - ph > 0 ? p - ph : (isnan(ph) ? NAN : 0.0);
    share[2] = p + ph < 1 ? p + ph : (isnan(ph) ? NAN : 1.0);
    lost[0] = mean;
    lost[1] = mean - mh > 0 ? mean - mh : (isnan(mh) ? NAN : 0.0);
    lost[2] = mean + mh;
}

void nk_grade_per_game(const nk_grade *g, uint64_t games, double lost[3])
{
    lost[0] = lost[1] = lost[2] = 0;
    if (games == 0)
        return;
    const double G = (double)games, mean = g->loss / G;
    lost[0] = mean;
    if (games < 2) {
        lost[1] = lost[2] = NAN;
        return;
    }
    double var = (g->lossg2 - G * mean * mean) / (G - 1);
    const double half = gsl_cdf_tdist_Pinv(0.975, G - 1) * sqrt(var > 0 ? var / G : 0);
    lost[1] = mean - half > 0 ? mean - half : 0.0;
    lost[2] = mean + half;
}
