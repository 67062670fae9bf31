import { tagNameSchema } from '@sagan/shared/scoreboard';

/**
 * A game's tags as typed, with spaces, commas or '#' between them: their names, or what is wrong
 * with the first that is no tag name (the new game form and the scorekeeper's tags form say it
 * the same way).
 */
export function readTags(
  text: string,
): { ok: true; names: string[] } | { ok: false; problem: string } {
  const names = [...new Set(text.split(/[\s,#]+/).filter(Boolean))];
  const bad = names.find((n) => !tagNameSchema.safeParse(n).success);
  if (bad === undefined) return { ok: true, names };
  return { ok: false, problem: `"${bad}": tags are letters, numbers, _ and - only.` };
}
