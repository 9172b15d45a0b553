/*
 * test_run_play.c -- the play settings (run/play.h): every config key that
 * is a play setting has the type, default, range and choices of the play
 * table's row, the row the command-line options read (cli/util.h,
 * NK_OPT_PLAY; tests/test_cli_play_table.sh checks the commands' side), and
 * the rows agree with the engine's own limits.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arena/meetings.h"
#include "base/param.h"
#include "io/config.h"
#include "rules/rules.h"
#include "run/play.h"
#include "run/settings.h"

/* The config keys that are play settings, and their rows. */
static const struct {
    const char *key;
    int row;
} shared[] = {
    {"experiment.seed", NK_PLAY_ROW_seed},
    {"player.ply_limit", NK_PLAY_ROW_ply_limit},
    {"fitness.openings", NK_PLAY_ROW_openings},
    {"fitness.unit", NK_PLAY_ROW_unit},
    {"fitness.match_games", NK_PLAY_ROW_match_games},
};
enum { NSHARED = sizeof shared / sizeof shared[0] };

static bool same_text(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Why the config key k and the play row r differ ("" when they agree in
 * type, range, choices and rule; the default is compared by the caller). */
static const char *difference(const nk_param *k, const nk_param *r)
{
    if (k->type != r->type)
        return "type";
    if (k->flags != r->flags || k->min != r->min || k->max != r->max)
        return "range";
    if (k->check != r->check || !same_text(k->rule, r->rule))
        return "rule";
    for (size_t i = 0;; i++) {
        const char *a = nk_param_choice(k, i), *b = nk_param_choice(r, i);
        if (!same_text(a, b))
            return "choices";
        if (a == NULL)
            return "";
    }
}

static void test_config_keys_are_rows(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSHARED; i++) {
        const nk_param *k = nk_config_key_find(shared[i].key);
        const nk_param *r = &nk_play_table[shared[i].row];
        assert_non_null(k);
        const char *why = difference(k, r);
        if (why[0] != '\0')
            fail_msg("%s and the play row %s differ in %s", shared[i].key, r->name, why);
        /* one default, but for the unit's (run/play.h says why) */
        if (shared[i].row == NK_PLAY_ROW_unit) {
            assert_string_equal(k->def, "auto");
            assert_string_equal(r->def, "game");
        } else if (!same_text(k->def, r->def)) {
            fail_msg("%s: default %s in a config, %s on the command line", shared[i].key, k->def,
                     r->def);
        }
    }
}

/* The comparison itself notices a planted difference. */
static void test_a_planted_difference_is_found(void **state)
{
    (void)state;
    const nk_param *r = &nk_play_table[NK_PLAY_ROW_openings];
    nk_param k = *nk_config_key_find("fitness.openings");
    assert_string_equal(difference(&k, r), "");
    k.max = 100; /* the command line's old cap */
    assert_string_equal(difference(&k, r), "range");
    k = *r;
    k.type = NK_PARAM_UINT64;
    assert_string_equal(difference(&k, r), "type");
    k = *nk_config_key_find("fitness.unit");
    k.choices = NK_CHOICES("game", "match");
    k.choice_at = NULL;
    assert_string_equal(difference(&k, &nk_play_table[NK_PLAY_ROW_unit]), "choices");
}

/* The rows hold the engine's limits: the ply limit of rules/rules.h, the
 * match limits of arena/meetings.h. */
static void test_rows_hold_the_engine_limits(void **state)
{
    (void)state;
    const nk_param *ply = &nk_play_table[NK_PLAY_ROW_ply_limit];
    assert_int_equal(atoi(ply->def), NK_DEFAULT_PLY_LIMIT);
    assert_true(ply->max == NK_MAX_PLIES && ply->min == 1);
    const nk_param *mg = &nk_play_table[NK_PLAY_ROW_match_games];
    assert_int_equal(atoi(mg->def), NK_MATCH_GAMES_DEFAULT);
    assert_true(mg->max == NK_MATCH_GAMES_MAX && mg->min == 1);
    const nk_param *unit = &nk_play_table[NK_PLAY_ROW_unit];
    for (size_t i = 0; nk_param_choice(unit, i) != NULL; i++) {
        nk_arena_unit u;
        const char *c = nk_param_choice(unit, i);
        assert_true(strcmp(c, "auto") == 0 || nk_arena_unit_parse(c, &u));
    }
}

/* Every row: its default lies in its range, and the defaults fill
 * nk_play_settings. */
static void test_defaults(void **state)
{
    (void)state;
    char canon[64], why[256];
    for (size_t i = 0; i < NK_PLAY_ROWS; i++) {
        const nk_param *r = &nk_play_table[i];
        if (r->def == NULL || r->type == NK_PARAM_ENUM)
            continue;
        if (nk_param_parse_scalar(r, r->def, canon, sizeof canon, why, sizeof why) != NK_OK)
            fail_msg("%s: default %s: %s", r->name, r->def, why);
        assert_string_equal(canon, r->def);
    }
    nk_play_settings s;
    nk_play_settings_defaults(&s);
    assert_int_equal(s.seed, 1);
    assert_int_equal(s.games, 100);
    assert_int_equal(s.pairing_games, 20);
    assert_int_equal(s.openings, 2);
    assert_int_equal(s.threads, 0);
    assert_int_equal(s.ply_limit, NK_DEFAULT_PLY_LIMIT);
    assert_string_equal(s.unit, "game");
    assert_int_equal(s.match_games, NK_MATCH_GAMES_DEFAULT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_keys_are_rows),
        cmocka_unit_test(test_a_planted_difference_is_found),
        cmocka_unit_test(test_rows_hold_the_engine_limits),
        cmocka_unit_test(test_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
