/*
 * cmd_rules.c -- `nickar rules`: the variants, one line each.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/util.h"

int nk_cmd_rules(int argc, char **argv)
{
    nk_opt opts[] = {{.name = NULL}};
    nk_cli cli = {
        .name = "rules",
        .synopsis = "",
        .about = "Lists the rule sets (variants) that every command's --variant\n"
                 "accepts: the name, then a description.  docs/rules.md has the rules.",
        .opts = opts,
        .max_args = 0,
    };
    int rc = nk_cli_parse(&cli, argc, argv);
    if (rc != NK_CLI_GO)
        return rc;
    for (size_t i = 0; i < nk_variant_count(); i++) {
        const nk_variant *v = nk_variant_at(i);
        printf("%-13s %s\n", v->name, v->title);
    }
    return nk_cli_finish(&cli);
}
