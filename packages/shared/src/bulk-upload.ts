import { jerseySchema, playerNameSchema } from './teamsheet.ts';

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

/** A blank line yields an entry (SPEC §5) but never becomes a player. */
export function isBlankRow(row: BulkRow): boolean {
  return !row.jersey && !row.playerName;
}

/** What would stop a row becoming a valid player, for the preview (DESIGN §8: say so early). */
export function bulkRowProblem(row: BulkRow): string | null {
  if (isBlankRow(row)) return 'Empty line: it will be skipped';
  if (!row.playerName) return 'Missing name';
  // The same rules as the player form, so the preview and the server agree.
  if (!jerseySchema.safeParse(row.jersey).success) return 'Jersey must be numbers or letters';
  if (!playerNameSchema.safeParse(row.playerName).success) return 'Name is too long';
  return null;
}

/** The rows a save would create, or the first problem (with its 1-based line number). */
export function bulkRowsToSave(
  rows: BulkRow[],
): { ok: true; rows: BulkRow[] } | { ok: false; line: number; problem: string } {
  const out: BulkRow[] = [];
  for (const [i, row] of rows.entries()) {
    if (isBlankRow(row)) continue;
    const problem = bulkRowProblem(row);
    if (problem) return { ok: false, line: i + 1, problem };
    out.push(row);
  }
  return { ok: true, rows: out };
}
