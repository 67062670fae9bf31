// The scorekeeper message's schema, on its own so the message box loads it (and zod) only when a
// message is sent.
export { scorekeeperMessageSchema } from '@sagan/shared/scoreboard';
