// Why: hive-health comparisons are kept so a result can be shown again (decisions.md 3), and each
// hornet alert is recorded once per file so a retried job never e-mails twice (decisions.md 4).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('comparisons', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('group_one_json').notNullable();
    t.text('group_two_json').notNullable();
    t.text('result_json').notNullable();
    t.string('created_at', 32).notNullable();
  });
  await knex.schema.createTable('hornet_alerts', (t) => {
    t.increments('id').primary();
    t.integer('file_id')
      .notNullable()
      .unique()
      .references('id')
      .inTable('files')
      .onDelete('CASCADE');
    t.string('sent_at', 32).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hornet_alerts');
  await knex.schema.dropTable('comparisons');
}
