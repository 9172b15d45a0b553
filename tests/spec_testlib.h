/*
 * spec_testlib.h -- for the cmocka tests of player specs (test_search_*.c):
 * a spec that must parse, and one that must be refused with a given status
 * and a one-line message.  Static functions: each test that includes it
 * is one program.
 */
#ifndef NK_SPEC_TESTLIB_H
#define NK_SPEC_TESTLIB_H

#include <stdarg.h>
#include <string.h>

#include "search/player.h"

/* The spec parsed from text; fails the test if refused, or if the spec
 * does not keep its text as given. */
static nk_spec spec_ok(const char *text)
{
    nk_spec spec;
    char err[512] = "";
    if (nk_spec_parse(&spec, text, err, sizeof err) != NK_OK)
        fail_msg("spec '%s' refused: %s", text, err);
    assert_string_equal(spec.text, text);
    return spec;
}

/* The spec is refused with status want and a one-line message holding
 * every fragment given (a NULL-terminated list). */
static void spec_bad(const char *text, nk_status want, ...)
{
    nk_spec spec;
    char err[512] = "";
    nk_status st = nk_spec_parse(&spec, text, err, sizeof err);
    if (st != want)
        fail_msg("spec '%s': status %d, expected %d (%s)", text, st, want, err);
    assert_null(strchr(err, '\n'));
    va_list ap;
    va_start(ap, want);
    for (const char *frag = va_arg(ap, const char *); frag; frag = va_arg(ap, const char *))
        if (strstr(err, frag) == NULL)
            fail_msg("spec '%s': message '%s' lacks '%s'", text, err, frag);
    va_end(ap);
}

#endif
