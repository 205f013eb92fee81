// Why: a Researcher can turn hornet alert e-mails off (issue 42); on by default, as before.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('hornet_alerts').notNullable().defaultTo(true);
  });
}

// Plain DROP COLUMN (SQLite 3.35+): knex's SQLite emulation copies the table, which the files
// triggers of 0008 that read users would not survive.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE users DROP COLUMN hornet_alerts');
}
