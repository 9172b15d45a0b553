/*
 * test_ext_protocol.c -- the engine protocol without the nickar binary:
 * the `ext:` spec (search/ext.h: keys, %20, errors), the forfeit of a game
 * (rules: nk_game_forfeit) and its record read back (io/records.h), the
 * server (ext/server.h) answering line by line with the moves of the
 * in-process player, and the client (ext/client.h) against small sh
 * engines: a good one, and each fault of a game a forfeit of its kind
 * with the engine reaped (ext/process.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "ext/client.h"
#include "ext/process.h"
#include "ext/protocol.h"
#include "ext/server.h"
#include "io/records.h"
#include "search/ext.h"

static nk_spec spec_of(const char *text)
{
    nk_spec spec;
    char err[NK_MSG_MAX] = "";
    if (nk_spec_parse(&spec, text, err, sizeof err) != NK_OK)
        fail_msg("spec '%s' refused: %s", text, err);
    return spec;
}

static void spec_bad(const char *text, const char *fragment)
{
    nk_spec spec;
    char err[NK_MSG_MAX] = "";
    assert_int_not_equal(nk_spec_parse(&spec, text, err, sizeof err), NK_OK);
    if (strstr(err, fragment) == NULL)
        fail_msg("spec '%s': message '%s' lacks '%s'", text, err, fragment);
}

/* ===== the spec ===== */

static void test_ext_spec(void **state)
{
    (void)state;
    nk_spec s = spec_of("ext:./engine --fast  x");
    assert_int_equal(s.kind, NK_PLAYER_EXT);
    assert_string_equal(s.command, "./engine --fast  x");
    assert_string_equal(s.text, "ext:./engine%20--fast%20%20x");
    assert_true(s.timeout == 60.0);
    assert_int_equal(s.depth, 0);
    /* The written form is the same player, and writes itself again. */
    nk_spec t = spec_of(s.text);
    assert_string_equal(t.command, s.command);
    assert_string_equal(t.text, s.text);
    s = spec_of("ext:timeout=2.5,depth=3,nodes=9,time=1,python3 a%25b.py");
    assert_true(s.timeout == 2.5 && s.seconds == 1.0);
    assert_int_equal(s.depth, 3);
    assert_int_equal(s.nodes, 9);
    assert_string_equal(s.command, "python3 a%b.py");
    assert_string_equal(s.text, "ext:timeout=2.5,depth=3,nodes=9,time=1,python3%20a%25b.py");
    /* A command that holds '=' after its first word is a command. */
    assert_string_equal(spec_of("ext:env X=1,y prog").command, "env X=1,y prog");
    char keys[128];
    assert_string_equal(nk_ext_keys(keys, sizeof keys), "depth, nodes, time, timeout");
}

static void test_ext_spec_errors(void **state)
{
    (void)state;
    spec_bad("ext:", "no command after 'ext:'");
    spec_bad("ext", "no command after 'ext:'");
    spec_bad("ext:%20%20", "no command after 'ext:'");
    spec_bad("ext:timeout=3", "no command after the options");
    spec_bad("ext:speed=3,x", "unknown option 'speed'; valid options: depth, nodes, time, timeout");
    spec_bad("ext:timeout=0,x", "timeout '0' is not");
    spec_bad("ext:timeout=1,timeout=2,x", "option 'timeout' given twice");
    spec_bad("ext:depth=0,x", "depth '0' is not");
    spec_bad("ext:x%2", "must be %20 (a space) or %25");
    spec_bad("ext:x\ty", "control character");
    char long_cmd[400];
    memset(long_cmd, ' ', sizeof long_cmd);
    memcpy(long_cmd, "ext:x", 5);
    long_cmd[sizeof long_cmd - 1] = '\0';
    spec_bad(long_cmd, "too long once its spaces are written %20");
}

/* Without the client installed an ext player cannot be made. */
static void test_ext_not_installed(void **state)
{
    (void)state;
    nk_ext_install(NULL);
    nk_spec s = spec_of("ext:/bin/true");
    nk_player *p = NULL;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_player_new(&p, &s, nk_variant_find("awari"), NULL, 0, err, sizeof err),
                     NK_EINVAL);
    assert_null(p);
    assert_non_null(strstr(err, "cannot start engines from outside"));
}

/* ===== forfeits ===== */

static void test_forfeit(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    nk_game *g = malloc(sizeof *g);
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    assert_int_equal(nk_game_init(g, v, &start, 100), NK_OK);
    nk_game_play_legal(g, 2, NULL);
    nk_game_forfeit(g, NK_END_CRASH); /* North, to move, forfeits */
    assert_true(nk_game_over(g));
    assert_int_equal(g->result.winner, NK_SOUTH);
    assert_int_equal(g->result.total[NK_SOUTH], 48);
    assert_int_equal(g->result.total[NK_NORTH], 0);
    assert_string_equal(nk_end_name(g->result.reason), "forfeit-crash");
    nk_game_forfeit(g, NK_END_TIMEOUT); /* over already: nothing */
    assert_int_equal(g->result.reason, NK_END_CRASH);
    assert_false(nk_end_forfeit(NK_END_PLY_LIMIT));
    assert_true(nk_end_forfeit(NK_END_REFUSED));
    /* The record of the game reads back, and a forfeit that does not fit
     * the moves (the game not live, or the wrong winner) is refused. */
    nk_record r;
    char line[NK_RECORD_LINE], err[NK_MSG_MAX];
    assert_int_equal(nk_record_set(&r, v, 100, &g->start, g->moves, g->ply, &g->result,
                                   "greedy", "ext:x%20y", err, sizeof err),
                     NK_OK);
    nk_record_format(&r, line, sizeof line);
    assert_non_null(strstr(line, "result=S score=48-0 reason=forfeit-crash plies=1"));
    nk_record back;
    assert_int_equal(nk_record_parse(&back, line, err, sizeof err), NK_OK);
    assert_int_equal(back.result.reason, NK_END_CRASH);
    char *n = strstr(line, "result=S");
    n[7] = 'N';
    assert_int_equal(nk_record_parse(&back, line, err, sizeof err), NK_EINVAL);
    free(g);
}

/* ===== the server ===== */

static nk_status make(void *ctx, const nk_variant *v, unsigned depth, uint64_t nodes,
                      double seconds, nk_player **out, char *err, size_t errlen)
{
    nk_spec s = *(const nk_spec *)ctx;
    if (depth || nodes || seconds > 0) {
        s.depth = depth;
        s.nodes = nodes;
        s.seconds = seconds;
    }
    return nk_player_new(out, &s, v, NULL, 0, err, errlen);
}

static void say(nk_ext_server *s, const char *line, char *reply, size_t len)
{
    assert_true(nk_ext_server_line(s, line, reply, len));
}

/* Every move of games between the served player and itself is the
 * in-process player's, seeds included (greedy draws from them). */
static void serve_games(const char *text, const char *variant)
{
    nk_spec spec = spec_of(text);
    const nk_variant *v = nk_variant_find(variant);
    nk_ext_server *srv = NULL;
    char err[NK_MSG_MAX], reply[2 * NK_MSG_MAX], line[NK_PROTOCOL_LINE];
    assert_int_equal(nk_ext_server_new(&srv, &spec, make, &spec, err, sizeof err), NK_OK);
    nk_player *p = NULL;
    assert_int_equal(nk_player_new(&p, &spec, v, NULL, 0, err, sizeof err), NK_OK);
    nk_game *g = malloc(sizeof *g);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        nk_pos start;
        nk_pos_start(&start, NK_SOUTH);
        nk_game_init(g, v, &start, 200);
        snprintf(line, sizeof line, "newgame %s limit 200", variant);
        say(srv, line, reply, sizeof reply);
        assert_string_equal(reply, "ready\n");
        say(srv, "position 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S", reply, sizeof reply);
        assert_string_equal(reply, "");
        for (uint64_t ply = 0; !nk_game_over(g); ply++) {
            uint64_t x = nk_seed_mix(seed, ply, 0);
            nk_rng rng = {x};
            int m = nk_player_move(p, g, &rng, NULL);
            snprintf(line, sizeof line, "go seed %llu", (unsigned long long)x);
            say(srv, line, reply, sizeof reply);
            if (reply[0] != 'm' || reply[5] != nk_move_letter(m))
                fail_msg("%s, game %llu, ply %llu: served '%s', in-process '%c'", text,
                         (unsigned long long)seed, (unsigned long long)ply, reply,
                         nk_move_letter(m));
            nk_game_play_legal(g, m, NULL);
            snprintf(line, sizeof line, "moves %c", nk_move_letter(m));
            say(srv, line, reply, sizeof reply);
            assert_string_equal(reply, "");
        }
        say(srv, "go", reply, sizeof reply);
        assert_non_null(strstr(reply, "error go: the game is over"));
    }
    assert_false(nk_ext_server_line(srv, "quit", reply, sizeof reply));
    free(g);
    nk_player_free(p);
    nk_ext_server_free(srv);
}

static void test_server_plays_as_in_process(void **state)
{
    (void)state;
    serve_games("greedy", "antigua");
    serve_games("ab:depth=3", "abapa");
    serve_games("ab:depth=2", "adjikui");
}

static void test_server_limits(void **state)
{
    (void)state;
    nk_spec spec = spec_of("ab:depth=5");
    nk_ext_server *srv = NULL;
    char err[NK_MSG_MAX], reply[2 * NK_MSG_MAX];
    assert_int_equal(nk_ext_server_new(&srv, &spec, make, &spec, err, sizeof err), NK_OK);
    say(srv, "newgame awari", reply, sizeof reply);
    say(srv, "position 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S moves c", reply, sizeof reply);
    say(srv, "go depth 2", reply, sizeof reply);
    assert_non_null(strstr(reply, " depth 2 "));
    say(srv, "go", reply, sizeof reply);
    assert_non_null(strstr(reply, " depth 5 "));
    nk_ext_server_free(srv);
    spec = spec_of("human");
    assert_int_equal(nk_ext_server_new(&srv, &spec, make, &spec, err, sizeof err), NK_EINVAL);
}

/* ===== the process and the client ===== */

static char dir[] = "/tmp/nk_ext_test_XXXXXX";

/* Writes an sh engine into dir/name; returns its command. */
static const char *engine(const char *name, const char *body)
{
    static char cmd[256];
    char path[200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(body, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "sh %s", path);
    return cmd;
}

/* The start of an sh engine: the handshake (it plays awari), newgame,
 * quit; a case for go and the end follow. */
#define HANDSHAKE                                                                                  \
    "while read cmd rest; do case $cmd in\n"                                                       \
    "hello) printf 'id name t\\nprotocol 1\\nvariants awari\\nready\\n';;\n"                      \
    "newgame) echo ready;;\n"                                                                      \
    "quit) exit 0;;\n"

static void test_process(void **state)
{
    (void)state;
    nk_proc p;
    char err[256], line[64];
    assert_int_equal(nk_proc_start(&p, "cat", err, sizeof err), NK_OK);
    assert_true(nk_proc_send(&p, "hello\r"));
    assert_int_equal(nk_proc_read(&p, line, sizeof line, 5), NK_PROC_GOT_LINE);
    assert_string_equal(line, "hello");
    assert_int_equal(nk_proc_read(&p, line, sizeof line, 0.05), NK_PROC_GOT_TIMEOUT);
    pid_t pid = p.pid;
    nk_proc_end(&p, 1);
    assert_int_equal(p.pid, 0);
    assert_true(waitpid(pid, NULL, WNOHANG) < 0); /* reaped: no such child */
    assert_string_equal(nk_proc_exit_text(&p, line, sizeof line), "exited with status 0");
    char words[300] = "true";
    for (int k = 0; k < 64; k++)
        strcat(words, " x");
    assert_int_equal(nk_proc_start(&p, words, err, sizeof err), NK_EINVAL);
    assert_string_equal(err, "the command has more than 64 words");
    assert_int_equal(nk_proc_start(&p, "/no/such", err, sizeof err), NK_EINVAL);
    assert_non_null(strstr(err, "cannot start '/no/such': No such file or directory"));
    /* A program that never reads: killed after the grace, and a write to
     * one that has gone is false, not SIGPIPE. */
    assert_int_equal(nk_proc_start(&p, "sleep 30", err, sizeof err), NK_OK);
    nk_proc_end(&p, 0.05);
    assert_non_null(strstr(nk_proc_exit_text(&p, line, sizeof line), "killed by signal 9"));
    assert_int_equal(nk_proc_start(&p, "true", err, sizeof err), NK_OK);
    nanosleep(&(struct timespec){0, 100000000L}, NULL);
    char big[8192];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    bool sent = true;
    for (int k = 0; k < 20 && sent; k++)
        sent = nk_proc_send(&p, big);
    assert_false(sent);
    nk_proc_end(&p, 1);
}

/* A game of awari of the engine (South) against greedy; the engine's
 * fault, NK_END_NONE when it played to the end. */
static nk_end play_one(nk_player *e)
{
    const nk_variant *v = nk_variant_find("awari");
    nk_spec gs = spec_of("greedy");
    nk_player *greedy = NULL;
    char err[NK_MSG_MAX];
    assert_int_equal(nk_player_new(&greedy, &gs, v, NULL, 0, err, sizeof err), NK_OK);
    nk_game *g = malloc(sizeof *g);
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    nk_game_init(g, v, &start, 300);
    nk_rng rng = {7};
    nk_end fault = NK_END_NONE;
    while (!nk_game_over(g)) {
        nk_player *p = g->pos.side == NK_SOUTH ? e : greedy;
        int m = nk_player_move(p, g, &rng, NULL);
        if (m == NK_NO_MOVE) {
            fault = nk_player_fault(p);
            break;
        }
        nk_game_play_legal(g, m, NULL);
    }
    free(g);
    nk_player_free(greedy);
    return fault;
}

static int notes;
static void count_note(const char *line)
{
    (void)line;
    notes++;
}

/* Each fault of a game is a forfeit of its kind, with one note, and
 * leaves no child; each bad handshake is the caller's error, named. */
static void test_client_faults(void **state)
{
    (void)state;
    nk_ext_client_install(count_note);
    const nk_variant *v = nk_variant_find("awari");
    char err[NK_MSG_MAX];
    static const struct {
        const char *go; /* the answer to go */
        nk_end want;
    } cases[] = {
        {"go) echo 'move -';;\n", NK_END_ILLEGAL},
        {"go) echo 'bestmove a';;\n", NK_END_GARBAGE},
        {"go) echo 'error no';;\n", NK_END_GARBAGE},
        {"go) exit 4;;\n", NK_END_CRASH},
        {"go) sleep 5;;\n", NK_END_TIMEOUT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[512], text[300];
        snprintf(body, sizeof body, "%s%s*) ;;\nesac; done\n", HANDSHAKE, cases[i].go);
        snprintf(text, sizeof text, "ext:timeout=0.5,%s", engine("e.sh", body));
        nk_spec s = spec_of(text);
        nk_player *p = NULL;
        assert_int_equal(nk_player_new(&p, &s, v, NULL, 0, err, sizeof err), NK_OK);
        notes = 0;
        nk_end got = play_one(p);
        if (got != cases[i].want)
            fail_msg("case %zu: fault %s, expected %s", i, nk_end_name(got),
                     nk_end_name(cases[i].want));
        assert_int_equal(notes, 1);
        nk_player_free(p);
        assert_true(waitpid(-1, NULL, WNOHANG) < 0); /* no child left, reaped or not */
    }
    /* Handshakes that fail are the caller's error, named. */
    static const struct {
        const char *body, *want;
    } bad[] = {
        {"read x; echo 'protocol 2'\n", "speaks protocol version '2'; nickar speaks 1"},
        {"read x; printf 'id name t\\nprotocol 1\\nready\\n'\n", "without 'variants'"},
        {"read x; echo 'yo'\n", "sent 'yo' instead of its handshake"},
        {"exit 5\n", "exited with status 5"}, /* before its handshake, or its input */
        {"sleep 5\n", "sent no handshake within 0.5 s"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[300];
        snprintf(text, sizeof text, "ext:timeout=0.5,%s", engine("b.sh", bad[i].body));
        nk_spec s = spec_of(text);
        nk_player *p = NULL;
        assert_int_equal(nk_player_new(&p, &s, v, NULL, 0, err, sizeof err), NK_EINVAL);
        if (strstr(err, bad[i].want) == NULL || strstr(err, "engine 'ext:timeout=0.5,sh") == NULL)
            fail_msg("bad handshake %zu: '%s' lacks '%s'", i, err, bad[i].want);
        assert_true(waitpid(-1, NULL, WNOHANG) < 0);
    }
    nk_ext_install(NULL);
}

/* An engine that always answers c: its move and search info are taken at
 * the start; later, where c is empty, it forfeits (illegal); the next
 * game starts a fresh engine, which moves again. */
static void test_client_restart(void **state)
{
    (void)state;
    nk_ext_client_install(NULL);
    const nk_variant *v = nk_variant_find("awari");
    char err[NK_MSG_MAX], text[300];
    snprintf(text, sizeof text, "ext:timeout=2,%s",
             engine("c.sh", HANDSHAKE "go) echo 'info x'; echo 'move c value 0.5 depth 1 nodes "
                                      "3';;\n*) ;;\nesac; done\n"));
    nk_spec s = spec_of(text);
    nk_player *p = NULL;
    assert_int_equal(nk_player_new(&p, &s, v, NULL, 0, err, sizeof err), NK_OK);
    nk_game *g = malloc(sizeof *g);
    nk_pos start;
    nk_pos_start(&start, NK_SOUTH);
    for (int game = 0; game < 2; game++) {
        nk_game_init(g, v, &start, 100);
        nk_think t;
        assert_int_equal(nk_player_move(p, g, NULL, &t), 2);
        assert_true(t.score == 0.5 && t.depth == 1 && t.nodes == 3);
        assert_int_equal(nk_player_fault(p), NK_END_NONE);
        nk_game_play_legal(g, 2, NULL);
        nk_game_play_legal(g, 8, NULL);
        assert_int_equal(nk_player_move(p, g, NULL, &t), NK_NO_MOVE);
        assert_int_equal(nk_player_fault(p), NK_END_ILLEGAL);
        assert_true(waitpid(-1, NULL, WNOHANG) < 0);
    }
    free(g);
    nk_player_free(p);
    nk_ext_install(NULL);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ext_spec),
        cmocka_unit_test(test_ext_spec_errors),
        cmocka_unit_test(test_ext_not_installed),
        cmocka_unit_test(test_forfeit),
        cmocka_unit_test(test_server_plays_as_in_process),
        cmocka_unit_test(test_server_limits),
        cmocka_unit_test(test_process),
        cmocka_unit_test(test_client_faults),
        cmocka_unit_test(test_client_restart),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
