/*
 * records.h -- game records: one line a game, written by `nickar match
 * --records` and `nickar play --record`, read by `nickar replay` and
 * `nickar view` (docs/cli.md, "Game records").
 *
 * A line is its keys in this order, single spaces between them:
 *
 *   game variant=V limit=L south=SPEC north=SPEC result=R score=S-N
 *        reason=WHY plies=P record=POSITION MOVE...
 *
 * (one line; wrapped here).  R is S, N, draw, or none for a game that did
 * not end (then score=- and reason=none); score holds the two totals of
 * the result, South's first; WHY is an end reason (nk_end_name); the
 * record is the game's R-B4 record (docs/rules.md): the start position in
 * R-B3 notation and the P moves.  A SPEC is a player spec as given
 * (`human` for a person), without spaces.  Blank lines and lines that
 * start with '#' are not records.
 *
 * Reading is strict: a missing or misplaced key, an unknown variant, a bad
 * number, position or move, a move count other than P, an illegal move, or
 * moves that do not end in the stated result are refused with NK_EINVAL
 * and a message that says what is wrong (nk_records_read puts "FILE:LINE:
 * " before it).  Nothing here prints.
 */
#ifndef NK_IO_RECORDS_H
#define NK_IO_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "exec/exec.h"
#include "rules/rules.h"

enum { NK_RECORD_SPEC = 512 };
/* The longest line a record can take, its newline and NUL included. */
enum { NK_RECORD_LINE = 2 * NK_MAX_PLIES + 2 * NK_RECORD_SPEC + NK_POS_TEXT + 256 };

typedef struct nk_record {
    const nk_variant *variant;
    unsigned ply_limit;
    char player[2][NK_RECORD_SPEC]; /* [NK_SOUTH], [NK_NORTH] */
    nk_result result;               /* reason NK_END_NONE: the game did not end */
    nk_pos start;
    unsigned plies;
    uint8_t moves[NK_MAX_PLIES];
} nk_record;

/* Fills r with a game: variant, ply limit, start, the plies moves and the
 * result (reason NK_END_NONE if it did not end), and the players' specs.
 * NK_EINVAL when a spec is empty, too long or holds a space or a control
 * character, NK_ERANGE for a bad ply count or limit. */
nk_status nk_record_set(nk_record *r, const nk_variant *v, unsigned ply_limit,
                        const nk_pos *start, const uint8_t *moves, unsigned plies,
                        const nk_result *result, const char *south, const char *north,
                        char *err, size_t errlen);

/* Writes the record's line, without newline, into buf (len bytes, at most
 * NK_RECORD_LINE needed); returns its length. */
size_t nk_record_format(const nk_record *r, char *buf, size_t len);

/* Parses one line (a trailing newline is allowed) and checks its moves and
 * result with the engine.  NK_EINVAL with what is wrong; NK_ENOMEM. */
nk_status nk_record_parse(nk_record *r, const char *line, char *err, size_t errlen);

/* Replays the first `plies` moves of a record (checked by nk_record_parse
 * or made by nk_record_set) in g. */
nk_status nk_record_game(const nk_record *r, nk_game *g, unsigned plies, char *err,
                         size_t errlen);

/* Reads the records of a file and appends them to *recs (nk_realloc'd;
 * *n counts them).  A path RUN.h5@game=K or RUN.h5@gen=G,game=J (where no
 * file of that name exists) is a fitness game of a run file, played again
 * (io/regen.h).  NK_ENOFILE when the file cannot be opened, NK_EINVAL
 * for a bad line ("FILE:LINE: what is wrong"), NK_EFORMAT for a file with
 * no record, NK_EIO, NK_ENOMEM.  On failure *recs and *n hold the records
 * read before (free them with nk_free). */
nk_status nk_records_read(const char *path, nk_record **recs, size_t *n, char *err,
                          size_t errlen);

/* Writes the games of a batch, games[0..n), as lines of a records file at
 * path (append: after the lines it holds; else a new file), game i with
 * specs[jobs[i].south] South and specs[jobs[i].north] North (specs: the
 * spec text of each entrant of the batch's player table) and the ply
 * limit it was played under (records_write.c).  NK_ENOMEM; NK_EIO when the
 * file cannot be opened or written (err names it); nk_record_set's
 * NK_EINVAL and NK_ERANGE for a game that cannot be a record (the lines
 * before it are written). */
nk_status nk_records_write_games(const char *path, bool append, const nk_variant *v,
                                 unsigned ply_limit, const nk_exec_game *games,
                                 const nk_exec_job *jobs, size_t n, const char *const *specs,
                                 char *err, size_t errlen);

#endif
