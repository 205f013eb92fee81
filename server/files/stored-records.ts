/**
 * Each file's record parts (file-record.ts `STORED`, `PG_STORED`) live in columns of `files`,
 * rewritten whenever a value they show changes; record-json.ts explains why. Migrations call
 * these: the columns, the backfill of existing rows and what keeps them current all come from
 * the record's one definition. SQLite writes them with triggers; PostgreSQL computes them as
 * generated columns (STORED), which it fills for existing rows when they are added and keeps
 * current itself, with no trigger and no second write of the row.
 */
import type { Knex } from 'knex';
import { PG_JSON_QUOTE, PG_STORED, STORED } from './file-record.ts';

const LAYOUTS = [STORED.list, STORED.search];
/** A stored part's name, whatever definition installed it. */
const PART_NAME = /^(list|search)_record_\d+$/;
const TRIGGERS = {
  insert: 'files_record_parts_after_insert',
  update: 'files_record_parts_after_update',
  email: 'users_email_record_parts_after_update',
};

/** Every stored column, e.g. `list_record_0`. */
export const storedColumns = (): string[] =>
  LAYOUTS.flatMap((layout) => layout.parts.map((p) => p.column));

const setParts = () =>
  LAYOUTS.flatMap((layout) => layout.parts.map((p) => `${p.column} = ${p.sql}`)).join(', ');

/** Adds the columns, fills them for every existing file, and keeps them current. */
export async function installStoredRecords(knex: Knex): Promise<void> {
  for (const column of storedColumns()) {
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
    // E-mail addresses do not change today; if they ever do, the search shows the right one.
    await knex.raw(`
      CREATE TRIGGER ${TRIGGERS.email} AFTER UPDATE OF email ON users BEGIN
        UPDATE files SET ${set} WHERE files.user_id = NEW.id;
      END`);
  }
}

/**
 * Undoes installStoredRecords, whatever definition installed it: the columns are found by their
 * names' shape, not taken from today's definition. Indexes on them must be dropped first.
 */
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

const PG_LAYOUTS = [PG_STORED.list, PG_STORED.search];

/**
 * PostgreSQL: the JSON quoting function the parts call, then every part as a generated column,
 * in one ALTER TABLE (one rewrite of the table, which computes them for existing rows).
 */
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

/** Undoes installPgStoredRecords, whatever definition installed it (indexes on them go too). */
export async function removePgStoredRecords(knex: Knex): Promise<void> {
  const columns = await knex('information_schema.columns')
    .where({ table_schema: knex.raw('current_schema()'), table_name: 'files' })
    .pluck<string[]>('column_name');
  const drops = columns.filter((c) => PART_NAME.test(c)).map((c) => `DROP COLUMN ${c}`);
  if (drops.length > 0) await knex.raw(`ALTER TABLE files ${drops.join(', ')}`);
  await knex.raw(`DROP FUNCTION IF EXISTS ${PG_JSON_QUOTE}(text)`);
}
