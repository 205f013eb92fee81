/**
 * The file record's stored parts as migrations 0021-0023 installed them on 2026-11-29: a frozen
 * copy of what `server/files/file-record.ts` and `stored-records.ts` (removed since) generated then, so that
 * changing the app later never changes what these migrations do to a database that has not run
 * them. A later change of the record adds a migration with its own copy; this one stays as it is.
 */
import type { Knex } from 'knex';

interface Layout {
  parts: { column: string; sql: string }[];
  readsColumns: string[];
  readsOwnerEmail: boolean;
  /** The columns an index must hold to answer from the parts alone. */
  answerColumns: string[];
}

export const PG_JSON_QUOTE = 'files_record_json_quote';

export const STORED: { list: Layout; search: Layout } = {
  list: {
    parts: [
      {
        column: 'list_record_0',
        sql: "CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END",
      },
      {
        column: 'list_record_1',
        sql: "CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || json_quote(files.location) || ',' || json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ']' END",
      },
    ],
    readsColumns: ['original_name', 'status', 'location', 'status_time'],
    readsOwnerEmail: false,
    answerColumns: ['media_deleted_at', 'list_record_0', 'list_record_1'],
  },
  search: {
    parts: [
      {
        column: 'search_record_0',
        sql: "CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END",
      },
      {
        column: 'search_record_1',
        sql: "CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || json_quote(files.location) || ',' || json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ',' || json_quote((SELECT users.email FROM users WHERE users.id = files.user_id)) || ']' END",
      },
    ],
    readsColumns: ['original_name', 'status', 'location', 'status_time', 'user_id'],
    readsOwnerEmail: true,
    answerColumns: ['media_deleted_at', 'search_record_0', 'search_record_1'],
  },
};

export const PG_STORED: { list: Layout; search: Layout } = {
  list: {
    parts: [
      {
        column: 'list_record_0',
        sql: "CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || files_record_json_quote(files.original_name) || ',' || files_record_json_quote(files.status) || ',' END",
      },
      {
        column: 'list_record_1',
        sql: "CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || files_record_json_quote(files.location) || ',' || files_record_json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ']' END",
      },
    ],
    readsColumns: ['original_name', 'status', 'location', 'status_time'],
    readsOwnerEmail: false,
    answerColumns: ['media_deleted_at', 'list_record_0', 'list_record_1'],
  },
  search: {
    parts: [
      {
        column: 'search_record_0',
        sql: "CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN '[' || files_record_json_quote(files.original_name) || ',' || files_record_json_quote(files.status) || ',' END",
      },
      {
        column: 'search_record_1',
        sql: "CASE WHEN files.status_time LIKE '____-__-__T__:__:__.___Z' THEN ',' || files_record_json_quote(files.location) || ',' || files_record_json_quote(substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00') || ',' END",
      },
    ],
    readsColumns: ['original_name', 'status', 'location', 'status_time'],
    readsOwnerEmail: false,
    answerColumns: ['media_deleted_at', 'search_record_0', 'search_record_1'],
  },
};

const LAYOUTS = [STORED.list, STORED.search];
const PG_LAYOUTS = [PG_STORED.list, PG_STORED.search];
/** A stored part's name, whatever definition installed it. */
const PART_NAME = /^(list|search)_record_\d+$/;
const TRIGGERS = {
  insert: 'files_record_parts_after_insert',
  update: 'files_record_parts_after_update',
  email: 'users_email_record_parts_after_update',
};

const setParts = () =>
  LAYOUTS.flatMap((layout) => layout.parts.map((p) => `${p.column} = ${p.sql}`)).join(', ');

/** SQLite: adds the columns, fills them for every existing file, and keeps them current. */
export async function installStoredRecords(knex: Knex): Promise<void> {
  for (const column of LAYOUTS.flatMap((layout) => layout.parts.map((p) => p.column))) {
    await knex.raw(`ALTER TABLE files ADD COLUMN ${column} text`);
  }
  const set = setParts();
  await knex.raw(`UPDATE files SET ${set}`);
  const reads = [...new Set(LAYOUTS.flatMap((layout) => layout.readsColumns))];
  await knex.raw(`
    CREATE TRIGGER ${TRIGGERS.insert} AFTER INSERT ON files BEGIN
      UPDATE files SET ${set} WHERE files.id = NEW.id;
    END`);
  await knex.raw(`
    CREATE TRIGGER ${TRIGGERS.update} AFTER UPDATE OF ${reads.join(', ')} ON files BEGIN
      UPDATE files SET ${set} WHERE files.id = NEW.id;
    END`);
  if (LAYOUTS.some((layout) => layout.readsOwnerEmail)) {
    await knex.raw(`
      CREATE TRIGGER ${TRIGGERS.email} AFTER UPDATE OF email ON users BEGIN
        UPDATE files SET ${set} WHERE files.user_id = NEW.id;
      END`);
  }
}

/** SQLite: undoes installStoredRecords; indexes on the parts must be dropped first. */
export async function removeStoredRecords(knex: Knex): Promise<void> {
  for (const name of Object.values(TRIGGERS)) await knex.raw(`DROP TRIGGER IF EXISTS ${name}`);
  const columns = await knex
    .select('name')
    .from(knex.raw("pragma_table_info('files')"))
    .pluck<string[]>('name');
  // Not knex's dropColumn: on SQLite it copies the table and loses its other triggers.
  for (const column of columns.filter((c) => PART_NAME.test(c))) {
    await knex.raw(`ALTER TABLE files DROP COLUMN ${column}`);
  }
}

/** PostgreSQL: the JSON quoting function, then every part as a generated column (one rewrite). */
export async function installPgStoredRecords(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION ${PG_JSON_QUOTE}(value text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS 'SELECT to_json(value)::text'`);
  const columns = PG_LAYOUTS.flatMap((layout) =>
    layout.parts.map((p) => `ADD COLUMN ${p.column} text GENERATED ALWAYS AS (${p.sql}) STORED`),
  );
  await knex.raw(`ALTER TABLE files ${columns.join(', ')}`);
}

/** PostgreSQL: undoes installPgStoredRecords (indexes on the parts go with them). */
export async function removePgStoredRecords(knex: Knex): Promise<void> {
  const columns = await knex('information_schema.columns')
    .where({ table_schema: knex.raw('current_schema()'), table_name: 'files' })
    .pluck<string[]>('column_name');
  const drops = columns.filter((c) => PART_NAME.test(c)).map((c) => `DROP COLUMN ${c}`);
  if (drops.length > 0) await knex.raw(`ALTER TABLE files ${drops.join(', ')}`);
  await knex.raw(`DROP FUNCTION IF EXISTS ${PG_JSON_QUOTE}(text)`);
}
