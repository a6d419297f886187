export interface Output {
  json: boolean;
  /** Prints the value as JSON, or the text for people. */
  result(value: unknown, text: string): void;
}

export function createOutput(
  json: boolean,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Output {
  return {
    json,
    result(value, text) {
      write(json ? JSON.stringify(value, null, 2) : text);
    },
  };
}

export function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return "(none)";
  const keys = Object.keys(rows[0] ?? {});
  const width = (key: string) => Math.max(key.length, ...rows.map((row) => String(row[key] ?? "").length));
  const widths = keys.map(width);
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(keys), ...rows.map((row) => line(keys.map((key) => String(row[key] ?? ""))))].join("\n");
}
