/*
 * test_base_escape.c -- nk_escape (src/base/escape.h): untrusted text made
 * one printable line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/escape.h"

static const char *esc(const char *text)
{
    static char buf[256];
    return nk_escape(text, buf, sizeof buf);
}

static void test_controls(void **state)
{
    (void)state;
    assert_string_equal(esc(""), "");
    assert_string_equal(esc("plain text, 1-2 [a]"), "plain text, 1-2 [a]");
    assert_string_equal(esc("a\nb\tc\rd"), "a\\nb\\tc\\x0dd");
    assert_string_equal(esc("\x1b[31mred\x7f"), "\\x1b[31mred\\x7f");
    assert_string_equal(esc("\x01\x1f"), "\\x01\\x1f");
    /* backslashes stay as they are */
    assert_string_equal(esc("a\\nb"), "a\\nb");
}

static void test_utf8(void **state)
{
    (void)state;
    /* valid UTF-8 is kept: é, €, 😀 */
    assert_string_equal(esc("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
                        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    /* stray bytes, cut sequences, overlong forms, surrogates, past U+10FFFF */
    assert_string_equal(esc("\xff\xfe"), "\\xff\\xfe");
    assert_string_equal(esc("\x80x"), "\\x80x");
    assert_string_equal(esc("\xc3"), "\\xc3");
    assert_string_equal(esc("\xe2\x82x"), "\\xe2\\x82x");
    assert_string_equal(esc("\xc0\xaf"), "\\xc0\\xaf");
    assert_string_equal(esc("\xed\xa0\x80"), "\\xed\\xa0\\x80");
    assert_string_equal(esc("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
    /* C1 controls (U+0085 NEL, U+009B CSI) */
    assert_string_equal(esc("\xc2\x85\xc2\x9b"), "\\xc2\\x85\\xc2\\x9b");
    assert_int_equal(nk_escape_span((const unsigned char *)"\xc2\xa0"), 2);
    assert_int_equal(nk_escape_span((const unsigned char *)"\xc2"), 0);
}

static void test_cut(void **state)
{
    (void)state;
    char buf[12];
    assert_string_equal(nk_escape("abcdefghijklmnop", buf, sizeof buf), "abcdefgh...");
    /* never half a piece */
    assert_string_equal(nk_escape("abcdefg\nxyz", buf, sizeof buf), "abcdefg...");
    assert_string_equal(nk_escape("abcdef\xe2\x82\xacx", buf, sizeof buf), "abcdef...");
    assert_string_equal(nk_escape("short", buf, sizeof buf), "short");
    char one[1] = {'x'};
    nk_escape("abc", one, sizeof one);
    assert_int_equal(one[0], '\0');
    char tiny[3];
    assert_string_equal(nk_escape("abc", tiny, sizeof tiny), "");
    buf[0] = 'x';
    nk_escape("abc", buf, 0);
    assert_int_equal(buf[0], 'x');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controls),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
