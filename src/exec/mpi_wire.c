/*
 * mpi_wire.c -- the wire format of the MPI batch protocol (mpi_wire.h):
 * building and reading messages, receiving, MPI error texts, the batch
 * description, and the wait both ends use while nothing happens.  Only in
 * builds with MPI.
 *
 * Invariants kept here:
 *  - a message that failed to grow is marked (oom) and never half-sent;
 *  - a reader never reads past its message: it marks itself bad and hands
 *    out zeros instead, so a garbled message is caught by its reader's
 *    caller, not by a crash.
 */
#include "exec/mpi_wire.h"

#ifdef NICKAR_HAVE_MPI

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "search/eval.h"

/* ===== waiting ===== */

void nk_mpi_nap(unsigned *idle)
{
    long ns = *idle < 20 ? 50000 : *idle < 1000 ? 200000 : 1000000;
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
    if (*idle < UINT_MAX)
        (*idle)++;
}

/* ===== messages ===== */

void nk_mpi_put(nk_mpi_msg *m, const void *src, size_t n)
{
    if (m->oom || n == 0)
        return;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < m->len + n)
            cap *= 2;
        unsigned char *p = nk_realloc(m->p, cap);
        if (p == NULL) {
            m->oom = true;
            return;
        }
        m->p = p;
        m->cap = cap;
    }
    memcpy(m->p + m->len, src, n);
    m->len += n;
}

void nk_mpi_put_u64(nk_mpi_msg *m, uint64_t v)
{
    nk_mpi_put(m, &v, sizeof v);
}

void nk_mpi_get(nk_mpi_reader *r, void *dst, size_t n)
{
    if (r->bad || n > r->len - r->at) {
        r->bad = true;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p + r->at, n);
    r->at += n;
}

uint64_t nk_mpi_get_u64(nk_mpi_reader *r)
{
    uint64_t v;
    nk_mpi_get(r, &v, sizeof v);
    return v;
}

/* ===== receiving and MPI errors ===== */

int nk_mpi_recv_probed(const MPI_Status *probe, unsigned char **data, size_t *len)
{
    int n = 0;
    int rc = MPI_Get_count(probe, MPI_BYTE, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    *data = nk_malloc(n > 0 ? (size_t)n : 1);
    *len = (size_t)n;
    if (*data == NULL)
        return MPI_ERR_NO_MEM;
    return MPI_Recv(*data, n, MPI_BYTE, probe->MPI_SOURCE, probe->MPI_TAG, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE);
}

void nk_mpi_error_text(int rc, char *buf, size_t len)
{
    char s[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (rc == MPI_ERR_NO_MEM || MPI_Error_string(rc, s, &n) != MPI_SUCCESS)
        snprintf(s, sizeof s, "%s", rc == MPI_ERR_NO_MEM ? "out of memory" : "MPI error");
    snprintf(buf, len, "%s", s);
}

/* ===== the batch description (TAG_BATCH) ===== */

void nk_mpi_pack_batch(nk_mpi_msg *m, const nk_exec_batch *b, double alive)
{
    size_t name = strlen(b->variant->name);
    nk_mpi_put_u64(m, name);
    nk_mpi_put(m, b->variant->name, name);
    nk_mpi_put_u64(m, b->start != NULL);
    if (b->start != NULL)
        nk_mpi_put(m, b->start, sizeof *b->start);
    nk_mpi_put_u64(m, b->ply_limit);
    nk_mpi_put_u64(m, (uint64_t)(int64_t)b->threads);
    nk_mpi_put_u64(m, b->record);
    nk_mpi_put(m, &alive, sizeof alive);
    nk_mpi_put_u64(m, b->njobs);
    nk_mpi_put_u64(m, b->nplayers);
    for (size_t i = 0; i < b->nplayers; i++) {
        const nk_exec_player *p = &b->players[i];
        const double *w = p->weights;
        size_t n = p->n;
        /* An evaluation family's weights that travel by name in this
         * process (search/eval.h: the io layer put them in the shared
         * table, e.g. a gauntlet player's weights=FILE) go inline: a
         * worker's table does not hold them. */
        if (w == NULL && p->spec->weights[0] != '\0') {
            size_t k = 0;
            const double *shared = nk_eval_shared_find(p->spec->weights, &k);
            if (shared != NULL) {
                w = shared;
                n = k;
            }
        }
        nk_mpi_put(m, p->spec, sizeof *p->spec);
        nk_mpi_put_u64(m, w != NULL);
        nk_mpi_put_u64(m, n);
        if (w != NULL)
            nk_mpi_put(m, w, n * sizeof *w);
    }
}

#endif /* NICKAR_HAVE_MPI */
