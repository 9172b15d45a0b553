/*
 * ext.c -- the `ext:` spec and the hook of the players from outside
 * (contract in ext.h).
 *
 * The hook is one pointer, written once by the program's start (before any
 * thread) and read when a player is made; this layer never calls a process
 * itself.
 */
#include <stdio.h>
#include <string.h>

#include "search/ext.h"

#define EXT_ROW(P, sec, nm, field, T, ctype, ...)                                                  \
    NK_PARAM_DESCRIBE(nk_spec, field, sec, nm, T, __VA_ARGS__)
static const nk_param ext_params[] = {NK_EXT_PARAMS(EXT_ROW, _)};
enum { NEXT = sizeof ext_params / sizeof ext_params[0] };

static const nk_ext_ops *installed;

char *nk_ext_keys(char *buf, size_t len)
{
    return nk_param_names(ext_params, NEXT, buf, len);
}

/* Whether item (up to its end or a comma) reads KEY=..., KEY in [a-z_]. */
static bool is_option(const char *item)
{
    size_t k = strspn(item, "abcdefghijklmnopqrstuvwxyz_");
    return k > 0 && item[k] == '=';
}

/* Decodes the command (%20, %25) into spec->command and writes the spec's
 * text, "ext:" + the options as given + the command encoded. */
static nk_status ext_command(nk_spec *spec, const char *opts, const char *cmd, char *err,
                             size_t errlen)
{
    char text[NK_SPEC_TEXT];
    size_t n = 0, t = (size_t)snprintf(text, sizeof text, "ext:%.*s", (int)(cmd - opts), opts);
    for (const char *c = cmd; *c != '\0'; c++) {
        char ch = *c;
        if (ch == '%') {
            if (strncmp(c, "%20", 3) != 0 && strncmp(c, "%25", 3) != 0)
                return nk_fail(NK_EINVAL, err, errlen,
                               "player spec '%s': '%%' in an ext command must be %%20 (a space) "
                               "or %%25 (a '%%')",
                               spec->text);
            ch = c[2] == '0' ? ' ' : '%';
            c += 2;
        } else if ((unsigned char)ch < 0x20 || ch == 0x7f) {
            return nk_fail(NK_EINVAL, err, errlen,
                           "player spec '%s': the ext command holds a control character",
                           spec->text);
        }
        const char *enc = ch == ' ' ? "%20" : ch == '%' ? "%25" : NULL;
        size_t add = enc ? 3 : 1;
        if (n + 1 >= sizeof spec->command || t + add >= sizeof text)
            return nk_fail(NK_EINVAL, err, errlen,
                           "player spec '%.60s...': the ext command is too long once its "
                           "spaces are written %%20 (at most %d characters)",
                           spec->text, NK_SPEC_TEXT - 1);
        spec->command[n++] = ch;
        memcpy(text + t, enc ? enc : &ch, add);
        t += add;
    }
    spec->command[n] = '\0';
    text[t] = '\0';
    if (strspn(spec->command, " ") == n)
        return nk_fail(NK_EINVAL, err, errlen,
                       "player spec '%s': no command after 'ext:'; e.g. ext:./my_engine or "
                       "ext:timeout=5,python3%%20agent.py",
                       spec->text);
    strcpy(spec->text, text);
    return NK_OK;
}

nk_status nk_ext_spec_parse(nk_spec *spec, const char *opts, char *err, size_t errlen)
{
    char keys[128];
    unsigned seen = 0;
    spec->kind = NK_PLAYER_EXT;
    nk_param_defaults(ext_params, NEXT, spec);
    const char *cmd = opts != NULL ? opts : "";
    while (is_option(cmd)) {
        const char *comma = strchr(cmd, ',');
        if (comma == NULL)
            return nk_fail(NK_EINVAL, err, errlen,
                           "player spec '%s': no command after the options; write "
                           "ext:KEY=VALUE,...,COMMAND with keys %s",
                           spec->text, nk_ext_keys(keys, sizeof keys));
        char item[NK_SPEC_TEXT];
        snprintf(item, sizeof item, "%.*s", (int)(comma - cmd), cmd);
        char *eq = strchr(item, '=');
        *eq = '\0';
        nk_status st = nk_spec_option(spec, ext_params, NEXT, item, eq + 1, &seen, err, errlen);
        if (st != NK_OK)
            return st;
        cmd = comma + 1;
    }
    return ext_command(spec, opts != NULL ? opts : "", cmd, err, errlen);
}

void nk_ext_install(const nk_ext_ops *ops)
{
    installed = ops;
}

nk_status nk_ext_open(void **state, const nk_spec *spec, const nk_variant *v, char *err,
                      size_t errlen)
{
    *state = NULL;
    if (installed == NULL)
        return nk_fail(NK_EINVAL, err, errlen,
                       "player '%s': this program cannot start engines from outside", spec->text);
    return installed->open(state, spec, v, err, errlen);
}

int nk_ext_move(void *state, const nk_game *g, const nk_rng *rng, nk_think *think, nk_end *fault)
{
    /* "ext" */
    uint64_t seed = nk_seed_mix(rng != NULL ? rng->s : 0, g->ply, 0x657874ull);
    return installed->move(state, g, seed, think, fault);
}

void nk_ext_close(void *state)
{
    if (state != NULL && installed != NULL)
        installed->close(state);
}
