/** CSV writing for the party exports (RFC 4180), safe to open in a spreadsheet. */

/**
 * One CSV field: quoted when it holds a comma, quote or line break; a text that a spreadsheet
 * would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return first) gets a leading `'`, so a
 * fan's chat message cannot become a formula in the label's spreadsheet.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (CRLF ended). */
export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
