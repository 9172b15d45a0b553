/*
 * ref_tool.c -- a small command-line driver of the reference implementation,
 * used to compute the perft counts hard-coded in tests/test_rules_perft.c and
 * to try positions by hand.  Not part of the build; compile with
 *
 *   cc -std=c17 -O2 -o ref_tool tests/reference/ref_tool.c
 *
 * Usage:
 *   ref_tool perft VARIANT DEPTH [POSITION]     perft(1..DEPTH)
 *   ref_tool play VARIANT POSITION [MOVES...]   plays moves, prints each ply
 */
#include "reference.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int move_of(char c)
{
    if (c == '-')
        return REF_PASS;
    if (c >= 'a' && c <= 'f')
        return c - 'a';
    if (c >= 'A' && c <= 'F')
        return 6 + (c - 'A');
    return -1;
}

static void print_state(const ref_game *g)
{
    char text[128];
    ref_result r;
    ref_format(&g->hist[g->n], text, sizeof text);
    ref_game_result(g, &r);
    printf("ply %d: %s", g->n, text);
    if (r.reason != REF_NONE)
        printf("  END %s %d-%d winner %s", ref_reason_name(r.reason),
               r.total[0], r.total[1],
               r.winner == REF_SOUTH   ? "S"
               : r.winner == REF_NORTH ? "N"
                                       : "draw");
    else {
        unsigned mask = ref_game_legal(g);
        printf("  legal:");
        for (int m = 0; m <= REF_PASS; m++)
            if (mask & (1u << m))
                printf(" %c", ref_move_letter(m));
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: ref_tool perft|play VARIANT ...\n");
        return 2;
    }
    int v = ref_variant_find(argv[2]);
    if (v < 0) {
        fprintf(stderr, "unknown variant %s\n", argv[2]);
        return 2;
    }
    ref_pos start;
    ref_game g;
    if (strcmp(argv[1], "perft") == 0) {
        int depth = atoi(argv[3]);
        ref_start(&start, REF_SOUTH);
        if (argc > 4 && !ref_parse(&start, argv[4])) {
            fprintf(stderr, "bad position\n");
            return 2;
        }
        ref_game_init(&g, v, &start, REF_DEFAULT_PLY_LIMIT,
                      REF_DEFAULT_MAX_LAPS);
        for (int d = 1; d <= depth; d++) {
            printf("%s perft(%d) = %llu\n", argv[2], d, ref_perft(&g, d));
            fflush(stdout);
        }
        ref_game_free(&g);
        return 0;
    }
    if (!ref_parse(&start, argv[3])) {
        fprintf(stderr, "bad position\n");
        return 2;
    }
    ref_game_init(&g, v, &start, REF_DEFAULT_PLY_LIMIT, REF_DEFAULT_MAX_LAPS);
    print_state(&g);
    for (int i = 4; i < argc; i++) {
        ref_move mv;
        int m = move_of(argv[i][0]);
        if (!ref_game_play(&g, m, &mv)) {
            printf("illegal: %s\n", argv[i]);
            return 1;
        }
        printf("  %c: captured %d laps %d%s\n", ref_move_letter(m),
               mv.captured, mv.laps, mv.grand_slam ? " grand-slam" : "");
        print_state(&g);
    }
    ref_game_free(&g);
    return 0;
}
