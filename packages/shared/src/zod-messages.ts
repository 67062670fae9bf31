import type { z } from 'zod';

type Issue = Parameters<NonNullable<z.core.$ZodErrorMap>>[0];

const characters = (n: number) => (n === 1 ? '1 character' : `${n} characters`);
const items = (n: number) => (n === 1 ? '1 item' : `${n} items`);

/**
 * Zod's own messages ("Too small: expected number to be >=0") are written for programmers. The
 * web app installs this as its error map, so any message a form shows without a wording of its
 * own is still a plain sentence; a schema's own message always wins over it.
 */
export function plainIssueMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        return min <= 1 ? 'Please fill this in.' : `Use at least ${characters(min)}.`;
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return `Add at least ${items(min)}.`;
      }
      if (issue.origin === 'number' || issue.origin === 'int') {
        return issue.inclusive ? `Use ${min} or more.` : `Use a number above ${min}.`;
      }
      return undefined;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `Use at most ${characters(max)}.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Use at most ${items(max)}.`;
      if (issue.origin === 'number' || issue.origin === 'int') {
        return issue.inclusive ? `Use ${max} or less.` : `Use a number below ${max}.`;
      }
      return undefined;
    }
    case 'invalid_type':
      if (issue.expected === 'int') return 'Use a whole number.';
      if (issue.expected === 'number') return 'Use a number.';
      if (issue.expected === 'string') return 'Please fill this in.';
      return undefined;
    default:
      return undefined;
  }
}
