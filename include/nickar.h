/*
 * nickar.h -- the public C API of libnickar: the rules of the Caribbean
 * mancala variants, positions, games, and nickar's players (docs/library.md).
 *
 * This header is the library's whole, stable interface.  It includes only
 * <stddef.h> and <stdint.h>; every type of the engine behind it stays
 * hidden (opaque handles), and only the symbols declared here are exported
 * from the shared library.  Link with `pkg-config --cflags --libs nickar`.
 *
 * Conventions:
 *  - Every name starts with `nickar_` (`NICKAR_` for macros and constants).
 *  - A function that can fail returns a nickar_status and, when err is not
 *    NULL and errlen > 0, writes a one-line message into err (truncated,
 *    never overflowing, always NUL-terminated).  NICKAR_ERR_MAX bytes hold
 *    any message whole.  The library never prints, never exits, never
 *    aborts on bad input.
 *  - Objects are made by `_new` and released by `_free`; `_free(NULL)` is
 *    allowed.  A handle may be used by one thread at a time; different
 *    handles may be used by different threads at once.
 *  - Pits are numbered 0..11 in sowing order: South's row a..f is 0..5,
 *    North's row A..F is 6..11.  A move is a pit number or NICKAR_PASS;
 *    a set of moves is a mask whose bit i is move i.
 *  - Positions cross the API as text in the R-B3 notation of docs/rules.md,
 *    "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S" (South's pits a..f / North's pits
 *    A..F, the stores South-North, the side to move, optionally twelve S/N
 *    letters saying who owns each pit), or as the plain struct
 *    nickar_position.
 */
#ifndef NICKAR_H
#define NICKAR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NICKAR_BUILDING) && defined(__GNUC__)
#define NICKAR_API __attribute__((visibility("default")))
#else
#define NICKAR_API
#endif

/* ===== version ===== */

/* The version of this header: the library's version as numbers, and the
 * version of the API (raised whenever a declaration here changes in a way
 * that breaks a caller compiled against an older header). */
#define NICKAR_VERSION_MAJOR 0
#define NICKAR_VERSION_MINOR 1
#define NICKAR_VERSION_PATCH 0
#define NICKAR_API_VERSION 1

/* The library's version as text ("0.1.0"): that of the library loaded at
 * run time, which a caller can compare with the header's numbers. */
NICKAR_API const char *nickar_version(void);
/* NICKAR_API_VERSION of the library loaded at run time. */
NICKAR_API int nickar_api_version(void);

/* ===== status codes ===== */

typedef enum nickar_status {
    NICKAR_OK = 0,       /* success */
    NICKAR_EINVAL,       /* malformed input: a position, a move, a spec, a name */
    NICKAR_ERANGE,       /* a number outside its allowed range */
    NICKAR_EILLEGAL,     /* a move that the rules do not allow here */
    NICKAR_EOVER,        /* a move given after the game has ended */
    NICKAR_ENOMEM,       /* an allocation failed */
    NICKAR_EIO,          /* reading a file failed */
    NICKAR_EFORMAT,      /* a file that is not what it should be */
    NICKAR_EMISMATCH,    /* a file made from another configuration */
    NICKAR_EINTERRUPTED, /* stopped on request */
    NICKAR_ENOFILE       /* an input file that cannot be opened */
} nickar_status;

/* The size of an error buffer that holds any message whole. */
#define NICKAR_ERR_MAX 1024

/* The generic one-line text of a status code (never NULL;
 * for a value outside the list: "unknown error"). */
NICKAR_API const char *nickar_strerror(nickar_status status);

/* ===== constants ===== */

#define NICKAR_PITS 12
#define NICKAR_PASS 12     /* the pass of Adji Kui II (R-K4) */
#define NICKAR_NO_MOVE (-1)
#define NICKAR_SOUTH 0
#define NICKAR_NORTH 1
#define NICKAR_DRAW 2      /* the winner of a drawn game */
/* Bytes of a buffer for a position's text (its NUL included). */
#define NICKAR_POS_TEXT 96
/* The default ply limit of a game (R-G1), and the largest one accepted. */
#define NICKAR_DEFAULT_PLY_LIMIT 1000
#define NICKAR_MAX_PLY_LIMIT 5000

/* ===== variants ===== */

/* The number of variants; the name ("abapa", ...) and one-line title of
 * variant i, NULL for i past the end. */
NICKAR_API size_t nickar_variant_count(void);
NICKAR_API const char *nickar_variant_name(size_t i);
NICKAR_API const char *nickar_variant_title(size_t i);
/* The index of the variant of that name, or -1. */
NICKAR_API int nickar_variant_find(const char *name);

/* ===== moves ===== */

/* The letter of a move: 'a'..'f' (South's pits), 'A'..'F' (North's), '-'
 * for the pass; '?' for anything else. */
NICKAR_API char nickar_move_letter(int move);
/* The move of a letter, or NICKAR_NO_MOVE. */
NICKAR_API int nickar_move_parse(char letter);

/* ===== positions ===== */

/* A position as plain numbers.  north: bit i set when pit i belongs to
 * North (0x0FC0, pits 6..11, in every variant but Adji Kui II, where the
 * players buy pits).  passes: passes in a row that led here (Adji Kui II). */
typedef struct nickar_position {
    int pit[NICKAR_PITS];
    int store[2];         /* [NICKAR_SOUTH], [NICKAR_NORTH] */
    int side;             /* NICKAR_SOUTH or NICKAR_NORTH to move */
    unsigned north;
    int passes;
} nickar_position;

/* Parses R-B3 text into out.  NICKAR_EINVAL, the message naming the field
 * that is wrong, for anything else. */
NICKAR_API nickar_status nickar_position_parse(const char *text, nickar_position *out, char *err,
                                               size_t errlen);
/* Writes pos as R-B3 text into out (NICKAR_POS_TEXT bytes; owners written
 * only when they are not the default rows; passes has no place in the
 * text and is not written).  NICKAR_ERANGE for a count
 * outside 0..255 or seeds totalling above 255, NICKAR_EINVAL for a side
 * that is neither, owners outside 12 bits. */
NICKAR_API nickar_status nickar_position_format(const nickar_position *pos,
                                                char out[NICKAR_POS_TEXT], char *err,
                                                size_t errlen);
/* The start position (4 seeds a pit, empty stores, default rows). */
NICKAR_API void nickar_position_start(nickar_position *out, int side_to_move);

/* ===== games ===== */

/* A game in progress: the variant, the position, the moves played, and what
 * the repetition and ply-limit rules need. */
typedef struct nickar_game nickar_game;

/* How a game ended. */
typedef struct nickar_result {
    int over;             /* 0 while the game goes on */
    const char *reason;   /* "none", "majority", "empty-row", ... (static text) */
    int winner;           /* NICKAR_SOUTH, NICKAR_NORTH or NICKAR_DRAW; -1 while on */
    unsigned total[2];    /* seeds each side ends with (store plus the seeds the
                             end rule gives); the stores while the game goes on */
} nickar_result;

/* Starts a game of the named variant from position (R-B3 text; NULL: the
 * start position, South to move) with a ply limit (0: the default).  The
 * end rules are checked at once: a game may be over from its start.
 * NICKAR_EINVAL for an unknown variant (the message lists them) or a bad
 * position, NICKAR_ERANGE for a ply limit above NICKAR_MAX_PLY_LIMIT,
 * NICKAR_ENOMEM. */
NICKAR_API nickar_status nickar_game_new(nickar_game **out, const char *variant,
                                         const char *position, unsigned ply_limit, char *err,
                                         size_t errlen);
/* A copy of g (its history included); NULL when out of memory. */
NICKAR_API nickar_game *nickar_game_clone(const nickar_game *g);
NICKAR_API void nickar_game_free(nickar_game *g);

/* The variant's name. */
NICKAR_API const char *nickar_game_variant(const nickar_game *g);
/* The current position as text (out: NICKAR_POS_TEXT bytes) and as numbers. */
NICKAR_API void nickar_game_position_text(const nickar_game *g, char out[NICKAR_POS_TEXT]);
NICKAR_API void nickar_game_position(const nickar_game *g, nickar_position *out);
/* The side to move; the plies played; the ply limit. */
NICKAR_API int nickar_game_to_move(const nickar_game *g);
NICKAR_API unsigned nickar_game_ply(const nickar_game *g);
NICKAR_API unsigned nickar_game_ply_limit(const nickar_game *g);
/* The k-th move played (k < nickar_game_ply), NICKAR_NO_MOVE otherwise. */
NICKAR_API int nickar_game_move_at(const nickar_game *g, unsigned k);
/* The legal moves as a mask (bit i: move i); 0 once the game is over. */
NICKAR_API unsigned nickar_game_legal(const nickar_game *g);
/* Plays a move: NICKAR_EOVER after the end, NICKAR_EILLEGAL for a move
 * that is not legal (the message lists the legal ones).  captured, when
 * not NULL, receives the seeds the move captured. */
NICKAR_API nickar_status nickar_game_play(nickar_game *g, int move, unsigned *captured,
                                          char *err, size_t errlen);
/* Whether the game is over, and its result (see nickar_result). */
NICKAR_API int nickar_game_over(const nickar_game *g);
NICKAR_API void nickar_game_result(const nickar_game *g, nickar_result *out);

/* ===== players and search ===== */

/* A player made from a spec, as nickar's commands take them
 * (docs/cli.md, "Player specs"): "random", "greedy",
 * "ab:depth=5,features=positional,weights=FILE" (weights from a built-in
 * table, a text file or a run file's individual, RUN.h5@best), and every
 * other kind the nickar binary of the same version knows but "human".
 * A player holds its search (transposition table) and its random
 * generator; it plays games of the variant it was made for. */
typedef struct nickar_player nickar_player;

/* What a player says about its choice. */
typedef struct nickar_think {
    int move;           /* the move chosen; NICKAR_NO_MOVE when the game is over */
    double score;       /* its value from the mover's view (a finished game:
                           seed difference x 1e6); 0 for players without one */
    unsigned depth;     /* depth reached (searching players) */
    uint64_t nodes;     /* nodes searched (searching players) */
} nickar_think;

/* Makes a player of spec for the named variant; seed starts its random
 * generator (random players, tie-breaks).  NICKAR_EINVAL for a bad spec
 * (the message lists the valid choices), an unknown variant, or the
 * "human" player; the file errors of weights= (NICKAR_ENOFILE, NICKAR_EIO,
 * NICKAR_EFORMAT); NICKAR_ENOMEM. */
NICKAR_API nickar_status nickar_player_new(nickar_player **out, const char *spec,
                                           const char *variant, uint64_t seed, char *err,
                                           size_t errlen);
NICKAR_API void nickar_player_free(nickar_player *p);
/* The spec the player was made from. */
NICKAR_API const char *nickar_player_spec(const nickar_player *p);
/* Restarts the player's random generator from seed. */
NICKAR_API void nickar_player_seed(nickar_player *p, uint64_t seed);
/* Chooses a move for the game g (not played: the caller plays it).
 * think may be NULL.  NICKAR_EOVER when the game is over, NICKAR_EINVAL
 * when g is of another variant than the player's. */
NICKAR_API nickar_status nickar_player_move(nickar_player *p, const nickar_game *g,
                                            nickar_think *think, char *err, size_t errlen);
/* The static evaluation of g's current position by the player's feature
 * set and weights, from the side to move's view (a finished game: its
 * exact score, seed difference x 1e6).  NICKAR_EINVAL for a player without
 * an evaluation (random, greedy) or a game of another variant. */
NICKAR_API nickar_status nickar_player_evaluate(const nickar_player *p, const nickar_game *g,
                                                double *score, char *err, size_t errlen);

/* One-call forms: a player of spec made for g's variant, asked once, freed.
 * nickar_search returns the best move by spec (think may be NULL; seed as
 * in nickar_player_new); nickar_evaluate the evaluation by spec. */
NICKAR_API nickar_status nickar_search(const nickar_game *g, const char *spec, uint64_t seed,
                                       nickar_think *think, char *err, size_t errlen);
NICKAR_API nickar_status nickar_evaluate(const nickar_game *g, const char *spec, double *score,
                                         char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
