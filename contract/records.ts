/**
 * The spec's positional records (product-spec section 3), field by field: which cell holds what,
 * in order, defined once. The server builds its records from these names
 * (server/files/file-record.ts), the answer schemas are made from them (schemas/file-detail.ts)
 * and the console reads the cells by name (`namedRecord`), so that a field moved, added or
 * renamed here changes both sides, and one a side still reads by its old name fails to compile.
 * No zod here: the console loads this module.
 */

/** `[name, status, media_url, report_url, location, status_time]`: the files list. */
export const FILE_RECORD_FIELDS = [
  'name',
  'status',
  'media_url',
  'report_url',
  'location',
  'status_time',
] as const;

/** The file record and its owner's e-mail: the admin search. */
export const SEARCH_RECORD_FIELDS = [...FILE_RECORD_FIELDS, 'owner_email'] as const;

export type SearchRecordField = (typeof SEARCH_RECORD_FIELDS)[number];

/** A record's cells: one string per field, in the fields' order. */
export type Cells<F extends readonly string[]> = { -readonly [K in keyof F]: string };
export type FileRecordCells = Cells<typeof FILE_RECORD_FIELDS>;
export type SearchRecordCells = Cells<typeof SEARCH_RECORD_FIELDS>;

/** The cells of a record by their field names. */
export function namedRecord<F extends readonly string[]>(
  fields: F,
  cells: Cells<F>,
): Record<F[number], string> {
  return Object.fromEntries(fields.map((field, i) => [field, cells[i]])) as Record<
    F[number],
    string
  >;
}
