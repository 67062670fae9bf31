import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { csvField, isFormulaLeading, toCsv } from './csv.ts';
import { playCountCsv, playCountCsvFileName, playCountCsvRows } from './playcount-csv.ts';
import type { PlayCountRosterEntry } from './playcount.ts';

const player = (jersey: string, playerName: string, playCount: number): PlayCountRosterEntry => ({
  key: `k${jersey}`,
  jersey,
  playerName,
  playCount,
  location: 1,
});

describe('CSV quoting (RFC 4180)', () => {
  it('leaves plain fields alone', () => {
    expect(csvField('Ann Lee')).toBe('Ann Lee');
    expect(csvField(12)).toBe('12');
  });

  it('quotes fields with commas, quotes or line breaks, doubling quotes', () => {
    expect(csvField('Lee, Ann')).toBe('"Lee, Ann"');
    expect(csvField('Ann "Rocket" Lee')).toBe('"Ann ""Rocket"" Lee"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('ends every record with CRLF', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toBe('a,b\r\nc,d\r\n');
  });

  it('any table survives a round trip through a real CSV parser', () => {
    // Cells a spreadsheet would run as formulas come back behind a quote (csv.test.ts).
    const asExported = (cell: string) => (isFormulaLeading(cell) ? `'${cell}` : cell);
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ minLength: 1 }), { minLength: 3, maxLength: 3 }), {
          minLength: 1,
          maxLength: 8,
        }),
        (rows) => {
          expect(parse(toCsv(rows), { relax_column_count: false })).toEqual(
            rows.map((r) => r.map(asExported)),
          );
        },
      ),
    );
  });
});

describe('play count CSV (SPEC §9)', () => {
  const roster = [player('7', 'Lee, Ann', 12), player('23', 'Bo "Flash" Ray', 3)];

  it('has the header Jersey,Player,CountedPlays and one row per player', () => {
    expect(playCountCsv(roster, null)).toBe(
      '\ufeffJersey,Player,CountedPlays\r\n7,"Lee, Ann",12\r\n23,"Bo ""Flash"" Ray",3\r\n',
    );
  });

  it('adds MetMinimum when the coach set a minimum', () => {
    expect(playCountCsvRows(roster, 5)).toEqual([
      ['Jersey', 'Player', 'CountedPlays', 'MetMinimum'],
      ['7', 'Lee, Ann', '12', 'Yes'],
      ['23', 'Bo "Flash" Ray', '3', 'No'],
    ]);
  });

  it('parses back to the same rows', () => {
    expect(parse(playCountCsv(roster, 5), { bom: true })).toEqual(playCountCsvRows(roster, 5));
  });

  it("a player named like a formula is exported as text, not run by the coach's spreadsheet", () => {
    const csv = playCountCsv([player('-1', '=HYPERLINK("https://evil.example","Ann")', 4)], null);
    expect(csv).toBe(
      `\ufeffJersey,Player,CountedPlays\r\n"'-1","'=HYPERLINK(""https://evil.example"",""Ann"")",4\r\n`,
    );
  });

  it('is just the header for an empty roster', () => {
    expect(playCountCsv([], null)).toBe('\ufeffJersey,Player,CountedPlays\r\n');
  });

  it('names the file {gameDate}-PlayCounts.csv, replacing characters files cannot hold', () => {
    expect(playCountCsvFileName('2025-09-13')).toBe('2025-09-13-PlayCounts.csv');
    expect(playCountCsvFileName('9/13/2025')).toBe('9-13-2025-PlayCounts.csv');
    expect(playCountCsvFileName('  ')).toBe('game-PlayCounts.csv');
  });
});
