/*
 * benchmark.c -- the champion against the benchmark opponents (see
 * benchmark.h).
 */
#include "run/benchmark.h"

#include <string.h>

#include "arena/meetings.h"
#include "base/alloc.h"

bool nk_benchmark_due(unsigned every, unsigned g, unsigned generations)
{
    return every > 0 && (g == 0 || (g + 1) % every == 0 || g + 1 == generations);
}

nk_status nk_benchmark_play(const nk_benchmark *b, const nk_exec_player *champion, unsigned g,
                            nk_run_bench *rows, size_t *nrows, char *err, size_t len)
{
    size_t pairs = b->games / 2;
    nk_exec_player pl[2] = {*champion, {NULL, NULL, 0}};
    nk_meeting *meet = nk_calloc(pairs + 1, sizeof *meet);
    nk_status st = NK_OK;
    *nrows = 0;
    if (meet == NULL)
        st = nk_fail(NK_ENOMEM, err, len, "out of memory");
    for (size_t i = 0; st == NK_OK && i < pairs; i++)
        meet[i] = (nk_meeting){0, 1};
    for (size_t k = 0; st == NK_OK && k < b->n; k++) {
        pl[1] = b->opponents[k];
        nk_arena_setup setup = {.variant = b->variant,
                                .ply_limit = b->ply_limit,
                                .players = pl,
                                .nplayers = 2,
                                .master = b->master,
                                .batch = NK_BENCH_BATCH + g * (uint64_t)NK_EVO_MAX_SPECS + k,
                                .opening = b->opening,
                                .threads = b->threads};
        nk_arena_played played;
        st = nk_arena_play_meetings(&setup, meet, pairs, &played, err, len);
        nk_run_bench *row = &rows[(*nrows)++];
        memset(row, 0, sizeof *row);
        row->generation = (int32_t)g;
        size_t tl = strlen(pl[1].spec->text);
        if (tl >= sizeof row->opponent) /* nk_evo_alloc refuses such specs */
            tl = sizeof row->opponent - 1;
        memcpy(row->opponent, pl[1].spec->text, tl);
        for (size_t i = 0; st == NK_OK && i < pairs; i++) {
            row->wins += (int32_t)played.tally[i].wins;
            row->draws += (int32_t)played.tally[i].draws;
            row->losses += (int32_t)played.tally[i].losses;
        }
        row->score = pairs ? (row->wins + 0.5 * row->draws) / (double)(2 * pairs) : 0;
        nk_arena_played_free(&played);
    }
    nk_free(meet);
    return st;
}
