/**
 * A text cell a spreadsheet would read as a formula (or that starts with a control character
 * some spreadsheets strip before doing so): a player named `=HYPERLINK(...)` must arrive as
 * text. OWASP's CSV injection advice: prefix such a cell with a single quote and quote it.
 * Spreadsheets also skip blanks and invisible characters before the formula sign (a vertical
 * tab, a form feed, a byte-order mark, a zero-width space), so those do not hide one.
 */
// eslint-disable-next-line no-control-regex
const FORMULA_LEAD = /^(?:[\u0000-\u001f]|[\s\u200b-\u200f\u2060\ufeff]*[=+\-@])/u;

export function isFormulaLeading(text: string): boolean {
  return FORMULA_LEAD.test(text);
}

// RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes doubled.
// Numbers and booleans are ours, never typed text, so a negative number stays a number.
export function csvField(value: string | number | boolean): string {
  const s = String(value);
  if (typeof value === 'string' && isFormulaLeading(s)) return `"'${s.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | boolean>>): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/**
 * A CSV file as it is downloaded: the UTF-8 byte-order mark first, which Excel on Windows needs
 * to read the file as UTF-8 rather than its local code page ("Siobhán", not "SiobhÃ¡n").
 */
export const UTF8_BOM = '\ufeff';
export function csvFile(rows: ReadonlyArray<ReadonlyArray<string | number | boolean>>): string {
  return UTF8_BOM + toCsv(rows);
}

/**
 * A file name's stem from typed text: characters no file system accepts (a date typed as
 * 3/1/2025) become '-', so the browser does not rename the file its own way.
 */
export function fileStem(text: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  return text.trim().replace(/[/\\:*?"<>|\u0000-\u001f]/g, '-') || fallback;
}
