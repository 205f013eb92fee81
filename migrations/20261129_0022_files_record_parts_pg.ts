// Why: PostgreSQL built every record's JSON with json_build_array when answering, which was most
// of a long search's database time (a quarter without keywords answers thousands of files), while
// SQLite answers from stored parts (0021). PostgreSQL now stores the same parts, generated from
// the record's one definition (server/files/file-record.ts `PG_STORED`, frozen in ./frozen/) as generated columns, so
// existing files get theirs when the columns are added and PostgreSQL keeps them current; URLs
// and the owner's e-mail are still composed when answering. The search's covering index (0012)
// is replaced by one that holds the parts instead of the fields they are made of, and the list
// gets one too, so that both answer from an index alone. PostgreSQL only: a no-op on SQLite.
import type { Knex } from 'knex';
import {
  installPgStoredRecords,
  PG_STORED,
  removePgStoredRecords,
} from './frozen/record-parts-20261129.ts';
import * as searchCoveringIndex from './20261128_0012_files_search_covering_index_pg.ts';

const SEARCH_INDEX = 'files_search_record_parts_pg_index';
const LIST_INDEX = 'files_list_record_parts_pg_index';
const REPLACED_SEARCH_INDEX = 'files_search_covering_pg_index';

function isPostgres(knex: Knex): boolean {
  return String((knex.client as { config: Knex.Config }).config.client) === 'pg';
}

export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('DROP INDEX ??', [REPLACED_SEARCH_INDEX]);
  await installPgStoredRecords(knex);
  await createSearchIndex(knex);
  // The list: one user's files, newest first.
  const list = PG_STORED.list.answerColumns.join(', ');
  await knex.raw(`CREATE INDEX ?? ON files (user_id, created_at, id) INCLUDE (${list})`, [
    LIST_INDEX,
  ]);
}

/** This migration's search index; also what 0023's down() restores. */
export async function createSearchIndex(knex: Knex): Promise<void> {
  // The search: a status_time range, filtered on location and description, joined to the owner.
  const search = ['user_id', 'location', 'description', ...PG_STORED.search.answerColumns];
  await knex.raw(`CREATE INDEX ?? ON files (status_time, id) INCLUDE (${search.join(', ')})`, [
    SEARCH_INDEX,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  for (const index of [SEARCH_INDEX, LIST_INDEX]) await knex.raw('DROP INDEX ??', [index]);
  await removePgStoredRecords(knex);
  await searchCoveringIndex.up(knex);
}
