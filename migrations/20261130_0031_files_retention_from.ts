// Why: a video's media was erased MEDIA_RETENTION_HOURS after its status_time, and every
// "count again" moved status_time, so re-counting a video kept it on disk without end (issue
// 54). `retention_from` is when the file was first finished (processed or failed); later runs
// leave it alone, and the retention sweep counts from it. Finished files get their status_time,
// which is what the sweep counted from until now.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('files', (t) => {
    t.string('retention_from', 32).nullable();
  });
  await knex('files')
    .whereIn('status', ['PROCESSED', 'FAILED'])
    .update({ retention_from: knex.ref('status_time') });
  await knex.raw('CREATE INDEX files_retention_from_index ON files (retention_from)');
}

// Plain DROP COLUMN (SQLite 3.35+), as 0015: knex's SQLite emulation would copy the table.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX files_retention_from_index');
  await knex.raw('ALTER TABLE files DROP COLUMN retention_from');
}
