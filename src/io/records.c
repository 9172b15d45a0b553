/*
 * records.c -- game records, one line a game (io/records.h).
 *
 * The parser reads the keys in their fixed order with a cursor; a value
 * runs to the next space, but the record's, which runs to the end of the
 * line.  The moves are then played by the engine (rules/), which decides
 * whether they are legal and how the game ended.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/records.h"
#include "io/regen.h"

static const char *const KEYS[] = {"variant", "limit", "south",  "north",  "result",
                                   "score",   "reason", "plies", "record"};
enum { K_VARIANT, K_LIMIT, K_SOUTH, K_NORTH, K_RESULT, K_SCORE, K_REASON, K_PLIES, K_RECORD,
       K_COUNT };

/* A value cut to 40 characters for a message, controls as '?'. */
static const char *show(const char *s, size_t n, char out[48])
{
    size_t k = 0;
    for (; k < n && k < 40; k++)
        out[k] = (s[k] < 0x20 || s[k] == 0x7f) ? '?' : s[k];
    if (n > 40)
        memcpy(out + k, "...", 3), k += 3;
    out[k] = '\0';
    return out;
}

static nk_status check_spec(const char *spec, const char *who, char *err, size_t errlen)
{
    size_t n = strlen(spec);
    if (n == 0 || n >= NK_RECORD_SPEC)
        return nk_fail(NK_EINVAL, err, errlen, "%s's spec is %s", who,
                       n == 0 ? "empty" : "too long");
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)spec[i] <= ' ' || spec[i] == 0x7f)
            return nk_fail(NK_EINVAL, err, errlen,
                           "%s's spec holds a space or a control character, which a game "
                           "record cannot hold", who);
    return NK_OK;
}

nk_status nk_record_set(nk_record *r, const nk_variant *v, unsigned ply_limit,
                        const nk_pos *start, const uint8_t *moves, unsigned plies,
                        const nk_result *result, const char *south, const char *north,
                        char *err, size_t errlen)
{
    if (ply_limit == 0 || ply_limit > NK_MAX_PLIES || plies > ply_limit)
        return nk_fail(NK_ERANGE, err, errlen, "bad ply count %u or limit %u", plies, ply_limit);
    nk_status st = check_spec(south, "South", err, errlen);
    if (st == NK_OK)
        st = check_spec(north, "North", err, errlen);
    if (st != NK_OK)
        return st;
    r->variant = v;
    r->ply_limit = ply_limit;
    strcpy(r->player[NK_SOUTH], south);
    strcpy(r->player[NK_NORTH], north);
    r->result = *result;
    r->start = *start;
    r->plies = plies;
    if (plies)
        memcpy(r->moves, moves, plies);
    return NK_OK;
}

size_t nk_record_format(const nk_record *r, char *buf, size_t len)
{
    char pos[NK_POS_TEXT], result[64];
    const nk_result *res = &r->result;
    nk_pos_format(&r->start, pos);
    if (res->reason == NK_END_NONE)
        snprintf(result, sizeof result, "result=none score=- reason=none");
    else
        snprintf(result, sizeof result, "result=%s score=%u-%u reason=%s",
                 res->winner == NK_DRAW ? "draw" : res->winner == NK_SOUTH ? "S" : "N",
                 res->total[NK_SOUTH], res->total[NK_NORTH], nk_end_name(res->reason));
    int k = snprintf(buf, len, "game variant=%s limit=%u south=%s north=%s %s plies=%u record=%s",
                     r->variant->name, r->ply_limit, r->player[NK_SOUTH], r->player[NK_NORTH],
                     result, r->plies, pos);
    size_t n = k < 0 ? 0 : (size_t)k;
    for (unsigned i = 0; i < r->plies; i++, n += 2)
        if (n + 2 < len) {
            buf[n] = ' ';
            buf[n + 1] = nk_move_letter(r->moves[i]);
            buf[n + 2] = '\0';
        }
    return n;
}

/* ===== reading ===== */

/* A number of at most 9 digits, all of s[0..n). */
static bool number(const char *s, size_t n, unsigned *out)
{
    if (n == 0 || n > 9)
        return false;
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return true;
}

static bool is(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* The values of the keys, split; false after a message. */
static bool split(const char *line, const char *val[K_COUNT], size_t len[K_COUNT], char *err,
                  size_t errlen)
{
    char q[48];
    const char *p = line;
    if (strncmp(p, "game ", 5) != 0) {
        size_t n = strcspn(p, " ");
        nk_fail(NK_EINVAL, err, errlen, "a record starts with 'game ', not '%s'", show(p, n, q));
        return false;
    }
    p += 5;
    for (int k = 0; k < K_COUNT; k++) {
        size_t kl = strlen(KEYS[k]);
        if (strncmp(p, KEYS[k], kl) != 0 || p[kl] != '=') {
            nk_fail(NK_EINVAL, err, errlen, "expected %s=... at '%s'", KEYS[k],
                    show(p, strcspn(p, " "), q));
            return false;
        }
        p += kl + 1;
        val[k] = p;
        len[k] = k == K_RECORD ? strlen(p) : strcspn(p, " ");
        if (len[k] == 0) {
            nk_fail(NK_EINVAL, err, errlen, "%s= has no value", KEYS[k]);
            return false;
        }
        p += len[k];
        if (k != K_RECORD) {
            if (*p != ' ') {
                nk_fail(NK_EINVAL, err, errlen, "the line ends after %s=; %s=... is missing",
                        KEYS[k], KEYS[k + 1]);
                return false;
            }
            p++;
        }
    }
    return true;
}

static nk_status read_result(nk_record *r, const char *val[K_COUNT], const size_t len[K_COUNT],
                             char *err, size_t errlen)
{
    char q[48];
    const char *s = val[K_RESULT];
    size_t n = len[K_RESULT];
    memset(&r->result, 0, sizeof r->result);
    if (is(s, n, "none")) {
        if (!is(val[K_SCORE], len[K_SCORE], "-") || !is(val[K_REASON], len[K_REASON], "none"))
            return nk_fail(NK_EINVAL, err, errlen,
                           "result=none needs score=- and reason=none");
        return NK_OK;
    }
    if (is(s, n, "S"))
        r->result.winner = NK_SOUTH;
    else if (is(s, n, "N"))
        r->result.winner = NK_NORTH;
    else if (is(s, n, "draw"))
        r->result.winner = NK_DRAW;
    else
        return nk_fail(NK_EINVAL, err, errlen, "bad result '%s': expected S, N, draw or none",
                       show(s, n, q));
    const char *sc = val[K_SCORE], *dash = memchr(sc, '-', len[K_SCORE]);
    if (dash == NULL || !number(sc, (size_t)(dash - sc), &r->result.total[NK_SOUTH]) ||
        !number(dash + 1, len[K_SCORE] - (size_t)(dash - sc) - 1, &r->result.total[NK_NORTH]))
        return nk_fail(NK_EINVAL, err, errlen, "bad score '%s': expected SOUTH-NORTH, e.g. 26-22",
                       show(sc, len[K_SCORE], q));
    for (int e = 1; e < NK_END_COUNT; e++)
        if (is(val[K_REASON], len[K_REASON], nk_end_name((nk_end)e)))
            r->result.reason = (nk_end)e;
    if (r->result.reason == NK_END_NONE)
        return nk_fail(NK_EINVAL, err, errlen, "unknown end reason '%s'",
                       show(val[K_REASON], len[K_REASON], q));
    return NK_OK;
}

/* The start position and the moves of the record= value. */
static nk_status read_moves(nk_record *r, const char *s, size_t n, char *err, size_t errlen)
{
    char text[NK_POS_TEXT], perr[256], q[48];
    /* The position: three fields, and the owners when a fourth is longer
     * than a move. */
    size_t end = 0;
    for (int field = 0; field < 4 && end < n; field++) {
        size_t f = end + (field ? 1 : 0), fl = strcspn(s + f, " ");
        if (field == 3 && fl <= 1)
            break;
        end = f + fl;
    }
    if (end >= sizeof text)
        return nk_fail(NK_EINVAL, err, errlen, "the start position is too long");
    memcpy(text, s, end);
    text[end] = '\0';
    if (nk_pos_parse(&r->start, text, perr, sizeof perr) != NK_OK)
        return nk_fail(NK_EINVAL, err, errlen, "bad start position '%s': %s",
                       show(text, end, q), perr);
    r->plies = 0;
    for (size_t i = end; i < n; i += 2) {
        int m = i + 1 < n && s[i] == ' ' && (i + 2 == n || s[i + 2] == ' ')
                    ? nk_move_parse(s[i + 1])
                    : NK_NO_MOVE;
        if (m == NK_NO_MOVE)
            return nk_fail(NK_EINVAL, err, errlen,
                           "bad move %u '%s': a move is one letter, a-f, A-F or -",
                           r->plies + 1, show(s + i + 1, strcspn(s + i + 1, " "), q));
        if (r->plies == NK_MAX_PLIES)
            return nk_fail(NK_EINVAL, err, errlen, "more than %d moves", NK_MAX_PLIES);
        r->moves[r->plies++] = (uint8_t)m;
    }
    return NK_OK;
}

nk_status nk_record_game(const nk_record *r, nk_game *g, unsigned plies, char *err,
                         size_t errlen)
{
    char msg[256];
    nk_status st = nk_game_init(g, r->variant, &r->start, r->ply_limit);
    if (st != NK_OK)
        return nk_fail(NK_EINVAL, err, errlen, "the game cannot start: %s",
                       st == NK_EINVAL ? "pit owners other than the rows in a Warri-family "
                                         "variant" : nk_strerror(st));
    for (unsigned i = 0; i < plies; i++) {
        st = nk_game_play(g, r->moves[i], NULL, msg, sizeof msg);
        if (st == NK_EOVER)
            return nk_fail(NK_EINVAL, err, errlen,
                           "move %u '%c' comes after the end of the game (%s after ply %u)",
                           i + 1, nk_move_letter(r->moves[i]), nk_end_name(g->result.reason),
                           g->ply);
        if (st != NK_OK)
            return nk_fail(NK_EINVAL, err, errlen, "move %u '%c' is illegal: %s", i + 1,
                           nk_move_letter(r->moves[i]), msg);
    }
    return NK_OK;
}

nk_status nk_record_parse(nk_record *r, const char *line, char *err, size_t errlen)
{
    char q[48], name[48];
    const char *val[K_COUNT];
    size_t len[K_COUNT];
    size_t n = strlen(line);
    char *copy = nk_malloc(n + 1);
    if (copy == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    memcpy(copy, line, n + 1);
    if (n > 0 && copy[n - 1] == '\n')
        copy[--n] = '\0';
    nk_status st = NK_EINVAL;
    unsigned plies = 0;
    nk_game *g = NULL;
    memset(r, 0, sizeof *r);
    if (!split(copy, val, len, err, errlen))
        goto out;
    snprintf(name, sizeof name, "%.*s", (int)(len[K_VARIANT] < 40 ? len[K_VARIANT] : 40),
             val[K_VARIANT]);
    r->variant = len[K_VARIANT] < 40 ? nk_variant_find(name) : NULL;
    if (r->variant == NULL) {
        nk_fail(NK_EINVAL, err, errlen, "unknown variant '%s'",
                show(val[K_VARIANT], len[K_VARIANT], q));
        goto out;
    }
    if (!number(val[K_LIMIT], len[K_LIMIT], &r->ply_limit) || r->ply_limit == 0 ||
        r->ply_limit > NK_MAX_PLIES) {
        nk_fail(NK_EINVAL, err, errlen, "bad limit '%s': expected 1..%d",
                show(val[K_LIMIT], len[K_LIMIT], q), NK_MAX_PLIES);
        goto out;
    }
    for (int side = 0; side < 2; side++) {
        int k = side == NK_SOUTH ? K_SOUTH : K_NORTH;
        if (len[k] >= NK_RECORD_SPEC) {
            nk_fail(NK_EINVAL, err, errlen, "%s's spec is too long", KEYS[k]);
            goto out;
        }
        memcpy(r->player[side], val[k], len[k]);
        r->player[side][len[k]] = '\0';
        if (check_spec(r->player[side], side ? "North" : "South", err, errlen) != NK_OK)
            goto out;
    }
    if (read_result(r, val, len, err, errlen) != NK_OK)
        goto out;
    if (!number(val[K_PLIES], len[K_PLIES], &plies)) {
        nk_fail(NK_EINVAL, err, errlen, "bad plies '%s': expected a count",
                show(val[K_PLIES], len[K_PLIES], q));
        goto out;
    }
    if (read_moves(r, val[K_RECORD], len[K_RECORD], err, errlen) != NK_OK)
        goto out;
    if (r->plies != plies) {
        nk_fail(NK_EINVAL, err, errlen, "plies=%u but the record holds %u moves", plies,
                r->plies);
        goto out;
    }
    g = nk_malloc(sizeof *g);
    if (g == NULL) {
        st = nk_fail(NK_ENOMEM, err, errlen, "out of memory");
        goto out;
    }
    if (nk_record_game(r, g, r->plies, err, errlen) != NK_OK)
        goto out;
    nk_game_forfeit(g, r->result.reason); /* only a forfeit, only of a live game */
    const nk_result *want = &r->result, *got = &g->result;
    if (got->reason != want->reason ||
        (want->reason != NK_END_NONE &&
         (got->winner != want->winner || got->total[0] != want->total[0] ||
          got->total[1] != want->total[1]))) {
        char moves[64];
        if (got->reason == NK_END_NONE)
            snprintf(moves, sizeof moves, "the game goes on");
        else
            snprintf(moves, sizeof moves, "%s %u-%u %s",
                     got->winner == NK_DRAW ? "draw" : got->winner ? "N" : "S",
                     got->total[0], got->total[1], nk_end_name(got->reason));
        nk_fail(NK_EINVAL, err, errlen, "the moves end in '%s', not in the result stated",
                moves);
        goto out;
    }
    st = NK_OK;
out:
    nk_free(g);
    nk_free(copy);
    return st;
}

nk_status nk_records_read(const char *path, nk_record **recs, size_t *n, char *err,
                          size_t errlen)
{
    char msg[NK_MSG_MAX];
    if (nk_regen_source(path) && access(path, F_OK) != 0) { /* RUN.h5@game=K (io/regen.h) */
        nk_record *grown = nk_realloc(*recs, (*n + 1) * sizeof **recs);
        if (grown == NULL)
            return nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu records", *n + 1);
        *recs = grown;
        nk_status st = nk_regen_game(path, &grown[*n], err, errlen);
        if (st == NK_OK)
            (*n)++;
        return st;
    }
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return nk_fail(NK_ENOFILE, err, errlen, "cannot open '%s': %s", path, strerror(errno));
    char *line = nk_malloc(NK_RECORD_LINE + 1);
    nk_status st = NK_OK;
    size_t before = *n;
    if (line == NULL) {
        fclose(f);
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    }
    for (unsigned long lineno = 1; st == NK_OK && fgets(line, NK_RECORD_LINE + 1, f); lineno++) {
        size_t len = strlen(line);
        if (len == NK_RECORD_LINE && line[len - 1] != '\n') {
            st = nk_fail(NK_EINVAL, err, errlen, "%s:%lu: line too long for a game record",
                         path, lineno);
            break;
        }
        if (line[0] == '#' || line[0] == '\n')
            continue;
        nk_record *grown = nk_realloc(*recs, (*n + 1) * sizeof **recs);
        if (grown == NULL) {
            st = nk_fail(NK_ENOMEM, err, errlen, "out of memory for %zu records", *n + 1);
            break;
        }
        *recs = grown;
        st = nk_record_parse(&grown[*n], line, msg, sizeof msg);
        if (st != NK_OK)
            nk_fail(st, err, errlen, "%s:%lu: %s", path, lineno, msg);
        else
            (*n)++;
    }
    if (st == NK_OK && ferror(f))
        st = nk_fail(NK_EIO, err, errlen, "cannot read '%s': %s", path, strerror(errno));
    if (st == NK_OK && *n == before)
        st = nk_fail(NK_EFORMAT, err, errlen, "%s: no game record in the file", path);
    nk_free(line);
    fclose(f);
    return st;
}
