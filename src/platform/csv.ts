// CSV as spreadsheets read it (RFC 4180), for every file the API hands out as CSV (the job-cost
// export, report downloads): one writer, so quoting and the injection guard are the same everywhere.

/**
 * A field holding a comma, quote, CR or LF is quoted. Text starting with =, +, - or @ is prefixed
 * with ' (OWASP's CSV-injection advice), so a spreadsheet shows it instead of running it.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Lines of fields, CRLF after each (the header is the first line). */
export function csvText(lines: readonly (readonly unknown[])[]): string {
  return lines.map((fields) => `${fields.map(csvField).join(',')}\r\n`).join('');
}
