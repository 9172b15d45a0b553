/*
 * escape.h -- untrusted text made fit for one line of a message.
 *
 * Every message of nickar is one line; text that comes from outside (a
 * path, a spec, a --set argument, a line of a file) may hold newlines,
 * escape sequences of a terminal or bytes that are not UTF-8.  nk_escape
 * writes a copy in which they are visible and harmless:
 *
 *     \n and \t                    as "\n" and "\t"
 *     other control characters     as "\xHH" (C0, DEL, and the C1 controls
 *                                  U+0080..U+009F byte by byte)
 *     bytes that are not valid     as "\xHH" (a stray continuation byte, a
 *     UTF-8                        cut or overlong sequence, a surrogate,
 *                                  a code point past U+10FFFF)
 *     everything else              as it is (printable ASCII, valid UTF-8)
 *
 * The CLI's message printer (src/cli/util.c nk_cli_error) passes every
 * message through it, so a message is one line whatever it quotes.
 */
#ifndef NK_ESCAPE_H
#define NK_ESCAPE_H

#include <stddef.h>

/* Writes the escaped copy of text into buf (len bytes, always terminated
 * when len > 0); a copy too long for buf is cut at a whole piece and ends
 * in "...".  Returns buf. */
const char *nk_escape(const char *text, char *buf, size_t len);

/* The length of a valid UTF-8 sequence of a printable character at p (1 to
 * 4), or 0 when the byte at p must be escaped.  Exposed for the tests. */
size_t nk_escape_span(const unsigned char *p);

#endif
