/*
 * client.c -- the players from outside: one engine process each, spoken to
 * in the engine protocol (contract in client.h, docs/protocol.md).
 *
 * Invariants:
 *  - the engine knows the game in `start` and `moves[0..sent)` while
 *    in_game; a game that is not their continuation gets a `newgame`;
 *  - after any failure the process is ended and reaped before the move
 *    returns, and alive is false: a failed engine never outlives its game;
 *  - every wait has a deadline (the spec's start for the handshake, its
 *    timeout for the rest, plus time= for a move).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/param.h"
#include "ext/client.h"
#include "ext/protocol.h"
#include "search/ext.h"

typedef struct engine {
    nk_spec spec;
    const nk_variant *variant;
    nk_proc proc;
    bool alive;    /* started, and its handshake read */
    bool plays;    /* it lists the variant */
    bool in_game;  /* it knows the game below */
    nk_pos start;
    unsigned limit, sent;
    uint8_t moves[NK_MAX_PLIES];
    char line[NK_PROTOCOL_LINE + 1];
    char out[NK_PROTOCOL_LINE + 1];
    size_t pending; /* out holds a position or moves line of this length,
                       sent with the next go in one write (one wake-up) */
} engine;

static void (*note_fn)(const char *line);

/* A failure: its forfeit reason and what the engine did. */
typedef struct failure {
    nk_end reason;
    char what[600];
} failure;

__attribute__((format(printf, 3, 4))) static nk_end failed(failure *f, nk_end reason,
                                                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->what, sizeof f->what, fmt, ap);
    va_end(ap);
    f->reason = reason;
    return reason;
}

/* Ends the engine: an error line first when it broke the protocol, then
 * quit; grace seconds to exit. */
static void stop(engine *e, const char *error, double grace)
{
    if (e->proc.pid > 0) {
        if (error != NULL) {
            snprintf(e->out, sizeof e->out, "error %s", error);
            nk_proc_send(&e->proc, e->out);
        }
        nk_proc_send(&e->proc, "quit");
        nk_proc_end(&e->proc, grace);
    }
    e->alive = false;
    e->in_game = false;
}

/* The failure of a read that gave no line, while waiting for `what`. */
static nk_end no_line(engine *e, nk_proc_got got, const char *what, double seconds, failure *f)
{
    char how[96];
    switch (got) {
    case NK_PROC_GOT_TIMEOUT:
        stop(e, NULL, 0);
        return failed(f, NK_END_TIMEOUT, "sent no %s within %g s", what, seconds);
    case NK_PROC_GOT_LONG:
        stop(e, "line too long", 0.5);
        return failed(f, NK_END_GARBAGE, "sent a line longer than %d bytes instead of its %s",
                      NK_PROTOCOL_LINE, what);
    default:
        stop(e, NULL, 1.0);
        return failed(f, NK_END_CRASH, "%s before it sent its %s",
                      nk_proc_exit_text(&e->proc, how, sizeof how), what);
    }
}

/* The next line that is not blank, within seconds; NK_END_NONE or the
 * failure. */
static nk_end next_line(engine *e, const char *what, double seconds, failure *f)
{
    for (;;) {
        nk_proc_got got = nk_proc_read(&e->proc, e->line, sizeof e->line, seconds);
        if (got != NK_PROC_GOT_LINE)
            return no_line(e, got, what, seconds, f);
        if (!nk_proto_blank(e->line))
            return NK_END_NONE;
    }
}

/* A line that is not what was asked for. */
static nk_end garbage(engine *e, const char *what, failure *f)
{
    char shown[64];
    snprintf(shown, sizeof shown, "%.60s", e->line);
    for (char *c = shown; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    const char *dots = strlen(e->line) > 60 ? "..." : "";
    if (strncmp(e->line, "error", 5) == 0 && (e->line[5] == ' ' || e->line[5] == '\0')) {
        failed(f, NK_END_GARBAGE, "answered '%s%s' instead of its %s", shown, dots, what);
        stop(e, NULL, 0.5);
    } else {
        failed(f, NK_END_GARBAGE, "sent '%s%s' instead of its %s", shown, dots, what);
        stop(e, "not a message of the protocol here", 0.5);
    }
    return NK_END_GARBAGE;
}

static bool send_line(engine *e, const char *line, failure *f)
{
    if (nk_proc_send(&e->proc, line))
        return true;
    char how[96];
    stop(e, NULL, 1.0);
    failed(f, NK_END_CRASH, "%s and no longer reads its input",
           nk_proc_exit_text(&e->proc, how, sizeof how));
    return false;
}

/* ===== the handshake ===== */

/* One line of the handshake; *done after `ready`. */
static nk_end handshake_line(engine *e, char *line, bool seen[3], bool *done, failure *f)
{
    char *cur = line, *w = nk_proto_word(&cur);
    if (strcmp(w, "ready") == 0) {
        static const char *const need[3] = {"id name", "protocol", "variants"};
        for (int k = 0; k < 3; k++)
            if (!seen[k]) {
                stop(e, "the handshake lacks a line", 0.5);
                return failed(f, NK_END_GARBAGE, "ended its handshake without '%s'", need[k]);
            }
        *done = true;
        return NK_END_NONE;
    }
    if (strcmp(w, "id") == 0 && (w = nk_proto_word(&cur)) != NULL) {
        seen[0] |= strcmp(w, "name") == 0 && *cur != '\0';
        return NK_END_NONE;
    }
    if (strcmp(w, "protocol") == 0 && (w = nk_proto_word(&cur)) != NULL) {
        if (strcmp(w, "1") != 0 || nk_proto_word(&cur) != NULL) {
            stop(e, "nickar speaks protocol 1", 0.5);
            return failed(f, NK_END_GARBAGE, "speaks protocol version '%.20s'; nickar speaks %d",
                          w, NK_PROTOCOL_VERSION);
        }
        seen[1] = true;
        return NK_END_NONE;
    }
    if (strcmp(w, "variants") == 0) {
        while ((w = nk_proto_word(&cur)) != NULL)
            e->plays |= strcmp(w, e->variant->name) == 0;
        seen[2] = true;
        return NK_END_NONE;
    }
    if (strcmp(w, "option") == 0) {
        int n = 0;
        const char *type = NULL;
        while (n < 3 && (w = nk_proto_word(&cur)) != NULL)
            if (++n == 2)
                type = w;
        if (n == 3 && (strcmp(type, "int") == 0 || strcmp(type, "float") == 0 ||
                       strcmp(type, "bool") == 0 || strcmp(type, "string") == 0))
            return NK_END_NONE;
    }
    return NK_END_RULES; /* not a handshake line: the caller says so */
}

static nk_end handshake(engine *e, failure *f)
{
    bool seen[3] = {false, false, false}, done = false;
    e->plays = false;
    snprintf(e->out, sizeof e->out, "hello %d", NK_PROTOCOL_VERSION);
    if (!send_line(e, e->out, f))
        return f->reason;
    while (!done) {
        nk_end r = next_line(e, "handshake", e->spec.start, f);
        if (r != NK_END_NONE)
            return r;
        char copy[NK_PROTOCOL_LINE + 1];
        strcpy(copy, e->line);
        r = handshake_line(e, copy, seen, &done, f);
        if (r == NK_END_RULES)
            return garbage(e, "handshake (id, protocol, variants, option, ready)", f);
        if (r != NK_END_NONE)
            return r;
    }
    e->alive = true;
    e->in_game = false;
    return NK_END_NONE;
}

static nk_end start(engine *e, failure *f)
{
    char why[256];
    if (nk_proc_start(&e->proc, e->spec.command, why, sizeof why) != NK_OK)
        return failed(f, NK_END_CRASH, "%s", why);
    return handshake(e, f);
}

/* ===== a move ===== */

/* Tells the engine the game: a newgame and the position when it is not
 * the one it knows, else the moves since; the position or moves line is
 * left in e->out (pending) for ask_move to send with its go. */
static nk_end tell_game(engine *e, const nk_game *g, failure *f)
{
    bool same = e->in_game && e->limit == g->ply_limit && g->ply >= e->sent &&
                e->start.hash == g->start.hash &&
                memcmp(e->moves, g->moves, e->sent) == 0;
    size_t at;
    e->pending = 0;
    if (!same) {
        e->in_game = false;
        snprintf(e->out, sizeof e->out, "newgame %s limit %u", e->variant->name, g->ply_limit);
        if (!send_line(e, e->out, f))
            return f->reason;
        nk_end r = next_line(e, "'ready' to newgame", e->spec.timeout, f);
        if (r != NK_END_NONE)
            return r;
        if (strncmp(e->line, "error", 5) == 0 && (e->line[5] == ' ' || e->line[5] == '\0')) {
            failed(f, NK_END_REFUSED, "refused the game of %s: %.200s", e->variant->name,
                   e->line);
            stop(e, NULL, 0.5);
            return NK_END_REFUSED;
        }
        char *cur = e->line, *w = nk_proto_word(&cur);
        if (strcmp(w, "ready") != 0 || nk_proto_word(&cur) != NULL)
            return garbage(e, "'ready' to newgame", f);
        char pos[NK_POS_TEXT];
        nk_pos_format(&g->start, pos);
        at = (size_t)snprintf(e->out, sizeof e->out, "position %s moves", pos);
        e->start = g->start;
        e->limit = g->ply_limit;
        e->sent = 0;
        e->in_game = true;
    } else {
        if (g->ply == e->sent)
            return NK_END_NONE;
        at = (size_t)snprintf(e->out, sizeof e->out, "moves");
    }
    nk_proto_put_moves(e->out, sizeof e->out, &at, g->moves + e->sent, g->ply - e->sent);
    memcpy(e->moves + e->sent, g->moves + e->sent, g->ply - e->sent);
    e->sent = g->ply;
    e->pending = at;
    return NK_END_NONE;
}

/* Reads `move M [value V] [depth D] [nodes N] ...` from line; NK_NO_MOVE
 * when it is not one.  What follows an unknown word is ignored. */
static int parse_move(char *line, nk_think *think)
{
    char *cur = line, *w = nk_proto_word(&cur);
    if (strcmp(w, "move") != 0 || (w = nk_proto_word(&cur)) == NULL || w[1] != '\0')
        return NK_NO_MOVE;
    int move = nk_move_parse(w[0]);
    while (move != NK_NO_MOVE && (w = nk_proto_word(&cur)) != NULL) {
        char *v = NULL;
        bool known = strcmp(w, "value") == 0 || strcmp(w, "depth") == 0 ||
                     strcmp(w, "nodes") == 0;
        if (!known)
            break;
        if ((v = nk_proto_word(&cur)) == NULL)
            return NK_NO_MOVE;
        /* the one strict reader of numbers: decimal, finite, no hex */
        if (w[0] == 'v') {
            if (nk_param_read_double(v, &think->score) != NK_OK)
                return NK_NO_MOVE;
        } else {
            uint64_t n;
            if (nk_param_read_uint64(v, &n) != NK_OK)
                return NK_NO_MOVE;
            if (w[0] == 'd')
                think->depth = n > 1000 ? 1000 : (unsigned)n;
            else
                think->nodes = n;
        }
    }
    return move;
}

static nk_end ask_move(engine *e, const nk_game *g, uint64_t seed, nk_think *think, int *move,
                       failure *f)
{
    int n = (int)e->pending;
    if (e->pending)
        e->out[n++] = '\n';
    n += snprintf(e->out + n, sizeof e->out - (size_t)n, "go");
    if (e->spec.depth)
        n += snprintf(e->out + n, sizeof e->out - (size_t)n, " depth %u", e->spec.depth);
    if (e->spec.nodes)
        n += snprintf(e->out + n, sizeof e->out - (size_t)n, " nodes %llu",
                      (unsigned long long)e->spec.nodes);
    if (e->spec.seconds > 0)
        n += snprintf(e->out + n, sizeof e->out - (size_t)n, " time %g", e->spec.seconds);
    snprintf(e->out + n, sizeof e->out - (size_t)n, " seed %llu", (unsigned long long)seed);
    e->pending = 0;
    if (!send_line(e, e->out, f))
        return f->reason;
    double wait = e->spec.seconds + e->spec.timeout;
    for (;;) {
        nk_end r = next_line(e, "move", wait, f);
        if (r != NK_END_NONE)
            return r;
        if (strncmp(e->line, "info", 4) == 0 && (e->line[4] == ' ' || e->line[4] == '\0'))
            continue;
        char copy[NK_PROTOCOL_LINE + 1];
        strcpy(copy, e->line);
        *move = parse_move(copy, think);
        if (*move == NK_NO_MOVE)
            return garbage(e, "move", f);
        break;
    }
    unsigned legal = nk_game_legal(g);
    if (!((legal >> *move) & 1u)) {
        char list[64], why[128];
        nk_moves_format(legal, list, sizeof list);
        snprintf(why, sizeof why, "illegal move '%c'; legal moves: %s", nk_move_letter(*move),
                 list);
        stop(e, why, 0.5);
        failed(f, NK_END_ILLEGAL, "answered the %s", why);
        *move = NK_NO_MOVE;
        return NK_END_ILLEGAL;
    }
    think->move = *move;
    return NK_END_NONE;
}

/* ===== the hook (search/ext.h) ===== */

static nk_status client_open(void **state, const nk_spec *spec, const nk_variant *v, char *err,
                             size_t errlen)
{
    engine *e = nk_calloc(1, sizeof *e);
    if (e == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory for engine '%s'", spec->text);
    e->spec = *spec;
    e->variant = v;
    e->proc.pid = 0;
    failure f;
    if (start(e, &f) != NK_END_NONE) {
        stop(e, NULL, 0);
        nk_free(e);
        return nk_fail(NK_EINVAL, err, errlen, "engine '%s': %s", spec->text, f.what);
    }
    *state = e;
    return NK_OK;
}

static int client_move(void *state, const nk_game *g, uint64_t seed, nk_think *think,
                       nk_end *fault)
{
    engine *e = state;
    failure f = {NK_END_NONE, ""};
    int move = NK_NO_MOVE;
    nk_end r = e->alive ? NK_END_NONE : start(e, &f);
    if (r == NK_END_NONE && !e->plays)
        r = failed(&f, NK_END_REFUSED, "does not list %s among its variants", e->variant->name);
    if (r == NK_END_NONE)
        r = tell_game(e, g, &f);
    if (r == NK_END_NONE)
        r = ask_move(e, g, seed, think, &move, &f);
    if (r == NK_END_NONE)
        return move;
    if (e->proc.pid > 0 && r != NK_END_REFUSED)
        stop(e, NULL, 0);
    *fault = r;
    if (note_fn != NULL) {
        char line[NK_MSG_MAX];
        snprintf(line, sizeof line, "engine '%.380s' forfeits the game at ply %u (%s): %.560s",
                 e->spec.text, g->ply + 1, nk_end_name(r), f.what);
        note_fn(line);
    }
    return NK_NO_MOVE;
}

static void client_close(void *state)
{
    engine *e = state;
    stop(e, NULL, 1.0);
    nk_free(e);
}

static const nk_ext_ops client_ops = {client_open, client_move, client_close};

void nk_ext_client_install(void (*note)(const char *line))
{
    note_fn = note;
    nk_ext_install(&client_ops);
}
