/*
 * play_game.c -- the example program of docs/library.md: a game between two
 * player specs with libnickar, move by move, then its result.
 *
 *   cc play_game.c $(pkg-config --cflags --libs nickar) -o play_game
 *   ./play_game [VARIANT [SOUTH_SPEC [NORTH_SPEC [SEED]]]]
 *
 * Defaults: abapa, ab:depth=3 against greedy, seed 1.  Prints the start
 * position and the evaluation of it by the first spec, one line per move
 * (ply, mover, move, position after it), and the result; exits 1 with the
 * library's one-line message when something is refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <nickar.h>

static int fail(const char *what, nickar_status st, const char *err)
{
    fprintf(stderr, "play_game: %s: %s (%s)\n", what, err, nickar_strerror(st));
    return 1;
}

int main(int argc, char **argv)
{
    const char *variant = argc > 1 ? argv[1] : "abapa";
    const char *spec[2] = {argc > 2 ? argv[2] : "ab:depth=3", argc > 3 ? argv[3] : "greedy"};
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    char err[NICKAR_ERR_MAX], pos[NICKAR_POS_TEXT];
    nickar_game *game = NULL;
    nickar_player *player[2] = {NULL, NULL};
    int rc = 0;

    printf("libnickar %s, %s: %s (South) against %s (North)\n", nickar_version(), variant,
           spec[0], spec[1]);
    nickar_status st = nickar_game_new(&game, variant, NULL, 0, err, sizeof err);
    if (st != NICKAR_OK)
        return fail("game", st, err);
    for (int side = 0; side < 2 && rc == 0; side++) {
        st = nickar_player_new(&player[side], spec[side], variant, seed + (uint64_t)side, err,
                               sizeof err);
        if (st != NICKAR_OK)
            rc = fail(spec[side], st, err);
    }
    double value;
    if (rc == 0 && nickar_evaluate(game, spec[0], &value, err, sizeof err) == NICKAR_OK) {
        nickar_game_position_text(game, pos);
        printf("start %s, evaluated %+.1f by %s\n", pos, value, spec[0]);
    }
    while (rc == 0 && !nickar_game_over(game)) {
        int side = nickar_game_to_move(game);
        nickar_think think;
        st = nickar_player_move(player[side], game, &think, err, sizeof err);
        if (st == NICKAR_OK)
            st = nickar_game_play(game, think.move, NULL, err, sizeof err);
        if (st != NICKAR_OK) {
            rc = fail("move", st, err);
            break;
        }
        nickar_game_position_text(game, pos);
        printf("%3u %s %c  %s\n", nickar_game_ply(game), side == NICKAR_SOUTH ? "S" : "N",
               nickar_move_letter(think.move), pos);
    }
    if (rc == 0) {
        nickar_result r;
        nickar_game_result(game, &r);
        printf("over after %u plies (%s): %u-%u, %s\n", nickar_game_ply(game), r.reason,
               r.total[0], r.total[1],
               r.winner == NICKAR_DRAW ? "a draw" : r.winner == NICKAR_SOUTH ? "South wins"
                                                                            : "North wins");
    }
    nickar_player_free(player[0]);
    nickar_player_free(player[1]);
    nickar_game_free(game);
    return rc;
}
