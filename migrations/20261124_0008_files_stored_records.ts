// Why: the files list and the admin search answer with one positional JSON record per file, and
// on SQLite building those records (json_array over six columns, the URLs concatenated, the
// timestamp re-spelled, the owner joined in for the search) cost more than finding the rows: a
// 30-day search over 10,000 files took 1.35 ms in the database, 1.0 ms of it building 881
// records. Each file now carries its two records, written by triggers whenever a column they
// show changes, so those routes concatenate stored strings from an index that holds them: the
// bench's search mix 1.04 -> 0.62 ms per query.
//
// A record is NULL when status_time is not in the server's own `toISOString()` form (SQL cannot
// re-spell other forms the way Date does); record-json.ts sends such answers to the JavaScript
// path. SQLite only, as 0005 and 0006 which these indexes replace: PostgreSQL builds the records
// with json_agg and keeps its heap small by moving large values out of line.
import type { Knex } from 'knex';

function isSqlite(knex: Knex): boolean {
  return String((knex.client as { config: Knex.Config }).config.client).startsWith('sqlite');
}

/** The list record of the spec: `[name, status, media_url, report_url, location, status_time]`. */
const LIST_FIELDS = [
  'files.original_name',
  'files.status',
  "CASE WHEN files.media_deleted_at IS NULL THEN '/api/files/' || files.id || '/media' ELSE '' END",
  "'/api/files/' || files.id || '/report.csv'",
  'files.location',
  "substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00'",
];
const OWNER_EMAIL = '(SELECT users.email FROM users WHERE users.id = files.user_id)';
const CANONICAL = "files.status_time LIKE '____-__-__T__:__:__.___Z'";

const record = (fields: string[]) =>
  `CASE WHEN ${CANONICAL} THEN json_array(${fields.join(', ')}) END`;
const SET_RECORDS =
  `list_record = ${record(LIST_FIELDS)}, ` +
  `search_record = ${record([...LIST_FIELDS, OWNER_EMAIL])}`;
/** The columns the records show; a change to any of them rewrites both. */
const SHOWN = ['original_name', 'status', 'media_deleted_at', 'location', 'status_time', 'user_id'];

const LIST_INDEX = 'files_list_records_index';
const SEARCH_INDEX = 'files_search_records_index';

export async function up(knex: Knex): Promise<void> {
  if (!isSqlite(knex)) return;
  await addStoredRecords(knex);
  await knex.raw('DROP INDEX files_list_covering_index');
  await knex.raw('DROP INDEX files_search_covering_index');
}

/**
 * This migration's records: columns, backfill, triggers and indexes. Also what 0021's down()
 * restores (0021 replaced these records by parts without URLs).
 */
export async function addStoredRecords(knex: Knex): Promise<void> {
  await knex.schema.alterTable('files', (t) => {
    t.text('list_record').nullable();
    t.text('search_record').nullable();
  });
  await knex.raw(`UPDATE files SET ${SET_RECORDS}`);
  await knex.raw(`
    CREATE TRIGGER files_records_after_insert AFTER INSERT ON files BEGIN
      UPDATE files SET ${SET_RECORDS} WHERE files.id = NEW.id;
    END`);
  await knex.raw(`
    CREATE TRIGGER files_records_after_update AFTER UPDATE OF ${SHOWN.join(', ')} ON files BEGIN
      UPDATE files SET ${SET_RECORDS} WHERE files.id = NEW.id;
    END`);
  // E-mail addresses do not change today; if they ever do, the search keeps showing the right one.
  await knex.raw(`
    CREATE TRIGGER users_email_after_update AFTER UPDATE OF email ON users BEGIN
      UPDATE files SET ${SET_RECORDS} WHERE files.user_id = NEW.id;
    END`);
  // The list: one user's files, newest first. The search: a status_time range, then the
  // location and description filters, all from the index.
  await knex.raw(`CREATE INDEX ${LIST_INDEX} ON files (user_id, created_at, id, list_record)`);
  await knex.raw(
    `CREATE INDEX ${SEARCH_INDEX} ON files (status_time, id, location, description, search_record)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  if (!isSqlite(knex)) return;
  await knex.raw(
    'CREATE INDEX files_list_covering_index ON files (user_id, created_at, id, original_name, ' +
      'status, location, status_time, media_deleted_at)',
  );
  await knex.raw(
    'CREATE INDEX files_search_covering_index ON files (status_time, id, user_id, location, ' +
      'description, original_name, status, media_deleted_at)',
  );
  await knex.raw(`DROP INDEX ${LIST_INDEX}`);
  await knex.raw(`DROP INDEX ${SEARCH_INDEX}`);
  await knex.raw('DROP TRIGGER files_records_after_insert');
  await knex.raw('DROP TRIGGER files_records_after_update');
  await knex.raw('DROP TRIGGER users_email_after_update');
  await knex.schema.alterTable('files', (t) => {
    t.dropColumn('list_record');
    t.dropColumn('search_record');
  });
}
