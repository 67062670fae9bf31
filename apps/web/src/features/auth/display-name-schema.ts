// The display name's schema, on its own so the login page loads it (and zod) only when a local
// sign-in is submitted, not with the page.
export { displayNameSchema } from '@sagan/shared/auth';
