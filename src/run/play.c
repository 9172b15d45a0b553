/*
 * play.c -- the table of the play settings (contract in play.h).
 */
#include "run/play.h"
#include "run/settings.h"

#define PLAY_ROW(P, sec, nm, field, T, ctype, ...)                                                 \
    NK_PARAM_DESCRIBE(nk_play_settings, field, sec, nm, T, __VA_ARGS__)

const nk_param nk_play_table[NK_PLAY_ROWS] = {NK_PLAY_PARAMS(PLAY_ROW, _)};

void nk_play_settings_defaults(nk_play_settings *s)
{
    *s = (nk_play_settings){0};
    nk_param_defaults(nk_play_table, NK_PLAY_ROWS, s);
}
