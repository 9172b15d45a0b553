/*
 * status.h -- nickar's one list of error codes.
 *
 * Every fallible function below cli/ returns an nk_status and, where it has
 * more to say, writes a one-line message into a caller's buffer.  Nothing
 * below cli/ prints or exits.  nk_strerror() gives the generic text of a code.
 */
#ifndef NK_STATUS_H
#define NK_STATUS_H

#include <stddef.h>

typedef enum nk_status {
    NK_OK = 0,       /* success */
    NK_EINVAL,       /* malformed input: a position, a move, a spec, a key */
    NK_ERANGE,       /* a number outside its allowed range */
    NK_EILLEGAL,     /* a move that the rules do not allow here */
    NK_EOVER,        /* a move given after the game has ended */
    NK_ENOMEM,       /* an allocation failed */
    NK_EIO,          /* reading or writing a file failed */
    NK_EFORMAT,      /* a file that is not what it should be */
    NK_EMISMATCH,    /* a file made from another configuration */
    NK_EINTERRUPTED, /* stopped on request (a signal) */
    NK_ENOFILE,      /* an input file that cannot be opened: missing,
                        unreadable, a directory (bad input, where NK_EIO
                        is a failure of the system while reading or
                        writing) */
    NK_ESTATUS_COUNT
} nk_status;

/* The size of a buffer for one message line: every error buffer of the
 * library and the commands is this size, so that a message that quotes
 * another ("key: <inner message>") loses nothing but the end of an
 * unreasonably long line (nk_fail truncates, never overflows). */
enum { NK_MSG_MAX = 1024 };

/* The generic one-line description of a status code (never NULL). */
const char *nk_strerror(nk_status status);

/* Writes a formatted message into buf (if buf is non-NULL and len > 0) and
 * returns status, so that callers can write `return nk_fail(...)`. */
nk_status nk_fail(nk_status status, char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
