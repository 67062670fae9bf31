// Apart from text.ts, whose schema helpers import zod: a fan's page that counts loads no zod.

/** "1 play", "3 plays", "0 plays": a count with its noun in the right number. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
