/*
 * lib_game.c -- the public API's version, status codes, variants, moves,
 * positions and games (include/nickar.h), over the rules layer.
 *
 * The public types mirror the engine's without exposing them: nickar_status
 * has nk_status's values (checked below at compile time), a nickar_position
 * is an nk_pos as plain ints, a nickar_game wraps an nk_game.  Nothing here
 * prints or keeps state between calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib_internal.h"

#include "base/status.h"

_Static_assert((int)NICKAR_ENOFILE == (int)NK_ENOFILE && (int)NICKAR_EINVAL == (int)NK_EINVAL &&
                   (int)NICKAR_EOVER == (int)NK_EOVER && (int)NICKAR_ENOMEM == (int)NK_ENOMEM,
               "nickar_status must keep nk_status's values");
_Static_assert(NICKAR_PITS == NK_PITS && NICKAR_PASS == NK_PASS && NICKAR_NO_MOVE == NK_NO_MOVE &&
                   NICKAR_DRAW == NK_DRAW && NICKAR_POS_TEXT == NK_POS_TEXT &&
                   NICKAR_MAX_PLY_LIMIT == NK_MAX_PLIES &&
                   NICKAR_DEFAULT_PLY_LIMIT == NK_DEFAULT_PLY_LIMIT,
               "the header's constants must be the engine's");

/* ===== version, status ===== */

const char *nickar_version(void)
{
    return NICKAR_VERSION;
}

int nickar_api_version(void)
{
    return NICKAR_API_VERSION;
}

const char *nickar_strerror(nickar_status status)
{
    return nk_strerror((nk_status)status);
}

/* ===== variants ===== */

size_t nickar_variant_count(void)
{
    return nk_variant_count();
}

const char *nickar_variant_name(size_t i)
{
    return i < nk_variant_count() ? nk_variant_at(i)->name : NULL;
}

const char *nickar_variant_title(size_t i)
{
    return i < nk_variant_count() ? nk_variant_at(i)->title : NULL;
}

int nickar_variant_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < nk_variant_count(); i++)
        if (strcmp(nk_variant_at(i)->name, name) == 0)
            return (int)i;
    return -1;
}

const nk_variant *nk_lib_variant(const char *name, char *err, size_t errlen)
{
    const nk_variant *v = name != NULL ? nk_variant_find(name) : NULL;
    if (v == NULL) {
        char list[256] = "";
        for (size_t i = 0; i < nk_variant_count(); i++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                     nk_variant_at(i)->name);
        }
        nk_fail(NK_EINVAL, err, errlen, "unknown variant '%s'; valid variants: %s",
                name != NULL ? name : "(null)", list);
    }
    return v;
}

/* ===== moves ===== */

char nickar_move_letter(int move)
{
    return move >= 0 && move <= NK_PASS ? nk_move_letter(move) : '?';
}

int nickar_move_parse(char letter)
{
    return nk_move_parse(letter);
}

/* ===== positions ===== */

static void position_of(const nk_pos *p, nickar_position *out)
{
    for (int i = 0; i < NK_PITS; i++)
        out->pit[i] = p->pit[i];
    out->store[0] = p->store[0];
    out->store[1] = p->store[1];
    out->side = p->side;
    out->north = p->north;
    out->passes = (int)nk_pos_passes(p);
}

nickar_status nickar_position_parse(const char *text, nickar_position *out, char *err,
                                    size_t errlen)
{
    nk_pos p;
    nk_status st = nk_pos_parse(&p, text, err, errlen);
    if (st == NK_OK)
        position_of(&p, out);
    return (nickar_status)st;
}

nickar_status nickar_position_format(const nickar_position *pos, char out[NICKAR_POS_TEXT],
                                     char *err, size_t errlen)
{
    nk_pos p;
    memset(&p, 0, sizeof p);
    int total = pos->store[0] + pos->store[1];
    for (int i = 0; i < NK_PITS; i++) {
        if (pos->pit[i] < 0 || pos->pit[i] > 255)
            return (nickar_status)nk_fail(NK_ERANGE, err, errlen,
                                          "pit %c holds %d seeds; 0..255 are allowed",
                                          nk_move_letter(i), pos->pit[i]);
        p.pit[i] = (uint8_t)pos->pit[i];
        total += pos->pit[i];
    }
    for (int s = 0; s < 2; s++)
        if (pos->store[s] < 0 || pos->store[s] > 255)
            return (nickar_status)nk_fail(NK_ERANGE, err, errlen,
                                          "%s's store holds %d seeds; 0..255 are allowed",
                                          s ? "North" : "South", pos->store[s]);
    if (total > 255)
        return (nickar_status)nk_fail(NK_ERANGE, err, errlen,
                                      "%d seeds in all; at most 255 are allowed", total);
    if (pos->side != NK_SOUTH && pos->side != NK_NORTH)
        return (nickar_status)nk_fail(NK_EINVAL, err, errlen,
                                      "side to move %d; 0 (South) or 1 (North) is allowed",
                                      pos->side);
    if (pos->north > 0xFFFu)
        return (nickar_status)nk_fail(NK_EINVAL, err, errlen,
                                      "owners mask 0x%X has bits above pit F (0xFFF)", pos->north);
    p.store[0] = (uint8_t)pos->store[0];
    p.store[1] = (uint8_t)pos->store[1];
    p.side = (uint8_t)pos->side;
    p.north = (uint16_t)pos->north;
    nk_pos_format(&p, out);
    return NICKAR_OK;
}

void nickar_position_start(nickar_position *out, int side_to_move)
{
    nk_pos p;
    nk_pos_start(&p, side_to_move);
    position_of(&p, out);
}

/* ===== games ===== */

nickar_status nickar_game_new(nickar_game **out, const char *variant, const char *position,
                              unsigned ply_limit, char *err, size_t errlen)
{
    *out = NULL;
    const nk_variant *v = nk_lib_variant(variant, err, errlen);
    if (v == NULL)
        return NICKAR_EINVAL;
    nk_pos start;
    if (position == NULL) {
        nk_pos_start(&start, NK_SOUTH);
    } else {
        nk_status st = nk_pos_parse(&start, position, err, errlen);
        if (st != NK_OK)
            return (nickar_status)st;
    }
    if (ply_limit > NK_MAX_PLIES)
        return (nickar_status)nk_fail(NK_ERANGE, err, errlen,
                                      "ply limit %u; 1..%d are allowed (0: the default, %d)",
                                      ply_limit, NK_MAX_PLIES, NK_DEFAULT_PLY_LIMIT);
    nickar_game *g = malloc(sizeof *g);
    if (g == NULL)
        return (nickar_status)nk_fail(NK_ENOMEM, err, errlen, "out of memory for a game");
    nk_status st = nk_game_init(&g->g, v, &start, ply_limit ? ply_limit : NK_DEFAULT_PLY_LIMIT);
    if (st != NK_OK) {
        free(g);
        return (nickar_status)nk_fail(st, err, errlen, "position '%s': %s for %s",
                                      position != NULL ? position : "start",
                                      st == NK_EINVAL ? "pit owners other than the default rows"
                                                      : nk_strerror(st),
                                      v->name);
    }
    *out = g;
    return NICKAR_OK;
}

nickar_game *nickar_game_clone(const nickar_game *g)
{
    nickar_game *c = malloc(sizeof *c);
    if (c != NULL)
        memcpy(c, g, sizeof *c);
    return c;
}

void nickar_game_free(nickar_game *g)
{
    free(g);
}

const char *nickar_game_variant(const nickar_game *g)
{
    return g->g.variant->name;
}

void nickar_game_position_text(const nickar_game *g, char out[NICKAR_POS_TEXT])
{
    nk_pos_format(&g->g.pos, out);
}

void nickar_game_position(const nickar_game *g, nickar_position *out)
{
    position_of(&g->g.pos, out);
}

int nickar_game_to_move(const nickar_game *g)
{
    return g->g.pos.side;
}

unsigned nickar_game_ply(const nickar_game *g)
{
    return g->g.ply;
}

unsigned nickar_game_ply_limit(const nickar_game *g)
{
    return g->g.ply_limit;
}

int nickar_game_move_at(const nickar_game *g, unsigned k)
{
    return k < g->g.ply ? g->g.moves[k] : NICKAR_NO_MOVE;
}

unsigned nickar_game_legal(const nickar_game *g)
{
    return nk_game_legal(&g->g);
}

nickar_status nickar_game_play(nickar_game *g, int move, unsigned *captured, char *err,
                               size_t errlen)
{
    nk_ply_info info = {0};
    if (move < 0 || move > NK_PASS)
        return (nickar_status)nk_fail(NK_EILLEGAL, err, errlen,
                                      "move %d is no pit (0..11) and not the pass (12)", move);
    nk_status st = nk_game_play(&g->g, move, &info, err, errlen);
    if (st == NK_OK && captured != NULL)
        *captured = info.captured;
    return (nickar_status)st;
}

int nickar_game_over(const nickar_game *g)
{
    return nk_game_over(&g->g);
}

void nickar_game_result(const nickar_game *g, nickar_result *out)
{
    const nk_result *r = &g->g.result;
    out->over = nk_game_over(&g->g);
    out->reason = nk_end_name(r->reason);
    out->winner = out->over ? r->winner : -1;
    for (int s = 0; s < 2; s++)
        out->total[s] = out->over ? r->total[s] : g->g.pos.store[s];
}
