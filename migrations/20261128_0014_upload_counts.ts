// Why: the daily upload quota (server/files/quotas.ts) counted the user's files created today,
// so deleting a file (DELETE /api/files/:id) gave its upload back and a user could upload,
// delete and upload again without end, each upload costing an analysis. Accepted uploads are
// counted here per user and UTC day, in the transaction that records the file, and deleting
// the file leaves the count alone.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('upload_counts', (t) => {
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('day', 10).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['user_id', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('upload_counts');
}
