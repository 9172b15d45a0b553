/*
 * server.c -- one of nickar's players behind the engine protocol
 * (contract in server.h, docs/protocol.md).
 *
 * State: the variant and ply limit of the last `newgame`, the game of the
 * last `position` and the `moves` after it (have_game), and the player of
 * that variant with the limits of the last `go` (remade when either
 * changes).  A command that cannot be followed gets one `error` line and
 * changes nothing it did not finish.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/param.h"
#include "ext/protocol.h"
#include "ext/server.h"

struct nk_ext_server {
    nk_spec spec;
    nk_ext_make_fn make;
    void *ctx;
    char variants[256];  /* the names it plays, space-separated */
    const nk_variant *v; /* of the last newgame; NULL: none yet */
    unsigned limit;
    nk_player *player;   /* for v with the limits below */
    unsigned depth;
    uint64_t nodes;
    double seconds;
    bool have_game;
    nk_game *g;
};

__attribute__((format(printf, 3, 4))) static bool reply_error(char *reply, size_t len,
                                                              const char *fmt, ...)
{
    char msg[NK_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *c = msg; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    snprintf(reply, len, "error %s\n", msg);
    return true;
}

nk_status nk_ext_server_new(nk_ext_server **out, const nk_spec *spec, nk_ext_make_fn make,
                            void *ctx, char *err, size_t errlen)
{
    *out = NULL;
    if (spec->kind == NK_PLAYER_HUMAN)
        return nk_fail(NK_EINVAL, err, errlen, "'human' cannot be served as an engine");
    nk_ext_server *s = nk_calloc(1, sizeof *s);
    nk_game *g = nk_malloc(sizeof *g);
    if (s == NULL || g == NULL) {
        nk_free(s);
        nk_free(g);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for the engine");
    }
    *s = (nk_ext_server){.spec = *spec, .make = make, .ctx = ctx, .g = g};
    char first[NK_MSG_MAX] = "";
    for (size_t i = 0; i < nk_variant_count(); i++) {
        const nk_variant *v = nk_variant_at(i);
        nk_player *p = NULL;
        char why[NK_MSG_MAX];
        nk_status st = make(ctx, v, 0, 0, 0, &p, why, sizeof why);
        nk_player_free(p);
        if (st == NK_ENOMEM) {
            nk_ext_server_free(s);
            return nk_fail(st, err, errlen, "%s", why);
        }
        if (st != NK_OK && first[0] == '\0')
            snprintf(first, sizeof first, "%s: %.900s", v->name, why);
        if (st == NK_OK && strlen(s->variants) + strlen(v->name) + 2 < sizeof s->variants)
            strcat(strcat(s->variants, s->variants[0] ? " " : ""), v->name);
    }
    if (s->variants[0] == '\0') {
        nk_ext_server_free(s);
        return nk_fail(NK_EINVAL, err, errlen, "player '%s' plays no variant (%s)", spec->text,
                       first);
    }
    *out = s;
    return NK_OK;
}

void nk_ext_server_free(nk_ext_server *s)
{
    if (s == NULL)
        return;
    nk_player_free(s->player);
    nk_free(s->g);
    nk_free(s);
}

/* The player for the current variant and these limits, made if need be. */
static nk_status server_player(nk_ext_server *s, unsigned depth, uint64_t nodes, double seconds,
                               char *err, size_t errlen)
{
    if (s->player != NULL && s->depth == depth && s->nodes == nodes && s->seconds == seconds)
        return NK_OK;
    nk_player_free(s->player);
    s->player = NULL;
    nk_status st = s->make(s->ctx, s->v, depth, nodes, seconds, &s->player, err, errlen);
    if (st == NK_OK) {
        s->depth = depth;
        s->nodes = nodes;
        s->seconds = seconds;
    }
    return st;
}

static bool cmd_hello(nk_ext_server *s, char *cur, char *reply, size_t len)
{
    const char *v = nk_proto_word(&cur);
    if (v == NULL || strspn(v, "0123456789") != strlen(v))
        return reply_error(reply, len, "hello: expected 'hello VERSION', e.g. 'hello 1'");
    snprintf(reply, len,
             "id name nickar engine %s\nid author nickar\nprotocol %d\nvariants %s\nready\n",
             s->spec.text, NK_PROTOCOL_VERSION, s->variants);
    return true;
}

static bool cmd_newgame(nk_ext_server *s, char *cur, char *reply, size_t len)
{
    const char *name = nk_proto_word(&cur), *key = nk_proto_word(&cur);
    const char *val = nk_proto_word(&cur);
    if (name == NULL)
        return reply_error(reply, len, "newgame: expected 'newgame VARIANT limit L'");
    const nk_variant *v = nk_variant_find(name);
    if (v == NULL)
        return reply_error(reply, len, "newgame: unknown variant '%.40s'", name);
    uint64_t limit = NK_DEFAULT_PLY_LIMIT;
    if (key != NULL) {
        if (strcmp(key, "limit") != 0 || val == NULL || nk_param_read_uint64(val, &limit) != NK_OK ||
            limit == 0 || limit > NK_MAX_PLIES || nk_proto_word(&cur) != NULL)
            return reply_error(reply, len, "newgame: expected 'newgame %s limit L', L in 1..%d",
                               v->name, NK_MAX_PLIES);
    }
    char why[NK_MSG_MAX];
    const nk_variant *old = s->v;
    s->v = v;
    if (old != v) {
        nk_player_free(s->player);
        s->player = NULL;
    }
    if (server_player(s, 0, 0, 0, why, sizeof why) != NK_OK) {
        s->v = NULL;
        return reply_error(reply, len, "newgame: %s", why);
    }
    s->limit = (unsigned)limit;
    s->have_game = false;
    snprintf(reply, len, "ready\n");
    return true;
}

/* Plays the move words of cur on the game. */
static bool play_moves(nk_ext_server *s, const char *cmd, char *cur, char *reply, size_t len)
{
    char msg[256];
    for (const char *w; (w = nk_proto_word(&cur)) != NULL;) {
        int m = w[1] == '\0' ? nk_move_parse(w[0]) : NK_NO_MOVE;
        if (m == NK_NO_MOVE) {
            s->have_game = false;
            return reply_error(reply, len, "%s: '%.20s' is not a move (a-f, A-F or -)", cmd, w);
        }
        if (nk_game_play(s->g, m, NULL, msg, sizeof msg) != NK_OK) {
            s->have_game = false;
            return reply_error(reply, len, "%s: %s", cmd, msg);
        }
    }
    reply[0] = '\0';
    return true;
}

static bool cmd_position(nk_ext_server *s, char *cur, char *reply, size_t len)
{
    s->have_game = false;
    if (s->v == NULL)
        return reply_error(reply, len, "position: no game; send newgame first");
    char text[NK_POS_TEXT] = "", why[256];
    const char *w;
    for (int field = 0; (w = nk_proto_word(&cur)) != NULL && strcmp(w, "moves") != 0; field++) {
        if (field == 4 || strlen(text) + strlen(w) + 2 > sizeof text)
            return reply_error(reply, len, "position: expected 'moves' after the position, "
                                           "not '%.20s'", w);
        strcat(strcat(text, field ? " " : ""), w);
    }
    nk_pos pos;
    if (nk_pos_parse(&pos, text, why, sizeof why) != NK_OK)
        return reply_error(reply, len, "position: %s", why);
    nk_status st = nk_game_init(s->g, s->v, &pos, s->limit);
    if (st != NK_OK)
        return reply_error(reply, len, "position: a game of %s cannot start from '%s'",
                           s->v->name, text);
    s->have_game = true;
    return play_moves(s, "position", cur, reply, len);
}

static bool cmd_moves(nk_ext_server *s, char *cur, char *reply, size_t len)
{
    if (!s->have_game)
        return reply_error(reply, len, "moves: no position; send position first");
    return play_moves(s, "moves", cur, reply, len);
}

static bool cmd_go(nk_ext_server *s, char *cur, char *reply, size_t len)
{
    uint64_t depth = 0, nodes = 0, seed = 0;
    double seconds = 0;
    for (const char *key; (key = nk_proto_word(&cur)) != NULL;) {
        const char *val = nk_proto_word(&cur);
        /* each value by the one strict reader (decimal, no hex, no spaces),
         * starting with a digit (no sign) */
        bool ok = val != NULL && val[0] >= '0' && val[0] <= '9';
        if (ok && strcmp(key, "depth") == 0)
            ok = nk_param_read_uint64(val, &depth) == NK_OK && depth >= 1 &&
                 depth <= NK_SEARCH_MAX_DEPTH;
        else if (ok && strcmp(key, "nodes") == 0)
            ok = nk_param_read_uint64(val, &nodes) == NK_OK && nodes >= 1;
        else if (ok && strcmp(key, "time") == 0)
            ok = nk_param_read_double(val, &seconds) == NK_OK && seconds > 0 && seconds <= 86400;
        else if (ok && strcmp(key, "seed") == 0)
            ok = nk_param_read_uint64(val, &seed) == NK_OK;
        else
            ok = false;
        if (!ok)
            return reply_error(reply, len, "go: bad '%.20s %.20s'; expected depth 1..%d, "
                                           "nodes N, time S (seconds), seed X",
                               key, val ? val : "", NK_SEARCH_MAX_DEPTH);
    }
    if (!s->have_game)
        return reply_error(reply, len, "go: no position; send position first");
    if (nk_game_over(s->g))
        return reply_error(reply, len, "go: the game is over (%s)",
                           nk_end_name(s->g->result.reason));
    char why[NK_MSG_MAX];
    if (server_player(s, (unsigned)depth, nodes, seconds, why, sizeof why) != NK_OK)
        return reply_error(reply, len, "go: %s", why);
    nk_rng rng = {seed};
    nk_think t;
    int m = nk_player_move(s->player, s->g, &rng, &t);
    if (m == NK_NO_MOVE)
        return reply_error(reply, len, "go: the player found no move");
    if (nk_player_spec(s->player)->kind == NK_PLAYER_AB)
        snprintf(reply, len, "move %c value %.17g depth %u nodes %llu\n", nk_move_letter(m),
                 t.score, t.depth, (unsigned long long)t.nodes);
    else if (nk_player_spec(s->player)->kind == NK_PLAYER_MCTS)
        snprintf(reply, len, "move %c nodes %llu\n", nk_move_letter(m),
                 (unsigned long long)t.nodes); /* its playouts */
    else
        snprintf(reply, len, "move %c\n", nk_move_letter(m));
    return true;
}

bool nk_ext_server_line(nk_ext_server *s, const char *line, char *reply, size_t len)
{
    char copy[NK_PROTOCOL_LINE + 1];
    snprintf(copy, sizeof copy, "%s", line);
    size_t n = strlen(copy);
    if (n > 0 && copy[n - 1] == '\r')
        copy[n - 1] = '\0';
    reply[0] = '\0';
    if (nk_proto_blank(copy))
        return true;
    char *cur = copy, *cmd = nk_proto_word(&cur);
    if (strcmp(cmd, "quit") == 0)
        return false;
    if (strcmp(cmd, "hello") == 0)
        return cmd_hello(s, cur, reply, len);
    if (strcmp(cmd, "newgame") == 0)
        return cmd_newgame(s, cur, reply, len);
    if (strcmp(cmd, "position") == 0)
        return cmd_position(s, cur, reply, len);
    if (strcmp(cmd, "moves") == 0)
        return cmd_moves(s, cur, reply, len);
    if (strcmp(cmd, "go") == 0)
        return cmd_go(s, cur, reply, len);
    if (strcmp(cmd, "error") == 0)
        return true;
    if (strcmp(cmd, "setoption") == 0)
        return reply_error(reply, len, "setoption: this engine has no options");
    return reply_error(reply, len, "unknown command '%.40s'", cmd);
}
