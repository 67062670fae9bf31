import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { csvField, csvFile, isFormulaLeading, toCsv, UTF8_BOM } from './csv.ts';

// OWASP CSV injection: a cell a spreadsheet would evaluate arrives as text.
const LEADS = ['=', '+', '-', '@', '\t', '\r', '\n', '\u0000'];

describe('CSV cells that would be formulas', () => {
  it.each(LEADS.map((lead) => [JSON.stringify(lead), lead]))(
    'a cell starting with %s gets a single quote and is quoted',
    (_label, lead) => {
      const cell = `${lead}HYPERLINK("https://evil.example","Click")`;
      const field = csvField(cell);
      expect(field.startsWith(`"'${lead}`)).toBe(true);
      expect(parse(`${field}\r\n`)).toEqual([[`'${cell}`]]);
    },
  );

  // Spreadsheets skip these before looking for the formula sign, so they cannot hide one.
  const HIDERS = [
    ['a vertical tab', '\v'],
    ['a form feed', '\f'],
    ['a byte-order mark', '\ufeff'],
    ['a zero-width space', '\u200b'],
    ['a zero-width joiner', '\u200d'],
    ['a word joiner', '\u2060'],
    ['a space', ' '],
    ['a no-break space', '\u00a0'],
    ['two of them', '\u200b\v'],
  ];
  it.each(HIDERS)('a formula behind %s is neutralised', (_label, hider) => {
    for (const sign of ['=', '+', '-', '@']) {
      const cell = `${hider}${sign}HYPERLINK("https://evil.example","Click")`;
      const field = csvField(cell);
      expect(field.startsWith(`"'${hider}${sign}`)).toBe(true);
      expect(parse(`${field}\r\n`)).toEqual([[`'${cell}`]]);
    }
  });

  it('a name that merely starts with a blank or an invisible character stays as typed', () => {
    expect(csvField(' Ann')).toBe(' Ann');
    expect(csvField('\u200bAnn')).toBe('\u200bAnn');
  });

  it('leaves the same characters alone when they are not first', () => {
    expect(csvField('Ann-Marie')).toBe('Ann-Marie');
    expect(csvField('a=b+c@d')).toBe('a=b+c@d');
  });

  it('numbers are ours, not typed text: a negative number stays a number', () => {
    expect(csvField(-3)).toBe('-3');
    expect(csvField(true)).toBe('true');
  });

  it('a formula spread over a whole row is neutralised cell by cell', () => {
    expect(toCsv([['=1+1', '+SUM(A1:A9)', '-2+3', '@cmd', 'plain']])).toBe(
      `"'=1+1","'+SUM(A1:A9)","'-2+3","'@cmd",plain\r\n`,
    );
  });

  it('no text cell that parses back starts with a formula character', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (row) => {
        const [parsed] = parse(toCsv([row])) as string[][];
        for (const [i, cell] of (parsed ?? []).entries()) {
          expect(isFormulaLeading(cell)).toBe(false);
          // Nothing is lost: the text is the typed text, after the quote when one was added.
          expect(cell).toBe(isFormulaLeading(row[i]!) ? `'${row[i]}` : row[i]);
        }
      }),
    );
  });
});

describe('the downloaded CSV file', () => {
  it('starts with the UTF-8 byte-order mark, then the first row', () => {
    const file = csvFile([
      ['Jersey', 'Player'],
      ['7', 'Siobhán'],
    ]);
    expect(file.startsWith(`${UTF8_BOM}Jersey,Player\r\n`)).toBe(true);
    expect(new TextEncoder().encode(file).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(parse(file, { bom: true })).toEqual([
      ['Jersey', 'Player'],
      ['7', 'Siobhán'],
    ]);
  });
});
