import { CsvError, type CsvErrorCode, parse } from "csv-parse/sync";

export interface CsvRow {
  /** 1-based line number in the file. */
  line: number;
  fields: string[];
}

export interface CsvLineError {
  line: number;
  reason: string;
}

export interface ParsedCsv {
  rows: CsvRow[];
  errors: CsvLineError[];
}

// csv-parse's own codes, said the way an operator fixing the file needs to read them.
const reasons: Partial<Record<CsvErrorCode, string>> = {
  CSV_QUOTE_NOT_CLOSED: "a quote is opened and not closed on this line",
  CSV_INVALID_CLOSING_QUOTE: "a closing quote is followed by more text in the same cell",
  INVALID_OPENING_QUOTE: 'a quote inside an unquoted cell (quote the whole cell and double the inner quotes: "")',
};

/**
 * CSV for people imports: one record per line, parsed by csv-parse in strict mode (quoted cells
 * may hold commas and doubled quotes, never a line break). A record may not run across lines
 * because then one forgotten quote swallows every line up to the next quote without a word; this
 * way a bad line is reported with its number and reason and the lines after it are still read.
 */
export function parseCsvLines(text: string): ParsedCsv {
  const parsed: ParsedCsv = { rows: [], errors: [] };
  text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\n|\r/)
    .forEach((content, index) => {
      const line = index + 1;
      if (content.trim() === "") return;
      try {
        const [fields] = parse(content, { relax_quotes: false, relax_column_count: false });
        parsed.rows.push({ line, fields: fields ?? [] });
      } catch (error) {
        if (!(error instanceof CsvError)) throw error;
        parsed.errors.push({ line, reason: reasons[error.code] ?? error.message });
      }
    });
  return parsed;
}
