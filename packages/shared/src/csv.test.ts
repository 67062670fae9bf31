import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { csvField, isFormulaLeading, toCsv } from './csv.ts';

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
