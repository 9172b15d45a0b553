/*
 * match.c -- series of games: the Warri match (R-W13) and the Adji Kui II
 * match with bought pits (R-K8..R-K10).  Player 0 sits South and player 1
 * North for the whole match; the first player alternates game by game.
 *
 * Decision (R-K9): a drawn game gives both players their own rows again,
 * whatever they owned before; ownership after a won game is computed from
 * the default rows and that game's totals alone.
 */
#include "rules/internal.h"

enum { WARRI_MATCH_WINS = 6 };

void nk_match_init(nk_match *m, const nk_variant *v, int first_player, unsigned game_limit)
{
    m->variant = v;
    m->game_limit = game_limit ? game_limit : 1;
    m->games = 0;
    m->wins[0] = m->wins[1] = 0;
    m->draws = 0;
    m->first = first_player ? 1 : 0;
    m->north = NK_DEFAULT_NORTH;
    m->winner = -1;
}

void nk_match_next(const nk_match *m, nk_pos *start)
{
    nk_pos_start(start, m->first == 0 ? NK_SOUTH : NK_NORTH);
    start->north = m->north;
    start->hash = nk_pos_hash(start);
}

uint16_t nk_adjikui_buy(int winner, unsigned w, unsigned l)
{
    if (winner != NK_SOUTH && winner != NK_NORTH)
        return NK_DEFAULT_NORTH;
    unsigned half = (w + l) / 2;
    unsigned surplus = w > half ? w - half : 0;
    unsigned k = surplus / 4, r = surplus % 4;
    if (k > NK_ROW)
        k = NK_ROW;
    /* The loser's row, from his foot: k pits to the winner, then the odd
     * pit (to the winner when r >= 3), then the loser's floor(L/4) pits. */
    unsigned gained = k + (r >= 3 && k < NK_ROW ? 1u : 0u);
    unsigned loser_foot = winner == NK_SOUTH ? NK_ROW : 0;
    uint16_t north = NK_DEFAULT_NORTH;
    for (unsigned i = 0; i < gained; i++) {
        unsigned pit = loser_foot + i;
        if (winner == NK_SOUTH)
            north = (uint16_t)(north & ~(1u << pit));
        else
            north = (uint16_t)(north | (1u << pit));
    }
    return north;
}

void nk_match_record(nk_match *m, const nk_result *r)
{
    if (nk_match_over(m))
        return;
    m->games++;
    if (r->winner == NK_DRAW)
        m->draws++;
    else
        m->wins[r->winner]++; /* player i sits on side i */
    m->first ^= 1;            /* R-W13, R-K8 */
    if (m->variant->sowing == NK_SOW_RELAY) {
        if (r->winner != NK_DRAW)
            m->north = nk_adjikui_buy(r->winner, r->total[r->winner], r->total[r->winner ^ 1]);
        else
            m->north = NK_DEFAULT_NORTH;
        unsigned north_pits = nk_popcount12(m->north);
        if (north_pits == 0 || north_pits == NK_PITS) { /* R-K10 */
            m->winner = north_pits == 0 ? 0 : 1;
        } else if (m->games >= m->game_limit) {
            unsigned south_pits = NK_PITS - north_pits;
            m->winner = south_pits > north_pits ? 0 : north_pits > south_pits ? 1 : NK_DRAW;
        }
        return;
    }
    if (m->wins[0] >= WARRI_MATCH_WINS || m->wins[1] >= WARRI_MATCH_WINS)
        m->winner = m->wins[0] >= WARRI_MATCH_WINS ? 0 : 1;
    else if (m->games >= m->game_limit)
        m->winner = m->wins[0] > m->wins[1] ? 0 : m->wins[1] > m->wins[0] ? 1 : NK_DRAW;
}
