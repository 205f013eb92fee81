/**
 * The spec's positional file record (product-spec section 3), defined once: which field holds
 * what, in order. The contract names the fields and their order (contract/records.ts); here each
 * gets its source. The files list answers `LIST_FIELDS`, the admin search `SEARCH_FIELDS`.
 *
 * Everything else is generated from these lists: the JavaScript record (`fileRecord`,
 * `searchRecord`) and the record parts that SQLite and PostgreSQL store, with the expression
 * that completes them when answering (file-lists-repository.ts says why the databases store
 * them). URLs are never stored: a stored part holds only a run of data
 * fields between two URLs, and the URLs are composed from the file's id at query time, so the
 * API's URL shape lives here alone.
 *
 * Changing a list (or how a kind of field is spelled) changes what the databases store: add a
 * migration with a frozen copy of the new parts (as migrations/frozen/record-parts-20261129.ts
 * holds 0021-0023's) that drops the indexes holding the parts, removes and reinstalls them, and
 * re-creates the indexes. file-record.test.ts checks that the app reads what the newest frozen
 * copy installed, so that such a change cannot go unnoticed.
 */
import type { FileRow } from './file-row.ts';
import { FILE_RECORD_FIELDS, SEARCH_RECORD_FIELDS } from '../../contract/records.ts';
import type {
  FileRecordCells,
  SearchRecordCells,
  SearchRecordField,
} from '../../contract/records.ts';

// ---- How stored values are spelled in answers (decisions.md 1b) -----------------------------

/** `toISOString()` output whose day exists in every month (so Date would not roll it over). */
const CANONICAL_UTC =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** Stored timestamps are UTC (`...Z`); answers spell the offset out (`+00:00`). */
export function isoWithOffset(stored: string | null): string {
  if (!stored) return '';
  // Fast path for what the server writes (lists map thousands of these per request).
  if (CANONICAL_UTC.test(stored)) return `${stored.slice(0, -1)}+00:00`;
  const d = new Date(stored);
  if (Number.isNaN(d.getTime())) return stored;
  return d.toISOString().replace(/Z$/, '+00:00');
}

/** Every URL of one file's resources starts here, then the file's id, `/`, the resource. */
export const FILE_URL_PREFIX = '/api/files/';
export type FileResource = 'media' | 'report.csv' | 'preview.jpg' | 'summary.csv' | 'hornet.jpg';
export const fileUrl = (id: number, resource: FileResource): string =>
  `${FILE_URL_PREFIX}${id}/${resource}`;

export const mediaUrl = (id: number): string => fileUrl(id, 'media');
export const reportUrl = (id: number): string => fileUrl(id, 'report.csv');
export const previewUrl = (id: number): string => fileUrl(id, 'preview.jpg');
export const summaryUrl = (id: number): string => fileUrl(id, 'summary.csv');
export const hornetFrameUrl = (id: number): string => fileUrl(id, 'hornet.jpg');

// ---- The record's fields ------------------------------------------------------------------

type TextColumn = 'original_name' | 'status' | 'location';
type TimeColumn = 'status_time';

/** One field of the record: where its value comes from. */
export type RecordField =
  /** A text column as stored. */
  | { kind: 'text'; column: TextColumn }
  /** A stored UTC timestamp, answered with its offset (isoWithOffset). */
  | { kind: 'time'; column: TimeColumn }
  /** A URL of the file's API (never stored); '' once `emptyOnceSet` holds a value. */
  | { kind: 'url'; resource: FileResource; emptyOnceSet?: 'media_deleted_at' }
  /** The owner's e-mail address. */
  | { kind: 'ownerEmail' };

/** Where each field the contract names (contract/records.ts) comes from. */
const FIELD_SOURCES = {
  name: { kind: 'text', column: 'original_name' },
  status: { kind: 'text', column: 'status' },
  media_url: { kind: 'url', resource: 'media', emptyOnceSet: 'media_deleted_at' },
  report_url: { kind: 'url', resource: 'report.csv' },
  location: { kind: 'text', column: 'location' },
  status_time: { kind: 'time', column: 'status_time' },
  owner_email: { kind: 'ownerEmail' },
} as const satisfies Record<SearchRecordField, RecordField>;

/** The files list's record, in the contract's order. */
export const LIST_FIELDS: readonly RecordField[] = FILE_RECORD_FIELDS.map((f) => FIELD_SOURCES[f]);

/** The list record plus the owner's e-mail. */
export const SEARCH_FIELDS: readonly RecordField[] = SEARCH_RECORD_FIELDS.map(
  (f) => FIELD_SOURCES[f],
);

export type FileRecord = FileRecordCells;
export type SearchRecord = SearchRecordCells;

/** The columns of `files` a record reads. */
export type RecordRow = Pick<FileRow, 'id' | 'media_deleted_at' | TextColumn | TimeColumn>;

// ---- JavaScript ----------------------------------------------------------------------------

function fieldValue(field: RecordField, row: RecordRow & { owner_email?: string }): string {
  switch (field.kind) {
    case 'text':
      return row[field.column];
    case 'time':
      return isoWithOffset(row[field.column]);
    case 'url':
      return field.emptyOnceSet && row[field.emptyOnceSet] !== null
        ? ''
        : fileUrl(row.id, field.resource);
    case 'ownerEmail':
      return row.owner_email ?? '';
  }
}

export function fileRecord(row: RecordRow): FileRecord {
  return LIST_FIELDS.map((f) => fieldValue(f, row)) as FileRecord;
}

export function searchRecord(row: RecordRow & { owner_email: string }): SearchRecord {
  return SEARCH_FIELDS.map((f) => fieldValue(f, row)) as SearchRecord;
}

/** What the JavaScript path selects from `files` (the owner's e-mail is joined separately). */
export function recordColumns(fields: readonly RecordField[]): string[] {
  const columns = new Set<string>(['files.id']);
  for (const f of fields) {
    if (f.kind === 'text' || f.kind === 'time') columns.add(`files.${f.column}`);
    if (f.kind === 'url' && f.emptyOnceSet) columns.add(`files.${f.emptyOnceSet}`);
  }
  return [...columns];
}

// ---- SQL (PostgreSQL and SQLite alike) -----------------------------------------------------

/** Where the owner's e-mail comes from: `users.email` when joined, a subquery in SQLite's triggers. */
interface SqlSources {
  ownerEmail: string;
}

// The URL's constant parts go into SQL string literals and, on SQLite, straight into JSON text.
for (const field of SEARCH_FIELDS) {
  const text = field.kind === 'url' ? `${FILE_URL_PREFIX}${field.resource}` : '';
  if (!/^[\w./-]*$/.test(text)) throw new Error(`file-record: URL part ${text} needs quoting`);
}

/** `'/api/files/' || files.id || '/media'`, its literals wrapped in `quote` (`"` for JSON). */
function urlSql(field: Extract<RecordField, { kind: 'url' }>, quote: '' | '"'): string {
  const url = `'${quote}${FILE_URL_PREFIX}' || files.id || '/${field.resource}${quote}'`;
  if (!field.emptyOnceSet) return url;
  return `CASE WHEN files.${field.emptyOnceSet} IS NULL THEN ${url} ELSE '${quote}${quote}' END`;
}

// `2025-06-01T09:30:00.000Z` -> `2025-06-01T09:30:00.000+00:00` (isoWithOffset's fast path).
const withOffset = (col: string) => `substr(${col}, 1, length(${col}) - 1) || '+00:00'`;

function fieldSql(field: RecordField, sources: SqlSources): string {
  switch (field.kind) {
    case 'text':
      return `files.${field.column}`;
    case 'time':
      return withOffset(`files.${field.column}`);
    case 'url':
      return urlSql(field, '');
    case 'ownerEmail':
      return sources.ownerEmail;
  }
}

/**
 * True when SQL spells every timestamp of the record as `isoWithOffset` does: the server's own
 * `toISOString()` form. Other forms (which SQL cannot re-spell the way Date does) take the
 * JavaScript path.
 */
export function canonicalSql(fields: readonly RecordField[]): string {
  const times = fields.filter((f) => f.kind === 'time');
  if (times.length === 0) return '1 = 1';
  return times.map((f) => `files.${f.column} LIKE '____-__-__T__:__:__.___Z'`).join(' AND ');
}

// ---- Stored parts (SQLite and PostgreSQL) -------------------------------------------------

/** One stored column: the JSON text of a run of data fields and the punctuation beside it. */
export interface StoredPart {
  column: string;
  /** What the database writes; NULL when a timestamp is not canonical (the JavaScript path). */
  sql: string;
}

export interface StoredLayout {
  parts: StoredPart[];
  /** The whole record's JSON text from the stored parts and the URLs (NULL with any NULL part). */
  answerSql: string;
  /** The columns answerSql reads besides the id: what an index must hold to answer alone. */
  answerColumns: string[];
  /** The `files` columns the stored parts read: a change to one rewrites them. */
  readsColumns: string[];
  /** Whether the parts read the owner's e-mail (a change to it rewrites them too). */
  readsOwnerEmail: boolean;
}

/** How one database stores the parts. */
export interface StoreDialect {
  /** The SQL function that writes a text value as a JSON string. */
  jsonQuote: string;
  /**
   * Where a stored part reads the owner's e-mail, or null when the parts cannot read another
   * table (PostgreSQL's generated columns): the e-mail is then composed when answering, like
   * the URLs, as `composedOwnerEmailJson` (JSON text, from the joined `users.email`).
   */
  storedOwnerEmail: string | null;
  composedOwnerEmailJson: string;
}

/** SQL text, or a literal that the answer's builder may merge with its neighbours. */
type Piece = { sql: string } | { literal: string };

/** `a || ',"x' || b`: adjacent literals merged, one `||` fewer per row each. */
function concatSql(pieces: Piece[]): string {
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const last = merged.at(-1);
    if ('literal' in piece && last && 'literal' in last) last.literal += piece.literal;
    else merged.push({ ...piece });
  }
  return merged.map((p) => ('sql' in p ? p.sql : `'${p.literal}'`)).join(' || ');
}

/** A URL field as JSON text (its constant parts need no escaping, checked above). */
function urlJsonPieces(field: Extract<RecordField, { kind: 'url' }>): Piece[] {
  if (field.emptyOnceSet) return [{ sql: urlSql(field, '"') }];
  return [
    { literal: `"${FILE_URL_PREFIX}` },
    { sql: 'files.id' },
    { literal: `/${field.resource}"` },
  ];
}

/**
 * Splits a record into stored parts and fields composed at query time (the URLs, and on
 * PostgreSQL the owner's e-mail). A part is a run of data fields with the JSON punctuation
 * around it (`["name","status",` and `,"location","time"]`), so that answering costs only the
 * composed fields: `files.list_record_0 || <media url> || ',"/api/files/' || files.id ||
 * '/report.csv"' || files.list_record_1`.
 */
export function storedLayout(
  name: string,
  fields: readonly RecordField[],
  dialect: StoreDialect,
): StoredLayout {
  const stores = (field: RecordField) =>
    field.kind !== 'url' && (field.kind !== 'ownerEmail' || dialect.storedOwnerEmail !== null);
  const quoted = (field: RecordField) =>
    `${dialect.jsonQuote}(${fieldSql(field, { ownerEmail: dialect.storedOwnerEmail ?? '' })})`;
  // Only URLs and (where not stored) the owner's e-mail are composed.
  const composed = (field: RecordField): Piece[] =>
    field.kind === 'url' ? urlJsonPieces(field) : [{ sql: dialect.composedOwnerEmailJson }];

  // The record as stored data, punctuation and composed pieces, in order.
  type Token = { data: RecordField } | { punct: string } | { composed: Piece[] };
  const tokens: Token[] = [{ punct: '[' }];
  for (const [i, field] of fields.entries()) {
    if (i > 0) tokens.push({ punct: ',' });
    tokens.push(stores(field) ? { data: field } : { composed: composed(field) });
  }
  tokens.push({ punct: ']' });

  const canonical = canonicalSql(fields);
  const parts: StoredPart[] = [];
  const answer: Piece[] = [];
  let group: Array<Exclude<Token, { composed: Piece[] }>> = [];
  // Data and the punctuation beside it are stored; punctuation between two composed fields is
  // not.
  const endGroup = () => {
    const stored = group.some((t) => 'data' in t);
    const pieces = group.map((t): Piece =>
      'punct' in t ? { literal: t.punct } : { sql: quoted(t.data) },
    );
    if (stored) {
      const column = `${name}_record_${parts.length}`;
      parts.push({ column, sql: `CASE WHEN ${canonical} THEN ${concatSql(pieces)} END` });
      answer.push({ sql: `files.${column}` });
    } else {
      answer.push(...pieces);
    }
    group = [];
  };
  for (const token of tokens) {
    if ('composed' in token) {
      endGroup();
      answer.push(...token.composed);
    } else {
      group.push(token);
    }
  }
  endGroup();

  const readsColumns = new Set<string>();
  const urlColumns = new Set<string>();
  for (const field of fields) {
    if (field.kind === 'url' && field.emptyOnceSet) urlColumns.add(field.emptyOnceSet);
    if (field.kind === 'text' || field.kind === 'time') readsColumns.add(field.column);
    if (field.kind === 'ownerEmail' && stores(field)) readsColumns.add('user_id');
  }
  return {
    parts,
    answerSql: concatSql(answer),
    answerColumns: [...urlColumns, ...parts.map((p) => p.column)],
    readsColumns: [...readsColumns],
    readsOwnerEmail: fields.some((f) => f.kind === 'ownerEmail' && stores(f)),
  };
}

/** SQLite: parts written by triggers, which read the owner's e-mail with a subquery. */
const SQLITE: StoreDialect = {
  jsonQuote: 'json_quote',
  storedOwnerEmail: '(SELECT users.email FROM users WHERE users.id = files.user_id)',
  composedOwnerEmailJson: 'json_quote(users.email)',
};

/**
 * PostgreSQL's JSON string of a text value, declared IMMUTABLE so that generated columns may
 * call it (`to_json` is STABLE only because other types' output depends on settings; a text's
 * JSON does not). Created by migration 0022.
 */
export const PG_JSON_QUOTE = 'files_record_json_quote';

/**
 * PostgreSQL: generated columns, which read only their own row; the e-mail is joined. When
 * answering, `to_json` itself: PostgreSQL cannot inline the IMMUTABLE wrapper around a STABLE
 * function, and calling it per row cost more than the rest of the record.
 */
const POSTGRES: StoreDialect = {
  jsonQuote: PG_JSON_QUOTE,
  storedOwnerEmail: null,
  composedOwnerEmailJson: 'to_json(users.email)::text',
};

/** What SQLite stores for each record, and how the routes answer from it. */
export const STORED = {
  list: storedLayout('list', LIST_FIELDS, SQLITE),
  search: storedLayout('search', SEARCH_FIELDS, SQLITE),
};

/** What PostgreSQL stores for each record, and how the routes answer from it. */
export const PG_STORED = {
  list: storedLayout('list', LIST_FIELDS, POSTGRES),
  search: storedLayout('search', SEARCH_FIELDS, POSTGRES),
};
