// What a published team sheet's public pages compute from it: plain functions with no zod, in a
// module of their own. A fan's page that imported them from teamsheet.ts or
// teamsheet-schemas.ts loaded those modules' schemas, and zod with them (≈ 18 KB): the owner's
// screens use the schemas, so the bundler keeps them in the chunk the fan's page shares.
// Everyone imports them from here.

/** SPEC §2: a roster badge shows only for locations 1 or 2, 'playing' style for 1. */
export function badgeFor(location: unknown): 'playing' | 'sideline' | null {
  const n = typeof location === 'string' ? Number(location) : location;
  if (n === 1) return 'playing';
  if (n === 2) return 'sideline';
  return null;
}

/** Sort by jersey: numbers in numeric order, letters after them, alphabetically. */
export function compareJersey(a: string, b: string): number {
  const na = /^\d+$/.test(a) ? Number(a) : null;
  const nb = /^\d+$/.test(b) ? Number(b) : null;
  if (na !== null && nb !== null) return na - nb || a.length - b.length;
  if (na !== null) return -1;
  if (nb !== null) return 1;
  return a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true });
}

// Letters that carry no combining mark to strip, so NFD alone leaves them as they are.
const FOLDED_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * Text as search compares it: lower case without accents, so a parent typing "zoe" on a phone
 * keyboard finds "Zoë" and "jose" finds "José".
 */
function searchFold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDED_LETTERS[c] ?? c);
}

/**
 * SPEC §5 search: case-insensitive substring on the player name, accents ignored; empty shows
 * all.
 */
export function matchesSearch(playerName: string, search: string): boolean {
  return searchFold(playerName).includes(searchFold(search));
}

/** SPEC §2: the roster table is sorted by jersey. */
export function sortRoster<T extends { jersey: string }>(roster: readonly T[]): T[] {
  return [...roster].sort((a, b) => compareJersey(a.jersey, b.jersey));
}

/** The groups in which a player shows a badge (SPEC §3: location 1 or 2; 'playing' for 1). */
export function playerBadges(
  playerKey: string,
  groups: readonly { groupKey: string; groupName: string }[],
  membership: Readonly<Record<string, Readonly<Record<string, { location: number }>>>>,
): { groupKey: string; groupName: string; style: 'playing' | 'sideline' }[] {
  const out: { groupKey: string; groupName: string; style: 'playing' | 'sideline' }[] = [];
  for (const g of groups) {
    const style = badgeFor(membership[g.groupKey]?.[playerKey]?.location);
    if (style) out.push({ groupKey: g.groupKey, groupName: g.groupName, style });
  }
  return out;
}

export function publicSheetPath(publishedAsKey: string): string {
  return `/apps/sagan/teamsheets/${encodeURIComponent(publishedAsKey)}`;
}
