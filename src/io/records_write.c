/*
 * records_write.c -- the games of a batch written to a records file, one
 * line a game (io/records.h: nk_records_write_games), for `nickar match
 * --records`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "io/records.h"

nk_status nk_records_write_games(const char *path, bool append, const nk_variant *v,
                                 unsigned ply_limit, const nk_exec_game *games,
                                 const nk_exec_job *jobs, size_t n, const char *const *specs,
                                 char *err, size_t errlen)
{
    nk_record *rec = nk_malloc(sizeof *rec);
    char *line = nk_malloc(NK_RECORD_LINE);
    FILE *f = rec != NULL && line != NULL ? fopen(path, append ? "a" : "w") : NULL;
    nk_status st = NK_OK;
    if (rec == NULL || line == NULL)
        st = nk_fail(NK_ENOMEM, err, errlen, "out of memory for the game records");
    else if (f == NULL)
        st = nk_fail(NK_EIO, err, errlen, "cannot write the game records to '%s': %s", path,
                     strerror(errno));
    for (size_t i = 0; st == NK_OK && i < n; i++) {
        const nk_exec_game *g = &games[i];
        st = nk_record_set(rec, v, ply_limit, &g->start, g->moves, g->plies, &g->result,
                           specs[jobs[i].south], specs[jobs[i].north], err, errlen);
        if (st != NK_OK)
            break;
        nk_record_format(rec, line, NK_RECORD_LINE);
        fprintf(f, "%s\n", line);
    }
    if (f != NULL && fclose(f) != 0 && st == NK_OK)
        st = nk_fail(NK_EIO, err, errlen, "cannot write the game records to '%s': %s", path,
                     strerror(errno));
    nk_free(line);
    nk_free(rec);
    return st;
}
