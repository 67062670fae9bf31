// SPEC §5 bulk upload parsing.
export interface BulkRow {
  jersey: string;
  playerName: string;
}

/**
 * Splits by lines; on each line replaces non-printable-ASCII characters by a space, trims,
 * splits on spaces; the first token is the jersey, the rest joined is the name. Every line,
 * blank ones included, yields an entry.
 */
export function parseBulkUpload(input: string): BulkRow[] {
  return input.split(/\r?\n|\r/).map((line) => {
    const tokens = line
      .replace(/[^\x20-\x7E]/g, ' ')
      .trim()
      .split(' ')
      .filter((t) => t !== '');
    const [jersey = '', ...rest] = tokens;
    return { jersey, playerName: rest.join(' ') };
  });
}

/** What would stop a row becoming a valid player, for the preview (DESIGN §8: say so early). */
export function bulkRowProblem(row: BulkRow): string | null {
  if (!row.jersey && !row.playerName) return 'Empty line: it will be skipped';
  if (!row.playerName) return 'Missing name';
  if (!/^[A-Za-z0-9]+$/.test(row.jersey)) return 'Jersey must be numbers or letters';
  return null;
}
