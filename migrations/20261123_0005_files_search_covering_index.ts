// Why: the admin search (POST /api/search-results-files) scans a status_time range and filters on
// description and location. On SQLite each row in the range was fetched from the table, whose
// rows are large (the results JSON), so a year's search over 10,000 files touched most of a
// 50 MB table; this index holds every column the search reads, so it runs from the index alone.
// The bench's search mix on 10,000 files, per query: ~8 -> ~3 ms with a 32 MiB page cache
// (~17 -> ~3 ms with SQLite's default 2 MiB). SQLite only: PostgreSQL compresses or moves large
// values out of line (TOAST), so its heap stays small (12 MB for the same files), and its B-tree
// entries are capped at ~2.7 kB, which a 5,000-character description could exceed.
import type { Knex } from 'knex';

const INDEX = 'files_search_covering_index';

function isSqlite(knex: Knex): boolean {
  return String((knex.client as { config: Knex.Config }).config.client).startsWith('sqlite');
}

export async function up(knex: Knex): Promise<void> {
  if (!isSqlite(knex)) return;
  await knex.schema.alterTable('files', (t) => {
    t.index(
      [
        'status_time',
        'id',
        'user_id',
        'location',
        'description',
        'original_name',
        'status',
        'media_deleted_at',
      ],
      INDEX,
    );
  });
}

export async function down(knex: Knex): Promise<void> {
  if (!isSqlite(knex)) return;
  await knex.schema.alterTable('files', (t) => {
    t.dropIndex([], INDEX);
  });
}
