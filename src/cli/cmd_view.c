/*
 * cmd_view.c -- `nickar view`: one self-contained HTML page that replays
 * the games of records files (io/records.h).
 *
 * Every position is computed here, by the engine (rules/), and embedded in
 * the page as JSON; the page's script (view_page.h) only draws them and
 * steps through them.  Per ply the page gets the move, its mover, the
 * seeds captured, the relay's laps and each pit's change of seeds, from
 * which it marks the pits that gained seeds and those emptied.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "cli/cli.h"
#include "cli/util.h"
#include "cli/view_page.h"
#include "io/records.h"

enum { OPT_OUTPUT, OPT_GAME, OPT_END };

/* A JSON string safe inside a <script> element: quotes, backslashes,
 * control characters and <, >, & escaped. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void json_pos(FILE *out, const nk_game *g)
{
    char text[NK_POS_TEXT];
    const nk_pos *p = &g->pos;
    nk_pos_format(p, text);
    fputs("{\"pits\":[", out);
    for (int i = 0; i < NK_PITS; i++)
        fprintf(out, "%s%u", i ? "," : "", p->pit[i]);
    fprintf(out, "],\"stores\":[%u,%u],\"side\":\"%c\",\"owners\":\"", p->store[NK_SOUTH],
            p->store[NK_NORTH], nk_cli_side_letter(p->side));
    for (int i = 0; i < NK_PITS; i++)
        fputc(nk_cli_side_letter(nk_pos_owner(p, i)), out);
    fputs("\",\"text\":", out);
    json_string(out, text);
    fprintf(out, ",\"over\":%s}", nk_game_over(g) ? "true" : "false");
}

/* One game as a JSON object; g is scratch.  The record has been checked
 * by nk_record_parse, so its moves are legal. */
static void json_game(FILE *out, const nk_record *r, const char *source, nk_game *g)
{
    char line[160];
    nk_record_game(r, g, 0, line, sizeof line);
    fputs("{\"variant\":", out);
    json_string(out, r->variant->name);
    fputs(",\"title\":", out);
    json_string(out, r->variant->title);
    fputs(",\"source\":", out);
    json_string(out, source);
    fputs(",\"south\":", out);
    json_string(out, r->player[NK_SOUTH]);
    fputs(",\"north\":", out);
    json_string(out, r->player[NK_NORTH]);
    char result[200];
    if (r->result.reason == NK_END_NONE) {
        snprintf(result, sizeof result, "unfinished after %u plies", r->plies);
    } else {
        nk_cli_result_text(&r->result, line, sizeof line);
        snprintf(result, sizeof result, "%s after %u plies", line, r->plies);
    }
    fputs(",\"result\":", out);
    json_string(out, result);
    fprintf(out, ",\"reason\":\"%s\",\"positions\":[", nk_end_name(r->result.reason));
    json_pos(out, g);
    for (unsigned i = 0; i < r->plies; i++) {
        fputc(',', out);
        nk_game_play(g, r->moves[i], NULL, line, sizeof line);
        json_pos(out, g);
    }
    fputs("],\"moves\":[", out);
    nk_record_game(r, g, 0, line, sizeof line);
    for (unsigned i = 0; i < r->plies; i++) {
        nk_pos before = g->pos;
        nk_ply_info info;
        int mover = before.side;
        nk_game_play(g, r->moves[i], &info, line, sizeof line);
        fprintf(out,
                "%s{\"move\":\"%c\",\"mover\":\"%c\",\"captured\":%u,\"laps\":%u,"
                "\"grand_slam\":%s,\"delta\":[",
                i ? "," : "", nk_move_letter(r->moves[i]), nk_cli_side_letter(mover), info.captured,
                info.laps, info.grand_slam ? "true" : "false");
        for (int k = 0; k < NK_PITS; k++)
            fprintf(out, "%s%d", k ? "," : "", (int)g->pos.pit[k] - (int)before.pit[k]);
        fputs("]}", out);
    }
    fputs("]}", out);
}

/* Writes the page with games recs[from..to). */
static void write_page(FILE *out, const nk_record *recs, char (*sources)[320], size_t from,
                       size_t to, nk_game *g)
{
    static const char mark[] = "/*NK_DATA*/";
    const char *at = strstr(NK_VIEW_PAGE, mark);
    fwrite(NK_VIEW_PAGE, 1, (size_t)(at - NK_VIEW_PAGE), out);
    fprintf(out, "{\"title\":\"nickar view: %zu game%s\",\"first\":0,\"games\":[", to - from,
            to - from == 1 ? "" : "s");
    for (size_t i = from; i < to; i++) {
        if (i > from)
            fputs(",\n", out);
        json_game(out, &recs[i], sources[i], g);
    }
    fputs("]}", out);
    fputs(at + strlen(mark), out);
}

/* Turns -o into --output (nk_cli knows long options only). */
static void short_options(int argc, char **argv)
{
    static char output[] = "--output";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = output;
    }
}

int nk_cmd_view(int argc, char **argv)
{
    nk_opt opts[] = {
        [OPT_OUTPUT] = {"output", "FILE", "write the page to FILE (-o FILE; default: stdout)",
                        NULL},
        [OPT_GAME] = {"game", "K", "only the K-th game of the records, counted across the files",
                      NULL},
        [OPT_END] = {NULL, NULL, NULL, NULL},
    };
    nk_cli cli = {
        .name = "view",
        .synopsis = "[-o FILE.html] [--game K] RECORDS...",
        .about = "Writes one self-contained HTML page (nothing fetched) that replays the\n"
                 "games of records files (nickar match --records, nickar play --record):\n"
                 "the board drawn as nickar show draws it, step by step with buttons,\n"
                 "arrow keys and a slider; the pits each move changed; the move list;\n"
                 "the result.  The positions are computed by nickar's engine.  Open\n"
                 "PAGE.html#game=2&ply=last for a game and ply.  RUN.h5@game=K and\n"
                 "RUN.h5@gen=G,game=J play a fitness game of a run file again.",
        .opts = opts,
        .max_args = -1,
    };
    short_options(argc, argv);
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    uint64_t k = 0;
    if (cli.argc == 0) {
        nk_cli_error(&cli, "needs at least one records file (see nickar view --help)");
        return NK_EXIT_USAGE;
    }
    if (opts[OPT_OUTPUT].value != NULL && opts[OPT_OUTPUT].value[0] == '\0') {
        nk_cli_error(&cli, "option '--output' needs a file name");
        return NK_EXIT_USAGE;
    }
    if (opts[OPT_GAME].value != NULL && !nk_cli_uint(&cli, OPT_GAME, 1, UINT32_MAX, &k))
        return NK_EXIT_USAGE;
    char err[NK_MSG_MAX];
    nk_record *recs = NULL;
    char(*sources)[320] = NULL;
    size_t n = 0;
    nk_status st = NK_OK;
    rc = NK_EXIT_OK;
    for (int i = 0; st == NK_OK && i < cli.argc; i++) {
        size_t before = n;
        st = nk_records_read(cli.argv[i], &recs, &n, err, sizeof err);
        void *grown = st == NK_OK ? nk_realloc(sources, (n + 1) * sizeof *sources) : NULL;
        if (st == NK_OK && grown == NULL)
            st = nk_fail(NK_ENOMEM, err, sizeof err, "out of memory");
        if (st != NK_OK)
            break;
        sources = grown;
        for (size_t j = before; j < n; j++)
            snprintf(sources[j], sizeof sources[j], "%.280s, game %zu", cli.argv[i],
                     j - before + 1);
    }
    nk_game *g = st == NK_OK ? nk_malloc(sizeof *g) : NULL;
    if (st == NK_OK && g == NULL)
        st = nk_fail(NK_ENOMEM, err, sizeof err, "out of memory");
    if (st != NK_OK) {
        nk_cli_error(&cli, "%s", err);
        rc = nk_cli_exit(st);
    } else if (k > n) {
        nk_cli_error(&cli, "--game %llu: the records hold %zu game%s", (unsigned long long)k, n,
                     n == 1 ? "" : "s");
        rc = NK_EXIT_USAGE;
    }
    if (rc == NK_EXIT_OK) {
        const char *path = opts[OPT_OUTPUT].value;
        FILE *out = path != NULL ? fopen(path, "w") : stdout;
        if (out == NULL) {
            nk_cli_error(&cli, "cannot write '%s': %s", path, strerror(errno));
            rc = NK_EXIT_FAIL;
        } else {
            write_page(out, recs, sources, k ? k - 1 : 0, k ? k : n, g);
            if (path != NULL && fclose(out) != 0) {
                nk_cli_error(&cli, "cannot write '%s': %s", path, strerror(errno));
                rc = NK_EXIT_FAIL;
            } else {
                rc = nk_cli_finish(&cli);
            }
        }
    }
    nk_free(g);
    nk_free(sources);
    nk_free(recs);
    return rc;
}
