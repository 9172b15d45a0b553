/*
 * reference.c -- the naive reference implementation of docs/rules.md (see
 * reference.h for what it is for and how it is used).
 *
 * Every function below cites the rule it implements.  Nothing here is
 * optimised: sowing moves one seed at a time, legality is decided by playing
 * the move out, a game keeps every position it went through and repetition
 * compares the newest with all of them.
 */
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ===== names ===== */

static const char *const ref_variant_names[REF_VARIANTS] = {
    "antigua", "speightstown", "bridgetown", "abapa", "adjikui", "awari",
};

const char *ref_variant_name(int variant)
{
    if (variant < 0 || variant >= REF_VARIANTS)
        return "?";
    return ref_variant_names[variant];
}

int ref_variant_find(const char *name)
{
    for (int v = 0; v < REF_VARIANTS; v++)
        if (strcmp(name, ref_variant_names[v]) == 0)
            return v;
    return -1;
}

const char *ref_reason_name(int reason)
{
    /* R-G2 */
    switch (reason) {
    case REF_NONE: return "none";
    case REF_MAJORITY: return "majority";
    case REF_EMPTY_ROW: return "empty-row";
    case REF_NO_FEED: return "no-feed";
    case REF_FEW_SEEDS: return "few-seeds";
    case REF_PASSES: return "passes";
    case REF_REPETITION: return "repetition";
    case REF_PLY_LIMIT: return "ply-limit";
    }
    return "?";
}

char ref_move_letter(int move)
{
    /* R-B4 */
    if (move == REF_PASS)
        return '-';
    if (move >= 0 && move < 6)
        return (char)('a' + move);
    if (move >= 6 && move < 12)
        return (char)('A' + (move - 6));
    return '?';
}

/* ===== positions ===== */

/* R-B1: South's row is pits 0..5, North's 6..11. */
static int row_of(int pit)
{
    return pit < 6 ? REF_SOUTH : REF_NORTH;
}

void ref_start(ref_pos *p, int side)
{
    /* R-B2 */
    for (int i = 0; i < 12; i++) {
        p->pit[i] = 4;
        p->owner[i] = row_of(i);
    }
    p->store[0] = 0;
    p->store[1] = 0;
    p->side = side;
}

int ref_total(const ref_pos *p)
{
    /* R-B5 */
    return ref_on_board(p) + p->store[0] + p->store[1];
}

int ref_on_board(const ref_pos *p)
{
    int sum = 0;
    for (int i = 0; i < 12; i++)
        sum += p->pit[i];
    return sum;
}

int ref_majority(const ref_pos *p)
{
    return ref_total(p) / 2 + 1;
}

static int default_owners(const ref_pos *p)
{
    for (int i = 0; i < 12; i++)
        if (p->owner[i] != row_of(i))
            return 0;
    return 1;
}

void ref_format(const ref_pos *p, char *out, size_t len)
{
    /* R-B3 */
    char buf[128];
    int k = 0;
    for (int i = 0; i < 12; i++) {
        char sep = (i == 11) ? ' ' : (i == 5 ? '/' : ',');
        k += sprintf(buf + k, "%d%c", p->pit[i], sep);
    }
    k += sprintf(buf + k, "%d-%d %c", p->store[0], p->store[1],
                 p->side == REF_SOUTH ? 'S' : 'N');
    if (!default_owners(p)) {
        buf[k++] = ' ';
        for (int i = 0; i < 12; i++)
            buf[k++] = p->owner[i] == REF_SOUTH ? 'S' : 'N';
        buf[k] = '\0';
    }
    snprintf(out, len, "%s", buf);
}

/* Reads a decimal number of 1..3 digits, 0..255; advances *s. */
static int parse_count(const char **s, int *value)
{
    const char *t = *s;
    int v = 0, digits = 0;
    while (*t >= '0' && *t <= '9') {
        v = v * 10 + (*t - '0');
        digits++;
        t++;
        if (digits > 3)
            return 0;
    }
    if (digits == 0 || v > 255)
        return 0;
    *value = v;
    *s = t;
    return 1;
}

int ref_parse(ref_pos *p, const char *text)
{
    /* R-B3: "<a..f>/<A..F> <s>-<n> <S|N> [owners]", single spaces. */
    ref_pos q;
    const char *s = text;
    for (int i = 0; i < 12; i++) {
        if (!parse_count(&s, &q.pit[i]))
            return 0;
        char want = (i == 11) ? ' ' : (i == 5 ? '/' : ',');
        if (*s != want)
            return 0;
        s++;
    }
    if (!parse_count(&s, &q.store[0]) || *s++ != '-'
        || !parse_count(&s, &q.store[1]) || *s++ != ' ')
        return 0;
    if (*s == 'S')
        q.side = REF_SOUTH;
    else if (*s == 'N')
        q.side = REF_NORTH;
    else
        return 0;
    s++;
    for (int i = 0; i < 12; i++)
        q.owner[i] = row_of(i);
    if (*s == ' ') {
        s++;
        for (int i = 0; i < 12; i++, s++) {
            if (*s == 'S')
                q.owner[i] = REF_SOUTH;
            else if (*s == 'N')
                q.owner[i] = REF_NORTH;
            else
                return 0;
        }
    }
    if (*s != '\0')
        return 0;
    if (ref_total(&q) > 255)
        return 0;
    *p = q;
    return 1;
}

static int row_seeds(const ref_pos *p, int side)
{
    int sum = 0;
    for (int i = 0; i < 12; i++)
        if (row_of(i) == side)
            sum += p->pit[i];
    return sum;
}

static int same_pos(const ref_pos *a, const ref_pos *b)
{
    /* R-W10 / R-K7: pits, stores, player to move (and owners). */
    if (a->store[0] != b->store[0] || a->store[1] != b->store[1]
        || a->side != b->side)
        return 0;
    for (int i = 0; i < 12; i++)
        if (a->pit[i] != b->pit[i] || a->owner[i] != b->owner[i])
            return 0;
    return 1;
}

/* ===== the Warri family (R-W1..R-W5, R-W8) ===== */

static void play_warri(int variant, const ref_pos *p, int move, ref_move *out)
{
    const int me = p->side, opp = 1 - p->side;
    memset(out, 0, sizeof *out);
    /* R-W1: a non-empty pit of the mover's row. */
    if (move < 0 || move > 11 || row_of(move) != me || p->pit[move] == 0)
        return;
    ref_pos q = *p;
    const int opp_empty_before = row_seeds(p, opp) == 0;

    /* R-W1, R-W2: sow one by one counter-clockwise, skipping the origin. */
    int seeds = q.pit[move];
    q.pit[move] = 0;
    int last = move;
    while (seeds > 0) {
        last = (last + 1) % 12;
        if (last == move)
            continue;
        q.pit[last]++;
        seeds--;
    }

    /* R-W3: capture 2s and 3s backwards from the last pit, in the
     * opponent's row only. */
    int take[12] = {0};
    int captured = 0;
    int i = last;
    while (row_of(i) == opp && (q.pit[i] == 2 || q.pit[i] == 3)) {
        take[i] = 1;
        captured += q.pit[i];
        i = (i + 11) % 12;
    }

    /* R-W5: a grand slam is a capture that leaves the opponent's row
     * empty. */
    int left = 0;
    for (int j = 0; j < 12; j++)
        if (row_of(j) == opp && !take[j])
            left += q.pit[j];
    int grand_slam = captured > 0 && left == 0;
    if (grand_slam && variant == REF_ABAPA) {
        captured = 0; /* abapa: legal, nothing is captured */
        memset(take, 0, sizeof take);
    }
    for (int j = 0; j < 12; j++)
        if (take[j])
            q.pit[j] = 0;
    q.store[me] += captured;

    /* R-W4: when the opponent's row was empty, the move must leave him at
     * least one seed after sowing and capture. */
    if (opp_empty_before && row_seeds(&q, opp) == 0)
        return;

    /* R-W8: antigua, after a grand slam the mover plays again. */
    if (grand_slam && variant == REF_ANTIGUA)
        q.side = me;
    else
        q.side = opp;

    out->legal = 1;
    out->after = q;
    out->captured = captured;
    out->laps = 1;
    out->grand_slam = grand_slam;
}

/* ===== Adji Kui II (R-K1..R-K4) ===== */

static void play_relay(int max_laps, const ref_pos *p, int move, ref_move *out)
{
    const int me = p->side;
    memset(out, 0, sizeof *out);
    /* R-K1: a pit owned by the mover with at least 2 seeds. */
    if (move < 0 || move > 11 || p->owner[move] != me || p->pit[move] < 2)
        return;
    ref_pos q = *p;
    int seeds = q.pit[move];
    q.pit[move] = 0;
    int at = move;
    int laps = 0;
    int captured = 0;
    for (;;) {
        /* R-K2: sow one by one from the next pit; no pit is skipped. */
        while (seeds > 0) {
            at = (at + 1) % 12;
            q.pit[at]++;
            seeds--;
        }
        laps++;
        int c = q.pit[at];
        if (q.owner[at] != me && c == 4) { /* 1. capture the four */
            captured = 4;
            q.pit[at] = 0;
            q.store[me] += 4;
            break;
        }
        if (c == 1) /* 2. landed in an empty pit */
            break;
        if (c == 4) /* 3. a four in the mover's own pit */
            break;
        /* R-K3: not ended after max_laps laps: endless, not legal. */
        if (laps >= max_laps)
            return;
        seeds = c; /* 4. relay: lift and sow on from the next pit */
        q.pit[at] = 0;
    }
    q.side = 1 - me;
    out->legal = 1;
    out->after = q;
    out->captured = captured;
    out->laps = laps;
}

void ref_play(int variant, int max_laps, const ref_pos *p, int move,
              ref_move *out)
{
    if (variant != REF_ADJIKUI) {
        play_warri(variant, p, move, out);
        return;
    }
    if (move == REF_PASS) {
        /* R-K4: a pass is legal only when nothing else is. */
        memset(out, 0, sizeof *out);
        for (int m = 0; m < 12; m++) {
            ref_move trial;
            play_relay(max_laps, p, m, &trial);
            if (trial.legal)
                return;
        }
        out->legal = 1;
        out->after = *p;
        out->after.side = 1 - p->side;
        return;
    }
    play_relay(max_laps, p, move, out);
}

unsigned ref_legal(int variant, int max_laps, const ref_pos *p)
{
    unsigned mask = 0;
    for (int m = 0; m <= REF_PASS; m++) {
        if (m == REF_PASS && variant != REF_ADJIKUI)
            break;
        ref_move r;
        ref_play(variant, max_laps, p, m, &r);
        if (r.legal)
            mask |= 1u << m;
    }
    return mask;
}

/* ===== end of the game ===== */

/* R-W11: split the board equally, odd seed to the player with more seeds
 * in his row. */
static void bridgetown_split(const ref_pos *p, int total[2])
{
    int board = ref_on_board(p);
    total[0] += board / 2;
    total[1] += board / 2;
    if (board % 2 == 1) {
        if (row_seeds(p, REF_SOUTH) > row_seeds(p, REF_NORTH))
            total[REF_SOUTH] += 1;
        else
            total[REF_NORTH] += 1;
    }
}

static void each_takes_own_row(const ref_pos *p, int total[2])
{
    for (int i = 0; i < 12; i++)
        total[row_of(i)] += p->pit[i];
}

void ref_score(int variant, const ref_pos *p, int reason, ref_result *r)
{
    const int mover = p->side, other = 1 - p->side;
    const int board = ref_on_board(p);
    r->reason = reason;
    r->total[0] = p->store[0];
    r->total[1] = p->store[1];
    if (variant == REF_ADJIKUI) {
        /* R-K6: each player takes the seeds in the pits he owns. */
        for (int i = 0; i < 12; i++)
            r->total[p->owner[i]] += p->pit[i];
    } else if (variant == REF_BRIDGETOWN) {
        /* R-W11: however the game ends. */
        bridgetown_split(p, r->total);
    } else {
        switch (reason) {
        case REF_MAJORITY:
            break; /* R-W6: not counted */
        case REF_NO_FEED: /* R-W7 */
            if (variant == REF_SPEIGHTSTOWN)
                r->total[other] += board; /* the starved player */
            else
                r->total[mover] += board; /* antigua, abapa: the mover */
            break;
        case REF_EMPTY_ROW: /* R-W9 */
            if (variant == REF_SPEIGHTSTOWN)
                r->total[mover] += board; /* the starved player, to move */
            else
                r->total[other] += board; /* antigua, abapa: the opponent */
            break;
        case REF_REPETITION: /* R-W10 */
        case REF_PLY_LIMIT:  /* R-G1: as a repetition does */
            if (variant != REF_SPEIGHTSTOWN)
                each_takes_own_row(p, r->total);
            break;
        default:
            break;
        }
    }
    /* R-W12 / R-K6: more seeds wins, equal draws; speightstown also needs
     * the majority. */
    if (r->total[0] > r->total[1])
        r->winner = REF_SOUTH;
    else if (r->total[1] > r->total[0])
        r->winner = REF_NORTH;
    else
        r->winner = REF_DRAW;
    if (variant == REF_SPEIGHTSTOWN && r->winner != REF_DRAW
        && r->total[r->winner] < ref_majority(p))
        r->winner = REF_DRAW;
}

/* The first end condition of R-G4 that holds now. */
static int end_reason(const ref_game *g)
{
    const ref_pos *p = &g->hist[g->n];
    if (g->variant != REF_ADJIKUI) {
        /* R-W6 */
        if (p->store[0] >= ref_majority(p) || p->store[1] >= ref_majority(p))
            return REF_MAJORITY;
        /* R-W9 */
        if (row_seeds(p, p->side) == 0)
            return REF_EMPTY_ROW;
        /* R-W7 */
        if (row_seeds(p, 1 - p->side) == 0
            && ref_legal(g->variant, g->max_laps, p) == 0)
            return REF_NO_FEED;
    } else {
        /* R-K5: 8 or fewer seeds on the board after a capture. */
        if (g->n > 0 && g->captured[g->n] > 0 && ref_on_board(p) <= 8)
            return REF_FEW_SEEDS;
        /* R-K4: two passes in a row. */
        if (g->n >= 2 && g->move[g->n - 1] == REF_PASS
            && g->move[g->n - 2] == REF_PASS)
            return REF_PASSES;
    }
    /* R-W10 / R-K7: the position occurs for the second time. */
    for (int k = 0; k < g->n; k++)
        if (same_pos(&g->hist[k], p))
            return REF_REPETITION;
    /* R-G1 */
    if (g->n >= g->ply_limit)
        return REF_PLY_LIMIT;
    return REF_NONE;
}

void ref_game_result(const ref_game *g, ref_result *r)
{
    int reason = end_reason(g);
    memset(r, 0, sizeof *r);
    if (reason == REF_NONE)
        return;
    ref_score(g->variant, &g->hist[g->n], reason, r);
}

/* ===== games ===== */

void ref_game_init(ref_game *g, int variant, const ref_pos *start,
                   int ply_limit, int max_laps)
{
    g->variant = variant;
    g->ply_limit = ply_limit;
    g->max_laps = max_laps;
    g->n = 0;
    if (ply_limit < 1 || ply_limit > REF_MAX_PLIES)
        abort();
    g->hist = malloc((size_t)(ply_limit + 1) * sizeof *g->hist);
    g->move = malloc((size_t)(ply_limit + 1) * sizeof *g->move);
    g->captured = malloc((size_t)(ply_limit + 1) * sizeof *g->captured);
    if (g->hist == NULL || g->move == NULL || g->captured == NULL)
        abort();
    g->hist[0] = *start;
    g->captured[0] = 0;
}

void ref_game_free(ref_game *g)
{
    free(g->hist);
    free(g->move);
    free(g->captured);
    g->hist = NULL;
    g->move = NULL;
    g->captured = NULL;
}

unsigned ref_game_legal(const ref_game *g)
{
    if (end_reason(g) != REF_NONE)
        return 0;
    return ref_legal(g->variant, g->max_laps, &g->hist[g->n]);
}

int ref_game_play(ref_game *g, int move, ref_move *out)
{
    ref_move r;
    if (end_reason(g) != REF_NONE || g->n >= g->ply_limit)
        return 0;
    ref_play(g->variant, g->max_laps, &g->hist[g->n], move, &r);
    if (!r.legal)
        return 0;
    g->move[g->n] = move;
    g->n++;
    g->hist[g->n] = r.after;
    g->captured[g->n] = r.captured;
    if (out != NULL)
        *out = r;
    return 1;
}

void ref_game_undo(ref_game *g)
{
    if (g->n > 0)
        g->n--;
}

unsigned long long ref_perft(ref_game *g, int depth)
{
    /* R-G3 */
    if (depth == 0)
        return 1;
    unsigned mask = ref_game_legal(g);
    unsigned long long sum = 0;
    for (int m = 0; m <= REF_PASS; m++) {
        if (!(mask & (1u << m)))
            continue;
        if (!ref_game_play(g, m, NULL))
            abort();
        sum += ref_perft(g, depth - 1);
        ref_game_undo(g);
    }
    return sum;
}

/* ===== matches ===== */

void ref_buy(int winner, int w, int l, int owner[12])
{
    /* R-K9 */
    for (int i = 0; i < 12; i++)
        owner[i] = row_of(i);
    if (winner == REF_DRAW)
        return;
    const int loser = 1 - winner;
    const int t = w + l;
    const int surplus = w - t / 2; /* T = 48 in match play: even */
    const int k = surplus / 4, r = surplus % 4;
    const int foot = loser == REF_SOUTH ? 0 : 6; /* loser's a or A */
    const int head = foot + 5;                   /* loser's f or F */
    for (int j = 0; j < k; j++)
        owner[foot + j] = winner;
    for (int j = 0; j < l / 4; j++)
        owner[head - j] = loser;
    if (r > 0)
        owner[foot + k] = r >= 3 ? winner : loser;
}

void ref_match_init(ref_match *m, int variant, int first_player,
                    int game_limit)
{
    memset(m, 0, sizeof *m);
    m->variant = variant;
    m->game_limit = game_limit;
    m->first = first_player;
    m->winner = -1;
    for (int i = 0; i < 12; i++)
        m->owner[i] = row_of(i);
}

void ref_match_next(const ref_match *m, ref_pos *start)
{
    /* Player 0 sits South; R-W13/R-K8: the first player alternates. */
    ref_start(start, m->first);
    for (int i = 0; i < 12; i++)
        start->owner[i] = m->owner[i];
}

void ref_match_record(ref_match *m, const ref_result *r)
{
    m->games++;
    if (r->winner == REF_DRAW)
        m->draws++;
    else
        m->wins[r->winner]++;
    m->first = 1 - m->first;
    if (m->variant != REF_ADJIKUI) {
        /* R-W13: first to 6 wins; draws do not count; game limit. */
        if (m->wins[0] >= 6)
            m->winner = 0;
        else if (m->wins[1] >= 6)
            m->winner = 1;
        else if (m->games >= m->game_limit)
            m->winner = m->wins[0] > m->wins[1]   ? 0
                        : m->wins[1] > m->wins[0] ? 1
                                                  : REF_DRAW;
        return;
    }
    /* R-K9: buying pits for the next game. */
    if (r->winner == REF_DRAW)
        ref_buy(REF_DRAW, r->total[0], r->total[1], m->owner);
    else
        ref_buy(r->winner, r->total[r->winner], r->total[1 - r->winner],
                m->owner);
    /* R-K10: a player who would own no pit; the game limit. */
    int owned[2] = {0, 0};
    for (int i = 0; i < 12; i++)
        owned[m->owner[i]]++;
    if (owned[0] == 0)
        m->winner = 1;
    else if (owned[1] == 0)
        m->winner = 0;
    else if (m->games >= m->game_limit)
        m->winner = owned[0] > owned[1]   ? 0
                    : owned[1] > owned[0] ? 1
                                          : REF_DRAW;
}
