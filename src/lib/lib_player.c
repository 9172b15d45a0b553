/*
 * lib_player.c -- the public API's players, search and evaluation
 * (include/nickar.h), over search/player.h with the weights resolved by the
 * io layer (io/playerio.h: built-in tables, weights files, run files).
 *
 * A nickar_player is an nk_player for one variant plus the SplitMix64
 * generator that nk_player_move draws from; a choice depends only on the
 * game, the spec and that generator, as everywhere in nickar.
 */
#include <stdlib.h>

#include "lib/lib_internal.h"

#include "base/status.h"
#include "io/playerio.h"
#include "search/features.h"

nickar_status nickar_player_new(nickar_player **out, const char *spec, const char *variant,
                                uint64_t seed, char *err, size_t errlen)
{
    *out = NULL;
    const nk_variant *v = nk_lib_variant(variant, err, errlen);
    if (v == NULL)
        return NICKAR_EINVAL;
    nk_player_def def;
    nk_status st = nk_playerio_load(&def, spec, v, err, errlen);
    if (st != NK_OK)
        return (nickar_status)st;
    if (def.spec.kind == NK_PLAYER_HUMAN)
        return (nickar_status)nk_fail(NK_EINVAL, err, errlen,
                                      "player spec 'human': the library has no person to ask; "
                                      "play the person's moves with nickar_game_play");
    nickar_player *p = malloc(sizeof *p);
    if (p == NULL)
        return (nickar_status)nk_fail(NK_ENOMEM, err, errlen, "out of memory for a player");
    st = nk_playerio_new(&p->p, &def, v, err, errlen);
    if (st != NK_OK) {
        free(p);
        return (nickar_status)st;
    }
    p->variant = v;
    p->rng.s = seed;
    *out = p;
    return NICKAR_OK;
}

void nickar_player_free(nickar_player *p)
{
    if (p == NULL)
        return;
    nk_player_free(p->p);
    free(p);
}

const char *nickar_player_spec(const nickar_player *p)
{
    return nk_player_spec(p->p)->text;
}

void nickar_player_seed(nickar_player *p, uint64_t seed)
{
    p->rng.s = seed;
}

static nk_status same_variant(const nickar_player *p, const nickar_game *g, char *err,
                              size_t errlen)
{
    if (g->g.variant == p->variant)
        return NK_OK;
    return nk_fail(NK_EINVAL, err, errlen, "player '%s' plays %s, the game is %s",
                   nickar_player_spec(p), p->variant->name, g->g.variant->name);
}

nickar_status nickar_player_move(nickar_player *p, const nickar_game *g, nickar_think *think,
                                 char *err, size_t errlen)
{
    nk_status st = same_variant(p, g, err, errlen);
    if (st != NK_OK)
        return (nickar_status)st;
    if (nk_game_over(&g->g))
        return (nickar_status)nk_fail(NK_EOVER, err, errlen, "the game is over (%s)",
                                      nk_end_name(g->g.result.reason));
    nk_think t;
    if (nk_player_move(p->p, &g->g, &p->rng, &t) == NK_NO_MOVE)
        return (nickar_status)nk_fail(NK_EINVAL, err, errlen, "player '%s' chose no move",
                                      nickar_player_spec(p));
    if (think != NULL)
        *think = (nickar_think){t.move, t.score, t.depth, t.nodes};
    return NICKAR_OK;
}

nickar_status nickar_player_evaluate(const nickar_player *p, const nickar_game *g, double *score,
                                     char *err, size_t errlen)
{
    nk_status st = same_variant(p, g, err, errlen);
    if (st != NK_OK)
        return (nickar_status)st;
    const nk_eval *e = nk_player_eval(p->p);
    if (e == NULL)
        return (nickar_status)nk_fail(NK_EINVAL, err, errlen,
                                      "player '%s' has no evaluation (only ab players have one)",
                                      nickar_player_spec(p));
    *score = nk_game_over(&g->g) ? nk_eval_terminal(g->g.variant, &g->g.pos, g->g.result.reason)
                                 : nk_eval_score(e, &g->g.pos);
    return NICKAR_OK;
}

nickar_status nickar_search(const nickar_game *g, const char *spec, uint64_t seed,
                            nickar_think *think, char *err, size_t errlen)
{
    nickar_player *p;
    nickar_status st = nickar_player_new(&p, spec, g->g.variant->name, seed, err, errlen);
    if (st == NICKAR_OK)
        st = nickar_player_move(p, g, think, err, errlen);
    nickar_player_free(p);
    return st;
}

nickar_status nickar_evaluate(const nickar_game *g, const char *spec, double *score, char *err,
                              size_t errlen)
{
    nickar_player *p;
    nickar_status st = nickar_player_new(&p, spec, g->g.variant->name, 0, err, errlen);
    if (st == NICKAR_OK)
        st = nickar_player_evaluate(p, g, score, err, errlen);
    nickar_player_free(p);
    return st;
}
