// Why: on PostgreSQL the admin search read every file of its date range from the table, whose
// rows are wide (stored frames and results), and its description/location patterns are rarely
// selective enough for the trigram indexes of 0007 ("pollen" is in a quarter of the files), so
// the planner scanned the heap: 50 clients got 493 rps, p99 150 ms (issue 44). This index holds
// everything the search filters on and answers with, in the order it answers, so the search
// reads the date range from the index alone (an index-only scan once autovacuum has marked the
// pages visible): best-of-9 database time for the bench's six searches 31.7 -> 20.9 ms.
// PostgreSQL only: SQLite has its own covering indexes (0008); a no-op there.
import type { Knex } from 'knex';

const NAME = 'files_search_covering_pg_index';

function isPostgres(knex: Knex): boolean {
  return String((knex.client as { config: Knex.Config }).config.client) === 'pg';
}

export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw(
    `CREATE INDEX ?? ON files (status_time, id)
       INCLUDE (user_id, original_name, status, location, media_deleted_at, description)`,
    [NAME],
  );
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('DROP INDEX IF EXISTS ??', [NAME]);
}
