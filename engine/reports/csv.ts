/**
 * The one CSV writer of the product: the CLI's reports and every CSV the server answers or
 * exports go through `writeCsv`. Text cells are people's words (file names, descriptions,
 * locations, names, e-mail addresses), and a spreadsheet runs a cell that starts like a formula
 * (`=2+5*cmd|' -c calc'!A0`), so such a cell is written with an apostrophe in front: the
 * spreadsheet shows the text and hides the apostrophe (OWASP's advice for CSV injection).
 * Number cells are written as numbers, never escaped, so a negative net flow stays a number.
 */
import { stringify } from 'csv-stringify/sync';

/** A number written with a fixed count of decimals ("12.30"); a number to a spreadsheet. */
export interface CsvFixed {
  readonly fixed: number;
  readonly digits: number;
}

/** A cell: text (escaped), a number, a fixed-decimals number, a boolean, or empty (null). */
export type CsvCell = string | number | boolean | CsvFixed | null | undefined;

export const csvFixed = (value: number, digits: number): CsvFixed => ({ fixed: value, digits });

/**
 * What a spreadsheet may take for the start of a formula: = + - @, a tab or a carriage return
 * (the OWASP list), and the full-width = + - @ some spreadsheets read as the same.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/u;

/** A text cell as written: with a leading apostrophe when it could start a formula. */
export function csvText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function cell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return csvText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return Number.isFinite(value.fixed) ? value.fixed.toFixed(value.digits) : '';
}

/** A header line of `columns`, then one line per row; cells quoted where CSV needs it. */
export function writeCsv(
  columns: readonly string[],
  rows: ReadonlyArray<readonly CsvCell[]>,
): string {
  return stringify(
    rows.map((row) => row.map(cell)),
    { header: true, columns: [...columns] },
  );
}
