/*
 * cmd_engine.c -- `nickar engine --player SPEC`: one of nickar's players
 * served over the engine protocol on standard input and output
 * (docs/protocol.md), for other tools, GUIs, and nickar's own `ext:`
 * players.  The protocol is ext/server.c's; this file moves the lines.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/util.h"
#include "ext/protocol.h"
#include "ext/server.h"
#include "io/playerio.h"

enum { OPT_PLAYER, OPT_END };

/* The served player for v, with the limits of a `go` when it has any, its
 * weights resolved by io: an ab spec takes depth, nodes and time; an mcts
 * spec takes nodes as its playouts (at most NK_MCTS_MAX_PLAYOUTS) and has
 * no depth or time to limit; random and greedy have no limits. */
static nk_status make_player(void *ctx, const nk_variant *v, unsigned depth, uint64_t nodes,
                             double seconds, nk_player **out, char *err, size_t errlen)
{
    const char *text = ctx;
    nk_player_def def;
    *out = NULL;
    nk_status st = nk_playerio_load(&def, text, v, err, errlen);
    if (st != NK_OK)
        return st;
    if (def.spec.kind == NK_PLAYER_AB && (depth || nodes || seconds > 0)) {
        def.spec.depth = depth;
        def.spec.nodes = nodes;
        def.spec.seconds = seconds;
    } else if (def.spec.kind == NK_PLAYER_MCTS && nodes) {
        def.spec.mcts.playouts = nodes < NK_MCTS_MAX_PLAYOUTS ? nodes : NK_MCTS_MAX_PLAYOUTS;
    }
    return nk_playerio_new(out, &def, v, err, errlen);
}

/* Reads a line of at most NK_PROTOCOL_LINE bytes; 0 at the end of input,
 * -1 for a longer line (its rest read and dropped). */
static int read_line(char *buf, size_t len)
{
    if (fgets(buf, (int)len, stdin) == NULL)
        return 0;
    size_t n = strlen(buf);
    if (n > 0 && buf[n - 1] == '\n') {
        buf[n - 1] = '\0';
        return 1;
    }
    if (n + 1 < len)
        return 1; /* the last line, without a newline */
    int c;
    while ((c = getchar()) != EOF && c != '\n')
        ;
    return -1;
}

int nk_cmd_engine(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_PLAYER] = {"player", "SPEC", "the player to serve (a spec, as for nickar match); required",
                        NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "engine",
        .synopsis = "--player SPEC",
        .about = "Serves the player over the engine protocol (docs/protocol.md) on\n"
                 "standard input and output, for the variants it can play: answers\n"
                 "hello, newgame, position, moves and go, one command a line, until\n"
                 "quit or the end of input.  It plays as the spec plays in nickar:\n"
                 "ext:nickar%20engine%20--player%20SPEC plays the same games as SPEC.\n"
                 "Example: nickar match --variant awari \\\n"
                 "    'ext:nickar engine --player ab:depth=3' ab:depth=3",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    const char *text = opts[OPT_PLAYER].value;
    if (text == NULL) {
        nk_cli_error(&cli, "missing --player SPEC");
        return NK_EXIT_USAGE;
    }
    char err[NK_MSG_MAX];
    nk_spec spec;
    nk_ext_server *srv = NULL;
    nk_status st = nk_spec_parse(&spec, text, err, sizeof err);
    if (st == NK_OK)
        st = nk_ext_server_new(&srv, &spec, make_player, (void *)text, err, sizeof err);
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        return nk_cli_exit(st);
    }
    char line[NK_PROTOCOL_LINE + 2], reply[2 * NK_MSG_MAX];
    for (int got; (got = read_line(line, sizeof line)) != 0;) {
        bool more = true;
        if (got < 0)
            snprintf(reply, sizeof reply, "error a line is longer than %d bytes\n",
                     NK_PROTOCOL_LINE);
        else
            more = nk_ext_server_line(srv, line, reply, sizeof reply);
        if (!more)
            break;
        if (reply[0] != '\0' && (fputs(reply, stdout) == EOF || fflush(stdout) == EOF))
            break; /* the client has gone */
    }
    nk_ext_server_free(srv);
    return NK_EXIT_OK;
}
