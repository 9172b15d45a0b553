/*
 * sprt_llr.c -- the SPRT's log-likelihood ratios of pentanomial counts, for
 * tests/test_sprt_reference.py (an independent recomputation in scipy).
 *
 *     sprt_llr < lines
 *
 * Each line "ELO0 ELO1 N0 N1 N2 N3 N4" (the pairs by A's half points, 0..4)
 * gives one line "GSPRT NORMAL": nk_arena_sprt's LLR of a tally of those
 * pairs under model gsprt and under model normal, %.12g.  A pair of 2 half
 * points is counted as two draws (the score and the pentanomial counts do
 * not depend on it).  Exit 1 on a malformed line or a refused test.
 */
#include <stdio.h>

#include "arena/arena.h"

int main(void)
{
    double elo0, elo1;
    unsigned n[5];
    /* A's points in the two games of a pair of 0..4 half points */
    static const double games[5][2] = {{0, 0}, {0.5, 0}, {0.5, 0.5}, {1, 0.5}, {1, 1}};
    while (scanf("%lf %lf %u %u %u %u %u", &elo0, &elo1, &n[0], &n[1], &n[2], &n[3], &n[4]) == 7) {
        nk_arena_tally t;
        nk_arena_init(&t);
        for (int k = 0; k < 5; k++)
            for (unsigned i = 0; i < n[k]; i++)
                nk_arena_add_pair(&t, games[k][0], 0, games[k][1], 0);
        nk_sprt g, a;
        char err[256];
        if (nk_arena_sprt(&t, NK_SPRT_GSPRT, elo0, elo1, 0.05, 0.05, &g, err, sizeof err) !=
                NK_OK ||
            nk_arena_sprt(&t, NK_SPRT_NORMAL, elo0, elo1, 0.05, 0.05, &a, err, sizeof err) !=
                NK_OK) {
            fprintf(stderr, "sprt_llr: %s\n", err);
            return 1;
        }
        printf("%.12g %.12g\n", g.llr, a.llr);
    }
    return feof(stdin) ? 0 : 1;
}
