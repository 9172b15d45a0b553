/*
 * reference.h -- an independent, deliberately naive implementation of
 * docs/rules.md, used only by the tests to cross-check the engine (src/rules).
 *
 * It was written from docs/rules.md alone and shares no code, tables or types with
 * the engine: positions are plain int arrays, a game keeps its whole history
 * of positions (repetition is found by comparing the new position with every
 * earlier one, no hashing), every end rule is evaluated from scratch from the
 * history, and each variant's rule is spelled out with an explicit
 * `if (variant == ...)` right where docs/rules.md states it.  Speed is not a goal;
 * being obviously correct against the text of docs/rules.md is.
 *
 * A test program uses it by including reference.c once (tests/ builds each
 * test_*.c as a single program).
 */
#ifndef NK_REFERENCE_H
#define NK_REFERENCE_H

#include <stddef.h>

enum ref_variant {
    REF_ANTIGUA,
    REF_SPEIGHTSTOWN,
    REF_BRIDGETOWN,
    REF_ABAPA,
    REF_ADJIKUI,
    REF_AWARI, /* abapa's rules but a grand slam captures */
    REF_VARIANTS
};

enum { REF_SOUTH = 0, REF_NORTH = 1, REF_DRAW = 2 };
enum { REF_PASS = 12 };
enum { REF_MAX_PLIES = 5000 };
enum { REF_DEFAULT_MAX_LAPS = 1000, REF_DEFAULT_PLY_LIMIT = 1000 };

/* End reasons, in the precedence order of R-G4. */
enum ref_reason {
    REF_NONE,
    REF_MAJORITY,
    REF_EMPTY_ROW,
    REF_NO_FEED,
    REF_FEW_SEEDS,
    REF_PASSES,
    REF_REPETITION,
    REF_PLY_LIMIT
};

typedef struct ref_pos {
    int pit[12];   /* 0..5 = a..f (South's row), 6..11 = A..F (North's) */
    int store[2];  /* [REF_SOUTH], [REF_NORTH] */
    int side;      /* player to move */
    int owner[12]; /* REF_SOUTH or REF_NORTH, per pit */
} ref_pos;

typedef struct ref_result {
    int reason;   /* enum ref_reason */
    int winner;   /* REF_SOUTH, REF_NORTH, REF_DRAW (meaningless if REF_NONE) */
    int total[2];
} ref_result;

/* What one move does to a position. */
typedef struct ref_move {
    int legal;      /* 0: not a legal move in that position */
    ref_pos after;  /* the position after the move (if legal) */
    int captured;   /* seeds put into the mover's store */
    int laps;       /* relay laps (1 for a Warri move, 0 for a pass) */
    int grand_slam; /* Warri: the capture emptied (or, abapa, would have
                       emptied) the opponent's row */
} ref_move;

typedef struct ref_game {
    int variant;
    int ply_limit;
    int max_laps;
    int n;              /* plies played */
    ref_pos *hist;      /* hist[k]: position after ply k (hist[0]: start) */
    int *move;          /* move[k]: the move of ply k+1 */
    int *captured;      /* captured[k]: seeds captured by the ply leading to
                           hist[k] (captured[0] = 0) */
} ref_game;

const char *ref_variant_name(int variant);
int ref_variant_find(const char *name); /* -1 if unknown */
const char *ref_reason_name(int reason);

void ref_start(ref_pos *p, int side);
/* Parses R-B3 notation strictly; returns 1 on success, 0 if malformed. */
int ref_parse(ref_pos *p, const char *text);
/* Writes R-B3 notation (out must hold at least 96 bytes). */
void ref_format(const ref_pos *p, char *out, size_t len);
int ref_total(const ref_pos *p);    /* seeds in play T (R-B5) */
int ref_on_board(const ref_pos *p);
int ref_majority(const ref_pos *p); /* floor(T/2) + 1 */
char ref_move_letter(int move);

/* The effect of `move` (0..11 or REF_PASS) in p, with legality (R-W1..R-W5,
 * R-W8, R-K1..R-K4). */
void ref_play(int variant, int max_laps, const ref_pos *p, int move,
              ref_move *out);
/* Legal moves of the side to move as a mask (bit 12: pass), ignoring end
 * conditions. */
unsigned ref_legal(int variant, int max_laps, const ref_pos *p);

/* A game.  ply_limit 1..REF_MAX_PLIES.  ref_game_init allocates room for
 * ply_limit plies; free with ref_game_free. */
void ref_game_init(ref_game *g, int variant, const ref_pos *start,
                   int ply_limit, int max_laps);
void ref_game_free(ref_game *g);
/* The end status of the game now (reason REF_NONE while it goes on). */
void ref_game_result(const ref_game *g, ref_result *r);
/* Legal moves now: 0 once the game is over. */
unsigned ref_game_legal(const ref_game *g);
/* Plays a move; returns 0 (and changes nothing) if it is not legal now.
 * out (may be NULL) receives what the move did. */
int ref_game_play(ref_game *g, int move, ref_move *out);
/* Takes back the last ply. */
void ref_game_undo(ref_game *g);
/* R-G3. */
unsigned long long ref_perft(ref_game *g, int depth);

/* The result of a game that ends in p for that reason (R-W6..R-W12, R-K6). */
void ref_score(int variant, const ref_pos *p, int reason, ref_result *r);

/* R-K9: owners after a game won by `winner` (a side, or REF_DRAW) with
 * totals w (winner) and l (loser). owner[i] = REF_SOUTH / REF_NORTH. */
void ref_buy(int winner, int w, int l, int owner[12]);

/* Matches (R-W13, R-K8..R-K10). */
typedef struct ref_match {
    int variant;
    int game_limit;
    int games;
    int wins[2];
    int draws;
    int first;          /* player to move first in the next game */
    int owner[12];      /* adjikui: owners in the next game */
    int winner;         /* -1 while going on, else 0, 1, REF_DRAW */
} ref_match;
void ref_match_init(ref_match *m, int variant, int first_player,
                    int game_limit);
void ref_match_next(const ref_match *m, ref_pos *start);
void ref_match_record(ref_match *m, const ref_result *r);

#endif
