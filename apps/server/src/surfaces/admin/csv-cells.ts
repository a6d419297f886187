/**
 * One CSV cell (RFC 4180) that a spreadsheet shows as text. A cell a spreadsheet would take for a
 * formula (= + - @, or a tab or carriage return that some strip before looking) gets a leading
 * apostrophe and quotes (OWASP's CSV injection advice): an audit reason or a user agent is
 * attacker-written, and an operator opens the export in Excel.
 */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return guarded !== value || /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

export function csvLine(cells: (string | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
