/*
 * variant.c -- the six rule sets as data (docs/rules.md).
 *
 * Everything that differs between the variants is a field of nk_variant:
 * the engine never asks which variant it plays.  The end rules follow the
 * sowing kind: the Warri sowing comes with majority, empty-row and no-feed
 * (R-W6, R-W7, R-W9), the relay with few-seeds and passes (R-K4, R-K5);
 * `ends` lists them; the engine reads it for the majority and for the
 * relay's end rules.  The remain[] rows are the seed-distribution rules of
 * R-W6..R-W11 and R-K6 per end reason:
 *   antigua, abapa, awari: majority -> not counted; every other end -> each player
 *     takes his own row (after R-W7 the seeds are all in the mover's row, after
 *     R-W9 all in the opponent's, so "own row" is "mover" and "opponent" there);
 *   speightstown: no-feed and empty-row -> the starved player takes the seeds,
 *     which lie in the other row (OTHER); majority, repetition -> not counted;
 *   bridgetown: every end -> split (R-W11);
 *   adjikui: every end -> each takes the pits he owns (R-K6).
 */
#include <string.h>

#include "rules/internal.h"

#define BIT(e) (1u << (e))
#define WARRI_ENDS                                                                                 \
    (BIT(NK_END_MAJORITY) | BIT(NK_END_EMPTY_ROW) | BIT(NK_END_NO_FEED) | BIT(NK_END_REPETITION) | \
     BIT(NK_END_PLY_LIMIT))
#define RELAY_ENDS                                                                                 \
    (BIT(NK_END_FEW_SEEDS) | BIT(NK_END_PASSES) | BIT(NK_END_REPETITION) | BIT(NK_END_PLY_LIMIT))

/* antigua and abapa: majority not counted, every other end to the rows. */
#define OWN_ROWS_REMAIN                                                                            \
    {                                                                                              \
        [NK_END_MAJORITY] = NK_REMAIN_NONE, [NK_END_EMPTY_ROW] = NK_REMAIN_OWN,                    \
        [NK_END_NO_FEED] = NK_REMAIN_OWN, [NK_END_REPETITION] = NK_REMAIN_OWN,                     \
        [NK_END_PLY_LIMIT] = NK_REMAIN_OWN                                                         \
    }

static const nk_variant variants[] = {
    {
        .name = "antigua",
        .title = "Warri as played in Antigua and Barbuda (grand slam captures, mover plays again)",
        .sowing = NK_SOW_WARRI,
        .grand_slam_captures = true,
        .grand_slam_replays = true,
        .win_needs_majority = false,
        .min_sow = 1,
        .max_laps = 1,
        .ends = WARRI_ENDS,
        .remain = OWN_ROWS_REMAIN,
    },
    {
        .name = "speightstown",
        .title =
            "Barbados Warri, Speightstown (starved player takes the rest, win needs a majority)",
        .sowing = NK_SOW_WARRI,
        .grand_slam_captures = true,
        .grand_slam_replays = false,
        .win_needs_majority = true,
        .min_sow = 1,
        .max_laps = 1,
        .ends = WARRI_ENDS,
        .remain = {[NK_END_MAJORITY] = NK_REMAIN_NONE,
                   [NK_END_EMPTY_ROW] = NK_REMAIN_OTHER,
                   [NK_END_NO_FEED] = NK_REMAIN_OTHER,
                   [NK_END_REPETITION] = NK_REMAIN_NONE,
                   [NK_END_PLY_LIMIT] = NK_REMAIN_NONE},
    },
    {
        .name = "bridgetown",
        .title = "Barbados Warri, Bridgetown (seeds left on the board are split)",
        .sowing = NK_SOW_WARRI,
        .grand_slam_captures = true,
        .grand_slam_replays = false,
        .win_needs_majority = false,
        .min_sow = 1,
        .max_laps = 1,
        .ends = WARRI_ENDS,
        .remain = {[NK_END_MAJORITY] = NK_REMAIN_SPLIT,
                   [NK_END_EMPTY_ROW] = NK_REMAIN_SPLIT,
                   [NK_END_NO_FEED] = NK_REMAIN_SPLIT,
                   [NK_END_REPETITION] = NK_REMAIN_SPLIT,
                   [NK_END_PLY_LIMIT] = NK_REMAIN_SPLIT},
    },
    {
        .name = "adjikui",
        .title =
            "Adji Kui II, Matanzas, Cuba (relay sowing, capture fours, match with bought pits)",
        .sowing = NK_SOW_RELAY,
        .grand_slam_captures = true,
        .grand_slam_replays = false,
        .win_needs_majority = false,
        .min_sow = 2,
        .max_laps = 1000,
        .ends = RELAY_ENDS,
        .remain = {[NK_END_FEW_SEEDS] = NK_REMAIN_OWN,
                   [NK_END_PASSES] = NK_REMAIN_OWN,
                   [NK_END_REPETITION] = NK_REMAIN_OWN,
                   [NK_END_PLY_LIMIT] = NK_REMAIN_OWN},
    },
    {
        .name = "abapa",
        .title = "Standard tournament Oware, Abapa rules (grand slam captures nothing)",
        .sowing = NK_SOW_WARRI,
        .grand_slam_captures = false,
        .grand_slam_replays = false,
        .win_needs_majority = false,
        .min_sow = 1,
        .max_laps = 1,
        .ends = WARRI_ENDS,
        .remain = OWN_ROWS_REMAIN,
    },
    {
        .name = "awari",
        .title = "Awari as Daoud et al. (CEC 2004) state it (grand slam captures; else Abapa)",
        .sowing = NK_SOW_WARRI,
        .grand_slam_captures = true,
        .grand_slam_replays = false,
        .win_needs_majority = false,
        .min_sow = 1,
        .max_laps = 1,
        .ends = WARRI_ENDS,
        .remain = OWN_ROWS_REMAIN,
    },
};

static const char *const end_names[NK_END_COUNT] = {
    [NK_END_NONE] = "none",
    [NK_END_MAJORITY] = "majority",
    [NK_END_EMPTY_ROW] = "empty-row",
    [NK_END_NO_FEED] = "no-feed",
    [NK_END_FEW_SEEDS] = "few-seeds",
    [NK_END_PASSES] = "passes",
    [NK_END_REPETITION] = "repetition",
    [NK_END_PLY_LIMIT] = "ply-limit",
    [NK_END_TIMEOUT] = "forfeit-time",
    [NK_END_CRASH] = "forfeit-crash",
    [NK_END_ILLEGAL] = "forfeit-illegal",
    [NK_END_GARBAGE] = "forfeit-garbage",
    [NK_END_REFUSED] = "forfeit-refused",
};

size_t nk_variant_count(void)
{
    return sizeof variants / sizeof variants[0];
}

const nk_variant *nk_variant_at(size_t i)
{
    return i < nk_variant_count() ? &variants[i] : NULL;
}

const char *nk_variant_name_at(size_t i)
{
    return i < nk_variant_count() ? variants[i].name : NULL;
}

const nk_variant *nk_variant_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < nk_variant_count(); i++)
        if (strcmp(variants[i].name, name) == 0)
            return &variants[i];
    return NULL;
}

const char *nk_end_name(nk_end reason)
{
    if ((unsigned)reason >= NK_END_COUNT)
        return "unknown";
    return end_names[reason];
}
