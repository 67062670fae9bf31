import { describe, expect, it } from 'vitest';
import { bulkRowProblem, bulkRowsToSave, bulkRowWarnings, parseBulkUpload } from './bulk-upload.ts';

describe('SPEC §5 bulk upload parsing', () => {
  it('first token is the jersey, the rest joined is the name', () => {
    expect(parseBulkUpload('7 Alex  van   Smith')).toEqual([
      { jersey: '7', playerName: 'Alex van Smith' },
    ]);
  });

  it('every line yields an entry, blank ones included', () => {
    const rows = parseBulkUpload('1 Ann\n\n2 Bob\n   \n');
    expect(rows).toEqual([
      { jersey: '1', playerName: 'Ann' },
      { jersey: '', playerName: '' },
      { jersey: '2', playerName: 'Bob' },
      { jersey: '', playerName: '' },
      { jersey: '', playerName: '' },
    ]);
  });

  it('splits CRLF and CR line ends', () => {
    expect(parseBulkUpload('1 Ann\r\n2 Bob\r3 Cy').map((r) => r.jersey)).toEqual(['1', '2', '3']);
  });

  it('replaces control and non-printable characters by a space', () => {
    // Tabs (spreadsheet paste), a no-break space, a zero-width space, a BOM, DEL and BEL.
    expect(parseBulkUpload('\ufeff9\tJo\u00a0Ann\u200bLee')).toEqual([
      { jersey: '9', playerName: 'Jo Ann Lee' },
    ]);
    expect(parseBulkUpload('\u0007 5 Eve \u007f')).toEqual([{ jersey: '5', playerName: 'Eve' }]);
  });

  it('keeps every printable letter, NFC-normalised (DESIGN §8)', () => {
    expect(parseBulkUpload('4 Zoë Park\n8 Chloé')).toEqual([
      { jersey: '4', playerName: 'Zoë Park' },
      { jersey: '8', playerName: 'Chloé' },
    ]);
    // "é" typed as e + combining accent (as some keyboards and files do) becomes one character.
    const [row] = parseBulkUpload('8 Chloe\u0301');
    expect(row?.playerName).toBe('Chlo\u00e9');
    expect(parseBulkUpload('3 अनु शर्मा\n6 محمد علي\n12 Ñandú')).toEqual([
      { jersey: '3', playerName: 'अनु शर्मा' },
      { jersey: '6', playerName: 'محمد علي' },
      { jersey: '12', playerName: 'Ñandú' },
    ]);
    // The zero-width non-joiner is part of Persian spelling; it stays.
    expect(parseBulkUpload('7 می\u200cخواهم')[0]?.playerName).toBe('می\u200cخواهم');
  });

  it('takes a comma or a tab after the jersey, as spreadsheets paste it', () => {
    expect(parseBulkUpload('15, Sam Lee\n16,Ann Bo\n17\tCy Wu\n18 ,  Di Ng')).toEqual([
      { jersey: '15', playerName: 'Sam Lee' },
      { jersey: '16', playerName: 'Ann Bo' },
      { jersey: '17', playerName: 'Cy Wu' },
      { jersey: '18', playerName: 'Di Ng' },
    ]);
    expect(bulkRowProblem(parseBulkUpload('15, Sam Lee')[0]!)).toBeNull();
  });

  it('only the first comma separates: a comma in the name stays', () => {
    expect(parseBulkUpload('7 Lee, Ann\n8,Ray, Bo')).toEqual([
      { jersey: '7', playerName: 'Lee, Ann' },
      { jersey: '8', playerName: 'Ray, Bo' },
    ]);
  });

  it('a line with only a jersey has an empty name', () => {
    expect(parseBulkUpload('12')).toEqual([{ jersey: '12', playerName: '' }]);
  });
});

describe('bulk preview problems', () => {
  it('marks rows that would create a player without a name', () => {
    expect(bulkRowProblem({ jersey: '12', playerName: '' })).toBe('Missing name');
    expect(bulkRowProblem({ jersey: '', playerName: '' })).toMatch(/skipped/);
    expect(bulkRowProblem({ jersey: '#1', playerName: 'Ann' })).toMatch(/numbers or letters/);
    expect(bulkRowProblem({ jersey: '1', playerName: 'Ann' })).toBeNull();
  });

  it('skips blank lines and reports the first bad line by number', () => {
    expect(bulkRowsToSave(parseBulkUpload('1 Ann\n\n2 Bob'))).toEqual({
      ok: true,
      rows: [
        { jersey: '1', playerName: 'Ann' },
        { jersey: '2', playerName: 'Bob' },
      ],
    });
    expect(bulkRowsToSave(parseBulkUpload('1 Ann\n\n3'))).toEqual({
      ok: false,
      line: 3,
      problem: 'Missing name',
    });
  });
});

describe('bulk preview warnings (the coach decides)', () => {
  const sheet = [
    { jersey: '7', playerName: 'Ann Lee' },
    { jersey: 'GK', playerName: 'Bo Ray' },
  ];

  it('a jersey already on the sheet', () => {
    const warnings = bulkRowWarnings(parseBulkUpload('7 Sam Lee\n9 Cy Wu\ngk Di Ng'), sheet);
    expect([...warnings]).toEqual([
      [1, 'Jersey 7 is already on the sheet (Ann Lee)'],
      [3, 'Jersey gk is already on the sheet (Bo Ray)'],
    ]);
  });

  it('a jersey twice in the paste: the later line points at the first', () => {
    const warnings = bulkRowWarnings(parseBulkUpload('12 Sam\n\n12 Sue\n12 Sal'), []);
    expect([...warnings]).toEqual([
      [3, 'Jersey 12 is also on line 1'],
      [4, 'Jersey 12 is also on line 1'],
    ]);
  });

  it('warns of nothing when every jersey is new, and does not stop a save', () => {
    const rows = parseBulkUpload('1 Ann\n2 Bob');
    expect(bulkRowWarnings(rows, sheet).size).toBe(0);
    expect(bulkRowsToSave(parseBulkUpload('7 Sam\n7 Sue')).ok).toBe(true);
  });
});
