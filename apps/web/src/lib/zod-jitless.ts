import { plainIssueMessage } from '@sagan/shared/zod-messages';

/**
 * Zod compiles object parsers with `new Function` when it may, and probes for that on the first
 * object schema. Our CSP has no 'unsafe-eval', so the probe fails quietly but every page load
 * files a CSP eval violation report. Jitless parsing is fast enough for our payloads and never
 * probes. The entry imports this first, so it runs before any page's schema parses.
 *
 * zod keeps its settings on this global, which every copy of zod on a page shares (what
 * `z.config()` writes): setting it here takes none of zod's code, so a page that parses nothing
 * with zod never loads zod. zod-jitless.test.ts checks that zod reads it.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
Object.assign((holder.__zod_globalConfig ??= {}), {
  jitless: true,
  // Any message a form shows without a wording of its own is a plain sentence, not zod's
  // "Too small: expected number to be >=0".
  customError: plainIssueMessage,
});
