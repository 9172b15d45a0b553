/*
 * rules.h -- the rules engine of the five variants (docs/rules.md), whole API.
 *
 * Pits are indexed 0..11 in sowing (counter-clockwise) order: South's row
 * a..f is 0..5, North's row A..F is 6..11 (R-B1).  A position is a 32-byte
 * value, played by copy-make.  A move is a pit index 0..11, or NK_PASS.
 * Sets of moves are 13-bit masks: bit i is pit i, bit NK_PASS the pass.
 *
 * The variants differ only by the data of their nk_variant (sowing kind,
 * grand-slam treatment, which end rules apply, who gets the seeds left on
 * the board); the relay sowing of Adji Kui II is its own function.
 *
 * Decisions taken where the rules leave room are the "Engine:" notes of
 * docs/rules.md, and stand beside the code that implements them too.
 */
#ifndef NK_RULES_H
#define NK_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "base/status.h"

enum { NK_PITS = 12, NK_ROW = 6 };
enum { NK_SOUTH = 0, NK_NORTH = 1 };
enum { NK_PASS = 12, NK_NO_MOVE = -1 };
enum { NK_DRAW = 2 }; /* winner value of a drawn game */

/* The largest ply limit a game accepts (R-G1's default is 1000). */
enum { NK_MAX_PLIES = 5000 };

/* Why a game ended (R-G2), in the precedence order of R-G4; then the
 * forfeits, which no rule gives: a player from outside (an `ext:` engine,
 * docs/protocol.md) failed during the game and lost it (nk_game_forfeit). */
typedef enum nk_end {
    NK_END_NONE = 0,
    NK_END_MAJORITY,
    NK_END_EMPTY_ROW,
    NK_END_NO_FEED,
    NK_END_FEW_SEEDS,
    NK_END_PASSES,
    NK_END_REPETITION,
    NK_END_PLY_LIMIT,
    NK_END_TIMEOUT,   /* no move in time */
    NK_END_CRASH,     /* the engine exited or closed its output */
    NK_END_ILLEGAL,   /* it answered an illegal move */
    NK_END_GARBAGE,   /* it answered something that is not a move */
    NK_END_REFUSED,   /* it refused the variant */
    NK_END_COUNT
} nk_end;
/* The number of end reasons of the rules: NK_END_NONE .. NK_END_PLY_LIMIT. */
#define NK_END_RULES ((int)NK_END_TIMEOUT)

/* Who receives the seeds left on the board when a game ends (R-W7..R-W11,
 * R-K6). */
typedef enum nk_remain {
    NK_REMAIN_NONE,  /* not counted (R-W6, speightstown R-W10) */
    NK_REMAIN_OWN,   /* each player takes the seeds of the pits he owns */
    NK_REMAIN_OTHER, /* each takes the seeds of the other's pits: the starved
                        player takes the mover's row (speightstown R-W7/R-W9) */
    NK_REMAIN_SPLIT  /* split equally, odd seed to the fuller row (R-W11) */
} nk_remain;

typedef enum nk_sowing {
    NK_SOW_WARRI, /* one lap skips the origin, capture 2-3 backwards (R-W1..3) */
    NK_SOW_RELAY  /* Adji Kui II relay sowing, capture fours (R-K2) */
} nk_sowing;

/* A rule set.  The engine reads only these fields; no code asks which
 * variant it plays. */
typedef struct nk_variant {
    const char *name;          /* "antigua", ... */
    const char *title;         /* one line for people */
    nk_sowing sowing;
    bool grand_slam_captures;  /* R-W5 */
    bool grand_slam_replays;   /* R-W8: the mover plays again */
    bool win_needs_majority;   /* R-W12, speightstown */
    unsigned min_sow;          /* fewest seeds a pit must hold to be sown */
    unsigned max_laps;         /* R-K3: relay laps after which a move is endless */
    unsigned ends;             /* mask of (1u << nk_end) of the end rules in force */
    nk_remain remain[NK_END_RULES]; /* per end reason of the rules */
} nk_variant;

/* A position.  The first 16 bytes are the board, then ownership and the
 * Zobrist hash of (pits, stores, side to move, owners); flags are not part of
 * the position's identity (R-W10) and are not hashed. */
typedef struct nk_pos {
    uint8_t pit[NK_PITS];
    uint8_t store[2];   /* [NK_SOUTH], [NK_NORTH] */
    uint8_t side;       /* NK_SOUTH or NK_NORTH to move */
    uint8_t flags;      /* NK_POS_CAPTURED | passes in a row << 1 */
    uint16_t north;     /* bit i set: pit i is owned by North */
    uint64_t hash;
} nk_pos;

enum {
    NK_POS_CAPTURED = 1u,      /* the move that led here captured seeds */
    NK_POS_PASS_SHIFT = 1,     /* consecutive passes that led here (0..2) */
    NK_POS_PASS_MASK = 3u << 1
};

enum { NK_DEFAULT_NORTH = 0x0FC0 }; /* pits 6..11 */

/* What one move did. */
typedef struct nk_ply_info {
    unsigned captured;   /* seeds moved to the mover's store */
    unsigned laps;       /* relay laps (1 for the Warri family) */
    bool grand_slam;     /* the move left the opponent's row empty by capture
                            (or would have, in abapa, where nothing is taken) */
} nk_ply_info;

/* The result of a finished game (R-G2). */
typedef struct nk_result {
    nk_end reason;      /* NK_END_NONE while the game goes on */
    int winner;         /* NK_SOUTH, NK_NORTH or NK_DRAW */
    unsigned total[2];  /* store plus the seeds the end rule gave */
} nk_result;

/* ===== variants ===== */

/* Number of variants, and the i-th (0 <= i < count) in a fixed order. */
size_t nk_variant_count(void);
const nk_variant *nk_variant_at(size_t i);
/* The name of variant i, NULL past the end (a list of names, base/names.h). */
const char *nk_variant_name_at(size_t i);
/* The variant of that name, or NULL. */
const nk_variant *nk_variant_find(const char *name);
/* Names of the end reasons ("majority", ...; "none" for NK_END_NONE;
 * "forfeit-time", ... for the forfeits). */
const char *nk_end_name(nk_end reason);
/* True for the forfeits (NK_END_TIMEOUT .. NK_END_REFUSED). */
static inline bool nk_end_forfeit(nk_end reason)
{
    return reason >= NK_END_TIMEOUT && reason < NK_END_COUNT;
}

/* ===== positions ===== */

/* The start position (R-B2): 4 seeds a pit, empty stores, default rows. */
void nk_pos_start(nk_pos *pos, int side_to_move);
/* Parses the R-B3 notation; on failure writes what is wrong and where. */
nk_status nk_pos_parse(nk_pos *pos, const char *text, char *err, size_t errlen);
/* Writes the R-B3 notation (NUL-terminated, at most NK_POS_TEXT bytes). */
enum { NK_POS_TEXT = 96 };
void nk_pos_format(const nk_pos *pos, char out[NK_POS_TEXT]);
/* Zobrist hash computed from scratch (the engine keeps pos->hash up to date
 * incrementally; the two always agree). */
uint64_t nk_pos_hash(const nk_pos *pos);
/* Seeds in play T (R-B5) and on the board. */
unsigned nk_pos_total(const nk_pos *pos);
unsigned nk_pos_on_board(const nk_pos *pos);
/* Owner of a pit. */
static inline int nk_pos_owner(const nk_pos *pos, int pit)
{
    return (pos->north >> pit) & 1u;
}
/* Mask of the pits a side owns. */
static inline unsigned nk_pos_owned(const nk_pos *pos, int side)
{
    return side == NK_NORTH ? pos->north : (~(unsigned)pos->north & 0xFFFu);
}
/* Seeds in the pits a side owns. */
unsigned nk_pos_row_seeds(const nk_pos *pos, int side);
static inline unsigned nk_pos_passes(const nk_pos *pos)
{
    return (pos->flags & NK_POS_PASS_MASK) >> NK_POS_PASS_SHIFT;
}

/* ===== moves ===== */

/* Letter of a move: 'a'..'f', 'A'..'F', '-' for a pass. */
char nk_move_letter(int move);
/* Move of a letter, or NK_NO_MOVE. */
int nk_move_parse(char letter);

/* The legal moves of the side to move, as a mask.  Does not look at end
 * conditions: call nk_pos_end first.  A player with no move in Adji Kui II
 * gets the pass (R-K4); in the Warri family an empty mask means the game has
 * ended by R-W7 or R-W9. */
unsigned nk_legal(const nk_variant *v, const nk_pos *pos);

/* The pits the side to move may start sowing from, before the checks that
 * need a trial sowing (feeding R-W4, endless relays R-K3).  A superset of
 * nk_legal's pits, and equal to it in most positions. */
unsigned nk_candidates(const nk_variant *v, const nk_pos *pos);
/* True when nk_legal needs trial sowings in this position. */
bool nk_needs_trial(const nk_variant *v, const nk_pos *pos);

/* Plays a candidate move (a pit of nk_candidates, or NK_PASS) on pos.
 * Returns false, leaving pos unspecified, when the move is not legal after
 * all (it does not feed, or its relay is endless); the caller keeps a copy.
 * info may be NULL. */
bool nk_apply(const nk_variant *v, nk_pos *pos, int move, nk_ply_info *info);

/* ===== end of the game ===== */

/* The end rule that holds for a position at the start of a turn, among
 * majority, empty-row, no-feed, few-seeds and passes (R-G4 order);
 * repetition and the ply limit need the game's history (nk_game). */
nk_end nk_pos_end(const nk_variant *v, const nk_pos *pos);
/* nk_pos_end for a position reached by nk_apply from one where no end rule
 * held (a search's children): the same answer, cheaper, since the stores
 * and the seeds on the board change only by a capture, so the majority
 * and few-seeds rules can start to hold only after one (pos->flags). */
nk_end nk_pos_end_reached(const nk_variant *v, const nk_pos *pos);

/* Totals and winner when the game ends in pos for that reason
 * (R-W6..R-W12, R-K6). */
void nk_pos_result(const nk_variant *v, const nk_pos *pos, nk_end reason,
                   nk_result *result);

/* ===== games ===== */

enum { NK_SEEN_BUCKETS = 1024 }; /* a power of two */

/* A game in progress: the positions since the last capture (for
 * repetition, R-W10 / R-K7), the record, and the result once over. */
typedef struct nk_game {
    const nk_variant *variant;
    nk_pos start;
    nk_pos pos;
    unsigned ply;          /* plies played */
    unsigned ply_limit;    /* R-G1 */
    unsigned since;        /* index in hist of the position after the last capture */
    nk_result result;      /* reason NK_END_NONE while the game goes on */
    uint16_t seen[NK_SEEN_BUCKETS]; /* filter of hist[since..ply]: per bucket
                              hash % NK_SEEN_BUCKETS, 1 + the latest k of
                              that bucket (0: none); internal to the engine */
    uint64_t hist[NK_MAX_PLIES + 1]; /* hist[k]: hash after ply k */
    uint8_t moves[NK_MAX_PLIES];
} nk_game;

/* The ply limit of a game unless a config or an option says otherwise (a
 * macro, so that run/play.h can write it as the play table's default). */
#define NK_DEFAULT_PLY_LIMIT 1000

/* Starts a game from pos; checks the end rules at once (R-G4).
 * NK_ERANGE if ply_limit is 0 or above NK_MAX_PLIES; NK_EINVAL for a
 * Warri-family variant and a start whose pit owners are not the default
 * rows (docs/rules.md, R-B3). */
nk_status nk_game_init(nk_game *g, const nk_variant *v, const nk_pos *start,
                       unsigned ply_limit);
/* Legal moves now (0 once the game is over). */
unsigned nk_game_legal(const nk_game *g);
/* Plays a move: NK_EOVER after the end, NK_EILLEGAL for a move not in
 * nk_game_legal (err then lists the legal moves).  info may be NULL. */
nk_status nk_game_play(nk_game *g, int move, nk_ply_info *info, char *err,
                       size_t errlen);
/* Plays a move known to be legal (no checks; for engines). */
void nk_game_play_legal(nk_game *g, int move, nk_ply_info *info);
/* Records a move whose resulting position the caller already computed with
 * nk_apply (saves a second sowing); checks the end rules. */
void nk_game_advance(nk_game *g, int move, const nk_pos *child, const nk_ply_info *info);
static inline bool nk_game_over(const nk_game *g)
{
    return g->result.reason != NK_END_NONE;
}
/* Ends a live game by a forfeit of the side to move (reason: one of the
 * forfeits, nk_end_forfeit): the other side wins with every seed in play,
 * the forfeiting side's total is 0, the position is left as it is.  Does
 * nothing to a game that is over. */
void nk_game_forfeit(nk_game *g, nk_end reason);
/* True when a position of this hash occurred since the last capture,
 * the current position included (a child that matches repeats, R-W10). */
bool nk_game_repeats(const nk_game *g, uint64_t hash);
/* Writes the legal moves as "a, b, c" (or "none"). */
void nk_moves_format(unsigned mask, char *out, size_t len);

/* ===== perft (R-G3) ===== */

/* Number of move sequences of exactly depth plies from the game's current
 * state, under every rule including repetition and the ply limit. */
uint64_t nk_perft(const nk_game *g, unsigned depth);

/* ===== matches (R-W13, R-K8..R-K10) ===== */

typedef struct nk_match {
    const nk_variant *variant;
    unsigned game_limit;   /* games at most */
    unsigned games;        /* games played */
    unsigned wins[2];      /* games won by player 0 and player 1 */
    unsigned draws;
    int first;             /* player (0 or 1) who moves first in the next game;
                              player 0 sits South, player 1 North */
    uint16_t north;        /* Adji Kui II: North's pits in the next game */
    int winner;            /* 0, 1, NK_DRAW once over; -1 while going on */
} nk_match;

/* Player 0 sits South, player 1 North; first_player moves first in game 1.
 * game_limit >= 1. */
void nk_match_init(nk_match *m, const nk_variant *v, int first_player,
                   unsigned game_limit);
/* Start position of the next game (owners and side to move included). */
void nk_match_next(const nk_match *m, nk_pos *start);
/* Records a finished game and decides whether the match is over. */
void nk_match_record(nk_match *m, const nk_result *result);
static inline bool nk_match_over(const nk_match *m)
{
    return m->winner != -1;
}
/* R-K9: North's pits after a game in which `winner` (a side) scored W of
 * T = W + L seeds against L; NK_DRAW gives the default rows. */
uint16_t nk_adjikui_buy(int winner, unsigned w, unsigned l);

/* ===== the generator of playouts and tie-breaks: nk_rng (base/rng.h) ===== */

/* A uniformly random legal move of a live game (NK_NO_MOVE once over). */
int nk_random_move(const nk_game *g, nk_rng *rng);
/* A uniformly random legal move from pos, whose end rules the caller has
 * checked; writes the position it leads to.  NK_NO_MOVE if there is none. */
int nk_random_child(const nk_variant *v, const nk_pos *pos, nk_rng *rng, nk_pos *child,
                    nk_ply_info *info);

/* ===== benchmark ===== */

typedef struct nk_bench {
    uint64_t games;
    uint64_t plies;
    uint64_t signature; /* changes only when the rules change */
} nk_bench;

/* Plays `games` random playouts from the start position with seeds derived
 * from seed; fills out. */
void nk_bench_playouts(const nk_variant *v, uint64_t games, uint64_t seed,
                       nk_bench *out);

#endif
