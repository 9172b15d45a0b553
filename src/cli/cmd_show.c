/*
 * cmd_show.c -- `nickar show`: a position drawn for a person (or as JSON),
 * with the side to move, its legal moves and whether the game is over.
 *
 * The position is judged as the first of a game: the end rules that need a
 * history (repetition, the ply limit) cannot hold; `nickar replay` plays a
 * whole game.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/util.h"

enum { OPT_VARIANT, OPT_POSITION, OPT_JSON, OPT_END };

static void show_text(const nk_game *g)
{
    char text[NK_POS_TEXT], line[256];
    nk_pos_format(&g->pos, text);
    printf("variant   %s: %s\nposition  %s\n\n", g->variant->name, g->variant->title, text);
    nk_cli_board(stdout, &g->pos);
    putchar('\n');
    if (nk_game_over(g)) {
        nk_cli_result_text(&g->result, line, sizeof line);
        printf("Game over: %s.\n", line);
    } else {
        nk_moves_format(nk_game_legal(g), line, sizeof line);
        printf("%s to move; legal moves: %s\n", nk_cli_side_name(g->pos.side), line);
    }
}

static void show_json(const nk_game *g)
{
    char text[NK_POS_TEXT];
    const nk_pos *p = &g->pos;
    nk_pos_format(p, text);
    printf("{\"variant\":");
    nk_cli_json_string(stdout, g->variant->name);
    printf(",\"position\":");
    nk_cli_json_string(stdout, text);
    printf(",\"to_move\":\"%c\",\"legal\":", nk_cli_side_letter(p->side));
    nk_cli_json_moves(stdout, nk_game_legal(g));
    printf(",\"over\":%s,\"pits\":[", nk_game_over(g) ? "true" : "false");
    for (int i = 0; i < NK_PITS; i++)
        printf("%s%u", i ? "," : "", p->pit[i]);
    printf("],\"stores\":[%u,%u],\"owners\":\"", p->store[NK_SOUTH], p->store[NK_NORTH]);
    for (int i = 0; i < NK_PITS; i++)
        putchar(nk_cli_side_letter(nk_pos_owner(p, i)));
    printf("\",");
    nk_cli_json_result(stdout, &g->result, -1);
    printf("}\n");
}

int nk_cmd_show(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_VARIANT] = {"variant", "V", "rule set (see nickar rules); required", NULL},
        [OPT_POSITION] = {"position", "P",
                          "position as in docs/rules.md R-B3, e.g. '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S'"
                          " (default: the start)",
                          NULL},
        [OPT_JSON] = {"json", NULL,
                      "print one JSON object: variant, position, to_move, legal, over,"
                      " pits, stores, owners, result, south, north, reason",
                      NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "show",
        .synopsis = "--variant V [--position P] [--json]",
        .about = "Draws a position: North's row on top read right to left (F..A),\n"
                 "South's row below (a..f), North's store at the left end and\n"
                 "South's at the right; then whose turn it is and the legal moves,\n"
                 "or the result if the game is over in that position.",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    const nk_variant *v = nk_cli_variant(&cli, opts[OPT_VARIANT].value);
    nk_pos pos;
    nk_game game;
    if (v == NULL || !nk_cli_position(&cli, opts[OPT_POSITION].value, &pos) ||
        !nk_cli_game(&cli, &game, v, &pos))
        return NK_EXIT_USAGE;
    if (opts[OPT_JSON].value != NULL)
        show_json(&game);
    else
        show_text(&game);
    return nk_cli_finish(&cli);
}
