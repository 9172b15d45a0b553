/*
 * player.c -- player specs and the built-in players: random, greedy,
 * alpha-beta, MCTS (search/mcts.h), and the human placeholder (contract in
 * player.h).
 *
 * A spec is parsed into an nk_spec without looking at any variant; the
 * checks that need one (does the feature set suit it, how many weights)
 * happen in nk_player_new.  The weights= text is kept verbatim: only
 * built-in table names are resolved here, anything else belongs to the io
 * layer, which passes the numbers in.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/player.h"
#include "base/alloc.h"
#include "search/ext.h"
#include "tb/tb.h"

struct nk_player {
    nk_spec spec;
    const nk_variant *variant;
    nk_eval eval;            /* ab */
    nk_search *search;       /* ab */
    nk_search_limits limits; /* ab */
    nk_mcts *mcts;           /* mcts */
    void *ext;               /* ext: the engine (search/ext.h) */
    nk_end fault;            /* the last move's forfeit (nk_player_fault) */
};

/* ===== specs ===== */

static const char kinds_list[] =
    "random, greedy, human, ab:KEY=VALUE,..., mcts:KEY=VALUE,..., ext:COMMAND";
#define SPEC_ROW(P, sec, nm, field, T, ctype, ...)                                                 \
    NK_PARAM_DESCRIBE(nk_spec, field, sec, nm, T, __VA_ARGS__)
static const nk_param spec_params[] = {NK_SPEC_PARAMS(SPEC_ROW, _)};
enum { NSPEC = sizeof spec_params / sizeof spec_params[0] };
_Static_assert(NSPEC <= 8 * sizeof(unsigned), "one bit of `seen` per option");

#define MCTS_ROW(P, sec, nm, field, T, ctype, ...)                                                 \
    NK_PARAM_DESCRIBE(nk_spec, P.field, sec, nm, T, __VA_ARGS__)
static const nk_param mcts_params[] = {NK_MCTS_PARAMS(MCTS_ROW, mcts)
                                           NK_SPEC_EVAL_PARAMS(SPEC_ROW, _)};
enum { NMCTS = sizeof mcts_params / sizeof mcts_params[0] };

const nk_param *nk_spec_mcts_table(size_t *n)
{
    *n = NMCTS;
    return mcts_params;
}

const nk_param *nk_spec_params_table(size_t *n)
{
    *n = NSPEC;
    return spec_params;
}

char *nk_spec_keys(char *buf, size_t len)
{
    return nk_param_names(spec_params, NSPEC, buf, len);
}

nk_status nk_spec_check_features(char *text, size_t cap, char *why, size_t whylen)
{
    (void)cap;
    if (nk_eval_family_of(text) != nk_eval_family_at(0))
        return nk_eval_features_check(text, why, whylen);
    if (nk_features_find(text) == NULL) {
        char list[128];
        nk_features_list(list, sizeof list);
        return nk_fail(NK_EINVAL, why, whylen, "unknown feature set '%s'; valid sets: %s", text,
                       list);
    }
    return NK_OK;
}

nk_status nk_spec_check_weights(char *text, size_t cap, char *why, size_t whylen)
{
    (void)cap;
    if (*text == '\0')
        return nk_fail(NK_EINVAL, why, whylen,
                       "weights needs a value (a built-in table such as ayo2004-d3, "
                       "'default', or a file)");
    if (strcmp(text, "default") == 0)
        text[0] = '\0';
    return NK_OK;
}

nk_status nk_spec_check_view(char *text, size_t cap, char *why, size_t whylen)
{
    (void)cap;
    if (strcmp(text, "mover") != 0 && strcmp(text, "root") != 0)
        return nk_fail(NK_EINVAL, why, whylen, "view '%s' is not mover or root", text);
    return NK_OK;
}

nk_status nk_spec_check_tb(char *text, size_t cap, char *why, size_t whylen)
{
    (void)cap;
    if (*text == '\0')
        return nk_fail(NK_EINVAL, why, whylen,
                       "tb needs a value (a directory of endgame databases)");
    return NK_OK;
}

nk_status nk_spec_option(nk_spec *spec, const nk_param *table, size_t n, const char *key,
                         const char *val, unsigned *seen, char *err, size_t errlen)
{
    char keys[128];
    long k = nk_param_index(table, n, key);
    if (k < 0)
        return nk_fail(NK_EINVAL, err, errlen,
                       "player spec '%s': unknown option '%s'; valid options: %s", spec->text, key,
                       nk_param_names(table, n, keys, sizeof keys));
    if (*seen & (1u << k))
        return nk_fail(NK_EINVAL, err, errlen, "player spec '%s': option '%s' given twice",
                       spec->text, key);
    *seen |= 1u << k;
    const nk_param *p = &table[k];
    char canon[NK_SPEC_TEXT], why[256];
    if (p->type == NK_PARAM_STRING) {
        snprintf(canon, sizeof canon, "%s", val); /* fits: val is part of spec->text */
    } else if (nk_param_parse_scalar(p, val, canon, sizeof canon, why, sizeof why) != NK_OK) {
        char expects[128];
        nk_param_expects(p, expects, sizeof expects);
        return nk_fail(NK_ERANGE, err, errlen, "player spec '%s': %s '%s' is not %s", spec->text,
                       p->name, val, expects);
    }
    if (p->check != NULL) {
        nk_status st = p->check(canon, sizeof canon, why, sizeof why);
        if (st != NK_OK)
            return nk_fail(st, err, errlen, "player spec '%s': %s", spec->text, why);
    }
    if (nk_param_set(p, spec, canon) != NK_OK)
        return nk_fail(NK_ERANGE, err, errlen, "player spec '%s': %s '%.40s' is too long",
                       spec->text, p->name, val);
    return NK_OK;
}

/* Parses the KEY=VALUE,... options of a spec by table[0..n) (opts may be
 * NULL: none). */
static nk_status spec_options(nk_spec *spec, const char *opts, const nk_param *table, size_t n,
                              char *err, size_t errlen)
{
    char buf[NK_SPEC_TEXT], keys[128];
    unsigned seen = 0;
    if (opts != NULL) {
        strcpy(buf, opts);
        char *item = buf;
        for (;;) {
            char *comma = strchr(item, ',');
            if (comma != NULL)
                *comma = '\0';
            char *eq = strchr(item, '=');
            if (eq == NULL || eq == item)
                return nk_fail(NK_EINVAL, err, errlen,
                               "player spec '%s': '%s' is not KEY=VALUE; valid keys: %s",
                               spec->text, item, nk_param_names(table, n, keys, sizeof keys));
            *eq = '\0';
            /* `weights=RUN.h5@gen=G,rank=R`: the comma belongs to the weights. */
            if (strcmp(item, "rank") == 0 && strstr(spec->weights, "@gen=") != NULL &&
                strstr(spec->weights, ",rank=") == NULL &&
                strlen(spec->weights) + strlen(eq + 1) + 6 < sizeof spec->weights) {
                strcat(spec->weights, ",rank=");
                strcat(spec->weights, eq + 1);
                if (comma == NULL)
                    break;
                item = comma + 1;
                continue;
            }
            nk_status st = nk_spec_option(spec, table, n, item, eq + 1, &seen, err, errlen);
            if (st != NK_OK)
                return st;
            if (comma == NULL)
                break;
            item = comma + 1;
        }
    }
    return NK_OK;
}

/* A built-in table names its feature set. */
static nk_status spec_table_features(nk_spec *spec, char *err, size_t errlen)
{
    const nk_weights *table = nk_weights_builtin(spec->weights);
    if (table != NULL) {
        if (spec->features[0] == '\0')
            strcpy(spec->features, table->features);
        else if (nk_features_find(spec->features) == NULL ||
                 !nk_weights_suit(table, nk_features_find(spec->features)))
            return nk_fail(NK_EINVAL, err, errlen,
                           "player spec '%s': weights '%s' are for feature set '%s', not '%s'",
                           spec->text, table->name, table->features, spec->features);
    }
    return NK_OK;
}

/* Parses the options of `ab:...` (opts may be NULL: none). */
static nk_status spec_ab(nk_spec *spec, const char *opts, char *err, size_t errlen)
{
    spec->kind = NK_PLAYER_AB;
    nk_status st = spec_options(spec, opts, spec_params, NSPEC, err, errlen);
    if (st == NK_OK)
        st = spec_table_features(spec, err, errlen);
    if (st == NK_OK && spec->depth == 0 && spec->nodes == 0 && spec->seconds == 0.0)
        spec->depth = NK_SPEC_DEFAULT_DEPTH;
    return st;
}

/* Parses the options of `mcts:...` (opts may be NULL: none). */
static nk_status spec_mcts(nk_spec *spec, const char *opts, char *err, size_t errlen)
{
    spec->kind = NK_PLAYER_MCTS;
    nk_param_defaults(mcts_params, NMCTS, spec);
    nk_status st = spec_options(spec, opts, mcts_params, NMCTS, err, errlen);
    if (st == NK_OK)
        st = spec_table_features(spec, err, errlen);
    if (st == NK_OK && spec->mcts.cutoff == 0 && (spec->features[0] || spec->weights[0]))
        return nk_fail(NK_EINVAL, err, errlen,
                       "player spec '%s': features and weights need cutoff=PLIES (the evaluation "
                       "scores only the playouts cut off)",
                       spec->text);
    return st;
}

nk_status nk_spec_parse(nk_spec *spec, const char *text, char *err, size_t errlen)
{
    char keys[128];
    memset(spec, 0, sizeof *spec);
    nk_param_defaults(spec_params, NSPEC, spec);
    if (text == NULL || *text == '\0')
        return nk_fail(NK_EINVAL, err, errlen, "empty player spec; valid players: %s", kinds_list);
    if (strlen(text) >= NK_SPEC_TEXT)
        return nk_fail(NK_EINVAL, err, errlen,
                       "player spec is %zu characters long; at most %d are allowed", strlen(text),
                       NK_SPEC_TEXT - 1);
    strcpy(spec->text, text);
    const char *colon = strchr(text, ':');
    size_t head = colon ? (size_t)(colon - text) : strlen(text);
    static const struct {
        const char *name;
        nk_player_kind kind;
    } simple[] = {
        {"random", NK_PLAYER_RANDOM}, {"greedy", NK_PLAYER_GREEDY}, {"human", NK_PLAYER_HUMAN}};
    for (size_t i = 0; i < 3; i++) {
        if (strlen(simple[i].name) != head || strncmp(text, simple[i].name, head) != 0)
            continue;
        if (colon != NULL)
            return nk_fail(NK_EINVAL, err, errlen, "player spec '%s': player '%s' takes no options",
                           text, simple[i].name);
        spec->kind = simple[i].kind;
        return NK_OK;
    }
    if (head == 2 && strncmp(text, "ab", 2) == 0) {
        if (colon != NULL && colon[1] == '\0')
            return nk_fail(NK_EINVAL, err, errlen,
                           "player spec '%s': nothing after 'ab:'; valid keys: %s", text,
                           nk_spec_keys(keys, sizeof keys));
        return spec_ab(spec, colon ? colon + 1 : NULL, err, errlen);
    }
    if (head == 4 && strncmp(text, "mcts", 4) == 0) {
        if (colon != NULL && colon[1] == '\0')
            return nk_fail(NK_EINVAL, err, errlen,
                           "player spec '%s': nothing after 'mcts:'; valid keys: %s", text,
                           nk_param_names(mcts_params, NMCTS, keys, sizeof keys));
        return spec_mcts(spec, colon ? colon + 1 : NULL, err, errlen);
    }
    if (head == 3 && strncmp(text, "ext", 3) == 0)
        return nk_ext_spec_parse(spec, colon ? colon + 1 : NULL, err, errlen);
    return nk_fail(NK_EINVAL, err, errlen, "unknown player '%.*s' in spec '%s'; valid players: %s",
                   (int)head, text, text, kinds_list);
}

/* ===== players ===== */

/* The evaluation of an ab or mcts player: its feature set and weights. */
/* The evaluation of a family other than linear: its weights passed in,
 * else those the io layer put under the weights= text (search/eval.h),
 * else the family's defaults. */
static nk_status family_setup(nk_player *p, const nk_variant *v, const double *weights, size_t n,
                              char *err, size_t errlen)
{
    const nk_spec *spec = &p->spec;
    if (weights == NULL && spec->weights[0] != '\0') {
        weights = nk_eval_shared_find(spec->weights, &n);
        if (weights == NULL)
            return nk_fail(NK_EINVAL, err, errlen,
                           "player spec '%s': weights '%s' must be read by the io layer first",
                           spec->text, spec->weights);
    }
    return nk_eval_setup(&p->eval, v, spec->features, weights, n, err, errlen);
}

static nk_status eval_setup(nk_player *p, const nk_variant *v, const double *weights, size_t n,
                            char *err, size_t errlen)
{
    const nk_spec *spec = &p->spec;
    if (nk_eval_family_of(spec->features) != nk_eval_family_at(0))
        return family_setup(p, v, weights, n, err, errlen);
    const nk_feature_set *set =
        spec->features[0] ? nk_features_find(spec->features) : nk_features_default(v);
    if (set == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "unknown feature set '%s'", spec->features);
    nk_status st = nk_features_check(set, v, err, errlen);
    if (st != NK_OK)
        return st;
    if (weights == NULL && spec->weights[0] != '\0') {
        const nk_weights *table = nk_weights_builtin(spec->weights);
        if (table == NULL)
            return nk_fail(NK_EINVAL, err, errlen,
                           "weights '%s' is not a built-in table (%s, %s); a file or run "
                           "must be read by the io layer",
                           spec->weights, nk_weights_at(0)->name, nk_weights_at(1)->name);
        weights = table->w;
        n = table->count;
    }
    return nk_eval_init(&p->eval, v, set, weights, n, err, errlen);
}

static nk_status ab_setup(nk_player *p, const nk_variant *v, const double *weights, size_t n,
                          char *err, size_t errlen)
{
    const nk_spec *spec = &p->spec;
    nk_status st = eval_setup(p, v, weights, n, err, errlen);
    if (st != NK_OK)
        return st;
    p->limits.depth = spec->depth;
    p->limits.nodes = spec->nodes;
    p->limits.seconds = spec->seconds;
    st = nk_search_new(&p->search, &p->eval, spec->tt_mb);
    if (st != NK_OK) {
        if (st != NK_ENOMEM)
            return nk_fail(st, err, errlen, "a %u MiB transposition table is too large",
                           spec->tt_mb);
        if (spec->tt_mb > 0)
            return nk_fail(st, err, errlen, "out of memory for a %u MiB transposition table",
                           spec->tt_mb);
        return nk_fail(st, err, errlen, "out of memory for a search");
    }
    nk_search_set_view(p->search,
                       strcmp(spec->view, "root") == 0 ? NK_VIEW_ROOT : NK_VIEW_MOVER);
    if (spec->tb[0] != '\0') {
        /* Opened by the io layer (or an MPI worker); this layer opens no file. */
        const nk_tb *tb = nk_tb_shared_find(spec->tb, v);
        if (tb == NULL)
            return nk_fail(NK_EINVAL, err, errlen,
                           "player spec '%s': the endgame database of %s in '%s' is not open",
                           spec->text, v->name, spec->tb);
        nk_search_set_tb(p->search, tb);
    }
    return NK_OK;
}

static nk_status mcts_setup(nk_player *p, const nk_variant *v, const double *weights, size_t n,
                            char *err, size_t errlen)
{
    const nk_spec *spec = &p->spec;
    if (spec->mcts.cutoff > 0) {
        nk_status st = eval_setup(p, v, weights, n, err, errlen);
        if (st != NK_OK)
            return st;
    }
    nk_status st = nk_mcts_new(&p->mcts, &spec->mcts, spec->mcts.cutoff > 0 ? &p->eval : NULL);
    if (st != NK_OK)
        return nk_fail(st, err, errlen, "player spec '%s': no memory for a tree of %llu playouts",
                       spec->text, (unsigned long long)spec->mcts.playouts);
    return NK_OK;
}

nk_status nk_player_new(nk_player **out, const nk_spec *spec, const nk_variant *v,
                        const double *weights, size_t n, char *err, size_t errlen)
{
    *out = NULL;
    nk_player *p = nk_calloc(1, sizeof *p);
    if (p == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory making player '%s'", spec->text);
    p->spec = *spec;
    p->variant = v;
    if (spec->kind == NK_PLAYER_AB || spec->kind == NK_PLAYER_MCTS) {
        nk_status st = spec->kind == NK_PLAYER_AB ? ab_setup(p, v, weights, n, err, errlen)
                                                  : mcts_setup(p, v, weights, n, err, errlen);
        if (st != NK_OK) {
            nk_player_free(p);
            return st;
        }
    }
    if (spec->kind == NK_PLAYER_EXT) {
        nk_status st = nk_ext_open(&p->ext, spec, v, err, errlen);
        if (st != NK_OK) {
            nk_player_free(p);
            return st;
        }
    }
    *out = p;
    return NK_OK;
}

void nk_player_free(nk_player *p)
{
    if (p == NULL)
        return;
    nk_search_free(p->search);
    nk_mcts_free(p->mcts);
    nk_eval_free(&p->eval);
    nk_ext_close(p->ext);
    nk_free(p);
}

const nk_spec *nk_player_spec(const nk_player *p)
{
    return &p->spec;
}

const nk_eval *nk_player_eval(const nk_player *p)
{
    return p->spec.kind == NK_PLAYER_AB ? &p->eval : NULL;
}

/* The legal move that captures most; ties drawn with rng. */
static int greedy_move(const nk_game *g, nk_rng *rng)
{
    const nk_variant *v = g->variant;
    unsigned legal = nk_game_legal(g), best_mask = 0;
    int best = -1;
    for (unsigned m = legal; m; m &= m - 1) {
        int mv = __builtin_ctz(m);
        nk_pos child = g->pos;
        nk_ply_info info;
        nk_apply(v, &child, mv, &info);
        if ((int)info.captured > best) {
            best = (int)info.captured;
            best_mask = 0;
        }
        if ((int)info.captured == best)
            best_mask |= 1u << mv;
    }
    if (best_mask == 0)
        return NK_NO_MOVE;
    unsigned k = nk_rng_below(rng, (unsigned)__builtin_popcount(best_mask));
    for (; k; k--)
        best_mask &= best_mask - 1;
    return __builtin_ctz(best_mask);
}

int nk_player_move(nk_player *p, const nk_game *g, nk_rng *rng, nk_think *think)
{
    nk_think t = {NK_NO_MOVE, 0.0, 0, 0};
    p->fault = NK_END_NONE;
    if (!nk_game_over(g)) {
        switch (p->spec.kind) {
        case NK_PLAYER_RANDOM:
            t.move = nk_random_move(g, rng);
            break;
        case NK_PLAYER_GREEDY:
            t.move = greedy_move(g, rng);
            break;
        case NK_PLAYER_AB: {
            nk_search_result r;
            nk_search_best(p->search, g, &p->limits, &r);
            t.move = r.move;
            t.score = r.score;
            t.depth = r.depth;
            t.nodes = r.nodes;
            break;
        }
        case NK_PLAYER_MCTS: {
            nk_mcts_result r;
            nk_mcts_best(p->mcts, g, rng, &r);
            t.move = r.move;
            t.nodes = r.playouts;
            break;
        }
        case NK_PLAYER_EXT:
            t.move = nk_ext_move(p->ext, g, rng, &t, &p->fault);
            break;
        case NK_PLAYER_HUMAN:
            break;
        }
    }
    if (think != NULL)
        *think = t;
    return t.move;
}

nk_end nk_player_fault(const nk_player *p)
{
    return p->fault;
}
