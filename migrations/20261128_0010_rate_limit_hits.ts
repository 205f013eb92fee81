// Why: the sign-in, forgot-password and registration limits lived in one process's memory, so
// several `serve` processes each allowed the full count and a restart forgot every attempt. One
// row per counted attempt keeps an exact sliding window that every process shares; keys are
// short strings such as `signin:ip:1.2.3.4`. Rows older than the window are pruned as hits come.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_hits', (t) => {
    t.increments('id').primary();
    t.string('key', 400).notNullable();
    t.string('at', 32).notNullable();
    t.index(['key', 'at']);
    t.index(['at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_hits');
}
