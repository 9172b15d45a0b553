/*
 * util.c -- option parsing, input checks, JSON output and the board drawing
 * shared by the subcommands.
 *
 * Conventions kept here: every message is one line on stderr that starts
 * with "nickar <command>: " and quotes the offending input (made printable
 * and cut to a reasonable length, so a message never spans lines); nothing
 * here exits.
 */
#include "cli/util.h"
#include "base/alloc.h"
#include "base/escape.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { QUOTE_MAX = 80 }; /* about the characters of input quoted in a message */

/* ===== option parsing ===== */

/* What a play setting's option adds to its help line, from its row: " (default
 * 2; 0..20)", " (default game; one of auto, game, match)", " (1..1024)". */
static void param_suffix(const nk_param *p, char *buf, size_t len)
{
    char range[256] = "";
    if (p->type == NK_PARAM_ENUM) {
        size_t n = (size_t)snprintf(range, sizeof range, "one of ");
        for (size_t i = 0; nk_param_choice(p, i) != NULL && n < sizeof range; i++)
            n += (size_t)snprintf(range + n, sizeof range - n, "%s%s", i ? ", " : "",
                                  nk_param_choice(p, i));
    } else {
        nk_param_range_text(p, range, sizeof range);
    }
    bool def = p->def != NULL, both = def && range[0] != '\0';
    if (!def && range[0] == '\0')
        buf[0] = '\0';
    else
        snprintf(buf, len, " (%s%s%s%s)", def ? "default " : "", def ? p->def : "",
                 both ? "; " : "", range);
}

static void print_help(const nk_cli *cli)
{
    printf("usage: nickar %s %s\n", cli->name, cli->synopsis);
    if (cli->about != NULL)
        printf("\n%s\n", cli->about);
    size_t width = strlen("-h, --help");
    for (const nk_opt *o = cli->opts; o->name != NULL; o++) {
        size_t w = 2 + strlen(o->name) + (o->arg ? 1 + strlen(o->arg) : 0);
        if (w > width)
            width = w;
    }
    printf("\noptions:\n");
    for (const nk_opt *o = cli->opts; o->name != NULL; o++) {
        char left[128];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        char suffix[320] = "";
        if (o->param != NULL)
            param_suffix(o->param, suffix, sizeof suffix);
        printf("  %-*s  %s%s\n", (int)width, left, o->help, suffix);
    }
    printf("  %-*s  %s\n", (int)width, "-h, --help", "print this help and exit");
}

static nk_opt *find_opt(const nk_cli *cli, const char *name, size_t len)
{
    for (nk_opt *o = cli->opts; o->name != NULL; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

/* Reads the option at argv[*i] (which starts with "--"); advances *i past
 * its value when the value is the next argument. */
static bool parse_long(const nk_cli *cli, int argc, char **argv, int *i)
{
    char q[QUOTE_MAX + 8];
    const char *name = argv[*i] + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    nk_opt *o = find_opt(cli, name, len);
    if (o == NULL) {
        nk_cli_error(cli, "unknown option '%s' (see nickar %s --help)",
                     nk_cli_quote(argv[*i], q, sizeof q), cli->name);
        return false;
    }
    if (o->arg == NULL) {
        if (eq != NULL) {
            nk_cli_error(cli, "option '--%s' takes no value", o->name);
            return false;
        }
        o->value = "";
    } else if (eq != NULL) {
        o->value = eq + 1;
    } else if (*i + 1 < argc) {
        o->value = argv[++*i];
    } else {
        nk_cli_error(cli, "option '--%s' needs a value (%s)", o->name, o->arg);
        return false;
    }
    return true;
}

int nk_cli_parse(nk_cli *cli, int argc, char **argv)
{
    char q[QUOTE_MAX + 8];
    int n = 0; /* operands moved to argv[1..n] */
    bool options = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options || a[0] != '-' || a[1] == '\0') {
            argv[1 + n++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            options = false;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help(cli);
            return nk_cli_finish(cli);
        } else if (a[1] == '-') {
            if (!parse_long(cli, argc, argv, &i))
                return NK_EXIT_USAGE;
        } else {
            nk_cli_error(cli, "unknown option '%s' (see nickar %s --help)",
                         nk_cli_quote(a, q, sizeof q), cli->name);
            return NK_EXIT_USAGE;
        }
    }
    if (cli->max_args >= 0 && n > cli->max_args) {
        nk_cli_error(cli, "unexpected argument '%s' (see nickar %s --help)",
                     nk_cli_quote(argv[1 + cli->max_args], q, sizeof q),
                     cli->name);
        return NK_EXIT_USAGE;
    }
    cli->argc = n;
    cli->argv = argv + 1;
    return NK_CLI_GO;
}

/* ===== messages ===== */

/* Prints prefix and the message, escaped (base/escape.h) so that it is one
 * line whatever it quotes: the one place where messages meet stderr. */
static void print_line(const char *prefix, const char *fmt, va_list ap)
{
    char msg[2 * NK_MSG_MAX], line[8 * NK_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "%s%s\n", prefix, nk_escape(msg, line, sizeof line));
}

void nk_cli_error(const nk_cli *cli, const char *fmt, ...)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "nickar%s%s: ", cli != NULL ? " " : "",
             cli != NULL ? cli->name : "");
    va_list ap;
    va_start(ap, fmt);
    print_line(prefix, fmt, ap);
    va_end(ap);
}

void nk_cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_line("", fmt, ap);
    va_end(ap);
}

const char *nk_cli_quote(const char *text, char *buf, size_t len)
{
    return nk_escape(text, buf, len);
}

/* ===== numbers, variants, positions ===== */

/* Reads the value of option o as a whole number of row p with nk_param_parse_scalar,
 * the one number reader of the options (decimal digits only: no sign, no
 * spaces); on failure says which option and that it expects an integer
 * from lo to hi. */
static bool read_number(const nk_cli *cli, const nk_opt *o, const nk_param *p, const char *lo,
                        const char *hi, uint64_t *out)
{
    char q[QUOTE_MAX + 8], canon[32], why[NK_MSG_MAX];
    const char *s = o->value;
    bool digits = s[0] != '\0';
    for (const char *c = s; *c; c++)
        digits = digits && isdigit((unsigned char)*c);
    if (!digits || nk_param_parse_scalar(p, s, canon, sizeof canon, why, sizeof why) != NK_OK) {
        nk_cli_error(cli, "bad value '%s' for --%s: expected an integer from %s to %s",
                     nk_cli_quote(s, q, sizeof q), o->name, lo, hi);
        return false;
    }
    *out = strtoull(canon, NULL, 10);
    return true;
}

bool nk_cli_uint(const nk_cli *cli, int opt, uint64_t min, uint64_t max, uint64_t *out)
{
    /* bounds as doubles: exact for every bound used (below 2^53, and
     * UINT64_MAX, which becomes 2^64 and leaves the range to strtoull) */
    nk_param p = {.name = cli->opts[opt].name,
                  .type = NK_PARAM_UINT64,
                  .flags = NK_PARAM_MIN | NK_PARAM_MAX,
                  .min = (double)min,
                  .max = (double)max};
    char lo[32], hi[32];
    snprintf(lo, sizeof lo, "%llu", (unsigned long long)min);
    snprintf(hi, sizeof hi, "%llu", (unsigned long long)max);
    return read_number(cli, &cli->opts[opt], &p, lo, hi, out);
}

bool nk_cli_number(const nk_cli *cli, int opt, uint64_t *out)
{
    const nk_opt *o = &cli->opts[opt];
    const nk_param *p = o->param;
    const char *text = o->value != NULL ? o->value : p->def;
    if (text == NULL)
        return true;
    if (o->value == NULL) { /* the row's default, canonical already */
        *out = strtoull(text, NULL, 10);
        return true;
    }
    char lo[32] = "0", hi[32];
    if (p->flags & NK_PARAM_MIN)
        nk_param_format_double(p->min, lo, sizeof lo);
    if (p->flags & NK_PARAM_MAX)
        nk_param_format_double(p->max, hi, sizeof hi);
    else
        snprintf(hi, sizeof hi, "%llu",
                 p->type == NK_PARAM_INT ? (unsigned long long)INT_MAX
                                         : (unsigned long long)UINT64_MAX);
    return read_number(cli, o, p, lo, hi, out);
}

bool nk_cli_choice(const nk_cli *cli, int opt, const char **out)
{
    const nk_opt *o = &cli->opts[opt];
    const nk_param *p = o->param;
    const char *text = o->value != NULL ? o->value : p->def;
    char q[QUOTE_MAX + 8], names[256];
    size_t n = 0;
    names[0] = '\0';
    for (size_t i = 0; nk_param_choice(p, i) != NULL; i++) {
        if (strcmp(nk_param_choice(p, i), text) == 0) {
            *out = nk_param_choice(p, i);
            return true;
        }
        if (n < sizeof names)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                                  nk_param_choice(p, i));
    }
    nk_cli_error(cli, "bad value '%s' for --%s: expected one of %s",
                 nk_cli_quote(text, q, sizeof q), o->name, names);
    return false;
}

void nk_cli_variant_names(char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < nk_variant_count() && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
                              nk_variant_at(i)->name);
}

const nk_variant *nk_cli_variant(const nk_cli *cli, const char *text)
{
    char names[256], q[QUOTE_MAX + 8];
    nk_cli_variant_names(names, sizeof names);
    if (text == NULL) {
        nk_cli_error(cli, "missing --variant V (one of: %s)", names);
        return NULL;
    }
    const nk_variant *v = nk_variant_find(text);
    if (v == NULL)
        nk_cli_error(cli, "unknown variant '%s' (one of: %s)",
                     nk_cli_quote(text, q, sizeof q), names);
    return v;
}

bool nk_cli_position(const nk_cli *cli, const char *text, nk_pos *pos)
{
    if (text == NULL) {
        nk_pos_start(pos, NK_SOUTH);
        return true;
    }
    /* The engine's message is "bad position '<text>': <what>", with the
     * text as given: room for all of it, then the text is quoted again,
     * made printable and cut. */
    size_t len = strlen(text) + 256;
    char *err = nk_malloc(len);
    if (err == NULL) {
        nk_cli_error(cli, "out of memory");
        return false;
    }
    bool ok = nk_pos_parse(pos, text, err, len) == NK_OK;
    if (!ok) {
        char q[QUOTE_MAX + 8], what[256];
        const char *prefix = "bad position '";
        size_t skip = strlen(prefix) + strlen(text) + 3; /* the text, then "': " */
        bool known = strncmp(err, prefix, strlen(prefix)) == 0 && strlen(err) > skip;
        nk_cli_error(cli, "bad position '%s': %s", nk_cli_quote(text, q, sizeof q),
                     nk_cli_quote(known ? err + skip : err, what, sizeof what));
    }
    nk_free(err);
    return ok;
}

bool nk_cli_game(const nk_cli *cli, nk_game *game, const nk_variant *v,
                 const nk_pos *pos)
{
    nk_status s = nk_game_init(game, v, pos, NK_DEFAULT_PLY_LIMIT);
    if (s == NK_OK)
        return true;
    char text[NK_POS_TEXT];
    nk_pos_format(pos, text);
    if (s == NK_EINVAL && pos->north != NK_DEFAULT_NORTH)
        nk_cli_error(cli, "bad position '%s' for %s: only adjikui positions have an"
                     " owners field (pits owned by the other row's player)", text, v->name);
    else
        nk_cli_error(cli, "cannot start a game of %s from '%s': %s", v->name, text,
                     nk_strerror(s));
    return false;
}

/* ===== words ===== */

const char *nk_cli_side_name(int side)
{
    return side == NK_NORTH ? "North" : "South";
}

char nk_cli_side_letter(int side)
{
    return side == NK_NORTH ? 'N' : 'S';
}

void nk_cli_result_text(const nk_result *r, char *buf, size_t len)
{
    if (r->winner == NK_DRAW)
        snprintf(buf, len, "draw %u-%u (%s)", r->total[NK_SOUTH],
                 r->total[NK_NORTH], nk_end_name(r->reason));
    else
        snprintf(buf, len, "%s wins %u-%u (%s)", nk_cli_side_name(r->winner),
                 r->total[r->winner], r->total[!r->winner],
                 nk_end_name(r->reason));
}

/* ===== the board ===== */

/* Pits drawn left to right on each line: North's row F..A, South's a..f. */
static const int top_row[NK_ROW] = {11, 10, 9, 8, 7, 6};
static const int bottom_row[NK_ROW] = {0, 1, 2, 3, 4, 5};

static void board_rule(FILE *out)
{
    fputs("      ", out);
    for (int i = 0; i < NK_ROW; i++)
        fputs("+-----", out);
    fputs("+\n", out);
}

static void board_names(FILE *out, const int *pits)
{
    fputs("      ", out);
    for (int i = 0; i < NK_ROW; i++)
        fprintf(out, "   %c%s", nk_move_letter(pits[i]), i + 1 < NK_ROW ? "  " : "\n");
}

static void board_row(FILE *out, const nk_pos *pos, const int *pits, int row,
                      bool *bought)
{
    fputs("      ", out);
    for (int i = 0; i < NK_ROW; i++) {
        bool other = nk_pos_owner(pos, pits[i]) != row;
        *bought = *bought || other;
        fprintf(out, "| %3u%c", pos->pit[pits[i]], other ? '*' : ' ');
    }
    fprintf(out, "|  %s%s\n", nk_cli_side_name(row),
            pos->side == row ? "  <- to move" : "");
}

void nk_cli_board(FILE *out, const nk_pos *pos)
{
    bool bought = false;
    board_names(out, top_row);
    board_rule(out);
    board_row(out, pos, top_row, NK_NORTH, &bought);
    /* The middle rule carries the stores: North's at the left end, South's
     * at the right end. */
    fprintf(out, "  %3u ", pos->store[NK_NORTH]);
    for (int i = 0; i < NK_ROW; i++)
        fputs("+-----", out);
    fprintf(out, "+ %u\n", pos->store[NK_SOUTH]);
    board_row(out, pos, bottom_row, NK_SOUTH, &bought);
    board_rule(out);
    board_names(out, bottom_row);
    if (bought)
        fputs("      (* a pit owned by the player of the other row)\n", out);
}

/* ===== JSON ===== */

void nk_cli_json_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void nk_cli_json_moves(FILE *out, unsigned mask)
{
    bool first = true;
    fputc('[', out);
    for (int m = 0; m <= NK_PASS; m++) {
        if (mask & (1u << m)) {
            fprintf(out, "%s\"%c\"", first ? "" : ",", nk_move_letter(m));
            first = false;
        }
    }
    fputc(']', out);
}

void nk_cli_json_result(FILE *out, const nk_result *r, long plies)
{
    const char *plies_key = plies >= 0 ? ",\"plies\":" : "";
    if (r->reason == NK_END_NONE) {
        fputs("\"result\":null,\"south\":null,\"north\":null", out);
        if (plies >= 0)
            fprintf(out, "%s%ld", plies_key, plies);
        fputs(",\"reason\":null", out);
        return;
    }
    fprintf(out, "\"result\":\"%s\",\"south\":%u,\"north\":%u",
            r->winner == NK_DRAW ? "draw" : r->winner == NK_NORTH ? "N" : "S",
            r->total[NK_SOUTH], r->total[NK_NORTH]);
    if (plies >= 0)
        fprintf(out, "%s%ld", plies_key, plies);
    fputs(",\"reason\":", out);
    nk_cli_json_string(out, nk_end_name(r->reason));
}

int nk_cli_exit(nk_status st)
{
    switch (st) {
    case NK_OK:
        return NK_EXIT_OK;
    case NK_EINVAL:
    case NK_ERANGE:
    case NK_EILLEGAL:
    case NK_EOVER:
    case NK_EFORMAT:
    case NK_EMISMATCH:
    case NK_ENOFILE:
        return NK_EXIT_USAGE;
    case NK_ENOMEM:
    case NK_EIO:
    case NK_EINTERRUPTED:
    case NK_ESTATUS_COUNT:
        break;
    }
    return NK_EXIT_FAIL;
}

int nk_cli_finish(const nk_cli *cli)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        nk_cli_error(cli, "cannot write the output: %s", strerror(errno));
        return NK_EXIT_FAIL;
    }
    return NK_EXIT_OK;
}

void nk_cli_move_text(FILE *out, int move, const nk_ply_info *info)
{
    if (move == NK_PASS)
        fputs("passes", out);
    else
        fprintf(out, "plays %c", nk_move_letter(move));
    if (info->captured > 0)
        fprintf(out, " and captures %u", info->captured);
    if (info->grand_slam)
        fputs(" (grand slam)", out);
}
