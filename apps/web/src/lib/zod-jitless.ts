import { z } from 'zod';
import { plainIssueMessage } from '@sagan/shared/zod-messages';

/**
 * Zod compiles object parsers with `new Function` when it may, and probes for that on the first
 * object schema. Our CSP has no 'unsafe-eval', so the probe fails quietly but every page load
 * files a CSP eval violation report. Jitless parsing is fast enough for our payloads and never
 * probes. Imported first by the entry and by the modules that parse (api, realtime), which land in a
 * chunk the entry waits for: its body would otherwise run after their first parse.
 */
z.config({ jitless: true });
// Any message a form shows without a wording of its own is a plain sentence, not zod's
// "Too small: expected number to be >=0".
z.config({ customError: plainIssueMessage });
