/*
 * cmd_view.c -- `nickar view`: one self-contained HTML page that replays
 * the games of records files (io/records.h).
 *
 * Every position is computed here, by the engine (rules/), and embedded in
 * the page as JSON; the page's script (view_page.h) only draws them and
 * steps through them.  Per ply the page gets the move, its mover, the
 * seeds captured, the relay's laps and each pit's change of seeds, from
 * which it marks the pits that gained seeds and those emptied.
 *
 * An errors file of `nickar grade --from-start --errors` (its first line
 * that is neither blank nor a '#' comment starts with "error "; docs/cli.md,
 * "nickar grade") is read here too: each error becomes a game of one ply,
 * the move played from the position, named by what the line says of it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ===== errors files of nickar grade ===== */

/* Whether path is an errors file (a file that cannot be read is left to
 * nk_records_read, which says why). */
static bool is_errors_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char *line = NULL;
    size_t cap = 0;
    bool yes = false;
    while (getline(&line, &cap, f) != -1) {
        if (line[0] == '\n' || line[0] == '#')
            continue;
        yes = strncmp(line, "error ", 6) == 0;
        break;
    }
    free(line); /* getline's */
    fclose(f);
    return yes;
}

/* The value of " name=" at *p (up to the next space), moving *p past it;
 * NULL when *p does not start with it. */
static const char *error_key(const char **p, const char *name, char *val, size_t len)
{
    size_t k = strlen(name);
    if (**p != ' ' || strncmp(*p + 1, name, k) != 0 || (*p)[1 + k] != '=')
        return NULL;
    const char *v = *p + 2 + k, *end = strchr(v, ' ');
    if (end == NULL || (size_t)(end - v) >= len)
        return NULL;
    memcpy(val, v, (size_t)(end - v));
    val[end - v] = '\0';
    *p = end;
    return val;
}

/* One error line into a record of one ply and the text that names it. */
static nk_status parse_error(const char *line, nk_record *r, char *note, size_t note_len,
                             nk_game *g, char *err, size_t errlen)
{
    static const char *const keys[] = {"variant", "game", "ply", "played", "optimal", "lost",
                                       "result"};
    char val[7][64];
    const char *p = line + 5; /* after "error" */
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (error_key(&p, keys[i], val[i], sizeof val[i]) == NULL)
            return nk_fail(NK_EINVAL, err, errlen, "expected ' %s=' in an error line", keys[i]);
    if (strncmp(p, " position=", 10) != 0)
        return nk_fail(NK_EINVAL, err, errlen, "expected ' position=' in an error line");
    char text[NK_POS_TEXT + 2];
    snprintf(text, sizeof text, "%s", p + 10);
    text[strcspn(text, "\r\n")] = '\0';
    const nk_variant *v = nk_variant_find(val[0]);
    if (v == NULL)
        return nk_fail(NK_EINVAL, err, errlen, "unknown variant '%s'", val[0]);
    nk_pos pos;
    char why[NK_MSG_MAX];
    if (nk_pos_parse(&pos, text, why, sizeof why) != NK_OK)
        return nk_fail(NK_EINVAL, err, errlen, "bad position: %s", why);
    const int mv = strlen(val[3]) == 1 ? nk_move_parse(val[3][0]) : -1;
    if (mv < 0)
        return nk_fail(NK_EINVAL, err, errlen, "bad move '%s'", val[3]);
    if (nk_game_init(g, v, &pos, NK_DEFAULT_PLY_LIMIT) != NK_OK ||
        nk_game_play(g, mv, NULL, why, sizeof why) != NK_OK)
        return nk_fail(NK_EINVAL, err, errlen, "the move played: %s", why);
    const uint8_t move = (uint8_t)mv;
    const char *mover = pos.side == NK_SOUTH ? "graded" : "-";
    const char *other = pos.side == NK_SOUTH ? "-" : "graded";
    nk_status st = nk_record_set(r, v, NK_DEFAULT_PLY_LIMIT, &pos, &move, 1, &g->result, mover,
                                 other, err, errlen);
    snprintf(note, note_len, "game %s, ply %s: played %s, optimal %s, %s seeds lost, %s",
             val[1], val[2], val[3], val[4], val[5], val[6]);
    return st;
}

/* Appends the errors of an errors file to *recs (*n of them) with their
 * notes in *sources. */
static nk_status read_errors(const char *path, nk_record **recs, size_t *n,
                             char (**sources)[320], nk_game *g, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return nk_fail(NK_ENOFILE, err, errlen, "cannot open '%s': %s", path, strerror(errno));
    char line[NK_POS_TEXT + 512], why[NK_MSG_MAX];
    nk_status st = NK_OK;
    for (unsigned no = 1; st == NK_OK && fgets(line, sizeof line, f) != NULL; no++) {
        if (line[0] == '\n' || line[0] == '#')
            continue;
        nk_record *grown = nk_realloc(*recs, (*n + 1) * sizeof **recs);
        char(*more)[320] = grown ? nk_realloc(*sources, (*n + 1) * sizeof **sources) : NULL;
        if (grown != NULL)
            *recs = grown;
        if (more == NULL) {
            st = nk_fail(NK_ENOMEM, err, errlen, "out of memory");
            break;
        }
        *sources = more;
        char note[240];
        st = strncmp(line, "error ", 6) != 0
                 ? nk_fail(NK_EINVAL, why, sizeof why, "not an error line")
                 : parse_error(line, &(*recs)[*n], note, sizeof note, g, why, sizeof why);
        if (st != NK_OK)
            nk_fail(st, err, errlen, "%s:%u: %s", path, no, why);
        else
            snprintf((*sources)[(*n)++], 320, "%.60s, %s", path, note);
    }
    fclose(f);
    return st;
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
                 "RUN.h5@gen=G,game=J play a fitness game of a run file again.  An\n"
                 "errors file of nickar grade --errors shows each error as a game of\n"
                 "one ply.",
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
    nk_game *g = nk_malloc(sizeof *g);
    if (g == NULL)
        st = nk_fail(NK_ENOMEM, err, sizeof err, "out of memory");
    for (int i = 0; st == NK_OK && i < cli.argc; i++) {
        size_t before = n;
        if (is_errors_file(cli.argv[i])) {
            st = read_errors(cli.argv[i], &recs, &n, &sources, g, err, sizeof err);
            continue;
        }
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
