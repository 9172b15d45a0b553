/*
 * pos.c -- positions: the start position, the R-B3 notation, hashing,
 * counts, and move letters (R-B4).
 *
 * Notation: "<a..f>/<A..F> <south store>-<north store> <S|N> [owners]".
 * The parser is strict: exactly one space between fields, none inside, only
 * decimal digits, every count 0..255 and their total at most 255, an owners
 * field of exactly twelve S/N letters.  Errors say which field is wrong.
 */
#include <stdio.h>
#include <string.h>

#include "rules/internal.h"

uint64_t nk_pos_hash(const nk_pos *p)
{
    uint64_t h = 0;
    for (int i = 0; i < NK_PITS; i++) {
        h ^= nk_zpit[i][p->pit[i]];
        if (((p->north ^ NK_DEFAULT_NORTH) >> i) & 1u)
            h ^= nk_zowner[i];
    }
    h ^= nk_zstore[NK_SOUTH][p->store[NK_SOUTH]] ^ nk_zstore[NK_NORTH][p->store[NK_NORTH]];
    if (p->side == NK_NORTH)
        h ^= nk_zside;
    return h;
}

void nk_pos_start(nk_pos *p, int side)
{
    memset(p, 0, sizeof *p);
    memset(p->pit, 4, NK_PITS);
    p->side = (uint8_t)(side == NK_NORTH);
    p->north = NK_DEFAULT_NORTH;
    p->hash = nk_pos_hash(p);
}

unsigned nk_pos_on_board(const nk_pos *p)
{
    return nk_board_sum(p);
}

unsigned nk_pos_total(const nk_pos *p)
{
    return nk_pos_on_board(p) + p->store[0] + p->store[1];
}

unsigned nk_pos_row_seeds(const nk_pos *p, int side)
{
    unsigned owned = nk_pos_owned(p, side), sum = 0;
    for (int i = 0; i < NK_PITS; i++)
        if ((owned >> i) & 1u)
            sum += p->pit[i];
    return sum;
}

char nk_move_letter(int move)
{
    if (move >= 0 && move < NK_ROW)
        return (char)('a' + move);
    if (move >= NK_ROW && move < NK_PITS)
        return (char)('A' + move - NK_ROW);
    if (move == NK_PASS)
        return '-';
    return '?';
}

int nk_move_parse(char c)
{
    if (c >= 'a' && c <= 'f')
        return c - 'a';
    if (c >= 'A' && c <= 'F')
        return NK_ROW + (c - 'A');
    if (c == '-')
        return NK_PASS;
    return NK_NO_MOVE;
}

void nk_moves_format(unsigned mask, char *out, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    out[0] = '\0';
    for (int m = 0; m <= NK_PASS; m++) {
        if (!((mask >> m) & 1u))
            continue;
        int n = snprintf(out + used, len - used, "%s%c", used ? ", " : "", nk_move_letter(m));
        if (n < 0 || (size_t)n >= len - used)
            return;
        used += (size_t)n;
    }
    if (used == 0)
        snprintf(out, len, "none");
}

void nk_pos_format(const nk_pos *p, char out[NK_POS_TEXT])
{
    int n = snprintf(out, NK_POS_TEXT, "%u,%u,%u,%u,%u,%u/%u,%u,%u,%u,%u,%u %u-%u %c",
                     p->pit[0], p->pit[1], p->pit[2], p->pit[3], p->pit[4], p->pit[5],
                     p->pit[6], p->pit[7], p->pit[8], p->pit[9], p->pit[10], p->pit[11],
                     p->store[0], p->store[1], p->side == NK_NORTH ? 'N' : 'S');
    if (p->north != NK_DEFAULT_NORTH && n > 0 && n + 14 < NK_POS_TEXT) {
        out[n++] = ' ';
        for (int i = 0; i < NK_PITS; i++)
            out[n++] = nk_pos_owner(p, i) ? 'N' : 'S';
        out[n] = '\0';
    }
}

/* ===== parsing ===== */

/* Reads a count 0..255 at *s; advances *s.  Returns -1 on no digits,
 * -2 on a value above 255. */
static int read_count(const char **s)
{
    const char *q = *s;
    unsigned v = 0;
    if (*q < '0' || *q > '9')
        return -1;
    while (*q >= '0' && *q <= '9') {
        v = v * 10 + (unsigned)(*q - '0');
        if (v > 255)
            return -2;
        q++;
    }
    *s = q;
    return (int)v;
}

static nk_status bad(char *err, size_t len, const char *text, const char *what)
{
    return nk_fail(NK_EINVAL, err, len, "bad position '%s': %s", text, what);
}

/* Parses n comma-separated counts ending at `end` (or NUL). */
static nk_status parse_counts(const char **s, uint8_t *dst, int n, char end,
                              const char *row, const char *text, char *err, size_t len)
{
    char what[160];
    for (int i = 0; i < n; i++) {
        int v = read_count(s);
        if (v == -2) {
            snprintf(what, sizeof what, "%s pit %d holds more than 255 seeds", row, i + 1);
            return bad(err, len, text, what);
        }
        if (v < 0) {
            snprintf(what, sizeof what,
                     "%s row needs 6 counts (digits 0..255 separated by ','); item %d is %s",
                     row, i + 1, **s == '-' ? "negative" : **s ? "not a number" : "missing");
            return bad(err, len, text, what);
        }
        dst[i] = (uint8_t)v;
        char want = i + 1 < n ? ',' : end;
        if (**s != want) {
            if (i + 1 == n && **s == '\0' && end == ' ')
                snprintf(what, sizeof what, "missing field 2, the stores (<south>-<north>), "
                                            "and field 3, the side to move");
            else if (**s == ',' || (i + 1 < n && (**s == end || **s == '\0')))
                snprintf(what, sizeof what, "%s row needs exactly 6 counts", row);
            else
                snprintf(what, sizeof what, "unexpected '%c' in the %s row", **s ? **s : ' ',
                         row);
            return bad(err, len, text, what);
        }
        if (**s)
            (*s)++;
    }
    return NK_OK;
}

nk_status nk_pos_parse(nk_pos *p, const char *text, char *err, size_t len)
{
    nk_pos q;
    const char *s = text;
    memset(&q, 0, sizeof q);
    q.north = NK_DEFAULT_NORTH;
    if (text == NULL || *text == '\0')
        return nk_fail(NK_EINVAL, err, len, "bad position '': empty");
    nk_status st = parse_counts(&s, q.pit, NK_ROW, '/', "South's (a..f)", text, err, len);
    if (st == NK_OK)
        st = parse_counts(&s, q.pit + NK_ROW, NK_ROW, ' ', "North's (A..F)", text, err, len);
    if (st != NK_OK)
        return st;
    int a = read_count(&s);
    if (a < 0 || *s != '-')
        return bad(err, len, text,
                   a == -2       ? "a store holds more than 255 seeds"
                   : *s == '-'   ? "field 2: a store count is negative"
                           : "field 2 must be the stores as <south>-<north>, e.g. 0-0");
    s++;
    int b = read_count(&s);
    if (b < 0 || *s != ' ')
        return bad(err, len, text,
                   b == -2       ? "a store holds more than 255 seeds"
                   : *s == '-'   ? "field 2: a store count is negative"
                   : *s == '\0' ? "missing field 3, the side to move (S or N)"
                                : "field 2 must be the stores as <south>-<north>, e.g. 0-0");
    q.store[0] = (uint8_t)a;
    q.store[1] = (uint8_t)b;
    s++;
    if ((*s != 'S' && *s != 'N') || (s[1] != '\0' && s[1] != ' '))
        return bad(err, len, text, "field 3, the side to move, must be S or N");
    q.side = (uint8_t)(*s == 'N');
    s++;
    if (*s == ' ') {
        s++;
        uint16_t north = 0;
        int i = 0;
        for (; i < NK_PITS && (s[i] == 'S' || s[i] == 'N'); i++)
            if (s[i] == 'N')
                north = (uint16_t)(north | (1u << i));
        if (i < NK_PITS || s[i] != '\0')
            return bad(err, len, text,
                       "field 4, the owners, must be exactly twelve letters S or N, pit a first");
        q.north = north;
    } else if (*s != '\0') {
        return bad(err, len, text, "unexpected text after the side to move");
    }
    unsigned total = 0;
    for (int i = 0; i < NK_PITS; i++)
        total += q.pit[i];
    total += q.store[0] + q.store[1];
    if (total > 255) {
        char what[80];
        snprintf(what, sizeof what, "%u seeds in all; at most 255 are allowed", total);
        return bad(err, len, text, what);
    }
    q.hash = nk_pos_hash(&q);
    *p = q;
    return NK_OK;
}
