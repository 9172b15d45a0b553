/*
 * cli.h -- the subcommands of the nickar command and their shared helpers.
 *
 * Each subcommand lives in its own file cmd_<name>.c and has the signature
 * of nk_command_fn.  Exit status: 0 success, 1 runtime failure, 2 bad usage
 * or bad input (docs/cli.md, "Exit status").
 */
#ifndef NK_CLI_H
#define NK_CLI_H

enum { NK_EXIT_OK = 0, NK_EXIT_FAIL = 1, NK_EXIT_USAGE = 2 };

typedef int (*nk_command_fn)(int argc, char **argv);

typedef struct nk_command {
    const char *name;
    const char *summary; /* one line for `nickar --help` */
    nk_command_fn run;
} nk_command;

/* The command table (main.c). */
extern const nk_command nk_commands[];

int nk_cmd_rules(int argc, char **argv);
int nk_cmd_show(int argc, char **argv);
int nk_cmd_replay(int argc, char **argv);
int nk_cmd_perft(int argc, char **argv);
int nk_cmd_match(int argc, char **argv);
int nk_cmd_ciao(int argc, char **argv);
int nk_cmd_play(int argc, char **argv);
int nk_cmd_bench(int argc, char **argv);
int nk_cmd_evolve(int argc, char **argv);
int nk_cmd_tune(int argc, char **argv);
int nk_cmd_learn(int argc, char **argv);
int nk_cmd_inspect(int argc, char **argv);
int nk_cmd_view(int argc, char **argv);
int nk_cmd_tablebase(int argc, char **argv);
int nk_cmd_solve(int argc, char **argv);
int nk_cmd_grade(int argc, char **argv);
int nk_cmd_engine(int argc, char **argv);
/* `nickar bench --search` (cmd_bench_search.c), called by nk_cmd_bench. */
int nk_cmd_bench_search(int argc, char **argv);
int nk_cmd_tournament(int argc, char **argv);
int nk_cmd_bench_ratings(int argc, char **argv);
/* `nickar bench --mcts` (cmd_bench_mcts.c), called by nk_cmd_bench. */
int nk_cmd_bench_mcts(int argc, char **argv);
int nk_cmd_rate(int argc, char **argv);

#endif
