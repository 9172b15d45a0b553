/*
 * client.h -- nickar's side of the engine protocol (docs/protocol.md): the
 * players `ext:COMMAND` (search/ext.h), each a program nickar starts,
 * speaks to, checks and ends.
 *
 * An engine is started and its handshake read when the player is made
 * (nk_player_new): a program that cannot be started or whose handshake
 * fails is the caller's error (NK_EINVAL, one line naming the engine).
 * It is kept across games (`newgame` each) until it fails during a game:
 * then the game is its forfeit (nk_player_fault), it is ended and reaped,
 * and the next game starts a fresh one.  Each player is one process, so
 * each thread and each MPI rank that makes the player runs its own.
 */
#ifndef NK_EXT_CLIENT_H
#define NK_EXT_CLIENT_H

/* Installs the ext players into search/ext.h's hook.  note, if not NULL,
 * receives one line for each forfeit ("engine 'SPEC' forfeits the game at
 * ply 12 (forfeit-time): ..."), from whichever thread played the game;
 * it must be safe to call from several threads.  Call once, before any
 * thread. */
void nk_ext_client_install(void (*note)(const char *line));

#endif
