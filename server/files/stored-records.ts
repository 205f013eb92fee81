/**
 * SQLite keeps each file's record parts (file-record.ts `STORED`) in columns of `files`, written
 * by triggers whenever a value they show changes; record-json.ts explains why. Migrations call
 * these: the columns, the backfill of existing rows and the triggers all come from the record's
 * one definition. SQLite only (PostgreSQL builds records with json_build_array when answering).
 */
import type { Knex } from 'knex';
import { STORED } from './file-record.ts';

const LAYOUTS = [STORED.list, STORED.search];
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
  for (const column of columns.filter((c) => /^(list|search)_record_\d+$/.test(c))) {
    await knex.raw(`ALTER TABLE files DROP COLUMN ${column}`);
  }
}
