// Why: 0008 stored each file's whole list and search record, URLs included, from its own copy
// of the record's fields, beside the JavaScript and PostgreSQL copies (issue 45). The record is
// now defined once (server/files/file-record.ts) and SQLite stores only its data fields, as
// parts between the URLs (`["name","status",` and `,"location","time"[,"owner"]]`); the routes
// compose the URLs from the file's id when answering, and the stored parts, the backfill and the
// triggers are generated from that definition. The indexes that answer the list and the search
// alone now hold the parts and media_deleted_at (which empties the media URL) instead of the
// records; media_deleted_at no longer fires the triggers. SQLite only, as 0008 and 0009.
import type { Knex } from 'knex';
import {
  installStoredRecords,
  removeStoredRecords,
  STORED,
} from './frozen/record-parts-20261129.ts';
import { addStoredRecords } from './20261124_0008_files_stored_records.ts';
import { createLocationIndex } from './20261124_0009_files_search_by_location.ts';

function isSqlite(knex: Knex): boolean {
  return String((knex.client as { config: Knex.Config }).config.client).startsWith('sqlite');
}

/** 0008's and 0009's indexes over the stored records; 0009's name is kept for its successor. */
const LIST_INDEX = 'files_list_records_index';
const SEARCH_INDEX = 'files_search_records_index';
const LOCATION_INDEX = 'files_location_search_index';
const PARTS_LIST_INDEX = 'files_list_record_parts_index';
const PARTS_SEARCH_INDEX = 'files_search_record_parts_index';

export async function up(knex: Knex): Promise<void> {
  if (!isSqlite(knex)) return;
  for (const trigger of [
    'files_records_after_insert',
    'files_records_after_update',
    'users_email_after_update',
  ]) {
    await knex.raw(`DROP TRIGGER ${trigger}`);
  }
  for (const index of [LIST_INDEX, SEARCH_INDEX, LOCATION_INDEX]) {
    await knex.raw(`DROP INDEX ${index}`);
  }
  // Not knex's dropColumn: on SQLite it copies the table and loses 0009's triggers.
  await knex.raw('ALTER TABLE files DROP COLUMN list_record');
  await knex.raw('ALTER TABLE files DROP COLUMN search_record');
  await installStoredRecords(knex);
  // The list: one user's files, newest first. The search: a status_time range, or (0009) the
  // matching locations' files in the range, then the description filter, all from the index.
  const list = STORED.list.answerColumns.join(', ');
  const search = STORED.search.answerColumns.join(', ');
  await knex.raw(`CREATE INDEX ${PARTS_LIST_INDEX} ON files (user_id, created_at, id, ${list})`);
  await knex.raw(
    `CREATE INDEX ${PARTS_SEARCH_INDEX} ON files (status_time, id, location, description, ${search})`,
  );
  await knex.raw(
    `CREATE INDEX ${LOCATION_INDEX} ON files (location, status_time, id, description, ${search})`,
  );
}

export async function down(knex: Knex): Promise<void> {
  if (!isSqlite(knex)) return;
  for (const index of [PARTS_LIST_INDEX, PARTS_SEARCH_INDEX, LOCATION_INDEX]) {
    await knex.raw(`DROP INDEX ${index}`);
  }
  await removeStoredRecords(knex);
  await addStoredRecords(knex);
  await createLocationIndex(knex);
}
