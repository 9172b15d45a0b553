/*
 * status.c -- texts of nickar's error codes and the message helper.
 */
#include "base/status.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const status_text[NK_ESTATUS_COUNT] = {
    [NK_OK] = "success",
    [NK_EINVAL] = "invalid input",
    [NK_ERANGE] = "value out of range",
    [NK_EILLEGAL] = "illegal move",
    [NK_EOVER] = "the game is over",
    [NK_ENOMEM] = "out of memory",
    [NK_EIO] = "input/output error",
    [NK_EFORMAT] = "malformed file",
    [NK_EMISMATCH] = "file made from another configuration",
    [NK_EINTERRUPTED] = "interrupted",
    [NK_ENOFILE] = "cannot open an input file",
};

const char *nk_strerror(nk_status status)
{
    if ((unsigned)status >= NK_ESTATUS_COUNT)
        return "unknown error";
    return status_text[status];
}

nk_status nk_fail(nk_status status, char *buf, size_t len, const char *fmt, ...)
{
    if (buf != NULL && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, len, fmt, ap);
        va_end(ap);
    }
    return status;
}
