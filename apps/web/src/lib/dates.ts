const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A game's date as the reader's locale writes it ('Sep 13, 2025', '13 Sept 2025'). The phone
 * apps send a day ('2025-09-13'), read as that calendar day wherever the reader is; any other
 * text (typed by hand) is shown as it is.
 */
export function formatGameDate(value: string, locale?: string): string {
  const m = ISO_DAY.exec(value.trim());
  if (!m) return value;
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(day.getTime()) || day.getUTCDate() !== Number(m[3])) return value;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(day);
}
