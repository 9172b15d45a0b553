/*
 * tb.h -- endgame databases: the exact value of every position with at most
 * N seeds on the board (docs/tablebase.md says what a value is, how cycles
 * are valued, and what the file holds).
 *
 * A value is the number of the board's seeds that the side to move collects
 * from here to the end of the game under optimal play by both, the game
 * played without the majority rule (R-W6: the stores are not part of a
 * position here; the result follows from the value and the stores).  The
 * database is built by a fixpoint iteration over each board seed count,
 * smallest first, with the rules engine's own moves (nk_legal, nk_apply,
 * nk_pos_end), so it follows the engine exactly.
 *
 * Only South-to-move positions are stored: the board turned by six pits
 * (rows swapped, owners swapped) with North to move has the same value.
 * Adji Kui II positions are stored for each of the eleven ownership
 * patterns that R-K9 can give a game, or for a chosen set of them
 * (nk_tb_build_patterns): no move changes the owners, so the patterns do
 * not depend on each other.
 *
 * Speightstown's result is not a function of that one number (a win needs
 * the majority, R-W12, and a repetition gives the board to nobody, R-W10),
 * so its database holds two planes: plane 0, the value (the seeds the side
 * to move can force himself to collect), and plane 1, the seeds the
 * opponent can force himself to collect.  The win threshold and the
 * no-loss threshold of any store split follow from them (nk_tb_outcome).
 * In the other variants the second number is the rest of the board.
 */
#ifndef NK_TB_H
#define NK_TB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "rules/rules.h"

/* The largest board seed count a database may hold. */
enum { NK_TB_MAX_SEEDS = 48 };
/* Ownership patterns of Adji Kui II (default rows and 5 + 5 bought). */
enum { NK_TB_MAX_PATTERNS = 11 };

/* The byte of a position: the value in the low 6 bits, and NK_TB_CYCLE when
 * the value rests on the repetition rule somewhere in the play from this
 * position (docs/tablebase.md, "Cycles"); without the bit the value is the
 * exact value of the game with its full history from this position on. */
enum { NK_TB_VALUE_MASK = 0x3F, NK_TB_CYCLE = 0x40 };

/* A database, built in memory or mapped from a file. */
typedef struct nk_tb {
    const nk_variant *variant;   /* the engine's variant */
    nk_variant rules;            /* the same without the majority rule */
    unsigned seeds;              /* N: board seed counts 0..N */
    unsigned npat;               /* ownership patterns (1; adjikui: those built, 11 for all) */
    unsigned planes;             /* 1, or 2 for speightstown (the opponent's plane) */
    uint16_t pat[NK_TB_MAX_PATTERNS]; /* North's pits of each, South to move */
    uint64_t offset[NK_TB_MAX_SEEDS + 2]; /* first byte of each seed count */
    const uint8_t *data;         /* planes x offset[seeds + 1] bytes; plane 1
                                    (speightstown) starts at offset[seeds + 1] */
    uint8_t *owned;              /* data when built in memory (else NULL) */
    void *map;                   /* the mapping when read from a file */
    size_t map_len;
    uint64_t checksum;           /* the file's (file.c); 0 when built */
} nk_tb;

/* What a build did. */
typedef struct nk_tb_stats {
    uint64_t positions;          /* stored positions, all seed counts */
    uint64_t cycle;              /* of these, with NK_TB_CYCLE */
    uint64_t sweeps;             /* fixpoint sweeps, all seed counts */
    unsigned retro;              /* seed counts solved by retrograde
                                    analysis (the parents' lists) */
    unsigned computed;           /* seed counts whose children were computed
                                    again at each sweep (the memory limit) */
    double seconds;              /* wall time of the build */
} nk_tb_stats;

/* Number of compositions of b seeds into the 12 pits: C(b + 11, 11). */
uint64_t nk_tb_count(unsigned b);
/* Rank of the pit counts among the compositions of their sum (the
 * combinatorial number system over the 11 bars between the 12 pits), and
 * its inverse. */
uint64_t nk_tb_rank(const uint8_t pit[NK_PITS]);
void nk_tb_unrank(unsigned b, uint64_t rank, uint8_t pit[NK_PITS]);

/* NK_OK when databases exist for the variant, NK_EINVAL (with why) when
 * not (every variant has them now). */
nk_status nk_tb_supported(const nk_variant *v, char *err, size_t errlen);

/* Builds the database of v to `seeds` board seeds with `threads` OpenMP
 * threads (0: OpenMP's default).  The result is the same for any number of
 * threads.  stats may be NULL.  Release with nk_tb_close. */
nk_status nk_tb_build(nk_tb *tb, const nk_variant *v, unsigned seeds, int threads,
                      nk_tb_stats *stats, char *err, size_t errlen);

/* The same within a memory limit: max_bytes (0: none) bounds the database,
 * the work arrays and the stored children's lists; a seed count whose
 * lists would not fit computes its children again at each sweep (slower,
 * the same result; docs/tablebase.md, "Build"). */
nk_status nk_tb_build_within(nk_tb *tb, const nk_variant *v, unsigned seeds, int threads,
                             uint64_t max_bytes, nk_tb_stats *stats, char *err,
                             size_t errlen);

/* Ownership patterns (R-K9) are named by the pits South has bought, seen
 * from the owners alone (whoever is to move): 0 the default rows, j = 1..5
 * South owns the first j pits of North's row (A onwards), -j North owns the
 * first j of South's (a onwards).  The Warri family has pattern 0 only.
 * A set of patterns is a bit mask over the fixed order 0, 1..5, -1..-5
 * (bit k for the k-th); a database stores its patterns in that order.  A
 * set must hold -j with j: a position of pattern j with North to move is
 * stored as the turned board, pattern -j with South to move. */

/* The set of all patterns of v (1 for the Warri family, 0x7FF for
 * adjikui). */
uint32_t nk_tb_patterns_all(const nk_variant *v);

/* Reads a set of v's patterns: "all", or a comma list of pattern numbers
 * ("0", "0,1,-1").  NK_EINVAL (with why) for an item that is not a number,
 * a number that is no pattern of v, one listed twice, or j without -j. */
nk_status nk_tb_patterns_parse(const nk_variant *v, const char *text, uint32_t *set, char *err,
                               size_t errlen);

/* The pattern of a position's owners (as above, whoever is to move);
 * false when its owners are no pattern of R-K9. */
bool nk_tb_owners_pattern(const nk_pos *pos, int *bought);

/* The number of the database's pattern k (0 <= k < npat). */
int nk_tb_pattern_bought(const nk_tb *tb, unsigned k);

/* Whether the database holds pattern `bought`. */
bool nk_tb_holds_pattern(const nk_tb *tb, int bought);

/* The database's patterns as a comma list in their stored order: "0" or
 * "0,1,2,3,4,5,-1,-2,-3,-4,-5" (at most 30 characters). */
void nk_tb_patterns_text(const nk_tb *tb, char *out, size_t len);

/* The same build for the patterns of a set only (patterns: a set that
 * nk_tb_patterns_parse gives, 0 for all of v's; NK_EINVAL for a set that
 * is not closed or not v's).  Each pattern's values are those of the full
 * build, byte for byte. */
nk_status nk_tb_build_patterns(nk_tb *tb, const nk_variant *v, unsigned seeds, uint32_t patterns,
                               int threads, uint64_t max_bytes, nk_tb_stats *stats, char *err,
                               size_t errlen);

/* The file name of a variant's database in a directory: DIR/VARIANT.nktb. */
void nk_tb_path(const char *dir, const nk_variant *v, char *out, size_t len);

/* Writes the database to path (through a temporary file and a rename, so
 * that an existing file is replaced only by a complete one). */
nk_status nk_tb_write(const nk_tb *tb, const char *path, char *err, size_t errlen);

/* Maps a database file.  expect, when not NULL, is the variant it must be
 * for (NK_EMISMATCH otherwise).  A file that is not a database, truncated,
 * whose patterns are not a valid set of its variant in the fixed order, or
 * whose checksum does not match is NK_EFORMAT; a missing one NK_ENOFILE. */
nk_status nk_tb_open(nk_tb *tb, const char *path, const nk_variant *expect, char *err,
                     size_t errlen);

void nk_tb_close(nk_tb *tb);

/* Databases shared by players (`ab:...,tb=DIR`): each file is opened once
 * for the whole process and read by every thread.  nk_tb_shared_open gives
 * the database of v in dir (DIR/VARIANT.nktb), opening it on first use
 * (the errors of nk_tb_open, NK_EINVAL for a variant without databases);
 * the io layer calls it when it resolves a spec, an MPI worker when it
 * receives one.  nk_tb_shared_find only looks it up (NULL when it has not
 * been opened): it touches no file, so the search layer may call it.  Both
 * are thread-safe; the databases stay open until nk_tb_shared_close_all
 * (for the end of a process, when no player uses them any more). */
nk_status nk_tb_shared_open(const char *dir, const nk_variant *v, const nk_tb **out, char *err,
                            size_t errlen);
const nk_tb *nk_tb_shared_find(const char *dir, const nk_variant *v);
void nk_tb_shared_close_all(void);

/* The byte of a position (any side to move, any stores and flags): value
 * and NK_TB_CYCLE.  NK_ERANGE when it has more than tb->seeds board seeds,
 * NK_EINVAL when its owners are not a pattern of the database (none of
 * R-K9, or one the database was not built for). */
nk_status nk_tb_probe(const nk_tb *tb, const nk_pos *pos, uint8_t *byte);

/* The byte of a position as nk_tb_probe, and in *theirs the board seeds
 * the opponent can force himself to collect: plane 1 in speightstown, the
 * rest of the board (board - value) in the other variants. */
nk_status nk_tb_probe_pair(const nk_tb *tb, const nk_pos *pos, uint8_t *byte, int *theirs);

/* The outcome for the side to move of a position with stores and b board
 * seeds whose value is mine and the opponent's theirs (nk_tb_probe_pair):
 * +1 a win, 0 a draw, -1 a loss under perfect play.  Speightstown: a win
 * when the store plus mine reaches the majority, a loss when the
 * opponent's store plus theirs does (R-W12); the other variants compare
 * the totals. */
int nk_tb_outcome(const nk_tb *tb, const nk_pos *pos, int mine, int theirs);

/* The value of each legal move of a live position inside the database:
 * out[m] for each move m of the returned mask is the number of the board's
 * seeds the mover collects by playing m and then playing on optimally
 * (captures of the move included).  Returns NK_ERANGE, NK_EINVAL as
 * nk_tb_probe.  cycle, when not NULL, gets the moves whose value rests on
 * the repetition rule. */
nk_status nk_tb_move_values(const nk_tb *tb, const nk_pos *pos, unsigned *mask,
                            int out[NK_PASS + 1], unsigned *cycle);
/* The same, and in theirs[m] (when not NULL) the board seeds the opponent
 * collects after m under his best play (as nk_tb_probe_pair). */
nk_status nk_tb_move_pairs(const nk_tb *tb, const nk_pos *pos, unsigned *mask,
                           int out[NK_PASS + 1], int theirs[NK_PASS + 1], unsigned *cycle);
/* The data bytes of a database: planes x positions. */
uint64_t nk_tb_bytes(const nk_tb *tb);

/* ===== the bounds whatever the rule over the whole database ===== */

/* The bounds whatever the repetition rule (lo_any, hi_any of
 * nk_tb_bounds below) of every position of a one-plane database: the
 * build's recurrence iterated count by count from the smallest, with each
 * capture's smaller count at its own bounds, by the build's own sweeps or
 * retrograde analysis (docs/tablebase.md, "The whole database's bounds").
 * Two planes of one byte a position in the database's order: lo then hi.
 * A position without the cycle bit has lo = hi = its value; every
 * position has lo <= its stored value <= hi.  Kept in a bounds file
 * beside the database, DIR/VARIANT.nkbd, tied to it by its checksum. */
typedef struct nk_tb_whole {
    const nk_tb *tb;    /* the database it belongs to (stays open) */
    const uint8_t *lo;  /* offset[seeds + 1] bytes each, by entry */
    const uint8_t *hi;
    uint8_t *owned;     /* built in memory (else NULL) */
    void *map;          /* read from a file */
    size_t map_len;
    uint64_t checksum;  /* the file's; 0 when built */
} nk_tb_whole;

/* Computes the bounds of every position of tb (a one-plane database) with
 * `threads` OpenMP threads (0: OpenMP's default), within max_bytes (0: no
 * limit) as nk_tb_build_within counts them (tb's data, the two planes, the
 * work arrays and the children's lists; a count whose lists do not fit
 * computes its children again each sweep).  stats: positions, cycle = the
 * positions whose bounds stay apart, sweeps, retro, computed, seconds;
 * may be NULL.  NK_EINVAL for a two-plane database, NK_ENOMEM.  The result
 * is the same for any threads and memory.  Release with
 * nk_tb_whole_close. */
nk_status nk_tb_whole_build(nk_tb_whole *w, const nk_tb *tb, int threads, uint64_t max_bytes,
                            nk_tb_stats *stats, char *err, size_t errlen);

/* The file name of a variant's bounds in a directory: DIR/VARIANT.nkbd. */
void nk_tb_whole_path(const char *dir, const nk_variant *v, char *out, size_t len);

/* Writes the bounds to path, through a temporary file and a rename. */
nk_status nk_tb_whole_write(const nk_tb_whole *w, const char *path, char *err, size_t errlen);

/* Maps a bounds file and checks it against tb, the database it must
 * belong to: NK_ENOFILE when missing, NK_EMISMATCH when it is the bounds
 * file of another database (variant, seeds, patterns or checksum), and
 * NK_EFORMAT when it is no bounds file, truncated, its checksum does not
 * match, or a bound does not hold tb's value (lo <= value <= hi, lo = hi
 * = value without the cycle bit). */
nk_status nk_tb_whole_open(nk_tb_whole *w, const nk_tb *tb, const char *path, char *err,
                           size_t errlen);
void nk_tb_whole_close(nk_tb_whole *w);

/* The bounds of a position (any side to move; stores ignored) for its
 * mover.  NK_ERANGE, NK_EINVAL as nk_tb_probe. */
nk_status nk_tb_whole_get(const nk_tb_whole *w, const nk_pos *pos, int *lo, int *hi);

/* ===== read-only queries: the bounds behind a value ===== */

/* The entry of a position (any side to move; stores and flags ignored):
 * its board seed count b and its index from offset[b] (pattern and rank
 * of the South-to-move form).  NK_ERANGE when it has more than tb->seeds
 * board seeds, NK_EINVAL when its owners are not one of tb's patterns. */
nk_status nk_tb_entry(const nk_tb *tb, const nk_pos *pos, unsigned *b, uint64_t *index);
/* The position of entry index of count b: South to move, stores and flags
 * 0 (the inverse of nk_tb_entry). */
void nk_tb_entry_pos(const nk_tb *tb, unsigned b, uint64_t index, nk_pos *pos);

/* The positions with the cycle bit that the play from one position can
 * reach (through captures too), with the two bounds of each value
 * (docs/tablebase.md, "Cycles and the repetition rule").  Nothing is
 * stored in the file beyond the value and the bit, so a region computes
 * the bounds again, by the build's recurrence, over the positions it
 * reaches: a position without the cycle bit has lo = hi = its value, and so
 * does every position it reaches, so the exploration stops there. */
typedef struct nk_tb_region nk_tb_region;

/* The bounds of a position's value (the seeds of its board its mover
 * collects):
 * - lo, hi: the build's fixpoint at the position's count, the smaller
 *   counts at their stored values: what the database computed; its stored
 *   value is lo where lo = hi, else the repetition's value clamped to them;
 *   -1 both where not computed (nk_tb_region_whole);
 * - lo_any, hi_any: the same fixpoint with each capture's smaller count at
 *   its own [lo_any, hi_any]: the value of the game with its full history
 *   from this position (a fresh history: the start, or right after a
 *   capture) lies in it whatever a repetition gives, since both sides'
 *   forcing strategies never repeat a position.  Where lo_any = hi_any the
 *   value stands whatever the repetition rule is.
 * component: the same number for exactly the positions of the region that
 * can reach each other on their count (a strongly connected component of
 * its moves that do not capture); -1 for a position without the cycle bit.
 * A repetition can only happen inside a component. */
typedef struct nk_tb_bounds {
    int lo, hi;
    int lo_any, hi_any;
    int64_t component;
} nk_tb_bounds;

/* Explores the region of pos (a live position of a one-plane database,
 * within it) and computes the bounds of each of its positions.  At most
 * max_positions positions (0: no limit) are explored: more is NK_ERANGE.
 * NK_EINVAL for a two-plane database (no value there rests on the
 * repetition rule) or a position of another pattern, NK_ENOMEM.  Release
 * with nk_tb_region_free (NULL is fine); the region reads tb, which must
 * stay open. */
nk_status nk_tb_region_new(nk_tb_region **out, const nk_tb *tb, const nk_pos *pos,
                           uint64_t max_positions, char *err, size_t errlen);
void nk_tb_region_free(nk_tb_region *r);
/* A region over the whole database from its bounds file, for positions
 * whose region would not fit in memory: lo_any and hi_any come from w;
 * lo and hi (at the count) are not computed (-1); every position with the
 * cycle bit is given component 0 (a search with history keeps the history
 * along every move that does not capture, which is always sound).  w (and
 * its database) must stay open.  NK_ENOMEM. */
nk_status nk_tb_region_whole(nk_tb_region **out, const nk_tb_whole *w, char *err,
                             size_t errlen);
/* Takes a region's lo_any and hi_any from w (the same values, computed
 * over the whole database) from now on; w must be of the region's
 * database and stay open. */
void nk_tb_region_attach(nk_tb_region *r, const nk_tb_whole *w);
/* The positions with the cycle bit it holds (a region over the whole
 * database: every position of the database). */
uint64_t nk_tb_region_size(const nk_tb_region *r);
/* The bounds of a position (any side to move, stores ignored) that the play
 * from the region's position can reach.  NK_ERANGE, NK_EINVAL as
 * nk_tb_probe; NK_EMISMATCH for a position with the cycle bit that the
 * region does not hold (not reachable from its position). */
nk_status nk_tb_region_bounds(const nk_tb_region *r, const nk_pos *pos, nk_tb_bounds *out);
/* The bounds of what each legal move of pos (a position the region holds
 * or one without the cycle bit) gives its mover: out[m] for each move m of
 * the returned mask (0 when the game is over), the seeds of pos's board
 * (captures of the move included); component: the child's.  Errors as
 * nk_tb_region_bounds. */
nk_status nk_tb_region_moves(const nk_tb_region *r, const nk_pos *pos, unsigned *mask,
                             nk_tb_bounds out[NK_PASS + 1]);

#endif
