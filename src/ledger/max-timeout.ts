/**
 * The longest timeout a Node timer or socket holds (2^31 - 1 ms, about 24.8 days): a longer Redis
 * timeout (Infinity included) waits this long; a longer SQLite busy timeout is refused.
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;
