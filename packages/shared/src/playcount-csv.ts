import { csvFile, fileStem } from './csv.ts';
import { metMinimum } from './playcount-minimum.ts';
import type { PlayCountRosterEntry } from './playcount.ts';

// SPEC §9 CSV export: header 'Jersey,Player,CountedPlays' (after the byte-order mark); the
// met-minimum column is ours.
export const PLAY_COUNT_CSV_HEADER = ['Jersey', 'Player', 'CountedPlays'] as const;
export const MET_MINIMUM_HEADER = 'MetMinimum';

export function playCountCsvRows(
  roster: readonly PlayCountRosterEntry[],
  minPlays: number | null | undefined,
): string[][] {
  const withMinimum = minPlays !== null && minPlays !== undefined;
  const header: string[] = [...PLAY_COUNT_CSV_HEADER];
  if (withMinimum) header.push(MET_MINIMUM_HEADER);
  const rows = roster.map((p) => {
    const row = [p.jersey, p.playerName, String(p.playCount)];
    if (withMinimum) row.push(metMinimum(p.playCount, minPlays) ? 'Yes' : 'No');
    return row;
  });
  return [header, ...rows];
}

export function playCountCsv(
  roster: readonly PlayCountRosterEntry[],
  minPlays: number | null | undefined,
): string {
  return csvFile(playCountCsvRows(roster, minPlays));
}

/** SPEC §9: '{gameDate}-PlayCounts.csv'. */
export function playCountCsvFileName(gameDate: string): string {
  return `${fileStem(gameDate, 'game')}-PlayCounts.csv`;
}
