import { jerseySchema, playerNameSchema } from './teamsheet.ts';

// SPEC §5 bulk upload parsing.
export interface BulkRow {
  jersey: string;
  playerName: string;
}

/**
 * Characters that cannot be part of a name: controls, unassigned code points, private use,
 * lone surrogates, and format characters other than the zero-width (non-)joiners that some
 * scripts and emoji need. DESIGN §8: every printable letter stays (the spec's ASCII-only rule
 * stripped "é").
 */
const NON_PRINTABLE = /[\p{Cc}\p{Cn}\p{Co}\p{Cs}]|(?![\u200C\u200D])\p{Cf}/gu;

/**
 * Splits by lines; on each line replaces non-printable characters by a space and trims. The
 * jersey runs to the first blank or comma; one comma after it is a separator too, as a
 * spreadsheet pastes "15, Sam Lee" (its tab is a blank); the rest, its blanks collapsed, is the
 * name (NFC). Every line, blank ones included, yields an entry.
 */
export function parseBulkUpload(input: string): BulkRow[] {
  return input.split(/\r?\n|\r/).map((line) => {
    const clean = line.normalize('NFC').replace(NON_PRINTABLE, ' ').trim();
    const [, jersey = '', rest = ''] = /^([^\s,]*)\s*,?\s*(.*)$/su.exec(clean) ?? [];
    const playerName = rest
      .split(/\s+/u)
      .filter((t) => t !== '')
      .join(' ');
    return { jersey, playerName };
  });
}

const sameJersey = (jersey: string) => jersey.toLowerCase();

/**
 * What the coach may not have meant, for the preview: a jersey already on the sheet, or one
 * pasted twice. Only a warning, keyed by 1-based line: two players may share a number (a
 * hand-me-down shirt), so the coach decides.
 */
export function bulkRowWarnings(
  rows: readonly BulkRow[],
  onSheet: ReadonlyArray<{ jersey: string; playerName: string }>,
): Map<number, string> {
  const existing = new Map(onSheet.map((p) => [sameJersey(p.jersey), p.playerName]));
  const firstLine = new Map<string, number>();
  const warnings = new Map<number, string>();
  for (const [i, row] of rows.entries()) {
    if (bulkRowProblem(row)) continue;
    const jersey = sameJersey(row.jersey);
    const already = existing.get(jersey);
    const earlier = firstLine.get(jersey);
    if (already !== undefined) {
      warnings.set(i + 1, `Jersey ${row.jersey} is already on the sheet (${already})`);
    } else if (earlier !== undefined) {
      warnings.set(i + 1, `Jersey ${row.jersey} is also on line ${earlier}`);
    }
    if (earlier === undefined) firstLine.set(jersey, i + 1);
  }
  return warnings;
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
