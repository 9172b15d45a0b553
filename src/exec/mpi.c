/*
 * mpi.c -- starting and ending MPI, and what every rank knows of the job.
 *
 * Invariants kept here:
 *  - MPI_Init is called only when the environment says mpirun (or srun)
 *    launched the process, or NICKAR_MPI=1; a plain run never touches MPI;
 *  - the state below is written once, by nk_mpi_init on the main thread,
 *    before any batch runs, and read afterwards (broken: by the thread that
 *    talks to MPI only); it is the process's MPI state, so it is global;
 *  - MPI_COMM_WORLD returns errors (MPI_ERRORS_RETURN) instead of aborting,
 *    so that rank 0 can say what went wrong before it ends the job.
 *
 * The batch protocol itself is in mpi_wire.c (messages), mpi_controller.c
 * (rank 0: chunks, time-outs) and mpi_worker.c (the other ranks:
 * nk_mpi_serve, also its stub in a build without MPI).
 */
#include "exec/mpi.h"
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

#include <omp.h>

#ifdef NICKAR_HAVE_MPI
#include <mpi.h>
#endif

static int g_rank = 0, g_size = 1;
static bool g_broken;
static int *g_threads; /* [g_size] each rank's omp_get_max_threads() */
static double g_timeout = 120.0;
static size_t g_chunk;

/* The number of ranks the launcher's environment announces, 0 for none. */
static long launched_size(void)
{
    const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v != NULL && *v != '\0')
            return strtol(v, NULL, 10);
    }
    if (getenv("PMIX_RANK") != NULL || getenv("PMI_RANK") != NULL)
        return 1; /* a launcher, size unknown */
    return 0;
}

static bool launched(void)
{
    const char *force = getenv("NICKAR_MPI");
    if (force != NULL && strcmp(force, "0") == 0)
        return false;
    if (force != NULL && strcmp(force, "1") == 0)
        return true;
    return launched_size() > 0;
}

static void read_settings(void)
{
    const char *t = getenv("NICKAR_MPI_TIMEOUT");
    if (t != NULL && *t != '\0') {
        char *end;
        double s = strtod(t, &end);
        if (*end == '\0' && s > 0)
            g_timeout = s;
    }
    const char *c = getenv("NICKAR_MPI_CHUNK");
    if (c != NULL && *c != '\0') {
        char *end;
        unsigned long long n = strtoull(c, &end, 10);
        if (*end == '\0' && n > 0)
            g_chunk = (size_t)n;
    }
}

#ifdef NICKAR_HAVE_MPI

static bool g_started; /* MPI_Init was called, MPI_Finalize not yet */

nk_status nk_mpi_init(int *argc, char ***argv, char *err, size_t errlen)
{
    if (!launched())
        return NK_OK;
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return nk_fail(NK_EINVAL, err, errlen, "MPI_Init_thread failed");
    g_started = true;
    if (provided < MPI_THREAD_FUNNELED)
        return nk_fail(NK_EINVAL, err, errlen,
                       "this MPI library gives no MPI_THREAD_FUNNELED support");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    read_settings();
    g_threads = nk_calloc((size_t)g_size, sizeof *g_threads);
    if (g_threads == NULL)
        return nk_fail(NK_ENOMEM, err, errlen, "out of memory");
    int mine = omp_get_max_threads();
    if (MPI_Allgather(&mine, 1, MPI_INT, g_threads, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS)
        return nk_fail(NK_EINVAL, err, errlen, "MPI_Allgather of the thread counts failed");
    return NK_OK;
}

void nk_mpi_finalize(void)
{
    if (!g_started)
        return;
    if (g_rank == 0 && !g_broken)
        for (int r = 1; r < g_size; r++)
            MPI_Send(NULL, 0, MPI_BYTE, r, NK_MPI_TAG_QUIT, MPI_COMM_WORLD);
    nk_free(g_threads);
    g_threads = NULL;
    MPI_Finalize();
    g_started = false;
}

void nk_mpi_abort(int code)
{
    if (g_started)
        MPI_Abort(MPI_COMM_WORLD, code);
}

bool nk_mpi_available(void)
{
    return true;
}

#else /* no MPI in this build */

nk_status nk_mpi_init(int *argc, char ***argv, char *err, size_t errlen)
{
    (void)argc;
    (void)argv;
    long size = launched() ? launched_size() : 0;
    if (size > 1)
        return nk_fail(NK_EINVAL, err, errlen,
                       "this nickar was built without MPI (NICKAR_MPI=OFF), yet it was started "
                       "as one of %ld ranks; rebuild it with MPI or run it alone",
                       size);
    read_settings();
    return NK_OK;
}

void nk_mpi_finalize(void)
{
}

void nk_mpi_abort(int code)
{
    (void)code;
}

bool nk_mpi_available(void)
{
    return false;
}

#endif

int nk_mpi_rank(void)
{
    return g_rank;
}

int nk_mpi_size(void)
{
    return g_size;
}

int nk_mpi_threads_of(int rank)
{
    if (g_threads == NULL || rank < 0 || rank >= g_size || g_threads[rank] < 1)
        return 1;
    return g_threads[rank];
}

double nk_mpi_timeout(void)
{
    return g_timeout;
}

size_t nk_mpi_chunk(void)
{
    return g_chunk;
}

bool nk_mpi_broken(void)
{
    return g_broken;
}

void nk_mpi_set_broken(void)
{
    g_broken = true;
}
