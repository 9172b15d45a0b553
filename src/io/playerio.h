/*
 * playerio.h -- player specs whose weights live in files.
 *
 * The search layer knows no files: nk_spec_parse keeps an ab spec's
 * `weights=` value as text and nk_player_new resolves only built-in table
 * names.  This module resolves the rest, once, before any game:
 *
 *   weights=NAME          a built-in table (nk_weights_builtin): left to
 *                         nk_player_new;
 *   weights=RUN.h5@best   an individual of an HDF5 run file (io/runfile.h):
 *   weights=RUN.h5@gen=40,rank=0      `@best` (the best of the last
 *                         complete generation), or a generation (from 1)
 *                         and a rank by fitness (0 = best);
 *   weights=FILE          a text file of numbers, one per feature in the
 *                         feature set's order (nk_feature_set.features), one
 *                         per line; `#` starts a comment, blank lines are
 *                         skipped.  For an evaluation family other
 *                         than linear (search/eval.h: `features=ntuple`)
 *                         the file holds the family's whole weight vector,
 *                         exactly its length; it is read once into the
 *                         process's shared table under the weights text
 *                         (nk_eval_shared_put), and the def keeps no
 *                         numbers (n = 0).  So does RUN.h5@best or
 *                         @gen=G,rank=R of a run that evolved the family
 *                         (player.features): the individual's whole vector,
 *                         which must be exactly the family's length.
 *
 * A resolved player (nk_player_def) holds the spec and the numbers, so that
 * exec's player table (nk_exec_player) and nk_player_new can take them
 * without touching a file again.
 */
#ifndef NK_PLAYERIO_H
#define NK_PLAYERIO_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/rules.h"
#include "run/tournament.h"
#include "search/player.h"

/* A spec with its weights resolved. */
typedef struct nk_player_def {
    nk_spec spec;
    double weights[NK_MAX_FEATURES];
    size_t n; /* numbers read from a file or run; 0: none (the spec's
                 built-in table or the feature set's defaults) */
} nk_player_def;

/* Parses text as a spec and resolves its weights for variant v (whose
 * feature set fixes how many numbers a file must hold).  NK_EINVAL for a
 * bad spec (the message lists the valid choices) or a bad weights file
 * (file and line), NK_ENOFILE when the file cannot be opened, NK_EIO when
 * reading it fails. */
nk_status nk_playerio_load(nk_player_def *out, const char *text, const nk_variant *v, char *err,
                           size_t errlen);

/* Makes a player from a resolved spec (nk_player_new with its numbers). */
nk_status nk_playerio_new(nk_player **out, const nk_player_def *def, const nk_variant *v, char *err,
                          size_t errlen);

/* Reads a weights text file: up to max numbers into w, their count into *n.
 * NK_ENOFILE if it cannot be opened, NK_EIO if reading fails; NK_EINVAL for a line that is not
 * one finite number, for more than max numbers, or for none (the message
 * names the file and the line). */
nk_status nk_playerio_read_weights(const char *path, double *w, size_t max, size_t *n, char *err,
                                   size_t errlen);

/* The weights of an individual of a run file, selected by `best` or
 * `gen=G,rank=R`: D <= max numbers into w, D into *n.  NK_EINVAL for a bad
 * selector, NK_ERANGE for a generation or rank outside the run, the run
 * file's own errors (NK_EIO, NK_EFORMAT, ...) otherwise. */
nk_status nk_playerio_run_weights(const char *file, const char *selector, double *w, size_t max,
                                  size_t *n, char *err, size_t errlen);

/* ===== player lists (nickar tournament) =====
 *
 * A list of named players.  Names are what tables show; they are unique.
 * An entry is a spec, named by its text, or a run file expanded to its
 * champions:
 *
 *   RUN.h5@champions           the champion (rank 0 by fitness) of every
 *                              complete generation G = 1, 2, ...
 *   RUN.h5@champions:every=K   those of G = 1, 1+K, 1+2K, ... and the last
 *
 * each named `<run>:g<G>` (<run>: the file's name without directory and
 * without ".h5"; a players-file line `NAME = RUN.h5@champions` names them
 * `NAME:g<G>`) and played as the run's evolving players (run/settings.h,
 * nk_run_player_of: `ab:depth=D,features=F,tt=T`, `,view=root` for view =
 * root) with `,weights=RUN.h5@gen=G,rank=0`; rank 0 is the champion
 * (evolve/genome.h, nk_fitness_best).  The games are played under the
 * tournament's ply limit, not the run's.
 *
 * A players file has one `NAME = SPEC` a line; `#` starts a comment, blank
 * lines are skipped; the name and the spec are trimmed of blanks. */
/* NK_PLAYER_NAME, the longest name: run/tournament.h */

typedef struct nk_named_player {
    char name[NK_PLAYER_NAME];
    nk_player_def def;
} nk_named_player;

/* The most players a list holds (a tournament's): a players file is
 * refused at the first line beyond, before it costs more work. */
enum { NK_PLAYER_LIST_MAX = 2000 };

typedef struct nk_player_list {
    size_t n, cap;
    nk_named_player *p;
} nk_player_list;

/* Whether text is a champions selector (RUN.h5@champions...). */
bool nk_playerio_is_champions(const char *text);

/* Adds the player(s) of spec text under name (NULL: named by the spec or,
 * for champions, by the run).  NK_EINVAL for a bad spec, a duplicate name
 * ("duplicate player name 'X'"), a bad selector; NK_ERANGE for a run
 * without generations or a player beyond NK_PLAYER_LIST_MAX; the run
 * file's own errors. */
nk_status nk_player_list_add(nk_player_list *l, const char *name, const char *text,
                             const nk_variant *v, char *err, size_t errlen);
/* Adds the players of a players file; errors name FILE:LINE. */
nk_status nk_player_list_read(nk_player_list *l, const char *path, const nk_variant *v, char *err,
                              size_t errlen);
void nk_player_list_free(nk_player_list *l);

#endif
