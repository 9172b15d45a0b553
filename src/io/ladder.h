/*
 * ladder.h -- a variant's reference ladder, read from its text file
 * (results/ladder/<variant>.tsv, written by experiments/ladder/run.sh),
 * for the gauntlet of `nickar rate` (run/rate.h).
 *
 * The file has one `NAME<TAB>SPEC<TAB>ELO` a line, `#` comments and blank
 * lines, then the ladder's own results: `@anchor<TAB>NAME<TAB>ELO` (the
 * player whose rating was fixed) and one `@wdl<TAB>A<TAB>B<TAB>W<TAB>D<TAB>L`
 * a pairing (A's results against B).  The results are optional, but come
 * both or neither.
 */
#ifndef NK_IO_LADDER_H
#define NK_IO_LADDER_H

#include <stdbool.h>
#include <stddef.h>

#include "arena/rating.h"
#include "io/playerio.h"

/* The most players of a ladder, and the longest line in bytes. */
enum { NK_LADDER_MAX = 1000, NK_LADDER_LINE = 2048 };

typedef struct nk_ladder_rung {
    char name[NK_PLAYER_NAME];
    nk_player_def def;
    double elo;
} nk_ladder_rung;

typedef struct nk_ladder {
    nk_ladder_rung *rung; /* [n] */
    size_t n;
    nk_wdl *wdl;       /* [n*n] the ladder's results, row player's view;
                          NULL when the file has none */
    size_t anchor;     /* with results: the anchor's index ... */
    double anchor_elo; /* ... and its rating */
    bool has_anchor;
} nk_ladder;

/* Reads the ladder at path, the players' specs resolved for variant v.
 * NK_ENOFILE when the file cannot be opened; NK_EFORMAT for a line that
 * is not one of the above (err names FILE:LINE), a name used twice or
 * longer than NK_PLAYER_NAME - 1 bytes, no players, more than
 * NK_LADDER_MAX, or results without their anchor or the reverse; the
 * errors of nk_playerio_load (FILE:LINE: its message); NK_ENOMEM.  On
 * failure *out is empty. */
nk_status nk_ladder_read(nk_ladder *out, const char *path, const nk_variant *v, char *err,
                         size_t errlen);
/* Frees what nk_ladder_read made (an empty ladder is allowed). */
void nk_ladder_free(nk_ladder *l);

#endif
